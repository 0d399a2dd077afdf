//! The one write path of the result workflow (GT-P2, GT-O3). The match page's forms and the
//! API's endpoints each decode their request and come here: core says whether the step may be
//! taken now and reads the result ([`ReportStep::check`], [`arbiter_core::season::entry`]), the store
//! writes it (only if the match is still as it was read), and the adapter answers what came
//! back, as a page or as JSON.

use arbiter_core::record::model::{GameResult, MatchOutcome};
use arbiter_core::season::entry::{Problem, ResultEntry};
use arbiter_core::season::report::{self, EnteredBy, Refusal, ReportStep, ReviewKind};
use arbiter_store::{ResultReview, ResultVersion, StoreError};

use crate::app::state::AppState;
use crate::http::auth::Acting;
use crate::http::error::WebError;
use crate::results::context::{self, MatchContext, reason_problem, sentence};
use crate::results::notify;
use arbiter_core::season::notice;

/// One step of the workflow as a person or a script asked for it.
pub(crate) struct Submission {
    pub step: ReportStep,
    /// The result entered or corrected; `None` for a review or a decision.
    pub entry: Option<ResultEntry>,
    /// The version the writer read; `None` to act on the one in force.
    pub version: Option<u32>,
    pub reason: Option<String>,
    /// GT-M20: the board whose unfinished game this step settles, and its result (for
    /// `Adjudicate` and `FinishAdjourned`).
    pub settle: Option<(u32, Option<GameResult>)>,
    /// A correction that restores an earlier version's outcome as it was (the round page's undo),
    /// instead of one typed in `entry`.
    pub restore: Option<MatchOutcome>,
    /// GT-M5: the officer read the warning that this step drops a team, and takes it.
    pub acknowledge_drop: bool,
}

impl Submission {
    /// `step` with nothing given yet: no entry, version, reason or board to settle.
    pub(crate) fn of(step: ReportStep) -> Submission {
        Submission {
            step,
            entry: None,
            version: None,
            reason: None,
            settle: None,
            restore: None,
            acknowledge_drop: false,
        }
    }

    /// The reason as given, `None` when blank.
    fn reason(&self) -> Option<&str> {
        self.reason.as_deref().filter(|r| !r.trim().is_empty())
    }
}

/// What the store kept.
pub(crate) enum Written {
    Result(ResultVersion),
    Review(ResultReview),
}

/// Why nothing was written.
pub(crate) enum NotWritten {
    /// The report's state (422) or the version read (409) refuses the step. `fresh` is the
    /// match as it is now when another write got in first.
    Refused {
        why: WebError,
        /// Core's word for it (`arbiter_core::season::report::Refusal::code`).
        code: &'static str,
        fresh: Option<Box<MatchContext>>,
    },
    /// What was sent is wrong, each problem with its field. A reason beyond its limit is
    /// `too_long`, apart from the rest (issue 9).
    Invalid {
        too_long: Option<Problem>,
        problems: Vec<Problem>,
    },
    /// The store refused the write with this sentence.
    StoreRefused(String),
    Failed(WebError),
}

/// A submission checked and read, ready to store: the result it writes (none for a review) and
/// the referee's report of a late team.
pub(crate) struct Checked {
    outcome: Option<MatchOutcome>,
    late: Option<arbiter_core::season::late::LateArrival>,
}

/// Checks `sub` against the match as `ctx` read it, writes it as `acting`, and says what became
/// of it. The public pages are invalidated after a write.
pub(crate) async fn submit(
    state: &AppState,
    ctx: &MatchContext,
    acting: &Acting,
    sub: &Submission,
) -> Result<Written, NotWritten> {
    let checked = check(state, ctx, acting, sub).await?;
    let reason = sub.reason();
    let store = state.store();
    let actor = acting.actor();
    let written = match (sub.step, checked.outcome) {
        (
            ReportStep::Enter
            | ReportStep::Correct
            | ReportStep::ForfeitByDecision
            | ReportStep::DoubleForfeitForLateReport
            | ReportStep::Adjudicate
            | ReportStep::FinishAdjourned
            | ReportStep::WithdrawPenalty,
            Some(outcome),
        ) => store
            .record_result_on(
                ctx.id,
                ctx.seen(),
                &outcome,
                (sub.step.basis(), checked.late.as_ref()),
                &actor,
                reason,
            )
            .await
            .map(Written::Result),
        (step, _) => {
            // An officer's confirmation of the disputed version is the decision that it
            // stands (`arbiter_core::season::report::status`).
            let kind = match step {
                ReportStep::Dispute => ReviewKind::Disputed,
                ReportStep::RequestCorrection => ReviewKind::CorrectionRequested,
                _ => ReviewKind::Confirmed,
            };
            store
                .review_result(ctx.id, ctx.seen(), kind, &actor, reason)
                .await
                .map(Written::Review)
        }
    };
    match written {
        Ok(w) => {
            state.invalidate();
            told(state, ctx, acting, sub).await;
            Ok(w)
        }
        Err(e) => Err(refused(state, ctx, acting, sub, e).await),
    }
}

