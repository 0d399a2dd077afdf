//! A season's settings on the site (issue 32 item 5): the President reaches them from the
//! season set-up page, changes the entry fee (GT-O2) and the playoff qualifiers (GT-F3), and each
//! division's rules become a new version, in the history with the reason; every mistake is
//! named at once and nothing is saved; an advisor may not; the ledger follows the new fee.

use arbiter_core::rules::permissions::Role;
use arbiter_store::RulesRef;
use axum::body::Body;
use axum::http::{Request, StatusCode};

use crate::common::*;

const SETUP: &str = "/leagues/gthscl/setup";
const SETTINGS: &str = "/leagues/gthscl/2026-27/settings";
const PRESIDENT: &str = "president@gthscl.example";
const ADVISOR: &str = "coach@start.example";

#[tokio::test]
async fn gt_o2_gt_f3_the_president_changes_the_fee_and_the_qualifiers_in_the_site() {
    let store = store().await;
    account(&store, PRESIDENT, Role::President, None).await;
    advisor(&store, ADVISOR, "Start High School").await;
    account(&store, "treasurer@gthscl.example", Role::Treasurer, None).await;
    let app = app(&store);
    let mut president = Visitor::signed_in(&app, PRESIDENT).await;

    // Reached from the season set-up page.
    let setup = president.get(&app, SETUP).await;
    setup.assert_contains(&format!(
            "<a href=\"{SETTINGS}\">Settings: the entry fee, the playoffs, the days to report a result</a>"
        ));
    let page = president.get_ok(&app, SETTINGS).await;
    let b = &page.body;
    assert!(b.contains("Entry fee (GT-O2), in dollars"), "{b}");
    assert!(b.contains("name=\"entry_fee\" value=\"10.00\""), "{b}");
    assert!(
        b.contains("Number of teams each division sends to the playoffs (GT-F3)"),
        "{b}"
    );
    assert!(
        b.contains("name=\"qualifiers_per_division\" value=\"2\""),
        "{b}"
    );
    assert!(b.contains("Days to enter a result (GT-P2)"), "{b}");
    assert!(b.contains("<option value=\"knockout\" selected>"), "{b}");

    // Every mistake at once, what was typed kept, nothing saved.
    let refused = president
        .post_refused(
            &app,
            SETTINGS,
            &[
                ("entry_fee", "ten"),
                ("qualifiers_per_division", "0"),
                ("playoff_format", "knockout"),
                ("enter_within_days", "1"),
                ("confirm_within_days", "5"),
                ("correct_within_days", "5"),
                ("reason", ""),
            ],
        )
        .await;
    let r = &refused.body;
    assert!(r.contains("Nothing was saved"), "{r}");
    assert!(r.contains("The entry fee (GT-O2): “ten” is not"), "{r}");
    assert!(
        r.contains("“0” is not a number of teams from 1 to 16"),
        "{r}"
    );
    assert!(r.contains("name=\"entry_fee\" value=\"ten\""), "{r}");

    let saved = president
        .post_ok(
            &app,
            SETTINGS,
            &[
                ("entry_fee", "12.50"),
                ("qualifiers_per_division", "3"),
                ("playoff_format", "knockout"),
                ("enter_within_days", "1"),
                ("confirm_within_days", "5"),
                ("correct_within_days", "5"),
                ("reason", "organizational meeting, 5 October"),
            ],
        )
        .await;
    let after = president.get(&app, saved.header("location")).await;
    after.assert_contains("Saved: 1 competition&#39;s rules of 2026-27 changed");
    after.assert_contains("name=\"entry_fee\" value=\"12.50\"");

    // The division's rules are a new version that extends the preset.
    let stored = store
        .load_competition("gthscl", "division-a")
        .await
        .unwrap()
        .unwrap();
    let RulesRef::Toml(text) = &stored.record.rules else {
        panic!("{:?}", stored.record.rules)
    };
    assert!(text.contains("extends = \"gthscl\""), "{text}");
    assert_eq!(
        stored.rules.fees.unwrap().entry_fee,
        arbiter_core::season::ledger::Money::from_cents(1250)
    );
    assert_eq!(
        stored
            .rules
            .playoffs
            .as_ref()
            .unwrap()
            .qualifiers_per_division,
        3
    );

    // The history says it in a sentence with the reason; the ledger asks the new fee.
    let history = president.get(&app, "/leagues/gthscl/history").await;
    history.assert_contains("changed the rules of Division A: the entry fee (GT-O2) from $10.00 to $12.50; the number of teams each division sends to the playoffs (GT-F3) from 2 to 3");
    history.assert_contains("organizational meeting, 5 October");
    let mut treasurer = Visitor::signed_in(&app, "treasurer@gthscl.example").await;
    let ledger = treasurer.get(&app, "/leagues/gthscl/ledger").await;
    ledger.assert_contains("The entry fee is $12.50 a school");

    // The same values again save nothing.
    let again = president
        .post_expect(
            &app,
            SETTINGS,
            &[("entry_fee", "12.5"), ("qualifiers_per_division", "3")],
            StatusCode::OK,
        )
        .await;
    again.assert_contains("Nothing changed");

    // An advisor may not read or change them.
    let mut advisor = Visitor::signed_in(&app, ADVISOR).await;
    advisor
        .get_expect(&app, SETTINGS, StatusCode::FORBIDDEN)
        .await;
}

async fn call(app: &axum::Router, method: &str, secret: &str, body: &str) -> Answer {
    let mut req = Request::builder()
        .method(method)
        .uri(format!("/api/v1{SETTINGS}"))
        .header("authorization", format!("Bearer {secret}"));
    if method == "POST" {
        req = req.header("content-type", "application/json");
    }
    send(app, req.body(Body::from(body.to_string())).unwrap()).await
}

/// Issue 32 item 5 in the API: the President's token reads the settings and changes the fee;
/// a mistake is a 422 with the sentence, an advisor's token a 403.
#[tokio::test]
async fn gt_o2_the_api_reads_and_changes_the_settings_with_the_presidents_token() {
    let store = store().await;
    account(&store, PRESIDENT, Role::President, None).await;
    advisor(&store, ADVISOR, "Start High School").await;
    let president = api_token(&store, PRESIDENT, Role::President, None).await;
    let advisor = api_token(&store, ADVISOR, Role::Advisor, Some("Start High School")).await;
    let app = app(&store);
    let read = call(&app, "GET", &president, "").await;
    read.assert_status(StatusCode::OK);
    let v: serde_json::Value = serde_json::from_str(&read.body).unwrap();
    let fee = v["settings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["key"] == "entry_fee")
        .unwrap();
    assert_eq!(fee["value"], "10.00");
    assert_eq!(fee["rule"], "GT-O2");

    let wrong = call(
        &app,
        "POST",
        &president,
        r#"{"qualifiers_per_division": "40"}"#,
    )
    .await;
    wrong.assert_status(StatusCode::UNPROCESSABLE_ENTITY);
    wrong.assert_contains("“40” is not a number of teams from 1 to 16");
    let changed = call(
        &app,
        "POST",
        &president,
        r#"{"entry_fee": "11", "reason": "organizational meeting"}"#,
    )
    .await;
    changed.assert_status(StatusCode::OK);
    changed.assert_contains("\"value\":\"11.00\"");
    // Nothing sent changes nothing.
    let nothing = call(&app, "POST", &president, "{}").await;
    nothing.assert_status(StatusCode::OK);
    nothing.assert_contains("\"value\":\"11.00\"");
    let denied = call(&app, "GET", &advisor, "").await;
    denied.assert_status(StatusCode::FORBIDDEN);
}
