//! Direct encounter (art. 6), extended direct encounter with its board steps (art. 13.3), and the
//! board tie-breaks TBR and BBE (arts. 12.2, 12.3), on all tied groups at once.
//!
//! FIDE's checker settles these in passes over every tied group: each pass applies one step
//! (primary score, secondary score, board count, a top board, a bottom board) to the groups
//! still open; a step that separates teams is applied again to the new sub-groups; when a pass
//! changes nothing the next step starts; the work ends after a full cycle of steps without a
//! change, or after 30 passes. The 30-pass limit counts passes over all groups together, so the
//! groups are computed together here too.
//!
//! The value reported is the checker's: the team's place inside the group it was tied in before
//! this criterion (1, 2, ...; teams still tied share one), or 0 when the criterion separated
//! nothing in that group. Lower is better.

use super::event::{Event, RoundRecord, TeamRecord};
use crate::rules::criteria::ScoreBasis;

/// The checker's limit on passes (tiebreak.py: `loopcount < 30`).
const PASSES: u32 = 30;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Step {
    /// The score in the matches among the tied teams, on the criterion's score.
    Primary,
    /// The same on the other score (art. 13.3.1).
    Secondary,
    /// Art. 13.3.2 with art. 12.1, between exactly two teams: board count, lower better.
    BoardCount,
    /// Art. 13.3.2 with art. 12.2, between exactly two teams: game points on board k + 1.
    TopBoard(usize),
    /// Art. 13.3.2 with art. 12.3, between exactly two teams: all boards but the last k + 1.
    BottomBoards(usize),
}

/// The steps of DE, EDE, EDET, EDEB, EDEBT and EDEBB.
pub(crate) fn steps(code: crate::rules::criteria::FideCode, boards: usize) -> Vec<Step> {
    use crate::rules::criteria::FideCode as C;
    let mut s = vec![Step::Primary];
    if code == C::De {
        return s;
    }
    s.push(Step::Secondary);
    if matches!(code, C::Edebt | C::Edebb) {
        s.push(Step::BoardCount);
    }
    match code {
        C::Edet | C::Edebt => s.extend((0..boards).map(Step::TopBoard)),
        C::Edeb | C::Edebb => s.extend((0..boards.saturating_sub(1)).map(Step::BottomBoards)),
        _ => {}
    }
    s
}

/// The order of the tied teams: `val` is each team's place (shared while tied), `group` the
/// index of the group it was tied in.
struct Places {
    group: Vec<usize>,
    val: Vec<u32>,
    /// Teams of the groups, sorted by (group, place, team).
    order: Vec<usize>,
    /// Each group's first place.
    base: Vec<u32>,
}

impl Places {
    fn new(n: usize, groups: &[&[usize]]) -> Places {
        let mut group = vec![usize::MAX; n];
        let mut val = vec![u32::MAX; n];
        let mut order = Vec::new();
        let mut base = Vec::with_capacity(groups.len());
        let mut first = 1u32;
        for (g, members) in groups.iter().enumerate() {
            base.push(first);
            let mut sorted: Vec<usize> = members.iter().copied().filter(|&t| t < n).collect();
            sorted.sort_unstable();
            for &t in &sorted {
                group[t] = g;
                val[t] = first;
                order.push(t);
            }
            first = first.saturating_add(u32::try_from(sorted.len()).unwrap_or(u32::MAX));
        }
        Places {
            group,
            val,
            order,
            base,
        }
    }

    fn sort(&mut self) {
        let (group, val) = (&self.group, &self.val);
        self.order.sort_by_key(|&t| (group[t], val[t], t));
    }

