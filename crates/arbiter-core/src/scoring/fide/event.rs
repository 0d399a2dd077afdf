//! The event as FIDE's tie-breaks read it: every team's record round by round, with the facts
//! C.07 arts. 15-16 ask about each unplayed round. Built from the score sheet, the same way FIDE's
//! reference checker (`gacrux`) builds its own view of a TRF file, so that both agree.

use crate::record::model::{ByeKind, GameOutcome};
use crate::rules::criteria::ScoreBasis;
use crate::rules::ruleset::FideEdition;
use crate::scoring::{EntryKind, RoundEntry};

/// The first day the 2026-03 text of C.07 applies.
const EDITION_2026_FROM: jiff::civil::Date = jiff::civil::date(2026, 3, 1);

/// What a team's round ended as, in the checker's letters (W, D, L, Z, P).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum RoundResult {
    /// A won match, a match won by forfeit, or a full-point bye.
    Win,
    /// A drawn match or a half-point bye.
    Draw,
    /// A match lost over the board.
    Loss,
    /// Nothing: a forfeit loss, a zero-point bye, a round without a pairing.
    Zero,
    /// The pairing-allocated bye.
    Pab,
}

/// One team's round.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct RoundRecord {
    pub opponent: Option<usize>,
    /// At least one game was played over the board, or both teams scored (the checker's rule),
    /// or a PAB.
    pub played: bool,
    /// C.07 art. 16.2: a voluntary unplayed round (requested bye other than a full point,
    /// forfeit loss, or no pairing at all).
    pub vur: bool,
    pub result: RoundResult,
    pub match_points: f64,
    pub game_points: f64,
    /// Where the points of the team's games in this round (board 1 first) sit in
    /// [`TeamRecord::games`]; empty for byes.
    pub games: (usize, usize),
}

impl RoundRecord {
    fn zero() -> RoundRecord {
        RoundRecord {
            opponent: None,
            played: false,
            vur: true,
            result: RoundResult::Zero,
            match_points: 0.0,
            game_points: 0.0,
            games: (0, 0),
        }
    }

