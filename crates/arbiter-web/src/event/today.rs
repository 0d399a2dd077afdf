//! The arbiter's day on one page (issue 32, item 22): GET `/leagues/{league}/{season}/event/today`
//! lists, for each competition of the event, the round being played by the hall's clock and its
//! results entered (one click to its entry), the next round's lineups named and who is missing
//! (AS-11), the protests still open (AS-13) and the next deadline. Core's
//! `EventDeadlines::day_now` says where the day stands; this page only counts and links.

use arbiter_core::event::event_day::{DayNow, EventDeadlines};
use arbiter_core::event::protest::Stage;
use arbiter_core::record::model::{MatchOutcome, Pairing, Side};
use arbiter_core::rules::permissions::Action;
use askama::Template;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::Response;

use crate::app::address::{Addressed, SeasonAddress};
use crate::app::respond::{bad_path, private};
use crate::app::site;
use crate::app::state::AppState;
use crate::app::view::CompetitionView;
use crate::event::{event_href, load};
use crate::http::auth::{self, Auth};
use crate::http::error::{Format, WebError};
use crate::ui::layout::{Layout, private_layout};
use crate::ui::link::{Link, competition_href, league_href, season_href};
use crate::ui::words;

/// The arbiter's day's address.
pub fn today_href(league: &str, season: &str) -> String {
    format!("{}/today", event_href(league, season))
}

/// One competition's day.
struct CompetitionDay {
    name: String,
    href: String,
    /// `Round 3, begun at 09:30: 3 of 4 results entered.`, with the entry page's link.
    playing: Option<(String, Link)>,
    /// `Round 4 starts at 14:00; lineups due at 13:45 (AS-11): 7 of 8 named; missing: NSGH.`
    next: Option<String>,
    /// `At 13:45 round 4's lineups are due (AS-11).`
    deadline: Option<String>,
    /// Each protest still open, linked; and the protests page.
    protests: Vec<Link>,
    protests_href: String,
    /// Why there is no day to show yet (no round times set).
    unset: Option<String>,
}

#[derive(Template)]
#[template(path = "event/today.html", whitespace = "minimize")]
struct TodayPage {
    layout: Layout,
    clock: String,
    event_href: String,
    competitions: Vec<CompetitionDay>,
}

/// `09:30`, with its day when it is not today's: `Wed 9 Dec 09:30`.
fn at(t: jiff::civil::DateTime, now: jiff::civil::DateTime) -> String {
    if t.date() == now.date() {
        t.strftime("%H:%M").to_string()
    } else {
        t.strftime("%a %-d %b %H:%M").to_string()
    }
}

fn team_name(view: &CompetitionView, id: &arbiter_core::record::model::TeamId) -> String {
    view.competition
        .teams
        .iter()
        .find(|t| &t.id == id)
        .map_or_else(|| id.0.clone(), |t| t.name.clone())
}

fn matches_of(view: &CompetitionView, round: u32) -> Vec<&arbiter_core::record::model::Match> {
    view.competition
        .rounds
        .iter()
        .filter(|r| r.number == round)
        .flat_map(|r| &r.pairings)
        .filter_map(|p| match p {
            Pairing::Match(m) => Some(m),
            Pairing::Bye(_) => None,
        })
        .collect()
}

/// The round being played: how many of its matches have a result, and its entry page.
fn playing(view: &CompetitionView, c_href: &str, round: u32, start: &str) -> (String, Link) {
    let matches = matches_of(view, round);
    let entered = matches
        .iter()
        .filter(|m| m.outcome != MatchOutcome::Pending)
        .count();
    (
        format!(
            "Round {round}, begun at {start}: {entered} of {} results entered.",
            matches.len()
        ),
        Link::new(
            format!("{c_href}/rounds/{round}/results"),
            format!("Enter round {round}'s results"),
        ),
    )
}

/// AS-11: the next round's lineups named, and the teams still to name theirs.
fn lineups(
    view: &CompetitionView,
    deadlines: EventDeadlines,
    round: u32,
    start: jiff::civil::DateTime,
    now: jiff::civil::DateTime,
) -> String {
    let mut named = 0;
    let mut missing = Vec::new();
    for m in matches_of(view, round) {
        for side in [Side::Home, Side::Away] {
            if view.stored.lineup(round, &m.home, side).is_some() {
                named += 1;
            } else {
                missing.push(team_name(view, m.team(side)));
            }
        }
    }
    let teams = named + missing.len();
    let missing = if missing.is_empty() {
        "every team has named its lineup".to_string()
    } else {
        format!(
            "missing: {}",
            arbiter_core::record::words::list(missing.iter())
        )
    };
    format!(
        "Round {round} starts at {}; lineups due at {} (AS-11): {named} of {teams} named; {missing}.",
        at(start, now),
        at(deadlines.lineup_due(start), now)
    )
}

