//! Each lineup rule with a lineup it accepts and one it refuses, the refusal naming the rule.

use jiff::civil::{Date, date};

use super::*;
use crate::model::{Board, GameResult, Player, Round};

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
    let c = league(vec![]);
    let f = refusals(
        &c,
        &gthscl(),
        &[],
        &toledo(&[Some("t1"), Some("t5"), Some("t2"), Some("t3")]),
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
    let full = named(
        2,
        "tol",
        Side::Away,
        &[Some("m1"), Some("m2"), Some("m3"), Some("m4")],
    );
    let f = refusals(&c, &gthscl(), std::slice::from_ref(&full), &withdrawn);
    assert_eq!(rules_of(&f), ["GT-M12"], "{f:?}");
    let short = named(
        2,
        "tol",
        Side::Away,
        &[Some("m1"), Some("m2"), Some("m3"), None],
    );
    assert_eq!(refusals(&c, &gthscl(), &[short], &withdrawn), []);
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

#[test]
fn gt_m15_a_player_stays_with_the_first_team_they_played_for() {
    let mut metro = sisters();
    metro.teams.remove(1);
    metro.rounds[0].pairings = vec![played(
        "sjj-a",
        "x",
        &[
            ("a1", "x1", GameResult::Draw),
            ("a2", "x2", GameResult::Draw),
            ("a3", "x3", GameResult::Draw),
            ("a4", "x4", GameResult::Draw),
        ],
    )];
    let mut suburban = sisters();
    suburban.teams.remove(0);
    suburban.teams[0].players.push(player("a4", 1640, false));
    suburban.rounds[0].date = Some(D2);
    suburban.rounds[0].pairings = vec![played(
        "y",
        "sjj-b",
        &[
            ("y1", "a4", GameResult::Draw),
            ("y2", "b1", GameResult::Draw),
            ("y3", "b2", GameResult::Draw),
            ("y4", "b3", GameResult::Draw),
        ],
    )];
    let r = gthscl();
    let entries = [
        SeasonEntry {
            name: "Metro Division",
            competition: &metro,
            rules: &r,
            named: &[],
        },
        SeasonEntry {
            name: "Suburban Division",
            competition: &suburban,
            rules: &r,
            named: &[],
        },
    ];
    let f = check_season(&entries);
    assert_eq!(f.len(), 1, "{f:?}");
    assert_eq!(f[0].competition, 1);
    assert_eq!(f[0].finding.rule.as_deref(), Some("GT-M15"));
    assert!(f[0].finding.message.starts_with("P-a4 first played for SJJ-A (Metro Division, 2026-10-05) and now plays board 1 for SJJ-B"), "{}", f[0].finding);
    // Played the other way round (B first), the A team's game is the one out of place.
    let entries = [entries[1], entries[0]];
    suburban_first(&entries);
}

fn suburban_first(entries: &[SeasonEntry]) {
    // Dates decide who came first, not the order of the entries.
    let f = check_season(entries);
    assert_eq!(f.len(), 1, "{f:?}");
    assert_eq!(f[0].competition, 0);
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
fn as_3_one_competition_at_a_time_when_dates_overlap() {
    let open = championship();
    let mut girls = championship();
    girls.name = "ASTC Girls".into();
    for t in &mut girls.teams {
        for (i, p) in t.players.iter_mut().enumerate() {
            p.id = PlayerId(format!("g-{}-{i}", t.id));
            p.name = format!("Girl {} {i}", t.id);
        }
    }
    // Victoria's sixth Open player is on its Girls team too, under another id: the same name
    // is the same person.
    girls.teams[0].players[5] = Player {
        name: "p-V6".into(),
        ..player("g-vic-6", 1500, false)
    };
    let astc = Ruleset::preset("astc").unwrap();
    let entries = |girls: &Competition| {
        check_season(&[
            SeasonEntry {
                name: "Open",
                competition: &open,
                rules: &astc,
                named: &[],
            },
            SeasonEntry {
                name: "Girls",
                competition: girls,
                rules: &astc,
                named: &[],
            },
        ])
    };
    let f = entries(&girls);
    assert_eq!(f.len(), 1, "{f:?}");
    assert_eq!(f[0].finding.rule.as_deref(), Some("AS-3"));
    // Girls held the week before: no overlap, no finding.
    girls.rounds[0].date = Some(date(2026, 9, 28));
    assert_eq!(entries(&girls), []);
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
