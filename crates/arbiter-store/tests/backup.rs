//! Backups and restores of a SQLite database (issue 16): a backup taken while writes go on is
//! the database as it stood at one moment; a restore gives back every row of every table; a
//! restore refuses a database in use, an existing one without `force`, a damaged backup and
//! one newer than this build, and brings an older one forward.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a test: a failure is a panic

#[macro_use]
mod support;

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use arbiter_store::backup::{self, latest_sqlite_version};
use arbiter_store::{SqliteStore, Store, StoreError};
use sqlx::Row;
use support::tables::{postgres_tables, sqlite_tables};
use support::*;

async fn open_file(path: &Path) -> SqliteStore {
    let Store::Sqlite(s) = Store::open(path.to_str().unwrap()).await.unwrap() else {
        panic!("a path opens SQLite")
    };
    s
}

/// A league with the fixture's competition, a corrected result, an account and a closure.
async fn seeded(path: &Path) -> SqliteStore {
    let s = open_file(path).await;
    let store = Store::Sqlite(s.clone());
    store.migrate().await.unwrap();
    let season = league_and_season(&store, "gthscl").await;
    import_fixture(&store, season.id, "varsity").await;
    let loaded = loaded(&store, "gthscl", "varsity").await;
    let m = loaded.match_ids[0].2;
    let seen = store.report_seen(m).await.unwrap();
    store
        .record_result(
            m,
            seen,
            &corrected_round_one(),
            &arbiter(),
            Some("board 2 misread"),
        )
        .await
        .unwrap();
    store
        .create_user("advisor@vic.example", "Vic Advisor", None, &arbiter())
        .await
        .unwrap();
    s
}

async fn count(pool: &sqlx::SqlitePool, sql: &str) -> i64 {
    sqlx::query(sql).fetch_one(pool).await.unwrap().get(0)
}

/// Each season and its history row are written in one transaction; a copy that is one moment of
/// the database has as many of one as of the other, and the data version counts every write.
async fn assert_consistent(copy: &Path) -> i64 {
    let s = open_file(copy).await;
    let seasons = count(s.pool(), "SELECT COUNT(*) FROM seasons").await;
    let history = count(
        s.pool(),
        "SELECT COUNT(*) FROM history WHERE entity = 'season'",
    )
    .await;
    assert_eq!(
        seasons,
        history,
        "{}: a season without its history row, or the reverse",
        copy.display()
    );
    s.close().await;
    seasons
}

#[tokio::test]
async fn a_backup_taken_while_writes_go_on_is_one_moment_of_the_database() {
    let dir = temp_dir();
    let source = seeded(&dir.join("arbiter.db")).await;
    let store = Store::Sqlite(source.clone());
    let league = store.league("gthscl").await.unwrap().unwrap();

    // A writer that goes on until the backups are done: every backup is taken during writes.
    let done = Arc::new(AtomicBool::new(false));
    let writer = {
        let store = store.clone();
        let done = done.clone();
        tokio::spawn(async move {
            let mut n = 0u32;
            while !done.load(Ordering::Relaxed) || n < 20 {
                store
                    .create_season(league.id, &new_season(&format!("s-{n}")), &arbiter())
                    .await
                    .unwrap();
                n += 1;
                tokio::task::yield_now().await;
            }
            n
        })
    };
    let mut seen = Vec::new();
    for i in 0..8 {
        let copy = dir.join(format!("backup-{i}.db"));
        let info = source.backup_into(&copy).await.unwrap();
        assert_eq!(info.schema_version, latest_sqlite_version());
        assert!(info.bytes > 0);
        seen.push(assert_consistent(&copy).await);
    }
    done.store(true, Ordering::Relaxed);
    let written = writer.await.unwrap();
    // Copies never go back in time, and none holds more than was written.
    assert!(seen.windows(2).all(|w| w[0] <= w[1]), "{seen:?}");
    assert!(
        *seen.last().unwrap() <= i64::from(written) + 1,
        "{seen:?} of {written}"
    );

    // Once the writes stop, a backup restored holds every row of every table.
    let last = dir.join("backup-last.db");
    source.backup_into(&last).await.unwrap();
    let restored = dir.join("restored.db");
    let r = backup::restore(&last, &restored, false).await.unwrap();
    assert_eq!(
        (r.from_version, r.to_version, r.replaced),
        (latest_sqlite_version(), latest_sqlite_version(), false)
    );
    let before = sqlite_tables(source.pool()).await;
    let after_store = open_file(&restored).await;
    let after = sqlite_tables(after_store.pool()).await;
    assert!(before["seasons"].1.len() > 20 && !before["result_boards"].1.is_empty());
    assert_eq!(
        before.keys().collect::<Vec<_>>(),
        after.keys().collect::<Vec<_>>()
    );
    for (table, rows) in &before {
        assert_eq!(
            rows, &after[table],
            "table {table} differs after the restore"
        );
    }
    after_store.close().await;
    source.close().await;
    let _ = std::fs::remove_dir_all(&dir);
}

