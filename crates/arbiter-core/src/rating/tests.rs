#![allow(clippy::unwrap_used, clippy::expect_used)]

use jiff::civil::date;

use super::rollover::next_season;
use super::*;
use crate::rating::rated_games::{NotRated, entrants, rate};
use crate::record::model::*;
use crate::rules::ruleset::Ruleset;

fn rated(rating: u32) -> Entrant {
    Entrant {
        rating: Some(rating),
        ..Entrant::default()
    }
}

fn game(home: u32, away: u32, home_score: Score) -> Game {
    Game {
        home,
        away,
        home_score,
    }
}

fn one_period(games: Vec<Game>) -> Vec<Period> {
    vec![Period { date: None, games }]
}

fn first_change(r: &Replay, player: usize) -> &PeriodChange {
    r.periods_of(player).next().unwrap()
}

fn close(a: f64, b: f64, within: f64) -> bool {
    (a - b).abs() <= within
}

const LEAGUE: System = System::League(LeagueElo {
    start: 1200,
    k: 32.0,
    provisional_k: 64.0,
    provisional_games: 1,
    floor: 100,
});

// --- The league's Elo (worked by hand in docs/ratings.md) ---

#[test]
fn gt_r3_a_new_player_starts_at_1200n_and_moves_with_the_higher_k() {
    let players = [rated(1200), Entrant::default()];
    let r = replay(
        &LEAGUE,
        &players,
        &one_period(vec![game(0, 1, Score::Loss)]),
    )
    .unwrap();
    let new = r.start(1).unwrap();
    assert_eq!((new.rating, new.provisional), (1200.0, true));
    // Equal ratings, so each expected 0.5: the established player loses 32 × 0.5, the new one
    // gains 64 × 0.5, and one rated game ends the provisional rating (GT-R3's default).
    assert_eq!(r.current(0).unwrap().rating, 1184.0);
    let after = r.current(1).unwrap();
    assert_eq!((after.rating, after.provisional), (1232.0, false));
    assert_eq!(first_change(&r, 1).k, Some(64.0));
}

#[test]
fn league_elo_a_draw_200_points_apart() {
    let players = [rated(1400), rated(1200)];
    let r = replay(
        &LEAGUE,
        &players,
        &one_period(vec![game(0, 1, Score::Draw)]),
    )
    .unwrap();
    // E = 1 / (1 + 10^(-200/400)) = 0.759747; 32 × (0.5 − 0.759747) = −8.312.
    let higher = first_change(&r, 0);
    assert!(close(higher.change, -8.312, 0.001), "{}", higher.change);
    assert_eq!(higher.after.rating, 1392.0);
    assert_eq!(r.current(1).unwrap().rating, 1208.0);
    let seen = r.games_of(higher)[0];
    assert!(close(seen.expected, 0.759747, 0.000001));
}

#[test]
fn league_elo_counts_a_gap_over_400_as_400() {
    let players = [rated(1800), rated(1200)];
    let r = replay(&LEAGUE, &players, &one_period(vec![game(0, 1, Score::Win)])).unwrap();
    // Capped: E = 1 / (1 + 10^-1) = 0.909091, so the win is worth 32 × 0.090909 = 2.909.
    assert_eq!(r.current(0).unwrap().rating, 1803.0);
    assert_eq!(r.current(1).unwrap().rating, 1197.0);
}

#[test]
fn league_elo_never_goes_below_the_floor() {
    let players = [rated(110), rated(110)];
    let r = replay(&LEAGUE, &players, &one_period(vec![game(0, 1, Score::Win)])).unwrap();
    assert_eq!(r.current(1).unwrap().rating, 100.0);
}

#[test]
fn every_game_of_a_period_is_rated_from_the_ratings_before_it() {
    let players = [rated(1200), rated(1200), rated(1200)];
    let games = vec![game(0, 1, Score::Win), game(0, 2, Score::Win)];
    let r = replay(&LEAGUE, &players, &one_period(games)).unwrap();
    // Both wins against 1200 expected 0.5 each: +16 +16, not +16 then +14.5.
    assert_eq!(r.current(0).unwrap().rating, 1232.0);
    assert_eq!(r.current(0).unwrap().games, 2);
}

