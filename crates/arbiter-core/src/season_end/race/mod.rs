//! The race while the season runs, told exactly from the first round: for each team the best
//! and the worst final place still possible under the division's own criteria, with "clinched
//! first", "clinched a playoff place" (GT-F3's `[playoffs] qualifiers_per_division`), out of
//! the title, "eliminated" from the playoffs, and in words what the team needs.
//!
//! Every remaining match may end in any of its board scores (`remaining`). The answer is
//! worked out by methods that scale, each leaving a certificate (`certificate`):
//!
//! - `bounds`: with the first criterion a total (`MP`, `GP`), the elimination argument by
//!   maximum flow (`flow`) bounds each team's best place, a counting argument its worst, and
//!   scenarios built by the same flows reach places, ranked by the real standings. Where the
//!   bounds meet, the team is decided; early in a season that is every team.
//! - `sets`: for a team the bounds leave open, which others to push past it (or let past it),
//!   a set tried by one flow: the largest set pushed past (the fewest let past) is a scenario,
//!   ranked by the real standings, and the search over sets exhausted proves the first
//!   criterion's bound exactly where counting only estimates it.
//! - `search`: for the teams the bounds leave open, the exact search over the classes of the
//!   remaining matches with the tie-break criteria inside, within a work budget.
//! - `bnb`: when that search is too large (mid-season), a branch and bound for each team still
//!   open: its best place tried from the flow's bound on, one place at a time, deciding one
//!   match at a time and cut by the bounds on the matches still free, until a scenario reaches
//!   the place (its certificate) or the search is exhausted (the proof that none does); its
//!   worst place likewise. The questions that decide a label come first (can it still reach
//!   first place, the last playoff place; can it still fall past them), each with a share of
//!   the budget, and only then the places that change no label. Before them, a climb from each
//!   place reached toward its bound, one match's class changed at a time, finds the scenarios
//!   that are easy to find, so the proof only has to close what is left.
//! - `needs`: what a team needs, only as a condition proved sufficient.
//!
//! Past the budget the teams already decided are told and the others are "not yet decided",
//! never a guess. Teams equal on every criterion share a place (AS-18): the best place is the
//! first of a shared place, the worst the last, so "clinched first" is never a shared first.

mod bnb;
mod bounds;
mod certificate;
mod flow;
mod needs;
mod remaining;
mod search;
mod sets;
#[cfg(test)]
mod tests;

use serde::Serialize;

pub use certificate::{Argument, Certificate, MatchResult, Reached, replay};

use crate::record::model::{Competition, TeamId};
use crate::rules::ruleset::Ruleset;
use crate::scoring::standings::{self, StandingsError};
use bounds::Points;
use remaining::Division;
use search::Question;

/// The work the race may do for one division: scenarios ranked, groups ordered by the search,
/// and flows of the search over sets, nodes of the branch and bound and steps of a climb (two
/// units each). Chosen by the bench (docs/benchmarks.md): a draw of a division of up to 16
/// teams stays under a tenth of a second on one core at p99 (twice as much took it past); the
/// few teams it leaves open are "not yet decided".
pub const DEFAULT_BUDGET: u64 = 20_000;

/// The most work the search over sets ([`sets`]) may do for one question of one team: a few
/// dozen flows, so that the branch and bound keeps most of the budget.
const SETS: u64 = 200;

/// The race of one division.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Race {
    /// The division.
    pub division: String,
    /// Matches still to play.
    pub matches_left: u32,
    /// GT-F3: the places that qualify for the playoffs, when the ruleset has playoffs.
    pub qualifiers: Option<u32>,
    /// Every team, in the current standings' order.
    pub teams: Vec<TeamRace>,
    /// The work done: scenarios ranked and group orders evaluated.
    pub evaluations: u64,
}

