//! A team Swiss played round by round on this engine's pairings: deterministic from a seed,
//! with forfeits, requested byes, late entries and withdrawals. For benchmarks, property tests
//! and the differential files; pure.

use super::{Request, pair};
use crate::record::model::{
    Board, Bye, ByeKind, Competition, GameResult, Match, MatchOutcome, Pairing, Player, PlayerId,
    Round, Side, Team, TeamId,
};
use crate::rules::ruleset::{InitialColour, Ruleset};

/// `teams` teams of `boards` players (ids `1`, `2`, ...: start numbers), the first `played`
/// rounds of `rounds` paired by C.04.6 and played from `seed`; the `fide-team` rules with the
/// event's length and White as the initial-colour.
pub fn event(
    teams: usize,
    boards: u32,
    rounds: u32,
    played: u32,
    seed: u64,
) -> Result<(Competition, Ruleset), super::PairingError> {
    let rules = Ruleset::preset("fide-team")
        .and_then(|r| {
            r.with(|r| {
                r.boards = boards.max(1);
                r.pairing.rounds = Some(rounds.max(played).max(1));
                r.pairing.initial_colour = InitialColour::White;
            })
            .ok()
        })
        .ok_or_else(|| super::PairingError {
            rule: "C.04.6",
            message: "the fide-team preset does not take these settings".into(),
        })?;
    let mut rng = seed | 1;
    let mut next = move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    let mut competition = Competition {
        name: "A generated team Swiss".into(),
        teams: (1..=teams)
            .map(|i| Team {
                id: TeamId(i.to_string()),
                name: format!("Team {i}"),
                school: None,
                players: (1..=boards)
                    .map(|b| Player {
                        id: PlayerId(format!("{i}.{b}")),
                        name: format!("Player {b} of team {i}"),
                        ..Player::default()
                    })
                    .collect(),
            })
            .collect(),
        rounds: Vec::new(),
    };
    // A few teams come late or leave early.
    let late: Vec<(usize, u32)> = (0..teams / 20)
        .map(|_| ((next() % teams as u64) as usize, 1 + (next() % 3) as u32))
        .collect();
    let gone: Vec<(usize, u32)> = (0..teams / 20)
        .map(|_| {
            (
                (next() % teams as u64) as usize,
                1 + (next() % u64::from(played.max(1))) as u32,
            )
        })
        .collect();
    for number in 1..=played {
        let mut pairings = Vec::new();
        let mut absent = Vec::new();
        for (t, team) in competition.teams.iter().enumerate() {
            let out = late.iter().any(|&(l, r)| l == t && number < r)
                || gone.iter().any(|&(g, r)| g == t && number > r);
            if out {
                absent.push(team.id.clone());
            } else if next() % 50 == 0 {
                absent.push(team.id.clone());
                pairings.push(Pairing::Bye(Bye {
                    team: team.id.clone(),
                    kind: if next() % 2 == 0 {
                        ByeKind::HalfPoint
                    } else {
                        ByeKind::ZeroPoint
                    },
                }));
            }
        }
        let request = Request {
            round: number,
            absent: Some(absent),
            seed,
        };
        let paired = pair(&competition, &rules, &request)?;
        for m in &paired.pairs {
            let outcome = match next() % 100 {
                0 => MatchOutcome::Forfeit { by: Side::Away },
                1 => MatchOutcome::Forfeit { by: Side::Home },
                _ => MatchOutcome::Boards(
                    (0..boards as usize)
                        .map(|b| {
                            let result = match next() % 10 {
                                0..=3 => GameResult::HomeWin,
                                4..=6 => GameResult::Draw,
                                _ => GameResult::AwayWin,
                            };
                            let player = |id: &TeamId| {
                                competition
                                    .team(id)
                                    .and_then(|t| t.players.get(b))
                                    .map(|p| p.id.clone())
                            };
                            Board {
                                home_player: player(&m.white),
                                away_player: player(&m.black),
                                ..Board::new(result)
                            }
                        })
                        .collect(),
                ),
            };
            pairings.push(Pairing::Match(Match {
                home: m.white.clone(),
                away: m.black.clone(),
                outcome,
                date: None,
                start: None,
                extra_games: Vec::new(),
                late: None,
            }));
        }
        if let Some(b) = &paired.bye {
            pairings.push(Pairing::Bye(Bye {
                team: b.team.clone(),
                kind: ByeKind::PairingAllocated,
            }));
        }
        competition.rounds.push(Round {
            number,
            date: None,
            pairings,
        });
    }
    Ok((competition, rules))
}

/// A swap of `paired` that pairs two teams who met in `competition`'s rounds before: what an
/// absolute criterion (C.04.1 b) refuses. `None` when no swap makes a rematch.
pub fn rematching_swap(
    competition: &Competition,
    paired: &super::RoundPairing,
) -> Option<super::Swap> {
    let met = |a: &TeamId, b: &TeamId| {
        competition
            .rounds
            .iter()
            .flat_map(|r| r.matches())
            .any(|m| (&m.home == a && &m.away == b) || (&m.home == b && &m.away == a))
    };
    for (i, x) in paired.pairs.iter().enumerate() {
        for y in &paired.pairs[i + 1..] {
            // Trading `moves` with `other` pairs `stay` with `other`.
            for (stay, moves) in [(&x.white, &x.black), (&x.black, &x.white)] {
                for other in [&y.white, &y.black] {
                    if met(stay, other) {
                        return Some(super::Swap {
                            a: moves.clone(),
                            b: other.clone(),
                        });
                    }
                }
            }
        }
    }
    None
}
