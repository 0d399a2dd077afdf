//! The event's page, for the arbiter (AS-1, AS-3, AS-11): GET `/leagues/{league}/{season}/event`
//! shows the event in force and the form (the name, host, venue, the hall's offset from UTC and
//! every round's start); POST to it sets the event again as a new version.

use arbiter_core::event::field::State as Host;
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
use crate::event::{EventInput, SeasonEvent, event_href, load, offset_text, prepare, set};
use crate::http::auth::{Acting, Auth};
use crate::http::csrf;
use crate::http::error::WebError;
use crate::ui::layout::{Layout, private_layout};
use crate::ui::link::{Link, competition_href, league_href, season_href};
use crate::ui::words;

struct RoundStart {
    number: u32,
    field: String,
    value: String,
    /// AS-11: when its lineups are due, once set.
    lineups_due: String,
}

struct CompetitionStarts {
    name: String,
    href: String,
    protests: String,
    /// AS-12: the rosters on one sheet, to post at the lock.
    rosters: String,
    rounds: Vec<RoundStart>,
    /// AS-12, AS-13: when the rosters lock and protests close, once round 1 is set.
    deadlines: Option<String>,
}

struct HostChoice {
    code: &'static str,
    name: &'static str,
    selected: bool,
}

#[derive(Template)]
#[template(path = "event/event.html", whitespace = "minimize")]
struct EventPage {
    layout: Layout,
    csrf: String,
    action: String,
    version: u32,
    set_by: Option<String>,
    name: String,
    hosts: Vec<HostChoice>,
    venue: String,
    utc_offset: String,
    competitions: Vec<CompetitionStarts>,
    notice: Option<String>,
    problems: Vec<String>,
    today_href: String,
}

/// `?saved=3`: the version just set.
#[derive(Debug, Default, Deserialize)]
pub struct Done {
    #[serde(default)]
    saved: Option<u32>,
}

async fn guard(
    state: &AppState,
    auth: &Auth,
    path: Addressed<SeasonAddress>,
) -> Result<(SeasonEvent, Acting), WebError> {
    let Path(SeasonAddress { league, season }) = path.map_err(|e| bad_path(&e))?;
    // AS-19: the arbiter draws the event's rounds and sets their times.
    let (tree, acting) = site::league_officer(state, auth, &league, Action::DrawSchedule).await?;
    Ok((load(state, &tree, &season).await?, acting))
}

/// The form's values: what was sent, else the event in force.
fn shown_input(s: &SeasonEvent, sent: Option<&EventInput>) -> EventInput {
    if let Some(i) = sent {
        return i.clone();
    }
    let e = s.event.as_ref();
    EventInput {
        name: e.map_or_else(|| s.season.name.clone(), |e| e.event.name.clone()),
        host: e.map_or_else(String::new, |e| e.event.host.code().to_string()),
        venue: e.map_or_else(String::new, |e| e.event.venue.clone()),
        utc_offset: e.map_or_else(String::new, |e| offset_text(e.event.utc_offset_minutes)),
        starts: s
            .competitions
            .iter()
            .map(|c| {
                let starts = e.map(|e| e.starts_of(c.id)).unwrap_or_default();
                let texts = (0..c.competition.rounds.len())
                    .map(|i| {
                        starts
                            .get(i)
                            .map(|t| t.strftime("%Y-%m-%dT%H:%M").to_string())
                            .unwrap_or_default()
                    })
                    .collect();
                (c.id, texts)
            })
            .collect(),
    }
}

