//! A team's lineup, named before its match by the school's advisor (issue 12): the match page's
//! lineup section and form, and the one write path the form, the API and the command line
//! share. Core's `eligibility::lineup_refusals` decides what a lineup breaks, read with the
//! season's (or event's) other competitions (GT-M9..GT-M15, GT-R7, AS-3, AS-10); a refused
//! lineup is not stored, and the page or the answer says why, each reason with its rule. A
//! lineup that stands is kept with the players it withdraws (GT-M12), which stay with the
//! match's record after the result.

use arbiter_core::event;
use arbiter_core::event::event_day::{LateOverride, LineupTime};
use arbiter_core::record::model::{MatchOutcome, PlayerId, Side};
use arbiter_core::record::text::Reason;
use arbiter_core::rules::permissions::{Action, Target};
use arbiter_core::rules::validate::{self, Finding};
use arbiter_core::teams::eligibility;
use arbiter_core::teams::lineup::{Lineup, NamedLineup, Ranking};
use arbiter_core::teams::sealed::{Embargo, MatchTime, Sealed, Viewer};
use arbiter_store::{EventRecord, LateLineup, LineupVersion, StoreError};

use crate::app::season::SeasonViews;
use crate::http::auth::{self, Account, Acting};
use crate::http::error::WebError;
use crate::results::context::MatchContext;
use crate::ui::words;

/// A lineup as a person sends it: each board's player id (empty for a board left empty), the
/// players withdrawn under GT-M12, and the version of the lineup in force it was named against.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LineupInput {
    pub boards: Vec<Option<String>>,
    pub withdrawn: Vec<String>,
    /// The version read (0 when none was named); `None` takes the one in force.
    pub version: Option<u32>,
    /// AS-11: the arbiter's reason for accepting a lineup named after its deadline.
    pub accept_late: Option<String>,
}

impl LineupInput {
    fn lineup(&self) -> Lineup {
        // Trailing empty boards say nothing: a lineup of three is a short team's (GT-M9).
        let mut boards: Vec<Option<PlayerId>> = self
            .boards
            .iter()
            .map(|p| p.as_ref().map(|p| PlayerId(p.trim().to_string())))
            .collect();
        while boards.last().is_some_and(Option::is_none) {
            boards.pop();
        }
        Lineup {
            boards,
            withdrawn: self
                .withdrawn
                .iter()
                .map(|p| PlayerId(p.trim().to_string()))
                .collect(),
        }
    }
}

/// Why a lineup was not stored.
pub enum NotNamed {
    /// The table says no, the match is played, or the store failed: the error answers.
    Failed(WebError),
    /// Named against a version no longer in force: nothing stored; the sentence says which is.
    Stale(String),
    /// The rules refuse it: each finding names its rule, board and player.
    Refused(Vec<Finding>),
}

impl From<WebError> for NotNamed {
    fn from(e: WebError) -> NotNamed {
        NotNamed::Failed(e)
    }
}

/// Who names `side`'s lineup: the school's advisor (the table's `SubmitLineup`, own school).
pub(crate) fn permit(
    ctx: &MatchContext,
    account: Option<&Account>,
    side: Side,
) -> Result<Acting, WebError> {
    let school = ctx.school(side).unwrap_or_default();
    auth::permit(
        account,
        ctx.league(),
        Action::SubmitLineup,
        Target::School(school),
    )
}

/// May `account` accept a lineup named after its deadline (AS-11)? The arbiter.
pub(crate) fn may_accept_late(ctx: &MatchContext, account: Option<&Account>) -> bool {
    auth::may(
        account,
        ctx.league(),
        Action::OverrideLateLineup,
        Target::League,
    )
}

pub(crate) fn may(ctx: &MatchContext, account: Option<&Account>, side: Side) -> bool {
    let school = ctx.school(side).unwrap_or_default();
    auth::may(
        account,
        ctx.league(),
        Action::SubmitLineup,
        Target::School(school),
    )
}

