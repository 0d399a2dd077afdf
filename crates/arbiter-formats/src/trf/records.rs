//! The TRF record kinds, each read from and written to its columns (standards.md §3: TRF-16,
//! C.04 Annex 2, and TRF-2026). Every field keeps the text it was read from, so a record
//! written back without changes gives its line again byte for byte.

use super::TrfError;
use super::columns::{Field, LineReader, LineWriter, Ref, Spelled, columns};

/// One line of a TRF file, as read.
#[derive(Debug, Clone, PartialEq)]
pub enum Record {
    /// `012`..`132`, `142`..`222`, `352`, `362`: what the event is and how it is scored.
    Tournament(TournamentRecord),
    /// `001`: a player and the games of each round.
    Player(PlayerRecord),
    /// NRS: a national rating record (`IND    1 ...`), with the static columns of `001`.
    NationalRating(NationalRatingRecord),
    /// `013`: a team and its players (TRF-16; replaced by `310`).
    Team013(Team013Record),
    /// `310`: a team with its pairing number, scores and players.
    Team310(Team310Record),
    /// `240`: full-, half- or zero-point byes of one round.
    Bye240(ByeRecord),
    /// `250`: accelerated rounds.
    Acceleration250(AccelerationRecord),
    /// `260`: prohibited pairings.
    Prohibited260(ProhibitedRecord),
    /// `299`: abnormal points.
    AbnormalPoints299(AbnormalPointsRecord),
    /// `300`: a line-up out of the default board order, or with an empty board.
    OutOfOrderLineup300(LineupRecord),
    /// `320`: the team pairing-allocated bye of each round.
    TeamPab320(TeamPabRecord),
    /// `330`: a forfeited match.
    ForfeitedMatch330(ForfeitedMatchRecord),
    /// `801`: informative board-level team results; the layout is undocumented.
    Team801(Team801Record),
    /// `802`: informative team results round by round.
    Team802(Team802Record),
    /// `###` and what follows it.
    Comment(String),
    /// JaVaFo's `XX?` extensions (`XXR 9`, `XXC white1`), kept as they are.
    JaVaFo(String),
    /// A line of nothing but whitespace.
    Blank(String),
    /// Anything else, kept as it is.
    Unknown(String),
}

/// The tags of the tournament section.
pub const TOURNAMENT_TAGS: &[u16] = &[
    12, 22, 32, 42, 52, 62, 72, 82, 92, 102, 112, 122, 132, 142, 152, 162, 172, 182, 192, 202, 212,
    222, 352, 362,
];

/// A tournament record: its tag and what it says.
#[derive(Debug, Clone, PartialEq)]
pub struct TournamentRecord {
    /// `12` for `012`, `362` for `362`.
    pub tag: u16,
    /// What the record says after its tag, in the layout of that tag.
    pub body: TournamentBody,
    /// The blanks after the last field, kept so that the line is written back as it was read.
    pub tail: String,
}

/// What a tournament record says after its tag, in the layout of that tag.
#[derive(Debug, Clone, PartialEq)]
pub enum TournamentBody {
    /// Free text from column 5 (name, city, dates, arbiters, `182`, `192`, `222`, ...).
    Text(Field<String>),
    /// `132`: round dates `YY/MM/DD` at columns 92-99, 102-109, ...
    RoundDates {
        /// Columns 5-91, blank in the standard.
        label: Field<String>,
        /// The round dates: round 1 at columns 92-99, round 2 at 102-109, ...; blank when unknown.
        dates: Vec<Field<String>>,
    },
    /// `142`: the number of rounds.
    Rounds(Field<u32>),
    /// `152`: the initial colour, `W` or `B`, in column 5.
    InitialColour(Field<Option<char>>),
    /// `162`: game scoring, a code at column 6 and its points at 7-10, every 9 columns.
    Scoring(Vec<ScoringEntry>),
    /// `172`: the starting-rank method: federation at 5-7, method at 9-13.
    StartingRankMethod {
        /// Columns 5-7: the federation whose national ratings (NRS records) the method uses.
        federation: Field<String>,
        /// Columns 9-13: `FIDE`, `NRO`, `FIDON`, `NIDOF`, `HBFN`, `LBFN` or `OTHER`.
        method: Field<String>,
    },
    /// `202` tie-breaks and `212` standings order, comma-separated.
    Codes(Field<Vec<String>>),
    /// `352`: board colours for the first-named team, `WBWB`.
    BoardColours(Field<String>),
    /// `362`: match points, `TW` at 5-6 and points at 7-10, every 9 columns.
    TeamScoring(Vec<ScoringEntry>),
}

/// One code and its points in a `162` or `362` record.
#[derive(Debug, Clone, PartialEq)]
pub struct ScoringEntry {
    /// `W`, `D`, `L`, `A`, `P`, `X` (162) or `TW`, `TD`, `TL` (362).
    pub code: Field<String>,
    /// The points the code is worth (`1.0`): columns 7-10 for the first code, then every 9 columns.
    pub points: Field<Option<f64>>,
}

/// A `001` record: a player's static columns, then one block per round.
#[derive(Debug, Clone, PartialEq)]
pub struct PlayerRecord {
    /// Columns 5-8: the player's start rank, the number every other record names them by.
    pub start_rank: Field<u32>,
    /// Column 10: the sex, `m` or `w`.
    pub sex: Field<String>,
    /// Columns 11-13: the FIDE title, `GM` `IM` `WGM` `FM` `WIM` `CM` `WFM` `WCM`; blank for none.
    pub title: Field<String>,
    /// Columns 15-47: the player's name, `Last, First`.
    pub name: Field<String>,
    /// Columns 49-52: the player's FIDE rating; blank when unrated.
    pub rating: Field<Option<u32>>,
    /// Columns 54-56: the player's FIDE federation (`IND`).
    pub federation: Field<String>,
    /// Columns 58-68: the player's FIDE ID.
    pub fide_id: Field<String>,
    /// Columns 70-79: the birth date, `YYYY/MM/DD`.
    pub birth_date: Field<String>,
    /// Columns 81-84: the player's points (`11.5`), in the event's game scoring (`162`).
    pub points: Field<Option<f64>>,
    /// Columns 86-89: the player's rank; ties allowed.
    pub rank: Field<Option<u32>>,
    /// Round 1 at columns 92-99, round 2 at 102-109, ...
    pub rounds: Vec<RoundBlock>,
    /// The blanks after the last field, kept so that the line is written back as it was read.
    pub tail: String,
}

