//! Games recorded with a match, below its boards and outside its score (GT-P3): a challenge
//! game, rated, between players of different schools and only before the regular season's end
//! (GT-R5), or an unranked game that counts for nothing (GT-R7). [`read`] turns one as a person
//! entered it into an [`ExtraGame`], or names every problem with its field and rule.

use jiff::civil::Date;

use crate::entry::Problem;
use crate::model::{Competition, ExtraGame, ExtraKind, GameResult, Match, Player, Team};

/// An extra game as entered: player ids, the result from White's side, the kind.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ExtraEntry {
    /// The id of the player with White.
    pub white: String,
    /// The id of the player with Black.
    pub black: String,
    /// `1-0`, `1/2-1/2` or `0-1`, from White's side.
    pub result: String,
    /// `challenge` (GT-R5) or `unranked` (GT-R7).
    pub kind: String,
}

/// A player of either team of `m`, with their school (GT-R6's own school first).
fn player_of<'a>(c: &'a Competition, m: &Match, id: &str) -> Option<(&'a Player, Option<&'a str>)> {
    c.teams
        .iter()
        .filter(|t| t.id == m.home || t.id == m.away)
        .flat_map(|t: &'a Team| t.players.iter().map(move |p| (p, t)))
        .find(|(p, _)| p.id.0 == id.trim())
        .map(|(p, t)| (p, p.school.as_deref().or(t.school.as_deref())))
}

/// `entry` as an extra game of match `m` played on `played_on`, in a season whose regular
/// season ends on `season_ends`; or every problem, each with its field and rule.
pub fn read(
    c: &Competition,
    m: &Match,
    entry: &ExtraEntry,
    played_on: Option<Date>,
    season_ends: Option<Date>,
) -> Result<ExtraGame, Vec<Problem>> {
    let mut problems = Vec::new();
    let kind = ExtraKind::from_code(&entry.kind);
    if kind.is_none() {
        problems.push(Problem::general(
            "kind",
            "Say what the game is: a challenge game, rated (GT-R5), or an unranked game that counts for nothing (GT-R7).".into(),
        ));
    }
    let mut player = |field: &'static str, id: &str| {
        if id.trim().is_empty() {
            problems.push(Problem::general(
                field,
                format!(
                    "Name the player with {}.",
                    if field == "white" { "White" } else { "Black" }
                ),
            ));
            return None;
        }
        let found = player_of(c, m, id);
        if found.is_none() {
            problems.push(Problem::general(
                field,
                format!(
                    "No player of this match's two teams has the id “{}”; an extra game is recorded with the match its players came to (GT-P3).",
                    id.trim()
                ),
            ));
        }
        found
    };
    let white = player("white", &entry.white);
    let black = player("black", &entry.black);
    let result = match GameResult::parse(&entry.result) {
        Some(r) if r.is_played() => Some(r),
        _ => {
            problems.push(Problem::general(
                "result",
                "Give the result of the game as played, from White's side: 1-0, 1/2-1/2 or 0-1 (an extra game not played is not recorded).".into(),
            ));
            None
        }
    };
    if let (Some((w, _)), Some((b, _))) = (white, black)
        && w.id == b.id
    {
        problems.push(Problem::general(
            "black",
            format!("{} cannot play themselves; name two players.", w.name),
        ));
    }
    if kind == Some(ExtraKind::Challenge) {
        if let (Some((w, Some(ws))), Some((b, Some(bs)))) = (white, black)
            && ws.eq_ignore_ascii_case(bs)
        {
            problems.push(Problem::general(
                "kind",
                format!(
                    "GT-R5: a challenge game is between players of different schools, and {} and {} are both of {ws}; record it as an unranked game (GT-R7).",
                    w.name, b.name
                ),
            ));
        }
        if let (Some(day), Some(end)) = (played_on, season_ends)
            && day > end
        {
            problems.push(Problem::general(
                "kind",
                format!(
                    "GT-R5: challenge games are played before the regular season ends ({}), and this match is on {}; record it as an unranked game (GT-R7).",
                    end.strftime("%a %-d %b %Y"),
                    day.strftime("%a %-d %b %Y")
                ),
            ));
        }
    }
    match (white, black, result, kind) {
        (Some((w, _)), Some((b, _)), Some(result), Some(kind)) if problems.is_empty() => {
            Ok(ExtraGame {
                white: w.id.clone(),
                black: b.id.clone(),
                result,
                kind,
            })
        }
        _ => Err(problems),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{MatchOutcome, PlayerId, TeamId};
    use jiff::civil::date;

    fn competition() -> (Competition, Match) {
        let team = |id: &str, school: &str| Team {
            id: TeamId(id.into()),
            name: id.into(),
            school: Some(school.into()),
            players: (1..=5)
                .map(|n| Player {
                    id: PlayerId(format!("{id}{n}")),
                    name: format!("{id} {n}"),
                    rating: Some(1500),
                    ..Player::default()
                })
                .collect(),
        };
        let m = Match {
            home: TeamId("tcc".into()),
            away: TeamId("oh".into()),
            outcome: MatchOutcome::Pending,
            date: None,
            start: None,
            extra_games: Vec::new(),
            late: None,
        };
        (
            Competition {
                name: "Metro".into(),
                teams: vec![
                    team("tcc", "Toledo Central Catholic"),
                    team("oh", "Ottawa Hills"),
                    team("start", "Start"),
                ],
                rounds: Vec::new(),
            },
            m,
        )
    }

    fn entry(white: &str, black: &str, result: &str, kind: &str) -> ExtraEntry {
        ExtraEntry {
            white: white.into(),
            black: black.into(),
            result: result.into(),
            kind: kind.into(),
        }
    }

    #[test]
    fn gt_r5_a_challenge_game_between_schools_before_the_seasons_end() {
        let (c, m) = competition();
        let end = Some(date(2027, 2, 24));
        let g = read(
            &c,
            &m,
            &entry("tcc5", "oh5", "0-1", "challenge"),
            Some(date(2026, 11, 2)),
            end,
        )
        .unwrap();
        assert_eq!(g.kind, ExtraKind::Challenge);
        assert_eq!(g.result, GameResult::AwayWin);
        // The same school: not a challenge (GT-R5), but it may be unranked (GT-R7).
        let same = read(
            &c,
            &m,
            &entry("tcc4", "tcc5", "1-0", "challenge"),
            None,
            end,
        )
        .unwrap_err();
        assert!(
            same[0]
                .message
                .starts_with("GT-R5: a challenge game is between players of different schools"),
            "{same:?}"
        );
        assert!(read(&c, &m, &entry("tcc4", "tcc5", "1-0", "unranked"), None, end).is_ok());
        // After the regular season's end: GT-R5 refuses it.
        let late = read(
            &c,
            &m,
            &entry("tcc5", "oh5", "1-0", "challenge"),
            Some(date(2027, 3, 1)),
            end,
        )
        .unwrap_err();
        assert!(
            late[0]
                .message
                .contains("before the regular season ends (Wed 24 Feb 2027)"),
            "{late:?}"
        );
    }

    #[test]
    fn gt_p3_every_problem_of_an_extra_game_is_named() {
        let (c, m) = competition();
        let p = read(&c, &m, &entry("start1", "", "*", "friendly"), None, None).unwrap_err();
        let fields: Vec<&str> = p.iter().map(|p| p.field).collect();
        assert_eq!(fields, ["kind", "white", "black", "result"], "{p:?}");
        assert!(p[1].message.contains("GT-P3"), "{p:?}");
        let twice = read(&c, &m, &entry("oh1", "oh1", "1-0", "unranked"), None, None).unwrap_err();
        assert!(
            twice[0].message.contains("cannot play themselves"),
            "{twice:?}"
        );
    }
}
