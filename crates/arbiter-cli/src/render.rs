//! Printing standings and schedules: an 80-column table, JSON and CSV.

use std::fmt::Write as _;

use anyhow::Result;
use arbiter_core::pairing::schedule::Schedule;
use arbiter_core::record::model::Competition;
use arbiter_core::scoring::standings::{CriterionValue, Explanation, Standings};
use serde_json::{Map, Value, json};

use crate::Format;

const WIDTH: usize = 80;

pub fn standings(
    c: &Competition,
    s: &Standings,
    format: Format,
    explanation: Option<&[Explanation]>,
) -> Result<String> {
    Ok(match format {
        Format::Table => {
            let mut out = table(c, s);
            if let Some(ex) = explanation {
                out.push('\n');
                for e in ex {
                    out.push_str(&wrap(&e.sentence, WIDTH));
                }
            }
            out
        }
        Format::Json => {
            let mut v = standings_json(c, s);
            if let (Some(ex), Value::Object(o)) = (explanation, &mut v) {
                o.insert(
                    "explanation".into(),
                    Value::Array(
                        ex.iter()
                            .map(|e| json!({"rule": e.rule, "text": e.sentence}))
                            .collect(),
                    ),
                );
            }
            serde_json::to_string_pretty(&v)? + "\n"
        }
        Format::Csv => arbiter_formats::standings_csv::write(c, s, explanation),
    })
}

fn value_json(v: &CriterionValue) -> Value {
    match v {
        CriterionValue::Number(x) => json!(round2(*x)),
        CriterionValue::Sequence(xs) => {
            Value::Array(xs.iter().map(|x| json!(round2(*x))).collect())
        }
        CriterionValue::NotApplied => Value::Null,
    }
}

fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

pub fn standings_json(c: &Competition, s: &Standings) -> Value {
    let rows: Vec<Value> = s
        .rows
        .iter()
        .map(|r| {
            let team = &c.teams[r.team];
            let mut values = Map::new();
            for (spec, v) in s.criteria.iter().zip(&r.values) {
                values.insert(spec.code.clone(), value_json(v));
            }
            let mut row = json!({
                "rank": r.rank,
                "place": r.place,
                "team": team.name,
                "team_id": team.id.0,
                "values": values,
            });
            if r.dropped
                && let Value::Object(o) = &mut row
            {
                o.insert("dropped".into(), json!(true));
            }
            row
        })
        .collect();
    json!({
        "criteria": s.criteria.iter().map(|c| c.code.clone()).collect::<Vec<_>>(),
        "standings": rows,
    })
}

fn table(c: &Competition, s: &Standings) -> String {
    let cells: Vec<Vec<String>> = s
        .rows
        .iter()
        .map(|r| r.values.iter().map(CriterionValue::display).collect())
        .collect();
    let widths: Vec<usize> = s
        .criteria
        .iter()
        .enumerate()
        .map(|(i, spec)| {
            cells
                .iter()
                .map(|row| row[i].chars().count())
                .chain([spec.code.chars().count()])
                .max()
                .unwrap_or(0)
        })
        .collect();
    let place_w = s
        .rows
        .iter()
        .map(|r| r.place.len())
        .chain([5])
        .max()
        .unwrap_or(5);
    let values_w: usize = widths.iter().map(|w| w + 2).sum();
    let names: Vec<String> = s
        .rows
        .iter()
        .map(|r| {
            let name = printable(&c.teams[r.team].name);
            if r.dropped {
                format!("{name} (dropped)")
            } else {
                name
            }
        })
        .collect();
    let longest_name = names.iter().map(|n| n.chars().count()).max().unwrap_or(0);
    // The room the other columns leave, but never under 12 (a name stays readable past 80
    // columns) nor wider than the longest name or the header need.
    let team_w = WIDTH
        .saturating_sub(place_w + 1 + values_w)
        .max(12)
        .min(longest_name.max(4));

    let mut out = String::new();
    let _ = write!(out, "{:<place_w$} {:<team_w$}", "Place", "Team");
    for (spec, w) in s.criteria.iter().zip(&widths) {
        let _ = write!(out, "  {:>w$}", spec.code);
    }
    out.push('\n');
    for ((r, row), name) in s.rows.iter().zip(&cells).zip(&names) {
        let name = truncate(name, team_w);
        let _ = write!(out, "{:<place_w$} {:<team_w$}", r.place, name);
        for (v, w) in row.iter().zip(&widths) {
            let _ = write!(out, "  {v:>w$}");
        }
        out.push('\n');
    }
    out
}

/// A control character in a name (a tab, a newline, an escape) would break the table's lines
/// or drive the terminal; it is shown as U+FFFD.
pub(crate) fn printable(s: &str) -> String {
    s.chars()
        .map(|c| if c.is_control() { '\u{FFFD}' } else { c })
        .collect()
}

