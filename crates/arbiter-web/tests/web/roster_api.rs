//! Issue 16: a roster changed through the API with a token, on the write path of the site's
//! rosters page: a player added to a team (GT-R3's 1200N, GT-R7, a name on the roster already
//! refused), a player withdrawn from a day, who may (the President, the team's school's advisor)
//! and every refusal with its status.

use arbiter_core::rules::permissions::Role;
use arbiter_store::HistoryFilter;
use axum::body::Body;
use axum::http::{Request, StatusCode};

use crate::common::*;

const PRESIDENT: &str = "president@gthscl.example";
const START: &str = "coach@start.example";
const CLAY: &str = "coach@clay.example";
const PLAYERS: &str = "/api/v1/leagues/gthscl/2026-27/division-a/teams/start/players";

fn withdrawal(player: &str) -> String {
    format!("/api/v1/leagues/gthscl/2026-27/division-a/players/{player}/withdrawal")
}

async fn post(app: &axum::Router, uri: &str, secret: Option<&str>, body: &str) -> Answer {
    let mut req = Request::builder()
        .method("POST")
        .uri(uri)
        .header("content-type", "application/json");
    if let Some(secret) = secret {
        req = req.header("authorization", format!("Bearer {secret}"));
    }
    send(app, req.body(Body::from(body.to_string())).unwrap()).await
}

struct Tokens {
    president: String,
    start: String,
    clay: String,
}

async fn tokens(store: &arbiter_store::Store) -> Tokens {
    account(store, PRESIDENT, Role::President, None).await;
    advisor(store, START, "Start High School").await;
    advisor(store, CLAY, "Clay High School").await;
    Tokens {
        president: api_token(store, PRESIDENT, Role::President, None).await,
        start: api_token(store, START, Role::Advisor, Some("Start High School")).await,
        clay: api_token(store, CLAY, Role::Advisor, Some("Clay High School")).await,
    }
}

#[tokio::test]
async fn an_advisor_adds_a_player_to_their_schools_team_as_the_rosters_page_would() {
    let store = store().await;
    let t = tokens(&store).await;
    let app = app(&store);
    let before = get_ok(&app, &format!("/api/v1{DIVISION}/teams/start")).await;
    assert!(!before.body.contains("Dee Novak"), "a new player");

    let added = post(
        &app,
        PLAYERS,
        Some(&t.start),
        r#"{"name": "Dee Novak", "grade": 10, "reason": "joined the club"}"#,
    )
    .await;
    added.assert_status(StatusCode::CREATED);
    let j = added.json();
    assert_eq!(j["id"], "start-5", "core's plan gives the next id");
    assert_eq!(j["team"], "start");
    assert_eq!(j["rating"], 1200, "GT-R3: a new player starts at 1200N");
    assert_eq!(j["provisional"], true);
    assert_eq!(
        j["unranked"], false,
        "GT-R7: a high-school student is ranked"
    );
    assert_eq!(j["url"], format!("{DIVISION}/players/start-5"));
    // The team's page shows the player at once, and the history keeps the change and why.
    let after = get(&app, &format!("/api/v1{DIVISION}/teams/start")).await;
    after.assert_contains("Dee Novak");
    let league = store.league("gthscl").await.unwrap().unwrap();
    let history = store
        .history(&HistoryFilter {
            league: Some(league.id),
            ..HistoryFilter::default()
        })
        .await
        .unwrap();
    let row = history
        .iter()
        .find(|h| h.reason.as_deref() == Some("joined the club"))
        .expect("the addition is in the history");
    assert_eq!(row.actor.as_deref(), Some(START));

    // GT-R7: a player in grade 7 with no birth date plays unranked games only; a rating given
    // is kept as given.
    let young = post(
        &app,
        PLAYERS,
        Some(&t.president),
        r#"{"name": "Eli Park", "grade": 7, "rating": 1333}"#,
    )
    .await;
    young.assert_status(StatusCode::CREATED);
    assert_eq!(young.json()["unranked"], true);
    assert_eq!(young.json()["rating"], 1333);
    assert!(young.json()["note"].as_str().unwrap().contains("GT-R7"));
}

