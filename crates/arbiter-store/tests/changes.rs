//! Issue 35: every kind of write marks exactly the competitions whose pages it changes, so that
//! a server sharing the database reloads those and keeps every other (`Store::changes_since`).
//! Run on every backend, as the store's suite is.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a test: a failure is a panic

#[macro_use]
mod support;

use std::collections::BTreeSet;

use arbiter_core::MatchOutcome;
use arbiter_core::record::money::Money;
use arbiter_core::record::text::PostalAddress;
use arbiter_core::rules::permissions::Role;
use arbiter_core::season::ledger::{Entry, EntryKind};
use arbiter_demo::testing::LeagueSetup;
use arbiter_store::{CompetitionId, NewApiToken, NewClosure, RulesChange, RulesRef, Store};
use support::*;

on_every_backend!(every_kind_of_write_marks_exactly_the_competitions_it_changes);

/// The competitions `write` marked as changed, read as another server would: by the data
/// version it last saw.
async fn marked<Fut>(store: &Store, write: Fut) -> BTreeSet<CompetitionId>
where
    Fut: std::future::Future<Output = ()>,
{
    let before = store.data_version().await.unwrap();
    write.await;
    let changes = store.changes_since(before).await.unwrap();
    assert!(changes.version > before, "the write wrote nothing");
    assert!(
        changes
            .competitions
            .iter()
            .all(|(_, v)| *v > before && *v <= changes.version),
        "{changes:?}"
    );
    changes.competitions.iter().map(|(id, _)| *id).collect()
}

