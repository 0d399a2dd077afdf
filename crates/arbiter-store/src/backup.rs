//! Backups and restores of a SQLite database (issue 16). A backup is `VACUUM INTO`: one read
//! transaction, so the copy is the database as it stood at one moment while writers go on (WAL
//! lets them). It is written to a file only its owner may read (mode 0600), made new beside the
//! backup's name and linked there only if nothing is (never through a symbolic link), and holds
//! no live secret: the sign-in sessions and the site's secrets are removed from the copy, so a
//! stolen backup signs nobody in, and a restored site signs everyone in again (issue 30, item
//! 8). A restore checks the backup (SQLite's integrity check, the schema version it holds
//! against this build's migrations, and its schema against the one that version's migrations
//! build, so no trigger, table, index or view is missing, added or changed: issue 30, item 7),
//! brings an older one forward, and only then takes the place of the database, which no server
//! may have open. PostgreSQL's backups are `pg_dump`'s.

use std::collections::BTreeMap;
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
    /// Writes a consistent copy of the database to `to`, a file that must not exist yet (nor be a
    /// symbolic link), while other connections and processes go on reading and writing; then
    /// removes the live secrets from the copy and checks it. The file is its owner's alone.
    pub async fn backup_into(&self, to: &Path) -> Result<BackupInfo, StoreError> {
        refuse_existing(to)?;
        schema_version(self.pool(), "the database").await?;
        let work = Scratch::new(to, "backup")?;
        work.create_private()?;
        let target = work.path().to_str().ok_or_else(|| {
            StoreError::Invalid(format!(
                "the backup file name `{}` is not valid UTF-8; give a plainer name",
                to.display()
            ))
        })?;
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
        forget_secrets(work.path()).await?;
        let schema_version = {
            let pool = open_existing(work.path(), "the backup").await?;
            let checked = checked(&pool, &format!("the backup `{}`", to.display())).await;
            pool.close().await;
            checked?
        };
        work.link_as_new(to)?;
        let bytes = std::fs::metadata(to).map(|m| m.len()).unwrap_or(0);
        Ok(BackupInfo {
            schema_version,
            bytes,
        })
    }
}

/// Refuses a backup's name that is taken: by a file, a folder, or a symbolic link (one that
/// leads nowhere too, which writing would follow to create its target).
fn refuse_existing(to: &Path) -> Result<(), StoreError> {
    let Ok(there) = std::fs::symlink_metadata(to) else {
        return Ok(());
    };
    if there.file_type().is_symlink() {
        let target = std::fs::read_link(to)
            .map(|t| format!(" (to `{}`)", t.display()))
            .unwrap_or_default();
        return Err(StoreError::Conflict(format!(
            "the backup file `{}` is a symbolic link{target}; a backup is never written through a link, so give the path of a new file itself",
            to.display()
        )));
    }
    Err(StoreError::Conflict(format!(
        "the backup file `{}` exists already; give a new file name (a backup never overwrites a file)",
        to.display()
    )))
}

/// The tables whose rows are live secrets, emptied in every backup: the sign-in sessions (their
/// ids are the cookies), and the site's secrets (the key signing visitors' CSRF tokens), which
/// the first server to need one makes again. Every other secret is stored hashed.
const LIVE_SECRETS: [&str; 2] = ["tower_sessions", "site_secrets"];