#[test]
fn replaying_one_history_twice_gives_identical_lists() {
    let players: Vec<Entrant> = (0..40).map(|i| rated(1000 + i * 25)).collect();
    let periods: Vec<Period> = (0..6)
        .map(|p| Period {
            date: Some(date(2026, 10, 1 + p)),
            games: (0..20)
                .map(|g| {
                    let home = (g * 7 + u32::from(p as u8)) % 40;
                    let away = (home + 1 + g % 5) % 40;
                    let score = [Score::Win, Score::Draw, Score::Loss][(g % 3) as usize];
                    game(home, away, score)
                })
                .collect(),
        })
        .collect();
    for system in [
        LEAGUE,
        System::Fide,
        System::Uscf,
        System::Glicko2 { tau: 0.5 },
    ] {
        let first = replay(&system, &players, &periods).unwrap();
        let second = replay(&system, &players, &periods).unwrap();
        assert_eq!(first, second, "{}", system.code());
        assert!(first.games.len() >= 200, "{}", system.code());
    }
}

#[test]
fn the_rating_as_of_a_date_is_after_every_earlier_match_day() {
    let players = [rated(1200), rated(1200)];
    let periods = vec![
        Period {
            date: Some(date(2026, 10, 5)),
            games: vec![game(0, 1, Score::Win)],
        },
        Period {
            date: Some(date(2026, 10, 7)),
            games: vec![game(0, 1, Score::Win)],
        },
    ];
    let r = replay(&LEAGUE, &players, &periods).unwrap();
    let on = |d| r.as_of(0, d).unwrap().rating;
    assert_eq!(on(date(2026, 10, 5)), 1200.0);
    assert_eq!(on(date(2026, 10, 6)), 1216.0);
    assert_eq!(on(date(2026, 10, 7)), 1216.0);
    assert_eq!(on(date(2026, 10, 8)), r.current(0).unwrap().rating);
    assert!(r.current(0).unwrap().rating > 1216.0);
}

#[test]
fn a_game_naming_a_missing_player_is_an_error_not_a_panic() {
    let err = replay(
        &LEAGUE,
        &[rated(1200)],
        &one_period(vec![game(0, 3, Score::Win)]),
    )
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "period 0, game 0: no player number 3 (there are 1)"
    );
}

// --- FIDE, Handbook B.02 ---

#[test]
fn fide_table_at_its_boundaries() {
    let pd = |d: u32| fide_expected_percent(1500.0 + f64::from(d), 1500.0);
    assert_eq!((pd(0), pd(3), pd(4)), (50, 50, 51));
    assert_eq!((pd(391), pd(392)), (91, 92));
    assert_eq!((pd(400), pd(401)), (92, 92));
    // The 400-point rule: 500 or 800 apart count as 400 (the table alone would say 96 and 100).
    assert_eq!((pd(500), pd(800)), (92, 92));
    // The lower-rated player gets 100 − PD.
    assert_eq!(fide_expected_percent(1500.0, 1892.0), 8);
    assert_eq!(fide_expected_percent(1500.0, 1504.0), 49);
}

