//! The exact search, for the teams the bounds leave open: every class of every remaining match
//! (a class: the outcomes equal on the first criterion), within the classes a question allows,
//! with the tie-break criteria applied inside. The reduction, exact for the native criteria
//! (`MP`, `GP`, `H2H:MP`, `H2H:GP`, `H2H:BOARDS`) when the first is `MP` or `GP`:
//!
//! 1. The classes of the matches settle the first criterion for every team, so teams apart on it
//!    are apart for good.
//! 2. Teams level on it form a group; every later criterion compares teams inside a group only
//!    (a total, or a mini-table of the teams tied so far, RULES.md "Tiebreaks"), so a group's
//!    order depends only on the matches its members play: each is enumerated within its class
//!    (a match between two members by its every outcome; one with an outsider by the member's
//!    score only). A group's answer for its matches' classes is kept and reused.
//! 3. Teams equal on every criterion share a place (AS-18): the best place is the first of a
//!    shared place, the worst the last.
//!
//! Other criteria (FIDE's, where an opponent's score counts) take every outcome of every match
//! through the standings themselves. Every answer carries the scenario that reaches it, and the
//! work is counted against a budget: past it the search answers nothing, never a guess.

use std::collections::HashMap;

use super::remaining::{Division, Outcome, Primary};
use crate::rules::criteria::{CriterionKind, ScoreBasis};
use crate::scoring::EntryKind;
use crate::scoring::standings::StandingsError;

/// A question for the search: the classes each match may take.
#[derive(Debug, Clone)]
pub(super) struct Question {
    /// Per remaining match, the classes allowed.
    pub allowed: Vec<Vec<usize>>,
}

impl Question {
    /// Every outcome of every match.
    pub fn all(d: &Division) -> Question {
        Question {
            allowed: d
                .remaining
                .iter()
                .map(|r| (0..r.classes.len()).collect())
                .collect(),
        }
    }
}

/// What the search found: each team's best and worst position, and a scenario (an outcome
/// index a match) that reaches each.
#[derive(Debug, Clone)]
pub(super) struct Found {
    pub best: Vec<usize>,
    pub worst: Vec<usize>,
    pub at_best: Vec<Vec<usize>>,
    pub at_worst: Vec<Vec<usize>>,
    /// Per team: each total of the first criterion it can score from its remaining matches,
    /// with its worst place among the scenarios in which it scores exactly that.
    pub worst_by_gain: Vec<Vec<(f64, usize)>>,
}

impl Found {
    fn record(&mut self, t: usize, gain: f64, hi: usize) {
        let by = &mut self.worst_by_gain[t];
        match by.iter_mut().find(|(g, _)| *g == gain) {
            Some(x) => x.1 = x.1.max(hi),
            None => by.push((gain, hi)),
        }
    }

    /// The worst place of `t` over the scenarios in which it scores at least `gain`.
    pub fn worst_from(&self, t: usize, gain: f64) -> Option<usize> {
        self.worst_by_gain[t]
            .iter()
            .filter(|(g, _)| *g >= gain)
            .map(|x| x.1)
            .max()
    }
}

/// The search's work if it were run on `q`: scenarios of classes (or of outcomes, for
/// criteria the reduction does not cover).
pub(super) fn cost(d: &Division, q: &Question) -> f64 {
    let native = native_criteria(d).is_some();
    d.remaining
        .iter()
        .zip(&q.allowed)
        .map(|(r, allowed)| {
            if native {
                allowed.len() as f64
            } else {
                allowed.iter().map(|&c| r.classes[c].len()).sum::<usize>() as f64
            }
        })
        .product()
}