/// The one write path of a lineup: the table, core's rules (at an event, AS-11's deadline by the
/// hall's clock too), then the store. `may_accept_late`: the one naming it may accept a lineup
/// after its deadline (the table's `OverrideLateLineup`: the arbiter).
pub(crate) async fn name(
    state: &crate::app::state::AppState,
    ctx: &MatchContext,
    acting: &Acting,
    may_accept_late: bool,
    side: Side,
    input: &LineupInput,
) -> Result<LineupVersion, NotNamed> {
    if ctx.record.outcome != MatchOutcome::Pending {
        return Err(NotNamed::Failed(WebError::Refused(format!(
            "{} has a result; the lineup it played is the one its boards record, corrected with the result.",
            validate::match_label(&ctx.record)
        ))));
    }
    let named = NamedLineup {
        round: ctx.round,
        home: ctx.record.home.clone(),
        side,
        lineup: input.lineup(),
    };
    // GT-M15, AS-3: the lineup is judged with the season's (or event's) other competitions.
    let season = SeasonViews::around(state, &ctx.view).await?;
    let entries = season.entries();
    let Some(at) = season.at(ctx.view.id) else {
        return Err(NotNamed::Failed(WebError::Internal));
    };
    let late = match event_round(state, ctx).await? {
        // AS-11: at an event, the lineup is due before its round by the hall's clock.
        Some((event, round_start)) => {
            let named_at = event.hall_time(state.now());
            let accepted = accepted_late(input, may_accept_late, acting, named_at)?;
            let timed = event::TimedLineup {
                named: named.clone(),
                round_start,
                named_at,
                accepted,
            };
            match event::lineup_refusals(&entries, at, &timed) {
                Err(refusals) => return Err(NotNamed::Refused(refusals)),
                Ok(Some(LineupTime::LateAccepted {
                    named_at,
                    minutes_late,
                    accepted,
                    ..
                })) => Some(LateLineup {
                    named_at,
                    minutes_late: u32::try_from(minutes_late).unwrap_or(u32::MAX),
                    accepted_by: accepted.by,
                    reason: accepted.reason.as_str().to_string(),
                }),
                Ok(_) => None,
            }
        }
        None => {
            let refusals = eligibility::lineup_refusals(&entries, at, &named);
            if !refusals.is_empty() {
                return Err(NotNamed::Refused(refusals));
            }
            None
        }
    };
    // GT-M12: the players it withdraws are kept with it, those it leaves out while a lower-ranked
    // one plays as well as those it lists (core's `lineup::withdrawals` says why).
    let kept = Lineup {
        withdrawn: eligibility::lineup_withdrawals(&entries, at, &named),
        ..named.lineup
    };
    let seen = input
        .version
        .unwrap_or_else(|| in_force(ctx, side).map_or(0, |l| l.version));
    let by = acting.actor();
    match state
        .store()
        .record_lineup(ctx.id, side, seen, &kept, late.as_ref(), &by)
        .await
    {
        Ok(v) => {
            state.invalidate();
            Ok(v)
        }
        Err(StoreError::Stale(m)) => Err(NotNamed::Stale(m)),
        // A result entered since the match was read: refused as the check above would have
        // (422), not the store's failure (503); the crash test of issue 16 found it.
        Err(e) => Err(NotNamed::Failed(WebError::from_write(e))),
    }
}

/// The event the match's competition is played at and when its round starts, when its rules
/// have event deadlines (`[event]`) and the arbiter has set the round's time.
pub(crate) async fn event_round(
    state: &crate::app::state::AppState,
    ctx: &MatchContext,
) -> Result<Option<(EventRecord, jiff::civil::DateTime)>, WebError> {
    if ctx.stored.rules.event.is_none() {
        return Ok(None);
    }
    let Some(event) = state.store().event(ctx.stored.season.id).await? else {
        return Ok(None);
    };
    Ok(event
        .round_start(ctx.stored.record.id, ctx.round)
        .map(|start| (event, start)))
}

/// Who `account` is to `side`'s team, as core's `sealed` reads it: the arbiter, who takes
/// every lineup and roster (the table's `OverrideLateLineup`, AS-11, AS-12); the advisor who
/// names the side's lineup (the table's `SubmitLineup` for its school); or anyone else.
pub(crate) fn viewer(ctx: &MatchContext, account: Option<&Account>, side: Side) -> Viewer {
    if may_accept_late(ctx, account) {
        Viewer::Arbiter
    } else if may(ctx, account, side) {
        Viewer::OwnTeam
    } else {
        Viewer::Other
    }
}

