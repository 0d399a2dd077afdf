//! GT-F5: the President suspends the schedule for severe weather and resumes it; every match
//! still to play from the first day moves by the match days lost, each a change in the history
//! with GT-F5's reason, both schools told by mail; played matches stay. The page previews before
//! it moves anything, and the API says the same plan.

use std::time::Duration;

use arbiter_core::rules::permissions::Role;
use arbiter_core::{Pairing, TeamId};
use arbiter_mail::Mailer;
use arbiter_store::{HistoryFilter, Store};
use arbiter_web::{AppState, router};
use axum::body::Body;
use axum::http::{Request, StatusCode};
use jiff::civil::{Date, date};

use crate::common::*;
use crate::notices::{mail_dir, wait_for};

const PRESIDENT: &str = "president@gthscl.example";
const START: &str = "coach@start.example";
const SCOTT: &str = "coach@scott.example";
const PAGE: &str = "/leagues/gthscl/2026-27/suspension";
const API: &str = "/api/v1/leagues/gthscl/2026-27/suspension";

/// The day each match of the division is set for now, by round and home team.
async fn day_of(store: &Store, round: u32, home: &str) -> Option<Date> {
    let c = store
        .load_competition("gthscl", "division-a")
        .await
        .unwrap()
        .unwrap()
        .competition;
    let r = c.rounds.iter().find(|r| r.number == round).unwrap();
    r.pairings.iter().find_map(|p| match p {
        Pairing::Match(m) if m.home == TeamId(home.into()) => r.date_of(m),
        _ => None,
    })
}

/// The value of the hidden field `name` of a page.
fn hidden(body: &str, name: &str) -> String {
    let marker = format!("name=\"{name}\" value=\"");
    let i = body
        .find(&marker)
        .unwrap_or_else(|| panic!("no field {name}: {body}"))
        + marker.len();
    body[i..i + body[i..].find('"').unwrap()].to_string()
}

/// The suspension of `days` previewed, then confirmed from its preview, on the page.
async fn suspend_on_page(
    app: &axum::Router,
    president: &mut Visitor,
    days: &[(&str, &str)],
) -> Answer {
    let preview = president
        .post_expect(
            app,
            PAGE,
            &[days, &[("step", "preview")]].concat(),
            StatusCode::OK,
        )
        .await;
    let (seen, previewed) = (
        hidden(&preview.body, "seen"),
        hidden(&preview.body, "previewed"),
    );
    let confirm = [
        days,
        &[
            ("step", "apply"),
            ("seen", &seen),
            ("previewed", &previewed),
        ],
    ]
    .concat();
    president.post(app, PAGE, &confirm).await
}

