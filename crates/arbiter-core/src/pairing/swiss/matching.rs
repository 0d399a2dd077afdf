//! Matchings on general graphs (Edmonds' blossoms): whether teams can all be paired (art. 2.2.1
//! [C3]), and the pairing of least weight (art. 3.6.4). Both pair any graph exactly, so on a
//! weight with one least pairing they find the pairing FIDE's checker finds.

use std::collections::VecDeque;

use super::wide::Weight;

const NIL: usize = usize::MAX;

/// Whether the `n` vertices, joined where `adjacent(a, b)`, can all be paired.
pub(crate) fn has_perfect(n: usize, adjacent: impl Fn(usize, usize) -> bool) -> bool {
    if n % 2 == 1 {
        return false;
    }
    if n == 0 {
        return true;
    }
    let graph: Vec<Vec<usize>> = (0..n)
        .map(|a| (0..n).filter(|&b| b != a && adjacent(a, b)).collect())
        .collect();
    Cardinality::new(&graph).perfect()
}

/// Edmonds' algorithm for a maximum matching, stopping at the first vertex left alone.
struct Cardinality<'g> {
    graph: &'g [Vec<usize>],
    mate: Vec<usize>,
    parent: Vec<usize>,
    base: Vec<usize>,
    used: Vec<bool>,
    blossom: Vec<bool>,
    queue: VecDeque<usize>,
}

impl<'g> Cardinality<'g> {
    fn new(graph: &'g [Vec<usize>]) -> Self {
        let n = graph.len();
        Cardinality {
            graph,
            mate: vec![NIL; n],
            parent: vec![NIL; n],
            base: (0..n).collect(),
            used: vec![false; n],
            blossom: vec![false; n],
            queue: VecDeque::new(),
        }
    }

    fn perfect(mut self) -> bool {
        let n = self.graph.len();
        // A greedy start leaves few vertices for the search.
        for v in 0..n {
            if self.mate[v] == NIL
                && let Some(&w) = self.graph[v].iter().find(|&&w| self.mate[w] == NIL)
            {
                self.mate[v] = w;
                self.mate[w] = v;
            }
        }
        for root in 0..n {
            if self.mate[root] != NIL {
                continue;
            }
            let end = self.find_path(root);
            if end == NIL {
                // No augmenting path from an exposed vertex now means none ever will be.
                return false;
            }
            let mut v = end;
            while v != NIL {
                let pv = self.parent[v];
                let ppv = self.mate[pv];
                self.mate[v] = pv;
                self.mate[pv] = v;
                v = ppv;
            }
        }
        true
    }

    fn lca(&self, mut a: usize, mut b: usize) -> usize {
        let mut seen = vec![false; self.graph.len()];
        loop {
            a = self.base[a];
            seen[a] = true;
            if self.mate[a] == NIL {
                break;
            }
            a = self.parent[self.mate[a]];
        }
        loop {
            b = self.base[b];
            if seen[b] {
                return b;
            }
            b = self.parent[self.mate[b]];
        }
    }

    fn mark_path(&mut self, mut v: usize, b: usize, mut child: usize) {
        while self.base[v] != b {
            self.blossom[self.base[v]] = true;
            self.blossom[self.base[self.mate[v]]] = true;
            self.parent[v] = child;
            child = self.mate[v];
            v = self.parent[self.mate[v]];
        }
    }

    fn find_path(&mut self, root: usize) -> usize {
        let n = self.graph.len();
        self.used.fill(false);
        self.parent.fill(NIL);
        for (i, b) in self.base.iter_mut().enumerate() {
            *b = i;
        }
        self.used[root] = true;
        self.queue.clear();
        self.queue.push_back(root);
        while let Some(v) = self.queue.pop_front() {
            for &to in &self.graph[v] {
                if self.base[v] == self.base[to] || self.mate[v] == to {
                    continue;
                }
                if to == root || (self.mate[to] != NIL && self.parent[self.mate[to]] != NIL) {
                    let cur = self.lca(v, to);
                    self.blossom.fill(false);
                    self.mark_path(v, cur, to);
                    self.mark_path(to, cur, v);
                    for i in 0..n {
                        if self.blossom[self.base[i]] {
                            self.base[i] = cur;
                            if !self.used[i] {
                                self.used[i] = true;
                                self.queue.push_back(i);
                            }
                        }
                    }
                } else if self.parent[to] == NIL {
                    self.parent[to] = v;
                    if self.mate[to] == NIL {
                        return to;
                    }
                    let next = self.mate[to];
                    self.used[next] = true;
                    self.queue.push_back(next);
                }
            }
        }
        NIL
    }
}

