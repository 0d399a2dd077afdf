//! An ASTC event's days (issue 14): the arbiter sets the event and its round times (AS-1, AS-3),
//! and a lineup named after its deadline by the hall's clock is refused unless the arbiter
//! accepts it, with the reason kept (AS-11).

use arbiter_core::record::model::{MatchOutcome, Pairing};
use arbiter_core::rules::permissions::Role;
use arbiter_demo::testing::{self, LeagueSetup};
use arbiter_store::{Actor, RulesRef, Store};
use axum::http::StatusCode;
use jiff::civil::date;
use std::time::Duration;

use crate::common::*;

const EVENT: &str = "/leagues/astc/2026/event";
const ARBITER: &str = "arbiter@astc.example";
const COACH: &str = "coach@astc.example";
const PRESIDENT: &str = "president@astc.example";

/// The demo's Secondary Open with round 1 played and the rest still to play, in a league of
/// its own with an arbiter and the advisor of the school of round 2's first home team. Returns
/// the store, the competition's id and round 2's first match (its path and the home school's
/// players in roster order).
async fn event_store() -> (Store, i64, String, Vec<String>) {
    let store = store().await;
    let demo = arbiter_demo::generate(date(2026, 12, 20));
    let astc = demo.leagues.iter().find(|l| l.slug == "astc").unwrap();
    let edition = astc.seasons.iter().find(|s| s.slug == "2026").unwrap();
    let open = edition
        .competitions
        .iter()
        .find(|c| c.slug == "secondary-open")
        .unwrap();
    let mut competition = open.competition.clone();
    for round in competition.rounds.iter_mut().filter(|r| r.number >= 2) {
        for p in &mut round.pairings {
            if let Pairing::Match(m) = p {
                m.outcome = MatchOutcome::Pending;
            }
        }
    }
    let written = LeagueSetup::new(testing::astc())
        .season(testing::astc_2026())
        .competition(
            testing::new_competition(
                "secondary-open",
                "Secondary Open",
                RulesRef::Preset("astc".into()),
            ),
            competition.clone(),
        )
        .write(&store)
        .await;
    let imported = &written.competitions[0];
    let Pairing::Match(first) = competition.rounds[1]
        .pairings
        .iter()
        .find(|p| matches!(p, Pairing::Match(_)))
        .unwrap()
    else {
        unreachable!()
    };
    let home = competition
        .teams
        .iter()
        .find(|t| t.id == first.home)
        .unwrap();
    let school = home.school.clone().unwrap();
    let players = home.players.iter().map(|p| p.id.0.clone()).collect();
    for (email, role, school) in [
        (ARBITER, Role::Arbiter, None),
        (COACH, Role::Advisor, Some(school.as_str())),
        (PRESIDENT, Role::President, None),
    ] {
        testing::account(&store, "astc", email, role, school).await;
    }
    let path = format!(
        "/leagues/astc/2026/secondary-open/rounds/2/matches/{}",
        first.home.0
    );
    (store, imported.id.0, path, players)
}

async fn post_lineup(
    v: &mut Visitor,
    app: &axum::Router,
    to: &str,
    fields: Vec<(String, String)>,
) -> Answer {
    let f: Vec<(&str, &str)> = fields
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    v.post(app, to, &f).await
}

/// The site at `hall`, a time in Adelaide (+10:30) on 7 December 2026.
fn app_at(store: &Store, hall: &str) -> axum::Router {
    app_at_mailing(store, hall, quiet_mail())
}

/// [`app_at`] with its mail written to `mail`'s folder, to be read.
fn app_at_mailing(store: &Store, hall: &str, mail: arbiter_mail::Mailer) -> axum::Router {
    let local: jiff::civil::DateTime = format!("2026-12-07T{hall}").parse().unwrap();
    let now = jiff::tz::Offset::from_seconds(630 * 60)
        .unwrap()
        .to_timestamp(local)
        .unwrap();
    arbiter_web::router(
        arbiter_web::AppState::new(store.clone())
            .with_freshness(Duration::ZERO)
            .with_today(date(2026, 12, 7))
            .with_now(now)
            .with_mail(mail, "http://localhost:8080"),
    )
}

/// The result form's fields for a match the home team wins on every board, its first four
/// players against the away team's.
fn home_wins(home: &[String], away: &[String]) -> Vec<(String, String)> {
    let mut fields = vec![("forfeit".to_string(), String::new())];
    for n in 1..=4 {
        fields.push((format!("home_{n}"), home[n - 1].clone()));
        fields.push((format!("result_{n}"), "1-0".into()));
        fields.push((format!("away_{n}"), away[n - 1].clone()));
        fields.push((format!("rating_{n}"), String::new()));
    }
    fields
}

/// [`event_store`] with the arbiter's round times set (round 1 at 09:30 on 7 December, the
/// rosters locking at 09:00, three rounds a day), and the competition as stored then.
async fn timed_event_store() -> (
    Store,
    i64,
    String,
    Vec<String>,
    arbiter_store::StoredCompetition,
) {
    let (store, id, path, players) = event_store().await;
    let loaded = stored_with_event(&store, id).await;
    (store, id, path, players, loaded)
}

/// The event set by the arbiter: rounds at 09:30, 13:30, 16:30 on the 7th, then 09:30 and
/// 13:30 on the 8th and so on.
async fn set_event(app: &axum::Router, id: i64, rounds: usize) -> Answer {
    let mut arbiter = Visitor::signed_in(app, ARBITER).await;
    arbiter.get_ok(app, EVENT).await;
    let times = ["09:30", "13:30", "16:30"];
    let starts: Vec<(String, String)> = (0..rounds)
        .map(|i| {
            (
                format!("start_{id}_{}", i + 1),
                format!("2026-12-{:02}T{}", 7 + i / 3, times[i % 3]),
            )
        })
        .collect();
    let mut fields: Vec<(&str, &str)> = vec![
        ("version", "0"),
        ("name", "ASTC 2026"),
        ("host", "SA"),
        ("venue", "Adelaide Convention Centre"),
        ("utc_offset", "+10:30"),
    ];
    fields.extend(starts.iter().map(|(k, v)| (k.as_str(), v.as_str())));
    arbiter.post(app, EVENT, &fields).await
}

/// The competition `id` as stored.
async fn stored(store: &Store, id: i64) -> arbiter_store::StoredCompetition {
    store
        .load_competition_by_id(arbiter_store::CompetitionId(id))
        .await
        .unwrap()
        .unwrap()
}

