//! Each lineup rule with a lineup it accepts and one it refuses, the refusal naming the rule.

use jiff::civil::{Date, date};

use super::*;
use crate::record::model::{Board, GameResult, Player, Round};

const D1: Date = date(2026, 10, 5);
const D2: Date = date(2026, 10, 7);

fn player(id: &str, rating: u32, provisional: bool) -> Player {
    Player {
        id: PlayerId(id.into()),
        name: format!("P-{id}"),
        rating: Some(rating),
        provisional,
        ..Player::default()
    }
}

fn team(id: &str, school: &str, players: Vec<Player>) -> Team {
    Team {
        id: TeamId(id.into()),
        name: id.to_uppercase(),
        school: Some(school.into()),
        players,
    }
}

fn pending(home: &str, away: &str) -> Pairing {
    Pairing::Match(Match {
        date: None,
        home: TeamId(home.into()),
        away: TeamId(away.into()),
        outcome: MatchOutcome::Pending,
        start: None,
        extra_games: Vec::new(),
        late: None,
    })
}

fn played(home: &str, away: &str, boards: &[(&str, &str, GameResult)]) -> Pairing {
    Pairing::Match(Match {
        date: None,
        home: TeamId(home.into()),
        away: TeamId(away.into()),
        outcome: MatchOutcome::Boards(
            boards
                .iter()
                .map(|(h, a, r)| Board {
                    home_player: Some(PlayerId((*h).into())),
                    away_player: Some(PlayerId((*a).into())),
                    ..Board::new(*r)
                })
                .collect(),
        ),
        start: None,
        extra_games: Vec::new(),
        late: None,
    })
}

fn gthscl() -> Ruleset {
    Ruleset::preset("gthscl").unwrap()
}

/// Toledo (t1 1600 … t4 1300, t5 1200N) at home to Maumee (m1 1800 …), round 1 played on
/// `D1` as `round1` says, round 2 on `D2` still to play.
fn league(round1: Vec<Pairing>) -> Competition {
    Competition {
        name: "Test".into(),
        teams: vec![
            team(
                "tol",
                "Toledo HS",
                vec![
                    player("t1", 1600, false),
                    player("t2", 1500, false),
                    player("t3", 1490, false),
                    player("t4", 1300, false),
                    player("t5", 1200, true),
                ],
            ),
            team(
                "mau",
                "Maumee HS",
                (1..=5)
                    .map(|i| player(&format!("m{i}"), 1900 - 50 * i, false))
                    .collect(),
            ),
        ],
        rounds: vec![
            Round {
                number: 1,
                date: Some(D1),
                pairings: round1,
            },
            Round {
                number: 2,
                date: Some(D2),
                pairings: vec![pending("tol", "mau")],
            },
        ],
    }
}

fn named(round: u32, home: &str, side: Side, boards: &[Option<&str>]) -> NamedLineup {
    NamedLineup {
        round,
        home: TeamId(home.into()),
        side,
        lineup: Lineup {
            boards: boards
                .iter()
                .map(|p| p.map(|p| PlayerId(p.into())))
                .collect(),
            withdrawn: Vec::new(),
        },
    }
}

fn toledo(boards: &[Option<&str>]) -> NamedLineup {
    named(2, "tol", Side::Home, boards)
}

fn rules_of(findings: &[Finding]) -> Vec<&str> {
    findings.iter().filter_map(|f| f.rule.as_deref()).collect()
}

#[test]
fn gt_m11_boards_follow_ratings_highest_first() {
    let c = league(vec![]);
    let ok = toledo(&[Some("t1"), Some("t2"), Some("t3"), Some("t4")]);
    assert_eq!(refusals(&c, &gthscl(), &[], &ok), []);
    let swapped = toledo(&[Some("t2"), Some("t1"), Some("t3"), Some("t4")]);
    let f = refusals(&c, &gthscl(), &[], &swapped);
    assert_eq!(rules_of(&f), ["GT-M11"], "{f:?}");
    assert_eq!(f[0].severity, Severity::Violation);
    assert_eq!(
        f[0].to_string(),
        "round 2, tol v mau, board 2: GT-M11: P-t1 (1600) is rated above P-t2 (1500) on board 1, by ratings as of 2026-10-07; boards follow ratings, highest on board 1: swap them"
    );
    assert_eq!(f[0].team, Some(TeamId("tol".into())));
}

