//! Regression cases of the differential tests against FIDE's checker (docs/testing.md): team
//! tournaments on which Arbiter once disagreed with `gacrux`, each with the checker's answers for
//! several tie-break lists (`tests/data/fide-diff/`). Every rank and value (2 decimals) must
//! agree (C.07 arts. 6-16).
#![allow(clippy::unwrap_used, clippy::expect_used)] // a test: a failure is a panic

use std::path::Path;

use arbiter_core::rules::criteria::{CriterionKind, CriterionSpec};
use arbiter_core::scoring;
use arbiter_core::scoring::standings::{CriterionValue, rank};
use arbiter_formats::trf;

#[test]
fn c07_cases_that_once_disagreed_with_fides_checker_agree() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/fide-diff");
    let mut cases: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "trf"))
        .collect();
    cases.sort();
    assert!(!cases.is_empty(), "no cases in {}", dir.display());
    let mut failures = Vec::new();
    for path in &cases {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let doc = trf::read(&name, &std::fs::read(path).unwrap()).unwrap();
        let import = trf::to_competition(&doc).unwrap();
        let sheet = scoring::score(&import.competition, &import.rules);
        let expected = std::fs::read_to_string(path.with_extension("expected.tsv")).unwrap();
        for block in expected.split("\n\n").filter(|b| !b.trim().is_empty()) {
            let mut lines = block.lines();
            let header: Vec<&str> = lines.next().unwrap().split('\t').collect();
            let criteria: Vec<CriterionSpec> = header[2..]
                .iter()
                .map(|c| CriterionSpec::parse(c).unwrap())
                .collect();
            let list = header[2..].join(",");
            let standings = rank(&import.competition, &import.rules, &sheet, &criteria).unwrap();
            for line in lines {
                let want: Vec<&str> = line.split('\t').collect();
                let row = standings
                    .rows
                    .iter()
                    .find(|r| import.competition.teams[r.team].id.0 == want[1])
                    .unwrap_or_else(|| panic!("{name}: no team {}", want[1]));
                if row.rank.to_string() != want[0] {
                    failures.push(format!(
                        "{name} [{list}]: team {} ranked {}, checker {}",
                        want[1], row.rank, want[0]
                    ));
                }
                for (i, code) in criteria.iter().enumerate() {
                    let w: f64 = want[i + 2].parse().unwrap();
                    let got = match (&row.values[i], &code.kind) {
                        (CriterionValue::Number(x), _) => Some(*x),
                        // Never applied (the team was alone in its place): the checker prints 0.
                        (CriterionValue::NotApplied, CriterionKind::Fide(tb)) if tb.is_group() => {
                            Some(0.0)
                        }
                        _ => None,
                    };
                    if got.is_none_or(|g| (g - w).abs() >= 0.005) {
                        failures.push(format!(
                            "{name} [{list}]: team {} {code} = {got:?}, checker {w}",
                            want[1]
                        ));
                    }
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} disagreement(s):\n{}",
        failures.len(),
        failures[..failures.len().min(30)].join("\n")
    );
}
