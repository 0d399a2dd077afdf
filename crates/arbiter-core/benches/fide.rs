//! FIDE team tie-breaks (C.07): a generated 2,000-team, 11-round team Swiss on 4 boards ranked
//! by match points and the full FIDE list. Target: under 50 ms on one core.

use std::hint::black_box;

use arbiter_core::record::model::*;
use arbiter_core::rules::criteria::CriterionSpec;
use arbiter_core::rules::ruleset::Ruleset;
use arbiter_core::scoring;
use arbiter_core::scoring::standings::rank;
use criterion::{Criterion, criterion_group, criterion_main};

const LIST: &str = "PTS,EDET/P,EMGSB/C1/P,BH:MP/C1/P,MPvGP,EMMSB,EGGSB,BH:GP,BC,SSSC,TBR,BBE,WIN";

/// xorshift64: deterministic, no dependency.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }

    fn result(&mut self) -> GameResult {
        match self.below(100) {
            0..=34 => GameResult::HomeWin,
            35..=64 => GameResult::Draw,
            65..=97 => GameResult::AwayWin,
            98 => GameResult::HomeWinByForfeit,
            _ => GameResult::AwayWinByForfeit,
        }
    }
}

/// A team Swiss: each round the teams still in are sorted by match points, then game points
/// (ties in random order), and paired in that order; one match in 200 is forfeited, one team in
/// 100 takes a half-point bye, and 20 teams withdraw along the way.
fn team_swiss(n: usize, rounds: u32, boards: u32, seed: u64) -> (Competition, Ruleset) {
    let rules = Ruleset::preset("fide-team")
        .and_then(|r| r.with(|r| r.boards = boards).ok())
        .unwrap_or_else(|| unreachable!());
    let mut rng = XorShift(seed);
    let teams: Vec<Team> = (1..=n)
        .map(|i| Team {
            id: TeamId(format!("t{i:04}")),
            name: format!("Team {i}"),
            school: None,
            players: Vec::new(),
        })
        .collect();
    let mut competition = Competition {
        name: "Generated team Swiss".into(),
        teams,
        rounds: Vec::new(),
    };
    let withdrawn: Vec<(usize, u32)> = (0..20)
        .map(|_| {
            (
                rng.below(n as u64) as usize,
                1 + rng.below(u64::from(rounds)) as u32,
            )
        })
        .collect();
    for number in 1..=rounds {
        competition.rounds.push(Round {
            number,
            date: None,
            pairings: Vec::new(),
        });
        let sheet = scoring::score(&competition, &rules);
        let mut order: Vec<(f64, f64, u64, usize)> = (0..n)
            .filter(|t| !withdrawn.iter().any(|&(w, r)| w == *t && number > r))
            .map(|t| {
                let s = &sheet.teams[t];
                (s.match_points, s.game_points, rng.next(), t)
            })
            .collect();
        order.sort_by(|a, b| {
            b.0.total_cmp(&a.0)
                .then(b.1.total_cmp(&a.1))
                .then(a.2.cmp(&b.2))
        });
        let mut pairings = Vec::new();
        let mut playing: Vec<usize> = Vec::new();
        for &(_, _, _, t) in &order {
            if rng.below(100) == 0 {
                pairings.push(Pairing::Bye(Bye {
                    team: competition.teams[t].id.clone(),
                    kind: ByeKind::HalfPoint,
                }));
            } else {
                playing.push(t);
            }
        }
        if playing.len() % 2 == 1
            && let Some(t) = playing.pop()
        {
            pairings.push(Pairing::Bye(Bye {
                team: competition.teams[t].id.clone(),
                kind: ByeKind::PairingAllocated,
            }));
        }
        for pair in playing.chunks_exact(2) {
            let outcome = match rng.below(200) {
                0 => MatchOutcome::Forfeit { by: Side::Away },
                _ => MatchOutcome::Boards((0..boards).map(|_| Board::new(rng.result())).collect()),
            };
            pairings.push(Pairing::Match(Match {
                date: None,
                home: competition.teams[pair[0]].id.clone(),
                away: competition.teams[pair[1]].id.clone(),
                outcome,
                start: None,
                extra_games: Vec::new(),
                late: None,
            }));
        }
        if let Some(r) = competition.rounds.last_mut() {
            r.pairings = pairings;
        }
    }
    (competition, rules)
}

fn fide(c: &mut Criterion) {
    let (competition, rules) = team_swiss(2000, 11, 4, 0x5eed_f1de);
    let criteria: Vec<CriterionSpec> = LIST
        .split(',')
        .map(|code| CriterionSpec::parse(code).unwrap_or_else(|e| panic!("{e}")))
        .collect();
    let sheet = scoring::score(&competition, &rules);
    c.bench_function(
        "fide team swiss 2000x11, full FIDE list (score + rank)",
        |b| {
            b.iter(|| {
                let sheet = scoring::score(black_box(&competition), &rules);
                rank(&competition, &rules, &sheet, black_box(&criteria)).map(|s| s.rows.len())
            })
        },
    );
    c.bench_function("fide team swiss 2000x11, full FIDE list (rank only)", |b| {
        b.iter(|| {
            rank(
                black_box(&competition),
                &rules,
                &sheet,
                black_box(&criteria),
            )
            .map(|s| s.rows.len())
        })
    });
}

criterion_group!(benches, fide);
criterion_main!(benches);
