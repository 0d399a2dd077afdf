//! The fee ledger in the API (GT-O2): `GET /api/v1/leagues/{league}/ledger` (`?season=`,
//! default the latest) gives the statement and every entry; `POST` records an entry. Both need
//! an API token (`Authorization: Bearer …`) whose role the table allows: the President or the
//! Treasurer to read, the Treasurer to write (GT-O3). The same reading and write path as the
//! page (`ledger::load`, `ledger::record`).

use arbiter_core::rules::permissions::Action;
use arbiter_core::season::ledger::{EntryInput, Ledger};
use arbiter_store::LedgerEntry;
use axum::body::Bytes;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, OpenApi, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::api::answer::{
    ApiError, ApiResult, ErrorAnswer, InvalidAnswer, json_body, json_response,
};
use crate::api::write::begin_league;
use crate::app::address::{Addressed, LeagueAddress};
use crate::app::respond::bad_path;
use crate::app::state::AppState;
use crate::http::auth::Acting;
use crate::http::error::WebError;
use crate::ledger::{self as book, NotRecorded, SeasonLedger, ledger_href};

#[derive(OpenApi)]
#[openapi(tags((name = "ledger", description = "The Treasurer's fee ledger (GT-O2): each school's entry fee, payments, refunds, prize purchases and the league's cash; read by the President and the Treasurer, written by the Treasurer, with an API token")))]
struct LedgerDoc;

/// The ledger's routes, registered on the router and in the OpenAPI document together.
pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::with_openapi(LedgerDoc::openapi()).routes(routes!(ledger, record_entry))
}

/// `?season=`: the season's slug; without it, the league's latest season.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct SeasonQuery {
    /// The season's slug; default: the latest
    #[param(example = "2026-27")]
    season: Option<String>,
}

/// A season's fee ledger: the statement per school, the prize purchases, the totals, and every
/// entry with who recorded it and when. Amounts are text in dollars and cents (`"10.00"`, a
/// balance in credit `"-10.00"`), exact.
#[derive(Debug, Serialize, ToSchema)]
pub struct LedgerJson {
    pub league: String,
    pub season: LedgerSeason,
    /// The entry fee each school owes once a season (GT-O2), when the season's competitions
    /// agree on one; `null` when they set none or differ (`notes` says so).
    pub entry_fee: Option<String>,
    pub notes: Vec<String>,
    pub schools: Vec<SchoolJson>,
    /// The fines the season's record assesses under its rules (`[fines]`; none in GTHSCL).
    pub fines: Vec<FineJson>,
    /// The prize purchases in force (GT-F1, GT-F3), as in `entries`.
    pub prizes: Vec<EntryJson>,
    pub totals: TotalsJson,
    /// Every entry, first recorded first; reversed ones and their reversals too.
    pub entries: Vec<EntryJson>,
    /// The ledger's page.
    pub url: String,
}

