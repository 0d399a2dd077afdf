//! The officers' steps taken from the command line (`arbiter result …`): a forfeit by decision
//! (GT-M3), the double forfeit of a late report (GT-P4), an adjudication (GT-M20), and at an
//! event the arbiter's entry of a match's boards and a team's lineup (AS-11), by a named account
//! in the role the permission table lets act. They go through the one write path
//! ([`write::submit`], [`lineup::name`]) as the match page, the round page and the API do, so the
//! same checks refuse the same steps with the same sentences, the history records the officer,
//! and the schools are told.

use arbiter_core::record::model::{GameResult, Side};
use arbiter_core::record::text::Email;
use arbiter_core::season::entry::{ResultEntry, typed_result};
use arbiter_core::season::report::ReportStep;

use crate::app::state::AppState;
use crate::http::auth::Accounts;
use crate::results::context::{self, MatchContext};
use crate::results::lineup::{self, LineupInput, NotNamed};
use crate::results::page::starting_input;
use crate::results::write::{self, NotWritten, Submission, Written};

/// A match as the site addresses it: `/leagues/{league}/{season}/{competition}/rounds/{round}/
/// matches/{home}`.
#[derive(Debug, Clone)]
pub struct MatchAddress {
    pub league: String,
    pub season: String,
    pub competition: String,
    pub round: u32,
    /// The home team's id.
    pub home: String,
}

/// What the officer does to the match.
#[derive(Debug, Clone)]
pub enum OfficerStep {
    /// GT-M3: the match forfeited by decision; `offender` is `home` or `away`.
    ForfeitByDecision { offender: String },
    /// GT-P4: the double forfeit of a match whose result was not reported in time.
    DoubleForfeitForLateReport,
    /// GT-M3, GT-P4: the penalty in force withdrawn by a new version with no result.
    WithdrawPenalty,
    /// GT-M20: the result of a game sent for adjudication, as `1-0`, `1/2-1/2` or `0-1`.
    Adjudicate { board: u32, result: String },
    /// Every board's result as the round page takes it, one key a board from the home side
    /// (`1 = 0 1`: 1 home won, 0 visitors won, = drawn, + or - won by forfeit, -- both lost):
    /// the arbiter's entry at an event (GT-M1), or a correction of it.
    Enter { boards: String },
    /// AS-11: a team's players for the match, board 1 first, by their ids; after the deadline
    /// only with the arbiter's reason.
    Lineup { side: Side, players: Vec<String> },
    /// GT-P3, GT-P2: extra game `game` (from 1, as the match page numbers them) confirmed by the
    /// school that did not enter it, or an officer.
    ConfirmExtraGame { game: u32 },
    /// GT-P3: extra game `game` struck out by an officer, with the reason.
    StrikeExtraGame { game: u32 },
}

/// Takes `step` on the match at `at` as the account `email`, with `reason`. The answer is the
/// sentence to print: what was stored, or why nothing was.
pub async fn officer_step(
    state: &AppState,
    email: &str,
    at: &MatchAddress,
    step: &OfficerStep,
    reason: Option<&str>,
    acknowledge_drop: bool,
) -> Result<String, String> {
    let email = Email::parse(email)?;
    let user = state
        .store()
        .user_by_email(&email)
        .await
        .map_err(|e| e.to_string())?
        .ok_or_else(|| {
            format!("There is no account {email} in this database; `arbiter user add` makes one.")
        })?;
    let account = Accounts::new(state.store().clone())
        .load(user)
        .await
        .map_err(|e| e.to_string())?;
    let ctx = context::load(
        state,
        &at.league,
        &at.season,
        &at.competition,
        at.round,
        &at.home,
    )
    .await
    .map_err(|e| e.to_string())?;
    let title = format!(
        "{}, round {}, {} v {}",
        ctx.view.record.name,
        ctx.round,
        ctx.team_name(Side::Home),
        ctx.team_name(Side::Away)
    );
    let (report_step, entry, settle) = match step {
        OfficerStep::Lineup { side, players } => {
            return name_lineup(state, &ctx, &account, &title, *side, players, reason).await;
        }
        OfficerStep::ConfirmExtraGame { game } | OfficerStep::StrikeExtraGame { game } => {
            return extra_game_step(state, &ctx, &account, &title, step, *game, reason).await;
        }
        OfficerStep::ForfeitByDecision { offender } => (
            ReportStep::ForfeitByDecision,
            Some(ResultEntry {
                forfeit: Some(offender.clone()),
                boards: Vec::new(),
                late: None,
            }),
            None,
        ),
        OfficerStep::DoubleForfeitForLateReport => {
            (ReportStep::DoubleForfeitForLateReport, None, None)
        }
        OfficerStep::WithdrawPenalty => (ReportStep::WithdrawPenalty, None, None),
        OfficerStep::Adjudicate { board, result } => (
            ReportStep::Adjudicate,
            None,
            Some((*board, GameResult::parse(result.trim()))),
        ),
        OfficerStep::Enter { boards } => {
            let entry = typed_boards(&ctx, boards).map_err(|why| format!("{title}: {why}"))?;
            let step = if ctx.entered().is_some() {
                ReportStep::Correct
            } else {
                ReportStep::Enter
            };
            (step, Some(entry), None)
        }
    };
    let acting = ctx
        .permit(Some(&account), report_step.action())
        .map_err(|e| e.to_string())?;
    let submission = Submission {
        step: report_step,
        entry,
        version: None,
        reason: reason.map(str::to_string),
        settle,
        restore: None,
        acknowledge_drop,
    };
    match write::submit(state, &ctx, &acting, &submission).await {
        Ok(Written::Result(v)) => Ok(format!(
            "{title}: version {} stored by {} as {}; both schools are told ({}).",
            v.version,
            acting.email,
            acting.role.name(),
            state.mailer().describe()
        )),
        Ok(Written::Review(r)) => Ok(format!(
            "{title}: version {} reviewed by {}.",
            r.version, acting.email
        )),
        Err(NotWritten::Refused { why, .. }) => Err(format!("{title}: {why}")),
        Err(NotWritten::Invalid { too_long, problems }) => Err(too_long
            .into_iter()
            .chain(problems)
            .map(|p| format!("{title}: {}", p.message))
            .collect::<Vec<_>>()
            .join("\n")),
        Err(NotWritten::StoreRefused(m)) => Err(format!("{title}: {m}")),
        Err(NotWritten::Failed(e)) => Err(format!("{title}: {e}")),
    }
}

