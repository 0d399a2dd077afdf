//! The native competition file, `arbiter/competition@1` (docs/competition-json.md).
//!
//! Reading is in two passes: serde (with `deny_unknown_fields`) checks the shape and gives
//! line and column for every syntax error; then the model is built and checked against its
//! ruleset (`arbiter_core::validate`), and each finding is pointed back to its place in the file.

use std::fmt;

use arbiter_core::criteria::CriterionSpec;
use arbiter_core::model::{
    Board, Bye, ByeKind, Colour, Competition, GameResult, Match, MatchOutcome, Pairing, Player,
    PlayerId, Round, Side, Team, TeamId,
};
use arbiter_core::ruleset::{FideEdition, PRESETS, PresetsOnly, Ruleset, RulesetSource};
use arbiter_core::scoring;
use arbiter_core::validate::{self, Finding};
use serde::Deserialize;

/// The value of the `format` field.
pub const FORMAT: &str = "arbiter/competition@1";

/// A competition file read and checked.
#[derive(Debug, Clone, PartialEq)]
pub struct LoadedCompetition {
    pub competition: Competition,
    pub rules: Ruleset,
    /// `"tiebreaks"`: a tie-break list that replaces the ruleset's criteria after the primary
    /// score, as the command line's `--tiebreaks` does. Empty when the file has none.
    pub tiebreaks: Vec<CriterionSpec>,
    /// What the file may keep but should know: GT-M4 draws stored as double defaults, GT-M9
    /// forfeits above played boards.
    pub warnings: Vec<Finding>,
}

/// Why a competition file could not be read: every problem found, each with its place.
#[derive(Debug, Clone, PartialEq)]
pub struct JsonError {
    /// The file, as the caller named it.
    pub origin: String,
    /// At least one; in file order when they have places.
    pub problems: Vec<Problem>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Problem {
    /// 1-based line and column in the file, when the problem has a place.
    pub line: Option<usize>,
    pub column: Option<usize>,
    /// The rule ID, for a problem that breaks a rule.
    pub rule: Option<String>,
    /// The sentence, with its round, match and board (`round 3, vic v nsw, board 2: GT-M10: …`).
    pub message: String,
}

impl JsonError {
    fn new(origin: &str, problems: Vec<Problem>) -> JsonError {
        JsonError {
            origin: origin.to_string(),
            problems,
        }
    }

    /// The first problem (the one an editor would jump to).
    pub fn first(&self) -> Option<&Problem> {
        self.problems.first()
    }
}

impl fmt::Display for JsonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, p) in self.problems.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            match (p.line, p.column) {
                (Some(l), Some(c)) => write!(f, "{}:{l}:{c}: {}", self.origin, p.message)?,
                (Some(l), None) => write!(f, "{}:{l}: {}", self.origin, p.message)?,
                _ => write!(f, "{}: {}", self.origin, p.message)?,
            }
        }
        Ok(())
    }
}

impl std::error::Error for JsonError {}

// ---------------------------------------------------------------------------------------------
// The file as written.

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileJson {
    format: Option<String>,
    name: String,
    rules: Option<serde_json::Value>,
    #[serde(default)]
    tiebreaks: Vec<String>,
    #[serde(default)]
    teams: Vec<TeamJson>,
    #[serde(default)]
    rounds: Vec<RoundJson>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct TeamJson {
    id: String,
    name: String,
    school: Option<String>,
    #[serde(default)]
    players: Vec<PlayerJson>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct PlayerJson {
    id: String,
    name: String,
    rating: Option<u32>,
    #[serde(default)]
    provisional: bool,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RoundJson {
    round: u32,
    date: Option<jiff::civil::Date>,
    #[serde(default)]
    matches: Vec<PairingJson>,
}

/// A match or a bye; which fields may go together is checked after parsing, with the place.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct PairingJson {
    home: Option<String>,
    away: Option<String>,
    boards: Option<Vec<BoardJson>>,
    forfeit: Option<String>,
    #[serde(default)]
    double_forfeit: bool,
    score: Option<String>,
    bye: Option<String>,
    kind: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct BoardJson {
    result: String,
    rating_result: Option<String>,
    home_player: Option<String>,
    away_player: Option<String>,
    home_colour: Option<String>,
    #[serde(default)]
    unplayed: bool,
}

// ---------------------------------------------------------------------------------------------
// Reading.

/// A step of a path into the JSON document, to find a place for a message.
#[derive(Debug, Clone, Copy)]
enum Seg<'a> {
    Key(&'a str),
    Index(usize),
}

/// Problems found while building, each with the path of its place.
struct Collected<'t> {
    text: &'t str,
    problems: Vec<(Option<usize>, Problem)>,
}

impl Collected<'_> {
    fn push(&mut self, path: &[Seg], rule: Option<&str>, message: String) {
        let offset = locate(self.text, path);
        let (line, column) = match offset {
            Some(o) => {
                let (l, c) = line_column(self.text, o);
                (Some(l), Some(c))
            }
            None => (None, None),
        };
        self.problems.push((
            offset,
            Problem {
                line,
                column,
                rule: rule.map(str::to_string),
                message,
            },
        ));
    }

    fn finding(&mut self, path: &[Seg], f: &Finding) {
        self.push(path, f.rule.as_deref(), f.to_string());
    }
}

/// Reads a competition file. `origin` names it in messages (its path); `rules_source` loads
/// a `"rules"` path and any `extends` that is not a preset.
pub fn read(
    origin: &str,
    text: &str,
    rules_source: &dyn RulesetSource,
) -> Result<LoadedCompetition, JsonError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let file: FileJson =
        serde_json::from_str(text).map_err(|e| JsonError::new(origin, vec![syntax_problem(&e)]))?;
    let mut out = Collected {
        text,
        problems: Vec::new(),
    };
    match file.format.as_deref() {
        Some(FORMAT) => {}
        Some(other) => out.push(
            &[Seg::Key("format")],
            None,
            format!("this file's format is `{other}`; this version of Arbiter reads `{FORMAT}`"),
        ),
        None => out.push(
            &[],
            None,
            format!("the file does not say its format; start it with \"format\": \"{FORMAT}\""),
        ),
    }
    let rules = load_rules(origin, file.rules.as_ref(), rules_source, &mut out);
    let mut tiebreaks = Vec::new();
    for (i, code) in file.tiebreaks.iter().enumerate() {
        match CriterionSpec::parse(code) {
            Ok(c) => tiebreaks.push(c),
            Err(e) => out.push(
                &[Seg::Key("tiebreaks"), Seg::Index(i)],
                None,
                format!("tiebreaks: {e}"),
            ),
        }
    }
    let mut warnings = Vec::new();
    let competition = build(&file, &mut out, &mut warnings);
    if let Some(rules) = &rules {
        check_scores(&file, &competition, rules, &mut out);
        for f in validate::validate(&competition, rules) {
            let path = finding_path(&competition, &f);
            if f.is_error() {
                out.finding(&path, &f);
            } else {
                warnings.push(f);
            }
        }
    }
    match rules {
        Some(rules) if out.problems.is_empty() => Ok(LoadedCompetition {
            competition,
            rules,
            tiebreaks,
            warnings,
        }),
        _ => {
            let mut problems = out.problems;
            // File order; problems without a place (a roster, the whole file) go first.
            problems.sort_by_key(|(offset, _)| *offset);
            Err(JsonError::new(
                origin,
                problems.into_iter().map(|(_, p)| p).collect(),
            ))
        }
    }
}

