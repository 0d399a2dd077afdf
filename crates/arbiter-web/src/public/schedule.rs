//! The schedule as iCalendar feeds (issue 12, part 6): a league's, a competition's and a team's,
//! that a phone's calendar subscribes to. Each match is an event on its day at the home school
//! (GT-M1); it keeps its `UID` when it moves and its `SEQUENCE` rises with the competition's
//! version, so a subscribed calendar moves it too. Written by `arbiter_formats::ical`.

use arbiter_core::model::{MatchOutcome, Pairing, TeamId};
use arbiter_formats::ical::{self, Event, Feed};
use axum::body::Bytes;
use axum::extract::rejection::PathRejection;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, HeaderValue, header};
use axum::response::Response;

use crate::app::address::{Addressed, CompetitionAddress, TeamAddress};
use crate::app::respond::{bad_path, select_team};
use crate::app::state::AppState;
use crate::app::view::{CompetitionView, Page};
use crate::http::answer::{PAGE_CACHE, etag, not_modified, ok, unchanged};
use crate::http::error::{Format, WebError};
use crate::ui::words;

/// Every dated match of `view` (of `team` only, when given) as events.
fn events(state: &AppState, view: &CompetitionView, team: Option<&TeamId>) -> Vec<Event> {
    let base = state.base_url();
    let sequence = u32::try_from(view.version).unwrap_or(u32::MAX);
    let mut out = Vec::new();
    for round in &view.competition.rounds {
        for p in &round.pairings {
            let Pairing::Match(m) = p else { continue };
            // A moved match is on its own day (GT-M2).
            let Some(date) = round.date_of(m) else {
                continue;
            };
            if team.is_some_and(|t| &m.home != t && &m.away != t) {
                continue;
            }
            let home = view.competition.team(&m.home);
            let school = home.and_then(|t| t.school.clone());
            let facts = view.facts(round.number, m);
            // GT-M5: a dropped team's match will not be played.
            let dropped = arbiter_core::scoring::unplayed_after_drop(
                &view.sheet,
                &view.competition,
                round.number,
                m,
            );
            let result = match m.outcome {
                MatchOutcome::Pending => dropped
                    .clone()
                    .unwrap_or_else(|| "Still to play.".to_string()),
                _ => format!(
                    "Result: {}.",
                    words::score(facts.home_points, facts.away_points)
                ),
            };
            let href = view.match_href(round.number, &m.home);
            out.push(Event {
                uid: format!(
                    "{}-{}-{}-r{}-{}@arbiter",
                    view.league.slug, view.season.slug, view.record.slug, round.number, m.home
                ),
                date,
                start: m.start,
                summary: format!("{} v {}", view.team_name(&m.home), view.team_name(&m.away)),
                location: school.clone().or_else(|| home.map(|t| t.name.clone())),
                description: Some(format!(
                    "{}, round {}. At {} (the home team's school). {result}\n{base}{href}",
                    view.context(),
                    round.number,
                    school.unwrap_or_else(|| view.team_name(&m.home))
                )),
                url: Some(format!("{base}{href}")),
                sequence,
                cancelled: dropped.is_some(),
            });
        }
    }
    out
}

/// The feed as an answer: `text/calendar`, with an ETag of the data it was drawn from.
fn answer(headers: &HeaderMap, tag: HeaderValue, feed: &Feed, file: &str) -> Response {
    if not_modified(headers, &tag) {
        return unchanged(tag, PAGE_CACHE);
    }
    let body = ical::write(feed, jiff::Timestamp::now());
    let mut r = ok(
        HeaderValue::from_static("text/calendar; charset=utf-8"),
        tag,
        PAGE_CACHE,
        Bytes::from(body),
    );
    if let Ok(v) = HeaderValue::from_str(&format!("inline; filename=\"{file}.ics\"")) {
        r.headers_mut().insert(header::CONTENT_DISPOSITION, v);
    }
    r
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
            events: events(&state, &view, None),
        };
        let tag = etag(view.etag_base, b"schedule.ics");
        let file = format!("{}-{}-{}", a.league, a.season, a.competition);
        Ok::<_, WebError>(answer(&headers, tag, &feed, &file))
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
        let Page::Team(index) = select_team(&view, &a.team)? else {
            return Err(WebError::Internal);
        };
        let team = &view.competition.teams[index];
        let feed = Feed {
            name: format!("{}: {}", view.context(), team.name),
            events: events(&state, &view, Some(&team.id)),
        };
        let tag = etag(
            view.etag_base,
            format!("schedule.ics/{}", team.id).as_bytes(),
        );
        let file = format!("{}-{}-{}", a.league, a.season, team.id);
        Ok::<_, WebError>(answer(&headers, tag, &feed, &file))
    };
    answered.await.unwrap_or_else(|e| e.answer(Format::Html))
}

/// GET `/leagues/{league}/schedule.ics`: every match of every competition of the league.
pub async fn league(
    State(state): State<AppState>,
    headers: HeaderMap,
    path: Result<Path<String>, PathRejection>,
) -> Response {
    let answered = async {
        let Path(slug) = path.map_err(|r| bad_path(&r))?;
        let tree = crate::app::site::one(&state, &slug).await?;
        let mut events_all = Vec::new();
        let mut base: u64 = 0;
        for (season, records) in &tree.seasons {
            for r in records {
                let view = state.public_view(&slug, &season.slug, &r.slug).await?;
                base = base.rotate_left(7) ^ view.etag_base;
                events_all.extend(events(&state, &view, None));
            }
        }
        let feed = Feed {
            name: tree.league.name.clone(),
            events: events_all,
        };
        let tag = etag(base, b"league/schedule.ics");
        Ok::<_, WebError>(answer(&headers, tag, &feed, &slug))
    };
    answered.await.unwrap_or_else(|e| e.answer(Format::Html))
}
