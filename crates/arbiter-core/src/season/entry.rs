//! A match's result as a person or a script enters it (GT-P2), read into a [`MatchOutcome`]:
//! board by board, or a whole-match forfeit (GT-M7). Every problem is named with its board and
//! field, and the rule where one applies; once the shape is read, the match is checked by
//! [`crate::rules::validate`] (GT-M10, GT-P1, the rosters) against the competition it belongs to.

use std::collections::BTreeMap;

use crate::record::model::{
    AdjudicationPosition, Board, Competition, GameResult, Match, MatchOutcome, Pairing, Player,
    PlayerId, Round, Side, Team, Unfinished, Unplayed,
};
use crate::record::text::sentence;
use crate::rules::ruleset::Ruleset;
use crate::rules::validate;
use crate::season::game;
use crate::season::late::LateArrival;

/// A result as entered: board by board, or a whole-match forfeit. Texts are as typed; blank
/// ones count as not given.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ResultEntry {
    /// `home` (the home team forfeited), `away` (or `visiting`, `visitors`), or `both` (or
    /// `double`); `None` when the boards were played.
    pub forfeit: Option<String>,
    /// Every board of the match, in any order.
    pub boards: Vec<BoardEntry>,
    /// GT-M6, GT-S3: the referee's report of a team that came late, when one did.
    pub late: Option<LateEntry>,
}

/// The referee's report of a late team as typed: times as `HH:MM`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LateEntry {
    /// `home` or `away`: the side that came late.
    pub team: String,
    /// When its school day ended.
    pub school_day_ends: String,
    /// When the clocks were started without it (GT-S3), if they were.
    pub clocks_started: Option<String>,
    /// When it arrived and began; blank: never.
    pub arrived: Option<String>,
    /// GT-M6: the late start was arranged before the day.
    pub arranged: bool,
}

impl LateEntry {
    /// The report as core reads it, or every problem with its field.
    pub fn read(&self) -> Result<LateArrival, Vec<Problem>> {
        let mut problems = Vec::new();
        let team = Side::from_code(self.team.trim());
        if team.is_none() {
            problems.push(Problem::general(
                "late_team",
                "Say which team came late: home or away (GT-M6).".into(),
            ));
        }
        let mut time = |field: &'static str, what: &str, text: Option<&str>| match blank(text) {
            None => None,
            Some(t) => match t.parse::<jiff::civil::Time>() {
                Ok(t) => Some(t),
                Err(_) => {
                    problems.push(Problem::general(
                        field,
                        format!("“{t}” is not a time for {what}; write it as HH:MM, e.g. 16:30."),
                    ));
                    None
                }
            },
        };
        let ends = time(
            "late_day_ends",
            "the end of the school day",
            Some(&self.school_day_ends),
        );
        let clocks = time(
            "late_clocks",
            "the clocks' start",
            self.clocks_started.as_deref(),
        );
        let arrived = time("late_arrived", "the arrival", self.arrived.as_deref());
        if ends.is_none() && !problems.iter().any(|p| p.field == "late_day_ends") {
            problems.push(Problem::general(
                "late_day_ends",
                "Give the time the late team's school day ended: GT-M6 counts its hour from then."
                    .into(),
            ));
        }
        match (team, ends) {
            (Some(team), Some(school_day_ends)) if problems.is_empty() => {
                let late = LateArrival {
                    team,
                    school_day_ends,
                    clocks_started: clocks,
                    arrived,
                    arranged: self.arranged,
                };
                late.ruling()
                    .map(|_| late)
                    .map_err(|m| vec![Problem::general("late_clocks", m)])
            }
            _ => Err(problems),
        }
    }
}

/// One board of an entered result.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BoardEntry {
    /// 1-based.
    pub board: u32,
    /// From the home side: `1-0`, `1/2-1/2` (or `½-½`), `0-1`, `+/-`, `-/+`, `-/-`.
    pub result: String,
    /// A player id from the home team's roster; none on a board the home team left empty.
    pub home_player: Option<String>,
    /// A player id from the away team's roster; none on a board the away team left empty.
    pub away_player: Option<String>,
    /// GT-P1: the result for ratings when it differs from the team result.
    pub rating_result: Option<String>,
    /// Why the board was not played, when it was not: `absent` (GT-M9), `coach` (GT-M16),
    /// `conduct` (GT-M17, with a `note`), `double_default`, or `agreed_draw` (GT-M4: scored as
    /// a double default).
    pub unplayed: Option<String>,
    /// GT-M17: what happened, for a board forfeited for conduct.
    pub note: Option<String>,
    /// GT-M20: the day an unfinished game resumes (`YYYY-MM-DD`), when it was adjourned; its
    /// result is `*` until it is finished.
    pub adjourned_to: Option<String>,
    /// GT-M20: the position of an unfinished game sent to the President for adjudication; its
    /// result is `*` until the President decides.
    pub adjudication: Option<PositionEntry>,
}

