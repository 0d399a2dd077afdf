//! `arbiter ratings FILE`: rates a competition file's games (core's `rated_games` and `rating`)
//! and prints each player's line: a table, JSON or CSV; or the FIDE rating report as TRF.

use std::fmt::Write as _;

use anyhow::{Result, bail};
use arbiter_core::rating::rated_games::RatedCompetition;
use arbiter_core::rating::rollover::{self, NextSeason};
use arbiter_core::rating::{Standing, Summary, System};
use arbiter_core::record::model::Competition;
use arbiter_formats::{csv, trf};
use serde_json::{Value, json};

use crate::load::Loaded;
use crate::render::{printable, truncate};

/// What `arbiter ratings` writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum RatingsFormat {
    /// A table for the terminal.
    Table,
    /// `{"system", "players", "not_rated"}`.
    Json,
    /// One row a player.
    Csv,
    /// The FIDE rating report: the event as TRF-2026, ratings before it in `001`.
    Trf,
}

/// The system that rates: `--system`, else the ruleset's; FIDE's B.02 for a rating report,
/// which another `--system` cannot make.
pub fn system(
    named: Option<SystemName>,
    format: RatingsFormat,
    from_rules: System,
) -> Result<System> {
    match (format, named) {
        (RatingsFormat::Trf, None | Some(SystemName::Fide)) => {
            Ok(SystemName::Fide.system(from_rules))
        }
        (RatingsFormat::Trf, Some(other)) => bail!(
            "a FIDE rating report (--format trf) rates by B.02; leave out --system {}, or give --system fide",
            other.code()
        ),
        (_, Some(s)) => Ok(s.system(from_rules)),
        (_, None) => Ok(from_rules),
    }
}

/// What `render` wrote, and what to say about it on the side.
pub struct Rendered {
    /// The output.
    pub bytes: Vec<u8>,
    /// Warnings for standard error.
    pub warnings: Vec<String>,
}

/// Which system rates the file: `--system`, else the ruleset's `[rating] system`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum SystemName {
    /// FIDE Handbook B.02.
    Fide,
    /// The league's own Elo (the ruleset's settings, or the defaults of docs/ratings.md).
    League,
    /// US Chess.
    Uscf,
    /// Glicko-2.
    Glicko2,
}

impl SystemName {
    /// The setting's spelling, as `--system` takes it.
    fn code(self) -> &'static str {
        match self {
            SystemName::Fide => "fide",
            SystemName::League => "league",
            SystemName::Uscf => "uscf",
            SystemName::Glicko2 => "glicko2",
        }
    }

    /// The system, with the ruleset's settings when it names the same one.
    pub fn system(self, from_rules: System) -> System {
        System::named(self.code(), from_rules).unwrap_or(from_rules)
    }
}

/// One player's line, with the names the file gives.
struct Line<'a> {
    player_id: &'a str,
    name: &'a str,
    team_id: &'a str,
    summary: Summary,
}

fn lines<'a>(c: &'a Competition, rated: &'a RatedCompetition) -> Vec<Line<'a>> {
    let players = c.teams.iter().flat_map(|t| &t.players);
    rated
        .rows()
        .zip(players)
        .map(|((team, id, summary), p)| Line {
            player_id: &id.0,
            name: &p.name,
            team_id: &team.0,
            summary,
        })
        .collect()
}

