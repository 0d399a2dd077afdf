//! The native competition file, `arbiter/competition@1` (docs/competition-json.md).
//!
//! Reading is in two passes: serde (with `deny_unknown_fields`) checks the shape and gives
//! line and column for every syntax error; then the model is built and checked against its
//! ruleset (`arbiter_core::rules::validate`), and each finding is pointed back to its place in the file.

use std::fmt;

use arbiter_core::record::model::{
    AdjudicationPosition, Board, Bye, ByeKind, Colour, Competition, ExtraGame, ExtraKind,
    GameResult, Match, MatchOutcome, Pairing, PersonId, Player, PlayerId, RatingRecord, Round,
    Side, Team, TeamId, Unfinished, Unplayed,
};
use arbiter_core::rules::criteria::CriterionSpec;
use arbiter_core::rules::ruleset::{PRESETS, PresetsOnly, Ruleset, RulesetDocument, RulesetSource};
use arbiter_core::rules::validate::{self, Finding};
use arbiter_core::scoring;
use arbiter_core::season::game;
use arbiter_core::season::late::LateArrival;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// The value of the `format` field.
pub const FORMAT: &str = "arbiter/competition@1";

/// A competition file read and checked.
#[derive(Debug, Clone, PartialEq)]
pub struct LoadedCompetition {
    /// The teams, rounds, matches and boards the file records.
    pub competition: Competition,
    /// The ruleset `"rules"` names (a preset, a ruleset file, or a document inline), as checked.
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

/// One thing wrong with a competition file: a syntax error, a shape serde refuses, a broken rule.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Problem {
    /// 1-based line in the file, when the problem has a place.
    pub line: Option<usize>,
    /// 1-based column in the file, when the problem has a place.
    pub column: Option<usize>,
    /// The rule ID, for a problem that breaks a rule.
    pub rule: Option<String>,
    /// The sentence, with its round, match and board (`round 3, vic v nsw, board 2: GT-M10: …`).
    pub message: String,
    /// The round, match (home and away team ids) and board it is at, when it is at one.
    pub round: Option<u32>,
    /// The match's home team id.
    pub home: Option<String>,
    /// The match's away team id.
    pub away: Option<String>,
    /// 1-based.
    pub board: Option<u32>,
}

impl JsonError {
    fn new(origin: &str, problems: Vec<Problem>) -> JsonError {
        JsonError {
            origin: origin.to_string(),
            problems,
        }
    }

    /// Problems of a file read as rows: at their lines.
    pub(crate) fn rows(origin: &str, problems: Vec<Problem>) -> JsonError {
        JsonError::new(origin, problems)
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
// The file as written: what the reader reads and the writer writes, field for field.

#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct FileJson {
    format: Option<String>,
    name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    rules: Option<Value>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    tiebreaks: Vec<String>,
    #[serde(default)]
    teams: Vec<TeamJson>,
    #[serde(default)]
    rounds: Vec<RoundJson>,
}

#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct TeamJson {
    id: String,
    name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    school: Option<String>,
    #[serde(default)]
    players: Vec<PlayerJson>,
}

#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct PlayerJson {
    id: String,
    name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    person: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    rating: Option<u32>,
    #[serde(default, skip_serializing_if = "is_false")]
    provisional: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    birth_date: Option<jiff::civil::Date>,
    #[serde(skip_serializing_if = "Option::is_none")]
    rated_games: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    k: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    federation_id: Option<String>,
    #[serde(default, skip_serializing_if = "is_false")]
    unranked: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    school: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    withdrawn: Option<jiff::civil::Date>,
}

#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct RoundJson {
    round: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    date: Option<jiff::civil::Date>,
    #[serde(default)]
    matches: Vec<PairingJson>,
}

