//! What a competition record breaks of its ruleset: board counts (GT-M8, AS-9), roster sizes
//! (AS-9), a player on two boards of one match (GT-M10), players not on their team's roster,
//! a team paired twice in a round, a short team's empty boards above its played ones (GT-M9),
//! and rating results that do not fit their team results (GT-P1).
//!
//! A reader calls this after building the model; errors stop the load, warnings go with it.

use std::collections::{HashMap, HashSet};
use std::fmt;

use crate::record::model::{
    Board, Competition, GameOutcome, Match, MatchOutcome, Pairing, PersonId, PlayerId, Side, TeamId,
};
use crate::rules::ruleset::Ruleset;

/// How much a finding matters: whether the record can still be scored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Severity {
    /// The record cannot be scored as it stands.
    Error,
    /// The record can be scored, but a rule looks broken or a result was changed by rule.
    Warning,
    /// A rule was broken by what was played (a lineup out of board order, GT-M11): the
    /// result is kept and scored, and the President decides (issue 12). Before the match the
    /// same finding refuses the lineup.
    Violation,
}

impl Severity {
    /// `error`, `violation` or `warning`: the spelling of `arbiter check --format json`.
    pub fn code(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Violation => "violation",
            Severity::Warning => "warning",
        }
    }
}

/// One thing wrong with a competition record, with where it is and the rule it breaks.
#[derive(Debug, Clone, PartialEq)]
pub struct Finding {
    /// Whether the record can still be scored.
    pub severity: Severity,
    /// The rule ID, when a rule of RULES.md applies (not for a mistyped team id).
    pub rule: Option<String>,
    /// The round the finding is in, when it is in one.
    pub round: Option<u32>,
    /// The pairing's position in `Round::pairings` (0-based), to point into a file.
    pub pairing: Option<usize>,
    /// `vic v nsw` (team ids, home first), or `bye: sa`.
    pub match_label: Option<String>,
    /// The match's home (first-named) team, when the finding is in a match.
    pub home: Option<TeamId>,
    /// The match's away team, when the finding is in a match.
    pub away: Option<TeamId>,
    /// The team whose lineup or roster the finding is about, when it is one team's.
    pub team: Option<TeamId>,
    /// 1-based.
    pub board: Option<u32>,
    /// What is wrong; `Display` puts the place and the rule before it.
    pub message: String,
}

impl Finding {
    /// An error: the record cannot be scored as it stands, at no place yet (see [`Finding::at`]).
    pub fn error(rule: Option<&str>, message: impl Into<String>) -> Finding {
        Finding {
            severity: Severity::Error,
            rule: rule.map(str::to_string),
            round: None,
            pairing: None,
            match_label: None,
            home: None,
            away: None,
            team: None,
            board: None,
            message: message.into(),
        }
    }

    /// A violation: a rule broken by what was played, kept and flagged (see [`Severity`]).
    pub fn violation(rule: Option<&str>, message: impl Into<String>) -> Finding {
        Finding {
            severity: Severity::Violation,
            ..Finding::error(rule, message)
        }
    }

    /// The same finding placed at a match of a round (the pairing's index), on a board.
    pub fn in_match(
        mut self,
        round: u32,
        pairing: usize,
        m: &Match,
        board: Option<u32>,
    ) -> Finding {
        self = self.at(round, pairing, match_label(m), board);
        self.home = Some(m.home.clone());
        self.away = Some(m.away.clone());
        self
    }

    /// The same finding, in the match of `home` and `away` (their team ids), as a reader knows
    /// it before the match is built.
    pub fn between(mut self, home: &str, away: &str) -> Finding {
        self.home = Some(TeamId(home.to_string()));
        self.away = Some(TeamId(away.to_string()));
        self
    }

    /// The same finding, about `team`'s lineup or roster.
    pub fn of_team(mut self, team: &TeamId) -> Finding {
        self.team = Some(team.clone());
        self
    }

    /// A warning: the record can be scored, at no place yet (see [`Finding::at`]).
    pub fn warning(rule: Option<&str>, message: impl Into<String>) -> Finding {
        Finding {
            severity: Severity::Warning,
            ..Finding::error(rule, message)
        }
    }

