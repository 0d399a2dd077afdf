//! The suspension's page, for the President (GT-F5): GET `/leagues/{league}/{season}/suspension`
//! shows the form (the first day, the day play resumes, why); POST to it with `step=preview`
//! lists every match that would move, old day to new, and the played ones that stay; with
//! `step=apply` (the preview's confirm button) it moves them and comes back to the page.

use arbiter_core::rules::permissions::Action;
use askama::Template;
use axum::Form;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::Response;
use serde::Deserialize;

use crate::app::address::{Addressed, SeasonAddress};
use crate::app::respond::{bad_path, private, see_other};
use crate::app::site;
use crate::app::state::AppState;
use crate::http::auth::{Acting, Auth};
use crate::http::csrf;
use crate::http::error::WebError;
use crate::setup::setup_href;
use crate::suspension::{
    Applied, MoveLine, NotApplied, NotUndone, SeasonSchedule, SuspensionInput, applied, apply,
    find_applied, lines, load, parse_seen, prepare, undo,
};
use crate::ui::layout::{Layout, private_layout};
use crate::ui::link::{Link, league_href, season_href, suspension_href};
use crate::ui::words;

/// A match as the page lists it.
struct Line {
    division: String,
    round: u32,
    teams: String,
    href: String,
    from: String,
    to: String,
}

impl From<&MoveLine> for Line {
    fn from(m: &MoveLine) -> Line {
        Line {
            division: m.division.record.name.clone(),
            round: m.round,
            teams: m.teams(),
            href: m.href(),
            from: words::date(m.from),
            to: words::date(m.to),
        }
    }
}

/// The preview: what the suspension takes and moves, and the confirm form's token of what was
/// read.
struct Preview {
    lost: String,
    moves: Vec<Line>,
    played: Vec<Line>,
    seen: String,
    /// The two days previewed, `from/resume_on`: a confirm sent with others previews them.
    days: String,
}

/// A suspension applied, with the form that undoes it.
struct UndoForm {
    key: String,
    title: String,
    said: String,
    moved: Vec<String>,
}

impl UndoForm {
    fn of(s: &SeasonSchedule, a: &Applied) -> UndoForm {
        UndoForm {
            key: a.key(),
            title: format!(
                "From {} until play resumed on {}",
                words::date(a.suspension.from),
                words::date(a.suspension.resume_on)
            ),
            said: a.reason.clone(),
            moved: a
                .moved
                .iter()
                .map(|m| {
                    let v = &s.divisions[m.division];
                    format!(
                        "{}, round {}, {} v {}: back from {} to {}",
                        v.record.name,
                        m.round,
                        v.team_name(&m.home),
                        v.team_name(&m.away),
                        words::date(m.to),
                        words::date(m.from)
                    )
                })
                .collect(),
        }
    }
}

#[derive(Template)]
#[template(path = "suspension/suspension.html", whitespace = "minimize")]
struct SuspensionPage {
    layout: Layout,
    csrf: String,
    action: String,
    match_days: String,
    ends_on: String,
    history: String,
    from: String,
    resume_on: String,
    reason: String,
    why_max: usize,
    notice: Option<String>,
    problems: Vec<String>,
    preview: Option<Preview>,
    /// GT-F5: the suspensions applied and not undone, each with its undo form.
    applied: Vec<UndoForm>,
    /// The undo refused, and which suspension it was of.
    undo_problems: Vec<String>,
    undo_key: String,
}

/// The form: the two days, why, the step, and (to confirm) what the preview read.
#[derive(Debug, Default, Deserialize)]
pub struct SuspensionFields {
    #[serde(default)]
    from: String,
    #[serde(default)]
    resume_on: String,
    #[serde(default)]
    reason: String,
    #[serde(default)]
    step: String,
    #[serde(default)]
    seen: String,
    #[serde(default)]
    previewed: String,
    /// With `step=undo`: the suspension undone, `from/resume_on`.
    #[serde(default)]
    undo: String,
}

/// `?moved=12`: how many matches the suspension just moved.
#[derive(Debug, Default, Deserialize)]
pub struct Done {
    #[serde(default)]
    moved: Option<usize>,
    /// `?undone=12`: how many matches an undone suspension moved back.
    #[serde(default)]
    undone: Option<usize>,
}

/// What the page shows besides the form's values.
#[derive(Default)]
struct Shown {
    notice: Option<String>,
    problems: Vec<String>,
    preview: Option<Preview>,
    undo_problems: Vec<String>,
}

