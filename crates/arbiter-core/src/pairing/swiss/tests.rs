//! The engine on small competitions built here; against FIDE's checker, the whole of it is in
//! `arbiter-formats`' tests (`swiss_grandmommyscup`, `swiss_gacrux`).

use super::colour::{ColourRule, allocate};
use super::field::{Entrant, preference};
use super::*;
use crate::record::model::{Colour, Competition, Team, TeamId};
use crate::rules::ruleset::{ColourPreferences, ForbiddenPairing};

fn field_of(n: usize) -> Competition {
    Competition {
        name: "Swiss".into(),
        teams: (1..=n)
            .map(|i| Team {
                id: TeamId(i.to_string()),
                name: format!("Team {i}"),
                school: None,
                players: Vec::new(),
            })
            .collect(),
        rounds: Vec::new(),
    }
}

fn rules(change: impl FnOnce(&mut crate::rules::ruleset::RulesetSpec)) -> Ruleset {
    Ruleset::preset("fide-team")
        .unwrap()
        .with(|r| {
            r.pairing.rounds = Some(5);
            r.pairing.initial_colour = InitialColour::White;
            change(r);
        })
        .unwrap()
}

fn pairs(p: &RoundPairing) -> Vec<(u32, u32)> {
    p.pairs
        .iter()
        .map(|m| (m.white_number, m.black_number))
        .collect()
}

fn request(round: u32) -> Request {
    Request {
        round,
        absent: None,
        seed: 1,
    }
}

#[test]
fn c046_art_3_6_2_round_1_pairs_the_top_half_against_the_bottom_half() {
    let p = pair(&field_of(8), &rules(|_| {}), &request(1)).unwrap();
    // Art. 4.3.1: an odd TPN takes the initial-colour (White), an even one the other.
    assert_eq!(pairs(&p), [(1, 5), (6, 2), (3, 7), (8, 4)]);
    assert_eq!(p.bye, None);
    assert!(
        p.pairs
            .iter()
            .all(|m| m.why.colour_rule == ColourRule::InitialColour)
    );
}

#[test]
fn c046_art_3_4_the_bye_goes_to_the_largest_tpn_of_the_lowest_score() {
    let p = pair(&field_of(7), &rules(|_| {}), &request(1)).unwrap();
    assert_eq!(p.bye.as_ref().map(|b| b.number), Some(7));
    assert_eq!(pairs(&p), [(1, 4), (5, 2), (3, 6)]);
}

#[test]
fn c046_art_2_1_forbidden_teams_do_not_meet() {
    let r = rules(|r| {
        r.pairing.forbidden = vec![ForbiddenPairing {
            teams: vec!["1".into(), "5".into()],
            from_round: Some(1),
            to_round: Some(1),
        }]
    });
    let p = pair(&field_of(8), &r, &request(1)).unwrap();
    assert!(
        !pairs(&p)
            .iter()
            .any(|&(a, b)| (a, b) == (1, 5) || (a, b) == (5, 1))
    );
    // The next identifier: 1 meets 6, so 2 meets 5.
    assert!(pairs(&p).contains(&(1, 6)), "{:?}", pairs(&p));
}

#[test]
fn c046_art_4_1_a_drawn_initial_colour_follows_the_seed() {
    let r = rules(|r| r.pairing.initial_colour = InitialColour::Drawn);
    let colour = |seed| {
        let req = Request { seed, ..request(1) };
        pair(&field_of(4), &r, &req).unwrap().initial_colour
    };
    assert_eq!(colour(7), colour(7));
    assert!((0..16).any(|s| colour(s) == Colour::White));
    assert!((0..16).any(|s| colour(s) == Colour::Black));
}

#[test]
fn c046_art_2_3_4_a_round_without_the_events_length_is_refused() {
    let r = rules(|r| r.pairing.rounds = None);
    let e = pair(&field_of(8), &r, &request(1)).unwrap_err();
    assert_eq!(e.rule, "C.04.6 art. 2.3.4");
    assert!(e.message.contains("`[pairing] rounds`"), "{e}");
    let past = pair(&field_of(8), &rules(|_| {}), &request(6)).unwrap_err();
    assert!(past.message.contains("past the event's 5 rounds"), "{past}");
}