fn syntax_problem(e: &serde_json::Error) -> Problem {
    let full = e.to_string();
    let suffix = format!(" at line {} column {}", e.line(), e.column());
    let message = full.strip_suffix(&suffix).unwrap_or(&full).to_string();
    let message = if e.is_eof() {
        format!("{message}; the file ends before the JSON does (a missing `}}` or `]`?)")
    } else {
        message
    };
    Problem {
        line: (e.line() > 0).then_some(e.line()),
        column: (e.line() > 0).then_some(e.column()),
        rule: None,
        message,
    }
}

/// `"rules"`: a preset name, a ruleset file (through `source`), or an inline ruleset.
fn load_rules(
    origin: &str,
    value: Option<&serde_json::Value>,
    source: &dyn RulesetSource,
    out: &mut Collected,
) -> Option<Ruleset> {
    let here = [Seg::Key("rules")];
    let presets = arbiter_core::ruleset::preset_names().join(", ");
    match value {
        None => {
            out.push(
                &[],
                None,
                format!(
                    "the file names no rules; add \"rules\": \"astc\" (or another preset: {presets}), a ruleset file's path, or an inline ruleset such as {{\"extends\": \"gthscl\", \"boards\": 3}}"
                ),
            );
            None
        }
        Some(serde_json::Value::String(name)) => {
            if PRESETS.iter().any(|(n, _)| n == name) {
                let r = Ruleset::preset(name);
                if r.is_none() {
                    out.push(&here, None, format!("the preset `{name}` does not parse"));
                }
                return r;
            }
            match source.load(name) {
                Ok((file, toml)) => match Ruleset::from_toml(&file, &toml, source) {
                    Ok(r) => Some(r),
                    Err(e) => {
                        out.push(&here, None, format!("rules: {e}"));
                        None
                    }
                },
                Err(e) => {
                    out.push(&here, None, format!("\"rules\": \"{name}\": {e}"));
                    None
                }
            }
        }
        Some(serde_json::Value::Object(map)) => {
            let inline_origin = format!("{origin} (rules)");
            let mut keys = Vec::new();
            let mut toml = String::new();
            for (k, v) in map {
                match Out::from_json(v) {
                    Ok(v) => {
                        toml.push_str(&toml_key(k));
                        toml.push_str(" = ");
                        toml.push_str(&v.toml());
                        toml.push('\n');
                        keys.push(k.as_str());
                    }
                    Err(()) => {
                        out.push(
                            &[Seg::Key("rules"), Seg::Key(k)],
                            None,
                            format!(
                                "rules.{k}: null is not a value here; leave the field out to inherit it"
                            ),
                        );
                        return None;
                    }
                }
            }
            match Ruleset::from_toml(&inline_origin, &toml, source) {
                Ok(r) => Some(r),
                Err(e) if e.origin != inline_origin => {
                    // The problem is in a file the inline ruleset extends.
                    out.push(&here, None, format!("rules: {e}"));
                    None
                }
                Err(e) => {
                    // One key a line, so the TOML line names the key.
                    let key = e.line.and_then(|l| keys.get(l.wrapping_sub(1)).copied());
                    match key {
                        Some(k) => out.push(
                            &[Seg::Key("rules"), Seg::Key(k)],
                            None,
                            format!("rules.{k}: {}", e.message),
                        ),
                        None => out.push(&here, None, format!("rules: {}", e.message)),
                    }
                    None
                }
            }
        }
        Some(_) => {
            out.push(
                &here,
                None,
                format!(
                    "\"rules\" is a preset name ({presets}), a ruleset file's path, or an inline ruleset such as {{\"extends\": \"gthscl\", \"boards\": 3}}"
                ),
            );
            None
        }
    }
}

