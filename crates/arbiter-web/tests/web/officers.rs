//! Officers act on any match (issue 13, parts 1-2): a result nobody reported entered by an
//! officer (GT-O3), a match forfeited by decision (GT-M3), a double forfeit for a late report
//! (GT-P4) only once it is late, never on the President's own school's match, and the
//! confirmation of a match between one school's two teams going to an officer (GT-O3).

use arbiter_core::record::model::{
    Match, MatchOutcome, Pairing, Player, PlayerId, Round, Team, TeamId,
};
use arbiter_core::rules::permissions::Role;
use arbiter_store::{Actor, NewCompetition, RulesRef, Store};
use axum::http::StatusCode;
use jiff::civil::date;

use crate::common::*;

/// Round 4: Start Spartans (home, Start High School) v the Scott team, on Mon 16 Nov 2026:
/// nobody has reported it. GT-P2: the result is due by Tue 17 Nov.
const MATCH: &str = "/leagues/gthscl/2026-27/division-a/rounds/4/matches/start";
const API: &str = "/api/v1/leagues/gthscl/2026-27/division-a/rounds/4/matches/start";
const VP: &str = "vp@gthscl.example";
/// The President of Clay High School, which does not play round 4's match at Start.
const PRESIDENT: &str = "president@clay.example";
/// The President of Start High School, which does.
const OWN_PRESIDENT: &str = "president@start.example";

async fn officers(store: &Store) {
    account(store, VP, Role::VicePresident, None).await;
    account(store, PRESIDENT, Role::President, Some("Clay High School")).await;
    account(
        store,
        OWN_PRESIDENT,
        Role::President,
        Some("Start High School"),
    )
    .await;
    advisor(store, "coach@start.example", "Start High School").await;
}

