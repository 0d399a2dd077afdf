//! Players added to a competition's rosters (issue 12, part 1): which team each joins, their
//! id, and whether they may be ranked (GT-R7), with every problem named at its line before
//! anything is written.

use jiff::civil::Date;

use crate::record::model::{Competition, Player, PlayerId, RatingRecord, TeamId};
use crate::rules::ruleset::Ruleset;

/// A player as an officer lists them (a line of a roster file, a form).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct NewPlayer {
    /// The line of the file (or the form's row), 1-based; messages cite it.
    pub line: u64,
    /// The player's name, as score sheets print it.
    pub name: String,
    /// The school they are a student of (GT-R7), and play for unless GT-R6 applies.
    pub school: String,
    /// The team's id: when the school has several teams in the competition, or, under GT-R6,
    /// the closest team of another school when the player's own has none.
    pub team: Option<String>,
    /// The school grade, 1-12 (GT-R7).
    pub grade: Option<u8>,
    /// The date of birth (GT-R7's 14; FIDE B.02's K).
    pub birth_date: Option<Date>,
    /// The league rating; `None` for a new player (1200N, GT-R3).
    pub rating: Option<u32>,
    /// GT-R3: a provisional 1200N rating.
    pub provisional: bool,
    /// The player's id on the federation's published rating list (issue 34).
    pub federation_id: Option<String>,
}

/// The highest rating a roster may give: beyond it the figure is a typing mistake.
pub const RATING_MAX: u32 = 3500;

/// A rating as an officer types it: a whole number up to [`RATING_MAX`], or nothing for a new
/// player (GT-R3's 1200N); the sentence when it is neither.
pub fn read_rating(text: &str) -> Result<Option<u32>, String> {
    match text.trim() {
        "" => Ok(None),
        t => match t.parse::<u32>() {
            Ok(n) if n <= RATING_MAX => Ok(Some(n)),
            _ => Err(format!(
                "“{t}” is not a rating; write a whole number such as 1450, or leave it empty for a new player (1200N, GT-R3)"
            )),
        },
    }
}

/// GT-R3: the rating a roster entry holds: a player with none starts at the league's 1200,
/// provisional (1200N).
pub fn entry_rating(rating: Option<u32>, provisional: bool) -> (Option<u32>, bool) {
    match rating {
        Some(r) => (Some(r), provisional),
        None => (Some(1200), true),
    }
}

/// A problem with one line, with its column when it is in one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineProblem {
    /// 1-based; 1 is a file's header.
    pub line: u64,
    /// The column's name, when the problem is in one cell.
    pub column: Option<String>,
    /// What is wrong and what to do instead.
    pub message: String,
}

impl std::fmt::Display for LineProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.column {
            Some(c) => write!(f, "line {}, {c}: {}", self.line, self.message),
            None => write!(f, "line {}: {}", self.line, self.message),
        }
    }
}

/// What a person's file gave: every row that could be read, and every mistake in it, each at
/// the file's own line (the header is line 1), so that the rules judge the rows as well and every
/// mistake is listed at once.
#[derive(Debug, Clone, PartialEq)]
pub struct FileRows<T> {
    /// The rows read, in the file's order; a row with a mistake in one cell is kept when the
    /// rules can still judge it.
    pub rows: Vec<T>,
    /// Every mistake of the file, in the order of its lines.
    pub problems: Vec<LineProblem>,
}

impl<T> FileRows<T> {
    /// Every mistake: the file's, then what the rules found in its rows (`judged`), in the order
    /// of the file's lines.
    pub fn with(&self, judged: Vec<LineProblem>) -> Vec<LineProblem> {
        let mut all = self.problems.clone();
        all.extend(judged);
        all.sort_by_key(|p| p.line);
        all
    }
}

