//! Protests against a team's order (AS-13): GET `…/{competition}/protests` lists every protest
//! with its grounds, reply and decision, and shows each visitor the forms they may use: a
//! team's advisor lodges one (between the roster lock and the close of protests, by the hall's
//! clock), the team affected replies (or the arbiter records that it declined), and the arbiter
//! dismisses it or upholds it and sets the order. Core's `protest` decides each step; the store
//! keeps it, an upheld order made the roster's.

use arbiter_core::event::protest::{Answer, Decision, NewProtest, Protest, Ruling};
use arbiter_core::record::model::{PlayerId, TeamId};
use arbiter_core::record::text::Reason;
use arbiter_core::rules::permissions::{Action, Target};
use arbiter_store::{StoreError, StoredProtest};
use askama::Template;
use axum::Form;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::Response;
use serde::Deserialize;
use std::sync::Arc;

use crate::app::address::{Addressed, CompetitionAddress};
use crate::app::respond::{bad_path, private, see_other};
use crate::app::state::AppState;
use crate::app::view::CompetitionView;
use crate::http::auth::{self, Account, Auth};
use crate::http::csrf;
use crate::http::error::WebError;
use crate::ui::layout::{Layout, private_layout};
use crate::ui::link::{Link, competition_href, league_href, season_href};

/// `…/{competition}/protests/{number}/…`.
#[derive(Debug, Deserialize)]
pub struct ProtestAddress {
    league: String,
    season: String,
    competition: String,
    number: u32,
}

/// The protests page's address.
pub fn protests_href(league: &str, season: &str, competition: &str) -> String {
    format!("{}/protests", competition_href(league, season, competition))
}

struct TeamChoice {
    value: String,
    label: String,
}

struct OrderSlot {
    position: usize,
    field: String,
    choices: Vec<(String, String, bool)>,
}

struct ProtestView {
    number: u32,
    by: String,
    against: String,
    grounds: String,
    lodged: String,
    order: Vec<String>,
    reply: Option<String>,
    decision: Option<String>,
    /// The reply form's address, for the team affected or the arbiter.
    reply_action: Option<String>,
    /// The reply form is the team affected's (its words); otherwise the arbiter's record that
    /// it declined (AS-13).
    team_replies: bool,
    /// The decision form's address and the order's slots, for the arbiter.
    decide_action: Option<String>,
    slots: Vec<OrderSlot>,
}

#[derive(Template)]
#[template(path = "event/protests.html", whitespace = "minimize")]
struct ProtestsPage {
    layout: Layout,
    csrf: String,
    window: String,
    protests: Vec<ProtestView>,
    lodge_action: Option<String>,
    own_teams: Vec<TeamChoice>,
    other_teams: Vec<TeamChoice>,
    problems: Vec<String>,
}

/// The competition, its protests and the window, as every handler reads them.
struct Loaded {
    view: Arc<CompetitionView>,
    protests: Vec<StoredProtest>,
    /// Round 1's start and the hall's time now, once the arbiter has set the event.
    clock: Option<(jiff::civil::DateTime, jiff::civil::DateTime)>,
}

async fn load(state: &AppState, a: &CompetitionAddress) -> Result<Loaded, WebError> {
    let view = state.view(&a.league, &a.season, &a.competition).await?;
    if view.rules.event.is_none() {
        return Err(WebError::NotFound {
            message: format!(
                "{} is not played at an event with a roster lock, so it has no protests against a team's order (AS-13).",
                view.record.name
            ),
            links: vec![Link::new(
                competition_href(&a.league, &a.season, &a.competition),
                &view.record.name,
            )],
        });
    }
    let protests = state.store().protests(view.id).await?;
    let clock = state.store().event(view.season.id).await?.and_then(|e| {
        e.round_start(view.id, 1)
            .map(|first| (first, e.hall_time(state.now())))
    });
    Ok(Loaded {
        view,
        protests,
        clock,
    })
}

fn school_of<'v>(view: &'v CompetitionView, team: &TeamId) -> &'v str {
    view.competition
        .team(team)
        .and_then(|t| t.school.as_deref())
        .unwrap_or_default()
}

/// May `account` act for `team` (its school's advisor) on a protest?
fn for_team(view: &CompetitionView, account: Option<&Account>, team: &TeamId) -> bool {
    auth::may(
        account,
        view.league.id,
        Action::ProtestBoardOrder,
        Target::School(school_of(view, team)),
    )
}

