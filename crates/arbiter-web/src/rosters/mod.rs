//! Players added to a competition's rosters from a CSV file, on the site (issue 12, part 1):
//! the officer pastes the file, sees every mistake or every player to add, and only then adds
//! them. The same reading as `arbiter roster import`: `arbiter_formats::roster_csv` reads the
//! file, core's `roster::plan` places each player (GT-R3, GT-R7), the store adds them all or
//! none, each a change in the history. The rosters of a competition are listed below it, each
//! player's entry to correct or to withdraw from a day (`change`), their games kept, and linked
//! as one person with a player of another competition of the season (`person`: RULES.md's "One
//! player, one person", AS-3, GT-M15), where a name and birth date or school only suggest it.
//! `write` is the one write path, which the API's roster endpoints and the command line share.

mod change;
mod command;
mod person;
pub(crate) mod sheet;
pub(crate) mod write;

pub use change::change_player;
pub use command::{link_person as link_person_from_command_line, person_lines};
pub use person::link_person;
use write::NotChanged;

use arbiter_core::rules::permissions::Action;
use arbiter_core::teams::eligibility::{self, Who};
use arbiter_formats::roster_csv;
use askama::Template;
use axum::Form;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::Response;
use serde::Deserialize;

use crate::app::respond::private;
use crate::app::season::SeasonViews;
use crate::app::site::{self, LeagueTree};
use crate::app::state::AppState;
use crate::http::auth::{Acting, Auth};
use crate::http::csrf;
use crate::http::error::{Format, WebError};
use crate::ui::layout::{Layout, private_layout};
use crate::ui::link::{Link, league_href};

pub(crate) struct Choice {
    pub(crate) value: String,
    pub(crate) label: String,
    pub(crate) selected: bool,
}

#[derive(Template)]
#[template(path = "rosters/rosters.html", whitespace = "minimize")]
struct RostersPage {
    layout: Layout,
    csrf: String,
    action: String,
    competitions: Vec<Choice>,
    text: String,
    /// What the preview found: the players to add, or every problem.
    additions: Vec<String>,
    problems: Vec<String>,
    notice: Option<String>,
    /// The chosen competition's rosters, each player with the form to change their entry.
    rosters: Vec<change::TeamRoster>,
    change_action: String,
    /// One player, one person: the players of the season's other competitions, to link with.
    others: Vec<Choice>,
    person_action: String,
}

/// The form: which competition, the file's text, and whether to preview or add.
#[derive(Debug, Default, Deserialize)]
pub struct RosterForm {
    #[serde(default)]
    competition: String,
    #[serde(default)]
    text: String,
    /// The roster file uploaded (its text), which stands in for a pasted one.
    #[serde(default)]
    file: String,
    #[serde(default)]
    step: String,
}

fn rosters_href(league: &str) -> String {
    format!("{}/rosters", league_href(league))
}

async fn guard(
    state: &AppState,
    auth: &Auth,
    league: &str,
) -> Result<(LeagueTree, Acting), WebError> {
    site::league_officer(state, auth, league, Action::EditRoster).await
}

/// `season/competition` of every competition, newest season first.
fn competitions(tree: &LeagueTree, chosen: &str) -> Vec<Choice> {
    tree.seasons
        .iter()
        .rev()
        .flat_map(|(s, cs)| {
            cs.iter().map(move |c| {
                let value = format!("{}/{}", s.slug, c.slug);
                Choice {
                    selected: value == chosen,
                    label: format!("{} — {}", c.name, s.name),
                    value,
                }
            })
        })
        .collect()
}

