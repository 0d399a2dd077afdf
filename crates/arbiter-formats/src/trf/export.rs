//! The competition model written as a TRF-2026 team file: the tournament records the model
//! knows, one `001` per player with round blocks derived from the boards, `310` teams, `300`
//! line-ups where import would not find the boards by itself, `320`, `240` and `330`.

use std::collections::{BTreeMap, HashMap, HashSet};

use arbiter_core::record::model::{
    ByeKind, Colour, Competition, GameResult, MatchOutcome, Pairing, PlayerId, Side, TeamId,
};
use arbiter_core::rules::criteria::{CriterionSpec, ScoreBasis};
use arbiter_core::rules::ruleset::{ColourPreferences, InitialColour, PairingSettings, Ruleset};
use arbiter_core::scoring;

use super::columns::{Field, Ref};
use super::import::{MAX_ROUNDS, default_lineup};
use super::records::{
    AccelerationRecord, ByeRecord, ForfeitedMatchRecord, LineupRecord, MatchForfeitKind,
    PlayerRecord, ProhibitedRecord, Record, ResultCode, RoundBlock, ScoringEntry, Team310Record,
    TournamentBody, TournamentRecord,
};
use super::{Encoding, LineEnding, TrfDocument, TrfLine};

/// Writes a competition as a TRF-2026 team file (UTF-8, CR LF line endings).
///
/// Teams whose ids are the numbers 1..999 keep them as pairing numbers, players whose ids are
/// 1..9999 keep them as start ranks; otherwise both are numbered in the order of the file.
/// Writes `012`, `042`/`052` and `132` when rounds have dates, `092` and `192` for what FIDE's
/// tie-breaks read of the event (Swiss or round robin, primary score), `142` (the rules'
/// `[pairing] rounds` when more than the rounds stored), `162`, `202`, `212`
/// (only when the criteria are not just `MP`), `352`, `362`, a `001` per player, `310` per
/// team, `300` where a line-up is not the players who played in roster order, `320`, `240`
/// and `330`. What TRF cannot say (a match without result, a pairing-allocated bye for two
/// teams in one round) is written as a `###` comment.
pub fn from_competition(
    competition: &Competition,
    rules: &Ruleset,
    tiebreaks: &[CriterionSpec],
) -> TrfDocument {
    let mut notes: Vec<String> = Vec::new();
    let team_numbers = numbering(competition.teams.iter().map(|t| &t.id.0), 999);
    let team_index: HashMap<&TeamId, usize> = competition
        .teams
        .iter()
        .enumerate()
        .map(|(i, t)| (&t.id, i))
        .collect();

    // Start ranks: rostered players first, then players only met on boards.
    let mut rosters: Vec<Vec<PlayerId>> = Vec::new();
    let mut seen: HashSet<&PlayerId> = HashSet::new();
    for team in &competition.teams {
        let roster: Vec<PlayerId> = team
            .players
            .iter()
            .filter(|p| seen.insert(&p.id))
            .map(|p| p.id.clone())
            .collect();
        rosters.push(roster);
    }
    for round in &competition.rounds {
        for p in &round.pairings {
            let Pairing::Match(m) = p else { continue };
            let MatchOutcome::Boards(boards) = &m.outcome else {
                continue;
            };
            for b in boards {
                for (id, side) in [(&b.home_player, Side::Home), (&b.away_player, Side::Away)] {
                    let Some(id) = id else { continue };
                    if let Some(&t) = team_index.get(m.team(side))
                        && !seen.contains(id)
                    {
                        seen.insert(id);
                        rosters[t].push(id.clone());
                        notes.push(format!(
                            "player {id} plays for team {} in round {} but is not on its roster; added to it",
                            m.team(side),
                            round.number
                        ));
                    }
                }
            }
        }
    }
    let all_players: Vec<&PlayerId> = rosters.iter().flatten().collect();
    let start_ranks = numbering(all_players.iter().map(|p| &p.0), 9999);
    let rank_of: HashMap<&PlayerId, u32> = all_players
        .iter()
        .zip(&start_ranks)
        .map(|(p, n)| (*p, *n))
        .collect();
    let mut team_of: HashMap<u32, usize> = HashMap::new();
    for (t, roster) in rosters.iter().enumerate() {
        for p in roster {
            if let Some(&sr) = rank_of.get(p) {
                team_of.insert(sr, t);
            }
        }
    }

    let rounds = competition
        .rounds
        .iter()
        .map(|r| r.number)
        .max()
        .unwrap_or(0)
        .min(MAX_ROUNDS);
    let slots = usize::try_from(rounds).unwrap_or(0);
    let absent = || RoundBlock::new(None, '-', Some(ResultCode::ForfeitLoss));
    // Every player gets a block for every round (`0000 - -` when not playing), unless that
    // would be millions of them: then a line stops after its last game, which reads the same.
    let pad = start_ranks.len().saturating_mul(slots) <= 2_000_000;
    let mut blocks: BTreeMap<u32, Vec<RoundBlock>> = start_ranks
        .iter()
        .map(|&sr| {
            (
                sr,
                if pad {
                    vec![absent(); slots]
                } else {
                    Vec::new()
                },
            )
        })
        .collect();

    // Board i + 1's colour for the home team when the board records none (GT-M18, AS-19).
    let home_white_on = |i: usize| {
        let number = u32::try_from(i + 1).unwrap_or(u32::MAX);
        rules.colour(None, number, Side::Home) == Colour::White
    };
    let mut lineups: Vec<LineupRecord> = Vec::new();
    let mut pab: BTreeMap<u32, u32> = BTreeMap::new();
    let mut byes: BTreeMap<(u32, char), Vec<u32>> = BTreeMap::new();
    let mut forfeits: Vec<ForfeitedMatchRecord> = Vec::new();
    let mut rounds_sorted: Vec<_> = competition
        .rounds
        .iter()
        .filter(|r| (1..=rounds).contains(&r.number))
        .collect();
    rounds_sorted.sort_by_key(|r| r.number);
    for round in &rounds_sorted {
        let r = round.number;
        let slot = usize::try_from(r - 1).unwrap_or(0);
        let mut matches_with_boards = Vec::new();
        for pairing in &round.pairings {
            match pairing {
                Pairing::Bye(bye) => {
                    let Some(&t) = team_index.get(&bye.team) else {
                        notes.push(format!(
                            "round {r}: the bye of team {}, which is not in the competition, is left out",
                            bye.team
                        ));
                        continue;
                    };
                    let number = team_numbers[t];
                    let code = match bye.kind {
                        ByeKind::PairingAllocated => {
                            if let Some(other) = pab.insert(r, number) {
                                notes.push(format!(
                                    "round {r}: TRF 320 holds one pairing-allocated bye a round; team {other}'s is replaced by team {number}'s"
                                ));
                            }
                            continue;
                        }
                        ByeKind::FullPoint => 'F',
                        ByeKind::HalfPoint => 'H',
                        ByeKind::ZeroPoint => 'Z',
                    };
                    byes.entry((r, code)).or_default().push(number);
                }
                Pairing::Match(m) => {
                    let (Some(&h), Some(&a)) = (team_index.get(&m.home), team_index.get(&m.away))
                    else {
                        notes.push(format!(
                            "round {r}: the match {}-{} names a team that is not in the competition; left out",
                            m.home, m.away
                        ));
                        continue;
                    };
                    let kind = match &m.outcome {
                        MatchOutcome::Boards(boards) if boards.is_empty() => {
                            notes.push(format!(
                                "round {r}: the match {}-{} has no boards; TRF cannot list a team pairing without its boards",
                                team_numbers[h], team_numbers[a]
                            ));
                            continue;
                        }
                        MatchOutcome::Pending => {
                            notes.push(format!(
                                "round {r}: the match {}-{} has no result yet; TRF cannot list a team pairing without its boards",
                                team_numbers[h], team_numbers[a]
                            ));
                            continue;
                        }
                        MatchOutcome::Boards(boards) => {
                            let mut lh = Vec::new();
                            let mut la = Vec::new();
                            for (i, b) in boards.iter().enumerate() {
                                let hp =
                                    b.home_player.as_ref().and_then(|p| rank_of.get(p)).copied();
                                let ap =
                                    b.away_player.as_ref().and_then(|p| rank_of.get(p)).copied();
                                lh.push(hp);
                                la.push(ap);
                                let white = b
                                    .home_colour
                                    .map_or(home_white_on(i), |c| c == Colour::White);
                                let (ch, ca) = codes(b.result, b.rating_result);
                                let mut put = |sr: u32, block: RoundBlock| {
                                    if let Some(v) = blocks.get_mut(&sr) {
                                        while v.len() <= slot {
                                            v.push(absent());
                                        }
                                        v[slot] = block;
                                    }
                                };
                                match (hp, ap) {
                                    (Some(x), Some(y)) => {
                                        put(
                                            x,
                                            RoundBlock::new(
                                                Some(y),
                                                if white { 'w' } else { 'b' },
                                                ch,
                                            ),
                                        );
                                        put(
                                            y,
                                            RoundBlock::new(
                                                Some(x),
                                                if white { 'b' } else { 'w' },
                                                ca,
                                            ),
                                        );
                                    }
                                    (Some(x), None) => {
                                        put(x, unopposed(b.result.outcome_for(Side::Home).is_win()))
                                    }
                                    (None, Some(y)) => {
                                        put(y, unopposed(b.result.outcome_for(Side::Away).is_win()))
                                    }
                                    (None, None) => {}
                                }
                            }
                            matches_with_boards.push((h, a, lh, la));
                            continue;
                        }
                        MatchOutcome::Forfeit { by: Side::Away } => MatchForfeitKind::WhiteWins,
                        MatchOutcome::Forfeit { by: Side::Home } => MatchForfeitKind::BlackWins,
                        MatchOutcome::DoubleForfeit => MatchForfeitKind::Double,
                    };
                    // The winner's players show the forfeit win ("0000 - +"), as FIDE's
                    // checker reads a 330 match: without them it scores the match as lost.
                    let winners: &[usize] = match kind {
                        MatchForfeitKind::WhiteWins => &[h],
                        MatchForfeitKind::BlackWins => &[a],
                        MatchForfeitKind::Double => &[],
                    };
                    for &t in winners {
                        let players = rosters[t]
                            .iter()
                            .filter_map(|p| rank_of.get(p).copied())
                            .take(usize::try_from(rules.boards).unwrap_or(0));
                        for sr in players {
                            if let Some(v) = blocks.get_mut(&sr) {
                                while v.len() <= slot {
                                    v.push(absent());
                                }
                                v[slot] = unopposed(true);
                            }
                        }
                    }
                    forfeits.push(ForfeitedMatchRecord {
                        kind: Field::new(kind.code().to_string()),
                        round: Field::new(r),
                        white: Field::new(team_numbers[h]),
                        black: Field::new(team_numbers[a]),
                        tail: String::new(),
                    });
                }
            }
        }
        // A 300 record wherever import would not find the line-up by itself.
        let block_of = |sr: u32, r: u32| -> Option<&RoundBlock> {
            blocks
                .get(&sr)?
                .get(usize::try_from(r).ok()?.checked_sub(1)?)
        };
        for (h, a, lh, la) in matches_with_boards {
            for (t, o, lineup) in [(h, a, lh), (a, h, la)] {
                let roster: Vec<u32> = rosters[t]
                    .iter()
                    .filter_map(|p| rank_of.get(p).copied())
                    .collect();
                if default_lineup(&roster, r, o, &block_of, &team_of) != lineup {
                    lineups.push(LineupRecord {
                        round: Field::new(r),
                        team: Field::new(team_numbers[t]),
                        opponent: Field::new(Ref(Some(team_numbers[o]))),
                        players: lineup.iter().map(|p| Field::new(Ref(*p))).collect(),
                        tail: String::new(),
                    });
                }
            }
        }
    }

    let sheet = scoring::score(competition, rules);
    let mut lines: Vec<Record> = Vec::new();
    let text = |tag: u16, s: &str| Record::Tournament(TournamentRecord::text(tag, s));
    lines.push(text(12, &competition.name));
    let dates: Vec<Option<jiff::civil::Date>> = (1..=rounds)
        .map(|n| {
            competition
                .rounds
                .iter()
                .find(|r| r.number == n)
                .and_then(|r| r.date)
        })
        .collect();
    let known: Vec<jiff::civil::Date> = dates.iter().flatten().copied().collect();
    if let (Some(first), Some(last)) = (known.iter().min(), known.iter().max()) {
        lines.push(text(42, &first.strftime("%Y/%m/%d").to_string()));
        lines.push(text(52, &last.strftime("%Y/%m/%d").to_string()));
    }
    // AS-1, GT-M19: the allotted time, as PGN's TimeControl tag writes it.
    if let Some(tc) = &rules.time_control {
        lines.push(text(122, &tc.pgn()));
    }
    // What FIDE's tie-breaks read of the event (see `fide_settings` in the import).
    match rules.fide.round_robin {
        Some(false) => lines.push(text(92, "Team Swiss")),
        Some(true) => lines.push(text(92, "Team round robin")),
        None => {}
    }
    // The event's planned rounds, not the rounds stored so far: C.04.6 reads the last two
    // rounds ([C7], [C10]) from it, so a file of 4 rounds of 7 must still say 7.
    let planned =
        arbiter_core::pairing::swiss::scheduled_rounds(competition, rules).min(MAX_ROUNDS);
    lines.push(Record::Tournament(TournamentRecord {
        tag: 142,
        body: TournamentBody::Rounds(Field::new(planned)),
        tail: String::new(),
    }));
    lines.push(Record::Tournament(TournamentRecord {
        tag: 162,
        body: TournamentBody::Scoring(
            [
                ("W", rules.game_points.win),
                ("D", rules.game_points.draw),
                ("L", rules.game_points.loss),
            ]
            .iter()
            .map(|(c, p)| ScoringEntry {
                code: Field::new((*c).to_string()),
                points: Field::new(Some(*p)),
            })
            .collect(),
        ),
        tail: String::new(),
    }));
    // C.04.6 art. 4.1: a chosen initial-colour.
    match rules.pairing.initial_colour {
        InitialColour::White => lines.push(Record::Tournament(TournamentRecord {
            tag: 152,
            body: TournamentBody::InitialColour(Field::new(Some('W'))),
            tail: String::new(),
        })),
        InitialColour::Black => lines.push(Record::Tournament(TournamentRecord {
            tag: 152,
            body: TournamentBody::InitialColour(Field::new(Some('B'))),
            tail: String::new(),
        })),
        InitialColour::Drawn => {}
    }
    let d = PairingSettings::default();
    let p = &rules.pairing;
    if rules.fide.primary.is_some()
        || (p.colour_preferences, p.primary, p.secondary_for_colours)
            != (d.colour_preferences, d.primary, d.secondary_for_colours)
    {
        lines.push(text(192, &coded_type(&rules.pairing)));
    }
    if !tiebreaks.is_empty() {
        lines.push(codes_record(202, tiebreaks));
    }
    if !(rules.criteria.len() == 1 && rules.criteria[0].code == "MP") {
        lines.push(codes_record(212, &rules.criteria));
    }
    let colours: String = (0..usize::try_from(rules.boards).unwrap_or(0).min(99))
        .map(|i| if home_white_on(i) { 'W' } else { 'B' })
        .collect();
    lines.push(Record::Tournament(TournamentRecord {
        tag: 352,
        body: TournamentBody::BoardColours(Field::new(colours)),
        tail: String::new(),
    }));
    lines.push(Record::Tournament(TournamentRecord {
        tag: 362,
        body: TournamentBody::TeamScoring(
            [
                ("TW", rules.match_points.win),
                ("TD", rules.match_points.draw),
                ("TL", rules.match_points.loss),
            ]
            .iter()
            .map(|(c, p)| ScoringEntry {
                code: Field::new((*c).to_string()),
                points: Field::new(Some(*p)),
            })
            .collect(),
        ),
        tail: String::new(),
    }));
    if dates.iter().any(Option::is_some) {
        lines.push(Record::Tournament(TournamentRecord {
            tag: 132,
            body: TournamentBody::RoundDates {
                label: Field::new(String::new()),
                dates: dates
                    .iter()
                    .map(|d| {
                        Field::new(
                            d.map_or_else(String::new, |d| d.strftime("%y/%m/%d").to_string()),
                        )
                    })
                    .collect(),
            },
            tail: String::new(),
        }));
    }

    let player_of: HashMap<&PlayerId, &arbiter_core::record::model::Player> = competition
        .teams
        .iter()
        .flat_map(|t| t.players.iter())
        .map(|p| (&p.id, p))
        .collect();
    let mut by_rank: Vec<(&PlayerId, u32)> = all_players
        .iter()
        .copied()
        .zip(start_ranks.iter().copied())
        .collect();
    by_rank.sort_by_key(|(_, sr)| *sr);
    for (p, sr) in by_rank {
        let rounds = blocks.remove(&sr).unwrap_or_default();
        let points: f64 = rounds
            .iter()
            .map(|b| match b.result() {
                Some(ResultCode::Win | ResultCode::ForfeitWin | ResultCode::UnratedWin) => {
                    rules.game_points.win
                }
                Some(ResultCode::Draw | ResultCode::UnratedDraw) => rules.game_points.draw,
                Some(ResultCode::Loss | ResultCode::UnratedLoss) => rules.game_points.loss,
                _ => 0.0,
            })
            .sum();
        let player = player_of.get(&p);
        lines.push(Record::Player(PlayerRecord {
            start_rank: Field::new(sr),
            sex: Field::default(),
            title: Field::default(),
            name: Field::new(player.map_or_else(|| p.0.clone(), |p| p.name.clone())),
            rating: Field::new(player.and_then(|p| p.rating)),
            federation: Field::default(),
            fide_id: Field::default(),
            birth_date: Field::new(
                player
                    .and_then(|p| p.record.birth_date)
                    .map_or_else(String::new, |d| d.strftime("%Y/%m/%d").to_string()),
            ),
            points: Field::new(Some(points)),
            rank: Field::new(None),
            rounds,
            tail: String::new(),
        }));
    }
    for (t, team) in competition.teams.iter().enumerate() {
        let score = sheet.teams.get(t);
        lines.push(Record::Team310(Team310Record {
            number: Field::new(team_numbers[t]),
            name: Field::new(team.name.clone()),
            nickname: Field::default(),
            strength: Field::default(),
            match_points: Field::new(score.map(|s| s.match_points)),
            game_points: Field::new(score.map(|s| s.game_points)),
            rank: Field::new(None),
            players: rosters[t]
                .iter()
                .map(|p| Field::new(Ref(rank_of.get(p).copied())))
                .collect(),
            tail: String::new(),
        }));
    }
    lines.extend(lineups.into_iter().map(Record::OutOfOrderLineup300));
    if !pab.is_empty() {
        lines.push(Record::TeamPab320(super::records::TeamPabRecord {
            match_points: Field::new(Some(rules.bye.match_points)),
            game_points: Field::new(Some(rules.bye.game_points)),
            teams: (1..=rounds)
                .map(|r| Field::new(Ref(pab.get(&r).copied())))
                .collect(),
            tail: String::new(),
        }));
    }
    for ((r, code), ids) in byes {
        lines.push(Record::Bye240(ByeRecord {
            kind: Field::new(Some(code)),
            round: Field::new(r),
            ids: ids.into_iter().map(|n| Field::new(Ref(Some(n)))).collect(),
            tail: String::new(),
        }));
    }
    lines.extend(forfeits.into_iter().map(Record::ForfeitedMatch330));
    // C.04.7's acceleration and the prohibited pairings of the `[pairing]` settings.
    for a in &rules.pairing.acceleration {
        lines.push(Record::Acceleration250(AccelerationRecord {
            match_points: Field::new(Some(a.match_points)),
            game_points: Field::new((a.game_points != 0.0).then_some(a.game_points)),
            first_round: Field::new(Some(a.first_round)),
            last_round: Field::new(Some(a.last_round)),
            first_id: Field::new(Some(a.first_team)),
            last_id: Field::new(Some(a.last_team)),
            tail: String::new(),
        }));
    }
    for f in &rules.pairing.forbidden {
        let ids: Vec<Field<Ref>> = f
            .teams
            .iter()
            .filter_map(|id| {
                competition.team_index(&arbiter_core::record::model::TeamId(id.clone()))
            })
            .map(|t| Field::new(Ref(Some(team_numbers[t]))))
            .collect();
        lines.push(Record::Prohibited260(ProhibitedRecord {
            first_round: Field::new(f.from_round.unwrap_or(1)),
            last_round: Field::new(f.to_round.unwrap_or(rounds.max(1))),
            ids,
            tail: String::new(),
        }));
    }
    for n in notes {
        lines.push(Record::Comment(format!(" {n}")));
    }
    TrfDocument {
        origin: format!("{}.trf", competition.name),
        encoding: Encoding::Utf8,
        byte_order_mark: false,
        lines: lines
            .into_iter()
            .map(|record| TrfLine {
                record,
                ending: LineEnding::CrLf,
            })
            .collect(),
    }
}

