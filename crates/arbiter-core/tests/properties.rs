//! Invariants of scoring and standings over generated competitions (proptest).
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use std::collections::HashMap;

use arbiter_core::criteria::CriterionSpec;
use arbiter_core::model::*;
use arbiter_core::ruleset::Ruleset;
use arbiter_core::scoring::{EntryKind, score};
use arbiter_core::standings::{rank, standings};
use proptest::prelude::*;

/// A small deterministic generator, so that a failing case is reproducible from its seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

fn generate(seed: u64, teams: usize, rounds: usize, boards: usize) -> Competition {
    let mut rng = Rng(seed | 1);
    let ids: Vec<String> = (0..teams).map(|i| format!("t{i}")).collect();
    let names: Vec<&str> = ids.iter().map(String::as_str).collect();
    let mut all_rounds = Vec::new();
    for _ in 0..rounds {
        let mut order: Vec<usize> = (0..teams).collect();
        for i in (1..order.len()).rev() {
            let j = usize::try_from(rng.below(i as u64 + 1)).unwrap();
            order.swap(i, j);
        }
        let mut pairings = Vec::new();
        for pair in order.chunks(2) {
            match pair {
                [h, a] => {
                    let roll = rng.below(40);
                    let m = match roll {
                        0 => support::forfeited(&ids[*h], &ids[*a], Side::Away),
                        1 => support::forfeited(&ids[*h], &ids[*a], Side::Home),
                        2 => support::pending(&ids[*h], &ids[*a]),
                        _ => {
                            let code: String = (0..boards)
                                .map(|_| match rng.below(20) {
                                    0..=6 => '1',
                                    7..=12 => '0',
                                    13..=17 => '=',
                                    18 => '+',
                                    _ => ['-', 'x'][usize::try_from(rng.below(2)).unwrap()],
                                })
                                .collect();
                            support::played(&ids[*h], &ids[*a], &code)
                        }
                    };
                    pairings.push(m);
                }
                [b] => pairings.push(support::bye(&ids[*b])),
                _ => {}
            }
        }
        all_rounds.push(pairings);
    }
    support::competition(&names, all_rounds)
}

fn rulesets() -> Vec<Ruleset> {
    vec![
        Ruleset::preset("astc").unwrap(),
        Ruleset::preset("gthscl").unwrap(),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// The standings list every team exactly once.
    #[test]
    fn standings_are_a_permutation(seed: u64, teams in 1usize..12, rounds in 0usize..8) {
        for rules in rulesets() {
            let c = generate(seed, teams, rounds, rules.boards as usize);
            let s = standings(&c, &rules).unwrap();
            let mut seen: Vec<usize> = s.rows.iter().map(|r| r.team).collect();
            seen.sort_unstable();
            prop_assert_eq!(seen, (0..teams).collect::<Vec<_>>());
            // Ranks never go down the table, and a place is shared only by equal ranks.
            for w in s.rows.windows(2) {
                prop_assert!(w[0].rank <= w[1].rank);
                prop_assert_eq!(w[0].rank == w[1].rank, w[0].place == w[1].place);
            }
        }
    }

    /// GT-S1, GT-S2: the game points of a played match add up to the boards, less one point for
    /// each double default (which scores for nobody).
    #[test]
    fn played_match_points_add_up(seed: u64, teams in 2usize..12, rounds in 1usize..8) {
        for rules in rulesets() {
            let c = generate(seed, teams, rounds, rules.boards as usize);
            let sheet = score(&c, &rules);
            for team in &sheet.teams {
                for e in team.entries.iter().filter(|e| e.kind == EntryKind::Played) {
                    let doubles = e.boards.iter().filter(|b| b.outcome == GameOutcome::DoubleForfeit).count();
                    let expected = (rules.boards as usize - doubles) as f64;
                    prop_assert_eq!(e.game_points + e.opponent_game_points, expected);
                }
            }
        }
    }

    /// Renaming and reordering the teams changes no figure: every team keeps its place and values.
    #[test]
    fn swapping_team_ids_changes_no_figure(seed: u64, teams in 2usize..10, rounds in 1usize..7, shift in 1usize..9) {
        for rules in rulesets() {
            let c = generate(seed, teams, rounds, rules.boards as usize);
            let mut renamed = c.clone();
            // Rotate the team list and give every team a new id; names stay with their team.
            renamed.teams.rotate_left(shift % teams);
            let new_id = |id: &TeamId| TeamId(format!("renamed-{}", id.0));
            for t in &mut renamed.teams {
                t.id = new_id(&t.id);
            }
            for r in &mut renamed.rounds {
                for p in &mut r.pairings {
                    match p {
                        Pairing::Match(m) => {
                            m.home = new_id(&m.home);
                            m.away = new_id(&m.away);
                        }
                        Pairing::Bye(b) => b.team = new_id(&b.team),
                    }
                }
            }
            let by_name = |c: &Competition| -> HashMap<String, (String, Vec<String>)> {
                let s = standings(c, &rules).unwrap();
                s.rows.iter().map(|r| (
                    c.teams[r.team].name.clone(),
                    (r.place.clone(), r.values.iter().map(|v| v.display()).collect()),
                )).collect()
            };
            prop_assert_eq!(by_name(&c), by_name(&renamed));
        }
    }

    /// Adding a criterion at the end never merges places: teams apart stay apart, in order.
    #[test]
    fn adding_a_criterion_never_merges_places(seed: u64, teams in 2usize..12, rounds in 1usize..8, extra in 0usize..4) {
        for rules in rulesets() {
            let c = generate(seed, teams, rounds, rules.boards as usize);
            let sheet = score(&c, &rules);
            let extras = ["GP", "MP", "H2H:GP", "H2H:BOARDS"];
            let short: Vec<CriterionSpec> = rules.criteria[..1].to_vec();
            let mut long = short.clone();
            long.push(CriterionSpec::parse(extras[extra]).unwrap());
            let a = rank(&c, &rules, &sheet, &short).unwrap();
            let b = rank(&c, &rules, &sheet, &long).unwrap();
            let place_a: HashMap<usize, usize> = a.rows.iter().map(|r| (r.team, r.rank)).collect();
            let place_b: HashMap<usize, usize> = b.rows.iter().map(|r| (r.team, r.rank)).collect();
            for x in 0..teams {
                for y in 0..teams {
                    if place_a[&x] < place_a[&y] {
                        prop_assert!(place_b[&x] < place_b[&y], "{} and {} merged or swapped", x, y);
                    }
                }
            }
            // And the full list against the list without its last criterion.
            let full = rank(&c, &rules, &sheet, &rules.criteria).unwrap();
            let fewer = rank(&c, &rules, &sheet, &rules.criteria[..rules.criteria.len() - 1]).unwrap();
            let pf: HashMap<usize, usize> = full.rows.iter().map(|r| (r.team, r.rank)).collect();
            let pl: HashMap<usize, usize> = fewer.rows.iter().map(|r| (r.team, r.rank)).collect();
            for x in 0..teams {
                for y in 0..teams {
                    if pl[&x] < pl[&y] {
                        prop_assert!(pf[&x] < pf[&y]);
                    }
                }
            }
        }
    }
}
