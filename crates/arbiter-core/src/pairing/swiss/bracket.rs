//! C.04.6 art. 3: the pairing process. The pairing-allocated bye first (art. 3.4), then from
//! the top scoregroup down, each scoregroup with the set of upfloaters art. 3.5 chooses, paired
//! by art. 3.6; a team left in a scoregroup is never moved down (there are no downfloaters).

use super::field::Field;
use super::matching::{has_perfect, min_weight_perfect};
use super::wide::{Weight, Wide};
use crate::rules::ruleset::ColourPreferences;

/// Why the process stopped: the sentence, and the article.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Impossible {
    pub rule: &'static str,
    pub message: String,
}

/// The quality criteria art. 2.3 counts for one pair of a bracket.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Quality {
    /// [C4]: the pair's upfloaters.
    pub upfloaters: u32,
    /// [C8]: both teams prefer the same colour.
    pub same_preference: bool,
    /// [C9]: and both preferences are strong (type B).
    pub both_strong: bool,
    /// [C10]: upfloaters whose opponent here floated in the previous round.
    pub floater_opponents: u32,
}

/// One bracket as it was paired.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Bracket {
    pub level: usize,
    pub residents: Vec<usize>,
    pub upfloaters: Vec<usize>,
    /// Art. 3.5.5: [C6] complied with, and [C7]'s count, for the chosen set.
    pub c6: bool,
    pub c7: u32,
    /// How many sets of upfloaters were legal before the chosen one won.
    pub sets_tried: usize,
    /// The bracket took the first pairing of art. 3.6.2 with no [C8], [C9], [C10] to weigh.
    pub folded: bool,
    pub pairs: Vec<(usize, usize, Quality)>,
}

/// The round: its brackets (top first) and the bye.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Process {
    pub bye: Option<usize>,
    pub brackets: Vec<Bracket>,
}

pub(crate) fn pair(field: &Field) -> Result<Process, Impossible> {
    let mut nodes: Vec<usize> = (0..field.teams.len())
        .filter(|&t| field.teams[t].present)
        .collect();
    nodes.sort_by_key(|&t| (std::cmp::Reverse(field.teams[t].level), field.teams[t].tpn));
    let mut bye = None;
    if nodes.len() % 2 == 1 {
        let t = pairing_allocated_bye(field, &nodes)?;
        nodes.retain(|&x| x != t);
        bye = Some(t);
    }
    let top = nodes.first().map_or(0, |&t| field.teams[t].level);
    let mut brackets = Vec::new();
    for level in (1..=top).rev() {
        let residents: Vec<usize> = nodes
            .iter()
            .copied()
            .filter(|&t| field.teams[t].level == level)
            .collect();
        if residents.is_empty() {
            continue; // the whole scoregroup floated up into brackets above
        }
        let bracket = pair_bracket(field, level, &residents, &nodes)?;
        for &(a, b, _) in &bracket.pairs {
            nodes.retain(|&x| x != a && x != b);
        }
        brackets.push(bracket);
    }
    Ok(Process { bye, brackets })
}

/// [C3] art. 2.2.1: the teams can all be paired with each other.
fn can_be_paired(field: &Field, teams: &[usize]) -> bool {
    has_perfect(teams.len(), |a, b| field.can_meet(teams[a], teams[b]))
}

/// Art. 3.4: the team that leaves a legal pairing for the others (3.4.1), with the lowest
/// score (3.4.2), the most matches played (3.4.3), the largest TPN (3.4.4); never one [C2] bars.
fn pairing_allocated_bye(field: &Field, nodes: &[usize]) -> Result<usize, Impossible> {
    let mut candidates: Vec<usize> = nodes
        .iter()
        .copied()
        .filter(|&t| field.teams[t].may_have_bye)
        .collect();
    candidates.sort_by_key(|&t| {
        let e = &field.teams[t];
        (
            e.level,
            std::cmp::Reverse(e.played),
            std::cmp::Reverse(e.tpn),
        )
    });
    for t in candidates {
        let rest: Vec<usize> = nodes.iter().copied().filter(|&x| x != t).collect();
        if can_be_paired(field, &rest) {
            return Ok(t);
        }
    }
    Err(Impossible {
        rule: "C.04.6 art. 3.3.3",
        message: "no team can be given the pairing-allocated bye and leave a legal pairing for all the others (art. 3.4.1, [C2] art. 2.1.2); the Chief Arbiter decides what to do".into(),
    })
}

