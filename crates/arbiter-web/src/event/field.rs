//! Field planning for an event's competition (AS-4..AS-8), for the arbiter or the President:
//! GET `/leagues/{league}/field` shows the form (the entries and the previous championship's
//! finish as `arbiter astc field` reads them, the host, whether it can add a team); POST to it
//! draws the lot from a seed the product takes itself (never one typed, so nobody tries seeds
//! until an order suits), records the draw in the history (who, when, the seed, the order) and
//! shows core's `field::plan`: each team to invite in order with its clause, and the order.
//! GET `/leagues/{league}/lots` shows every draw to every team.

use arbiter_core::event::field::{self, FieldPlan, Host, State as Region};
use arbiter_core::rules::permissions::Action;
use arbiter_formats::field_json;
use askama::Template;
use axum::Form;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::Response;
use serde::Deserialize;

use crate::app::respond::private;
use crate::app::site::{self, LeagueTree};
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
    /// The competition's name, for entries typed as rows (a JSON file names its own).
    #[serde(default)]
    competition: String,
    #[serde(default)]
    entries: String,
    #[serde(default)]
    previous: String,
    #[serde(default)]
    host: String,
    #[serde(default)]
    host_cannot_add: Option<String>,
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
    /// The President's next step: the division's form on the set-up page, filled in with the
    /// competition's name and its entered teams, the host's at number 1 (AS-19).
    create: Option<CreateForm>,
}

struct CreateForm {
    action: String,
    season: String,
    name: String,
    teams: String,
    /// The teams still to be nominated: their states.
    invited: String,
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
    competition: String,
    entries: String,
    previous: String,
    hosts: Vec<HostChoice>,
    host_cannot_add: bool,
    /// The public page of the lots drawn (AS-8).
    lots: String,
    /// The league's finished championships, whose final standings may be the previous finish.
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
        create: None,
    }
}

