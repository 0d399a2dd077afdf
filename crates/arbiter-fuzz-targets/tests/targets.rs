//! The fuzz targets on stable, in every `cargo test` (issue 16): each target's seeds and the
//! inputs kept in `fuzz/regressions/TARGET/` replayed, then a proptest of random bytes and of
//! random edits of the seeds. `ARBITER_FUZZ_CASES` sets the proptest's cases per target
//! (default 64; `.ci/run` and the long runs of `docs/reliability.md` give more).
#![allow(clippy::unwrap_used, clippy::expect_used)] // a test: a failure is a panic

use std::path::{Path, PathBuf};

use arbiter_fuzz_targets::TARGETS;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Where each target's seeds are: folders of the repository and the file endings to take.
fn seed_places(target: &str) -> &'static [(&'static str, &'static str)] {
    match target {
        "competition_json" => &[
            ("examples", "json"),
            ("crates/arbiter-formats/tests/data", "json"),
            ("crates/arbiter-cli/tests/data/check", "json"),
        ],
        "trf_read" => &[
            ("crates/arbiter-formats/tests/data/fide", "trf"),
            ("crates/arbiter-formats/tests/data/trf", "trf"),
            ("crates/arbiter-formats/tests/data/fuzz", "trf"),
        ],
        "roster_csv" => &[
            ("crates/arbiter-cli/tests/data/roster", "csv"),
            ("crates/arbiter-cli/tests/data/season", "csv"),
        ],
        "teams_csv" | "closures_csv" => &[("crates/arbiter-cli/tests/data/season", "csv")],
        "field_json" => &[
            ("examples", "json"),
            ("crates/arbiter-cli/tests/data/astc", "json"),
        ],
        "pgn" => &[("fuzz/seeds/pgn", "pgn")],
        "fen" => &[("fuzz/seeds/fen", "txt")],
        "ruleset_toml" => &[
            ("crates/arbiter-core/presets", "toml"),
            ("crates/arbiter-formats/tests/data/rules", "toml"),
        ],
        "result_entry" => &[("fuzz/seeds/result_entry", "txt")],
        "rating_list" => &[
            ("crates/arbiter-formats/tests/data/rating_lists", "txt"),
            ("crates/arbiter-formats/tests/data/rating_lists", "xml"),
            ("crates/arbiter-formats/tests/data/rating_lists", "csv"),
        ],
        other => panic!("the target {other} has no seeds listed here"),
    }
}

fn files(dir: &Path, ending: Option<&str>) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .filter(|p| ending.is_none_or(|x| p.extension().is_some_and(|e| e == x)))
        .filter(|p| p.file_name().is_none_or(|n| n != "README.md"))
        .collect();
    found.sort();
    found
}

fn seeds(target: &str) -> Vec<Vec<u8>> {
    let seeds: Vec<Vec<u8>> = seed_places(target)
        .iter()
        .flat_map(|(dir, ending)| files(&root().join(dir), Some(ending)))
        .map(|p| std::fs::read(p).unwrap())
        .collect();
    assert!(!seeds.is_empty(), "the target {target} has no seeds");
    seeds
}

