//! Branch and bound for one team the bounds leave open: can it reach a given place (at best:
//! that place or better; at worst: that place or worse)? The remaining matches are decided one
//! class at a time, the team's own first, then its rivals' (the teams whose range of the first
//! criterion still straddles its total). At each node the flow (at best), or the counting and
//! the flow of needs (at worst), on the matches still free, cut the node when they prove the
//! place out of reach; the flow's routing orders the classes tried. A match whose two teams are settled
//! above or below the team whatever it ends in cannot move its place: it is not branched on.
//! At a leaf the place is exact, tie-break criteria inside ([`Search::place_of`]).
//!
//! A scenario found is the certificate of the place; a search exhausted is the proof that none
//! exists. Every node is two units of the race's budget: past it, nothing is claimed.

use super::bounds::{self, Field, Points};
use super::remaining::Division;
use super::search::Search;

/// What the branch and bound answers.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Reach {
    /// A scenario (an outcome a match) and the place it gives (the first of a shared place at
    /// best, the last at worst).
    Found(Vec<usize>, usize),
    /// No scenario reaches the place: the search was exhausted.
    Impossible,
    /// The budget ran out first.
    Unknown,
}

/// One question: team `t` at `target` or better (`best`), or at `target` or worse.
pub(super) struct Brancher<'a, 'b, 'c> {
    d: &'a Division<'a>,
    p: &'c Points,
    search: &'c mut Search<'a, 'b>,
    t: usize,
    best: bool,
    target: usize,
}

/// Whether `t` can finish at `target` or better (`best`) or at `target` or worse.
pub(super) fn reach<'a, 'b>(
    d: &'a Division<'a>,
    p: &Points,
    search: &mut Search<'a, 'b>,
    t: usize,
    best: bool,
    target: usize,
) -> Reach {
    let mut b = Brancher {
        d,
        p,
        search,
        t,
        best,
        target,
    };
    let mut fixed = vec![None; d.remaining.len()];
    match b.node(&mut fixed) {
        None => Reach::Unknown,
        Some(Some((pick, place))) => Reach::Found(pick, place),
        Some(None) => Reach::Impossible,
    }
}

