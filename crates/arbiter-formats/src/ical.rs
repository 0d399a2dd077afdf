//! iCalendar (RFC 5545) feeds of a schedule (issue 12, part 6; issue 32): one `VEVENT` a match,
//! that a phone's calendar subscribes to (`webcal://`). A match keeps its `UID` when it moves,
//! and its `SEQUENCE` rises with each move and with its cancellation (`STATUS:CANCELLED`), so a
//! subscribed calendar moves it, or strikes it out, too.
//!
//! Written here, not by a crate: the format is a few lines of text, and the tests read it back
//! with an independent parser (`icalendar`'s).

use std::fmt::Write as _;

use jiff::civil::{Date, Time};
use jiff::tz::TimeZone;

/// A calendar: its name as a phone shows it, the zone its matches' times are local to, and its
/// events.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Feed {
    /// `X-WR-CALNAME`: `GTHSCL 2026-27: Start Spartans`.
    pub name: String,
    /// The league's zone, or an event's hall clock (RULES.md, "Time"): every event's day and
    /// start are local to it. Its IANA name is written as `X-WR-TIMEZONE`, the zone a calendar
    /// made from the feed shows (a hall's fixed offset from UTC has none).
    pub zone: TimeZone,
    /// The events, in the order written.
    pub events: Vec<Event>,
}

/// One match (or any day's event) as a calendar holds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Event {
    /// Stable across changes: the same match keeps it when its date moves.
    pub uid: String,
    /// The local day.
    pub date: Date,
    /// The local start time when it is known: the event then starts then and lasts
    /// [`MATCH_HOURS`]; else it lasts the day.
    pub start: Option<Time>,
    /// `Start Spartans v Scott`.
    pub summary: String,
    /// Where it is played: the home school's name and address.
    pub location: Option<String>,
    /// A few lines: the competition, the round, the result when played.
    pub description: Option<String>,
    /// The match's page.
    pub url: Option<String>,
    /// Rises with every change of its day, time or status (core's `fixture::sequence`), so
    /// that a calendar takes the new version.
    pub sequence: u32,
    /// The match will not be played (GT-M5's drop, a forfeit): `STATUS:CANCELLED`, so that a
    /// subscribed calendar strikes it out, and its summary says so for one that does not.
    pub cancelled: bool,
}

/// How long a timed match event lasts: a game of 30 moves in an hour and 30 minutes more for
/// each player (GT-M19) is at most three hours.
pub const MATCH_HOURS: i64 = 3;

/// How often a subscribed calendar is asked to read the feed again: matches move by
/// arrangement (GT-M2) and a phone should see it the same day. An unchanged feed costs a 304.
const REFRESH: &str = "PT1H";

