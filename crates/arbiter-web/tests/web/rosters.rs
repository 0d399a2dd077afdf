//! Players added from a roster file on the site (issue 12, part 1): every mistake listed and
//! nothing written, then a preview, then the players on their teams' rosters and in the history.

use arbiter_core::permissions::Role;
use axum::http::StatusCode;

use crate::common::*;

const ROSTERS: &str = "/leagues/gthscl/rosters";
const PRESIDENT: &str = "president@gthscl.example";

#[tokio::test]
async fn an_officer_previews_a_roster_file_then_adds_its_players() {
    let store = store().await;
    account(&store, PRESIDENT, Role::President, None).await;
    account(
        &store,
        "coach@start.example",
        Role::Advisor,
        Some("Start High School"),
    )
    .await;
    let app = app(&store);
    let mut president = Visitor::signed_in(&app, PRESIDENT).await;
    let account_page = president.get(&app, "/account").await;
    assert!(
        account_page.body.contains(&format!("href=\"{ROSTERS}\"")),
        "{}",
        account_page.body
    );
    let mut coach = Visitor::signed_in(&app, "coach@start.example").await;
    assert_eq!(coach.get(&app, ROSTERS).await.status, StatusCode::FORBIDDEN);

    let competition = "2026-27/division-a";
    let mistakes =
        "name,school,rating\nAna Diaz,Start High School,abc\nAna Diaz,Start High School,\n";
    let refused = president
        .post(
            &app,
            ROSTERS,
            &[
                ("competition", competition),
                ("text", mistakes),
                ("step", "preview"),
            ],
        )
        .await;
    assert_eq!(
        refused.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        refused.body
    );
    assert!(
        refused
            .body
            .contains("line 2, rating: “abc” is not a rating"),
        "{}",
        refused.body
    );
    assert!(
        refused
            .body
            .contains("line 3, name: Ana Diaz of Start High School is on line 2 too"),
        "{}",
        refused.body
    );

    let clean = "name,school,grade\nAna Diaz,Start High School,10\nNowhere Kid,Nowhere High,9\n";
    let refused = president
        .post(
            &app,
            ROSTERS,
            &[
                ("competition", competition),
                ("text", clean),
                ("step", "preview"),
            ],
        )
        .await;
    assert!(
        refused
            .body
            .contains("Nowhere High has no team in Division A"),
        "{}",
        refused.body
    );

    let clean = "name,school,grade\nAna Diaz,Start High School,10\n";
    let preview = president
        .post(
            &app,
            ROSTERS,
            &[
                ("competition", competition),
                ("text", clean),
                ("step", "preview"),
            ],
        )
        .await;
    assert_eq!(preview.status, StatusCode::OK, "{}", preview.body);
    assert!(
        preview
            .body
            .contains("line 2: Ana Diaz (1200N) joins Start Spartans as start-5"),
        "{}",
        preview.body
    );
    assert!(
        preview.body.contains("Add these 1 players"),
        "{}",
        preview.body
    );
    let team = "/leagues/gthscl/2026-27/division-a/teams/start";
    assert!(
        !get(&app, team).await.body.contains("Ana Diaz"),
        "a preview adds nothing"
    );

    let added = president
        .post(
            &app,
            ROSTERS,
            &[
                ("competition", competition),
                ("text", clean),
                ("step", "add"),
            ],
        )
        .await;
    assert_eq!(added.status, StatusCode::OK, "{}", added.body);
    assert!(
        added.body.contains("1 player added to Division A"),
        "{}",
        added.body
    );
    assert!(get(&app, team).await.body.contains("Ana Diaz"));
    let history = store
        .history(&arbiter_store::HistoryFilter::default())
        .await
        .unwrap();
    assert!(
        history
            .iter()
            .any(|h| h.action == "add_player" && h.after.as_ref().unwrap()["name"] == "Ana Diaz")
    );
}
