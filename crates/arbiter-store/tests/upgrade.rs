//! Upgrades (issue 16): for every earlier schema version k in the repository's history, a
//! database made as that build made it (migrations 1..k, each followed by rows of what it added:
//! `tests/data/upgrade/NNNN.sql`, or `NNNN.sqlite.sql` / `NNNN.postgres.sql` where the two
//! differ) is migrated to the latest; every row of every table is kept, each column as it was
//! (but for what a migration documents it rewrites: 0007's spelling of a bye's kind), and the
//! store reads the whole competition and writes again. On SQLite, and on PostgreSQL when
//! `ARBITER_TEST_POSTGRES_URL` is set (CI sets it).
#![allow(clippy::unwrap_used, clippy::expect_used)] // a test: a failure is a panic

#[macro_use]
mod support;

use std::path::{Path, PathBuf};

use arbiter_store::migrations::{self, EmbeddedMigration};
use arbiter_store::{HistoryFilter, Store};
use support::tables::tables;
use support::*;

fn seeds_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/upgrade")
}

/// The rows that follow migration `version` on `backend` (`sqlite` or `postgres`).
fn seed(version: i64, backend: &str) -> Option<String> {
    let dir = seeds_dir();
    [
        dir.join(format!("{version:04}.{backend}.sql")),
        dir.join(format!("{version:04}.sql")),
    ]
    .into_iter()
    .find(|p| p.is_file())
    .map(|p| std::fs::read_to_string(p).unwrap())
}

/// Migrations 1..=k, each followed by its seed, as the builds of that time made the database.
async fn build_at(store: &Store, list: &'static [EmbeddedMigration], k: usize, backend: &str) {
    for j in 1..=k {
        let migrator = migrations::migrator(&list[..j]).await.unwrap();
        match store {
            Store::Sqlite(s) => migrator.run(s.pool()).await.unwrap(),
            Store::Postgres(p) => migrator.run(p.pool()).await.unwrap(),
        }
        let version = list[j - 1].0;
        if let Some(sql) = seed(version, backend) {
            let done = match store {
                Store::Sqlite(s) => sqlx::raw_sql(&sql).execute(s.pool()).await.map(|_| ()),
                Store::Postgres(p) => sqlx::raw_sql(&sql).execute(p.pool()).await.map(|_| ()),
            };
            done.unwrap_or_else(|e| panic!("the seed of schema {version} on {backend}: {e}"));
        }
    }
}

/// What a migration after `k` rewrites in a row it keeps: 0007 spells a bye's kind as
/// `ByeKind::code` does.
fn as_migrated(k: usize, table: &str, column: &str, value: Option<String>) -> Option<String> {
    if k < 7 && table == "byes" && column == "kind" {
        return value.map(|v| {
            match v.as_str() {
                "PAB" => "pab",
                "FPB" => "full",
                "HPB" => "half",
                "ZPB" => "zero",
                other => panic!("a bye of kind {other}"),
            }
            .to_string()
        });
    }
    value
}