/// A player's round: opponent (start rank, `0000` for none), colour, result.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RoundBlock {
    /// Columns 92-95 in round 1: the scheduled opponent's start rank; `0000` or blank for none.
    pub opponent: Field<Ref>,
    /// Column 97 in round 1: the scheduled colour, `w`, `b`, `-` (not paired) or blank.
    pub colour: Field<Option<char>>,
    /// Column 99 in round 1: `1 = 0 + - W D L H F U Z` or blank (see [`ResultCode`]).
    pub result: Field<Option<char>>,
}

/// A `001` result code (letters case-insensitive).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ResultCode {
    /// `1`: a win.
    Win,
    /// `=`: a draw.
    Draw,
    /// `0`: a loss.
    Loss,
    /// `+`: a win by forfeit.
    ForfeitWin,
    /// `-`: a loss by forfeit.
    ForfeitLoss,
    /// `W`: a win in a game of under one move, not rated.
    UnratedWin,
    /// `D`: a draw in a game of under one move, not rated.
    UnratedDraw,
    /// `L`: a loss in a game of under one move, not rated.
    UnratedLoss,
    /// `H`: a half-point bye (HPB).
    HalfPointBye,
    /// `F`: a full-point bye (FPB).
    FullPointBye,
    /// `U`: a pairing-allocated bye (PAB), at most one a round.
    PairingAllocatedBye,
    /// `Z`, or blank without an opponent: a zero-point bye (ZPB).
    ZeroPointBye,
}

impl ResultCode {
    /// Reads a result code, letters in either case; `None` for any other character.
    pub fn from_char(c: char) -> Option<ResultCode> {
        Some(match c.to_ascii_uppercase() {
            '1' => ResultCode::Win,
            '=' => ResultCode::Draw,
            '0' => ResultCode::Loss,
            '+' => ResultCode::ForfeitWin,
            '-' => ResultCode::ForfeitLoss,
            'W' => ResultCode::UnratedWin,
            'D' => ResultCode::UnratedDraw,
            'L' => ResultCode::UnratedLoss,
            'H' => ResultCode::HalfPointBye,
            'F' => ResultCode::FullPointBye,
            'U' => ResultCode::PairingAllocatedBye,
            'Z' => ResultCode::ZeroPointBye,
            _ => return None,
        })
    }

    /// The code as a `001` round block writes it, letters in capitals.
    pub fn to_char(self) -> char {
        match self {
            ResultCode::Win => '1',
            ResultCode::Draw => '=',
            ResultCode::Loss => '0',
            ResultCode::ForfeitWin => '+',
            ResultCode::ForfeitLoss => '-',
            ResultCode::UnratedWin => 'W',
            ResultCode::UnratedDraw => 'D',
            ResultCode::UnratedLoss => 'L',
            ResultCode::HalfPointBye => 'H',
            ResultCode::FullPointBye => 'F',
            ResultCode::PairingAllocatedBye => 'U',
            ResultCode::ZeroPointBye => 'Z',
        }
    }
}

impl RoundBlock {
    /// A round block in the standard layout: `None` as the opponent is written `0000`.
    pub fn new(opponent: Option<u32>, colour: char, result: Option<ResultCode>) -> RoundBlock {
        RoundBlock {
            opponent: Field::new(Ref(opponent)),
            colour: Field::new(Some(colour)),
            result: Field::new(result.map(ResultCode::to_char)),
        }
    }

    /// The opponent's start rank, if any.
    pub fn opponent(&self) -> Option<u32> {
        self.opponent.value.0
    }

    /// `Some(true)` for White, `Some(false)` for Black.
    pub fn is_white(&self) -> Option<bool> {
        match self.colour.value.map(|c| c.to_ascii_lowercase()) {
            Some('w') => Some(true),
            Some('b') => Some(false),
            _ => None,
        }
    }

    /// The result code; `None` when blank.
    pub fn result(&self) -> Option<ResultCode> {
        self.result.value.and_then(ResultCode::from_char)
    }
}

/// A national rating (NRS) record: a federation code in place of `001`, same static columns.
#[derive(Debug, Clone, PartialEq)]
pub struct NationalRatingRecord {
    /// Columns 1-3.
    pub federation: String,
    /// Columns 5-8: the start rank of the `001` record this one rates.
    pub start_rank: Field<u32>,
    /// Column 10: the sex, as the federation records it.
    pub sex: Field<String>,
    /// Columns 11-13: the national classification, where `001` has the title.
    pub classification: Field<String>,
    /// Columns 15-47: the player's name, as the federation spells it.
    pub name: Field<String>,
    /// Columns 49-52: the player's national rating.
    pub rating: Field<Option<u32>>,
    /// Columns 54-56: the national origin (federation, nation, state, region, county...).
    pub origin: Field<String>,
    /// Columns 58-68: the player's national ID.
    pub national_id: Field<String>,
    /// Columns 70-79: the birth date, `YYYY/MM/DD`.
    pub birth_date: Field<String>,
    /// The blanks after the last field, kept so that the line is written back as it was read.
    pub tail: String,
}

/// A `013` record: a team and its players (TRF-16; TRF-2026 replaces it with `310`).
#[derive(Debug, Clone, PartialEq)]
pub struct Team013Record {
    /// Columns 5-36: the team's name.
    pub name: Field<String>,
    /// Start ranks at 37-40, 42-45, ...
    pub players: Vec<Field<Ref>>,
    /// The blanks after the last field, kept so that the line is written back as it was read.
    pub tail: String,
}

/// A `310` record: a team with its pairing number, scores, rank and players.
#[derive(Debug, Clone, PartialEq)]
pub struct Team310Record {
    /// Columns 5-7: the team's pairing number, the number `300`, `320` and `330` name it by.
    pub number: Field<u32>,
    /// Columns 9-40: the team's name.
    pub name: Field<String>,
    /// Columns 42-46: the team's nickname (`IND`).
    pub nickname: Field<String>,
    /// Columns 48-53: the team's strength factor (the TEC sample writes its average rating).
    pub strength: Field<String>,
    /// Columns 55-60: the team's match points.
    pub match_points: Field<Option<f64>>,
    /// Columns 62-67: the team's game points.
    pub game_points: Field<Option<f64>>,
    /// Columns 69-71: the team's rank; ties allowed.
    pub rank: Field<Option<u32>>,
    /// Start ranks at 74-77, 79-82, ...
    pub players: Vec<Field<Ref>>,
    /// The blanks after the last field, kept so that the line is written back as it was read.
    pub tail: String,
}

