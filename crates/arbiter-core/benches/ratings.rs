//! Issue 11's target: replaying 1,000,000 rated games of 100,000 players in 50 periods in under
//! a second on one core, beside a plain loop over `skillratings`' Elo on the same games.

use std::hint::black_box;

use arbiter_core::rating::{Entrant, Game, LeagueElo, Period, Score, System, replay};
use criterion::{Criterion, criterion_group, criterion_main};
use skillratings::Outcomes;
use skillratings::elo::{EloConfig, EloRating, elo};

const PLAYERS: u32 = 100_000;
const PERIODS: usize = 50;
const GAMES_PER_PERIOD: usize = 20_000;

/// xorshift64: deterministic, no dependency.
struct XorShift(u64);

impl XorShift {
    fn below(&mut self, n: u32) -> u32 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        u32::try_from(x % u64::from(n)).unwrap_or(0)
    }
}

fn field() -> (Vec<Entrant>, Vec<Period>) {
    let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
    let entrants = (0..PLAYERS)
        .map(|_| Entrant {
            rating: Some(800 + rng.below(1600)),
            ..Entrant::default()
        })
        .collect();
    let periods = (0..PERIODS)
        .map(|_| Period {
            date: None,
            games: (0..GAMES_PER_PERIOD)
                .map(|_| {
                    let home = rng.below(PLAYERS);
                    let away = (home + 1 + rng.below(PLAYERS - 1)) % PLAYERS;
                    let home_score = [Score::Win, Score::Draw, Score::Loss][rng.below(3) as usize];
                    Game {
                        home,
                        away,
                        home_score,
                    }
                })
                .collect(),
        })
        .collect();
    (entrants, periods)
}

fn bench(c: &mut Criterion) {
    let (entrants, periods) = field();
    let mut group = c.benchmark_group("ratings 1,000,000 games, 100,000 players, 50 periods");
    group.sample_size(10);
    for system in [System::League(LeagueElo::default()), System::Fide] {
        group.bench_function(format!("arbiter replay, {}", system.code()), |b| {
            b.iter(|| replay(&system, black_box(&entrants), black_box(&periods)))
        });
    }
    group.bench_function("skillratings elo, a plain loop", |b| {
        b.iter(|| {
            let mut ratings: Vec<EloRating> = entrants
                .iter()
                .map(|e| EloRating {
                    rating: f64::from(e.rating.unwrap_or(1200)),
                })
                .collect();
            let config = EloConfig { k: 32.0 };
            for game in periods.iter().flat_map(|p| &p.games) {
                let outcome = match game.home_score {
                    Score::Win => Outcomes::WIN,
                    Score::Draw => Outcomes::DRAW,
                    Score::Loss => Outcomes::LOSS,
                };
                let (h, a) = (game.home as usize, game.away as usize);
                let (new_h, new_a) = elo(&ratings[h], &ratings[a], &outcome, &config);
                ratings[h] = new_h;
                ratings[a] = new_a;
            }
            black_box(ratings)
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
