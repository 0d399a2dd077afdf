//! Issue 34 item 7: a league's fines, assessed from the record, each with its rule, and owed in
//! the ledger beside the fee until paid or waived.

use jiff::civil::{Date, date};

use super::*;
use crate::rules::ruleset::PresetsOnly;
use crate::season::ledger::{self, EntryInput, Ledger, When};
use crate::testing::{competition, forfeited, pending, played};

/// A county league: GTHSCL's drop rule and report days, and its own fines and rule IDs (the
/// late steps as a Dutch federation has them: 7.50 from the day after, 15.00 from a week).
const COUNTY: &str = r#"
extends = "gthscl"
name = "County League"

[fines]
match_forfeit = "25.00"
board_default = "5.00"
drop = "50.00"
late_result = [{ days_late = 1, amount = "7.50" }, { days_late = 7, amount = "15.00" }]

[cite]
forfeit_match = "Rule 12"
board_default = "Rule 13"
drop = "Rule 14"
report = "Rule 9"
"#;

fn county() -> Ruleset {
    Ruleset::from_toml("county.toml", COUNTY, &PresetsOnly).unwrap()
}

fn monday(week: i8) -> Date {
    date(2026, 10, 5 + 7 * (week - 1))
}

/// Four clubs' teams, a round a week from Monday 5 October.
fn season(rounds: Vec<Vec<crate::record::model::Pairing>>) -> Competition {
    let mut c = competition(&["a", "b", "c", "z"], rounds);
    for (t, club) in c
        .teams
        .iter_mut()
        .zip(["Abbey", "Bishops", "Castle", "Zeal"])
    {
        t.school = Some(format!("{club} CC"));
    }
    for (r, week) in c.rounds.iter_mut().zip(1..) {
        r.date = Some(monday(week));
    }
    c
}

fn sentences(fines: &[Fine]) -> Vec<&str> {
    fines.iter().map(|f| f.sentence.as_str()).collect()
}

#[test]
fn a_forfeit_an_empty_board_and_a_double_default_are_fined_with_the_leagues_rules() {
    let c = season(vec![vec![
        forfeited("a", "b", Side::Home),
        played("c", "z", "1+=x"),
    ]]);
    assert_eq!(
        sentences(&assess(&c, &county(), &[])),
        [
            "Abbey CC is fined $25.00: A forfeited the match, round 1, A v B (Rule 12).",
            "Zeal CC is fined $5.00: Z defaulted board 2, round 1, C v Z (Rule 13).",
            "Castle CC is fined $5.00: C defaulted board 4, round 1, C v Z (Rule 13).",
            "Zeal CC is fined $5.00: Z defaulted board 4, round 1, C v Z (Rule 13).",
        ]
    );
}

#[test]
fn a_dropped_team_is_fined_once_for_the_drop_beside_its_forfeits() {
    // GT-M5's rule in the county's file: two match forfeits drop Zeal, in round 2.
    let c = season(vec![
        vec![forfeited("z", "a", Side::Home), played("b", "c", "1100")],
        vec![forfeited("b", "z", Side::Away), played("a", "c", "1100")],
        vec![pending("z", "c"), pending("a", "b")],
    ]);
    let fines = assess(&c, &county(), &[]);
    let zeal: Vec<_> = fines
        .iter()
        .filter(|f| f.school == "Zeal CC")
        .map(|f| (f.kind, f.amount.cents()))
        .collect();
    assert_eq!(
        zeal,
        [
            (FineKind::MatchForfeit, 2500),
            (FineKind::MatchForfeit, 2500),
            (FineKind::Drop, 5000)
        ]
    );
    assert!(
        sentences(&fines).contains(
            &"Zeal CC is fined $50.00: Z was dropped from the league by its forfeit, round 2, B v Z (Rule 14)."
        ),
        "{fines:?}"
    );
}

