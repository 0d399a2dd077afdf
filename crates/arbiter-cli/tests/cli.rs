//! The `arbiter` command end to end: the examples' expected standings, the FIDE sample against
//! FIDE's checker, schedules, and the errors a user sees.
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "common/run.rs"]
mod run;
use run::{arbiter, arbiter_mailing, cmd, ok_stdout, root, scratch, words};

use std::path::Path;
use std::process::Command;

use serde_json::Value;

fn json(args: &[&str]) -> Value {
    serde_json::from_str(&ok_stdout(args)).unwrap()
}

fn order(v: &Value) -> Vec<(String, String)> {
    v["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["place"].as_str().unwrap().to_string(),
                r["team_id"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter()
        .map(|(a, b)| ((*a).to_string(), (*b).to_string()))
        .collect()
}

/// AS-14, AS-15, AS-16: the ASTC example's standings as worked by hand in examples/README.md.
#[test]
fn astc_example_standings() {
    let v = json(&words(
        "standings examples/astc-secondary-open.json --format json",
    ));
    assert_eq!(
        v["criteria"],
        serde_json::json!(["GP", "MP", "H2H:GP", "H2H:BOARDS"])
    );
    assert_eq!(
        order(&v),
        pairs(&[
            ("1", "vic"),
            ("2", "nsw"),
            ("3", "qld"),
            ("4", "wa"),
            ("5", "sa"),
            ("6", "tas"),
            ("7", "act"),
            ("8", "nt"),
        ])
    );
    let row = |i: usize| &v["standings"][i]["values"];
    assert_eq!(row(0)["GP"], 21.0);
    assert_eq!(row(0)["MP"], 13.0);
    assert_eq!(row(1)["GP"], 17.5);
    assert_eq!(row(1)["MP"], 11.0);
    assert_eq!(row(2)["MP"], 10.0);
    // wa and sa: 14 GP and 6 MP each; wa won their match 2½-1½ (AS-16).
    assert_eq!(row(3)["H2H:GP"], 2.5);
    assert_eq!(row(4)["H2H:GP"], 1.5);
    assert_eq!(v["standings"][0]["rank"], 1);
    assert_eq!(v["standings"][0]["team"], "Victoria");
}

/// The explanation names the criterion and the rule for each pair.
#[test]
fn astc_example_explain_cites_rules() {
    let text = ok_stdout(&words(
        "standings examples/astc-secondary-open.json --explain",
    ));
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains("New South Wales (2) is above Queensland (3) on MP (AS-15): 11 to 10."),
        "{flat}"
    );
    assert!(
        flat.contains("Western Australia (4) is above South Australia (5) on H2H:GP (AS-16), counting only the matches among Western Australia and South Australia: 2.5 to 1.5."),
        "{flat}"
    );
    // The table fits an 80-column terminal.
    for line in text.lines() {
        assert!(line.chars().count() <= 80, "too wide: {line}");
    }
}

/// GT-S5, GT-M5, GT-M7: the GTHSCL example with its dropped team last.
#[test]
fn gthscl_example_standings() {
    let v = json(&words(
        "standings examples/gthscl-division.json --format json",
    ));
    assert_eq!(v["criteria"], serde_json::json!(["MP", "GP", "H2H:MP"]));
    assert_eq!(
        order(&v),
        pairs(&[
            ("1", "sjj-a"),
            ("2", "northview"),
            ("3", "perrysburg"),
            ("4", "sjj-b"),
            ("5", "mvcd"),
            ("6", "start"),
        ])
    );
    assert_eq!(v["standings"][5]["dropped"], true);
    assert_eq!(v["standings"][0]["values"]["GP"], 10.5);
    assert_eq!(v["standings"][1]["values"]["GP"], 9.0);
    let text = ok_stdout(&["standings", "examples/gthscl-division.json", "--explain"]);
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains("Toledo Start was dropped from the league (GT-M5)"),
        "{flat}"
    );
    assert!(flat.contains("under half"), "{flat}");
}

/// The same file under another ruleset: `--rules` replaces the file's own.
#[test]
fn rules_option_replaces_the_files_rules() {
    let v = json(&words(
        "standings examples/astc-secondary-open.json --rules gthscl --format json",
    ));
    assert_eq!(v["criteria"], serde_json::json!(["MP", "GP", "H2H:MP"]));
    // Under GTHSCL's 1 / ½ / 0 Victoria has 6½ match points.
    assert_eq!(v["standings"][0]["values"]["MP"], 6.5);
}

#[test]
fn csv_output_has_a_header_and_a_row_per_team() {
    let text = ok_stdout(&words(
        "standings examples/astc-secondary-open.json --format csv",
    ));
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "rank,place,team_id,team,GP,MP,H2H:GP,H2H:BOARDS");
    assert_eq!(lines.len(), 9);
    assert!(
        lines[1].starts_with("1,1,vic,Victoria,21,13"),
        "{}",
        lines[1]
    );
}

/// Issue 10: a team named as a spreadsheet formula reaches the standings CSV as text, behind
/// its apostrophe (`arbiter_formats::csv::guard`).
#[test]
fn a_team_named_as_a_formula_reaches_the_csv_as_text() {
    let formula = r#"=HYPERLINK("http://x","y")"#;
    let mut v: Value = serde_json::from_str(
        &std::fs::read_to_string(root().join("examples/astc-secondary-open.json")).unwrap(),
    )
    .unwrap();
    let team = &mut v["teams"][0];
    assert_eq!(team["id"], "vic", "the example's first team");
    team["name"] = Value::from(formula);
    let (dir, _) = scratch("arbiter-cli-formula");
    let file = dir.join("astc.json");
    std::fs::write(&file, v.to_string()).unwrap();
    let text = ok_stdout(&["standings", file.to_str().unwrap(), "--format", "csv"]);
    assert!(
        text.contains(r#",vic,"'=HYPERLINK(""http://x"",""y"")","#),
        "{text}"
    );
    let records = arbiter_formats::csv::read(&text, ',');
    let row = records.iter().find(|r| r[2] == "vic").unwrap();
    assert_eq!(row[3], format!("'{formula}"), "{text}");
    std::fs::remove_dir_all(&dir).ok();
}

/// AS-19: the FIDE Berger table for 8.
#[test]
fn schedule_for_eight_teams() {
    let text = ok_stdout(&["schedule", "--teams", "8"]);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 7);
    assert_eq!(lines[0], "Round  1: 1-8, 2-7, 3-6, 4-5");
    assert_eq!(lines[1], "Round  2: 8-5, 6-4, 7-3, 1-2");
    let v = json(&["schedule", "--teams", "5", "--double", "--format", "json"]);
    assert_eq!(v["rounds"].as_array().unwrap().len(), 10);
    assert!(v["rounds"][0]["bye"].is_u64());
}

/// C.07: `arbiter standings grandmommyscup.trf` agrees with FIDE's checker on every team.
#[test]
fn fide_sample_agrees_with_the_checker() {
    let list = "PTS,EDET/P,EMGSB/C1/P,BH:MP/C1/P,MPvGP,EMMSB,EGGSB,BH:GP,BC,SSSC";
    let v = json(&cmd(
        "standings crates/arbiter-cli/tests/data/fide/grandmommyscup.trf --format json --tiebreaks {}",
        &[list],
    ));
    let expected = std::fs::read_to_string(
        root().join("crates/arbiter-cli/tests/data/fide/grandmommyscup.expected.tsv"),
    )
    .unwrap();
    let mut lines = expected.lines();
    let header: Vec<&str> = lines.next().unwrap().split('\t').collect();
    let rows = v["standings"].as_array().unwrap();
    let mut compared = 0;
    for (i, line) in lines.enumerate() {
        let cells: Vec<&str> = line.split('\t').collect();
        let row = &rows[i];
        assert_eq!(
            row["rank"].as_u64().unwrap().to_string(),
            cells[0],
            "rank of row {i}"
        );
        assert_eq!(
            row["team_id"].as_str().unwrap(),
            cells[1],
            "start number of row {i}"
        );
        for (code, cell) in header.iter().zip(&cells).skip(2) {
            let want: f64 = cell.parse().unwrap();
            let got = row["values"][*code].as_f64().unwrap_or(0.0);
            assert!(
                (got - want).abs() < 0.005,
                "team {} {code}: {got}, the checker says {want}",
                cells[1]
            );
            compared += 1;
        }
    }
    assert_eq!(compared, 50 * 10);
}