/// A `240` record: the players or teams given a full-, half- or zero-point bye in one round.
#[derive(Debug, Clone, PartialEq)]
pub struct ByeRecord {
    /// `F`, `H` or `Z`.
    pub kind: Field<Option<char>>,
    /// Columns 7-9: the round of the byes.
    pub round: Field<u32>,
    /// Player or team numbers at 11-14, 16-19, ...
    pub ids: Vec<Field<Ref>>,
    /// The blanks after the last field, kept so that the line is written back as it was read.
    pub tail: String,
}

/// A `250` record: fictitious points that accelerate a range of players or teams for some rounds.
#[derive(Debug, Clone, PartialEq)]
pub struct AccelerationRecord {
    /// Columns 5-8: the fictitious match points added; blank in an individual event.
    pub match_points: Field<Option<f64>>,
    /// Columns 10-13: the fictitious game points added.
    pub game_points: Field<Option<f64>>,
    /// Columns 15-17: the first round that adds them.
    pub first_round: Field<Option<u32>>,
    /// Columns 19-21: the last round that adds them (may be the first).
    pub last_round: Field<Option<u32>>,
    /// Columns 23-26: the first player or team number of the range.
    pub first_id: Field<Option<u32>>,
    /// Columns 28-31: the last player or team number of the range.
    pub last_id: Field<Option<u32>>,
    /// The blanks after the last field, kept so that the line is written back as it was read.
    pub tail: String,
}

/// A `260` record: players or teams that may not be paired with each other for some rounds.
#[derive(Debug, Clone, PartialEq)]
pub struct ProhibitedRecord {
    /// Columns 5-7: the first round in which the listed players or teams may not meet.
    pub first_round: Field<u32>,
    /// Columns 9-11: the last such round (may be the first).
    pub last_round: Field<u32>,
    /// At 13-16, 18-21, ...
    pub ids: Vec<Field<Ref>>,
    /// The blanks after the last field, kept so that the line is written back as it was read.
    pub tail: String,
}

/// A `299` record: points assigned outside the normal scoring (a penalty, a bonus).
#[derive(Debug, Clone, PartialEq)]
pub struct AbnormalPointsRecord {
    /// `W D L F H Z + -` or blank (penalty or bonus).
    pub kind: Field<Option<char>>,
    /// Columns 8-11: the match points assigned (teams only), `-1.0` for a penalty.
    pub match_points: Field<Option<f64>>,
    /// Columns 14-17: the game points assigned (for an individual event, the points).
    pub game_points: Field<Option<f64>>,
    /// `000` or blank: every round.
    pub round: Field<Ref>,
    /// At 24-27, 29-32, ...
    pub ids: Vec<Field<Ref>>,
    /// The blanks after the last field, kept so that the line is written back as it was read.
    pub tail: String,
}

/// A `300` record: a team's line-up in a round, out of the default board order or with an empty
/// board.
#[derive(Debug, Clone, PartialEq)]
pub struct LineupRecord {
    /// Columns 5-7: the round.
    pub round: Field<u32>,
    /// Columns 9-11: the pairing number of the team that plays out of its default order.
    pub team: Field<u32>,
    /// Columns 13-15: the scheduled opponent's pairing number.
    pub opponent: Field<Ref>,
    /// Board by board at 17-20, 22-25, ...; `0000` is an empty board.
    pub players: Vec<Field<Ref>>,
    /// The blanks after the last field, kept so that the line is written back as it was read.
    pub tail: String,
}

/// A `320` record: what a team PAB is worth, and the team given it in each round.
#[derive(Debug, Clone, PartialEq)]
pub struct TeamPabRecord {
    /// Columns 5-8: the match points a PAB is worth.
    pub match_points: Field<Option<f64>>,
    /// Columns 10-13: the game points a PAB is worth.
    pub game_points: Field<Option<f64>>,
    /// The PAB team of round 1 at 15-17, round 2 at 19-21, ...; `000` for none.
    pub teams: Vec<Field<Ref>>,
    /// The blanks after the last field, kept so that the line is written back as it was read.
    pub tail: String,
}

/// What a `330` record says happened.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MatchForfeitKind {
    /// `+-`: the White team wins by forfeit.
    WhiteWins,
    /// `-+`: the Black team wins by forfeit.
    BlackWins,
    /// `--`: both teams forfeit.
    Double,
}

impl MatchForfeitKind {
    /// The forfeit type as columns 5-6 of a `330` record write it.
    pub fn code(self) -> &'static str {
        match self {
            MatchForfeitKind::WhiteWins => "+-",
            MatchForfeitKind::BlackWins => "-+",
            MatchForfeitKind::Double => "--",
        }
    }

    /// Reads a `330` forfeit type; `None` for anything but `+-`, `-+` and `--`.
    pub fn from_code(code: &str) -> Option<MatchForfeitKind> {
        match code {
            "+-" => Some(MatchForfeitKind::WhiteWins),
            "-+" => Some(MatchForfeitKind::BlackWins),
            "--" => Some(MatchForfeitKind::Double),
            _ => None,
        }
    }
}

/// A `330` record: a match forfeited by one team or by both.
#[derive(Debug, Clone, PartialEq)]
pub struct ForfeitedMatchRecord {
    /// `+-`, `-+` or `--`.
    pub kind: Field<String>,
    /// Columns 8-10: the round.
    pub round: Field<u32>,
    /// Columns 12-14: the White team's pairing number.
    pub white: Field<u32>,
    /// Columns 16-18: the Black team's pairing number.
    pub black: Field<u32>,
    /// The blanks after the last field, kept so that the line is written back as it was read.
    pub tail: String,
}

impl ForfeitedMatchRecord {
    /// What columns 5-6 say happened; `None` for a type that is not `+-`, `-+` or `--`.
    pub fn kind(&self) -> Option<MatchForfeitKind> {
        MatchForfeitKind::from_code(&self.kind.value)
    }
}

