//! The arbiter's round page (issue 14): every board of a round typed from the keyboard, checked
//! whole before anything is saved, saved as officers' entries that stand (GT-P2), a change to a
//! saved match a correction with its reason, the undo of the last change as a new version, and
//! the round's public page and the projector that read it.

use arbiter_core::rules::permissions::Role;
use axum::http::StatusCode;
use jiff::civil::date;

use crate::common::*;

const ROUND: &str = "/leagues/gthscl/2026-27/division-a/rounds/4/results";
const ARBITER: &str = "arbiter@gthscl.example";

/// The board fields the page offers, in its order: `r.{home}.{board}`.
fn fields(body: &str) -> Vec<String> {
    body.split("name=\"r.")
        .skip(1)
        .map(|rest| format!("r.{}", rest.split('"').next().unwrap()))
        .collect()
}

/// The round's matches as the API lists them: (home id, status, home points).
async fn round_4(app: &axum::Router) -> Vec<(String, String, f64)> {
    let round = get(app, "/api/v1/leagues/gthscl/2026-27/division-a/rounds/4")
        .await
        .json();
    round["matches"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            (
                m["home_id"].as_str().unwrap().to_string(),
                m["status"].as_str().unwrap().to_string(),
                m["home_points"].as_f64().unwrap_or(-1.0),
            )
        })
        .collect()
}

/// The seeded league with an arbiter and Start High School's advisor.
async fn arbiter_and_coach() -> arbiter_store::Store {
    let store = store().await;
    // Waite's round-2 forfeit, which (with round 3's) dropped it (GT-M5), corrected to a double
    // forfeit by a new version: Waite is back in, and its round-4 match is played here.
    let stored = store
        .load_competition("gthscl", "division-a")
        .await
        .unwrap()
        .unwrap();
    let m = stored
        .match_id(2, &arbiter_core::TeamId("start".into()))
        .unwrap();
    let seen = store.report_seen(m).await.unwrap();
    store
        .record_result(
            m,
            seen,
            &arbiter_core::MatchOutcome::DoubleForfeit,
            &arbiter_store::Actor::default(),
            Some("Neither team came: the forfeit corrected"),
        )
        .await
        .unwrap();
    account(&store, ARBITER, Role::Arbiter, None).await;
    advisor(&store, "coach@start.example", "Start High School").await;
    store
}

/// Issue 32 (item 19): a round sent is shown with each match's score to check, nothing saved;
/// sent again as checked, it is saved. The answer to the second sending.
async fn checked_and_saved(
    app: &axum::Router,
    who: &mut Visitor,
    typed: &[(&str, &str)],
) -> Answer {
    let check = who.post_expect(app, ROUND, typed, StatusCode::OK).await;
    check.assert_contains("Check before saving");
    let checked = checked_value(&check.body);
    let mut sent = typed.to_vec();
    sent.push(("checked", &checked));
    who.post(app, ROUND, &sent).await
}