    /// The ranges of teams sharing a place, as (start, stop) in `order`.
    fn ranges(&self) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        let mut start = 0;
        while start < self.order.len() {
            let v = self.val[self.order[start]];
            let mut stop = start + 1;
            while stop < self.order.len() && self.val[self.order[stop]] == v {
                stop += 1;
            }
            out.push((start, stop));
            start = stop;
        }
        out
    }

    /// What the checker prints: the place inside the group, or 0 when the group did not split.
    fn reported(&self, n: usize, groups: &[&[usize]]) -> Vec<Option<f64>> {
        let mut out = vec![None; n];
        for (g, members) in groups.iter().enumerate() {
            let members: Vec<usize> = members.iter().copied().filter(|&t| t < n).collect();
            let split = members
                .iter()
                .any(|&t| members.first().is_some_and(|&f| self.val[t] != self.val[f]));
            for &t in &members {
                out[t] = Some(if split {
                    f64::from(self.val[t] - self.base[g] + 1)
                } else {
                    0.0
                });
            }
        }
        out
    }
}

/// Arts. 6 and 13.3 on every group of `groups` at once.
pub(crate) fn direct_encounter(
    ev: &Event,
    groups: &[&[usize]],
    steps: &[Step],
    basis: ScoreBasis,
    forfeits_played: bool,
) -> Vec<Option<f64>> {
    let n = ev.teams.len();
    let mut p = Places::new(n, groups);
    let mut more = vec![true; n];
    let mut changed = vec![true; steps.len().max(1)];
    let mut step = 0;
    let mut pass = 0;
    let mut again = !steps.is_empty();
    let secondary = super::event::other(basis);
    while again {
        again = false;
        pass += 1;
        let mut changes = 0;
        for (start, stop) in p.ranges() {
            let first = p.order[start];
            if !more[first] {
                continue;
            }
            if stop - start == 1 {
                more[first] = false;
                continue;
            }
            let tied: Vec<usize> = p.order[start..stop].to_vec();
            let c = match steps[step] {
                Step::Primary => encounter(
                    ev,
                    &tied,
                    &mut p.val,
                    |_, r| r.score(basis),
                    ev.win(basis),
                    forfeits_played,
                ),
                Step::Secondary => encounter(
                    ev,
                    &tied,
                    &mut p.val,
                    |_, r| r.score(secondary),
                    ev.win(secondary),
                    forfeits_played,
                ),
                board_step if tied.len() == 2 => {
                    let weights = weights(board_step, ev.boards);
                    // The checker allows one win per missing match, on the secondary scale.
                    let unit = match secondary {
                        ScoreBasis::MatchPoints => ev.match_win,
                        ScoreBasis::GamePoints => ev.game_win,
                    };
                    encounter(
                        ev,
                        &tied,
                        &mut p.val,
                        |team, r| weighted(team.games(r), &weights),
                        unit,
                        forfeits_played,
                    )
                }
                _ => 0,
            };
            changes += c;
            let keep = c > 0 && pass < PASSES;
            for &t in &tied {
                more[t] = keep;
            }
            again |= keep;
        }
        changed[step] = changes > 0;
        let open = changed.iter().any(|&c| c);
        if changes == 0 {
            step = (step + 1) % steps.len();
            more.fill(true);
        } else {
            changed.fill(true);
        }
        again |= open && pass < PASSES;
        p.sort();
    }
    p.reported(n, groups)
}

fn weights(step: Step, boards: usize) -> Vec<f64> {
    (0..boards)
        .map(|i| match step {
            // Negated, so that more is better as in every other step.
            Step::BoardCount => -((i + 1) as f64),
            Step::TopBoard(k) => f64::from(u8::from(i == k)),
            Step::BottomBoards(k) => f64::from(u8::from(i + 1 + k < boards)),
            Step::Primary | Step::Secondary => 0.0,
        })
        .collect()
}

fn weighted(games: &[f64], weights: &[f64]) -> f64 {
    super::event::total(games.iter().zip(weights).map(|(p, w)| p * w))
}