/// Ids that are the numbers 1..=max, all different, are kept; otherwise 1, 2, 3... in order.
fn numbering<'a>(ids: impl Iterator<Item = &'a String> + Clone, max: u32) -> Vec<u32> {
    let parsed: Vec<Option<u32>> = ids
        .clone()
        .map(|s| s.parse::<u32>().ok().filter(|n| (1..=max).contains(n)))
        .collect();
    let distinct: HashSet<u32> = parsed.iter().flatten().copied().collect();
    if parsed.iter().all(Option::is_some) && distinct.len() == parsed.len() {
        parsed.into_iter().flatten().collect()
    } else {
        (1..).take(parsed.len()).collect()
    }
}

/// The codes of both players of a board (home, away) for a result.
fn codes(
    result: GameResult,
    rating_result: Option<GameResult>,
) -> (Option<ResultCode>, Option<ResultCode>) {
    // A game that counts for the team but not for ratings (TRF W, D, L).
    let unrated = rating_result == Some(GameResult::DoubleForfeit) && result.is_played();
    use ResultCode as C;
    match (result, unrated) {
        (GameResult::HomeWin, false) => (Some(C::Win), Some(C::Loss)),
        (GameResult::HomeWin, true) => (Some(C::UnratedWin), Some(C::UnratedLoss)),
        (GameResult::Draw, false) => (Some(C::Draw), Some(C::Draw)),
        (GameResult::Draw, true) => (Some(C::UnratedDraw), Some(C::UnratedDraw)),
        (GameResult::AwayWin, false) => (Some(C::Loss), Some(C::Win)),
        (GameResult::AwayWin, true) => (Some(C::UnratedLoss), Some(C::UnratedWin)),
        (GameResult::HomeWinByForfeit, _) => (Some(C::ForfeitWin), Some(C::ForfeitLoss)),
        (GameResult::AwayWinByForfeit, _) => (Some(C::ForfeitLoss), Some(C::ForfeitWin)),
        (GameResult::DoubleForfeit, _) => (Some(C::ForfeitLoss), Some(C::ForfeitLoss)),
        (GameResult::Pending, _) => (None, None),
    }
}