/// The competition as stored, once the arbiter set the event at 08:00 with every round's time.
async fn stored_with_event(store: &Store, id: i64) -> arbiter_store::StoredCompetition {
    let loaded = stored(store, id).await;
    let rounds = loaded.competition.rounds.len();
    let set = set_event(&app_at(store, "08:00"), id, rounds).await;
    set.assert_status(StatusCode::SEE_OTHER);
    loaded
}

#[tokio::test]
async fn as_1_the_arbiter_sets_the_event_and_its_round_times_in_versions() {
    let (store, id, _, _) = event_store().await;
    let app = app_at(&store, "08:00");

    // Reached from the arbiter's account page; an advisor is refused by the table.
    let mut arbiter = Visitor::signed_in(&app, ARBITER).await;
    let account = arbiter.get(&app, "/account").await;
    account.assert_contains(&format!("href=\"{EVENT}\""));
    let mut coach = Visitor::signed_in(&app, COACH).await;
    assert_eq!(coach.get(&app, EVENT).await.status, StatusCode::FORBIDDEN);

    // A blank venue and a bad offset: nothing saved, every problem said.
    let refused = arbiter
        .post_refused(
            &app,
            EVENT,
            &[
                ("version", "0"),
                ("name", "ASTC 2026"),
                ("host", "SA"),
                ("venue", " "),
                ("utc_offset", "10:30"),
            ],
        )
        .await;
    refused.assert_contains("the venue is blank");
    refused.assert_contains("is not an offset from UTC");
    assert!(
        store
            .event(arbiter_store::SeasonId(1))
            .await
            .unwrap()
            .is_none()
    );

    let rounds = stored(&store, id).await.competition.rounds.len();
    let saved = set_event(&app, id, rounds).await;
    saved.assert_status(StatusCode::SEE_OTHER);
    let page = arbiter.get(&app, EVENT).await;
    page.assert_contains("Version 1, set by arbiter@astc.example");
    // AS-12, AS-13, AS-11 counted back from the times (30, 20 and 15 minutes in `astc`).
    page.assert_contains("Rosters lock at 09:00");
    page.assert_contains("protests close at 09:10");
    page.assert_contains("lineups due 13:15");

    // A form read before another version was saved saves nothing.
    let stale = set_event(&app, id, rounds).await;
    stale.assert_status(StatusCode::CONFLICT);
    stale.assert_contains("now at version 1");
}

#[tokio::test]
async fn as_11_a_late_lineup_is_refused_unless_the_arbiter_accepts_it_with_a_reason() {
    let (store, id, path, players) = event_store().await;
    stored_with_event(&store, id).await;
    let lineup = format!("{path}/lineups/home");
    let boards: Vec<(String, String)> = players
        .iter()
        .take(4)
        .enumerate()
        .map(|(i, p)| (format!("board_{}", i + 1), p.clone()))
        .collect();
    let fields = |extra: &[(&'static str, &'static str)]| {
        let mut f: Vec<(String, String)> = boards.clone();
        f.push(("version".into(), "0".into()));
        f.extend(extra.iter().map(|(k, v)| (k.to_string(), v.to_string())));
        f
    };
    // 13:20 in the hall: round 2 starts at 13:30, its lineups were due at 13:15.
    let late = app_at(&store, "13:20");
    let page = Visitor::signed_in(&late, COACH)
        .await
        .get(&late, &path)
        .await;
    assert!(
        page.body.contains("Due by 13:15 on"),
        "the match page says when lineups are due: {}",
        page.body
    );
    let mut coach = Visitor::signed_in(&late, COACH).await;
    let refused = post_lineup(&mut coach, &late, &lineup, fields(&[])).await;
    refused.assert_status(StatusCode::UNPROCESSABLE_ENTITY);
    refused.assert_contains("AS-11");
    // Only the arbiter accepts one late.
    let not_theirs = post_lineup(
        &mut coach,
        &late,
        &lineup,
        fields(&[("accept_late", "we were late")]),
    )
    .await;
    not_theirs.assert_status(StatusCode::FORBIDDEN);

    let mut arbiter = Visitor::signed_in(&late, ARBITER).await;
    let form = arbiter.get(&late, &path).await;
    form.assert_contains("name=\"accept_late\"");
    let accepted = post_lineup(
        &mut arbiter,
        &late,
        &lineup,
        fields(&[("accept_late", "the team's bus was held up")]),
    )
    .await;
    accepted.assert_status(StatusCode::SEE_OTHER);
    let shown = arbiter.get(&late, &path).await;
    shown.assert_contains("Named at 13:20, 5 minutes after the deadline; accepted by arbiter@astc.example (AS-11): the team&#39;s bus was held up");

    // On time, the advisor's lineup stands without anyone's acceptance.
    let early = app_at(&store, "13:00");
    let mut coach = Visitor::signed_in(&early, COACH).await;
    let mut f = fields(&[]);
    f.retain(|(k, _)| k != "version");
    f.push(("version".into(), "1".into()));
    let on_time = post_lineup(&mut coach, &early, &lineup, f).await;
    on_time.assert_status(StatusCode::SEE_OTHER);
    let loaded = stored(&store, id).await;
    let named = &loaded.lineups[0];
    assert_eq!((named.version, named.late.is_none()), (2, true));
}

#[tokio::test]
async fn as_12_rosters_lock_thirty_minutes_before_round_1() {
    let (store, id, _, players) = event_store().await;
    stored_with_event(&store, id).await;
    let change = |reason: &'static str| {
        vec![
            ("competition", "2026/secondary-open".to_string()),
            ("player", players[0].clone()),
            ("name", "A. Corrected Name".to_string()),
            ("rating", String::new()),
            ("withdrawn", String::new()),
            ("reason", reason.to_string()),
        ]
    };
    let send = |app: axum::Router, fields: Vec<(&'static str, String)>| async move {
        let mut president = Visitor::signed_in(&app, PRESIDENT).await;
        let f: Vec<(&str, &str)> = fields.iter().map(|(k, v)| (*k, v.as_str())).collect();
        president
            .post(&app, "/leagues/astc/rosters/player", &f)
            .await
    };
    // Round 1 at 09:30: at 09:00 exactly the roster may still change.
    let at_lock = send(app_at(&store, "09:00"), change("spelling")).await;
    at_lock.assert_status(StatusCode::SEE_OTHER);
    // A minute after the lock it is refused, with the rule.
    let after = send(app_at(&store, "09:01"), change("spelling again")).await;
    after.assert_status(StatusCode::UNPROCESSABLE_ENTITY);
    after.assert_contains("AS-12, Secondary Open: the rosters locked at 09:00");
    let history = store
        .history(&arbiter_store::HistoryFilter::default())
        .await
        .unwrap();
    assert_eq!(
        history.iter().filter(|h| h.action == "edit_player").count(),
        1,
        "only the change before the lock is kept"
    );
}

