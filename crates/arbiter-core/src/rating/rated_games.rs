//! Which games of a competition are rated, the periods they fall in, and why every other board is
//! not rated: forfeits of every kind (GT-M7, GT-S2), double defaults (GT-P4, GT-M4), unplayed
//! boards, excluded matches (GT-M5), an unranked player's games (GT-R7). A GT-P1 board is rated
//! on its `rating_result`. A season's playoffs (a [`Stage::Playoffs`] competition) are rated as
//! GT-F4 says, unless the league's ruleset sets `[playoffs] rated = false`.
//!
//! A challenge game beside a match (GT-P3, GT-R5) is rated with the match's day, numbered after
//! its boards, once it stands.

use std::collections::{HashMap, HashSet};
use std::fmt;

use jiff::civil::Date;

use crate::rating::{
    Entrant, Game, Period, PeriodLength, RatingError, Replay, Score, Summary, System, replay,
};
use crate::record::model::{
    Competition, ExtraKind, GameResult, Match, MatchOutcome, Pairing, PlayerId, Round, Side, TeamId,
};
use crate::rules::ruleset::Ruleset;
use crate::scoring;
use crate::season::extra::ExtraState;

/// Where a board was played.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct BoardPlace {
    /// The round's number.
    pub round: u32,
    /// The home (first-named) team.
    pub home: TeamId,
    /// The away team.
    pub away: TeamId,
    /// The board, 1 first.
    pub board: u32,
}

impl fmt::Display for BoardPlace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "round {}, {} v {}, board {}",
            self.round, self.home, self.away, self.board
        )
    }
}

/// Why a board is not rated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NotRated {
    /// GT-M7: the whole match was forfeited.
    MatchForfeited,
    /// GT-P4: both teams forfeited the match.
    MatchDoubleForfeit,
    /// GT-S2, GT-M9: the board was won or lost by forfeit, or both forfeited (GT-M4).
    BoardForfeited(GameResult),
    /// Not played or not reported yet.
    NotPlayed,
    /// The record does not say who played on a side.
    NoPlayer(Side),
    /// The record names a player who is on no roster of the competition.
    UnknownPlayer(PlayerId),
    /// GT-M5: the match is left out of every figure.
    Excluded(String),
    /// GT-R7: the player may play only unranked games, which count for nothing.
    Unranked(PlayerId),
    /// GT-R7: an extra game played unranked, beside the match; it counts for nothing.
    UnrankedExtraGame,
    /// GT-P3: an extra game one school entered, not yet confirmed by the other (or an officer).
    ExtraGameAwaitingConfirmation,
    /// GT-P3: an extra game an officer struck out, with the reason.
    ExtraGameStruck(String),
    /// GT-F4: the league's ruleset sets `[playoffs] rated = false`, so its playoff games are not
    /// rated.
    PlayoffsNotRated,
}

/// Which part of a season a competition is: its regular matches (a division, an event), or the
/// season's playoffs, which GT-F4 rates unless the ruleset says `[playoffs] rated = false`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Stage {
    /// A division's or an event's matches.
    #[default]
    Season,
    /// The playoffs of a season (GT-F3, GT-F4).
    Playoffs,
}

impl Stage {
    /// GT-F4: whether this stage's games are rated under `rules`. The playoffs are rated unless
    /// the ruleset's `[playoffs]` says `rated = false`; a ruleset without playoffs leaves them
    /// rated as every other game.
    pub fn rated(self, rules: &Ruleset) -> bool {
        match self {
            Stage::Season => true,
            Stage::Playoffs => rules.playoffs.as_ref().is_none_or(|p| p.rated),
        }
    }
}

impl NotRated {
    /// The rule that leaves the board unrated, where one does.
    pub fn rule(&self) -> Option<&'static str> {
        match self {
            NotRated::MatchForfeited => Some("GT-M7"),
            NotRated::MatchDoubleForfeit => Some("GT-P4"),
            NotRated::BoardForfeited(GameResult::DoubleForfeit) => Some("GT-M4"),
            NotRated::BoardForfeited(_) => Some("GT-S2"),
            NotRated::Excluded(_) => Some("GT-M5"),
            NotRated::Unranked(_) | NotRated::UnrankedExtraGame => Some("GT-R7"),
            NotRated::PlayoffsNotRated => Some("GT-F4"),
            NotRated::ExtraGameAwaitingConfirmation | NotRated::ExtraGameStruck(_) => Some("GT-P3"),
            NotRated::NotPlayed | NotRated::NoPlayer(_) | NotRated::UnknownPlayer(_) => None,
        }
    }
}

