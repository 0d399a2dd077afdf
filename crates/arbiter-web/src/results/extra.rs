//! The one write path of a game recorded with a match, outside its score (GT-P3), for the form,
//! the API and the command line: core reads it (`extra::read`: the players of the match's teams,
//! a challenge between schools before the regular season's end, GT-R5, one game a pair), says
//! which school entered it (`extra::entering_side`; an officer's stands at once), the store keeps
//! it in the history, and the other school is told by mail to confirm it (GT-P2). Confirming and
//! striking out (`extra::may_confirm`, `extra::may_strike`) are steps kept beside the game.

use arbiter_core::season::entry::Problem;
use arbiter_core::season::extra::{self, ExtraEntry, ExtraState};
use arbiter_core::season::notice;
use arbiter_core::{ExtraGame, ExtraStep, Side};

use crate::app::state::AppState;
use crate::http::auth::Acting;
use crate::http::error::WebError;
use crate::results::context::MatchContext;
use crate::results::notify;

/// Why an extra game was not recorded, confirmed or struck out.
pub(crate) enum NotRecorded {
    /// What was sent is wrong, each problem with its field and rule.
    Invalid(Vec<Problem>),
    Failed(WebError),
}

impl From<WebError> for NotRecorded {
    fn from(e: WebError) -> NotRecorded {
        NotRecorded::Failed(e)
    }
}

/// Reads `entry` as an extra game of the match and keeps it, entered by the acting person's
/// school (or as an officer's, standing at once); tells the other school. Its place among the
/// match's extra games.
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
    let game = ExtraGame {
        entered_by: extra::entering_side(acting.subject(), schools(ctx)),
        ..game
    };
    let seen = ctx.record.extra_games.len();
    let n = state
        .store()
        .record_extra_game(ctx.id, &game, seen, &acting.actor())
        .await
        .map_err(|e| match e {
            arbiter_store::StoreError::Invalid(m) => {
                NotRecorded::Invalid(vec![Problem::general("white", m)])
            }
            e => NotRecorded::Failed(e.into()),
        })?;
    state.invalidate();
    let (kind, audience) = notice::of_extra_game(game.entered_by);
    let what = entered_words(ctx, &game, n);
    notify::tell(state, ctx, kind, audience, &what, Some(&acting.email)).await;
    Ok(n)
}

/// GT-P3, GT-P2: extra game `n` (from 1) confirmed by the acting person, whom core lets confirm
/// it only when their school did not enter it.
pub(crate) async fn confirm(
    state: &AppState,
    ctx: &MatchContext,
    acting: &Acting,
    n: u32,
) -> Result<(), NotRecorded> {
    let game = game(ctx, n)?;
    extra::may_confirm(game, acting.subject(), schools(ctx))
        .map_err(|m| NotRecorded::Failed(WebError::Refused(m)))?;
    step(state, ctx, acting, n, &ExtraStep::Confirmed).await
}

/// GT-P3: extra game `n` struck out by an officer with `reason`, kept beside it; it no longer
/// counts. Both schools are told.
pub(crate) async fn strike(
    state: &AppState,
    ctx: &MatchContext,
    acting: &Acting,
    n: u32,
    reason: &str,
) -> Result<(), NotRecorded> {
    let game = game(ctx, n)?;
    extra::may_strike(game, reason).map_err(|p| NotRecorded::Invalid(vec![p]))?;
    let reason = reason.trim();
    let struck = ExtraStep::Struck {
        reason: reason.to_string(),
    };
    step(state, ctx, acting, n, &struck).await?;
    let (kind, audience) = notice::of_extra_game(None);
    let what = format!(
        "The league's {} struck out extra game {n} of the match ({}); it no longer counts. The reason given: \u{201c}{reason}\u{201d} (GT-P3)",
        acting.role.name(),
        game_words(ctx, game),
    );
    notify::tell(state, ctx, kind, audience, &what, Some(&acting.email)).await;
    Ok(())
}

async fn step(
    state: &AppState,
    ctx: &MatchContext,
    acting: &Acting,
    n: u32,
    step: &ExtraStep,
) -> Result<(), NotRecorded> {
    state
        .store()
        .record_extra_game_step(ctx.id, n, step, &acting.actor())
        .await
        .map_err(|e| NotRecorded::Failed(e.into()))?;
    state.invalidate();
    Ok(())
}

/// Extra game `n` (from 1) of the match as read, or the 404 that says which there are.
fn game(ctx: &MatchContext, n: u32) -> Result<&ExtraGame, WebError> {
    let count = ctx.record.extra_games.len();
    usize::try_from(n)
        .ok()
        .and_then(|i| i.checked_sub(1))
        .and_then(|i| ctx.record.extra_games.get(i))
        .ok_or_else(|| {
            WebError::not_found(format!(
                "This match has no extra game {n}; it has {count}. Reload the match and choose one of the games it lists."
            ))
        })
}

/// The schools of the match, home first, as core's rules of an extra game read them.
fn schools(ctx: &MatchContext) -> extra::Schools<'_> {
    (ctx.school(Side::Home), ctx.school(Side::Away))
}

/// `Jo Král (White) v Ñoño Ü (Black), 1-0, a challenge game`.
fn game_words(ctx: &MatchContext, g: &ExtraGame) -> String {
    let name = |id: &arbiter_core::PlayerId| {
        ctx.stored
            .competition
            .teams
            .iter()
            .flat_map(|t| &t.players)
            .find(|p| &p.id == id)
            .map_or_else(|| id.0.clone(), |p| p.name.clone())
    };
    format!(
        "{} (White) v {} (Black), {}, {}",
        name(&g.white),
        name(&g.black),
        g.result.code(),
        match g.kind {
            arbiter_core::ExtraKind::Challenge => "a challenge game (GT-R5)",
            arbiter_core::ExtraKind::Unranked => "an unranked game (GT-R7)",
        }
    )
}

/// What the notice of a new extra game says: who entered it, and what the reader does next.
fn entered_words(ctx: &MatchContext, g: &ExtraGame, n: u32) -> String {
    match g.state() {
        ExtraState::AwaitingConfirmation { from } => format!(
            "{} entered extra game {n} of the match: {}. It counts only once your school confirms it on the match page; if it was not played so, do not confirm it and tell an officer (GT-P3, GT-P2).",
            ctx.school(from.other()).unwrap_or("The other school"),
            game_words(ctx, g)
        ),
        _ => format!(
            "An officer recorded extra game {n} of the match: {}. It stands (GT-P3).",
            game_words(ctx, g)
        ),
    }
}

/// Whether the page offers `acting` (whom the table lets confirm extra games of the match) the
/// confirm button on `g`: only when core lets them confirm it.
pub(crate) fn may_confirm(ctx: &MatchContext, acting: &Acting, g: &ExtraGame) -> bool {
    extra::may_confirm(g, acting.subject(), schools(ctx)).is_ok()
}
