//! The schedule as iCalendar feeds (issue 12, part 6; issue 32): a team's, a school's, a
//! competition's and a league's, each offered on its page as a `webcal://` subscription and as
//! its web address, served as `text/calendar` and never as an attachment, read back by an
//! independent parser: each match at the home school with its address, at its time in the
//! league's zone (or on its day), a moved one with its `SEQUENCE` risen, one that will not be
//! played cancelled (GT-M5).

use axum::http::StatusCode;
use icalendar::{Calendar, CalendarComponent, Component, DatePerhapsTime, EventLike};

use crate::common::*;

const C: &str = "/leagues/gthscl/2026-27/division-a";
/// The site's address in the tests' app.
const SITE: &str = "http://localhost:8080";

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

fn by_uid<'e>(events: &'e [icalendar::Event], uid: &str) -> &'e icalendar::Event {
    events
        .iter()
        .find(|e| e.get_uid() == Some(uid))
        .unwrap_or_else(|| panic!("no event {uid}"))
}

/// A property's text with RFC 5545's escapes undone (the parser leaves some in).
fn text(s: Option<&str>) -> String {
    s.unwrap_or_default()
        .replace("\\,", ",")
        .replace("\\;", ";")
        .replace("\\n", "\n")
}

/// Both links of the feed at `path` (`webcal://` and the web address), as a page offers them.
fn offers(body: &str, path: &str) -> bool {
    let rest = SITE.trim_start_matches("http://");
    body.contains(&format!("href=\"webcal://{rest}{path}\""))
        && body.contains(&format!("href=\"{SITE}{path}\""))
}

#[tokio::test]
async fn a_team_feed_is_offered_to_subscribe_and_holds_its_matches_at_the_home_school_with_its_address()
 {
    let store = store().await;
    set_school_address(
        &store,
        "Start High School",
        "2010 Tremainsville Rd\nToledo, OH 43613",
    )
    .await;
    let app = app(&store);
    let team = get(&app, &format!("{C}/teams/start")).await;
    assert!(
        offers(&team.body, &format!("{C}/teams/start/schedule.ics")),
        "{}",
        team.body
    );
    assert!(
        offers(
            &team.body,
            "/leagues/gthscl/schools/start-high-school/schedule.ics"
        ),
        "the school's feed too: {}",
        team.body
    );
    let feed = get_ok(&app, &format!("{C}/teams/start/schedule.ics")).await;
    assert_eq!(feed.header("content-type"), "text/calendar; charset=utf-8");
    assert_eq!(
        feed.header("content-disposition"),
        "",
        "subscribed to, not saved as a file"
    );
    feed.assert_contains("X-WR-TIMEZONE:America/New_York\r\n");
    let e = events(&feed.body);
    // Start plays in every round of the four (a match each).
    assert_eq!(e.len(), 4, "{}", feed.body);
    let round4 = by_uid(&e, "gthscl-2026-27-division-a-r4-start@arbiter");
    // No time is arranged yet (GT-M1): the event lasts the day.
    assert_eq!(day(round4), "2026-11-16");
    assert_eq!(
        text(round4.get_location()),
        "Start High School, 2010 Tremainsville Rd, Toledo, OH 43613"
    );
    assert_eq!(round4.get_sequence(), Some(0));
    assert_eq!(round4.get_status(), Some(icalendar::EventStatus::Confirmed));
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
    // Round 1 was away, at Scott High School, which has no address set.
    let away = e.iter().find(|e| day(e) == "2026-11-02").unwrap();
    assert_eq!(away.get_location(), Some("Scott High School"));
    assert!(
        text(away.get_description()).contains("Result: 3–1."),
        "{:?}",
        away.get_description()
    );
    // An ETag: a phone's calendar polling the feed gets 304 until it changes...
    let tag = feed.header("etag").to_string();
    let poll = || {
        send(
            &app,
            axum::http::Request::get(format!("{C}/teams/start/schedule.ics"))
                .header("if-none-match", tag.clone())
                .body(axum::body::Body::empty())
                .unwrap(),
        )
    };
    assert_eq!(poll().await.status, StatusCode::NOT_MODIFIED);
    // ...and the new address once an officer changes it.
    set_school_address(
        &store,
        "Start High School",
        "2020 Tremainsville Rd\nToledo, OH 43613",
    )
    .await;
    let changed = poll().await;
    changed.assert_status(StatusCode::OK);
    changed.assert_contains("2020 Tremainsville Rd");
}

