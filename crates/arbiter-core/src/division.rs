//! A division set up for a season (GT-O1): its teams, each for a school, drawn into a round
//! robin by the Berger tables (AS-19) and placed on the season's match days, never on a closure
//! (GT-M2). For the next season a team's roster comes over from this one's with each player's
//! rating as the season rolls over (GT-R1, GT-R2, GT-R3).

use std::collections::{HashMap, HashSet};

use crate::calendar::SchoolCalendar;
use crate::model::{Competition, Player, Team, TeamId};
use crate::rating::rollover::NextSeason;
use crate::roster::LineProblem;
use crate::ruleset::Ruleset;
use crate::schedule::{self, Cycles, Spacing};
use crate::text;

/// A team to enter: the line of the file it came from, its school, and its name (the school's,
/// when the file gives none).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TeamEntry {
    /// 1-based; 1 is a file's header.
    pub line: u64,
    /// The school the team plays for (GT-O1).
    pub school: String,
    /// The team's name, as pairings and standings print it.
    pub name: String,
}

/// How the division is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Draw<'a> {
    /// Once or twice round: the GTHSCL plays home and away, a double round robin.
    pub cycles: Cycles,
    /// How the rounds spread over the season.
    pub spacing: Spacing,
    /// The season's school days and closures (GT-M2).
    pub calendar: &'a SchoolCalendar,
}