/// Empties [`LIVE_SECRETS`] in the backup at `path`, overwriting what they held (SQLite's
/// secure delete, then a vacuum), and leaves it in rollback-journal mode: one file, whole.
async fn forget_secrets(path: &Path) -> Result<(), StoreError> {
    let pool = open_existing(path, "the backup").await?;
    let done = async {
        let mut conn = pool.acquire().await?;
        sqlx::query("PRAGMA journal_mode = DELETE")
            .execute(&mut *conn)
            .await?;
        sqlx::query("PRAGMA secure_delete = ON")
            .execute(&mut *conn)
            .await?;
        for table in LIVE_SECRETS {
            let exists: Option<String> = sqlx::query_scalar(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name = $1",
            )
            .bind(table)
            .fetch_optional(&mut *conn)
            .await?;
            if exists.is_some() {
                sqlx::query(&format!("DELETE FROM {table}"))
                    .execute(&mut *conn)
                    .await?;
            }
        }
        sqlx::query("VACUUM").execute(&mut *conn).await?;
        Ok::<(), sqlx::Error>(())
    }
    .await;
    pool.close().await;
    done.map_err(|e| {
        StoreError::Database(format!(
            "the sign-in sessions could not be removed from the backup `{}` ({e}); check that its folder has room",
            path.display()
        ))
    })
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

/// Every check a backup passes before it is trusted: SQLite's integrity check, an Arbiter
/// schema version, and, for a version this build knows, exactly the schema that version's
/// migrations build. Its schema version, or every difference as a sentence.
async fn checked(pool: &sqlx::SqlitePool, what: &str) -> Result<i64, StoreError> {
    integrity(pool, what).await?;
    let version = schema_version(pool, what).await?;
    if version <= latest_sqlite_version() {
        let differences = schema_differences(&schema(pool).await?, &built(version).await?, version);
        if !differences.is_empty() {
            return Err(StoreError::Invalid(format!(
                "{what} is not a database as Arbiter makes it: {}. It may have been changed by hand or by someone else; use another backup",
                differences.join("; ")
            )));
        }
    }
    Ok(version)
}

/// A database's schema: each table, index, trigger and view by kind and name, with its SQL,
/// its whitespace folded. Left out: SQLite's own tables (`sqlite_sequence`, the statistics)
/// and the indexes it makes for a table's constraints, which follow from the table's SQL.
type Schema = BTreeMap<(String, String), String>;

async fn schema(pool: &sqlx::SqlitePool) -> Result<Schema, StoreError> {
    let rows = sqlx::query(
        "SELECT type, name, sql FROM sqlite_master \
         WHERE NOT (type = 'table' AND name IN ('sqlite_sequence', 'sqlite_stat1', 'sqlite_stat4')) \
         AND NOT (type = 'index' AND sql IS NULL)",
    )
    .fetch_all(pool)
    .await
    .map_err(|e| StoreError::Database(format!("the schema could not be read ({e})")))?;
    rows.iter()
        .map(|r| {
            let kind: String = r.try_get("type")?;
            let name: String = r.try_get("name")?;
            let sql: Option<String> = r.try_get("sql")?;
            let folded = sql
                .unwrap_or_default()
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ");
            Ok(((kind, name), folded))
        })
        .collect::<Result<Schema, sqlx::Error>>()
        .map_err(|e| StoreError::Database(format!("the schema could not be read ({e})")))
}

/// The schema this build's migrations give a new database at `version`.
async fn built(version: i64) -> Result<Schema, StoreError> {
    let upto = SQLITE.iter().position(|m| m.0 == version).ok_or_else(|| {
        StoreError::Invalid(format!(
            "schema version {version} is not one of this Arbiter's migrations; use a backup `arbiter backup` wrote"
        ))
    })?;
    let cannot = |e: &dyn std::fmt::Display| {
        StoreError::Database(format!(
            "cannot build schema version {version} to check the backup against ({e})"
        ))
    };
    // One connection for the database's whole life: an in-memory database is its connection's.
    let pool = SqlitePoolOptions::new()
        .max_connections(1)
        .min_connections(1)
        .idle_timeout(None)
        .max_lifetime(None)
        .connect_with(SqliteConnectOptions::new().in_memory(true))
        .await
        .map_err(|e| cannot(&e))?;
    let migrated = match crate::migrations::migrator(&SQLITE[..=upto]).await {
        Ok(m) => m.run(&pool).await.map_err(|e| cannot(&e)),
        Err(e) => Err(cannot(&e)),
    };
    let schema = match migrated {
        Ok(()) => schema(&pool).await,
        Err(e) => Err(e),
    };
    pool.close().await;
    schema
}

/// Each difference of `found` (a backup's schema) from `built` (what `version` builds), as a
/// sentence naming the object: tables first, so a missing table comes before its indexes and
/// triggers, missing with it.
fn schema_differences(found: &Schema, built: &Schema, version: i64) -> Vec<String> {
    let mut differences = Vec::new();
    for ((kind, name), sql) in found {
        match built.get(&(kind.clone(), name.clone())) {
            None => differences.push((
                kind,
                format!("the backup's {kind} `{name}` is not one that schema version {version} builds"),
            )),
            Some(expected) if expected != sql => differences.push((
                kind,
                format!(
                    "the backup's {kind} `{name}` differs from the one schema version {version} builds"
                ),
            )),
            Some(_) => {}
        }
    }
    for (kind, name) in built.keys() {
        if !found.contains_key(&(kind.clone(), name.clone())) {
            differences.push((
                kind,
                format!(
                    "the {kind} `{name}` that schema version {version} builds is missing from the backup"
                ),
            ));
        }
    }
    let order = ["table", "view", "index", "trigger"];
    differences.sort_by_key(|(kind, _)| order.iter().position(|k| k == kind));
    differences.into_iter().map(|(_, said)| said).collect()
}

/// Reads a backup's schema version and checks it (see [`checked`]), changing nothing: the file
/// is copied first, so that even SQLite's own bookkeeping leaves the backup as it was.
pub async fn inspect(backup: &Path) -> Result<BackupInfo, StoreError> {
    let copy = Scratch::new(&std::env::temp_dir().join("arbiter-backup"), "inspect")?;
    copy.fill_from(backup)?;
    let pool = open_existing(copy.path(), "the backup").await?;
    let checked = checked(&pool, &format!("the backup `{}`", backup.display())).await;
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
/// exists unless `force`; refused when the backup fails its checks ([`checked`]) or holds a
/// schema newer than this build's; an older one is migrated forward. The backup itself is not changed,
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
        let checked = checked(&pool, &what).await;
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

    /// Creates the copy's file, empty, new (never through a link) and readable by its owner
    /// only: SQLite writes into it and the backup keeps its mode.
    fn create_private(&self) -> Result<(), StoreError> {
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
        options.open(&self.path).map(drop).map_err(|e| {
            StoreError::Database(format!(
                "cannot create `{}` ({e}); check that the folder exists and can be written",
                self.path.display()
            ))
        })
    }

    /// Gives the copy the name `to` only if nothing has it, not even a link; the copy's own
    /// name goes when it drops. A filesystem without hard links (a FAT USB stick) gets a
    /// rename, `to` checked just before.
    fn link_as_new(self, to: &Path) -> Result<(), StoreError> {
        match std::fs::hard_link(&self.path, to) {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                Err(refuse_existing(to).err().unwrap_or_else(|| {
                    StoreError::Conflict(format!(
                        "the backup file `{}` was made by something else during the backup; give a new file name",
                        to.display()
                    ))
                }))
            }
            Err(_) => {
                refuse_existing(to)?;
                self.persist_as(to)
            }
        }
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
                "cannot move the checked copy into place at `{}` ({e})",
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
/// (give it in `PGPASSWORD` or `~/.pgpass`); the dump, like a SQLite backup, readable by its
/// owner only and without the rows of [`LIVE_SECRETS`].
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
        "`arbiter backup` copies a SQLite file; a PostgreSQL database is backed up by PostgreSQL's own pg_dump, which reads one consistent snapshot while the site goes on serving:\n\n    umask 077; pg_dump --format=custom --exclude-table-data=tower_sessions.session --exclude-table-data='*.site_secrets' --file={out} '{shown}'\n\n(readable by you only, and without the live secrets: the sign-in sessions and the site's secrets), and restored, with every server stopped, by\n\n    pg_restore --clean --if-exists --no-owner --dbname='{shown}' {out}\n\n(the password from PGPASSWORD or ~/.pgpass; docs/deploy.md, \"Backups\")",
        out = output.display()
    )
}
