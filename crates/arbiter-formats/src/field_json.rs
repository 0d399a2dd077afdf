//! The files of ASTC field planning (AS-4..AS-8): a competition's entries,
//! `{"competition": "Secondary Open", "entries": [{"state": "SA", "school": "…"}, …]}`, and the
//! previous championship's finish, `{"finish": [{"place": 1, "state": "VIC", "school": "…"}, …]}`;
//! or the same as rows, as an arbiter types or pastes them from a spreadsheet: `SA, Glenunga
//! International High School` an entry a line, `1, VIC, Melbourne High School` a place a line
//! (issue 32 item 26). Every problem is given at its line (and column in JSON), the rule's
//! sentence from core.

use arbiter_core::event::field::{Entries, EntryInput, EntryProblem, FinishInput, PreviousFinish};
use serde::Deserialize;

use crate::competition_json::{JsonError, Problem, Seg, line_column, locate, syntax_problem};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct EntriesJson {
    competition: String,
    entries: Vec<EntryJson>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct EntryJson {
    state: String,
    school: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct FinishJson {
    finish: Vec<PlacedJson>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct PlacedJson {
    place: u32,
    state: String,
    #[serde(default)]
    school: Option<String>,
}

/// A competition's entries (AS-4), or every problem of the file at its place.
pub fn read_entries(origin: &str, text: &str) -> Result<Entries, JsonError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let file: EntriesJson = serde_json::from_str(text).map_err(|e| error(origin, &e))?;
    let rows: Vec<EntryInput> = file
        .entries
        .into_iter()
        .map(|e| EntryInput {
            state: e.state,
            school: e.school,
        })
        .collect();
    Entries::read(&file.competition, &rows).map_err(|p| placed(origin, text, "entries", &p))
}

/// The previous championship's finish (AS-8), or every problem of the file at its place.
pub fn read_finish(origin: &str, text: &str) -> Result<PreviousFinish, JsonError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let file: FinishJson = serde_json::from_str(text).map_err(|e| error(origin, &e))?;
    let rows: Vec<FinishInput> = file
        .finish
        .into_iter()
        .map(|p| FinishInput {
            place: p.place,
            state: p.state,
            school: p.school,
        })
        .collect();
    PreviousFinish::read(&rows).map_err(|p| placed(origin, text, "finish", &p))
}

/// The entries of `competition` as JSON (text starting with `{`, its own competition name) or
/// as rows: `state, school` a line, comma or tab between, an optional header line
/// `state,school`, blank lines skipped.
pub fn read_entries_text(
    origin: &str,
    competition: &str,
    text: &str,
) -> Result<Entries, JsonError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if text.trim_start().starts_with('{') {
        return read_entries(origin, text);
    }
    let (lines, rows) = rows_of(text, &["state"]);
    let mut problems = Vec::new();
    let mut entries = Vec::new();
    for (line, cells) in lines.iter().zip(&rows) {
        match cells.as_slice() {
            [state, school, ..] => entries.push(EntryInput {
                state: state.clone(),
                school: school.clone(),
            }),
            _ => problems.push(at_line(
                *line,
                format!(
                    "“{}” is not an entry; write the state's code and the school, `SA, Glenunga International High School`",
                    cells.join(",")
                ),
            )),
        }
    }
    let read = Entries::read(competition, &entries);
    finish_rows(origin, &lines, problems, read)
}

/// The previous finish as JSON (text starting with `{`) or as rows: `place, state[, school]` a
/// line, an optional header line `place,state,school`.
pub fn read_finish_text(origin: &str, text: &str) -> Result<PreviousFinish, JsonError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if text.trim_start().starts_with('{') {
        return read_finish(origin, text);
    }
    let (lines, rows) = rows_of(text, &["place"]);
    let mut problems = Vec::new();
    let mut places = Vec::new();
    for (line, cells) in lines.iter().zip(&rows) {
        match cells.as_slice() {
            [place, state, rest @ ..] if place.parse::<u32>().is_ok() => places.push(FinishInput {
                place: place.parse().unwrap_or(0),
                state: state.clone(),
                school: rest.first().cloned().filter(|s| !s.is_empty()),
            }),
            _ => problems.push(at_line(
                *line,
                format!(
                    "“{}” is not a place; write the place, the state's code and the school, `1, VIC, Melbourne High School`",
                    cells.join(",")
                ),
            )),
        }
    }
    let read = PreviousFinish::read(&places);
    finish_rows(origin, &lines, problems, read)
}

