//! Issue 34 on the command line: `arbiter check --rating-list FILE@DATE` checks lineups by a
//! published list, and `arbiter ratings list import` stores one in a league and names the
//! players it does not find.

#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "common/run.rs"]
mod run;
use run::{arbiter, ok_stdout, root, scratch};

#[test]
fn check_reads_the_list_in_force_and_cites_the_leagues_rules() {
    let out = arbiter(&[
        "check",
        "examples/rulesets/us-amateur-team-east.json",
        "--rating-list",
        "examples/rulesets/us-amateur-team-east-ratings.csv@2027-02-01",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    let rules: Vec<&str> = text.lines().filter_map(|l| l.split(": ").nth(3)).collect();
    assert_eq!(rules, ["ATE-2", "ATE-4", "ATE-3"], "{text}");
    assert!(
        text.contains("8830, over 4), is not under the cap of 2200"),
        "{text}"
    );
    // A day missing from the argument is refused with the form to write.
    let out = arbiter(&[
        "check",
        "examples/rulesets/us-amateur-team-east.json",
        "--rating-list",
        "examples/rulesets/us-amateur-team-east-ratings.csv",
    ]);
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("names no day; write the file and the day its list is in force from, e.g. fide-march.txt@2027-03-01"), "{err}");
}

#[test]
fn a_list_is_imported_into_a_league_and_the_players_not_on_it_named() {
    let (dir, db) = scratch("arbiter-rating-lists");
    ok_stdout(&[
        "import",
        "examples/rulesets/us-amateur-team-east.json",
        "--league",
        "usate",
        "--db",
        &db,
    ]);
    let csv =
        std::fs::read_to_string(root().join("examples/rulesets/us-amateur-team-east-ratings.csv"))
            .unwrap();
    let without_pia: String = csv
        .lines()
        .filter(|l| !l.contains("Park, Pia"))
        .map(|l| format!("{l}\n"))
        .collect();
    let list = dir.join("february.csv");
    std::fs::write(&list, without_pia).unwrap();
    let out = ok_stdout(&[
        "ratings",
        "list",
        "import",
        list.to_str().unwrap(),
        "--league",
        "usate",
        "--in-force-from",
        "2027-02-01",
        "--name",
        "US Chess February 2027",
        "--db",
        &db,
    ]);
    assert!(out.contains("stored the rating list US Chess February 2027 (19 rated players), in force from 2027-02-01"), "{out}");
    assert!(out.contains("1 player not on the list:"), "{out}");
    assert!(
        out.contains("  Pia Park (Princeton Pawns): the id 12000011 is not on it"),
        "{out}"
    );
    let shown = ok_stdout(&["ratings", "list", "show", "--league", "usate", "--db", &db]);
    assert_eq!(
        shown,
        "US Chess February 2027\tin force from 2027-02-01\tcsv\t19 players\n"
    );
    let _ = std::fs::remove_dir_all(dir);
}