    /// The same finding placed at a round, pairing (its index and label) and board.
    pub fn at(
        mut self,
        round: u32,
        pairing: usize,
        label: impl Into<String>,
        board: Option<u32>,
    ) -> Finding {
        self.round = Some(round);
        self.pairing = Some(pairing);
        self.match_label = Some(label.into());
        self.board = board;
        self
    }

    /// What names this finding across versions of the record, for a ruling on it to find it
    /// again: `GT-M11|r3|tcc|sjj-a` (rule, round, home team, the team it is about). Not the
    /// board: one ruling covers a rule one lineup breaks, on however many boards.
    pub fn key(&self) -> String {
        let or = |o: Option<String>| o.unwrap_or_default();
        format!(
            "{}|r{}|{}|{}",
            or(self.rule.clone()),
            or(self.round.map(|r| r.to_string())),
            or(self.home.as_ref().map(ToString::to_string)),
            or(self.team.as_ref().map(ToString::to_string))
        )
    }

    /// Whether the record cannot be scored as it stands.
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut place = Vec::new();
        if let Some(r) = self.round {
            place.push(format!("round {r}"));
        }
        if let Some(m) = &self.match_label {
            place.push(m.clone());
        }
        if let Some(b) = self.board {
            place.push(format!("board {b}"));
        }
        if !place.is_empty() {
            write!(f, "{}: ", place.join(", "))?;
        }
        if let Some(rule) = &self.rule {
            write!(f, "{rule}: ")?;
        }
        f.write_str(&self.message)
    }
}

impl Finding {
    /// The finding as a form on its own match says it: the board and the rule, then the
    /// sentence (`Board 2: GT-M11: …`); the round and the match go without saying there.
    pub fn on_its_match(&self) -> String {
        let mut out = String::new();
        if let Some(b) = self.board {
            out.push_str(&format!("Board {b}: "));
        }
        if let Some(rule) = &self.rule {
            out.push_str(&format!("{rule}: "));
        }
        out.push_str(&self.message);
        out
    }
}

/// `vic v nsw`: how messages name a match.
pub fn match_label(m: &Match) -> String {
    format!("{} v {}", m.home, m.away)
}

/// `vic v nsw` for a match, `bye: sa` for a bye.
pub fn pairing_label(p: &Pairing) -> String {
    match p {
        Pairing::Match(m) => match_label(m),
        Pairing::Bye(b) => format!("bye: {}", b.team),
    }
}

/// The rule that fixes the board count, cited in the league's own words.
fn board_count_rule(r: &Ruleset) -> Option<&str> {
    r.cite("boards")
}

/// Checks a competition against its ruleset. Findings come in the order of the record:
/// teams first, then round by round, pairing by pairing, board by board.
pub fn validate(c: &Competition, r: &Ruleset) -> Vec<Finding> {
    let mut out = Vec::new();
    let rosters = check_teams(c, r, &mut out);
    let team_ids: HashSet<&TeamId> = c.teams.iter().map(|t| &t.id).collect();
    let mut seen_rounds = HashSet::new();
    for round in &c.rounds {
        if !seen_rounds.insert(round.number) {
            out.push(Finding {
                round: Some(round.number),
                ..Finding::error(
                    None,
                    format!(
                        "round {} is listed twice; put all its pairings in one round",
                        round.number
                    ),
                )
            });
        }
        // The pairing each team already has in this round.
        let mut paired: HashMap<&TeamId, String> = HashMap::new();
        for (pi, pairing) in round.pairings.iter().enumerate() {
            let label = pairing_label(pairing);
            let at = |f: Finding, board: Option<u32>| match pairing {
                Pairing::Match(m) => f.in_match(round.number, pi, m, board),
                Pairing::Bye(_) => f.at(round.number, pi, label.clone(), board),
            };
            let mut teams: Vec<&TeamId> = match pairing {
                Pairing::Match(m) => vec![&m.home, &m.away],
                Pairing::Bye(b) => vec![&b.team],
            };
            for t in &teams {
                if !team_ids.contains(t) {
                    out.push(at(Finding::error(None, unknown_team(c, t)), None));
                }
            }
            if let Pairing::Match(m) = pairing
                && m.home == m.away
            {
                out.push(at(
                    Finding::error(
                        None,
                        format!(
                            "{} is paired against itself; name two different teams",
                            m.home
                        ),
                    ),
                    None,
                ));
                teams.pop();
            }
            let mut clashes = Vec::new();
            for t in teams {
                match paired.get(t) {
                    Some(first) => clashes.push(format!("{t} in {first}")),
                    None => {
                        paired.insert(t, label.clone());
                    }
                }
            }
            if !clashes.is_empty() {
                out.push(at(
                    Finding::error(
                        None,
                        format!(
                            "already paired in this round: {}; a team has one pairing a round",
                            clashes.join(", ")
                        ),
                    ),
                    None,
                ));
            }
            if let Pairing::Match(m) = pairing
                && let MatchOutcome::Boards(boards) = &m.outcome
            {
                for f in check_boards(c, r, m, boards, &rosters) {
                    let board = f.board;
                    out.push(at(f, board));
                }
            }
        }
    }
    out
}

