//! A round as the arbiter publishes it: C.04.6's pairing, or that pairing with teams swapped by
//! hand, which needs a reason (C.04.2 art. 1.5: a correct pairing may not be altered in anyone's
//! favour); and the round it becomes in the competition, home the team with White on board 1.

use super::{PairingError, RoundPairing};
use crate::record::model::{
    Bye, ByeKind, Colour, Competition, Match, MatchOutcome, Pairing, Round, Side, TeamId,
};
use crate::record::text::Reason;
use crate::rules::ruleset::Ruleset;

/// The article a change by hand answers to.
pub const HAND_CHANGE_RULE: &str = "C.04.2 art. 1.5";

/// C.04.1 b (C.04.6 art. 2.1.1, [C1]): two teams meet no more often than the ruleset's
/// `[pairing] max_meetings` (once).
pub const NO_REMATCH: &str = "C.04.1 b";
/// C.04.1 c (C.04.6 art. 2.1.2, [C2]): no team gets the pairing-allocated bye that had one, or
/// scored once without playing (a full-point bye, a forfeit win).
pub const ONE_BYE: &str = "C.04.1 c";

/// An absolute criterion a change by hand breaks: the criterion and the sentence saying how.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Breach {
    /// [`NO_REMATCH`] or [`ONE_BYE`].
    pub criterion: &'static str,
    /// What breaks it: `teams 3 and 8 met in an earlier round …`.
    pub message: String,
}

impl std::fmt::Display for Breach {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.criterion, self.message)
    }
}

/// `published` against the absolute criteria C.04.6's own pairing never breaks (C.04.1 b and c,
/// its [C1] and [C2]), read from `competition`'s rounds before: a change by hand that breaks
/// one is refused, unless `overrides` names that criterion (`"C.04.1 b"`), when it stands and
/// is kept in [`Published::overridden`] to be published with the round. An override naming no
/// absolute criterion is refused; one naming a criterion not broken is not kept.
pub fn keep_absolute(
    mut published: Published,
    competition: &Competition,
    rules: &Ruleset,
    overrides: &[String],
) -> Result<Published, PairingError> {
    let named: Vec<&'static str> = overrides
        .iter()
        .filter(|o| !o.trim().is_empty())
        .map(|o| criterion_named(o))
        .collect::<Result<_, _>>()?;
    let round = published.paired.round;
    let rounds = super::scheduled_rounds(competition, rules).max(round);
    let present = vec![true; competition.teams.len()];
    let field = super::field::Field::new(competition, rules, round, rounds, &present);
    let index = |t: &TeamId| competition.team_index(t);
    let mut breaches = Vec::new();
    for p in published.pairs.iter().filter(|p| p.by_hand) {
        let (Some(w), Some(b)) = (index(&p.white), index(&p.black)) else {
            continue;
        };
        let met = field.meetings(w, b);
        if met >= rules.pairing.max_meetings {
            breaches.push(Breach {
                criterion: NO_REMATCH,
                message: format!(
                    "the change by hand pairs teams {} and {} in round {round}, and they met {} before; two teams meet at most {} (the ruleset's `[pairing] max_meetings`)",
                    p.white_number,
                    p.black_number,
                    times(met),
                    times(rules.pairing.max_meetings)
                ),
            });
        }
    }
    if let Some((team, number, true)) = &published.bye
        && let Some(t) = index(team)
        && !field.teams[t].may_have_bye
    {
        breaches.push(Breach {
            criterion: ONE_BYE,
            message: format!(
                "the change by hand gives team {number} the pairing-allocated bye of round {round}, and it already had a bye or scored without playing in an earlier round; a team gets the pairing-allocated bye at most once (C.04.6 art. 2.1.2)"
            ),
        });
    }
    if let Some(b) = breaches.iter().find(|b| !named.contains(&b.criterion)) {
        return Err(PairingError {
            rule: b.criterion,
            message: format!(
                "{}; an absolute criterion is broken only by the Chief Arbiter's decision, so swap other teams, publish the pairing as C.04.6 gives it, or override it by name (`--override-absolute \"{}\"`, the page's override field) with the reason",
                b.message, b.criterion
            ),
        });
    }
    published.overridden = breaches;
    Ok(published)
}