/// An `801` record: kept as written; [`Team801Record::parse`] reads what the sample files show.
#[derive(Debug, Clone, PartialEq)]
pub struct Team801Record {
    /// The whole line, as read.
    pub raw: String,
}

/// What an `801` line says, read as the TEC sample writes it: team 5-6, nickname 8-12, MP 14-17,
/// GP 19-22, then blocks from column 24 of `OPP C RESULTS LINEUP`, one result and one roster
/// position (0: empty board) per board.
#[derive(Debug, Clone, PartialEq)]
pub struct Team801 {
    /// Columns 5-6: the team's pairing number.
    pub team: u32,
    /// The team's rounds, in order.
    pub rounds: Vec<Round801>,
}

/// One round of an `801` record, from the team's side.
#[derive(Debug, Clone, PartialEq)]
pub struct Round801 {
    /// The opponent's team number; `None` for a bye (`FFFF`, `HHHH`, `ZZZZ`, `UUUU`).
    pub opponent: Option<u32>,
    /// `w` or `b`; `None` for a bye.
    pub colour: Option<char>,
    /// One character per board, from the team's side: `1 = 0 + -`, or the bye letter.
    pub results: String,
    /// One roster position per board (1-based; 0 for an empty board); empty for a forfeit.
    pub lineup: Vec<u32>,
}

impl Team801Record {
    /// Reads the record as the TEC sample writes it; `None` where it does not fit.
    pub fn parse(&self) -> Option<Team801> {
        let chars: Vec<char> = self.raw.chars().collect();
        let span = |from: usize, to: usize| -> String {
            chars
                .get(from - 1..to.min(chars.len()))
                .map(|s| s.iter().collect())
                .unwrap_or_default()
        };
        let team = span(5, 6).trim().parse().ok()?;
        // The block width follows the board count: `OPP C ` + results + ` ` + lineup + ` `.
        let boards = chars
            .get(29..)?
            .iter()
            .take_while(|c| !c.is_whitespace())
            .count();
        if boards == 0 {
            return None;
        }
        let width = 8 + 2 * boards;
        let mut rounds = Vec::new();
        let mut s = 24;
        while s + 5 + boards <= chars.len() {
            let opp = span(s, s + 2);
            let results = span(s + 6, s + 5 + boards);
            if results.trim().is_empty() {
                break;
            }
            let lineup_text = span(s + 7 + boards, s + 6 + 2 * boards);
            let lineup: Vec<u32> = lineup_text
                .trim()
                .chars()
                .filter_map(|c| c.to_digit(36))
                .collect();
            let colour = span(s + 4, s + 4).chars().next().filter(|c| *c != ' ');
            rounds.push(Round801 {
                opponent: opp.trim().parse().ok(),
                colour,
                results: results.trim().to_string(),
                lineup,
            });
            s += width;
        }
        Some(Team801 { team, rounds })
    }
}

/// A `802` record: a team's totals and its game points in each round (informative).
#[derive(Debug, Clone, PartialEq)]
pub struct Team802Record {
    /// Columns 5-7: the team's pairing number.
    pub team: Field<u32>,
    /// Columns 9-13: the team's nickname (`GEO`).
    pub nickname: Field<String>,
    /// Columns 15-20: the team's total match points.
    pub match_points: Field<Option<f64>>,
    /// Columns 22-27: the team's total game points.
    pub game_points: Field<Option<f64>>,
    /// Round 1 from column 29, every 13 columns.
    pub rounds: Vec<Round802>,
    /// The blanks after the last field, kept so that the line is written back as it was read.
    pub tail: String,
}

/// One round of a `802` record.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Round802 {
    /// The opponent's team number, or `PAB`, `FPB`, `HPB`, `ZPB`.
    pub opponent: Field<String>,
    /// Column 33 in round 1: `w` or `b`; blank for a bye.
    pub colour: Field<Option<char>>,
    /// Columns 35-38 in round 1: the game points the team scored in the round.
    pub game_points: Field<Option<f64>>,
    /// `f` when the match was forfeited.
    pub forfeit: Field<Option<char>>,
}

fn tag_of(text: &str) -> &str {
    let end = text.char_indices().nth(3).map_or(text.len(), |(i, _)| i);
    &text[..end]
}

/// Reads one line (without its ending) into its record.
pub(crate) fn parse_line(text: &str, origin: &str, line: usize) -> Result<Record, TrfError> {
    if text.chars().all(char::is_whitespace) {
        return Ok(Record::Blank(text.to_string()));
    }
    let tag = tag_of(text);
    if tag == "###" {
        return Ok(Record::Comment(text.chars().skip(3).collect()));
    }
    if tag.starts_with("XX") {
        return Ok(Record::JaVaFo(text.to_string()));
    }
    let r = LineReader::new(text, origin, line);
    Ok(match tag {
        "001" => Record::Player(parse_player(r)?),
        "013" => Record::Team013(parse_013(r)?),
        "310" => Record::Team310(parse_310(r)?),
        "240" => Record::Bye240(parse_240(r)?),
        "250" => Record::Acceleration250(parse_250(r)?),
        "260" => Record::Prohibited260(parse_260(r)?),
        "299" => Record::AbnormalPoints299(parse_299(r)?),
        "300" => Record::OutOfOrderLineup300(parse_300(r)?),
        "320" => Record::TeamPab320(parse_320(r)?),
        "330" => Record::ForfeitedMatch330(parse_330(r)?),
        "801" => Record::Team801(Team801Record {
            raw: text.to_string(),
        }),
        "802" => Record::Team802(parse_802(r)?),
        t if t.len() == 3 && t.bytes().all(|b| b.is_ascii_digit()) => match t.parse::<u16>() {
            Ok(n) if TOURNAMENT_TAGS.contains(&n) => Record::Tournament(parse_tournament(n, r)?),
            _ => Record::Unknown(text.to_string()),
        },
        t if is_national_rating(t, text) => Record::NationalRating(parse_nrs(t, r)?),
        _ => Record::Unknown(text.to_string()),
    })
}

/// An NRS record: three capital letters (not `DAT`, Tornelo's), a blank, a start rank at 5-8.
fn is_national_rating(tag: &str, text: &str) -> bool {
    let start: String = text.chars().skip(3).take(5).collect();
    tag.chars().count() == 3
        && tag.chars().all(|c| c.is_ascii_uppercase())
        && tag != "DAT"
        && start.starts_with(' ')
        && u32::parse(&start[1..]).is_some()
}

