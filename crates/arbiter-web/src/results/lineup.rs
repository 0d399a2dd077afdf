//! A team's lineup, named before its match by the school's advisor (issue 12): the match page's
//! lineup section and form, and the one write path the form and the API share. Core's
//! `lineup::refusals` decides what a lineup breaks (GT-M9..GT-M15, GT-R7, AS-10); a refused
//! lineup is not stored, and the page or the answer says why, each reason with its rule.

use std::collections::HashMap;

use arbiter_core::lineup::{self, Lineup, NamedLineup, Ranking};
use arbiter_core::model::{MatchOutcome, PlayerId, Side};
use arbiter_core::permissions::{Action, Target};
use arbiter_core::validate::{self, Finding};
use arbiter_store::{LineupVersion, StoreError};

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

pub(crate) fn may(ctx: &MatchContext, account: Option<&Account>, side: Side) -> bool {
    let school = ctx.school(side).unwrap_or_default();
    auth::may(
        account,
        ctx.league(),
        Action::SubmitLineup,
        Target::School(school),
    )
}

/// The one write path of a lineup: the table, core's rules, then the store.
pub(crate) async fn name(
    state: &crate::app::state::AppState,
    ctx: &MatchContext,
    acting: &Acting,
    side: Side,
    input: &LineupInput,
) -> Result<LineupVersion, NotNamed> {
    if ctx.record.outcome != MatchOutcome::Pending {
        return Err(NotNamed::Failed(WebError::Refused(format!(
            "{} has a result; the lineup it played is the one its boards record, corrected with the result.",
            validate::match_label(&ctx.record)
        ))));
    }
    let stored = &ctx.stored;
    let named = NamedLineup {
        round: ctx.round,
        home: ctx.record.home.clone(),
        side,
        lineup: input.lineup(),
    };
    let refusals = lineup::refusals(
        &stored.competition,
        &stored.rules,
        &stored.named_lineups(),
        &named,
    );
    if !refusals.is_empty() {
        return Err(NotNamed::Refused(refusals));
    }
    let seen = input
        .version
        .unwrap_or_else(|| in_force(ctx, side).map_or(0, |l| l.version));
    let by = acting.actor();
    match state
        .store()
        .record_lineup(ctx.id, side, seen, &named.lineup, &by)
        .await
    {
        Ok(v) => {
            state.invalidate();
            Ok(v)
        }
        Err(StoreError::Stale(m)) => Err(NotNamed::Stale(m)),
        Err(e) => Err(NotNamed::Failed(e.into())),
    }
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
    let ranking = Ranking::new(c, &stored.rules);
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
    if stored.rules.lineup.order == arbiter_core::ruleset::BoardOrder::Rating {
        out.sort_by_key(|(rank, i, _)| (*rank, *i));
    }
    out.into_iter().map(|(_, _, c)| c).collect()
}

/// The lineup in force as lines: `1. Name (1650)`, an empty board said so.
pub(crate) fn lines(ctx: &MatchContext, l: &Lineup) -> Vec<String> {
    let names: HashMap<&str, &str> = ctx
        .stored
        .competition
        .teams
        .iter()
        .flat_map(|t| &t.players)
        .map(|p| (p.id.0.as_str(), p.name.as_str()))
        .collect();
    let name = |p: &PlayerId| {
        names
            .get(p.0.as_str())
            .copied()
            .unwrap_or(p.0.as_str())
            .to_string()
    };
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
