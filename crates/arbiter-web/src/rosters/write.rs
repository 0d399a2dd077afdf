//! The one write path of a competition's rosters, shared by the site's rosters page, the API's
//! roster endpoints (issue 12; the API since issue 16) and the command line's links: players
//! added, each placed by core's `roster::plan` on the roster as stored (GT-R3, GT-R6, GT-R7,
//! AS-9); a player's entry corrected or withdrawn from a day, their games kept; and a player
//! made one person with a player of another competition of the season (RULES.md, "One player,
//! one person"), refused under AS-3 by core's `eligibility`. At an event AS-12's lock is asked
//! before a change of the rosters; then the store writes it with its history row, all of it or
//! nothing.

use std::sync::Arc;

use arbiter_core::record::model::{PersonId, Player, PlayerId, TeamId};
use arbiter_core::record::text::sentence;
use arbiter_core::teams::eligibility;
use arbiter_core::teams::roster::{self, Addition, LineProblem, NewPlayer};
use arbiter_store::{Actor, PlayerChange, StoreError};

use crate::app::season::SeasonViews;
use crate::app::state::AppState;
use crate::app::view::CompetitionView;
use crate::http::auth::Acting;
use crate::http::error::WebError;

/// Why a roster was not changed.
pub(crate) enum NotChanged {
    /// The rules or the entry refuse it (a name on the roster already, a school with no team,
    /// AS-9's size, AS-12's lock): each problem a sentence, at its line when it has one.
    Refused(Vec<String>),
    /// Another change to the roster came in after it was read: nothing was saved.
    Stale(String),
    /// No such player, or the store failed: the error answers.
    Failed(WebError),
}

impl From<WebError> for NotChanged {
    fn from(e: WebError) -> NotChanged {
        NotChanged::Failed(e)
    }
}

fn from_store(e: StoreError) -> NotChanged {
    match e {
        StoreError::Stale(m) => NotChanged::Stale(sentence(&m)),
        StoreError::Invalid(m) | StoreError::Conflict(m) => NotChanged::Refused(vec![sentence(&m)]),
        e => NotChanged::Failed(WebError::from_write(e)),
    }
}

/// AS-12: at an event the rosters lock before round 1; elsewhere they never do.
async fn unlocked(state: &AppState, view: &CompetitionView) -> Result<(), NotChanged> {
    match crate::event::roster_locked(state.store(), &view.stored, state.now()).await {
        Ok(None) => Ok(()),
        Ok(Some(locked)) => Err(NotChanged::Refused(vec![locked])),
        Err(e) => Err(NotChanged::Failed(WebError::from(e))),
    }
}

/// Where the players of `rows` would join, each with a new id, placed by core's plan on the
/// roster as stored; or every problem. Nothing is written.
pub(crate) async fn plan(
    state: &AppState,
    view: &CompetitionView,
    rows: &[NewPlayer],
) -> Result<Vec<Addition>, NotChanged> {
    plan_lines(state, view, rows)
        .await?
        .map_err(|problems| NotChanged::Refused(problems.iter().map(ToString::to_string).collect()))
}

/// [`plan`], with core's problems kept at their lines, so that a file's page lists them with
/// the file's own mistakes in the order of its lines.
pub(crate) async fn plan_lines(
    state: &AppState,
    view: &CompetitionView,
    rows: &[NewPlayer],
) -> Result<Result<Vec<Addition>, Vec<LineProblem>>, NotChanged> {
    unlocked(state, view).await?;
    let stored = &view.stored;
    let Some(on) = roster::eligibility_day(stored.season.starts_on, &stored.competition) else {
        return Err(NotChanged::Refused(vec![
            "The season has no start date, so GT-R7's age cannot be read; give the season its dates."
                .into(),
        ]));
    };
    let season_schools = state
        .store()
        .season_schools(stored.season.id)
        .await
        .map_err(WebError::from)?;
    Ok(roster::plan(
        &stored.competition,
        &stored.rules,
        rows,
        on,
        &season_schools,
    ))
}

/// Adds the players a plan placed, all of them or none, each a change in the history. 409
/// (`Stale`) when another player joined one of their teams after the roster was read: the
/// plan's ids and checks were made on a roster that is no longer the one stored.
pub(crate) async fn add(
    state: &AppState,
    view: &CompetitionView,
    additions: Vec<Addition>,
    reason: Option<&str>,
    acting: &Acting,
) -> Result<Vec<(TeamId, Player)>, NotChanged> {
    let players: Vec<(TeamId, Player)> =
        additions.into_iter().map(|a| (a.team, a.player)).collect();
    state
        .store()
        .add_players(view.id, &players, reason, &acting.actor())
        .await
        .map_err(from_store)?;
    state.invalidate();
    Ok(players)
}

