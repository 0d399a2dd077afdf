//! A TRF team file into the competition model: teams from `310` (or `013`), matches rebuilt
//! from the player games of each round, line-ups from `300`, byes from `320` and `240`, whole
//! match forfeits from `330`, and the scoring from `162`, `362`, `212`, `352`.

use std::collections::{BTreeMap, HashMap, HashSet};

use arbiter_core::record::model::{
    Board, Bye, ByeKind, Colour, Competition, GameResult, Match, MatchOutcome, Pairing, Player,
    PlayerId, RatingRecord, Round, Side, Team, TeamId,
};
use arbiter_core::rules::criteria::CriterionSpec;
use arbiter_core::rules::criteria::ScoreBasis;
use arbiter_core::rules::ruleset::{
    Award, FideEdition, FideSettings, ForfeitMatchScoring, Ruleset,
};

use super::records::{
    MatchForfeitKind, PlayerRecord, Record, ResultCode, RoundBlock, TournamentBody,
};
use super::{TrfDocument, TrfError};

/// Rounds beyond this are not read: TRF round numbers have three columns.
pub(crate) const MAX_ROUNDS: u32 = 999;

/// A TRF file as a competition, with the rules and tie-breaks it names.
#[derive(Debug, Clone, PartialEq)]
pub struct TrfImport {
    /// The teams (from `310` or `013`), rounds, matches and boards the file records.
    pub competition: Competition,
    /// The `fide-team` preset with the file's boards, `162` game points, `362` match points,
    /// `320` bye award, `352` colours and `212` standings order.
    pub rules: Ruleset,
    /// The `202` tie-break list, in order.
    pub tiebreaks: Vec<CriterionSpec>,
    /// What was read but could not be carried into the model, or did not agree with itself,
    /// each as `file:line: sentence`.
    pub warnings: Vec<String>,
}

/// A team's numbers and roster while the file is read.
struct TeamEntry {
    number: u32,
    line: usize,
    /// Start ranks, in roster order.
    roster: Vec<u32>,
}

/// A `300` record: its line, the opponent it names, the players board by board.
struct Lineup300 {
    line: usize,
    opponent: Option<u32>,
    players: Vec<Option<u32>>,
}

/// What the reading gathers from the document before the rounds are rebuilt.
struct Gathered<'a> {
    players: BTreeMap<u32, (usize, &'a PlayerRecord)>,
    name: String,
    round_dates: Vec<String>,
    /// `042`, `092`, `192` as written: what FIDE's tie-breaks need to know of the event.
    start_date: Option<String>,
    event_type: Option<String>,
    coded_type: Option<String>,
    rounds_142: Option<(usize, u32)>,
    scoring: Vec<(String, Option<f64>)>,
    team_scoring: Vec<(String, Option<f64>)>,
    tiebreaks: Option<(usize, Vec<String>)>,
    standings: Option<(usize, Vec<String>)>,
    colours: Option<String>,
    /// By (round, team).
    lineups: HashMap<(u32, u32), Lineup300>,
    pab: Option<(usize, Option<f64>, Option<f64>)>,
    pab_teams: Vec<(usize, u32, u32)>,
    byes: Vec<(usize, ByeKind, u32, Vec<u32>)>,
    forfeits: Vec<(usize, MatchForfeitKind, u32, u32, u32)>,
    not_carried: BTreeMap<&'static str, usize>,
}

struct Warnings<'a> {
    origin: &'a str,
    list: Vec<String>,
}

impl Warnings<'_> {
    fn at(&mut self, line: usize, message: String) {
        if line > 0 {
            self.list.push(format!("{}:{line}: {message}", self.origin));
        } else {
            self.list.push(format!("{}: {message}", self.origin));
        }
    }
}

