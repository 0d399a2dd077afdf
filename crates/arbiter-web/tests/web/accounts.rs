//! Accounts end to end (issue 5): an officer invites an advisor through a real SMTP server
//! (a sink the test starts), the advisor signs up from the mailed link and sees only their own
//! school's controls; invitations and reset links work once; sign-in changes the session id
//! and is throttled per account and per address.

use std::time::Duration;

use arbiter_core::rules::permissions::Role;
use arbiter_core::{Pairing, TeamId};
use arbiter_mail::Mailer;
use arbiter_mail::sink::SmtpSink;
use arbiter_store::{Actor, NewInvite, Store};
use arbiter_web::{AppState, router};
use axum::Router;
use axum::http::StatusCode;
use jiff::civil::date;

use crate::common::*;

fn app_with_mail(store: &arbiter_store::Store, sink: &SmtpSink) -> Router {
    router(
        AppState::new(store.clone())
            .with_freshness(Duration::ZERO)
            .with_today(date(2026, 11, 16))
            .with_mail(Mailer::smtp(sink.config()), "https://league.example.org"),
    )
}

/// A store holding the account `email` as `role`, and the site on it mailing through a new sink.
async fn mailing_site_with(email: &str, role: Role) -> (SmtpSink, Store, Router) {
    let sink = SmtpSink::start().await;
    let store = store().await;
    let app = app_with_mail(&store, &sink);
    account(&store, email, role, None).await;
    (sink, store, app)
}

/// A store holding the account `email` as `role`, and the site on it (sending no mail).
async fn site_with(email: &str, role: Role) -> (Store, Router) {
    let store = store().await;
    let app = app(&store);
    account(&store, email, role, None).await;
    (store, app)
}

/// The sign-in form's fields for `email` with the right password.
fn sign_in_as(email: &str) -> [(&str, &str); 2] {
    [("email", email), ("password", PASSWORD)]
}

/// The new-password form's fields: `password`, typed twice.
fn password_twice(password: &str) -> [(&str, &str); 2] {
    [("password", password), ("password_again", password)]
}

/// A new visitor who has opened the reset page (and so holds its form token).
async fn on_the_reset_page(app: &Router) -> Visitor {
    let mut v = Visitor::new(app).await;
    v.get(app, "/reset").await;
    v
}

/// `v` asks for a reset link for `email`, failing unless the answer has `status`.
async fn ask_reset(app: &Router, v: &mut Visitor, email: &str, status: StatusCode) -> Answer {
    v.post_expect(app, "/reset", &[("email", email)], status)
        .await
}

/// The first link to `path_start` in a mail's text, as a path on the site.
fn link_in(text: &str, path_start: &str) -> String {
    let prefix = format!("https://league.example.org{path_start}");
    let i = text
        .find(&prefix)
        .unwrap_or_else(|| panic!("no {prefix} link in: {text}"));
    let rest = &text[i + "https://league.example.org".len()..];
    rest.split_whitespace().next().unwrap().to_string()
}

/// Round 4's matches: (home, away) team ids.
async fn round_four(store: &arbiter_store::Store) -> Vec<(TeamId, TeamId)> {
    let c = store
        .load_competition("gthscl", "division-a")
        .await
        .unwrap()
        .unwrap();
    c.competition
        .rounds
        .iter()
        .find(|r| r.number == 4)
        .unwrap()
        .pairings
        .iter()
        .filter_map(|p| match p {
            Pairing::Match(m) => Some((m.home.clone(), m.away.clone())),
            Pairing::Bye(_) => None,
        })
        .collect()
}

