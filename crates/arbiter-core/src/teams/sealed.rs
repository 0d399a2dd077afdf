//! Who may see a roster or a named lineup, and from when: "lineups are sealed until their
//! deadline" (RULES.md), as pure functions of the time given (core reads no clock).
//!
//! - A roster (AS-12) is its own team's and the arbiter's until the rosters lock; from the lock
//!   every team and the public see every roster.
//! - A lineup named before its match is its own team's and the arbiter's until the round's
//!   lineups are published, both sides' together: at an event (`[event]`) at the round's lineup
//!   deadline (AS-11: the round's start less `lineup_minutes`), and never before the rosters
//!   lock (AS-12), whose players it names; in a league, from the match's start. A league's
//!   match with no start time (GT-M1: after school, as the advisors agree) is published from the
//!   start of its day, since nothing earlier in the day can be said to be its start; an event
//!   round with no start set counts the same way, and a match with no day is sealed until it
//!   has one.
//!
//! Every time is the hall's (or the league's) local time: the caller turns its clock into it.
//! A lineup due at 13:15 is published at 13:15 itself.
//!
//! Imports from core only `event_day`, `ruleset`, and the `model` and `validate` a finding is read on.

use std::fmt;

use jiff::civil::{Date, DateTime, Time};

use crate::event::event_day::EventDeadlines;
use crate::rules::ruleset::Ruleset;

/// The viewer's relation to the team whose roster or lineup it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Viewer {
    /// The team's own advisor.
    OwnTeam,
    /// The arbiter, to whom lineups and rosters are handed (AS-11, AS-12).
    Arbiter,
    /// Anyone else: the opponent, another team, the public.
    Other,
}

impl Viewer {
    fn is_party(self) -> bool {
        matches!(self, Viewer::OwnTeam | Viewer::Arbiter)
    }
}

/// AS-12: whether `viewer` may see a roster at `at`, the rosters locking at `lock` (`None`:
/// no lock, as in a league, where rosters are public).
pub fn may_see_roster(viewer: Viewer, lock: Option<DateTime>, at: DateTime) -> bool {
    viewer.is_party() || lock.is_none_or(|lock| at >= lock)
}

/// When a round's match is played, as the embargo on its lineups counts from it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MatchTime {
    /// At an event: the round's start as the arbiter set it, and round 1's (AS-11, AS-12).
    Event {
        /// The round's start.
        round_start: DateTime,
        /// Round 1's start, from which the rosters lock.
        first_round: DateTime,
    },
    /// In a league, or an event round with no start set: the match's day and its start, when
    /// the home advisor has arranged one (GT-M1).
    Day {
        /// The match's day.
        day: Date,
        /// Its start, if arranged.
        start: Option<Time>,
    },
    /// A match with no day yet: its lineups wait for one.
    Unscheduled,
}

/// When a round's lineups are published to the opponent and the public, and why then.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Embargo {
    /// The round.
    pub round: u32,
    /// From when the opponent and the public see them.
    pub until: DateTime,
    why: Why,
    /// The rule the sentence cites, as the ruleset names it (`AS-11`); none in a ruleset that
    /// names none.
    rule: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Why {
    /// AS-11: when they are due.
    Due,
    /// AS-12: the deadline falls before the rosters lock, so when they lock.
    RostersLock,
    /// A league: when the match starts.
    Start,
    /// A league match with no start: its day.
    Day,
    /// A match with no day yet.
    Unscheduled,
}

impl Embargo {
    /// The embargo on round `round`'s lineups under `rules`, its match played at `when`.
    pub fn of(rules: &Ruleset, round: u32, when: MatchTime) -> Embargo {
        match (rules.event, when) {
            (
                Some(deadlines),
                MatchTime::Event {
                    round_start,
                    first_round,
                },
            ) => Embargo::at_event(rules, &deadlines, round, round_start, first_round),
            (_, MatchTime::Event { round_start, .. }) => Embargo {
                round,
                until: round_start,
                why: Why::Start,
                rule: None,
            },
            (_, MatchTime::Day { day, start }) => Embargo {
                round,
                until: day.to_datetime(start.unwrap_or(Time::midnight())),
                why: if start.is_some() {
                    Why::Start
                } else {
                    Why::Day
                },
                rule: None,
            },
            (_, MatchTime::Unscheduled) => Embargo {
                round,
                until: DateTime::MAX,
                why: Why::Unscheduled,
                rule: None,
            },
        }
    }

