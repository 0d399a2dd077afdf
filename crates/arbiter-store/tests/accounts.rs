//! Accounts, roles, invitations, password resets, API tokens, sign-in failures and result
//! reviews, on every backend (SQLite file and memory, PostgreSQL when configured).
#![allow(clippy::unwrap_used, clippy::expect_used)] // a test: a failure is a panic

#[macro_use]
mod support;

use arbiter_core::TeamId;
use arbiter_core::rules::permissions::Role;
use arbiter_core::season::report::{self, ReportStatus, ReviewKind};
use arbiter_store::secrets::{hash_password, token_hash, verify_password};
use arbiter_store::{
    AcceptInvite, Actor, Attempts, HistoryEntry, HistoryFilter, League, MatchId, NewApiToken,
    NewInvite, ReportSeen, SeasonId, Store, StoreError, UserId,
};
use jiff::SignedDuration;
use support::*;

on_every_backend!(
    an_invite_accepted_makes_an_account_with_the_role,
    an_invite_is_used_once,
    an_expired_invite_is_refused,
    an_invite_for_an_existing_account_is_taken_up_by_it,
    invites_name_a_role_and_an_advisor_a_school,
    a_withdrawn_invite_cannot_be_accepted_and_the_history_keeps_it,
    an_invite_is_checked_against_its_senders_roles_when_accepted,
    create_user_checks_the_email_and_refuses_a_second_account,
    grant_is_idempotent_and_revoke_ends_the_role,
    a_reset_link_is_used_once_and_expires,
    api_tokens_are_found_by_secret_until_revoked,
    a_person_stops_kinds_of_notice_and_the_history_keeps_each_change,
    reviews_apply_to_the_version_in_force,
    reviews_are_append_only,
    every_account_change_is_in_the_history_without_secrets,
    history_filters_by_season,
    failed_sign_ins_and_reset_requests_are_counted_per_account_and_address,
    texts_beyond_their_limits_are_refused_with_a_sentence_and_nothing_is_written,
);

const OFFICER: &str = "president@gthscl.example";
const ADVISOR: &str = "advisor@vic.example";
const VIC: &str = "École Saint-Jean <&\"'>";

fn president() -> Actor {
    Actor::user(OFFICER, Role::President)
}

/// The league, with the schools of its teams: VIC's and Toledo High.
async fn league(store: &Store) -> League {
    store.migrate().await.unwrap();
    let league = store
        .create_league(&new_league("gthscl"), &arbiter())
        .await
        .unwrap();
    for school in [VIC, "Toledo High"] {
        add_school(store, league.id, school).await;
    }
    league
}

/// The President invites `email` to `league` as `role` (of `school`).
async fn president_invites(
    store: &Store,
    email: &str,
    league: &League,
    role: Role,
    school: Option<&str>,
) -> Result<(arbiter_store::Invite, String), StoreError> {
    store
        .create_invite(&invite_for(email, league, role, school), &president())
        .await
}

/// The history filed under the league `league`.
async fn league_history(store: &Store, league: arbiter_store::LeagueId) -> Vec<HistoryEntry> {
    let filter = HistoryFilter {
        league: Some(league),
        ..HistoryFilter::default()
    };
    store.history(&filter).await.unwrap()
}

/// The account of the address `email`, if there is one.
async fn account_of(store: &Store, email: &str) -> Option<arbiter_store::User> {
    store.user_by_email(&parsed_email(email)).await.unwrap()
}

/// `address` read as an email address.
fn parsed_email(address: &str) -> arbiter_core::record::text::Email {
    arbiter_core::record::text::Email::parse(address).unwrap()
}

fn invite_for(email: &str, league: &League, role: Role, school: Option<&str>) -> NewInvite {
    NewInvite {
        email: email.to_string(),
        league: league.id,
        role,
        school: school.map(str::to_string),
        valid_for: SignedDuration::from_hours(72),
    }
}

/// A match's report as a writer saw it: version in force and number of reviews.
fn seen(version: u32, reviews: u32) -> ReportSeen {
    ReportSeen { version, reviews }
}

fn invalid(e: StoreError) -> String {
    match e {
        StoreError::Invalid(s) => s,
        other => panic!("expected Invalid, got {other:?}"),
    }
}

