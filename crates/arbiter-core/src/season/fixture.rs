//! When and where each match is played (issue 32), as a calendar feed and a team's page say it:
//! its day (its own when it was moved, else its round's: GT-M2), its start (the time the home
//! advisor arranged, GT-M1; at an event, else its round's start in the hall, AS-1), its place
//! (the home team's school, GT-M1, or the event's hall), whether it will not be played (a team
//! dropped, GT-M5, or the match forfeited), how many times its calendar event has changed, and
//! a team's next match.
//!
//! Every day and time here is the league's or event's local one (RULES.md, "Time"); the
//! instant a calendar needs is [`crate::record::zone::Zone::instant`] of it.

use jiff::civil::{Date, DateTime, Time};

use crate::record::model::{Competition, Match, MatchOutcome, Pairing, Side, TeamId};
use crate::scoring::{self, ScoreSheet};

/// Where a match is played.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place<'a> {
    /// GT-M1: at the home team's school, by its name (the home team's name when the record
    /// names no school).
    HomeSchool(&'a str),
    /// At an event: in its hall, whoever is named first.
    Hall,
}

/// One match as a calendar and a team's page show it.
#[derive(Debug, Clone, PartialEq)]
pub struct Fixture<'a> {
    /// Its round: a moved match keeps it (GT-M2).
    pub round: u32,
    /// The match as recorded.
    pub record: &'a Match,
    /// The local day it is played.
    pub date: Date,
    /// The local time it starts, when known; `None`: after school, at the time the home advisor
    /// arranges (GT-M1).
    pub start: Option<Time>,
    /// Where it is played.
    pub place: Place<'a>,
    /// `Some` with the sentence when the match will not be played: a team of it was dropped
    /// (GT-M5, `scoring::unplayed_after_drop`), or the match was forfeited as a whole.
    pub not_played: Option<String>,
}

impl Fixture<'_> {
    /// The local day and time it starts, when the time is known.
    pub fn starts_at(&self) -> Option<DateTime> {
        self.start.map(|t| self.date.to_datetime(t))
    }

    /// Whether `team` plays it, and on which side.
    pub fn side_of(&self, team: &TeamId) -> Option<Side> {
        if &self.record.home == team {
            Some(Side::Home)
        } else if &self.record.away == team {
            Some(Side::Away)
        } else {
            None
        }
    }
}

/// What an event adds to its matches: the start of each of its rounds in the hall (AS-1), by
/// round number. A league passes none: its matches are at the home schools (GT-M1).
#[derive(Debug, Clone, Copy)]
pub struct Hall<'a> {
    /// Each round's start, as the event's arbiter set it.
    pub round_starts: &'a [(u32, DateTime)],
}

/// Every dated match of `competition` (of `team` only, when given), by day, start and round.
/// A match with no day (a schedule not yet dated) is left out: a calendar cannot hold it.
/// `sheet` is the competition's score sheet, for GT-M5's drops.
pub fn fixtures<'a>(
    competition: &'a Competition,
    sheet: &ScoreSheet,
    hall: Option<Hall<'_>>,
    team: Option<&TeamId>,
) -> Vec<Fixture<'a>> {
    let mut out = Vec::new();
    for round in &competition.rounds {
        // At an event a match not moved starts when its round does.
        let round_start = hall.and_then(|h| {
            h.round_starts
                .iter()
                .find(|(n, _)| *n == round.number)
                .map(|&(_, at)| at)
        });
        for p in &round.pairings {
            let Pairing::Match(m) = p else { continue };
            if team.is_some_and(|t| &m.home != t && &m.away != t) {
                continue;
            }
            let hall_start = round_start.filter(|_| m.date.is_none());
            let Some(date) = m.date.or(round.date).or(hall_start.map(|at| at.date())) else {
                continue;
            };
            let place = match hall {
                Some(_) => Place::Hall,
                None => Place::HomeSchool(home_school(competition, &m.home)),
            };
            out.push(Fixture {
                round: round.number,
                record: m,
                date,
                start: m.start.or(hall_start.map(|at| at.time())),
                place,
                not_played: not_played(competition, sheet, round.number, m),
            });
        }
    }
    out.sort_by_key(|f| (f.date, f.start, f.round));
    out
}

/// GT-M1: the school a match at home to `home` is played at; the team's name when the record
/// names no school.
fn home_school<'a>(competition: &'a Competition, home: &'a TeamId) -> &'a str {
    competition
        .teams
        .iter()
        .find(|t| &t.id == home)
        .map_or(home.0.as_str(), |t| t.school.as_deref().unwrap_or(&t.name))
}