fn unknown_team(c: &Competition, t: &TeamId) -> String {
    let ids: Vec<&str> = c.teams.iter().map(|t| t.id.0.as_str()).collect();
    format!(
        "no team has the id `{t}`; the teams are {}",
        if ids.is_empty() {
            "none (the file lists no teams)".to_string()
        } else {
            ids.join(", ")
        }
    )
}

/// Team ids and player ids are unique; rosters fit `roster_max` (AS-9). Returns each player's
/// team.
fn check_teams<'a>(
    c: &'a Competition,
    r: &Ruleset,
    out: &mut Vec<Finding>,
) -> HashMap<&'a PlayerId, &'a TeamId> {
    let mut teams = HashSet::new();
    let mut players: HashMap<&PlayerId, &TeamId> = HashMap::new();
    let mut persons: HashMap<&PersonId, &PlayerId> = HashMap::new();
    for t in &c.teams {
        if !teams.insert(&t.id) {
            out.push(Finding::error(
                None,
                format!(
                    "the team id `{}` is used by two teams; give each team its own id",
                    t.id
                ),
            ));
        }
        if let Some(max) = r.roster_max
            && t.players.len() > max as usize
        {
            out.push(Finding::error(
                r.cite("roster_max"),
                format!(
                    "{} ({}) lists {} players but a team has at most {max}",
                    t.name,
                    t.id,
                    t.players.len()
                ),
            ));
        }
        // AS-9: where the rules fix a roster (up to `roster_max`, any `boards` of it play), a
        // roster shorter than a match cannot field its boards.
        // A record that lists no roster at all (results only) says nothing of one.
        let rosters_given = c.teams.iter().any(|t| !t.players.is_empty());
        if r.roster_max.is_some() && rosters_given && t.players.len() < r.boards as usize {
            out.push(
                Finding::violation(
                    r.cite("roster_max"),
                    format!(
                        "{} ({}) lists {} player{} and a match has {} boards, so it cannot field its boards; add players to its roster",
                        t.name,
                        t.id,
                        t.players.len(),
                        if t.players.len() == 1 { "" } else { "s" },
                        r.boards
                    ),
                )
                .of_team(&t.id),
            );
        }
        for p in &t.players {
            if let Some(other) = players.insert(&p.id, &t.id) {
                let message = if other == &t.id {
                    format!(
                        "the player id `{}` is listed twice on {}'s roster; give each player one entry",
                        p.id, t.id
                    )
                } else {
                    format!(
                        "the player id `{}` is on the rosters of both {other} and {}; a player plays for one team, and each player needs an id of their own",
                        p.id, t.id
                    )
                };
                out.push(Finding::error(None, message));
            }
            // One player, one person (RULES.md): a person is one entry of a competition.
            if let Some(person) = &p.person
                && let Some(other) = persons.insert(person, &p.id)
                && other != &p.id
            {
                out.push(Finding::error(
                    None,
                    format!(
                        "the players `{other}` and `{}` are both the person `{person}`; a person is one player of a competition: give each entry its own person, or keep one entry",
                        p.id
                    ),
                ));
            }
        }
    }
    players
}

