//! The standings: teams ranked by the ruleset's ordered criteria.
//!
//! Each criterion splits the groups still tied. A criterion that looks only at the games among
//! the tied teams (head-to-head, AS-16 and GT-S5; board preference, AS-17; FIDE direct encounter)
//! is computed on the mini-table of exactly the teams tied at that point, and applied again to
//! each sub-group it leaves tied, on that sub-group's own mini-table, until it separates nothing
//! more (RULES.md, "Tiebreaks"). Teams tied after the last criterion share the place (AS-18).
//! Excluded matches (GT-M5) count for no criterion; dropped teams rank below all others.

use std::cmp::Ordering;

use crate::criteria::{CriterionKind, CriterionSpec, ScoreBasis};
use crate::fide;
use crate::model::Competition;
use crate::ruleset::Ruleset;
use crate::scoring::{self, EntryKind, ScoreSheet};

/// A criterion's value for one team.
#[derive(Debug, Clone, PartialEq)]
pub enum CriterionValue {
    Number(f64),
    /// Compared element by element, first element first (AS-17 board wins, TBR, BBE).
    Sequence(Vec<f64>),
    /// The criterion was never applied to this team (it was already alone in its place).
    NotApplied,
}

impl CriterionValue {
    fn compare(&self, other: &CriterionValue) -> Ordering {
        use CriterionValue::*;
        match (self, other) {
            (Number(a), Number(b)) => a.total_cmp(b),
            (Sequence(a), Sequence(b)) => {
                for (x, y) in a.iter().zip(b) {
                    match x.total_cmp(y) {
                        Ordering::Equal => {}
                        o => return o,
                    }
                }
                a.len().cmp(&b.len())
            }
            (NotApplied, NotApplied) => Ordering::Equal,
            (NotApplied, _) => Ordering::Less,
            (_, NotApplied) => Ordering::Greater,
            (Number(_), Sequence(_)) => Ordering::Less,
            (Sequence(_), Number(_)) => Ordering::Greater,
        }
    }
}

