//! Persistence: leagues, seasons, competitions, results with versions, and the history of every change.
//!
//! One [`Store`] with two backends, SQLite (a file, `arbiter.db` by default; WAL, foreign keys
//! on) and PostgreSQL, each with its own migrations in `migrations/`. The web site and the CLI
//! share it. Nothing is ever lost: a result is corrected by a new version, never overwritten,
//! and every write appends who, when, in which role, before, after and why to the history in
//! the same transaction. No code path updates or deletes a history row, and the databases'
//! triggers refuse it.

mod check;
mod codes;
mod error;
pub mod json;
pub mod migrations;
mod postgres;
mod records;
mod sqlite;

pub use error::StoreError;
pub use postgres::PgStore;
pub use records::*;
pub use sqlite::SqliteStore;

use arbiter_core::{Competition, MatchOutcome};

/// The store the web site and the CLI share. Cloning is cheap (the pools are shared).
#[derive(Debug, Clone)]
pub enum Store {
    Sqlite(SqliteStore),
    Postgres(PgStore),
}

macro_rules! dispatch {
    ($self:ident, $s:ident => $body:expr) => {
        match $self {
            Store::Sqlite($s) => $body,
            Store::Postgres($s) => $body,
        }
    };
}

impl Store {
    /// `postgres://…` (or `postgresql://…`), `sqlite://PATH`, `sqlite::memory:`, or a plain
    /// path to a SQLite file (created if missing). Call [`Store::migrate`] next.
    pub async fn open(url_or_path: &str) -> Result<Store, StoreError> {
        let s = url_or_path.trim();
        if s.starts_with("postgres://") || s.starts_with("postgresql://") {
            return PgStore::connect(s).await.map(Store::Postgres);
        }
        if s == "sqlite::memory:" || s == ":memory:" {
            return Store::open_sqlite_memory().await;
        }
        if s.starts_with("sqlite:") {
            return SqliteStore::open_url(s).await.map(Store::Sqlite);
        }
        if let Some((scheme, _)) = s.split_once("://") {
            return Err(StoreError::Invalid(format!(
                "`{scheme}://` is not a database Arbiter can use; give a SQLite file path, `sqlite://PATH`, or `postgres://USER:PASSWORD@HOST/DATABASE`"
            )));
        }
        if s.is_empty() {
            return Err(StoreError::Invalid(
                "no database was given; give a SQLite file path such as `arbiter.db`, or a `postgres://` address".into(),
            ));
        }
        SqliteStore::open_path(std::path::Path::new(s))
            .await
            .map(Store::Sqlite)
    }

    /// A private in-memory SQLite database, for tests and demos.
    pub async fn open_sqlite_memory() -> Result<Store, StoreError> {
        SqliteStore::open_memory().await.map(Store::Sqlite)
    }

    /// `SQLite` or `PostgreSQL`.
    pub fn backend(&self) -> &'static str {
        dispatch!(self, s => s.backend())
    }

    /// Runs this backend's migrations; a second run changes nothing.
    pub async fn migrate(&self) -> Result<(), StoreError> {
        dispatch!(self, s => s.migrate().await)
    }

    pub async fn create_league(&self, new: &NewLeague, by: &Actor) -> Result<League, StoreError> {
        dispatch!(self, s => s.create_league(new, by).await)
    }

    /// Every league and event, by name.
    pub async fn leagues(&self) -> Result<Vec<League>, StoreError> {
        dispatch!(self, s => s.leagues().await)
    }

    pub async fn league(&self, slug: &str) -> Result<Option<League>, StoreError> {
        dispatch!(self, s => s.league(slug).await)
    }

    pub async fn create_season(
        &self,
        league: LeagueId,
        new: &NewSeason,
        by: &Actor,
    ) -> Result<Season, StoreError> {
        dispatch!(self, s => s.create_season(league, new, by).await)
    }

    /// A league's seasons: dated ones by start date, then undated ones, each in creation order.
    pub async fn seasons(&self, league: LeagueId) -> Result<Vec<Season>, StoreError> {
        dispatch!(self, s => s.seasons(league).await)
    }

    /// Stores a whole competition (teams with schools and rosters in order, players, rounds,
    /// matches and every board result) in one transaction, as version 1 of each result.
    pub async fn import_competition(
        &self,
        season: SeasonId,
        new: &NewCompetition,
        competition: &Competition,
        by: &Actor,
    ) -> Result<CompetitionRecord, StoreError> {
        dispatch!(self, s => s.import_competition(season, new, competition, by).await)
    }

    /// A season's competitions, in the order they were stored.
    pub async fn competitions(
        &self,
        season: SeasonId,
    ) -> Result<Vec<CompetitionRecord>, StoreError> {
        dispatch!(self, s => s.competitions(season).await)
    }

    /// Everything a page or the API needs of one competition: the core model (latest result
    /// versions), its rules, the ids of its matches, and the data version.
    pub async fn load_competition(
        &self,
        league_slug: &str,
        competition_slug: &str,
    ) -> Result<Option<StoredCompetition>, StoreError> {
        dispatch!(self, s => s.load_competition(league_slug, competition_slug).await)
    }

    pub async fn load_competition_by_id(
        &self,
        id: CompetitionId,
    ) -> Result<Option<StoredCompetition>, StoreError> {
        dispatch!(self, s => s.load_competition_by_id(id).await)
    }

    /// Adds the next version of the match's result (corrections never overwrite).
    pub async fn record_result(
        &self,
        m: MatchId,
        outcome: &MatchOutcome,
        by: &Actor,
        reason: Option<&str>,
    ) -> Result<ResultVersion, StoreError> {
        dispatch!(self, s => s.record_result(m, outcome, by, reason).await)
    }

    /// Every version of the match's result, oldest first.
    pub async fn result_versions(&self, m: MatchId) -> Result<Vec<ResultVersion>, StoreError> {
        dispatch!(self, s => s.result_versions(m).await)
    }

    /// The history rows the filter selects, newest first.
    pub async fn history(&self, filter: &HistoryFilter) -> Result<Vec<HistoryEntry>, StoreError> {
        dispatch!(self, s => s.history(filter).await)
    }

    /// Bumped on every write; pages use it (with the competition's own version) for ETags.
    pub async fn data_version(&self) -> Result<i64, StoreError> {
        dispatch!(self, s => s.data_version().await)
    }
}
