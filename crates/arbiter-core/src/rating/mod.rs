//! Ratings: a league's or an event's rated games replayed period by period under one system
//! (GT-R1..GT-R5, GT-R7; FIDE Handbook B.02; US Chess; Glicko-2).
//!
//! [`replay`] is the engine: players by index, games grouped into periods, every game of a
//! period rated from the ratings before it, and every change kept, so a rating list, a player's
//! history and "the rating on this date" all read from one [`Replay`]; [`rollover`] starts the
//! next season (GT-R1, GT-R2); [`rated_games`] says which games of a competition are rated and
//! why the others are not. `docs/ratings.md` gives each formula and why.

pub mod list;
pub mod rated_games;

mod elo;
pub mod rollover;

use std::ops::Range;

use jiff::civil::Date;

pub use crate::rules::sections::{LeagueElo, PeriodLength, System};
pub use elo::{fide_expected_percent, fide_k};

/// A player as the rating list knows them before the first period replayed.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Entrant {
    /// The rating before the first period; `None` for an unrated player.
    pub rating: Option<u32>,
    /// GT-R3: the rating is provisional (`1200N`).
    pub provisional: bool,
    /// Rated games played before the first period (FIDE's K, US Chess's N).
    pub rated_games: Option<u32>,
    /// For FIDE's K of 40 under 18, and US Chess's starting rating by age.
    pub birth_date: Option<Date>,
    /// An explicit K that overrides the system's (FIDE: the federation's record says so).
    pub k: Option<u32>,
    /// Glicko-2's rating deviation carried from earlier periods (350 for a new player).
    pub deviation: Option<f64>,
    /// Glicko-2's volatility carried from earlier periods (0.06 for a new player).
    pub volatility: Option<f64>,
}

/// A game's result for the home (first-named) player.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Score {
    /// The home player won.
    Win,
    /// Drawn.
    Draw,
    /// The home player lost.
    Loss,
}

impl Score {
    /// The home player's points.
    pub fn points(self) -> f64 {
        match self {
            Score::Win => 1.0,
            Score::Draw => 0.5,
            Score::Loss => 0.0,
        }
    }

    /// The same result seen by the away player.
    pub fn reversed(self) -> Score {
        match self {
            Score::Win => Score::Loss,
            Score::Draw => Score::Draw,
            Score::Loss => Score::Win,
        }
    }
}

/// One rated game: players by their index in the entrants.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Game {
    /// The home (first-named) player.
    pub home: u32,
    /// The away player.
    pub away: u32,
    /// The result for the home player.
    pub home_score: Score,
}

/// One rating period: every game in it is rated from the ratings before it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Period {
    /// The match day, when known; `Replay::as_of` reads it.
    pub date: Option<Date>,
    /// The games, in the order the caller keeps their sources.
    pub games: Vec<Game>,
}

/// A player's rating at one moment.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Standing {
    /// The rating: a whole number for the league's Elo and FIDE, unrounded for US Chess and
    /// Glicko-2 (whose published figure is this rounded).
    pub rating: f64,
    /// Whether the player has a rating at all (a FIDE-unrated player has not).
    pub rated: bool,
    /// GT-R3 (league), or US Chess's 25 games or fewer.
    pub provisional: bool,
    /// Rated games played, those before the first period included.
    pub games: u32,
    /// Glicko-2's rating deviation RD.
    pub deviation: f64,
    /// Glicko-2's volatility σ.
    pub volatility: f64,
}

impl Standing {
    /// The published figure: the whole number people see.
    pub fn published(&self) -> i64 {
        // Ratings are far inside i64's range; the cast only drops the (zero) fraction.
        self.rating.round() as i64
    }
}

/// What one period did to one player's rating.
#[derive(Debug, Clone, PartialEq)]
pub struct PeriodChange {
    /// The player's index in the entrants.
    pub player: u32,
    /// The period's index in the replayed periods.
    pub period: u32,
    /// Before the period.
    pub before: Standing,
    /// After it.
    pub after: Standing,
    /// The change before rounding (FIDE's ΔR = K·Σ(W − We)).
    pub change: f64,
    /// The K used, for the Elo systems.
    pub k: Option<f64>,
    /// This period's games in [`Replay::games`].
    pub games: Range<usize>,
}