async fn guard(
    state: &AppState,
    auth: &Auth,
    path: Addressed<SeasonAddress>,
) -> Result<(SeasonSchedule, Acting), WebError> {
    let Path(SeasonAddress { league, season }) = path.map_err(|e| bad_path(&e))?;
    let (tree, acting) =
        site::league_officer(state, auth, &league, Action::SuspendSchedule).await?;
    Ok((load(state, &tree, &season).await?, acting))
}

async fn page(
    state: &AppState,
    auth: &Auth,
    s: &SeasonSchedule,
    f: &SuspensionFields,
    shown: Shown,
    status: StatusCode,
) -> Result<Response, WebError> {
    let applied = applied(state, s).await?;
    let (league, season) = (&s.league.slug, &s.season.slug);
    let page = SuspensionPage {
        layout: private_layout(
            &format!("Suspend the schedule (GT-F5): {}", s.season.name),
            vec![
                Link::new(league_href(league), &s.league.name),
                Link::new(season_href(league, season), &s.season.name),
                Link::new(setup_href(league), "Season set-up"),
            ],
        ),
        csrf: csrf::session_token(&auth.session).await?,
        action: suspension_href(league, season),
        match_days: s.match_days(),
        ends_on: words::date(s.calendar.ends_on),
        history: format!("{}/history", season_href(league, season)),
        from: f.from.trim().to_string(),
        resume_on: f.resume_on.trim().to_string(),
        reason: crate::results::context::shown(&f.reason),
        why_max: arbiter_core::season::suspend::WHY_MAX_CHARS,
        notice: shown.notice,
        problems: shown.problems,
        preview: shown.preview,
        applied: applied.iter().map(|a| UndoForm::of(s, a)).collect(),
        undo_problems: shown.undo_problems,
        undo_key: f.undo.clone(),
    };
    Ok(private(status, &page))
}

