//! AS-19: all-play-all schedules from the FIDE Berger tables (Handbook C.05 Annex 1).
//!
//! Teams are numbered 1..=n. Each table round is built from the one before it, as in
//! standards.md §2: the team on the last seat (n rounded up to even) sits on table 1 and
//! alternates colour, the others are taken in pairs from the end of the previous round's list.
//! The first-named team of a pairing is the table's White: the home team, with White on board 1
//! of the match (AS-19).
//!
//! - Odd n: a dummy team n+1 is added; whoever meets it has the bye.
//! - Double cycle: C.05 recommends swapping the last two rounds of the first cycle, so the first
//!   cycle plays table rounds 1..=R-2, then R, then R-1 (R = rounds per cycle). The second cycle
//!   plays the table rounds in their original order 1..=R with first and second swapped. Mirroring
//!   the swapped order instead gives a team of 4 three home matches in a row; the original order
//!   keeps every team to at most two home or two away matches in a row (tested for 4..=60).
//! - Home and away (the "no team home or away three times running"): a single cycle of
//!   odd n alternates every team's matches (byes skipped); one of even n has n-2 breaks (two
//!   home or two away in a row), each team at most one, the fewest any round robin of n has; a
//!   double cycle has at most two in a row. Never three (tests/properties.rs).
//!
//! [`place`] puts the rounds on the days of a school calendar (GT-M2): its match days, never a
//! closure.

use std::fmt;

use jiff::civil::{Date, Weekday};
use serde::Serialize;

use crate::record::calendar::{CalendarError, SchoolCalendar, weekday_list};
use crate::record::model::{Bye, ByeKind, Match, MatchOutcome, Pairing, Round, TeamId};

/// The most teams a schedule is built for; beyond it the input is a mistake, not a league.
pub const MAX_TEAMS: u32 = 1000;

/// How many times every pair of teams meets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Cycles {
    /// Each pair of teams meets once: the ASTC all-play-all (AS-19).
    Single,
    /// Each pair meets twice, the second time with the first-named team swapped.
    Double,
}

/// A whole all-play-all, round by round.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Schedule {
    /// The number of teams (before any dummy for a bye).
    pub teams: u32,
    /// Once or twice round.
    pub cycles: Cycles,
    /// Every round, in the order played.
    pub rounds: Vec<ScheduledRound>,
}

/// One round of the schedule: its pairings by table, and the bye.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ScheduledRound {
    /// 1-based, counting on through the second cycle.
    pub number: u32,
    /// 1 or 2.
    pub cycle: u32,
    /// In table order; the table round's game of the last seat is table 1.
    pub pairings: Vec<ScheduledPairing>,
    /// The team that sits out (odd n only).
    pub bye: Option<u32>,
}

/// One match of a scheduled round, between two team numbers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub struct ScheduledPairing {
    /// 1-based table (match) number within the round.
    pub table: u32,
    /// The first-named (home) team: White on board 1 (AS-19).
    pub first: u32,
    /// The second-named (away) team: Black on board 1.
    pub second: u32,
}

/// Why a schedule cannot be built or applied.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ScheduleError {
    /// Fewer than 2 teams: there is no round robin to draw.
    #[error(
        "A round robin (AS-19) needs at least 2 teams, but {teams} {was} given; add teams before drawing the schedule.",
        was = if *teams == 1 { "was" } else { "were" }
    )]
    TooFewTeams {
        /// The number of teams given.
        teams: u32,
    },
    /// More teams than [`MAX_TEAMS`]: a mistake, not a league.
    #[error(
        "A round robin (AS-19) of {teams} teams is beyond the {max} this program schedules ({rounds} rounds); check the number of teams, or split the field into divisions.",
        max = MAX_TEAMS,
        rounds = u64::from(*teams) + u64::from(*teams % 2) - 1
    )]
    TooManyTeams {
        /// The number of teams given.
        teams: u32,
    },
    /// The team ids given do not match the schedule's team numbers one to one.
    #[error(
        "The schedule is for {scheduled} teams but {given} team ids were given; give exactly one id per team number, in order (team 1 first)."
    )]
    TeamCountMismatch {
        /// The number of teams the schedule is for.
        scheduled: u32,
        /// The number of team ids given.
        given: usize,
    },
    /// The calendar has fewer match days than the schedule has rounds (GT-M2).
    #[error(
        "The schedule has {rounds} round{s} but the season from {starts_on} to {ends_on} has only {match_days} match day{ms} ({weekdays}, outside closures); lengthen the season, add a match day or {instead}.",
        s = if *rounds == 1 { "" } else { "s" },
        ms = if *match_days == 1 { "" } else { "s" },
        weekdays = weekday_list(weekdays),
        instead = if *cycles == Cycles::Double { "play a single cycle (GT-M2)" } else { "split the field into divisions (GT-M2, GT-O1)" }
    )]
    TooFewMatchDays {
        /// The rounds to place.
        rounds: usize,
        /// Once or twice round: a double cycle could be played once.
        cycles: Cycles,
        /// The season's first day.
        starts_on: Date,
        /// The season's last day.
        ends_on: Date,
        /// The weekdays matches are set on.
        weekdays: Vec<Weekday>,
        /// The season's school days on those weekdays.
        match_days: usize,
    },
    /// No weekday to set matches on.
    #[error(
        "No weekday was given to set the matches on; name at least one match day, e.g. Monday and Wednesday (GT-M2)."
    )]
    NoMatchDays,
    /// The calendar cannot be (it ends before it starts).
    #[error(transparent)]
    Calendar(#[from] CalendarError),
}

