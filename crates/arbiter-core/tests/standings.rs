//! Hand-worked standings cases for both presets. Each test names the rules it checks.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use arbiter_core::record::model::*;
use arbiter_core::rules::ruleset::{PresetsOnly, Ruleset};
use arbiter_core::scoring::standings::{CriterionValue, SeparationReason, standings};
use arbiter_core::scoring::{EntryKind, score, would_drop};
use arbiter_core::testing::*;

fn astc() -> Ruleset {
    Ruleset::preset("astc").unwrap()
}

fn gthscl() -> Ruleset {
    Ruleset::preset("gthscl").unwrap()
}

fn with(base: &str, toml: &str) -> Ruleset {
    Ruleset::from_toml(
        "test.toml",
        &format!("extends = \"{base}\"\n{toml}"),
        &PresetsOnly,
    )
    .unwrap()
}

fn value(c: &Competition, s: &arbiter_core::Standings, team: &str, code: &str) -> CriterionValue {
    let ci = s.criteria.iter().position(|k| k.code == code).unwrap();
    let row = s
        .rows
        .iter()
        .find(|r| c.teams[r.team].id.0 == team)
        .unwrap();
    row.values[ci].clone()
}

/// AS-14, AS-15, AS-16: three teams level on game and match points are split by the game points
/// of the matches among them only. With six boards "each team would have a score out of 12".
#[test]
fn as_16_three_team_tie_split_by_head_to_head_out_of_12() {
    let rules = with("astc", "boards = 6\nroster_max = 8\n");
    let c = competition(
        &["a", "b", "c", "d"],
        vec![
            vec![played("a", "b", "111100"), played("c", "d", "1111=0")],
            vec![played("b", "c", "11100="), played("a", "d", "111100")],
            vec![played("c", "a", "11100="), played("b", "d", "111110")],
        ],
    );
    let sheet = score(&c, &rules);
    for t in 0..3 {
        assert_eq!(sheet.teams[t].game_points, 10.5);
        assert_eq!(sheet.teams[t].match_points, 4.0);
    }
    let s = standings(&c, &rules).unwrap();
    assert_eq!(
        order(&c, &s),
        places(&[("1", "a"), ("2", "c"), ("3", "b"), ("4", "d")])
    );
    // The mini-table of the three: 6.5, 6 and 5.5 out of 12, together the 18 points of 3 matches.
    assert_eq!(value(&c, &s, "a", "H2H:GP"), CriterionValue::Number(6.5));
    assert_eq!(value(&c, &s, "c", "H2H:GP"), CriterionValue::Number(6.0));
    assert_eq!(value(&c, &s, "b", "H2H:GP"), CriterionValue::Number(5.5));
    let SeparationReason::Criterion { index, group, .. } = &s.separations[0].reason else {
        panic!("a and c are separated by a criterion");
    };
    assert_eq!(s.criteria[*index].rule.as_deref(), Some("AS-16"));
    assert_eq!(group.len(), 3);
}

/// The competition of the next two tests: A, B and C level on GP and MP; A wins the mini-table,
/// B and C drew their match 2-2 with B winning board 1 and C board 2. X and Y never met.
fn partial_split() -> Competition {
    competition(
        &["a", "b", "c", "x", "y"],
        vec![
            vec![played("a", "b", "1=1="), played("c", "y", "1=1=")],
            vec![played("a", "c", "1=1="), played("b", "x", "1=1=")],
            vec![played("b", "c", "10=="), played("x", "a", "1=1=")],
            vec![played("y", "a", "1=1="), played("c", "x", "=1=0")],
            vec![played("b", "y", "=0=1")],
        ],
    )
}

