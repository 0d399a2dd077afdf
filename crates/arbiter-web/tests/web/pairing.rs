//! Issue 17: a team Swiss's next round on the site. Whoever sets up rounds reaches "Pair round N"
//! from the competition's page, sees C.04.6's pairing (the engine's own, on the stored
//! competition) with why, may swap teams by hand only with a reason (C.04.2 art. 1.5), kept in
//! the history and flagged on the round's page, and publishes it: the round's matches, home the
//! team with White on board 1. A publication read on an older competition is refused; the API
//! reads and publishes the same.

use arbiter_core::pairing::swiss::{self, Request, RoundPairing};
use arbiter_core::rules::permissions::Role;
use arbiter_core::{Competition, Pairing, Ruleset, TeamId};
use arbiter_store::{
    Actor, Entity, HistoryAction, HistoryFilter, NewCompetition, NewSeason, RulesRef, Store,
};
use axum::body::Body;
use axum::http::{Request as HttpRequest, StatusCode};

use crate::common::*;

const PRESIDENT: &str = "president@gthscl.example";
const COACH: &str = "coach@start.example";
const OPEN: &str = "/leagues/gthscl/2026-swiss/open";
const PAGE: &str = "/leagues/gthscl/2026-swiss/open/pairing";
const API: &str = "/api/v1/leagues/gthscl/2026-swiss/open/pairing";

/// The seeded league with the demo's team Swiss (three rounds played) as a season of its own,
/// the President and an advisor.
async fn swiss_store() -> Store {
    swiss_store_where(|_| {}).await
}

/// [`swiss_store`], the demo's team Swiss changed by `edit` before it is stored.
async fn swiss_store_where(edit: impl FnOnce(&mut Competition)) -> Store {
    swiss_store_ruled(edit, |rules| rules).await
}

/// [`swiss_store_where`], its ruleset file changed by `rules` too.
async fn swiss_store_ruled(
    edit: impl FnOnce(&mut Competition),
    rules: impl FnOnce(String) -> String,
) -> Store {
    let store = store().await;
    let demo = arbiter_demo::generate(jiff::civil::date(2026, 11, 4));
    let open = demo
        .leagues
        .iter()
        .flat_map(|l| &l.seasons)
        .flat_map(|s| &s.competitions)
        .find(|c| {
            c.ruleset()
                .is_some_and(|r| swiss::paired_round_by_round(&r))
        })
        .expect("the demo has a team Swiss");
    assert!(
        open.competition.rounds.len() >= 2,
        "rounds already played to pair from"
    );
    let league = store.league("gthscl").await.unwrap().unwrap();
    let season = store
        .create_season(
            league.id,
            &NewSeason {
                slug: "2026-swiss".into(),
                name: "2026 team Swiss".into(),
                starts_on: None,
                ends_on: None,
            },
            &Actor::system(),
        )
        .await
        .unwrap();
    let mut competition = open.competition.clone();
    edit(&mut competition);
    store
        .import_competition(
            season.id,
            &NewCompetition {
                slug: "open".into(),
                name: "Open".into(),
                rules: RulesRef::Toml(rules(open.rules.clone())),
            },
            &competition,
            &Actor::system(),
        )
        .await
        .unwrap();
    account(&store, PRESIDENT, Role::President, None).await;
    advisor(&store, COACH, "Start High School").await;
    store
}

/// The stored competition, its rules and version.
async fn stored(store: &Store) -> (Competition, Ruleset, i64) {
    let c = store
        .load_competition("gthscl", "open")
        .await
        .unwrap()
        .unwrap();
    (
        std::sync::Arc::unwrap_or_clone(c.competition),
        c.rules,
        c.version,
    )
}

/// C.04.6's next round of the stored competition, by core's engine itself.
async fn engine(store: &Store) -> RoundPairing {
    let (c, rules, _) = stored(store).await;
    let round = c.rounds.iter().map(|r| r.number).max().unwrap() + 1;
    swiss::pair(
        &c,
        &rules,
        &Request {
            round,
            absent: None,
            seed: 0,
        },
    )
    .unwrap()
}