/// One team's race.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TeamRace {
    /// The team.
    pub team: TeamId,
    /// Its name.
    pub name: String,
    /// Its place now, as the standings print it.
    pub place: String,
    /// No better final place is possible (the first of a shared place).
    pub best: u32,
    /// No worse final place is possible (the last of a shared place).
    pub worst: u32,
    /// Whether `best` and `worst` are both reached by a scenario: the race of this team is
    /// exact. When not, the places it is known to reach are its certificate's.
    pub exact: bool,
    /// First place: clinched, open, out, or not yet decided.
    pub title: Chance,
    /// A playoff place (GT-F3), when the ruleset has playoffs.
    pub playoffs: Option<Chance>,
    /// Clinched, eliminated, still open or not yet decided.
    pub label: RaceLabel,
    /// What it needs, in words: only conditions proved sufficient.
    pub needs: String,
    /// When first place is open: on what it comes, "if it wins both its remaining matches", "if
    /// it beats Start, and St. Ursula loses to Start", "if other results go its way".
    pub title_if: Option<String>,
    /// The conditions `needs` states, each proved sufficient.
    #[serde(skip)]
    pub conditions: Vec<Condition>,
    /// What the places rest on.
    #[serde(skip)]
    pub certificate: Certificate,
}

/// A team's chance of a goal (first place, a playoff place).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Chance {
    /// Reached whatever happens.
    Clinched,
    /// Possible, not certain.
    Open,
    /// Impossible whatever happens.
    Out,
    /// The budget stopped before it was decided.
    NotYetDecided,
}

/// Where a team stands in the race.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RaceLabel {
    /// First place, alone, whatever happens.
    ClinchedFirst,
    /// A playoff place (GT-F3), whatever happens.
    ClinchedPlayoffPlace,
    /// No playoff place is possible any more.
    Eliminated,
    /// Still to be decided.
    Open,
    /// The budget stopped before its race was decided: it is not told rather than guessed.
    NotYetDecided,
}

impl RaceLabel {
    /// As the standings show it: `clinched first`, `clinched a playoff place`, `eliminated`,
    /// `not yet decided`.
    pub fn words(self) -> &'static str {
        match self {
            RaceLabel::ClinchedFirst => "clinched first",
            RaceLabel::ClinchedPlayoffPlace => "clinched a playoff place",
            RaceLabel::Eliminated => "eliminated",
            RaceLabel::Open => "",
            RaceLabel::NotYetDecided => "not yet decided",
        }
    }
}

/// A condition proved sufficient for a place: every outcome of the remaining matches that
/// meets it puts the team at `target` or better.
#[derive(Debug, Clone, PartialEq)]
pub struct Condition {
    /// The place it gives at worst (1: first; the qualifiers: a playoff place).
    pub target: u32,
    /// The least the team scores of the first criterion from its remaining matches.
    pub least: Option<f64>,
    /// Results it needs: each match's first-criterion score for its first-named team.
    pub results: Vec<Required>,
}

/// One result a condition needs.
#[derive(Debug, Clone, PartialEq)]
pub struct Required {
    /// The round's number.
    pub round: u32,
    /// The first-named team.
    pub home: TeamId,
    /// The second-named team.
    pub away: TeamId,
    /// What the first-named team scores of the first criterion.
    pub home_scores: f64,
}

/// Why the race cannot be told.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum RaceError {
    /// The standings could not be computed.
    #[error("{0}")]
    Standings(#[from] StandingsError),
}

/// What is known of one team while the race is worked out: bounds, and the scenarios that
/// reach them.
#[derive(Debug, Clone)]
struct Known {
    /// No better place (proved), and why.
    best_bound: usize,
    no_better: Argument,
    /// The best place reached by a scenario, and the scenario.
    best_reached: usize,
    at_best: Option<Vec<usize>>,
    /// The worst place reached, and the scenario.
    worst_reached: usize,
    at_worst: Option<Vec<usize>>,
    /// No worse place (proved), and why.
    worst_bound: usize,
    no_worse: Argument,
}

impl Known {
    fn exact(&self) -> bool {
        self.best_bound == self.best_reached && self.worst_bound == self.worst_reached
    }
}

/// The race of `competition` under `rules`, within `budget` units of work.
pub fn race(competition: &Competition, rules: &Ruleset, budget: u64) -> Result<Race, RaceError> {
    race_with(competition, rules, budget, true, true)
}

