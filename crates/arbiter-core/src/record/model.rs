//! The competition as the league records it: teams with their players, rounds, matches and
//! board results. These types say what happened; `scoring` says what it is worth under a ruleset.
//!
//! A [`Player`] carries a [`RatingRecord`] (birth date, rated games, K), GT-R7's `unranked` and
//! GT-R6's own `school`; [`Round::date_of`] a match is its own day, else the round's. A
//! [`Pairing::Match`] may have its own `date` when moved, its `extra_games` (GT-P3) and its `late`
//! report (GT-M6). A [`Board`] may carry why it was [`Unplayed`] (GT-M4, GT-M9, GT-M16,
//! GT-M17) or that it is [`Unfinished`] (adjourned, or sent for adjudication with its
//! [`AdjudicationPosition`], GT-M20). A [`GameResult`] is read from the home side; GT-P1 gives
//! a board a second result for the ratings (`rating_result`).

use std::fmt;

/// A team's identifier, unique within one competition (`"vic"`, `"toledo-a"`); written as
/// its text.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
#[serde(transparent)]
pub struct TeamId(pub String);

/// A player's identifier, unique within one competition; written as its text.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Default, serde::Serialize)]
#[serde(transparent)]
pub struct PlayerId(pub String);

/// A person's identity across a league's competitions (RULES.md, "One player, one person"): the
/// key the product keeps for them, unique within the league; written as its text. A player of
/// two competitions is one person when both roster entries carry the same key, never by name.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Default, serde::Serialize)]
#[serde(transparent)]
pub struct PersonId(pub String);

impl fmt::Display for PersonId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl fmt::Display for TeamId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl fmt::Display for PlayerId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// One competition (an ASTC championship, a GTHSCL division, a FIDE team Swiss).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Competition {
    /// The competition's name, as pairings and standings print it.
    pub name: String,
    /// Every team entered, with its roster.
    pub teams: Vec<Team>,
    /// The rounds, in the order they are played.
    pub rounds: Vec<Round>,
}

/// A team entered in the competition, with its roster.
#[derive(Debug, Clone, PartialEq)]
pub struct Team {
    /// The team's identifier in this competition.
    pub id: TeamId,
    /// The team's name, as pairings and standings print it.
    pub name: String,
    /// The school the team plays for (AS-4, GT-O1); `None` when the record names none.
    pub school: Option<String>,
    /// The roster, in the order the team declared it (AS-10: fixed order of strength).
    pub players: Vec<Player>,
}

/// A rating as people read it (GT-R3): `1450`, or `1200N` while provisional. Every page, file
/// and sentence prints a rating through this.
pub fn rating_text(rating: impl fmt::Display, provisional: bool) -> String {
    if provisional {
        format!("{rating}N")
    } else {
        rating.to_string()
    }
}

/// A player on a team's roster.
///
/// `Player::default()` (an empty id, unrated, nothing on record) is for struct literals:
/// `Player { id, name, ..Player::default() }`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Player {
    /// The player's identifier in this competition.
    pub id: PlayerId,
    /// The player's name, as score sheets print it.
    pub name: String,
    /// The person the player is across the season's or event's competitions (AS-3, GT-M15);
    /// `None` for a record that names none, whose player is a person of their own.
    pub person: Option<PersonId>,
    /// The rating that orders the boards (GT-M11, GT-R4); `None` for an unrated player.
    pub rating: Option<u32>,
    /// GT-R3: a provisional `1200N` rating.
    pub provisional: bool,
    /// What a rating system needs to know of the player beyond the rating (FIDE B.02's K).
    pub record: RatingRecord,
    /// GT-R7: the player may play only unranked games (not a high-school student, nor 14 or
    /// older); `rated_games` leaves their games unrated.
    pub unranked: bool,
    /// GT-R6: the player's own school, when it is not the team's: a high-school student, or one
    /// 14 or older, whose school has no team joins the closest one. `None`: the team's school.
    pub school: Option<String>,
    /// The day the player was withdrawn from the roster during the season: named in no lineup
    /// from that day; the games they played before it stay in the record (issue 12).
    pub withdrawn: Option<jiff::civil::Date>,
}

