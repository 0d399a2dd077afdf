//! The matches left to play and every way each can end, grouped by what the first criterion
//! reads of them; a scenario (one way every match ends) written into the competition and ranked
//! by the real standings.
//!
//! A remaining match ends in any of its board scores: each board not yet in won, drawn or lost
//! over the board (a board's forfeit scores as its win, GT-M9). A whole-match forfeit scores as
//! the 4–0 it is worth (GT-M7), so it adds no total to these; a drop for a second forfeit
//! (GT-M5) is not foreseen. A dropped team's matches are not played (the standings score them as
//! its drop rule says), so they are not remaining matches.

use std::collections::{HashMap, HashSet};

use crate::record::model::{
    Board, Competition, GameOutcome, GameResult, MatchOutcome, Pairing, Side,
};
use crate::rules::criteria::CriterionKind;
use crate::rules::ruleset::Ruleset;
use crate::scoring::standings::{self, StandingsError};
use crate::scoring::{self, EntryKind, ScoreSheet};

/// What the first criterion counts: match points or game points.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Primary {
    /// `MP` first.
    Mp,
    /// `GP` first.
    Gp,
}

/// The first criterion, when it is a total (`MP` or `GP`); `None` otherwise.
pub(super) fn primary(rules: &Ruleset) -> Option<Primary> {
    match rules.criteria.first().map(|c| &c.kind) {
        Some(CriterionKind::MatchPoints) => Some(Primary::Mp),
        Some(CriterionKind::GamePoints) => Some(Primary::Gp),
        _ => None,
    }
}

/// Whether the ruleset reads a match board by board beyond its game points and wins (weighted
/// boards, the Berliner Wertung, defaults, games won): then every way a match can end is kept
/// apart, and none is taken for another with the same game points.
pub(super) fn every_board_counts(rules: &Ruleset) -> bool {
    !rules.scoring.board_weights.is_empty()
        || rules.criteria.iter().any(|c| {
            matches!(
                c.kind,
                CriterionKind::BoardPoints
                    | CriterionKind::GamesWon
                    | CriterionKind::Defaults
                    | CriterionKind::Berliner
            )
        })
}

/// One way a remaining match can end.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Outcome {
    /// Home, away.
    pub gp: [f64; 2],
    pub mp: [f64; 2],
    /// Wins over the board per board, home then away (for `H2H:BOARDS`).
    pub wins: [Vec<u8>; 2],
    /// The boards, for the standings themselves.
    pub boards: Vec<GameResult>,
}

impl Outcome {
    /// What side `s` scores of the first criterion.
    pub fn value(&self, primary: Primary, s: usize) -> f64 {
        match primary {
            Primary::Mp => self.mp[s],
            Primary::Gp => self.gp[s],
        }
    }
}

/// A remaining match and its outcomes by class.
#[derive(Debug, Clone)]
pub(super) struct Remaining {
    /// Positions in `Competition::teams`, home then away.
    pub teams: [usize; 2],
    /// (round index, pairing index) in the competition.
    pub at: (usize, usize),
    /// Every distinct outcome (by game points, and by board wins when they count).
    pub outcomes: Vec<Outcome>,
    /// The classes (outcomes equal on the first criterion): indexes into `outcomes`.
    pub classes: Vec<Vec<usize>>,
    /// Each class's outcomes that differ in game points (for a match with an outsider).
    pub by_score: Vec<Vec<usize>>,
}

impl Remaining {
    /// Whether team `t` plays it, and on which side.
    pub fn side_of(&self, t: usize) -> Option<usize> {
        self.teams.iter().position(|&x| x == t)
    }
}

/// The division as the race sees it: the end's score sheet, the matches left, who is dropped.
#[derive(Debug, Clone)]
pub(super) struct Division<'a> {
    pub competition: &'a Competition,
    pub rules: &'a Ruleset,
    /// The end's figures: every bye to come is certain.
    pub sheet: ScoreSheet,
    pub remaining: Vec<Remaining>,
    pub dropped: Vec<bool>,
    pub primary: Option<Primary>,
    /// Each team's remaining matches.
    pub own: Vec<Vec<usize>>,
}

