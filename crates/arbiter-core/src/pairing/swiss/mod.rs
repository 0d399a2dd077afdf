//! The team Swiss: a round paired by FIDE C.04.6 (the Swiss Team Pairing System, applied from
//! 1 February 2026), exactly as FIDE's reference implementation (`gacrux`, `pairingchecker.py
//! -m fideteam`) pairs it.
//!
//! - `field`: every team before the round, from the rounds before it (arts. 1.2-1.7, 2.1).
//! - `bracket`: the pairing process: the bye (art. 3.4), the upfloaters (art. 3.5), each
//!   bracket's pairing (art. 3.6) by the quality criteria (art. 2.3).
//! - `colour`: the colours, once the round is paired (art. 4).
//!
//! [`pair`] pairs a round and says why of every pair; [`check`] says of every round already
//! paired whether it is the pairing C.04.6 gives, and where not, the first difference. The
//! settings C.04.6 leaves to the rules are the ruleset's `[pairing]`. Pure: the lot of art. 4.1
//! is drawn from the seed passed in.
//!
//! - `matching`: Edmonds' blossoms, cardinality and weighted, on `wide` integers.
//! - `publish` (issue 17): the next round of a competition paired round by round, swaps by hand
//!   with a reason (C.04.2 art. 1.5), and `keep_absolute`: a swap that makes a rematch (C.04.1 b)
//!   or a second pairing-allocated bye (C.04.1 c) is refused unless overridden by name (issue 30).
//! - `seat` (issue 32): a match's table in its round and each team's colours down the boards.
//! - `sample`: a generated team Swiss, for benchmarks, property tests and the differential files.

mod bracket;
mod colour;
mod field;
mod matching;
mod publish;
pub mod sample;
pub mod seat;
#[cfg(test)]
mod tests;
mod wide;

use std::fmt;

pub use colour::ColourRule;
pub use publish::{
    Breach, HAND_CHANGE_RULE, NO_REMATCH, ONE_BYE, Published, PublishedPair, Swap, by_hand,
    keep_absolute, next_round, paired_round_by_round,
};

use crate::record::model::{ByeKind, Colour, Competition, Pairing, Side, TeamId};
use crate::rules::ruleset::{InitialColour, Ruleset, SeedOrder};
use bracket::Quality;
use field::Field;

/// What to pair: the round, and who sits it out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    /// The round to pair; only the rounds before it are read.
    pub round: u32,
    /// Teams not to be paired: withdrawn, not yet entered, or on a bye they asked for. `None`:
    /// as the competition records the round (see [`recorded_roster`]).
    pub absent: Option<Vec<TeamId>>,
    /// Draws the initial-colour (art. 4.1) when the rules leave it to lot and round 1 shows
    /// nothing; the same seed gives the same colours.
    pub seed: u64,
}

/// A round paired by C.04.6.
#[derive(Debug, Clone, PartialEq)]
pub struct RoundPairing {
    /// The round paired.
    pub round: u32,
    /// The matches, board order: the higher pairing scores first (General Handling Rules 3.6).
    pub pairs: Vec<PairedMatch>,
    /// The team with the pairing-allocated bye (art. 3.4), when the number of teams is odd.
    pub bye: Option<ByeGiven>,
    /// The initial-colour of art. 4.1, and whether it was drawn here.
    pub initial_colour: Colour,
}

/// One match of the round: the team with White on board 1 first.
#[derive(Debug, Clone, PartialEq)]
pub struct PairedMatch {
    /// The team with White on board 1.
    pub white: TeamId,
    /// The other team.
    pub black: TeamId,
    /// Start numbers (art. 1.1's TPN: the team's place in the competition's list).
    pub white_number: u32,
    /// The other team's start number.
    pub black_number: u32,
    /// Why this pair, and why these colours.
    pub why: Explanation,
}

/// Why a pair was made.
#[derive(Debug, Clone, PartialEq)]
pub struct Explanation {
    /// The pairing score of the bracket's resident scoregroup.
    pub bracket_score: f64,
    /// Start numbers of the bracket's residents and of its upfloaters (art. 3.5).
    pub residents: Vec<u32>,
    /// The upfloaters the bracket took (art. 3.5), by start number.
    pub upfloaters: Vec<u32>,
    /// Which of this pair's teams are upfloaters.
    pub floaters: Vec<u32>,
    /// Sentences: the criteria that decided the bracket and this pair.
    pub criteria: Vec<String>,
    /// The rule of art. 4.3 that gave the colours.
    pub colour_rule: ColourRule,
}

