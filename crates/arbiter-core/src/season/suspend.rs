//! GT-F5: in severe weather the President suspends the schedule and resumes it later; every
//! match still to play from the suspension's first day shifts forward by the match days lost.
//!
//! The match days lost are the league's match days (the ruleset's `[calendar] match_days`, on
//! the season's school calendar, so never a closure) from the first day of the suspension up to
//! the day play resumes. A match shifts by that many match days, counted on the same calendar:
//! the order of the season is kept, so two matches of a team that fell on different days still
//! do. A match with a result is never moved; a match with no day has none to shift. When the
//! shift takes the last matches past the season's last day, the season runs on to the last of
//! them: resumed later, it ends later, and the plan says so before anything moves.

use jiff::civil::Date;

use crate::record::calendar::{SchoolCalendar, weekday_list};
use crate::record::model::{Competition, Match, MatchOutcome, TeamId};
use crate::record::text::{Reason, TextTooLong};

/// The days the schedule is suspended: from `from` (the first day no match is played) until
/// `resume_on` (the day play resumes), that day not included.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Suspension {
    /// The first day of the suspension.
    pub from: Date,
    /// The day play resumes.
    pub resume_on: Date,
}

/// GT-F5's words before the officers' reason, around the two days (`YYYY-MM-DD`, 10 characters
/// each).
const SUSPENDED_FROM: &str = "GT-F5: schedule suspended from ";
const RESUMED_ON: &str = " for severe weather, resumed on ";
const THEN_WHY: &str = ": ";

/// How long the officers' own reason may be: a reason's length less GT-F5's words before it
/// (see [`Suspension::reason`]).
pub const WHY_MAX_CHARS: usize = crate::record::text::REASON_MAX_CHARS
    - (SUSPENDED_FROM.len() + 10 + RESUMED_ON.len() + 10 + THEN_WHY.len());

impl Suspension {
    /// The reason every moved match keeps in its history: GT-F5's words, then the officers'
    /// (required, and within a reason's length with GT-F5's words before it).
    pub fn reason(&self, why: &str) -> Result<Reason, Problem> {
        self.written(
            [SUSPENDED_FROM, RESUMED_ON, THEN_WHY],
            why,
            Problem::NoReason,
        )
    }

    /// `words[0]`, the first day, `words[1]`, the day play resumes, `words[2]`, then `why`
    /// (required: `missing` when empty), within a reason's length.
    fn written(&self, words: [&str; 3], why: &str, missing: Problem) -> Result<Reason, Problem> {
        if why.trim().is_empty() {
            return Err(missing);
        }
        let text = format!(
            "{}{}{}{}{}{}",
            words[0],
            self.from,
            words[1],
            self.resume_on,
            words[2],
            why.trim()
        );
        match Reason::parse_as("the reason, with GT-F5's words before it,", &text) {
            Ok(Some(r)) => Ok(r),
            Ok(None) => Err(missing),
            Err(e) => Err(Problem::ReasonTooLong(e)),
        }
    }
}

/// GT-F5's words before the officers' reason when a suspension is undone.
const UNDONE_FROM: &str = "GT-F5: suspension of the schedule from ";
const UNDONE_RESUMED: &str = " (resumed on ";
const UNDONE_THEN_WHY: &str = ") undone: ";

impl Suspension {
    /// The suspension a moved match's reason in the history names, when it is one's: the days
    /// after GT-F5's words (see [`Suspension::reason`]).
    pub fn of_reason(reason: &str) -> Option<Suspension> {
        Suspension::read_back(reason, [SUSPENDED_FROM, RESUMED_ON, THEN_WHY])
    }

    /// The two days of a reason written as `words[0]`, the first day, `words[1]`, the day play
    /// resumes, `words[2]`, then the officers' words.
    fn read_back(reason: &str, words: [&str; 3]) -> Option<Suspension> {
        let rest = reason.strip_prefix(words[0])?;
        let (from, rest) = rest.split_at_checked(10)?;
        let rest = rest.strip_prefix(words[1])?;
        let (resume_on, rest) = rest.split_at_checked(10)?;
        rest.starts_with(words[2]).then_some(())?;
        Some(Suspension {
            from: from.parse().ok()?,
            resume_on: resume_on.parse().ok()?,
        })
    }