/// The division form filled in from the plan: the entered teams as the set-up page's CSV
/// (`school,team,number`), the host's first at number 1 (AS-19); the invited teams are added
/// when their states nominate them.
fn create_form(
    tree: &LeagueTree,
    entries: &field::Entries,
    plan: &FieldPlan,
    host: Region,
) -> CreateForm {
    let mut out = arbiter_formats::csv::Writer::new();
    out.record(["school", "team", "number"]);
    let mut host_placed = false;
    for e in entries.entries() {
        let number = if !host_placed && e.state == host {
            host_placed = true;
            "1"
        } else {
            ""
        };
        out.record([
            e.school.as_str(),
            &format!("{} ({})", e.school, e.state.code()),
            number,
        ]);
    }
    CreateForm {
        // The set-up page's division form, written here: set-up sits above the event's pages.
        action: format!(
            "{}/setup/divisions#division",
            league_href(&tree.league.slug)
        ),
        season: tree
            .seasons
            .last()
            .map(|(s, _)| s.slug.clone())
            .unwrap_or_default(),
        name: entries.competition().to_string(),
        teams: out.finish(),
        invited: plan
            .steps
            .iter()
            .map(|s| format!("{} ({})", s.invite.name(), s.invite.code()))
            .collect::<Vec<_>>()
            .join(", "),
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
    auth::permit_in_league(auth, tree.league.id, Action::DrawSchedule)?;
    let page = FieldPage {
        layout: private_layout(
            "Plan a competition's field (AS-4..AS-8)",
            vec![Link::new(league_href(league), &tree.league.name)],
        ),
        csrf: csrf::session_token(&auth.session).await?,
        action: field_href(league),
        competition: f.competition.clone(),
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
        lots: lots_href(league),
        stored: finished(state, &tree).await,
        problems,
        plan,
    };
    Ok(private(status, &page))
}

/// AS-8: the league's championships whose every match has its result, newest season first: the
/// only ones whose final standings are a previous finish.
async fn finished(state: &AppState, tree: &LeagueTree) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (season, comps) in tree.seasons.iter().rev() {
        for c in comps {
            let done = state
                .view(&tree.league.slug, &season.slug, &c.slug)
                .await
                .is_ok_and(|v| v.competition.is_finished());
            if done {
                out.push((
                    format!("{}/{}", season.slug, c.slug),
                    format!("{} — {}", c.name, season.name),
                ));
            }
        }
    }
    out
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
    // AS-8: the product draws the seed; the draw is recorded below.
    let seed = Some(arbiter_store::secrets::lot_seed());
    // Rows as typed or pasted, or the JSON of `arbiter astc field` (issue 32 item 26); every
    // mistake at its line.
    let entries = field_json::read_entries_text("the entries", &f.competition, &f.entries)
        .map_err(|e| problems.extend(e.to_string().lines().map(str::to_string)))
        .ok();
    let previous = if f.previous.trim().is_empty() {
        None
    } else {
        field_json::read_finish_text("the previous finish", &f.previous)
            .map_err(|e| problems.extend(e.to_string().lines().map(str::to_string)))
            .ok()
    };
    let planned = match (entries, host, seed) {
        (Some(entries), Some(state_), Some(seed)) if problems.is_empty() => {
            let host = Host {
                state: state_,
                can_add: f.host_cannot_add.is_none(),
            };
            match field::plan(&entries, host, previous.as_ref(), seed) {
                Ok(plan) => {
                    if let Err(e) = record(
                        &state,
                        &auth,
                        &league,
                        &plan,
                        entries.competition(),
                        previous.is_some(),
                    )
                    .await
                    {
                        return e.answer(Format::Html);
                    }
                    let mut view = plan_view(&plan, entries.competition(), previous.is_some());
                    // The President creates the competition from the plan in one step.
                    if let Ok(tree) = site::one(&state, &league).await
                        && auth::may_in_league(&auth, tree.league.id, Action::CreateSeason)
                    {
                        view.create = Some(create_form(&tree, &entries, &plan, state_));
                    }
                    Some(view)
                }
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

/// AS-8: the draw kept in the history, by the account that drew it, for every team to read.
async fn record(
    state: &AppState,
    auth: &Auth,
    league: &str,
    plan: &FieldPlan,
    competition: &str,
    previous: bool,
) -> Result<(), WebError> {
    let (tree, acting) = site::league_officer(state, auth, league, Action::DrawSchedule).await?;
    let order: Vec<&str> = plan.invitation_order.iter().map(|s| s.code()).collect();
    let draw = serde_json::json!({
        "competition": competition,
        "seed": plan.lot_seed.to_string(),
        "order": order,
        "by_finish": plan.by_finish,
        "previous_finish": previous,
        "invite": plan.steps.iter().map(|s| s.invite.code()).collect::<Vec<_>>(),
    });
    state
        .store()
        .record_lot_draw(tree.league.id, competition, draw, &acting.actor())
        .await
        .map_err(WebError::from_write)?;
    state.invalidate();
    Ok(())
}

/// The public page of the lots drawn.
pub fn lots_href(league: &str) -> String {
    format!("{}/lots", league_href(league))
}

struct LotLine {
    heading: String,
    order: String,
    detail: String,
}

#[derive(Template)]
#[template(path = "event/lots.html")]
struct LotsPage {
    layout: Layout,
    lots: Vec<LotLine>,
}

/// GET `/leagues/{league}/lots`: every lot the product drew for the league's competitions
/// (AS-8), oldest first: who drew it, when, the seed and the order. Public: every team reads it.
pub async fn lots_page(State(state): State<AppState>, Path(league): Path<String>) -> Response {
    let answer = async {
        let tree = site::one(&state, &league).await?;
        let filter = arbiter_store::HistoryFilter {
            league: Some(tree.league.id),
            only: vec![arbiter_store::Entity::FieldLot],
            ..arbiter_store::HistoryFilter::default()
        };
        let mut rows = state.store().history(&filter).await?;
        rows.reverse();
        let lots = rows
            .iter()
            .enumerate()
            .map(|(i, h)| {
                let after = h.after.clone().unwrap_or_default();
                let text = |k: &str| after[k].as_str().unwrap_or_default().to_string();
                let order: Vec<String> = after["order"]
                    .as_array()
                    .map(|a| {
                        a.iter()
                            .filter_map(|v| v.as_str().map(str::to_string))
                            .collect()
                    })
                    .unwrap_or_default();
                let by_finish =
                    usize::try_from(after["by_finish"].as_u64().unwrap_or(0)).unwrap_or(0);
                LotLine {
                    heading: format!("Draw {}: {}", i + 1, text("competition")),
                    order: order.join(", "),
                    detail: format!(
                        "Drawn by {} ({}) at {} UTC from the seed {}; {} (AS-8).",
                        h.actor.as_deref().unwrap_or("the site"),
                        h.role.map_or("", |r| r.name()),
                        h.at.strftime("%H:%M on %-d %B %Y"),
                        text("seed"),
                        if by_finish == 0 {
                            "no previous finish, so every state by lot".to_string()
                        } else {
                            format!("the first {by_finish} by the previous finish, the rest by lot")
                        }
                    ),
                }
            })
            .collect();
        let page = LotsPage {
            layout: private_layout(
                &format!("Lots drawn (AS-8): {}", tree.league.name),
                vec![Link::new(league_href(&league), &tree.league.name)],
            ),
            lots,
        };
        Ok::<_, WebError>(private(StatusCode::OK, &page))
    };
    answer.await.unwrap_or_else(|e| e.answer(Format::Html))
}

/// AS-8: the previous finish as rows (`1, VIC, Melbourne High School`), from the final
/// standings of a finished championship stored here (`season/competition`). A team's state is the code its id or its
/// name's brackets carry (`vic`, `sa-2`, "Perth Modern School (WA)"); a team without one is
/// refused by name, for the officer to write it in.
async fn previous_from(state: &AppState, league: &str, from: &str) -> Result<String, WebError> {
    let Some((season, competition)) = from.split_once('/') else {
        return Err(WebError::Refused(
            "Choose the championship whose final standings are the previous finish.".into(),
        ));
    };
    let view = state.view(league, season, competition).await?;
    if !view.competition.is_finished() {
        return Err(WebError::Refused(format!(
            "AS-8: {} is not finished, so its standings are not a finish; choose a championship whose every match has its result.",
            view.record.name
        )));
    }
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
            Some(region) => finish.push(format!(
                "{}, {}, {}",
                row.rank,
                region.code(),
                team.school.clone().unwrap_or_else(|| team.name.clone())
            )),
            None => unknown.push(team.name.clone()),
        }
    }
    if !unknown.is_empty() {
        return Err(WebError::Refused(format!(
            "AS-8: the state of {} cannot be read from its name or id; write the previous finish in by hand.",
            unknown.join(", ")
        )));
    }
    Ok(finish.join("\n"))
}
