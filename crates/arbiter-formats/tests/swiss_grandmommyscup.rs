//! C.04.6 on FIDE's sample team Swiss (50 teams, 14 rounds, Baku acceleration, forfeits, byes,
//! withdrawals): for every round, Arbiter's pairing from the rounds before it equals the pairing
//! of FIDE's reference checker, pair by pair and colour by colour, and `swiss::check` finds the
//! file's round to be C.04.6's exactly where the checker does
//! (`tests/data/fide/grandmommyscup.pairing.json`, gacrux 1.11.65).
#![allow(clippy::unwrap_used, clippy::expect_used)] // a test: a failure is a panic

use std::path::Path;

use arbiter_core::pairing::swiss;
use arbiter_formats::trf;

#[derive(serde::Deserialize)]
struct CheckerRound {
    round: u32,
    check: bool,
    pairs: Vec<(u32, u32)>,
}

#[test]
fn c046_every_round_of_grandmommyscup_pairs_as_fides_checker_pairs_it() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/fide");
    let bytes = std::fs::read(dir.join("grandmommyscup.trf")).unwrap();
    let doc = trf::read("grandmommyscup.trf", &bytes).unwrap();
    let import = trf::to_competition(&doc).unwrap();
    let want: Vec<CheckerRound> = serde_json::from_str(
        &std::fs::read_to_string(dir.join("grandmommyscup.pairing.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(want.len(), 14, "the checker paired every round");
    // The start numbers are the teams' places in the list (art. 1.1).
    for (i, t) in import.competition.teams.iter().enumerate() {
        assert_eq!(t.id.0, (i + 1).to_string());
    }

    let checks = swiss::check(&import.competition, &import.rules, 0);
    assert_eq!(checks.len(), want.len());
    for (got, want) in checks.iter().zip(&want) {
        assert_eq!(got.round, want.round);
        let p = got.pairing.as_ref().unwrap();
        let mut pairs: Vec<(u32, u32)> = p
            .pairs
            .iter()
            .map(|m| (m.white_number, m.black_number))
            .collect();
        pairs.extend(p.bye.as_ref().map(|b| (b.number, 0)));
        assert_eq!(pairs, want.pairs, "round {}", want.round);
        assert_eq!(
            got.difference.is_none(),
            want.check,
            "round {}: {:?}",
            want.round,
            got.difference
        );
    }
    // Rounds the file pairs otherwise than C.04.6: 1, 2, 3, 6, 7, 8, 9, 12, 13.
    assert_eq!(want.iter().filter(|r| !r.check).count(), 9);
}
