//! Issue 34 item 7: fines that follow sanctions. A county league runs the test division under
//! its own file: GTHSCL's rules with fines and its own rule IDs. Waite forfeits rounds 2 and 3
//! and is dropped (the drop rule, after two forfeits); the ledger, the match page, the API and
//! the notice to the schools say what each costs, and a late result is fined by its days.

use arbiter_core::rules::permissions::Role;
use arbiter_demo::testing::{self, LeagueSetup};
use arbiter_store::{LeagueKind, NewLeague, RulesRef, Store};
use axum::body::Body;
use axum::http::{Request, StatusCode};
use jiff::civil::date;

use crate::common::*;

const COUNTY: &str = r#"
extends = "gthscl"
name = "County League"
description = "Lakeside County Chess League"

[fines]
match_forfeit = "25.00"
drop = "50.00"
late_result = [{ days_late = 1, amount = "7.50" }, { days_late = 7, amount = "15.00" }]

[cite]
forfeit_match = "Rule 12"
drop = "Rule 14"
report = "Rule 9"
"#;

const LEDGER: &str = "/leagues/county/ledger";
const TREASURER: &str = "treasurer@county.example";
const HOME: &str = "coach@start.example";

/// The test store with the county league beside GTHSCL, running the same division.
async fn county_store() -> Store {
    let store = store().await;
    LeagueSetup::new(NewLeague {
        slug: "county".into(),
        name: "Lakeside County Chess League".into(),
        kind: LeagueKind::League,
        description: "Club teams of the lakeside towns".into(),
        time_zone: arbiter_core::record::zone::Zone::named("America/New_York").unwrap(),
    })
    .season(testing::gthscl_2026_27())
    .competition(
        testing::new_competition("division-a", "Division A", RulesRef::Toml(COUNTY.into())),
        division(),
    )
    .write(&store)
    .await;
    testing::account(&store, "county", TREASURER, Role::Treasurer, None).await;
    testing::account(
        &store,
        "county",
        HOME,
        Role::Advisor,
        Some("Start High School"),
    )
    .await;
    store
}

#[tokio::test]
async fn the_ledger_owes_each_fine_with_its_rule_and_match_beside_the_fee() {
    let store = county_store().await;
    let app = app(&store);
    let mut t = Visitor::signed_in(&app, TREASURER).await;
    // Reached from the account page.
    t.get_ok(&app, "/account")
        .await
        .assert_contains(&format!("<a href=\"{LEDGER}\">Fee ledger</a>"));
    let page = t.get_ok(&app, LEDGER).await;
    page.assert_contains("<h2>Fines</h2>");
    page.assert_contains(
        "Waite High School is fined $25.00: Waite Dropouts forfeited the match, round 2, Start Spartans v Waite Dropouts (Rule 12).",
    );
    page.assert_contains(
        "Waite High School is fined $50.00: Waite Dropouts was dropped from the league by its forfeit, round 3, Waite Dropouts v Zoë O&#39;Brien &#60;&#38;&#62; &#34;Q&#34; (Rule 14).",
    );
    page.assert_contains(
        "<a href=\"/leagues/county/2026-27/division-a/rounds/2/matches/start\">The match</a>",
    );
    // Its fee ($10.00) and fines ($25.00 twice, $50.00): owes $110.00.
    page.assert_contains("owes $110.00");
    page.assert_contains("$100.00 fines");

    // GTHSCL fines nothing: no section, no fines on its ledger.
    testing::account(&store, "gthscl", "t@gthscl.example", Role::Treasurer, None).await;
    let mut g = Visitor::signed_in(&app, "t@gthscl.example").await;
    let plain = g.get_ok(&app, "/leagues/gthscl/ledger").await;
    assert!(!plain.body.contains("<h2>Fines</h2>"), "{}", plain.body);

    // The match page says what the forfeit costs.
    let m = get(
        &app,
        "/leagues/county/2026-27/division-a/rounds/2/matches/start",
    )
    .await;
    m.assert_contains("Waite High School is fined $25.00");

    // The API, for the Treasurer's token.
    let secret = testing::api_token(&store, "county", TREASURER, Role::Treasurer, None).await;
    let read = send(
        &app,
        Request::builder()
            .uri("/api/v1/leagues/county/ledger?season=2026-27")
            .header("authorization", format!("Bearer {secret}"))
            .body(Body::empty())
            .unwrap(),
    )
    .await;
    read.assert_status(StatusCode::OK);
    let j = read.json();
    let fines = j["fines"].as_array().unwrap();
    assert_eq!(fines.len(), 3, "{j:#}");
    assert_eq!(fines[0]["kind"], "match_forfeit");
    assert_eq!(fines[0]["rule"], "Rule 12");
    assert_eq!(fines[2]["kind"], "drop");
    assert_eq!(j["totals"]["fined"], "100.00");
}

#[tokio::test]
async fn a_result_entered_days_late_is_fined_by_the_step_its_days_reach() {
    let store = county_store().await;
    // Round 4 (Monday 16 November) is due by Tuesday 17; Start's advisor enters it on Friday 20.
    let app = app_on(&store, date(2026, 11, 20));
    let page = "/leagues/county/2026-27/division-a/rounds/4/matches/start";
    let mut home = Visitor::signed_in(&app, HOME).await;
    let form = home.get_ok(&app, page).await;
    let marker = "name=\"version\" value=\"";
    let at = form.body.find(marker).unwrap() + marker.len();
    let version = form.body[at..].split('"').next().unwrap().to_string();
    home.post_ok(
        &app,
        &format!("{page}/result"),
        &[("forfeit", "away"), ("version", &version), ("result_1", "")],
    )
    .await;
    let after = get(&app, page).await;
    after.assert_contains(
        "Start High School is fined $7.50: Start Spartans entered the result on 2026-11-20, 3 days after it was due on 2026-11-17, round 4, Start Spartans v Zoë O&#39;Brien &#60;&#38;&#62; &#34;Q&#34; (Rule 9).",
    );
    after.assert_contains(
        "Scott High School is fined $25.00: Zoë O&#39;Brien &#60;&#38;&#62; &#34;Q&#34; forfeited the match, round 4",
    );
}