/// AS-16 re-applied (RULES.md "Tiebreaks"): head-to-head separates A from {B, C} only partly;
/// re-applied to {B, C} on their own mini-table it still ties them; AS-17 board preference then
/// puts B (a win on board 1) above C (a win on board 2). X and Y share the place (AS-18).
#[test]
fn as_16_partial_split_then_as_17_then_as_18_shared_place() {
    let c = partial_split();
    let rules = astc();
    let sheet = score(&c, &rules);
    let gp: Vec<f64> = sheet.teams.iter().map(|t| t.game_points).collect();
    let mp: Vec<f64> = sheet.teams.iter().map(|t| t.match_points).collect();
    assert_eq!(gp, [8.0, 8.0, 8.0, 6.0, 6.0]);
    assert_eq!(mp, [4.0, 4.0, 4.0, 3.0, 3.0]);

    let s = standings(&c, &rules).unwrap();
    assert_eq!(
        order(&c, &s),
        places(&[
            ("1", "a"),
            ("2", "b"),
            ("3", "c"),
            ("4-5", "x"),
            ("4-5", "y")
        ])
    );
    assert_eq!(s.rows[3].rank, 4);
    assert_eq!(s.rows[4].rank, 4);
    // Re-applied to {B, C}: 2 each in their one match.
    assert_eq!(value(&c, &s, "b", "H2H:GP"), CriterionValue::Number(2.0));
    assert_eq!(value(&c, &s, "a", "H2H:GP"), CriterionValue::Number(6.0));
    assert_eq!(
        value(&c, &s, "b", "H2H:BOARDS"),
        CriterionValue::Sequence(vec![1.0, 0.0, 0.0, 0.0])
    );
    let rule_of = |i: usize| match &s.separations[i].reason {
        SeparationReason::Criterion { index, .. } => s.criteria[*index].rule.clone(),
        other => panic!("separation {i} is {other:?}"),
    };
    assert_eq!(rule_of(0).as_deref(), Some("AS-16"));
    assert_eq!(rule_of(1).as_deref(), Some("AS-17"));
    assert_eq!(rule_of(2).as_deref(), Some("AS-14"));
    assert_eq!(s.separations[3].reason, SeparationReason::Shared);
}

/// AS-17 alone: two teams level on GP, MP and their drawn match; the win on the higher board
/// decides, whatever happened on the lower boards.
#[test]
fn as_17_only_board_preference_splits() {
    let c = competition(
        &["p", "q", "r", "s"],
        vec![
            vec![played("p", "q", "0=1="), played("r", "s", "====")],
            vec![played("p", "r", "1==="), played("q", "s", "1===")],
            vec![played("s", "p", "=1=="), played("r", "q", "=1==")],
        ],
    );
    let rules = astc();
    let s = standings(&c, &rules).unwrap();
    let sheet = score(&c, &rules);
    assert_eq!(sheet.teams[0].game_points, sheet.teams[1].game_points);
    assert_eq!(sheet.teams[0].match_points, sheet.teams[1].match_points);
    // p and q drew 2-2: q won board 1, p won board 3. q ranks higher.
    let o = order(&c, &s);
    let pos = |t: &str| o.iter().position(|(_, id)| id == t).unwrap();
    assert!(pos("q") < pos("p"), "{o:?}");
    // r and s won only board 2 each, and drew their own match: they share 3-4 (AS-18).
    assert_eq!(o[2].0, "3-4");
    assert_eq!(o[3].0, "3-4");
    let upper = s
        .rows
        .iter()
        .position(|r| c.teams[r.team].id.0 == "q")
        .unwrap();
    let SeparationReason::Criterion { index, .. } = &s.separations[upper].reason else {
        panic!("q and p are separated by a criterion")
    };
    assert_eq!(s.criteria[*index].code, "H2H:BOARDS");
}

/// AS-18: teams equal on every criterion share the place, printed "1-2", with the same rank.
#[test]
fn as_18_no_criterion_splits() {
    let c = competition(
        &["a", "b", "c"],
        vec![
            vec![played("a", "b", "===="), bye("c")],
            vec![played("b", "c", "===="), bye("a")],
            vec![played("c", "a", "===="), bye("b")],
        ],
    );
    let rules = with("astc", "[bye]\nmatch_points = 1.0\ngame_points = 2.0\n");
    let s = standings(&c, &rules).unwrap();
    assert!(s.rows.iter().all(|r| r.place == "1-3" && r.rank == 1));
    assert!(
        s.separations
            .iter()
            .all(|x| x.reason == SeparationReason::Shared)
    );
}

