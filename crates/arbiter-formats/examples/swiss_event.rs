//! Writes `swiss::sample::event` as TRF-2026, for FIDE's checker to pair beside Arbiter
//! (`docs/benchmarks.md`): `cargo run --release -p arbiter-formats --example swiss_event -- 500 10 > e.trf`.
#![allow(clippy::unwrap_used, clippy::expect_used)] // an example: a failure is a panic

use std::io::Write as _;

use arbiter_core::pairing::swiss;
use arbiter_formats::trf;

fn main() {
    let args: Vec<u32> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("numbers: teams, rounds played"))
        .collect();
    let (teams, played) = (
        args.first().copied().unwrap_or(500),
        args.get(1).copied().unwrap_or(10),
    );
    let (competition, rules) =
        swiss::sample::event(teams as usize, 4, played + 1, played, 17).unwrap();
    let doc = trf::from_competition(&competition, &rules, &[]);
    std::io::stdout().write_all(&trf::write(&doc)).unwrap();
}
