//! `arbiter ledger --league L [--season S]`: a season's fee ledger (GT-O2) as the Treasurer
//! reads it: per school the fee due, paid, refunded and what it still owes; the prize
//! purchases; the league's totals. `--format csv` gives the schools' lines for a spreadsheet,
//! `--format json` everything, every entry too. `arbiter ledger record` records an entry, read
//! and checked by core's `Ledger::check` as the site's form is, on the clock's day.

use anyhow::{Result, anyhow, bail};
use arbiter_core::season::fines;
use arbiter_core::season::ledger::{self, EntryInput, Ledger, When};
use arbiter_formats::csv;
use arbiter_store::{Actor, FirstEntryAt, League, LedgerEntry, Season, Store};
use serde_json::{Value, json};

use crate::Format;
use crate::database::{Database, runtime};
use crate::render::truncate;

/// A season's ledger as read from the store.
struct Book {
    league_slug: String,
    league_name: String,
    season: Season,
    ledger: Ledger,
    stored: Vec<LedgerEntry>,
}

/// The league `league` and its season `season` (else its latest), or the sentence saying which
/// is not there and what is.
pub(crate) async fn league_season(
    store: &Store,
    league: &str,
    season: Option<&str>,
) -> Result<(League, Season)> {
    let Some(found) = store.league(league).await?.filter(|l| l.slug == league) else {
        bail!(
            "there is no league `{league}` in this database; `arbiter import FILE --league {league}` stores one"
        );
    };
    let seasons = store.seasons(found.id).await?;
    let chosen = match season {
        Some(slug) => seasons.iter().find(|s| s.slug == slug),
        None => seasons.last(),
    };
    let Some(chosen) = chosen.cloned() else {
        let names: Vec<&str> = seasons.iter().map(|s| s.slug.as_str()).collect();
        bail!(
            "{} has no season {}; its seasons are: {}",
            found.name,
            season.map_or("yet".to_string(), |s| format!("`{s}`")),
            if names.is_empty() {
                "none".to_string()
            } else {
                names.join(", ")
            }
        );
    };
    Ok((found, chosen))
}

/// The league's season `season` (else its latest), with its fees due and entries.
async fn book(store: &Store, league: &str, season: Option<&str>) -> Result<Book> {
    let (found, chosen) = league_season(store, league, season).await?;
    let mut competitions = Vec::new();
    for r in store.competitions(chosen.id).await? {
        let c = store
            .load_competition_by_id(r.id)
            .await?
            .ok_or_else(|| anyhow!("the competition `{}` vanished while it was read", r.slug))?;
        competitions.push(c);
    }
    // Issue 34 item 7: the fines the record assesses under each competition's rules.
    let firsts = store.first_entries(chosen.id).await?;
    let fines = competitions
        .iter()
        .flat_map(|c| {
            let entries = FirstEntryAt::of(&firsts, c.record.id, &found.time_zone);
            fines::assess(&c.competition, &c.rules, &entries)
        })
        .collect();
    let dues = ledger::dues(competitions.iter().map(|c| (&*c.competition, c.rules.fees)))
        .with_fines(fines);
    let stored = store.ledger(found.id, chosen.id).await?;
    let ledger = Ledger::new(dues, stored.iter().map(|e| e.entry.clone()).collect());
    Ok(Book {
        league_slug: found.slug,
        league_name: found.name,
        season: chosen,
        ledger,
        stored,
    })
}

/// `arbiter ledger`: the statement, as a table, CSV or JSON.
pub fn show(league: &str, season: Option<&str>, format: Format, db: &Database) -> Result<()> {
    runtime()?.block_on(async {
        let store = db.open().await?;
        let b = book(&store, league, season).await?;
        print!(
            "{}",
            match format {
                Format::Table => table(&b),
                Format::Csv => statement_csv(&b),
                Format::Json => format!("{:#}\n", statement_json(&b)),
            }
        );
        Ok(())
    })
}

/// What `arbiter ledger record` was asked.
#[derive(Debug, Clone)]
pub struct Record<'a> {
    pub league: &'a str,
    pub season: Option<&'a str>,
    pub input: EntryInput,
}

/// `arbiter ledger record`: one entry, checked by core, kept with its history row.
pub fn record(ask: &Record<'_>, db: &Database) -> Result<()> {
    // The clock is read here, at the edge: an entry's day may not be after it.
    let today = jiff::Timestamp::now()
        .to_zoned_datetime(jiff::tz::TimeZone::UTC)
        .date();
    runtime()?.block_on(async {
        let store = db.open().await?;
        let b = book(&store, ask.league, ask.season).await?;
        let when = When {
            today,
            season: &b.season.name,
            starts: b.season.starts_on,
            ends: b.season.ends_on,
        };
        let entry = match b.ledger.check(&ask.input, &when) {
            Ok(e) => e,
            Err(problems) => {
                for p in &problems {
                    println!("{}: {p}", p.field);
                }
                bail!(
                    "{} problem{} found; nothing was recorded",
                    problems.len(),
                    if problems.len() == 1 { "" } else { "s" }
                );
            }
        };
        let league = store
            .league(ask.league)
            .await?
            .ok_or_else(|| anyhow!("the league `{}` vanished", ask.league))?;
        let kept = store
            .record_ledger_entry(league.id, b.season.id, &entry, &Actor::system())
            .await?;
        let e = &kept.entry;
        eprintln!(
            "entry {} recorded in the {} ledger of {}: {} of {}{}, on {}; it is in the history",
            e.number,
            b.season.name,
            b.league_name,
            e.kind.name().to_lowercase(),
            e.amount,
            e.school
                .as_deref()
                .map_or(String::new(), |s| format!(", {s}")),
            e.on
        );
        Ok(())
    })
}