/// One direct encounter among exactly the teams of `tied` (all sharing one place): art. 6.1
/// mini-table, 6.1.2 average over repeated encounters, 6.2 when all have met (always in a round
/// robin), otherwise 6.3: a team is placed only if no outcome of the missing matches could
/// catch it. Writes the new places into `val`; returns how many teams moved.
fn encounter(
    ev: &Event,
    tied: &[usize],
    val: &mut [u32],
    score: impl Fn(&TeamRecord, &RoundRecord) -> f64,
    win: f64,
    forfeits_played: bool,
) -> usize {
    let place = val[tied[0]];
    let others = tied.len() - 1;
    let mut all_met = true;
    // (team, score, best possible)
    let mut rows: Vec<(usize, f64, f64)> = Vec::with_capacity(tied.len());
    for &t in tied {
        let mut met: Vec<(usize, u32, f64)> = Vec::new();
        let mut total = 0.0;
        let team = &ev.teams[t];
        for rec in &team.rounds {
            let Some(o) = rec.opponent else { continue };
            if !(forfeits_played || rec.played) || val.get(o) != Some(&place) {
                continue;
            }
            let s = score(team, rec);
            if let Some(m) = met.iter_mut().find(|m| m.0 == o) {
                let sum = m.2 * f64::from(m.1) + s;
                total -= m.2;
                m.1 += 1;
                m.2 = sum / f64::from(m.1);
                total += m.2;
            } else {
                met.push((o, 1, s));
                total += s;
            }
        }
        let best = if !ev.round_robin && met.len() < others {
            all_met = false;
            total + (others - met.len()) as f64 * win
        } else {
            total
        };
        rows.push((t, total, best));
    }
    let mut changes = 0;
    if all_met {
        rows.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        let (mut shared, mut at) = (place, place);
        let mut last = rows[0].1;
        for row in &rows[1..] {
            at += 1;
            if row.1 != last {
                shared = at;
                last = row.1;
                changes += 1;
            }
            val[row.0] = shared;
        }
    } else {
        rows.sort_by(|a, b| {
            b.1.total_cmp(&a.1)
                .then(b.2.total_cmp(&a.2))
                .then(a.0.cmp(&b.0))
        });
        // The best any team from here down could still reach.
        let mut reach = vec![f64::NEG_INFINITY; rows.len() + 1];
        for i in (0..rows.len()).rev() {
            reach[i] = reach[i + 1].max(rows[i].2);
        }
        let (mut shared, mut at) = (place, place);
        let mut last = rows[0].1;
        let mut clear = true;
        for (i, row) in rows.iter().enumerate().skip(1) {
            at += 1;
            if clear && last > reach[i] {
                shared = at;
                changes += 1;
            } else {
                clear = false;
            }
            val[row.0] = shared;
            last = row.1;
        }
    }
    changes
}

/// Arts. 12.2 (TBR) and 12.3 (BBE) on every group: board 1's game points, then board 2's, and so
/// on (TBR); or all boards but the last, then all but the last two, and so on (BBE).
pub(crate) fn board_results(ev: &Event, groups: &[&[usize]], top: bool) -> Vec<Option<f64>> {
    let n = ev.teams.len();
    let mut p = Places::new(n, groups);
    let boards = ev.boards;
    let key = |t: usize| -> Vec<f64> {
        let bp = &ev.teams[t].board_points;
        if top {
            bp.clone()
        } else {
            let mut left = super::event::total(bp.iter().copied());
            (0..boards)
                .map(|k| {
                    left -= bp.get(boards - 1 - k).copied().unwrap_or(0.0);
                    left
                })
                .collect()
        }
    };
    for (start, stop) in p.ranges() {
        if stop - start < 2 {
            continue;
        }
        let mut tied: Vec<(usize, Vec<f64>)> =
            p.order[start..stop].iter().map(|&t| (t, key(t))).collect();
        tied.sort_by(|a, b| {
            for (x, y) in a.1.iter().zip(&b.1) {
                match y.total_cmp(x) {
                    std::cmp::Ordering::Equal => {}
                    o => return o,
                }
            }
            a.0.cmp(&b.0)
        });
        let place = p.val[tied[0].0];
        let mut shared = place;
        for (i, (t, k)) in tied.iter().enumerate() {
            if i > 0 && *k != tied[i - 1].1 {
                shared = place + u32::try_from(i).unwrap_or(u32::MAX);
            }
            p.val[*t] = shared;
        }
    }
    p.reported(n, groups)
}
