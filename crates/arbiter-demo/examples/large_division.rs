//! Writes a large demo division as a competition JSON file on stdout, for `arbiter import`:
//! `cargo run --release -p arbiter-demo --example large_division -- 16 > large-16.json`
//! (benches/http.sh measures its standings page).

use std::process::ExitCode;

fn main() -> ExitCode {
    let teams = match std::env::args().nth(1).map(|a| a.parse::<usize>()) {
        None => 16,
        Some(Ok(n)) if (2..=1000).contains(&n) => n,
        Some(_) => {
            eprintln!("error: give the number of teams, 2 to 1000 (default 16)");
            return ExitCode::FAILURE;
        }
    };
    let division = arbiter_demo::large_division(teams);
    let Some(rules) = arbiter_core::Ruleset::preset(&division.rules) else {
        eprintln!("error: the preset {} is missing", division.rules);
        return ExitCode::FAILURE;
    };
    print!(
        "{}",
        arbiter_formats::competition_json::write(&division.competition, &rules, &[])
    );
    ExitCode::SUCCESS
}