/// The perfect matching of least total weight of `n` vertices and `edges` `(a, b, weight)`, as
/// each vertex's mate; `None` when there is no perfect matching. Van Rantwijk's weighted
/// blossom algorithm (the one networkx runs), on maximum cardinality, with weights negated.
pub(crate) fn min_weight_perfect<W: Weight>(
    n: usize,
    edges: &[(usize, usize, W)],
) -> Option<Vec<usize>> {
    if n == 0 {
        return Some(Vec::new());
    }
    if edges.is_empty() || n % 2 == 1 {
        return None;
    }
    let top = edges.iter().map(|e| e.2).max().unwrap_or(W::zero()) + W::from_u64(1);
    // Doubled so that every dual variable stays an integer.
    let inverted: Vec<(usize, usize, W)> = edges
        .iter()
        .map(|&(a, b, w)| {
            let x = top - w;
            (a, b, x + x)
        })
        .collect();
    let mate = Blossom::new(n, &inverted).run();
    mate.iter().all(|&m| m != NIL).then_some(mate)
}

struct Blossom<'e, W: Weight> {
    nv: usize,
    edges: &'e [(usize, usize, W)],
    endpoint: Vec<usize>,
    neighbend: Vec<Vec<usize>>,
    mate: Vec<usize>,
    label: Vec<u8>,
    labelend: Vec<usize>,
    inblossom: Vec<usize>,
    blossomparent: Vec<usize>,
    blossomchilds: Vec<Vec<usize>>,
    blossombase: Vec<usize>,
    blossomendps: Vec<Vec<usize>>,
    bestedge: Vec<usize>,
    blossombestedges: Vec<Option<Vec<usize>>>,
    unusedblossoms: Vec<usize>,
    dualvar: Vec<W>,
    allowedge: Vec<bool>,
    queue: Vec<usize>,
}

fn at(len: usize, j: isize) -> usize {
    j.rem_euclid(len as isize) as usize
}

impl<'e, W: Weight> Blossom<'e, W> {
    fn new(nv: usize, edges: &'e [(usize, usize, W)]) -> Self {
        let ne = edges.len();
        let maxweight = edges.iter().map(|e| e.2).max().unwrap_or(W::zero());
        let maxweight = if maxweight.is_negative() {
            W::zero()
        } else {
            maxweight
        };
        let mut endpoint = Vec::with_capacity(2 * ne);
        let mut neighbend = vec![Vec::new(); nv];
        for (k, &(i, j, _)) in edges.iter().enumerate() {
            endpoint.push(i);
            endpoint.push(j);
            neighbend[i].push(2 * k + 1);
            neighbend[j].push(2 * k);
        }
        let mut dualvar = vec![maxweight; nv];
        dualvar.extend(std::iter::repeat_n(W::zero(), nv));
        Blossom {
            nv,
            edges,
            endpoint,
            neighbend,
            mate: vec![NIL; nv],
            label: vec![0; 2 * nv],
            labelend: vec![NIL; 2 * nv],
            inblossom: (0..nv).collect(),
            blossomparent: vec![NIL; 2 * nv],
            blossomchilds: vec![Vec::new(); 2 * nv],
            blossombase: (0..nv).chain(std::iter::repeat_n(NIL, nv)).collect(),
            blossomendps: vec![Vec::new(); 2 * nv],
            bestedge: vec![NIL; 2 * nv],
            blossombestedges: vec![None; 2 * nv],
            unusedblossoms: (nv..2 * nv).collect(),
            dualvar,
            allowedge: vec![false; ne],
            queue: Vec::new(),
        }
    }

    fn slack(&self, k: usize) -> W {
        let (i, j, w) = self.edges[k];
        self.dualvar[i] + self.dualvar[j] - w - w
    }