/// The embargo on the lineups of the match's round (core's `sealed::Embargo`: at an event from
/// the round's start as the arbiter set it, else from the match's day and start), and the time
/// it is now where the match is played: the hall's at an event, else the league's.
pub(crate) async fn embargo(
    state: &crate::app::state::AppState,
    ctx: &MatchContext,
) -> Result<(Embargo, jiff::civil::DateTime), WebError> {
    let (when, now) = match event_round(state, ctx).await? {
        Some((event, round_start)) => (
            MatchTime::Event {
                round_start,
                first_round: event
                    .round_start(ctx.stored.record.id, 1)
                    .unwrap_or(round_start),
            },
            event.hall_time(state.now()),
        ),
        None => (
            ctx.date
                .map_or(MatchTime::Unscheduled, |day| MatchTime::Day {
                    day,
                    start: ctx.record.start,
                }),
            state.local_now(&ctx.view.league.time_zone),
        ),
    };
    Ok((Embargo::of(&ctx.stored.rules, ctx.round, when), now))
}

/// The lineup in force for `side`, if any, when `viewer` may see it at `now` (core's
/// `Embargo::check`); `Err` the sentence that says when they may. Sealed, not even whether it
/// is named is told.
pub(crate) fn seen<'a>(
    ctx: &'a MatchContext,
    side: Side,
    (embargo, now): &(Embargo, jiff::civil::DateTime),
    viewer: Viewer,
) -> Result<Option<&'a LineupVersion>, Sealed> {
    embargo.check(viewer, *now).map(|()| in_force(ctx, side))
}

/// The arbiter's acceptance of a late lineup, when a reason was given: refused to anyone the
/// table does not let accept one (AS-11).
fn accepted_late(
    input: &LineupInput,
    may_accept_late: bool,
    acting: &Acting,
    at: jiff::civil::DateTime,
) -> Result<Option<LateOverride>, NotNamed> {
    let text = input.accept_late.as_deref().unwrap_or("");
    let reason = Reason::parse_as("the reason for accepting a late lineup", text)
        .map_err(|e| NotNamed::Failed(WebError::Refused(e.to_string())))?;
    match reason {
        None => Ok(None),
        Some(_) if !may_accept_late => Err(NotNamed::Failed(WebError::Forbidden(
            "AS-11: only the arbiter accepts a lineup named after its deadline; name it before the deadline, or ask the arbiter."
                .into(),
        ))),
        Some(reason) => Ok(Some(LateOverride {
            by: acting.email.clone(),
            at,
            reason,
        })),
    }
}

/// AS-11's deadline as the match page says it: `Due by 13:15 on 8 December, 15 minutes before
/// round 3 starts at 13:30 (AS-11).`
pub(crate) fn deadline_words(
    deadlines: &arbiter_core::event::event_day::EventDeadlines,
    round: u32,
    start: jiff::civil::DateTime,
) -> String {
    let due = deadlines.lineup_due(start);
    format!(
        "Due by {} on {}, {} minutes before round {round} starts at {} (AS-11); after that only the arbiter accepts it.",
        due.strftime("%H:%M"),
        words::date(due.date()),
        deadlines.lineup_minutes,
        start.strftime("%H:%M"),
    )
}

/// A late lineup's acceptance as the page says it (AS-11).
pub(crate) fn late_words(l: &LateLineup) -> String {
    format!(
        "Named at {}, {} minute{} after the deadline; accepted by {} (AS-11): {}",
        l.named_at.strftime("%H:%M"),
        l.minutes_late,
        if l.minutes_late == 1 { "" } else { "s" },
        l.accepted_by,
        l.reason
    )
}

/// The lineup in force for `side` of the match, if one is named.
pub(crate) fn in_force(ctx: &MatchContext, side: Side) -> Option<&LineupVersion> {
    ctx.stored.lineup(ctx.round, &ctx.record.home, side)
}

