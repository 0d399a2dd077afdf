//! A team's lineup named before its match (issue 12): the school's advisor names it on the
//! match page, the rules refuse a wrong one with the rule named (GT-M11, GT-M13, GT-M9), a
//! right one is stored as a version, and nobody names another school's.

use arbiter_core::rules::permissions::Role;
use axum::http::StatusCode;

use crate::common::*;

/// Round 4: Start Spartans (home) v the Scott team, Mon 16 Nov 2026, still to play.
const MATCH: &str = "/leagues/gthscl/2026-27/division-a/rounds/4/matches/start";
const HOME: &str = "coach@start.example";
const VISITOR: &str = "coach@scott.example";

async fn setup() -> axum::Router {
    let store = store().await;
    advisor(&store, HOME, "Start High School").await;
    advisor(&store, VISITOR, "Scott High School").await;
    app_on(&store, jiff::civil::date(2026, 11, 13))
}

/// The player ids of the `board_1` select's options, in the order the form offers them (board
/// order by the ratings of the match day), the empty choice left out.
fn offered(body: &str, side: &str) -> Vec<String> {
    let form = &body[body
        .find(&format!("lineups/{side}\""))
        .unwrap_or_else(|| panic!("no {side} lineup form in {body}"))..];
    let select = &form[form.find("name=\"board_1\"").unwrap()..];
    let select = &select[..select.find("</select>").unwrap()];
    select
        .split("<option value=\"")
        .skip(1)
        .map(|o| o[..o.find('"').unwrap()].to_string())
        .filter(|v| !v.is_empty())
        .collect()
}

fn boards(ids: &[&str]) -> Vec<(String, String)> {
    let mut f: Vec<(String, String)> = ids
        .iter()
        .enumerate()
        .map(|(i, p)| (format!("board_{}", i + 1), (*p).to_string()))
        .collect();
    f.push(("version".into(), "0".into()));
    f
}

fn pairs(f: &[(String, String)]) -> Vec<(&str, &str)> {
    f.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect()
}

#[tokio::test]
async fn gt_m11_the_advisor_names_a_lineup_refused_then_fixed_and_stored() {
    let app = setup().await;
    let mut home = Visitor::signed_in(&app, HOME).await;
    let page = home.get_ok(&app, MATCH).await;
    page.assert_contains("Name the lineup");
    // Start's advisor has Start's form only.
    page.assert_lacks("lineups/away\"");
    let order = offered(&page.body, "home");
    assert_eq!(order.len(), 4, "{order:?}");

    // Board 1 and board 2 swapped: GT-M11, the ratings of the match day named.
    let swapped = [&order[1], &order[0], &order[2], &order[3]].map(String::as_str);
    let refused = home
        .post_refused(
            &app,
            &format!("{MATCH}/lineups/home"),
            &pairs(&boards(&swapped)),
        )
        .await;
    refused.assert_contains("The lineup was not saved");
    refused.assert_contains("Board 2: GT-M11: ");
    refused.assert_contains("on board 1, by ratings as of 2026-11-16");
    refused.assert_contains("by ratings as of 2026-11-16");
    // Issue 32 item 15: one message at a time. The lineup's refusal is the only alert; when the
    // result may be entered (GT-P2) is said in the report, not as another refusal.
    assert_eq!(
        refused.body.matches("role=\"alert\"").count(),
        1,
        "{}",
        refused.body
    );
    refused.assert_lacks("role=\"alert\">GT-P2: this match is set for");
    // The form keeps what was sent.
    assert_eq!(offered(&refused.body, "home"), order);

    // A board left empty above a named one: GT-M9.
    let gap = [&order[0], "", &order[1], &order[2]];
    let refused = home
        .post_refused(
            &app,
            &format!("{MATCH}/lineups/home"),
            &pairs(&boards(&gap)),
        )
        .await;
    refused.assert_contains("GT-M9");

    // In board order: stored, version 1, shown on the page.
    let right: Vec<&str> = order.iter().map(String::as_str).collect();
    let saved = home
        .post_ok(
            &app,
            &format!("{MATCH}/lineups/home"),
            &pairs(&boards(&right)),
        )
        .await;
    assert_eq!(saved.header("location"), format!("{MATCH}#lineup-home"));
    let page = home.get(&app, MATCH).await;
    page.assert_contains("version 1, named by coach@start.example");
    page.assert_contains("<li>1. ");
    // Sealed to the public until the match (RULES.md: in a league, from the match's start).
    let public = get(&app, MATCH).await;
    public.assert_lacks("named by");
    public.assert_contains("The lineups of round 4 are published together");

    // Named again against version 0: someone changed it meanwhile, nothing saved.
    let stale = home
        .post_expect(
            &app,
            &format!("{MATCH}/lineups/home"),
            &pairs(&boards(&right)),
            StatusCode::CONFLICT,
        )
        .await;
    stale.assert_contains("name it against version 1");
}

