//! Backups and restores of a SQLite database (issue 16). A backup is `VACUUM INTO`: one read
//! transaction, so the copy is the database as it stood at one moment while writers go on (WAL
//! lets them). A restore checks the backup (SQLite's integrity check, the schema version it
//! holds against this build's migrations), brings an older one forward, and only then takes the
//! place of the database, which no server may have open. PostgreSQL's backups are `pg_dump`'s.

use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use sqlx::Row;
use sqlx::sqlite::{SqliteConnectOptions, SqlitePoolOptions};

use crate::error::StoreError;
use crate::migrations::SQLITE;
use crate::sqlite::SqliteStore;

/// The schema version this build's migrations bring a SQLite database to.
pub fn latest_sqlite_version() -> i64 {
    SQLITE.last().map_or(0, |m| m.0)
}

/// What a backup (or any Arbiter SQLite file) holds, as read without changing it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BackupInfo {
    /// The last migration applied to it.
    pub schema_version: i64,
    /// Its size on disk, in bytes.
    pub bytes: u64,
}

/// What a restore did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Restored {
    /// The schema version the backup held.
    pub from_version: i64,
    /// The schema version the restored database has (this build's).
    pub to_version: i64,
    /// A database was there and has been replaced (`--force`).
    pub replaced: bool,
}

impl SqliteStore {
    /// Writes a consistent copy of the database to `to`, a file that must not exist yet, while
    /// other connections and processes go on reading and writing; then checks the copy.
    pub async fn backup_into(&self, to: &Path) -> Result<BackupInfo, StoreError> {
        if to.exists() {
            return Err(StoreError::Conflict(format!(
                "the backup file `{}` exists already; give a new file name (a backup never overwrites a file)",
                to.display()
            )));
        }
        let target = to.to_str().ok_or_else(|| {
            StoreError::Invalid(format!(
                "the backup file name `{}` is not valid UTF-8; give a plainer name",
                to.display()
            ))
        })?;
        schema_version(self.pool(), "the database").await?;
        sqlx::query("VACUUM INTO $1")
            .bind(target)
            .execute(self.pool())
            .await
            .map_err(|e| {
                StoreError::Database(format!(
                    "the backup to `{}` failed: {e}; check that its folder exists, can be written and has room",
                    to.display()
                ))
            })?;
        inspect(to).await
    }
}

/// Opens `path` (an existing file, never created) with a pool of one connection that does not
/// wait for locks.
async fn open_existing(path: &Path, what: &str) -> Result<sqlx::SqlitePool, StoreError> {
    let options = SqliteConnectOptions::new()
        .filename(path)
        .create_if_missing(false)
        .foreign_keys(true)
        .busy_timeout(Duration::ZERO);
    SqlitePoolOptions::new()
        .max_connections(1)
        .connect_with(options)
        .await
        .map_err(|e| {
            StoreError::Database(format!(
                "cannot open {what} `{}` as a SQLite database ({e})",
                path.display()
            ))
        })
}

/// SQLite's own check of every page, index and constraint: `ok`, or what it found.
async fn integrity(pool: &sqlx::SqlitePool, what: &str) -> Result<(), StoreError> {
    let rows = sqlx::query("PRAGMA integrity_check")
        .fetch_all(pool)
        .await
        .map_err(|e| {
            StoreError::Database(format!(
                "{what} is not a SQLite database SQLite can read ({e}); it may be damaged or not a database at all"
            ))
        })?;
    let found: Vec<String> = rows
        .iter()
        .filter_map(|r| r.try_get::<String, _>(0).ok())
        .collect();
    if found == ["ok"] {
        return Ok(());
    }
    Err(StoreError::Database(format!(
        "{what} fails SQLite's integrity check: {}; use another backup",
        found.join("; ")
    )))
}

/// The last migration applied, or the sentence saying the file is no Arbiter database.
async fn schema_version(pool: &sqlx::SqlitePool, what: &str) -> Result<i64, StoreError> {
    let has_table: Option<String> = sqlx::query_scalar(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name = '_sqlx_migrations'",
    )
    .fetch_optional(pool)
    .await
    .map_err(|e| {
        StoreError::Database(format!(
            "{what} is not a SQLite database SQLite can read ({e})"
        ))
    })?;
    if has_table.is_none() {
        return Err(StoreError::Invalid(format!(
            "{what} is not an Arbiter database: it has no record of Arbiter's migrations"
        )));
    }
    let version: Option<i64> =
        sqlx::query_scalar("SELECT MAX(version) FROM _sqlx_migrations WHERE success")
            .fetch_one(pool)
            .await
            .map_err(|e| {
                StoreError::Database(format!("{what}'s migrations could not be read ({e})"))
            })?;
    version.ok_or_else(|| {
        StoreError::Invalid(format!(
            "{what} is not an Arbiter database: no migration of Arbiter's was ever applied to it"
        ))
    })
}

