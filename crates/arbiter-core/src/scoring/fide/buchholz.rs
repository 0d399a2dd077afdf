//! Buchholz (art. 8.1), the extended Sonneborn-Berger family (art. 13.2) and the Buchholz part of
//! SSSC (art. 13.4), with cuts (art. 14.1) and unplayed rounds (arts. 15-16), computed exactly
//! as FIDE's checker computes them.

use super::event::Event;
use crate::rules::criteria::ScoreBasis;
use crate::rules::ruleset::FideEdition;

/// What to sum over a team's opponents.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Sum {
    /// The opponents' score that is summed (BH) or multiplied (ESB).
    pub opponent: ScoreBasis,
    /// ESB: multiply by the team's own score against that opponent, on this basis.
    pub own: Option<ScoreBasis>,
    pub cut_lowest: u32,
    pub cut_highest: u32,
    /// `/P`, and every round robin (art. 15.2): a forfeit counts as a game against the
    /// scheduled opponent.
    pub forfeits_played: bool,
    /// `/F`: Fore Buchholz (art. 8.3), every last-round game counted as a draw.
    pub fore: bool,
}

struct Contribution {
    vur: bool,
    value: f64,
    score: f64,
}

/// Art. 16.3: each team's score as its opponents see it. Rounds after the team's last present
/// round without an opponent (art. 16.2.5) count as draws in a Swiss, as nothing in a round
/// robin. With `/F` the last round counts as a draw.
fn adjusted(ev: &Event, sum: &Sum) -> (Vec<f64>, Vec<f64>) {
    let basis = sum.opponent;
    let draw = ev.draw(basis);
    let no_opponent = if ev.round_robin { 0.0 } else { draw };
    let r = ev.rounds;
    let mut adjusted = Vec::with_capacity(ev.teams.len());
    let mut own = Vec::with_capacity(ev.teams.len());
    for team in &ev.teams {
        let fore_team = sum.fore && team.last_paired == r;
        // The checker moves the team's last present round (kept on match points) forward.
        let last_present = if fore_team && basis == ScoreBasis::MatchPoints {
            team.last_paired
        } else {
            team.last_present
        };
        let mut total = 0.0;
        for (i, rec) in team.rounds.iter().enumerate() {
            let round = u32::try_from(i + 1).unwrap_or(u32::MAX);
            total += if round <= last_present || rec.opponent.is_some() {
                rec.score(basis)
            } else {
                no_opponent
            };
        }
        let mut own_score = team.total(basis);
        if let Some(last) = team.rounds.last()
            && fore_team
            && last.opponent.is_some()
        {
            let shift = draw - last.score(basis);
            total += shift;
            own_score += shift;
        }
        adjusted.push(total);
        own.push(own_score);
    }
    (adjusted, own)
}

pub(crate) fn values(ev: &Event, sum: &Sum) -> Vec<f64> {
    let (adjusted, own) = adjusted(ev, sum);
    let r = ev.rounds;
    let dummy_cap = ev.draw(sum.opponent) * f64::from(r);
    ev.teams
        .iter()
        .enumerate()
        .map(|(t, team)| {
            let mut items: Vec<Contribution> = Vec::with_capacity(team.rounds.len());
            for (i, rec) in team.rounds.iter().enumerate() {
                let round = u32::try_from(i + 1).unwrap_or(u32::MAX);
                let played = sum.forfeits_played || (sum.fore && round == r) || rec.played;
                let mut vur = rec.vur;
                let score = match rec.opponent {
                    Some(o) if played => {
                        vur = false;
                        adjusted[o]
                    }
                    // Art. 16.4: a game against a dummy with the team's own score; from
                    // 2026-03 capped at the scheduled opponent's score (a forfeit) or at a
                    // draw in every round.
                    opponent if !ev.round_robin => {
                        let mine = own[t];
                        match (ev.edition, opponent) {
                            (FideEdition::Aug2024, _) => mine,
                            (FideEdition::Mar2026, Some(o)) => mine.min(adjusted[o]),
                            (FideEdition::Mar2026, None) => mine.min(dummy_cap),
                        }
                    }
                    _ => 0.0,
                };
                let value = match sum.own {
                    Some(basis) => score * rec.score(basis),
                    None => score,
                };
                if rec.opponent.is_some() || !ev.round_robin {
                    items.push(Contribution { vur, value, score });
                }
            }
            cut(items, sum.cut_lowest, sum.cut_highest, r)
        })
        .collect()
}

