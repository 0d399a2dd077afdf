//! The season's end in the API (issue 15), public reads: `GET /api/v1/leagues/{league}/{season}/playoffs`
//! (the qualification, the field and the bracket as core reads them), `…/awards` (the awards
//! list) and `GET /api/v1/leagues/{league}/{season}/{competition}/race` (the race while the
//! season runs). The same reading as the pages (`season_end::load`), drawn once per data version.

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::Response;
use serde::Serialize;
use utoipa::{OpenApi, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::api::answer::{ApiResult, ErrorAnswer};
use crate::app::address::{Addressed, CompetitionAddress, SeasonAddress};
use crate::app::respond::{self, bad_path};
use crate::app::site;
use crate::app::state::AppState;
use crate::app::view::{CompetitionView, Page};
use crate::http::error::{Format, WebError};
use crate::season_end::pages::{awards_href, playoffs_href};
use crate::season_end::{self, Drawn, load_public};
use crate::ui::words::segment;

#[derive(OpenApi)]
#[openapi(tags((name = "season end", description = "The end of a season (issue 15): qualification and the playoff bracket (GT-F3, GT-F5), the awards list (GT-F1, GT-F2, GT-F3), and the race while the season runs")))]
struct SeasonEndDoc;

/// The season end's routes, registered on the router and in the OpenAPI document together.
pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::with_openapi(SeasonEndDoc::openapi())
        .routes(routes!(playoffs))
        .routes(routes!(awards))
        .routes(routes!(race))
}

pub fn playoffs_api_href(league: &str, season: &str) -> String {
    format!(
        "/api/v1/leagues/{}/{}/playoffs",
        segment(league),
        segment(season)
    )
}

pub fn awards_api_href(league: &str, season: &str) -> String {
    format!(
        "/api/v1/leagues/{}/{}/awards",
        segment(league),
        segment(season)
    )
}

/// A season's playoffs: each division's qualification, and once drawn the seeded field, the
/// calendar with its bye date and the bracket, as core computes them.
#[derive(Debug, Serialize, ToSchema)]
pub struct PlayoffsJson {
    pub league: String,
    pub season: String,
    /// Each division: `{ "division", "qualifiers" }` (core's `Qualifiers`: the teams, the
    /// cut-off and how it was decided, ties the officers must decide) or `{ "division", "error" }`.
    #[schema(value_type = Vec<Object>)]
    pub qualification: Vec<serde_json::Value>,
    /// Whether the President has drawn the bracket.
    pub drawn: bool,
    /// The seeded field (GT-F3), once drawn.
    #[schema(value_type = Vec<Object>)]
    pub field: Vec<serde_json::Value>,
    /// Each round's day, round 1 first (GT-F5).
    pub rounds: Vec<String>,
    /// The bye date for all schools before the last playoff date (GT-F5).
    pub bye_date: Option<String>,
    /// The bracket as it stands: rounds, matches and their state, the finish (GT-F3).
    #[schema(value_type = Option<Object>)]
    pub bracket: Option<serde_json::Value>,
    /// Why the bracket cannot be read, when it cannot.
    pub problem: Option<String>,
    /// The bracket's page.
    pub url: String,
}

fn to_json<T: Serialize>(v: &T) -> Result<Bytes, WebError> {
    serde_json::to_vec(v)
        .map(Bytes::from)
        .map_err(WebError::internal)
}

fn value<T: Serialize>(v: &T) -> serde_json::Value {
    serde_json::to_value(v).unwrap_or(serde_json::Value::Null)
}

async fn playoffs_json(state: &AppState, league: &str, season: &str) -> Result<Bytes, WebError> {
    let tree = site::one(state, league).await?;
    let s = load_public(state, &tree, season).await?;
    let qualification = s
        .qualification()
        .iter()
        .map(|d| match &d.qualifiers {
            Ok(q) => serde_json::json!({ "division": d.view.record.slug, "qualifiers": value(q) }),
            Err(e) => serde_json::json!({ "division": d.view.record.slug, "error": e }),
        })
        .collect();
    // A round robin has no bracket: its standings are the playoff competition's own.
    let knockout = s.playoffs.as_ref().filter(|d| !d.round_robin());
    let (bracket, problem) = match knockout.map(Drawn::bracket) {
        Some(Ok(b)) => (Some(value(&b)), None),
        Some(Err(e)) => (None, Some(e)),
        None => (None, None),
    };
    to_json(&PlayoffsJson {
        league: s.league.slug.clone(),
        season: s.season.slug.clone(),
        qualification,
        drawn: s.playoffs.is_some(),
        field: s
            .playoffs
            .as_ref()
            .map(|d| d.record.field.iter().map(value).collect())
            .unwrap_or_default(),
        rounds: s
            .playoffs
            .as_ref()
            .map(|d| d.record.days.iter().map(ToString::to_string).collect())
            .unwrap_or_default(),
        bye_date: s
            .playoffs
            .as_ref()
            .and_then(|d| d.record.bye_date)
            .map(|d| d.to_string()),
        bracket,
        problem,
        url: playoffs_href(&s.league.slug, &s.season.slug),
    })
}

