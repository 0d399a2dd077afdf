//! The Treasurer's fee ledger (GT-O2, issue 12, part 7): per school the entry fee due, its
//! payments and refunds and what it still owes; the prize purchases; the league's totals; and
//! every entry with who recorded it and when. The President and the Treasurer read it; the
//! Treasurer records payments, refunds, prize purchases and reversals of mistaken entries
//! (GT-O3). Nothing is edited or deleted.
//!
//! [`load`] is the one reading of a season's ledger and [`record`] the one write path, for the
//! page's form (`page`), the CSV (`csv`) and the API (`api::ledger`): core's `ledger::dues` and
//! `Ledger::check` decide, the store keeps.

pub mod csv;
pub mod page;

use arbiter_core::season::fines;
use arbiter_core::season::ledger::{self, EntryInput, Ledger, Problem, When};
use arbiter_store::{FirstEntryAt, League, LedgerEntry, Season, StoreError};

use crate::app::site::LeagueTree;
use crate::app::state::AppState;
use crate::http::auth::Acting;
use crate::http::error::WebError;
use crate::ui::link::{Link, league_href};
use crate::ui::words::{self, segment};

/// One season's ledger as read: core's [`Ledger`] (the fees due from the season's rules and
/// teams, the entries) and the entries as stored, with who recorded each and when.
#[derive(Debug)]
pub struct SeasonLedger {
    pub league: League,
    pub season: Season,
    /// The league's seasons, oldest first, to choose another.
    pub seasons: Vec<Season>,
    pub ledger: Ledger,
    pub stored: Vec<LedgerEntry>,
    /// The match page of each of the ledger's fines, in the order of `ledger.dues().fines`.
    pub fine_matches: Vec<String>,
}

/// `/leagues/{league}/ledger`, for `season` when given.
pub fn ledger_href(league: &str, season: Option<&str>) -> String {
    let base = format!("{}/ledger", league_href(league));
    match season {
        Some(s) => format!("{base}?season={}", segment(s)),
        None => base,
    }
}

/// The ledger of `tree`'s season called `season`, or of the season being played; 404 (with the
/// seasons) for a season it does not have.
pub async fn load(
    state: &AppState,
    tree: &LeagueTree,
    season: Option<&str>,
) -> Result<SeasonLedger, WebError> {
    let chosen = match season.map(str::trim).filter(|s| !s.is_empty()) {
        Some(slug) => tree.seasons.iter().find(|(s, _)| s.slug == slug),
        // Issue 32 item 11: the season being played, not the newest one created.
        None => tree.season_now(state).or(tree.seasons.last()),
    };
    let Some((season, records)) = chosen else {
        let links = tree
            .seasons
            .iter()
            .map(|(s, _)| Link::new(ledger_href(&tree.league.slug, Some(&s.slug)), &s.name))
            .collect();
        let message = match season {
            Some(slug) => format!(
                "{} has no season “{slug}”, so no ledger of it. Its seasons' ledgers are listed below.",
                tree.league.name
            ),
            None => format!(
                "{} has no season yet, so no ledger: the fees are owed by the schools of a season.",
                tree.league.name
            ),
        };
        return Err(WebError::NotFound { message, links });
    };
    let mut views = Vec::new();
    for r in records {
        views.push(state.view(&tree.league.slug, &season.slug, &r.slug).await?);
    }
    // Issue 34 item 7: the fines the season's record assesses, late results counted from the
    // day (in the league's time zone) a team's advisor first entered them.
    let firsts = state.store().first_entries(season.id).await?;
    let zone = &tree.league.time_zone;
    let mut assessed = Vec::new();
    let mut fine_matches = Vec::new();
    for v in &views {
        let entries = FirstEntryAt::of(&firsts, v.id, zone);
        for fine in fines::assess(&v.competition, &v.rules, &entries) {
            fine_matches.push(v.match_href(fine.round, &fine.home));
            assessed.push(fine);
        }
    }
    let dues =
        ledger::dues(views.iter().map(|v| (&*v.competition, v.rules.fees))).with_fines(assessed);
    let stored = state.store().ledger(tree.league.id, season.id).await?;
    let ledger = Ledger::new(dues, stored.iter().map(|e| e.entry.clone()).collect());
    Ok(SeasonLedger {
        league: tree.league.clone(),
        season: season.clone(),
        seasons: tree.seasons.iter().map(|(s, _)| s.clone()).collect(),
        ledger,
        stored,
        fine_matches,
    })
}

/// Why an entry was not recorded.
#[derive(Debug)]
pub enum NotRecorded {
    /// Core's reading of the entry: every problem with its field.
    Invalid(Vec<Problem>),
    /// Another entry came in after the ledger was read: nothing was written.
    Stale(String),
    /// The same kind, school, amount and note as an entry in force (GT-O2): the sentence that
    /// asks whether to record it again, which a confirmation (`confirm_duplicate`) answers.
    Duplicate(String),
    /// The store refused it as given.
    Refused(String),
    Failed(WebError),
}

/// The one write path of the ledger: core's `Ledger::check` on the day the state says is today,
/// then the store, which keeps the entry and its history row together. An entry that repeats
/// one in force (core's `Ledger::repeated_by`) is recorded only when `confirmed`.
pub async fn record(
    state: &AppState,
    l: &SeasonLedger,
    acting: &Acting,
    input: &EntryInput,
    confirmed: bool,
) -> Result<LedgerEntry, NotRecorded> {
    let when = When {
        today: state.today_in(&l.league.time_zone),
        season: &l.season.name,
        starts: l.season.starts_on,
        ends: l.season.ends_on,
    };
    let entry = l.ledger.check(input, &when).map_err(NotRecorded::Invalid)?;
    if !confirmed
        && let Some(first) = l.ledger.repeated_by(&entry)
        && let Some(stored) = l.stored.iter().find(|s| s.entry.number == first.number)
    {
        let school = first
            .school
            .as_deref()
            .map_or(String::new(), |s| format!(" for {s}"));
        return Err(NotRecorded::Duplicate(format!(
            "An entry of {}{school} with this note was already made on {} by {} (entry {}); enter it again?",
            first.amount,
            words::timestamp_in(stored.recorded_at, &l.league.time_zone),
            recorded(stored),
            first.number
        )));
    }
    match state
        .store()
        .record_ledger_entry(l.league.id, l.season.id, &entry, &acting.actor())
        .await
    {
        Ok(stored) => {
            state.invalidate();
            Ok(stored)
        }
        Err(StoreError::Stale(m)) => Err(NotRecorded::Stale(m)),
        Err(StoreError::Invalid(m) | StoreError::Conflict(m)) => Err(NotRecorded::Refused(m)),
        Err(e) => Err(NotRecorded::Failed(WebError::from_write(e))),
    }
}

/// Who recorded an entry and when, as the page and the CSV say it.
pub fn recorded(e: &LedgerEntry) -> String {
    let who = e.recorded_by.as_deref().unwrap_or("the command line");
    match e.recorded_role {
        Some(r) => format!("{who} ({})", r.name()),
        None => who.to_string(),
    }
}
