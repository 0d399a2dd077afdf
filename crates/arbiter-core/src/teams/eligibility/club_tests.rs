//! `[club_teams]`: when games for one of a club's teams bind a player to it, as leagues other
//! than GTHSCL write it (GT-M15 is the preset's reading: `tests.rs`). A club, Oakham, has a
//! team in Division 1 (listed first: the higher) and one in Division 2; Pat is on both
//! rosters as one person.

use jiff::civil::{Date, date};

use super::*;
use crate::record::model::{Board, GameResult, Round};
use crate::rules::ruleset::PresetsOnly;

/// A county league's file: bound after three games on boards 1 and 2 of four (the bottom two
/// do not count), no lower team after, and its own rule ID.
const COUNTY: &str = r#"
extends = "gthscl"
name = "County League"

[club_teams]
bound_after_games = 3
boards_not_counted = 2
bound = "no_lower_team"

[cite]
first_team = "B6"
play_up = "B7"
"#;

fn rules(text: &str) -> Ruleset {
    Ruleset::from_toml("county.toml", text, &PresetsOnly).unwrap()
}

fn day(n: i8) -> Date {
    date(2026, 10, n)
}

/// Oakham's team in division `n` (`oak{n}`, four players and Pat as `oak{n}-pat`) against
/// `opp{n}`, one round a game: on each day Pat plays the board given, or sits out (`None`).
fn division(n: u32, games: &[(Date, Option<u32>)]) -> Competition {
    let oak = format!("oak{n}");
    let opp = format!("opp{n}");
    let player = |id: String, person: String| Player {
        id: PlayerId(id.clone()),
        name: if id.ends_with("-pat") {
            "Pat Quinn".into()
        } else {
            id.clone()
        },
        person: Some(PersonId(person)),
        rating: Some(1500),
        ..Player::default()
    };
    let team = |id: &str, school: &str, pat: bool| Team {
        id: TeamId(id.into()),
        name: id.to_uppercase(),
        school: Some(school.into()),
        players: (1..=4)
            .map(|i| player(format!("{id}-{i}"), format!("{id}-{i}")))
            .chain(pat.then(|| player(format!("{id}-pat"), "pat".into())))
            .collect(),
    };
    let rounds = (1..)
        .zip(games)
        .map(|(number, (d, pat_board))| {
            let mut others = (1..=4).map(|i| format!("{oak}-{i}"));
            let boards = (1..=4)
                .map(|b| {
                    let home = if *pat_board == Some(b) {
                        format!("{oak}-pat")
                    } else {
                        others.next().unwrap()
                    };
                    Board {
                        home_player: Some(PlayerId(home)),
                        away_player: Some(PlayerId(format!("{opp}-{b}"))),
                        ..Board::new(GameResult::Draw)
                    }
                })
                .collect();
            Round {
                number,
                date: Some(*d),
                pairings: vec![Pairing::Match(Match {
                    date: None,
                    home: TeamId(oak.clone()),
                    away: TeamId(opp.clone()),
                    outcome: MatchOutcome::Boards(boards),
                    start: None,
                    extra_games: Vec::new(),
                    late: None,
                })],
            }
        })
        .collect();
    Competition {
        name: format!("Division {n}"),
        teams: vec![
            team(&oak, "Oakham", true),
            team(&opp, &format!("Opp {n}"), false),
        ],
        rounds,
    }
}

fn season<'a>(divisions: &'a [Competition], rules: &'a Ruleset) -> Vec<SeasonEntry<'a>> {
    divisions
        .iter()
        .map(|c| SeasonEntry {
            name: &c.name,
            competition: c,
            rules,
            named: &[],
            event_days: None,
            lists: &[],
        })
        .collect()
}

/// Each finding as `division index: rule: message`.
fn found(divisions: &[Competition], rules: &Ruleset) -> Vec<String> {
    check_season(&season(divisions, rules))
        .into_iter()
        .map(|f| {
            format!(
                "{}: {}: {}",
                f.competition,
                f.finding.rule.unwrap_or_default(),
                f.finding.message
            )
        })
        .collect()
}