/// The roster page again with the form as sent and why it was refused (422).
async fn refused(
    state: &AppState,
    auth: &Auth,
    tree: &LeagueTree,
    form: &RosterForm,
    problems: Vec<String>,
) -> Result<Response, WebError> {
    let found = (Vec::new(), problems);
    page(
        state,
        auth,
        tree,
        form,
        found,
        None,
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await
}

async fn page(
    state: &AppState,
    auth: &Auth,
    tree: &LeagueTree,
    form: &RosterForm,
    found: (Vec<String>, Vec<String>),
    notice: Option<String>,
    status: StatusCode,
) -> Result<Response, WebError> {
    let (rosters, others) = match form.competition.split_once('/') {
        Some((season, slug)) => match state.view(&tree.league.slug, season, slug).await {
            Ok(view) => {
                let season = SeasonViews::around(state, &view).await?;
                (
                    change::rosters(&view, &season),
                    person::others(&view, &season),
                )
            }
            Err(_) => (Vec::new(), Vec::new()),
        },
        None => (Vec::new(), Vec::new()),
    };
    let page = RostersPage {
        layout: private_layout(
            &format!("Rosters: {}", tree.league.name),
            vec![Link::new(league_href(&tree.league.slug), &tree.league.name)],
        ),
        csrf: csrf::session_token(&auth.session).await?,
        action: rosters_href(&tree.league.slug),
        competitions: competitions(tree, &form.competition),
        text: form.text.clone(),
        additions: found.0,
        problems: found.1,
        notice,
        rosters,
        change_action: format!("{}/player", rosters_href(&tree.league.slug)),
        others,
        person_action: format!("{}/person", rosters_href(&tree.league.slug)),
    };
    Ok(private(status, &page))
}

/// Which competition's rosters the page shows: `?competition=season/slug`.
#[derive(Debug, Default, Deserialize)]
pub struct Shown {
    #[serde(default)]
    competition: String,
    #[serde(default)]
    changed: Option<String>,
    #[serde(default)]
    linked: Option<String>,
}

/// GET `/leagues/{league}/rosters`: the form, and the chosen competition's rosters.
pub async fn rosters_page(
    State(state): State<AppState>,
    auth: Auth,
    Path(league): Path<String>,
    Query(shown): Query<Shown>,
) -> Response {
    let answer = async {
        let (tree, _) = guard(&state, &auth, &league).await?;
        let form = RosterForm {
            competition: shown.competition.clone(),
            ..RosterForm::default()
        };
        let notice = match (shown.changed, shown.linked) {
            (Some(p), _) => Some(format!(
                "The roster entry of {p} is changed; the history keeps what it was."
            )),
            (None, Some(p)) => Some(format!(
                "{p} is linked as one person; the history keeps who they were and why."
            )),
            _ => None,
        };
        page(
            &state,
            &auth,
            &tree,
            &form,
            (Vec::new(), Vec::new()),
            notice,
            StatusCode::OK,
        )
        .await
    };
    answer
        .await
        .unwrap_or_else(|e: WebError| e.answer(Format::Html))
}

/// POST `/leagues/{league}/rosters`: `step=preview` shows what the file would add (or every
/// mistake); `step=add` adds the players when there is none.
pub async fn add_players(
    State(state): State<AppState>,
    auth: Auth,
    Path(league): Path<String>,
    Form(mut form): Form<RosterForm>,
) -> Response {
    // An uploaded file is read as if pasted, and shown in the text box to correct.
    if !form.file.trim().is_empty() {
        form.text = std::mem::take(&mut form.file);
    }
    let answer = async {
        let (tree, acting) = guard(&state, &auth, &league).await?;
        let refuse = |problems: Vec<String>| refused(&state, &auth, &tree, &form, problems);
        let Some((season, slug)) = form.competition.split_once('/') else {
            return refuse(vec!["Choose the competition the players join.".into()]).await;
        };
        let view = state.view(&league, season, slug).await?;
        let read = roster_csv::read(&form.text);
        if read.rows.is_empty() && read.problems.is_empty() {
            return refuse(vec![
                "The file lists no player: paste it with its header line first.".into(),
            ])
            .await;
        }
        // Every mistake at once: the file's and the rules' on its rows, by the file's lines.
        let plan = match write::plan_lines(&state, &view, &read.rows).await {
            Ok(Ok(plan)) if read.problems.is_empty() => plan,
            Ok(planned) => {
                let problems = read.with(planned.err().unwrap_or_default());
                return refuse(problems.iter().map(ToString::to_string).collect()).await;
            }
            Err(NotChanged::Refused(problems)) => return refuse(problems).await,
            Err(NotChanged::Stale(m)) => return refuse(vec![m]).await,
            Err(NotChanged::Failed(e)) => return Err(e),
        };
        // One player, one person: a name with a birth date or a school only suggests that a
        // new player is one of another competition; the officer links them once added.
        let season = SeasonViews::around(&state, &view).await?;
        let entries = season.entries();
        let at = season.at(view.id);
        let lines: Vec<String> = plan
            .iter()
            .map(|a| {
                let team = view.competition.team(&a.team);
                let who = Who {
                    name: &a.player.name,
                    birth_date: a.player.record.birth_date,
                    school: a
                        .player
                        .school
                        .as_deref()
                        .or(team.and_then(|t| t.school.as_deref())),
                    person: None,
                };
                let maybe: Vec<String> = at
                    .map(|at| eligibility::suggestions(&entries, at, &who))
                    .unwrap_or_default()
                    .iter()
                    .map(|s| {
                        format!(
                            "{}, {}",
                            change::entry_label(&season, s.competition, &s.player),
                            s.why
                        )
                    })
                    .collect();
                let mut line = a.summary(&view.team_name(&a.team));
                if !maybe.is_empty() {
                    line.push_str(&format!(
                        "; maybe the same person as {}: once added, link them on the rosters below if so",
                        maybe.join("; ")
                    ));
                }
                line
            })
            .collect();
        if form.step != "add" {
            return page(
                &state,
                &auth,
                &tree,
                &form,
                (lines, Vec::new()),
                None,
                StatusCode::OK,
            )
            .await;
        }
        let reason = Some("added from a roster file on the site");
        let players = match write::add(&state, &view, plan, reason, &acting).await {
            Ok(players) => players,
            Err(NotChanged::Refused(problems)) => return refuse(problems).await,
            Err(NotChanged::Stale(m)) => return refuse(vec![m]).await,
            Err(NotChanged::Failed(e)) => return Err(e),
        };
        let notice = format!(
            "{} player{} added to {}; each is in the history.",
            players.len(),
            if players.len() == 1 { "" } else { "s" },
            view.record.name
        );
        let fresh = RosterForm {
            competition: form.competition.clone(),
            ..RosterForm::default()
        };
        page(
            &state,
            &auth,
            &tree,
            &fresh,
            (Vec::new(), Vec::new()),
            Some(notice),
            StatusCode::OK,
        )
        .await
    };
    answer
        .await
        .unwrap_or_else(|e: WebError| e.answer(Format::Html))
}
