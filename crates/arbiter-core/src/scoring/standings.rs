//! The standings: teams ranked by the ruleset's ordered criteria.
//!
//! Each criterion splits the groups still tied. A criterion that looks only at the games among
//! the tied teams (head-to-head, AS-16 and GT-S5; board preference, AS-17; FIDE direct encounter)
//! is computed on the mini-table of exactly the teams tied at that point, and applied again to
//! each sub-group it leaves tied, on that sub-group's own mini-table, until it separates nothing
//! more (RULES.md, "Tiebreaks"). Teams tied after the last criterion share the place (AS-18).
//! Excluded matches (GT-M5) count for no criterion; dropped teams rank below all others.

use std::cmp::Ordering;

use crate::rules::criteria::{CriterionKind, CriterionSpec, ScoreBasis};
// The vocabulary of a ranking lives with the criteria, so that the FIDE code can use it too.
use crate::record::model::{Competition, GameOutcome};
pub use crate::rules::criteria::{CriterionValue, StandingsError};
use crate::rules::ruleset::Ruleset;
use crate::scoring::fide;
use crate::scoring::{self, EntryKind, RoundEntry, ScoreSheet};

/// Everything a criterion may look at.
#[derive(Debug, Clone, Copy)]
pub struct Context<'a> {
    /// The competition being ranked.
    pub competition: &'a Competition,
    /// The ruleset it is ranked by.
    pub rules: &'a Ruleset,
    /// Every team's score, round by round.
    pub sheet: &'a ScoreSheet,
    /// The score that ranks first (AS-14: game points; GT-S5 and FIDE: match points).
    pub primary: ScoreBasis,
    /// FIDE's view of the event, built by the first FIDE criterion and shared by the others.
    pub fide: &'a fide::Prepared,
}

impl<'a> Context<'a> {
    /// What the FIDE tie-breaks read of it.
    fn fide_input(&self) -> fide::Input<'a> {
        fide::Input {
            competition: self.competition,
            rules: self.rules,
            sheet: self.sheet,
            primary: self.primary,
            prepared: self.fide,
        }
    }
}

/// The table of a competition: its teams in rank order, with what separated each from the next.
#[derive(Debug, Clone, PartialEq)]
pub struct Standings {
    /// The criteria the teams are ranked by, in the ruleset's order.
    pub criteria: Vec<CriterionSpec>,
    /// In rank order.
    pub rows: Vec<StandingRow>,
    /// For each pair of adjacent rows, what put the upper above the lower, or why they share.
    pub separations: Vec<Separation>,
}

/// One team's line in the standings.
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

/// What put one team directly above the next, or why the two share the place.
#[derive(Debug, Clone, PartialEq)]
pub struct Separation {
    /// The upper team, by its position in `Competition::teams`.
    pub upper: usize,
    /// The lower team, by its position in `Competition::teams`.
    pub lower: usize,
    /// The criterion that separated them, the drop rule, or nothing: a shared place.
    pub reason: SeparationReason,
}

/// Why one team stands above the next in the standings.
#[derive(Debug, Clone, PartialEq)]
pub enum SeparationReason {
    /// The criterion at this index of the list put `upper` ahead; the values in the group in
    /// which it decided.
    Criterion {
        /// The criterion's position in the ruleset's list.
        index: usize,
        /// The upper team's value of it.
        upper_value: CriterionValue,
        /// The lower team's value of it.
        lower_value: CriterionValue,
        /// The teams among which it was computed (the mini-table, for group criteria).
        group: Vec<usize>,
    },
    /// GT-M5: the lower team was dropped.
    Dropped,
    /// Equal on every criterion: they share the place (AS-18).
    Shared,
}

