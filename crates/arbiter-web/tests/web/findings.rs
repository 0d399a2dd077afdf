//! The officers' page of findings and a ruling on a violation (issue 12): a result played with
//! boards out of rating order stands and is flagged on the standings and the match page, the
//! Vice-President rules that it stands with the reason (GT-O3 keeps the President off their
//! own school's match), and the flag goes.

use arbiter_core::record::model::{Board, GameResult, MatchOutcome, PlayerId};
use arbiter_core::rules::permissions::Role;
use arbiter_store::{Actor, ReportSeen, Store};
use axum::http::StatusCode;

use crate::common::*;

const STANDINGS: &str = "/leagues/gthscl/2026-27/division-a";
const MATCH: &str = "/leagues/gthscl/2026-27/division-a/rounds/4/matches/start";
const FINDINGS: &str = "/leagues/gthscl/findings";
const VP: &str = "vp@gthscl.example";
const PRESIDENT: &str = "president@start.example";
const ADVISOR: &str = "coach@start.example";

/// Round 4 recorded with Start's first and fourth boards swapped (1600 below 1300): GT-M11.
async fn out_of_order(store: &Store) {
    let c = store
        .load_competition("gthscl", "division-a")
        .await
        .unwrap()
        .unwrap();
    let m = c
        .match_id(4, &arbiter_core::TeamId("start".into()))
        .unwrap();
    let order = ["start4", "start2", "start3", "start1"];
    let boards = (0..4)
        .map(|i| Board {
            home_player: Some(PlayerId(order[i].into())),
            away_player: Some(PlayerId(format!("scott{}", i + 1))),
            ..Board::new(GameResult::Draw)
        })
        .collect();
    let seen = ReportSeen::of(&store.result_versions(m).await.unwrap(), &[]);
    store
        .record_result(
            m,
            seen,
            &MatchOutcome::Boards(boards),
            &Actor::system(),
            None,
        )
        .await
        .unwrap();
}

