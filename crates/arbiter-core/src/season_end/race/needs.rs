//! What a team needs, in words a parent reads: the simplest condition the race can prove
//! sufficient ("wins both its remaining matches", "wins its last match and St. Ursula loses to
//! Start"), never one that is not. A condition on its own results comes first, the least it must
//! score of the first criterion; then, when the place is out of its own hands, its results and
//! the others' it needs, as few as the proof allows. Each is proved by the counting bound or the
//! exact search; what cannot be proved within the budget is not said.

use super::bounds::{self, Points};
use super::remaining::{Division, Primary};
use super::search::{self, Found, Question};
use super::{Chance, Condition, Required, ordinal};
use crate::record::words::{list, number};
use crate::scoring::standings::StandingsError;

/// The most other matches whose results a sentence may name: past it, "other results".
const NAMED_RESULTS: usize = 12;

/// What the race knows of the team, for its sentence.
pub(super) struct Told<'a> {
    pub title: Chance,
    pub playoffs: Option<Chance>,
    pub qualifiers: Option<usize>,
    /// No better place (proved), and whether a scenario reaches it.
    pub best: usize,
    pub exact_best: bool,
    /// The scenario of its best place reached.
    pub at_best: Option<&'a [usize]>,
    /// The exact search of every outcome, when it was done.
    pub found: Option<&'a Found>,
}

/// What a team needs: the sentence, the conditions it states, and the condition of first place
/// alone ("if it wins both its remaining matches"), for the media report.
pub(super) struct Needs {
    pub sentence: String,
    pub conditions: Vec<Condition>,
    pub title_if: Option<String>,
}

/// The sentence of team `t`, and the conditions it states.
pub(super) fn needs(
    d: &Division,
    p: Option<&Points>,
    t: usize,
    told: &Told,
    left: &mut u64,
) -> Result<Needs, StandingsError> {
    if told.title == Chance::Clinched {
        return Ok(Needs {
            sentence: "Has clinched first place.".into(),
            conditions: Vec::new(),
            title_if: None,
        });
    }
    let mut out: Vec<String> = Vec::new();
    let mut conditions = Vec::new();
    let mut title_if = None;
    if told.playoffs == Some(Chance::Clinched) {
        out.push("Has clinched a playoff place.".into());
    }
    let mut aim = |what: &str, goal: usize, out: &mut Vec<String>| {
        let found = condition(d, p, t, goal, told, left)?;
        let when = match &found {
            Some((c, words, true)) => {
                out.push(format!("{what} is certain if {words}."));
                conditions.push(c.clone());
                format!("if {words}")
            }
            Some((c, words, false)) => {
                out.push(format!(
                    "{what} is out of its own hands: it is certain if {words}."
                ));
                conditions.push(c.clone());
                format!("if {words}")
            }
            None => {
                out.push(format!("{what} is possible, if other results go its way."));
                "if other results go its way".to_string()
            }
        };
        Ok::<String, StandingsError>(when)
    };
    match told.title {
        Chance::Open => title_if = Some(aim("First place", 1, &mut out)?),
        Chance::NotYetDecided => {
            out.push("Whether it can still finish first is not yet decided.".into());
        }
        _ => {}
    }
    match (told.playoffs, told.qualifiers) {
        (Some(Chance::Open), Some(q)) => {
            aim("A playoff place", q, &mut out)?;
        }
        (Some(Chance::NotYetDecided), _) => {
            out.push("Whether it can still reach a playoff place is not yet decided.".into());
        }
        (Some(Chance::Out), _) => {
            let best = ordinal(u32::try_from(told.best).unwrap_or(u32::MAX));
            out.push(if told.exact_best {
                format!("Cannot reach a playoff place; its best finish is {best}.")
            } else {
                format!("Cannot reach a playoff place; it finishes {best} at best.")
            });
        }
        _ => {}
    }
    if told.title == Chance::Out && told.playoffs != Some(Chance::Out) {
        out.push("Cannot finish first.".into());
    }
    if d.own[t].is_empty() && !matches!(told.title, Chance::Out | Chance::Clinched) {
        out.push("Its matches are played; its place depends on the others' results.".into());
    }
    Ok(Needs {
        sentence: out.join(" "),
        conditions,
        title_if,
    })
}