/// One player to add: the team, the player as the roster will hold them, and what the preview
/// says of them (GT-R7).
#[derive(Debug, Clone, PartialEq)]
pub struct Addition {
    /// The line it came from.
    pub line: u64,
    /// The team the player joins.
    pub team: TeamId,
    /// The roster entry, with a new id.
    pub player: Player,
    /// What the preview says of the player (GT-R7), when anything.
    pub note: Option<String>,
}

impl Addition {
    /// The preview's line: `line 2: Ana Diaz (1200N) joins Start Spartans as start-4`, with
    /// GT-R7's note when there is one.
    pub fn summary(&self, team_name: &str) -> String {
        let p = &self.player;
        let rating = match p.rating {
            Some(r) => crate::record::model::rating_text(r, p.provisional),
            None => "unrated".into(),
        };
        let note = self
            .note
            .as_deref()
            .map(|n| format!(" ({n})"))
            .unwrap_or_default();
        format!(
            "line {}: {} ({rating}) joins {team_name} as {}{note}",
            self.line, p.name, p.id
        )
    }
}

/// The day GT-R7's age is read on: the season's first day, else the competition's first match
/// day; `None` when neither is known.
pub fn eligibility_day(season_starts: Option<Date>, c: &Competition) -> Option<Date> {
    season_starts.or_else(|| c.rounds.iter().filter_map(|r| r.date).min())
}

/// GT-R7: whether a player may be ranked: a high-school student (grade 9 to 12) or 14 or older
/// on `on`. `None` when neither the grade nor the birth date says.
pub fn may_be_ranked(grade: Option<u8>, birth_date: Option<Date>, on: Date) -> Option<bool> {
    let by_age = birth_date.map(|b| age_on(b, on) >= 14);
    let by_grade = grade.map(|g| g >= 9);
    match (by_grade, by_age) {
        (Some(true), _) | (_, Some(true)) => Some(true),
        (Some(false), _) | (_, Some(false)) => Some(false),
        (None, None) => None,
    }
}

fn age_on(birth: Date, on: Date) -> i16 {
    let mut age = on.year() - birth.year();
    if (on.month(), on.day()) < (birth.month(), birth.day()) {
        age -= 1;
    }
    age
}

