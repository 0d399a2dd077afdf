//! An event's round times as a CSV file (issue 14; AS-3, AS-11): one round a line, under a
//! header naming the columns `competition` (its slug), `round` (from 1) and `starts_at` (the
//! hall's time, `2026-12-07T09:30` or `2026-12-07 09:30`). Read with every mistake at its line.

use arbiter_core::teams::roster::LineProblem;
use jiff::civil::DateTime;

use crate::sheet;

/// One round's start: the competition's slug, the round, when it starts in the hall's time.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoundStart {
    /// The competition's slug.
    pub competition: String,
    /// The round, from 1.
    pub round: u32,
    /// When it starts, in the hall's time.
    pub starts_at: DateTime,
}

/// Every round start of the file, in its order, or every mistake in it.
pub fn read(text: &str) -> Result<Vec<RoundStart>, Vec<LineProblem>> {
    let sheet = sheet::read(
        text,
        ("an event's round times", "round"),
        &["competition", "round", "starts_at"],
        &["competition", "round", "starts_at"],
    );
    let mut problems = sheet.problems;
    let mut starts: Vec<RoundStart> = Vec::with_capacity(sheet.rows.len());
    for row in &sheet.rows {
        let mut bad = |column: &str, message: String| {
            problems.push(LineProblem {
                line: row.line,
                column: Some(column.into()),
                message,
            });
        };
        let competition = row.cell("competition").unwrap_or_default().to_string();
        if competition.is_empty() {
            bad(
                "competition",
                "name the competition by its slug, e.g. secondary-open".into(),
            );
        }
        let round_text = row.cell("round").unwrap_or_default();
        let round = match round_text.parse::<u32>() {
            Ok(n) if n >= 1 => Some(n),
            _ => {
                bad(
                    "round",
                    format!("“{round_text}” is not a round; rounds are numbered from 1"),
                );
                None
            }
        };
        let time_text = row.cell("starts_at").unwrap_or_default();
        let starts_at = match time_text.replacen(' ', "T", 1).parse::<DateTime>() {
            Ok(t) => Some(t),
            Err(_) => {
                bad(
                    "starts_at",
                    format!("“{time_text}” is not a day and time; write it as 2026-12-07T09:30"),
                );
                None
            }
        };
        if let (Some(round), Some(starts_at)) = (round, starts_at) {
            if starts
                .iter()
                .any(|s| s.competition == competition && s.round == round)
            {
                bad(
                    "round",
                    format!("{competition} round {round} is given twice; give each round once"),
                );
            } else {
                starts.push(RoundStart {
                    competition,
                    round,
                    starts_at,
                });
            }
        }
    }
    if problems.is_empty() {
        Ok(starts)
    } else {
        problems.sort_by_key(|p| p.line);
        Err(problems)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_times_read_with_either_separator() {
        let starts = read(
            "competition,round,starts_at\nsecondary-open,1,2026-12-07T09:30\nsecondary-open,2,2026-12-07 14:00\n",
        )
        .unwrap();
        assert_eq!(starts.len(), 2);
        assert_eq!(starts[1].starts_at.to_string(), "2026-12-07T14:00:00");
    }

    #[test]
    fn every_mistake_is_reported_at_its_line() {
        let problems = read(
            "competition,round,starts_at\nsecondary-open,0,2026-12-07T09:30\n,2,noon\nsecondary-open,1,2026-12-07T09:30\nsecondary-open,1,2026-12-07T10:30\n",
        )
        .unwrap_err();
        let said: Vec<String> = problems.iter().map(ToString::to_string).collect();
        assert_eq!(
            said,
            [
                "line 2, round: “0” is not a round; rounds are numbered from 1",
                "line 3, competition: name the competition by its slug, e.g. secondary-open",
                "line 3, starts_at: “noon” is not a day and time; write it as 2026-12-07T09:30",
                "line 5, round: secondary-open round 1 is given twice; give each round once",
            ]
        );
    }
}
