//! FIDE C.07 team tie-breaks on FIDE's sample team Swiss (50 teams, 14 rounds, 4 boards, with
//! forfeits, byes and withdrawals): every rank, start number and value equals what FIDE's
//! reference checker computed (`tests/data/fide/grandmommyscup.expected.tsv`, gacrux
//! 1.11.65), values to 2 decimals.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a test: a failure is a panic

use std::path::{Path, PathBuf};

use arbiter_core::rules::criteria::{CriterionKind, CriterionSpec};
use arbiter_core::scoring;
use arbiter_core::scoring::standings::{CriterionValue, rank};
use arbiter_formats::trf;

const LIST: &str = "PTS,EDET/P,EMGSB/C1/P,BH:MP/C1/P,MPvGP,EMMSB,EGGSB,BH:GP,BC,SSSC";

fn testdata(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/fide")
        .join(name)
}

#[test]
fn c07_grandmommyscup_ranks_and_values_equal_fides_checker() {
    let path = testdata("grandmommyscup.trf");
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let doc = trf::read("grandmommyscup.trf", &bytes).unwrap();
    let import = trf::to_competition(&doc).unwrap();
    let criteria: Vec<CriterionSpec> = LIST
        .split(',')
        .map(|c| CriterionSpec::parse(c).unwrap())
        .collect();
    let sheet = scoring::score(&import.competition, &import.rules);
    let standings = rank(&import.competition, &import.rules, &sheet, &criteria).unwrap();

    let tsv = std::fs::read_to_string(testdata("grandmommyscup.expected.tsv")).unwrap();
    let mut lines = tsv.lines();
    let header: Vec<&str> = lines.next().unwrap().split('\t').collect();
    assert_eq!(header[..2], ["Rank", "StartNo"]);
    assert_eq!(
        header[2..].join(","),
        LIST,
        "the checker ranked by this list"
    );
    let expected: Vec<Vec<&str>> = lines
        .filter(|l| !l.is_empty())
        .map(|l| l.split('\t').collect())
        .collect();
    assert_eq!(expected.len(), 50);
    assert_eq!(standings.rows.len(), expected.len());

    for (row, want) in standings.rows.iter().zip(&expected) {
        let start = &import.competition.teams[row.team].id.0;
        assert_eq!(start, want[1], "row of rank {}: start number", want[0]);
        assert_eq!(row.rank.to_string(), want[0], "team {start}: rank");
        for (i, code) in criteria.iter().enumerate() {
            let want: f64 = want[i + 2].parse().unwrap();
            let got = match (&row.values[i], &code.kind) {
                (CriterionValue::Number(x), _) => *x,
                // A team alone in its place before EDET: never applied; the checker prints 0.
                (CriterionValue::NotApplied, CriterionKind::Fide(tb)) if tb.is_group() => 0.0,
                (other, _) => panic!("team {start}: {code} has no value ({other:?})"),
            };
            assert!(
                (got - want).abs() < 0.005,
                "team {start}: {code} is {got}, FIDE's checker says {want}"
            );
        }
    }
}