/// The best set of upfloaters so far: its ([C6], [C7]) key, the set, [C6], and its place.
type Chosen = ((u8, u32), Vec<usize>, bool, usize);

fn pair_bracket(
    field: &Field,
    level: usize,
    residents: &[usize],
    nodes: &[usize],
) -> Result<Bracket, Impossible> {
    let lower: Vec<usize> = nodes
        .iter()
        .copied()
        .filter(|&t| field.teams[t].level < level)
        .collect();
    let mut numup = residents.len() % 2;
    while numup <= lower.len() {
        for profile in profiles(field, &lower, numup) {
            let mut best: Option<Chosen> = None;
            let mut legal = 0;
            for_each_set(field, &lower, &profile, |ups| {
                let mut bracket: Vec<usize> = residents.to_vec();
                bracket.extend_from_slice(ups);
                if !can_be_paired(field, &bracket) {
                    return true;
                }
                let rest: Vec<usize> = nodes
                    .iter()
                    .copied()
                    .filter(|t| !bracket.contains(t))
                    .collect();
                if !can_be_paired(field, &rest) {
                    return true; // [C3]
                }
                legal += 1;
                let c6 = c6_complied(field, level, &rest);
                let c7 = if field.last_two_rounds() {
                    0
                } else {
                    ups.iter().filter(|&&t| field.teams[t].floated).count() as u32
                };
                let key = (u8::from(!c6), c7);
                if best.as_ref().is_none_or(|b| key < b.0) {
                    best = Some((key, ups.to_vec(), c6, legal));
                }
                key != (0, 0) // art. 3.5.5: the first set that complies
            });
            if let Some(((_, c7), upfloaters, c6, sets_tried)) = best {
                let mut teams: Vec<usize> = residents.to_vec();
                teams.extend_from_slice(&upfloaters);
                let (pairs, folded) = pair_teams(field, level, &teams)?;
                return Ok(Bracket {
                    level,
                    residents: residents.to_vec(),
                    upfloaters,
                    c6,
                    c7,
                    sets_tried,
                    folded,
                    pairs,
                });
            }
        }
        numup += 2;
    }
    Err(Impossible {
        rule: "C.04.6 art. 3.3.3",
        message: format!(
            "the scoregroup of {} points has no legal pairing with any set of upfloaters (art. 3.5); the Chief Arbiter decides what to do",
            field.level_scores.get(level).copied().unwrap_or(0.0)
        ),
    })
}

/// [C5] art. 2.3.2: the score profiles of `numup` upfloaters, best first (the scores taken in
/// ascending order, largest first). A profile is the levels of the upfloaters, highest first.
fn profiles(field: &Field, lower: &[usize], numup: usize) -> Vec<Vec<usize>> {
    let mut counts: Vec<(usize, usize)> = Vec::new(); // (level, teams), highest level first
    for &t in lower {
        let l = field.teams[t].level;
        match counts.iter_mut().find(|c| c.0 == l) {
            Some(c) => c.1 += 1,
            None => counts.push((l, 1)),
        }
    }
    counts.sort_by_key(|c| std::cmp::Reverse(c.0));
    let mut out = Vec::new();
    let mut current = Vec::new();
    fn go(
        counts: &[(usize, usize)],
        left: usize,
        current: &mut Vec<usize>,
        out: &mut Vec<Vec<usize>>,
    ) {
        if left == 0 {
            out.push(current.clone());
            return;
        }
        let Some((&(level, have), rest)) = counts.split_first() else {
            return;
        };
        for take in (0..=have.min(left)).rev() {
            current.extend(std::iter::repeat_n(level, take));
            go(rest, left - take, current, out);
            current.truncate(current.len() - take);
        }
    }
    go(&counts, numup, &mut current, &mut out);
    out.sort_by(|a, b| {
        let mut x = a.clone();
        let mut y = b.clone();
        x.reverse();
        y.reverse();
        y.cmp(&x)
    });
    out
}

