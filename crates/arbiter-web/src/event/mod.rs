//! An ASTC event's days (issue 14): the arbiter sets the event (AS-1: its name, host state,
//! venue and the hall's clock) and when each round of each competition starts (AS-3, AS-19's
//! rounds); the lineup deadline (AS-11) is counted from those times by the hall's clock.
//! `prepare` reads what was sent and asks core's `event::Event` whether it is an event; `set`
//! is the one write path of the page and the CLI.

pub mod field;
pub mod page;
pub mod protests;
pub mod today;

use std::sync::Arc;

use arbiter_core::event::field::State as Host;
use arbiter_core::event::{Championship, Event, EventCompetition};
use arbiter_store::{EventRecord, EventRoundStart, NewEvent, StoreError};
use jiff::civil::DateTime;

use crate::app::site::LeagueTree;
use crate::app::state::AppState;
use crate::app::view::CompetitionView;
use crate::http::auth::Acting;
use crate::http::error::WebError;
use crate::ui::link::Link;

/// A season's event as the page reads it: its competitions, and the event in force.
pub struct SeasonEvent {
    pub league: arbiter_store::League,
    pub season: arbiter_store::Season,
    pub competitions: Vec<Arc<CompetitionView>>,
    pub event: Option<EventRecord>,
}

/// The season's competitions and event.
pub async fn load(
    state: &AppState,
    tree: &LeagueTree,
    season: &str,
) -> Result<SeasonEvent, WebError> {
    let Some((found, records)) = tree.seasons.iter().find(|(s, _)| s.slug == season) else {
        return Err(WebError::NotFound {
            message: format!(
                "{} has no season “{season}”, so it has no event to set. Its seasons are below.",
                tree.league.name
            ),
            links: tree
                .seasons
                .iter()
                .map(|(s, _)| Link::new(event_href(&tree.league.slug, &s.slug), &s.name))
                .collect(),
        });
    };
    let mut competitions = Vec::new();
    for r in records {
        competitions.push(state.view(&tree.league.slug, &found.slug, &r.slug).await?);
    }
    Ok(SeasonEvent {
        league: tree.league.clone(),
        season: found.clone(),
        competitions,
        event: state.store().event(found.id).await?,
    })
}

/// The event page's address.
pub fn event_href(league: &str, season: &str) -> String {
    format!("{}/event", crate::ui::link::season_href(league, season))
}

/// The event as a form or a command sends it: times as `YYYY-MM-DDTHH:MM` in the hall's time,
/// the offset as `+10:30`.
#[derive(Debug, Clone, Default)]
pub struct EventInput {
    pub name: String,
    pub host: String,
    pub venue: String,
    pub utc_offset: String,
    /// Each competition's round starts, round 1 first, by competition id; empty text for a
    /// round not set.
    pub starts: Vec<(arbiter_store::CompetitionId, Vec<String>)>,
}

/// What was sent read and checked by core's `event::Event` (AS-1..AS-3), or every problem.
pub fn prepare(s: &SeasonEvent, input: &EventInput) -> Result<NewEvent, Vec<String>> {
    let mut problems = Vec::new();
    let host = Host::parse(input.host.trim())
        .map_err(|e| problems.push(e))
        .ok();
    let offset = parse_offset(&input.utc_offset)
        .map_err(|e| problems.push(e))
        .ok();
    let mut rounds = Vec::new();
    let mut competitions = Vec::new();
    for (id, starts) in &input.starts {
        let Some(view) = s.competitions.iter().find(|c| c.id == *id) else {
            problems.push(format!(
                "competition {id} is not of the season {}; reload the page",
                s.season.name
            ));
            continue;
        };
        let name = &view.record.name;
        let mut times = Vec::new();
        for (n, text) in (1_u32..).zip(starts) {
            let text = text.trim();
            if text.is_empty() {
                continue;
            }
            match text.parse::<DateTime>() {
                Ok(t) => {
                    times.push(t);
                    rounds.push(EventRoundStart {
                        competition: *id,
                        round: n,
                        starts_at: t,
                    });
                }
                Err(_) => problems.push(format!(
                    "{name}, round {n}: “{text}” is not a day and time; write it as 2026-12-07T09:30"
                )),
            }
        }
        if times.len() != starts.iter().filter(|t| !t.trim().is_empty()).count() {
            continue;
        }
        if !times.is_empty() && times.len() < starts.len() {
            problems.push(format!(
                "{name}: give every round's start or none ({} of {} given)",
                times.len(),
                starts.len()
            ));
            continue;
        }
        // Core checks the days of a championship the by-law names (AS-2, AS-3).
        // "ASTC 2026, Secondary Open" names its championship last.
        let championship = Championship::parse(name).or_else(|e| {
            Championship::parse(name.rsplit(',').next().unwrap_or(name)).map_err(|_| e)
        });
        if let (Ok(championship), Some(first), Some(last)) =
            (championship, times.iter().min(), times.iter().max())
        {
            competitions.push(EventCompetition {
                championship,
                first_day: first.date(),
                last_day: last.date(),
                rounds: times,
            });
        }
    }
    let clock = s
        .competitions
        .iter()
        .find_map(|c| c.rules.time_control.clone());
    if let (Some(host), Some(clock)) = (host, clock.clone())
        && !competitions.is_empty()
        && let Err(mut found) = Event::new(&input.name, host, &input.venue, clock, competitions)
    {
        problems.append(&mut found);
    }
    if clock.is_none() {
        problems.push(
            "AS-1: the competitions' rules give no time control, and every sheet prints it; set `[time_control]` in the ruleset".into(),
        );
    }
    for (what, text) in [
        ("the event's name", &input.name),
        ("the venue", &input.venue),
    ] {
        if text.trim().is_empty() && !problems.iter().any(|p| p.contains(what)) {
            problems.push(format!("{what} is blank; give it, as sheets print it"));
        }
    }
    match (host, offset) {
        (Some(host), Some(utc_offset_minutes)) if problems.is_empty() => Ok(NewEvent {
            name: input.name.trim().to_string(),
            host,
            venue: input.venue.trim().to_string(),
            utc_offset_minutes,
            rounds,
        }),
        _ => Err(problems),
    }
}