fn build(file: &FileJson, out: &mut Collected, warnings: &mut Vec<Finding>) -> Competition {
    let teams = file
        .teams
        .iter()
        .map(|t| Team {
            id: TeamId(t.id.clone()),
            name: t.name.clone(),
            school: t.school.clone(),
            players: t
                .players
                .iter()
                .map(|p| Player {
                    id: PlayerId(p.id.clone()),
                    name: p.name.clone(),
                    rating: p.rating,
                    provisional: p.provisional,
                })
                .collect(),
        })
        .collect();
    let mut rounds = Vec::with_capacity(file.rounds.len());
    for (ri, r) in file.rounds.iter().enumerate() {
        let mut pairings = Vec::with_capacity(r.matches.len());
        for (pi, p) in r.matches.iter().enumerate() {
            let path = [
                Seg::Key("rounds"),
                Seg::Index(ri),
                Seg::Key("matches"),
                Seg::Index(pi),
            ];
            if let Some(pairing) = build_pairing(r.round, pi, p, &path, out, warnings) {
                pairings.push(pairing);
            }
        }
        rounds.push(Round {
            number: r.round,
            date: r.date,
            pairings,
        });
    }
    Competition {
        name: file.name.clone(),
        teams,
        rounds,
    }
}

fn build_pairing(
    round: u32,
    index: usize,
    p: &PairingJson,
    path: &[Seg],
    out: &mut Collected,
    warnings: &mut Vec<Finding>,
) -> Option<Pairing> {
    if let Some(team) = &p.bye {
        let label = format!("round {round}, bye: {team}");
        let extra: Vec<&str> = [
            ("home", p.home.is_some()),
            ("away", p.away.is_some()),
            ("boards", p.boards.is_some()),
            ("forfeit", p.forfeit.is_some()),
            ("double_forfeit", p.double_forfeit),
            ("score", p.score.is_some()),
        ]
        .into_iter()
        .filter_map(|(k, present)| present.then_some(k))
        .collect();
        if !extra.is_empty() {
            out.push(
                path,
                None,
                format!(
                    "{label}: a bye names only its team and, if it is not a pairing-allocated bye, its `kind`; remove {}",
                    extra
                        .iter()
                        .map(|k| format!("`{k}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            );
        }
        let kind = match p.kind.as_deref() {
            None | Some("pab") => ByeKind::PairingAllocated,
            Some("full") => ByeKind::FullPoint,
            Some("half") => ByeKind::HalfPoint,
            Some("zero") => ByeKind::ZeroPoint,
            Some(other) => {
                let mut at = path.to_vec();
                at.push(Seg::Key("kind"));
                out.push(
                    &at,
                    None,
                    format!(
                        "{label}: `{other}` is not a kind of bye; write \"pab\" (pairing-allocated, scored as the rules' bye), \"full\", \"half\" or \"zero\""
                    ),
                );
                ByeKind::PairingAllocated
            }
        };
        return Some(Pairing::Bye(Bye {
            team: TeamId(team.clone()),
            kind,
        }));
    }
    let (Some(home), Some(away)) = (&p.home, &p.away) else {
        out.push(
            path,
            None,
            format!(
                "round {round}: a match names its \"home\" and \"away\" teams (a bye is written {{\"bye\": \"sa\"}})"
            ),
        );
        return None;
    };
    let label = format!("round {round}, {home} v {away}");
    if let Some(k) = &p.kind {
        let mut at = path.to_vec();
        at.push(Seg::Key("kind"));
        out.push(
            &at,
            None,
            format!(
                "{label}: `\"kind\": \"{k}\"` belongs to a bye; a match has boards, a forfeit or a double forfeit"
            ),
        );
    }
    let given: Vec<&str> = [
        ("boards", p.boards.is_some()),
        ("forfeit", p.forfeit.is_some()),
        ("double_forfeit", p.double_forfeit),
    ]
    .into_iter()
    .filter_map(|(k, present)| present.then_some(k))
    .collect();
    if given.len() > 1 {
        out.push(
            path,
            Some("GT-M7"),
            format!(
                "{label}: GT-M7: the match has {}; a match is played on its boards, forfeited by one team, or double forfeited, only one of them",
                given
                    .iter()
                    .map(|k| format!("`{k}`"))
                    .collect::<Vec<_>>()
                    .join(" and ")
            ),
        );
    }
    let outcome = if let Some(boards) = &p.boards {
        let mut built = Vec::with_capacity(boards.len());
        for (bi, b) in boards.iter().enumerate() {
            let mut at = path.to_vec();
            at.extend([Seg::Key("boards"), Seg::Index(bi)]);
            let board = u32::try_from(bi + 1).unwrap_or(u32::MAX);
            built.push(build_board(
                round,
                index,
                (home, away),
                board,
                b,
                &at,
                out,
                warnings,
            ));
        }
        MatchOutcome::Boards(built)
    } else if let Some(side) = &p.forfeit {
        match side.as_str() {
            "home" => MatchOutcome::Forfeit { by: Side::Home },
            "away" => MatchOutcome::Forfeit { by: Side::Away },
            other => {
                let mut at = path.to_vec();
                at.push(Seg::Key("forfeit"));
                out.push(
                    &at,
                    Some("GT-M7"),
                    format!(
                        "{label}: GT-M7: \"forfeit\" is the side that forfeited the match, \"home\" or \"away\", not `{other}`; when both teams forfeited, write \"double_forfeit\": true"
                    ),
                );
                MatchOutcome::Pending
            }
        }
    } else if p.double_forfeit {
        MatchOutcome::DoubleForfeit
    } else {
        MatchOutcome::Pending
    };
    Some(Pairing::Match(Match {
        home: TeamId(home.clone()),
        away: TeamId(away.clone()),
        outcome,
    }))
}

const RESULT_CODES: &str = "1-0, 0-1, 1/2-1/2 (or ½-½), +/- or -/+ (a forfeit: the player with `-` did not play), -/- (a double default), or * (not yet played)";

#[allow(clippy::too_many_arguments)]
fn build_board(
    round: u32,
    pairing: usize,
    (home, away): (&str, &str),
    board: u32,
    b: &BoardJson,
    path: &[Seg],
    out: &mut Collected,
    warnings: &mut Vec<Finding>,
) -> Board {
    let place = format!("round {round}, {home} v {away}, board {board}");
    let label = format!("{home} v {away}");
    let field = |key: &'static str| {
        let mut at = path.to_vec();
        at.push(Seg::Key(key));
        at
    };
    let mut result = match GameResult::parse(&b.result) {
        Some(r) => r,
        None => {
            out.push(
                &field("result"),
                None,
                format!(
                    "{place}: `{}` is not a board result; write {RESULT_CODES}",
                    b.result
                ),
            );
            GameResult::Pending
        }
    };
    if b.unplayed {
        match result {
            GameResult::Draw => {
                result = GameResult::DoubleForfeit;
                warnings.push(
                    Finding::warning(
                        Some("GT-M4"),
                        "an agreed draw of an unplayed game is not permitted; it is stored as a double default (-/-), no point for either team",
                    )
                    .at(round, pairing, label.clone(), Some(board)),
                );
            }
            GameResult::HomeWin | GameResult::AwayWin => out.push(
                &field("unplayed"),
                Some("GT-S2"),
                format!(
                    "{place}: GT-S2: an unplayed game is won by default, not over the board; write \"+/-\" (the away player did not play) or \"-/+\" instead of `{}`",
                    b.result
                ),
            ),
            GameResult::Pending => out.push(
                &field("unplayed"),
                Some("GT-S2"),
                format!(
                    "{place}: GT-S2: `*` is a game still to be played; an unplayed game is scored by default: write \"+/-\", \"-/+\" or \"-/-\""
                ),
            ),
            _ => {}
        }
    }
    let rating_result = b
        .rating_result
        .as_deref()
        .and_then(|code| match GameResult::parse(code) {
            Some(r) => Some(r),
            None => {
                out.push(
                    &field("rating_result"),
                    Some("GT-P1"),
                    format!(
                        "{place}: GT-P1: `{code}` is not a rating result; write the result over the board, 1-0, 1/2-1/2 or 0-1"
                    ),
                );
                None
            }
        });
    let home_colour = match b.home_colour.as_deref() {
        None => None,
        Some("white") => Some(Colour::White),
        Some("black") => Some(Colour::Black),
        Some(other) => {
            out.push(
                &field("home_colour"),
                None,
                format!(
                    "{place}: \"home_colour\" is \"white\" or \"black\" (the home player's colour), not `{other}`"
                ),
            );
            None
        }
    };
    Board {
        result,
        rating_result,
        home_player: b.home_player.clone().map(PlayerId),
        away_player: b.away_player.clone().map(PlayerId),
        home_colour,
    }
}

/// The rule that says a team's score is the sum of its game points.
fn game_points_rule(r: &Ruleset) -> Option<&str> {
    r.cite("game_points")
}

/// `"GT-M8: "` when the ruleset cites a rule for `field`, else nothing.
fn cite_prefix(r: &Ruleset, field: &str) -> String {
    r.cite(field)
        .map(|id| format!("{id}: "))
        .unwrap_or_default()
}

/// A stated `"score"` must be the one the boards (or the forfeit rule) give.
fn check_scores(file: &FileJson, c: &Competition, rules: &Ruleset, out: &mut Collected) {
    for (ri, (rj, round)) in file.rounds.iter().zip(&c.rounds).enumerate() {
        for (pi, pj) in rj.matches.iter().enumerate() {
            let Some(stated) = &pj.score else { continue };
            let Some(m) = round.pairings.iter().find_map(|p| match p {
                Pairing::Match(m)
                    if Some(&m.home.0) == pj.home.as_ref()
                        && Some(&m.away.0) == pj.away.as_ref() =>
                {
                    Some(m)
                }
                _ => None,
            }) else {
                continue;
            };
            let path = [
                Seg::Key("rounds"),
                Seg::Index(ri),
                Seg::Key("matches"),
                Seg::Index(pi),
                Seg::Key("score"),
            ];
            let place = format!("round {}, {}", round.number, validate::match_label(m));
            let Some((h, a)) = parse_score(stated) else {
                out.push(
                    &path,
                    None,
                    format!(
                        "{place}: `{stated}` is not a score; write the home team's game points, a hyphen, then the away team's, e.g. \"2.5-1.5\""
                    ),
                );
                continue;
            };
            let most = rules.max_game_points();
            if h + a > most + 1e-9 {
                let cite = cite_prefix(rules, "boards");
                out.push(
                    &path,
                    rules.cite("boards"),
                    format!(
                        "{place}: {cite}the score {stated} is impossible: a match of {} boards shares at most {} game points",
                        rules.boards,
                        points(most)
                    ),
                );
                continue;
            }
            let (expected, rule, what) = match &m.outcome {
                MatchOutcome::Pending => {
                    out.push(
                        &path,
                        None,
                        format!(
                            "{place}: the match has no board results, so the score {stated} cannot be kept; give its \"boards\", board 1 first"
                        ),
                    );
                    continue;
                }
                MatchOutcome::Boards(boards) => {
                    if boards.iter().any(|b| b.result == GameResult::Pending) {
                        out.push(
                            &path,
                            None,
                            format!(
                                "{place}: some boards are still `*`, so the match has no score yet; remove \"score\" or give every board's result"
                            ),
                        );
                        continue;
                    }
                    let sum = |side: Side| -> f64 {
                        boards
                            .iter()
                            .map(|b| scoring::game_points(rules, b.result.outcome_for(side)))
                            .sum()
                    };
                    (
                        (sum(Side::Home), sum(Side::Away)),
                        game_points_rule(rules),
                        "the boards add up to",
                    )
                }
                MatchOutcome::Forfeit { by } => {
                    let f = rules.forfeit_match;
                    let (w, l) = (f.winner.game_points, f.loser.game_points);
                    (
                        match by {
                            Side::Home => (l, w),
                            Side::Away => (w, l),
                        },
                        rules.cite("forfeit_match"),
                        "a forfeited match scores",
                    )
                }
                MatchOutcome::DoubleForfeit => {
                    let l = rules.forfeit_match.loser.game_points;
                    (
                        (l, l),
                        rules.cite("forfeit_match"),
                        "a double forfeit scores",
                    )
                }
            };
            if (expected.0 - h).abs() > 1e-9 || (expected.1 - a).abs() > 1e-9 {
                let cite = rule.map(|id| format!("{id}: ")).unwrap_or_default();
                out.push(
                    &path,
                    rule,
                    format!(
                        "{place}: {cite}the score {stated} is impossible: {what} {}-{}; correct the score or the results",
                        points(expected.0),
                        points(expected.1)
                    ),
                );
            }
        }
    }
}

/// `2.5-1.5`, `2½-1½`, `4-0`.
fn parse_score(s: &str) -> Option<(f64, f64)> {
    let (h, a) = s.trim().split_once('-')?;
    Some((parse_points(h)?, parse_points(a)?))
}

fn parse_points(s: &str) -> Option<f64> {
    let s = s.trim();
    let (whole, half) = match s.strip_suffix('½') {
        Some(w) => (w, 0.5),
        None => (s, 0.0),
    };
    let whole = if whole.is_empty() && half > 0.0 {
        0.0
    } else {
        let v: f64 = whole.parse().ok()?;
        if !v.is_finite() || v < 0.0 || whole.starts_with('+') {
            return None;
        }
        v
    };
    Some(whole + half)
}

/// `2.5`, `3`.
fn points(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{v:.0}")
    } else {
        format!("{v}")
    }
}

/// The file path of a core finding: its round, pairing and board.
fn finding_path(c: &Competition, f: &Finding) -> Vec<Seg<'static>> {
    let mut path = Vec::new();
    let Some(ri) = f
        .round
        .and_then(|n| c.rounds.iter().position(|r| r.number == n))
    else {
        return path;
    };
    path.extend([Seg::Key("rounds"), Seg::Index(ri)]);
    let Some(pi) = f.pairing else { return path };
    path.extend([Seg::Key("matches"), Seg::Index(pi)]);
    if let Some(b) = f.board {
        path.extend([
            Seg::Key("boards"),
            Seg::Index((b as usize).saturating_sub(1)),
        ]);
    }
    path
}

fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let before = text.get(..offset).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}