/// The table's answer for deciding `p` (AS-13): its two teams' schools are the parties, so an
/// arbiter who also advises one of them is refused and another arbiter or the President decides.
fn permit_decision(
    view: &CompetitionView,
    account: Option<&Account>,
    p: &Protest,
) -> Result<auth::Acting, WebError> {
    let parties = [school_of(view, &p.by), school_of(view, &p.against)];
    let parties: Vec<&str> = parties.into_iter().filter(|s| !s.is_empty()).collect();
    auth::permit(
        account,
        view.league.id,
        Action::DecideProtest,
        Target::Parties(&parties),
    )
}

fn may_decide(view: &CompetitionView, account: Option<&Account>, p: &Protest) -> bool {
    account.is_some() && permit_decision(view, account, p).is_ok()
}

/// May `account` write the reply of the team `p` is against: that team's advisor (AS-13).
fn may_reply(view: &CompetitionView, account: Option<&Account>, p: &Protest) -> bool {
    auth::may(
        account,
        view.league.id,
        Action::ReplyToProtest,
        Target::School(school_of(view, &p.against)),
    )
}

fn player_name(view: &CompetitionView, id: &PlayerId) -> String {
    view.player(&id.0)
        .map_or_else(|| id.0.clone(), |(p, _)| p.name.clone())
}

async fn page(
    auth: &Auth,
    l: &Loaded,
    problems: Vec<String>,
    status: StatusCode,
) -> Result<Response, WebError> {
    let v = &l.view;
    let account = auth.user.as_ref();
    let (league, season, comp) = (&v.league.slug, &v.season.slug, &v.record.slug);
    let base = protests_href(league, season, comp);
    let deadlines = v
        .rules
        .event
        .unwrap_or(arbiter_core::event::event_day::EventDeadlines::ASTC);
    let window = match l.clock {
        Some((first, now)) => format!(
            "Protests may be lodged from the roster lock at {} until {} ({} minutes before round 1 at {}, AS-13); it is {} in the hall now.",
            deadlines.roster_lock(first).strftime("%H:%M"),
            deadlines.protests_close(first).strftime("%H:%M"),
            deadlines.protest_minutes,
            first.strftime("%H:%M"),
            now.strftime("%H:%M"),
        ),
        None => {
            "The arbiter has not set round 1's start yet, so protests are not open (AS-12, AS-13)."
                .into()
        }
    };
    let team_name = |t: &TeamId| v.team_name(t);
    let protests = l
        .protests
        .iter()
        .map(|s| {
            let p = &s.protest;
            let open = p.decision.is_none() && p.reply.is_none();
            let team_replies = open && may_reply(v, account, p);
            let records_declined = open && !team_replies && may_decide(v, account, p);
            let decides = p.reply.is_some() && p.decision.is_none() && may_decide(v, account, p);
            let roster: Vec<PlayerId> = v
                .competition
                .team(&p.against)
                .map(|t| t.players.iter().map(|x| x.id.clone()).collect())
                .unwrap_or_default();
            ProtestView {
                number: s.number,
                by: team_name(&p.by),
                against: team_name(&p.against),
                grounds: p.grounds.to_string(),
                // People by their part, not their address (issue 32, item 27); the history
                // names who, for those who may read it. Times are the hall's clock (AS-13).
                lodged: format!(
                    "Lodged at {}{}",
                    p.lodged_at.strftime("%H:%M on %-d %B"),
                    s.lodged_by
                        .as_ref()
                        .map(|_| format!(" by the advisor of {}", team_name(&p.by)))
                        .unwrap_or_default()
                ),
                order: p
                    .order_protested
                    .iter()
                    .map(|id| player_name(v, id))
                    .collect(),
                reply: p.reply.as_ref().map(|r| match &r.answer {
                    Answer::Written(t) => format!("Reply at {}: {t}", r.at.strftime("%H:%M")),
                    Answer::Declined => {
                        format!("At {} the team declined to reply.", r.at.strftime("%H:%M"))
                    }
                }),
                decision: p.decision.as_ref().map(|d| {
                    let why = d
                        .reason
                        .as_ref()
                        .map(|r| format!(" Why: {r}"))
                        .unwrap_or_default();
                    match &d.ruling {
                        Ruling::Dismissed => format!(
                            "Dismissed at {}: the order stands (AS-13).{why}",
                            d.at.strftime("%H:%M")
                        ),
                        Ruling::Upheld { order } => format!(
                            "Upheld at {}; the order is now {} (AS-13).{why}",
                            d.at.strftime("%H:%M"),
                            order
                                .iter()
                                .enumerate()
                                .map(|(i, id)| format!("{}. {}", i + 1, player_name(v, id)))
                                .collect::<Vec<_>>()
                                .join(", ")
                        ),
                    }
                }),
                reply_action: (team_replies || records_declined)
                    .then(|| format!("{base}/{}/reply", s.number)),
                team_replies,
                decide_action: decides.then(|| format!("{base}/{}/decision", s.number)),
                slots: if decides {
                    (1..=roster.len())
                        .map(|i| OrderSlot {
                            position: i,
                            field: format!("order_{i}"),
                            choices: roster
                                .iter()
                                .enumerate()
                                .map(|(j, id)| (id.0.clone(), player_name(v, id), i == j + 1))
                                .collect(),
                        })
                        .collect()
                } else {
                    Vec::new()
                },
            }
        })
        .collect();
    let own: Vec<TeamChoice> = v
        .competition
        .teams
        .iter()
        .filter(|t| for_team(v, account, &t.id))
        .map(|t| TeamChoice {
            value: t.id.0.clone(),
            label: t.name.clone(),
        })
        .collect();
    let page = ProtestsPage {
        layout: private_layout(
            &format!("Protests against a team's order: {}", v.record.name),
            vec![
                Link::new(league_href(league), &v.league.name),
                Link::new(season_href(league, season), &v.season.name),
                Link::new(competition_href(league, season, comp), &v.record.name),
            ],
        ),
        csrf: csrf::session_token(&auth.session).await?,
        window,
        protests,
        lodge_action: (!own.is_empty()).then(|| base.clone()),
        other_teams: v
            .competition
            .teams
            .iter()
            .map(|t| TeamChoice {
                value: t.id.0.clone(),
                label: t.name.clone(),
            })
            .collect(),
        own_teams: own,
        problems,
    };
    Ok(private(status, &page))
}

