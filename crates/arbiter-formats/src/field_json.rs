//! The files of ASTC field planning (AS-4..AS-8): a competition's entries,
//! `{"competition": "Secondary Open", "entries": [{"state": "SA", "school": "…"}, …]}`, and the
//! previous championship's finish, `{"finish": [{"place": 1, "state": "VIC", "school": "…"}, …]}`.
//! Every problem is given at its line and column, the rule's sentence from core.

use arbiter_core::field::{Entries, EntryInput, EntryProblem, FinishInput, PreviousFinish};
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
                rule: p
                    .message
                    .split_once(": ")
                    .map(|(rule, _)| rule)
                    .filter(|r| r.starts_with("AS-"))
                    .map(str::to_string),
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
    use arbiter_core::field::State;

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
