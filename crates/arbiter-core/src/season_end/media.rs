//! GT-O3: the Vice-President reports the league's results to the local news media midway and at
//! the end of the season. [`report`] gathers the facts as data (each division's standings, its
//! notable results, the top scores on each board, the playoff's finish); [`to_text`] and
//! [`to_markdown`] write them as a press release and as Markdown.
//!
//! The writers live here, not in arbiter-formats: they are sentences in the league's words built
//! from core's own facts (an upset, a decisive round), pure string building with nothing to read
//! back; arbiter-formats keeps the file formats that are read and written both ways. The draft is
//! the product's; the Vice-President edits and publishes it (the store keeps the history).

use std::fmt::Write as _;

use serde::Serialize;

use crate::record::markdown;
use crate::record::model::{Competition, GameResult, MatchOutcome, Pairing, Side, TeamId};
use crate::record::words::{list, number};
use crate::rules::ruleset::Ruleset;
use crate::scoring::standings::{self, StandingsError};
use crate::scoring::{self, ScoreSheet};
use crate::season_end::awards::{BoardLeaders, Division, top_boards};
use crate::season_end::bracket::Finish;

/// A team's average rating must be this much lower for its win to be an upset.
pub const TEAM_UPSET: f64 = 100.0;
/// A player's rating must be this much lower for their win to be an upset.
pub const GAME_UPSET: u32 = 200;
/// Games a player must have won, all of them, for a perfect score to be notable.
pub const PERFECT_GAMES: u32 = 3;

/// When the report is made (GT-O3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Moment {
    /// Midway through the season.
    Midway,
    /// At the end of the season.
    End,
}

impl Moment {
    /// Both moments, midway first.
    pub const ALL: [Moment; 2] = [Moment::Midway, Moment::End];

    /// `midway` or `end`: the spelling of an address, a command line and the store.
    pub fn code(self) -> &'static str {
        match self {
            Moment::Midway => "midway",
            Moment::End => "end",
        }
    }

    /// Reads [`Moment::code`] back.
    pub fn from_code(code: &str) -> Option<Moment> {
        Moment::ALL.into_iter().find(|m| m.code() == code)
    }

    /// As a heading says it: `Midway report`, `End-of-season report`.
    pub fn title(self) -> &'static str {
        match self {
            Moment::Midway => "Midway report",
            Moment::End => "End-of-season report",
        }
    }
}

/// The facts of a media report (GT-O3).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MediaReport {
    /// The league, as the report names it.
    pub league: String,
    /// Midway or at the end.
    pub moment: Moment,
    /// Division by division.
    pub divisions: Vec<DivisionReport>,
    /// The playoff's winner and runner-up, when known (GT-F3).
    pub playoffs: Option<Finish>,
}

/// One division's part of the report.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DivisionReport {
    /// The division.
    pub division: String,
    /// The rounds with a result so far.
    pub rounds_played: u32,
    /// The standings, first first.
    pub standings: Vec<StandingLine>,
    /// Upsets, perfect scores and decisive last rounds.
    pub notable: Vec<Notable>,
    /// While matches are left, the race for first place as the race tells it exactly: "Start
    /// can still win the title if it wins both its remaining matches." Teams the race has not
    /// yet decided are not named (never a guess).
    pub race: Vec<String>,
    /// The top scores on each board.
    pub boards: Vec<BoardLeaders>,
}

/// A team's line in the report's standings.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StandingLine {
    /// `1`, or `2-3` for a shared place.
    pub place: String,
    /// The team.
    pub team: TeamId,
    /// Its name.
    pub name: String,
    /// Matches played, won, drawn and lost.
    pub played: u32,
    /// Matches won (a forfeit too).
    pub won: u32,
    /// Matches drawn.
    pub drawn: u32,
    /// Matches lost.
    pub lost: u32,
    /// Match points.
    pub match_points: f64,
    /// Game points.
    pub game_points: f64,
}

/// A result worth a line in the paper.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Notable {
    /// A team beat a team whose players were rated higher on average.
    TeamUpset {
        /// The round.
        round: u32,
        /// The winner's name.
        winner: String,
        /// The loser's name.
        loser: String,
        /// The winner's players' average rating.
        winner_rating: u32,
        /// The loser's.
        loser_rating: u32,
        /// The score, winner first: `2½–1½`.
        score: String,
    },
    /// A player beat a player rated much higher.
    GameUpset {
        /// The round.
        round: u32,
        /// The winner's name.
        winner: String,
        /// The winner's team.
        winner_team: String,
        /// Their rating.
        winner_rating: u32,
        /// The loser's name.
        loser: String,
        /// The loser's team.
        loser_team: String,
        /// Their rating.
        loser_rating: u32,
    },
    /// A team that won every match, or a player who won every game played.
    PerfectScore {
        /// The team's or the player's name.
        name: String,
        /// The player's team, for a player.
        team: Option<String>,
        /// The matches or games won, all of them.
        of: u32,
        /// Games (a player's) or matches (a team's).
        games: bool,
    },
    /// A last-round match whose result decided first place or a playoff place: open before the
    /// last round (the race), and had it gone the other way, another team would have finished
    /// there.
    DecisiveLastRound {
        /// The round.
        round: u32,
        /// The winner's name (or the home team's when drawn).
        winner: String,
        /// The other team's name.
        loser: String,
        /// The score, winner first.
        score: String,
        /// What it decided: `first place` or `a playoff place` (GT-F3), each only when it was
        /// open before the round (the race tells).
        decided: String,
        /// Who would have been there instead.
        instead: String,
    },
}