/// A write transaction open on another connection does not stop a backup, and the backup holds
/// none of it until it commits.
#[tokio::test]
async fn a_backup_does_not_wait_for_an_open_write_and_holds_only_what_was_committed() {
    let dir = temp_dir();
    let source = seeded(&dir.join("arbiter.db")).await;
    let before = count(source.pool(), "SELECT COUNT(*) FROM users").await;

    let mut tx = source.pool().begin_with("BEGIN IMMEDIATE").await.unwrap();
    sqlx::query(
        "INSERT INTO users (email, name, created_at) VALUES ('late@x.example', 'Late', '2026-01-01T00:00:00Z')",
    )
    .execute(&mut *tx)
    .await
    .unwrap();
    let during = dir.join("during.db");
    source.backup_into(&during).await.unwrap();
    tx.commit().await.unwrap();
    let after = dir.join("after.db");
    source.backup_into(&after).await.unwrap();

    for (copy, users) in [(&during, before), (&after, before + 1)] {
        let s = open_file(copy).await;
        assert_eq!(
            count(s.pool(), "SELECT COUNT(*) FROM users").await,
            users,
            "{}",
            copy.display()
        );
        s.close().await;
    }
    source.close().await;
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn a_backup_never_overwrites_a_file() {
    let dir = temp_dir();
    let source = seeded(&dir.join("arbiter.db")).await;
    let there = dir.join("there.db");
    std::fs::write(&there, b"keep me").unwrap();
    let err = source.backup_into(&there).await.unwrap_err();
    assert!(
        matches!(&err, StoreError::Conflict(m) if m.contains("exists already")),
        "{err}"
    );
    assert_eq!(std::fs::read(&there).unwrap(), b"keep me");
    source.close().await;
    let _ = std::fs::remove_dir_all(&dir);
}

/// No backup's or restore's working copy (a dot file) is left in `dir`.
fn assert_no_working_copies(dir: &Path) {
    let leftovers: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with('.'))
        .collect();
    assert!(
        leftovers.is_empty(),
        "working copies left behind: {leftovers:?}"
    );
}

/// A copy of `genuine` at `path`, changed by `sql` as someone with the file could.
async fn crafted(genuine: &Path, path: &Path, sql: &str) {
    std::fs::copy(genuine, path).unwrap();
    let s = open_file(path).await;
    sqlx::raw_sql(sql).execute(s.pool()).await.unwrap();
    s.close().await;
}