#[test]
fn gt_m11_gt_r4_board_order_reads_the_ratings_as_of_the_match_date() {
    // Round 1: t3 (1490) beats m1 (1850), +28, and t2 (1500) loses to m2 (1800), -5 (K 32, the
    // league's Elo): on round 2's date t3 rates 1518 and t2 1495.
    let c = league(vec![played(
        "tol",
        "mau",
        &[
            ("t1", "m3", GameResult::Draw),
            ("t3", "m1", GameResult::HomeWin),
            ("t2", "m2", GameResult::AwayWin),
            ("t4", "m4", GameResult::Draw),
        ],
    )]);
    let by_roster = toledo(&[Some("t1"), Some("t2"), Some("t3"), Some("t4")]);
    let f = refusals(&c, &gthscl(), &[], &by_roster);
    assert_eq!(rules_of(&f), ["GT-M11"], "{f:?}");
    assert!(f[0].message.contains("P-t3 (1518)"), "{}", f[0]);
    let by_rating = toledo(&[Some("t1"), Some("t3"), Some("t2"), Some("t4")]);
    assert_eq!(refusals(&c, &gthscl(), &[], &by_rating), []);
}

#[test]
fn gt_m13_gt_r3_a_provisional_player_plays_behind_every_established_one() {
    let mut c = league(vec![]);
    // With t3 gone from the roster, t5 is the fourth strongest and plays (GT-M12 asks no more).
    c.teams[0].players[2].withdrawn = Some(D1);
    let f = refusals(
        &c,
        &gthscl(),
        &[],
        &toledo(&[Some("t1"), Some("t5"), Some("t2"), Some("t4")]),
    );
    assert_eq!(rules_of(&f), ["GT-M13"], "{f:?}");
    assert!(
        f[0].message.contains("P-t5 (1200N) is provisional"),
        "{}",
        f[0]
    );
    let last = toledo(&[Some("t1"), Some("t2"), Some("t4"), Some("t5")]);
    assert_eq!(refusals(&c, &gthscl(), &[], &last), []);
}

#[test]
fn gt_m9_a_short_team_leaves_its_lowest_boards_empty() {
    let c = league(vec![]);
    let low = toledo(&[Some("t1"), Some("t2"), Some("t3"), None]);
    assert_eq!(refusals(&c, &gthscl(), &[], &low), []);
    let high = toledo(&[Some("t1"), None, Some("t2"), Some("t3")]);
    let f = refusals(&c, &gthscl(), &[], &high);
    assert_eq!(rules_of(&f), ["GT-M9"], "{f:?}");
    assert_eq!(f[0].board, Some(2));
}

#[test]
fn gt_m10_one_board_a_player_and_the_team_s_own_roster() {
    let c = league(vec![]);
    let twice = toledo(&[Some("t1"), Some("t1"), Some("t3"), Some("t4")]);
    let f = refusals(&c, &gthscl(), &[], &twice);
    assert!(rules_of(&f).contains(&"GT-M10"), "{f:?}");
    let stranger = toledo(&[Some("m1"), Some("t2"), Some("t3"), Some("t4")]);
    let f = refusals(&c, &gthscl(), &[], &stranger);
    assert!(f[0].message.contains("on MAU's roster, not TOL's"), "{f:?}");
}

