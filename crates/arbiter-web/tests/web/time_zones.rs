//! RULES.md, "Time": every day a rule counts is the league's local day, in its IANA zone (the
//! GTHSCL's America/New_York), never UTC's nor the server's.

use std::time::Duration;

use arbiter_core::record::zone::Zone;
use arbiter_store::Store;
use arbiter_web::{AppState, router};

use crate::common::*;

/// Round 4's match, played on Mon 16 Nov 2026; its result is due by Tue 17 Nov (GT-P2).
const MATCH: &str = "/leagues/gthscl/2026-27/division-a/rounds/4/matches/start";

/// The moment a local time in Toledo names.
fn toledo(local: &str) -> jiff::Timestamp {
    Zone::named("America/New_York")
        .unwrap()
        .instant(local.parse().unwrap())
        .unwrap()
}

/// The site with its clock at `now` and no day set: "today" is the clock's, in the league's zone.
fn app_at(store: &Store, now: jiff::Timestamp) -> axum::Router {
    router(
        AppState::new(store.clone())
            .with_freshness(Duration::ZERO)
            .with_now(now),
    )
}

/// Round 4's result as entered by Start's advisor at `at`: a version written as the store
/// writes one, with the moment given instead of the store's clock.
async fn entered_at(store: &Store, at: &str) {
    let sql = format!(
        "INSERT INTO result_versions (match_id, version, outcome, forfeit_by, entered_by, \
         entered_role, entered_at, reason, basis) \
         SELECT v.match_id, v.version + 1, 'forfeit', 'away', 'coach@start.example', 'advisor', \
         '{at}', NULL, v.basis FROM result_versions v \
         JOIN matches m ON m.id = v.match_id JOIN rounds r ON r.id = m.round_id \
         JOIN teams t ON t.id = m.home_team_id \
         WHERE r.number = 4 AND t.team_key = 'start' \
         ORDER BY v.version DESC LIMIT 1"
    );
    let Store::Sqlite(s) = store else {
        unreachable!("the tests' store is SQLite")
    };
    let done = sqlx::query(&sql).execute(s.pool()).await.unwrap();
    assert_eq!(done.rows_affected(), 1, "round 4's match has a version");
}

/// GT-P2: a result entered at 19:30 in Toledo on the match day (00:30 the next day in UTC)
/// counts as entered that day: the visitors confirm within five days of the 16th, by the 21st.
#[tokio::test]
async fn gt_p2_a_result_entered_at_19_30_new_york_time_counts_as_entered_that_day() {
    let store = store().await;
    let at = toledo("2026-11-16T19:30");
    assert_eq!(at.to_string(), "2026-11-17T00:30:00Z");
    entered_at(&store, "2026-11-17T00:30:00.000000Z").await;
    let page = get(&app_at(&store, toledo("2026-11-17T09:00")), MATCH).await;
    page.assert_contains("Due by Sat 21 Nov 2026: the visitors confirm");
    page.assert_lacks("22 Nov 2026");
}

/// GT-P4: round 4's result is due by Tue 17 Nov in Toledo. At 22:00 there (03:00 on the 18th in
/// UTC, the day a UTC server reads) it is not overdue yet; from midnight in Toledo it is.
#[tokio::test]
async fn gt_p4_overdue_does_not_arrive_early_on_a_utc_server() {
    let store = store().await;
    let evening = get(&app_at(&store, toledo("2026-11-17T22:00")), MATCH).await;
    evening.assert_contains("The home team enters the result by Tue 17 Nov 2026 (GT-P2).");
    evening.assert_lacks("Overdue");
    let after = get(&app_at(&store, toledo("2026-11-18T00:30")), MATCH).await;
    after.assert_contains("Overdue: the home team was to enter the result by Tue 17 Nov 2026");
}
