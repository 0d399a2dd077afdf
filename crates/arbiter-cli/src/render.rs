//! Printing standings and schedules: an 80-column table, JSON and CSV.

use std::fmt::Write as _;

use anyhow::Result;
use arbiter_core::model::Competition;
use arbiter_core::schedule::Schedule;
use arbiter_core::standings::{CriterionValue, Explanation, Standings};
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
        Format::Csv => {
            let mut out = csv(c, s);
            if let Some(ex) = explanation {
                out.push('\n');
                for e in ex {
                    let _ = writeln!(out, "# {}", e.sentence);
                }
            }
            out
        }
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
    let longest_name = c
        .teams
        .iter()
        .map(|t| t.name.chars().count())
        .max()
        .unwrap_or(4);
    let team_w = WIDTH
        .saturating_sub(place_w + 1 + values_w)
        .clamp(12, longest_name.max(4));

    let mut out = String::new();
    let _ = write!(out, "{:<place_w$} {:<team_w$}", "Place", "Team");
    for (spec, w) in s.criteria.iter().zip(&widths) {
        let _ = write!(out, "  {:>w$}", spec.code);
    }
    out.push('\n');
    for (r, row) in s.rows.iter().zip(&cells) {
        let mut name = truncate(&c.teams[r.team].name, team_w);
        if r.dropped {
            name = truncate(&format!("{name} (dropped)"), team_w);
        }
        let _ = write!(out, "{:<place_w$} {:<team_w$}", r.place, name);
        for (v, w) in row.iter().zip(&widths) {
            let _ = write!(out, "  {v:>w$}");
        }
        out.push('\n');
    }
    out
}

fn truncate(s: &str, width: usize) -> String {
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

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

fn csv(c: &Competition, s: &Standings) -> String {
    let mut out = String::from("rank,place,team_id,team");
    for spec in &s.criteria {
        out.push(',');
        out.push_str(&csv_field(&spec.code));
    }
    out.push('\n');
    for r in &s.rows {
        let t = &c.teams[r.team];
        let _ = write!(
            out,
            "{},{},{},{}",
            r.rank,
            csv_field(&r.place),
            csv_field(&t.id.0),
            csv_field(&t.name)
        );
        for v in &r.values {
            out.push(',');
            out.push_str(&csv_field(&v.display()));
        }
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