/// GT-M20: a position sent for adjudication, as typed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PositionEntry {
    /// The moves played, as PGN.
    pub pgn: String,
    /// The position on the board, as FEN.
    pub fen: String,
    /// The home player's time left, as the clock shows it.
    pub home_clock: Option<String>,
    /// The away player's time left.
    pub away_clock: Option<String>,
}

impl PositionEntry {
    /// GT-M20: the position, its moves checked to reach it, or every problem with its field.
    fn read(&self, board: u32) -> Result<AdjudicationPosition, Vec<Problem>> {
        // A clock reads `1:02:30` at most; anything longer is cut rather than refused.
        let clock = |c: &Option<String>| {
            blank(c.as_deref()).map(|c| c.chars().take(game::CLOCK_MAX_CHARS).collect())
        };
        match game::read_position(&self.pgn, &self.fen) {
            Ok(_) => Ok(AdjudicationPosition {
                pgn: self.pgn.trim().to_string(),
                fen: self.fen.trim().to_string(),
                home_clock: clock(&self.home_clock),
                away_clock: clock(&self.away_clock),
            }),
            Err(p) => {
                let field = match p {
                    game::PositionProblem::Fen(_) => "fen",
                    _ => "pgn",
                };
                Err(vec![Problem::on(
                    board,
                    field,
                    format!(
                        "in the position sent for adjudication (GT-M20): {}",
                        p.message()
                    ),
                )])
            }
        }
    }
}

/// Something wrong with an entered result: which board and field, and a sentence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// The board the problem is on; `None` for the whole entry.
    pub board: Option<u32>,
    /// `forfeit`, `boards`, `result`, `home_player`, `away_player`, `rating_result`,
    /// `unplayed`, `note`, `reason`.
    pub field: &'static str,
    /// The sentence to show, starting "Board 3: " for a board's problem.
    pub message: String,
}

impl Problem {
    /// A problem on one board: the sentence starts "Board 3: ".
    pub fn on(board: u32, field: &'static str, message: String) -> Problem {
        Problem {
            board: Some(board),
            field,
            message: format!("Board {board}: {message}"),
        }
    }

    /// A problem of the whole entry.
    pub fn general(field: &'static str, message: String) -> Problem {
        Problem {
            board: None,
            field,
            message,
        }
    }
}

const RESULT_CODES: &str = "1-0, 1/2-1/2, 0-1, +/- (the away player forfeited), -/+ (the home player forfeited) or -/- (both forfeited)";

fn blank(s: Option<&str>) -> Option<&str> {
    s.map(str::trim).filter(|s| !s.is_empty())
}

fn roster_player<'a>(team: Option<&'a Team>, id: &str) -> Option<&'a Player> {
    team.and_then(|t| t.players.iter().find(|p| p.id.0 == id))
}