#[tokio::test]
async fn issue_30_a_restore_refuses_a_backup_whose_schema_is_not_the_one_its_version_builds() {
    let dir = temp_dir();
    let source = seeded(&dir.join("arbiter.db")).await;
    let genuine = dir.join("backup.db");
    source.backup_into(&genuine).await.unwrap();
    source.close().await;
    let version = latest_sqlite_version();

    let cases = [
        // The history's append-only trigger dropped, and a trigger that makes the next account
        // the league's President.
        (
            "DROP TRIGGER history_no_delete;
             CREATE TRIGGER make_president AFTER INSERT ON users BEGIN
                 INSERT INTO memberships (user_id, league_id, role, granted_at)
                 VALUES (NEW.id, 1, 'president', '2026-01-01T00:00:00Z');
             END;",
            vec![
                format!(
                    "the backup's trigger `make_president` is not one that schema version {version} builds"
                ),
                format!(
                    "the trigger `history_no_delete` that schema version {version} builds is missing from the backup"
                ),
            ],
        ),
        // The history dropped (every page would answer 503).
        (
            "DROP TABLE history;",
            vec![format!(
                "the table `history` that schema version {version} builds is missing from the backup"
            )],
        ),
        // A changed definition.
        (
            "DROP INDEX memberships_user; CREATE INDEX memberships_user ON memberships (league_id);",
            vec![format!(
                "the backup's index `memberships_user` differs from the one schema version {version} builds"
            )],
        ),
    ];
    for (i, (change, sentences)) in cases.iter().enumerate() {
        let changed = dir.join(format!("crafted-{i}.db"));
        crafted(&genuine, &changed, change).await;
        let err = backup::restore(&changed, &dir.join("new.db"), false)
            .await
            .unwrap_err();
        let said = err.to_string();
        assert!(matches!(err, StoreError::Invalid(_)), "{said}");
        for sentence in sentences {
            assert!(said.contains(sentence), "{said}");
        }
        assert!(!dir.join("new.db").exists(), "nothing is restored");
    }

    // The genuine backup restores.
    let r = backup::restore(&genuine, &dir.join("new.db"), false)
        .await
        .unwrap();
    assert_eq!(r.from_version, version);
    let _ = std::fs::remove_dir_all(&dir);
}

#[cfg(unix)]
#[tokio::test]
async fn issue_30_a_backup_is_its_owners_alone_and_holds_no_sign_in_session_nor_site_secret() {
    use std::os::unix::fs::PermissionsExt;
    let dir = temp_dir();
    let source = seeded(&dir.join("arbiter.db")).await;
    let session = "a-live-session-id-0123456789";
    sqlx::query(
        "INSERT INTO tower_sessions (id, data, expiry_date) VALUES ($1, X'00', 4102444800)",
    )
    .bind(session)
    .execute(source.pool())
    .await
    .unwrap();
    let secret = source.site_secret("csrf").await.unwrap();
    let copy = dir.join("backup.db");
    source.backup_into(&copy).await.unwrap();

    let mode = std::fs::metadata(&copy).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600, "the backup's mode is {mode:o}");
    let bytes = std::fs::read(&copy).unwrap();
    for live in [session, secret.as_str()] {
        assert!(
            !bytes.windows(live.len()).any(|w| w == live.as_bytes()),
            "`{live}` is in the backup's bytes"
        );
    }
    let b = open_file(&copy).await;
    assert_eq!(
        count(b.pool(), "SELECT COUNT(*) FROM tower_sessions").await,
        0
    );
    assert_eq!(
        count(b.pool(), "SELECT COUNT(*) FROM site_secrets").await,
        0
    );
    assert!(
        count(b.pool(), "SELECT COUNT(*) FROM users").await > 0,
        "the league's data is there"
    );
    b.close().await;
    // The served database keeps them: its visitors stay signed in.
    assert_eq!(
        count(source.pool(), "SELECT COUNT(*) FROM tower_sessions").await,
        1
    );
    source.close().await;
    let _ = std::fs::remove_dir_all(&dir);
}