/// Builds the database at schema `k`, migrates it to the latest, and checks every row.
async fn upgrade_from(store: Store, list: &'static [EmbeddedMigration], k: usize, backend: &str) {
    build_at(&store, list, k, backend).await;
    let before = tables(&store).await;
    for (table, (_, rows)) in &before {
        assert!(
            !rows.is_empty(),
            "schema {k} on {backend}: the seeds leave `{table}` empty, so its upgrade proves nothing; add rows to tests/data/upgrade"
        );
    }

    store.migrate().await.unwrap_or_else(|e| {
        panic!("schema {k} on {backend} could not be migrated to the latest: {e}")
    });
    let after = tables(&store).await;

    for (table, (columns, rows)) in &before {
        let (now_columns, now_rows) = after
            .get(table)
            .unwrap_or_else(|| panic!("schema {k} on {backend}: the table `{table}` is gone"));
        let at: Vec<usize> = columns
            .iter()
            .map(|c| {
                now_columns.iter().position(|n| n == c).unwrap_or_else(|| {
                    panic!("schema {k} on {backend}: the column `{table}.{c}` is gone")
                })
            })
            .collect();
        let mut expected: Vec<Vec<Option<String>>> = rows
            .iter()
            .map(|row| {
                row.iter()
                    .zip(columns)
                    .map(|(v, c)| as_migrated(k, table, c, v.clone()))
                    .collect()
            })
            .collect();
        expected.sort();
        let mut kept: Vec<Vec<Option<String>>> = now_rows
            .iter()
            .map(|row| at.iter().map(|&i| row[i].clone()).collect())
            .collect();
        kept.sort();
        assert_eq!(
            kept, expected,
            "schema {k} on {backend}: the rows of `{table}` changed in the upgrade"
        );
    }

    // The store reads all of it with today's code, and writes again.
    let varsity = store
        .load_competition("gthscl", "varsity")
        .await
        .unwrap_or_else(|e| panic!("schema {k} on {backend}: the competition does not load: {e}"))
        .expect("the seeded competition");
    assert_eq!(varsity.competition.teams.len(), 3);
    assert!(varsity.competition.rounds.len() >= 2);
    store
        .load_competition("astc", "open")
        .await
        .unwrap()
        .expect("the competition with its rules as TOML");
    assert!(
        !store
            .history(&HistoryFilter::default())
            .await
            .unwrap()
            .is_empty()
    );
    for m in &varsity.match_ids {
        store.result_versions(m.2).await.unwrap();
        store.result_reviews(m.2).await.unwrap();
    }
    let league = store.league("gthscl").await.unwrap().unwrap();
    for season in store.seasons(league.id).await.unwrap() {
        store.ledger(league.id, season.id).await.unwrap();
        store.closures(season.id).await.unwrap();
    }
    store.league_members(league.id).await.unwrap();
    store.invites(league.id).await.unwrap();
    store
        .create_season(league.id, &new_season("2026-27"), &arbiter())
        .await
        .unwrap_or_else(|e| panic!("schema {k} on {backend}: no write after the upgrade: {e}"));
}

/// Every schema version has its seed: a migration added without one fails here.
#[test]
fn every_migration_has_rows_to_upgrade() {
    for (version, description, _) in migrations::SQLITE {
        let has = seed(*version, "sqlite").is_some() || seed(*version, "postgres").is_some();
        // 0003's sessions are seeded on SQLite only (PostgreSQL's live in a shared schema).
        assert!(
            has,
            "migration {version:04} ({description}) has no rows in tests/data/upgrade; add NNNN.sql with rows of what it adds"
        );
    }
    assert_eq!(migrations::SQLITE.len(), migrations::POSTGRES.len());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_databases_of_every_earlier_schema_upgrade_keeping_every_row() {
    let list = migrations::SQLITE;
    for k in 1..=list.len() {
        let dir = temp_dir();
        let store = Store::open(dir.join("arbiter.db").to_str().unwrap())
            .await
            .unwrap();
        upgrade_from(store.clone(), list, k, "sqlite").await;
        if let Store::Sqlite(s) = &store {
            s.close().await;
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_databases_of_every_earlier_schema_upgrade_keeping_every_row() {
    let Some(url) = postgres_url() else { return };
    let list = migrations::POSTGRES;
    let admin = sqlx::PgPool::connect(&url).await.unwrap();
    for k in 1..=list.len() {
        let schema = unique_name("arbiter_upgrade");
        sqlx::query(&format!("CREATE SCHEMA {schema}"))
            .execute(&admin)
            .await
            .unwrap();
        let store = Store::open(&with_search_path(&url, &schema)).await.unwrap();
        let body = tokio::spawn(upgrade_from(store.clone(), list, k, "postgres")).await;
        if let Store::Postgres(p) = &store {
            p.close().await;
        }
        sqlx::query(&format!("DROP SCHEMA {schema} CASCADE"))
            .execute(&admin)
            .await
            .unwrap();
        if let Err(e) = body {
            std::panic::resume_unwind(e.into_panic());
        }
    }
    admin.close().await;
}