/// The pairing-allocated bye.
#[derive(Debug, Clone, PartialEq)]
pub struct ByeGiven {
    /// The team.
    pub team: TeamId,
    /// Its start number.
    pub number: u32,
    /// Why it, in a sentence (art. 3.4).
    pub why: String,
}

/// Why a round cannot be paired: the sentence, with its article.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PairingError {
    /// The article that stops it (`C.04.6 art. 3.3.3`).
    pub rule: &'static str,
    /// What is wrong and what to do.
    pub message: String,
}

impl fmt::Display for PairingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.rule, self.message)
    }
}

impl std::error::Error for PairingError {}

/// The number of rounds C.04.6 reads the event as having: the rules' `[pairing] rounds`, or
/// the rounds the competition lists, whichever is more.
pub fn scheduled_rounds(competition: &Competition, rules: &Ruleset) -> u32 {
    let listed = competition
        .rounds
        .iter()
        .map(|r| r.number)
        .max()
        .unwrap_or(0);
    rules.pairing.rounds.unwrap_or(0).max(listed)
}

/// Who is paired in `round` as the competition records it: when the round has matches, the
/// teams in them and the team with the pairing-allocated bye; otherwise every team that has not
/// a bye it asked for (full-point, half-point, zero-point) in that round. Indexed like
/// `competition.teams`.
pub fn recorded_roster(competition: &Competition, round: u32) -> Vec<bool> {
    field::recorded_roster(competition, round)
}

/// One team's start number (art. 1.1) as `[pairing] seed` gives it.
#[derive(Debug, Clone, PartialEq)]
pub struct Seeded {
    /// The team's position in `Competition::teams`.
    pub team: usize,
    /// Its start number, from 1.
    pub number: u32,
    /// With `seed = "average_top"`: the average rating of its top players, `None` when it has
    /// no rated player; `None` too under the file's order.
    pub average: Option<f64>,
}

/// The teams in start-number order: the file's order, or by the average rating of each team's
/// `seed_top` highest-rated players, highest first, a team without a rated player last, equal
/// averages in the file's order (`[pairing] seed`).
pub fn seeding(competition: &Competition, rules: &Ruleset) -> Vec<Seeded> {
    let average = |t: usize, top: u32| -> Option<f64> {
        let mut ratings: Vec<u32> = competition.teams[t]
            .players
            .iter()
            .filter_map(|p| p.rating)
            .collect();
        ratings.sort_unstable_by(|a, b| b.cmp(a));
        ratings.truncate(top as usize);
        (!ratings.is_empty())
            .then(|| ratings.iter().map(|&r| f64::from(r)).sum::<f64>() / ratings.len() as f64)
    };
    let mut order: Vec<(usize, Option<f64>)> = match rules.pairing.seed {
        SeedOrder::File => (0..competition.teams.len()).map(|t| (t, None)).collect(),
        SeedOrder::AverageTop(top) => (0..competition.teams.len())
            .map(|t| (t, average(t, top)))
            .collect(),
    };
    // Stable: equal averages keep the file's order.
    order.sort_by(|a, b| match (a.1, b.1) {
        (Some(x), Some(y)) => y.total_cmp(&x),
        (Some(_), None) => std::cmp::Ordering::Less,
        (None, Some(_)) => std::cmp::Ordering::Greater,
        (None, None) => std::cmp::Ordering::Equal,
    });
    order
        .into_iter()
        .enumerate()
        .map(|(i, (team, average))| Seeded {
            team,
            number: u32::try_from(i + 1).unwrap_or(u32::MAX),
            average,
        })
        .collect()
}

/// The team with start number `number` (art. 1.1) under `[pairing] seed`: the swaps by hand
/// name teams so (`3:8`).
pub fn team_of_start_number(
    competition: &Competition,
    rules: &Ruleset,
    number: u32,
) -> Option<TeamId> {
    seeding(competition, rules)
        .into_iter()
        .find(|s| s.number == number)
        .map(|s| competition.teams[s.team].id.clone())
}

