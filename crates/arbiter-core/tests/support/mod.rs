//! Builders for hand-worked competitions. A match is written as its board results from the home
//! side, one character a board: `1` home win, `=` draw, `0` away win, `+` home wins by forfeit,
//! `-` away wins by forfeit, `x` double forfeit, `*` not yet played.

#![allow(dead_code)]

use arbiter_core::record::model::*;

pub fn boards(code: &str) -> Vec<Board> {
    code.chars()
        .map(|c| {
            Board::new(match c {
                '1' => GameResult::HomeWin,
                '=' => GameResult::Draw,
                '0' => GameResult::AwayWin,
                '+' => GameResult::HomeWinByForfeit,
                '-' => GameResult::AwayWinByForfeit,
                'x' => GameResult::DoubleForfeit,
                '*' => GameResult::Pending,
                other => panic!("unknown board code {other}"),
            })
        })
        .collect()
}

pub fn played(home: &str, away: &str, code: &str) -> Pairing {
    Pairing::Match(Match {
        date: None,
        home: TeamId(home.into()),
        away: TeamId(away.into()),
        outcome: MatchOutcome::Boards(boards(code)),
        start: None,
        extra_games: Vec::new(),
        late: None,
    })
}

pub fn forfeited(home: &str, away: &str, by: Side) -> Pairing {
    Pairing::Match(Match {
        date: None,
        home: TeamId(home.into()),
        away: TeamId(away.into()),
        outcome: MatchOutcome::Forfeit { by },
        start: None,
        extra_games: Vec::new(),
        late: None,
    })
}

pub fn pending(home: &str, away: &str) -> Pairing {
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

pub fn bye(team: &str) -> Pairing {
    Pairing::Bye(Bye {
        team: TeamId(team.into()),
        kind: ByeKind::PairingAllocated,
    })
}

/// A competition with teams named by their ids and one round per list of pairings.
pub fn competition(teams: &[&str], rounds: Vec<Vec<Pairing>>) -> Competition {
    Competition {
        name: "test".into(),
        teams: teams
            .iter()
            .map(|id| Team {
                id: TeamId((*id).into()),
                name: id.to_uppercase(),
                school: None,
                players: Vec::new(),
            })
            .collect(),
        rounds: rounds
            .into_iter()
            .enumerate()
            .map(|(i, pairings)| Round {
                number: u32::try_from(i + 1).unwrap(),
                date: None,
                pairings,
            })
            .collect(),
    }
}

/// The standings as `(place, team id)` in rank order.
pub fn order(c: &Competition, s: &arbiter_core::Standings) -> Vec<(String, String)> {
    s.rows
        .iter()
        .map(|r| (r.place.clone(), c.teams[r.team].id.0.clone()))
        .collect()
}

pub fn places(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter()
        .map(|(p, t)| ((*p).to_string(), (*t).to_string()))
        .collect()
}