#[test]
fn fide_k_in_every_case() {
    let on = Some(date(2026, 12, 3));
    let k = |entrant: Entrant, rating: f64, games: u32| {
        let now = Standing {
            rating,
            rated: true,
            provisional: false,
            games: entrant.rated_games.unwrap_or(0),
            deviation: 0.0,
            volatility: 0.0,
        };
        fide_k(&entrant, &now, games, on)
    };
    let with = |rated_games: Option<u32>, born: Option<jiff::civil::Date>| Entrant {
        rating: Some(2000),
        rated_games,
        birth_date: born,
        ..Entrant::default()
    };
    // 40 until 30 games; 20 below 2400; 10 from 2400.
    assert_eq!(k(with(Some(29), None), 2000.0, 1), 40);
    assert_eq!(k(with(Some(30), None), 2000.0, 1), 20);
    assert_eq!(k(with(None, None), 2399.0, 1), 20);
    assert_eq!(k(with(None, None), 2400.0, 1), 10);
    // 40 under 18 while below 2300: the 18th birthday ends it.
    let junior = Some(date(2008, 12, 4));
    let eighteen = Some(date(2008, 12, 3));
    assert_eq!(k(with(Some(100), junior), 2299.0, 1), 40);
    assert_eq!(k(with(Some(100), junior), 2300.0, 1), 20);
    assert_eq!(k(with(Some(100), eighteen), 2000.0, 1), 20);
    assert_eq!(k(with(Some(100), junior), 2450.0, 1), 10);
    // The record's own K wins; K × games is at most 700.
    let own = Entrant {
        k: Some(15),
        ..with(Some(5), None)
    };
    assert_eq!(k(own, 2000.0, 1), 15);
    assert_eq!(k(with(Some(5), None), 2000.0, 20), 35);
    assert_eq!(k(with(Some(5), None), 2000.0, 17), 40);
}

#[test]
fn fide_rates_the_event_from_the_ratings_before_it() {
    // K 40 (12 games before): beats 2100 (D 100: We 0.36), draws 1950 (D 50: We 0.57), so
    // Σ(W − We) = 0.64 − 0.07 = 0.57 and ΔR = 22.8, published 2023.
    let players = [
        Entrant {
            rated_games: Some(12),
            ..rated(2000)
        },
        rated(2100),
        rated(1950),
    ];
    let games = vec![game(0, 1, Score::Win), game(2, 0, Score::Draw)];
    let r = replay(&System::Fide, &players, &one_period(games)).unwrap();
    let me = first_change(&r, 0);
    assert_eq!(me.k, Some(40.0));
    assert!(close(me.change, 22.8, 1e-9), "{}", me.change);
    assert_eq!(me.after.rating, 2023.0);
    let expected: Vec<f64> = r.games_of(me).iter().map(|g| g.expected).collect();
    assert_eq!(expected, [0.36, 0.57]);
    // The 2100 player (unknown games, so K 20) lost with We 0.64: −12.8.
    assert!(close(first_change(&r, 1).change, -12.8, 1e-9));
    assert_eq!(r.current(1).unwrap().rating, 2087.0);
}

#[test]
fn fide_leaves_games_with_an_unrated_player_to_fide() {
    let players = [rated(2000), Entrant::default()];
    let r = replay(
        &System::Fide,
        &players,
        &one_period(vec![game(0, 1, Score::Win)]),
    )
    .unwrap();
    assert!(r.periods_of(0).next().is_none());
    assert_eq!(
        r.unrateable,
        [Unrateable {
            period: 0,
            game: 0,
            unrated: 1
        }]
    );
}

// --- US Chess and Glicko-2 (standards.md §4.2, §4.3) ---

#[test]
fn uscf_special_formula_worked_example() {
    // N = 6, R = 1500; opponents 1400, 1550, 1650; one win, one loss, one draw:
    // (6 × 1500 + 3 × 1533.33 + 400 × 0) / 9 = 1511.
    let players = [
        Entrant {
            rated_games: Some(6),
            ..rated(1500)
        },
        rated(1400),
        rated(1550),
        rated(1650),
    ];
    let games = vec![
        game(0, 1, Score::Win),
        game(0, 2, Score::Loss),
        game(0, 3, Score::Draw),
    ];
    let r = replay(&System::Uscf, &players, &one_period(games)).unwrap();
    assert_eq!(r.current(0).unwrap().published(), 1511);
    assert_eq!(r.current(0).unwrap().games, 9);
}