/// Builds the competition a TRF team file describes.
///
/// Teams come from `310` records (or `013` when there are none), identified by their pairing
/// number (`"1"`, `"2"`, ...; a `013` team by its place in the file); players by their start
/// rank. Each round's matches are rebuilt from the players' games: two teams whose players
/// met form a match; a `300` record gives a team's boards, otherwise its players who played
/// that round, in roster order, take boards 1, 2, ...; the first-named team is the one whose
/// board-1 player has the colour `352` gives board 1. `330` records are whole-match forfeits,
/// `320` pairing-allocated byes, `240` full-, half- and zero-point byes (team numbers in a team
/// file). A team without a pairing or bye in a round is left unpaired.
///
/// Fails only when the file has no teams or gives one start rank or team number twice; the
/// rest (a player without a record, a game across three teams) becomes a warning.
pub fn to_competition(doc: &TrfDocument) -> Result<TrfImport, TrfError> {
    let origin = doc.origin.as_str();
    let mut w = Warnings {
        origin,
        list: Vec::new(),
    };
    let g = gather(doc)?;
    let whole_file = |expected: String, found: String| TrfError {
        origin: origin.to_string(),
        line: 0,
        column: 0,
        expected,
        found,
    };

    // Teams and rosters.
    let mut entries: Vec<TeamEntry> = Vec::new();
    let has_310 = doc
        .lines
        .iter()
        .any(|l| matches!(l.record, Record::Team310(_)));
    let mut team_names = Vec::new();
    for (line, record) in doc.records() {
        let (number, name, players) = match record {
            Record::Team310(t) if has_310 => (t.number.value, t.name.value.clone(), &t.players),
            Record::Team013(t) if !has_310 => (
                u32::try_from(entries.len() + 1).unwrap_or(u32::MAX),
                t.name.value.clone(),
                &t.players,
            ),
            _ => continue,
        };
        if let Some(other) = entries.iter().find(|e| e.number == number) {
            return Err(TrfError {
                origin: origin.to_string(),
                line,
                column: 5,
                expected: format!(
                    "a team pairing number not used before (line {} has team {number})",
                    other.line
                ),
                found: number.to_string(),
            });
        }
        let roster = players.iter().filter_map(|f| f.value.0).collect();
        entries.push(TeamEntry {
            number,
            line,
            roster,
        });
        team_names.push(name);
    }
    if entries.is_empty() {
        return Err(whole_file(
            "team records (310, or 013 in a TRF-16 file): Arbiter imports team competitions".into(),
            format!("{} player records and no team", g.players.len()),
        ));
    }

    let mut team_of: HashMap<u32, usize> = HashMap::new();
    let mut teams = Vec::new();
    // Lines of birth dates that give only the year: common (FIDE's own samples), so said once.
    let mut year_only: Vec<usize> = Vec::new();
    for (t, entry) in entries.iter_mut().enumerate() {
        let mut players = Vec::new();
        let mut kept = Vec::new();
        for &sr in &entry.roster {
            let Some(&(line, p)) = g.players.get(&sr) else {
                w.at(
                    entry.line,
                    format!(
                        "team {} lists player {sr}, who has no 001 record; left out of the roster",
                        entry.number
                    ),
                );
                continue;
            };
            if let Some(&other) = team_of.get(&sr) {
                w.at(
                    entry.line,
                    format!(
                        "team {} lists player {sr}, who already plays for team {}; kept in the first team only",
                        entry.number, entries_number(other, &team_names)
                    ),
                );
                continue;
            }
            team_of.insert(sr, t);
            kept.push(sr);
            let born = p.birth_date.value.trim();
            let birth_date = birth_date(born);
            if birth_date.is_none() && is_year_only(born) {
                year_only.push(line);
            } else if birth_date.is_none() && !born.is_empty() {
                w.at(
                    line,
                    format!(
                        "player {sr}: the birth date `{born}` (001, columns 70-79) is not a date YYYY/MM/DD; left out, so B.02's K 40 under 18 cannot apply"
                    ),
                );
            }
            players.push(Player {
                id: PlayerId(sr.to_string()),
                name: p.name.value.clone(),
                rating: p.rating.value.filter(|r| *r > 0),
                record: RatingRecord {
                    birth_date,
                    ..RatingRecord::default()
                },
                ..Player::default()
            });
        }
        entry.roster = kept;
        teams.push(Team {
            id: TeamId(entry.number.to_string()),
            name: team_names[t].clone(),
            school: None,
            players,
        });
    }
    if let Some(first) = year_only.iter().min() {
        w.at(
            0,
            format!(
                "{} players' birth dates (001, columns 70-79) give only the year (YYYY/00/00), the first on line {first}: left out, so B.02's K 40 under 18 cannot apply to them",
                year_only.len()
            ),
        );
    }
    for (sr, (line, _)) in &g.players {
        if !team_of.contains_key(sr) {
            w.at(
                *line,
                format!("player {sr} is in no team; their games are not counted"),
            );
        }
    }
    let team_by_number: HashMap<u32, usize> = entries
        .iter()
        .enumerate()
        .map(|(i, e)| (e.number, i))
        .collect();

    // How many rounds.
    let mut rounds = g
        .players
        .values()
        .map(|(_, p)| u32::try_from(p.rounds.len()).unwrap_or(u32::MAX))
        .max()
        .unwrap_or(0);
    if let Some((line, n)) = g.rounds_142 {
        if n > MAX_ROUNDS {
            w.at(
                line,
                format!("142 says {n} rounds; only the first {MAX_ROUNDS} are read"),
            );
        } else {
            rounds = rounds.max(n);
        }
    }
    for r in g
        .lineups
        .keys()
        .map(|k| k.0)
        .chain(g.pab_teams.iter().map(|p| p.1))
        .chain(g.byes.iter().map(|b| b.2))
        .chain(g.forfeits.iter().map(|f| f.2))
    {
        rounds = rounds.max(r);
    }
    let rounds = rounds.min(MAX_ROUNDS);

    let pattern: Vec<bool> = g
        .colours
        .as_deref()
        .filter(|c| !c.is_empty())
        .map(|c| c.chars().map(|c| c.eq_ignore_ascii_case(&'W')).collect())
        .unwrap_or_else(|| vec![true, false]);
    let home_white_on = |board: usize| pattern[board % pattern.len()];

    // Every round looks up the round block of each team member and of each opponent: by
    // start rank in a table, not in the map.
    let by_rank = RankIndex::new(&g.players);
    let block = |sr: u32, r: u32| -> Option<&RoundBlock> {
        let (_, rounds) = by_rank.get(sr)?;
        rounds.get(usize::try_from(r).ok()?.checked_sub(1)?)
    };

    let mut boards_max = g.colours.as_ref().map_or(0, |c| c.chars().count());
    let mut competition_rounds = Vec::new();
    for r in 1..=rounds {
        let mut partner: HashMap<usize, usize> = HashMap::new();
        let mut matches: Vec<Match> = Vec::new();
        let mut byes: Vec<(u32, Bye)> = Vec::new();
        let mut with_bye: HashSet<u32> = HashSet::new();

        // Whole-match forfeits (330).
        for &(line, kind, _, white, black) in g.forfeits.iter().filter(|f| f.2 == r) {
            let (Some(&h), Some(&a)) = (team_by_number.get(&white), team_by_number.get(&black))
            else {
                w.at(
                    line,
                    format!("round {r}: the forfeited match {white}-{black} names a team that has no 310 record; left out"),
                );
                continue;
            };
            if h == a || partner.contains_key(&h) || partner.contains_key(&a) {
                w.at(
                    line,
                    format!("round {r}: team {white} or {black} is already paired in this round; the forfeited match is left out"),
                );
                continue;
            }
            partner.insert(h, a);
            partner.insert(a, h);
            let outcome = match kind {
                MatchForfeitKind::WhiteWins => MatchOutcome::Forfeit { by: Side::Away },
                MatchForfeitKind::BlackWins => MatchOutcome::Forfeit { by: Side::Home },
                MatchForfeitKind::Double => MatchOutcome::DoubleForfeit,
            };
            for (t, other) in [(h, a), (a, h)] {
                let played = entries[t].roster.iter().any(|&sr| {
                    block(sr, r)
                        .and_then(RoundBlock::opponent)
                        .and_then(|q| team_of.get(&q))
                        == Some(&other)
                });
                if played {
                    w.at(
                        line,
                        format!("round {r}: the match {white}-{black} is forfeited (330), so the games its players have in this round are not counted"),
                    );
                    break;
                }
            }
            matches.push(Match {
                date: None,
                home: teams[h].id.clone(),
                away: teams[a].id.clone(),
                outcome,
                start: None,
                extra_games: Vec::new(),
                late: None,
            });
        }

        // Pairings named by line-ups (300), then by the games played.
        let mut pairs: Vec<(usize, usize)> = Vec::new();
        let mut lineup_keys: Vec<_> = g.lineups.iter().filter(|(k, _)| k.0 == r).collect();
        lineup_keys.sort_by_key(|(k, _)| **k);
        for ((_, team), Lineup300 { line, opponent, .. }) in lineup_keys {
            let (Some(&t), Some(&o)) = (
                team_by_number.get(team),
                opponent.and_then(|o| team_by_number.get(&o)),
            ) else {
                w.at(
                    *line,
                    format!("round {r}: the line-up of team {team} names no known opponent; it is not used"),
                );
                continue;
            };
            match (partner.get(&t), partner.get(&o)) {
                (None, None) if t != o => {
                    partner.insert(t, o);
                    partner.insert(o, t);
                    pairs.push((t.min(o), t.max(o)));
                }
                (Some(&p), _) if p == o => {}
                _ => w.at(
                    *line,
                    format!("round {r}: the line-up of team {team} against team {} does not fit the pairings of the round; it is not used", entries[o].number),
                ),
            }
        }
        let mut games: BTreeMap<(usize, usize), usize> = BTreeMap::new();
        for (t, entry) in entries.iter().enumerate() {
            for &sr in &entry.roster {
                let Some(q) = block(sr, r).and_then(RoundBlock::opponent) else {
                    continue;
                };
                match team_of.get(&q) {
                    Some(&o) if o != t => *games.entry((t.min(o), t.max(o))).or_default() += 1,
                    Some(_) => w.at(
                        by_rank.get(sr).map_or(0, |p| p.0),
                        format!("round {r}: player {sr} played {q}, a player of the same team; the game is not counted"),
                    ),
                    None => w.at(
                        by_rank.get(sr).map_or(0, |p| p.0),
                        format!("round {r}: player {sr} played {q}, who is in no team; the game is not counted"),
                    ),
                }
            }
        }
        let mut by_count: Vec<_> = games.iter().map(|(&k, &n)| (k, n)).collect();
        by_count.sort_by(|x, y| y.1.cmp(&x.1).then(x.0.cmp(&y.0)));
        for ((a, b), _) in &by_count {
            if !partner.contains_key(a) && !partner.contains_key(b) {
                partner.insert(*a, *b);
                partner.insert(*b, *a);
                pairs.push((*a, *b));
            }
        }
        for ((a, b), n) in &by_count {
            if partner.get(a) != Some(b) {
                w.at(
                    0,
                    format!(
                        "round {r}: {n} game(s) between players of teams {} and {}, which are not paired with each other; not counted",
                        entries[*a].number, entries[*b].number
                    ),
                );
            }
        }

        for (a, b) in pairs {
            let lineup_of = |t: usize, o: usize| -> Vec<Option<u32>> {
                match g.lineups.get(&(r, entries[t].number)) {
                    Some(l) if l.opponent == Some(entries[o].number) => l.players.clone(),
                    _ => default_lineup(&entries[t].roster, r, o, &block, &team_of),
                }
            };
            let la = lineup_of(a, b);
            let lb = lineup_of(b, a);
            let n = la.len().max(lb.len());
            boards_max = boards_max.max(n);
            // The first-named team: its board-i player has the colour 352 gives board i.
            let mut a_home = None;
            for i in 0..n {
                for (lineup, is_a) in [(&la, true), (&lb, false)] {
                    if a_home.is_some() {
                        break;
                    }
                    if let Some(white) = lineup
                        .get(i)
                        .copied()
                        .flatten()
                        .and_then(|sr| block(sr, r))
                        .filter(|b| b.opponent().is_some())
                        .and_then(RoundBlock::is_white)
                    {
                        a_home = Some((white == home_white_on(i)) == is_a);
                    }
                }
            }
            let (h, aw, lh, lw) = if a_home.unwrap_or(true) {
                (a, b, la, lb)
            } else {
                (b, a, lb, la)
            };
            let mut boards = Vec::new();
            for i in 0..n {
                let hp = lh.get(i).copied().flatten();
                let ap = lw.get(i).copied().flatten();
                boards.push(board(r, i, hp, ap, &block, &mut w, &g));
            }
            let outcome = if boards.is_empty() {
                MatchOutcome::Pending
            } else {
                MatchOutcome::Boards(boards)
            };
            matches.push(Match {
                date: None,
                home: teams[h].id.clone(),
                away: teams[aw].id.clone(),
                outcome,
                start: None,
                extra_games: Vec::new(),
                late: None,
            });
        }

        // Byes: 320 (pairing-allocated), 240 (requested).
        for &(line, _, team) in g.pab_teams.iter().filter(|p| p.1 == r) {
            match team_by_number.get(&team) {
                Some(&t) if !partner.contains_key(&t) && with_bye.insert(team) => {
                    byes.push((
                        team,
                        Bye {
                            team: teams[t].id.clone(),
                            kind: ByeKind::PairingAllocated,
                        },
                    ));
                }
                Some(_) => w.at(
                    line,
                    format!("round {r}: team {team} has a pairing-allocated bye but is already paired; the bye is left out"),
                ),
                None => w.at(
                    line,
                    format!("round {r}: the pairing-allocated bye names team {team}, which has no team record"),
                ),
            }
        }
        for (line, kind, _, ids) in g.byes.iter().filter(|b| b.2 == r) {
            for &team in ids {
                match team_by_number.get(&team) {
                    Some(&t) if !partner.contains_key(&t) && with_bye.insert(team) => {
                        byes.push((
                            team,
                            Bye {
                                team: teams[t].id.clone(),
                                kind: *kind,
                            },
                        ));
                    }
                    Some(_) => w.at(
                        *line,
                        format!("round {r}: team {team} has a bye but is already paired or has a bye; the 240 bye is left out"),
                    ),
                    None => w.at(
                        *line,
                        format!("round {r}: the 240 bye names team {team}, which has no team record (in a team file 240 lists team numbers)"),
                    ),
                }
            }
        }

        // TRF-16's way, as FIDE's checker reads it: a team with no match and no 240 or 320 bye
        // has the bye its first player's round block names without an opponent (U, F, H, Z);
        // `+` there is a match won by forfeit against no team named, scored as a full-point bye.
        for (t, entry) in entries.iter().enumerate() {
            if partner.contains_key(&t) || with_bye.contains(&entry.number) {
                continue;
            }
            let code = entry
                .roster
                .iter()
                .filter_map(|&sr| block(sr, r))
                .find(|b| b.opponent().is_none() && b.result().is_some())
                .and_then(RoundBlock::result);
            let kind = match code {
                Some(ResultCode::PairingAllocatedBye) => ByeKind::PairingAllocated,
                Some(ResultCode::FullPointBye | ResultCode::ForfeitWin) => ByeKind::FullPoint,
                Some(ResultCode::HalfPointBye) => ByeKind::HalfPoint,
                Some(ResultCode::ZeroPointBye) => ByeKind::ZeroPoint,
                _ => continue,
            };
            with_bye.insert(entry.number);
            byes.push((
                entry.number,
                Bye {
                    team: teams[t].id.clone(),
                    kind,
                },
            ));
        }

        let number = |id: &TeamId| id.0.parse::<u32>().unwrap_or(u32::MAX);
        matches.sort_by_key(|m| number(&m.home).min(number(&m.away)));
        byes.sort_by_key(|b| b.0);
        let mut pairings: Vec<Pairing> = matches.into_iter().map(Pairing::Match).collect();
        pairings.extend(byes.into_iter().map(|(_, b)| Pairing::Bye(b)));
        let date = g
            .round_dates
            .get(usize::try_from(r - 1).unwrap_or(usize::MAX))
            .filter(|d| !d.is_empty())
            .and_then(|d| {
                let date = short_date(d);
                if date.is_none() {
                    w.at(
                        0,
                        format!("round {r}: the date {d} (132) is not a calendar date"),
                    );
                }
                date
            });
        competition_rounds.push(Round {
            number: r,
            date,
            pairings,
        });
    }

    let rules = rules(doc, &g, boards_max, &mut w, origin)?;
    let tiebreaks = match &g.tiebreaks {
        Some((line, codes)) => criteria(codes, *line, "202", &mut w),
        None => Vec::new(),
    };
    if !g.not_carried.is_empty() {
        let list: Vec<String> = g
            .not_carried
            .iter()
            .map(|(k, n)| format!("{k} ({n})"))
            .collect();
        w.at(
            0,
            format!(
                "records the competition model does not hold, kept only in the TRF document: {}",
                list.join(", ")
            ),
        );
    }
    Ok(TrfImport {
        competition: Competition {
            name: g.name.clone(),
            teams,
            rounds: competition_rounds,
        },
        rules,
        tiebreaks,
        warnings: w.list,
    })
}