/// GT-S4, GT-S5: match points first (1 / ½ / 0 from the majority of game points), then game
/// points, then the record against one another.
#[test]
fn gt_s5_match_points_then_game_points_then_record() {
    let c = competition(
        &["a", "b", "c", "d"],
        vec![
            vec![played("a", "b", "1110"), played("c", "d", "1=00")], // a 3-1; c v d 1.5-2.5
            vec![played("a", "c", "0001"), played("b", "d", "11=0")], // c 3-1; b 2.5-1.5
            vec![played("a", "d", "11=="), played("b", "c", "1==0")], // a 3-1; b v c 2-2
        ],
    );
    let rules = gthscl();
    let sheet = score(&c, &rules);
    let mp: Vec<f64> = sheet.teams.iter().map(|t| t.match_points).collect();
    let gp: Vec<f64> = sheet.teams.iter().map(|t| t.game_points).collect();
    assert_eq!(mp, [2.0, 1.5, 1.5, 1.0]);
    assert_eq!(gp, [7.0, 5.5, 6.5, 5.0]);
    let s = standings(&c, &rules).unwrap();
    assert_eq!(
        order(&c, &s),
        places(&[("1", "a"), ("2", "c"), ("3", "b"), ("4", "d")])
    );
}

/// GT-S5 record against one another decides when MP and GP are level.
#[test]
fn gt_s5_head_to_head_on_match_points() {
    let c = competition(
        &["a", "b", "x", "y"],
        vec![
            vec![played("a", "b", "0001"), played("x", "y", "====")], // b beats a 3-1
            vec![played("a", "x", "111="), played("b", "y", "====")], // a 3.5-0.5; b 2-2
            vec![played("a", "y", "===="), played("b", "x", "10=0")], // a 2-2; b 1.5-2.5
        ],
    );
    let rules = gthscl();
    let sheet = score(&c, &rules);
    assert_eq!(sheet.teams[0].match_points, sheet.teams[1].match_points);
    assert_eq!(sheet.teams[0].game_points, sheet.teams[1].game_points);
    let s = standings(&c, &rules).unwrap();
    let o = order(&c, &s);
    let pos = |t: &str| o.iter().position(|(_, id)| id == t).unwrap();
    assert!(pos("b") < pos("a"), "{o:?}");
    assert_eq!(value(&c, &s, "b", "H2H:MP"), CriterionValue::Number(1.0));
    assert_eq!(value(&c, &s, "a", "H2H:MP"), CriterionValue::Number(0.0));
}

/// GT-M7: a forfeited match gives 1 match point and 4 game points to the team that did not
/// forfeit, nothing to the forfeiting team.
#[test]
fn gt_m7_forfeited_match() {
    let c = competition(&["a", "b"], vec![vec![forfeited("a", "b", Side::Away)]]);
    let sheet = score(&c, &gthscl());
    assert_eq!(sheet.teams[0].match_points, 1.0);
    assert_eq!(sheet.teams[0].game_points, 4.0);
    assert_eq!(sheet.teams[0].entries[0].kind, EntryKind::ForfeitWin);
    assert_eq!(sheet.teams[1].match_points, 0.0);
    assert_eq!(sheet.teams[1].game_points, 0.0);
    assert_eq!(sheet.teams[1].entries[0].kind, EntryKind::ForfeitLoss);
}

/// GT-M9, GT-S2: a team of three plays three boards; the unopposed player on board 4 wins by
/// forfeit, and the match is decided on the total.
#[test]
fn gt_m9_team_of_three_loses_board_4_by_forfeit() {
    let c = competition(
        &["home", "short"],
        vec![vec![played("home", "short", "10=+")]],
    );
    let sheet = score(&c, &gthscl());
    assert_eq!(sheet.teams[0].game_points, 2.5);
    assert_eq!(sheet.teams[1].game_points, 1.5);
    assert_eq!(sheet.teams[0].match_points, 1.0);
    assert_eq!(sheet.teams[1].match_points, 0.0);
}