impl ResultEntry {
    /// The entry as a [`MatchOutcome`] of match `m` in `round` of `competition`, or every
    /// problem found, board by board and with the rule.
    pub fn outcome(
        &self,
        competition: &Competition,
        rules: &Ruleset,
        round: u32,
        m: &Match,
    ) -> Result<MatchOutcome, Vec<Problem>> {
        let forfeit_rule = rules
            .cite("forfeit_match")
            .map_or(String::new(), |r| format!(" ({r})"));
        if let Some(f) = blank(self.forfeit.as_deref()) {
            let outcome = match f.to_ascii_lowercase().as_str() {
                "home" => MatchOutcome::Forfeit { by: Side::Home },
                "away" | "visiting" | "visitors" => MatchOutcome::Forfeit { by: Side::Away },
                "both" | "double" => MatchOutcome::DoubleForfeit,
                _ => {
                    return Err(vec![Problem::general(
                        "forfeit",
                        format!(
                            "“{f}” is not a match forfeit{forfeit_rule}: write home (the home team forfeited), away (the visitors did) or both (a double forfeit), or leave it out and give the boards."
                        ),
                    )]);
                }
            };
            if !self.boards.is_empty() {
                return Err(vec![Problem::general(
                    "boards",
                    format!(
                        "A forfeited match{forfeit_rule} has no board results; send either the forfeit or the boards, not both."
                    ),
                )]);
            }
            return Ok(outcome);
        }

        let want = rules.boards;
        let count_rule = rules
            .cite("boards")
            .map_or(String::new(), |r| format!("{r}: "));
        let mut problems = Vec::new();
        let mut by_number: BTreeMap<u32, &BoardEntry> = BTreeMap::new();
        for b in &self.boards {
            if b.board == 0 || b.board > want {
                problems.push(Problem::general(
                    "boards",
                    format!(
                        "There is no board {}: {count_rule}{} plays {want} boards a match, numbered 1 to {want}.",
                        b.board, rules.name
                    ),
                ));
            } else if by_number.insert(b.board, b).is_some() {
                problems.push(Problem::on(
                    b.board,
                    "boards",
                    "it is given twice; give each board once.".into(),
                ));
            }
        }
        let home_team = competition.teams.iter().find(|t| t.id == m.home);
        let away_team = competition.teams.iter().find(|t| t.id == m.away);
        let played_on = competition
            .rounds
            .iter()
            .find(|r| r.number == round)
            .and_then(|r| r.date_of(m))
            .or(m.date);
        let mut boards = Vec::new();
        for n in 1..=want {
            let Some(b) = by_number.get(&n) else {
                problems.push(Problem::on(
                    n,
                    "result",
                    format!(
                        "it has no result; {count_rule}{} plays {want} boards a match, so give every board (+/- or -/+ on a board a short team leaves empty).",
                        rules.name
                    ),
                ));
                continue;
            };
            let unplayed = match blank(b.unplayed.as_deref()) {
                None => None,
                Some(kind) => match Unplayed::from_code(kind, blank(b.note.as_deref())) {
                    Some(Unplayed::Conduct { note }) if note.is_empty() => {
                        problems.push(Problem::on(
                            n,
                            "note",
                            "a board forfeited for conduct needs the note of what happened: the warning, and what went on after it (GT-M17).".into(),
                        ));
                        continue;
                    }
                    Some(u) => Some(u),
                    None => {
                        problems.push(Problem::on(
                            n,
                            "unplayed",
                            format!(
                                "“{kind}” is not a way a board goes unplayed; choose absent (GT-M9), coach (GT-M16), conduct (GT-M17), double_default (GT-S2) or agreed_draw (GT-M4)."
                            ),
                        ));
                        continue;
                    }
                },
            };
            let code = b.result.trim();
            // GT-M4: an unplayed game is never a draw; agreed or not, it is a double default.
            let code = match (&unplayed, GameResult::parse(code)) {
                (
                    Some(Unplayed::AgreedDraw | Unplayed::DoubleDefault),
                    Some(GameResult::Pending | GameResult::Draw),
                ) => GameResult::DoubleForfeit.code(),
                _ => code,
            };
            let unfinished = match unfinished(b, n, played_on) {
                Ok(u) => u,
                Err(mut more) => {
                    problems.append(&mut more);
                    continue;
                }
            };
            let result = match GameResult::parse(code) {
                // GT-M20: an unfinished game has no result until it is finished or adjudicated.
                Some(GameResult::Pending) if unfinished.is_some() => GameResult::Pending,
                Some(GameResult::Pending) => {
                    problems.push(Problem::on(
                        n,
                        "result",
                        format!("it has no result; choose {RESULT_CODES}."),
                    ));
                    continue;
                }
                Some(r) => r,
                None => {
                    problems.push(Problem::on(
                        n,
                        "result",
                        format!(
                            "“{code}” is not a board result; choose {RESULT_CODES} (GT-S1, GT-S2)."
                        ),
                    ));
                    continue;
                }
            };
            let mut player = |side: Side, given: Option<&str>| {
                let (team, other, field) = match side {
                    Side::Home => (home_team, away_team, "home_player"),
                    Side::Away => (away_team, home_team, "away_player"),
                };
                let id = blank(given)?;
                if roster_player(team, id).is_some() {
                    return Some(PlayerId(id.to_string()));
                }
                let team_name = competition.team_name(m.team(side));
                let message = match roster_player(other, id) {
                    Some(p) => format!(
                        "{} plays for the other team, not {team_name}; choose a player from {team_name}'s roster.",
                        p.name
                    ),
                    None => format!(
                        "no player on {team_name}'s roster has the id “{id}”; choose one of its players."
                    ),
                };
                problems.push(Problem::on(n, field, message));
                None
            };
            let home_player = player(Side::Home, b.home_player.as_deref());
            let away_player = player(Side::Away, b.away_player.as_deref());
            let rating_result = match blank(b.rating_result.as_deref()) {
                None => None,
                Some(code) => match GameResult::parse(code) {
                    Some(r) if r == result => None,
                    Some(r) if r != GameResult::Pending => Some(r),
                    _ => {
                        problems.push(Problem::on(
                            n,
                            "rating_result",
                            format!(
                                "“{code}” is not a result for ratings; choose 1-0, 1/2-1/2 or 0-1, or leave it empty when it is the team result (GT-P1)."
                            ),
                        ));
                        None
                    }
                },
            };
            if let Some(u) = &unplayed
                && !u.fits(result)
            {
                problems.push(Problem::on(
                    n,
                    "result",
                    format!(
                        "a board {} is scored {}, not {} (GT-S2).",
                        u.words(rules.cite(u.cite_key())),
                        if u.fits(GameResult::DoubleForfeit) {
                            "-/- (nobody scores)"
                        } else {
                            "+/- or -/+ (the side that played wins)"
                        },
                        result.symbol()
                    ),
                ));
                continue;
            }
            if let Some(u) = &unfinished {
                let said = match u {
                    Unfinished::Adjourned { .. } => "adjourned",
                    Unfinished::Adjudication(_) => "sent for adjudication",
                };
                if unplayed.is_some() {
                    problems.push(Problem::on(
                        n,
                        "unplayed",
                        format!("a board {said} was played in part, so it is not unplayed; say one or the other (GT-M20)."),
                    ));
                    continue;
                }
                if !(result == GameResult::Pending || result.is_played()) {
                    problems.push(Problem::on(
                        n,
                        "result",
                        format!("a game {said} is * until it is finished, then 1-0, 1/2-1/2 or 0-1; a forfeit ({}) is not a way an unfinished game ends (GT-M20).", result.symbol()),
                    ));
                    continue;
                }
            }
            if unplayed.is_some() && rating_result.is_some() {
                problems.push(Problem::on(
                    n,
                    "rating_result",
                    "a board that was not played has no result for ratings: GT-P1's second result is for a game played over the board.".into(),
                ));
            }
            if (result.is_played() || unfinished.is_some())
                && (blank(b.home_player.as_deref()).is_none()
                    || blank(b.away_player.as_deref()).is_none())
            {
                let extra = if result == GameResult::Draw {
                    " An unplayed game is never a draw: it is a double default, -/- (GT-M4)."
                } else {
                    ""
                };
                problems.push(Problem::on(
                    n,
                    "result",
                    format!(
                        "a game played over the board ({}) needs both players; name them, or enter +/- or -/+ for a player who did not play (GT-S2).{extra}",
                        result.symbol()
                    ),
                ));
            }
            boards.push(Board {
                result,
                rating_result,
                home_player,
                away_player,
                home_colour: None,
                unplayed,
                unfinished,
            });
        }
        if !problems.is_empty() {
            return Err(problems);
        }
        let outcome = MatchOutcome::Boards(boards);
        let found = match_problems(competition, rules, round, m, &outcome);
        if found.is_empty() {
            Ok(outcome)
        } else {
            Err(found)
        }
    }
}