/// A player whose opponent's board is empty: a forfeit win, or (both absent) a forfeit loss.
fn unopposed(wins: bool) -> RoundBlock {
    let code = if wins {
        ResultCode::ForfeitWin
    } else {
        ResultCode::ForfeitLoss
    };
    RoundBlock::new(None, '-', Some(code))
}

fn codes_record(tag: u16, criteria: &[CriterionSpec]) -> Record {
    Record::Tournament(TournamentRecord {
        tag,
        body: TournamentBody::Codes(Field::new(
            criteria.iter().map(|c| c.code.clone()).collect(),
        )),
        tail: String::new(),
    })
}

/// `192` for a team Swiss: the colour preferences and the scores of `[pairing]`, as FIDE's
/// checker reads the code back.
fn coded_type(p: &PairingSettings) -> String {
    let colours = match p.colour_preferences {
        ColourPreferences::TypeA => "_TYPEA",
        ColourPreferences::TypeB => "_TYPEB",
        ColourPreferences::None => "",
    };
    let scores = match (p.primary, p.secondary_for_colours) {
        (ScoreBasis::MatchPoints, true) => "_MP_GP",
        (ScoreBasis::GamePoints, true) => "_GP_MP",
        (ScoreBasis::MatchPoints, false) => "_MP",
        (ScoreBasis::GamePoints, false) => "_GP",
    };
    format!("FIDE_TEAM{colours}{scores}")
}
