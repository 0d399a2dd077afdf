//! Sessions in the store's own database: tower-sessions' SQLite or PostgreSQL store over the
//! store's pool (tables made by the store's migration 0003).

use arbiter_store::Store;
use async_trait::async_trait;
use tower_sessions::session::{Id, Record};
use tower_sessions::session_store::{self, ExpiredDeletion, SessionStore};
use tower_sessions_sqlx_store::{PostgresStore, SqliteStore};

#[derive(Debug, Clone)]
pub enum Sessions {
    Sqlite(SqliteStore),
    Postgres(PostgresStore),
}

impl Sessions {
    pub fn new(store: &Store) -> Sessions {
        match store {
            Store::Sqlite(s) => Sessions::Sqlite(SqliteStore::new(s.pool().clone())),
            Store::Postgres(s) => Sessions::Postgres(PostgresStore::new(s.pool().clone())),
        }
    }

    /// Removes expired sessions (they are not league data). Called now and then by the server.
    pub async fn delete_expired(&self) -> session_store::Result<()> {
        match self {
            Sessions::Sqlite(s) => s.delete_expired().await,
            Sessions::Postgres(s) => s.delete_expired().await,
        }
    }
}

#[async_trait]
impl SessionStore for Sessions {
    async fn create(&self, record: &mut Record) -> session_store::Result<()> {
        match self {
            Sessions::Sqlite(s) => s.create(record).await,
            Sessions::Postgres(s) => s.create(record).await,
        }
    }

    async fn save(&self, record: &Record) -> session_store::Result<()> {
        match self {
            Sessions::Sqlite(s) => s.save(record).await,
            Sessions::Postgres(s) => s.save(record).await,
        }
    }

    async fn load(&self, id: &Id) -> session_store::Result<Option<Record>> {
        match self {
            Sessions::Sqlite(s) => s.load(id).await,
            Sessions::Postgres(s) => s.load(id).await,
        }
    }

    async fn delete(&self, id: &Id) -> session_store::Result<()> {
        match self {
            Sessions::Sqlite(s) => s.delete(id).await,
            Sessions::Postgres(s) => s.delete(id).await,
        }
    }
}