impl<'a> Division<'a> {
    /// Reads the matches left of `competition`: outcomes are kept apart by their board wins too
    /// when `H2H:BOARDS` or a FIDE criterion may read them.
    pub fn new(competition: &'a Competition, rules: &'a Ruleset) -> Division<'a> {
        let sheet = scoring::score_at_end(competition, rules);
        let dropped: Vec<bool> = sheet.teams.iter().map(|t| t.dropped.is_some()).collect();
        let primary = primary(rules);
        let board_detail = rules.criteria.iter().any(|c| {
            matches!(
                c.kind,
                CriterionKind::HeadToHeadBoards | CriterionKind::Fide(_)
            )
        }) || every_board_counts(rules);
        let remaining =
            remaining_matches(competition, rules, &sheet, &dropped, primary, board_detail);
        let own = (0..competition.teams.len())
            .map(|t| {
                (0..remaining.len())
                    .filter(|&i| remaining[i].teams.contains(&t))
                    .collect()
            })
            .collect();
        Division {
            competition,
            rules,
            sheet,
            remaining,
            dropped,
            primary,
            own,
        }
    }

    /// The number of teams.
    pub fn n(&self) -> usize {
        self.competition.teams.len()
    }

    /// The competition with every remaining match ended as `pick` says (an outcome index a
    /// match), ranked by the real standings: each team's (first, last) position.
    pub fn rank(&self, pick: &[usize]) -> Result<Vec<(usize, usize)>, StandingsError> {
        let played = self.play(pick);
        places(&played, self.rules)
    }

    /// The competition with every remaining match ended as `pick` says.
    pub fn play(&self, pick: &[usize]) -> Competition {
        let mut c = self.competition.clone();
        for (r, &o) in self.remaining.iter().zip(pick) {
            if let Some(Pairing::Match(m)) = c
                .rounds
                .get_mut(r.at.0)
                .and_then(|round| round.pairings.get_mut(r.at.1))
            {
                m.outcome = MatchOutcome::Boards(
                    r.outcomes[o]
                        .boards
                        .iter()
                        .map(|&b| Board::new(b))
                        .collect(),
                );
            }
        }
        c
    }
}

/// Each team's first and last position in the standings of `c` (the last of a shared place).
pub(super) fn places(
    c: &Competition,
    rules: &Ruleset,
) -> Result<Vec<(usize, usize)>, StandingsError> {
    let s = standings::standings(c, rules)?;
    let mut out = vec![(0, 0); c.teams.len()];
    for row in &s.rows {
        let shared = s.rows.iter().filter(|o| o.rank == row.rank).count();
        out[row.team] = (row.rank, row.rank + shared - 1);
    }
    Ok(out)
}

/// The matches still to play between teams still in the league, with their outcomes.
fn remaining_matches(
    competition: &Competition,
    rules: &Ruleset,
    sheet: &ScoreSheet,
    dropped: &[bool],
    primary: Option<Primary>,
    board_detail: bool,
) -> Vec<Remaining> {
    let index = |id| competition.team_index(id);
    let mut out = Vec::new();
    let mut ways: HashMap<Vec<Option<GameResult>>, Ends> = HashMap::new();
    for (ri, round) in competition.rounds.iter().enumerate() {
        for (pi, p) in round.pairings.iter().enumerate() {
            let Pairing::Match(m) = p else { continue };
            let (Some(h), Some(a)) = (index(&m.home), index(&m.away)) else {
                continue;
            };
            if dropped[h] || dropped[a] {
                continue;
            }
            let pending = sheet.teams[h].entries.iter().any(|e| {
                e.round == round.number && e.opponent == Some(a) && e.kind == EntryKind::Pending
            });
            if !pending {
                continue;
            }
            let known: Vec<Option<GameResult>> = match &m.outcome {
                MatchOutcome::Boards(b) => (0..rules.boards as usize)
                    .map(|i| {
                        b.get(i)
                            .map(|x| x.result)
                            .filter(|r| *r != GameResult::Pending)
                    })
                    .collect(),
                _ => vec![None; rules.boards as usize],
            };
            // Matches with the same boards known end the same ways: worked out once.
            let (outcomes, classes, by_score) = ways
                .entry(known)
                .or_insert_with_key(|known| ends(rules, known, primary, board_detail))
                .clone();
            out.push(Remaining {
                teams: [h, a],
                at: (ri, pi),
                outcomes,
                classes,
                by_score,
            });
        }
    }
    out
}