#[tokio::test]
async fn an_officer_invites_an_advisor_who_signs_up_and_sees_only_their_schools_controls() {
    let (sink, store, app) = mailing_site_with("president@gthscl.example", Role::President).await;

    // The President invites Start's advisor from the People page.
    let mut president = Visitor::signed_in(&app, "president@gthscl.example").await;
    let people = president.get_ok(&app, "/leagues/gthscl/people").await;
    assert!(
        people.body.contains("Start High School"),
        "the schools are offered"
    );
    president
        .post_ok(
            &app,
            "/leagues/gthscl/invites",
            &[
                ("email", "Advisor@Start.example"),
                ("role", "advisor"),
                ("school", "Start High School"),
            ],
        )
        .await;
    let mails = sink.wait_for(1, Duration::from_secs(10)).await;
    assert_eq!(mails[0].to, vec!["advisor@start.example".to_string()]);
    let invite = link_in(&mails[0].text(), "/invites/");
    let people = president.get(&app, "/leagues/gthscl/people").await;
    people.assert_contains("advisor@start.example");

    // The advisor opens the link, chooses a name and password, and is signed in.
    let mut advisor = Visitor::new(&app).await;
    let form = advisor.get_ok(&app, &invite).await;
    form.assert_contains("Advisor of Start High School");
    let short = advisor
        .post_refused(
            &app,
            &invite,
            &[
                ("name", "Ann Advisor"),
                ("password", "short"),
                ("password_again", "short"),
            ],
        )
        .await;
    short.assert_contains("at least 10 characters");
    let joined = advisor
        .post_ok(
            &app,
            &invite,
            &[
                ("name", "Ann Advisor"),
                ("password", PASSWORD),
                ("password_again", PASSWORD),
            ],
        )
        .await;
    assert_eq!(joined.header("location"), "/account");
    let mine = advisor.get(&app, "/account").await;
    assert!(mine.body.contains("Advisor") && mine.body.contains("Start High School"));
    // Issue 16: an advisor's program reports through the API with a token acting for the school.
    assert!(
        mine.body.contains("API tokens") && mine.body.contains("Advisor of Start High School"),
        "an advisor makes tokens acting for their school"
    );

    // The link worked once.
    let mut again = Visitor::new(&app).await;
    let reused = again.get_expect(&app, &invite, StatusCode::GONE).await;
    reused.assert_contains("works once");

    // Controls: the advisor's own home match has the result form; a match of two other
    // schools has none; the public sees no form at all.
    let matches = round_four(&store).await;
    // Round 4: Start hosts Scott.
    let own = matches.iter().find(|(h, _)| h.0 == "start").unwrap();
    let other = matches
        .iter()
        .find(|(h, a)| h.0 != "start" && a.0 != "start")
        .unwrap();
    let href = |(h, _): &(TeamId, TeamId)| format!("{DIVISION}/rounds/4/matches/{}", h.0);
    let own_page = advisor.get_ok(&app, &href(own)).await;
    assert!(
        own_page.body.contains("/result\""),
        "the home advisor enters: {}",
        own_page.body
    );
    let other_page = advisor.get(&app, &href(other)).await;
    assert!(
        !other_page
            .body
            .contains("<form method=\"post\" action=\"/leagues"),
        "no controls on another school's match: {}",
        other_page.body
    );
    let public = get_ok(&app, &href(own)).await;
    assert!(
        !public.body.contains("<form"),
        "the public sees no controls"
    );
    // And the advisor cannot invite.
    advisor
        .get_expect(&app, "/leagues/gthscl/people", StatusCode::FORBIDDEN)
        .await;
}

#[tokio::test]
async fn an_expired_invitation_says_so() {
    let store = store().await;
    let app = app(&store);
    let league = store.league("gthscl").await.unwrap().unwrap();
    let (_, token) = store
        .create_invite(
            &NewInvite {
                email: "late@school.example".into(),
                league: league.id,
                role: Role::Secretary,
                school: None,
                valid_for: jiff::SignedDuration::from_millis(1),
            },
            &Actor::system(),
        )
        .await
        .unwrap();
    tokio::time::sleep(Duration::from_millis(20)).await;
    let mut v = Visitor::new(&app).await;
    let page = v
        .get_expect(&app, &format!("/invites/{token}"), StatusCode::GONE)
        .await;
    page.assert_contains("expired");
    v.post_expect(
        &app,
        &format!("/invites/{token}"),
        &[
            ("name", "Late"),
            ("password", PASSWORD),
            ("password_again", PASSWORD),
        ],
        StatusCode::GONE,
    )
    .await;
    assert!(
        store
            .user_by_email(
                &arbiter_core::record::text::Email::parse("late@school.example").unwrap()
            )
            .await
            .unwrap()
            .is_none()
    );
}