    fn leaves(&self, b: usize, out: &mut Vec<usize>) {
        if b < self.nv {
            out.push(b);
        } else {
            for &t in &self.blossomchilds[b] {
                self.leaves(t, out);
            }
        }
    }

    fn leaves_of(&self, b: usize) -> Vec<usize> {
        let mut out = Vec::new();
        self.leaves(b, &mut out);
        out
    }

    fn assign_label(&mut self, w: usize, t: u8, p: usize) {
        let b = self.inblossom[w];
        self.label[w] = t;
        self.label[b] = t;
        self.labelend[w] = p;
        self.labelend[b] = p;
        self.bestedge[w] = NIL;
        self.bestedge[b] = NIL;
        if t == 1 {
            let leaves = self.leaves_of(b);
            self.queue.extend(leaves);
        } else if t == 2 {
            let base = self.blossombase[b];
            let mb = self.mate[base];
            self.assign_label(self.endpoint[mb], 1, mb ^ 1);
        }
    }

    fn scan_blossom(&mut self, mut v: usize, mut w: usize) -> usize {
        let mut path = Vec::new();
        let mut base = NIL;
        while v != NIL || w != NIL {
            let mut b = self.inblossom[v];
            if self.label[b] & 4 != 0 {
                base = self.blossombase[b];
                break;
            }
            path.push(b);
            self.label[b] = 5;
            if self.labelend[b] == NIL {
                v = NIL;
            } else {
                v = self.endpoint[self.labelend[b]];
                b = self.inblossom[v];
                v = self.endpoint[self.labelend[b]];
            }
            if w != NIL {
                std::mem::swap(&mut v, &mut w);
            }
        }
        for b in path {
            self.label[b] = 1;
        }
        base
    }

    fn add_blossom(&mut self, base: usize, k: usize) {
        let (mut v, mut w, _) = self.edges[k];
        let bb = self.inblossom[base];
        let mut bv = self.inblossom[v];
        let mut bw = self.inblossom[w];
        let Some(b) = self.unusedblossoms.pop() else {
            return;
        };
        self.blossombase[b] = base;
        self.blossomparent[b] = NIL;
        self.blossomparent[bb] = b;
        let mut path = Vec::new();
        let mut endps = Vec::new();
        while bv != bb {
            self.blossomparent[bv] = b;
            path.push(bv);
            endps.push(self.labelend[bv]);
            v = self.endpoint[self.labelend[bv]];
            bv = self.inblossom[v];
        }
        path.push(bb);
        path.reverse();
        endps.reverse();
        endps.push(2 * k);
        while bw != bb {
            self.blossomparent[bw] = b;
            path.push(bw);
            endps.push(self.labelend[bw] ^ 1);
            w = self.endpoint[self.labelend[bw]];
            bw = self.inblossom[w];
        }
        self.label[b] = 1;
        self.labelend[b] = self.labelend[bb];
        self.dualvar[b] = W::zero();
        self.blossomchilds[b] = path.clone();
        self.blossomendps[b] = endps;
        for leaf in self.leaves_of(b) {
            if self.label[self.inblossom[leaf]] == 2 {
                self.queue.push(leaf);
            }
            self.inblossom[leaf] = b;
        }
        let mut bestedgeto = vec![NIL; 2 * self.nv];
        for &bv in &path {
            let lists: Vec<Vec<usize>> = match self.blossombestedges[bv].take() {
                Some(list) => vec![list],
                None => self
                    .leaves_of(bv)
                    .into_iter()
                    .map(|leaf| self.neighbend[leaf].iter().map(|p| p / 2).collect())
                    .collect(),
            };
            for list in lists {
                for k in list {
                    let (mut i, mut j, _) = self.edges[k];
                    if self.inblossom[j] == b {
                        std::mem::swap(&mut i, &mut j);
                    }
                    let _ = i;
                    let bj = self.inblossom[j];
                    if bj != b
                        && self.label[bj] == 1
                        && (bestedgeto[bj] == NIL || self.slack(k) < self.slack(bestedgeto[bj]))
                    {
                        bestedgeto[bj] = k;
                    }
                }
            }
            self.bestedge[bv] = NIL;
        }
        let best: Vec<usize> = bestedgeto.into_iter().filter(|&k| k != NIL).collect();
        self.bestedge[b] = NIL;
        for &k in &best {
            if self.bestedge[b] == NIL || self.slack(k) < self.slack(self.bestedge[b]) {
                self.bestedge[b] = k;
            }
        }
        self.blossombestedges[b] = Some(best);
    }