#[test]
fn uscf_standard_formula_uses_the_effective_number_of_games() {
    // R = 1700, N = 30. US Chess's formula since 2017 (the one `skillratings` follows):
    // N* = 50 / √(0.662 + 0.00000739 × (2569 − 1700)²) = 20.01 (the older 50 / √(1 + (2200 −
    // R)²/100000) of standards.md §4.2 gave 26.7), N' = min(30, N*), K = 800 / (N' + 1) = 38.07;
    // a win against an equal player: +19.04.
    let players = [
        Entrant {
            rated_games: Some(30),
            ..rated(1700)
        },
        Entrant {
            rated_games: Some(30),
            ..rated(1700)
        },
    ];
    let r = replay(
        &System::Uscf,
        &players,
        &one_period(vec![game(0, 1, Score::Win)]),
    )
    .unwrap();
    assert!(
        close(r.current(0).unwrap().rating, 1719.04, 0.01),
        "{}",
        r.current(0).unwrap().rating
    );
}

#[test]
fn glicko2_worked_example_of_the_paper() {
    // 1500/200 against 1400/30 (win), 1550/100 (loss), 1700/300 (loss), τ = 0.5:
    // 1464.06 / 151.52 / 0.05999.
    let g = |rating: u32, deviation: f64| Entrant {
        deviation: Some(deviation),
        volatility: Some(0.06),
        ..rated(rating)
    };
    let players = [
        g(1500, 200.0),
        g(1400, 30.0),
        g(1550, 100.0),
        g(1700, 300.0),
    ];
    let games = vec![
        game(0, 1, Score::Win),
        game(0, 2, Score::Loss),
        game(0, 3, Score::Loss),
    ];
    let r = replay(&System::Glicko2 { tau: 0.5 }, &players, &one_period(games)).unwrap();
    let after = r.current(0).unwrap();
    assert!(close(after.rating, 1464.06, 0.01), "{}", after.rating);
    assert!(close(after.deviation, 151.52, 0.01), "{}", after.deviation);
    assert!(close(after.volatility, 0.05999, 0.00001));
    assert_eq!(first_change(&r, 0).k, None);
}

// --- From a competition: what is rated and what is not ---

fn player(id: &str, rating: Option<u32>) -> Player {
    Player {
        id: PlayerId(id.into()),
        name: id.into(),
        rating,
        provisional: rating.is_none(),
        ..Player::default()
    }
}

fn team(id: &str, players: Vec<Player>) -> Team {
    Team {
        id: TeamId(id.into()),
        name: id.into(),
        school: None,
        players,
    }
}

fn board(result: GameResult, home: &str, away: &str) -> Board {
    Board {
        home_player: Some(PlayerId(home.into())),
        away_player: Some(PlayerId(away.into())),
        ..Board::new(result)
    }
}

#[test]
fn gt_m7_gt_s2_gt_p1_what_a_competition_rates() {
    let gt_p1 = Board {
        // GT-P1: the team lost the point (an ineligible player), the game itself was a draw.
        rating_result: Some(GameResult::Draw),
        ..board(GameResult::AwayWinByForfeit, "a1", "b1")
    };
    let competition = Competition {
        name: "Division".into(),
        teams: vec![
            team("a", vec![player("a1", Some(1300)), player("a2", None)]),
            team(
                "b",
                vec![player("b1", Some(1300)), player("b2", Some(1250))],
            ),
        ],
        rounds: vec![
            Round {
                number: 1,
                date: Some(date(2026, 10, 5)),
                pairings: vec![Pairing::Match(Match {
                    date: None,
                    home: TeamId("a".into()),
                    away: TeamId("b".into()),
                    outcome: MatchOutcome::Boards(vec![
                        gt_p1,
                        board(GameResult::HomeWinByForfeit, "a2", "b2"),
                    ]),
                    start: None,
                    extra_games: Vec::new(),
                    late: None,
                })],
            },
            Round {
                number: 2,
                date: Some(date(2026, 10, 7)),
                pairings: vec![Pairing::Match(Match {
                    date: None,
                    home: TeamId("b".into()),
                    away: TeamId("a".into()),
                    outcome: MatchOutcome::Forfeit { by: Side::Away },
                    start: None,
                    extra_games: Vec::new(),
                    late: None,
                })],
            },
        ],
    };
    let rules = Ruleset::preset("gthscl").unwrap();
    let rated = rate(&competition, &rules, &System::from_code("league").unwrap()).unwrap();
    // One rated game: the GT-P1 board, on its rating result.
    let games: Vec<&Game> = rated.games.periods.iter().flat_map(|p| &p.games).collect();
    assert_eq!(games, [&game(0, 2, Score::Draw)]);
    let why: Vec<String> = rated
        .games
        .not_rated
        .iter()
        .map(|(place, why)| format!("{place}: {why}"))
        .collect();
    assert_eq!(
        why,
        [
            "round 1, a v b, board 2: GT-S2: a game won by forfeit (+/-) is not rated",
            "round 2, b v a, board 1: GT-M7: a forfeited match is not rated",
        ]
    );
    assert_eq!(rated.games.not_rated[1].1, NotRated::MatchForfeited);
    let rows: Vec<_> = rated
        .rows()
        .map(|(_, p, s)| (p.0.as_str(), s.games))
        .collect();
    assert_eq!(rows, [("a1", 1), ("a2", 0), ("b1", 1), ("b2", 0)]);
}