/// A match's distinct outcomes, its classes and each class's outcomes distinct in game points.
type Ends = (Vec<Outcome>, Vec<Vec<usize>>, Vec<Vec<usize>>);

/// The distinct ways a match with these boards known can end (by game points, and by board wins
/// when they count), in classes by the first criterion (by game points when it is not a total).
fn ends(
    rules: &Ruleset,
    known: &[Option<GameResult>],
    primary: Option<Primary>,
    board_detail: bool,
) -> Ends {
    let mut outcomes: Vec<Outcome> = Vec::new();
    let mut seen: HashSet<(u64, u64, Vec<u8>, Vec<u8>)> = HashSet::new();
    let every_board = every_board_counts(rules);
    for o in every_way(rules, known) {
        let wins = if board_detail {
            o.wins.clone()
        } else {
            [Vec::new(), Vec::new()]
        };
        let [home, mut away] = wins;
        if every_board {
            // Each board's result, so that no two different ends are taken for one.
            away.extend(o.boards.iter().map(|b| *b as u8));
        }
        if seen.insert((o.gp[0].to_bits(), o.gp[1].to_bits(), home, away)) {
            outcomes.push(o);
        }
    }
    let key = |o: &Outcome| match primary {
        Some(Primary::Mp) => o.mp,
        _ => o.gp,
    };
    let mut keys: Vec<[f64; 2]> = Vec::new();
    let mut classes: Vec<Vec<usize>> = Vec::new();
    for (i, o) in outcomes.iter().enumerate() {
        let k = key(o);
        match keys.iter().position(|x| *x == k) {
            Some(c) => classes[c].push(i),
            None => {
                keys.push(k);
                classes.push(vec![i]);
            }
        }
    }
    let by_score = classes
        .iter()
        .map(|v| {
            let mut d: Vec<usize> = Vec::new();
            for &o in v {
                if every_board || !d.iter().any(|&x| outcomes[x].gp == outcomes[o].gp) {
                    d.push(o);
                }
            }
            d
        })
        .collect();
    (outcomes, classes, by_score)
}

/// Every way the boards not yet known can end over the board, the known ones as they are.
fn every_way(rules: &Ruleset, known: &[Option<GameResult>]) -> Vec<Outcome> {
    let free = known.iter().filter(|k| k.is_none()).count();
    let choices = [GameResult::HomeWin, GameResult::Draw, GameResult::AwayWin];
    let total = 3usize.pow(u32::try_from(free).unwrap_or(0));
    let mut out = Vec::with_capacity(total);
    for code in 0..total {
        let mut c = code;
        let boards: Vec<GameResult> = known
            .iter()
            .map(|k| {
                k.unwrap_or_else(|| {
                    let r = choices[c % 3];
                    c /= 3;
                    r
                })
            })
            .collect();
        let mut gp = [0.0, 0.0];
        let mut wins = [vec![0u8; boards.len()], vec![0u8; boards.len()]];
        for (i, b) in boards.iter().enumerate() {
            for (s, side) in [Side::Home, Side::Away].into_iter().enumerate() {
                let o = b.outcome_for(side);
                gp[s] += scoring::game_points(rules, o);
                // Board preference counts wins in played matches, a board's forfeit too.
                wins[s][i] = u8::from(matches!(o, GameOutcome::Win | GameOutcome::ForfeitWin));
            }
        }
        // The match is decided on board points (weighted, or the game points), as scored.
        let bp = scoring::match_board_points(rules, &boards);
        let mp = [
            scoring::match_points(rules, bp[0], bp[1]),
            scoring::match_points(rules, bp[1], bp[0]),
        ];
        out.push(Outcome {
            gp,
            mp,
            wins,
            boards,
        });
    }
    out
}