/// The publish step's fields: the version read, the swaps and why, and `more`.
fn publish_fields<'a>(
    seen: &'a str,
    swaps: &'a str,
    why: &'a str,
    more: &[(&'a str, &'a str)],
) -> Vec<(&'a str, &'a str)> {
    let mut fields = vec![
        ("step", "publish"),
        ("seen", seen),
        ("swaps", swaps),
        ("reason", why),
    ];
    fields.extend_from_slice(more);
    fields
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

/// Each match of round `n` as stored: (home, away), and the round's byes.
async fn round_of(store: &Store, n: u32) -> Option<(Vec<(TeamId, TeamId)>, Vec<TeamId>)> {
    let (c, _, _) = stored(store).await;
    let r = c.rounds.iter().find(|r| r.number == n)?;
    Some((
        r.matches()
            .map(|m| (m.home.clone(), m.away.clone()))
            .collect(),
        r.pairings
            .iter()
            .filter_map(|p| match p {
                Pairing::Bye(b) => Some(b.team.clone()),
                Pairing::Match(_) => None,
            })
            .collect(),
    ))
}

/// The line the page shows for a team: its start number and name.
fn team_line(c: &Competition, id: &TeamId) -> String {
    let n = c.team_index(id).unwrap() + 1;
    format!("{n} {}", c.team_name(id))
}

async fn publications(store: &Store) -> Vec<arbiter_store::HistoryEntry> {
    let id = store
        .load_competition("gthscl", "open")
        .await
        .unwrap()
        .unwrap()
        .record
        .id;
    store
        .history(&HistoryFilter {
            competition: Some(id),
            ..HistoryFilter::default()
        })
        .await
        .unwrap()
        .into_iter()
        .filter(|h| h.action == HistoryAction::PublishPairing)
        .collect()
}

#[tokio::test]
async fn the_proposed_pairing_is_c04_6s_and_publishing_it_makes_the_next_round() {
    let store = swiss_store().await;
    let app = app(&store);
    let expected = engine(&store).await;
    let (c, _, _) = stored(&store).await;
    let n = expected.round;

    // Reached from the competition's own page.
    let overview = get(&app, OPEN).await;
    overview.assert_contains(&format!("<a href=\"{PAGE}\">Pair round {n}</a>"));
    let mut president = Visitor::signed_in(&app, PRESIDENT).await;
    let page = president.get_ok(&app, PAGE).await;
    page.assert_contains(&format!("Pair round {n}"));
    // Every pair of the engine, board by board, White first, with why.
    let mut at = 0;
    for (board, m) in expected.pairs.iter().enumerate() {
        let id = format!("id=\"board-{}\"", board + 1);
        let i = page.body[at..].find(&id).unwrap_or_else(|| panic!("{id}")) + at;
        let line = &page.body[i..i + page.body[i..].find("</details>").unwrap()];
        let (w, b) = (team_line(&c, &m.white), team_line(&c, &m.black));
        let (wi, bi) = (line.find(&w), line.find(&b));
        assert!(
            wi.is_some() && bi.is_some() && wi < bi,
            "board {}: {w} - {b}: {line}",
            board + 1
        );
        assert!(
            line.contains(m.why.colour_rule.article()),
            "the colour rule: {line}"
        );
        at = i + 1;
    }
    let bye = expected.bye.as_ref().expect("eleven teams: a bye");
    page.assert_contains(&team_line(&c, &bye.team));
    assert!(page.body.contains("C.04.6 art. 3.4"), "why the bye");
    page.assert_lacks("Changed by hand");

    // Published: the round's matches, home the team with White on board 1, and the bye.
    let seen = hidden(&page.body, "seen");
    let done = president
        .post_ok(&app, PAGE, &[("step", "publish"), ("seen", &seen)])
        .await;
    let (matches, byes) = round_of(&store, n).await.expect("the round is stored");
    let engine_pairs: Vec<(TeamId, TeamId)> = expected
        .pairs
        .iter()
        .map(|m| (m.white.clone(), m.black.clone()))
        .collect();
    assert_eq!(matches, engine_pairs);
    assert_eq!(byes, vec![bye.team.clone()]);
    let back = president.get(&app, done.header("location")).await;
    back.assert_contains(&format!("Round {n} is published"));
    // The next round waits for this one's results (C.04.6 art. 1.2), entered as for any round.
    back.assert_contains("C.04.6 art. 1.2");
    president
        .get_ok(&app, &format!("{OPEN}/rounds/{n}/results"))
        .await;
    let public = get_ok(&app, &format!("{OPEN}/rounds/{n}")).await;
    public.assert_lacks("Changed by hand");
    // The history keeps it, C.04.6's pairing beside it.
    let kept = publications(&store).await;
    assert_eq!(kept.len(), 1);
    assert_eq!(kept[0].entity, Entity::Competition);
    assert_eq!(kept[0].reason, None);
    let after = kept[0].after.as_ref().unwrap();
    assert_eq!(after["round"], n);
    assert_eq!(
        after["paired"]["pairs"].as_array().unwrap().len(),
        expected.pairs.len()
    );
}

#[tokio::test]
async fn c04_2_1_5_a_swap_needs_a_reason_which_the_history_keeps_and_the_round_shows() {
    let store = swiss_store().await;
    let app = app(&store);
    let expected = engine(&store).await;
    let n = expected.round;
    let (a, b) = (
        expected.pairs[0].white.clone(),
        expected.pairs[1].black.clone(),
    );
    let mut president = Visitor::signed_in(&app, PRESIDENT).await;
    let page = president.get(&app, PAGE).await;
    let seen = hidden(&page.body, "seen");

    // Without a reason: refused, with the rule, and nothing changed.
    let refused = president
        .post_refused(
            &app,
            PAGE,
            &[("step", "swap"), ("a", &a.0), ("b", &b.0), ("reason", " ")],
        )
        .await;
    refused.assert_contains("C.04.2 art. 1.5");
    refused.assert_contains("without a reason");
    assert_eq!(hidden(&refused.body, "swaps"), "");
    // Publishing a swap without a reason is refused the same way, and stores nothing.
    let swaps = format!("{}~{}", a.0, b.0);
    let no_reason = president
        .post_refused(
            &app,
            PAGE,
            &[("step", "publish"), ("seen", &seen), ("swaps", &swaps)],
        )
        .await;
    no_reason.assert_contains("C.04.2 art. 1.5");
    assert!(round_of(&store, n).await.is_none());

    // With a reason: shown changed, flagged, carried to the publication.
    let why = "Teams of one club may not meet";
    let swapped = president
        .post_expect(
            &app,
            PAGE,
            &[
                ("step", "swap"),
                ("a", &a.0),
                ("b", &b.0),
                ("reason", why),
                // These two pairs met before: a rematch only by override (C.04.1 b).
                ("override_absolute", "C.04.1 b"),
            ],
            StatusCode::OK,
        )
        .await;
    swapped.assert_contains(&format!("Changed by hand: {why} (C.04.2 art. 1.5)"));
    assert_eq!(hidden(&swapped.body, "swaps"), swaps);
    president
        .post_ok(
            &app,
            PAGE,
            &publish_fields(&seen, &swaps, why, &[("override_absolute", "C.04.1 b")]),
        )
        .await;
    let (matches, _) = round_of(&store, n).await.unwrap();
    assert_eq!(matches[0], (b.clone(), expected.pairs[0].black.clone()));
    assert_eq!(matches[1], (expected.pairs[1].white.clone(), a.clone()));
    assert_eq!(
        &matches[2..],
        &expected.pairs[2..]
            .iter()
            .map(|m| (m.white.clone(), m.black.clone()))
            .collect::<Vec<_>>()[..]
    );
    let kept = publications(&store).await;
    assert_eq!(kept.len(), 1);
    assert_eq!(kept[0].reason.as_deref(), Some(why));
    let after = kept[0].after.as_ref().unwrap();
    assert_eq!(
        after["changed_by_hand"],
        serde_json::json!([b.0.clone(), expected.pairs[1].white.0.clone()])
    );
    // C.04.6's own pairing is kept beside it: its first pair is the one changed.
    assert_eq!(
        after["paired"]["pairs"][0],
        serde_json::json!([
            expected.pairs[0].white_number,
            expected.pairs[0].black_number
        ])
    );
    // Flagged on the public round page, on the two changed matches only.
    let public = get(&app, &format!("{OPEN}/rounds/{n}")).await;
    assert_eq!(
        public
            .body
            .matches(&format!("Changed by hand: {why}"))
            .count(),
        2,
        "{}",
        public.body
    );
}

#[tokio::test]
async fn c04_1_b_a_rematch_by_hand_is_refused_unless_overridden_by_name_and_the_round_shows_it() {
    let store = swiss_store().await;
    let app = app(&store);
    let (c, _, _) = stored(&store).await;
    let expected = engine(&store).await;
    let n = expected.round;
    let swap = swiss::sample::rematching_swap(&c, &expected).expect("a swap makes a rematch");
    let swaps = format!("{}~{}", swap.a.0, swap.b.0);
    let mut president = Visitor::signed_in(&app, PRESIDENT).await;
    let page = president.get(&app, PAGE).await;
    let seen = hidden(&page.body, "seen");
    let why = "Decided by the Chief Arbiter after a late withdrawal";

    // With its reason but without the override: refused with the criterion, nothing stored.
    let refused = president
        .post_refused(&app, PAGE, &publish_fields(&seen, &swaps, why, &[]))
        .await;
    refused.assert_contains("C.04.1 b: ");
    refused.assert_contains("met once before");
    assert!(round_of(&store, n).await.is_none());

    // Overridden by name: published, the override kept in the history and shown on the round.
    president
        .post_ok(
            &app,
            PAGE,
            &publish_fields(&seen, &swaps, why, &[("override_absolute", "C.04.1 b")]),
        )
        .await;
    let kept = publications(&store).await;
    assert_eq!(kept.len(), 1);
    assert_eq!(kept[0].reason.as_deref(), Some(why));
    let overridden = &kept[0].after.as_ref().unwrap()["overridden_absolute"];
    assert!(
        overridden[0]
            .as_str()
            .is_some_and(|o| o.starts_with("C.04.1 b: ")),
        "{overridden}"
    );
    let public = get(&app, &format!("{OPEN}/rounds/{n}")).await;
    public.assert_contains(&format!(
        "Changed by hand: {why} (C.04.2 art. 1.5); overriding C.04.1 b: "
    ));
}

#[tokio::test]
async fn a_publication_read_on_an_older_competition_is_refused() {
    let store = swiss_store().await;
    let app = app(&store);
    let n = engine(&store).await.round;
    let mut president = Visitor::signed_in(&app, PRESIDENT).await;
    let page = president.get(&app, PAGE).await;
    let seen = hidden(&page.body, "seen");
    // Another publishes first (the API, the same write path).
    let token = api_token(&store, PRESIDENT, Role::President, None).await;
    let first = send(
        &app,
        HttpRequest::post(API)
            .header("authorization", format!("Bearer {token}"))
            .header("content-type", "application/json")
            .body(Body::from("{}"))
            .unwrap(),
    )
    .await;
    first.assert_status(StatusCode::OK);
    let (_, _, version) = stored(&store).await;
    assert_ne!(seen, version.to_string());
    let stale = president
        .post_expect(
            &app,
            PAGE,
            &[("step", "publish"), ("seen", &seen)],
            StatusCode::CONFLICT,
        )
        .await;
    stale.assert_contains("changed after its pairing was read");
    // One round n, no other.
    let (c, _, _) = stored(&store).await;
    assert_eq!(c.rounds.iter().filter(|r| r.number == n).count(), 1);
    assert!(c.rounds.iter().all(|r| r.number <= n));
    assert_eq!(publications(&store).await.len(), 1);

    // The round just published has no results yet: its state refuses the next one (409, art.
    // 1.2); a division drawn as a round robin has no pairing at all (404).
    let ask = |uri: &str| {
        HttpRequest::get(uri)
            .header("authorization", format!("Bearer {token}"))
            .body(Body::empty())
            .unwrap()
    };
    let waiting = send(&app, ask(API)).await;
    waiting.assert_status(StatusCode::CONFLICT);
    waiting.assert_contains("C.04.6 art. 1.2");
    let drawn = send(
        &app,
        ask("/api/v1/leagues/gthscl/2026-27/division-a/pairing"),
    )
    .await;
    drawn.assert_status(StatusCode::NOT_FOUND);
    drawn.assert_contains("not a team Swiss");
}

#[tokio::test]
async fn only_who_sets_up_rounds_may_pair_them() {
    let store = swiss_store().await;
    let app = app(&store);
    let mut coach = Visitor::signed_in(&app, COACH).await;
    coach.get_expect(&app, PAGE, StatusCode::FORBIDDEN).await;
    coach
        .post_forbidden(&app, PAGE, &[("step", "publish")])
        .await;
    let anonymous = get(&app, PAGE).await;
    assert!(to_sign_in(&anonymous));
    let token = api_token(&store, COACH, Role::Advisor, Some("Start High School")).await;
    let api = send(
        &app,
        HttpRequest::get(API)
            .header("authorization", format!("Bearer {token}"))
            .body(Body::empty())
            .unwrap(),
    )
    .await;
    api.assert_status(StatusCode::FORBIDDEN);
    assert!(round_of(&store, engine(&store).await.round).await.is_none());
}

#[tokio::test]
async fn the_api_gives_the_issues_json_and_publishes_with_swaps_and_their_reason() {
    let store = swiss_store().await;
    let app = app(&store);
    let expected = engine(&store).await;
    let token = api_token(&store, PRESIDENT, Role::President, None).await;
    let call = |method: &str, body: &str| {
        let b = HttpRequest::builder()
            .method(method)
            .uri(API)
            .header("authorization", format!("Bearer {token}"));
        if method == "GET" {
            b.body(Body::empty()).unwrap()
        } else {
            b.header("content-type", "application/json")
                .body(Body::from(body.to_string()))
                .unwrap()
        }
    };
    let read = send(&app, call("GET", "")).await;
    read.assert_status(StatusCode::OK);
    let pairs: Vec<serde_json::Value> = expected
        .pairs
        .iter()
        .map(|m| serde_json::json!([m.white_number, m.black_number]))
        .collect();
    assert_eq!(
        read.json(),
        serde_json::json!({
            "round": expected.round,
            "pairs": pairs,
            "bye": expected.bye.as_ref().map(|b| b.number),
        })
    );
    // A swap without its reason: 422 with the rule.
    let (x, y) = (
        expected.pairs[0].white_number,
        expected.pairs[1].white_number,
    );
    let body = format!("{{\"swaps\": [[{x}, {y}]]}}");
    let refused = send(&app, call("POST", &body)).await;
    refused.assert_status(StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        refused.json()["error"]["problems"][0]["rule"],
        "C.04.2 art. 1.5"
    );
    // The round meant must be the next one.
    let wrong = format!("{{\"round\": {}}}", expected.round + 1);
    assert_eq!(
        send(&app, call("POST", &wrong)).await.status,
        StatusCode::CONFLICT
    );
    let body = format!(
        "{{\"round\": {}, \"swaps\": [[{x}, {y}]], \"reason\": \"Asked by the organiser\", \"override_absolute\": [\"C.04.1 b\"]}}",
        expected.round
    );
    let done = send(&app, call("POST", &body)).await;
    done.assert_status(StatusCode::OK);
    let j = done.json();
    assert_eq!(j["changed_by_hand"], true);
    assert_eq!(j["reason"], "Asked by the organiser");
    assert_eq!(
        j["pairs"][0],
        serde_json::json!([y, expected.pairs[0].black_number])
    );
    assert_eq!(
        j["pairs"][1],
        serde_json::json!([x, expected.pairs[1].black_number])
    );
    // Published once: the same again is refused.
    assert_eq!(
        send(&app, call("POST", &body)).await.status,
        StatusCode::CONFLICT
    );
    assert_eq!(publications(&store).await.len(), 1);
}

/// `[pairing] seed = "average_top"` (issue 34): the page lists the start numbers with the
/// averages they come from, in the order core's seeding gives, and pairs by them as core does.
/// The file lists the teams weakest first; the seeding puts the strongest first again.
#[tokio::test]
async fn c046_art_1_1_the_pairing_page_lists_the_start_numbers_with_their_averages() {
    let store = swiss_store_ruled(
        |c| c.teams.reverse(),
        |rules| {
            rules.replace(
                "[pairing]\n",
                "[pairing]\nseed = \"average_top\"\nseed_top = 4\n",
            )
        },
    )
    .await;
    let (c, rules, _) = stored(&store).await;
    assert_eq!(
        rules.pairing.seed,
        arbiter_core::rules::ruleset::SeedOrder::AverageTop(4)
    );
    let seeded = swiss::seeding(&c, &rules);
    let first = &seeded[0];
    assert_eq!(c.teams[first.team].name, "Ann Arbor Chess Club");
    assert_eq!(first.team, c.teams.len() - 1, "listed last, seeded first");
    let average = arbiter_core::scoring::standings::format_number(first.average.unwrap());
    let app = app(&store);
    let mut president = Visitor::signed_in(&app, PRESIDENT).await;
    let page = president.get(&app, PAGE).await;
    assert!(
        page.body.contains(
            "Start numbers by the average rating of each team&#39;s top 4 players (C.04.6 art. 1.1)"
        ),
        "{}",
        page.body
    );
    let line = format!("<li>1 {} ({average})</li>", c.teams[first.team].name);
    assert!(page.body.contains(&line), "{line} in {}", page.body);
    // The page's board 1 is core's, start numbers and all.
    let expected = engine(&store).await;
    let board_one = format!("<strong>{} ", expected.pairs[0].white_number);
    assert!(page.body.contains(&board_one), "{}", page.body);
}

/// The page as the President sees it before publishing, swaps and all, for review: the CSRF
/// token (random) and the data version (the store's) masked.
#[tokio::test]
async fn the_pairing_page_with_a_swap() {
    let store = swiss_store().await;
    let app = app(&store);
    let expected = engine(&store).await;
    let mut president = Visitor::signed_in(&app, PRESIDENT).await;
    let (a, b) = (&expected.pairs[2].black.0, &expected.pairs[3].black.0);
    let page = president
        .post_expect(
            &app,
            PAGE,
            &[
                ("step", "swap"),
                ("a", a),
                ("b", b),
                ("reason", "Asked by the organiser"),
            ],
            StatusCode::OK,
        )
        .await;
    let body = masked(&page.body)
        .replace(&hidden(&page.body, "csrf"), "CSRF")
        .replace(
            &format!("name=\"seen\" value=\"{}\"", hidden(&page.body, "seen")),
            "name=\"seen\" value=\"VERSION\"",
        );
    insta::assert_snapshot!("pairing_page_with_a_swap", body);
}

/// Issue 32 item 28: the TRF of a team Swiss of 7 rounds, 3 played and the 4th paired on the
/// site, says the event's 7 rounds (record 142, C.04.6's [C7] and [C10] read the last two from
/// it), dates the round paired on the site (132), and C.04.6's own check and pairing accept it.
#[tokio::test]
async fn c04_6_the_trf_export_gives_the_events_rounds_and_the_sites_round_its_date() {
    let store = swiss_store().await;
    let day = jiff::civil::date(2026, 11, 8);
    let app = app_on(&store, day);
    let (_, rules, _) = stored(&store).await;
    assert_eq!(rules.pairing.rounds, Some(7), "the event has 7 rounds");
    let mut president = Visitor::signed_in(&app, PRESIDENT).await;
    let page = president.get(&app, PAGE).await;
    let seen = hidden(&page.body, "seen");
    president
        .post_ok(&app, PAGE, &[("step", "publish"), ("seen", &seen)])
        .await;
    let (c, _, _) = stored(&store).await;
    let four = c.rounds.iter().find(|r| r.number == 4).expect("round 4");
    assert_eq!(
        four.date,
        Some(day),
        "the round paired on the site has its day"
    );

    let trf = get_ok(&app, &format!("{OPEN}/trf.txt")).await;
    let line = |tag: &str| {
        trf.body
            .lines()
            .find(|l| l.starts_with(tag))
            .unwrap_or_else(|| panic!("no {tag}: {}", trf.body))
            .to_string()
    };
    assert_eq!(line("142").trim_end(), "142 7", "the event's rounds, not 4");
    let dates = line("132");
    for d in ["26/10/10", "26/10/11", "26/11/07", "26/11/08"] {
        assert!(dates.contains(d), "132 dates round by round: {dates}");
    }

    // What `arbiter pair --check` and `arbiter pair` do with the file.
    let doc = arbiter_formats::trf::read("open.trf", trf.body.as_bytes()).unwrap();
    let import = arbiter_formats::trf::to_competition(&doc).unwrap();
    assert_eq!(import.rules.pairing.rounds, Some(7));
    let checks = swiss::check(&import.competition, &import.rules, 0);
    assert!(checks.len() >= 3, "the played rounds are checked");
    for check in &checks {
        assert_eq!(check.difference, None, "round {}", check.round);
    }
    let next = swiss::next_round(&import.competition, &import.rules).unwrap();
    let paired = swiss::pair(
        &import.competition,
        &import.rules,
        &Request {
            round: next,
            absent: None,
            seed: 0,
        },
    );
    assert!(paired.is_ok(), "round {next}: {paired:?}");
}

/// Issue 32, item 29: at a team Swiss the match page, the round's page and a captain's account
/// page give the match's table (its place in the round) and each team's colours down the boards,
/// the first-named team having the pairing's colour on board 1 and the colours alternating
/// (C.04.6 art. 4, the ruleset's `white_on_odd_boards`); never "Home" and "Visitors".
#[tokio::test]
async fn c04_6_captains_read_their_table_and_colours_down_the_boards_not_home_and_visitors() {
    const CAPTAIN: &str = "captain@toledo.example";
    let store = swiss_store_where(|c| {
        let toledo = c.teams.iter_mut().find(|t| t.id.0 == "toledo").unwrap();
        toledo.school = Some("Toledo Chess Club".into());
    })
    .await;
    advisor(&store, CAPTAIN, "Toledo Chess Club").await;
    let (c, _, _) = stored(&store).await;
    let round = c.rounds.iter().find(|r| r.number == 3).unwrap();
    let (table, m) = round
        .matches()
        .enumerate()
        .find(|(_, m)| m.home.0 == "toledo" || m.away.0 == "toledo")
        .expect("Toledo played round 3");
    let table = table + 1;
    let (home, away) = (c.team_name(&m.home), c.team_name(&m.away));
    let first = "White on boards 1 and 3, Black on boards 2 and 4";
    let second = "Black on boards 1 and 3, White on boards 2 and 4";
    let app = app(&store);

    let page = get_ok(&app, &format!("{OPEN}/rounds/3/matches/{}", m.home.0)).await;
    page.assert_contains(&format!("Table {table}"));
    page.assert_contains(&format!("{home}: {first}"));
    page.assert_contains(&format!("{away}: {second}"));
    assert!(
        !page.body.contains("Home:") && !page.body.contains("Visitors:"),
        "a team Swiss has no home and visitors: {}",
        page.body
    );

    let listed = get(&app, &format!("{OPEN}/rounds/3")).await;
    listed.assert_contains(&format!(
        "<strong>Table {table}</strong> · {home}: {first} · {away}: {second}"
    ));

    let mut captain = Visitor::signed_in(&app, CAPTAIN).await;
    let mine = captain.get(&app, "/account").await;
    let toledo = if m.home.0 == "toledo" { first } else { second };
    mine.assert_contains(&format!("table {table} · {toledo}"));
    assert!(!mine.body.contains(" · home ·") && !mine.body.contains(" · away ·"));
}