/// The feed as `text/calendar`: CRLF line ends, lines folded at 75 octets, text escaped.
/// `stamp` is `DTSTAMP`, when the feed was drawn.
pub fn write(feed: &Feed, stamp: jiff::Timestamp) -> String {
    let mut out = String::new();
    line(&mut out, "BEGIN:VCALENDAR");
    line(&mut out, "VERSION:2.0");
    line(&mut out, "PRODID:-//Arbiter//Chess team competitions//EN");
    line(&mut out, "CALSCALE:GREGORIAN");
    line(&mut out, "METHOD:PUBLISH");
    line(&mut out, &format!("X-WR-CALNAME:{}", text(&feed.name)));
    if let Some(name) = feed.zone.iana_name() {
        line(&mut out, &format!("X-WR-TIMEZONE:{name}"));
    }
    // RFC 7986's refresh interval, and the older name Apple's and Microsoft's calendars read.
    line(
        &mut out,
        &format!("REFRESH-INTERVAL;VALUE=DURATION:{REFRESH}"),
    );
    line(&mut out, &format!("X-PUBLISHED-TTL:{REFRESH}"));
    for e in &feed.events {
        line(&mut out, "BEGIN:VEVENT");
        line(&mut out, &format!("UID:{}", text(&e.uid)));
        line(&mut out, &format!("DTSTAMP:{}", utc(stamp)));
        // A timed match is written in UTC, the instant its local start names in the league's
        // zone (daylight saving and all, from the tz database bundled into the build), not as
        // `TZID=America/New_York` with a VTIMEZONE: every calendar reads a UTC time the same
        // way and shows it in its reader's own zone, while a TZID is read unevenly (Google's
        // reads the name and ignores the VTIMEZONE, Outlook's matches the VTIMEZONE by its own
        // zone names, some read neither and fall back to floating). A match never recurs, so
        // the one thing a TZID would add, the local time kept across a later change of the
        // zone's rules, is kept instead by the feed being read again. A time that names no
        // instant (past the range of time) is left a day.
        let instant = e.start.and_then(|t| {
            let local = e.date.to_datetime(t);
            // A time the clocks skip or repeat is read as core's `Zone::instant` reads it.
            feed.zone.to_ambiguous_timestamp(local).compatible().ok()
        });
        match instant {
            Some(at) => {
                line(&mut out, &format!("DTSTART:{}", utc(at)));
                let end = at
                    .checked_add(jiff::SignedDuration::from_hours(MATCH_HOURS))
                    .unwrap_or(at);
                line(&mut out, &format!("DTEND:{}", utc(end)));
            }
            None => {
                line(&mut out, &format!("DTSTART;VALUE=DATE:{}", day(e.date)));
                let next = e.date.tomorrow().unwrap_or(e.date);
                line(&mut out, &format!("DTEND;VALUE=DATE:{}", day(next)));
            }
        }
        line(&mut out, &format!("SEQUENCE:{}", e.sequence));
        if e.cancelled {
            line(&mut out, "STATUS:CANCELLED");
            line(
                &mut out,
                &format!("SUMMARY:{}", text(&format!("Cancelled: {}", e.summary))),
            );
        } else {
            line(&mut out, "STATUS:CONFIRMED");
            line(&mut out, &format!("SUMMARY:{}", text(&e.summary)));
        }
        if let Some(l) = &e.location {
            line(&mut out, &format!("LOCATION:{}", text(l)));
        }
        if let Some(d) = &e.description {
            line(&mut out, &format!("DESCRIPTION:{}", text(d)));
        }
        if let Some(u) = &e.url {
            // A URI value is not TEXT: written as it is.
            line(&mut out, &format!("URL:{u}"));
        }
        line(&mut out, "TRANSP:TRANSPARENT");
        line(&mut out, "END:VEVENT");
    }
    line(&mut out, "END:VCALENDAR");
    out
}

/// RFC 5545 3.3.5's form 2: a time in UTC, `20261116T203000Z`.
fn utc(at: jiff::Timestamp) -> String {
    at.strftime("%Y%m%dT%H%M%SZ").to_string()
}

fn day(d: Date) -> String {
    format!("{:04}{:02}{:02}", d.year(), d.month(), d.day())
}

/// RFC 5545 3.3.11: a backslash, semicolon, comma and newline escaped.
fn text(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            ';' => out.push_str("\\;"),
            ',' => out.push_str("\\,"),
            '\n' => out.push_str("\\n"),
            '\r' => {}
            c => out.push(c),
        }
    }
    out
}

/// RFC 5545 3.1: a content line of at most 75 octets, folded with CRLF and a space, never
/// inside a character.
fn line(out: &mut String, content: &str) {
    let mut width = 0;
    for c in content.chars() {
        let n = c.len_utf8();
        if width + n > 75 {
            out.push_str("\r\n ");
            width = 1;
        }
        out.push(c);
        width += n;
    }
    let _ = write!(out, "\r\n");
}

#[cfg(test)]
mod tests {
    use super::*;
    use jiff::civil::date;

    fn feed() -> Feed {
        Feed {
            name: "GTHSCL 2026-27: Start Spartans".into(),
            zone: TimeZone::get("America/New_York").unwrap(),
            events: vec![Event {
                uid: "gthscl-2026-27-division-a-r4-start@arbiter".into(),
                date: date(2026, 11, 16),
                start: None,
                summary: "Start Spartans v Scott; round 4, Division A".into(),
                location: Some("Start High School, Toledo".into()),
                description: Some("GTHSCL 2026-27\nHome: Start High School".into()),
                url: Some("https://league.example/leagues/gthscl/2026-27/division-a".into()),
                sequence: 7,
                cancelled: false,
            }],
        }
    }

