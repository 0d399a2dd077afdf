//! The HTML pages' handlers: read the address, then serve the page through [`respond`].

use axum::body::Bytes;
use axum::extract::rejection::PathRejection;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, HeaderValue, Method, Uri};
use axum::response::Response;

use crate::app::address::{Addressed, CompetitionAddress, ItemAddress, SeasonAddress};
use crate::app::respond::{self, bad_path};
use crate::app::state::{AppState, SiteKey};
use crate::app::view::Page;
use crate::app::view::RatingOrder;
use crate::http::answer::{
    PAGE_CACHE, STATIC_FOREVER, STATIC_SHORT, allow_script, content_type, etag, not_modified, ok,
    unchanged,
};
use crate::http::error::{Format, WebError};
use crate::public::{pages, ratings, site};
use crate::ui::link::{Link, league_href, season_href};
use crate::ui::stylesheet;

pub(crate) type CompetitionPath = Addressed<CompetitionAddress>;

pub async fn home(State(state): State<AppState>, headers: HeaderMap) -> Response {
    // Issue 32 (item 22): each league's week is counted in its own zone, whose day turns at a
    // quarter hour of UTC (Adelaide's at 13:30): the page is drawn again each quarter hour.
    let now = state.now().as_second();
    let key = SiteKey::Home(Format::Html, now.div_euclid(900));
    respond::site(&state, &headers, key, Format::Html, || {
        crate::public::home::home_html(&state)
    })
    .await
}

pub async fn league(
    State(state): State<AppState>,
    headers: HeaderMap,
    path: Result<Path<String>, PathRejection>,
) -> Result<Response, WebError> {
    let Path(slug) = path.map_err(|r| bad_path(&r))?;
    let key = SiteKey::League(Format::Html, slug.clone());
    Ok(respond::site(&state, &headers, key, Format::Html, || {
        site::league_html(&state, &slug, None)
    })
    .await)
}

pub async fn season(
    State(state): State<AppState>,
    headers: HeaderMap,
    path: Result<Path<(String, String)>, PathRejection>,
) -> Result<Response, WebError> {
    let Path((l, s)) = path.map_err(|r| bad_path(&r))?;
    let key = SiteKey::Season(Format::Html, l.clone(), s.clone());
    Ok(respond::site(&state, &headers, key, Format::Html, || {
        site::league_html(&state, &l, Some(&s))
    })
    .await)
}