/// AS-12: "rosters are public from then": before the lock the public's team page, player
/// pages, team API and competition file name no player, and say when they are published; from
/// the lock every roster is there. The team's own roster page keeps it for its advisor.
#[tokio::test]
async fn as_12_rosters_are_published_when_they_lock() {
    let (store, id, _, players) = event_store().await;
    let loaded = stored(&store, id).await;
    let team = loaded
        .competition
        .teams
        .iter()
        .find(|t| t.players.first().map(|p| &p.id.0) == players.first())
        .unwrap();
    let first = team.players[0].name.clone();
    let rounds = loaded.competition.rounds.len();
    assert_eq!(
        set_event(&app_at(&store, "08:00"), id, rounds).await.status,
        StatusCode::SEE_OTHER
    );
    let team_page = format!("/leagues/astc/2026/secondary-open/teams/{}", team.id.0);
    let player_page = format!("/leagues/astc/2026/secondary-open/players/{}", players[0]);
    let team_api = format!("/api/v1{team_page}");
    let file = "/leagues/astc/2026/secondary-open/competition.json";

    let before = app_at(&store, "08:59");
    let page = get_ok(&before, &team_page).await;
    page.assert_lacks(&first);
    page.assert_contains("AS-12: the rosters are published to every team when they lock, at 09:00 on Monday 7 December 2026");
    let player = get_expect(&before, &player_page, StatusCode::NOT_FOUND).await;
    player.assert_contains("AS-12");
    let api = get(&before, &team_api).await;
    let json: serde_json::Value = serde_json::from_str(&api.body).unwrap();
    assert_eq!(json["roster"], serde_json::json!([]));
    assert!(json["roster_withheld"].as_str().unwrap().contains("AS-12"));
    let export = get_ok(&before, file).await;
    export.assert_lacks(&first);

    let at_lock = app_at(&store, "09:00");
    let page = get(&at_lock, &team_page).await;
    page.assert_contains(&first);
    page.assert_lacks("AS-12: the rosters are published");
    assert_eq!(get(&at_lock, &player_page).await.status, StatusCode::OK);
    let json: serde_json::Value =
        serde_json::from_str(&get(&at_lock, &team_api).await.body).unwrap();
    assert_eq!(json["roster"].as_array().unwrap().len(), 6);
    assert!(json["roster_withheld"].is_null());
    assert!(get(&at_lock, file).await.body.contains(&first));
}

#[tokio::test]
async fn as_13_a_protest_is_lodged_in_its_window_heard_and_upheld_and_the_order_follows() {
    let (store, id, _, players) = event_store().await;
    let cid = arbiter_store::CompetitionId(id);
    let loaded = store.load_competition_by_id(cid).await.unwrap().unwrap();
    let rounds = loaded.competition.rounds.len();
    let own = loaded
        .competition
        .teams
        .iter()
        .find(|t| t.players.first().map(|p| &p.id.0) == players.first())
        .unwrap()
        .id
        .clone();
    let other = loaded
        .competition
        .teams
        .iter()
        .find(|t| t.id != own)
        .unwrap()
        .clone();
    assert_eq!(
        set_event(&app_at(&store, "08:00"), id, rounds).await.status,
        StatusCode::SEE_OTHER
    );
    const PAGE: &str = "/leagues/astc/2026/secondary-open/protests";
    let lodge = [
        ("by", own.0.as_str()),
        ("against", other.id.0.as_str()),
        (
            "grounds",
            "Their board 3 is rated well above their board 2 (AS-10).",
        ),
    ];

    // Before the lock the rosters are not published: no protest yet.
    let early = app_at(&store, "08:50");
    let mut coach = Visitor::signed_in(&early, COACH).await;
    let refused = coach.post_refused(&early, PAGE, &lodge).await;
    refused.assert_contains("AS-13");

    // In the window, from the competition page's link. Issue 32 item 23: both teams and the
    // arbiter hear of each step by mail (AS-13), the one who took it aside.
    let dir = crate::notices::mail_dir();
    let other_coach = "coach@other.example";
    let astc = store.league("astc").await.unwrap().unwrap();
    let user = store
        .create_user(other_coach, other_coach, None, &Actor::system())
        .await
        .unwrap();
    store
        .grant_role(
            user.id,
            astc.id,
            Role::Advisor,
            other.school.as_deref(),
            &Actor::system(),
        )
        .await
        .unwrap();
    let open = app_at_mailing(&store, "09:05", arbiter_mail::Mailer::folder(&dir));
    let competition = get(&open, "/leagues/astc/2026/secondary-open").await;
    competition.assert_contains(&format!("href=\"{PAGE}\""));
    let mut coach = Visitor::signed_in(&open, COACH).await;
    coach.post_ok(&open, PAGE, &lodge).await;
    // The advisor may not decide it.
    coach
        .post_forbidden(
            &open,
            &format!("{PAGE}/1/decision"),
            &[("ruling", "dismissed")],
        )
        .await;

    // The arbiter may not decide before the team affected was heard; records that it declined.
    let mut arbiter = Visitor::signed_in(&open, ARBITER).await;
    let unheard = arbiter
        .post_refused(
            &open,
            &format!("{PAGE}/1/decision"),
            &[("ruling", "dismissed")],
        )
        .await;
    unheard.assert_contains("chance to reply");
    // The reply is the team affected's until protests close (09:10): the arbiter records that
    // it declined only from then, and never writes its words (issue 30).
    let too_soon = arbiter
        .post_refused(&open, &format!("{PAGE}/1/reply"), &[("answer", "")])
        .await;
    too_soon.assert_contains("until protests close at 09:10");
    let open = app_at_mailing(&store, "09:11", arbiter_mail::Mailer::folder(&dir));
    let mut arbiter = Visitor::signed_in(&open, ARBITER).await;
    arbiter
        .post_forbidden(
            &open,
            &format!("{PAGE}/1/reply"),
            &[("answer", "We agree with the protest.")],
        )
        .await;
    arbiter
        .post_ok(&open, &format!("{PAGE}/1/reply"), &[("answer", "")])
        .await;

    // Upheld: boards 2 and 3 change places.
    let mut order: Vec<String> = other.players.iter().map(|p| p.id.0.clone()).collect();
    order.swap(1, 2);
    let mut fields: Vec<(String, String)> = vec![
        ("ruling".into(), "upheld".into()),
        ("reason".into(), "The ratings list shows it.".into()),
    ];
    fields.extend(
        order
            .iter()
            .enumerate()
            .map(|(i, p)| (format!("order_{}", i + 1), p.clone())),
    );
    let f: Vec<(&str, &str)> = fields
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    arbiter
        .post_ok(&open, &format!("{PAGE}/1/decision"), &f)
        .await;

    tokio::time::sleep(Duration::from_millis(200)).await;
    let mails = crate::notices::mails(&dir);
    let to = |who: &str, what: &str| mails.iter().any(|(t, m)| t == who && m.contains(what));
    assert!(to(ARBITER, "protested the order of"), "{mails:?}");
    assert!(to(other_coach, "protested the order of"), "{mails:?}");
    assert!(
        !to(COACH, "protested the order of"),
        "the protester took the step: {mails:?}"
    );
    assert!(to(other_coach, "The arbiter recorded that"), "{mails:?}");
    assert!(to(COACH, "The arbiter upheld protest 1"), "{mails:?}");
    assert!(
        to(
            other_coach,
            "its lineups follow it from the next one named (AS-10)"
        ),
        "the team whose order changed is told: {mails:?}"
    );
    assert!(!to(ARBITER, "The arbiter upheld protest 1"), "{mails:?}");

    let shown = get(&open, PAGE).await;
    shown.assert_contains("Protest 1:");
    shown.assert_contains("the team declined to reply");
    assert!(
        shown.body.contains("Upheld at ") && shown.body.contains("by the advisor of"),
        "{}",
        shown.body
    );
    // The public page names people by their part, never by their address (issue 32, item 27).
    shown.assert_lacks("@astc.example");
    let after = store.load_competition_by_id(cid).await.unwrap().unwrap();
    let now: Vec<String> = after
        .competition
        .team(&other.id)
        .unwrap()
        .players
        .iter()
        .map(|p| p.id.0.clone())
        .collect();
    assert_eq!(
        now, order,
        "the roster keeps the order the arbiter set (AS-10)"
    );
}

