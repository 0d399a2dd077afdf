//! `arbiter backup` and `arbiter restore` (issue 16): a SQLite database copied while the site
//! serves it, and a backup put back once checked. The store does the work
//! (`arbiter_store::backup`); a PostgreSQL address gets the `pg_dump` commands instead.

use std::path::Path;

use anyhow::{Result, bail};
use arbiter_store::Store;
use arbiter_store::backup;

use crate::database::{Database, runtime};

/// The PostgreSQL address `db` names, if it names one.
fn postgres(db: &Database) -> Option<&str> {
    db.database_url
        .as_deref()
        .map(str::trim)
        .filter(|u| u.starts_with("postgres://") || u.starts_with("postgresql://"))
}

/// The SQLite file `db` names: `--db`, or a `sqlite://` address.
fn sqlite_file(db: &Database) -> std::path::PathBuf {
    match db.database_url.as_deref().map(str::trim) {
        Some(url) => {
            let path = url
                .trim_start_matches("sqlite://")
                .trim_start_matches("sqlite:");
            path.split('?').next().unwrap_or(path).into()
        }
        None => db.db.clone(),
    }
}

/// `arbiter backup`: a consistent copy of the database at `output`, taken while it serves.
pub fn backup(db: &Database, output: &Path) -> Result<()> {
    if let Some(url) = postgres(db) {
        bail!("{}", backup::pg_dump_advice(url, output));
    }
    let source = sqlite_file(db);
    if !source.is_file() {
        bail!(
            "there is no database at `{}`; give the file `arbiter serve` uses with --db",
            source.display()
        );
    }
    runtime()?.block_on(async {
        let Store::Sqlite(store) = Store::open(&source.display().to_string()).await? else {
            bail!("`{}` is not a SQLite database", source.display());
        };
        let done = store.backup_into(output).await;
        store.close().await;
        let info = done?;
        println!(
            "Backed up {} to {}: schema version {}, {} bytes, integrity checked, the schema as that version builds it. \
             Only you may read it, and it holds no sign-in session: a site restored from it signs everyone in again.",
            source.display(),
            output.display(),
            info.schema_version,
            info.bytes
        );
        Ok(())
    })
}

/// `arbiter restore`: the backup checked, brought up to this version's schema, and put in the
/// database's place, which no server may have open.
pub fn restore(from: &Path, db: &Database, force: bool) -> Result<()> {
    if let Some(url) = postgres(db) {
        bail!("{}", backup::pg_dump_advice(url, from));
    }
    let to = sqlite_file(db);
    runtime()?.block_on(async {
        let r = backup::restore(from, &to, force).await?;
        let migrated = if r.from_version < r.to_version {
            format!(
                " and brought from schema version {} to {}",
                r.from_version, r.to_version
            )
        } else {
            format!(" at schema version {}", r.to_version)
        };
        let replaced = if r.replaced {
            " (the database that was there is replaced)"
        } else {
            ""
        };
        println!(
            "Restored {} to {}{migrated}, integrity checked, the schema as its version builds it{replaced}. \
             Everyone signs in again.",
            from.display(),
            to.display()
        );
        Ok(())
    })
}
