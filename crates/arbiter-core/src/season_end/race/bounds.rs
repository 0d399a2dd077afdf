//! Bounds on the first criterion that settle most teams at once, each with its certificate.
//!
//! The first criterion (`MP` or `GP`) is counted in whole units (half points). When every
//! remaining match hands out the same total whatever its result (2 match points, 4 game points:
//! the presets), a match is a flow of its points to its two teams, and:
//!
//! - **No better place** (the elimination argument): the team wins every match it has left as
//!   high as it can, reaching `W`. The others are capped at `W` by a maximum flow; what the flow
//!   cannot route (the deficit) must go to teams past `W`, each of which can take at most what
//!   it could still score beyond `W`. So at least so many teams finish above it whatever happens.
//! - **No worse place**: the team loses every match it has left, reaching `L`. A team reaching
//!   `L` needs some points; the points left are limited; so at most so many teams can reach `L`.
//! - **A place reached**: a scenario built by the same flows (the others capped below the
//!   team's best total, or pushed past its worst), ranked by the real standings.
//!
//! Where the bounds meet, the team is decided; where not, the search ([`super::search`]) is.

use super::flow::Network;
use super::remaining::{Division, Primary};

/// The first criterion in units, per team and per match.
#[derive(Debug, Clone)]
pub(super) struct Points {
    /// Units a point.
    pub scale: f64,
    /// Each team's figure now (the end's score sheet), in units.
    pub now: Vec<i64>,
    /// Per remaining match, per class: what home and away score, in units.
    pub class: Vec<Vec<[i64; 2]>>,
    /// Per remaining match: the total it hands out.
    pub total: Vec<i64>,
    primary: Primary,
}

impl Points {
    /// The units of the division, when its first criterion is a total and every match hands out
    /// one total in contiguous splits (what a flow can route); `None` otherwise.
    pub fn new(d: &Division) -> Option<Points> {
        let primary = d.primary?;
        let figure = |t: usize| match primary {
            Primary::Mp => d.sheet.teams[t].match_points,
            Primary::Gp => d.sheet.teams[t].game_points,
        };
        let mut values: Vec<f64> = (0..d.n()).map(figure).collect();
        for r in &d.remaining {
            for o in &r.outcomes {
                values.extend([o.value(primary, 0), o.value(primary, 1)]);
            }
        }
        let scale = [1.0, 2.0, 4.0, 8.0]
            .into_iter()
            .find(|s| values.iter().all(|v| (v * s).fract().abs() < 1e-9))?;
        let unit = |v: f64| (v * scale).round() as i64;
        let mut class = Vec::with_capacity(d.remaining.len());
        let mut total = Vec::with_capacity(d.remaining.len());
        for r in &d.remaining {
            let split: Vec<[i64; 2]> = r
                .classes
                .iter()
                .map(|c| {
                    let o = &r.outcomes[c[0]];
                    [unit(o.value(primary, 0)), unit(o.value(primary, 1))]
                })
                .collect();
            let sum = split.first().map_or(0, |s| s[0] + s[1]);
            let mut home: Vec<i64> = split.iter().map(|s| s[0]).collect();
            home.sort_unstable();
            let contiguous = home.windows(2).all(|w| w[1] == w[0] + 1);
            if !contiguous || split.iter().any(|s| s[0] + s[1] != sum) {
                return None;
            }
            class.push(split);
            total.push(sum);
        }
        Some(Points {
            scale,
            now: (0..d.n()).map(|t| unit(figure(t))).collect(),
            class,
            total,
            primary,
        })
    }

    /// The least and most side `s` of match `m` can score.
    pub fn range(&self, m: usize, s: usize) -> (i64, i64) {
        let v = self.class[m].iter().map(|c| c[s]);
        (v.clone().min().unwrap_or(0), v.max().unwrap_or(0))
    }

    /// The class of match `m` in which home scores `home` units.
    fn class_with(&self, m: usize, home: i64) -> usize {
        self.class[m].iter().position(|c| c[0] == home).unwrap_or(0)
    }

    /// Units as points, for a sentence.
    pub fn points(&self, units: i64) -> f64 {
        units as f64 / self.scale
    }

    /// The first criterion read by this division.
    pub fn primary(&self) -> Primary {
        self.primary
    }
}

