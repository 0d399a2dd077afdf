//! The store's suite, written once and run on every backend: SQLite on a temp file, SQLite in
//! memory, and PostgreSQL when `ARBITER_TEST_POSTGRES_URL` is set (required under CI=true).
#![allow(clippy::unwrap_used, clippy::expect_used)] // a test: a failure is a panic

#[macro_use]
mod support;

use arbiter_core::record::text::PostalAddress;
use arbiter_core::{
    Competition, GameResult, MatchOutcome, Pairing, PersonId, PlayerId, Ruleset, Side, TeamId,
};
use arbiter_store::json::outcome_from_json;
use arbiter_store::{
    Actor, CompetitionId, HistoryAction, HistoryFilter, ImportPlace, LeagueKind, MatchId,
    MatchMove, NewClosure, NewLeague, NewSeason, PlayerChange, ReportSeen, RulesRef, SeasonChoice,
    SeasonId, Store, StoreError,
};
use support::*;

on_every_backend!(
    migrate_twice_is_a_no_op,
    a_league_keeps_its_time_zone_and_a_change_of_it_is_in_the_history,
    import_then_load_rebuilds_the_same_competition,
    rules_given_as_toml_resolve_on_load,
    a_correction_is_a_new_version_and_the_old_one_stays,
    every_write_appends_history_with_before_and_after,
    history_filters_by_league_competition_match_and_team,
    data_version_bumps_on_each_write_and_only_then,
    slugs_are_unique_and_a_conflict_says_so,
    imports_that_cannot_be_stored_are_refused_whole,
    an_import_refused_at_its_last_check_leaves_no_league_and_no_season,
    an_import_finds_or_creates_its_league_and_season,
    unknown_ids_are_not_found,
    history_and_result_versions_refuse_update_and_delete,
    concurrent_corrections_that_reread_get_consecutive_versions,
    of_sixteen_simultaneous_entries_on_one_version_exactly_one_is_stored,
    of_sixteen_simultaneous_reviews_of_one_version_exactly_one_is_stored,
    the_demo_league_round_trips,
    a_lineup_is_named_in_versions_and_loads_with_the_competition,
    a_ruling_on_a_violation_is_kept_once_with_its_reason,
    gt_o2_the_ledger_keeps_every_entry_in_order_and_refuses_changes,
    schools_are_added_once_and_listed_by_name,
    a_schools_address_is_set_and_cleared_each_change_in_the_history,
    a_competition_loads_its_schools_addresses_and_its_matches_moves,
    a_closure_is_withdrawn_never_removed,
    a_player_withdrawn_keeps_their_games,
    players_added_from_a_roster_read_before_another_addition_are_refused_as_stale,
    one_player_one_person_entries_are_linked_by_an_officer_with_the_reason,
    gt_f5_matches_move_together_or_not_at_all,
    gt_f3_the_playoffs_are_drawn_once_and_paired_round_by_round,
    c04_6_a_swiss_round_is_added_with_its_bye_and_its_change_by_hand_once,
    gt_o3_a_media_report_keeps_every_draft_and_publication,
    as_1_as_11_an_event_is_set_in_versions_and_a_late_lineup_keeps_its_acceptance,
    as_13_a_protest_keeps_its_reply_and_decision_and_an_upheld_one_sets_the_order,
    gt_p3_an_extra_games_entry_confirmation_and_strike_are_kept_beside_it,
);

async fn migrated(store: &Store) {
    store.migrate().await.unwrap();
}

/// Imports the fixture into a fresh league `gthscl`.
async fn imported(store: &Store) -> (SeasonId, CompetitionId) {
    let season = league_and_season(store, "gthscl").await;
    let record = import_fixture(store, season.id, "varsity").await;
    (season.id, record.id)
}

/// RULES.md, "Time": a league keeps the IANA zone its days are counted in; setting another
/// keeps the one before in the history, and the same one again writes nothing.
async fn a_league_keeps_its_time_zone_and_a_change_of_it_is_in_the_history(store: Store) {
    migrated(&store).await;
    let league = store
        .create_league(&new_league("gthscl"), &arbiter())
        .await
        .unwrap();
    assert_eq!(league.time_zone.name(), "America/New_York");
    let adelaide = Zone::named("Australia/Adelaide").unwrap();
    let set = store
        .set_time_zone(league.id, &adelaide, &arbiter())
        .await
        .unwrap();
    assert_eq!(set.time_zone, adelaide);
    assert_eq!(store.league("gthscl").await.unwrap().unwrap(), set);
    let version = store.data_version().await.unwrap();
    store
        .set_time_zone(league.id, &adelaide, &arbiter())
        .await
        .unwrap();
    assert_eq!(store.data_version().await.unwrap(), version);
    let history = history_with(&store, |f| f.league = Some(league.id)).await;
    let change = history
        .iter()
        .find(|h| h.action == HistoryAction::SetTimeZone)
        .expect("the change of zone in the history");
    assert_eq!(
        change.before.as_ref().unwrap()["time_zone"],
        "America/New_York"
    );
    assert_eq!(
        change.after.as_ref().unwrap()["time_zone"],
        "Australia/Adelaide"
    );
}

async fn migrate_twice_is_a_no_op(store: Store) {
    migrated(&store).await;
    let league = store
        .create_league(&new_league("gthscl"), &arbiter())
        .await
        .unwrap();
    let version = store.data_version().await.unwrap();
    store.migrate().await.unwrap();
    store.migrate().await.unwrap();
    assert_eq!(store.leagues().await.unwrap(), vec![league]);
    assert_eq!(store.data_version().await.unwrap(), version);
    assert_eq!(
        fetch_i64(&store, "SELECT COUNT(*) FROM _sqlx_migrations").await,
        i64::try_from(arbiter_store::migrations::SQLITE.len()).unwrap()
    );
}

/// AS-10 (roster order), GT-P1 (rating results), GT-R3 (provisional players), C.07 16.1 (byes).
async fn import_then_load_rebuilds_the_same_competition(store: Store) {
    migrated(&store).await;
    let (season, id) = imported(&store).await;
    let fixture = every_kind_of_result();

    let loaded = store
        .load_competition("gthscl", "varsity")
        .await
        .unwrap()
        .expect("the imported competition loads by its slugs");
    assert_eq!(
        *loaded.competition,
        with_own_persons(fixture.clone(), "varsity")
    );
    assert_eq!(loaded.rules, Ruleset::preset("gthscl").unwrap());
    assert_eq!(loaded.record.id, id);
    assert_eq!(loaded.record.season, season);
    assert_eq!(loaded.record.slug, "varsity");
    assert_eq!(loaded.record.name, "Varsity <&\"'>");
    assert_eq!(loaded.record.rules, RulesRef::Preset("gthscl".into()));
    assert_eq!(loaded.record.version, 1);
    assert_eq!(loaded.version, 1);
    assert_eq!(loaded.league.slug, "gthscl");
    assert_eq!(loaded.league.kind, LeagueKind::League);
    assert_eq!(loaded.season.id, season);
    assert_eq!(loaded.season.starts_on, Some(jiff::civil::date(2025, 9, 1)));

    // Every match has an id, in pairing order.
    let expected: Vec<(u32, TeamId)> = fixture
        .matches()
        .map(|(round, m)| (round, m.home.clone()))
        .collect();
    let got: Vec<(u32, TeamId)> = loaded
        .match_ids
        .iter()
        .map(|(round, home, _)| (*round, home.clone()))
        .collect();
    assert_eq!(got, expected);
    let mut ids: Vec<MatchId> = loaded.match_ids.iter().map(|(_, _, id)| *id).collect();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), loaded.match_ids.len(), "match ids are distinct");

    let by_id = store.load_competition_by_id(id).await.unwrap().unwrap();
    assert_eq!(by_id, loaded);
    assert_eq!(
        store.competitions(season).await.unwrap(),
        vec![loaded.record.clone()]
    );

    // Every imported result is version 1, entered by the importer.
    let m = loaded.match_id(1, &TeamId("vic".into())).unwrap();
    let versions = store.result_versions(m).await.unwrap();
    assert_eq!(versions.len(), 1);
    assert_eq!(versions[0].version, 1);
    assert_eq!(
        versions[0].entered_by.as_deref(),
        Some("president@gthscl.example")
    );
    assert_eq!(versions[0].reason, None);

    // The shared school is one row of the league, reused by both teams.
    assert_eq!(fetch_i64(&store, "SELECT COUNT(*) FROM schools").await, 2);
}

async fn rules_given_as_toml_resolve_on_load(store: Store) {
    migrated(&store).await;
    let season = league_and_season(&store, "astc").await;
    let toml = "extends = \"gthscl\"\nname = \"GTHSCL JV\"\nboards = 3\n";
    let mut new = new_competition("jv");
    new.rules = RulesRef::Toml(toml.into());
    let c = Competition {
        name: "JV".into(),
        ..Competition::default()
    };
    store
        .import_competition(season.id, &new, &c, &arbiter())
        .await
        .unwrap();
    let loaded = loaded(&store, "astc", "jv").await;
    assert_eq!(loaded.record.rules, RulesRef::Toml(toml.into()));
    assert_eq!(loaded.rules.boards, 3);
    assert_eq!(loaded.rules.name, "GTHSCL JV");
    assert_eq!(*loaded.competition, c);
}

/// DESIGN: a result is corrected by a new version, never overwritten (GT-P2 corrections).
async fn a_correction_is_a_new_version_and_the_old_one_stays(store: Store) {
    migrated(&store).await;
    let (_, id) = imported(&store).await;
    let before = store.load_competition_by_id(id).await.unwrap().unwrap();
    let m = before.match_id(1, &TeamId("vic".into())).unwrap();
    let corrected = corrected_round_one();

    let v2 = store
        .record_result(
            m,
            store.report_seen(m).await.unwrap(),
            &corrected,
            &advisor(),
            Some("board 4 was a win, not a loss"),
        )
        .await
        .unwrap();
    assert_eq!(v2.version, 2);
    assert_eq!(v2.match_id, m);
    assert_eq!(v2.outcome, corrected);
    assert_eq!(v2.entered_by.as_deref(), Some("advisor@vic.example"));
    assert_eq!(v2.reason.as_deref(), Some("board 4 was a win, not a loss"));

    let after = store.load_competition_by_id(id).await.unwrap().unwrap();
    let round_one = &after.competition.rounds[0].pairings[0];
    assert!(
        matches!(round_one, Pairing::Match(x) if x.outcome == corrected),
        "load returns the latest version"
    );
    assert_eq!(after.version, before.version + 1);
    // Nothing else moved.
    let mut expected = every_kind_of_result();
    if let Pairing::Match(x) = &mut expected.rounds[0].pairings[0] {
        x.outcome = corrected.clone();
    }
    assert_eq!(*after.competition, with_own_persons(expected, "varsity"));

    let versions = store.result_versions(m).await.unwrap();
    assert_eq!(versions.len(), 2);
    assert_eq!(versions[0].version, 1);
    assert_eq!(
        Some(&versions[0].outcome),
        match &every_kind_of_result().rounds[0].pairings[0] {
            Pairing::Match(x) => Some(&x.outcome),
            Pairing::Bye(_) => None,
        }
    );
    assert_eq!(
        versions[1], v2,
        "what record_result returned is what is stored"
    );
    assert!(versions[0].entered_at <= versions[1].entered_at);

    // A third version: a whole-match forfeit (GT-M7), then back to pending.
    let v3 = store
        .record_result(
            m,
            store.report_seen(m).await.unwrap(),
            &MatchOutcome::Forfeit { by: Side::Away },
            &arbiter(),
            None,
        )
        .await
        .unwrap();
    assert_eq!(v3.version, 3);
    let v4 = store
        .record_result(
            m,
            store.report_seen(m).await.unwrap(),
            &MatchOutcome::Pending,
            &arbiter(),
            Some("  "),
        )
        .await
        .unwrap();
    assert_eq!(v4.version, 4);
    assert_eq!(v4.reason, None, "a blank reason is no reason");
    let versions = store.result_versions(m).await.unwrap();
    assert_eq!(
        versions.iter().map(|v| v.version).collect::<Vec<_>>(),
        [1, 2, 3, 4]
    );
    assert_eq!(versions[1].outcome, corrected);
}