/// The players' lines and round blocks by start rank: a table for the ranks four columns hold,
/// the map beyond (a document built in code may number a player past 9999). The table holds
/// the blocks themselves, not the record they are in: one memory read fewer per look-up.
struct RankIndex<'m, 'a> {
    table: Vec<Option<(usize, &'a [RoundBlock])>>,
    map: &'m BTreeMap<u32, (usize, &'a PlayerRecord)>,
}

impl<'m, 'a> RankIndex<'m, 'a> {
    const TABLE_MAX: u32 = 9999;

    fn new(map: &'m BTreeMap<u32, (usize, &'a PlayerRecord)>) -> Self {
        let last = map
            .range(..=Self::TABLE_MAX)
            .next_back()
            .map_or(0, |(&sr, _)| sr as usize + 1);
        let mut table = vec![None; last];
        for (&sr, &(line, p)) in map.range(..=Self::TABLE_MAX) {
            table[sr as usize] = Some((line, p.rounds.as_slice()));
        }
        RankIndex { table, map }
    }

    fn get(&self, sr: u32) -> Option<(usize, &'a [RoundBlock])> {
        if sr <= Self::TABLE_MAX {
            self.table.get(sr as usize).copied().flatten()
        } else {
            self.map
                .get(&sr)
                .map(|&(line, p)| (line, p.rounds.as_slice()))
        }
    }
}