#[test]
fn gt_m12_a_withdrawal_only_when_the_opponent_forfeits_a_board() {
    let c = league(vec![]);
    let mut withdrawn = toledo(&[Some("t2"), Some("t3"), Some("t4"), Some("t5")]);
    withdrawn.lineup.withdrawn = vec![PlayerId("t1".into())];
    let f = refusals(
        &c,
        &gthscl(),
        std::slice::from_ref(&maumee_full()),
        &withdrawn,
    );
    assert_eq!(rules_of(&f), ["GT-M12"], "{f:?}");
    assert_eq!(
        f[0].message,
        "P-t1 is withdrawn so that a lower-ranked player plays, but the opponent leaves no board empty; a team may withdraw a higher-ranked player only when the opponent forfeits a board: name them in the lineup"
    );
    assert_eq!(refusals(&c, &gthscl(), &[maumee_short()], &withdrawn), []);
}

/// Maumee's lineup for round 2, every board named.
fn maumee_full() -> NamedLineup {
    named(
        2,
        "tol",
        Side::Away,
        &[Some("m1"), Some("m2"), Some("m3"), Some("m4")],
    )
}

/// Maumee's lineup for round 2, board 4 forfeited.
fn maumee_short() -> NamedLineup {
    named(
        2,
        "tol",
        Side::Away,
        &[Some("m1"), Some("m2"), Some("m3"), None],
    )
}

/// The case: leaving t1 out without a word was accepted while the same lineup saying
/// it withdraws t1 was refused. Both follow GT-M12 now.
#[test]
fn gt_m12_a_lineup_that_leaves_out_a_higher_ranked_player_follows_the_rule_of_a_withdrawal() {
    let c = league(vec![]);
    let rules = gthscl();
    let silent = toledo(&[Some("t2"), Some("t3"), Some("t4"), Some("t5")]);
    let mut declared = silent.clone();
    declared.lineup.withdrawn = vec![PlayerId("t1".into())];
    // The opponent forfeits no board (or has named no lineup): both refused.
    for opponent in [vec![maumee_full()], vec![]] {
        for lineup in [&silent, &declared] {
            let f = refusals(&c, &rules, &opponent, lineup);
            assert_eq!(rules_of(&f), ["GT-M12"], "{lineup:?}: {f:?}");
        }
    }
    let f = refusals(&c, &rules, &[maumee_full()], &silent);
    assert_eq!(
        f[0].to_string(),
        "round 2, tol v mau: GT-M12: P-t1 (1600) is left out while P-t5 (1200N) plays board 4, by ratings as of 2026-10-07; a team plays its strongest players and leaves out a higher-ranked one only when the opponent forfeits a board: name them in place of a lower-ranked player"
    );
    // The opponent forfeits board 4: both stand, and t1 is kept as withdrawn either way.
    let short = [maumee_short()];
    for lineup in [&silent, &declared] {
        assert_eq!(refusals(&c, &rules, &short, lineup), []);
        assert_eq!(
            withdrawals(&c, &rules, &short, lineup, &Elsewhere::default(), &[]),
            [PlayerId("t1".into())]
        );
    }
    // A player below every one who plays is not left out: t5 (1200N) sits out of t1..t4.
    let strongest = toledo(&[Some("t1"), Some("t2"), Some("t3"), Some("t4")]);
    assert_eq!(refusals(&c, &rules, &[maumee_full()], &strongest), []);
    assert_eq!(
        withdrawals(&c, &rules, &short, &strongest, &Elsewhere::default(), &[]),
        []
    );
    // GT-M15: a player bound to another team is not left out.
    let mut bound = Elsewhere::default();
    bound.bind(PlayerId("t1".into()), Some(D1));
    assert_eq!(
        refusals_in(&c, &rules, &[maumee_full()], &silent, &bound, &[]),
        []
    );
    // AS-9: at the ASTC any four of the roster play; leaving one out withdraws no one.
    let astc = Ruleset::preset("astc").unwrap();
    assert_eq!(refusals(&c, &astc, &[maumee_full()], &silent), []);
}