/// One game as it counted for one player.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GameChange {
    /// The game's index in its period's `games`.
    pub game: u32,
    /// The opponent's index in the entrants.
    pub opponent: u32,
    /// The opponent's rating before the period.
    pub opponent_rating: f64,
    /// The player's points.
    pub score: f64,
    /// The player's expected score against this opponent.
    pub expected: f64,
    /// This game's share of the change, for the Elo systems (K·(W − We)).
    pub change: Option<f64>,
}

/// A game the system could not rate, though the competition counts it rated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Unrateable {
    /// The period's index.
    pub period: u32,
    /// The game's index in the period.
    pub game: u32,
    /// The player without a rating.
    pub unrated: u32,
}

/// Every player's history through the replayed periods.
#[derive(Debug, Clone, PartialEq)]
pub struct Replay {
    /// The system that rated them.
    pub system: System,
    /// Each entrant's standing before the first period, by entrant index.
    pub starts: Vec<Standing>,
    /// Every player's change in every period they played, period by period, players in index
    /// order within a period.
    pub changes: Vec<PeriodChange>,
    /// The games as each player saw them, grouped per player and period.
    pub games: Vec<GameChange>,
    /// The date of each period, by index.
    pub dates: Vec<Option<Date>>,
    /// FIDE: games with an unrated player, which B.02 leaves to FIDE's initial rating.
    pub unrateable: Vec<Unrateable>,
    /// `changes` by player: player `p`'s are `by_player[first[p]..first[p + 1]]`.
    by_player: Vec<u32>,
    first: Vec<u32>,
}

/// What the whole replay did to one player: the row of a rating list.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Summary {
    /// Before the first period.
    pub before: Standing,
    /// After the last.
    pub after: Standing,
    /// Rated games in the replay.
    pub games: u32,
    /// Points scored in them.
    pub score: f64,
    /// Points expected in them.
    pub expected: f64,
    /// The sum of each period's unrounded change.
    pub change: f64,
    /// The K of the last period, for the Elo systems.
    pub k: Option<f64>,
}

impl Replay {
    /// The player's changes, period by period.
    pub fn periods_of(&self, player: usize) -> impl Iterator<Item = &PeriodChange> + '_ {
        let range = match (self.first.get(player), self.first.get(player + 1)) {
            (Some(&a), Some(&b)) => a as usize..b as usize,
            _ => 0..0,
        };
        self.by_player[range]
            .iter()
            .map(|&c| &self.changes[c as usize])
    }

    /// The games of one period's change, as the player saw them.
    pub fn games_of(&self, change: &PeriodChange) -> &[GameChange] {
        &self.games[change.games.clone()]
    }

    /// The rating before the first period.
    pub fn start(&self, player: usize) -> Option<Standing> {
        self.starts.get(player).copied()
    }

    /// The rating after the last period.
    pub fn current(&self, player: usize) -> Option<Standing> {
        let start = self.start(player)?;
        Some(self.periods_of(player).last().map_or(start, |c| c.after))
    }

    /// The rating in force on `date`: after every period dated before it. Undated periods count
    /// as before every date.
    pub fn as_of(&self, player: usize, date: Date) -> Option<Standing> {
        let mut standing = self.start(player)?;
        for change in self.periods_of(player) {
            match self.dates.get(change.period as usize).copied().flatten() {
                Some(d) if d >= date => break,
                _ => standing = change.after,
            }
        }
        Some(standing)
    }

    /// The whole replay for one player.
    pub fn summary(&self, player: usize) -> Option<Summary> {
        let before = self.start(player)?;
        let (mut games, mut score, mut expected, mut change) = (0, 0.0, 0.0, 0.0);
        let (mut after, mut k) = (before, None);
        for c in self.periods_of(player) {
            for g in self.games_of(c) {
                games += 1;
                score += g.score;
                expected += g.expected;
            }
            change += c.change;
            after = c.after;
            k = c.k;
        }
        Some(Summary {
            before,
            after,
            games,
            score,
            expected,
            change,
            k,
        })
    }

    /// Indexes `changes` by player (a counting sort: changes are already in period order).
    fn index_by_player(&mut self) {
        let players = self.starts.len();
        let mut first = vec![0u32; players + 1];
        for c in &self.changes {
            first[c.player as usize + 1] += 1;
        }
        for p in 0..players {
            first[p + 1] += first[p];
        }
        let mut at = first.clone();
        let mut by_player = vec![0u32; self.changes.len()];
        for (i, c) in self.changes.iter().enumerate() {
            let slot = &mut at[c.player as usize];
            by_player[*slot as usize] = u32::try_from(i).unwrap_or(u32::MAX);
            *slot += 1;
        }
        self.first = first;
        self.by_player = by_player;
    }
}