/// GT-S2, GT-M4: a double default scores for nobody; both teams get zero on that board.
#[test]
fn gt_s2_double_default_scores_for_nobody() {
    let c = competition(&["a", "b"], vec![vec![played("a", "b", "10=x")]]);
    let sheet = score(&c, &gthscl());
    assert_eq!(sheet.teams[0].game_points, 1.5);
    assert_eq!(sheet.teams[1].game_points, 1.5);
    assert_eq!(sheet.teams[0].match_points, 0.5);
}

/// GT-P1: the team score uses the team result; the rating result is kept apart and changes no
/// standings figure.
#[test]
fn gt_p1_rating_result_does_not_change_team_score() {
    let mut c = competition(&["a", "b"], vec![vec![played("a", "b", "0===")]]);
    let before = score(&c, &gthscl());
    let Pairing::Match(m) = &mut c.rounds[0].pairings[0] else {
        unreachable!()
    };
    let MatchOutcome::Boards(b) = &mut m.outcome else {
        unreachable!()
    };
    // The home player on board 1 won the game but would not record it: the team loses the point.
    b[0].rating_result = Some(GameResult::HomeWin);
    let after = score(&c, &gthscl());
    assert_eq!(before, after);
    assert_eq!(after.teams[1].game_points, 2.5);
}

/// GT-M5, under half: a team of a double round robin of four (6 matches) that forfeits its second
/// match having played only 2 is dropped, and all its matches leave every figure, including the
/// game points its opponents gained from them.
#[test]
fn gt_m5_dropped_under_half_all_matches_excluded() {
    let c = competition(
        &["a", "b", "c", "z"],
        vec![
            vec![played("a", "b", "11=="), played("c", "z", "0000")], // z wins 4-0
            vec![played("a", "c", "1=00"), played("z", "b", "0000")], // b wins 4-0
            vec![forfeited("a", "z", Side::Away), played("b", "c", "1=1=")], // z's first
            vec![forfeited("z", "a", Side::Home), played("c", "b", "11=0")], // z's second
            vec![pending("b", "a"), pending("z", "c")],
            vec![pending("c", "a"), pending("b", "z")],
        ],
    );
    let rules = gthscl();
    let sheet = score(&c, &rules);
    let z = &sheet.teams[3];
    let dropped = z.dropped.as_ref().expect("z is dropped (GT-M5)");
    assert_eq!(dropped.round, 4);
    assert_eq!((dropped.played, dropped.scheduled), (2, 6));
    assert!(dropped.all_matches_excluded);
    assert!(z.entries.iter().all(|e| e.excluded.is_some()));
    // c's loss to z and b's win over z are gone; a's two forfeit wins too.
    assert_eq!(sheet.teams[2].game_points, 2.5 + 1.0 + 2.5); // c: v a, v b, v b
    assert_eq!(sheet.teams[1].game_points, 1.0 + 3.0 + 1.5); // b: v a, v c, v c
    assert_eq!(sheet.teams[0].game_points, 3.0 + 1.5); // a: v b, v c
    let excluded = &sheet.teams[2].entries[0].excluded.as_ref().unwrap();
    assert_eq!(excluded.rule.as_deref(), Some("GT-M5"));
    assert!(excluded.reason.contains("under half"));
    let s = standings(&c, &rules).unwrap();
    assert_eq!(
        order(&c, &s),
        places(&[("1", "c"), ("2", "b"), ("3", "a"), ("4", "z")])
    );
    assert!(s.rows.last().unwrap().dropped);
    assert_eq!(c.teams[s.rows.last().unwrap().team].id.0, "z");
    assert_eq!(s.separations[2].reason, SeparationReason::Dropped);
}

