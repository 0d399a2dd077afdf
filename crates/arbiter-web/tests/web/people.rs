//! A league's People page (issue 5): the President takes a role away, with a reason the history
//! keeps; the removed person's next request has the role no more; no one else may remove, and
//! the league's last President role stays. Who joins by invitation is in the league's history.

use arbiter_core::rules::permissions::Role;
use arbiter_store::{Actor, NewInvite, Store};
use axum::http::StatusCode;

use crate::common::*;

const PRESIDENT: &str = "president@gthscl.example";
const CLAY: &str = "clay.advisor@clay.example";
/// Round 1: Clay Eagles at home to Waite Dropouts, a match Clay's advisor reports (GT-P2).
const CLAY_MATCH: &str = "/leagues/gthscl/2026-27/division-a/rounds/1/matches/clay";

/// The form address that removes `email`'s only role in GTHSCL.
async fn revoke_path(store: &Store, email: &str) -> String {
    let user = store
        .user_by_email(&arbiter_core::record::text::Email::parse(email).unwrap())
        .await
        .unwrap()
        .unwrap();
    let roles = store.memberships(user.id).await.unwrap();
    assert_eq!(roles.len(), 1, "{roles:?}");
    format!("/leagues/gthscl/people/{}/revoke", roles[0].id)
}

async fn holds_a_role(store: &Store, email: &str) -> bool {
    let user = store
        .user_by_email(&arbiter_core::record::text::Email::parse(email).unwrap())
        .await
        .unwrap()
        .unwrap();
    !store.memberships(user.id).await.unwrap().is_empty()
}