/// Why a replay could not start: the games name a player who is not there.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RatingError {
    /// A game names an entrant index past the list.
    #[error("period {period}, game {game}: no player number {player} (there are {players})")]
    NoSuchPlayer {
        /// The period's index.
        period: usize,
        /// The game's index in it.
        game: usize,
        /// The index named.
        player: u32,
        /// How many entrants there are.
        players: usize,
    },
    /// A game pairs a player with themselves.
    #[error("period {period}, game {game}: player number {player} cannot play themselves")]
    SelfPaired {
        /// The period's index.
        period: usize,
        /// The game's index in it.
        game: usize,
        /// The player.
        player: u32,
    },
}

/// The starting standing of an entrant under a system.
fn start(system: &System, entrant: &Entrant, first_date: Option<Date>) -> Standing {
    let games = entrant.rated_games.unwrap_or(0);
    let mut standing = Standing {
        rating: entrant.rating.map_or(0.0, f64::from),
        rated: entrant.rating.is_some(),
        provisional: entrant.provisional,
        games,
        deviation: 0.0,
        volatility: 0.0,
    };
    match system {
        System::League(league) => {
            if entrant.rating.is_none() {
                // GT-R3: an unrated player is 1200N.
                standing.rating = f64::from(league.start);
                standing.rated = true;
                standing.provisional = true;
            }
        }
        System::Fide => standing.provisional = false,
        System::Uscf => {
            if entrant.rating.is_none() {
                let age = match (entrant.birth_date, first_date) {
                    (Some(born), Some(on)) => years_between(born, on),
                    _ => 26,
                };
                standing.rating = skillratings::uscf::USCFRating::new(age as usize).rating;
                standing.rated = true;
            }
            standing.provisional = games <= 25;
        }
        System::Glicko2 { .. } => {
            let fresh = skillratings::glicko2::Glicko2Rating::new();
            if entrant.rating.is_none() {
                standing.rating = fresh.rating;
                standing.rated = true;
            }
            standing.deviation = entrant.deviation.unwrap_or(fresh.deviation);
            standing.volatility = entrant.volatility.unwrap_or(fresh.volatility);
            standing.provisional = false;
        }
    }
    standing
}

/// Whole years from `born` to `on` (an age on a date).
pub(crate) fn years_between(born: Date, on: Date) -> u32 {
    let mut years = i32::from(on.year()) - i32::from(born.year());
    if (on.month(), on.day()) < (born.month(), born.day()) {
        years -= 1;
    }
    u32::try_from(years).unwrap_or(0)
}

/// One of a player's games in a period, against a rating fixed before it.
struct Seat {
    opponent: u32,
    score: f64,
    game: u32,
}

