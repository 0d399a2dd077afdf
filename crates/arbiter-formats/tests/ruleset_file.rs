//! Issue 9 item 8: what a competition file's `rules` and `extends` may read. Regular files only,
//! at most 1 MiB, inside the competition file's folder unless another folder is allowed; each
//! refusal a sentence, none of them a wait.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use arbiter_formats::competition_json::{self, JsonError};
use arbiter_formats::ruleset_file::{FileRulesetSource, RULESET_LIMIT};

/// A fresh folder for one test.
fn folder(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("arbiter-rules-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The sample competition with `rules` replaced.
fn competition_with(rules: serde_json::Value) -> String {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/sample.json");
    let mut v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(data).unwrap()).unwrap();
    v["rules"] = rules;
    v.to_string()
}

/// Reads the competition on another thread, so that a read that never ends fails the test
/// after a few seconds instead of hanging it.
fn read_within(
    text: String,
    source: FileRulesetSource,
) -> Result<competition_json::LoadedCompetition, JsonError> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(competition_json::read("cup.json", &text, &source));
    });
    rx.recv_timeout(Duration::from_secs(5))
        .expect("reading the competition's rules did not finish within 5 seconds")
}

fn message(e: &JsonError) -> String {
    e.problems
        .iter()
        .map(|p| p.message.clone())
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn dev_zero_is_refused_at_once_as_a_device() {
    let dir = folder("zero");
    let text = competition_with(serde_json::json!({"extends": "/dev/zero"}));
    let started = Instant::now();
    // Outside the competition's folder: refused for that first.
    let e = read_within(text.clone(), FileRulesetSource::new(&dir)).unwrap_err();
    assert!(
        message(&e).contains("outside the folder") && message(&e).contains("--rules-from /dev"),
        "{e}"
    );
    // With /dev allowed, refused for what it is, without reading a byte.
    let source = FileRulesetSource::new(&dir).allowing(&[PathBuf::from("/dev")]);
    let e = read_within(text, source).unwrap_err();
    let m = message(&e);
    assert!(
        m.contains("/dev/zero is a device, not a regular file"),
        "{m}"
    );
    assert!(
        started.elapsed() < Duration::from_secs(1),
        "{:?}",
        started.elapsed()
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[cfg(unix)]
#[test]
fn a_fifo_is_refused_without_waiting_for_a_writer() {
    let dir = folder("fifo");
    let fifo = dir.join("league.toml");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success(), "mkfifo failed");
    let text = competition_with(serde_json::json!("league.toml"));
    let e = read_within(text.clone(), FileRulesetSource::new(&dir)).unwrap_err();
    assert!(
        message(&e).contains("is a FIFO (a named pipe), not a regular file"),
        "{e}"
    );
    // And through `extends`.
    let text = competition_with(serde_json::json!({"extends": "league.toml"}));
    let e = read_within(text, FileRulesetSource::new(&dir)).unwrap_err();
    assert!(message(&e).contains("a FIFO"), "{e}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_path_that_climbs_out_of_the_competitions_folder_is_refused_with_a_sentence() {
    let dir = folder("escape");
    let inner = dir.join("season");
    std::fs::create_dir_all(&inner).unwrap();
    std::fs::write(dir.join("league.toml"), "extends = \"astc\"\n").unwrap();
    let text = competition_with(serde_json::json!("../league.toml"));
    let e = read_within(text.clone(), FileRulesetSource::new(&inner)).unwrap_err();
    let m = message(&e);
    assert!(m.contains("\"rules\": \"../league.toml\""), "{m}");
    assert!(
        m.contains("outside the folder")
            && m.contains("move it there or allow its folder with --rules-from"),
        "{m}"
    );
    assert_eq!(e.problems[0].line, Some(1), "{e}");
    // Through an inline ruleset's `extends` too.
    let text = competition_with(serde_json::json!({"extends": "../league.toml"}));
    let e = read_within(text, FileRulesetSource::new(&inner)).unwrap_err();
    assert!(message(&e).contains("outside the folder"), "{e}");
    // Allowed by name, the same file reads.
    let text = competition_with(serde_json::json!("../league.toml"));
    let source = FileRulesetSource::new(&inner).allowing(std::slice::from_ref(&dir));
    let l = read_within(text, source).unwrap();
    assert_eq!(l.rules.boards, 4);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_file_outside_the_working_directory_names_that_folder_not_an_empty_one() {
    // `arbiter check league.json` reads rules from the working directory: the empty folder.
    let text = competition_with(serde_json::json!({"extends": "/dev/zero"}));
    let e = read_within(text, FileRulesetSource::new("")).unwrap_err();
    let m = message(&e);
    let here = std::env::current_dir().unwrap().canonicalize().unwrap();
    assert!(
        m.contains(&format!("outside the folder {};", here.display())),
        "{m}"
    );
    assert!(!m.contains("folder ;"), "{m}");
}

#[cfg(unix)]
#[test]
fn a_link_out_of_the_folder_is_refused_like_the_path_it_points_to() {
    let dir = folder("link");
    let inner = dir.join("season");
    std::fs::create_dir_all(&inner).unwrap();
    std::fs::write(dir.join("league.toml"), "extends = \"astc\"\n").unwrap();
    std::os::unix::fs::symlink(dir.join("league.toml"), inner.join("league.toml")).unwrap();
    let text = competition_with(serde_json::json!("league.toml"));
    let e = read_within(text, FileRulesetSource::new(&inner)).unwrap_err();
    assert!(message(&e).contains("outside the folder"), "{e}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_ruleset_file_over_one_mib_is_refused_with_its_size_and_the_limit() {
    let dir = folder("big");
    let mut big = String::from("extends = \"astc\"\n");
    while (big.len() as u64) <= RULESET_LIMIT {
        big.push_str("# padding padding padding padding padding padding padding padding\n");
    }
    std::fs::write(dir.join("big.toml"), &big).unwrap();
    let text = competition_with(serde_json::json!("big.toml"));
    let e = read_within(text, FileRulesetSource::new(&dir)).unwrap_err();
    let m = message(&e);
    assert!(m.contains("big.toml is 1 MiB ("), "{m}");
    assert!(
        m.contains("bytes), more than 1 MiB (1048576 bytes), the most a ruleset file may hold"),
        "{m}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_ruleset_beside_the_competition_still_reads() {
    let dir = folder("beside");
    std::fs::write(dir.join("league.toml"), "extends = \"astc\"\n").unwrap();
    let text = competition_with(serde_json::json!("league.toml"));
    let l = read_within(text, FileRulesetSource::new(&dir)).unwrap();
    assert_eq!(l.rules.boards, 4);
    std::fs::remove_dir_all(&dir).ok();
}