/// The race, the whole-division search tried first when `whole`, the branch and bound for the
/// teams still open when `branch` (the tests turn each off to hold the other alone against the
/// brute force).
fn race_with(
    competition: &Competition,
    rules: &Ruleset,
    budget: u64,
    whole: bool,
    branch: bool,
) -> Result<Race, RaceError> {
    let now = standings::standings(competition, rules)?;
    let d = Division::new(competition, rules);
    let n = d.n();
    let active = d.dropped.iter().filter(|x| !**x).count();
    let mut left = budget;
    let mut known: Vec<Known> = (0..n)
        .map(|_| Known {
            best_bound: 1,
            no_better: Argument::Ends,
            best_reached: usize::MAX,
            at_best: None,
            worst_reached: 0,
            at_worst: None,
            worst_bound: active,
            no_worse: Argument::Ends,
        })
        .collect();
    let points = Points::new(&d);
    let try_scenario = |known: &mut [Known], pick: Vec<usize>, left: &mut u64| {
        *left = left.saturating_sub(1);
        let ranks = d.rank(&pick)?;
        for (t, &(lo, hi)) in ranks.iter().enumerate() {
            if d.dropped[t] {
                continue;
            }
            let k = &mut known[t];
            if lo < k.best_reached {
                k.best_reached = lo;
                k.at_best = Some(pick.clone());
            }
            if hi > k.worst_reached {
                k.worst_reached = hi;
                k.at_worst = Some(pick.clone());
            }
        }
        Ok::<(), StandingsError>(())
    };
    for t in (0..n).filter(|&t| !d.dropped[t]) {
        if let Some(p) = &points {
            let nb = bounds::no_better(&d, p, t);
            if nb.place > known[t].best_bound {
                known[t].best_bound = nb.place;
                known[t].no_better = Argument::Flow {
                    ahead: u32::try_from(nb.ahead).unwrap_or(u32::MAX),
                    deficit: p.points(nb.deficit),
                    must_pass: u32::try_from(nb.must_pass).unwrap_or(u32::MAX),
                };
            }
            let nw = bounds::no_worse(&d, p, t, None);
            if nw.place < known[t].worst_bound {
                known[t].worst_bound = nw.place;
                known[t].no_worse = Argument::Counting {
                    can_reach: u32::try_from(nw.can_reach).unwrap_or(u32::MAX),
                };
            }
        }
        // Scenarios, tried one by one until one reaches the bound.
        for margin in [1, 0] {
            if known[t].best_reached <= known[t].best_bound || left == 0 {
                break;
            }
            let picks = match &points {
                Some(p) => bounds::best_scenarios(&d, p, t, margin),
                None if margin == 1 => vec![extreme(&d, t, true)],
                None => Vec::new(),
            };
            for pick in picks {
                if known[t].best_reached > known[t].best_bound {
                    try_scenario(&mut known, pick, &mut left)?;
                }
            }
        }
        if known[t].worst_reached < known[t].worst_bound && left > 0 {
            let picks = match &points {
                Some(p) => bounds::worst_scenarios(&d, p, t),
                None => vec![extreme(&d, t, false)],
            };
            for pick in picks {
                if known[t].worst_reached < known[t].worst_bound {
                    try_scenario(&mut known, pick, &mut left)?;
                }
            }
        }
    }
    // The search over sets, for the teams the bounds and their scenarios leave open: which
    // teams to push past each (or let past it), a set tried by one flow; a scenario of the
    // best set found ranked, and the bound proved when the search is exhausted.
    if let Some(p) = &points {
        for t in (0..n).filter(|&t| !d.dropped[t]) {
            for margin in [1, 0] {
                let k = &known[t];
                if k.worst_reached >= k.worst_bound || left == 0 {
                    break;
                }
                let mut cap = left.min(SETS);
                let found = sets::pushed_past(&d, p, t, margin, k.worst_bound - 1, &mut cap);
                left -= left.min(SETS) - cap;
                if let Some(classes) = &found.classes {
                    let pick = sets::favoured(&d, p, t, classes, false, &found.set);
                    try_scenario(&mut known, pick, &mut left)?;
                }
                let k = &mut known[t];
                if margin == 0 && found.exhausted && found.count + 1 < k.worst_bound {
                    k.worst_bound = found.count + 1;
                    k.no_worse = Argument::Sets {
                        can_reach: Some(u32::try_from(found.count).unwrap_or(u32::MAX)),
                        must_pass: None,
                    };
                }
            }
            for margin in [1, 0] {
                let k = &known[t];
                if k.best_reached <= k.best_bound || left == 0 {
                    break;
                }
                let mut cap = left.min(SETS);
                let found = sets::let_past(
                    &d,
                    p,
                    t,
                    margin,
                    k.best_bound - 1,
                    k.best_reached.saturating_sub(2),
                    &mut cap,
                );
                left -= left.min(SETS) - cap;
                if let Some(classes) = &found.classes {
                    let pick = sets::favoured(&d, p, t, classes, true, &found.set);
                    try_scenario(&mut known, pick, &mut left)?;
                }
                let k = &mut known[t];
                if margin == 0 && found.count + 1 > k.best_bound {
                    k.best_bound = found.count + 1;
                    k.no_better = Argument::Sets {
                        can_reach: None,
                        must_pass: Some(u32::try_from(found.count).unwrap_or(u32::MAX)),
                    };
                }
            }
        }
    }
    // The search, for the teams the bounds leave open; it also tells what each team needs exactly, so it is done whenever it is cheap.
    let open = (0..n).any(|t| !d.dropped[t] && !known[t].exact());
    let all = Question::all(&d);
    let found = if !whole {
        None
    } else if open || search::cost(&d, &all) * 2.0 <= left as f64 {
        search::search(&d, &all, &mut left)?
    } else {
        None
    };
    let qualifiers = rules.playoffs.as_ref().map(|p| p.qualifiers_per_division);
    let q = qualifiers.map(|q| usize::try_from(q).unwrap_or(usize::MAX));
    if found.is_none()
        && open
        && branch
        && let (Some(p), Some(criteria)) = (&points, search::native_criteria(&d))
    {
        settle(&d, p, &criteria, &all, &mut known, q, &mut left);
    }
    if let Some(found) = &found {
        for t in (0..n).filter(|&t| !d.dropped[t]) {
            let k = &mut known[t];
            k.best_bound = found.best[t];
            k.best_reached = found.best[t];
            k.at_best = Some(found.at_best[t].clone());
            k.no_better = Argument::Search;
            k.worst_bound = found.worst[t];
            k.worst_reached = found.worst[t];
            k.at_worst = Some(found.at_worst[t].clone());
            k.no_worse = Argument::Search;
        }
    }

    let dropped_rows: usize = d.dropped.iter().filter(|x| **x).count();
    let as_u32 = |x: usize| u32::try_from(x).unwrap_or(u32::MAX);
    let mut teams = Vec::with_capacity(n);
    for row in &now.rows {
        let t = row.team;
        let team = &competition.teams[t];
        let k = &known[t];
        if d.dropped[t] {
            // GT-M5: below every team still in the league, among the dropped in their order.
            let shared = now.rows.iter().filter(|r| r.rank == row.rank).count();
            let (best, worst) = if dropped_rows == 1 {
                (row.rank, row.rank + shared - 1)
            } else {
                (active + 1, n)
            };
            teams.push(TeamRace {
                team: team.id.clone(),
                name: team.name.clone(),
                place: row.place.clone(),
                best: as_u32(best),
                worst: as_u32(worst),
                exact: dropped_rows == 1,
                title: Chance::Out,
                playoffs: q.map(|_| Chance::Out),
                label: if q.is_some() {
                    RaceLabel::Eliminated
                } else {
                    RaceLabel::Open
                },
                needs: format!(
                    "Dropped from the league{}: it finishes below every team still in it, {}.",
                    rules
                        .cite("drop")
                        .map_or(String::new(), |id| format!(" ({id})")),
                    if dropped_rows == 1 {
                        ordinal(as_u32(best))
                    } else {
                        format!(
                            "between {} and {}",
                            ordinal(as_u32(best)),
                            ordinal(as_u32(worst))
                        )
                    }
                ),
                title_if: None,
                conditions: Vec::new(),
                certificate: Certificate {
                    team: team.id.clone(),
                    best: None,
                    worst: None,
                    no_better: Argument::Dropped,
                    no_worse: Argument::Dropped,
                },
            });
            continue;
        }
        let chance = |goal: usize| {
            if k.worst_bound <= goal {
                Chance::Clinched
            } else if k.best_bound > goal {
                Chance::Out
            } else if k.best_reached <= goal && k.worst_reached > goal {
                Chance::Open
            } else {
                Chance::NotYetDecided
            }
        };
        let title = chance(1);
        let playoffs = q.map(chance);
        let label = match (title, playoffs) {
            (Chance::Clinched, _) => RaceLabel::ClinchedFirst,
            (_, Some(Chance::Clinched)) => RaceLabel::ClinchedPlayoffPlace,
            (_, Some(Chance::Out)) => RaceLabel::Eliminated,
            (_, Some(Chance::NotYetDecided)) | (Chance::NotYetDecided, None) => {
                RaceLabel::NotYetDecided
            }
            _ => RaceLabel::Open,
        };
        let reached = |pick: &Option<Vec<usize>>, place: usize| {
            pick.as_ref().map(|p| Reached {
                place: as_u32(place),
                results: certificate::results(&d, p),
            })
        };
        let told = needs::Told {
            title,
            playoffs,
            qualifiers: q,
            best: k.best_bound,
            exact_best: k.best_bound == k.best_reached,
            at_best: k.at_best.as_deref(),
            found: found.as_ref(),
        };
        let needs = needs::needs(&d, points.as_ref(), t, &told, &mut left)?;
        teams.push(TeamRace {
            team: team.id.clone(),
            name: team.name.clone(),
            place: row.place.clone(),
            best: as_u32(k.best_bound),
            worst: as_u32(k.worst_bound),
            exact: k.exact(),
            title,
            playoffs,
            label,
            needs: needs.sentence,
            title_if: needs.title_if,
            conditions: needs.conditions,
            certificate: Certificate {
                team: team.id.clone(),
                best: reached(&k.at_best, k.best_reached),
                worst: reached(&k.at_worst, k.worst_reached),
                no_better: k.no_better.clone(),
                no_worse: k.no_worse.clone(),
            },
        });
    }
    Ok(Race {
        division: competition.name.clone(),
        matches_left: as_u32(d.remaining.len()),
        qualifiers,
        teams,
        evaluations: budget - left,
    })
}

