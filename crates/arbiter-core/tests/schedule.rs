//! AS-19: Berger round-robin schedules (FIDE C.05 Annex 1), checked against the tables and the
//! closed form of standards.md §2.

// Test code: helpers outside #[test] fns unwrap too (clippy's allow-unwrap-in-tests skips them).
#![allow(clippy::unwrap_used)]

use std::collections::HashMap;

use arbiter_core::pairing::schedule::{
    Cycles, MAX_TEAMS, Schedule, ScheduleError, ScheduledRound, Spacing, apply_to, place,
    round_robin,
};
use arbiter_core::record::calendar::{Closure, SchoolCalendar};
use arbiter_core::record::model::{ByeKind, MatchOutcome, Pairing, TeamId};
use jiff::civil::{Weekday, date};
use proptest::prelude::*;

fn single(n: u32) -> Schedule {
    round_robin(n, Cycles::Single).unwrap()
}

fn double(n: u32) -> Schedule {
    round_robin(n, Cycles::Double).unwrap()
}

/// A round as standards.md prints it, without the round number: `8-5, 6-4, 7-3, 1-2`.
fn line(r: &ScheduledRound) -> String {
    r.pairings
        .iter()
        .map(|p| p.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

fn lines(s: &Schedule) -> Vec<String> {
    s.rounds().iter().map(line).collect()
}

/// The table of standards.md for an even n, with the games of `drop` (the dummy) taken out.
fn printed(table: &[&str], drop: Option<u32>) -> Vec<String> {
    table
        .iter()
        .map(|r| {
            r.split(", ")
                .filter(|g| {
                    drop.is_none_or(|d| !g.split('-').any(|x| x.parse::<u32>().unwrap() == d))
                })
                .collect::<Vec<_>>()
                .join(", ")
        })
        .collect()
}

const TABLE_4: &[&str] = &["1-4, 2-3", "4-3, 1-2", "2-4, 3-1"];
const TABLE_6: &[&str] = &[
    "1-6, 2-5, 3-4",
    "6-4, 5-3, 1-2",
    "2-6, 3-1, 4-5",
    "6-5, 1-4, 2-3",
    "3-6, 4-2, 5-1",
];
const TABLE_8: &[&str] = &[
    "1-8, 2-7, 3-6, 4-5",
    "8-5, 6-4, 7-3, 1-2",
    "2-8, 3-1, 4-7, 5-6",
    "8-6, 7-5, 1-4, 2-3",
    "3-8, 4-2, 5-1, 6-7",
    "8-7, 1-6, 2-5, 3-4",
    "4-8, 5-3, 6-2, 7-1",
];

/// The closed form of standards.md §2 for an even number of seats: the round in which i and j
/// (i < j) meet, and who is first-named.
fn closed_form(seats: u32, i: u32, j: u32) -> (u32, (u32, u32)) {
    if j == seats {
        let r = (2 * i - 2) % (seats - 1) + 1;
        let pair = if i > seats / 2 {
            (seats, i)
        } else {
            (i, seats)
        };
        (r, pair)
    } else {
        let r = (i + j - 2) % (seats - 1) + 1;
        let pair = if (i + j) % 2 == 1 { (i, j) } else { (j, i) };
        (r, pair)
    }
}

/// Every pairing of a schedule: (round, first, second).
fn games(s: &Schedule) -> Vec<(u32, u32, u32)> {
    s.rounds()
        .iter()
        .flat_map(|r| {
            r.pairings
                .iter()
                .map(move |p| (r.number, p.first, p.second))
        })
        .collect()
}

fn check_closed_form(n: u32) {
    let seats = n + n % 2;
    let s = single(n);
    for i in 1..=seats {
        for j in i + 1..=seats {
            let (round, (first, second)) = closed_form(seats, i, j);
            let r = &s.rounds()[usize::try_from(round - 1).unwrap()];
            if n % 2 == 1 && j == seats {
                assert_eq!(r.bye, Some(i), "n={n}: {i} has the bye in round {round}");
            } else {
                assert!(
                    r.pairings
                        .iter()
                        .any(|p| p.first == first && p.second == second),
                    "n={n}: {first}-{second} belongs in round {round}: {r}"
                );
            }
        }
    }
}

/// Every pair meets exactly once in each cycle, and the rounds have the right count and numbers.
fn check_pairs_meet_once_per_cycle(s: &Schedule) {
    let n = s.teams;
    let per_cycle = usize::try_from(n + n % 2 - 1).unwrap();
    let cycles = if s.cycles == Cycles::Double { 2 } else { 1 };
    assert_eq!(s.rounds().len(), per_cycle * cycles, "n={n}");
    for (k, r) in s.rounds().iter().enumerate() {
        assert_eq!(r.number, u32::try_from(k + 1).unwrap());
        assert_eq!(r.cycle, u32::try_from(k / per_cycle + 1).unwrap());
    }
    for cycle in 1..=u32::try_from(cycles).unwrap() {
        let mut met: HashMap<(u32, u32), u32> = HashMap::new();
        for r in s.rounds().iter().filter(|r| r.cycle == cycle) {
            for p in &r.pairings {
                assert_ne!(p.first, p.second);
                *met.entry((p.first.min(p.second), p.first.max(p.second)))
                    .or_default() += 1;
            }
        }
        for i in 1..=n {
            for j in i + 1..=n {
                assert_eq!(met.get(&(i, j)), Some(&1), "n={n} cycle {cycle}: {i}-{j}");
            }
        }
        assert_eq!(met.len(), usize::try_from(n * (n - 1) / 2).unwrap());
    }
}

/// Each team plays once per round, or has the bye; tables are numbered 1, 2, ….
fn check_once_per_round(s: &Schedule) {
    let n = s.teams;
    for r in s.rounds() {
        let mut seen = vec![0u32; usize::try_from(n + 1).unwrap()];
        for (p, t) in r.pairings.iter().zip(1u32..) {
            assert_eq!(p.table, t);
            seen[usize::try_from(p.first).unwrap()] += 1;
            seen[usize::try_from(p.second).unwrap()] += 1;
        }
        if let Some(b) = r.bye {
            seen[usize::try_from(b).unwrap()] += 1;
        }
        assert_eq!(r.bye.is_some(), n % 2 == 1, "n={n} {r}");
        assert_eq!(r.pairings.len(), usize::try_from(n / 2).unwrap());
        assert!(seen[1..].iter().all(|&c| c == 1), "n={n}: {r}");
    }
}

/// The longest run of home (or away) matches of any team, byes skipped.
fn longest_home_or_away_run(s: &Schedule) -> usize {
    let mut worst = 0;
    for t in 1..=s.teams {
        let mut last = None;
        let mut run = 0;
        for r in s.rounds() {
            let Some(home) = r.pairings.iter().find_map(|p| {
                (p.first == t)
                    .then_some(true)
                    .or((p.second == t).then_some(false))
            }) else {
                continue;
            };
            run = if last == Some(home) { run + 1 } else { 1 };
            last = Some(home);
            worst = worst.max(run);
        }
    }
    worst
}

/// AS-19: the acceptance case, the FIDE table for 8.
#[test]
fn as_19_eight_teams_round_1_and_2() {
    let s = single(8);
    assert_eq!(s.rounds().len(), 7);
    assert_eq!(s.rounds()[0].to_string(), "R1: 1-8, 2-7, 3-6, 4-5");
    assert_eq!(s.rounds()[1].to_string(), "R2: 8-5, 6-4, 7-3, 1-2");
}

/// AS-19: 3 and 4 teams give the standards.md table for 3–4 exactly (for 3, 4 is the bye).
#[test]
fn as_19_tables_for_3_and_4() {
    assert_eq!(lines(&single(4)), printed(TABLE_4, None));
    assert_eq!(lines(&single(3)), printed(TABLE_4, Some(4)));
    let byes: Vec<_> = single(3).rounds().iter().map(|r| r.bye).collect();
    assert_eq!(byes, [Some(1), Some(3), Some(2)]);
}

#[test]
fn as_19_tables_for_5_and_6() {
    assert_eq!(lines(&single(6)), printed(TABLE_6, None));
    assert_eq!(lines(&single(5)), printed(TABLE_6, Some(6)));
    let byes: Vec<_> = single(5).rounds().iter().map(|r| r.bye).collect();
    assert_eq!(byes, [Some(1), Some(4), Some(2), Some(5), Some(3)]);
}

#[test]
fn as_19_tables_for_7_and_8() {
    assert_eq!(lines(&single(8)), printed(TABLE_8, None));
    assert_eq!(lines(&single(7)), printed(TABLE_8, Some(8)));
    let byes: Vec<_> = single(7).rounds().iter().map(|r| r.bye).collect();
    assert_eq!(
        byes,
        [
            Some(1),
            Some(5),
            Some(2),
            Some(6),
            Some(3),
            Some(7),
            Some(4)
        ]
    );
}

/// AS-19: the closed form of standards.md for 10 and 16 (and every n to 20, odd ones with the
/// dummy's opponent on the bye).
#[test]
fn as_19_closed_form_for_10_and_16() {
    check_closed_form(10);
    check_closed_form(16);
    for n in 2..=20 {
        check_closed_form(n);
    }
}

/// AS-19: the game of the last seat is always table 1 in an even field.
#[test]
fn as_19_last_seat_on_table_1() {
    for n in (2..=20).step_by(2) {
        for r in single(n).rounds() {
            let p = r.pairings[0];
            assert_eq!(p.table, 1);
            assert!(p.first == n || p.second == n, "n={n} {r}");
        }
    }
}

#[test]
fn as_19_every_pair_meets_once_per_cycle_2_to_20() {
    for n in 2..=20 {
        check_pairs_meet_once_per_cycle(&single(n));
        check_pairs_meet_once_per_cycle(&double(n));
    }
}

#[test]
fn as_19_each_team_plays_once_per_round() {
    for n in 2..=20 {
        check_once_per_round(&single(n));
        check_once_per_round(&double(n));
    }
}

/// AS-19, odd n: every team has exactly one bye per cycle, and it is the team the dummy n+1
/// meets (round ((2i-2) mod n) + 1 for team i).
#[test]
fn as_19_bye_rotation_for_odd_n() {
    for n in (3..=21).step_by(2) {
        let s = single(n);
        let mut byes: Vec<u32> = s.rounds().iter().filter_map(|r| r.bye).collect();
        for r in s.rounds() {
            let team = r.bye.unwrap();
            assert_eq!((2 * team - 2) % n + 1, r.number, "n={n}");
        }
        byes.sort_unstable();
        assert_eq!(byes, (1..=n).collect::<Vec<_>>(), "n={n}");

        let d = double(n);
        for cycle in 1..=2 {
            let mut byes: Vec<u32> = d
                .rounds()
                .iter()
                .filter(|r| r.cycle == cycle)
                .filter_map(|r| r.bye)
                .collect();
            byes.sort_unstable();
            assert_eq!(byes, (1..=n).collect::<Vec<_>>(), "n={n} cycle {cycle}");
        }
    }
    for n in (2..=20).step_by(2) {
        assert!(double(n).rounds().iter().all(|r| r.bye.is_none()));
    }
}

/// AS-19, C.05: the double cycle swaps the last two rounds of the first cycle, and the second
/// cycle is the table in its original order with first and second reversed.
#[test]
fn as_19_double_cycle_colours_reversed() {
    for n in 2..=20 {
        let one = single(n);
        let two = double(n);
        let per = one.rounds().len();
        let mut first_order: Vec<usize> = (0..per).collect();
        if per >= 2 {
            first_order.swap(per - 1, per - 2);
        }
        for (k, &r) in first_order.iter().enumerate() {
            assert_eq!(two.rounds()[k].pairings, one.rounds()[r].pairings, "n={n}");
            assert_eq!(two.rounds()[k].bye, one.rounds()[r].bye);
        }
        for r in 0..per {
            let second = &two.rounds()[per + r];
            let table = &one.rounds()[r];
            assert_eq!(second.bye, table.bye);
            assert_eq!(second.pairings.len(), table.pairings.len());
            for (a, b) in second.pairings.iter().zip(&table.pairings) {
                assert_eq!((a.table, a.first, a.second), (b.table, b.second, b.first));
            }
        }
        // Each pair: home once, away once.
        let mut homes: HashMap<(u32, u32), u32> = HashMap::new();
        for (_, first, second) in games(&two) {
            *homes.entry((first, second)).or_default() += 1;
        }
        assert!(homes.values().all(|&c| c == 1), "n={n}");
        assert_eq!(homes.len(), usize::try_from(n * (n - 1)).unwrap());
    }
    let eight = double(8);
    assert_eq!(eight.rounds().len(), 14);
    assert_eq!(eight.rounds()[5].to_string(), "R6: 4-8, 5-3, 6-2, 7-1");
    assert_eq!(eight.rounds()[6].to_string(), "R7: 8-7, 1-6, 2-5, 3-4");
    assert_eq!(eight.rounds()[7].to_string(), "R8: 8-1, 7-2, 6-3, 5-4");
    assert_eq!(eight.rounds()[8].to_string(), "R9: 5-8, 4-6, 3-7, 2-1");
}

/// AS-19, C.05: in a double round robin no team has three home or three away matches in a row.
#[test]
fn as_19_double_cycle_no_three_home_or_away_in_a_row_4_to_16() {
    for n in 4..=16 {
        assert!(longest_home_or_away_run(&double(n)) <= 2, "n={n}");
    }
}

/// AS-19: fewer than 2 teams, or more than MAX_TEAMS, is refused with a sentence.
#[test]
fn as_19_refuses_too_few_and_too_many_teams() {
    for n in [0, 1] {
        let e = round_robin(n, Cycles::Single).unwrap_err();
        assert_eq!(e, ScheduleError::TooFewTeams { teams: n });
        assert!(e.to_string().contains("at least 2 teams"), "{e}");
        assert!(e.to_string().contains("AS-19"), "{e}");
    }
    assert_eq!(
        round_robin(1, Cycles::Double).unwrap_err().to_string(),
        "A round robin (AS-19) needs at least 2 teams, but 1 was given; add teams before drawing the schedule."
    );
    let e = round_robin(MAX_TEAMS + 1, Cycles::Double).unwrap_err();
    assert_eq!(e, ScheduleError::TooManyTeams { teams: 1001 });
    assert!(e.to_string().contains("1001 teams"), "{e}");
    assert!(round_robin(u32::MAX, Cycles::Single).is_err());
    let max = round_robin(MAX_TEAMS, Cycles::Single).unwrap();
    assert_eq!(max.rounds().len(), 999);
}

#[test]
fn as_19_two_teams() {
    assert_eq!(lines(&single(2)), ["1-2"]);
    assert_eq!(lines(&double(2)), ["1-2", "2-1"]);
}

/// AS-19: a league's season drawn from the schedule: ids in number order, matches pending with
/// the first-named team at home, byes pairing-allocated.
#[test]
fn as_19_apply_to_team_ids() {
    let ids: Vec<TeamId> = ["vic", "nsw", "qld", "wa", "sa"]
        .iter()
        .map(|s| TeamId((*s).into()))
        .collect();
    let s = single(5);
    let rounds = apply_to(&s, &ids).unwrap();
    assert_eq!(rounds.len(), 5);
    // Round 2 of the table for 6 without 6: 5-3, 1-2; team 4 has the bye.
    let r2 = &rounds[1];
    assert_eq!(r2.number, 2);
    assert_eq!(r2.date, None);
    let shown: Vec<String> = r2
        .pairings
        .iter()
        .map(|p| match p {
            Pairing::Match(m) => {
                assert_eq!(m.outcome, MatchOutcome::Pending);
                format!("{}-{}", m.home, m.away)
            }
            Pairing::Bye(b) => {
                assert_eq!(b.kind, ByeKind::PairingAllocated);
                format!("bye {}", b.team)
            }
        })
        .collect();
    assert_eq!(shown, ["sa-qld", "vic-nsw", "bye wa"]);

    let e = apply_to(&s, &ids[..4]).unwrap_err();
    assert_eq!(
        e,
        ScheduleError::TeamCountMismatch {
            scheduled: 5,
            given: 4
        }
    );
    assert!(e.to_string().contains("exactly one id per team"), "{e}");
}

/// GTHSCL's 2026-27 calendar, as the demo has it: 5 Oct to 24 Feb, with its breaks.
fn season() -> SchoolCalendar {
    SchoolCalendar::new(
        date(2026, 10, 5),
        date(2027, 2, 24),
        vec![
            Closure::new(date(2026, 11, 25), date(2026, 11, 27), "Thanksgiving break").unwrap(),
            Closure::new(date(2026, 12, 21), date(2027, 1, 1), "winter break").unwrap(),
            Closure::day(date(2027, 1, 18), "Martin Luther King Jr. Day").unwrap(),
            Closure::day(date(2027, 2, 15), "Presidents' Day").unwrap(),
        ],
    )
    .unwrap()
}

const MON_WED: &[Weekday] = &[Weekday::Monday, Weekday::Wednesday];

/// GT-M2: a double round robin of 8 spread over the season's Mondays and Wednesdays, from the
/// first to the last, never on a closure.
#[test]
fn gt_m2_a_season_long_league_is_spread_over_the_match_days() {
    let calendar = season();
    let days = calendar.match_days(MON_WED);
    assert_eq!(days.len(), 35);
    let dates = place(&double(8), &calendar, MON_WED, Spacing::Even).unwrap();
    assert_eq!(dates.len(), 14);
    assert_eq!(dates.first(), Some(&date(2026, 10, 5)));
    assert_eq!(dates.last(), Some(&date(2027, 2, 24)));
    assert!(dates.windows(2).all(|w| w[0] < w[1]), "{dates:?}");
    for d in &dates {
        assert!(days.contains(d), "{d} is a match day");
        assert_eq!(calendar.closure_on(*d), None, "{d}");
    }
    // 34 steps of match days over 13 gaps: two or three match days apart.
    for w in dates.windows(2) {
        let gap = days.iter().filter(|d| w[0] < **d && **d <= w[1]).count();
        assert!((2..=3).contains(&gap), "{w:?}");
    }
    // One round: the first match day.
    assert_eq!(
        place(&single(2), &calendar, MON_WED, Spacing::Even).unwrap(),
        [date(2026, 10, 5)]
    );
}

/// AS-19: an event plays its rounds on consecutive match days; a closure is stepped over.
#[test]
fn as_19_an_event_is_packed_on_consecutive_match_days() {
    let week = SchoolCalendar::new(
        date(2026, 12, 7),
        date(2026, 12, 18),
        vec![Closure::day(date(2026, 12, 9), "a public holiday").unwrap()],
    )
    .unwrap();
    let every_day = arbiter_core::record::calendar::SCHOOL_WEEK;
    let dates = place(&single(8), &week, &every_day, Spacing::Packed).unwrap();
    assert_eq!(
        dates,
        [
            date(2026, 12, 7),
            date(2026, 12, 8),
            date(2026, 12, 10),
            date(2026, 12, 11),
            date(2026, 12, 14),
            date(2026, 12, 15),
            date(2026, 12, 16),
        ]
    );
}

/// AS-1, AS-3, AS-19: the ASTC plays two rounds a day: seven rounds of eight teams over its
/// four days, the seventh alone on the last; four days are too few for three rounds of eleven.
#[test]
fn as_19_an_event_plays_two_rounds_a_day() {
    let event = SchoolCalendar::new(date(2026, 12, 7), date(2026, 12, 10), Vec::new()).unwrap();
    let every_day = arbiter_core::record::calendar::SCHOOL_WEEK;
    let dates = place(&single(8), &event, &every_day, Spacing::RoundsADay(2)).unwrap();
    let (mon, tue, wed, thu) = (
        date(2026, 12, 7),
        date(2026, 12, 8),
        date(2026, 12, 9),
        date(2026, 12, 10),
    );
    assert_eq!(dates, [mon, mon, tue, tue, wed, wed, thu]);
    assert!(place(&single(8), &event, &every_day, Spacing::Packed).is_err());
    assert!(place(&single(12), &event, &every_day, Spacing::RoundsADay(2)).is_err());
}

/// GT-M2: a season with fewer match days than rounds is refused with what to do instead.
#[test]
fn gt_m2_too_few_match_days_for_the_rounds_is_refused() {
    let short = SchoolCalendar::new(date(2026, 10, 5), date(2026, 11, 2), Vec::new()).unwrap();
    let e = place(&double(8), &short, MON_WED, Spacing::Even).unwrap_err();
    assert_eq!(
        e.to_string(),
        "The schedule has 14 rounds but the season from 2026-10-05 to 2026-11-02 has only 9 match days (Monday, Wednesday, outside closures); lengthen the season, add a match day or play a single cycle (GT-M2)."
    );
    assert!(place(&single(8), &short, MON_WED, Spacing::Even).is_ok());
    let e = place(&single(12), &short, MON_WED, Spacing::Packed).unwrap_err();
    assert!(
        e.to_string()
            .ends_with("add a match day or split the field into divisions (GT-M2, GT-O1)."),
        "{e}"
    );
    // A closure takes its match days away.
    let mut closed = short.clone();
    closed
        .closures
        .push(Closure::new(date(2026, 10, 12), date(2026, 10, 23), "fall break").unwrap());
    let e = place(&single(8), &closed, MON_WED, Spacing::Even).unwrap_err();
    assert!(
        matches!(
            e,
            ScheduleError::TooFewMatchDays {
                rounds: 7,
                match_days: 5,
                ..
            }
        ),
        "{e}"
    );
    let e = place(&single(8), &short, &[], Spacing::Even).unwrap_err();
    assert_eq!(e, ScheduleError::NoMatchDays);
    assert!(e.to_string().contains("GT-M2"), "{e}");
    let backwards = SchoolCalendar {
        starts_on: date(2026, 11, 2),
        ends_on: date(2026, 10, 5),
        closures: Vec::new(),
    };
    let e = place(&single(4), &backwards, MON_WED, Spacing::Even).unwrap_err();
    assert!(e.to_string().contains("cannot end on 2026-10-05"), "{e}");
}

proptest! {
    /// AS-19 for any field size: pairs meet once per cycle, one game per team per round, the
    /// closed form holds, and a double cycle keeps home and away runs to two.
    #[test]
    fn as_19_any_number_of_teams(n in 2u32..=120) {
        let s = single(n);
        check_pairs_meet_once_per_cycle(&s);
        check_once_per_round(&s);
        check_closed_form(n);
        let d = double(n);
        check_pairs_meet_once_per_cycle(&d);
        check_once_per_round(&d);
        if n >= 3 {
            prop_assert!(longest_home_or_away_run(&d) <= 2, "n={}", n);
        }
    }
}