/// DESIGN: every change records who, when, role, before and after, and why.
async fn every_write_appends_history_with_before_and_after(store: Store) {
    migrated(&store).await;
    let league = store
        .create_league(&new_league("gthscl"), &arbiter())
        .await
        .unwrap();
    let h = store.history(&HistoryFilter::default()).await.unwrap();
    assert_eq!(h.len(), 1);
    assert_eq!(
        (h[0].entity.code(), h[0].action.code()),
        ("league", "create")
    );
    assert_eq!(h[0].entity_id, league.id.to_string());
    assert_eq!(h[0].actor.as_deref(), Some("president@gthscl.example"));
    assert_eq!(
        h[0].role,
        Some(arbiter_core::rules::permissions::Role::President)
    );
    assert_eq!(h[0].before, None);
    let after = h[0].after.as_ref().unwrap();
    assert_eq!(after["slug"], "gthscl");
    assert_eq!(after["kind"], "league");

    let season = store
        .create_season(league.id, &new_season("2025-26"), &Actor::system())
        .await
        .unwrap();
    let h = store.history(&HistoryFilter::default()).await.unwrap();
    assert_eq!(
        (h[0].entity.code(), h[0].action.code()),
        ("season", "create")
    );
    assert_eq!(h[0].actor, None, "the CLI writes as the system");
    assert_eq!(h[0].after.as_ref().unwrap()["starts_on"], "2025-09-01");

    let record = import_fixture(&store, season.id, "varsity").await;
    let h = store.history(&HistoryFilter::default()).await.unwrap();
    let import = h
        .iter()
        .find(|e| e.entity == "competition" && e.action == "import")
        .unwrap();
    assert_eq!(import.entity_id, record.id.to_string());
    let after = import.after.as_ref().unwrap();
    assert_eq!(
        after["competition"]["name"],
        "GTHSCL Varsity 2025–26 <&\"'>"
    );
    assert_eq!(after["rules"]["preset"], "gthscl");
    assert_eq!(
        after["competition"]["teams"][0]["players"][1]["name"],
        "O'Brien \"Bobby\" <&>"
    );
    let teams: Vec<&str> = h
        .iter()
        .filter(|e| e.entity == "team")
        .map(|e| e.entity_id.as_str())
        .collect();
    assert_eq!(teams.len(), 4);
    for t in ["vic", "tol", "mau", "syl"] {
        assert!(teams.contains(&t), "a history row for team {t}");
    }
    assert_eq!(h.iter().filter(|e| e.entity == "school").count(), 2);

    let loaded = store
        .load_competition_by_id(record.id)
        .await
        .unwrap()
        .unwrap();
    let m = loaded.match_id(1, &TeamId("vic".into())).unwrap();
    let corrected = corrected_round_one();
    store
        .record_result(
            m,
            store.report_seen(m).await.unwrap(),
            &corrected,
            &advisor(),
            Some("board 4 misreported"),
        )
        .await
        .unwrap();
    let h = history_with(&store, |f| f.limit = Some(1)).await;
    assert_eq!(h.len(), 1);
    let e = &h[0];
    assert_eq!(
        (e.entity.code(), e.action.code()),
        ("match", "record_result")
    );
    assert_eq!(e.entity_id, m.to_string());
    assert_eq!(e.actor.as_deref(), Some("advisor@vic.example"));
    assert_eq!(
        e.role,
        Some(arbiter_core::rules::permissions::Role::Advisor)
    );
    assert_eq!(e.reason.as_deref(), Some("board 4 misreported"));
    let before = e.before.as_ref().unwrap();
    let after = e.after.as_ref().unwrap();
    assert_eq!(before["version"], 1);
    assert_eq!(after["version"], 2);
    assert_eq!(after["round"], 1);
    assert_eq!(after["home"], "vic");
    assert_eq!(after["away"], "tol");
    let Pairing::Match(original) = &every_kind_of_result().rounds[0].pairings[0] else {
        unreachable!()
    };
    assert_eq!(
        outcome_from_json(&before["outcome"]).as_ref(),
        Some(&original.outcome)
    );
    assert_eq!(outcome_from_json(&after["outcome"]), Some(corrected));
    assert_eq!(after["outcome"]["boards"][2]["rating_result"], "1-0");

    // Newest first, ids increasing with time.
    let all = store.history(&HistoryFilter::default()).await.unwrap();
    assert!(
        all.windows(2)
            .all(|w| w[0].id > w[1].id && w[0].at >= w[1].at)
    );
    assert_eq!(all.len(), 1 + 1 + 2 + 1 + 4 + 1);
}

async fn history_filters_by_league_competition_match_and_team(store: Store) {
    migrated(&store).await;
    let (_, id) = imported(&store).await;
    let other = league_and_season(&store, "astc").await;
    let other_record = import_fixture(&store, other.id, "varsity").await;
    let loaded = store.load_competition_by_id(id).await.unwrap().unwrap();
    let vic_tol = loaded.match_id(1, &TeamId("vic".into())).unwrap();
    let mau_syl = loaded.match_id(1, &TeamId("mau".into())).unwrap();
    store
        .record_result(
            vic_tol,
            store.report_seen(vic_tol).await.unwrap(),
            &corrected_round_one(),
            &advisor(),
            None,
        )
        .await
        .unwrap();
    store
        .record_result(
            mau_syl,
            store.report_seen(mau_syl).await.unwrap(),
            &MatchOutcome::DoubleForfeit,
            &arbiter(),
            None,
        )
        .await
        .unwrap();

    let gthscl = store.league("gthscl").await.unwrap().unwrap();
    let h = history_with(&store, |f| f.league = Some(gthscl.id)).await;
    // league, season, 2 schools, competition, 4 teams, 2 results.
    assert_eq!(h.len(), 11);

    let h = history_with(&store, |f| f.competition = Some(other_record.id)).await;
    assert_eq!(h.len(), 2 + 1 + 4, "schools, the import and the teams");

    let h = history_with(&store, |f| f.match_id = Some(mau_syl)).await;
    assert_eq!(h.len(), 1);
    assert_eq!(
        outcome_from_json(&h[0].after.as_ref().unwrap()["outcome"]),
        Some(MatchOutcome::DoubleForfeit)
    );

    // A team's own row and its matches, home or away.
    let h = history_with(&store, |f| f.team = Some((id, TeamId("tol".into())))).await;
    assert_eq!(h.len(), 2);
    assert_eq!(h[0].entity, "match");
    assert_eq!(h[1].entity, "team");
    let h = history_with(&store, |f| {
        f.team = Some((id, TeamId("syl".into())));
        f.match_id = Some(vic_tol);
    })
    .await;
    assert!(h.is_empty(), "every field of the filter narrows");
}

async fn data_version_bumps_on_each_write_and_only_then(store: Store) {
    migrated(&store).await;
    let mut expected = store.data_version().await.unwrap();
    assert_eq!(expected, 0);
    let league = store
        .create_league(&new_league("gthscl"), &arbiter())
        .await
        .unwrap();
    expected += 1;
    assert_eq!(store.data_version().await.unwrap(), expected);
    let season = store
        .create_season(league.id, &new_season("2025-26"), &arbiter())
        .await
        .unwrap();
    expected += 1;
    assert_eq!(store.data_version().await.unwrap(), expected);
    let record = import_fixture(&store, season.id, "varsity").await;
    expected += 1;
    assert_eq!(store.data_version().await.unwrap(), expected);
    let loaded = store
        .load_competition_by_id(record.id)
        .await
        .unwrap()
        .unwrap();
    store
        .record_result(
            loaded.match_ids[0].2,
            store.report_seen(loaded.match_ids[0].2).await.unwrap(),
            &MatchOutcome::DoubleForfeit,
            &arbiter(),
            None,
        )
        .await
        .unwrap();
    expected += 1;
    assert_eq!(store.data_version().await.unwrap(), expected);

    // Reads and refused writes leave it alone.
    store.leagues().await.unwrap();
    store.history(&HistoryFilter::default()).await.unwrap();
    store.load_competition("gthscl", "varsity").await.unwrap();
    assert!(
        store
            .create_league(&new_league("gthscl"), &arbiter())
            .await
            .is_err()
    );
    assert!(
        store
            .record_result(
                MatchId(999_999),
                ReportSeen {
                    version: 1,
                    reviews: 0
                },
                &MatchOutcome::Pending,
                &arbiter(),
                None
            )
            .await
            .is_err()
    );
    assert_eq!(store.data_version().await.unwrap(), expected);
}

async fn slugs_are_unique_and_a_conflict_says_so(store: Store) {
    migrated(&store).await;
    let (_, _) = imported(&store).await;
    let gthscl = store.league("gthscl").await.unwrap().unwrap();

    let err = store
        .create_league(&new_league("gthscl"), &arbiter())
        .await
        .unwrap_err();
    let StoreError::Conflict(msg) = &err else {
        panic!("a taken league slug is a conflict, got {err:?}")
    };
    assert_eq!(
        msg,
        "the slug `gthscl` is already taken by the league “Greater Toledo High School Chess League”; choose another slug for “Greater Toledo High School Chess League”"
    );
    assert_eq!(err.to_string(), *msg);

    let err = store
        .create_season(gthscl.id, &new_season("2025-26"), &arbiter())
        .await
        .unwrap_err();
    assert!(
        matches!(&err, StoreError::Conflict(m) if m.contains("`2025-26`") && m.contains("choose another slug")),
        "{err:?}"
    );

    // A competition slug is unique across the league's seasons...
    let next = store
        .create_season(gthscl.id, &new_season("2026-27"), &arbiter())
        .await
        .unwrap();
    let err = import_empty(&store, next.id, "varsity").await.unwrap_err();
    assert!(
        matches!(&err, StoreError::Conflict(m) if m.contains("`varsity`") && m.contains("season `2025-26`")),
        "{err:?}"
    );
    // A season's own pages keep their addresses: no competition takes them.
    for taken in ["ratings", "history"] {
        let err = import_empty(&store, next.id, taken).await.unwrap_err();
        assert!(
            matches!(&err, StoreError::Invalid(m) if m.contains(&format!("the season's {taken} page"))),
            "{err:?}"
        );
    }
    // ...but another league may use it.
    let astc = league_and_season(&store, "astc").await;
    import_empty(&store, astc.id, "varsity").await.unwrap();
    assert_eq!(
        *loaded(&store, "astc", "varsity").await.competition,
        Competition::default()
    );
    assert_eq!(
        *loaded(&store, "gthscl", "varsity").await.competition,
        with_own_persons(every_kind_of_result(), "varsity")
    );

    // Slugs go into URLs.
    for bad in ["", "GTHSCL", "two words", "-x", "x-", "école", "a/b"] {
        let err = store
            .create_league(&new_league(bad), &arbiter())
            .await
            .unwrap_err();
        assert!(
            matches!(&err, StoreError::Invalid(m) if m.contains("web address")),
            "{bad:?}: {err:?}"
        );
    }
    let err = store
        .create_league(
            &NewLeague {
                name: "  ".into(),
                ..new_league("blank")
            },
            &arbiter(),
        )
        .await
        .unwrap_err();
    assert!(matches!(err, StoreError::Invalid(_)), "{err:?}");
    // Backwards, and (issue 30) over the years 1 to 9999: refused, whoever creates it.
    for (starts, ends, why) in [
        ((2026, 1, 1), (2025, 1, 1), "before it starts"),
        (
            (1, 1, 1),
            (9999, 12, 31),
            "is not in the years 2000 to 2100",
        ),
    ] {
        let day = |(y, m, d): (i16, i8, i8)| Some(jiff::civil::date(y, m, d));
        let err = store
            .create_season(
                gthscl.id,
                &NewSeason {
                    starts_on: day(starts),
                    ends_on: day(ends),
                    ..new_season("refused")
                },
                &arbiter(),
            )
            .await
            .unwrap_err();
        assert!(
            matches!(&err, StoreError::Invalid(m) if m.contains(why)),
            "{err:?}"
        );
    }
    let leagues: Vec<String> = store
        .leagues()
        .await
        .unwrap()
        .into_iter()
        .map(|l| l.slug)
        .collect();
    assert_eq!(leagues.len(), 2);
}