/// The others around team `t`, once `t`'s own matches end as `t_gets` (units a match of `t`'s,
/// in the order of `Division::own[t]`): their base figures, and the matches among them.
pub(super) struct Field {
    /// Each team's figure with the least of every match it has left among the others, and
    /// what it gets from its match with `t`.
    pub base: Vec<i64>,
    /// Per team, the most it can add on top of `base`.
    pub room: Vec<i64>,
    /// The matches without `t`: (match, points beyond both sides' least, home room, away room).
    pub free: Vec<(usize, i64, i64, i64)>,
    /// Teams in the race: not `t`, not dropped.
    pub others: Vec<usize>,
}

impl Field {
    pub fn new(d: &Division, p: &Points, t: usize, t_gets: &[i64]) -> Field {
        Field::with_fixed(d, p, t, t_gets, &[])
    }

    /// As [`Field::new`], the matches without `t` that `fixed` gives a class ending in it.
    pub fn with_fixed(
        d: &Division,
        p: &Points,
        t: usize,
        t_gets: &[i64],
        fixed: &[Option<usize>],
    ) -> Field {
        let n = d.n();
        let mut base = p.now.clone();
        let mut room = vec![0i64; n];
        let mut free = Vec::new();
        for (m, r) in d.remaining.iter().enumerate() {
            if let Some(s) = r.side_of(t) {
                let k = d.own[t].iter().position(|&x| x == m).unwrap_or(0);
                base[r.teams[1 - s]] += p.total[m] - t_gets[k];
                continue;
            }
            if let Some(&Some(c)) = fixed.get(m) {
                base[r.teams[0]] += p.class[m][c][0];
                base[r.teams[1]] += p.class[m][c][1];
                continue;
            }
            let (lh, hh) = p.range(m, 0);
            let (la, ha) = p.range(m, 1);
            base[r.teams[0]] += lh;
            base[r.teams[1]] += la;
            room[r.teams[0]] += hh - lh;
            room[r.teams[1]] += ha - la;
            free.push((m, p.total[m] - lh - la, hh - lh, ha - la));
        }
        let others = (0..n).filter(|&u| u != t && !d.dropped[u]).collect();
        Field {
            base,
            room,
            free,
            others,
        }
    }

    pub fn pool(&self) -> i64 {
        self.free.iter().map(|f| f.1).sum()
    }

    /// The network: source → each free match (its points) → its teams → sink, a team taking at
    /// most `take(u)` (`None`: no edge). Returns the network and the match → home edges.
    pub fn network(
        &self,
        d: &Division,
        take: impl Fn(usize) -> Option<i64>,
    ) -> (Network, Vec<usize>) {
        let n = d.n();
        let (source, sink) = (0, 1);
        let team = |u: usize| 2 + u;
        let matches = 2 + n;
        let mut net = Network::new(matches + self.free.len());
        let mut home_edges = Vec::with_capacity(self.free.len());
        for (i, &(m, points, rh, ra)) in self.free.iter().enumerate() {
            let node = matches + i;
            let r = &d.remaining[m];
            net.edge(source, node, points);
            home_edges.push(net.edge(node, team(r.teams[0]), rh));
            net.edge(node, team(r.teams[1]), ra);
        }
        for &u in &self.others {
            if let Some(c) = take(u) {
                net.edge(team(u), sink, c);
            }
        }
        (net, home_edges)
    }

    /// The class of every match without `t`, from a flow: each free match's home side gets
    /// its least, its flow and, of what the flow left, as much as it may take.
    pub fn classes(&self, d: &Division, p: &Points, net: &Network, home: &[usize]) -> Vec<usize> {
        let mut classes = vec![0usize; d.remaining.len()];
        for (i, &(m, points, rh, _)) in self.free.iter().enumerate() {
            let (fh, fa) = (net.flow(home[i]), net.flow(home[i] + 2));
            let extra = (points - fh - fa).min(rh - fh);
            classes[m] = p.class_with(m, p.range(m, 0).0 + fh + extra);
        }
        classes
    }
}

/// As much as a team may take: no cap.
pub(super) const UNCAPPED: i64 = i64::MAX / 4;

/// Why no better place is possible: teams ahead whatever happens, and the flow's deficit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct NoBetter {
    /// The best place possible at most (1-based).
    pub place: usize,
    /// Teams already past the team's best total.
    pub ahead: usize,
    /// The points the others must score that a cap at the team's best total cannot hold, in
    /// units.
    pub deficit: i64,
    /// The teams that must pass the team's best total to take the deficit.
    pub must_pass: usize,
}

/// The elimination argument for team `t`: how many teams finish above it whatever happens.
pub(super) fn no_better(d: &Division, p: &Points, t: usize) -> NoBetter {
    let best = most(d, p, t);
    let field = Field::new(d, p, t, &best);
    let top = p.now[t] + best.iter().sum::<i64>();
    eliminate(d, &field, top).0
}

