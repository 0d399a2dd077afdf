//! The match page and the result workflow (GT-M1, GT-P2, GT-O3): who sees which control, what
//! each form stores, what it refuses and why, and the API's write endpoints with their tokens.

use arbiter_core::rules::permissions::Role;
use arbiter_store::{Actor, LeagueKind, NewLeague, Store};
use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode};

use crate::common::*;

/// Round 4: Start Spartans (home, Start High School) v the Scott team (Scott High School),
/// on Mon 16 Nov 2026, still to play.
const MATCH: &str = "/leagues/gthscl/2026-27/division-a/rounds/4/matches/start";
const API: &str = "/api/v1/leagues/gthscl/2026-27/division-a/rounds/4/matches/start";

const HOME: &str = "coach@start.example";
const VISITOR: &str = "coach@scott.example";
const VP: &str = "vp@gthscl.example";
const PRESIDENT: &str = "president@start.example";
const ARBITER: &str = "arbiter@gthscl.example";
const RATINGS_API: &str = "/api/v1/leagues/gthscl/2026-27/division-a/ratings";
const STANDINGS_API: &str = "/api/v1/leagues/gthscl/2026-27/division-a/standings";

async fn setup() -> (Store, Router) {
    setup_on(store().await).await
}

async fn setup_on(store: Store) -> (Store, Router) {
    advisor(&store, HOME, "Start High School").await;
    advisor(&store, VISITOR, "Scott High School").await;
    account(&store, VP, Role::VicePresident, None).await;
    // GT-O3: the President's own school plays this match.
    account(
        &store,
        PRESIDENT,
        Role::President,
        Some("Start High School"),
    )
    .await;
    // Round 4's match day: results may be entered (GT-P2).
    let app = app_on(&store, jiff::civil::date(2026, 11, 16));
    (store, app)
}

