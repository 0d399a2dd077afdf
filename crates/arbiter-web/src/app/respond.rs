//! The way every page and API answer is served: find the data for the current version, answer
//! 304 when the reader's copy is current, else serve the drawn page from memory or draw it once.

use std::future::Future;

use axum::body::Bytes;
use axum::extract::Path;
use axum::extract::path::ErrorKind;
use axum::extract::rejection::PathRejection;
use axum::http::HeaderMap;
use axum::response::Response;

use crate::app::address::{Addressed, CompetitionAddress, Item, ItemAddress};
use crate::app::state::{AppState, SiteKey};
use crate::app::view::{CompetitionView, Page, PageKey};
use crate::http::answer::{
    PAGE_CACHE, content_type, etag, gzip_tag, kept_page, not_modified, ok, unchanged,
};
use crate::http::error::{Format, WebError};
use crate::ui::link::Link;

/// How long a page waits for its race to be worked out before it is drawn without it.
const RACE_WAIT: std::time::Duration = std::time::Duration::from_secs(2);

/// A page of one competition. `select` resolves the ids of the address (404 or 400 if they
/// name nothing) before anything is drawn.
pub async fn competition(
    state: &AppState,
    headers: &HeaderMap,
    format: Format,
    slugs: (&str, &str, &str),
    select: impl FnOnce(&CompetitionView) -> Result<Page, WebError>,
    draw: fn(&CompetitionView, Page) -> Result<Bytes, WebError>,
) -> Response {
    let answer = async {
        let view = state.public_view(slugs.0, slugs.1, slugs.2).await?;
        let page = select(&view)?;
        // GT-F3: a knockout is read as its bracket; its tables would rank teams it never ranks.
        if view.knockout() {
            let table = match page {
                Page::Overview | Page::Rounds if format == Format::Html => {
                    let (l, s) = (&view.league.slug, &view.season.slug);
                    return Ok(see_other(&crate::ui::link::playoffs_href(l, s)));
                }
                Page::Standings => Some("standings"),
                Page::Crosstable => Some("a crosstable"),
                Page::Explain => Some("standings to explain"),
                Page::Race => Some("a race for places"),
                Page::Projector | Page::Bulletin => Some("standings to show"),
                _ => None,
            };
            if let Some(what) = table {
                return Err(view.bracket_instead(what));
            }
        }
        let key = PageKey { format, page };
        // Issue 15: the race shows on the standings; a page waits for it a moment at most,
        // and one drawn without it is neither kept nor tagged as the finished page.
        if page.shows_race() && !view.work_out_race(RACE_WAIT).await {
            let tag = etag(
                view.etag_base,
                format!("{key:?} race being worked out").as_bytes(),
            );
            if not_modified(headers, &tag) {
                return Ok(unchanged(tag, PAGE_CACHE));
            }
            return Ok(ok(
                content_type(format),
                tag,
                PAGE_CACHE,
                draw(&view, page)?,
            ));
        }
        let tag = view.etag(&key);
        if not_modified(headers, &tag) || not_modified(headers, &gzip_tag(&tag)) {
            // A 304 in the tag of the form the reader takes; no body is read.
            return kept_page(headers, content_type(format), tag, Bytes::new()).map_err(unzip);
        }
        let drawn_before = view.page_bytes();
        let (tag, gzipped) = view.page(key, |view| draw(view, page)).await?;
        // A page drawn now is kept with its view: the cache weighs it and keeps its budget.
        if view.page_bytes() != drawn_before {
            state.trim_cache();
        }
        kept_page(headers, content_type(format), tag, gzipped).map_err(unzip)
    };
    answer.await.unwrap_or_else(|e: WebError| e.answer(format))
}

/// A kept page that does not unzip: the server's fault, logged.
fn unzip(e: std::io::Error) -> WebError {
    tracing::error!(cause = %e, "a kept page could not be unzipped");
    WebError::Internal
}