    #[test]
    fn lines_end_in_crlf_and_fold_at_75_octets_without_splitting_a_character() {
        let mut f = feed();
        f.events[0].summary = "Zoë O'Brien's team ".repeat(8);
        let text = write(&f, jiff::Timestamp::UNIX_EPOCH);
        assert!(text.ends_with("END:VCALENDAR\r\n"));
        for l in text.split("\r\n") {
            assert!(l.len() <= 75, "{l:?} is {} octets", l.len());
        }
        assert!(!text.replace("\r\n", "").contains('\n'));
        let unfolded = text.replace("\r\n ", "");
        assert!(unfolded.contains(&format!("SUMMARY:{}", "Zoë O'Brien's team ".repeat(8))));
    }

    #[test]
    fn text_is_escaped_and_a_day_lasts_the_day() {
        let text = write(&feed(), jiff::Timestamp::UNIX_EPOCH).replace("\r\n ", "");
        assert!(text.contains("SUMMARY:Start Spartans v Scott\\; round 4\\, Division A\r\n"));
        assert!(text.contains("LOCATION:Start High School\\, Toledo\r\n"));
        assert!(text.contains("DESCRIPTION:GTHSCL 2026-27\\nHome: Start High School\r\n"));
        assert!(text.contains("DTSTART;VALUE=DATE:20261116\r\nDTEND;VALUE=DATE:20261117\r\n"));
        assert!(text.contains("DTSTAMP:19700101T000000Z\r\n"));
        assert!(text.contains("SEQUENCE:7\r\n"));
    }

    #[test]
    fn a_timed_match_starts_at_the_instant_its_local_time_names_in_the_leagues_zone() {
        let mut f = feed();
        // GT-M1: the home advisor arranged 15:30 in Toledo: Eastern Standard Time on 16
        // November (UTC-5), Eastern Daylight Time on 14 October (UTC-4).
        f.events[0].start = Some(jiff::civil::time(15, 30, 0, 0));
        let mut october = f.events[0].clone();
        october.date = date(2026, 10, 14);
        f.events.push(october);
        let text = write(&f, jiff::Timestamp::UNIX_EPOCH);
        assert!(
            text.contains("DTSTART:20261116T203000Z\r\nDTEND:20261116T233000Z\r\n"),
            "{text}"
        );
        assert!(
            text.contains("DTSTART:20261014T193000Z\r\nDTEND:20261014T223000Z\r\n"),
            "{text}"
        );
        assert!(text.contains("X-WR-TIMEZONE:America/New_York\r\n"));
        assert!(!text.contains("VALUE=DATE"), "{text}");
        // The same local time in Adelaide is another instant.
        f.zone = TimeZone::get("Australia/Adelaide").unwrap();
        let text = write(&f, jiff::Timestamp::UNIX_EPOCH);
        assert!(text.contains("DTSTART:20261116T050000Z\r\n"), "{text}");
        // A hall's fixed offset from UTC (an event set before its league had a zone) names no
        // zone for the calendar.
        f.zone = TimeZone::fixed(jiff::tz::offset(10));
        let text = write(&f, jiff::Timestamp::UNIX_EPOCH);
        assert!(text.contains("DTSTART:20261116T053000Z\r\n"), "{text}");
        assert!(!text.contains("X-WR-TIMEZONE"), "{text}");
    }

    #[test]
    fn gt_m5_a_match_that_will_not_be_played_is_cancelled_with_its_sequence() {
        let mut f = feed();
        f.events[0].cancelled = true;
        f.events[0].sequence = 3;
        let text = write(&f, jiff::Timestamp::UNIX_EPOCH).replace("\r\n ", "");
        assert!(
            text.contains(
                "SEQUENCE:3\r\nSTATUS:CANCELLED\r\nSUMMARY:Cancelled: Start Spartans v Scott\\; round 4\\, Division A\r\n"
            ),
            "{text}"
        );
        let text = write(&feed(), jiff::Timestamp::UNIX_EPOCH);
        assert!(
            text.contains("SEQUENCE:7\r\nSTATUS:CONFIRMED\r\n"),
            "{text}"
        );
        assert!(!text.contains("CANCELLED"));
    }
}