/// Errors are sentences that say what was wrong and where; nothing panics.
#[test]
fn errors_are_sentences() {
    let out = arbiter(&["standings", "no/such/file.json"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("cannot read no/such/file.json"), "{err}");

    let out = arbiter(&words(
        "standings examples/astc-secondary-open.json --tiebreaks BH:XP",
    ));
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("BH:XP") && err.contains(":MP"), "{err}");

    let out = arbiter(&["schedule", "--teams", "1"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("AS-19"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

/// A TRF file converts to competition JSON and back without losing its standings.
#[test]
fn import_and_export_keep_the_standings() {
    let (dir, _) = scratch("arbiter-cli");
    let json_path = dir.join("cup.json");
    let trf_path = dir.join("cup.trf");
    let src = "crates/arbiter-cli/tests/data/fide/grandmommyscup.trf";
    ok_stdout(&["import", src, "-o", json_path.to_str().unwrap()]);
    ok_stdout(&cmd(
        "export {} --format trf -o {}",
        &[json_path.to_str().unwrap(), trf_path.to_str().unwrap()],
    ));
    let a = json(&["standings", src, "--format", "json"]);
    let b = json(&["standings", json_path.to_str().unwrap(), "--format", "json"]);
    let c = json(&["standings", trf_path.to_str().unwrap(), "--format", "json"]);
    assert_eq!(a, b);
    assert_eq!(a, c);
    std::fs::remove_dir_all(&dir).ok();
}

/// `--rules` that do not fit the record are refused with the rule, not applied silently; an
/// unknown name says which presets there are.
#[test]
fn rules_option_is_checked_against_the_record() {
    let (dir, _) = scratch("arbiter-cli-rules");
    let three = dir.join("three-boards.toml");
    std::fs::write(&three, "extends = \"gthscl\"\nboards = 3\n").unwrap();
    let out = arbiter(&cmd(
        "standings examples/gthscl-division.json --rules {}",
        &[three.to_str().unwrap()],
    ));
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("GT-M8") && err.contains("plays 3 boards"),
        "{err}"
    );

    let out = arbiter(&words(
        "standings examples/gthscl-division.json --rules nope",
    ));
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--rules nope") && err.contains("astc, gthscl, fide-team"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// Issue 5: `arbiter user add` makes a league's first account and writes its set-password
/// link to the mail folder when no SMTP server is configured; an unknown role is a sentence.
#[test]
fn user_add_makes_the_first_account_with_a_link_in_the_mail_folder() {
    let (dir, db) = scratch("arbiter-user-add");
    let db = db.as_str();
    let mail = dir.join("mail");
    let run = |args: &[&str]| arbiter_mailing(args, &mail);
    let imported = run(&cmd(
        "import examples/gthscl-division.json --league gthscl --db {}",
        &[db],
    ));
    assert!(
        imported.status.success(),
        "{}",
        String::from_utf8_lossy(&imported.stderr)
    );
    let out = run(&cmd(
        "user add --email Pres@League.example --role president --league gthscl --db {}",
        &[db],
    ));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains("pres@league.example is President"),
        "{stdout}"
    );
    let link = stdout
        .lines()
        .find_map(|l| {
            l.split_whitespace()
                .find(|w| w.starts_with("http://127.0.0.1:8080/reset/"))
        })
        .unwrap_or_else(|| panic!("no set-password link in: {stdout}"));
    let files: Vec<_> = std::fs::read_dir(&mail).unwrap().collect();
    assert_eq!(files.len(), 1, "one mail in the folder");
    let eml = std::fs::read_to_string(files[0].as_ref().unwrap().path()).unwrap();
    assert!(eml.contains("pres@league.example"), "{eml}");
    let token = link.rsplit('/').next().unwrap();
    assert!(
        eml.replace("=\r\n", "").contains(token),
        "the mail carries the link: {eml}"
    );

    let bad = run(&cmd(
        "user add --email a@b.example --role captain --league gthscl --db {}",
        &[db],
    ));
    assert!(!bad.status.success());
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(err.contains("`captain` is not a role"), "{err}");
    let advisor = run(&cmd(
        "user add --email a@b.example --role advisor --league gthscl --db {}",
        &[db],
    ));
    let err = String::from_utf8_lossy(&advisor.stderr);
    assert!(err.contains("GT-M1") && err.contains("--school"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 9 item 12: `arbiter token add` prints an officer's API token alone on stdout, for a
/// script; issue 16: an advisor's too, acting for their school.
#[test]
fn token_add_prints_an_officers_and_an_advisors_token() {
    let (dir, db) = scratch("arbiter-token-add");
    let db = db.as_str();
    let run = |args: &[&str]| arbiter_mailing(args, &dir.join("mail"));
    let ok = |args: &[&str]| {
        let out = run(args);
        assert!(
            out.status.success(),
            "arbiter {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        out
    };
    ok(&cmd(
        "import examples/gthscl-division.json --league gthscl --db {}",
        &[db],
    ));
    let user = |email: &str, role: &str, school: &[&str]| {
        let mut args = cmd(
            "user add --email {} --role {} --league gthscl --db {}",
            &[email, role, db],
        );
        args.extend_from_slice(school);
        ok(&args);
    };
    user("pres@league.example", "president", &[]);
    user(
        "adv@league.example",
        "advisor",
        &["--school", "Perrysburg High School"],
    );
    let token = |email: &str| {
        run(&cmd(
            "token add --email {} --league gthscl --label {} --db {}",
            &[email, "nightly import", db],
        ))
    };

    let made = token("pres@league.example");
    let (stdout, stderr) = (
        String::from_utf8_lossy(&made.stdout),
        String::from_utf8_lossy(&made.stderr),
    );
    assert!(made.status.success(), "{stderr}");
    let secret = stdout.trim();
    assert!(
        secret.len() >= 32 && secret.chars().all(|c| c.is_ascii_alphanumeric()),
        "the token alone on stdout: {stdout:?}"
    );
    assert!(
        stderr.contains("“nightly import” acting as President"),
        "{stderr}"
    );

    let advisor = token("adv@league.example");
    let err = String::from_utf8_lossy(&advisor.stderr);
    assert!(advisor.status.success(), "{err}");
    assert!(
        err.contains("acting as Advisor of Perrysburg High School in "),
        "{err}"
    );
    let secret = String::from_utf8_lossy(&advisor.stdout);
    assert!(
        secret.trim().len() >= 32,
        "the token alone on stdout: {secret:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 9 item 4: the default table on FIDE's own TRF-2026 sample, whose team names are all
/// shorter than 12 characters, prints a row per team instead of panicking.
#[test]
fn the_table_prints_fides_trf26_sample_whose_names_are_short() {
    let sample = "crates/arbiter-cli/tests/data/fide/trf26_team.trf";
    assert!(root().join(sample).is_file(), "the sample is missing");
    let out = arbiter(&["standings", sample]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    // The sample holds one team.
    assert_eq!(lines.len(), 2, "{text}");
    assert!(lines[0].starts_with("Place Team"), "{text}");
    assert!(lines[1].starts_with("1     Russia "), "{text}");
}

/// Issue 9 item 4: an ASTC file whose teams are named by their state's letters (`NSW`, `VIC`).
#[test]
fn the_table_prints_teams_named_in_three_letters() {
    let mut v: Value = serde_json::from_str(
        &std::fs::read_to_string(root().join("examples/astc-secondary-open.json")).unwrap(),
    )
    .unwrap();
    for t in v["teams"].as_array_mut().unwrap() {
        t["name"] = Value::from(t["id"].as_str().unwrap().to_uppercase());
    }
    let (dir, _) = scratch("arbiter-cli-short");
    let file = dir.join("astc.json");
    std::fs::write(&file, v.to_string()).unwrap();
    let text = ok_stdout(&["standings", file.to_str().unwrap()]);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 9, "{text}");
    assert!(lines[1].starts_with("1     VIC "), "{text}");
    assert!(lines[2].starts_with("2     NSW "), "{text}");
    std::fs::remove_dir_all(&dir).ok();
}

/// Issue 9 item 8: a competition file's `rules` is read from its own folder only, unless
/// `--rules-from` allows another; a device named as the competition file is read no further
/// than the limit.
#[test]
fn rules_outside_the_competitions_folder_need_rules_from() {
    let dir = std::env::temp_dir().join(format!("arbiter-cli-from-{}", std::process::id()));
    let season = dir.join("season");
    std::fs::create_dir_all(&season).unwrap();
    std::fs::write(dir.join("league.toml"), "extends = \"astc\"\n").unwrap();
    let mut v: Value = serde_json::from_str(
        &std::fs::read_to_string(root().join("examples/astc-secondary-open.json")).unwrap(),
    )
    .unwrap();
    v["rules"] = Value::from("../league.toml");
    let file = season.join("astc.json");
    std::fs::write(&file, v.to_string()).unwrap();
    let file = file.to_str().unwrap();

    let out = arbiter(&["standings", file]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("\"rules\": \"../league.toml\"")
            && err.contains("outside the folder")
            && err.contains("--rules-from"),
        "{err}"
    );
    let text = ok_stdout(&["standings", file, "--rules-from", dir.to_str().unwrap()]);
    assert!(text.lines().nth(1).unwrap().contains("Victoria"), "{text}");

    let out = arbiter(&["standings", "/dev/zero"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("/dev/zero holds more than 64 MiB (67108864 bytes), the most a competition file may hold"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// Issue 9 item 14: `arbiter import` that the store refuses at its last check (here a
/// competition address it cannot use, or one taken in another season) writes nothing: the
/// next import still creates the league, or the season.
#[test]
fn an_import_that_fails_writes_no_league_and_no_season() {
    let (dir, db) = scratch("arbiter-cli-import");
    let db = db.as_str();
    let file = "examples/gthscl-division.json";
    let import = |season: &str, competition: &str| {
        let args = [
            "import",
            file,
            "--league",
            "gthscl",
            "--season",
            season,
            "--competition",
            competition,
            "--db",
            db,
        ];
        let out = arbiter(&args);
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stderr).to_string(),
        )
    };
    let (ok, err) = import("2026-27", "Division A");
    assert!(!ok, "{err}");
    assert!(
        err.contains("`Division A`") && err.contains("nothing was written"),
        "{err}"
    );
    let (ok, err) = import("2026-27", "division-a");
    assert!(ok, "{err}");
    // Issue 34: a league created by import is named, here by its ruleset's description.
    assert!(
        err.contains("created the league gthscl (Greater Toledo High School Chess League)"),
        "{err}"
    );
    assert!(err.contains("created the season gthscl/2026-27"), "{err}");

    let (ok, err) = import("2027-28", "division-a");
    assert!(!ok, "{err}");
    assert!(err.contains("already taken"), "{err}");
    let (ok, err) = import("2027-28", "division-b");
    assert!(ok, "{err}");
    assert!(!err.contains("created the league"), "{err}");
    assert!(err.contains("created the season gthscl/2027-28"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

/// Issue 34 item 6: a league created by import is named as the officer says (`--league-name`),
/// not called by its address.
#[test]
fn an_imported_league_is_named_as_the_officer_says() {
    let (dir, db) = scratch("arbiter-cli-import-named");
    let out = arbiter(&[
        "import",
        "examples/gthscl-division.json",
        "--league",
        "krajsky-prebor",
        "--league-name",
        "Krajský přebor",
        "--db",
        db.as_str(),
    ]);
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains("created the league krajsky-prebor (Krajský přebor)"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// One player, one person (AS-3, GT-M15): the files name Michael Brennan the same person in both
/// divisions, and the store keeps it; `arbiter roster link --to own` undoes it, `arbiter roster
/// people` then suggests it (the same name and school), and linking again keeps it, each through
/// the site's write path; a link to no player is refused with nothing stored.
#[test]
fn one_player_one_person_the_roster_commands_list_and_link_people() {
    let (dir, db) = scratch("arbiter-cli-people");
    let db = db.as_str();
    for slug in ["metro", "suburban"] {
        ok_stdout(&cmd(
            "import {} --league gthscl --season 2026-27 --competition {} --db {}",
            &[
                &format!("crates/arbiter-cli/tests/data/check/{slug}.json"),
                slug,
                db,
            ],
        ));
    }
    let people = || {
        ok_stdout(&cmd(
            "roster people --league gthscl --competition suburban --db {}",
            &[db],
        ))
    };
    let said = people();
    assert!(
        said.contains("Michael Brennan, St. John's Jesuit C (GTHSCL 2026-27 Suburban Division) (c1): one person with Michael Brennan, St. John's Jesuit A (GTHSCL 2026-27 Metro Division)"),
        "{said}"
    );
    let link = |to: &str| {
        arbiter(&cmd(
            "roster link --league gthscl --competition suburban --player c1 --to {} --reason {} --db {}",
            &[to, "checked with the school", db],
        ))
    };
    let own = link("own");
    assert!(
        own.status.success(),
        "{}",
        String::from_utf8_lossy(&own.stderr)
    );
    let said = people();
    assert!(!said.contains("one person with"), "{said}");
    assert!(
        said.contains("maybe the same person as Michael Brennan, St. John's Jesuit A (GTHSCL 2026-27 Metro Division), the same name and school (St. John's Jesuit High School); if so: arbiter roster link --league gthscl --competition suburban --player c1 --to metro/a1"),
        "{said}"
    );
    let again = link("metro/a1");
    assert!(
        again.status.success(),
        "{}",
        String::from_utf8_lossy(&again.stderr)
    );
    assert!(people().contains("one person with Michael Brennan"));
    let nobody = link("metro/zz");
    assert!(!nobody.status.success());
    let err = String::from_utf8_lossy(&nobody.stderr);
    assert!(
        err.contains("has no player with the id `zz`") && err.contains("Nothing was stored."),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// Issue 11: `arbiter ratings` on the GTHSCL example under the league's Elo (the preset's
/// `[rating]`): the 1200N player, the sums, the CSV and the boards not rated.
#[test]
fn ratings_of_the_gthscl_example_by_the_league_elo() {
    let v = json(&words(
        "ratings examples/gthscl-division.json --format json",
    ));
    assert_eq!(v["system"], "league");
    let players = v["players"].as_array().unwrap();
    let by_id = |id: &str| players.iter().find(|p| p["player_id"] == id).unwrap();
    // GT-R3: a 1200N player with no rated game stays 1200N.
    let sophie = by_id("nv5");
    assert_eq!(
        (&sophie["before"], &sophie["games"], &sophie["provisional"]),
        (&Value::from(1200), &Value::from(0), &Value::from(true))
    );
    // Every line adds up: after is before plus the periods' changes, each rounded.
    for p in players {
        let (before, after) = (p["before"].as_i64().unwrap(), p["after"].as_i64().unwrap());
        let change = p["change"].as_f64().unwrap();
        let games = p["games"].as_f64().unwrap();
        assert!(
            (after as f64 - before as f64 - change).abs() <= games / 2.0 + 0.01,
            "{p}"
        );
    }
    let zhao = ok_stdout(&words("ratings examples/gthscl-division.json --format csv"));
    assert!(zhao.starts_with(
        "player_id,name,team_id,before,games,score,expected,change,after,k,provisional\r\n"
    ));
    assert!(
        zhao.contains("nv5,Sophie Adams,northview,1200,0,0,0,0,1200,,true\r\n"),
        "{zhao}"
    );
    // GT-M5: the dropped team's games are not rated, each board said why.
    let not_rated = v["not_rated"].as_array().unwrap();
    assert!(
        not_rated.iter().any(|n| n["rule"] == "GT-M5"
            && n["reason"].as_str().unwrap().starts_with("GT-M5: excluded"))
    );
    assert!(not_rated.iter().any(|n| n["rule"] == "GT-S2"));
}

/// Issue 11: FIDE's B.02 on a TRF file: K 10 from 2400, 20 below, change in tenths.
#[test]
fn ratings_of_a_trf_file_by_fide() {
    let v = json(&words(
        "ratings crates/arbiter-formats/tests/data/fide/grandmommyscup.trf --format json",
    ));
    assert_eq!(v["system"], "fide");
    for p in v["players"].as_array().unwrap() {
        let before = p["before"].as_i64().unwrap();
        let k = p["k"].as_f64();
        if p["games"].as_u64().unwrap() > 0 {
            let want = if before >= 2400 { 10.0 } else { 20.0 };
            assert_eq!(k, Some(want), "{p}");
            let change = p["change"].as_f64().unwrap();
            assert_eq!(
                p["after"].as_i64().unwrap(),
                before + change.round() as i64,
                "{p}"
            );
        }
    }
}

/// Each player's (name, rating before, rated games) in `ratings --format json`.
fn rating_lines(v: &Value) -> Vec<(String, Value, Value)> {
    let mut lines: Vec<_> = v["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["name"].as_str().unwrap().to_string(),
                p["before"].clone(),
                p["games"].clone(),
            )
        })
        .collect();
    lines.sort_by(|a, b| a.0.cmp(&b.0));
    lines
}

/// Issue 11: `arbiter ratings FILE --format trf` is the FIDE rating report: it reads back as
/// TRF, each `001` carries the player's rating before the event (B.02 rates from them) and the
/// birth date, and rating the report rates exactly the games Arbiter rates: GT-R7's unranked
/// players' and GT-M5's excluded games are written with the unrated codes W D L. (Not the same
/// changes: TRF does not carry a record's rated games or K, which FIDE keeps itself.)
#[test]
fn b02_the_rating_report_reads_back_as_trf_with_the_ratings_before_the_event() {
    let records = "crates/arbiter-formats/tests/data/rating_records.json";
    for file in [records, "examples/gthscl-division.json"] {
        let out = arbiter(&["ratings", file, "--format", "trf"]);
        assert!(
            out.status.success(),
            "{file}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let doc = arbiter_formats::trf::read("report.trf", &out.stdout).unwrap();
        let import = arbiter_formats::trf::to_competition(&doc).unwrap();
        let by_fide = json(&["ratings", file, "--system", "fide", "--format", "json"]);
        let lines = rating_lines(&by_fide);
        assert!(lines.len() >= 8, "{file}: {lines:?}");
        // Every player is in the report, with the rating before the event in 49-52.
        let text = String::from_utf8(out.stdout).unwrap();
        for (name, before, _) in &lines {
            let line = text
                .lines()
                .find(|l| l.starts_with("001") && l[14..47].trim() == name)
                .unwrap_or_else(|| panic!("{file}: no 001 for {name}"));
            let rating = line[48..52].trim();
            assert_eq!(
                rating,
                before.as_i64().map(|r| r.to_string()).unwrap_or_default(),
                "{line}"
            );
        }
        let players = import.competition.teams.iter().flat_map(|t| &t.players);
        assert_eq!(players.count(), lines.len(), "{file}");
        let header = |tag: &str| {
            text.lines()
                .find(|l| l.starts_with(tag))
                .map(|l| l[4..].trim().to_string())
        };
        let rated = lines.iter().filter(|l| !l.1.is_null()).count();
        assert_eq!(header("062"), Some(lines.len().to_string()), "{file}");
        assert_eq!(header("072"), Some(rated.to_string()), "{file}");
        assert_eq!(
            header("082"),
            Some(import.competition.teams.len().to_string())
        );
        // Rated again from the report, every player has the same rating before and games.
        let path = std::env::temp_dir().join(format!(
            "arbiter-report-{}-{}.trf",
            std::process::id(),
            import.competition.teams.len()
        ));
        std::fs::write(&path, &text).unwrap();
        let again = json(&["ratings", path.to_str().unwrap(), "--format", "json"]);
        std::fs::remove_file(&path).unwrap();
        assert_eq!(again["system"], "fide");
        // But for a GT-P1 game, which TRF writes as the forfeit and the report warns about.
        let stderr = String::from_utf8(out.stderr).unwrap();
        let mut want = lines.clone();
        if file.contains("gthscl") {
            assert!(
                stderr.contains(
                    "warning: round 2, sjj-a v northview, board 2: GT-P1: the team lost the point"
                ),
                "{stderr}"
            );
            for l in &mut want {
                if l.0 == "Andrew Kowalski" || l.0 == "Kyle Harmon" {
                    l.2 = Value::from(l.2.as_u64().unwrap() - 1);
                }
            }
        } else {
            assert_eq!(stderr, "", "{file}");
        }
        assert_eq!(rating_lines(&again), want, "{file}");
    }
    // The record's birth date in 70-79; the unranked player's game (GT-R7) written W and L.
    let text = ok_stdout(&["ratings", records, "--format", "trf"]);
    let line = |name: &str| {
        text.lines()
            .find(|l| l.starts_with("001") && l.contains(name))
            .unwrap()
            .to_string()
    };
    assert_eq!(&line("Maya Patel")[69..79], "2009/04/17");
    assert_eq!(line("Leo Kim").chars().nth(98), Some('W'), "GT-R7");
    assert_eq!(line("Eli Moss").chars().nth(98), Some('L'), "GT-R7");
    assert_eq!(line("Ivy Chen").chars().nth(98), Some('0'));
}

/// Issue 11: the rating report is FIDE's: another `--system` is refused with the reason.
#[test]
fn b02_a_rating_report_is_rated_by_fide_only() {
    let out = arbiter(&words(
        "ratings examples/gthscl-division.json --format trf --system league",
    ));
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains(
            "a FIDE rating report (--format trf) rates by B.02; leave out --system league, or give --system fide"
        ),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// GT-R1, GT-R2, GT-R3: the rollover list, for a player established at 1180, one at 1200N and
/// one at 1450 (no games yet, so the season ends where it started).
#[test]
fn ratings_next_season_by_gt_r1_r2_r3() {
    let mut v: Value = serde_json::from_str(
        &std::fs::read_to_string(root().join("examples/gthscl-division.json")).unwrap(),
    )
    .unwrap();
    v["rounds"] = Value::Array(Vec::new());
    let players = v["teams"][0]["players"].as_array_mut().unwrap();
    players[0] = serde_json::json!({"id": "low", "name": "Ann Low", "rating": 1180});
    players[1] =
        serde_json::json!({"id": "new", "name": "Ben New", "rating": 1200, "provisional": true});
    players[2] = serde_json::json!({"id": "high", "name": "Cy High", "rating": 1450});
    let (dir, _) = scratch("arbiter-cli-rollover");
    let file = dir.join("division.json");
    std::fs::write(&file, v.to_string()).unwrap();
    let f = file.to_str().unwrap();
    let out = json(&["ratings", f, "--next-season", "--format", "json"]);
    let next = out["next_season"].as_array().unwrap();
    let by_id = |id: &str| next.iter().find(|p| p["player_id"] == id).unwrap();
    let (low, new, high) = (by_id("low"), by_id("new"), by_id("high"));
    assert_eq!(
        (&low["rating"], &low["rule"]),
        (&Value::from(1200), &Value::from("GT-R2"))
    );
    assert_eq!(low["provisional"], false);
    assert_eq!(
        (&new["rating"], &new["rule"]),
        (&Value::from(1200), &Value::from("GT-R3"))
    );
    assert_eq!(new["provisional"], true);
    assert_eq!(
        (&high["rating"], &high["rule"]),
        (&Value::from(1450), &Value::from("GT-R1"))
    );
    let table = ok_stdout(&["ratings", f, "--next-season"]);
    assert!(
        table.contains("1200N")
            && table.contains(
                "GT-R2: an experienced player starts no lower than 1200 (was 1180, now 1200)"
            ),
        "{table}"
    );
    // Another system has no next season of the league's.
    let refused = arbiter(&["ratings", f, "--next-season", "--system", "fide"]);
    assert!(!refused.status.success());
    let why = String::from_utf8_lossy(&refused.stderr);
    assert!(
        why.contains("GT-R1, GT-R2, GT-R3") && why.contains("--system league"),
        "{why}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// `arbiter check` with the findings it lists of two divisions of one season: each lineup
/// rule broken once (tests/data/check/README.md), in JSON, exit status 1.
#[test]
fn check_lists_every_lineup_rule_broken_across_a_season() {
    let out = arbiter(&words(
        "check crates/arbiter-cli/tests/data/check/metro.json crates/arbiter-cli/tests/data/check/suburban.json --format json",
    ));
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let found: Vec<(String, String, u64, String, String, u64)> = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["rule"].as_str().unwrap().to_string(),
                f["severity"].as_str().unwrap().to_string(),
                f["round"].as_u64().unwrap(),
                f["home"].as_str().unwrap().to_string(),
                f["away"].as_str().unwrap().to_string(),
                f["board"].as_u64().unwrap(),
            )
        })
        .collect();
    let want = |rule: &str, home: &str, away: &str, board| {
        (
            rule.to_string(),
            "violation".to_string(),
            1,
            home.to_string(),
            away.to_string(),
            board,
        )
    };
    assert_eq!(
        found,
        [
            want("GT-M11", "sjj-a", "tcc", 3),
            want("GT-M13", "sjj-a", "tcc", 3),
            want("GT-M14", "nda", "sjj-b", 1),
            want("GT-M15", "whitmer", "sjj-c", 1),
        ]
    );
    let m15 = v["findings"][3]["message"].as_str().unwrap();
    assert!(
        m15.starts_with("Michael Brennan first played for St. John's Jesuit A (GTHSCL 2026-27 Metro Division, 2026-10-05)"),
        "{m15}"
    );
    assert_eq!(
        v["findings"][3]["file"],
        "crates/arbiter-cli/tests/data/check/suburban.json"
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.trim(), "0 errors and 4 violations found");
}

/// A file with several mistakes: every one is listed, with its line, and no other check
/// stops at the first.
#[test]
fn check_reports_every_mistake_of_a_file_it_cannot_read() {
    let out = arbiter(&["check", "crates/arbiter-cli/tests/data/check/broken.json"]);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4, "{text}");
    assert!(
        lines.iter().all(
            |l| l.starts_with("crates/arbiter-cli/tests/data/check/broken.json:")
                && l.contains(": error: ")
        ),
        "{text}"
    );
    assert!(text.contains("no team has the id `zz`"), "{text}");
    assert!(
        text.contains("GT-M10: Three (b1) plays boards 1 and 2"),
        "{text}"
    );
    assert!(text.contains("`2-0` is not a board result"), "{text}");
}

/// A file that keeps its rules: no finding, exit status 0.
#[test]
fn check_passes_a_division_that_keeps_its_rules() {
    let out = arbiter(&["check", "examples/gthscl-division.json", "--format", "json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["findings"], serde_json::json!([]));
}

/// Issue 12: a roster CSV full of mistakes is refused whole with every mistake at its line; a
/// clean one adds each player to their school's team (1200N for the new, GT-R7's unranked for
/// an eighth grader under 14), in the history.
#[test]
fn roster_import_lists_every_mistake_then_adds_the_players() {
    let (dir, db) = scratch("arbiter-cli-roster");
    let db = db.as_str();
    ok_stdout(&cmd(
        "import examples/gthscl-division.json --league gthscl --season 2026-27 --competition maumee --db {}",
        &[db],
    ));
    let roster = |file: &str, extra: &[&str]| {
        let mut args = cmd(
            "roster import {} --league gthscl --competition maumee --db {}",
            &[file, db],
        );
        args.extend_from_slice(extra);
        arbiter(&args)
    };
    let out = roster("crates/arbiter-cli/tests/data/roster/mistakes.csv", &[]);
    assert_eq!(out.status.code(), Some(1));
    let said = String::from_utf8(out.stdout).unwrap();
    for mistake in [
        "line 1, shirt: `shirt` is not a column of a roster",
        "line 2, birth_date: “2010-02-31” is not a date",
        "line 3, rating: “abc” is not a rating",
        "line 4, name: Lena Ortiz of Start High School is on line 2 too",
        "line 5, school: the player's school is missing",
        "line 6, grade: “15” is not a grade",
        "line 6, provisional: “maybe” is neither yes nor no",
    ] {
        assert!(said.contains(mistake), "{mistake}\n{said}");
    }
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("7 mistakes found; nothing was written"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    let new = "crates/arbiter-cli/tests/data/roster/new-players.csv";
    let preview = roster(new, &["--preview"]);
    assert!(
        preview.status.success(),
        "{}",
        String::from_utf8_lossy(&preview.stderr)
    );
    let exported = |name: &str| {
        let path = dir.join(name);
        ok_stdout(&cmd(
            "export --league gthscl --competition maumee --format json -o {} --db {}",
            &[path.to_str().unwrap(), db],
        ));
        std::fs::read_to_string(path).unwrap()
    };
    assert!(
        !exported("before.json").contains("Lena Ortiz"),
        "a preview writes nothing"
    );
    let added = roster(new, &["--reason", "Fall sign-ups"]);
    let text = String::from_utf8(added.stdout).unwrap();
    assert!(
        added.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&added.stderr)
    );
    assert!(
        text.contains("line 2: Lena Ortiz (1200N) joins Toledo Start as start-"),
        "{text}"
    );
    assert!(
        text.contains("line 3: Marcus Bell (1380) joins St. John's Jesuit B"),
        "{text}"
    );
    assert!(
        text.contains("line 4: Ivy Chen (1200N) joins Toledo Start") && text.contains("GT-R7"),
        "{text}"
    );
    let after = exported("after.json");
    assert!(
        after.contains("Lena Ortiz") && after.contains("Marcus Bell"),
        "{after}"
    );
    assert!(after.contains("\"unranked\": true"), "{after}");
    // Once more: they are on the rosters already, and nothing is written twice.
    let again = roster(new, &[]);
    assert_eq!(again.status.code(), Some(1));
    assert!(
        String::from_utf8(again.stdout)
            .unwrap()
            .contains("on Toledo Start's roster already")
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// The league `gthscl` in the database `db` with its season 2027-28 (4 Oct to 23 Feb) and the
/// closures of `tests/data/season/closures.csv`.
fn league_with_season(db: &str) {
    let closures = "crates/arbiter-cli/tests/data/season/closures.csv";
    for args in [
        &cmd(
            "league create --slug gthscl --name {} --time-zone America/New_York",
            &["Greater Toledo High School Chess League"],
        )[..],
        &cmd(
            "season create --league gthscl --name 2027-28 --starts 2027-10-04 --ends 2028-02-23 --closures {}",
            &[closures],
        ),
    ] {
        ok_stdout(&[args, &["--db", db]].concat());
    }
}

/// RULES.md, "Time": a league is made with its IANA time zone and may change it; an unknown
/// zone is refused with a sentence naming it, and nothing is made.
#[test]
fn a_league_has_its_time_zone_and_an_unknown_one_is_refused() {
    let (dir, db) = scratch("arbiter-cli-zone");
    let db = db.as_str();
    let create = |zone: &str| {
        arbiter(&cmd(
            "league create --slug astc --name ASTC --event --time-zone {} --db {}",
            &[zone, db],
        ))
    };
    let refused = create("Australia/Adelaid");
    assert!(!refused.status.success());
    let said = String::from_utf8_lossy(&refused.stderr);
    assert!(
        said.contains("“Australia/Adelaid” is not a time zone of the IANA tz database"),
        "{said}"
    );
    let made = create("Australia/Adelaide");
    let said = String::from_utf8_lossy(&made.stderr);
    assert!(made.status.success(), "{said}");
    assert!(
        said.contains("its days counted in Australia/Adelaide"),
        "{said}"
    );
    let set = arbiter(&cmd(
        "league set --slug astc --time-zone Australia/Perth --db {}",
        &[db],
    ));
    let said = String::from_utf8_lossy(&set.stderr);
    assert!(set.status.success(), "{said}");
    assert!(
        said.contains("counts its days in Australia/Perth (was Australia/Adelaide)"),
        "{said}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 32: an officer sets a school's postal address from the command line, where its home
/// matches are played (GT-M1); `school list` shows it; an unknown school is refused naming the
/// league's schools, an address with a tab is refused with the sentence, and an empty one
/// clears it. Each change is in the history.
#[test]
fn a_schools_address_is_set_listed_and_cleared() {
    let (dir, db) = scratch("arbiter-cli-school");
    let db = db.as_str();
    league_with_season(db);
    ok_stdout(&cmd(
        "division create --new-schools crates/arbiter-cli/tests/data/season/metro-teams.csv --league gthscl --season 2027-28 --name Metro --db {}",
        &[db],
    ));
    let set = |school: &str, address: &str| {
        arbiter(&cmd(
            "school set --league gthscl --school {} --address {} --db {}",
            &[school, address, db],
        ))
    };
    let unknown = set("Whitmer High School", "5601 Clegg Dr");
    assert!(!unknown.status.success());
    let said = String::from_utf8_lossy(&unknown.stderr);
    assert!(
        said.contains("has no school named “Whitmer High School”; its schools are: Anthony Wayne High School, Maumee High School"),
        "{said}"
    );
    let tabbed = set("Toledo Whitmer High School", "5601\tClegg Dr");
    assert!(!tabbed.status.success());
    let said = String::from_utf8_lossy(&tabbed.stderr);
    assert!(
        said.contains(
            "The address of Toledo Whitmer High School holds U+0009 (a tab) at character 5"
        ),
        "{said}"
    );
    let done = set(
        "Toledo Whitmer High School",
        "5601 Clegg Dr\nToledo, OH 43613",
    );
    let said = String::from_utf8_lossy(&done.stderr);
    assert!(done.status.success(), "{said}");
    assert!(
        said.contains("Toledo Whitmer High School is at 5601 Clegg Dr, Toledo, OH 43613"),
        "{said}"
    );
    let list = ok_stdout(&["school", "list", "--league", "gthscl", "--db", db]);
    assert!(
        list.contains("Toledo Whitmer High School\t5601 Clegg Dr, Toledo, OH 43613\n"),
        "{list}"
    );
    assert!(
        list.contains("Maumee High School\t(no address)\n"),
        "{list}"
    );
    let cleared = set("Toledo Whitmer High School", "");
    assert!(cleared.status.success());
    assert!(String::from_utf8_lossy(&cleared.stderr).contains("has no address now"));
    let changes = tokio::runtime::Runtime::new().unwrap().block_on(async {
        let store = arbiter_store::Store::open(db).await.unwrap();
        store
            .history(&arbiter_store::HistoryFilter::default())
            .await
            .unwrap()
            .into_iter()
            .filter(|h| h.action == arbiter_store::HistoryAction::SetSchoolAddress)
            .count()
    });
    assert_eq!(changes, 2, "set, then cleared");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The competition `competition` of the league `gthscl` in `db`, exported as competition JSON
/// into `dir` and read back.
fn exported(dir: &Path, db: &str, competition: &str) -> Value {
    let path = dir.join(format!("{competition}.json"));
    ok_stdout(&cmd(
        "export --league gthscl --competition {} --format json -o {} --db {}",
        &[competition, path.to_str().unwrap(), db],
    ));
    serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap()
}

/// Issue 12: the GTHSCL's next season built from nothing through the CLI from CSV files: the
/// league, the season with its closures (GT-M2), a division drawn from its teams on the Monday
/// and Wednesday match days, never on a closure, and its rosters (GT-O1, GT-R3).
#[test]
fn a_season_is_built_from_csv_files() {
    let (dir, db) = scratch("arbiter-cli-season");
    let db = db.as_str();
    let data = "crates/arbiter-cli/tests/data/season";
    league_with_season(db);
    let division = |file: &str, extra: &[&str]| {
        let file = format!("{data}/{file}");
        let mut args = cmd(
            "division create --new-schools {} --league gthscl --season 2027-28 --name Metro --db {}",
            &[file.as_str(), db],
        );
        args.extend_from_slice(extra);
        arbiter(&args)
    };
    let refused = division("mistakes-teams.csv", &[]);
    assert_eq!(refused.status.code(), Some(1));
    let said = String::from_utf8(refused.stdout).unwrap();
    // Every mistake at once: the file's, then the draw's of the one team left.
    for mistake in [
        "line 1, colour: `colour` is not a column of a division's teams",
        "line 1: a division plays a round robin of at least 2 teams, and 1 was given",
        "line 3, school: the team's school is missing",
    ] {
        assert!(said.contains(mistake), "{mistake}\n{said}");
    }
    assert!(
        String::from_utf8_lossy(&refused.stderr).contains("3 problems found; nothing was written")
    );

    let preview = division("metro-teams.csv", &["--preview"]);
    assert!(
        preview.status.success(),
        "{}",
        String::from_utf8_lossy(&preview.stderr)
    );
    let schedule = String::from_utf8(preview.stdout).unwrap();
    assert_eq!(
        schedule.lines().count(),
        1 + 10,
        "the Berger numbers, then six teams twice round: {schedule}"
    );
    assert!(
        schedule.starts_with("Berger numbers (AS-19): 1 Whitmer, 2 St. John's Jesuit A"),
        "{schedule}"
    );
    assert!(schedule.contains("\nround 1 2027-10-04: "), "{schedule}");
    let created = division("metro-teams.csv", &[]);
    assert!(
        created.status.success(),
        "{}",
        String::from_utf8_lossy(&created.stderr)
    );
    let roster = format!("{data}/metro-rosters.csv");
    ok_stdout(&cmd(
        "roster import {} --league gthscl --competition metro --db {}",
        &[&roster, db],
    ));
    let v = exported(&dir, db, "metro");
    let teams = v["teams"].as_array().unwrap();
    assert_eq!(teams.len(), 6);
    let sjj_a = teams
        .iter()
        .find(|t| t["name"] == "St. John's Jesuit A")
        .unwrap();
    assert_eq!(sjj_a["players"].as_array().unwrap().len(), 2);
    let rounds = v["rounds"].as_array().unwrap();
    assert_eq!(rounds.len(), 10);
    let closed = |d: &str| {
        ("2027-11-24"..="2027-11-26").contains(&d)
            || ("2027-12-20"..="2028-01-02").contains(&d)
            || d == "2028-01-17"
            || d == "2028-02-21"
    };
    for r in rounds {
        let d = r["date"].as_str().unwrap();
        let day: jiff::civil::Date = d.parse().unwrap();
        assert!(
            matches!(
                day.weekday(),
                jiff::civil::Weekday::Monday | jiff::civil::Weekday::Wednesday
            ),
            "{d}"
        );
        assert!(!closed(d), "{d} is a closure");
    }
    // A player withdrawn from a day stays on the roster, marked.
    let whitmer = teams.iter().find(|t| t["name"] == "Whitmer").unwrap();
    let ava = whitmer["players"][0]["id"].as_str().unwrap();
    ok_stdout(&cmd(
        "roster withdraw --league gthscl --competition metro --player {} --on 2028-01-10 --reason {} --db {}",
        &[ava, "Moved away", db],
    ));
    let v = exported(&dir, db, "metro");
    let whitmer = v["teams"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "Whitmer")
        .unwrap();
    assert_eq!(whitmer["players"][0]["withdrawn"], "2028-01-10");
    assert_eq!(whitmer["players"].as_array().unwrap().len(), 4);
    let _ = std::fs::remove_dir_all(&dir);
}

/// GT-O2: `arbiter ledger record` checks an entry as the site does and keeps it; `arbiter
/// ledger` prints the statement: each school's $10 fee once (St. John's Jesuit has two teams),
/// paid or owed, the prize purchases and the totals, as a table, CSV or JSON.
#[test]
fn ledger_records_entries_and_prints_the_statement() {
    let (dir, db) = scratch("arbiter-cli-ledger");
    let db = db.as_str();
    ok_stdout(&cmd(
        "import examples/gthscl-division.json --league gthscl --season 2026-27 --competition maumee --db {}",
        &[db],
    ));
    let record = |extra: &[&str]| {
        let mut args = vec!["ledger", "record", "--league", "gthscl", "--db", db];
        args.extend_from_slice(extra);
        arbiter(&args)
    };
    let refused = record(&cmd(
        "--kind payment --school {} --amount abc --on 2026-12-01",
        &["Start High School"],
    ));
    assert_eq!(refused.status.code(), Some(1));
    let said = String::from_utf8(refused.stdout).unwrap();
    assert!(
        said.contains("amount: “abc” is not an amount of money"),
        "{said}"
    );
    assert!(
        String::from_utf8_lossy(&refused.stderr).contains("nothing was recorded"),
        "{}",
        String::from_utf8_lossy(&refused.stderr)
    );
    for entry in [
        [
            "payment",
            "St. John's Jesuit High School",
            "20",
            "cheque 2231",
        ],
        [
            "refund",
            "St. John's Jesuit High School",
            "10",
            "the fee is per school",
        ],
        ["payment", "Start High School", "$10.00", "cash"],
        ["prize_purchase", "", "84.50", "three division trophies"],
        ["waiver", "Perrysburg High School", "4", "new to the league"],
    ] {
        let mut args = cmd(
            "--kind {} --amount {} --on 2026-12-01",
            &[entry[0], entry[2]],
        );
        if !entry[1].is_empty() {
            args.extend(["--school", entry[1]]);
        }
        args.extend(["--note", entry[3]]);
        let out = record(&args);
        assert!(
            out.status.success(),
            "{entry:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let table = ok_stdout(&["ledger", "--league", "gthscl", "--db", db]);
    assert!(table.contains("the fee ledger (GT-O2)"), "{table}");
    let sjj = table
        .lines()
        .find(|l| l.starts_with("St. John's Jesuit"))
        .unwrap();
    assert!(
        sjj.contains("$20.00") && sjj.ends_with("paid in full"),
        "{sjj}"
    );
    let perrysburg = table.lines().find(|l| l.starts_with("Perrysburg")).unwrap();
    assert!(perrysburg.ends_with("owes $6.00"), "{perrysburg}");
    assert!(table.contains("Fees due $50.00 · waived $4.00 · received $30.00 · still owed $26.00 · refunds $10.00 · prizes $84.50 · cash −$64.50"), "{table}");
    assert!(table.contains("three division trophies"), "{table}");

    let csv = ok_stdout(&cmd("ledger --league gthscl --format csv --db {}", &[db]));
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines[0], "school,due,waived,paid,refunded,owes,standing");
    assert_eq!(lines.len(), 6, "{csv}");
    assert!(
        csv.contains("Start High School,10.00,0.00,10.00,0.00,0.00,paid in full"),
        "{csv}"
    );

    let j = json(&cmd("ledger --league gthscl --format json --db {}", &[db]));
    assert_eq!(j["entry_fee"], "10.00");
    assert_eq!(j["totals"]["due"], "50.00");
    assert_eq!(j["entries"].as_array().unwrap().len(), 5);
    assert_eq!(j["totals"]["waived"], "4.00");
    assert_eq!(j["entries"][0]["recorded_by"], Value::Null);
    assert_eq!(j["prizes"][0]["amount"], "84.50");

    // A mistake is reversed, never removed.
    let undone = record(&cmd(
        "--kind reversal --reverses 3 --on 2026-12-02 --note {}",
        &["Start paid by cheque, not cash"],
    ));
    assert!(
        undone.status.success(),
        "{}",
        String::from_utf8_lossy(&undone.stderr)
    );
    let j = json(&cmd("ledger --league gthscl --format json --db {}", &[db]));
    assert_eq!(j["entries"].as_array().unwrap().len(), 6);
    assert_eq!(j["entries"][2]["in_force"], false);
    assert_eq!(j["entries"][2]["reversed_by"], 6);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Issue 32 item 5 (GT-O2, GT-F3): `arbiter settings` lists a season's settings with their
/// rules; `arbiter settings set` refuses every mistake at once and saves nothing, then changes
/// the fee and the qualifiers as a new version of the rules, which the ledger then reads.
#[test]
fn settings_are_listed_and_changed_as_the_site_changes_them() {
    let (dir, db) = scratch("arbiter-cli-settings");
    let db = db.as_str();
    ok_stdout(&cmd(
        "import examples/gthscl-division.json --league gthscl --season 2026-27 --competition maumee --db {}",
        &[db],
    ));
    let listed = ok_stdout(&["settings", "--league", "gthscl", "--db", db]);
    assert!(listed.contains("entry_fee"), "{listed}");
    assert!(listed.contains("10.00"), "{listed}");
    assert!(listed.contains("the entry fee (GT-O2)"), "{listed}");
    assert!(listed.contains("qualifiers_per_division"), "{listed}");

    let refused = arbiter(&cmd(
        "settings set --league gthscl --entry-fee ten --qualifiers 0 --db {}",
        &[db],
    ));
    assert_eq!(refused.status.code(), Some(1));
    let said = String::from_utf8(refused.stdout).unwrap();
    assert!(said.contains("entry_fee: The entry fee (GT-O2)"), "{said}");
    assert!(
        said.contains("qualifiers_per_division: “0” is not a number of teams"),
        "{said}"
    );
    assert!(
        String::from_utf8_lossy(&refused.stderr).contains("2 problems found; nothing was saved"),
        "{}",
        String::from_utf8_lossy(&refused.stderr)
    );

    let changed = ok_stdout(&cmd(
        "settings set --league gthscl --entry-fee 12.50 --qualifiers 3 --reason {} --db {}",
        &["organizational meeting", db],
    ));
    assert!(
        changed.contains("the entry fee (GT-O2) from $10.00 to $12.50"),
        "{changed}"
    );
    let ledger = ok_stdout(&["ledger", "--league", "gthscl", "--db", db]);
    assert!(ledger.contains("$12.50"), "{ledger}");
    let listed = ok_stdout(&["settings", "--league", "gthscl", "--db", db]);
    assert!(listed.contains("12.50"), "{listed}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// GT-F5: `arbiter schedule suspend` prints every match a suspension moves, old day and new;
/// with `--preview` it moves nothing, a shift past the season's last day says the day the season
/// then runs to, and otherwise every match still to play moves.
#[test]
fn gt_f5_schedule_suspend_previews_then_moves_every_match_still_to_play() {
    let (dir, db) = scratch("arbiter-cli-suspend");
    let db = db.as_str();
    league_with_season(db);
    // Ten rounds on the first ten match days, Mondays and Wednesdays from 4 Oct.
    ok_stdout(&cmd(
        "division create --new-schools crates/arbiter-cli/tests/data/season/metro-teams.csv --league gthscl --season 2027-28 --name Metro --packed --db {}",
        &[db],
    ));
    let suspend = |extra: &[&str]| {
        let mut args = cmd(
            "schedule suspend --league gthscl --season 2027-28 --db {}",
            &[db],
        );
        args.extend_from_slice(extra);
        arbiter(&args)
    };
    let round_3 = || exported(&dir, db, "metro")["rounds"][2].clone();
    let week = ["--from", "2027-10-11", "--resume-on", "2027-10-18"];

    let preview = suspend(&[&week[..], &["--preview"]].concat());
    assert!(
        preview.status.success(),
        "{}",
        String::from_utf8_lossy(&preview.stderr)
    );
    let plan = String::from_utf8(preview.stdout).unwrap();
    assert!(
        plan.starts_with("Metro: 2 match days lost (GT-F5)\n"),
        "{plan}"
    );
    assert!(
        plan.contains("Metro, round 3, St. John's Jesuit A v Perrysburg: 2027-10-11 -> 2027-10-18"),
        "{plan}"
    );
    assert_eq!(plan.lines().count(), 1 + 24, "rounds 3 to 10 move: {plan}");
    assert!(String::from_utf8_lossy(&preview.stderr).contains("nothing was moved"));
    assert_eq!(
        round_3()["matches"][0]["date"],
        Value::Null,
        "{}",
        round_3()
    );

    // Resumed later, the season ends later (GT-F5): the plan says to which day.
    let long = suspend(&words("--from 2027-10-11 --resume-on 2028-02-21 --preview"));
    assert!(
        long.status.success(),
        "{}",
        String::from_utf8_lossy(&long.stderr)
    );
    let said = String::from_utf8(long.stdout).unwrap();
    assert!(
        said.contains("Metro, round 10, Whitmer v Maumee: 2027-11-03 -> 2028-03-20"),
        "{said}"
    );
    assert!(
        said.contains("the last matches move past the season's last day (2028-02-23), so the season runs on to 2028-03-20 (GT-F5)"),
        "{said}"
    );
    assert!(String::from_utf8_lossy(&long.stderr).contains("nothing was moved"));

    let applied = suspend(&[&week[..], &["--reason", "Ice storm"]].concat());
    assert!(
        applied.status.success(),
        "{}",
        String::from_utf8_lossy(&applied.stderr)
    );
    assert!(String::from_utf8_lossy(&applied.stderr).contains("24 matches moved"));
    let r3 = round_3();
    assert_eq!(r3["date"], "2027-10-11", "the match keeps its round: {r3}");
    for m in r3["matches"].as_array().unwrap() {
        assert_eq!(m["date"], "2027-10-18", "{r3}");
    }

    // Issue 32 item 8: undone by the President, through the site's write path; every match
    // goes back to its day.
    ok_stdout(&cmd(
        "user add --email president@gthscl.example --role president --league gthscl --db {}",
        &[db],
    ));
    let undone = suspend(
        &[
            &week[..],
            &cmd(
                "--undo --by president@gthscl.example --reason {}",
                &["The storm missed us."],
            ),
        ]
        .concat(),
    );
    assert!(
        undone.status.success(),
        "{}",
        String::from_utf8_lossy(&undone.stderr)
    );
    assert!(
        String::from_utf8_lossy(&undone.stderr).contains("24 matches moved back"),
        "{}",
        String::from_utf8_lossy(&undone.stderr)
    );
    let said = String::from_utf8(undone.stdout).unwrap();
    assert!(
        said.contains("Metro, round 3, St. John's Jesuit A v Perrysburg: 2027-10-18 -> 2027-10-11"),
        "{said}"
    );
    for m in round_3()["matches"].as_array().unwrap() {
        assert!(
            m["date"] == Value::Null || m["date"] == "2027-10-11",
            "back on its round's day: {m}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// GT-P4, GT-M3, GT-M20: `arbiter result` takes an officer's step on one match as a named
/// account, through the site's checks: the late report's double forfeit only once the result is
/// overdue, a forfeit by decision naming the offender, an adjudication only of a game sent for
/// it, and an advisor refused by the permission table. Each step is in the export and the
/// schools' advisors are mailed.
#[test]
fn gt_p4_gt_m3_officers_act_on_a_match_from_the_command_line() {
    let (dir, db) = scratch("arbiter-cli-officer");
    let db = db.as_str();
    let mail = dir.join("mail");
    let run = |args: &[&str]| arbiter_mailing(args, &mail);
    league_with_season(db);
    ok_stdout(&cmd(
        "division create --new-schools crates/arbiter-cli/tests/data/season/metro-teams.csv --league gthscl --season 2027-28 --name Metro --packed --db {}",
        &[db],
    ));
    let add = |email: &str, role: &str, school: Option<&str>| {
        let mut args = cmd(
            "user add --email {} --role {} --league gthscl --db {}",
            &[email, role, db],
        );
        if let Some(s) = school {
            args.extend_from_slice(&["--school", s]);
        }
        let out = run(&args);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    add("president@gthscl.example", "president", None);
    let rounds = exported(&dir, db, "metro")["rounds"].clone();
    let home_of = |round: usize| {
        rounds[round - 1]["matches"][0]["home"]
            .as_str()
            .unwrap()
            .to_string()
    };
    let school_of = |team: &str| {
        let teams = exported(&dir, db, "metro")["teams"].clone();
        teams
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["id"] == team)
            .map(|t| t["school"].as_str().unwrap().to_string())
            .unwrap()
    };
    let home_1 = home_of(1);
    add("coach@home.example", "advisor", Some(&school_of(&home_1)));
    let mails = || std::fs::read_dir(&mail).map_or(0, |d| d.count());
    let step = |sub: &str, round: usize, by: &str, today: &str, extra: &[&str]| {
        let home = home_of(round);
        let round = round.to_string();
        let mut args = cmd(
            "result {} --league gthscl --season 2027-28 --division metro --round {} --home {} --as {} --reason {} --today {} --db {}",
            &[sub, &round, &home, by, "No result reported", today, db],
        );
        args.extend_from_slice(extra);
        run(&args)
    };

    // Round 1 is on 4 October; its result is due by the end of the 5th (GT-P2).
    let early = step(
        "late-report",
        1,
        "president@gthscl.example",
        "2027-10-05",
        &[],
    );
    assert!(!early.status.success());
    let err = String::from_utf8_lossy(&early.stderr);
    assert!(
        err.contains("GT-P4") && err.contains("Nothing was stored"),
        "{err}"
    );

    let advisor = step("late-report", 1, "coach@home.example", "2027-10-06", &[]);
    assert!(!advisor.status.success());
    let err = String::from_utf8_lossy(&advisor.stderr);
    assert!(
        err.contains("GT-P4"),
        "the permission table's refusal: {err}"
    );

    let before = mails();
    let late = step(
        "late-report",
        1,
        "president@gthscl.example",
        "2027-10-06",
        &[],
    );
    assert!(
        late.status.success(),
        "{}",
        String::from_utf8_lossy(&late.stderr)
    );
    let said = String::from_utf8_lossy(&late.stdout);
    assert!(
        said.contains("round 1") && said.contains("by president@gthscl.example as President"),
        "{said}"
    );
    assert_eq!(mails(), before + 1, "the home school's advisor is told");

    let forfeit = step(
        "forfeit",
        2,
        "president@gthscl.example",
        "2027-10-07",
        &["--offender", "away"],
    );
    assert!(
        forfeit.status.success(),
        "{}",
        String::from_utf8_lossy(&forfeit.stderr)
    );
    let nobody_adjourned = step(
        "adjudicate",
        3,
        "president@gthscl.example",
        "2027-10-12",
        &["--board", "1", "--result", "1-0"],
    );
    assert!(!nobody_adjourned.status.success());
    let err = String::from_utf8_lossy(&nobody_adjourned.stderr);
    assert!(err.contains("nothing to adjudicate"), "{err}");

    let rounds = exported(&dir, db, "metro")["rounds"].clone();
    assert_eq!(
        rounds[0]["matches"][0]["double_forfeit"], true,
        "{}",
        rounds[0]["matches"][0]
    );
    assert_eq!(
        rounds[1]["matches"][0]["forfeit"], "away",
        "{}",
        rounds[1]["matches"][0]
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// AS-5, AS-6, AS-8: `arbiter astc field` plans the example's field of five: the host adds the
/// sixth, or, when it cannot, the first state of the previous finish but the host; the lot
/// orders the states not placed last time, the same for the same seed.
#[test]
fn as_5_to_as_8_astc_field_plans_the_example_entries() {
    let field = |extra: &[&str]| {
        let mut args = words(
            "astc field examples/astc-field-entries.json --previous examples/astc-field-previous.json --host SA --format json",
        );
        args.extend_from_slice(extra);
        json(&args)
    };
    let v = field(&["--seed", "7"]);
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(
        keys,
        [
            "field_before",
            "field_after",
            "steps",
            "invitation_order",
            "lot_seed"
        ]
    );
    assert_eq!(
        (v["field_before"].as_u64(), v["field_after"].as_u64()),
        (Some(5), Some(6))
    );
    assert_eq!(v["lot_seed"], 7);
    let steps = v["steps"].as_array().unwrap();
    assert_eq!(steps.len(), 1);
    assert_eq!(steps[0]["clause"], "AS-5");
    assert_eq!(steps[0]["invite"], "SA");
    assert!(
        steps[0]["reason"]
            .as_str()
            .unwrap()
            .contains("the host, SA, nominates")
    );
    let order: Vec<&str> = v["invitation_order"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap())
        .collect();
    // The previous finish's states by their best place (SA's is 3rd), then the lot's.
    assert_eq!(&order[..5], ["NSW", "VIC", "SA", "QLD", "WA"]);
    let mut rest = order[5..].to_vec();
    rest.sort_unstable();
    assert_eq!(rest, ["ACT", "NT", "TAS"]);
    assert_eq!(
        field(&["--seed", "7"]),
        v,
        "the same seed draws the same order"
    );
    assert_ne!(
        field(&["--seed", "8"])["invitation_order"],
        v["invitation_order"],
        "another seed draws another lot"
    );

    // AS-6: the host cannot add; NSW, first in the order, is invited though it has a team.
    let v = field(&["--seed", "7", "--host-cannot-add"]);
    assert_eq!(v["steps"][0]["clause"], "AS-6");
    assert_eq!(v["steps"][0]["invite"], "NSW");

    // The table, for an officer, fits an 80-column terminal.
    let text = ok_stdout(&words(
        "astc field crates/arbiter-cli/tests/data/astc/entries-three.json --host SA --seed 1",
    ));
    assert!(
        text.starts_with("Primary Girls: 3 teams entered."),
        "{text}"
    );
    assert_eq!(text.matches(" AS-7 ").count(), 3, "{text}");
    assert!(text.contains("Invitation order (AS-8)"), "{text}");
    for line in text.lines() {
        assert!(line.chars().count() <= 80, "too wide: {line}");
    }
}

/// AS-4: a second team of one school and an unknown state are refused at their places in the
/// file; a wrong host or a missing file is a sentence.
#[test]
fn as_4_astc_field_refuses_a_school_twice_with_its_place() {
    let out = arbiter(&words(
        "astc field crates/arbiter-cli/tests/data/astc/entries-school-twice.json --host SA --seed 1",
    ));
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("entries-school-twice.json:6:22: entry 3, school: AS-4: Highgate School has a team already (entry 1)"),
        "{err}"
    );
    assert!(
        err.contains(
            "entries-school-twice.json:7:7: entry 4, state: AS-4: “NZ” is not a state or territory"
        ),
        "{err}"
    );
    let out = arbiter(&words(
        "astc field examples/astc-field-entries.json --host NZ --seed 1",
    ));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        err.contains("--host: “NZ” is not a state or territory"),
        "{err}"
    );
    let out = arbiter(&words("astc field no/such/entries.json --host SA --seed 1"));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("cannot read no/such/entries.json"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    // The host's team is counted (AS-5..AS-7): a field without one is the ACF's (by-law 3(g)).
    let out = arbiter(&words(
        "astc field examples/astc-field-entries.json --host TAS --seed 1",
    ));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("TAS, and Secondary Girls has none"), "{err}");
}

/// Issue 15 from the command line: qualification from the final standings (GT-F3), the awards
/// list as CSV (GT-F1), the product's draft of the midway report (GT-O3), and a draw refused
/// when the season has no match days left for the playoff calendar (GT-F5).
#[test]
fn gt_f3_gt_o3_playoffs_awards_and_reports_from_the_command_line() {
    let (dir, db) = scratch("arbiter-cli-season-end");
    let db = db.as_str();
    ok_stdout(&cmd(
        "import examples/gthscl-division.json --league gthscl --season 2026-27 --competition maumee --db {}",
        &[db],
    ));
    let season = ["--league", "gthscl", "--season", "2026-27", "--db", db];
    fn with<'a>(first: &[&'a str], season: &[&'a str], extra: &[&'a str]) -> Vec<&'a str> {
        [first, season, extra].concat()
    }
    let qualify = ok_stdout(&with(&["playoffs", "qualify"], &season, &[]));
    // GT-M5: the dropped team's match left out is not still to play: the division is final.
    assert!(qualify.contains("1. St. John's Jesuit A"), "{qualify}");
    assert!(qualify.contains("The field (GT-F3):"), "{qualify}");
    let csv = ok_stdout(&with(&["awards"], &season, &["--format", "csv"]));
    assert!(
        csv.starts_with("award,rule,team,school,players\r\n"),
        "{csv}"
    );
    assert!(csv.contains("GT-F1"), "{csv}");
    let draft = ok_stdout(&with(
        &["report", "draft"],
        &season,
        &["--moment", "midway"],
    ));
    assert!(draft.contains("the season at midway"), "{draft}");
    let md = ok_stdout(&with(
        &["report", "draft"],
        &season,
        &["--moment", "end", "--format", "markdown"],
    ));
    assert!(md.starts_with('#'), "{md}");
    let wrong = arbiter(&with(&["report", "draft"], &season, &["--moment", "half"]));
    assert!(!wrong.status.success());
    assert!(
        String::from_utf8_lossy(&wrong.stderr).contains("“half” is not a report"),
        "{}",
        String::from_utf8_lossy(&wrong.stderr)
    );
    // The season ends with its last round: no match days are left for the playoffs (GT-F5).
    let added = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args([
            "user",
            "add",
            "--email",
            "president@gthscl.example",
            "--role",
            "president",
            "--league",
            "gthscl",
            "--db",
            db,
        ])
        .current_dir(root())
        .env_remove("ARBITER_SMTP_URL")
        .env("ARBITER_MAIL_DIR", dir.join("mail"))
        .output()
        .unwrap();
    assert!(added.status.success(), "{added:?}");
    let drawn = arbiter(&with(
        &["playoffs", "draw"],
        &season,
        &["--as", "president@gthscl.example"],
    ));
    assert!(!drawn.status.success());
    assert!(
        String::from_utf8_lossy(&drawn.stderr).contains("GT-F5: 1 playoff round and the bye date"),
        "{}",
        String::from_utf8_lossy(&drawn.stderr)
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// AS-1, AS-3, AS-11: the arbiter sets an event's days from the command line through the
/// site's own checks; a wrong offset stores nothing; the event prints with each round's
/// lineup deadline and the roster lock.
#[test]
fn as_11_the_arbiter_sets_the_event_from_the_command_line() {
    let (dir, db) = scratch("arbiter-cli-event");
    let db = db.as_str();
    let run = |args: &[&str]| arbiter_mailing(args, &dir.join("mail"));
    let succeeds = |args: &[&str]| {
        let out = run(args);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    succeeds(&cmd(
        "import examples/astc-secondary-open.json --league astc --season 2026 --competition secondary-open --db {}",
        &[db],
    ));
    succeeds(&cmd(
        "user add --email arbiter@astc.example --role arbiter --league astc --db {}",
        &[db],
    ));
    let csv = dir.join("starts.csv");
    let mut text = String::from("competition,round,starts_at\n");
    for round in 1..=7 {
        let day = 7 + (round - 1) / 2;
        let time = if round % 2 == 1 { "09:30" } else { "14:00" };
        text.push_str(&format!("secondary-open,{round},2026-12-{day:02}T{time}\n"));
    }
    std::fs::write(&csv, text).unwrap();
    let set = |offset: &str| {
        run(&cmd(
            "astc event astc 2026 --set {} --name {} --host SA --venue {} --offset {} --as arbiter@astc.example --db {}",
            &[
                csv.to_str().unwrap(),
                "ASTC 2026",
                "Adelaide Convention Centre",
                offset,
                db,
            ],
        ))
    };
    let wrong = set("10:30");
    assert!(!wrong.status.success());
    let said = String::from_utf8_lossy(&wrong.stderr);
    assert!(said.contains("is not an offset from UTC"), "{said}");
    assert!(said.contains("Nothing was stored."), "{said}");
    let shown = succeeds(&["astc", "event", "astc", "2026", "--db", db]);
    assert!(shown.contains("has no event set yet"), "{shown}");

    let out = set("+10:30");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let printed = String::from_utf8(out.stdout).unwrap();
    assert!(printed.contains("ASTC 2026 at Adelaide Convention Centre, hosted by South Australia (the hall's clock: UTC+10:30), version 1"), "{printed}");
    assert!(
        printed.contains("rosters lock 2026-12-07 09:00 (AS-12); protests close 09:10 (AS-13)"),
        "{printed}"
    );
    assert!(
        printed.contains("round 2: 2026-12-07 14:00, lineups due 13:45 (AS-11)"),
        "{printed}"
    );
}

/// AS-19: `division create` places the teams the file numbers (the host at 1, a seed at 6)
/// and numbers the rest by lot from `--lot-seed`: the same seed, the same numbers.
#[test]
fn as_19_division_create_places_the_host_and_draws_the_rest_by_lot() {
    let (dir, db) = scratch("arbiter-cli-berger");
    let db = db.as_str();
    league_with_season(db);
    let teams = dir.join("teams.csv");
    std::fs::write(
        &teams,
        "school,team,number\n\
         Glenunga International High School,SA,1\n\
         Melbourne High School,VIC,6\n\
         James Ruse Agricultural High School,NSW,\n\
         Brisbane State High School,QLD,\n\
         Perth Modern School,WA,\n\
         Canberra Grammar School,ACT,\n",
    )
    .unwrap();
    let draw = |seed: &str| {
        ok_stdout(&cmd(
            "division create --new-schools {} --league gthscl --season 2027-28 --name {} --rules astc --single --packed --lot-seed {} --preview --db {}",
            &[teams.to_str().unwrap(), "Secondary Open", seed, db],
        ))
    };
    let first = draw("7");
    let numbers = first.lines().next().unwrap();
    assert!(
        numbers.starts_with("Berger numbers (AS-19): 1 SA, 2 ") && numbers.ends_with(", 6 VIC"),
        "{first}"
    );
    // Berger round 1 for six: 1-6 first.
    assert!(
        first.contains("round 1 ") && first.contains(": SA – VIC;"),
        "{first}"
    );
    assert_eq!(draw("7"), first, "the same seed draws the same numbers");
    assert!(
        (8..30).any(|seed| draw(&seed.to_string()).lines().next() != Some(numbers)),
        "another seed draws other numbers"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 14 through the command line alone: an ASTC competition of six from its field to its
/// final standings. The event is created, the field planned (AS-5..AS-8), the teams drawn with
/// the host at 1 and the rest by lot (AS-19), the rosters imported, the round times set
/// (AS-1), a lineup named on time and one refused after its deadline unless the arbiter
/// accepts it with a reason (AS-11), every match of every round entered by the arbiter, and
/// the standings of the exported file are those the boards say.
#[test]
fn an_astc_competition_is_run_from_field_to_final_standings_on_the_command_line() {
    let (dir, db) = scratch("arbiter-cli-astc-run");
    let db = db.as_str();
    let with_db = |args: &[&str]| ok_stdout(&[args, &["--db", db]].concat());
    with_db(&words("league create --slug astc --name ASTC --event"));
    with_db(&words(
        "season create --league astc --name 2026 --starts 2026-12-07 --ends 2026-12-10",
    ));
    // The arbiter's account; its set-password mail goes to the test's folder.
    let added = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args([
            "user",
            "add",
            "--email",
            "arbiter@astc.example",
            "--role",
            "arbiter",
            "--league",
            "astc",
            "--db",
            db,
        ])
        .env("ARBITER_MAIL_DIR", dir.join("mail"))
        .output()
        .unwrap();
    assert!(
        added.status.success(),
        "{}",
        String::from_utf8_lossy(&added.stderr)
    );
    // AS-5..AS-8: the field of five needs the host's second team to make six.
    let plan = json(&words(
        "astc field examples/astc-field-entries.json --host SA --seed 7 --format json",
    ));
    assert_eq!(plan["field_after"], 6, "{plan}");

    let states = ["SA", "VIC", "NSW", "QLD", "WA", "ACT"];
    let mut teams = String::from("school,team,number\n");
    let mut rosters = String::from("name,school,rating\n");
    for (i, state) in states.iter().enumerate() {
        let number = if i == 0 { "1" } else { "" };
        teams.push_str(&format!("{state} High School,{state},{number}\n"));
        for board in 1..=6 {
            let rating = 2000 - 100 * i - 50 * board;
            rosters.push_str(&format!(
                "{state} Player {board},{state} High School,{rating}\n"
            ));
        }
    }
    let file = |name: &str, text: &str| {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path.to_str().unwrap().to_string()
    };
    let teams = file("teams.csv", &teams);
    let rosters = file("rosters.csv", &rosters);
    with_db(&cmd(
        "division create --new-schools {} --league astc --season 2026 --name {} --slug girls --rules astc --single --rounds-a-day 2 --lot-seed 7",
        &[&teams, "Secondary Girls"],
    ));
    with_db(&cmd(
        "roster import {} --league astc --competition girls",
        &[&rosters],
    ));
    let mut starts = String::from("competition,round,starts_at\n");
    for round in 1..=5 {
        let day = 7 + (round - 1) / 2;
        let time = if round % 2 == 1 { "09:30" } else { "14:00" };
        starts.push_str(&format!("girls,{round},2026-12-{day:02}T{time}\n"));
    }
    let starts = file("starts.csv", &starts);
    with_db(&cmd(
        "astc event astc 2026 --set {} --name {} --host SA --venue Adelaide --offset +10:30 --as arbiter@astc.example",
        &[&starts, "ASTC 2026"],
    ));

    let competition = exported_from(&dir, db, "astc", "girls");
    let round_1 = &competition["rounds"][0]["matches"][0];
    let home = round_1["home"].as_str().unwrap().to_string();
    assert_eq!(
        home, "sa",
        "AS-19: the host placed at 1 is at home in round 1"
    );
    let players: Vec<String> = competition["teams"][0]["players"]
        .as_array()
        .unwrap()
        .iter()
        .take(4)
        .map(|p| p["id"].as_str().unwrap().to_string())
        .collect();
    let step = |round: &str, home: &str, what: &[&str], now: &str| {
        let mut args = vec!["result"];
        args.extend_from_slice(what);
        args.extend_from_slice(&cmd("--league astc --season 2026 --competition girls --round {} --home {} --as arbiter@astc.example --now {} --db {}", &[round, home, now, db]));
        arbiter(&args)
    };
    let lineup = ["lineup", "--side", "home", "--players", &players.join(",")];
    // AS-11: due at 09:15 for round 1 at 09:30.
    let on_time = step("1", &home, &lineup, "2026-12-07T09:10+10:30");
    assert!(
        on_time.status.success(),
        "{}",
        String::from_utf8_lossy(&on_time.stderr)
    );
    let late = step("1", &home, &lineup, "2026-12-07T09:20+10:30");
    assert!(!late.status.success());
    let said = String::from_utf8_lossy(&late.stderr);
    assert!(said.contains("AS-11"), "{said}");
    let accepted = step(
        "1",
        &home,
        &[&lineup[..], &["--reason", "the team bus was late"]].concat(),
        "2026-12-07T09:20+10:30",
    );
    assert!(
        accepted.status.success(),
        "{}",
        String::from_utf8_lossy(&accepted.stderr)
    );

    // Every match: the home side wins boards 1 and 2, board 3 drawn, the visitors win board 4.
    let mut matches = 0;
    for (r, round) in competition["rounds"].as_array().unwrap().iter().enumerate() {
        for m in round["matches"].as_array().unwrap() {
            let home = m["home"].as_str().unwrap();
            let out = step(
                &(r + 1).to_string(),
                home,
                &["enter", "--boards", "1 1 = 0"],
                "2026-12-10T18:00+10:30",
            );
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
            matches += 1;
        }
    }
    assert_eq!(matches, 15, "six teams all-play-all");
    let wrong = step(
        "1",
        &home,
        &["enter", "--boards", "1 1 ="],
        "2026-12-10T18:00+10:30",
    );
    assert!(!wrong.status.success());
    assert!(String::from_utf8_lossy(&wrong.stderr).contains("3 results typed for 4 boards"));

    let finished = exported_from(&dir, db, "astc", "girls");
    let path = dir.join("final.json");
    std::fs::write(&path, finished.to_string()).unwrap();
    let table = json(&["standings", path.to_str().unwrap(), "--format", "json"]);
    let rows = table["standings"].as_array().unwrap();
    assert_eq!(rows.len(), 6);
    // Each match gives the home side 2½ and the visitors 1½: a team's game points follow from
    // its home matches alone, 1½ × 5 + 1 for each.
    for row in rows {
        let id = row["team_id"].as_str().unwrap();
        let homes = finished["rounds"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|r| r["matches"].as_array().unwrap())
            .filter(|m| m["home"] == id)
            .count();
        assert_eq!(
            row["values"]["GP"].as_f64().unwrap(),
            7.5 + homes as f64,
            "{id}: {row}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The competition `competition` of `league` in `db`, exported as competition JSON.
fn exported_from(dir: &Path, db: &str, league: &str, competition: &str) -> Value {
    let path = dir.join(format!("{league}-{competition}.json"));
    ok_stdout(&cmd(
        "export --league {} --competition {} --format json -o {} --db {}",
        &[league, competition, path.to_str().unwrap(), db],
    ));
    serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap()
}

/// Issue 30: an officer strikes an extra game out from the command line, with the reason kept
/// (GT-P3); an advisor may not, and a strike without a reason stores nothing. The match page's
/// write path decides, so the same sentences refuse.
#[test]
fn gt_p3_an_officer_strikes_an_extra_game_out_from_the_command_line() {
    let (dir, db) = scratch("arbiter-cli-extra");
    let db = db.as_str();
    let mail = dir.join("mail");
    ok_stdout(&cmd(
        "import crates/arbiter-formats/tests/data/unplayed.json --league gthscl --season 2026-27 --competition metro --db {}",
        &[db],
    ));
    for (email, role, school) in [
        ("president@gthscl.example", "president", None),
        (
            "coach@tcc.example",
            "advisor",
            Some("Toledo Central Catholic High School"),
        ),
    ] {
        let mut args = cmd(
            "user add --email {} --role {} --league gthscl --db {}",
            &[email, role, db],
        );
        if let Some(s) = school {
            args.extend_from_slice(&["--school", s]);
        }
        ok_stdout(&args);
    }
    let strike = |by: &str, reason: Option<&str>| {
        let mut args = cmd(
            "result strike-extra --game 1 --league gthscl --season 2026-27 --division metro --round 1 --home tcc --as {} --db {}",
            &[by, db],
        );
        if let Some(r) = reason {
            args.extend_from_slice(&["--reason", r]);
        }
        let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_arbiter"));
        cmd.current_dir(root())
            .env("ARBITER_MAIL_DIR", &mail)
            .args(&args);
        cmd.output().unwrap()
    };
    let advisor = strike("coach@tcc.example", Some("We lost it"));
    assert!(!advisor.status.success());
    let err = String::from_utf8_lossy(&advisor.stderr);
    assert!(err.contains("GT-P3"), "{err}");
    let bare = strike("president@gthscl.example", None);
    assert!(!bare.status.success());
    let err = String::from_utf8_lossy(&bare.stderr);
    assert!(err.contains("Nothing was stored"), "{err}");
    assert_eq!(
        exported(&dir, db, "metro")["rounds"][0]["matches"][0]["extra_games"]
            .as_array()
            .map_or(0, Vec::len),
        2
    );
    let struck = strike(
        "president@gthscl.example",
        Some("Played after the match had ended, not beside it"),
    );
    assert!(
        struck.status.success(),
        "{}",
        String::from_utf8_lossy(&struck.stderr)
    );
    let out = String::from_utf8_lossy(&struck.stdout);
    assert!(out.contains("extra game 1 struck out"), "{out}");
    // A struck game counts for nothing: the export leaves it out.
    let games = exported(&dir, db, "metro")["rounds"][0]["matches"][0]["extra_games"].clone();
    assert_eq!(games.as_array().map_or(0, Vec::len), 1, "{games}");
    std::fs::remove_dir_all(&dir).ok();
}

/// Issue 31: every finding of `arbiter check --format json` carries its rule and its place in
/// its fields (a duplicated player, GT-M10; an unplayed agreed draw, GT-M4), not only in its
/// sentence; and every error of a file is listed.
#[test]
fn check_json_gives_each_finding_its_rule_round_match_and_board() {
    let v = json(&words(
        "check crates/arbiter-formats/tests/data/unplayed.json --format json",
    ));
    let m4 = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["rule"] == "GT-M4")
        .unwrap_or_else(|| panic!("{v}"));
    assert_eq!(m4["round"], 1);
    assert_eq!(m4["home"], "tcc");
    assert_eq!(m4["away"], "oh");
    assert_eq!(m4["board"], 3);
    let (dir, _) = scratch("arbiter-cli-check");
    let text = std::fs::read_to_string(root().join("crates/arbiter-formats/tests/data/unplayed.json"))
        .unwrap()
        .replacen(
            r#"{"result": "+/-", "home_player": "t2", "away_player": "o2", "unplayed": "conduct", "note": "Phone rang twice after a warning."}"#,
            r#"{"result": "1-0", "home_player": "t1", "away_player": "o2"}"#,
            1,
        )
        .replacen(r#""away_player": "o3""#, r#""away_player": "o9""#, 1);
    let file = dir.join("two-errors.json");
    std::fs::write(&file, text).unwrap();
    let out = arbiter(&["check", file.to_str().unwrap(), "--format", "json"]);
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let findings = v["findings"].as_array().unwrap();
    assert_eq!(findings.len(), 2, "{v}");
    let m10 = findings
        .iter()
        .find(|f| f["rule"] == "GT-M10")
        .unwrap_or_else(|| panic!("{v}"));
    assert_eq!(
        (m10["round"].clone(), m10["board"].clone()),
        (1.into(), 2.into())
    );
    assert_eq!(
        (m10["home"].clone(), m10["away"].clone()),
        ("tcc".into(), "oh".into())
    );
    assert!(findings.iter().any(|f| f["board"] == 3), "{v}");
    std::fs::remove_dir_all(&dir).ok();
}