/// GT-M20: what a board's entry says of a game left unfinished: adjourned to a day before the
/// week is out, or sent for adjudication with a position its moves reach.
fn unfinished(
    b: &BoardEntry,
    n: u32,
    played_on: Option<jiff::civil::Date>,
) -> Result<Option<Unfinished>, Vec<Problem>> {
    let adjourned = blank(b.adjourned_to.as_deref());
    match (adjourned, &b.adjudication) {
        (None, None) => Ok(None),
        (Some(_), Some(_)) => Err(vec![Problem::on(
            n,
            "adjourned_to",
            "a game is either adjourned or sent for adjudication, not both; GT-M20 sends it for adjudication only when it cannot be finished within the week.".into(),
        )]),
        (None, Some(p)) => p.read(n).map(|p| Some(Unfinished::Adjudication(p))),
        (Some(day), None) => {
            let Ok(resume_on) = day.parse::<jiff::civil::Date>() else {
                return Err(vec![Problem::on(
                    n,
                    "adjourned_to",
                    format!("“{day}” is not a day; give the day the game resumes as YYYY-MM-DD."),
                )]);
            };
            let Some(played_on) = played_on else {
                return Ok(Some(Unfinished::Adjourned { resume_on }));
            };
            match game::adjournment_window(played_on) {
                Some((first, last)) if (first..=last).contains(&resume_on) => {
                    Ok(Some(Unfinished::Adjourned { resume_on }))
                }
                Some((first, last)) => Err(vec![Problem::on(
                    n,
                    "adjourned_to",
                    format!(
                        "an adjourned game is played before the week is out (GT-M20): resume it between {first} and {last}, not on {resume_on}, or send it for adjudication."
                    ),
                )]),
                None => Err(vec![Problem::on(
                    n,
                    "adjourned_to",
                    format!(
                        "the match was played on {played_on}, the last day of its week, so no day is left to resume the game (GT-M20); send it for adjudication."
                    ),
                )]),
            }
        }
    }
}