/// The branch and bound for each team the bounds leave open, within `left`. The labels first:
/// for first place and the last playoff place (GT-F3's qualifiers), whether the team can still
/// reach it and whether it can still fall past it; then its best place tried from the flow's
/// bound down the places until a scenario reaches one (each place passed is proved out of reach
/// by the search exhausted), its worst likewise: places that change no label.
fn settle(
    d: &Division,
    p: &Points,
    criteria: &[search::Crit],
    all: &Question,
    known: &mut [Known],
    qualifiers: Option<usize>,
    left: &mut u64,
) {
    let mut s = search::Search::new(d, all, criteria, left);
    let goals: Vec<usize> = std::iter::once(1)
        .chain(qualifiers.filter(|&q| q > 1))
        .collect();
    // The questions that decide a label: (team, at best, target).
    let open = |known: &[Known]| -> Vec<(usize, bool, usize)> {
        let mut out = Vec::new();
        for t in (0..d.n()).filter(|&t| !d.dropped[t]) {
            let k = &known[t];
            for &g in &goals {
                if k.best_bound <= g && g < k.best_reached {
                    out.push((t, true, g));
                }
                if k.worst_reached <= g && g < k.worst_bound {
                    out.push((t, false, g + 1));
                }
            }
        }
        out
    };
    // First a climb from each place reached toward its bound: a scenario found cheaply spares
    // the proof, and for a label it is the whole answer. Those that decide a label first.
    let mut climbs: Vec<(usize, bool)> = (0..d.n())
        .filter(|&t| !d.dropped[t])
        .flat_map(|t| [(t, true), (t, false)])
        .filter(|&(t, best)| {
            let k = &known[t];
            if best {
                k.best_bound < k.best_reached && k.at_best.is_some()
            } else {
                k.worst_bound > k.worst_reached && k.at_worst.is_some()
            }
        })
        .collect();
    let decides = |k: &Known, best: bool| {
        goals.iter().any(|&g| {
            if best {
                k.best_bound <= g && g < k.best_reached
            } else {
                k.worst_reached <= g && g < k.worst_bound
            }
        })
    };
    climbs.sort_by_key(|&(t, best)| !decides(&known[t], best));
    let cap = s.left() / 4 / (climbs.len() as u64).max(1);
    for (t, best) in climbs {
        let k = &mut known[t];
        let (from, bound) = if best {
            (k.at_best.as_deref(), k.best_bound)
        } else {
            (k.at_worst.as_deref(), k.worst_bound)
        };
        let Some(from) = from.map(<[usize]>::to_vec) else {
            continue;
        };
        let found = s.capped(cap, |s| climb(d, p, s, t, best, &from, bound));
        match found {
            Some((pick, place)) if best && place < k.best_reached => {
                k.best_reached = place;
                k.at_best = Some(pick);
            }
            Some((pick, place)) if !best && place > k.worst_reached => {
                k.worst_reached = place;
                k.at_worst = Some(pick);
            }
            _ => {}
        }
    }
    let labels = open(known);
    let mut questions = labels.len() as u64;
    for (t, best, target) in labels {
        // Each open question gets its share of the work left, so one hard team does not leave
        // the others undecided; one answered by another's scenario is not asked.
        let cap = s.left() / questions.max(1);
        questions -= 1;
        let k = &mut known[t];
        let still = if best {
            k.best_bound <= target && target < k.best_reached
        } else {
            k.worst_reached < target && target <= k.worst_bound
        };
        if still {
            s.capped(cap, |s| ask(d, p, s, t, best, target, k));
        }
    }
    let mut questions = known
        .iter()
        .enumerate()
        .filter(|(t, _)| !d.dropped[*t])
        .map(|(_, k)| {
            usize::from(k.best_bound < k.best_reached)
                + usize::from(k.worst_bound > k.worst_reached)
        })
        .sum::<usize>() as u64;
    let mut share = |s: &search::Search| {
        let x = s.left() / questions.max(1);
        questions = questions.saturating_sub(1);
        x
    };
    for t in (0..d.n()).filter(|&t| !d.dropped[t]) {
        let k = &mut known[t];
        if k.best_bound < k.best_reached {
            let cap = share(&s);
            s.capped(cap, |s| {
                while k.best_bound < k.best_reached && s.left() > 0 {
                    if !ask(d, p, s, t, true, k.best_bound, k) {
                        break;
                    }
                }
            });
        }
        if k.worst_bound > k.worst_reached {
            let cap = share(&s);
            s.capped(cap, |s| {
                while k.worst_bound > k.worst_reached && s.left() > 0 {
                    if !ask(d, p, s, t, false, k.worst_bound, k) {
                        break;
                    }
                }
            });
        }
    }
}