/// The simplest condition proved to put `t` at `goal` or better: the condition, its words
/// ("it wins both its remaining matches") and whether they are of its own results only; `None`
/// when none is proved.
fn condition(
    d: &Division,
    p: Option<&Points>,
    t: usize,
    goal: usize,
    told: &Told,
    left: &mut u64,
) -> Result<Option<(Condition, String, bool)>, StandingsError> {
    let at_best = told.at_best;
    let Some(primary) = d.primary else {
        return Ok(None);
    };
    let own = &d.own[t];
    let target = u32::try_from(goal).unwrap_or(u32::MAX);
    // Its own results: the least it must score, from the least that can be.
    let gains = gains(d, t, primary);
    for &g in gains.iter().skip(1) {
        // The exact search's worst place from this gain on, or the counting bound.
        let proved = match told.found {
            Some(f) => f.worst_from(t, g).is_some_and(|w| w <= goal),
            None => p.is_some_and(|p| {
                let units = (g * p.scale).round() as i64;
                bounds::no_worse(d, p, t, Some(units)).place <= goal
            }),
        };
        if proved {
            let most = gains.last().copied().unwrap_or(0.0);
            let words = own_words(d, t, primary, g, g >= most);
            let c = Condition {
                target,
                least: Some(g),
                results: Vec::new(),
            };
            return Ok(Some((c, format!("it {words}"), true)));
        }
    }
    // Out of its own hands: its results and the others' of a scenario of its best place (the
    // one found, and those the flow builds holding the others below it), proved together, then
    // as few of the others' as the proof allows; the scenario needing fewest wins.
    let others: Vec<usize> = (0..d.remaining.len())
        .filter(|m| !own.contains(m))
        .collect();
    if others.len() > NAMED_RESULTS {
        return Ok(None);
    }
    let mut candidates: Vec<Vec<usize>> = at_best.iter().map(|p| p.to_vec()).collect();
    if let Some(p) = p {
        candidates.extend(bounds::best_scenarios(d, p, t, 1));
    }
    let holds = |q: &Question, left: &mut u64| -> Result<bool, StandingsError> {
        Ok(search::search(d, q, left)?.is_some_and(|f| f.worst[t] <= goal))
    };
    let mut chosen: Option<Question> = None;
    for pick in candidates {
        let class_of = |m: usize| {
            d.remaining[m]
                .classes
                .iter()
                .position(|c| c.contains(&pick[m]))
                .unwrap_or(0)
        };
        let mut q = Question {
            allowed: (0..d.remaining.len()).map(|m| vec![class_of(m)]).collect(),
        };
        if chosen.as_ref().is_some_and(|c| c.allowed == q.allowed) || !holds(&q, left)? {
            continue;
        }
        for &m in &others {
            let fixed = std::mem::replace(
                &mut q.allowed[m],
                (0..d.remaining[m].classes.len()).collect(),
            );
            if !holds(&q, left)? {
                q.allowed[m] = fixed;
            }
        }
        let count = |q: &Question| others.iter().filter(|&&m| q.allowed[m].len() == 1).count();
        if chosen.as_ref().is_none_or(|c| count(&q) < count(c)) {
            chosen = Some(q);
        }
    }
    let Some(q) = chosen else {
        return Ok(None);
    };
    let needed: Vec<usize> = others
        .iter()
        .copied()
        .filter(|&m| q.allowed[m].len() == 1)
        .collect();
    let name = |u: usize| d.competition.teams[u].name.as_str();
    let score = |m: usize| {
        let r = &d.remaining[m];
        r.outcomes[r.classes[q.allowed[m][0]][0]].clone()
    };
    let mine: Vec<String> = own
        .iter()
        .map(|&m| {
            let r = &d.remaining[m];
            let s = r.side_of(t).unwrap_or(0);
            result_words(primary, &score(m), s, None, name(r.teams[1 - s]))
        })
        .collect();
    let theirs: Vec<String> = needed
        .iter()
        .map(|&m| {
            let r = &d.remaining[m];
            result_words(
                primary,
                &score(m),
                0,
                Some(name(r.teams[0])),
                name(r.teams[1]),
            )
        })
        .collect();
    let required = own
        .iter()
        .chain(&needed)
        .map(|&m| {
            let r = &d.remaining[m];
            Required {
                round: d.competition.rounds[r.at.0].number,
                home: d.competition.teams[r.teams[0]].id.clone(),
                away: d.competition.teams[r.teams[1]].id.clone(),
                home_scores: score(m).value(primary, 0),
            }
        })
        .collect();
    let condition = Condition {
        target,
        least: None,
        results: required,
    };
    // Its own results in one phrase when it must win them all ("wins both its remaining
    // matches"), then the others'; with a comma before the last "and" when a draw ("A and B
    // draw") would blur the list.
    let wins_all = primary == Primary::Mp
        && own.iter().all(|&m| {
            let s = d.remaining[m].side_of(t).unwrap_or(0);
            let o = score(m);
            o.gp[s] > o.gp[1 - s]
        });
    let mut items: Vec<String> = Vec::new();
    if wins_all && !own.is_empty() {
        items.push(format!("it {}", own_words(d, t, primary, 0.0, true)));
    } else if !mine.is_empty() {
        items.push(format!("it {}", list(mine.iter())));
    }
    items.extend(theirs.iter().cloned());
    let words = match items.as_slice() {
        [init @ .., last] if !init.is_empty() && items.iter().any(|i| i.contains(" and ")) => {
            format!("{}, and {last}", init.join(", "))
        }
        _ => list(items.iter()),
    };
    Ok(Some((condition, words, theirs.is_empty())))
}