/// A page above the competitions (home, a league, a season), drawn once per data version.
pub async fn site<F, Fut>(
    state: &AppState,
    headers: &HeaderMap,
    key: SiteKey,
    format: Format,
    build: F,
) -> Response
where
    F: FnOnce() -> Fut,
    Fut: Future<Output = Result<Bytes, WebError>>,
{
    let answer = async {
        let v = state.version().await?;
        // The version in the tag: any write changes these pages' tags.
        let base = u64::from_le_bytes(v.to_le_bytes());
        let tag = etag(base, format!("{key:?}").as_bytes());
        let (page, previous) = state.site_page(v, key);
        let before = previous.as_ref().and_then(|p| p.cell.get());
        let drawn = match page.cell.get() {
            Some(drawn) => drawn.clone(),
            None => match (before.map(|_| page.claim()), before) {
                // Another reader draws this version: the one before is served meanwhile.
                (Some(None), Some(before)) => before.clone(),
                (claim, _) => {
                    // Held while drawing: given back if the drawing fails, or if this reader
                    // goes away and the draw is dropped unfinished (`Claim`'s `Drop`).
                    let _claim = claim.flatten();
                    page.cell
                        .get_or_try_init(|| async { build().await.map(|body| (tag, body)) })
                        .await?
                        .clone()
                }
            },
        };
        let (tag, body) = drawn;
        if not_modified(headers, &tag) {
            return Ok(unchanged(tag, PAGE_CACHE));
        }
        Ok(ok(content_type(format), tag, PAGE_CACHE, body))
    };
    answer.await.unwrap_or_else(|e: WebError| e.answer(format))
}

/// A path segment that is not valid UTF-8 once decoded, a missing one, or a round that is not
/// a number.
pub fn bad_path(r: &PathRejection) -> WebError {
    // A round is the only number an address holds (`MatchPath`): say what a round is.
    if let PathRejection::FailedToDeserializePathParams(e) = r
        && let ErrorKind::ParseErrorAtIndex { value, .. } | ErrorKind::ParseErrorAtKey { value, .. } =
            e.kind()
        && let Err(why) = parse_round(value)
    {
        return why;
    }
    WebError::BadRequest(format!(
        "A part of the address cannot be read ({}); check the link.",
        r.body_text()
    ))
}

/// A round number from the address: 1, 2, 3 …; anything else is the reader's mistake (400).
pub fn parse_round(text: &str) -> Result<u32, WebError> {
    match text.parse::<u32>() {
        Ok(0) => Err(WebError::BadRequest(
            "There is no round 0: rounds are numbered from 1.".into(),
        )),
        Ok(n) => Ok(n),
        Err(_) => Err(WebError::BadRequest(format!(
            "“{text}” is not a round number: write the round as a whole number from 1, like /rounds/3."
        ))),
    }
}

pub fn select_round(view: &CompetitionView, n: u32) -> Result<Page, WebError> {
    if view.round(n).is_some() {
        return Ok(Page::Round(n));
    }
    let rounds = view.rounds();
    let have = match (rounds.first(), rounds.last()) {
        (Some(a), Some(b)) if a.number == b.number => format!("its only round is {}", a.number),
        (Some(a), Some(b)) => format!("its rounds are {} to {}", a.number, b.number),
        _ => "it has no rounds yet".to_string(),
    };
    Err(WebError::NotFound {
        message: format!("{} has no round {n}; {have}.", view.record.name),
        links: rounds.iter().map(|r| view.round_link(r.number)).collect(),
    })
}

fn team_links(view: &CompetitionView) -> Vec<Link> {
    view.competition
        .teams
        .iter()
        .enumerate()
        .map(|(i, t)| Link::new(view.team_href(i), &t.name))
        .collect()
}

/// The team page of team `id` on `today` (the league's day), or a 404 that lists the teams.
pub fn select_team(
    view: &CompetitionView,
    id: &str,
    today: jiff::civil::Date,
) -> Result<Page, WebError> {
    team_of(view, id).map(|t| Page::Team(t, today))
}

/// The index of team `id` in `view`, or a 404 that lists the teams.
pub fn team_of(view: &CompetitionView, id: &str) -> Result<usize, WebError> {
    view.team_index(id).ok_or_else(|| WebError::NotFound {
        message: format!(
            "{} has no team with the id “{id}”. Its teams are listed below.",
            view.record.name
        ),
        links: team_links(view),
    })
}

pub fn select_player(view: &CompetitionView, id: &str) -> Result<Page, WebError> {
    view.player_index(id)
        .map(|(t, p)| Page::Player(t, p))
        .ok_or_else(|| WebError::NotFound {
            message: match view.roster_lock.as_ref().filter(|_| view.rosters_withheld) {
                Some(lock) => format!(
                    "{} names no player yet. {}",
                    view.record.name,
                    lock.withheld_sentence()
                ),
                None => format!(
                    "No roster of {} has a player with the id “{id}”. The teams are listed below; each lists its players.",
                    view.record.name
                ),
            },
            links: team_links(view),
        })
}