pub(crate) fn truncate(s: &str, width: usize) -> String {
    if s.chars().count() <= width {
        return s.to_string();
    }
    let mut t: String = s.chars().take(width.saturating_sub(1)).collect();
    t.push('…');
    t
}

fn wrap(text: &str, width: usize) -> String {
    let mut out = String::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
            out.push_str(&line);
            out.push('\n');
            line = String::from("  ");
        }
        if !line.is_empty() && line != "  " {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.trim().is_empty() {
        out.push_str(&line);
        out.push('\n');
    }
    out
}

pub fn schedule_table(s: &Schedule) -> String {
    let mut out = String::new();
    for round in &s.rounds {
        let pairs: Vec<String> = round
            .pairings
            .iter()
            .map(|p| format!("{}-{}", p.first, p.second))
            .collect();
        let _ = write!(out, "Round {:>2}: {}", round.number, pairs.join(", "));
        if let Some(b) = round.bye {
            let _ = write!(out, "; bye {b}");
        }
        out.push('\n');
    }
    out
}

pub fn schedule_json(s: &Schedule) -> Result<String> {
    let rounds: Vec<Value> = s
        .rounds
        .iter()
        .map(|r| {
            json!({
                "round": r.number,
                "pairings": r.pairings.iter().map(|p| json!({"first": p.first, "second": p.second})).collect::<Vec<_>>(),
                "bye": r.bye,
            })
        })
        .collect();
    Ok(serde_json::to_string_pretty(&json!({ "rounds": rounds }))? + "\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use arbiter_core::record::model::{Team, TeamId};
    use arbiter_core::rules::criteria::{CriterionKind, CriterionSpec};
    use arbiter_core::scoring::standings::StandingRow;
    use arbiter_formats::csv;
    use proptest::collection::vec;
    use proptest::prelude::*;

    fn value() -> impl Strategy<Value = CriterionValue> {
        prop_oneof![
            (-1000.0..100_000.0f64).prop_map(CriterionValue::Number),
            vec(0.0..100.0f64, 0..6).prop_map(CriterionValue::Sequence),
            Just(CriterionValue::NotApplied),
        ]
    }

    /// Teams with these names and a standings table over these criteria codes.
    fn table_input(
        names: &[String],
        codes: &[String],
        values: Vec<Vec<CriterionValue>>,
        dropped: &[bool],
    ) -> (Competition, Standings) {
        let teams = names
            .iter()
            .enumerate()
            .map(|(i, n)| Team {
                id: TeamId(format!("t{i}")),
                name: n.clone(),
                school: None,
                players: Vec::new(),
            })
            .collect();
        let rows = values
            .into_iter()
            .zip(dropped)
            .enumerate()
            .map(|(i, (values, dropped))| StandingRow {
                rank: i + 1,
                place: if i % 5 == 4 {
                    format!("{}-{}", i, i + 1)
                } else {
                    (i + 1).to_string()
                },
                team: i,
                values,
                dropped: *dropped,
            })
            .collect();
        let criteria = codes
            .iter()
            .map(|code| CriterionSpec {
                code: code.clone(),
                kind: CriterionKind::GamePoints,
                rule: None,
            })
            .collect();
        let c = Competition {
            name: "Cup".into(),
            teams,
            rounds: Vec::new(),
        };
        let s = Standings {
            criteria,
            rows,
            separations: Vec::new(),
        };
        (c, s)
    }

    fn input() -> impl Strategy<Value = (Competition, Standings)> {
        (vec(any::<String>(), 0..12), vec("[A-Z0-9:/]{1,14}", 0..9))
            .prop_flat_map(|(names, codes)| {
                let n = names.len();
                let k = codes.len();
                (
                    Just(names),
                    Just(codes),
                    vec(vec(value(), k), n),
                    vec(any::<bool>(), n),
                )
            })
            .prop_map(|(names, codes, values, dropped)| {
                table_input(&names, &codes, values, &dropped)
            })
    }

    #[test]
    fn no_teams_give_a_header_alone() {
        let (c, s) = table_input(&[], &["GP".into()], Vec::new(), &[]);
        assert_eq!(table(&c, &s), "Place Team  GP\n");
    }

    #[test]
    fn a_dropped_team_is_marked_when_there_is_room() {
        let names = ["NSW".to_string(), "VIC".to_string()];
        let values = vec![vec![CriterionValue::Number(3.0)]; 2];
        let (c, s) = table_input(&names, &["GP".into()], values, &[false, true]);
        assert_eq!(
            table(&c, &s),
            "Place Team           GP\n1     NSW             3\n2     VIC (dropped)   3\n"
        );
    }

    #[test]
    fn short_names_get_a_column_as_wide_as_the_longest() {
        let names = ["NSW".to_string(), "VIC".to_string()];
        let values = vec![vec![CriterionValue::Number(3.0)]; 2];
        let (c, s) = table_input(&names, &["GP".into()], values, &[false, false]);
        assert_eq!(
            table(&c, &s),
            "Place Team  GP\n1     NSW    3\n2     VIC    3\n"
        );
    }

    /// Issue 9 item 9: team names and ids a spreadsheet would run, and the explanation that
    /// names them, reach no cell as a formula whichever separator it splits on.
    #[test]
    fn no_standings_cell_reads_as_a_formula_whichever_separator_the_spreadsheet_splits_on() {
        let typed = [
            "x;=cmd|' /C calc'!A0",
            "=cmd|' /C calc'!A0",
            "+1+1",
            "-1+1",
            "@SUM(A1)",
            "\t=1+1",
            "\r=1+1",
        ]
        .map(String::from);
        let values = vec![vec![CriterionValue::Number(-1.5)]; typed.len()];
        let (mut c, s) = table_input(&typed, &["=GP".into()], values, &[false; 7]);
        for (t, name) in c.teams.iter_mut().zip(&typed) {
            t.id = TeamId(name.clone());
        }
        let explanation: Vec<Explanation> = typed
            .iter()
            .zip(1..)
            .map(|(name, upper_row)| Explanation {
                upper_row,
                rule: None,
                sentence: format!("{name}, then;=1+1 below it"),
            })
            .collect();
        let text = standings(&c, &s, Format::Csv, Some(&explanation)).unwrap();
        for separator in [',', ';', '\t'] {
            for cell in csv::read(&text, separator).iter().flatten() {
                assert!(!csv::reads_as_formula(cell), "{separator:?}: {cell:?}");
            }
        }
        let records = csv::read(&text, ',');
        assert_eq!(records[0], ["rank", "place", "team_id", "team", "'=GP"]);
        for (r, name) in records[1..].iter().zip(&typed) {
            assert_eq!(r[2].replace('\'', ""), name.replace('\'', ""));
            assert_eq!(r[3].replace('\'', ""), name.replace('\'', ""));
            assert_eq!(r[4], "-1.5", "a plain number stays a number");
        }
        assert_eq!(records[typed.len() + 1], [""]);
        assert_eq!(
            records[typed.len() + 2],
            ["# x;'=cmd|' /C calc'!A0, then;'=1+1 below it"]
        );
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(500))]

        /// Whatever the names and however wide the criteria's values: a line per team under
        /// the header, every line as wide as the others, no wider than 80 columns when the
        /// criteria leave the team column 12, and a name shortened only when it does not fit.
        #[test]
        fn the_table_is_aligned_and_fits_80_columns_when_it_can((c, s) in input()) {
            let text = table(&c, &s);
            let lines: Vec<&str> = text.lines().collect();
            prop_assert_eq!(lines.len(), s.rows.len() + 1);
            prop_assert!(text.ends_with('\n'));
            let width = lines[0].chars().count();
            for l in &lines {
                prop_assert_eq!(l.chars().count(), width, "{:?}", text);
            }
            let place_w = s.rows.iter().map(|r| r.place.len()).chain([5]).max().unwrap_or(5);
            let values_w: usize = s
                .criteria
                .iter()
                .enumerate()
                .map(|(i, spec)| {
                    s.rows
                        .iter()
                        .map(|r| r.values[i].display().chars().count())
                        .chain([spec.code.chars().count()])
                        .max()
                        .unwrap_or(0)
                        + 2
                })
                .sum();
            let team_w = width - place_w - 1 - values_w;
            let shown = |r: &StandingRow| {
                let name = c.teams[r.team].name.clone();
                if r.dropped { name + " (dropped)" } else { name }
            };
            let longest = s.rows.iter().map(|r| shown(r).chars().count()).max().unwrap_or(0);
            prop_assert!(team_w >= 4 && team_w <= longest.max(4), "{}", team_w);
            if place_w + 1 + values_w + longest.clamp(4, 12) <= WIDTH {
                prop_assert!(width <= WIDTH, "{:?}", text);
            }
            for (r, line) in s.rows.iter().zip(&lines[1..]) {
                let cell: String = line.chars().skip(place_w + 1).take(team_w).collect();
                let name = &shown(r);
                let fits = name.chars().count() <= team_w;
                if fits {
                    // Whole, with any control character shown as U+FFFD.
                    let shown = cell.chars().zip(name.chars());
                    for (a, b) in shown {
                        prop_assert!(a == b || (b.is_control() && a == '\u{FFFD}'), "{:?}", cell);
                    }
                } else {
                    prop_assert!(cell.ends_with('…'), "{:?}", cell);
                    prop_assert!(team_w >= 12 && width >= WIDTH, "{:?}", text);
                }
                prop_assert!(!cell.chars().any(char::is_control), "{:?}", cell);
            }
        }
    }
}