/// Answers `q` exactly, or `None` past `budget` (which it spends).
pub(super) fn search(
    d: &Division,
    q: &Question,
    budget: &mut u64,
) -> Result<Option<Found>, StandingsError> {
    if cost(d, q) > *budget as f64 {
        return Ok(None);
    }
    let n = d.n();
    let mut found = Found {
        best: vec![usize::MAX; n],
        worst: vec![0; n],
        at_best: vec![Vec::new(); n],
        at_worst: vec![Vec::new(); n],
        worst_by_gain: vec![Vec::new(); n],
    };
    let done = match native_criteria(d) {
        Some(criteria) => {
            let mut s = Search {
                d,
                q,
                criteria: &criteria,
                cache: HashMap::new(),
                budget,
            };
            let mut classes = vec![0usize; d.remaining.len()];
            s.coarse(0, &mut classes, &mut found).is_some()
        }
        None => exhaustive(d, q, &mut found, budget)?,
    };
    Ok(done.then_some(found))
}

/// A native criterion, as the search computes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(super) enum Crit {
    Mp,
    Gp,
    H2h(ScoreBasis),
    Boards,
}

/// The criteria when all are native and the first is a total; `None` otherwise.
pub(super) fn native_criteria(d: &Division) -> Option<Vec<Crit>> {
    let crits: Option<Vec<Crit>> = d
        .rules
        .criteria
        .iter()
        .map(|c| match c.kind {
            CriterionKind::MatchPoints => Some(Crit::Mp),
            CriterionKind::GamePoints => Some(Crit::Gp),
            CriterionKind::HeadToHead(b) => Some(Crit::H2h(b)),
            CriterionKind::HeadToHeadBoards => Some(Crit::Boards),
            // Read board by board: the search below does not compute them, the standings do.
            CriterionKind::BoardPoints
            | CriterionKind::GamesWon
            | CriterionKind::Defaults
            | CriterionKind::Berliner
            | CriterionKind::TopTeams(_)
            | CriterionKind::Lot(_)
            | CriterionKind::Fide(_) => None,
        })
        .collect();
    // Board weights or a match decided by half the points make match points that the search's
    // sums of game points do not foresee: the standings decide every scenario then.
    crits
        .filter(|c| matches!(c.first(), Some(Crit::Mp | Crit::Gp)))
        .filter(|_| d.rules.scoring.is_majority_of_game_points())
}

/// A place, and a scenario (an outcome a match) that reaches it.
pub(super) type Placed = (usize, Vec<usize>);

/// The outcomes chosen for the matches a group plays: (match, outcome index).
type Choice = Vec<(usize, usize)>;

/// A member's first and last place in its group, with the choices that reach them.
#[derive(Debug, Clone)]
struct Member {
    lo: usize,
    hi: usize,
    at_lo: Choice,
    at_hi: Choice,
}

/// A group's members and the (match, class) of each match it plays.
type GroupKey = (Vec<usize>, Vec<(usize, usize)>);

pub(super) struct Search<'a, 'b> {
    d: &'a Division<'a>,
    q: &'a Question,
    criteria: &'a [Crit],
    cache: HashMap<GroupKey, Vec<Member>>,
    budget: &'b mut u64,
}

impl<'a, 'b> Search<'a, 'b> {
    /// A search of `q` under the native `criteria`, spending `budget`.
    pub fn new(
        d: &'a Division<'a>,
        q: &'a Question,
        criteria: &'a [Crit],
        budget: &'b mut u64,
    ) -> Search<'a, 'b> {
        Search {
            d,
            q,
            criteria,
            cache: HashMap::new(),
            budget,
        }
    }

    /// The work left.
    pub fn left(&self) -> u64 {
        *self.budget
    }

    /// `f` with at most `cap` of the work left, what it spends spent.
    pub fn capped<R>(&mut self, cap: u64, f: impl FnOnce(&mut Self) -> R) -> R {
        let total = *self.budget;
        let cap = cap.min(total);
        *self.budget = cap;
        let r = f(self);
        *self.budget = total - (cap - *self.budget);
        r
    }

