//! The race against a brute force that plays every board of every remaining match through the
//! real standings; certificates checked on larger divisions; sentences played out.

use super::*;
use crate::pairing::schedule::{Cycles, apply_to, round_robin};
use crate::record::model::{Board, GameResult, MatchOutcome, Pairing, Side, Team};
use crate::rules::criteria::CriterionSpec;
use crate::scoring;
use crate::testing::{competition, pending, played};
use proptest::prelude::*;

/// xorshift64: a seeded generator without a dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// A remaining match as the oracle finds it: where it is, and its boards still to play.
struct Left {
    at: (usize, usize),
    home: usize,
    away: usize,
    known: Vec<GameResult>,
}

/// The matches still to play between teams not dropped (as the standings' scoring says).
fn left(c: &Competition, rules: &Ruleset) -> Vec<Left> {
    let sheet = scoring::score(c, rules);
    let b = rules.boards as usize;
    let mut out = Vec::new();
    for (ri, r) in c.rounds.iter().enumerate() {
        for (pi, p) in r.pairings.iter().enumerate() {
            let Pairing::Match(m) = p else { continue };
            let (h, a) = (
                c.team_index(&m.home).unwrap(),
                c.team_index(&m.away).unwrap(),
            );
            if sheet.teams[h].dropped.is_some() || sheet.teams[a].dropped.is_some() {
                continue;
            }
            let known = match &m.outcome {
                MatchOutcome::Pending => vec![GameResult::Pending; b],
                MatchOutcome::Boards(x) if x.iter().any(|x| x.result == GameResult::Pending) => {
                    x.iter().map(|x| x.result).collect()
                }
                _ => continue,
            };
            out.push(Left {
                at: (ri, pi),
                home: h,
                away: a,
                known,
            });
        }
    }
    out
}

/// Every board still pending won, drawn or lost; the others as they are.
fn every_way(known: &[GameResult]) -> Vec<Vec<GameResult>> {
    let free = known.iter().filter(|r| **r == GameResult::Pending).count();
    (0..3usize.pow(free as u32))
        .map(|code| {
            let mut x = code;
            known
                .iter()
                .map(|&k| {
                    if k != GameResult::Pending {
                        return k;
                    }
                    let r = [GameResult::HomeWin, GameResult::Draw, GameResult::AwayWin][x % 3];
                    x /= 3;
                    r
                })
                .collect()
        })
        .collect()
}

/// The number of scenarios the oracle would play.
fn scenarios(c: &Competition, rules: &Ruleset) -> usize {
    left(c, rules)
        .iter()
        .map(|l| every_way(&l.known).len())
        .product()
}

/// Plays every scenario: `f` gets the played competition, each team's (first, last) place and
/// each remaining match's (home, away, boards).
fn oracle(
    c: &Competition,
    rules: &Ruleset,
    mut f: impl FnMut(&[(usize, usize)], &[(usize, usize, u32, Vec<GameResult>)]),
) {
    let ls = left(c, rules);
    let ways: Vec<Vec<Vec<GameResult>>> = ls.iter().map(|l| every_way(&l.known)).collect();
    let mut pick = vec![0usize; ls.len()];
    let mut x = c.clone();
    loop {
        let mut results = Vec::with_capacity(ls.len());
        for (k, l) in ls.iter().enumerate() {
            let boards = ways[k][pick[k]].clone();
            if let Pairing::Match(m) = &mut x.rounds[l.at.0].pairings[l.at.1] {
                m.outcome = MatchOutcome::Boards(boards.iter().map(|&r| Board::new(r)).collect());
            }
            results.push((l.home, l.away, c.rounds[l.at.0].number, boards));
        }
        let places = remaining::places(&x, rules).unwrap();
        f(&places, &results);
        let mut k = 0;
        loop {
            if k == pick.len() {
                return;
            }
            pick[k] += 1;
            if pick[k] < ways[k].len() {
                break;
            }
            pick[k] = 0;
            k += 1;
        }
    }
}

/// What side `s` of a match with these boards scores of the first criterion.
fn first_criterion(rules: &Ruleset, boards: &[GameResult], s: usize) -> f64 {
    let side = [Side::Home, Side::Away];
    let gp = |s: usize| -> f64 {
        boards
            .iter()
            .map(|b| scoring::game_points(rules, b.outcome_for(side[s])))
            .sum()
    };
    // The match is decided on board points: the game points unless `[scoring]` weighs boards.
    let bp = scoring::match_board_points(rules, boards);
    match remaining::primary(rules) {
        Some(remaining::Primary::Gp) => gp(s),
        _ => scoring::match_points(rules, bp[s], bp[1 - s]),
    }
}