/// The non-blank rows of `text` with their 1-based line numbers, cells trimmed, split on tabs
/// when the text has any, else on commas; a first row whose first cell is one of `header`
/// (any case) is the header and skipped.
fn rows_of(text: &str, header: &[&str]) -> (Vec<usize>, Vec<Vec<String>>) {
    let separator = if text.contains('\t') { '\t' } else { ',' };
    let mut lines = Vec::new();
    let mut rows = Vec::new();
    for (i, record) in crate::csv::read(text, separator).into_iter().enumerate() {
        let cells: Vec<String> = record.iter().map(|c| c.trim().to_string()).collect();
        if cells.iter().all(String::is_empty) {
            continue;
        }
        let first = cells[0].to_lowercase();
        if rows.is_empty() && header.contains(&first.as_str()) {
            continue;
        }
        lines.push(i + 1);
        rows.push(cells);
    }
    (lines, rows)
}

fn at_line(line: usize, message: String) -> Problem {
    Problem {
        line: Some(line),
        message,
        ..Problem::default()
    }
}

/// The rows' own problems and core's, each at its line, in line order.
fn finish_rows<T>(
    origin: &str,
    lines: &[usize],
    mut problems: Vec<Problem>,
    read: Result<T, Vec<EntryProblem>>,
) -> Result<T, JsonError> {
    match read {
        Ok(v) if problems.is_empty() => Ok(v),
        Ok(_) => Err(JsonError::rows(origin, problems)),
        Err(core) => {
            // Core counts the rows it was given; a row refused above was not among them, so
            // its index is found among the lines of the rows read.
            let read_lines: Vec<usize> = lines
                .iter()
                .copied()
                .filter(|l| !problems.iter().any(|p| p.line == Some(*l)))
                .collect();
            problems.extend(core.iter().map(|p| Problem {
                line: p.entry.and_then(|i| read_lines.get(i).copied()),
                rule: rule_of(&p.message),
                message: p.to_string(),
                ..Problem::default()
            }));
            problems.sort_by_key(|p| p.line);
            Err(JsonError::rows(origin, problems))
        }
    }
}

/// The rule a core sentence opens with (`AS-4: …`), if it opens with one.
fn rule_of(message: &str) -> Option<String> {
    message
        .split_once(": ")
        .map(|(rule, _)| rule)
        .filter(|r| r.starts_with("AS-"))
        .map(str::to_string)
}

fn error(origin: &str, e: &serde_json::Error) -> JsonError {
    JsonError {
        origin: origin.to_string(),
        problems: vec![syntax_problem(e)],
    }
}

