//! A player's roster entry changed during the season (issue 12, part 1): the name or the rating
//! corrected, or the player withdrawn from a day, never deleted: the games they played stay,
//! and the history keeps the entry before and why.

use arbiter_core::PlayerId;
use arbiter_core::teams::eligibility::{self, Who};
use arbiter_core::teams::roster;
use arbiter_store::PlayerChange;
use axum::Form;
use axum::extract::{Path, State};

use axum::response::Response;
use serde::Deserialize;

use super::write::{self, NotChanged};
use super::{RosterForm, guard, refused, rosters_href};
use crate::app::respond::see_other;
use crate::app::season::SeasonViews;
use crate::app::state::AppState;
use crate::app::view::CompetitionView;
use crate::http::auth::Auth;
use crate::http::error::{Format, WebError};
use crate::ui::words;

/// One team's roster as the page lists it.
pub struct TeamRoster {
    pub name: String,
    pub players: Vec<RosterLine>,
}

/// One player, with the values their change form starts from.
pub struct RosterLine {
    /// The person's other entries in the season (one player, one person): `Ana Diaz, Vic (Secondary Open)`.
    pub same: Vec<String>,
    /// Entries of the season's other competitions that may be the same person, to link.
    pub suggested: Vec<Suggested>,
    pub id: String,
    pub name: String,
    pub rating: String,
    pub shown: String,
    pub provisional: bool,
    /// GT-R6: the player's own school, when not the team's.
    pub school: Option<String>,
    pub withdrawn: Option<String>,
    pub withdrawn_on: String,
}

/// An entry of another competition suggested as the same person: the form's value
/// (`competition-slug/player-id`) and what the button says.
pub struct Suggested {
    pub value: String,
    pub label: String,
}

/// `Ana Diaz, Vic (Secondary Open)`: an entry of competition `at` of the season.
pub fn entry_label(season: &SeasonViews, at: usize, player: &PlayerId) -> String {
    let v = &season.views[at];
    let found = v
        .competition
        .teams
        .iter()
        .find_map(|t| Some((t, t.players.iter().find(|p| &p.id == player)?)));
    match found {
        Some((t, p)) => format!("{}, {} ({})", p.name, t.name, v.record.name),
        None => format!("{player} ({})", v.record.name),
    }
}

/// The competition's rosters, each team in the competition's order and each roster in its own,
/// each player with the season's other entries of their person and those that may be.
pub fn rosters(view: &CompetitionView, season: &SeasonViews) -> Vec<TeamRoster> {
    let entries = season.entries();
    let at = season.at(view.id);
    let same = |p: &arbiter_core::Player| -> Vec<String> {
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
                    .filter(|q| q.is_same_person(p))
                    .map(move |q| (j, q.id.clone()))
            })
            .map(|(j, q)| entry_label(season, j, &q))
            .collect()
    };
    view.competition
        .teams
        .iter()
        .map(|t| TeamRoster {
            name: t.name.clone(),
            players: t
                .players
                .iter()
                .map(|p| RosterLine {
                    same: same(p),
                    suggested: at
                        .map(|at| eligibility::suggestions(&entries, at, &Who::of(t, p)))
                        .unwrap_or_default()
                        .into_iter()
                        .map(|s| Suggested {
                            value: format!(
                                "{}/{}",
                                season.views[s.competition].record.slug, s.player
                            ),
                            label: format!(
                                "{}: {}",
                                entry_label(season, s.competition, &s.player),
                                s.why
                            ),
                        })
                        .collect(),
                    id: p.id.0.clone(),
                    name: p.name.clone(),
                    rating: p.rating.map(|r| r.to_string()).unwrap_or_default(),
                    shown: words::rating(p),
                    provisional: p.provisional,
                    school: p.school.clone(),
                    withdrawn: p.withdrawn.map(words::date),
                    withdrawn_on: p.withdrawn.map(|d| d.to_string()).unwrap_or_default(),
                })
                .collect(),
        })
        .collect()
}

/// The change form: which player, what their entry becomes, and why.
#[derive(Debug, Default, Deserialize)]
pub struct ChangeForm {
    #[serde(default)]
    competition: String,
    #[serde(default)]
    player: String,
    #[serde(default)]
    name: String,
    #[serde(default)]
    rating: String,
    #[serde(default)]
    provisional: Option<String>,
    #[serde(default)]
    withdrawn: String,
    #[serde(default)]
    reason: String,
}

/// POST `/leagues/{league}/rosters/player`: a player's entry corrected or withdrawn.
pub async fn change_player(
    State(state): State<AppState>,
    auth: Auth,
    Path(league): Path<String>,
    Form(f): Form<ChangeForm>,
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
        let view = state.view(&league, season, slug).await?;
        let Some((player, _)) = view.player(&f.player) else {
            return refuse(vec![format!(
                "{} has no player with the id `{}`.",
                view.record.name, f.player
            )])
            .await;
        };
        let mut problems = Vec::new();
        let rating = roster::read_rating(&f.rating).unwrap_or_else(|why| {
            problems.push(format!("{}: {why}.", player.name));
            None
        });
        let withdrawn = match f.withdrawn.trim() {
            "" => None,
            d => match d.parse::<jiff::civil::Date>() {
                Ok(day) => Some(day),
                Err(_) => {
                    problems.push(format!(
                        "{}: “{d}” is not a date; write it as YYYY-MM-DD.",
                        player.name
                    ));
                    None
                }
            },
        };
        if !problems.is_empty() {
            return refuse(problems).await;
        }
        let (rating, provisional) = roster::entry_rating(rating, f.provisional.is_some());
        let change = PlayerChange {
            name: f.name.trim().to_string(),
            rating,
            provisional,
            withdrawn,
        };
        let id = PlayerId(f.player.clone());
        match write::change(&state, &view, &id, &change, &f.reason, &acting).await {
            Ok(()) => {}
            Err(NotChanged::Refused(problems)) => return refuse(problems).await,
            Err(NotChanged::Stale(m)) => return refuse(vec![m]).await,
            Err(NotChanged::Failed(e)) => return Err(e),
        }
        Ok(see_other(&format!(
            "{}?competition={}&changed={}#players",
            rosters_href(&league),
            words::segment(&f.competition),
            words::segment(&change.name)
        )))
    };
    answer
        .await
        .unwrap_or_else(|e: WebError| e.answer(Format::Html))
}
