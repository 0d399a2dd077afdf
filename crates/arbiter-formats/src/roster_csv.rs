//! A roster as a CSV file (issue 12, part 1): one player a line, under a header naming the
//! columns. Read with every mistake reported at its line and column, so that an officer sees
//! them all in the preview before anything is written.
//!
//! Columns, in any order, named in the header (letter case and spaces aside): `name` and
//! `school` (required), `team` (the team's name as the division shows it, or its id, when the school has several), `grade` (1-12) or
//! `birth_date` (YYYY-MM-DD), `rating` (a whole number; empty for a new player) and
//! `provisional` (yes or no; by default yes for a player without a rating, GT-R3's 1200N) and
//! `federation_id` (the player's id on a published rating list, issue 34).

use std::collections::HashMap;

use arbiter_core::record::text::NAME_MAX_CHARS;
use arbiter_core::teams::roster::{self, FileRows, LineProblem, NewPlayer};
use jiff::civil::Date;

use crate::sheet;

/// A mistake in the file: its line (1 is the header) and column.
pub type RosterProblem = LineProblem;

const COLUMNS: [&str; 8] = [
    "name",
    "school",
    "team",
    "grade",
    "birth_date",
    "rating",
    "provisional",
    "federation_id",
];

/// Every row of the file that names a player and a school, for core's `roster::plan` to place,
/// and every mistake in it (none is skipped, none stops the reading), each at the file's line.
pub fn read(text: &str) -> FileRows<NewPlayer> {
    let sheet = sheet::read(text, ("a roster", "player"), &COLUMNS, &["name", "school"]);
    let mut problems = sheet.problems;
    let mut rows = Vec::new();
    let mut seen: HashMap<(String, String), u64> = HashMap::new();
    for row in &sheet.rows {
        let line = row.line;
        let cell = |k: &str| row.cell(k);
        let mut bad = |column: &str, message: String| {
            problems.push(RosterProblem {
                line,
                column: Some(column.into()),
                message,
            })
        };
        let name = cell("name").unwrap_or_default();
        if name.is_empty() && row.has("name") {
            bad("name", "the player has no name".into());
        } else if name.chars().count() > NAME_MAX_CHARS {
            bad(
                "name",
                format!("the name is longer than {NAME_MAX_CHARS} characters"),
            );
        }
        let school = cell("school").unwrap_or_default();
        if school.is_empty() && row.has("school") {
            bad("school", "the player's school is missing".into());
        }
        let grade = cell("grade").and_then(|g| match g.parse::<u8>() {
            Ok(n) if (1..=12).contains(&n) => Some(n),
            _ => {
                bad(
                    "grade",
                    format!("“{g}” is not a grade; write 1 to 12 (9 to 12 in high school)"),
                );
                None
            }
        });
        let birth_date = cell("birth_date").and_then(|d| match d.parse::<Date>() {
            Ok(date) => Some(date),
            Err(_) => {
                bad(
                    "birth_date",
                    format!("“{d}” is not a date; write it as YYYY-MM-DD, e.g. 2010-04-17"),
                );
                None
            }
        });
        let rating =
            roster::read_rating(&cell("rating").unwrap_or_default()).unwrap_or_else(|why| {
                bad("rating", why);
                None
            });
        let provisional = match cell("provisional").map(|p| p.to_lowercase()) {
            None => rating.is_none(),
            Some(p) if ["yes", "y", "true", "1"].contains(&p.as_str()) => true,
            Some(p) if ["no", "n", "false", "0"].contains(&p.as_str()) => false,
            Some(p) => {
                bad("provisional", format!("“{p}” is neither yes nor no"));
                false
            }
        };
        if provisional && rating.is_some_and(|r| r != 1200) {
            bad(
                "provisional",
                "a provisional rating is the 1200N of a new player (GT-R3); leave the rating empty or 1200, or write no".into(),
            );
        }
        if !name.is_empty() && !school.is_empty() {
            let key = (name.to_lowercase(), school.to_lowercase());
            if let Some(first) = seen.insert(key, line) {
                bad(
                    "name",
                    format!("{name} of {school} is on line {first} too; list each player once"),
                );
            }
        }
        // A row with no name or school cannot be placed; any other is, so that the rules'
        // problems with it are listed with the file's.
        if name.is_empty() || school.is_empty() {
            continue;
        }
        rows.push(NewPlayer {
            line,
            name,
            school,
            team: cell("team"),
            grade,
            birth_date,
            rating,
            provisional,
            federation_id: cell("federation_id"),
        });
    }
    problems.sort_by_key(|p| p.line);
    FileRows { rows, problems }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clean_file_reads_every_row() {
        let read = read(
            "Name,School,Grade,Rating,Provisional\nAna Ruiz,Start High School,10,1500,no\nBen Lee,Start High School,9,,\n",
        );
        assert_eq!(read.problems, []);
        let rows = read.rows;
        assert_eq!(rows.len(), 2);
        assert_eq!((rows[0].rating, rows[0].provisional), (Some(1500), false));
        // GT-R3: no rating is a new player's 1200N.
        assert_eq!(
            (rows[1].rating, rows[1].provisional, rows[1].line),
            (None, true, 3)
        );
    }

    #[test]
    fn every_mistake_is_reported_at_its_line_and_column() {
        let text = "name,grade,birth date,rating,colour\n\
                    Ana Ruiz,10,2010-13-40,abc,white\n\
                    ,13,,1400,\n\
                    Ana Ruiz,9,,1450,\n";
        let problems = read(text).problems;
        let said: Vec<String> = problems.iter().map(ToString::to_string).collect();
        let has = |s: &str| said.iter().any(|p| p.contains(s));
        assert!(has("line 1, colour: `colour` is not a column"), "{said:#?}");
        assert!(
            has("line 1: the header has no `school` column"),
            "{said:#?}"
        );
        assert!(
            has("line 2, birth_date: “2010-13-40” is not a date"),
            "{said:#?}"
        );
        assert!(has("line 2, rating: “abc” is not a rating"), "{said:#?}");
        assert!(has("line 3, name: the player has no name"), "{said:#?}");
        assert!(has("line 3, grade: “13” is not a grade"), "{said:#?}");
        assert_eq!(said.len(), 6, "{said:#?}");
    }

    #[test]
    fn a_player_listed_twice_is_a_mistake() {
        let text = "name,school\nAna Ruiz,Start\nana  ruiz,start\n";
        let problems = read(&text.replace("  ", " ")).problems;
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert_eq!(
            problems[0].to_string(),
            "line 3, name: ana ruiz of start is on line 2 too; list each player once"
        );
    }
}
