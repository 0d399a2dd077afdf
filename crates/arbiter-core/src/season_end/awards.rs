//! The end of season's awards (GT-F1, GT-F2, GT-F3): a trophy for each division winner (a school
//! with two winning teams gets one for each), the playoff winner's and runner-up's, and the top
//! individual scores on each board; the [`AwardsList`] the Treasurer buys from (GT-O2) and a
//! page prints.
//!
//! GT-F2: in a division where a school has two teams, a player belongs, for awards, to the team
//! they played more than half their matches for, counted from the matches, not the roster.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::record::model::{Competition, GameOutcome, MatchOutcome, PlayerId, Side, TeamId};
use crate::record::words::list;
use crate::rules::ruleset::Ruleset;
use crate::scoring::standings::{self, StandingsError};
use crate::season_end::bracket::Finish;

/// One division as the awards read it: its competition (every match played) and its rules.
#[derive(Debug, Clone, Copy)]
pub struct Division<'a> {
    /// The division's competition; its name is the division's.
    pub competition: &'a Competition,
    /// Its ruleset.
    pub rules: &'a Ruleset,
}

/// Everything the league awards at the end of a season.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AwardsList {
    /// The team trophies: division winners (GT-F1), the playoff winner and runner-up (GT-F3).
    pub awards: Vec<Award>,
    /// The top individual scores on each board, division by division.
    pub boards: Vec<DivisionBoards>,
    /// Trophies to buy: one an award (GT-O2, the Treasurer's purchases).
    pub trophies: u32,
    /// What the officers must still settle before the list is final, in sentences.
    pub to_settle: Vec<String>,
}

/// A trophy for a team.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Award {
    /// What it is for.
    pub kind: AwardKind,
    /// The rule that gives it.
    pub rule: &'static str,
    /// As the list prints it: `North division winner`.
    pub title: String,
    /// The team.
    pub team: TeamId,
    /// Its name.
    pub team_name: String,
    /// Its school.
    pub school: Option<String>,
    /// The players it belongs to (GT-F2), strongest first as they played.
    pub players: Vec<Member>,
    /// A note, when the award is shared or waits for a decision.
    pub note: Option<String>,
}

/// What an award is for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum AwardKind {
    /// GT-F1: the winner of a division.
    DivisionWinner {
        /// The division.
        division: String,
    },
    /// GT-F3: the playoff winner.
    PlayoffWinner,
    /// GT-F3: the playoff runner-up.
    PlayoffRunnerUp,
}

/// A player of a team, for awards (GT-F2).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Member {
    /// The player.
    pub player: PlayerId,
    /// Their name.
    pub name: String,
    /// The matches they played for the team, of all they played.
    pub matches: u32,
    /// All the matches they played in the division.
    pub of: u32,
}

/// The team a player belongs to for awards, counted from the matches (GT-F2).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Belonging {
    /// The player.
    pub player: PlayerId,
    /// Their name.
    pub name: String,
    /// The team of their roster.
    pub roster_team: TeamId,
    /// The team they belong to: more than half their matches for it, or their roster's when
    /// they played none; `None` when they played exactly half for each of two teams.
    pub team: Option<TeamId>,
    /// Matches played, by team.
    pub matches: BTreeMap<TeamId, u32>,
}

