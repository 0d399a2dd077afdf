//! The deadlines of an event's days, as pure functions of the time given (core reads no clock):
//! rosters locked and published before round 1 (AS-12), protests against a roster's order
//! until a later time (AS-13), each round's lineup due before it (AS-11), a late one refused
//! unless the arbiter accepts it with a reason, kept with the lineup.
//!
//! Every time is the hall's local time (`jiff::civil::DateTime`): the caller turns its clock into
//! it. A deadline is met by anything done at it: "at least 30 minutes before" includes the 30th.
//! The settings are the ruleset's `[event]` ([`EventDeadlines`]); this module imports no other
//! of core's but `text`, so that the ruleset can hold them.

use std::fmt;

use jiff::SignedDuration;
use jiff::civil::DateTime;
use serde::Serialize;

use crate::record::text::Reason;
pub use crate::rules::sections::{EventDeadlines, MAX_MINUTES};

/// A round's results are entered once it has begun by the hall's clock: before its start
/// (the arbiter's round times, AS-11) no game of it has been played.
pub fn result_entry(round: u32, round_start: DateTime, at: DateTime) -> Result<(), Late> {
    if at >= round_start {
        return Ok(());
    }
    Err(Late::ResultBeforeRound {
        round,
        round_start,
        at,
    })
}

/// Where an event's day stands by the hall's clock (issue 32, item 22): the round being
/// played (the last one started), the next to start, and the next deadline still to come.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct DayNow {
    /// The last round whose start has come; `None` before round 1.
    pub playing: Option<u32>,
    /// The first round still to start, with its start; `None` once the last has begun.
    pub next: Option<(u32, DateTime)>,
    /// The next deadline at or after now; `None` once the last round has begun.
    pub deadline: Option<Deadline>,
}

/// One of the event day's deadlines: what falls due, for which round, and when.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Deadline {
    /// What falls due.
    pub kind: DeadlineKind,
    /// The round it is for (round 1 for the rosters' and protests').
    pub round: u32,
    /// When, in the hall's time.
    pub at: DateTime,
}

/// What falls due at a [`Deadline`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DeadlineKind {
    /// AS-12: the rosters lock and are published.
    RosterLock,
    /// AS-13: protests against a roster's order close.
    ProtestsClose,
    /// AS-11: the round's lineups are due.
    Lineups,
    /// AS-11: the round starts.
    RoundStart,
}

impl Deadline {
    /// The rule that sets it.
    pub fn rule(&self) -> &'static str {
        match self.kind {
            DeadlineKind::RosterLock => "AS-12",
            DeadlineKind::ProtestsClose => "AS-13",
            DeadlineKind::Lineups | DeadlineKind::RoundStart => "AS-11",
        }
    }

    /// What falls due, as a sentence's subject: `round 4's lineups are due`.
    pub fn what(&self) -> String {
        match self.kind {
            DeadlineKind::RosterLock => "the rosters lock and are published".into(),
            DeadlineKind::ProtestsClose => "protests against a roster's order close".into(),
            DeadlineKind::Lineups => format!("round {}'s lineups are due", self.round),
            DeadlineKind::RoundStart => format!("round {} starts", self.round),
        }
    }
}

fn before(at: DateTime, minutes: u32) -> DateTime {
    at.saturating_sub(SignedDuration::from_mins(i64::from(minutes)))
}

/// Whole minutes from `due` to `at`, a part of one counted as one.
fn minutes_after(due: DateTime, at: DateTime) -> i64 {
    let secs = due.duration_until(at).as_secs();
    (secs + 59).div_euclid(60)
}

/// The arbiter's acceptance of a lineup named after its deadline (AS-11): who, when and why,
/// kept with the lineup.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LateOverride {
    /// The arbiter who accepted it, as the event's records name them.
    pub by: String,
    /// When they accepted it.
    pub at: DateTime,
    /// Why.
    pub reason: Reason,
}

