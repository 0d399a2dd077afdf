//! GET `/leagues/{league}/ledger.csv` (`?season=`): every entry of a season's ledger, for a
//! spreadsheet, through `arbiter_formats::csv` (RFC 4180, the formula guard on every cell).
//! Amounts are plain decimals (`10.00`) so that the spreadsheet sums them.

use arbiter_core::rules::permissions::Action;
use arbiter_core::season::ledger::{EntryKind, Ledger};
use arbiter_formats::csv;
use arbiter_store::LedgerEntry;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::response::Response;

use crate::app::respond::download;
use crate::app::site;
use crate::app::state::AppState;
use crate::http::auth::{self, Auth};
use crate::http::error::{Format, WebError};
use crate::ledger::load;
use crate::ledger::page::LedgerQuery;

/// The CSV's first line.
pub const HEADER: [&str; 12] = [
    "number",
    "on",
    "kind",
    "school",
    "amount",
    "note",
    "reverses",
    "reversed_by",
    "in_force",
    "recorded_by",
    "role",
    "recorded_at",
];

/// The entries as CSV, first recorded first.
pub fn text(ledger: &Ledger, entries: &[LedgerEntry]) -> String {
    let mut out = csv::Writer::new();
    out.record(HEADER);
    for s in entries {
        let e = &s.entry;
        let reversed_by = ledger.reversal_of(e.number).map(|r| r.number.to_string());
        out.record([
            e.number.to_string(),
            e.on.to_string(),
            e.kind.code().to_string(),
            e.school.clone().unwrap_or_default(),
            e.amount.decimal(),
            e.note.clone(),
            e.reverses.map(|n| n.to_string()).unwrap_or_default(),
            reversed_by.unwrap_or_default(),
            if ledger.in_force(e) { "yes" } else { "no" }.to_string(),
            s.recorded_by.clone().unwrap_or_default(),
            s.recorded_role
                .map(|r| r.code().to_string())
                .unwrap_or_default(),
            s.recorded_at.to_string(),
        ]);
    }
    debug_assert!(EntryKind::ALL.iter().all(|k| !k.code().contains(',')));
    out.finish()
}

/// GET `/leagues/{league}/ledger.csv`.
pub async fn ledger_csv(
    State(state): State<AppState>,
    auth: Auth,
    Path(league): Path<String>,
    query: Result<Query<LedgerQuery>, QueryRejection>,
) -> Response {
    let answer = async {
        let tree = site::one(&state, &league).await?;
        auth::permit_in_league(&auth, tree.league.id, Action::ReadLedger)?;
        let season = query.ok().and_then(|Query(q)| q.season);
        let l = load(&state, &tree, season.as_deref()).await?;
        let name = format!("{}-{}-ledger.csv", l.league.slug, l.season.slug);
        Ok(download(
            "text/csv; charset=utf-8",
            text(&l.ledger, &l.stored),
            &name,
        ))
    };
    answer
        .await
        .unwrap_or_else(|e: WebError| e.answer(Format::Html))
}
