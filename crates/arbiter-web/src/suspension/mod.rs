//! GT-F5: in severe weather the President suspends the schedule and resumes it later; every
//! match still to play from the first day shifts forward by the match days lost (core's
//! `suspend::plan`).
//!
//! [`load`] is the one reading of a season's divisions and school calendar, [`prepare`] reads
//! what was sent and asks core, and [`apply`] is the one write path, for the page (`page`) and
//! the API (`api::suspension`): every match moved in one transaction (none when a division
//! changed after it was read), each a change in the history with GT-F5's reason, and each school
//! told by one mail that lists every one of its matches' new days.

pub mod page;

use std::sync::Arc;

use arbiter_core::TeamId;
use arbiter_core::record::calendar::{SchoolCalendar, weekday_list};
use arbiter_core::record::text::Reason;
use arbiter_core::season::suspend::{self, Division, Plan, Shift, Suspension};
use arbiter_store::{
    CompetitionId, HistoryAction, HistoryFilter, League, MatchMove, Season, StoreError,
};
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

    /// Each division as core's `suspend` reads it.
    pub fn for_core(&self) -> Vec<Division<'_>> {
        self.divisions
            .iter()
            .map(|v| Division {
                competition: &v.competition,
                rules: &v.rules,
            })
            .collect()
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
    let divisions = s.for_core();
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

/// A suspension applied and not undone, as the history of its matches keeps it (GT-F5).
#[derive(Debug, Clone)]
pub struct Applied {
    pub suspension: Suspension,
    /// When it was applied, by whom, and why, as the history says.
    pub reason: String,
    /// Each match it moved: from its earlier day to the one it was moved to.
    pub moved: Vec<Shift>,
}

impl Applied {
    /// How a form names it: `from/resume_on`.
    pub fn key(&self) -> String {
        format!("{}/{}", self.suspension.from, self.suspension.resume_on)
    }
}

/// The suspensions of the season not undone, newest first, read from the history of its
/// matches: each moved match's row keeps GT-F5's words with the two days, its round and teams,
/// and its day before and after.
pub async fn applied(state: &AppState, s: &SeasonSchedule) -> Result<Vec<Applied>, WebError> {
    let rows = state
        .store()
        .history(&HistoryFilter {
            season: Some(s.season.id),
            ..HistoryFilter::default()
        })
        .await?;
    let moves = rows.iter().filter(|h| h.action == HistoryAction::MoveMatch);
    // Each undoing and its row: it undoes the moves of its days made before it, so the same
    // days suspended again afterwards are a suspension of their own.
    let undone: Vec<(Suspension, i64)> = moves
        .clone()
        .filter_map(|h| {
            let s = h.reason.as_deref().and_then(Suspension::undone_by)?;
            Some((s, h.id))
        })
        .collect();
    let mut out: Vec<Applied> = Vec::new();
    for h in moves {
        let Some(suspension) = h.reason.as_deref().and_then(Suspension::of_reason) else {
            continue;
        };
        if undone.iter().any(|(u, at)| *u == suspension && *at > h.id) {
            continue;
        }
        let Some(division) = s.divisions.iter().position(|v| Some(v.id) == h.competition) else {
            continue;
        };
        let field = |json: &Option<serde_json::Value>, key: &str| {
            json.as_ref()
                .and_then(|j| j.get(key))
                .and_then(|v| v.as_str())
                .map(str::to_string)
        };
        let day = |json: &Option<serde_json::Value>| {
            field(json, "date").and_then(|d| d.parse::<Date>().ok())
        };
        let round = h
            .after
            .as_ref()
            .and_then(|j| j.get("round"))
            .and_then(serde_json::Value::as_u64)
            .and_then(|r| u32::try_from(r).ok());
        let (Some(round), Some(home), Some(away), Some(from), Some(to)) = (
            round,
            field(&h.after, "home"),
            field(&h.after, "away"),
            day(&h.before),
            day(&h.after),
        ) else {
            continue;
        };
        let shift = Shift {
            division,
            round,
            home: TeamId(home),
            away: TeamId(away),
            from,
            to,
            start: None,
        };
        match out.iter_mut().find(|a| a.suspension == suspension) {
            Some(a) => a.moved.push(shift),
            None => out.push(Applied {
                suspension,
                reason: format!(
                    "{}, by {}: {}",
                    crate::ui::words::timestamp_in(h.at, &s.league.time_zone),
                    h.actor.as_deref().unwrap_or("the command line"),
                    h.reason.as_deref().unwrap_or_default()
                ),
                moved: vec![shift],
            }),
        }
    }
    Ok(out)
}

