//! A league's or event's time zone (RULES.md, "Readings that apply across rules: Time"): every
//! day and time a rule counts (GT-P2's one and five days, GT-P4's lateness, AS-11..AS-13's
//! minutes) is the local day and time there, so "within 1 day" of a match is by the end of the
//! next local day. The zones are the IANA tz database bundled into the build: no file is read,
//! and a machine without `/usr/share/zoneinfo` still knows `America/New_York`. Imports nothing
//! else from core.

use std::fmt;

/// An IANA time zone by its name (`America/New_York`, `Australia/Adelaide`, `UTC`).
#[derive(Debug, Clone)]
pub struct Zone(jiff::tz::TimeZone);

/// A zone's name the tz database does not know, as the sentence that names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownZone(pub String);

impl fmt::Display for UnknownZone {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "“{}” is not a time zone of the IANA tz database; name one such as America/New_York, \
             Australia/Adelaide or UTC",
            self.0
        )
    }
}

impl std::error::Error for UnknownZone {}

impl Zone {
    /// The zone named `name` in the tz database, or the sentence that refuses it.
    pub fn named(name: &str) -> Result<Zone, UnknownZone> {
        let name = name.trim();
        jiff::tz::TimeZone::get(name)
            .ok()
            .filter(|tz| tz.iana_name().is_some())
            .map(Zone)
            .ok_or_else(|| UnknownZone(name.to_string()))
    }

    /// UTC: the zone of a league whose own was never set (before migration 0027).
    pub fn utc() -> Zone {
        Zone(jiff::tz::TimeZone::UTC)
    }

    /// The zone's IANA name, as it is stored and shown.
    pub fn name(&self) -> &str {
        self.0.iana_name().unwrap_or("UTC")
    }

    /// The zone as jiff's, for arithmetic on local times.
    pub fn tz(&self) -> &jiff::tz::TimeZone {
        &self.0
    }

    /// The local day and time of `at` here.
    pub fn local(&self, at: jiff::Timestamp) -> jiff::civil::DateTime {
        self.0.to_datetime(at)
    }

    /// The local day of `at` here: the day a result entered at `at` counts as entered on.
    pub fn day_of(&self, at: jiff::Timestamp) -> jiff::civil::Date {
        self.local(at).date()
    }

    /// The instant a local time here names; a time the clocks skip or repeat is read as the
    /// clocks' change reads it (jiff's "compatible": the later offset in a gap, the earlier in a
    /// fold). `None` past the range of time.
    pub fn instant(&self, local: jiff::civil::DateTime) -> Option<jiff::Timestamp> {
        self.0.to_ambiguous_timestamp(local).compatible().ok()
    }
}

impl PartialEq for Zone {
    fn eq(&self, other: &Zone) -> bool {
        self.name() == other.name()
    }
}

impl Eq for Zone {}

impl fmt::Display for Zone {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Whether the local time of day `at` fell between `was` (excluded) and `is` (included), on
/// either day: what a daily task at `at` checks from one look at the clock to the next.
pub fn passed(
    was: jiff::civil::DateTime,
    is: jiff::civil::DateTime,
    at: jiff::civil::Time,
) -> bool {
    [was.date(), is.date()]
        .into_iter()
        .map(|d| d.to_datetime(at))
        .any(|moment| was < moment && moment <= is)
}

#[cfg(test)]
mod tests {
    #[test]
    fn gt_p2_a_daily_reminder_time_is_passed_once_between_two_looks_at_the_clock() {
        let at = jiff::civil::time(17, 0, 0, 0);
        let day = jiff::civil::date(2026, 11, 16);
        let t = |h, m| day.to_datetime(jiff::civil::time(h, m, 0, 0));
        assert!(passed(t(16, 59), t(17, 0), at));
        assert!(
            !passed(t(17, 0), t(17, 1), at),
            "once, not again a minute later"
        );
        assert!(!passed(t(9, 0), t(16, 59), at));
        // Across midnight: the next day's moment counts, the day before's too.
        let next = jiff::civil::date(2026, 11, 17).to_datetime(jiff::civil::time(17, 30, 0, 0));
        assert!(passed(t(23, 0), next, at));
        assert!(passed(t(16, 0), next, at));
    }

    use super::*;
    use jiff::civil::date;

    #[test]
    fn the_bundled_database_knows_the_leagues_zones() {
        for name in ["America/New_York", "Australia/Adelaide", "UTC"] {
            assert_eq!(Zone::named(name).unwrap().name(), name);
        }
    }

    #[test]
    fn an_unknown_zone_is_refused_by_name() {
        let refused = Zone::named("Mars/Olympus_Mons").unwrap_err();
        assert!(
            refused.to_string().contains("“Mars/Olympus_Mons”"),
            "{refused}"
        );
        assert!(Zone::named("").is_err());
    }

    #[test]
    fn gt_p2_an_evening_in_toledo_is_still_that_day_there() {
        let toledo = Zone::named("America/New_York").unwrap();
        let at = toledo.instant(date(2026, 11, 4).at(19, 30, 0, 0)).unwrap();
        assert_eq!(at.to_string(), "2026-11-05T00:30:00Z");
        assert_eq!(toledo.day_of(at), date(2026, 11, 4));
    }

    #[test]
    fn as_11_the_halls_clock_follows_daylight_saving() {
        let adelaide = Zone::named("Australia/Adelaide").unwrap();
        let december = adelaide.instant(date(2026, 12, 7).at(9, 0, 0, 0)).unwrap();
        let june = adelaide.instant(date(2026, 6, 7).at(9, 0, 0, 0)).unwrap();
        assert_eq!(december.to_string(), "2026-12-06T22:30:00Z");
        assert_eq!(june.to_string(), "2026-06-06T23:30:00Z");
    }
}
