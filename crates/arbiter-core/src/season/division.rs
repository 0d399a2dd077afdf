//! A division set up for a season (GT-O1): its teams, each for a school, drawn into a round
//! robin by the Berger tables (AS-19) and placed on the season's match days, never on a closure
//! (GT-M2). For the next season a team's roster comes over from this one's with each player's
//! rating as the season rolls over (GT-R1, GT-R2, GT-R3).
//!
//! Teams the file does not place are numbered in its order, or by lot from the draw's seed.

use std::collections::{HashMap, HashSet};

use crate::pairing::schedule::{self, Cycles, Spacing};
use crate::rating::rollover::NextSeason;
use crate::record::calendar::SchoolCalendar;
use crate::record::model::{Competition, Player, Team, TeamId};
use crate::record::text;
use crate::rules::ruleset::Ruleset;
use crate::teams::roster::LineProblem;

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
    /// The number in the Berger tables the officer places the team at (AS-19: the host, or
    /// the seeds, where the arbiter chooses); `None`: the file's order, or the lot's.
    pub number: Option<u32>,
    /// GT-O2: the line says its school is new to the league (each school pays its own entry
    /// fee), so a school not known is added rather than refused as a misspelling.
    pub new_school: bool,
}

/// How far apart two schools' names are, letter case, spaces and punctuation aside: the edits
/// (a letter added, dropped or changed) that turn one into the other.
fn edits_apart(a: &str, b: &str) -> usize {
    let plain = |s: &str| -> Vec<char> {
        s.chars()
            .filter(|c| c.is_alphanumeric())
            .flat_map(char::to_lowercase)
            .collect()
    };
    let (a, b) = (plain(a), plain(b));
    let mut before: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut row = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let change = before[j] + usize::from(ca != cb);
            row.push(change.min(before[j + 1] + 1).min(row[j] + 1));
        }
        before = row;
    }
    before[b.len()]
}

/// GT-O1, GT-O2: each team's school is one the league knows (`known`), written as the league
/// writes it when only letter case, spaces or punctuation differ, or a new one the officer says
/// is new: on its line, or for every school of the file (`all_new`: a league's first division).
/// A school close to a known one is new only when its line says so: otherwise it is refused at
/// its line with the school it is close to, since a misspelling would add a school with its own
/// entry fee. Any other school not known is refused unless said to be new.
pub fn schools(entries: &mut [TeamEntry], known: &[String], all_new: bool) -> Vec<LineProblem> {
    let mut problems = Vec::new();
    for e in entries.iter_mut() {
        let nearest = known
            .iter()
            .map(|k| (edits_apart(&e.school, k), k))
            .min_by_key(|(d, _)| *d);
        match nearest {
            Some((0, k)) => {
                // A team named for its school takes the school's name as the league writes it.
                if e.name == e.school {
                    e.name.clone_from(k);
                }
                e.school.clone_from(k);
            }
            _ if e.new_school => {}
            nearest => {
                let close = nearest.filter(|(d, k)| *d <= 1 + k.chars().count() / 10);
                if all_new && close.is_none() {
                    continue;
                }
                let guess = close
                    .map(|(_, k)| format!("; did you mean {k}?"))
                    .unwrap_or_else(|| ".".into());
                problems.push(LineProblem {
                    line: e.line,
                    column: None,
                    message: format!(
                        "no school is called “{}”{guess} To add a new school, write yes in the line's new_school column{}: each school pays its own entry fee (GT-O2)",
                        e.school,
                        if close.is_some() {
                            ""
                        } else {
                            ", or say that the file's unknown schools are new"
                        }
                    ),
                });
            }
        }
    }
    problems
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
    /// The seed of the lot that numbers the teams not placed by the officer (AS-19; drawn by
    /// `lot`, so the same seed numbers them the same); `None`: in the file's order.
    pub lot: Option<u64>,
}

/// The division: its teams numbered in the Berger tables (AS-19): each at the number the
/// officer placed it at, the others in the order given or the lot's, and every round of its
/// round robin on its day. Every problem with the teams is given at its line; a schedule that
/// cannot be placed is given at line 1.
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
        teams.push((
            e.number,
            e.line,
            Team {
                id: TeamId(unique_id(&e.name, &mut ids)),
                name: e.name.clone(),
                school: Some(e.school.clone()),
                players: Vec::new(),
            },
        ));
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
    let teams = numbered(teams, how.lot)?;
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