/// GET `…/{competition}/protests`.
pub async fn protests_page(
    State(state): State<AppState>,
    auth: Auth,
    path: Addressed<CompetitionAddress>,
) -> Result<Response, WebError> {
    let Path(a) = path.map_err(|e| bad_path(&e))?;
    let l = load(&state, &a).await?;
    page(&auth, &l, Vec::new(), StatusCode::OK).await
}

fn field<'a>(fields: &'a [(String, String)], name: &str) -> &'a str {
    fields
        .iter()
        .find(|(n, _)| n == name)
        .map_or("", |(_, v)| v.as_str())
}

/// What a refused step answers: the page with the sentence, or the stale write's conflict.
async fn refused(
    auth: &Auth,
    state: &AppState,
    a: &CompetitionAddress,
    e: String,
    status: StatusCode,
) -> Result<Response, WebError> {
    let l = load(state, a).await?;
    page(auth, &l, vec![e], status).await
}

fn stored(e: StoreError) -> (String, StatusCode) {
    match e {
        StoreError::Stale(m) => (m, StatusCode::CONFLICT),
        other => (
            WebError::from_write(other).message(),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
    }
}

/// POST `…/{competition}/protests`: a team's advisor lodges a protest (AS-13).
pub async fn lodge(
    State(state): State<AppState>,
    auth: Auth,
    path: Addressed<CompetitionAddress>,
    Form(fields): Form<Vec<(String, String)>>,
) -> Result<Response, WebError> {
    let Path(a) = path.map_err(|e| bad_path(&e))?;
    let l = load(&state, &a).await?;
    let v = &l.view;
    let by = TeamId(field(&fields, "by").to_string());
    let acting = auth::permit(
        auth.user.as_ref(),
        v.league.id,
        Action::ProtestBoardOrder,
        Target::School(school_of(v, &by)),
    )?;
    let Some((first, now)) = l.clock else {
        return refused(&auth, &state, &a, "AS-13: the arbiter has not set round 1's start, so the roster lock and the protests' window are not known yet.".into(), StatusCode::UNPROCESSABLE_ENTITY).await;
    };
    let new = NewProtest {
        by,
        against: TeamId(field(&fields, "against").to_string()),
        grounds: field(&fields, "grounds").to_string(),
        at: now,
    };
    let deadlines = v
        .rules
        .event
        .unwrap_or(arbiter_core::event::event_day::EventDeadlines::ASTC);
    let protest = match Protest::lodge(&v.competition, &deadlines, first, new) {
        Ok(p) => p,
        Err(e) => {
            return refused(
                &auth,
                &state,
                &a,
                format!("{e}."),
                StatusCode::UNPROCESSABLE_ENTITY,
            )
            .await;
        }
    };
    match state
        .store()
        .record_protest(v.id, &protest, &acting.actor())
        .await
    {
        Ok(s) => {
            state.invalidate();
            let what = format!(
                "{} protested the order of {} (AS-13): {} {} replies in writing before the arbiter dismisses or upholds it.",
                v.team_name(&protest.by),
                v.team_name(&protest.against),
                protest.grounds.as_str(),
                v.team_name(&protest.against)
            );
            told(&state, v, &protest, s.number, &what, &acting).await;
            Ok(see_other(&format!(
                "{}#protest-{}",
                protests_href(&a.league, &a.season, &a.competition),
                s.number
            )))
        }
        Err(e) => {
            let (m, status) = stored(e);
            refused(&auth, &state, &a, m, status).await
        }
    }
}

/// AS-13: both teams and the arbiter told of a step, not who took it.
async fn told(
    state: &AppState,
    v: &CompetitionView,
    p: &Protest,
    number: u32,
    what: &str,
    acting: &auth::Acting,
) {
    let page = protests_href(&v.league.slug, &v.season.slug, &v.record.slug);
    crate::results::notify::tell_protest(
        state,
        v,
        (&p.by, &p.against),
        (number, &page),
        what,
        Some(&acting.email),
    )
    .await;
}

/// The hall's time now; the league's local time while the event has no round 1 set.
fn hall_now(state: &AppState, l: &Loaded) -> jiff::civil::DateTime {
    l.clock
        .map_or_else(|| state.local_now(&l.view.league.time_zone), |(_, now)| now)
}

/// After a step is stored: the protest on its page.
fn back_to(state: &AppState, a: &CompetitionAddress, number: u32) -> Response {
    state.invalidate();
    see_other(&format!(
        "{}#protest-{number}",
        protests_href(&a.league, &a.season, &a.competition)
    ))
}

fn competition_of(a: &ProtestAddress) -> CompetitionAddress {
    CompetitionAddress {
        league: a.league.clone(),
        season: a.season.clone(),
        competition: a.competition.clone(),
    }
}

/// The protest `number` of the loaded competition, or the page's sentence.
fn find(l: &Loaded, number: u32) -> Result<&StoredProtest, WebError> {
    l.protests
        .iter()
        .find(|p| p.number == number)
        .ok_or_else(|| WebError::NotFound {
            message: format!("{} has no protest {number}.", l.view.record.name),
            links: Vec::new(),
        })
}

/// POST `…/protests/{number}/reply`: the team affected's reply, or the arbiter's record that
/// it declined (AS-13).
pub async fn reply(
    State(state): State<AppState>,
    auth: Auth,
    path: Addressed<ProtestAddress>,
    Form(fields): Form<Vec<(String, String)>>,
) -> Result<Response, WebError> {
    let Path(pa) = path.map_err(|e| bad_path(&e))?;
    let a = competition_of(&pa);
    let l = load(&state, &a).await?;
    let v = &l.view;
    let s = find(&l, pa.number)?;
    let account = auth.user.as_ref();
    // The reply is the team affected's own; the arbiter, when no party, only records
    // that it declined, once protests have closed (AS-13).
    let (acting, by_team) = match auth::permit(
        account,
        v.league.id,
        Action::ReplyToProtest,
        Target::School(school_of(v, &s.protest.against)),
    ) {
        Ok(acting) => (acting, true),
        // An arbiter is told why it may not (a party to the protest); anyone else, whose
        // team it is to reply.
        Err(e) => {
            let arbiter = auth::may(account, v.league.id, Action::DecideProtest, Target::League);
            match permit_decision(v, account, &s.protest) {
                Ok(acting) => (acting, false),
                Err(d) if arbiter => return Err(d),
                Err(_) => return Err(e),
            }
        }
    };
    let now = hall_now(&state, &l);
    let answer = field(&fields, "answer");
    let step = match (by_team, l.clock) {
        (true, _) => s.protest.reply(answer, now),
        (false, _) if !answer.trim().is_empty() => {
            return refused(
                &auth,
                &state,
                &a,
                format!(
                    "AS-13: the reply is {}'s own, in its words; the arbiter records only that it declined, so leave the reply empty.",
                    v.team_name(&s.protest.against)
                ),
                StatusCode::FORBIDDEN,
            )
            .await;
        }
        (false, Some((first, _))) => {
            let deadlines = v
                .rules
                .event
                .unwrap_or(arbiter_core::event::event_day::EventDeadlines::ASTC);
            s.protest.declined(&deadlines, first, now)
        }
        (false, None) => s.protest.reply(answer, now),
    };
    let replied = match step {
        Ok(p) => p,
        Err(e) => {
            return refused(
                &auth,
                &state,
                &a,
                format!("{e}."),
                StatusCode::UNPROCESSABLE_ENTITY,
            )
            .await;
        }
    };
    let Some(r) = &replied.reply else {
        return Err(WebError::Refused("AS-13: no reply was read.".into()));
    };
    match state
        .store()
        .record_protest_reply(v.id, pa.number, r, &acting.actor())
        .await
    {
        Ok(()) => {
            let against = v.team_name(&s.protest.against);
            let what = match &r.answer {
                Answer::Written(text) => format!(
                    "{against} replied to protest {} (AS-13): {} The arbiter now dismisses or upholds it.",
                    pa.number,
                    text.as_str()
                ),
                Answer::Declined => format!(
                    "The arbiter recorded that {against} did not reply to protest {} (AS-13); the arbiter now dismisses or upholds it.",
                    pa.number
                ),
            };
            told(&state, v, &s.protest, pa.number, &what, &acting).await;
            Ok(back_to(&state, &a, pa.number))
        }
        Err(e) => {
            let (m, status) = stored(e);
            refused(&auth, &state, &a, m, status).await
        }
    }
}

/// POST `…/protests/{number}/decision`: the arbiter dismisses the protest or upholds it and
/// sets the order (AS-13).
pub async fn decide(
    State(state): State<AppState>,
    auth: Auth,
    path: Addressed<ProtestAddress>,
    Form(fields): Form<Vec<(String, String)>>,
) -> Result<Response, WebError> {
    let Path(pa) = path.map_err(|e| bad_path(&e))?;
    // The table first: only the arbiter learns what there is to decide.
    let tree = crate::app::site::one(&state, &pa.league).await?;
    auth::permit_in_league(&auth, tree.league.id, Action::DecideProtest)?;
    let a = competition_of(&pa);
    let l = load(&state, &a).await?;
    let v = &l.view;
    let s = find(&l, pa.number)?;
    // No party decides its own protest, in any role (AS-13).
    let acting = permit_decision(v, auth.user.as_ref(), &s.protest)?;
    let reason = match Reason::parse_as("the decision's reason", field(&fields, "reason")) {
        Ok(r) => r,
        Err(e) => {
            return refused(
                &auth,
                &state,
                &a,
                e.to_string(),
                StatusCode::UNPROCESSABLE_ENTITY,
            )
            .await;
        }
    };
    let ruling = if field(&fields, "ruling") == "upheld" {
        let order = (1..=64)
            .map(|i| field(&fields, &format!("order_{i}")))
            .take_while(|k| !k.is_empty())
            .map(|k| PlayerId(k.to_string()))
            .collect();
        Ruling::Upheld { order }
    } else {
        Ruling::Dismissed
    };
    let now = hall_now(&state, &l);
    let decision = Decision {
        ruling,
        by: acting.email.clone(),
        at: now,
        reason,
    };
    let Some((first, _)) = l.clock else {
        return refused(&auth, &state, &a, "AS-13: the arbiter has not set round 1's start, so there is no order yet to decide on.".into(), StatusCode::UNPROCESSABLE_ENTITY).await;
    };
    let decided = match s.protest.decide(&v.competition, decision, first) {
        Ok(p) => p,
        Err(e) => {
            return refused(
                &auth,
                &state,
                &a,
                format!("{e}."),
                StatusCode::UNPROCESSABLE_ENTITY,
            )
            .await;
        }
    };
    let Some(d) = &decided.decision else {
        return Err(WebError::Refused("AS-13: no decision was read.".into()));
    };
    match state
        .store()
        .record_protest_decision(v.id, pa.number, &s.protest.against, d, &acting.actor())
        .await
    {
        Ok(()) => {
            let against = v.team_name(&s.protest.against);
            let what = match &d.ruling {
                Ruling::Dismissed => format!(
                    "The arbiter dismissed protest {} against {against}'s order (AS-13): {} The order stands.",
                    pa.number,
                    d.reason.as_ref().map_or("", |r| r.as_str())
                ),
                Ruling::Upheld { order } => format!(
                    "The arbiter upheld protest {} against {against}'s order (AS-13): {} {against}'s order is now {}; its lineups follow it from the next one named (AS-10).",
                    pa.number,
                    d.reason.as_ref().map_or("", |r| r.as_str()),
                    order
                        .iter()
                        .map(|p| {
                            v.competition
                                .teams
                                .iter()
                                .flat_map(|t| &t.players)
                                .find(|x| &x.id == p)
                                .map_or_else(|| p.0.clone(), |x| x.name.clone())
                        })
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            };
            told(&state, v, &s.protest, pa.number, &what, &acting).await;
            Ok(back_to(&state, &a, pa.number))
        }
        Err(e) => {
            let (m, status) = stored(e);
            refused(&auth, &state, &a, m, status).await
        }
    }
}