async fn imports_that_cannot_be_stored_are_refused_whole(store: Store) {
    migrated(&store).await;
    let season = league_and_season(&store, "gthscl").await;
    let version = store.data_version().await.unwrap();
    let refuse = |c: Competition, rules: RulesRef| {
        let store = store.clone();
        async move {
            let mut new = new_competition("varsity");
            new.rules = rules;
            store
                .import_competition(season.id, &new, &c, &arbiter())
                .await
                .unwrap_err()
        }
    };
    let gthscl = || RulesRef::Preset("gthscl".into());

    let mut c = every_kind_of_result();
    if let Pairing::Match(m) = &mut c.rounds[1].pairings[1] {
        m.away = TeamId("nobody".into());
    }
    let err = refuse(c, gthscl()).await;
    assert_eq!(
        err,
        StoreError::Invalid(
            "round 2, match tol v nobody: the team `nobody` is not in the competition; add the team or correct the id".into()
        )
    );

    let mut c = every_kind_of_result();
    if let Pairing::Match(m) = &mut c.rounds[0].pairings[0]
        && let MatchOutcome::Boards(b) = &mut m.outcome
    {
        b[2].away_player = Some(PlayerId("ghost".into()));
    }
    let err = refuse(c, gthscl()).await;
    assert_eq!(
        err,
        StoreError::Invalid(
            "round 1, match vic v tol, board 3: the away player `ghost` is on no roster of this competition; add them to their team's roster or correct the id".into()
        )
    );

    let mut c = every_kind_of_result();
    let dup = c.teams[0].players[0].clone();
    c.teams[0].players.push(dup);
    let err = refuse(c, gthscl()).await;
    assert!(
        matches!(&err, StoreError::Invalid(m) if m.contains("AS-10") && m.contains("vic-1")),
        "{err:?}"
    );

    // Issue 30: a line break in a team's name, a direction override in a player's.
    let mut c = every_kind_of_result();
    c.teams[0].name = "Victoria\nBcc: everyone".into();
    let err = refuse(c, gthscl()).await;
    assert!(
        matches!(&err, StoreError::Invalid(m) if m.starts_with("The name of team vic holds U+000A (a line break) at character 9;")),
        "{err:?}"
    );
    let mut c = every_kind_of_result();
    c.teams[1].players[0].name = "Ada \u{202E}seyeR".into();
    let err = refuse(c, gthscl()).await;
    assert!(
        matches!(&err, StoreError::Invalid(m) if m.contains("holds U+202E (a text-direction override)")),
        "{err:?}"
    );

    let err = refuse(every_kind_of_result(), RulesRef::Preset("nope".into())).await;
    assert!(
        matches!(&err, StoreError::Invalid(m) if m.contains("`nope`") && m.contains("gthscl")),
        "{err:?}"
    );
    let err = refuse(
        every_kind_of_result(),
        RulesRef::Toml("extends = \"gthscl\"\nbord = 3\n".into()),
    )
    .await;
    assert!(
        matches!(&err, StoreError::Invalid(m) if m.contains("varsity rules:2:")),
        "the TOML error names the line: {err:?}"
    );

    assert_eq!(store.data_version().await.unwrap(), version);
    assert!(store.competitions(season.id).await.unwrap().is_empty());
    assert!(
        store
            .load_competition("gthscl", "varsity")
            .await
            .unwrap()
            .is_none()
    );
}

/// Issue 9 item 14: an import whose competition is refused after its league and season would
/// be created writes nothing: no league, no season, no history, the data version unchanged.
async fn an_import_refused_at_its_last_check_leaves_no_league_and_no_season(store: Store) {
    migrated(&store).await;
    let version = store.data_version().await.unwrap();
    let place = in_gthscl(SeasonChoice::Named(new_season("2025-26")));
    let mut c = every_kind_of_result();
    if let Pairing::Match(m) = &mut c.rounds[1].pairings[1] {
        m.away = TeamId("nobody".into());
    }
    let err = store
        .import_competition_into(&place, &new_competition("varsity"), &c, &arbiter())
        .await
        .unwrap_err();
    assert!(
        matches!(&err, StoreError::Invalid(m) if m.contains("`nobody`")),
        "{err:?}"
    );
    // A slug the store refuses, after the league and season it would create.
    let err = import_results_into(&store, &place, "Varsity!")
        .await
        .unwrap_err();
    assert!(
        matches!(&err, StoreError::Invalid(m) if m.contains("`Varsity!`")),
        "{err:?}"
    );
    assert!(store.league("gthscl").await.unwrap().is_none());
    assert!(store.leagues().await.unwrap().is_empty());
    assert!(
        store
            .history(&HistoryFilter::default())
            .await
            .unwrap()
            .is_empty()
    );
    assert_eq!(store.data_version().await.unwrap(), version);

    // In a league that exists, a competition slug taken in another season leaves no new season.
    let season = league_and_season(&store, "gthscl").await;
    import_fixture(&store, season.id, "varsity").await;
    let version = store.data_version().await.unwrap();
    let place = in_gthscl(SeasonChoice::Named(new_season("2026-27")));
    let err = import_results_into(&store, &place, "varsity")
        .await
        .unwrap_err();
    assert!(matches!(&err, StoreError::Conflict(_)), "{err:?}");
    let league = store.league("gthscl").await.unwrap().unwrap();
    let seasons: Vec<String> = store
        .seasons(league.id)
        .await
        .unwrap()
        .into_iter()
        .map(|s| s.slug)
        .collect();
    assert_eq!(seasons, ["2025-26"]);
    assert_eq!(store.data_version().await.unwrap(), version);
}

/// An import creates its league and season only when they are new, and says which it made.
async fn an_import_finds_or_creates_its_league_and_season(store: Store) {
    migrated(&store).await;
    let place = in_gthscl(SeasonChoice::LatestOr(new_season("2025-26")));
    let first = import_results_into(&store, &place, "varsity")
        .await
        .unwrap();
    assert_eq!(first.created_league.as_ref(), Some(&first.league));
    assert_eq!(first.created_season.as_ref(), Some(&first.season));
    assert_eq!(first.competition.season, first.season.id);
    let later = in_gthscl(SeasonChoice::Named(new_season("2026-27")));
    let second = import_results_into(&store, &later, "jv").await.unwrap();
    assert_eq!(second.league, first.league);
    assert!(second.created_league.is_none());
    assert_eq!(second.season.slug, "2026-27");
    assert!(second.created_season.is_some());
    // Without a name: the league's latest season, not a new one.
    let third = import_results_into(&store, &place, "open").await.unwrap();
    assert_eq!(third.season, second.season);
    assert!(third.created_league.is_none() && third.created_season.is_none());
    assert!(
        store
            .load_competition("gthscl", "open")
            .await
            .unwrap()
            .is_some()
    );
}

async fn unknown_ids_are_not_found(store: Store) {
    migrated(&store).await;
    let (_, id) = imported(&store).await;
    assert!(store.league("nope").await.unwrap().is_none());
    assert!(
        store
            .load_competition("gthscl", "nope")
            .await
            .unwrap()
            .is_none()
    );
    assert!(
        store
            .load_competition("nope", "varsity")
            .await
            .unwrap()
            .is_none()
    );
    assert!(
        store
            .load_competition_by_id(CompetitionId(id.0 + 1000))
            .await
            .unwrap()
            .is_none()
    );
    let err = store
        .record_result(
            MatchId(424_242),
            ReportSeen {
                version: 1,
                reviews: 0,
            },
            &MatchOutcome::Pending,
            &arbiter(),
            None,
        )
        .await
        .unwrap_err();
    assert!(
        matches!(&err, StoreError::NotFound(m) if m.contains("424242")),
        "{err:?}"
    );
    assert!(matches!(
        store.result_versions(MatchId(424_242)).await,
        Err(StoreError::NotFound(_))
    ));
    let err = store
        .create_season(
            arbiter_store::LeagueId(424_242),
            &new_season("x"),
            &arbiter(),
        )
        .await
        .unwrap_err();
    assert!(matches!(err, StoreError::NotFound(_)), "{err:?}");
    let err = store
        .import_competition(
            SeasonId(424_242),
            &new_competition("x"),
            &Competition::default(),
            &arbiter(),
        )
        .await
        .unwrap_err();
    assert!(matches!(err, StoreError::NotFound(_)), "{err:?}");

    // A correction naming a player of no roster is refused with the match and board.
    let loaded = store.load_competition_by_id(id).await.unwrap().unwrap();
    let m = loaded.match_id(1, &TeamId("vic".into())).unwrap();
    let mut wrong = corrected_round_one();
    if let MatchOutcome::Boards(b) = &mut wrong {
        b[0].home_player = Some(PlayerId("ghost".into()));
    }
    let err = store
        .record_result(
            m,
            store.report_seen(m).await.unwrap(),
            &wrong,
            &advisor(),
            None,
        )
        .await
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "round 1, match vic v tol, board 1: the home player `ghost` is on no roster of this competition; add them to their team's roster or correct the id"
    );
    assert_eq!(store.result_versions(m).await.unwrap().len(), 1);
}

/// Issue 12: a lineup named before the match is kept in versions, the latest in force, with the
/// competition; a stale writer, a player of no roster and a played match are refused.
async fn a_lineup_is_named_in_versions_and_loads_with_the_competition(store: Store) {
    use arbiter_core::teams::lineup::Lineup;
    migrated(&store).await;
    let (_, id) = imported(&store).await;
    let loaded = store.load_competition_by_id(id).await.unwrap().unwrap();
    assert_eq!(loaded.lineups, []);
    let syl = TeamId("syl".into());
    let m = loaded.match_id(3, &syl).unwrap();
    let lineup = |ids: &[Option<&str>]| Lineup {
        boards: ids.iter().map(|p| p.map(|p| PlayerId(p.into()))).collect(),
        withdrawn: Vec::new(),
    };
    let first = lineup(&[Some("vic-2"), Some("vic-1"), None, None]);
    let v1 = store
        .record_lineup(m, Side::Away, 0, &first, None, &arbiter())
        .await
        .unwrap();
    assert_eq!(v1.version, 1);
    let mut second = lineup(&[Some("vic-1"), Some("vic-2"), Some("vic-3"), None]);
    second.withdrawn = vec![PlayerId("vic-5".into())];
    let stale = store
        .record_lineup(m, Side::Away, 0, &second, None, &arbiter())
        .await
        .unwrap_err();
    assert!(matches!(stale, StoreError::Stale(_)), "{stale}");
    assert!(
        stale
            .to_string()
            .contains("read it again and name it against version 1"),
        "{stale}"
    );
    store
        .record_lineup(m, Side::Away, 1, &second, None, &arbiter())
        .await
        .unwrap();
    let ghost = lineup(&[Some("ghost")]);
    let err = store
        .record_lineup(m, Side::Home, 0, &ghost, None, &arbiter())
        .await
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "round 3, match syl v vic: no player has the id `ghost`; add them to the roster first"
    );
    let played = loaded.match_id(1, &TeamId("vic".into())).unwrap();
    let err = store
        .record_lineup(played, Side::Home, 0, &first, None, &arbiter())
        .await
        .unwrap_err();
    assert!(err.to_string().contains("has a result"), "{err}");

    let loaded = store.load_competition_by_id(id).await.unwrap().unwrap();
    assert_eq!(loaded.lineups.len(), 1);
    let in_force = loaded.lineup(3, &syl, Side::Away).unwrap();
    assert_eq!((in_force.version, &in_force.named.lineup), (2, &second));
    assert_eq!(
        loaded.version, 3,
        "each lineup is a change of the competition"
    );
    let history = store.history(&HistoryFilter::default()).await.unwrap();
    let named: Vec<_> = history
        .iter()
        .filter(|h| h.action == "name_lineup")
        .collect();
    assert_eq!(named.len(), 2);
    assert_eq!(
        named[0].after.as_ref().unwrap()["withdrawn"],
        serde_json::json!(["vic-5"])
    );
    assert_history_kept(
        &store,
        &[
            "UPDATE lineup_versions SET side = 'home'",
            "DELETE FROM lineup_boards",
        ],
    )
    .await;
}

/// Issue 12: an officer's ruling that a result carrying a violation stands, kept once, with
/// the reason, in the history, and never changed.
async fn a_ruling_on_a_violation_is_kept_once_with_its_reason(store: Store) {
    migrated(&store).await;
    let (_, id) = imported(&store).await;
    let key = "GT-M11|r1|vic|vic";
    let message = "board 2 is rated above board 1";
    let err = store
        .record_ruling(id, key, message, "  ", &arbiter())
        .await
        .unwrap_err();
    assert!(err.to_string().contains("reason"), "{err}");
    let ruled = store
        .record_ruling(
            id,
            key,
            message,
            "The visitors agreed the order on the day.",
            &arbiter(),
        )
        .await
        .unwrap();
    assert_eq!(ruled.key, key);
    let again = store
        .record_ruling(id, key, message, "Twice", &arbiter())
        .await
        .unwrap_err();
    assert!(matches!(again, StoreError::Stale(_)), "{again}");
    let loaded = store.load_competition_by_id(id).await.unwrap().unwrap();
    assert_eq!(loaded.rulings, vec![ruled.clone()]);
    assert_eq!(
        loaded.ruling(key).map(|r| r.reason.as_str()),
        Some("The visitors agreed the order on the day.")
    );
    let history = store.history(&HistoryFilter::default()).await.unwrap();
    assert!(history.iter().any(|h| h.action == "rule_on_violation"
        && h.reason.as_deref() == Some("The visitors agreed the order on the day.")));
    let err = execute_raw(&store, "UPDATE violation_rulings SET reason = 'other'")
        .await
        .expect_err("the database refuses it");
    assert!(err.contains("never"), "{err}");
}

