//! A club league of the demo (issue 34): the Maumee Valley Chess League, adult club teams in two
//! divisions on weekday evenings, run by a ruleset file of its own rather than one of the two
//! built-in rulebooks. Its rules are an English county league's, as the Nottinghamshire Chess
//! League writes them (a player who has played three times on the upper boards may no longer
//! play for a lower team), with the Middlesex Chess League's fines and its own rule numbers:
//! every message about it cites "Rule 7.3", never a GTHSCL rule.
//!
//! Three clubs field a first team in Division 1 and a second in Division 2, and two of each
//! club's players are on both rosters as one person. Toledo's Dana Whitfield plays three times
//! on board 2 for the first team, then for the second team: the finding the officers rule on.
//! Defiance forfeits a match and Monroe leaves a board empty: the fines the ledger owes.

use arbiter_core::pairing::schedule::{self, Cycles};
use arbiter_core::record::model::{
    Board, Competition, GameResult, MatchOutcome, Pairing, PersonId, Player, PlayerId, Side, Team,
    TeamId,
};
use arbiter_core::season::ledger::{self, Entry, EntryInput, Ledger, When};
use jiff::ToSpan;
use jiff::civil::{Date, date};

use crate::names::{Entrants, Names, OHIO};
use crate::play;
use crate::rng::Rng;
use crate::{DemoCompetition, DemoLeague, DemoSeason, LeagueKind};

/// The league's rules: FIDE's team rules with what the league adds, cited by its own numbers.
pub const RULES: &str = r#"# Maumee Valley Chess League. Rule numbers are the league's handbook's.
extends = "fide-team"
name = "MVCL"
description = "Maumee Valley Chess League"
boards = 4
conduct = "advisors"   # each club's captain enters its home results; the visitors confirm
criteria = [
  { code = "MP", rule = "Rule 10.1" },
  { code = "GP", rule = "Rule 10.1" },
  { code = "BERLINER", rule = "Rule 10.2" },
]

[report]                # Rule 9.1: the home captain reports within two days
enter_within_days = 2
confirm_within_days = 5
correct_within_days = 7

[fees]                  # Rule 3.1: each club pays once a season
entry_fee = "40.00"

[club_teams]            # Rule 7.3 (as Nottinghamshire's C4): three games on the upper boards bind
bound_after_games = 3
boards_not_counted = 2
bound = "no_lower_team"
counted = "all_teams"

[fines]                 # Rule 9.4 (as Middlesex's): a match forfeited, a board defaulted, a late result
match_forfeit = "25.00"
board_default = "5.00"
late_result = [{ days_late = 1, amount = "0.50" }]

[time_control]          # Rule 5.1: 90 minutes each to finish the game
stages = [{ minutes = 90 }]

[calendar]              # Rule 6.1: matches on Tuesday, Wednesday or Thursday evenings
match_days = ["tuesday", "wednesday", "thursday"]

[cite]
boards = "Rule 5.2"
game_points = "Rule 10.1"
match_points = "Rule 10.1"
forfeit_match = "Rule 9.3"
board_default = "Rule 9.4"
report = "Rule 9.1"
first_team = "Rule 7.3"
entry_fee = "Rule 3.1"
match_days = "Rule 6.1"
time_control = "Rule 5.1"
one_board = "Rule 5.3"
"#;

/// The Treasurer, who keeps the club fees and the fines.
pub const TREASURER: &str = "treasurer@mvcl.example";

/// The first round's day; one round a week on Tuesdays after it.
const FIRST_ROUND: Date = date(2026, 10, 6);

/// The clubs, strongest first: address, name, mean strength, and whether it fields a second
/// team in Division 2.
const CLUBS: [(&str, &str, i32, bool); 9] = [
    ("toledo", "Toledo Chess Club", 1880, true),
    ("perrysburg", "Perrysburg Rooks", 1820, true),
    ("bowling-green", "Bowling Green Gambit", 1780, true),
    ("sylvania", "Sylvania Knights", 1760, false),
    ("maumee", "Maumee Valley Chess", 1720, false),
    ("findlay", "Findlay Chess Club", 1690, false),
    ("fremont", "Fremont Chess Club", 1450, false),
    ("monroe", "Monroe Chess Club", 1420, false),
    ("defiance", "Defiance Pawns", 1380, false),
];

/// The person who plays for both of Toledo's teams and breaks Rule 7.3.
const WHITFIELD: &str = "Dana Whitfield";