/// Each new player's team and roster entry, or every problem: a school with no team in the
/// competition, a school of several teams and no team named, a team of another school that
/// GT-R6 does not allow, a name already on the team's roster, a roster beyond `roster_max`
/// (AS-9). `on` is the day eligibility is read on (GT-R7: the season's start);
/// `season_schools` the schools with a team in any competition of the season (GT-R6).
pub fn plan(
    c: &Competition,
    rules: &Ruleset,
    rows: &[NewPlayer],
    on: Date,
    season_schools: &[String],
) -> Result<Vec<Addition>, Vec<LineProblem>> {
    let mut problems = Vec::new();
    let mut out: Vec<Addition> = Vec::new();
    let mut taken: std::collections::HashSet<String> = c
        .teams
        .iter()
        .flat_map(|t| &t.players)
        .map(|p| p.id.0.clone())
        .collect();
    let same = |a: &str, b: &str| a.trim().eq_ignore_ascii_case(b.trim());
    for row in rows {
        let problem = |column: &str, message: String| LineProblem {
            line: row.line,
            column: Some(column.into()),
            message,
        };
        let of_school: Vec<_> = c
            .teams
            .iter()
            .filter(|t| t.school.as_deref().is_some_and(|s| same(s, &row.school)))
            .collect();
        let ranked = may_be_ranked(row.grade, row.birth_date, on);
        let mut joins_nearest = false;
        let team = match (&row.team, of_school.as_slice()) {
            // The team as the division shows its name (`St. John's Jesuit A`), or its id.
            (Some(id), _) => match c
                .teams
                .iter()
                .find(|t| same(&t.name, id) || same(&t.id.0, id))
            {
                Some(t) if t.school.as_deref().is_some_and(|s| same(s, &row.school)) => t,
                Some(t) => {
                    let has_a_team = of_school.first().map(|t| t.name.as_str()).or_else(|| {
                        season_schools
                            .iter()
                            .find(|s| same(s, &row.school))
                            .map(|_| "a team in another division")
                    });
                    match (has_a_team, ranked) {
                        (None, Some(true)) => {
                            joins_nearest = true;
                            t
                        }
                        (Some(own), _) => {
                            problems.push(problem(
                                "team",
                                format!(
                                    "{} is a team of {}, not of {}; {} has {own}, so the player joins it (GT-R6 lets a player join another school's team only when their own school has none)",
                                    t.name,
                                    t.school.as_deref().unwrap_or("no school"),
                                    row.school,
                                    row.school
                                ),
                            ));
                            continue;
                        }
                        (None, _) => {
                            problems.push(problem(
                                "team",
                                format!(
                                    "{} is a team of {}, not of {}; GT-R6 lets a student of a school with no team join the closest team only as a high-school student or at 14 or older{}",
                                    t.name,
                                    t.school.as_deref().unwrap_or("no school"),
                                    row.school,
                                    if ranked.is_none() {
                                        "; give the player's grade or birth date"
                                    } else {
                                        ""
                                    }
                                ),
                            ));
                            continue;
                        }
                    }
                }
                None => {
                    let names: Vec<&str> = of_school.iter().map(|t| t.name.as_str()).collect();
                    problems.push(problem(
                        "team",
                        format!(
                            "{} has no team named “{id}”{}",
                            c.name,
                            if names.is_empty() {
                                String::new()
                            } else {
                                format!("; the teams of {} are {}", row.school, names.join(", "))
                            }
                        ),
                    ));
                    continue;
                }
            },
            (None, [one]) => one,
            (None, []) => {
                let schools: Vec<&str> =
                    c.teams.iter().filter_map(|t| t.school.as_deref()).collect();
                problems.push(problem(
                    "school",
                    format!(
                        "{} has no team in {}; the schools are {} (under GT-R6 a student of a school with no team joins the closest team: name it in a `team` column)",
                        row.school,
                        c.name,
                        schools.join(", ")
                    ),
                ));
                continue;
            }
            (None, several) => {
                let names: Vec<&str> = several.iter().map(|t| t.name.as_str()).collect();
                problems.push(problem(
                    "team",
                    format!(
                        "{} has {} teams ({}); name the player's team in a `team` column, as the division shows it",
                        row.school,
                        several.len(),
                        names.join(", ")
                    ),
                ));
                continue;
            }
        };
        if team.players.iter().any(|p| same(&p.name, &row.name)) {
            problems.push(problem(
                "name",
                format!(
                    "{} is on {}'s roster already; change a player on the roster's page instead",
                    row.name, team.name
                ),
            ));
            continue;
        }
        let joining = out.iter().filter(|a| a.team == team.id).count();
        if let Some(max) = rules.roster_max
            && team.players.len() + joining + 1 > max as usize
        {
            problems.push(problem(
                "team",
                format!(
                    "{} would have {} players; a roster has at most {max}{}",
                    team.name,
                    team.players.len() + joining + 1,
                    rules
                        .cite("roster_max")
                        .map_or(String::new(), |id| format!(" ({id})"))
                ),
            ));
            continue;
        }
        let mut n = team.players.len() + joining + 1;
        let id = loop {
            let id = format!("{}-{n}", team.id);
            if taken.insert(id.clone()) {
                break id;
            }
            n += 1;
        };
        let (rating, provisional) = entry_rating(row.rating, row.provisional);
        out.push(Addition {
            line: row.line,
            team: team.id.clone(),
            note: match ranked {
                _ if joins_nearest => Some(format!(
                    "GT-R6: a student of {}, whose school has no team, joins the closest team",
                    row.school.trim()
                )),
                Some(false) => Some(
                    "GT-R7: not a high-school student nor 14 or older, so plays unranked games only"
                        .into(),
                ),
                None => Some(
                    "GT-R7: neither a grade nor a birth date says whether the player may be ranked; ranked until one does"
                        .into(),
                ),
                Some(true) => None,
            },
            player: Player {
                id: PlayerId(id),
                name: row.name.trim().to_string(),
                rating,
                provisional,
                record: RatingRecord {
                    birth_date: row.birth_date,
                    federation_id: row.federation_id.clone(),
                    ..RatingRecord::default()
                },
                unranked: ranked == Some(false),
                school: joins_nearest.then(|| row.school.trim().to_string()),
                withdrawn: None,
                // A person of their own until an officer links them (RULES.md, "One player,
                // one person"); the store keeps the identity.
                person: None,
            },
        });
    }
    if problems.is_empty() {
        Ok(out)
    } else {
        Err(problems)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::model::Team;
    use jiff::civil::date;

    fn competition() -> Competition {
        let team = |id: &str, school: &str, n: usize| Team {
            id: TeamId(id.into()),
            name: id.to_uppercase(),
            school: Some(school.into()),
            players: (1..=n)
                .map(|i| Player {
                    id: PlayerId(format!("{id}-{i}")),
                    name: format!("{id} player {i}"),
                    rating: Some(1500),
                    ..Player::default()
                })
                .collect(),
        };
        Competition {
            name: "Metro".into(),
            teams: vec![
                team("sjj-a", "St. John's", 4),
                team("sjj-b", "St. John's", 4),
                team("start", "Start High School", 3),
            ],
            rounds: Vec::new(),
        }
    }

    fn row(line: u64, name: &str, school: &str) -> NewPlayer {
        NewPlayer {
            line,
            name: name.into(),
            school: school.into(),
            grade: Some(10),
            provisional: true,
            ..NewPlayer::default()
        }
    }

    #[test]
    fn a_team_is_named_as_the_division_shows_it_or_by_its_id() {
        let rules = Ruleset::preset("gthscl").unwrap();
        let mut c = competition();
        c.teams[1].name = "St. John's Jesuit B".into();
        let mut by_name = row(2, "Ana Ruiz", "St. John's");
        by_name.team = Some("st. john's jesuit b".into());
        let mut by_id = row(3, "Ben Cho", "St. John's");
        by_id.team = Some("sjj-a".into());
        let plan = plan(&c, &rules, &[by_name, by_id], date(2026, 10, 5), &[]).unwrap();
        assert_eq!(plan[0].team, TeamId("sjj-b".into()));
        assert_eq!(plan[1].team, TeamId("sjj-a".into()));
        // A name the division does not show is answered with the school's team names.
        let mut typo = row(2, "Cy Lee", "St. John's");
        typo.team = Some("St. John's Jesuit C".into());
        let said = super::plan(&c, &rules, &[typo], date(2026, 10, 5), &[]).unwrap_err();
        assert_eq!(
            said[0].to_string(),
            "line 2, team: Metro has no team named “St. John's Jesuit C”; the teams of St. John's are SJJ-A, St. John's Jesuit B"
        );
    }

    #[test]
    fn gt_r7_a_high_school_student_or_14_is_ranked() {
        let on = date(2026, 10, 5);
        assert_eq!(may_be_ranked(Some(9), None, on), Some(true));
        assert_eq!(
            may_be_ranked(Some(8), Some(date(2012, 10, 6)), on),
            Some(false)
        );
        assert_eq!(
            may_be_ranked(Some(8), Some(date(2012, 10, 5)), on),
            Some(true)
        );
        assert_eq!(may_be_ranked(None, None, on), None);
    }

    #[test]
    fn each_player_joins_their_schools_team_with_a_new_id() {
        let rules = Ruleset::preset("gthscl").unwrap();
        let mut young = row(3, "Kit Young", "start high school");
        young.grade = Some(8);
        young.birth_date = Some(date(2013, 1, 1));
        let plan = plan(
            &competition(),
            &rules,
            &[row(2, "Ana Ruiz", "Start High School"), young],
            date(2026, 10, 5),
            &[],
        )
        .unwrap();
        assert_eq!(plan[0].team, TeamId("start".into()));
        assert_eq!(plan[0].player.id, PlayerId("start-4".into()));
        assert_eq!(
            (plan[0].player.rating, plan[0].player.provisional),
            (Some(1200), true)
        );
        assert_eq!(plan[1].player.id, PlayerId("start-5".into()));
        assert!(plan[1].player.unranked);
        assert!(plan[1].note.as_deref().unwrap().starts_with("GT-R7"));
    }

    #[test]
    fn every_problem_is_named_at_its_line() {
        let rules = Ruleset::preset("astc").unwrap();
        let mut wrong_team = row(4, "Cy Lee", "Start High School");
        wrong_team.team = Some("sjj-a".into());
        let problems = plan(
            &competition(),
            &rules,
            &[
                row(2, "Ana Ruiz", "Nowhere High"),
                row(3, "Ben Cho", "St. John's"),
                wrong_team,
                row(5, "start player 1", "Start High School"),
            ],
            date(2026, 10, 5),
            &[],
        )
        .unwrap_err();
        let said: Vec<String> = problems.iter().map(ToString::to_string).collect();
        assert_eq!(said.len(), 4, "{said:#?}");
        assert!(
            said[0].starts_with("line 2, school: Nowhere High has no team in Metro"),
            "{said:#?}"
        );
        assert!(
            said[1].contains("St. John's has 2 teams (SJJ-A, SJJ-B)"),
            "{said:#?}"
        );
        assert!(
            said[2].contains("SJJ-A is a team of St. John's, not of Start High School"),
            "{said:#?}"
        );
        assert!(said[3].contains("on START's roster already"), "{said:#?}");
    }

    #[test]
    fn gt_r6_a_student_of_a_school_with_no_team_joins_the_closest_one() {
        let rules = Ruleset::preset("gthscl").unwrap();
        let mut dee = row(2, "Dee Park", "Rossford High School");
        dee.team = Some("start".into());
        let plan = plan(&competition(), &rules, &[dee], date(2026, 10, 5), &[]).unwrap();
        assert_eq!(plan[0].team, TeamId("start".into()));
        assert_eq!(
            plan[0].player.school.as_deref(),
            Some("Rossford High School")
        );
        assert!(
            plan[0].note.as_deref().unwrap().starts_with("GT-R6"),
            "{:?}",
            plan[0].note
        );
    }

    #[test]
    fn gt_r6_refuses_a_player_whose_school_has_a_team_or_who_is_too_young() {
        let rules = Ruleset::preset("gthscl").unwrap();
        let mut elsewhere = row(2, "Dee Park", "Rossford High School");
        elsewhere.team = Some("start".into());
        let mut young = row(3, "Kit Young", "Lake Middle School");
        young.team = Some("start".into());
        young.grade = Some(7);
        young.birth_date = Some(date(2013, 3, 1));
        let mut unknown = row(4, "Lu Moss", "Lake Middle School");
        unknown.team = Some("start".into());
        unknown.grade = None;
        let problems = plan(
            &competition(),
            &rules,
            &[elsewhere, young, unknown],
            date(2026, 10, 5),
            &["Rossford High School".into()],
        )
        .unwrap_err();
        let said: Vec<String> = problems.iter().map(ToString::to_string).collect();
        assert_eq!(said.len(), 3, "{said:#?}");
        assert!(
            said[0].starts_with("line 2, team: START is a team of Start High School")
                && said[0].contains("Rossford High School has a team in another division")
                && said[0].contains("GT-R6"),
            "{said:#?}"
        );
        assert!(
            said[1].starts_with("line 3, team:")
                && said[1].contains("GT-R6")
                && said[1].contains("14 or older")
                && !said[1].contains("give the player's grade"),
            "{said:#?}"
        );
        assert!(
            said[2].contains("give the player's grade or birth date"),
            "{said:#?}"
        );
    }
}
