//! Issue 10, part 6: a failure a visitor sees only as "not answering" is in the server's log
//! with its cause.

use std::sync::{Arc, Mutex};

use arbiter_store::Store;
use axum::http::StatusCode;

use crate::common::*;

/// The log lines written while a test runs.
#[derive(Clone, Default)]
struct Captured(Arc<Mutex<Vec<u8>>>);

impl std::io::Write for Captured {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(bytes);
        Ok(bytes.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[tokio::test(flavor = "current_thread")]
async fn a_store_that_stops_answering_is_a_503_for_the_reader_and_its_cause_is_logged() {
    let log = Captured::default();
    let writer = log.clone();
    let subscriber = tracing_subscriber::fmt()
        .with_writer(move || writer.clone())
        .finish();
    let _logging = tracing::subscriber::set_default(subscriber);

    let store = store().await;
    let app = app(&store);
    match &store {
        Store::Sqlite(s) => s.pool().close().await,
        Store::Postgres(s) => s.pool().close().await,
    }
    let page = get_expect(&app, "/leagues/gthscl", StatusCode::SERVICE_UNAVAILABLE).await;
    assert!(
        !page.body.contains("closed"),
        "the cause stays in the server"
    );
    let lines = String::from_utf8(log.0.lock().unwrap().clone()).unwrap();
    assert!(lines.contains("ERROR"), "{lines}");
    assert!(lines.contains("not answering"), "{lines}");
    assert!(
        lines.to_lowercase().contains("closed"),
        "the pool's own words: {lines}"
    );
}