impl fmt::Display for NotRated {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotRated::MatchForfeited => f.write_str("GT-M7: a forfeited match is not rated"),
            NotRated::MatchDoubleForfeit => {
                f.write_str("GT-P4: a match both teams forfeited is not rated")
            }
            NotRated::BoardForfeited(GameResult::DoubleForfeit) => {
                f.write_str("GT-M4: a double default is not rated")
            }
            NotRated::BoardForfeited(r) => write!(
                f,
                "GT-S2: a game won by forfeit ({}) is not rated",
                r.code()
            ),
            NotRated::NotPlayed => f.write_str("not played or not reported yet"),
            NotRated::NoPlayer(side) => write!(
                f,
                "the record does not say who played for the {} team",
                side.code()
            ),
            NotRated::UnknownPlayer(id) => {
                write!(f, "player `{id}` is on no roster of the competition")
            }
            NotRated::Excluded(reason) => f.write_str(reason),
            NotRated::Unranked(id) => write!(
                f,
                "GT-R7: player `{id}` may play only unranked games, which are not rated"
            ),
            NotRated::UnrankedExtraGame => f.write_str(
                "GT-R7: an unranked game beside the match counts for nothing and is not rated",
            ),
            NotRated::ExtraGameAwaitingConfirmation => f.write_str(
                "GT-P3: an extra game one school entered is rated only once the other school or an officer confirms it",
            ),
            NotRated::ExtraGameStruck(reason) => write!(
                f,
                "GT-P3: an officer struck this extra game out (“{reason}”), so it is not rated"
            ),
            NotRated::PlayoffsNotRated => f.write_str(
                "GT-F4: the league's ruleset sets [playoffs] rated = false, so playoff games are not rated",
            ),
        }
    }
}

/// A competition's rated games, in periods, with their places and the boards left unrated.
#[derive(Debug, Clone, PartialEq)]
pub struct CompetitionGames {
    /// Every rostered player, team by team in roster order: entrant `i` is `players[i]`.
    pub players: Vec<(TeamId, PlayerId)>,
    /// The periods to replay.
    pub periods: Vec<Period>,
    /// Where each game of `periods` was played (`places[p][g]` for `periods[p].games[g]`).
    pub places: Vec<Vec<BoardPlace>>,
    /// Every board with players or a result that is not rated, and why.
    pub not_rated: Vec<(BoardPlace, NotRated)>,
}