/// The elimination argument on `field` with the team at `top`, and the flow that holds the
/// others at or below it as far as it can (its network and match → home edges).
pub(super) fn eliminate(d: &Division, field: &Field, top: i64) -> (NoBetter, Network, Vec<usize>) {
    let ahead: Vec<usize> = field
        .others
        .iter()
        .copied()
        .filter(|&u| field.base[u] > top)
        .collect();
    let (mut net, home) = field.network(d, |u| {
        Some(if ahead.contains(&u) {
            UNCAPPED
        } else {
            top - field.base[u]
        })
    });
    let deficit = field.pool() - net.max_flow(0, 1);
    // Each team past `top` takes at most what it could score beyond it.
    let mut beyond: Vec<i64> = field
        .others
        .iter()
        .filter(|u| !ahead.contains(u))
        .map(|&u| field.base[u] + field.room[u] - top)
        .filter(|&b| b > 0)
        .collect();
    beyond.sort_unstable_by(|a, b| b.cmp(a));
    let mut must_pass = 0;
    let mut taken = 0;
    while taken < deficit && must_pass < beyond.len() {
        taken += beyond[must_pass];
        must_pass += 1;
    }
    let bound = NoBetter {
        place: 1 + ahead.len() + must_pass,
        ahead: ahead.len(),
        deficit,
        must_pass,
    };
    (bound, net, home)
}

/// Why no worse place is possible: at most so many teams can reach the team's least total.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct NoWorse {
    /// The worst place possible at most (1-based, the last of a shared place).
    pub place: usize,
    /// The teams that can reach the team's least total together, at most.
    pub can_reach: usize,
}

/// The counting argument for team `t` scoring at least `gain` units from its remaining
/// matches (`None`: the least it can): at most so many teams reach its total.
pub(super) fn no_worse(d: &Division, p: &Points, t: usize, gain: Option<i64>) -> NoWorse {
    let low = least(d, p, t);
    let high = most(d, p, t);
    let floor: i64 = low.iter().sum();
    let gain = gain.unwrap_or(floor).max(floor);
    // What `t` does not take of its matches goes to its opponents, as much as each may.
    let mut field = Field::new(d, p, t, &high);
    let mut pool = field.pool() + high.iter().sum::<i64>() - gain;
    let spare = high.iter().sum::<i64>() - gain;
    for (k, &m) in d.own[t].iter().enumerate() {
        let r = &d.remaining[m];
        let s = r.side_of(t).unwrap_or(0);
        field.room[r.teams[1 - s]] += (high[k] - low[k]).min(spare);
    }
    if gain == floor {
        // Losing as much as it can is one outcome: the opponents' share is fixed.
        field = Field::new(d, p, t, &low);
        pool = field.pool();
    }
    let total = p.now[t] + gain;
    let mut needs: Vec<i64> = field
        .others
        .iter()
        .map(|&u| (total - field.base[u]).max(0))
        .zip(field.others.iter().map(|&u| field.room[u]))
        .filter(|(need, room)| need <= room)
        .map(|(need, _)| need)
        .collect();
    needs.sort_unstable();
    let mut can_reach = 0;
    let mut spent = 0;
    for need in needs {
        if spent + need > pool {
            break;
        }
        spent += need;
        can_reach += 1;
    }
    NoWorse {
        place: 1 + can_reach,
        can_reach,
    }
}

/// The most `t` can score in each of its remaining matches, in units.
pub(super) fn most(d: &Division, p: &Points, t: usize) -> Vec<i64> {
    own_range(d, p, t).into_iter().map(|r| r.1).collect()
}

/// The least.
pub(super) fn least(d: &Division, p: &Points, t: usize) -> Vec<i64> {
    own_range(d, p, t).into_iter().map(|r| r.0).collect()
}

fn own_range(d: &Division, p: &Points, t: usize) -> Vec<(i64, i64)> {
    d.own[t]
        .iter()
        .map(|&m| p.range(m, d.remaining[m].side_of(t).unwrap_or(0)))
        .collect()
}

