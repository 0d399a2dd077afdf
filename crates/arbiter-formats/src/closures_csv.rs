//! A season's closures as a CSV file (issue 12, part 3; GT-M2): one closure a line, under a
//! header naming the columns `from` (the first day closed, YYYY-MM-DD), `to` (the last; by
//! default the first) and `reason` ("Winter break"). Read with every mistake at its line.

use arbiter_core::record::calendar::{CalendarError, Closure};
use arbiter_core::record::text::NAME_MAX_CHARS;
use arbiter_core::teams::roster::LineProblem;
use jiff::civil::Date;

use crate::sheet;

/// Every closure of the file, in its order, or every mistake in it.
pub fn read(text: &str) -> Result<Vec<Closure>, Vec<LineProblem>> {
    let sheet = sheet::read(
        text,
        ("a season's closures", "closure"),
        &["from", "to", "reason"],
        &["from", "reason"],
    );
    let mut problems = sheet.problems;
    let mut closures = Vec::with_capacity(sheet.rows.len());
    for row in &sheet.rows {
        let mut bad = |column: &str, message: String| {
            problems.push(LineProblem {
                line: row.line,
                column: Some(column.into()),
                message,
            });
        };
        let mut day = |column: &str| {
            let text = row.cell(column)?;
            match text.parse::<Date>() {
                Ok(d) => Some(d),
                Err(_) => {
                    bad(
                        column,
                        format!("“{text}” is not a date; write it as YYYY-MM-DD, e.g. 2026-12-21"),
                    );
                    None
                }
            }
        };
        let from = day("from");
        let to = day("to").or(from);
        let reason = row.cell("reason").unwrap_or_default();
        let Some(from) = from else {
            if row.cell("from").is_none() {
                bad("from", "the closure has no first day".into());
            }
            continue;
        };
        let to = to.unwrap_or(from);
        if reason.is_empty() {
            bad(
                "reason",
                "say what the schools are closed for, e.g. Winter break".into(),
            );
        } else if reason.chars().count() > NAME_MAX_CHARS {
            bad(
                "reason",
                format!("the reason is longer than {NAME_MAX_CHARS} characters"),
            );
        }
        let closure = Closure { from, to, reason };
        // A missing reason is said above, at its column.
        if let Err(why @ CalendarError::ClosureEndsBeforeItStarts { .. }) = closure.check() {
            bad("to", why.to_string());
        }
        closures.push(closure);
    }
    if problems.is_empty() {
        Ok(closures)
    } else {
        problems.sort_by_key(|p| p.line);
        Err(problems)
    }
}

#[cfg(test)]
mod tests {
    use jiff::civil::date;

    use super::*;

    #[test]
    fn a_closure_is_one_day_unless_it_says_to() {
        let closures = read(
            "from,to,reason\n2026-12-21,2027-01-01,Winter break\n2027-01-18,,Martin Luther King Jr. Day\n",
        )
        .unwrap();
        assert_eq!(closures.len(), 2);
        assert_eq!(
            (closures[0].from, closures[0].to),
            (date(2026, 12, 21), date(2027, 1, 1))
        );
        assert_eq!(closures[1].to, date(2027, 1, 18));
    }

    #[test]
    fn every_mistake_is_reported_at_its_line() {
        let problems =
            read("from,to,reason\n2026-13-01,,Snow\n2027-01-05,,\n2027-01-05,2027-01-02,Snow\n")
                .unwrap_err();
        let said: Vec<String> = problems.iter().map(ToString::to_string).collect();
        assert_eq!(
            said,
            [
                "line 2, from: “2026-13-01” is not a date; write it as YYYY-MM-DD, e.g. 2026-12-21",
                "line 3, reason: say what the schools are closed for, e.g. Winter break",
                "line 4, to: The closure “Snow” cannot end on 2027-01-02, before it starts on 2027-01-05; give its last day on or after its first (GT-M2's calendar).",
            ]
        );
    }
}