/// The division: its teams in the order given, numbered so in the Berger tables, and every
/// round of its round robin on its day. Every problem with the teams is given at its line;
/// a schedule that cannot be placed is given at line 1.
pub fn draw(
    name: &str,
    rules: &Ruleset,
    entries: &[TeamEntry],
    how: Draw<'_>,
) -> Result<Competition, Vec<LineProblem>> {
    let mut problems = Vec::new();
    let mut names: HashMap<String, u64> = HashMap::new();
    let mut schools: HashMap<&str, u64> = HashMap::new();
    let mut ids: HashSet<String> = HashSet::new();
    let mut teams = Vec::with_capacity(entries.len());
    for e in entries {
        let problem = |column: &str, message: String| LineProblem {
            line: e.line,
            column: Some(column.to_string()),
            message,
        };
        if e.name.trim().is_empty() || e.school.trim().is_empty() {
            let column = if e.school.trim().is_empty() {
                "school"
            } else {
                "team"
            };
            problems.push(problem(
                column,
                format!("the line names no {column}; give each team its school (and its name when the school enters several)"),
            ));
            continue;
        }
        if let Err(why) = text::check(text::TextKind::Name, "a team's name", &e.name) {
            problems.push(problem("team", why.to_string()));
            continue;
        }
        if let Some(first) = names.insert(e.name.to_lowercase(), e.line) {
            problems.push(problem(
                "team",
                format!(
                    "“{}” is named on line {first} too; give each team of the division its own name (“{} A”, “{} B”)",
                    e.name, e.school, e.school
                ),
            ));
            continue;
        }
        if let Some(first) = schools.insert(&e.school, e.line)
            && rules.lineup.one_team_per_school
        {
            problems.push(problem(
                "school",
                format!(
                    "{} enters a team on line {first} already; a school enters one team in a competition ({})",
                    e.school,
                    rules.cite("one_team_per_school").unwrap_or("AS-4")
                ),
            ));
            continue;
        }
        teams.push(Team {
            id: TeamId(unique_id(&e.name, &mut ids)),
            name: e.name.clone(),
            school: Some(e.school.clone()),
            players: Vec::new(),
        });
    }
    if entries.len() < 2 && problems.is_empty() {
        problems.push(LineProblem {
            line: 1,
            column: None,
            message: format!(
                "a division plays a round robin of at least 2 teams, and {} {} given; add its teams, one a line",
                entries.len(),
                if entries.len() == 1 { "was" } else { "were" }
            ),
        });
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    let at_line_1 = |e: schedule::ScheduleError| {
        vec![LineProblem {
            line: 1,
            column: None,
            message: e.to_string(),
        }]
    };
    let n = u32::try_from(teams.len()).unwrap_or(u32::MAX);
    let table = schedule::round_robin(n, how.cycles).map_err(at_line_1)?;
    let days =
        schedule::place(&table, how.calendar, &rules.match_days, how.spacing).map_err(at_line_1)?;
    let ids: Vec<TeamId> = teams.iter().map(|t| t.id.clone()).collect();
    let mut rounds = schedule::apply_to(&table, &ids).map_err(at_line_1)?;
    for (round, day) in rounds.iter_mut().zip(days) {
        round.date = Some(day);
    }
    Ok(Competition {
        name: name.to_string(),
        teams,
        rounds,
    })
}

/// A team id from its name: its slug, made unique in the division with `-2`, `-3`.
fn unique_id(name: &str, taken: &mut HashSet<String>) -> String {
    let base = text::slug(name).unwrap_or_else(|| "team".to_string());
    let mut id = base.clone();
    let mut k = 2;
    while !taken.insert(id.clone()) {
        id = format!("{base}-{k}");
        k += 1;
    }
    id
}

/// The roster a team brings into the next season: last season's team's players in their
/// order, each with the rating the rollover gives them (GT-R1, GT-R2; a provisional player
/// stays 1200N, GT-R3). A player `next` gives nothing for (no rated record) keeps their
/// rating as it stood. Their games stay in last season's records. A player withdrawn during
/// the season (moved away, left the school) is not carried; GT-R6's own school is.
pub fn carried_roster(
    previous: &Team,
    next: impl Fn(&Player) -> Option<NextSeason>,
) -> Vec<Player> {
    previous
        .players
        .iter()
        .filter(|p| p.withdrawn.is_none())
        .map(|p| {
            let mut carried = p.clone();
            if let Some(n) = next(p) {
                carried.rating = Some(n.rating);
                carried.provisional = n.provisional;
            }
            carried
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use jiff::civil::date;

    use super::*;
    use crate::calendar::Closure;
    use crate::model::{Pairing, PlayerId};

    fn calendar() -> SchoolCalendar {
        SchoolCalendar {
            starts_on: date(2026, 10, 5),
            ends_on: date(2027, 2, 24),
            closures: vec![Closure {
                from: date(2026, 12, 21),
                to: date(2027, 1, 1),
                reason: "Winter break".into(),
            }],
        }
    }

    fn entry(line: u64, school: &str, name: &str) -> TeamEntry {
        TeamEntry {
            line,
            school: school.into(),
            name: name.into(),
        }
    }

    fn how(c: &SchoolCalendar) -> Draw<'_> {
        Draw {
            cycles: Cycles::Double,
            spacing: Spacing::Even,
            calendar: c,
        }
    }

    /// GT-O1, GT-M2: a school may enter two teams; the double round robin falls on Mondays
    /// and Wednesdays of the season, none in the winter break.
    #[test]
    fn a_division_is_drawn_on_the_match_days() {
        let rules = Ruleset::preset("gthscl").unwrap();
        let cal = calendar();
        let teams = [
            entry(2, "Whitmer High School", "Whitmer"),
            entry(3, "St. John's Jesuit High School", "St. John's Jesuit A"),
            entry(4, "St. John's Jesuit High School", "St. John's Jesuit B"),
            entry(5, "Anthony Wayne High School", "Anthony Wayne"),
        ];
        let c = draw("Metro", &rules, &teams, how(&cal)).unwrap();
        assert_eq!(c.teams.len(), 4);
        assert_eq!(c.teams[1].id, TeamId("st-john-s-jesuit-a".into()));
        assert_eq!(c.rounds.len(), 6, "4 teams twice round");
        for r in &c.rounds {
            let day = r.date.unwrap();
            assert!(cal.is_school_day(day), "{day}");
            assert!(rules.match_days.contains(&day.weekday()), "{day}");
            assert_eq!(r.pairings.len(), 2);
            assert!(r.pairings.iter().all(|p| matches!(p, Pairing::Match(_))));
        }
    }

    /// AS-4: under `astc` a school enters one team; a name twice and an empty name are refused
    /// at their lines, all at once.
    #[test]
    fn every_problem_is_given_at_its_line() {
        let rules = Ruleset::preset("astc").unwrap();
        let cal = calendar();
        let teams = [
            entry(2, "Glenunga International High School", "South Australia"),
            entry(3, "Glenunga International High School", "South Australia B"),
            entry(4, "Melbourne High School", "south australia"),
            entry(5, "Perth Modern School", ""),
        ];
        let problems = draw("Secondary Open", &rules, &teams, how(&cal)).unwrap_err();
        let lines: Vec<String> = problems.iter().map(ToString::to_string).collect();
        assert_eq!(lines.len(), 3, "{lines:#?}");
        assert!(
            lines[0].starts_with("line 3, school:") && lines[0].contains("(AS-4)"),
            "{}",
            lines[0]
        );
        assert!(
            lines[1].starts_with("line 4, team:") && lines[1].contains("line 2 too"),
            "{}",
            lines[1]
        );
        assert!(lines[2].starts_with("line 5, team:"), "{}", lines[2]);
    }

    /// GT-M2: a schedule longer than the season's match days is refused with the sentence.
    #[test]
    fn a_season_too_short_is_refused() {
        let rules = Ruleset::preset("gthscl").unwrap();
        let short = SchoolCalendar {
            starts_on: date(2026, 10, 5),
            ends_on: date(2026, 10, 14),
            closures: Vec::new(),
        };
        let teams: Vec<TeamEntry> = (0..6)
            .map(|k| entry(k + 2, &format!("School {k}"), &format!("Team {k}")))
            .collect();
        let problems = draw("Lake", &rules, &teams, how(&short)).unwrap_err();
        assert_eq!(problems.len(), 1);
        assert!(problems[0].message.contains("GT-M2"), "{}", problems[0]);
        let one = draw("Lake", &rules, &teams[..1], how(&short)).unwrap_err();
        assert!(one[0].message.contains("at least 2 teams"), "{}", one[0]);
    }

    /// GT-R1, GT-R2, GT-R3: the roster comes over in its order with the rollover's ratings.
    #[test]
    fn a_roster_is_carried_with_the_rollover() {
        let team = Team {
            id: TeamId("whitmer".into()),
            name: "Whitmer".into(),
            school: Some("Whitmer High School".into()),
            players: vec![
                Player {
                    id: PlayerId("w1".into()),
                    name: "Ada Brooks".into(),
                    rating: Some(1430),
                    ..Player::default()
                },
                Player {
                    id: PlayerId("w2".into()),
                    name: "Ben Cole".into(),
                    rating: Some(1200),
                    provisional: true,
                    school: Some("Genoa Area High School".into()),
                    ..Player::default()
                },
                Player {
                    id: PlayerId("w3".into()),
                    name: "Cal Dorn".into(),
                    rating: Some(1380),
                    withdrawn: Some(date(2027, 1, 11)),
                    ..Player::default()
                },
            ],
        };
        let carried = carried_roster(&team, |p| {
            (p.id == PlayerId("w1".into())).then_some(NextSeason {
                rating: 1462,
                provisional: false,
                rule: "GT-R1",
            })
        });
        assert_eq!(carried[0].rating, Some(1462));
        assert!(!carried[0].provisional);
        assert_eq!(
            (carried[1].rating, carried[1].provisional),
            (Some(1200), true)
        );
        assert_eq!(carried[1].name, "Ben Cole");
        assert_eq!(carried[1].school.as_deref(), Some("Genoa Area High School"));
        assert_eq!(carried.len(), 2, "Cal Dorn withdrew during the season");
    }
}