fn entries_number(t: usize, names: &[String]) -> String {
    names.get(t).cloned().unwrap_or_default()
}

/// A team's boards when no `300` record gives them: its players who played the opponent (or
/// won by forfeit against an empty board) in that round, in roster order.
pub(crate) fn default_lineup<'b>(
    roster: &[u32],
    round: u32,
    opponent: usize,
    block: &impl Fn(u32, u32) -> Option<&'b RoundBlock>,
    team_of: &HashMap<u32, usize>,
) -> Vec<Option<u32>> {
    roster
        .iter()
        .copied()
        .filter(|&sr| {
            block(sr, round).is_some_and(|b| match b.opponent() {
                Some(q) => team_of.get(&q) == Some(&opponent),
                None => b.result() == Some(ResultCode::ForfeitWin),
            })
        })
        .map(Some)
        .collect()
}

/// One board from the two players' round blocks (the home player's code decides, the away
/// player's is checked against it).
fn board<'b>(
    r: u32,
    i: usize,
    home: Option<u32>,
    away: Option<u32>,
    block: &impl Fn(u32, u32) -> Option<&'b RoundBlock>,
    w: &mut Warnings<'_>,
    g: &Gathered<'_>,
) -> Board {
    let line_of = |sr: u32| g.players.get(&sr).map_or(0, |p| p.0);
    let bh = home.and_then(|sr| block(sr, r));
    let ba = away.and_then(|sr| block(sr, r));
    let code_h = bh.and_then(RoundBlock::result);
    let code_a = ba.and_then(RoundBlock::result);
    let mut rating_result = None;
    let result = match (home, away) {
        (Some(h), Some(a)) => {
            if bh.and_then(RoundBlock::opponent) != Some(a)
                || ba.and_then(RoundBlock::opponent) != Some(h)
            {
                w.at(
                    line_of(h),
                    format!("round {r}, board {}: the line-up puts {h} against {a}, but their 001 records do not have them playing each other", i + 1),
                );
            }
            let result = match code_h {
                Some(ResultCode::Win) => GameResult::HomeWin,
                Some(ResultCode::Draw) => GameResult::Draw,
                Some(ResultCode::Loss) => GameResult::AwayWin,
                Some(ResultCode::UnratedWin) => GameResult::HomeWin,
                Some(ResultCode::UnratedDraw) => GameResult::Draw,
                Some(ResultCode::UnratedLoss) => GameResult::AwayWin,
                Some(ResultCode::ForfeitWin) => GameResult::HomeWinByForfeit,
                Some(ResultCode::ForfeitLoss) if code_a == Some(ResultCode::ForfeitLoss) => {
                    GameResult::DoubleForfeit
                }
                Some(ResultCode::ForfeitLoss) => GameResult::AwayWinByForfeit,
                None => GameResult::Pending,
                Some(other) => {
                    w.at(
                        line_of(h),
                        format!("round {r}: player {h} has an opponent but the bye code {}; the board is read as not played yet", other.to_char()),
                    );
                    GameResult::Pending
                }
            };
            if matches!(
                code_h,
                Some(ResultCode::UnratedWin | ResultCode::UnratedDraw | ResultCode::UnratedLoss)
            ) {
                // Under one move: it counts for the team, not for ratings.
                rating_result = Some(GameResult::DoubleForfeit);
            }
            let expected_away = match result {
                GameResult::HomeWin => [Some(ResultCode::Loss), Some(ResultCode::UnratedLoss)],
                GameResult::Draw => [Some(ResultCode::Draw), Some(ResultCode::UnratedDraw)],
                GameResult::AwayWin => [Some(ResultCode::Win), Some(ResultCode::UnratedWin)],
                GameResult::HomeWinByForfeit => [Some(ResultCode::ForfeitLoss); 2],
                GameResult::AwayWinByForfeit => [Some(ResultCode::ForfeitWin); 2],
                GameResult::DoubleForfeit => [Some(ResultCode::ForfeitLoss); 2],
                GameResult::Pending => [None; 2],
            };
            if !expected_away.contains(&code_a) {
                w.at(
                    line_of(a),
                    format!(
                        "round {r}: player {a}'s result does not match player {h}'s; {h}'s is used"
                    ),
                );
            }
            result
        }
        (Some(_), None) => {
            if code_h == Some(ResultCode::ForfeitWin) {
                GameResult::HomeWinByForfeit
            } else {
                GameResult::DoubleForfeit
            }
        }
        (None, Some(_)) => {
            if code_a == Some(ResultCode::ForfeitWin) {
                GameResult::AwayWinByForfeit
            } else {
                GameResult::DoubleForfeit
            }
        }
        (None, None) => GameResult::DoubleForfeit,
    };
    let colour = |b: Option<&RoundBlock>| {
        b.filter(|b| b.opponent().is_some())
            .and_then(RoundBlock::is_white)
    };
    let home_colour = colour(bh)
        .or_else(|| colour(ba).map(|white| !white))
        .map(|white| if white { Colour::White } else { Colour::Black });
    Board {
        result,
        rating_result,
        home_player: home.map(|sr| PlayerId(sr.to_string())),
        away_player: away.map(|sr| PlayerId(sr.to_string())),
        home_colour,
        unplayed: None,
        unfinished: None,
    }
}

