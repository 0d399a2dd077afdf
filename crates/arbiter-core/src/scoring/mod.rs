//! What every game and match is worth under a ruleset: game points (GT-S1, GT-S2), board points
//! (game points times a board's weight, `[scoring] board_weights`), match points from the
//! majority of board points (GT-S4, AS-15) or from half the points available (`[scoring]
//! decided_by`), forfeited matches (GT-M7), byes, and the drop
//! rule (GT-M5), whose exclusions are computed here and never deleted from the record.
//!
//! The area also holds the standings built from these scores ([`standings`]) and FIDE's C.07
//! team tie-breaks ([`fide`]), which only `standings` calls.

pub mod fide;
pub mod standings;
#[cfg(test)]
mod tests;

use std::collections::HashMap;

use crate::record::model::{
    ByeKind, Competition, GameOutcome, GameResult, MatchOutcome, Pairing, Side, TeamId,
};
use crate::rules::ruleset::{Award, MatchDecision, Ruleset};

/// Every team's score, round by round. Indexes are positions in `Competition::teams`.
#[derive(Debug, Clone, PartialEq)]
pub struct ScoreSheet {
    /// Every team's score, in the order of `Competition::teams`.
    pub teams: Vec<TeamScore>,
    /// The highest round number of the competition.
    pub rounds: u32,
    /// Boards per match (the ruleset's).
    pub boards: u32,
    /// The ruleset's own IDs for the drop rule and a forfeited match's score (`GT-M5`,
    /// `GT-M7` in GTHSCL), cited by the sentences about a dropped team.
    pub cites: DropCitations,
}

/// The ruleset's IDs the score sheet's sentences cite (none when the league cites none).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct DropCitations {
    /// `[cite] drop`: GT-M5.
    pub drop: Option<String>,
    /// `[cite] forfeit_match`: GT-M7.
    pub forfeit_match: Option<String>,
}

impl DropCitations {
    fn of(rules: &Ruleset) -> DropCitations {
        DropCitations {
            drop: rules.cite("drop").map(str::to_string),
            forfeit_match: rules.cite("forfeit_match").map(str::to_string),
        }
    }
}

/// ` (GT-M5)`: an ID in brackets, or nothing.
fn bracketed(id: Option<&str>) -> String {
    id.map_or(String::new(), |id| format!(" ({id})"))
}

/// One team's score: its round entries and its totals.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TeamScore {
    /// One entry per round in which the team was paired or had a bye, in round order.
    pub entries: Vec<RoundEntry>,
    /// GT-M5: set when the team was dropped.
    pub dropped: Option<Dropped>,
    /// Totals over the entries that count (not excluded, not pending).
    pub match_points: f64,
    /// The team's game points over the entries that count: its team points in ASTC (AS-14).
    pub game_points: f64,
    /// The team's board points over the entries that count: its game points, each board's
    /// times its weight (`[scoring] board_weights`); equal to `game_points` when no board is
    /// weighted.
    pub board_points: f64,
}

/// What one team scored in one round: a match or a bye.
#[derive(Debug, Clone, PartialEq)]
pub struct RoundEntry {
    /// The round's number.
    pub round: u32,
    /// The opponent's position in `Competition::teams`; `None` for byes.
    pub opponent: Option<usize>,
    /// The team's side in the match (`Home` is first-named); `None` for byes.
    pub side: Option<Side>,
    /// What the round was for the team: played, forfeited, a bye or still pending.
    pub kind: EntryKind,
    /// The team's match points for the round: win, draw or loss by the ruleset (GT-S4, AS-15).
    pub match_points: f64,
    /// The team's game points for the round: its boards' sum (GT-S1), or a forfeit or bye's award.
    pub game_points: f64,
    /// The opponent's game points in the same match.
    pub opponent_game_points: f64,
    /// The team's board points for the round (`[scoring] board_weights`): each board's game
    /// points times its weight; a forfeit or bye's game points times the boards' mean weight.
    /// Equal to `game_points` when no board is weighted.
    pub board_points: f64,
    /// The opponent's board points in the same match.
    pub opponent_board_points: f64,
    /// Board by board, board 1 first; empty for byes and whole-match forfeits.
    pub boards: Vec<BoardScore>,
    /// GT-M5: the entry counts for no figure.
    pub excluded: Option<Exclusion>,
}

impl RoundEntry {
    /// Whether the entry counts toward standings: decided and not excluded.
    pub fn counts(&self) -> bool {
        self.excluded.is_none() && self.kind != EntryKind::Pending
    }
}