#[cfg(unix)]
#[tokio::test]
async fn issue_30_a_backup_is_never_written_through_a_symbolic_link() {
    let dir = temp_dir();
    let source = seeded(&dir.join("arbiter.db")).await;
    // A link to nowhere: writing would create its target.
    let dangling = dir.join("dangling.db");
    let elsewhere = dir.join("elsewhere.db");
    std::os::unix::fs::symlink(&elsewhere, &dangling).unwrap();
    // A link to a file.
    let kept = dir.join("kept.txt");
    std::fs::write(&kept, b"keep me").unwrap();
    let linked = dir.join("linked.db");
    std::os::unix::fs::symlink(&kept, &linked).unwrap();
    for link in [&dangling, &linked] {
        let err = source.backup_into(link).await.unwrap_err();
        assert!(
            matches!(&err, StoreError::Conflict(m) if m.contains("is a symbolic link")
                && m.contains("never written through a link")),
            "{err}"
        );
    }
    assert!(
        !elsewhere.exists(),
        "nothing was written where the link led"
    );
    assert_eq!(std::fs::read(&kept).unwrap(), b"keep me");
    source.close().await;
    assert_no_working_copies(&dir);
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn a_restore_refuses_a_database_a_server_has_open_and_an_existing_one_without_force() {
    let dir = temp_dir();
    let source = seeded(&dir.join("arbiter.db")).await;
    let copy = dir.join("backup.db");
    source.backup_into(&copy).await.unwrap();

    // The source is open (as `arbiter serve` has it): refused, even with force.
    assert!(backup::in_use(&dir.join("arbiter.db")).await.unwrap());
    for force in [false, true] {
        let err = backup::restore(&copy, &dir.join("arbiter.db"), force)
            .await
            .unwrap_err();
        assert!(
            matches!(&err, StoreError::Conflict(m) if m.contains("is open in another process")),
            "{err}"
        );
    }
    let rows = sqlite_tables(source.pool()).await;
    source.close().await;

    // Closed, it exists: refused without force, replaced with it.
    assert!(!backup::in_use(&dir.join("arbiter.db")).await.unwrap());
    let err = backup::restore(&copy, &dir.join("arbiter.db"), false)
        .await
        .unwrap_err();
    assert!(
        matches!(&err, StoreError::Conflict(m) if m.contains("exists") && m.contains("--force")),
        "{err}"
    );
    // Something written after the backup, which the restore takes back.
    let s = open_file(&dir.join("arbiter.db")).await;
    sqlx::query("INSERT INTO site_secrets (name, value) VALUES ('after', 'x')")
        .execute(s.pool())
        .await
        .unwrap();
    s.close().await;
    let r = backup::restore(&copy, &dir.join("arbiter.db"), true)
        .await
        .unwrap();
    assert!(r.replaced);
    let s = open_file(&dir.join("arbiter.db")).await;
    assert_eq!(sqlite_tables(s.pool()).await, rows);
    s.close().await;

    // A file that is no database is nobody's open database: --force replaces it.
    let text = dir.join("notes.db");
    std::fs::write(&text, "not a database, just notes\n".repeat(300)).unwrap();
    assert!(!backup::in_use(&text).await.unwrap());
    let err = backup::restore(&copy, &text, false).await.unwrap_err();
    assert!(
        matches!(&err, StoreError::Conflict(m) if m.contains("--force")),
        "{err}"
    );
    backup::restore(&copy, &text, true).await.unwrap();
    let s = open_file(&text).await;
    assert_eq!(sqlite_tables(s.pool()).await, rows);
    s.close().await;
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn a_restore_refuses_a_damaged_backup_and_a_file_that_is_no_database() {
    let dir = temp_dir();
    let source = seeded(&dir.join("arbiter.db")).await;
    let copy = dir.join("backup.db");
    source.backup_into(&copy).await.unwrap();
    source.close().await;

    // Every page after the first overwritten with a pattern: the schema reads, the pages fail.
    let mut bytes = std::fs::read(&copy).unwrap();
    let page = 4096;
    assert!(bytes.len() > 4 * page, "the fixture spans pages");
    for b in &mut bytes[2 * page..3 * page] {
        *b = 0x5a;
    }
    let damaged = dir.join("damaged.db");
    std::fs::write(&damaged, &bytes).unwrap();
    let err = backup::restore(&damaged, &dir.join("new.db"), false)
        .await
        .unwrap_err();
    assert!(
        err.to_string().contains("damaged.db") || err.to_string().contains("integrity"),
        "{err}"
    );
    assert!(
        !dir.join("new.db").exists(),
        "nothing is restored from a damaged backup"
    );

    let text = dir.join("notes.db");
    std::fs::write(
        &text,
        "these are not the results you are looking for\n".repeat(200),
    )
    .unwrap();
    let err = backup::restore(&text, &dir.join("new.db"), false)
        .await
        .unwrap_err();
    assert!(err.to_string().contains("notes.db"), "{err}");
    assert!(!dir.join("new.db").exists());

    // A SQLite file that Arbiter never migrated.
    let other = dir.join("other.db");
    {
        let s = open_file(&other).await;
        sqlx::query("CREATE TABLE t (x)")
            .execute(s.pool())
            .await
            .unwrap();
        s.close().await;
    }
    let err = backup::restore(&other, &dir.join("new.db"), false)
        .await
        .unwrap_err();
    assert!(
        err.to_string().contains("is not an Arbiter database"),
        "{err}"
    );
    assert!(!dir.join("new.db").exists());
    assert_no_working_copies(&dir);
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn a_restore_refuses_a_backup_newer_than_this_build_and_migrates_an_older_one() {
    let dir = temp_dir();
    let newer = dir.join("newer.db");
    {
        let s = seeded(&newer).await;
        sqlx::query(
            "INSERT INTO _sqlx_migrations (version, description, success, checksum, execution_time) \
             VALUES (999, 'from the future', TRUE, X'00', 0)",
        )
        .execute(s.pool())
        .await
        .unwrap();
        s.close().await;
    }
    let err = backup::restore(&newer, &dir.join("new.db"), false)
        .await
        .unwrap_err();
    let said = err.to_string();
    assert!(
        said.contains("schema version 999")
            && said.contains(&format!(
                "newer than this Arbiter's {}",
                latest_sqlite_version()
            )),
        "{said}"
    );
    assert!(!dir.join("new.db").exists());

    // A database of schema version 8 (before lineups): restored at the latest, its rows kept.
    let older = dir.join("older.db");
    {
        let s = open_file(&older).await;
        migrate_to(s.pool(), 8).await;
        sqlx::query(
            "INSERT INTO leagues (slug, name, kind, description, created_at) \
             VALUES ('gthscl', 'GTHSCL', 'league', '', '2025-08-01T00:00:00Z')",
        )
        .execute(s.pool())
        .await
        .unwrap();
        s.close().await;
    }
    let r = backup::restore(&older, &dir.join("new.db"), false)
        .await
        .unwrap();
    assert_eq!((r.from_version, r.to_version), (8, latest_sqlite_version()));
    let store = Store::open(dir.join("new.db").to_str().unwrap())
        .await
        .unwrap();
    assert_eq!(store.leagues().await.unwrap().len(), 1);
    assert_eq!(
        fetch_i64(&store, "SELECT MAX(version) FROM _sqlx_migrations").await,
        latest_sqlite_version()
    );
    // The backup itself is left at version 8.
    let s = open_file(&older).await;
    assert_eq!(
        count(s.pool(), "SELECT MAX(version) FROM _sqlx_migrations").await,
        8
    );
    s.close().await;
    let _ = std::fs::remove_dir_all(&dir);
}

/// Applies the first `k` SQLite migrations, as a database made by that build has them.
async fn migrate_to(pool: &sqlx::SqlitePool, k: usize) {
    arbiter_store::migrations::migrator(&arbiter_store::migrations::SQLITE[..k])
        .await
        .unwrap()
        .run(pool)
        .await
        .unwrap();
}

#[test]
fn pg_dump_advice_names_the_commands_without_the_password() {
    let said = backup::pg_dump_advice(
        "postgres://arbiter:pa55word@db.example:5433/league",
        Path::new("league.dump"),
    );
    assert!(
        said.contains(
            "umask 077; pg_dump --format=custom --exclude-table-data=tower_sessions.session \
             --exclude-table-data='*.site_secrets' --file=league.dump 'postgres://arbiter@db.example:5433/league'"
        ),
        "{said}"
    );
    assert!(
        said.contains("pg_restore --clean --if-exists --no-owner"),
        "{said}"
    );
    assert!(!said.contains("pa55word"), "{said}");
}

/// pg_dump, as `arbiter backup` and docs/deploy.md give it, run while another connection
/// writes: the dump is one moment of the database, and pg_restore gives back every row.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pg_dump_during_writes_restores_every_row_on_postgres() {
    let Some(url) = postgres_url() else { return };
    let Some(bin) = pg_bin() else {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "pg_dump is not installed (postgresql-client); CI needs it"
        );
        eprintln!("skipped: pg_dump is not installed");
        return;
    };
    let admin = sqlx::PgPool::connect(&url).await.unwrap();
    let schema = unique_name("arbiter_dump");
    let kept = format!("{schema}_source");
    sqlx::query(&format!("CREATE SCHEMA {schema}"))
        .execute(&admin)
        .await
        .unwrap();
    let dir = temp_dir();
    let result = tokio::spawn({
        let (url, schema, kept, dir, bin) = (
            url.clone(),
            schema.clone(),
            kept.clone(),
            dir.clone(),
            bin.clone(),
        );
        async move {
            let store = Store::open(&with_search_path(&url, &schema)).await.unwrap();
            store.migrate().await.unwrap();
            let season = league_and_season(&store, "gthscl").await;
            import_fixture(&store, season.id, "varsity").await;
            let league = store.league("gthscl").await.unwrap().unwrap();
            let dump = |file: std::path::PathBuf| {
                let (bin, url, schema) = (bin.clone(), url.clone(), schema.clone());
                tokio::task::spawn_blocking(move || {
                    let out = std::process::Command::new(bin.join("pg_dump"))
                        .args(["--format=custom", &format!("--schema={schema}")])
                        .arg(format!("--file={}", file.display()))
                        .arg(&url)
                        .output()
                        .unwrap();
                    assert!(
                        out.status.success(),
                        "pg_dump: {}",
                        String::from_utf8_lossy(&out.stderr)
                    );
                })
            };
            // A writer that goes on until the dump during writes is done.
            let done = Arc::new(AtomicBool::new(false));
            let writer = tokio::spawn({
                let (store, done) = (store.clone(), done.clone());
                async move {
                    let mut n = 0;
                    while !done.load(Ordering::Relaxed) || n < 10 {
                        store
                            .create_season(league.id, &new_season(&format!("s-{n}")), &arbiter())
                            .await
                            .unwrap();
                        n += 1;
                    }
                }
            });
            dump(dir.join("during.dump")).await.unwrap();
            done.store(true, Ordering::Relaxed);
            writer.await.unwrap();
            dump(dir.join("after.dump")).await.unwrap();
            let Store::Postgres(p) = &store else {
                unreachable!()
            };
            let source = postgres_tables(p.pool()).await;
            p.close().await;

            let admin = sqlx::PgPool::connect(&url).await.unwrap();
            sqlx::query(&format!("ALTER SCHEMA {schema} RENAME TO {kept}"))
                .execute(&admin)
                .await
                .unwrap();
            let restore = |file: std::path::PathBuf| {
                let out = std::process::Command::new(bin.join("pg_restore"))
                    .args(["--clean", "--if-exists", "--no-owner"])
                    .arg(format!("--dbname={url}"))
                    .arg(&file)
                    .output()
                    .unwrap();
                assert!(
                    out.status.success(),
                    "pg_restore: {}",
                    String::from_utf8_lossy(&out.stderr)
                );
            };
            restore(dir.join("after.dump"));
            let restored = sqlx::PgPool::connect(&with_search_path(&url, &schema))
                .await
                .unwrap();
            let back = postgres_tables(&restored).await;
            restored.close().await;
            assert!(source["seasons"].1.len() > 10 && !source["result_boards"].1.is_empty());
            assert_eq!(source, back, "pg_restore gave back other rows");

            sqlx::query(&format!("DROP SCHEMA {schema} CASCADE"))
                .execute(&admin)
                .await
                .unwrap();
            restore(dir.join("during.dump"));
            let during = sqlx::PgPool::connect(&with_search_path(&url, &schema))
                .await
                .unwrap();
            let seasons: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM seasons")
                .fetch_one(&during)
                .await
                .unwrap();
            let history: i64 =
                sqlx::query_scalar("SELECT COUNT(*) FROM history WHERE entity = 'season'")
                    .fetch_one(&during)
                    .await
                    .unwrap();
            assert_eq!(
                seasons, history,
                "a season without its history row, or the reverse"
            );
            during.close().await;
            admin.close().await;
        }
    })
    .await;
    for s in [&schema, &kept] {
        sqlx::query(&format!("DROP SCHEMA IF EXISTS {s} CASCADE"))
            .execute(&admin)
            .await
            .unwrap();
    }
    admin.close().await;
    let _ = std::fs::remove_dir_all(&dir);
    if let Err(e) = result {
        std::panic::resume_unwind(e.into_panic());
    }
}

/// The folder of PostgreSQL's client programs: on the PATH, or Debian's newest.
fn pg_bin() -> Option<std::path::PathBuf> {
    let on_path = std::env::var_os("PATH")
        .and_then(|p| std::env::split_paths(&p).find(|d| d.join("pg_dump").is_file()));
    on_path.or_else(|| {
        let mut found: Vec<_> = std::fs::read_dir("/usr/lib/postgresql")
            .ok()?
            .filter_map(|e| e.ok().map(|e| e.path().join("bin")))
            .filter(|d| d.join("pg_dump").is_file())
            .collect();
        found.sort();
        found.pop()
    })
}
