//! A game's moves, read and played (GT-M20): the position sent for adjudication must follow
//! from its moves, and a game score an advisor uploads must be a legal game with the board's
//! result. The moves are PGN, read by `pgn-reader` and played by `shakmaty`; every problem is a
//! sentence naming the move by its number (`23... Nf6`).
//!
//! Pure: the text is read from memory.

use std::ops::ControlFlow;

use pgn_reader::shakmaty::fen::Fen;
use pgn_reader::shakmaty::{
    CastlingMode, Chess, Color, EnPassantMode, KnownOutcome, Outcome, Position, Square,
};
use pgn_reader::{RawTag, Reader, SanPlus, Skip, Visitor};

use crate::record::model::{Colour, GameResult, MatchOutcome, Side};
use crate::rules::ruleset::Ruleset;

/// The longest PGN read, in characters: a game of a few hundred moves with comments is a few
/// thousand; half the 64 KiB a request may send, so that a longer one is refused by this sentence.
pub const PGN_MAX_CHARS: usize = 32 * 1024;

/// The longest FEN read: a position's six fields are at most about 90 characters.
pub const FEN_MAX_CHARS: usize = 100;

/// The longest clock reading kept (`1:02:30`, or "flag fell").
pub const CLOCK_MAX_CHARS: usize = 20;

/// A game read from its PGN and played to its last move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameScore {
    /// The moves in SAN, as played.
    pub moves: Vec<String>,
    /// The position after the last move, as FEN.
    pub fen: String,
    /// The result the PGN gives (`1-0`, `0-1`, `1/2-1/2`), from White's side; `None` for `*` or
    /// none.
    pub result: Option<WhiteResult>,
    /// The PGN's `White` and `Black` tags, when it has them.
    pub white: Option<String>,
    /// See `white`.
    pub black: Option<String>,
    /// The position the moves start from when the PGN's `FEN` tag sets one up, as FEN; `None`
    /// for a game from the initial position.
    pub start: Option<String>,
}

/// A game's result from White's side, as PGN writes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WhiteResult {
    /// `1-0`
    WhiteWins,
    /// `1/2-1/2`
    Draw,
    /// `0-1`
    BlackWins,
}

impl WhiteResult {
    /// PGN's code.
    pub fn code(self) -> &'static str {
        match self {
            WhiteResult::WhiteWins => "1-0",
            WhiteResult::Draw => "1/2-1/2",
            WhiteResult::BlackWins => "0-1",
        }
    }

    /// The board's result from the home side, the home player having `home`.
    pub fn for_home(self, home: Colour) -> GameResult {
        match (self, home) {
            (WhiteResult::Draw, _) => GameResult::Draw,
            (WhiteResult::WhiteWins, Colour::White) | (WhiteResult::BlackWins, Colour::Black) => {
                GameResult::HomeWin
            }
            _ => GameResult::AwayWin,
        }
    }
}

impl GameScore {
    /// The number of full moves played: `23` after `23. Qh5` or `23... Nf6`.
    pub fn full_moves(&self) -> usize {
        self.moves.len().div_ceil(2)
    }
}

/// Reads `pgn` (one game: tags optional, then its moves) and plays every move from the start, or
/// from the position its `FEN` tag sets up. The first illegal move stops it and is named.
pub fn read(pgn: &str) -> Result<GameScore, String> {
    let chars = pgn.chars().count();
    if chars > PGN_MAX_CHARS {
        return Err(format!(
            "The game score is {chars} characters; one game's PGN is at most {PGN_MAX_CHARS}. Send the one game."
        ));
    }
    if pgn.trim().is_empty() {
        return Err("The moves are missing; give them as PGN (1. e4 e5 2. Nf3 …).".into());
    }
    let mut reader = Reader::new(pgn.as_bytes());
    let played = match reader.read_game(&mut Replay) {
        Ok(Some(p)) => p?,
        Ok(None) => return Err("The PGN holds no game; give its moves (1. e4 e5 …).".into()),
        Err(e) => return Err(format!("The PGN could not be read: {e}.")),
    };
    if let Ok(Some(_)) = reader.read_game(&mut Replay) {
        return Err(
            "The PGN holds more than one game; send the one game this board played.".into(),
        );
    }
    Ok(played)
}

/// What is wrong with a game score uploaded for a board, by the field it is in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ScoreProblem {
    /// The match has no such board, or no game was played on it.
    Board(String),
    /// The moves are not a legal game, or not this board's game.
    Moves(String),
}