impl Notable {
    /// The fact as one sentence of the report.
    pub fn sentence(&self) -> String {
        match self {
            Notable::TeamUpset {
                round,
                winner,
                loser,
                winner_rating,
                loser_rating,
                score,
            } => format!(
                "Round {round}: {winner} (average rating {winner_rating}) beat {loser} ({loser_rating}) {score}, an upset by {} rating points.",
                loser_rating.saturating_sub(*winner_rating)
            ),
            Notable::GameUpset {
                round,
                winner,
                winner_team,
                winner_rating,
                loser,
                loser_team,
                loser_rating,
            } => format!(
                "Round {round}: {winner} ({winner_team}, {winner_rating}) beat {loser} ({loser_team}, {loser_rating})."
            ),
            Notable::PerfectScore {
                name,
                team,
                of,
                games,
            } => match team {
                Some(t) => format!(
                    "{name} ({t}) won all {of} {}.",
                    if *games { "games" } else { "matches" }
                ),
                None => format!("{name} won all {of} of its matches."),
            },
            Notable::DecisiveLastRound {
                round,
                winner,
                loser,
                score,
                decided,
                instead,
            } => format!(
                "Round {round} decided {decided}: {winner} beat {loser} {score}; the other way, {instead}."
            ),
        }
    }
}