#[tokio::test]
async fn gt_m3_an_officer_declares_a_match_forfeited_by_decision() {
    let store = store().await;
    officers(&store).await;
    let app = app_on(&store, date(2026, 11, 16));

    let mut president = Visitor::signed_in(&app, PRESIDENT).await;
    let page = president.get(&app, MATCH).await;
    page.assert_contains("Declare the match forfeited (GT-M3)");
    // Not late yet: no double forfeit for a late report on offer (GT-P4).
    page.assert_lacks("/late-report");
    // GT-O3: the officer may also enter the result nobody reported.
    page.assert_contains(&format!(r#"action="{MATCH}/result""#));
    // An advisor is offered neither.
    let mut coach = Visitor::signed_in(&app, "coach@start.example").await;
    let coach_page = coach.get(&app, MATCH).await;
    coach_page.assert_lacks("/forfeit\"");

    let forfeit = format!("{MATCH}/forfeit");
    // Each missing part is named with its rule; nothing is stored.
    let a = president
        .post_refused(&app, &forfeit, &[("version", "1"), ("reason", " ")])
        .await;
    a.assert_contains("A forfeit by decision needs its reason (GT-M3)");
    let a = president
        .post_refused(
            &app,
            &forfeit,
            &[("version", "1"), ("reason", "Scott never offered a date.")],
        )
        .await;
    a.assert_contains("GT-M3: name the team that offended");
    // The form comes back open with the reason as typed.
    a.assert_contains("required>Scott never offered a date.</textarea>");
    // The Start President may not decide on Start's match (GT-O3).
    let mut own = Visitor::signed_in(&app, OWN_PRESIDENT).await;
    let a = own
        .post_forbidden(
            &app,
            &forfeit,
            &[
                ("version", "1"),
                ("offender", "away"),
                ("reason", "Scott never offered a date."),
            ],
        )
        .await;
    a.assert_contains("GT-O3");

    let reason = "Scott offered no date in the two school weeks the advisors had (GT-M3).";
    president
        .post_ok(
            &app,
            &forfeit,
            &[("version", "1"), ("offender", "away"), ("reason", reason)],
        )
        .await;
    let page = get(&app, MATCH).await;
    page.assert_contains("offended: it loses by default (GT-M3");
    page.assert_contains("a forfeit by decision");
    page.assert_contains(reason);
    // GT-M7: the team that did not offend scores 1 match point and 4 game points.
    let round = get(&app, "/api/v1/leagues/gthscl/2026-27/division-a/rounds/4")
        .await
        .json();
    let start = round["matches"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["home_id"] == "start")
        .unwrap_or_else(|| panic!("{round}"));
    assert_eq!(start["status"], "forfeit", "{start}");
    assert_eq!(start["forfeited_by"], "away", "{start}");
    assert_eq!(start["rule"], "GT-M7", "{start}");
    assert_eq!(start["home_points"], 4.0, "{start}");
    // The decision stands: a second one is refused, naming the rule.
    let a = president
        .post_refused(
            &app,
            &forfeit,
            &[("version", "2"), ("offender", "home"), ("reason", "Again.")],
        )
        .await;
    a.assert_contains("GT-M3: version 2");
    // The history keeps the decision and its basis.
    let history = store
        .history(&arbiter_store::HistoryFilter::default())
        .await
        .unwrap();
    let kept = history
        .iter()
        .find(|h| h.action == "record_result" && h.reason.as_deref() == Some(reason))
        .expect("the decision is in the history");
    assert_eq!(kept.after.as_ref().unwrap()["basis"], "forfeit_by_decision");
}

/// GT-P4 at its boundary: the result of Mon 16 Nov is due by Tue 17 Nov (GT-P2); on the 17th
/// the double forfeit is refused, from the 18th an officer may apply it, and the account page
/// lists the late match for them.
#[tokio::test]
async fn gt_p4_a_double_forfeit_for_a_late_report_only_once_it_is_late() {
    let store = store().await;
    officers(&store).await;
    let late = format!("{MATCH}/late-report");
    let reason = "No result by Tuesday; both advisors were reminded on Monday.";

    let due_day = app_on(&store, date(2026, 11, 17));
    let mut vp = Visitor::signed_in(&due_day, VP).await;
    assert!(!vp.get(&due_day, MATCH).await.body.contains(&late));
    let a = vp
        .post_refused(&due_day, &late, &[("version", "1"), ("reason", reason)])
        .await;
    a.assert_contains("GT-P4: the home team has until Tue 17 Nov 2026");

    let next_day = app_on(&store, date(2026, 11, 18));
    let mut vp = Visitor::signed_in(&next_day, VP).await;
    let account_page = vp.get(&next_day, "/account").await;
    let listed = format!(
        "<a href=\"{MATCH}\">No result was entered by Tue 17 Nov 2026: enter it, or apply a double forfeit for the late report (GT-P4)</a>"
    );
    account_page.assert_contains(&listed);
    let page = vp.get(&next_day, MATCH).await;
    page.assert_contains("Score it as a double forfeit for the late report (GT-P4)");
    vp.post_ok(&next_day, &late, &[("version", "1"), ("reason", reason)])
        .await;
    let page = get(&next_day, MATCH).await;
    page.assert_contains(
        "scored the match as a double forfeit because its result was not reported in time (GT-P4)",
    );
    // The product applied nothing on its own: the one version is the officer's.
    let versions = store
        .result_versions(
            store
                .load_competition("gthscl", "division-a")
                .await
                .unwrap()
                .unwrap()
                .match_id(4, &TeamId("start".into()))
                .unwrap(),
        )
        .await
        .unwrap();
    assert_eq!(versions.len(), 2);
    assert_eq!(versions[1].outcome, MatchOutcome::DoubleForfeit);
    assert_eq!(
        versions[1].basis,
        arbiter_core::season::report::ResultBasis::LateReport
    );
    assert_eq!(versions[1].entered_by.as_deref(), Some(VP));
    // Off the officer's list once applied.
    let account_page = vp.get(&next_day, "/account").await;
    account_page.assert_lacks(&listed);
}

/// GT-M3 and GT-P4 through the API with an officer's token.
#[tokio::test]
async fn the_api_declares_a_forfeit_and_a_late_report_double_forfeit() {
    let store = store().await;
    officers(&store).await;
    let app = app_on(&store, date(2026, 11, 18));
    let token = token_for(&store, VP).await;
    let a = api_post(
        &app,
        &format!("{API}/late-report"),
        &token,
        r#"{"version": 1}"#,
    )
    .await;
    a.assert_status(StatusCode::UNPROCESSABLE_ENTITY);
    a.assert_contains("GT-P4");
    let a = api_post(
        &app,
        &format!("{API}/forfeit"),
        &token,
        r#"{"version": 1, "offender": "home", "reason": "Start would not host on any day offered."}"#,
    )
    .await;
    a.assert_status(StatusCode::CREATED);
    let stored = a.json();
    assert_eq!(stored["basis"], "forfeit_by_decision");
    assert_eq!(stored["status"], "decided");
    assert_eq!(stored["outcome"]["by"], "home");
    // Reported now, so GT-P4 no longer applies.
    let a = api_post(
        &app,
        &format!("{API}/late-report"),
        &token,
        r#"{"reason": "Late."}"#,
    )
    .await;
    a.assert_status(StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(a.json()["error"]["refusal"], "reported", "{}", a.body);
}

/// GT-O3: St. John's Jesuit's A and B teams meet; its advisor enters the result for the home
/// team and may not confirm it for the visitors: the Vice-President does.
#[tokio::test]
async fn gt_o3_an_officer_confirms_a_match_between_one_schools_two_teams() {
    let store = store().await;
    officers(&store).await;
    let sjj = "St. John's Jesuit High School";
    advisor(&store, "coach@sjj.example", sjj).await;
    let roster = |team: &str| {
        (1..=4)
            .map(|n| Player {
                id: PlayerId(format!("{team}{n}")),
                name: format!("{team} player {n}"),
                rating: Some(1700 - 50 * n),
                ..Player::default()
            })
            .collect()
    };
    let team = |id: &str, name: &str| Team {
        id: TeamId(id.into()),
        name: name.into(),
        school: Some(sjj.into()),
        players: roster(id),
    };
    let metro = arbiter_core::Competition {
        name: "Metro".into(),
        teams: vec![team("sjja", "St. John's A"), team("sjjb", "St. John's B")],
        rounds: vec![Round {
            number: 1,
            date: Some(date(2026, 11, 16)),
            pairings: vec![Pairing::Match(Match {
                home: TeamId("sjja".into()),
                away: TeamId("sjjb".into()),
                outcome: MatchOutcome::Pending,
                date: None,
                start: None,
                extra_games: Vec::new(),
                late: None,
            })],
        }],
    };
    let season = store
        .load_competition("gthscl", "division-a")
        .await
        .unwrap()
        .unwrap()
        .season
        .id;
    store
        .import_competition(
            season,
            &NewCompetition {
                slug: "metro".into(),
                name: "Metro".into(),
                rules: RulesRef::Preset("gthscl".into()),
            },
            &metro,
            &Actor::default(),
        )
        .await
        .unwrap();
    let app = app_on(&store, date(2026, 11, 16));
    let sister = "/leagues/gthscl/2026-27/metro/rounds/1/matches/sjja";
    let mut coach = Visitor::signed_in(&app, "coach@sjj.example").await;
    let mut f = vec![("version".to_string(), "1".to_string())];
    for n in 1..=4 {
        f.push((format!("home_{n}"), format!("sjja{n}")));
        f.push((format!("away_{n}"), format!("sjjb{n}")));
        f.push((format!("result_{n}"), "1-0".into()));
    }
    let fields: Vec<(&str, &str)> = f.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    coach
        .post_ok(&app, &format!("{sister}/result"), &fields)
        .await;
    let page = coach.get(&app, sister).await;
    page.assert_lacks(&format!("{sister}/confirm"));
    let a = coach
        .post_forbidden(&app, &format!("{sister}/confirm"), &[("version", "2")])
        .await;
    a.assert_contains("GT-O3");
    a.assert_contains("an officer confirms it");

    let mut vp = Visitor::signed_in(&app, VP).await;
    let account_page = vp.get(&app, "/account").await;
    account_page.assert_contains("Confirm version 2: one school&#39;s two teams met");
    vp.post_ok(&app, &format!("{sister}/confirm"), &[("version", "2")])
        .await;
    let page = get(&app, sister).await;
    page.assert_contains("status-confirmed");
}

async fn token_for(store: &Store, email: &str) -> String {
    let user = store
        .user_by_email(&arbiter_core::record::text::Email::parse(email).unwrap())
        .await
        .unwrap()
        .unwrap();
    let league = store.league("gthscl").await.unwrap().unwrap();
    let (_, plain) = store
        .create_api_token(
            &arbiter_store::NewApiToken {
                user: user.id,
                league: league.id,
                role: Role::VicePresident,
                school: None,
                label: "officer's script".into(),
            },
            &Actor::default(),
        )
        .await
        .unwrap();
    plain
}

async fn api_post(app: &axum::Router, path: &str, bearer: &str, body: &str) -> Answer {
    send(
        app,
        axum::http::Request::post(path)
            .header("authorization", format!("Bearer {bearer}"))
            .header("content-type", "application/json")
            .body(axum::body::Body::from(body.to_string()))
            .unwrap(),
    )
    .await
}