/// GT-F2: each player of the division and the team they belong to for awards.
pub fn belonging(competition: &Competition) -> Vec<Belonging> {
    let mut played: BTreeMap<&PlayerId, BTreeMap<TeamId, u32>> = BTreeMap::new();
    for (_, m) in competition.matches() {
        let MatchOutcome::Boards(boards) = &m.outcome else {
            continue;
        };
        for side in [Side::Home, Side::Away] {
            let mut named: Vec<&PlayerId> = boards
                .iter()
                .filter(|b| b.result != crate::record::model::GameResult::Pending)
                .filter_map(|b| match side {
                    Side::Home => b.home_player.as_ref(),
                    Side::Away => b.away_player.as_ref(),
                })
                .collect();
            named.dedup();
            for p in named {
                *played
                    .entry(p)
                    .or_default()
                    .entry(m.team(side).clone())
                    .or_default() += 1;
            }
        }
    }
    let mut out = Vec::new();
    for team in &competition.teams {
        for p in &team.players {
            let matches = played.get(&p.id).cloned().unwrap_or_default();
            let total: u32 = matches.values().sum();
            let belongs = if total == 0 {
                Some(team.id.clone())
            } else {
                matches
                    .iter()
                    .find(|(_, n)| **n * 2 > total)
                    .map(|(t, _)| t.clone())
            };
            out.push(Belonging {
                player: p.id.clone(),
                name: p.name.clone(),
                roster_team: team.id.clone(),
                team: belongs,
                matches,
            });
        }
    }
    out
}

/// The top individual scores on one board.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BoardLeaders {
    /// The board, from 1.
    pub board: u32,
    /// The best scores, best first; equal ones share a place.
    pub leaders: Vec<BoardScore>,
}

/// A player's score on a board, over the games played there over the board.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BoardScore {
    /// 1 for the best; shared by equal scores.
    pub place: u32,
    /// The player.
    pub player: PlayerId,
    /// Their name.
    pub name: String,
    /// The team they played it for.
    pub team: TeamId,
    /// The team's name.
    pub team_name: String,
    /// Points: 1 a win, ½ a draw (GT-S1).
    pub points: f64,
    /// Games played on the board.
    pub games: u32,
}

/// The top scores of one division's boards.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DivisionBoards {
    /// The division.
    pub division: String,
    /// Board 1 first.
    pub boards: Vec<BoardLeaders>,
}

/// The best `top` scores on each board of `competition` (more when the last place is shared).
/// Only games played over the board count: a win by default is the team's point (GT-S2), not
/// the player's. More points first, then fewer games (the better share of them). A player is
/// listed with the team they belong to for awards (GT-F2).
pub fn top_boards(competition: &Competition, rules: &Ruleset, top: usize) -> Vec<BoardLeaders> {
    let boards = usize::try_from(rules.boards).unwrap_or(0);
    // Per board, per player: points and games.
    let mut tally: Vec<BTreeMap<PlayerId, (f64, u32)>> = vec![BTreeMap::new(); boards];
    for (_, m) in competition.matches() {
        let MatchOutcome::Boards(bs) = &m.outcome else {
            continue;
        };
        for (i, b) in bs.iter().enumerate().take(boards) {
            if !b.result.is_played() {
                continue;
            }
            for side in [Side::Home, Side::Away] {
                let player = match side {
                    Side::Home => &b.home_player,
                    Side::Away => &b.away_player,
                };
                let Some(player) = player else { continue };
                let points = match b.result.outcome_for(side) {
                    GameOutcome::Win => rules.game_points.win,
                    GameOutcome::Draw => rules.game_points.draw,
                    _ => rules.game_points.loss,
                };
                let e = tally[i].entry(player.clone()).or_insert((0.0, 0));
                e.0 += points;
                e.1 += 1;
            }
        }
    }
    let teams = belonging(competition);
    let team_of = |p: &PlayerId| {
        teams
            .iter()
            .find(|b| &b.player == p)
            .map(|b| b.team.clone().unwrap_or_else(|| b.roster_team.clone()))
    };
    let player_name = |p: &PlayerId| {
        competition
            .teams
            .iter()
            .flat_map(|t| &t.players)
            .find(|x| &x.id == p)
            .map_or_else(|| p.0.clone(), |x| x.name.clone())
    };
    tally
        .into_iter()
        .enumerate()
        .map(|(i, t)| {
            let mut rows: Vec<(PlayerId, (f64, u32))> = t.into_iter().collect();
            rows.sort_by(|a, b| {
                b.1.0
                    .total_cmp(&a.1.0)
                    .then(a.1.1.cmp(&b.1.1))
                    .then(a.0.cmp(&b.0))
            });
            let mut leaders: Vec<BoardScore> = Vec::new();
            for (k, (player, (points, games))) in rows.into_iter().enumerate() {
                let place = match leaders.last() {
                    Some(l) if l.points == points && l.games == games => l.place,
                    _ => u32::try_from(k + 1).unwrap_or(u32::MAX),
                };
                if k >= top && leaders.last().is_none_or(|l| l.place != place) {
                    break;
                }
                // A player named on no roster is shown with no team.
                let team = team_of(&player).unwrap_or_else(|| TeamId(String::new()));
                leaders.push(BoardScore {
                    place,
                    name: player_name(&player),
                    player,
                    team_name: competition.team_name(&team),
                    team,
                    points,
                    games,
                });
            }
            BoardLeaders {
                board: u32::try_from(i + 1).unwrap_or(u32::MAX),
                leaders,
            }
        })
        .collect()
}

