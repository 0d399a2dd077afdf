//! Scoring beyond the majority of game points (`[scoring]`, docs/rulesets.md): a match decided
//! by half the points it has, boards of different weights, and the criteria `BP`, `WINS`,
//! `DEFAULTS` and `BERLINER`, each worked out by hand.

use crate::record::model::Side;
use crate::rules::ruleset::{PresetsOnly, Ruleset};
use crate::scoring::standings::{explain, standings};
use crate::scoring::{self, score};
use crate::testing::{competition, order, places, played};

fn ruleset(text: &str) -> Ruleset {
    Ruleset::from_toml("rules.toml", text, &PresetsOnly).unwrap()
}

/// A German regional league's scoring: 8 boards, match points 2/1/0, a match won with more
/// than half of the 8 board points, drawn with exactly 4.
const HALF_OF_BOARDS: &str = r#"
name = "Bezirksliga"
boards = 8
criteria = [{ code = "MP", rule = "TO-A.5.1" }, { code = "GP", rule = "TO-A.5.1" }]

[game_points]
win = 1.0
draw = 0.5
loss = 0.0

[match_points]
win = 2.0
draw = 1.0
loss = 0.0

[scoring]
decided_by = "half_of_boards"
"#;

#[test]
fn half_of_boards_a_double_default_leaves_both_teams_short_of_half() {
    let rules = ruleset(HALF_OF_BOARDS);
    // Round 1: 3½:3½ with board 8 a double default: neither reaches 4 of 8, so 0:0.
    // Round 2: 4:3 with board 8 a double default: 4 is exactly half, a draw's 1 point; 3 is
    // under half, nothing: 1:0.
    // Round 3: 4½:3½: more than half, 2:0.
    let c = competition(
        &["a", "b"],
        vec![
            vec![played("a", "b", "111=000x")],
            vec![played("a", "b", "1111000x")],
            vec![played("a", "b", "1111=000")],
        ],
    );
    let sheet = score(&c, &rules);
    let mp = |t: usize| -> Vec<f64> {
        sheet.teams[t]
            .entries
            .iter()
            .map(|e| e.match_points)
            .collect()
    };
    assert_eq!(mp(0), [0.0, 1.0, 2.0]);
    assert_eq!(mp(1), [0.0, 0.0, 0.0]);
    assert_eq!(sheet.teams[0].game_points, 3.5 + 4.0 + 4.5);
    // Under the majority rule (the presets'), the same boards give 1:1, 2:0, 2:0.
    let majority = rules
        .with(|r| r.scoring.decided_by = crate::rules::ruleset::MatchDecision::Majority)
        .unwrap();
    let sheet = score(&c, &majority);
    let home: Vec<f64> = sheet.teams[0]
        .entries
        .iter()
        .map(|e| e.match_points)
        .collect();
    assert_eq!(home, [1.0, 2.0, 2.0]);
}

/// A US scholastic league: five boards worth 10, 9, 8, 7 and 6 points.
const WEIGHTED: &str = r#"
name = "Scholastic"
boards = 5
criteria = ["MP", "BP"]

[game_points]
win = 1.0
draw = 0.5
loss = 0.0

[match_points]
win = 1.0
draw = 0.5
loss = 0.0

[scoring]
board_weights = [10, 9, 8, 7, 6]
"#;

#[test]
fn board_weights_the_match_goes_to_the_heavier_boards() {
    let rules = ruleset(WEIGHTED);
    // A wins boards 1 and 2 and draws board 3, B wins boards 4 and 5: 2½:2½ in games, but
    // 10 + 9 + 4 = 23 board points to 4 + 7 + 6 = 17: A wins the match.
    let c = competition(&["a", "b"], vec![vec![played("a", "b", "11=00")]]);
    let sheet = score(&c, &rules);
    let (a, b) = (&sheet.teams[0], &sheet.teams[1]);
    assert_eq!((a.game_points, b.game_points), (2.5, 2.5));
    assert_eq!((a.board_points, b.board_points), (23.0, 17.0));
    assert_eq!((a.match_points, b.match_points), (1.0, 0.0));
    // A forfeited match is every board won: 40 board points.
    let c = competition(
        &["a", "b"],
        vec![vec![crate::testing::forfeited("a", "b", Side::Away)]],
    );
    let sheet = score(&c, &rules);
    assert_eq!(sheet.teams[0].board_points, 40.0);
    // Unweighted, board points are the game points.
    let gthscl = Ruleset::preset("gthscl").unwrap();
    let c = competition(&["a", "b"], vec![vec![played("a", "b", "1=0+")]]);
    let sheet = score(&c, &gthscl);
    assert_eq!(sheet.teams[0].board_points, sheet.teams[0].game_points);
}

