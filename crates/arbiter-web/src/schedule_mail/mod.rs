//! GT-O3: the Secretary sends the schedule to the schools. Each school with a team in the
//! season gets one mail (to each of its advisors): its teams' matches with their days, times and
//! places, the link to subscribe to its calendar, and its printable schedule. [`outgoing`] says
//! who would get what (the page's preview); [`send`] is the one write path: the mails, then one
//! row in the season's history saying to which schools they went.
//!
//! GET `/leagues/{league}/{season}/send-schedule` previews; POST with `step=send` sends.

use std::sync::Arc;

use arbiter_core::rules::permissions::{Action, Role};
use arbiter_mail::Mail;
use arbiter_store::{League, Season};
use askama::Template;
use axum::Form;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::Response;
use serde::Deserialize;

use crate::app::address::{Addressed, SeasonAddress};
use crate::app::respond::{bad_path, private, see_other};
use crate::app::state::AppState;
use crate::app::view::CompetitionView;
use crate::http::auth::{Acting, Auth};
use crate::http::csrf;
use crate::http::error::{Format, WebError};
use crate::public::schedule_sheet::{self, Row, of_school, rows, school_sheet_href};
use crate::ui::layout::{Layout, private_layout};
use crate::ui::link::{Feed, Link, league_href, school_calendar_href, season_href};

/// `/leagues/{league}/{season}/send-schedule`.
pub fn send_schedule_href(league: &str, season: &str) -> String {
    format!("{}/send-schedule", season_href(league, season))
}

/// One school's mail: its matches and who gets it.
pub struct SchoolMail {
    pub school: String,
    /// Its advisors' emails; empty: no one to send it to.
    pub to: Vec<String>,
    pub rows: Vec<Row>,
}

/// A season as the sending reads it.
pub struct SeasonToSend {
    pub league: League,
    pub season: Season,
    pub views: Vec<Arc<CompetitionView>>,
}

pub async fn load(state: &AppState, league: &str, season: &str) -> Result<SeasonToSend, WebError> {
    let (league, season, views) = crate::public::site::season_views(state, league, season).await?;
    Ok(SeasonToSend {
        league,
        season,
        views,
    })
}

/// Each school with a dated match in the season, by name, with its matches and its advisors.
pub async fn outgoing(state: &AppState, s: &SeasonToSend) -> Result<Vec<SchoolMail>, WebError> {
    let mut schools: Vec<String> = s
        .views
        .iter()
        .flat_map(|v| v.competition.teams.iter().filter_map(|t| t.school.clone()))
        .collect();
    schools.sort();
    schools.dedup();
    let members = state.store().league_members(s.league.id).await?;
    let mut out = Vec::new();
    for school in schools {
        let mut all = Vec::new();
        for v in &s.views {
            all.extend(rows(v, |t| of_school(v, &school, t)));
        }
        if all.is_empty() {
            continue;
        }
        all.sort_by_key(|r| (r.date, r.start, r.round));
        let mut to: Vec<String> = members
            .iter()
            .filter(|m| {
                m.membership.role == Role::Advisor
                    && m.membership.school.as_deref() == Some(school.as_str())
            })
            .map(|m| m.user.email.clone())
            .collect();
        to.sort();
        to.dedup();
        out.push(SchoolMail {
            school,
            to,
            rows: all,
        });
    }
    Ok(out)
}

/// The text a school gets.
fn mail_text(state: &AppState, s: &SeasonToSend, m: &SchoolMail) -> String {
    let base = state.base_url();
    let mut text = format!(
        "The schedule of {}'s teams in {} {} (GT-O3), sent by the league's Secretary.\n",
        m.school, s.league.name, s.season.name
    );
    for r in &m.rows {
        let when = match r.start {
            Some(_) => format!("{} at {}", r.day(), r.time()),
            None => format!(
                "{}, after school (the home advisor arranges the time, GT-M1)",
                r.day()
            ),
        };
        let note = r
            .not_played
            .as_ref()
            .map(|n| format!(" Not played: {n}"))
            .unwrap_or_default();
        text.push_str(&format!(
            "\n{when}\n  {}, round {}: {} v {}\n  At {}.{note}\n",
            r.division,
            r.round,
            r.home,
            r.away,
            r.where_()
        ));
    }
    if let Some(path) = school_calendar_href(&s.league.slug, &m.school) {
        let feed = Feed::new(base, &path, "");
        text.push_str(&format!(
            "\nTo keep these matches in your calendar, with every later change: {}\n(or add it by its address: {})\n",
            feed.webcal, feed.web
        ));
    }
    text.push_str(&format!(
        "The schedule to print: {base}{}\n",
        school_sheet_href(&s.league.slug, &m.school)
    ));
    text
}

/// What was sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sent {
    pub schools: usize,
    pub mails: usize,
    pub failed: usize,
}

/// The one write path of GT-O3's sending: one mail to each advisor of each school that has
/// one, sent before this returns, then the sending in the season's history.
pub async fn send(state: &AppState, s: &SeasonToSend, acting: &Acting) -> Result<Sent, WebError> {
    let schools = outgoing(state, s).await?;
    let mut sent = Sent {
        schools: 0,
        mails: 0,
        failed: 0,
    };
    let mut told = Vec::new();
    for m in schools.iter().filter(|m| !m.to.is_empty()) {
        let text = mail_text(state, s, m);
        let mut any = false;
        for to in &m.to {
            let mail = Mail {
                to: to.clone(),
                subject: format!(
                    "{}: the {} schedule of {}",
                    s.league.name, s.season.name, m.school
                ),
                text: text.clone(),
            };
            match state.mailer().send(&mail).await {
                Ok(_) => {
                    sent.mails += 1;
                    any = true;
                }
                Err(e) => {
                    tracing::warn!(to = %to, cause = %e, "the schedule was not sent");
                    sent.failed += 1;
                }
            }
        }
        if any {
            sent.schools += 1;
            told.push(m.school.clone());
        }
    }
    let record = serde_json::json!({
        "name": s.season.name,
        "schools": told,
        "mails": sent.mails,
        "failed": sent.failed,
    });
    state
        .store()
        .record_schedule_sent(s.league.id, s.season.id, record, &acting.actor())
        .await
        .map_err(WebError::from_write)?;
    state.invalidate();
    Ok(sent)
}