    fn expand_blossom(&mut self, b: usize, endstage: bool) {
        let childs = self.blossomchilds[b].clone();
        for &s in &childs {
            self.blossomparent[s] = NIL;
            if s < self.nv {
                self.inblossom[s] = s;
            } else if endstage && self.dualvar[s] == W::zero() {
                self.expand_blossom(s, endstage);
            } else {
                for leaf in self.leaves_of(s) {
                    self.inblossom[leaf] = s;
                }
            }
        }
        if !endstage && self.label[b] == 2 {
            let len = childs.len();
            let entrychild = self.inblossom[self.endpoint[self.labelend[b] ^ 1]];
            let mut j = childs.iter().position(|&c| c == entrychild).unwrap_or(0) as isize;
            let (jstep, endptrick): (isize, usize) = if j & 1 == 1 {
                j -= len as isize;
                (1, 0)
            } else {
                (-1, 1)
            };
            let endps = self.blossomendps[b].clone();
            let mut p = self.labelend[b];
            while j != 0 {
                self.label[self.endpoint[p ^ 1]] = 0;
                let q = endps[at(len, j - endptrick as isize)];
                self.label[self.endpoint[q ^ endptrick ^ 1]] = 0;
                self.assign_label(self.endpoint[p ^ 1], 2, p);
                self.allowedge[q / 2] = true;
                j += jstep;
                p = endps[at(len, j - endptrick as isize)] ^ endptrick;
                self.allowedge[p / 2] = true;
                j += jstep;
            }
            let bv = childs[at(len, j)];
            let e = self.endpoint[p ^ 1];
            self.label[e] = 2;
            self.label[bv] = 2;
            self.labelend[e] = p;
            self.labelend[bv] = p;
            self.bestedge[bv] = NIL;
            j += jstep;
            while childs[at(len, j)] != entrychild {
                let bv = childs[at(len, j)];
                if self.label[bv] == 1 {
                    j += jstep;
                    continue;
                }
                let labelled = self.leaves_of(bv).into_iter().find(|&v| self.label[v] != 0);
                if let Some(v) = labelled {
                    self.label[v] = 0;
                    let m = self.mate[self.blossombase[bv]];
                    self.label[self.endpoint[m]] = 0;
                    self.assign_label(v, 2, self.labelend[v]);
                }
                j += jstep;
            }
        }
        self.label[b] = u8::MAX;
        self.labelend[b] = NIL;
        self.blossomchilds[b] = Vec::new();
        self.blossomendps[b] = Vec::new();
        self.blossombase[b] = NIL;
        self.blossombestedges[b] = None;
        self.bestedge[b] = NIL;
        self.unusedblossoms.push(b);
    }

    fn augment_blossom(&mut self, b: usize, v: usize) {
        let mut t = v;
        while self.blossomparent[t] != b {
            t = self.blossomparent[t];
        }
        if t >= self.nv {
            self.augment_blossom(t, v);
        }
        let len = self.blossomchilds[b].len();
        let i = self.blossomchilds[b]
            .iter()
            .position(|&c| c == t)
            .unwrap_or(0);
        let mut j = i as isize;
        let (jstep, endptrick): (isize, usize) = if i & 1 == 1 {
            j -= len as isize;
            (1, 0)
        } else {
            (-1, 1)
        };
        while j != 0 {
            j += jstep;
            let t = self.blossomchilds[b][at(len, j)];
            let p = self.blossomendps[b][at(len, j - endptrick as isize)] ^ endptrick;
            if t >= self.nv {
                self.augment_blossom(t, self.endpoint[p]);
            }
            j += jstep;
            let t = self.blossomchilds[b][at(len, j)];
            if t >= self.nv {
                self.augment_blossom(t, self.endpoint[p ^ 1]);
            }
            self.mate[self.endpoint[p]] = p ^ 1;
            self.mate[self.endpoint[p ^ 1]] = p;
        }
        self.blossomchilds[b].rotate_left(i);
        self.blossomendps[b].rotate_left(i);
        self.blossombase[b] = self.blossombase[self.blossomchilds[b][0]];
    }

