//! The race (issue 15): a GTHSCL division of 8 teams with 2 rounds left (8 matches, each with
//! 9 game-point scores on 4 boards), exact under GT-S5's criteria, as the standings page would
//! draw it. Seasons are generated with a fixed seed: a draw-heavy one (close, many ties), a
//! double round robin with 12 of its 14 rounds played, and one whose every game was drawn.

use std::hint::black_box;

use arbiter_core::model::*;
use arbiter_core::race::{DEFAULT_BUDGET, race};
use arbiter_core::ruleset::Ruleset;
use arbiter_core::schedule::{Cycles, apply_to, round_robin};
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

    /// `draws` in 5 boards drawn, the rest won by either side.
    fn result(&mut self, draws: u64) -> GameResult {
        let r = self.next() % 5;
        if r < draws {
            GameResult::Draw
        } else if r.is_multiple_of(2) {
            GameResult::HomeWin
        } else {
            GameResult::AwayWin
        }
    }
}

/// 8 teams, the Berger tables once or twice round, all but the last 2 rounds played.
fn division(cycles: Cycles, draws: u64, seed: u64) -> Option<Competition> {
    let mut rng = XorShift(seed);
    let teams: Vec<Team> = (1..=8)
        .map(|i| Team {
            id: TeamId(format!("t{i}")),
            name: format!("Team {i}"),
            school: None,
            players: Vec::new(),
        })
        .collect();
    let ids: Vec<TeamId> = teams.iter().map(|t| t.id.clone()).collect();
    let mut rounds = apply_to(&round_robin(8, cycles).ok()?, &ids).ok()?;
    let played = rounds.len() - 2;
    for r in rounds.iter_mut().take(played) {
        for p in &mut r.pairings {
            if let Pairing::Match(m) = p {
                m.outcome =
                    MatchOutcome::Boards((0..4).map(|_| Board::new(rng.result(draws))).collect());
            }
        }
    }
    Some(Competition {
        name: "GTHSCL division of 8".into(),
        teams,
        rounds,
    })
}

fn bench(c: &mut Criterion) {
    let Some(rules) = Ruleset::preset("gthscl") else {
        eprintln!("the gthscl preset is missing");
        return;
    };
    let cases = [
        (
            "single round robin, 5 of 7 rounds played",
            Cycles::Single,
            2,
            0x9E37_79B9_7F4A_7C15,
        ),
        (
            "single round robin, draw-heavy",
            Cycles::Single,
            3,
            0x2545_F491_4F6C_DD1D,
        ),
        (
            "double round robin, 12 of 14 rounds played",
            Cycles::Double,
            2,
            0x1234_5678_9ABC_DEF1,
        ),
        // The worst case: every team level on everything, every order still possible.
        (
            "every game so far drawn",
            Cycles::Single,
            5,
            0x0BAD_5EED_0BAD_5EED,
        ),
    ];
    let mut group = c.benchmark_group("race");
    for (label, cycles, draws, seed) in cases {
        let Some(d) = division(cycles, draws, seed) else {
            continue;
        };
        match race(&d, &rules, DEFAULT_BUDGET) {
            Ok(r) => eprintln!(
                "{label}: {} matches left, {} evaluations; places {:?}",
                r.matches_left,
                r.evaluations,
                r.teams
                    .iter()
                    .map(|t| (t.best, t.worst))
                    .collect::<Vec<_>>()
            ),
            Err(e) => eprintln!("{label}: {e}"),
        }
        group.bench_function(format!("gthscl 8 teams, 2 rounds left: {label}"), |b| {
            b.iter(|| race(black_box(&d), black_box(&rules), DEFAULT_BUDGET))
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