/// The form fields of a played result: start wins boards 1-3, board 4 drawn, rosters in order.
fn played(results: [&'static str; 4]) -> Vec<(String, String)> {
    let mut f = vec![("forfeit".to_string(), String::new())];
    for (i, r) in results.iter().enumerate() {
        let n = i + 1;
        f.push((format!("home_{n}"), format!("start{n}")));
        f.push((format!("result_{n}"), (*r).to_string()));
        f.push((format!("away_{n}"), format!("scott{n}")));
        f.push((format!("rating_{n}"), String::new()));
    }
    f
}

fn pairs(f: &[(String, String)]) -> Vec<(&str, &str)> {
    f.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect()
}

/// Whether the page shows `text` (askama writes an apostrophe as `&#39;`).
fn shows(body: &str, text: &str) -> bool {
    body.contains(text) || body.contains(&text.replace('\'', "&#39;"))
}

/// The match page's address for `action` (`confirm`, `dispute`, …).
fn match_url(action: &str) -> String {
    format!("{MATCH}/{action}")
}

/// Fails, showing the page, unless it [`shows`] `text`.
#[track_caller]
fn assert_shows(page: &Answer, text: &str) {
    assert!(shows(&page.body, text), "{}", page.body);
}

/// The number in `name="version" value="N"` of the first form on the page.
fn version_field(body: &str) -> String {
    let marker = "name=\"version\" value=\"";
    let i = body
        .find(marker)
        .unwrap_or_else(|| panic!("no version field in {body}"))
        + marker.len();
    let end = body[i..].find('"').unwrap();
    body[i..i + end].to_string()
}

/// `who` opens the match page and sends the result form for `results` on the version it shows.
async fn enter(app: &Router, who: &mut Visitor, results: [&'static str; 4]) -> Answer {
    let page = who.get_ok(app, MATCH).await;
    who.post(
        app,
        &match_url("result"),
        &pairs(&played_on(&page, results)),
    )
    .await
}

/// Round 4's match day, with the home advisor signed in and on the match page.
async fn home_on_the_match() -> (Store, Router, Visitor, Answer) {
    let (store, app) = setup().await;
    let mut home = Visitor::signed_in(&app, HOME).await;
    let page = home.get(&app, MATCH).await;
    (store, app, home, page)
}

/// The home advisor, signed in, having entered `results` (stored, awaiting the visitors).
async fn home_entered(app: &Router, results: [&'static str; 4]) -> Visitor {
    let mut home = Visitor::signed_in(app, HOME).await;
    enter_ok(app, &mut home, results).await;
    home
}

/// [`enter`], failing unless the entry is stored (303 back to the match).
async fn enter_ok(app: &Router, who: &mut Visitor, results: [&'static str; 4]) {
    enter(app, who, results)
        .await
        .assert_status(StatusCode::SEE_OTHER);
}

/// The result form for `results`, claiming to have seen `version`.
fn played_at(version: &str, results: [&'static str; 4]) -> Vec<(String, String)> {
    let mut f = played(results);
    f.push(("version".into(), version.to_string()));
    f
}

/// The result form for `results`, on the version the match `page` shows.
fn played_on(page: &Answer, results: [&'static str; 4]) -> Vec<(String, String)> {
    played_at(&version_field(&page.body), results)
}

/// The fields of a review form (confirm, dispute, decision, …): the version seen and the reason.
fn with_reason<'a>(version: &'a str, reason: &'a str) -> [(&'a str, &'a str); 2] {
    [("version", version), ("reason", reason)]
}

/// Every entry of the store's history.
async fn history(store: &Store) -> Vec<arbiter_store::HistoryEntry> {
    store
        .history(&arbiter_store::HistoryFilter::default())
        .await
        .unwrap()
}

/// How many of the history's entries record `action`.
fn count_of(history: &[arbiter_store::HistoryEntry], action: &str) -> usize {
    history.iter().filter(|h| h.action == action).count()
}

#[tokio::test]
async fn gt_p2_the_home_advisor_enters_and_the_visiting_advisor_confirms() {
    let (_store, app) = setup().await;
    let mut home = Visitor::signed_in(&app, HOME).await;
    let page = home.get_ok(&app, MATCH).await;
    assert_eq!(page.header("cache-control"), "private, no-store");
    page.assert_contains("Awaiting the result.");
    // GT-P2: entered within a day of Mon 16 Nov.
    page.assert_contains("The home team enters the result by Tue 17 Nov 2026 (GT-P2).");
    page.assert_contains(&format!(r#"action="{MATCH}/result""#));
    // No board starts as `*`, a game left unfinished (GT-M20): each asks for its result.
    assert_eq!(
        page.body
            .matches(r#"<option value="" selected>Choose the result</option>"#)
            .count(),
        4,
        "{}",
        page.body
    );
    page.assert_lacks(r#"<option value="*" selected>"#);
    // The home advisor neither confirms nor corrects.
    page.assert_lacks(&match_url("confirm"));
    page.assert_lacks(&match_url("correction"));
    // The players default to the rosters in order (no lineup was named), each with the rating
    // of the match day (Eli Stone's 1550 moved with rounds 1-3).
    page.assert_contains(r#"<option value="start2" selected>Eli Stone (15"#);

    let a = enter(&app, &mut home, ["1-0", "1-0", "1-0", "1/2-1/2"]).await;
    a.assert_status(StatusCode::SEE_OTHER);
    assert_eq!(a.header("location"), format!("{MATCH}#report"));

    let mut visitor = Visitor::signed_in(&app, VISITOR).await;
    let page = visitor.get(&app, MATCH).await;
    page.assert_contains("3½–½");
    assert_shows(&page, "is awaiting the visitors' confirmation.");
    // Five days from the entry, which is today by the clock.
    page.assert_contains(
        "the visitors confirm the result or dispute it within 5 days of its entry (GT-P2).",
    );
    page.assert_contains(&format!(r#"action="{MATCH}/confirm""#));
    page.assert_contains(&format!(r#"action="{MATCH}/dispute""#));
    // Only the home side enters.
    page.assert_lacks(&format!(r#"action="{MATCH}/result""#));
    let version = version_field(&page.body);

    // The home advisor may not confirm their own entry: the table says so, with GT-P2.
    let a = home
        .post_forbidden(&app, &match_url("confirm"), &[("version", &version)])
        .await;
    a.assert_contains("GT-P2");

    visitor
        .post_ok(&app, &match_url("confirm"), &[("version", &version)])
        .await;
    let page = get(&app, MATCH).await;
    page.assert_contains(&format!(
        "Version {version} of the result is confirmed by the visitors."
    ));
    page.assert_contains(&format!("Version {version} confirmed"));

    // Confirmed: entering again is refused, and the sentence says what to do instead.
    let f = played_at(&version, ["0-1", "0-1", "0-1", "0-1"]);
    let a = home
        .post_refused(&app, &match_url("result"), &pairs(&f))
        .await;
    a.assert_contains("GT-P2: the visitors confirmed version");
    a.assert_contains("corrects it as a new version");
}

#[tokio::test]
async fn gt_p2_a_dispute_is_decided_by_a_correction_that_stands() {
    let (_store, app) = setup().await;
    let mut home = home_entered(&app, ["1-0", "1-0", "1-0", "1-0"]).await;
    let mut visitor = Visitor::signed_in(&app, VISITOR).await;
    let page = visitor.get(&app, MATCH).await;
    let entered: u32 = version_field(&page.body).parse().unwrap();

    // A dispute needs its reason.
    let v = entered.to_string();
    let a = visitor
        .post_refused(&app, &match_url("dispute"), &with_reason(&v, " "))
        .await;
    a.assert_contains("A dispute needs its reason (GT-P2)");
    visitor
        .post_ok(
            &app,
            &match_url("dispute"),
            &with_reason(&v, "Board 4 was drawn, not won."),
        )
        .await;
    let page = get(&app, MATCH).await;
    page.assert_contains(&format!(
        "The visitors disputed version {entered} of the result"
    ));
    // The words of the dispute are the schools' and officers' to read, not the public's
    // (issue 32, item 4).
    page.assert_lacks("Board 4 was drawn, not won.");
    let signed_in = home.get(&app, MATCH).await;
    signed_in.assert_contains("Board 4 was drawn, not won.");

    // Disputed: the home advisor cannot enter over it.
    let f = played_at(&v, ["1-0", "1-0", "1-0", "1/2-1/2"]);
    let a = home
        .post_refused(&app, &match_url("result"), &pairs(&f))
        .await;
    a.assert_contains("GT-P2: the visitors disputed version");

    // GT-O3: the President's own school plays, so the President may not correct it.
    let mut president = Visitor::signed_in(&app, PRESIDENT).await;
    let page = president.get(&app, MATCH).await;
    page.assert_lacks(&match_url("correction"));
    let mut f = played(["1-0", "1-0", "1-0", "1/2-1/2"]);
    f.push((
        "reason".into(),
        "Board 4 drawn, per both scoresheets.".into(),
    ));
    let a = president
        .post_forbidden(&app, &match_url("correction"), &pairs(&f))
        .await;
    a.assert_contains("GT-O3");

    // The Vice-President corrects; a correction needs its reason.
    let mut vp = Visitor::signed_in(&app, VP).await;
    let page = vp.get(&app, MATCH).await;
    page.assert_contains(&format!(r#"action="{MATCH}/correction""#));
    let f = played(["1-0", "1-0", "1-0", "1/2-1/2"]);
    let a = vp
        .post_refused(&app, &match_url("correction"), &pairs(&f))
        .await;
    a.assert_contains("A correction needs its reason (GT-P2)");
    let mut f = played(["1-0", "1-0", "1-0", "1/2-1/2"]);
    f.push((
        "reason".into(),
        "Board 4 drawn, per both scoresheets.".into(),
    ));
    vp.post_ok(&app, &match_url("correction"), &pairs(&f)).await;

    let corrected = entered + 1;
    let page = visitor.get(&app, MATCH).await;
    // GT-P2, GT-O3: the officer's correction decides the dispute; nobody confirms it again.
    assert_shows(
        &page,
        &format!(
            "Version {corrected} of the result is the correction the Vice-President made; it is decided and stands (GT-P2, GT-O3)."
        ),
    );
    assert!(!shows(&page.body, "awaiting the visitors' confirmation"));
    page.assert_lacks(&match_url("confirm"));
    page.assert_lacks(&match_url("dispute"));
    page.assert_lacks("Due by");
    page.assert_contains(&format!("Version {corrected} corrected"));
    // Nothing is lost: the first entry and the dispute stay on the page.
    page.assert_contains(&format!("Version {entered} entered"));
    page.assert_contains(&format!("Version {entered} disputed"));
    page.assert_contains("3½–½");

    // Neither the disputed version nor the correction is confirmed now: the decision stands.
    // Confirming the disputed version is out of date (409, naming the correction in force).
    let a = visitor
        .post_expect(
            &app,
            &match_url("confirm"),
            &[("version", &v)],
            StatusCode::CONFLICT,
        )
        .await;
    assert!(
        a.body.contains(&format!(
            "Version {corrected} of this result, entered by {VP} (the Vice-President) on "
        )) && a.body.contains("is now in force; nothing was saved."),
        "{}",
        a.body
    );
    let a = visitor
        .post_refused(
            &app,
            &match_url("confirm"),
            &[("version", &corrected.to_string())],
        )
        .await;
    a.assert_contains(&format!(
            "version {corrected} of this result was decided by an officer and stands, so there is nothing to confirm"
        ));
    // Nor is the home team's entry taken over it.
    let f = played_at(&corrected.to_string(), ["0-1", "0-1", "0-1", "0-1"]);
    let a = home
        .post_refused(&app, &match_url("result"), &pairs(&f))
        .await;
    a.assert_contains("decided by an officer and stands");
}

/// Round 4's match disputed by the visitors (Scott), with the reason: returns its version.
async fn disputed(app: &Router) -> String {
    home_entered(app, ["1-0", "1-0", "1-0", "1-0"]).await;
    let mut visitor = Visitor::signed_in(app, VISITOR).await;
    let page = visitor.get(app, MATCH).await;
    let v = version_field(&page.body);
    visitor
        .post_ok(
            app,
            &match_url("dispute"),
            &with_reason(&v, "Board 4 was drawn, not won."),
        )
        .await;
    v
}

#[tokio::test]
async fn gt_o3_the_vice_president_upholds_a_dispute_of_the_presidents_school_and_the_president_may_not()
 {
    let (_store, app) = setup().await;
    let v = disputed(&app).await;

    // GT-O3: the President's own school (Start) plays: no decision form, and 403 when sent.
    let mut president = Visitor::signed_in(&app, PRESIDENT).await;
    let page = president.get(&app, MATCH).await;
    page.assert_lacks(&match_url("decision"));
    let a = president
        .post_forbidden(
            &app,
            &match_url("decision"),
            &with_reason(&v, "The scoresheet shows 1-0."),
        )
        .await;
    a.assert_contains("GT-O3");
    a.assert_contains("Vice-President");

    // The advisors may not decide either.
    let mut visitor = Visitor::signed_in(&app, VISITOR).await;
    visitor
        .post_forbidden(&app, &match_url("decision"), &with_reason(&v, "We say so."))
        .await;

    // The Vice-President sees the dispute's reason, the decision form and the correction.
    let mut vp = Visitor::signed_in(&app, VP).await;
    let page = vp.get(&app, MATCH).await;
    page.assert_contains(&format!(r#"action="{MATCH}/decision""#));
    page.assert_contains(&format!("Keep version {v} as entered"));
    page.assert_contains(r##"href="#correct""##);
    page.assert_contains(r#"id="correct""#);
    page.assert_contains("Board 4 was drawn, not won.");
    // A decision needs its reason; nothing is stored without it.
    let a = vp
        .post_refused(&app, &match_url("decision"), &with_reason(&v, "  "))
        .await;
    a.assert_contains("A decision needs its reason (GT-P2, GT-O3)");
    assert_shows(&a, "The visitors disputed version");
    let a = vp
        .post_ok(
            &app,
            &match_url("decision"),
            &with_reason(&v, "Both scoresheets show board 4 won by Start."),
        )
        .await;
    assert_eq!(a.header("location"), format!("{MATCH}#report"));

    let page = get(&app, MATCH).await;
    page.assert_contains(&format!(
            "The Vice-President decided the dispute of version {v}: the result stands as entered (GT-P2, GT-O3)."
        ));
    page.assert_contains("4–0");
    page.assert_contains(&format!(
        "Dispute of version {v} decided: the result stands"
    ));
    page.assert_contains("Both scoresheets show board 4 won by Start.");
    page.assert_lacks("<form");

    // Decided: no second decision, no confirmation, no entry over it.
    let a = vp
        .post_refused(&app, &match_url("decision"), &with_reason(&v, "Again."))
        .await;
    a.assert_contains("there is no dispute to decide");
    let a = visitor
        .post_refused(&app, &match_url("confirm"), &[("version", &v)])
        .await;
    a.assert_contains("decided by an officer and stands");
    let page = visitor.get(&app, MATCH).await;
    page.assert_lacks(&match_url("confirm"));
}

#[tokio::test]
async fn gt_p2_a_result_not_disputed_has_no_decision() {
    let (_store, app) = setup().await;
    home_entered(&app, ["1-0", "1-0", "1-0", "1-0"]).await;
    let mut vp = Visitor::signed_in(&app, VP).await;
    let page = vp.get(&app, MATCH).await;
    page.assert_lacks(&match_url("decision"));
    let v = version_field(&page.body);
    let a = vp
        .post_refused(
            &app,
            &match_url("decision"),
            &with_reason(&v, "Looks right."),
        )
        .await;
    assert_shows(&a, "awaits the visitors' confirmation and is not disputed");
}

/// Round 3: Start Spartans v Clay Eagles, drawn 2-2, imported from the league's file.
const IMPORTED: &str = "/leagues/gthscl/2026-27/division-a/rounds/3/matches/start";

#[tokio::test]
async fn gt_p2_an_imported_result_stands_as_recorded_with_no_confirm_or_dispute() {
    let (store, app) = setup().await;
    let clay = "coach@clay.example";
    advisor(&store, clay, "Clay High School").await;
    let mut visitor = Visitor::signed_in(&app, clay).await;
    let page = visitor.get_ok(&app, IMPORTED).await;
    page.assert_contains("Version 1 of the result stands as recorded (imported from a file or the command line); it needs no confirmation.");
    assert!(!shows(&page.body, "awaiting the visitors' confirmation"));
    page.assert_lacks(&format!("{IMPORTED}/confirm"));
    page.assert_lacks(&format!("{IMPORTED}/dispute"));
    // The forms left are the extra games' (GT-P3) and the game scores' (GT-M20), which either
    // school may record, and the request for a correction of a result that stands (GT-P2).
    assert_eq!(
        page.body.matches("<form").count(),
        page.body
            .matches(&format!("action=\"{IMPORTED}/extra-games\""))
            .count()
            + page
                .body
                .matches(&format!("action=\"{IMPORTED}/correction-request\""))
                .count()
            + page
                .body
                .matches(&format!("action=\"{IMPORTED}/game-scores\""))
                .count(),
        "{}",
        page.body
    );
    page.assert_lacks("Overdue");
    let a = visitor
        .post_refused(&app, &format!("{IMPORTED}/confirm"), &[("version", "1")])
        .await;
    a.assert_contains("stands as recorded");
    visitor
        .post_refused(
            &app,
            &format!("{IMPORTED}/dispute"),
            &[("version", "1"), ("reason", "Board 1 was ours.")],
        )
        .await;

    // The home advisor does not enter over it; an officer may still correct it.
    let mut home = Visitor::signed_in(&app, HOME).await;
    let page = home.get(&app, IMPORTED).await;
    page.assert_lacks(&format!("{IMPORTED}/result"));
    let mut vp = Visitor::signed_in(&app, VP).await;
    let page = vp.get(&app, IMPORTED).await;
    page.assert_contains(&format!(r#"action="{IMPORTED}/correction""#));
    page.assert_lacks(&format!("{IMPORTED}/decision"));
}

#[tokio::test]
async fn gt_p2_an_arbiters_entry_needs_no_confirmation() {
    let (store, app) = setup().await;
    let arbiter = "arbiter@gthscl.example";
    account(&store, arbiter, Role::Arbiter, None).await;
    let mut a_ = Visitor::signed_in(&app, arbiter).await;
    let page = a_.get(&app, MATCH).await;
    page.assert_contains("it is decided and needs no confirmation by the visitors (GT-P2)");
    enter_ok(&app, &mut a_, ["1-0", "0-1", "1/2-1/2", "1-0"]).await;

    let mut visitor = Visitor::signed_in(&app, VISITOR).await;
    let page = visitor.get(&app, MATCH).await;
    page.assert_contains("was entered by the arbiter; it is decided and stands, with no confirmation needed (GT-P2).");
    page.assert_lacks(&match_url("confirm"));
    page.assert_lacks(&match_url("dispute"));
    page.assert_lacks("Due by");
    let v = version_field(&a_.get(&app, MATCH).await.body);
    let a = visitor
        .post_refused(&app, &match_url("confirm"), &[("version", &v)])
        .await;
    a.assert_contains("decided by an officer and stands");
}

#[tokio::test]
async fn the_public_sees_the_match_and_no_controls() {
    let (_store, app) = setup().await;
    home_entered(&app, ["1-0", "0-1", "1-0", "1/2-1/2"]).await;
    let a = get_ok(&app, MATCH).await;
    a.assert_contains("2½–1½");
    a.assert_contains("Dee Park");
    a.assert_lacks("<form");
    a.assert_lacks("csrf");
    // No session for a reader, and no one's email.
    assert!(a.header("set-cookie").is_empty());
    a.assert_lacks(HOME);
    a.assert_contains("the home advisor");
    // Nor the history link, which only some may read.
    a.assert_lacks(&match_url("history"));
    // An anonymous submission is sent to sign in.
    let mut anon = Visitor::new(&app).await;
    let a = anon
        .post(&app, &match_url("result"), &pairs(&played(["1-0"; 4])))
        .await;
    assert!(to_sign_in(&a), "{} {:?}", a.status, a.headers);

    // A match the address does not name: 404 that lists the round's matches.
    let a = get_expect(
        &app,
        "/leagues/gthscl/2026-27/division-a/rounds/4/matches/scott",
        StatusCode::NOT_FOUND,
    )
    .await;
    a.assert_contains("is the visiting team in round 4");
    a.assert_contains(MATCH);
}

#[tokio::test]
async fn a_bad_board_is_refused_with_its_board_and_rule_and_the_form_kept() {
    let (store, app, mut home, page) = home_on_the_match().await;
    let f = played_on(&page, ["1-0", "2-0", "1-0", "1-0"]);
    let a = home
        .post_refused(&app, &match_url("result"), &pairs(&f))
        .await;
    a.assert_contains("Board 2: “2-0” is not a board result");
    a.assert_contains(r#"fieldset class="board bad""#);
    // The rest of the form is as sent.
    a.assert_contains(r#"<option value="1-0" selected>"#);

    // GT-M10: one player on two boards.
    let mut f = played(["1-0", "1-0", "1-0", "1-0"]);
    f.retain(|(k, _)| k != "home_3");
    f.push(("home_3".into(), "start1".into()));
    let a = home
        .post_refused(&app, &match_url("result"), &pairs(&f))
        .await;
    a.assert_contains("Board 3: GT-M10:");

    // GT-M4: an unplayed game is never a draw.
    let mut f = played(["1-0", "1-0", "1-0", "1/2-1/2"]);
    f.retain(|(k, _)| k != "away_4");
    let a = home
        .post_refused(&app, &match_url("result"), &pairs(&f))
        .await;
    a.assert_contains("Board 4:");
    a.assert_contains("GT-M4");

    // Nothing was stored by any of them.
    let m = round_4_start_match(&store).await;
    let versions = store.result_versions(m).await.unwrap();
    assert!(
        versions
            .iter()
            .all(|v| v.outcome == arbiter_core::MatchOutcome::Pending)
    );

    // A whole-match forfeit needs no boards (GT-M7).
    let page = home.get(&app, MATCH).await;
    let version = version_field(&page.body);
    home.post_ok(
        &app,
        &match_url("result"),
        &[("forfeit", "away"), ("version", &version), ("result_1", "")],
    )
    .await;
    let page = get(&app, MATCH).await;
    page.assert_contains("forfeited the match");
}

#[tokio::test]
async fn a_stale_form_does_not_overwrite_a_newer_entry() {
    let (_store, app, mut home, page) = home_on_the_match().await;
    let seen = version_field(&page.body);
    let f = played_at(&seen, ["1-0", "1-0", "1-0", "1-0"]);
    home.post_ok(&app, &match_url("result"), &pairs(&f)).await;
    // The same form again (a second tab, a double submit): 409 saying what is in force,
    // nothing stored twice.
    let a = home
        .post_expect(&app, &match_url("result"), &pairs(&f), StatusCode::CONFLICT)
        .await;
    assert!(
        shows(
            &a.body,
            &format!("Version 2 of this result, entered by {HOME} (the home advisor) on ")
        ) && a.body.contains("is now in force; nothing was saved."),
        "{}",
        a.body
    );
}

// ---------------------------------------------------------------------------------------------
// The API

/// `email`'s API token acting as `role` in `league`, which grants it the role first.
async fn token(store: &Store, email: &str, role: Role, league: &str) -> String {
    let user = store
        .user_by_email(&arbiter_core::record::text::Email::parse(email).unwrap())
        .await
        .unwrap()
        .unwrap();
    let l = store.league(league).await.unwrap().unwrap();
    store
        .grant_role(user.id, l.id, role, None, &Actor::system())
        .await
        .unwrap();
    arbiter_demo::testing::api_token(store, league, email, role, None).await
}

/// The `error.message` of an API answer.
fn error_message(a: &Answer) -> String {
    a.json()["error"]["message"]
        .as_str()
        .unwrap_or_else(|| panic!("no error message in {}", a.body))
        .to_string()
}

/// Fails unless the API answer has `status` and an error message containing `text`.
#[track_caller]
fn assert_api_refused(a: &Answer, status: StatusCode, text: &str) {
    a.assert_status(status);
    let m = error_message(a);
    assert!(m.contains(text), "{m}");
}

/// The arbiter of GTHSCL, given an account and an API token: returns the token.
async fn arbiter_token(store: &Store) -> String {
    account(store, ARBITER, Role::Arbiter, None).await;
    token(store, ARBITER, Role::Arbiter, "gthscl").await
}

/// The API's JSON for an extra game of kind `challenge`.
fn challenge_json(white: &str, black: &str, result: &str) -> String {
    format!(
        r#"{{"white": "{white}", "black": "{black}", "result": "{result}", "kind": "challenge"}}"#
    )
}

/// `body` posted as JSON to the API at `path` (`result`, `confirm`, …), with or without a token.
async fn api_post(app: &Router, path: &str, bearer: Option<&str>, body: &str) -> Answer {
    let mut b = Request::post(format!("{API}/{path}")).header("content-type", "application/json");
    if let Some(t) = bearer {
        b = b.header("authorization", format!("Bearer {t}"));
    }
    send(app, b.body(Body::from(body.to_string())).unwrap()).await
}

const BOARDS: &str = r#"{"boards": [
    {"board": 1, "result": "1-0", "home_player": "start1", "away_player": "scott1"},
    {"board": 2, "result": "1/2-1/2", "home_player": "start2", "away_player": "scott2"},
    {"board": 3, "result": "0-1", "home_player": "start3", "away_player": "scott3"},
    {"board": 4, "result": "+/-", "home_player": "start4"}
]}"#;

#[tokio::test]
async fn the_api_enters_a_result_with_a_token_and_only_with_one() {
    let (store, app) = setup().await;
    let secret = arbiter_token(&store).await;

    // No token: 401, saying what to send.
    let a = api_post(&app, "result", None, BOARDS).await;
    a.assert_status(StatusCode::UNAUTHORIZED);
    assert!(a.header("www-authenticate").starts_with("Bearer"));
    assert!(
        a.json()["error"]["message"]
            .as_str()
            .unwrap()
            .contains("Bearer")
    );
    let a = api_post(&app, "result", Some("not-a-token"), BOARDS).await;
    a.assert_status(StatusCode::UNAUTHORIZED);

    // A signed-in session does not authorise the API, even the home advisor's.
    let home = Visitor::signed_in(&app, HOME).await;
    let req = Request::post(format!("{API}/result"))
        .header("content-type", "application/json")
        .header("cookie", home.cookie.clone().unwrap())
        .body(Body::from(BOARDS))
        .unwrap();
    let a = send(&app, req).await;
    a.assert_status(StatusCode::UNAUTHORIZED);

    // A bad board: 422 naming the board and the field.
    let bad = BOARDS.replace(r#""result": "0-1""#, r#""result": "3-0""#);
    let a = api_post(&app, "result", Some(&secret), &bad).await;
    a.assert_status(StatusCode::UNPROCESSABLE_ENTITY);
    let j = a.json();
    assert_eq!(j["error"]["problems"][0]["board"], 3);
    assert_eq!(j["error"]["problems"][0]["field"], "result");
    assert!(
        j["error"]["message"]
            .as_str()
            .unwrap()
            .starts_with("Board 3: “3-0” is not a board result")
    );
    let a = api_post(&app, "result", Some(&secret), "{\"boards\": 7}").await;
    a.assert_status(StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(a.json()["error"]["problems"][0]["field"], "body");

    // With the token: 201 and the stored version.
    let a = api_post(&app, "result", Some(&secret), BOARDS).await;
    a.assert_status(StatusCode::CREATED);
    let j = a.json();
    let version = j["version"].as_u64().unwrap();
    // GT-P2: the arbiter's entry stands; no one confirms it.
    assert_eq!(j["status"], "decided");
    assert_eq!(j["entered_by"], ARBITER);
    assert_eq!(j["outcome"]["boards"][3]["result"], "+/-");
    assert_eq!(j["url"], MATCH);
    let page = get(&app, MATCH).await;
    page.assert_contains("2½–1½");
    page.assert_contains(&format!("Version {version} entered"));

    // The arbiter may not confirm (the visiting advisor does): 403 with the rule.
    let a = api_post(&app, "confirm", Some(&secret), "{}").await;
    assert_api_refused(&a, StatusCode::FORBIDDEN, "GT-P2");

    // A correction by the API needs its reason, then stores the next version.
    let a = api_post(&app, "correction", Some(&secret), BOARDS).await;
    a.assert_status(StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(a.json()["error"]["problems"][0]["field"], "reason");
    let a = api_post(
        &app,
        "correction",
        Some(&secret),
        r#"{"forfeit": "away", "reason": "Scott never arrived (GT-M6)."}"#,
    )
    .await;
    a.assert_status(StatusCode::CREATED);
    assert_eq!(a.json()["version"].as_u64().unwrap(), version + 1);
    assert_eq!(a.json()["outcome"]["kind"], "forfeit");
    assert_eq!(a.json()["status"], "decided");
}

/// A token for an account with `role` (and `school`) in GTHSCL.
async fn school_token(store: &Store, email: &str, role: Role, school: Option<&str>) -> String {
    account(store, email, role, school).await;
    api_token(store, email, role, school).await
}

#[tokio::test]
async fn gt_o3_the_api_decides_a_dispute_and_refuses_the_presidents_own_school() {
    let (store, app) = setup().await;
    let home = school_token(&store, HOME, Role::Advisor, Some("Start High School")).await;
    let visitor = school_token(&store, VISITOR, Role::Advisor, Some("Scott High School")).await;
    let president = school_token(
        &store,
        PRESIDENT,
        Role::President,
        Some("Start High School"),
    )
    .await;
    let vp = school_token(&store, VP, Role::VicePresident, None).await;

    let a = api_post(&app, "result", Some(&home), BOARDS).await;
    a.assert_status(StatusCode::CREATED);
    assert_eq!(a.json()["status"], "awaiting_confirmation");
    let version = a.json()["version"].as_u64().unwrap();
    // Nothing disputed yet: no decision.
    let a = api_post(&app, "decision", Some(&vp), r#"{"reason": "Fine."}"#).await;
    a.assert_status(StatusCode::UNPROCESSABLE_ENTITY);
    // GT-P2: the state's refusal has core's stable word beside its sentence.
    assert_eq!(a.json()["error"]["code"], "refused", "{}", a.body);
    assert_eq!(a.json()["error"]["refusal"], "not_disputed", "{}", a.body);
    let a = api_post(
        &app,
        "dispute",
        Some(&visitor),
        r#"{"reason": "Board 3 was ours."}"#,
    )
    .await;
    a.assert_status(StatusCode::CREATED);
    assert_eq!(a.json()["status"], "disputed");

    let a = api_post(
        &app,
        "decision",
        Some(&president),
        r#"{"reason": "It stands."}"#,
    )
    .await;
    assert_api_refused(&a, StatusCode::FORBIDDEN, "GT-O3");
    let a = api_post(&app, "decision", Some(&vp), "{}").await;
    a.assert_status(StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(a.json()["error"]["problems"][0]["field"], "reason");
    let a = api_post(
        &app,
        "decision",
        Some(&vp),
        &format!(r#"{{"version": {version}, "reason": "The scoresheet shows 0-1 on board 3."}}"#),
    )
    .await;
    a.assert_status(StatusCode::CREATED);
    let j = a.json();
    assert_eq!(j["status"], "decided");
    assert_eq!(j["kind"], "confirmed");
    assert_eq!(j["by"], VP);
    let page = get(&app, MATCH).await;
    page.assert_contains(&format!(
        "The Vice-President decided the dispute of version {version}"
    ));
}

#[tokio::test]
async fn an_api_token_of_another_league_is_refused() {
    let (store, app) = setup().await;
    store
        .create_league(
            &NewLeague {
                slug: "other".into(),
                name: "Other League".into(),
                kind: LeagueKind::League,
                description: String::new(),
                time_zone: arbiter_core::record::zone::Zone::named("UTC").unwrap(),
            },
            &Actor::system(),
        )
        .await
        .unwrap();
    let secret = token(&store, VP, Role::VicePresident, "other").await;
    let a = api_post(&app, "result", Some(&secret), BOARDS).await;
    assert_api_refused(&a, StatusCode::FORBIDDEN, "acts in the league “other”");
}

#[tokio::test]
async fn the_openapi_document_describes_the_write_endpoints_and_their_token() {
    let (_store, app) = setup().await;
    let doc = get(&app, "/api/v1/openapi.json").await.json();
    for (path, body) in [
        ("result", "ResultInput"),
        ("correction", "ResultInput"),
        ("confirm", "ReviewInput"),
        ("dispute", "ReviewInput"),
        ("decision", "ReviewInput"),
    ] {
        let p = format!(
            "/api/v1/leagues/{{league}}/{{season}}/{{competition}}/rounds/{{round}}/matches/{{home}}/{path}"
        );
        let op = &doc["paths"][&p]["post"];
        assert!(op.is_object(), "{p} is not documented");
        for status in ["201", "401", "403", "409", "422"] {
            assert!(op["responses"][status].is_object(), "{p}: no {status}");
        }
        assert_eq!(op["security"][0]["bearer"], serde_json::json!([]), "{p}");
        let schema = op["requestBody"]["content"]["application/json"]["schema"]["$ref"]
            .as_str()
            .unwrap_or_default();
        assert!(schema.ends_with(body), "{p}: {schema}");
    }
    assert_eq!(
        doc["components"]["securitySchemes"]["bearer"]["scheme"],
        "bearer"
    );
    for name in ["ResultInput", "BoardInput", "StoredResult", "InvalidAnswer"] {
        assert!(doc["components"]["schemas"][name].is_object(), "no {name}");
    }
}

// ---------------------------------------------------------------------------------------------
// Simultaneous writes (issue 9): the version seen is checked in the write's own transaction.

/// `n` requests sent at once (released together by a barrier), their answers in any order.
async fn at_once(app: &Router, n: usize, make: impl Fn() -> Request<Body>) -> Vec<Answer> {
    let barrier = std::sync::Arc::new(tokio::sync::Barrier::new(n));
    let mut tasks = tokio::task::JoinSet::new();
    for _ in 0..n {
        let (app, req, barrier) = (app.clone(), make(), barrier.clone());
        tasks.spawn(async move {
            barrier.wait().await;
            send(&app, req).await
        });
    }
    let mut out = Vec::new();
    while let Some(a) = tasks.join_next().await {
        out.push(a.unwrap());
    }
    out
}

/// A POST of `body` as JSON to the API's `path` of round 4's match, with the token `bearer`.
fn api_request(path: &str, bearer: &str, body: &str) -> Request<Body> {
    json_request(&format!("{API}/{path}"), bearer, body.to_string())
}

/// A POST of `body` as JSON to the address `uri`, with the token `bearer`.
fn json_request(uri: &str, bearer: &str, body: impl Into<Body>) -> Request<Body> {
    Request::post(uri)
        .header("content-type", "application/json")
        .header("authorization", format!("Bearer {bearer}"))
        .body(body.into())
        .unwrap()
}

/// Each answer's status and body, to show when a count of them is wrong.
fn listed(answers: &[Answer]) -> Vec<(StatusCode, &str)> {
    answers
        .iter()
        .map(|a| (a.status, a.body.as_str()))
        .collect()
}

/// GT-P2: 16 entries sent at once, each claiming to have seen version 1: one is stored as
/// version 2, the other 15 are 409 saying which version is now in force, and nothing else is
/// stored.
async fn one_of_sixteen_simultaneous_entries_wins(store: Store) {
    let (store, app) = setup_on(store).await;
    let home = school_token(&store, HOME, Role::Advisor, Some("Start High School")).await;
    let seen = BOARDS.replacen('{', r#"{"version": 1, "#, 1);
    let answers = at_once(&app, 16, || api_request("result", &home, &seen)).await;
    let won: Vec<&Answer> = answers
        .iter()
        .filter(|a| a.status == StatusCode::CREATED)
        .collect();
    let lost: Vec<&Answer> = answers
        .iter()
        .filter(|a| a.status == StatusCode::CONFLICT)
        .collect();
    assert_eq!((won.len(), lost.len()), (1, 15), "{:?}", listed(&answers));
    assert_eq!(won[0].json()["version"], 2);
    for a in lost {
        let j = a.json();
        assert_eq!(j["error"]["code"], "conflict", "{}", a.body);
        let m = j["error"]["message"].as_str().unwrap();
        assert!(
            m.starts_with(&format!(
                "Version 2 of this result, entered by {HOME} (the home advisor) on "
            )) && m.contains("is now in force; nothing was saved."),
            "{m}"
        );
    }
    let m = round_4_start_match(&store).await;
    assert_eq!(store.result_versions(m).await.unwrap().len(), 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn gt_p2_of_sixteen_simultaneous_api_entries_one_is_stored_on_sqlite() {
    on_sqlite_file(one_of_sixteen_simultaneous_entries_wins).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn gt_p2_of_sixteen_simultaneous_api_entries_one_is_stored_on_postgres() {
    on_postgres(one_of_sixteen_simultaneous_entries_wins).await;
}

/// GT-P2: 16 confirmations of one version sent at once (tabs, a script run twice): one is
/// stored; each other gets the answer it would have had arriving just after it, 422 saying the
/// visitors confirmed that version, whether it lost before or inside the write's transaction.
async fn one_of_sixteen_simultaneous_confirmations_wins(store: Store) {
    let (store, app) = setup_on(store).await;
    let home = school_token(&store, HOME, Role::Advisor, Some("Start High School")).await;
    let visitor = school_token(&store, VISITOR, Role::Advisor, Some("Scott High School")).await;
    let a = api_post(&app, "result", Some(&home), BOARDS).await;
    a.assert_status(StatusCode::CREATED);
    let answers = at_once(&app, 16, || {
        api_request("confirm", &visitor, r#"{"version": 2}"#)
    })
    .await;
    let statuses: Vec<StatusCode> = answers.iter().map(|a| a.status).collect();
    assert_eq!(
        statuses
            .iter()
            .filter(|s| **s == StatusCode::CREATED)
            .count(),
        1,
        "{:?}",
        listed(&answers)
    );
    for a in answers.iter().filter(|a| a.status != StatusCode::CREATED) {
        a.assert_status(StatusCode::UNPROCESSABLE_ENTITY);
        let m = a.json()["error"]["message"].as_str().unwrap().to_string();
        assert!(
            m.starts_with("GT-P2: the visitors confirmed version 2 of this result"),
            "{m}"
        );
    }
    let m = round_4_start_match(&store).await;
    assert_eq!(store.result_reviews(m).await.unwrap().len(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn gt_p2_of_simultaneous_confirmations_one_is_stored_on_sqlite() {
    on_sqlite_file(one_of_sixteen_simultaneous_confirmations_wins).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn gt_p2_of_simultaneous_confirmations_one_is_stored_on_postgres() {
    on_postgres(one_of_sixteen_simultaneous_confirmations_wins).await;
}

// ---------------------------------------------------------------------------------------------
// Issue 9, item 10: a reason has at most `arbiter_core::record::text::REASON_MAX_CHARS` characters

use arbiter_core::record::text::REASON_MAX_CHARS;

/// The text of the first `<textarea name="reason" …>…</textarea>` on a page.
fn reason_shown(body: &str) -> String {
    let i = body
        .find("<textarea name=\"reason\"")
        .unwrap_or_else(|| panic!("no reason field in {body}"));
    let start = i + body[i..].find('>').unwrap() + 1;
    let end = start + body[start..].find("</textarea>").unwrap();
    body[start..end].to_string()
}

#[tokio::test]
async fn ten_reasons_of_1_9_mb_are_refused_with_413_and_the_match_page_stays_small() {
    let (_store, app) = setup().await;
    let mut home = Visitor::signed_in(&app, HOME).await;
    let before = get_ok(&app, MATCH).await;
    let huge = "x".repeat(1_900_000);
    for _ in 0..10 {
        let page = home.get(&app, MATCH).await;
        let mut f = played_on(&page, ["1-0", "1-0", "1-0", "1/2-1/2"]);
        f.push(("reason".into(), huge.clone()));
        let a = home.post(&app, &match_url("result"), &pairs(&f)).await;
        assert_eq!(
            a.status,
            StatusCode::PAYLOAD_TOO_LARGE,
            "{}",
            &a.body[..500.min(a.body.len())]
        );
        assert_shows(
            &a,
            "The request is larger than the 64 KiB a form or an API request may send",
        );
        assert!(
            a.body.len() < 10_000,
            "the refusal is {} bytes",
            a.body.len()
        );
    }
    let after = get_ok(&app, MATCH).await;
    assert!(!after.body.contains("xxxxxxxxxx"), "no reason was stored");
    assert!(
        after.body.len() < 100_000,
        "the match page is {} bytes",
        after.body.len()
    );
    assert!(
        after.body.contains("Awaiting the result"),
        "nothing was entered"
    );
    assert_eq!(after.body.len(), before.body.len());
}

#[tokio::test]
async fn a_body_that_says_it_is_too_large_is_refused_before_it_is_read() {
    let (_store, app) = setup().await;
    // No session, no token: the length alone refuses it, page or API.
    for (uri, json) in [
        (format!("{MATCH}/result"), false),
        (format!("{API}/result"), true),
    ] {
        let req = Request::post(&uri)
            .header("content-type", "application/x-www-form-urlencoded")
            .header("content-length", "1900000")
            .body(Body::from("reason=x"))
            .unwrap();
        let a = send(&app, req).await;
        assert_eq!(a.status, StatusCode::PAYLOAD_TOO_LARGE, "{uri}: {}", a.body);
        if json {
            assert_eq!(a.json()["error"]["code"], "too_large", "{}", a.body);
        } else {
            assert!(a.header("content-type").starts_with("text/html"), "{uri}");
            a.assert_contains("shorten the longest text");
        }
    }
}

/// Issue 16, part 5: bodies no client should send are refused with a 4xx and leave nothing
/// stored; each is otherwise one that would be stored, so the 4xx is for what is wrong.
#[tokio::test]
async fn deep_json_and_bytes_that_are_not_utf8_are_refused_with_4xx_and_store_nothing() {
    let (store, app) = setup().await;
    let secret = arbiter_token(&store).await;
    let refused = |a: &Answer, what: &str| {
        assert!(
            a.status.is_client_error(),
            "{what}: {} {}",
            a.status,
            a.body
        );
    };

    // JSON nested 30,000 deep, inside the 64 KiB a body may have: at the top, in a board,
    // in the reason. A typed body is refused where its shape first goes wrong, so the
    // nesting is never read down (and serde_json stops at 128 levels where it would be).
    let deep = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
    for (what, body) in [
        ("deep JSON", deep(30_000)),
        (
            "a deep board",
            format!("{{\"boards\": [{}]}}", deep(30_000)),
        ),
        (
            "a deep reason",
            format!("{{\"forfeit\": \"home\", \"reason\": {}}}", deep(30_000)),
        ),
        (
            "deep objects",
            format!("{}1{}", "{\"a\":".repeat(10_000), "}".repeat(10_000)),
        ),
    ] {
        let a = api_post(&app, "result", Some(&secret), &body).await;
        refused(&a, what);
        assert!(
            a.json()["error"]["message"].is_string(),
            "{what}: {}",
            a.body
        );
    }

    // Bytes that are not UTF-8 in an entry that would otherwise be stored: raw in the JSON
    // body, and %-encoded or raw in a form's.
    let bad_reason = BOARDS.replacen("{\"boards\"", "{\"reason\": \"\u{1}\", \"boards\"", 1);
    let mut bytes = bad_reason.into_bytes();
    let at = bytes.iter().position(|b| *b == 1).unwrap();
    bytes.splice(at..=at, *b"\xff\xfe");
    let a = send(&app, json_request(&format!("{API}/result"), &secret, bytes)).await;
    refused(&a, "JSON that is not UTF-8");
    assert!(
        a.json()["error"]["message"]
            .as_str()
            .unwrap()
            .contains("not the JSON this endpoint reads"),
        "{}",
        a.body
    );

    let mut home = Visitor::signed_in(&app, HOME).await;
    let page = home.get(&app, MATCH).await;
    let mut f = played_on(&page, ["1-0", "1-0", "1-0", "1-0"]);
    f.push(("csrf".into(), home.csrf.clone()));
    let form = f
        .iter()
        .map(|(k, v)| format!("{}={}", form_encode(k), form_encode(v)))
        .collect::<Vec<_>>()
        .join("&");
    for bad in [&b"%FF%FE"[..], &b"\xff"[..]] {
        let mut body = format!("{form}&reason=").into_bytes();
        body.extend_from_slice(bad);
        let a = home.post_bytes(&app, &match_url("result"), body).await;
        a.assert_status(StatusCode::BAD_REQUEST);
        a.assert_contains("could not be read");
    }
    assert!(
        get(&app, MATCH).await.body.contains("Awaiting the result"),
        "nothing was entered"
    );

    // The same form in UTF-8 is stored: the refusals were for the bytes.
    let mut body = format!("{form}&reason=").into_bytes();
    body.extend_from_slice(b"%C3%A9");
    let a = home.post_bytes(&app, &match_url("result"), body).await;
    a.assert_status(StatusCode::SEE_OTHER);
    assert!(!get(&app, MATCH).await.body.contains("Awaiting the result"));
}

#[tokio::test]
async fn a_reason_one_character_over_its_limit_is_refused_with_the_sentence_and_nothing_is_stored()
{
    let (_store, app) = setup().await;
    let mut home = Visitor::signed_in(&app, HOME).await;
    // é is two bytes: the limit counts characters.
    let over = "é".repeat(REASON_MAX_CHARS + 1);
    let at = "é".repeat(REASON_MAX_CHARS);
    let sentence = "The reason has 1,001 characters; a reason may have at most 1,000. Shorten it and send it again.";

    // The result form: 422, the form again with the sentence and the reason cut to the limit.
    let page = home.get(&app, MATCH).await;
    let mut f = played_on(&page, ["1-0", "1-0", "1-0", "1-0"]);
    f.push(("reason".into(), over.clone()));
    let a = home
        .post_refused(&app, &match_url("result"), &pairs(&f))
        .await;
    a.assert_contains(sentence);
    assert_eq!(reason_shown(&a.body), at);
    assert!(get(&app, MATCH).await.body.contains("Awaiting the result"));

    // Exactly at the limit it is kept.
    f.pop();
    f.push(("reason".into(), at.clone()));
    home.post_ok(&app, &match_url("result"), &pairs(&f)).await;
    assert!(get(&app, MATCH).await.body.contains(&at));

    // The dispute: the same sentence, and nothing disputed.
    let mut visitor = Visitor::signed_in(&app, VISITOR).await;
    let page = visitor.get(&app, MATCH).await;
    let v = version_field(&page.body);
    let a = visitor
        .post_refused(&app, &match_url("dispute"), &with_reason(&v, &over))
        .await;
    a.assert_contains(sentence);
    assert_eq!(reason_shown(&a.body), at);
    assert!(shows(
        &get(&app, MATCH).await.body,
        "awaiting the visitors' confirmation"
    ));

    // The decision of a dispute: the same.
    visitor
        .post_ok(
            &app,
            &match_url("dispute"),
            &with_reason(&v, "Board 4 was drawn."),
        )
        .await;
    let mut vp = Visitor::signed_in(&app, VP).await;
    vp.get(&app, MATCH).await;
    let a = vp
        .post_refused(&app, &match_url("decision"), &with_reason(&v, &over))
        .await;
    a.assert_contains(sentence);
    assert!(
        get(&app, MATCH)
            .await
            .body
            .contains("The visitors disputed version")
    );
}

#[tokio::test]
async fn the_api_refuses_a_reason_beyond_its_limit_with_too_long_and_documents_the_limit() {
    let (store, app) = setup().await;
    let secret = arbiter_token(&store).await;
    let with_reason = |reason: &str| {
        let mut v: serde_json::Value = serde_json::from_str(BOARDS).unwrap();
        v["reason"] = reason.into();
        v.to_string()
    };
    let a = api_post(
        &app,
        "result",
        Some(&secret),
        &with_reason(&"♞".repeat(REASON_MAX_CHARS + 1)),
    )
    .await;
    a.assert_status(StatusCode::UNPROCESSABLE_ENTITY);
    let e = &a.json()["error"];
    assert_eq!(e["code"], "too_long", "{}", a.body);
    assert_eq!(e["problems"][0]["field"], "reason");
    assert_eq!(
        e["message"],
        "The reason has 1,001 characters; a reason may have at most 1,000. Shorten it and send it again."
    );
    let a = api_post(
        &app,
        "result",
        Some(&secret),
        &with_reason(&"x".repeat(1_900_000)),
    )
    .await;
    a.assert_status(StatusCode::PAYLOAD_TOO_LARGE);
    assert_eq!(a.json()["error"]["code"], "too_large", "{}", a.body);
    let a = api_post(
        &app,
        "result",
        Some(&secret),
        &with_reason(&"♞".repeat(REASON_MAX_CHARS)),
    )
    .await;
    a.assert_status(StatusCode::CREATED);

    // The document says so, with core's number.
    let doc = get(&app, "/api/v1/openapi.json").await.json();
    for schema in ["ResultInput", "ReviewInput"] {
        assert_eq!(
            doc["components"]["schemas"][schema]["properties"]["reason"]["maxLength"],
            REASON_MAX_CHARS,
            "{schema}"
        );
    }
}

/// The match page's form fields for an extra game (GT-P3): the players, the result, the kind.
fn extra_game_form<'a>(
    white: &'a str,
    black: &'a str,
    result: &'a str,
    kind: &'a str,
) -> [(&'a str, &'a str); 4] {
    [
        ("white", white),
        ("black", black),
        ("result", result),
        ("kind", kind),
    ]
}

/// A player's rated games in the API's rating list.
fn rated_games_of(ratings: &serde_json::Value, id: &str) -> u64 {
    ratings["players"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["player_id"] == id)
        .unwrap()["games"]
        .as_u64()
        .unwrap()
}

/// Issue 13, part 3: the home advisor enters a board the coach forfeited (GT-M16) and one
/// forfeited for conduct with its note (GT-M17); a conduct forfeit without its note is refused
/// with the rule and the form kept; the match page, the API and the history say why each board
/// was not played, and neither is rated.
#[tokio::test]
async fn gt_m16_gt_m17_unplayed_boards_are_entered_with_their_kind() {
    let (store, app, mut home, page) = home_on_the_match().await;
    page.assert_contains("Forfeited by the coach (GT-M16)");
    let mut f = played_on(&page, ["1-0", "1-0", "-/+", "+/-"]);
    f.push(("unplayed_3".into(), "coach".into()));
    f.push(("unplayed_4".into(), "conduct".into()));
    let refused = home
        .post_refused(&app, &match_url("result"), &pairs(&f))
        .await;
    refused.assert_contains("Board 4: a board forfeited for conduct needs the note");
    assert!(
        refused
            .body
            .contains(r#"<option value="conduct" selected>"#),
        "the form is kept: {}",
        refused.body
    );
    let note = "Kept talking to his team-mate after the referee's warning.";
    f.push(("note_4".into(), note.into()));
    home.post_ok(&app, &match_url("result"), &pairs(&f)).await;
    let page = get(&app, MATCH).await;
    page.assert_contains("Not played: forfeited by the coach (GT-M16).");
    assert_shows(
        &page,
        &format!("Not played: forfeited for conduct: {note} (GT-M17)."),
    );
    let round = get(&app, "/api/v1/leagues/gthscl/2026-27/division-a/rounds/4")
        .await
        .json();
    let boards = round["matches"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["home_id"] == "start")
        .unwrap()["boards"]
        .clone();
    assert_eq!(boards[2]["unplayed"], "coach", "{boards}");
    assert_eq!(boards[3]["unplayed"], "conduct", "{boards}");
    assert_eq!(boards[3]["note"], note, "{boards}");
    // GT-M7: the forfeited boards are not rated; the two played ones are.
    let ratings = get(&app, RATINGS_API).await.json();
    let games_of = |id: &str| rated_games_of(&ratings, id);
    let before = games_of("start3");
    assert_eq!(
        games_of("start1"),
        before + 1,
        "board 1 was played and rated"
    );
    let history = history(&store).await;
    let entry = history
        .iter()
        .find(|h| h.action == "record_result")
        .unwrap();
    let after = entry.after.as_ref().unwrap().to_string();
    assert!(after.contains("\"unplayed\":\"coach\""), "{after}");
}

/// GT-P3, GT-R5, GT-R7: the home advisor records a challenge game with the match, below its
/// boards and outside its score; once the visitors confirm it, it is rated with the day's games. Two players of one school
/// are refused as a challenge (GT-R5), with the form kept; an unranked game is not rated.
#[tokio::test]
async fn gt_p3_gt_r5_a_challenge_game_is_recorded_with_the_match_and_rated() {
    let (store, app, mut home, page) = home_on_the_match().await;
    page.assert_contains("Record an extra game");
    let games_of = rated_games_of;
    let before = get(&app, RATINGS_API).await.json();
    let extra = format!("{MATCH}/extra-games");
    let same = home
        .post_refused(
            &app,
            &extra,
            &extra_game_form("start1", "start2", "1-0", "challenge"),
        )
        .await;
    assert_shows(
        &same,
        "GT-R5: a challenge game is between players of different schools",
    );
    assert!(
        same.body.contains(r#"<option value="start2" selected>"#),
        "the form is kept: {}",
        same.body
    );
    home.post_ok(
        &app,
        &extra,
        &extra_game_form("start4", "scott4", "0-1", "challenge"),
    )
    .await;
    home.post_ok(
        &app,
        &extra,
        &extra_game_form("start3", "start2", "1/2-1/2", "unranked"),
    )
    .await;
    let page = get(&app, MATCH).await;
    assert!(
        page.body.contains("(White) 0–1") && page.body.contains("a challenge game, rated (GT-R5)"),
        "{}",
        page.body
    );
    page.assert_contains("an unranked game, counting for nothing (GT-R7)");
    // Outside the score: the match is still to be reported. The home school entered the
    // challenge game, so it is rated once the visitors confirm it (GT-P3, GT-P2).
    page.assert_contains("Awaiting the result.");
    page.assert_contains(
        "Awaiting confirmation by Scott High School: entered by Start High School",
    );
    let pending = get(&app, RATINGS_API).await.json();
    assert_eq!(games_of(&pending, "scott4"), games_of(&before, "scott4"));
    let mut visitor = Visitor::signed_in(&app, VISITOR).await;
    let page = visitor.get(&app, MATCH).await;
    page.assert_contains("Confirm extra game 1");
    visitor
        .post_ok(&app, &format!("{MATCH}/extra-games/1/confirm"), &[])
        .await;
    let after = get(&app, RATINGS_API).await.json();
    assert_eq!(games_of(&after, "start4"), games_of(&before, "start4") + 1);
    assert_eq!(games_of(&after, "scott4"), games_of(&before, "scott4") + 1);
    assert_eq!(games_of(&after, "start3"), games_of(&before, "start3"));
    let history = history(&store).await;
    assert_eq!(count_of(&history, "record_extra_game"), 2);
    // The visiting school's advisor may record one too.
    assert!(
        visitor
            .get(&app, MATCH)
            .await
            .body
            .contains("Record an extra game")
    );
}

/// Issue 30, GT-P3, GT-P2, GT-R5: an advisor's API token may not rig another school's ratings
/// with extra games. A second game for the same pair (either colours) is refused with GT-P3; the
/// one recorded moves no rating until the other school confirms it, and that school is told by
/// mail; the entering school may not confirm its own; an officer strikes it out with the reason,
/// after which it counts for nothing again, and the history and the page keep the reason.
#[tokio::test]
async fn gt_p3_an_advisors_extra_game_counts_only_once_the_other_school_confirms_it() {
    let store = store().await;
    let (store, _) = setup_on(store).await;
    let dir = crate::notices::mail_dir();
    let app = arbiter_web::router(
        arbiter_web::AppState::new(store.clone())
            .with_freshness(std::time::Duration::ZERO)
            .with_today(jiff::civil::date(2026, 11, 16))
            .with_mail(
                arbiter_mail::Mailer::folder(&dir),
                "https://league.example.org",
            ),
    );
    let home = api_token(&store, HOME, Role::Advisor, Some("Start High School")).await;
    let visitors = api_token(&store, VISITOR, Role::Advisor, Some("Scott High School")).await;
    let vp = api_token(&store, VP, Role::VicePresident, None).await;
    let games_of = |r: &serde_json::Value| rated_games_of(r, "scott1");
    let before = games_of(&get(&app, RATINGS_API).await.json());
    let first = api_post(
        &app,
        "extra-games",
        Some(&home),
        &challenge_json("start1", "scott1", "1-0"),
    )
    .await;
    first.assert_status(StatusCode::CREATED);
    assert_eq!(first.json()["status"], "awaiting_confirmation");
    let again = api_post(
        &app,
        "extra-games",
        Some(&home),
        &challenge_json("scott1", "start1", "0-1"),
    )
    .await;
    again.assert_status(StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        again.body.contains("GT-P3: Zoë O'Brien and ")
            && again.body.contains(
                "already have an extra game with this match (extra game 1), and a pair of players has one extra game a match"
            ),
        "{}",
        again.body
    );
    assert_eq!(
        games_of(&get(&app, RATINGS_API).await.json()),
        before,
        "not rated while it awaits the visitors"
    );
    // The visitors are told, and no one else.
    let mails = crate::notices::wait_for(&dir, 1).await;
    assert_eq!(mails.len(), 1, "{mails:?}");
    assert_eq!(mails[0].0, VISITOR);
    assert!(
        mails[0]
            .1
            .contains("Start High School entered extra game 1 of the match"),
        "{}",
        mails[0].1
    );
    let own = api_post(&app, "extra-games/1/confirm", Some(&home), "").await;
    own.assert_status(StatusCode::UNPROCESSABLE_ENTITY);
    own.assert_contains("GT-P3, GT-P2: Start High School entered this extra game");
    let confirmed = api_post(&app, "extra-games/1/confirm", Some(&visitors), "").await;
    confirmed.assert_status(StatusCode::OK);
    assert_eq!(confirmed.json()["status"], "stands");
    assert_eq!(games_of(&get(&app, RATINGS_API).await.json()), before + 1);
    // An advisor may not strike; an officer may, with the reason.
    let advisor_strike = api_post(
        &app,
        "extra-games/1/strike",
        Some(&visitors),
        r#"{"reason": "no"}"#,
    )
    .await;
    advisor_strike.assert_status(StatusCode::FORBIDDEN);
    let no_reason = api_post(
        &app,
        "extra-games/1/strike",
        Some(&vp),
        r#"{"reason": " "}"#,
    )
    .await;
    no_reason.assert_status(StatusCode::UNPROCESSABLE_ENTITY);
    let struck = api_post(
        &app,
        "extra-games/1/strike",
        Some(&vp),
        r#"{"reason": "The players never met; the game was not played."}"#,
    )
    .await;
    struck.assert_status(StatusCode::OK);
    assert_eq!(struck.json()["status"], "struck");
    assert_eq!(games_of(&get(&app, RATINGS_API).await.json()), before);
    let history = history(&store).await;
    assert!(
        history.iter().any(|h| h.action == "strike_extra_game"
            && h.reason.as_deref() == Some("The players never met; the game was not played.")),
        "{history:?}"
    );
    let page = get(&app, MATCH).await;
    page.assert_contains("Struck out: The players never met; the game was not played.");
    // Struck out, the pair may be entered again (correctly this time).
    let redo = api_post(
        &app,
        "extra-games",
        Some(&visitors),
        &challenge_json("scott1", "start1", "1/2-1/2"),
    )
    .await;
    redo.assert_status(StatusCode::CREATED);
}

/// GT-M6, GT-S3: the home advisor, the referee, reports that the visitors never came although
/// the clocks were started at 16:30: boards entered with that report are refused with the rule;
/// the match forfeited by the visitors is stored with the report, which the page says.
#[tokio::test]
async fn gt_m6_gt_s3_a_team_that_never_came_forfeits_by_the_referees_report() {
    let (store, app, mut home, page) = home_on_the_match().await;
    page.assert_contains("A team came late (GT-M6, GT-S3)");
    let mut f = played_on(&page, ["1-0", "1-0", "1-0", "1-0"]);
    for (k, v) in [
        ("late_team", "away"),
        ("late_day_ends", "15:30"),
        ("late_clocks", "16:30"),
        ("late_arrived", ""),
    ] {
        f.push((k.into(), v.into()));
    }
    let refused = home
        .post_refused(&app, &match_url("result"), &pairs(&f))
        .await;
    assert!(
        refused.body.contains("GT-M6: by the report, ")
            && refused
                .body
                .contains("did not arrive and begin in time, so it forfeits the match"),
        "{}",
        refused.body
    );
    assert!(
        refused.body.contains(r#"name="late_clocks" value="16:30""#),
        "the report is kept: {}",
        refused.body
    );
    // An arrival before the clocks could start is no report at all (GT-S3).
    let mut early = f.clone();
    early.retain(|(k, _)| k != "late_clocks");
    early.push(("late_clocks".into(), "16:00".into()));
    let refused = home.post(&app, &match_url("result"), &pairs(&early)).await;
    refused.assert_contains("GT-S3: the clocks may be started");
    f.retain(|(k, _)| k != "forfeit");
    f.push(("forfeit".into(), "away".into()));
    home.post_ok(&app, &match_url("result"), &pairs(&f)).await;
    let page = get(&app, MATCH).await;
    assert_shows(
        &page,
        "school day ended at 15:30; the clocks were started without it at 16:30; it never arrived. It did not arrive and begin in time, so it forfeits the match (GT-M6, GT-S3).",
    );
    let m = store
        .load_competition("gthscl", "division-a")
        .await
        .unwrap()
        .unwrap();
    let stored = m
        .competition
        .matches()
        .find(|(r, x)| *r == 4 && x.home.0 == "start")
        .unwrap()
        .1
        .late
        .unwrap();
    assert_eq!(stored.arrived, None);
    assert_eq!(stored.team, arbiter_core::Side::Away);
}

/// The moves of board 3's game when play stopped, and the position they reach.
const ADJ_PGN: &str = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6";
const ADJ_FEN: &str = "r1bqkbnr/1ppp1ppp/p1n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 4";

/// GT-M20: the home advisor enters a match with board 3 sent for adjudication and board 4
/// adjourned; an illegal move is refused by its number; the advisor may not decide the
/// adjudication; the President whose school plays may not either (GT-O3); the Vice-President
/// sees the diagram and decides; the home advisor enters the adjourned game's result; only then
/// does the match count. Each step is a version in the history.
#[tokio::test]
async fn gt_m20_an_adjourned_game_and_an_adjudication_settle_the_match() {
    let (store, app, mut home, page) = home_on_the_match().await;
    page.assert_contains("Not finished (GT-M20)");
    let mut f = played_on(&page, ["1-0", "0-1", "*", "*"]);
    f.push(("adjourned_4".into(), "2026-11-18".into()));
    f.push(("hclock_3".into(), "0:04:10".into()));
    f.push(("aclock_3".into(), "0:07:55".into()));
    f.push(("fen_3".into(), ADJ_FEN.into()));
    // An illegal move first: refused, named by its number, the form kept.
    f.push(("pgn_3".into(), "1. e4 e5 2. Nf3 Nc6 3. Bb5 Ke6".into()));
    let bad = home
        .post_refused(&app, &match_url("result"), &pairs(&f))
        .await;
    assert_shows(&bad, "Move 3... Ke6 is not legal for Black");
    assert!(
        bad.body.contains("0:07:55"),
        "the form is kept: {}",
        bad.body
    );
    f.pop();
    f.push(("pgn_3".into(), ADJ_PGN.into()));
    home.post_ok(&app, &match_url("result"), &pairs(&f)).await;

    let page = get(&app, MATCH).await;
    assert_shows(&page, "Sent to the President for adjudication (GT-M20)");
    page.assert_contains("Adjourned to Wed 18 Nov 2026 (GT-M20)");
    page.assert_contains("<svg class=\"diagram\"");
    assert!(page.body.contains("0:04:10") && page.body.contains("White to move"));
    // Unfinished games: the match does not count yet.
    let standings = get(&app, STANDINGS_API).await.json();
    let played_of = |s: &serde_json::Value, id: &str| {
        s["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["team_id"] == id)
            .map(|r| r["values"].clone())
            .unwrap()
    };
    let before = played_of(&standings, "start");

    // The advisor may not give the adjudicated game a result by re-entering the match.
    let page = home.get(&app, MATCH).await;
    let mut g = played_on(&page, ["1-0", "0-1", "1-0", "*"]);
    g.push(("adjourned_4".into(), "2026-11-18".into()));
    g.push(("fen_3".into(), ADJ_FEN.into()));
    g.push(("pgn_3".into(), ADJ_PGN.into()));
    let own = home
        .post_refused(&app, &match_url("result"), &pairs(&g))
        .await;
    assert_shows(
        &own,
        "only the President decides it (the Vice-President when the President's school plays; GT-M20, GT-O3)",
    );

    // GT-O3: the President's own school plays; the Vice-President adjudicates.
    let mut president = Visitor::signed_in(&app, PRESIDENT).await;
    let page = president.get(&app, MATCH).await;
    page.assert_lacks(&match_url("adjudication"));
    let mut vp = Visitor::signed_in(&app, VP).await;
    let page = vp.get(&app, MATCH).await;
    page.assert_contains("Decide board 3");
    let version = version_field(&page.body);
    let no_reason = vp
        .post_refused(
            &app,
            &match_url("adjudication"),
            &[("board", "3"), ("result", "1/2-1/2"), ("version", &version)],
        )
        .await;
    assert!(shows(
        &no_reason.body,
        "GT-M20's adjudication is kept with its reason"
    ));
    vp.post_ok(
        &app,
        &match_url("adjudication"),
        &[
            ("board", "3"),
            ("result", "1/2-1/2"),
            ("version", &version),
            (
                "reason",
                "Material is level and neither side can make progress.",
            ),
        ],
    )
    .await;
    let page = get(&app, MATCH).await;
    assert_shows(&page, "Adjudicated (GT-M20): drawn.");
    // Board 4 still waits: the match does not count yet.
    let standings = get(&app, STANDINGS_API).await.json();
    assert_eq!(played_of(&standings, "start"), before);

    // The home advisor enters the adjourned game once it is finished.
    let page = home.get(&app, MATCH).await;
    assert!(
        page.body.contains("Enter board 4&#39;s result")
            || page.body.contains("Enter board 4's result"),
        "{}",
        page.body
    );
    home.post_ok(
        &app,
        &match_url("adjourned-game"),
        &[
            ("board", "4"),
            ("result", "0-1"),
            ("version", &version_field(&page.body)),
        ],
    )
    .await;
    let page = get(&app, MATCH).await;
    page.assert_contains("Adjourned to Wed 18 Nov 2026 and finished then: won by");
    assert!(
        page.body.contains("2½–1½") || page.body.contains("1½–2½"),
        "{}",
        page.body
    );
    let standings = get(&app, STANDINGS_API).await.json();
    assert_ne!(
        played_of(&standings, "start"),
        before,
        "the match counts now"
    );
    let history = history(&store).await;
    assert_eq!(
        count_of(&history, "record_result"),
        3,
        "entered, adjudicated, finished"
    );
}

/// GT-M20: either school's advisor uploads a finished game's moves; an illegal move and a
/// result other than the board's are refused; the game is on the match page, downloadable,
/// and on both players' pages with its final position.
#[tokio::test]
async fn gt_m20_a_game_score_is_uploaded_checked_and_shown_on_the_players_pages() {
    let (store, app) = setup().await;
    home_entered(&app, ["1-0", "1-0", "1-0", "1/2-1/2"]).await;
    let mut visitor = Visitor::signed_in(&app, VISITOR).await;
    let page = visitor.get(&app, MATCH).await;
    assert!(
        page.body.contains("Upload a game&#39;s moves")
            || page.body.contains("Upload a game's moves"),
        "{}",
        page.body
    );
    let upload = format!("{MATCH}/game-scores");
    let illegal = visitor
        .post_refused(
            &app,
            &upload,
            &[("board", "1"), ("pgn", "1. e4 e5 2. Qh5 Ke6 1-0")],
        )
        .await;
    assert_shows(&illegal, "Move 2... Ke6 is not legal for Black");
    // Board 1 is 1-0 for the home player, who has Black on odd boards (GT-M18): a draw, or
    // White winning, is another game.
    for (pgn, ends) in [
        ("1. e4 e5 1/2-1/2", "1/2-1/2"),
        ("1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0", "1-0"),
    ] {
        let other = visitor
            .post_refused(&app, &upload, &[("board", "1"), ("pgn", pgn)])
            .await;
        assert_shows(
            &other,
            &format!("the PGN ends {ends}, but the board's result is 1–0"),
        );
    }
    let pgn = "[White \"Scott 1\"]\n[Black \"Start 1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1";
    visitor
        .post_ok(&app, &upload, &[("board", "1"), ("pgn", pgn)])
        .await;
    let page = get(&app, MATCH).await;
    page.assert_contains("Download the game (PGN)");
    let file = get_ok(&app, &format!("{MATCH}/boards/1/game.pgn")).await;
    file.assert_contains("2. g4 Qh4# 0-1");
    assert_eq!(
        get(&app, &format!("{MATCH}/boards/2/game.pgn"))
            .await
            .status,
        StatusCode::NOT_FOUND
    );
    for player in ["start1", "scott1"] {
        let p = get(
            &app,
            &format!("/leagues/gthscl/2026-27/division-a/players/{player}"),
        )
        .await;
        assert!(p.body.contains("Game scores"), "{player}: {}", p.body);
        assert!(p.body.contains("<svg class=\"diagram\""), "{player}");
    }
    let history = history(&store).await;
    assert!(history.iter().any(|h| h.action == "upload_game_score"));
}

/// GT-M5, issue 31: a dropped team's match still to play is not played, and every part says so:
/// the match page (no form to enter or move it), the write path (a result, or GT-P4's double
/// forfeit that would take the opponent's forfeit win, refused), the home advisor's tasks.
#[tokio::test]
async fn gt_m5_a_dropped_teams_match_is_not_played_and_nothing_asks_for_its_result() {
    let store = store().await;
    advisor(&store, "waite@gthscl.example", "Waite High School").await;
    account(&store, "vp@gthscl.example", Role::VicePresident, None).await;
    let app = app_on(&store, jiff::civil::date(2026, 11, 20));
    const DROPPED: &str = "/leagues/gthscl/2026-27/division-a/rounds/4/matches/drop";
    let public = get_ok(&app, DROPPED).await;
    assert_shows(
        &public,
        "Not played: Waite Dropouts was dropped from the league after its match forfeit in round 3 (GT-M5)",
    );
    let mut waite = Visitor::signed_in(&app, "waite@gthscl.example").await;
    let page = waite.get(&app, DROPPED).await;
    page.assert_lacks(&format!(r#"action="{DROPPED}/result""#));
    page.assert_lacks(&format!(r#"action="{DROPPED}/move""#));
    let account = waite.get(&app, "/account").await;
    account.assert_lacks(DROPPED);
    let mut vp = Visitor::signed_in(&app, "vp@gthscl.example").await;
    let late = vp
        .post(
            &app,
            &format!("{DROPPED}/late-report"),
            &[("reason", "No result reported")],
        )
        .await;
    assert!(late.status.is_client_error(), "{}", late.body);
    assert_shows(&late, "(GT-M5)");
    // A subscribed calendar strikes the match out; the others stay confirmed.
    let feed = get(&app, "/leagues/gthscl/2026-27/division-a/schedule.ics").await;
    let unfolded = feed.body.replace("\r\n ", "");
    let dropped = unfolded
        .split("BEGIN:VEVENT")
        .find(|e| e.contains("r4-drop@arbiter"))
        .unwrap_or_else(|| panic!("{unfolded}"));
    assert!(dropped.contains("STATUS:CANCELLED"), "{dropped}");
    assert!(dropped.contains("GT-M5"), "{dropped}");
    let start = unfolded
        .split("BEGIN:VEVENT")
        .find(|e| e.contains("r4-start@arbiter"))
        .unwrap();
    assert!(!start.contains("STATUS:CANCELLED"), "{start}");
}

#[tokio::test]
async fn gt_p2_either_school_asks_for_a_correction_after_confirmation_and_an_officer_decides() {
    let (store, app) = setup().await;
    let mut home = home_entered(&app, ["1-0", "1-0", "1-0", "1/2-1/2"]).await;
    let mut visitor = Visitor::signed_in(&app, VISITOR).await;
    let v = version_field(&visitor.get(&app, MATCH).await.body);
    visitor
        .post_ok(&app, &match_url("confirm"), &[("version", &v)])
        .await;

    // Confirmed, yet either school may still ask, until five days after Mon 16 Nov's entry.
    let page = home.get(&app, MATCH).await;
    let ask = format!(r#"action="{MATCH}/correction-request""#);
    page.assert_contains(&ask);
    page.assert_contains(
        "Either school may ask for a correction of this result until Sat 21 Nov 2026",
    );
    assert!(
        !get(&app, MATCH).await.body.contains(&ask),
        "not the public"
    );
    // A request says what is wrong.
    let a = home
        .post_refused(
            &app,
            &match_url("correction-request"),
            &with_reason(&v, " "),
        )
        .await;
    a.assert_contains("A request for a correction needs its reason (GT-P2)");
    home.post_ok(
        &app,
        &match_url("correction-request"),
        &with_reason(&v, "Board 4 was won by Start, not drawn."),
    )
    .await;
    let page = get(&app, MATCH).await;
    page.assert_contains(&format!(
        "A correction of version {v} of the result was asked for"
    ));
    page.assert_contains(&format!("Correction of version {v} asked for"));
    // Asked once: the other school is told so, not asked again.
    let a = visitor
        .post_refused(
            &app,
            &match_url("correction-request"),
            &with_reason(&v, "Also board 2."),
        )
        .await;
    a.assert_contains("has been asked for");

    // GT-O3: the President's school asked, so the Vice-President decides, with its reason shown.
    let mut vp = Visitor::signed_in(&app, VP).await;
    let page = vp.get(&app, MATCH).await;
    page.assert_contains("Decide the correction asked for");
    page.assert_contains("Board 4 was won by Start, not drawn.");
    vp.post_ok(
        &app,
        &match_url("decision"),
        &with_reason(&v, "Both scoresheets show board 4 drawn."),
    )
    .await;
    let page = get(&app, MATCH).await;
    page.assert_contains(&format!(
            "The Vice-President kept version {v} after a correction of it was asked for: the result stands (GT-P2, GT-O3)."
        ));
    page.assert_contains(&format!(
        "Correction of version {v} decided: the result stands"
    ));

    // The visiting school asks through the API on the fifth day; on the sixth it is too late.
    let token = school_token(&store, VISITOR, Role::Advisor, Some("Scott High School")).await;
    let late = app_on(&store, jiff::civil::date(2026, 11, 22));
    let a = api_post(
        &late,
        "correction-request",
        Some(&token),
        r#"{"reason": "Board 2 was ours."}"#,
    )
    .await;
    a.assert_status(StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        a.json()["error"]["refusal"],
        "correction_too_late",
        "{}",
        a.body
    );
    a.assert_contains("Sat 21 Nov 2026");
    let last_day = app_on(&store, jiff::civil::date(2026, 11, 21));
    let a = api_post(
        &last_day,
        "correction-request",
        Some(&token),
        r#"{"reason": "Board 2 was ours."}"#,
    )
    .await;
    a.assert_status(StatusCode::CREATED);
    assert_eq!(a.json()["kind"], "correction_requested", "{}", a.body);
    // Every step is in the history, with who asked and why.
    let history = history(&store).await;
    let asked: Vec<_> = history
        .iter()
        .filter(|e| e.action == "request_correction")
        .collect();
    assert_eq!(asked.len(), 2, "{history:?}");
    assert!(
        asked
            .iter()
            .any(|e| e.reason.as_deref() == Some("Board 4 was won by Start, not drawn."))
    );
}

/// GT-M5, GT-M3: the officer is warned before the forfeit that drops a team, takes it only
/// knowingly, and may withdraw it by a new version: the team is back, everything recomputed.
#[tokio::test]
async fn gt_m5_the_president_is_warned_before_a_drop_and_a_forfeit_by_decision_is_withdrawn() {
    let store = store().await;
    account(&store, VP, Role::VicePresident, None).await;
    let vp_token = school_token(&store, "vp2@gthscl.example", Role::VicePresident, None).await;
    let app = app_on(&store, jiff::civil::date(2026, 11, 20));
    const ROUND_2: &str = "/api/v1/leagues/gthscl/2026-27/division-a/rounds/2/matches/start";
    // Round 2's forfeit was a mistake: the match was played. Waite has one match forfeit left.
    let boards: Vec<String> = (1..=4)
        .map(|n| {
            format!(
                r#"{{"board": {n}, "result": "1-0", "home_player": "start{n}", "away_player": "drop{n}"}}"#
            )
        })
        .collect();
    let body = format!(
        r#"{{"boards": [{}], "reason": "The match was played; the scoresheet came late."}}"#,
        boards.join(",")
    );
    let a = send(
        &app,
        json_request(&format!("{ROUND_2}/correction"), &vp_token, body),
    )
    .await;
    a.assert_status(StatusCode::CREATED);

    const M: &str = "/leagues/gthscl/2026-27/division-a/rounds/4/matches/drop";
    let mut vp = Visitor::signed_in(&app, VP).await;
    let page = vp.get(&app, M).await;
    let warning = "GT-M5: this gives Waite Dropouts 2 match forfeits, and a team is dropped from the league at 2, so Waite Dropouts is dropped";
    assert!(shows(&page.body, warning), "{}", page.body);
    page.assert_contains(r#"name="acknowledge_drop""#);
    let v = version_field(&page.body);
    let forfeit = |ack: bool| {
        let mut f = vec![
            ("version", v.clone()),
            ("offender", "home".to_string()),
            (
                "reason",
                "Waite could not field a team on any day offered.".to_string(),
            ),
        ];
        if ack {
            f.push(("acknowledge_drop", "yes".to_string()));
        }
        f
    };
    let f = forfeit(false);
    let sent: Vec<(&str, &str)> = f.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let a = vp.post_refused(&app, &format!("{M}/forfeit"), &sent).await;
    assert!(shows(&a.body, warning), "{}", a.body);
    assert_shows(&a, "Nothing was saved");
    let table = get(&app, "/leagues/gthscl/2026-27/division-a").await;
    assert!(
        !shows(&table.body, "Waite Dropouts was dropped"),
        "{}",
        table.body
    );

    let f = forfeit(true);
    let sent: Vec<(&str, &str)> = f.iter().map(|(k, v)| (*k, v.as_str())).collect();
    vp.post_ok(&app, &format!("{M}/forfeit"), &sent).await;
    let table = get(&app, "/leagues/gthscl/2026-27/division-a").await;
    assert_shows(&table, "Waite Dropouts was dropped (GT-M5)");

    // The officer withdraws the decision: a new version with no result, with the reason.
    let page = vp.get(&app, M).await;
    page.assert_contains(&format!(r#"action="{M}/penalty-withdrawal""#));
    let v = version_field(&page.body);
    vp.post_ok(
        &app,
        &format!("{M}/penalty-withdrawal"),
        &with_reason(&v, "Waite found a day after all."),
    )
    .await;
    let page = get(&app, M).await;
    page.assert_contains("Awaiting the result.");
    page.assert_contains("Waite found a day after all.");
    let table = get(&app, "/leagues/gthscl/2026-27/division-a").await;
    assert!(
        !shows(&table.body, "Waite Dropouts was dropped"),
        "{}",
        table.body
    );
    // A result entered as played is no penalty to withdraw.
    let withdrawal = json_request(
        &format!("{ROUND_2}/penalty-withdrawal"),
        &vp_token,
        r#"{"reason": "No."}"#,
    );
    let a = send(&app, withdrawal).await;
    a.assert_status(StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(a.json()["error"]["refusal"], "no_penalty", "{}", a.body);
}

/// Issue 31 item 8, GT-M11: a player has one rating on the match page, the match day's, which
/// board order reads and every message states, and the table says which it is.
#[tokio::test]
async fn gt_m11_the_boards_table_shows_the_match_days_rating_with_its_label() {
    let (_store, app, mut home, page) = home_on_the_match().await;
    // The form's choice names Eli Stone with the rating of the match day.
    let marker = r#"<option value="start2" selected>Eli Stone ("#;
    let at = page.body.find(marker).expect("Eli Stone on board 2") + marker.len();
    let on_the_day = &page.body[at..at + page.body[at..].find(')').unwrap()];
    assert_ne!(on_the_day, "1550", "rounds 1-3 moved the roster's 1550");
    enter_ok(&app, &mut home, ["1-0", "1-0", "1-0", "1/2-1/2"]).await;
    let page = get(&app, MATCH).await;
    page.assert_contains(r#"<th scope="col" class="num">Rating on 16 Nov</th>"#);
    let row = page
        .body
        .split("<tr>")
        .find(|r| r.contains(">Eli Stone</a>"))
        .unwrap_or_else(|| panic!("{}", page.body));
    assert!(
        row.contains(&format!(r#"<td class="num">{on_the_day}</td>"#)),
        "{row}"
    );
    assert!(!row.contains(r#"<td class="num">1550</td>"#), "{row}");
}

/// Issue 32 item 14 (GT-P2): an entry refused because another got in first comes back with what
/// was typed, said in the notice and kept in the form on the version now in force, to check
/// against the other and send again.
#[tokio::test]
async fn gt_p2_an_entry_another_got_in_before_comes_back_as_typed() {
    let (_store, app) = setup().await;
    let mut phone = Visitor::signed_in(&app, HOME).await;
    let mut laptop = Visitor::signed_in(&app, HOME).await;
    let page = phone.get(&app, MATCH).await;
    let seen = version_field(&page.body);
    let first = enter(&app, &mut laptop, ["1-0", "1-0", "1-0", "1-0"]).await;
    first.assert_status(StatusCode::SEE_OTHER);

    let f = played_at(&seen, ["1-0", "1-0", "1/2-1/2", "0-1"]);
    let in_force = (seen.parse::<u32>().unwrap() + 1).to_string();
    let late = phone
        .post_expect(&app, &match_url("result"), &pairs(&f), StatusCode::CONFLICT)
        .await;
    late.assert_contains("What you sent, board 1 first, Start Spartans first: 1–0 1–0 ½–½ 0–1");
    // The form holds it, on the version now in force: sent again as it is, it is stored.
    late.assert_contains(r#"<option value="1/2-1/2" selected>"#);
    assert_eq!(version_field(&late.body), in_force);
    let again = phone
        .post(
            &app,
            &match_url("result"),
            &pairs(&played_at(&in_force, ["1-0", "1-0", "1/2-1/2", "0-1"])),
        )
        .await;
    again.assert_status(StatusCode::SEE_OTHER);
    let page = phone.get(&app, MATCH).await;
    page.assert_contains("2½–1½");
}

/// GT-M5, issue 32 item 8: a drop is undone where a person looks for it. The dropped team's page
/// links to the match forfeit that dropped it, whose correction form the officer finds there;
/// the correction (a new version, with the reason) brings the team back in the standings, its
/// fixtures and the calendar.
#[tokio::test]
async fn gt_m5_the_dropped_teams_page_leads_to_the_correction_that_brings_it_back() {
    let (_store, app) = setup().await;
    const TEAM: &str = "/leagues/gthscl/2026-27/division-a/teams/drop";
    const FORFEIT: &str = "/leagues/gthscl/2026-27/division-a/rounds/3/matches/drop";
    const TABLE: &str = "/leagues/gthscl/2026-27/division-a";
    const FEED: &str = "/leagues/gthscl/2026-27/division-a/schedule.ics";
    let cancelled = |feed: &str| {
        let unfolded = feed.replace("\r\n ", "");
        unfolded
            .split("BEGIN:VEVENT")
            .find(|e| e.contains("r4-drop@arbiter"))
            .unwrap_or_else(|| panic!("{unfolded}"))
            .contains("STATUS:CANCELLED")
    };
    let team = get(&app, TEAM).await;
    assert_shows(&team, "Waite Dropouts was dropped (GT-M5)");
    team.assert_contains(&format!("href=\"{FORFEIT}#correct\""));
    team.assert_contains("The match forfeit of round 3, Waite Dropouts v Zoë");
    assert!(cancelled(&get(&app, FEED).await.body));

    // The officer follows the link: the correction form is there.
    let mut vp = Visitor::signed_in(&app, VP).await;
    let page = vp.get(&app, FORFEIT).await;
    assert!(
        page.body.contains("id=\"correct\"")
            && page
                .body
                .contains(&format!(r#"action="{FORFEIT}/correction""#)),
        "{}",
        page.body
    );
    let mut f = vec![("forfeit".to_string(), String::new())];
    for n in 1..=4 {
        f.push((format!("home_{n}"), format!("drop{n}")));
        f.push((format!("result_{n}"), "0-1".to_string()));
        f.push((format!("away_{n}"), format!("scott{n}")));
        f.push((format!("rating_{n}"), String::new()));
    }
    f.push(("version".into(), version_field(&page.body)));
    f.push((
        "reason".into(),
        "Entered as a forfeit by mistake: the match was played.".into(),
    ));
    vp.post_ok(&app, &format!("{FORFEIT}/correction"), &pairs(&f))
        .await;

    // Back everywhere: its page, the table, the calendar.
    let team = get(&app, TEAM).await;
    assert!(!shows(&team.body, "was dropped"), "{}", team.body);
    team.assert_lacks(&format!("{FORFEIT}#correct"));
    let table = get(&app, TABLE).await;
    assert!(
        !shows(&table.body, "Waite Dropouts was dropped"),
        "{}",
        table.body
    );
    assert!(!cancelled(&get(&app, FEED).await.body));
    let history = vp.get(&app, &format!("{FORFEIT}/history")).await;
    history.assert_contains("Entered as a forfeit by mistake: the match was played.");
}
