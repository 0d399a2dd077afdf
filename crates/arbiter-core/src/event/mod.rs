//! An ASTC event (AS-1..AS-3): its competitions (AS-2) with their days and round times, the host
//! state, the venue and the clock (AS-1), as every sheet prints them; which competitions share
//! dates, so that no player plays in a Girls and an Open team at once (AS-3); and a lineup named
//! for a round, checked against its deadline (AS-11) as well as `lineup`'s rules (AS-10) and
//! `eligibility`'s across the event's competitions (AS-3).
//!
//! The area also holds the event day's deadlines as functions of the time ([`event_day`]), a
//! competition's field planned from its entries ([`field`]) and protests against a roster's
//! order ([`protest`]).

pub mod event_day;
pub mod field;
pub mod protest;

use std::fmt;

use jiff::civil::{Date, DateTime};
use serde::Serialize;

use crate::event::event_day::{LateOverride, LineupTime};
use crate::event::field::State;
use crate::record::model::{Competition, Pairing};
use crate::record::text::{TextKind, check as check_text};
use crate::rules::ruleset::TimeControl;
use crate::rules::validate::Finding;
use crate::teams::eligibility::{self, SeasonEntry};
use crate::teams::lineup::NamedLineup;

/// Secondary or primary schools (AS-2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// Secondary schools.
    Secondary,
    /// Primary schools.
    Primary,
}

/// Open to all, or to girls (AS-2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Section {
    /// Open.
    Open,
    /// Girls.
    Girls,
}

/// One of the four championships of AS-2.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub struct Championship {
    /// Secondary or primary.
    pub level: Level,
    /// Open or girls.
    pub section: Section,
}

impl Championship {
    /// The four, in the by-law's order: Secondary Open, Secondary Girls, Primary Open, Primary
    /// Girls.
    pub const ALL: [Championship; 4] = [
        Championship {
            level: Level::Secondary,
            section: Section::Open,
        },
        Championship {
            level: Level::Secondary,
            section: Section::Girls,
        },
        Championship {
            level: Level::Primary,
            section: Section::Open,
        },
        Championship {
            level: Level::Primary,
            section: Section::Girls,
        },
    ];

    /// `Secondary Open`: as sheets and files name it.
    pub fn name(self) -> &'static str {
        match (self.level, self.section) {
            (Level::Secondary, Section::Open) => "Secondary Open",
            (Level::Secondary, Section::Girls) => "Secondary Girls",
            (Level::Primary, Section::Open) => "Primary Open",
            (Level::Primary, Section::Girls) => "Primary Girls",
        }
    }

    /// The championship `name` names (`Secondary Open`), or the sentence naming the four.
    pub fn parse(name: &str) -> Result<Championship, String> {
        let name = name.trim();
        Championship::ALL
            .into_iter()
            .find(|c| c.name().eq_ignore_ascii_case(name))
            .ok_or_else(|| {
                format!(
                    "AS-2: “{name}” is not one of the championships: {}",
                    Championship::ALL.map(Championship::name).join(", ")
                )
            })
    }
}

impl fmt::Display for Championship {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One competition of the event: its days and the time each round starts (the hall's time).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct EventCompetition {
    /// Which of the four.
    pub championship: Championship,
    /// Its first day.
    pub first_day: Date,
    /// Its last day.
    pub last_day: Date,
    /// When each round starts, round 1 first.
    pub rounds: Vec<DateTime>,
}

impl EventCompetition {
    /// When round `n` (from 1) starts.
    pub fn round_start(&self, n: u32) -> Option<DateTime> {
        self.rounds
            .get(usize::try_from(n).ok()?.checked_sub(1)?)
            .copied()
    }

    /// When round 1 starts: what the roster lock and protests count back from (AS-12, AS-13).
    pub fn first_round(&self) -> Option<DateTime> {
        self.rounds.first().copied()
    }

    /// Whether the two share a day.
    pub fn shares_dates(&self, other: &EventCompetition) -> bool {
        self.first_day <= other.last_day && other.first_day <= self.last_day
    }
}

/// The event: what every pairing and score sheet prints at its head.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Event {
    name: String,
    host: State,
    venue: String,
    time_control: TimeControl,
    competitions: Vec<EventCompetition>,
}