/// Issue 30: an account that was both the arbiter and a team's advisor lodged a protest, wrote
/// the other team's reply as declined and upheld it. A party decides nothing of its protest,
/// in any role; another arbiter of the event does; and nothing is decided once round 1 began.
#[tokio::test]
async fn as_13_a_party_to_a_protest_does_not_decide_it_even_as_the_arbiter() {
    let (store, _, _, players, loaded) = timed_event_store().await;
    let own = loaded
        .competition
        .teams
        .iter()
        .find(|t| t.players.first().map(|p| &p.id.0) == players.first())
        .unwrap()
        .clone();
    let other = loaded
        .competition
        .teams
        .iter()
        .find(|t| t.id != own.id)
        .unwrap()
        .clone();
    // The arbiter's account also advises the protesting team's school.
    let league = store.league("astc").await.unwrap().unwrap();
    let arbiter = store
        .user_by_email(&arbiter_core::record::text::Email::parse(ARBITER).unwrap())
        .await
        .unwrap()
        .unwrap();
    store
        .grant_role(
            arbiter.id,
            league.id,
            Role::Advisor,
            own.school.as_deref(),
            &Actor::system(),
        )
        .await
        .unwrap();
    const DEPUTY: &str = "deputy@astc.example";
    testing::account(&store, "astc", DEPUTY, Role::Arbiter, None).await;
    const PAGE: &str = "/leagues/astc/2026/secondary-open/protests";
    let open = app_at(&store, "09:05");
    let mut conflicted = Visitor::signed_in(&open, ARBITER).await;
    conflicted
        .post_ok(
            &open,
            PAGE,
            &[
                ("by", own.id.0.as_str()),
                ("against", other.id.0.as_str()),
                ("grounds", "Their board 3 is stronger than their board 2."),
            ],
        )
        .await;
    let closed = app_at(&store, "09:11");
    let mut conflicted = Visitor::signed_in(&closed, ARBITER).await;
    for step in ["reply", "decision"] {
        let refused = conflicted
            .post(
                &closed,
                &format!("{PAGE}/1/{step}"),
                &[("answer", ""), ("ruling", "dismissed")],
            )
            .await;
        assert_eq!(
            refused.status,
            StatusCode::FORBIDDEN,
            "{step}: {}",
            refused.body
        );
        assert!(
            refused.body.contains("another arbiter of the event"),
            "{step}: {}",
            refused.body
        );
    }
    // The deputy, a party to nothing, records the declined reply and decides.
    let mut deputy = Visitor::signed_in(&closed, DEPUTY).await;
    let page = deputy.get(&closed, PAGE).await.body;
    assert!(page.contains("declined to reply</button>"), "{page}");
    deputy
        .post_ok(&closed, &format!("{PAGE}/1/reply"), &[("answer", "")])
        .await;
    // Round 1 starts at 09:30: from then the protest is no longer decided (AS-13).
    let begun = app_at(&store, "09:30");
    let mut deputy = Visitor::signed_in(&begun, DEPUTY).await;
    let late = deputy
        .post_refused(
            &begun,
            &format!("{PAGE}/1/decision"),
            &[("ruling", "dismissed")],
        )
        .await;
    late.assert_contains("AS-13: round 1 began at 09:30");
    let mut deputy = Visitor::signed_in(&closed, DEPUTY).await;
    deputy
        .post_ok(
            &closed,
            &format!("{PAGE}/1/decision"),
            &[("ruling", "dismissed")],
        )
        .await;
}

/// Issue 14's bulletin: after round 1, its results, the standings and round 2's pairings on one
/// page to print, linked from the competition's page.
#[tokio::test]
async fn the_results_bulletin_has_the_last_results_the_standings_and_the_next_pairings() {
    let (store, _, _, _) = event_store().await;
    let app = app_at(&store, "12:00");
    const BULLETIN: &str = "/leagues/astc/2026/secondary-open/bulletin";
    let competition = get(&app, "/leagues/astc/2026/secondary-open").await;
    competition.assert_contains(&format!("href=\"{BULLETIN}\""));
    let page = get_ok(&app, BULLETIN).await;
    let at = |s: &str| {
        page.body
            .find(s)
            .unwrap_or_else(|| panic!("{s}: {}", page.body))
    };
    assert!(at("Round 1 results") < at("<caption>Standings"));
    assert!(at("<caption>Standings") < at("Round 2 pairings"));
    page.assert_contains("After round 1 of 7");
}

