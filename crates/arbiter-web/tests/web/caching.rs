//! Issue 35: the server's cost follows what changed and what is read. A write to one competition
//! leaves every other's view and pages in the cache (asserted by the state's count of loads, not
//! by timings), on SQLite and PostgreSQL and across two servers sharing the database; a cache
//! over its budget evicts, and an evicted competition loads again and answers as before.

use std::time::Duration;

use arbiter_core::MatchOutcome;
use arbiter_store::{RulesRef, Store};
use arbiter_web::{AppState, router};
use axum::http::StatusCode;
use jiff::civil::date;

use crate::common::*;

/// A second division beside the seeded one, and a state that reads the changes on every request.
async fn two_divisions(store: &Store) -> AppState {
    let season = store
        .seasons(store.league("gthscl").await.unwrap().unwrap().id)
        .await
        .unwrap()
        .remove(0);
    store
        .import_competition(
            season.id,
            &arbiter_demo::testing::new_competition(
                "division-b",
                "Division B",
                RulesRef::Preset("gthscl".into()),
            ),
            &division(),
            &arbiter_store::Actor::system(),
        )
        .await
        .unwrap();
    server(store)
}

fn server(store: &Store) -> AppState {
    AppState::new(store.clone())
        .with_freshness(Duration::ZERO)
        .with_today(date(2026, 11, 4))
        .with_mail(quiet_mail(), "http://localhost:8080")
}

const A: &str = "/leagues/gthscl/2026-27/division-a";
const B: &str = "/leagues/gthscl/2026-27/division-b";

/// A result entered for Division A's first match, by the store, as another server would.
async fn a_result_in_division_a(store: &Store) {
    let stored = store
        .load_competition("gthscl", "division-a")
        .await
        .unwrap()
        .unwrap();
    let m = stored.match_ids[0].2;
    let seen = store.report_seen(m).await.unwrap();
    store
        .record_result(
            m,
            seen,
            &MatchOutcome::DoubleForfeit,
            &arbiter_store::Actor::system(),
            None,
        )
        .await
        .unwrap();
}

async fn a_write_to_one_competition_reloads_only_it(store: Store) {
    let state = two_divisions(&store).await;
    let app = router(state.clone());
    for page in [A, B] {
        get(&app, page).await.assert_status(StatusCode::OK);
    }
    assert_eq!(state.loads(), 2, "each division loaded once");
    // Unchanged: read again without a load.
    get(&app, B).await.assert_status(StatusCode::OK);
    get(&app, &format!("{A}/crosstable"))
        .await
        .assert_status(StatusCode::OK);
    assert_eq!(state.loads(), 2);

    // An account and a token touch no competition's pages.
    let user = store
        .create_user(
            "ada@example.org",
            "Ada",
            None,
            &arbiter_store::Actor::system(),
        )
        .await
        .unwrap();
    assert!(user.id.0 > 0);
    get(&app, A).await.assert_status(StatusCode::OK);
    get(&app, B).await.assert_status(StatusCode::OK);
    assert_eq!(
        state.loads(),
        2,
        "an account written elsewhere reloads nothing"
    );

    let tag_b = get(&app, B).await.headers["etag"].clone();
    a_result_in_division_a(&store).await;
    let b = get(&app, B).await;
    b.assert_status(StatusCode::OK);
    assert_eq!(state.loads(), 2, "Division B is as it was: no load");
    assert_eq!(b.headers["etag"], tag_b, "and its ETag stands");
    let a = get(&app, A).await;
    a.assert_status(StatusCode::OK);
    assert_eq!(state.loads(), 3, "Division A, written, loads once");
    get(&app, A).await.assert_status(StatusCode::OK);
    assert_eq!(state.loads(), 3);
}

#[tokio::test]
async fn a_write_to_one_competition_reloads_only_it_on_sqlite() {
    on_sqlite_file(a_write_to_one_competition_reloads_only_it).await;
}

#[tokio::test]
async fn a_write_to_one_competition_reloads_only_it_on_postgres() {
    on_postgres(a_write_to_one_competition_reloads_only_it).await;
}

/// Two servers on one database: a result entered through one is seen by the other, which
/// reloads that competition and no other.
async fn two_servers_reload_only_what_either_wrote(store: Store) {
    let first = two_divisions(&store).await;
    let second = server(&store);
    let (one, two) = (router(first.clone()), router(second.clone()));
    for app in [&one, &two] {
        for page in [A, B] {
            get(app, page).await.assert_status(StatusCode::OK);
        }
    }
    a_result_in_division_a(&store).await;
    for app in [&one, &two] {
        for page in [A, B] {
            get(app, page).await.assert_status(StatusCode::OK);
        }
    }
    assert_eq!(
        (first.loads(), second.loads()),
        (3, 3),
        "each reloads Division A only"
    );
}

#[tokio::test]
async fn two_servers_reload_only_what_either_wrote_on_sqlite() {
    on_sqlite_file(two_servers_reload_only_what_either_wrote).await;
}

#[tokio::test]
async fn two_servers_reload_only_what_either_wrote_on_postgres() {
    on_postgres(two_servers_reload_only_what_either_wrote).await;
}

/// A cache too small for two divisions keeps the one read last; the other is evicted, loads
/// again when read, and answers the same page.
#[tokio::test]
async fn an_evicted_competition_loads_again_and_answers_as_before() {
    let store = store().await;
    let state = two_divisions(&store).await.with_cache_bytes(1);
    let app = router(state.clone());
    let first = get(&app, A).await;
    first.assert_status(StatusCode::OK);
    get(&app, B).await.assert_status(StatusCode::OK);
    let (held, _, evicted) = state.cached();
    assert_eq!(
        (held, evicted),
        (1, 1),
        "one division held, the other evicted"
    );
    let again = get(&app, A).await;
    again.assert_status(StatusCode::OK);
    assert_eq!(state.loads(), 3, "Division A loaded again");
    assert_eq!(again.body, first.body);
    assert_eq!(again.headers["etag"], first.headers["etag"]);
}