/// GT-P3, issue 30: an extra game keeps the side whose school entered it, and its confirmation
/// and strike (with the reason) are rows beside it, loaded with the competition, in the history,
/// and never changed; a writer who read fewer extra games than the match has is stale.
async fn gt_p3_an_extra_games_entry_confirmation_and_strike_are_kept_beside_it(store: Store) {
    use arbiter_core::{ExtraEvent, ExtraGame, ExtraKind, ExtraStep};
    migrated(&store).await;
    let (_, id) = imported(&store).await;
    let loaded = store.load_competition_by_id(id).await.unwrap().unwrap();
    let mau = TeamId("mau".into());
    let m = loaded.match_id(1, &mau).unwrap();
    let extra = |c: &Competition| {
        c.rounds[0]
            .pairings
            .iter()
            .find_map(|p| match p {
                Pairing::Match(x) if x.home == mau => Some(x.extra_games.clone()),
                _ => None,
            })
            .unwrap()
    };
    let imported_games = extra(&loaded.competition);
    assert_eq!(imported_games.len(), 2, "the fixture's two extra games");
    assert!(
        imported_games
            .iter()
            .all(|g| g.entered_by.is_none() && g.events.is_empty())
    );
    let game = ExtraGame {
        white: PlayerId("mau-2".into()),
        black: PlayerId("syl-1".into()),
        result: GameResult::Draw,
        kind: ExtraKind::Challenge,
        entered_by: Some(Side::Away),
        events: Vec::new(),
    };
    let stale = store
        .record_extra_game(m, &game, 1, &advisor())
        .await
        .unwrap_err();
    assert!(matches!(stale, StoreError::Stale(_)), "{stale}");
    assert_eq!(
        store
            .record_extra_game(m, &game, 2, &advisor())
            .await
            .unwrap(),
        3
    );
    let now = store.load_competition_by_id(id).await.unwrap().unwrap();
    assert_eq!(extra(&now.competition)[2], game);
    store
        .record_extra_game_step(m, 3, &ExtraStep::Confirmed, &arbiter())
        .await
        .unwrap();
    let struck = ExtraStep::Struck {
        reason: "entered for the wrong match".into(),
    };
    store
        .record_extra_game_step(m, 3, &struck, &arbiter())
        .await
        .unwrap();
    let missing = store
        .record_extra_game_step(m, 9, &ExtraStep::Confirmed, &arbiter())
        .await
        .unwrap_err();
    assert!(matches!(missing, StoreError::NotFound(_)), "{missing}");
    let now = store.load_competition_by_id(id).await.unwrap().unwrap();
    assert_eq!(
        extra(&now.competition)[2].events,
        vec![
            ExtraEvent {
                by: arbiter().user,
                step: ExtraStep::Confirmed
            },
            ExtraEvent {
                by: arbiter().user,
                step: struck
            },
        ]
    );
    let history = store.history(&HistoryFilter::default()).await.unwrap();
    assert!(history.iter().any(|h| h.action == "strike_extra_game"
        && h.reason.as_deref() == Some("entered for the wrong match")));
    assert!(history.iter().any(|h| h.action == "confirm_extra_game"));
    let err = execute_raw(&store, "UPDATE extra_game_events SET reason = 'other'")
        .await
        .expect_err("the database refuses it");
    assert!(err.contains("never"), "{err}");
}

/// GT-O1: a school is added once; the import's school of the same name is the same school.
async fn schools_are_added_once_and_listed_by_name(store: Store) {
    migrated(&store).await;
    let season = league_and_season(&store, "gthscl").await;
    let schools = store.schools(season.league).await.unwrap();
    assert!(schools.is_empty());
    store
        .add_school(season.league, "  Whitmer High School ", &arbiter())
        .await
        .unwrap();
    store
        .add_school(season.league, "Anthony Wayne High School", &arbiter())
        .await
        .unwrap();
    let err = store
        .add_school(season.league, "Whitmer High School", &arbiter())
        .await
        .unwrap_err();
    assert!(
        matches!(&err, StoreError::Conflict(m) if m.contains("already has a school named “Whitmer High School”")),
        "{err:?}"
    );
    let names: Vec<String> = store
        .schools(season.league)
        .await
        .unwrap()
        .into_iter()
        .map(|s| s.name)
        .collect();
    assert_eq!(names, ["Anthony Wayne High School", "Whitmer High School"]);
    let history = store.history(&HistoryFilter::default()).await.unwrap();
    assert_eq!(
        history
            .iter()
            .filter(|h| h.entity == "school" && h.action == "create")
            .count(),
        2
    );
}

/// Issue 32: an officer sets a school's postal address, changes and clears it; each change is
/// in the history with the address before, the same address again writes nothing, and a school
/// of another league is not found.
async fn a_schools_address_is_set_and_cleared_each_change_in_the_history(store: Store) {
    migrated(&store).await;
    let season = league_and_season(&store, "gthscl").await;
    let school = store
        .add_school(season.league, "Start High School", &arbiter())
        .await
        .unwrap();
    assert_eq!(school.address, None);
    let address = |text: &str| PostalAddress::parse("the address", text).unwrap();
    let first = address("2010 Tremainsville Rd\nToledo, OH 43613").unwrap();
    let set = store
        .set_school_address(season.league, school.id, Some(&first), &arbiter())
        .await
        .unwrap();
    assert_eq!(set.address.as_ref(), Some(&first));
    assert_eq!(
        store.schools(season.league).await.unwrap(),
        vec![set.clone()]
    );
    let version = store.data_version().await.unwrap();
    store
        .set_school_address(season.league, school.id, Some(&first), &arbiter())
        .await
        .unwrap();
    assert_eq!(
        store.data_version().await.unwrap(),
        version,
        "nothing to write"
    );
    store
        .set_school_address(season.league, school.id, None, &arbiter())
        .await
        .unwrap();
    assert_eq!(store.schools(season.league).await.unwrap()[0].address, None);
    let history = store.history(&HistoryFilter::default()).await.unwrap();
    let changes: Vec<_> = history
        .iter()
        .filter(|h| h.action == HistoryAction::SetSchoolAddress)
        .collect();
    assert_eq!(changes.len(), 2);
    let set_row = changes
        .iter()
        .find(|h| h.before.as_ref().unwrap()["address"].is_null())
        .expect("the address set");
    assert_eq!(set_row.entity, "school");
    assert_eq!(
        set_row.after.as_ref().unwrap()["address"],
        "2010 Tremainsville Rd\nToledo, OH 43613"
    );
    let cleared = changes
        .iter()
        .find(|h| h.after.as_ref().unwrap()["address"].is_null())
        .expect("the address cleared");
    assert_eq!(
        cleared.before.as_ref().unwrap()["address"],
        "2010 Tremainsville Rd\nToledo, OH 43613"
    );
    let other = league_and_season(&store, "astc").await;
    let err = store
        .set_school_address(other.league, school.id, Some(&first), &arbiter())
        .await
        .unwrap_err();
    assert!(matches!(err, StoreError::NotFound(_)), "{err}");
}

/// Issue 32: a competition loads the addresses of its teams' schools (a school without one is
/// left out) and how many times each match was moved (GT-M2), for the calendar's `SEQUENCE`.
async fn a_competition_loads_its_schools_addresses_and_its_matches_moves(store: Store) {
    migrated(&store).await;
    let (_, id) = imported(&store).await;
    let loaded = store.load_competition_by_id(id).await.unwrap().unwrap();
    assert!(loaded.school_addresses.is_empty());
    assert!(loaded.moves.is_empty());
    let league = loaded.league.id;
    let school = store
        .schools(league)
        .await
        .unwrap()
        .into_iter()
        .find(|s| s.name == "École Saint-Jean <&\"'>")
        .expect("the fixture's school");
    let address = PostalAddress::parse("the address", "1 rue de l'École\nQuébec")
        .unwrap()
        .unwrap();
    store
        .set_school_address(league, school.id, Some(&address), &arbiter())
        .await
        .unwrap();
    let (round, home, m) = loaded.match_ids[0].clone();
    let day = |s: &str| s.parse::<jiff::civil::Date>().unwrap();
    for to in ["2026-11-16", "2026-11-18"] {
        store
            .move_match(m, day(to), None, "The bus broke down", &arbiter())
            .await
            .unwrap();
    }
    let loaded = store.load_competition_by_id(id).await.unwrap().unwrap();
    assert_eq!(
        loaded.school_address("École Saint-Jean <&\"'>"),
        Some(&address)
    );
    assert_eq!(loaded.school_addresses.len(), 1);
    assert_eq!(loaded.moves_of(round, &home), 2);
    let (round, home, _) = &loaded.match_ids[1];
    assert_eq!(loaded.moves_of(*round, home), 0);
}

/// GT-M2: closures are kept as added; a mistaken one is withdrawn, and the database refuses
/// anything else.
async fn a_closure_is_withdrawn_never_removed(store: Store) {
    migrated(&store).await;
    let season = league_and_season(&store, "gthscl").await;
    let day = |s: &str| s.parse::<jiff::civil::Date>().unwrap();
    let backwards = NewClosure {
        starts_on: day("2026-12-30"),
        ends_on: day("2026-12-21"),
        reason: "Winter break".into(),
    };
    let err = store
        .add_closure(season.id, &backwards, &arbiter())
        .await
        .unwrap_err();
    assert!(
        err.to_string()
            .contains("give its last day on or after its first (GT-M2"),
        "{err}"
    );
    let winter = store
        .add_closure(
            season.id,
            &NewClosure {
                starts_on: day("2026-12-21"),
                ends_on: day("2027-01-01"),
                reason: "Winter break".into(),
            },
            &arbiter(),
        )
        .await
        .unwrap();
    let typo = store
        .add_closure(
            season.id,
            &NewClosure {
                starts_on: day("2026-11-02"),
                ends_on: day("2026-11-02"),
                reason: "Teacher day".into(),
            },
            &arbiter(),
        )
        .await
        .unwrap();
    store
        .withdraw_closure(
            season.id,
            typo.id,
            "It is in November of next year.",
            &arbiter(),
        )
        .await
        .unwrap();
    let again = store
        .withdraw_closure(season.id, typo.id, "Twice", &arbiter())
        .await
        .unwrap_err();
    assert!(matches!(again, StoreError::Conflict(_)), "{again}");
    let closures = store.closures(season.id).await.unwrap();
    assert_eq!(
        closures
            .iter()
            .map(|c| (c.reason.as_str(), c.withdrawn))
            .collect::<Vec<_>>(),
        [("Teacher day", true), ("Winter break", false)]
    );
    assert_eq!(closures[1], winter);
    let history = store.history(&HistoryFilter::default()).await.unwrap();
    assert!(history.iter().any(|h| h.entity == "closure"
        && h.action == "withdraw"
        && h.reason.as_deref() == Some("It is in November of next year.")));
    assert_history_kept(
        &store,
        &[
            "UPDATE season_closures SET reason = 'other'",
            "DELETE FROM season_closures",
        ],
    )
    .await;
}

/// GT-F5: a suspension moves its matches in one transaction, each with its history row, and
/// the season's last day when the plan runs past it; when the competition changed after it was
/// read, nothing moves.
async fn gt_f5_matches_move_together_or_not_at_all(store: Store) {
    migrated(&store).await;
    let (_, id) = imported(&store).await;
    let before = store.load_competition_by_id(id).await.unwrap().unwrap();
    assert!(before.match_ids.len() >= 2, "the fixture has two matches");
    let day = |s: &str| s.parse::<jiff::civil::Date>().unwrap();
    let moves: Vec<MatchMove> = before
        .match_ids
        .iter()
        .take(2)
        .map(|(_, _, m)| MatchMove {
            id: *m,
            to: day("2026-11-16"),
            start: None,
        })
        .collect();
    let why =
        "GT-F5: schedule suspended from 2026-11-09 for severe weather, resumed on 2026-11-16: snow";
    let stale = [(id, before.version - 1)];
    let err = store
        .move_matches(
            &moves,
            &stale,
            Some((before.season.id, day("2027-03-31"))),
            why,
            &arbiter(),
        )
        .await
        .unwrap_err();
    assert!(matches!(err, StoreError::Stale(_)), "{err}");
    assert!(err.to_string().contains("so no match was moved"), "{err}");
    let unmoved = store.load_competition_by_id(id).await.unwrap().unwrap();
    assert_eq!(unmoved.competition, before.competition);
    assert_eq!(unmoved.season.ends_on, before.season.ends_on);
    store
        .move_matches(
            &moves,
            &[(id, before.version)],
            Some((before.season.id, day("2027-03-31"))),
            why,
            &arbiter(),
        )
        .await
        .unwrap();
    let after = store.load_competition_by_id(id).await.unwrap().unwrap();
    let days: Vec<_> = after
        .competition
        .rounds
        .iter()
        .flat_map(|r| {
            r.pairings.iter().filter_map(move |p| match p {
                Pairing::Match(m) => Some(r.date_of(m)),
                Pairing::Bye(_) => None,
            })
        })
        .take(2)
        .collect();
    assert_eq!(days, [Some(day("2026-11-16")); 2]);
    let history = store.history(&HistoryFilter::default()).await.unwrap();
    let moved: Vec<_> = history
        .iter()
        .filter(|h| h.action == "move_match")
        .collect();
    assert_eq!(moved.len(), 2);
    assert!(moved.iter().all(|h| h.reason.as_deref() == Some(why)));
    assert_eq!(after.season.ends_on, Some(day("2027-03-31")));
    let extended: Vec<_> = history
        .iter()
        .filter(|h| h.action == "extend_season")
        .collect();
    assert_eq!(extended.len(), 1);
    assert_eq!(extended[0].reason.as_deref(), Some(why));
}

