//! Issue 35: the home page reads the week's rounds, the next round and the match forfeits from
//! the rounds' dates, picking in the database the few rounds it shows of a federation's round
//! day. Run on every backend, as the store's suite is: the picking is SQL (window functions)
//! each backend runs itself.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a test: a failure is a panic

#[macro_use]
mod support;

use arbiter_core::{Competition, MatchOutcome, Pairing};
use arbiter_demo::testing::{LeagueSetup, Written};
use arbiter_store::{CompetitionId, DatedRound, MoreOnDay, Store};
use jiff::civil::{Date, date};
use support::*;

on_every_backend!(
    a_day_s_rounds_are_its_first_divisions_in_the_site_s_order_and_the_rest_counted,
    the_next_round_is_the_first_in_the_site_s_order_on_the_first_day_after,
    match_forfeits_are_counted_by_team_for_the_competitions_asked,
);

/// The first round's day; the others follow a week apart.
const FIRST: Date = date(2025, 10, 6);

/// The day of round `number`.
fn day_of(number: u32) -> Date {
    FIRST.saturating_add(jiff::Span::new().weeks(i64::from(number) - 1))
}

/// `every_kind_of_result()` with its rounds a week apart from [`FIRST`], each match on its
/// round's day, and `outcome` for every match when given.
fn dated(outcome: Option<&MatchOutcome>) -> Competition {
    let mut c = every_kind_of_result();
    for r in &mut c.rounds {
        r.date = Some(day_of(r.number));
        for p in &mut r.pairings {
            if let Pairing::Match(m) = p {
                m.date = None;
                if let Some(outcome) = outcome {
                    m.outcome = outcome.clone();
                }
            }
        }
    }
    c
}

/// A league named `name` with a season of `divisions` divisions, each dated as [`dated`].
async fn league(store: &Store, slug: &str, name: &str, divisions: usize) -> Written {
    let mut setup = LeagueSetup::new(arbiter_store::NewLeague {
        name: name.to_string(),
        ..new_league(slug)
    })
    .by(arbiter())
    .season(new_season("2025-26"));
    for n in 1..=divisions {
        setup = setup.competition(new_competition(&format!("division-{n}")), dated(None));
    }
    setup.write(store).await
}

fn ids(w: &Written) -> Vec<CompetitionId> {
    w.competitions.iter().map(|c| c.id).collect()
}

fn competitions_of(rounds: &[DatedRound]) -> Vec<CompetitionId> {
    rounds.iter().map(|r| r.competition).collect()
}

async fn a_day_s_rounds_are_its_first_divisions_in_the_site_s_order_and_the_rest_counted(
    store: Store,
) {
    store.migrate().await.unwrap();
    let big = league(&store, "big", "Big League", 5).await;
    let small = league(&store, "small", "Small League", 2).await;
    let day = day_of(2);

    let week = store.rounds_between(day, day, 3).await.unwrap();
    let (big_ids, small_ids) = (ids(&big), ids(&small));
    assert_eq!(
        competitions_of(&week.rounds),
        [&big_ids[..3], &small_ids[..]].concat(),
        "the first three of the big league's day, both of the small league's"
    );
    assert!(week.rounds.iter().all(|r| r.date == day && r.number == 2));
    assert_eq!(
        week.more,
        [MoreOnDay {
            league: big.league.id,
            date: day,
            competitions: 2,
            season: Some(big.seasons[0].id),
        }]
    );

    // Three round days: each day is picked on its own.
    let weeks = store.rounds_between(day_of(1), day_of(3), 1).await.unwrap();
    let days: Vec<(Date, CompetitionId)> = weeks
        .rounds
        .iter()
        .map(|r| (r.date, r.competition))
        .collect();
    let mut expected = Vec::new();
    for n in 1..=3 {
        expected.push((day_of(n), big_ids[0]));
        expected.push((day_of(n), small_ids[0]));
    }
    assert_eq!(days, expected);
    assert_eq!(weeks.more.len(), 6, "{:?}", weeks.more);

    let none = store
        .rounds_between(date(2025, 9, 1), date(2025, 9, 7), 3)
        .await
        .unwrap();
    assert!(none.rounds.is_empty() && none.more.is_empty());
}

async fn the_next_round_is_the_first_in_the_site_s_order_on_the_first_day_after(store: Store) {
    store.migrate().await.unwrap();
    // Stored first, listed second: the site orders leagues by name.
    let zebra = league(&store, "zebra", "Zebra League", 2).await;
    let apple = league(&store, "apple", "Apple League", 2).await;
    let both = [zebra.league.id, apple.league.id];

    let next = store
        .first_round_after(FIRST, &both)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        (next.competition, next.number, next.date),
        (apple.competitions[0].id, 2, day_of(2))
    );
    // Only the leagues asked for.
    let next = store
        .first_round_after(FIRST, &[zebra.league.id])
        .await
        .unwrap()
        .unwrap();
    assert_eq!(next.competition, zebra.competitions[0].id);
    let rounds = u32::try_from(dated(None).rounds.len()).unwrap();
    assert_eq!(
        store
            .first_round_after(day_of(rounds), &both)
            .await
            .unwrap(),
        None,
        "nothing after the last round"
    );
}

async fn match_forfeits_are_counted_by_team_for_the_competitions_asked(store: Store) {
    store.migrate().await.unwrap();
    let w = LeagueSetup::new(new_league("gthscl"))
        .by(arbiter())
        .season(new_season("2025-26"))
        .competition(new_competition("forfeits"), dated(None))
        .competition(
            new_competition("one-side"),
            dated(Some(&MatchOutcome::Forfeit {
                by: arbiter_core::Side::Home,
            })),
        )
        .competition(
            new_competition("pending"),
            dated(Some(&MatchOutcome::Pending)),
        )
        .write(&store)
        .await;
    let [forfeits, one_side, pending] = [0, 1, 2].map(|i| w.competitions[i].id);
    let most = store
        .most_match_forfeits(&[forfeits, one_side, pending])
        .await
        .unwrap();
    // every_kind_of_result: two teams each forfeit one match.
    assert_eq!(most.get(&forfeits), Some(&1));
    // Every match forfeited by its home team: the team at home most often.
    let home_most = {
        let c = dated(None);
        let mut at_home = std::collections::HashMap::<_, u32>::new();
        for p in c.rounds.iter().flat_map(|r| &r.pairings) {
            if let Pairing::Match(m) = p {
                *at_home.entry(m.home.clone()).or_default() += 1;
            }
        }
        at_home.into_values().max().unwrap()
    };
    assert_eq!(most.get(&one_side), Some(&home_most));
    assert_eq!(most.get(&pending), None, "no forfeit, not listed");
    assert!(
        store
            .most_match_forfeits(&[pending])
            .await
            .unwrap()
            .is_empty(),
        "only the competitions asked"
    );
}