/// One GTHSCL match on 3 December 2026, `home` beating `away` on every board.
fn one_match(home: Vec<Player>, away: Vec<Player>) -> Competition {
    let boards = home
        .iter()
        .zip(&away)
        .map(|(h, a)| board(GameResult::HomeWin, &h.id.0, &a.id.0))
        .collect();
    Competition {
        name: "Toledo Open Teams".into(),
        teams: vec![team("a", home), team("b", away)],
        rounds: vec![Round {
            number: 1,
            date: Some(date(2026, 12, 3)),
            pairings: vec![Pairing::Match(Match {
                date: None,
                home: TeamId("a".into()),
                away: TeamId("b".into()),
                outcome: MatchOutcome::Boards(boards),
                start: None,
                extra_games: Vec::new(),
                late: None,
            })],
        }],
    }
}

fn with_record(id: &str, rating: u32, record: RatingRecord) -> Player {
    Player {
        record,
        ..player(id, Some(rating))
    }
}

#[test]
fn b02_k_comes_from_each_players_record_in_the_competition() {
    // Every board 1800 v 1800 and won, so each winner gains K × ½: the K is the record's.
    let veteran = RatingRecord {
        rated_games: Some(100),
        ..RatingRecord::default()
    };
    let home = vec![
        // B.02: 40 under 18 (15 on the event's first day) while below 2300.
        with_record(
            "junior",
            1800,
            RatingRecord {
                birth_date: Some(date(2011, 6, 1)),
                ..veteran.clone()
            },
        ),
        // B.02: 35 games before the event, past the 30 of K 40, below 2400: 20.
        with_record(
            "thirty_five",
            1800,
            RatingRecord {
                rated_games: Some(35),
                ..RatingRecord::default()
            },
        ),
        // The record's own K wins over the 40 its 5 games would give.
        with_record(
            "own_k",
            1800,
            RatingRecord {
                rated_games: Some(5),
                k: Some(15),
                ..RatingRecord::default()
            },
        ),
        // Born 2008-12-03: 18 on the day, so the junior K has ended.
        with_record(
            "eighteen",
            1800,
            RatingRecord {
                birth_date: Some(date(2008, 12, 3)),
                ..veteran.clone()
            },
        ),
    ];
    let away = (1..=4)
        .map(|n| with_record(&format!("b{n}"), 1800, veteran.clone()))
        .collect();
    let competition = one_match(home, away);
    let entrants = entrants(&competition);
    assert_eq!(entrants[0].birth_date, Some(date(2011, 6, 1)));
    assert_eq!(entrants[1].rated_games, Some(35));
    assert_eq!(entrants[2].k, Some(15));
    let rules = Ruleset::preset("gthscl").unwrap();
    let rated = rate(&competition, &rules, &System::Fide).unwrap();
    assert!(
        rated.games.not_rated.is_empty(),
        "{:?}",
        rated.games.not_rated
    );
    let k_and_change: Vec<(Option<f64>, f64)> = (0..4)
        .map(|i| {
            let c = first_change(&rated.replay, i);
            (c.k, c.change)
        })
        .collect();
    assert_eq!(
        k_and_change,
        [
            (Some(40.0), 20.0),
            (Some(20.0), 10.0),
            (Some(15.0), 7.5),
            (Some(20.0), 10.0)
        ]
    );
}

