//! Issue 34 item 1: a league's published rating lists stored, listed, and read back for a
//! competition's players only; a player's federation id kept with the roster.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a test: a failure is a panic

#[macro_use]
mod support;

use arbiter_core::rating::list::{Birth, ListedRating, RatingList};
use arbiter_store::{HistoryAction, HistoryFilter, Store, StoreError};
use support::*;

on_every_backend!(a_list_is_stored_once_and_read_for_the_competitions_players);

fn entry(id: &str, name: &str, birth: Option<Birth>, rating: u32) -> ListedRating {
    ListedRating {
        federation_id: id.into(),
        name: name.into(),
        birth,
        rating,
    }
}

async fn a_list_is_stored_once_and_read_for_the_competitions_players(store: Store) {
    store.migrate().await.unwrap();
    let season = league_and_season(&store, "gthscl").await;
    import_fixture(&store, season.id, "varsity").await;
    let loaded = loaded(&store, "gthscl", "varsity").await;
    // The fixture's Ana-María Núñez has the id 2000001.
    let ana = loaded
        .competition
        .teams
        .iter()
        .flat_map(|t| &t.players)
        .find(|p| p.record.federation_id.as_deref() == Some("2000001"))
        .expect("the federation id is kept with the roster")
        .clone();
    let mut entries = vec![
        entry("2000001", "Núñez, Ana-María", Some(Birth::Year(2009)), 1540),
        // By name: Zoë Ångström has no id on the roster.
        entry(
            "2000002",
            "Ångström, Zoë",
            Some(Birth::Date(jiff::civil::date(2008, 1, 2))),
            1880,
        ),
    ];
    // Players of no competition of the league: not read back for it.
    entries.extend((3..1203).map(|i| {
        entry(
            &format!("{}", 2_000_000 + i),
            &format!("Other, Player {i}"),
            None,
            1500,
        )
    }));
    let list = RatingList {
        name: "FIDE February 2027".into(),
        in_force_from: jiff::civil::date(2027, 2, 1),
        entries,
    };
    let league = loaded.league.id;
    let stored = store
        .import_rating_list(league, &list, "fide-txt", &arbiter())
        .await
        .unwrap();
    assert_eq!(
        (stored.name.as_str(), stored.in_force_from, stored.entries),
        ("FIDE February 2027", jiff::civil::date(2027, 2, 1), 1202)
    );
    assert_eq!(store.rating_lists(league).await.unwrap(), [stored]);
    let again = store
        .import_rating_list(league, &list, "fide-txt", &arbiter())
        .await
        .unwrap_err();
    assert!(
        matches!(&again, StoreError::Conflict(m) if m.contains("already has a rating list named FIDE February 2027 in force from 2027-02-01")),
        "{again}"
    );
    let read = store
        .rating_lists_for(league, &loaded.competition)
        .await
        .unwrap();
    assert_eq!(read.len(), 1);
    assert_eq!(read[0].entries, list.entries[..2]);
    assert_eq!(read[0].find(&ana).map(|e| e.rating), Some(1540));
    let history = store.history(&HistoryFilter::default()).await.unwrap();
    assert!(history.iter().any(|h| h.action == HistoryAction::Import
        && h.after.as_ref().is_some_and(|a| a["entries"] == 1202)));
}