    /// Team `t`'s first and last place when every match ends in the class `classes` gives it,
    /// each with a scenario (an outcome a match) reaching it; `None` past the budget.
    pub fn place_of(&mut self, t: usize, classes: &[usize]) -> Option<[Placed; 2]> {
        let d = self.d;
        let first = if self.criteria[0] == Crit::Gp {
            Primary::Gp
        } else {
            Primary::Mp
        };
        let mut value: Vec<f64> = (0..d.n())
            .map(|u| match first {
                Primary::Gp => d.sheet.teams[u].game_points,
                Primary::Mp => d.sheet.teams[u].match_points,
            })
            .collect();
        for (k, r) in d.remaining.iter().enumerate() {
            let oc = &r.outcomes[r.classes[classes[k]][0]];
            for s in 0..2 {
                value[r.teams[s]] += oc.value(first, s);
            }
        }
        let active = (0..d.n()).filter(|&u| !d.dropped[u]);
        let above = active.clone().filter(|&u| value[u] > value[t]).count();
        let group: Vec<usize> = active.filter(|&u| value[u] == value[t]).collect();
        let pick: Vec<usize> = d
            .remaining
            .iter()
            .zip(classes)
            .map(|(r, &c)| r.classes[c][0])
            .collect();
        if group.len() == 1 {
            return Some([(above + 1, pick.clone()), (above + 1, pick)]);
        }
        let members = self.group(&group, classes)?;
        let k = group.iter().position(|&u| u == t)?;
        let m = &members[k];
        let with = |choice: &Choice| {
            let mut p = pick.clone();
            for &(mi, o) in choice {
                p[mi] = o;
            }
            p
        };
        Some([
            (above + m.lo, with(&m.at_lo)),
            (above + m.hi, with(&m.at_hi)),
        ])
    }

    pub(super) fn spend(&mut self) -> Option<()> {
        *self.budget = self.budget.checked_sub(1)?;
        Some(())
    }

    /// Enumerates the allowed classes of matches `i..`; `None` past the budget.
    fn coarse(&mut self, i: usize, classes: &mut Vec<usize>, found: &mut Found) -> Option<()> {
        let d = self.d;
        if i < d.remaining.len() {
            for &c in &self.q.allowed[i] {
                classes[i] = c;
                self.coarse(i + 1, classes, found)?;
            }
            return Some(());
        }
        self.spend()?;
        let first = if self.criteria[0] == Crit::Gp {
            Primary::Gp
        } else {
            Primary::Mp
        };
        let n = d.n();
        let mut value: Vec<f64> = (0..n)
            .map(|t| match first {
                Primary::Gp => d.sheet.teams[t].game_points,
                Primary::Mp => d.sheet.teams[t].match_points,
            })
            .collect();
        let mut gain = vec![0.0; n];
        for (k, r) in d.remaining.iter().enumerate() {
            let oc = &r.outcomes[r.classes[classes[k]][0]];
            for s in 0..2 {
                value[r.teams[s]] += oc.value(first, s);
                gain[r.teams[s]] += oc.value(first, s);
            }
        }
        let mut active: Vec<usize> = (0..n).filter(|&t| !d.dropped[t]).collect();
        active.sort_by(|&a, &b| {
            (value[b] + 0.0)
                .total_cmp(&(value[a] + 0.0))
                .then(a.cmp(&b))
        });
        let mut start = 0;
        while start < active.len() {
            let mut end = start + 1;
            while end < active.len() && value[active[end]] == value[active[start]] {
                end += 1;
            }
            let group: Vec<usize> = active[start..end].to_vec();
            let members = if group.len() == 1 {
                vec![Member {
                    lo: 1,
                    hi: 1,
                    at_lo: Vec::new(),
                    at_hi: Vec::new(),
                }]
            } else {
                self.group(&group, classes)?
            };
            for (k, &t) in group.iter().enumerate() {
                let m = &members[k];
                let scenario = |choice: &Choice| {
                    let mut pick: Vec<usize> = d
                        .remaining
                        .iter()
                        .zip(classes.iter())
                        .map(|(r, &c)| r.classes[c][0])
                        .collect();
                    for &(mi, o) in choice {
                        pick[mi] = o;
                    }
                    pick
                };
                if start + m.lo < found.best[t] {
                    found.best[t] = start + m.lo;
                    found.at_best[t] = scenario(&m.at_lo);
                }
                if start + m.hi > found.worst[t] {
                    found.worst[t] = start + m.hi;
                    found.at_worst[t] = scenario(&m.at_hi);
                }
                found.record(t, gain[t], start + m.hi);
            }
            start = end;
        }
        Some(())
    }