/// `+10:30` as minutes east of UTC (630); the offsets the world uses, -12:00 to +14:00.
pub fn parse_offset(text: &str) -> Result<i32, String> {
    let t = text.trim();
    let bad = || {
        format!(
            "“{t}” is not an offset from UTC; write the hall's offset as +10:30 (Adelaide in December) or -05:00"
        )
    };
    let (sign, rest) = match t.chars().next() {
        Some('+') => (1, &t[1..]),
        Some('-') => (-1, &t[1..]),
        _ => return Err(bad()),
    };
    let (h, m) = rest.split_once(':').ok_or_else(bad)?;
    let (h, m): (i32, i32) = (h.parse().map_err(|_| bad())?, m.parse().map_err(|_| bad())?);
    let minutes = sign * (h * 60 + m);
    if !(0..60).contains(&m) || !(-720..=840).contains(&minutes) {
        return Err(bad());
    }
    Ok(minutes)
}

/// Minutes east of UTC as `+10:30`.
pub fn offset_text(minutes: i32) -> String {
    let sign = if minutes < 0 { '-' } else { '+' };
    let m = minutes.abs();
    format!("{sign}{:02}:{:02}", m / 60, m % 60)
}

/// AS-12: why `stored`'s rosters may no longer be changed at `now`, when its rules lock them
/// before round 1 and the event has set round 1's start; `None` while they may. Every roster
/// write (the site's, the command line's) asks it first.
pub async fn roster_locked(
    store: &arbiter_store::Store,
    stored: &arbiter_store::StoredCompetition,
    now: jiff::Timestamp,
) -> Result<Option<String>, StoreError> {
    let Some((deadlines, event, first)) = crate::app::view::first_round(store, stored).await?
    else {
        return Ok(None);
    };
    Ok(deadlines
        .roster_change(first, event.hall_time(now))
        .err()
        .map(|late| {
            format!(
                "{}, {}: {}.",
                late.rule(),
                stored.record.name,
                late.message()
            )
        }))
}