/// Several matches' results (an arbiter's round), each checked as [`submit`] checks one, then
/// stored in one transaction: all, or none. `Err` holds each match's refusal by its index.
pub(crate) async fn submit_all(
    state: &AppState,
    asked: &[(&MatchContext, Acting, Submission)],
) -> Result<usize, Vec<(usize, NotWritten)>> {
    let mut checked = Vec::new();
    let mut refusals = Vec::new();
    for (i, (ctx, acting, sub)) in asked.iter().enumerate() {
        match check(state, ctx, acting, sub).await {
            Ok(Checked {
                outcome: Some(outcome),
                late,
            }) => checked.push((outcome, late)),
            Ok(Checked { outcome: None, .. }) => refusals.push((
                i,
                NotWritten::Failed(WebError::BadRequest(
                    "The round page enters and corrects results; confirm or dispute one on its match page.".into(),
                )),
            )),
            Err(e) => refusals.push((i, e)),
        }
    }
    if !refusals.is_empty() {
        return Err(refusals);
    }
    let actors: Vec<arbiter_store::Actor> = asked.iter().map(|(_, a, _)| a.actor()).collect();
    let writes: Vec<arbiter_store::ResultWrite<'_>> = asked
        .iter()
        .zip(&checked)
        .zip(&actors)
        .map(
            |(((ctx, _, sub), (outcome, late)), by)| arbiter_store::ResultWrite {
                match_id: ctx.id,
                seen: ctx.seen(),
                outcome,
                basis: sub.step.basis(),
                late: late.as_ref(),
                reason: sub.reason(),
                by,
            },
        )
        .collect();
    if writes.is_empty() {
        return Ok(0);
    }
    match state.store().record_results(&writes).await {
        Ok(saved) => {
            state.invalidate();
            for (ctx, acting, sub) in asked {
                told(state, ctx, acting, sub).await;
            }
            Ok(saved.len())
        }
        Err((i, e)) => {
            let (ctx, acting, sub) = &asked[i];
            Err(vec![(i, refused(state, ctx, acting, sub, e).await)])
        }
    }
}

/// Issue 13: those who act next are told, after the answer.
async fn told(state: &AppState, ctx: &MatchContext, acting: &Acting, sub: &Submission) {
    if let Ok(fresh) = context::reload(state, ctx).await
        && let Some((notice, audience)) = notice::of_step(sub.step, fresh.status())
    {
        let what = notify::step_words(
            sub.step,
            &fresh,
            sub.reason(),
            Some((acting.role, acting.school.as_deref())),
        );
        notify::tell(state, &fresh, notice, audience, &what, Some(&acting.email)).await;
    }
}

/// What a store refusal of `sub` on `ctx` answers: when another write got in first, the answer
/// this one would have had arriving just after it, or else that the match changed (409).
async fn refused(
    state: &AppState,
    ctx: &MatchContext,
    acting: &Acting,
    sub: &Submission,
    e: StoreError,
) -> NotWritten {
    match e {
        StoreError::Stale(_) => match context::reload(state, ctx).await {
            Ok(fresh) => {
                let r = step_check(&fresh, acting, sub, state)
                    .err()
                    .unwrap_or(Refusal::Changed {
                        seen: sub.version.unwrap_or(ctx.in_force()),
                        in_force: fresh.in_force(),
                    });
                NotWritten::Refused {
                    why: context::refusal(&fresh, r),
                    code: r.code(),
                    fresh: Some(Box::new(fresh)),
                }
            }
            Err(e) => NotWritten::Failed(e),
        },
        e => match WebError::from_write(e) {
            WebError::Refused(m) => NotWritten::StoreRefused(sentence(&m)),
            other => NotWritten::Failed(other),
        },
    }
}

/// Core's workflow on the step (GT-P2): may it be taken on the report as `ctx` has it, today.
fn step_check(
    ctx: &MatchContext,
    acting: &Acting,
    sub: &Submission,
    state: &AppState,
) -> Result<(), Refusal> {
    let by = if acting.role.is_officer() {
        EnteredBy::Officer
    } else {
        EnteredBy::Team
    };
    sub.step.check(
        &ctx.report(),
        sub.version,
        by,
        state.today_in(&ctx.view.league.time_zone),
    )
}