    /// Each member's first and last place inside its group, over every way its matches can
    /// end within their classes.
    fn group(&mut self, group: &[usize], classes: &[usize]) -> Option<Vec<Member>> {
        let d = self.d;
        let touching: Vec<(usize, usize)> = (0..d.remaining.len())
            .filter(|&m| d.remaining[m].teams.iter().any(|t| group.contains(t)))
            .map(|m| (m, classes[m]))
            .collect();
        let key = (group.to_vec(), touching.clone());
        if let Some(v) = self.cache.get(&key) {
            return Some(v.clone());
        }
        let g = group.len();
        let local = |t: usize| group.iter().position(|&x| x == t);
        // A match between two members: every outcome of its class. A member's matches with
        // outsiders only add to its totals: their distinct sums are what can differ.
        let mut inside: Vec<(usize, &[usize])> = Vec::new();
        let mut outside: Vec<Vec<((f64, f64), Choice)>> = vec![vec![((0.0, 0.0), Vec::new())]; g];
        for &(m, c) in &touching {
            let r = &d.remaining[m];
            if r.teams.iter().all(|t| group.contains(t)) {
                inside.push((m, &r.classes[c][..]));
                continue;
            }
            let (s, me) = match (local(r.teams[0]), local(r.teams[1])) {
                (Some(i), _) => (0, i),
                (_, Some(i)) => (1, i),
                _ => continue,
            };
            let mut sums: Vec<((f64, f64), Choice)> = Vec::new();
            for ((mp, gp), choice) in &outside[me] {
                for &o in &r.by_score[c] {
                    let oc = &r.outcomes[o];
                    let x = (mp + oc.mp[s], gp + oc.gp[s]);
                    if !sums.iter().any(|(y, _)| *y == x) {
                        let mut ch = choice.clone();
                        ch.push((m, o));
                        sums.push((x, ch));
                    }
                }
            }
            outside[me] = sums;
        }
        // The base: totals and mini-table entries of the matches played.
        let boards = usize::try_from(d.rules.boards).unwrap_or(0);
        let mut base = Table::new(g, boards);
        for (i, &t) in group.iter().enumerate() {
            let s = &d.sheet.teams[t];
            base.mp[i] = s.match_points;
            base.gp[i] = s.game_points;
            for e in s.entries.iter().filter(|e| e.counts()) {
                let Some(j) = e.opponent.and_then(local) else {
                    continue;
                };
                base.pmp[i * g + j] += e.match_points;
                base.pgp[i * g + j] += e.game_points;
                if e.kind == EntryKind::Played {
                    for b in &e.boards {
                        let k = usize::try_from(b.board).unwrap_or(0).saturating_sub(1);
                        if b.outcome.is_win() && k < boards {
                            base.wins[(i * g + j) * boards + k] += 1;
                        }
                    }
                }
            }
        }
        let mut result: Vec<Member> = vec![
            Member {
                lo: usize::MAX,
                hi: 0,
                at_lo: Vec::new(),
                at_hi: Vec::new(),
            };
            g
        ];
        let dims: Vec<usize> = inside
            .iter()
            .map(|(_, o)| o.len())
            .chain(outside.iter().map(Vec::len))
            .collect();
        let mut pick = vec![0usize; dims.len()];
        let all: Vec<usize> = (0..g).collect();
        let mut t = base.clone();
        loop {
            self.spend()?;
            t.reset(&base);
            for (k, (m, options)) in inside.iter().enumerate() {
                let r = &d.remaining[*m];
                let o: &Outcome = &r.outcomes[options[pick[k]]];
                let (Some(h), Some(a)) = (local(r.teams[0]), local(r.teams[1])) else {
                    continue;
                };
                for (s, (i, j)) in [(h, a), (a, h)].into_iter().enumerate() {
                    t.mp[i] += o.mp[s];
                    t.gp[i] += o.gp[s];
                    t.pmp[i * g + j] += o.mp[s];
                    t.pgp[i * g + j] += o.gp[s];
                    for (b, w) in o.wins[s].iter().enumerate().take(boards) {
                        t.wins[(i * g + j) * boards + b] += u32::from(*w);
                    }
                }
            }
            for (i, sums) in outside.iter().enumerate() {
                let (mp, gp) = sums[pick[inside.len() + i]].0;
                t.mp[i] += mp;
                t.gp[i] += gp;
            }
            let choice = || {
                let mut ch: Choice = inside
                    .iter()
                    .enumerate()
                    .map(|(k, (m, options))| (*m, options[pick[k]]))
                    .collect();
                for (i, sums) in outside.iter().enumerate() {
                    ch.extend(sums[pick[inside.len() + i]].1.iter().copied());
                }
                ch
            };
            let mut at = 0;
            for part in t.rank(&all, self.criteria) {
                for &i in &part {
                    if at + 1 < result[i].lo {
                        result[i].lo = at + 1;
                        result[i].at_lo = choice();
                    }
                    if at + part.len() > result[i].hi {
                        result[i].hi = at + part.len();
                        result[i].at_hi = choice();
                    }
                }
                at += part.len();
            }
            // Every member already first and last somewhere: nothing more can widen it.
            let wide = result.iter().all(|m| m.lo == 1 && m.hi == g);
            let mut k = 0;
            let next = !wide
                && loop {
                    if k == pick.len() {
                        break false;
                    }
                    pick[k] += 1;
                    if pick[k] < dims[k] {
                        break true;
                    }
                    pick[k] = 0;
                    k += 1;
                };
            if !next {
                self.cache.insert(key, result.clone());
                return Some(result);
            }
        }
    }
}