#[tokio::test]
async fn a_reset_link_sets_a_new_password_once_and_ends_other_sessions() {
    let (sink, _store, app) = mailing_site_with("sec@gthscl.example", Role::Secretary).await;
    let mut elsewhere = Visitor::signed_in(&app, "sec@gthscl.example").await;

    let mut v = on_the_reset_page(&app).await;
    let asked = ask_reset(&app, &mut v, "sec@gthscl.example", StatusCode::OK).await;
    // The same answer for an address with no account: it says nothing about who has one.
    let unknown = v
        .post(&app, "/reset", &[("email", "nobody@gthscl.example")])
        .await;
    assert_eq!(
        asked.body.replace("sec@gthscl.example", "X"),
        unknown.body.replace("nobody@gthscl.example", "X")
    );
    let mails = sink.wait_for(1, Duration::from_secs(10)).await;
    assert_eq!(mails.len(), 1, "only the real account gets mail");
    let link = link_in(&mails[0].text(), "/reset/");
    v.get(&app, &link).await;
    let new_password = "a brand new passphrase";
    v.post_ok(&app, &link, &password_twice(new_password)).await;
    // Used once; a second use is refused.
    let mut w = Visitor::new(&app).await;
    w.get(&app, &link).await;
    w.post_expect(&app, &link, &password_twice(new_password), StatusCode::GONE)
        .await;
    // The session signed in with the old password has ended.
    let old = elsewhere.get(&app, "/account").await;
    assert!(to_sign_in(&old), "old session still works: {}", old.status);
}

#[tokio::test]
async fn sign_in_gives_a_new_session_id_and_sign_out_ends_it() {
    let (_store, app) = site_with("arb@gthscl.example", Role::Arbiter).await;
    let mut v = Visitor::new(&app).await;
    let before = v.cookie.clone().expect("the sign-in form starts a session");
    let signed = v
        .post_ok(&app, "/sign-in", &sign_in_as("arb@gthscl.example"))
        .await;
    let set_cookie = signed.header("set-cookie");
    assert!(set_cookie.contains("HttpOnly"), "{set_cookie}");
    assert!(set_cookie.contains("SameSite=Lax"), "{set_cookie}");
    let after = v.cookie.clone().unwrap();
    assert_ne!(
        before, after,
        "session fixation: the id must change at sign-in"
    );
    // The old id is no longer signed in (an attacker who planted it gains nothing).
    let mut planted = v.clone();
    planted.cookie = Some(before);
    assert!(to_sign_in(&planted.get(&app, "/account").await));
    assert_eq!(v.get(&app, "/account").await.status, StatusCode::OK);
    v.post_ok(&app, "/sign-out", &[]).await;
    assert!(to_sign_in(&v.get(&app, "/account").await));
}

/// One rule for an email address everywhere (core's `Email`): the sign-in form refuses what
/// is not one with the sentence, and finds an account by the address in any case and spacing.
#[tokio::test]
async fn sign_in_reads_the_email_by_the_one_rule() {
    let (_store, app) = site_with("arb@gthscl.example", Role::Arbiter).await;
    let mut v = Visitor::new(&app).await;
    let refused = v
        .post_refused(&app, "/sign-in", &sign_in_as("arb gthscl.example"))
        .await;
    refused.assert_contains("is not an email address: it has no @");
    v.post_ok(&app, "/sign-in", &sign_in_as("  ARB@Gthscl.Example "))
        .await;
}

