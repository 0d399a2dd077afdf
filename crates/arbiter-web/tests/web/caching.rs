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
    with_division_b(store, &division()).await
}

/// `competition` imported as Division B beside the seeded Division A, and a state that reads
/// the changes on every request.
async fn with_division_b(store: &Store, competition: &arbiter_core::Competition) -> AppState {
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
            competition,
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

/// `division()` with every result taken away: no match forfeited, so GT-M5 drops no team.
fn unplayed_division() -> arbiter_core::Competition {
    let mut c = division();
    for r in &mut c.rounds {
        for p in &mut r.pairings {
            if let arbiter_core::Pairing::Match(m) = p {
                m.outcome = MatchOutcome::Pending;
            }
        }
    }
    c
}

/// A league of three divisions, none with a forfeit, and a server on it.
async fn three_unplayed_divisions(store: &Store) -> AppState {
    store.migrate().await.unwrap();
    let mut setup = arbiter_demo::testing::LeagueSetup::new(arbiter_demo::testing::gthscl())
        .season(arbiter_demo::testing::gthscl_2026_27());
    for (slug, name) in [
        ("division-a", "Division A"),
        ("division-b", "Division B"),
        ("division-c", "Division C"),
    ] {
        setup = setup.competition(
            arbiter_demo::testing::new_competition(slug, name, RulesRef::Preset("gthscl".into())),
            unplayed_division(),
        );
    }
    setup.write(store).await;
    server(store)
}

/// Issue 35 item 4: the home page's week and next round, and the league and season pages, are
/// read from the rounds' dates and the competitions' records: drawing them loads no
/// competition, however many there are, before and after a write.
async fn the_pages_above_the_competitions_load_none(store: Store) {
    let state = three_unplayed_divisions(&store).await;
    let app = router(state.clone());
    let home = get(&app, "/").await;
    home.assert_status(StatusCode::OK);
    for d in ["division-a", "division-b", "division-c"] {
        home.assert_contains(&format!(
            r#"<a href="/leagues/gthscl/2026-27/{d}/rounds/2">Round 2</a>"#
        ));
    }
    home.assert_contains(" \u{2013} ");
    for page in ["/leagues/gthscl", "/leagues/gthscl/2026-27"] {
        get(&app, page).await.assert_status(StatusCode::OK);
    }
    assert_eq!(
        state.loads(),
        0,
        "no competition loaded for the site's pages"
    );
    // A write anywhere draws them again, still without a load.
    a_result_in_division_a(&store).await;
    let again = get(&app, "/").await;
    again.assert_status(StatusCode::OK);
    assert_ne!(again.headers["etag"], home.headers["etag"], "drawn again");
    assert_eq!(state.loads(), 0, "the home page drawn again loads nothing");
}

#[tokio::test]
async fn the_pages_above_the_competitions_load_none_on_sqlite() {
    the_pages_above_the_competitions_load_none(Store::open_sqlite_memory().await.unwrap()).await;
}

#[tokio::test]
async fn the_pages_above_the_competitions_load_none_on_postgres() {
    // `on_postgres` seeds a Division A with forfeits: an empty schema for three of our own.
    let Some(url) = arbiter_demo::testing::named_postgres_url() else {
        eprintln!("skipped: set ARBITER_TEST_POSTGRES_URL to run this test on PostgreSQL");
        return;
    };
    let schema = format!("arbiter_web_test_site_{}", std::process::id());
    let admin = sqlx::PgPool::connect(&url).await.unwrap();
    sqlx::query(&format!("CREATE SCHEMA {schema}"))
        .execute(&admin)
        .await
        .unwrap();
    let store = Store::open(&arbiter_demo::testing::with_search_path(&url, &schema))
        .await
        .unwrap();
    the_pages_above_the_competitions_load_none(store).await;
    drop_postgres(&schema).await;
}

/// GT-M5: a team dropped after its forfeits has its matches marked as not played, which only
/// the score sheet says; the home page reads the view of a competition with a forfeit (the
/// seeded Division A) and of no other.
#[tokio::test]
async fn the_home_page_reads_only_the_view_of_a_competition_with_a_forfeit() {
    let store = store().await;
    let state = with_division_b(&store, &unplayed_division()).await;
    let app = router(state.clone());
    let home = get(&app, "/").await;
    home.assert_status(StatusCode::OK);
    home.assert_contains(r#"<a href="/leagues/gthscl/2026-27/division-b/rounds/2">Round 2</a>"#);
    assert_eq!(state.loads(), 1, "Division A only");
}

/// GT-M5 drops a team at its second match forfeit (the `gthscl` preset's count): a division
/// where no team has forfeited twice has excluded no match, so the home page draws its round
/// from the store's team names without loading it (issue 35).
#[tokio::test]
async fn the_home_page_does_not_load_a_division_whose_forfeits_drop_no_team() {
    let store = store().await;
    let mut b = unplayed_division();
    let first = b.rounds[0].pairings.iter_mut().find_map(|p| match p {
        arbiter_core::Pairing::Match(m) => Some(m),
        _ => None,
    });
    first.unwrap().outcome = MatchOutcome::Forfeit {
        by: arbiter_core::Side::Home,
    };
    let state = with_division_b(&store, &b).await;
    let app = router(state.clone());
    let home = get(&app, "/").await;
    home.assert_status(StatusCode::OK);
    home.assert_contains(r#"<a href="/leagues/gthscl/2026-27/division-b/rounds/2">Round 2</a>"#);
    assert_eq!(
        state.loads(),
        1,
        "Division A only, whose team was dropped: Division B's one forfeit drops none"
    );
}

/// Issue 35 item 5: an advisor's account page reads the divisions the school's teams play in,
/// which the store names, and loads no other; Division B here has no school at all.
#[tokio::test]
async fn an_advisors_account_page_loads_only_the_divisions_of_the_school() {
    let store = store().await;
    let mut b = unplayed_division();
    for t in &mut b.teams {
        t.school = None;
    }
    let state = with_division_b(&store, &b).await;
    advisor(&store, "coach@start.example", "Start High School").await;
    let app = router(state.clone());
    let mut coach = Visitor::signed_in(&app, "coach@start.example").await;
    let page = coach.get_ok(&app, "/account").await;
    page.assert_contains("Division A");
    assert!(
        !page.body.contains("/division-b/"),
        "no match of Division B is the school's"
    );
    assert_eq!(state.loads(), 1, "Division A only");
}

/// Issue 35: a competition's pages are kept gzipped. A reader that accepts gzip gets the page
/// so, under its own tag; one that does not (or refuses it by `q=0`) gets the same page
/// unzipped; either tag is the reader's copy of it (304); caches are told it varies.
#[tokio::test]
async fn a_page_is_kept_gzipped_and_served_as_the_reader_takes_it() {
    use axum::body::Body;
    use axum::http::Request;
    use std::io::Read;
    use tower::ServiceExt;
    let store = store().await;
    let app = router(two_divisions(&store).await);
    let raw = |accept: Option<&str>, if_none_match: Option<&str>| {
        let app = app.clone();
        let mut req = Request::get(A);
        if let Some(a) = accept {
            req = req.header("accept-encoding", a);
        }
        if let Some(t) = if_none_match {
            req = req.header("if-none-match", t);
        }
        async move {
            let r = app.oneshot(req.body(Body::empty()).unwrap()).await.unwrap();
            let (parts, body) = r.into_parts();
            let bytes = axum::body::to_bytes(body, 16 << 20).await.unwrap();
            (parts.status, parts.headers, bytes)
        }
    };
    let (status, plain_headers, plain) = raw(None, None).await;
    assert_eq!(status, StatusCode::OK);
    assert!(plain_headers.get("content-encoding").is_none());
    assert_eq!(plain_headers["vary"], "accept-encoding");
    let plain_tag = plain_headers["etag"].to_str().unwrap().to_string();

    let (status, headers, zipped) = raw(Some("br;q=1.0, gzip;q=0.8, *;q=0.1"), None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(headers["content-encoding"], "gzip");
    let zipped_tag = headers["etag"].to_str().unwrap().to_string();
    assert_eq!(
        zipped_tag,
        format!("{}-gzip\"", plain_tag.trim_end_matches('"'))
    );
    let mut unzipped = Vec::new();
    flate2::read::GzDecoder::new(&zipped[..])
        .read_to_end(&mut unzipped)
        .unwrap();
    assert_eq!(unzipped, plain, "the same page, zipped");
    assert!(
        zipped.len() * 3 < plain.len(),
        "{} of {}",
        zipped.len(),
        plain.len()
    );

    let (status, headers, _) = raw(Some("gzip;q=0"), None).await;
    assert_eq!(status, StatusCode::OK);
    assert!(headers.get("content-encoding").is_none(), "gzip refused");
    for (accept, tag, served) in [
        (Some("gzip"), &zipped_tag, &zipped_tag),
        (Some("gzip"), &plain_tag, &zipped_tag),
        (None, &zipped_tag, &plain_tag),
        (None, &plain_tag, &plain_tag),
    ] {
        let (status, headers, body) = raw(accept, Some(tag)).await;
        assert_eq!(status, StatusCode::NOT_MODIFIED, "{accept:?} {tag}");
        assert_eq!(headers["etag"].to_str().unwrap(), served.as_str());
        assert!(body.is_empty());
    }
}

/// Issue 35: a season of more divisions than the home page lists (12) is a link to the season's
/// page there, which lists every one, and so is a day of this week on which more play; a season
/// of fewer is listed as before.
#[tokio::test]
async fn the_home_page_folds_a_season_of_many_divisions_into_a_link() {
    let store = Store::open_sqlite_memory().await.unwrap();
    store.migrate().await.unwrap();
    let mut setup = arbiter_demo::testing::LeagueSetup::new(arbiter_demo::testing::gthscl())
        .season(arbiter_demo::testing::gthscl_2026_27());
    for n in 1..=13 {
        setup = setup.competition(
            arbiter_demo::testing::new_competition(
                &format!("division-{n}"),
                &format!("Division {n}"),
                RulesRef::Preset("gthscl".into()),
            ),
            unplayed_division(),
        );
    }
    setup.write(&store).await;
    let state = server(&store);
    let app = router(state.clone());
    let home = get_ok(&app, "/").await;
    home.assert_contains(r#"<a href="/leagues/gthscl/2026-27">13 divisions</a>, each listed"#);
    // Listed neither as the season's divisions nor by their schedules to print; this week's
    // rounds still name theirs.
    home.assert_lacks(r#"<li><a href="/leagues/gthscl/2026-27/division-13">"#);
    home.assert_lacks("division-13/schedule");
    // This week's rounds: each day lists 12 divisions with their matches, and the rest as a
    // link to the season.
    for round in [1, 2] {
        home.assert_contains(&format!(
            r#"<a href="/leagues/gthscl/2026-27/division-12/rounds/{round}">Round {round}</a><br><span class="reason">Zoë"#
        ));
        home.assert_lacks(&format!("division-13/rounds/{round}"));
    }
    assert_eq!(
        home.body
            .matches(r#"; <a href="/leagues/gthscl/2026-27">and 1 more division</a></li>"#)
            .count(),
        2,
        "{}",
        home.body
    );
    let season = get_ok(&app, "/leagues/gthscl/2026-27").await;
    for n in 1..=13 {
        season.assert_contains(&format!(
            r#"<a href="/leagues/gthscl/2026-27/division-{n}">Division {n}</a>"#
        ));
    }
    assert_eq!(state.loads(), 0, "neither page loads a competition");
}
