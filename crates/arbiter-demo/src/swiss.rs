//! A team Swiss of the demo (issue 17): eleven club teams of north-west Ohio and south-east
//! Michigan in a seven-round open, under the `fide-team` rules, the first rounds paired by core's
//! C.04.6 engine and played from the players' strengths; the next round is left for the arbiter
//! to pair on the site ("Pair round 4").

use arbiter_core::Ruleset;
use arbiter_core::pairing::swiss::{self, Request};
use arbiter_core::record::model::{
    Board, Competition, GameResult, Match, MatchOutcome, Pairing, Player, PlayerId, Team, TeamId,
};
#[cfg(test)]
use arbiter_core::record::model::{Bye, ByeKind, Round};
use jiff::civil::{Date, date};

use crate::names::{Entrants, Names, OHIO};
use crate::play;
use crate::rng::Rng;
use crate::{DemoCompetition, DemoLeague, DemoSeason, LeagueKind};

/// The rules: FIDE's team rules, with the event's length C.04.6 reads (`[pairing] rounds`).
pub const RULES: &str = "extends = \"fide-team\"\n\n[pairing]\nrounds = 7\n";

/// The rounds played before the demo's day; the next is the arbiter's to pair.
pub const PLAYED: u32 = 3;

/// The clubs, strongest first (the initial order, C.04.6 art. 1.1): id, name, mean strength.
const CLUBS: [(&str, &str, i32); 11] = [
    ("ann-arbor", "Ann Arbor Chess Club", 2060),
    ("toledo", "Toledo Chess Club", 1990),
    ("sylvania", "Sylvania Knights", 1930),
    ("perrysburg", "Perrysburg Rooks", 1880),
    ("bowling-green", "Bowling Green Gambit", 1840),
    ("maumee", "Maumee Valley Chess", 1790),
    ("monroe", "Monroe Chess Club", 1740),
    ("findlay", "Findlay Chess Club", 1700),
    ("sandusky", "Sandusky Bay Chess", 1650),
    ("fremont", "Fremont Chess Club", 1600),
    ("defiance", "Defiance Pawns", 1540),
];

/// The days of the rounds: a weekend each month from October.
fn day(round: u32) -> Date {
    match round {
        1 => date(2026, 10, 10),
        2 => date(2026, 10, 11),
        3 => date(2026, 11, 7),
        4 => date(2026, 11, 8),
        5 => date(2026, 12, 5),
        6 => date(2026, 12, 6),
        _ => date(2027, 1, 9),
    }
}

/// The ruleset of [`RULES`] (tested to parse).
pub fn rules() -> Option<Ruleset> {
    Ruleset::from_toml(
        "the demo's team Swiss",
        RULES,
        &arbiter_core::rules::ruleset::PresetsOnly,
    )
    .ok()
}

pub fn league() -> DemoLeague {
    DemoLeague {
        slug: "lake-erie".into(),
        // Toledo, Detroit and Cleveland keep Eastern time.
        time_zone: "America/New_York",
        name: "Lake Erie Club Teams Swiss".into(),
        kind: LeagueKind::Event,
        description: "An open team Swiss of the clubs around the western end of Lake Erie: \
                      teams of four boards and a reserve, seven rounds over four weekends, \
                      paired by FIDE's Swiss Team Pairing System (C.04.6) and ranked by match \
                      points, then game points."
            .into(),
        seasons: vec![DemoSeason {
            slug: "2026-27".into(),
            name: "2026-27".into(),
            starts_on: day(1),
            ends_on: day(7),
            competitions: vec![open()],
            ledger: Vec::new(),
            closures: Vec::new(),
            // A club Swiss over weekends: no event-day deadlines (AS-11..AS-13 are the ASTC's).
            event: None,
        }],
        treasurer: None,
        school_addresses: Vec::new(),
    }
}