/// The competition with its teams in start-number order (`[pairing] seed`): itself under the
/// file's order.
fn in_seed_order(competition: &Competition, rules: &Ruleset) -> Competition {
    let mut seeded = competition.clone();
    if rules.pairing.seed != SeedOrder::File {
        seeded.teams = seeding(competition, rules)
            .iter()
            .map(|s| competition.teams[s.team].clone())
            .collect();
    }
    seeded
}

/// Pairs `request.round` of `competition` by C.04.6 under `rules`' `[pairing]`, from the rounds
/// before it; any later round is ignored. The start numbers are `[pairing] seed`'s.
pub fn pair(
    competition: &Competition,
    rules: &Ruleset,
    request: &Request,
) -> Result<RoundPairing, PairingError> {
    let seeded = in_seed_order(competition, rules);
    let competition = &seeded;
    let round = request.round;
    if round == 0 {
        return Err(PairingError {
            rule: "C.04.6 art. 3",
            message: "round 0 cannot be paired; rounds are numbered from 1".into(),
        });
    }
    if let Some(n) = rules.pairing.rounds
        && round > n
    {
        return Err(PairingError {
            rule: "C.04.6 art. 3",
            message: format!(
                "round {round} is past the event's {n} rounds (the ruleset's `[pairing] rounds`, TRF record 142); pair a round from 1 to {n}, or give the event more rounds"
            ),
        });
    }
    let rounds = scheduled_rounds(competition, rules).max(round);
    if rules.pairing.rounds.is_none() && round + 2 > rounds {
        return Err(PairingError {
            rule: "C.04.6 art. 2.3.4",
            message: format!(
                "round {round} cannot be paired without the event's length: [C7] (art. 2.3.4) and [C10] (art. 2.3.7) are off in the last two rounds, and nothing says whether round {round} is one of them; give the number of rounds in the ruleset's `[pairing] rounds` (TRF record 142)"
            ),
        });
    }
    let present: Vec<bool> = match &request.absent {
        None => recorded_roster(competition, round),
        Some(absent) => competition
            .teams
            .iter()
            .map(|t| !absent.contains(&t.id))
            .collect(),
    };
    let field = Field::new(competition, rules, round, rounds, &present);
    let initial = initial_colour(competition, rules, request.seed);
    let process = bracket::pair(&field).map_err(|e| PairingError {
        rule: e.rule,
        message: format!("round {round}: {}", e.message),
    })?;
    Ok(assemble(competition, &field, &process, initial))
}

/// Art. 4.1: the initial-colour, as the rules choose it, else as round 1 shows it (art. 4.3.1:
/// the first-team of a match of round 1, by TPN, had it when its TPN is odd), else drawn.
fn initial_colour(competition: &Competition, rules: &Ruleset, seed: u64) -> Colour {
    match rules.pairing.initial_colour {
        InitialColour::White => return Colour::White,
        InitialColour::Black => return Colour::Black,
        InitialColour::Drawn => {}
    }
    let home_white = rules.colour(None, 1, Side::Home) == Colour::White;
    let sheet = crate::scoring::score(competition, rules);
    let mut witness: Option<(usize, bool)> = None; // (first-team, it had White)
    for (t, score) in sheet.teams.iter().enumerate() {
        for e in score.entries.iter().filter(|e| e.round == 1 && e.counts()) {
            let Some(o) = e.opponent else { continue };
            let played = e.boards.iter().any(|b| {
                matches!(
                    b.outcome,
                    crate::record::model::GameOutcome::Win
                        | crate::record::model::GameOutcome::Draw
                        | crate::record::model::GameOutcome::Loss
                )
            }) || (e.game_points > 0.0 && e.opponent_game_points > 0.0);
            if !played || o < t {
                continue;
            }
            let white = (e.side == Some(Side::Home)) == home_white;
            if witness.is_none_or(|w| t < w.0) {
                witness = Some((t, white));
            }
        }
    }
    match witness {
        Some((t, white)) => {
            let colour = if white { Colour::White } else { Colour::Black };
            if (t + 1) % 2 == 1 {
                colour
            } else {
                colour.other()
            }
        }
        // The lot: one bit of a mixed seed (splitmix64).
        None => {
            let mut z = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            if (z ^ (z >> 31)) & 1 == 0 {
                Colour::White
            } else {
                Colour::Black
            }
        }
    }
}

