//! The one write path of a game recorded with a match, outside its score (GT-P3): core reads it
//! (`extra::read`: the players of the match's teams, a challenge between schools before the
//! regular season's end, GT-R5), the store keeps it in the history, for the form and the API.

use arbiter_core::entry::Problem;
use arbiter_core::extra::{self, ExtraEntry};

use crate::app::state::AppState;
use crate::http::auth::Acting;
use crate::http::error::WebError;
use crate::results::context::MatchContext;

/// Why an extra game was not recorded.
pub(crate) enum NotRecorded {
    /// What was sent is wrong, each problem with its field and rule.
    Invalid(Vec<Problem>),
    Failed(WebError),
}

/// Reads `entry` as an extra game of the match and keeps it; its place among the match's extra
/// games.
pub(crate) async fn record(
    state: &AppState,
    ctx: &MatchContext,
    acting: &Acting,
    entry: &ExtraEntry,
) -> Result<u32, NotRecorded> {
    let game = extra::read(
        &ctx.stored.competition,
        &ctx.record,
        entry,
        ctx.date,
        ctx.stored.season.ends_on,
    )
    .map_err(NotRecorded::Invalid)?;
    match state
        .store()
        .record_extra_game(ctx.id, &game, &acting.actor())
        .await
    {
        Ok(n) => {
            state.invalidate();
            Ok(n)
        }
        Err(arbiter_store::StoreError::Invalid(m)) => {
            Err(NotRecorded::Invalid(vec![Problem::general("white", m)]))
        }
        Err(e) => Err(NotRecorded::Failed(e.into())),
    }
}