/// A climb over the classes of the matches without `t`, from the scenario `from`: one match's
/// class changed at a time, kept when `t`'s place (ranked exactly, tie-breaks inside) moves
/// toward `bound`, or stays and the first criterion's gap to the teams in the way narrows. The
/// best scenario found and its place; it stops at `bound` or past its share of the work.
fn climb(
    d: &Division,
    p: &Points,
    s: &mut search::Search,
    t: usize,
    best: bool,
    from: &[usize],
    bound: usize,
) -> Option<(Vec<usize>, usize)> {
    let mut classes: Vec<usize> = d
        .remaining
        .iter()
        .zip(from)
        .map(|(r, &o)| r.classes.iter().position(|c| c.contains(&o)).unwrap_or(0))
        .collect();
    // Lower is better: the place (negated at worst), then the gap on the first criterion.
    // A step costs about what a node of the branch and bound does (the bench): two units.
    let judge = |s: &mut search::Search, classes: &[usize]| {
        s.spend()?;
        s.spend()?;
        let [(lo, at_lo), (hi, at_hi)] = s.place_of(t, classes)?;
        let mut value = p.now.clone();
        for (m, &c) in classes.iter().enumerate() {
            let r = &d.remaining[m];
            value[r.teams[0]] += p.class[m][c][0];
            value[r.teams[1]] += p.class[m][c][1];
        }
        let gap: i64 = (0..d.n())
            .filter(|&u| u != t && !d.dropped[u])
            .map(|u| {
                if best {
                    (value[u] - value[t] + 1).max(0)
                } else {
                    (value[t] - value[u]).max(0)
                }
            })
            .sum();
        Some(if best {
            ((lo as i64, gap), at_lo, lo)
        } else {
            ((-(hi as i64), gap), at_hi, hi)
        })
    };
    let (mut key, mut pick, mut place) = judge(s, &classes)?;
    let start = place;
    let free: Vec<usize> = (0..d.remaining.len())
        .filter(|&m| d.remaining[m].side_of(t).is_none())
        .collect();
    let mut moved = true;
    while moved && place != bound {
        moved = false;
        for &m in &free {
            let was = classes[m];
            for c in 0..p.class[m].len() {
                if c == was {
                    continue;
                }
                classes[m] = c;
                let Some((k, at, pl)) = judge(s, &classes) else {
                    return (place != start).then_some((pick, place));
                };
                if k < key {
                    (key, pick, place) = (k, at, pl);
                    moved = true;
                    break;
                }
                classes[m] = was;
            }
            if place == bound {
                break;
            }
        }
    }
    (place != start).then_some((pick, place))
}

