//! The iCalendar feed read back by an independent parser (`icalendar`'s): every event with its
//! day, place, name and sequence, however its text is written (issue 12, part 6).
#![allow(clippy::unwrap_used)]

use arbiter_core::record::zone::Zone;
use arbiter_formats::ical::{self, Event, Feed};
use icalendar::{Calendar, CalendarComponent, Component, DatePerhapsTime, EventLike};
use jiff::civil::date;

fn toledo() -> jiff::tz::TimeZone {
    Zone::named("America/New_York").unwrap().tz().clone()
}

fn event(n: u32, summary: &str, location: &str) -> Event {
    Event {
        uid: format!("gthscl-2026-27-metro-r{n}-start@arbiter"),
        date: date(2026, 10, 5 + n as i8),
        start: None,
        summary: summary.into(),
        location: Some(location.into()),
        description: Some(format!("Round {n}\nResult: 2½–1½")),
        url: Some(format!(
            "https://league.example/leagues/gthscl/2026-27/metro/rounds/{n}/matches/start"
        )),
        sequence: 3,
        cancelled: false,
    }
}

#[test]
fn a_feed_reads_back_event_by_event() {
    let long =
        "St. John's Jesuit A v Toledo Central Catholic, Notre Dame Academy; Zoë Ångström's day "
            .repeat(2);
    let feed = Feed {
        name: "GTHSCL 2026-27: Start".into(),
        zone: toledo(),
        events: vec![
            event(1, "Start v Notre Dame Academy", "Start High School, Toledo"),
            event(2, &long, "St. John's Jesuit High School; Gym"),
        ],
    };
    let text = ical::write(&feed, jiff::Timestamp::from_second(1_790_000_000).unwrap());
    let calendar: Calendar = text.parse().unwrap();
    let events: Vec<&icalendar::Event> = calendar
        .components
        .iter()
        .filter_map(|c| match c {
            CalendarComponent::Event(e) => Some(e),
            _ => None,
        })
        .collect();
    assert_eq!(events.len(), 2);
    for (e, want) in events.iter().zip(&feed.events) {
        assert_eq!(e.get_uid(), Some(want.uid.as_str()));
        assert_eq!(e.get_sequence(), Some(3));
        let Some(DatePerhapsTime::Date(day)) = e.get_start() else {
            panic!("{:?} is not a day", e.get_start());
        };
        assert_eq!(day.to_string(), want.date.to_string());
        // The parser unescapes some properties and not others: read both the same way.
        let text = |s: Option<&str>| s.map(unescape);
        assert_eq!(text(e.get_summary()), Some(want.summary.clone()));
        assert_eq!(text(e.get_location()), want.location.clone());
        assert_eq!(text(e.get_description()), want.description.clone());
        assert_eq!(e.get_url(), want.url.as_deref());
    }
}

/// RFC 5545 3.3.11's escapes undone (a text with none is left as it is).
fn unescape(s: &str) -> String {
    let mut out = String::new();
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        match (c, c == '\\') {
            (_, true) => match chars.next() {
                Some('n' | 'N') => out.push('\n'),
                Some(other) => out.push(other),
                None => out.push('\\'),
            },
            (c, false) => out.push(c),
        }
    }
    out
}

/// A match whose home advisor arranged its time (GT-M1) starts then, in the league's local time,
/// written as the instant in UTC that every calendar reads alike, and lasts three hours; a
/// cancelled one (GT-M5) reads back as cancelled.
#[test]
fn a_match_with_its_time_is_a_timed_event_and_a_cancelled_one_is_cancelled() {
    let timed = Event {
        start: Some(jiff::civil::time(15, 45, 0, 0)),
        ..event(1, "Start v Notre Dame Academy", "Start High School, Toledo")
    };
    let cancelled = Event {
        cancelled: true,
        sequence: 4,
        ..event(2, "Start v Scott", "Start High School, Toledo")
    };
    let feed = Feed {
        name: "GTHSCL 2026-27: Start".into(),
        zone: toledo(),
        events: vec![timed, cancelled],
    };
    let text = ical::write(&feed, jiff::Timestamp::from_second(1_790_000_000).unwrap());
    assert!(
        text.contains("DTSTART:20261006T194500Z\r\nDTEND:20261006T224500Z\r\n"),
        "{text}"
    );
    let calendar: Calendar = text.parse().unwrap();
    let events: Vec<&icalendar::Event> = calendar
        .components
        .iter()
        .filter_map(|c| match c {
            CalendarComponent::Event(e) => Some(e),
            _ => None,
        })
        .collect();
    let Some(DatePerhapsTime::DateTime(icalendar::CalendarDateTime::Utc(at))) =
        events[0].get_start()
    else {
        panic!("{:?} is not a time in UTC", events[0].get_start());
    };
    // 15:45 in Toledo on 6 October is Eastern Daylight Time, UTC-4.
    assert_eq!(at.to_rfc3339(), "2026-10-06T19:45:00+00:00");
    assert_eq!(
        events[0].get_status(),
        Some(icalendar::EventStatus::Confirmed)
    );
    assert_eq!(
        events[1].get_status(),
        Some(icalendar::EventStatus::Cancelled)
    );
    assert_eq!(events[1].get_sequence(), Some(4));
    assert_eq!(events[1].get_summary(), Some("Cancelled: Start v Scott"));
}