    /// The reason every match moved back keeps when the suspension is undone: GT-F5's words,
    /// then the officers' (required).
    pub fn undo_reason(&self, why: &str) -> Result<Reason, Problem> {
        // Shorter than GT-F5's words of a suspension, so a reason that fitted there fits here.
        self.written(
            [UNDONE_FROM, UNDONE_RESUMED, UNDONE_THEN_WHY],
            why,
            Problem::NoUndoReason,
        )
    }

    /// The suspension an undo's reason in the history names, when it is one's.
    pub fn undone_by(reason: &str) -> Option<Suspension> {
        Suspension::read_back(reason, [UNDONE_FROM, UNDONE_RESUMED, UNDONE_THEN_WHY])
    }
}

/// One division of the season: its competition and the weekdays its matches are set on (its
/// ruleset's `[calendar] match_days`, GT-M2).
#[derive(Debug, Clone, Copy)]
pub struct Division<'a> {
    /// The division's competition, with every result known.
    pub competition: &'a Competition,
    /// Its rules: the weekdays its matches are set on (`[calendar] match_days`, GT-M2), and
    /// GT-M5's drop, whose matches are not played and so not moved.
    pub rules: &'a crate::rules::ruleset::Ruleset,
}

/// A match the suspension moves: which (its division, round, home and away teams) and from
/// which day to which.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shift {
    /// The division's place in the list given to [`plan`].
    pub division: usize,
    /// The match's round, which it keeps (GT-M2).
    pub round: u32,
    /// The home team.
    pub home: TeamId,
    /// The visiting team.
    pub away: TeamId,
    /// The day it was set for.
    pub from: Date,
    /// The day it moves to.
    pub to: Date,
    /// The time its home advisor arranged, which it keeps (GT-M1).
    pub start: Option<jiff::civil::Time>,
}

/// A match on or after the suspension's first day that stays where it is: it has a result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Played {
    /// The division's place in the list given to [`plan`].
    pub division: usize,
    /// The match's round.
    pub round: u32,
    /// The home team.
    pub home: TeamId,
    /// The visiting team.
    pub away: TeamId,
    /// Its day.
    pub on: Date,
}

/// What a suspension does to the season (GT-F5).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    /// The suspension planned.
    pub suspension: Suspension,
    /// For each division, in the order given, the match days the suspension takes: each of its
    /// matches shifts by this many.
    pub match_days_lost: Vec<usize>,
    /// Every match that moves, division by division, in the order they were to be played.
    pub shifts: Vec<Shift>,
    /// The matches from the first day of the suspension on that have a result and stay.
    pub played: Vec<Played>,
    /// The season's new last day, when the shift takes matches past the one it had: the day of
    /// the last of them.
    pub season_ends_on: Option<Date>,
}