#[tokio::test]
async fn a_strangers_failed_guesses_never_stop_the_right_password_from_another_address() {
    let (_store, app) = site_with("vp@gthscl.example", Role::VicePresident).await;
    let wrong = [("email", "vp@gthscl.example"), ("password", "wrong guess!")];
    // Guesses from twenty addresses, and five from one: only that one is paused.
    for _ in 0..20 {
        let a = Visitor::new(&app)
            .await
            .post(&app, "/sign-in", &wrong)
            .await;
        a.assert_status(StatusCode::UNAUTHORIZED);
    }
    let mut stranger = Visitor::new(&app).await;
    for _ in 0..5 {
        let a = stranger
            .post_expect(&app, "/sign-in", &wrong, StatusCode::UNAUTHORIZED)
            .await;
        a.assert_contains("do not match");
    }
    let right = sign_in_as("vp@gthscl.example");
    let paused = stranger
        .post_expect(&app, "/sign-in", &right, StatusCode::TOO_MANY_REQUESTS)
        .await;
    paused.assert_contains("from your address in the last 15 minutes");
    // The page says when: a clock time and the minutes to it, and Retry-After in seconds.
    paused.assert_contains("UTC, in 15 minutes");
    let retry: u64 = paused.header("retry-after").parse().unwrap();
    assert!((850..=901).contains(&retry), "Retry-After: {retry}");

    let mut owner = Visitor::new(&app).await;
    owner.post_ok(&app, "/sign-in", &right).await;
}

#[tokio::test]
async fn reset_requests_have_their_own_limit_and_never_pause_signing_in() {
    let (sink, _store, app) = mailing_site_with("vp@gthscl.example", Role::VicePresident).await;
    let mut stranger = on_the_reset_page(&app).await;
    for _ in 0..3 {
        ask_reset(&app, &mut stranger, "vp@gthscl.example", StatusCode::OK).await;
    }
    let fourth = ask_reset(
        &app,
        &mut stranger,
        "vp@gthscl.example",
        StatusCode::TOO_MANY_REQUESTS,
    )
    .await;
    fourth.assert_contains("ask again at");
    assert!(!fourth.header("retry-after").is_empty());
    // The person, from their own address, may still ask, and still sign in.
    let mut owner = on_the_reset_page(&app).await;
    let asked = ask_reset(&app, &mut owner, "vp@gthscl.example", StatusCode::OK).await;
    asked.assert_contains("on its way");
    assert_eq!(sink.wait_for(4, Duration::from_secs(10)).await.len(), 4);
    let signed = Visitor::new(&app)
        .await
        .post(&app, "/sign-in", &sign_in_as("vp@gthscl.example"))
        .await;
    signed.assert_status(StatusCode::SEE_OTHER);
}

#[tokio::test]
async fn a_flood_of_reset_requests_from_many_addresses_leaves_the_person_a_working_link() {
    let (sink, _store, app) = mailing_site_with("vp@gthscl.example", Role::VicePresident).await;
    for _ in 0..10 {
        let mut v = on_the_reset_page(&app).await;
        ask_reset(&app, &mut v, "vp@gthscl.example", StatusCode::OK).await;
    }
    let mails = sink.wait_for(10, Duration::from_secs(10)).await;
    assert_eq!(mails.len(), 10);
    // The eleventh asker is told that no more mail goes out, and that the links sent work.
    let mut owner = on_the_reset_page(&app).await;
    let asked = ask_reset(&app, &mut owner, "vp@gthscl.example", StatusCode::OK).await;
    asked.assert_contains("no more are sent until");
    asked.assert_contains("still work");
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(
        sink.wait_for(11, Duration::from_millis(100)).await.len(),
        10
    );
    // The newest of them sets the password.
    let link = link_in(&mails[9].text(), "/reset/");
    owner.get(&app, &link).await;
    let new_password = "a brand new passphrase";
    owner
        .post_ok(&app, &link, &password_twice(new_password))
        .await;
}

#[tokio::test]
async fn one_address_trying_many_accounts_is_stopped_after_a_burst_and_told_when() {
    let store = store().await;
    let app = app(&store);
    // Per address: one address trying many accounts is stopped after a burst.
    let mut one = Visitor::new(&app).await;
    let mut statuses = Vec::new();
    for i in 0..14 {
        let email = format!("guess{i}@gthscl.example");
        statuses.push(
            one.post(
                &app,
                "/sign-in",
                &[("email", &email), ("password", "wrong guess!")],
            )
            .await
            .status,
        );
    }
    assert!(
        statuses[..10]
            .iter()
            .all(|s| *s == StatusCode::UNAUTHORIZED),
        "{statuses:?}"
    );
    let stopped = one
        .post(
            &app,
            "/sign-in",
            &[("email", "x@gthscl.example"), ("password", "x")],
        )
        .await;
    assert_eq!(
        stopped.status,
        StatusCode::TOO_MANY_REQUESTS,
        "{statuses:?}"
    );
    stopped.assert_contains("Try again in");
    assert!(!stopped.header("retry-after").is_empty());
}

