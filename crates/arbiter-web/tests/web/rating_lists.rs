//! Issue 34 item 1: a league's officer imports a published rating list on the site (the set-up
//! page links to it; a file uploaded, no JavaScript), a mistake in the file is refused at its
//! line, the players the list does not find are listed, and a competition whose rules order
//! boards by a list shows the list's ratings on its match page and is checked by them.

use arbiter_core::rules::permissions::Role;
use arbiter_demo::testing::{self, LeagueSetup};
use arbiter_formats::competition_json;
use arbiter_formats::ruleset_file::FileRulesetSource;
use arbiter_store::{RulesRef, Store};
use axum::http::StatusCode;

use crate::common::*;

const PRESIDENT: &str = "president@gthscl.example";
const LISTS: &str = "/leagues/gthscl/setup/rating-lists";
const KNIGHTS: &str = "/leagues/gthscl/2026-27/usate/rounds/1/matches/knights";

fn examples() -> std::path::PathBuf {
    std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples/rulesets")
}

/// A league holding the US Amateur Team East example (`examples/rulesets/`), its rules
/// stored as the file's TOML, and its President.
async fn usate() -> Store {
    let store = Store::open_sqlite_memory().await.unwrap();
    store.migrate().await.unwrap();
    let text = std::fs::read_to_string(examples().join("us-amateur-team-east.json")).unwrap();
    let loaded = competition_json::read("usate.json", &text, &FileRulesetSource::new(examples()))
        .unwrap_or_else(|e| panic!("{e}"));
    let toml = std::fs::read_to_string(examples().join("us-amateur-team-east.toml")).unwrap();
    LeagueSetup::new(testing::gthscl())
        .season(testing::gthscl_2026_27())
        .competition(
            testing::new_competition("usate", "US Amateur Team East", RulesRef::Toml(toml)),
            loaded.competition,
        )
        .account(PRESIDENT, Role::President, None)
        .write(&store)
        .await;
    store
}

#[tokio::test]
async fn an_officer_imports_a_list_and_the_match_page_reads_it() {
    let store = usate().await;
    let app = app(&store);
    let mut president = Visitor::signed_in(&app, PRESIDENT).await;
    let setup = president.get_ok(&app, "/leagues/gthscl/setup").await;
    setup.assert_contains(&format!("href=\"{LISTS}\""));
    let page = president.get_ok(&app, LISTS).await;
    page.assert_contains("The league has no rating list yet.");
    page.assert_contains("enctype=\"multipart/form-data\"");
    // Before a list, the match page says none is in force.
    president
        .get_ok(&app, KNIGHTS)
        .await
        .assert_contains("Rating (no list in force)");

    let fields = [
        ("name", "US Chess February 2027"),
        ("in_force_from", "2027-02-01"),
        ("format", "csv"),
    ];
    // A mistake at its line; nothing stored.
    let refused = president
        .post_with_file(
            &app,
            LISTS,
            &fields,
            (
                "file",
                "feb.csv",
                b"id,name,rating\n1,\"Kim, Kira\",2450\n2,\"Knight, Ken\",strong\n",
            ),
        )
        .await;
    refused.assert_status(StatusCode::UNPROCESSABLE_ENTITY);
    refused.assert_contains("line 3, rating: the rating `strong` is not a rating");
    assert!(
        store
            .rating_lists(store.league("gthscl").await.unwrap().unwrap().id)
            .await
            .unwrap()
            .is_empty()
    );

    // The list without Kurt Kane: he is listed as not found.
    let csv = std::fs::read_to_string(examples().join("us-amateur-team-east-ratings.csv")).unwrap();
    let without_kurt: String = csv
        .lines()
        .filter(|l| !l.contains("Kane"))
        .map(|l| format!("{l}\n"))
        .collect();
    let stored = president
        .post_with_file(
            &app,
            LISTS,
            &fields,
            ("file", "feb.csv", without_kurt.as_bytes()),
        )
        .await;
    assert_eq!(stored.status, StatusCode::SEE_OTHER, "{}", stored.body);
    let page = president.get_ok(&app, LISTS).await;
    page.assert_contains("US Chess February 2027");
    page.assert_contains(">19<");
    page.assert_contains("Kurt Kane (Kingston Knights): the id 12000003 is not on it");

    // The match page's ratings are the list's, its heading names it, and the violation is
    // the league's ATE-4 (Pike's 1450 under Pope's 1900).
    let m = president.get_ok(&app, KNIGHTS).await;
    m.assert_contains("Rating (US Chess February 2027)");
    m.assert_contains("not on the list");
    m.assert_contains("ATE-4");
    m.assert_contains("are 450 points apart, by the rating list US Chess February 2027 (in force from 2027-02-01)");

    // The league's history says who imported what.
    president
        .get_ok(&app, "/leagues/gthscl/history")
        .await
        .assert_contains("imported the rating list US Chess February 2027, in force from 2027-02-01 (19 rated players)");

    // The same list again is refused with a sentence.
    let again = president
        .post_with_file(&app, LISTS, &fields, ("file", "feb.csv", csv.as_bytes()))
        .await;
    again.assert_contains(
        "already has a rating list named US Chess February 2027 in force from 2027-02-01",
    );
}