/// GT-M5, half or more: the same team having played 3 of 6 keeps its played results; its match
/// still to come is scored as a forfeit for the opponent.
#[test]
fn gt_m5_dropped_at_half_results_stand_and_rest_forfeited() {
    let c = z_dropped_in_round_5(played("z", "b", "0000"));
    let rules = gthscl();
    let sheet = score(&c, &rules);
    let z = &sheet.teams[3];
    let dropped = z.dropped.as_ref().expect("z is dropped (GT-M5)");
    assert_eq!(dropped.round, 5);
    assert_eq!((dropped.played, dropped.scheduled), (3, 6));
    assert!(!dropped.all_matches_excluded);
    assert!(z.entries.iter().all(|e| e.excluded.is_none()));
    // z's results stand: 4 + 0 + 0 game points, 1 match point.
    assert_eq!(z.game_points, 4.0);
    assert_eq!(z.match_points, 1.0);
    // b's round-6 match with z is still to come: it scores as a forfeit for b (GT-M5, GT-M7).
    let b6 = sheet.teams[1]
        .entries
        .iter()
        .find(|e| e.round == 6)
        .unwrap();
    assert_eq!(b6.kind, EntryKind::ForfeitWin);
    assert_eq!((b6.match_points, b6.game_points), (1.0, 4.0));
    // a's and c's pending matches with each other stay pending.
    let a6 = sheet.teams[0]
        .entries
        .iter()
        .find(|e| e.round == 6)
        .unwrap();
    assert_eq!(a6.kind, EntryKind::Pending);
}

/// GT-M5 is a setting: a league without the drop rule keeps every result.
#[test]
fn gt_m5_off_keeps_everything() {
    let c = competition(
        &["a", "z"],
        vec![
            vec![forfeited("a", "z", Side::Away)],
            vec![forfeited("z", "a", Side::Home)],
        ],
    );
    let rules = with("gthscl", "[drop]\nenabled = false\n");
    let sheet = score(&c, &rules);
    assert!(sheet.teams[1].dropped.is_none());
    assert_eq!(sheet.teams[0].game_points, 8.0);
}

/// Byes score as the ruleset says.
#[test]
fn bye_scores_as_ruleset() {
    let c = competition(
        &["a", "b", "c"],
        vec![vec![played("a", "b", "1111"), bye("c")]],
    );
    let sheet = score(&c, &gthscl());
    assert_eq!(sheet.teams[2].match_points, 1.0);
    assert_eq!(sheet.teams[2].game_points, 4.0);
}

/// A match with a board still unreported counts for nothing until it is complete.
#[test]
fn incomplete_match_counts_for_nothing() {
    let c = competition(&["a", "b"], vec![vec![played("a", "b", "11*0")]]);
    let sheet = score(&c, &astc());
    assert_eq!(sheet.teams[0].game_points, 0.0);
    assert_eq!(sheet.teams[0].entries[0].kind, EntryKind::Pending);
}

/// A team with no counted match has an empty sum (-0 in floating point); it must tie with a
/// team on 0, not rank below it (AS-18: equal teams share the place).
#[test]
fn as_18_an_empty_sum_ties_with_zero() {
    let c = competition(
        &["a", "b", "z"],
        vec![vec![played("a", "b", "0000"), pending("z", "a")]],
    );
    let rules = astc();
    let s = standings(&c, &rules).unwrap();
    // a lost 0-4 (GP 0, MP 0); z has no counted match at all.
    let o = order(&c, &s);
    assert_eq!(o[0], ("1".to_string(), "b".to_string()));
    assert_eq!(o[1].0, "2-3");
    assert_eq!(o[2].0, "2-3");
}

/// Issue 9, item 12: a team with nothing counted has 0, never -0, in every figure, or the API
/// writes `-0.0` (and H2H sums over no encounter did the same).
#[test]
fn an_empty_sum_is_plus_zero() {
    let c = competition(
        &["a", "b", "z"],
        vec![vec![played("a", "b", "0000"), pending("z", "a")]],
    );
    let sheet = score(&c, &astc());
    let z = &sheet.teams[2];
    assert!(
        z.entries.iter().all(|e| !e.counts()),
        "z has nothing counted"
    );
    assert!(z.game_points.is_sign_positive(), "{:?}", z.game_points);
    assert!(z.match_points.is_sign_positive(), "{:?}", z.match_points);
}

