//! C.04.6 on team Swiss events written in TRF-16's layout (byes as letters in the players' round
//! blocks, a match won by forfeit as the winners' `+` alone), whose every round FIDE's checker
//! paired (`tests/data/swiss/README.md`): Arbiter's pairing of each round from the rounds before
//! it equals the file's, pair by pair and colour by colour. Needs no Python (issue 31).
#![allow(clippy::unwrap_used, clippy::expect_used)] // a test: a failure is a panic

use std::path::Path;

use arbiter_core::pairing::swiss;
use arbiter_formats::trf;

/// Asserts that the event `name` holds what the test is about (`has`, said by `holds`), then
/// that every round of it is C.04.6's pairing.
fn every_round_pairs_as_the_checker_paired_it(name: &str, holds: &str, has: fn(&str) -> bool) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/swiss")
        .join(name);
    let text = std::fs::read_to_string(path).unwrap();
    assert!(has(&text), "{name} holds no {holds}");
    let doc = trf::read(name, text.as_bytes()).unwrap();
    let import = trf::to_competition(&doc).unwrap();
    let checks = swiss::check(&import.competition, &import.rules, 0);
    assert!(checks.len() >= 5, "{name}: {} rounds", checks.len());
    let differ: Vec<String> = checks
        .iter()
        .filter_map(|c| Some(format!("round {}: {}", c.round, c.difference.as_ref()?)))
        .collect();
    assert!(differ.is_empty(), "{name}:\n{}", differ.join("\n"));
}

/// Art. 1.4 and 2.1.2 [C2]: the pairing-allocated bye (`U`) and the requested byes (`F`, `H`,
/// `Z`) score and bar the next bye when only the players' round blocks name them.
#[test]
fn c046_art_1_4_byes_written_as_letters_only_pair_as_fides_checker_paired_them() {
    every_round_pairs_as_the_checker_paired_it(
        "trf16-bye-letters.trf",
        "U letters without 240 or 320",
        |t| t.contains(" 0000 - U") && !t.contains("\n240 ") && !t.contains("\n320 "),
    );
}

/// Art. 2.1.2 [C2]: a team that won a match by forfeit, written as its players' `0000 - +` with
/// no 330, scores the win and may not have the pairing-allocated bye.
#[test]
fn c046_art_2_1_2_a_match_won_by_forfeit_against_no_team_named_pairs_as_fides_checker_paired_it() {
    every_round_pairs_as_the_checker_paired_it(
        "trf16-forfeit-against-no-team.trf",
        "+ blocks without 330 or 300",
        |t| t.contains(" 0000 - +") && !t.contains("\n330 ") && !t.contains("\n300 "),
    );
}