#[tokio::test]
async fn a_violation_is_flagged_until_an_officer_rules_that_the_result_stands() {
    let store = store().await;
    account(&store, VP, Role::VicePresident, None).await;
    account(
        &store,
        PRESIDENT,
        Role::President,
        Some("Start High School"),
    )
    .await;
    advisor(&store, ADVISOR, "Start High School").await;
    out_of_order(&store).await;
    let app = app(&store);

    // The standings and the match page say the result is under review, and why.
    let standings = get(&app, STANDINGS).await;
    standings.assert_contains("the President decides");
    standings.assert_contains("GT-M11</span>");
    let page = get(&app, MATCH).await;
    page.assert_contains("breaks a rule");
    assert!(
        page.body.contains("Board 2: GT-M11:") || page.body.contains("Board 4: GT-M11:"),
        "{}",
        page.body
    );

    // Reached from the account page; an advisor may not read it.
    let mut vp = Visitor::signed_in(&app, VP).await;
    let account_page = vp.get(&app, "/account").await;
    account_page.assert_contains(&format!("href=\"{FINDINGS}\""));
    let mut advisor = Visitor::signed_in(&app, ADVISOR).await;
    assert_eq!(
        advisor.get(&app, FINDINGS).await.status,
        StatusCode::FORBIDDEN
    );

    let list = vp.get_ok(&app, FINDINGS).await;
    list.assert_contains("1 to rule on");
    let key = field(&list.body, "key");
    let competition = field(&list.body, "competition");
    // Issue 32: the match is named by its teams and day, not its ids; the match page links
    // its finding to the line where it is ruled on, and the ruling waits in "Needs you now".
    list.assert_contains(&format!(
        r#"<a href="{MATCH}">Round 4: Start Spartans v Zoë O&#39;Brien"#
    ));
    list.assert_lacks("round 4, start v scott");
    // Issue 35: each season's findings are read on their own; the match links to its season's.
    let anchor = format!("{FINDINGS}?season=2026-27#f-{competition}-");
    assert!(
        page.body.contains(&format!(r#"<a href="{anchor}"#))
            && page.body.contains("Where the President rules on it"),
        "{}",
        page.body
    );
    assert!(
        account_page.body.contains("Needs you now")
            && account_page
                .body
                .contains("Rule whether the result stands: Board")
            && account_page.body.contains(&format!(r#"<a href="{anchor}"#)),
        "{}",
        account_page.body
    );

    // GT-O3: the President's school plays this match, so the President gets no form and may not.
    let mut president = Visitor::signed_in(&app, PRESIDENT).await;
    let theirs = president.get(&app, FINDINGS).await;
    theirs.assert_lacks("name=\"key\"");
    let their_account = president.get(&app, "/account").await;
    their_account.assert_lacks("Rule whether the result stands");
    president
        .post_forbidden(
            &app,
            FINDINGS,
            &[
                ("competition", &competition),
                ("key", &key),
                ("reason", "mine"),
            ],
        )
        .await;

    // No reason: refused, nothing stored.
    let empty = vp
        .post_refused(
            &app,
            FINDINGS,
            &[
                ("competition", &competition),
                ("key", &key),
                ("reason", " "),
            ],
        )
        .await;
    empty.assert_contains("Say why the result stands");

    let reason = "Both advisors agreed the order before play; the games stand.";
    vp.post_ok(
        &app,
        FINDINGS,
        &[
            ("competition", &competition),
            ("key", &key),
            ("reason", reason),
        ],
    )
    .await;
    let list = vp.get(&app, FINDINGS).await;
    list.assert_contains("the result stands.");
    list.assert_lacks("to rule on");
    let standings = get(&app, STANDINGS).await;
    standings.assert_lacks("the President decides");
    // The result stands with its ruling linked; the task is done.
    let page = get(&app, MATCH).await;
    assert!(
        page.body.contains("stands by an officer's ruling")
            && page.body.contains(&format!(r#"<a href="{anchor}"#))
            && page.body.contains("The ruling</a>"),
        "{}",
        page.body
    );
    let account_page = vp.get(&app, "/account").await;
    account_page.assert_lacks("Rule whether the result stands");
    let history = store
        .history(&arbiter_store::HistoryFilter::default())
        .await
        .unwrap();
    assert!(
        history
            .iter()
            .any(|h| h.action == "rule_on_violation" && h.reason.as_deref() == Some(reason))
    );
}

/// The value of the first `name="{name}" value="…"` field.
fn field(body: &str, name: &str) -> String {
    let marker = format!("name=\"{name}\" value=\"");
    let i = body
        .find(&marker)
        .unwrap_or_else(|| panic!("no {name} field in {body}"))
        + marker.len();
    let end = body[i..].find('"').unwrap();
    body[i..i + end].replace("&#124;", "|")
}

/// Issue 12: the API lists the same findings, as `arbiter check --format json` does, with the
/// ruling once an officer gives one.
#[tokio::test]
async fn the_api_lists_the_findings_and_their_rulings() {
    let store = store().await;
    out_of_order(&store).await;
    let app = app(&store);
    let api = "/api/v1/leagues/gthscl/2026-27/division-a/findings";
    let answer = get_ok(&app, api).await;
    let v: serde_json::Value = serde_json::from_str(&answer.body).unwrap();
    let open: Vec<&serde_json::Value> = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["severity"] == "violation")
        .collect();
    assert!(!open.is_empty(), "{v}");
    let f = open[0];
    assert_eq!(
        (f["rule"].as_str(), f["round"].as_u64()),
        (Some("GT-M11"), Some(4))
    );
    assert_eq!(
        (f["home"].as_str(), f["team"].as_str()),
        (Some("start"), Some("start"))
    );
    assert!(f["ruling"].is_null());
    let c = store
        .load_competition("gthscl", "division-a")
        .await
        .unwrap()
        .unwrap();
    let violation =
        arbiter_core::season::check::competition(&c.competition, &c.rules, &c.named_lineups())
            .into_iter()
            .find(|f| f.severity == arbiter_core::rules::validate::Severity::Violation)
            .unwrap();
    store
        .record_ruling(
            c.record.id,
            &violation.key(),
            &violation.message,
            "Agreed by both advisors on the day.",
            &Actor::system(),
        )
        .await
        .unwrap();
    let v: serde_json::Value = serde_json::from_str(&get(&app, api).await.body).unwrap();
    let ruled = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["severity"] == "violation")
        .unwrap();
    assert_eq!(ruled["ruling"], "Agreed by both advisors on the day.");
}
