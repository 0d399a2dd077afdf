//! Which teams can pass a team together, and which must: a search over sets of teams, each
//! set tried by one maximum flow of the remaining matches' points (the first criterion).
//!
//! - **Pushed past** (its worst place): the team loses all it has left; a set of others can all
//!   finish level with it or past it when a flow routes each its need. Every team short of its
//!   total is below it whatever the tie-breaks say, so the largest such set bounds its worst
//!   place (the last of a shared place), and the largest set pushed strictly past it is a
//!   scenario reaching at least so low.
//! - **Let past** (its best place): the team wins all it has left; the others are held at its
//!   total by a flow, but for a set let past. The smallest such set strictly past it bounds its
//!   best place, and one held strictly below is a scenario reaching at least so high.
//!
//! A set's feasibility is a polynomial certificate; that no larger (smaller) set is feasible is
//! the search exhausted. Losing (winning) all it has left is the team's worst (best) case on
//! the first criterion: its opponents only gain (lose) by it. Each flow is two units of the
//! race's budget; past it the search stops and claims only what it has found.

use super::bounds::{self, Field, Points, UNCAPPED};
use super::remaining::Division;

/// What a search over sets found.
#[derive(Debug, Clone)]
pub(super) struct Sets {
    /// The size of the best set found: the most teams pushed past, or the fewest let past.
    pub count: usize,
    /// The classes of every match (those of `t` its extreme) of a flow that does it.
    pub classes: Option<Vec<usize>>,
    /// The teams of that set.
    pub set: Vec<usize>,
    /// Whether the search was exhausted: no better set exists.
    pub exhausted: bool,
}

/// The most teams that can finish level with `t` (`margin` 0) or past it (1) together, with `t`
/// losing all it has left; the search stops once it finds `enough`.
pub(super) fn pushed_past(
    d: &Division,
    p: &Points,
    t: usize,
    margin: i64,
    enough: usize,
    budget: &mut u64,
) -> Sets {
    let low = bounds::least(d, p, t);
    let field = Field::new(d, p, t, &low);
    let total = p.now[t] + low.iter().sum::<i64>();
    let need = |u: usize| (total + margin - field.base[u]).max(0);
    // Already there whatever happens, and those who can get there alone, the nearest first.
    let there: Vec<usize> = field
        .others
        .iter()
        .copied()
        .filter(|&u| need(u) == 0)
        .collect();
    let mut near: Vec<usize> = field
        .others
        .iter()
        .copied()
        .filter(|&u| need(u) > 0 && need(u) <= field.room[u])
        .collect();
    near.sort_by_key(|&u| (need(u), u));
    let needs: Vec<i64> = near.iter().map(|&u| need(u)).collect();
    let mut search = Push {
        d,
        p,
        field: &field,
        near: &near,
        needs: &needs,
        pool: field.pool(),
        enough: enough.saturating_sub(there.len()),
        chosen: Vec::new(),
        best: Vec::new(),
        classes: None,
        budget,
        out: false,
    };
    // The empty set: the flow of nothing, for its classes.
    search.feasible();
    search.grow(0, 0);
    let mut set = there.clone();
    set.extend(search.best.iter().map(|&i| near[i]));
    let classes = search.classes.take().map(|c| with_own(d, p, t, c, &low));
    Sets {
        count: set.len(),
        classes,
        set,
        exhausted: !search.out && search.best.len() < search.enough,
    }
}

/// The depth-first search of `pushed_past`: sets of `near` (indexes, the smallest needs first)
/// grown one team at a time while a flow still routes every need.
struct Push<'x> {
    d: &'x Division<'x>,
    p: &'x Points,
    field: &'x Field,
    near: &'x [usize],
    needs: &'x [i64],
    pool: i64,
    enough: usize,
    chosen: Vec<usize>,
    best: Vec<usize>,
    classes: Option<Vec<usize>>,
    budget: &'x mut u64,
    out: bool,
}

impl Push<'_> {
    /// Whether a flow routes every chosen team its need; the best set kept.
    fn feasible(&mut self) -> bool {
        let Some(left) = self.budget.checked_sub(2) else {
            self.out = true;
            return false;
        };
        *self.budget = left;
        let chosen: Vec<(usize, i64)> = self
            .chosen
            .iter()
            .map(|&i| (self.near[i], self.needs[i]))
            .collect();
        let (mut net, home) = self.field.network(self.d, |u| {
            chosen.iter().find(|x| x.0 == u).map(|&(_, n)| n)
        });
        let wanted: i64 = chosen.iter().map(|x| x.1).sum();
        if net.max_flow(0, 1) != wanted {
            return false;
        }
        if self.classes.is_none() || self.chosen.len() > self.best.len() {
            self.best = self.chosen.clone();
            self.classes = Some(self.field.classes(self.d, self.p, &net, &home));
        }
        true
    }

    /// Tries adding each of `near[from..]` to the chosen set (whose needs sum to `spent`).
    fn grow(&mut self, from: usize, spent: i64) {
        for i in from..self.near.len() {
            if self.out || self.best.len() >= self.enough {
                return;
            }
            // The most it could still add: the smallest needs left that the points cover.
            let mut more = 0;
            let mut sum = spent;
            for &n in &self.needs[i..] {
                if sum + n > self.pool {
                    break;
                }
                sum += n;
                more += 1;
            }
            if self.chosen.len() + more <= self.best.len() {
                return;
            }
            self.chosen.push(i);
            if self.feasible() {
                self.grow(i + 1, spent + self.needs[i]);
            }
            self.chosen.pop();
        }
    }
}