/// What kind of round a team had: a match played, a whole-match forfeit, a bye or nothing yet.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EntryKind {
    /// Played board by board (some boards may be forfeits, GT-M9).
    Played,
    /// The opponent forfeited the whole match (GT-M7).
    ForfeitWin,
    /// This team forfeited the whole match.
    ForfeitLoss,
    /// Both forfeited the match.
    DoubleForfeit,
    /// The team sat out the round, with the kind of bye (C.07 art. 16.1).
    Bye(ByeKind),
    /// Scheduled, not yet (completely) reported.
    Pending,
}

/// What one board of a match gave one team.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BoardScore {
    /// The board's number, from 1.
    pub board: u32,
    /// What the team's player got: a win, a draw, a loss, or one by default.
    pub outcome: GameOutcome,
    /// The game points it is worth to the team (GT-S1, GT-S2).
    pub points: f64,
}

/// GT-M5: why a team was dropped, and what followed.
#[derive(Debug, Clone, PartialEq)]
pub struct Dropped {
    /// The round of the forfeit that dropped the team.
    pub round: u32,
    /// How many matches the team forfeited in all; the ruleset's limit (two in GTHSCL) drops it.
    pub match_forfeits: u32,
    /// Matches with a result in which the team did not forfeit, and its whole schedule.
    pub played: u32,
    /// Every match on the team's schedule, played or not.
    pub scheduled: u32,
    /// Under half its schedule played: every match of the team is excluded.
    pub all_matches_excluded: bool,
}

/// Why an entry is left out of every figure.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Exclusion {
    /// The ruleset's ID for the drop rule that excludes the entry (`GT-M5` in GTHSCL), when
    /// it cites one.
    pub rule: Option<String>,
    /// The sentence that says why, to show as it is.
    pub reason: String,
}

/// Scores a competition under a ruleset, as it stands: a bye scores (the ruleset's `[bye]`)
/// only once its round has been played ("Byes", RULES.md); before that it is a round still to
/// come. Team ids that the competition does not list are skipped here; `validate` reports them.
pub fn score(competition: &Competition, rules: &Ruleset) -> ScoreSheet {
    score_with(competition, rules, Byes::Played)
}

/// Scores a competition as it will stand at its end, every bye to come counted (it is certain):
/// what the race works from.
pub fn score_at_end(competition: &Competition, rules: &Ruleset) -> ScoreSheet {
    score_with(competition, rules, Byes::All)
}

/// Which byes count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Byes {
    /// Those of rounds played: the round, or a later one, has a result.
    Played,
    /// Every bye, played or to come.
    All,
}

/// The last round played: the highest round with any result (a round is played once any of its
/// games is; a later round's result means the earlier ones took place).
pub fn last_round_played(competition: &Competition) -> u32 {
    competition
        .rounds
        .iter()
        .filter(|r| {
            r.pairings.iter().any(|p| match p {
                Pairing::Match(m) => match &m.outcome {
                    MatchOutcome::Pending => false,
                    MatchOutcome::Boards(boards) => boards
                        .iter()
                        .any(|b| b.result != crate::record::model::GameResult::Pending),
                    _ => true,
                },
                Pairing::Bye(_) => false,
            })
        })
        .map(|r| r.number)
        .max()
        .unwrap_or(0)
}