    fn at_event(
        rules: &Ruleset,
        deadlines: &EventDeadlines,
        round: u32,
        round_start: DateTime,
        first_round: DateTime,
    ) -> Embargo {
        let due = deadlines.lineup_due(round_start);
        let lock = deadlines.roster_lock(first_round);
        let (until, why, field) = if due >= lock {
            (due, Why::Due, "lineup_minutes")
        } else {
            (lock, Why::RostersLock, "roster_lock_minutes")
        };
        Embargo {
            round,
            until,
            why,
            rule: rules.cite(field).map(str::to_string),
        }
    }

    /// Whether `viewer` may see a lineup of this round at `at`: its own team and the arbiter
    /// always; anyone else from the embargo's end. `Err` is the sentence that says when.
    pub fn check(&self, viewer: Viewer, at: DateTime) -> Result<(), Sealed> {
        if viewer.is_party() || self.lifted(at) {
            return Ok(());
        }
        Err(Sealed {
            embargo: self.clone(),
            at,
        })
    }

    /// Whether the round's lineups are published at `at`.
    pub fn lifted(&self, at: DateTime) -> bool {
        at >= self.until
    }
}

/// A lineup not yet seen by the one asking: the embargo, and when they asked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sealed {
    /// The embargo in force.
    pub embargo: Embargo,
    /// When they asked.
    pub at: DateTime,
}

impl fmt::Display for Sealed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let e = &self.embargo;
        if let Some(rule) = &e.rule {
            write!(f, "{rule}: ")?;
        }
        let when = if e.until.date() == self.at.date() {
            e.until.strftime("%H:%M").to_string()
        } else {
            e.until.strftime("%H:%M on %A %-d %B").to_string()
        };
        let day = e.until.strftime("%A %-d %B").to_string();
        let lineups = if e.rule.is_some() {
            format!("the lineups of round {}", e.round)
        } else {
            format!("The lineups of round {}", e.round)
        };
        match e.why {
            Why::Due => write!(
                f,
                "{lineups} are published together at {when}, when they are due."
            ),
            Why::RostersLock => write!(
                f,
                "{lineups} are published together at {when}, when the rosters lock."
            ),
            Why::Start => write!(
                f,
                "{lineups} are published together when the match starts, at {when}."
            ),
            Why::Day => write!(
                f,
                "{lineups} are published together on the match day, {day}."
            ),
            Why::Unscheduled => write!(
                f,
                "{lineups} are published together when the match starts; it has no day yet."
            ),
        }
    }
}

/// Whether the public may read `f` now: not a finding on a match of `c` still to play, which
/// only a lineup named for it can carry, and a named lineup is sealed until its deadline
/// ("Lineups are sealed", AS-11); its parties and the officers read it on their own pages.
pub fn public_may_read(
    c: &crate::record::model::Competition,
    f: &crate::rules::validate::Finding,
) -> bool {
    let (Some(round), Some(home)) = (f.round, f.home.as_ref()) else {
        return true;
    };
    !c.rounds
        .iter()
        .filter(|r| r.number == round)
        .flat_map(crate::record::model::Round::matches)
        .any(|m| &m.home == home && m.outcome == crate::record::model::MatchOutcome::Pending)
}

#[cfg(test)]
mod tests {
    /// AS-11, issue 30: a finding on a match still to play comes only from a named lineup, so
    /// the public's answer leaves it out; one on a played match it reads.
    #[test]
    fn as_11_the_public_reads_no_finding_of_a_lineup_named_for_a_match_to_play() {
        use crate::record::model::{Competition, Match, MatchOutcome, Pairing, Round, TeamId};
        use crate::rules::validate::Finding;
        let m = |home: &str, outcome| {
            Pairing::Match(Match {
                home: TeamId(home.into()),
                away: TeamId("x".into()),
                outcome,
                date: None,
                start: None,
                extra_games: Vec::new(),
                late: None,
            })
        };
        let c = Competition {
            name: "Open".into(),
            teams: Vec::new(),
            rounds: vec![Round {
                number: 2,
                date: None,
                pairings: vec![
                    m("a", MatchOutcome::Pending),
                    m("b", MatchOutcome::DoubleForfeit),
                ],
            }],
        };
        let on = |home: &str| {
            let Pairing::Match(x) = &c.rounds[0].pairings[usize::from(home == "b")] else {
                unreachable!()
            };
            Finding::violation(Some("AS-10"), "out of order").in_match(2, 0, x, Some(1))
        };
        assert!(!public_may_read(&c, &on("a")));
        assert!(public_may_read(&c, &on("b")));
        assert!(public_may_read(
            &c,
            &Finding::warning(None, "a roster note")
        ));
    }