/// Reads numbers every `step` columns from `first`, `width` wide, until the line is blank.
fn list(
    r: &mut LineReader<'_>,
    first: usize,
    width: usize,
    step: usize,
    what: &str,
) -> Result<Vec<Field<Ref>>, TrfError> {
    let mut out = Vec::new();
    let mut col = first;
    while r.more() {
        out.push(r.field(col, col + width - 1, what)?);
        col += step;
    }
    Ok(out)
}

fn check_char(
    r: &LineReader<'_>,
    f: &Field<Option<char>>,
    col: usize,
    allowed: &str,
    expected: &str,
) -> Result<(), TrfError> {
    match f.value {
        Some(c) if !allowed.contains(c) => Err(r.error(
            col,
            format!("{expected} in {}", columns(col, col)),
            c.to_string(),
        )),
        _ => Ok(()),
    }
}

fn parse_tournament(tag: u16, mut r: LineReader<'_>) -> Result<TournamentRecord, TrfError> {
    r.skip_tag();
    let body = match tag {
        132 => {
            let label = r.field(5, 91, "text")?;
            let mut dates = Vec::new();
            let mut col = 92;
            while r.more() {
                let d: Field<String> = r.field(col, col + 7, "a round date")?;
                if !d.value.is_empty() && !is_short_date(&d.value) {
                    return Err(r.error(
                        col,
                        format!(
                            "a round date like 24/12/01 (YY/MM/DD) in {}",
                            columns(col, col + 7)
                        ),
                        d.value,
                    ));
                }
                dates.push(d);
                col += 10;
            }
            TournamentBody::RoundDates { label, dates }
        }
        142 => TournamentBody::Rounds(r.field(5, usize::MAX, "the number of rounds")?),
        152 => {
            let f = r.field(5, 5, "the initial colour W or B")?;
            check_char(&r, &f, 5, "WBwb", "the initial colour W or B")?;
            TournamentBody::InitialColour(f)
        }
        162 | 362 => {
            let (code_col, code_len, allowed, what) = if tag == 162 {
                (
                    6,
                    1,
                    &["W", "D", "L", "A", "P", "X"][..],
                    "a result code W, D, L, A, P or X",
                )
            } else {
                (
                    5,
                    2,
                    &["TW", "TD", "TL"][..],
                    "a match result code TW, TD or TL",
                )
            };
            let mut entries = Vec::new();
            let mut k = 0;
            while r.more() {
                let c = code_col + 9 * k;
                let code: Field<String> = r.field(c, c + code_len - 1, what)?;
                if !allowed.contains(&code.value.to_ascii_uppercase().as_str()) {
                    return Err(r.error(
                        c,
                        format!("{what} in {}", columns(c, c + code_len - 1)),
                        code.value,
                    ));
                }
                let points = r.field(7 + 9 * k, 10 + 9 * k, "points like 1.0")?;
                entries.push(ScoringEntry { code, points });
                k += 1;
            }
            if tag == 162 {
                TournamentBody::Scoring(entries)
            } else {
                TournamentBody::TeamScoring(entries)
            }
        }
        172 => TournamentBody::StartingRankMethod {
            federation: r.text(5, 7, 9)?,
            method: r.field(9, 13, "a starting-rank method")?,
        },
        202 | 212 => TournamentBody::Codes(r.field(5, usize::MAX, "tie-break codes")?),
        352 => {
            let f: Field<String> = r.field(5, usize::MAX, "board colours like WBWB")?;
            if let Some(c) = f.value.chars().find(|c| !"WBwb".contains(*c)) {
                return Err(r.error(
                    5,
                    "board colours like WBWB (only W and B) from column 5".to_string(),
                    c.to_string(),
                ));
            }
            TournamentBody::BoardColours(f)
        }
        _ => TournamentBody::Text(r.field(5, usize::MAX, "text")?),
    };
    Ok(TournamentRecord {
        tag,
        body,
        tail: r.tail()?,
    })
}

fn is_short_date(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 8
        && b[2] == b'/'
        && b[5] == b'/'
        && [0, 1, 3, 4, 6, 7].iter().all(|&i| b[i].is_ascii_digit())
}

fn parse_player(mut r: LineReader<'_>) -> Result<PlayerRecord, TrfError> {
    r.skip_tag();
    let start_rank = r.field(5, 8, "a start rank")?;
    let sex = r.field(10, 10, "the sex")?;
    let title = r.text(11, 13, 15)?;
    let name = r.text(15, 47, 49)?;
    let rating = r.field(49, 52, "a rating like 2350")?;
    let federation = r.text(54, 56, 58)?;
    let fide_id = r.text(58, 68, 70)?;
    let birth_date = r.text(70, 79, 81)?;
    let points = r.field(81, 84, "a score like 11.5")?;
    let rank = r.field(86, 89, "a rank")?;
    let mut rounds = Vec::new();
    let mut s = 92;
    while r.more() {
        let opponent = r.field(s, s + 3, "an opponent's start rank (0000 for none)")?;
        let colour = r.field(s + 5, s + 5, "a colour w, b or -")?;
        check_char(&r, &colour, s + 5, "wbWB-", "a colour w, b or -")?;
        let result = r.field(s + 7, s + 7, "a result code")?;
        if let Some(c) = result.value
            && ResultCode::from_char(c).is_none()
        {
            return Err(r.error(
                s + 7,
                format!(
                    "a result code (1 = 0 + - W D L H F U Z) in column {}",
                    s + 7
                ),
                c.to_string(),
            ));
        }
        rounds.push(RoundBlock {
            opponent,
            colour,
            result,
        });
        s += 10;
    }
    Ok(PlayerRecord {
        start_rank,
        sex,
        title,
        name,
        rating,
        federation,
        fide_id,
        birth_date,
        points,
        rank,
        rounds,
        tail: r.tail()?,
    })
}