impl ScoreProblem {
    /// The form's field: `board` or `pgn`.
    pub fn field(&self) -> &'static str {
        match self {
            ScoreProblem::Board(_) => "board",
            ScoreProblem::Moves(_) => "pgn",
        }
    }

    /// The sentence.
    pub fn message(&self) -> &str {
        match self {
            ScoreProblem::Board(m) | ScoreProblem::Moves(m) => m,
        }
    }
}

/// GT-M20: reads `pgn` as the game played on board `number` of a match with `outcome`: the board
/// had a game played over it, every move is legal, and the result the PGN ends with (when it
/// gives one) is the board's, with the colours of the ruleset's colour rule (GT-M18).
pub fn read_board_score(
    outcome: &MatchOutcome,
    number: u32,
    rules: &Ruleset,
    pgn: &str,
) -> Result<GameScore, ScoreProblem> {
    let MatchOutcome::Boards(boards) = outcome else {
        return Err(ScoreProblem::Board(
            "The match has no boards played, so it has no game to upload; enter its result first (GT-M20)."
                .into(),
        ));
    };
    let Some(b) = usize::try_from(number)
        .ok()
        .and_then(|i| i.checked_sub(1))
        .and_then(|i| boards.get(i))
    else {
        return Err(ScoreProblem::Board(format!(
            "The match has no board {number}; choose a board from 1 to {}.",
            boards.len()
        )));
    };
    if !b.result.is_played() {
        return Err(ScoreProblem::Board(format!(
            "Board {number}'s game is {}, not a finished game; upload its moves once its result is entered (GT-M20).",
            b.result.symbol()
        )));
    }
    let score = read(pgn).map_err(|m| ScoreProblem::Moves(format!("Board {number}: {m}")))?;
    if let Some(start) = &score.start {
        check_start(number, start, b.adjudication().map(|a| a.fen.as_str()))?;
    }
    let home = rules.colour(Some(b), number, Side::Home);
    if let Some(r) = score.result
        && r.for_home(home) != b.result
    {
        return Err(ScoreProblem::Moves(format!(
            "Board {number}: the PGN ends {}, but the board's result is {} (the home player has {}); upload this board's game, or correct the result first (GT-M20).",
            r.code(),
            b.result.symbol(),
            match home {
                Colour::White => "White",
                Colour::Black => "Black",
            }
        )));
    }
    Ok(score)
}

/// GT-M20: a board's game starts from the initial position, or from the position it was
/// stopped in for adjudication (`stopped_at`, as the board keeps it): a game score set up from
/// any other position (its `FEN` tag) is not the game played on the board.
fn check_start(number: u32, start: &str, stopped_at: Option<&str>) -> Result<(), ScoreProblem> {
    let position = |fen: &str| -> Option<Chess> {
        Fen::from_ascii(fen.trim().as_bytes())
            .ok()?
            .into_position(CastlingMode::Standard)
            .ok()
    };
    let Some(set_up) = position(start) else {
        return Err(ScoreProblem::Moves(format!(
            "Board {number}: the PGN's FEN tag “{start}” is not a position; leave it out for the game from its start."
        )));
    };
    let from = |p: &Chess| same_position(p, &set_up);
    if from(&Chess::default()) || position(stopped_at.unwrap_or_default()).is_some_and(|p| from(&p))
    {
        return Ok(());
    }
    Err(ScoreProblem::Moves(format!(
        "Board {number}: the PGN starts from the position its FEN tag sets up ({start}), but a board's game score starts from the initial position, or from the position the game was stopped in{} (GT-M20); upload the whole game from move 1, without the FEN tag.",
        match stopped_at {
            Some(fen) => format!(" ({})", fen.trim()),
            None => ", and this board's game was not stopped".to_string(),
        }
    )))
}

/// The same pieces on the same squares, the same side to move and the same castling rights:
/// the move counters are not compared (a diagram rarely has them right).
fn same_position(a: &Chess, b: &Chess) -> bool {
    placement(a) == placement(b)
        && a.turn() == b.turn()
        && a.castles().castling_rights() == b.castles().castling_rights()
}