/// GT-F5's undo: every match `applied` moved goes back to its earlier day in one transaction
/// (none when a division changed after it was read, or core's `suspend::undo` refuses: a match
/// played or moved again since), each a new version in the history with the reason "suspension
/// of … undone"; each school is told once, of every one of its matches' days. Gives the moves
/// back, as a plan of the suspension's days.
pub async fn undo(
    state: &AppState,
    s: &SeasonSchedule,
    applied: &Applied,
    why: &str,
    acting: &Acting,
) -> Result<(Plan, Reason), NotUndone> {
    let reason = applied
        .suspension
        .undo_reason(why)
        .map_err(|p| NotUndone::Refused(vec![p.to_string()]))?;
    let divisions = s.for_core();
    let back = suspend::undo(&divisions, &applied.moved)
        .map_err(|ps| NotUndone::Refused(ps.iter().map(ToString::to_string).collect()))?;
    let plan = Plan {
        suspension: applied.suspension,
        match_days_lost: Vec::new(),
        shifts: back,
        played: Vec::new(),
        season_ends_on: None,
    };
    let headline = format!(
        "The suspension of the schedule from {} (play resumed on {}) is undone (GT-F5)",
        crate::ui::words::date(applied.suspension.from),
        crate::ui::words::date(applied.suspension.resume_on)
    );
    move_and_tell(state, s, &plan, &reason, &s.seen(), acting, &headline)
        .await
        .map_err(|e| match e {
            NotApplied::Stale(m) => NotUndone::Stale(m),
            NotApplied::Failed(e) => NotUndone::Failed(e),
        })?;
    Ok((plan, reason))
}

/// The suspension from `from` until `resume_on` (`YYYY-MM-DD` each) applied and not undone in
/// the season, or why there is none to undo.
pub async fn find_applied(
    state: &AppState,
    s: &SeasonSchedule,
    from: &str,
    resume_on: &str,
) -> Result<Result<Applied, String>, WebError> {
    let key = format!("{}/{}", from.trim(), resume_on.trim());
    Ok(applied(state, s)
        .await?
        .into_iter()
        .find(|a| a.key() == key)
        .ok_or_else(|| {
            format!(
                "No suspension from {} until {} is applied and not undone in {}, so there is nothing to undo (GT-F5).",
                from.trim(),
                resume_on.trim(),
                s.season.name
            )
        }))
}

/// Why a suspension was not undone.
#[derive(Debug)]
pub enum NotUndone {
    /// Core refuses it (a match played or moved again since), or the reason is missing: each
    /// problem a sentence naming the match.
    Refused(Vec<String>),
    /// A division changed after it was read: nothing was moved.
    Stale(String),
    Failed(WebError),
}

/// Why a suspension was not applied.
#[derive(Debug)]
pub enum NotApplied {
    /// A division changed after it was read: nothing was moved.
    Stale(String),
    Failed(WebError),
}

/// The one write path of GT-F5: every match of `plan` moved in one transaction, each with
/// `reason` in the history, if every division is still as `seen`; then each school is told by
/// one mail of all its matches' new days. Says how many moved.
pub async fn apply(
    state: &AppState,
    s: &SeasonSchedule,
    plan: &Plan,
    reason: &Reason,
    seen: &[(CompetitionId, i64)],
    acting: &Acting,
) -> Result<usize, NotApplied> {
    let headline = "The schedule is suspended and resumed later (GT-F5)";
    move_and_tell(state, s, plan, reason, seen, acting, headline).await
}

/// The shifts of `plan` made in one transaction, then each school told once by mail, its mail
/// opening with `headline`.
async fn move_and_tell(
    state: &AppState,
    s: &SeasonSchedule,
    plan: &Plan,
    reason: &Reason,
    seen: &[(CompetitionId, i64)],
    acting: &Acting,
    headline: &str,
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
            return Err(NotApplied::Stale(arbiter_core::record::text::sentence(&m)));
        }
        Err(e) => return Err(NotApplied::Failed(WebError::from_write(e))),
    }
    // GT-F5: each school told once, of every one of its matches' new days.
    notify::tell_suspension(state, &told, headline, reason.as_str(), Some(&acting.email)).await;
    Ok(moves.len())
}

/// `arbiter schedule suspend --undo`: the suspension of `league`'s `season` from `from` until
/// `resume_on` undone as the account `email` (the table's `SuspendSchedule`), through the page's
/// own write path; the lines to print (each match moved back), or why not.
pub async fn undo_suspension_as(
    state: &AppState,
    email: &str,
    (league, season): (&str, &str),
    (from, resume_on): (Date, Date),
    reason: &str,
) -> Result<Vec<String>, String> {
    let (tree, acting) = crate::app::site::acting_as(
        state,
        email,
        league,
        arbiter_core::rules::permissions::Action::SuspendSchedule,
    )
    .await?;
    let s = load(state, &tree, season).await.map_err(|e| e.message())?;
    let a = find_applied(state, &s, &from.to_string(), &resume_on.to_string())
        .await
        .map_err(|e| e.message())??;
    let (plan, _) = undo(state, &s, &a, reason, &acting)
        .await
        .map_err(|e| match e {
            NotUndone::Refused(problems) => problems.join("\n"),
            NotUndone::Stale(m) => m,
            NotUndone::Failed(e) => e.message(),
        })?;
    let (back, _) = lines(&s, &plan);
    Ok(back
        .iter()
        .map(|m| {
            format!(
                "{}, round {}, {}: {} -> {}",
                m.division.record.name,
                m.round,
                m.teams(),
                m.from,
                m.to
            )
        })
        .collect())
}
