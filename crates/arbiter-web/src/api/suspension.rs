//! GT-F5 in the API: `POST /api/v1/leagues/{league}/{season}/suspension` previews or applies the
//! suspension of a season's schedule, with an API token whose role the table allows (the
//! President), or undoes one applied before (`undo`). The same reading and write paths as the
//! page (`suspension::prepare`, `apply`, `undo`).

use arbiter_core::record::text::Reason;
use arbiter_core::rules::permissions::Action;
use arbiter_core::season::suspend::Plan;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use serde::{Deserialize, Serialize};
use utoipa::{OpenApi, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::api::answer::{
    ApiError, ApiResult, ErrorAnswer, InvalidAnswer, ProblemJson, json_response, read_body,
    unreadable_body,
};
use crate::api::write::begin_season;
use crate::app::address::{Addressed, SeasonAddress};
use crate::app::state::AppState;
use crate::http::auth::Acting;
use crate::http::error::WebError;
use crate::suspension::{
    MoveLine, NotApplied, NotUndone, Problem, SeasonSchedule, SuspensionInput, apply, find_applied,
    lines, load, prepare, undo,
};

#[derive(OpenApi)]
#[openapi(tags((name = "schedule", description = "The President's suspension of a season's schedule in severe weather (GT-F5): every match still to play from its first day shifted by the match days it takes")))]
struct SuspensionDoc;

/// The suspension's route, registered on the router and in the OpenAPI document together.
pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::with_openapi(SuspensionDoc::openapi()).routes(routes!(suspend))
}

/// A suspension to preview or apply (GT-F5).
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SuspensionBody {
    /// The first day of the suspension, `YYYY-MM-DD`.
    #[serde(default)]
    pub from: String,
    /// The day play resumes, `YYYY-MM-DD`; after `from`.
    #[serde(default)]
    pub resume_on: String,
    /// Why (the severe weather); required to apply, kept in the history of every match that
    /// moves after GT-F5's words. At most 915 characters.
    #[serde(default)]
    // The literal is `arbiter_core::season::suspend::WHY_MAX_CHARS`.
    #[schema(max_length = 915)]
    pub reason: Option<String>,
    /// `true`: say what would move and move nothing.
    #[serde(default)]
    pub preview: bool,
    /// `true`: undo the suspension from `from` until `resume_on` applied before: every match
    /// it moved goes back to its earlier day, with `reason` (required) in its history. Refused
    /// when one of them was played or moved again since.
    #[serde(default)]
    pub undo: bool,
}

/// What a suspension does to the season.
#[derive(Debug, Serialize, ToSchema)]
pub struct SuspensionJson {
    pub league: String,
    pub season: String,
    /// The first day of the suspension, `YYYY-MM-DD`.
    pub from: String,
    /// The day play resumes, `YYYY-MM-DD`.
    pub resume_on: String,
    /// Whether the matches were moved (`false` for a preview).
    pub applied: bool,
    /// The reason each moved match keeps in its history, when applied.
    pub reason: Option<String>,
    /// For each division, the match days the suspension takes: its matches shift by as many.
    pub divisions: Vec<DivisionJson>,
    /// Every match that moves, in the order they were to be played.
    pub moves: Vec<MoveJson>,
    /// The matches on or after `from` that have a result: they stay.
    pub played: Vec<PlayedJson>,
    /// The season's new last day, `YYYY-MM-DD`, when matches move past the one it had; `null`
    /// when it keeps it.
    pub season_ends_on: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct DivisionJson {
    /// The competition's slug.
    pub competition: String,
    pub name: String,
    pub match_days_lost: usize,
}

/// A match that moves.
#[derive(Debug, Serialize, ToSchema)]
pub struct MoveJson {
    /// The competition's slug.
    pub competition: String,
    pub round: u32,
    /// The home team's id.
    pub home: String,
    /// The visiting team's id.
    pub away: String,
    /// `Start Spartans v Scott`.
    pub teams: String,
    /// The day it was set for, `YYYY-MM-DD`.
    pub from: String,
    /// The day it moves to, `YYYY-MM-DD`.
    pub to: String,
    /// The match's page.
    pub url: String,
}

/// A match with a result, which stays.
#[derive(Debug, Serialize, ToSchema)]
pub struct PlayedJson {
    /// The competition's slug.
    pub competition: String,
    pub round: u32,
    pub home: String,
    pub away: String,
    pub teams: String,
    /// Its day, `YYYY-MM-DD`.
    pub on: String,
    pub url: String,
}

fn move_json(m: &MoveLine) -> MoveJson {
    MoveJson {
        competition: m.division.record.slug.clone(),
        round: m.round,
        home: m.home.0.clone(),
        away: m.away.0.clone(),
        teams: m.teams(),
        from: m.from.to_string(),
        to: m.to.to_string(),
        url: m.href(),
    }
}

fn played_json(m: &MoveLine) -> PlayedJson {
    PlayedJson {
        competition: m.division.record.slug.clone(),
        round: m.round,
        home: m.home.0.clone(),
        away: m.away.0.clone(),
        teams: m.teams(),
        on: m.from.to_string(),
        url: m.href(),
    }
}

/// 422: each problem with its field and GT-F5.
fn refused(problems: Vec<Problem>) -> ApiError {
    ApiError::invalid(
        "invalid",
        problems
            .into_iter()
            .map(|p| ProblemJson {
                rule: Some("GT-F5".into()),
                ..ProblemJson::at(p.field, p.message)
            })
            .collect(),
    )
}

/// The token, the league and the table, then the season's schedule.
async fn begin(
    state: &AppState,
    headers: &HeaderMap,
    path: Addressed<SeasonAddress>,
) -> Result<(SeasonSchedule, Acting), ApiError> {
    let (tree, season, acting) =
        begin_season(state, headers, path, Action::SuspendSchedule).await?;
    let s = load(state, &tree, &season).await?;
    Ok((s, acting))
}

/// GT-F5: the President suspends the schedule in severe weather and resumes it: every match
/// without a result set on or after `from` moves forward by the match days of the season
/// (the ruleset's `[calendar] match_days`, school days only) from `from` until `resume_on`, so
/// the season keeps its order. With `preview`, nothing moves. Refused (422, each problem with
/// its field) when `resume_on` is not after `from`, no match day falls between them, or a team
/// would play twice on a day. Matches shifted past the season's last day take the season on to
/// the last of them (`season_ends_on`). Applied, the matches (and the season's last day) move
/// in one transaction, each with the reason in its history, and each school is told by one
/// mail of its matches' new days. With `undo`, the suspension of those days applied before is
/// undone: every match it moved goes back (422 naming a match played or moved again since).
#[utoipa::path(post, path = "/api/v1/leagues/{league}/{season}/suspension", tag = "schedule",
    params(SeasonAddress),
    request_body(content = SuspensionBody, description = "The suspension"),
    responses(
        (status = 200, description = "What the suspension moves; moved unless previewed", body = SuspensionJson),
        (status = 403, description = "The permission table refuses this token (only the President suspends the schedule)", body = ErrorAnswer),
        (status = 404, description = "No such league or season", body = ErrorAnswer),
        (status = 409, description = "A division changed while the suspension was applied: nothing was moved; send it again", body = ErrorAnswer),
        (status = 422, description = "The body is wrong, or the suspension is refused (each problem with its field)", body = InvalidAnswer),
    ),
    security(("bearer" = [])))]