#[tokio::test]
async fn an_arbiter_types_a_whole_round_and_the_standings_follow() {
    let store = arbiter_and_coach().await;
    let app = app_on(&store, date(2026, 11, 16));

    // Reached from the round's public page.
    let public = get(&app, "/leagues/gthscl/2026-27/division-a/rounds/4").await;
    public.assert_contains(&format!("href=\"{ROUND}\""));

    // An advisor is refused by the permission table.
    let mut coach = Visitor::signed_in(&app, "coach@start.example").await;
    coach.get_expect(&app, ROUND, StatusCode::FORBIDDEN).await;

    let mut arbiter = Visitor::signed_in(&app, ARBITER).await;
    let page = arbiter.get_ok(&app, ROUND).await;
    let names = fields(&page.body);
    assert_eq!(
        names,
        [
            "r.start.1",
            "r.start.2",
            "r.start.3",
            "r.start.4",
            "r.drop.1",
            "r.drop.2",
            "r.drop.3",
            "r.drop.4"
        ],
        "{}",
        page.body
    );
    let before = round_4(&app).await;

    // A key that is no result, and a match typed in part: both named, nothing saved.
    let a = arbiter
        .post_refused(
            &app,
            ROUND,
            &[
                ("v.start", "1"),
                ("v.drop", "1"),
                ("r.start.1", "1"),
                ("r.start.2", "2"),
                ("r.start.3", "0"),
                ("r.start.4", "="),
                ("r.drop.1", "1"),
            ],
        )
        .await;
    a.assert_contains("board 2: “2” is not a result");
    a.assert_contains("boards 2, 3, 4 have no result; type every board of a match, or none.");
    // What was typed comes back.
    a.assert_contains(r#"name="r.start.4" value="=""#);
    assert_eq!(round_4(&app).await, before, "nothing was saved");

    // The whole round: saved, and standing at once.
    let typed = [
        ("v.start", "1"),
        ("v.drop", "1"),
        ("r.start.1", "1"),
        ("r.start.2", "1"),
        ("r.start.3", "0"),
        ("r.start.4", "="),
        ("r.drop.1", "0"),
        ("r.drop.2", "0"),
        ("r.drop.3", "="),
        ("r.drop.4", "0"),
    ];
    // First the scores to check, nothing saved yet.
    let check = arbiter
        .post_expect(&app, ROUND, &typed, StatusCode::OK)
        .await;
    check.assert_contains("Nothing is saved yet. These 2 matches will be saved as typed:");
    check.assert_contains("2½–1½");
    assert_eq!(
        round_4(&app).await,
        before,
        "nothing was saved before the check"
    );
    // A board changed on the check page is checked again, not saved.
    let mut changed = typed.to_vec();
    changed.push(("checked", "r.start.1=0"));
    arbiter
        .post_expect(&app, ROUND, &changed, StatusCode::OK)
        .await;
    assert_eq!(
        round_4(&app).await,
        before,
        "what was not checked is not saved"
    );
    let a = checked_and_saved(&app, &mut arbiter, &typed).await;
    a.assert_status(StatusCode::SEE_OTHER);
    let page = arbiter.get(&app, a.header("location")).await;
    page.assert_contains("Saved 2 matches: ");
    page.assert_lacks("Not saved");
    let after = round_4(&app).await;
    assert_eq!(after[0].2, 2.5, "{after:?}");
    assert_eq!(after[1].2, 0.5, "{after:?}");
    // GT-P2: an officer's entry stands with no confirmation asked.
    let m = get(
        &app,
        "/leagues/gthscl/2026-27/division-a/rounds/4/matches/start",
    )
    .await;
    m.assert_contains("it is decided and stands");
    m.assert_contains("2½–1½");

    // A change to a saved match is a correction: the reason is asked for (GT-P2).
    let mut again = typed.to_vec();
    again[0] = ("v.start", "2");
    again[1] = ("v.drop", "2");
    again[5] = ("r.start.4", "1");
    let a = arbiter.post_refused(&app, ROUND, &again).await;
    a.assert_contains("A correction needs its reason (GT-P2)");
    again.push((
        "reason",
        "Board 4's score sheet: White resigned, not a draw.",
    ));
    let a = checked_and_saved(&app, &mut arbiter, &again).await;
    a.assert_status(StatusCode::SEE_OTHER);
    assert_eq!(round_4(&app).await[0].2, 3.0);

    // A page read before that correction changes nothing of that match (GT-P2: no lost
    // update), and says what is in force on it; the other match typed with it is saved
    // (issue 32, item 21: two arbiters on one round).
    let stale = checked_and_saved(
        &app,
        &mut arbiter,
        &[
            ("v.start", "2"),
            ("v.drop", "2"),
            ("r.start.1", "0"),
            ("r.start.2", "1"),
            ("r.start.3", "0"),
            ("r.start.4", "1"),
            ("r.drop.1", "1"),
            ("r.drop.2", "1"),
            ("r.drop.3", "1"),
            ("r.drop.4", "1"),
            ("reason", "Typed from an old page."),
        ],
    )
    .await;
    stale.assert_status(StatusCode::CONFLICT);
    assert!(
        stale.body.contains("1 match saved (")
            && stale
                .body
                .contains("); one was not, because another entry got in first"),
        "{}",
        stale.body
    );
    stale.assert_contains("Not saved:");
    stale.assert_contains("is now in force; nothing was saved");
    assert!(
        stale.body.contains(r#"name="r.start.4" value="1""#),
        "what was typed comes back: {}",
        stale.body
    );
    assert_eq!(round_4(&app).await[0].2, 3.0, "the overtaken match stands");
    assert_eq!(round_4(&app).await[1].2, 4.0, "the other match is saved");

    // Undo takes back this person's last change (the match just saved) as a new version that
    // restores the one before.
    let page = arbiter.get(&app, ROUND).await;
    page.assert_contains("Undo the last change: version 3 of Waite Dropouts");
    arbiter
        .post_ok(&app, &format!("{ROUND}/undo"), &[("last", "drop:3")])
        .await;
    assert_eq!(round_4(&app).await[1].2, 0.5);
    let m = get(
        &app,
        "/leagues/gthscl/2026-27/division-a/rounds/4/matches/drop",
    )
    .await;
    m.assert_contains("Undo on the round page: version 3 taken back.");
    // An undo offered by an older page is refused: the last change is now another.
    let a = arbiter
        .post_expect(
            &app,
            &format!("{ROUND}/undo"),
            &[("last", "drop:3")],
            StatusCode::CONFLICT,
        )
        .await;
    a.assert_contains("no longer the last one");

    // The projector reads the same standings, and refreshes itself without JavaScript too.
    let projector = get_ok(&app, "/leagues/gthscl/2026-27/division-a/projector").await;
    projector.assert_contains(r#"<meta http-equiv="refresh" content="30">"#);
    projector.assert_contains("Round 4 results");
    assert!(
        projector.body.contains("Hall clock"),
        "the league's clock (issue 32, item 25): {}",
        projector.body
    );
}

/// Issue 14: the round's pairing and score sheets for the arbiter to print, one A4 page each
/// with the competition and its clock at the head; refused to an advisor.
/// Issue 32 (item 20): what is typed is kept in the browser until the round saves, by a script
/// this page's policy allows by its hash; the answer after Save names what was saved and what
/// was not.
#[tokio::test]
async fn nothing_typed_is_lost_and_the_answer_says_what_was_saved_and_what_was_not() {
    use base64::Engine as _;
    use sha2::Digest as _;
    let store = arbiter_and_coach().await;
    let app = app_on(&store, date(2026, 11, 16));
    let mut arbiter = Visitor::signed_in(&app, ARBITER).await;
    let page = arbiter.get_ok(&app, ROUND).await;
    let script = page
        .body
        .split("<script>")
        .nth(1)
        .and_then(|s| s.split("</script>").next())
        .expect("the round page carries its draft script");
    assert!(script.contains("localStorage"), "{script}");
    assert!(script.contains("Restored what you typed at "), "{script}");
    let hash = base64::engine::general_purpose::STANDARD.encode(sha2::Sha256::digest(script));
    let policy = page.header("content-security-policy");
    assert!(
        policy.contains(&format!("script-src 'sha256-{hash}'")),
        "{policy}"
    );
    assert!(!policy.contains("unsafe-inline"), "{policy}");
    page.assert_contains(r#"<p id="draft" class="notice" role="status" hidden></p>"#);
    assert!(
        !page.body.contains(r#"class="round-entry" data-saved"#),
        "nothing saved yet: the draft is kept"
    );

    // One match typed, the other left: the answer names each.
    let typed = [
        ("v.start", "1"),
        ("v.drop", "1"),
        ("r.start.1", "1"),
        ("r.start.2", "1"),
        ("r.start.3", "0"),
        ("r.start.4", "="),
    ];
    let a = checked_and_saved(&app, &mut arbiter, &typed).await;
    a.assert_status(StatusCode::SEE_OTHER);
    let after = arbiter.get(&app, a.header("location")).await;
    let b = &after.body;
    let saved = b
        .split("Saved 1 match: ")
        .nth(1)
        .and_then(|s| s.split(". ").next())
        .unwrap_or_else(|| panic!("{b}"));
    let not = b
        .split("Not saved, as nothing new was typed for it: ")
        .nth(1)
        .and_then(|s| s.split('.').next())
        .unwrap_or_else(|| panic!("{b}"));
    let m = get(
        &app,
        "/leagues/gthscl/2026-27/division-a/rounds/4/matches/start",
    )
    .await;
    let home = m
        .body
        .split("<h1>")
        .nth(1)
        .and_then(|s| s.split(" v").next())
        .unwrap_or("");
    assert!(
        !home.is_empty() && saved.starts_with(home.trim()),
        "{saved} / {home}"
    );
    assert!(!not.contains(home.trim()), "{not}");
    // The server said the round saved: the browser forgets its draft.
    assert!(b.contains(r#"class="round-entry" data-saved="1""#), "{b}");
}

#[tokio::test]
async fn the_arbiter_prints_the_rounds_sheets() {
    let store = arbiter_and_coach().await;
    let app = app_on(&store, date(2026, 11, 16));
    let sheets = "/leagues/gthscl/2026-27/division-a/rounds/4/sheets";
    let mut coach = Visitor::signed_in(&app, "coach@start.example").await;
    assert_eq!(coach.get(&app, sheets).await.status, StatusCode::FORBIDDEN);

    let mut arbiter = Visitor::signed_in(&app, ARBITER).await;
    let round = arbiter.get(&app, ROUND).await;
    round.assert_contains(&format!("href=\"{sheets}\""));
    let page = arbiter.get_ok(&app, sheets).await;
    // The pairing sheet, then one score sheet a match.
    assert_eq!(
        page.body.matches("<section class=\"sheet\">").count(),
        3,
        "{}",
        page.body
    );
    page.assert_contains("Round 4, Mon 16 Nov 2026: pairings");
    page.assert_contains("Round 4, Mon 16 Nov 2026, table 2");
    assert_eq!(page.body.matches("Home captain").count(), 2);
    page.assert_contains("No lineup named yet");
}

/// Issue 14: a competition's files for download: the standings as CSV (the bytes
/// `arbiter standings --format csv` writes, with the explanation), the competition file, and
/// the event as TRF for rating.
#[tokio::test]
async fn a_competitions_files_download_from_its_page() {
    let store = store().await;
    let app = app_on(&store, date(2026, 11, 16));
    let c = "/leagues/gthscl/2026-27/division-a";
    let page = get(&app, c).await;
    for file in ["standings.csv", "competition.json", "trf.txt"] {
        assert!(
            page.body.contains(&format!("href=\"{c}/{file}\"")),
            "{file}: {}",
            page.body
        );
    }
    let csv = get_ok(&app, &format!("{c}/standings.csv")).await;
    assert!(
        csv.body.starts_with("rank,place,team_id,team,"),
        "{}",
        csv.body
    );
    assert!(
        csv.headers["content-disposition"]
            .to_str()
            .unwrap()
            .contains("gthscl-2026-27-division-a-standings.csv")
    );
    let json = get(&app, &format!("{c}/competition.json")).await.json();
    assert_eq!(json["format"], "arbiter/competition@1", "{json}");
    assert_eq!(json["rounds"].as_array().unwrap().len(), 4);
    let trf = get(&app, &format!("{c}/trf.txt")).await;
    assert!(trf.body.starts_with("012 "), "{}", trf.body);
    // Unchanged data: the same ETag, and a 304 for a reader who has it.
    let tag = csv.headers["etag"].to_str().unwrap().to_string();
    let again = send(
        &app,
        axum::http::Request::get(format!("{c}/standings.csv"))
            .header("if-none-match", &tag)
            .body(axum::body::Body::empty())
            .unwrap(),
    )
    .await;
    again.assert_status(StatusCode::NOT_MODIFIED);
}
