//! Moving a match to another day (GT-M2): what a move would break, said before it is saved.
//!
//! GT-M2: advisors may move a match by arrangement beforehand; on the match day only the
//! weather postpones it, and a postponed match is played within two school weeks of its original
//! date, or on a date within three school weeks that both advisors agree. Only the President
//! allows a later one. A match keeps its round when it moves; the day it
//! moves to must be a school day of the season (a weekday of the school calendar that no closure
//! covers) on which neither team plays another match. The window counts school days only: a
//! break does not use it up.
//!
//! [`check`] says what a move breaks; [`check_playoff`] applies GT-F4's playoff windows instead
//! (after both teams' preceding match, within 7 days, or within 5 school days of both schools
//! opening again after the weather).

use jiff::civil::Date;

use crate::record::calendar::{SchoolCalendar, is_weekday, weekday_name};
use crate::record::model::{Competition, Match, MatchOutcome, Pairing, Round, TeamId};
use crate::rules::ruleset::Playoffs;
use crate::rules::validate::Finding;

/// School days a match may move past its original date without the President's override:
/// three school weeks (GT-M2).
pub const WINDOW_SCHOOL_DAYS: i64 = 15;

/// School days a match postponed for weather is played within, unless both advisors agree a
/// date within [`WINDOW_SCHOOL_DAYS`]: two school weeks (GT-M2).
pub const WEATHER_SCHOOL_DAYS: i64 = 10;

/// Why a match moves (GT-M2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Postponement {
    /// Moved by the advisors' arrangement, before the match day.
    #[default]
    Arranged,
    /// Postponed on the day for the weather: played within two school weeks, or on a date within
    /// three that both advisors agree (`agreed`).
    Weather {
        /// Both advisors agreed the new date.
        agreed: bool,
    },
}

/// A match to move: which (its round and home team), to which day, on which day the move is
/// made, and the season's school calendar when known.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Move {
    /// The match's round.
    pub round: u32,
    /// The match's home team.
    pub home: TeamId,
    /// The day it moves to.
    pub to: Date,
    /// The day the move is made (the clock is the caller's).
    pub today: Date,
    /// The season's school calendar (its first and last days, its closures), when known;
    /// without it, any weekday is a school day.
    pub calendar: Option<SchoolCalendar>,
    /// Arranged beforehand, or postponed for the weather.
    pub why: Postponement,
    /// The Saturday or Sunday the league's ruleset names as a match day (`[calendar]
    /// match_days`, [`crate::rules::ruleset::Ruleset::weekend_match_days`]): a match may move
    /// to one; empty for a school league, whose matches are played on school days.
    pub weekend_days: Vec<jiff::civil::Weekday>,
}

/// What a move would break. Errors refuse it; a [`crate::rules::validate::Severity::Violation`]
/// (GT-M2's window) needs the President's override. Empty when it may be saved.
pub fn check(c: &Competition, mv: &Move) -> Vec<Finding> {
    let (round, pi, m, mut out) =
        match check_day(c, mv, "the regular season's matches are played in it") {
            Ok(found) => found,
            Err(refused) => return refused,
        };
    let at = |f: Finding| f.in_match(round.number, pi, m, None);
    // GT-M2's window, from the date the schedule first gave the match.
    if let Some(original) = round.date.or(m.date) {
        let late = school_days(mv, original);
        if late > WINDOW_SCHOOL_DAYS {
            out.push(at(Finding::violation(
                Some("GT-M2"),
                format!(
                    "{} is {late} school days after the original date {original}; a postponed match is played within three school weeks ({WINDOW_SCHOOL_DAYS} school days), later only with the President's override",
                    mv.to
                ),
            )));
        } else if mv.why == (Postponement::Weather { agreed: false }) && late > WEATHER_SCHOOL_DAYS
        {
            out.push(at(Finding::violation(
                Some("GT-M2"),
                format!(
                    "{} is {late} school days after the original date {original}; a match postponed for the weather is played within two school weeks ({WEATHER_SCHOOL_DAYS} school days), or within three on a date both advisors agree; later only with the President's override",
                    mv.to
                ),
            )));
        }
    }
    out
}