async fn day(
    state: &AppState,
    view: &CompetitionView,
    league: &str,
    season: &str,
) -> Result<CompetitionDay, WebError> {
    let c_href = competition_href(league, season, &view.record.slug);
    let protests_href = crate::event::protests::protests_href(league, season, &view.record.slug);
    let open: Vec<Link> = state
        .store()
        .protests(view.id)
        .await?
        .into_iter()
        .filter(|p| {
            matches!(
                p.protest.stage(),
                Stage::AwaitingReply | Stage::AwaitingDecision
            )
        })
        .map(|p| {
            let waits = if p.protest.stage() == Stage::AwaitingReply {
                "awaiting the reply"
            } else {
                "awaiting your decision"
            };
            Link::new(
                format!("{protests_href}#protest-{}", p.number),
                format!(
                    "Protest {}: {} against {}'s order, {waits} (AS-13)",
                    p.number,
                    team_name(view, &p.protest.by),
                    team_name(view, &p.protest.against)
                ),
            )
        })
        .collect();
    let mut d = CompetitionDay {
        name: view.record.name.clone(),
        href: c_href.clone(),
        playing: None,
        next: None,
        deadline: None,
        protests: open,
        protests_href,
        unset: None,
    };
    let (Some(hall), Some(deadlines)) = (&view.hall, view.rules.event) else {
        d.unset = Some(
            "No round times are set for it yet: set them on the event's page (AS-1, AS-11).".into(),
        );
        return Ok(d);
    };
    if hall.round_starts.is_empty() {
        d.unset = Some(
            "No round times are set for it yet: set them on the event's page (AS-1, AS-11).".into(),
        );
        return Ok(d);
    }
    let now = hall.clock.to_datetime(state.now());
    let DayNow {
        playing: in_play,
        next,
        deadline,
    } = deadlines.day_now(&hall.round_starts, now);
    let start_of = |n: u32| {
        hall.round_starts
            .iter()
            .find(|(r, _)| *r == n)
            .map(|(_, s)| *s)
    };
    d.playing = in_play.and_then(|n| Some(playing(view, &c_href, n, &at(start_of(n)?, now))));
    d.next = next.map(|(n, start)| lineups(view, deadlines, n, start, now));
    d.deadline = deadline.map(|dl| {
        format!(
            "Next deadline: at {}, {} ({}).",
            at(dl.at, now),
            dl.what(),
            dl.rule()
        )
    });
    if in_play.is_some() && next.is_none() {
        d.next = Some("The last round has begun: no round is still to start.".into());
    }
    Ok(d)
}

/// GET `/leagues/{league}/{season}/event/today`: the arbiter's day.
pub async fn today_page(
    State(state): State<AppState>,
    auth: Auth,
    path: Addressed<SeasonAddress>,
) -> Response {
    let answer = async {
        let Path(SeasonAddress { league, season }) = path.map_err(|e| bad_path(&e))?;
        let tree = site::one(&state, &league).await?;
        // AS-19: the arbiter runs the event's rounds, as on the event's page.
        auth::permit_in_league(&auth, tree.league.id, Action::DrawSchedule)?;
        let s = load(&state, &tree, &season).await?;
        let mut competitions = Vec::new();
        for view in &s.competitions {
            competitions.push(day(&state, view, &league, &season).await?);
        }
        let clock = match &s.event {
            Some(e) => format!(
                "It is {} in the hall ({}, {}).",
                e.hall_time(state.now()).strftime("%H:%M on %A %-d %B %Y"),
                e.event.name,
                e.event.venue
            ),
            None => format!(
                "The event is not set yet, so no round has a time; it is {} by the league's clock.",
                words::timestamp_in(state.now(), &s.league.time_zone)
            ),
        };
        let page = TodayPage {
            layout: private_layout(
                &format!("The arbiter's day: {}", s.season.name),
                vec![
                    Link::new(league_href(&league), &s.league.name),
                    Link::new(season_href(&league, &season), &s.season.name),
                ],
            ),
            clock,
            event_href: event_href(&league, &season),
            competitions,
        };
        Ok(private(StatusCode::OK, &page))
    };
    answer
        .await
        .unwrap_or_else(|e: WebError| e.answer(Format::Html))
}