fn parse_nrs(tag: &str, mut r: LineReader<'_>) -> Result<NationalRatingRecord, TrfError> {
    r.skip_tag();
    Ok(NationalRatingRecord {
        federation: tag.to_string(),
        start_rank: r.field(5, 8, "a start rank")?,
        sex: r.field(10, 10, "the sex")?,
        classification: r.text(11, 13, 15)?,
        name: r.text(15, 47, 49)?,
        rating: r.field(49, 52, "a national rating like 1850")?,
        origin: r.text(54, 56, 58)?,
        national_id: r.text(58, 68, 70)?,
        birth_date: r.text(70, 79, 81)?,
        tail: r.tail()?,
    })
}

fn parse_013(mut r: LineReader<'_>) -> Result<Team013Record, TrfError> {
    r.skip_tag();
    let name = r.field(5, 36, "a team name")?;
    let players = list(&mut r, 37, 4, 5, "a player's start rank")?;
    Ok(Team013Record {
        name,
        players,
        tail: r.tail()?,
    })
}

fn parse_310(mut r: LineReader<'_>) -> Result<Team310Record, TrfError> {
    r.skip_tag();
    let number = r.field(5, 7, "a team pairing number")?;
    let name = r.text(9, 40, 42)?;
    let nickname = r.text(42, 46, 48)?;
    let strength = r.text(48, 53, 55)?;
    let match_points = r.field(55, 60, "match points like 15.0")?;
    let game_points = r.field(62, 67, "game points like 28.5")?;
    let rank = r.field(69, 71, "a team rank")?;
    let players = list(&mut r, 74, 4, 5, "a player's start rank")?;
    Ok(Team310Record {
        number,
        name,
        nickname,
        strength,
        match_points,
        game_points,
        rank,
        players,
        tail: r.tail()?,
    })
}

fn parse_240(mut r: LineReader<'_>) -> Result<ByeRecord, TrfError> {
    r.skip_tag();
    let kind = r.field(5, 5, "a bye type F, H or Z")?;
    check_char(&r, &kind, 5, "FHZfhz", "a bye type F, H or Z")?;
    if kind.value.is_none() {
        return Err(r.error(5, "a bye type F, H or Z in column 5".into(), String::new()));
    }
    let round = r.field(7, 9, "a round number")?;
    let ids = list(&mut r, 11, 4, 5, "a player or team number")?;
    Ok(ByeRecord {
        kind,
        round,
        ids,
        tail: r.tail()?,
    })
}

fn parse_250(mut r: LineReader<'_>) -> Result<AccelerationRecord, TrfError> {
    r.skip_tag();
    Ok(AccelerationRecord {
        match_points: r.field(5, 8, "match points like 1.0")?,
        game_points: r.field(10, 13, "game points like 1.0")?,
        first_round: r.field(15, 17, "the first round")?,
        last_round: r.field(19, 21, "the last round")?,
        first_id: r.field(23, 26, "the first player or team number")?,
        last_id: r.field(28, 31, "the last player or team number")?,
        tail: r.tail()?,
    })
}

fn parse_260(mut r: LineReader<'_>) -> Result<ProhibitedRecord, TrfError> {
    r.skip_tag();
    let first_round = r.field(5, 7, "the first round")?;
    let last_round = r.field(9, 11, "the last round")?;
    let ids = list(&mut r, 13, 4, 5, "a player or team number")?;
    Ok(ProhibitedRecord {
        first_round,
        last_round,
        ids,
        tail: r.tail()?,
    })
}

fn parse_299(mut r: LineReader<'_>) -> Result<AbnormalPointsRecord, TrfError> {
    r.skip_tag();
    let kind = r.field(5, 5, "an assignment type")?;
    check_char(
        &r,
        &kind,
        5,
        "WDLFHZ+-wdlfhz",
        "an assignment type W, D, L, F, H, Z, + or -",
    )?;
    let match_points = r.field(8, 11, "match points like -1.0")?;
    let game_points = r.field(14, 17, "game points like 2.0")?;
    let round = r.field(20, 22, "a round number (000 for all rounds)")?;
    let ids = list(&mut r, 24, 4, 5, "a player or team number")?;
    Ok(AbnormalPointsRecord {
        kind,
        match_points,
        game_points,
        round,
        ids,
        tail: r.tail()?,
    })
}

fn parse_300(mut r: LineReader<'_>) -> Result<LineupRecord, TrfError> {
    r.skip_tag();
    let round = r.field(5, 7, "a round number")?;
    let team = r.field(9, 11, "a team pairing number")?;
    let opponent = r.field(13, 15, "the opponent's team number")?;
    let players = list(
        &mut r,
        17,
        4,
        5,
        "a player's start rank (0000 for an empty board)",
    )?;
    Ok(LineupRecord {
        round,
        team,
        opponent,
        players,
        tail: r.tail()?,
    })
}

fn parse_320(mut r: LineReader<'_>) -> Result<TeamPabRecord, TrfError> {
    r.skip_tag();
    let match_points = r.field(5, 8, "match points like 1.0")?;
    let game_points = r.field(10, 13, "game points like 2.0")?;
    let teams = list(&mut r, 15, 3, 4, "a team number (000 for none)")?;
    Ok(TeamPabRecord {
        match_points,
        game_points,
        teams,
        tail: r.tail()?,
    })
}

fn parse_330(mut r: LineReader<'_>) -> Result<ForfeitedMatchRecord, TrfError> {
    r.skip_tag();
    let kind: Field<String> = r.field(5, 6, "a forfeit type")?;
    if MatchForfeitKind::from_code(&kind.value).is_none() {
        return Err(r.error(
            5,
            "a forfeit type +-, -+ or -- in columns 5-6".into(),
            kind.value,
        ));
    }
    Ok(ForfeitedMatchRecord {
        kind,
        round: r.field(8, 10, "a round number")?,
        white: r.field(12, 14, "the White team's number")?,
        black: r.field(16, 18, "the Black team's number")?,
        tail: r.tail()?,
    })
}

