//! Accounts end to end (issue 5): an officer invites an advisor through a real SMTP server
//! (a sink the test starts), the advisor signs up from the mailed link and sees only their own
//! school's controls; invitations and reset links work once; sign-in changes the session id
//! and is throttled per account and per address.

use std::time::Duration;

use arbiter_core::permissions::Role;
use arbiter_core::{Pairing, TeamId};
use arbiter_mail::Mailer;
use arbiter_mail::sink::SmtpSink;
use arbiter_store::{Actor, NewInvite};
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
    let sink = SmtpSink::start().await;
    let store = store().await;
    let app = app_with_mail(&store, &sink);
    account(&store, "president@gthscl.example", Role::President, None).await;

    // The President invites Start's advisor from the People page.
    let mut president = Visitor::signed_in(&app, "president@gthscl.example").await;
    let people = president.get(&app, "/leagues/gthscl/people").await;
    assert_eq!(people.status, StatusCode::OK, "{}", people.body);
    assert!(
        people.body.contains("Start High School"),
        "the schools are offered"
    );
    let sent = president
        .post(
            &app,
            "/leagues/gthscl/invites",
            &[
                ("email", "Advisor@Start.example"),
                ("role", "advisor"),
                ("school", "Start High School"),
            ],
        )
        .await;
    assert_eq!(sent.status, StatusCode::SEE_OTHER, "{}", sent.body);
    let mails = sink.wait_for(1, Duration::from_secs(10)).await;
    assert_eq!(mails[0].to, vec!["advisor@start.example".to_string()]);
    let invite = link_in(&mails[0].text(), "/invites/");
    let people = president.get(&app, "/leagues/gthscl/people").await;
    assert!(
        people.body.contains("advisor@start.example"),
        "{}",
        people.body
    );

    // The advisor opens the link, chooses a name and password, and is signed in.
    let mut advisor = Visitor::new(&app).await;
    let form = advisor.get(&app, &invite).await;
    assert_eq!(form.status, StatusCode::OK, "{}", form.body);
    assert!(
        form.body.contains("Advisor of Start High School"),
        "{}",
        form.body
    );
    let short = advisor
        .post(
            &app,
            &invite,
            &[
                ("name", "Ann Advisor"),
                ("password", "short"),
                ("password_again", "short"),
            ],
        )
        .await;
    assert_eq!(short.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        short.body.contains("at least 10 characters"),
        "{}",
        short.body
    );
    let joined = advisor
        .post(
            &app,
            &invite,
            &[
                ("name", "Ann Advisor"),
                ("password", PASSWORD),
                ("password_again", PASSWORD),
            ],
        )
        .await;
    assert_eq!(joined.status, StatusCode::SEE_OTHER, "{}", joined.body);
    assert_eq!(joined.header("location"), "/account");
    let mine = advisor.get(&app, "/account").await;
    assert!(mine.body.contains("Advisor") && mine.body.contains("Start High School"));
    assert!(!mine.body.contains("API tokens"), "advisors make no tokens");

    // The link worked once.
    let mut again = Visitor::new(&app).await;
    let reused = again.get(&app, &invite).await;
    assert_eq!(reused.status, StatusCode::GONE);
    assert!(reused.body.contains("works once"), "{}", reused.body);

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
    let own_page = advisor.get(&app, &href(own)).await;
    assert_eq!(own_page.status, StatusCode::OK, "{}", own_page.body);
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
    let public = get(&app, &href(own)).await;
    assert_eq!(public.status, StatusCode::OK);
    assert!(
        !public.body.contains("<form"),
        "the public sees no controls"
    );
    // And the advisor cannot invite.
    let refused = advisor.get(&app, "/leagues/gthscl/people").await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN);
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
    let page = v.get(&app, &format!("/invites/{token}")).await;
    assert_eq!(page.status, StatusCode::GONE);
    assert!(page.body.contains("expired"), "{}", page.body);
    let post = v
        .post(
            &app,
            &format!("/invites/{token}"),
            &[
                ("name", "Late"),
                ("password", PASSWORD),
                ("password_again", PASSWORD),
            ],
        )
        .await;
    assert_eq!(post.status, StatusCode::GONE);
    assert!(
        store
            .user_by_email("late@school.example")
            .await
            .unwrap()
            .is_none()
    );
}

#[tokio::test]
async fn a_reset_link_sets_a_new_password_once_and_ends_other_sessions() {
    let sink = SmtpSink::start().await;
    let store = store().await;
    let app = app_with_mail(&store, &sink);
    account(&store, "sec@gthscl.example", Role::Secretary, None).await;
    let mut elsewhere = Visitor::signed_in(&app, "sec@gthscl.example").await;

    let mut v = Visitor::new(&app).await;
    v.get(&app, "/reset").await;
    let asked = v
        .post(&app, "/reset", &[("email", "sec@gthscl.example")])
        .await;
    assert_eq!(asked.status, StatusCode::OK);
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
    let set = v
        .post(
            &app,
            &link,
            &[("password", new_password), ("password_again", new_password)],
        )
        .await;
    assert_eq!(set.status, StatusCode::SEE_OTHER, "{}", set.body);
    // Used once; a second use is refused.
    let mut w = Visitor::new(&app).await;
    w.get(&app, &link).await;
    let reused = w
        .post(
            &app,
            &link,
            &[("password", new_password), ("password_again", new_password)],
        )
        .await;
    assert_eq!(reused.status, StatusCode::GONE, "{}", reused.body);
    // The session signed in with the old password has ended.
    let old = elsewhere.get(&app, "/account").await;
    assert!(to_sign_in(&old), "old session still works: {}", old.status);
}