#[test]
fn c046_art_1_7_colour_preferences_of_type_a_and_type_b() {
    use Colour::{Black as B, White as W};
    let pref =
        |kind, d, c: &[Colour], last| preference(kind, d, c, last).map(|p| (p.colour, p.strong));
    let (a, b) = (ColourPreferences::TypeA, ColourPreferences::TypeB);
    assert_eq!(pref(a, -2, &[B, B], false), Some((W, true)));
    assert_eq!(pref(a, 0, &[W, B, B], false), Some((W, true)));
    assert_eq!(
        pref(a, -1, &[B], false),
        None,
        "type A has no mild preference"
    );
    assert_eq!(pref(b, -1, &[B], false), Some((W, false)));
    assert_eq!(pref(b, 0, &[B, W], false), Some((B, false)));
    assert_eq!(
        pref(b, 0, &[B, W], true),
        None,
        "none at 0 in the last round"
    );
    assert_eq!(pref(ColourPreferences::None, -3, &[B, B, B], false), None);
}

#[test]
fn c046_art_4_3_colour_rules_in_order() {
    let team = |tpn, primary, colours: &[Colour]| {
        let d = colours
            .iter()
            .map(|c| if *c == Colour::White { 1 } else { -1 })
            .sum();
        Entrant {
            tpn,
            present: true,
            primary,
            secondary: 0.0,
            pairing_score: primary,
            played: colours.len() as u32,
            colour_difference: d,
            colours: colours.to_vec(),
            preference: preference(ColourPreferences::TypeA, d, colours, false),
            floated: false,
            may_have_bye: true,
            level: 1,
        }
    };
    use Colour::{Black as B, White as W};
    let a = ColourPreferences::TypeA;
    // 4.3.2: only team 2 wants White (two Blacks); it gets it.
    let (x_white, rule) = allocate(&team(1, 2.0, &[W, B]), &team(2, 2.0, &[B, B]), a, true, W);
    assert_eq!((x_white, rule), (false, ColourRule::OnlyPreference));
    // 4.3.5: lower colour difference gets White.
    let (x_white, rule) = allocate(&team(1, 2.0, &[W]), &team(2, 2.0, &[B]), a, true, W);
    assert_eq!((x_white, rule), (false, ColourRule::ColourDifference));
    // 4.3.6: alternate from the last round they differed: the first-team (3 points) had
    // Black there, team 1 White, so the first-team gets White.
    let (x_white, rule) = allocate(&team(1, 2.0, &[B, W]), &team(2, 3.0, &[W, B]), a, true, W);
    assert_eq!((x_white, rule), (false, ColourRule::Alternation));
}

#[test]
fn c046_a_generated_event_is_the_same_from_the_same_seed() {
    let one = sample::event(21, 2, 6, 5, 3).unwrap();
    let two = sample::event(21, 2, 6, 5, 3).unwrap();
    assert_eq!(one.0, two.0);
    assert_eq!(one.0.rounds.len(), 5);
}

/// Round 1 of four teams on four boards: 1 (home) v 2 with every board forfeited, two by each
/// team, so both scored; 3 (home) v 4 forfeited by 4 (TRF 330 `+-`).
fn forfeits_in_round_1() -> Competition {
    use crate::record::model::{Board, GameResult, Match, MatchOutcome, Round};
    let board = Board::new;
    let matched = |home: &str, away: &str, outcome| {
        Pairing::Match(Match {
            home: TeamId(home.into()),
            away: TeamId(away.into()),
            outcome,
            date: None,
            start: None,
            extra_games: Vec::new(),
            late: None,
        })
    };
    let (home, away) = (GameResult::HomeWinByForfeit, GameResult::AwayWinByForfeit);
    let mut c = field_of(4);
    c.rounds.push(Round {
        number: 1,
        date: None,
        pairings: vec![
            matched(
                "1",
                "2",
                MatchOutcome::Boards(vec![board(home), board(away), board(home), board(away)]),
            ),
            matched("3", "4", MatchOutcome::Forfeit { by: Side::Away }),
        ],
    });
    c
}

#[test]
fn c046_art_1_6_a_match_both_teams_scored_in_is_played_though_every_board_was_forfeited() {
    let r = rules(|_| {});
    let f = field::Field::new(&forfeits_in_round_1(), &r, 2, 5, &[true; 4]);
    let (one, two) = (&f.teams[0], &f.teams[1]);
    assert_eq!((one.played, two.played), (1, 1));
    assert_eq!(one.colours, [Colour::White]);
    assert_eq!(two.colours, [Colour::Black]);
    assert_eq!((one.colour_difference, two.colour_difference), (1, -1));
    assert_eq!(f.meetings(0, 1), 1, "art. 2.1.1 [C1]: they have met");
    assert!(!f.can_meet(0, 1));
    // A 2-2 draw: art. 2.1.2 [C2] does not bar either from the bye.
    assert!(one.may_have_bye && two.may_have_bye);
}