/// The games of `competition`, a `stage` of its season, that ratings count, in periods of
/// `length`.
pub fn rated_games(
    competition: &Competition,
    rules: &Ruleset,
    length: PeriodLength,
    stage: Stage,
) -> CompetitionGames {
    // GT-F4: playoffs the ruleset leaves unrated have every played board unrated, with why.
    let stage_rated = stage.rated(rules);
    let players: Vec<(TeamId, PlayerId)> = competition
        .teams
        .iter()
        .flat_map(|t| t.players.iter().map(|p| (t.id.clone(), p.id.clone())))
        .collect();
    let index: HashMap<&PlayerId, u32> = players
        .iter()
        .enumerate()
        .map(|(i, (_, p))| (p, u32::try_from(i).unwrap_or(u32::MAX)))
        .collect();
    let unranked: HashSet<&PlayerId> = competition
        .teams
        .iter()
        .flat_map(|t| &t.players)
        .filter(|p| p.unranked)
        .map(|p| &p.id)
        .collect();
    let excluded = exclusions(competition, rules);
    let mut games = CompetitionGames {
        players: players.clone(),
        periods: Vec::new(),
        places: Vec::new(),
        not_rated: Vec::new(),
    };
    // A match day is a period; a match moved off its round's day (GT-M2) is rated on its own.
    let key_of = |round: &Round, m: &Match| match length {
        PeriodLength::Event => PeriodKey::Event,
        PeriodLength::MatchDay => round
            .date_of(m)
            .map_or(PeriodKey::Round(round.number), PeriodKey::Day),
    };
    // The periods in the order they were played: dated days in date order, then undated rounds.
    let mut keys: Vec<(PeriodKey, Option<jiff::civil::Date>, u32)> = Vec::new();
    for round in &competition.rounds {
        for pairing in &round.pairings {
            let Pairing::Match(m) = pairing else { continue };
            let key = key_of(round, m);
            if !keys.iter().any(|(k, ..)| *k == key) {
                keys.push((key, round.date_of(m), round.number));
            }
        }
    }
    keys.sort_by_key(|(_, date, round)| (date.is_none(), *date, *round));
    let mut period_of: HashMap<PeriodKey, usize> = HashMap::new();
    for (key, date, _) in keys {
        period_of.insert(key, games.periods.len());
        games.periods.push(Period {
            // An event's one period is dated by its first match (B.02's age reads it).
            date,
            games: Vec::new(),
        });
        games.places.push(Vec::new());
    }
    for round in &competition.rounds {
        for pairing in &round.pairings {
            let Pairing::Match(m) = pairing else { continue };
            let Some(&period) = period_of.get(&key_of(round, m)) else {
                continue;
            };
            let place = |board: usize| BoardPlace {
                round: round.number,
                home: m.home.clone(),
                away: m.away.clone(),
                board: u32::try_from(board + 1).unwrap_or(u32::MAX),
            };
            // GT-P3, GT-R5: a challenge game beside the match is rated with its day's games,
            // after its boards, once it stands (the other school confirmed it, or an officer
            // entered it); an unranked one (GT-R7) counts for nothing.
            let extra_from = match &m.outcome {
                MatchOutcome::Boards(boards) => boards.len(),
                _ => rules.boards as usize,
            };
            for (i, g) in m.extra_games.iter().enumerate() {
                let at = BoardPlace {
                    board: u32::try_from(extra_from + i + 1).unwrap_or(u32::MAX),
                    ..place(0)
                };
                let rated = match (index.get(&g.white), index.get(&g.black)) {
                    _ if !g.state().stands() => Err(match g.state() {
                        ExtraState::Struck { reason, .. } => {
                            NotRated::ExtraGameStruck(reason.to_string())
                        }
                        _ => NotRated::ExtraGameAwaitingConfirmation,
                    }),
                    _ if g.kind == ExtraKind::Unranked => Err(NotRated::UnrankedExtraGame),
                    _ if !stage_rated && g.result.is_played() => Err(NotRated::PlayoffsNotRated),
                    (None, _) => Err(NotRated::UnknownPlayer(g.white.clone())),
                    (_, None) => Err(NotRated::UnknownPlayer(g.black.clone())),
                    _ if unranked.contains(&g.white) => Err(NotRated::Unranked(g.white.clone())),
                    _ if unranked.contains(&g.black) => Err(NotRated::Unranked(g.black.clone())),
                    _ if !g.result.is_played() => Err(NotRated::NotPlayed),
                    (Some(&white), Some(&black)) => Ok((white, black)),
                };
                match rated {
                    Ok((home, away)) if home != away => {
                        games.periods[period].games.push(Game {
                            home,
                            away,
                            home_score: score(g.result),
                        });
                        games.places[period].push(at);
                    }
                    Ok(_) => games.not_rated.push((at, NotRated::NotPlayed)),
                    Err(why) => games.not_rated.push((at, why)),
                }
            }
            let boards = match &m.outcome {
                MatchOutcome::Boards(boards) => boards,
                MatchOutcome::Pending => continue,
                MatchOutcome::Forfeit { .. } | MatchOutcome::DoubleForfeit => {
                    let why = if m.outcome == MatchOutcome::DoubleForfeit {
                        NotRated::MatchDoubleForfeit
                    } else {
                        NotRated::MatchForfeited
                    };
                    games.not_rated.push((place(0), why));
                    continue;
                }
            };
            let exclusion = excluded.get(&(round.number, &m.home));
            for (b, board) in boards.iter().enumerate() {
                let result = board.rating_result.unwrap_or(board.result);
                let why = if let Some(reason) = exclusion {
                    Some(NotRated::Excluded(reason.clone()))
                } else if result.is_forfeit() {
                    Some(NotRated::BoardForfeited(result))
                } else if !result.is_played() {
                    Some(NotRated::NotPlayed)
                } else if !stage_rated {
                    Some(NotRated::PlayoffsNotRated)
                } else {
                    None
                };
                let players = match (&board.home_player, &board.away_player) {
                    (Some(h), Some(a)) => match (index.get(h), index.get(a)) {
                        (None, _) => Err(NotRated::UnknownPlayer(h.clone())),
                        (_, None) => Err(NotRated::UnknownPlayer(a.clone())),
                        _ if unranked.contains(h) => Err(NotRated::Unranked(h.clone())),
                        _ if unranked.contains(a) => Err(NotRated::Unranked(a.clone())),
                        (Some(&h), Some(&a)) => Ok((h, a)),
                    },
                    (None, _) => Err(NotRated::NoPlayer(Side::Home)),
                    (_, None) => Err(NotRated::NoPlayer(Side::Away)),
                };
                match (why, players) {
                    (None, Ok((home, away))) if home != away => {
                        games.periods[period].games.push(Game {
                            home,
                            away,
                            home_score: score(result),
                        });
                        games.places[period].push(place(b));
                    }
                    (Some(why), _) | (None, Err(why)) => games.not_rated.push((place(b), why)),
                    (None, Ok(_)) => games.not_rated.push((place(b), NotRated::NotPlayed)),
                }
            }
        }
    }
    games
}