pub fn league(today: Date) -> DemoLeague {
    // As the GTHSCL's, the season is always seen in progress: every round played, the
    // standings and the findings there, whatever day the demo is made on.
    let today = today.clamp(FIRST_ROUND + 35.days(), FIRST_ROUND + 69.days());
    let mut names = Names::new(OHIO);
    let mut rng = Rng::from_label("mvcl", 0);
    let clubs: Vec<Club> = CLUBS
        .iter()
        .map(|&(id, name, level, second)| Club::new(id, name, level, second, &mut rng, &mut names))
        .collect();
    let first: Vec<&Club> = clubs.iter().take(6).collect();
    let second: Vec<&Club> = clubs
        .iter()
        .filter(|c| c.second || c.level < 1500)
        .collect();
    let mut one = division("division-1", "Division 1", &first, 1, today);
    let mut two = division("division-2", "Division 2", &second, 2, today);
    season_events(&mut one.competition, &mut two.competition);
    let competitions = vec![one, two];
    let ledger = fee_ledger(&competitions, today);
    DemoLeague {
        slug: "mvcl".into(),
        name: "Maumee Valley Chess League".into(),
        kind: LeagueKind::League,
        description: "Adult club teams of north-west Ohio in two divisions, four boards a \
                      match on weekday evenings, run by the league's own handbook: its rules \
                      are a ruleset file, cited by the handbook's numbers."
            .into(),
        time_zone: "America/New_York",
        seasons: vec![DemoSeason {
            slug: "2026-27".into(),
            name: "2026–27".into(),
            starts_on: FIRST_ROUND,
            ends_on: FIRST_ROUND + 70.days(),
            competitions,
            ledger,
            closures: Vec::new(),
            event: None,
        }],
        treasurer: Some(TREASURER.into()),
        school_addresses: Vec::new(),
    }
}

/// A club's players, strongest first, each a person of their own.
struct Club {
    id: &'static str,
    name: &'static str,
    level: i32,
    second: bool,
    players: Vec<(Player, i32)>,
}

impl Club {
    fn new(
        id: &'static str,
        name: &'static str,
        level: i32,
        second: bool,
        rng: &mut Rng,
        names: &mut Names,
    ) -> Club {
        let count = if second { 10 } else { 6 };
        let mut players: Vec<(Player, i32)> = (0..count)
            .map(|i| {
                let strength = level + 180 - 45 * i + rng.range(-30, 30);
                let player = Player {
                    id: PlayerId(String::new()),
                    name: names.next(rng, Entrants::Mixed),
                    rating: u32::try_from(strength).ok(),
                    person: Some(PersonId(format!("{id}-{i}"))),
                    ..Player::default()
                };
                (player, strength)
            })
            .collect();
        players.sort_by_key(|(_, s)| std::cmp::Reverse(*s));
        // The fifth strongest, on both of Toledo's rosters: the player of Rule 7.3's finding.
        if id == "toledo"
            && let Some((p, _)) = players.get_mut(4)
        {
            p.name = WHITFIELD.into();
        }
        Club {
            id,
            name,
            level,
            second,
            players,
        }
    }

    /// The club's team in division `n`: the first team its top six, the second its players
    /// from the fifth down (the fifth and sixth on both rosters, as one person each).
    fn team(&self, n: u32) -> Team {
        let (suffix, from, to) = match (n, self.second) {
            (1, true) => (" 1", 0, 6),
            (_, true) => (" 2", 4, self.players.len()),
            _ => ("", 0, self.players.len()),
        };
        let id = if self.second {
            format!("{}-{n}", self.id)
        } else {
            self.id.to_string()
        };
        Team {
            id: TeamId(id.clone()),
            name: format!("{}{suffix}", self.name),
            // A club is its team's "school": its captain signs in for it (issue 32).
            school: Some(self.name.into()),
            players: self.players[from..to]
                .iter()
                .zip(1..)
                .map(|((p, _), k)| Player {
                    id: PlayerId(format!("{id}-{k}")),
                    ..p.clone()
                })
                .collect(),
        }
    }
}