/// A group's totals and its mini-table: `pmp[i * g + j]` what member i scored against j.
#[derive(Debug, Clone)]
struct Table {
    g: usize,
    boards: usize,
    mp: Vec<f64>,
    gp: Vec<f64>,
    pmp: Vec<f64>,
    pgp: Vec<f64>,
    wins: Vec<u32>,
}

impl Table {
    fn new(g: usize, boards: usize) -> Table {
        Table {
            g,
            boards,
            mp: vec![0.0; g],
            gp: vec![0.0; g],
            pmp: vec![0.0; g * g],
            pgp: vec![0.0; g * g],
            wins: vec![0; g * g * boards],
        }
    }

    /// `base` again, without allocating.
    fn reset(&mut self, base: &Table) {
        self.mp.copy_from_slice(&base.mp);
        self.gp.copy_from_slice(&base.gp);
        self.pmp.copy_from_slice(&base.pmp);
        self.pgp.copy_from_slice(&base.pgp);
        self.wins.copy_from_slice(&base.wins);
    }

    /// The standings' tie algorithm on the members `set` (standings.rs): each criterion splits
    /// the groups still tied; a mini-table criterion is applied again to each sub-group it
    /// leaves tied, on that sub-group's own mini-table, until it separates nothing more.
    fn rank(&self, set: &[usize], criteria: &[Crit]) -> Vec<Vec<usize>> {
        let mut groups = vec![set.to_vec()];
        for &c in criteria {
            let mut next = Vec::with_capacity(groups.len());
            for g in groups {
                if g.len() == 1 {
                    next.push(g);
                } else if matches!(c, Crit::Mp | Crit::Gp) {
                    next.extend(self.split(&g, c));
                } else {
                    next.extend(self.split_again(&g, c));
                }
            }
            groups = next;
        }
        groups
    }

