//! FIDE team tie-breaks (Handbook C.07, arts. 6-16), computed on the score sheet exactly as
//! FIDE's reference tie-break checker (`gacrux`, `tiebreakchecker.py`) computes them; where the
//! regulations' text and the checker differ, the checker is followed.
//!
//! - `event`: the event as the tie-breaks read it (unplayed rounds, VURs, art. 16.2).
//! - `buchholz`: BH, EMMSB/EMGSB/EGMSB/EGGSB, SSSC, with cuts and the dummy opponent (16.4).
//! - `encounter`: DE and EDE with its board steps, TBR and BBE, on the tied groups.
//!
//! Settings the results cannot tell (the edition of C.07, whether the event is a round robin)
//! come from [`crate::rules::ruleset::FideSettings`].
//!
//! The tie-breaks take their own [`Input`] (competition, rules, score sheet, primary score), which
//! `standings` builds from its context; only `standings` calls this module.

mod buchholz;
mod encounter;
mod event;
#[cfg(test)]
mod tests;

use crate::record::model::Competition;
use crate::rules::criteria::{CriterionValue, FideCode, FideTiebreak, ScoreBasis, StandingsError};
use crate::rules::ruleset::Ruleset;
use crate::scoring::ScoreSheet;
use event::{Event, RoundResult};

/// What the FIDE tie-breaks read: the competition and its rules, the score sheet, the score
/// that ranks first, and the event built from them once.
#[derive(Debug, Clone, Copy)]
pub struct Input<'a> {
    /// The competition being ranked.
    pub competition: &'a Competition,
    /// The ruleset it is ranked by, with its [`crate::rules::ruleset::FideSettings`].
    pub rules: &'a Ruleset,
    /// Every team's score, round by round.
    pub sheet: &'a ScoreSheet,
    /// The score that ranks first: match points, or game points (C.04.6 art. 1.2.1).
    pub primary: ScoreBasis,
    /// FIDE's view of the event, built once and shared by every FIDE criterion.
    pub prepared: &'a Prepared,
}

/// FIDE's view of the event (every team's rounds as C.07 arts. 15-16 read them), built once per
/// ranking by the first FIDE criterion that needs it.
#[derive(Debug, Default)]
pub struct Prepared(std::cell::OnceCell<Event>);

fn view<'c>(input: &Input<'c>) -> &'c Event {
    input.prepared.0.get_or_init(|| Event::new(input))
}

/// Values of a tie-break for every team, indexed like `ctx.sheet.teams`. A group tie-break is
/// computed as if all teams were tied.
pub fn team_values(
    ctx: &Input<'_>,
    tb: &FideTiebreak,
) -> Result<Vec<CriterionValue>, StandingsError> {
    let ev = view(ctx);
    if tb.is_group() {
        let all: Vec<usize> = (0..ev.teams.len()).collect();
        return Ok(numbers(group_places(ev, tb, &[&all])));
    }
    let basis = tb.basis.unwrap_or(ev.primary);
    let sum = |opponent: ScoreBasis, own: Option<ScoreBasis>| buchholz::Sum {
        opponent,
        own,
        cut_lowest: tb.cut_lowest,
        cut_highest: tb.cut_highest,
        forfeits_played: tb.forfeits_played || ev.round_robin,
        fore: tb.fore,
    };
    let mp = ScoreBasis::MatchPoints;
    let gp = ScoreBasis::GamePoints;
    let values: Vec<f64> = match tb.code {
        FideCode::Pts => ev.teams.iter().map(|t| t.total(basis)).collect(),
        FideCode::MpVgp => ev
            .teams
            .iter()
            .map(|t| t.total(event::other(basis)))
            .collect(),
        FideCode::Bh => buchholz::values(ev, &sum(basis, None)),
        FideCode::Emmsb => buchholz::values(ev, &sum(mp, Some(mp))),
        FideCode::Emgsb => buchholz::values(ev, &sum(mp, Some(gp))),
        FideCode::Egmsb => buchholz::values(ev, &sum(gp, Some(mp))),
        FideCode::Eggsb => buchholz::values(ev, &sum(gp, Some(gp))),
        FideCode::Sssc => {
            let bh = buchholz::values(ev, &sum(basis, None));
            buchholz::score_strength(ev, basis, &bh).ok_or_else(|| {
                StandingsError(format!(
                    "{}: SSSC divides the Buchholz by F = ⌊highest possible score / highest secondary score in a match⌋, which is 0 for {} rounds of {} boards; use another tie-break",
                    tb.code.article(),
                    ev.rounds,
                    ev.boards
                ))
            })?
        }
        FideCode::Bc => ev
            .teams
            .iter()
            .map(|t| {
                event::total(
                    t.board_points
                        .iter()
                        .enumerate()
                        .map(|(b, p)| (b + 1) as f64 * p),
                )
            })
            .collect(),
        FideCode::Win => wins(ev, basis),
        // Handled above.
        FideCode::De
        | FideCode::Ede
        | FideCode::Edet
        | FideCode::Edeb
        | FideCode::Edebt
        | FideCode::Edebb
        | FideCode::Tbr
        | FideCode::Bbe => Vec::new(),
    };
    Ok(values.into_iter().map(CriterionValue::Number).collect())
}