#[tokio::test]
async fn a_request_the_site_cannot_read_gets_the_sites_own_error_page() {
    let store = store().await;
    let app = app(&store);
    let mut v = Visitor::new(&app).await;
    // A sign-in sent as JSON: axum's own rejection would be plain text naming its parser.
    let req = axum::http::Request::post("/sign-in")
        .header("content-type", "application/json")
        .header("cookie", v.cookie.take().unwrap())
        .body(axum::body::Body::from("{}"))
        .unwrap();
    let a = send(&app, req).await;
    a.assert_status(StatusCode::UNSUPPORTED_MEDIA_TYPE);
    assert!(
        a.header("content-type").starts_with("text/html"),
        "{}",
        a.header("content-type")
    );
    a.assert_contains("could not be read");
    assert!(!a.body.to_lowercase().contains("deserialize"), "{}", a.body);
    assert_eq!(a.header("x-frame-options"), "DENY");
    assert!(
        a.header("content-security-policy")
            .contains("frame-ancestors 'none'")
    );
}

/// GT-P2 on the advisor's account page: the home advisor is asked for the result once the match
/// day has come, the visitors' advisor to confirm it once it is entered, overdue in red.
#[tokio::test]
async fn the_account_page_says_what_needs_each_advisor_now() {
    let store = store().await;
    let at = |d: jiff::civil::Date| {
        router(
            AppState::new(store.clone())
                .with_freshness(Duration::ZERO)
                .with_today(d)
                .with_mail(quiet_mail(), "http://localhost:8080"),
        )
    };
    advisor(&store, "start@gthscl.example", "Start High School").await;
    advisor(&store, "scott@gthscl.example", "Scott High School").await;
    // Round 4, Mon 16 Nov 2026: Start hosts Scott. Before the day, nothing is asked.
    let before = at(date(2026, 11, 4));
    let mut start = Visitor::signed_in(&before, "start@gthscl.example").await;
    let page = start.get(&before, "/account").await.body;
    assert!(!page.contains("Needs you now"));
    // Issue 32: the next match on top, with its day and place; the matches by season, the
    // current one open, and the page's order: next, what is due, the matches, the roles.
    let next = page
        .find(&format!(
            r#"<p class="next-match"><strong>Next:</strong> <a href="{DIVISION}/rounds/4/matches/start">Division A round 4, Start Spartans v Zoë O&#39;Brien"#
        ))
        .unwrap_or_else(|| panic!("{page}"));
    assert!(page[next..].contains(", Mon 16 Nov 2026"), "{page}");
    assert!(page[next..].contains("</a> at Start High School"), "{page}");
    let season = page
        .find(r#"<details class="season-matches" open><summary>2026-27"#)
        .unwrap_or_else(|| panic!("{page}"));
    let roles = page.find("<h2>Your roles</h2>").unwrap();
    assert!(next < season && season < roles, "{page}");
    let day_after = at(date(2026, 11, 17));
    let page = start.get(&day_after, "/account").await.body;
    assert!(page.contains("Needs you now"), "{page}");
    assert!(
        page.contains("Enter the result by Tue 17 Nov 2026 (GT-P2)"),
        "{page}"
    );
    // The match says where it stands in both lists, the task's and the school's.
    assert_eq!(
        page.matches("home · Mon 16 Nov 2026 · awaiting the result")
            .count(),
        2,
        "{page}"
    );
    // Entered by Start's advisor: Scott's advisor is asked to confirm within five days.
    let stored = store
        .load_competition("gthscl", "division-a")
        .await
        .unwrap()
        .unwrap();
    let id = stored.match_id(4, &TeamId("start".into())).unwrap();
    let boards = |r: &str| {
        arbiter_core::MatchOutcome::Boards(
            (1..=4)
                .map(|n| {
                    let mut b =
                        arbiter_core::Board::new(arbiter_core::GameResult::parse(r).unwrap());
                    b.home_player = Some(arbiter_core::PlayerId(format!("start{n}")));
                    b.away_player = Some(arbiter_core::PlayerId(format!("scott{n}")));
                    b
                })
                .collect(),
        )
    };
    store
        .record_result(
            id,
            store.report_seen(id).await.unwrap(),
            &boards("1-0"),
            &Actor::user(
                "start@gthscl.example",
                arbiter_core::rules::permissions::Role::Advisor,
            ),
            None,
        )
        .await
        .unwrap();
    let page = start.get(&day_after, "/account").await.body;
    assert!(
        !page.contains("Needs you now"),
        "the home side has done its part: {page}"
    );
    let mut scott = Visitor::signed_in(&day_after, "scott@gthscl.example").await;
    let page = scott.get(&day_after, "/account").await.body;
    assert!(page.contains("Confirm or dispute version"), "{page}");
    let late = at(date(2027, 1, 10));
    let page = scott.get(&late, "/account").await.body;
    assert!(page.contains("overdue since"), "{page}");
    assert!(page.contains("class=\"overdue\""), "{page}");
}

/// GT-P2: the home advisor enters the result after the match, not before the match day; the
/// page says from when instead of showing the form, and a posted form is refused.
#[tokio::test]
async fn an_advisor_cannot_enter_a_result_before_the_match_day() {
    let store = store().await;
    // Wednesday 4 November: round 4 (Start v Scott) is on Monday 16 November.
    let app = app(&store);
    advisor(&store, "start@gthscl.example", "Start High School").await;
    let mut start = Visitor::signed_in(&app, "start@gthscl.example").await;
    let page = start
        .get_ok(&app, &format!("{DIVISION}/rounds/4/matches/start"))
        .await;
    page.assert_contains("this match is set for Mon 16 Nov 2026");
    assert!(
        !page.body.contains("class=\"result\""),
        "no result form yet: {}",
        page.body
    );
    start.get(&app, "/account").await;
    let sent = start
        .post(
            &app,
            &format!("{DIVISION}/rounds/4/matches/start/result"),
            &[("forfeit", "away")],
        )
        .await;
    sent.assert_contains("GT-P2: this match is set for");
    let stored = store
        .load_competition("gthscl", "division-a")
        .await
        .unwrap()
        .unwrap();
    let id = stored.match_id(4, &TeamId("start".into())).unwrap();
    assert_eq!(
        store.result_versions(id).await.unwrap().len(),
        1,
        "nothing was stored"
    );
}

/// Cookies are `Secure` when the site is served over TLS (its base address is `https://`),
/// and not on a plain-HTTP laptop demo, where a browser would drop a Secure cookie.
#[tokio::test]
async fn cookies_are_secure_and_browsers_keep_to_tls_when_the_site_is_served_over_it() {
    let store = store().await;
    let over_tls = router(AppState::new(store.clone()).with_mail(
        Mailer::folder(std::env::temp_dir()),
        "https://league.example.org",
    ));
    // The sign-in form sets only its form cookie, `__Host-` over TLS; signing in starts the
    // session, whose cookie is Secure too.
    let mut v = Visitor::new(&over_tls).await;
    assert_eq!(v.jar.keys().collect::<Vec<_>>(), ["__Host-arbiter_form"]);
    account(&store, "tls@gthscl.example", Role::Secretary, None).await;
    let signed = v
        .post_ok(&over_tls, "/sign-in", &sign_in_as("tls@gthscl.example"))
        .await;
    let cookie = signed.header("set-cookie");
    assert!(cookie.starts_with("arbiter_session="), "{cookie}");
    assert!(
        cookie.contains("Secure") && cookie.contains("HttpOnly"),
        "{cookie}"
    );
    assert!(cookie.contains("SameSite=Lax"), "{cookie}");
    let plain = get(&app(&store), "/sign-in").await;
    let form_cookie = plain.header("set-cookie");
    assert!(form_cookie.starts_with("arbiter_form="), "{form_cookie}");
    assert!(!form_cookie.contains("Secure"), "{form_cookie}");
    // A public page starts no session at all.
    let home = get(&over_tls, "/").await;
    assert_eq!(home.header("set-cookie"), "");
    // Issue 9, item 14: over TLS the browser is told to keep to it for a year.
    assert_eq!(home.header("strict-transport-security"), "max-age=31536000");
    assert_eq!(
        get(&app(&store), "/")
            .await
            .header("strict-transport-security"),
        ""
    );
}

/// Behind a trusted reverse proxy every request comes from the proxy's address: the limit per
/// address counts the clients `X-Forwarded-For` names, and believes the header from that proxy
/// only.
#[tokio::test]
async fn behind_a_trusted_proxy_each_client_has_its_own_limit() {
    let store = store().await;
    let proxy: std::net::IpAddr = "10.0.0.1".parse().unwrap();
    let app = router(
        AppState::new(store.clone())
            .with_freshness(Duration::ZERO)
            .with_trusted_proxies(vec![proxy])
            .with_mail(quiet_mail(), "http://localhost:8080"),
    );
    let attempt = |client: &'static str, from: std::net::IpAddr| {
        let app = app.clone();
        async move {
            let req = axum::http::Request::post("/sign-in")
                .header("content-type", "application/x-www-form-urlencoded")
                .header("x-forwarded-for", client)
                .extension(axum::extract::ConnectInfo(std::net::SocketAddr::new(
                    from, 443,
                )))
                .body(axum::body::Body::from(
                    "csrf=x&email=a%40b.example&password=x",
                ))
                .unwrap();
            send(&app, req).await.status
        }
    };
    // One client through the proxy uses up its burst of 10 ...
    for _ in 0..10 {
        assert_ne!(
            attempt("198.51.100.7", proxy).await,
            StatusCode::TOO_MANY_REQUESTS
        );
    }
    assert_eq!(
        attempt("198.51.100.7", proxy).await,
        StatusCode::TOO_MANY_REQUESTS
    );
    // ... and another client through the same proxy still has its own.
    assert_ne!(
        attempt("198.51.100.8", proxy).await,
        StatusCode::TOO_MANY_REQUESTS
    );
    // A peer that is not the proxy cannot pick its bucket with the header.
    let stranger: std::net::IpAddr = "203.0.113.5".parse().unwrap();
    for _ in 0..10 {
        attempt("198.51.100.9", stranger).await;
    }
    assert_eq!(
        attempt("198.51.100.10", stranger).await,
        StatusCode::TOO_MANY_REQUESTS
    );
}

