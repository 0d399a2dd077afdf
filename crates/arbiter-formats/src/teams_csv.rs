//! A division's teams as a CSV file (issue 12, part 1; GT-O1): one team a line, under a header
//! naming the columns: `school` (required), `team` (the team's name; by default the school's,
//! and needed when a school enters several teams) and `number` (AS-19: where the officer places
//! the team in the Berger tables, such as the host at 1; empty for the file's order or the lot). Read with every mistake at its line, for
//! core's `division::draw`, which checks the teams against the ruleset.

use arbiter_core::division::TeamEntry;
use arbiter_core::roster::LineProblem;
use arbiter_core::text::NAME_MAX_CHARS;

use crate::sheet;

/// Every team of the file, in its order, or every mistake in it.
pub fn read(text: &str) -> Result<Vec<TeamEntry>, Vec<LineProblem>> {
    let sheet = sheet::read(
        text,
        ("a division's teams", "team"),
        &["school", "team", "number"],
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
                    continue;
                }
            },
        };
        teams.push(TeamEntry {
            line: row.line,
            school,
            name,
            number,
        });
    }
    if problems.is_empty() {
        Ok(teams)
    } else {
        problems.sort_by_key(|p| p.line);
        Err(problems)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_team_is_named_for_its_school_unless_the_file_names_it() {
        let teams = read(
            "School,Team\nWhitmer High School,\nSt. John's Jesuit High School,St. John's Jesuit A\n",
        )
        .unwrap();
        assert_eq!(teams.len(), 2);
        assert_eq!(
            (teams[0].line, teams[0].name.as_str()),
            (2, "Whitmer High School")
        );
        assert_eq!(teams[1].name, "St. John's Jesuit A");
    }

    #[test]
    fn every_mistake_is_reported_at_its_line() {
        let problems = read("team,colour\nWhitmer,white\n").unwrap_err();
        let said: Vec<String> = problems.iter().map(ToString::to_string).collect();
        assert_eq!(
            said,
            [
                "line 1, colour: `colour` is not a column of a division's teams; the columns are school, team, number",
                "line 1: the header has no `school` column; a division's teams names each team's school",
                "line 2, school: the team's school is missing; every team plays for a school (GT-O1)",
            ]
        );
    }
}