fn open() -> DemoCompetition {
    let mut rng = Rng::from_label("lake-erie-open", 0);
    let mut names = Names::new(OHIO);
    let mut strength = std::collections::HashMap::new();
    let teams: Vec<Team> = CLUBS
        .iter()
        .map(|(id, name, level)| {
            let mut players: Vec<(i32, String)> = [150, 60, 0, -60, -140]
                .iter()
                .map(|o| {
                    (
                        level + o + rng.range(-40, 40),
                        names.next(&mut rng, Entrants::Mixed),
                    )
                })
                .collect();
            players.sort_by_key(|p| std::cmp::Reverse(p.0));
            Team {
                id: TeamId((*id).into()),
                name: (*name).into(),
                // A club is its team's "school": its captain signs in for it (issue 32).
                school: Some((*name).into()),
                players: players
                    .into_iter()
                    .zip(1..)
                    .map(|((s, name), n)| {
                        let id = PlayerId(format!("{id}-{n}"));
                        strength.insert(id.clone(), s);
                        Player {
                            id,
                            name,
                            rating: u32::try_from(s).ok(),
                            ..Player::default()
                        }
                    })
                    .collect(),
            }
        })
        .collect();
    let rules = rules();
    let mut competition = Competition {
        name: "Lake Erie Club Teams Swiss 2026-27".into(),
        teams,
        rounds: Vec::new(),
    };
    for number in (1..=PLAYED).filter(|_| rules.is_some()) {
        let Some(rules) = &rules else { break };
        let request = Request {
            round: number,
            absent: None,
            seed: 2026,
        };
        let Ok(paired) = swiss::pair(&competition, rules, &request) else {
            break;
        };
        let published = swiss::by_hand(&paired, &[], "");
        let Ok(published) = published else { break };
        let mut round = published.round(rules, Some(day(number)));
        for p in &mut round.pairings {
            if let Pairing::Match(m) = p {
                m.outcome = play_match(&competition, m, &strength, &mut rng, rules.boards);
            }
        }
        competition.rounds.push(round);
    }
    DemoCompetition {
        slug: "open".into(),
        name: "Open".into(),
        rules: RULES.into(),
        competition,
        lineups: Vec::new(),
        game_scores: Vec::new(),
    }
}

/// A match played by each team's first four players, in roster order.
fn play_match(
    c: &Competition,
    m: &Match,
    strength: &std::collections::HashMap<PlayerId, i32>,
    rng: &mut Rng,
    boards: u32,
) -> MatchOutcome {
    let player = |team: &TeamId, board: usize| {
        c.team(team)
            .and_then(|t| t.players.get(board))
            .map(|p| p.id.clone())
    };
    MatchOutcome::Boards(
        (0..boards as usize)
            .map(|b| {
                let (home, away) = (player(&m.home, b), player(&m.away, b));
                let s = |p: &Option<PlayerId>| p.as_ref().and_then(|p| strength.get(p)).copied();
                let result = match (s(&home), s(&away)) {
                    (Some(h), Some(a)) => play::game(rng, h, a, 0.3),
                    _ => GameResult::Draw,
                };
                Board {
                    home_player: home,
                    away_player: away,
                    ..Board::new(result)
                }
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The round's pairing-allocated bye (11 teams: every round has one).
    fn bye_of(round: &Round) -> Option<&TeamId> {
        round.pairings.iter().find_map(|p| match p {
            Pairing::Bye(Bye {
                team,
                kind: ByeKind::PairingAllocated,
            }) => Some(team),
            _ => None,
        })
    }

    #[test]
    fn the_rules_parse_and_give_the_event_its_length() {
        let r =
            Ruleset::from_toml("demo", RULES, &arbiter_core::rules::ruleset::PresetsOnly).unwrap();
        assert_eq!(r.pairing.rounds, Some(7));
        assert!(swiss::paired_round_by_round(&r));
    }

    #[test]
    fn every_round_played_is_c04_6s_pairing_and_the_next_can_be_paired() {
        let c = open();
        let rules = rules().unwrap();
        assert_eq!(c.competition.rounds.len(), PLAYED as usize);
        for round in &c.competition.rounds {
            assert!(
                bye_of(round).is_some(),
                "11 teams: a bye in round {}",
                round.number
            );
        }
        // Home is White on board 1 (`fide-team`), so the file is C.04.6's pairing.
        for check in swiss::check(&c.competition, &rules, 2026) {
            assert_eq!(check.difference, None, "round {}", check.round);
        }
        assert_eq!(
            swiss::next_round(&c.competition, &rules).unwrap(),
            PLAYED + 1
        );
    }
}