async fn stored_sessions(store: &Store) -> i64 {
    let sql = "SELECT COUNT(*) FROM tower_sessions";
    match store {
        Store::Sqlite(s) => sqlx::query_scalar(sql).fetch_one(s.pool()).await.unwrap(),
        Store::Postgres(s) => sqlx::query_scalar(sql).fetch_one(s.pool()).await.unwrap(),
    }
}

/// Issue 9, item 3: a `GET /sign-in` stored a session row for 14 days, so a flood of them
/// filled the database. The forms of visitors not signed in carry a token bound to a cookie.
#[tokio::test]
async fn anonymous_visitors_to_the_forms_store_no_session() {
    let (store, app) = site_with("sec@gthscl.example", Role::Secretary).await;
    for _ in 0..25 {
        for page in [
            "/sign-in",
            "/reset",
            "/reset/no-such-link",
            "/invites/no-such-link",
        ] {
            let a = get(&app, page).await;
            assert!(
                a.status.is_success() || a.status == StatusCode::GONE,
                "{page}: {}",
                a.status
            );
        }
    }
    let mut v = Visitor::new(&app).await;
    v.post_expect(
        &app,
        "/sign-in",
        &[
            ("email", "sec@gthscl.example"),
            ("password", "wrong guess!"),
        ],
        StatusCode::UNAUTHORIZED,
    )
    .await;
    assert_eq!(
        stored_sessions(&store).await,
        0,
        "no row before anyone signs in"
    );
    // The form's token works with its cookie, and signing in starts the one session.
    v.post_ok(&app, "/sign-in", &sign_in_as("sec@gthscl.example"))
        .await;
    assert_eq!(stored_sessions(&store).await, 1);
}