/// How the rounds spread over the match days.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Spacing {
    /// Spread evenly from the first match day to the last (a season-long league). The match
    /// days left between rounds are where a postponed match is played (GT-M2) and where the
    /// schedule goes on after a suspension (GT-F5).
    Even,
    /// On consecutive match days from the first (an event, a compressed schedule).
    Packed,
    /// This many rounds on each consecutive match day from the first: an event's day (the
    /// ASTC plays two, morning and afternoon; their times are the event's, AS-1, AS-3).
    RoundsADay(u32),
}

impl Schedule {
    /// Every round, in the order played.
    pub fn rounds(&self) -> &[ScheduledRound] {
        &self.rounds
    }
}

impl fmt::Display for ScheduledPairing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.first, self.second)
    }
}

/// The round as the Berger tables print it: `R2: 8-5, 6-4, 7-3, 1-2`, then `(bye 3)` if any.
impl fmt::Display for ScheduledRound {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "R{}:", self.number)?;
        for (i, p) in self.pairings.iter().enumerate() {
            let sep = if i == 0 { " " } else { ", " };
            write!(f, "{sep}{p}")?;
        }
        if let Some(b) = self.bye {
            write!(f, " (bye {b})")?;
        }
        Ok(())
    }
}

/// The Berger round robin of `teams` teams (AS-19, C.05 Annex 1), once or twice round.
pub fn round_robin(teams: u32, cycles: Cycles) -> Result<Schedule, ScheduleError> {
    if teams < 2 {
        return Err(ScheduleError::TooFewTeams { teams });
    }
    if teams > MAX_TEAMS {
        return Err(ScheduleError::TooManyTeams { teams });
    }
    let seats = teams + teams % 2;
    let table = berger_table(seats);
    let per_cycle = table.len();

    let mut first_cycle: Vec<usize> = (0..per_cycle).collect();
    let mut plan: Vec<(u32, usize, bool)> = Vec::with_capacity(per_cycle * 2);
    if cycles == Cycles::Double {
        // C.05: the last two rounds of the first cycle swapped (see the module comment).
        if per_cycle >= 2 {
            first_cycle.swap(per_cycle - 1, per_cycle - 2);
        }
        plan.extend(first_cycle.iter().map(|&r| (1, r, false)));
        plan.extend((0..per_cycle).map(|r| (2, r, true)));
    } else {
        plan.extend(first_cycle.iter().map(|&r| (1, r, false)));
    }

    let rounds = plan
        .into_iter()
        .zip(1u32..)
        .map(|((cycle, r, reversed), number)| {
            let mut pairings = Vec::with_capacity(table[r].len());
            let mut bye = None;
            for &(white, black) in &table[r] {
                if teams % 2 == 1 && (white == seats || black == seats) {
                    bye = Some(if white == seats { black } else { white });
                    continue;
                }
                let (first, second) = if reversed {
                    (black, white)
                } else {
                    (white, black)
                };
                pairings.push(ScheduledPairing {
                    table: 0,
                    first,
                    second,
                });
            }
            for (p, t) in pairings.iter_mut().zip(1u32..) {
                p.table = t;
            }
            ScheduledRound {
                number,
                cycle,
                pairings,
                bye,
            }
        })
        .collect();

    Ok(Schedule {
        teams,
        cycles,
        rounds,
    })
}