#[test]
fn gt_m12_a_withdrawal_is_of_a_roster_player_ranked_above_one_who_plays() {
    let c = league(vec![]);
    let rules = gthscl();
    let short = [maumee_short()];
    let with = |boards: &[Option<&str>], withdrawn: &str| {
        let mut l = toledo(boards);
        l.lineup.withdrawn = vec![PlayerId(withdrawn.into())];
        refusals(&c, &rules, &short, &l)
    };
    let four = [Some("t1"), Some("t2"), Some("t3"), Some("t4")];
    let stranger = with(&four, "m1");
    assert_eq!(rules_of(&stranger), ["GT-M12"], "{stranger:?}");
    assert!(
        stranger[0]
            .message
            .starts_with("P-m1 is listed as withdrawn but is not on TOL's roster"),
        "{}",
        stranger[0]
    );
    let below = with(&four, "t5");
    assert_eq!(rules_of(&below), ["GT-M12"], "{below:?}");
    assert!(
        below[0].message.starts_with(
            "P-t5 (1200N) is listed as withdrawn but ranks below P-t4 (1300), the lowest-ranked player named (board 4)"
        ),
        "{}",
        below[0]
    );
    let playing = with(&four, "t2");
    assert_eq!(rules_of(&playing), ["GT-M12"], "{playing:?}");
    assert_eq!(playing[0].board, Some(2));
    // AS-10: at the ASTC the roster's order is the rank.
    let astc = Ruleset::preset("astc").unwrap();
    let champ = championship();
    let mut last = named(
        1,
        "vic",
        Side::Home,
        &[Some("v1"), Some("v2"), Some("v3"), Some("v4")],
    );
    last.lineup.withdrawn = vec![PlayerId("v6".into())];
    let f = refusals(&champ, &astc, &[], &last);
    assert!(
        f.iter().any(|f| f
            .message
            .starts_with("P-v6 (number 6 on the roster) is listed as withdrawn but ranks below")),
        "{f:?}"
    );
}

/// GT-M12: the withdrawals named before the match stay with its record, and are checked
/// against the boards it played.
#[test]
fn gt_m12_the_withdrawals_stay_with_the_match_after_the_result() {
    let boards = |away4: Option<&str>| {
        let mut m = played(
            "tol",
            "mau",
            &[
                ("t2", "m1", GameResult::Draw),
                ("t3", "m2", GameResult::Draw),
                ("t4", "m3", GameResult::Draw),
                ("t5", "m4", GameResult::Draw),
            ],
        );
        if let Pairing::Match(Match {
            outcome: MatchOutcome::Boards(b),
            ..
        }) = &mut m
        {
            b[3].away_player = away4.map(|p| PlayerId(p.into()));
            if away4.is_none() {
                b[3].result = GameResult::HomeWinByForfeit;
            }
        }
        league(vec![m])
    };
    let mut withdrew = named(
        1,
        "tol",
        Side::Home,
        &[Some("t2"), Some("t3"), Some("t4"), Some("t5")],
    );
    withdrew.lineup.withdrawn = vec![PlayerId("t1".into())];
    // Maumee forfeited board 4: the withdrawal stands with the result.
    let short = boards(None);
    let f = check_competition(&short, &gthscl(), std::slice::from_ref(&withdrew));
    assert!(!rules_of(&f).contains(&"GT-M12"), "{f:?}");
    // Maumee played all four: the withdrawal named before is a violation of the result.
    let full = boards(Some("m4"));
    let f = check_competition(&full, &gthscl(), std::slice::from_ref(&withdrew));
    assert_eq!(rules_of(&f), ["GT-M12"], "{f:?}");
    assert_eq!(f[0].severity, Severity::Violation);
    // The record says who played, not who came: t1 left out of the boards is no finding.
    assert_eq!(check_competition(&full, &gthscl(), &[]), []);
}

