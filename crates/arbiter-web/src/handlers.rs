//! The HTML pages' handlers: read the address, then serve the page through [`respond`].

use axum::extract::rejection::PathRejection;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, Method};
use axum::response::Response;

use crate::error::{Format, WebError};
use crate::respond::{self, Item, ItemPath, bad_path};
use crate::site;
use crate::state::{AppState, SiteKey};
use crate::view::Page;

type CompetitionPath = Result<Path<(String, String, String)>, PathRejection>;

pub async fn home(State(state): State<AppState>, headers: HeaderMap) -> Response {
    let today = state.today();
    let key = SiteKey::Home(Format::Html, today);
    respond::site(&state, &headers, key, Format::Html, || {
        site::home_html(&state, today)
    })
    .await
}

pub async fn league(
    State(state): State<AppState>,
    headers: HeaderMap,
    path: Result<Path<String>, PathRejection>,
) -> Response {
    let slug = match path {
        Ok(Path(s)) => s,
        Err(r) => return bad_path(&r).into_response(Format::Html),
    };
    let key = SiteKey::League(Format::Html, slug.clone());
    respond::site(&state, &headers, key, Format::Html, || {
        site::league_html(&state, &slug, None)
    })
    .await
}

pub async fn season(
    State(state): State<AppState>,
    headers: HeaderMap,
    path: Result<Path<(String, String)>, PathRejection>,
) -> Response {
    let (l, s) = match path {
        Ok(Path(p)) => p,
        Err(r) => return bad_path(&r).into_response(Format::Html),
    };
    let key = SiteKey::Season(Format::Html, l.clone(), s.clone());
    respond::site(&state, &headers, key, Format::Html, || {
        site::league_html(&state, &l, Some(&s))
    })
    .await
}

async fn one_of(
    state: &AppState,
    headers: &HeaderMap,
    path: CompetitionPath,
    page: Page,
) -> Response {
    match path {
        Ok(Path((l, s, c))) => {
            respond::competition(state, headers, Format::Html, (&l, &s, &c), |_| Ok(page)).await
        }
        Err(r) => bad_path(&r).into_response(Format::Html),
    }
}

pub async fn competition(
    State(state): State<AppState>,
    headers: HeaderMap,
    path: CompetitionPath,
) -> Response {
    one_of(&state, &headers, path, Page::Overview).await
}

pub async fn crosstable(
    State(state): State<AppState>,
    headers: HeaderMap,
    path: CompetitionPath,
) -> Response {
    one_of(&state, &headers, path, Page::Crosstable).await
}

pub async fn explain(
    State(state): State<AppState>,
    headers: HeaderMap,
    path: CompetitionPath,
) -> Response {
    one_of(&state, &headers, path, Page::Explain).await
}

pub async fn round(State(state): State<AppState>, headers: HeaderMap, path: ItemPath) -> Response {
    respond::item(&state, &headers, Format::Html, path, Item::Round).await
}

pub async fn team(State(state): State<AppState>, headers: HeaderMap, path: ItemPath) -> Response {
    respond::item(&state, &headers, Format::Html, path, Item::Team).await
}

pub async fn player(State(state): State<AppState>, headers: HeaderMap, path: ItemPath) -> Response {
    respond::item(&state, &headers, Format::Html, path, Item::Player).await
}

fn format_of(uri: &axum::http::Uri) -> Format {
    if uri.path().starts_with("/api/") {
        Format::Json
    } else {
        Format::Html
    }
}

/// Any address that names no page.
pub async fn not_found(uri: axum::http::Uri) -> Response {
    let format = format_of(&uri);
    let message = match format {
        Format::Json => format!(
            "There is no API resource at {}. The API's routes are listed in /api/v1/openapi.json.",
            uri.path()
        ),
        Format::Html => format!(
            "There is no page at {}. Start from the list of leagues and events.",
            uri.path()
        ),
    };
    WebError::not_found(message).into_response(format)
}

/// A method the address does not take. axum adds the `Allow` header from the route itself, so a
/// write endpoint answers GET with `Allow: POST` and a page answers POST with `Allow: GET,HEAD`.
pub async fn method_not_allowed(method: Method, uri: axum::http::Uri) -> Response {
    WebError::MethodNotAllowed(format!(
        "{} is not allowed at {}: a page is read with GET, and a form or an API write is sent with POST. The Allow header of this answer names what this address takes.",
        method,
        uri.path()
    ))
    .into_response(format_of(&uri))
}
