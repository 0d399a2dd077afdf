//! The one write path of a competition's rosters, shared by the site's rosters page and the
//! API's roster endpoints (issue 12; the API since issue 16): players added, each placed by
//! core's `roster::plan` on the roster as stored (GT-R3, GT-R6, GT-R7, AS-9), and a player's
//! entry corrected or withdrawn from a day, their games kept. At an event AS-12's lock is asked
//! first; then the store writes the change with its history row, all of it or nothing.

use arbiter_core::model::{Player, PlayerId, TeamId};
use arbiter_core::roster::{self, Addition, NewPlayer};
use arbiter_core::text::sentence;
use arbiter_store::{PlayerChange, StoreError};

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
    roster::plan(
        &stored.competition,
        &stored.rules,
        rows,
        on,
        &season_schools,
    )
    .map_err(|problems| NotChanged::Refused(problems.iter().map(ToString::to_string).collect()))
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