/// "Byes" (RULES.md), issue 31: a bye scores what the ruleset's `[bye]` says only once its
/// round has been played; a new division of an odd number of teams shows nobody ahead on byes
/// before its first match.
#[test]
fn byes_score_only_once_their_round_has_been_played() {
    let rules = with("gthscl", "[bye]\nmatch_points = 1.0\ngame_points = 4.0");
    let teams = ["a", "b", "c"];
    let season = |r1: Pairing, r2: Pairing| {
        competition(
            &teams,
            vec![
                vec![r1, bye("c")],
                vec![r2, bye("a")],
                vec![pending("a", "c"), bye("b")],
            ],
        )
    };
    let points = |c: &Competition, team: &str| {
        let sheet = score(c, &rules);
        let t = c.teams.iter().position(|x| x.id.0 == team).unwrap();
        (sheet.teams[t].match_points, sheet.teams[t].game_points)
    };
    // Nothing played: no bye has scored, every team is level on nothing.
    let new = season(pending("a", "b"), pending("b", "c"));
    for t in teams {
        assert_eq!(points(&new, t), (0.0, 0.0), "{t}");
    }
    let sheet = score(&new, &rules);
    assert!(
        sheet.teams[2]
            .entries
            .iter()
            .all(|e| e.kind == EntryKind::Pending)
    );
    // Round 1 played: c's bye of round 1 scores; a's of round 2 is still to come.
    let one = season(played("a", "b", "1100"), pending("b", "c"));
    assert_eq!(points(&one, "c"), (1.0, 4.0));
    assert_eq!(points(&one, "a"), (0.5, 2.0));
    // Round 2 played too: a's bye scores.
    let two = season(played("a", "b", "1100"), played("b", "c", "1111"));
    assert_eq!(points(&two, "a"), (1.5, 6.0));
    assert_eq!(points(&two, "b"), (1.5, 6.0));
}

/// GT-S1: a win is 1 game point, a draw ½, a loss 0, board by board.
#[test]
fn gt_s1_a_win_is_one_game_point_a_draw_half_a_loss_nothing() {
    let c = competition(&["a", "b"], vec![vec![played("a", "b", "1=0=")]]);
    let sheet = score(&c, &gthscl());
    let points: Vec<f64> = sheet.teams[0].entries[0]
        .boards
        .iter()
        .map(|b| b.points)
        .collect();
    assert_eq!(points, [1.0, 0.5, 0.0, 0.5]);
    assert_eq!(sheet.teams[0].game_points, 2.0);
    assert_eq!(sheet.teams[1].game_points, 2.0);
}

/// GT-S4: the team with the majority of game points gets 1 match point; a drawn match ½ each.
#[test]
fn gt_s4_the_majority_of_game_points_wins_the_match_point_and_a_draw_shares_it() {
    let c = competition(
        &["a", "b", "c"],
        vec![
            vec![played("a", "b", "11=0"), bye("c")],
            vec![played("b", "c", "1100"), bye("a")],
        ],
    );
    let rules = with("gthscl", "[bye]\nmatch_points = 0.0\ngame_points = 0.0");
    let sheet = score(&c, &rules);
    let mp = |t: usize, round: usize| sheet.teams[t].entries[round].match_points;
    // 2½-1½: the majority takes the one match point.
    assert_eq!((mp(0, 0), mp(1, 0)), (1.0, 0.0));
    // 2-2: half each (c's first entry is its round-1 bye).
    assert_eq!((mp(1, 1), mp(2, 1)), (0.5, 0.5));
}