async fn page(
    auth: &Auth,
    s: &SeasonEvent,
    sent: Option<&EventInput>,
    notice: Option<String>,
    problems: Vec<String>,
    status: StatusCode,
) -> Result<Response, WebError> {
    let (league, season) = (&s.league.slug, &s.season.slug);
    let input = shown_input(s, sent);
    let in_force = s.event.as_ref();
    let competitions = s
        .competitions
        .iter()
        .map(|c| {
            let texts = input
                .starts
                .iter()
                .find(|(id, _)| *id == c.id)
                .map(|(_, t)| t.clone())
                .unwrap_or_default();
            let deadlines = c.rules.event;
            let first = in_force.and_then(|e| e.round_start(c.id, 1));
            CompetitionStarts {
                name: c.record.name.clone(),
                href: competition_href(league, season, &c.record.slug),
                protests: crate::event::protests::protests_href(league, season, &c.record.slug),
                rosters: crate::rosters::sheet::sheet_href(&competition_href(
                    league,
                    season,
                    &c.record.slug,
                )),
                rounds: (1_u32..)
                    .zip(texts)
                    .map(|(n, value)| RoundStart {
                        number: n,
                        field: format!("start_{}_{n}", c.id),
                        lineups_due: match (
                            deadlines,
                            in_force.and_then(|e| e.round_start(c.id, n)),
                        ) {
                            (Some(d), Some(start)) => {
                                format!("lineups due {}", d.lineup_due(start).strftime("%H:%M"))
                            }
                            _ => String::new(),
                        },
                        value,
                    })
                    .collect(),
                deadlines: deadlines.zip(first).map(|(d, first)| {
                    format!(
                        "Rosters lock at {} on {} (AS-12); protests close at {} (AS-13).",
                        d.roster_lock(first).strftime("%H:%M"),
                        words::date(d.roster_lock(first).date()),
                        d.protests_close(first).strftime("%H:%M"),
                    )
                }),
            }
        })
        .collect();
    let page = EventPage {
        layout: private_layout(
            &format!("The event: {}", s.season.name),
            vec![
                Link::new(league_href(league), &s.league.name),
                Link::new(season_href(league, season), &s.season.name),
            ],
        ),
        csrf: csrf::session_token(&auth.session).await?,
        action: event_href(league, season),
        version: in_force.map_or(0, |e| e.version),
        set_by: in_force.map(|e| {
            format!(
                "Version {}, set by {} on {}.",
                e.version,
                e.entered_by.as_deref().unwrap_or("the league"),
                words::date(e.time_zone.day_of(e.entered_at))
            )
        }),
        name: input.name.clone(),
        hosts: Host::ALL
            .iter()
            .map(|h| HostChoice {
                code: h.code(),
                name: h.name(),
                selected: h.code() == input.host.trim(),
            })
            .collect(),
        venue: input.venue.clone(),
        utc_offset: input.utc_offset.clone(),
        competitions,
        notice,
        problems,
        today_href: crate::event::today::today_href(league, season),
    };
    Ok(private(status, &page))
}

/// GET `/leagues/{league}/{season}/event`: the event in force and the form.
pub async fn event_page(
    State(state): State<AppState>,
    auth: Auth,
    path: Addressed<SeasonAddress>,
    done: Result<Query<Done>, QueryRejection>,
) -> Result<Response, WebError> {
    let (s, _) = guard(&state, &auth, path).await?;
    let notice = done.ok().and_then(|Query(d)| d.saved).map(|v| {
        format!("The event is set (version {v}); the lineup deadlines now count from these times (AS-11).")
    });
    page(&auth, &s, None, notice, Vec::new(), StatusCode::OK).await
}

/// POST `/leagues/{league}/{season}/event`: the event set again, as a new version.
pub async fn set_event(
    State(state): State<AppState>,
    auth: Auth,
    path: Addressed<SeasonAddress>,
    Form(fields): Form<Vec<(String, String)>>,
) -> Result<Response, WebError> {
    let (s, acting) = guard(&state, &auth, path).await?;
    let one = |k: &str| {
        fields
            .iter()
            .find(|(n, _)| n == k)
            .map(|(_, v)| v.clone())
            .unwrap_or_default()
    };
    let input = EventInput {
        name: one("name"),
        host: one("host"),
        venue: one("venue"),
        utc_offset: one("utc_offset"),
        starts: s
            .competitions
            .iter()
            .map(|c| {
                let texts = (1..=c.competition.rounds.len())
                    .map(|n| one(&format!("start_{}_{n}", c.id)))
                    .collect();
                (c.id, texts)
            })
            .collect(),
    };
    let seen: u32 = one("version").trim().parse().unwrap_or(0);
    let event = match prepare(&s, &input) {
        Ok(e) => e,
        Err(problems) => {
            return page(
                &auth,
                &s,
                Some(&input),
                None,
                problems,
                StatusCode::UNPROCESSABLE_ENTITY,
            )
            .await;
        }
    };
    match set(&state, &s, seen, &event, &acting).await {
        Ok(r) => Ok(see_other(&format!(
            "{}?saved={}",
            event_href(&s.league.slug, &s.season.slug),
            r.version
        ))),
        Err(WebError::Conflict(m)) => {
            let fresh = crate::event::SeasonEvent {
                event: state.store().event(s.season.id).await?,
                ..s
            };
            page(
                &auth,
                &fresh,
                Some(&input),
                None,
                vec![m],
                StatusCode::CONFLICT,
            )
            .await
        }
        Err(e) => Err(e),
    }
}