#[tokio::test]
async fn gt_f5_the_president_suspends_a_week_and_every_match_still_to_play_moves() {
    let store = store().await;
    account(&store, PRESIDENT, Role::President, None).await;
    advisor(&store, START, "Start High School").await;
    advisor(&store, SCOTT, "Scott High School").await;
    let dir = mail_dir();
    let app = router(
        AppState::new(store.clone())
            .with_freshness(Duration::ZERO)
            .with_today(date(2026, 11, 6))
            .with_mail(Mailer::folder(&dir), "https://league.example.org"),
    );
    // Round 3 (Mon 9 Nov) is played; round 4 (Mon 16 Nov) is still to play.
    assert_eq!(day_of(&store, 4, "start").await, Some(date(2026, 11, 16)));

    // The officer reaches the page from the season set-up, without typing its address.
    let mut president = Visitor::signed_in(&app, PRESIDENT).await;
    let setup = president.get(&app, "/leagues/gthscl/setup").await;
    setup.assert_contains(&format!("href=\"{PAGE}\""));
    let page = president.get_ok(&app, PAGE).await;
    page.assert_contains("Suspend the schedule (GT-F5): 2026-27");
    page.assert_contains("Monday, Wednesday");
    // An advisor may not (the table: the President only).
    let mut coach = Visitor::signed_in(&app, START).await;
    let refused = coach.get_expect(&app, PAGE, StatusCode::FORBIDDEN).await;
    refused.assert_contains("GT-F5");

    // The preview: Mon 9 and Wed 11 Nov are lost, so round 4 moves two match days, a week; round
    // 3, played, stays. Nothing moves yet.
    let days = [
        ("from", "2026-11-09"),
        ("resume_on", "2026-11-16"),
        ("reason", "Ice storm: the schools are closed."),
    ];
    let preview = president
        .post_expect(
            &app,
            PAGE,
            &[days.as_slice(), &[("step", "preview")]].concat(),
            StatusCode::OK,
        )
        .await;
    for said in [
        // Waite's match will not be played (GT-M5: Waite was dropped), so it does not move.
        "1 match moves",
        "The suspension takes 2 match days",
        "Start Spartans v Zoë O&#39;Brien &#60;&#38;&#62; &#34;Q&#34;",
        "Mon 16 Nov 2026 &rarr; <strong>Mon 23 Nov 2026</strong>",
        "These have a result and stay",
        "Start Spartans v Clay Eagles</a>, Mon 9 Nov 2026",
        "Suspend the schedule and move this match",
    ] {
        assert!(preview.body.contains(said), "{said}: {}", preview.body);
    }
    assert_eq!(day_of(&store, 4, "start").await, Some(date(2026, 11, 16)));
    let seen = hidden(&preview.body, "seen");
    let previewed = hidden(&preview.body, "previewed");
    assert_eq!(previewed, "2026-11-09/2026-11-16");

    // Confirmed: round 4's match moves with GT-F5's reason in its history; the dropped team's
    // (GT-M5) stays on its day.
    let confirm = [
        days.as_slice(),
        &[
            ("step", "apply"),
            ("seen", &seen),
            ("previewed", &previewed),
        ],
    ]
    .concat();
    let applied = president.post_ok(&app, PAGE, &confirm).await;
    assert_eq!(applied.header("location"), format!("{PAGE}?moved=1"));
    let done = president.get(&app, &format!("{PAGE}?moved=1")).await;
    done.assert_contains("1 match moved");
    assert_eq!(day_of(&store, 4, "start").await, Some(date(2026, 11, 23)));
    assert_eq!(day_of(&store, 4, "drop").await, Some(date(2026, 11, 16)));
    assert_eq!(day_of(&store, 3, "start").await, Some(date(2026, 11, 9)));
    let history = store.history(&HistoryFilter::default()).await.unwrap();
    let moved: Vec<_> = history
        .iter()
        .filter(|h| h.action == "move_match")
        .collect();
    assert_eq!(moved.len(), 1, "{moved:#?}");
    for h in &moved {
        assert_eq!(
            h.reason.as_deref(),
            Some(
                "GT-F5: schedule suspended from 2026-11-09 for severe weather, resumed on 2026-11-16: Ice storm: the schools are closed."
            )
        );
        assert_eq!(h.before.as_ref().unwrap()["date"], "2026-11-16");
        assert_eq!(h.after.as_ref().unwrap()["date"], "2026-11-23");
        assert_eq!(h.actor.as_deref(), Some(PRESIDENT));
    }
    // Both schools of the match are told, each by one mail that lists its matches.
    let sent = wait_for(&dir, 2).await;
    let mut to: Vec<&str> = sent.iter().map(|(t, _)| t.as_str()).collect();
    to.sort_unstable();
    assert_eq!(to, [SCOTT, START], "{sent:#?}");
    for (_, text) in &sent {
        assert!(
            text.contains("Subject: GTHSCL: New days for 1 match of"),
            "{text}"
        );
        assert!(
            text.contains("(Division A, round 4): from Mon 16 Nov 2026 to Mon 23 Nov 2026."),
            "{text}"
        );
    }

    // The same confirm sent twice moves nothing again: the division changed since its preview.
    let again = president
        .post_expect(&app, PAGE, &confirm, StatusCode::CONFLICT)
        .await;
    again.assert_contains("Division A changed after its schedule was read");
    assert_eq!(day_of(&store, 4, "start").await, Some(date(2026, 11, 23)));

    // Other days than the ones previewed are previewed, not applied.
    let other = [
        ("from", "2026-11-23"),
        ("resume_on", "2026-11-25"),
        ("reason", "Snow"),
        ("step", "apply"),
        ("seen", &seen),
        ("previewed", &previewed),
    ];
    let a = president
        .post_expect(&app, PAGE, &other, StatusCode::OK)
        .await;
    a.assert_contains("The days are not the ones previewed");
    assert_eq!(day_of(&store, 4, "start").await, Some(date(2026, 11, 23)));

    // GT-F5's refusals, each a sentence with the rule; nothing moves.
    let late = president
        .post(
            &app,
            PAGE,
            &[
                ("from", "2026-11-23"),
                ("resume_on", "2027-04-05"),
                ("step", "preview"),
            ],
        )
        .await;
    // Resumed later, the season ends later: the preview says so before anything moves.
    late.assert_status(StatusCode::OK);
    late.assert_contains("The last matches move past the season&#39;s last day, Wed 31 Mar 2027, so the season runs on to");
    let backwards = president
        .post_refused(
            &app,
            PAGE,
            &[
                ("from", "2026-11-23"),
                ("resume_on", "2026-11-20"),
                ("step", "preview"),
            ],
        )
        .await;
    backwards.assert_contains("GT-F5: play cannot resume on 2026-11-20");
    let no_reason = president
        .post_refused(
            &app,
            PAGE,
            &[
                ("from", "2026-11-23"),
                ("resume_on", "2026-11-30"),
                ("step", "apply"),
            ],
        )
        .await;
    no_reason.assert_contains("GT-F5: say why the schedule is suspended");
    assert_eq!(day_of(&store, 4, "start").await, Some(date(2026, 11, 23)));
    std::fs::remove_dir_all(&dir).unwrap();
}