/// The errors validation finds in this one match with this result (GT-M10, GT-P1 …).
fn match_problems(
    c: &Competition,
    rules: &Ruleset,
    round: u32,
    m: &Match,
    outcome: &MatchOutcome,
) -> Vec<Problem> {
    let one = Competition {
        name: c.name.clone(),
        teams: c.teams.clone(),
        rounds: vec![Round {
            number: round,
            date: None,
            pairings: vec![Pairing::Match(Match {
                date: None,
                home: m.home.clone(),
                away: m.away.clone(),
                outcome: outcome.clone(),
                start: None,
                extra_games: Vec::new(),
                late: None,
            })],
        }],
    };
    validate::validate(&one, rules)
        .into_iter()
        // Only what this match breaks: the rosters' own findings are the import's business.
        .filter(|f| f.is_error() && f.round.is_some())
        .map(|f| {
            let text = match &f.rule {
                Some(rule) => format!("{rule}: {}", f.message),
                None => f.message.clone(),
            };
            let text = sentence(&text);
            match f.board {
                Some(b) => Problem {
                    board: Some(b),
                    field: "boards",
                    message: format!("Board {b}: {text}"),
                },
                None => Problem::general("boards", text),
            }
        })
        .collect()
}

/// The keys the arbiter's round page reads (issue 14: a round entered from the keyboard alone),
/// each from the home side: `1` home won, `0` the visitors won, `=` (or `5`, `½`) drawn, `+` home
/// won by forfeit, `-` the visitors won by forfeit, `--` a double forfeit, `*` not finished;
/// besides every code of the competition file ([`GameResult::parse`]). Blank is `None`, as is
/// anything else.
pub fn typed_result(typed: &str) -> Option<GameResult> {
    match typed.trim() {
        "" => None,
        "1" => Some(GameResult::HomeWin),
        "0" => Some(GameResult::AwayWin),
        "=" | "5" | "½" => Some(GameResult::Draw),
        "+" => Some(GameResult::HomeWinByForfeit),
        "-" => Some(GameResult::AwayWinByForfeit),
        code => GameResult::parse(code),
    }
}