/// The teams in the order of their Berger numbers (AS-19): those the officer placed at their
/// numbers, the rest in the free ones in the order given, or in the lot's order from `lot`.
/// A number outside 1..=n, or given twice, is refused at its line.
fn numbered(
    teams: Vec<(Option<u32>, u64, Team)>,
    lot: Option<u64>,
) -> Result<Vec<Team>, Vec<LineProblem>> {
    let n = teams.len();
    let mut slots: Vec<Option<Team>> = vec![None; n];
    let mut placed_on: HashMap<u32, u64> = HashMap::new();
    let mut problems = Vec::new();
    let mut rest = Vec::new();
    for (number, line, team) in teams {
        let Some(k) = number else {
            rest.push(team);
            continue;
        };
        let problem = |message: String| LineProblem {
            line,
            column: Some("number".into()),
            message,
        };
        let index = usize::try_from(k).ok().filter(|&i| (1..=n).contains(&i));
        match (index, placed_on.insert(k, line)) {
            (None, _) => problems.push(problem(format!(
                "{} is placed at number {k}, and the Berger tables of {n} teams number them 1 to {n} (AS-19)",
                team.name
            ))),
            (Some(_), Some(first)) => problems.push(problem(format!(
                "number {k} is given on line {first} too; place each team at its own number (AS-19)"
            ))),
            (Some(i), None) => slots[i - 1] = Some(team),
        }
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    if let Some(seed) = lot {
        crate::pairing::lot::Lot::new(seed).shuffle(&mut rest);
    }
    let mut rest = rest.into_iter();
    Ok(slots
        .into_iter()
        .filter_map(|slot| slot.or_else(|| rest.next()))
        .collect())
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
    use crate::record::calendar::Closure;
    use crate::record::model::{Pairing, PlayerId};

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
            number: None,
            new_school: false,
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
            lot: None,
        }
    }

    fn astc_field() -> Vec<TeamEntry> {
        ["SA", "VIC", "NSW", "QLD", "WA", "ACT"]
            .iter()
            .zip(2..)
            .map(|(state, line)| entry(line, &format!("{state} school"), state))
            .collect()
    }

    fn names(c: &Competition) -> Vec<&str> {
        c.teams.iter().map(|t| t.name.as_str()).collect()
    }

    /// GT-O1: a season's division holds the teams the officers place in it, each of a school,
    /// and one school may enter several teams in one division (AS-4 forbids it at an event).
    #[test]
    fn gt_o1_a_division_holds_teams_of_schools_and_a_school_may_enter_several() {
        let cal = calendar();
        let entries = [
            entry(2, "St. John's Jesuit", "St. John's A"),
            entry(3, "St. John's Jesuit", "St. John's B"),
            entry(4, "Start High School", "Start"),
            entry(5, "Clay High School", "Clay"),
        ];
        let metro = draw(
            "Metro",
            &Ruleset::preset("gthscl").unwrap(),
            &entries,
            how(&cal),
        )
        .unwrap();
        assert_eq!(
            names(&metro),
            ["St. John's A", "St. John's B", "Start", "Clay"]
        );
        let schools: Vec<Option<&str>> = metro.teams.iter().map(|t| t.school.as_deref()).collect();
        assert_eq!(schools[0], Some("St. John's Jesuit"));
        assert_eq!(schools[0], schools[1]);
        let refused = draw(
            "Open",
            &Ruleset::preset("astc").unwrap(),
            &entries,
            how(&cal),
        )
        .unwrap_err();
        assert!(
            refused
                .iter()
                .any(|p| p.line == 3 && p.message.contains("AS-4")),
            "{refused:?}"
        );
    }

    /// AS-19: the arbiter places the host at 1 and the top seed at 6; the others take the
    /// free numbers in the file's order, or by lot: the same seed numbers them the same, and
    /// another seed otherwise.
    #[test]
    fn as_19_the_arbiter_places_the_host_and_seeds_and_the_lot_numbers_the_rest() {
        let rules = Ruleset::preset("astc").unwrap();
        let cal = calendar();
        let mut field = astc_field();
        field[0].number = Some(1);
        field[1].number = Some(6);
        let single = |lot| Draw {
            cycles: Cycles::Single,
            spacing: Spacing::Packed,
            lot,
            ..how(&cal)
        };
        let in_order = draw("Open", &rules, &field, single(None)).unwrap();
        assert_eq!(names(&in_order), ["SA", "NSW", "QLD", "WA", "ACT", "VIC"]);
        // Round 1 of the Berger table for 6: 1-6, 2-5, 3-4.
        let Pairing::Match(m) = &in_order.rounds[0].pairings[0] else {
            panic!("round 1 starts with a match")
        };
        assert_eq!((m.home.0.as_str(), m.away.0.as_str()), ("sa", "vic"));

        let by_lot = |seed| draw("Open", &rules, &field, single(Some(seed))).unwrap();
        let drawn = by_lot(7);
        assert_eq!(names(&drawn)[0], "SA");
        assert_eq!(names(&drawn)[5], "VIC");
        assert_eq!(
            names(&drawn),
            names(&by_lot(7)),
            "the same seed, the same lot"
        );
        assert!(
            (0..20).any(|seed| names(&by_lot(seed)) != names(&drawn)),
            "other seeds draw other numbers"
        );
    }

    /// AS-19: a number outside the table or given twice is refused at its line.
    #[test]
    fn as_19_a_number_outside_the_table_or_twice_is_refused() {
        let rules = Ruleset::preset("astc").unwrap();
        let cal = calendar();
        let mut field = astc_field();
        field[0].number = Some(7);
        field[1].number = Some(2);
        field[2].number = Some(2);
        let found = draw("Open", &rules, &field, how(&cal)).unwrap_err();
        let said: Vec<String> = found.iter().map(ToString::to_string).collect();
        assert_eq!(found.len(), 2, "{said:?}");
        assert_eq!((found[0].line, found[1].line), (2, 4));
        assert!(said[0].contains("number them 1 to 6 (AS-19)"), "{said:?}");
        assert!(
            said[1].contains("number 2 is given on line 3 too"),
            "{said:?}"
        );
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

    /// GT-O2: a misspelt school is refused with the school it is close to, a new one is added
    /// only when its line says so, and a known one in other letters is the league's.
    #[test]
    fn gt_o2_a_school_not_known_is_refused_unless_its_line_says_it_is_new() {
        let known = vec![
            "St. Ursula Academy".to_string(),
            "Whitmer High School".into(),
        ];
        let mut entries = vec![
            entry(2, "St Ursula Acadamy", "Ursula"),
            entry(3, "whitmer high school", "Whitmer"),
            entry(4, "Clay High School", "Clay"),
            TeamEntry {
                new_school: true,
                ..entry(5, "Genoa Area High School", "Genoa")
            },
        ];
        let said = |entries: &mut [TeamEntry], all_new: bool| -> Vec<String> {
            schools(entries, &known, all_new)
                .iter()
                .map(ToString::to_string)
                .collect()
        };
        // Every school of the file said to be new: the misspelt one is still refused.
        let mut first_division = entries.clone();
        assert_eq!(
            said(&mut first_division, true),
            [
                "line 2: no school is called “St Ursula Acadamy”; did you mean St. Ursula Academy? To add a new school, write yes in the line's new_school column: each school pays its own entry fee (GT-O2)"
            ]
        );
        let problems = said(&mut entries, false);
        assert_eq!(
            problems,
            [
                "line 2: no school is called “St Ursula Acadamy”; did you mean St. Ursula Academy? To add a new school, write yes in the line's new_school column: each school pays its own entry fee (GT-O2)",
                "line 4: no school is called “Clay High School”. To add a new school, write yes in the line's new_school column, or say that the file's unknown schools are new: each school pays its own entry fee (GT-O2)",
            ]
        );
        assert_eq!(entries[1].school, "Whitmer High School");
        assert_eq!(entries[1].name, "Whitmer", "a name of its own stays");
        assert_eq!(entries[3].school, "Genoa Area High School");
    }
}