/// The facts of the report on `divisions` at `moment`, with the playoff's finish when known and
/// the best `top` scores on each board.
pub fn report(
    league: &str,
    moment: Moment,
    divisions: &[Division<'_>],
    playoffs: Option<&Finish>,
    top: usize,
) -> Result<MediaReport, StandingsError> {
    let divisions = divisions
        .iter()
        .map(|d| division(d.competition, d.rules, moment, top))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(MediaReport {
        league: league.to_string(),
        moment,
        divisions,
        playoffs: playoffs.filter(|f| f.winner.is_some()).cloned(),
    })
}

fn division(
    c: &Competition,
    rules: &Ruleset,
    moment: Moment,
    top: usize,
) -> Result<DivisionReport, StandingsError> {
    let sheet = scoring::score(c, rules);
    let s = standings::rank(c, rules, &sheet, &rules.criteria)?;
    let standings = s
        .rows
        .iter()
        .map(|row| line(c, rules, &sheet, row.team, &row.place))
        .collect();
    let played_rounds: Vec<u32> = c
        .rounds
        .iter()
        .filter(|r| r.matches().any(|m| decided(&m.outcome)))
        .map(|r| r.number)
        .collect();
    let mut notable = upsets(c, rules);
    notable.extend(perfect(c, rules, &sheet));
    if moment == Moment::End
        && let Some(&last) = played_rounds.last()
    {
        notable.extend(decisive(c, rules, last)?);
    }
    Ok(DivisionReport {
        division: c.name.clone(),
        rounds_played: u32::try_from(played_rounds.len()).unwrap_or(u32::MAX),
        standings,
        notable,
        race: race_lines(c, rules)?,
        boards: top_boards(c, rules, top),
    })
}

/// The race for first place in sentences, while matches are left (GT-F3's race).
fn race_lines(c: &Competition, rules: &Ruleset) -> Result<Vec<String>, StandingsError> {
    let told =
        match crate::season_end::race::race(c, rules, crate::season_end::race::DEFAULT_BUDGET) {
            Ok(r) => r,
            Err(crate::season_end::race::RaceError::Standings(e)) => return Err(e),
        };
    if told.matches_left == 0 {
        return Ok(Vec::new());
    }
    Ok(told
        .teams
        .iter()
        .filter_map(|t| match (t.title, &t.title_if) {
            (crate::season_end::race::Chance::Clinched, _) => {
                Some(format!("{} has clinched first place.", t.name))
            }
            (crate::season_end::race::Chance::Open, Some(when)) => {
                Some(format!("{} can still win the title {when}.", t.name))
            }
            _ => None,
        })
        .collect())
}

fn decided(o: &MatchOutcome) -> bool {
    match o {
        MatchOutcome::Pending => false,
        MatchOutcome::Boards(b) => {
            !b.is_empty() && b.iter().all(|x| x.result != GameResult::Pending)
        }
        _ => true,
    }
}

fn line(
    c: &Competition,
    rules: &Ruleset,
    sheet: &ScoreSheet,
    t: usize,
    place: &str,
) -> StandingLine {
    let s = &sheet.teams[t];
    let matches: Vec<_> = s
        .entries
        .iter()
        .filter(|e| e.counts() && e.opponent.is_some())
        .collect();
    let count = |f: &dyn Fn(f64) -> bool| {
        u32::try_from(matches.iter().filter(|e| f(e.match_points)).count()).unwrap_or(0)
    };
    let mp = rules.match_points;
    StandingLine {
        place: place.to_string(),
        team: c.teams[t].id.clone(),
        name: c.teams[t].name.clone(),
        played: u32::try_from(matches.len()).unwrap_or(0),
        won: count(&|x| x == mp.win),
        drawn: count(&|x| x == mp.draw && mp.draw != mp.win),
        lost: count(&|x| x == mp.loss && mp.loss != mp.draw),
        match_points: s.match_points,
        game_points: s.game_points,
    }
}

/// Team upsets (average rating of the players on its boards at least [`TEAM_UPSET`] lower) and
/// game upsets (a player at least [`GAME_UPSET`] lower), by the ratings on the rosters.
fn upsets(c: &Competition, rules: &Ruleset) -> Vec<Notable> {
    let mut out = Vec::new();
    for (round, m) in c.matches() {
        // A player is named with the team they played this match for, which may be a sister
        // team's (GT-F2) or another school's (GT-R6), never by the roster they are listed on.
        let rating = |p: &Option<crate::record::model::PlayerId>, side: Side| {
            let p = p.as_ref()?;
            let x = c
                .teams
                .iter()
                .flat_map(|t| &t.players)
                .find(|x| &x.id == p)?;
            Some((x.rating?, x.name.clone(), player_team(c, m.team(side), x)))
        };
        let MatchOutcome::Boards(boards) = &m.outcome else {
            continue;
        };
        if !decided(&m.outcome) {
            continue;
        }
        let points = |side: Side| -> f64 {
            boards
                .iter()
                .map(|b| scoring::game_points(rules, b.result.outcome_for(side)))
                .sum()
        };
        let (h, a) = (points(Side::Home), points(Side::Away));
        let average = |side: Side| {
            let r: Vec<u32> = boards
                .iter()
                .filter_map(|b| {
                    rating(
                        match side {
                            Side::Home => &b.home_player,
                            Side::Away => &b.away_player,
                        },
                        side,
                    )
                })
                .map(|x| x.0)
                .collect();
            (r.len() == boards.len() && !r.is_empty())
                .then(|| f64::from(r.iter().sum::<u32>()) / r.len() as f64)
        };
        if h != a
            && let (Some(rh), Some(ra)) = (average(Side::Home), average(Side::Away))
        {
            let (w, l, rw, rl, sw, sl) = if h > a {
                (Side::Home, Side::Away, rh, ra, h, a)
            } else {
                (Side::Away, Side::Home, ra, rh, a, h)
            };
            if rl - rw >= TEAM_UPSET {
                out.push(Notable::TeamUpset {
                    round,
                    winner: c.team_name(m.team(w)),
                    loser: c.team_name(m.team(l)),
                    winner_rating: rw.round() as u32,
                    loser_rating: rl.round() as u32,
                    score: format!("{}\u{2013}{}", number(sw), number(sl)),
                });
            }
        }
        for b in boards.iter().filter(|b| b.result.is_played()) {
            let (Some(hp), Some(ap)) = (
                rating(&b.home_player, Side::Home),
                rating(&b.away_player, Side::Away),
            ) else {
                continue;
            };
            let (w, l) = match b.result {
                GameResult::HomeWin => (hp, ap),
                GameResult::AwayWin => (ap, hp),
                _ => continue,
            };
            if l.0 >= w.0 + GAME_UPSET {
                out.push(Notable::GameUpset {
                    round,
                    winner: w.1,
                    winner_team: w.2,
                    winner_rating: w.0,
                    loser: l.1,
                    loser_team: l.2,
                    loser_rating: l.0,
                });
            }
        }
    }
    out
}

/// How the report names a player's team: the team's name, and a GT-R6 player's own school when
/// it is not the team's (`Clay A, a Genoa student`).
fn player_team(c: &Competition, team: &TeamId, player: &crate::record::model::Player) -> String {
    let t = c.team(team);
    let name = c.team_name(team);
    match (&player.school, t.and_then(|t| t.school.as_ref())) {
        (Some(own), team_school) if Some(own) != team_school => {
            format!("{name}, a {own} student")
        }
        _ => name,
    }
}

/// Whether the team won the match: more game points than its opponent (GT-S4, AS-15), or, where
/// `[scoring]` weighs boards or decides by half the points, the win's match points.
fn won(rules: &Ruleset, e: &scoring::RoundEntry) -> bool {
    if rules.scoring.is_majority_of_game_points() {
        e.game_points > e.opponent_game_points
    } else {
        e.match_points == rules.match_points.win
    }
}

/// Teams that won every match they played, and players who won every game they played over
/// the board, [`PERFECT_GAMES`] or more.
fn perfect(c: &Competition, rules: &Ruleset, sheet: &ScoreSheet) -> Vec<Notable> {
    let mut out = Vec::new();
    for (t, s) in sheet.teams.iter().enumerate() {
        let matches: Vec<_> = s
            .entries
            .iter()
            .filter(|e| e.counts() && e.opponent.is_some())
            .collect();
        if !matches.is_empty() && matches.iter().all(|e| won(rules, e)) {
            out.push(Notable::PerfectScore {
                name: c.teams[t].name.clone(),
                team: None,
                of: u32::try_from(matches.len()).unwrap_or(0),
                games: false,
            });
        }
    }
    // GT-F2: a player is named with the team they belong to, counted from the matches; one who
    // played exactly half for each of two teams with both.
    let belongs = crate::season_end::awards::belonging(c);
    for team in &c.teams {
        for p in &team.players {
            let mut games = 0u32;
            let mut wins = 0u32;
            for (_, m) in c.matches() {
                let MatchOutcome::Boards(boards) = &m.outcome else {
                    continue;
                };
                for b in boards.iter().filter(|b| b.result.is_played()) {
                    let side = if b.home_player.as_ref() == Some(&p.id) {
                        Side::Home
                    } else if b.away_player.as_ref() == Some(&p.id) {
                        Side::Away
                    } else {
                        continue;
                    };
                    games += 1;
                    wins += u32::from(b.result.outcome_for(side).is_win());
                }
            }
            if games >= PERFECT_GAMES && wins == games {
                let b = belongs.iter().find(|b| b.player == p.id);
                let label = match b.map(|b| (&b.team, &b.matches)) {
                    Some((Some(t), _)) => player_team(c, t, p),
                    Some((None, split)) => {
                        let names: Vec<String> =
                            split.keys().map(|t| player_team(c, t, p)).collect();
                        list(names.iter())
                    }
                    None => player_team(c, &team.id, p),
                };
                out.push(Notable::PerfectScore {
                    name: p.name.clone(),
                    team: Some(label),
                    of: games,
                    games: true,
                });
            }
        }
    }
    out
}

/// The matches of the last round whose result, the other way round, would have put another
/// team first or changed the playoff places (GT-F3).
fn decisive(c: &Competition, rules: &Ruleset, last: u32) -> Result<Vec<Notable>, StandingsError> {
    let q = rules
        .playoffs
        .as_ref()
        .map(|p| usize::try_from(p.qualifiers_per_division).unwrap_or(usize::MAX));
    let finish = |c: &Competition| -> Result<(Vec<usize>, Vec<usize>), StandingsError> {
        let s = standings::standings(c, rules)?;
        let first = s
            .rows
            .iter()
            .filter(|r| r.rank == 1)
            .map(|r| r.team)
            .collect();
        let mut places: Vec<usize> = match q {
            Some(q) => s
                .rows
                .iter()
                .filter(|r| r.rank <= q)
                .map(|r| r.team)
                .collect(),
            None => Vec::new(),
        };
        places.sort_unstable();
        Ok((first, places))
    };
    let (first, places) = finish(c)?;
    let mut out = Vec::new();
    let Some(ri) = c.rounds.iter().position(|r| r.number == last) else {
        return Ok(out);
    };
    // What was still open before the last round, as the race tells it exactly: a round
    // decides first place or a playoff place (GT-F3) only when that was open before it. Where
    // the race has not decided every team, the report says nothing rather than guess.
    let mut before = c.clone();
    for p in &mut before.rounds[ri].pairings {
        if let Pairing::Match(m) = p {
            m.outcome = MatchOutcome::Pending;
        }
    }
    let open = match crate::season_end::race::race(
        &before,
        rules,
        crate::season_end::race::DEFAULT_BUDGET,
    ) {
        Ok(r) => r,
        Err(crate::season_end::race::RaceError::Standings(e)) => return Err(e),
    };
    if open.teams.iter().any(|t| !t.exact) {
        return Ok(out);
    }
    let first_open = !open
        .teams
        .iter()
        .any(|t| t.label == crate::season_end::race::RaceLabel::ClinchedFirst);
    let places_open = q.is_some_and(|q| {
        let q = u32::try_from(q).unwrap_or(u32::MAX);
        open.teams.iter().any(|t| t.best <= q && t.worst > q)
    });
    for (pi, p) in c.rounds[ri].pairings.iter().enumerate() {
        let Pairing::Match(m) = p else { continue };
        let flipped = match &m.outcome {
            MatchOutcome::Boards(b) if decided(&m.outcome) => MatchOutcome::Boards(
                b.iter()
                    .map(|x| crate::record::model::Board {
                        result: x.result.reversed(),
                        ..x.clone()
                    })
                    .collect(),
            ),
            MatchOutcome::Forfeit { by } => MatchOutcome::Forfeit { by: by.other() },
            _ => continue,
        };
        let mut other = c.clone();
        if let Some(Pairing::Match(x)) = other.rounds[ri].pairings.get_mut(pi) {
            x.outcome = flipped;
        }
        let (first2, places2) = finish(&other)?;
        let names = |ts: &[usize]| list(ts.iter().map(|&t| c.teams[t].name.as_str()));
        let (decided_what, instead) = if first2 != first && first_open {
            let said = if first2.len() > 1 {
                format!("{} would have shared first place", names(&first2))
            } else {
                format!("{} would have finished first", names(&first2))
            };
            ("first place", said)
        } else if places2 != places && places_open {
            // Only the teams the other result puts in or out: those already through stay so.
            let gained: Vec<usize> = places2
                .iter()
                .filter(|t| !places.contains(t))
                .copied()
                .collect();
            let lost: Vec<usize> = places
                .iter()
                .filter(|t| !places2.contains(t))
                .copied()
                .collect();
            let said = match (gained.is_empty(), lost.is_empty()) {
                (false, false) => format!(
                    "{} would have qualified instead of {}",
                    names(&gained),
                    names(&lost)
                ),
                (false, true) => format!("{} would have qualified too", names(&gained)),
                (true, false) => format!("{} would not have qualified", names(&lost)),
                (true, true) => continue,
            };
            ("a playoff place", said)
        } else {
            continue;
        };
        let sheet = scoring::score(c, rules);
        let (Some(h), Some(a)) = (c.team_index(&m.home), c.team_index(&m.away)) else {
            continue;
        };
        let e = sheet.teams[h]
            .entries
            .iter()
            .find(|e| e.round == last && e.opponent == Some(a));
        let (hp, ap) = e.map_or((0.0, 0.0), |e| (e.game_points, e.opponent_game_points));
        let (w, l, sw, sl) = if ap > hp {
            (a, h, ap, hp)
        } else {
            (h, a, hp, ap)
        };
        out.push(Notable::DecisiveLastRound {
            round: last,
            winner: c.teams[w].name.clone(),
            loser: c.teams[l].name.clone(),
            score: format!("{}\u{2013}{}", number(sw), number(sl)),
            decided: decided_what.into(),
            instead,
        });
    }
    Ok(out)
}

fn title(r: &MediaReport) -> String {
    match r.moment {
        Moment::Midway => format!("{}: the season at midway", r.league),
        Moment::End => format!("{}: the season's final results", r.league),
    }
}

/// `1 match point`, `2½ game points`.
fn points(x: f64, what: &str) -> String {
    let s = if x == 1.0 { "" } else { "s" };
    format!("{} {what} point{s}", number(x))
}

fn record(l: &StandingLine) -> String {
    format!("{}-{}-{}", l.won, l.drawn, l.lost)
}

fn board_line(b: &BoardLeaders) -> String {
    let leaders: Vec<String> = b
        .leaders
        .iter()
        .filter(|l| l.place == 1)
        .map(|l| {
            format!(
                "{} ({}) {}/{}",
                l.name,
                l.team_name,
                number(l.points),
                l.games
            )
        })
        .collect();
    if leaders.is_empty() {
        format!("Board {}: no games yet", b.board)
    } else {
        format!("Board {}: {}", b.board, list(leaders.iter()))
    }
}

fn finish_line(f: &Finish) -> Option<String> {
    let w = f.winner.as_ref()?;
    Some(match &f.runner_up {
        Some(r) => format!("{} won the playoffs; {} were runners-up.", w.name, r.name),
        None => format!("{} won the playoffs.", w.name),
    })
}

/// The report as a plain-text press release.
pub fn to_text(r: &MediaReport) -> String {
    let mut out = String::new();
    let head = title(r);
    let _ = writeln!(out, "{head}\n{}\n", "=".repeat(head.chars().count()));
    if let Some(line) = r.playoffs.as_ref().and_then(finish_line) {
        let _ = writeln!(out, "{line}\n");
    }
    for d in &r.divisions {
        let _ = writeln!(
            out,
            "{} (after {} round{})",
            d.division,
            d.rounds_played,
            if d.rounds_played == 1 { "" } else { "s" }
        );
        let width = d
            .standings
            .iter()
            .map(|l| l.name.chars().count())
            .max()
            .unwrap_or(0);
        for l in &d.standings {
            let _ = writeln!(
                out,
                "  {:>4}  {:<width$}  {}  {}, {}",
                l.place,
                l.name,
                record(l),
                points(l.match_points, "match"),
                points(l.game_points, "game")
            );
        }
        if !d.race.is_empty() {
            let _ = writeln!(out, "\n  The race:");
            for line in &d.race {
                let _ = writeln!(out, "  - {line}");
            }
        }
        if !d.notable.is_empty() {
            let _ = writeln!(out, "\n  Notable results:");
            for n in &d.notable {
                let _ = writeln!(out, "  - {}", n.sentence());
            }
        }
        let _ = writeln!(out, "\n  Top scores by board:");
        for b in &d.boards {
            let _ = writeln!(out, "  - {}", board_line(b));
        }
        out.push('\n');
    }
    out.trim_end().to_string() + "\n"
}

/// The report as Markdown, for pasting into other sites: every name and sentence written
/// through [`markdown::text`], so a name is never Markdown or HTML of its own.
pub fn to_markdown(r: &MediaReport) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "# {}\n", markdown::text(&title(r)));
    if let Some(line) = r.playoffs.as_ref().and_then(finish_line) {
        let _ = writeln!(out, "{}\n", markdown::text(&line));
    }
    for d in &r.divisions {
        let _ = writeln!(
            out,
            "## {}\n\nAfter {} round{}.\n",
            markdown::text(&d.division),
            d.rounds_played,
            if d.rounds_played == 1 { "" } else { "s" }
        );
        let _ = writeln!(out, "| Place | Team | W-D-L | Match points | Game points |");
        let _ = writeln!(out, "|---:|---|:---:|---:|---:|");
        for l in &d.standings {
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} | {} |",
                l.place,
                markdown::text(&l.name),
                record(l),
                number(l.match_points),
                number(l.game_points)
            );
        }
        if !d.race.is_empty() {
            let _ = writeln!(out, "\n### The race\n");
            for line in &d.race {
                let _ = writeln!(out, "- {}", markdown::text(line));
            }
        }
        if !d.notable.is_empty() {
            let _ = writeln!(out, "\n### Notable results\n");
            for n in &d.notable {
                let _ = writeln!(out, "- {}", markdown::text(&n.sentence()));
            }
        }
        let _ = writeln!(out, "\n### Top scores by board\n");
        for b in &d.boards {
            let _ = writeln!(out, "- {}", markdown::text(&board_line(b)));
        }
        out.push('\n');
    }
    out.trim_end().to_string() + "\n"
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::model::{Board, Match, Player, PlayerId, Round, Team};

    /// Central (rated 1500 down to 1350), Rogers (1300 to 1150) and Waite (1400 to 1250), once
    /// round. Rogers beat Central 3–1 (an upset by 200 on average), Central beat Waite 4–0, and
    /// in the last round Rogers beat Waite 2½–1½ (by 100): had Waite won it, Central would have
    /// been first.
    fn season() -> Competition {
        let team = |id: &str, name: &str, top: u32| Team {
            id: TeamId(id.into()),
            name: name.into(),
            school: Some(name.into()),
            players: (1..=4u32)
                .map(|k| Player {
                    id: PlayerId(format!("{id}{k}")),
                    name: format!("{name} {k}"),
                    rating: Some(top - 50 * (k - 1)),
                    ..Player::default()
                })
                .collect(),
        };
        let m = |number: u32, home: &str, away: &str, code: &str| Round {
            number,
            date: None,
            pairings: vec![Pairing::Match(Match {
                home: TeamId(home.into()),
                away: TeamId(away.into()),
                outcome: MatchOutcome::Boards(
                    crate::testing::boards(code)
                        .into_iter()
                        .enumerate()
                        .map(|(i, b)| Board {
                            home_player: Some(PlayerId(format!("{home}{}", i + 1))),
                            away_player: Some(PlayerId(format!("{away}{}", i + 1))),
                            ..b
                        })
                        .collect(),
                ),
                date: None,
                start: None,
                extra_games: Vec::new(),
                late: None,
            })],
        };
        Competition {
            name: "North".into(),
            teams: vec![
                team("cen", "Central", 1500),
                team("rog", "Rogers", 1300),
                team("wat", "Waite", 1400),
            ],
            rounds: vec![
                m(1, "cen", "rog", "0=0="),
                m(2, "wat", "cen", "0000"),
                m(3, "rog", "wat", "11=0"),
            ],
        }
    }

    fn the_report(moment: Moment) -> MediaReport {
        let rules = Ruleset::preset("gthscl").unwrap();
        let c = season();
        report(
            "Greater Toledo High School Chess League",
            moment,
            &[Division {
                competition: &c,
                rules: &rules,
            }],
            None,
            1,
        )
        .unwrap()
    }

    #[test]
    fn gt_o3_the_end_of_season_report_as_a_press_release() {
        let r = the_report(Moment::End);
        assert_eq!(
            to_text(&r),
            "\
Greater Toledo High School Chess League: the season's final results
===================================================================

North (after 3 rounds)
     1  Rogers   2-0-0  2 match points, 5½ game points
     2  Central  1-0-1  1 match point, 5 game points
     3  Waite    0-0-2  0 match points, 1½ game points

  Notable results:
  - Round 1: Rogers (average rating 1225) beat Central (1425) 3\u{2013}1, an upset by 200 rating points.
  - Round 1: Rogers 1 (Rogers, 1300) beat Central 1 (Central, 1500).
  - Round 1: Rogers 3 (Rogers, 1200) beat Central 3 (Central, 1400).
  - Round 3: Rogers (average rating 1225) beat Waite (1325) 2½\u{2013}1½, an upset by 100 rating points.
  - Rogers won all 2 of its matches.
  - Round 3 decided first place: Rogers beat Waite 2½\u{2013}1½; the other way, Central would have finished first.

  Top scores by board:
  - Board 1: Rogers 1 (Rogers) 2/2
  - Board 2: Central 2 (Central) 1½/2 and Rogers 2 (Rogers) 1½/2
  - Board 3: Rogers 3 (Rogers) 1½/2
  - Board 4: Central 4 (Central) 1½/2
"
        );
    }

    #[test]
    fn gt_o3_the_report_in_markdown_and_midway_without_the_decisive_round() {
        let r = the_report(Moment::Midway);
        let md = to_markdown(&r);
        assert!(md.starts_with(
            "# Greater Toledo High School Chess League: the season at midway\n\n## North\n\nAfter 3 rounds.\n\n| Place | Team | W-D-L | Match points | Game points |\n|---:|---|:---:|---:|---:|\n| 1 | Rogers | 2-0-0 | 2 | 5½ |\n"
        ), "{md}");
        assert!(
            md.contains("\n### Notable results\n\n- Round 1: Rogers (average rating 1225)"),
            "{md}"
        );
        assert!(!md.contains("decided first place"), "{md}");
        assert!(
            md.ends_with("- Board 4: Central 4 (Central) 1½/2\n"),
            "{md}"
        );
        // The facts are data for the page and the API.
        assert_eq!(r.divisions[0].standings[1].name, "Central");
        assert!(matches!(
            r.divisions[0].notable[0],
            Notable::TeamUpset { round: 1, .. }
        ));
    }

    #[test]
    fn issue_30_names_in_the_markdown_report_are_text_never_html_nor_a_table_row() {
        let rules = Ruleset::preset("gthscl").unwrap();
        let mut c = season();
        c.name = "North [x](javascript:alert(1))".into();
        c.teams[1].name = "Rogers\n| 0 | Fake | 9-0-0 | 99 | 99 |".into();
        c.teams[1].players[0].name = "<svg onload=alert(1)>".into();
        let divisions = [Division {
            competition: &c,
            rules: &rules,
        }];
        let r = report("League *of* <b>", Moment::End, &divisions, None, 1).unwrap();
        let md = to_markdown(&r);
        // The input reaches the report: the names are in it, escaped.
        assert!(md.contains("&lt;svg onload=alert(1)&gt;"), "{md}");
        assert!(!md.contains('<'), "no raw HTML: {md}");
        assert!(md.starts_with("# League \\*of\\* &lt;b&gt;: "), "{md}");
        assert!(
            md.contains("## North \\[x\\](javascript:alert(1))\n"),
            "{md}"
        );
        let rows: Vec<&str> = md.lines().filter(|l| l.starts_with('|')).collect();
        assert_eq!(
            rows.len(),
            2 + 3,
            "the header, its rule and three teams: {md}"
        );
        for row in &rows {
            let cells = row.replace("\\|", "").matches('|').count();
            assert_eq!(cells, 6, "five cells in `{row}`");
        }
        assert!(
            rows[2].contains("| Rogers \\| 0 \\| Fake \\| 9-0-0 \\| 99 \\| 99 \\| |"),
            "{md}"
        );
    }

    fn report_of(c: &Competition, moment: Moment) -> MediaReport {
        let rules = Ruleset::preset("gthscl").unwrap();
        report(
            "GTHSCL",
            moment,
            &[Division {
                competition: c,
                rules: &rules,
            }],
            None,
            1,
        )
        .unwrap()
    }

    fn sentences(r: &MediaReport) -> Vec<String> {
        r.divisions[0]
            .notable
            .iter()
            .map(Notable::sentence)
            .collect()
    }

    /// Issue 36, GT-O3: midway, the report tells the race for first place as the race proves
    /// it: who has clinched it, and on what each other team can still win the title.
    #[test]
    fn gt_o3_midway_the_report_says_who_can_still_win_the_title_and_if_what() {
        use crate::testing::{competition, pending, played};
        // A (2 match points) and B (1½) play each other last; C (½) cannot catch up; D (0) too.
        let c = competition(
            &["a", "b", "c", "d"],
            vec![
                vec![played("a", "c", "11=0"), played("b", "d", "11=0")],
                vec![played("a", "d", "1111"), played("b", "c", "1100")],
                vec![pending("a", "b"), pending("c", "d")],
            ],
        );
        let r = report_of(&c, Moment::Midway);
        assert_eq!(
            r.divisions[0].race,
            [
                "A can still win the title if it takes at least ½ match point in its last match.",
                "B can still win the title if it wins its last match."
            ],
            "{:?}",
            r.divisions[0].race
        );
        let text = to_text(&r);
        assert!(
            text.contains("  The race:\n  - A can still win the title if"),
            "{text}"
        );
    }

    #[test]
    fn gt_o3_a_last_round_decides_only_what_was_open_before_it_and_names_who_it_put_in_or_out() {
        use crate::testing::{competition, played};
        // Before round 3 A had clinched first (GT-F3's race); second place was open between
        // B and C. B beat C: had C won, C would have qualified instead of B. A beat D, which
        // decided nothing: A was first, and through, whatever happened.
        let c = competition(
            &["a", "b", "c", "d"],
            vec![
                vec![played("a", "b", "1111"), played("c", "d", "11=0")],
                vec![played("a", "c", "1111"), played("b", "d", "11=0")],
                vec![played("a", "d", "11=0"), played("b", "c", "11=0")],
            ],
        );
        let end = sentences(&report_of(&c, Moment::End));
        let decisive: Vec<&String> = end.iter().filter(|s| s.contains("decided")).collect();
        assert_eq!(
            decisive,
            [&"Round 3 decided a playoff place: B beat C 2½–1½; the other way, C would have qualified instead of B.".to_string()],
            "{end:?}"
        );
        assert!(!end.iter().any(|s| s.contains("first place")), "{end:?}");
        // With every team invited (the officers' setting, GT-F3), no playoff place was open
        // before the last round, so the same result decides nothing.
        let all_in = Ruleset::preset("gthscl")
            .unwrap()
            .with(|r| r.playoffs.as_mut().unwrap().qualifiers_per_division = 4)
            .unwrap();
        let r = report(
            "GTHSCL",
            Moment::End,
            &[Division {
                competition: &c,
                rules: &all_in,
            }],
            None,
            1,
        )
        .unwrap();
        assert!(
            !sentences(&r).iter().any(|s| s.contains("decided")),
            "{:?}",
            sentences(&r)
        );
    }

    #[test]
    fn gt_f2_gt_r6_players_are_named_with_the_team_they_played_for_and_belong_to() {
        // Central A and Central B, one school's two teams (GT-F2), and Rogers. Dana is on A's
        // roster but plays for B in every match; Gus, from Genoa, plays for Rogers (GT-R6).
        let team =
            |id: &str, name: &str, school: &str, players: &[(&str, u32, Option<&str>)]| Team {
                id: TeamId(id.into()),
                name: name.into(),
                school: Some(school.into()),
                players: players
                    .iter()
                    .map(|(p, r, own)| Player {
                        id: PlayerId((*p).into()),
                        name: p.to_uppercase(),
                        rating: Some(*r),
                        school: own.map(str::to_string),
                        ..Player::default()
                    })
                    .collect(),
            };
        let m =
            |number: u32, home: &str, away: &str, lineup: [(&str, &str); 4], code: &str| Round {
                number,
                date: None,
                pairings: vec![Pairing::Match(Match {
                    home: TeamId(home.into()),
                    away: TeamId(away.into()),
                    outcome: MatchOutcome::Boards(
                        crate::testing::boards(code)
                            .into_iter()
                            .zip(lineup)
                            .map(|(b, (h, a))| Board {
                                home_player: Some(PlayerId(h.into())),
                                away_player: Some(PlayerId(a.into())),
                                ..b
                            })
                            .collect(),
                    ),
                    date: None,
                    start: None,
                    extra_games: Vec::new(),
                    late: None,
                })],
            };
        let c = Competition {
            name: "Metro".into(),
            teams: vec![
                team(
                    "cen-a",
                    "Central A",
                    "Central",
                    &[
                        ("a1", 1900, None),
                        ("a2", 1850, None),
                        ("a3", 1800, None),
                        ("a4", 1750, None),
                        ("dana", 1500, None),
                    ],
                ),
                team(
                    "cen-b",
                    "Central B",
                    "Central",
                    &[("b1", 1500, None), ("b2", 1450, None), ("b3", 1400, None)],
                ),
                team(
                    "rog",
                    "Rogers",
                    "Rogers",
                    &[
                        ("gus", 1400, Some("Genoa")),
                        ("r2", 1500, None),
                        ("r3", 1500, None),
                        ("r4", 1500, None),
                    ],
                ),
            ],
            rounds: vec![
                // Dana (A's roster, 1500) beats A's top board (1900) playing for B.
                m(
                    1,
                    "cen-a",
                    "cen-b",
                    [("a1", "dana"), ("a2", "b1"), ("a3", "b2"), ("a4", "b3")],
                    "0111",
                ),
                m(
                    2,
                    "cen-b",
                    "rog",
                    [("dana", "gus"), ("b1", "r2"), ("b2", "r3"), ("b3", "r4")],
                    "1000",
                ),
                // Gus (1400, Genoa, GT-R6) beats A's 1850 for Rogers.
                m(
                    3,
                    "rog",
                    "cen-a",
                    [("r2", "a1"), ("gus", "a2"), ("r3", "a3"), ("r4", "a4")],
                    "0100",
                ),
            ],
        };
        let said = sentences(&report_of(&c, Moment::Midway));
        assert!(
            said.contains(
                &"Round 1: DANA (Central B, 1500) beat A1 (Central A, 1900).".to_string()
            ),
            "{said:?}"
        );
        assert!(
            said.contains(
                &"Round 3: GUS (Rogers, a Genoa student, 1400) beat A2 (Central A, 1850)."
                    .to_string()
            ),
            "{said:?}"
        );
        assert!(
            !said.iter().any(|s| s.contains("DANA (Central A")),
            "{said:?}"
        );
    }
}