/// A page of a competition named by its address, as HTML or JSON: a bad address is a 400.
pub async fn one_of(
    state: &AppState,
    headers: &HeaderMap,
    format: Format,
    path: Addressed<CompetitionAddress>,
    page: Page,
    draw: fn(&CompetitionView, Page) -> Result<Bytes, WebError>,
) -> Response {
    match path {
        Ok(Path(a)) => {
            competition(
                state,
                headers,
                format,
                (&a.league, &a.season, &a.competition),
                |_| Ok(page),
                draw,
            )
            .await
        }
        Err(r) => bad_path(&r).answer(format),
    }
}

/// A round, team or player of a competition, as a page or as JSON: the same checks and the
/// same answers (400, 404, 304) for both.
pub async fn item<A: ItemAddress>(
    state: &AppState,
    headers: &HeaderMap,
    format: Format,
    path: Addressed<A>,
    draw: fn(&CompetitionView, Page) -> Result<Bytes, WebError>,
) -> Response {
    let item = A::ITEM;
    let (c, id) = match path {
        Ok(Path(address)) => address.parts(),
        Err(r) => return bad_path(&r).answer(format),
    };
    let round = match item {
        Item::Round => match parse_round(&id) {
            Ok(n) => n,
            Err(e) => return e.answer(format),
        },
        Item::Team | Item::Player => 0,
    };
    competition(
        state,
        headers,
        format,
        (&c.league, &c.season, &c.competition),
        |v| match item {
            Item::Round => select_round(v, round),
            Item::Team => select_team(v, &id, state.today_in(&v.league.time_zone)),
            Item::Player => select_player(v, &id),
        },
        draw,
    )
    .await
}

/// A page for one person (a form, an account, a history): drawn per request, never cached.
pub fn private(status: axum::http::StatusCode, t: &impl askama::Template) -> Response {
    match t.render() {
        Ok(html) => private_html(status, html),
        Err(e) => WebError::internal(e).answer(Format::Html),
    }
}

/// [`private`], with the rulebooks' IDs the page cites said as `rules` says them (issue 34 item
/// 5): a league's page of one of its matches cites its own rules, or none.
pub fn private_in(
    status: axum::http::StatusCode,
    t: &impl askama::Template,
    rules: &arbiter_core::Ruleset,
) -> Response {
    match t.render() {
        Ok(html) => private_html(status, rules.in_own_words(&html).into_owned()),
        Err(e) => WebError::internal(e).answer(Format::Html),
    }
}

fn private_html(status: axum::http::StatusCode, html: String) -> Response {
    let mut r = Response::new(axum::body::Body::from(html));
    *r.status_mut() = status;
    let h = r.headers_mut();
    h.insert(
        axum::http::header::CONTENT_TYPE,
        axum::http::HeaderValue::from_static("text/html; charset=utf-8"),
    );
    h.insert(
        axum::http::header::CACHE_CONTROL,
        axum::http::HeaderValue::from_static("private, no-store"),
    );
    r
}

/// 303 See Other to `to`: the answer to a form that worked.
pub fn see_other(to: &str) -> Response {
    let mut r = Response::new(axum::body::Body::empty());
    *r.status_mut() = axum::http::StatusCode::SEE_OTHER;
    if let Ok(v) = axum::http::HeaderValue::from_str(to) {
        r.headers_mut().insert(axum::http::header::LOCATION, v);
    }
    r.headers_mut().insert(
        axum::http::header::CACHE_CONTROL,
        axum::http::HeaderValue::from_static("no-store"),
    );
    r
}

/// A file for one person (a CSV of the history or the ledger): drawn per request, never kept by
/// a cache, downloaded as `file_name` (made of safe characters by the caller).
pub fn download(content_type: &'static str, body: String, file_name: &str) -> Response {
    use axum::http::{HeaderValue, header};
    let mut r = Response::new(axum::body::Body::from(body));
    let h = r.headers_mut();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    h.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("private, no-store"),
    );
    let disposition = HeaderValue::from_str(&format!("attachment; filename=\"{file_name}\""))
        .unwrap_or(HeaderValue::from_static("attachment"));
    h.insert(header::CONTENT_DISPOSITION, disposition);
    crate::http::answer::security_headers(h);
    r
}