/// The Berger table for an even number of seats: one list of (White, Black) per round, in
/// board order. Built round from round as C.05 Annex 1 ("Berger explained") describes.
fn berger_table(seats: u32) -> Vec<Vec<(u32, u32)>> {
    let boards = usize::try_from(seats / 2).unwrap_or(0);
    let mut rounds = Vec::with_capacity(boards * 2);
    // Round 1: board b is b against seats+1-b, the lower number White.
    let mut prev: Vec<(u32, u32)> = (1..=seats / 2).map(|b| (b, seats + 1 - b)).collect();
    for r in 2..seats {
        // Everyone but the last seat, in board order, White before Black.
        let mut list: Vec<u32> = prev
            .iter()
            .flat_map(|&(w, b)| [w, b])
            .filter(|&p| p != seats)
            .collect();
        let Some(last) = list.pop() else { break };
        let mut games = Vec::with_capacity(boards);
        // The last seat plays board 1: Black in odd rounds, White in even rounds.
        games.push(if r % 2 == 0 {
            (seats, last)
        } else {
            (last, seats)
        });
        // From the end of the list: penultimate White, last Black.
        while let (Some(black), Some(white)) = (list.pop(), list.pop()) {
            games.push((white, black));
        }
        rounds.push(std::mem::replace(&mut prev, games));
    }
    rounds.push(prev);
    rounds
}

/// The day of each round of `schedule`, on the calendar's match days (never a closure).
///
/// One date a round, in the order played and strictly increasing, each a school day of
/// `calendar` falling on one of `match_days` (GT-M2). [`Spacing::Even`] sets the first round on
/// the first match day and the last on the last; [`Spacing::Packed`] sets the rounds on the
/// first match days one after another. It is the schedule's day: the home advisor may arrange
/// another with the visitors (GT-M1, GT-M2). Each division (GT-O1) is placed on its own; one
/// that starts later is placed on a calendar whose `starts_on` is later.
pub fn place(
    schedule: &Schedule,
    calendar: &SchoolCalendar,
    match_days: &[Weekday],
    spacing: Spacing,
) -> Result<Vec<Date>, ScheduleError> {
    if match_days.is_empty() {
        return Err(ScheduleError::NoMatchDays);
    }
    calendar.check()?;
    let days = calendar.match_days(match_days);
    let rounds = schedule.rounds.len();
    let a_day = match spacing {
        Spacing::RoundsADay(n) => usize::try_from(n.max(1)).unwrap_or(1),
        Spacing::Even | Spacing::Packed => 1,
    };
    if days.len().saturating_mul(a_day) < rounds {
        return Err(ScheduleError::TooFewMatchDays {
            rounds,
            cycles: schedule.cycles,
            starts_on: calendar.starts_on,
            ends_on: calendar.ends_on,
            weekdays: match_days.to_vec(),
            match_days: days.len(),
        });
    }
    let at = |k: usize| match spacing {
        Spacing::Packed => k,
        Spacing::RoundsADay(_) => k / a_day,
        // k (D-1) / (R-1): the first day, the last, and steps of at least one day between,
        // as D >= R.
        Spacing::Even if rounds > 1 => k * (days.len() - 1) / (rounds - 1),
        Spacing::Even => 0,
    };
    Ok((0..rounds)
        .filter_map(|k| days.get(at(k)).copied())
        .collect())
}

/// The schedule as a season's rounds: team number k is `team_ids[k - 1]`; every match is
/// pending with the first-named team at home, and a bye is a pairing-allocated bye.
pub fn apply_to(schedule: &Schedule, team_ids: &[TeamId]) -> Result<Vec<Round>, ScheduleError> {
    if usize::try_from(schedule.teams).ok() != Some(team_ids.len()) {
        return Err(ScheduleError::TeamCountMismatch {
            scheduled: schedule.teams,
            given: team_ids.len(),
        });
    }
    let id = |n: u32| {
        usize::try_from(n)
            .ok()
            .and_then(|n| n.checked_sub(1))
            .and_then(|i| team_ids.get(i))
            .cloned()
            .ok_or(ScheduleError::TeamCountMismatch {
                scheduled: schedule.teams,
                given: team_ids.len(),
            })
    };
    schedule
        .rounds
        .iter()
        .map(|r| {
            let mut pairings = Vec::with_capacity(r.pairings.len() + 1);
            for p in &r.pairings {
                pairings.push(Pairing::Match(Match {
                    date: None,
                    home: id(p.first)?,
                    away: id(p.second)?,
                    outcome: MatchOutcome::Pending,
                    start: None,
                    extra_games: Vec::new(),
                    late: None,
                }));
            }
            if let Some(b) = r.bye {
                pairings.push(Pairing::Bye(Bye {
                    team: id(b)?,
                    kind: ByeKind::PairingAllocated,
                }));
            }
            Ok(Round {
                number: r.number,
                date: None,
                pairings,
            })
        })
        .collect()
}