/// Every total of the first criterion `t` can score from its remaining matches, least first.
fn gains(d: &Division, t: usize, primary: Primary) -> Vec<f64> {
    let mut sums = vec![0.0];
    for &m in &d.own[t] {
        let r = &d.remaining[m];
        let s = r.side_of(t).unwrap_or(0);
        let mut next: Vec<f64> = Vec::new();
        for sum in &sums {
            for c in &r.classes {
                let x = sum + r.outcomes[c[0]].value(primary, s);
                if !next.contains(&x) {
                    next.push(x);
                }
            }
        }
        sums = next;
    }
    sums.sort_by(f64::total_cmp);
    sums
}

/// "wins both its remaining matches", "takes at least 1½ match points from its 3 remaining
/// matches", "scores at least 3 game points in its last match".
fn own_words(d: &Division, t: usize, primary: Primary, g: f64, all: bool) -> String {
    let k = d.own[t].len();
    let matches = match k {
        1 => "its last match".to_string(),
        2 => "both its remaining matches".to_string(),
        k => format!("all its {k} remaining matches"),
    };
    let from = match k {
        1 => "in its last match".to_string(),
        k => format!("from its {k} remaining matches"),
    };
    let unit = |what: &str| {
        if g <= 1.0 {
            format!("{} {what}", number(g))
        } else {
            format!("{} {what}s", number(g))
        }
    };
    match primary {
        Primary::Mp if all => format!("wins {matches}"),
        Primary::Mp => format!("takes at least {} {from}", unit("match point")),
        Primary::Gp => format!("scores at least {} {from}", unit("game point")),
    }
}

/// A result in words, from side `s`: "beats Start", "draws with Start", "loses to Start"; or,
/// for two others, "St. Ursula beats Start"; with game points first, the score.
fn result_words(
    primary: Primary,
    o: &super::remaining::Outcome,
    s: usize,
    who: Option<&str>,
    against: &str,
) -> String {
    let (mine, theirs) = (o.gp[s], o.gp[1 - s]);
    let score = match primary {
        Primary::Gp => format!(" {}–{}", number(mine), number(theirs)),
        Primary::Mp => String::new(),
    };
    match who {
        None if mine > theirs => format!("beats {against}{score}"),
        None if mine < theirs => format!("loses to {against}{score}"),
        None => format!("draws with {against}{score}"),
        Some(w) if mine > theirs => format!("{w} beats {against}{score}"),
        Some(w) if mine < theirs => format!("{w} loses to {against}{score}"),
        Some(w) => format!("{w} and {against} draw{score}"),
    }
}