/// A fine the record assesses: the school, what for, how much, under which rule and where.
#[derive(Debug, Serialize, ToSchema)]
pub struct FineJson {
    pub school: String,
    /// `match_forfeit`, `board_default`, `drop` or `late_result`.
    pub kind: String,
    pub amount: String,
    /// The league's ID for the rule; null when its ruleset cites none.
    pub rule: Option<String>,
    pub competition: String,
    pub round: u32,
    /// The match's page.
    pub url: String,
    /// The fine in a sentence.
    pub sentence: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct LedgerSeason {
    pub slug: String,
    pub name: String,
}

/// One school's line: the fee due, paid, refunded, and what it still owes (below zero: in
/// credit).
#[derive(Debug, Serialize, ToSchema)]
pub struct SchoolJson {
    pub school: String,
    pub due: String,
    pub paid: String,
    pub refunded: String,
    /// What the league waived of its fee and fines (GT-O2).
    pub waived: String,
    /// Its fines (`[fines]`), in all.
    pub fined: String,
    pub owes: String,
    /// `owes $10.00`, `paid in full`, `in credit $10.00`.
    pub standing: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct TotalsJson {
    pub due: String,
    pub received: String,
    pub refunded: String,
    pub prizes: String,
    /// The fees and fines waived (no money moved).
    pub waived: String,
    /// The fines the schools owe (`[fines]`).
    pub fined: String,
    /// What schools still owe.
    pub outstanding: String,
    /// What the league owes schools in credit.
    pub credit: String,
    /// Received, less refunds and prizes.
    pub cash: String,
}

/// One entry as kept.
#[derive(Debug, Serialize, ToSchema)]
pub struct EntryJson {
    /// 1, 2, 3 … in the season.
    pub number: u32,
    /// `payment`, `refund`, `prize_purchase`, `waiver` or `reversal`.
    pub kind: String,
    pub school: Option<String>,
    pub amount: String,
    /// The day the money moved, `YYYY-MM-DD`.
    pub on: String,
    pub note: String,
    /// For a reversal, the entry it undoes.
    pub reverses: Option<u32>,
    /// The reversal that undid this entry, if one did.
    pub reversed_by: Option<u32>,
    /// Whether it counts: neither reversed nor a reversal.
    pub in_force: bool,
    pub recorded_by: Option<String>,
    /// `treasurer`, …; none for the command line.
    pub recorded_role: Option<String>,
    /// RFC 3339.
    pub recorded_at: String,
}

/// An entry to record. A reversal names the entry it undoes (`reverses`) and the reason
/// (`note`); it takes that entry's school and amount.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct EntryBody {
    /// The season's slug; default: the latest.
    #[serde(default)]
    pub season: Option<String>,
    /// `payment` (a school pays), `refund` (the league pays a school back), `prize_purchase`
    /// (trophies, GT-F1, GT-F3; no school), `waiver` (all or part of a school's fee waived,
    /// the reason in `note`) or `reversal`.
    #[serde(default)]
    pub kind: String,
    /// The school's name, for a payment, a refund or a waiver: one with a team in the season.
    #[serde(default)]
    pub school: Option<String>,
    /// Dollars and cents as text: `"10"`, `"10.50"`, `"$10.50"`; at most two decimals.
    #[serde(default)]
    pub amount: Option<String>,
    /// `YYYY-MM-DD`, not after today.
    #[serde(default)]
    pub on: String,
    /// A cheque number; what a prize purchase bought (required); why a reversal (required).
    /// At most 1,000 characters.
    #[serde(default)]
    // The literal is `arbiter_core::record::text::REASON_MAX_CHARS`.
    #[schema(max_length = 1000)]
    pub note: Option<String>,
    /// For a reversal: the number of the entry it undoes.
    #[serde(default)]
    pub reverses: Option<u32>,
    /// Record it although an entry in force has the same kind, school, amount and note
    /// (without it such an entry is answered 409 with the entry it repeats).
    #[serde(default)]
    pub confirm_duplicate: bool,
}

impl EntryBody {
    fn input(&self) -> EntryInput {
        EntryInput {
            kind: self.kind.clone(),
            school: self.school.clone().unwrap_or_default(),
            amount: self.amount.clone().unwrap_or_default(),
            on: self.on.clone(),
            note: self.note.clone().unwrap_or_default(),
            reverses: self.reverses.map(|n| n.to_string()).unwrap_or_default(),
        }
    }
}

fn entry_json(ledger: &Ledger, s: &LedgerEntry) -> EntryJson {
    let e = &s.entry;
    EntryJson {
        number: e.number,
        kind: e.kind.code().into(),
        school: e.school.clone(),
        amount: e.amount.decimal(),
        on: e.on.to_string(),
        note: e.note.clone(),
        reverses: e.reverses,
        reversed_by: ledger.reversal_of(e.number).map(|r| r.number),
        in_force: ledger.in_force(e),
        recorded_by: s.recorded_by.clone(),
        recorded_role: s.recorded_role.map(|r| r.code().to_string()),
        recorded_at: s.recorded_at.to_string(),
    }
}

fn ledger_json(l: &SeasonLedger) -> LedgerJson {
    let statement = l.ledger.statement();
    let t = statement.totals;
    let entries: Vec<EntryJson> = l.stored.iter().map(|s| entry_json(&l.ledger, s)).collect();
    LedgerJson {
        league: l.league.slug.clone(),
        season: LedgerSeason {
            slug: l.season.slug.clone(),
            name: l.season.name.clone(),
        },
        entry_fee: l.ledger.dues().fee.map(|f| f.decimal()),
        notes: statement.notes.clone(),
        schools: statement
            .schools
            .iter()
            .map(|s| SchoolJson {
                school: s.school.clone(),
                due: s.due.decimal(),
                paid: s.paid.decimal(),
                refunded: s.refunded.decimal(),
                waived: s.waived.decimal(),
                fined: s.fined.decimal(),
                owes: s.owes().decimal(),
                standing: s.standing(),
            })
            .collect(),
        fines: statement
            .fines
            .iter()
            .zip(&l.fine_matches)
            .map(|(f, url)| FineJson {
                school: f.school.clone(),
                kind: f.kind.code().to_string(),
                amount: f.amount.decimal(),
                rule: f.rule.clone(),
                competition: f.competition.clone(),
                round: f.round,
                url: url.clone(),
                sentence: f.sentence.clone(),
            })
            .collect(),
        prizes: l
            .stored
            .iter()
            .filter(|s| statement.prizes.iter().any(|p| p.number == s.entry.number))
            .map(|s| entry_json(&l.ledger, s))
            .collect(),
        totals: TotalsJson {
            due: t.due.decimal(),
            received: t.received.decimal(),
            refunded: t.refunded.decimal(),
            prizes: t.prizes.decimal(),
            waived: t.waived.decimal(),
            fined: t.fined.decimal(),
            outstanding: t.outstanding.decimal(),
            credit: t.credit.decimal(),
            cash: t.cash().decimal(),
        },
        entries,
        url: ledger_href(&l.league.slug, Some(&l.season.slug)),
    }
}

/// The address, then the token, the league and the table: an address that cannot be read is
/// 400 whoever sends it, and an unknown token learns nothing of the league.
async fn begin(
    state: &AppState,
    headers: &HeaderMap,
    path: Addressed<LeagueAddress>,
    action: Action,
) -> Result<(crate::app::site::LeagueTree, Acting), ApiError> {
    let Path(LeagueAddress { league }) = path.map_err(|e| bad_path(&e))?;
    begin_league(state, headers, &league, action).await
}

/// GT-O2, GT-O3: a season's fee ledger: per school the fee due, paid, refunded and owed; the
/// prize purchases; the totals; every entry with who recorded it and when. For the President
/// and the Treasurer.
#[utoipa::path(get, path = "/api/v1/leagues/{league}/ledger", tag = "ledger",
    params(LeagueAddress, SeasonQuery),
    responses(
        (status = 200, description = "The season's ledger", body = LedgerJson),
        (status = 403, description = "The permission table refuses this token (only the President and the Treasurer read the ledger)", body = ErrorAnswer),
        (status = 404, description = "No such league or season", body = ErrorAnswer),
    ),
    security(("bearer" = [])))]
