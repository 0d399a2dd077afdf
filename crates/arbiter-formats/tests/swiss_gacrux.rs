//! Differential test of the C.04.6 pairing against FIDE's reference implementation (`gacrux`,
//! `pairingchecker.py`): `tools/gen_swiss_pairings.py` plays team Swiss events (7 to 60 teams,
//! 5 to 11 rounds, forfeits, byes, withdrawals, late entries, prohibited pairings, type A, type B
//! and no colour preferences; half of them in TRF-16's layout, issue 31) whose every round the
//! checker paired; Arbiter's pairing of each round from the rounds before it must equal it, pair
//! by pair and colour by colour.
//!
//! Needs a Python with gacrux in `ARBITER_GACRUX_PYTHON` (`.ci/gacrux.sh` makes one); skips with
//! a note without it, and fails instead when `CI=true`. `ARBITER_SWISS_COUNT` and
//! `ARBITER_SWISS_SEED` change the events (40, seed 1); the ignored test runs 500 more
//! (`ARBITER_SWISS_COUNT` too). `ARBITER_SWISS_DIR` checks the events already in a folder.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a test: a failure is a panic

use std::path::{Path, PathBuf};
use std::process::Command;

use arbiter_core::pairing::swiss;
use arbiter_formats::trf;

fn python() -> Option<PathBuf> {
    match std::env::var_os("ARBITER_GACRUX_PYTHON") {
        Some(p) => Some(PathBuf::from(p)),
        None if std::env::var("CI").as_deref() == Ok("true") => {
            panic!("CI=true but ARBITER_GACRUX_PYTHON is not set: run .ci/gacrux.sh first")
        }
        None => {
            eprintln!(
                "skipped: set ARBITER_GACRUX_PYTHON to a Python with gacrux (python3 -m venv target/gacrux-venv && target/gacrux-venv/bin/pip install gacrux)"
            );
            None
        }
    }
}

fn env_u32(name: &str, default: u32) -> u32 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

type Has = fn(&str) -> bool;

/// The unplayed rounds the events must hold between them, or the test proves less than it says
/// (issue 31): each with how a file shows it.
const FEATURES: [(&str, Has); 8] = [
    ("a board forfeited between two named players", |t| {
        blocks(t).any(|b| b[..4].trim() != "0000" && matches!(&b[7..], "+" | "-"))
    }),
    ("a board won by forfeit against an empty board", |t| {
        blocks(t).any(|b| b == "0000 - +")
    }),
    (
        "a match won by forfeit against no team named (+ blocks only)",
        |t| !t.contains("\n330 ") && !t.contains("\n300 ") && blocks(t).any(|b| b == "0000 - +"),
    ),
    ("a match forfeited (330)", |t| {
        t.lines().any(|l| l.starts_with("330 "))
    }),
    ("a double forfeit (330 --)", |t| {
        t.lines().any(|l| l.starts_with("330 --"))
    }),
    ("a requested bye (240)", |t| {
        t.lines().any(|l| l.starts_with("240 "))
    }),
    ("a half-point bye only as H blocks", |t| {
        !t.contains("\n240 ") && blocks(t).any(|b| b == "0000 - H")
    }),
    ("a pairing-allocated bye only as U blocks", |t| {
        !t.contains("\n320 ") && blocks(t).any(|b| b == "0000 - U")
    }),
];

/// The round blocks of a file's 001 lines (TRF-16: 10 columns from column 92).
fn blocks(text: &str) -> impl Iterator<Item = &str> {
    text.lines()
        .filter(|l| l.starts_with("001"))
        .flat_map(|l| l.get(91..).unwrap_or("").as_bytes().chunks(10))
        .filter_map(|c| std::str::from_utf8(c).ok())
        .map(|c| c.trim_end())
        .filter(|c| c.len() == 8)
}

/// Generates `count` events from `seed` and checks every round; the counts of events and rounds.
fn differential(python: &Path, count: u32, seed: u32) -> (usize, usize) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    // ARBITER_SWISS_DIR: check the events a generator run already wrote there, and keep them.
    let kept = std::env::var_os("ARBITER_SWISS_DIR").map(PathBuf::from);
    let out = kept.clone().unwrap_or_else(|| {
        std::env::temp_dir().join(format!("arbiter-swiss-{}-{seed}", std::process::id()))
    });
    if kept.is_none() {
        let _ = std::fs::remove_dir_all(&out);
        let status = Command::new(python)
            .arg(root.join("tools/gen_swiss_pairings.py"))
            .args(["--count", &count.to_string(), "--seed", &seed.to_string()])
            .arg("--out")
            .arg(&out)
            .stdout(std::process::Stdio::null())
            .status()
            .unwrap();
        assert!(status.success(), "the generator failed: {status}");
    }
    let mut files: Vec<PathBuf> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "trf"))
        .collect();
    files.sort();
    assert!(
        kept.as_ref()
            .map_or(files.len() * 10 >= count as usize * 9, |_| !files
                .is_empty()),
        "only {} events of {count} were generated",
        files.len()
    );
    let (mut rounds, mut failures) = (0, Vec::new());
    let mut seen = [0usize; FEATURES.len()];
    for path in &files {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let bytes = std::fs::read(path).unwrap();
        let text = String::from_utf8_lossy(&bytes);
        for (n, (_, has)) in seen.iter_mut().zip(FEATURES) {
            *n += usize::from(has(&text));
        }
        let doc = trf::read(&name, &bytes).unwrap();
        let import = trf::to_competition(&doc).unwrap();
        let checks = swiss::check(&import.competition, &import.rules, 0);
        assert!(!checks.is_empty(), "{name}: no round to check");
        for c in checks {
            rounds += 1;
            if let Some(d) = c.difference {
                failures.push(format!("{name} round {}: {d}", c.round));
            }
        }
    }
    if files.len() >= 20 {
        let missing: Vec<&str> = FEATURES
            .iter()
            .zip(seen)
            .filter(|(_, n)| *n == 0)
            .map(|((what, _), _)| *what)
            .collect();
        assert!(missing.is_empty(), "no event has {missing:?}");
    }
    assert!(
        failures.is_empty(),
        "{} of {rounds} rounds differ from FIDE's checker (files kept in {}):\n{}",
        failures.len(),
        out.display(),
        failures.join("\n")
    );
    if kept.is_none() {
        let _ = std::fs::remove_dir_all(&out);
    }
    (files.len(), rounds)
}

#[test]
fn c046_every_round_of_generated_events_pairs_as_fides_checker_pairs_it() {
    let Some(python) = python() else { return };
    let (events, rounds) = differential(
        &python,
        env_u32("ARBITER_SWISS_COUNT", 40),
        env_u32("ARBITER_SWISS_SEED", 1),
    );
    eprintln!("{events} events, {rounds} rounds: every round as FIDE's checker pairs it");
}

/// The longer run of `docs/benchmarks.md`: `cargo test -p arbiter-formats --test swiss_gacrux
/// -- --ignored`.
#[test]
#[ignore = "about fifteen minutes; run by hand"]
fn c046_five_hundred_more_events_pair_as_fides_checker_pairs_them() {
    let Some(python) = python() else { return };
    let (events, rounds) = differential(&python, env_u32("ARBITER_SWISS_COUNT", 500), 2);
    eprintln!("{events} events, {rounds} rounds: every round as FIDE's checker pairs it");
}