/// Replays the periods in order under `system`: in each, every game is rated from the standings
/// before the period, and every change is kept.
pub fn replay(
    system: &System,
    entrants: &[Entrant],
    periods: &[Period],
) -> Result<Replay, RatingError> {
    check_games(entrants.len(), periods)?;
    let first_date = periods.iter().find_map(|p| p.date);
    let mut now: Vec<Standing> = entrants
        .iter()
        .map(|e| start(system, e, first_date))
        .collect();
    // The ratings alone, packed: the opponents' lookups are random, and 8 bytes a player keep
    // a large field in cache.
    let mut ratings: Vec<f64> = now.iter().map(|s| s.rating).collect();
    let games: usize = periods.iter().map(|p| p.games.len()).sum();
    let mut replay = Replay {
        system: *system,
        starts: now.clone(),
        changes: Vec::with_capacity(games * 2),
        games: Vec::with_capacity(games * 2),
        dates: periods.iter().map(|p| p.date).collect(),
        unrateable: Vec::new(),
        by_player: Vec::new(),
        first: Vec::new(),
    };
    // Scratch reused across periods: each touched player's games, grouped by a counting sort.
    let mut count = vec![0u32; entrants.len()];
    let mut offset = vec![0u32; entrants.len()];
    let mut touched: Vec<u32> = Vec::new();
    let mut sides: Vec<Seat> = Vec::new();
    for (index, period) in periods.iter().enumerate() {
        let period_no = u32::try_from(index).unwrap_or(u32::MAX);
        touched.clear();
        for (g, game) in period.games.iter().enumerate() {
            if let Some(unrated) = unrateable(system, &now, game) {
                replay.unrateable.push(Unrateable {
                    period: period_no,
                    game: u32::try_from(g).unwrap_or(u32::MAX),
                    unrated,
                });
                continue;
            }
            for p in [game.home, game.away] {
                if count[p as usize] == 0 {
                    touched.push(p);
                }
                count[p as usize] += 1;
            }
        }
        touched.sort_unstable();
        let mut next = 0u32;
        for &p in &touched {
            offset[p as usize] = next;
            next += count[p as usize];
        }
        sides.clear();
        sides.resize_with(next as usize, || Seat {
            opponent: 0,
            score: 0.0,
            game: 0,
        });
        for (g, game) in period.games.iter().enumerate() {
            if unrateable(system, &now, game).is_some() {
                continue;
            }
            let g = u32::try_from(g).unwrap_or(u32::MAX);
            for (me, opponent, score) in [
                (game.home, game.away, game.home_score),
                (game.away, game.home, game.home_score.reversed()),
            ] {
                let at = &mut offset[me as usize];
                sides[*at as usize] = Seat {
                    opponent,
                    score: score.points(),
                    game: g,
                };
                *at += 1;
            }
        }
        // Every change of the period is computed from `now` before any is applied.
        let first_change = replay.changes.len();
        for &p in &touched {
            let n = count[p as usize];
            let end = offset[p as usize] as usize;
            let mine = &sides[end - n as usize..end];
            let first = replay.games.len();
            let (after, change, k) = rate_period(
                system,
                &now,
                &ratings,
                &entrants[p as usize],
                p,
                mine,
                period.date,
                &mut replay.games,
            );
            replay.changes.push(PeriodChange {
                player: p,
                period: period_no,
                before: now[p as usize],
                after,
                change,
                k,
                games: first..replay.games.len(),
            });
        }
        for c in &replay.changes[first_change..] {
            now[c.player as usize] = c.after;
            ratings[c.player as usize] = c.after.rating;
            count[c.player as usize] = 0;
        }
        if let System::Glicko2 { .. } = system {
            // Glicko-2: a rated player who sat the period out grows less certain (step 6).
            for (p, standing) in now.iter_mut().enumerate() {
                if standing.rated && touched.binary_search(&(p as u32)).is_err() {
                    let decayed = skillratings::glicko2::decay_deviation(&glicko2(standing));
                    standing.deviation = decayed.deviation;
                }
            }
        }
    }
    replay.index_by_player();
    Ok(replay)
}

fn check_games(players: usize, periods: &[Period]) -> Result<(), RatingError> {
    for (period, p) in periods.iter().enumerate() {
        for (game, g) in p.games.iter().enumerate() {
            for player in [g.home, g.away] {
                if player as usize >= players {
                    return Err(RatingError::NoSuchPlayer {
                        period,
                        game,
                        player,
                        players,
                    });
                }
            }
            if g.home == g.away {
                return Err(RatingError::SelfPaired {
                    period,
                    game,
                    player: g.home,
                });
            }
        }
    }
    Ok(())
}

/// The player a system cannot rate a game with: FIDE rates only games between rated players.
fn unrateable(system: &System, now: &[Standing], game: &Game) -> Option<u32> {
    [game.home, game.away]
        .into_iter()
        .find(|&p| !now[p as usize].rated)
        .filter(|_| matches!(system, System::Fide))
}

fn glicko2(s: &Standing) -> skillratings::glicko2::Glicko2Rating {
    skillratings::glicko2::Glicko2Rating {
        rating: s.rating,
        deviation: s.deviation,
        volatility: s.volatility,
    }
}