/// AS-4..AS-8 on the site: the arbiter plans a field of 5 entries from the page the account
/// page links; the product draws the lot and records each draw for every team; a broken file is refused at
/// its line.
#[tokio::test]
async fn as_5_as_8_the_arbiter_plans_a_field_on_the_site() {
    // The entries of examples/astc-field-entries.json (Secondary Girls, five entered).
    const ENTRIES: &str = include_str!("../data/astc-field-entries.json");
    const FIELD: &str = "/leagues/astc/field";
    let (store, _, _, _) = event_store().await;
    // The championship before, finished: its final standings are a previous finish (AS-8).
    let demo = arbiter_demo::generate(date(2026, 12, 20));
    let astc = demo.leagues.iter().find(|l| l.slug == "astc").unwrap();
    let before = astc.seasons.iter().find(|s| s.slug == "2025").unwrap();
    let open = before
        .competitions
        .iter()
        .find(|c| c.slug == "secondary-open-2025")
        .unwrap();
    let league = store.league("astc").await.unwrap().unwrap();
    let season = store
        .create_season(
            league.id,
            &testing::season("2025", "2025, Perth", date(2025, 12, 8), date(2025, 12, 11)),
            &Actor::default(),
        )
        .await
        .unwrap();
    store
        .import_competition(
            season.id,
            &testing::new_competition(
                "secondary-open-2025",
                "Secondary Open",
                RulesRef::Preset("astc".into()),
            ),
            &open.competition,
            &Actor::default(),
        )
        .await
        .unwrap();
    let app = app_at(&store, "08:00");
    let mut arbiter = Visitor::signed_in(&app, ARBITER).await;
    let account = arbiter.get(&app, "/account").await;
    account.assert_contains(&format!("href=\"{FIELD}\""));
    let plan = [
        ("entries", ENTRIES),
        ("previous", ""),
        ("host", "SA"),
        ("seed", "7"),
    ];
    let first = arbiter
        .post_expect(&app, FIELD, &plan, StatusCode::OK)
        .await;
    first.assert_contains("5 teams entered; 1 to invite, for a field of 6");
    first.assert_contains("AS-5");
    // AS-8, issue 31: the product draws the lot itself (a seed typed is not read) and records
    // every draw, who and when, the seed and the order, on a page every team reads from the
    // event's page; a second draw is shown as a second, not in place of the first.
    let seed_of = |body: &str| {
        let from = body
            .find("by lot (seed ")
            .unwrap_or_else(|| panic!("{body}"))
            + 13;
        body[from..from + body[from..].find(')').unwrap()].to_string()
    };
    let again = arbiter.post(&app, FIELD, &plan).await;
    assert_ne!(seed_of(&first.body), "7", "the seed typed is not the lot's");
    assert_ne!(
        seed_of(&first.body),
        seed_of(&again.body),
        "each draw its own seed"
    );
    let event = get(&app, "/leagues/astc").await;
    event.assert_contains("href=\"/leagues/astc/lots\"");
    let lots = get_ok(&app, "/leagues/astc/lots").await;
    for seen in [
        "Draw 1: Secondary Girls".to_string(),
        "Draw 2: Secondary Girls".to_string(),
        format!("from the seed {}", seed_of(&first.body)),
        format!("from the seed {}", seed_of(&again.body)),
        format!("Drawn by {ARBITER}"),
    ] {
        assert!(lots.body.contains(&seen), "{seen}: {}", lots.body);
    }

    let broken = arbiter
        .post_refused(
            &app,
            FIELD,
            &[
                (
                    "entries",
                    "{\"competition\": \"Secondary Girls\",\n \"entries\": [}",
                ),
                ("host", "SA"),
                ("seed", "7"),
            ],
        )
        .await;
    broken.assert_contains("the entries:2:");

    // AS-8, issue 32 item 26: the previous finish is filled in, as rows, from a finished
    // championship's final standings only; one still being played is neither offered nor read.
    let page = arbiter.get(&app, FIELD).await;
    page.assert_contains(r#"<option value="2025/secondary-open-2025">"#);
    page.assert_lacks(r#"<option value="2026/secondary-open">"#);
    let fill = |from: &'static str| {
        [
            ("entries", ENTRIES),
            ("host", "SA"),
            ("from", from),
            ("step", "fill"),
        ]
    };
    let unfinished = arbiter
        .post_refused(&app, FIELD, &fill("2026/secondary-open"))
        .await;
    unfinished.assert_contains("AS-8: Secondary Open is not finished");
    let filled = arbiter
        .post_expect(
            &app,
            FIELD,
            &fill("2025/secondary-open-2025"),
            StatusCode::OK,
        )
        .await;
    let start = filled.body.find("name=\"previous\"").unwrap();
    let textarea = &filled.body[start..];
    let rows = textarea[textarea.find('>').unwrap() + 1..textarea.find("</textarea>").unwrap()]
        .replace("&#39;", "'")
        .to_string();
    assert_eq!(rows.lines().count(), 8, "{rows}");
    assert!(rows.starts_with("1, "), "{rows}");

    // The entries typed as rows, a team a line, with the competition's name beside them.
    let typed = "SA, Glenunga International High School\nVIC, Mac.Robertson Girls' High School\nNSW, James Ruse Agricultural High School\nQLD, Brisbane Girls Grammar School\nWA, Perth Modern School\n";
    let as_rows = [
        ("competition", "Secondary Girls"),
        ("entries", typed),
        ("previous", rows.as_str()),
        ("host", "SA"),
    ];
    let planned = arbiter
        .post_expect(&app, FIELD, &as_rows, StatusCode::OK)
        .await;
    planned.assert_contains("Invitation order (AS-8): the previous finish");
    // The arbiter plans; the President sets the competition up from the plan in one step.
    planned.assert_contains("The President sets up the competition from this plan");
    let mut president = Visitor::signed_in(&app, PRESIDENT).await;
    let planned = president.post(&app, FIELD, &as_rows).await;
    planned.assert_contains("Set up Secondary Girls from this plan");
    assert!(
        planned
            .body
            .contains("Glenunga International High School (SA),1"),
        "the host's team at number 1 (AS-19): {}",
        planned.body
    );
    // Sent as it is, the set-up page previews the competition's teams and schedule.
    let field = |name: &str| {
        let at = planned
            .body
            .find(&format!("name=\"{name}\" value=\""))
            .unwrap_or_else(|| panic!("{name}: {}", planned.body));
        let from = at + name.len() + 15;
        let to = from + planned.body[from..].find('"').unwrap();
        planned.body[from..to]
            .replace("&#10;", "\n")
            .replace("&#39;", "'")
            .replace("&#34;", "\"")
    };
    let sent: Vec<(&str, String)> = [
        "season",
        "name",
        "rules",
        "cycles",
        "spacing",
        "teams",
        "new_schools",
    ]
    .into_iter()
    .map(|n| (n, field(n)))
    .chain([("step", "preview".to_string())])
    .collect();
    let sent: Vec<(&str, &str)> = sent.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let preview = president
        .post_expect(&app, "/leagues/astc/setup/divisions", &sent, StatusCode::OK)
        .await;
    preview.assert_contains("Create the division and its schedule");
    let typo = arbiter
        .post_refused(
            &app,
            FIELD,
            &[
                ("competition", "Secondary Girls"),
                (
                    "entries",
                    "SA, Glenunga\nXYZ, Somewhere\nno school at all\n",
                ),
                ("host", "SA"),
            ],
        )
        .await;
    typo.assert_contains("the entries:2: entry 2, state: AS-4");
    typo.assert_contains("the entries:3: “no school at all” is not an entry");
}

/// Issue 30: at the ASTC a team's advisor entered its own result (the projector showed it at
/// once) and moved its match to 23:00 on another day, and the arbiter could not move it back.
/// Who acts is the ruleset's (`conduct = "arbiter"`): the arbiter enters and moves; advisors
/// name lineups and protest.
#[tokio::test]
async fn at_an_event_the_arbiter_enters_and_moves_matches_and_no_advisor_does() {
    let (store, _, path, _, _) = timed_event_store().await;
    let app = app_at(&store, "16:00");
    let mut coach = Visitor::signed_in(&app, COACH).await;
    let page = coach.get(&app, &path).await;
    page.assert_lacks(&format!("action=\"{path}/move\""));
    let entered = coach
        .post_forbidden(
            &app,
            &format!("{path}/result"),
            &[
                ("board_1", "1-0"),
                ("board_2", "1-0"),
                ("board_3", "1-0"),
                ("board_4", "1-0"),
            ],
        )
        .await;
    entered.assert_contains("the arbiter");
    coach
        .post_forbidden(
            &app,
            &format!("{path}/move"),
            &[("date", "2026-12-09"), ("reason", "We prefer the evening")],
        )
        .await;
    let mut arbiter = Visitor::signed_in(&app, ARBITER).await;
    let page = arbiter.get(&app, &path).await;
    page.assert_contains(&format!("action=\"{path}/move\""));
    let by_arbiter = arbiter
        .post(
            &app,
            &format!("{path}/move"),
            &[
                ("date", "2026-12-08"),
                ("reason", "The hall is needed on the 7th"),
            ],
        )
        .await;
    assert_ne!(
        by_arbiter.status,
        StatusCode::FORBIDDEN,
        "{}",
        by_arbiter.body
    );
}

/// Issue 30: the arbiter's account entered round 4's result before round 1 had begun, and the
/// projector published it. A round's results are entered from its start by the hall's clock,
/// on the match page as on the round page, the API and the command line (one write path).
#[tokio::test]
async fn as_11_a_rounds_result_is_entered_only_once_the_round_has_begun() {
    let (store, _, path, players, loaded) = timed_event_store().await;
    let home = path.rsplit('/').next().unwrap();
    let away = loaded.competition.rounds[1]
        .matches()
        .find(|m| m.home.0 == home)
        .map(|m| m.away.clone())
        .unwrap();
    let away_players: Vec<String> = loaded
        .competition
        .team(&away)
        .unwrap()
        .players
        .iter()
        .map(|p| p.id.0.clone())
        .collect();
    let fields = home_wins(&players, &away_players);
    // Round 2 starts at 13:30 in the hall.
    let before = app_at(&store, "12:00");
    let mut arbiter = Visitor::signed_in(&before, ARBITER).await;
    let early = post_lineup(
        &mut arbiter,
        &before,
        &format!("{path}/result"),
        fields.clone(),
    )
    .await;
    early.assert_status(StatusCode::UNPROCESSABLE_ENTITY);
    early.assert_contains("AS-11: round 2 starts at 13:30 and it is 12:00 in the hall");
    let begun = app_at(&store, "13:30");
    let mut arbiter = Visitor::signed_in(&begun, ARBITER).await;
    let entered = post_lineup(&mut arbiter, &begun, &format!("{path}/result"), fields).await;
    entered.assert_status(StatusCode::SEE_OTHER);
}

/// RULES.md, "Time": at 10:00 on the 8th in Adelaide it is still the 7th in UTC (23:30). Round
/// 4 began at 09:30 in the hall, so its result is entered: the day is Adelaide's, not UTC's nor
/// the server's ("too early" till 10:30, when UTC's day turned).
#[tokio::test]
async fn as_11_an_entry_at_10_00_in_adelaide_is_judged_by_adelaide_time() {
    let (store, _, _, _, loaded) = timed_event_store().await;
    let c = &loaded.competition;
    let m = c.rounds[3].matches().next().unwrap();
    let ids = |team| -> Vec<String> {
        c.team(team)
            .unwrap()
            .players
            .iter()
            .map(|p| p.id.0.clone())
            .collect()
    };
    let fields = home_wins(&ids(&m.home), &ids(&m.away));
    let adelaide = arbiter_core::record::zone::Zone::named("Australia/Adelaide").unwrap();
    let now = adelaide.instant(date(2026, 12, 8).at(10, 0, 0, 0)).unwrap();
    assert_eq!(now.to_string(), "2026-12-07T23:30:00Z");
    let app = arbiter_web::router(
        arbiter_web::AppState::new(store.clone())
            .with_freshness(Duration::ZERO)
            .with_now(now)
            .with_mail(quiet_mail(), "http://localhost:8080"),
    );
    let path = format!(
        "/leagues/astc/2026/secondary-open/rounds/4/matches/{}",
        m.home.0
    );
    let mut arbiter = Visitor::signed_in(&app, ARBITER).await;
    let entered = post_lineup(&mut arbiter, &app, &format!("{path}/result"), fields).await;
    entered.assert_status(StatusCode::SEE_OTHER);
}

/// Every public page and API answer of the event's competition, season and league, with a
/// team's (`team`), a player's (`player`) and matches' (`matches`) own.
fn public_addresses(team: &str, player: &str, matches: &[&str]) -> Vec<String> {
    const C: &str = "/leagues/astc/2026/secondary-open";
    let mut out: Vec<String> = [
        "/",
        "/leagues/astc",
        "/leagues/astc/schedule.ics",
        "/leagues/astc/2026",
        "/leagues/astc/2026/ratings",
        "/leagues/astc/2026/ratings.csv",
        "/leagues/astc/2026/awards",
        "/leagues/astc/2026/playoffs",
        "/api/v1/leagues",
        "/api/v1/leagues/astc",
        "/api/v1/leagues/astc/2026/ratings",
        "/api/v1/leagues/astc/2026/awards",
        "/api/v1/leagues/astc/2026/playoffs",
    ]
    .iter()
    .map(|s| (*s).to_string())
    .collect();
    for page in [
        "",
        "/crosstable",
        "/explain",
        "/projector",
        "/bulletin",
        "/standings.csv",
        "/competition.json",
        "/trf.txt",
        "/ratings",
        "/ratings.csv",
        "/rounds/1",
        "/rounds/2",
        "/schedule.ics",
    ] {
        out.push(format!("{C}{page}"));
    }
    for api in [
        "",
        "/standings",
        "/crosstable",
        "/rounds",
        "/rounds/1",
        "/rounds/2",
        "/ratings",
        "/findings",
        "/race",
    ] {
        out.push(format!("/api/v1{C}{api}"));
    }
    for m in matches {
        out.push((*m).to_string());
    }
    out.push(format!("{C}/teams/{team}/schedule.ics"));
    for path in [format!("{C}/teams/{team}"), format!("{C}/players/{player}")] {
        out.push(format!("/api/v1{path}"));
        out.push(path);
    }
    out
}

/// The first player of `players` (name, id) that `body` names: the name anywhere, the id as a
/// whole word (ids are `team-n`, inside no other word).
fn player_named<'a>(body: &str, players: &'a [(String, String)]) -> Option<&'a str> {
    let word = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_';
    players.iter().find_map(|(name, id)| {
        let id_found = body.match_indices(id.as_str()).any(|(i, _)| {
            let before = body[..i].chars().next_back();
            let after = body[i + id.len()..].chars().next();
            !before.is_some_and(word) && !after.is_some_and(word)
        });
        (body.contains(name.as_str()) || id_found).then_some(name.as_str())
    })
}