/// The race against the oracle: identical best and worst places, clinched and eliminated, every
/// certificate valid, every condition of every sentence played out.
fn agrees(c: &Competition, rules: &Ruleset) -> Result<(), String> {
    agrees_with(c, rules, true)
}

/// As [`agrees`], the whole-division search on (`whole`) or off: off, the teams the bounds
/// leave open are the branch and bound's alone.
fn agrees_with(c: &Competition, rules: &Ruleset, whole: bool) -> Result<(), String> {
    let r = race_with(c, rules, DEFAULT_BUDGET, whole, true).map_err(|e| e.to_string())?;
    let n = c.teams.len();
    let mut best = vec![usize::MAX; n];
    let mut worst = vec![0usize; n];
    let mut broken: Option<String> = None;
    let index = |id: &TeamId| c.team_index(id).unwrap();
    oracle(c, rules, |places, results| {
        for (t, &(lo, hi)) in places.iter().enumerate() {
            best[t] = best[t].min(lo);
            worst[t] = worst[t].max(hi);
        }
        for tr in &r.teams {
            let t = index(&tr.team);
            for cond in &tr.conditions {
                let gain: f64 = results
                    .iter()
                    .filter(|(h, a, _, _)| *h == t || *a == t)
                    .map(|(h, _, _, b)| first_criterion(rules, b, usize::from(*h != t)))
                    .sum();
                let meets = cond.least.is_none_or(|l| gain >= l)
                    && cond.results.iter().all(|req| {
                        results.iter().any(|(h, a, round, b)| {
                            *round == req.round
                                && *h == index(&req.home)
                                && *a == index(&req.away)
                                && first_criterion(rules, b, 0) == req.home_scores
                        })
                    });
                if meets && places[t].1 > cond.target as usize && broken.is_none() {
                    broken = Some(format!(
                        "{}: \"{}\" is not sufficient: a scenario meeting it puts it {}",
                        tr.name, tr.needs, places[t].1
                    ));
                }
            }
        }
    });
    if let Some(b) = broken {
        return Err(b);
    }
    let q = r.qualifiers.map(|q| q as usize);
    for tr in &r.teams {
        let t = index(&tr.team);
        let told = (tr.best as usize, tr.worst as usize);
        if !tr.exact || told != (best[t], worst[t]) {
            return Err(format!(
                "{}: race {told:?} (exact {}), brute force {:?}",
                tr.name,
                tr.exact,
                (best[t], worst[t])
            ));
        }
        let expect_title = if worst[t] == 1 {
            Chance::Clinched
        } else if best[t] > 1 {
            Chance::Out
        } else {
            Chance::Open
        };
        if tr.title != expect_title {
            return Err(format!("{}: title {:?}", tr.name, tr.title));
        }
        if let Some(q) = q {
            let expect = if worst[t] <= q {
                Chance::Clinched
            } else if best[t] > q {
                Chance::Out
            } else {
                Chance::Open
            };
            if tr.playoffs != Some(expect) {
                return Err(format!("{}: playoffs {:?}", tr.name, tr.playoffs));
            }
            let eliminated = tr.label == RaceLabel::Eliminated;
            if eliminated != (best[t] > q) {
                return Err(format!("{}: label {:?}", tr.name, tr.label));
            }
        }
        if (tr.label == RaceLabel::ClinchedFirst) != (worst[t] == 1) {
            return Err(format!("{}: label {:?}", tr.name, tr.label));
        }
        tr.certificate
            .check(c, rules)
            .map_err(|e| format!("{}: {e}", tr.name))?;
    }
    Ok(())
}