#[tokio::test]
async fn a_roster_change_is_refused_with_its_status_and_sentence() {
    let store = store().await;
    let t = tokens(&store).await;
    let app = app(&store);
    let body = r#"{"name": "Dee Novak"}"#;

    let none = post(&app, PLAYERS, None, body).await;
    none.assert_status(StatusCode::UNAUTHORIZED);
    // Another school's advisor: the table's sentence.
    let other = post(&app, PLAYERS, Some(&t.clay), body).await;
    other.assert_status(StatusCode::FORBIDDEN);
    assert!(
        other.body.contains("own school") && other.body.contains("Start High School"),
        "{}",
        other.body
    );
    let missing = post(
        &app,
        "/api/v1/leagues/gthscl/2026-27/division-a/teams/nowhere/players",
        Some(&t.start),
        body,
    )
    .await;
    missing.assert_status(StatusCode::NOT_FOUND);
    missing.assert_contains("nowhere");

    // Every mistake of the body at its field.
    let bad = post(
        &app,
        PLAYERS,
        Some(&t.start),
        r#"{"name": " ", "grade": 13, "rating": 4000, "birth_date": "soon"}"#,
    )
    .await;
    bad.assert_status(StatusCode::UNPROCESSABLE_ENTITY);
    let fields: Vec<String> = bad.json()["error"]["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["field"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(fields, ["name", "grade", "rating", "birth_date"]);
    let unknown = post(
        &app,
        PLAYERS,
        Some(&t.start),
        r#"{"name": "A", "colour": 1}"#,
    )
    .await;
    unknown.assert_status(StatusCode::UNPROCESSABLE_ENTITY);
    unknown.assert_contains("colour");

    // A name already on the team's roster: core's plan refuses it, nothing is stored.
    let first = post(&app, PLAYERS, Some(&t.start), body).await;
    first.assert_status(StatusCode::CREATED);
    let twice = post(&app, PLAYERS, Some(&t.start), body).await;
    twice.assert_status(StatusCode::UNPROCESSABLE_ENTITY);
    twice.assert_contains("roster already");
    let c = store
        .load_competition("gthscl", "division-a")
        .await
        .unwrap()
        .unwrap();
    let start = c
        .competition
        .teams
        .iter()
        .find(|t| t.id.0 == "start")
        .unwrap();
    assert_eq!(
        start
            .players
            .iter()
            .filter(|p| p.name == "Dee Novak")
            .count(),
        1
    );
}

#[tokio::test]
async fn an_advisor_withdraws_a_player_from_a_day_once() {
    let store = store().await;
    let t = tokens(&store).await;
    let app = app(&store);
    let c = store
        .load_competition("gthscl", "division-a")
        .await
        .unwrap()
        .unwrap();
    let start = c
        .competition
        .teams
        .iter()
        .find(|t| t.id.0 == "start")
        .unwrap();
    let player = start.players[1].id.0.clone();
    let uri = withdrawal(&player);
    let body = r#"{"on": "2026-12-01", "reason": "moved to Cleveland"}"#;

    let other = post(&app, &uri, Some(&t.clay), body).await;
    other.assert_status(StatusCode::FORBIDDEN);
    let no_reason = post(&app, &uri, Some(&t.start), r#"{"on": "2026-12-01"}"#).await;
    no_reason.assert_status(StatusCode::UNPROCESSABLE_ENTITY);
    no_reason.assert_contains("needs its reason");
    let no_day = post(
        &app,
        &uri,
        Some(&t.start),
        r#"{"on": "Friday", "reason": "x"}"#,
    )
    .await;
    no_day.assert_status(StatusCode::UNPROCESSABLE_ENTITY);
    no_day.assert_contains("YYYY-MM-DD");
    let nobody = post(&app, &withdrawal("nobody"), Some(&t.start), body).await;
    nobody.assert_status(StatusCode::NOT_FOUND);

    let done = post(&app, &uri, Some(&t.start), body).await;
    done.assert_status(StatusCode::CREATED);
    assert_eq!(done.json()["withdrawn"], "2026-12-01");
    assert_eq!(done.json()["id"], player.as_str());
    let c = store
        .load_competition("gthscl", "division-a")
        .await
        .unwrap()
        .unwrap();
    let p = c
        .competition
        .teams
        .iter()
        .flat_map(|t| &t.players)
        .find(|p| p.id.0 == player)
        .unwrap();
    assert_eq!(p.withdrawn, Some(jiff::civil::date(2026, 12, 1)));

    let again = post(&app, &uri, Some(&t.president), body).await;
    again.assert_status(StatusCode::UNPROCESSABLE_ENTITY);
    again.assert_contains("withdrawn already");
}