fn parse_802(mut r: LineReader<'_>) -> Result<Team802Record, TrfError> {
    r.skip_tag();
    let team = r.field(5, 7, "a team pairing number")?;
    let nickname = r.text(9, 13, 15)?;
    let match_points = r.field(15, 20, "match points like 15.0")?;
    let game_points = r.field(22, 27, "game points like 28.5")?;
    let mut rounds = Vec::new();
    let mut s = 29;
    while r.more() {
        let opponent: Field<String> = r.field(s, s + 2, "an opponent or bye")?;
        let o = opponent.value.as_str();
        if !(o.is_empty() || u32::parse(o).is_some() || ["PAB", "FPB", "HPB", "ZPB"].contains(&o)) {
            return Err(r.error(
                s,
                format!(
                    "a team number or PAB, FPB, HPB, ZPB in {}",
                    columns(s, s + 2)
                ),
                opponent.value,
            ));
        }
        let colour = r.field(s + 4, s + 4, "a colour w or b")?;
        check_char(&r, &colour, s + 4, "wbWB", "a colour w or b")?;
        let game_points = r.field(s + 6, s + 9, "game points like 2.5")?;
        let forfeit = r.field(s + 10, s + 10, "a forfeit mark f")?;
        check_char(&r, &forfeit, s + 10, "fF", "a forfeit mark f")?;
        rounds.push(Round802 {
            opponent,
            colour,
            game_points,
            forfeit,
        });
        s += 13;
    }
    Ok(Team802Record {
        team,
        nickname,
        match_points,
        game_points,
        rounds,
        tail: r.tail()?,
    })
}

fn put_list(w: &mut LineWriter, first: usize, width: usize, step: usize, ids: &[Field<Ref>]) {
    for (k, f) in ids.iter().enumerate() {
        let c = first + step * k;
        w.field(c, c + width - 1, f);
    }
}

impl Record {
    /// The line this record is written as (without its line ending).
    pub fn to_line(&self) -> String {
        match self {
            Record::Comment(t) => format!("###{t}"),
            Record::JaVaFo(t) | Record::Blank(t) | Record::Unknown(t) => t.clone(),
            Record::Team801(t) => t.raw.clone(),
            Record::Tournament(t) => t.to_line(),
            Record::Player(p) => p.to_line(),
            Record::NationalRating(n) => {
                let mut w = LineWriter::new(&n.federation);
                w.field(5, 8, &n.start_rank);
                w.field(10, 10, &n.sex);
                w.field(11, 13, &n.classification);
                w.field(15, 47, &n.name);
                w.field(49, 52, &n.rating);
                w.field(54, 56, &n.origin);
                w.field(58, 68, &n.national_id);
                w.field(70, 79, &n.birth_date);
                w.finish(&n.tail)
            }
            Record::Team013(t) => {
                let mut w = LineWriter::new("013");
                w.field(5, 36, &t.name);
                put_list(&mut w, 37, 4, 5, &t.players);
                w.finish(&t.tail)
            }
            Record::Team310(t) => t.to_line(),
            Record::Bye240(b) => {
                let mut w = LineWriter::new("240");
                w.field(5, 5, &b.kind);
                w.field(7, 9, &b.round);
                put_list(&mut w, 11, 4, 5, &b.ids);
                w.finish(&b.tail)
            }
            Record::Acceleration250(a) => {
                let mut w = LineWriter::new("250");
                w.field(5, 8, &a.match_points);
                w.field(10, 13, &a.game_points);
                w.field(15, 17, &a.first_round);
                w.field(19, 21, &a.last_round);
                w.field(23, 26, &a.first_id);
                w.field(28, 31, &a.last_id);
                w.finish(&a.tail)
            }
            Record::Prohibited260(p) => {
                let mut w = LineWriter::new("260");
                w.field(5, 7, &p.first_round);
                w.field(9, 11, &p.last_round);
                put_list(&mut w, 13, 4, 5, &p.ids);
                w.finish(&p.tail)
            }
            Record::AbnormalPoints299(a) => {
                let mut w = LineWriter::new("299");
                w.field(5, 5, &a.kind);
                w.field(8, 11, &a.match_points);
                w.field(14, 17, &a.game_points);
                w.field(20, 22, &a.round);
                put_list(&mut w, 24, 4, 5, &a.ids);
                w.finish(&a.tail)
            }
            Record::OutOfOrderLineup300(l) => {
                let mut w = LineWriter::new("300");
                w.field(5, 7, &l.round);
                w.field(9, 11, &l.team);
                w.field(13, 15, &l.opponent);
                put_list(&mut w, 17, 4, 5, &l.players);
                w.finish(&l.tail)
            }
            Record::TeamPab320(p) => {
                let mut w = LineWriter::new("320");
                w.field(5, 8, &p.match_points);
                w.field(10, 13, &p.game_points);
                put_list(&mut w, 15, 3, 4, &p.teams);
                w.finish(&p.tail)
            }
            Record::ForfeitedMatch330(f) => {
                let mut w = LineWriter::new("330");
                w.field(5, 6, &f.kind);
                w.field(8, 10, &f.round);
                w.field(12, 14, &f.white);
                w.field(16, 18, &f.black);
                w.finish(&f.tail)
            }
            Record::Team802(t) => {
                let mut w = LineWriter::new("802");
                w.field(5, 7, &t.team);
                w.field(9, 13, &t.nickname);
                w.field(15, 20, &t.match_points);
                w.field(22, 27, &t.game_points);
                for (k, r) in t.rounds.iter().enumerate() {
                    let s = 29 + 13 * k;
                    w.field(s, s + 2, &r.opponent);
                    w.field(s + 4, s + 4, &r.colour);
                    w.field(s + 6, s + 9, &r.game_points);
                    w.field(s + 10, s + 10, &r.forfeit);
                }
                w.finish(&t.tail)
            }
        }
    }

