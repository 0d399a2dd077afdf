//! The demo league (arbiter-demo) and the example files (examples/*.json), seeded into a store
//! and served: pages that real-looking data fills, as snapshots and against the figures the
//! examples' README works by hand.

use std::time::Duration;

use arbiter_demo::testing::{self, LeagueSetup};
use arbiter_store::{LeagueKind, NewLeague, NewSeason, RulesRef, Store};
use arbiter_web::{AppState, router};
use axum::Router;
use axum::http::StatusCode;
use jiff::civil::date;

use crate::common::{get, get_expect, get_ok, masked};

/// The demo as of Wednesday 13 January 2027, in a fresh in-memory store.
async fn demo_app() -> Router {
    demo_store_and_app().await.1
}

/// [`demo_app`] with its store.
async fn demo_store_and_app() -> (Store, Router) {
    let today = date(2027, 1, 13);
    let store = arbiter_demo::testing::demo_store(today).await;
    let app = router(
        AppState::new(store.clone())
            .with_freshness(Duration::ZERO)
            .with_today(today)
            .with_mail(crate::common::quiet_mail(), "http://localhost:8080"),
    );
    (store, app)
}

/// GT-O2: the demo's fee ledger, as its Treasurer reads it on the site: every school's fee paid
/// in October but Otsego's (half of it waived), the refund to St. John's Jesuit, the reversed
/// cheque, the trophies, each entry recorded by the Treasurer.
#[tokio::test]
async fn the_demo_ledger_is_the_treasurers() {
    use crate::common::{Visitor, account};
    let (store, app) = demo_store_and_app().await;
    let treasurer = arbiter_demo::gthscl::TREASURER;
    account(
        &store,
        treasurer,
        arbiter_core::rules::permissions::Role::Treasurer,
        None,
    )
    .await;
    let mut t = Visitor::signed_in(&app, treasurer).await;
    let mine = t.get(&app, "/account").await;
    mine.assert_contains("/leagues/gthscl/ledger");
    let page = t.get_ok(&app, "/leagues/gthscl/ledger").await;
    let b = &page.body;
    assert!(
        b.contains("Fee ledger: Greater Toledo High School Chess League, 2026–27 season"),
        "{b}"
    );
    assert_eq!(
        b.matches("<span class=\"tag warn\">owes $5.00</span>")
            .count(),
        1,
        "{b}"
    );
    assert!(
        b.contains("Otsego High School</td><td class=\"num\" data-label=\"Fee due\">$10.00<br><span class=\"reason\">$5.00 waived</span>"),
        "{b}"
    );
    assert!(b.contains("Reversed by entry 8"), "{b}");
    assert!(
        b.contains("three division winners&#39; trophies (GT-F1)"),
        "{b}"
    );
    assert!(b.contains("<strong>$25.50</strong>"), "{b}");
    assert_eq!(
        b.matches("treasurer@gthscl.example (Treasurer)").count(),
        24,
        "{b}"
    );
}

async fn page(app: &Router, path: &str) -> String {
    let a = get(app, path).await;
    assert_eq!(a.status, StatusCode::OK, "{path}: {}", a.body);
    masked(&a.body)
}

const WOOD: &str = "/leagues/gthscl/2026-27/wood-county";

