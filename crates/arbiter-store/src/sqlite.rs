//! The SQLite store: one file (`arbiter.db` by default) in WAL mode with foreign keys on, or an
//! in-memory database for tests.

use std::path::Path;
use std::str::FromStr;
use std::time::Duration;

use sqlx::sqlite::{
    Sqlite, SqliteConnectOptions, SqliteConnection, SqliteJournalMode, SqlitePool,
    SqlitePoolOptions, SqliteRow, SqliteSynchronous,
};

type Db = sqlx::Sqlite;
type DbRow = SqliteRow;
type Backend = SqliteStore;
const BACKEND_NAME: &str = "SQLite";
const MIGRATIONS: &[crate::migrations::EmbeddedMigration] = crate::migrations::SQLITE;

/// The SQLite backend of [`crate::Store`]: one file in WAL mode, or a database in memory.
#[derive(Debug, Clone)]
pub struct SqliteStore {
    /// Reads, each on a connection of its own (WAL: readers never wait for the writer).
    pool: SqlitePool,
    /// Every write, one at a time on one connection: SQLite takes one writer at once, so
    /// writers queue here without holding a reader's connection, instead of each holding one
    /// while SQLite's busy handler sleeps (issue 16: reads waited seconds behind writes).
    writer: SqlitePool,
    /// The moment each write is stamped with.
    clock: crate::Clock,
}

impl SqliteStore {
    /// Opens (creating if missing) the database file at `path`.
    pub async fn open_path(path: &Path) -> Result<SqliteStore, StoreError> {
        Self::open_with(
            SqliteConnectOptions::new().filename(path),
            &path.display().to_string(),
        )
        .await
    }

    /// Opens a `sqlite:` URL (`sqlite://arbiter.db`, `sqlite:data/league.db?mode=rwc`).
    pub async fn open_url(url: &str) -> Result<SqliteStore, StoreError> {
        let options = SqliteConnectOptions::from_str(url).map_err(|e| {
            StoreError::Invalid(format!(
                "`{url}` is not a SQLite address Arbiter can read ({e}); give a file path or `sqlite://PATH`"
            ))
        })?;
        Self::open_with(options, url).await
    }

    async fn open_with(
        options: SqliteConnectOptions,
        shown: &str,
    ) -> Result<SqliteStore, StoreError> {
        let options = options
            .create_if_missing(true)
            .foreign_keys(true)
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Normal)
            .busy_timeout(Duration::from_secs(10));
        let cannot = |e: sqlx::Error| {
            StoreError::Database(format!(
                "cannot open the SQLite database `{shown}` ({e}); check that its folder exists and can be written"
            ))
        };
        // One connection always open: `arbiter restore` tells a served database by its lock.
        let pool = SqlitePoolOptions::new()
            .max_connections(8)
            .min_connections(1)
            .after_release(|conn, _| Box::pin(still_usable(conn)))
            .connect_with(options.clone())
            .await
            .map_err(cannot)?;
        // A writer waits up to 30 s for the connection: behind the writes queued before it, not
        // behind SQLite's lock (the busy timeout is for another process's writes). Opened at
        // the first write, so a store that only reads (a restore's check) never holds it.
        let writer = SqlitePoolOptions::new()
            .max_connections(1)
            .acquire_timeout(Duration::from_secs(30))
            .after_release(|conn, _| Box::pin(still_usable(conn)))
            .connect_lazy_with(options);
        Ok(SqliteStore {
            pool,
            writer,
            clock: crate::Clock::System,
        })
    }

    /// A private in-memory database: one connection, kept open for the store's life.
    pub async fn open_memory() -> Result<SqliteStore, StoreError> {
        let options = SqliteConnectOptions::new()
            .in_memory(true)
            .foreign_keys(true);
        let pool = SqlitePoolOptions::new()
            .max_connections(1)
            .min_connections(1)
            .idle_timeout(None)
            .max_lifetime(None)
            .connect_with(options)
            .await
            .map_err(|e| {
                StoreError::Database(format!("cannot open an in-memory SQLite database ({e})"))
            })?;
        // The database lives in its one connection: reads and writes share it.
        Ok(SqliteStore {
            writer: pool.clone(),
            pool,
            clock: crate::Clock::System,
        })
    }

    /// The store stamping its writes by `clock`.
    pub(crate) fn with_clock(mut self, clock: crate::Clock) -> SqliteStore {
        self.clock = clock;
        self
    }

    /// The moment a write is stamped with, by the store's clock.
    pub(crate) fn now(&self) -> jiff::Timestamp {
        self.clock.now()
    }

    /// The connection pool, for what shares the database (sessions) and for tests.
    pub fn pool(&self) -> &SqlitePool {
        &self.pool
    }

    /// The one connection every write of the store goes through.
    fn writer(&self) -> &SqlitePool {
        &self.writer
    }

    /// Closes every connection (the readers' and the writer's), so that no process has the
    /// file open: before a restore, a backup's check, or removing the file.
    pub async fn close(&self) {
        for pool in [&self.writer, &self.pool] {
            // sqlx's `close` can return while a connection being handed back (past its check
            // that the pool is closed) is still on its way to the idle queue, where nothing
            // closes it (sqlx issue #3217): close again until none is left, 2 s at most.
            for _ in 0..200 {
                pool.close().await;
                if pool.size() == 0 {
                    break;
                }
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
        }
    }
}

/// Whether a connection handed back may serve the next caller: not when its transaction is
/// still open once the rollback queued by a dropped transaction has run. On a full disk SQLite
/// rolls a transaction back itself, sqlx's own rollback then fails, and sqlx goes on counting
/// the transaction as open, so every `BEGIN` on that connection would be refused: it is closed
/// and the pool opens another (issue 16: the lone writer's connection refused every write
/// after a full disk, even once space was freed).
async fn still_usable(conn: &mut SqliteConnection) -> Result<bool, sqlx::Error> {
    use sqlx::{Connection, TransactionManager};
    conn.ping().await?; // runs after the queued rollback
    Ok(<Sqlite as sqlx::Database>::TransactionManager::get_transaction_depth(conn) == 0)
}

/// `BEGIN IMMEDIATE` takes the write lock at once, so concurrent writers wait (busy timeout)
/// instead of failing when a read inside the transaction would go stale.
async fn begin_write(pool: &SqlitePool) -> Result<Tx, StoreError> {
    pool.begin_with("BEGIN IMMEDIATE")
        .await
        .map_err(crate::error::db("starting a write"))
}

async fn begin_read(pool: &SqlitePool) -> Result<Tx, StoreError> {
    pool.begin()
        .await
        .map_err(crate::error::db("starting a read"))
}

// SQLite keeps times, dates and JSON as text: nothing to convert.
fn ts_in(p: &str) -> String {
    p.to_string()
}
fn ts_out(col: &str) -> String {
    col.to_string()
}
fn date_in(p: &str) -> String {
    p.to_string()
}
fn date_out(col: &str) -> String {
    col.to_string()
}
fn json_in(p: &str) -> String {
    p.to_string()
}
fn json_out(col: &str) -> String {
    col.to_string()
}

include!("queries.rs");
include!("accounts.rs");
include!("ledger.rs");
include!("season_end.rs");
include!("event_days.rs");
include!("dated_rounds.rs");
include!("reports.rs");
include!("rating_lists.rs");