/// The byte offset of the place `path` names in a well-formed JSON text: a key's opening quote,
/// an array element's first character. `None` when the path is not in the text.
fn locate(text: &str, path: &[Seg]) -> Option<usize> {
    let b = text.as_bytes();
    let mut i = ws(b, 0);
    let mut found = i;
    for seg in path {
        match seg {
            Seg::Key(k) => {
                if b.get(i) != Some(&b'{') {
                    return None;
                }
                i = ws(b, i + 1);
                loop {
                    if b.get(i) != Some(&b'"') {
                        return None;
                    }
                    let key_at = i;
                    let (key, after) = json_string(b, i)?;
                    i = ws(b, after);
                    if b.get(i) != Some(&b':') {
                        return None;
                    }
                    i = ws(b, i + 1);
                    if key == *k {
                        found = key_at;
                        break;
                    }
                    i = ws(b, skip_value(b, i)?);
                    if b.get(i) != Some(&b',') {
                        return None;
                    }
                    i = ws(b, i + 1);
                }
            }
            Seg::Index(n) => {
                if b.get(i) != Some(&b'[') {
                    return None;
                }
                i = ws(b, i + 1);
                let mut at = 0;
                loop {
                    if b.get(i).is_none_or(|c| *c == b']') {
                        return None;
                    }
                    if at == *n {
                        found = i;
                        break;
                    }
                    i = ws(b, skip_value(b, i)?);
                    if b.get(i) != Some(&b',') {
                        return None;
                    }
                    i = ws(b, i + 1);
                    at += 1;
                }
            }
        }
    }
    Some(found)
}