/// Issue 16: two writers who read the same roster add players to one team at once. Core's plan
/// gave both the same next id (or the same name twice): the second is refused as stale (409 on
/// the site and the API), and nothing of it is stored.
async fn players_added_from_a_roster_read_before_another_addition_are_refused_as_stale(
    store: Store,
) {
    migrated(&store).await;
    let (_, id) = imported(&store).await;
    let before = store.load_competition_by_id(id).await.unwrap().unwrap();
    let team = before.competition.teams[0].clone();
    let player = |id: &str, name: &str| arbiter_core::Player {
        id: PlayerId(id.into()),
        name: name.into(),
        rating: Some(1200),
        provisional: true,
        ..arbiter_core::Player::default()
    };
    let next = format!("{}-new", team.id);
    store
        .add_players(
            id,
            &[(team.id.clone(), player(&next, "Ana Diaz"))],
            None,
            &arbiter(),
        )
        .await
        .unwrap();
    // The same id, planned on the roster as it was before.
    let err = store
        .add_players(
            id,
            &[(team.id.clone(), player(&next, "Bo Chen"))],
            None,
            &arbiter(),
        )
        .await
        .unwrap_err();
    assert!(matches!(err, StoreError::Stale(_)), "{err}");
    assert!(err.to_string().contains("read the roster again"), "{err}");
    // The same name (another id), sent twice at once.
    let err = store
        .add_players(
            id,
            &[(team.id.clone(), player("other-id", " ana diaz "))],
            None,
            &arbiter(),
        )
        .await
        .unwrap_err();
    assert!(matches!(err, StoreError::Stale(_)), "{err}");
    let after = store.load_competition_by_id(id).await.unwrap().unwrap();
    let names: Vec<&str> = after.competition.teams[0]
        .players
        .iter()
        .skip(team.players.len())
        .map(|p| p.name.as_str())
        .collect();
    assert_eq!(names, ["Ana Diaz"], "only the first is stored");
}

/// One player, one person (AS-3, GT-M15): every entry is a person of its own until an officer
/// links two of another competition, kept with the reason; a person is one entry of a
/// competition; a link judged on competitions that changed since is refused as stale; a file's
/// person keys are kept and link what they name.
async fn one_player_one_person_entries_are_linked_by_an_officer_with_the_reason(store: Store) {
    migrated(&store).await;
    let (season, varsity) = imported(&store).await;
    let mut jv_file = every_kind_of_result();
    jv_file.teams[1].players[0].person = Some(PersonId("file-person".into()));
    let jv = store
        .import_competition(season, &new_competition("jv"), &jv_file, &arbiter())
        .await
        .unwrap()
        .id;
    let load = |id| {
        let store = store.clone();
        async move { store.load_competition_by_id(id).await.unwrap().unwrap() }
    };
    let (v, j) = (load(varsity).await, load(jv).await);
    let first = |c: &arbiter_store::StoredCompetition| c.competition.teams[0].players[0].clone();
    let (star, her) = (first(&v), first(&j));
    assert_eq!(
        star.person,
        Some(PersonId(format!("varsity/{}", star.id))),
        "a person of their own"
    );
    assert_eq!(
        j.competition.teams[1].players[0].person,
        Some(PersonId("file-person".into())),
        "the file's key is kept"
    );
    assert!(!star.is_same_person(&her));
    let seen = [(varsity, v.version), (jv, j.version)];
    let why = "the same student: birth certificate checked";
    let to = star.person.clone().unwrap();
    let linked = store
        .link_person(jv, &her.id, Some(&to), &seen, why, &arbiter())
        .await
        .unwrap();
    assert_eq!(linked, to);
    assert!(first(&load(jv).await).is_same_person(&star));
    // Read before that link: stale, nothing written.
    let other = j.competition.teams[0].players[1].id.clone();
    let err = store
        .link_person(jv, &other, Some(&to), &seen, why, &arbiter())
        .await
        .unwrap_err();
    assert!(matches!(err, StoreError::Stale(_)), "{err}");
    // A person is one entry of a competition.
    let fresh = [(varsity, v.version), (jv, load(jv).await.version)];
    let err = store
        .link_person(jv, &other, Some(&to), &fresh, why, &arbiter())
        .await
        .unwrap_err();
    assert!(matches!(err, StoreError::Invalid(_)), "{err}");
    assert!(
        err.to_string().contains("one player of a competition"),
        "{err}"
    );
    let err = store
        .link_person(
            jv,
            &other,
            Some(&PersonId("nobody".into())),
            &[],
            why,
            &arbiter(),
        )
        .await
        .unwrap_err();
    assert!(matches!(err, StoreError::NotFound(_)), "{err}");
    assert!(matches!(
        store
            .link_person(jv, &other, None, &[], " ", &arbiter())
            .await,
        Err(StoreError::Invalid(_))
    ));
    // Undone: a person of her own again, never the one she was linked to.
    let own = store
        .link_person(jv, &her.id, None, &[], "two students after all", &arbiter())
        .await
        .unwrap();
    assert_ne!(own, to);
    assert!(!first(&load(jv).await).is_same_person(&star));
    let history = history_with(&store, |f| f.competition = Some(jv)).await;
    let links: Vec<_> = history
        .iter()
        .filter(|h| h.action == "link_person")
        .collect();
    assert_eq!(links.len(), 2, "{links:?}");
    assert!(links.iter().any(|h| h.reason.as_deref() == Some(why)
        && h.after.as_ref().unwrap()["person"] == to.0.as_str()));
    // A new entry may be added as a person the league has.
    let team = j.competition.teams[0].id.clone();
    let again = arbiter_core::Player {
        id: PlayerId(format!("{team}-again")),
        name: "Star Again".into(),
        person: Some(to.clone()),
        ..arbiter_core::Player::default()
    };
    store
        .add_players(jv, &[(team, again)], None, &arbiter())
        .await
        .unwrap();
    let j = load(jv).await;
    assert!(
        j.competition.teams[0]
            .players
            .iter()
            .any(|p| p.name == "Star Again" && p.is_same_person(&star))
    );
}

/// Issue 12: a player corrected or withdrawn stays on the roster, their games untouched.
async fn a_player_withdrawn_keeps_their_games(store: Store) {
    migrated(&store).await;
    let (_, id) = imported(&store).await;
    let before = store.load_competition_by_id(id).await.unwrap().unwrap();
    let p = before.competition.teams[0].players[0].clone();
    let day = "2026-01-19".parse::<jiff::civil::Date>().unwrap();
    let change = PlayerChange {
        name: format!("{} Jr.", p.name),
        rating: p.rating,
        provisional: p.provisional,
        withdrawn: Some(day),
    };
    let err = store
        .change_player(id, &p.id, &change, " ", &arbiter())
        .await
        .unwrap_err();
    assert!(err.to_string().contains("reason"), "{err}");
    let err = store
        .change_player(
            id,
            &PlayerId("nobody".into()),
            &change,
            "Moved away",
            &arbiter(),
        )
        .await
        .unwrap_err();
    assert!(matches!(err, StoreError::NotFound(_)), "{err}");
    store
        .change_player(id, &p.id, &change, "Moved to Cleveland", &arbiter())
        .await
        .unwrap();
    let after = store.load_competition_by_id(id).await.unwrap().unwrap();
    let q = &after.competition.teams[0].players[0];
    assert_eq!(
        (q.name.as_str(), q.withdrawn),
        (change.name.as_str(), Some(day))
    );
    assert_eq!(
        after.competition.rounds, before.competition.rounds,
        "the games stay"
    );
    assert_eq!(after.record.version, before.record.version + 1);
    let history = store.history(&HistoryFilter::default()).await.unwrap();
    let h = history
        .iter()
        .find(|h| h.action == "withdraw_player")
        .expect("the withdrawal is in the history");
    assert_eq!(h.reason.as_deref(), Some("Moved to Cleveland"));
    assert_eq!(
        h.before.as_ref().unwrap()["withdrawn"],
        serde_json::Value::Null
    );
    assert_eq!(h.after.as_ref().unwrap()["withdrawn"], "2026-01-19");
}

/// GT-O2: the fee ledger keeps its entries numbered in the season, a reversal once, each in the
/// history with who and why; a stale writer is refused, and the database refuses any change.
async fn gt_o2_the_ledger_keeps_every_entry_in_order_and_refuses_changes(store: Store) {
    use arbiter_core::season::ledger::{Entry, EntryKind, Money};
    migrated(&store).await;
    let (season, _) = imported(&store).await;
    let league = store.league("gthscl").await.unwrap().unwrap().id;
    let school = "École Saint-Jean <&\"'>";
    let treasurer = Actor::user(
        "treasurer@gthscl.example",
        arbiter_core::rules::permissions::Role::Treasurer,
    );
    assert!(store.ledger(league, season).await.unwrap().is_empty());
    let payment = Entry {
        number: 1,
        kind: EntryKind::Payment,
        school: Some(school.to_string()),
        amount: Money::from_cents(2000),
        on: jiff::civil::date(2025, 10, 6),
        note: "cheque 1042, for both teams".into(),
        reverses: None,
    };
    let version = store.data_version().await.unwrap();
    let first = store
        .record_ledger_entry(league, season, &payment, &treasurer)
        .await
        .unwrap();
    assert_eq!(first.entry, payment);
    assert_eq!(
        first.recorded_by.as_deref(),
        Some("treasurer@gthscl.example")
    );
    assert!(store.data_version().await.unwrap() > version);
    // A writer who read the ledger before entry 1 is refused, and nothing is written.
    let stale = store
        .record_ledger_entry(league, season, &payment, &treasurer)
        .await
        .unwrap_err();
    assert!(matches!(stale, StoreError::Stale(_)), "{stale}");
    // An unknown school, and an amount of nothing, are refused with the sentence.
    let unknown = Entry {
        number: 2,
        school: Some("Nowhere High".into()),
        ..payment.clone()
    };
    let err = store
        .record_ledger_entry(league, season, &unknown, &treasurer)
        .await
        .unwrap_err();
    assert!(err.to_string().contains("Nowhere High"), "{err}");
    let nothing = Entry {
        number: 2,
        amount: Money::ZERO,
        ..payment.clone()
    };
    assert!(matches!(
        store
            .record_ledger_entry(league, season, &nothing, &treasurer)
            .await,
        Err(StoreError::Invalid(_))
    ));
    // The reversal takes the entry's school and amount, whatever it was given.
    let reversal = Entry {
        number: 2,
        kind: EntryKind::Reversal,
        school: None,
        amount: Money::from_cents(1),
        on: jiff::civil::date(2025, 10, 7),
        note: "the fee is per school, not per team (GT-O2)".into(),
        reverses: Some(1),
    };
    let undone = store
        .record_ledger_entry(league, season, &reversal, &treasurer)
        .await
        .unwrap();
    assert_eq!(undone.entry.school.as_deref(), Some(school));
    assert_eq!(undone.entry.amount, Money::from_cents(2000));
    let twice = Entry {
        number: 3,
        ..reversal.clone()
    };
    assert!(matches!(
        store
            .record_ledger_entry(league, season, &twice, &treasurer)
            .await,
        Err(StoreError::Stale(_))
    ));
    let trophies = Entry {
        number: 3,
        kind: EntryKind::PrizePurchase,
        school: None,
        amount: Money::from_cents(8450),
        on: jiff::civil::date(2025, 11, 12),
        note: "division trophies (GT-F1)".into(),
        reverses: None,
    };
    store
        .record_ledger_entry(league, season, &trophies, &treasurer)
        .await
        .unwrap();
    let all = store.ledger(league, season).await.unwrap();
    let kinds: Vec<(u32, EntryKind)> = all.iter().map(|e| (e.entry.number, e.entry.kind)).collect();
    assert_eq!(
        kinds,
        [
            (1, EntryKind::Payment),
            (2, EntryKind::Reversal),
            (3, EntryKind::PrizePurchase)
        ]
    );
    assert_eq!(all[0], first);
    assert_eq!(all[2].entry, trophies);
    // Another season of another league sees none of it.
    let other = league_and_season(&store, "astc").await;
    let other_league = store.league("astc").await.unwrap().unwrap().id;
    assert!(
        store
            .ledger(other_league, other.id)
            .await
            .unwrap()
            .is_empty()
    );
    assert!(matches!(
        store.ledger(other_league, season).await,
        Err(StoreError::NotFound(_))
    ));
    // Every entry is in the league's history with who and why.
    let history = history_with(&store, |f| f.league = Some(league)).await;
    let rows: Vec<_> = history
        .iter()
        .filter(|h| h.action == "record_ledger_entry")
        .collect();
    assert_eq!(rows.len(), 3);
    assert!(
        rows.iter().all(|h| h.entity == "ledger_entry"
            && h.actor.as_deref() == Some("treasurer@gthscl.example"))
    );
    let reversed = rows
        .iter()
        .find(|h| h.after.as_ref().unwrap()["kind"] == "reversal")
        .unwrap();
    assert_eq!(
        reversed.reason.as_deref(),
        Some("the fee is per school, not per team (GT-O2)")
    );
    assert_eq!(reversed.after.as_ref().unwrap()["amount"], "20.00");
    // A reader kept from the ledger gets the league's history without it.
    let hidden = history_with(&store, |f| {
        f.league = Some(league);
        f.hidden = vec![arbiter_store::Entity::LedgerEntry];
    })
    .await;
    assert_eq!(hidden.len(), history.len() - 3);
    for sql in [
        "UPDATE ledger_entries SET amount_cents = 1",
        "DELETE FROM ledger_entries",
    ] {
        assert_refused_by_the_database(&store, sql).await;
    }
}

