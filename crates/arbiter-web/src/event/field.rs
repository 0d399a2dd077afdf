//! Field planning for an event's competition (AS-4..AS-8), for the arbiter or the President:
//! GET `/leagues/{league}/field` shows the form (the entries and the previous championship's
//! finish as `arbiter astc field` reads them, the host, whether it can add a team, the lot's
//! seed); POST to it shows core's `field::plan`: each team to invite in order with its clause,
//! and the invitation order with the seed, so the same seed draws the same lot again.

use arbiter_core::field::{self, FieldPlan, Host, State as Region};
use arbiter_core::permissions::{Action, Target};
use arbiter_formats::field_json;
use askama::Template;
use axum::Form;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::Response;
use serde::Deserialize;

use crate::app::respond::private;
use crate::app::site;
use crate::app::state::AppState;
use crate::http::auth::{self, Auth};
use crate::http::csrf;
use crate::http::error::{Format, WebError};
use crate::ui::layout::{Layout, private_layout};
use crate::ui::link::{Link, league_href};

/// The page's address.
pub fn field_href(league: &str) -> String {
    format!("{}/field", league_href(league))
}

/// The form as sent.
#[derive(Debug, Default, Deserialize)]
pub struct FieldForm {
    #[serde(default)]
    entries: String,
    #[serde(default)]
    previous: String,
    #[serde(default)]
    host: String,
    #[serde(default)]
    host_cannot_add: Option<String>,
    #[serde(default)]
    seed: String,
    /// `season/competition` of a championship stored here whose final standings fill in the
    /// previous finish (AS-8).
    #[serde(default)]
    from: String,
    /// `fill` (the previous finish from `from`), or the plan.
    #[serde(default)]
    step: String,
}

struct StepLine {
    clause: String,
    invite: String,
    reason: String,
}

struct PlanView {
    summary: String,
    steps: Vec<StepLine>,
    order: String,
}

struct HostChoice {
    code: &'static str,
    name: &'static str,
    selected: bool,
}

#[derive(Template)]
#[template(path = "event/field.html", whitespace = "minimize")]
struct FieldPage {
    layout: Layout,
    csrf: String,
    action: String,
    entries: String,
    previous: String,
    hosts: Vec<HostChoice>,
    host_cannot_add: bool,
    seed: String,
    /// The league's competitions whose final standings may be the previous finish.
    stored: Vec<(String, String)>,
    problems: Vec<String>,
    plan: Option<PlanView>,
}

fn plan_view(plan: &FieldPlan, competition: &str, previous: bool) -> PlanView {
    let codes = |list: &[Region]| list.iter().map(|s| s.code()).collect::<Vec<_>>().join(", ");
    let (finish, lot) = plan.invitation_order.split_at(plan.by_finish);
    PlanView {
        summary: if plan.steps.is_empty() {
            format!(
                "{competition}: a field of {} needs no invitation (AS-5..AS-7).",
                plan.field_before
            )
        } else {
            format!(
                "{competition}: {} teams entered; {} to invite, for a field of {} (AS-19).",
                plan.field_before,
                plan.steps.len(),
                plan.field_after
            )
        },
        steps: plan
            .steps
            .iter()
            .map(|s| StepLine {
                clause: s.clause.to_string(),
                invite: format!("{} ({})", s.invite.name(), s.invite.code()),
                reason: s.reason.clone(),
            })
            .collect(),
        order: match (previous, lot.is_empty()) {
            (true, true) => format!(
                "Invitation order (AS-8): the previous finish, {}.",
                codes(finish)
            ),
            (true, false) => format!(
                "Invitation order (AS-8): the previous finish first, {}; then by lot (seed {}), {}.",
                codes(finish),
                plan.lot_seed,
                codes(lot)
            ),
            (false, _) => format!(
                "Invitation order (AS-8): no previous finish was given, so all by lot (seed {}): {}.",
                plan.lot_seed,
                codes(lot)
            ),
        },
    }
}

async fn page(
    state: &AppState,
    auth: &Auth,
    league: &str,
    f: &FieldForm,
    problems: Vec<String>,
    plan: Option<PlanView>,
    status: StatusCode,
) -> Result<Response, WebError> {
    let tree = site::one(state, league).await?;
    auth::permit(
        auth.user.as_ref(),
        tree.league.id,
        Action::DrawSchedule,
        Target::League,
    )?;
    let page = FieldPage {
        layout: private_layout(
            "Plan a competition's field (AS-4..AS-8)",
            vec![Link::new(league_href(league), &tree.league.name)],
        ),
        csrf: csrf::session_token(&auth.session).await?,
        action: field_href(league),
        entries: f.entries.clone(),
        previous: f.previous.clone(),
        hosts: Region::ALL
            .iter()
            .map(|h| HostChoice {
                code: h.code(),
                name: h.name(),
                selected: h.code() == f.host.trim(),
            })
            .collect(),
        host_cannot_add: f.host_cannot_add.is_some(),
        seed: f.seed.clone(),
        stored: tree
            .seasons
            .iter()
            .rev()
            .flat_map(|(season, comps)| {
                comps.iter().map(move |c| {
                    (
                        format!("{}/{}", season.slug, c.slug),
                        format!("{} — {}", c.name, season.name),
                    )
                })
            })
            .collect(),
        problems,
        plan,
    };
    Ok(private(status, &page))
}

