//! The HTML pages: status, content, escaping, caching.

use axum::body::Body;
use axum::http::{Request, StatusCode};

use crate::common::*;

#[tokio::test]
async fn home_lists_leagues_and_this_weeks_rounds() {
    let store = store().await;
    let app = app(&store);
    let a = get_ok(&app, "/").await;
    assert!(a.header("content-type").starts_with("text/html"));
    a.assert_contains("<title>Arbiter — leagues and events</title>");
    a.assert_contains(r#"<a href="/leagues/gthscl">GTHSCL</a>"#);
    a.assert_contains(r#"href="/leagues/gthscl/2026-27/division-a">Division A</a>"#);
    // Today is Wed 4 Nov 2026: rounds 1 (Mon 2 Nov) and 2 (Wed 4 Nov) are this week.
    a.assert_contains("Mon 2 Nov 2026 to Sun 8 Nov 2026");
    a.assert_contains(&format!(r#"<a href="{DIVISION}/rounds/1">Round 1</a>"#));
    a.assert_contains(&format!(r#"<a href="{DIVISION}/rounds/2">Round 2</a>"#));
    a.assert_lacks(&format!(r#"<a href="{DIVISION}/rounds/3">Round 3</a>"#));
    // No script anywhere (none is needed to read a page).
    a.assert_lacks("<script");
}

#[tokio::test]
async fn league_and_season_pages() {
    let store = store().await;
    let app = app(&store);
    let a = get_ok(&app, "/leagues/gthscl").await;
    a.assert_contains("<title>GTHSCL</title>");
    a.assert_contains("Greater Toledo High School Chess League");
    a.assert_contains("Thu 1 Oct 2026 to Wed 31 Mar 2027");
    let a = get_ok(&app, "/leagues/gthscl/2026-27").await;
    a.assert_contains("<title>GTHSCL 2026-27</title>");
    a.assert_contains(&format!(r#"href="{DIVISION}">Division A</a>"#));
}

#[tokio::test]
async fn standings_page_has_every_criterion_shared_places_and_the_drop_gt_s5_as_18_gt_m5() {
    let store = store().await;
    let app = app(&store);
    let a = get_ok(&app, DIVISION).await;
    let b = &a.body;
    assert!(
        b.contains("<title>Standings — Division A — GTHSCL 2026-27</title>"),
        "{b}"
    );
    // Every criterion of the gthscl ruleset is a column, with its rule in the title (GT-S5).
    for (code, what) in [
        ("MP", "match points"),
        ("GP", "game points, the sum of all games"),
        (
            "H2H:MP",
            "match points in the matches among the tied teams only",
        ),
    ] {
        let head = format!(r#"<abbr title="GT-S5: {what}">{code}</abbr>"#);
        assert!(b.contains(&head), "{code} column missing: {head}");
    }
    // AS-18 reading: start and clay are equal on every criterion and share place 2-3.
    assert_eq!(
        b.matches(r#"<td class="num place">2-3</td>"#).count(),
        2,
        "{b}"
    );
    // GT-M5: the dropped team is marked and explained.
    assert!(b.contains("dropped (GT-M5)"));
    assert!(b.contains("Waite Dropouts was dropped (GT-M5) after its match forfeit in round 3"));
    // Rounds: match scores, forfeits labelled, GT-M5 exclusions struck through with the reason.
    assert!(
        b.contains(
            r#"<a href="/leagues/gthscl/2026-27/division-a/rounds/1/matches/scott">3–1</a>"#
        ),
        "{b}"
    );
    assert!(b.contains("forfeit (GT-M7)"));
    assert!(b.contains("Waite Dropouts forfeited the match."));
    assert!(b.contains("<del>"));
    assert!(b.contains("GT-M5: excluded, because Waite Dropouts was dropped in round 3"));
    assert!(b.contains(r#"<link rel="stylesheet" href="/static/arbiter.css?v="#));
}

#[tokio::test]
async fn crosstable_shows_game_points_colours_and_a_blank_diagonal() {
    let store = store().await;
    let app = app(&store);
    let a = get_ok(&app, &format!("{DIVISION}/crosstable")).await;
    let b = &a.body;
    assert!(b.contains("<title>Crosstable — Division A — GTHSCL 2026-27</title>"));
    assert_eq!(b.matches(r#"class="diag""#).count(), 4);
    // scott was home in round 1 against start: GT-M18 gives the visitors White on board 1.
    assert!(
        b.contains(r#"<span title="Round 1: 3–1 against Start Spartans, home, B on board 1">3<span class="colour">B</span></span>"#),
        "{b}"
    );
    assert!(b.contains(r#"1<span class="colour">W</span>"#));
    // GT-M5: meetings with the dropped team are struck through.
    assert!(b.contains(r#"<del title="Round 3: won by forfeit against Waite Dropouts, away, W on board 1. GT-M5"#), "{b}");
}

#[tokio::test]
async fn round_page_lists_boards_players_ratings_and_forfeits() {
    let store = store().await;
    let app = app(&store);
    let a = get_ok(&app, &format!("{DIVISION}/rounds/1")).await;
    let b = &a.body;
    assert!(b.contains("<title>Round 1 — Division A — GTHSCL 2026-27</title>"));
    assert!(b.contains("Mon 2 Nov 2026"));
    assert!(b.contains(r#"<section class="match" id="m-scott">"#));
    assert!(b.contains(">Zoë O&#39;Brien</a>"), "{b}");
    assert!(b.contains(r#"<td class="num">1200N</td>"#), "GT-R3");
    assert!(b.contains(r#"<td class="num score">1–0</td>"#));
    assert!(
        b.contains(r#"<td class="num score">+/−</td>"#),
        "GT-S2 board forfeit"
    );
    assert!(b.contains("The away player forfeited the game (GT-S2)."));
    assert!(b.contains("For ratings the game is 1–0 (GT-P1)."));
    assert!(b.contains(r#"<a href="/leagues/gthscl/2026-27/division-a/rounds/2">Round 2 →</a>"#));
    // Round 2: a whole-match forfeit is labelled, with no boards.
    let a = get(&app, &format!("{DIVISION}/rounds/2")).await;
    a.assert_contains(r#"<span class="tag">forfeit (GT-M7)</span>"#);
    // Round 4 is still to be played.
    let a = get_ok(&app, &format!("{DIVISION}/rounds/4")).await;
    a.assert_contains(r#">–</a></td>"#);
}

#[tokio::test]
async fn team_page_has_school_roster_in_board_order_and_results_gt_r3() {
    let store = store().await;
    let app = app(&store);
    let a = get_ok(&app, &format!("{DIVISION}/teams/scott")).await;
    let b = &a.body;
    assert!(b.contains("<title>Zoë O&#39;Brien &#60;&#38;&#62; &#34;Q&#34; — Division A — GTHSCL 2026-27</title>"), "{b}");
    assert!(b.contains("Scott High School"));
    let order: Vec<usize> = ["Zoë O&#39;Brien", "Ana Ruiz", "Ben Lee", "Cy Young"]
        .iter()
        .map(|n| b.find(&format!(">{n}</a>")).unwrap())
        .collect();
    assert!(
        order.windows(2).all(|w| w[0] < w[1]),
        "roster in board order"
    );
    assert!(b.contains(r#"<td class="num">1200N</td>"#));
    assert!(b.contains("N: a provisional 1200 rating (GT-R3)."));
    assert!(b.contains("2 match points, 6 game points"));
    // Round 3: drop's forfeit, excluded by GT-M5.
    assert!(b.contains("<del>4–0</del>"), "{b}");
}

/// Issue 32: a team's page says its next match on top: the day and the time the home advisor
/// arranged (GT-M1) in the league's zone, the opponent, home or away, the school and its
/// address; then every match of the season with its day, linked to the match, and its result.
#[tokio::test]
async fn gt_m1_a_team_page_says_its_next_match_on_top_with_its_time_place_and_address() {
    let store = store().await;
    set_school_address(
        &store,
        "Start High School",
        "2010 Tremainsville Rd\nToledo, OH 43613",
    )
    .await;
    // Today is Wed 4 Nov 2026: Start's match that day was forfeited, so its next is round 4's,
    // at home on Mon 16 Nov; no time is arranged yet.
    let app = app(&store);
    let page = get(&app, &format!("{DIVISION}/teams/start")).await;
    let b = &page.body;
    let next = b.find("<h2>Next match</h2>").expect("the next match");
    assert!(next < b.find("<h2>Roster</h2>").unwrap(), "on top: {b}");
    assert!(b.contains("<strong>Mon 16 Nov 2026</strong>"), "{b}");
    assert!(
        b.contains(&format!(
            r#"<a href="{DIVISION}/rounds/4/matches/start">Start Spartans v Zoë O&#39;Brien &#60;&#38;&#62; &#34;Q&#34;</a>"#
        )),
        "{b}"
    );
    assert!(
        b.contains(", home, at Start High School, 2010 Tremainsville Rd, Toledo, OH 43613."),
        "{b}"
    );
    assert!(
        b.contains("The time is the home team&#39;s advisor&#39;s to arrange (GT-M1)."),
        "{b}"
    );
    // Every match of the season with its day, linked to the match page.
    for (round, home, day) in [
        (1, "scott", "Mon 2 Nov 2026"),
        (2, "start", "Wed 4 Nov 2026"),
        (3, "start", "Mon 9 Nov 2026"),
        (4, "start", "Mon 16 Nov 2026"),
    ] {
        assert!(
            b.contains(&format!(
                r#"<a href="{DIVISION}/rounds/{round}/matches/{home}">{day}</a>"#
            )),
            "round {round}: {b}"
        );
    }

    // The home advisor arranges 15:30 (GT-M1): the time in the league's zone.
    let m = round_4_start_match(&store).await;
    store
        .move_match(
            m,
            jiff::civil::date(2026, 11, 16),
            Some(jiff::civil::time(15, 30, 0, 0)),
            "Arranged after school",
            &arbiter_store::Actor::system(),
        )
        .await
        .unwrap();
    let b = get(&app, &format!("{DIVISION}/teams/start")).await.body;
    assert!(
        b.contains("<strong>Mon 16 Nov 2026 at 15:30 (America/New_York)</strong>"),
        "{b}"
    );
    assert!(!b.contains("to arrange (GT-M1)"), "{b}");
    // The visitors' page says the same match, away.
    let scott = get(&app, &format!("{DIVISION}/teams/scott")).await.body;
    assert!(
        scott.contains(", away, at Start High School, 2010 Tremainsville Rd"),
        "{scott}"
    );
    // After the season's last match day there is no next match.
    let later = app_on(&store, jiff::civil::date(2026, 11, 17));
    let b = get(&later, &format!("{DIVISION}/teams/start")).await.body;
    assert!(!b.contains("Next match"), "{b}");
}

#[tokio::test]
async fn player_page_has_games_with_colours_opponents_and_results() {
    let store = store().await;
    let app = app(&store);
    let a = get_ok(&app, &format!("{DIVISION}/players/scott1")).await;
    let b = &a.body;
    assert!(b.contains("<title>Zoë O&#39;Brien (Zoë O&#39;Brien &#60;&#38;&#62; &#34;Q&#34;) — Division A — GTHSCL 2026-27</title>"), "{b}");
    assert!(b.contains("rating 1650"));
    assert!(b.contains("2 from 2 games"));
    // Round 1 at home on board 1: GT-M18 gives the visitors White on odd boards.
    assert!(b.contains(r#"<td class="num">1</td><td>black</td><td><a href="/leagues/gthscl/2026-27/division-a/players/start1">Dee Park</a></td>"#), "{b}");
    assert!(b.contains(r#"<td class="num score">1</td>"#));
}

#[tokio::test]
async fn explain_page_gives_sentences_with_rule_ids() {
    let store = store().await;
    let app = app(&store);
    let a = get_ok(&app, &format!("{DIVISION}/explain")).await;
    let b = &a.body;
    assert!(b.contains("<title>Why this order — Division A — GTHSCL 2026-27</title>"));
    assert!(b.contains(r#"<span class="rule">GT-S5</span>"#), "{b}");
    assert!(b.contains(r#"<span class="rule">GT-M5</span>"#));
    assert!(b.contains("share place 2-3"));
    assert!(b.contains("Criteria in order: MP (GT-S5), GP (GT-S5), H2H:MP (GT-S5)."));
}

#[tokio::test]
async fn names_are_escaped_in_every_page() {
    let store = store().await;
    let app = app(&store);
    for path in [
        DIVISION.to_string(),
        format!("{DIVISION}/crosstable"),
        format!("{DIVISION}/explain"),
        format!("{DIVISION}/rounds/1"),
        format!("{DIVISION}/teams/scott"),
        format!("{DIVISION}/players/scott1"),
    ] {
        let a = get(&app, &path).await;
        assert_eq!(a.status, StatusCode::OK, "{path}");
        assert!(
            !a.body.contains(AWKWARD),
            "{path}: the raw name is in the page"
        );
        assert!(!a.body.contains("<&>"), "{path}");
        assert!(
            a.body
                .contains("Zoë O&#39;Brien &#60;&#38;&#62; &#34;Q&#34;"),
            "{path}: the escaped name is missing"
        );
    }
}

#[tokio::test]
async fn unknown_addresses_are_helpful_404_pages() {
    let store = store().await;
    let app = app(&store);
    for (path, says) in [
        (
            "/leagues/nope",
            "There is no league or event called “nope”.",
        ),
        ("/leagues/gthscl/1999", "GTHSCL has no season “1999”."),
        (
            "/leagues/gthscl/2026-27/division-z",
            "has no competition or division “division-z”",
        ),
        (
            "/leagues/nope/2026-27/division-a",
            "There is no league or event called “nope”.",
        ),
        (
            &format!("{DIVISION}/teams/nobody"),
            "Division A has no team with the id “nobody”.",
        ),
        (
            &format!("{DIVISION}/players/nobody"),
            "has a player with the id “nobody”",
        ),
        (
            &format!("{DIVISION}/rounds/9"),
            "Division A has no round 9; its rounds are 1 to 4.",
        ),
        ("/no/such/page", "There is no page at /no/such/page."),
    ] {
        let a = get(&app, path).await;
        assert_eq!(a.status, StatusCode::NOT_FOUND, "{path}");
        assert!(a.header("content-type").starts_with("text/html"), "{path}");
        assert!(a.body.contains(says), "{path}: {}", a.body);
        a.assert_contains(r#"<a href="/">All leagues and events</a>"#);
    }
    // The 404 for an unknown league links the leagues there are.
    let a = get(&app, "/leagues/nope").await;
    a.assert_contains(r#"<a href="/leagues/gthscl">GTHSCL</a>"#);
    let a = get(&app, &format!("{DIVISION}/teams/nobody")).await;
    a.assert_contains(
        r#"<a href="/leagues/gthscl/2026-27/division-a/teams/start">Start Spartans</a>"#,
    );
}

#[tokio::test]
async fn bad_round_numbers_are_400() {
    let store = store().await;
    let app = app(&store);
    for (n, says) in [
        ("abc", "“abc” is not a round number"),
        ("0", "There is no round 0: rounds are numbered from 1."),
        ("-1", "“-1” is not a round number"),
        ("99999999999", "is not a round number"),
    ] {
        let a = get(&app, &format!("{DIVISION}/rounds/{n}")).await;
        assert_eq!(a.status, StatusCode::BAD_REQUEST, "{n}");
        assert!(a.body.contains(says), "{n}: {}", a.body);
    }
    // Badly encoded UTF-8 in the address is the reader's mistake too.
    get_expect(
        &app,
        &format!("{DIVISION}/teams/%FF"),
        StatusCode::BAD_REQUEST,
    )
    .await;
}

#[tokio::test]
async fn an_unchanged_page_costs_a_304_and_a_new_result_a_new_etag() {
    let store = store().await;
    let app = app(&store);
    let first = get(&app, DIVISION).await;
    let tag = first.header("etag").to_string();
    assert!(tag.starts_with('"') && tag.len() > 4, "{tag}");
    assert_eq!(
        first.header("cache-control"),
        "public, max-age=0, must-revalidate"
    );
    let again = division_if_none_match(&app, &tag).await;
    again.assert_status(StatusCode::NOT_MODIFIED);
    assert!(again.body.is_empty());
    assert_eq!(again.header("etag"), tag);
    // Weak comparison and lists (RFC 9110 13.1.2).
    let listed = division_if_none_match(&app, format!("\"x\", W/{tag}")).await;
    listed.assert_status(StatusCode::NOT_MODIFIED);
    // Other pages have other tags.
    let cross = get(&app, &format!("{DIVISION}/crosstable")).await;
    assert_ne!(cross.header("etag"), tag);

    // A result for round 4 changes the competition's version, so the page and its tag.
    let m = round_4_start_match(&store).await;
    store
        .record_result(
            m,
            store.report_seen(m).await.unwrap(),
            &arbiter_core::MatchOutcome::Forfeit {
                by: arbiter_core::Side::Home,
            },
            &arbiter_store::Actor::default(),
            None,
        )
        .await
        .unwrap();
    let changed = division_if_none_match(&app, &tag).await;
    changed.assert_status(StatusCode::OK);
    assert_ne!(changed.header("etag"), tag);
    changed.assert_contains("Start Spartans forfeited the match.");
}

#[tokio::test]
async fn the_stylesheet_is_served_with_a_long_cache_under_its_versioned_url() {
    let store = store().await;
    let app = app(&store);
    let page = get(&app, DIVISION).await;
    let start = page.body.find("/static/arbiter.css?v=").unwrap();
    let href: String = page.body[start..]
        .chars()
        .take_while(|c| *c != '"')
        .collect();
    let css = get_ok(&app, &href).await;
    assert_eq!(css.header("content-type"), "text/css; charset=utf-8");
    assert_eq!(
        css.header("cache-control"),
        "public, max-age=31536000, immutable"
    );
    css.assert_contains("@media print");
    css.assert_contains("size: A4");
    let plain = get(&app, "/static/arbiter.css").await;
    assert_eq!(plain.header("cache-control"), "public, max-age=300");
    let stale = get(&app, "/static/arbiter.css?v=0").await;
    assert_eq!(stale.header("cache-control"), "public, max-age=300");
}

#[tokio::test]
async fn head_works_and_other_methods_are_refused() {
    let store = store().await;
    let app = app(&store);
    let head = send(&app, Request::head(DIVISION).body(Body::empty()).unwrap()).await;
    head.assert_status(StatusCode::OK);
    assert!(head.body.is_empty());
    let post = send(&app, Request::post(DIVISION).body(Body::empty()).unwrap()).await;
    post.assert_status(StatusCode::METHOD_NOT_ALLOWED);
    assert_eq!(post.header("allow"), "GET,HEAD");
    post.assert_contains("a page is read with GET");
}

#[tokio::test]
async fn a_failing_store_gives_503_with_a_plain_sentence() {
    // A store that was never migrated has no tables: every query fails.
    let dir = std::env::temp_dir().join(format!("arbiter-web-503-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("empty.db");
    let _ = std::fs::remove_file(&path);
    let store = arbiter_store::Store::open(path.to_str().unwrap())
        .await
        .unwrap();
    let app = app(&store);
    for path in ["/", "/leagues/gthscl", DIVISION, "/api/v1/leagues"] {
        let a = get(&app, path).await;
        assert_eq!(a.status, StatusCode::SERVICE_UNAVAILABLE, "{path}");
        assert!(
            a.body
                .contains("The results store is not answering just now."),
            "{path}"
        );
        assert!(!a.body.to_lowercase().contains("sql"), "{path}: {}", a.body);
        assert_eq!(a.header("retry-after"), "30");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn pages_carry_security_headers() {
    let store = store().await;
    let app = app(&store);
    let a = get(&app, DIVISION).await;
    assert_eq!(a.header("x-content-type-options"), "nosniff");
    assert!(
        a.header("content-security-policy")
            .contains("default-src 'none'")
    );
}

/// Issue 32 (item 1): a parent finds their school from the home page: by the league's list of
/// schools, or by a search for part of a name, with no script.
#[tokio::test]
async fn a_parent_finds_their_school_its_teams_and_a_player_from_the_home_page() {
    let store = store().await;
    let app = app_on(&store, jiff::civil::date(2026, 11, 16));
    let home = get(&app, "/").await;
    home.assert_contains(r#"<form method="get" action="/search""#);
    home.assert_contains(r#"href="/leagues/gthscl/schools""#);
    // This week's rounds, under their league.
    home.assert_contains(r#"<h3><a href="/leagues/gthscl">"#);

    let schools = get_ok(&app, "/leagues/gthscl/schools").await;
    schools.assert_contains(
        r#"<a href="/leagues/gthscl/schools/start-high-school">Start High School</a>"#,
    );
    let school = get_ok(&app, "/leagues/gthscl/schools/start-high-school").await;
    school.assert_contains(
        r#"<a href="/leagues/gthscl/2026-27/division-a/teams/start">Start Spartans</a>"#,
    );
    school.assert_contains("Division A");
    get_expect(
        &app,
        "/leagues/gthscl/schools/nowhere-high",
        StatusCode::NOT_FOUND,
    )
    .await;

    let found = get_ok(&app, "/search?q=start+high").await;
    found.assert_contains("<h2>Schools</h2>");
    found.assert_contains("/leagues/gthscl/schools/start-high-school");
    found.assert_contains(">Start Spartans</a>");
    let player = get(&app, "/search?q=STONE").await;
    player.assert_contains("<h2>Players</h2>");
    player.assert_contains(">Eli Stone</a>");
    let short = get(&app, "/search?q=s").await;
    short.assert_contains("Type at least two letters");
    let none = get(&app, "/search?q=zzzz").await;
    none.assert_contains("Nothing is named");
}

/// The division's page asked for with `If-None-Match: tags`.
async fn division_if_none_match(app: &axum::Router, tags: impl AsRef<str>) -> Answer {
    let req = Request::get(DIVISION)
        .header("if-none-match", tags.as_ref())
        .body(Body::empty())
        .unwrap();
    send(app, req).await
}
