//! GT-M2's calendar of school days: a season's first and last days and the days its schools
//! are shut (holidays, breaks), on which no match is set or moved to.
//!
//! A school day is a weekday (Monday to Friday) inside the season that no closure covers; the
//! league's match days are the school days falling on the ruleset's `[calendar] match_days`
//! (GT-M2: "usually Mondays and Wednesdays, not only"). The calendar is the league's: every
//! school of it is shut on a closure. This module imports nothing else from core.
//!
//! [`check_new_season`], which the store asks of every new season, also refuses one outside the
//! years [`SEASON_YEARS`].

use jiff::civil::{Date, Weekday};
use serde::Serialize;

/// Monday to Friday: the days a school is open, and the match days of a ruleset that names
/// none (GT-M2).
pub const SCHOOL_WEEK: [Weekday; 5] = [
    Weekday::Monday,
    Weekday::Tuesday,
    Weekday::Wednesday,
    Weekday::Thursday,
    Weekday::Friday,
];

/// The years a season's days may lie in when it is created. Core reads no clock, so the window
/// is fixed: wide enough for any season the product will run, narrow enough that a mistyped
/// year (`0026`, `9999`) is refused instead of making a calendar of thousands of years that the
/// schedule and every deadline would walk.
pub const SEASON_YEARS: std::ops::RangeInclusive<i16> = 2000..=2100;

/// A closure: the school (all the league's schools) shut from `from` to `to`, both inclusive.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Closure {
    /// The first day shut.
    pub from: Date,
    /// The last day shut (the same as `from` for a single day).
    pub to: Date,
    /// What the closure is, as messages name it: `winter break`, `Presidents' Day`.
    pub reason: String,
}

/// A season's school calendar: its first and last days and its closures and holidays (GT-M2).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SchoolCalendar {
    /// The season's first day.
    pub starts_on: Date,
    /// The season's last day.
    pub ends_on: Date,
    /// The days the schools are shut, in any order; they may overlap.
    pub closures: Vec<Closure>,
}

/// Why a calendar or a closure cannot be: its last day is before its first (GT-M2).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CalendarError {
    /// The season ends before it starts.
    #[error(
        "The season cannot end on {ends_on}, before it starts on {starts_on}; give its last day on or after its first (GT-M2's calendar)."
    )]
    SeasonEndsBeforeItStarts {
        /// The season's first day, as given.
        starts_on: Date,
        /// The season's last day, as given.
        ends_on: Date,
    },
    /// A season's first or last day is outside [`SEASON_YEARS`].
    #[error(
        "The season's {which} day, {day}, is not in the years {} to {} a season may lie in; give the day with its full year, e.g. 2026-09-08.",
        SEASON_YEARS.start(),
        SEASON_YEARS.end()
    )]
    SeasonOutsideYears {
        /// `first` or `last`.
        which: &'static str,
        /// The day, as given.
        day: Date,
    },
    /// A closure ends before it starts.
    #[error(
        "The closure “{reason}” cannot end on {to}, before it starts on {from}; give its last day on or after its first (GT-M2's calendar)."
    )]
    ClosureEndsBeforeItStarts {
        /// The closure's first day, as given.
        from: Date,
        /// The closure's last day, as given.
        to: Date,
        /// The closure's reason, as given.
        reason: String,
    },
    /// A closure without a reason, which no message could name.
    #[error(
        "The closure from {from} to {to} has no reason; say what it is (winter break, Presidents' Day), as messages name it (GT-M2's calendar)."
    )]
    ClosureWithoutReason {
        /// The closure's first day.
        from: Date,
        /// The closure's last day.
        to: Date,
    },
}

/// A season's first and last days as it is created (each may be unknown yet): each in
/// [`SEASON_YEARS`], the last on or after the first. A calendar read back is not asked again.
pub fn check_new_season(
    starts_on: Option<Date>,
    ends_on: Option<Date>,
) -> Result<(), CalendarError> {
    for (which, day) in [("first", starts_on), ("last", ends_on)] {
        if let Some(day) = day.filter(|d| !SEASON_YEARS.contains(&d.year())) {
            return Err(CalendarError::SeasonOutsideYears { which, day });
        }
    }
    match (starts_on, ends_on) {
        (Some(starts_on), Some(ends_on)) if ends_on < starts_on => {
            Err(CalendarError::SeasonEndsBeforeItStarts { starts_on, ends_on })
        }
        _ => Ok(()),
    }
}

impl Closure {
    /// The closure from `from` to `to` (both inclusive), or why it cannot be: it ends before it
    /// starts, or has no reason to name it by.
    pub fn new(from: Date, to: Date, reason: impl Into<String>) -> Result<Closure, CalendarError> {
        let c = Closure {
            from,
            to,
            reason: reason.into(),
        };
        c.check()?;
        Ok(c)
    }