/// Why a suspension cannot be applied as asked (GT-F5), each a sentence an officer reads.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Problem {
    /// Play resumes on or before the suspension's first day.
    #[error(
        "GT-F5: play cannot resume on {resume_on}, which is not after the suspension's first day, {from}; give a day to resume after it."
    )]
    ResumesTooSoon {
        /// The suspension's first day.
        from: Date,
        /// The day play was to resume.
        resume_on: Date,
    },
    /// No match day falls in the suspension, so no match would move.
    #[error(
        "GT-F5: from {from} until {resume_on} there is no match day of the season ({weekdays}, on school days only), so the suspension would move no match; give the days on which matches cannot be played."
    )]
    NoMatchDay {
        /// The suspension's first day.
        from: Date,
        /// The day play resumes.
        resume_on: Date,
        /// The match days, as a sentence names them: `Monday, Wednesday`.
        weekdays: String,
    },
    /// A shifted match would fall more than two years past the season's last day.
    #[error(
        "GT-F5: {division}, round {round}, {home} v {away} on {day} would move more than two years past the season's last day ({ends_on}); shorten the suspension."
    )]
    FarPastTheSeason {
        /// The division's name.
        division: String,
        /// The match's round.
        round: u32,
        /// The home team's name.
        home: String,
        /// The visiting team's name.
        away: String,
        /// The day it was set for.
        day: Date,
        /// The season's last day.
        ends_on: Date,
    },
    /// No reason was given.
    #[error(
        "GT-F5: say why the schedule is suspended (the snow, the ice, the storm); the reason is kept in the history of every match that moves."
    )]
    NoReason,
    /// No reason was given for undoing a suspension.
    #[error(
        "GT-F5: say why the suspension is undone (it was a mistake, the weather cleared); the reason is kept in the history of every match that moves back."
    )]
    NoUndoReason,
    /// A match the suspension moved has a result since, so it cannot go back.
    #[error(
        "GT-F5: {division}, round {round}, {home} v {away} has been played since the suspension moved it to {day}, so the suspension cannot be undone; move the other matches back by hand on their pages."
    )]
    PlayedSince {
        /// The division's name.
        division: String,
        /// The match's round.
        round: u32,
        /// The home team's name.
        home: String,
        /// The visiting team's name.
        away: String,
        /// The day the suspension moved it to.
        day: Date,
    },
    /// A match the suspension moved was moved again by hand since.
    #[error(
        "GT-F5: {division}, round {round}, {home} v {away} was moved again by hand since the suspension set it on {day} (it is on {now} now), so the suspension cannot be undone; move the matches back by hand on their pages."
    )]
    MovedSince {
        /// The division's name.
        division: String,
        /// The match's round.
        round: u32,
        /// The home team's name.
        home: String,
        /// The visiting team's name.
        away: String,
        /// The day the suspension moved it to.
        day: Date,
        /// The day it is set for now, as a sentence says it (`no day` when it has none).
        now: String,
    },
    /// The reason is too long once GT-F5's words are put before it.
    #[error("GT-F5: {0}")]
    ReasonTooLong(TextTooLong),
    /// After the shift, a team would play two matches on one day.
    #[error(
        "GT-F5: {division}: after the shift {team} would play two matches on {day}, round {first_round} ({first}) and round {second_round} ({second}); move one of them by hand before suspending the schedule, or choose other days."
    )]
    TwoMatchesADay {
        /// The division's name.
        division: String,
        /// The team's name.
        team: String,
        /// The day.
        day: Date,
        /// The round of the first match.
        first_round: u32,
        /// The first match, `Home v Away`.
        first: String,
        /// The round of the second match.
        second_round: u32,
        /// The second match, `Home v Away`.
        second: String,
    },
}