fn gather(doc: &TrfDocument) -> Result<Gathered<'_>, TrfError> {
    let mut g = Gathered {
        players: BTreeMap::new(),
        name: String::new(),
        round_dates: Vec::new(),
        start_date: None,
        event_type: None,
        coded_type: None,
        rounds_142: None,
        scoring: Vec::new(),
        team_scoring: Vec::new(),
        tiebreaks: None,
        standings: None,
        colours: None,
        lineups: HashMap::new(),
        pab: None,
        pab_teams: Vec::new(),
        byes: Vec::new(),
        forfeits: Vec::new(),
        not_carried: BTreeMap::new(),
    };
    for (line, record) in doc.records() {
        let mut skip = |what: &'static str| *g.not_carried.entry(what).or_default() += 1;
        match record {
            Record::Player(p) => {
                let sr = p.start_rank.value;
                if let Some((other, _)) = g.players.get(&sr) {
                    return Err(TrfError {
                        origin: doc.origin.clone(),
                        line,
                        column: 5,
                        expected: format!(
                            "a start rank not used before (line {other} has player {sr})"
                        ),
                        found: sr.to_string(),
                    });
                }
                g.players.insert(sr, (line, p));
            }
            Record::Tournament(t) => match (&t.body, t.tag) {
                (TournamentBody::Text(f), 12) => g.name = f.value.clone(),
                (TournamentBody::Text(f), 42) => g.start_date = Some(f.value.clone()),
                (TournamentBody::Text(f), 92) => g.event_type = Some(f.value.clone()),
                (TournamentBody::Text(f), 192) => g.coded_type = Some(f.value.clone()),
                (TournamentBody::RoundDates { dates, .. }, _) => {
                    g.round_dates = dates.iter().map(|d| d.value.clone()).collect();
                }
                (TournamentBody::Rounds(f), _) => g.rounds_142 = Some((line, f.value)),
                (TournamentBody::Scoring(e), _) => {
                    g.scoring = e
                        .iter()
                        .map(|x| (x.code.value.to_ascii_uppercase(), x.points.value))
                        .collect();
                }
                (TournamentBody::TeamScoring(e), _) => {
                    g.team_scoring = e
                        .iter()
                        .map(|x| (x.code.value.to_ascii_uppercase(), x.points.value))
                        .collect();
                }
                (TournamentBody::Codes(f), 202) => g.tiebreaks = Some((line, f.value.clone())),
                (TournamentBody::Codes(f), _) => g.standings = Some((line, f.value.clone())),
                (TournamentBody::BoardColours(f), _) => {
                    g.colours = Some(f.value.to_ascii_uppercase());
                }
                _ => {}
            },
            Record::OutOfOrderLineup300(l) => {
                let key = (l.round.value, l.team.value);
                if g.lineups.contains_key(&key) {
                    skip("300 given twice for one team and round");
                    continue;
                }
                let players = l.players.iter().map(|f| f.value.0).collect();
                g.lineups.insert(
                    key,
                    Lineup300 {
                        line,
                        opponent: l.opponent.value.0,
                        players,
                    },
                );
            }
            Record::TeamPab320(p) => {
                if g.pab.is_none() {
                    g.pab = Some((line, p.match_points.value, p.game_points.value));
                }
                for (k, t) in p.teams.iter().enumerate() {
                    if let (Some(team), Ok(round)) = (t.value.0, u32::try_from(k + 1)) {
                        g.pab_teams.push((line, round, team));
                    }
                }
            }
            Record::Bye240(b) => {
                let kind = match b.kind.value.map(|c| c.to_ascii_uppercase()) {
                    Some('F') => ByeKind::FullPoint,
                    Some('H') => ByeKind::HalfPoint,
                    _ => ByeKind::ZeroPoint,
                };
                let ids = b.ids.iter().filter_map(|f| f.value.0).collect();
                g.byes.push((line, kind, b.round.value, ids));
            }
            Record::ForfeitedMatch330(f) => {
                if let Some(kind) = f.kind() {
                    g.forfeits
                        .push((line, kind, f.round.value, f.white.value, f.black.value));
                }
            }
            Record::AbnormalPoints299(_) => skip("299 abnormal points"),
            Record::NationalRating(_) => skip("national ratings"),
            _ => {}
        }
    }
    Ok(g)
}