/// AS-15: ties on team points are broken by match points, 2 for a win, 1 for a draw, 0 for a
/// loss: c (two wins and a draw) goes above a (two wins and a loss), both on 8 team points.
#[test]
fn as_15_match_points_two_one_nothing_break_a_tie_on_team_points() {
    let c = competition(
        &["a", "b", "c", "d"],
        vec![
            vec![played("a", "b", "1111"), played("c", "d", "1110")],
            vec![played("a", "c", "1000"), played("b", "d", "1100")],
            vec![played("a", "d", "1110"), played("b", "c", "1100")],
        ],
    );
    let rules = astc();
    let s = standings(&c, &rules).unwrap();
    assert_eq!(value(&c, &s, "a", "GP"), CriterionValue::Number(8.0));
    assert_eq!(value(&c, &s, "c", "GP"), CriterionValue::Number(8.0));
    assert_eq!(value(&c, &s, "a", "MP"), CriterionValue::Number(4.0));
    assert_eq!(value(&c, &s, "c", "MP"), CriterionValue::Number(5.0));
    let top: Vec<&str> = s.rows[..2]
        .iter()
        .map(|r| c.teams[r.team].id.0.as_str())
        .collect();
    assert_eq!(top, ["c", "a"]);
    match &s.separations[0].reason {
        SeparationReason::Criterion { index, .. } => assert_eq!(s.criteria[*index].code, "MP"),
        other => panic!("{other:?}"),
    }
}

/// GT-M5, issue 31: a dropped team's match postponed from before its drop will never be played
/// either; it scores as a forfeit for the opponent, not pending for ever.
#[test]
fn gt_m5_a_dropped_teams_postponed_earlier_match_is_forfeited_too() {
    let c = z_dropped_in_round_5(pending("z", "b"));
    // Played 2 of 6: kept in, not excluded, so that its matches to come are forfeits.
    let rules = with("gthscl", "[drop]\nexclude_when_played_under_half = false");
    let sheet = score(&c, &rules);
    let z = sheet.teams[3]
        .dropped
        .as_ref()
        .expect("z is dropped (GT-M5)");
    assert!(!z.all_matches_excluded, "{z:?}");
    let b2 = sheet.teams[1]
        .entries
        .iter()
        .find(|e| e.round == 2)
        .unwrap();
    assert_eq!(
        b2.kind,
        EntryKind::ForfeitWin,
        "the postponed round-2 match"
    );
    assert_eq!((b2.match_points, b2.game_points), (1.0, 4.0));
}

/// GT-M5: the one reading every part asks of a match still to play: dropped, with why.
#[test]
fn gt_m5_a_match_of_a_dropped_team_still_to_play_says_it_will_not_be_played() {
    let c = z_dropped_in_round_5(played("z", "b", "0000"));
    let sheet = score(&c, &gthscl());
    let round_6 = &c.rounds[5];
    let said: Vec<Option<String>> = round_6
        .matches()
        .map(|m| arbiter_core::scoring::unplayed_after_drop(&sheet, &c, 6, m))
        .collect();
    assert_eq!(said[0], None, "a v c is still to play");
    let z = said[1].as_deref().unwrap();
    assert!(
        z.starts_with(
            "Not played: Z was dropped from the league after its match forfeit in round 5 (GT-M5)"
        ),
        "{z}"
    );
    assert!(z.contains("forfeit win for B"), "{z}");
}

/// GT-M5's season: z forfeits its round-4 and round-5 matches and is dropped in round 5;
/// `z_v_b` is its round-2 match.
fn z_dropped_in_round_5(z_v_b: Pairing) -> Competition {
    competition(
        &["a", "b", "c", "z"],
        vec![
            vec![played("a", "b", "11=="), played("c", "z", "0000")],
            vec![played("a", "c", "1=00"), z_v_b],
            vec![played("a", "z", "1111"), played("b", "c", "1=1=")],
            vec![forfeited("z", "a", Side::Home), played("c", "b", "11=0")],
            vec![pending("b", "a"), forfeited("z", "c", Side::Home)],
            vec![pending("c", "a"), pending("b", "z")],
        ],
    )
}