#[test]
fn c046_art_1_6_and_2_1_2_a_forfeited_match_gives_no_colour_no_meeting_and_bars_the_winner_from_the_bye()
 {
    let r = rules(|_| {});
    let f = field::Field::new(&forfeits_in_round_1(), &r, 2, 5, &[true; 4]);
    let (three, four) = (&f.teams[2], &f.teams[3]);
    assert_eq!((three.played, four.played), (0, 0));
    assert!(three.colours.is_empty() && four.colours.is_empty());
    assert_eq!((three.colour_difference, four.colour_difference), (0, 0));
    assert_eq!(
        three.preference, None,
        "art. 1.7: no match played, no preference"
    );
    assert_eq!(
        f.meetings(2, 3),
        0,
        "a forfeit is not a meeting of art. 2.1.1"
    );
    assert!(f.can_meet(2, 3));
    assert!(
        !three.may_have_bye,
        "art. 2.1.2 [C2]: it won a match by forfeit"
    );
    assert!(four.may_have_bye);
    assert_eq!(three.primary, r.match_points.win);
}

/// `[pairing] seed = "average_top"`, `seed_top = 2`: four teams listed 1 to 4 whose two best
/// players average 1900 (team 1: 2000, 1800, 1500), 2100 (team 2: 2200, 2000), 1600 (team 3:
/// 1600 alone, one rated player) and nothing (team 4, unrated): start numbers 2, 1, 3, 4, and
/// round 1 pairs start number 1 (team 2) against 3 (team 3), 2 (team 1) against 4 (team 4).
#[test]
fn c046_art_1_1_start_numbers_by_the_average_of_each_teams_top_players() {
    let mut c = field_of(4);
    let ratings: [&[u32]; 4] = [&[2000, 1500, 1800], &[2200, 2000], &[1600], &[]];
    for (team, list) in c.teams.iter_mut().zip(ratings) {
        team.players = list
            .iter()
            .enumerate()
            .map(|(i, &r)| crate::record::model::Player {
                id: crate::record::model::PlayerId(format!("{}-{i}", team.id.0)),
                name: format!("P{i}"),
                rating: Some(r),
                ..Default::default()
            })
            .collect();
    }
    let rules = rules(|r| r.pairing.seed = SeedOrder::AverageTop(2));
    let seeded: Vec<(usize, u32, Option<f64>)> = seeding(&c, &rules)
        .iter()
        .map(|s| (s.team, s.number, s.average))
        .collect();
    assert_eq!(
        seeded,
        [
            (1, 1, Some(2100.0)),
            (0, 2, Some(1900.0)),
            (2, 3, Some(1600.0)),
            (3, 4, None)
        ]
    );
    let p = pair(&c, &rules, &request(1)).unwrap();
    let ids: Vec<(&str, &str)> = p
        .pairs
        .iter()
        .map(|m| (m.white.0.as_str(), m.black.0.as_str()))
        .collect();
    assert_eq!(pairs(&p), [(1, 3), (4, 2)]);
    assert_eq!(ids, [("2", "3"), ("4", "1")]);
    // The file's order, as before.
    let file = seeding(&c, &super::tests::rules(|_| {}));
    assert_eq!(
        file.iter().map(|s| s.team).collect::<Vec<_>>(),
        [0, 1, 2, 3]
    );
}

#[test]
fn c046_art_1_1_average_top_without_seed_top_is_refused_at_its_section() {
    let text = "extends = \"fide-team\"\n\n[pairing]\nseed = \"average_top\"\n";
    let e =
        Ruleset::from_toml("rules.toml", text, &crate::rules::ruleset::PresetsOnly).unwrap_err();
    assert_eq!((e.line, e.column), (Some(3), Some(1)), "{e}");
    assert!(e.message.contains("e.g. seed_top = 4"), "{e}");
    let ok = Ruleset::from_toml(
        "rules.toml",
        "extends = \"fide-team\"\n[pairing]\nseed = \"average_top\"\nseed_top = 4\n",
        &crate::rules::ruleset::PresetsOnly,
    )
    .unwrap();
    assert_eq!(ok.pairing.seed, SeedOrder::AverageTop(4));
    let back = crate::rules::ruleset::RulesetDocument::from(&ok)
        .to_toml()
        .unwrap();
    assert!(back.contains("seed_top = 4"), "{back}");
}
