//! One player, one person (RULES.md; AS-3, GT-M15): an officer links a player of the chosen
//! competition with a player of another competition of the season as one person, or undoes a
//! link. The product never links two entries by their name; the rosters list the entries a
//! name with a birth date or a school suggests, each with its button. The write is `write::link`,
//! which the command line shares: AS-3 refuses a person on teams of two competitions whose
//! dates overlap.

use arbiter_core::PlayerId;
use axum::Form;
use axum::extract::{Path, State};

use axum::response::Response;
use serde::Deserialize;

use super::write::{self, LinkTo, NotChanged};
use super::{Choice, RosterForm, guard, refused, rosters_href};
use crate::app::respond::see_other;
use crate::app::season::SeasonViews;
use crate::app::state::AppState;
use crate::app::view::CompetitionView;
use crate::http::auth::Auth;
use crate::http::error::{Format, WebError};
use crate::ui::words;

/// The players of the season's other competitions, as the link form offers them: the value
/// `competition-slug/player-id`, the label `Ana Diaz, Vic (Secondary Open)`.
pub(crate) fn others(view: &CompetitionView, season: &SeasonViews) -> Vec<Choice> {
    season
        .views
        .iter()
        .enumerate()
        .filter(|(_, v)| v.id != view.id)
        .flat_map(|(j, v)| {
            v.competition
                .teams
                .iter()
                .flat_map(|t| &t.players)
                .map(move |p| Choice {
                    value: format!("{}/{}", v.record.slug, p.id),
                    label: super::change::entry_label(season, j, &p.id),
                    selected: false,
                })
        })
        .collect()
}

/// The link form: which player of the competition, whom they are (`competition-slug/player-id`,
/// or `own` for a person of their own), and why.
#[derive(Debug, Default, Deserialize)]
pub struct PersonForm {
    #[serde(default)]
    competition: String,
    #[serde(default)]
    player: String,
    #[serde(default)]
    same_as: String,
    #[serde(default)]
    reason: String,
}

/// POST `/leagues/{league}/rosters/person`: a player linked as one person with a player of
/// another competition of the season, or made a person of their own again.
pub async fn link_person(
    State(state): State<AppState>,
    auth: Auth,
    Path(league): Path<String>,
    Form(f): Form<PersonForm>,
) -> Response {
    let answer = async {
        let (tree, acting) = guard(&state, &auth, &league).await?;
        let form = RosterForm {
            competition: f.competition.clone(),
            ..RosterForm::default()
        };
        let refuse = |problems: Vec<String>| refused(&state, &auth, &tree, &form, problems);
        let Some((season, slug)) = f.competition.split_once('/') else {
            return refuse(vec!["Choose the competition of the roster.".into()]).await;
        };
        let Some(to) = LinkTo::parse(&f.same_as) else {
            return refuse(vec![
                "Choose the player of another competition who is the same person, or a person of their own.".into(),
            ])
            .await;
        };
        if f.reason.trim().is_empty() {
            return refuse(vec![
                "Say why they are one person (or not), kept in the history: how the officer knows."
                    .into(),
            ])
            .await;
        }
        let view = state.view(&league, season, slug).await?;
        let id = PlayerId(f.player.trim().to_string());
        let name = view
            .player(&id.0)
            .map_or_else(|| id.0.clone(), |(p, _)| p.name.clone());
        match write::link(&state, &view, &id, &to, &f.reason, &acting.actor()).await {
            Ok(_) => {}
            Err(NotChanged::Refused(problems)) => return refuse(problems).await,
            Err(NotChanged::Stale(m)) => return refuse(vec![m]).await,
            Err(NotChanged::Failed(e)) => return Err(e),
        }
        Ok(see_other(&format!(
            "{}?competition={}&linked={}#player-{}",
            rosters_href(&league),
            words::segment(&f.competition),
            words::segment(&name),
            words::segment(&id.0)
        )))
    };
    answer
        .await
        .unwrap_or_else(|e: WebError| e.answer(Format::Html))
}