#[tokio::test]
async fn the_competition_league_and_school_feeds_hold_their_matches_each_offered_on_its_page() {
    let store = store().await;
    let app = app(&store);
    let page = get(&app, C).await;
    assert!(
        offers(&page.body, &format!("{C}/schedule.ics")),
        "{}",
        page.body
    );
    let division = events(&get(&app, &format!("{C}/schedule.ics")).await.body);
    assert_eq!(division.len(), 8);
    // The league's page offers its current season, every division.
    let league_page = get(&app, "/leagues/gthscl").await;
    assert!(
        offers(&league_page.body, "/leagues/gthscl/schedule.ics"),
        "{}",
        league_page.body
    );
    assert!(
        league_page
            .body
            .contains("Every match of GTHSCL, 2026-27: "),
        "the current season: {}",
        league_page.body
    );
    let league = get_ok(&app, "/leagues/gthscl/schedule.ics").await;
    assert_eq!(
        league.header("content-type"),
        "text/calendar; charset=utf-8"
    );
    league.assert_contains("X-WR-CALNAME:GTHSCL 2026-27\r\n");
    assert_eq!(events(&league.body).len(), division.len());
    // A school's feed: its teams' matches, home and away, and no other.
    let school = get_ok(
        &app,
        "/leagues/gthscl/schools/start-high-school/schedule.ics",
    )
    .await;
    let start = events(&school.body);
    assert_eq!(start.len(), 4);
    assert!(
        start
            .iter()
            .all(|e| e.get_summary().unwrap().contains("Start Spartans")),
        "{}",
        school.body
    );
    school.assert_contains("X-WR-CALNAME:Start High School: GTHSCL 2026-27\r\n");
    let nowhere = get_expect(
        &app,
        "/leagues/gthscl/schools/nowhere-high/schedule.ics",
        StatusCode::NOT_FOUND,
    )
    .await;
    nowhere.assert_contains("GTHSCL has no school at “nowhere-high”");
    assert_eq!(
        get(&app, &format!("{C}/teams/nobody/schedule.ics"))
            .await
            .status,
        StatusCode::NOT_FOUND
    );
}

/// GT-M5: Waite Dropouts forfeited two matches and were dropped, so their round-4 match will
/// not be played: cancelled, its sequence risen, the reason said; their forfeited match was
/// not played either; a played match is confirmed with its result.
#[tokio::test]
async fn gt_m5_a_match_that_will_not_be_played_is_cancelled_in_the_feed() {
    let store = store().await;
    let app = app(&store);
    let e = events(&get(&app, &format!("{C}/schedule.ics")).await.body);
    let dropped = by_uid(&e, "gthscl-2026-27-division-a-r4-drop@arbiter");
    assert_eq!(
        dropped.get_status(),
        Some(icalendar::EventStatus::Cancelled)
    );
    assert_eq!(dropped.get_sequence(), Some(1));
    assert_eq!(
        dropped.get_summary(),
        Some("Cancelled: Waite Dropouts v Clay Eagles")
    );
    let why = text(dropped.get_description());
    assert!(
        why.contains("Not played: Waite Dropouts was dropped from the league")
            && why.contains("(GT-M5)"),
        "{why}"
    );
    let forfeited = by_uid(&e, "gthscl-2026-27-division-a-r2-start@arbiter");
    assert_eq!(
        forfeited.get_status(),
        Some(icalendar::EventStatus::Cancelled)
    );
    assert!(
        text(forfeited.get_description())
            .contains("Not played: Waite Dropouts forfeited the match."),
        "{:?}",
        forfeited.get_description()
    );
    let played = by_uid(&e, "gthscl-2026-27-division-a-r1-scott@arbiter");
    assert_eq!(played.get_status(), Some(icalendar::EventStatus::Confirmed));
    assert_eq!(played.get_sequence(), Some(0));
}

