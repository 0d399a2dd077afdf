//! The ledger's page and its form: GET `/leagues/{league}/ledger` (`?season=`, default the
//! latest) and POST to it, which records an entry, or shows the page again with every problem
//! and the form as it was filled in.

use arbiter_core::rules::permissions::Action;
use arbiter_core::season::ledger::{EntryInput, EntryKind, Money};
use askama::Template;
use axum::Form;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::Response;
use serde::Deserialize;

use crate::app::respond::{private, see_other};
use crate::app::site::{self, LeagueTree};
use crate::app::state::AppState;
use crate::http::auth::{self, Acting, Auth};
use crate::http::csrf;
use crate::http::error::{Format, WebError};
use crate::ledger::{NotRecorded, SeasonLedger, ledger_href, load, record, recorded};
use crate::ui::layout::{Layout, private_layout};
use crate::ui::link::{Link, league_href};
use crate::ui::words;

struct Choice {
    value: String,
    label: String,
    selected: bool,
}

struct SchoolRow {
    school: String,
    due: String,
    paid: String,
    refunded: String,
    /// What was waived of its fee and fines, when anything was.
    waived: Option<String>,
    /// Its fines, when it has any.
    fined: Option<String>,
    standing: String,
    owes: bool,
}

struct TotalsView {
    due: String,
    received: String,
    refunded: String,
    prizes: String,
    waived: Option<String>,
    fined: Option<String>,
    outstanding: String,
    credit: Option<String>,
    cash: String,
}

/// A fine the record assesses (`[fines]`): the sentence, and the match it follows.
struct FineRow {
    sentence: String,
    href: String,
}

struct PrizeRow {
    number: u32,
    on: String,
    amount: String,
    note: String,
}

struct EntryRow {
    number: u32,
    on: String,
    kind: &'static str,
    school: String,
    amount: String,
    note: String,
    recorded: String,
    at: String,
    /// `Reverses entry 3`, `Reversed by entry 5`.
    link: Option<(String, u32)>,
    in_force: bool,
    /// The form to reverse it, for the Treasurer: the day, the reason, and what was refused.
    reverse: Option<ReverseForm>,
}

struct ReverseForm {
    on: String,
    note: String,
    problems: Vec<String>,
    open: bool,
}