fn score_with(competition: &Competition, rules: &Ruleset, byes: Byes) -> ScoreSheet {
    let played = match byes {
        Byes::Played => last_round_played(competition),
        Byes::All => u32::MAX,
    };
    let mut sheet = ScoreSheet {
        teams: vec![TeamScore::default(); competition.teams.len()],
        rounds: competition
            .rounds
            .iter()
            .map(|r| r.number)
            .max()
            .unwrap_or(0),
        boards: rules.boards,
        cites: DropCitations::of(rules),
    };
    // Team ids to positions once, not a scan per match; the first team with an id wins, as in
    // `Competition::team_index`.
    let mut index: HashMap<&TeamId, usize> = HashMap::with_capacity(competition.teams.len());
    for (i, t) in competition.teams.iter().enumerate() {
        index.entry(&t.id).or_insert(i);
    }
    let team_index = |id: &TeamId| index.get(id).copied();
    let mut rounds: Vec<_> = competition.rounds.iter().collect();
    rounds.sort_by_key(|r| r.number);
    for round in rounds {
        for pairing in &round.pairings {
            match pairing {
                Pairing::Bye(bye) => {
                    let Some(t) = team_index(&bye.team) else {
                        continue;
                    };
                    // A bye of a round not yet played is a round still to come.
                    let (kind, award) = if round.number <= played {
                        (EntryKind::Bye(bye.kind), bye_award(rules, bye.kind))
                    } else {
                        (
                            EntryKind::Pending,
                            Award {
                                match_points: 0.0,
                                game_points: 0.0,
                            },
                        )
                    };
                    sheet.teams[t].entries.push(RoundEntry {
                        round: round.number,
                        opponent: None,
                        side: None,
                        kind,
                        match_points: award.match_points,
                        game_points: award.game_points,
                        opponent_game_points: 0.0,
                        board_points: award_board_points(rules, award.game_points),
                        opponent_board_points: 0.0,
                        boards: Vec::new(),
                        excluded: None,
                    });
                }
                Pairing::Match(m) => {
                    let (Some(h), Some(a)) = (team_index(&m.home), team_index(&m.away)) else {
                        continue;
                    };
                    let [home, away] = score_match(rules, &m.outcome, round.number, h, a);
                    sheet.teams[h].entries.push(home);
                    sheet.teams[a].entries.push(away);
                }
            }
        }
    }
    if let Some(drop) = rules.drop {
        apply_drop_rule(&mut sheet, competition, rules, drop);
    }
    for team in &mut sheet.teams {
        team.match_points = total(
            team.entries
                .iter()
                .filter(|e| e.counts())
                .map(|e| e.match_points),
        );
        team.game_points = total(
            team.entries
                .iter()
                .filter(|e| e.counts())
                .map(|e| e.game_points),
        );
        team.board_points = total(
            team.entries
                .iter()
                .filter(|e| e.counts())
                .map(|e| e.board_points),
        );
    }
    sheet
}

/// A sum that is 0, never -0: Rust's `f64` sum of nothing is -0, which sorts below 0 and
/// reaches the API as `-0.0` (issue 9, item 12).
pub(crate) fn total(values: impl Iterator<Item = f64>) -> f64 {
    values.fold(0.0, |a, b| a + b)
}

/// What a bye is worth: a PAB as the ruleset says; the requested kinds as FIDE fixes them.
pub fn bye_award(rules: &Ruleset, kind: ByeKind) -> Award {
    let boards = f64::from(rules.boards);
    match kind {
        ByeKind::PairingAllocated => rules.bye,
        ByeKind::FullPoint => Award {
            match_points: rules.match_points.win,
            game_points: rules.game_points.win * boards,
        },
        ByeKind::HalfPoint => Award {
            match_points: rules.match_points.draw,
            game_points: rules.game_points.draw * boards,
        },
        ByeKind::ZeroPoint => Award {
            match_points: rules.match_points.loss,
            game_points: rules.game_points.loss * boards,
        },
    }
}

/// The points of one board for a team (GT-S1, GT-S2: a forfeit is a win for the opponent;
/// a double forfeit scores for nobody).
pub fn game_points(rules: &Ruleset, outcome: GameOutcome) -> f64 {
    match outcome {
        GameOutcome::Win | GameOutcome::ForfeitWin => rules.game_points.win,
        GameOutcome::Draw => rules.game_points.draw,
        GameOutcome::Loss | GameOutcome::ForfeitLoss => rules.game_points.loss,
        GameOutcome::DoubleForfeit | GameOutcome::Pending => 0.0,
    }
}

/// GT-S4, AS-15: the team with more board points wins the match (board points are game points
/// when no board is weighted); under `[scoring] decided_by = "half_of_boards"` a team wins with
/// more than half the board points the match has, draws with exactly half, and takes the loss's
/// match points with less, whatever its opponent scored.
pub fn match_points(rules: &Ruleset, own: f64, opponent: f64) -> f64 {
    let (win, draw, loss) = (
        rules.match_points.win,
        rules.match_points.draw,
        rules.match_points.loss,
    );
    match rules.scoring.decided_by {
        MatchDecision::Majority => {
            if own > opponent {
                win
            } else if own < opponent {
                loss
            } else {
                draw
            }
        }
        MatchDecision::HalfOfBoards => {
            let half = rules.max_board_points() / 2.0;
            if own > half {
                win
            } else if own == half {
                draw
            } else {
                loss
            }
        }
    }
}