/// GT-M20: reads the moves of a game sent for adjudication and checks that they reach `fen`, the
/// position on the board: the same pieces on the same squares, the same side to move, the same
/// castling rights (the move counters are not compared: a diagram rarely has them right).
pub fn read_position(pgn: &str, fen: &str) -> Result<GameScore, PositionProblem> {
    let fen = fen.trim();
    if fen.chars().count() > FEN_MAX_CHARS {
        return Err(PositionProblem::Fen(format!(
            "The FEN is {} characters; a position's is at most {FEN_MAX_CHARS}. Give the position's six fields only.",
            fen.chars().count()
        )));
    }
    let given: Chess = Fen::from_ascii(fen.as_bytes())
        .map_err(|e| {
            PositionProblem::Fen(format!(
                "“{fen}” is not a position in FEN ({e}); write it as the six fields, e.g. rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1."
            ))
        })?
        .into_position(CastlingMode::Standard)
        .map_err(|e| {
            PositionProblem::Fen(format!(
                "“{fen}” is not a position a game can reach ({e}); check the pieces and the side to move."
            ))
        })?;
    let score = read(pgn).map_err(PositionProblem::Moves)?;
    let reached: Chess = Fen::from_ascii(score.fen.as_bytes())
        .ok()
        .and_then(|f| f.into_position(CastlingMode::Standard).ok())
        .ok_or_else(|| PositionProblem::Moves("The moves reach no position.".into()))?;
    if !same_position(&reached, &given) {
        return Err(PositionProblem::Differs(format!(
            "The moves do not reach the position given: after {} they reach {}, not {fen} (GT-M20). Check the diagram and the moves against the players' score sheets.",
            last_move_words(&score),
            score.fen
        )));
    }
    Ok(score)
}

/// What is wrong with a position sent for adjudication, by the field it is in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PositionProblem {
    /// The FEN is not a position.
    Fen(String),
    /// The moves are not a legal game.
    Moves(String),
    /// The moves are legal but reach another position.
    Differs(String),
}

impl PositionProblem {
    /// The sentence.
    pub fn message(&self) -> &str {
        match self {
            PositionProblem::Fen(m) | PositionProblem::Moves(m) | PositionProblem::Differs(m) => m,
        }
    }
}

/// A position's squares, a8 to h1 row by row as a diagram shows them from White's side: each
/// piece as FEN writes it (`K` a white king, `n` a black knight).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagram {
    /// Eight ranks, the eighth first; in each, files a to h.
    pub ranks: [[Option<char>; 8]; 8],
    /// Whose move it is.
    pub to_move: Colour,
}

/// The diagram of `fen`, or why it is not a position.
pub fn diagram(fen: &str) -> Result<Diagram, String> {
    let pos: Chess = Fen::from_ascii(fen.trim().as_bytes())
        .map_err(|e| format!("“{fen}” is not a position in FEN ({e})."))?
        .into_position(CastlingMode::Standard)
        .map_err(|e| format!("“{fen}” is not a position a game can reach ({e})."))?;
    let mut ranks = [[None; 8]; 8];
    for (i, row) in ranks.iter_mut().enumerate() {
        for (j, cell) in row.iter_mut().enumerate() {
            let sq = Square::ALL[(7 - i) * 8 + j];
            *cell = pos.board().piece_at(sq).map(|p| p.char());
        }
    }
    Ok(Diagram {
        ranks,
        to_move: match pos.turn() {
            Color::White => Colour::White,
            Color::Black => Colour::Black,
        },
    })
}

/// GT-M20: the days an adjourned game may resume: after the match day, "before the week is
/// out" (by its Sunday). `None` when the match was played at the week's end and no day is left:
/// the game is then adjudicated.
pub fn adjournment_window(
    played_on: jiff::civil::Date,
) -> Option<(jiff::civil::Date, jiff::civil::Date)> {
    let first = played_on.tomorrow().ok()?;
    let days_to_sunday = 7 - i64::from(played_on.weekday().to_monday_one_offset());
    let last = played_on
        .checked_add(jiff::Span::new().days(days_to_sunday))
        .ok()?;
    (first <= last).then_some((first, last))
}

/// "after 23... Nf6": the last move with its number, or "from the start" before any.
fn last_move_words(score: &GameScore) -> String {
    match score.moves.last() {
        None => "no moves".into(),
        Some(san) => format!("{} {san}", move_number(score.moves.len() - 1)),
    }
}

/// PGN's number for the half-move at `ply` (0-based from the start): `1.` for White's first,
/// `1...` for Black's.
fn move_number(ply: usize) -> String {
    let n = ply / 2 + 1;
    if ply.is_multiple_of(2) {
        format!("{n}.")
    } else {
        format!("{n}...")
    }
}