/// Art. 14.1 with art. 16.5: drop the least significant values, a VUR's first where the
/// checker does; then the most significant ones. Stable sorts, as the checker's, so that equal
/// values leave in the same order.
fn cut(mut items: Vec<Contribution>, lowest: u32, highest: u32, rounds: u32) -> f64 {
    let low = lowest.min(rounds);
    let high = highest.min(rounds - low);
    for _ in 0..low {
        if items.is_empty() {
            break;
        }
        let mut all: Vec<usize> = (0..items.len()).collect();
        all.sort_by(|&a, &b| {
            let (x, y) = (&items[a], &items[b]);
            x.score
                .total_cmp(&y.score)
                .then(x.value.total_cmp(&y.value))
        });
        let mut vurs: Vec<usize> = (0..items.len()).collect();
        vurs.sort_by(|&a, &b| {
            let (x, y) = (&items[a], &items[b]);
            y.vur
                .cmp(&x.vur)
                .then(x.value.total_cmp(&y.value))
                .then(x.score.total_cmp(&y.score))
        });
        let (least, vur) = (all[0], vurs[0]);
        // A VUR goes first unless the least significant value is the higher of the two.
        let order = if !items[vur].vur || items[least].value > items[vur].value {
            all
        } else {
            vurs
        };
        items = reorder(items, &order[1..]);
    }
    for _ in 0..high {
        if items.is_empty() {
            break;
        }
        let mut all: Vec<usize> = (0..items.len()).collect();
        all.sort_by(|&a, &b| {
            let (x, y) = (&items[a], &items[b]);
            y.score
                .total_cmp(&x.score)
                .then(y.value.total_cmp(&x.value))
        });
        items = reorder(items, &all[1..]);
    }
    super::event::total(items.iter().map(|c| c.value))
}

fn reorder(items: Vec<Contribution>, keep: &[usize]) -> Vec<Contribution> {
    let mut slots: Vec<Option<Contribution>> = items.into_iter().map(Some).collect();
    keep.iter().filter_map(|&i| slots[i].take()).collect()
}

/// Art. 13.4: the secondary score plus the Buchholz on the primary score divided by F, rounded
/// half up to two decimals. `None` when F is 0 (fewer rounds than boards per match point).
pub(crate) fn score_strength(ev: &Event, basis: ScoreBasis, buchholz: &[f64]) -> Option<Vec<f64>> {
    let r = f64::from(ev.rounds);
    let boards = ev.boards as f64;
    let divisor = match basis {
        ScoreBasis::MatchPoints => (ev.match_win * r / ev.game_win / boards).floor(),
        ScoreBasis::GamePoints => (ev.game_win * r * boards / ev.match_win).floor(),
    };
    if !(divisor >= 1.0 && divisor.is_finite()) {
        return None;
    }
    Some(
        ev.teams
            .iter()
            .zip(buchholz)
            .map(|(team, bh)| {
                let secondary = team.total(super::event::other(basis));
                round_half_up_2(secondary, *bh, divisor)
            })
            .collect(),
    )
}

/// `secondary + bh / divisor` to two decimals, half up, computed on exact quarters.
fn round_half_up_2(secondary: f64, bh: f64, divisor: f64) -> f64 {
    // Every score here is a multiple of 1/4: work in integers of quarters.
    let q = ((secondary * divisor + bh) * 4.0).round();
    let d = divisor;
    // value * 100 = q * 25 / d; half up: floor((2 * q * 25 + d) / (2 d)).
    let hundredths = ((2.0 * q * 25.0 + d) / (2.0 * d)).floor();
    hundredths / 100.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sssc_rounds_half_up_like_the_checker() {
        // 33.5 + 238 / 7 = 67.5; 32 + 237 / 7 = 65.857.. -> 65.86
        assert_eq!(round_half_up_2(33.5, 238.0, 7.0), 67.5);
        assert_eq!(round_half_up_2(32.0, 237.0, 7.0), 65.86);
        // 1 + 0.125 = 1.125 -> 1.13 (half up, not to even)
        assert_eq!(round_half_up_2(1.0, 0.5, 4.0), 1.13);
    }
}