/// The Berliner Wertung of one match (reference/standards.md: a German-league tie-break, not in
/// C.07): its boards' game points, board 1 first, on n boards board 1's counting n times, board
/// 2's n − 1 times, … the last board's once. The one computation of it: the standings' `BERLINER`
/// sums it over a team's matches, a drawn playoff match compares the two teams' (GT-F4).
pub fn berliner(points: &[f64]) -> f64 {
    let n = points.len();
    total(
        points
            .iter()
            .enumerate()
            .map(|(i, p)| p * f64::from(u32::try_from(n - i).unwrap_or(0))),
    )
}

/// The Berliner Wertung of a match not played on its boards (a forfeit, a bye) that awarded
/// `game_points` on `boards` boards: as if every board had scored the same share, so a forfeit
/// won 4–0 counts as four boards won (4 + 3 + 2 + 1 = 10).
pub fn berliner_of_award(game_points: f64, boards: u32) -> f64 {
    game_points * (f64::from(boards) + 1.0) / 2.0
}

/// The board points of one board for a team: its game points times the board's weight
/// (`[scoring] board_weights`; 1 when unweighted).
pub fn board_points(rules: &Ruleset, board: u32, outcome: GameOutcome) -> f64 {
    game_points(rules, outcome) * rules.board_weight(board)
}

/// The board points of a forfeit or bye awarded `game_points`: as if each board weighed the
/// boards' mean weight, so a whole match's game points are the whole match's board points.
pub fn award_board_points(rules: &Ruleset, game_points: f64) -> f64 {
    game_points * rules.total_board_weight() / f64::from(rules.boards.max(1))
}

/// A match's board points for each side, home first, from its boards' results in order.
pub fn match_board_points(rules: &Ruleset, results: &[GameResult]) -> [f64; 2] {
    let mut points = [0.0, 0.0];
    for (i, r) in results.iter().enumerate() {
        let board = u32::try_from(i + 1).unwrap_or(u32::MAX);
        for (s, side) in [Side::Home, Side::Away].into_iter().enumerate() {
            points[s] += board_points(rules, board, r.outcome_for(side));
        }
    }
    points
}

fn score_match(
    rules: &Ruleset,
    outcome: &MatchOutcome,
    round: u32,
    home: usize,
    away: usize,
) -> [RoundEntry; 2] {
    let entry = |side: Side, opponent: usize| RoundEntry {
        round,
        opponent: Some(opponent),
        side: Some(side),
        kind: EntryKind::Pending,
        match_points: 0.0,
        game_points: 0.0,
        opponent_game_points: 0.0,
        board_points: 0.0,
        opponent_board_points: 0.0,
        boards: Vec::new(),
        excluded: None,
    };
    let mut h = entry(Side::Home, away);
    let mut a = entry(Side::Away, home);
    match outcome {
        MatchOutcome::Pending => {}
        MatchOutcome::Forfeit { by } => {
            let (loser, winner) = match by {
                Side::Home => (&mut h, &mut a),
                Side::Away => (&mut a, &mut h),
            };
            set_forfeit(rules, winner, loser);
        }
        MatchOutcome::DoubleForfeit => {
            for e in [&mut h, &mut a] {
                e.kind = EntryKind::DoubleForfeit;
                e.match_points = rules.forfeit_match.loser.match_points;
                e.game_points = rules.forfeit_match.loser.game_points;
                e.opponent_game_points = rules.forfeit_match.loser.game_points;
                e.board_points = award_board_points(rules, e.game_points);
                e.opponent_board_points = e.board_points;
            }
        }
        MatchOutcome::Boards(boards) => {
            let complete = !boards.is_empty()
                && boards
                    .iter()
                    .all(|b| b.result != crate::record::model::GameResult::Pending);
            for (i, b) in boards.iter().enumerate() {
                let board = u32::try_from(i + 1).unwrap_or(u32::MAX);
                for (e, side) in [(&mut h, Side::Home), (&mut a, Side::Away)] {
                    let outcome = b.result.outcome_for(side);
                    e.boards.push(BoardScore {
                        board,
                        outcome,
                        points: game_points(rules, outcome),
                    });
                }
            }
            let hp = total(h.boards.iter().map(|b| b.points));
            let ap = total(a.boards.iter().map(|b| b.points));
            h.game_points = hp;
            a.game_points = ap;
            h.opponent_game_points = ap;
            a.opponent_game_points = hp;
            let results: Vec<GameResult> = boards.iter().map(|b| b.result).collect();
            let [hb, ab] = match_board_points(rules, &results);
            h.board_points = hb;
            a.board_points = ab;
            h.opponent_board_points = ab;
            a.opponent_board_points = hb;
            if complete {
                h.kind = EntryKind::Played;
                a.kind = EntryKind::Played;
                h.match_points = match_points(rules, hb, ab);
                a.match_points = match_points(rules, ab, hb);
            }
        }
    }
    [h, a]
}