async fn ledger(
    State(state): State<AppState>,
    headers: HeaderMap,
    path: Addressed<LeagueAddress>,
    query: Result<Query<SeasonQuery>, QueryRejection>,
) -> ApiResult {
    let (tree, _) = begin(&state, &headers, path, Action::ReadLedger).await?;
    let Query(q) = query.map_err(|e| {
        WebError::BadRequest(format!(
            "The query cannot be read ({}); send ?season=2026-27.",
            e.body_text()
        ))
    })?;
    let season = q.season;
    let l = book::load(&state, &tree, season.as_deref()).await?;
    Ok(json_response(StatusCode::OK, &ledger_json(&l)))
}

/// GT-O2: the Treasurer records a payment, a refund, a prize purchase, or a reversal of an
/// entry recorded by mistake (with the reason). Refused (422, each problem with its field) for
/// a school with no team in the season, an amount that is not one (more than two decimals, below
/// zero, zero), a day after today, a refund beyond what the school paid, an entry reversed
/// already. Nothing is edited or deleted.
#[utoipa::path(post, path = "/api/v1/leagues/{league}/ledger", tag = "ledger",
    params(LeagueAddress),
    request_body(content = EntryBody, description = "The entry"),
    responses(
        (status = 201, description = "The stored entry", body = EntryJson),
        (status = 403, description = "The permission table refuses this token (only the Treasurer records)", body = ErrorAnswer),
        (status = 404, description = "No such league or season", body = ErrorAnswer),
        (status = 409, description = "Another entry was recorded meanwhile (nothing was saved; read the ledger again), or the entry repeats one in force with the same school, amount and note (send it again with `confirm_duplicate: true` to record it)", body = ErrorAnswer),
        (status = 422, description = "The body is wrong, or the entry is refused (each problem with its field)", body = InvalidAnswer),
    ),
    security(("bearer" = [])))]
async fn record_entry(
    State(state): State<AppState>,
    headers: HeaderMap,
    path: Addressed<LeagueAddress>,
    bytes: Bytes,
) -> ApiResult {
    let (tree, acting) = begin(&state, &headers, path, Action::RecordLedgerEntry).await?;
    let body: EntryBody = json_body(
        &bytes,
        r#"{"kind": "payment", "school": "Start High School", "amount": "10.00", "on": "2026-10-14", "note": "cheque 1042"}"#,
    )?;
    let l = book::load(&state, &tree, body.season.as_deref()).await?;
    match book::record(&state, &l, &acting, &body.input(), body.confirm_duplicate).await {
        // Just recorded, so nothing reverses it yet: the ledger as read says the rest.
        Ok(stored) => Ok(json_response(
            StatusCode::CREATED,
            &entry_json(&l.ledger, &stored),
        )),
        Err(NotRecorded::Invalid(problems)) => Err(ApiError::invalid_fields(
            problems.into_iter().map(|p| (p.field, p.message)).collect(),
        )),
        Err(NotRecorded::Refused(m)) => Err(ApiError::invalid_fields(vec![(
            "body",
            arbiter_core::record::text::sentence(&m),
        )])),
        Err(NotRecorded::Stale(m) | NotRecorded::Duplicate(m)) => {
            Err(WebError::Conflict(arbiter_core::record::text::sentence(&m)).into())
        }
        Err(NotRecorded::Failed(e)) => Err(e.into()),
    }
}