impl Event {
    /// The event, or every reason it cannot be: no name or venue, no competition, one
    /// championship twice (AS-2), an Open championship outside December (AS-3), days that end
    /// before they start, round times out of order or outside the competition's days.
    pub fn new(
        name: &str,
        host: State,
        venue: &str,
        time_control: TimeControl,
        competitions: Vec<EventCompetition>,
    ) -> Result<Event, Vec<String>> {
        let mut problems = Vec::new();
        for (what, text) in [("the event's name", name), ("the venue", venue)] {
            if text.trim().is_empty() {
                problems.push(format!("{what} is blank; give it, as sheets print it"));
            } else if let Err(e) = check_text(TextKind::Name, what, text.trim()) {
                problems.push(e.to_string());
            }
        }
        if competitions.is_empty() {
            problems
                .push("AS-2: the event holds no competition; add at least one of the four".into());
        }
        for (i, c) in competitions.iter().enumerate() {
            let name = c.championship.name();
            if competitions[..i]
                .iter()
                .any(|o| o.championship == c.championship)
            {
                problems.push(format!(
                    "AS-2: {name} is listed twice; an event holds each championship once"
                ));
            }
            if c.last_day < c.first_day {
                problems.push(format!(
                    "{name} ends on {} before it starts on {}",
                    c.last_day, c.first_day
                ));
            }
            if c.championship.section == Section::Open
                && (c.first_day.month() != 12 || c.last_day.month() != 12)
            {
                problems.push(format!(
                    "AS-3: {name} is held from {} to {}; the Open championships are held in December (only the Girls may be on other dates)",
                    c.first_day, c.last_day
                ));
            }
            for (n, start) in (1..).zip(&c.rounds) {
                if start.date() < c.first_day || start.date() > c.last_day {
                    problems.push(format!(
                        "{name}: round {n} starts on {}, outside its days ({} to {})",
                        start.date(),
                        c.first_day,
                        c.last_day
                    ));
                }
                if n > 1 && c.rounds[n - 2] >= *start {
                    problems.push(format!(
                        "{name}: round {n} starts at {start}, not after round {}",
                        n - 1
                    ));
                }
            }
        }
        if !problems.is_empty() {
            return Err(problems);
        }
        Ok(Event {
            name: name.trim().to_string(),
            host,
            venue: venue.trim().to_string(),
            time_control,
            competitions,
        })
    }

    /// The event's name: `ASTC 2026`.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The host state (AS-5..AS-7 count its team).
    pub fn host(&self) -> State {
        self.host
    }

    /// Where it is played.
    pub fn venue(&self) -> &str {
        &self.venue
    }

    /// The clock (AS-1).
    pub fn time_control(&self) -> &TimeControl {
        &self.time_control
    }

    /// The competitions, as listed.
    pub fn competitions(&self) -> &[EventCompetition] {
        &self.competitions
    }

    /// The competition of `championship`, when the event holds it.
    pub fn competition(&self, championship: Championship) -> Option<&EventCompetition> {
        self.competitions
            .iter()
            .find(|c| c.championship == championship)
    }

    /// AS-3: the Girls and Open championships that share a day; a player may play for a team in
    /// only one of each pair.
    pub fn exclusive_pairs(&self) -> Vec<(Championship, Championship)> {
        let mut out = Vec::new();
        for girls in self
            .competitions
            .iter()
            .filter(|c| c.championship.section == Section::Girls)
        {
            for open in self
                .competitions
                .iter()
                .filter(|c| c.championship.section == Section::Open)
            {
                if girls.shares_dates(open) {
                    out.push((girls.championship, open.championship));
                }
            }
        }
        out
    }

    /// The head of a pairing or score sheet: `ASTC 2026, Secondary Open, Adelaide (host SA);
    /// 60 minutes for the game, plus 10 seconds a move from move 1`.
    pub fn heading(&self, championship: Championship) -> String {
        format!(
            "{}, {}, {} (host {}); {}",
            self.name,
            championship,
            self.venue,
            self.host,
            self.time_control.words()
        )
    }
}

/// A lineup named for an event's round, with its time (AS-11).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TimedLineup {
    /// The lineup: its round, match, side and players.
    pub named: NamedLineup,
    /// When the round starts.
    pub round_start: DateTime,
    /// When the lineup was named to the arbiter.
    pub named_at: DateTime,
    /// The arbiter's acceptance of a late lineup, when given.
    pub accepted: Option<LateOverride>,
}

/// What refuses a lineup named for a round of the event's competition `at`: its deadline under
/// the ruleset's `[event]` (AS-11, unless the arbiter accepted it) and everything
/// `eligibility::lineup_refusals` finds (AS-10's roster order, the roster, AS-3 across the
/// event's competitions). Empty findings: the lineup stands, with its time to keep (`None`
/// when the rules set no deadline).
pub fn lineup_refusals(
    entries: &[SeasonEntry],
    at: usize,
    lineup: &TimedLineup,
) -> Result<Option<LineupTime>, Vec<Finding>> {
    let Some(e) = entries.get(at) else {
        return Ok(None);
    };
    let mut refusals = Vec::new();
    let time = match e.rules.event {
        None => None,
        Some(deadlines) => match deadlines.lineup(
            lineup.named.round,
            lineup.round_start,
            lineup.named_at,
            lineup.accepted.clone(),
        ) {
            Ok(time) => Some(time),
            Err(late) => {
                refusals.push(at_match(
                    e.competition,
                    &lineup.named,
                    Finding::error(Some(late.rule()), late.message()),
                ));
                None
            }
        },
    };
    refusals.extend(eligibility::lineup_refusals(entries, at, &lineup.named));
    if refusals.is_empty() {
        Ok(time)
    } else {
        Err(refusals)
    }
}

/// The finding placed at the lineup's match, when the competition has it.
fn at_match(c: &Competition, named: &NamedLineup, f: Finding) -> Finding {
    let found = c
        .rounds
        .iter()
        .find(|r| r.number == named.round)
        .and_then(|r| {
            r.pairings.iter().enumerate().find_map(|(i, p)| match p {
                Pairing::Match(m) if m.home == named.home => Some((i, m)),
                _ => None,
            })
        });
    match found {
        Some((i, m)) => f
            .in_match(named.round, i, m, None)
            .of_team(m.team(named.side)),
        None => f,
    }
}

#[cfg(test)]
mod tests;
