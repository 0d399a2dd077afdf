//! The officers' steps taken from the command line (`arbiter result …`): a forfeit by decision
//! (GT-M3), the double forfeit of a late report (GT-P4) and an adjudication (GT-M20), by a named
//! account in the role the permission table lets act. They go through the one write path
//! ([`write::submit`]) as the match page and the API do, so the same checks refuse the same
//! steps with the same sentences, the history records the officer, and the schools are told.

use arbiter_core::entry::ResultEntry;
use arbiter_core::model::GameResult;
use arbiter_core::report::ReportStep;
use arbiter_core::text::Email;

use crate::app::state::AppState;
use crate::http::auth::Accounts;
use crate::results::context;
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
    /// GT-M20: the result of a game sent for adjudication, as `1-0`, `1/2-1/2` or `0-1`.
    Adjudicate { board: u32, result: String },
}

impl OfficerStep {
    fn report_step(&self) -> ReportStep {
        match self {
            OfficerStep::ForfeitByDecision { .. } => ReportStep::ForfeitByDecision,
            OfficerStep::DoubleForfeitForLateReport => ReportStep::DoubleForfeitForLateReport,
            OfficerStep::Adjudicate { .. } => ReportStep::Adjudicate,
        }
    }
}

/// Takes `step` on the match at `at` as the account `email`, with `reason`. The answer is the
/// sentence to print: what was stored, or why nothing was.
pub async fn officer_step(
    state: &AppState,
    email: &str,
    at: &MatchAddress,
    step: &OfficerStep,
    reason: &str,
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
    let report_step = step.report_step();
    let acting = ctx
        .permit(Some(&account), report_step.action())
        .map_err(|e| e.to_string())?;
    let submission = Submission {
        step: report_step,
        entry: match step {
            OfficerStep::ForfeitByDecision { offender } => Some(ResultEntry {
                forfeit: Some(offender.clone()),
                boards: Vec::new(),
                late: None,
            }),
            _ => None,
        },
        version: None,
        reason: Some(reason.to_string()),
        settle: match step {
            OfficerStep::Adjudicate { board, result } => {
                Some((*board, GameResult::parse(result.trim())))
            }
            _ => None,
        },
        restore: None,
    };
    let title = format!(
        "{}, round {}, {} v {}",
        ctx.view.record.name,
        ctx.round,
        ctx.team_name(arbiter_core::model::Side::Home),
        ctx.team_name(arbiter_core::model::Side::Away)
    );
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
