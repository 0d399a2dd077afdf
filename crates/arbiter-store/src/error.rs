/// What went wrong, as a sentence a person can act on.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StoreError {
    /// The league, season, competition or match asked for does not exist.
    #[error("{0}")]
    NotFound(String),
    /// The write would duplicate something unique (a slug, a name).
    #[error("{0}")]
    Conflict(String),
    /// The match changed after the writer read it ([`crate::ReportSeen`]): nothing was written.
    #[error("{0}")]
    Stale(String),
    /// The input cannot be stored as given (a bad slug, a match naming an unknown team).
    #[error("{0}")]
    Invalid(String),
    /// The database failed or holds something this version cannot read.
    #[error("{0}")]
    Database(String),
    /// The database's disk is full: nothing was written; writes work again once space is freed.
    #[error("{0}")]
    Full(String),
}

/// Maps a database error met while `doing` something (`"storing the league `x`"`).
pub(crate) fn db(doing: &str) -> impl FnOnce(sqlx::Error) -> StoreError + '_ {
    move |e| {
        if let Some(d) = e.as_database_error() {
            if d.is_unique_violation() {
                return StoreError::Conflict(format!(
                    "{doing} failed: that record already exists ({}); choose another slug or name",
                    d.message()
                ));
            }
            // SQLite's SQLITE_FULL (13, and its extended codes); PostgreSQL's disk_full.
            let full = d
                .code()
                .is_some_and(|c| c == "53100" || c.parse::<i64>().is_ok_and(|n| n & 0xff == 13));
            if full {
                return StoreError::Full(format!(
                    "{doing} failed: the database's disk is full ({}); nothing was saved. Free space on it, then try again",
                    d.message()
                ));
            }
            if d.is_foreign_key_violation() {
                return StoreError::Invalid(format!(
                    "{doing} failed: it refers to a row that does not exist ({})",
                    d.message()
                ));
            }
        }
        StoreError::Database(format!("the database failed while {doing}: {e}"))
    }
}

/// A stored value this version of Arbiter cannot read back.
pub(crate) fn corrupt(what: impl std::fmt::Display) -> StoreError {
    StoreError::Database(format!(
        "the database holds {what}, which this version of Arbiter cannot read; was it written by a newer version?"
    ))
}