/// Scenarios (an outcome a match) in which `t` does as well as it can: it wins every match it
/// has left as high as it may, and the others are held below it by a flow, the fewest let past:
/// strictly below it (`margin` 1), or level with it (0).
pub(super) fn best_scenarios(d: &Division, p: &Points, t: usize, margin: i64) -> Vec<Vec<usize>> {
    let high = most(d, p, t);
    let field = Field::new(d, p, t, &high);
    let top = p.now[t] + high.iter().sum::<i64>();
    let mut out = Vec::new();
    {
        let mut free: Vec<usize> = field
            .others
            .iter()
            .copied()
            .filter(|&u| field.base[u] > top - margin)
            .collect();
        loop {
            let (mut net, home) = field.network(d, |u| {
                Some(if free.contains(&u) {
                    UNCAPPED
                } else {
                    top - margin - field.base[u]
                })
            });
            if net.max_flow(0, 1) == field.pool() {
                let classes = field.classes(d, p, &net, &home);
                out.extend(realise(d, p, t, &classes, true));
                break;
            }
            // Let past the capped team that could score the most.
            let Some(next) = field
                .others
                .iter()
                .copied()
                .filter(|u| !free.contains(u))
                .max_by_key(|&u| (field.base[u] + field.room[u], std::cmp::Reverse(u)))
            else {
                break;
            };
            free.push(next);
        }
    }
    out
}

/// Scenarios in which `t` does as badly as it can: it loses every match it has left as low as
/// it may, and the most teams a flow can push are pushed past it (or level with it).
pub(super) fn worst_scenarios(d: &Division, p: &Points, t: usize) -> Vec<Vec<usize>> {
    let low = least(d, p, t);
    let field = Field::new(d, p, t, &low);
    let total = p.now[t] + low.iter().sum::<i64>();
    let need = |u: usize, margin: i64| (total + margin - field.base[u]).max(0);
    let mut out = Vec::new();
    let mut pushed: Vec<(usize, i64)> = Vec::new();
    let feasible = |pushed: &[(usize, i64)]| {
        let (mut net, home) =
            field.network(d, |u| pushed.iter().find(|(x, _)| *x == u).map(|&(_, n)| n));
        let wanted: i64 = pushed.iter().map(|x| x.1).sum();
        (net.max_flow(0, 1) == wanted).then(|| field.classes(d, p, &net, &home))
    };
    for margin in [1, 0] {
        let mut candidates: Vec<usize> = field
            .others
            .iter()
            .copied()
            .filter(|&u| !pushed.iter().any(|x| x.0 == u) && need(u, margin) <= field.room[u])
            .collect();
        candidates.sort_by_key(|&u| (need(u, margin), u));
        let all: Vec<(usize, i64)> = pushed
            .iter()
            .copied()
            .chain(candidates.iter().map(|&u| (u, need(u, margin))))
            .collect();
        if feasible(&all).is_some() {
            pushed = all;
        } else {
            for u in candidates {
                pushed.push((u, need(u, margin)));
                if feasible(&pushed).is_none() {
                    pushed.pop();
                }
            }
        }
        if let Some(classes) = feasible(&pushed) {
            out.extend(realise(d, p, t, &classes, false));
        }
    }
    out
}

/// The outcomes of a scenario given by classes: `t`'s own matches at its best (or worst) as
/// the class of `t`'s most (or least), the others in two ways: the class's first outcome and
/// its closest.
pub(super) fn realise(
    d: &Division,
    p: &Points,
    t: usize,
    classes: &[usize],
    best: bool,
) -> [Vec<usize>; 2] {
    let primary = p.primary();
    let mut first = Vec::with_capacity(d.remaining.len());
    let mut close = Vec::with_capacity(d.remaining.len());
    for (m, r) in d.remaining.iter().enumerate() {
        if let Some(s) = r.side_of(t) {
            // Its own: the extreme class, and in it the most (least) game points for `t`.
            let key = |o: &usize| {
                let x = &r.outcomes[*o];
                (x.value(primary, s), x.gp[s])
            };
            let pickone = |a: &usize, b: &usize| {
                let (ka, kb) = (key(a), key(b));
                ka.0.total_cmp(&kb.0).then(ka.1.total_cmp(&kb.1))
            };
            let all = 0..r.outcomes.len();
            let o = if best {
                all.max_by(|a, b| pickone(a, b))
            } else {
                all.min_by(|a, b| pickone(a, b))
            }
            .unwrap_or(0);
            first.push(o);
            close.push(o);
            continue;
        }
        let class = &r.classes[classes[m]];
        first.push(class[0]);
        let margin = |o: &&usize| {
            let x = &r.outcomes[**o];
            ((x.gp[0] - x.gp[1]).abs() * 2.0) as i64
        };
        close.push(class.iter().min_by_key(margin).copied().unwrap_or(class[0]));
    }
    [first, close]
}