impl Brancher<'_, '_, '_> {
    /// The search below a node: `Some(Some(..))` a scenario, `Some(None)` none, `None` past the
    /// budget.
    fn node(&mut self, fixed: &mut [Option<usize>]) -> Option<Option<(Vec<usize>, usize)>> {
        // A node's flow costs about two scenarios ranked (the bench): two units.
        self.search.spend()?;
        self.search.spend()?;
        let (d, p, t) = (self.d, self.p, self.t);
        // What `t` takes of its own matches: the class fixed, or its most (least) at best (worst).
        let gets: Vec<i64> = d.own[t]
            .iter()
            .map(|&m| {
                let s = d.remaining[m].side_of(t).unwrap_or(0);
                match fixed[m] {
                    Some(c) => p.class[m][c][s],
                    None => {
                        let (lo, hi) = p.range(m, s);
                        if self.best { hi } else { lo }
                    }
                }
            })
            .collect();
        let field = Field::with_fixed(d, p, t, &gets, fixed);
        let total = p.now[t] + gets.iter().sum::<i64>();
        let (place, suggested) = if self.best {
            bound_best(d, p, &field, total)
        } else {
            bound_worst(d, p, &field, total)
        };
        let out_of_reach = if self.best {
            place > self.target
        } else {
            place < self.target
        };
        if out_of_reach {
            return Some(None);
        }
        // Enough teams settled below (above) it whatever the free matches give: any completion
        // reaches the place, the flow's first.
        let settled = field
            .others
            .iter()
            .filter(|&&u| {
                if self.best {
                    field.base[u] + field.room[u] < total
                } else {
                    field.base[u] > total
                }
            })
            .count();
        let sure = if self.best {
            1 + field.others.len() - settled <= self.target
        } else {
            1 + settled >= self.target
        };
        if sure {
            let classes: Vec<usize> = (0..d.remaining.len())
                .map(|m| match (fixed[m], d.remaining[m].side_of(t)) {
                    (Some(c), _) => c,
                    (None, Some(s)) => {
                        let k = d.own[t].iter().position(|&x| x == m).unwrap_or(0);
                        (0..p.class[m].len())
                            .find(|&c| p.class[m][c][s] == gets[k])
                            .unwrap_or(0)
                    }
                    (None, None) => suggested[m],
                })
                .collect();
            if let Some(found) = self.leaf(&classes)? {
                return Some(Some(found));
            }
        }
        // Its own matches first, its best (worst) class first.
        if let Some(&m) = d.own[t].iter().find(|&&m| fixed[m].is_none()) {
            let s = d.remaining[m].side_of(t).unwrap_or(0);
            let mut order: Vec<usize> = (0..p.class[m].len()).collect();
            order.sort_by_key(|&c| {
                let v = p.class[m][c][s];
                if self.best { -v } else { v }
            });
            return self.branch(fixed, m, &order);
        }
        // A team is settled when it finishes above or below `t` on the first criterion whatever
        // the free matches give it; a free match between two settled teams cannot move `t`.
        let gap = |u: usize| {
            let (lo, hi) = (field.base[u], field.base[u] + field.room[u]);
            if hi < total || lo > total {
                None
            } else {
                Some((total - lo).min(hi - total))
            }
        };
        let pick = field
            .free
            .iter()
            .filter_map(|&(m, ..)| {
                let r = &d.remaining[m];
                let open: Vec<i64> = r.teams.iter().filter_map(|&u| gap(u)).collect();
                let nearest = open.iter().min().copied()?;
                Some((std::cmp::Reverse(open.len()), nearest, m))
            })
            .min();
        let Some((_, _, m)) = pick else {
            // A leaf: the settled matches in any class.
            let classes: Vec<usize> = fixed.iter().map(|c| c.unwrap_or(0)).collect();
            return self.leaf(&classes);
        };
        let first = suggested[m];
        let home = |c: usize| p.class[m][c][0];
        let mut order: Vec<usize> = (0..p.class[m].len()).collect();
        order.sort_by_key(|&c| ((home(c) - home(first)).abs(), c));
        self.branch(fixed, m, &order)
    }

    /// `t`'s place when every match ends in its class in `classes`, if it reaches the target.
    fn leaf(&mut self, classes: &[usize]) -> Option<Option<(Vec<usize>, usize)>> {
        let [(lo, at_lo), (hi, at_hi)] = self.search.place_of(self.t, classes)?;
        Some(if self.best {
            (lo <= self.target).then_some((at_lo, lo))
        } else {
            (hi >= self.target).then_some((at_hi, hi))
        })
    }

    fn branch(
        &mut self,
        fixed: &mut [Option<usize>],
        m: usize,
        order: &[usize],
    ) -> Option<Option<(Vec<usize>, usize)>> {
        for &c in order {
            fixed[m] = Some(c);
            let below = self.node(fixed);
            fixed[m] = None;
            if below.as_ref().is_none_or(Option::is_some) {
                return below;
            }
        }
        Some(None)
    }
}

/// The elimination argument on the free matches: the best place `t` can reach with `top`, and
/// the classes of a flow holding the others at or below it.
fn bound_best(d: &Division, p: &Points, field: &Field, top: i64) -> (usize, Vec<usize>) {
    let (bound, net, home) = bounds::eliminate(d, field, top);
    (bound.place, field.classes(d, p, &net, &home))
}

/// The worst place `t` can reach with `total` (the last of a shared place), and the classes of
/// a flow pushing the others up to it. Two arguments on the free matches, the stronger kept:
/// counting (the points left cover so many teams' needs at most), and a flow of every team's
/// need: what it cannot route must be the needs of teams that stay below, the largest first.
fn bound_worst(d: &Division, p: &Points, field: &Field, total: i64) -> (usize, Vec<usize>) {
    let need = |u: usize| (total - field.base[u]).max(0);
    let mut needs: Vec<i64> = field
        .others
        .iter()
        .copied()
        .filter(|&u| need(u) <= field.room[u])
        .map(need)
        .collect();
    needs.sort_unstable();
    let (mut counted, mut spent) = (0, 0);
    for &need in &needs {
        if spent + need > field.pool() {
            break;
        }
        spent += need;
        counted += 1;
    }
    let (mut net, home) = field.network(d, |u| (need(u) <= field.room[u]).then(|| need(u)));
    let deficit = needs.iter().sum::<i64>() - net.max_flow(0, 1);
    let (mut below, mut freed) = (0, 0);
    while freed < deficit && below < needs.len() {
        freed += needs[needs.len() - 1 - below];
        below += 1;
    }
    let routed = needs.len() - below;
    (1 + counted.min(routed), field.classes(d, p, &net, &home))
}