/// Whether `t` can finish at `target` or better (`best`), or at `target` or worse, by the branch
/// and bound: a scenario found is kept as the place reached, a search exhausted moves the bound
/// past `target`. False when the budget ran out first.
fn ask<'a>(
    d: &'a Division<'a>,
    p: &Points,
    s: &mut search::Search<'a, '_>,
    t: usize,
    best: bool,
    target: usize,
    k: &mut Known,
) -> bool {
    match bnb::reach(d, p, s, t, best, target) {
        bnb::Reach::Found(pick, place) if best => {
            if place < k.best_reached {
                k.best_reached = place;
                k.at_best = Some(pick);
            }
        }
        bnb::Reach::Found(pick, place) => {
            if place > k.worst_reached {
                k.worst_reached = place;
                k.at_worst = Some(pick);
            }
        }
        bnb::Reach::Impossible if best => {
            k.best_bound = k.best_bound.max(target + 1);
            k.no_better = Argument::Search;
        }
        bnb::Reach::Impossible => {
            k.worst_bound = k.worst_bound.min(target - 1);
            k.no_worse = Argument::Search;
        }
        bnb::Reach::Unknown => return false,
    }
    true
}

/// A scenario in which `t` wins (or loses) every match it has left by as much as it can, the
/// others ending in their first outcome: for criteria no flow reads.
fn extreme(d: &Division, t: usize, best: bool) -> Vec<usize> {
    d.remaining
        .iter()
        .map(|r| match r.side_of(t) {
            Some(s) => {
                let margin = |o: &usize| {
                    let x = &r.outcomes[*o];
                    x.gp[s] - x.gp[1 - s]
                };
                let all = 0..r.outcomes.len();
                let o = if best {
                    all.max_by(|a, b| margin(a).total_cmp(&margin(b)))
                } else {
                    all.min_by(|a, b| margin(a).total_cmp(&margin(b)))
                };
                o.unwrap_or(0)
            }
            None => 0,
        })
        .collect()
}

/// `1st`, `2nd`, `3rd`, `11th`.
pub fn ordinal(n: u32) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}