/// School days after `from` up to `mv.to`, on the move's calendar when it has one.
fn school_days(mv: &Move, from: Date) -> i64 {
    match &mv.calendar {
        Some(cal) => cal.school_days_between(from, mv.to),
        None => school_days_between(from, mv.to),
    }
}

/// GT-F4: what moving a playoff match would break. The day's checks are the season's (a school
/// day, not past, not closed, neither team playing twice; on the day only the weather postpones,
/// GT-M2); the windows are the playoffs': after both teams' preceding match, and within
/// `[playoffs] reschedule_within_days` days of its date, or after a weather postponement within
/// `weather_school_days` school days of both schools being open again (`open_again`, the first
/// day both are; it counts as the first of them). A window missed is a violation for the
/// President's override, as GT-M2's is. `mv.calendar` is the playoffs' (its last day theirs).
pub fn check_playoff(
    c: &Competition,
    mv: &Move,
    open_again: Option<Date>,
    playoffs: &Playoffs,
) -> Vec<Finding> {
    let (round, pi, m, mut out) = match check_day(c, mv, "the playoffs are played in it (GT-F4)") {
        Ok(found) => found,
        Err(refused) => return refused,
    };
    let at = |f: Finding| f.in_match(round.number, pi, m, None);
    // After both teams' preceding match (GT-F4): a knockout's next opponent is known only then.
    for t in [&m.home, &m.away] {
        let before = c
            .rounds
            .iter()
            .filter(|r| r.number < round.number)
            .flat_map(|r| r.matches().map(move |x| (r, x)))
            .filter(|(_, x)| &x.home == t || &x.away == t)
            .filter_map(|(r, x)| r.date_of(x).map(|d| (r.number, d)))
            .max_by_key(|(_, d)| *d);
        if let Some((n, day)) = before
            && mv.to <= day
        {
            out.push(at(Finding::error(
                Some("GT-F4"),
                format!(
                    "{t} plays its round {n} match on {day}; a rescheduled playoff match is played after both teams' preceding match, so choose a day after {day}"
                ),
            )));
        }
    }
    let Some(original) = round.date.or(m.date) else {
        return out;
    };
    match mv.why {
        Postponement::Arranged => {
            let days = (mv.to - original).get_days();
            let limit = i64::from(playoffs.reschedule_within_days);
            if i64::from(days) > limit {
                out.push(at(Finding::violation(
                    Some("GT-F4"),
                    format!(
                        "{} is {days} days after the match's date {original}; a rescheduled playoff match is played within {limit} days of it, later only with the President's override",
                        mv.to
                    ),
                )));
            }
        }
        Postponement::Weather { .. } => {
            let Some(open) = open_again else {
                out.push(at(Finding::error(
                    Some("GT-F4"),
                    "a playoff match postponed for the weather is played within five school days of both schools being open again; give the first day both are open",
                )));
                return out;
            };
            let limit = i64::from(playoffs.weather_school_days);
            if mv.to < open {
                out.push(at(Finding::error(
                    Some("GT-F4"),
                    format!(
                        "{} is before {open}, the day both schools are open again; choose a day from it",
                        mv.to
                    ),
                )));
            } else {
                // The day they open is the first of the school days.
                let nth = school_days(mv, open) + 1;
                if nth > limit {
                    out.push(at(Finding::violation(
                        Some("GT-F4"),
                        format!(
                            "{} is school day {nth} since both schools opened again on {open}; after a weather postponement a playoff match is played within {limit} school days of it, later only with the President's override",
                            mv.to
                        ),
                    )));
                }
            }
        }
    }
    out
}