/// The awards list: each division's winner (GT-F1), the playoff's winner and runner-up when
/// `playoffs` has them (GT-F3), and the best `top` scores on each board.
pub fn awards(
    divisions: &[Division<'_>],
    playoffs: Option<&Finish>,
    top: usize,
) -> Result<AwardsList, StandingsError> {
    let mut out = AwardsList {
        awards: Vec::new(),
        boards: Vec::new(),
        trophies: 0,
        to_settle: Vec::new(),
    };
    for d in divisions {
        let c = d.competition;
        let s = standings::standings(c, d.rules)?;
        let first: Vec<usize> = s
            .rows
            .iter()
            .filter(|r| r.rank == 1 && !r.dropped)
            .map(|r| r.team)
            .collect();
        let shared = first.len() > 1;
        if shared {
            let names = list(first.iter().map(|&t| c.teams[t].name.as_str()));
            out.to_settle.push(format!(
                "{names} share first place in {}, equal on every criterion: each is listed; the officers decide whether they share the title (GT-F1).",
                c.name
            ));
        }
        for &t in &first {
            let team = &c.teams[t];
            out.awards.push(Award {
                kind: AwardKind::DivisionWinner {
                    division: c.name.clone(),
                },
                rule: "GT-F1",
                title: format!("{} winner", c.name),
                team: team.id.clone(),
                team_name: team.name.clone(),
                school: team.school.clone(),
                players: members(c, &team.id, &mut out.to_settle),
                note: shared.then(|| "shares first place".to_string()),
            });
        }
        out.boards.push(DivisionBoards {
            division: c.name.clone(),
            boards: top_boards(c, d.rules, top),
        });
    }
    if let Some(f) = playoffs {
        for (entrant, kind, title) in [
            (&f.winner, AwardKind::PlayoffWinner, "Playoff winner"),
            (
                &f.runner_up,
                AwardKind::PlayoffRunnerUp,
                "Playoff runner-up",
            ),
        ] {
            let Some(e) = entrant else { continue };
            let home = divisions
                .iter()
                .find(|d| d.competition.team(&e.team).is_some());
            let mut unused = Vec::new();
            out.awards.push(Award {
                kind,
                rule: "GT-F3",
                title: title.into(),
                team: e.team.clone(),
                team_name: e.name.clone(),
                school: home
                    .and_then(|d| d.competition.team(&e.team))
                    .and_then(|t| t.school.clone()),
                players: home
                    .map_or_else(Vec::new, |d| members(d.competition, &e.team, &mut unused)),
                note: None,
            });
        }
    }
    out.trophies = u32::try_from(out.awards.len()).unwrap_or(u32::MAX);
    Ok(out)
}

/// The players who belong to `team` for awards (GT-F2), and a sentence for each player who
/// split their matches evenly between it and another team.
fn members(c: &Competition, team: &TeamId, to_settle: &mut Vec<String>) -> Vec<Member> {
    let mut out = Vec::new();
    for b in belonging(c) {
        let of: u32 = b.matches.values().sum();
        let here = b.matches.get(team).copied().unwrap_or(0);
        match &b.team {
            Some(t) if t == team => out.push(Member {
                player: b.player,
                name: b.name,
                matches: here,
                of,
            }),
            None if here > 0 => to_settle.push(format!(
                "{} played {here} of {of} matches for {}, exactly half: GT-F2 gives them to neither team; the officers decide.",
                b.name,
                c.team_name(team)
            )),
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::model::{Board, GameResult, Match, Pairing, Player, Round, Team};

    fn player(id: &str) -> Player {
        Player {
            id: PlayerId(id.into()),
            name: id.to_uppercase(),
            ..Player::default()
        }
    }

    /// A match with its players, board by board: (home player, away player, result).
    fn m(home: &str, away: &str, boards: &[(&str, &str, GameResult)]) -> Pairing {
        Pairing::Match(Match {
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
            date: None,
            start: None,
            extra_games: Vec::new(),
            late: None,
        })
    }

    /// A two-team division: Central's A and B teams and Rogers. Eve is on B's roster but plays
    /// 2 of her 3 matches for A (GT-F2 gives her to A); Dan, on A's roster, plays 1 for A and 1
    /// for B: exactly half.
    fn division() -> Competition {
        use GameResult::*;
        let team = |id: &str, school: &str, players: &[&str]| Team {
            id: TeamId(id.into()),
            name: format!("{school} {}", id.trim_start_matches("c-").to_uppercase()),
            school: Some(school.into()),
            players: players.iter().map(|p| player(p)).collect(),
        };
        Competition {
            name: "North".into(),
            teams: vec![
                team("c-a", "Central", &["ann", "bob", "cat", "dan"]),
                team("c-b", "Central", &["eve", "fay", "gus", "hal"]),
                Team {
                    name: "Rogers".into(),
                    ..team("rog", "Rogers", &["r1", "r2", "r3", "r4"])
                },
            ],
            rounds: vec![
                Round {
                    number: 1,
                    date: None,
                    pairings: vec![m(
                        "c-a",
                        "rog",
                        &[
                            ("ann", "r1", HomeWin),
                            ("bob", "r2", HomeWin),
                            ("cat", "r3", Draw),
                            ("eve", "r4", HomeWin),
                        ],
                    )],
                },
                Round {
                    number: 2,
                    date: None,
                    pairings: vec![m(
                        "c-b",
                        "rog",
                        &[
                            ("eve", "r1", HomeWin),
                            ("fay", "r2", AwayWin),
                            ("gus", "r3", AwayWin),
                            ("dan", "r4", Draw),
                        ],
                    )],
                },
                Round {
                    number: 3,
                    date: None,
                    pairings: vec![m(
                        "c-a",
                        "c-b",
                        &[
                            ("ann", "fay", HomeWin),
                            ("bob", "gus", Draw),
                            ("eve", "hal", HomeWin),
                            ("dan", "r9", HomeWin),
                        ],
                    )],
                },
            ],
        }
    }

    #[test]
    fn gt_f2_a_player_who_split_matches_between_the_a_and_b_teams_belongs_to_the_one_of_more_than_half()
     {
        let c = division();
        let b = belonging(&c);
        let of = |id: &str| b.iter().find(|x| x.player.0 == id).unwrap();
        // Eve: on B's roster, 2 of 3 matches for A.
        let eve = of("eve");
        assert_eq!(eve.roster_team.0, "c-b");
        assert_eq!(eve.team.as_ref().unwrap().0, "c-a");
        assert_eq!(eve.matches.get(&TeamId("c-a".into())), Some(&2));
        // Dan: 1 for A, 1 for B: neither has more than half.
        assert_eq!(of("dan").team, None);
        // Hal played once, for B; Rogers' players for Rogers.
        assert_eq!(of("hal").team.as_ref().unwrap().0, "c-b");
        assert_eq!(of("r1").team.as_ref().unwrap().0, "rog");

        let rules = Ruleset::preset("gthscl").unwrap();
        let list = awards(
            &[Division {
                competition: &c,
                rules: &rules,
            }],
            None,
            1,
        )
        .unwrap();
        // Central A won both its matches: the division's trophy, with Eve among its players.
        assert_eq!(list.awards.len(), 1);
        let a = &list.awards[0];
        assert_eq!(
            (a.title.as_str(), a.team.0.as_str(), a.rule),
            ("North winner", "c-a", "GT-F1")
        );
        let names: Vec<(&str, u32, u32)> = a
            .players
            .iter()
            .map(|p| (p.name.as_str(), p.matches, p.of))
            .collect();
        assert_eq!(
            names,
            [("ANN", 2, 2), ("BOB", 2, 2), ("CAT", 1, 1), ("EVE", 2, 3)]
        );
        assert_eq!(
            list.to_settle,
            [
                "DAN played 1 of 2 matches for Central A, exactly half: GT-F2 gives them to neither team; the officers decide."
            ]
        );
        assert_eq!(list.trophies, 1);
    }

    #[test]
    fn gt_f1_each_winning_team_of_one_school_gets_an_award_and_gt_f3_the_playoff_finish() {
        let c = division();
        let mut other = division();
        other.name = "South".into();
        let rules = Ruleset::preset("gthscl").unwrap();
        let d = |c| Division {
            competition: c,
            rules: &rules,
        };
        let finish = Finish {
            winner: Some(crate::season_end::bracket::Entrant {
                seed: 1,
                team: TeamId("c-a".into()),
                name: "Central A".into(),
            }),
            runner_up: Some(crate::season_end::bracket::Entrant {
                seed: 2,
                team: TeamId("rog".into()),
                name: "Rogers".into(),
            }),
        };
        let list = awards(&[d(&c), d(&other)], Some(&finish), 1).unwrap();
        let titles: Vec<&str> = list.awards.iter().map(|a| a.title.as_str()).collect();
        // Central won both divisions: an award for each (GT-F1).
        assert_eq!(
            titles,
            [
                "North winner",
                "South winner",
                "Playoff winner",
                "Playoff runner-up"
            ]
        );
        assert_eq!(list.trophies, 4);
        assert_eq!(list.awards[3].school.as_deref(), Some("Rogers"));
        assert_eq!(list.awards[3].rule, "GT-F3");
    }

    #[test]
    fn the_top_individual_scores_per_board_count_games_played_over_the_board() {
        let c = division();
        let rules = Ruleset::preset("gthscl").unwrap();
        let b = top_boards(&c, &rules, 1);
        assert_eq!(b.len(), 4);
        // Board 1: Ann 2/2 before Eve 1/1 (more points first).
        let one: Vec<(u32, &str, f64, u32)> = b[0]
            .leaders
            .iter()
            .map(|l| (l.place, l.name.as_str(), l.points, l.games))
            .collect();
        assert_eq!(one, [(1, "ANN", 2.0, 2)]);
        // Board 3: R3 drew Cat and beat Gus, 1½ in 2; Eve's 1 in 1 is fewer points.
        assert_eq!(b[2].leaders[0].name, "R3");
        assert_eq!(b[2].leaders[0].points, 1.5);
        // Board 4: Dan drew for B and won for A, 1½ in 2, counted as one player's, listed
        // with the team he belongs to, none of two (GT-F2: his roster's, A).
        let four: Vec<(u32, &str, f64, &str)> = b[3]
            .leaders
            .iter()
            .map(|l| (l.place, l.name.as_str(), l.points, l.team.0.as_str()))
            .collect();
        assert_eq!(four, [(1, "DAN", 1.5, "c-a")]);
        // With the top two, Eve and Rogers' R4 follow; a shared last place is kept whole.
        let b = top_boards(&c, &rules, 2);
        let four: Vec<(u32, &str)> = b[3]
            .leaders
            .iter()
            .map(|l| (l.place, l.name.as_str()))
            .collect();
        assert_eq!(four, [(1, "DAN"), (2, "EVE")]);
    }
}
