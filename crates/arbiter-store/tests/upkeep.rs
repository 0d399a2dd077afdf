//! The history read a page at a time, who joined a league in its history, and old failed
//! sign-ins forgotten; on every backend (SQLite file and memory, PostgreSQL when configured).
#![allow(clippy::unwrap_used, clippy::expect_used)] // a test: a failure is a panic

#[macro_use]
mod support;

use arbiter_core::rules::permissions::Role;
use arbiter_store::secrets::hash_password;
use arbiter_store::{AcceptInvite, HistoryFilter, NewInvite, Store};
use jiff::SignedDuration;
use support::*;

on_every_backend!(
    history_pages_follow_on_with_before,
    an_accepted_invite_puts_the_new_account_in_the_league_history,
    old_failed_sign_ins_are_forgotten,
);

async fn history_pages_follow_on_with_before(store: Store) {
    store.migrate().await.unwrap();
    let gthscl = store
        .create_league(&new_league("gthscl"), &arbiter())
        .await
        .unwrap();
    let other = store
        .create_league(&new_league("other"), &arbiter())
        .await
        .unwrap();
    for n in 0..5 {
        store
            .create_season(gthscl.id, &new_season(&format!("20{n}")), &arbiter())
            .await
            .unwrap();
        // Rows of another league in between: `before` counts row ids, the filter still holds.
        store
            .create_season(other.id, &new_season(&format!("20{n}")), &arbiter())
            .await
            .unwrap();
    }
    let league = |before, limit| HistoryFilter {
        league: Some(gthscl.id),
        before,
        limit,
        ..HistoryFilter::default()
    };
    let all = store.history(&league(None, None)).await.unwrap();
    // The league and its five seasons, newest first.
    assert_eq!(all.len(), 6, "{all:#?}");

    let mut paged = Vec::new();
    let mut before = None;
    loop {
        let page = store.history(&league(before, Some(2))).await.unwrap();
        if page.is_empty() {
            break;
        }
        assert!(page.len() <= 2);
        assert!(page.iter().all(|e| before.is_none_or(|b| e.id < b)));
        before = page.last().map(|e| e.id);
        paged.extend(page);
    }
    assert_eq!(paged, all);

    // Older than the oldest row: nothing. Older than the newest: all but it.
    let oldest = all.last().unwrap().id;
    assert!(
        store
            .history(&league(Some(oldest), None))
            .await
            .unwrap()
            .is_empty()
    );
    let newest = all[0].id;
    assert_eq!(
        store.history(&league(Some(newest), None)).await.unwrap(),
        all[1..]
    );
    // Without a league, `before` pages the whole history.
    let whole = store
        .history(&HistoryFilter {
            before: Some(newest),
            ..HistoryFilter::default()
        })
        .await
        .unwrap();
    let everything = store.history(&HistoryFilter::default()).await.unwrap();
    let expected: Vec<_> = everything.into_iter().filter(|e| e.id < newest).collect();
    // The other league's last season came after `newest`; its earlier ones are below it.
    assert!(
        expected
            .iter()
            .any(|e| e.id < newest && e.entity == "season")
    );
    assert_eq!(whole, expected);
    assert!(whole.len() > all.len() - 1);
}

async fn an_accepted_invite_puts_the_new_account_in_the_league_history(store: Store) {
    store.migrate().await.unwrap();
    let gthscl = store
        .create_league(&new_league("gthscl"), &arbiter())
        .await
        .unwrap();
    let other = store
        .create_league(&new_league("other"), &arbiter())
        .await
        .unwrap();
    add_school(&store, gthscl.id, "Clay High School").await;
    let (_, plain) = store
        .create_invite(
            &NewInvite {
                email: "new.advisor@clay.example".into(),
                league: gthscl.id,
                role: Role::Advisor,
                school: Some("Clay High School".into()),
                valid_for: SignedDuration::from_hours(24),
            },
            &arbiter(),
        )
        .await
        .unwrap();
    let phc = hash_password("a long pass phrase").unwrap();
    let (user, membership) = store
        .accept_invite(
            &plain,
            AcceptInvite::NewAccount {
                name: "Nell Advisor",
                password_hash: &phc,
            },
            any_sender,
        )
        .await
        .unwrap();
    let in_league = |league| HistoryFilter {
        league: Some(league),
        ..HistoryFilter::default()
    };
    let h = store.history(&in_league(gthscl.id)).await.unwrap();
    let created = h
        .iter()
        .find(|e| e.entity == "user" && e.action == "create")
        .unwrap_or_else(|| panic!("no account row in the league's history: {h:#?}"));
    assert_eq!(created.entity_id, user.id.to_string());
    assert_eq!(created.actor.as_deref(), Some("new.advisor@clay.example"));
    let granted = h
        .iter()
        .find(|e| e.entity == "membership" && e.action == "grant")
        .unwrap_or_else(|| panic!("no role row in the league's history: {h:#?}"));
    assert_eq!(granted.entity_id, membership.id.to_string());
    h.iter()
        .find(|e| e.entity == "invite" && e.action == "accept")
        .unwrap();
    // The other league's history does not show who joined this one.
    let elsewhere = store.history(&in_league(other.id)).await.unwrap();
    assert!(
        elsewhere
            .iter()
            .all(|e| e.entity != "user" && e.entity != "membership"),
        "{elsewhere:#?}"
    );
}

async fn old_failed_sign_ins_are_forgotten(store: Store) {
    store.migrate().await.unwrap();
    let version = store.data_version().await.unwrap();
    // Two from last year (written as the store writes its times), one from now.
    for address in ["192.0.2.1", "192.0.2.2"] {
        let sql = format!(
            "INSERT INTO sign_in_failures (email, address, at) \
             VALUES ('old@vic.example', '{address}', '2025-01-02T03:04:05.000000Z')"
        );
        assert_eq!(execute_raw(&store, &sql).await.unwrap(), 1);
    }
    store
        .record_sign_in_failure(
            &arbiter_core::record::text::Email::parse("recent@vic.example").unwrap(),
            "192.0.2.3",
        )
        .await
        .unwrap();
    let long_ago = "2020-01-01T00:00:00Z".parse().unwrap();
    assert_eq!(
        store
            .sign_in_failures(
                &arbiter_core::record::text::Email::parse("old@vic.example").unwrap(),
                "192.0.2.1",
                long_ago
            )
            .await
            .unwrap()
            .count,
        1
    );

    let a_day_ago = jiff::Timestamp::now() - SignedDuration::from_hours(24);
    assert_eq!(store.forget_sign_in_failures(a_day_ago).await.unwrap(), 2);
    assert_eq!(
        store
            .sign_in_failures(
                &arbiter_core::record::text::Email::parse("old@vic.example").unwrap(),
                "192.0.2.1",
                long_ago
            )
            .await
            .unwrap()
            .count,
        0
    );
    assert_eq!(
        store
            .sign_in_failures(
                &arbiter_core::record::text::Email::parse("recent@vic.example").unwrap(),
                "192.0.2.3",
                long_ago
            )
            .await
            .unwrap()
            .count,
        1,
        "a recent failure still counts for the throttle"
    );
    // Nothing more is that old.
    assert_eq!(store.forget_sign_in_failures(a_day_ago).await.unwrap(), 0);
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