#[tokio::test]
async fn an_anonymous_forms_token_is_good_only_with_its_own_cookie() {
    let (_store, app) = site_with("sec@gthscl.example", Role::Secretary).await;
    let right = sign_in_as("sec@gthscl.example");
    let mut first = Visitor::new(&app).await;
    let second = Visitor::new(&app).await;
    assert_ne!(first.csrf, second.csrf, "each cookie has its own token");
    // The second visitor's token with the first's cookie, and a token with no cookie at all.
    let mut mixed = first.clone();
    mixed.csrf = second.csrf.clone();
    let refused = mixed.post_forbidden(&app, "/sign-in", &right).await;
    refused.assert_contains("has expired or did not come from this site");
    let mut cookieless = second.clone();
    cookieless.cookie = None;
    cookieless.post_forbidden(&app, "/sign-in", &right).await;
    // From a sandboxed frame or another site's redirect the browser sends `Origin: null`.
    let req = axum::http::Request::post("/sign-in")
        .header("content-type", "application/x-www-form-urlencoded")
        .header("cookie", first.cookie.clone().unwrap())
        .header("origin", "null")
        .header("host", "arbiter.test")
        .extension(axum::extract::ConnectInfo(first.addr))
        .body(axum::body::Body::from(format!(
            "csrf={}&email=sec%40gthscl.example&password={}",
            first.csrf,
            form_encode(PASSWORD)
        )))
        .unwrap();
    let null_origin = send(&app, req).await;
    null_origin.assert_status(StatusCode::FORBIDDEN);
    null_origin.assert_contains("sent from another site");
    first.post_ok(&app, "/sign-in", &right).await;
}