    /// Drops every field's text as read, so that the record is written in the standard layout.
    pub fn forget_spelling(&mut self) {
        fn all<T: Spelled>(fs: &mut [Field<T>]) {
            fs.iter_mut().for_each(Field::forget_spelling);
        }
        match self {
            Record::Comment(_)
            | Record::JaVaFo(_)
            | Record::Blank(_)
            | Record::Unknown(_)
            | Record::Team801(_) => {}
            Record::Tournament(t) => match &mut t.body {
                TournamentBody::Text(f) | TournamentBody::BoardColours(f) => f.forget_spelling(),
                TournamentBody::RoundDates { label, dates } => {
                    label.forget_spelling();
                    all(dates);
                }
                TournamentBody::Rounds(f) => f.forget_spelling(),
                TournamentBody::InitialColour(f) => f.forget_spelling(),
                TournamentBody::Scoring(e) | TournamentBody::TeamScoring(e) => {
                    for x in e {
                        x.code.forget_spelling();
                        x.points.forget_spelling();
                    }
                }
                TournamentBody::StartingRankMethod { federation, method } => {
                    federation.forget_spelling();
                    method.forget_spelling();
                }
                TournamentBody::Codes(f) => f.forget_spelling(),
            },
            Record::Player(p) => {
                p.start_rank.forget_spelling();
                for f in [
                    &mut p.sex,
                    &mut p.title,
                    &mut p.name,
                    &mut p.federation,
                    &mut p.fide_id,
                    &mut p.birth_date,
                ] {
                    f.forget_spelling();
                }
                p.rating.forget_spelling();
                p.points.forget_spelling();
                p.rank.forget_spelling();
                for b in &mut p.rounds {
                    b.opponent.forget_spelling();
                    b.colour.forget_spelling();
                    b.result.forget_spelling();
                }
            }
            Record::NationalRating(n) => {
                n.start_rank.forget_spelling();
                for f in [
                    &mut n.sex,
                    &mut n.classification,
                    &mut n.name,
                    &mut n.origin,
                    &mut n.national_id,
                    &mut n.birth_date,
                ] {
                    f.forget_spelling();
                }
                n.rating.forget_spelling();
            }
            Record::Team013(t) => {
                t.name.forget_spelling();
                all(&mut t.players);
            }
            Record::Team310(t) => {
                t.number.forget_spelling();
                for f in [&mut t.name, &mut t.nickname, &mut t.strength] {
                    f.forget_spelling();
                }
                t.match_points.forget_spelling();
                t.game_points.forget_spelling();
                t.rank.forget_spelling();
                all(&mut t.players);
            }
            Record::Bye240(b) => {
                b.kind.forget_spelling();
                b.round.forget_spelling();
                all(&mut b.ids);
            }
            Record::Acceleration250(a) => {
                a.match_points.forget_spelling();
                a.game_points.forget_spelling();
                for f in [
                    &mut a.first_round,
                    &mut a.last_round,
                    &mut a.first_id,
                    &mut a.last_id,
                ] {
                    f.forget_spelling();
                }
            }
            Record::Prohibited260(p) => {
                p.first_round.forget_spelling();
                p.last_round.forget_spelling();
                all(&mut p.ids);
            }
            Record::AbnormalPoints299(a) => {
                a.kind.forget_spelling();
                a.match_points.forget_spelling();
                a.game_points.forget_spelling();
                a.round.forget_spelling();
                all(&mut a.ids);
            }
            Record::OutOfOrderLineup300(l) => {
                l.round.forget_spelling();
                l.team.forget_spelling();
                l.opponent.forget_spelling();
                all(&mut l.players);
            }
            Record::TeamPab320(p) => {
                p.match_points.forget_spelling();
                p.game_points.forget_spelling();
                all(&mut p.teams);
            }
            Record::ForfeitedMatch330(f) => {
                f.kind.forget_spelling();
                f.round.forget_spelling();
                f.white.forget_spelling();
                f.black.forget_spelling();
            }
            Record::Team802(t) => {
                t.team.forget_spelling();
                t.nickname.forget_spelling();
                t.match_points.forget_spelling();
                t.game_points.forget_spelling();
                for r in &mut t.rounds {
                    r.opponent.forget_spelling();
                    r.colour.forget_spelling();
                    r.game_points.forget_spelling();
                    r.forfeit.forget_spelling();
                }
            }
        }
    }
}

impl TournamentRecord {
    /// A free-text tournament record (`012 Grandmommy's Cup`).
    pub fn text(tag: u16, text: &str) -> TournamentRecord {
        TournamentRecord {
            tag,
            body: TournamentBody::Text(Field::new(text.to_string())),
            tail: String::new(),
        }
    }

    fn to_line(&self) -> String {
        let mut w = LineWriter::new(&format!("{:03}", self.tag));
        match &self.body {
            TournamentBody::Text(f) | TournamentBody::BoardColours(f) => w.field(5, usize::MAX, f),
            TournamentBody::Codes(f) => w.field(5, usize::MAX, f),
            TournamentBody::Rounds(f) => w.field(5, usize::MAX, f),
            TournamentBody::InitialColour(f) => w.field(5, 5, f),
            TournamentBody::RoundDates { label, dates } => {
                w.field(5, 91, label);
                for (k, d) in dates.iter().enumerate() {
                    w.field(92 + 10 * k, 99 + 10 * k, d);
                }
            }
            TournamentBody::Scoring(e) | TournamentBody::TeamScoring(e) => {
                let (code_col, code_len) = if self.tag == 162 { (6, 1) } else { (5, 2) };
                for (k, x) in e.iter().enumerate() {
                    let c = code_col + 9 * k;
                    w.field(c, c + code_len - 1, &x.code);
                    w.field(7 + 9 * k, 10 + 9 * k, &x.points);
                }
            }
            TournamentBody::StartingRankMethod { federation, method } => {
                w.field(5, 7, federation);
                w.field(9, 13, method);
            }
        }
        w.finish(&self.tail)
    }
}

impl PlayerRecord {
    fn to_line(&self) -> String {
        let mut w = LineWriter::new("001");
        w.field(5, 8, &self.start_rank);
        w.field(10, 10, &self.sex);
        w.field(11, 13, &self.title);
        w.field(15, 47, &self.name);
        w.field(49, 52, &self.rating);
        w.field(54, 56, &self.federation);
        w.field(58, 68, &self.fide_id);
        w.field(70, 79, &self.birth_date);
        w.field(81, 84, &self.points);
        w.field(86, 89, &self.rank);
        for (k, b) in self.rounds.iter().enumerate() {
            let s = 92 + 10 * k;
            w.field(s, s + 3, &b.opponent);
            w.field(s + 5, s + 5, &b.colour);
            w.field(s + 7, s + 7, &b.result);
        }
        w.finish(&self.tail)
    }
}

impl Team310Record {
    fn to_line(&self) -> String {
        let mut w = LineWriter::new("310");
        w.field(5, 7, &self.number);
        w.field(9, 40, &self.name);
        w.field(42, 46, &self.nickname);
        w.field(48, 53, &self.strength);
        w.field(55, 60, &self.match_points);
        w.field(62, 67, &self.game_points);
        w.field(69, 71, &self.rank);
        put_list(&mut w, 74, 4, 5, &self.players);
        w.finish(&self.tail)
    }
}
