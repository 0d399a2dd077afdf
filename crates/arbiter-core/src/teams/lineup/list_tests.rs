//! Issue 34: board order by a published list or the roster's ratings, a tolerance, a maximum
//! gap between boards, and rating caps; each with a lineup it accepts and one it refuses, the
//! refusal citing the league's own rule ID (its `[cite]`) and giving the numbers.

use jiff::civil::{Date, date};

use super::*;
use crate::rating::list::ListedRating;
use crate::record::model::{Board, GameResult, Player, RatingRecord, Round};
use crate::rules::ruleset::PresetsOnly;

const DAY: Date = date(2027, 2, 14);

/// A league on FIDE's team rules with `lineup` added, citing its own rules: B6 (board order),
/// B7 (gap), C3 (caps).
fn league_rules(lineup: &str) -> Ruleset {
    let text = format!(
        "extends = \"fide-team\"\nname = \"County\"\n[lineup]\norder = \"rating\"\n{lineup}\n[cite]\nboard_order = \"B6\"\nmax_gap = \"B7\"\nrating_cap = \"C3\"\n"
    );
    Ruleset::from_toml("county.toml", &text, &PresetsOnly).unwrap()
}

fn player(id: &str, name: &str, rating: Option<u32>, fide: &str) -> Player {
    Player {
        id: PlayerId(id.into()),
        name: name.into(),
        rating,
        record: RatingRecord {
            federation_id: Some(fide.into()),
            ..RatingRecord::default()
        },
        ..Player::default()
    }
}

/// Home (h1..h5) against Away (a1..a4), one match on `DAY` still to play. The roster's ratings
/// are h1 2000, h2 1990, h3 1700, h4 1200, h5 unrated.
fn competition() -> Competition {
    let home = vec![
        player("h1", "Ann Able", Some(2000), "101"),
        player("h2", "Bob Baker", Some(1990), "102"),
        player("h3", "Cy Cole", Some(1700), "103"),
        player("h4", "Di Dunn", Some(1200), "104"),
        player("h5", "Ed Eve", None, "105"),
    ];
    let away = (1..=4)
        .map(|i| player(&format!("a{i}"), &format!("Away {i}"), Some(1500), "900"))
        .collect();
    Competition {
        name: "County".into(),
        teams: vec![
            Team {
                id: TeamId("home".into()),
                name: "Home".into(),
                school: None,
                players: home,
            },
            Team {
                id: TeamId("away".into()),
                name: "Away".into(),
                school: None,
                players: away,
            },
        ],
        rounds: vec![Round {
            number: 1,
            date: Some(DAY),
            pairings: vec![Pairing::Match(Match {
                date: None,
                home: TeamId("home".into()),
                away: TeamId("away".into()),
                outcome: MatchOutcome::Pending,
                start: None,
                extra_games: Vec::new(),
                late: None,
            })],
        }],
    }
}

fn home(boards: &[&str]) -> NamedLineup {
    NamedLineup {
        round: 1,
        home: TeamId("home".into()),
        side: Side::Home,
        lineup: Lineup {
            boards: boards.iter().map(|p| Some(PlayerId((*p).into()))).collect(),
            withdrawn: Vec::new(),
        },
    }
}

fn said(f: &[Finding]) -> Vec<String> {
    f.iter().map(ToString::to_string).collect()
}

#[test]
fn a_tolerance_lets_a_player_sit_below_one_rated_up_to_n_points_higher() {
    let c = competition();
    let rules = league_rules("ratings = \"roster\"\ntolerance = 20");
    // Bob (1990) above Ann (2000): 10 points, inside the tolerance of 20.
    assert_eq!(
        said(&refusals(&c, &rules, &[], &home(&["h2", "h1", "h3", "h4"]))),
        Vec::<String>::new()
    );
    // Cy (1700) above Ann (2000): 300 points, past it.
    let f = refusals(&c, &rules, &[], &home(&["h3", "h1", "h2", "h4"]));
    assert_eq!(
        said(&f),
        [
            "round 1, home v away, board 2: B6: Ann Able (2000) on board 2 is rated 300 points above Cy Cole (1700) on board 1, by the roster's ratings; a player may sit below one rated at most 20 points higher: swap them",
            "round 1, home v away, board 3: B6: Bob Baker (1990) on board 3 is rated 290 points above Cy Cole (1700) on board 1, by the roster's ratings; a player may sit below one rated at most 20 points higher: swap them",
        ]
    );
    // Without a tolerance, the 10 points are a violation too.
    let strict = league_rules("ratings = \"roster\"");
    let f = refusals(&c, &strict, &[], &home(&["h2", "h1", "h3", "h4"]));
    assert_eq!(f.len(), 1, "{f:?}");
    assert_eq!(f[0].rule.as_deref(), Some("B6"));
    assert!(f[0].message.contains("Ann Able (2000)"), "{}", f[0]);
}

#[test]
fn a_maximum_gap_between_consecutive_boards() {
    let c = competition();
    let rules = league_rules("ratings = \"roster\"\nmax_gap = 400");
    // 2000, 1990, 1700: gaps of 10 and 290.
    assert_eq!(
        said(&refusals(&c, &rules, &[], &home(&["h1", "h2", "h3"]))),
        Vec::<String>::new()
    );
    // 1700 then 1200: 500 apart.
    let f = refusals(&c, &rules, &[], &home(&["h1", "h2", "h3", "h4"]));
    assert_eq!(
        said(&f),
        [
            "round 1, home v away, board 4: B7: Di Dunn (1200) on board 4 and Cy Cole (1700) on board 3 are 500 points apart, by the roster's ratings; consecutive boards may be at most 400 points apart: name a player rated between them"
        ]
    );
}

