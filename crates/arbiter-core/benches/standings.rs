//! Standings under the `astc` preset (AS-14..AS-18): a large generated field with many ties, and
//! an 8-team Berger round robin (AS-19). Targets: under 20 ms and under 20 µs on one core.

use std::hint::black_box;

use arbiter_core::pairing::schedule::{Cycles, apply_to, round_robin};
use arbiter_core::record::model::*;
use arbiter_core::rules::ruleset::Ruleset;
use arbiter_core::scoring::standings::standings;
use arbiter_core::scoring::would_drop;
use criterion::{Criterion, criterion_group, criterion_main};

/// xorshift64: deterministic, no dependency.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    fn below(&mut self, n: usize) -> usize {
        usize::try_from(self.next() % u64::try_from(n).unwrap_or(1)).unwrap_or(0)
    }

    /// Draw-heavy results, so game and match points tie often and the head-to-head criteria run
    /// on large groups.
    fn result(&mut self) -> GameResult {
        match self.below(20) {
            0..=6 => GameResult::HomeWin,
            7..=12 => GameResult::Draw,
            13..=18 => GameResult::AwayWin,
            _ => GameResult::HomeWinByForfeit,
        }
    }

    fn boards(&mut self, boards: u32) -> MatchOutcome {
        MatchOutcome::Boards((0..boards).map(|_| Board::new(self.result())).collect())
    }
}

fn teams(n: usize) -> Vec<Team> {
    (1..=n)
        .map(|i| Team {
            id: TeamId(format!("t{i:04}")),
            name: format!("Team {i}"),
            school: None,
            players: Vec::new(),
        })
        .collect()
}

/// `n` teams (even), `rounds` rounds, each round a fresh random pairing (teams may meet again,
/// as in a badly paired Swiss), every board played.
fn generated(n: usize, rounds: u32, boards: u32, seed: u64) -> Competition {
    let mut rng = XorShift(seed);
    let teams = teams(n);
    let mut order: Vec<usize> = (0..n).collect();
    let rounds = (1..=rounds)
        .map(|number| {
            for i in (1..n).rev() {
                order.swap(i, rng.below(i + 1));
            }
            let pairings = order
                .chunks_exact(2)
                .map(|p| {
                    Pairing::Match(Match {
                        date: None,
                        home: teams[p[0]].id.clone(),
                        away: teams[p[1]].id.clone(),
                        outcome: rng.boards(boards),
                        start: None,
                        extra_games: Vec::new(),
                        late: None,
                    })
                })
                .collect();
            Round {
                number,
                date: None,
                pairings,
            }
        })
        .collect();
    Competition {
        name: format!("generated {n} teams"),
        teams,
        rounds,
    }
}

/// The 8-team Berger table with random results.
fn round_robin_8(boards: u32, seed: u64) -> Option<Competition> {
    let mut rng = XorShift(seed);
    let teams = teams(8);
    let ids: Vec<TeamId> = teams.iter().map(|t| t.id.clone()).collect();
    let schedule = round_robin(8, Cycles::Single).ok()?;
    let mut rounds = apply_to(&schedule, &ids).ok()?;
    for p in rounds.iter_mut().flat_map(|r| r.pairings.iter_mut()) {
        if let Pairing::Match(m) = p {
            m.outcome = rng.boards(boards);
        }
    }
    Some(Competition {
        name: "ASTC round robin of 8".into(),
        teams,
        rounds,
    })
}

/// How tied the field is, so the figures can be read: teams level on game points, and places
/// still shared after every criterion.
fn describe(label: &str, competition: &Competition, rules: &Ruleset) {
    let Ok(s) = standings(competition, rules) else {
        return;
    };
    let shared = s.rows.iter().filter(|r| r.place.contains('-')).count();
    let mut gp: Vec<String> = s.rows.iter().map(|r| r.values[0].display()).collect();
    gp.dedup();
    eprintln!(
        "{label}: {} teams, {} distinct game-point totals, {shared} teams in shared places",
        s.rows.len(),
        gp.len()
    );
}

fn bench(c: &mut Criterion) {
    let Some(rules) = Ruleset::preset("astc") else {
        eprintln!("the astc preset is missing");
        return;
    };
    let large = generated(2000, 11, rules.boards, 0x9E37_79B9_7F4A_7C15);
    describe("2000 teams", &large, &rules);
    let mut group = c.benchmark_group("standings");
    group.bench_function("astc 2000 teams x 11 rounds", |b| {
        b.iter(|| standings(black_box(&large), black_box(&rules)))
    });
    if let Some(small) = round_robin_8(rules.boards, 0x2545_F491_4F6C_DD1D) {
        describe("round robin of 8", &small, &rules);
        group.bench_function("astc round robin of 8", |b| {
            b.iter(|| standings(black_box(&small), black_box(&rules)))
        });
    }
    // GT-M5: the warning the match page computes before an officer's forfeit (issue 31): a
    // GTHSCL division of 16 in a double round robin, half played, asked of a match to come.
    if let (Some(gthscl), Some(division)) = (
        Ruleset::preset("gthscl"),
        half_played(16, 0x5DEE_CE66_D1CE_4E5B),
    ) && let Some(Pairing::Match(m)) = division.rounds.last().and_then(|r| r.pairings.first())
    {
        let (round, m) = (
            u32::try_from(division.rounds.len()).unwrap_or(u32::MAX),
            m.clone(),
        );
        group.bench_function("gthscl would_drop, 16 teams x 30 rounds", |b| {
            b.iter(|| {
                would_drop(
                    black_box(&division),
                    black_box(&gthscl),
                    round,
                    &m,
                    &MatchOutcome::Forfeit { by: Side::Home },
                )
            })
        });
    }
    group.finish();
}

/// `n` teams in a double round robin, the first half of its rounds played.
fn half_played(n: u32, seed: u64) -> Option<Competition> {
    let mut rng = XorShift(seed);
    let teams = teams(usize::try_from(n).ok()?);
    let ids: Vec<TeamId> = teams.iter().map(|t| t.id.clone()).collect();
    let schedule = round_robin(n, Cycles::Double).ok()?;
    let mut rounds = apply_to(&schedule, &ids).ok()?;
    let half = rounds.len() / 2;
    for p in rounds[..half]
        .iter_mut()
        .flat_map(|r| r.pairings.iter_mut())
    {
        if let Pairing::Match(m) = p {
            m.outcome = rng.boards(4);
        }
    }
    Some(Competition {
        name: "GTHSCL division of 16".into(),
        teams,
        rounds,
    })
}

criterion_group!(benches, bench);
criterion_main!(benches);