    fn split_again(&self, group: &[usize], c: Crit) -> Vec<Vec<usize>> {
        let parts = self.split(group, c);
        if parts.len() == 1 {
            return parts;
        }
        let mut out = Vec::new();
        for p in parts {
            if p.len() > 1 {
                out.extend(self.split_again(&p, c));
            } else {
                out.push(p);
            }
        }
        out
    }

    /// The criterion's value of member `i` on `group`: one number, or the wins board by board.
    fn value(&self, group: &[usize], i: usize, c: Crit) -> Vec<f64> {
        let (g, boards) = (self.g, self.boards);
        match c {
            Crit::Mp => vec![self.mp[i]],
            Crit::Gp => vec![self.gp[i]],
            Crit::H2h(basis) => {
                let table = match basis {
                    ScoreBasis::MatchPoints => &self.pmp,
                    ScoreBasis::GamePoints => &self.pgp,
                };
                vec![group.iter().map(|&j| table[i * g + j]).sum()]
            }
            Crit::Boards => (0..boards)
                .map(|b| {
                    group
                        .iter()
                        .map(|&j| f64::from(self.wins[(i * g + j) * boards + b]))
                        .sum()
                })
                .collect(),
        }
    }

    /// Splits `group` by the criterion's value on it, best first.
    fn split(&self, group: &[usize], c: Crit) -> Vec<Vec<usize>> {
        let cmp = |a: &[f64], b: &[f64]| {
            for (x, y) in a.iter().zip(b) {
                match (y + 0.0).total_cmp(&(x + 0.0)) {
                    std::cmp::Ordering::Equal => {}
                    o => return o,
                }
            }
            std::cmp::Ordering::Equal
        };
        let mut scored: Vec<(usize, Vec<f64>)> = group
            .iter()
            .map(|&i| (i, self.value(group, i, c)))
            .collect();
        scored.sort_by(|a, b| cmp(&a.1, &b.1).then(a.0.cmp(&b.0)));
        let mut parts: Vec<Vec<usize>> = Vec::new();
        for (k, (i, v)) in scored.iter().enumerate() {
            match parts.last_mut() {
                Some(p) if k > 0 && cmp(&scored[k - 1].1, v) == std::cmp::Ordering::Equal => {
                    p.push(*i);
                }
                _ => parts.push(vec![*i]),
            }
        }
        parts
    }
}

/// Every allowed outcome of every match, through the standings themselves (for criteria the
/// reduction does not cover): false past the budget.
fn exhaustive(
    d: &Division,
    q: &Question,
    found: &mut Found,
    budget: &mut u64,
) -> Result<bool, StandingsError> {
    let options: Vec<Vec<usize>> = d
        .remaining
        .iter()
        .zip(&q.allowed)
        .map(|(r, allowed)| {
            allowed
                .iter()
                .flat_map(|&c| r.classes[c].iter().copied())
                .collect()
        })
        .collect();
    let mut idx = vec![0usize; options.len()];
    loop {
        let Some(left) = budget.checked_sub(1) else {
            return Ok(false);
        };
        *budget = left;
        let pick: Vec<usize> = options.iter().zip(&idx).map(|(o, &i)| o[i]).collect();
        let primary = d.primary.unwrap_or(Primary::Mp);
        let gain = |t: usize| -> f64 {
            d.remaining
                .iter()
                .zip(&pick)
                .filter_map(|(r, &o)| r.side_of(t).map(|s| r.outcomes[o].value(primary, s)))
                .sum()
        };
        for (t, &(lo, hi)) in d.rank(&pick)?.iter().enumerate() {
            if d.dropped[t] {
                continue;
            }
            found.record(t, gain(t), hi);
            if lo < found.best[t] {
                found.best[t] = lo;
                found.at_best[t] = pick.clone();
            }
            if hi > found.worst[t] {
                found.worst[t] = hi;
                found.at_worst[t] = pick.clone();
            }
        }
        let mut k = 0;
        loop {
            if k == idx.len() {
                return Ok(true);
            }
            idx[k] += 1;
            if idx[k] < options[k].len() {
                break;
            }
            idx[k] = 0;
            k += 1;
        }
    }
}
