//! A division's teams as a CSV file (issue 12, part 1; GT-O1): one team a line, under a header
//! naming the columns: `school` (required), `team` (the team's name; by default the school's,
//! and needed when a school enters several teams) and `number` (AS-19: where the officer places
//! the team in the Berger tables, such as the host at 1; empty for the file's order or the lot)
//! and `new_school` (yes on the line of a school the league does not know yet: a new school pays
//! its own entry fee, GT-O2, so a misspelt one is refused with the school it is close to). Read
//! with every mistake at its line, for core's `division::draw`, which checks the teams against
//! the ruleset, and `division::schools`, which checks their schools against the league's.

use arbiter_core::record::text::NAME_MAX_CHARS;
use arbiter_core::season::division::TeamEntry;
use arbiter_core::teams::roster::{FileRows, LineProblem};

use crate::sheet;

/// Every team of the file with a school, in its order, for core's `division::draw`, and every
/// mistake in it, each at the file's line.
pub fn read(text: &str) -> FileRows<TeamEntry> {
    let sheet = sheet::read(
        text,
        ("a division's teams", "team"),
        &["school", "team", "number", "new_school"],
        &["school"],
    );
    let mut problems = sheet.problems;
    let mut teams = Vec::with_capacity(sheet.rows.len());
    for row in &sheet.rows {
        let Some(school) = row.cell("school") else {
            problems.push(LineProblem {
                line: row.line,
                column: Some("school".into()),
                message: "the team's school is missing; every team plays for a school (GT-O1)"
                    .into(),
            });
            continue;
        };
        let name = row.cell("team").unwrap_or_else(|| school.clone());
        for (column, text) in [("school", &school), ("team", &name)] {
            if text.chars().count() > NAME_MAX_CHARS {
                problems.push(LineProblem {
                    line: row.line,
                    column: Some(column.into()),
                    message: format!("the name is longer than {NAME_MAX_CHARS} characters"),
                });
            }
        }
        // AS-19: the number the officer places the team at in the Berger tables, if any.
        let number = match row.cell("number") {
            None => None,
            Some(text) => match text.parse::<u32>() {
                Ok(k) if k >= 1 => Some(k),
                _ => {
                    problems.push(LineProblem {
                        line: row.line,
                        column: Some("number".into()),
                        message: format!(
                            "“{text}” is not a number in the Berger tables; give 1, 2, 3 … or leave it empty for the lot (AS-19)"
                        ),
                    });
                    None
                }
            },
        };
        // GT-O2: a school the league does not know is added, with its own fee, only when its
        // line says so.
        let new_school = match row.cell("new_school").map(|t| t.to_lowercase()) {
            None => false,
            Some(t) if ["yes", "y", "true", "1"].contains(&t.as_str()) => true,
            Some(t) if ["no", "n", "false", "0"].contains(&t.as_str()) => false,
            Some(t) => {
                problems.push(LineProblem {
                    line: row.line,
                    column: Some("new_school".into()),
                    message: format!(
                        "“{t}” is neither yes nor no; write yes when the line adds a school the league does not know yet (GT-O2)"
                    ),
                });
                false
            }
        };
        teams.push(TeamEntry {
            line: row.line,
            school,
            name,
            number,
            new_school,
        });
    }
    problems.sort_by_key(|p| p.line);
    FileRows {
        rows: teams,
        problems,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_team_is_named_for_its_school_unless_the_file_names_it() {
        let teams = read(
            "School,Team\nWhitmer High School,\nSt. John's Jesuit High School,St. John's Jesuit A\n",
        );
        assert_eq!(teams.problems, []);
        let teams = teams.rows;
        assert_eq!(teams.len(), 2);
        assert_eq!(
            (teams[0].line, teams[0].name.as_str()),
            (2, "Whitmer High School")
        );
        assert_eq!(teams[1].name, "St. John's Jesuit A");
    }

    #[test]
    fn every_mistake_is_reported_at_its_line() {
        let problems = read("team,colour\nWhitmer,white\n").problems;
        let said: Vec<String> = problems.iter().map(ToString::to_string).collect();
        assert_eq!(
            said,
            [
                "line 1, colour: `colour` is not a column of a division's teams; the columns are school, team, number, new_school",
                "line 1: the header has no `school` column; a division's teams names each team's school",
                "line 2, school: the team's school is missing; every team plays for a school (GT-O1)",
            ]
        );
    }
}