/// The absolute criterion `text` names (`C.04.1 b`, any case and spacing), or the sentence.
fn criterion_named(text: &str) -> Result<&'static str, PairingError> {
    let squeezed: String = text
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect::<String>()
        .to_lowercase();
    [NO_REMATCH, ONE_BYE]
        .into_iter()
        .find(|c| c.replace(' ', "").to_lowercase() == squeezed)
        .ok_or_else(|| PairingError {
            rule: HAND_CHANGE_RULE,
            message: format!(
                "“{}” is not an absolute criterion a change by hand may override; name {NO_REMATCH} (two teams meet at most once) or {ONE_BYE} (the pairing-allocated bye at most once)",
                text.trim()
            ),
        })
}

/// `once`, `twice`, `3 times`.
fn times(n: u32) -> String {
    match n {
        1 => "once".into(),
        2 => "twice".into(),
        n => format!("{n} times"),
    }
}

/// Whether `rules` describe a team Swiss paired round by round (C.04.6): the event's length is
/// set (`[pairing] rounds`, which C.04.6 reads in its last two rounds) and it is not a round
/// robin fixed in advance.
pub fn paired_round_by_round(rules: &Ruleset) -> bool {
    rules.pairing.rounds.is_some() && rules.fide.round_robin != Some(true)
}

/// The round to pair next: the one after the last round with a match, once every match of that
/// round has a result (C.04.6 pairs from the scores, art. 1.2); refused with the sentence when a
/// result is missing or the event's rounds are all paired.
pub fn next_round(competition: &Competition, rules: &Ruleset) -> Result<u32, PairingError> {
    let last = competition
        .rounds
        .iter()
        .filter(|r| r.matches().next().is_some())
        .max_by_key(|r| r.number);
    let next = last.map_or(1, |r| r.number + 1);
    if let Some(r) = last {
        let waiting: Vec<String> = r
            .matches()
            .filter(|m| !has_result(&m.outcome))
            .map(|m| {
                format!(
                    "{} v {}",
                    competition.team_name(&m.home),
                    competition.team_name(&m.away)
                )
            })
            .collect();
        if !waiting.is_empty() {
            return Err(PairingError {
                rule: "C.04.6 art. 1.2",
                message: format!(
                    "round {next} is paired from the scores after round {}, and round {} has {} without a result ({}); enter {} first",
                    r.number,
                    r.number,
                    if waiting.len() == 1 {
                        "a match".to_string()
                    } else {
                        format!("{} matches", waiting.len())
                    },
                    crate::record::words::list(waiting.iter()),
                    if waiting.len() == 1 { "it" } else { "them" }
                ),
            });
        }
    }
    if let Some(n) = rules.pairing.rounds
        && next > n
    {
        return Err(PairingError {
            rule: "C.04.6 art. 3",
            message: format!(
                "all {n} rounds of the event are paired (the ruleset's `[pairing] rounds`); there is no round {next} to pair"
            ),
        });
    }
    Ok(next)
}

/// Whether a match's result is in: a forfeit, or every board's result.
fn has_result(outcome: &MatchOutcome) -> bool {
    match outcome {
        MatchOutcome::Pending => false,
        MatchOutcome::Boards(boards) => boards
            .iter()
            .all(|b| b.result != crate::record::model::GameResult::Pending),
        MatchOutcome::Forfeit { .. } | MatchOutcome::DoubleForfeit => true,
    }
}

/// Two teams of the round to trade places: each takes the other's opponent and colour, or bye.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Swap {
    /// One team.
    pub a: TeamId,
    /// The other.
    pub b: TeamId,
}

/// One match as published: the team with White on board 1 first, and whether a swap changed it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PublishedPair {
    /// The team with White on board 1.
    pub white: TeamId,
    /// The other team.
    pub black: TeamId,
    /// White's start number (TPN).
    pub white_number: u32,
    /// Black's start number.
    pub black_number: u32,
    /// Not C.04.6's pair: a swap by hand made it.
    pub by_hand: bool,
}

/// The pairing to publish: C.04.6's, changed by the swaps, each change with the reason.
#[derive(Debug, Clone, PartialEq)]
pub struct Published {
    /// C.04.6's pairing, as [`super::pair`] gave it.
    pub paired: RoundPairing,
    /// The matches, in C.04.6's board order.
    pub pairs: Vec<PublishedPair>,
    /// The pairing-allocated bye (art. 3.4), and whether a swap gave it.
    pub bye: Option<(TeamId, u32, bool)>,
    /// The swaps, in the order made.
    pub swaps: Vec<Swap>,
    /// Why the pairing was changed; `Some` exactly when a swap was made.
    pub reason: Option<Reason>,
    /// The absolute criteria the change breaks by the Chief Arbiter's override
    /// ([`keep_absolute`]); published with the round.
    pub overridden: Vec<Breach>,
}