/// Hundredths are as fine as any rating report prints; the sum itself is exact for FIDE.
fn hundredths(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

fn published(s: &Standing) -> Option<i64> {
    s.rated.then(|| s.published())
}

/// The rating list in `format`, or the rating report.
pub fn render(
    loaded: &Loaded,
    rated: &RatedCompetition,
    format: RatingsFormat,
) -> Result<Rendered> {
    let c = &loaded.competition;
    let lines = lines(c, rated);
    let text = match format {
        RatingsFormat::Trf => {
            let report = trf::rating_report(c, &loaded.rules, &loaded.tiebreaks, rated);
            return Ok(Rendered {
                bytes: trf::write(&report.document),
                warnings: report.warnings,
            });
        }
        RatingsFormat::Json => serde_json::to_string_pretty(&json(rated, &lines))? + "\n",
        RatingsFormat::Csv => {
            let mut out = csv::Writer::new();
            let header = [
                "player_id",
                "name",
                "team_id",
                "before",
                "games",
                "score",
                "expected",
                "change",
                "after",
                "k",
                "provisional",
            ];
            out.record(header);
            for l in &lines {
                let s = &l.summary;
                let number = |n: Option<i64>| n.map(|n| n.to_string()).unwrap_or_default();
                out.record([
                    l.player_id.to_string(),
                    l.name.to_string(),
                    l.team_id.to_string(),
                    number(published(&s.before)),
                    s.games.to_string(),
                    s.score.to_string(),
                    hundredths(s.expected).to_string(),
                    hundredths(s.change).to_string(),
                    number(published(&s.after)),
                    s.k.map(|k| k.to_string()).unwrap_or_default(),
                    s.after.provisional.to_string(),
                ]);
            }
            out.finish()
        }
        RatingsFormat::Table => table(rated, &lines),
    };
    Ok(Rendered {
        bytes: text.into_bytes(),
        warnings: Vec::new(),
    })
}

fn json(rated: &RatedCompetition, lines: &[Line<'_>]) -> Value {
    let players: Vec<Value> = lines
        .iter()
        .map(|l| {
            let s = &l.summary;
            json!({
                "player_id": l.player_id,
                "name": l.name,
                "team_id": l.team_id,
                "before": published(&s.before),
                "games": s.games,
                "score": s.score,
                "expected": hundredths(s.expected),
                "change": hundredths(s.change),
                "after": published(&s.after),
                "k": s.k,
                "provisional": s.after.provisional,
            })
        })
        .collect();
    let not_rated: Vec<Value> = rated
        .games
        .not_rated
        .iter()
        .map(|(place, why)| {
            json!({
                "round": place.round,
                "home_team_id": place.home.0,
                "away_team_id": place.away.0,
                "board": place.board,
                "rule": why.rule(),
                "reason": why.to_string(),
            })
        })
        .collect();
    json!({
        "system": rated.replay.system.code(),
        "players": players,
        "not_rated": not_rated,
    })
}

fn table(rated: &RatedCompetition, lines: &[Line<'_>]) -> String {
    let name_w = lines
        .iter()
        .map(|l| l.name.chars().count())
        .max()
        .unwrap_or(0)
        .clamp(6, 28);
    let team_w = lines
        .iter()
        .map(|l| l.team_id.chars().count())
        .max()
        .unwrap_or(0)
        .clamp(4, 12);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:<name_w$} {:<team_w$} {:>6} {:>5} {:>5} {:>6} {:>7} {:>6} {:>3}",
        "Player", "Team", "Before", "Games", "Score", "Exp", "Change", "After", "K"
    );
    for l in lines {
        let s = &l.summary;
        let rating = |st: &Standing| match published(st) {
            Some(r) => arbiter_core::record::model::rating_text(r, st.provisional),
            None => "-".into(),
        };
        let _ = writeln!(
            out,
            "{:<name_w$} {:<team_w$} {:>6} {:>5} {:>5} {:>6.2} {:>+7.2} {:>6} {:>3}",
            truncate(&printable(l.name), name_w),
            truncate(&printable(l.team_id), team_w),
            rating(&s.before),
            s.games,
            s.score,
            s.expected,
            s.change,
            rating(&s.after),
            s.k.map(|k| k.to_string()).unwrap_or_default(),
        );
    }
    let _ = writeln!(
        out,
        "\n{} system; {} rated games, {} boards not rated.",
        rated.replay.system.code(),
        rated
            .games
            .periods
            .iter()
            .map(|p| p.games.len())
            .sum::<usize>(),
        rated.games.not_rated.len()
    );
    out
}

/// GT-R1, GT-R2, GT-R3: each player's rating at the start of the next season, from the
/// league's Elo at the end of this one, with the rule that decided it: the list an officer reads
/// before a season rolls over. Only the league's system has a next season.
pub fn next_season(
    loaded: &Loaded,
    rated: &RatedCompetition,
    format: RatingsFormat,
) -> Result<Rendered> {
    let System::League(league) = rated.replay.system else {
        bail!(
            "--next-season carries the league's own ratings into the next season (GT-R1, GT-R2, GT-R3); these games are rated by {}. Give --system league, or a ruleset whose [rating] system is \"league\"",
            rated.replay.system.code()
        );
    };
    let lines = lines(&loaded.competition, rated);
    let rows: Vec<(&Line<'_>, NextSeason, String)> = lines
        .iter()
        .map(|l| {
            let next = rollover::next_season(&l.summary.after, &league);
            let reason = next.reason(&l.summary.after);
            (l, next, reason)
        })
        .collect();
    let shown = |rating: u32, provisional: bool| {
        arbiter_core::record::model::rating_text(rating, provisional)
    };
    let text = match format {
        RatingsFormat::Json => {
            let players: Vec<Value> = rows
                .iter()
                .map(|(l, next, reason)| {
                    json!({
                        "player_id": l.player_id,
                        "name": l.name,
                        "team_id": l.team_id,
                        "end": published(&l.summary.after),
                        "end_provisional": l.summary.after.provisional,
                        "rating": next.rating,
                        "provisional": next.provisional,
                        "rule": next.rule,
                        "reason": reason,
                    })
                })
                .collect();
            serde_json::to_string_pretty(&json!({"system": "league", "next_season": players}))?
                + "\n"
        }
        RatingsFormat::Csv => {
            let mut out = csv::Writer::new();
            out.record([
                "player_id",
                "name",
                "team_id",
                "end",
                "next",
                "rule",
                "reason",
            ]);
            for (l, next, reason) in &rows {
                out.record([
                    l.player_id.to_string(),
                    l.name.to_string(),
                    l.team_id.to_string(),
                    shown(
                        u32::try_from(l.summary.after.published().max(0)).unwrap_or(0),
                        l.summary.after.provisional,
                    ),
                    shown(next.rating, next.provisional),
                    next.rule.to_string(),
                    reason.clone(),
                ]);
            }
            out.finish()
        }
        RatingsFormat::Table => {
            let mut out = String::new();
            let _ = writeln!(
                out,
                "{:<28} {:<12} {:>7} {:>7}  rule",
                "player", "team", "end", "next"
            );
            for (l, next, reason) in &rows {
                let end = shown(
                    u32::try_from(l.summary.after.published().max(0)).unwrap_or(0),
                    l.summary.after.provisional,
                );
                let _ = writeln!(
                    out,
                    "{:<28} {:<12} {:>7} {:>7}  {}",
                    truncate(&printable(l.name), 28),
                    truncate(&printable(l.team_id), 12),
                    end,
                    shown(next.rating, next.provisional),
                    reason
                );
            }
            out
        }
        RatingsFormat::Trf => bail!(
            "--next-season prints a list (table, json or csv), not a rating report; leave out --format trf"
        ),
    };
    Ok(Rendered {
        bytes: text.into_bytes(),
        warnings: Vec::new(),
    })
}