fn assemble(
    competition: &Competition,
    field: &Field,
    process: &bracket::Process,
    initial: Colour,
) -> RoundPairing {
    let id = |t: usize| competition.teams[t].id.clone();
    let tpn = |t: usize| field.teams[t].tpn;
    let score = |t: usize| field.teams[t].pairing_score;
    let mut pairs: Vec<PairedMatch> = Vec::new();
    for b in &process.brackets {
        let residents: Vec<u32> = b.residents.iter().map(|&t| tpn(t)).collect();
        let upfloaters: Vec<u32> = b.upfloaters.iter().map(|&t| tpn(t)).collect();
        for &(x, y, q) in &b.pairs {
            let (x_white, rule) = colour::allocate(
                &field.teams[x],
                &field.teams[y],
                field.colour_preferences,
                field.secondary_for_colours,
                initial,
            );
            let (w, bl) = if x_white { (x, y) } else { (y, x) };
            let floaters: Vec<u32> = [x, y]
                .into_iter()
                .filter(|&t| field.teams[t].level < b.level)
                .map(tpn)
                .collect();
            pairs.push(PairedMatch {
                white: id(w),
                black: id(bl),
                white_number: tpn(w),
                black_number: tpn(bl),
                why: Explanation {
                    bracket_score: field.level_scores.get(b.level).copied().unwrap_or(0.0),
                    residents: residents.clone(),
                    upfloaters: upfloaters.clone(),
                    floaters,
                    criteria: criteria(field, b, q),
                    colour_rule: rule,
                },
            });
        }
    }
    // Board order: the higher score of the pair, then the sum, then the lower TPN.
    pairs.sort_by(|a, b| {
        let key = |p: &PairedMatch| {
            let (w, bl) = ((p.white_number - 1) as usize, (p.black_number - 1) as usize);
            (
                score(w).max(score(bl)),
                score(w) + score(bl),
                p.white_number.min(p.black_number),
            )
        };
        let (ka, kb) = (key(a), key(b));
        kb.0.total_cmp(&ka.0)
            .then(kb.1.total_cmp(&ka.1))
            .then(ka.2.cmp(&kb.2))
    });
    let bye = process.bye.map(|t| ByeGiven {
        team: id(t),
        number: tpn(t),
        why: format!(
            "C.04.6 art. 3.4: of the teams that may have it ([C2]) and leave a legal pairing for the others (3.4.1), team {} has the lowest score ({}, 3.4.2), then the most matches played ({}, 3.4.3), then the largest TPN (3.4.4)",
            tpn(t),
            field.teams[t].pairing_score,
            field.teams[t].played
        ),
    });
    RoundPairing {
        round: field.round,
        pairs,
        bye,
        initial_colour: initial,
    }
}

/// The sentences that say what decided the bracket and the pair.
fn criteria(field: &Field, b: &bracket::Bracket, q: Quality) -> Vec<String> {
    let mut out = Vec::new();
    let score = field.level_scores.get(b.level).copied().unwrap_or(0.0);
    if b.upfloaters.is_empty() {
        out.push(format!(
            "art. 3.5: the scoregroup of {score} points pairs without upfloaters ([C4])"
        ));
    } else {
        out.push(format!(
            "art. 3.5: {} upfloater(s), the fewest ([C4]) with the highest scores ([C5]) that let the bracket and the teams below be paired ([C3]); the set chosen by art. 3.5.5 among {} legal one(s) of that score profile: [C6] {}, [C7] {}",
            b.upfloaters.len(),
            b.sets_tried,
            if b.c6 { "complied with" } else { "not complied with" },
            b.c7
        ));
    }
    if b.folded {
        out.push("art. 3.6.2: the first pairing in the order of identifiers (top half against bottom half), with nothing for [C8]-[C10] to weigh".into());
    } else {
        out.push("art. 3.6.4: the first pairing in the order of identifiers of art. 3.6.2 among those with the fewest [C8], then [C9], then [C10]".into());
    }
    if q.upfloaters > 0 {
        out.push(format!("[C4]: {} upfloater(s) in this pair", q.upfloaters));
    }
    if q.same_preference {
        out.push("[C8] art. 2.3.5: both teams prefer the same colour; one will not get it".into());
    }
    if q.both_strong {
        out.push("[C9] art. 2.3.6: both preferences are strong".into());
    }
    if q.floater_opponents > 0 {
        out.push(format!(
            "[C10] art. 2.3.7: {} upfloater(s) meet a team that floated in the previous round",
            q.floater_opponents
        ));
    }
    out
}