/// What suspending the schedule for `suspension` does to the season's `divisions` on its
/// school `calendar` (GT-F5): every match without a result set on or after the first day shifts
/// forward by the division's match days lost, or every reason it cannot.
pub fn plan(
    divisions: &[Division<'_>],
    calendar: &SchoolCalendar,
    suspension: Suspension,
) -> Result<Plan, Vec<Problem>> {
    let Suspension { from, resume_on } = suspension;
    if resume_on <= from {
        return Err(vec![Problem::ResumesTooSoon { from, resume_on }]);
    }
    // The season's calendar, run on past its last day: to name the day a match would fall on.
    let far = SchoolCalendar {
        ends_on: calendar
            .ends_on
            .checked_add(jiff::Span::new().years(2))
            .unwrap_or(calendar.ends_on),
        ..calendar.clone()
    };
    let mut out = Plan {
        suspension,
        match_days_lost: Vec::new(),
        shifts: Vec::new(),
        played: Vec::new(),
        season_ends_on: None,
    };
    let mut problems = Vec::new();
    for (i, d) in divisions.iter().enumerate() {
        let days = far.match_days(&d.rules.match_days);
        // The place of a day among the match days: its own, or the next match day's.
        let place = |day: Date| days.partition_point(|&m| m < day);
        let lost = place(resume_on) - place(from);
        out.match_days_lost.push(lost);
        let c = d.competition;
        let sheet = crate::scoring::score(c, d.rules);
        for r in &c.rounds {
            for m in r.matches() {
                let Some(day) = r.date_of(m).filter(|&day| day >= from) else {
                    continue;
                };
                // GT-M5: a dropped team's match will not be played, so it is not moved.
                if crate::scoring::unplayed_after_drop(&sheet, c, r.number, m).is_some() {
                    continue;
                }
                if m.outcome != MatchOutcome::Pending {
                    out.played.push(Played {
                        division: i,
                        round: r.number,
                        home: m.home.clone(),
                        away: m.away.clone(),
                        on: day,
                    });
                    continue;
                }
                if lost == 0 {
                    continue;
                }
                match days.get(place(day) + lost).copied() {
                    Some(to) => out.shifts.push(Shift {
                        division: i,
                        round: r.number,
                        home: m.home.clone(),
                        away: m.away.clone(),
                        from: day,
                        to,
                        start: m.start,
                    }),
                    None => problems.push(Problem::FarPastTheSeason {
                        division: c.name.clone(),
                        round: r.number,
                        home: c.team_name(&m.home),
                        away: c.team_name(&m.away),
                        day,
                        ends_on: calendar.ends_on,
                    }),
                }
            }
        }
        problems.extend(collisions(i, c, &sheet, &out.shifts));
    }
    if out.match_days_lost.iter().all(|&n| n == 0) {
        problems.insert(
            0,
            Problem::NoMatchDay {
                from,
                resume_on,
                weekdays: weekday_list(divisions.iter().flat_map(|d| &d.rules.match_days)),
            },
        );
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    out.season_ends_on = out
        .shifts
        .iter()
        .map(|s| s.to)
        .max()
        .filter(|&last| last > calendar.ends_on);
    // Stable: a day's matches stay in their round's pairing order.
    out.shifts.sort_by_key(|s| (s.division, s.from, s.round));
    Ok(out)
}

/// GT-F5: a suspension undone: every match it moved (`moved`, as the history keeps each: its
/// day before and the day it was moved to) goes back to its earlier day, with the time it had.
/// Refused, naming the match, when one has a result since or was moved again by hand.
pub fn undo(divisions: &[Division<'_>], moved: &[Shift]) -> Result<Vec<Shift>, Vec<Problem>> {
    let mut problems = Vec::new();
    let mut back = Vec::new();
    for s in moved {
        let Some(d) = divisions.get(s.division) else {
            continue;
        };
        let c = d.competition;
        let found = c.rounds.iter().find(|r| r.number == s.round).and_then(|r| {
            r.matches()
                .find(|m| m.home == s.home && m.away == s.away)
                .map(|m| (r, m))
        });
        let Some((r, m)) = found else {
            continue;
        };
        let (division, round, home, away) = (
            c.name.clone(),
            s.round,
            c.team_name(&s.home),
            c.team_name(&s.away),
        );
        let now = r.date_of(m);
        if m.outcome != MatchOutcome::Pending {
            problems.push(Problem::PlayedSince {
                division,
                round,
                home,
                away,
                day: s.to,
            });
        } else if now != Some(s.to) {
            problems.push(Problem::MovedSince {
                division,
                round,
                home,
                away,
                day: s.to,
                now: now.map_or_else(|| "no day".to_string(), |d| d.to_string()),
            });
        } else {
            back.push(Shift {
                from: s.to,
                to: s.from,
                start: m.start,
                ..s.clone()
            });
        }
    }
    if problems.is_empty() {
        Ok(back)
    } else {
        Err(problems)
    }
}

/// A team's two matches on one day once division `i`'s `shifts` are made, when one of them moved
/// there: a match set on another weekday than the match days can land on a shifted one's.
fn collisions(
    i: usize,
    c: &Competition,
    sheet: &crate::scoring::ScoreSheet,
    shifts: &[Shift],
) -> Vec<Problem> {
    /// A team's match on a day, after the shifts.
    struct Slot<'a> {
        day: Date,
        team: &'a TeamId,
        round: u32,
        what: &'a Match,
        moved: bool,
    }
    let mut slots = Vec::new();
    for r in &c.rounds {
        for m in r.matches() {
            let moved = shifts
                .iter()
                .find(|s| s.division == i && s.round == r.number && s.home == m.home);
            let Some(day) = moved.map(|s| s.to).or_else(|| r.date_of(m)) else {
                continue;
            };
            // GT-M5: a match that will not be played takes no day from anyone.
            if crate::scoring::unplayed_after_drop(sheet, c, r.number, m).is_some() {
                continue;
            }
            for team in [&m.home, &m.away] {
                slots.push(Slot {
                    day,
                    team,
                    round: r.number,
                    what: m,
                    moved: moved.is_some(),
                });
            }
        }
    }
    let said = |m: &Match| format!("{} v {}", c.team_name(&m.home), c.team_name(&m.away));
    let mut out = Vec::new();
    for (k, a) in slots.iter().enumerate() {
        for b in &slots[k + 1..] {
            if a.day == b.day && a.team == b.team && (a.moved || b.moved) {
                out.push(Problem::TwoMatchesADay {
                    division: c.name.clone(),
                    team: c.team_name(a.team),
                    day: a.day,
                    first_round: a.round,
                    first: said(a.what),
                    second_round: b.round,
                    second: said(b.what),
                });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::calendar::Closure;
    use crate::record::model::{Board, GameResult, Pairing, Round, Team};
    use jiff::civil::Weekday::{self, Monday, Wednesday};
    use jiff::civil::date;

    const MON_WED: &[Weekday] = &[Monday, Wednesday];

    fn game(home: &str, away: &str) -> Pairing {
        Pairing::Match(Match {
            home: TeamId(home.into()),
            away: TeamId(away.into()),
            outcome: MatchOutcome::Pending,
            date: None,
            start: None,
            extra_games: Vec::new(),
            late: None,
        })
    }

    fn round(number: u32, day: Date, pairings: Vec<Pairing>) -> Round {
        Round {
            number,
            date: Some(day),
            pairings,
        }
    }

    /// Four teams, Mondays and Wednesdays from Mon 2 Nov 2026: a v b and c v d, then a v c and
    /// b v d, then a v d and b v c, then the first round again.
    fn division() -> Competition {
        let team = |id: &str| Team {
            id: TeamId(id.into()),
            name: format!("{} High", id.to_uppercase()),
            school: None,
            players: Vec::new(),
        };
        Competition {
            name: "Metro".into(),
            teams: ["a", "b", "c", "d"].into_iter().map(team).collect(),
            rounds: vec![
                round(1, date(2026, 11, 2), vec![game("a", "b"), game("c", "d")]),
                round(2, date(2026, 11, 4), vec![game("a", "c"), game("b", "d")]),
                round(3, date(2026, 11, 9), vec![game("a", "d"), game("b", "c")]),
                round(4, date(2026, 11, 16), vec![game("b", "a"), game("d", "c")]),
            ],
        }
    }

    fn calendar(closures: Vec<Closure>) -> SchoolCalendar {
        SchoolCalendar::new(date(2026, 10, 5), date(2027, 2, 24), closures).unwrap()
    }

    fn suspend(
        c: &Competition,
        cal: &SchoolCalendar,
        from: Date,
        resume_on: Date,
    ) -> Result<Plan, Vec<Problem>> {
        let rules = crate::rules::ruleset::Ruleset::preset("gthscl").unwrap();
        assert_eq!(rules.match_days, MON_WED);
        let divisions = [Division {
            competition: c,
            rules: &rules,
        }];
        plan(&divisions, cal, Suspension { from, resume_on })
    }

    /// Each shift as `(round, home, from, to)`.
    fn moves(p: &Plan) -> Vec<(u32, &str, Date, Date)> {
        p.shifts
            .iter()
            .map(|s| (s.round, s.home.0.as_str(), s.from, s.to))
            .collect()
    }

    /// GT-M5, issue 31: a dropped team's matches will not be played, so a suspension moves
    /// none of them (nor tells their schools of a new day).
    #[test]
    fn gt_m5_gt_f5_a_suspension_moves_no_match_of_a_dropped_team() {
        let mut c = division();
        for r in &mut c.rounds[..2] {
            for p in &mut r.pairings {
                if let Pairing::Match(m) = p {
                    m.outcome = if m.away.0 == "d" {
                        MatchOutcome::Forfeit {
                            by: crate::record::model::Side::Away,
                        }
                    } else {
                        MatchOutcome::DoubleForfeit
                    };
                }
            }
        }
        let p = suspend(
            &c,
            &calendar(Vec::new()),
            date(2026, 11, 9),
            date(2026, 11, 16),
        )
        .unwrap();
        assert_eq!(
            moves(&p),
            [
                (3, "b", date(2026, 11, 9), date(2026, 11, 16)),
                (4, "b", date(2026, 11, 16), date(2026, 11, 23)),
            ],
            "d was dropped after its second forfeit: a v d and d v c stay where they are"
        );
    }

    #[test]
    fn gt_f5_suspension_shifts_a_week_of_matches() {
        // Suspended Mon 2 Nov, play resumes Mon 9 Nov: two match days lost, so every match
        // still to play shifts by two match days, a week.
        let p = suspend(
            &division(),
            &calendar(Vec::new()),
            date(2026, 11, 2),
            date(2026, 11, 9),
        )
        .unwrap();
        assert_eq!(p.match_days_lost, [2]);
        assert_eq!(
            moves(&p),
            [
                (1, "a", date(2026, 11, 2), date(2026, 11, 9)),
                (1, "c", date(2026, 11, 2), date(2026, 11, 9)),
                (2, "a", date(2026, 11, 4), date(2026, 11, 11)),
                (2, "b", date(2026, 11, 4), date(2026, 11, 11)),
                (3, "a", date(2026, 11, 9), date(2026, 11, 16)),
                (3, "b", date(2026, 11, 9), date(2026, 11, 16)),
                (4, "b", date(2026, 11, 16), date(2026, 11, 23)),
                (4, "d", date(2026, 11, 16), date(2026, 11, 23)),
            ]
        );
        assert!(p.played.is_empty());
    }

    #[test]
    fn gt_f5_matches_before_the_suspension_stay() {
        // From Wed 4 Nov to Mon 9 Nov: one match day lost (Wed 4); round 1 stays.
        let p = suspend(
            &division(),
            &calendar(Vec::new()),
            date(2026, 11, 4),
            date(2026, 11, 9),
        )
        .unwrap();
        assert_eq!(p.match_days_lost, [1]);
        assert_eq!(p.shifts.len(), 6, "{p:?}");
        assert!(p.shifts.iter().all(|s| s.round > 1));
        assert_eq!(p.shifts[0].to, date(2026, 11, 9), "Wed 4 to Mon 9");
        assert_eq!(p.shifts[2].to, date(2026, 11, 11), "Mon 9 to Wed 11");
    }

    #[test]
    fn gt_f5_a_suspension_over_a_closure_counts_only_the_match_days() {
        // Veterans Day (Wed 11 Nov) is closed. Suspended from Mon 9 Nov until Mon 16 Nov: the
        // match days lost are Mon 9 alone, so round 3 moves to Mon 16 and round 4 from there to
        // Wed 18. Thanksgiving (Wed 25 to Fri 27) is never a match day.
        let cal = calendar(vec![
            Closure::day(date(2026, 11, 11), "Veterans Day").unwrap(),
            Closure::new(date(2026, 11, 25), date(2026, 11, 27), "Thanksgiving break").unwrap(),
        ]);
        let p = suspend(&division(), &cal, date(2026, 11, 9), date(2026, 11, 16)).unwrap();
        assert_eq!(p.match_days_lost, [1]);
        assert_eq!(
            moves(&p),
            [
                (3, "a", date(2026, 11, 9), date(2026, 11, 16)),
                (3, "b", date(2026, 11, 9), date(2026, 11, 16)),
                (4, "b", date(2026, 11, 16), date(2026, 11, 18)),
                (4, "d", date(2026, 11, 16), date(2026, 11, 18)),
            ]
        );
        // A longer suspension, Mon 16 until Mon 30: Mon 16, Wed 18, Mon 23 lost (Wed 25 is
        // Thanksgiving), so round 4 skips the break and is played the day play resumes.
        let p = suspend(&division(), &cal, date(2026, 11, 16), date(2026, 11, 30)).unwrap();
        assert_eq!(p.match_days_lost, [3]);
        assert!(p.shifts.iter().all(|s| s.to == date(2026, 11, 30)), "{p:?}");
    }

    #[test]
    fn gt_f5_a_played_match_does_not_move() {
        let mut c = division();
        if let Pairing::Match(m) = &mut c.rounds[2].pairings[0] {
            m.outcome = MatchOutcome::Boards(vec![Board::new(GameResult::HomeWin)]);
        }
        let p = suspend(
            &c,
            &calendar(Vec::new()),
            date(2026, 11, 9),
            date(2026, 11, 16),
        )
        .unwrap();
        assert_eq!(
            p.played,
            [Played {
                division: 0,
                round: 3,
                home: TeamId("a".into()),
                away: TeamId("d".into()),
                on: date(2026, 11, 9),
            }]
        );
        assert!(
            !p.shifts.iter().any(|s| s.round == 3 && s.home.0 == "a"),
            "{p:?}"
        );
        assert_eq!(
            moves(&p)[0],
            (3, "b", date(2026, 11, 9), date(2026, 11, 16))
        );
    }

    #[test]
    fn gt_f5_a_match_shifted_past_the_seasons_end_extends_the_season() {
        let mut c = division();
        c.rounds[3].date = Some(date(2027, 2, 22));
        let p = suspend(
            &c,
            &calendar(Vec::new()),
            date(2027, 2, 15),
            date(2027, 2, 22),
        )
        .unwrap();
        // Two match days lost (Mon 15, Wed 17): round 4 moves from Mon 22 Feb to Mon 1 Mar,
        // past the last day, Wed 24 Feb, and the season runs on to it.
        assert!(
            moves(&p).contains(&(4, "b", date(2027, 2, 22), date(2027, 3, 1))),
            "{p:?}"
        );
        assert_eq!(p.season_ends_on, Some(date(2027, 3, 1)));
        // A shift that stays in the season leaves its last day alone.
        let p = suspend(
            &division(),
            &calendar(Vec::new()),
            date(2026, 11, 9),
            date(2026, 11, 11),
        )
        .unwrap();
        assert_eq!(p.season_ends_on, None);
    }

    #[test]
    fn gt_f5_play_resumes_after_the_suspension_starts_on_a_match_day() {
        let cal = calendar(Vec::new());
        let e = suspend(&division(), &cal, date(2026, 11, 9), date(2026, 11, 9)).unwrap_err();
        assert_eq!(
            e[0].to_string(),
            "GT-F5: play cannot resume on 2026-11-09, which is not after the suspension's first day, 2026-11-09; give a day to resume after it."
        );
        // Tue 3 to Wed 4: no Monday or Wednesday lost.
        let e = suspend(&division(), &cal, date(2026, 11, 3), date(2026, 11, 4)).unwrap_err();
        assert_eq!(e.len(), 1, "{e:?}");
        assert!(
            e[0].to_string()
                .contains("there is no match day of the season (Monday, Wednesday"),
            "{e:?}"
        );
    }

    #[test]
    fn gt_f5_the_history_keeps_why_each_match_moved() {
        let s = Suspension {
            from: date(2026, 11, 2),
            resume_on: date(2026, 11, 9),
        };
        assert_eq!(
            s.reason(" Ice storm closed the roads. ").unwrap().as_str(),
            "GT-F5: schedule suspended from 2026-11-02 for severe weather, resumed on 2026-11-09: Ice storm closed the roads."
        );
        assert_eq!(s.reason("  "), Err(Problem::NoReason));
        assert!(s.reason(&"x".repeat(WHY_MAX_CHARS)).is_ok());
        let e = s.reason(&"x".repeat(WHY_MAX_CHARS + 1)).unwrap_err();
        assert!(
            e.to_string().starts_with(
                "GT-F5: The reason, with GT-F5's words before it, has 1,001 characters"
            ),
            "{e}"
        );
    }

    #[test]
    fn gt_f5_a_match_moved_to_another_weekday_that_would_meet_a_shifted_one_is_refused() {
        // Round 3's a v d was moved to Tue 10 Nov; from Mon 9 until Wed 11, round 3's b v c
        // (Mon 9) moves to Wed 11, and a v d from Tue 10 to Mon 16, where round 4 has a as well
        // (b v a, moved from Mon 16 to Wed 18): no clash. Set a v d on Thu 12 instead, and it
        // moves to Wed 18, onto b v a.
        let mut c = division();
        if let Pairing::Match(m) = &mut c.rounds[2].pairings[0] {
            m.date = Some(date(2026, 11, 10));
        }
        let cal = calendar(Vec::new());
        let p = suspend(&c, &cal, date(2026, 11, 9), date(2026, 11, 11)).unwrap();
        assert!(moves(&p).contains(&(3, "a", date(2026, 11, 10), date(2026, 11, 16))));
        if let Pairing::Match(m) = &mut c.rounds[2].pairings[0] {
            m.date = Some(date(2026, 11, 12));
        }
        let e = suspend(&c, &cal, date(2026, 11, 9), date(2026, 11, 11)).unwrap_err();
        assert_eq!(
            e[0].to_string(),
            "GT-F5: Metro: after the shift A High would play two matches on 2026-11-18, round 3 (A High v D High) and round 4 (B High v A High); move one of them by hand before suspending the schedule, or choose other days."
        );
    }

    /// GT-F5: a suspension is undone by moving every match back to its day; refused, naming the
    /// match, when one was played or moved again by hand since.
    #[test]
    fn gt_f5_a_suspension_is_undone_unless_a_match_moved_has_changed_since() {
        let cal = calendar(Vec::new());
        let before = division();
        let plan = suspend(&before, &cal, date(2026, 11, 9), date(2026, 11, 16)).unwrap();
        let reason = plan.suspension.reason("Ice.").unwrap();
        assert_eq!(
            Suspension::of_reason(reason.as_str()),
            Some(plan.suspension)
        );
        let undo_reason = plan.suspension.undo_reason("The ice melted.").unwrap();
        assert_eq!(
            undo_reason.as_str(),
            "GT-F5: suspension of the schedule from 2026-11-09 (resumed on 2026-11-16) undone: The ice melted."
        );
        assert_eq!(
            Suspension::undone_by(undo_reason.as_str()),
            Some(plan.suspension)
        );
        assert_eq!(Suspension::of_reason(undo_reason.as_str()), None);
        // The division as the suspension left it.
        let mut after = before.clone();
        for s in &plan.shifts {
            let r = after
                .rounds
                .iter_mut()
                .find(|r| r.number == s.round)
                .unwrap();
            for p in &mut r.pairings {
                if let Pairing::Match(m) = p
                    && m.home == s.home
                {
                    m.date = Some(s.to);
                }
            }
        }
        let rules = crate::rules::ruleset::Ruleset::preset("gthscl").unwrap();
        let undo_on = |c: &Competition| {
            undo(
                &[Division {
                    competition: c,
                    rules: &rules,
                }],
                &plan.shifts,
            )
        };
        let back = undo_on(&after).unwrap();
        assert_eq!(back.len(), plan.shifts.len());
        for (b, s) in back.iter().zip(&plan.shifts) {
            assert_eq!((b.from, b.to), (s.to, s.from));
        }
        // Round 3's a v d moved by hand since, and round 4's b v a played.
        let mut changed = after.clone();
        for r in &mut changed.rounds {
            for p in &mut r.pairings {
                if let Pairing::Match(m) = p {
                    match (r.number, m.home.0.as_str()) {
                        (3, "a") => m.date = Some(date(2026, 12, 2)),
                        (4, "b") => {
                            m.outcome = MatchOutcome::Forfeit {
                                by: crate::Side::Away,
                            }
                        }
                        _ => {}
                    }
                }
            }
        }
        let refused: Vec<String> = undo_on(&changed)
            .unwrap_err()
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(refused.len(), 2, "{refused:#?}");
        assert!(
            refused[0].starts_with("GT-F5: Metro, round 3, A High v D High was moved again by hand since the suspension set it on 2026-11-16 (it is on 2026-12-02 now)"),
            "{refused:#?}"
        );
        assert!(
            refused[1].starts_with("GT-F5: Metro, round 4, B High v A High has been played since the suspension moved it to"),
            "{refused:#?}"
        );
    }
}
