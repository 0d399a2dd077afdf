//! Hand-worked cases for each rule; the grandmommyscup file and the differential tests against
//! FIDE's checker live in `arbiter-formats/tests`.

use super::*;
use crate::record::model::*;
use crate::rules::criteria::{CriterionKind, CriterionSpec};
use crate::rules::ruleset::{Award, FideEdition, Ruleset};
use crate::scoring;
use crate::scoring::standings::{self, CriterionValue};

/// A competition of teams "A", "B", ... with `boards` boards; each round is a list of pairings
/// written `"A-B 1=+-"` (board codes from the home side: 1 win, = draw, 0 loss, + won by
/// forfeit, - lost by forfeit, x both forfeited), `"A-B forfeit B"` (B forfeited the match),
/// `"A PAB"`, `"A FPB"`, `"A HPB"`, `"A ZPB"`.
fn event(teams: &str, rounds: &[&[&str]]) -> Competition {
    let id = |s: &str| TeamId(s.to_string());
    let teams = teams
        .chars()
        .map(|c| Team {
            id: id(&c.to_string()),
            name: c.to_string(),
            school: None,
            players: Vec::new(),
        })
        .collect();
    let rounds = rounds
        .iter()
        .enumerate()
        .map(|(i, pairings)| Round {
            number: u32::try_from(i + 1).unwrap(),
            date: None,
            pairings: pairings
                .iter()
                .map(|p| {
                    let (who, what) = p.split_once(' ').unwrap();
                    if let Some((h, a)) = who.split_once('-') {
                        let outcome = if let Some(by) = what.strip_prefix("forfeit ") {
                            MatchOutcome::Forfeit {
                                by: if by == h { Side::Home } else { Side::Away },
                            }
                        } else {
                            MatchOutcome::Boards(
                                what.chars()
                                    .map(|c| {
                                        Board::new(match c {
                                            '1' => GameResult::HomeWin,
                                            '=' => GameResult::Draw,
                                            '0' => GameResult::AwayWin,
                                            '+' => GameResult::HomeWinByForfeit,
                                            '-' => GameResult::AwayWinByForfeit,
                                            _ => GameResult::DoubleForfeit,
                                        })
                                    })
                                    .collect(),
                            )
                        };
                        Pairing::Match(Match {
                            date: None,
                            home: id(h),
                            away: id(a),
                            outcome,
                            start: None,
                            extra_games: Vec::new(),
                            late: None,
                        })
                    } else {
                        let kind = match what {
                            "PAB" => ByeKind::PairingAllocated,
                            "FPB" => ByeKind::FullPoint,
                            "HPB" => ByeKind::HalfPoint,
                            _ => ByeKind::ZeroPoint,
                        };
                        Pairing::Bye(Bye {
                            team: id(who),
                            kind,
                        })
                    }
                })
                .collect(),
        })
        .collect();
    Competition {
        name: "test".into(),
        teams,
        rounds,
    }
}

/// The fide-team preset on `boards` boards: a PAB worth a drawn match.
fn rules(boards: u32, edition: FideEdition, round_robin: bool) -> Ruleset {
    Ruleset::preset("fide-team")
        .unwrap()
        .with(|r| {
            r.boards = boards;
            r.bye = Award {
                match_points: 1.0,
                game_points: 0.5 * f64::from(boards),
            };
            r.forfeit_match.winner.game_points = f64::from(boards);
            r.fide.edition = Some(edition);
            r.fide.round_robin = Some(round_robin);
        })
        .unwrap()
}

fn values(c: &Competition, r: &Ruleset, code: &str) -> Vec<f64> {
    let sheet = scoring::score(c, r);
    let ctx = Input {
        competition: c,
        rules: r,
        sheet: &sheet,
        primary: standings::primary_score(r),
        prepared: &Prepared::default(),
    };
    let CriterionKind::Fide(tb) = code.parse().unwrap() else {
        panic!("{code} is a FIDE code")
    };
    team_values(&ctx, &tb)
        .unwrap()
        .into_iter()
        .map(|v| match v {
            CriterionValue::Number(x) => x,
            other => panic!("{code}: {other:?}"),
        })
        .collect()
}