/// The entrants of a competition's rosters, in the order of [`CompetitionGames::players`].
pub fn entrants(competition: &Competition) -> Vec<Entrant> {
    competition
        .teams
        .iter()
        .flat_map(|t| &t.players)
        .map(|p| Entrant {
            rating: p.rating,
            provisional: p.provisional,
            rated_games: p.record.rated_games,
            birth_date: p.record.birth_date,
            k: p.record.k,
            ..Entrant::default()
        })
        .collect()
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum PeriodKey {
    Event,
    Day(Date),
    Round(u32),
}

/// GT-M5's excluded matches: (round, home team) with the sentence.
fn exclusions<'a>(
    competition: &'a Competition,
    rules: &Ruleset,
) -> HashMap<(u32, &'a TeamId), String> {
    let mut out = HashMap::new();
    if rules.drop.is_none() {
        return out;
    }
    let sheet = scoring::score(competition, rules);
    for (team, score) in competition.teams.iter().zip(&sheet.teams) {
        for entry in &score.entries {
            let (Some(exclusion), Some(opponent)) = (&entry.excluded, entry.opponent) else {
                continue;
            };
            let home = match entry.side {
                Some(Side::Home) => &team.id,
                _ => &competition.teams[opponent].id,
            };
            // The reason is scoring's sentence, which cites GT-M5 itself.
            out.insert((entry.round, home), exclusion.reason.clone());
        }
    }
    out
}

fn score(result: GameResult) -> Score {
    match result {
        GameResult::HomeWin => Score::Win,
        GameResult::AwayWin => Score::Loss,
        _ => Score::Draw,
    }
}

/// A competition's games rated under one system.
#[derive(Debug, Clone, PartialEq)]
pub struct RatedCompetition {
    /// The games, their places and the boards not rated.
    pub games: CompetitionGames,
    /// The replay of those games.
    pub replay: Replay,
}

impl RatedCompetition {
    /// Each rostered player's team, id and summary, in roster order.
    pub fn rows(&self) -> impl Iterator<Item = (&TeamId, &PlayerId, Summary)> {
        self.games
            .players
            .iter()
            .enumerate()
            .filter_map(|(i, (team, player))| Some((team, player, self.replay.summary(i)?)))
    }
}

/// Rates a competition's games under `system`, the players starting from their rosters.
pub fn rate(
    competition: &Competition,
    rules: &Ruleset,
    system: &System,
) -> Result<RatedCompetition, RatingError> {
    rate_stage(competition, rules, system, Stage::Season)
}

