//! Ranks a TRF team file by FIDE tie-break lists and prints, as JSON, each team's rank and
//! values: the product's side of the differential tests against FIDE's checker
//! (`tools/fide-diff.py`, docs/testing.md).
//!
//! `cargo run -p arbiter-formats --example fide_rank -- FILE.trf "PTS,EDET/P,BH:MP/C1" [LIST...]`
//!
//! Output: `[{"criteria": [...], "rows": [{"start": 16, "rank": 1, "values": [20, 0, ...]}]}]`,
//! rows in rank order, a value `null` when the criterion was never computed for the team.

use std::process::ExitCode;

use arbiter_core::rules::criteria::CriterionSpec;
use arbiter_core::scoring;
use arbiter_core::scoring::standings::{CriterionValue, rank};
use arbiter_formats::trf;
use serde_json::{Value, json};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some((path, lists)) = args.split_first() else {
        eprintln!("usage: fide_rank FILE.trf LIST [LIST...]   (LIST: PTS,EDET/P,BH:MP/C1,...)");
        return ExitCode::from(2);
    };
    match run(path, lists) {
        Ok(out) => {
            println!("{out}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{e}");
            ExitCode::FAILURE
        }
    }
}

fn run(path: &str, lists: &[String]) -> Result<Value, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{path}: cannot read the file: {e}"))?;
    let doc = trf::read(path, &bytes).map_err(|e| e.to_string())?;
    let import = trf::to_competition(&doc).map_err(|e| e.to_string())?;
    let sheet = scoring::score(&import.competition, &import.rules);
    let mut out = Vec::new();
    for list in lists {
        let criteria = list
            .split(',')
            .map(CriterionSpec::parse)
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| e.to_string())?;
        let standings = rank(&import.competition, &import.rules, &sheet, &criteria)
            .map_err(|e| format!("{path}: {e}"))?;
        let rows: Vec<Value> = standings
            .rows
            .iter()
            .map(|row| {
                let team = &import.competition.teams[row.team];
                let values: Vec<Value> = row
                    .values
                    .iter()
                    .map(|v| match v {
                        CriterionValue::Number(x) => json!(x),
                        CriterionValue::Sequence(s) => json!(s),
                        CriterionValue::NotApplied => Value::Null,
                    })
                    .collect();
                json!({
                    "start": team.id.0.parse::<u32>().ok(),
                    "rank": row.rank,
                    "values": values,
                })
            })
            .collect();
        out.push(json!({ "criteria": list.split(',').collect::<Vec<_>>(), "rows": rows }));
    }
    Ok(Value::Array(out))
}