    fn augment_matching(&mut self, k: usize) {
        let (v, w, _) = self.edges[k];
        for (mut s, mut p) in [(v, 2 * k + 1), (w, 2 * k)] {
            loop {
                let bs = self.inblossom[s];
                if bs >= self.nv {
                    self.augment_blossom(bs, s);
                }
                self.mate[s] = p;
                if self.labelend[bs] == NIL {
                    break;
                }
                let t = self.endpoint[self.labelend[bs]];
                let bt = self.inblossom[t];
                s = self.endpoint[self.labelend[bt]];
                let j = self.endpoint[self.labelend[bt] ^ 1];
                if bt >= self.nv {
                    self.augment_blossom(bt, j);
                }
                self.mate[j] = self.labelend[bt];
                p = self.labelend[bt] ^ 1;
            }
        }
    }

    fn run(mut self) -> Vec<usize> {
        let nv = self.nv;
        for _ in 0..nv {
            self.label.fill(0);
            self.bestedge.fill(NIL);
            for b in nv..2 * nv {
                self.blossombestedges[b] = None;
            }
            self.allowedge.fill(false);
            self.queue.clear();
            for v in 0..nv {
                if self.mate[v] == NIL && self.label[self.inblossom[v]] == 0 {
                    self.assign_label(v, 1, NIL);
                }
            }
            let mut augmented = false;
            loop {
                while !augmented {
                    let Some(v) = self.queue.pop() else { break };
                    for idx in 0..self.neighbend[v].len() {
                        let p = self.neighbend[v][idx];
                        let k = p / 2;
                        let w = self.endpoint[p];
                        if self.inblossom[v] == self.inblossom[w] {
                            continue;
                        }
                        let mut kslack = W::zero();
                        if !self.allowedge[k] {
                            kslack = self.slack(k);
                            if kslack <= W::zero() {
                                self.allowedge[k] = true;
                            }
                        }
                        if self.allowedge[k] {
                            if self.label[self.inblossom[w]] == 0 {
                                self.assign_label(w, 2, p ^ 1);
                            } else if self.label[self.inblossom[w]] == 1 {
                                let base = self.scan_blossom(v, w);
                                if base != NIL {
                                    self.add_blossom(base, k);
                                } else {
                                    self.augment_matching(k);
                                    augmented = true;
                                    break;
                                }
                            } else if self.label[w] == 0 {
                                self.label[w] = 2;
                                self.labelend[w] = p ^ 1;
                            }
                        } else if self.label[self.inblossom[w]] == 1 {
                            let b = self.inblossom[v];
                            if self.bestedge[b] == NIL || kslack < self.slack(self.bestedge[b]) {
                                self.bestedge[b] = k;
                            }
                        } else if self.label[w] == 0
                            && (self.bestedge[w] == NIL || kslack < self.slack(self.bestedge[w]))
                        {
                            self.bestedge[w] = k;
                        }
                    }
                }
                if augmented {
                    break;
                }
                // The dual change: maximum cardinality, so never type 1 while another exists.
                let mut deltatype = 0u8;
                let mut delta = W::zero();
                let mut deltaedge = NIL;
                let mut deltablossom = NIL;
                for v in 0..nv {
                    if self.label[self.inblossom[v]] == 0 && self.bestedge[v] != NIL {
                        let d = self.slack(self.bestedge[v]);
                        if deltatype == 0 || d < delta {
                            delta = d;
                            deltatype = 2;
                            deltaedge = self.bestedge[v];
                        }
                    }
                }
                for b in 0..2 * nv {
                    if self.blossomparent[b] == NIL && self.label[b] == 1 && self.bestedge[b] != NIL
                    {
                        let d = self.slack(self.bestedge[b]).half();
                        if deltatype == 0 || d < delta {
                            delta = d;
                            deltatype = 3;
                            deltaedge = self.bestedge[b];
                        }
                    }
                }
                for b in nv..2 * nv {
                    if self.blossombase[b] != NIL
                        && self.blossomparent[b] == NIL
                        && self.label[b] == 2
                        && (deltatype == 0 || self.dualvar[b] < delta)
                    {
                        delta = self.dualvar[b];
                        deltatype = 4;
                        deltablossom = b;
                    }
                }
                if deltatype == 0 {
                    deltatype = 1;
                    let least = self.dualvar[..nv]
                        .iter()
                        .copied()
                        .min()
                        .unwrap_or(W::zero());
                    delta = if least.is_negative() {
                        W::zero()
                    } else {
                        least
                    };
                }
                for v in 0..nv {
                    match self.label[self.inblossom[v]] {
                        1 => self.dualvar[v] = self.dualvar[v] - delta,
                        2 => self.dualvar[v] = self.dualvar[v] + delta,
                        _ => {}
                    }
                }
                for b in nv..2 * nv {
                    if self.blossombase[b] != NIL && self.blossomparent[b] == NIL {
                        match self.label[b] {
                            1 => self.dualvar[b] = self.dualvar[b] + delta,
                            2 => self.dualvar[b] = self.dualvar[b] - delta,
                            _ => {}
                        }
                    }
                }
                match deltatype {
                    1 => break,
                    2 => {
                        self.allowedge[deltaedge] = true;
                        let (mut i, mut j, _) = self.edges[deltaedge];
                        if self.label[self.inblossom[i]] == 0 {
                            std::mem::swap(&mut i, &mut j);
                        }
                        let _ = j;
                        self.queue.push(i);
                    }
                    3 => {
                        self.allowedge[deltaedge] = true;
                        let (i, _, _) = self.edges[deltaedge];
                        self.queue.push(i);
                    }
                    _ => self.expand_blossom(deltablossom, false),
                }
            }
            if !augmented {
                break;
            }
            for b in nv..2 * nv {
                if self.blossomparent[b] == NIL
                    && self.blossombase[b] != NIL
                    && self.label[b] == 1
                    && self.dualvar[b] == W::zero()
                {
                    self.expand_blossom(b, true);
                }
            }
        }
        (0..nv)
            .map(|v| {
                let m = self.mate[v];
                if m == NIL { NIL } else { self.endpoint[m] }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::super::wide::Wide;
    use super::*;

    type W = Wide<2>;

    fn brute(n: usize, edges: &[(usize, usize, u64)]) -> Option<u64> {
        fn go(left: &mut Vec<usize>, edges: &[(usize, usize, u64)]) -> Option<u64> {
            let Some(&a) = left.first() else {
                return Some(0);
            };
            let mut best: Option<u64> = None;
            for &(x, y, w) in edges {
                let b = if x == a {
                    y
                } else if y == a {
                    x
                } else {
                    continue;
                };
                if let Some(pos) = left.iter().position(|&v| v == b) {
                    let saved = left.clone();
                    left.remove(pos);
                    left.remove(0);
                    if let Some(rest) = go(left, edges) {
                        best = Some(best.map_or(rest + w, |b: u64| b.min(rest + w)));
                    }
                    *left = saved;
                }
            }
            best
        }
        go(&mut (0..n).collect(), edges)
    }

    #[test]
    fn least_weight_and_perfect_agree_with_trying_every_pairing() {
        // A small deterministic generator: graphs of 2 to 10 vertices, some edges missing.
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for case in 0..400 {
            let n = 2 + 2 * (case % 5);
            let mut edges = Vec::new();
            for a in 0..n {
                for b in a + 1..n {
                    if next() % 3 != 0 {
                        edges.push((a, b, next() % 50));
                    }
                }
            }
            let want = brute(n, &edges);
            let wide: Vec<(usize, usize, W)> = edges
                .iter()
                .map(|&(a, b, w)| (a, b, W::from_u64(w)))
                .collect();
            let got = min_weight_perfect(n, &wide).map(|mate| {
                edges
                    .iter()
                    .filter(|&&(a, b, _)| mate[a] == b)
                    .map(|e| e.2)
                    .sum::<u64>()
            });
            assert_eq!(got, want, "case {case}: {edges:?}");
            let perfect = has_perfect(n, |a, b| {
                edges
                    .iter()
                    .any(|&(x, y, _)| (x, y) == (a, b) || (y, x) == (a, b))
            });
            assert_eq!(perfect, want.is_some(), "case {case}");
        }
    }
}