    /// The single-day closure on `day` (a holiday).
    pub fn day(day: Date, reason: impl Into<String>) -> Result<Closure, CalendarError> {
        Closure::new(day, day, reason)
    }

    /// Whether the closure can be: it ends on or after its first day and has a reason.
    pub fn check(&self) -> Result<(), CalendarError> {
        if self.to < self.from {
            return Err(CalendarError::ClosureEndsBeforeItStarts {
                from: self.from,
                to: self.to,
                reason: self.reason.clone(),
            });
        }
        if self.reason.trim().is_empty() {
            return Err(CalendarError::ClosureWithoutReason {
                from: self.from,
                to: self.to,
            });
        }
        Ok(())
    }

    /// Whether the schools are shut on `d` by this closure.
    pub fn covers(&self, d: Date) -> bool {
        self.from <= d && d <= self.to
    }

    /// `d` in this closure, as a refusal says it (GT-M2): `2026-12-23 is a closed day: Winter
    /// break, 2026-12-21 to 2027-01-01`, `2027-01-18 is a closed day: Martin Luther King Jr. Day`
    /// (the reason as the officer wrote it, whatever its letter case).
    pub fn describe(&self, d: Date) -> String {
        if self.from == self.to {
            format!("{d} is a closed day: {}", self.reason)
        } else {
            format!(
                "{d} is a closed day: {}, {} to {}",
                self.reason, self.from, self.to
            )
        }
    }
}

impl SchoolCalendar {
    /// The calendar of a season from `starts_on` to `ends_on` with `closures`, or why it cannot
    /// be: the season, or one of the closures, ends before it starts (the first found).
    pub fn new(
        starts_on: Date,
        ends_on: Date,
        closures: Vec<Closure>,
    ) -> Result<SchoolCalendar, CalendarError> {
        let c = SchoolCalendar {
            starts_on,
            ends_on,
            closures,
        };
        c.check()?;
        Ok(c)
    }

    /// Whether the calendar can be: the season and every closure end on or after their first
    /// day. [`SchoolCalendar::new`] checks it; a calendar built field by field may ask.
    pub fn check(&self) -> Result<(), CalendarError> {
        if self.ends_on < self.starts_on {
            return Err(CalendarError::SeasonEndsBeforeItStarts {
                starts_on: self.starts_on,
                ends_on: self.ends_on,
            });
        }
        self.closures.iter().try_for_each(Closure::check)
    }

    /// The closure that shuts the schools on `d`, if any (the first listed of overlapping ones).
    pub fn closure_on(&self, d: Date) -> Option<&Closure> {
        self.closures.iter().find(|c| c.covers(d))
    }

    /// Whether `d` is inside the season, from its first day to its last.
    pub fn in_season(&self, d: Date) -> bool {
        self.starts_on <= d && d <= self.ends_on
    }

    /// A weekday inside the season that no closure covers.
    pub fn is_school_day(&self, d: Date) -> bool {
        self.in_season(d) && is_weekday(d) && self.closure_on(d).is_none()
    }

    /// School days after `from` up to and including `to` (0 when to <= from).
    pub fn school_days_between(&self, from: Date, to: Date) -> i64 {
        // Only the season's days can be school days: count there, however far apart the two are.
        let Ok(after) = from.tomorrow() else { return 0 };
        let first = after.max(self.starts_on);
        let last = to.min(self.ends_on);
        let count = days(first, last).filter(|&d| self.is_school_day(d)).count();
        i64::try_from(count).unwrap_or(i64::MAX)
    }

    /// Every school day of the season, in order.
    pub fn school_days(&self) -> Vec<Date> {
        self.match_days(&SCHOOL_WEEK)
    }

    /// The season's days falling on one of `weekdays` that no closure covers, in order: its
    /// school days on those weekdays, and a Saturday or Sunday only when `weekdays` names it (a
    /// weekend league's `[calendar] match_days`).
    pub fn match_days(&self, weekdays: &[Weekday]) -> Vec<Date> {
        days(self.starts_on, self.ends_on)
            .filter(|&d| weekdays.contains(&d.weekday()) && self.closure_on(d).is_none())
            .collect()
    }
}

/// Monday to Friday.
pub fn is_weekday(d: Date) -> bool {
    !matches!(d.weekday(), Weekday::Saturday | Weekday::Sunday)
}

/// The day's name as a sentence writes it: `Monday`.
pub fn weekday_name(w: Weekday) -> &'static str {
    match w {
        Weekday::Monday => "Monday",
        Weekday::Tuesday => "Tuesday",
        Weekday::Wednesday => "Wednesday",
        Weekday::Thursday => "Thursday",
        Weekday::Friday => "Friday",
        Weekday::Saturday => "Saturday",
        Weekday::Sunday => "Sunday",
    }
}