impl Player {
    /// Whether `self` and `other`, roster entries of two competitions, are one person: both
    /// carry the same [`PersonId`]. A name, however alike, never makes them one.
    pub fn is_same_person(&self, other: &Player) -> bool {
        self.person.is_some() && self.person == other.person
    }
}

/// A player's record as a rating system reads it, besides the rating itself: what FIDE B.02's
/// K rests on (and US Chess's starting rating by age). Every field is optional; a missing one
/// leaves the system's default.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RatingRecord {
    /// The date of birth: B.02's K 40 under 18, US Chess's 50 × age.
    pub birth_date: Option<jiff::civil::Date>,
    /// Rated games played before this event: B.02's K 40 until 30 games.
    pub rated_games: Option<u32>,
    /// An explicit K that overrides the system's (the federation's record gives it).
    pub k: Option<u32>,
    /// The player's id on the federation's rating list (a FIDE id, an ECF code): how a
    /// published list finds them (`rating::list`); `None` for a player the list finds by name
    /// and birth date.
    pub federation_id: Option<String>,
}

/// One round of the competition: every team's match or bye.
#[derive(Debug, Clone, PartialEq)]
pub struct Round {
    /// The round's number, from 1.
    pub number: u32,
    /// The day the round is played, when the schedule has one.
    pub date: Option<jiff::civil::Date>,
    /// The round's matches and byes.
    pub pairings: Vec<Pairing>,
}

impl Round {
    /// The day `m` of this round is played: its own, else the round's.
    pub fn date_of(&self, m: &Match) -> Option<jiff::civil::Date> {
        m.date.or(self.date)
    }

    /// The round's matches, in pairing order (its byes left out).
    pub fn matches(&self) -> impl Iterator<Item = &Match> {
        self.pairings.iter().filter_map(|p| match p {
            Pairing::Match(m) => Some(m),
            Pairing::Bye(_) => None,
        })
    }
}

/// What one team does in a round: play a match, or sit out with a bye.
#[derive(Debug, Clone, PartialEq)]
pub enum Pairing {
    /// Two teams play a match.
    Match(Match),
    /// One team sits out the round.
    Bye(Bye),
}

/// A team that sits out a round. What it scores is the ruleset's business (`Ruleset::bye`),
/// except for the kinds FIDE fixes (C.07 art. 16.1).
#[derive(Debug, Clone, PartialEq)]
pub struct Bye {
    /// The team that sits out.
    pub team: TeamId,
    /// Which bye it is, and so what it scores.
    pub kind: ByeKind,
}

/// The byes FIDE names (C.07 art. 16.1): why a team sits out, and so what it scores.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ByeKind {
    /// PAB: the pairing left the team without an opponent; scored as the ruleset's bye.
    PairingAllocated,
    /// FPB: a requested bye worth a win.
    FullPoint,
    /// HPB: a requested bye worth a draw.
    HalfPoint,
    /// ZPB: a requested bye worth nothing (also every round after a withdrawal).
    ZeroPoint,
}

impl ByeKind {
    /// Every kind, in FIDE's order.
    pub const ALL: [ByeKind; 4] = [
        ByeKind::PairingAllocated,
        ByeKind::FullPoint,
        ByeKind::HalfPoint,
        ByeKind::ZeroPoint,
    ];

    /// `pab`, `full`, `half` or `zero`: the one spelling of every file, table and answer.
    pub fn code(self) -> &'static str {
        match self {
            ByeKind::PairingAllocated => "pab",
            ByeKind::FullPoint => "full",
            ByeKind::HalfPoint => "half",
            ByeKind::ZeroPoint => "zero",
        }
    }

    /// The kind [`ByeKind::code`] spells `code`.
    pub fn from_code(code: &str) -> Option<ByeKind> {
        ByeKind::ALL.into_iter().find(|k| k.code() == code)
    }
}

/// Which of the two teams of a match. `Home` is the first-named team. Spelled `home` and
/// `away` in every file, table and page ([`Side::code`]; serde writes the same).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// The first-named team: the home team in GTHSCL (GT-M1).
    Home,
    /// The second-named team: the visitors in GTHSCL.
    Away,
}