fn in_group(c: &Competition, r: &Ruleset, code: &str, group: &[usize]) -> Vec<f64> {
    let sheet = scoring::score(c, r);
    let ctx = Input {
        competition: c,
        rules: r,
        sheet: &sheet,
        primary: standings::primary_score(r),
        prepared: &Prepared::default(),
    };
    let CriterionKind::Fide(tb) = code.parse().unwrap() else {
        panic!("{code} is a FIDE code")
    };
    group_values(&ctx, &tb, group)
        .unwrap()
        .into_iter()
        .map(|v| match v {
            CriterionValue::Number(x) => x,
            other => panic!("{code}: {other:?}"),
        })
        .collect()
}

/// A withdrawal, a half-point bye and a full-point bye in a four-team Swiss of three rounds.
fn swiss_with_byes() -> Competition {
    event(
        "ABCD",
        &[
            &["A-B 11", "C-D =="],
            &["A-C ==", "D HPB"],
            &["A FPB", "D-C 11"],
        ],
    )
}

#[test]
fn art_16_3_rounds_after_a_withdrawal_count_as_draws_for_the_opponents() {
    // B withdrew after round 1: A's Buchholz sees B with 0 + 1 + 1 (C.07 art. 16.3, 16.2.5).
    let c = swiss_with_byes();
    let r = rules(2, FideEdition::Aug2024, false);
    assert_eq!(values(&c, &r, "PTS"), [5.0, 0.0, 2.0, 4.0]);
    let bh = values(&c, &r, "BH:MP");
    // A: B 2 + C 2 + its own full-point bye (16.4, 2024-08: own score 5).
    assert_eq!(bh[0], 9.0);
    // B: A 5 and two rounds against a dummy with B's own 0.
    assert_eq!(bh[1], 5.0);
    // C: D 4 + A 5 + D 4.
    assert_eq!(bh[2], 13.0);
    // D: C 2 + its half-point bye at its own 4 + C 2.
    assert_eq!(bh[3], 8.0);
}

#[test]
fn art_16_4_the_2026_dummy_is_capped_at_a_draw_per_round() {
    let c = swiss_with_byes();
    let r = rules(2, FideEdition::Mar2026, false);
    let bh = values(&c, &r, "BH:MP");
    // A's bye now counts min(5, 1 x 3 rounds) = 3; D's min(4, 3) = 3.
    assert_eq!(bh, [7.0, 5.0, 13.0, 7.0]);
}

#[test]
fn art_16_5_the_cut_takes_a_voluntary_unplayed_round_first() {
    let c = swiss_with_byes();
    let r = rules(2, FideEdition::Aug2024, false);
    let bh = values(&c, &r, "BH:MP/C1");
    // A: no VUR (a full-point bye is not one): the lowest value, 2, goes: 2 + 5.
    assert_eq!(bh[0], 7.0);
    // D: its half-point bye (4) goes before the lower 2s.
    assert_eq!(bh[3], 4.0);
}

#[test]
fn art_16_4_1_a_forfeit_win_is_a_dummy_capped_at_the_opponents_score_from_2026() {
    // A's boards all won by forfeit against B: not played (no game over the board, and B scored
    // nothing), so a VUR for B and an unplayed round for A.
    let c = event("ABCD", &[&["A-B ++", "C-D 11"], &["A-C ==", "B-D 00"]]);
    let old = rules(2, FideEdition::Aug2024, false);
    let new = rules(2, FideEdition::Mar2026, false);
    assert_eq!(values(&c, &old, "PTS"), [3.0, 0.0, 3.0, 2.0]);
    // 2024-08: A's own 3 for the forfeit round, + C 3.
    assert_eq!(values(&c, &old, "BH:MP")[0], 6.0);
    // 2026-03: min(own 3, B's 0) = 0, + C 3.
    assert_eq!(values(&c, &new, "BH:MP")[0], 3.0);
    // /P: the forfeit counts as a game against B.
    assert_eq!(values(&c, &old, "BH:MP/P")[0], 3.0);
    // B's forfeit loss: its own 0, + D 2.
    assert_eq!(values(&c, &old, "BH:MP")[1], 2.0);
}