fn cases() -> u32 {
    std::env::var("ARBITER_FUZZ_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(64)
}

/// Bytes that make the readers' known tokens when spliced in.
const TOKENS: &[&[u8]] = &[
    b"{",
    b"}",
    b"[",
    b"]",
    b"\"",
    b",",
    b":",
    b"\n",
    b"\r\n",
    b"\t",
    b"\\u0000",
    b"null",
    b"-1",
    b"0",
    b"4294967296",
    b"1e999",
    b"\xff",
    b"\xc3\xa9",
    b"=",
    b"\"\"",
    b"1-0",
    b"1/2-1/2",
    b"0-1",
    b"+/-",
    b"-/-",
    b"*",
    b"O-O",
    b"=Q",
    b"#",
    b"x",
    b"/8/",
    b"w",
    b"KQkq",
    b"2026-02-30",
    b"24:00",
    b"'",
    b"extends",
    b"[[",
    b"]]",
    b"\"gthscl\"",
];

#[derive(Debug, Clone)]
enum Edit {
    Insert(usize, Vec<u8>),
    Delete(usize, usize),
    Replace(usize, u8),
    Token(usize, usize),
    Duplicate(usize, usize),
}

fn apply(mut data: Vec<u8>, edits: &[Edit]) -> Vec<u8> {
    for e in edits {
        let at = |i: usize, len: usize| if len == 0 { 0 } else { i % (len + 1) };
        match e {
            Edit::Insert(i, bytes) => {
                let i = at(*i, data.len());
                data.splice(i..i, bytes.iter().copied());
            }
            Edit::Delete(i, n) => {
                let i = at(*i, data.len());
                let end = (i + n).min(data.len());
                data.drain(i..end);
            }
            Edit::Replace(i, b) => {
                if !data.is_empty() {
                    let i = i % data.len();
                    data[i] = *b;
                }
            }
            Edit::Token(i, t) => {
                let i = at(*i, data.len());
                let t = TOKENS[t % TOKENS.len()];
                data.splice(i..i, t.iter().copied());
            }
            Edit::Duplicate(i, n) => {
                let i = at(*i, data.len());
                let end = (i + n).min(data.len());
                let piece = data[i..end].to_vec();
                data.splice(end..end, piece);
            }
        }
    }
    data
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        (any::<usize>(), prop::collection::vec(any::<u8>(), 1..8))
            .prop_map(|(i, b)| Edit::Insert(i, b)),
        (any::<usize>(), 1usize..64).prop_map(|(i, n)| Edit::Delete(i, n)),
        (any::<usize>(), any::<u8>()).prop_map(|(i, b)| Edit::Replace(i, b)),
        (any::<usize>(), any::<usize>()).prop_map(|(i, t)| Edit::Token(i, t)),
        (any::<usize>(), 1usize..256).prop_map(|(i, n)| Edit::Duplicate(i, n)),
    ]
}

/// Random bytes, or a seed with up to 16 random edits.
fn input(seeds: Vec<Vec<u8>>) -> impl Strategy<Value = Vec<u8>> {
    let n = seeds.len();
    prop_oneof![
        1 => prop::collection::vec(any::<u8>(), 0..512),
        4 => (0..n, prop::collection::vec(edit(), 0..16))
            .prop_map(move |(i, edits)| apply(seeds[i].clone(), &edits)),
    ]
}

fn run(name: &str) {
    let (_, body) = TARGETS
        .iter()
        .find(|(n, _)| *n == name)
        .unwrap_or_else(|| panic!("no target {name}"));
    let seeds = seeds(name);
    for s in &seeds {
        body(s);
    }
    let mut runner = TestRunner::new(Config {
        cases: cases(),
        failure_persistence: None,
        ..Config::default()
    });
    let outcome = runner.run(&input(seeds), |data| {
        std::panic::catch_unwind(|| body(&data)).map_err(|p| {
            let said = p
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            TestCaseError::fail(said)
        })
    });
    if let Err(e) = outcome {
        panic!(
            "{name}: {e}\nkeep the input as a file in fuzz/regressions/{name}/ (with a line in its README), then fix the reader"
        );
    }
}

/// Every input once kept as a crasher still reads without a panic.
#[test]
fn the_kept_crashers_read_without_a_panic() {
    let dir = root().join("fuzz/regressions");
    assert!(dir.is_dir(), "fuzz/regressions is missing");
    let mut replayed = 0;
    for (name, body) in TARGETS {
        let kept = dir.join(name);
        if kept.is_dir() {
            for file in files(&kept, None) {
                body(&std::fs::read(&file).unwrap());
                replayed += 1;
            }
        }
    }
    eprintln!("{replayed} kept inputs replayed");
}

/// Each target of `fuzz/Cargo.toml` is one of `TARGETS`, and the reverse.
#[test]
fn every_target_is_a_cargo_fuzz_target() {
    let manifest = std::fs::read_to_string(root().join("fuzz/Cargo.toml")).unwrap();
    for (name, _) in TARGETS {
        assert!(
            manifest.contains(&format!("name = \"{name}\"")),
            "fuzz/Cargo.toml has no [[bin]] {name}"
        );
        let file = root().join(format!("fuzz/fuzz_targets/{name}.rs"));
        assert!(file.is_file(), "{} is missing", file.display());
    }
    let bins = manifest.matches("[[bin]]").count();
    assert_eq!(
        bins,
        TARGETS.len(),
        "fuzz/Cargo.toml has targets TARGETS does not list"
    );
}

macro_rules! targets {
    ($($name:ident),* $(,)?) => {
        $(#[test]
        fn $name() {
            run(stringify!($name));
        })*
    };
}

targets!(
    competition_json,
    trf_read,
    roster_csv,
    teams_csv,
    closures_csv,
    field_json,
    pgn,
    fen,
    ruleset_toml,
    result_entry,
    rating_list,
);