/// Nothing is ever lost: the database itself refuses to change or remove history or results.
async fn history_and_result_versions_refuse_update_and_delete(store: Store) {
    migrated(&store).await;
    imported(&store).await;
    let rows = fetch_i64(&store, "SELECT COUNT(*) FROM history").await;
    assert!(rows > 0);
    for sql in [
        "UPDATE history SET actor = 'someone else'",
        "DELETE FROM history",
        "UPDATE result_versions SET reason = 'rewritten'",
        "DELETE FROM result_boards",
        "DELETE FROM result_versions",
    ] {
        assert_refused_by_the_database(&store, sql).await;
    }
    assert_eq!(
        fetch_i64(&store, "SELECT COUNT(*) FROM history").await,
        rows
    );
}

async fn concurrent_corrections_that_reread_get_consecutive_versions(store: Store) {
    migrated(&store).await;
    let (_, id) = imported(&store).await;
    let loaded = store.load_competition_by_id(id).await.unwrap().unwrap();
    let m = loaded.match_id(1, &TeamId("vic".into())).unwrap();
    let writers: Vec<_> = (0..6)
        .map(|i| {
            let store = store.clone();
            tokio::spawn(async move {
                let outcome = if i % 2 == 0 {
                    MatchOutcome::Forfeit { by: Side::Home }
                } else {
                    corrected_round_one()
                };
                // Each writer reads the match again when another got in first (issue 9).
                loop {
                    let seen = store.report_seen(m).await.unwrap();
                    match store
                        .record_result(m, seen, &outcome, &advisor(), Some(&format!("writer {i}")))
                        .await
                    {
                        Err(StoreError::Stale(_)) => continue,
                        done => break done,
                    }
                }
            })
        })
        .collect();
    for w in writers {
        w.await.unwrap().unwrap();
    }
    let versions = store.result_versions(m).await.unwrap();
    assert_eq!(
        versions.iter().map(|v| v.version).collect::<Vec<_>>(),
        (1..=7).collect::<Vec<_>>()
    );
    let after = store.load_competition_by_id(id).await.unwrap().unwrap();
    assert_eq!(after.version, 7);
    let latest = &versions[6].outcome;
    assert!(matches!(
        &after.competition.rounds[0].pairings[0],
        Pairing::Match(x) if &x.outcome == latest
    ));
    assert_eq!(
        history_with(&store, |f| f.match_id = Some(m)).await.len(),
        6
    );
}

/// `n` copies of `write` started together; their answers.
async fn at_once<T, F, Fut>(n: usize, write: F) -> Vec<Result<T, StoreError>>
where
    T: Send + 'static,
    F: Fn(usize) -> Fut,
    Fut: std::future::Future<Output = Result<T, StoreError>> + Send + 'static,
{
    let barrier = std::sync::Arc::new(tokio::sync::Barrier::new(n));
    let tasks: Vec<_> = (0..n)
        .map(|i| {
            let (barrier, write) = (barrier.clone(), write(i));
            tokio::spawn(async move {
                barrier.wait().await;
                write.await
            })
        })
        .collect();
    let mut out = Vec::new();
    for t in tasks {
        out.push(t.await.unwrap());
    }
    out
}

/// GT-P2, issue 9: the version a writer saw is checked inside the write's transaction, so of 16
/// writers who all saw version 1 exactly one stores version 2; the others are told it is stale.
async fn of_sixteen_simultaneous_entries_on_one_version_exactly_one_is_stored(store: Store) {
    migrated(&store).await;
    let (_, id) = imported(&store).await;
    let loaded = store.load_competition_by_id(id).await.unwrap().unwrap();
    let m = loaded.match_id(1, &TeamId("vic".into())).unwrap();
    let seen = store.report_seen(m).await.unwrap();
    assert_eq!(
        seen,
        ReportSeen {
            version: 1,
            reviews: 0
        }
    );
    let answers = at_once(16, |i| {
        let store = store.clone();
        async move {
            store
                .record_result(
                    m,
                    seen,
                    &corrected_round_one(),
                    &advisor(),
                    Some(&format!("writer {i}")),
                )
                .await
        }
    })
    .await;
    let stored: Vec<_> = answers.iter().filter_map(|a| a.as_ref().ok()).collect();
    assert_eq!(stored.len(), 1, "{answers:?}");
    assert_eq!(stored[0].version, 2);
    for a in answers.iter().filter(|a| a.is_err()) {
        assert!(
            matches!(a, Err(StoreError::Stale(m)) if m.contains("is now at version 2 with no reviews")),
            "{a:?}"
        );
    }
    assert_eq!(store.result_versions(m).await.unwrap().len(), 2);
    let history = history_with(&store, |f| f.match_id = Some(m)).await;
    assert_eq!(history.len(), 1, "only the stored write is in the history");
}

/// GT-P2, issue 9: 16 confirmations of one version sent at once store one review.
async fn of_sixteen_simultaneous_reviews_of_one_version_exactly_one_is_stored(store: Store) {
    migrated(&store).await;
    let (_, id) = imported(&store).await;
    let loaded = store.load_competition_by_id(id).await.unwrap().unwrap();
    let m = loaded.match_id(1, &TeamId("vic".into())).unwrap();
    let seen = store.report_seen(m).await.unwrap();
    let answers = at_once(16, |_| {
        let store = store.clone();
        async move {
            store
                .review_result(
                    m,
                    seen,
                    arbiter_core::season::report::ReviewKind::Confirmed,
                    &advisor(),
                    None,
                )
                .await
        }
    })
    .await;
    assert_eq!(
        answers.iter().filter(|a| a.is_ok()).count(),
        1,
        "{answers:?}"
    );
    assert!(
        answers
            .iter()
            .filter(|a| a.is_err())
            .all(|a| matches!(a, Err(StoreError::Stale(m)) if m.contains("is now at version 1 with 1 review;"))),
        "{answers:?}"
    );
    assert_eq!(store.result_reviews(m).await.unwrap().len(), 1);
}

/// The demo's ASTC event and GTHSCL season (sister teams, 1200N players, forfeits, a dropped
/// team: GT-M4, GT-M5, GT-M7, GT-M9, GT-R3, AS-10, AS-18) store and load back unchanged.
async fn the_demo_league_round_trips(store: Store) {
    migrated(&store).await;
    let demo = arbiter_demo::generate(jiff::civil::date(2026, 11, 3));
    let mut stored = 0;
    for league in &demo.leagues {
        let kind = match league.kind {
            arbiter_demo::LeagueKind::League => LeagueKind::League,
            arbiter_demo::LeagueKind::Event => LeagueKind::Event,
        };
        let l = store
            .create_league(
                &NewLeague {
                    slug: league.slug.clone(),
                    name: league.name.clone(),
                    kind,
                    description: league.description.clone(),
                    time_zone: Zone::named(league.time_zone).unwrap(),
                },
                &Actor::system(),
            )
            .await
            .unwrap();
        for season in &league.seasons {
            let s = store
                .create_season(
                    l.id,
                    &NewSeason {
                        slug: season.slug.clone(),
                        name: season.name.clone(),
                        starts_on: Some(season.starts_on),
                        ends_on: Some(season.ends_on),
                    },
                    &Actor::system(),
                )
                .await
                .unwrap();
            for c in &season.competitions {
                let new = arbiter_store::NewCompetition {
                    slug: c.slug.clone(),
                    name: c.name.clone(),
                    rules: if Ruleset::preset(&c.rules).is_some() {
                        RulesRef::Preset(c.rules.clone())
                    } else {
                        RulesRef::Toml(c.rules.clone())
                    },
                };
                store
                    .import_competition(s.id, &new, &c.competition, &Actor::system())
                    .await
                    .unwrap();
                let loaded = store
                    .load_competition(&league.slug, &c.slug)
                    .await
                    .unwrap()
                    .unwrap();
                assert_eq!(
                    *loaded.competition,
                    with_own_persons(c.competition.clone(), &c.slug),
                    "{}/{}",
                    league.slug,
                    c.slug
                );
                assert_eq!(loaded.rules, c.ruleset().unwrap());
                stored += 1;
            }
        }
    }
    assert!(stored >= 5, "the demo has its competitions ({stored})");
}

// ---- SQLite only ----

#[tokio::test]
async fn sqlite_file_is_in_wal_mode_and_keeps_its_data() {
    let dir = temp_dir();
    let path = dir.join("league.db");
    {
        let store = Store::open(path.to_str().unwrap()).await.unwrap();
        store.migrate().await.unwrap();
        let Store::Sqlite(s) = &store else {
            panic!("a path opens SQLite")
        };
        let mode: String = sqlx::query_scalar("PRAGMA journal_mode")
            .fetch_one(s.pool())
            .await
            .unwrap();
        assert_eq!(mode, "wal");
        imported(&store).await;
        s.close().await;
    }
    assert!(path.exists());
    // Reopened through a sqlite:// URL, everything is there.
    let store = Store::open(&format!("sqlite://{}", path.display()))
        .await
        .unwrap();
    store.migrate().await.unwrap();
    let loaded = loaded(&store, "gthscl", "varsity").await;
    assert_eq!(
        *loaded.competition,
        with_own_persons(every_kind_of_result(), "varsity")
    );
    if let Store::Sqlite(s) = &store {
        s.close().await;
    }
    let _ = std::fs::remove_dir_all(&dir);
}

async fn foreign_keys_are_enforced(store: Store) {
    migrated(&store).await;
    let Store::Sqlite(s) = &store else {
        panic!("SQLite only")
    };
    // Every connection of the pool has them on.
    for _ in 0..3 {
        let on: i64 = sqlx::query_scalar("PRAGMA foreign_keys")
            .fetch_one(s.pool())
            .await
            .unwrap();
        assert_eq!(on, 1);
    }
    let err = execute_raw(
        &store,
        "INSERT INTO teams (competition_id, team_key, name, position) VALUES (999, 'x', 'X', 0)",
    )
    .await
    .unwrap_err();
    assert!(err.contains("FOREIGN KEY"), "{err}");
    let err = execute_raw(
        &store,
        "INSERT INTO seasons (league_id, slug, name, created_at) VALUES (999, 's', 'S', '2025-01-01T00:00:00Z')",
    )
    .await
    .unwrap_err();
    assert!(err.contains("FOREIGN KEY"), "{err}");
}

#[tokio::test]
async fn sqlite_file_enforces_foreign_keys() {
    run_sqlite_file(foreign_keys_are_enforced).await;
}

#[tokio::test]
async fn sqlite_memory_enforces_foreign_keys() {
    run_sqlite_memory(foreign_keys_are_enforced).await;
}

#[tokio::test]
async fn other_database_schemes_are_refused() {
    let err = Store::open("mysql://localhost/arbiter").await.unwrap_err();
    assert!(
        matches!(&err, StoreError::Invalid(m) if m.contains("`mysql://`")),
        "{err:?}"
    );
    let err = Store::open("").await.unwrap_err();
    assert!(matches!(err, StoreError::Invalid(_)), "{err:?}");
    let err = Store::open("/nonexistent-folder/sub/arbiter.db")
        .await
        .unwrap_err();
    assert!(
        matches!(&err, StoreError::Database(m) if m.contains("folder exists")),
        "{err:?}"
    );
}

// ---- sources ----