/// AS-11: a lineup's time against its deadline, as kept with it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum LineupTime {
    /// Named by its deadline.
    OnTime {
        /// When it was due.
        due: DateTime,
    },
    /// Named after it, and accepted by the arbiter.
    LateAccepted {
        /// When it was due.
        due: DateTime,
        /// When it was named.
        named_at: DateTime,
        /// How late, in whole minutes (a part of one counted as one).
        minutes_late: i64,
        /// The arbiter's acceptance.
        accepted: LateOverride,
    },
}

/// Something done after its deadline on the event day (or a protest before its window), with
/// the sentence saying when it was due and what may still be done.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Late {
    /// AS-12: a roster handed in or changed after the lock.
    RosterLocked {
        /// When the rosters locked.
        locked: DateTime,
        /// When round 1 starts.
        first_round: DateTime,
        /// The setting: minutes before round 1.
        minutes: u32,
        /// When the change came.
        at: DateTime,
    },
    /// AS-13: a protest before the rosters it would protest are published.
    ProtestBeforeRosters {
        /// When the rosters are published.
        published: DateTime,
        /// When round 1 starts.
        first_round: DateTime,
        /// When the protest came.
        at: DateTime,
    },
    /// AS-13: a protest after protests closed.
    ProtestsClosed {
        /// When protests closed.
        closed: DateTime,
        /// When round 1 starts.
        first_round: DateTime,
        /// The setting: minutes before round 1.
        minutes: u32,
        /// When the protest came.
        at: DateTime,
    },
    /// AS-11: a lineup named after its deadline, without the arbiter's acceptance.
    Lineup {
        /// The round.
        round: u32,
        /// When it was due.
        due: DateTime,
        /// When the round starts.
        round_start: DateTime,
        /// The setting: minutes before the round.
        minutes: u32,
        /// When it was named.
        named_at: DateTime,
        /// How late, in whole minutes.
        minutes_late: i64,
    },
    /// A result entered for a round that has not begun.
    ResultBeforeRound {
        /// The round.
        round: u32,
        /// When it starts.
        round_start: DateTime,
        /// When the result came.
        at: DateTime,
    },
}

impl Late {
    /// The rule that sets the deadline.
    pub fn rule(&self) -> &'static str {
        match self {
            Late::RosterLocked { .. } => "AS-12",
            Late::ProtestBeforeRosters { .. } | Late::ProtestsClosed { .. } => "AS-13",
            Late::Lineup { .. } | Late::ResultBeforeRound { .. } => "AS-11",
        }
    }

    /// A stable name for the API: `roster_locked`, `protest_before_rosters`,
    /// `protests_closed`, `lineup_late`.
    pub fn code(&self) -> &'static str {
        match self {
            Late::RosterLocked { .. } => "roster_locked",
            Late::ProtestBeforeRosters { .. } => "protest_before_rosters",
            Late::ProtestsClosed { .. } => "protests_closed",
            Late::Lineup { .. } => "lineup_late",
            Late::ResultBeforeRound { .. } => "round_not_begun",
        }
    }
}

/// `10:30`, with its day when it is not `round`'s: `2026-12-06 18:00`.
fn clock(at: DateTime, round: DateTime) -> String {
    let time = format!("{:02}:{:02}", at.hour(), at.minute());
    if at.date() == round.date() {
        time
    } else {
        format!("{} {time}", at.date())
    }
}

fn minutes(n: i64) -> String {
    format!("{n} minute{}", if n == 1 { "" } else { "s" })
}