fn outcome(score: f64) -> skillratings::Outcomes {
    if score > 0.5 {
        skillratings::Outcomes::WIN
    } else if score < 0.5 {
        skillratings::Outcomes::LOSS
    } else {
        skillratings::Outcomes::DRAW
    }
}

/// One player's period: the standing after it, the unrounded change and the K, with each game
/// pushed to `out`.
#[allow(clippy::too_many_arguments)]
fn rate_period(
    system: &System,
    now: &[Standing],
    ratings: &[f64],
    entrant: &Entrant,
    player: u32,
    sides: &[Seat],
    date: Option<Date>,
    out: &mut Vec<GameChange>,
) -> (Standing, f64, Option<f64>) {
    let me = now[player as usize];
    let played = u32::try_from(sides.len()).unwrap_or(u32::MAX);
    let mut after = me;
    after.games = me.games + played;
    match system {
        System::League(league) => {
            let k = if me.provisional {
                league.provisional_k
            } else {
                league.k
            };
            let mut change = 0.0;
            for side in sides {
                let opponent = ratings[side.opponent as usize];
                let expected = elo::league_expected(me.rating, opponent);
                let share = k * (side.score - expected);
                change += share;
                out.push(game_change(side, opponent, expected, Some(share)));
            }
            after.rating = (me.rating + change).round().max(f64::from(league.floor));
            after.provisional = me.provisional && after.games < league.provisional_games;
            (after, change, Some(k))
        }
        System::Fide => {
            let k = f64::from(fide_k(entrant, &me, played, date));
            let mut hundredths = 0i64;
            for side in sides {
                let opponent = ratings[side.opponent as usize];
                let percent = fide_expected_percent(me.rating, opponent);
                // Points in hundredths, so Σ(W − We) is exact.
                let won = (side.score * 100.0).round() as i64;
                hundredths += won - i64::from(percent);
                let expected = f64::from(percent) / 100.0;
                let share = k * (side.score - expected);
                out.push(game_change(side, opponent, expected, Some(share)));
            }
            let change = k * hundredths as f64 / 100.0;
            after.rating = (me.rating + change).round();
            (after, change, Some(k))
        }
        System::Uscf => {
            let rating = |s: &Standing| skillratings::uscf::USCFRating {
                rating: s.rating,
                games: s.games as usize,
            };
            let results: Vec<_> = sides
                .iter()
                .map(|s| (rating(&now[s.opponent as usize]), outcome(s.score)))
                .collect();
            for (side, (opponent, _)) in sides.iter().zip(&results) {
                let (expected, _) = skillratings::uscf::expected_score(&rating(&me), opponent);
                out.push(game_change(side, opponent.rating, expected, None));
            }
            let new = skillratings::uscf::uscf_rating_period(
                &rating(&me),
                &results,
                &skillratings::uscf::USCFConfig::new(),
            );
            after.rating = new.rating;
            after.provisional = after.games <= 25;
            (after, new.rating - me.rating, None)
        }
        System::Glicko2 { tau } => {
            let results: Vec<_> = sides
                .iter()
                .map(|s| (glicko2(&now[s.opponent as usize]), outcome(s.score)))
                .collect();
            for (side, (opponent, _)) in sides.iter().zip(&results) {
                let (expected, _) = skillratings::glicko2::expected_score(&glicko2(&me), opponent);
                out.push(game_change(side, opponent.rating, expected, None));
            }
            let config = skillratings::glicko2::Glicko2Config {
                tau: *tau,
                ..skillratings::glicko2::Glicko2Config::new()
            };
            let new =
                skillratings::glicko2::glicko2_rating_period(&glicko2(&me), &results, &config);
            after.rating = new.rating;
            after.deviation = new.deviation;
            after.volatility = new.volatility;
            (after, new.rating - me.rating, None)
        }
    }
}

fn game_change(
    side: &Seat,
    opponent_rating: f64,
    expected: f64,
    change: Option<f64>,
) -> GameChange {
    GameChange {
        game: side.game,
        opponent: side.opponent,
        opponent_rating,
        score: side.score,
        expected,
        change,
    }
}

#[cfg(test)]
mod tests;