/// `YY/MM/DD`; years before 70 are 20YY.
fn short_date(d: &str) -> Option<jiff::civil::Date> {
    let mut it = d.split('/');
    let yy: i16 = it.next()?.parse().ok()?;
    let mm: i8 = it.next()?.parse().ok()?;
    let dd: i8 = it.next()?.parse().ok()?;
    let year = if yy < 70 { 2000 + yy } else { 1900 + yy };
    jiff::civil::Date::new(year, mm, dd).ok()
}

fn criteria(codes: &[String], line: usize, tag: &str, w: &mut Warnings<'_>) -> Vec<CriterionSpec> {
    let mut out = Vec::new();
    for code in codes {
        match CriterionSpec::parse(code) {
            Ok(spec) => out.push(spec),
            Err(e) => w.at(line, format!("{tag}: {e}; left out")),
        }
    }
    out
}

fn rules(
    doc: &TrfDocument,
    g: &Gathered<'_>,
    boards: usize,
    w: &mut Warnings<'_>,
    origin: &str,
) -> Result<Ruleset, TrfError> {
    let mut rules = Ruleset::preset("fide-team")
        .ok_or_else(|| TrfError {
            origin: origin.to_string(),
            line: 0,
            column: 0,
            expected: "the fide-team preset to be built in".into(),
            found: String::new(),
        })?
        .into_spec();
    rules.boards = u32::try_from(boards.max(1)).unwrap_or(u32::MAX);
    for (code, points) in &g.scoring {
        let Some(p) = points else { continue };
        match code.as_str() {
            "W" => rules.game_points.win = *p,
            "D" => rules.game_points.draw = *p,
            "L" => rules.game_points.loss = *p,
            _ => {}
        }
    }
    for (code, default) in [
        ("A", rules.game_points.loss),
        ("P", rules.game_points.win),
        ("X", rules.game_points.draw),
    ] {
        if let Some((_, Some(p))) = g.scoring.iter().find(|(c, _)| c == code)
            && *p != default
        {
            w.at(
                0,
                format!("162 scores {code} as {p}; the model scores it like {default} (A as L, P as W, X as D)"),
            );
        }
    }
    for (code, points) in &g.team_scoring {
        let Some(p) = points else { continue };
        match code.as_str() {
            "TW" => rules.match_points.win = *p,
            "TD" => rules.match_points.draw = *p,
            "TL" => rules.match_points.loss = *p,
            _ => {}
        }
    }
    let b = f64::from(rules.boards);
    rules.forfeit_match = ForfeitMatchScoring {
        winner: Award {
            match_points: rules.match_points.win,
            game_points: rules.game_points.win * b,
        },
        loser: Award {
            match_points: rules.match_points.loss,
            game_points: rules.game_points.loss * b,
        },
        rated: false,
    };
    if let Some((_, mp, gp)) = g.pab {
        rules.bye = Award {
            match_points: mp.unwrap_or(rules.bye.match_points),
            game_points: gp.unwrap_or(rules.bye.game_points),
        };
    } else {
        // No 320 (a PAB only as U in the 001 blocks): FIDE's checker scores it as 362's draw
        // and 162's P, a win, on every board.
        rules.bye = Award {
            match_points: rules.match_points.draw,
            game_points: rules.game_points.win * b,
        };
    }
    rules.fide = fide_settings(g);
    rules.pairing = super::pairing::settings(doc);
    if let Some(first) = g.colours.as_ref().and_then(|c| c.chars().next()) {
        rules.white_on_odd_boards = if first == 'W' { Side::Home } else { Side::Away };
    }
    let criteria = match &g.standings {
        Some((line, codes)) => criteria(codes, *line, "212", w),
        None => Vec::new(),
    };
    rules.criteria = if criteria.is_empty() {
        // The primary score first (192 names it for a FIDE team event).
        let primary = if rules.fide.primary == Some(ScoreBasis::GamePoints) {
            "GP"
        } else {
            "MP"
        };
        CriterionSpec::parse(primary)
            .map(|c| vec![c])
            .unwrap_or_default()
    } else {
        criteria
    };
    // The scores the file gives are checked as any ruleset's (a win worth less than a draw…).
    Ruleset::new(rules).map_err(|found| TrfError {
        origin: origin.to_string(),
        line: 0,
        column: 0,
        expected: "scores and boards a ruleset can use (162, 362, 192)".into(),
        found,
    })
}

