//! The history pages and their CSV (issue 5): who may read them, what a row shows, and a CSV a
//! spreadsheet reads back exactly (RFC 4180) without running anything typed into it.

use arbiter_core::record::model::{Board, GameResult, MatchOutcome, PlayerId, TeamId};
use arbiter_core::rules::permissions::Role;
use arbiter_store::{Actor, MatchId, Store, secrets};
use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode, header};

use crate::common::*;

const PASSWORD: &str = "correct horse battery";
const PRESIDENT: &str = "pres@gthscl.example";
const ADVISOR: &str = "coach@start.example";
/// A reason a spreadsheet must read as one field: a comma, a quote and a line break.
const REASON: &str =
    "Board 2 misreported, per the \"signed\" scoresheet,\nconfirmed by both captains";
/// A reason a spreadsheet would run as a formula if it were written as is.
const FORMULA: &str = "=cmd|' /C calc'!A0";

/// The president and an advisor of Start High School (the home team `start` of round 4).
async fn accounts(store: &Store) {
    let by = Actor::system();
    let league = store.league("gthscl").await.unwrap().unwrap();
    let hash = secrets::hash_password(PASSWORD).unwrap();
    let p = store
        .create_user(PRESIDENT, "Pat President", Some(&hash), &by)
        .await
        .unwrap();
    store
        .grant_role(p.id, league.id, Role::President, None, &by)
        .await
        .unwrap();
    let a = store
        .create_user(ADVISOR, "Casey Coach", Some(&hash), &by)
        .await
        .unwrap();
    store
        .grant_role(
            a.id,
            league.id,
            Role::Advisor,
            Some("Start High School"),
            &by,
        )
        .await
        .unwrap();
}

/// Round 4's start v scott, entered by the president and then corrected.
async fn results(store: &Store) -> MatchId {
    let stored = store
        .load_competition("gthscl", "division-a")
        .await
        .unwrap()
        .unwrap();
    let m = stored.match_id(4, &TeamId("start".into())).unwrap();
    let board = |r: &str, n: u32| Board {
        result: GameResult::parse(r).unwrap(),
        rating_result: None,
        home_player: Some(PlayerId(format!("start{n}"))),
        away_player: Some(PlayerId(format!("scott{n}"))),
        home_colour: None,
        unplayed: None,
        unfinished: None,
    };
    let by = Actor::user(PRESIDENT, arbiter_core::rules::permissions::Role::President);
    let first = MatchOutcome::Boards(vec![
        board("1-0", 1),
        board("0-1", 2),
        board("1-0", 3),
        board("1/2-1/2", 4),
    ]);
    store
        .record_result(m, store.report_seen(m).await.unwrap(), &first, &by, None)
        .await
        .unwrap();
    let second = MatchOutcome::Boards(vec![
        board("1-0", 1),
        board("1-0", 2),
        board("1-0", 3),
        board("1/2-1/2", 4),
    ]);
    store
        .record_result(
            m,
            store.report_seen(m).await.unwrap(),
            &second,
            &by,
            Some(REASON),
        )
        .await
        .unwrap();
    store
        .record_result(
            m,
            store.report_seen(m).await.unwrap(),
            &second,
            &by,
            Some(FORMULA),
        )
        .await
        .unwrap();
    m
}

async fn setup() -> (Store, Router) {
    let store = store().await;
    accounts(&store).await;
    results(&store).await;
    let app = app(&store);
    (store, app)
}

