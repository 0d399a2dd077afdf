//! The schedule as iCalendar feeds (issue 12, part 6): a team's, a competition's and a league's,
//! linked from the pages, read back by an independent parser, each match on its day at the
//! home school.

use axum::http::StatusCode;
use icalendar::{Calendar, CalendarComponent, Component, DatePerhapsTime, EventLike};

use crate::common::*;

const C: &str = "/leagues/gthscl/2026-27/division-a";

fn events(body: &str) -> Vec<icalendar::Event> {
    let calendar: Calendar = body.parse().unwrap();
    calendar
        .components
        .into_iter()
        .filter_map(|c| match c {
            CalendarComponent::Event(e) => Some(e),
            _ => None,
        })
        .collect()
}

fn day(e: &icalendar::Event) -> String {
    match e.get_start() {
        Some(DatePerhapsTime::Date(d)) => d.to_string(),
        other => panic!("{other:?} is not a day"),
    }
}

#[tokio::test]
async fn a_team_feed_has_its_matches_at_the_home_school_and_is_linked_from_its_page() {
    let store = store().await;
    let app = app(&store);
    let team = get(&app, &format!("{C}/teams/start")).await;
    assert!(
        team.body
            .contains(&format!("href=\"{C}/teams/start/schedule.ics\"")),
        "{}",
        team.body
    );
    let feed = get(&app, &format!("{C}/teams/start/schedule.ics")).await;
    assert_eq!(feed.status, StatusCode::OK);
    assert_eq!(feed.header("content-type"), "text/calendar; charset=utf-8");
    let e = events(&feed.body);
    // Start plays in every round of the four (a match each).
    assert_eq!(e.len(), 4, "{}", feed.body);
    let round4 = e
        .iter()
        .find(|e| e.get_uid() == Some("gthscl-2026-27-division-a-r4-start@arbiter"))
        .unwrap();
    assert_eq!(day(round4), "2026-11-16");
    assert_eq!(round4.get_location(), Some("Start High School"));
    assert!(
        round4
            .get_summary()
            .unwrap()
            .starts_with("Start Spartans v ")
    );
    assert!(
        round4
            .get_url()
            .unwrap()
            .ends_with("/rounds/4/matches/start")
    );
    // Round 1 was away, at Scott High School.
    let away = e.iter().find(|e| day(e) == "2026-11-02").unwrap();
    assert_eq!(away.get_location(), Some("Scott High School"));
    // An ETag: a phone's calendar polling the feed gets 304 until it changes.
    let tag = feed.header("etag").to_string();
    let again = send(
        &app,
        axum::http::Request::get(format!("{C}/teams/start/schedule.ics"))
            .header("if-none-match", tag)
            .body(axum::body::Body::empty())
            .unwrap(),
    )
    .await;
    assert_eq!(again.status, StatusCode::NOT_MODIFIED);
}

#[tokio::test]
async fn the_competition_and_league_feeds_hold_every_match() {
    let store = store().await;
    let app = app(&store);
    let page = get(&app, C).await;
    assert!(
        page.body.contains(&format!("href=\"{C}/schedule.ics\"")),
        "{}",
        page.body
    );
    let division = events(&get(&app, &format!("{C}/schedule.ics")).await.body);
    assert_eq!(division.len(), 8);
    let league = get(&app, "/leagues/gthscl/schedule.ics").await;
    assert_eq!(league.status, StatusCode::OK);
    assert!(events(&league.body).len() >= division.len());
    assert_eq!(
        get(&app, &format!("{C}/teams/nobody/schedule.ics"))
            .await
            .status,
        StatusCode::NOT_FOUND
    );
}