/// What FIDE's tie-breaks need to know of the event, read as FIDE's checker reads it: the C.07
/// edition from the start date (`042`; the 2026-03 text from 1 March 2026, and when there is no
/// readable date), a round robin from the event type (`092`: "Swiss" says no, "RR", "Robin" or
/// "Berger" yes, anything else leaves it to the number of teams and rounds), the primary score
/// from the coded type (`192`, `..._GP_MP` or `..._GP`: game points).
fn fide_settings(g: &Gathered<'_>) -> FideSettings {
    let edition = match g.start_date.as_deref().and_then(start_date) {
        Some(d) if d < jiff::civil::date(2026, 3, 1) => FideEdition::Aug2024,
        _ => FideEdition::Mar2026,
    };
    let round_robin = g.event_type.as_deref().and_then(|t| {
        let t = t.to_ascii_uppercase();
        if t.contains("SWISS") {
            Some(false)
        } else if t.contains("RR") || t.contains("ROBIN") || t.contains("BERGER") {
            Some(true)
        } else {
            None
        }
    });
    let primary = g.coded_type.as_deref().and_then(|c| {
        let c = c.trim().to_ascii_uppercase();
        if c.contains("_MP_GP") {
            Some(ScoreBasis::MatchPoints)
        } else if c.contains("_GP_MP") {
            Some(ScoreBasis::GamePoints)
        } else if c.contains("_MP") {
            Some(ScoreBasis::MatchPoints)
        } else if c.contains("_GP") {
            Some(ScoreBasis::GamePoints)
        } else {
            None
        }
    });
    FideSettings {
        edition: Some(edition),
        round_robin,
        primary,
    }
}