#[test]
fn a_player_cap_and_a_team_total_cap() {
    let c = competition();
    let player_max = league_rules("ratings = \"roster\"\n[lineup.cap]\nplayer_max = 1995");
    assert_eq!(
        said(&refusals(&c, &player_max, &[], &home(&["h2", "h3", "h4"]))),
        Vec::<String>::new()
    );
    let f = refusals(&c, &player_max, &[], &home(&["h1", "h2", "h3", "h4"]));
    assert_eq!(
        said(&f),
        [
            "round 1, home v away, board 1: C3: Ann Able on board 1 is rated 2000, above the cap of 1995 a player, by the roster's ratings; name a player rated 1995 or less"
        ]
    );
    // 1700 + 1200 + 1000 (Ed, unrated, counts as 1000) = 3900.
    let total = league_rules(
        "ratings = \"roster\"\n[lineup.cap]\nteam_total_max = 3900\nunrated_as = 1000",
    );
    assert_eq!(
        said(&refusals(&c, &total, &[], &home(&["h3", "h4", "h5"]))),
        Vec::<String>::new()
    );
    let f = refusals(&c, &total, &[], &home(&["h2", "h4", "h5"]));
    assert_eq!(
        said(&f),
        [
            "round 1, home v away: C3: the team's total 4190 is above the cap of 3900: Bob Baker 1990 + Di Dunn 1200 + Ed Eve 1000 (unrated), by the roster's ratings; name lower-rated players so the total is 3900 or less"
        ]
    );
}

#[test]
fn the_average_of_the_top_n_must_be_under_the_cap() {
    let c = competition();
    // The top 2 of the lineup: (2000 + 1700) / 2 = 1850, under 1851; not under 1850.
    let under =
        league_rules("ratings = \"roster\"\n[lineup.cap]\naverage_of = 2\naverage_under = 1851");
    assert_eq!(
        said(&refusals(&c, &under, &[], &home(&["h1", "h3", "h4"]))),
        Vec::<String>::new()
    );
    let at =
        league_rules("ratings = \"roster\"\n[lineup.cap]\naverage_of = 2\naverage_under = 1850");
    let f = refusals(&c, &at, &[], &home(&["h1", "h3", "h4"]));
    assert_eq!(
        said(&f),
        [
            "round 1, home v away: C3: the average of the team's top 2, 1850 (Ann Able 2000 + Cy Cole 1700 = 3700, over 2), is not under the cap of 1850, by the roster's ratings; name lower-rated players so the 2 add up to 3699 or less"
        ]
    );
}

/// The list in force on the match day orders the boards, and the sentence names it; the
/// roster's ratings are not read.
#[test]
fn board_order_by_the_list_in_force_on_the_match_day() {
    let c = competition();
    let rules = league_rules("ratings = \"list\"");
    let entry = |id: &str, rating| ListedRating {
        federation_id: id.into(),
        name: String::new(),
        birth: None,
        rating,
    };
    let january = RatingList {
        name: "FIDE January 2027".into(),
        in_force_from: date(2027, 1, 1),
        entries: vec![entry("101", 2000), entry("102", 1990)],
    };
    // In February Bob has overtaken Ann.
    let february = RatingList {
        name: "FIDE February 2027".into(),
        in_force_from: date(2027, 2, 1),
        entries: vec![entry("101", 1980), entry("102", 2010)],
    };
    let march = RatingList {
        name: "FIDE March 2027".into(),
        in_force_from: date(2027, 3, 1),
        entries: vec![entry("101", 2100), entry("102", 1900)],
    };
    let lists = [january, february, march];
    let lineup = home(&["h1", "h2"]);
    let f = refusals_in(&c, &rules, &[], &lineup, &Elsewhere::default(), &lists);
    assert_eq!(
        said(&f),
        [
            "round 1, home v away, board 2: B6: Bob Baker (2010) is rated above Ann Able (1980) on board 1, by the rating list FIDE February 2027 (in force from 2027-02-01); boards follow ratings, highest on board 1: swap them"
        ]
    );
    let swapped = home(&["h2", "h1"]);
    assert_eq!(
        said(&refusals_in(
            &c,
            &rules,
            &[],
            &swapped,
            &Elsewhere::default(),
            &lists
        )),
        Vec::<String>::new()
    );
    // The page's table reads the same ranking as the finding.
    let ranking = Ranking::with_lists(&c, &rules, &lists);
    assert_eq!(
        ranking
            .on(&PlayerId("h2".into()), Some(DAY))
            .map(Rank::shown),
        Some("2010".into())
    );
}

/// A cap is checked on the boards the result records too, as a violation of the match.
#[test]
fn a_cap_is_checked_when_the_result_is_entered() {
    let mut c = competition();
    let boards = ["h1", "h2"]
        .iter()
        .zip(["a1", "a2"])
        .map(|(h, a)| Board {
            home_player: Some(PlayerId((*h).into())),
            away_player: Some(PlayerId(a.into())),
            ..Board::new(GameResult::Draw)
        })
        .collect();
    let Pairing::Match(m) = &mut c.rounds[0].pairings[0] else {
        unreachable!()
    };
    m.outcome = MatchOutcome::Boards(boards);
    let rules = league_rules("ratings = \"roster\"\n[lineup.cap]\nteam_total_max = 3500");
    let f = check_competition(&c, &rules, &[]);
    assert_eq!(
        said(&f),
        [
            "round 1, home v away: C3: the team's total 3990 is above the cap of 3500: Ann Able 2000 + Bob Baker 1990, by the roster's ratings; name lower-rated players so the total is 3500 or less"
        ]
    );
    assert_eq!(f[0].severity, Severity::Violation);
}