#[test]
fn gt_r7_an_unranked_players_game_is_not_rated() {
    let unranked = Player {
        unranked: true,
        ..player("a2", Some(1400))
    };
    let competition = one_match(
        vec![player("a1", Some(1400)), unranked],
        vec![player("b1", Some(1400)), player("b2", Some(1400))],
    );
    let rules = Ruleset::preset("gthscl").unwrap();
    let rated = rate(&competition, &rules, &System::from_code("league").unwrap()).unwrap();
    // Board 1 is rated; board 2, where a2 played, is not.
    let games: Vec<&Game> = rated.games.periods.iter().flat_map(|p| &p.games).collect();
    assert_eq!(games, [&game(0, 2, Score::Win)]);
    let [(place, why)] = &rated.games.not_rated[..] else {
        panic!("{:?}", rated.games.not_rated)
    };
    assert_eq!(why, &NotRated::Unranked(PlayerId("a2".into())));
    assert_eq!(why.rule(), Some("GT-R7"));
    assert_eq!(
        format!("{place}: {why}"),
        "round 1, a v b, board 2: GT-R7: player `a2` may play only unranked games, which are not rated"
    );
    // Neither player of the unranked game has a rated game; their opponents' ratings stand.
    assert_eq!(rated.replay.current(1).unwrap().games, 0);
    assert_eq!(rated.replay.current(3).unwrap().rating, 1400.0);
}

/// GT-P3, GT-R5: a challenge game recorded with the match is rated with its day's games, after
/// its boards; an unranked extra game (GT-R7) counts for nothing.
#[test]
fn gt_r5_a_challenge_game_is_rated_and_an_unranked_one_is_not() {
    use crate::record::model::{ExtraGame, ExtraKind};
    let mut competition = one_match(
        vec![player("a1", Some(1400)), player("a2", Some(1400))],
        vec![player("b1", Some(1400)), player("b2", Some(1400))],
    );
    let Pairing::Match(m) = &mut competition.rounds[0].pairings[0] else {
        panic!("a match")
    };
    m.extra_games = vec![
        ExtraGame {
            white: PlayerId("b2".into()),
            black: PlayerId("a2".into()),
            result: GameResult::HomeWin,
            kind: ExtraKind::Challenge,
            entered_by: None,
            events: Vec::new(),
        },
        ExtraGame {
            white: PlayerId("a1".into()),
            black: PlayerId("b1".into()),
            result: GameResult::Draw,
            kind: ExtraKind::Unranked,
            entered_by: None,
            events: Vec::new(),
        },
    ];
    let rules = Ruleset::preset("gthscl").unwrap();
    let rated = rate(&competition, &rules, &System::from_code("league").unwrap()).unwrap();
    let games: Vec<&Game> = rated.games.periods.iter().flat_map(|p| &p.games).collect();
    // The challenge game and the two boards: b2 (entrant 3) beat a2 (entrant 1) with White.
    assert_eq!(games.len(), 3, "{games:?}");
    assert_eq!(games[0], &game(3, 1, Score::Win));
    let places = &rated.games.places[0];
    assert_eq!(places[0].board, 3, "after the match's two boards");
    let [(place, why)] = &rated.games.not_rated[..] else {
        panic!("{:?}", rated.games.not_rated)
    };
    assert_eq!(why, &NotRated::UnrankedExtraGame);
    assert_eq!(place.board, 4);
    assert_eq!(
        rated.replay.current(1).unwrap().games,
        2,
        "a2: board 2 and the challenge"
    );
}