/// GT-M2: the home advisor moves the match; a Saturday and a day beyond three school weeks are
/// refused with the rule, the President's override allows the late day, and the team's feed
/// and the match page show the new date, the history the old one and the reason.
#[tokio::test]
async fn a_moved_match_moves_in_the_feed_with_the_rule_said_first() {
    use arbiter_core::permissions::Role;
    let store = store().await;
    account(
        &store,
        "coach@start.example",
        Role::Advisor,
        Some("Start High School"),
    )
    .await;
    account(&store, "president@gthscl.example", Role::President, None).await;
    let app = app_on(&store, jiff::civil::date(2026, 11, 13));
    let m = format!("{C}/rounds/4/matches/start");
    let mut coach = Visitor::signed_in(&app, "coach@start.example").await;
    let page = coach.get(&app, &m).await;
    assert!(
        page.body.contains(&format!("action=\"{m}/move\"")),
        "{}",
        page.body
    );
    // The advisor has no override.
    assert!(!page.body.contains("name=\"override\""), "{}", page.body);

    let saturday = coach
        .post(
            &app,
            &format!("{m}/move"),
            &[("date", "2026-11-21"), ("reason", "Bus")],
        )
        .await;
    assert_eq!(
        saturday.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        saturday.body
    );
    assert!(
        saturday
            .body
            .contains("GT-M2: 2026-11-21 is a Saturday, not a school day"),
        "{}",
        saturday.body
    );
    // GT-M2: no match moves onto a closure of the season's calendar.
    let season = store
        .seasons(store.league("gthscl").await.unwrap().unwrap().id)
        .await
        .unwrap();
    store
        .add_closure(
            season[0].id,
            &arbiter_store::NewClosure {
                starts_on: jiff::civil::date(2026, 11, 25),
                ends_on: jiff::civil::date(2026, 11, 27),
                reason: "Thanksgiving break".into(),
            },
            &arbiter_store::Actor::system(),
        )
        .await
        .unwrap();
    let closed = coach
        .post(
            &app,
            &format!("{m}/move"),
            &[("date", "2026-11-25"), ("reason", "Bus")],
        )
        .await;
    assert_eq!(closed.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        closed.body.contains("Thanksgiving break"),
        "{}",
        closed.body
    );
    let late = coach
        .post(
            &app,
            &format!("{m}/move"),
            &[("date", "2026-12-14"), ("reason", "Snow")],
        )
        .await;
    assert_eq!(late.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        late.body
            .contains("17 school days after the original date 2026-11-16"),
        "{}",
        late.body
    );

    let mut president = Visitor::signed_in(&app, "president@gthscl.example").await;
    let page = president.get(&app, &m).await;
    assert!(page.body.contains("name=\"override\""), "{}", page.body);
    let moved = president
        .post(
            &app,
            &format!("{m}/move"),
            &[
                ("date", "2026-12-14"),
                ("start", "4pm"),
                ("reason", "Snow closed both schools"),
                ("override", "yes"),
            ],
        )
        .await;
    assert_eq!(moved.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        moved.body.contains("“4pm” is not a time; give it as HH:MM"),
        "{}",
        moved.body
    );
    let moved = president
        .post(
            &app,
            &format!("{m}/move"),
            &[
                ("date", "2026-12-14"),
                ("start", "16:00"),
                ("reason", "Snow closed both schools"),
                ("override", "yes"),
            ],
        )
        .await;
    assert_eq!(moved.status, StatusCode::SEE_OTHER, "{}", moved.body);

    let feed = events(
        &get(&app, &format!("{C}/teams/start/schedule.ics"))
            .await
            .body,
    );
    let round4 = feed
        .iter()
        .find(|e| e.get_uid() == Some("gthscl-2026-27-division-a-r4-start@arbiter"))
        .unwrap();
    assert_eq!(
        format!("{:?}", round4.get_start()),
        "Some(DateTime(Floating(2026-12-14T16:00:00)))",
        "GT-M1: the time the home advisor arranged"
    );
    assert!(
        get(&app, &m)
            .await
            .body
            .contains("Mon 14 Dec 2026 at 16:00")
    );
    let history = store
        .history(&arbiter_store::HistoryFilter::default())
        .await
        .unwrap();
    let h = history.iter().find(|h| h.action == "move_match").unwrap();
    assert_eq!(h.before.as_ref().unwrap()["date"], "2026-11-16");
    assert_eq!(h.after.as_ref().unwrap()["date"], "2026-12-14");
    assert_eq!(h.after.as_ref().unwrap()["start"], "16:00");
    assert!(
        h.reason
            .as_deref()
            .unwrap()
            .starts_with("Moved by arrangement: Snow closed both schools")
    );
}

/// GT-M2 on the match day: a move by arrangement is refused (only the weather postpones a match
/// on its day); postponed for the weather it has two school weeks, three when both advisors agree
/// the date; the history says why it moved.
#[tokio::test]
async fn gt_m2_on_its_day_a_match_is_postponed_only_for_the_weather() {
    use arbiter_core::permissions::Role;
    let store = store().await;
    account(
        &store,
        "coach@start.example",
        Role::Advisor,
        Some("Start High School"),
    )
    .await;
    // Round 4's match at Start is on Mon 16 Nov 2026, today.
    let app = app_on(&store, jiff::civil::date(2026, 11, 16));
    let m = format!("{C}/rounds/4/matches/start");
    let mut coach = Visitor::signed_in(&app, "coach@start.example").await;
    let send = |date: &'static str, why: &'static str, agreed: bool| {
        let mut f = vec![
            ("date", date),
            ("why", why),
            ("reason", "Snow closed both schools at noon."),
        ];
        if agreed {
            f.push(("agreed", "yes"));
        }
        f
    };
    let arranged = coach
        .post(
            &app,
            &format!("{m}/move"),
            &send("2026-11-30", "arranged", false),
        )
        .await;
    assert_eq!(arranged.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        arranged
            .body
            .contains("on its day only the weather postpones it"),
        "{}",
        arranged.body
    );
    // Mon 30 Nov is the 10th school day after Mon 16 Nov; Tue 1 Dec the 11th.
    let late = coach
        .post(
            &app,
            &format!("{m}/move"),
            &send("2026-12-01", "weather", false),
        )
        .await;
    assert_eq!(late.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        late.body
            .contains("within two school weeks (10 school days)"),
        "{}",
        late.body
    );
    assert!(
        late.body.contains(r#"value="weather" checked"#),
        "the form is kept: {}",
        late.body
    );
    let agreed = coach
        .post(
            &app,
            &format!("{m}/move"),
            &send("2026-12-01", "weather", true),
        )
        .await;
    assert_eq!(agreed.status, StatusCode::SEE_OTHER, "{}", agreed.body);
    let history = store
        .history(&arbiter_store::HistoryFilter::default())
        .await
        .unwrap();
    let moved = history.iter().find(|h| h.action == "move_match").unwrap();
    assert_eq!(
        moved.reason.as_deref(),
        Some(
            "Postponed for the weather, the new date agreed by both advisors: Snow closed both schools at noon."
        )
    );
}