impl Side {
    /// `home` or `away`.
    pub fn code(self) -> &'static str {
        match self {
            Side::Home => "home",
            Side::Away => "away",
        }
    }

    /// The side [`Side::code`] spells `code`.
    pub fn from_code(code: &str) -> Option<Side> {
        [Side::Home, Side::Away]
            .into_iter()
            .find(|s| s.code() == code)
    }

    /// The other team of the match.
    pub fn other(self) -> Side {
        match self {
            Side::Home => Side::Away,
            Side::Away => Side::Home,
        }
    }
}

/// A match between two teams: one game on each board (GT-M8).
#[derive(Debug, Clone, PartialEq)]
pub struct Match {
    /// The first-named team: the home team in GTHSCL, the first of the pairing in ASTC.
    pub home: TeamId,
    /// The second-named team: the visitors in GTHSCL.
    pub away: TeamId,
    /// What came of the match: nothing yet, its boards, or a forfeit.
    pub outcome: MatchOutcome,
    /// The day the match is played when it is not its round's: GTHSCL matches of one round
    /// fall on different days, and a moved match keeps its round (GT-M2). See
    /// [`Round::date_of`].
    pub date: Option<jiff::civil::Date>,
    /// The time the match starts, when the home advisor has arranged it (GT-M1); `None`: after
    /// school, as the advisors agree.
    pub start: Option<jiff::civil::Time>,
    /// GT-P3: games played beside the match, below its boards and outside its score.
    pub extra_games: Vec<ExtraGame>,
    /// GT-M6, GT-S3: the referee's report of a team that came late, when one did.
    pub late: Option<LateArrival>,
}

/// GT-M6, GT-S3: the referee's report of a late team; the late module reads the rules of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LateArrival {
    /// The side that came late.
    pub team: Side,
    /// When that team's school day ended.
    pub school_day_ends: jiff::civil::Time,
    /// When the referee started the clocks without it (GT-S3), if they did.
    pub clocks_started: Option<jiff::civil::Time>,
    /// When it arrived and began; `None`: it never did.
    pub arrived: Option<jiff::civil::Time>,
    /// GT-M6: the late start was arranged before the day.
    pub arranged: bool,
}

/// GT-P3: a game recorded with a match, below its boards and outside its score: a challenge
/// game between players of different schools, rated (GT-R5), or an unranked game that counts
/// for nothing (GT-R7).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExtraGame {
    /// The player with White.
    pub white: PlayerId,
    /// The player with Black.
    pub black: PlayerId,
    /// From White's side: [`GameResult::HomeWin`] is a win for White.
    pub result: GameResult,
    /// A challenge game or an unranked game.
    pub kind: ExtraKind,
    /// GT-P3, GT-P2: the school that entered it, whose game awaits the other school's
    /// confirmation; `None` when an officer entered it, or it came with an imported competition,
    /// so it stands as recorded. `extra::state` reads it with [`ExtraGame::events`].
    pub entered_by: Option<Side>,
    /// What was done to it after its entry, in order: confirmations and strikes.
    pub events: Vec<ExtraEvent>,
}

/// GT-P3: a step taken on an extra game after its entry, kept beside it (never a change).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExtraEvent {
    /// Who took it, as the store names them (an email), when known.
    pub by: Option<String>,
    /// The step.
    pub step: ExtraStep,
}

/// What was done to an extra game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ExtraStep {
    /// The other school (or an officer) confirmed it, as a result is confirmed (GT-P2).
    Confirmed,
    /// An officer struck it out, with the reason; it no longer counts.
    Struck {
        /// Why it was struck out.
        reason: String,
    },
}

/// What an extra game is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ExtraKind {
    /// GT-R5: a rated game a player challenged a player of another school to, before the
    /// regular season's end.
    Challenge,
    /// GT-R7: a game beside the match that counts for nothing and is not rated.
    Unranked,
}