/// Reads a backup's schema version and checks its integrity, changing nothing: the file is
/// copied first, so that even SQLite's own bookkeeping leaves the backup as it was.
pub async fn inspect(backup: &Path) -> Result<BackupInfo, StoreError> {
    let copy = Scratch::new(&std::env::temp_dir().join("arbiter-backup"), "inspect")?;
    copy.fill_from(backup)?;
    let pool = open_existing(copy.path(), "the backup").await?;
    let what = format!("the backup `{}`", backup.display());
    let checked = async {
        integrity(&pool, &what).await?;
        schema_version(&pool, &what).await
    }
    .await;
    pool.close().await;
    let schema_version = checked?;
    let bytes = std::fs::metadata(backup).map(|m| m.len()).unwrap_or(0);
    Ok(BackupInfo {
        schema_version,
        bytes,
    })
}

/// Whether a process (an `arbiter serve`) has the SQLite database at `path` open. SQLite lets
/// a connection leave WAL mode only when it is the database's one connection, so the attempt
/// answers the question; the file is left in WAL mode either way.
pub async fn in_use(path: &Path) -> Result<bool, StoreError> {
    // A process that has just closed the database may still be letting go of it (a pool's
    // last connection closing): only a database busy for a second together is in use.
    for _ in 0..10 {
        if !in_use_now(path).await? {
            return Ok(false);
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    Ok(true)
}

async fn in_use_now(path: &Path) -> Result<bool, StoreError> {
    let pool = open_existing(path, "the database").await?;
    let mode: Result<String, _> = sqlx::query_scalar("PRAGMA journal_mode = DELETE")
        .fetch_one(&pool)
        .await;
    let busy = match mode {
        Ok(m) => !m.eq_ignore_ascii_case("delete"),
        Err(e) if sqlite_code(&e) == Some(5) || sqlite_code(&e) == Some(6) => true,
        // SQLITE_NOTADB: no SQLite database, so none a server could have open.
        Err(e) if sqlite_code(&e) == Some(26) => false,
        Err(e) => {
            pool.close().await;
            return Err(StoreError::Database(format!(
                "cannot tell whether a server has `{}` open ({e})",
                path.display()
            )));
        }
    };
    if !busy {
        // Back to what Arbiter runs in; nobody else has it open.
        let _ = sqlx::query("PRAGMA journal_mode = WAL")
            .execute(&pool)
            .await;
    }
    pool.close().await;
    Ok(busy)
}

/// SQLite's primary result code of an error (its extended codes folded in): 5 SQLITE_BUSY,
/// 6 SQLITE_LOCKED, 26 SQLITE_NOTADB.
fn sqlite_code(e: &sqlx::Error) -> Option<i64> {
    e.as_database_error()
        .and_then(|d| d.code())
        .and_then(|c| c.parse::<i64>().ok())
        .map(|c| c & 0xff)
}

/// Restores `backup` as the database `to`: refused while a server has `to` open, and when `to`
/// exists unless `force`; refused when the backup fails its integrity check or holds a schema
/// newer than this build's; an older one is migrated forward. The backup itself is not changed,
/// and `to` is replaced only once the restored copy is whole (a rename in its folder).
pub async fn restore(backup: &Path, to: &Path, force: bool) -> Result<Restored, StoreError> {
    if !backup.is_file() {
        return Err(StoreError::NotFound(format!(
            "the backup `{}` does not exist or is not a file",
            backup.display()
        )));
    }
    let replaced = to.exists();
    if replaced {
        if in_use(to).await? {
            return Err(StoreError::Conflict(format!(
                "`{}` is open in another process (a running `arbiter serve`?); stop it, then restore",
                to.display()
            )));
        }
        if !force {
            return Err(StoreError::Conflict(format!(
                "`{}` exists; restoring would replace everything in it. Back it up first (`arbiter backup --db {} -o FILE`), then add --force",
                to.display(),
                to.display()
            )));
        }
    }
    let latest = latest_sqlite_version();
    let what = format!("the backup `{}`", backup.display());
    let work = Scratch::new(to, "restoring")?;
    work.fill_from(backup)?;
    let from_version = {
        let pool = open_existing(work.path(), "the backup's copy").await?;
        let checked = async {
            integrity(&pool, &what).await?;
            schema_version(&pool, &what).await
        }
        .await;
        pool.close().await;
        checked?
    };
    if from_version > latest {
        return Err(StoreError::Invalid(format!(
            "{what} holds schema version {from_version}, newer than this Arbiter's {latest}; restore it with the version of Arbiter that made it, or a newer one"
        )));
    }
    {
        let store = SqliteStore::open_path(work.path()).await?;
        let migrated = store.migrate().await;
        let checked = match migrated {
            Ok(()) => integrity(store.pool(), "the restored database").await,
            Err(e) => Err(e),
        };
        // Everything into the main file, so the rename carries the whole database.
        let _ = sqlx::query("PRAGMA wal_checkpoint(TRUNCATE)")
            .execute(store.pool())
            .await;
        store.close().await;
        checked?;
    }
    // Checked again at the last moment: a server may have started while the copy was made.
    if replaced && in_use(to).await? {
        return Err(StoreError::Conflict(format!(
            "`{}` was opened by another process (an `arbiter serve`?) during the restore; stop it, then restore again",
            to.display()
        )));
    }
    // The old database's journal files belong to it, not to the restored one.
    for suffix in ["-wal", "-shm"] {
        let side = with_suffix(to, suffix);
        if side.exists() {
            std::fs::remove_file(&side).map_err(|e| {
                StoreError::Database(format!("cannot remove `{}` ({e})", side.display()))
            })?;
        }
    }
    work.persist_as(to)?;
    Ok(Restored {
        from_version,
        to_version: latest,
        replaced,
    })
}

fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut s = path.as_os_str().to_owned();
    s.push(suffix);
    PathBuf::from(s)
}

/// A working copy beside `near` (same folder, so a rename moves it into place), removed with
/// its journal files unless persisted.
struct Scratch {
    path: PathBuf,
    keep: bool,
}

impl Scratch {
    fn new(near: &Path, purpose: &str) -> Result<Scratch, StoreError> {
        let name = near
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "arbiter.db".into());
        let folder = near.parent().filter(|p| !p.as_os_str().is_empty());
        // The process and a count: two restores or checks at once never share a copy.
        static COUNT: AtomicU64 = AtomicU64::new(0);
        let n = COUNT.fetch_add(1, Ordering::Relaxed);
        let file = format!(".{name}.{purpose}-{}-{n}", std::process::id());
        let path = folder.map_or_else(|| PathBuf::from(&file), |f| f.join(&file));
        let scratch = Scratch { path, keep: false };
        scratch.clean();
        Ok(scratch)
    }

    fn path(&self) -> &Path {
        &self.path
    }

    /// Copies the database file, and its write-ahead log when one lies beside it: a database
    /// copied while stopped may keep its last writes there.
    fn fill_from(&self, from: &Path) -> Result<(), StoreError> {
        let copy = |from: &Path, to: &Path| {
            std::fs::copy(from, to).map(|_| ()).map_err(|e| {
                StoreError::Database(format!(
                    "cannot copy `{}` to `{}` ({e}); check that the folder can be written and has room",
                    from.display(),
                    to.display()
                ))
            })
        };
        copy(from, &self.path)?;
        let wal = with_suffix(from, "-wal");
        if wal.is_file() {
            copy(&wal, &with_suffix(&self.path, "-wal"))?;
        }
        Ok(())
    }

    fn persist_as(mut self, to: &Path) -> Result<(), StoreError> {
        std::fs::rename(&self.path, to).map_err(|e| {
            StoreError::Database(format!(
                "cannot move the restored database into place at `{}` ({e})",
                to.display()
            ))
        })?;
        self.keep = true;
        Ok(())
    }

    fn clean(&self) {
        for suffix in ["", "-wal", "-shm", "-journal"] {
            let _ = std::fs::remove_file(with_suffix(&self.path, suffix));
        }
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if !self.keep {
            self.clean();
        } else {
            for suffix in ["-wal", "-shm", "-journal"] {
                let _ = std::fs::remove_file(with_suffix(&self.path, suffix));
            }
        }
    }
}

/// The `pg_dump` and `pg_restore` commands for a PostgreSQL address, the password left out
/// (give it in `PGPASSWORD` or `~/.pgpass`).
pub fn pg_dump_advice(url: &str, output: &Path) -> String {
    let shown = sqlx::postgres::PgConnectOptions::from_str(url)
        .map(|o| {
            format!(
                "postgres://{}@{}:{}/{}",
                o.get_username(),
                o.get_host(),
                o.get_port(),
                o.get_database().unwrap_or("")
            )
        })
        .unwrap_or_else(|_| "postgres://USER@HOST:PORT/DATABASE".into());
    format!(
        "`arbiter backup` copies a SQLite file; a PostgreSQL database is backed up by PostgreSQL's own pg_dump, which reads one consistent snapshot while the site goes on serving:\n\n    pg_dump --format=custom --file={out} '{shown}'\n\nand restored, with every server stopped, by\n\n    pg_restore --clean --if-exists --no-owner --dbname='{shown}' {out}\n\n(the password from PGPASSWORD or ~/.pgpass; docs/deploy.md, \"Backups\")",
        out = output.display()
    )
}