impl Published {
    /// Whether anything differs from C.04.6's pairing.
    pub fn changed(&self) -> bool {
        self.pairs.iter().any(|p| p.by_hand) || self.bye.as_ref().is_some_and(|b| b.2)
    }

    /// The round the competition gets: each match with home the team that has White on board
    /// 1 by `rules`' colour rule, no result yet; the bye as a pairing-allocated bye.
    pub fn round(&self, rules: &Ruleset, date: Option<jiff::civil::Date>) -> Round {
        let home_white = rules.colour(None, 1, Side::Home) == Colour::White;
        let mut pairings: Vec<Pairing> = self
            .pairs
            .iter()
            .map(|p| {
                let (home, away) = if home_white {
                    (p.white.clone(), p.black.clone())
                } else {
                    (p.black.clone(), p.white.clone())
                };
                Pairing::Match(Match {
                    home,
                    away,
                    outcome: MatchOutcome::Pending,
                    date: None,
                    start: None,
                    extra_games: Vec::new(),
                    late: None,
                })
            })
            .collect();
        pairings.extend(self.bye.as_ref().map(|(team, _, _)| {
            Pairing::Bye(Bye {
                team: team.clone(),
                kind: ByeKind::PairingAllocated,
            })
        }));
        Round {
            number: self.paired.round,
            date,
            pairings,
        }
    }

    /// The matches as the round stores them changed by hand: their home teams.
    pub fn changed_homes(&self, rules: &Ruleset) -> Vec<TeamId> {
        let home_white = rules.colour(None, 1, Side::Home) == Colour::White;
        self.pairs
            .iter()
            .filter(|p| p.by_hand)
            .map(|p| {
                if home_white {
                    p.white.clone()
                } else {
                    p.black.clone()
                }
            })
            .collect()
    }
}

/// Where a team sits in the round: in a pair (index, White or not) or on the bye.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Seat {
    Pair(usize, bool),
    Bye,
}

/// C.04.6's `paired` round with `swaps` made by hand. A swap needs `reason` (C.04.2 art. 1.5);
/// every team named must be in the round. Without swaps, the pairing as C.04.6 gives it (a
/// reason is then not kept: there is nothing it explains).
pub fn by_hand(
    paired: &RoundPairing,
    swaps: &[Swap],
    reason: &str,
) -> Result<Published, PairingError> {
    let mut pairs: Vec<PublishedPair> = paired
        .pairs
        .iter()
        .map(|m| PublishedPair {
            white: m.white.clone(),
            black: m.black.clone(),
            white_number: m.white_number,
            black_number: m.black_number,
            by_hand: false,
        })
        .collect();
    let mut bye = paired
        .bye
        .as_ref()
        .map(|b| (b.team.clone(), b.number, false));
    if swaps.is_empty() {
        return Ok(Published {
            paired: paired.clone(),
            pairs,
            bye,
            swaps: Vec::new(),
            reason: None,
            overridden: Vec::new(),
        });
    }
    let reason = Reason::parse_as("the reason for the change by hand", reason)
        .map_err(|e| PairingError {
            rule: HAND_CHANGE_RULE,
            message: e.to_string(),
        })?
        .ok_or_else(|| PairingError {
            rule: HAND_CHANGE_RULE,
            message: format!(
                "round {} as C.04.6 pairs it is changed by hand ({}) without a reason; a correct pairing may not be altered in any team's favour, so say why it is changed (a reason the rules give, e.g. two teams of one club that may not meet), or publish the pairing as C.04.6 gives it",
                paired.round,
                crate::record::words::list(swaps.iter().map(|s| format!(
                    "team {} with team {}",
                    number_of(paired, &s.a),
                    number_of(paired, &s.b)
                )))
            ),
        })?;
    for s in swaps {
        let seat = |t: &TeamId, pairs: &[PublishedPair], bye: &Option<(TeamId, u32, bool)>| {
            pairs
                .iter()
                .enumerate()
                .find_map(|(i, p)| {
                    if &p.white == t {
                        Some(Seat::Pair(i, true))
                    } else if &p.black == t {
                        Some(Seat::Pair(i, false))
                    } else {
                        None
                    }
                })
                .or_else(|| bye.as_ref().filter(|b| &b.0 == t).map(|_| Seat::Bye))
        };
        if s.a == s.b {
            return Err(PairingError {
                rule: HAND_CHANGE_RULE,
                message: format!(
                    "a swap names team {} twice; choose two different teams of round {}",
                    number_of(paired, &s.a),
                    paired.round
                ),
            });
        }
        let (Some(sa), Some(sb)) = (seat(&s.a, &pairs, &bye), seat(&s.b, &pairs, &bye)) else {
            let missing = if seat(&s.a, &pairs, &bye).is_none() {
                &s.a
            } else {
                &s.b
            };
            return Err(PairingError {
                rule: HAND_CHANGE_RULE,
                message: format!(
                    "team “{missing}” is not in round {}'s pairing; swap two teams that are paired or have the bye",
                    paired.round
                ),
            });
        };
        let number =
            |seat: Seat, pairs: &[PublishedPair], bye: &Option<(TeamId, u32, bool)>| match seat {
                Seat::Pair(i, true) => pairs[i].white_number,
                Seat::Pair(i, false) => pairs[i].black_number,
                Seat::Bye => bye.as_ref().map_or(0, |b| b.1),
            };
        let (na, nb) = (number(sa, &pairs, &bye), number(sb, &pairs, &bye));
        let mut put = |seat: Seat, team: &TeamId, n: u32| match seat {
            Seat::Pair(i, true) => {
                pairs[i].white = team.clone();
                pairs[i].white_number = n;
                pairs[i].by_hand = true;
            }
            Seat::Pair(i, false) => {
                pairs[i].black = team.clone();
                pairs[i].black_number = n;
                pairs[i].by_hand = true;
            }
            Seat::Bye => bye = Some((team.clone(), n, true)),
        };
        put(sa, &s.b, nb);
        put(sb, &s.a, na);
    }
    // A pair swapped back to C.04.6's own is not changed by hand.
    for (p, m) in pairs.iter_mut().zip(&paired.pairs) {
        p.by_hand = !(p.white == m.white && p.black == m.black);
    }
    if let (Some(b), Some(given)) = (bye.as_mut(), paired.bye.as_ref()) {
        b.2 = b.0 != given.team;
    }
    Ok(Published {
        paired: paired.clone(),
        pairs,
        bye,
        swaps: swaps.to_vec(),
        reason: Some(reason),
        overridden: Vec::new(),
    })
}