/// GT-M2: the home advisor moves the match; a Saturday and a day beyond three school weeks are
/// refused with the rule, the President's override allows the late day, and the team's feed
/// and the match page show the new date, the history the old one and the reason.
#[tokio::test]
async fn a_moved_match_moves_in_the_feed_with_the_rule_said_first() {
    use arbiter_core::rules::permissions::Role;
    let store = store().await;
    advisor(&store, "coach@start.example", "Start High School").await;
    account(&store, "president@gthscl.example", Role::President, None).await;
    let app = app_on(&store, jiff::civil::date(2026, 11, 13));
    let m = format!("{C}/rounds/4/matches/start");
    let mut coach = Visitor::signed_in(&app, "coach@start.example").await;
    let page = coach.get(&app, &m).await;
    page.assert_contains(&format!("action=\"{m}/move\""));
    // The advisor has no override.
    page.assert_lacks("name=\"override\"");

    let saturday = coach
        .post_refused(
            &app,
            &format!("{m}/move"),
            &[("date", "2026-11-21"), ("reason", "Bus")],
        )
        .await;
    saturday.assert_contains("GT-M2: 2026-11-21 is a Saturday, not a school day");
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
        .post_refused(
            &app,
            &format!("{m}/move"),
            &[("date", "2026-11-25"), ("reason", "Bus")],
        )
        .await;
    closed.assert_contains("Thanksgiving break");
    let late = coach
        .post_refused(
            &app,
            &format!("{m}/move"),
            &[("date", "2026-12-14"), ("reason", "Snow")],
        )
        .await;
    late.assert_contains("17 school days after the original date 2026-11-16");

    let mut president = Visitor::signed_in(&app, "president@gthscl.example").await;
    let page = president.get(&app, &m).await;
    page.assert_contains("name=\"override\"");
    let moved = president
        .post_refused(
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
    moved.assert_contains("“4pm” is not a time; give it as HH:MM");
    president
        .post_ok(
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

    let body = get(&app, &format!("{C}/teams/start/schedule.ics"))
        .await
        .body;
    // GT-M1: the time the home advisor arranged, 16:00 in Toledo on a December Monday (Eastern
    // Standard Time, UTC-5), as the instant every calendar reads alike, for three hours.
    assert!(
        body.contains("DTSTART:20261214T210000Z\r\nDTEND:20261215T000000Z\r\n"),
        "{body}"
    );
    let feed = events(&body);
    let round4 = by_uid(&feed, "gthscl-2026-27-division-a-r4-start@arbiter");
    let Some(DatePerhapsTime::DateTime(icalendar::CalendarDateTime::Utc(at))) = round4.get_start()
    else {
        panic!("{:?} is not a time in UTC", round4.get_start());
    };
    assert_eq!(at.to_rfc3339(), "2026-12-14T21:00:00+00:00");
    // Moved once: a subscribed calendar takes the new version.
    assert_eq!(round4.get_sequence(), Some(1));
    assert!(
        text(round4.get_description()).contains("Mon 14 Dec 2026 at 16:00 (America/New_York)"),
        "{:?}",
        round4.get_description()
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
    let store = store().await;
    advisor(&store, "coach@start.example", "Start High School").await;
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
        .post_refused(
            &app,
            &format!("{m}/move"),
            &send("2026-11-30", "arranged", false),
        )
        .await;
    arranged.assert_contains("on its day only the weather postpones it");
    // Mon 30 Nov is the 10th school day after Mon 16 Nov; Tue 1 Dec the 11th.
    let late = coach
        .post_refused(
            &app,
            &format!("{m}/move"),
            &send("2026-12-01", "weather", false),
        )
        .await;
    late.assert_contains("within two school weeks (10 school days)");
    assert!(
        late.body.contains(r#"value="weather" checked"#),
        "the form is kept: {}",
        late.body
    );
    coach
        .post_ok(
            &app,
            &format!("{m}/move"),
            &send("2026-12-01", "weather", true),
        )
        .await;
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