#[test]
fn gt_r7_an_unranked_player_plays_no_scored_board() {
    let mut c = league(vec![]);
    c.teams[0].players[3].unranked = true;
    let f = refusals(
        &c,
        &gthscl(),
        &[],
        &toledo(&[Some("t1"), Some("t2"), Some("t3"), Some("t4")]),
    );
    assert_eq!(rules_of(&f), ["GT-R7"], "{f:?}");
    let ranked = toledo(&[Some("t1"), Some("t2"), Some("t3"), Some("t5")]);
    assert_eq!(refusals(&c, &gthscl(), &[], &ranked), []);
}

/// A player withdrawn from the roster plays no match from that day; before it they did.
#[test]
fn a_withdrawn_player_is_named_in_no_lineup_from_that_day() {
    let mut c = league(vec![]);
    c.teams[0].players[3].withdrawn = Some(D2);
    let f = refusals(
        &c,
        &gthscl(),
        &[],
        &toledo(&[Some("t1"), Some("t2"), Some("t3"), Some("t4")]),
    );
    assert_eq!(f.len(), 1, "{f:?}");
    assert_eq!(f[0].board, Some(4));
    assert!(
        f[0].message.contains("was withdrawn from the roster on"),
        "{}",
        f[0]
    );
    c.teams[0].players[3].withdrawn = D2.tomorrow().ok();
    let before = toledo(&[Some("t1"), Some("t2"), Some("t3"), Some("t4")]);
    assert_eq!(refusals(&c, &gthscl(), &[], &before), []);
}

/// St. John's A and B in one division: the A team holds the school's four highest.
fn sisters() -> Competition {
    let a = (1..=5)
        .map(|i| player(&format!("a{i}"), 1800 - 40 * i, false))
        .collect();
    let b = (1..=4)
        .map(|i| player(&format!("b{i}"), 1500 - 40 * i, false))
        .collect();
    Competition {
        name: "Metro".into(),
        teams: vec![
            team("sjj-a", "St. John's", a),
            team("sjj-b", "St. John's", b),
            team(
                "x",
                "X HS",
                (1..=4)
                    .map(|i| player(&format!("x{i}"), 1400, false))
                    .collect(),
            ),
            team(
                "y",
                "Y HS",
                (1..=4)
                    .map(|i| player(&format!("y{i}"), 1400, false))
                    .collect(),
            ),
        ],
        rounds: vec![Round {
            number: 1,
            date: Some(D1),
            pairings: vec![pending("sjj-a", "x"), pending("y", "sjj-b")],
        }],
    }
}

#[test]
fn gt_m14_sister_teams_are_ranked_as_one_squad() {
    let c = sisters();
    let a_top = named(
        1,
        "sjj-a",
        Side::Home,
        &[Some("a1"), Some("a2"), Some("a3"), Some("a4")],
    );
    // a5 (1600) plays for B while a4 (1640) plays for A: in order.
    let b_with_a5 = named(
        1,
        "y",
        Side::Away,
        &[Some("a5"), Some("b1"), Some("b2"), Some("b3")],
    );
    assert_eq!(
        refusals(&c, &gthscl(), std::slice::from_ref(&a_top), &b_with_a5),
        []
    );
    // A plays a5 and leaves a4 (1640) to B: the A team is not the school's four highest.
    let a_low = named(
        1,
        "sjj-a",
        Side::Home,
        &[Some("a1"), Some("a2"), Some("a3"), Some("a5")],
    );
    let b_with_a4 = named(
        1,
        "y",
        Side::Away,
        &[Some("a4"), Some("b1"), Some("b2"), Some("b3")],
    );
    let f = refusals(&c, &gthscl(), &[a_low], &b_with_a4);
    assert_eq!(rules_of(&f), ["GT-M14"], "{f:?}");
    assert!(
        f[0].message
            .contains("P-a4 (1640) plays for SJJ-B while P-a5 (1600) plays for SJJ-A"),
        "{}",
        f[0]
    );
}