/// GT-M14: two teams of one school in a division whose players are ranked as one squad, so a
/// player of either may play for the other (the lineup checks hold them to the ranking).
pub fn sister_teams(c: &Competition, r: &Ruleset, a: &TeamId, b: &TeamId) -> bool {
    if !r.lineup.sister_teams_ranked_together {
        return false;
    }
    let school = |t: &TeamId| c.team(t).and_then(|t| t.school.as_deref());
    matches!((school(a), school(b)), (Some(x), Some(y)) if x == y)
}

fn player_name(c: &Competition, id: &PlayerId) -> String {
    c.teams
        .iter()
        .flat_map(|t| &t.players)
        .find(|p| &p.id == id)
        .map_or_else(|| id.to_string(), |p| format!("{} ({})", p.name, p.id))
}

fn check_boards(
    c: &Competition,
    r: &Ruleset,
    m: &Match,
    boards: &[Board],
    rosters: &HashMap<&PlayerId, &TeamId>,
) -> Vec<Finding> {
    let mut out = Vec::new();
    let n = boards.len();
    let want = r.boards as usize;
    if n != want {
        let rule = board_count_rule(r);
        let message = if n < want {
            format!(
                "the match lists {n} board result{} but {} plays {want} boards a match; list every board, board 1 first, writing `+/-` or `-/+` on the boards a short team leaves empty{}",
                if n == 1 { "" } else { "s" },
                r.name,
                r.cite("short_team")
                    .map_or(String::new(), |id| format!(" ({id})"))
            )
        } else {
            format!(
                "the match lists {n} board results but {} plays {want} boards a match; remove the extra boards, or use rules with `boards = {n}`",
                r.name
            )
        };
        out.push(Finding::error(rule, message));
    }
    for side in [Side::Home, Side::Away] {
        let team = m.team(side);
        let mut first_board: HashMap<&PlayerId, u32> = HashMap::new();
        for (i, b) in boards.iter().enumerate() {
            let board = u32::try_from(i + 1).unwrap_or(u32::MAX);
            let player = match side {
                Side::Home => &b.home_player,
                Side::Away => &b.away_player,
            };
            let Some(p) = player else { continue };
            let on = |f: Finding| Finding {
                board: Some(board),
                ..f
            };
            match rosters.get(p) {
                None => out.push(on(Finding::error(
                    None,
                    format!(
                        "no player has the id `{p}`; add them to {team}'s roster or correct the id"
                    ),
                ))),
                Some(t) if *t != team && !sister_teams(c, r, t, team) => out.push(on(Finding::error(
                    None,
                    format!(
                        "{} is on {t}'s roster, not {team}'s; a player plays only for the team that lists them",
                        player_name(c, p)
                    ),
                ))),
                Some(_) => {}
            }
            if let Some(first) = first_board.get(p) {
                out.push(on(Finding::error(
                    r.cite("one_board"),
                    format!(
                        "{} plays boards {first} and {board} of one match; a player plays at most one board",
                        player_name(c, p)
                    ),
                )));
            } else {
                first_board.insert(p, board);
            }
        }
    }
    for (i, b) in boards.iter().enumerate() {
        let board = u32::try_from(i + 1).unwrap_or(u32::MAX);
        if let Some(rating) = b.rating_result {
            if !rating.is_played() {
                out.push(Finding {
                    board: Some(board),
                    ..Finding::error(
                        r.cite("rating_result"),
                        format!(
                            "the rating result `{}` is not a played game; it is the result over the board (1-0, 1/2-1/2 or 0-1) when the team result differs from it",
                            rating.code()
                        ),
                    )
                });
            } else if rating != b.result && b.result.is_played() {
                out.push(Finding {
                    board: Some(board),
                    ..Finding::error(
                        r.cite("rating_result"),
                        format!(
                            "the team result `{}` and the rating result `{}` are both played results; they differ only when a player forfeits the board's point for the team (`+/-` or `-/+`)",
                            b.result.code(),
                            rating.code()
                        ),
                    )
                });
            }
        }
    }
    if r.short_team_plays_top_boards {
        for side in [Side::Home, Side::Away] {
            out.extend(check_short_team(m, boards, side, r.cite("short_team")));
        }
    }
    out
}