/// One round as a file records it, checked against C.04.6.
#[derive(Debug, Clone, PartialEq)]
pub struct RoundCheck {
    /// The round.
    pub round: u32,
    /// `None`: the round is C.04.6's pairing. Otherwise the first difference, and why.
    pub difference: Option<String>,
    /// C.04.6's pairing of the round, when it has one.
    pub pairing: Option<RoundPairing>,
}

/// Every round of `competition` with a match: whether it is the pairing C.04.6 gives to the
/// teams it pairs (the teams in its matches and its pairing-allocated bye), from the rounds
/// before it. Home is read as the team with White on board 1 (the ruleset's colour rule).
pub fn check(competition: &Competition, rules: &Ruleset, seed: u64) -> Vec<RoundCheck> {
    let home_white = rules.colour(None, 1, Side::Home) == Colour::White;
    let mut rounds: Vec<_> = competition
        .rounds
        .iter()
        .filter(|r| r.matches().next().is_some())
        .collect();
    rounds.sort_by_key(|r| r.number);
    rounds
        .into_iter()
        .map(|r| {
            let recorded: Vec<(TeamId, TeamId)> = r
                .matches()
                .map(|m| {
                    if home_white {
                        (m.home.clone(), m.away.clone())
                    } else {
                        (m.away.clone(), m.home.clone())
                    }
                })
                .collect();
            let recorded_bye = r.pairings.iter().find_map(|p| match p {
                Pairing::Bye(b) if b.kind == ByeKind::PairingAllocated => Some(b.team.clone()),
                _ => None,
            });
            let request = Request {
                round: r.number,
                absent: None,
                seed,
            };
            match pair(competition, rules, &request) {
                Err(e) => RoundCheck {
                    round: r.number,
                    difference: Some(format!("C.04.6 gives no pairing: {e}")),
                    pairing: None,
                },
                Ok(p) => RoundCheck {
                    round: r.number,
                    difference: difference(competition, &p, &recorded, recorded_bye.as_ref()),
                    pairing: Some(p),
                },
            }
        })
        .collect()
}

fn difference(
    competition: &Competition,
    p: &RoundPairing,
    recorded: &[(TeamId, TeamId)],
    recorded_bye: Option<&TeamId>,
) -> Option<String> {
    let number = |id: &TeamId| competition.team_index(id).map_or(0, |i| i + 1);
    for (board, m) in p.pairs.iter().enumerate() {
        if recorded.contains(&(m.white.clone(), m.black.clone())) {
            continue;
        }
        let pair = format!("{} - {}", m.white_number, m.black_number);
        if recorded.contains(&(m.black.clone(), m.white.clone())) {
            return Some(format!(
                "board {}: the file has {} - {}, C.04.6 gives {pair}: {} ({})",
                board + 1,
                m.black_number,
                m.white_number,
                m.why.colour_rule.words(),
                m.why.colour_rule.article()
            ));
        }
        let theirs = recorded
            .iter()
            .find(|(w, b)| *w == m.white || *b == m.white)
            .map(|(w, b)| format!("{} - {}", number(w), number(b)))
            .unwrap_or_else(|| format!("no match for team {}", m.white_number));
        return Some(format!(
            "board {}: the file has {theirs}, C.04.6 gives {pair} (bracket of {} points; {})",
            board + 1,
            m.why.bracket_score,
            m.why.criteria.join("; ")
        ));
    }
    match (&p.bye, recorded_bye) {
        (Some(b), Some(r)) if &b.team == r => None,
        (Some(b), r) => Some(format!(
            "the file gives the pairing-allocated bye to {}, C.04.6 to team {}: {}",
            r.map_or("no team".into(), |r| format!("team {}", number(r))),
            b.number,
            b.why
        )),
        (None, Some(r)) => Some(format!(
            "the file gives a pairing-allocated bye to team {}, C.04.6 none: the number of teams paired is even",
            number(r)
        )),
        (None, None) => None,
    }
}