/// DESIGN: no code path issues UPDATE or DELETE on the history table.
#[test]
fn no_code_path_updates_or_deletes_history() {
    let forbidden = [
        "UPDATE HISTORY",
        "UPDATE OR REPLACE HISTORY",
        "UPDATE OR IGNORE HISTORY",
        "DELETE FROM HISTORY",
        "REPLACE INTO HISTORY",
        "INSERT OR REPLACE INTO HISTORY",
        "TRUNCATE HISTORY",
        "TRUNCATE TABLE HISTORY",
        "DROP TABLE HISTORY",
    ];
    let offends = |text: &str| -> Option<&str> {
        let norm = text
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .to_uppercase()
            .replace(['"', '`'], "");
        forbidden.iter().copied().find(|f| norm.contains(f))
    };
    // The check itself catches what it should, across line breaks and case.
    assert_eq!(
        offends("sqlx::query(\"delete\n   from history\")"),
        Some("DELETE FROM HISTORY")
    );
    assert_eq!(offends("UPDATE \"history\" SET"), Some("UPDATE HISTORY"));
    assert_eq!(offends("BEFORE UPDATE ON history"), None);

    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut checked = 0;
    for dir in ["src", "migrations"] {
        for file in files_under(&root.join(dir)) {
            let text = std::fs::read_to_string(&file).unwrap();
            if let Some(f) = offends(&text) {
                panic!(
                    "{} contains `{f}`: the history is append-only",
                    file.display()
                );
            }
            checked += 1;
        }
    }
    assert!(
        checked >= 10,
        "the check read the crate's sources ({checked} files)"
    );
}

/// The migrations compiled into the binary are exactly the files of each folder.
#[test]
fn embedded_migrations_are_the_migration_folders() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("migrations");
    for (folder, embedded) in [
        ("sqlite", arbiter_store::migrations::SQLITE),
        ("postgres", arbiter_store::migrations::POSTGRES),
    ] {
        let files = files_under(&root.join(folder));
        assert_eq!(files.len(), embedded.len(), "{folder}: one entry per file");
        for (file, (version, description, sql)) in files.iter().zip(embedded) {
            let name = file.file_name().unwrap().to_str().unwrap();
            assert_eq!(name, format!("{version:04}_{description}.sql"));
            assert_eq!(std::fs::read_to_string(file).unwrap(), *sql);
        }
    }
}

/// Each test above is stored with the values it was given; spot-check a few result codes
/// survive exactly (GT-S2 forfeits, GT-M4 double forfeits).
#[test]
fn fixture_covers_every_result_code() {
    let c = every_kind_of_result();
    let mut seen = std::collections::HashSet::new();
    for (_, m) in c.matches() {
        if let MatchOutcome::Boards(b) = &m.outcome {
            for board in b {
                seen.insert(board.result);
                if let Some(r) = board.rating_result {
                    seen.insert(r);
                }
            }
        }
    }
    for r in [
        GameResult::HomeWin,
        GameResult::Draw,
        GameResult::AwayWin,
        GameResult::HomeWinByForfeit,
        GameResult::AwayWinByForfeit,
        GameResult::DoubleForfeit,
        GameResult::Pending,
    ] {
        assert!(seen.contains(&r), "the fixture has a {r:?} board");
    }
}

/// Migration 0007 respells the byes a database already holds (issue 10: one spelling,
/// `ByeKind::code`), and the new CHECK refuses the old spelling.
#[tokio::test]
async fn migration_7_respells_the_byes_already_stored() {
    use sqlx::Row;
    // One connection (each in-memory connection is its own database), foreign keys off: the
    // byes need no rounds or teams here.
    let options = "sqlite::memory:"
        .parse::<sqlx::sqlite::SqliteConnectOptions>()
        .unwrap()
        .foreign_keys(false);
    let pool = sqlx::sqlite::SqlitePoolOptions::new()
        .max_connections(1)
        .connect_with(options)
        .await
        .unwrap();
    let (before, after): (Vec<_>, Vec<_>) = arbiter_store::migrations::SQLITE
        .iter()
        .partition(|(version, _, _)| *version < 7);
    for (_, _, sql) in &before {
        sqlx::raw_sql(sql).execute(&pool).await.unwrap();
    }
    for (id, kind) in [(1, "PAB"), (2, "FPB"), (3, "HPB"), (4, "ZPB")] {
        sqlx::query(
            "INSERT INTO byes (id, round_id, position, team_id, kind) VALUES (?, 1, ?, 1, ?)",
        )
        .bind(id)
        .bind(id)
        .bind(kind)
        .execute(&pool)
        .await
        .unwrap();
    }
    for (_, _, sql) in &after {
        sqlx::raw_sql(sql).execute(&pool).await.unwrap();
    }
    let kinds: Vec<String> = sqlx::query("SELECT kind FROM byes ORDER BY id")
        .fetch_all(&pool)
        .await
        .unwrap()
        .iter()
        .map(|row| row.get("kind"))
        .collect();
    assert_eq!(kinds, ["pab", "full", "half", "zero"]);
    let old = sqlx::query(
        "INSERT INTO byes (id, round_id, position, team_id, kind) VALUES (5, 1, 5, 1, 'FPB')",
    )
    .execute(&pool)
    .await;
    assert!(old.is_err(), "the old spelling is refused after 0007");
}

/// GT-F3, GT-F5: a tie decision is kept with its reason; the playoffs are drawn once (their
/// competition, field and calendar with the bye date); a round is paired only on the version
/// read; a deciding game is kept; every change is in the history and the tables refuse changes.
async fn gt_f3_the_playoffs_are_drawn_once_and_paired_round_by_round(store: Store) {
    use arbiter_core::rules::ruleset::PlayoffTiebreak;
    use arbiter_core::season_end::bracket::{DecidingGame, PlayoffCalendar};
    use arbiter_core::season_end::qualify::Seed;
    use arbiter_core::{Round, Team};
    migrated(&store).await;
    let (season, division) = imported(&store).await;
    let loaded = store
        .load_competition_by_id(division)
        .await
        .unwrap()
        .unwrap();
    let teams: Vec<Team> = loaded.competition.teams.iter().take(2).cloned().collect();
    assert_eq!(teams.len(), 2, "the fixture has two teams to qualify");
    let order: Vec<TeamId> = teams.iter().map(|t| t.id.clone()).collect();
    let decided = store
        .record_tie_decision(
            division,
            &order,
            "drawn by lot at the officers' meeting",
            &arbiter(),
        )
        .await
        .unwrap();
    assert_eq!(store.tie_decisions(season).await.unwrap(), vec![decided]);

    let field: Vec<Seed> = teams
        .iter()
        .enumerate()
        .map(|(i, t)| Seed {
            seed: u32::try_from(i + 1).unwrap(),
            team: t.id.clone(),
            name: t.name.clone(),
            school: t.school.clone(),
            division: "Varsity".into(),
            place: u32::try_from(i + 1).unwrap(),
        })
        .collect();
    let playoff = Competition {
        name: "Playoffs".into(),
        teams: teams.clone(),
        rounds: Vec::new(),
    };
    let calendar = PlayoffCalendar {
        rounds: vec![jiff::civil::date(2026, 3, 9)],
        bye_date: jiff::civil::date(2026, 3, 4),
    };
    let new = arbiter_store::NewCompetition {
        slug: "playoffs-2025-26".into(),
        name: "Playoffs".into(),
        rules: RulesRef::Preset("gthscl".into()),
    };
    assert!(store.playoffs(season).await.unwrap().is_none());
    let drawn = store
        .draw_playoffs(season, &new, &playoff, &field, &calendar, &arbiter())
        .await
        .unwrap();
    assert_eq!(drawn.field, field);
    assert_eq!(drawn.days, calendar.rounds);
    assert_eq!(drawn.bye_date, Some(calendar.bye_date));
    assert_eq!(store.playoffs(season).await.unwrap(), Some(drawn.clone()));
    let again = arbiter_store::NewCompetition {
        slug: "playoffs-again".into(),
        ..new.clone()
    };
    let refused = store
        .draw_playoffs(season, &again, &playoff, &field, &calendar, &arbiter())
        .await;
    assert!(
        matches!(refused, Err(StoreError::Conflict(_))),
        "{refused:?}"
    );

    let stored = store
        .load_competition_by_id(drawn.competition)
        .await
        .unwrap()
        .unwrap();
    let round = Round {
        number: 1,
        date: Some(calendar.rounds[0]),
        pairings: vec![played(&order[0].0, &order[1].0)],
    };
    store
        .pair_round(drawn.competition, stored.version, &round, &arbiter())
        .await
        .unwrap();
    // Paired on a version no longer current: refused, nothing added.
    let stale = store
        .pair_round(drawn.competition, stored.version, &round, &arbiter())
        .await;
    assert!(matches!(stale, Err(StoreError::Stale(_))), "{stale:?}");
    let stored = store
        .load_competition_by_id(drawn.competition)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(stored.competition.rounds.len(), 1);
    assert_eq!(stored.match_ids.len(), 1);

    let game = DecidingGame {
        round: 1,
        team: order[0].clone(),
        kind: PlayoffTiebreak::Armageddon,
        black: Side::Away,
        result: GameResult::Draw,
    };
    store
        .record_deciding_game(
            drawn.competition,
            &game,
            None,
            Some("played at Perrysburg"),
            &arbiter(),
        )
        .await
        .unwrap();
    let games = store.deciding_games(drawn.competition).await.unwrap();
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].game, game);
    assert_eq!(games[0].reason.as_deref(), Some("played at Perrysburg"));
    assert_eq!(games[0].corrects, None);

    // Corrected: a new row naming the one it corrects, which stays; corrected once only.
    let fixed = DecidingGame {
        result: GameResult::HomeWin,
        ..game.clone()
    };
    let first = games[0].id;
    store
        .record_deciding_game(
            drawn.competition,
            &fixed,
            Some(first),
            Some("the score sheet says White won"),
            &arbiter(),
        )
        .await
        .unwrap();
    let again = store
        .record_deciding_game(
            drawn.competition,
            &fixed,
            Some(first),
            Some("twice"),
            &arbiter(),
        )
        .await;
    assert!(matches!(again, Err(StoreError::Stale(_))), "{again:?}");
    let other_match = DecidingGame {
        round: 2,
        ..fixed.clone()
    };
    let games = store.deciding_games(drawn.competition).await.unwrap();
    let wrong = store
        .record_deciding_game(
            drawn.competition,
            &other_match,
            Some(games[1].id),
            Some("another match"),
            &arbiter(),
        )
        .await;
    assert!(matches!(wrong, Err(StoreError::Invalid(_))), "{wrong:?}");
    assert_eq!(games.len(), 2);
    assert_eq!(games[0].game, game);
    assert_eq!(
        (games[1].game.clone(), games[1].corrects),
        (fixed, Some(first))
    );

    let history = store.history(&HistoryFilter::default()).await.unwrap();
    for action in [
        "decide_tie",
        "draw_playoffs",
        "pair_round",
        "record_deciding_game",
        "correct_deciding_game",
    ] {
        assert!(
            history.iter().any(|h| h.action == action),
            "{action} is in the history"
        );
    }
    for table in [
        "tie_decisions",
        "playoffs",
        "playoff_seeds",
        "playoff_days",
        "deciding_games",
    ] {
        let changed = support::execute_raw(&store, &format!("DELETE FROM {table}")).await;
        assert!(changed.is_err(), "{table} refuses a delete");
    }
}

fn played(home: &str, away: &str) -> Pairing {
    Pairing::Match(arbiter_core::Match {
        home: TeamId(home.into()),
        away: TeamId(away.into()),
        outcome: MatchOutcome::Pending,
        date: None,
        start: None,
        extra_games: Vec::new(),
        late: None,
    })
}

/// GT-O3: every draft and publication of a report is a new version, the next of its moment;
/// a writer who read an older one is refused; each is in the history.
async fn gt_o3_a_media_report_keeps_every_draft_and_publication(store: Store) {
    use arbiter_core::season_end::media::Moment;
    migrated(&store).await;
    let (season, _) = imported(&store).await;
    let league = store.league("gthscl").await.unwrap().unwrap().id;
    let vp = Actor::user(
        "vp@gthscl.example",
        arbiter_core::rules::permissions::Role::VicePresident,
    );
    let draft = store
        .record_media_report(
            league,
            season,
            Moment::Midway,
            0,
            ("Draft.", "# Draft"),
            false,
            &vp,
        )
        .await
        .unwrap();
    assert_eq!((draft.version, draft.published), (1, false));
    let stale = store
        .record_media_report(
            league,
            season,
            Moment::Midway,
            0,
            ("Again.", "# Again"),
            true,
            &vp,
        )
        .await;
    assert!(matches!(stale, Err(StoreError::Stale(_))), "{stale:?}");
    let published = store
        .record_media_report(
            league,
            season,
            Moment::Midway,
            1,
            ("Final.", "# Final"),
            true,
            &vp,
        )
        .await
        .unwrap();
    assert_eq!((published.version, published.published), (2, true));
    let end = store
        .record_media_report(
            league,
            season,
            Moment::End,
            0,
            ("End.", "# End"),
            false,
            &vp,
        )
        .await
        .unwrap();
    assert_eq!(end.version, 1);
    let all = store.media_reports(season).await.unwrap();
    assert_eq!(all, vec![draft, published, end]);
    // The midway report has a published version, the end's only a draft (the seasons' blocks
    // link what is published).
    assert_eq!(
        store.published_media_reports().await.unwrap(),
        [(season, Moment::Midway)]
    );
    let empty = store
        .record_media_report(league, season, Moment::End, 1, ("  ", "# End"), true, &vp)
        .await;
    assert!(matches!(empty, Err(StoreError::Invalid(_))), "{empty:?}");
    let history = store.history(&HistoryFilter::default()).await.unwrap();
    assert_eq!(
        history
            .iter()
            .filter(|h| h.action == "publish_media_report")
            .count(),
        1
    );
    assert!(
        support::execute_raw(&store, "UPDATE media_reports SET version = 9")
            .await
            .is_err()
    );
}