/// Art. 3.5.3-3.5.4: every set of upfloaters with `profile`, in the lexicographic order of their
/// TPNs (levels from the highest, each level's teams by TPN). `visit` returns false to stop.
fn for_each_set(
    field: &Field,
    lower: &[usize],
    profile: &[usize],
    mut visit: impl FnMut(&[usize]) -> bool,
) {
    let mut groups: Vec<(Vec<usize>, usize)> = Vec::new(); // (candidates by TPN, how many)
    for &level in profile {
        match groups.last_mut() {
            Some(g) if field.teams[g.0[0]].level == level => g.1 += 1,
            _ => {
                let mut c: Vec<usize> = lower
                    .iter()
                    .copied()
                    .filter(|&t| field.teams[t].level == level)
                    .collect();
                c.sort_by_key(|&t| field.teams[t].tpn);
                groups.push((c, 1));
            }
        }
    }
    if profile.is_empty() {
        visit(&[]);
        return;
    }
    // One combination per group; the last group moves fastest.
    let mut picks: Vec<Vec<usize>> = groups.iter().map(|g| (0..g.1).collect()).collect();
    loop {
        let set: Vec<usize> = groups
            .iter()
            .zip(&picks)
            .flat_map(|(g, p)| p.iter().map(|&i| g.0[i]))
            .collect();
        if !visit(&set) {
            return;
        }
        let mut g = groups.len();
        loop {
            if g == 0 {
                return;
            }
            g -= 1;
            if next_combination(&mut picks[g], groups[g].0.len()) {
                for (later, p) in picks.iter_mut().enumerate().skip(g + 1) {
                    *p = (0..groups[later].1).collect();
                }
                break;
            }
        }
    }
}

fn next_combination(c: &mut [usize], n: usize) -> bool {
    let k = c.len();
    for i in (0..k).rev() {
        if c[i] < n - k + i {
            c[i] += 1;
            for j in i + 1..k {
                c[j] = c[j - 1] + 1;
            }
            return true;
        }
    }
    false
}

/// [C6] art. 2.3.3: the next scoregroup, what is left of it, can still be paired with the
/// fewest upfloaters its size allows ([C1], [C3], [C4]).
fn c6_complied(field: &Field, level: usize, rest: &[usize]) -> bool {
    let following: Vec<usize> = rest
        .iter()
        .copied()
        .filter(|&t| field.teams[t].level + 1 == level)
        .collect();
    if following.is_empty() {
        return true;
    }
    let below = rest
        .iter()
        .copied()
        .filter(|&t| field.teams[t].level + 1 < level);
    let candidates: Vec<Vec<usize>> = if following.len().is_multiple_of(2) {
        vec![Vec::new()]
    } else {
        below.map(|t| vec![t]).collect()
    };
    candidates.into_iter().any(|ups| {
        let mut bracket = following.clone();
        bracket.extend_from_slice(&ups);
        if !can_be_paired(field, &bracket) {
            return false;
        }
        let others: Vec<usize> = rest
            .iter()
            .copied()
            .filter(|t| !bracket.contains(t))
            .collect();
        can_be_paired(field, &others)
    })
}

/// The quality of the pair `a`, `b` in the bracket of `level` (art. 2.3).
pub(crate) fn quality(field: &Field, level: usize, a: usize, b: usize) -> Quality {
    let (ta, tb) = (&field.teams[a], &field.teams[b]);
    let up = |t: &super::field::Entrant| t.level < level;
    let mut q = Quality {
        upfloaters: u32::from(up(ta)) + u32::from(up(tb)),
        ..Quality::default()
    };
    if !field.last_two_rounds() {
        q.floater_opponents = u32::from(up(ta) && tb.floated) + u32::from(up(tb) && ta.floated);
    }
    if let (Some(pa), Some(pb)) = (ta.preference, tb.preference)
        && pa.colour == pb.colour
    {
        q.same_preference = true;
        q.both_strong =
            field.colour_preferences == ColourPreferences::TypeB && pa.strong && pb.strong;
    }
    q
}

type Pairs = Vec<(usize, usize, Quality)>;