fn placement(pos: &Chess) -> Vec<Option<char>> {
    Square::ALL
        .iter()
        .map(|&sq| pos.board().piece_at(sq).map(|p| p.char()))
        .collect()
}

/// Plays a game as the reader hands it over.
struct Replay;

struct Tags {
    start: Option<Chess>,
    /// The `FEN` tag's position as FEN, when it set one up.
    start_fen: Option<String>,
    /// The ply of the first move: 1 when the set-up position has Black to move.
    first_ply: usize,
    white: Option<String>,
    black: Option<String>,
    problem: Option<String>,
}

struct Moves {
    pos: Chess,
    start_fen: Option<String>,
    first_ply: usize,
    moves: Vec<String>,
    result: Option<WhiteResult>,
    white: Option<String>,
    black: Option<String>,
}

impl Visitor for Replay {
    type Tags = Tags;
    type Movetext = Moves;
    type Output = Result<GameScore, String>;

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Self::Tags> {
        ControlFlow::Continue(Tags {
            start: None,
            start_fen: None,
            first_ply: 0,
            white: None,
            black: None,
            problem: None,
        })
    }

    fn tag(
        &mut self,
        tags: &mut Self::Tags,
        name: &[u8],
        value: RawTag<'_>,
    ) -> ControlFlow<Self::Output> {
        let text = || String::from_utf8_lossy(value.as_bytes()).trim().to_string();
        match name {
            b"White" => tags.white = Some(text()).filter(|s| !s.is_empty() && s != "?"),
            b"Black" => tags.black = Some(text()).filter(|s| !s.is_empty() && s != "?"),
            b"FEN" => {
                let set_up = Fen::from_ascii(value.as_bytes())
                    .ok()
                    .and_then(|f| f.into_position::<Chess>(CastlingMode::Standard).ok());
                match set_up {
                    Some(pos) => {
                        tags.first_ply = usize::from(pos.turn() == Color::Black);
                        tags.start_fen = Some(text());
                        tags.start = Some(pos);
                    }
                    None => {
                        tags.problem = Some(format!(
                            "The PGN's FEN tag “{}” is not a position; correct it or leave it out for a game from the start.",
                            text()
                        ))
                    }
                }
            }
            _ => {}
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Self::Tags) -> ControlFlow<Self::Output, Self::Movetext> {
        if let Some(p) = tags.problem {
            return ControlFlow::Break(Err(p));
        }
        ControlFlow::Continue(Moves {
            pos: tags.start.unwrap_or_default(),
            start_fen: tags.start_fen,
            first_ply: tags.first_ply,
            moves: Vec::new(),
            result: None,
            white: tags.white,
            black: tags.black,
        })
    }

    fn san(&mut self, m: &mut Self::Movetext, san_plus: SanPlus) -> ControlFlow<Self::Output> {
        let ply = m.first_ply + m.moves.len();
        match san_plus.san.to_move(&m.pos) {
            Ok(mv) => {
                m.moves.push(san_plus.san.to_string());
                m.pos.play_unchecked(mv);
                ControlFlow::Continue(())
            }
            Err(e) => {
                let side = if ply.is_multiple_of(2) {
                    "White"
                } else {
                    "Black"
                };
                let why = match e {
                    pgn_reader::shakmaty::san::SanError::AmbiguousSan => {
                        "more than one piece can make it; say which (Nbd2, R1e2)"
                    }
                    pgn_reader::shakmaty::san::SanError::IllegalSan => {
                        "no piece of that side can legally make it there"
                    }
                };
                ControlFlow::Break(Err(format!(
                    "Move {} {san_plus} is not legal for {side}: {why}. Check the score sheets from that move on.",
                    move_number(ply)
                )))
            }
        }
    }

    fn begin_variation(&mut self, _m: &mut Self::Movetext) -> ControlFlow<Self::Output, Skip> {
        // Only the moves played count; a variation is a comment on them.
        ControlFlow::Continue(Skip(true))
    }

    fn outcome(&mut self, m: &mut Self::Movetext, outcome: Outcome) -> ControlFlow<Self::Output> {
        m.result = match outcome {
            Outcome::Known(KnownOutcome::Decisive {
                winner: Color::White,
            }) => Some(WhiteResult::WhiteWins),
            Outcome::Known(KnownOutcome::Decisive {
                winner: Color::Black,
            }) => Some(WhiteResult::BlackWins),
            Outcome::Known(KnownOutcome::Draw) => Some(WhiteResult::Draw),
            Outcome::Unknown => None,
        };
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, m: Self::Movetext) -> Self::Output {
        Ok(GameScore {
            fen: Fen::from_position(&m.pos, EnPassantMode::Legal).to_string(),
            moves: m.moves,
            result: m.result,
            white: m.white,
            black: m.black,
            start: m.start_fen,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SCHOLARS_MATE: &str = "[White \"Ada Reyes\"]\n[Black \"Ben Ortiz\"]\n\n1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0";

    #[test]
    fn a_legal_game_is_played_to_its_last_move() {
        let g = read(SCHOLARS_MATE).unwrap();
        assert_eq!(g.moves, ["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7"]);
        assert_eq!(g.full_moves(), 4);
        assert_eq!(g.result, Some(WhiteResult::WhiteWins));
        assert_eq!(g.white.as_deref(), Some("Ada Reyes"));
        assert!(
            g.fen
                .starts_with("r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq")
        );
    }

    #[test]
    fn gt_m20_an_illegal_move_is_named_by_its_number() {
        let e = read("1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxc6 dxc6 5. Nxe5 Qd4 6. Nf3 Qxe4+ 7. Kf1 Ke7 8. Qe2 Qxe2+ 9. Kxe2 Bg4 10. Ke8")
            .unwrap_err();
        assert!(e.starts_with("Move 10. Ke8 is not legal for White"), "{e}");
        let e = read("1. d4 d5 2. c4 Nc6 3. Nc3 Ke6").unwrap_err();
        assert!(e.starts_with("Move 3... Ke6 is not legal for Black"), "{e}");
    }

    #[test]
    fn gt_m20_the_position_must_follow_from_the_moves() {
        let pgn = "1. e4 e5 2. Nf3 Nc6";
        let at = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
        assert!(read_position(pgn, at).is_ok());
        // The counters are not compared: a referee's diagram rarely has them.
        assert!(
            read_position(
                pgn,
                "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 0 1"
            )
            .is_ok()
        );
        // Black to move instead: not the position the moves reach.
        let e = read_position(
            pgn,
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 2 3",
        )
        .unwrap_err();
        assert!(matches!(e, PositionProblem::Differs(_)), "{e:?}");
        assert!(e.message().contains("after 2... Nc6"), "{}", e.message());
        assert!(matches!(
            read_position(pgn, "not a fen").unwrap_err(),
            PositionProblem::Fen(_)
        ));
        assert!(matches!(
            read_position("1. e4 e5 2. Ke3", at).unwrap_err(),
            PositionProblem::Moves(_)
        ));
    }

    #[test]
    fn a_game_from_a_set_up_position_counts_its_moves_from_there() {
        let pgn = "[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 40\"]\n\n40... Kd7 41. e4 *";
        let g = read(pgn).unwrap();
        assert_eq!(g.moves, ["Kd7", "e4"]);
        assert_eq!(g.result, None);
        let e = read("[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 40\"]\n\n1... e5 *").unwrap_err();
        assert!(e.starts_with("Move 1... e5 is not legal for Black"), "{e}");
    }

    #[test]
    fn two_games_or_none_are_refused() {
        assert!(read("").is_err());
        assert!(read(&format!("{SCHOLARS_MATE}\n\n{SCHOLARS_MATE}")).is_err());
    }

    #[test]
    fn the_diagram_reads_the_board_from_whites_side() {
        let d = diagram("4k3/8/8/8/8/8/4P3/4K3 b - - 0 40").unwrap();
        assert_eq!(d.ranks[0][4], Some('k'));
        assert_eq!(d.ranks[6][4], Some('P'));
        assert_eq!(d.ranks[7][4], Some('K'));
        assert_eq!(d.to_move, Colour::Black);
        assert!(diagram("8/8/8/8/8/8/8/8 w - - 0 1").is_err(), "no kings");
    }

    #[test]
    fn gt_m20_an_adjourned_game_resumes_before_the_week_is_out() {
        let wednesday = jiff::civil::date(2026, 12, 2);
        assert_eq!(
            adjournment_window(wednesday),
            Some((
                jiff::civil::date(2026, 12, 3),
                jiff::civil::date(2026, 12, 6)
            ))
        );
        let saturday = jiff::civil::date(2026, 12, 5);
        assert_eq!(
            adjournment_window(saturday),
            Some((
                jiff::civil::date(2026, 12, 6),
                jiff::civil::date(2026, 12, 6)
            ))
        );
        assert_eq!(adjournment_window(jiff::civil::date(2026, 12, 6)), None);
    }

    #[test]
    fn gt_m20_a_game_score_is_the_boards_game() {
        let rules = Ruleset::preset("gthscl").unwrap();
        let mut boards = vec![crate::record::model::Board::new(GameResult::HomeWin); 4];
        boards[1].result = GameResult::HomeWinByForfeit;
        let played = MatchOutcome::Boards(boards);
        // GT-M18 in the league: the visitors have White on odd boards, so board 1's home win
        // is Black's.
        let fools_mate = "1. f3 e5 2. g4 Qh4# 0-1";
        assert!(read_board_score(&played, 1, &rules, fools_mate).is_ok());
        let e = read_board_score(&played, 1, &rules, SCHOLARS_MATE).unwrap_err();
        assert_eq!(e.field(), "pgn");
        assert!(e.message().contains("the PGN ends 1-0"), "{}", e.message());
        // On an even board the home player has White.
        assert!(read_board_score(&played, 4, &rules, SCHOLARS_MATE).is_ok());
        // A forfeited board had no game; board 5 does not exist; a pending match has no boards.
        assert_eq!(
            read_board_score(&played, 2, &rules, SCHOLARS_MATE)
                .unwrap_err()
                .field(),
            "board"
        );
        assert!(read_board_score(&played, 5, &rules, SCHOLARS_MATE).is_err());
        assert!(read_board_score(&MatchOutcome::Pending, 1, &rules, SCHOLARS_MATE).is_err());
        // Moves without a result are taken as they are.
        assert!(read_board_score(&played, 1, &rules, "1. e4 e5 *").is_ok());
    }

    #[test]
    fn gt_m20_a_game_score_starts_from_the_initial_position_or_where_the_game_stopped() {
        let rules = Ruleset::preset("gthscl").unwrap();
        let stopped = "4k3/8/8/8/8/8/4P3/4K3 b - - 0 40";
        let from_there = format!("[FEN \"{stopped}\"]\n\n40... Kd7 41. e4 *");
        let played =
            MatchOutcome::Boards(vec![crate::record::model::Board::new(GameResult::Draw); 4]);
        // Any position set up on a board whose game was played through: refused.
        let e = read_board_score(&played, 1, &rules, &from_there).unwrap_err();
        assert_eq!(e.field(), "pgn");
        assert_eq!(
            e.message(),
            "Board 1: the PGN starts from the position its FEN tag sets up (4k3/8/8/8/8/8/4P3/4K3 b - - 0 40), but a board's game score starts from the initial position, or from the position the game was stopped in, and this board's game was not stopped (GT-M20); upload the whole game from move 1, without the FEN tag."
        );
        // The initial position named in a FEN tag is the game from its start.
        let initial =
            "[FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\"]\n\n1. e4 e5 *";
        assert!(read_board_score(&played, 1, &rules, initial).is_ok());
        // The position the board's game was stopped in for adjudication: its moves from there.
        let mut boards = vec![crate::record::model::Board::new(GameResult::Draw); 4];
        boards[0].unfinished = Some(crate::record::model::Unfinished::Adjudication(
            crate::record::model::AdjudicationPosition {
                pgn: String::new(),
                fen: stopped.replace(" 0 40", " 3 52"),
                home_clock: None,
                away_clock: None,
            },
        ));
        let stopped_board = MatchOutcome::Boards(boards);
        assert!(read_board_score(&stopped_board, 1, &rules, &from_there).is_ok());
        let elsewhere = "[FEN \"4k3/8/8/8/8/8/3P4/4K3 b - - 0 40\"]\n\n40... Kd7 *";
        let e = read_board_score(&stopped_board, 1, &rules, elsewhere).unwrap_err();
        assert!(
            e.message()
                .contains("stopped in (4k3/8/8/8/8/8/4P3/4K3 b - - 3 52)"),
            "{}",
            e.message()
        );
    }

    #[test]
    fn a_result_reads_from_the_home_side() {
        assert_eq!(
            WhiteResult::WhiteWins.for_home(Colour::Black),
            GameResult::AwayWin
        );
        assert_eq!(
            WhiteResult::BlackWins.for_home(Colour::Black),
            GameResult::HomeWin
        );
        assert_eq!(WhiteResult::Draw.for_home(Colour::White), GameResult::Draw);
    }
}