/// AS-1, AS-3: the event is set in versions, the latest in force with its round times, a stale
/// writer refused; AS-11: a lineup accepted after its deadline loads with who accepted it and why.
async fn as_1_as_11_an_event_is_set_in_versions_and_a_late_lineup_keeps_its_acceptance(
    store: Store,
) {
    use arbiter_core::event::field::State;
    use arbiter_core::teams::lineup::Lineup;
    use arbiter_store::{EventRoundStart, LateLineup, NewEvent};
    migrated(&store).await;
    let (season, id) = imported(&store).await;
    assert_eq!(store.event(season).await.unwrap(), None);
    // The hall's clock is the league's zone: Adelaide's, +10:30 in December.
    let league = store.league("gthscl").await.unwrap().unwrap();
    let adelaide = Zone::named("Australia/Adelaide").unwrap();
    store
        .set_time_zone(league.id, &adelaide, &arbiter())
        .await
        .unwrap();
    let time = |s: &str| s.parse::<jiff::civil::DateTime>().unwrap();
    let mut event = NewEvent {
        name: "ASTC 2026".into(),
        host: State::Sa,
        venue: "Adelaide Convention Centre".into(),
        utc_offset_minutes: 630,
        rounds: vec![
            EventRoundStart {
                competition: id,
                round: 1,
                starts_at: time("2026-12-07T09:30"),
            },
            EventRoundStart {
                competition: id,
                round: 2,
                starts_at: time("2026-12-07T13:30"),
            },
        ],
    };
    let first = store
        .record_event(season, 0, &event, &arbiter())
        .await
        .unwrap();
    assert_eq!(first.version, 1);
    event.venue = "Adelaide Convention Centre, Hall C".into();
    let stale = store
        .record_event(season, 0, &event, &arbiter())
        .await
        .unwrap_err();
    assert!(matches!(stale, StoreError::Stale(_)), "{stale}");
    store
        .record_event(season, 1, &event, &arbiter())
        .await
        .unwrap();
    let in_force = store.event(season).await.unwrap().unwrap();
    assert_eq!((in_force.version, &in_force.event), (2, &event));
    assert_eq!(in_force.round_start(id, 2), Some(time("2026-12-07T13:30")));
    // 22:00 UTC on 6 December is 08:30 on the 7th in Adelaide (+10:30).
    let now: jiff::Timestamp = "2026-12-06T22:00:00Z".parse().unwrap();
    assert_eq!(in_force.hall_time(now), time("2026-12-07T08:30"));
    // A league still in UTC, as migration 0027 left every league, keeps the event's fixed
    // offset; and the zone keeps daylight saving: Adelaide in June is +9:30.
    store
        .set_time_zone(league.id, &Zone::utc(), &arbiter())
        .await
        .unwrap();
    let fixed = store.event(season).await.unwrap().unwrap();
    assert_eq!(fixed.hall_time(now), time("2026-12-07T08:30"));
    let june: jiff::Timestamp = "2026-06-06T22:00:00Z".parse().unwrap();
    assert_eq!(fixed.hall_time(june), time("2026-06-07T08:30"));
    assert_eq!(in_force.hall_time(june), time("2026-06-07T07:30"));
    store
        .set_time_zone(league.id, &adelaide, &arbiter())
        .await
        .unwrap();

    let loaded = store.load_competition_by_id(id).await.unwrap().unwrap();
    let m = loaded.match_id(3, &TeamId("syl".into())).unwrap();
    let late = LateLineup {
        named_at: time("2026-12-07T13:20"),
        minutes_late: 5,
        accepted_by: "arbiter@astc.example".into(),
        reason: "the team's bus was held up".into(),
    };
    let lineup = Lineup {
        boards: vec![Some(PlayerId("vic-1".into()))],
        withdrawn: Vec::new(),
    };
    store
        .record_lineup(m, Side::Away, 0, &lineup, Some(&late), &arbiter())
        .await
        .unwrap();
    let loaded = store.load_competition_by_id(id).await.unwrap().unwrap();
    let named = loaded.lineup(3, &TeamId("syl".into()), Side::Away).unwrap();
    assert_eq!(named.late.as_ref(), Some(&late));
    let history = store.history(&HistoryFilter::default()).await.unwrap();
    assert_eq!(
        history.iter().filter(|h| h.action == "set_event").count(),
        2
    );
    let accepted = history.iter().find(|h| h.action == "name_lineup").unwrap();
    assert_eq!(
        accepted.reason.as_deref(),
        Some("the team's bus was held up")
    );
}

/// AS-13: a protest is kept with its grounds, then its reply and the arbiter's decision, each
/// once; an upheld protest's order becomes the roster's; every step is in the history.
async fn as_13_a_protest_keeps_its_reply_and_decision_and_an_upheld_one_sets_the_order(
    store: Store,
) {
    use arbiter_core::event::protest::{Answer, Decision, Protest, Reply, Ruling};
    use arbiter_core::record::text::Reason;
    migrated(&store).await;
    let (_, id) = imported(&store).await;
    let loaded = store.load_competition_by_id(id).await.unwrap().unwrap();
    let vic = loaded
        .competition
        .team(&TeamId("vic".into()))
        .unwrap()
        .clone();
    let order: Vec<PlayerId> = vic.players.iter().map(|p| p.id.clone()).collect();
    let time = |s: &str| s.parse::<jiff::civil::DateTime>().unwrap();
    let protest = Protest {
        by: TeamId("syl".into()),
        against: vic.id.clone(),
        grounds: Reason::parse("board 2 is stronger than board 1")
            .unwrap()
            .unwrap(),
        lodged_at: time("2026-12-07T09:05"),
        order_protested: order.clone(),
        reply: None,
        decision: None,
    };
    let kept = store
        .record_protest(id, &protest, &arbiter())
        .await
        .unwrap();
    assert_eq!(kept.number, 1);
    let reply = Reply {
        answer: Answer::Written(Reason::parse("ratings say so").unwrap().unwrap()),
        at: time("2026-12-07T09:08"),
    };
    store
        .record_protest_reply(id, 1, &reply, &arbiter())
        .await
        .unwrap();
    let twice = store
        .record_protest_reply(id, 1, &reply, &arbiter())
        .await
        .unwrap_err();
    assert!(matches!(twice, StoreError::Stale(_)), "{twice}");
    let mut new_order = order.clone();
    new_order.swap(0, 1);
    let decision = Decision {
        ruling: Ruling::Upheld {
            order: new_order.clone(),
        },
        by: "arbiter@astc.example".into(),
        at: time("2026-12-07T09:12"),
        reason: Reason::parse("the ratings list shows board 2 higher").unwrap(),
    };
    store
        .record_protest_decision(id, 1, &vic.id, &decision, &arbiter())
        .await
        .unwrap();
    let kept = store.protests(id).await.unwrap();
    assert_eq!(kept.len(), 1);
    assert_eq!(
        kept[0].protest,
        Protest {
            reply: Some(reply),
            decision: Some(decision.clone()),
            ..protest
        }
    );
    let loaded = store.load_competition_by_id(id).await.unwrap().unwrap();
    let now: Vec<PlayerId> = loaded
        .competition
        .team(&vic.id)
        .unwrap()
        .players
        .iter()
        .map(|p| p.id.clone())
        .collect();
    assert_eq!(now, new_order, "the upheld order is the roster's");
    let again = store
        .record_protest_decision(id, 1, &vic.id, &decision, &arbiter())
        .await
        .unwrap_err();
    assert!(matches!(again, StoreError::Stale(_)), "{again}");
    let history = store.history(&HistoryFilter::default()).await.unwrap();
    for action in ["lodge_protest", "reply_to_protest", "decide_protest"] {
        assert_eq!(
            history.iter().filter(|h| h.action == action).count(),
            1,
            "{action}"
        );
    }
}

/// Issue 17: a team Swiss round is added with its matches (no result yet) and its bye, once, on
/// the version read; the history keeps C.04.6's pairing and the change by hand with its reason,
/// which the competition reads back.
async fn c04_6_a_swiss_round_is_added_with_its_bye_and_its_change_by_hand_once(store: Store) {
    migrated(&store).await;
    let (c, _) = arbiter_core::pairing::swiss::sample::event(7, 4, 5, 2, 3).unwrap();
    let season = league_and_season(&store, "gthscl").await;
    let record = store
        .import_competition(
            season.id,
            &arbiter_store::NewCompetition {
                rules: RulesRef::Preset("fide-team".into()),
                ..new_competition("swiss")
            },
            &c,
            &arbiter(),
        )
        .await
        .unwrap();
    let before = store
        .load_competition_by_id(record.id)
        .await
        .unwrap()
        .unwrap();
    assert!(before.hand_changes.is_empty());
    let t = |i: usize| c.teams[i].id.clone();
    let round = arbiter_core::Round {
        number: 3,
        date: None,
        pairings: vec![
            played(&t(0).0, &t(1).0),
            played(&t(2).0, &t(3).0),
            played(&t(4).0, &t(5).0),
            Pairing::Bye(arbiter_core::Bye {
                team: t(6),
                kind: arbiter_core::ByeKind::PairingAllocated,
            }),
        ],
    };
    let paired = serde_json::json!({"round": 3, "pairs": [[1, 2], [3, 5], [4, 6]], "bye": 7});
    let changed = [t(2), t(4)];
    let note = arbiter_store::RoundNote::Swiss {
        paired: &paired,
        changed: &changed,
        bye_by_hand: None,
        reason: Some("two teams of one club"),
        overridden: &["C.04.1 b: teams 3 and 5 met in round 1".to_string()],
    };
    store
        .add_round(record.id, before.version, &round, &note, &arbiter())
        .await
        .unwrap();
    let stale = store
        .add_round(record.id, before.version, &round, &note, &arbiter())
        .await;
    assert!(matches!(stale, Err(StoreError::Stale(_))), "{stale:?}");
    let after = store
        .load_competition_by_id(record.id)
        .await
        .unwrap()
        .unwrap();
    let r3 = after
        .competition
        .rounds
        .iter()
        .find(|r| r.number == 3)
        .unwrap();
    assert_eq!(r3, &round);
    assert_eq!(after.competition.rounds.len(), 3);
    assert_eq!(
        after.hand_changes,
        vec![arbiter_store::HandChange {
            round: 3,
            matches: changed.to_vec(),
            bye: None,
            reason: "two teams of one club".into(),
            overridden: vec!["C.04.1 b: teams 3 and 5 met in round 1".into()],
        }]
    );
    let history = history_with(&store, |f| f.competition = Some(record.id)).await;
    let kept = history
        .iter()
        .find(|h| h.action == "publish_pairing")
        .expect("the publication is in the history");
    assert_eq!(kept.after.as_ref().unwrap()["paired"], paired);
}

/// The history selected by the filter that `narrow` makes of the default one (all of it).
async fn history_with(
    store: &Store,
    narrow: impl FnOnce(&mut HistoryFilter),
) -> Vec<arbiter_store::HistoryEntry> {
    let mut filter = HistoryFilter::default();
    narrow(&mut filter);
    store.history(&filter).await.unwrap()
}

/// Fails unless the database refuses `sql`, saying its rows are never changed (append-only).
async fn assert_refused_by_the_database(store: &Store, sql: &str) {
    let err = execute_raw(store, sql)
        .await
        .expect_err("the database refuses it");
    assert!(
        err.contains("never") || err.contains("append-only"),
        "{sql}: {err}"
    );
}

/// The place GTHSCL in the season `season` chooses, made if new.
fn in_gthscl(season: SeasonChoice) -> ImportPlace {
    ImportPlace {
        league: new_league("gthscl"),
        season,
    }
}

/// [`every_kind_of_result`] imported at `place` as the competition `slug`, by the arbiter.
async fn import_results_into(
    store: &Store,
    place: &ImportPlace,
    slug: &str,
) -> Result<arbiter_store::Imported, StoreError> {
    let c = every_kind_of_result();
    store
        .import_competition_into(place, &new_competition(slug), &c, &arbiter())
        .await
}

/// An empty competition imported into `season` as `slug`, by the arbiter.
async fn import_empty(
    store: &Store,
    season: SeasonId,
    slug: &str,
) -> Result<arbiter_store::CompetitionRecord, StoreError> {
    store
        .import_competition(
            season,
            &new_competition(slug),
            &Competition::default(),
            &arbiter(),
        )
        .await
}
