//! Properties of the C.04.6 pairing (issue 17) on generated team Swiss events: every team to be
//! paired is paired once or given the bye, no two teams meet more than allowed ([C1]), and no
//! team gets the pairing-allocated bye after a bye, a forfeit win or a full-point bye ([C2]).
#![allow(clippy::unwrap_used, clippy::expect_used)] // a test: a failure is a panic

use std::collections::HashMap;

use arbiter_core::pairing::swiss::{self, Request};
use arbiter_core::record::model::{ByeKind, MatchOutcome, Pairing, TeamId};
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn c046_every_team_paired_once_none_meets_twice_no_second_bye(
        teams in 7usize..40,
        played in 1u32..6,
        seed in 1u64..1_000_000,
        absent_mask in any::<u64>(),
    ) {
        let (competition, rules) = swiss::sample::event(teams, 2, played + 2, played, seed).unwrap();
        let round = played + 1;
        let absent: Vec<TeamId> = competition
            .teams
            .iter()
            .enumerate()
            .filter(|(i, _)| absent_mask >> (i % 64) & 1 == 1 && i % 5 == 0)
            .map(|(_, t)| t.id.clone())
            .collect();
        let request = Request { round, absent: Some(absent.clone()), seed };
        let Ok(p) = swiss::pair(&competition, &rules, &request) else {
            // Art. 3.3.3: no legal pairing exists; the Chief Arbiter decides.
            return Ok(());
        };
        // Paired once, or the bye; the absent not at all.
        let mut seen: HashMap<TeamId, u32> = HashMap::new();
        for m in &p.pairs {
            *seen.entry(m.white.clone()).or_default() += 1;
            *seen.entry(m.black.clone()).or_default() += 1;
        }
        if let Some(b) = &p.bye {
            *seen.entry(b.team.clone()).or_default() += 1;
        }
        for t in &competition.teams {
            let want = u32::from(!absent.contains(&t.id));
            prop_assert_eq!(seen.get(&t.id).copied().unwrap_or(0), want, "team {}", t.id);
        }
        // [C1]: no rematch of a match played over the board.
        let mut met: HashMap<(TeamId, TeamId), u32> = HashMap::new();
        let mut barred: Vec<TeamId> = Vec::new();
        for r in &competition.rounds {
            for pairing in &r.pairings {
                match pairing {
                    Pairing::Match(m) => {
                        if matches!(m.outcome, MatchOutcome::Boards(_)) {
                            let key = if m.home < m.away { (m.home.clone(), m.away.clone()) } else { (m.away.clone(), m.home.clone()) };
                            *met.entry(key).or_default() += 1;
                        }
                        if let MatchOutcome::Forfeit { by } = m.outcome {
                            barred.push(m.team(by.other()).clone());
                        }
                    }
                    Pairing::Bye(b) if matches!(b.kind, ByeKind::PairingAllocated | ByeKind::FullPoint) => {
                        barred.push(b.team.clone());
                    }
                    Pairing::Bye(_) => {}
                }
            }
        }
        for m in &p.pairs {
            let key = if m.white < m.black { (m.white.clone(), m.black.clone()) } else { (m.black.clone(), m.white.clone()) };
            prop_assert!(met.get(&key).copied().unwrap_or(0) < rules.pairing.max_meetings, "{:?} meet again", key);
        }
        // [C2]
        if let Some(b) = &p.bye {
            prop_assert!(!barred.contains(&b.team), "team {} has a second bye", b.team);
        }
    }
}