/// A school as the preview lists it.
struct Line {
    school: String,
    matches: usize,
    to: String,
    sheet: String,
}

#[derive(Template)]
#[template(path = "schedule_mail/send.html", whitespace = "minimize")]
struct SendPage {
    layout: Layout,
    csrf: String,
    action: String,
    notice: Option<String>,
    summary: String,
    lines: Vec<Line>,
    mails: usize,
    csv: String,
    sheets: Vec<Link>,
    history: String,
}

/// `?sent=3&mails=4&failed=0`: what was just sent.
#[derive(Debug, Default, Deserialize)]
pub struct Done {
    sent: Option<usize>,
    mails: Option<usize>,
    #[serde(default)]
    failed: usize,
}

#[derive(Debug, Default, Deserialize)]
pub struct SendFields {
    #[serde(default)]
    step: String,
}

async fn guard(
    state: &AppState,
    auth: &Auth,
    path: Addressed<SeasonAddress>,
) -> Result<(SeasonToSend, Acting), WebError> {
    let Path(SeasonAddress { league, season }) = path.map_err(|e| bad_path(&e))?;
    let (_, acting) =
        crate::app::site::league_officer(state, auth, &league, Action::SendScheduleToSchools)
            .await?;
    Ok((load(state, &league, &season).await?, acting))
}

fn plural(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

async fn page(
    state: &AppState,
    auth: &Auth,
    s: &SeasonToSend,
    notice: Option<String>,
) -> Result<Response, WebError> {
    let (l, x) = (&s.league.slug, &s.season.slug);
    let schools = outgoing(state, s).await?;
    let mails: usize = schools.iter().map(|m| m.to.len()).sum();
    let reached = schools.iter().filter(|m| !m.to.is_empty()).count();
    let unreached = schools.len() - reached;
    let summary = format!(
        "{} with a match in {}: {} to send, one a school to each of its advisors{}.",
        plural(schools.len(), "school", "schools"),
        s.season.name,
        plural(mails, "mail", "mails"),
        if unreached > 0 {
            format!(
                "; {} no advisor yet, so no mail (invite one from the people page, then send again)",
                plural(unreached, "school has", "schools have")
            )
        } else {
            String::new()
        }
    );
    let page = SendPage {
        layout: private_layout(
            &format!(
                "Send the schedule to the schools (GT-O3): {}",
                s.season.name
            ),
            vec![
                Link::new(league_href(l), &s.league.name),
                Link::new(season_href(l, x), &s.season.name),
            ],
        ),
        csrf: csrf::session_token(&auth.session).await?,
        action: send_schedule_href(l, x),
        notice,
        summary,
        lines: schools
            .iter()
            .map(|m| Line {
                school: m.school.clone(),
                matches: m.rows.len(),
                to: if m.to.is_empty() {
                    "no advisor: not sent".into()
                } else {
                    m.to.join(", ")
                },
                sheet: school_sheet_href(l, &m.school),
            })
            .collect(),
        mails,
        csv: schedule_sheet::season_csv_href(l, x),
        sheets: s
            .views
            .iter()
            .map(|v| {
                Link::new(
                    schedule_sheet::division_sheet_href(l, x, &v.record.slug),
                    &v.record.name,
                )
            })
            .collect(),
        history: format!("{}/history", season_href(l, x)),
    };
    Ok(private(StatusCode::OK, &page))
}

/// GET `/leagues/{league}/{season}/send-schedule`: the preview, and what was just sent.
pub async fn send_page(
    State(state): State<AppState>,
    auth: Auth,
    path: Addressed<SeasonAddress>,
    done: Result<Query<Done>, QueryRejection>,
) -> Response {
    async {
        let (s, _) = guard(&state, &auth, path).await?;
        let notice = done.ok().and_then(|Query(d)| {
            let (schools, mails) = (d.sent?, d.mails?);
            Some(format!(
                "The schedule went to {} in {} (GT-O3); the sending is in the season's history.{}",
                plural(schools, "school", "schools"),
                plural(mails, "mail", "mails"),
                if d.failed > 0 {
                    format!(
                        " {} could not be sent: send again later.",
                        plural(d.failed, "mail", "mails")
                    )
                } else {
                    String::new()
                }
            ))
        });
        page(&state, &auth, &s, notice).await
    }
    .await
    .unwrap_or_else(|e: WebError| e.answer(Format::Html))
}

/// POST `/leagues/{league}/{season}/send-schedule` with `step=send`: sends every school its
/// mail, then back to the page saying how many went.
pub async fn send_schedule(
    State(state): State<AppState>,
    auth: Auth,
    path: Addressed<SeasonAddress>,
    Form(f): Form<SendFields>,
) -> Response {
    async {
        let (s, acting) = guard(&state, &auth, path).await?;
        if f.step != "send" {
            return page(&state, &auth, &s, None).await;
        }
        let sent = send(&state, &s, &acting).await?;
        Ok(see_other(&format!(
            "{}?sent={}&mails={}&failed={}",
            send_schedule_href(&s.league.slug, &s.season.slug),
            sent.schools,
            sent.mails,
            sent.failed
        )))
    }
    .await
    .unwrap_or_else(|e: WebError| e.answer(Format::Html))
}