#[test]
fn a_late_result_is_fined_by_the_step_its_days_reach() {
    // Round 1 on Monday 5 October: entered by Tuesday 6 (GT-P2's day, [report] in gthscl).
    let c = season(vec![vec![
        played("a", "b", "1100"),
        played("c", "z", "1100"),
    ]]);
    let entered = |home: &str, on: Date| FirstEntry {
        round: 1,
        home: TeamId(home.into()),
        entered_on: on,
    };
    let on_time = assess(&c, &county(), &[entered("a", date(2026, 10, 6))]);
    assert_eq!(on_time, Vec::new());
    let fines = assess(
        &c,
        &county(),
        &[
            entered("a", date(2026, 10, 7)),
            entered("c", date(2026, 10, 13)),
        ],
    );
    assert_eq!(
        sentences(&fines),
        [
            "Abbey CC is fined $7.50: A entered the result on 2026-10-07, 1 day after it was due on 2026-10-06, round 1, A v B (Rule 9).",
            "Castle CC is fined $15.00: C entered the result on 2026-10-13, 7 days after it was due on 2026-10-06, round 1, C v Z (Rule 9).",
        ]
    );
}

#[test]
fn a_league_without_fines_fines_nothing_and_a_team_of_no_school_is_never_fined() {
    let c = season(vec![vec![forfeited("a", "b", Side::Home)]]);
    let gthscl = Ruleset::preset("gthscl").unwrap();
    assert_eq!(assess(&c, &gthscl, &[]), Vec::new());
    let mut schoolless = c.clone();
    schoolless.teams[0].school = None;
    assert_eq!(assess(&schoolless, &county(), &[]), Vec::new());
}

#[test]
fn a_fine_is_owed_in_the_ledger_beside_the_fee_and_an_officer_may_waive_it() {
    let c = season(vec![vec![
        forfeited("a", "b", Side::Home),
        played("c", "z", "1100"),
    ]]);
    let rules = county();
    let dues = ledger::dues([(&c, rules.fees)]).with_fines(assess(&c, &rules, &[]));
    let abbey = |l: &Ledger| {
        l.statement()
            .schools
            .into_iter()
            .find(|s| s.school == "Abbey CC")
            .unwrap()
    };
    let book = Ledger::new(dues, Vec::new());
    let line = abbey(&book);
    assert_eq!((line.due.cents(), line.fined.cents()), (1000, 2500));
    assert_eq!(line.standing(), "owes $35.00");
    assert_eq!(book.statement().totals.fined.cents(), 2500);
    let when = When {
        today: date(2026, 10, 20),
        season: "2026-27",
        starts: Some(monday(1)),
        ends: None,
    };
    let waiver = |amount: &str| EntryInput {
        kind: "waiver".into(),
        school: "Abbey CC".into(),
        amount: amount.into(),
        on: "2026-10-20".into(),
        note: "The forfeit was the bus company's; the fine is waived".into(),
        reverses: String::new(),
    };
    let too_much = book.check(&waiver("40.00"), &when).unwrap_err();
    assert_eq!(
        too_much[0].message,
        "Abbey CC's entry fee is $10.00 and its fines $25.00; a waiver of $40.00 would waive more than the fee and fines (GT-O2)."
    );
    let entry = book.check(&waiver("25.00"), &when).unwrap();
    let waived = Ledger::new(book.dues().clone(), vec![entry]);
    assert_eq!(abbey(&waived).standing(), "owes $10.00");
}

#[test]
fn fines_out_of_order_or_of_nothing_are_refused_at_their_line() {
    let refusal = |text: &str| {
        Ruleset::from_toml("county.toml", text, &PresetsOnly)
            .unwrap_err()
            .to_string()
    };
    assert_eq!(
        refusal(
            "extends = \"gthscl\"\n[fines]\nlate_result = [{ days_late = 7, amount = \"15\" }, { days_late = 1, amount = \"7.50\" }]\n"
        ),
        "county.toml:3:1: `[fines] late_result` steps are in order of days: step 2 (1 day) comes after step 1 (7 days)"
    );
    assert_eq!(
        refusal("extends = \"gthscl\"\n\n[fines]\nmatch_forfeit = \"0\"\n"),
        "county.toml:4:1: `[fines] match_forfeit` is $0.00; a fine is above $0.00 and at most $10,000.00"
    );
}