/// Rates the games of a `stage` of a season under `system`: the playoffs' only when GT-F4 and
/// the ruleset's `[playoffs] rated` say so.
pub fn rate_stage(
    competition: &Competition,
    rules: &Ruleset,
    system: &System,
    stage: Stage,
) -> Result<RatedCompetition, RatingError> {
    let games = rated_games(competition, rules, system.period(), stage);
    let replay = replay(system, &entrants(competition), &games.periods)?;
    Ok(RatedCompetition { games, replay })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::model::{Board, Player, Team};

    /// Two teams of four and one played match, 2½-1½ to the home team.
    fn playoff() -> Competition {
        let team = |id: &str, rating: u32| Team {
            id: TeamId(id.into()),
            name: id.to_uppercase(),
            school: None,
            players: (1..=4)
                .map(|i| Player {
                    id: PlayerId(format!("{id}{i}")),
                    name: format!("{id} {i}"),
                    rating: Some(rating),
                    ..Player::default()
                })
                .collect(),
        };
        use GameResult::{AwayWin, Draw, HomeWin};
        let boards = [HomeWin, HomeWin, Draw, AwayWin]
            .iter()
            .enumerate()
            .map(|(i, r)| Board {
                home_player: Some(PlayerId(format!("nor{}", i + 1))),
                away_player: Some(PlayerId(format!("swe{}", i + 1))),
                ..Board::new(*r)
            })
            .collect();
        Competition {
            name: "Playoffs".into(),
            teams: vec![team("nor", 1600), team("swe", 1500)],
            rounds: vec![Round {
                number: 1,
                date: Some(jiff::civil::date(2027, 3, 1)),
                pairings: vec![Pairing::Match(Match {
                    date: None,
                    home: TeamId("nor".into()),
                    away: TeamId("swe".into()),
                    outcome: MatchOutcome::Boards(boards),
                    start: None,
                    extra_games: Vec::new(),
                    late: None,
                })],
            }],
        }
    }

    fn rated_count(rated: &RatedCompetition) -> usize {
        rated.games.periods.iter().map(|p| p.games.len()).sum()
    }

    #[test]
    fn gt_f4_playoff_games_are_rated_as_the_gthscl_ruleset_says() {
        let rules = Ruleset::preset("gthscl").unwrap();
        assert!(rules.playoffs.as_ref().is_some_and(|p| p.rated));
        let rated = rate_stage(&playoff(), &rules, &rules.rating, Stage::Playoffs).unwrap();
        assert_eq!(rated_count(&rated), 4);
        assert!(
            rated.games.not_rated.is_empty(),
            "{:?}",
            rated.games.not_rated
        );
        // Rated as the same games of a division would be.
        assert_eq!(rated, rate(&playoff(), &rules, &rules.rating).unwrap());
        let nor1 = rated.rows().find(|(_, p, _)| p.0 == "nor1").unwrap().2;
        assert_eq!(nor1.games, 1);
        assert_ne!(nor1.change, 0.0);
    }

    #[test]
    fn gt_f4_a_league_that_sets_playoffs_rated_false_leaves_its_playoff_games_unrated() {
        let rules = Ruleset::preset("gthscl")
            .unwrap()
            .with(|r| r.playoffs.as_mut().unwrap().rated = false)
            .unwrap();
        let rated = rate_stage(&playoff(), &rules, &rules.rating, Stage::Playoffs).unwrap();
        assert_eq!(rated_count(&rated), 0);
        assert_eq!(rated.games.not_rated.len(), 4);
        for (place, why) in &rated.games.not_rated {
            assert_eq!(*why, NotRated::PlayoffsNotRated, "{place}");
            assert_eq!(why.rule(), Some("GT-F4"));
        }
        assert!(
            rated.games.not_rated[0]
                .1
                .to_string()
                .contains("rated = false"),
            "{}",
            rated.games.not_rated[0].1
        );
        let nor1 = rated.rows().find(|(_, p, _)| p.0 == "nor1").unwrap().2;
        assert_eq!((nor1.games, nor1.change), (0, 0.0));
        // The divisions' games stay rated under the same ruleset: only the playoffs are not.
        assert_eq!(
            rated_count(&rate(&playoff(), &rules, &rules.rating).unwrap()),
            4
        );
    }
}
