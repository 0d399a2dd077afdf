//! Maximum flow (Dinic's algorithm) on small integer networks: the classic elimination argument
//! routes each remaining match's points to its two teams, each team taking no more than it may.

use std::collections::VecDeque;

/// A flow network.
#[derive(Debug, Clone)]
pub(super) struct Network {
    /// Per edge: (to, capacity left); edge `e ^ 1` is its reverse.
    edges: Vec<(usize, i64)>,
    /// Per node, its edges.
    out: Vec<Vec<usize>>,
}

impl Network {
    /// `nodes` nodes, no edges.
    pub fn new(nodes: usize) -> Network {
        Network {
            edges: Vec::new(),
            out: vec![Vec::new(); nodes],
        }
    }

    /// Adds the edge `from → to`; its index, to read its flow.
    pub fn edge(&mut self, from: usize, to: usize, capacity: i64) -> usize {
        let e = self.edges.len();
        self.edges.push((to, capacity.max(0)));
        self.edges.push((from, 0));
        self.out[from].push(e);
        self.out[to].push(e + 1);
        e
    }

    /// The flow through edge `e` (after [`Network::max_flow`]).
    pub fn flow(&self, e: usize) -> i64 {
        self.edges[e ^ 1].1
    }

    /// The maximum flow from `s` to `t`.
    pub fn max_flow(&mut self, s: usize, t: usize) -> i64 {
        let mut total = 0;
        loop {
            let Some(level) = self.levels(s, t) else {
                return total;
            };
            let mut next = vec![0usize; self.out.len()];
            loop {
                let f = self.push(s, t, i64::MAX, &level, &mut next);
                if f == 0 {
                    break;
                }
                total += f;
            }
        }
    }

    fn levels(&self, s: usize, t: usize) -> Option<Vec<u32>> {
        let mut level = vec![u32::MAX; self.out.len()];
        level[s] = 0;
        let mut queue = VecDeque::from([s]);
        while let Some(v) = queue.pop_front() {
            for &e in &self.out[v] {
                let (to, cap) = self.edges[e];
                if cap > 0 && level[to] == u32::MAX {
                    level[to] = level[v] + 1;
                    queue.push_back(to);
                }
            }
        }
        (level[t] != u32::MAX).then_some(level)
    }

    fn push(&mut self, v: usize, t: usize, limit: i64, level: &[u32], next: &mut [usize]) -> i64 {
        if v == t {
            return limit;
        }
        while next[v] < self.out[v].len() {
            let e = self.out[v][next[v]];
            let (to, cap) = self.edges[e];
            if cap > 0 && level[to] == level[v] + 1 {
                let f = self.push(to, t, limit.min(cap), level, next);
                if f > 0 {
                    self.edges[e].1 -= f;
                    self.edges[e ^ 1].1 += f;
                    return f;
                }
            }
            next[v] += 1;
        }
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_flow_is_limited_by_its_narrowest_cut() {
        // s → a (3), s → b (2), a → t (1), b → t (5), a → b (4): the cut at the source is 5.
        let mut n = Network::new(4);
        let (s, a, b, t) = (0, 1, 2, 3);
        n.edge(s, a, 3);
        n.edge(s, b, 2);
        let at = n.edge(a, t, 1);
        n.edge(b, t, 5);
        n.edge(a, b, 4);
        assert_eq!(n.max_flow(s, t), 5);
        assert_eq!(n.flow(at), 1);
    }
}
