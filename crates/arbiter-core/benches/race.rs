//! The race (issue 36): divisions of 8, 12 and 16 teams under GTHSCL's criteria (GT-S5) and
//! ASTC's (AS-14..AS-17), at every round of a single and a double round robin, results drawn
//! with a fixed seed and many ties (two boards in five drawn), as a page draw computes it
//! (`DEFAULT_BUDGET`, or `RACE_BUDGET` when set). For each size: the time of a draw (median,
//! p99, most), the share of teams whose labels (first place, a playoff place) are all told, and
//! the share whose best and worst places are both exact.
//!
//! A plain timer, not criterion: the figure is the tail over many divisions, not one
//! division's mean. One thread, so one core. Run with `cargo bench -p arbiter-core --bench
//! race`; the figures are in docs/benchmarks.md.

use std::hint::black_box;
use std::time::{Duration, Instant};

use arbiter_core::pairing::schedule::{Cycles, apply_to, round_robin};
use arbiter_core::record::model::*;
use arbiter_core::rules::ruleset::Ruleset;
use arbiter_core::season_end::race::{Chance, DEFAULT_BUDGET, TeamRace, race};

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

    /// Two boards in five drawn, the rest won by either side.
    fn result(&mut self) -> GameResult {
        match self.next() % 5 {
            0 | 1 => GameResult::Draw,
            2 | 3 => GameResult::HomeWin,
            _ => GameResult::AwayWin,
        }
    }
}

/// `teams` teams, the Berger tables once or twice round, the first `played` rounds played.
fn division(teams: u32, cycles: Cycles, played: usize, seed: u64) -> Option<Competition> {
    let mut rng = XorShift(seed);
    let list: Vec<Team> = (1..=teams)
        .map(|i| Team {
            id: TeamId(format!("t{i}")),
            name: format!("Team {i}"),
            school: None,
            players: Vec::new(),
        })
        .collect();
    let ids: Vec<TeamId> = list.iter().map(|t| t.id.clone()).collect();
    let mut rounds = apply_to(&round_robin(teams, cycles).ok()?, &ids).ok()?;
    for r in rounds.iter_mut().take(played) {
        for p in &mut r.pairings {
            if let Pairing::Match(m) = p {
                m.outcome =
                    MatchOutcome::Boards((0..4).map(|_| Board::new(rng.result())).collect());
            }
        }
    }
    Some(Competition {
        name: format!("A division of {teams}"),
        teams: list,
        rounds,
    })
}

/// The `q`-quantile of sorted durations, in milliseconds.
fn quantile(sorted: &[Duration], q: f64) -> f64 {
    let i = ((sorted.len() as f64 - 1.0) * q).round() as usize;
    sorted.get(i).map_or(0.0, |d| d.as_secs_f64() * 1000.0)
}

/// Whether every label of the team is told: first place and a playoff place (GT-F3) each
/// clinched, open or out, none "not yet decided".
fn labels_decided(t: &TeamRace) -> bool {
    t.title != Chance::NotYetDecided && t.playoffs != Some(Chance::NotYetDecided)
}

fn main() {
    const SEEDS: u64 = 4;
    // `RACE_BUDGET=…` tries another budget than the pages' one.
    let budget: u64 = std::env::var("RACE_BUDGET")
        .ok()
        .and_then(|b| b.parse().ok())
        .unwrap_or(DEFAULT_BUDGET);
    println!("Budget: {budget}\n");
    println!(
        "| Ruleset | Teams | Round robin | Draws | Median ms | p99 ms | Most ms | Labels decided | Teams exact |"
    );
    println!("|---|---:|---|---:|---:|---:|---:|---:|---:|");
    for preset in ["gthscl", "astc"] {
        let Some(rules) = Ruleset::preset(preset) else {
            eprintln!("the {preset} preset is missing");
            return;
        };
        let gthscl_playoffs = Ruleset::preset("gthscl").and_then(|r| r.playoffs.clone());
        let Ok(rules) = rules.with(|r| r.playoffs = r.playoffs.take().or(gthscl_playoffs)) else {
            return;
        };
        for teams in [8u32, 12, 16] {
            for (cycles, name) in [(Cycles::Single, "single"), (Cycles::Double, "double")] {
                let rounds = match cycles {
                    Cycles::Single => teams - 1,
                    Cycles::Double => 2 * (teams - 1),
                } as usize;
                let mut times = Vec::new();
                let (mut exact, mut labelled, mut all) = (0usize, 0usize, 0usize);
                for played in 0..rounds {
                    for seed in 0..SEEDS {
                        let seed = 0x9E37_79B9_7F4A_7C15 ^ (seed << 32 | played as u64);
                        let Some(d) = division(teams, cycles, played, seed) else {
                            continue;
                        };
                        let start = Instant::now();
                        let told = race(black_box(&d), black_box(&rules), budget);
                        times.push(start.elapsed());
                        if let Ok(r) = told {
                            exact += r.teams.iter().filter(|t| t.exact).count();
                            labelled += r.teams.iter().filter(|t| labels_decided(t)).count();
                            all += r.teams.len();
                        }
                    }
                }
                times.sort();
                println!(
                    "| {preset} | {teams} | {name} | {} | {:.1} | {:.1} | {:.1} | {:.1}% | {:.1}% |",
                    times.len(),
                    quantile(&times, 0.5),
                    quantile(&times, 0.99),
                    quantile(&times, 1.0),
                    100.0 * labelled as f64 / all.max(1) as f64,
                    100.0 * exact as f64 / all.max(1) as f64
                );
            }
        }
    }
}