fn table(b: &Book) -> String {
    let s = b.ledger.statement();
    let mut out = format!(
        "{}, {}: the fee ledger (GT-O2)\n\n",
        b.league_name, b.season.name
    );
    for n in &s.notes {
        out.push_str(n);
        out.push_str("\n\n");
    }
    let width = s
        .schools
        .iter()
        .map(|l| l.school.chars().count())
        .max()
        .unwrap_or(6)
        .clamp(6, 36);
    out.push_str(&format!(
        "{:<width$}  {:>10}  {:>10}  {:>10}  {:>10}  {}\n",
        "School", "Fee due", "Waived", "Paid", "Refunded", "Stands"
    ));
    for l in &s.schools {
        out.push_str(&format!(
            "{:<width$}  {:>10}  {:>10}  {:>10}  {:>10}  {}\n",
            truncate(&l.school, width),
            l.due.to_string(),
            l.waived.to_string(),
            l.paid.to_string(),
            l.refunded.to_string(),
            l.standing()
        ));
    }
    let t = s.totals;
    if !s.fines.is_empty() {
        out.push_str(&format!("\nFines ({} in all)\n", t.fined));
        for f in &s.fines {
            out.push_str(&format!("  {}\n", f.sentence));
        }
    }
    out.push_str(&format!(
        "\nFees due {} · waived {} · received {} · still owed {} · refunds {} · prizes {} · cash {}\n",
        t.due,
        t.waived,
        t.received,
        t.outstanding,
        t.refunded,
        t.prizes,
        t.cash()
    ));
    if t.credit > ledger::Money::ZERO {
        out.push_str(&format!("Owed to schools in credit: {}\n", t.credit));
    }
    if !s.prizes.is_empty() {
        out.push_str("\nPrize purchases\n");
        for e in &s.prizes {
            out.push_str(&format!(
                "  entry {:>3}  {}  {:>10}  {}\n",
                e.number,
                e.on,
                e.amount.to_string(),
                e.note
            ));
        }
    }
    out.push_str(&format!(
        "\n{} entr{} in all; --format json lists each, with who recorded it\n",
        b.stored.len(),
        if b.stored.len() == 1 { "y" } else { "ies" }
    ));
    out
}

fn statement_csv(b: &Book) -> String {
    let mut out = csv::Writer::new();
    out.record([
        "school", "due", "waived", "paid", "refunded", "owes", "standing",
    ]);
    for l in b.ledger.statement().schools {
        out.record([
            l.school.clone(),
            l.due.decimal(),
            l.waived.decimal(),
            l.paid.decimal(),
            l.refunded.decimal(),
            l.owes().decimal(),
            l.standing(),
        ]);
    }
    out.finish()
}

/// The same fields as the API's `GET /api/v1/leagues/{league}/ledger`.
fn statement_json(b: &Book) -> Value {
    let s = b.ledger.statement();
    let t = s.totals;
    let entry = |e: &LedgerEntry| {
        let x = &e.entry;
        json!({
            "number": x.number,
            "kind": x.kind.code(),
            "school": x.school,
            "amount": x.amount.decimal(),
            "on": x.on.to_string(),
            "note": x.note,
            "reverses": x.reverses,
            "reversed_by": b.ledger.reversal_of(x.number).map(|r| r.number),
            "in_force": b.ledger.in_force(x),
            "recorded_by": e.recorded_by,
            "recorded_role": e.recorded_role.map(|r| r.code()),
            "recorded_at": e.recorded_at.to_string(),
        })
    };
    json!({
        "league": b.league_slug,
        "season": {"slug": b.season.slug, "name": b.season.name},
        "entry_fee": b.ledger.dues().fee.map(|f| f.decimal()),
        "notes": s.notes,
        "schools": s.schools.iter().map(|l| json!({
            "school": l.school,
            "due": l.due.decimal(),
            "paid": l.paid.decimal(),
            "refunded": l.refunded.decimal(),
            "waived": l.waived.decimal(),
            "fined": l.fined.decimal(),
            "owes": l.owes().decimal(),
            "standing": l.standing(),
        })).collect::<Vec<_>>(),
        "fines": s.fines.iter().map(|f| json!({
            "school": f.school,
            "kind": f.kind.code(),
            "amount": f.amount.decimal(),
            "rule": f.rule,
            "competition": f.competition,
            "round": f.round,
            "sentence": f.sentence,
        })).collect::<Vec<_>>(),
        "prizes": b.stored.iter()
            .filter(|e| s.prizes.iter().any(|p| p.number == e.entry.number))
            .map(entry)
            .collect::<Vec<_>>(),
        "totals": {
            "due": t.due.decimal(),
            "received": t.received.decimal(),
            "refunded": t.refunded.decimal(),
            "prizes": t.prizes.decimal(),
            "waived": t.waived.decimal(),
            "fined": t.fined.decimal(),
            "outstanding": t.outstanding.decimal(),
            "credit": t.credit.decimal(),
            "cash": t.cash().decimal(),
        },
        "entries": b.stored.iter().map(entry).collect::<Vec<_>>(),
    })
}