impl Late {
    /// The sentence without its rule (a `Finding` adds it): when it was due and what may
    /// still be done.
    pub fn message(&self) -> String {
        match *self {
            Late::RosterLocked {
                locked,
                first_round,
                minutes: m,
                at,
            } => format!(
                "the rosters locked at {}, {} before round 1 ({}), and this came at {}; a roster's order is not varied after the lock, except as the arbiter orders on a protest (AS-13)",
                clock(locked, first_round),
                minutes(i64::from(m)),
                clock(first_round, first_round),
                clock(at, first_round),
            ),
            Late::ProtestBeforeRosters {
                published,
                first_round,
                at,
            } => format!(
                "a protest is against an order the rosters publish, and they are published at {} (AS-12); it is {} now, so lodge the protest once they are",
                clock(published, first_round),
                clock(at, first_round),
            ),
            Late::ProtestsClosed {
                closed,
                first_round,
                minutes: m,
                at,
            } => format!(
                "protests closed at {}, {} before round 1 ({}), and this one came at {}; it cannot be heard",
                clock(closed, first_round),
                minutes(i64::from(m)),
                clock(first_round, first_round),
                clock(at, first_round),
            ),
            Late::Lineup {
                round,
                due,
                round_start,
                minutes: m,
                named_at,
                minutes_late,
            } => format!(
                "round {round}'s lineup was due at {}, {} before the round ({}), and was named at {}, {} late; only the arbiter may accept it, with a reason",
                clock(due, round_start),
                minutes(i64::from(m)),
                clock(round_start, round_start),
                clock(named_at, round_start),
                minutes(minutes_late),
            ),
            Late::ResultBeforeRound {
                round,
                round_start,
                at,
            } => format!(
                "round {round} starts at {} and it is {} in the hall, so none of its games has been played; enter its results once it has begun",
                clock(round_start, at),
                clock(at, at),
            ),
        }
    }
}

impl fmt::Display for Late {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.rule(), self.message())
    }
}

impl std::error::Error for Late {}

impl EventDeadlines {
    /// AS-12: when the rosters lock and are published to every team.
    pub fn roster_lock(&self, first_round: DateTime) -> DateTime {
        before(first_round, self.roster_lock_minutes)
    }

    /// AS-13: when protests against a roster's order close.
    pub fn protests_close(&self, first_round: DateTime) -> DateTime {
        before(first_round, self.protest_minutes)
    }

    /// AS-11: when the lineup of the round starting at `round_start` is due.
    pub fn lineup_due(&self, round_start: DateTime) -> DateTime {
        before(round_start, self.lineup_minutes)
    }

    /// AS-12: whether every team may read every roster at `at`: from the lock on.
    pub fn rosters_published(&self, first_round: DateTime, at: DateTime) -> bool {
        at >= self.roster_lock(first_round)
    }

    /// AS-12: whether a roster may be handed in or changed at `at`: until the lock.
    pub fn roster_change(&self, first_round: DateTime, at: DateTime) -> Result<(), Late> {
        let lock = self.roster_lock(first_round);
        if at <= lock {
            return Ok(());
        }
        Err(Late::RosterLocked {
            locked: lock,
            first_round,
            minutes: self.roster_lock_minutes,
            at,
        })
    }

    /// AS-13: whether a protest may be lodged at `at`: once the rosters are published (AS-12),
    /// until protests close.
    pub fn protest_window(&self, first_round: DateTime, at: DateTime) -> Result<(), Late> {
        let published = self.roster_lock(first_round);
        let closes = self.protests_close(first_round);
        if at < published {
            return Err(Late::ProtestBeforeRosters {
                published,
                first_round,
                at,
            });
        }
        if at > closes {
            return Err(Late::ProtestsClosed {
                closed: closes,
                first_round,
                minutes: self.protest_minutes,
                at,
            });
        }
        Ok(())
    }

    /// AS-11: a lineup named at `named_at` for `round`, starting at `round_start`: on time, or
    /// late and accepted by the arbiter's `override_` (kept with it), or refused.
    pub fn lineup(
        &self,
        round: u32,
        round_start: DateTime,
        named_at: DateTime,
        override_: Option<LateOverride>,
    ) -> Result<LineupTime, Late> {
        let due = self.lineup_due(round_start);
        if named_at <= due {
            return Ok(LineupTime::OnTime { due });
        }
        let minutes_late = minutes_after(due, named_at);
        match override_ {
            Some(accepted) => Ok(LineupTime::LateAccepted {
                due,
                named_at,
                minutes_late,
                accepted,
            }),
            None => Err(Late::Lineup {
                round,
                due,
                round_start,
                minutes: self.lineup_minutes,
                named_at,
                minutes_late,
            }),
        }
    }
}