/// AS-12: before the rosters lock no public page or API answer names a player of the event:
/// not the awards, not a match's boards or the round pages, not the crosstable, projector,
/// bulletin, calendars, files or findings; from the lock they do.
#[tokio::test]
async fn as_12_no_public_page_or_answer_names_an_event_player_before_the_roster_lock() {
    let (store, id, round_2, players) = event_store().await;
    let loaded = stored_with_event(&store, id).await;
    let c = &loaded.competition;
    let everyone: Vec<(String, String)> = c
        .teams
        .iter()
        .flat_map(|t| &t.players)
        .map(|p| (p.name.clone(), p.id.0.clone()))
        .collect();
    assert!(everyone.len() > 20, "every team's players: {everyone:?}");
    let team = c
        .teams
        .iter()
        .find(|t| t.players.first().map(|p| &p.id.0) == players.first())
        .unwrap();
    let Some(Pairing::Match(played)) = c.rounds[0].pairings.first() else {
        panic!("round 1 has a match")
    };
    let round_1 = format!(
        "/leagues/astc/2026/secondary-open/rounds/1/matches/{}",
        played.home.0
    );
    let addresses = public_addresses(&team.id.0, &players[0], &[&round_1, &round_2]);

    let before = app_at(&store, "08:59");
    for address in &addresses {
        let answer = get(&before, address).await;
        assert!(
            answer.status == StatusCode::OK || address.contains("/players/"),
            "{address}: {} {}",
            answer.status,
            answer.body
        );
        if let Some(name) = player_named(&answer.body, &everyone) {
            panic!(
                "{address} names {name} before the rosters lock: {}",
                answer.body
            );
        }
    }

    // From the lock, the same addresses name them: the awards, round 1's boards, the team.
    let after = app_at(&store, "09:00");
    let mut naming = Vec::new();
    for address in &addresses {
        let answer = get(&after, address).await;
        assert_eq!(answer.status, StatusCode::OK, "{address}: {}", answer.body);
        if player_named(&answer.body, &everyone).is_some() {
            naming.push(address.as_str());
        }
    }
    for expected in [
        "/leagues/astc/2026/awards",
        "/api/v1/leagues/astc/2026/awards",
        "/leagues/astc/2026/secondary-open/rounds/1",
        round_1.as_str(),
    ] {
        assert!(
            naming.contains(&expected),
            "{expected} names no player: {naming:?}"
        );
    }
}