/// The checks of the day a match moves to, the season's and the playoffs' alike: the match (or
/// the refusal), and what the day breaks. `season_ends` ends the sentence of a day after the
/// calendar's last.
#[allow(clippy::type_complexity)]
fn check_day<'c>(
    c: &'c Competition,
    mv: &Move,
    season_ends: &str,
) -> Result<(&'c Round, usize, &'c Match, Vec<Finding>), Vec<Finding>> {
    let mut out = Vec::new();
    let found = c
        .rounds
        .iter()
        .find(|r| r.number == mv.round)
        .and_then(|r| {
            r.pairings.iter().enumerate().find_map(|(i, p)| match p {
                Pairing::Match(m) if m.home == mv.home => Some((r, i, m)),
                _ => None,
            })
        });
    let Some((round, pi, m)) = found else {
        out.push(Finding::error(
            None,
            format!(
                "round {} has no match at home to {}; name the match by its round and home team",
                mv.round, mv.home
            ),
        ));
        return Err(out);
    };
    let at = |f: Finding| f.in_match(round.number, pi, m, None);
    if m.outcome != MatchOutcome::Pending {
        out.push(at(Finding::error(
            Some("GT-M2"),
            "the match has a result, so it is not moved; correct the result instead",
        )));
        return Err(out);
    }
    // GT-M2: on the match day (or later), only the weather postpones a match.
    if mv.why == Postponement::Arranged
        && let Some(day) = round.date_of(m)
        && mv.today >= day
    {
        out.push(at(Finding::error(
            Some("GT-M2"),
            format!(
                "the match was set for {day}; a match is moved by arrangement only beforehand, and on its day only the weather postpones it: say so, or enter its result"
            ),
        )));
    }
    // GT-M2: the weather postpones on the day; before it, a match is moved by arrangement.
    if matches!(mv.why, Postponement::Weather { .. })
        && let Some(day) = round.date_of(m)
        && mv.today < day
    {
        out.push(at(Finding::error(
            Some("GT-M2"),
            format!(
                "the match is set for {day}; the weather postpones a match only on its day, and today is {}: before the day a match is moved by arrangement, so choose \u{201c}By arrangement, before the match day\u{201d}",
                mv.today
            ),
        )));
    }
    if mv.to < mv.today {
        out.push(at(Finding::error(
            Some("GT-M2"),
            format!(
                "{} is in the past; a match moves to a day still to come",
                mv.to
            ),
        )));
    }
    if !is_weekday(mv.to) && !mv.weekend_days.contains(&mv.to.weekday()) {
        // A school league plays on school days; a weekend league on the days it names.
        let instead = if mv.weekend_days.is_empty() {
            "not a school day; matches are played on school days".to_string()
        } else {
            let named: Vec<&str> = mv.weekend_days.iter().map(|w| weekday_name(*w)).collect();
            format!(
                "not one of the league's weekend match days ({}); move the match to a weekday or to {}",
                named.join(", "),
                named.join(" or ")
            )
        };
        out.push(at(Finding::error(
            Some("GT-M2"),
            format!(
                "{} is a {}, {instead}",
                mv.to,
                weekday_name(mv.to.weekday())
            ),
        )));
    }
    if let Some(cal) = &mv.calendar {
        if mv.to < cal.starts_on {
            out.push(at(Finding::error(
                Some("GT-M2"),
                format!("{} is before the season starts ({})", mv.to, cal.starts_on),
            )));
        } else if mv.to > cal.ends_on {
            out.push(at(Finding::error(
                Some("GT-M2"),
                format!(
                    "{} is after the season ends ({}); {season_ends}",
                    mv.to, cal.ends_on
                ),
            )));
        } else if let Some(closure) = cal
            .closure_on(mv.to)
            .filter(|_| is_weekday(mv.to) || mv.weekend_days.contains(&mv.to.weekday()))
        {
            out.push(at(Finding::error(
                Some("GT-M2"),
                format!(
                    "{}; the schools are closed, so a match moves to a day they are open",
                    closure.describe(mv.to)
                ),
            )));
        }
    }
    // Neither team plays another match on the day.
    for r in &c.rounds {
        for p in &r.pairings {
            let Pairing::Match(other) = p else { continue };
            if std::ptr::eq(other, m) || r.date_of(other) != Some(mv.to) {
                continue;
            }
            for t in [&m.home, &m.away] {
                if &other.home == t || &other.away == t {
                    out.push(at(Finding::error(
                        Some("GT-M2"),
                        format!(
                            "{t} already plays {} v {} (round {}) on {}; a team plays one match a day",
                            other.home, other.away, r.number, mv.to
                        ),
                    )));
                }
            }
        }
    }
    Ok((round, pi, m, out))
}