/// One player to choose for a board: the id and `Name (1650)` by the rating of the match day.
pub(crate) struct Candidate {
    pub id: String,
    pub label: String,
}

/// The players `side` may name: its roster, and under GT-M14 the sister teams' in the
/// division, each with the rating of the match day, in board order (GT-M11, GT-M13).
pub(crate) fn candidates(ctx: &MatchContext, side: Side) -> Vec<Candidate> {
    let stored = &ctx.stored;
    let c = &stored.competition;
    let team = ctx.record.team(side);
    let ranking = Ranking::with_lists(c, &stored.rules, &ctx.view.rating_lists);
    // Board order's key (provisional last, then rating, highest first) and the roster's place.
    type Placed = (Option<(bool, i64)>, usize, Candidate);
    let mut out: Vec<Placed> = c
        .teams
        .iter()
        .filter(|t| &t.id == team || validate::sister_teams(c, &stored.rules, &t.id, team))
        .flat_map(|t| t.players.iter().map(move |p| (t, p)))
        .enumerate()
        .map(|(i, (t, p))| {
            let rank = ranking.on(&p.id, ctx.date);
            let mut label = p.name.clone();
            if let Some(r) = rank {
                label.push_str(&format!(" ({})", r.shown()));
            }
            if &t.id != team {
                label.push_str(&format!(", {}", t.name));
            }
            if p.unranked {
                label.push_str(", unranked");
            }
            (
                rank.map(|r| (r.provisional, -r.rating)),
                i,
                Candidate {
                    id: p.id.0.clone(),
                    label,
                },
            )
        })
        .collect();
    // The roster's order stands where the rules order by it (AS-10).
    if stored.rules.lineup.order == arbiter_core::rules::ruleset::BoardOrder::Rating {
        out.sort_by_key(|(rank, i, _)| (*rank, *i));
    }
    out.into_iter().map(|(_, _, c)| c).collect()
}

/// The name of player `p` of the competition, else the id.
fn player_name(ctx: &MatchContext, p: &PlayerId) -> String {
    ctx.stored
        .competition
        .teams
        .iter()
        .flat_map(|t| &t.players)
        .find(|x| &x.id == p)
        .map_or_else(|| p.0.clone(), |x| x.name.clone())
}

/// The lineup in force as lines: `1. Name (1650)`, an empty board said so.
pub(crate) fn lines(ctx: &MatchContext, l: &Lineup) -> Vec<String> {
    let name = |p: &PlayerId| player_name(ctx, p);
    let mut out: Vec<String> = (1..)
        .zip(&l.boards)
        .map(|(n, p)| match p {
            Some(p) => format!("{n}. {}", name(p)),
            None => format!("{n}. empty (the team is short, GT-M9)"),
        })
        .collect();
    if !l.withdrawn.is_empty() {
        let w: Vec<String> = l.withdrawn.iter().map(name).collect();
        out.push(format!(
            "Withdrawn so a lower-ranked player plays (GT-M12): {}",
            w.join(", ")
        ));
    }
    out
}

/// GT-M12 after the result: `Toledo withdrew Ana Diaz so that a lower-ranked player played
/// (GT-M12).`, from the lineup named before the match; `None` when it withdrew no one.
pub(crate) fn withdrawal_words(ctx: &MatchContext, team: &str, l: &Lineup) -> Option<String> {
    if l.withdrawn.is_empty() {
        return None;
    }
    let names: Vec<String> = l.withdrawn.iter().map(|p| player_name(ctx, p)).collect();
    let rule = ctx
        .stored
        .rules
        .cite("withdrawal")
        .map(|r| format!(" ({r})"))
        .unwrap_or_default();
    Some(format!(
        "{team} withdrew {} so that a lower-ranked player played{rule}.",
        arbiter_core::record::words::list(names.iter())
    ))
}

/// `named by … on …`: who named the version in force, and when.
pub(crate) fn named_by(v: &LineupVersion) -> String {
    let at = words::timestamp(v.entered_at);
    match v.entered_by.as_deref() {
        Some(who) => format!("version {}, named by {who} on {at}", v.version),
        None => format!(
            "version {}, recorded from the command line on {at}",
            v.version
        ),
    }
}