/// GT-P3, GT-R5: a challenge game one school entered is not rated until the other school
/// confirms it, and once an officer strikes it out it is not rated again, with the reason.
#[test]
fn gt_p3_an_extra_game_entered_by_one_school_is_not_rated_until_the_other_confirms() {
    use crate::record::model::{ExtraEvent, ExtraGame, ExtraKind, ExtraStep, Side};
    let mut competition = one_match(
        vec![player("a1", Some(1400)), player("a2", Some(1400))],
        vec![player("b1", Some(1400)), player("b2", Some(1400))],
    );
    let rules = Ruleset::preset("gthscl").unwrap();
    let system = System::from_code("league").unwrap();
    let mut with = |events: Vec<ExtraEvent>| {
        let Pairing::Match(m) = &mut competition.rounds[0].pairings[0] else {
            panic!("a match")
        };
        m.extra_games = vec![ExtraGame {
            white: PlayerId("b2".into()),
            black: PlayerId("a2".into()),
            result: GameResult::HomeWin,
            kind: ExtraKind::Challenge,
            entered_by: Some(Side::Away),
            events,
        }];
        rate(&competition, &rules, &system).unwrap()
    };
    let pending = with(Vec::new());
    assert_eq!(
        pending.games.periods[0].games.len(),
        2,
        "the two boards, not the game awaiting confirmation"
    );
    assert_eq!(
        pending.games.not_rated[0].1,
        NotRated::ExtraGameAwaitingConfirmation
    );
    assert_eq!(
        pending.replay.current(1).unwrap().games,
        1,
        "a2: board 2 only"
    );
    let confirmed = with(vec![ExtraEvent {
        by: Some("home@example.org".into()),
        step: ExtraStep::Confirmed,
    }]);
    assert_eq!(confirmed.games.periods[0].games.len(), 3);
    assert_eq!(confirmed.replay.current(1).unwrap().games, 2);
    let struck = with(vec![
        ExtraEvent {
            by: Some("home@example.org".into()),
            step: ExtraStep::Confirmed,
        },
        ExtraEvent {
            by: Some("president@example.org".into()),
            step: ExtraStep::Struck {
                reason: "never played".into(),
            },
        },
    ]);
    assert_eq!(struck.games.periods[0].games.len(), 2);
    assert_eq!(
        struck.games.not_rated[0].1,
        NotRated::ExtraGameStruck("never played".into())
    );
    assert_eq!(
        struck.games.not_rated[0].1.to_string(),
        "GT-P3: an officer struck this extra game out (“never played”), so it is not rated"
    );
}

// --- Season rollover (GT-R1, GT-R2, GT-R3) ---

#[test]
fn gt_r1_gt_r2_rollover_of_1180_1200n_and_1450() {
    let league = LeagueElo::default();
    let at = |rating: f64, provisional: bool| Standing {
        rating,
        rated: true,
        provisional,
        games: 6,
        deviation: 0.0,
        volatility: 0.0,
    };
    let low = next_season(&at(1180.0, false), &league);
    assert_eq!(
        (low.rating, low.provisional, low.rule),
        (1200, false, "GT-R2")
    );
    assert_eq!(
        low.reason(&at(1180.0, false)),
        "GT-R2: an experienced player starts no lower than 1200 (was 1180, now 1200)"
    );
    let new = next_season(&at(1200.0, true), &league);
    assert_eq!(
        (new.rating, new.provisional, new.rule),
        (1200, true, "GT-R3")
    );
    let high = next_season(&at(1450.0, false), &league);
    assert_eq!(
        (high.rating, high.provisional, high.rule),
        (1450, false, "GT-R1")
    );
    let exactly = next_season(&at(1200.0, false), &league);
    assert_eq!(exactly.rule, "GT-R2");
}