/// A season's playoffs: qualification, field, calendar and bracket (GT-F3, GT-F5).
#[utoipa::path(get, path = "/api/v1/leagues/{league}/{season}/playoffs", tag = "season end",
    params(SeasonAddress),
    responses(
        (status = 200, description = "The qualification and, once drawn, the bracket", body = PlayoffsJson),
        (status = 304, description = "Unchanged since the ETag sent in If-None-Match"),
        (status = 404, description = "No such league or season", body = ErrorAnswer),
        (status = 503, description = "The store is not answering", body = ErrorAnswer),
    ))]
async fn playoffs(
    State(state): State<AppState>,
    headers: HeaderMap,
    path: Addressed<SeasonAddress>,
) -> ApiResult {
    let Path(a) = path.map_err(|r| bad_path(&r))?;
    let key = season_end::public_key(&state, Format::Json, &a.league, &a.season, "playoffs").await;
    Ok(respond::site(&state, &headers, key, Format::Json, || {
        playoffs_json(&state, &a.league, &a.season)
    })
    .await)
}

/// A season's awards list (GT-F1, GT-F2, GT-F3).
#[derive(Debug, Serialize, ToSchema)]
pub struct AwardsJson {
    pub league: String,
    pub season: String,
    /// Core's `AwardsList`: each award with its rule, team, school and players, the top scores
    /// on each board, the trophies to buy and what the officers must settle.
    #[schema(value_type = Option<Object>)]
    pub awards: Option<serde_json::Value>,
    /// Why the list cannot be made, when it cannot.
    pub problem: Option<String>,
    /// The awards page.
    pub url: String,
}

async fn awards_json(state: &AppState, league: &str, season: &str) -> Result<Bytes, WebError> {
    let tree = site::one(state, league).await?;
    let s = load_public(state, &tree, season).await?;
    let (awards, problem) = match s.awards() {
        Ok(a) => (Some(value(&a)), None),
        Err(e) => (None, Some(e)),
    };
    to_json(&AwardsJson {
        league: s.league.slug.clone(),
        season: s.season.slug.clone(),
        awards,
        problem,
        url: awards_href(&s.league.slug, &s.season.slug),
    })
}

/// A season's awards list (GT-F1, GT-F2, GT-F3).
#[utoipa::path(get, path = "/api/v1/leagues/{league}/{season}/awards", tag = "season end",
    params(SeasonAddress),
    responses(
        (status = 200, description = "The awards list", body = AwardsJson),
        (status = 304, description = "Unchanged since the ETag sent in If-None-Match"),
        (status = 404, description = "No such league or season", body = ErrorAnswer),
        (status = 503, description = "The store is not answering", body = ErrorAnswer),
    ))]
async fn awards(
    State(state): State<AppState>,
    headers: HeaderMap,
    path: Addressed<SeasonAddress>,
) -> ApiResult {
    let Path(a) = path.map_err(|r| bad_path(&r))?;
    let key = season_end::public_key(&state, Format::Json, &a.league, &a.season, "awards").await;
    Ok(respond::site(&state, &headers, key, Format::Json, || {
        awards_json(&state, &a.league, &a.season)
    })
    .await)
}

/// The race of a division while its season runs.
#[derive(Debug, Serialize, ToSchema)]
pub struct RaceJson {
    pub competition: String,
    /// Whether matches are left: when none are, the standings are final and there is no race.
    pub running: bool,
    /// Core's `Race`: each team's best and worst final place and whether both are exact, its
    /// chance of first place and of a playoff place (`clinched`, `open`, `out`,
    /// `not_yet_decided`), its label (`clinched_first`, `clinched_playoff_place`, `eliminated`,
    /// `open`, `not_yet_decided`) and what it needs, in words (issue 36).
    #[schema(value_type = Option<Object>)]
    pub race: Option<serde_json::Value>,
    /// When the race is not told: why (being worked out, or the standings cannot be computed).
    pub problem: Option<String>,
}

/// The race as JSON, from the view's race (computed once per data version).
pub fn race_json(view: &CompetitionView, _: Page) -> Result<Bytes, WebError> {
    use crate::app::view::RaceState;
    let (running, race, problem) = match view.race() {
        RaceState::NoRace => (false, None, None),
        RaceState::BeingWorkedOut => (
            true,
            None,
            Some("The race is being worked out; ask again in a moment.".to_string()),
        ),
        RaceState::Told(Ok(r)) => (true, Some(value(r)), None),
        RaceState::Told(Err(e)) => (true, None, Some(e.clone())),
    };
    to_json(&RaceJson {
        competition: view.record.slug.clone(),
        running,
        race,
        problem,
    })
}

/// The race of a division: each team's best and worst final place still possible, clinched
/// and eliminated, and what it needs (issue 15).
#[utoipa::path(get, path = "/api/v1/leagues/{league}/{season}/{competition}/race", tag = "season end",
    params(CompetitionAddress),
    responses(
        (status = 200, description = "The race", body = RaceJson),
        (status = 304, description = "Unchanged since the ETag sent in If-None-Match"),
        (status = 404, description = "No such league, season or competition", body = ErrorAnswer),
        (status = 503, description = "The store is not answering", body = ErrorAnswer),
    ))]
async fn race(
    State(state): State<AppState>,
    headers: HeaderMap,
    path: Addressed<CompetitionAddress>,
) -> Response {
    respond::one_of(&state, &headers, Format::Json, path, Page::Race, race_json).await
}