/// A player's entry changed: the name or rating corrected, or a withdrawal from a day (then
/// they are named in no lineup from that day; the games they played stay). `reason` is kept
/// in the history with the entry before.
pub(crate) async fn change(
    state: &AppState,
    view: &CompetitionView,
    player: &PlayerId,
    change: &PlayerChange,
    reason: &str,
    acting: &Acting,
) -> Result<(), NotChanged> {
    unlocked(state, view).await?;
    state
        .store()
        .change_player(view.id, player, change, reason, &acting.actor())
        .await
        .map_err(from_store)?;
    state.invalidate();
    Ok(())
}

/// Whom a player is made one person with (RULES.md, "One player, one person").
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum LinkTo {
    /// The person a player of another competition of the season is: its slug and the id.
    SameAs {
        competition: String,
        player: PlayerId,
    },
    /// A person of their own again: the link was a mistake.
    Own,
}

impl LinkTo {
    /// `competition-slug/player-id` read back, or `own`.
    pub(crate) fn parse(text: &str) -> Option<LinkTo> {
        let text = text.trim();
        if text == "own" {
            return Some(LinkTo::Own);
        }
        let (competition, player) = text.split_once('/')?;
        (!competition.is_empty() && !player.is_empty()).then(|| LinkTo::SameAs {
            competition: competition.to_string(),
            player: PlayerId(player.to_string()),
        })
    }
}

/// The person `p`, a player of `view`'s competition (on its roster or joining it), would be
/// made by `to`: `None` for a person of their own. Refused, each reason a sentence, when the
/// player named is not of another competition of the season, is that person already, or core's
/// `eligibility::person_refusals` says they cannot be one (AS-3: teams of two competitions
/// whose dates overlap; one person twice in a competition).
fn person_for(
    view: &CompetitionView,
    season: &SeasonViews,
    p: &Player,
    to: &LinkTo,
) -> Result<Option<PersonId>, NotChanged> {
    let refuse = |m: String| Err(NotChanged::Refused(vec![m]));
    let LinkTo::SameAs {
        competition,
        player: other,
    } = to
    else {
        return Ok(None);
    };
    let Some(there) = season.views.iter().find(|v| &v.record.slug == competition) else {
        return refuse(format!(
            "The season {} has no competition “{competition}”; link {} with a player of another competition of the season.",
            view.season.name, p.name
        ));
    };
    if there.id == view.id {
        return refuse(format!(
            "{} and the player chosen are both of {}, and a person is one player of a competition: choose a player of another competition of the season.",
            p.name, view.record.name
        ));
    }
    let Some((q, _)) = there.player(&other.0) else {
        return refuse(format!(
            "{} has no player with the id `{other}`; choose one of its rosters' players.",
            there.record.name
        ));
    };
    let Some(person) = q.person.clone() else {
        return refuse(format!(
            "{} of {} has no person kept for them; link them from {}'s rosters instead.",
            q.name, there.record.name, there.record.name
        ));
    };
    if p.person.as_ref() == Some(&person) {
        return refuse(format!(
            "{} of {} and {} of {} are one person already; nothing to link.",
            p.name, view.record.name, q.name, there.record.name
        ));
    }
    let entries = season.entries();
    let at = season.at(view.id).ok_or(WebError::Internal)?;
    let refusals = eligibility::person_refusals(&entries, at, p, &person);
    if !refusals.is_empty() {
        return Err(NotChanged::Refused(
            refusals.iter().map(|f| sentence(&f.to_string())).collect(),
        ));
    }
    Ok(Some(person))
}

/// The players a plan adds, the one of them `same_as` names made that person (the API's
/// `same_person_as`): refused as [`person_for`] refuses a link.
pub(crate) async fn as_person(
    state: &AppState,
    view: &Arc<CompetitionView>,
    mut additions: Vec<Addition>,
    same_as: &LinkTo,
) -> Result<Vec<Addition>, NotChanged> {
    let season = SeasonViews::around(state, view).await?;
    for a in &mut additions {
        a.player.person = person_for(view, &season, &a.player, same_as)?;
    }
    Ok(additions)
}

/// An officer's link of `player` of `view`'s competition with a player of another competition
/// of the season, as one person (refused as [`person_for`] says), or with `LinkTo::Own` a person
/// of their own again; the store refuses it as stale when a competition of the season changed
/// since it was read. In the history with the reason. The page, the API and the command line
/// link through it. A link says who a player is and changes no roster, so AS-12's lock does not
/// stop it (AS-3 still refuses what the lock would have let stand).
pub(crate) async fn link(
    state: &AppState,
    view: &Arc<CompetitionView>,
    player: &PlayerId,
    to: &LinkTo,
    reason: &str,
    by: &Actor,
) -> Result<PersonId, NotChanged> {
    let Some((p, _)) = view.player(&player.0) else {
        return Err(NotChanged::Refused(vec![format!(
            "{} has no player with the id `{player}`; the rosters list each player's id.",
            view.record.name
        )]));
    };
    let season = SeasonViews::around(state, view).await?;
    let person = person_for(view, &season, p, to)?;
    let linked = state
        .store()
        .link_person(view.id, player, person.as_ref(), &season.seen(), reason, by)
        .await
        .map_err(from_store)?;
    state.invalidate();
    Ok(linked)
}
