//! The arbiter's day on one page (issue 32, item 22): the demo's ASTC at 13:10 in Adelaide on
//! its second day, round 3 begun at 09:30 and round 4 to start at 14:00.

use std::time::Duration;

use arbiter_core::record::model::{Pairing, Side};
use arbiter_core::rules::permissions::Role;
use arbiter_store::{Actor, Store};
use axum::Router;
use jiff::civil::date;

use crate::common::*;

pub const ARBITER: &str = "arbiter@astc.example";

/// The demo as of 8 December 2026, the site's clock at `hall` in Adelaide (+10:30), with the
/// ASTC's arbiter.
pub async fn demo_at(hall: &str) -> (Store, Router) {
    let today = date(2026, 12, 8);
    let store = arbiter_demo::testing::demo_store(today).await;
    arbiter_demo::testing::account(&store, "astc", ARBITER, Role::Arbiter, None).await;
    let local: jiff::civil::DateTime = format!("2026-12-08T{hall}").parse().unwrap();
    let now = jiff::tz::Offset::from_seconds(630 * 60)
        .unwrap()
        .to_timestamp(local)
        .unwrap();
    let app = arbiter_web::router(
        arbiter_web::AppState::new(store.clone())
            .with_freshness(Duration::ZERO)
            .with_today(today)
            .with_now(now)
            .with_mail(quiet_mail(), "http://localhost:8080"),
    );
    (store, app)
}

#[tokio::test]
async fn as_11_the_arbiters_day_shows_each_rounds_results_lineups_protests_and_next_deadline() {
    let (store, app) = demo_at("13:10").await;
    let open = store
        .load_competition("astc", "secondary-open")
        .await
        .unwrap()
        .unwrap();
    // One team of round 4 names its lineup: the rest are missing (AS-11).
    let round_4 = &open.competition.rounds[3];
    let Some(Pairing::Match(first)) = round_4
        .pairings
        .iter()
        .find(|p| matches!(p, Pairing::Match(_)))
    else {
        panic!("round 4 has no match")
    };
    let (_, _, id) = open
        .match_ids
        .iter()
        .find(|(r, h, _)| *r == 4 && *h == first.home)
        .unwrap();
    let home = open
        .competition
        .teams
        .iter()
        .find(|t| t.id == first.home)
        .unwrap();
    let lineup = arbiter_core::teams::lineup::Lineup {
        boards: home.players[..4]
            .iter()
            .map(|p| Some(p.id.clone()))
            .collect(),
        withdrawn: Vec::new(),
    };
    store
        .record_lineup(*id, Side::Home, 0, &lineup, None, &Actor::system())
        .await
        .unwrap();
    let away = &open
        .competition
        .teams
        .iter()
        .find(|t| t.id == first.away)
        .unwrap()
        .name;

    let mut arbiter = Visitor::signed_in(&app, ARBITER).await;
    // The account page leads with the day.
    let mine = arbiter.get(&app, "/account").await;
    let today = "/leagues/astc/2026/event/today";
    let first_link = mine
        .body
        .find(today)
        .expect("the account page links the day");
    for later in ["/leagues/astc/field", "/leagues/astc/2026/event\""] {
        assert!(
            mine.body.find(later).is_some_and(|i| i > first_link),
            "{later} before the day: {}",
            mine.body
        );
    }
    let event = arbiter.get(&app, "/leagues/astc/2026/event").await;
    event.assert_contains(&format!("href=\"{today}\""));

    let day = arbiter.get_ok(&app, today).await;
    let b = &day.body;
    assert!(
        b.contains("It is 13:10 on Tuesday 8 December 2026 in the hall"),
        "{b}"
    );
    assert!(
        b.contains("Round 3, begun at 09:30: 0 of 4 results entered."),
        "{b}"
    );
    assert!(
        b.contains("href=\"/leagues/astc/2026/secondary-open/rounds/3/results\">Enter round 3&#39;s results"),
        "{b}"
    );
    assert!(
        b.contains(
            "Round 4 starts at 14:00; lineups due at 13:45 (AS-11): 1 of 8 named; missing: "
        ),
        "{b}"
    );
    let open_line = b
        .split("Secondary Open</a>")
        .nth(1)
        .and_then(|s| s.split("</section>").next())
        .unwrap();
    let missing = open_line.split("missing: ").nth(1).unwrap();
    let missing = missing.split('.').next().unwrap();
    assert!(
        !missing.contains(&home.name.replace('\'', "&#39;")),
        "{missing}"
    );
    assert!(missing.contains(&away.replace('\'', "&#39;")), "{missing}");
    assert!(
        b.contains("Next deadline: at 13:45, round 4&#39;s lineups are due (AS-11)."),
        "{b}"
    );
    assert!(b.contains("No protest open (AS-13)."), "{b}");
    // Four competitions, each with its day.
    assert_eq!(b.matches("Next deadline:").count(), 4, "{b}");
}

/// Issue 32 (item 22): at 00:30 on Monday 7 December in Adelaide it is still Sunday in UTC and
/// in Toledo; the home page's "this week" is each league's own, so the ASTC's first day is on it.
#[tokio::test]
async fn the_home_pages_week_is_each_leagues_own_by_its_clock() {
    let store = Store::open_sqlite_memory().await.unwrap();
    store.migrate().await.unwrap();
    arbiter_demo::write_to(
        &store,
        &arbiter_demo::generate(date(2026, 12, 6)),
        &Actor::default(),
        |_, _| {},
    )
    .await
    .unwrap();
    let now: jiff::Timestamp = "2026-12-06T14:00:00Z".parse().unwrap();
    let app = arbiter_web::router(
        arbiter_web::AppState::new(store.clone())
            .with_freshness(Duration::ZERO)
            .with_now(now)
            .with_mail(quiet_mail(), "http://localhost:8080"),
    );
    let home = get_ok(&app, "/").await;
    let week = home
        .body
        .split("This week")
        .nth(1)
        .and_then(|s| s.split("</section>").next())
        .unwrap();
    let astc = week
        .split("Australian Schools Teams Championships</a>")
        .nth(1)
        .unwrap_or_else(|| panic!("the ASTC is not on this week: {week}"));
    assert!(
        astc.contains("Mon 7 Dec 2026 to Sun 13 Dec 2026, by its own clock"),
        "{astc}"
    );
    assert!(astc.contains("Mon 7 Dec 2026:"), "{astc}");
}
