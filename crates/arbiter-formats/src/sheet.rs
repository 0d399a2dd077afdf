//! A CSV file a person gives (a roster, a division's teams): a header naming its columns in any
//! order, then a row a line. Every mistake is kept at its line and column, none stops the
//! reading, so the preview can list them all.

use std::collections::HashMap;

use arbiter_core::teams::roster::LineProblem;

/// The file's rows, with the mistakes its header and lines already have.
pub(crate) struct Sheet {
    pub rows: Vec<Row>,
    pub problems: Vec<LineProblem>,
}

/// One row that is not empty: its line and its cells by column.
pub(crate) struct Row {
    pub line: u64,
    cells: HashMap<&'static str, String>,
}

impl Row {
    /// Whether the file has the column (a missing one is reported once, at the header).
    pub fn has(&self, column: &str) -> bool {
        self.cells.contains_key(column)
    }

    /// The cell of `column`, trimmed; `None` when empty or absent.
    pub fn cell(&self, column: &str) -> Option<String> {
        self.cells.get(column).filter(|v| !v.is_empty()).cloned()
    }
}

/// Reads `text` (a byte-order mark aside) as a sheet of `columns` (names matched without letter
/// case, spaces and hyphens as `_`), of which `required` must be in the header; `what` names
/// the file in the messages ("a roster") and `each` one of its rows ("player").
pub(crate) fn read(
    text: &str,
    (what, each): (&str, &str),
    columns: &[&'static str],
    required: &[&'static str],
) -> Sheet {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut problems = Vec::new();
    let mut reader = csv::ReaderBuilder::new()
        .flexible(true)
        .trim(csv::Trim::All)
        .from_reader(text.as_bytes());
    let header: Vec<String> = match reader.headers() {
        Ok(h) => h
            .iter()
            .map(|c| c.to_lowercase().replace([' ', '-'], "_"))
            .collect(),
        Err(e) => {
            problems.push(LineProblem {
                line: 1,
                column: None,
                message: format!("the header cannot be read ({e}); save the file as CSV in UTF-8"),
            });
            return Sheet {
                rows: Vec::new(),
                problems,
            };
        }
    };
    let mut index: HashMap<&'static str, usize> = HashMap::new();
    for (i, c) in header.iter().enumerate() {
        match columns.iter().find(|k| **k == c.as_str()) {
            Some(k) => {
                if index.insert(k, i).is_some() {
                    problems.push(LineProblem {
                        line: 1,
                        column: Some(c.clone()),
                        message: "the column is named twice; keep one".into(),
                    });
                }
            }
            None => problems.push(LineProblem {
                line: 1,
                column: Some(c.clone()),
                message: format!(
                    "`{c}` is not a column of {what}; the columns are {}",
                    columns.join(", ")
                ),
            }),
        }
    }
    for column in required {
        if !index.contains_key(column) {
            problems.push(LineProblem {
                line: 1,
                column: None,
                message: format!(
                    "the header has no `{column}` column; {what} names each {each}'s {column}"
                ),
            });
        }
    }
    let mut rows = Vec::new();
    for record in reader.records() {
        let record = match record {
            Ok(r) => r,
            Err(e) => {
                let line = e.position().map_or(0, |p| line_at(text, p.byte()));
                problems.push(LineProblem {
                    line,
                    column: None,
                    message: format!("the line cannot be read ({e})"),
                });
                continue;
            }
        };
        if record.iter().all(str::is_empty) {
            continue;
        }
        let cells = index
            .iter()
            .map(|(&k, &i)| (k, record.get(i).unwrap_or_default().to_string()))
            .collect();
        rows.push(Row {
            line: record.position().map_or(0, |p| line_at(text, p.byte())),
            cells,
        });
    }
    Sheet { rows, problems }
}

/// The file's own line (the header is 1) of the record starting at `byte`. Counted here, not
/// taken from `csv`'s `Position::line`, which is one short after a blank line and on a file
/// with CRLF line ends (every pasted form's: browsers send a textarea's lines so).
fn line_at(text: &str, byte: u64) -> u64 {
    let at = usize::try_from(byte).unwrap_or(usize::MAX).min(text.len());
    let rest = text.get(at..).unwrap_or_default();
    // The record starts after any line ends the reader had not yet passed.
    let start = at + (rest.len() - rest.trim_start_matches(['\r', '\n']).len());
    let newlines = text.as_bytes()[..start]
        .iter()
        .filter(|b| **b == b'\n')
        .count();
    1 + u64::try_from(newlines).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each row at the file's own line, whatever its line ends and blank lines.
    #[test]
    fn a_row_is_at_the_files_own_line() {
        for text in [
            "name\nAna\n\nBen\n",
            "name\r\nAna\r\n\r\nBen\r\n",
            "\u{feff}name\r\nAna\r\n\r\nBen",
        ] {
            let sheet = read(text, ("a list", "name"), &["name"], &["name"]);
            let lines: Vec<u64> = sheet.rows.iter().map(|r| r.line).collect();
            assert_eq!(lines, [2, 4], "{text:?}");
        }
    }
}