/// The ASTC: six-player rosters in fixed order, four play.
fn championship() -> Competition {
    let roster = |s: &str| {
        (1..=6)
            .map(|i| player(&format!("{s}{i}"), 2000, false))
            .collect()
    };
    Competition {
        name: "ASTC Open".into(),
        teams: vec![
            team("vic", "Melbourne High", roster("v")),
            team("nsw", "Sydney Boys", roster("n")),
        ],
        rounds: vec![Round {
            number: 1,
            date: Some(D1),
            pairings: vec![pending("vic", "nsw")],
        }],
    }
}

#[test]
fn as_10_a_lineup_keeps_the_roster_s_order() {
    let c = championship();
    let astc = Ruleset::preset("astc").unwrap();
    let skip = named(
        1,
        "vic",
        Side::Home,
        &[Some("v1"), Some("v3"), Some("v4"), Some("v6")],
    );
    assert_eq!(refusals(&c, &astc, &[], &skip), []);
    let swapped = named(
        1,
        "vic",
        Side::Home,
        &[Some("v1"), Some("v4"), Some("v3"), Some("v6")],
    );
    let f = refusals(&c, &astc, &[], &swapped);
    assert_eq!(rules_of(&f), ["AS-10"], "{f:?}");
    assert!(
        f[0].message
            .contains("P-v3 (number 3 on the roster) plays board 3 below P-v4 (number 4)"),
        "{}",
        f[0]
    );
}

#[test]
fn as_4_one_team_per_school() {
    let mut c = championship();
    let astc = Ruleset::preset("astc").unwrap();
    assert_eq!(check_competition(&c, &astc, &[]), []);
    c.teams[1].school = Some("Melbourne High".into());
    let f = check_competition(&c, &astc, &[]);
    assert_eq!(rules_of(&f), ["AS-4"], "{f:?}");
    // GTHSCL allows a school several teams (GT-O1).
    assert_eq!(check_competition(&c, &gthscl(), &[]), []);
}

#[test]
fn a_recorded_lineup_that_breaks_a_rule_is_kept_and_flagged_as_a_violation() {
    let c = league(vec![played(
        "tol",
        "mau",
        &[
            ("t2", "m1", GameResult::Draw),
            ("t1", "m2", GameResult::Draw),
            ("t3", "m3", GameResult::Draw),
            ("t4", "m4", GameResult::Draw),
        ],
    )]);
    let f = check_competition(&c, &gthscl(), &[]);
    assert_eq!(rules_of(&f), ["GT-M11"], "{f:?}");
    assert_eq!(
        (f[0].severity, f[0].round, f[0].board),
        (Severity::Violation, Some(1), Some(2))
    );
    assert!(breaks_a_rule(&f));
    // A match with a result takes no lineup before it.
    let late = named(1, "tol", Side::Home, &[Some("t1")]);
    let f = refusals(&c, &gthscl(), &[], &late);
    assert!(f[0].message.contains("the match has a result"), "{f:?}");
}

#[test]
fn the_free_order_of_a_ruleset_that_says_nothing() {
    let c = league(vec![]);
    let fide = Ruleset::preset("fide-team").unwrap();
    let any = toledo(&[Some("t4"), Some("t1"), Some("t5"), Some("t2")]);
    assert_eq!(refusals(&c, &fide, &[], &any), []);
}

#[test]
fn as_9_gt_m8_a_lineup_naming_no_player_is_refused() {
    let c = league(vec![]);
    let astc = Ruleset::preset("astc").unwrap();
    for (rules, rule) in [(&astc, "AS-9"), (&gthscl(), "GT-M8")] {
        for boards in [vec![None; 4], Vec::new()] {
            let empty = toledo(&boards);
            let f = refusals(&c, rules, &[], &empty);
            assert_eq!(rules_of(&f), [rule], "{f:?}");
            assert!(f[0].message.contains("names no player"), "{}", f[0]);
        }
    }
    // One player named is a lineup (GT-M9: a short team plays as many as it can).
    let one = toledo(&[Some("t1"), None, None, None]);
    assert!(
        !refusals(&c, &gthscl(), &[], &one)
            .iter()
            .any(|f| f.message.contains("names no player"))
    );
}