/// AS-11, "lineups are sealed until their deadline": a lineup named at 12:00 for round 2
/// (13:30, due 13:15) is seen by its advisor and the arbiter, not by the opponent's advisor or
/// the public, who are told when; at 13:15 everyone sees both.
#[tokio::test]
async fn as_11_a_lineup_named_early_is_its_teams_and_the_arbiters_until_its_deadline() {
    let (store, id, path, players) = event_store().await;
    let loaded = stored_with_event(&store, id).await;
    let c = &loaded.competition;
    let Some(Pairing::Match(m)) = c.rounds[1]
        .pairings
        .iter()
        .find(|p| matches!(p, Pairing::Match(_)))
    else {
        panic!("round 2 has a match")
    };
    let opponent = c.teams.iter().find(|t| t.id == m.away).unwrap();
    let named: Vec<String> = players.iter().take(4).cloned().collect();
    let first_name = c
        .teams
        .iter()
        .flat_map(|t| &t.players)
        .find(|p| p.id.0 == named[0])
        .unwrap()
        .name
        .clone();
    let rival = "rival@astc.example";
    account(
        &store,
        rival,
        Role::Advisor,
        Some(opponent.school.as_deref().unwrap()),
    )
    .await;

    let noon = app_at(&store, "12:00");
    let mut coach = Visitor::signed_in(&noon, COACH).await;
    let mut fields: Vec<(String, String)> = named
        .iter()
        .enumerate()
        .map(|(i, p)| (format!("board_{}", i + 1), p.clone()))
        .collect();
    fields.push(("version".into(), "0".into()));
    let saved = post_lineup(&mut coach, &noon, &format!("{path}/lineups/home"), fields).await;
    saved.assert_status(StatusCode::SEE_OTHER);

    let sealed =
        "AS-11: the lineups of round 2 are published together at 13:15, when they are due.";
    let shown = format!("<li>1. {first_name}");
    let one = app_at(&store, "13:00");
    for who in [Some(COACH), Some(ARBITER)] {
        let page = Visitor::signed_in(&one, who.unwrap())
            .await
            .get(&one, &path)
            .await;
        assert!(page.body.contains(&shown), "{who:?} sees it: {}", page.body);
    }
    let rivals = Visitor::signed_in(&one, rival).await.get(&one, &path).await;
    let public = get(&one, &path).await;
    for (who, page) in [("the opponent", &rivals), ("the public", &public)] {
        page.assert_status(StatusCode::OK);
        assert!(!page.body.contains(&first_name), "{who}: {}", page.body);
        assert!(
            page.body.contains(sealed),
            "{who} is told when: {}",
            page.body
        );
        assert!(!page.body.contains("named by"), "{who}: {}", page.body);
    }

    let due = app_at(&store, "13:15");
    let rivals = Visitor::signed_in(&due, rival).await.get(&due, &path).await;
    let public = get(&due, &path).await;
    for page in [&rivals, &public] {
        page.assert_contains(&shown);
        page.assert_lacks(sealed);
    }
}