#[test]
fn board_weights_bp_ranks_teams_level_on_match_points() {
    let rules = ruleset(WEIGHTED);
    // A beats C 3:2 on boards 1-3 (27 of 40); B beats D 3:2 on boards 3-5 (21 of 40).
    let c = competition(
        &["a", "b", "c", "d"],
        vec![vec![played("a", "c", "11100"), played("b", "d", "00111")]],
    );
    let s = standings(&c, &rules).unwrap();
    assert_eq!(
        order(&c, &s),
        places(&[("1", "a"), ("2", "b"), ("3", "d"), ("4", "c")])
    );
    let sheet = score(&c, &rules);
    let words = explain(&s, &c, &rules, &sheet);
    assert_eq!(words[0].sentence, "A (1) is above B (2) on BP: 27 to 21.");
}

/// Four teams level on match points (every match 2:2 on four boards) that the criteria of other
/// leagues tell apart. A–C are all draws; B–D is B's wins on boards 1 and 2 (board 2 by D's
/// default) and D's on boards 3 and 4.
fn level_on_points() -> crate::record::model::Competition {
    competition(
        &["a", "b", "c", "d"],
        vec![vec![played("a", "c", "===="), played("b", "d", "1+00")]],
    )
}

fn gthscl_ranking_by(codes: &str) -> Ruleset {
    Ruleset::from_toml(
        "rules.toml",
        &format!("extends = \"gthscl\"\ncriteria = {codes}\n"),
        &PresetsOnly,
    )
    .unwrap()
}