/// Issue 9, item 7: `next=/%09/evil.example` answered `Location: /\t/evil.example`, which a
/// browser reads as `//evil.example`; a newline gave a 303 with no `Location` at all.
#[tokio::test]
async fn sign_in_never_sends_the_browser_to_another_site() {
    let (_store, app) = site_with("sec@gthscl.example", Role::Secretary).await;
    for next in [
        "/\t/evil.example",
        "/\n/evil.example",
        "/\\evil.example",
        "//evil.example",
    ] {
        let mut v = Visitor::new(&app).await;
        let form = v
            .get(&app, &format!("/sign-in?next={}", form_encode(next)))
            .await;
        assert!(
            !form.body.contains("evil.example"),
            "{next:?}: {}",
            form.body
        );
        let signed = v
            .post(
                &app,
                "/sign-in",
                &[
                    ("email", "sec@gthscl.example"),
                    ("password", PASSWORD),
                    ("next", next),
                ],
            )
            .await;
        assert_eq!(signed.status, StatusCode::SEE_OTHER, "{next:?}");
        assert_eq!(signed.header("location"), "/account", "{next:?}");
    }
}

/// Issue 9, item 11: `aaaaaaaaaa` was accepted, and a reset could set the password to the email.
#[tokio::test]
async fn a_reset_refuses_the_email_and_easily_guessed_passwords_saying_why() {
    let (sink, _store, app) = mailing_site_with("sec@gthscl.example", Role::Secretary).await;
    let mut v = on_the_reset_page(&app).await;
    v.post(&app, "/reset", &[("email", "sec@gthscl.example")])
        .await;
    let mails = sink.wait_for(1, Duration::from_secs(10)).await;
    let link = link_in(&mails[0].text(), "/reset/");
    v.get(&app, &link).await;
    for (weak, why) in [
        ("sec@gthscl.example", "cannot be “sec@gthscl.example”"),
        ("aaaaaaaaaa", "repeats like"),
        ("password123", "common password"),
        ("Sec GTHSCL 2026", "built from the account"),
    ] {
        let refused = v.post(&app, &link, &password_twice(weak)).await;
        assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY, "{weak}");
        assert!(refused.body.contains(why), "{weak}: {}", refused.body);
    }
    let strong = "plum lantern obvious kettle";
    v.post_ok(&app, &link, &password_twice(strong)).await;
}