/// A `001` birth date, `YYYY/MM/DD`: `None` when blank or not a calendar date.
fn birth_date(text: &str) -> Option<jiff::civil::Date> {
    let mut it = text.split('/');
    let (y, m, d) = (it.next()?, it.next()?, it.next()?);
    if it.next().is_some() || y.len() != 4 || m.len() != 2 || d.len() != 2 {
        return None;
    }
    jiff::civil::Date::new(y.parse().ok()?, m.parse().ok()?, d.parse().ok()?).ok()
}

/// A birth date that gives only the year: `YYYY/00/00`, or `YYYY` alone.
fn is_year_only(text: &str) -> bool {
    let year = text.strip_suffix("/00/00").unwrap_or(text);
    year.len() == 4 && year.bytes().all(|b| b.is_ascii_digit())
}

/// `042` as FIDE's checker reads it: `YYYY/MM/DD`, `YY/MM/DD`, `YYYY.MM.DD` or `DD.MM.YYYY`.
fn start_date(text: &str) -> Option<jiff::civil::Date> {
    let d = text.trim().split(' ').next()?;
    let parts: Vec<&str> = if d.contains('.') {
        d.split('.').collect()
    } else {
        d.split('/').collect()
    };
    let [a, b, c] = parts.as_slice() else {
        return None;
    };
    let (y, m, day) = if a.len() == 4 {
        (a.to_string(), *b, *c)
    } else if d.contains('.') {
        (c.to_string(), *b, *a)
    } else {
        (format!("20{a}"), *b, *c)
    };
    jiff::civil::Date::new(y.parse().ok()?, m.parse().ok()?, day.parse().ok()?).ok()
}