#[test]
fn wins_counts_games_won_a_default_included() {
    let rules = gthscl_ranking_by(r#"["MP", { code = "WINS", rule = "L-7" }]"#);
    let c = level_on_points();
    let s = standings(&c, &rules).unwrap();
    // B: boards 1 and 2 (one by default) = 2; D: boards 3 and 4 = 2; A and C: none.
    assert_eq!(
        order(&c, &s),
        places(&[("1-2", "b"), ("1-2", "d"), ("3-4", "a"), ("3-4", "c")])
    );
    let words = explain(&s, &c, &rules, &score(&c, &rules));
    assert_eq!(
        words[1].sentence,
        "D (1-2) is above A (3-4) on WINS (L-7): 2 to 0."
    );
}

#[test]
fn defaults_fewer_boards_defaulted_rank_higher() {
    let rules = gthscl_ranking_by(r#"["MP", { code = "DEFAULTS", rule = "L-8" }]"#);
    let c = level_on_points();
    let s = standings(&c, &rules).unwrap();
    // D defaulted board 2; nobody else defaulted a board.
    assert_eq!(
        order(&c, &s),
        places(&[("1-3", "a"), ("1-3", "b"), ("1-3", "c"), ("4", "d")])
    );
    let words = explain(&s, &c, &rules, &score(&c, &rules));
    assert_eq!(
        words[2].sentence,
        "C (1-3) is above D (4) on DEFAULTS (L-8): 0 to 1 (lower is better)."
    );
    // A whole match forfeited counts every board: four.
    let c = competition(
        &["a", "b"],
        vec![vec![crate::testing::forfeited("a", "b", Side::Home)]],
    );
    let s = standings(&c, &rules).unwrap();
    assert_eq!(
        s.rows[1].values[1],
        crate::rules::criteria::CriterionValue::Number(4.0)
    );
}

#[test]
fn berliner_board_one_counts_most() {
    let rules = gthscl_ranking_by(r#"["MP", { code = "BERLINER", rule = "TO-A.5.3" }]"#);
    let c = level_on_points();
    let s = standings(&c, &rules).unwrap();
    // On four boards board 1 counts 4, board 2 3, board 3 2, board 4 1.
    // B: 4 + 3 = 7; A and C: ½ × (4 + 3 + 2 + 1) = 5; D: 2 + 1 = 3.
    assert_eq!(
        order(&c, &s),
        places(&[("1", "b"), ("2-3", "a"), ("2-3", "c"), ("4", "d")])
    );
    let words = explain(&s, &c, &rules, &score(&c, &rules));
    assert_eq!(
        words[0].sentence,
        "B (1) is above A (2-3) on BERLINER (TO-A.5.3): 7 to 5."
    );
    // The one computation the playoffs use too (GT-F4): 1, ½, 0, 1 on four boards.
    assert_eq!(scoring::berliner(&[1.0, 0.5, 0.0, 1.0]), 4.0 + 1.5 + 1.0);
    assert_eq!(scoring::berliner_of_award(4.0, 4), 10.0);
}

#[test]
fn a_board_weight_mistake_is_reported_at_its_line() {
    let text = "extends = \"gthscl\"\n\n[cite]\nboard_weights = \"SL-3\"\n\n[scoring]\nboard_weights = [10, 9, 8]\n";
    let e = Ruleset::from_toml("rules.toml", text, &PresetsOnly).unwrap_err();
    assert_eq!(
        e.to_string(),
        "rules.toml:7:1: `[scoring] board_weights` gives 3 weights but a match has 4 boards; give one weight a board, board 1 first, e.g. board_weights = [4, 3, 2, 1] (SL-3)"
    );
    let text = "extends = \"gthscl\"\n[scoring]\nboard_weights = [4, 3, 0, 1]\n";
    let e = Ruleset::from_toml("rules.toml", text, &PresetsOnly).unwrap_err();
    assert_eq!((e.line, e.column), (Some(3), Some(1)), "{e}");
    assert!(e.message.contains("board 3 a weight of 0"), "{e}");
    let text = "extends = \"gthscl\"\n[scoring]\ndecided_by = \"half\"\n";
    let e = Ruleset::from_toml("rules.toml", text, &PresetsOnly).unwrap_err();
    assert_eq!(e.line, Some(3), "{e}");
    assert!(e.message.contains("half_of_boards"), "{e}");
}

#[test]
fn scoring_is_written_back_and_the_presets_keep_the_majority() {
    for name in ["gthscl", "astc", "fide-team"] {
        let r = Ruleset::preset(name).unwrap();
        assert!(r.scoring.is_majority_of_game_points(), "{name}");
    }
    let rules = ruleset(WEIGHTED);
    let doc = crate::rules::ruleset::RulesetDocument::from(&rules);
    let text = doc.to_toml().unwrap();
    assert!(text.contains("board_weights = [10, 9, 8, 7, 6]"), "{text}");
    assert_eq!(ruleset(&text), rules);
    // As the changes from a preset: only `[scoring]` differs, and it reads back.
    let half = Ruleset::from_toml(
        "rules.toml",
        "extends = \"gthscl\"\n[scoring]\ndecided_by = \"half_of_boards\"\nboard_weights = [4, 3, 2, 1]\n",
        &PresetsOnly,
    )
    .unwrap();
    let base = crate::rules::ruleset::RulesetDocument::from(&Ruleset::preset("gthscl").unwrap());
    let changes = crate::rules::ruleset::RulesetDocument::from(&half)
        .changes_from("gthscl", &base)
        .to_toml()
        .unwrap();
    assert_eq!(
        changes,
        "extends = \"gthscl\"\n\n[scoring]\ndecided_by = \"half_of_boards\"\nboard_weights = [4, 3, 2, 1]\n"
    );
    assert_eq!(
        Ruleset::from_toml("rules.toml", &changes, &PresetsOnly).unwrap(),
        half
    );
}

#[test]
fn top_n_game_points_against_the_teams_placed_above() {
    let rules = gthscl_ranking_by(r#"["MP", "GP", { code = "TOP:1", rule = "L-9" }]"#);
    // Round 1: C beats A 4:0, B beats D 3:1. Round 2: C beats B 3:1, A beats D 4:0. Round 3:
    // C beats D 4:0, A and B draw 2:2. MP: C 3, A 1½, B 1½, D 0; GP: C 11, A 0 + 4 + 2 = 6,
    // B 3 + 1 + 2 = 6, D 1. By MP then GP the top one is C: against it A scored 0, B 1.
    let c = competition(
        &["a", "b", "c", "d"],
        vec![
            vec![played("c", "a", "1111"), played("b", "d", "1110")],
            vec![played("c", "b", "1110"), played("a", "d", "1111")],
            vec![played("c", "d", "1111"), played("a", "b", "1100")],
        ],
    );
    let s = standings(&c, &rules).unwrap();
    assert_eq!(
        order(&c, &s),
        places(&[("1", "c"), ("2", "b"), ("3", "a"), ("4", "d")])
    );
    let words = explain(&s, &c, &rules, &score(&c, &rules));
    assert_eq!(
        words[1].sentence,
        "B (2) is above A (3) on TOP:1 (L-9), the game points against C: 1 to 0."
    );
    // A place shared across the n-th position counts all who share it: by MP alone A and B
    // share 2-3, so the top 2 are C, A and B.
    let by_mp =
        crate::scoring::standings::rank(&c, &rules, &score(&c, &rules), &rules.criteria[..1])
            .unwrap();
    let groups: Vec<Vec<usize>> = vec![vec![2], vec![0, 1], vec![3]];
    let slices: Vec<&[usize]> = groups.iter().map(Vec::as_slice).collect();
    assert_eq!(crate::scoring::standings::top_of(&slices, 2), [2, 0, 1]);
    assert_eq!(by_mp.rows[1].place, "2-3");
}

#[test]
fn lot_a_recorded_seed_draws_the_same_order_every_time() {
    let rules = gthscl_ranking_by(r#"["MP", { code = "LOT:7", rule = "L-10" }]"#);
    let c = level_on_points();
    let s = standings(&c, &rules).unwrap();
    let drawn = order(&c, &s);
    // The seed's draw of the four teams as listed (SplitMix64, `pairing::lot`): recorded here
    // so that a change of the generator cannot go unnoticed.
    assert_eq!(
        drawn,
        places(&[("1", "b"), ("2", "c"), ("3", "a"), ("4", "d")])
    );
    assert_eq!(standings(&c, &rules).unwrap(), s);
    let words = explain(&s, &c, &rules, &score(&c, &rules));
    assert_eq!(
        words[0].sentence,
        "B (1) is above C (2) on LOT:7 (L-10), their places in the lot drawn from seed 7: 1 to 2 (lower is better)."
    );
    let e = Ruleset::from_toml(
        "rules.toml",
        "extends = \"gthscl\"\ncriteria = [\"MP\", \"LOT\"]\n",
        &PresetsOnly,
    )
    .unwrap_err();
    assert_eq!(e.line, Some(2), "{e}");
    assert!(e.message.contains("LOT:<seed>"), "{e}");
}

/// FIDE's tie-breaks read a match's result from its match points where `[scoring]` decides by
/// half the points: a 3½:3½ with a double default is lost by both teams, not drawn.
#[test]
fn half_of_boards_fide_tie_breaks_read_the_match_points_scored() {
    let rules = ruleset(HALF_OF_BOARDS)
        .with(|r| {
            r.criteria = vec![
                crate::rules::criteria::CriterionSpec::parse("MP").unwrap(),
                crate::rules::criteria::CriterionSpec::parse("BH:MP").unwrap(),
            ]
        })
        .unwrap();
    // Round 1: A v B 3½:3½ with a double default, 0:0; C v D 8:0, 2:0. Round 2: A v C 4:4,
    // 1:1; B v D 4½:3½, 2:0. MP: C 3, B 2, A 1, D 0. BH:MP, the opponents' MP: C 0 + 1 = 1,
    // B 1 + 0 = 1, A 2 + 3 = 5, D 3 + 2 = 5. Read as a drawn match, A v B would give A and B a
    // point each, and A's Buchholz would be 3 + 3 = 6.
    let c = competition(
        &["a", "b", "c", "d"],
        vec![
            vec![played("a", "b", "111=000x"), played("c", "d", "11111111")],
            vec![played("a", "c", "11110000"), played("b", "d", "1111=000")],
        ],
    );
    let s = standings(&c, &rules).unwrap();
    let rows: Vec<(String, Vec<String>)> = s
        .rows
        .iter()
        .map(|r| {
            (
                c.teams[r.team].id.0.clone(),
                r.values.iter().map(|v| v.display()).collect(),
            )
        })
        .collect();
    let row = |id: &str, mp: &str, bh: &str| (id.to_string(), vec![mp.to_string(), bh.to_string()]);
    assert_eq!(
        rows,
        [
            row("c", "3", "1"),
            row("b", "2", "1"),
            row("a", "1", "5"),
            row("d", "0", "5")
        ]
    );
}