/// The one write path: the event kept as the next version, if it is still at `seen`.
pub async fn set(
    state: &AppState,
    s: &SeasonEvent,
    seen: u32,
    event: &NewEvent,
    acting: &Acting,
) -> Result<EventRecord, WebError> {
    match state
        .store()
        .record_event(s.season.id, seen, event, &acting.actor())
        .await
    {
        Ok(r) => {
            state.invalidate();
            Ok(r)
        }
        Err(StoreError::Stale(m)) => Err(WebError::Conflict(m)),
        Err(e) => Err(e.into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_read_and_write_back() {
        assert_eq!(parse_offset("+10:30"), Ok(630));
        assert_eq!(parse_offset("-05:00"), Ok(-300));
        assert_eq!(offset_text(630), "+10:30");
        assert_eq!(offset_text(-300), "-05:00");
        for bad in ["10:30", "+10", "+15:00", "+10:75", ""] {
            assert!(parse_offset(bad).is_err(), "{bad}");
        }
    }
}

/// An event set from the command line (`arbiter astc event --set`): round starts by
/// competition slug, as a CSV of `competition,round,starts_at` reads them.
#[derive(Debug, Clone, Default)]
pub struct EventCommand {
    pub name: String,
    pub host: String,
    pub venue: String,
    pub utc_offset: String,
    /// (competition slug, round, `YYYY-MM-DDTHH:MM`).
    pub starts: Vec<(String, u32, String)>,
}

/// The event of `league`'s `season` as lines to print: the event, then each competition's
/// rounds with their lineup deadlines, and the roster lock and protests' close (AS-11..AS-13).
pub async fn event_lines(
    state: &AppState,
    league: &str,
    season: &str,
) -> Result<Vec<String>, String> {
    let tree = crate::app::site::one(state, league)
        .await
        .map_err(|e| e.message())?;
    let s = load(state, &tree, season).await.map_err(|e| e.message())?;
    let Some(e) = &s.event else {
        return Ok(vec![format!(
            "{} has no event set yet; set it with `arbiter astc event {league} {season} --set STARTS.csv --name … --host … --venue … --offset …`.",
            s.season.name
        )]);
    };
    let mut lines = vec![format!(
        "{} at {}, hosted by {} (the hall's clock: UTC{}), version {}",
        e.event.name,
        e.event.venue,
        e.event.host.name(),
        offset_text(e.event.utc_offset_minutes),
        e.version
    )];
    for c in &s.competitions {
        lines.push(format!("{} ({})", c.record.name, c.record.slug));
        let deadlines = c.rules.event;
        if let (Some(d), Some(first)) = (deadlines, e.round_start(c.id, 1)) {
            lines.push(format!(
                "  rosters lock {} (AS-12); protests close {} (AS-13)",
                d.roster_lock(first).strftime("%Y-%m-%d %H:%M"),
                d.protests_close(first).strftime("%H:%M")
            ));
        }
        for (n, start) in (1_u32..).zip(e.starts_of(c.id)) {
            let due = deadlines
                .map(|d| {
                    format!(
                        ", lineups due {} (AS-11)",
                        d.lineup_due(start).strftime("%H:%M")
                    )
                })
                .unwrap_or_default();
            lines.push(format!(
                "  round {n}: {}{due}",
                start.strftime("%Y-%m-%d %H:%M")
            ));
        }
    }
    Ok(lines)
}

/// Sets the event of `league`'s `season` as the account `email` (the table's `DrawSchedule`:
/// the arbiter or the President), through the page's own checks and write path.
pub async fn set_event_as(
    state: &AppState,
    email: &str,
    league: &str,
    season: &str,
    command: &EventCommand,
) -> Result<String, String> {
    let (tree, acting) = crate::app::site::acting_as(
        state,
        email,
        league,
        arbiter_core::rules::permissions::Action::DrawSchedule,
    )
    .await?;
    let s = load(state, &tree, season).await.map_err(|e| e.message())?;
    let mut problems = Vec::new();
    for (slug, _, _) in &command.starts {
        if !s.competitions.iter().any(|c| &c.record.slug == slug) {
            problems.push(format!(
                "{} has no competition `{slug}`; its competitions are {}",
                s.season.name,
                s.competitions
                    .iter()
                    .map(|c| c.record.slug.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
    }
    let input = EventInput {
        name: command.name.clone(),
        host: command.host.clone(),
        venue: command.venue.clone(),
        utc_offset: command.utc_offset.clone(),
        starts: s
            .competitions
            .iter()
            .map(|c| {
                let texts = (1..=u32::try_from(c.competition.rounds.len()).unwrap_or(0))
                    .map(|n| {
                        command
                            .starts
                            .iter()
                            .find(|(slug, r, _)| slug == &c.record.slug && *r == n)
                            .map(|(_, _, t)| t.clone())
                            .unwrap_or_default()
                    })
                    .collect();
                (c.id, texts)
            })
            .collect(),
    };
    let event = match prepare(&s, &input) {
        Ok(e) if problems.is_empty() => e,
        Ok(_) => return Err(problems.join("\n")),
        Err(mut found) => {
            problems.append(&mut found);
            return Err(problems.join("\n"));
        }
    };
    let seen = s.event.as_ref().map_or(0, |e| e.version);
    let r = set(state, &s, seen, &event, &acting)
        .await
        .map_err(|e| e.message())?;
    Ok(format!(
        "The event of {} is set (version {}), with {} round starts; the lineup deadlines count from them (AS-11).",
        s.season.name,
        r.version,
        event.rounds.len()
    ))
}