/// A season of `teams` (the Berger tables, once or twice round) on the ruleset's boards, every
/// match played but the last `left` (draw-heavy, so ties are common), with `forfeits` match
/// forfeits by the last team in its first matches.
fn season(teams: u32, cycles: Cycles, left: usize, rules: &Ruleset, rng: &mut Rng) -> Competition {
    let ids: Vec<TeamId> = (0..teams).map(|i| TeamId(format!("t{i}"))).collect();
    let schedule = round_robin(teams, cycles).unwrap();
    let mut rounds = apply_to(&schedule, &ids).unwrap();
    let total: usize = rounds
        .iter()
        .map(|r| {
            r.pairings
                .iter()
                .filter(|p| matches!(p, Pairing::Match(_)))
                .count()
        })
        .sum();
    let mut k = 0;
    for r in &mut rounds {
        for p in &mut r.pairings {
            if let Pairing::Match(m) = p {
                if k < total - left {
                    m.outcome = MatchOutcome::Boards(
                        (0..rules.boards)
                            .map(|_| {
                                Board::new(match rng.below(5) {
                                    0 | 1 => GameResult::Draw,
                                    2 | 3 => GameResult::HomeWin,
                                    _ => GameResult::AwayWin,
                                })
                            })
                            .collect(),
                    );
                }
                k += 1;
            }
        }
    }
    Competition {
        name: "Generated".into(),
        teams: ids
            .iter()
            .map(|id| Team {
                id: id.clone(),
                name: id.0.to_uppercase(),
                school: None,
                players: Vec::new(),
            })
            .collect(),
        rounds,
    }
}

/// Whole-match forfeits (GT-M7) by `team` in its first `count` matches already played.
fn forfeit(c: &mut Competition, team: &str, count: usize) {
    let mut done = 0;
    for r in &mut c.rounds {
        for p in &mut r.pairings {
            if let Pairing::Match(m) = p
                && done < count
                && m.outcome != MatchOutcome::Pending
                && (m.home.0 == team || m.away.0 == team)
            {
                let by = if m.home.0 == team {
                    Side::Home
                } else {
                    Side::Away
                };
                m.outcome = MatchOutcome::Forfeit { by };
                done += 1;
            }
        }
    }
}

/// The rulesets of the differential tests: each preset's criteria, and a FIDE list, with
/// GT-F3's two qualifiers, on `boards` boards.
fn rulesets(boards: u32) -> Vec<(&'static str, Ruleset)> {
    let gthscl = Ruleset::preset("gthscl").unwrap();
    let playoffs = gthscl.playoffs.clone();
    let on = |r: Ruleset| {
        let po = playoffs.clone();
        r.with(|s| {
            s.boards = boards;
            s.playoffs = po;
        })
        .unwrap()
    };
    let fide = on(gthscl.clone())
        .with(|r| {
            r.criteria = vec![
                CriterionSpec::parse("MP").unwrap(),
                CriterionSpec::parse("BH:MP").unwrap(),
            ]
        })
        .unwrap();
    vec![
        ("gthscl", on(gthscl.clone())),
        ("astc", on(Ruleset::preset("astc").unwrap())),
        ("fide-team", on(Ruleset::preset("fide-team").unwrap())),
        ("MP, BH:MP", fide),
    ]
}

/// Every small case from a seeded generator (4 to 6 teams, 1 to 6 matches left, 1, 2 or 4
/// boards, the first `rulesets` of [`rulesets`]) held against the brute force by `agrees`:
/// the number of cases.
fn small_cases(
    seed: u64,
    rulesets_taken: usize,
    agrees: impl Fn(&Competition, &Ruleset) -> Result<(), String>,
) -> usize {
    small_cases_of(seed, rulesets, rulesets_taken, agrees)
}

