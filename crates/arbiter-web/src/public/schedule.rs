//! The schedule as iCalendar feeds (issue 12, part 6; issue 32) that a phone's calendar
//! subscribes to: a league's (every division of its current season), a school's (its teams
//! across the season's divisions), a competition's and a team's. Each match is an event at the
//! time its home advisor arranged (GT-M1), in the league's zone, or on its day when none is set,
//! at the home school with its address (or an event's hall). It keeps its `UID` when it moves;
//! its `SEQUENCE` counts its moves and its cancellation, and a match that will not be played is
//! `STATUS:CANCELLED` (GT-M5) — all read from core's `fixture`. Written by
//! `arbiter_formats::ical`, served as `text/calendar` with no `Content-Disposition`, so that a
//! browser hands it to the calendar instead of saving a file.

use std::sync::Arc;

use arbiter_core::record::model::{MatchOutcome, TeamId};
use arbiter_formats::ical::{self, Event, Feed};
use axum::body::Bytes;
use axum::extract::rejection::PathRejection;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, HeaderValue};
use axum::response::Response;

use crate::app::address::{Addressed, CompetitionAddress, TeamAddress};
use crate::app::respond::{bad_path, team_of};
use crate::app::site::LeagueTree;
use crate::app::state::AppState;
use crate::app::view::CompetitionView;
use crate::http::answer::{PAGE_CACHE, etag, not_modified, ok, unchanged};
use crate::http::error::{Format, WebError};
use crate::ui::words::{self, FNV_OFFSET, fnv1a};

/// Every dated match of `view` (of the teams `teams` lets through) as events.
fn events(view: &CompetitionView, teams: impl Fn(&TeamId) -> bool) -> Vec<Event> {
    let site = &view.site;
    view.fixtures(None)
        .into_iter()
        .filter(|f| teams(&f.record.home) || teams(&f.record.away))
        .map(|f| {
            let m = f.record;
            let facts = view.facts(f.round, m);
            let result = match (&m.outcome, &f.not_played) {
                (MatchOutcome::Pending, Some(why)) => why.clone(),
                (MatchOutcome::Pending, None) => "Still to play.".to_string(),
                (_, why) => format!(
                    "Result: {}.{}",
                    words::score(facts.home_points, facts.away_points),
                    why.as_ref().map_or(String::new(), |w| format!(" {w}"))
                ),
            };
            let (place, address) = view.place_of(&f);
            let location = match &address {
                Some(a) => format!("{place}, {}", a.one_line()),
                None => place.clone(),
            };
            let at = match view.hall {
                Some(_) => format!("At {location}, the event's hall."),
                None => format!("At {location} (the home team's school)."),
            };
            let href = view.match_href(f.round, &m.home);
            Event {
                uid: format!(
                    "{}-{}-{}-r{}-{}@arbiter",
                    view.league.slug, view.season.slug, view.record.slug, f.round, m.home
                ),
                date: f.date,
                start: f.start,
                summary: format!("{} v {}", view.team_name(&m.home), view.team_name(&m.away)),
                location: Some(location),
                description: Some(format!(
                    "{}, round {}. {}. {at} {result}\n{site}{href}",
                    view.context(),
                    f.round,
                    view.when(&f)
                )),
                url: Some(format!("{site}{href}")),
                sequence: view.sequence_of(&f),
                cancelled: f.not_played.is_some(),
            }
        })
        .collect()
}

/// The feed as an answer: `text/calendar`, with an ETag of the data it was drawn from, and no
/// `Content-Disposition` (an attachment is saved as a file, not subscribed to). Stamped by the
/// site's clock (`DTSTAMP`).
fn answer(state: &AppState, headers: &HeaderMap, tag: HeaderValue, feed: &Feed) -> Response {
    if not_modified(headers, &tag) {
        return unchanged(tag, PAGE_CACHE);
    }
    let body = ical::write(feed, state.now());
    ok(
        HeaderValue::from_static("text/calendar; charset=utf-8"),
        tag,
        PAGE_CACHE,
        Bytes::from(body),
    )
}

/// GET `…/{competition}/schedule.ics`: every match of the competition.
pub async fn competition(
    State(state): State<AppState>,
    headers: HeaderMap,
    path: Addressed<CompetitionAddress>,
) -> Response {
    let answered = async {
        let Path(a) = path.map_err(|r| bad_path(&r))?;
        let view = state
            .public_view(&a.league, &a.season, &a.competition)
            .await?;
        let feed = Feed {
            name: view.context(),
            zone: view.clock(),
            events: events(&view, |_| true),
        };
        let tag = etag(view.etag_base, b"schedule.ics");
        Ok::<_, WebError>(answer(&state, &headers, tag, &feed))
    };
    answered.await.unwrap_or_else(|e| e.answer(Format::Html))
}

