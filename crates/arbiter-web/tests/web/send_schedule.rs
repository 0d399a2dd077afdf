//! GT-O3: the Secretary sends the schedule to the schools, one mail a school with its teams'
//! days, times, places and calendar link, from a page that previews how many schools and mails;
//! the sending is in the history. The schedule prints per division and per school, and
//! downloads as CSV per division and per season.

use std::time::Duration;

use arbiter_core::rules::permissions::Role;
use arbiter_mail::Mailer;
use arbiter_store::HistoryFilter;
use arbiter_web::{AppState, router};
use axum::http::StatusCode;
use jiff::civil::date;

use crate::common::*;
use crate::notices::{mail_dir, mails, wait_for};

const SECRETARY: &str = "secretary@gthscl.example";
const START: &str = "coach@start.example";
const SCOTT: &str = "coach@scott.example";
const PAGE: &str = "/leagues/gthscl/2026-27/send-schedule";

#[tokio::test]
async fn gt_o3_the_secretary_sends_each_school_its_schedule_in_one_mail() {
    let store = store().await;
    account(&store, SECRETARY, Role::Secretary, None).await;
    advisor(&store, START, "Start High School").await;
    advisor(&store, SCOTT, "Scott High School").await;
    set_school_address(
        &store,
        "Scott High School",
        "2400 Collingwood Blvd, Toledo, OH",
    )
    .await;
    let dir = mail_dir();
    let app = router(
        AppState::new(store.clone())
            .with_freshness(Duration::ZERO)
            .with_today(date(2026, 11, 6))
            .with_mail(Mailer::folder(&dir), "https://league.example.org"),
    );

    // Reached from the Secretary's account page, not typed.
    let mut secretary = Visitor::signed_in(&app, SECRETARY).await;
    let account_page = secretary.get(&app, "/account").await;
    account_page.assert_contains(&format!("href=\"{PAGE}\""));
    // An advisor may not (GT-O3: the Secretary and the President).
    let mut coach = Visitor::signed_in(&app, START).await;
    assert_eq!(coach.get(&app, PAGE).await.status, StatusCode::FORBIDDEN);

    // The preview: four schools play, two have an advisor, so two mails; nothing sent yet.
    let preview = secretary.get_ok(&app, PAGE).await;
    for said in [
        "4 schools with a match in 2026-27: 2 mails to send",
        "2 schools have no advisor yet",
        "Send these 2 mails",
        "/leagues/gthscl/2026-27/division-a/schedule",
        "/leagues/gthscl/2026-27/schedule.csv",
    ] {
        assert!(preview.body.contains(said), "{said}: {}", preview.body);
    }
    assert!(mails(&dir).is_empty());

    let sent = secretary.post_ok(&app, PAGE, &[("step", "send")]).await;
    let done = secretary.get(&app, sent.header("location")).await;
    done.assert_contains("The schedule went to 2 schools in 2 mails (GT-O3)");
    let sent = wait_for(&dir, 2).await;
    let mut to: Vec<&str> = sent.iter().map(|(t, _)| t.as_str()).collect();
    to.sort_unstable();
    assert_eq!(to, [SCOTT, START], "one mail a school: {sent:#?}");
    let start = &sent.iter().find(|(t, _)| t == START).unwrap().1;
    for said in [
        "Subject: GTHSCL: the 2026-27 schedule of Start High School",
        "Mon 16 Nov 2026",
        // Round 1 away at Scott: the place with its address.
        "At Scott High School, 2400 Collingwood Blvd, Toledo, OH.",
        "webcal://league.example.org/leagues/gthscl/schools/start-high-school/schedule.ics",
        "https://league.example.org/leagues/gthscl/schools/start-high-school/schedule",
    ] {
        assert!(start.contains(said), "{said}: {start}");
    }
    // Scott's mail holds Scott's matches, not Start v Clay.
    let scott = &sent.iter().find(|(t, _)| t == SCOTT).unwrap().1;
    assert!(!scott.contains("Start Spartans v Clay Eagles"), "{scott}");

    // The sending is in the history, by the Secretary.
    let history = store.history(&HistoryFilter::default()).await.unwrap();
    let row = history
        .iter()
        .find(|h| h.action == "send_schedule")
        .expect("the sending is in the history");
    assert_eq!(row.actor.as_deref(), Some(SECRETARY));
    assert_eq!(
        row.after.as_ref().unwrap()["schools"],
        serde_json::json!(["Scott High School", "Start High School"])
    );
    let log = secretary.get(&app, "/leagues/gthscl/history").await;
    log.assert_contains("sent the schedule of 2026-27 to 2 schools (2 mails, GT-O3)");
}

#[tokio::test]
async fn gt_o3_the_schedule_prints_per_division_and_school_and_downloads_as_csv() {
    let store = store().await;
    set_school_address(
        &store,
        "Start High School",
        "2010 Tremainsville Rd, Toledo, OH",
    )
    .await;
    let app = app_on(&store, date(2026, 11, 6));

    // The division's page links both.
    let division = get(&app, DIVISION).await;
    division.assert_contains(&format!("href=\"{DIVISION}/schedule\""));
    division.assert_contains(&format!("{DIVISION}/schedule.csv"));

    let csv = get_ok(&app, &format!("{DIVISION}/schedule.csv")).await;
    assert_eq!(csv.header("content-type"), "text/csv; charset=utf-8");
    let mut lines = csv.body.lines();
    assert_eq!(
        lines.next(),
        Some("round,date,time,home,away,place,address,note")
    );
    csv.assert_contains("4,2026-11-16,,Start Spartans,\"Zoë O'Brien <&> \"\"Q\"\"\",Start High School,\"2010 Tremainsville Rd, Toledo, OH\",");

    let season = get_ok(&app, "/leagues/gthscl/2026-27/schedule.csv").await;
    assert!(
        season.body.starts_with(
            "division,round,date,time,home,away,place,address,note\r\nDivision A,1,2026-11-02,"
        ),
        "{}",
        season.body
    );

    let sheet = get_ok(&app, &format!("{DIVISION}/schedule")).await;
    for said in [
        "Schedule: ",
        "Mon 16 Nov 2026",
        "Where the home teams play",
        "2010 Tremainsville Rd, Toledo, OH",
    ] {
        assert!(sheet.body.contains(said), "{said}: {}", sheet.body);
    }

    // A school's page links its own sheet: its teams' matches only.
    let school = get(&app, "/leagues/gthscl/schools/clay-high-school").await;
    let href = "/leagues/gthscl/schools/clay-high-school/schedule";
    school.assert_contains(href);
    let sheet = get_ok(&app, href).await;
    sheet.assert_contains("Clay Eagles");
    sheet.assert_lacks("Waite Dropouts v Zo");
}