async fn suspend(
    State(state): State<AppState>,
    headers: HeaderMap,
    path: Addressed<SeasonAddress>,
    bytes: Bytes,
) -> ApiResult {
    let (s, acting) = begin(&state, &headers, path).await?;
    let body: SuspensionBody = read_body(&bytes).map_err(|e| {
        refused(vec![Problem {
            field: "body",
            message: unreadable_body(
                &e,
                r#"{"from": "2027-01-18", "resume_on": "2027-01-25", "reason": "Ice storm", "preview": true} (GT-F5)"#,
            ),
        }])
    })?;
    if body.undo {
        return undo_json(&state, &s, &body, &acting).await;
    }
    let input = SuspensionInput {
        from: body.from.clone(),
        resume_on: body.resume_on.clone(),
        reason: body.reason.clone().unwrap_or_default(),
    };
    let (plan, reason) = prepare(&s, &input, !body.preview).map_err(refused)?;
    if let Some(reason) = &reason {
        match apply(&state, &s, &plan, reason, &s.seen(), &acting).await {
            Ok(_) => {}
            Err(NotApplied::Stale(m)) => {
                return Err(WebError::Conflict(m).into());
            }
            Err(NotApplied::Failed(e)) => return Err(e.into()),
        }
    }
    Ok(plan_json(&s, &plan, reason.as_ref()))
}

/// `undo`: the suspension found and undone, answered with the matches moved back.
async fn undo_json(
    state: &AppState,
    s: &SeasonSchedule,
    body: &SuspensionBody,
    acting: &Acting,
) -> ApiResult {
    let none = |field: &'static str, message: String| refused(vec![Problem { field, message }]);
    let a = find_applied(state, s, &body.from, &body.resume_on)
        .await?
        .map_err(|m| none("from", m))?;
    let why = body.reason.clone().unwrap_or_default();
    match undo(state, s, &a, &why, acting).await {
        Ok((plan, reason)) => Ok(plan_json(s, &plan, Some(&reason))),
        Err(NotUndone::Refused(problems)) => Err(refused(
            problems
                .into_iter()
                .map(|message| Problem {
                    field: "undo",
                    message,
                })
                .collect(),
        )),
        Err(NotUndone::Stale(m)) => Err(WebError::Conflict(m).into()),
        Err(NotUndone::Failed(e)) => Err(e.into()),
    }
}

/// The answer: what `plan` moves (or moved, with `reason`).
fn plan_json(s: &SeasonSchedule, plan: &Plan, reason: Option<&Reason>) -> Response {
    let (moves, played) = lines(s, plan);
    json_response(
        StatusCode::OK,
        &SuspensionJson {
            league: s.league.slug.clone(),
            season: s.season.slug.clone(),
            from: plan.suspension.from.to_string(),
            resume_on: plan.suspension.resume_on.to_string(),
            season_ends_on: plan.season_ends_on.map(|d| d.to_string()),
            applied: reason.is_some(),
            reason: reason.map(|r| r.as_str().to_string()),
            divisions: s
                .divisions
                .iter()
                .zip(&plan.match_days_lost)
                .map(|(v, n)| DivisionJson {
                    competition: v.record.slug.clone(),
                    name: v.record.name.clone(),
                    match_days_lost: *n,
                })
                .collect(),
            moves: moves.iter().map(move_json).collect(),
            played: played.iter().map(played_json).collect(),
        },
    )
}