/// A single round robin of `clubs`' teams in division `n`, one round a week from the first
/// Tuesday (Division 2 on Wednesdays), each team fielding its four strongest; played up to
/// `today`.
fn division(slug: &str, name: &str, clubs: &[&Club], n: u32, today: Date) -> DemoCompetition {
    let teams: Vec<Team> = clubs.iter().map(|c| c.team(n)).collect();
    let strength: std::collections::HashMap<PlayerId, i32> = clubs
        .iter()
        .zip(&teams)
        .flat_map(|(c, t)| {
            t.players.iter().map(move |p| {
                let s = c
                    .players
                    .iter()
                    .find(|(q, _)| q.person == p.person)
                    .map_or(1500, |(_, s)| *s);
                (p.id.clone(), s)
            })
        })
        .collect();
    let ids: Vec<TeamId> = teams.iter().map(|t| t.id.clone()).collect();
    let count = u32::try_from(teams.len()).unwrap_or(0);
    let rounds = schedule::round_robin(count, Cycles::Single)
        .and_then(|s| schedule::apply_to(&s, &ids))
        .unwrap_or_default();
    let mut rng = Rng::from_label(slug, 1);
    let mut competition = Competition {
        name: format!("MVCL 2026–27 {name}"),
        teams,
        rounds: Vec::new(),
    };
    let weekday = i64::from(n - 1);
    for (mut round, week) in rounds.into_iter().zip(0i64..) {
        let day = FIRST_ROUND + (7 * week + weekday).days();
        round.date = Some(day);
        for p in &mut round.pairings {
            let Pairing::Match(m) = p else { continue };
            if day >= today {
                continue;
            }
            // Each team's four strongest; Dana Whitfield plays only where `season_events` puts her.
            let four = |team: &TeamId| -> Vec<PlayerId> {
                competition
                    .team(team)
                    .map(|t| {
                        t.players
                            .iter()
                            .filter(|p| p.name != WHITFIELD)
                            .take(4)
                            .map(|p| p.id.clone())
                            .collect()
                    })
                    .unwrap_or_default()
            };
            let (home, away) = (four(&m.home), four(&m.away));
            let s = |p: &PlayerId| strength.get(p).copied().unwrap_or(1500);
            m.outcome = MatchOutcome::Boards(
                home.iter()
                    .zip(&away)
                    .map(|(h, a)| Board {
                        home_player: Some(h.clone()),
                        away_player: Some(a.clone()),
                        ..Board::new(play::game(&mut rng, s(h), s(a), 0.25))
                    })
                    .collect(),
            );
        }
        competition.rounds.push(round);
    }
    DemoCompetition {
        slug: slug.into(),
        name: name.into(),
        rules: RULES.into(),
        competition,
        lineups: Vec::new(),
        game_scores: Vec::new(),
    }
}

/// What a real season has: Dana Whitfield plays board 2 for Toledo 1 in its first three
/// rounds (binding them to it, Rule 7.3) and then for Toledo 2; Defiance forfeits its round 2
/// match; Monroe turns up a player short in round 3 (Rule 9.4's fines).
fn season_events(one: &mut Competition, two: &mut Competition) {
    let whitfield = |c: &Competition, team: &str| {
        c.team(&TeamId(team.into())).and_then(|t| {
            t.players
                .iter()
                .find(|p| p.name == WHITFIELD)
                .map(|p| p.id.clone())
        })
    };
    if let Some(w) = whitfield(one, "toledo-1") {
        for round in 1..=3 {
            if let Some(board) = board_of(one, round, "toledo-1", 2) {
                *board = w.clone();
            }
        }
    }
    if let Some(w) = whitfield(two, "toledo-2")
        && let Some(board) = board_of(two, 4, "toledo-2", 1)
    {
        *board = w;
    }
    for r in &mut two.rounds {
        for p in &mut r.pairings {
            let Pairing::Match(m) = p else { continue };
            let defiance = TeamId("defiance".into());
            if r.number == 2
                && (m.home == defiance || m.away == defiance)
                && matches!(m.outcome, MatchOutcome::Boards(_))
            {
                let by = if m.home == defiance {
                    Side::Home
                } else {
                    Side::Away
                };
                m.outcome = MatchOutcome::Forfeit { by };
            }
            let monroe = TeamId("monroe".into());
            if r.number == 3
                && (m.home == monroe || m.away == monroe)
                && let MatchOutcome::Boards(boards) = &mut m.outcome
                && let Some(b) = boards.last_mut()
            {
                if m.home == monroe {
                    b.home_player = None;
                    b.result = GameResult::AwayWinByForfeit;
                } else {
                    b.away_player = None;
                    b.result = GameResult::HomeWinByForfeit;
                }
            }
        }
    }
}

/// The player on `board` of `team`'s side in round `round`, to change, when it was played.
fn board_of<'a>(
    c: &'a mut Competition,
    round: u32,
    team: &str,
    board: usize,
) -> Option<&'a mut PlayerId> {
    let id = TeamId(team.into());
    let r = c.rounds.iter_mut().find(|r| r.number == round)?;
    r.pairings.iter_mut().find_map(|p| match p {
        Pairing::Match(m) if m.home == id || m.away == id => {
            let home = m.home == id;
            match &mut m.outcome {
                MatchOutcome::Boards(boards) => {
                    let b = boards.get_mut(board - 1)?;
                    if home {
                        b.home_player.as_mut()
                    } else {
                        b.away_player.as_mut()
                    }
                }
                _ => None,
            }
        }
        _ => None,
    })
}