/// GET `/leagues/{league}/field`.
pub async fn field_page(
    State(state): State<AppState>,
    auth: Auth,
    Path(league): Path<String>,
) -> Response {
    page(
        &state,
        &auth,
        &league,
        &FieldForm::default(),
        Vec::new(),
        None,
        StatusCode::OK,
    )
    .await
    .unwrap_or_else(|e| e.answer(Format::Html))
}

/// POST `/leagues/{league}/field`: the plan, or every problem with the entries.
pub async fn plan_field(
    State(state): State<AppState>,
    auth: Auth,
    Path(league): Path<String>,
    Form(mut f): Form<FieldForm>,
) -> Response {
    if f.step == "fill" {
        let (filled, problems) = match previous_from(&state, &league, &f.from).await {
            Ok(json) => (json, Vec::new()),
            Err(e) => (f.previous.clone(), vec![e.message()]),
        };
        f.previous = filled;
        let status = if problems.is_empty() {
            StatusCode::OK
        } else {
            StatusCode::UNPROCESSABLE_ENTITY
        };
        return page(&state, &auth, &league, &f, problems, None, status)
            .await
            .unwrap_or_else(|e| e.answer(Format::Html));
    }
    let mut problems = Vec::new();
    let host = Region::parse(f.host.trim())
        .map_err(|e| problems.push(e))
        .ok();
    let seed = f
        .seed
        .trim()
        .parse::<u64>()
        .map_err(|_| {
            problems.push(format!(
                "AS-8: “{}” is not a seed for the lot; give a whole number (it is recorded with the plan, and the same seed draws the same order)",
                f.seed.trim()
            ));
        })
        .ok();
    let entries = field_json::read_entries("the entries", &f.entries)
        .map_err(|e| problems.push(e.to_string()))
        .ok();
    let previous = if f.previous.trim().is_empty() {
        None
    } else {
        field_json::read_finish("the previous finish", &f.previous)
            .map_err(|e| problems.push(e.to_string()))
            .ok()
    };
    let planned = match (entries, host, seed) {
        (Some(entries), Some(state_), Some(seed)) if problems.is_empty() => {
            let host = Host {
                state: state_,
                can_add: f.host_cannot_add.is_none(),
            };
            match field::plan(&entries, host, previous.as_ref(), seed) {
                Ok(plan) => Some(plan_view(&plan, entries.competition(), previous.is_some())),
                Err(e) => {
                    problems.push(e.to_string());
                    None
                }
            }
        }
        _ => None,
    };
    let status = if problems.is_empty() {
        StatusCode::OK
    } else {
        StatusCode::UNPROCESSABLE_ENTITY
    };
    page(&state, &auth, &league, &f, problems, planned, status)
        .await
        .unwrap_or_else(|e| e.answer(Format::Html))
}

/// AS-8: the previous finish as `arbiter astc field` reads it, from the final standings of a
/// championship stored here (`season/competition`). A team's state is the code its id or its
/// name's brackets carry (`vic`, `sa-2`, "Perth Modern School (WA)"); a team without one is
/// refused by name, for the officer to write it in.
async fn previous_from(state: &AppState, league: &str, from: &str) -> Result<String, WebError> {
    let Some((season, competition)) = from.split_once('/') else {
        return Err(WebError::Refused(
            "Choose the championship whose final standings are the previous finish.".into(),
        ));
    };
    let view = state.view(league, season, competition).await?;
    let standings = view.standings.as_ref().map_err(|m| {
        WebError::Refused(format!(
            "{}'s standings cannot be computed: {m}",
            view.record.name
        ))
    })?;
    let mut finish = Vec::new();
    let mut unknown = Vec::new();
    for row in &standings.rows {
        let team = &view.competition.teams[row.team];
        let named = team
            .name
            .rsplit_once('(')
            .and_then(|(_, code)| code.strip_suffix(')'));
        let by_id = team.id.0.split('-').next();
        match named
            .and_then(|c| Region::parse(c).ok())
            .or_else(|| by_id.and_then(|c| Region::parse(&c.to_uppercase()).ok()))
        {
            Some(region) => finish.push(serde_json::json!({
                "place": row.rank,
                "state": region.code(),
                "school": team.school.clone().unwrap_or_else(|| team.name.clone()),
            })),
            None => unknown.push(team.name.clone()),
        }
    }
    if !unknown.is_empty() {
        return Err(WebError::Refused(format!(
            "AS-8: the state of {} cannot be read from its name or id; write the previous finish in by hand.",
            unknown.join(", ")
        )));
    }
    Ok(serde_json::to_string_pretty(&serde_json::json!({ "finish": finish })).unwrap_or_default())
}