impl ExtraKind {
    /// `challenge` or `unranked`, as files, the store and forms spell it.
    pub fn code(self) -> &'static str {
        match self {
            ExtraKind::Challenge => "challenge",
            ExtraKind::Unranked => "unranked",
        }
    }

    /// Reads [`ExtraKind::code`] back.
    pub fn from_code(code: &str) -> Option<ExtraKind> {
        match code.trim() {
            "challenge" => Some(ExtraKind::Challenge),
            "unranked" => Some(ExtraKind::Unranked),
            _ => None,
        }
    }
}

impl Match {
    /// The team on `side` of the match.
    pub fn team(&self, side: Side) -> &TeamId {
        match side {
            Side::Home => &self.home,
            Side::Away => &self.away,
        }
    }
}

/// What came of a match as a whole.
#[derive(Debug, Clone, PartialEq)]
pub enum MatchOutcome {
    /// Scheduled, no result yet.
    Pending,
    /// Played board by board, board 1 first.
    Boards(Vec<Board>),
    /// GT-M3, GT-M6, GT-M7: the whole match forfeited by one team.
    Forfeit {
        /// The side that forfeited; the other takes the forfeit's points (GT-M7).
        by: Side,
    },
    /// Both teams forfeited the match (GT-P4 double forfeit, TRF 330 `--`).
    DoubleForfeit,
}

/// One board of a match: its game, its two players and the home player's colour.
#[derive(Debug, Clone, PartialEq)]
pub struct Board {
    /// The result for the team score, from the home team's side.
    pub result: GameResult,
    /// GT-P1: the result for ratings, when it differs from the team result.
    pub rating_result: Option<GameResult>,
    /// The home team's player on this board, when the record names one.
    pub home_player: Option<PlayerId>,
    /// The away team's player on this board, when the record names one.
    pub away_player: Option<PlayerId>,
    /// The home player's colour when the record says it; otherwise the ruleset's colour rule.
    pub home_colour: Option<Colour>,
    /// Why the board was not played, when the record says (GT-M4, GT-M9, GT-M16, GT-M17);
    /// the result says who scores it (GT-S2).
    pub unplayed: Option<Unplayed>,
    /// GT-M20: the game was not finished on the match day; the result is `*` until it is.
    pub unfinished: Option<Unfinished>,
}

impl Board {
    /// GT-M20: the day this board's adjourned game resumes, when it was adjourned.
    pub fn resume_on(&self) -> Option<jiff::civil::Date> {
        self.unfinished.as_ref().and_then(Unfinished::resume_on)
    }

    /// GT-M20: the position this board's game was sent for adjudication with, when it was.
    pub fn adjudication(&self) -> Option<&AdjudicationPosition> {
        self.unfinished.as_ref().and_then(Unfinished::position)
    }

    /// A board with this result and nothing else recorded: no players, no colour.
    pub fn new(result: GameResult) -> Board {
        Board {
            result,
            rating_result: None,
            home_player: None,
            away_player: None,
            home_colour: None,
            unplayed: None,
            unfinished: None,
        }
    }
}

/// GT-M20: a game the players did not finish in the time they had. Its board's result is `*`
/// (pending) until the game is finished or adjudicated, and the match counts from then; the
/// record stays on the board afterwards, so the page can say how the result came about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unfinished {
    /// Adjourned, to be played to its end on `resume_on`, before the match's week is out.
    Adjourned {
        /// The day the game resumes.
        resume_on: jiff::civil::Date,
    },
    /// Sent to the President for adjudication, with the position.
    Adjudication(AdjudicationPosition),
}

impl Unfinished {
    /// The day an adjourned game resumes, when it was adjourned.
    pub fn resume_on(&self) -> Option<jiff::civil::Date> {
        match self {
            Unfinished::Adjourned { resume_on } => Some(*resume_on),
            Unfinished::Adjudication(_) => None,
        }
    }

    /// The position sent for adjudication, when the game was.
    pub fn position(&self) -> Option<&AdjudicationPosition> {
        match self {
            Unfinished::Adjudication(p) => Some(p),
            Unfinished::Adjourned { .. } => None,
        }
    }
}