/// What the round page shows in a board's field for `result`: the shortest key that reads back
/// as it ([`typed_result`]).
pub fn typed_key(result: GameResult) -> &'static str {
    match result {
        GameResult::HomeWin => "1",
        GameResult::AwayWin => "0",
        GameResult::Draw => "=",
        GameResult::HomeWinByForfeit => "+",
        GameResult::AwayWinByForfeit => "-",
        GameResult::DoubleForfeit => "--",
        GameResult::Pending => "*",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::model::TeamId;

    fn team(id: &str, name: &str) -> Team {
        Team {
            id: TeamId(id.into()),
            name: name.into(),
            school: None,
            players: (1..=4)
                .map(|n| Player {
                    id: PlayerId(format!("{id}{n}")),
                    name: format!("{name} {n}"),
                    rating: Some(1600 - n * 50),
                    ..Player::default()
                })
                .collect(),
        }
    }

    fn league() -> (Competition, Ruleset, Match) {
        let c = Competition {
            name: "Wood County".into(),
            teams: vec![team("p", "Perrysburg"), team("m", "Maumee")],
            rounds: Vec::new(),
        };
        let m = Match {
            date: None,
            home: TeamId("p".into()),
            away: TeamId("m".into()),
            outcome: MatchOutcome::Pending,
            start: None,
            extra_games: Vec::new(),
            late: None,
        };
        (c, Ruleset::preset("gthscl").unwrap(), m)
    }

    fn boards(results: [&str; 4]) -> ResultEntry {
        ResultEntry {
            forfeit: None,
            boards: results
                .iter()
                .zip(1u32..)
                .map(|(r, n)| BoardEntry {
                    board: n,
                    result: (*r).into(),
                    home_player: Some(format!("p{n}")),
                    away_player: Some(format!("m{n}")),
                    rating_result: None,
                    ..BoardEntry::default()
                })
                .collect(),
            late: None,
        }
    }

    #[test]
    fn gt_p2_a_full_entry_reads_as_the_boards() {
        let (c, r, m) = league();
        let Ok(MatchOutcome::Boards(bs)) =
            boards(["1-0", "½-½", "0-1", "+/-"]).outcome(&c, &r, 1, &m)
        else {
            panic!("the entry must read");
        };
        assert_eq!(bs.len(), 4);
        assert_eq!(bs[1].result, GameResult::Draw);
        assert_eq!(bs[0].home_player, Some(PlayerId("p1".into())));
    }

    #[test]
    fn gt_m7_a_match_forfeit_has_no_boards() {
        let (c, r, m) = league();
        let forfeit = |f: &str| ResultEntry {
            forfeit: Some(f.into()),
            boards: Vec::new(),
            late: None,
        };
        assert_eq!(
            forfeit("visitors").outcome(&c, &r, 1, &m),
            Ok(MatchOutcome::Forfeit { by: Side::Away })
        );
        assert_eq!(
            forfeit("both").outcome(&c, &r, 1, &m),
            Ok(MatchOutcome::DoubleForfeit)
        );
        let e = forfeit("nobody").outcome(&c, &r, 1, &m).unwrap_err();
        assert_eq!(e[0].field, "forfeit");
        assert!(e[0].message.contains("(GT-M7)"), "{}", e[0].message);
        let both = ResultEntry {
            forfeit: Some("home".into()),
            ..boards(["1-0"; 4])
        };
        assert_eq!(both.outcome(&c, &r, 1, &m).unwrap_err()[0].field, "boards");
    }

    #[test]
    fn gt_m8_every_board_once_and_each_problem_on_its_board() {
        let (c, r, m) = league();
        let mut e = boards(["1-0", "x", "", "1-0"]);
        e.boards.push(BoardEntry {
            board: 5,
            ..BoardEntry::default()
        });
        let problems = e.outcome(&c, &r, 1, &m).unwrap_err();
        let texts: Vec<&str> = problems.iter().map(|p| p.message.as_str()).collect();
        assert!(
            texts[0].starts_with("There is no board 5: GT-M8: GTHSCL plays 4 boards"),
            "{texts:?}"
        );
        assert!(texts[1].starts_with("Board 2: “x” is not a board result"));
        assert!(texts[2].starts_with("Board 3: it has no result; choose"));
        assert_eq!(problems[1].board, Some(2));
    }

    #[test]
    fn gt_m4_gt_s2_a_played_game_needs_both_players() {
        let (c, r, m) = league();
        let mut e = boards(["1/2-1/2", "1-0", "1-0", "1-0"]);
        e.boards[0].away_player = None;
        let p = &e.outcome(&c, &r, 1, &m).unwrap_err()[0];
        assert_eq!((p.board, p.field), (Some(1), "result"));
        assert!(
            p.message.contains("(½–½) needs both players"),
            "{}",
            p.message
        );
        assert!(p.message.ends_with("it is a double default, -/- (GT-M4)."));
    }

    #[test]
    fn a_player_comes_from_their_own_teams_roster() {
        let (c, r, m) = league();
        let mut e = boards(["1-0"; 4]);
        e.boards[0].home_player = Some("m1".into());
        e.boards[1].away_player = Some("zz".into());
        let problems = e.outcome(&c, &r, 1, &m).unwrap_err();
        assert_eq!(
            problems[0].message,
            "Board 1: Maumee 1 plays for the other team, not Perrysburg; choose a player from Perrysburg's roster."
        );
        assert_eq!(problems[1].field, "away_player");
    }

    #[test]
    fn gt_m10_a_player_plays_one_board_and_validation_says_so() {
        let (c, r, m) = league();
        let mut e = boards(["1-0"; 4]);
        e.boards[1].home_player = Some("p1".into());
        let problems = e.outcome(&c, &r, 1, &m).unwrap_err();
        assert!(
            problems.iter().any(|p| p.message.contains("GT-M10")),
            "{problems:?}"
        );
    }

    #[test]
    fn gt_p1_a_rating_result_differs_from_the_team_result_or_is_left_out() {
        let (c, r, m) = league();
        let mut e = boards(["+/-", "1-0", "1-0", "1-0"]);
        e.boards[0].rating_result = Some("1/2-1/2".into());
        e.boards[1].rating_result = Some("1-0".into());
        let Ok(MatchOutcome::Boards(bs)) = e.outcome(&c, &r, 1, &m) else {
            panic!("the entry must read");
        };
        assert_eq!(bs[0].rating_result, Some(GameResult::Draw));
        assert_eq!(bs[1].rating_result, None);
        e.boards[2].rating_result = Some("*x".into());
        let p = &e.outcome(&c, &r, 1, &m).unwrap_err()[0];
        assert_eq!((p.board, p.field), (Some(3), "rating_result"));
    }

    /// GT-M9, GT-M16, GT-M17, GT-M4, GT-S2: each way a board goes unplayed, on the result it
    /// allows; an agreed draw of an unplayed game is stored as a double default.
    #[test]
    fn gt_m20_an_adjourned_game_resumes_within_the_week() {
        let (c, r, mut m) = league();
        m.date = Some(jiff::civil::date(2026, 12, 2)); // a Wednesday
        let mut e = boards(["1-0", "*", "0-1", "1/2-1/2"]);
        e.boards[1].adjourned_to = Some("2026-12-04".into());
        let MatchOutcome::Boards(bs) = e.outcome(&c, &r, 1, &m).unwrap() else {
            panic!("boards")
        };
        assert_eq!(bs[1].result, GameResult::Pending);
        assert_eq!(
            bs[1].unfinished,
            Some(Unfinished::Adjourned {
                resume_on: jiff::civil::date(2026, 12, 4)
            })
        );
        for (day, says) in [
            ("2026-12-07", "between 2026-12-03 and 2026-12-06"),
            ("2026-12-02", "between 2026-12-03 and 2026-12-06"),
            ("Friday", "is not a day"),
        ] {
            e.boards[1].adjourned_to = Some(day.into());
            let p = e.outcome(&c, &r, 1, &m).unwrap_err();
            assert!(p[0].message.contains(says), "{day}: {:?}", p[0].message);
            assert_eq!(p[0].field, "adjourned_to");
        }
        // A `*` with nothing unfinished is still a missing result.
        let p = boards(["1-0", "*", "0-1", "1/2-1/2"])
            .outcome(&c, &r, 1, &m)
            .unwrap_err();
        assert!(p[0].message.contains("it has no result"), "{p:?}");
    }

    #[test]
    fn gt_m20_a_game_sent_for_adjudication_carries_a_position_its_moves_reach() {
        let (c, r, m) = league();
        let mut e = boards(["1-0", "0-1", "*", "1/2-1/2"]);
        e.boards[2].adjudication = Some(PositionEntry {
            pgn: "1. e4 e5 2. Nf3 Nc6".into(),
            fen: "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3".into(),
            home_clock: Some("0:04:10".into()),
            away_clock: None,
        });
        let MatchOutcome::Boards(bs) = e.outcome(&c, &r, 1, &m).unwrap() else {
            panic!("boards")
        };
        let sent = bs[2]
            .unfinished
            .as_ref()
            .and_then(Unfinished::position)
            .unwrap();
        assert_eq!(sent.home_clock.as_deref(), Some("0:04:10"));

        // An illegal move is named by its number, on its board and field.
        if let Some(p) = e.boards[2].adjudication.as_mut() {
            p.pgn = "1. e4 e5 2. Nf3 Ke6".into();
        }
        let p = e.outcome(&c, &r, 1, &m).unwrap_err();
        assert_eq!((p[0].board, p[0].field), (Some(3), "pgn"));
        assert!(
            p[0].message.contains("Move 2... Ke6 is not legal"),
            "{}",
            p[0].message
        );

        // A forfeit is not how an unfinished game ends.
        if let Some(p) = e.boards[2].adjudication.as_mut() {
            p.pgn = "1. e4 e5 2. Nf3 Nc6".into();
        }
        e.boards[2].result = "+/-".into();
        let p = e.outcome(&c, &r, 1, &m).unwrap_err();
        assert!(p[0].message.contains("GT-M20"), "{}", p[0].message);
    }

    #[test]
    fn gt_m16_gt_m17_gt_m4_unplayed_boards_are_kept_with_their_kind() {
        let (c, r, m) = league();
        let mut e = boards(["1-0", "+/-", "-/+", "1/2-1/2"]);
        e.boards[1].unplayed = Some("coach".into());
        e.boards[2].unplayed = Some("conduct".into());
        e.boards[2].note = Some("Kept talking after a warning.".into());
        e.boards[3].unplayed = Some("agreed_draw".into());
        let MatchOutcome::Boards(bs) = e.outcome(&c, &r, 1, &m).unwrap() else {
            panic!("boards")
        };
        assert_eq!(bs[0].unplayed, None);
        assert_eq!(bs[1].unplayed, Some(Unplayed::CoachForfeit));
        assert_eq!(
            bs[2].unplayed.as_ref().and_then(Unplayed::note),
            Some("Kept talking after a warning.")
        );
        assert_eq!(bs[3].unplayed, Some(Unplayed::AgreedDraw));
        assert_eq!(
            bs[3].result,
            GameResult::DoubleForfeit,
            "GT-M4: never a draw"
        );

        let mut wrong = boards(["1-0", "1-0", "-/+", "+/-"]);
        wrong.boards[1].unplayed = Some("coach".into());
        wrong.boards[2].unplayed = Some("conduct".into());
        wrong.boards[3].unplayed = Some("absent".into());
        wrong.boards[3].rating_result = Some("1-0".into());
        let problems = wrong.outcome(&c, &r, 1, &m).unwrap_err();
        let said: Vec<&str> = problems.iter().map(|p| p.message.as_str()).collect();
        assert!(
            said.iter().any(|p| p.starts_with(
                "Board 2: a board forfeited by the coach (GT-M16) is scored +/- or -/+"
            )),
            "{said:#?}"
        );
        assert!(
            said.iter().any(|p| p
                .starts_with("Board 3: a board forfeited for conduct needs the note")
                && p.contains("GT-M17")),
            "{said:#?}"
        );
        assert!(
            said.iter()
                .any(|p| p
                    .starts_with("Board 4: a board that was not played has no result for ratings")),
            "{said:#?}"
        );
        let mut unknown = boards(["1-0", "1-0", "1-0", "+/-"]);
        unknown.boards[3].unplayed = Some("rain".into());
        let p = unknown.outcome(&c, &r, 1, &m).unwrap_err();
        assert_eq!((p[0].board, p[0].field), (Some(4), "unplayed"));
    }

    /// Issue 14: every key the round page reads, and each result's own key read back as it.
    #[test]
    fn the_round_pages_keys_read_back_as_their_results() {
        assert_eq!(typed_result("1"), Some(GameResult::HomeWin));
        assert_eq!(typed_result(" 0 "), Some(GameResult::AwayWin));
        assert_eq!(typed_result("="), Some(GameResult::Draw));
        assert_eq!(typed_result("½-½"), Some(GameResult::Draw));
        assert_eq!(typed_result("+"), Some(GameResult::HomeWinByForfeit));
        assert_eq!(typed_result("-"), Some(GameResult::AwayWinByForfeit));
        assert_eq!(typed_result("--"), Some(GameResult::DoubleForfeit));
        assert_eq!(typed_result(""), None);
        assert_eq!(typed_result("2"), None);
        for r in [
            GameResult::HomeWin,
            GameResult::Draw,
            GameResult::AwayWin,
            GameResult::HomeWinByForfeit,
            GameResult::AwayWinByForfeit,
            GameResult::DoubleForfeit,
            GameResult::Pending,
        ] {
            assert_eq!(typed_result(typed_key(r)), Some(r), "{r:?}");
            assert_eq!(typed_result(r.code()), Some(r), "{r:?}");
        }
    }
}