#[test]
fn games_on_the_bottom_boards_do_not_bind_a_player_to_the_higher_team() {
    // Three games for Division 1, all on boards 3 and 4, which B6 does not count; then
    // Division 2: still free.
    let d1 = division(
        1,
        &[(day(5), Some(3)), (day(12), Some(4)), (day(19), Some(3))],
    );
    let d2 = division(2, &[(day(26), Some(1))]);
    assert_eq!(found(&[d1, d2], &rules(COUNTY)), Vec::<String>::new());
}

#[test]
fn three_games_on_the_counted_boards_bind_a_player_who_may_then_not_play_down() {
    // Boards 1, 2, 1 for Division 1 (three counted games), then board 1 for Division 2.
    let d1 = division(
        1,
        &[(day(5), Some(1)), (day(12), Some(2)), (day(19), Some(1))],
    );
    let d2 = division(2, &[(day(26), Some(1))]);
    assert_eq!(
        found(&[d1, d2], &rules(COUNTY)),
        [
            "1: B6: Pat Quinn is bound to OAK1 (Division 1) since 2026-10-19: a player who has played 3 games on boards 1 to 2 for one of a club's teams may not play for a lower one this season and now plays board 1 for OAK2"
        ]
    );
}

#[test]
fn two_counted_games_leave_a_player_free_to_play_down() {
    let d1 = division(
        1,
        &[(day(5), Some(1)), (day(12), Some(2)), (day(19), Some(4))],
    );
    let d2 = division(2, &[(day(26), Some(1))]);
    assert_eq!(found(&[d1, d2], &rules(COUNTY)), Vec::<String>::new());
}

#[test]
fn a_player_bound_to_the_lower_team_may_still_play_up() {
    // Bound to Division 2 by three games there; playing up for Division 1 is free under
    // `no_lower_team`, and refused under GT-M15's `one_team`.
    let d2 = division(
        2,
        &[(day(5), Some(1)), (day(12), Some(1)), (day(19), Some(1))],
    );
    let d1 = division(1, &[(day(26), Some(2))]);
    let divisions = [d1, d2];
    assert_eq!(found(&divisions, &rules(COUNTY)), Vec::<String>::new());
    let one_team = rules(&COUNTY.replace("no_lower_team", "one_team"));
    assert_eq!(
        found(&divisions, &one_team),
        [
            "0: B6: Pat Quinn is bound to OAK2 (Division 2) since 2026-10-19: a player who has played 3 games on boards 1 to 2 for one of a club's teams plays for no other of the club's teams this season and now plays board 2 for OAK1"
        ]
    );
}

#[test]
fn a_reserve_plays_up_at_most_the_times_the_league_allows() {
    // Pat plays for Division 2 first, then up for Division 1 three times; B7 allows two.
    let county = rules(&COUNTY.replace(
        "bound = \"no_lower_team\"",
        "bound = \"no_lower_team\"\nplay_up_max = 2",
    ));
    let d2 = division(2, &[(day(5), Some(1))]);
    let d1 = division(
        1,
        &[(day(12), Some(4)), (day(19), Some(4)), (day(26), Some(4))],
    );
    assert_eq!(
        found(&[d1, d2], &county),
        [
            "0: B7: Pat Quinn plays up for OAK1 on board 4 after 2 games for teams above their own; a player plays up at most 2 times this season"
        ]
    );
}

#[test]
fn a_lineup_naming_a_bound_player_for_a_lower_team_is_refused_before_the_match() {
    let county = rules(COUNTY);
    let d1 = division(
        1,
        &[(day(5), Some(1)), (day(12), Some(1)), (day(19), Some(2))],
    );
    let mut d2 = division(2, &[(day(26), None)]);
    let Pairing::Match(m) = &mut d2.rounds[0].pairings[0] else {
        unreachable!()
    };
    m.outcome = MatchOutcome::Pending;
    let divisions = [d1, d2];
    let entries = season(&divisions, &county);
    let lineup = NamedLineup {
        round: 1,
        home: TeamId("oak2".into()),
        side: Side::Home,
        lineup: Lineup {
            boards: ["oak2-pat", "oak2-1", "oak2-2", "oak2-3"]
                .map(|p| Some(PlayerId(p.into())))
                .to_vec(),
            withdrawn: Vec::new(),
        },
    };
    let refused: Vec<_> = lineup_refusals(&entries, 1, &lineup)
        .into_iter()
        .filter(|f| f.rule.as_deref() == Some("B6"))
        .map(|f| (f.board, f.message))
        .collect();
    assert_eq!(
        refused,
        [(
            Some(1),
            "Pat Quinn is bound to OAK1 (Division 1) since 2026-10-19: a player who has played 3 games on boards 1 to 2 for one of a club's teams may not play for a lower one this season: name another player for board 1".to_string()
        )]
    );
    // Named for Division 1 instead, the higher team, Pat stands.
    let up = NamedLineup {
        home: TeamId("oak1".into()),
        ..lineup
    };
    assert!(first_team_refusals_for(&entries, 0, &up).is_empty());
}