/// What the suspension takes of each division, in a sentence.
fn lost(s: &SeasonSchedule, plan: &arbiter_core::season::suspend::Plan) -> String {
    let days = |n: usize| match n {
        1 => "1 match day".to_string(),
        n => format!("{n} match days"),
    };
    let from = words::date(plan.suspension.from);
    // GT-F5: resumed later, the season ends later; said before anything moves.
    let ends = plan
        .season_ends_on
        .map(|last| {
            format!(
                " The last matches move past the season's last day, {}, so the season runs on to {}.",
                s.season.ends_on.map_or_else(|| "not set".into(), words::date),
                words::date(last)
            )
        })
        .unwrap_or_default();
    let said = match plan.match_days_lost.split_first() {
        Some((first, rest)) if rest.iter().all(|n| n == first) => format!(
            "The suspension takes {}, so every match still to play from {from} moves {} later, in the season's order (GT-F5).",
            days(*first),
            days(*first)
        ),
        _ => format!(
            "The suspension takes {}; every match still to play from {from} moves that many match days later, in the season's order (GT-F5).",
            s.divisions
                .iter()
                .zip(&plan.match_days_lost)
                .map(|(v, n)| format!("{} in {}", days(*n), v.record.name))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    format!("{said}{ends}")
}

/// The days of a plan as the confirm form carries them: `2026-11-16/2026-11-23`.
fn previewed(plan: &arbiter_core::season::suspend::Plan) -> String {
    format!("{}/{}", plan.suspension.from, plan.suspension.resume_on)
}

/// GET `/leagues/{league}/{season}/suspension`: the form, and what was just moved.
pub async fn suspension_page(
    State(state): State<AppState>,
    auth: Auth,
    path: Addressed<SeasonAddress>,
    done: Result<Query<Done>, QueryRejection>,
) -> Result<Response, WebError> {
    let (s, _) = guard(&state, &auth, path).await?;
    let done = done.map(|Query(d)| d).unwrap_or_default();
    let undone = done.undone.map(|n| {
        format!(
            "The suspension is undone (GT-F5): {} moved back to {} earlier day{}, each with the reason in its history; each school was told by one mail.",
            if n == 1 { "1 match".to_string() } else { format!("{n} matches") },
            if n == 1 { "its" } else { "their" },
            if n == 1 { "" } else { "s" }
        )
    });
    let notice = done.moved.map(|n| {
        format!(
            "The schedule is suspended and resumed (GT-F5): {} moved, each with the reason in its history; each school was told by one mail of its matches' new days.",
            if n == 1 {
                "1 match".to_string()
            } else {
                format!("{n} matches")
            }
        )
    });
    let shown = Shown {
        notice: notice.or(undone),
        ..Shown::default()
    };
    page(
        &state,
        &auth,
        &s,
        &SuspensionFields::default(),
        shown,
        StatusCode::OK,
    )
    .await
}

/// POST `/leagues/{league}/{season}/suspension`: `step=preview` lists what would move;
/// `step=apply`, with the preview's `seen`, moves it.
pub async fn suspend_schedule(
    State(state): State<AppState>,
    auth: Auth,
    path: Addressed<SeasonAddress>,
    Form(f): Form<SuspensionFields>,
) -> Result<Response, WebError> {
    let (s, acting) = guard(&state, &auth, path).await?;
    if f.step == "undo" {
        return undo_suspension(&state, &auth, &s, &f, &acting).await;
    }
    let applying = f.step == "apply";
    let input = SuspensionInput {
        from: f.from.clone(),
        resume_on: f.resume_on.clone(),
        reason: f.reason.clone(),
    };
    let refused = |problems: Vec<String>| Shown {
        problems,
        ..Shown::default()
    };
    let (plan, reason) = match prepare(&s, &input, applying) {
        Ok(x) => x,
        Err(problems) => {
            let problems = problems.into_iter().map(|p| p.message).collect();
            return page(
                &state,
                &auth,
                &s,
                &f,
                refused(problems),
                StatusCode::UNPROCESSABLE_ENTITY,
            )
            .await;
        }
    };
    let preview = |notice: Option<String>| {
        let (moves, played) = lines(&s, &plan);
        Shown {
            notice,
            problems: Vec::new(),
            preview: Some(Preview {
                lost: lost(&s, &plan),
                moves: moves.iter().map(Line::from).collect(),
                played: played.iter().map(Line::from).collect(),
                seen: s.seen_text(),
                days: previewed(&plan),
            }),
            undo_problems: Vec::new(),
        }
    };
    let Some(reason) = reason else {
        return page(&state, &auth, &s, &f, preview(None), StatusCode::OK).await;
    };
    // A confirm applies what its preview showed: other days are previewed first.
    if f.previewed != previewed(&plan) {
        let notice = Some(
            "The days are not the ones previewed, so nothing was moved yet: below is the preview of these days; confirm it if it is right (GT-F5).".to_string(),
        );
        return page(&state, &auth, &s, &f, preview(notice), StatusCode::OK).await;
    }
    // The preview said what was read; a suspension confirmed on another is not applied.
    let Some(seen) = parse_seen(&f.seen).filter(|v| !v.is_empty()) else {
        let problems = vec![
            "Preview the suspension first, then confirm it from the preview: nothing was moved (GT-F5).".to_string(),
        ];
        return page(
            &state,
            &auth,
            &s,
            &f,
            refused(problems),
            StatusCode::UNPROCESSABLE_ENTITY,
        )
        .await;
    };
    match apply(&state, &s, &plan, &reason, &seen, &acting).await {
        Ok(n) => Ok(see_other(&format!(
            "{}?moved={n}",
            suspension_href(&s.league.slug, &s.season.slug)
        ))),
        Err(NotApplied::Stale(m)) => {
            let notice = Some(format!(
                "{m} Below is the preview as the schedule stands now; confirm it if it is still right."
            ));
            page(&state, &auth, &s, &f, preview(notice), StatusCode::CONFLICT).await
        }
        Err(NotApplied::Failed(e)) => Err(e),
    }
}

/// `step=undo`: the suspension named by `undo` undone (GT-F5), back to the page with how many
/// matches moved back; refused, naming the match, when one was played or moved again since.
async fn undo_suspension(
    state: &AppState,
    auth: &Auth,
    s: &SeasonSchedule,
    f: &SuspensionFields,
    acting: &Acting,
) -> Result<Response, WebError> {
    let refused = |undo_problems: Vec<String>| Shown {
        undo_problems,
        ..Shown::default()
    };
    let (from, resume_on) = f.undo.split_once('/').unwrap_or((f.undo.as_str(), ""));
    let a = match find_applied(state, s, from, resume_on).await? {
        Ok(a) => a,
        Err(none) => {
            return page(
                state,
                auth,
                s,
                f,
                refused(vec![none]),
                StatusCode::UNPROCESSABLE_ENTITY,
            )
            .await;
        }
    };
    match undo(state, s, &a, &f.reason, acting).await {
        Ok((plan, _)) => Ok(see_other(&format!(
            "{}?undone={}",
            suspension_href(&s.league.slug, &s.season.slug),
            plan.shifts.len()
        ))),
        Err(NotUndone::Refused(problems)) => {
            page(
                state,
                auth,
                s,
                f,
                refused(problems),
                StatusCode::UNPROCESSABLE_ENTITY,
            )
            .await
        }
        Err(NotUndone::Stale(m)) => {
            page(state, auth, s, f, refused(vec![m]), StatusCode::CONFLICT).await
        }
        Err(NotUndone::Failed(e)) => Err(e),
    }
}