/// `name=value` of the cookie called `name` a response sets.
fn cookie_set(a: &Answer, name: &str) -> Option<String> {
    a.headers
        .get_all(header::SET_COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .filter_map(|v| v.split(';').next())
        .find(|c| c.starts_with(&format!("{name}=")))
        .map(str::to_string)
}

fn form_value(body: &str, name: &str) -> String {
    let marker = format!("name=\"{name}\" value=\"");
    let start = body
        .find(&marker)
        .unwrap_or_else(|| panic!("no {name} field in {body}"))
        + marker.len();
    let len = body[start..].find('"').unwrap();
    body[start..start + len].to_string()
}

fn urlencode(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// Signs in through the form, as a browser would, and returns the session cookie.
async fn sign_in(app: &Router, email: &str) -> String {
    let form = get_ok(app, "/sign-in").await;
    // The form's token is bound to a form cookie: no session until sign-in.
    assert_eq!(cookie_set(&form, "arbiter_session"), None);
    let cookie = cookie_set(&form, "arbiter_form").expect("the sign-in form sets its cookie");
    let csrf = form_value(&form.body, "csrf");
    let body = format!(
        "csrf={}&email={}&password={}",
        urlencode(&csrf),
        urlencode(email),
        urlencode(PASSWORD)
    );
    let a = send(
        app,
        Request::post("/sign-in")
            .header(header::COOKIE, &cookie)
            .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
            .body(Body::from(body))
            .unwrap(),
    )
    .await;
    a.assert_status(StatusCode::SEE_OTHER);
    cookie_set(&a, "arbiter_session").expect("signing in starts a session")
}

async fn get_as(app: &Router, cookie: &str, uri: &str) -> Answer {
    send(
        app,
        Request::get(uri)
            .header(header::COOKIE, cookie)
            .body(Body::empty())
            .unwrap(),
    )
    .await
}

/// RFC 4180: fields separated by commas, records by CRLF, quoted fields with `""` for a quote.
fn parse_csv(text: &str) -> Vec<Vec<String>> {
    let mut records = Vec::new();
    let mut record = Vec::new();
    let mut field = String::new();
    let mut chars = text.chars().peekable();
    let mut quoted = false;
    while let Some(c) = chars.next() {
        if quoted {
            match c {
                '"' if chars.peek() == Some(&'"') => {
                    chars.next();
                    field.push('"');
                }
                '"' => quoted = false,
                other => field.push(other),
            }
            continue;
        }
        match c {
            '"' => {
                assert!(field.is_empty(), "a quote inside an unquoted field");
                quoted = true;
            }
            ',' => record.push(std::mem::take(&mut field)),
            '\r' => {
                assert_eq!(chars.next(), Some('\n'), "CR without LF outside quotes");
                record.push(std::mem::take(&mut field));
                records.push(std::mem::take(&mut record));
            }
            '\n' => panic!("a bare LF ends a record: {text}"),
            other => field.push(other),
        }
    }
    assert!(!quoted, "an unclosed quote");
    assert!(
        field.is_empty() && record.is_empty(),
        "the last record has no CRLF"
    );
    records
}

#[tokio::test]
async fn an_officer_reads_who_changed_a_result_and_why() {
    let (_store, app) = setup().await;
    let cookie = sign_in(&app, PRESIDENT).await;
    let a = get_as(&app, &cookie, &format!("{DIVISION}/history")).await;
    a.assert_status(StatusCode::OK);
    assert_eq!(a.header("cache-control"), "private, no-store");
    assert!(a.header("content-type").starts_with("text/html"));
    let b = &a.body;
    assert!(b.contains("<h1>History of Division A</h1>"), "{b}");
    assert!(
        b.contains(&format!(r#"href="{DIVISION}/history.csv""#)),
        "{b}"
    );
    // The newest row first: the second correction (same result, the formula as its reason).
    let newest = b.find("=cmd|").unwrap();
    let correction = b.find("Board 2 misreported").unwrap();
    assert!(newest < correction, "newest first");
    // Each change one sentence: who (by name, in which role), what, to which match of which
    // division, in the league's local time (issue 32).
    assert!(
        b.contains("Pat President (President) corrected the result of Division A round 4, Start Spartans v Zoë O&#39;Brien"),
        "{b}"
    );
    assert!(
        b.contains(": 2½\u{2013}1½ (boards 1\u{2013}0 0\u{2013}1 1\u{2013}0 ½\u{2013}½) to 3½\u{2013}½ (boards 1\u{2013}0 1\u{2013}0 1\u{2013}0 ½\u{2013}½)."),
        "{b}"
    );
    assert!(
        b.contains("Pat President (President) entered the result of Division A round 4, Start Spartans v Zoë O&#39;Brien &#60;&#38;&#62; &#34;Q&#34;: 2½\u{2013}1½ (boards"),
        "{b}"
    );
    assert!(b.contains("in America/New_York"), "{b}");
    assert!(!b.contains(" UTC<"), "{b}");
    assert!(
        b.contains("Why: Board 2 misreported, per the &#34;signed&#34; scoresheet,\nconfirmed by both captains"),
        "{b}"
    );
    for sentence in b.split("<li id=\"h-").skip(1) {
        let sentence = &sentence[..sentence.find("<details").unwrap()];
        assert!(
            !sentence.contains("none"),
            "never a field said as none: {sentence}"
        );
    }
    // The import by the command line is there too, with no account behind it.
    assert!(b.contains("The command line imported the competition Division A."));
    // Roles are the league's rows, not the competition's.
    assert!(!b.contains("the role of"));

    // The league's history has the roles given as well.
    let a = get_as(&app, &cookie, "/leagues/gthscl/history").await;
    a.assert_status(StatusCode::OK);
    a.assert_contains(&format!(
        "gave {ADVISOR} the role of Advisor of Start High School."
    ));
    a.assert_contains("corrected the result");
    let a = get_as(&app, &cookie, "/leagues/gthscl/2026-27/history").await;
    a.assert_status(StatusCode::OK);
    a.assert_contains("corrected the result");
    a.assert_lacks("the role of");

    // The match's own page.
    let m = format!("{DIVISION}/rounds/4/matches/start/history");
    let a = get_as(&app, &cookie, &m).await;
    a.assert_status(StatusCode::OK);
    assert_eq!(
        a.body.matches(" the result of Division A round 4").count(),
        3,
        "{}",
        a.body
    );
    a.assert_lacks("imported the team");
}

#[tokio::test]
async fn pages_go_back_in_steps_and_a_bad_step_is_named() {
    let (store, app) = setup().await;
    let cookie = sign_in(&app, PRESIDENT).await;
    let m = format!("{DIVISION}/rounds/4/matches/start/history");
    let match_id = store
        .load_competition("gthscl", "division-a")
        .await
        .unwrap()
        .unwrap()
        .match_id(4, &TeamId("start".into()))
        .unwrap();
    let rows = store
        .history(&arbiter_store::HistoryFilter {
            match_id: Some(match_id),
            ..Default::default()
        })
        .await
        .unwrap();
    assert_eq!(rows.len(), 3);
    // Before the newest row: the two older ones, and a way back to the newest.
    let a = get_as(&app, &cookie, &format!("{m}?before={}", rows[0].id)).await;
    a.assert_status(StatusCode::OK);
    a.assert_lacks("=cmd|");
    a.assert_contains("Board 2 misreported");
    a.assert_contains(&format!(r#"<a href="{m}">Newest changes</a>"#));
    // Three rows fit on one page: no link to older ones.
    let a = get_as(&app, &cookie, &m).await;
    a.assert_lacks("Older changes");
    let a = get_as(&app, &cookie, &format!("{m}?before=yesterday")).await;
    a.assert_status(StatusCode::BAD_REQUEST);
    a.assert_contains("“yesterday” is not a history row number");
    // Unknown slugs say what exists.
    let a = get_as(
        &app,
        &cookie,
        &format!("{DIVISION}/rounds/4/matches/scott/history"),
    )
    .await;
    a.assert_status(StatusCode::NOT_FOUND);
    a.assert_contains("Round 4 of Division A has no match with “scott” at home");
    let a = get_as(&app, &cookie, &format!("{DIVISION}/teams/nobody/history")).await;
    a.assert_status(StatusCode::NOT_FOUND);
    let a = get_as(&app, &cookie, "/leagues/gthscl/1999/history.csv").await;
    a.assert_status(StatusCode::NOT_FOUND);
    a.assert_contains("GTHSCL has no season “1999”");
}

#[tokio::test]
async fn the_csv_reads_back_exactly_and_runs_nothing() {
    let (store, app) = setup().await;
    let cookie = sign_in(&app, PRESIDENT).await;
    let a = get_as(&app, &cookie, &format!("{DIVISION}/history.csv")).await;
    a.assert_status(StatusCode::OK);
    assert_eq!(a.header("content-type"), "text/csv; charset=utf-8");
    assert_eq!(a.header("cache-control"), "private, no-store");
    assert_eq!(
        a.header("content-disposition"),
        "attachment; filename=\"gthscl-2026-27-division-a-history.csv\""
    );
    // The reason with a comma, quotes and a line break is one quoted field, quotes doubled.
    a.assert_contains(",\"Board 2 misreported, per the \"\"signed\"\" scoresheet,\nconfirmed by both captains\"\r\n");
    let records = parse_csv(&a.body);
    assert_eq!(
        records[0],
        [
            "id",
            "at",
            "actor",
            "role",
            "entity",
            "entity_id",
            "action",
            "before",
            "after",
            "reason"
        ]
    );
    let competition = store
        .load_competition("gthscl", "division-a")
        .await
        .unwrap()
        .unwrap();
    let expected = store
        .history(&arbiter_store::HistoryFilter {
            competition: Some(competition.record.id),
            ..Default::default()
        })
        .await
        .unwrap();
    assert_eq!(records.len(), expected.len() + 1);
    for (r, e) in records[1..].iter().zip(&expected) {
        assert_eq!(r.len(), 10, "{r:?}");
        assert_eq!(r[0], e.id.to_string());
        assert_eq!(r[2], e.actor.clone().unwrap_or_default());
        assert_eq!(r[4], e.entity.code());
        assert_eq!(r[6], e.action.code());
        // Before and after are the stored JSON, compact.
        let json = |s: &str| (!s.is_empty()).then(|| serde_json::from_str(s).unwrap());
        assert_eq!(json(&r[7]), e.before, "{r:?}");
        assert_eq!(json(&r[8]), e.after, "{r:?}");
        assert!(!r[7].contains('\n') && !r[8].contains('\n'));
    }
    // Newest first: the formula reason, neutralised by a leading apostrophe.
    let newest = &records[1];
    assert_eq!(newest[2], PRESIDENT);
    assert_eq!(newest[3], "president");
    assert_eq!(newest[6], "record_result");
    assert_eq!(newest[9], format!("'{FORMULA}"));
    assert_eq!(records[2][9], REASON);
    assert!(a.body.lines().all(|l| !l.starts_with('=')));
}

#[tokio::test]
async fn an_advisor_reads_only_their_own_schools_history() {
    let (_store, app) = setup().await;
    let cookie = sign_in(&app, ADVISOR).await;
    // Their team and its match.
    let a = get_as(&app, &cookie, &format!("{DIVISION}/teams/start/history")).await;
    a.assert_status(StatusCode::OK);
    a.assert_contains("<h1>History of Start Spartans</h1>");
    a.assert_contains("corrected the result");
    a.assert_contains("imported the team");
    let a = get_as(
        &app,
        &cookie,
        &format!("{DIVISION}/teams/start/history.csv"),
    )
    .await;
    a.assert_status(StatusCode::OK);
    assert_eq!(
        a.header("content-disposition"),
        "attachment; filename=\"gthscl-2026-27-division-a-start-history.csv\""
    );
    let a = get_as(
        &app,
        &cookie,
        &format!("{DIVISION}/rounds/4/matches/start/history"),
    )
    .await;
    a.assert_status(StatusCode::OK);
    // Another school's team and match, and the pages above a team: refused, with the reason.
    for uri in [
        format!("{DIVISION}/teams/clay/history"),
        format!("{DIVISION}/teams/clay/history.csv"),
        format!("{DIVISION}/rounds/4/matches/drop/history"),
        format!("{DIVISION}/history"),
        format!("{DIVISION}/history.csv"),
        "/leagues/gthscl/2026-27/history".to_string(),
        "/leagues/gthscl/history.csv".to_string(),
    ] {
        let a = get_as(&app, &cookie, &uri).await;
        assert_eq!(a.status, StatusCode::FORBIDDEN, "{uri}: {}", a.body);
        assert!(!a.body.contains("record_result"), "{uri}");
        assert!(!a.body.contains(PRESIDENT), "{uri}");
    }
}

#[tokio::test]
async fn anonymous_readers_are_sent_to_sign_in() {
    let (_store, app) = setup().await;
    for uri in [
        "/leagues/gthscl/history".to_string(),
        "/leagues/gthscl/history.csv".to_string(),
        "/leagues/gthscl/2026-27/history".to_string(),
        format!("{DIVISION}/history"),
        format!("{DIVISION}/history.csv"),
        format!("{DIVISION}/teams/start/history"),
        format!("{DIVISION}/rounds/4/matches/start/history.csv"),
        // Before anything about the address is looked up.
        "/leagues/nowhere/history".to_string(),
    ] {
        let a = get(&app, &uri).await;
        assert_eq!(a.status, StatusCode::SEE_OTHER, "{uri}: {}", a.body);
        assert!(a.header("location").starts_with("/sign-in"), "{uri}");
        a.assert_lacks(PRESIDENT);
    }
}

/// Issue 32: the log narrows by school, person and days in the league's zone through a plain
/// GET form, pages 50 changes at a time, and keeps the filters in its links.
#[tokio::test]
async fn the_log_is_filtered_by_school_person_and_day_and_paged_with_the_filters_kept() {
    let (store, app) = setup().await;
    let cookie = sign_in(&app, PRESIDENT).await;
    let log = "/leagues/gthscl/history";
    let rows = |body: &str| body.matches("<li id=\"h-").count();
    let a = get_as(&app, &cookie, log).await;
    a.assert_status(StatusCode::OK);
    // The form works without JavaScript: a GET to the page itself.
    a.assert_contains(
        r#"<form method="get" action="/leagues/gthscl/history" class="history-filters">"#,
    );
    a.assert_contains(r#"<option value="Clay High School">"#);
    a.assert_contains(&format!(
        r#"<option value="{PRESIDENT}">Pat President</option>"#
    ));

    // A school: its own rows and its teams' and matches'.
    let clay = get_as(
        &app,
        &cookie,
        &format!("{log}?school=Clay+High+School&person="),
    )
    .await;
    clay.assert_status(StatusCode::OK);
    clay.assert_contains("imported the team Clay Eagles");
    clay.assert_contains("added the school Clay High School");
    clay.assert_lacks("Start Spartans");
    clay.assert_contains(r#"<option value="Clay High School" selected>"#);
    let scott = get_as(&app, &cookie, &format!("{log}?school=Scott+High+School")).await;
    assert_eq!(
        scott
            .body
            .matches("the result of Division A round 4")
            .count(),
        3
    );
    // A person: only what they did.
    let pat = get_as(
        &app,
        &cookie,
        &format!("{log}?person={}", urlencode(PRESIDENT)),
    )
    .await;
    assert_eq!(rows(&pat.body), 3, "{}", pat.body);
    pat.assert_lacks("The command line");
    // Days in the league's zone: the day of the changes, and the day after.
    let first = store.history(&Default::default()).await.unwrap();
    let day = arbiter_core::record::zone::Zone::named("America/New_York")
        .unwrap()
        .day_of(first[0].at);
    let on = get_as(&app, &cookie, &format!("{log}?from={day}&to={day}")).await;
    assert_eq!(rows(&on.body), rows(&a.body), "{}", on.body);
    let after = get_as(
        &app,
        &cookie,
        &format!("{log}?from={}", day.tomorrow().unwrap()),
    )
    .await;
    after.assert_status(StatusCode::OK);
    assert_eq!(rows(&after.body), 0);
    after.assert_contains("No change matches these filters.");
    after.assert_contains(&format!(r#"<a href="{log}">Clear the filters</a>"#));
    let before = get_as(
        &app,
        &cookie,
        &format!("{log}?to={}", day.yesterday().unwrap()),
    )
    .await;
    assert_eq!(rows(&before.body), 0);
    // Wrong values are named, with what to write instead.
    let bad = get_as(&app, &cookie, &format!("{log}?from=14+Nov")).await;
    bad.assert_status(StatusCode::BAD_REQUEST);
    bad.assert_contains("“14 Nov” is not a date for the first day");
    let bad = get_as(&app, &cookie, &format!("{log}?school=Nowhere")).await;
    bad.assert_status(StatusCode::BAD_REQUEST);
    bad.assert_contains("The league has no school “Nowhere”");

    // Sixty more corrections: 50 a page, newest first, the person kept in the links.
    let m = store
        .load_competition("gthscl", "division-a")
        .await
        .unwrap()
        .unwrap()
        .match_id(4, &TeamId("start".into()))
        .unwrap();
    let versions = store.result_versions(m).await.unwrap();
    let outcome = versions.last().unwrap().outcome.clone();
    let by = Actor::user(PRESIDENT, Role::President);
    for n in 0..60 {
        let seen = store.report_seen(m).await.unwrap();
        let reason = format!("Recount {n}");
        store
            .record_result(m, seen, &outcome, &by, Some(&reason))
            .await
            .unwrap();
    }
    let q = format!("person={}", PRESIDENT.replace('@', "%40"));
    let one = get_as(&app, &cookie, &format!("{log}?{q}")).await;
    assert_eq!(rows(&one.body), 50, "{}", one.body);
    one.assert_contains("Why: Recount 59");
    one.assert_lacks("Why: Recount 9<");
    let start = one.body.find("Older changes").expect("a second page");
    let href_start = one.body[..start].rfind("href=\"").unwrap() + 6;
    let href = one.body[href_start..start - 2]
        .replace("&amp;", "&")
        .replace("&#38;", "&");
    assert!(href.starts_with(&format!("{log}?{q}&before=")), "{href}");
    let two = get_as(&app, &cookie, &href).await;
    two.assert_status(StatusCode::OK);
    assert_eq!(rows(&two.body), 13, "{}", two.body);
    two.assert_contains("Why: Recount 9");
    two.assert_lacks("The command line");
    two.assert_lacks("Older changes");
    two.assert_contains(&format!(r#"<a href="{log}?{q}">Newest changes</a>"#));
}