#[test]
fn art_15_2_in_a_round_robin_forfeits_are_games_and_byes_count_nothing() {
    let c = event("ABC", &[&["A-B 11"], &["B-C forfeit C"], &["C-A =="]]);
    let r = rules(2, FideEdition::Aug2024, true);
    assert_eq!(values(&c, &r, "PTS"), [3.0, 2.0, 1.0]);
    // A: B 2 + C 1; B: A 3 + C 1 (the forfeit is a game); C: B 2 + A 3. No bye counts.
    assert_eq!(values(&c, &r, "BH:MP"), [3.0, 4.0, 5.0]);
}

#[test]
fn art_13_2_extended_sonneborn_berger_multiplies_opponent_score_by_score_against_it() {
    let c = event("ABCD", &[&["A-B 1=", "C-D 10"], &["A-C 00", "B-D =="]]);
    let r = rules(2, FideEdition::Aug2024, false);
    // MP: A 2+0, B 0+1, C 1+2, D 1+1. GP: A 1.5+0, B .5+1, C 1+2, D 1+1.
    assert_eq!(values(&c, &r, "PTS"), [2.0, 1.0, 3.0, 2.0]);
    assert_eq!(values(&c, &r, "MPvGP"), [1.5, 1.5, 3.0, 2.0]);
    // EMGSB for A: B's MP 1 x 1.5 + C's MP 3 x 0 = 1.5.
    assert_eq!(values(&c, &r, "EMGSB")[0], 1.5);
    // EGGSB for C: D's GP 2 x 1 + A's GP 1.5 x 2 = 5.
    assert_eq!(values(&c, &r, "EGGSB")[2], 5.0);
    // EMMSB for D: C 3 x 1 + B 1 x 1 = 4; EGMSB for D: C's GP 3 x 1 + B's GP 1.5 x 1 = 4.5.
    assert_eq!(values(&c, &r, "EMMSB")[3], 4.0);
    assert_eq!(values(&c, &r, "EGMSB")[3], 4.5);
}

#[test]
fn art_6_3_a_team_is_placed_first_only_if_no_missing_match_could_catch_it() {
    // A beat B and C; B and C never met, nor did anyone meet D.
    let c = event("ABCD", &[&["A-B 11", "C-D =="], &["A-C 11", "B-D =="]]);
    let r = rules(2, FideEdition::Aug2024, false);
    // A scored 4 of the mini-table's best 4; B and C could each still reach 2: A alone is first.
    assert_eq!(in_group(&c, &r, "DE", &[0, 1, 2]), [1.0, 2.0, 2.0]);
    // B and C have not met: DE separates nothing.
    assert_eq!(in_group(&c, &r, "DE", &[1, 2]), [0.0, 0.0]);
    // With D in the group (drew B and C), D could still reach A's 4: nobody is placed.
    assert_eq!(in_group(&c, &r, "DE", &[0, 1, 2, 3]), [0.0, 0.0, 0.0, 0.0]);
}

#[test]
fn art_13_3_2_edet_separates_two_teams_by_their_top_board() {
    // A and B drew 2-2; A won on board 1.
    let c = event(
        "ABCD",
        &[&["A-B 1=0=", "C-D 1==="], &["A-C ====", "B-D ===="]],
    );
    let r = rules(4, FideEdition::Aug2024, false);
    assert_eq!(in_group(&c, &r, "EDE", &[0, 1]), [0.0, 0.0]);
    assert_eq!(in_group(&c, &r, "EDET", &[0, 1]), [1.0, 2.0]);
    // Board count in their match: A 1x1 + 2x0.5 + 4x0.5 = 4, B 2x0.5 + 3x1 + 4x0.5 = 6.
    assert_eq!(in_group(&c, &r, "EDEBT", &[0, 1]), [1.0, 2.0]);

    // In the standings: C first; A above B by EDET; D last. Untied teams get no EDET value.
    let specs: Vec<CriterionSpec> = ["PTS", "EDET/P"]
        .iter()
        .map(|s| CriterionSpec::parse(s).unwrap())
        .collect();
    let sheet = scoring::score(&c, &r);
    let st = standings::rank(&c, &r, &sheet, &specs).unwrap();
    let order: Vec<&str> = st
        .rows
        .iter()
        .map(|x| c.teams[x.team].name.as_str())
        .collect();
    assert_eq!(order, ["C", "A", "B", "D"]);
    assert_eq!(st.rows[1].values[1], CriterionValue::Number(1.0));
    assert_eq!(st.rows[2].values[1], CriterionValue::Number(2.0));
    assert_eq!(st.rows[0].values[1], CriterionValue::NotApplied);
}

