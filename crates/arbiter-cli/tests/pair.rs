//! `arbiter pair` end to end on FIDE's sample team Swiss (`tests/data/fide/grandmommyscup.trf`):
//! the JSON of issue 17, `--check`'s verdict per round (as FIDE's checker gives it, see
//! arbiter-formats' `swiss_grandmommyscup`), the TRF written with the round, the errors.
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "common/run.rs"]
mod run;
use run::{arbiter, cmd, root};

use std::process::Command;

const FILE: &str = "crates/arbiter-cli/tests/data/fide/grandmommyscup.trf";

#[test]
fn c046_pair_prints_the_round_as_issue_17_spells_it() {
    let out = arbiter(&["pair", FILE, "--round", "6", "--format", "json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // FIDE's checker pairs round 6 so (gacrux 1.11.65); 35 - 20 is where the file differs.
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "{\"round\": 6, \"pairs\": [[13, 19], [6, 8], [3, 18], [14, 9], [10, 17], [11, 22], [1, 23], [24, 2], [4, 15], [12, 21], [34, 5], [35, 20], [25, 37], [36, 27], [38, 30], [32, 47], [26, 42], [28, 43], [29, 45], [44, 33], [50, 40], [48, 39], [41, 49]], \"bye\": 46}\n"
    );
}

#[test]
fn c046_pair_explain_says_the_bracket_the_criteria_and_the_colour_rule() {
    let out = arbiter(&["pair", FILE, "--round", "6", "--explain"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("Round 6\n  1   13 Spain"), "{text}");
    assert!(
        text.contains("bracket of 9 points: residents [8, 13, 19], upfloaters [6]"),
        "{text}"
    );
    assert!(text.contains("[C10] art. 2.3.7"), "{text}");
    assert!(text.contains("(C.04.6 art. 4.3.2)"), "{text}");
    assert!(text.contains("bye   46 "), "{text}");
}

#[test]
fn c046_pair_check_finds_the_rounds_fides_checker_finds() {
    let out = arbiter(&["pair", "--check", FILE]);
    assert_eq!(out.status.code(), Some(1), "a round differs: exit status 1");
    let text = String::from_utf8(out.stdout).unwrap();
    let verdicts: Vec<&str> = text.lines().collect();
    assert_eq!(verdicts.len(), 14, "{text}");
    let agree: Vec<usize> = verdicts
        .iter()
        .enumerate()
        .filter(|(_, l)| l.ends_with(": C.04.6's pairing"))
        .map(|(i, _)| i + 1)
        .collect();
    assert_eq!(agree, [4, 5, 10, 11, 14]);
    assert!(
        verdicts[5].contains("the file has 20 - 35, C.04.6 gives 35 - 20"),
        "{}",
        verdicts[5]
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("9 round(s) are not C.04.6's pairing"));
}

#[test]
fn c046_a_round_written_as_trf_checks_as_c046s_pairing() {
    let out = arbiter(&["pair", FILE, "--round", "14", "--format", "trf"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let dir = std::env::temp_dir().join(format!("arbiter-pair-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let written = dir.join("round14.trf");
    std::fs::write(&written, &out.stdout).unwrap();
    let check = arbiter(&["pair", "--check", written.to_str().unwrap()]);
    let text = String::from_utf8(check.stdout).unwrap();
    assert!(
        text.lines().last().unwrap() == "round 14: C.04.6's pairing",
        "{text}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn c046_a_round_past_the_event_is_refused_with_the_reason() {
    let out = arbiter(&["pair", FILE]);
    assert!(!out.status.success());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("round 15 is past the event's 14 rounds") && err.contains("record 142"),
        "{err}"
    );
    let out = arbiter(&["pair", FILE, "--round", "3", "--absent", "99"]);
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("--absent 99") && err.contains("has no team 99"),
        "{err}"
    );
}

/// Issue 17: `arbiter pair --league --season --competition` pairs a stored team Swiss's next
/// round as the site does (core's engine on the stored competition), refuses a swap without its
/// reason (C.04.2 art. 1.5), and `--publish --as` stores it through the site's write path, after
/// which the next round waits for its results.
#[test]
fn c046_a_stored_team_swiss_is_paired_and_published_by_an_officer() {
    use arbiter_core::pairing::swiss;
    let dir = std::env::temp_dir().join(format!("arbiter-pair-stored-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let (c, rules) = swiss::sample::event(11, 4, 7, 3, 7).unwrap();
    let file = dir.join("swiss.json");
    std::fs::write(
        &file,
        arbiter_formats::competition_json::write(&c, &rules, &[]),
    )
    .unwrap();
    let expected = swiss::pair(
        &c,
        &rules,
        &swiss::Request {
            round: 4,
            absent: None,
            seed: 0,
        },
    )
    .unwrap();
    let db = dir.join("league.db");
    let db = db.to_str().unwrap();
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_arbiter"))
            .args(args)
            .current_dir(root())
            .env_remove("ARBITER_SMTP_URL")
            .env("ARBITER_MAIL_DIR", dir.join("mail"))
            .output()
            .unwrap()
    };
    let ok = |args: &[&str]| {
        let out = run(args);
        assert!(
            out.status.success(),
            "arbiter {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    let at = [
        "--league",
        "clubs",
        "--season",
        "2026",
        "--competition",
        "open",
        "--db",
        db,
    ];
    ok(&[&["import", file.to_str().unwrap()][..], &at[..]].concat());
    ok(&cmd(
        "user add --email arbiter@clubs.example --role arbiter --league clubs --db {}",
        &[db],
    ));
    // The proposal is the engine's, as issue 17's JSON.
    let json = ok(&[&["pair", "--format", "json"][..], &at[..]].concat());
    let pairs: Vec<String> = expected
        .pairs
        .iter()
        .map(|m| format!("[{}, {}]", m.white_number, m.black_number))
        .collect();
    assert_eq!(
        json,
        format!(
            "{{\"round\": 4, \"pairs\": [{}], \"bye\": {}}}\n",
            pairs.join(", "),
            expected.bye.as_ref().unwrap().number
        )
    );
    // A swap without its reason is refused with the rule.
    let swap = format!(
        "{}:{}",
        expected.pairs[0].white_number, expected.pairs[1].white_number
    );
    let refused = run(&[&["pair", "--swap", &swap][..], &at[..]].concat());
    assert!(!refused.status.success());
    let why = String::from_utf8_lossy(&refused.stderr);
    assert!(why.contains("C.04.2 art. 1.5"), "{why}");
    // Issue 30 item 6: with its reason, the swap still pairs two teams that met (C.04.1 b):
    // refused, naming the criterion, and nothing is published.
    let publish = [
        "pair",
        "--publish",
        "--as",
        "arbiter@clubs.example",
        "--swap",
        &swap,
        "--reason",
        "Two teams of one club",
    ];
    let rematch = run(&[&publish[..], &at[..]].concat());
    assert!(!rematch.status.success());
    let why = String::from_utf8_lossy(&rematch.stderr);
    assert!(
        why.contains("C.04.1 b: ") && why.contains("met once before"),
        "{why}"
    );
    assert!(why.contains("Nothing was published."), "{why}");
    // Published by the arbiter, with the swap, its reason and the override by name.
    let published = ok(&[&publish[..], &["--override-absolute", "C.04.1 b"], &at[..]].concat());
    assert!(published.contains("(changed by hand)"), "{published}");
    assert!(published.contains("overriding C.04.1 b: "), "{published}");
    assert!(published.contains("Round 4 of"), "{published}");
    // The next round waits for round 4's results (C.04.6 art. 1.2).
    let next = run(&[
        &["pair", "--publish", "--as", "arbiter@clubs.example"][..],
        &at[..],
    ]
    .concat());
    assert!(!next.status.success());
    let why = String::from_utf8_lossy(&next.stderr);
    assert!(why.contains("C.04.6 art. 1.2"), "{why}");
    std::fs::remove_dir_all(&dir).ok();
}

/// `[pairing] seed = "average_top"`, `seed_top = 2` (docs/rulesets.md): the start numbers by
/// the average of each team's two best-rated players, printed with the averages, and round 1
/// paired by them: 1 (Bravo, 2100) v 3 (Charlie, 1600), 4 (Delta, unrated) v 2 (Alpha, 1900).
#[test]
fn c046_art_1_1_pair_prints_the_start_numbers_with_the_averages_they_come_from() {
    let dir = std::env::temp_dir().join(format!("arbiter-pair-seed-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("seeded.json");
    std::fs::write(
        &file,
        r#"{"format": "arbiter/competition@1", "name": "Seeded",
 "rules": {"extends": "fide-team", "pairing": {"rounds": 5, "initial_colour": "white", "seed": "average_top", "seed_top": 2}},
 "teams": [
  {"id": "a", "name": "Alpha", "players": [{"id": "a1", "name": "A One", "rating": 2000}, {"id": "a2", "name": "A Two", "rating": 1500}, {"id": "a3", "name": "A Three", "rating": 1800}]},
  {"id": "b", "name": "Bravo", "players": [{"id": "b1", "name": "B One", "rating": 2200}, {"id": "b2", "name": "B Two", "rating": 2000}]},
  {"id": "c", "name": "Charlie", "players": [{"id": "c1", "name": "C One", "rating": 1600}]},
  {"id": "d", "name": "Delta", "players": [{"id": "d1", "name": "D One"}]}]}
"#,
    )
    .unwrap();
    let out = arbiter(&["pair", file.to_str().unwrap(), "--round", "1"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "Start numbers by the average rating of each team's top 2 players (C.04.6 art. 1.1):\n  1 Bravo (2100)\n  2 Alpha (1900)\n  3 Charlie (1600)\n  4 Delta (no rated player)\n\nRound 1\n  1    1 Bravo  -    3 Charlie\n  2    4 Delta  -    2 Alpha\n"
    );
    std::fs::remove_dir_all(&dir).ok();
}