fn ws(b: &[u8], mut i: usize) -> usize {
    while b.get(i).is_some_and(u8::is_ascii_whitespace) {
        i += 1;
    }
    i
}

/// A string starting at `i` (its opening quote): its text and the offset after it.
fn json_string(b: &[u8], i: usize) -> Option<(String, usize)> {
    let mut bytes = Vec::new();
    let mut j = i + 1;
    loop {
        match *b.get(j)? {
            b'"' => return Some((String::from_utf8_lossy(&bytes).into_owned(), j + 1)),
            b'\\' => {
                let e = *b.get(j + 1)?;
                j += 2;
                match e {
                    b'n' => bytes.push(b'\n'),
                    b't' => bytes.push(b'\t'),
                    b'r' => bytes.push(b'\r'),
                    b'b' => bytes.push(8),
                    b'f' => bytes.push(12),
                    b'u' => {
                        let hex = std::str::from_utf8(b.get(j..j + 4)?).ok()?;
                        let c = u32::from_str_radix(hex, 16)
                            .ok()
                            .and_then(char::from_u32)
                            .unwrap_or('\u{fffd}');
                        let mut buf = [0; 4];
                        bytes.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                        j += 4;
                    }
                    other => bytes.push(other),
                }
            }
            c => {
                bytes.push(c);
                j += 1;
            }
        }
    }
}