/// Art. 3.6: the bracket's pairing. Of the pairings with the fewest [C8], then [C9], then [C10],
/// the first in the order of art. 3.6.2's identifiers: the top members (the lower bracket
/// numbers, by TPN) as small as they can be, then the bottom members in the order of theirs.
/// One least-weight matching finds it, as FIDE's checker does. The pairs come top member first.
fn pair_teams(field: &Field, level: usize, teams: &[usize]) -> Result<(Pairs, bool), Impossible> {
    let mut by_tpn = teams.to_vec();
    by_tpn.sort_by_key(|&t| field.teams[t].tpn);
    let b = by_tpn.len();
    // The first identifier of all: 1 with k+1, 2 with k+2, ...; nothing can beat it when legal
    // and free of [C8], [C9], [C10].
    let k = b / 2;
    let fold: Option<Pairs> = (0..k)
        .map(|i| {
            let (x, y) = (by_tpn[i], by_tpn[k + i]);
            let q = quality(field, level, x, y);
            let clean = !q.same_preference && !q.both_strong && q.floater_opponents == 0;
            (field.can_meet(x, y) && clean).then_some((x, y, q))
        })
        .collect();
    if let Some(pairs) = fold {
        return Ok((pairs, true));
    }
    let bits = (b + 3) as f64 * ((b + 1) as f64).log2() + b as f64 + 80.0;
    let limbs = (bits / 64.0).ceil() as usize;
    let mate = match limbs {
        0..=2 => least::<2>(field, level, &by_tpn),
        3..=4 => least::<4>(field, level, &by_tpn),
        5..=8 => least::<8>(field, level, &by_tpn),
        9..=16 => least::<16>(field, level, &by_tpn),
        17..=32 => least::<32>(field, level, &by_tpn),
        33..=64 => least::<64>(field, level, &by_tpn),
        65..=128 => least::<128>(field, level, &by_tpn),
        129..=256 => least::<256>(field, level, &by_tpn),
        _ => None,
    };
    let Some(mate) = mate else {
        return Err(Impossible {
            rule: "C.04.6 art. 3.6",
            message: format!(
                "the bracket of {} points ({b} teams) could not be paired; the Chief Arbiter decides what to do",
                field.level_scores.get(level).copied().unwrap_or(0.0)
            ),
        });
    };
    let pairs = (0..b)
        .filter(|&i| i < mate[i])
        .map(|i| {
            let (x, y) = (by_tpn[i], by_tpn[mate[i]]);
            (x, y, quality(field, level, x, y))
        })
        .collect();
    Ok((pairs, false))
}

/// The least-weight perfect matching of the bracket (teams by TPN), as bracket positions.
fn least<const N: usize>(field: &Field, level: usize, by_tpn: &[usize]) -> Option<Vec<usize>> {
    let b = by_tpn.len();
    let base = (b + 1) as u64;
    let one = Wide::<N>::from_u64(1);
    let mut pow_base = vec![one];
    for _ in 0..b + 2 {
        let last = *pow_base.last()?;
        pow_base.push(last.mul_small(base)?);
    }
    let wtop = pow_base[b];
    let mut top_bits = vec![wtop];
    for _ in 0..b {
        let last = *top_bits.last()?;
        top_bits.push(last.mul_small(2)?);
    }
    let w10 = top_bits[b];
    let w9 = w10.mul_small(base)?;
    let w8 = w9.mul_small(base)?;
    let mut edges = Vec::new();
    for i in 0..b {
        for j in i + 1..b {
            let (x, y) = (by_tpn[i], by_tpn[j]);
            if !field.can_meet(x, y) {
                continue;
            }
            let q = quality(field, level, x, y);
            // Bracket numbers from 1: i + 1 is the top member, j + 1 the bottom one.
            let mut w = top_bits[b - (j + 1)] + pow_base[b - (i + 1)].mul_small((j + 1) as u64)?;
            if q.same_preference {
                w = w + w8;
            }
            if q.both_strong {
                w = w + w9;
            }
            w = w + w10.mul_small(u64::from(q.floater_opponents))?;
            edges.push((i, j, w));
        }
    }
    min_weight_perfect(b, &edges)
}
