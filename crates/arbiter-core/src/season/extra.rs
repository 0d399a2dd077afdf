//! Games recorded with a match, below its boards and outside its score (GT-P3): a challenge
//! game, rated, between players of different schools and only before the regular season's end
//! (GT-R5), or an unranked game that counts for nothing (GT-R7). [`read`] turns one as a person
//! entered it into an [`ExtraGame`], or names every problem with its field and rule; one pair of
//! players has one extra game a match.
//!
//! An extra game is reported as a result is (GT-P2): one entered by a school stands only once the
//! other school (or an officer) confirms it, and an officer's stands at once ([`entering_side`],
//! [`ExtraGame::state`], [`may_confirm`]); an officer may strike one out with the reason
//! ([`may_strike`]), kept beside it. Only a game that stands is rated or shown as standing.

use jiff::civil::Date;

use crate::record::model::{
    Competition, ExtraGame, ExtraKind, ExtraStep, GameResult, Match, Player, Side, Team,
};
use crate::record::text::{self, TextKind};
use crate::rules::permissions::{Role, Subject};
use crate::season::entry::Problem;

/// Where an extra game stands (GT-P3, as a result's report does, GT-P2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExtraState<'a> {
    /// Entered by one school; it counts once the school on `from` (or an officer) confirms it.
    AwaitingConfirmation {
        /// The side whose school confirms it: the one that did not enter it.
        from: Side,
    },
    /// It counts: an officer entered it, the other school confirmed it (`by`), or it was recorded
    /// before confirmations were asked.
    Stands {
        /// Who confirmed it, when someone did.
        confirmed_by: Option<&'a str>,
    },
    /// An officer struck it out; it counts for nothing.
    Struck {
        /// Who struck it out, when known.
        by: Option<&'a str>,
        /// Why.
        reason: &'a str,
    },
}

impl ExtraState<'_> {
    /// Whether the game counts: rated when it is a challenge (GT-R5), shown as standing.
    pub fn stands(self) -> bool {
        matches!(self, ExtraState::Stands { .. })
    }
}

impl ExtraGame {
    /// Where the game stands from its entry and the steps taken on it: a strike ends it, else a
    /// confirmation (or an officer's entry) makes it stand, else it awaits the other school.
    pub fn state(&self) -> ExtraState<'_> {
        let struck = self.events.iter().find_map(|e| match &e.step {
            ExtraStep::Struck { reason } => Some(ExtraState::Struck {
                by: e.by.as_deref(),
                reason,
            }),
            ExtraStep::Confirmed => None,
        });
        if let Some(s) = struck {
            return s;
        }
        let confirmed = self.events.iter().find(|e| e.step == ExtraStep::Confirmed);
        match (self.entered_by, confirmed) {
            (Some(side), None) => ExtraState::AwaitingConfirmation { from: side.other() },
            (_, c) => ExtraState::Stands {
                confirmed_by: c.and_then(|e| e.by.as_deref()),
            },
        }
    }
}

/// The school of each side of a match, home first.
pub type Schools<'a> = (Option<&'a str>, Option<&'a str>);

/// GT-P3, GT-O3: the side whose school enters a game when `subject` records it: an advisor's
/// school, or the President's own school when it plays (a party, not an officer, there); `None`
/// for an officer, whose entry stands at once.
pub fn entering_side(subject: Subject<'_>, schools: Schools<'_>) -> Option<Side> {
    let own = subject.school?;
    let side_of = |school: Option<&str>| school.is_some_and(|s| s.eq_ignore_ascii_case(own));
    match subject.role {
        Role::Advisor | Role::President if side_of(schools.0) => Some(Side::Home),
        Role::Advisor | Role::President if side_of(schools.1) => Some(Side::Away),
        _ => None,
    }
}

/// GT-P3, GT-P2: may `subject` confirm `game`? Only a game awaiting confirmation, and never by
/// the school that entered it: the other school's advisor or an officer confirms (the
/// permission table has let the person act on the match). `Err` is the sentence.
pub fn may_confirm(
    game: &ExtraGame,
    subject: Subject<'_>,
    schools: Schools<'_>,
) -> Result<(), String> {
    let from = match game.state() {
        ExtraState::AwaitingConfirmation { from } => from,
        ExtraState::Stands { .. } => {
            return Err(
                "GT-P3: this extra game already stands; there is nothing to confirm.".into(),
            );
        }
        ExtraState::Struck { reason, .. } => {
            return Err(format!(
                "GT-P3: this extra game was struck out (“{reason}”), so it cannot be confirmed; if it was played, enter it again."
            ));
        }
    };
    let school = |side: Side| match side {
        Side::Home => schools.0,
        Side::Away => schools.1,
    };
    let entered = school(from.other());
    let own = subject.school;
    if own.is_some()
        && entered
            .zip(own)
            .is_some_and(|(e, o)| e.eq_ignore_ascii_case(o))
    {
        return Err(format!(
            "GT-P3, GT-P2: {} entered this extra game, so it stands only once {} or an officer confirms it, not the school that entered it.",
            entered.unwrap_or("your school"),
            school(from)
                .filter(|s| Some(*s) != entered)
                .unwrap_or("the other school"),
        ));
    }
    Ok(())
}