fn set_forfeit(rules: &Ruleset, winner: &mut RoundEntry, loser: &mut RoundEntry) {
    let f = rules.forfeit_match;
    winner.kind = EntryKind::ForfeitWin;
    winner.match_points = f.winner.match_points;
    winner.game_points = f.winner.game_points;
    winner.opponent_game_points = f.loser.game_points;
    loser.kind = EntryKind::ForfeitLoss;
    loser.match_points = f.loser.match_points;
    loser.game_points = f.loser.game_points;
    loser.opponent_game_points = f.winner.game_points;
    winner.board_points = award_board_points(rules, winner.game_points);
    winner.opponent_board_points = award_board_points(rules, winner.opponent_game_points);
    loser.board_points = award_board_points(rules, loser.game_points);
    loser.opponent_board_points = award_board_points(rules, loser.opponent_game_points);
}

/// GT-M5. The second match forfeit drops a team. If it played under half its schedule, all its
/// matches leave every figure (for it and for its opponents); otherwise its played results stand
/// and its matches still to come score as forfeits for its opponents.
fn apply_drop_rule(
    sheet: &mut ScoreSheet,
    competition: &Competition,
    rules: &Ruleset,
    drop: crate::rules::ruleset::DropRule,
) {
    let limit = drop.after_match_forfeits.max(1);
    for t in 0..sheet.teams.len() {
        let entries = &sheet.teams[t].entries;
        let mut forfeits = 0;
        let mut drop_round = None;
        for e in entries {
            if e.kind == EntryKind::ForfeitLoss {
                forfeits += 1;
                if forfeits == limit {
                    drop_round = Some(e.round);
                }
            }
        }
        let Some(round) = drop_round else { continue };
        let is_match = |e: &&RoundEntry| e.opponent.is_some();
        let scheduled = count(entries.iter().filter(is_match));
        let played = count(
            entries
                .iter()
                .filter(is_match)
                .filter(|e| matches!(e.kind, EntryKind::Played | EntryKind::ForfeitWin)),
        );
        let all_excluded = drop.exclude_when_played_under_half && played * 2 < scheduled;
        sheet.teams[t].dropped = Some(Dropped {
            round,
            match_forfeits: forfeits,
            played,
            scheduled,
            all_matches_excluded: all_excluded,
        });
        let name_rounds: Vec<(u32, usize)> = sheet.teams[t]
            .entries
            .iter()
            .filter_map(|e| e.opponent.map(|o| (e.round, o)))
            .collect();
        for (r, opp) in name_rounds {
            // Every match of the team still to play is a forfeit, whatever its round: an earlier
            // round's match postponed before the drop will never be played either.
            let later_pending = sheet.teams[t]
                .entries
                .iter()
                .any(|e| e.round == r && e.opponent == Some(opp) && e.kind == EntryKind::Pending);
            if all_excluded {
                let name = competition
                    .teams
                    .get(t)
                    .map_or("the team", |x| x.name.as_str());
                let rule = rules.cite("drop");
                let reason = format!(
                    "{}excluded, because {name} was dropped in round {round} having played {played} of its {scheduled} matches, under half",
                    rule.map_or(String::new(), |id| format!("{id}: "))
                );
                for (who, other) in [(t, opp), (opp, t)] {
                    if let Some(e) = entry_mut(sheet, who, r, other) {
                        e.excluded = Some(Exclusion {
                            rule: rule.map(str::to_string),
                            reason: reason.clone(),
                        });
                    }
                }
            } else if later_pending && drop.remaining_matches_forfeited {
                let (mut loser, mut winner) = match (
                    entry_mut(sheet, t, r, opp).cloned(),
                    entry_mut(sheet, opp, r, t).cloned(),
                ) {
                    (Some(l), Some(w)) => (l, w),
                    _ => continue,
                };
                set_forfeit(rules, &mut winner, &mut loser);
                if let Some(e) = entry_mut(sheet, t, r, opp) {
                    *e = loser;
                }
                if let Some(e) = entry_mut(sheet, opp, r, t) {
                    *e = winner;
                }
            }
        }
    }
}