    use jiff::civil::{date, time};

    use super::*;
    use crate::rules::ruleset::Ruleset;

    fn at(h: i8, m: i8) -> DateTime {
        date(2026, 12, 7).at(h, m, 0, 0)
    }

    fn astc_round_2() -> Embargo {
        let rules = Ruleset::preset("astc").unwrap();
        Embargo::of(
            &rules,
            2,
            MatchTime::Event {
                round_start: at(13, 30),
                first_round: at(9, 30),
            },
        )
    }

    #[test]
    fn as_11_a_lineup_is_its_teams_and_the_arbiters_until_its_deadline_then_everyones() {
        let e = astc_round_2();
        assert_eq!(e.until, at(13, 15));
        assert_eq!(e.check(Viewer::OwnTeam, at(12, 0)), Ok(()));
        assert_eq!(e.check(Viewer::Arbiter, at(12, 0)), Ok(()));
        let sealed = e.check(Viewer::Other, at(13, 14)).unwrap_err();
        assert_eq!(
            sealed.to_string(),
            "AS-11: the lineups of round 2 are published together at 13:15, when they are due."
        );
        assert_eq!(e.check(Viewer::Other, at(13, 15)), Ok(()));
        // Asked the day before, the sentence names the day.
        let before = e
            .check(Viewer::Other, date(2026, 12, 6).at(20, 0, 0, 0))
            .unwrap_err();
        assert!(
            before.to_string().contains("at 13:15 on Monday 7 December"),
            "{before}"
        );
    }

    #[test]
    fn as_12_a_lineup_is_never_published_before_the_rosters_lock() {
        // A deadline set before the lock: the lineups wait for the rosters they name.
        let rules = Ruleset::preset("astc").unwrap();
        let deadlines = rules.event.unwrap();
        let rules = rules
            .with(|s| {
                s.event = Some(EventDeadlines {
                    lineup_minutes: 60,
                    ..deadlines
                });
            })
            .unwrap();
        let first = at(9, 30);
        let e = Embargo::of(
            &rules,
            1,
            MatchTime::Event {
                round_start: first,
                first_round: first,
            },
        );
        assert_eq!(e.until, at(9, 0));
        assert_eq!(
            e.check(Viewer::Other, at(8, 45)).unwrap_err().to_string(),
            "AS-12: the lineups of round 1 are published together at 09:00, when the rosters lock."
        );
    }

    #[test]
    fn a_league_publishes_lineups_at_the_matchs_start_or_its_day() {
        let rules = Ruleset::preset("gthscl").unwrap();
        let day = date(2026, 11, 16);
        let started = Embargo::of(
            &rules,
            4,
            MatchTime::Day {
                day,
                start: Some(time(15, 30, 0, 0)),
            },
        );
        let sealed = started
            .check(Viewer::Other, day.at(15, 29, 0, 0))
            .unwrap_err();
        // A league's message cites no ASTC rule.
        assert_eq!(
            sealed.to_string(),
            "The lineups of round 4 are published together when the match starts, at 15:30."
        );
        assert_eq!(started.check(Viewer::Other, day.at(15, 30, 0, 0)), Ok(()));
        let unarranged = Embargo::of(&rules, 4, MatchTime::Day { day, start: None });
        let eve = date(2026, 11, 15).at(23, 59, 0, 0);
        assert_eq!(
            unarranged
                .check(Viewer::Other, eve)
                .unwrap_err()
                .to_string(),
            "The lineups of round 4 are published together on the match day, Monday 16 November."
        );
        assert_eq!(unarranged.check(Viewer::OwnTeam, eve), Ok(()));
        assert_eq!(unarranged.check(Viewer::Other, day.at(0, 0, 0, 0)), Ok(()));
    }

    #[test]
    fn as_12_a_roster_is_its_teams_and_the_arbiters_until_the_lock() {
        let lock = Some(at(9, 0));
        assert!(!may_see_roster(Viewer::Other, lock, at(8, 59)));
        assert!(may_see_roster(Viewer::OwnTeam, lock, at(8, 59)));
        assert!(may_see_roster(Viewer::Arbiter, lock, at(8, 59)));
        assert!(may_see_roster(Viewer::Other, lock, at(9, 0)));
        // A league locks no roster: every roster is public.
        assert!(may_see_roster(Viewer::Other, None, at(8, 59)));
    }
}