async fn call(app: &axum::Router, secret: &str, body: &str) -> Answer {
    let req = Request::post(API)
        .header("authorization", format!("Bearer {secret}"))
        .header("content-type", "application/json")
        .body(Body::from(body.to_string()))
        .unwrap();
    send(app, req).await
}

#[tokio::test]
async fn gt_f5_the_api_previews_and_applies_a_suspension_with_the_presidents_token() {
    let store = store().await;
    let app = app(&store);
    account(&store, PRESIDENT, Role::President, None).await;
    advisor(&store, START, "Start High School").await;
    let president = api_token(&store, PRESIDENT, Role::President, None).await;
    let coach = api_token(&store, START, Role::Advisor, Some("Start High School")).await;
    let body =
        r#"{"from": "2026-11-16", "resume_on": "2026-11-18", "reason": "Snow", "preview": true}"#;

    let refused = call(&app, &coach, body).await;
    refused.assert_status(StatusCode::FORBIDDEN);

    let preview = call(&app, &president, body).await;
    preview.assert_status(StatusCode::OK);
    let j = preview.json();
    assert_eq!(j["applied"], false);
    assert_eq!(j["divisions"][0]["match_days_lost"], 1);
    let moves = j["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 1, "{j:#}");
    assert_eq!(moves[0]["from"], "2026-11-16");
    assert_eq!(moves[0]["to"], "2026-11-18");
    assert_eq!(moves[0]["competition"], "division-a");
    assert_eq!(day_of(&store, 4, "start").await, Some(date(2026, 11, 16)));

    let no_reason = call(
        &app,
        &president,
        r#"{"from": "2026-11-16", "resume_on": "2026-11-18"}"#,
    )
    .await;
    no_reason.assert_status(StatusCode::UNPROCESSABLE_ENTITY);
    let e = no_reason.json();
    assert_eq!(e["error"]["problems"][0]["field"], "reason");
    assert_eq!(e["error"]["problems"][0]["rule"], "GT-F5");

    let applied = call(
        &app,
        &president,
        r#"{"from": "2026-11-16", "resume_on": "2026-11-18", "reason": "Snow"}"#,
    )
    .await;
    applied.assert_status(StatusCode::OK);
    let j = applied.json();
    assert_eq!(j["applied"], true);
    assert_eq!(
        j["reason"],
        "GT-F5: schedule suspended from 2026-11-16 for severe weather, resumed on 2026-11-18: Snow"
    );
    assert_eq!(day_of(&store, 4, "start").await, Some(date(2026, 11, 18)));
    // The dropped team's match will not be played (GT-M5): it keeps its day.
    assert_eq!(day_of(&store, 4, "drop").await, Some(date(2026, 11, 16)));

    // The document says the reason's limit with core's number.
    let doc = get(&app, "/api/v1/openapi.json").await.json();
    assert_eq!(
        doc["components"]["schemas"]["SuspensionBody"]["properties"]["reason"]["maxLength"],
        arbiter_core::season::suspend::WHY_MAX_CHARS
    );
}

/// GT-F5: a suspension that moves several matches of a school tells it once, in one mail that
/// lists every one of its matches with its new day, not a mail a match.
#[tokio::test]
async fn gt_f5_each_school_gets_one_mail_listing_all_its_moved_matches() {
    // The demo's season, on a day with several matches of each school still to play.
    let store = Store::open_sqlite_memory().await.unwrap();
    store.migrate().await.unwrap();
    let today = date(2027, 1, 13);
    arbiter_demo::write_to(
        &store,
        &arbiter_demo::generate(today),
        &arbiter_store::Actor::default(),
        |_, _| {},
    )
    .await
    .unwrap();
    const CHIEF: &str = "chief@gthscl.example";
    const MAUMEE: &str = "coach@maumee.example";
    account(&store, CHIEF, Role::President, None).await;
    advisor(&store, START, "Start High School").await;
    advisor(&store, MAUMEE, "Maumee High School").await;
    let dir = mail_dir();
    let state = AppState::new(store.clone())
        .with_freshness(Duration::ZERO)
        .with_today(today)
        .with_mail(Mailer::folder(&dir), "https://league.example.org");
    let app = router(state.clone());
    let mut president = Visitor::signed_in(&app, CHIEF).await;
    let days = [
        ("from", "2027-01-18"),
        ("resume_on", "2027-02-01"),
        ("reason", "Blizzard."),
    ];
    let applied = suspend_on_page(&app, &mut president, &days).await;
    applied.assert_status(StatusCode::SEE_OTHER);
    let history = store.history(&HistoryFilter::default()).await.unwrap();
    let moved = history.iter().filter(|h| h.action == "move_match").count();
    assert!(moved >= 4, "several matches move: {moved}");
    // One mail an advisor, whatever the number of their school's matches moved.
    state.mail_sent().await;
    let sent = wait_for(&dir, 2).await;
    let mut to: Vec<&str> = sent.iter().map(|(t, _)| t.as_str()).collect();
    to.sort_unstable();
    let all = to.len();
    to.dedup();
    assert_eq!(all, to.len(), "one mail a person: {to:?}");
    assert!(to.contains(&START) && to.contains(&MAUMEE), "{to:?}");
    let start = sent
        .iter()
        .find(|(to, _)| to == START)
        .map(|(_, text)| text)
        .unwrap();
    let listed = start.matches(", round ").count();
    assert!(listed >= 2, "every moved match of Start is listed: {start}");
    assert!(
        start.contains(&format!(
            "{listed} matches of Start High School move to new days"
        )),
        "{start}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// GT-F5, issue 32 item 8: the President undoes a suspension from its page: every match it
/// moved goes back to its earlier day, a new version in its history with the reason, and the
/// suspension is no longer offered to undo.
#[tokio::test]
async fn gt_f5_the_president_undoes_a_suspension_and_its_matches_go_back() {
    let store = store().await;
    account(&store, PRESIDENT, Role::President, None).await;
    let app = router(
        AppState::new(store.clone())
            .with_freshness(Duration::ZERO)
            .with_today(date(2026, 11, 6))
            .with_mail(crate::common::quiet_mail(), "https://league.example.org"),
    );
    let mut president = Visitor::signed_in(&app, PRESIDENT).await;
    let days = [
        ("from", "2026-11-09"),
        ("resume_on", "2026-11-16"),
        ("reason", "Ice storm."),
    ];
    let applied = suspend_on_page(&app, &mut president, &days).await;
    applied.assert_status(StatusCode::SEE_OTHER);
    assert_eq!(day_of(&store, 4, "start").await, Some(date(2026, 11, 23)));

    // The page offers to undo it, saying what goes back.
    let page = president.get(&app, PAGE).await;
    for said in [
        "Undo this suspension",
        "name=\"undo\" value=\"2026-11-09/2026-11-16\"",
        "Division A, round 4, Start Spartans v Zoë",
        "back from Mon 23 Nov 2026 to Mon 16 Nov 2026",
    ] {
        assert!(page.body.contains(said), "{said}: {}", page.body);
    }
    let no_reason = president
        .post_refused(
            &app,
            PAGE,
            &[("step", "undo"), ("undo", "2026-11-09/2026-11-16")],
        )
        .await;
    no_reason.assert_contains("GT-F5: say why the suspension is undone");
    let undone = president
        .post_ok(
            &app,
            PAGE,
            &[
                ("step", "undo"),
                ("undo", "2026-11-09/2026-11-16"),
                ("reason", "The roads were cleared by Monday."),
            ],
        )
        .await;
    assert_eq!(undone.header("location"), format!("{PAGE}?undone=1"));
    assert_eq!(day_of(&store, 4, "start").await, Some(date(2026, 11, 16)));
    let history = store.history(&HistoryFilter::default()).await.unwrap();
    let back = history
        .iter()
        .find(|h| {
            h.action == "move_match"
                && h.reason.as_deref()
                    == Some(
                        "GT-F5: suspension of the schedule from 2026-11-09 (resumed on 2026-11-16) undone: The roads were cleared by Monday.",
                    )
        })
        .unwrap_or_else(|| panic!("{history:#?}"));
    assert_eq!(back.before.as_ref().unwrap()["date"], "2026-11-23");
    assert_eq!(back.after.as_ref().unwrap()["date"], "2026-11-16");
    let page = president.get(&app, &format!("{PAGE}?undone=1")).await;
    page.assert_contains("The suspension is undone (GT-F5): 1 match moved back");
    page.assert_lacks("Undo this suspension");
    // The same days suspended again are a suspension of their own, to undo again.
    let again = suspend_on_page(&app, &mut president, &days).await;
    again.assert_status(StatusCode::SEE_OTHER);
    let page = president.get(&app, PAGE).await;
    page.assert_contains("Undo this suspension");
}

/// GT-F5: the API undoes a suspension as the page does, and refuses one not applied.
#[tokio::test]
async fn gt_f5_the_api_undoes_a_suspension_with_the_presidents_token() {
    let store = store().await;
    let app = app(&store);
    account(&store, PRESIDENT, Role::President, None).await;
    let president = api_token(&store, PRESIDENT, Role::President, None).await;
    let applied = call(
        &app,
        &president,
        r#"{"from": "2026-11-16", "resume_on": "2026-11-18", "reason": "Snow"}"#,
    )
    .await;
    applied.assert_status(StatusCode::OK);
    assert_eq!(day_of(&store, 4, "start").await, Some(date(2026, 11, 18)));
    let undo = r#"{"from": "2026-11-16", "resume_on": "2026-11-18", "reason": "It thawed.", "undo": true}"#;
    let undone = call(&app, &president, undo).await;
    undone.assert_status(StatusCode::OK);
    let j = undone.json();
    assert_eq!(j["applied"], true);
    assert_eq!(
        j["reason"],
        "GT-F5: suspension of the schedule from 2026-11-16 (resumed on 2026-11-18) undone: It thawed."
    );
    assert_eq!(j["moves"][0]["from"], "2026-11-18");
    assert_eq!(j["moves"][0]["to"], "2026-11-16");
    assert_eq!(day_of(&store, 4, "start").await, Some(date(2026, 11, 16)));
    let again = call(&app, &president, undo).await;
    again.assert_status(StatusCode::UNPROCESSABLE_ENTITY);
    again.assert_contains(
        "No suspension from 2026-11-16 until 2026-11-18 is applied and not undone",
    );
}