/// The club fees as the Treasurer recorded them, and the one fine waived.
fn fee_ledger(competitions: &[DemoCompetition], today: Date) -> Vec<Entry> {
    let rules = competitions.first().and_then(DemoCompetition::ruleset);
    let fees = rules.as_ref().and_then(|r| r.fees);
    let fines = competitions
        .iter()
        .filter_map(|c| {
            c.ruleset()
                .map(|r| arbiter_core::season::fines::assess(&c.competition, &r, &[]))
        })
        .flatten()
        .collect();
    let dues = ledger::dues(competitions.iter().map(|c| (&c.competition, fees))).with_fines(fines);
    #[rustfmt::skip]
    let book: &[(&str, &str, &str, Date, &str)] = &[
        ("payment", "Toledo Chess Club", "40", date(2026, 10, 1), "bank transfer"),
        ("payment", "Perrysburg Rooks", "40", date(2026, 10, 1), "bank transfer"),
        ("payment", "Bowling Green Gambit", "40", date(2026, 10, 2), "cheque 118"),
        ("payment", "Sylvania Knights", "40", date(2026, 10, 5), "cash at the fixtures meeting"),
        ("payment", "Maumee Valley Chess", "40", date(2026, 10, 5), "cash at the fixtures meeting"),
        ("payment", "Findlay Chess Club", "40", date(2026, 10, 5), "cash at the fixtures meeting"),
        ("payment", "Fremont Chess Club", "40", date(2026, 10, 9), "cheque 2207"),
        ("payment", "Monroe Chess Club", "45", date(2026, 10, 27), "cheque 540: the fee and the board defaulted in round 3"),
        ("payment", "Defiance Pawns", "40", date(2026, 10, 20), "bank transfer"),
        ("waiver", "Defiance Pawns", "25", date(2026, 10, 22), "round 2 forfeited for a road closure on the day, as the committee agreed: the fine (Rule 9.3) is waived"),
    ];
    let when = When {
        today,
        season: "2026–27",
        starts: Some(FIRST_ROUND),
        ends: Some(FIRST_ROUND + 70.days()),
    };
    let mut kept = Ledger::new(dues, Vec::new());
    let mut entries = Vec::new();
    for &(kind, school, amount, on, note) in book {
        let input = EntryInput {
            kind: kind.into(),
            school: school.into(),
            amount: amount.into(),
            on: on.to_string(),
            note: note.into(),
            reverses: String::new(),
        };
        if let Ok(e) = kept.check(&input, &when) {
            entries.push(e);
            kept = Ledger::new(kept.dues().clone(), entries.clone());
        }
    }
    entries
}

#[cfg(test)]
mod tests {
    use super::*;
    use arbiter_core::teams::eligibility::{SeasonEntry, check_season};

    fn demo() -> DemoLeague {
        league(date(2026, 12, 6))
    }

    #[test]
    fn the_rules_read_and_cite_the_leagues_own_numbers() {
        let d = demo();
        let rules = d.seasons[0].competitions[0].ruleset().unwrap();
        assert_eq!(rules.cite("first_team"), Some("Rule 7.3"));
        assert_eq!(rules.club_teams.bound_after_games, 3);
        assert!(rules.fines.match_forfeit.is_some());
    }

    #[test]
    fn whitfield_is_bound_to_toledo_1_and_the_fines_are_owed() {
        let d = demo();
        let s = &d.seasons[0];
        let rules: Vec<_> = s
            .competitions
            .iter()
            .map(|c| c.ruleset().unwrap())
            .collect();
        let entries: Vec<SeasonEntry> = s
            .competitions
            .iter()
            .zip(&rules)
            .map(|(c, r)| SeasonEntry {
                name: &c.name,
                competition: &c.competition,
                rules: r,
                named: &[],
                event_days: None,
                lists: &[],
            })
            .collect();
        let found = check_season(&entries);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].finding.rule.as_deref(), Some("Rule 7.3"));
        assert!(
            found[0]
                .finding
                .message
                .starts_with("Dana Whitfield is bound to Toledo Chess Club 1")
        );
        let fines: Vec<String> = s
            .competitions
            .iter()
            .zip(&rules)
            .flat_map(|(c, r)| arbiter_core::season::fines::assess(&c.competition, r, &[]))
            .map(|f| f.sentence)
            .collect();
        assert_eq!(fines.len(), 2, "{fines:?}");
        // Every entry of the book was recorded: none refused.
        assert_eq!(s.ledger.len(), 10);
    }
}