/// Core's problems, each at its entry's field in the text.
fn placed(origin: &str, text: &str, list: &str, problems: &[EntryProblem]) -> JsonError {
    let problems = problems
        .iter()
        .map(|p| {
            let path = match p.entry {
                Some(i) => vec![Seg::Key(list), Seg::Index(i), Seg::Key(p.field)],
                None => vec![Seg::Key(p.field)],
            };
            let at = locate(text, &path).map(|o| line_column(text, o));
            Problem {
                line: at.map(|(l, _)| l),
                column: at.map(|(_, c)| c),
                rule: rule_of(&p.message),
                message: p.to_string(),
                ..Problem::default()
            }
        })
        .collect();
    JsonError {
        origin: origin.to_string(),
        problems,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arbiter_core::event::field::State;

    /// Issue 32 item 26: the entries as an arbiter types them, a line each, every mistake at
    /// once at the line it is on.
    #[test]
    fn as_4_entries_as_rows_are_read_with_every_mistake_at_its_line() {
        let text = "state,school\nSA, Glenunga International High School\n\nVIC,\"Melbourne High School, Melbourne\"\n";
        let entries = read_entries_text("entries", "Secondary Open", text).unwrap();
        assert_eq!(entries.competition(), "Secondary Open");
        assert_eq!(entries.of_state(State::Vic), 1);
        let text = "SA\tGlenunga International High School\nXX\tSomewhere\nno school\nQLD\tGlenunga International High School\n";
        let e = read_entries_text("entries", "Secondary Open", text).unwrap_err();
        let lines: Vec<Option<usize>> = e.problems.iter().map(|p| p.line).collect();
        assert_eq!(lines, [Some(2), Some(3), Some(4)], "{e}");
        assert!(
            e.to_string()
                .starts_with("entries:2: entry 2, state: AS-4: “XX”"),
            "{e}"
        );
        assert!(
            e.to_string()
                .contains("entries:3: “no school” is not an entry"),
            "{e}"
        );
        let finish = read_finish_text("finish", "1, VIC, Melbourne High School\n2, SA\n").unwrap();
        assert_eq!(finish, read_finish("f", r#"{"finish": [{"place": 1, "state": "VIC", "school": "Melbourne High School"}, {"place": 2, "state": "SA"}]}"#).unwrap());
    }

    #[test]
    fn as_4_entries_are_read_and_a_second_team_of_a_school_is_refused_at_its_place() {
        let text = r#"{"competition": "Secondary Open", "entries": [
  {"state": "SA", "school": "Glenunga International High School"},
  {"state": "VIC", "school": "Melbourne High School"}
]}"#;
        let entries = read_entries("e.json", text).unwrap();
        assert_eq!(entries.competition(), "Secondary Open");
        assert_eq!(entries.of_state(State::Vic), 1);
        let text = r#"{"competition": "Secondary Open", "entries": [
  {"state": "SA", "school": "Glenunga International High School"},
  {"state": "Qld", "school": "Glenunga International High School"}
]}"#;
        let e = read_entries("e.json", text).unwrap_err();
        assert_eq!(
            e.to_string(),
            "e.json:3:4: entry 2, state: AS-4: “Qld” is not a state or territory; write one of ACT, NSW, NT, QLD, SA, TAS, VIC, WA (did you mean QLD?)\n\
             e.json:3:20: entry 2, school: AS-4: Glenunga International High School has a team already (entry 1); a school enters one team in a competition, so enter another school's"
        );
        assert_eq!(e.problems[0].rule.as_deref(), Some("AS-4"));
    }

    #[test]
    fn a_file_of_another_shape_is_refused_at_its_line() {
        let e = read_entries("e.json", "{\"competition\": \"X\",\n \"entrants\": []}").unwrap_err();
        assert_eq!(e.problems[0].line, Some(2), "{e}");
        assert!(e.to_string().contains("entrants"), "{e}");
        let e = read_finish(
            "f.json",
            "{\"finish\": [{\"place\": -1, \"state\": \"SA\"}]}",
        )
        .unwrap_err();
        assert!(e.to_string().starts_with("f.json:1:"), "{e}");
    }

    #[test]
    fn as_8_the_finish_is_read_with_its_schools_optional() {
        let f = read_finish(
            "f.json",
            r#"{"finish": [{"place": 2, "state": "NSW"}, {"place": 1, "state": "VIC", "school": "Melbourne High School"}]}"#,
        )
        .unwrap();
        assert_eq!(f.places()[0].state, State::Vic);
        let e = read_finish("f.json", r#"{"finish": [{"place": 0, "state": "NSW"}]}"#).unwrap_err();
        assert_eq!(
            e.to_string(),
            "f.json:1:14: entry 1, place: AS-8: the place is 0; places count from 1"
        );
    }
}