/// GT-M5, the one reading of a drop for a match still to play: `Some` with the sentence when a
/// team of match `m` of round `round` was dropped, so the match will not be played (its result
/// is not asked for, reminded of, moved or flagged late); `None` when it will be, or has been.
pub fn unplayed_after_drop(
    sheet: &ScoreSheet,
    competition: &Competition,
    round: u32,
    m: &crate::record::model::Match,
) -> Option<String> {
    if m.outcome != MatchOutcome::Pending {
        return None;
    }
    let index = |id: &TeamId| competition.teams.iter().position(|t| &t.id == id);
    let (home, away) = (index(&m.home)?, index(&m.away)?);
    let name = |t: usize| competition.teams.get(t).map_or("?", |x| x.name.as_str());
    [(home, away), (away, home)].into_iter().find_map(|(t, other)| {
        let d = sheet.teams.get(t)?.dropped.as_ref()?;
        let fate = if d.all_matches_excluded {
            format!(
                "having played {} of its {} matches, under half, every match of {} is excluded from the standings",
                d.played,
                d.scheduled,
                name(t)
            )
        } else {
            format!(
                "it scores as a forfeit win for {}{}",
                name(other),
                bracketed(sheet.cites.forfeit_match.as_deref())
            )
        };
        Some(format!(
            "Not played: {} was dropped from the league after its match forfeit in round {}{}, so this round-{round} match will not be played; {fate}.",
            name(t),
            d.round,
            bracketed(sheet.cites.drop.as_deref())
        ))
    })
}

/// GT-M5, before the step is taken: the sentence warning that giving match `m` of round `round`
/// the result `outcome` would drop a team (its match forfeits reaching the ruleset's limit),
/// and what follows; `None` when nobody would be dropped by it. An officer is told this before a
/// forfeit by decision, a late report's double forfeit or a correction that drops a team.
pub fn would_drop(
    competition: &Competition,
    rules: &Ruleset,
    round: u32,
    m: &crate::record::model::Match,
    outcome: &MatchOutcome,
) -> Option<String> {
    let limit = rules.drop.as_ref()?.after_match_forfeits;
    let mut after = competition.clone();
    let target = after
        .rounds
        .iter_mut()
        .find(|r| r.number == round)?
        .pairings
        .iter_mut()
        .find_map(|p| match p {
            crate::record::model::Pairing::Match(x) if x.home == m.home && x.away == m.away => {
                Some(x)
            }
            _ => None,
        })?;
    target.outcome = outcome.clone();
    let (was, now) = (score(competition, rules), score(&after, rules));
    let t = was.teams.iter().zip(&now.teams).position(|(w, n)| {
        w.dropped.is_none() && n.dropped.as_ref().is_some_and(|d| d.round == round)
    })?;
    let d = now.teams.get(t)?.dropped.as_ref()?;
    let name = competition.teams.get(t).map_or("?", |x| x.name.as_str());
    let fate = if d.all_matches_excluded {
        format!(
            "it has played {} of its {} matches, under half, so every match of {name} is excluded from the standings",
            d.played, d.scheduled
        )
    } else if rules
        .drop
        .as_ref()
        .is_some_and(|x| x.remaining_matches_forfeited)
    {
        format!(
            "it has played {} of its {} matches, so they stand and each match it has still to play scores as a forfeit win for its opponent{}",
            d.played,
            d.scheduled,
            bracketed(rules.cite("forfeit_match"))
        )
    } else {
        format!("it has played {} of its {} matches", d.played, d.scheduled)
    };
    Some(format!(
        "{}this gives {name} {} match forfeits, and a team is dropped from the league at {limit}, so {name} is dropped: {fate}. A new version of this result undoes it.",
        rules
            .cite("drop")
            .map_or(String::new(), |id| format!("{id}: ")),
        d.match_forfeits
    ))
}

fn count<I: Iterator>(it: I) -> u32 {
    u32::try_from(it.count()).unwrap_or(u32::MAX)
}

fn entry_mut(
    sheet: &mut ScoreSheet,
    team: usize,
    round: u32,
    opponent: usize,
) -> Option<&mut RoundEntry> {
    sheet.teams[team]
        .entries
        .iter_mut()
        .find(|e| e.round == round && e.opponent == Some(opponent))
}