#[tokio::test]
async fn demo_pages() {
    let app = demo_app().await;
    // A GTHSCL division with a team dropped under GT-M5.
    let standings = page(&app, WOOD).await;
    assert!(standings.contains("dropped (GT-M5)"));
    insta::assert_snapshot!("demo_wood_county_standings", standings);
    insta::assert_snapshot!(
        "demo_wood_county_crosstable",
        page(&app, &format!("{WOOD}/crosstable")).await
    );
    insta::assert_snapshot!(
        "demo_wood_county_team",
        page(&app, &format!("{WOOD}/teams/rossford")).await
    );
    // An ASTC field where two teams share a place (AS-18).
    let girls = page(&app, "/leagues/astc/2026/primary-girls").await;
    let shared = girls
        .split(r#"<td class="num place">"#)
        .skip(1)
        .filter(|rest| rest.split('<').next().is_some_and(|p| p.contains('-')))
        .count();
    assert_eq!(shared, 2, "two rows print a shared place like 3-4");
    insta::assert_snapshot!("demo_astc_primary_girls_standings", girls);
    // Every page of the demo answers.
    let home = page(&app, "/").await;
    assert!(home.contains("/leagues/astc"));
    assert!(home.contains("/leagues/gthscl"));
    for path in [
        format!("{WOOD}/explain"),
        format!("{WOOD}/rounds/1"),
        "/leagues/astc/2026/secondary-open/crosstable".to_string(),
        "/api/v1/leagues/gthscl/2026-27/metro/rounds".to_string(),
        "/api/v1/leagues/astc/2026/primary-girls/standings".to_string(),
    ] {
        let _ = page(&app, &path).await;
    }
}

/// examples/*.json, read with the competition JSON reader and imported into one league each.
/// A missing file fails the test: it must not pass on nothing.
async fn examples_app() -> Router {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples");
    let store = Store::open_sqlite_memory().await.unwrap();
    store.migrate().await.unwrap();
    let mut setup = LeagueSetup::new(NewLeague {
        slug: "examples".into(),
        name: "Examples".into(),
        kind: LeagueKind::Event,
        description: String::new(),
        time_zone: arbiter_core::record::zone::Zone::named("UTC").unwrap(),
    })
    .season(NewSeason {
        slug: "files".into(),
        name: "files".into(),
        starts_on: None,
        ends_on: None,
    });
    for name in ["astc-secondary-open", "gthscl-division"] {
        let path = dir.join(format!("{name}.json"));
        let text =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let source = arbiter_formats::ruleset_file::FileRulesetSource::new(&dir);
        let loaded = arbiter_formats::competition_json::read(name, &text, &source).unwrap();
        let preset: serde_json::Value = serde_json::from_str(&text).unwrap();
        let rules = preset["rules"].as_str().unwrap().to_string();
        setup = setup.competition(
            testing::new_competition(name, &loaded.competition.name, RulesRef::Preset(rules)),
            loaded.competition,
        );
    }
    setup.write(&store).await;
    router(
        AppState::new(store)
            .with_freshness(Duration::ZERO)
            .with_today(date(2026, 12, 8))
            .with_mail(crate::common::quiet_mail(), "http://localhost:8080"),
    )
}

#[tokio::test]
async fn example_files_give_the_standings_worked_by_hand() {
    let app = examples_app().await;
    // examples/README.md: ASTC 2026 Secondary Open (AS-14, AS-15, AS-16).
    let v = get(
        &app,
        "/api/v1/leagues/examples/files/astc-secondary-open/standings",
    )
    .await
    .json();
    let order: Vec<&str> = v["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["team_id"].as_str().unwrap())
        .collect();
    assert_eq!(order, ["vic", "nsw", "qld", "wa", "sa", "tas", "act", "nt"]);
    assert_eq!(v["rows"][1]["values"]["GP"], 17.5);
    // The GTHSCL division: Toledo Start dropped (GT-M5), St. John's Jesuit A first (GT-S5).
    let page = get_ok(&app, "/leagues/examples/files/gthscl-division").await;
    page.assert_contains("St. John&#39;s Jesuit A");
    page.assert_contains("Toledo Start was dropped (GT-M5)");
    let v = get(
        &app,
        "/api/v1/leagues/examples/files/gthscl-division/standings",
    )
    .await
    .json();
    assert_eq!(v["rows"][0]["team_id"], "sjj-a");
    assert_eq!(v["rows"][0]["values"]["GP"], 10.5);
    assert_eq!(v["rows"][5]["team_id"], "start");
    assert_eq!(v["rows"][5]["dropped"]["rule"], "GT-M5");
    // Every page of both answers 200.
    for c in ["astc-secondary-open", "gthscl-division"] {
        for p in ["", "/crosstable", "/explain", "/rounds/1"] {
            let a = get(&app, &format!("/leagues/examples/files/{c}{p}")).await;
            assert_eq!(a.status, StatusCode::OK, "{c}{p}");
        }
    }
}

/// Issue 9 item 12: the OpenAPI document's parameter examples name the demo's data, so every
/// read filled with them answers 200 from the demo (a schema-driven test then reaches real
/// standings, rounds, teams and players, not only 404s).
#[tokio::test]
async fn the_api_documents_examples_that_the_demo_holds() {
    let app = demo_app().await;
    let doc = get(&app, "/api/v1/openapi.json").await.json();
    let mut filled = 0;
    for (template, item) in doc["paths"].as_object().unwrap() {
        for op in item.as_object().unwrap().values() {
            let mut path = template.clone();
            for p in op["parameters"].as_array().into_iter().flatten() {
                let example = &p["example"];
                let text = example
                    .as_str()
                    .map(str::to_string)
                    .or_else(|| example.as_u64().map(|n| n.to_string()))
                    .unwrap_or_else(|| panic!("{template}: {} has no example", p["name"]));
                path = path.replace(&format!("{{{}}}", p["name"].as_str().unwrap()), &text);
            }
            assert!(
                !path.contains('{'),
                "{template}: a parameter without an example"
            );
            if item["get"].is_object() {
                let a = get(&app, &path).await;
                // A read that needs a token (the fee ledger) answers 401 without one.
                let expected = if item["get"]["security"].is_array() {
                    StatusCode::UNAUTHORIZED
                } else {
                    StatusCode::OK
                };
                assert_eq!(a.status, expected, "{path}: {}", a.body);
                filled += usize::from(path != *template && expected == StatusCode::OK);
            }
        }
    }
    assert!(filled >= 8, "only {filled} reads with parameters filled");
}

/// Issue 11, GT-R3: the demo's players have league ratings computed from their games. The
/// rating list is one of the competition's tabs, sorts by its headings, downloads as CSV and is
/// in the API; each player's page draws their rating history with a table of its games.
#[tokio::test]
async fn the_demo_has_league_ratings_from_its_games() {
    let app = demo_app().await;
    let standings = page(&app, WOOD).await;
    let list_href = format!("{WOOD}/ratings");
    assert!(standings.contains(&format!("href=\"{list_href}\">Ratings</a>")));
    let list = page(&app, &list_href).await;
    assert!(list.contains("The league&#39;s own Elo (GT-R3)"), "{list}");
    assert!(
        list.contains("<td class=\"num score\">1200N</td>"),
        "a provisional mark: {list}"
    );
    assert!(list.contains(&format!("href=\"{list_href}?sort=name\">Player</a>")));
    // A player who has played is rated: a change is shown with its sign.
    assert!(
        list.contains("<td class=\"num\">+") || list.contains("<td class=\"num\">\u{2212}"),
        "{list}"
    );

    let api = get(&app, &format!("/api/v1{list_href}")).await.json();
    assert_eq!(api["system"], "league");
    let players = api["players"].as_array().unwrap();
    assert!(players.len() > 10, "{api}");
    // Highest first, and every player who played has a whole-number rating after.
    let afters: Vec<i64> = players.iter().filter_map(|p| p["after"].as_i64()).collect();
    assert!(afters.windows(2).all(|w| w[0] >= w[1]), "{afters:?}");
    let played = players
        .iter()
        .find(|p| p["games"].as_u64() > Some(0))
        .unwrap();
    let before = played["before"].as_i64().unwrap();
    let change = played["change"].as_f64().unwrap();
    let after = played["after"].as_i64().unwrap();
    // The league's Elo publishes whole numbers (GT-R3): after is before plus the change, each
    // match day rounded.
    let games = played["games"].as_f64().unwrap();
    assert!(
        (after as f64 - (before as f64 + change)).abs() <= games * 0.5 + 0.01,
        "{played}"
    );

    let by_name = get(&app, &format!("/api/v1{list_href}?sort=name"))
        .await
        .json();
    let names: Vec<&str> = by_name["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    let mut sorted = names.clone();
    sorted.sort();
    assert_eq!(names, sorted);

    let csv = get_ok(&app, &format!("{list_href}.csv")).await;
    assert!(csv.header("content-type").starts_with("text/csv"));
    let mut lines = csv.body.lines();
    assert_eq!(
        lines.next(),
        Some("player_id,name,team_id,team,rating,provisional,before,games,score,expected,change")
    );
    assert_eq!(lines.count(), players.len());

    // The first player of the list, on their own page: the chart and the table of games.
    let id = played["player_id"].as_str().unwrap();
    let player = page(&app, &format!("{WOOD}/players/{id}")).await;
    assert!(player.contains("<h2 id=\"rating\">Rating: "), "{player}");
    assert!(
        player.contains("<svg viewBox=\"0 0 400 200\" role=\"img\""),
        "{player}"
    );
    // Issue 32 item 4: the chart reads without the table: a rating axis of round numbers,
    // the match days along the bottom and the ratings at the points.
    assert!(player.contains(" Nov</text>"), "{player}");
    assert!(
        player
            .matches("text-anchor=\"end\" dominant-baseline=\"middle\">")
            .count()
            >= 2,
        "{player}"
    );
    assert!(player.contains("<text class=\"value\""), "{player}");
    assert!(
        player.contains("<polyline class=\"rating\" points=\""),
        "{player}"
    );
    assert!(
        player.contains("<th scope=\"col\" class=\"num\">Expected</th>"),
        "{player}"
    );
}

/// Issue 11: the season's rating list (the league's ratings, GT-R1) has every division's
/// players in one list, highest first, linked from the season and from each division's list;
/// as CSV and in the API.
#[tokio::test]
async fn the_season_rating_list_has_every_divisions_players() {
    let app = demo_app().await;
    let season = "/leagues/gthscl/2026-27";
    let list_href = format!("{season}/ratings");
    assert!(
        page(&app, season)
            .await
            .contains(&format!("href=\"{list_href}\""))
    );
    assert!(
        page(&app, &format!("{WOOD}/ratings"))
            .await
            .contains(&format!("href=\"{list_href}\">Every division"))
    );

    let api = get(&app, &format!("/api/v1{list_href}")).await.json();
    let competitions = api["competitions"].as_array().unwrap();
    assert_eq!(competitions.len(), 3, "{api}");
    let players: usize = competitions
        .iter()
        .map(|c| c["ratings"]["players"].as_array().unwrap().len())
        .sum();
    assert!(players > 50, "{api}");

    let list = page(&app, &list_href).await;
    for division in [
        "Metro Division",
        "Suburban Division",
        "Wood County Division",
    ] {
        assert!(list.contains(&format!("\">{division}</a>")), "{division}");
    }
    // Highest first across the divisions.
    let ratings: Vec<u32> = list
        .split("<td class=\"num score\">")
        .skip(1)
        .filter_map(|cell| cell.split(['N', '<']).next()?.parse().ok())
        .collect();
    assert_eq!(ratings.len(), players, "a row per player");
    assert!(ratings.windows(2).all(|w| w[0] >= w[1]), "{ratings:?}");

    let csv = get_ok(&app, &format!("{list_href}.csv")).await;
    let mut lines = csv.body.lines();
    assert_eq!(
        lines.next(),
        Some(
            "competition,player_id,name,team_id,team,rating,provisional,before,games,score,expected,change"
        )
    );
    assert_eq!(lines.count(), players);

    let answer = get(&app, &list_href).await;
    let again = crate::common::send(
        &app,
        axum::http::Request::get(&list_href)
            .header("if-none-match", answer.header("etag"))
            .body(axum::body::Body::empty())
            .unwrap(),
    )
    .await;
    again.assert_status(StatusCode::NOT_MODIFIED);
    assert_eq!(
        get(&app, "/leagues/gthscl/1999-00/ratings").await.status,
        StatusCode::NOT_FOUND
    );
}

/// Issue 32 item 11: addresses that last. The league page leads to the season being played by
/// an address that stays the same season after season; a division is found under it by its
/// name, with any page below it; a name it does not have is a 404 listing its divisions.
#[tokio::test]
async fn the_season_being_played_and_its_divisions_have_lasting_addresses() {
    let app = demo_app().await;
    let league = get(&app, "/leagues/gthscl").await;
    league.assert_contains(r#"<a href="/leagues/gthscl/current">The season being played: 2026"#);
    let season = get_expect(&app, "/leagues/gthscl/current", StatusCode::SEE_OTHER).await;
    assert_eq!(season.header("location"), "/leagues/gthscl/2026-27");
    let team = get_expect(
        &app,
        "/leagues/gthscl/current/wood-county/teams/lake",
        StatusCode::SEE_OTHER,
    )
    .await;
    assert_eq!(team.header("location"), format!("{WOOD}/teams/lake"));
    assert_eq!(
        get(&app, team.header("location")).await.status,
        StatusCode::OK
    );
    let unknown = get_expect(
        &app,
        "/leagues/gthscl/current/premier",
        StatusCode::NOT_FOUND,
    )
    .await;
    unknown.assert_contains("has no division “premier”");
    unknown.assert_contains(WOOD);
}