#[test]
fn art_12_a_pab_counts_as_a_win_on_every_board() {
    // A: drew C 1-1 winning board 1, then a PAB; B: drew D winning board 2, then beat C 2-0.
    let c = event("ABCD", &[&["A-C 10", "B-D 01"], &["A PAB", "B-C 11"]]);
    let r = rules(2, FideEdition::Aug2024, false);
    // Board points A [2, 1], B [1, 2]; BC: A 1x2 + 2x1 = 4, B 1x1 + 2x2 = 5 (lower better).
    assert_eq!(values(&c, &r, "BC")[..2], [4.0, 5.0]);
    // TBR: board 1 first (A 2 > B 1); BBE: all but board 2 first (A 2 > B 1).
    assert_eq!(in_group(&c, &r, "TBR", &[0, 1]), [1.0, 2.0]);
    assert_eq!(in_group(&c, &r, "BBE", &[0, 1]), [1.0, 2.0]);
    // WIN (art. 7.1): B won a match; the PAB (a drawn match's points) is no win.
    assert_eq!(values(&c, &r, "WIN")[..2], [0.0, 1.0]);
}

#[test]
fn art_13_4_sssc_adds_the_scaled_buchholz_to_the_secondary_score() {
    let c = swiss_with_byes();
    let r = rules(2, FideEdition::Aug2024, false);
    // F = floor(2 x 3 rounds / 2 boards) = 3. A: GP 2 + 1 + 2 = 5, BH 9 -> 5 + 3 = 8.
    assert_eq!(values(&c, &r, "SSSC")[0], 8.0);
    // D: GP 1 + 1 + 2 = 4, BH 8 -> 4 + 2.666.. = 6.67 (half up to two decimals).
    assert_eq!(values(&c, &r, "SSSC")[3], 6.67);
}

#[test]
fn the_edition_defaults_to_the_first_rounds_date() {
    let mut c = swiss_with_byes();
    let r = rules(2, FideEdition::Aug2024, false)
        .with(|r| r.fide.edition = None)
        .unwrap();
    // Undated: the edition in force, 2026-03.
    assert_eq!(values(&c, &r, "BH:MP")[0], 7.0);
    c.rounds[0].date = Some(jiff::civil::date(2025, 11, 3));
    assert_eq!(values(&c, &r, "BH:MP")[0], 9.0);
}

#[test]
fn fide_settings_come_from_the_ruleset_file() {
    let r = Ruleset::from_toml(
        "x.toml",
        "extends = \"fide-team\"\n[fide]\nedition = \"2024-08\"\nround_robin = true\n",
        &crate::rules::ruleset::PresetsOnly,
    )
    .unwrap();
    assert_eq!(r.fide.edition, Some(FideEdition::Aug2024));
    assert_eq!(r.fide.round_robin, Some(true));
    let e = Ruleset::from_toml(
        "x.toml",
        "extends = \"fide-team\"\n[fide]\nedition = \"2025\"\n",
        &crate::rules::ruleset::PresetsOnly,
    )
    .unwrap_err();
    assert_eq!(e.line, Some(3), "{e}");
}

#[test]
fn art_14_1_a_buchholz_cut_to_nothing_is_zero_and_ties_with_zero() {
    // One round: /C1 cuts every team's only value. Rust sums nothing to -0, which would sort
    // below 0; the checker sees two equal zeros (found by the differential test, gen-003-0204).
    let c = event("ABCD", &[&["A-B 11", "C-D =="]]);
    let r = rules(2, FideEdition::Aug2024, false);
    let bh = values(&c, &r, "BH:MP/C1");
    assert!(
        bh.iter().all(|x| *x == 0.0 && x.is_sign_positive()),
        "{bh:?}"
    );
    let specs: Vec<CriterionSpec> = ["PTS", "BH:MP/C1"]
        .iter()
        .map(|s| CriterionSpec::parse(s).unwrap())
        .collect();
    let sheet = scoring::score(&c, &r);
    let st = standings::rank(&c, &r, &sheet, &specs).unwrap();
    // C and D (a drawn match each) share second place.
    assert_eq!(st.rows[1].place, "2-3");
    assert_eq!(st.rows[2].place, "2-3");
}