/// GT-M20: what the referee sends the President: the moves (PGN movetext) and the position they
/// reach (FEN), which `game::read_position` has checked against each other, and each player's
/// clock as the referee read it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct AdjudicationPosition {
    /// The moves played, as PGN.
    pub pgn: String,
    /// The position on the board when play stopped, as FEN.
    pub fen: String,
    /// The home player's time left, as written (`0:12:30`).
    pub home_clock: Option<String>,
    /// The away player's time left.
    pub away_clock: Option<String>,
}

/// Why a board was not played over the board. Scored by its result (`+/-`, `-/+`, `-/-`,
/// GT-S2), never rated (GT-M7), shown on the match page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unplayed {
    /// GT-M9: a short team's empty board; the opponent wins it by forfeit.
    Absent,
    /// GT-M16: the coach forfeited the board.
    CoachForfeit,
    /// GT-M17: forfeited for disruptive behaviour, after a warning; the note says what happened.
    Conduct {
        /// What happened, as the referee wrote it.
        note: String,
    },
    /// GT-S2: both players defaulted.
    DoubleDefault,
    /// GT-M4: the players agreed a draw of a game they did not play; it is scored as a double
    /// default, never as a draw.
    AgreedDraw,
}

impl Unplayed {
    /// The code of the competition file and the store: `absent`, `coach`, `conduct`,
    /// `double_default`, `agreed_draw`.
    pub fn code(&self) -> &'static str {
        match self {
            Unplayed::Absent => "absent",
            Unplayed::CoachForfeit => "coach",
            Unplayed::Conduct { .. } => "conduct",
            Unplayed::DoubleDefault => "double_default",
            Unplayed::AgreedDraw => "agreed_draw",
        }
    }

    /// Reads [`Unplayed::code`] back, with the conduct's note (none for the other kinds).
    pub fn from_code(code: &str, note: Option<&str>) -> Option<Unplayed> {
        Some(match code {
            "absent" => Unplayed::Absent,
            "coach" => Unplayed::CoachForfeit,
            "conduct" => Unplayed::Conduct {
                note: note.unwrap_or_default().to_string(),
            },
            "double_default" => Unplayed::DoubleDefault,
            "agreed_draw" => Unplayed::AgreedDraw,
            _ => return None,
        })
    }

    /// The conduct's note, for the kinds that have one.
    pub fn note(&self) -> Option<&str> {
        match self {
            Unplayed::Conduct { note } => Some(note),
            _ => None,
        }
    }

    /// The ruleset's `[cite]` key for the rule the kind rests on (GTHSCL: GT-M9, GT-M16,
    /// GT-M17, GT-S2, GT-M4); `Ruleset::cite` gives the league's own ID.
    pub fn cite_key(&self) -> &'static str {
        match self {
            Unplayed::Absent => "short_team",
            Unplayed::CoachForfeit => "coach_forfeit",
            Unplayed::Conduct { .. } => "conduct_forfeit",
            Unplayed::DoubleDefault => "double_default",
            Unplayed::AgreedDraw => "unplayed_draw",
        }
    }

    /// What pages say of the board, citing `rule` (the league's ID for [`Unplayed::cite_key`])
    /// when there is one: "forfeited by the coach (GT-M16)".
    pub fn words(&self, rule: Option<&str>) -> String {
        let what = match self {
            Unplayed::Absent => "no player: the board was left empty".to_string(),
            Unplayed::CoachForfeit => "forfeited by the coach".to_string(),
            Unplayed::Conduct { note } if note.trim().is_empty() => {
                "forfeited for conduct".to_string()
            }
            Unplayed::Conduct { note } => format!("forfeited for conduct: {}", note.trim()),
            Unplayed::DoubleDefault => "both players defaulted".to_string(),
            Unplayed::AgreedDraw => {
                "a draw agreed without playing, scored as a double default".to_string()
            }
        };
        match rule {
            Some(rule) => format!("{what} ({rule})"),
            None => what,
        }
    }

    /// Whether `result` can stand with this kind: a one-sided forfeit for a forfeited board,
    /// `-/-` for both kinds of double default.
    pub fn fits(&self, result: GameResult) -> bool {
        match self {
            Unplayed::Absent | Unplayed::CoachForfeit | Unplayed::Conduct { .. } => matches!(
                result,
                GameResult::HomeWinByForfeit | GameResult::AwayWinByForfeit
            ),
            Unplayed::DoubleDefault | Unplayed::AgreedDraw => result == GameResult::DoubleForfeit,
        }
    }
}