/// Everything [`submit`] checks before it stores: the event's clock, the workflow's step, and
/// the result as typed.
async fn check(
    state: &AppState,
    ctx: &MatchContext,
    acting: &Acting,
    sub: &Submission,
) -> Result<Checked, NotWritten> {
    let by = if acting.role.is_officer() {
        EnteredBy::Officer
    } else {
        EnteredBy::Team
    };
    // At an event a round's results come once it has begun, by the hall's clock (issue 30).
    if let Some((event, start)) = crate::results::lineup::event_round(state, ctx)
        .await
        .map_err(NotWritten::Failed)?
        && let Err(late) = arbiter_core::event::event_day::result_entry(
            ctx.round,
            start,
            event.hall_time(state.now()),
        )
    {
        return Err(NotWritten::Refused {
            why: WebError::Refused(format!("{late}.")),
            code: late.code(),
            fresh: None,
        });
    }
    // GT-M5: a dropped team's match is not played, reported, or forfeited again (a double
    // forfeit there would take the opponent's forfeit win away).
    if let Some(why) = ctx.dropped() {
        return Err(NotWritten::Refused {
            why: WebError::Refused(format!(
                "{why} To bring the team back, correct the forfeit that dropped it, as a new version."
            )),
            code: "dropped",
            fresh: None,
        });
    }
    if let Err(r) = step_check(ctx, acting, sub, state) {
        return Err(NotWritten::Refused {
            why: context::refusal(ctx, r),
            code: r.code(),
            fresh: None,
        });
    }
    let reason = sub.reason();
    let too_long = reason_problem(reason);
    let mut problems = Vec::new();
    if let (Some(missing), None) = (sub.step.reason_missing(), reason) {
        problems.push(Problem::general("reason", missing.to_string()));
    }
    let outcome = match &sub.entry {
        None if sub.step == ReportStep::Correct && sub.restore.is_some() => sub.restore.clone(),
        // GT-P4: the late report's penalty is the double forfeit; nothing is typed for it.
        None if sub.step == ReportStep::DoubleForfeitForLateReport => {
            Some(MatchOutcome::DoubleForfeit)
        }
        // GT-M3, GT-P4: a penalty withdrawn leaves the match with no result, to be reported.
        None if sub.step == ReportStep::WithdrawPenalty => Some(MatchOutcome::Pending),
        // GT-M20: the game's result, on the result in force.
        None if matches!(
            sub.step,
            ReportStep::Adjudicate | ReportStep::FinishAdjourned
        ) =>
        {
            match sub.settle {
                Some((board, Some(result))) => {
                    match report::settle(&ctx.record.outcome, board, result, sub.step) {
                        Ok(o) => Some(o),
                        Err(m) => {
                            problems.push(Problem::on(board, "result", m));
                            None
                        }
                    }
                }
                Some((board, None)) => {
                    problems.push(Problem::on(
                        board,
                        "result",
                        "choose how the game ended: 1-0, 1/2-1/2 or 0-1 (GT-M20).".into(),
                    ));
                    None
                }
                None => {
                    problems.push(Problem::general(
                        "board",
                        "Say which board's game this is (GT-M20).".into(),
                    ));
                    None
                }
            }
        }
        // GT-M3: the offender is all a forfeit by decision names; without it there is nothing
        // to read (its boards are not asked for).
        Some(entry)
            if sub.step == ReportStep::ForfeitByDecision
                && entry.forfeit.as_deref().is_none_or(|f| f.trim().is_empty()) =>
        {
            None
        }
        Some(entry) => match entry.outcome(
            &ctx.stored.competition,
            &ctx.stored.rules,
            ctx.round,
            &ctx.record,
        ) {
            Ok(o) => Some(o),
            Err(mut more) => {
                problems.append(&mut more);
                None
            }
        },
        None => None,
    };
    // GT-M6, GT-S3: the referee's report of a late team, and a result that follows it.
    let late = match sub.entry.as_ref().and_then(|e| e.late.as_ref()) {
        None => None,
        Some(l) => match l.read() {
            Ok(late) => {
                if let Some(o) = &outcome
                    && let Err(m) = late.check_outcome(o, &ctx.team_name(late.team))
                {
                    problems.push(Problem::general("late_team", m));
                }
                Some(late)
            }
            Err(mut more) => {
                problems.append(&mut more);
                None
            }
        },
    };
    // GT-M3: a forfeit by decision names the one team that offended.
    if sub.step == ReportStep::ForfeitByDecision
        && !matches!(outcome, Some(MatchOutcome::Forfeit { .. }))
        && !problems.iter().any(|p| p.field == "forfeit")
    {
        problems.push(Problem::general(
            "forfeit",
            "GT-M3: name the team that offended, home or away; it loses the match by default."
                .to_string(),
        ));
    }
    if let Some(o) = &outcome
        && let Some(board) = report::decides_adjudication(by, Some(&ctx.record.outcome), o)
    {
        problems.push(Problem::on(
            board,
            "result",
            report::ONLY_THE_PRESIDENT_ADJUDICATES.into(),
        ));
    }
    // GT-M5: an officer is told before the step that drops a team, and takes it knowingly.
    if by == EnteredBy::Officer
        && !sub.acknowledge_drop
        && let Some(o) = &outcome
        && let Some(warning) = arbiter_core::scoring::would_drop(
            &ctx.stored.competition,
            &ctx.stored.rules,
            ctx.round,
            &ctx.record,
            o,
        )
    {
        problems.push(Problem::general(
            "acknowledge_drop",
            format!(
                "{warning} Nothing was saved: to decide it, confirm that you have read this (tick the box, or send acknowledge_drop)."
            ),
        ));
    }
    if too_long.is_some() || !problems.is_empty() {
        return Err(NotWritten::Invalid { too_long, problems });
    }
    Ok(Checked { outcome, late })
}