/// A team as a sentence of the pairing names it: by its start number.
fn number_of(paired: &RoundPairing, team: &TeamId) -> String {
    paired
        .pairs
        .iter()
        .find_map(|m| {
            if &m.white == team {
                Some(m.white_number)
            } else if &m.black == team {
                Some(m.black_number)
            } else {
                None
            }
        })
        .or_else(|| {
            paired
                .bye
                .as_ref()
                .filter(|b| &b.team == team)
                .map(|b| b.number)
        })
        .map_or_else(|| format!("“{team}”"), |n| n.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pairing::swiss::{Request, pair, sample};

    fn paired_round() -> (crate::record::model::Competition, Ruleset, RoundPairing) {
        let (c, rules) = sample::event(11, 4, 7, 3, 5).unwrap();
        let request = Request {
            round: 4,
            absent: Some(Vec::new()),
            seed: 1,
        };
        let p = pair(&c, &rules, &request).unwrap();
        (c, rules, p)
    }

    #[test]
    fn c04_2_1_5_a_swap_without_a_reason_is_refused() {
        let (_, _, p) = paired_round();
        let swap = Swap {
            a: p.pairs[0].white.clone(),
            b: p.pairs[1].white.clone(),
        };
        let e = by_hand(&p, &[swap], "  ").unwrap_err();
        assert_eq!(e.rule, HAND_CHANGE_RULE);
        assert!(e.message.contains("without a reason"), "{e}");
    }

    #[test]
    fn a_swap_trades_places_and_flags_both_pairs() {
        let (_, rules, p) = paired_round();
        let (a, b) = (p.pairs[0].white.clone(), p.pairs[1].black.clone());
        let out = by_hand(
            &p,
            &[Swap {
                a: a.clone(),
                b: b.clone(),
            }],
            "two teams of one club",
        )
        .unwrap();
        assert_eq!(out.pairs[0].white, b);
        assert_eq!(out.pairs[1].black, a);
        assert!(out.pairs[0].by_hand && out.pairs[1].by_hand);
        assert!(out.pairs[2..].iter().all(|x| !x.by_hand));
        assert_eq!(out.changed_homes(&rules).len(), 2);
        // Swapped back, nothing is changed.
        let back = by_hand(
            &p,
            &[
                Swap {
                    a: a.clone(),
                    b: b.clone(),
                },
                Swap { a, b },
            ],
            "undone",
        )
        .unwrap();
        assert!(!back.changed());
    }

    #[test]
    fn a_swap_with_the_bye_gives_the_bye_to_the_other_team() {
        let (_, rules, p) = paired_round();
        let given = p.bye.clone().expect("11 teams: one has the bye");
        let other = p.pairs[2].black.clone();
        let out = by_hand(
            &p,
            &[Swap {
                a: given.team.clone(),
                b: other.clone(),
            }],
            "asked for by the organiser",
        )
        .unwrap();
        assert_eq!(out.bye.as_ref().map(|b| &b.0), Some(&other));
        assert_eq!(out.pairs[2].black, given.team);
        let round = out.round(&rules, None);
        assert_eq!(round.matches().count(), p.pairs.len());
        assert!(round.pairings.iter().any(|x| matches!(x,
            Pairing::Bye(b) if b.team == other && b.kind == ByeKind::PairingAllocated)));
    }

    #[test]
    fn c04_1_b_a_swap_that_makes_a_rematch_is_refused_unless_overridden_by_name() {
        let (c, rules, p) = paired_round();
        let swap = sample::rematching_swap(&c, &p).expect("round 4 can be swapped into a rematch");
        let out = by_hand(&p, std::slice::from_ref(&swap), "two teams of one club").unwrap();
        let e = keep_absolute(out.clone(), &c, &rules, &[]).unwrap_err();
        assert_eq!(e.rule, NO_REMATCH);
        assert!(e.message.contains("met once before"), "{e}");
        assert!(
            e.message.contains("--override-absolute \"C.04.1 b\""),
            "{e}"
        );
        // Overriding the other criterion does not do; an unknown one is refused by name.
        let other = keep_absolute(out.clone(), &c, &rules, &["C.04.1 c".into()]).unwrap_err();
        assert_eq!(other.rule, NO_REMATCH);
        let unknown = keep_absolute(out.clone(), &c, &rules, &["C.04.9".into()]).unwrap_err();
        assert!(
            unknown
                .message
                .contains("“C.04.9” is not an absolute criterion"),
            "{unknown}"
        );
        // Named, it stands and is kept to be published with the round.
        let kept = keep_absolute(out, &c, &rules, &[" c.04.1B ".into()]).unwrap();
        assert_eq!(kept.overridden.len(), 1, "{:?}", kept.overridden);
        assert_eq!(kept.overridden[0].criterion, NO_REMATCH);
        // C.04.6's own pairing breaks nothing.
        let given = by_hand(&p, &[], "").unwrap();
        assert!(
            keep_absolute(given, &c, &rules, &[])
                .unwrap()
                .overridden
                .is_empty()
        );
    }

    #[test]
    fn c04_1_c_a_swap_that_gives_the_bye_to_a_team_that_scored_without_playing_is_refused() {
        let (mut c, rules, p) = paired_round();
        let given = p.bye.clone().expect("11 teams: one has the bye");
        // The team on board 1 scored round 1 without playing: its opponent forfeited.
        let scored = p.pairs[0].white.clone();
        let forfeited = c.rounds[0].pairings.iter_mut().find_map(|x| match x {
            Pairing::Match(m) if m.home == scored || m.away == scored => Some(m),
            _ => None,
        });
        let m = forfeited.expect("the team played round 1");
        let by = if m.home == scored {
            Side::Away
        } else {
            Side::Home
        };
        m.outcome = MatchOutcome::Forfeit { by };
        let swap = Swap {
            a: given.team.clone(),
            b: scored,
        };
        let out = by_hand(&p, &[swap], "asked for by the organiser").unwrap();
        let e = keep_absolute(out.clone(), &c, &rules, &[]).unwrap_err();
        assert_eq!(e.rule, ONE_BYE);
        assert!(
            e.message.contains("pairing-allocated bye at most once"),
            "{e}"
        );
        let kept = keep_absolute(out, &c, &rules, &["C.04.1 c".into()]).unwrap();
        assert!(kept.overridden.iter().any(|b| b.criterion == ONE_BYE));
    }

    #[test]
    fn the_next_round_waits_for_every_result() {
        let (c, rules, _) = paired_round();
        assert_eq!(next_round(&c, &rules).unwrap(), 4);
        let mut waiting = c.clone();
        if let Some(Pairing::Match(m)) = waiting.rounds[2]
            .pairings
            .iter_mut()
            .find(|p| matches!(p, Pairing::Match(_)))
        {
            m.outcome = MatchOutcome::Pending;
        }
        let e = next_round(&waiting, &rules).unwrap_err();
        assert_eq!(e.rule, "C.04.6 art. 1.2");
        assert!(e.message.contains("without a result"), "{e}");
    }
}
