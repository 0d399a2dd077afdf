//! Issue 35, item 5: the account pages and GT-P2's reminders ask the store which competitions
//! concern a person, and read the reports of those in two queries, instead of loading every
//! competition of the league. Run on every backend, as the store's suite is.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a test: a failure is a panic

#[macro_use]
mod support;

use arbiter_core::season::report::ReviewKind;
use arbiter_core::{Competition, MatchOutcome, Pairing};
use arbiter_demo::testing::LeagueSetup;
use arbiter_store::{Actor, CompetitionId, Store};
use jiff::civil::date;
use support::*;

on_every_backend!(
    a_school_s_competitions_are_those_its_teams_play_in,
    open_reports_are_the_competitions_that_ask_something_of_someone,
);

/// `every_kind_of_result()` with each match's outcome `outcome`, every match on 1 Oct 2025.
fn every_match(outcome: &MatchOutcome) -> Competition {
    let mut c = every_kind_of_result();
    for r in &mut c.rounds {
        r.date = Some(date(2025, 10, 1));
        for p in &mut r.pairings {
            if let Pairing::Match(m) = p {
                m.outcome = outcome.clone();
                m.date = None;
            }
        }
    }
    c
}

async fn a_school_s_competitions_are_those_its_teams_play_in(store: Store) {
    store.migrate().await.unwrap();
    let mut without_toledo = every_kind_of_result();
    for t in &mut without_toledo.teams {
        if t.school.as_deref() == Some("Toledo High") {
            t.school = None;
        }
    }
    let gthscl = LeagueSetup::new(new_league("gthscl"))
        .by(arbiter())
        .season(new_season("2025-26"))
        .competition(new_competition("varsity"), every_kind_of_result())
        .competition(new_competition("jv"), without_toledo)
        .write(&store)
        .await;
    let other = LeagueSetup::new(new_league("other"))
        .by(arbiter())
        .season(new_season("2025-26"))
        .competition(new_competition("open"), every_kind_of_result())
        .write(&store)
        .await;
    let ids = |s: &arbiter_demo::testing::Written| -> Vec<CompetitionId> {
        s.competitions.iter().map(|c| c.id).collect()
    };
    let (gthscl_ids, other_ids) = (ids(&gthscl), ids(&other));
    let of = |league, school: &'static str| {
        let store = store.clone();
        async move { store.competitions_of_school(league, school).await.unwrap() }
    };
    assert_eq!(
        of(gthscl.league.id, "Toledo High").await,
        [gthscl_ids[0]],
        "Toledo plays in the varsity division only"
    );
    let mut both = gthscl_ids.clone();
    both.sort();
    assert_eq!(of(gthscl.league.id, "École Saint-Jean <&\"'>").await, both);
    assert_eq!(
        of(other.league.id, "Toledo High").await,
        other_ids,
        "a school of the same name in another league is that league's"
    );
    assert!(of(gthscl.league.id, "No Such School").await.is_empty());
}

async fn open_reports_are_the_competitions_that_ask_something_of_someone(store: Store) {
    store.migrate().await.unwrap();
    let set = LeagueSetup::new(new_league("gthscl"))
        .by(arbiter())
        .season(new_season("2025-26"))
        .competition(
            new_competition("decided"),
            every_match(&MatchOutcome::DoubleForfeit),
        )
        .competition(
            new_competition("to-play"),
            every_match(&MatchOutcome::Pending),
        )
        .write(&store)
        .await;
    let (decided, to_play) = (set.competitions[0].id, set.competitions[1].id);
    let league = set.league.id;
    let open = |today| {
        let store = store.clone();
        async move {
            store
                .competitions_with_open_reports(league, today)
                .await
                .unwrap()
        }
    };
    // An officer's import stands (GT-O3); matches not yet played ask nothing.
    assert!(open(date(2025, 9, 30)).await.is_empty());
    // GT-P2: from the match day, a result not entered is asked for.
    assert_eq!(open(date(2025, 10, 1)).await, [to_play]);

    // A team's entry awaits the visitors until they confirm it.
    let loaded = store
        .load_competition_by_id(decided)
        .await
        .unwrap()
        .unwrap();
    let m = loaded.match_ids[0].2;
    let seen = store.report_seen(m).await.unwrap();
    let advisor = Actor::user(
        "advisor@vic.example",
        arbiter_core::rules::permissions::Role::Advisor,
    );
    store
        .record_result(m, seen, &MatchOutcome::DoubleForfeit, &advisor, None)
        .await
        .unwrap();
    assert_eq!(open(date(2025, 10, 2)).await, [decided, to_play]);
    let reports = store.competition_reports(decided).await.unwrap();
    let in_force = reports.in_force(m).expect("the match's result in force");
    assert_eq!(
        (in_force.version, in_force.entered_by.as_deref()),
        (2, Some("advisor@vic.example")),
        "the version in force, not the import before it"
    );
    assert!(reports.reviews(m).is_empty());

    let seen = store.report_seen(m).await.unwrap();
    let visitor = Actor::user(
        "advisor@tol.example",
        arbiter_core::rules::permissions::Role::Advisor,
    );
    store
        .review_result(m, seen, ReviewKind::Confirmed, &visitor, None)
        .await
        .unwrap();
    assert_eq!(
        open(date(2025, 10, 2)).await,
        [to_play],
        "confirmed: it stands"
    );
    let reports = store.competition_reports(decided).await.unwrap();
    assert_eq!(
        reports
            .reviews(m)
            .iter()
            .map(|r| (r.version, r.kind))
            .collect::<Vec<_>>(),
        [(2, ReviewKind::Confirmed)]
    );
}