/// GT-M5, before the step: the officer is warned that a forfeit would drop a team, and what
/// follows; a forfeit that drops nobody, or a league without the rule, has no warning.
#[test]
fn gt_m5_the_forfeit_that_would_drop_a_team_is_warned_of_before_it_is_decided() {
    let mut c = competition(
        &["a", "b", "c", "z"],
        vec![
            vec![played("a", "b", "11=="), played("c", "z", "0000")],
            vec![played("a", "c", "1=00"), played("z", "b", "0000")],
            vec![forfeited("a", "z", Side::Away), played("b", "c", "1=1=")],
            vec![pending("z", "a"), played("c", "b", "11=0")],
            vec![pending("b", "a"), pending("z", "c")],
            vec![pending("c", "a"), pending("b", "z")],
        ],
    );
    let rules = gthscl();
    let Pairing::Match(m) = c.rounds[3].pairings[0].clone() else {
        unreachable!()
    };
    let warning = would_drop(&c, &rules, 4, &m, &MatchOutcome::Forfeit { by: Side::Home })
        .expect("z's second match forfeit drops it");
    assert!(warning.starts_with("GT-M5:"), "{warning}");
    assert!(
        warning.contains("this gives Z 2 match forfeits, and a team is dropped from the league at 2, so Z is dropped"),
        "{warning}"
    );
    assert!(warning.contains("under half"), "{warning}");
    // a forfeiting instead drops nobody: it is a's first.
    assert_eq!(
        would_drop(&c, &rules, 4, &m, &MatchOutcome::Forfeit { by: Side::Away }),
        None
    );
    // Nothing was changed by asking.
    assert!(score(&c, &rules).teams[3].dropped.is_none());
    // A league without GT-M5 warns of nothing.
    let off = with("gthscl", "[drop]\nenabled = false\n");
    assert_eq!(
        would_drop(&c, &off, 4, &m, &MatchOutcome::Forfeit { by: Side::Home }),
        None
    );
    // Once dropped, the same forfeit again is no new drop.
    c.rounds[3].pairings[0] = forfeited("z", "a", Side::Home);
    assert_eq!(
        would_drop(&c, &rules, 4, &m, &MatchOutcome::Forfeit { by: Side::Home }),
        None
    );
}

/// Issue 34 item 5: a league's ruleset cites its own ID for the drop rule (or none), and every
/// sentence about the drop says it: the exclusion, the standings' explanation, a match that
/// will not be played and the warning before a forfeit; no GTHSCL ID leaks into it.
#[test]
fn a_leagues_own_rule_id_for_the_drop_is_cited_and_an_inherited_one_can_be_removed() {
    let read = |text: &str| Ruleset::from_toml("county.toml", text, &PresetsOnly).unwrap();
    let own =
        read("extends = \"gthscl\"\n[cite]\ndrop = \"Rule 14\"\nforfeit_match = \"Rule 12\"\n");
    let none = read("extends = \"gthscl\"\n[cite]\ndrop = \"\"\nforfeit_match = \"\"\n");
    assert_eq!(own.cite("drop"), Some("Rule 14"));
    assert_eq!(none.cite("drop"), None);
    let c = z_dropped_in_round_5(played("z", "b", "0000"));
    let sentences = |rules: &Ruleset| {
        let sheet = score(&c, rules);
        let s = standings(&c, rules).unwrap();
        let mut out: Vec<String> = arbiter_core::scoring::standings::explain(&s, &c, rules, &sheet)
            .into_iter()
            .map(|e| format!("{:?} {}", e.rule, e.sentence))
            .filter(|e| e.contains("dropped"))
            .collect();
        out.extend(
            c.rounds[5]
                .matches()
                .filter_map(|m| arbiter_core::scoring::unplayed_after_drop(&sheet, &c, 6, m)),
        );
        out
    };
    let with_own = sentences(&own);
    assert!(!with_own.is_empty());
    for s in &with_own {
        assert!(s.contains("Rule 14"), "{s}");
        assert!(!s.contains("GT-"), "{s}");
    }
    assert!(
        with_own
            .iter()
            .any(|s| s.contains("forfeit win for") && s.contains("(Rule 12)")),
        "{with_own:?}"
    );
    for s in sentences(&none) {
        assert!(!s.contains("GT-") && !s.contains("()"), "{s}");
    }
    // The ruleset written back keeps the removal: it reads back without the citation.
    let base = arbiter_core::rules::ruleset::RulesetDocument::from(&gthscl());
    let written = arbiter_core::rules::ruleset::RulesetDocument::from(&none)
        .changes_from("gthscl", &base)
        .to_toml()
        .unwrap();
    assert_eq!(read(&written).cite("drop"), None, "{written}");
}