/// A player's colour on a board (AS-19, GT-M18 say who has White).
/// Spelled `white` and `black` in every file, table and page ([`Colour::code`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Colour {
    /// The white pieces.
    White,
    /// The black pieces.
    Black,
}

impl Colour {
    /// `white` or `black`.
    pub fn code(self) -> &'static str {
        match self {
            Colour::White => "white",
            Colour::Black => "black",
        }
    }

    /// The colour [`Colour::code`] spells `code`.
    pub fn from_code(code: &str) -> Option<Colour> {
        [Colour::White, Colour::Black]
            .into_iter()
            .find(|c| c.code() == code)
    }

    /// The opponent's colour.
    pub fn other(self) -> Colour {
        match self {
            Colour::White => Colour::Black,
            Colour::Black => Colour::White,
        }
    }
}

/// A board's result, from the home (first-named) team's side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// `1-0`
    HomeWin,
    /// `1/2-1/2`
    Draw,
    /// `0-1`
    AwayWin,
    /// `+/-`: the away player forfeited (GT-S2, GT-M9).
    HomeWinByForfeit,
    /// `-/+`: the home player forfeited.
    AwayWinByForfeit,
    /// `-/-`: both forfeited; nobody scores (GT-S2, GT-M4).
    DoubleForfeit,
    /// Not yet played or not yet reported.
    Pending,
}

impl GameResult {
    /// Parses the codes of the competition file: `1-0`, `0-1`, `1/2-1/2` (or `½-½`),
    /// `+/-`, `-/+`, `-/-`, and `*` for a game not yet played.
    pub fn parse(code: &str) -> Option<GameResult> {
        Some(match code.trim() {
            "1-0" => GameResult::HomeWin,
            "0-1" => GameResult::AwayWin,
            "1/2-1/2" | "½-½" | "=-=" | "0.5-0.5" => GameResult::Draw,
            "+/-" | "+-" | "+:-" => GameResult::HomeWinByForfeit,
            "-/+" | "-+" | "-:+" => GameResult::AwayWinByForfeit,
            "-/-" | "--" | "-:-" | "0-0" => GameResult::DoubleForfeit,
            "*" | "" => GameResult::Pending,
            _ => return None,
        })
    }

    /// The code the competition file writes.
    pub fn code(self) -> &'static str {
        match self {
            GameResult::HomeWin => "1-0",
            GameResult::Draw => "1/2-1/2",
            GameResult::AwayWin => "0-1",
            GameResult::HomeWinByForfeit => "+/-",
            GameResult::AwayWinByForfeit => "-/+",
            GameResult::DoubleForfeit => "-/-",
            GameResult::Pending => "*",
        }
    }

    /// As a score sheet prints it: `1–0`, `½–½`, `+/−` (an en dash and a minus sign).
    pub fn symbol(self) -> &'static str {
        match self {
            GameResult::HomeWin => "1\u{2013}0",
            GameResult::Draw => "½\u{2013}½",
            GameResult::AwayWin => "0\u{2013}1",
            GameResult::HomeWinByForfeit => "+/\u{2212}",
            GameResult::AwayWinByForfeit => "\u{2212}/+",
            GameResult::DoubleForfeit => "\u{2212}/\u{2212}",
            GameResult::Pending => "\u{2013}",
        }
    }

    /// True when the game was played over the board.
    pub fn is_played(self) -> bool {
        matches!(
            self,
            GameResult::HomeWin | GameResult::Draw | GameResult::AwayWin
        )
    }

    /// True when the game was lost by default, by one player or both (GT-S2).
    pub fn is_forfeit(self) -> bool {
        matches!(
            self,
            GameResult::HomeWinByForfeit | GameResult::AwayWinByForfeit | GameResult::DoubleForfeit
        )
    }

    /// The same result seen from the other side of the board.
    pub fn reversed(self) -> GameResult {
        match self {
            GameResult::HomeWin => GameResult::AwayWin,
            GameResult::AwayWin => GameResult::HomeWin,
            GameResult::HomeWinByForfeit => GameResult::AwayWinByForfeit,
            GameResult::AwayWinByForfeit => GameResult::HomeWinByForfeit,
            other => other,
        }
    }

    /// What `side` got on this board.
    pub fn outcome_for(self, side: Side) -> GameOutcome {
        let r = match side {
            Side::Home => self,
            Side::Away => self.reversed(),
        };
        match r {
            GameResult::HomeWin => GameOutcome::Win,
            GameResult::Draw => GameOutcome::Draw,
            GameResult::AwayWin => GameOutcome::Loss,
            GameResult::HomeWinByForfeit => GameOutcome::ForfeitWin,
            GameResult::AwayWinByForfeit => GameOutcome::ForfeitLoss,
            GameResult::DoubleForfeit => GameOutcome::DoubleForfeit,
            GameResult::Pending => GameOutcome::Pending,
        }
    }
}