/// The boards typed as the round page takes them, one key a board, read into the match's entry
/// with its players (the lineups named, else the rosters' order).
fn typed_boards(ctx: &MatchContext, typed: &str) -> Result<ResultEntry, String> {
    let keys: Vec<&str> = typed.split_whitespace().collect();
    let mut input = starting_input(ctx);
    if keys.len() != input.boards.len() {
        return Err(format!(
            "{} results typed for {} boards; type one a board, such as `1 = 0 1`, or `+ + + +` for a match won by forfeit on every board.",
            keys.len(),
            input.boards.len()
        ));
    }
    for (b, key) in input.boards.iter_mut().zip(keys) {
        let r = typed_result(key).ok_or_else(|| {
            format!(
                "board {}: “{key}” is not a result; type 1 (home won), 0 (visitors won), = (drawn), + or - (won by forfeit), -- (double forfeit).",
                b.board
            )
        })?;
        b.result = r.code().to_string();
    }
    Ok(input.entry())
}

/// GT-P3: an extra game confirmed or struck out through the match page's write path.
async fn extra_game_step(
    state: &AppState,
    ctx: &MatchContext,
    account: &crate::http::auth::Account,
    title: &str,
    step: &OfficerStep,
    game: u32,
    reason: Option<&str>,
) -> Result<String, String> {
    use crate::results::extra::{self, NotRecorded};
    let strike = matches!(step, OfficerStep::StrikeExtraGame { .. });
    let action = if strike {
        arbiter_core::rules::permissions::Action::StrikeExtraGame
    } else {
        arbiter_core::rules::permissions::Action::ConfirmExtraGame
    };
    let acting = ctx
        .permit(Some(account), action)
        .map_err(|e| e.to_string())?;
    let done = if strike {
        extra::strike(state, ctx, &acting, game, reason.unwrap_or_default()).await
    } else {
        extra::confirm(state, ctx, &acting, game).await
    };
    match done {
        Ok(()) => Ok(format!(
            "{title}: extra game {game} {} by {} as {}; both schools are told ({}).",
            if strike { "struck out" } else { "confirmed" },
            acting.email,
            acting.role.name(),
            state.mailer().describe()
        )),
        Err(NotRecorded::Invalid(problems)) => Err(format!(
            "{title}: {}\nNothing was stored.",
            problems
                .iter()
                .map(|p| p.message.as_str())
                .collect::<Vec<_>>()
                .join(" ")
        )),
        Err(NotRecorded::Failed(e)) => Err(format!("{title}: {e}\nNothing was stored.")),
    }
}

/// AS-11: a lineup named by the account through the match page's write path; `reason` accepts
/// it after its deadline when the account may (the arbiter).
async fn name_lineup(
    state: &AppState,
    ctx: &MatchContext,
    account: &crate::http::auth::Account,
    title: &str,
    side: Side,
    players: &[String],
    reason: Option<&str>,
) -> Result<String, String> {
    let acting = lineup::permit(ctx, Some(account), side).map_err(|e| e.to_string())?;
    let may_accept_late = lineup::may_accept_late(ctx, Some(account));
    // A lineup's deadline is read on the hall's clock (AS-11): only the arbiter, who keeps that
    // clock, may name one at a moment other than now (a rehearsal, an entry made late).
    if state.clock_is_set() && !may_accept_late {
        return Err(format!(
            "{title}: --now sets the hall's clock, which only the event's arbiter may do (AS-11: a lineup is named by its deadline on that clock); name the lineup without --now, or ask the arbiter to enter it."
        ));
    }
    let input = LineupInput {
        boards: players.iter().map(|p| Some(p.clone())).collect(),
        withdrawn: Vec::new(),
        version: None,
        accept_late: reason.map(str::to_string),
    };
    match lineup::name(state, ctx, &acting, may_accept_late, side, &input).await {
        Ok(v) => Ok(format!(
            "{title}: the {} lineup stored as version {} by {}.",
            side.code(),
            v.version,
            acting.email
        )),
        Err(NotNamed::Refused(found)) => Err(found
            .iter()
            .map(|f| match &f.rule {
                Some(rule) => format!("{title}: {rule}: {}", f.message),
                None => format!("{title}: {}", f.message),
            })
            .collect::<Vec<_>>()
            .join("\n")),
        Err(NotNamed::Stale(m)) => Err(format!("{title}: {m}")),
        Err(NotNamed::Failed(e)) => Err(format!("{title}: {}", e.message())),
    }
}
