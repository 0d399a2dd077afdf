//! C.04.6 (issue 17): round 11 of a 500-team, 4-board team Swiss paired after 10 rounds played
//! on this engine's own pairings (`swiss::sample::event`). Target: under 100 ms.

use std::hint::black_box;

use arbiter_core::pairing::swiss::{self, Request};
use criterion::{Criterion, criterion_group, criterion_main};

fn pairing(c: &mut Criterion) {
    let (competition, rules) =
        swiss::sample::event(500, 4, 11, 10, 17).unwrap_or_else(|e| panic!("{e}"));
    let request = Request {
        round: 11,
        absent: Some(Vec::new()),
        seed: 17,
    };
    c.bench_function("swiss: pair round 11 of 500 teams", |b| {
        b.iter(|| swiss::pair(black_box(&competition), &rules, &request))
    });
}

criterion_group!(benches, pairing);
criterion_main!(benches);