/// GT-M9: a short team's empty boards are its lowest ones. A board is empty for a side when
/// the side lost it by forfeit and names no player there, and no game was played (GT-P1); it
/// is filled when a game was played or the side names its player. Double defaults are neither
/// (GT-M4 stores unplayed draws as such). A coach's or a conduct forfeit (GT-M16, GT-M17) can
/// fall on any board, so this is a warning.
fn check_short_team(
    m: &Match,
    boards: &[Board],
    side: Side,
    rule: Option<&str>,
) -> Option<Finding> {
    let player = |b: &Board| match side {
        Side::Home => b.home_player.is_some(),
        Side::Away => b.away_player.is_some(),
    };
    let empty = |b: &Board| {
        b.result.outcome_for(side) == GameOutcome::ForfeitLoss
            && !player(b)
            && b.rating_result.is_none()
    };
    let filled = |b: &Board| !empty(b) && (player(b) || !b.result.is_forfeit());
    let first_empty = boards.iter().position(empty)?;
    let last_filled = boards.iter().rposition(filled)?;
    if last_filled < first_empty {
        return None;
    }
    let team = m.team(side);
    Some(Finding {
        board: u32::try_from(first_empty + 1).ok(),
        ..Finding::warning(
            rule,
            format!(
                "{team} left board {} empty but played board {}; a short team plays its players on the top boards and forfeits the lowest ones",
                first_empty + 1,
                last_filled + 1
            ),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::model::{Bye, ByeKind, GameResult, Player, Round, Team};

    fn team(id: &str, players: &[&str]) -> Team {
        Team {
            id: TeamId(id.into()),
            name: id.to_uppercase(),
            school: None,
            players: players
                .iter()
                .map(|p| Player {
                    id: PlayerId((*p).into()),
                    name: format!("Player {p}"),
                    rating: Some(1500),
                    ..Player::default()
                })
                .collect(),
        }
    }

    /// AS-9, issue 31: a team whose roster is shorter than a match (none, or two players at a
    /// four-board event) is reported: it cannot field its boards.
    #[test]
    fn as_9_a_roster_too_short_to_field_a_match_is_reported() {
        let rules = Ruleset::preset("astc").unwrap();
        let mut c = Competition {
            name: "Test".into(),
            teams: vec![
                team("vic", &["v1", "v2", "v3", "v4"]),
                team("nsw", &["n1", "n2"]),
            ],
            rounds: Vec::new(),
        };
        let short: Vec<Finding> = validate(&c, &rules)
            .into_iter()
            .filter(|f| f.rule.as_deref() == Some("AS-9"))
            .collect();
        assert_eq!(short.len(), 1, "{short:?}");
        assert_eq!(short[0].team, Some(TeamId("nsw".into())));
        assert!(
            short[0]
                .message
                .contains("lists 2 players and a match has 4 boards"),
            "{}",
            short[0]
        );
        c.teams[1].players.clear();
        assert!(
            validate(&c, &rules)
                .iter()
                .any(|f| f.message.contains("lists 0 players"))
        );
        // A league's rules fix no roster: a short team plays short (GT-M9), nothing to report.
        let gthscl = Ruleset::preset("gthscl").unwrap();
        assert!(
            !validate(&c, &gthscl)
                .iter()
                .any(|f| f.rule.as_deref() == Some("AS-9"))
        );
    }

    /// Issue 34 item 5: a league that fixes rosters under its own rule cites that rule, and one
    /// that cites none is told without a citation: never ASTC's AS-9.
    #[test]
    fn a_roster_too_long_cites_the_leagues_own_rule_or_none() {
        let read = |text: &str| {
            Ruleset::from_toml("league.toml", text, &crate::rules::ruleset::PresetsOnly).unwrap()
        };
        let c = Competition {
            name: "Test".into(),
            teams: vec![team("oak", &["o1", "o2", "o3", "o4", "o5", "o6"])],
            rounds: Vec::new(),
        };
        let long = |rules: &Ruleset| {
            validate(&c, rules)
                .into_iter()
                .find(|f| {
                    f.message
                        .contains("lists 6 players but a team has at most 5")
                })
                .map(|f| f.to_string())
        };
        let own = read("extends = \"fide-team\"\nroster_max = 5\n[cite]\nroster_max = \"C2.1\"\n");
        assert_eq!(
            long(&own).as_deref(),
            Some("C2.1: OAK (oak) lists 6 players but a team has at most 5")
        );
        let none = read("extends = \"fide-team\"\nroster_max = 5\n");
        assert_eq!(
            long(&none).as_deref(),
            Some("OAK (oak) lists 6 players but a team has at most 5")
        );
    }

    fn board(result: GameResult, home: Option<&str>, away: Option<&str>) -> Board {
        Board {
            home_player: home.map(|p| PlayerId(p.into())),
            away_player: away.map(|p| PlayerId(p.into())),
            ..Board::new(result)
        }
    }

    fn competition(pairings: Vec<Pairing>) -> Competition {
        Competition {
            name: "Test".into(),
            teams: vec![
                team("vic", &["v1", "v2", "v3", "v4"]),
                team("nsw", &["n1", "n2", "n3", "n4"]),
                team("sa", &[]),
            ],
            rounds: vec![Round {
                number: 2,
                date: None,
                pairings,
            }],
        }
    }

    fn vic_nsw(boards: Vec<Board>) -> Pairing {
        Pairing::Match(Match {
            date: None,
            home: TeamId("vic".into()),
            away: TeamId("nsw".into()),
            outcome: MatchOutcome::Boards(boards),
            start: None,
            extra_games: Vec::new(),
            late: None,
        })
    }

    fn gthscl() -> Ruleset {
        Ruleset::preset("gthscl").unwrap()
    }

    fn full() -> Vec<Board> {
        (1..=4)
            .map(|i| {
                board(
                    GameResult::Draw,
                    Some(&format!("v{i}")),
                    Some(&format!("n{i}")),
                )
            })
            .collect()
    }

    #[test]
    fn a_clean_match_has_no_findings() {
        assert!(validate(&competition(vec![vic_nsw(full())]), &gthscl()).is_empty());
    }

    #[test]
    fn gt_m10_player_on_two_boards() {
        let mut b = full();
        b[2].home_player = Some(PlayerId("v1".into()));
        let f = validate(&competition(vec![vic_nsw(b)]), &gthscl());
        assert_eq!(f.len(), 1, "{f:?}");
        assert_eq!(f[0].rule.as_deref(), Some("GT-M10"));
        assert_eq!(
            f[0].to_string(),
            "round 2, vic v nsw, board 3: GT-M10: Player v1 (v1) plays boards 1 and 3 of one match; a player plays at most one board"
        );
    }

    #[test]
    fn gt_m8_and_as_9_board_count() {
        let mut b = full();
        b.pop();
        let f = validate(&competition(vec![vic_nsw(b.clone())]), &gthscl());
        assert_eq!(f[0].rule.as_deref(), Some("GT-M8"));
        assert!(f[0].message.contains("lists 3 board results"), "{}", f[0]);
        let f = validate(
            &competition(vec![vic_nsw(b)]),
            &Ruleset::preset("astc").unwrap(),
        );
        assert_eq!(f[0].rule.as_deref(), Some("AS-9"));
    }

    #[test]
    fn player_of_another_team_or_unknown() {
        let mut b = full();
        b[0].home_player = Some(PlayerId("n1".into()));
        b[1].away_player = Some(PlayerId("zz".into()));
        let f = validate(&competition(vec![vic_nsw(b)]), &gthscl());
        assert!(
            f[0].message.contains("on nsw's roster, not vic's"),
            "{}",
            f[0]
        );
        assert_eq!(f[0].board, Some(1));
        assert!(
            f.iter()
                .any(|f| f.message.contains("`zz`") && f.board == Some(2))
        );
    }

    /// One player, one person (RULES.md): a person is one entry of a competition.
    #[test]
    fn one_player_one_person_a_person_is_one_entry_of_a_competition() {
        let mut c = competition(vec![vic_nsw(full())]);
        assert_eq!(validate(&c, &gthscl()), []);
        let ana = Some(crate::record::model::PersonId("ana".into()));
        c.teams[0].players[0].person = ana.clone();
        c.teams[1].players[0].person = ana;
        let f = validate(&c, &gthscl());
        assert_eq!(f.len(), 1, "{f:?}");
        assert!(
            f[0].message.contains("are both the person `ana`")
                && f[0]
                    .message
                    .contains("a person is one player of a competition"),
            "{}",
            f[0]
        );
    }

    #[test]
    fn team_paired_twice_and_unknown_team() {
        let bye = |t: &str| {
            Pairing::Bye(Bye {
                team: TeamId(t.into()),
                kind: ByeKind::PairingAllocated,
            })
        };
        let f = validate(
            &competition(vec![vic_nsw(full()), bye("vic"), bye("qld")]),
            &gthscl(),
        );
        assert_eq!(f.len(), 2, "{f:?}");
        assert!(
            f[0].message
                .contains("already paired in this round: vic in vic v nsw"),
            "{}",
            f[0]
        );
        assert_eq!(f[0].pairing, Some(1));
        assert_eq!(f[0].match_label.as_deref(), Some("bye: vic"));
        assert!(f[1].message.contains("`qld`") && f[1].message.contains("vic, nsw, sa"));
    }

    #[test]
    fn the_same_match_twice_in_a_round() {
        let f = validate(
            &competition(vec![vic_nsw(full()), vic_nsw(full())]),
            &gthscl(),
        );
        assert_eq!(f.len(), 1, "{f:?}");
        assert_eq!(f[0].pairing, Some(1));
        assert!(f[0].message.contains("vic in vic v nsw, nsw in vic v nsw"));
    }

    #[test]
    fn gt_m9_short_team_forfeits_its_lowest_boards() {
        let mut b = full();
        b[3] = board(GameResult::HomeWinByForfeit, Some("v4"), None);
        assert!(validate(&competition(vec![vic_nsw(b.clone())]), &gthscl()).is_empty());
        b[1] = board(GameResult::HomeWinByForfeit, Some("v2"), None);
        b[3] = board(GameResult::Draw, Some("v4"), Some("n4"));
        let f = validate(&competition(vec![vic_nsw(b)]), &gthscl());
        assert_eq!(f.len(), 1, "{f:?}");
        assert_eq!(f[0].severity, Severity::Warning);
        assert_eq!(f[0].rule.as_deref(), Some("GT-M9"));
        assert_eq!(f[0].board, Some(2));
    }

    #[test]
    fn gt_p1_rating_result_only_beside_a_forfeited_point() {
        let mut b = full();
        b[0].result = GameResult::AwayWinByForfeit;
        b[0].rating_result = Some(GameResult::HomeWin);
        assert!(validate(&competition(vec![vic_nsw(b.clone())]), &gthscl()).is_empty());
        b[1].rating_result = Some(GameResult::HomeWin);
        b[2].rating_result = Some(GameResult::DoubleForfeit);
        let f = validate(&competition(vec![vic_nsw(b)]), &gthscl());
        assert_eq!(f.len(), 2, "{f:?}");
        assert!(f.iter().all(|f| f.rule.as_deref() == Some("GT-P1")));
    }

    #[test]
    fn as_9_roster_size() {
        let mut c = competition(vec![]);
        c.teams[0] = team("vic", &["a", "b", "c", "d", "e", "f", "g"]);
        let f = validate(&c, &Ruleset::preset("astc").unwrap());
        assert!(f.iter().all(|f| f.rule.as_deref() == Some("AS-9")), "{f:?}");
        let long: Vec<&Finding> = f
            .iter()
            .filter(|f| f.message.contains("at most 6"))
            .collect();
        assert_eq!(long.len(), 1, "{f:?}");
        // The fixture's `sa` lists nobody: too short to field a match.
        assert!(
            f.iter().any(|f| f.team == Some(TeamId("sa".into()))),
            "{f:?}"
        );
    }
}
