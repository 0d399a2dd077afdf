//! Every row of every table of a store, to compare two databases (a backup restored, a schema
//! upgraded) row by row.

use std::collections::BTreeMap;

use arbiter_store::Store;

/// Each table's columns (in order) and rows, every value as text (`None`: NULL), rows sorted.
pub type Tables = BTreeMap<String, (Vec<String>, Vec<Vec<Option<String>>>)>;

pub async fn sqlite_tables(pool: &sqlx::SqlitePool) -> Tables {
    let names: Vec<String> = sqlx::query_scalar(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' \
         AND name <> '_sqlx_migrations' ORDER BY name",
    )
    .fetch_all(pool)
    .await
    .unwrap();
    let mut tables = Tables::new();
    for name in names {
        let columns: Vec<String> =
            sqlx::query_scalar("SELECT name FROM pragma_table_info($1) ORDER BY cid")
                .bind(&name)
                .fetch_all(pool)
                .await
                .unwrap();
        // The columns named: a cached `SELECT *` would keep the columns it had before a
        // migration added one.
        let select: Vec<String> = columns.iter().map(|c| format!("\"{c}\"")).collect();
        let sql = format!("SELECT {} FROM \"{name}\"", select.join(", "));
        let mut rows = Vec::new();
        for row in sqlx::query(&sql).fetch_all(pool).await.unwrap() {
            rows.push(
                (0..columns.len())
                    .map(|i| sqlite_text(&row, i))
                    .collect::<Vec<_>>(),
            );
        }
        rows.sort();
        tables.insert(name, (columns, rows));
    }
    tables
}

/// A SQLite value as text, whatever its storage class (a blob in hex).
fn sqlite_text(row: &sqlx::sqlite::SqliteRow, i: usize) -> Option<String> {
    use sqlx::Row;
    if let Ok(v) = row.try_get::<Option<i64>, _>(i) {
        return v.map(|v| v.to_string());
    }
    if let Ok(v) = row.try_get::<Option<f64>, _>(i) {
        return v.map(|v| v.to_string());
    }
    if let Ok(v) = row.try_get::<Option<String>, _>(i) {
        return v;
    }
    let v: Option<Vec<u8>> = row.try_get(i).unwrap();
    v.map(|b| b.iter().map(|x| format!("{x:02x}")).collect())
}

pub async fn postgres_tables(pool: &sqlx::PgPool) -> Tables {
    let names: Vec<String> = sqlx::query_scalar(
        "SELECT CAST(table_name AS TEXT) FROM information_schema.tables WHERE table_schema = current_schema() \
         AND table_type = 'BASE TABLE' AND table_name <> '_sqlx_migrations' ORDER BY 1",
    )
    .fetch_all(pool)
    .await
    .unwrap();
    let mut tables = Tables::new();
    for name in names {
        let columns: Vec<String> = sqlx::query_scalar(
            "SELECT CAST(column_name AS TEXT) FROM information_schema.columns \
             WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position",
        )
        .bind(&name)
        .fetch_all(pool)
        .await
        .unwrap();
        let select: Vec<String> = columns
            .iter()
            .map(|c| format!("CAST(\"{c}\" AS TEXT)"))
            .collect();
        let sql = format!("SELECT {} FROM \"{name}\"", select.join(", "));
        let mut rows = Vec::new();
        for row in sqlx::query(&sql).fetch_all(pool).await.unwrap() {
            use sqlx::Row;
            rows.push(
                (0..columns.len())
                    .map(|i| row.get::<Option<String>, _>(i))
                    .collect::<Vec<_>>(),
            );
        }
        rows.sort();
        tables.insert(name, (columns, rows));
    }
    tables
}

pub async fn tables(store: &Store) -> Tables {
    match store {
        Store::Sqlite(s) => sqlite_tables(s.pool()).await,
        Store::Postgres(p) => postgres_tables(p.pool()).await,
    }
}
