//! `arbiter schedule suspend`: GT-F5, the schedule of a season suspended for severe weather and
//! resumed. Core's `suspend::plan` shifts every match still to play from the first day by the
//! match days lost; this prints the plan, or every reason it cannot be, and (without
//! `--preview`) moves the matches in one transaction, each with GT-F5's reason in its history.
//! With `--undo`, a suspension applied before is undone through the site's write path.

use anyhow::{Result, anyhow, bail};
use arbiter_core::season::suspend::{self, Division, Suspension};
use arbiter_store::{Actor, MatchMove, StoredCompetition};
use jiff::civil::Date;

use crate::database::{Database, runtime};

/// What `arbiter schedule suspend` was asked.
#[derive(Debug, Clone)]
pub struct Asked<'a> {
    pub league: &'a str,
    pub season: &'a str,
    pub from: Date,
    pub resume_on: Date,
    pub reason: Option<&'a str>,
    pub preview: bool,
}

/// `arbiter schedule suspend`: the plan printed; the matches moved unless `--preview`.
pub fn suspend(ask: &Asked<'_>, db: &Database) -> Result<()> {
    runtime()?.block_on(async {
        let store = db.open().await?;
        let Some(league) = store
            .league(ask.league)
            .await?
            .filter(|l| l.slug == ask.league)
        else {
            bail!(
                "there is no league `{}` in this database; `arbiter league create` makes one",
                ask.league
            );
        };
        let seasons = store.seasons(league.id).await?;
        let Some(season) = seasons.iter().find(|s| s.slug == ask.season) else {
            let names: Vec<&str> = seasons.iter().map(|s| s.slug.as_str()).collect();
            bail!(
                "{} has no season `{}`; its seasons are: {}",
                league.name,
                ask.season,
                if names.is_empty() {
                    "none".to_string()
                } else {
                    names.join(", ")
                }
            );
        };
        let Some(calendar) = store.school_calendar(season).await? else {
            bail!(
                "the season {} has no first and last days, so its match days are not known and no match can be shifted (GT-F5); give them to the season first",
                season.name
            );
        };
        let mut stored: Vec<StoredCompetition> = Vec::new();
        for r in store.competitions(season.id).await? {
            stored.push(store.load_competition_by_id(r.id).await?.ok_or_else(|| {
                anyhow!("the competition `{}` vanished while it was read", r.slug)
            })?);
        }
        let divisions: Vec<Division<'_>> = stored
            .iter()
            .map(|s| Division {
                competition: &s.competition,
                rules: &s.rules,
            })
            .collect();
        let suspension = Suspension {
            from: ask.from,
            resume_on: ask.resume_on,
        };
        let mut problems = Vec::new();
        let reason = if ask.preview {
            None
        } else {
            suspension
                .reason(ask.reason.unwrap_or_default())
                .map_err(|e| problems.push(e))
                .ok()
        };
        let plan = suspend::plan(&divisions, &calendar, suspension)
            .map_err(|found| problems.extend(found))
            .ok();
        let Some(plan) = plan.filter(|_| problems.is_empty()) else {
            for p in &problems {
                println!("{p}");
            }
            bail!(
                "{} problem{} found; nothing was moved",
                problems.len(),
                if problems.len() == 1 { "" } else { "s" }
            );
        };
        for (s, lost) in stored.iter().zip(&plan.match_days_lost) {
            println!(
                "{}: {lost} match day{} lost (GT-F5)",
                s.record.name,
                if *lost == 1 { "" } else { "s" }
            );
        }
        let mut moves = Vec::new();
        for m in &plan.shifts {
            let s = &stored[m.division];
            let c = &s.competition;
            println!(
                "{}, round {}, {} v {}: {} -> {}",
                s.record.name,
                m.round,
                c.team_name(&m.home),
                c.team_name(&m.away),
                m.from,
                m.to
            );
            let id = s
                .match_id(m.round, &m.home)
                .ok_or_else(|| anyhow!("round {} of {} is not in the store", m.round, s.record.name))?;
            moves.push(MatchMove {
                id,
                to: m.to,
                start: m.start,
            });
        }
        for m in &plan.played {
            let s = &stored[m.division];
            println!(
                "{}, round {}, {} v {}: {} stays, it has a result",
                s.record.name,
                m.round,
                &s.competition.team_name(&m.home),
                &s.competition.team_name(&m.away),
                m.on
            );
        }
        if let Some(last) = plan.season_ends_on {
            println!(
                "{}: the last matches move past the season's last day ({}), so the season runs on to {last} (GT-F5)",
                season.name,
                season
                    .ends_on
                    .map_or_else(|| "not set".to_string(), |d| d.to_string())
            );
        }
        let Some(reason) = reason else {
            eprintln!(
                "{} match{} would move; --preview: nothing was moved",
                moves.len(),
                if moves.len() == 1 { "" } else { "es" }
            );
            return Ok(());
        };
        let seen: Vec<_> = stored.iter().map(|s| (s.record.id, s.version)).collect();
        store
            .move_matches(
                &moves,
                &seen,
                plan.season_ends_on.map(|last| (season.id, last)),
                reason.as_str(),
                &Actor::system(),
            )
            .await?;
        eprintln!(
            "{} match{} moved, each with the reason in its history; the command line mails no one, so tell the schools (the site's suspension page mails both schools of each match)",
            moves.len(),
            if moves.len() == 1 { "" } else { "es" }
        );
        Ok(())
    })
}

/// What `arbiter schedule suspend --undo` was asked.
#[derive(Debug, Clone)]
pub struct Undo<'a> {
    pub league: &'a str,
    pub season: &'a str,
    pub from: Date,
    pub resume_on: Date,
    pub reason: &'a str,
    /// The account that acts.
    pub by: &'a str,
}

/// `arbiter schedule suspend --undo`: GT-F5's suspension of those days undone as the account
/// `by`, through the site's write path; each match moved back printed.
pub fn undo(ask: &Undo<'_>, db: &Database) -> Result<()> {
    runtime()?.block_on(async {
        let store = db.open().await?;
        let state = arbiter_web::AppState::new(store);
        let back = arbiter_web::undo_suspension_as(
            &state,
            ask.by,
            (ask.league, ask.season),
            (ask.from, ask.resume_on),
            ask.reason,
        )
        .await
        .map_err(|why| anyhow!("{why}\nNothing was moved."))?;
        for line in &back {
            println!("{line}");
        }
        state.mail_sent().await;
        eprintln!(
            "{} match{} moved back, each with the reason in its history (GT-F5)",
            back.len(),
            if back.len() == 1 { "" } else { "es" }
        );
        Ok(())
    })
}