/// The day's name as a ruleset file writes it (`[calendar] match_days`): `monday`.
pub fn weekday_code(w: Weekday) -> &'static str {
    match w {
        Weekday::Monday => "monday",
        Weekday::Tuesday => "tuesday",
        Weekday::Wednesday => "wednesday",
        Weekday::Thursday => "thursday",
        Weekday::Friday => "friday",
        Weekday::Saturday => "saturday",
        Weekday::Sunday => "sunday",
    }
}

/// The weekday a ruleset file names (`monday` … `sunday`, as [`weekday_code`] writes them).
pub fn weekday_from_code(code: &str) -> Option<Weekday> {
    [
        Weekday::Monday,
        Weekday::Tuesday,
        Weekday::Wednesday,
        Weekday::Thursday,
        Weekday::Friday,
        Weekday::Saturday,
        Weekday::Sunday,
    ]
    .into_iter()
    .find(|&w| weekday_code(w) == code)
}

/// Weekdays named in a sentence, in the order first given, each once: `Monday, Wednesday`.
pub fn weekday_list<'a>(weekdays: impl IntoIterator<Item = &'a Weekday>) -> String {
    let mut named: Vec<&str> = Vec::new();
    for &w in weekdays {
        let name = weekday_name(w);
        if !named.contains(&name) {
            named.push(name);
        }
    }
    named.join(", ")
}

