//! The PostgreSQL store, for sites with several `arbiter serve` processes and one database.

use std::str::FromStr;
use std::time::Duration;

use sqlx::postgres::{PgConnectOptions, PgPool, PgPoolOptions, PgRow};

type Db = sqlx::Postgres;
type DbRow = PgRow;
type Backend = PgStore;
const BACKEND_NAME: &str = "PostgreSQL";
const MIGRATIONS: &[crate::migrations::EmbeddedMigration] = crate::migrations::POSTGRES;

/// The PostgreSQL backend of [`crate::Store`], for several `arbiter serve` processes on one
/// database.
#[derive(Debug, Clone)]
pub struct PgStore {
    pool: PgPool,
    /// The moment each write is stamped with.
    clock: crate::Clock,
}

impl PgStore {
    /// The store stamping its writes by `clock`.
    pub(crate) fn with_clock(mut self, clock: crate::Clock) -> PgStore {
        self.clock = clock;
        self
    }

    /// The moment a write is stamped with, by the store's clock.
    pub(crate) fn now(&self) -> jiff::Timestamp {
        self.clock.now()
    }

    /// Connects to a `postgres://user:password@host:port/database` URL. A schema other than
    /// `public` can be chosen with `?options[search_path]=NAME`.
    pub async fn connect(url: &str) -> Result<PgStore, StoreError> {
        let options = PgConnectOptions::from_str(url).map_err(|e| {
            StoreError::Invalid(format!(
                "the PostgreSQL address could not be read ({e}); write it as postgres://USER:PASSWORD@HOST:PORT/DATABASE"
            ))
        })?;
        let shown = format!(
            "{}:{} (database `{}`)",
            options.get_host(),
            options.get_port(),
            options.get_database().unwrap_or("")
        );
        let pool = PgPoolOptions::new()
            .max_connections(16)
            .acquire_timeout(Duration::from_secs(30))
            .connect_with(options)
            .await
            .map_err(|e| {
                StoreError::Database(format!(
                    "cannot connect to PostgreSQL at {shown} ({e}); check that the server runs and the address, user and password are right"
                ))
            })?;
        Ok(PgStore {
            pool,
            clock: crate::Clock::System,
        })
    }

    /// The connection pool, for what shares the database (sessions) and for tests.
    pub fn pool(&self) -> &PgPool {
        &self.pool
    }

    /// Writes share the pool: PostgreSQL takes concurrent writers, row by row.
    fn writer(&self) -> &PgPool {
        &self.pool
    }

    /// Closes every connection.
    pub async fn close(&self) {
        self.pool.close().await;
    }
}

async fn begin_write(pool: &PgPool) -> Result<Tx, StoreError> {
    pool.begin()
        .await
        .map_err(crate::error::db("starting a write"))
}

/// One snapshot for every query of a load, so a page never mixes two versions.
async fn begin_read(pool: &PgPool) -> Result<Tx, StoreError> {
    pool.begin_with("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
        .await
        .map_err(crate::error::db("starting a read"))
}

// Values cross as text; PostgreSQL casts them into and out of its own types.
fn ts_in(p: &str) -> String {
    format!("CAST({p} AS TIMESTAMPTZ)")
}
fn ts_out(col: &str) -> String {
    format!("to_char({col} AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.US\"Z\"')")
}
fn date_in(p: &str) -> String {
    format!("CAST({p} AS DATE)")
}
fn date_out(col: &str) -> String {
    format!("to_char({col}, 'YYYY-MM-DD')")
}
fn json_in(p: &str) -> String {
    format!("CAST({p} AS JSONB)")
}
fn json_out(col: &str) -> String {
    format!("CAST({col} AS TEXT)")
}

include!("queries.rs");
include!("accounts.rs");
include!("ledger.rs");
include!("season_end.rs");
include!("event_days.rs");
include!("dated_rounds.rs");
include!("reports.rs");
include!("rating_lists.rs");
