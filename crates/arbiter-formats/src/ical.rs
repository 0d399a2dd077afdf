//! iCalendar (RFC 5545) feeds of a schedule (issue 12, part 6): one `VEVENT` a match, on its
//! day, at the home school (GT-M1), that a phone's calendar subscribes to. A match keeps its
//! `UID` when it moves, and its `SEQUENCE` rises, so a subscribed calendar moves it too.
//!
//! Written here, not by a crate: the format is a few lines of text, and the tests read it back
//! with an independent parser (`icalendar`'s).

use std::fmt::Write as _;

use jiff::civil::Date;

/// A calendar: its name as a phone shows it, and its events.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Feed {
    /// `X-WR-CALNAME`: `GTHSCL 2026-27: Start Spartans`.
    pub name: String,
    /// The events, in the order written.
    pub events: Vec<Event>,
}

/// One match (or any day's event) as a calendar holds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Event {
    /// Stable across changes: the same match keeps it when its date moves.
    pub uid: String,
    /// The day.
    pub date: Date,
    /// The start time when it is known: the event then starts then, in the league's local time
    /// (a floating time, as the phone's calendar shows it), and lasts [`MATCH_HOURS`]; else it
    /// lasts the day.
    pub start: Option<jiff::civil::Time>,
    /// `Start Spartans v Scott`.
    pub summary: String,
    /// Where it is played: the home school.
    pub location: Option<String>,
    /// A few lines: the competition, the round, the result when played.
    pub description: Option<String>,
    /// The match's page.
    pub url: Option<String>,
    /// Rises with every change of the schedule, so that a calendar takes the new version.
    pub sequence: u32,
    /// The match will not be played (GT-M5's drop): `STATUS:CANCELLED`, so that a subscribed
    /// calendar strikes it out.
    pub cancelled: bool,
}

/// How long a timed match event lasts: a game of 30 moves in an hour and 30 minutes more for
/// each player (GT-M19) is at most three hours.
pub const MATCH_HOURS: u32 = 3;

/// The feed as `text/calendar`: CRLF line ends, lines folded at 75 octets, text escaped.
/// `stamp` is `DTSTAMP`, when the feed was drawn.
pub fn write(feed: &Feed, stamp: jiff::Timestamp) -> String {
    let mut out = String::new();
    let stamp = stamp.strftime("%Y%m%dT%H%M%SZ").to_string();
    line(&mut out, "BEGIN:VCALENDAR");
    line(&mut out, "VERSION:2.0");
    line(&mut out, "PRODID:-//Arbiter//Chess team competitions//EN");
    line(&mut out, "CALSCALE:GREGORIAN");
    line(&mut out, "METHOD:PUBLISH");
    line(&mut out, &format!("X-WR-CALNAME:{}", text(&feed.name)));
    for e in &feed.events {
        line(&mut out, "BEGIN:VEVENT");
        line(&mut out, &format!("UID:{}", text(&e.uid)));
        line(&mut out, &format!("DTSTAMP:{stamp}"));
        match e.start {
            Some(t) => {
                line(
                    &mut out,
                    &format!("DTSTART:{}T{}", day(e.date), t.strftime("%H%M%S")),
                );
                line(&mut out, &format!("DURATION:PT{MATCH_HOURS}H"));
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
        }
        line(&mut out, &format!("SUMMARY:{}", text(&e.summary)));
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
}