/// Every day from `first` to `last`, both inclusive (none when `last` is before `first`).
fn days(first: Date, last: Date) -> impl Iterator<Item = Date> {
    std::iter::successors((first <= last).then_some(first), move |d| {
        d.tomorrow().ok().filter(|next| *next <= last)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use jiff::civil::date;

    /// The GTHSCL demo's 2026-27 season: 5 Oct to 24 Feb, with its breaks and holidays.
    fn season() -> SchoolCalendar {
        SchoolCalendar::new(
            date(2026, 10, 5),
            date(2027, 2, 24),
            vec![
                Closure::new(date(2026, 11, 25), date(2026, 11, 27), "Thanksgiving break").unwrap(),
                Closure::new(date(2026, 12, 21), date(2027, 1, 1), "winter break").unwrap(),
                Closure::day(date(2027, 1, 18), "Martin Luther King Jr. Day").unwrap(),
            ],
        )
        .unwrap()
    }

    #[test]
    fn gt_m2_a_school_day_is_a_weekday_of_the_season_outside_every_closure() {
        let c = season();
        assert!(
            c.is_school_day(date(2026, 10, 5)),
            "the first day, a Monday"
        );
        assert!(
            c.is_school_day(date(2027, 2, 24)),
            "the last day, a Wednesday"
        );
        assert!(!c.is_school_day(date(2026, 10, 2)), "before the season");
        assert!(!c.is_school_day(date(2027, 2, 25)), "after the season");
        assert!(!c.is_school_day(date(2026, 10, 10)), "a Saturday");
        assert!(
            !c.is_school_day(date(2026, 12, 21)),
            "the winter break's first day"
        );
        assert!(!c.is_school_day(date(2027, 1, 1)), "its last");
        assert!(c.is_school_day(date(2027, 1, 4)), "the Monday after it");
        assert!(!c.is_school_day(date(2027, 1, 18)), "a holiday");
        assert_eq!(
            c.closure_on(date(2026, 12, 23)).map(|c| c.reason.as_str()),
            Some("winter break")
        );
        assert_eq!(c.closure_on(date(2026, 12, 18)), None);
    }

    #[test]
    fn gt_m2_school_days_between_skip_weekends_and_closures() {
        let c = season();
        // Mon 2 Nov to Mon 23 Nov: three school weeks.
        assert_eq!(
            c.school_days_between(date(2026, 11, 2), date(2026, 11, 23)),
            15
        );
        // Mon 23 Nov to Mon 30 Nov: Tue 24, then Thanksgiving (Wed-Fri), then Mon 30.
        assert_eq!(
            c.school_days_between(date(2026, 11, 23), date(2026, 11, 30)),
            2
        );
        // Fri 18 Dec to Mon 4 Jan: the winter break is not counted.
        assert_eq!(
            c.school_days_between(date(2026, 12, 18), date(2027, 1, 4)),
            1
        );
        assert_eq!(
            c.school_days_between(date(2026, 11, 2), date(2026, 11, 2)),
            0
        );
        assert_eq!(
            c.school_days_between(date(2026, 11, 9), date(2026, 11, 2)),
            0
        );
        // Only the season's days count, however far apart the two days are.
        assert_eq!(
            c.school_days_between(date(2026, 1, 1), date(2026, 10, 9)),
            5
        );
        assert_eq!(
            c.school_days_between(date(2027, 2, 22), date(9999, 12, 31)),
            2
        );
    }

    #[test]
    fn gt_m2_match_days_are_the_school_days_on_the_weekdays_named() {
        let c = season();
        let days = c.match_days(&[Weekday::Monday, Weekday::Wednesday]);
        assert_eq!(days.first(), Some(&date(2026, 10, 5)));
        assert_eq!(days.last(), Some(&date(2027, 2, 24)));
        assert!(days.windows(2).all(|w| w[0] < w[1]));
        for d in [date(2026, 11, 25), date(2026, 12, 21), date(2027, 1, 18)] {
            assert!(!days.contains(&d), "{d} is closed");
        }
        // 21 weeks of Mondays and Wednesdays, less 25 Nov, 21, 23, 28 and 30 Dec and 18 Jan.
        assert_eq!(days.len(), 21 * 2 - 6);
        assert!(c.match_days(&[]).is_empty());
        assert_eq!(c.school_days().len(), c.match_days(&SCHOOL_WEEK).len());
        // A weekend league's Sundays: every Sunday of the season outside the closures (the
        // winter break covers 27 Dec).
        let sundays = c.match_days(&[Weekday::Sunday]);
        assert_eq!(sundays.first(), Some(&date(2026, 10, 11)));
        assert!(!sundays.contains(&date(2026, 12, 27)), "closed");
        assert!(sundays.iter().all(|d| d.weekday() == Weekday::Sunday));
    }

    #[test]
    fn a_season_is_created_only_within_the_years_2000_to_2100() {
        assert!(check_new_season(Some(date(2000, 1, 1)), Some(date(2100, 12, 31))).is_ok());
        assert!(check_new_season(None, None).is_ok());
        let e = check_new_season(Some(date(1, 1, 1)), Some(date(2026, 6, 1))).unwrap_err();
        assert_eq!(
            e.to_string(),
            "The season's first day, 0001-01-01, is not in the years 2000 to 2100 a season may lie in; give the day with its full year, e.g. 2026-09-08."
        );
        let e = check_new_season(Some(date(2026, 9, 8)), Some(date(9999, 12, 31))).unwrap_err();
        assert!(e.to_string().contains("last day, 9999-12-31"), "{e}");
        assert!(check_new_season(Some(date(1999, 12, 31)), None).is_err());
        assert!(matches!(
            check_new_season(Some(date(2027, 2, 24)), Some(date(2026, 10, 5))),
            Err(CalendarError::SeasonEndsBeforeItStarts { .. })
        ));
    }

    #[test]
    fn gt_m2_a_closure_or_a_season_that_ends_before_it_starts_is_refused() {
        let e = Closure::new(date(2027, 1, 1), date(2026, 12, 21), "winter break").unwrap_err();
        assert_eq!(
            e.to_string(),
            "The closure “winter break” cannot end on 2026-12-21, before it starts on 2027-01-01; give its last day on or after its first (GT-M2's calendar)."
        );
        let e = SchoolCalendar::new(date(2027, 2, 24), date(2026, 10, 5), Vec::new()).unwrap_err();
        assert_eq!(
            e.to_string(),
            "The season cannot end on 2026-10-05, before it starts on 2027-02-24; give its last day on or after its first (GT-M2's calendar)."
        );
        let e = Closure::day(date(2027, 1, 18), " ").unwrap_err();
        assert!(e.to_string().contains("has no reason"), "{e}");
        // A closure built field by field is checked with the calendar.
        let mut c = season();
        c.closures.push(Closure {
            from: date(2027, 2, 16),
            to: date(2027, 2, 15),
            reason: "Presidents' Day".into(),
        });
        assert!(matches!(
            c.check(),
            Err(CalendarError::ClosureEndsBeforeItStarts { .. })
        ));
        assert!(
            SchoolCalendar::new(c.starts_on, c.ends_on, c.closures).is_err(),
            "new checks the closures"
        );
    }

    #[test]
    fn gt_m2_a_closure_says_the_day_in_it() {
        let c = season();
        assert_eq!(
            c.closure_on(date(2026, 12, 23))
                .unwrap()
                .describe(date(2026, 12, 23)),
            "2026-12-23 is a closed day: winter break, 2026-12-21 to 2027-01-01"
        );
        assert_eq!(
            c.closure_on(date(2027, 1, 18))
                .unwrap()
                .describe(date(2027, 1, 18)),
            "2027-01-18 is a closed day: Martin Luther King Jr. Day"
        );
    }

    #[test]
    fn weekday_codes_read_back() {
        for w in SCHOOL_WEEK
            .into_iter()
            .chain([Weekday::Saturday, Weekday::Sunday])
        {
            assert_eq!(weekday_from_code(weekday_code(w)), Some(w));
        }
        assert_eq!(weekday_from_code("Monday"), None);
        assert_eq!(
            weekday_list(&[Weekday::Monday, Weekday::Wednesday]),
            "Monday, Wednesday"
        );
    }
}