#[tokio::test]
async fn an_advisor_names_no_other_schools_lineup_and_the_public_none() {
    let app = setup().await;
    let mut visitor = Visitor::signed_in(&app, VISITOR).await;
    let page = visitor.get(&app, MATCH).await;
    page.assert_contains("lineups/away\"");
    visitor
        .post_forbidden(
            &app,
            &format!("{MATCH}/lineups/home"),
            &pairs(&boards(&["start1"])),
        )
        .await;
    // A side that is not one.
    visitor
        .post_expect(
            &app,
            &format!("{MATCH}/lineups/both"),
            &pairs(&boards(&["scott1"])),
            StatusCode::NOT_FOUND,
        )
        .await;
    let public = get(&app, MATCH).await;
    public.assert_contains("Lineups");
    public.assert_lacks("Name the lineup");
    // A played match takes no lineup: round 3's.
    let played = "/leagues/gthscl/2026-27/division-a/rounds/3/matches/start";
    let page = visitor.get(&app, played).await;
    page.assert_lacks("id=\"lineups\"");
}

/// The same rules through the API, with a token of the school's advisor: 422 with each reason's
/// board and rule, then 201 with the stored version, 409 against a stale version.
#[tokio::test]
async fn the_api_names_a_lineup_refused_with_the_rule_then_stored() {
    use arbiter_store::{Actor, NewApiToken};
    use axum::body::Body;
    use axum::http::Request;
    let store = store().await;
    let coach = advisor(&store, HOME, "Start High School").await;
    let league = store.league("gthscl").await.unwrap().unwrap();
    let (_, secret) = store
        .create_api_token(
            &NewApiToken {
                user: coach.id,
                league: league.id,
                role: Role::Advisor,
                school: Some("Start High School".into()),
                label: "lineups".into(),
            },
            &Actor::system(),
        )
        .await
        .unwrap();
    let app = app_on(&store, jiff::civil::date(2026, 11, 13));
    let post = |side: &'static str, body: String| {
        let app = app.clone();
        let secret = secret.clone();
        async move {
            send(
                &app,
                Request::post(format!("/api/v1{MATCH}/lineups/{side}"))
                    .header("content-type", "application/json")
                    .header("authorization", format!("Bearer {secret}"))
                    .body(Body::from(body))
                    .unwrap(),
            )
            .await
        }
    };
    let page = Visitor::signed_in(&app, HOME).await.get(&app, MATCH).await;
    let order = offered(&page.body, "home");
    let json = |ids: [&String; 4], version: u32| {
        serde_json::json!({"version": version, "boards": ids}).to_string()
    };
    let refused = post(
        "home",
        json([&order[3], &order[0], &order[1], &order[2]], 0),
    )
    .await;
    refused.assert_status(StatusCode::UNPROCESSABLE_ENTITY);
    let v: serde_json::Value = serde_json::from_str(&refused.body).unwrap();
    assert_eq!(v["error"]["refusal"], "lineup");
    let rules: Vec<&str> = v["error"]["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["rule"].as_str().unwrap())
        .collect();
    assert!(
        rules.iter().all(|r| ["GT-M11", "GT-M13"].contains(r)) && !rules.is_empty(),
        "{rules:?}"
    );
    assert_eq!(v["error"]["problems"][0]["board"], 2);

    let stored = post(
        "home",
        json([&order[0], &order[1], &order[2], &order[3]], 0),
    )
    .await;
    stored.assert_status(StatusCode::CREATED);
    let v: serde_json::Value = serde_json::from_str(&stored.body).unwrap();
    assert_eq!(
        (v["version"].as_u64(), v["side"].as_str()),
        (Some(1), Some("home"))
    );
    assert_eq!(v["boards"][0], order[0].as_str());
    let stale = post(
        "home",
        json([&order[0], &order[1], &order[2], &order[3]], 0),
    )
    .await;
    stale.assert_status(StatusCode::CONFLICT);
    // The visitors' lineup is not Start's advisor's to name.
    let other = post("away", r#"{"boards": ["scott1"]}"#.to_string()).await;
    other.assert_status(StatusCode::FORBIDDEN);
}

/// Issue 30: `arbiter result lineup --now` backdated a lineup as any advisor. The hall's clock
/// is the arbiter's (AS-11): an advisor naming a lineup at a moment of their choosing is refused.
#[tokio::test]
async fn as_11_an_advisor_may_not_name_a_lineup_at_a_moment_of_their_choosing() {
    let store = store().await;
    advisor(&store, HOME, "Start High School").await;
    let at = arbiter_web::MatchAddress {
        league: "gthscl".into(),
        season: "2026-27".into(),
        competition: "division-a".into(),
        round: 4,
        home: "start".into(),
    };
    let step = arbiter_web::OfficerStep::Lineup {
        side: arbiter_core::Side::Home,
        players: vec!["nobody".into()],
    };
    let back = "2026-11-13T12:00:00Z".parse::<jiff::Timestamp>().unwrap();
    let state = arbiter_web::AppState::new(store.clone()).with_now(back);
    let err = arbiter_web::officer_step(&state, HOME, &at, &step, None, false)
        .await
        .unwrap_err();
    assert!(
        err.contains("--now sets the hall's clock, which only the event's arbiter may do"),
        "{err}"
    );
    // On the system's clock the same advisor is heard (and told what is wrong with the players).
    let state = arbiter_web::AppState::new(store);
    let err = arbiter_web::officer_step(&state, HOME, &at, &step, None, false)
        .await
        .unwrap_err();
    assert!(!err.contains("--now"), "{err}");
}
