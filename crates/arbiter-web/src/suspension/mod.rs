//! GT-F5: in severe weather the President suspends the schedule and resumes it later; every
//! match still to play from the first day shifts forward by the match days lost (core's
//! `suspend::plan`).
//!
//! [`load`] is the one reading of a season's divisions and school calendar, [`prepare`] reads
//! what was sent and asks core, and [`apply`] is the one write path, for the page (`page`) and
//! the API (`api::suspension`): every match moved in one transaction (none when a division
//! changed after it was read), each a change in the history with GT-F5's reason, and both
//! schools of each told by mail as a single move tells them.

pub mod page;

use std::sync::Arc;

use arbiter_core::TeamId;
use arbiter_core::calendar::{SchoolCalendar, weekday_list};
use arbiter_core::suspend::{self, Division, Plan, Suspension};
use arbiter_core::text::Reason;
use arbiter_store::{CompetitionId, League, MatchMove, Season, StoreError};
use jiff::civil::Date;

use crate::app::site::LeagueTree;
use crate::app::state::AppState;
use crate::app::view::CompetitionView;
use crate::http::auth::Acting;
use crate::http::error::WebError;
use crate::results::{context, notify};
use crate::ui::link::{Link, suspension_href};

/// A season as a suspension reads it: its divisions, each as the pages draw it, and its school
/// calendar.
pub struct SeasonSchedule {
    pub league: League,
    pub season: Season,
    pub divisions: Vec<Arc<CompetitionView>>,
    pub calendar: SchoolCalendar,
}

impl SeasonSchedule {
    /// Each division's competition version as read: nothing is moved if one has changed since.
    pub fn seen(&self) -> Vec<(CompetitionId, i64)> {
        self.divisions
            .iter()
            .map(|v| (v.id, v.stored.version))
            .collect()
    }

    /// [`SeasonSchedule::seen`] as the confirm form carries it: `id:version,…`.
    pub fn seen_text(&self) -> String {
        self.seen()
            .iter()
            .map(|(id, v)| format!("{}:{v}", id.0))
            .collect::<Vec<_>>()
            .join(",")
    }

    /// The weekdays matches are set on in the season's divisions, as a sentence names them
    /// (`Monday, Wednesday`).
    pub fn match_days(&self) -> String {
        weekday_list(
            self.divisions
                .iter()
                .flat_map(|v| v.rules.match_days.iter()),
        )
    }
}

/// Reads [`SeasonSchedule::seen_text`] back; `None` when it is not one.
pub fn parse_seen(text: &str) -> Option<Vec<(CompetitionId, i64)>> {
    text.split(',')
        .filter(|s| !s.trim().is_empty())
        .map(|pair| {
            let (id, v) = pair.trim().split_once(':')?;
            Some((CompetitionId(id.parse().ok()?), v.parse().ok()?))
        })
        .collect()
}

/// The season `season` of `tree`, its divisions and calendar; 404 (with the league's seasons)
/// for a season it does not have, 422 for one whose first and last days are not set.
pub async fn load(
    state: &AppState,
    tree: &LeagueTree,
    season: &str,
) -> Result<SeasonSchedule, WebError> {
    let Some((found, records)) = tree.seasons.iter().find(|(s, _)| s.slug == season) else {
        return Err(WebError::NotFound {
            message: format!(
                "{} has no season “{season}”, so there is no schedule of it to suspend (GT-F5). Its seasons are below.",
                tree.league.name
            ),
            links: tree
                .seasons
                .iter()
                .map(|(s, _)| Link::new(suspension_href(&tree.league.slug, &s.slug), &s.name))
                .collect(),
        });
    };
    let Some(calendar) = state.store().school_calendar(found).await? else {
        return Err(WebError::Refused(format!(
            "The season {} has no first and last days, so its match days are not known and no match can be shifted (GT-F5); give its days on the season set-up page first.",
            found.name
        )));
    };
    let mut divisions = Vec::new();
    for r in records {
        divisions.push(state.view(&tree.league.slug, &found.slug, &r.slug).await?);
    }
    Ok(SeasonSchedule {
        league: tree.league.clone(),
        season: found.clone(),
        divisions,
        calendar,
    })
}

/// A suspension as a form or a JSON body sends it.
#[derive(Debug, Clone, Default)]
pub struct SuspensionInput {
    /// The first day of the suspension, `YYYY-MM-DD`.
    pub from: String,
    /// The day play resumes, `YYYY-MM-DD`.
    pub resume_on: String,
    /// Why: the severe weather.
    pub reason: String,
}

/// One problem with what was sent: the field it is in (`from`, `resume_on`, `reason`, or
/// `schedule` for the plan), and the sentence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub field: &'static str,
    pub message: String,
}