impl EventDeadlines {
    /// Where the day stands at `at`, for rounds starting at `starts` (round number, start; in
    /// any order). A deadline at `at` itself is still to come: it is met by what is done at it.
    pub fn day_now(&self, starts: &[(u32, DateTime)], at: DateTime) -> DayNow {
        let mut starts = starts.to_vec();
        starts.sort();
        let playing = starts
            .iter()
            .filter(|(_, s)| *s <= at)
            .map(|(n, _)| *n)
            .max();
        let next = starts.iter().copied().find(|(_, s)| *s > at);
        let mut deadlines = Vec::new();
        if let Some(first) = starts.iter().find(|(n, _)| *n == 1).map(|(_, s)| *s) {
            deadlines.push((DeadlineKind::RosterLock, 1, self.roster_lock(first)));
            deadlines.push((DeadlineKind::ProtestsClose, 1, self.protests_close(first)));
        }
        for (n, s) in &starts {
            deadlines.push((DeadlineKind::Lineups, *n, self.lineup_due(*s)));
            deadlines.push((DeadlineKind::RoundStart, *n, *s));
        }
        let deadline = deadlines
            .into_iter()
            .filter(|(kind, _, due)| {
                *due >= at && !(*kind == DeadlineKind::RoundStart && *due == at)
            })
            .min_by_key(|(_, _, due)| *due)
            .map(|(kind, round, at)| Deadline { kind, round, at });
        DayNow {
            playing,
            next,
            deadline,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use jiff::civil::date;

    const D: EventDeadlines = EventDeadlines::ASTC;

    fn round_1() -> DateTime {
        date(2026, 12, 7).at(10, 0, 0, 0)
    }

    fn at(h: i8, m: i8) -> DateTime {
        date(2026, 12, 7).at(h, m, 0, 0)
    }

    #[test]
    fn as_11_the_day_now_is_the_round_started_last_the_next_and_its_deadline() {
        // Issue 32 (item 22): rounds at 10:00 and 14:00, lineups due 15 minutes before.
        let starts = [(2, at(14, 0)), (1, round_1())];
        let before = D.day_now(&starts, at(9, 0));
        assert_eq!(before.playing, None);
        assert_eq!(before.next, Some((1, round_1())));
        let lock = before.deadline.unwrap();
        assert_eq!(
            (lock.kind, lock.rule()),
            (DeadlineKind::RosterLock, "AS-12")
        );
        assert_eq!(lock.at, at(9, 30));
        let closing = D.day_now(&starts, at(9, 35)).deadline.unwrap();
        assert_eq!(closing.kind, DeadlineKind::ProtestsClose);
        let playing = D.day_now(&starts, at(11, 0));
        assert_eq!(playing.playing, Some(1));
        assert_eq!(playing.next, Some((2, at(14, 0))));
        let due = playing.deadline.unwrap();
        assert_eq!(due.what(), "round 2's lineups are due");
        assert_eq!((due.at, due.rule()), (at(13, 45), "AS-11"));
        // At 13:45 the lineups are still due (a deadline is met at it); a minute on, the start.
        assert_eq!(
            D.day_now(&starts, at(13, 45)).deadline.unwrap().kind,
            DeadlineKind::Lineups
        );
        let start = D.day_now(&starts, at(13, 46)).deadline.unwrap();
        assert_eq!(
            (start.kind, start.what()),
            (DeadlineKind::RoundStart, "round 2 starts".into())
        );
        let last = D.day_now(&starts, at(14, 0));
        assert_eq!(
            (last.playing, last.next, last.deadline),
            (Some(2), None, None)
        );
    }

    #[test]
    fn as_11_a_rounds_results_are_entered_only_once_it_has_begun() {
        // Issue 30: round 4 was entered (and published) before round 1 was played.
        let round_4 = date(2026, 12, 8).at(14, 0, 0, 0);
        let early = result_entry(4, round_4, at(9, 0)).unwrap_err();
        assert_eq!(early.code(), "round_not_begun");
        assert_eq!(
            early.to_string(),
            "AS-11: round 4 starts at 2026-12-08 14:00 and it is 09:00 in the hall, so none of its games has been played; enter its results once it has begun"
        );
        assert!(
            result_entry(
                4,
                round_4,
                round_4.saturating_sub(jiff::SignedDuration::from_secs(1))
            )
            .is_err()
        );
        assert_eq!(result_entry(4, round_4, round_4), Ok(()));
    }

    #[test]
    fn as_12_the_rosters_lock_thirty_minutes_before_round_1_and_are_published_from_then() {
        assert_eq!(D.roster_lock(round_1()), at(9, 30));
        // One minute before, at, and one minute after the lock.
        assert_eq!(D.roster_change(round_1(), at(9, 29)), Ok(()));
        assert!(!D.rosters_published(round_1(), at(9, 29)));
        assert_eq!(D.roster_change(round_1(), at(9, 30)), Ok(()));
        assert!(D.rosters_published(round_1(), at(9, 30)));
        let late = D.roster_change(round_1(), at(9, 31)).unwrap_err();
        assert!(D.rosters_published(round_1(), at(9, 31)));
        assert_eq!(late.rule(), "AS-12");
        assert_eq!(
            late.to_string(),
            "AS-12: the rosters locked at 09:30, 30 minutes before round 1 (10:00), and this came at 09:31; a roster's order is not varied after the lock, except as the arbiter orders on a protest (AS-13)"
        );
    }

    #[test]
    fn as_13_protests_are_heard_from_the_publication_until_twenty_minutes_before_round_1() {
        assert_eq!(D.protests_close(round_1()), at(9, 40));
        assert_eq!(
            D.protest_window(round_1(), at(9, 29)).unwrap_err().code(),
            "protest_before_rosters"
        );
        assert_eq!(D.protest_window(round_1(), at(9, 30)), Ok(()));
        assert_eq!(D.protest_window(round_1(), at(9, 39)), Ok(()));
        assert_eq!(D.protest_window(round_1(), at(9, 40)), Ok(()));
        let late = D.protest_window(round_1(), at(9, 41)).unwrap_err();
        assert_eq!(
            late.to_string(),
            "AS-13: protests closed at 09:40, 20 minutes before round 1 (10:00), and this one came at 09:41; it cannot be heard"
        );
    }

    #[test]
    fn as_11_a_late_lineup_is_refused_and_one_the_arbiter_accepts_is_kept_with_the_override() {
        let round_3 = at(14, 0);
        assert_eq!(
            D.lineup(3, round_3, at(13, 45), None),
            Ok(LineupTime::OnTime { due: at(13, 45) })
        );
        let late = D.lineup(3, round_3, at(13, 46), None).unwrap_err();
        assert_eq!(
            late.to_string(),
            "AS-11: round 3's lineup was due at 13:45, 15 minutes before the round (14:00), and was named at 13:46, 1 minute late; only the arbiter may accept it, with a reason"
        );
        let accepted = LateOverride {
            by: "Chief Arbiter".into(),
            at: at(13, 50),
            reason: Reason::parse("The team's bus was held up by roadworks")
                .unwrap()
                .unwrap(),
        };
        let kept = D
            .lineup(3, round_3, at(13, 46), Some(accepted.clone()))
            .unwrap();
        assert_eq!(
            kept,
            LineupTime::LateAccepted {
                due: at(13, 45),
                named_at: at(13, 46),
                minutes_late: 1,
                accepted,
            }
        );
        // A part of a minute late is a minute late.
        let half = date(2026, 12, 7).at(13, 45, 30, 0);
        assert!(matches!(
            D.lineup(3, round_3, half, None),
            Err(Late::Lineup {
                minutes_late: 1,
                ..
            })
        ));
    }

    #[test]
    fn as_11_to_as_13_settings_are_checked() {
        assert_eq!(D.check(), Ok(()));
        let closes_first = EventDeadlines {
            protest_minutes: 30,
            ..D
        };
        assert!(closes_first.check().unwrap_err().contains("AS-13, AS-12"));
        let a_month = EventDeadlines {
            roster_lock_minutes: 40_000,
            ..D
        };
        assert!(a_month.check().unwrap_err().contains("a week"));
        // A lock the day before names its day.
        let day_before = EventDeadlines {
            roster_lock_minutes: 24 * 60,
            ..D
        };
        let late = day_before.roster_change(round_1(), at(8, 0)).unwrap_err();
        assert!(
            late.to_string().contains("locked at 2026-12-06 10:00"),
            "{late}"
        );
    }
}