/// The form to record an entry, as filled in.
struct EntryForm {
    /// GT-O2: the entry repeats one in force; the question, and the fields to send again.
    duplicate: Option<(String, Vec<(&'static str, String)>)>,
    kinds: Vec<Choice>,
    schools: Vec<Choice>,
    amount: String,
    on: String,
    note: String,
    problems: Vec<String>,
}

#[derive(Template)]
#[template(path = "ledger/ledger.html", whitespace = "minimize")]
struct LedgerPage {
    layout: Layout,
    csrf: String,
    action: String,
    season_slug: String,
    season_name: String,
    others: Vec<Link>,
    csv_href: String,
    api_href: String,
    fee: String,
    notes: Vec<String>,
    schools: Vec<SchoolRow>,
    totals: TotalsView,
    /// The season's fines (`[fines]`), each with its match.
    fines: Vec<FineRow>,
    prizes: Vec<PrizeRow>,
    entries: Vec<EntryRow>,
    form: Option<EntryForm>,
    notice: Option<String>,
    problem: Option<String>,
}

/// `?season=2026-27` and, after a write, `&recorded=5`: the entry just recorded.
#[derive(Debug, Default, Deserialize)]
pub struct LedgerQuery {
    #[serde(default)]
    pub season: Option<String>,
    #[serde(default)]
    pub recorded: Option<u32>,
}

/// The form: the season, and an entry as typed.
#[derive(Debug, Default, Deserialize)]
pub struct EntryFields {
    #[serde(default)]
    season: String,
    #[serde(default)]
    kind: String,
    #[serde(default)]
    school: String,
    #[serde(default)]
    amount: String,
    #[serde(default)]
    on: String,
    #[serde(default)]
    note: String,
    #[serde(default)]
    reverses: String,
    /// Present when the Treasurer confirms an entry that repeats one in force (GT-O2).
    #[serde(default)]
    confirm_duplicate: Option<String>,
}

impl EntryFields {
    fn input(&self) -> EntryInput {
        EntryInput {
            kind: self.kind.clone(),
            school: self.school.clone(),
            amount: self.amount.clone(),
            on: self.on.clone(),
            note: self.note.clone(),
            reverses: self.reverses.clone(),
        }
    }
}

/// What the page shows besides the ledger: a refused entry with its problems, a notice.
#[derive(Default)]
struct Shown<'a> {
    fields: Option<&'a EntryFields>,
    problems: Vec<String>,
    notice: Option<String>,
    problem: Option<String>,
    /// GT-O2: the sentence asking whether to record again an entry made already.
    duplicate: Option<String>,
}

async fn guard(
    state: &AppState,
    auth: &Auth,
    league: &str,
    action: Action,
) -> Result<(LeagueTree, Acting), WebError> {
    site::league_officer(state, auth, league, action).await
}

fn money(m: Money) -> String {
    m.to_string()
}

async fn page(
    state: &AppState,
    auth: &Auth,
    l: &SeasonLedger,
    shown: Shown<'_>,
    status: StatusCode,
) -> Result<Response, WebError> {
    let may_record = auth::may_in_league(auth, l.league.id, Action::RecordLedgerEntry);
    let today = state.today_in(&l.league.time_zone).to_string();
    let statement = l.ledger.statement();
    let t = statement.totals;
    let filled = shown.fields;
    // A refused reversal is shown at its entry, when that entry still offers its form; any
    // other refusal at the form.
    let reversing = filled
        .filter(|f| EntryKind::from_code(&f.kind) == Some(EntryKind::Reversal))
        .and_then(|f| {
            f.reverses
                .trim()
                .trim_start_matches('#')
                .parse::<u32>()
                .ok()
        })
        .filter(|n| l.ledger.entry(*n).is_some_and(|e| l.ledger.in_force(e)));
    let entries = l
        .stored
        .iter()
        .rev()
        .map(|s| {
            let e = &s.entry;
            let in_force = l.ledger.in_force(e);
            let link = match (e.reverses, l.ledger.reversal_of(e.number)) {
                (Some(n), _) => Some(("Reverses entry".to_string(), n)),
                (None, Some(r)) => Some(("Reversed by entry".to_string(), r.number)),
                (None, None) => None,
            };
            let here = reversing == Some(e.number);
            EntryRow {
                number: e.number,
                on: words::date(e.on),
                kind: e.kind.name(),
                school: e.school.clone().unwrap_or_default(),
                amount: money(e.amount),
                note: e.note.clone(),
                recorded: recorded(s),
                at: words::timestamp(s.recorded_at),
                link,
                in_force,
                reverse: (may_record && in_force).then(|| ReverseForm {
                    on: filled
                        .filter(|_| here)
                        .map_or(today.clone(), |f| f.on.clone()),
                    note: filled
                        .filter(|_| here)
                        .map_or(String::new(), |f| f.note.clone()),
                    problems: if here {
                        shown.problems.clone()
                    } else {
                        Vec::new()
                    },
                    open: here,
                }),
            }
        })
        .collect();
    let form = may_record.then(|| {
        let f = filled.filter(|_| reversing.is_none());
        let kind = f.map_or("payment", |f| f.kind.as_str());
        let school = f.map_or("", |f| f.school.as_str());
        EntryForm {
            duplicate: shown.duplicate.clone().zip(f).map(|(question, f)| {
                let fields = [
                    ("kind", &f.kind),
                    ("school", &f.school),
                    ("amount", &f.amount),
                    ("on", &f.on),
                    ("note", &f.note),
                ];
                (
                    question,
                    fields.into_iter().map(|(k, v)| (k, v.clone())).collect(),
                )
            }),
            kinds: EntryKind::RECORDED
                .iter()
                .map(|k| Choice {
                    value: k.code().to_string(),
                    label: k.name().to_string(),
                    selected: EntryKind::from_code(kind) == Some(*k),
                })
                .collect(),
            schools: l
                .ledger
                .schools()
                .map(|s| Choice {
                    value: s.to_string(),
                    label: s.to_string(),
                    selected: s == school,
                })
                .collect(),
            amount: f.map_or(String::new(), |f| f.amount.clone()),
            on: f.map_or(today.clone(), |f| f.on.clone()),
            note: f.map_or(String::new(), |f| f.note.clone()),
            problems: if reversing.is_none() {
                shown.problems.clone()
            } else {
                Vec::new()
            },
        }
    });
    let others = l
        .seasons
        .iter()
        .filter(|s| s.id != l.season.id)
        .map(|s| Link::new(ledger_href(&l.league.slug, Some(&s.slug)), &s.name))
        .collect();
    let season = Some(l.season.slug.as_str());
    let page = LedgerPage {
        layout: private_layout(
            &format!("Fee ledger: {}, {}", l.league.name, l.season.name),
            vec![Link::new(league_href(&l.league.slug), &l.league.name)],
        ),
        csrf: csrf::session_token(&auth.session).await?,
        action: ledger_href(&l.league.slug, None),
        season_slug: l.season.slug.clone(),
        season_name: l.season.name.clone(),
        others,
        csv_href: format!(
            "{}.csv?season={}",
            ledger_href(&l.league.slug, None),
            words::segment(&l.season.slug)
        ),
        api_href: format!(
            "/api/v1{}",
            ledger_href(&l.league.slug, season)
        ),
        fee: match l.ledger.dues().fee {
            Some(f) if f > Money::ZERO => format!(
                "The entry fee is {f} a school, once however many teams it enters (GT-O2)."
            ),
            Some(_) => "The season's rules set no entry fee to pay (GT-O2).".to_string(),
            None if statement.notes.is_empty() => {
                "The season's rules set no entry fee (their `[fees]`), so no school owes one (GT-O2).".to_string()
            }
            None => "A school owes the entry fee once, however many teams it enters (GT-O2).".to_string(),
        },
        notes: statement.notes.clone(),
        schools: statement
            .schools
            .iter()
            .map(|s| SchoolRow {
                school: s.school.clone(),
                due: money(s.due),
                paid: money(s.paid),
                refunded: money(s.refunded),
                waived: (s.waived > Money::ZERO).then(|| money(s.waived)),
                fined: (s.fined > Money::ZERO).then(|| money(s.fined)),
                standing: s.standing(),
                owes: s.owes() > Money::ZERO,
            })
            .collect(),
        totals: TotalsView {
            due: money(t.due),
            received: money(t.received),
            refunded: money(t.refunded),
            prizes: money(t.prizes),
            waived: (t.waived > Money::ZERO).then(|| money(t.waived)),
            fined: (t.fined > Money::ZERO).then(|| money(t.fined)),
            outstanding: money(t.outstanding),
            credit: (t.credit > Money::ZERO).then(|| money(t.credit)),
            cash: money(t.cash()),
        },
        fines: statement
            .fines
            .iter()
            .zip(&l.fine_matches)
            .map(|(f, href)| FineRow {
                sentence: f.sentence.clone(),
                href: href.clone(),
            })
            .collect(),
        prizes: statement
            .prizes
            .iter()
            .map(|e| PrizeRow {
                number: e.number,
                on: words::date(e.on),
                amount: money(e.amount),
                note: e.note.clone(),
            })
            .collect(),
        entries,
        form,
        notice: shown.notice,
        problem: shown.problem,
    };
    Ok(private(status, &page))
}

/// GET `/leagues/{league}/ledger`: the statement, the prize purchases, the totals and every
/// entry; for the Treasurer, the form to record one.
pub async fn ledger_page(
    State(state): State<AppState>,
    auth: Auth,
    Path(league): Path<String>,
    query: Result<Query<LedgerQuery>, QueryRejection>,
) -> Response {
    let answer = async {
        let (tree, _) = guard(&state, &auth, &league, Action::ReadLedger).await?;
        // An unreadable `recorded` only loses the notice.
        let q = query.map(|Query(q)| q).unwrap_or_default();
        let l = load(&state, &tree, q.season.as_deref()).await?;
        let notice = q
            .recorded
            .and_then(|n| l.stored.iter().find(|e| e.entry.number == n))
            .map(|e| {
                let e = &e.entry;
                let what = match (&e.school, e.kind) {
                    (Some(s), EntryKind::Waiver) => format!("{} of {s}'s fee waived", e.amount),
                    (Some(s), EntryKind::Refund) => format!("refund of {} to {s}", e.amount),
                    (Some(s), k) => format!("{} of {} from {s}", k.name().to_lowercase(), e.amount),
                    (None, k) => format!("{} of {}", k.name().to_lowercase(), e.amount),
                };
                format!(
                    "Entry {} is recorded: {what}, on {}. It is in the history.",
                    e.number,
                    words::date(e.on)
                )
            });
        page(
            &state,
            &auth,
            &l,
            Shown {
                notice,
                ..Shown::default()
            },
            StatusCode::OK,
        )
        .await
    };
    answer
        .await
        .unwrap_or_else(|e: WebError| e.answer(Format::Html))
}

/// POST `/leagues/{league}/ledger`: the Treasurer records an entry (a reversal names the entry
/// it undoes); back to the ledger at the entry, or the page again with every problem and the
/// form as filled in.
pub async fn record_entry(
    State(state): State<AppState>,
    auth: Auth,
    Path(league): Path<String>,
    Form(f): Form<EntryFields>,
) -> Response {
    let answer = async {
        let (tree, acting) = guard(&state, &auth, &league, Action::RecordLedgerEntry).await?;
        let l = load(&state, &tree, Some(&f.season)).await?;
        let refused = |problems: Vec<String>| Shown {
            fields: Some(&f),
            problems,
            ..Shown::default()
        };
        let confirmed = f.confirm_duplicate.is_some();
        match record(&state, &l, &acting, &f.input(), confirmed).await {
            Ok(stored) => Ok(see_other(&format!(
                "{}&recorded={n}#entry-{n}",
                ledger_href(&tree.league.slug, Some(&l.season.slug)),
                n = stored.entry.number
            ))),
            Err(NotRecorded::Invalid(problems)) => {
                let problems = problems.into_iter().map(|p| p.message).collect();
                page(
                    &state,
                    &auth,
                    &l,
                    refused(problems),
                    StatusCode::UNPROCESSABLE_ENTITY,
                )
                .await
            }
            Err(NotRecorded::Duplicate(m)) => {
                page(
                    &state,
                    &auth,
                    &l,
                    Shown {
                        duplicate: Some(m),
                        ..refused(Vec::new())
                    },
                    StatusCode::CONFLICT,
                )
                .await
            }
            Err(NotRecorded::Refused(m)) => {
                let problems = vec![arbiter_core::record::text::sentence(&m)];
                page(
                    &state,
                    &auth,
                    &l,
                    refused(problems),
                    StatusCode::UNPROCESSABLE_ENTITY,
                )
                .await
            }
            Err(NotRecorded::Stale(m)) => {
                // Read again: the entry that came in first is on the page now.
                let fresh = load(&state, &tree, Some(&l.season.slug)).await?;
                page(
                    &state,
                    &auth,
                    &fresh,
                    Shown {
                        fields: Some(&f),
                        problem: Some(arbiter_core::record::text::sentence(&m)),
                        ..Shown::default()
                    },
                    StatusCode::CONFLICT,
                )
                .await
            }
            Err(NotRecorded::Failed(e)) => Err(e),
        }
    };
    answer
        .await
        .unwrap_or_else(|e: WebError| e.answer(Format::Html))
}