/// The whole history as one text, to search for secrets in.
async fn history_text(store: &Store) -> String {
    let h = store.history(&HistoryFilter::default()).await.unwrap();
    h.iter()
        .map(|e| {
            format!(
                "{} {} {} {:?} {:?} {:?} {:?} {:?}",
                e.entity, e.entity_id, e.action, e.actor, e.role, e.before, e.after, e.reason
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn find<'h>(h: &'h [HistoryEntry], entity: &str, action: &str) -> &'h HistoryEntry {
    h.iter()
        .find(|e| e.entity == entity && e.action == action)
        .unwrap_or_else(|| panic!("no history row {entity}/{action} in {h:#?}"))
}

async fn an_invite_accepted_makes_an_account_with_the_role(store: Store) {
    let league = league(&store).await;
    let (invite, plain) = president_invites(
        &store,
        " Advisor@Vic.EXAMPLE ",
        &league,
        Role::Advisor,
        Some(VIC),
    )
    .await
    .unwrap();
    assert_eq!(
        invite.email, ADVISOR,
        "emails are kept trimmed and lower-case"
    );
    assert_eq!(invite.role, Role::Advisor);
    assert_eq!(invite.school.as_deref(), Some(VIC));
    assert_eq!(invite.league_slug, "gthscl");
    assert_eq!(invite.invited_by.as_deref(), Some(OFFICER));
    assert_eq!(invite.accepted_at, None);
    assert_eq!(
        invite.expires_at,
        invite.created_at + SignedDuration::from_hours(72)
    );
    assert_eq!(plain.len(), 64);

    // The link's secret opens the invite; the stored row holds only its hash.
    let opened = store.invite_by_token(&plain).await.unwrap().unwrap();
    assert_eq!(opened, invite);
    assert_eq!(store.invite_by_token("not-a-token").await.unwrap(), None);
    assert_eq!(
        fetch_i64(
            &store,
            &format!(
                "SELECT COUNT(*) FROM invites WHERE token_hash = '{}'",
                token_hash(&plain)
            )
        )
        .await,
        1
    );
    assert_eq!(
        fetch_i64(
            &store,
            &format!("SELECT COUNT(*) FROM invites WHERE token_hash = '{plain}'")
        )
        .await,
        0
    );

    let phc = hash_password("a long pass phrase").unwrap();
    let (user, membership) = store
        .accept_invite(
            &plain,
            AcceptInvite::NewAccount {
                name: " Ada Advisor ",
                password_hash: &phc,
            },
            any_sender,
        )
        .await
        .unwrap();
    assert_eq!(user.email, ADVISOR);
    assert_eq!(user.name, "Ada Advisor");
    assert_eq!(membership.user, user.id);
    assert_eq!(membership.league, league.id);
    assert_eq!(membership.role, Role::Advisor);
    assert_eq!(membership.school.as_deref(), Some(VIC));

    let found = account_of(&store, "ADVISOR@vic.example ").await.unwrap();
    assert_eq!(found, user);
    assert_eq!(store.user(user.id).await.unwrap().unwrap(), user);
    assert!(verify_password(
        "a long pass phrase",
        found.password_hash.as_deref().unwrap()
    ));
    assert!(!verify_password(
        "a wrong pass phrase",
        found.password_hash.as_deref().unwrap()
    ));
    assert_eq!(
        store.memberships(user.id).await.unwrap(),
        vec![membership.clone()]
    );
    let members = store.league_members(league.id).await.unwrap();
    assert_eq!(members.len(), 1);
    assert_eq!(members[0].user, user);
    assert_eq!(members[0].membership, membership);

    let listed = store.invites(league.id).await.unwrap();
    assert_eq!(listed.len(), 1);
    assert!(listed[0].accepted_at.is_some());
}

async fn an_invite_is_used_once(store: Store) {
    let league = league(&store).await;
    let (_, plain) = president_invites(&store, ADVISOR, &league, Role::Arbiter, None)
        .await
        .unwrap();
    let phc = hash_password("a long pass phrase").unwrap();
    let new = AcceptInvite::NewAccount {
        name: "Ada",
        password_hash: &phc,
    };
    let (user, _) = store.accept_invite(&plain, new, any_sender).await.unwrap();
    let again = invalid(
        store
            .accept_invite(&plain, new, any_sender)
            .await
            .unwrap_err(),
    );
    assert!(
        again.starts_with("This invitation has already been used (on ")
            && again.ends_with("); sign in instead."),
        "{again}"
    );
    // Not even by the account it made.
    let again = invalid(
        store
            .accept_invite(&plain, AcceptInvite::ExistingAccount(user.id), any_sender)
            .await
            .unwrap_err(),
    );
    assert!(again.contains("already been used"), "{again}");
    let unknown = invalid(
        store
            .accept_invite("abc", new, any_sender)
            .await
            .unwrap_err(),
    );
    assert!(unknown.contains("not known"), "{unknown}");
    assert_eq!(store.league_members(league.id).await.unwrap().len(), 1);
}

async fn an_expired_invite_is_refused(store: Store) {
    let league = league(&store).await;
    let mut new = invite_for(ADVISOR, &league, Role::Secretary, None);
    new.valid_for = SignedDuration::from_secs(-60);
    let (invite, plain) = store.create_invite(&new, &president()).await.unwrap();
    assert!(invite.expires_at < invite.created_at);
    let phc = hash_password("a long pass phrase").unwrap();
    let version = store.data_version().await.unwrap();
    let e = invalid(
        store
            .accept_invite(
                &plain,
                AcceptInvite::NewAccount {
                    name: "Ada",
                    password_hash: &phc,
                },
                any_sender,
            )
            .await
            .unwrap_err(),
    );
    let day = invite.expires_at.strftime("%Y-%m-%d").to_string();
    assert!(
        e.starts_with(&format!("This invitation expired on {day} "))
            && e.ends_with("; ask the officer who sent it for a new one."),
        "{e}"
    );
    // Refused whole: no account, no role, no write.
    assert_eq!(account_of(&store, ADVISOR).await, None);
    assert_eq!(store.data_version().await.unwrap(), version);
    assert!(
        store.invites(league.id).await.unwrap()[0]
            .accepted_at
            .is_none()
    );
}

async fn an_invite_for_an_existing_account_is_taken_up_by_it(store: Store) {
    let league = league(&store).await;
    let ada = store
        .create_user(ADVISOR, "Ada", None, &Actor::system())
        .await
        .unwrap();
    let bob = store
        .create_user("bob@toledo.example", "Bob", None, &Actor::system())
        .await
        .unwrap();
    let (_, plain) = president_invites(&store, ADVISOR, &league, Role::Treasurer, None)
        .await
        .unwrap();

    // Signing up anew with an email that has an account: sign in instead.
    let phc = hash_password("a long pass phrase").unwrap();
    let e = invalid(
        store
            .accept_invite(
                &plain,
                AcceptInvite::NewAccount {
                    name: "Ada again",
                    password_hash: &phc,
                },
                any_sender,
            )
            .await
            .unwrap_err(),
    );
    assert!(e.contains("already has an account; sign in"), "{e}");
    // Another account cannot take it.
    let e = invalid(
        store
            .accept_invite(&plain, AcceptInvite::ExistingAccount(bob.id), any_sender)
            .await
            .unwrap_err(),
    );
    assert!(
        e.contains("This invitation is for advisor@vic.example, but you are signed in as bob@toledo.example"),
        "{e}"
    );
    assert!(store.memberships(bob.id).await.unwrap().is_empty());

    let (user, membership) = store
        .accept_invite(&plain, AcceptInvite::ExistingAccount(ada.id), any_sender)
        .await
        .unwrap();
    assert_eq!(user, ada);
    assert_eq!(membership.role, Role::Treasurer);
    assert_eq!(store.memberships(ada.id).await.unwrap(), vec![membership]);
}

async fn invites_name_a_role_and_an_advisor_a_school(store: Store) {
    let league = league(&store).await;
    let e = invalid(
        president_invites(&store, ADVISOR, &league, Role::Advisor, None)
            .await
            .unwrap_err(),
    );
    assert!(e.contains("needs the school"), "{e}");
    let e = invalid(
        president_invites(&store, ADVISOR, &league, Role::Advisor, Some("  "))
            .await
            .unwrap_err(),
    );
    assert!(e.contains("needs the school"), "{e}");
    let e = invalid(
        president_invites(&store, ADVISOR, &league, Role::Public, None)
            .await
            .unwrap_err(),
    );
    assert!(e.contains("The public is not a role"), "{e}");
    let e = invalid(
        president_invites(&store, "no-at-sign", &league, Role::Arbiter, None)
            .await
            .unwrap_err(),
    );
    assert!(
        e.contains("“no-at-sign” is not an email address: it has no @"),
        "{e}"
    );
    let mut missing = invite_for(ADVISOR, &league, Role::Arbiter, None);
    missing.league = arbiter_store::LeagueId(league.id.0 + 1000);
    assert!(matches!(
        store.create_invite(&missing, &president()).await,
        Err(StoreError::NotFound(_))
    ));

    // Issue 9: an invitation names one of the league's schools, never a new one, and only a
    // role that has a school names one (an advisor's, GT-M1; the President's own, GT-O3).
    let e = invalid(
        president_invites(&store, ADVISOR, &league, Role::Advisor, Some("Maumee High"))
            .await
            .unwrap_err(),
    );
    assert!(
        e.starts_with("“Maumee High” is not one of the schools of "),
        "{e}"
    );
    let e = invalid(
        president_invites(&store, "t@vic.example", &league, Role::Treasurer, Some(VIC))
            .await
            .unwrap_err(),
    );
    assert!(
        e.starts_with("The Treasurer does not act for a school"),
        "{e}"
    );
    assert_eq!(
        fetch_i64(
            &store,
            "SELECT COUNT(*) FROM schools WHERE name = 'Maumee High'"
        )
        .await,
        0
    );
    president_invites(&store, "p@vic.example", &league, Role::President, Some(VIC))
        .await
        .unwrap();
    for email in ["a@vic.example", "b@vic.example"] {
        president_invites(&store, email, &league, Role::Advisor, Some("Toledo High"))
            .await
            .unwrap();
    }
    // Newest first.
    let listed = store.invites(league.id).await.unwrap();
    let emails: Vec<&str> = listed.iter().map(|i| i.email.as_str()).collect();
    assert_eq!(emails, ["b@vic.example", "a@vic.example", "p@vic.example"]);
}

async fn create_user_checks_the_email_and_refuses_a_second_account(store: Store) {
    store.migrate().await.unwrap();
    for bad in [
        "",
        "ada",
        "@vic.example",
        "ada@",
        "ada @vic.example",
        "a@b@c",
    ] {
        let e = store
            .create_user(bad, "Ada", None, &Actor::system())
            .await
            .unwrap_err();
        assert!(
            matches!(&e, StoreError::Invalid(s) if s.contains("is not an email address")),
            "{bad:?}: {e:?}"
        );
    }
    let e = store
        .create_user(
            ADVISOR,
            "Ada",
            Some("plain text password"),
            &Actor::system(),
        )
        .await
        .unwrap_err();
    assert!(invalid(e).contains("not a password hash"));

    let ada = store
        .create_user(" ADVISOR@vic.example", "Ada", None, &Actor::system())
        .await
        .unwrap();
    assert_eq!(ada.email, ADVISOR);
    assert_eq!(ada.password_hash, None);
    let e = store
        .create_user("advisor@VIC.example", "Ada 2", None, &Actor::system())
        .await
        .unwrap_err();
    match e {
        StoreError::Conflict(s) => assert!(
            s.contains("an account for advisor@vic.example already exists"),
            "{s}"
        ),
        other => panic!("expected Conflict, got {other:?}"),
    }
    assert_eq!(store.user(UserId(ada.id.0 + 1000)).await.unwrap(), None);

    // A password set later replaces the hash.
    let phc = hash_password("a long pass phrase").unwrap();
    store
        .set_password(ada.id, &phc, &Actor::system())
        .await
        .unwrap();
    let ada = store.user(ada.id).await.unwrap().unwrap();
    assert_eq!(ada.password_hash.as_deref(), Some(phc.as_str()));
    assert!(matches!(
        store
            .set_password(UserId(ada.id.0 + 1000), &phc, &Actor::system())
            .await,
        Err(StoreError::NotFound(_))
    ));
}

async fn grant_is_idempotent_and_revoke_ends_the_role(store: Store) {
    let league = league(&store).await;
    let other = store
        .create_league(&new_league("astc"), &arbiter())
        .await
        .unwrap();
    let ada = store
        .create_user(ADVISOR, "Ada", None, &Actor::system())
        .await
        .unwrap();
    let advisor = store
        .grant_role(ada.id, league.id, Role::Advisor, Some(VIC), &president())
        .await
        .unwrap();
    let version = store.data_version().await.unwrap();
    let again = store
        .grant_role(ada.id, league.id, Role::Advisor, Some(VIC), &president())
        .await
        .unwrap();
    assert_eq!(
        again, advisor,
        "an identical active membership is returned as is"
    );
    assert_eq!(store.data_version().await.unwrap(), version);
    let president_role = store
        .grant_role(ada.id, league.id, Role::President, None, &president())
        .await
        .unwrap();
    let arbiter_role = store
        .grant_role(ada.id, other.id, Role::Arbiter, None, &Actor::system())
        .await
        .unwrap();
    assert_eq!(arbiter_role.league_slug, "astc");
    assert!(matches!(
        store
            .grant_role(ada.id, league.id, Role::Advisor, None, &president())
            .await,
        Err(StoreError::Invalid(_))
    ));
    assert!(matches!(
        store
            .grant_role(
                UserId(ada.id.0 + 99),
                league.id,
                Role::Arbiter,
                None,
                &president()
            )
            .await,
        Err(StoreError::NotFound(_))
    ));

    // By league (astc before gthscl), then role, President first.
    assert_eq!(
        store.memberships(ada.id).await.unwrap(),
        vec![arbiter_role, president_role.clone(), advisor.clone()]
    );

    store
        .revoke_role(advisor.id, &president(), Some("left the school"))
        .await
        .unwrap();
    let left = store.memberships(ada.id).await.unwrap();
    assert!(!left.contains(&advisor));
    assert_eq!(left.len(), 2);
    assert!(matches!(
        store.revoke_role(advisor.id, &president(), None).await,
        Err(StoreError::NotFound(_))
    ));
    let h = league_history(&store, league.id).await;
    let revoke = find(&h, "membership", "revoke");
    assert_eq!(revoke.entity_id, advisor.id.to_string());
    assert_eq!(revoke.reason.as_deref(), Some("left the school"));
    assert_eq!(
        revoke.before,
        Some(serde_json::json!({
            "user": ADVISOR, "league": "gthscl", "role": "advisor", "school": VIC
        }))
    );
    assert_eq!(revoke.after, None);

    // Granted again after the revocation: a new membership.
    let back = store
        .grant_role(ada.id, league.id, Role::Advisor, Some(VIC), &president())
        .await
        .unwrap();
    assert_ne!(back.id, advisor.id);
    let members = store.league_members(league.id).await.unwrap();
    let roles: Vec<Role> = members.iter().map(|m| m.membership.role).collect();
    assert_eq!(roles, [Role::President, Role::Advisor]);
}

async fn a_reset_link_is_used_once_and_expires(store: Store) {
    store.migrate().await.unwrap();
    let ada = store
        .create_user(ADVISOR, "Ada", None, &Actor::system())
        .await
        .unwrap();
    let first = store
        .create_password_reset(ada.id, SignedDuration::from_hours(1))
        .await
        .unwrap();
    let second = store
        .create_password_reset(ada.id, SignedDuration::from_hours(1))
        .await
        .unwrap();
    assert_ne!(first, second);
    let phc = hash_password("a new pass phrase").unwrap();
    let user = store.use_password_reset(&first, &phc).await.unwrap();
    assert_eq!(user.id, ada.id);
    assert_eq!(user.password_hash.as_deref(), Some(phc.as_str()));
    assert_eq!(
        store.user(ada.id).await.unwrap().unwrap().password_hash,
        Some(phc.clone())
    );

    let e = invalid(store.use_password_reset(&first, &phc).await.unwrap_err());
    assert!(
        e.starts_with("This password-reset link has already been used (on "),
        "{e}"
    );
    // The new password ended the account's other open link too.
    let e = invalid(store.use_password_reset(&second, &phc).await.unwrap_err());
    assert!(e.contains("already been used"), "{e}");

    let expired = store
        .create_password_reset(ada.id, SignedDuration::from_secs(-1))
        .await
        .unwrap();
    let e = invalid(store.use_password_reset(&expired, &phc).await.unwrap_err());
    assert!(
        e.starts_with("This password-reset link expired on ")
            && e.ends_with("; ask for a new one on the sign-in page."),
        "{e}"
    );
    let e = invalid(store.use_password_reset("nope", &phc).await.unwrap_err());
    assert!(e.contains("not known"), "{e}");
    assert!(matches!(
        store
            .create_password_reset(UserId(ada.id.0 + 5), SignedDuration::from_hours(1))
            .await,
        Err(StoreError::NotFound(_))
    ));

    let h = store.history(&HistoryFilter::default()).await.unwrap();
    let reset = find(&h, "user", "set_password");
    assert_eq!(reset.reason.as_deref(), Some("reset by link"));
    assert_eq!(reset.actor.as_deref(), Some(ADVISOR));
    assert_eq!(
        h.iter().filter(|e| e.action == "set_password").count(),
        1,
        "only the used link changed the password"
    );
}

/// Issue 13: the notices a person stops are kept, changed whole, each change in the history;
/// saving the same list again writes nothing.
async fn a_person_stops_kinds_of_notice_and_the_history_keeps_each_change(store: Store) {
    use arbiter_core::season::notice::Notice;
    league(&store).await;
    let pat = store
        .create_user(OFFICER, "Pat", None, &Actor::system())
        .await
        .unwrap();
    assert!(store.stopped_notices(pat.id).await.unwrap().is_empty());
    let by = Actor::user(OFFICER, Role::Secretary);
    let stop = [
        Notice::MatchMoved,
        Notice::ResultDecided,
        Notice::MatchMoved,
    ];
    store.set_stopped_notices(pat.id, &stop, &by).await.unwrap();
    assert_eq!(
        store.stopped_notices(pat.id).await.unwrap(),
        [Notice::ResultDecided, Notice::MatchMoved]
    );
    let changes =
        |h: &[arbiter_store::HistoryEntry]| h.iter().filter(|e| e.action == "set_notices").count();
    let history = store.history(&HistoryFilter::default()).await.unwrap();
    assert_eq!(changes(&history), 1);
    let row = history.iter().find(|e| e.action == "set_notices").unwrap();
    assert_eq!(
        row.after.as_ref().unwrap()["stopped"],
        serde_json::json!(["result_decided", "match_moved"])
    );
    // The same again: nothing written.
    store
        .set_stopped_notices(pat.id, &[Notice::MatchMoved, Notice::ResultDecided], &by)
        .await
        .unwrap();
    let history = store.history(&HistoryFilter::default()).await.unwrap();
    assert_eq!(changes(&history), 1);
    // Every kind back.
    store.set_stopped_notices(pat.id, &[], &by).await.unwrap();
    assert!(store.stopped_notices(pat.id).await.unwrap().is_empty());
}

async fn api_tokens_are_found_by_secret_until_revoked(store: Store) {
    let league = league(&store).await;
    let ada = store
        .create_user(OFFICER, "Pat", None, &Actor::system())
        .await
        .unwrap();
    let new = NewApiToken {
        user: ada.id,
        league: league.id,
        role: Role::Secretary,
        school: None,
        label: " nightly import ".into(),
    };
    // A token acts in a role its owner holds.
    let e = invalid(
        store
            .create_api_token(&new, &president())
            .await
            .unwrap_err(),
    );
    assert!(e.contains("is not the Secretary of"), "{e}");
    let membership = store
        .grant_role(ada.id, league.id, Role::Secretary, None, &Actor::system())
        .await
        .unwrap();
    let blank = NewApiToken {
        label: "  ".into(),
        ..new.clone()
    };
    assert!(
        invalid(
            store
                .create_api_token(&blank, &president())
                .await
                .unwrap_err()
        )
        .contains("needs a label")
    );

    let (token, plain) = store.create_api_token(&new, &president()).await.unwrap();
    assert_eq!(token.label, "nightly import");
    assert_eq!(token.prefix, plain[..8]);
    assert_eq!(token.user_email, OFFICER);
    assert_eq!(token.league_slug, "gthscl");
    assert_eq!(token.role, Role::Secretary);
    assert_eq!(token.revoked_at, None);
    let (found, user) = store.api_token_by_secret(&plain).await.unwrap().unwrap();
    assert_eq!(found, token);
    assert_eq!(user, ada);
    assert_eq!(store.api_token_by_secret("wrong").await.unwrap(), None);
    assert_eq!(
        store.api_token_by_secret(&token.prefix).await.unwrap(),
        None
    );

    let (second, second_plain) = store.create_api_token(&new, &president()).await.unwrap();
    assert_eq!(
        store.api_tokens(ada.id).await.unwrap(),
        vec![second.clone(), token.clone()],
        "newest first"
    );
    assert_eq!(
        store.league_api_tokens(league.id).await.unwrap(),
        vec![second.clone(), token.clone()]
    );

    store
        .revoke_api_token(token.id, &president())
        .await
        .unwrap();
    assert_eq!(store.api_token_by_secret(&plain).await.unwrap(), None);
    let listed = store.api_tokens(ada.id).await.unwrap();
    assert!(
        listed[1].revoked_at.is_some(),
        "a revoked token stays listed"
    );
    // Revoking again changes nothing; an unknown id is not found.
    let version = store.data_version().await.unwrap();
    store
        .revoke_api_token(token.id, &president())
        .await
        .unwrap();
    assert_eq!(store.data_version().await.unwrap(), version);
    assert!(matches!(
        store
            .revoke_api_token(arbiter_store::ApiTokenId(second.id.0 + 10), &president())
            .await,
        Err(StoreError::NotFound(_))
    ));

    // The other token works until its owner loses the role.
    assert!(
        store
            .api_token_by_secret(&second_plain)
            .await
            .unwrap()
            .is_some()
    );
    store
        .revoke_role(membership.id, &president(), None)
        .await
        .unwrap();
    assert_eq!(
        store.api_token_by_secret(&second_plain).await.unwrap(),
        None
    );
}

/// An imported competition; returns its season and the ids of round 1's vic–tol match
/// (boards entered) and round 3's syl–vic match (pending).
async fn imported(store: &Store) -> (SeasonId, MatchId, MatchId) {
    store.migrate().await.unwrap();
    let season = league_and_season(store, "gthscl").await;
    import_fixture(store, season.id, "varsity").await;
    let loaded = loaded(store, "gthscl", "varsity").await;
    let played = loaded.match_id(1, &TeamId("vic".into())).unwrap();
    let pending = loaded.match_id(3, &TeamId("syl".into())).unwrap();
    (season.id, played, pending)
}

async fn reviews_apply_to_the_version_in_force(store: Store) {
    let (_, m, pending) = imported(&store).await;
    let visitor = Actor::user("advisor@toledo.example", Role::Advisor);
    let before = loaded(&store, "gthscl", "varsity").await.version;

    let disputed = store
        .review_result(
            m,
            seen(1, 0),
            ReviewKind::Disputed,
            &visitor,
            Some(" board 4 was a draw "),
        )
        .await
        .unwrap();
    assert_eq!(disputed.version, 1);
    assert_eq!(disputed.kind, ReviewKind::Disputed);
    assert_eq!(disputed.by.as_deref(), Some("advisor@toledo.example"));
    assert_eq!(disputed.role, Some(Role::Advisor));
    assert_eq!(disputed.reason.as_deref(), Some("board 4 was a draw"));
    let after = loaded(&store, "gthscl", "varsity").await.version;
    assert_eq!(
        after,
        before + 1,
        "a review bumps the competition's version"
    );

    // The officer's correction is version 2: version 1 can no longer be reviewed.
    store
        .record_result(
            m,
            seen(1, 1),
            &corrected_round_one(),
            &arbiter(),
            Some("dispute upheld"),
        )
        .await
        .unwrap();
    // A review of what the reviewer saw before the correction is stale: nothing is stored.
    let e = store
        .review_result(m, seen(1, 1), ReviewKind::Confirmed, &visitor, None)
        .await
        .unwrap_err();
    assert!(
        matches!(&e, StoreError::Stale(s) if s.starts_with("round 1, ")
            && s.contains("read at version 1 with 1 review, and is now at version 2 with 1 review;")
            && s.ends_with("make the change against version 2")),
        "{e:?}"
    );
    let e = store
        .review_result(m, seen(3, 1), ReviewKind::Confirmed, &visitor, None)
        .await
        .unwrap_err();
    assert!(matches!(e, StoreError::Stale(_)), "{e:?}");
    let confirmed = store
        .review_result(m, seen(2, 1), ReviewKind::Confirmed, &visitor, None)
        .await
        .unwrap();
    assert_eq!(confirmed.reason, None);

    let reviews = store.result_reviews(m).await.unwrap();
    assert_eq!(reviews, vec![disputed, confirmed]);
    let pairs: Vec<report::Review> = reviews
        .iter()
        .map(|r| report::Review {
            version: r.version,
            kind: r.kind,
            by: report::ReviewedBy::of(r.role),
        })
        .collect();
    // The version keeps the role it was entered in: the President's correction is decided
    // (GT-P2, GT-O3), whatever the visitors say of it afterwards.
    let latest = store.result_versions(m).await.unwrap().pop().unwrap();
    assert_eq!(latest.entered_role, Some(Role::President));
    let entry = report::Entry {
        version: 2,
        by: report::EnteredBy::of(latest.entered_by.as_deref(), latest.entered_role),
    };
    assert_eq!(
        report::status(Some(entry), &pairs),
        ReportStatus::Decided { version: 2 }
    );

    // Nothing entered yet: nothing to review. Unknown matches are not found.
    let e = invalid(
        store
            .review_result(pending, seen(1, 0), ReviewKind::Confirmed, &visitor, None)
            .await
            .unwrap_err(),
    );
    assert!(e.contains("no result has been entered"), "{e}");
    assert!(store.result_reviews(pending).await.unwrap().is_empty());
    let nowhere = MatchId(m.0 + 10_000);
    assert!(matches!(
        store
            .review_result(nowhere, seen(1, 0), ReviewKind::Confirmed, &visitor, None)
            .await,
        Err(StoreError::NotFound(_))
    ));
    assert!(matches!(
        store.result_reviews(nowhere).await,
        Err(StoreError::NotFound(_))
    ));

    // The history shows both reviews (and the correction between them) on the match and on
    // each team's page; the import's version 1 has no row of its own.
    let h = store
        .history(&HistoryFilter {
            match_id: Some(m),
            ..HistoryFilter::default()
        })
        .await
        .unwrap();
    let actions: Vec<&str> = h.iter().map(|e| e.action.code()).collect();
    assert_eq!(
        actions,
        ["confirm_result", "record_result", "dispute_result"]
    );
    let dispute = find(&h, "match", "dispute_result");
    assert_eq!(dispute.entity_id, m.to_string());
    assert_eq!(dispute.reason.as_deref(), Some("board 4 was a draw"));
    assert_eq!(dispute.before, None);
    assert_eq!(
        dispute.after,
        Some(serde_json::json!({
            "version": 1, "kind": "disputed", "round": 1, "home": "vic", "away": "tol"
        }))
    );
    let loaded = loaded(&store, "gthscl", "varsity").await;
    let team = store
        .history(&HistoryFilter {
            team: Some((loaded.record.id, TeamId("tol".into()))),
            ..HistoryFilter::default()
        })
        .await
        .unwrap();
    assert!(team.iter().any(|e| e.action == "confirm_result"));
    assert!(team.iter().any(|e| e.action == "dispute_result"));
}

async fn reviews_are_append_only(store: Store) {
    let (_, m, _) = imported(&store).await;
    store
        .review_result(m, seen(1, 0), ReviewKind::Confirmed, &advisor(), None)
        .await
        .unwrap();
    for sql in [
        "UPDATE result_reviews SET kind = 'disputed'",
        "DELETE FROM result_reviews",
    ] {
        assert!(execute_raw(&store, sql).await.is_err(), "{sql} was allowed");
    }
    assert_eq!(store.result_reviews(m).await.unwrap().len(), 1);
    assert_eq!(
        store.result_reviews(m).await.unwrap()[0].kind,
        ReviewKind::Confirmed
    );
}

async fn every_account_change_is_in_the_history_without_secrets(store: Store) {
    let league = league(&store).await;
    let (invite, invite_plain) =
        president_invites(&store, ADVISOR, &league, Role::Advisor, Some(VIC))
            .await
            .unwrap();
    let phc = hash_password("a long pass phrase").unwrap();
    let (ada, membership) = store
        .accept_invite(
            &invite_plain,
            AcceptInvite::NewAccount {
                name: "Ada",
                password_hash: &phc,
            },
            any_sender,
        )
        .await
        .unwrap();
    let reset_plain = store
        .create_password_reset(ada.id, SignedDuration::from_hours(1))
        .await
        .unwrap();
    let reset_phc = hash_password("another pass phrase").unwrap();
    store
        .use_password_reset(&reset_plain, &reset_phc)
        .await
        .unwrap();
    let (token, token_plain) = store
        .create_api_token(
            &NewApiToken {
                user: ada.id,
                league: league.id,
                role: Role::Advisor,
                school: Some(VIC.into()),
                label: "roster sync".into(),
            },
            &president(),
        )
        .await
        .unwrap();
    store
        .revoke_api_token(token.id, &president())
        .await
        .unwrap();

    let h = league_history(&store, league.id).await;
    let invite_row = find(&h, "invite", "create");
    assert_eq!(invite_row.entity_id, invite.id.to_string());
    assert_eq!(invite_row.actor.as_deref(), Some(OFFICER));
    assert_eq!(invite_row.before, None);
    assert_eq!(
        invite_row.after,
        Some(serde_json::json!({
            "email": ADVISOR, "role": "advisor", "school": VIC,
            "expires_at": invite.expires_at.to_string(),
        }))
    );
    let accepted = find(&h, "invite", "accept");
    assert_eq!(accepted.before, invite_row.after);
    assert!(
        accepted.after.as_ref().unwrap()["accepted_at"].is_string(),
        "{accepted:?}"
    );
    let created = find(&h, "user", "create");
    assert_eq!(created.entity_id, ada.id.to_string());
    assert_eq!(
        created.after,
        Some(serde_json::json!({ "email": ADVISOR, "name": "Ada" }))
    );
    let granted = find(&h, "membership", "grant");
    assert_eq!(granted.entity_id, membership.id.to_string());
    assert_eq!(granted.actor.as_deref(), Some(ADVISOR));
    assert_eq!(
        granted.after,
        Some(serde_json::json!({
            "user": ADVISOR, "league": "gthscl", "role": "advisor", "school": VIC
        }))
    );
    let token_row = find(&h, "api_token", "create");
    assert_eq!(
        token_row.after,
        Some(serde_json::json!({
            "prefix": token.prefix, "label": "roster sync", "role": "advisor", "school": VIC
        }))
    );
    let revoked = find(&h, "api_token", "revoke");
    assert_eq!(revoked.before, token_row.after);
    assert_eq!(revoked.after, None);
    // The invite named one of the league's schools: none was added.
    assert!(!h.iter().any(|e| e.entity == "school"));

    // A reset is not league data; its row is in the whole history.
    let all = store.history(&HistoryFilter::default()).await.unwrap();
    let reset = find(&all, "user", "set_password");
    assert_eq!(
        reset.after,
        Some(serde_json::json!({ "email": ADVISOR, "name": "Ada" }))
    );

    let text = history_text(&store).await;
    for secret in [
        invite_plain.as_str(),
        &token_hash(&invite_plain),
        reset_plain.as_str(),
        &token_hash(&reset_plain),
        token_plain.as_str(),
        &token_hash(&token_plain),
        phc.as_str(),
        reset_phc.as_str(),
        "$argon2",
    ] {
        assert!(
            !text.contains(secret),
            "the history holds a secret: {secret}"
        );
    }
    // The raw columns too, not only what `history` reads back.
    let leaked = fetch_i64(
        &store,
        "SELECT COUNT(*) FROM history WHERE CAST(after_json AS TEXT) LIKE '%argon2%' \
         OR CAST(before_json AS TEXT) LIKE '%argon2%'",
    )
    .await;
    assert_eq!(leaked, 0);
}

async fn history_filters_by_season(store: Store) {
    let (season, m, _) = imported(&store).await;
    store
        .review_result(m, seen(1, 0), ReviewKind::Confirmed, &advisor(), None)
        .await
        .unwrap();
    let gthscl = store.league("gthscl").await.unwrap().unwrap();
    let other = store
        .create_season(gthscl.id, &new_season("2026-27"), &arbiter())
        .await
        .unwrap();
    let h = store
        .history(&HistoryFilter {
            season: Some(season),
            ..HistoryFilter::default()
        })
        .await
        .unwrap();
    // The competition, its 4 teams, 2 new schools and the review; not the league or seasons.
    assert_eq!(h.len(), 8, "{h:#?}");
    assert!(
        h.iter()
            .all(|e| e.entity != "league" && e.entity != "season")
    );
    assert_eq!(h[0].action, "confirm_result");
    assert!(
        store
            .history(&HistoryFilter {
                season: Some(other.id),
                ..HistoryFilter::default()
            })
            .await
            .unwrap()
            .is_empty()
    );
}

async fn failed_sign_ins_and_reset_requests_are_counted_per_account_and_address(store: Store) {
    store.migrate().await.unwrap();
    let start = jiff::Timestamp::now() - SignedDuration::from_secs(1);
    let version = store.data_version().await.unwrap();
    for address in ["192.0.2.1", "192.0.2.1", "2001:db8::1"] {
        store
            .record_sign_in_failure(&parsed_email(" Advisor@VIC.example"), address)
            .await
            .unwrap();
    }
    store
        .record_sign_in_failure(&parsed_email("someone@else.example"), "192.0.2.1")
        .await
        .unwrap();
    let failures = |email: &'static str, address: &'static str, since| {
        let store = store.clone();
        async move {
            store
                .sign_in_failures(&parsed_email(email), address, since)
                .await
                .unwrap()
        }
    };
    let from_first = failures(ADVISOR, "192.0.2.1", start).await;
    assert_eq!(from_first.count, 2);
    assert!(from_first.earliest.is_some_and(|t| t >= start));
    assert_eq!(failures(ADVISOR, "2001:db8::1", start).await.count, 1);
    assert_eq!(failures(ADVISOR, "192.0.2.9", start).await.count, 0);
    assert_eq!(
        failures("someone@else.example", "192.0.2.1", start)
            .await
            .count,
        1
    );
    let later = jiff::Timestamp::now() + SignedDuration::from_secs(3600);
    assert_eq!(
        failures(ADVISOR, "192.0.2.1", later).await,
        Attempts {
            count: 0,
            earliest: None
        }
    );
    // Reset requests have their own count: failed sign-ins are not among them.
    assert_eq!(
        store
            .reset_requests(&parsed_email(ADVISOR), None, start)
            .await
            .unwrap()
            .count,
        0
    );
    for address in ["192.0.2.1", "192.0.2.2"] {
        store
            .record_reset_request(&parsed_email(ADVISOR), address)
            .await
            .unwrap();
    }
    assert_eq!(
        store
            .reset_requests(&parsed_email(ADVISOR), None, start)
            .await
            .unwrap()
            .count,
        2
    );
    let from_second = store
        .reset_requests(&parsed_email(ADVISOR), Some("192.0.2.2"), start)
        .await
        .unwrap();
    assert_eq!(from_second.count, 1);
    assert_eq!(failures(ADVISOR, "192.0.2.2", start).await.count, 0);
    // Not league data: no history row, no new data version.
    assert!(
        store
            .history(&HistoryFilter::default())
            .await
            .unwrap()
            .is_empty()
    );
    assert_eq!(store.data_version().await.unwrap(), version);
}

/// Issue 9: a pending invitation withdrawn by an officer can no longer be accepted; the row
/// and the history keep when, by whom and why. An accepted one is not withdrawn.
async fn a_withdrawn_invite_cannot_be_accepted_and_the_history_keeps_it(store: Store) {
    let league = league(&store).await;
    let (invite, plain) = president_invites(&store, ADVISOR, &league, Role::Advisor, Some(VIC))
        .await
        .unwrap();
    let withdrawn = store
        .withdraw_invite(
            league.id,
            invite.id,
            &president(),
            Some(" sent to the wrong coach "),
        )
        .await
        .unwrap();
    assert_eq!(withdrawn.withdrawn_by.as_deref(), Some(OFFICER));
    assert!(withdrawn.withdrawn_at.is_some());
    assert_eq!(
        store.invites(league.id).await.unwrap(),
        vec![withdrawn.clone()]
    );
    let phc = hash_password("a long pass phrase").unwrap();
    let new = AcceptInvite::NewAccount {
        name: "Ada",
        password_hash: &phc,
    };
    let e = invalid(
        store
            .accept_invite(&plain, new, any_sender)
            .await
            .unwrap_err(),
    );
    assert!(
        e.starts_with("This invitation was withdrawn on ")
            && e.contains(&format!(" by {OFFICER};")),
        "{e}"
    );
    assert_eq!(account_of(&store, ADVISOR).await, None);
    let e = invalid(
        store
            .withdraw_invite(league.id, invite.id, &president(), None)
            .await
            .unwrap_err(),
    );
    assert!(e.contains("was already withdrawn on "), "{e}");
    let h = league_history(&store, league.id).await;
    let row = find(&h, "invite", "withdraw");
    assert_eq!(row.entity_id, invite.id.to_string());
    assert_eq!(row.actor.as_deref(), Some(OFFICER));
    assert_eq!(row.reason.as_deref(), Some("sent to the wrong coach"));
    assert_eq!(row.after.as_ref().unwrap()["email"], ADVISOR);
    assert!(row.after.as_ref().unwrap()["withdrawn_at"].is_string());

    // Accepted: the role is removed instead; another league's invitation is not found here.
    let (taken, plain) = president_invites(&store, "b@vic.example", &league, Role::Arbiter, None)
        .await
        .unwrap();
    let new = AcceptInvite::NewAccount {
        name: "Bo",
        password_hash: &phc,
    };
    store.accept_invite(&plain, new, any_sender).await.unwrap();
    let e = invalid(
        store
            .withdraw_invite(league.id, taken.id, &president(), None)
            .await
            .unwrap_err(),
    );
    assert!(
        e.contains("remove the role it gave on the People page"),
        "{e}"
    );
    assert!(matches!(
        store
            .withdraw_invite(
                arbiter_store::LeagueId(league.id.0 + 1000),
                taken.id,
                &president(),
                None
            )
            .await,
        Err(StoreError::NotFound(_))
    ));
}

/// Issue 9: the caller's check of the sender's roles is asked inside the acceptance, with the
/// sender's roles in the league as they are then; its refusal grants nothing.
async fn an_invite_is_checked_against_its_senders_roles_when_accepted(store: Store) {
    let league = league(&store).await;
    let sender = store
        .create_user(OFFICER, "Pat President", None, &arbiter())
        .await
        .unwrap();
    let held = store
        .grant_role(sender.id, league.id, Role::President, None, &arbiter())
        .await
        .unwrap();
    let (_, plain) = president_invites(&store, ADVISOR, &league, Role::President, None)
        .await
        .unwrap();
    store
        .revoke_role(held.id, &arbiter(), Some("stood down"))
        .await
        .unwrap();
    let phc = hash_password("a long pass phrase").unwrap();
    let new = AcceptInvite::NewAccount {
        name: "Ada",
        password_hash: &phc,
    };
    let seen = std::sync::Mutex::new(None);
    let e = invalid(
        store
            .accept_invite(&plain, new, |invite, roles| {
                *seen.lock().unwrap() = Some((invite.invited_by.clone(), roles.len()));
                Err("the sender may no longer invite".into())
            })
            .await
            .unwrap_err(),
    );
    assert_eq!(e, "the sender may no longer invite");
    assert_eq!(*seen.lock().unwrap(), Some((Some(OFFICER.to_string()), 0)));
    assert_eq!(account_of(&store, ADVISOR).await, None);
    assert_eq!(
        store
            .invite_by_token(&plain)
            .await
            .unwrap()
            .unwrap()
            .accepted_at,
        None
    );
}

/// Issue 9, item 10: whoever writes (a form, the API, the command line, a file), a reason,
/// name, label, email or description beyond `arbiter_core::record::text`'s limit is refused with the
/// sentence, and the store is as it was. The limit itself is kept.
async fn texts_beyond_their_limits_are_refused_with_a_sentence_and_nothing_is_written(
    store: Store,
) {
    use arbiter_core::record::text::{
        DESCRIPTION_MAX_CHARS, EMAIL_MAX_CHARS, LABEL_MAX_CHARS, NAME_MAX_CHARS, REASON_MAX_CHARS,
    };
    let (_, m, _) = imported(&store).await;
    let league = store.league("gthscl").await.unwrap().unwrap();
    let long = |n: usize| "\u{E9}".repeat(n);
    let too_long = |e: StoreError, what: &str| {
        let e = invalid(e);
        assert!(e.starts_with(what), "{e}");
        assert!(e.contains("Shorten it"), "{e}");
        assert!(e.len() < 200, "the sentence does not repeat the text: {e}");
    };
    let version = store.data_version().await.unwrap();
    let visitor = Actor::user("advisor@toledo.example", Role::Advisor);

    let over = long(REASON_MAX_CHARS + 1);
    too_long(
        store
            .review_result(m, seen(1, 0), ReviewKind::Disputed, &visitor, Some(&over))
            .await
            .unwrap_err(),
        "The reason has 1,001 characters; a reason may have at most 1,000.",
    );
    let outcome = store.result_versions(m).await.unwrap()[0].outcome.clone();
    too_long(
        store
            .record_result(m, seen(1, 0), &outcome, &arbiter(), Some(&over))
            .await
            .unwrap_err(),
        "The reason has 1,001",
    );
    too_long(
        store
            .create_user(
                &format!("{}@x.example", "a".repeat(EMAIL_MAX_CHARS)),
                "Pat",
                None,
                &arbiter(),
            )
            .await
            .unwrap_err(),
        "The email address has 264 characters",
    );
    too_long(
        store
            .create_user(ADVISOR, &long(NAME_MAX_CHARS + 1), None, &arbiter())
            .await
            .unwrap_err(),
        "The account's name has 101",
    );
    let mut league_too = new_league("other");
    league_too.description = long(DESCRIPTION_MAX_CHARS + 1);
    too_long(
        store
            .create_league(&league_too, &arbiter())
            .await
            .unwrap_err(),
        "The league's description has 2,001",
    );
    league_too.description = String::new();
    league_too.name = long(NAME_MAX_CHARS + 1);
    too_long(
        store
            .create_league(&league_too, &arbiter())
            .await
            .unwrap_err(),
        "The league's name has 101",
    );
    let season = store.seasons(league.id).await.unwrap()[0].clone();
    let mut file = every_kind_of_result();
    file.teams[0].name = long(NAME_MAX_CHARS + 1);
    too_long(
        store
            .import_competition(season.id, &new_competition("jv"), &file, &arbiter())
            .await
            .unwrap_err(),
        &format!("The name of team {} has 101", file.teams[0].id),
    );
    assert_eq!(
        store.data_version().await.unwrap(),
        version,
        "nothing was written"
    );

    // Exactly at the limits, each is kept as given.
    let at = long(REASON_MAX_CHARS);
    let review = store
        .review_result(m, seen(1, 0), ReviewKind::Disputed, &visitor, Some(&at))
        .await
        .unwrap();
    assert_eq!(review.reason.as_deref(), Some(at.as_str()));
    let user = store
        .create_user(ADVISOR, &long(NAME_MAX_CHARS), None, &arbiter())
        .await
        .unwrap();
    assert_eq!(user.name.chars().count(), NAME_MAX_CHARS);
    store
        .grant_role(user.id, league.id, Role::Secretary, None, &arbiter())
        .await
        .unwrap();
    let token = |label: String| NewApiToken {
        user: user.id,
        league: league.id,
        role: Role::Secretary,
        school: None,
        label,
    };
    too_long(
        store
            .create_api_token(&token(long(LABEL_MAX_CHARS + 1)), &arbiter())
            .await
            .unwrap_err(),
        "The token's label has 81",
    );
    let (made, _) = store
        .create_api_token(&token(long(LABEL_MAX_CHARS)), &arbiter())
        .await
        .unwrap();
    assert_eq!(made.label.chars().count(), LABEL_MAX_CHARS);
}