async fn every_kind_of_write_marks_exactly_the_competitions_it_changes(store: Store) {
    store.migrate().await.unwrap();
    // Two seasons of one league (two divisions, then one), and another league.
    let gthscl = LeagueSetup::new(new_league("gthscl"))
        .by(arbiter())
        .season(new_season("2025-26"))
        .competition(new_competition("varsity"), every_kind_of_result())
        .competition(new_competition("jv"), every_kind_of_result())
        .season(new_season("2026-27"))
        .competition(new_competition("varsity-2026"), every_kind_of_result())
        .write(&store)
        .await;
    let other = LeagueSetup::new(new_league("other"))
        .by(arbiter())
        .season(new_season("2025-26"))
        .competition(new_competition("open"), every_kind_of_result())
        .write(&store)
        .await;
    let other_marked = store
        .changes_since(0)
        .await
        .unwrap()
        .competitions
        .iter()
        .find(|(id, _)| *id == other.competitions[0].id)
        .map(|(_, v)| *v)
        .expect("an import marks its competition");
    let [varsity, jv, next_varsity] = [0, 1, 2].map(|i| gthscl.competitions[i].id);
    let league = gthscl.league.id;
    let season = gthscl.seasons[0].id;
    let of = |ids: &[CompetitionId]| ids.iter().copied().collect::<BTreeSet<_>>();
    let mut rows: Vec<(&str, BTreeSet<CompetitionId>, BTreeSet<CompetitionId>)> = Vec::new();

    let loaded = store
        .load_competition_by_id(varsity)
        .await
        .unwrap()
        .unwrap();
    let m = loaded.match_ids[0].2;
    let seen = store.report_seen(m).await.unwrap();
    let changed = marked(&store, async {
        store
            .record_result(m, seen, &MatchOutcome::DoubleForfeit, &arbiter(), None)
            .await
            .unwrap();
    })
    .await;
    rows.push(("a result", of(&[varsity]), changed));

    let version = store
        .load_competition_by_id(jv)
        .await
        .unwrap()
        .unwrap()
        .record
        .version;
    let change = RulesChange {
        competition: jv,
        version,
        rules: RulesRef::Toml("extends = \"gthscl\"\n[fees]\nentry_fee = \"12.50\"\n".into()),
        changes: vec!["the entry fee (GT-O2) from $10.00 to $12.50".into()],
    };
    let changed = marked(&store, async {
        store
            .set_competition_rules(&[change], "the fee goes up", &arbiter())
            .await
            .unwrap();
    })
    .await;
    rows.push(("a competition's rules", of(&[jv]), changed));

    let changed = marked(&store, async {
        let adelaide = Zone::named("Australia/Adelaide").unwrap();
        store
            .set_time_zone(league, &adelaide, &arbiter())
            .await
            .unwrap();
    })
    .await;
    rows.push((
        "a league's time zone",
        of(&[varsity, jv, next_varsity]),
        changed,
    ));

    // A school's address shows on its teams' competitions only.
    let address = PostalAddress::parse("the address", "2010 Tremainsville Rd\nToledo, OH")
        .unwrap()
        .unwrap();
    let schools = store.schools(league).await.unwrap();
    let with_teams = schools
        .iter()
        .find(|s| s.name == "École Saint-Jean <&\"'>")
        .expect("the fixture's school");
    let changed = marked(&store, async {
        store
            .set_school_address(league, with_teams.id, Some(&address), &arbiter())
            .await
            .unwrap();
    })
    .await;
    rows.push((
        "a school's address",
        of(&[varsity, jv, next_varsity]),
        changed,
    ));
    let without_teams = store
        .add_school(league, "Start High School", &arbiter())
        .await
        .unwrap();
    let changed = marked(&store, async {
        store
            .set_school_address(league, without_teams.id, Some(&address), &arbiter())
            .await
            .unwrap();
    })
    .await;
    rows.push(("the address of a school with no team", of(&[]), changed));

    let changed = marked(&store, async {
        let closure = NewClosure {
            starts_on: jiff::civil::date(2025, 12, 22),
            ends_on: jiff::civil::date(2026, 1, 2),
            reason: "Winter break".into(),
        };
        store
            .add_closure(season, &closure, &arbiter())
            .await
            .unwrap();
    })
    .await;
    // No competition's pages read the closures: the schedule pages are the season's.
    rows.push(("a closure", of(&[]), changed));

    let mut imported = None;
    let changed = marked(&store, async {
        let record = store
            .import_competition(
                gthscl.seasons[1].id,
                &new_competition("jv-2026"),
                &every_kind_of_result(),
                &arbiter(),
            )
            .await
            .unwrap();
        imported = Some(record.id);
    })
    .await;
    // Only the new one: the season's others are as they were.
    rows.push(("an import", of(&[imported.unwrap()]), changed));

    let treasurer = arbiter_store::Actor::user("treasurer@gthscl.example", Role::Treasurer);
    let changed = marked(&store, async {
        let payment = Entry {
            number: 1,
            kind: EntryKind::Payment,
            school: Some("Start High School".into()),
            amount: Money::from_cents(1000),
            on: jiff::civil::date(2025, 10, 6),
            note: "cheque 1042".into(),
            reverses: None,
        };
        store
            .record_ledger_entry(league, season, &payment, &treasurer)
            .await
            .unwrap();
    })
    .await;
    rows.push(("a ledger entry", of(&[]), changed));

    let user = store
        .create_user("ada@gthscl.example", "Ada", None, &arbiter())
        .await
        .unwrap();
    let changed = marked(&store, async {
        store
            .grant_role(user.id, league, Role::Secretary, None, &arbiter())
            .await
            .unwrap();
    })
    .await;
    rows.push(("a role granted", of(&[]), changed));

    let changed = marked(&store, async {
        let token = NewApiToken {
            user: user.id,
            league,
            role: Role::Secretary,
            school: None,
            label: "nightly import".into(),
        };
        store.create_api_token(&token, &arbiter()).await.unwrap();
    })
    .await;
    rows.push(("an API token", of(&[]), changed));

    let wrong: Vec<_> = rows
        .iter()
        .filter(|(_, expected, changed)| expected != changed)
        .collect();
    assert!(wrong.is_empty(), "marked other than expected: {wrong:#?}");
    // The other league was touched by none of it: its competition is marked as imported.
    let other_now = store.changes_since(0).await.unwrap();
    let mark = |changes: &arbiter_store::Changes| {
        changes
            .competitions
            .iter()
            .find(|(id, _)| *id == other.competitions[0].id)
            .map(|(_, v)| *v)
    };
    assert_eq!(mark(&other_now), Some(other_marked), "{other_now:?}");
}