    pub fn score(&self, basis: ScoreBasis) -> f64 {
        match basis {
            ScoreBasis::MatchPoints => self.match_points,
            ScoreBasis::GamePoints => self.game_points,
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct TeamRecord {
    /// Rounds 1..=R, index r - 1.
    pub rounds: Vec<RoundRecord>,
    pub match_points: f64,
    pub game_points: f64,
    /// The last round that is not a VUR (0 when none): later unplayed rounds fall under
    /// art. 16.2.5.
    pub last_present: u32,
    /// The last round with an opponent or a PAB.
    pub last_paired: u32,
    /// Art. 12: game points on each board over the whole event, board 1 first. A round not
    /// played over the board counts its result on every board (a PAB as a win).
    pub board_points: Vec<f64>,
    /// The points of the team's games, round after round.
    pub games: Vec<f64>,
}

impl TeamRecord {
    /// The points of the team's games in `round`, board 1 first.
    pub fn games(&self, round: &RoundRecord) -> &[f64] {
        self.games.get(round.games.0..round.games.1).unwrap_or(&[])
    }

    pub fn total(&self, basis: ScoreBasis) -> f64 {
        match basis {
            ScoreBasis::MatchPoints => self.match_points,
            ScoreBasis::GamePoints => self.game_points,
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Event {
    pub teams: Vec<TeamRecord>,
    /// The number of rounds (R).
    pub rounds: u32,
    pub boards: usize,
    /// Art. 15.2: pairings fixed in advance.
    pub round_robin: bool,
    pub edition: FideEdition,
    pub primary: ScoreBasis,
    pub match_win: f64,
    pub match_draw: f64,
    pub game_win: f64,
    pub game_draw: f64,
}

impl Event {
    pub fn new(ctx: &super::Input<'_>) -> Event {
        let sheet = ctx.sheet;
        let rules = ctx.rules;
        let rounds = sheet.rounds;
        let r = usize::try_from(rounds).unwrap_or(0);
        let boards = usize::try_from(sheet.boards).unwrap_or(0);
        let n = sheet.teams.len();
        let game_win = rules.game_points.win;
        let game_draw = rules.game_points.draw;
        let teams = sheet
            .teams
            .iter()
            .map(|score| {
                let mut recs = vec![RoundRecord::zero(); r];
                let mut games = Vec::with_capacity(r * boards);
                for e in score.entries.iter().filter(|e| e.counts()) {
                    let i = usize::try_from(e.round).unwrap_or(0);
                    if i >= 1
                        && i <= r
                        && let Some(rec) = record(e, rules, boards, &mut games)
                    {
                        recs[i - 1] = rec;
                    }
                }
                team_record(recs, games, boards, game_win, game_draw)
            })
            .collect();
        let round_robin = rules.fide.round_robin.unwrap_or(
            // The checker's guess when the file does not say (tiebreak.py).
            n == r + 1 || n == r || n * 2 == r + 1 || n * 2 == r,
        );
        let edition = rules.fide.edition.unwrap_or_else(|| {
            let mut dated: Vec<_> = ctx
                .competition
                .rounds
                .iter()
                .filter_map(|x| x.date.map(|d| (x.number, d)))
                .collect();
            dated.sort();
            match dated.first() {
                Some((_, d)) if *d < EDITION_2026_FROM => FideEdition::Aug2024,
                _ => FideEdition::Mar2026,
            }
        });
        Event {
            teams,
            rounds,
            boards,
            round_robin,
            edition,
            primary: ctx.primary,
            match_win: rules.match_points.win,
            match_draw: rules.match_points.draw,
            game_win,
            game_draw,
        }
    }

    /// A draw's worth in one match on `basis` (a drawn match, or a draw on every board).
    pub fn draw(&self, basis: ScoreBasis) -> f64 {
        match basis {
            ScoreBasis::MatchPoints => self.match_draw,
            ScoreBasis::GamePoints => self.game_draw * self.boards as f64,
        }
    }

    /// A win's worth in one match on `basis`.
    pub fn win(&self, basis: ScoreBasis) -> f64 {
        match basis {
            ScoreBasis::MatchPoints => self.match_win,
            ScoreBasis::GamePoints => self.game_win * self.boards as f64,
        }
    }
}

pub(crate) use crate::scoring::total;

/// The other score of the two.
pub(crate) fn other(basis: ScoreBasis) -> ScoreBasis {
    match basis {
        ScoreBasis::MatchPoints => ScoreBasis::GamePoints,
        ScoreBasis::GamePoints => ScoreBasis::MatchPoints,
    }
}

fn record(
    e: &RoundEntry,
    rules: &crate::rules::ruleset::Ruleset,
    boards: usize,
    games: &mut Vec<f64>,
) -> Option<RoundRecord> {
    let win = rules.game_points.win;
    let mut rec = RoundRecord {
        opponent: e.opponent,
        played: false,
        vur: false,
        result: RoundResult::Zero,
        match_points: e.match_points,
        game_points: e.game_points,
        games: (0, 0),
    };
    let start = games.len();
    match e.kind {
        EntryKind::Played => {
            let over_the_board = e.boards.iter().any(|b| {
                matches!(
                    b.outcome,
                    GameOutcome::Win | GameOutcome::Draw | GameOutcome::Loss
                )
            });
            let (own, theirs) = (e.game_points, e.opponent_game_points);
            // A match of forfeited boards only is a played match when both teams scored.
            rec.played = over_the_board || (own > 0.0 && theirs > 0.0);
            rec.result = if !rules.scoring.is_majority_of_game_points() {
                // `[scoring]` decides a match on weighted boards or on half the points the
                // match has: the result is the one its match points say (two teams may both
                // lose a match), not the comparison of game points.
                if e.match_points == rules.match_points.win {
                    RoundResult::Win
                } else if e.match_points == rules.match_points.draw {
                    RoundResult::Draw
                } else if rec.played {
                    RoundResult::Loss
                } else {
                    RoundResult::Zero
                }
            } else if own > theirs {
                RoundResult::Win
            } else if own < theirs {
                if rec.played {
                    RoundResult::Loss
                } else {
                    RoundResult::Zero
                }
            } else if own > 0.0 && theirs > 0.0 {
                RoundResult::Draw
            } else if rec.played {
                RoundResult::Loss
            } else {
                RoundResult::Zero
            };
            rec.match_points = match rec.result {
                RoundResult::Win => rules.match_points.win,
                RoundResult::Draw => rules.match_points.draw,
                RoundResult::Loss => rules.match_points.loss,
                RoundResult::Zero | RoundResult::Pab => 0.0,
            };
            games.extend(e.boards.iter().map(|b| b.points));
        }
        EntryKind::ForfeitWin => {
            rec.result = RoundResult::Win;
            games.extend(std::iter::repeat_n(win, boards));
        }
        EntryKind::ForfeitLoss | EntryKind::DoubleForfeit => {
            games.extend(std::iter::repeat_n(0.0, boards));
        }
        EntryKind::Bye(kind) => {
            rec.opponent = None;
            rec.result = match kind {
                ByeKind::PairingAllocated => {
                    rec.played = true;
                    RoundResult::Pab
                }
                ByeKind::FullPoint => RoundResult::Win,
                ByeKind::HalfPoint => RoundResult::Draw,
                ByeKind::ZeroPoint => RoundResult::Zero,
            };
        }
        EntryKind::Pending => return None,
    }
    rec.games = (start, games.len());
    rec.vur = !rec.played && rec.result != RoundResult::Win;
    Some(rec)
}

fn team_record(
    rounds: Vec<RoundRecord>,
    games: Vec<f64>,
    boards: usize,
    win: f64,
    draw: f64,
) -> TeamRecord {
    let mut board_points = vec![0.0; boards];
    let mut last_present = 0;
    let mut last_paired = 0;
    for (i, rec) in rounds.iter().enumerate() {
        let r = u32::try_from(i + 1).unwrap_or(u32::MAX);
        if !rec.vur {
            last_present = r;
        }
        if rec.opponent.is_some() || rec.played {
            last_paired = r;
        }
        if rec.played && rec.opponent.is_some() {
            let played = games.get(rec.games.0..rec.games.1).unwrap_or(&[]);
            for (b, p) in board_points.iter_mut().zip(played) {
                *b += p;
            }
        } else {
            let each = match rec.result {
                RoundResult::Win | RoundResult::Pab => win,
                RoundResult::Draw => draw,
                RoundResult::Loss | RoundResult::Zero => 0.0,
            };
            for b in &mut board_points {
                *b += each;
            }
        }
    }
    TeamRecord {
        match_points: total(rounds.iter().map(|r| r.match_points)),
        game_points: total(rounds.iter().map(|r| r.game_points)),
        rounds,
        last_present,
        last_paired,
        board_points,
        games,
    }
}