#[tokio::test]
async fn sign_in_gives_a_new_session_id_and_sign_out_ends_it() {
    let store = store().await;
    let app = app(&store);
    account(&store, "arb@gthscl.example", Role::Arbiter, None).await;
    let mut v = Visitor::new(&app).await;
    let before = v.cookie.clone().expect("the sign-in form starts a session");
    let signed = v
        .post(
            &app,
            "/sign-in",
            &[("email", "arb@gthscl.example"), ("password", PASSWORD)],
        )
        .await;
    assert_eq!(signed.status, StatusCode::SEE_OTHER);
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
    let out = v.post(&app, "/sign-out", &[]).await;
    assert_eq!(out.status, StatusCode::SEE_OTHER);
    assert!(to_sign_in(&v.get(&app, "/account").await));
}

#[tokio::test]
async fn sign_in_is_throttled_per_account_and_per_address() {
    let store = store().await;
    let app = app(&store);
    account(&store, "vp@gthscl.example", Role::VicePresident, None).await;
    // Per account: five failures from five addresses pause the account, even for the right
    // password, for a quarter of an hour.
    for _ in 0..5 {
        let mut v = Visitor::new(&app).await;
        let a = v
            .post(
                &app,
                "/sign-in",
                &[("email", "vp@gthscl.example"), ("password", "wrong guess!")],
            )
            .await;
        assert_eq!(a.status, StatusCode::UNAUTHORIZED);
        assert!(a.body.contains("do not match"), "{}", a.body);
    }
    let mut v = Visitor::new(&app).await;
    let paused = v
        .post(
            &app,
            "/sign-in",
            &[("email", "vp@gthscl.example"), ("password", PASSWORD)],
        )
        .await;
    assert_eq!(
        paused.status,
        StatusCode::TOO_MANY_REQUESTS,
        "{}",
        paused.body
    );
    assert!(paused.body.contains("15 minutes"), "{}", paused.body);

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
    assert_eq!(statuses[13], StatusCode::TOO_MANY_REQUESTS, "{statuses:?}");
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
    assert_eq!(a.status, StatusCode::UNSUPPORTED_MEDIA_TYPE);
    assert!(
        a.header("content-type").starts_with("text/html"),
        "{}",
        a.header("content-type")
    );
    assert!(a.body.contains("could not be read"), "{}", a.body);
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
                .with_today(d),
        )
    };
    account(
        &store,
        "start@gthscl.example",
        Role::Advisor,
        Some("Start High School"),
    )
    .await;
    account(
        &store,
        "scott@gthscl.example",
        Role::Advisor,
        Some("Scott High School"),
    )
    .await;
    // Round 4, Mon 16 Nov 2026: Start hosts Scott. Before the day, nothing is asked.
    let before = at(date(2026, 11, 4));
    let mut start = Visitor::signed_in(&before, "start@gthscl.example").await;
    assert!(
        !start
            .get(&before, "/account")
            .await
            .body
            .contains("Needs you now")
    );
    let day_after = at(date(2026, 11, 17));
    let page = start.get(&day_after, "/account").await.body;
    assert!(page.contains("Needs you now"), "{page}");
    assert!(
        page.contains("Enter the result by Tue 17 Nov 2026 (GT-P2)"),
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
            &Actor::user("start@gthscl.example", "advisor"),
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
    account(
        &store,
        "start@gthscl.example",
        Role::Advisor,
        Some("Start High School"),
    )
    .await;
    let mut start = Visitor::signed_in(&app, "start@gthscl.example").await;
    let page = start
        .get(&app, &format!("{DIVISION}/rounds/4/matches/start"))
        .await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(
        page.body.contains("this match is set for Mon 16 Nov 2026"),
        "{}",
        page.body
    );
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
    assert!(
        sent.body.contains("GT-P2: this match is set for"),
        "{}",
        sent.body
    );
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
async fn session_cookies_are_secure_over_tls() {
    let store = store().await;
    let over_tls = router(AppState::new(store.clone()).with_mail(
        Mailer::folder(std::env::temp_dir()),
        "https://league.example.org",
    ));
    let a = send(
        &over_tls,
        axum::http::Request::get("/sign-in")
            .body(axum::body::Body::empty())
            .unwrap(),
    )
    .await;
    let cookie = a.header("set-cookie");
    assert!(cookie.starts_with("arbiter_session="), "{cookie}");
    assert!(
        cookie.contains("Secure") && cookie.contains("HttpOnly"),
        "{cookie}"
    );
    assert!(cookie.contains("SameSite=Lax"), "{cookie}");
    let plain = get(&app(&store), "/sign-in").await;
    assert!(
        !plain.header("set-cookie").contains("Secure"),
        "{}",
        plain.header("set-cookie")
    );
    // A public page starts no session at all.
    assert_eq!(get(&over_tls, "/").await.header("set-cookie"), "");
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
            .with_trusted_proxies(vec![proxy]),
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