#[tokio::test]
async fn an_advisor_may_not_import_a_list() {
    let store = usate().await;
    advisor(&store, "coach@start.example", "Start High School").await;
    let app = app(&store);
    let mut coach = Visitor::signed_in(&app, "coach@start.example").await;
    coach.get_expect(&app, LISTS, StatusCode::FORBIDDEN).await;
}

async fn post_list(app: &axum::Router, secret: &str, body: &serde_json::Value) -> Answer {
    let req = axum::http::Request::builder()
        .method("POST")
        .uri("/api/v1/leagues/gthscl/rating-lists")
        .header("authorization", format!("Bearer {secret}"))
        .header("content-type", "application/json")
        .body(axum::body::Body::from(body.to_string()))
        .unwrap();
    send(app, req).await
}

/// The API stores a list sent as text in a JSON object with the President's token; a mistake
/// in the file is a 422 at its line; an advisor's token is refused.
#[tokio::test]
async fn the_api_imports_a_list_with_the_presidents_token() {
    let store = usate().await;
    advisor(&store, "coach@start.example", "Start High School").await;
    let app = app(&store);
    let president = api_token(&store, PRESIDENT, Role::President, None).await;
    let coach = api_token(
        &store,
        "coach@start.example",
        Role::Advisor,
        Some("Start High School"),
    )
    .await;
    let txt = std::fs::read_to_string(
        std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../arbiter-formats/tests/data/rating_lists/fide-standard.txt"),
    )
    .unwrap();
    let body = serde_json::json!({
        "name": "FIDE March 2027", "in_force_from": "2027-03-01", "format": "fide-txt", "text": txt,
    });
    post_list(&app, &coach, &body)
        .await
        .assert_status(StatusCode::FORBIDDEN);
    let bad = serde_json::json!({
        "name": "FIDE March 2027", "in_force_from": "2027-03-01", "format": "fide-txt",
        "text": txt.replacen("2000002", "Baker  ", 1),
    });
    let refused = post_list(&app, &president, &bad).await;
    refused.assert_status(StatusCode::UNPROCESSABLE_ENTITY);
    refused.assert_contains("line 3: the line starts `Baker`, not a FIDE id");
    let stored = post_list(&app, &president, &body).await;
    stored.assert_status(StatusCode::CREATED);
    let v = stored.json();
    assert_eq!(
        (v["name"].as_str(), v["entries"].as_u64()),
        (Some("FIDE March 2027"), Some(3))
    );
    post_list(&app, &president, &body)
        .await
        .assert_status(StatusCode::CONFLICT);
}