/// GT-P3: may an officer strike `game` out with `reason`? Not one already struck, and only with
/// a reason. `Err` is the problem, with its field.
pub fn may_strike(game: &ExtraGame, reason: &str) -> Result<(), Problem> {
    if let ExtraState::Struck { reason, .. } = game.state() {
        return Err(Problem::general(
            "reason",
            format!("GT-P3: this extra game is already struck out (“{reason}”)."),
        ));
    }
    if reason.trim().is_empty() {
        return Err(Problem::general(
            "reason",
            "GT-P3: say why the extra game is struck out; the reason is kept with it.".into(),
        ));
    }
    text::check(TextKind::Reason, "the reason", reason)
        .map_err(|e| Problem::general("reason", e.to_string()))
}

/// GT-P3: the extra game of `m` (its place, from 1) the same two players already have, in either
/// colour order, unless it was struck out.
fn same_pair(m: &Match, white: &Player, black: &Player) -> Option<usize> {
    let pair = |g: &ExtraGame| {
        (g.white == white.id && g.black == black.id) || (g.white == black.id && g.black == white.id)
    };
    m.extra_games
        .iter()
        .position(|g| pair(g) && !matches!(g.state(), ExtraState::Struck { .. }))
        .map(|i| i + 1)
}

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
        // GT-R7: only a ranked player plays a ranked game; a challenge game is rated (GT-R5).
        for (field, p) in [("white", white), ("black", black)] {
            if let Some((p, _)) = p
                && p.unranked
            {
                problems.push(Problem::general(
                    field,
                    format!(
                        "GT-R7: {} is unranked (not a high-school student nor 14 or older), so may play only unranked games, and a challenge game is rated (GT-R5); record it as an unranked game.",
                        p.name
                    ),
                ));
            }
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
    if let (Some((w, _)), Some((b, _))) = (white, black)
        && let Some(n) = same_pair(m, w, b)
    {
        problems.push(Problem::general(
            "black",
            format!(
                "GT-P3: {} and {} already have an extra game with this match (extra game {n}), and a pair of players has one extra game a match; if that one is wrong, ask an officer to strike it out with the reason, then enter this one.",
                w.name, b.name
            ),
        ));
    }
    match (white, black, result, kind) {
        (Some((w, _)), Some((b, _)), Some(result), Some(kind)) if problems.is_empty() => {
            Ok(ExtraGame {
                white: w.id.clone(),
                black: b.id.clone(),
                result,
                kind,
                entered_by: None,
                events: Vec::new(),
            })
        }
        _ => Err(problems),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::model::{ExtraEvent, MatchOutcome, PlayerId, TeamId};
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
    fn gt_r7_an_unranked_players_challenge_game_is_refused_and_an_unranked_game_taken() {
        let (c, m) = competition();
        // GT-R7: an unranked player's challenge game is refused, not left unrated in silence.
        let mut c7 = c.clone();
        let oh1 = c7.teams[1]
            .players
            .iter_mut()
            .find(|p| p.id.0 == "oh1")
            .unwrap();
        oh1.unranked = true;
        let refused = read(
            &c7,
            &m,
            &entry("tcc1", "oh1", "1-0", "challenge"),
            None,
            None,
        )
        .unwrap_err();
        assert!(
            refused
                .iter()
                .any(|p| p.field == "black" && p.message.starts_with("GT-R7:")),
            "{refused:?}"
        );
        assert!(
            read(
                &c7,
                &m,
                &entry("tcc1", "oh1", "1-0", "unranked"),
                None,
                None
            )
            .is_ok()
        );
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

    fn challenge(entered_by: Option<Side>, events: Vec<ExtraEvent>) -> ExtraGame {
        ExtraGame {
            white: PlayerId("tcc5".into()),
            black: PlayerId("oh5".into()),
            result: GameResult::AwayWin,
            kind: ExtraKind::Challenge,
            entered_by,
            events,
        }
    }

    const SCHOOLS: Schools<'static> = (Some("Toledo Central Catholic"), Some("Ottawa Hills"));

    fn advisor(school: &str) -> Subject<'_> {
        Subject {
            role: Role::Advisor,
            school: Some(school),
        }
    }

    #[test]
    fn gt_p3_an_extra_game_entered_by_one_school_stands_once_the_other_confirms() {
        // Ottawa Hills' advisor enters it: it awaits Toledo Central Catholic.
        let side = entering_side(advisor("Ottawa Hills"), SCHOOLS);
        assert_eq!(side, Some(Side::Away));
        let pending = challenge(side, Vec::new());
        assert_eq!(
            pending.state(),
            ExtraState::AwaitingConfirmation { from: Side::Home }
        );
        assert!(!pending.state().stands());
        // The school that entered it may not confirm it; the other school and an officer may.
        let own = may_confirm(&pending, advisor("Ottawa Hills"), SCHOOLS).unwrap_err();
        assert!(
            own.starts_with("GT-P3, GT-P2: Ottawa Hills entered this extra game")
                && own.contains("once Toledo Central Catholic or an officer confirms it"),
            "{own}"
        );
        assert!(may_confirm(&pending, advisor("Toledo Central Catholic"), SCHOOLS).is_ok());
        let vp = Subject {
            role: Role::VicePresident,
            school: None,
        };
        assert!(may_confirm(&pending, vp, SCHOOLS).is_ok());
        let confirmed = challenge(
            side,
            vec![ExtraEvent {
                by: Some("tcc@example.org".into()),
                step: ExtraStep::Confirmed,
            }],
        );
        assert_eq!(
            confirmed.state(),
            ExtraState::Stands {
                confirmed_by: Some("tcc@example.org")
            }
        );
        assert!(may_confirm(&confirmed, vp, SCHOOLS).is_err(), "once only");
    }

    #[test]
    fn gt_p3_an_officers_extra_game_stands_at_once_but_not_the_presidents_own_schools() {
        assert_eq!(
            entering_side(
                Subject {
                    role: Role::VicePresident,
                    school: None
                },
                SCHOOLS
            ),
            None
        );
        assert!(challenge(None, Vec::new()).state().stands());
        let president = Subject {
            role: Role::President,
            school: Some("Ottawa Hills"),
        };
        assert_eq!(
            entering_side(president, SCHOOLS),
            Some(Side::Away),
            "GT-O3: a party"
        );
        let elsewhere = Subject {
            role: Role::President,
            school: Some("Start"),
        };
        assert_eq!(entering_side(elsewhere, SCHOOLS), None);
    }

    #[test]
    fn gt_p3_a_struck_extra_game_counts_for_nothing_and_keeps_its_reason() {
        let game = challenge(
            None,
            vec![ExtraEvent {
                by: Some("vp@example.org".into()),
                step: ExtraStep::Struck {
                    reason: "entered twenty times".into(),
                },
            }],
        );
        assert_eq!(
            game.state(),
            ExtraState::Struck {
                by: Some("vp@example.org"),
                reason: "entered twenty times"
            }
        );
        assert!(may_strike(&game, "again").is_err(), "struck once");
        assert!(may_confirm(&game, advisor("Toledo Central Catholic"), SCHOOLS).is_err());
        let standing = challenge(None, Vec::new());
        assert_eq!(may_strike(&standing, "  ").unwrap_err().field, "reason");
        assert!(may_strike(&standing, "never played").is_ok());
    }

    #[test]
    fn gt_p3_a_pair_of_players_has_one_extra_game_a_match_in_either_colour_order() {
        let (c, mut m) = competition();
        m.extra_games.push(challenge(Some(Side::Away), Vec::new()));
        let again = read(
            &c,
            &m,
            &entry("oh5", "tcc5", "1-0", "challenge"),
            None,
            None,
        )
        .unwrap_err();
        assert!(
            again[0].message.starts_with(
                "GT-P3: oh 5 and tcc 5 already have an extra game with this match (extra game 1)"
            ),
            "{again:?}"
        );
        // Another pair is fine; and once the first is struck out, the pair may be entered again.
        assert!(
            read(
                &c,
                &m,
                &entry("tcc4", "oh5", "1-0", "challenge"),
                None,
                None
            )
            .is_ok()
        );
        m.extra_games[0].events.push(ExtraEvent {
            by: None,
            step: ExtraStep::Struck {
                reason: "wrong players".into(),
            },
        });
        assert!(
            read(
                &c,
                &m,
                &entry("oh5", "tcc5", "1-0", "challenge"),
                None,
                None
            )
            .is_ok()
        );
    }
}