#[tokio::test]
async fn the_president_removes_an_advisor_who_then_may_not_report_their_matches() {
    let store = store().await;
    let app = app(&store);
    account(&store, PRESIDENT, Role::President, None).await;
    advisor(&store, CLAY, "Clay High School").await;

    // The advisor is signed in and may report their school's match.
    let mut advisor = Visitor::signed_in(&app, CLAY).await;
    advisor.get_ok(&app, CLAY_MATCH).await;
    let before = advisor
        .post(&app, &format!("{CLAY_MATCH}/result"), &[])
        .await;
    assert_ne!(before.status, StatusCode::FORBIDDEN, "{}", before.body);

    // The People page has a Remove form on the advisor's row, with the session's token.
    let revoke = revoke_path(&store, CLAY).await;
    let mut president = Visitor::signed_in(&app, PRESIDENT).await;
    let people = president.get_ok(&app, "/leagues/gthscl/people").await;
    let form = format!(r#"<form class="inline" method="post" action="{revoke}">"#);
    let at = people
        .body
        .find(&form)
        .unwrap_or_else(|| panic!("{}", people.body));
    let row = &people.body[at..];
    assert!(
        row.contains(&format!(r#"name="csrf" value="{}""#, president.csrf)),
        "{row}"
    );
    assert!(row.contains(r#"name="reason""#), "{row}");
    assert!(row.contains("Remove"), "{row}");

    let reason = "Left Clay High School in January";
    let done = president
        .post_ok(&app, &revoke, &[("reason", reason)])
        .await;
    assert_eq!(done.header("location"), "/leagues/gthscl/people");
    assert!(!holds_a_role(&store, CLAY).await);

    // Back on the page: the notice once, and no row for the advisor.
    let people = president.get_ok(&app, "/leagues/gthscl/people").await;
    people.assert_contains(&format!(
        "{CLAY} no longer holds the role Advisor of Clay High School"
    ));
    people.assert_lacks(&revoke);
    let again = president.get(&app, "/leagues/gthscl/people").await;
    again.assert_lacks("no longer holds");

    // The advisor's own session: the next request finds the role gone.
    advisor
        .post_forbidden(&app, &format!("{CLAY_MATCH}/result"), &[])
        .await;
    advisor
        .post_forbidden(&app, &format!("{CLAY_MATCH}/confirm"), &[])
        .await;
    let account = advisor.get(&app, "/account").await;
    account.assert_contains("This account has no role in any league yet.");

    // The league's history says who removed which role, and why.
    let history = president.get_ok(&app, "/leagues/gthscl/history").await;
    let b = &history.body;
    let row = &b[b
        .find(&format!(
            "{PRESIDENT} (President) took the role of Advisor of Clay High School from {CLAY}."
        ))
        .unwrap_or_else(|| panic!("{b}"))..];
    let row = &row[..row.find("</li>").unwrap()];
    assert!(
        row.contains(&format!(r#"<p class="history-reason">Why: {reason}</p>"#)),
        "{row}"
    );

    // The same form again: the role is no longer held; the answer says so.
    let twice = president
        .post_expect(&app, &revoke, &[], StatusCode::NOT_FOUND)
        .await;
    twice.assert_contains("may have been removed already");
}

#[tokio::test]
async fn an_advisor_may_not_remove_anyones_role() {
    let store = store().await;
    let app = app(&store);
    account(&store, PRESIDENT, Role::President, None).await;
    advisor(&store, CLAY, "Clay High School").await;
    let president_role = revoke_path(&store, PRESIDENT).await;
    let own_role = revoke_path(&store, CLAY).await;
    let mut advisor = Visitor::signed_in(&app, CLAY).await;
    for path in [&president_role, &own_role] {
        let a = advisor.post(&app, path, &[("reason", "why not")]).await;
        assert_eq!(a.status, StatusCode::FORBIDDEN, "{path}: {}", a.body);
    }
    assert!(holds_a_role(&store, PRESIDENT).await);
    assert!(holds_a_role(&store, CLAY).await);
    // Nor may anyone signed out: they are sent to sign in.
    let mut anon = Visitor::new(&app).await;
    let a = anon.post(&app, &own_role, &[]).await;
    assert!(to_sign_in(&a), "{} {}", a.status, a.body);
    assert!(holds_a_role(&store, CLAY).await);
}

#[tokio::test]
async fn the_last_president_cannot_remove_his_own_role() {
    let store = store().await;
    let app = app(&store);
    account(&store, PRESIDENT, Role::President, None).await;
    let own = revoke_path(&store, PRESIDENT).await;
    let mut president = Visitor::signed_in(&app, PRESIDENT).await;
    let a = president
        .post_refused(&app, &own, &[("reason", "stepping down")])
        .await;
    a.assert_contains("You hold the league&#39;s only President role, so it was not removed");
    a.assert_contains("Give the President&#39;s role to someone else first");
    assert!(holds_a_role(&store, PRESIDENT).await);
    let history = president.get(&app, "/leagues/gthscl/history").await;
    history.assert_lacks("took away the role");

    // Once someone else is President too, he may step down.
    account(
        &store,
        "next.president@gthscl.example",
        Role::President,
        None,
    )
    .await;
    president
        .post_ok(&app, &own, &[("reason", "stepping down")])
        .await;
    assert!(!holds_a_role(&store, PRESIDENT).await);
    assert!(holds_a_role(&store, "next.president@gthscl.example").await);
    // And with that his session may no longer open the People page.
    president
        .get_expect(&app, "/leagues/gthscl/people", StatusCode::FORBIDDEN)
        .await;
}

#[tokio::test]
async fn a_role_in_another_league_is_not_found_here() {
    let store = store().await;
    let app = app(&store);
    account(&store, PRESIDENT, Role::President, None).await;
    let other = store
        .create_league(
            &arbiter_store::NewLeague {
                slug: "astc".into(),
                name: "ASTC".into(),
                kind: arbiter_store::LeagueKind::League,
                description: "Another league".into(),
                time_zone: arbiter_core::record::zone::Zone::utc(),
            },
            &Actor::system(),
        )
        .await
        .unwrap();
    let elsewhere = store
        .create_user("arbiter@astc.example", "Arb", None, &Actor::system())
        .await
        .unwrap();
    let m = store
        .grant_role(
            elsewhere.id,
            other.id,
            Role::Arbiter,
            None,
            &Actor::system(),
        )
        .await
        .unwrap();
    let mut president = Visitor::signed_in(&app, PRESIDENT).await;
    for id in [m.id.to_string(), "x1".to_string()] {
        let a = president
            .post(&app, &format!("/leagues/gthscl/people/{id}/revoke"), &[])
            .await;
        assert_eq!(a.status, StatusCode::NOT_FOUND, "{id}: {}", a.body);
        a.assert_contains(&format!("No one holds a role numbered “{id}” in GTHSCL"));
        a.assert_contains(r#"href="/leagues/gthscl/people""#);
    }
    assert!(!store.memberships(elsewhere.id).await.unwrap().is_empty());
}

#[tokio::test]
async fn the_league_history_shows_who_joined_by_invitation() {
    let store = store().await;
    let app = app(&store);
    account(&store, PRESIDENT, Role::President, None).await;
    let league = store.league("gthscl").await.unwrap().unwrap();
    let (_, token) = store
        .create_invite(
            &NewInvite {
                email: "new.secretary@gthscl.example".into(),
                league: league.id,
                role: Role::Secretary,
                school: None,
                valid_for: jiff::SignedDuration::from_hours(24),
            },
            &Actor::user(PRESIDENT, arbiter_core::rules::permissions::Role::President),
        )
        .await
        .unwrap();
    let mut newcomer = Visitor::new(&app).await;
    newcomer.get_ok(&app, &format!("/invites/{token}")).await;
    newcomer
        .post_ok(
            &app,
            &format!("/invites/{token}"),
            &[
                ("name", "Sam Secretary"),
                ("password", PASSWORD),
                ("password_again", PASSWORD),
            ],
        )
        .await;

    let mut president = Visitor::signed_in(&app, PRESIDENT).await;
    let history = president.get_ok(&app, "/leagues/gthscl/history").await;
    let b = &history.body;
    // The new account's own steps, by the name it was given (issue 32: the history as a log).
    assert!(
        b.contains("Sam Secretary (Secretary) created the account new.secretary@gthscl.example."),
        "{b}"
    );
    assert!(
        b.contains("gave new.secretary@gthscl.example the role of Secretary."),
        "{b}"
    );
    assert!(b.contains("accepted the invitation"), "{b}");
}

// ---------------------------------------------------------------------------------------------
// Pending invitations (issue 9)

const SECOND: &str = "second.president@gthscl.example";

async fn invite_as(
    store: &Store,
    by: &str,
    email: &str,
    role: Role,
    school: Option<&str>,
) -> String {
    let league = store.league("gthscl").await.unwrap().unwrap();
    let (_, token) = store
        .create_invite(
            &NewInvite {
                email: email.into(),
                league: league.id,
                role,
                school: school.map(str::to_string),
                valid_for: jiff::SignedDuration::from_hours(24),
            },
            &Actor::user(by, arbiter_core::rules::permissions::Role::President),
        )
        .await
        .unwrap();
    token
}

async fn accept(app: &axum::Router, token: &str) -> Answer {
    let mut newcomer = Visitor::new(app).await;
    let form = newcomer.get(app, &format!("/invites/{token}")).await;
    if form.status != StatusCode::OK {
        return form;
    }
    newcomer
        .post(
            app,
            &format!("/invites/{token}"),
            &[
                ("name", "New Person"),
                ("password", PASSWORD),
                ("password_again", PASSWORD),
            ],
        )
        .await
}

#[tokio::test]
async fn the_president_withdraws_a_pending_invitation_and_its_link_stops_working() {
    let store = store().await;
    let app = app(&store);
    account(&store, PRESIDENT, Role::President, None).await;
    let token = invite_as(
        &store,
        PRESIDENT,
        "wrong@school.example",
        Role::Secretary,
        None,
    )
    .await;
    let id = store
        .invites(store.league("gthscl").await.unwrap().unwrap().id)
        .await
        .unwrap()[0]
        .id;

    // The People page lists it with a Withdraw form carrying the session's token.
    let mut president = Visitor::signed_in(&app, PRESIDENT).await;
    let people = president.get(&app, "/leagues/gthscl/people").await;
    let action = format!("/leagues/gthscl/invites/{id}/withdraw");
    let at = people
        .body
        .find(&format!(
            r#"<form class="inline" method="post" action="{action}">"#
        ))
        .unwrap_or_else(|| panic!("{}", people.body));
    assert!(
        people.body[at..].contains(&format!(r#"name="csrf" value="{}""#, president.csrf)),
        "{}",
        people.body
    );
    president
        .post_ok(&app, &action, &[("reason", "Sent to the wrong address.")])
        .await;
    let people = president.get(&app, "/leagues/gthscl/people").await;
    people.assert_contains("The invitation to wrong@school.example is withdrawn");
    people.assert_contains("withdrawn ");
    people.assert_lacks(&action);

    // Its link now says so, and makes no account.
    let gone = accept(&app, &token).await;
    gone.assert_status(StatusCode::GONE);
    assert!(
        gone.body.contains("This invitation was withdrawn on ")
            && gone.body.contains(&format!(" by {PRESIDENT}.")),
        "{}",
        gone.body
    );
    assert!(
        store
            .user_by_email(
                &arbiter_core::record::text::Email::parse("wrong@school.example").unwrap()
            )
            .await
            .unwrap()
            .is_none()
    );

    // The history keeps who withdrew it and why; a second withdrawal is refused with a sentence.
    let history = president.get(&app, "/leagues/gthscl/history").await;
    history.assert_contains("withdrew the invitation");
    history.assert_contains("Sent to the wrong address.");
    let again = president.post_refused(&app, &action, &[]).await;
    again.assert_contains("was already withdrawn on ");
    president
        .post_expect(
            &app,
            "/leagues/gthscl/invites/999999/withdraw",
            &[],
            StatusCode::NOT_FOUND,
        )
        .await;
}

#[tokio::test]
async fn an_invitation_from_a_president_since_removed_makes_no_one_president() {
    let store = store().await;
    let app = app(&store);
    let leaving = account(&store, PRESIDENT, Role::President, None).await;
    account(&store, SECOND, Role::President, None).await;
    let token = invite_as(
        &store,
        PRESIDENT,
        "heir@gthscl.example",
        Role::President,
        None,
    )
    .await;
    // The sender leaves office before the invitation is taken up.
    let role = store.memberships(leaving.id).await.unwrap()[0].id;
    store
        .revoke_role(
            role,
            &Actor::user(SECOND, arbiter_core::rules::permissions::Role::President),
            Some("stood down"),
        )
        .await
        .unwrap();
    let refused = accept(&app, &token).await;
    refused.assert_status(StatusCode::UNPROCESSABLE_ENTITY);
    refused.assert_contains(&format!(
            "This invitation was sent by {PRESIDENT}, who may no longer give the role of President in GTHSCL: {PRESIDENT} no longer holds a role there. Nothing was granted"
        ));
    assert!(
        store
            .user_by_email(
                &arbiter_core::record::text::Email::parse("heir@gthscl.example").unwrap()
            )
            .await
            .unwrap()
            .is_none()
    );

    // A sender who is now only the Treasurer may not invite either (the table's InviteUser).
    let token = invite_as(&store, SECOND, "heir@gthscl.example", Role::President, None).await;
    let second = store
        .user_by_email(&arbiter_core::record::text::Email::parse(SECOND).unwrap())
        .await
        .unwrap()
        .unwrap();
    let league = store.league("gthscl").await.unwrap().unwrap();
    store
        .grant_role(
            second.id,
            league.id,
            Role::Treasurer,
            None,
            &Actor::system(),
        )
        .await
        .unwrap();
    let held = store.memberships(second.id).await.unwrap();
    let president_role = held.iter().find(|m| m.role == Role::President).unwrap().id;
    store
        .revoke_role(president_role, &Actor::system(), None)
        .await
        .unwrap();
    let refused = accept(&app, &token).await;
    refused.assert_status(StatusCode::UNPROCESSABLE_ENTITY);
    refused.assert_contains("the Treasurer may not");
}

#[tokio::test]
async fn an_invitation_names_one_of_the_leagues_schools_and_only_for_a_role_that_has_one() {
    let store = store().await;
    let app = app(&store);
    account(&store, PRESIDENT, Role::President, None).await;
    let mut president = Visitor::signed_in(&app, PRESIDENT).await;
    president.get(&app, "/leagues/gthscl/people").await;
    let send = |role: &'static str, school: &'static str| {
        [
            ("email", "someone@school.example"),
            ("role", role),
            ("school", school),
        ]
    };
    let a = president
        .post_refused(
            &app,
            "/leagues/gthscl/invites",
            &send("advisor", "Nowhere High"),
        )
        .await;
    a.assert_contains("“Nowhere High” is not one of the schools of GTHSCL");
    let a = president
        .post_refused(
            &app,
            "/leagues/gthscl/invites",
            &send("treasurer", "Clay High School"),
        )
        .await;
    a.assert_contains("The Treasurer does not act for a school");
    let league = store.league("gthscl").await.unwrap().unwrap();
    assert!(store.invites(league.id).await.unwrap().is_empty());
}