/// Monday to Friday after `from`, up to and including `to` (0 when `to` is not later): the
/// school days when there is no calendar to say (with one,
/// [`SchoolCalendar::school_days_between`], which leaves out its closures).
pub fn school_days_between(from: Date, to: Date) -> i64 {
    let mut n = 0;
    let mut d = from;
    while d < to {
        let Ok(next) = d.tomorrow() else { break };
        d = next;
        if is_weekday(d) {
            n += 1;
        }
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::calendar::Closure;
    use crate::record::model::{Match, Round};
    use crate::rules::validate::Severity;
    use jiff::civil::date;

    /// Round 1 on Mon 2 Nov 2026: a v b (pending), c v d (pending); round 2 on Wed 4 Nov: a v c.
    fn season() -> Competition {
        let m = |h: &str, a: &str| {
            Pairing::Match(Match {
                home: TeamId(h.into()),
                away: TeamId(a.into()),
                outcome: MatchOutcome::Pending,
                date: None,
                start: None,
                extra_games: Vec::new(),
                late: None,
            })
        };
        Competition {
            name: "Test".into(),
            teams: Vec::new(),
            rounds: vec![
                Round {
                    number: 1,
                    date: Some(date(2026, 11, 2)),
                    pairings: vec![m("a", "b"), m("c", "d")],
                },
                Round {
                    number: 2,
                    date: Some(date(2026, 11, 4)),
                    pairings: vec![m("a", "c")],
                },
            ],
        }
    }

    fn to(day: Date) -> Move {
        Move {
            round: 1,
            home: TeamId("a".into()),
            to: day,
            today: date(2026, 10, 30),
            calendar: Some(
                SchoolCalendar::new(date(2026, 10, 5), date(2027, 2, 24), Vec::new()).unwrap(),
            ),
            why: Postponement::Arranged,
            weekend_days: Vec::new(),
        }
    }

    /// The season's calendar with Thanksgiving and the winter break.
    fn with_breaks(day: Date) -> Move {
        Move {
            calendar: Some(
                SchoolCalendar::new(
                    date(2026, 10, 5),
                    date(2027, 2, 24),
                    vec![
                        Closure::new(date(2026, 11, 25), date(2026, 11, 27), "Thanksgiving break")
                            .unwrap(),
                        Closure::new(date(2026, 12, 21), date(2027, 1, 1), "winter break").unwrap(),
                        Closure::day(date(2026, 11, 11), "Veterans Day").unwrap(),
                    ],
                )
                .unwrap(),
            ),
            ..to(day)
        }
    }

    #[test]
    fn gt_m2_a_day_the_schools_are_closed_is_refused_naming_the_closure() {
        let mut c = season();
        c.rounds[0].date = Some(date(2026, 12, 16));
        c.rounds[1].date = Some(date(2026, 12, 17));
        let f = check(&c, &with_breaks(date(2026, 12, 23)));
        assert_eq!(f.len(), 1, "{f:?}");
        assert_eq!(f[0].severity, Severity::Error);
        assert_eq!(f[0].rule.as_deref(), Some("GT-M2"));
        assert_eq!(
            f[0].message,
            "2026-12-23 is a closed day: winter break, 2026-12-21 to 2027-01-01; the schools are closed, so a match moves to a day they are open"
        );
        let f = check(&season(), &with_breaks(date(2026, 11, 11)));
        assert!(
            f[0].message
                .starts_with("2026-11-11 is a closed day: Veterans Day; the schools are closed"),
            "{f:?}"
        );
        // A weekend in the break is refused once, as a weekend.
        let f = check(&c, &with_breaks(date(2026, 12, 26)));
        assert_eq!(f.len(), 1, "{f:?}");
        assert!(f[0].message.contains("is a Saturday"), "{f:?}");
        // The day after the break is open.
        assert_eq!(check(&c, &with_breaks(date(2027, 1, 4))), []);
        // Without a calendar, only weekends are known to be closed.
        let open = Move {
            calendar: None,
            ..to(date(2026, 12, 23))
        };
        assert_eq!(check(&c, &open), []);
    }

    #[test]
    fn gt_m2_the_window_counts_school_days_outside_the_closures() {
        // From Mon 2 Nov, with Veterans Day (Wed 11 Nov) closed, the 15th school day is Tue 24
        // Nov (without it, Mon 23 Nov); Thanksgiving (Wed-Fri) is closed, so Mon 30 Nov is the
        // 16th.
        let cal = with_breaks(date(2026, 11, 24)).calendar.unwrap();
        assert_eq!(
            cal.school_days_between(date(2026, 11, 2), date(2026, 11, 24)),
            15
        );
        assert_eq!(check(&season(), &with_breaks(date(2026, 11, 24))), []);
        let f = check(&season(), &with_breaks(date(2026, 11, 30)));
        assert_eq!(f.len(), 1, "{f:?}");
        assert_eq!(f[0].severity, Severity::Violation);
        assert!(
            f[0].message
                .contains("2026-11-30 is 16 school days after the original date 2026-11-02"),
            "{f:?}"
        );
    }

    /// GT-M2 at its boundaries: on the day only the weather postpones; a weather postponement
    /// has two school weeks, three when both advisors agree the date.
    #[test]
    fn gt_m2_on_the_day_only_weather_postpones_within_two_weeks_or_three_agreed() {
        let on_the_day = Move {
            today: date(2026, 11, 2),
            ..to(date(2026, 11, 3))
        };
        let f = check(&season(), &on_the_day);
        assert_eq!(f.len(), 1, "{f:?}");
        assert!(
            f[0].message
                .contains("on its day only the weather postpones it"),
            "{f:?}"
        );
        let weather = |day: Date, agreed: bool| Move {
            today: date(2026, 11, 2),
            why: Postponement::Weather { agreed },
            ..to(day)
        };
        // From Mon 2 Nov (no closures here): the 10th school day is Mon 16 Nov, the 11th Tue 17.
        assert_eq!(check(&season(), &weather(date(2026, 11, 16), false)), []);
        let f = check(&season(), &weather(date(2026, 11, 17), false));
        assert_eq!(f.len(), 1, "{f:?}");
        assert_eq!(f[0].severity, Severity::Violation);
        assert!(
            f[0].message
                .contains("within two school weeks (10 school days)"),
            "{f:?}"
        );
        // Agreed: up to the 15th school day, Mon 23 Nov; the 16th needs the override.
        assert_eq!(check(&season(), &weather(date(2026, 11, 23), true)), []);
        let f = check(&season(), &weather(date(2026, 11, 24), true));
        assert!(f[0].message.contains("within three school weeks"), "{f:?}");
    }

    /// GT-M2 (issue 32 item 15): the weather postpones on the match day, not days ahead; before
    /// the day the same move is one by arrangement.
    #[test]
    fn gt_m2_the_weather_does_not_postpone_a_match_days_ahead() {
        let ahead = Move {
            today: date(2026, 10, 29),
            why: Postponement::Weather { agreed: false },
            ..to(date(2026, 11, 16))
        };
        let f = check(&season(), &ahead);
        assert_eq!(f.len(), 1, "{f:?}");
        assert_eq!(f[0].rule.as_deref(), Some("GT-M2"));
        assert!(
            f[0].message
                .contains("the weather postpones a match only on its day"),
            "{f:?}"
        );
        let arranged = Move {
            why: Postponement::Arranged,
            ..ahead
        };
        assert_eq!(check(&season(), &arranged), []);
    }

    #[test]
    fn gt_m2_a_school_day_free_for_both_teams_may_take_the_match() {
        assert_eq!(check(&season(), &to(date(2026, 11, 3))), []);
    }

    /// A weekend league's Sunday takes a match; its Saturday, not named, is still refused.
    #[test]
    fn gt_m2_a_weekend_league_moves_a_match_to_its_sunday() {
        let sunday = Move {
            weekend_days: vec![jiff::civil::Weekday::Sunday],
            ..to(date(2026, 11, 8))
        };
        assert_eq!(check(&season(), &sunday), []);
        let saturday = Move {
            weekend_days: vec![jiff::civil::Weekday::Sunday],
            ..to(date(2026, 11, 7))
        };
        let f = check(&season(), &saturday);
        assert_eq!(
            f[0].message,
            "2026-11-07 is a Saturday, not one of the league's weekend match days (Sunday); move the match to a weekday or to Sunday"
        );
    }

    #[test]
    fn gt_m2_a_weekend_the_past_or_a_day_either_team_plays_is_refused() {
        let f = check(&season(), &to(date(2026, 11, 7)));
        assert!(
            f[0].message.contains("is a Saturday, not a school day"),
            "{f:?}"
        );
        let f = check(&season(), &to(date(2026, 10, 28)));
        assert!(f[0].message.contains("is in the past"), "{f:?}");
        let f = check(&season(), &to(date(2026, 11, 4)));
        assert_eq!(f.len(), 1, "{f:?}");
        assert!(
            f[0].message
                .starts_with("a already plays a v c (round 2) on 2026-11-04"),
            "{f:?}"
        );
        assert!(
            f.iter()
                .all(|f| f.severity == Severity::Error && f.rule.as_deref() == Some("GT-M2"))
        );
        let f = check(&season(), &to(date(2027, 3, 1)));
        assert!(
            f.iter()
                .any(|f| f.message.contains("after the season ends")),
            "{f:?}"
        );
    }

    #[test]
    fn gt_m2_beyond_three_school_weeks_needs_the_presidents_override() {
        // Mon 2 Nov + 15 school days is Mon 23 Nov; Tue 24 Nov is the 16th.
        assert_eq!(
            school_days_between(date(2026, 11, 2), date(2026, 11, 23)),
            15
        );
        assert_eq!(check(&season(), &to(date(2026, 11, 23))), []);
        let f = check(&season(), &to(date(2026, 11, 24)));
        assert_eq!(f.len(), 1, "{f:?}");
        assert_eq!(f[0].severity, Severity::Violation);
        assert!(
            f[0].message
                .contains("16 school days after the original date 2026-11-02"),
            "{f:?}"
        );
    }

    /// The playoffs: semi-finals on Mon 1 Feb 2027 (played; S2 v S3 moved to Mon 8 Feb), the final
    /// S1 v S2 on Wed 3 Feb, still to play.
    fn playoffs() -> Competition {
        let semi = |h: &str, a: &str, day: Option<Date>| {
            Pairing::Match(Match {
                home: TeamId(h.into()),
                away: TeamId(a.into()),
                outcome: MatchOutcome::DoubleForfeit,
                date: day,
                start: None,
                extra_games: Vec::new(),
                late: None,
            })
        };
        let mut c = season();
        c.rounds = vec![
            Round {
                number: 1,
                date: Some(date(2027, 2, 1)),
                pairings: vec![
                    semi("s1", "s4", None),
                    semi("s2", "s3", Some(date(2027, 2, 8))),
                ],
            },
            Round {
                number: 2,
                date: Some(date(2027, 2, 3)),
                pairings: vec![Pairing::Match(Match {
                    home: TeamId("s1".into()),
                    away: TeamId("s2".into()),
                    outcome: MatchOutcome::Pending,
                    date: None,
                    start: None,
                    extra_games: Vec::new(),
                    late: None,
                })],
            },
        ];
        c
    }

    fn final_to(day: Date, why: Postponement) -> Move {
        Move {
            round: 2,
            home: TeamId("s1".into()),
            to: day,
            today: date(2027, 2, 2),
            calendar: Some(
                SchoolCalendar::new(date(2026, 10, 5), date(2027, 3, 12), Vec::new()).unwrap(),
            ),
            why,
            weekend_days: Vec::new(),
        }
    }

    fn rules() -> crate::rules::ruleset::Playoffs {
        crate::rules::ruleset::Ruleset::preset("gthscl")
            .unwrap()
            .playoffs
            .clone()
            .unwrap()
    }

    #[test]
    fn gt_f4_a_rescheduled_playoff_match_is_played_after_both_teams_preceding_match_and_within_7_days()
     {
        let c = playoffs();
        // S2's semi-final was played on 8 Feb: the final moves after it, and within 7 days of
        // 3 Feb, so only Tue 9 and Wed 10 Feb will do.
        let f = check_playoff(
            &c,
            &final_to(date(2027, 2, 5), Postponement::Arranged),
            None,
            &rules(),
        );
        assert_eq!(f.len(), 1, "{f:?}");
        assert_eq!(f[0].severity, Severity::Error);
        assert_eq!(f[0].rule.as_deref(), Some("GT-F4"));
        assert_eq!(
            f[0].message,
            "s2 plays its round 1 match on 2027-02-08; a rescheduled playoff match is played after both teams' preceding match, so choose a day after 2027-02-08"
        );
        assert_eq!(
            check_playoff(
                &c,
                &final_to(date(2027, 2, 10), Postponement::Arranged),
                None,
                &rules()
            ),
            []
        );
        let f = check_playoff(
            &c,
            &final_to(date(2027, 2, 11), Postponement::Arranged),
            None,
            &rules(),
        );
        assert_eq!(f.len(), 1, "{f:?}");
        assert_eq!(f[0].severity, Severity::Violation);
        assert_eq!(
            f[0].message,
            "2027-02-11 is 8 days after the match's date 2027-02-03; a rescheduled playoff match is played within 7 days of it, later only with the President's override"
        );
        // The day's own checks are the season's (GT-M2): not a Saturday.
        let f = check_playoff(
            &c,
            &final_to(date(2027, 2, 13), Postponement::Arranged),
            None,
            &rules(),
        );
        assert!(
            f.iter().any(|f| f.message.contains("is a Saturday")),
            "{f:?}"
        );
    }

    #[test]
    fn gt_f4_after_the_weather_within_5_school_days_of_both_schools_open_again() {
        let c = playoffs();
        let weather = |day| Move {
            today: date(2027, 2, 3),
            ..final_to(day, Postponement::Weather { agreed: false })
        };
        // Both schools open again on Tue 9 Feb: school days 9, 10, 11, 12 and 15 Feb.
        let open = Some(date(2027, 2, 9));
        assert_eq!(
            check_playoff(&c, &weather(date(2027, 2, 15)), open, &rules()),
            []
        );
        let f = check_playoff(&c, &weather(date(2027, 2, 16)), open, &rules());
        assert_eq!(f.len(), 1, "{f:?}");
        assert_eq!(f[0].severity, Severity::Violation);
        assert_eq!(
            f[0].message,
            "2027-02-16 is school day 6 since both schools opened again on 2027-02-09; after a weather postponement a playoff match is played within 5 school days of it, later only with the President's override"
        );
        // Not GT-F4's 7 days: the weather's window is counted from the reopening.
        assert!(f.iter().all(|f| !f.message.contains("within 7 days")));
        let f = check_playoff(&c, &weather(date(2027, 2, 15)), None, &rules());
        assert!(
            f[0].message.contains("give the first day both are open"),
            "{f:?}"
        );
        let f = check_playoff(
            &c,
            &weather(date(2027, 2, 9)),
            Some(date(2027, 2, 10)),
            &rules(),
        );
        assert!(
            f[0].message
                .contains("is before 2027-02-10, the day both schools are open again"),
            "{f:?}"
        );
        // An arranged move on the day is refused as in the season (GT-M2).
        let on_the_day = Move {
            today: date(2027, 2, 3),
            ..final_to(date(2027, 2, 9), Postponement::Arranged)
        };
        let f = check_playoff(&c, &on_the_day, None, &rules());
        assert!(
            f.iter()
                .any(|f| f.message.contains("only the weather postpones")),
            "{f:?}"
        );
    }

    #[test]
    fn a_played_match_is_not_moved() {
        let mut c = season();
        if let Pairing::Match(m) = &mut c.rounds[0].pairings[0] {
            m.outcome = MatchOutcome::DoubleForfeit;
        }
        let f = check(&c, &to(date(2026, 11, 3)));
        assert!(f[0].message.contains("has a result"), "{f:?}");
    }
}