/// Everything a criterion may look at.
#[derive(Debug, Clone, Copy)]
pub struct Context<'a> {
    pub competition: &'a Competition,
    pub rules: &'a Ruleset,
    pub sheet: &'a ScoreSheet,
    /// The score that ranks first (AS-14: game points; GT-S5 and FIDE: match points).
    pub primary: ScoreBasis,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Standings {
    pub criteria: Vec<CriterionSpec>,
    /// In rank order.
    pub rows: Vec<StandingRow>,
    /// For each pair of adjacent rows, what put the upper above the lower, or why they share.
    pub separations: Vec<Separation>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct StandingRow {
    /// 1-based; teams that share a place share the rank of its first position.
    pub rank: usize,
    /// `"2"`, or `"2-3"` for a shared place (AS-18).
    pub place: String,
    /// Index into `Competition::teams`.
    pub team: usize,
    /// One value per criterion, in the ruleset's order.
    pub values: Vec<CriterionValue>,
    /// GT-M5: the team was dropped.
    pub dropped: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Separation {
    pub upper: usize,
    pub lower: usize,
    pub reason: SeparationReason,
}

#[derive(Debug, Clone, PartialEq)]
pub enum SeparationReason {
    /// The criterion at this index of the list put `upper` ahead; the values in the group in
    /// which it decided.
    Criterion {
        index: usize,
        upper_value: CriterionValue,
        lower_value: CriterionValue,
        /// The teams among which it was computed (the mini-table, for group criteria).
        group: Vec<usize>,
    },
    /// GT-M5: the lower team was dropped.
    Dropped,
    /// Equal on every criterion: they share the place (AS-18).
    Shared,
}

/// Errors that stop a standings computation: a criterion this ruleset cannot apply.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{0}")]
pub struct StandingsError(pub String);

/// Whether a criterion is computed on the tied group only (and so re-applied to sub-groups).
pub fn is_group_criterion(kind: &CriterionKind) -> bool {
    match kind {
        CriterionKind::HeadToHead(_) | CriterionKind::HeadToHeadBoards => true,
        CriterionKind::Fide(tb) => fide::is_group_tiebreak(tb),
        CriterionKind::GamePoints | CriterionKind::MatchPoints => false,
    }
}

/// The primary score of a ruleset: the first of `GP` or `MP` in its criteria (match points when
/// neither is named).
pub fn primary_score(rules: &Ruleset) -> ScoreBasis {
    rules
        .criteria
        .iter()
        .find_map(|c| match c.kind {
            CriterionKind::GamePoints => Some(ScoreBasis::GamePoints),
            CriterionKind::MatchPoints => Some(ScoreBasis::MatchPoints),
            _ => None,
        })
        .unwrap_or(ScoreBasis::MatchPoints)
}

/// Scores the competition and ranks it.
pub fn standings(competition: &Competition, rules: &Ruleset) -> Result<Standings, StandingsError> {
    let sheet = scoring::score(competition, rules);
    rank(competition, rules, &sheet, &rules.criteria)
}

/// Ranks an already scored competition by the given criteria.
pub fn rank(
    competition: &Competition,
    rules: &Ruleset,
    sheet: &ScoreSheet,
    criteria: &[CriterionSpec],
) -> Result<Standings, StandingsError> {
    let ctx = Context {
        competition,
        rules,
        sheet,
        primary: primary_score(rules),
    };
    let n = sheet.teams.len();
    let mut values = vec![vec![CriterionValue::NotApplied; criteria.len()]; n];
    // What separated each team from the team just above it, filled as groups split.
    let mut decided_by: Vec<Option<(usize, Vec<usize>)>> = vec![None; n];

    let (active, dropped): (Vec<usize>, Vec<usize>) =
        (0..n).partition(|&t| sheet.teams[t].dropped.is_none());
    let mut groups: Vec<(bool, Vec<usize>)> = Vec::new();
    for (is_dropped, g) in [(false, active), (true, dropped)] {
        if !g.is_empty() {
            groups.push((is_dropped, g));
        }
    }

    for (ci, spec) in criteria.iter().enumerate() {
        let per_team = if is_group_criterion(&spec.kind) {
            None
        } else {
            Some(team_values(&ctx, spec)?)
        };
        let mut next = Vec::with_capacity(groups.len());
        for (is_dropped, group) in groups {
            if group.len() == 1 {
                next.push((is_dropped, group));
                continue;
            }
            let parts = match &per_team {
                Some(v) => split_by(&group, |t| v[t].clone(), spec, &mut values, ci),
                None => split_group(&ctx, spec, &group, &mut values, ci)?,
            };
            if parts.len() > 1 {
                for (k, part) in parts.iter().enumerate() {
                    for (j, &t) in part.iter().enumerate() {
                        // The first team of each later part was separated from the one above by
                        // this criterion; so were the teams of a part split further inside it.
                        if j == 0 && k > 0 && decided_by[t].is_none() {
                            decided_by[t] = Some((ci, group.clone()));
                        }
                    }
                }
            }
            next.extend(parts.into_iter().map(|p| (is_dropped, p)));
        }
        groups = next;
    }

    let mut rows = Vec::with_capacity(n);
    let mut position = 1;
    for (is_dropped, group) in &groups {
        let place = if group.len() == 1 {
            position.to_string()
        } else {
            format!("{}-{}", position, position + group.len() - 1)
        };
        for &t in group {
            rows.push(StandingRow {
                rank: position,
                place: place.clone(),
                team: t,
                values: values[t].clone(),
                dropped: *is_dropped,
            });
        }
        position += group.len();
    }

    let separations = rows
        .windows(2)
        .map(|w| {
            let (upper, lower) = (&w[0], &w[1]);
            let reason = if upper.rank == lower.rank {
                SeparationReason::Shared
            } else if lower.dropped && !upper.dropped {
                SeparationReason::Dropped
            } else {
                match &decided_by[lower.team] {
                    Some((index, group)) => SeparationReason::Criterion {
                        index: *index,
                        upper_value: upper.values[*index].clone(),
                        lower_value: lower.values[*index].clone(),
                        group: group.clone(),
                    },
                    None => SeparationReason::Shared,
                }
            };
            Separation {
                upper: upper.team,
                lower: lower.team,
                reason,
            }
        })
        .collect();

    Ok(Standings {
        criteria: criteria.to_vec(),
        rows,
        separations,
    })
}

/// Splits `group` by a value per team, best first, recording the values.
fn split_by(
    group: &[usize],
    value: impl Fn(usize) -> CriterionValue,
    spec: &CriterionSpec,
    values: &mut [Vec<CriterionValue>],
    ci: usize,
) -> Vec<Vec<usize>> {
    let mut scored: Vec<(usize, CriterionValue)> = group.iter().map(|&t| (t, value(t))).collect();
    let better = |a: &CriterionValue, b: &CriterionValue| {
        let o = a.compare(b);
        if spec.lower_is_better() {
            o
        } else {
            o.reverse()
        }
    };
    scored.sort_by(|(ta, a), (tb, b)| better(a, b).then(ta.cmp(tb)));
    let mut parts: Vec<Vec<usize>> = Vec::new();
    let mut last: Option<CriterionValue> = None;
    for (t, v) in scored {
        let same = last
            .as_ref()
            .is_some_and(|l| l.compare(&v) == Ordering::Equal);
        if same {
            if let Some(p) = parts.last_mut() {
                p.push(t);
            }
        } else {
            parts.push(vec![t]);
        }
        values[t][ci] = v.clone();
        last = Some(v);
    }
    parts
}

/// Splits a tied group by a group criterion, re-applying it to every sub-group it leaves tied
/// until nothing changes.
fn split_group(
    ctx: &Context<'_>,
    spec: &CriterionSpec,
    group: &[usize],
    values: &mut [Vec<CriterionValue>],
    ci: usize,
) -> Result<Vec<Vec<usize>>, StandingsError> {
    let v = group_values(ctx, spec, group)?;
    let parts = split_by(group, |t| v[position(group, t)].clone(), spec, values, ci);
    if parts.len() == 1 {
        return Ok(parts);
    }
    let mut out = Vec::new();
    for p in parts {
        if p.len() > 1 {
            out.extend(split_group(ctx, spec, &p, values, ci)?);
        } else {
            out.push(p);
        }
    }
    Ok(out)
}

fn position(group: &[usize], t: usize) -> usize {
    group.iter().position(|&g| g == t).unwrap_or(0)
}

/// Values of a criterion that depends only on each team's own record (and its opponents').
fn team_values(
    ctx: &Context<'_>,
    spec: &CriterionSpec,
) -> Result<Vec<CriterionValue>, StandingsError> {
    let sheet = ctx.sheet;
    Ok(match &spec.kind {
        CriterionKind::GamePoints => sheet
            .teams
            .iter()
            .map(|t| CriterionValue::Number(t.game_points))
            .collect(),
        CriterionKind::MatchPoints => sheet
            .teams
            .iter()
            .map(|t| CriterionValue::Number(t.match_points))
            .collect(),
        CriterionKind::Fide(tb) => fide::team_values(ctx, tb)?,
        CriterionKind::HeadToHead(_) | CriterionKind::HeadToHeadBoards => {
            let all: Vec<usize> = (0..sheet.teams.len()).collect();
            group_values(ctx, spec, &all)?
        }
    })
}

/// Values of a group criterion on the mini-table of exactly `group`, in `group`'s order.
fn group_values(
    ctx: &Context<'_>,
    spec: &CriterionSpec,
    group: &[usize],
) -> Result<Vec<CriterionValue>, StandingsError> {
    match &spec.kind {
        CriterionKind::HeadToHead(basis) => Ok(head_to_head(ctx.sheet, group, *basis)),
        CriterionKind::HeadToHeadBoards => Ok(board_preference(ctx.sheet, group)),
        CriterionKind::Fide(tb) => fide::group_values(ctx, tb, group),
        CriterionKind::GamePoints | CriterionKind::MatchPoints => {
            let v = team_values(ctx, spec)?;
            Ok(group.iter().map(|&t| v[t].clone()).collect())
        }
    }
}

/// AS-16, GT-S5: each team's score in the matches among the teams of `group` only
/// (three tied teams on four boards: each scores out of 12).
pub fn head_to_head(sheet: &ScoreSheet, group: &[usize], basis: ScoreBasis) -> Vec<CriterionValue> {
    group
        .iter()
        .map(|&t| {
            let total = sheet.teams[t]
                .entries
                .iter()
                .filter(|e| e.counts() && e.opponent.is_some_and(|o| group.contains(&o)))
                .map(|e| match basis {
                    ScoreBasis::GamePoints => e.game_points,
                    ScoreBasis::MatchPoints => e.match_points,
                })
                .sum();
            CriterionValue::Number(total)
        })
        .collect()
}

/// AS-17: among the games of the matches between the teams of `group`, the wins on board 1,
/// then on board 2, and so on; more wins on a higher board ranks higher.
pub fn board_preference(sheet: &ScoreSheet, group: &[usize]) -> Vec<CriterionValue> {
    let boards = usize::try_from(sheet.boards).unwrap_or(0);
    group
        .iter()
        .map(|&t| {
            let mut wins = vec![0.0; boards];
            for e in &sheet.teams[t].entries {
                if !e.counts()
                    || e.kind != EntryKind::Played
                    || !e.opponent.is_some_and(|o| group.contains(&o))
                {
                    continue;
                }
                for b in &e.boards {
                    let i = usize::try_from(b.board).unwrap_or(0).saturating_sub(1);
                    if b.outcome.is_win()
                        && let Some(w) = wins.get_mut(i)
                    {
                        *w += 1.0;
                    }
                }
            }
            CriterionValue::Sequence(wins)
        })
        .collect()
}