/// The fewest teams that must finish past `t`'s best total (`margin` 0: the others held at it,
/// level allowed) or at it or past it (1: the others held strictly below), with `t` winning all
/// it has left. Sets of `from` teams are tried first (fewer must be known impossible), then
/// larger, up to `most`. `count` is the size reached: every smaller set was shown impossible,
/// and `exhausted` when one of that size holds the others (its classes given).
pub(super) fn let_past(
    d: &Division,
    p: &Points,
    t: usize,
    margin: i64,
    from: usize,
    most: usize,
    budget: &mut u64,
) -> Sets {
    let high = bounds::most(d, p, t);
    let field = Field::new(d, p, t, &high);
    let top = p.now[t] + high.iter().sum::<i64>() - margin;
    let ahead: Vec<usize> = field
        .others
        .iter()
        .copied()
        .filter(|&u| field.base[u] > top)
        .collect();
    // Those that could pass the cap, the ones that could score the most first.
    let mut could: Vec<usize> = field
        .others
        .iter()
        .copied()
        .filter(|&u| field.base[u] <= top && field.base[u] + field.room[u] > top)
        .collect();
    could.sort_by_key(|&u| (std::cmp::Reverse(field.base[u] + field.room[u]), u));
    let beyond: Vec<i64> = could
        .iter()
        .map(|&u| field.base[u] + field.room[u] - top)
        .collect();
    let pool = field.pool();
    let first = from.saturating_sub(ahead.len());
    let mut out = Sets {
        count: ahead.len() + first,
        classes: None,
        set: Vec::new(),
        exhausted: false,
    };
    // The flow with the cap on every team but `free`: its classes when it routes every point.
    let flow = |free: &[usize]| {
        let (mut net, home) = field.network(d, |u| {
            Some(
                if ahead.contains(&u) || free.iter().any(|&i| could[i] == u) {
                    UNCAPPED
                } else {
                    top - field.base[u]
                },
            )
        });
        let routed = net.max_flow(0, 1);
        (routed, field.classes(d, p, &net, &home))
    };
    // What the cap cannot hold with none let past: those let past must take it beyond the cap.
    let Some(rest) = budget.checked_sub(2) else {
        return out;
    };
    *budget = rest;
    let deficit = pool - flow(&[]).0;
    let mut free: Vec<usize> = Vec::new();
    for k in first..=could.len() {
        out.count = ahead.len() + k;
        if out.count > most {
            return out;
        }
        // Every set of `k` of `could`; one whose members cannot take the deficit even by the
        // most each can score beyond the cap is skipped without a flow.
        free.clear();
        free.extend(0..k);
        loop {
            if free.iter().map(|&i| beyond[i]).sum::<i64>() >= deficit {
                let Some(rest) = budget.checked_sub(2) else {
                    return out;
                };
                *budget = rest;
                let (routed, classes) = flow(&free);
                if routed == pool {
                    out.classes = Some(with_own(d, p, t, classes, &high));
                    out.set = ahead
                        .iter()
                        .copied()
                        .chain(free.iter().map(|&i| could[i]))
                        .collect();
                    out.exhausted = true;
                    return out;
                }
            }
            if !next_combination(&mut free, could.len()) {
                break;
            }
        }
    }
    out
}

/// The next set of `c.len()` of `0..n` in lexicographic order; false after the last.
fn next_combination(c: &mut [usize], n: usize) -> bool {
    let k = c.len();
    for j in (0..k).rev() {
        if c[j] < n - k + j {
            c[j] += 1;
            for x in j + 1..k {
                c[x] = c[x - 1] + 1;
            }
            return true;
        }
    }
    false
}

/// Classes of the matches without `t` completed by `t`'s own, each the class in which it scores
/// `gets` (its most or least).
fn with_own(
    d: &Division,
    p: &Points,
    t: usize,
    mut classes: Vec<usize>,
    gets: &[i64],
) -> Vec<usize> {
    for (k, &m) in d.own[t].iter().enumerate() {
        let s = d.remaining[m].side_of(t).unwrap_or(0);
        classes[m] = (0..p.class[m].len())
            .find(|&c| p.class[m][c][s] == gets[k])
            .unwrap_or(0);
    }
    classes
}

/// The outcomes of a scenario given by classes, each chosen inside its class for the tie-breaks
/// after the first criterion: the teams of `set` as high as the class lets them (at worst: the
/// teams pushed past `t`), or the others as low (at best: the teams held below it); `t`'s own
/// matches at its extreme, as [`bounds::realise`] has them.
pub(super) fn favoured(
    d: &Division,
    p: &Points,
    t: usize,
    classes: &[usize],
    best: bool,
    set: &[usize],
) -> Vec<usize> {
    let [mut pick, _] = bounds::realise(d, p, t, classes, best);
    let weight = |u: usize| match (best, set.contains(&u)) {
        (false, true) => 1.0,
        (true, false) => -1.0,
        _ => 0.0,
    };
    for (m, r) in d.remaining.iter().enumerate() {
        if r.side_of(t).is_some() {
            continue;
        }
        let score = |o: &usize| {
            let x = &r.outcomes[*o];
            weight(r.teams[0]) * x.gp[0] + weight(r.teams[1]) * x.gp[1]
        };
        let class = &r.classes[classes[m]];
        if let Some(&o) = class.iter().max_by(|a, b| score(a).total_cmp(&score(b))) {
            pick[m] = o;
        }
    }
    pick
}