/// A match or a bye; which fields may go together is checked after parsing, with the place.
#[derive(Debug, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct PairingJson {
    #[serde(skip_serializing_if = "Option::is_none")]
    bye: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    kind: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    home: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    away: Option<String>,
    /// A match's own day, when it is not its round's (GT-M2: moved, or a round over several days).
    #[serde(skip_serializing_if = "Option::is_none")]
    date: Option<jiff::civil::Date>,
    /// The time a match starts (`"15:45"`), when its home advisor has arranged it (GT-M1).
    #[serde(skip_serializing_if = "Option::is_none")]
    start: Option<jiff::civil::Time>,
    #[serde(skip_serializing_if = "Option::is_none")]
    forfeit: Option<String>,
    #[serde(default, skip_serializing_if = "is_false")]
    double_forfeit: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    score: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    boards: Option<Vec<BoardJson>>,
    /// GT-P3: games beside the match, outside its score.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    extra_games: Vec<ExtraGameJson>,
    /// GT-M6, GT-S3: the referee's report of a team that came late.
    #[serde(skip_serializing_if = "Option::is_none")]
    late: Option<LateJson>,
}

/// GT-M6, GT-S3: `{"team": "away", "school_day_ends": "15:30", "clocks_started": "16:30",
/// "arrived": "16:50"}`.
#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct LateJson {
    team: String,
    school_day_ends: jiff::civil::Time,
    #[serde(skip_serializing_if = "Option::is_none")]
    clocks_started: Option<jiff::civil::Time>,
    #[serde(skip_serializing_if = "Option::is_none")]
    arrived: Option<jiff::civil::Time>,
    #[serde(default, skip_serializing_if = "is_false")]
    arranged: bool,
}

/// GT-P3: a challenge game (GT-R5) or an unranked game (GT-R7) recorded with a match.
#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct ExtraGameJson {
    white: String,
    black: String,
    /// From White's side.
    result: String,
    /// `challenge` or `unranked`.
    kind: String,
}

#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct BoardJson {
    result: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    rating_result: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    home_player: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    away_player: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    home_colour: Option<String>,
    #[serde(default, skip_serializing_if = "UnplayedJson::is_not")]
    unplayed: UnplayedJson,
    /// GT-M17: what happened, for a board forfeited for conduct.
    #[serde(skip_serializing_if = "Option::is_none")]
    note: Option<String>,
    /// GT-M20: the day an adjourned game resumes.
    #[serde(skip_serializing_if = "Option::is_none")]
    adjourned_to: Option<String>,
    /// GT-M20: the position of a game sent for adjudication.
    #[serde(skip_serializing_if = "Option::is_none")]
    adjudication: Option<AdjudicationJson>,
}

/// GT-M20: a game sent for adjudication: its moves and the position they reach.
#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct AdjudicationJson {
    pgn: String,
    fen: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    home_clock: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    away_clock: Option<String>,
}

/// `"unplayed"`: `true` (a game never played, why not said) or the kind (`"coach"`, …).
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq)]
#[serde(untagged)]
enum UnplayedJson {
    Flag(bool),
    Kind(String),
}

impl Default for UnplayedJson {
    fn default() -> Self {
        UnplayedJson::Flag(false)
    }
}

impl UnplayedJson {
    fn is_not(&self) -> bool {
        *self == UnplayedJson::Flag(false)
    }
}

fn is_false(b: &bool) -> bool {
    !*b
}

// ---------------------------------------------------------------------------------------------
// Reading.

/// A step of a path into the JSON document, to find a place for a message.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Seg<'a> {
    Key(&'a str),
    Index(usize),
}

/// Problems found while building, each with the path of its place.
struct Collected<'t> {
    text: &'t str,
    problems: Vec<(Option<usize>, Problem)>,
    /// The ruleset's `[cite]` table, once it is read: the league's own rule IDs.
    cites: std::collections::BTreeMap<String, String>,
}

impl Collected<'_> {
    /// The league's own ID for the rule of ruleset field `field` (`forfeit_match`: GT-M7 in
    /// GTHSCL), when it cites one.
    fn cite(&self, field: &str) -> Option<String> {
        self.cites.get(field).cloned()
    }

    /// `"GT-M7: "`: the league's ID for `field` before a sentence, or nothing.
    fn prefix(&self, field: &str) -> String {
        self.cites
            .get(field)
            .map(|id| format!("{id}: "))
            .unwrap_or_default()
    }

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
                ..Problem::default()
            },
        ));
    }

    /// A finding of the record's checks, with its rule and its place in the record.
    fn finding(&mut self, path: &[Seg], f: &Finding) {
        self.push(path, f.rule.as_deref(), f.to_string());
        if let Some((_, p)) = self.problems.last_mut() {
            p.round = f.round;
            p.home = f.home.as_ref().map(|t| t.0.clone());
            p.away = f.away.as_ref().map(|t| t.0.clone());
            p.board = f.board;
        }
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
        cites: Default::default(),
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
    if let Some(r) = &rules {
        out.cites = r.citations.clone();
    }
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

pub(crate) fn syntax_problem(e: &serde_json::Error) -> Problem {
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
        ..Problem::default()
    }
}