fn first_team_refusals_for(
    entries: &[SeasonEntry],
    at: usize,
    lineup: &NamedLineup,
) -> Vec<Finding> {
    let place = Placed::find(entries[at].competition, lineup);
    place.map_or_else(Vec::new, |p| {
        first_team_refusals(entries, at, &p, &lineup.lineup)
    })
}

#[test]
fn a_mistake_in_club_teams_is_reported_at_its_line() {
    let e = Ruleset::from_toml(
        "county.toml",
        "extends = \"gthscl\"\n\n[club_teams]\nbound_after_games = 0\n",
        &PresetsOnly,
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "county.toml:4:1: `[club_teams] bound_after_games` is 0; a player is bound after at least 1 game, e.g. bound_after_games = 3"
    );
    let e = Ruleset::from_toml(
        "county.toml",
        "extends = \"gthscl\"\n[club_teams]\nboards_not_counted = 4\n",
        &PresetsOnly,
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "county.toml:3:1: `[club_teams] boards_not_counted` is 4 but a match has 4 boards; at least board 1 must count"
    );
}

#[test]
fn the_gthscl_preset_reads_gt_m15_as_its_club_teams_values() {
    let gthscl = Ruleset::preset("gthscl").unwrap();
    assert_eq!(gthscl.club_teams, ClubTeams::FIRST_TEAM);
    // GT-M15: one game on board 4 binds, both ways.
    let d2 = division(2, &[(day(5), Some(4))]);
    let d1 = division(1, &[(day(12), Some(1))]);
    let f = found(&[d1, d2], &gthscl);
    assert_eq!(f.len(), 1, "{f:?}");
    assert!(
        f[0].starts_with("0: GT-M15: Pat Quinn first played for OAK2"),
        "{f:?}"
    );
}

#[test]
fn games_counted_across_the_clubs_teams_bind_to_the_lowest_of_the_highest_three() {
    // Nottinghamshire's C4: "once someone has played three times in total on higher boards for
    // any team(s), he or she may not play for a lower team". Pat plays twice for Oakham 1 and
    // once for Oakham 2 on the counted boards, then for Oakham 3.
    let d1 = division(1, &[(day(5), Some(1)), (day(12), Some(2))]);
    let d2 = division(2, &[(day(19), Some(1))]);
    let d3 = division(3, &[(day(26), Some(1))]);
    let divisions = [d1, d2, d3];
    let each_team = rules(COUNTY);
    assert_eq!(found(&divisions, &each_team), Vec::<String>::new());
    let all_teams = rules(&COUNTY.replace(
        "bound = \"no_lower_team\"",
        "bound = \"no_lower_team\"\ncounted = \"all_teams\"",
    ));
    assert_eq!(
        found(&divisions, &all_teams),
        [
            "2: B6: Pat Quinn is bound to OAK2 (Division 2) since 2026-10-19: a player who has played 3 games on boards 1 to 2 for a club's teams in all, this one the lowest of them, may not play for a lower one this season and now plays board 1 for OAK3"
        ]
    );
    // Playing again for Oakham 1 or 2 stays free.
    let d2_again = division(2, &[(day(19), Some(1)), (day(26), Some(2))]);
    let back = [divisions[0].clone(), d2_again];
    assert_eq!(found(&back, &all_teams), Vec::<String>::new());
}