/// A board's result for one team.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GameOutcome {
    /// Won over the board: 1 game point (GT-S1).
    Win,
    /// Drawn over the board: ½ (GT-S1).
    Draw,
    /// Lost over the board: 0 (GT-S1).
    Loss,
    /// Won by default: the opponent forfeited, a win for this team (GT-S2).
    ForfeitWin,
    /// Lost by default: this team's player forfeited (GT-S2).
    ForfeitLoss,
    /// Both players defaulted: nobody scores (GT-S2, GT-M4).
    DoubleForfeit,
    /// Not yet played or not yet reported.
    Pending,
}

impl GameOutcome {
    /// True for a win over the board or by default.
    pub fn is_win(self) -> bool {
        matches!(self, GameOutcome::Win | GameOutcome::ForfeitWin)
    }
}

impl Competition {
    /// Whether every match of every round stored has its result: a championship whose final
    /// standings may be the previous finish (AS-8). A competition without rounds is not.
    pub fn is_finished(&self) -> bool {
        !self.rounds.is_empty()
            && self.rounds.iter().all(|r| {
                r.pairings.iter().all(|p| match p {
                    Pairing::Match(m) => m.outcome != MatchOutcome::Pending,
                    Pairing::Bye(_) => true,
                })
            })
    }

    /// The position of a team in `teams`, by id.
    pub fn team_index(&self, id: &TeamId) -> Option<usize> {
        self.teams.iter().position(|t| &t.id == id)
    }

    /// The team with this id, if it plays in the competition.
    pub fn team(&self, id: &TeamId) -> Option<&Team> {
        self.teams.iter().find(|t| &t.id == id)
    }

    /// The name of the team with this id; its id when no team of the competition has it.
    pub fn team_name(&self, id: &TeamId) -> String {
        self.team(id)
            .map_or_else(|| id.0.clone(), |t| t.name.clone())
    }

    /// Every match of the competition with its round number, in round order.
    pub fn matches(&self) -> impl Iterator<Item = (u32, &Match)> {
        self.rounds
            .iter()
            .flat_map(|r| r.matches().map(move |m| (r.number, m)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One spelling per value: serde writes and reads what `code` says.
    #[test]
    fn a_side_is_spelled_as_its_code_by_serde_too() {
        for side in [Side::Home, Side::Away] {
            assert_eq!(serde_spelling(side), side.code());
            assert_eq!(Side::from_code(side.code()), Some(side));
        }
        for colour in [Colour::White, Colour::Black] {
            assert_eq!(Colour::from_code(colour.code()), Some(colour));
        }
        assert_eq!(Side::from_code("visitors"), None);
    }

    /// The string serde makes of a side (through TOML, the format core already reads).
    fn serde_spelling(side: Side) -> String {
        #[derive(serde::Serialize)]
        struct One {
            side: Side,
        }
        let text = toml::to_string(&One { side }).unwrap();
        let back: toml::Table = toml::from_str(&text).unwrap();
        back["side"].as_str().unwrap().to_string()
    }
}