async fn one_of(
    state: &AppState,
    headers: &HeaderMap,
    path: CompetitionPath,
    page: Page,
) -> Response {
    respond::one_of(
        state,
        headers,
        Format::Html,
        path,
        page,
        pages::competition_page,
    )
    .await
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

/// `?sort=` of the rating list.
#[derive(Debug, Default, serde::Deserialize)]
pub struct RatingsQuery {
    sort: Option<String>,
}

/// The rating list (issue 11), sorted by the column its address names.
pub async fn ratings(
    State(state): State<AppState>,
    headers: HeaderMap,
    path: CompetitionPath,
    axum::extract::Query(query): axum::extract::Query<RatingsQuery>,
) -> Response {
    let order = RatingOrder::from_code(query.sort.as_deref());
    one_of(&state, &headers, path, Page::Ratings(order)).await
}

pub async fn explain(
    State(state): State<AppState>,
    headers: HeaderMap,
    path: CompetitionPath,
) -> Response {
    one_of(&state, &headers, path, Page::Explain).await
}

/// The projector page (issue 14): public like the standings, refreshing itself. Drawn each
/// time, with the hall's clock and the next round's start (issue 32, item 25); its ETag is the
/// page's own, so the page's script reloads it as soon as a result or the minute changes.
pub async fn projector(
    State(state): State<AppState>,
    headers: HeaderMap,
    path: CompetitionPath,
) -> Result<Response, WebError> {
    let Path(a) = path.map_err(|r| bad_path(&r))?;
    let view = state.view(&a.league, &a.season, &a.competition).await?;
    let now = state.now();
    let hall = match state.store().event(view.season.id).await? {
        Some(event) => pages::Hall {
            now: Some(event.hall_time(now)),
            starts: event.starts_of(view.record.id),
        },
        None => pages::Hall {
            now: Some(view.league.time_zone.tz().to_datetime(now)),
            starts: Vec::new(),
        },
    };
    let html =
        askama::Template::render(&pages::projector_in(&view, &hall)).map_err(WebError::internal)?;
    let etag = etag(0, html.as_bytes());
    if not_modified(&headers, &etag) {
        return Ok(unchanged(etag, PAGE_CACHE));
    }
    let mut r = ok(
        content_type(Format::Html),
        etag,
        PAGE_CACHE,
        Bytes::from(html),
    );
    allow_script(r.headers_mut(), pages::PROJECTOR_SCRIPT);
    Ok(r)
}

/// The results bulletin (issue 14): public, to print or mail.
pub async fn bulletin(
    State(state): State<AppState>,
    headers: HeaderMap,
    path: CompetitionPath,
) -> Response {
    one_of(&state, &headers, path, Page::Bulletin).await
}

/// A round's, a team's or a player's page: the address says which (`…/rounds/{round}`,
/// `…/teams/{team}`, `…/players/{player}`).
pub async fn item<A>(
    State(state): State<AppState>,
    headers: HeaderMap,
    path: Addressed<A>,
) -> Response
where
    A: ItemAddress + serde::de::DeserializeOwned + Send + Sync + 'static,
{
    respond::item(
        &state,
        &headers,
        Format::Html,
        path,
        pages::competition_page,
    )
    .await
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
    WebError::not_found(message).answer(format)
}

/// A method the address does not take. axum adds the `Allow` header from the route itself, so a
/// write endpoint answers GET with `Allow: POST` and a page answers POST with `Allow: GET,HEAD`.
pub async fn method_not_allowed(method: Method, uri: axum::http::Uri) -> Response {
    WebError::MethodNotAllowed(format!(
        "{} is not allowed at {}: a page is read with GET, and a form or an API write is sent with POST. The Allow header of this answer names what this address takes.",
        method,
        uri.path()
    ))
    .answer(format_of(&uri))
}

/// `/static/arbiter.css`: kept a year under its versioned URL, five minutes otherwise.
pub async fn stylesheet(uri: Uri, headers: HeaderMap) -> Response {
    let versioned = uri
        .query()
        .and_then(|q| q.strip_prefix("v="))
        .is_some_and(|v| v == stylesheet::CSS_VERSION.as_str());
    let cache = if versioned {
        STATIC_FOREVER
    } else {
        STATIC_SHORT
    };
    let tag = etag(stylesheet::CSS_HASH, b"css");
    if not_modified(&headers, &tag) {
        return unchanged(tag, cache);
    }
    ok(
        HeaderValue::from_static("text/css; charset=utf-8"),
        tag,
        cache,
        Bytes::from_static(stylesheet::CSS.as_bytes()),
    )
}

/// `/leagues/{league}/{season}/ratings`: the season's rating list, every division's players in
/// one list (the league's ratings, GT-R1).
pub async fn season_ratings(
    State(state): State<AppState>,
    headers: HeaderMap,
    path: Addressed<SeasonAddress>,
    axum::extract::Query(query): axum::extract::Query<RatingsQuery>,
) -> Response {
    let order = RatingOrder::from_code(query.sort.as_deref());
    season_list(&state, &headers, path, Some(order)).await
}

/// `/leagues/{league}/{season}/ratings.csv`: the season's rating list as CSV.
pub async fn season_ratings_csv(
    State(state): State<AppState>,
    headers: HeaderMap,
    path: Addressed<SeasonAddress>,
) -> Response {
    season_list(&state, &headers, path, None).await
}

/// The season's list as a page in `order`, or as CSV when there is none.
async fn season_list(
    state: &AppState,
    headers: &HeaderMap,
    path: Addressed<SeasonAddress>,
    order: Option<RatingOrder>,
) -> Response {
    let answer = async {
        let Path(SeasonAddress {
            league: l,
            season: s,
        }) = path.map_err(|r| bad_path(&r))?;
        let (league, season, views) = site::season_views(state, &l, &s).await?;
        let base = site::etag_base(&views);
        let key = match order {
            Some(o) => format!("season/ratings?sort={}", o.code()),
            None => "season/ratings.csv".into(),
        };
        let tag = etag(base, key.as_bytes());
        if not_modified(headers, &tag) {
            return Ok(unchanged(tag, PAGE_CACHE));
        }
        let href = ratings::season_ratings_href(&l, &s);
        let Some(order) = order else {
            let mut answer = ok(
                HeaderValue::from_static("text/csv; charset=utf-8"),
                tag,
                PAGE_CACHE,
                Bytes::from(ratings::season_csv(&views)),
            );
            if let Ok(v) =
                HeaderValue::from_str(&format!("attachment; filename=\"{l}-{s}-ratings.csv\""))
            {
                answer
                    .headers_mut()
                    .insert(axum::http::header::CONTENT_DISPOSITION, v);
            }
            return Ok(answer);
        };
        let name = format!("{} {}", league.name, season.name);
        let layout = crate::ui::layout::site_layout(
            format!("Ratings \u{2014} {name}"),
            format!("Ratings \u{2014} {name}"),
            vec![
                Link::new(league_href(&league.slug), &league.name),
                Link::new(season_href(&league.slug, &season.slug), &season.name),
            ],
            format!("/api/v1{href}"),
        );
        let page = ratings::season_list(&views, &href, order, layout);
        Ok(ok(
            HeaderValue::from_static("text/html; charset=utf-8"),
            tag,
            PAGE_CACHE,
            pages::render_ratings(&page)?,
        ))
    };
    answer
        .await
        .unwrap_or_else(|e: WebError| e.answer(Format::Html))
}

/// GET `/leagues/{league}/current`: the lasting address of the season being played (issue 32
/// item 11), a bookmark that opens next season when it begins.
pub async fn current_season(
    State(state): State<AppState>,
    path: Result<Path<String>, PathRejection>,
) -> Response {
    let answered = async {
        let Path(league) = path.map_err(|r| bad_path(&r))?;
        current(&state, &league, "").await
    };
    answered.await.unwrap_or_else(|e| e.answer(Format::Html))
}

/// GET `/leagues/{league}/current/{division}[/…]`: the lasting address of a division (and of
/// any page under it) in the season being played: `…/current/metro/teams/start` opens this
/// season's Metro's team Start, whatever the season's own slugs.
pub async fn current_division(
    State(state): State<AppState>,
    path: Result<Path<(String, String)>, PathRejection>,
) -> Response {
    let answered = async {
        let Path((league, rest)) = path.map_err(|r| bad_path(&r))?;
        current(&state, &league, &rest).await
    };
    answered.await.unwrap_or_else(|e| e.answer(Format::Html))
}

async fn current(state: &AppState, league: &str, rest: &str) -> Result<Response, WebError> {
    let tree = crate::app::site::one(state, league).await?;
    let Some((season, records)) = tree.season_now(state) else {
        return Err(WebError::NotFound {
            message: format!(
                "{} has no season with a division yet, so nothing is being played.",
                tree.league.name
            ),
            links: vec![Link::new(league_href(league), &tree.league.name)],
        });
    };
    let (division, below) = rest.split_once('/').unwrap_or((rest, ""));
    if division.is_empty() {
        return Ok(crate::app::respond::see_other(&season_href(
            league,
            &season.slug,
        )));
    }
    // A division is known by its slug this season, or by its name's (Metro is `metro` even when
    // this season's slug is `metro-2027-28`).
    let named = |r: &&arbiter_store::CompetitionRecord| {
        r.slug == division
            || arbiter_core::record::text::slug(&r.name).as_deref() == Some(division)
            || r.slug
                .strip_prefix(division)
                .is_some_and(|s| s.starts_with('-'))
    };
    match records.iter().find(named) {
        Some(r) => {
            let mut to = crate::ui::link::competition_href(league, &season.slug, &r.slug);
            if !below.is_empty() {
                to.push('/');
                to.push_str(below);
            }
            Ok(crate::app::respond::see_other(&to))
        }
        None => Err(WebError::NotFound {
            message: format!(
                "{} {} has no division “{division}”; its divisions are listed below.",
                tree.league.name, season.name
            ),
            links: records
                .iter()
                .map(|r| {
                    Link::new(
                        crate::ui::link::competition_href(league, &season.slug, &r.slug),
                        &r.name,
                    )
                })
                .collect(),
        }),
    }
}
