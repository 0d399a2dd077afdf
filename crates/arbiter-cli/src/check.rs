//! `arbiter check FILE...`: everything the competition files break of their rules, errors and
//! violations alike, without stopping at the first (core's `check`). Several files are checked
//! as one season or event too: a player bound to their first team (GT-M15), one competition at
//! a time (AS-3), each player the person their file's `person` names (never by name).

use std::fmt;
use std::path::PathBuf;

use anyhow::Result;
use arbiter_core::rating::list::RatingList;
use arbiter_core::rules::validate::{Finding, Severity};
use arbiter_core::season::check;
use arbiter_core::teams::eligibility::SeasonEntry;
use arbiter_formats::competition_json::JsonError;
use arbiter_formats::trf::TrfError;
use serde::Serialize;

use crate::load::{self, Loaded, RulesFrom};

/// `text` or `json`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum CheckFormat {
    /// One line a finding: `file: severity: round 2, tol v mau, board 2: GT-M11: …`.
    Text,
    /// `{"findings": [{"rule", "severity", "round", "home", "away", "board", "message", …}]}`.
    Json,
}

/// The command ends with exit status 1: a file breaks a rule or cannot be read.
#[derive(Debug)]
pub struct RulesBroken {
    errors: usize,
    violations: usize,
}

impl fmt::Display for RulesBroken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} error{} and {} violation{} found",
            self.errors,
            if self.errors == 1 { "" } else { "s" },
            self.violations,
            if self.violations == 1 { "" } else { "s" }
        )
    }
}

impl std::error::Error for RulesBroken {}

/// One finding as `--format json` writes it.
#[derive(Debug, Serialize)]
struct FindingJson {
    file: String,
    /// Where in the file, for a problem the reader found.
    #[serde(skip_serializing_if = "Option::is_none")]
    line: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    column: Option<usize>,
    rule: Option<String>,
    severity: &'static str,
    round: Option<u32>,
    home: Option<String>,
    away: Option<String>,
    board: Option<u32>,
    /// The team whose lineup or roster it is, when it is one team's.
    #[serde(skip_serializing_if = "Option::is_none")]
    team: Option<String>,
    message: String,
    /// The whole sentence with its place, as the text format prints it.
    text: String,
}

impl FindingJson {
    fn of(file: &str, f: &Finding) -> FindingJson {
        FindingJson {
            file: file.to_string(),
            line: None,
            column: None,
            rule: f.rule.clone(),
            severity: f.severity.code(),
            round: f.round,
            home: f.home.as_ref().map(ToString::to_string),
            away: f.away.as_ref().map(ToString::to_string),
            board: f.board,
            team: f.team.as_ref().map(ToString::to_string),
            message: f.message.clone(),
            text: f.to_string(),
        }
    }

    /// A file the reader refused: each of its problems is an error at its line.
    fn unreadable(file: &str, e: &anyhow::Error) -> Vec<FindingJson> {
        let error = |line, column, rule, message: String| FindingJson {
            file: file.to_string(),
            line,
            column,
            rule,
            severity: Severity::Error.code(),
            round: None,
            home: None,
            away: None,
            board: None,
            team: None,
            text: message.clone(),
            message,
        };
        if let Some(json) = e.downcast_ref::<JsonError>() {
            return json
                .problems
                .iter()
                .map(|p| FindingJson {
                    round: p.round,
                    home: p.home.clone(),
                    away: p.away.clone(),
                    board: p.board,
                    ..error(p.line, p.column, p.rule.clone(), p.message.clone())
                })
                .collect();
        }
        if let Some(trf) = e.downcast_ref::<TrfError>() {
            let at = |n: usize| (n > 0).then_some(n);
            let message = trf.to_string();
            let message = message
                .split_once(": ")
                .map_or(message.clone(), |(_, m)| m.to_string());
            return vec![error(at(trf.line), at(trf.column), None, message)];
        }
        vec![error(None, None, None, format!("{e:#}"))]
    }

    fn line(&self) -> String {
        let place = match (self.line, self.column) {
            (Some(l), Some(c)) => format!("{}:{l}:{c}", self.file),
            (Some(l), None) => format!("{}:{l}", self.file),
            _ => self.file.clone(),
        };
        format!("{place}: {}: {}", self.severity, self.text)
    }
}

/// Checks `files` (each with `rules` in place of its own, when given, and the published rating
/// `lists` for `[lineup] ratings = "list"`) and prints every finding.
pub fn run(
    files: &[PathBuf],
    rules: Option<&str>,
    from: &RulesFrom,
    format: CheckFormat,
    lists: &[RatingList],
) -> Result<()> {
    let mut out: Vec<FindingJson> = Vec::new();
    let mut loaded: Vec<(String, Loaded)> = Vec::new();
    for path in files {
        let file = path.display().to_string();
        match load::competition(path, rules, from) {
            Ok(l) => loaded.push((file, l)),
            Err(e) => out.extend(FindingJson::unreadable(&file, &e)),
        }
    }
    let names: Vec<String> = loaded
        .iter()
        .map(|(_, l)| l.competition.name.clone())
        .collect();
    let entries: Vec<SeasonEntry> = loaded
        .iter()
        .zip(&names)
        .map(|((_, l), name)| SeasonEntry {
            name,
            competition: &l.competition,
            rules: &l.rules,
            named: &[],
            event_days: None,
            lists,
        })
        .collect();
    let findings = check::season(&entries);
    // What the reader warned of beyond the record's own checks (a TRF file that disagrees
    // with itself); the JSON reader's warnings are those checks' and come with them.
    for (i, (file, l)) in loaded.iter().enumerate() {
        let own: Vec<String> = findings
            .iter()
            .filter(|f| f.competition == i)
            .map(|f| f.finding.to_string())
            .collect();
        for w in l.warnings.iter().filter(|w| !own.contains(&w.to_string())) {
            // The file is named in its own field, not again in the sentence.
            let mut w = w.clone();
            if let Some(rest) = w.message.strip_prefix(&format!("{file}:")) {
                w.message = rest.trim_start().to_string();
            }
            out.push(FindingJson::of(file, &w));
        }
    }
    for f in &findings {
        out.push(FindingJson::of(&loaded[f.competition].0, &f.finding));
    }
    let count = |s: Severity| out.iter().filter(|f| f.severity == s.code()).count();
    let broken = RulesBroken {
        errors: count(Severity::Error),
        violations: count(Severity::Violation),
    };
    match format {
        CheckFormat::Text => {
            for f in &out {
                println!("{}", f.line());
            }
            if out.is_empty() {
                eprintln!("no findings: every file keeps its rules");
            }
        }
        CheckFormat::Json => {
            #[derive(Serialize)]
            struct Report<'a> {
                findings: &'a [FindingJson],
            }
            println!(
                "{}",
                serde_json::to_string_pretty(&Report { findings: &out })?
            );
        }
    }
    if broken.errors + broken.violations > 0 {
        return Err(broken.into());
    }
    Ok(())
}