/// `"rules"`: a preset name, a ruleset file (through `source`), or an inline ruleset.
fn load_rules(
    origin: &str,
    value: Option<&Value>,
    source: &dyn RulesetSource,
    out: &mut Collected,
) -> Option<Ruleset> {
    let here = [Seg::Key("rules")];
    let presets = arbiter_core::rules::ruleset::preset_names().join(", ");
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
        Some(Value::String(name)) => {
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
        Some(Value::Object(map)) => {
            let inline_origin = format!("{origin} (rules)");
            let toml = match InlineToml::new(map) {
                Ok(doc) => doc,
                Err(k) => {
                    out.push(
                        &[Seg::Key("rules"), Seg::Key(k)],
                        None,
                        format!(
                            "rules.{k}: null is not a value here; leave the field out to inherit it"
                        ),
                    );
                    return None;
                }
            };
            match Ruleset::from_toml(&inline_origin, &toml.text, source) {
                Ok(r) => Some(r),
                Err(e) if e.origin != inline_origin => {
                    // The problem is in a file the inline ruleset extends.
                    out.push(&here, None, format!("rules: {e}"));
                    None
                }
                Err(e) => {
                    let key = e.line.and_then(|l| toml.key_at(l));
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
                    person: p.person.clone().map(PersonId),
                    rating: p.rating,
                    provisional: p.provisional,
                    record: RatingRecord {
                        birth_date: p.birth_date,
                        rated_games: p.rated_games,
                        k: p.k,
                        federation_id: p.federation_id.clone(),
                    },
                    unranked: p.unranked,
                    school: p.school.clone(),
                    withdrawn: p.withdrawn,
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
            ("date", p.date.is_some()),
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
        let kind = match p
            .kind
            .as_deref()
            .map(|code| (code, ByeKind::from_code(code)))
        {
            None => ByeKind::PairingAllocated,
            Some((_, Some(kind))) => kind,
            Some((other, None)) => {
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
            out.cite("forfeit_match").as_deref(),
            format!(
                "{label}: {cite}the match has {}; a match is played on its boards, forfeited by one team, or double forfeited, only one of them",
                given
                    .iter()
                    .map(|k| format!("`{k}`"))
                    .collect::<Vec<_>>()
                    .join(" and "), cite = out.prefix("forfeit_match")),
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
        match Side::from_code(side) {
            Some(by) => MatchOutcome::Forfeit { by },
            None => {
                let other = side;
                let mut at = path.to_vec();
                at.push(Seg::Key("forfeit"));
                out.push(
                    &at,
                    out.cite("forfeit_match").as_deref(),
                    format!(
                        "{label}: {cite}\"forfeit\" is the side that forfeited the match, \"home\" or \"away\", not `{other}`; when both teams forfeited, write \"double_forfeit\": true", cite = out.prefix("forfeit_match")),
                );
                MatchOutcome::Pending
            }
        }
    } else if p.double_forfeit {
        MatchOutcome::DoubleForfeit
    } else {
        MatchOutcome::Pending
    };
    let late = p.late.as_ref().and_then(|l| {
        let mut at = path.to_vec();
        at.push(Seg::Key("late"));
        let Some(team) = Side::from_code(&l.team) else {
            out.push(
                &at,
                out.cite("late_arrival").as_deref(),
                format!(
                    "{label}: {cite}\"late\" names the team that came late, \"home\" or \"away\", not `{}`",
                    l.team, cite = out.prefix("late_arrival")),
            );
            return None;
        };
        let late = LateArrival {
            team,
            school_day_ends: l.school_day_ends,
            clocks_started: l.clocks_started,
            arrived: l.arrived,
            arranged: l.arranged,
        };
        let name = if team == Side::Home { home } else { away };
        if let Err(m) = late.check_outcome(&outcome, name) {
            out.push(&at, out.cite("late_arrival").as_deref(), format!("{label}: {m}"));
            return None;
        }
        Some(late)
    });
    Some(Pairing::Match(Match {
        date: p.date,
        home: TeamId(home.clone()),
        away: TeamId(away.clone()),
        late,
        outcome,
        start: p.start,
        extra_games: p
            .extra_games
            .iter()
            .enumerate()
            .filter_map(|(i, g)| {
                let mut at = path.to_vec();
                at.push(Seg::Key("extra_games"));
                at.push(Seg::Index(i));
                let place = format!("{label}, extra game {}", i + 1);
                let result = GameResult::parse(&g.result).filter(|r| r.is_played());
                let kind = ExtraKind::from_code(&g.kind);
                if result.is_none() {
                    out.push(
                        &at,
                        out.cite("extra_games").as_deref(),
                        format!(
                            "{place}: {cite}an extra game is recorded as played, from White's side: \"1-0\", \"1/2-1/2\" or \"0-1\", not `{}`",
                            g.result, cite = out.prefix("extra_games")),
                    );
                }
                if kind.is_none() {
                    out.push(
                        &at,
                        out.cite("extra_games").as_deref(),
                        format!(
                            "{place}: \"kind\" is \"challenge\" (rated, GT-R5) or \"unranked\" (counting for nothing, GT-R7), not `{}`",
                            g.kind
                        ),
                    );
                }
                Some(ExtraGame {
                    white: PlayerId(g.white.clone()),
                    black: PlayerId(g.black.clone()),
                    result: result?,
                    kind: kind?,
                    entered_by: None,
                    events: Vec::new(),
                })
            })
            .collect(),
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
    let mut unplayed = match &b.unplayed {
        UnplayedJson::Flag(false) => None,
        UnplayedJson::Flag(true) => match result {
            GameResult::Draw => Some(Unplayed::AgreedDraw),
            GameResult::DoubleForfeit => Some(Unplayed::DoubleDefault),
            _ => None,
        },
        UnplayedJson::Kind(kind) => match Unplayed::from_code(kind, b.note.as_deref()) {
            Some(Unplayed::Conduct { note }) if note.trim().is_empty() => {
                out.push(
                    &field("note"),
                    out.cite("conduct_forfeit").as_deref(),
                    format!(
                        "{place}: {cite}a board forfeited for conduct needs its \"note\": the warning, and what went on after it", cite = out.prefix("conduct_forfeit")),
                );
                None
            }
            Some(u) => Some(u),
            None => {
                out.push(
                    &field("unplayed"),
                    None,
                    format!(
                        "{place}: \"unplayed\" is true or the way the board went unplayed: \"absent\" (GT-M9), \"coach\" (GT-M16), \"conduct\" (GT-M17), \"double_default\" or \"agreed_draw\" (GT-M4), not `{kind}`"
                    ),
                );
                None
            }
        },
    };
    if b.unplayed != UnplayedJson::Flag(false) {
        match result {
            GameResult::Draw => {
                result = GameResult::DoubleForfeit;
                unplayed = Some(Unplayed::AgreedDraw);
                warnings.push(
                    Finding::warning(
                        Some("GT-M4"),
                        "an agreed draw of an unplayed game is not permitted; it is stored as a double default (-/-), no point for either team",
                    )
                    .at(round, pairing, label.clone(), Some(board))
                    .between(home, away),
                );
            }
            GameResult::HomeWin | GameResult::AwayWin => out.push(
                &field("unplayed"),
                out.cite("double_default").as_deref(),
                format!(
                    "{place}: {cite}an unplayed game is won by default, not over the board; write \"+/-\" (the away player did not play) or \"-/+\" instead of `{}`",
                    b.result, cite = out.prefix("double_default")),
            ),
            GameResult::Pending => out.push(
                &field("unplayed"),
                out.cite("double_default").as_deref(),
                format!(
                    "{place}: {cite}`*` is a game still to be played; an unplayed game is scored by default: write \"+/-\", \"-/+\" or \"-/-\"", cite = out.prefix("double_default")),
            ),
            // A kind beside a forfeit: the one the kind scores (GT-S2).
            forfeit => {
                if let Some(u) = unplayed.take_if(|u| !u.fits(forfeit)) {
                    out.push(
                        &field("result"),
                        out.cite(u.cite_key()).as_deref(),
                        format!(
                            "{place}: a board {} is scored {}, not `{}` (GT-S2)",
                            u.words(out.cite(u.cite_key()).as_deref()),
                            if u.fits(GameResult::DoubleForfeit) {
                                "\"-/-\""
                            } else {
                                "\"+/-\" or \"-/+\""
                            },
                            b.result
                        ),
                    );
                }
            }
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
                    out.cite("rating_result").as_deref(),
                    format!(
                        "{place}: {cite}`{code}` is not a rating result; write the result over the board, 1-0, 1/2-1/2 or 0-1", cite = out.prefix("rating_result")),
                );
                None
            }
        });
    let home_colour = match b
        .home_colour
        .as_deref()
        .map(|code| (code, Colour::from_code(code)))
    {
        None => None,
        Some((_, Some(colour))) => Some(colour),
        Some((other, None)) => {
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
    let unfinished = unfinished(b, &place, path, out);
    Board {
        result,
        rating_result,
        home_player: b.home_player.clone().map(PlayerId),
        away_player: b.away_player.clone().map(PlayerId),
        home_colour,
        unplayed,
        unfinished,
    }
}

/// GT-M20: a board's unfinished game, as the file records it: the day it resumes, or the
/// position sent for adjudication, its moves checked to reach it.
fn unfinished(b: &BoardJson, place: &str, path: &[Seg], out: &mut Collected) -> Option<Unfinished> {
    let field = |key: &'static str| {
        let mut at = path.to_vec();
        at.push(Seg::Key(key));
        at
    };
    if let Some(day) = &b.adjourned_to {
        return match day.parse::<jiff::civil::Date>() {
            Ok(resume_on) => Some(Unfinished::Adjourned { resume_on }),
            Err(_) => {
                out.push(
                    &field("adjourned_to"),
                    out.cite("adjourned").as_deref(),
                    format!("{place}: \"adjourned_to\" is the day the game resumes, YYYY-MM-DD, not `{day}`"),
                );
                None
            }
        };
    }
    let a = b.adjudication.as_ref()?;
    match game::read_position(&a.pgn, &a.fen) {
        Ok(_) => Some(Unfinished::Adjudication(AdjudicationPosition {
            pgn: a.pgn.clone(),
            fen: a.fen.clone(),
            home_clock: a.home_clock.clone(),
            away_clock: a.away_clock.clone(),
        })),
        Err(p) => {
            out.push(
                &field("adjudication"),
                out.cite("adjourned").as_deref(),
                format!(
                    "{place}: {cite}{}",
                    p.message(),
                    cite = out.prefix("adjourned")
                ),
            );
            None
        }
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

pub(crate) fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let before = text.get(..offset).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}

/// The byte offset of the place `path` names in a well-formed JSON text: a key's opening quote,
/// an array element's first character. `None` when the path is not in the text.
pub(crate) fn locate(text: &str, path: &[Seg]) -> Option<usize> {
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

/// An inline ruleset as the ruleset document the reader reads.
struct InlineToml<'a> {
    text: String,
    /// Each key of the inline ruleset with the line (1-based) it starts on, in line order.
    starts: Vec<(usize, &'a str)>,
}

impl<'a> InlineToml<'a> {
    /// `toml`'s serializer writes each key with its value; keys with plain values come first
    /// and tables after, as TOML needs. `Err` names a key whose value holds a null, which TOML
    /// cannot.
    fn new(map: &'a Map<String, Value>) -> Result<InlineToml<'a>, &'a str> {
        let mut plain = Vec::new();
        let mut tables = Vec::new();
        for (k, v) in map {
            let one = std::collections::BTreeMap::from([(k.as_str(), v)]);
            // A null is the one JSON value TOML's serializer refuses.
            let text = toml::to_string(&one).map_err(|_| k.as_str())?;
            if text.starts_with('[') {
                tables.push((k.as_str(), text));
            } else {
                plain.push((k.as_str(), text));
            }
        }
        let mut out = InlineToml {
            text: String::new(),
            starts: Vec::new(),
        };
        for (k, text) in plain.into_iter().chain(tables) {
            out.starts.push((out.text.matches('\n').count() + 1, k));
            out.text.push_str(&text);
            if !out.text.ends_with('\n') {
                out.text.push('\n');
            }
        }
        Ok(out)
    }

    /// The key whose lines hold `line`.
    fn key_at(&self, line: usize) -> Option<&'a str> {
        self.starts
            .iter()
            .rev()
            .find(|(start, _)| *start <= line)
            .map(|(_, k)| *k)
    }
}

/// A ruleset document as the competition file holds it: a JSON object in the ruleset file's
/// order.
fn document_json(d: &RulesetDocument) -> Map<String, Value> {
    match serde_json::to_value(d) {
        Ok(Value::Object(m)) => m,
        // A struct of options, strings and numbers serializes as an object.
        _ => Map::new(),
    }
}

/// Whether the inline ruleset `map` reads, as the reader reads it, to `r`.
fn reads_back(map: &Map<String, Value>, r: &Ruleset) -> bool {
    InlineToml::new(map)
        .ok()
        .and_then(|toml| Ruleset::from_toml("rules", &toml.text, &PresetsOnly).ok())
        .as_ref()
        == Some(r)
}

/// A ruleset as a file names it.
enum Rules {
    Preset(&'static str),
    Document(Box<RulesetDocument>),
}

/// A preset's name when the ruleset is one, else the shortest document (`extends` a preset and
/// the fields that differ) that reads back to it exactly as an inline ruleset, else every field.
fn shortest_rules(r: &Ruleset) -> Rules {
    let own = RulesetDocument::from(r);
    let mut best: Option<(usize, RulesetDocument)> = None;
    for (name, _) in PRESETS {
        let Some(base) = Ruleset::preset(name) else {
            continue;
        };
        if &base == r {
            return Rules::Preset(name);
        }
        let patch = own.changes_from(name, &RulesetDocument::from(&base));
        let fields = document_json(&patch);
        if reads_back(&fields, r) && best.as_ref().is_none_or(|(n, _)| fields.len() < *n) {
            best = Some((fields.len(), patch));
        }
    }
    Rules::Document(Box::new(best.map_or(own, |(_, patch)| patch)))
}

/// What `"rules"` says for a ruleset ([`shortest_rules`]).
fn rules_value(r: &Ruleset) -> Value {
    match shortest_rules(r) {
        Rules::Preset(name) => Value::String(name.to_string()),
        Rules::Document(d) => Value::Object(document_json(&d)),
    }
}

/// How a ruleset is written where a file or a table keeps it: by a preset's name, or as a
/// ruleset document (TOML) that reads back to it exactly.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WrittenRules {
    /// By a preset's name (`gthscl`).
    Preset(String),
    /// As a ruleset document (TOML) that extends a preset and reads back to the ruleset exactly.
    Toml(String),
}

/// The ruleset as [`write()`] names it: a preset's name, or the same document as a ruleset file
/// (TOML, `RulesetDocument::to_toml`), as the store keeps it. `Err` when no document that
/// extends a preset reads back to it (it extends a ruleset file that is not a preset), with the
/// sentence.
pub fn written_rules(r: &Ruleset) -> Result<WrittenRules, String> {
    match shortest_rules(r) {
        Rules::Preset(name) => Ok(WrittenRules::Preset(name.to_string())),
        Rules::Document(d) => {
            let toml = d
                .to_toml()
                .map_err(|e| format!("the rules cannot be written: {e}"))?;
            match Ruleset::from_toml("the written rules", &toml, &PresetsOnly) {
                Ok(back) if &back == r => Ok(WrittenRules::Toml(toml)),
                _ => Err("they extend a ruleset file that is not a preset; give rules that extend a preset (astc, gthscl, fide-team)".into()),
            }
        }
    }
}

/// Writes a competition file (`arbiter/competition@1`) that reads back to the same model:
/// `rules` as a preset name or an inline ruleset, `tiebreaks` when there are any.
pub fn write(c: &Competition, rules: &Ruleset, tiebreaks: &[CriterionSpec]) -> String {
    let file = FileJson {
        format: Some(FORMAT.to_string()),
        name: c.name.clone(),
        rules: Some(rules_value(rules)),
        tiebreaks: tiebreaks.iter().map(|t| t.code.clone()).collect(),
        teams: c.teams.iter().map(team_json).collect(),
        rounds: c
            .rounds
            .iter()
            .map(|r| RoundJson {
                round: r.number,
                date: r.date,
                matches: r.pairings.iter().map(|p| pairing_json(p, rules)).collect(),
            })
            .collect(),
    };
    // Strings, numbers and maps with string keys: serde_json writes every one.
    serde_json::to_string_pretty(&file).unwrap_or_default() + "\n"
}

fn team_json(t: &Team) -> TeamJson {
    TeamJson {
        id: t.id.0.clone(),
        name: t.name.clone(),
        school: t.school.clone(),
        players: t
            .players
            .iter()
            .map(|p| PlayerJson {
                id: p.id.0.clone(),
                name: p.name.clone(),
                person: p.person.as_ref().map(|p| p.0.clone()),
                rating: p.rating,
                provisional: p.provisional,
                birth_date: p.record.birth_date,
                rated_games: p.record.rated_games,
                k: p.record.k,
                federation_id: p.record.federation_id.clone(),
                unranked: p.unranked,
                school: p.school.clone(),
                withdrawn: p.withdrawn,
            })
            .collect(),
    }
}

fn pairing_json(p: &Pairing, rules: &Ruleset) -> PairingJson {
    let m = match p {
        Pairing::Bye(b) => {
            return PairingJson {
                bye: Some(b.team.0.clone()),
                kind: (b.kind != ByeKind::PairingAllocated).then(|| b.kind.code().into()),
                ..PairingJson::default()
            };
        }
        Pairing::Match(m) => m,
    };
    let mut out = PairingJson {
        home: Some(m.home.0.clone()),
        away: Some(m.away.0.clone()),
        date: m.date,
        start: m.start,
        late: m.late.map(|l| LateJson {
            team: l.team.code().to_string(),
            school_day_ends: l.school_day_ends,
            clocks_started: l.clocks_started,
            arrived: l.arrived,
            arranged: l.arranged,
        }),
        // GT-P3: the file holds what counts, and reads back as standing: a game awaiting the
        // other school's confirmation, or struck out, is left out.
        extra_games: m
            .extra_games
            .iter()
            .filter(|g| g.state().stands())
            .map(|g| ExtraGameJson {
                white: g.white.0.clone(),
                black: g.black.0.clone(),
                result: g.result.code().to_string(),
                kind: g.kind.code().to_string(),
            })
            .collect(),
        ..PairingJson::default()
    };
    match &m.outcome {
        MatchOutcome::Pending => {}
        MatchOutcome::Forfeit { by } => out.forfeit = Some(by.code().to_string()),
        MatchOutcome::DoubleForfeit => out.double_forfeit = true,
        MatchOutcome::Boards(boards) => {
            if !boards.is_empty() && boards.iter().all(|b| b.result != GameResult::Pending) {
                let sum = |side: Side| -> f64 {
                    boards
                        .iter()
                        .map(|b| scoring::game_points(rules, b.result.outcome_for(side)))
                        .sum()
                };
                out.score = Some(format!(
                    "{}-{}",
                    points(sum(Side::Home)),
                    points(sum(Side::Away))
                ));
            }
            out.boards = Some(boards.iter().map(board_json).collect());
        }
    }
    out
}

fn board_json(b: &Board) -> BoardJson {
    BoardJson {
        result: b.result.code().to_string(),
        rating_result: b.rating_result.map(|r| r.code().to_string()),
        home_player: b.home_player.as_ref().map(|p| p.0.clone()),
        away_player: b.away_player.as_ref().map(|p| p.0.clone()),
        home_colour: b.home_colour.map(|c| c.code().to_string()),
        unplayed: match &b.unplayed {
            Some(u) => UnplayedJson::Kind(u.code().to_string()),
            None => UnplayedJson::Flag(false),
        },
        note: b
            .unplayed
            .as_ref()
            .and_then(|u| u.note())
            .map(str::to_string),
        adjourned_to: b.resume_on().map(|d| d.to_string()),
        adjudication: b.adjudication().map(|p| AdjudicationJson {
            pgn: p.pgn.clone(),
            fen: p.fen.clone(),
            home_clock: p.home_clock.clone(),
            away_clock: p.away_clock.clone(),
        }),
    }
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

    /// The inline ruleset `"rules"` holds for `r`, as compact JSON.
    fn rules_json(r: &Ruleset) -> String {
        rules_value(r).to_string()
    }

    #[test]
    fn every_preset_is_written_by_name() {
        for name in arbiter_core::rules::ruleset::preset_names() {
            let r = Ruleset::preset(name).unwrap();
            assert_eq!(rules_value(&r), Value::String(name.to_string()));
        }
    }

    /// A preset changed by `change` (checked as every ruleset is).
    fn changed(preset: &str, change: impl FnOnce(&mut arbiter_core::RulesetSpec)) -> Ruleset {
        Ruleset::preset(preset).unwrap().with(change).unwrap()
    }

    #[test]
    fn fide_settings_are_written() {
        let r = changed("fide-team", |r| {
            r.fide.edition = Some(arbiter_core::rules::ruleset::FideEdition::Aug2024);
            r.fide.round_robin = Some(true);
        });
        assert_eq!(
            rules_json(&r),
            r#"{"extends":"fide-team","fide":{"edition":"2024-08","round_robin":true}}"#
        );
        let r = r
            .with(|r| r.fide.primary = Some(arbiter_core::ScoreBasis::GamePoints))
            .unwrap();
        assert!(
            rules_json(&r).contains(r#""primary":"GP""#),
            "{}",
            rules_json(&r)
        );
    }

    #[test]
    fn a_changed_preset_is_written_as_extends_and_the_change() {
        let r = changed("gthscl", |r| {
            r.boards = 3;
            r.drop = None;
        });
        assert_eq!(
            rules_json(&r),
            r#"{"extends":"gthscl","boards":3,"drop":{"enabled":false}}"#
        );
    }

    /// GT-R3: a league's own rating settings are written, so they read back.
    #[test]
    fn rating_settings_are_written() {
        let r = changed("astc", |r| {
            r.rating = arbiter_core::rating::System::Glicko2 { tau: 0.75 };
        });
        assert_eq!(
            rules_json(&r),
            r#"{"extends":"astc","rating":{"system":"glicko2","tau":0.75}}"#
        );
    }

    #[test]
    fn gt_p2_report_deadlines_are_written_when_they_differ_from_the_preset() {
        let r = changed("gthscl", |r| r.report = None);
        assert_eq!(
            rules_json(&r),
            r#"{"extends":"gthscl","report":{"enabled":false}}"#
        );
        let a = changed("astc", |a| {
            a.report = Some(arbiter_core::season::report::Deadlines {
                enter_within: 2,
                confirm_within: 5,
                correct_within: 5,
            });
        });
        let v = rules_json(&a);
        assert!(
            v.contains(r#""report":{"enter_within_days":2,"confirm_within_days":5,"correct_within_days":5}"#),
            "{v}"
        );
    }

    #[test]
    fn an_inline_ruleset_is_toml_with_the_line_of_each_key() {
        let Value::Object(map) = serde_json::json!({
            "extends": "gthscl",
            "game_points": {"win": 1, "draw": 0.5, "loss": 0},
            "boards": 3,
            "criteria": ["MP", {"code": "GP", "rule": "GT-S5"}],
        }) else {
            panic!("an object")
        };
        let toml = InlineToml::new(&map).unwrap();
        let r = Ruleset::from_toml("t", &toml.text, &PresetsOnly).unwrap();
        assert_eq!((r.boards, r.game_points.draw), (3, 0.5));
        assert_eq!(r.criteria[1].rule.as_deref(), Some("GT-S5"));
        for (line, key) in &toml.starts {
            let text = toml.text.lines().nth(line - 1).unwrap();
            assert!(text.contains(key), "{key} at line {line} of {}", toml.text);
            assert_eq!(toml.key_at(*line), Some(*key));
        }
        assert_eq!(toml.starts.len(), 4);
    }

    #[test]
    fn the_store_keeps_a_preset_by_name_and_other_rules_as_toml() {
        let astc = Ruleset::preset("astc").unwrap();
        assert_eq!(
            written_rules(&astc),
            Ok(WrittenRules::Preset("astc".into()))
        );
        let r = changed("gthscl", |r| {
            r.boards = 3;
            r.criteria.truncate(2);
        });
        let Ok(WrittenRules::Toml(text)) = written_rules(&r) else {
            panic!("not TOML")
        };
        assert_eq!(Ruleset::from_toml("t", &text, &PresetsOnly).unwrap(), r);
    }
}
