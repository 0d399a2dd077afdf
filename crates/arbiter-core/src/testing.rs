//! Builders for the hand-worked competitions of the unit tests. A match is written as its board
//! results from the home side, a character a board: `1` home win, `=` draw, `0` away win, `+`
//! home wins by forfeit, `-` away wins by forfeit, `x` double forfeit, `*` not yet played.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::record::model::*;

/// The boards of a match, from their codes.
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

/// A match with its result, home first.
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

/// A match still to play.
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

/// A competition with teams named by their ids in capitals and one round per list of pairings.
pub fn competition(teams: &[&str], rounds: Vec<Vec<Pairing>>) -> Competition {
    Competition {
        name: "Test".into(),
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