/// What was sent, read and planned: the plan, and the reason each moved match keeps when it is
/// to be applied (`applying`: the reason is required then, not for a preview). Every problem
/// otherwise, with its field.
pub fn prepare(
    s: &SeasonSchedule,
    input: &SuspensionInput,
    applying: bool,
) -> Result<(Plan, Option<Reason>), Vec<Problem>> {
    let day = |field: &'static str, what: &str, text: &str| {
        text.trim().parse::<Date>().map_err(|_| Problem {
            field,
            message: format!(
                "{what}: “{}” is not a date; write it as YYYY-MM-DD, e.g. 2027-01-18 (GT-F5).",
                text.trim()
            ),
        })
    };
    let from = day("from", "The first day of the suspension", &input.from);
    let resume_on = day("resume_on", "The day play resumes", &input.resume_on);
    let (from, resume_on) = match (from, resume_on) {
        (Ok(a), Ok(b)) => (a, b),
        (a, b) => return Err([a.err(), b.err()].into_iter().flatten().collect()),
    };
    let suspension = Suspension { from, resume_on };
    let mut problems = Vec::new();
    let reason = if applying {
        suspension
            .reason(&input.reason)
            .map_err(|e| {
                problems.push(Problem {
                    field: "reason",
                    message: e.to_string(),
                })
            })
            .ok()
    } else {
        None
    };
    let divisions: Vec<Division<'_>> = s
        .divisions
        .iter()
        .map(|v| Division {
            competition: &v.competition,
            rules: &v.rules,
        })
        .collect();
    let plan = suspend::plan(&divisions, &s.calendar, suspension).map_err(|found| {
        for p in found {
            let field = match p {
                suspend::Problem::ResumesTooSoon { .. } => "resume_on",
                suspend::Problem::NoReason | suspend::Problem::ReasonTooLong(_) => "reason",
                _ => "schedule",
            };
            problems.push(Problem {
                field,
                message: p.to_string(),
            });
        }
    });
    match plan {
        Ok(plan) if problems.is_empty() => Ok((plan, reason)),
        _ => Err(problems),
    }
}

/// One moved match as the page and the API say it.
#[derive(Debug, Clone)]
pub struct MoveLine {
    pub division: Arc<CompetitionView>,
    pub round: u32,
    pub home: TeamId,
    pub away: TeamId,
    pub from: Date,
    /// The day it moves to; for a played match, the day it stays on.
    pub to: Date,
}

impl MoveLine {
    /// `Start Spartans v Scott`.
    pub fn teams(&self) -> String {
        format!(
            "{} v {}",
            self.division.team_name(&self.home),
            self.division.team_name(&self.away)
        )
    }

    pub fn href(&self) -> String {
        self.division.match_href(self.round, &self.home)
    }
}

/// The plan's moves, then its played matches that stay, each with its division's view.
pub fn lines(s: &SeasonSchedule, plan: &Plan) -> (Vec<MoveLine>, Vec<MoveLine>) {
    let line = |division: usize, round: u32, home: &TeamId, away: &TeamId, from, to| MoveLine {
        division: s.divisions[division].clone(),
        round,
        home: home.clone(),
        away: away.clone(),
        from,
        to,
    };
    let moves = plan
        .shifts
        .iter()
        .map(|m| line(m.division, m.round, &m.home, &m.away, m.from, m.to))
        .collect();
    let played = plan
        .played
        .iter()
        .map(|m| line(m.division, m.round, &m.home, &m.away, m.on, m.on))
        .collect();
    (moves, played)
}

/// Why a suspension was not applied.
#[derive(Debug)]
pub enum NotApplied {
    /// A division changed after it was read: nothing was moved.
    Stale(String),
    Failed(WebError),
}

/// The one write path of GT-F5: every match of `plan` moved in one transaction, each with
/// `reason` in the history, if every division is still as `seen`; then both schools of each
/// match are told by mail. Says how many moved.
pub async fn apply(
    state: &AppState,
    s: &SeasonSchedule,
    plan: &Plan,
    reason: &Reason,
    seen: &[(CompetitionId, i64)],
    acting: &Acting,
) -> Result<usize, NotApplied> {
    let mut moves = Vec::new();
    let mut told = Vec::new();
    for m in &plan.shifts {
        let view = &s.divisions[m.division];
        let ctx = context::load(
            state,
            &s.league.slug,
            &s.season.slug,
            &view.record.slug,
            m.round,
            &m.home.0,
        )
        .await
        .map_err(NotApplied::Failed)?;
        moves.push(MatchMove {
            id: ctx.id,
            to: m.to,
            start: m.start,
        });
        told.push(ctx);
    }
    match state
        .store()
        .move_matches(
            &moves,
            seen,
            plan.season_ends_on.map(|last| (s.season.id, last)),
            reason.as_str(),
            &acting.actor(),
        )
        .await
    {
        Ok(()) => state.invalidate(),
        Err(StoreError::Stale(m)) => {
            return Err(NotApplied::Stale(arbiter_core::text::sentence(&m)));
        }
        Err(e) => return Err(NotApplied::Failed(WebError::from_write(e))),
    }
    // GT-F5 as GT-M2: both schools are told of each new day.
    for ctx in &told {
        notify::tell_move(state, ctx, "GT-F5", reason.as_str(), Some(&acting.email)).await;
    }
    Ok(moves.len())
}