/// Values of a tie-break on exactly `group`, in `group`'s order, as if it were the only tied
/// group. A team tie-break gives the team's own value.
pub fn group_values(
    ctx: &Input<'_>,
    tb: &FideTiebreak,
    group: &[usize],
) -> Result<Vec<CriterionValue>, StandingsError> {
    let all = if tb.is_group() {
        tied_values(ctx, tb, &[group])?
    } else {
        team_values(ctx, tb)?
    };
    Ok(group
        .iter()
        .map(|&t| all.get(t).cloned().unwrap_or(CriterionValue::NotApplied))
        .collect())
}

/// A group tie-break on all the groups still tied (in rank order), computed together as FIDE's
/// checker does. Indexed like `ctx.sheet.teams`; a team in no group is `NotApplied`. The value is
/// the team's place inside its group (1, 2, ..., shared while tied), or 0 when the criterion
/// separated nothing in that group; lower is better.
pub fn tied_values(
    ctx: &Input<'_>,
    tb: &FideTiebreak,
    groups: &[&[usize]],
) -> Result<Vec<CriterionValue>, StandingsError> {
    if !tb.is_group() {
        return team_values(ctx, tb);
    }
    Ok(numbers(group_places(view(ctx), tb, groups)))
}

fn group_places(ev: &Event, tb: &FideTiebreak, groups: &[&[usize]]) -> Vec<Option<f64>> {
    let basis = tb.basis.unwrap_or(ev.primary);
    match tb.code {
        FideCode::Tbr => encounter::board_results(ev, groups, true),
        FideCode::Bbe => encounter::board_results(ev, groups, false),
        code => {
            let steps = encounter::steps(code, ev.boards);
            encounter::direct_encounter(
                ev,
                groups,
                &steps,
                basis,
                tb.forfeits_played || ev.round_robin,
            )
        }
    }
}

fn numbers(v: Vec<Option<f64>>) -> Vec<CriterionValue> {
    v.into_iter()
        .map(|x| x.map_or(CriterionValue::NotApplied, CriterionValue::Number))
        .collect()
}

/// Art. 7.1: rounds with a win's points, played or not (on game points: boards won; a round not
/// played over the board counts its result on every board).
fn wins(ev: &Event, basis: ScoreBasis) -> Vec<f64> {
    ev.teams
        .iter()
        .map(|team| {
            let per_round = team.rounds.iter().map(|r| match basis {
                ScoreBasis::MatchPoints => f64::from(u8::from(r.match_points == ev.match_win)),
                ScoreBasis::GamePoints if r.played && r.opponent.is_some() => {
                    team.games(r).iter().filter(|&&p| p == ev.game_win).count() as f64
                }
                ScoreBasis::GamePoints => {
                    let each = match r.result {
                        RoundResult::Win | RoundResult::Pab => ev.game_win,
                        RoundResult::Draw => ev.game_draw,
                        RoundResult::Loss | RoundResult::Zero => 0.0,
                    };
                    if each == ev.game_win {
                        ev.boards as f64
                    } else {
                        0.0
                    }
                }
            });
            event::total(per_round)
        })
        .collect()
}
