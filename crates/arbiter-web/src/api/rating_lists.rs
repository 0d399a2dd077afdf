//! A league's published rating lists in the API (issue 34 item 1): `POST
//! /api/v1/leagues/{league}/rating-lists` stores a list sent as text in a JSON object (FIDE's
//! XML or TXT list, or a CSV of id, name, rating), with an API token whose role the table lets
//! change the rules (the President). The same reader and write as the page
//! (`setup::rating_lists`).

use arbiter_core::rules::permissions::Action;
use arbiter_formats::rating_list::{self, ListFormat};
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use serde::{Deserialize, Serialize};
use utoipa::{OpenApi, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::api::answer::{
    ApiError, ApiResult, ErrorAnswer, InvalidAnswer, json_body, json_response,
};
use crate::api::write::begin_league;
use crate::app::address::{Addressed, LeagueAddress};
use crate::app::respond::bad_path;
use crate::app::state::AppState;
use crate::http::error::WebError;

#[derive(OpenApi)]
#[openapi(tags((name = "rating lists", description = "A league's published rating lists (FIDE's monthly list, a national list), by which a competition whose rules say `[lineup] ratings = \"list\"` orders its boards and caps its lineups; imported by the President with an API token")))]
struct RatingListsDoc;

/// The rating lists' routes, registered on the router and in the OpenAPI document together.
pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::with_openapi(RatingListsDoc::openapi()).routes(routes!(import_list))
}

/// A list to store.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RatingListBody {
    /// As pages and messages name it: `FIDE March 2027`.
    #[schema(max_length = 200)]
    pub name: String,
    /// The first day it orders boards (`2027-03-01`); it stands until a later list.
    #[schema(format = Date)]
    pub in_force_from: String,
    /// `fide-xml`, `fide-txt` or `csv`.
    #[schema(pattern = r"^(fide-xml|fide-txt|csv)$")]
    pub format: String,
    /// The file's text.
    pub text: String,
}

/// A stored list.
#[derive(Debug, Serialize, ToSchema)]
pub struct RatingListJson {
    pub league: String,
    pub name: String,
    pub in_force_from: String,
    pub format: String,
    /// How many rated players it lists.
    pub entries: usize,
}

/// Issue 34: a published rating list stored in the league, in force from its day. Refused (422)
/// for a mistake in the file (each at its line), an unknown format, a day that is not one; 409
/// for a list of the same name and day already stored.
#[utoipa::path(post, path = "/api/v1/leagues/{league}/rating-lists", tag = "rating lists",
    params(LeagueAddress),
    request_body(content = RatingListBody, description = "The list's name, day, format and text"),
    responses(
        (status = 201, description = "The stored list", body = RatingListJson),
        (status = 403, description = "The permission table refuses this token (only the President changes the rules)", body = ErrorAnswer),
        (status = 404, description = "No such league", body = ErrorAnswer),
        (status = 409, description = "The league has a list of that name and day already", body = ErrorAnswer),
        (status = 422, description = "The body is wrong, or the file has mistakes (each at its line)", body = InvalidAnswer),
    ),
    security(("bearer" = [])))]
async fn import_list(
    State(state): State<AppState>,
    headers: HeaderMap,
    path: Addressed<LeagueAddress>,
    bytes: Bytes,
) -> ApiResult {
    let Path(LeagueAddress { league }) = path.map_err(|e| bad_path(&e))?;
    let (tree, acting) = begin_league(&state, &headers, &league, Action::EditRules).await?;
    let body: RatingListBody = json_body(
        &bytes,
        r#"{"name": "FIDE March 2027", "in_force_from": "2027-03-01", "format": "fide-txt", "text": "ID Number      Name …"}"#,
    )?;
    let mut problems: Vec<(&'static str, String)> = Vec::new();
    let format =
        ListFormat::parse(&body.format).map_err(|e| problems.push(("format", format!("{e}."))));
    let day = body
        .in_force_from
        .trim()
        .parse::<jiff::civil::Date>()
        .map_err(|_| {
            problems.push((
                "in_force_from",
                format!(
                    "`{}` is not a day; write it as YYYY-MM-DD, e.g. 2027-03-01.",
                    body.in_force_from
                ),
            ))
        });
    if body.name.trim().is_empty() {
        problems.push(("name", "Name the list, e.g. FIDE March 2027.".into()));
    }
    let (Ok(format), Ok(day), true) = (format, day, problems.is_empty()) else {
        return Err(ApiError::invalid_fields(problems));
    };
    let list = rating_list::read(&body.text, format, &body.name, day).map_err(|found| {
        ApiError::invalid_fields(found.iter().map(|p| ("text", format!("{p}."))).collect())
    })?;
    let stored = state
        .store()
        .import_rating_list(tree.league.id, &list, format.code(), &acting.actor())
        .await
        .map_err(|e| match e {
            arbiter_store::StoreError::Conflict(m) => WebError::Conflict(m),
            e => WebError::from_write(e),
        })?;
    state.invalidate();
    Ok(json_response(
        StatusCode::CREATED,
        &RatingListJson {
            league: tree.league.slug.clone(),
            name: stored.name,
            in_force_from: stored.in_force_from.to_string(),
            format: stored.format,
            entries: stored.entries,
        },
    ))
}