/// As [`small_cases`], under the rulesets `make` gives for a number of boards.
fn small_cases_of(
    seed: u64,
    make: fn(u32) -> Vec<(&'static str, Ruleset)>,
    rulesets_taken: usize,
    agrees: impl Fn(&Competition, &Ruleset) -> Result<(), String>,
) -> usize {
    let mut rng = Rng(seed);
    let mut cases = 0;
    for teams in 4..=6u32 {
        for left in 1..=6usize {
            for boards in [1u32, 2, 4] {
                for (name, rules) in make(boards).into_iter().take(rulesets_taken) {
                    for _ in 0..2 {
                        let c = season(teams, Cycles::Single, left, &rules, &mut rng);
                        if scenarios(&c, &rules) > 6_600 {
                            continue;
                        }
                        cases += 1;
                        if let Err(e) = agrees(&c, &rules) {
                            panic!("{name}, {teams} teams, {left} left, {boards} boards: {e}");
                        }
                    }
                }
            }
        }
    }
    cases
}

/// Rulesets of other leagues (`[scoring]`, the criteria `BP`, `WINS`, `DEFAULTS`, `BERLINER`)
/// on `boards` boards, with GT-F3's two qualifiers.
fn other_leagues(boards: u32) -> Vec<(&'static str, Ruleset)> {
    let base = rulesets(boards).remove(0).1;
    let with = |codes: &[&str], change: fn(&mut crate::rules::ruleset::RulesetSpec)| {
        base.with(|r| {
            r.criteria = codes
                .iter()
                .map(|c| CriterionSpec::parse(c).unwrap())
                .collect();
            change(r);
        })
        .unwrap()
    };
    vec![
        (
            "MP, GP, BERLINER by half of the boards",
            with(&["MP", "GP", "BERLINER"], |r| {
                r.match_points = crate::rules::ruleset::PointScale {
                    win: 2.0,
                    draw: 1.0,
                    loss: 0.0,
                };
                r.scoring.decided_by = crate::rules::ruleset::MatchDecision::HalfOfBoards;
            }),
        ),
        (
            "MP, BP on weighted boards",
            with(&["MP", "BP"], |r| {
                r.scoring.board_weights = (1..=r.boards).rev().map(|w| w + 1).collect();
            }),
        ),
        (
            "MP, WINS, DEFAULTS",
            with(&["MP", "WINS", "DEFAULTS"], |_| {}),
        ),
        ("MP, TOP:2, LOT:7", with(&["MP", "TOP:2", "LOT:7"], |_| {})),
    ]
}

/// Other leagues' scoring and criteria: the race equal to the brute force in every best and
/// worst place, clinched and eliminated; none is clinched or eliminated on a guess.
#[test]
fn other_leagues_the_race_equals_a_brute_force_on_every_small_case() {
    let cases = small_cases_of(0x0034_0004, other_leagues, 4, agrees);
    assert!(cases >= 80, "{cases} cases");
}

/// GT-S5, AS-14..AS-18, C.07: every small case from a seeded generator (every preset's criteria
/// and a FIDE list), the race equal to the brute force in every best and worst place, clinched
/// and eliminated.
#[test]
fn gt_s5_as_18_the_race_equals_a_brute_force_on_every_small_case() {
    let cases = small_cases(0x005e_ed36, 4, agrees);
    assert!(cases >= 100, "{cases} cases");
}

/// GT-S5, AS-14..AS-18: the branch and bound alone (no whole-division search) on every small
/// case of the native criteria (GTHSCL's, ASTC's), equal to the brute force in every best and
/// worst place, each scenario it finds a certificate that checks.
#[test]
fn gt_s5_as_18_the_branch_and_bound_alone_equals_a_brute_force() {
    let cases = small_cases(0x00b0_b036, 2, |c, rules| agrees_with(c, rules, false));
    assert!(cases >= 50, "{cases} cases");
}

/// GT-S5, GT-F3: mid-season (12 matches left of a division of 12 to 16), where the bounds and
/// the whole-division search leave teams "not yet decided", the branch and bound decides more
/// of them, never fewer, each certificate checking through the real standings, and decides
/// whole divisions exactly that were open before.
#[test]
fn gt_s5_gt_f3_mid_season_the_teams_left_open_are_decided_by_the_branch_and_bound() {
    let mut rng = Rng(0x3636_0012);
    let mut decided = 0;
    for k in 0..6u32 {
        let rules = &rulesets(4)[(k % 2) as usize].1;
        let teams = [12, 14, 16][(k / 2 % 3) as usize];
        let c = season(teams, Cycles::Single, 12, rules, &mut rng);
        let before = race_with(&c, rules, DEFAULT_BUDGET, true, false).unwrap();
        let r = race(&c, rules, DEFAULT_BUDGET).unwrap();
        let exact = |r: &Race| r.teams.iter().filter(|t| t.exact).count();
        assert!(exact(&r) >= exact(&before), "{k}");
        if exact(&before) < r.teams.len() && exact(&r) == r.teams.len() {
            decided += 1;
        }
        for (t, b) in r.teams.iter().zip(&before.teams) {
            assert!(t.best >= b.best && t.worst <= b.worst, "{t:?} {b:?}");
            t.certificate.check(&c, rules).unwrap();
            if t.exact {
                assert_ne!(t.label, RaceLabel::NotYetDecided);
                assert_eq!(t.certificate.best.as_ref().map(|x| x.place), Some(t.best));
                assert_eq!(t.certificate.worst.as_ref().map(|x| x.place), Some(t.worst));
            }
        }
    }
    assert!(decided > 0);
}

/// GT-M7, GT-M5: forfeits already played, and a team dropped for its second: the race agrees
/// with the brute force, the dropped team below every team still in the league.
#[test]
fn gt_m5_gt_m7_forfeits_and_a_dropped_team_agree_with_the_brute_force() {
    let mut rng = Rng(0x000f_0f36);
    let mut dropped = 0;
    for teams in 5..=6u32 {
        for left in [2usize, 3, 4] {
            for (name, rules) in rulesets(2) {
                let mut c = season(teams, Cycles::Single, left, &rules, &mut rng);
                // One forfeit by t0 (still in), two by the last team: dropped where the rules
                // drop (GT-M5).
                forfeit(&mut c, "t0", 1);
                forfeit(&mut c, &format!("t{}", teams - 1), 2);
                if scoring::score(&c, &rules)
                    .teams
                    .iter()
                    .any(|t| t.dropped.is_some())
                {
                    dropped += 1;
                }
                if scenarios(&c, &rules) > 6_600 {
                    continue;
                }
                if let Err(e) = agrees(&c, &rules) {
                    panic!("{name}, {teams} teams, {left} left: {e}");
                }
            }
        }
    }
    assert!(dropped > 0);
}

/// A match with some boards in is played out on the others only.
#[test]
fn a_match_half_reported_is_played_out_on_its_other_boards() {
    let rules = Ruleset::preset("gthscl").unwrap();
    let mut rng = Rng(77);
    for _ in 0..4 {
        let mut c = season(5, Cycles::Single, 2, &rules, &mut rng);
        let last = c.rounds.len() - 1;
        if let Some(Pairing::Match(m)) = c.rounds[last]
            .pairings
            .iter_mut()
            .find(|p| matches!(p, Pairing::Match(_)))
        {
            m.outcome = MatchOutcome::Boards(crate::testing::boards("1=**"));
        }
        agrees(&c, &rules).unwrap();
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

    /// GT-S5, AS-17: on divisions of 8 to 16 teams at any round of a single or double round
    /// robin, every certificate checks through the real standings, and a team's range holds
    /// the places its scenarios reach.
    #[test]
    fn gt_s5_every_certificate_of_a_larger_division_checks(
        teams in 8u32..=16,
        double in any::<bool>(),
        done in 0.0f64..1.0,
        astc in any::<bool>(),
        seed in 1u64..u64::MAX,
    ) {
        let rules = &rulesets(4)[usize::from(astc)].1;
        let cycles = if double { Cycles::Double } else { Cycles::Single };
        let mut rng = Rng(seed);
        let matches = (teams / 2 * (teams - 1)) as usize * if double { 2 } else { 1 };
        let left = 1 + ((matches - 1) as f64 * (1.0 - done)) as usize;
        let c = season(teams, cycles, left, rules, &mut rng);
        let r = race(&c, rules, DEFAULT_BUDGET).unwrap();
        for t in &r.teams {
            prop_assert!(t.best <= t.worst, "{t:?}");
            let check = t.certificate.check(&c, rules);
            prop_assert!(check.is_ok(), "{}: {:?}", t.name, check);
            for (reached, bound) in [(&t.certificate.best, t.best), (&t.certificate.worst, t.worst)] {
                if let Some(x) = reached {
                    prop_assert!(x.place >= t.best && x.place <= t.worst && (t.exact <= (x.place == bound)));
                }
            }
        }
    }
}

/// Four teams, one round left: A (3 MP) plays D; B (2) plays C (1½).
fn close() -> Competition {
    competition(
        &["a", "b", "c", "d"],
        vec![
            vec![played("a", "b", "11=0"), played("c", "d", "11=0")],
            vec![played("a", "c", "1110"), played("b", "d", "1111")],
            vec![played("a", "d", "1111"), played("b", "c", "11=0")],
            vec![played("b", "a", "11=0"), played("d", "c", "===0")],
            vec![pending("a", "d"), pending("b", "c")],
        ],
    )
}

#[test]
fn gt_f3_the_race_says_clinched_eliminated_and_what_a_team_needs() {
    let rules = Ruleset::preset("gthscl").unwrap();
    let c = close();
    agrees(&c, &rules).unwrap();
    let r = race(&c, &rules, DEFAULT_BUDGET).unwrap();
    let of = |id: &str| r.teams.iter().find(|t| t.team.0 == id).unwrap();
    assert_eq!(r.matches_left, 2);
    assert_eq!(r.qualifiers, Some(2));
    let d = of("d");
    assert_eq!(d.label, RaceLabel::Eliminated);
    assert!(
        d.needs
            .starts_with("Cannot reach a playoff place; its best finish is"),
        "{}",
        d.needs
    );
    let b = of("b");
    assert_eq!(
        b.needs,
        "First place is out of its own hands: it is certain if it wins its last match, and A and D draw. A playoff place is certain if it takes at least ½ match point in its last match."
    );
    let a = of("a");
    assert_eq!(a.label, RaceLabel::ClinchedPlayoffPlace, "{a:?}");
    assert_eq!((a.best, a.worst), (1, 2));
    assert_eq!(
        a.needs,
        "Has clinched a playoff place. First place is out of its own hands: it is certain if it wins its last match, and B and C draw."
    );
    let c3 = of("c");
    assert_eq!(c3.label, RaceLabel::Open);
    assert_eq!((c3.best, c3.worst), (1, 3));
    // Level with A and B at 3 match points, game points decide: no result of its own suffices.
    assert_eq!(
        c3.needs,
        "First place is possible, if other results go its way. A playoff place is possible, if other results go its way."
    );
    assert_eq!(
        RaceLabel::ClinchedPlayoffPlace.words(),
        "clinched a playoff place"
    );
}

/// One round left and a team two match points clear: first place is clinched.
#[test]
fn gt_f3_the_race_says_clinched_first_when_no_result_can_take_it() {
    let rules = Ruleset::preset("gthscl").unwrap();
    let c = competition(
        &["a", "b", "c"],
        vec![
            vec![played("a", "b", "1111")],
            vec![played("a", "c", "1111")],
            vec![pending("b", "c")],
        ],
    );
    let r = race(&c, &rules, DEFAULT_BUDGET).unwrap();
    let a = &r.teams[0];
    assert_eq!(
        (a.team.0.as_str(), a.label, a.best, a.worst),
        ("a", RaceLabel::ClinchedFirst, 1, 1)
    );
    assert_eq!(a.needs, "Has clinched first place.");
    let b = r.teams.iter().find(|t| t.team.0 == "b").unwrap();
    assert_eq!(
        b.needs,
        "A playoff place is certain if it wins its last match. Cannot finish first."
    );
}

/// A division of 16 early in a double round robin: the bounds decide every team (first and last
/// are both still possible for all), with no search.
#[test]
fn gt_f3_the_race_is_told_from_the_first_round() {
    let rules = Ruleset::preset("gthscl").unwrap();
    let mut rng = Rng(3);
    let c = season(16, Cycles::Double, 224, &rules, &mut rng);
    let r = race(&c, &rules, DEFAULT_BUDGET).unwrap();
    for t in &r.teams {
        assert!(t.exact, "{t:?}");
        assert_eq!((t.best, t.worst), (1, 16), "{}", t.name);
        assert_eq!(t.label, RaceLabel::Open);
    }
}

/// Past its budget the race tells the teams already decided and says "not yet decided" of the
/// others, never a guess.
#[test]
fn gt_f3_a_race_past_its_budget_says_not_yet_decided_rather_than_guess() {
    let rules = Ruleset::preset("gthscl").unwrap();
    let mut rng = Rng(7);
    let c = season(8, Cycles::Single, 8, &rules, &mut rng);
    let r = race(&c, &rules, 0).unwrap();
    let full = race(&c, &rules, DEFAULT_BUDGET).unwrap();
    for (t, f) in r.teams.iter().zip(&full.teams) {
        assert!(t.best <= f.best && t.worst >= f.worst, "{t:?} {f:?}");
        if t.label == RaceLabel::NotYetDecided {
            assert_eq!(RaceLabel::NotYetDecided.words(), "not yet decided");
        } else {
            assert_eq!(t.label, f.label, "{}", t.name);
        }
    }
}

#[test]
fn ordinals() {
    assert_eq!(
        [1, 2, 3, 4, 11, 12, 13, 21, 22].map(ordinal),
        [
            "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd"
        ]
    );
}

/// The search over sets (`sets`) against the brute force on every small case: a set pushed
/// strictly past a team (or holding the others strictly below it) is a scenario that, replayed
/// through the real standings, puts it at least so low (high); a search exhausted at a level
/// total is a bound no scenario breaks.
#[test]
fn gt_s5_as_18_the_sets_pushed_and_let_past_hold_against_the_brute_force() {
    let cases = small_cases(0x5e75_0036, 4, |c, rules| {
        let d = Division::new(c, rules);
        let Some(p) = bounds::Points::new(&d) else {
            return Ok(());
        };
        let n = c.teams.len();
        let (mut best, mut worst) = (vec![usize::MAX; n], vec![0usize; n]);
        oracle(c, rules, |places, _| {
            for (t, &(lo, hi)) in places.iter().enumerate() {
                best[t] = best[t].min(lo);
                worst[t] = worst[t].max(hi);
            }
        });
        for t in (0..n).filter(|&t| !d.dropped[t]) {
            let budget = || u64::MAX / 2;
            let played = |classes: &Option<Vec<usize>>, set: &[usize], at_best: bool| {
                let pick = sets::favoured(&d, &p, t, classes.as_ref().unwrap(), at_best, set);
                let results = certificate::results(&d, &pick);
                let again = replay(c, &results).unwrap();
                remaining::places(&again, rules).unwrap()[t]
            };
            let pushed = sets::pushed_past(&d, &p, t, 1, usize::MAX, &mut budget());
            let (_, hi) = played(&pushed.classes, &pushed.set, false);
            if hi < 1 + pushed.count {
                return Err(format!("{t}: {} pushed past, last {hi}", pushed.count));
            }
            let level = sets::pushed_past(&d, &p, t, 0, usize::MAX, &mut budget());
            if !level.exhausted || worst[t] > 1 + level.count {
                return Err(format!(
                    "{t}: {} can reach it, worst {}",
                    level.count, worst[t]
                ));
            }
            let held = sets::let_past(&d, &p, t, 1, 0, usize::MAX, &mut budget());
            if held.exhausted {
                let (lo, _) = played(&held.classes, &held.set, true);
                if lo > 1 + held.count {
                    return Err(format!("{t}: {} let past, first {lo}", held.count));
                }
            }
            let must = sets::let_past(&d, &p, t, 0, 0, usize::MAX, &mut budget());
            if best[t] < 1 + must.count {
                return Err(format!("{t}: {} must pass, best {}", must.count, best[t]));
            }
        }
        Ok(())
    });
    assert!(cases >= 100, "{cases} cases");
}

/// GT-S5, AS-18: a climb from a team's opposite extreme claims a place only with a scenario
/// that, replayed through the real standings, puts the team there, and a better place than it
/// started from.
#[test]
fn gt_s5_as_18_a_climb_reaches_the_place_it_claims() {
    let climbed = std::cell::Cell::new(0);
    let cases = small_cases(0xc11b_0036, 2, |c, rules| {
        let d = Division::new(c, rules);
        let (Some(p), Some(criteria)) = (bounds::Points::new(&d), search::native_criteria(&d))
        else {
            return Ok(());
        };
        let all = Question::all(&d);
        let mut left = u64::MAX / 2;
        let mut s = search::Search::new(&d, &all, &criteria, &mut left);
        let active = d.dropped.iter().filter(|x| !**x).count();
        let at = |pick: &[usize], t: usize| {
            let again = replay(c, &certificate::results(&d, pick)).unwrap();
            remaining::places(&again, rules).unwrap()[t]
        };
        for t in (0..d.n()).filter(|&t| !d.dropped[t]) {
            for best in [true, false] {
                let from = extreme(&d, t, !best);
                let bound = if best { 1 } else { active };
                let Some((pick, place)) = climb(&d, &p, &mut s, t, best, &from, bound) else {
                    continue;
                };
                let ((lo, hi), (lo0, hi0)) = (at(&pick, t), at(&from, t));
                let (got, start) = if best { (lo, lo0) } else { (hi, hi0) };
                if got != place {
                    return Err(format!(
                        "{t}: the climb claims {place}, the standings give {got}"
                    ));
                }
                if (best && place >= start) || (!best && place <= start) {
                    return Err(format!("{t}: the climb went from {start} to {place}"));
                }
                climbed.set(climbed.get() + 1);
            }
        }
        Ok(())
    });
    assert!(cases >= 50, "{cases} cases");
    assert!(climbed.get() >= 50, "{} climbs", climbed.get());
}