/// Whether a criterion is computed on the tied group only (and so re-applied to sub-groups).
pub fn is_group_criterion(kind: &CriterionKind) -> bool {
    match kind {
        CriterionKind::HeadToHead(_) | CriterionKind::HeadToHeadBoards => true,
        CriterionKind::Fide(tb) => tb.is_group(),
        CriterionKind::GamePoints
        | CriterionKind::MatchPoints
        | CriterionKind::BoardPoints
        | CriterionKind::GamesWon
        | CriterionKind::Defaults
        | CriterionKind::Berliner
        | CriterionKind::TopTeams(_)
        | CriterionKind::Lot(_) => false,
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
        .or(rules.fide.primary)
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
    let prepared = fide::Prepared::default();
    let ctx = Context {
        competition,
        rules,
        sheet,
        primary: primary_score(rules),
        fide: &prepared,
    };
    let n = sheet.teams.len();
    let mut values = vec![vec![CriterionValue::NotApplied; criteria.len()]; n];
    // Every split of a tied group, and each team's part in each split it went through: two
    // teams are separated by the first split that put them in different parts.
    let mut splits: Vec<SplitRecord> = Vec::new();
    let mut membership: Vec<Vec<(usize, usize)>> = vec![Vec::new(); n];

    let (active, dropped): (Vec<usize>, Vec<usize>) =
        (0..n).partition(|&t| sheet.teams[t].dropped.is_none());
    let mut groups: Vec<(bool, Vec<usize>)> = Vec::new();
    for (is_dropped, g) in [(false, active), (true, dropped)] {
        if !g.is_empty() {
            groups.push((is_dropped, g));
        }
    }

    for (ci, spec) in criteria.iter().enumerate() {
        let per_team = match &spec.kind {
            // C.07 arts. 6.2, 13.3.3: FIDE's direct encounters settle their own sub-groups, in
            // passes over all tied groups together (as FIDE's checker does); not re-applied.
            CriterionKind::Fide(tb) if tb.is_group() => {
                let tied: Vec<&[usize]> = groups.iter().map(|(_, g)| g.as_slice()).collect();
                Some(fide::tied_values(&ctx.fide_input(), tb, &tied)?)
            }
            kind if is_group_criterion(kind) => None,
            // The top n by the criteria before this one: the groups as they stand now.
            CriterionKind::TopTeams(n) => {
                let active: Vec<&[usize]> = groups
                    .iter()
                    .filter(|(is_dropped, _)| !is_dropped)
                    .map(|(_, g)| g.as_slice())
                    .collect();
                Some(against(sheet, &top_of(&active, *n)))
            }
            _ => Some(team_values(&ctx, spec)?),
        };
        let mut next = Vec::with_capacity(groups.len());
        for (is_dropped, group) in groups {
            if group.len() == 1 {
                // A team alone in its place still shows its own figures (GP, MP, BH...);
                // a criterion among tied teams only has no value for it.
                if let Some(v) = per_team
                    .as_ref()
                    .filter(|_| !is_group_criterion(&spec.kind))
                {
                    values[group[0]][ci] = v[group[0]].clone();
                }
                next.push((is_dropped, group));
                continue;
            }
            let mut split = Split {
                spec,
                index: ci,
                values: &mut values,
                splits: &mut splits,
                membership: &mut membership,
            };
            let parts = match &per_team {
                Some(v) => split.by(&group, |t| v[t].clone()),
                None => split.group(&ctx, &group)?,
            };
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
                // The first split both went through that put them in different parts, with
                // the values it compared, computed on the group it was applied to.
                let first = membership[upper.team]
                    .iter()
                    .zip(&membership[lower.team])
                    .find(|((su, pu), (sl, pl))| su == sl && pu != pl);
                match first {
                    Some(((id, _), _)) => {
                        let r = &splits[*id];
                        let value = |t: usize| {
                            r.values
                                .iter()
                                .find(|(x, _)| *x == t)
                                .map_or(CriterionValue::NotApplied, |(_, v)| v.clone())
                        };
                        SeparationReason::Criterion {
                            index: r.index,
                            upper_value: value(upper.team),
                            lower_value: value(lower.team),
                            group: r.group.clone(),
                        }
                    }
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

/// One split of a tied group by a criterion: the group it was applied to and each team's
/// value there.
struct SplitRecord {
    index: usize,
    group: Vec<usize>,
    values: Vec<(usize, CriterionValue)>,
}

/// One criterion splitting tied groups, recording each team's value and every split it made
/// (the group, the values compared, each team's part), so that any two teams can say which
/// criterion, on which group, first put them apart.
struct Split<'s> {
    spec: &'s CriterionSpec,
    index: usize,
    values: &'s mut [Vec<CriterionValue>],
    splits: &'s mut Vec<SplitRecord>,
    membership: &'s mut [Vec<(usize, usize)>],
}

impl Split<'_> {
    /// Splits `group` by a value per team, best first.
    fn by(&mut self, group: &[usize], value: impl Fn(usize) -> CriterionValue) -> Vec<Vec<usize>> {
        let mut scored: Vec<(usize, CriterionValue)> =
            group.iter().map(|&t| (t, value(t))).collect();
        let lower_is_better = self.spec.lower_is_better();
        let better = |a: &CriterionValue, b: &CriterionValue| {
            let o = a.compare(b);
            if lower_is_better { o } else { o.reverse() }
        };
        scored.sort_by(|(ta, a), (tb, b)| better(a, b).then(ta.cmp(tb)));
        let mut parts: Vec<Vec<usize>> = Vec::new();
        let mut last: Option<CriterionValue> = None;
        for (t, v) in &scored {
            let same = last
                .as_ref()
                .is_some_and(|l| l.compare(v) == Ordering::Equal);
            if same {
                if let Some(p) = parts.last_mut() {
                    p.push(*t);
                }
            } else {
                parts.push(vec![*t]);
            }
            self.values[*t][self.index] = v.clone();
            last = Some(v.clone());
        }
        if parts.len() > 1 {
            let id = self.splits.len();
            for (i, part) in parts.iter().enumerate() {
                for &t in part {
                    self.membership[t].push((id, i));
                }
            }
            self.splits.push(SplitRecord {
                index: self.index,
                group: group.to_vec(),
                values: scored,
            });
        }
        parts
    }

    /// Splits a tied group by a group criterion, re-applying it to every sub-group it leaves
    /// tied, on that sub-group's own mini-table, until nothing changes.
    fn group(
        &mut self,
        ctx: &Context<'_>,
        group: &[usize],
    ) -> Result<Vec<Vec<usize>>, StandingsError> {
        let v = group_values(ctx, self.spec, group)?;
        let parts = self.by(group, |t| v[position(group, t)].clone());
        if parts.len() == 1 {
            return Ok(parts);
        }
        let mut out = Vec::new();
        for p in parts {
            if p.len() > 1 {
                out.extend(self.group(ctx, &p)?);
            } else {
                out.push(p);
            }
        }
        Ok(out)
    }
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
        CriterionKind::BoardPoints => sheet
            .teams
            .iter()
            .map(|t| CriterionValue::Number(t.board_points))
            .collect(),
        CriterionKind::GamesWon => per_entry(sheet, |e| {
            count_boards(e, |o| {
                matches!(o, GameOutcome::Win | GameOutcome::ForfeitWin)
            })
        }),
        CriterionKind::Defaults => per_entry(sheet, |e| match e.kind {
            EntryKind::ForfeitLoss | EntryKind::DoubleForfeit => f64::from(sheet.boards),
            _ => count_boards(e, |o| {
                matches!(o, GameOutcome::ForfeitLoss | GameOutcome::DoubleForfeit)
            }),
        }),
        CriterionKind::Berliner => per_entry(sheet, |e| match e.kind {
            EntryKind::Played => {
                let points: Vec<f64> = e.boards.iter().map(|b| b.points).collect();
                scoring::berliner(&points)
            }
            // A match not played on the boards: its game points spread evenly over them.
            _ => scoring::berliner_of_award(e.game_points, sheet.boards),
        }),
        CriterionKind::Lot(seed) => lot_places(sheet.teams.len(), *seed),
        // `rank` reads it from the groups the criteria before it leave; with none before it,
        // every team shares one place, so the top n are the whole field.
        CriterionKind::TopTeams(n) => {
            let all: Vec<usize> = (0..sheet.teams.len()).collect();
            against(sheet, &top_of(&[all.as_slice()], *n))
        }
        CriterionKind::Fide(tb) => fide::team_values(&ctx.fide_input(), tb)?,
        CriterionKind::HeadToHead(_) | CriterionKind::HeadToHeadBoards => {
            let all: Vec<usize> = (0..sheet.teams.len()).collect();
            group_values(ctx, spec, &all)?
        }
    })
}

/// Each team's sum of `value` over its entries that count (GT-M5's excluded ones do not).
fn per_entry(sheet: &ScoreSheet, value: impl Fn(&RoundEntry) -> f64) -> Vec<CriterionValue> {
    sheet
        .teams
        .iter()
        .map(|t| {
            CriterionValue::Number(scoring::total(
                t.entries.iter().filter(|e| e.counts()).map(&value),
            ))
        })
        .collect()
}

/// `TOP:n`: the teams placed in the top `n` by groups in rank order (each a place, its teams
/// tied): every group that starts at or above position `n`, so a place shared across the n-th
/// position counts all who share it.
pub fn top_of(groups: &[&[usize]], n: u32) -> Vec<usize> {
    let mut top = Vec::new();
    for g in groups {
        if top.len() >= n as usize {
            break;
        }
        top.extend_from_slice(g);
    }
    top
}

/// Each team's game points in the matches (that count) against the teams of `top`.
fn against(sheet: &ScoreSheet, top: &[usize]) -> Vec<CriterionValue> {
    per_entry(sheet, |e| {
        if e.opponent.is_some_and(|o| top.contains(&o)) {
            e.game_points
        } else {
            0.0
        }
    })
}

/// `LOT:seed`: each team's place (from 1) in the order the seed draws of the teams as listed,
/// by the generator of AS-8's lot: the same seed draws the same order on every machine.
pub fn lot_places(teams: usize, seed: u64) -> Vec<CriterionValue> {
    let order = lot_order(teams, seed);
    let mut place = vec![CriterionValue::NotApplied; teams];
    for (i, &t) in order.iter().enumerate() {
        place[t] = CriterionValue::Number(i as f64 + 1.0);
    }
    place
}

/// `LOT:seed`: the teams (positions in the list) in the order the seed draws them, first first.
pub fn lot_order(teams: usize, seed: u64) -> Vec<usize> {
    let mut order: Vec<usize> = (0..teams).collect();
    crate::pairing::lot::Lot::new(seed).shuffle(&mut order);
    order
}

/// How many of an entry's boards ended as `which` says.
fn count_boards(e: &RoundEntry, which: impl Fn(GameOutcome) -> bool) -> f64 {
    e.boards
        .iter()
        .filter(|b| which(b.outcome))
        .map(|_| 1.0)
        .sum()
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
        CriterionKind::Fide(tb) => fide::group_values(&ctx.fide_input(), tb, group),
        CriterionKind::GamePoints
        | CriterionKind::MatchPoints
        | CriterionKind::BoardPoints
        | CriterionKind::GamesWon
        | CriterionKind::Defaults
        | CriterionKind::Berliner
        | CriterionKind::TopTeams(_)
        | CriterionKind::Lot(_) => {
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
            let entries = sheet.teams[t]
                .entries
                .iter()
                .filter(|e| e.counts() && e.opponent.is_some_and(|o| group.contains(&o)));
            CriterionValue::Number(crate::scoring::total(entries.map(|e| match basis {
                ScoreBasis::GamePoints => e.game_points,
                ScoreBasis::MatchPoints => e.match_points,
            })))
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

impl CriterionValue {
    /// The value as the standings print it: `7`, `7.5`, `65.86`; a sequence as `1 0 0 0`;
    /// nothing for a criterion never applied to the team.
    pub fn display(&self) -> String {
        match self {
            CriterionValue::Number(x) => format_number(*x),
            CriterionValue::Sequence(v) => v
                .iter()
                .map(|x| format_number(*x))
                .collect::<Vec<_>>()
                .join(" "),
            CriterionValue::NotApplied => String::new(),
        }
    }
}

/// A number with at most two decimals and no trailing zeros.
pub fn format_number(x: f64) -> String {
    let s = format!("{x:.2}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" { "0".into() } else { s.into() }
}

/// `TOP:n`'s top teams as the standings by `before` (the criteria before it) place them.
fn top_before(
    before: &[CriterionSpec],
    competition: &Competition,
    rules: &Ruleset,
    sheet: &ScoreSheet,
    n: u32,
) -> Vec<usize> {
    let Ok(s) = rank(competition, rules, sheet, before) else {
        return Vec::new();
    };
    let mut groups: Vec<Vec<usize>> = Vec::new();
    let mut last_rank = None;
    for row in s.rows.iter().filter(|r| !r.dropped) {
        if last_rank == Some(row.rank) {
            if let Some(g) = groups.last_mut() {
                g.push(row.team);
            }
        } else {
            groups.push(vec![row.team]);
        }
        last_rank = Some(row.rank);
    }
    let slices: Vec<&[usize]> = groups.iter().map(Vec::as_slice).collect();
    top_of(&slices, n)
}

/// One sentence of the standings' explanation, for the pair of rows `upper` and `upper + 1`.
#[derive(Debug, Clone, PartialEq)]
pub struct Explanation {
    /// The upper row of the pair, by its position in [`Standings::rows`].
    pub upper_row: usize,
    /// The rule cited, when there is one (`AS-16`, `GT-M5`, `C.07 art. 13.3`).
    pub rule: Option<String>,
    /// The sentence itself, to show as it is.
    pub sentence: String,
}

/// Says, for each pair of adjacent teams, which criterion separated them (with its rule), or
/// that they share the place and why.
pub fn explain(
    s: &Standings,
    competition: &Competition,
    rules: &Ruleset,
    sheet: &ScoreSheet,
) -> Vec<Explanation> {
    let name = |t: usize| competition.teams.get(t).map_or("?", |x| x.name.as_str());
    let names = |group: &[usize]| {
        let n: Vec<&str> = group.iter().map(|&t| name(t)).collect();
        match n.as_slice() {
            [] => String::new(),
            [one] => (*one).to_string(),
            [init @ .., last] => format!("{} and {last}", init.join(", ")),
        }
    };
    s.separations
        .iter()
        .enumerate()
        .map(|(i, sep)| {
            let (upper, lower) = (&s.rows[i], &s.rows[i + 1]);
            let head = format!(
                "{} ({}) and {} ({})",
                name(sep.upper),
                upper.place,
                name(sep.lower),
                lower.place
            );
            match &sep.reason {
                SeparationReason::Criterion {
                    index,
                    upper_value,
                    lower_value,
                    group,
                } => {
                    let spec = &s.criteria[*index];
                    let rule = spec.cited_rule();
                    let cite = rule.as_ref().map_or(String::new(), |r| format!(" ({r})"));
                    let among = if is_group_criterion(&spec.kind) {
                        format!(", counting only the matches among {}", names(group))
                    } else if let CriterionKind::TopTeams(n) = spec.kind {
                        let top = top_before(&s.criteria[..*index], competition, rules, sheet, n);
                        format!(", the game points against {}", names(&top))
                    } else if let CriterionKind::Lot(seed) = spec.kind {
                        format!(", their places in the lot drawn from seed {seed}")
                    } else {
                        String::new()
                    };
                    let lower_better = if spec.lower_is_better() {
                        " (lower is better)"
                    } else {
                        ""
                    };
                    Explanation {
                        upper_row: i,
                        rule,
                        sentence: format!(
                            "{} ({}) is above {} ({}) on {}{cite}{among}: {} to {}{lower_better}.",
                            name(sep.upper),
                            upper.place,
                            name(sep.lower),
                            lower.place,
                            spec.code,
                            upper_value.display(),
                            lower_value.display(),
                        ),
                    }
                }
                SeparationReason::Dropped => {
                    let why = sheet
                        .teams
                        .get(sep.lower)
                        .and_then(|t| t.dropped.as_ref())
                        .map_or(String::new(), |d| {
                            let fate = if d.all_matches_excluded {
                                "under half, so all its matches are excluded from every figure"
                            } else {
                                "half or more, so its played results stand and its remaining matches are forfeits"
                            };
                            format!(
                                " after its match forfeit in round {} ({} forfeits), having played {} of its {} matches, {fate}",
                                d.round, d.match_forfeits, d.played, d.scheduled
                            )
                        });
                    Explanation {
                        upper_row: i,
                        rule: sheet.cites.drop.clone(),
                        sentence: format!(
                            "{} ({}) is above {} ({}): {} was dropped from the league{}{why}; a dropped team ranks below every team still in it.",
                            name(sep.upper),
                            upper.place,
                            name(sep.lower),
                            lower.place,
                            name(sep.lower),
                            sheet
                                .cites
                                .drop
                                .as_ref()
                                .map_or(String::new(), |id| format!(" ({id})"))
                        ),
                    }
                }
                SeparationReason::Shared => {
                    let equal: Vec<String> = s
                        .criteria
                        .iter()
                        .zip(&upper.values)
                        .filter(|(_, v)| **v != CriterionValue::NotApplied)
                        .map(|(c, v)| format!("{} {}", c.code, v.display()))
                        .collect();
                    let rule = rules.shared_places_rule.clone();
                    let cite = rule.as_ref().map_or(String::new(), |r| format!(" ({r})"));
                    Explanation {
                        upper_row: i,
                        rule,
                        sentence: format!(
                            "{head} share place {}{cite}: equal on every criterion ({}).",
                            upper.place,
                            equal.join(", ")
                        ),
                    }
                }
            }
        })
        .collect()
}