/// The offset after the value starting at `i`.
fn skip_value(b: &[u8], i: usize) -> Option<usize> {
    match *b.get(i)? {
        b'"' => json_string(b, i).map(|(_, end)| end),
        b'{' | b'[' => {
            let mut depth = 0usize;
            let mut j = i;
            loop {
                match *b.get(j)? {
                    b'"' => {
                        j = json_string(b, j)?.1;
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth -= 1;
                        if depth == 0 {
                            return Some(j + 1);
                        }
                    }
                    _ => {}
                }
                j += 1;
            }
        }
        _ => {
            let mut j = i;
            while b
                .get(j)
                .is_some_and(|c| !matches!(c, b',' | b'}' | b']') && !c.is_ascii_whitespace())
            {
                j += 1;
            }
            Some(j)
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Writing.

/// A JSON value in the order it is written; renders as compact JSON or as a TOML value.
#[derive(Debug, Clone, PartialEq)]
enum Out {
    /// A scalar already encoded; JSON's string, number and boolean forms are also TOML's.
    Raw(String),
    Arr(Vec<Out>),
    Obj(Vec<(String, Out)>),
}

impl Out {
    fn str(s: &str) -> Out {
        Out::Raw(json_str(s))
    }

    fn num(v: f64) -> Out {
        Out::Raw(serde_json::to_string(&v).unwrap_or_else(|_| "0".into()))
    }

    fn int(v: u32) -> Out {
        Out::Raw(v.to_string())
    }

    fn bool(v: bool) -> Out {
        Out::Raw(v.to_string())
    }

    fn obj(fields: Vec<(&str, Out)>) -> Out {
        Out::Obj(
            fields
                .into_iter()
                .map(|(k, v)| (k.to_string(), v))
                .collect(),
        )
    }

    /// `Err` for a null, which TOML cannot hold.
    fn from_json(v: &serde_json::Value) -> Result<Out, ()> {
        use serde_json::Value;
        Ok(match v {
            Value::Null => return Err(()),
            Value::Bool(b) => Out::bool(*b),
            Value::Number(n) => Out::Raw(n.to_string()),
            Value::String(s) => Out::str(s),
            Value::Array(a) => Out::Arr(a.iter().map(Out::from_json).collect::<Result<_, _>>()?),
            Value::Object(o) => Out::Obj(
                o.iter()
                    .map(|(k, v)| Ok((k.clone(), Out::from_json(v)?)))
                    .collect::<Result<_, _>>()?,
            ),
        })
    }

    fn json(&self) -> String {
        match self {
            Out::Raw(s) => s.clone(),
            Out::Arr(a) => format!(
                "[{}]",
                a.iter().map(Out::json).collect::<Vec<_>>().join(", ")
            ),
            Out::Obj(o) => format!(
                "{{{}}}",
                o.iter()
                    .map(|(k, v)| format!("{}: {}", json_str(k), v.json()))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        }
    }

    fn toml(&self) -> String {
        match self {
            Out::Raw(s) => s.clone(),
            Out::Arr(a) => format!(
                "[{}]",
                a.iter().map(Out::toml).collect::<Vec<_>>().join(", ")
            ),
            Out::Obj(o) => format!(
                "{{ {} }}",
                o.iter()
                    .map(|(k, v)| format!("{} = {}", toml_key(k), v.toml()))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        }
    }
}

fn json_str(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into())
}

/// A quoted TOML key (JSON's string escapes are TOML's basic-string escapes).
fn toml_key(k: &str) -> String {
    json_str(k)
}

/// Every field of a ruleset, in the order a ruleset file lists them.
fn ruleset_fields(r: &Ruleset) -> Vec<(&'static str, Out)> {
    let scale = |s: arbiter_core::ruleset::PointScale| {
        Out::obj(vec![
            ("win", Out::num(s.win)),
            ("draw", Out::num(s.draw)),
            ("loss", Out::num(s.loss)),
        ])
    };
    let mut f = vec![
        ("name", Out::str(&r.name)),
        ("description", Out::str(&r.description)),
        ("boards", Out::int(r.boards)),
    ];
    if let Some(m) = r.roster_max {
        f.push(("roster_max", Out::int(m)));
    }
    f.push(("game_points", scale(r.game_points)));
    f.push(("match_points", scale(r.match_points)));
    f.push((
        "criteria",
        Out::Arr(
            r.criteria
                .iter()
                .map(|c| match &c.rule {
                    None => Out::str(&c.code),
                    Some(rule) => {
                        Out::obj(vec![("code", Out::str(&c.code)), ("rule", Out::str(rule))])
                    }
                })
                .collect(),
        ),
    ));
    let fm = r.forfeit_match;
    f.push((
        "forfeit_match",
        Out::obj(vec![
            ("winner_match_points", Out::num(fm.winner.match_points)),
            ("winner_game_points", Out::num(fm.winner.game_points)),
            ("loser_match_points", Out::num(fm.loser.match_points)),
            ("loser_game_points", Out::num(fm.loser.game_points)),
            ("rated", Out::bool(fm.rated)),
        ]),
    ));
    f.push((
        "bye",
        Out::obj(vec![
            ("match_points", Out::num(r.bye.match_points)),
            ("game_points", Out::num(r.bye.game_points)),
        ]),
    ));
    f.push((
        "white_on_odd_boards",
        Out::str(match r.white_on_odd_boards {
            Side::Home => "home",
            Side::Away => "away",
        }),
    ));
    if let Some(d) = r.drop {
        f.push((
            "drop",
            Out::obj(vec![
                ("after_match_forfeits", Out::int(d.after_match_forfeits)),
                (
                    "exclude_when_played_under_half",
                    Out::bool(d.exclude_when_played_under_half),
                ),
                (
                    "remaining_matches_forfeited",
                    Out::bool(d.remaining_matches_forfeited),
                ),
            ]),
        ));
    }
    if let Some(d) = r.report {
        f.push((
            "report",
            Out::obj(vec![
                ("enter_within_days", Out::int(d.enter_within)),
                ("confirm_within_days", Out::int(d.confirm_within)),
            ]),
        ));
    }
    if let Some(s) = &r.shared_places_rule {
        f.push(("shared_places_rule", Out::str(s)));
    }
    f.push((
        "short_team_plays_top_boards",
        Out::bool(r.short_team_plays_top_boards),
    ));
    if !r.citations.is_empty() {
        f.push((
            "cite",
            Out::obj(
                r.citations
                    .iter()
                    .map(|(k, v)| (k.as_str(), Out::str(v)))
                    .collect(),
            ),
        ));
    }
    let mut fide = Vec::new();
    if let Some(e) = r.fide.edition {
        fide.push((
            "edition",
            Out::str(match e {
                FideEdition::Aug2024 => "2024-08",
                FideEdition::Mar2026 => "2026-03",
            }),
        ));
    }
    if let Some(rr) = r.fide.round_robin {
        fide.push(("round_robin", Out::bool(rr)));
    }
    if !fide.is_empty() {
        f.push(("fide", Out::obj(fide)));
    }
    f
}

fn toml_document(fields: &[(String, Out)]) -> String {
    fields
        .iter()
        .map(|(k, v)| format!("{} = {}\n", toml_key(k), v.toml()))
        .collect()
}

/// What `"rules"` says for a ruleset: a preset's name when it is one, else the shortest inline
/// ruleset (`extends` a preset and the fields that differ) that reads back to it exactly.
fn rules_value(r: &Ruleset) -> Out {
    let reads_back = |fields: &[(String, Out)]| {
        Ruleset::from_toml("rules", &toml_document(fields), &PresetsOnly)
            .ok()
            .as_ref()
            == Some(r)
    };
    let own: Vec<(String, Out)> = ruleset_fields(r)
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect();
    let mut best: Option<Vec<(String, Out)>> = None;
    for (name, _) in PRESETS {
        let Some(base) = Ruleset::preset(name) else {
            continue;
        };
        if &base == r {
            return Out::str(name);
        }
        let base_fields = ruleset_fields(&base);
        let mut patch = vec![("extends".to_string(), Out::str(name))];
        for (k, v) in &own {
            if base_fields.iter().find(|(bk, _)| bk == k).map(|(_, bv)| bv) != Some(v) {
                patch.push((k.clone(), v.clone()));
            }
        }
        if base.drop.is_some() && r.drop.is_none() {
            patch.push(("drop".into(), Out::obj(vec![("enabled", Out::bool(false))])));
        }
        if base.report.is_some() && r.report.is_none() {
            patch.push((
                "report".into(),
                Out::obj(vec![("enabled", Out::bool(false))]),
            ));
        }
        if reads_back(&patch) && best.as_ref().is_none_or(|b| patch.len() < b.len()) {
            best = Some(patch);
        }
    }
    Out::Obj(best.unwrap_or(own))
}

/// Writes a competition file (`arbiter/competition@1`) that reads back to the same model:
/// `rules` as a preset name or an inline ruleset, `tiebreaks` when there are any.
pub fn write(c: &Competition, rules: &Ruleset, tiebreaks: &[CriterionSpec]) -> String {
    let mut s = String::new();
    s.push_str("{\n");
    s.push_str(&format!("  \"format\": {},\n", json_str(FORMAT)));
    s.push_str(&format!("  \"name\": {},\n", json_str(&c.name)));
    match rules_value(rules) {
        Out::Obj(fields) => {
            s.push_str("  \"rules\": {\n");
            let n = fields.len();
            for (i, (k, v)) in fields.iter().enumerate() {
                s.push_str(&format!(
                    "    {}: {}{}\n",
                    json_str(k),
                    v.json(),
                    if i + 1 < n { "," } else { "" }
                ));
            }
            s.push_str("  },\n");
        }
        other => s.push_str(&format!("  \"rules\": {},\n", other.json())),
    }
    if !tiebreaks.is_empty() {
        let codes: Vec<Out> = tiebreaks.iter().map(|t| Out::str(&t.code)).collect();
        s.push_str(&format!("  \"tiebreaks\": {},\n", Out::Arr(codes).json()));
    }
    s.push_str("  \"teams\": [");
    for (i, t) in c.teams.iter().enumerate() {
        s.push_str(if i == 0 { "\n" } else { ",\n" });
        let mut head = vec![("id", Out::str(&t.id.0)), ("name", Out::str(&t.name))];
        if let Some(school) = &t.school {
            head.push(("school", Out::str(school)));
        }
        let head = Out::obj(head).json();
        let head = head.strip_suffix('}').unwrap_or(&head);
        if t.players.is_empty() {
            s.push_str(&format!("    {head}, \"players\": []}}"));
            continue;
        }
        s.push_str(&format!("    {head}, \"players\": [\n"));
        for (j, p) in t.players.iter().enumerate() {
            let mut f = vec![("id", Out::str(&p.id.0)), ("name", Out::str(&p.name))];
            if let Some(r) = p.rating {
                f.push(("rating", Out::int(r)));
            }
            if p.provisional {
                f.push(("provisional", Out::bool(true)));
            }
            s.push_str(&format!(
                "      {}{}\n",
                Out::obj(f).json(),
                if j + 1 < t.players.len() { "," } else { "" }
            ));
        }
        s.push_str("    ]}");
    }
    s.push_str(if c.teams.is_empty() {
        "],\n"
    } else {
        "\n  ],\n"
    });
    s.push_str("  \"rounds\": [");
    for (i, r) in c.rounds.iter().enumerate() {
        s.push_str(if i == 0 { "\n" } else { ",\n" });
        let mut head = vec![("round", Out::int(r.number))];
        if let Some(d) = r.date {
            head.push(("date", Out::str(&d.to_string())));
        }
        let head = Out::obj(head).json();
        let head = head.strip_suffix('}').unwrap_or(&head);
        if r.pairings.is_empty() {
            s.push_str(&format!("    {head}, \"matches\": []}}"));
            continue;
        }
        s.push_str(&format!("    {head}, \"matches\": [\n"));
        for (j, p) in r.pairings.iter().enumerate() {
            s.push_str("      ");
            s.push_str(&pairing_json(p, rules));
            s.push_str(if j + 1 < r.pairings.len() {
                ",\n"
            } else {
                "\n"
            });
        }
        s.push_str("    ]}");
    }
    s.push_str(if c.rounds.is_empty() {
        "]\n"
    } else {
        "\n  ]\n"
    });
    s.push_str("}\n");
    s
}

fn pairing_json(p: &Pairing, rules: &Ruleset) -> String {
    let m = match p {
        Pairing::Bye(b) => {
            let mut f = vec![("bye", Out::str(&b.team.0))];
            let kind = match b.kind {
                ByeKind::PairingAllocated => None,
                ByeKind::FullPoint => Some("full"),
                ByeKind::HalfPoint => Some("half"),
                ByeKind::ZeroPoint => Some("zero"),
            };
            if let Some(k) = kind {
                f.push(("kind", Out::str(k)));
            }
            return Out::obj(f).json();
        }
        Pairing::Match(m) => m,
    };
    let mut f = vec![("home", Out::str(&m.home.0)), ("away", Out::str(&m.away.0))];
    match &m.outcome {
        MatchOutcome::Pending => {}
        MatchOutcome::Forfeit { by } => f.push((
            "forfeit",
            Out::str(match by {
                Side::Home => "home",
                Side::Away => "away",
            }),
        )),
        MatchOutcome::DoubleForfeit => f.push(("double_forfeit", Out::bool(true))),
        MatchOutcome::Boards(boards) => {
            if !boards.is_empty() && boards.iter().all(|b| b.result != GameResult::Pending) {
                let sum = |side: Side| -> f64 {
                    boards
                        .iter()
                        .map(|b| scoring::game_points(rules, b.result.outcome_for(side)))
                        .sum()
                };
                f.push((
                    "score",
                    Out::str(&format!(
                        "{}-{}",
                        points(sum(Side::Home)),
                        points(sum(Side::Away))
                    )),
                ));
            }
            let head = Out::obj(f).json();
            let head = head.strip_suffix('}').unwrap_or(&head);
            let lines: Vec<String> = boards
                .iter()
                .map(|b| format!("        {}", board_json(b)))
                .collect();
            return format!("{head}, \"boards\": [\n{}\n      ]}}", lines.join(",\n"));
        }
    }
    Out::obj(f).json()
}

fn board_json(b: &Board) -> String {
    let mut f = vec![("result", Out::str(b.result.code()))];
    if let Some(r) = b.rating_result {
        f.push(("rating_result", Out::str(r.code())));
    }
    if let Some(p) = &b.home_player {
        f.push(("home_player", Out::str(&p.0)));
    }
    if let Some(p) = &b.away_player {
        f.push(("away_player", Out::str(&p.0)));
    }
    if let Some(c) = b.home_colour {
        f.push((
            "home_colour",
            Out::str(match c {
                Colour::White => "white",
                Colour::Black => "black",
            }),
        ));
    }
    Out::obj(f).json()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locate_finds_keys_and_elements() {
        let text = "{\n  \"a\": [1, {\"b\": \"x\\\"y\"}, [2]],\n  \"c\": {\"d\": true}\n}";
        let at = |p: &[Seg]| locate(text, p).map(|o| line_column(text, o));
        assert_eq!(at(&[Seg::Key("c"), Seg::Key("d")]), Some((3, 9)));
        assert_eq!(
            at(&[Seg::Key("a"), Seg::Index(1), Seg::Key("b")]),
            Some((2, 13))
        );
        assert_eq!(at(&[Seg::Key("a"), Seg::Index(2)]), Some((2, 27)));
        assert_eq!(at(&[Seg::Key("a"), Seg::Index(3)]), None);
        assert_eq!(at(&[Seg::Key("z")]), None);
    }

    #[test]
    fn scores_in_decimals_and_halves() {
        assert_eq!(parse_score("2.5-1.5"), Some((2.5, 1.5)));
        assert_eq!(parse_score("2½-1½"), Some((2.5, 1.5)));
        assert_eq!(parse_score("½-3½"), Some((0.5, 3.5)));
        assert_eq!(parse_score("4-0"), Some((4.0, 0.0)));
        assert_eq!(parse_score("4:0"), None);
        assert_eq!(parse_score("-1-5"), None);
    }

    #[test]
    fn every_preset_is_written_by_name() {
        for name in arbiter_core::ruleset::preset_names() {
            let r = Ruleset::preset(name).unwrap();
            assert_eq!(rules_value(&r), Out::str(name));
        }
    }

    #[test]
    fn fide_settings_are_written() {
        let mut r = Ruleset::preset("fide-team").unwrap();
        r.fide.edition = Some(FideEdition::Aug2024);
        r.fide.round_robin = Some(true);
        assert_eq!(
            rules_value(&r).json(),
            r#"{"extends": "fide-team", "fide": {"edition": "2024-08", "round_robin": true}}"#
        );
    }

    #[test]
    fn a_changed_preset_is_written_as_extends_and_the_change() {
        let mut r = Ruleset::preset("gthscl").unwrap();
        r.boards = 3;
        r.drop = None;
        let v = rules_value(&r);
        assert_eq!(
            v.json(),
            r#"{"extends": "gthscl", "boards": 3, "drop": {"enabled": false}}"#
        );
    }

    #[test]
    fn gt_p2_report_deadlines_are_written_when_they_differ_from_the_preset() {
        let mut r = Ruleset::preset("gthscl").unwrap();
        r.report = None;
        assert_eq!(
            rules_value(&r).json(),
            r#"{"extends": "gthscl", "report": {"enabled": false}}"#
        );
        let mut a = Ruleset::preset("astc").unwrap();
        a.report = Some(arbiter_core::report::Deadlines {
            enter_within: 2,
            confirm_within: 5,
        });
        let v = rules_value(&a).json();
        assert!(
            v.contains(r#""report": {"enter_within_days": 2, "confirm_within_days": 5}"#),
            "{v}"
        );
    }
}
