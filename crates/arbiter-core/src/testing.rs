//! Builders for the hand-worked competitions of the tests: this crate's unit tests, its
//! integration tests and other crates' tests (with the `testing` feature). A match is written as
//! its board results from the home side, a character a board: `1` home win, `=` draw, `0` away
//! win, `+` home wins by forfeit, `-` away wins by forfeit, `x` double forfeit, `*` not yet
//! played.
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
    with_outcome(home, away, MatchOutcome::Boards(boards(code)))
}

/// A match still to play.
pub fn pending(home: &str, away: &str) -> Pairing {
    with_outcome(home, away, MatchOutcome::Pending)
}

/// A match forfeited as a whole by the side `by`.
pub fn forfeited(home: &str, away: &str, by: Side) -> Pairing {
    with_outcome(home, away, MatchOutcome::Forfeit { by })
}

/// A match, home first, with `outcome`.
pub fn with_outcome(home: &str, away: &str, outcome: MatchOutcome) -> Pairing {
    Pairing::Match(Match {
        date: None,
        home: TeamId(home.into()),
        away: TeamId(away.into()),
        outcome,
        start: None,
        extra_games: Vec::new(),
        late: None,
    })
}

/// A bye the pairing gave `team`.
pub fn bye(team: &str) -> Pairing {
    Pairing::Bye(Bye {
        team: TeamId(team.into()),
        kind: ByeKind::PairingAllocated,
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

/// The standings as `(place, team id)` in rank order.
pub fn order(c: &Competition, s: &crate::Standings) -> Vec<(String, String)> {
    s.rows
        .iter()
        .map(|r| (r.place.clone(), c.teams[r.team].id.0.clone()))
        .collect()
}

/// `(place, team id)` pairs as [`order`] gives them.
pub fn places(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter()
        .map(|(p, t)| ((*p).to_string(), (*t).to_string()))
        .collect()
}