/// GET `…/{competition}/teams/{team}/schedule.ics`: one team's matches.
pub async fn team(
    State(state): State<AppState>,
    headers: HeaderMap,
    path: Addressed<TeamAddress>,
) -> Response {
    let answered = async {
        let Path(a) = path.map_err(|r| bad_path(&r))?;
        let view = state
            .public_view(&a.league, &a.season, &a.competition)
            .await?;
        let team = &view.competition.teams[team_of(&view, &a.team)?];
        let feed = Feed {
            name: format!("{}: {}", view.context(), team.name),
            zone: view.clock(),
            events: events(&view, |t| t == &team.id),
        };
        let tag = etag(
            view.etag_base,
            format!("schedule.ics/{}", team.id).as_bytes(),
        );
        Ok::<_, WebError>(answer(&state, &headers, tag, &feed))
    };
    answered.await.unwrap_or_else(|e| e.answer(Format::Html))
}

/// The views of every competition of `tree`'s current season (none before it has one).
async fn current_views(
    state: &AppState,
    tree: &LeagueTree,
) -> Result<Vec<Arc<CompetitionView>>, WebError> {
    let mut views = Vec::new();
    if let Some((season, records)) = tree.season_now(state) {
        for r in records {
            views.push(
                state
                    .public_view(&tree.league.slug, &season.slug, &r.slug)
                    .await?,
            );
        }
    }
    Ok(views)
}

/// A feed of several competitions: its name, zone and events, tagged by what it was drawn from.
fn season_feed(
    state: &AppState,
    headers: &HeaderMap,
    tree: &LeagueTree,
    views: &[Arc<CompetitionView>],
    name: String,
    what: &str,
    teams: impl Fn(&CompetitionView, &TeamId) -> bool,
) -> Response {
    let mut base = fnv1a(FNV_OFFSET, what.as_bytes());
    let mut events_all = Vec::new();
    for view in views {
        base = base.rotate_left(7) ^ view.etag_base;
        events_all.extend(events(view, |t| teams(view, t)));
    }
    // A season's competitions share its clock: an event's hall, else the league's zone.
    let zone = views
        .first()
        .map_or_else(|| tree.league.time_zone.tz().clone(), |v| v.clock());
    let feed = Feed {
        name,
        zone,
        events: events_all,
    };
    answer(state, headers, etag(base, what.as_bytes()), &feed)
}

/// GET `/leagues/{league}/schedule.ics`: every match of every competition of the league's
/// current season.
pub async fn league(
    State(state): State<AppState>,
    headers: HeaderMap,
    path: Result<Path<String>, PathRejection>,
) -> Response {
    let answered = async {
        let Path(slug) = path.map_err(|r| bad_path(&r))?;
        let tree = crate::app::site::one(&state, &slug).await?;
        let views = current_views(&state, &tree).await?;
        let name = match tree.season_now(&state) {
            Some((s, _)) => format!("{} {}", tree.league.name, s.name),
            None => tree.league.name.clone(),
        };
        Ok::<_, WebError>(season_feed(
            &state,
            &headers,
            &tree,
            &views,
            name,
            "league/schedule.ics",
            |_, _| true,
        ))
    };
    answered.await.unwrap_or_else(|e| e.answer(Format::Html))
}

/// GET `/leagues/{league}/schools/{school}/schedule.ics`: the matches of every team of one
/// school in the league's current season, across its divisions; the school named by its name's
/// slug (`start-high-school`).
pub async fn school(
    State(state): State<AppState>,
    headers: HeaderMap,
    path: Result<Path<(String, String)>, PathRejection>,
) -> Response {
    let answered = async {
        let Path((league, slug)) = path.map_err(|r| bad_path(&r))?;
        let tree = crate::app::site::one(&state, &league).await?;
        let schools = state.store().schools(tree.league.id).await?;
        let Some(school) = schools
            .iter()
            .find(|s| arbiter_core::record::text::slug(&s.name).as_deref() == Some(slug.as_str()))
        else {
            return Err(WebError::not_found(format!(
                "{} has no school at “{slug}”; a team's page links its school's calendar.",
                tree.league.name
            )));
        };
        let views = current_views(&state, &tree).await?;
        let name = match tree.season_now(&state) {
            Some((s, _)) => format!("{}: {} {}", school.name, tree.league.name, s.name),
            None => format!("{}: {}", school.name, tree.league.name),
        };
        Ok::<_, WebError>(season_feed(
            &state,
            &headers,
            &tree,
            &views,
            name,
            &format!("schools/{slug}/schedule.ics"),
            |view, t| {
                view.competition
                    .teams
                    .iter()
                    .any(|x| &x.id == t && x.school.as_deref() == Some(school.name.as_str()))
            },
        ))
    };
    answered.await.unwrap_or_else(|e| e.answer(Format::Html))
}