/// Issue 32, item 25: the projector shows the hall's clock and when the next round starts (the
/// event's times, AS-11), and reloads itself within seconds of a change: a small script, allowed
/// by its hash in this page's policy only, polls the page's ETag, which changes with a result
/// or the minute; the meta refresh stays for a screen without scripts.
#[tokio::test]
async fn as_11_the_projector_shows_the_halls_clock_and_the_rounds_start_and_reloads_on_a_change() {
    let (store, _, path, _, _) = timed_event_store().await;
    let projector = format!("{}/projector", path.split("/rounds/").next().unwrap());
    let at = |hall: &str| app_at(&store, hall);
    let page = get_ok(&at("12:05"), &projector).await;
    page.assert_contains("Round 2 starts at 13:30");
    page.assert_contains("Hall clock <time>12:05</time>");
    page.assert_contains(r#"<meta http-equiv="refresh" content="30">"#);
    // Before the event ends, its standings' ties are not explained on the screen (the bulletin
    // has them): eight teams and two rounds fit one screen.
    page.assert_lacks("How the ties were broken");

    let policy = page.header("content-security-policy");
    assert!(policy.contains("script-src 'sha256-"), "{policy}");
    assert!(page.body.contains("<script>") && page.body.contains("'HEAD'"));
    let standings = get(&at("12:05"), &projector.replace("/projector", "/standings")).await;
    let other = standings.header("content-security-policy");
    assert!(
        !other.contains("script-src"),
        "only the projector runs a script: {other}"
    );

    // The same minute: unchanged (304); the next minute: a new ETag, so the page reloads.
    let etag = page.header("etag").to_string();
    let again = send(
        &at("12:05"),
        axum::http::Request::get(&projector)
            .header("if-none-match", &etag)
            .body(axum::body::Body::empty())
            .unwrap(),
    )
    .await;
    again.assert_status(StatusCode::NOT_MODIFIED);
    let later = get(&at("12:06"), &projector).await;
    assert_ne!(later.header("etag"), etag);
    later.assert_contains("Hall clock <time>12:06</time>");
}

/// AS-12 (issue 32 item 23): "the full roster in order goes to the arbiter": before the lock the
/// arbiter prints every roster in order on one sheet, reached from the event's page, and a
/// team's advisor reads their own from the lineup form; from the lock every team reads them all.
#[tokio::test]
async fn as_12_the_arbiter_prints_the_rosters_in_order_before_the_lock() {
    let (store, id, path, _) = event_store().await;
    stored_with_event(&store, id).await;
    const SHEET: &str = "/leagues/astc/2026/secondary-open/rosters/sheet";
    let before = app_at(&store, "08:40");
    let mut arbiter = Visitor::signed_in(&before, ARBITER).await;
    let event = arbiter.get(&before, "/leagues/astc/2026/event").await;
    event.assert_contains(&format!("href=\"{SHEET}\""));
    let sheet = arbiter.get_ok(&before, SHEET).await;
    assert_eq!(sheet.body.matches("<caption>").count(), 8, "{}", sheet.body);
    sheet.assert_contains("The rosters lock at 09:00 on Monday 7 December 2026");
    let mut coach = Visitor::signed_in(&before, COACH).await;
    let page = coach.get(&before, &path).await;
    page.assert_contains(&format!("href=\"{SHEET}\""));
    let own = coach.get_ok(&before, SHEET).await;
    assert_eq!(own.body.matches("<caption>").count(), 1, "{}", own.body);
    own.assert_contains("Your team&#39;s roster");
    assert_ne!(get(&before, SHEET).await.status, StatusCode::OK);

    let locked = app_at(&store, "09:00");
    let mut coach = Visitor::signed_in(&locked, COACH).await;
    let all = coach.get(&locked, SHEET).await;
    assert_eq!(all.body.matches("<caption>").count(), 8, "{}", all.body);
    all.assert_contains("Locked at 09:00");
}

/// Issue 32 item 24: an event's pages show an event's rules. The arbiter's match page offers no
/// school league's parts (a team late after its school day, GT-M6; a different result for
/// ratings, GT-P1; an adjourned game, GT-M20; a move for the weather, GT-M2) and cites no
/// GTHSCL rule; the account page offers no fee ledger, no playoffs, and only the mails an event
/// sends.
#[tokio::test]
async fn an_events_match_and_account_pages_show_no_school_league_rule() {
    let (store, _, path, _, _) = timed_event_store().await;
    let app = app_at(&store, "16:00");
    let mut arbiter = Visitor::signed_in(&app, ARBITER).await;
    let page = arbiter.get_ok(&app, &path).await;
    let b = &page.body;
    // The forms are there, for the arbiter: the result and the move.
    assert!(b.contains("Enter the result"), "{b}");
    assert!(b.contains(&format!("action=\"{path}/move\"")), "{b}");
    for school_league in [
        "GT-",
        "A team came late",
        "A different result for ratings",
        "Not finished",
        "Postponed for the weather",
        "school day",
    ] {
        assert!(!b.contains(school_league), "{school_league}: {b}");
    }
    assert!(
        b.contains("Move the match to another day or time of the event"),
        "{b}"
    );
    let account = arbiter.get(&app, "/account").await;
    let a = &account.body;
    assert!(!a.contains("GT-"), "{a}");
    assert!(!a.contains("Fee ledger"), "{a}");
    assert!(!a.contains("Playoffs"), "{a}");
    assert!(a.contains("value=\"protest_step\""), "{a}");
    assert!(!a.contains("value=\"deadline_tomorrow\""), "{a}");
    assert!(
        a.contains("A match of your team moves to another day or time"),
        "{a}"
    );
    // Saving the mails offered leaves the others as they were.
    arbiter
        .post_expect(
            &app,
            "/account/notices",
            &[("get", "result_decided")],
            StatusCode::OK,
        )
        .await;
    let user = store
        .user_by_email(&arbiter_core::record::text::Email::parse(ARBITER).unwrap())
        .await
        .unwrap()
        .expect("the arbiter's account");
    let stopped = store.stopped_notices(user.id).await.unwrap();
    assert!(
        stopped.contains(&arbiter_core::season::notice::Notice::ProtestStep),
        "{stopped:?}"
    );
    assert!(
        !stopped.contains(&arbiter_core::season::notice::Notice::DeadlineTomorrow),
        "{stopped:?}"
    );
}