/// Why match `m` of round `round` will not be played, if it will not: a team of it dropped
/// (GT-M5), or the match forfeited by one team as a whole (decided before the day, or a team
/// that never came). A double forfeit is not said here: it may be a late report's (GT-P4), of a
/// match that was played.
fn not_played(
    competition: &Competition,
    sheet: &ScoreSheet,
    round: u32,
    m: &Match,
) -> Option<String> {
    if let MatchOutcome::Forfeit { by } = m.outcome {
        let id = m.team(by);
        let name = competition
            .teams
            .iter()
            .find(|t| &t.id == id)
            .map_or(id.0.as_str(), |t| t.name.as_str());
        return Some(format!("Not played: {name} forfeited the match."));
    }
    scoring::unplayed_after_drop(sheet, competition, round, m)
}

/// A team's next match on `today` (the league's local day): the first of `fixtures` (in the
/// order [`fixtures`] gives) still to be played, on `today` or after, that will be played.
pub fn next<'f, 'a>(fixtures: &'f [Fixture<'a>], today: Date) -> Option<&'f Fixture<'a>> {
    fixtures.iter().find(|f| {
        f.date >= today && f.record.outcome == MatchOutcome::Pending && f.not_played.is_none()
    })
}

/// A calendar event's `SEQUENCE` for a match (RFC 5546 2.1.4: it rises with every change of its
/// day, time or status): the times it was moved (GT-M2, GT-F5), and one more once it will not
/// be played.
pub fn sequence(moves: u32, not_played: bool) -> u32 {
    moves.saturating_add(u32::from(not_played))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Ruleset;
    use crate::record::model::{Round, Team};
    use jiff::civil::{date, time};

    fn game(home: &str, away: &str, outcome: MatchOutcome) -> Pairing {
        Pairing::Match(Match {
            home: TeamId(home.into()),
            away: TeamId(away.into()),
            outcome,
            date: None,
            start: None,
            extra_games: Vec::new(),
            late: None,
        })
    }

    fn forfeit(home: &str, away: &str, by: Side) -> Pairing {
        game(home, away, MatchOutcome::Forfeit { by })
    }

    /// Four teams on Mondays and Wednesdays from Mon 2 Nov 2026; d forfeits rounds 1 and 2 and
    /// is dropped (GT-M5) before rounds 3 and 4.
    fn division() -> Competition {
        let team = |id: &str, school: Option<&str>| Team {
            id: TeamId(id.into()),
            name: format!("{} Team", id.to_uppercase()),
            school: school.map(str::to_string),
            players: Vec::new(),
        };
        let pending = MatchOutcome::Pending;
        let round = |number, day, pairings| Round {
            number,
            date: Some(day),
            pairings,
        };
        Competition {
            name: "Metro".into(),
            teams: vec![
                team("a", Some("Start High School")),
                team("b", Some("Scott High School")),
                team("c", None),
                team("d", Some("Waite High School")),
            ],
            rounds: vec![
                round(
                    1,
                    date(2026, 11, 2),
                    vec![
                        game("a", "b", pending.clone()),
                        forfeit("c", "d", Side::Away),
                    ],
                ),
                round(
                    2,
                    date(2026, 11, 4),
                    vec![
                        game("c", "a", pending.clone()),
                        forfeit("d", "b", Side::Home),
                    ],
                ),
                round(
                    3,
                    date(2026, 11, 9),
                    vec![
                        game("a", "d", pending.clone()),
                        game("b", "c", pending.clone()),
                    ],
                ),
                round(
                    4,
                    date(2026, 11, 16),
                    vec![game("b", "a", pending.clone()), game("d", "c", pending)],
                ),
            ],
        }
    }

    fn sheet(c: &Competition) -> ScoreSheet {
        scoring::score(c, &Ruleset::preset("gthscl").unwrap())
    }

    #[test]
    fn gt_m1_a_match_is_at_the_home_school_on_its_rounds_day_and_a_moved_one_on_its_own() {
        let mut c = division();
        // GT-M2: round 1's match moved to Thu 5 Nov at 15:30, after round 2's.
        if let Pairing::Match(m) = &mut c.rounds[0].pairings[0] {
            m.date = Some(date(2026, 11, 5));
            m.start = Some(time(15, 30, 0, 0));
        }
        let s = sheet(&c);
        let a = TeamId("a".into());
        let all = fixtures(&c, &s, None, Some(&a));
        let days: Vec<_> = all.iter().map(|f| (f.round, f.date)).collect();
        assert_eq!(
            days,
            [
                (2, date(2026, 11, 4)),
                (1, date(2026, 11, 5)),
                (3, date(2026, 11, 9)),
                (4, date(2026, 11, 16)),
            ],
            "by day, the moved match keeping its round"
        );
        assert_eq!(all[1].place, Place::HomeSchool("Start High School"));
        assert_eq!(
            all[1].starts_at(),
            Some(date(2026, 11, 5).at(15, 30, 0, 0)),
            "GT-M1: the time the home advisor arranged"
        );
        assert_eq!(all[0].start, None, "after school, as the advisors agree");
        assert_eq!(
            all[0].place,
            Place::HomeSchool("C Team"),
            "a team with no school: its name"
        );
        assert_eq!(all[0].side_of(&a), Some(Side::Away));
        assert_eq!(all[0].side_of(&TeamId("d".into())), None);
        assert_eq!(fixtures(&c, &s, None, None).len(), 8);
    }

    #[test]
    fn gt_m5_a_dropped_teams_matches_and_a_forfeited_match_will_not_be_played() {
        let c = division();
        let s = sheet(&c);
        let all = fixtures(&c, &s, None, Some(&TeamId("d".into())));
        assert_eq!(all.len(), 4);
        assert_eq!(
            all[0].not_played.as_deref(),
            Some("Not played: D Team forfeited the match.")
        );
        let dropped = all[2].not_played.as_deref().unwrap();
        assert!(
            dropped.starts_with("Not played: D Team was dropped from the league")
                && dropped.contains("(GT-M5)"),
            "{dropped}"
        );
        assert!(all[3].not_played.is_some());
        let a = fixtures(&c, &s, None, Some(&TeamId("a".into())));
        assert!(
            a.iter()
                .filter(|f| f.round != 3)
                .all(|f| f.not_played.is_none())
        );
    }

    #[test]
    fn as_1_at_an_event_a_match_starts_with_its_round_in_the_hall() {
        let mut c = division();
        c.rounds[1].date = None;
        if let Pairing::Match(m) = &mut c.rounds[2].pairings[1] {
            // Moved by the arbiter to the evening before, with no time set.
            m.date = Some(date(2026, 11, 8));
        }
        let s = sheet(&c);
        let starts = [
            (1, date(2026, 11, 2).at(9, 0, 0, 0)),
            (2, date(2026, 11, 2).at(14, 0, 0, 0)),
            (3, date(2026, 11, 9).at(9, 0, 0, 0)),
        ];
        let hall = Hall {
            round_starts: &starts,
        };
        let all = fixtures(&c, &s, Some(hall), None);
        let round2 = all.iter().find(|f| f.round == 2).unwrap();
        assert_eq!(
            round2.starts_at(),
            Some(date(2026, 11, 2).at(14, 0, 0, 0)),
            "a round with no day of its own takes its start's"
        );
        assert_eq!(round2.place, Place::Hall);
        let moved = all
            .iter()
            .find(|f| f.round == 3 && f.record.home.0 == "b")
            .unwrap();
        assert_eq!((moved.date, moved.start), (date(2026, 11, 8), None));
        let round4 = all.iter().find(|f| f.round == 4).unwrap();
        assert_eq!(round4.start, None, "a round the arbiter gave no start");
    }

    #[test]
    fn a_teams_next_match_is_the_first_still_to_play_from_today() {
        let mut c = division();
        if let Pairing::Match(m) = &mut c.rounds[0].pairings[0] {
            m.outcome = MatchOutcome::DoubleForfeit;
        }
        let s = sheet(&c);
        let a = fixtures(&c, &s, None, Some(&TeamId("a".into())));
        assert_eq!(next(&a, date(2026, 11, 1)).map(|f| f.round), Some(2));
        assert_eq!(
            next(&a, date(2026, 11, 4)).map(|f| f.round),
            Some(2),
            "a match today is still the next"
        );
        // Round 3 is against the dropped team: it will not be played.
        assert_eq!(next(&a, date(2026, 11, 5)).map(|f| f.round), Some(4));
        assert_eq!(next(&a, date(2026, 11, 17)), None);
        let d = fixtures(&c, &s, None, Some(&TeamId("d".into())));
        assert_eq!(
            next(&d, date(2026, 11, 1)),
            None,
            "a dropped team plays no more"
        );
    }

    #[test]
    fn a_calendar_events_sequence_rises_with_each_move_and_its_cancellation() {
        assert_eq!(sequence(0, false), 0);
        assert_eq!(sequence(2, false), 2);
        assert_eq!(sequence(2, true), 3);
        assert_eq!(sequence(u32::MAX, true), u32::MAX);
    }
}
