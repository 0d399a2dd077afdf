//! The words the tables store for the core model's enums, and back.

use arbiter_core::{Board, ByeKind, Colour, GameResult, MatchOutcome, Side};

use crate::error::{StoreError, corrupt};

/// FIDE's codes for the kinds of bye (C.07 art. 16.1).
/// `ByeKind::code`: the spelling of every file, table and page (migration 0007).
pub(crate) fn bye_kind(k: ByeKind) -> &'static str {
    k.code()
}

pub(crate) fn parse_bye_kind(s: &str) -> Result<ByeKind, StoreError> {
    ByeKind::from_code(s).ok_or_else(|| corrupt(format!("the bye kind `{s}`")))
}

/// `Side::code`: the spelling of every file, table and page.
pub(crate) fn side(s: Side) -> &'static str {
    s.code()
}

pub(crate) fn parse_side(s: &str) -> Result<Side, StoreError> {
    Side::from_code(s).ok_or_else(|| corrupt(format!("the side `{s}`")))
}

/// `Colour::code`: the spelling of every file, table and page.
pub(crate) fn colour(c: Colour) -> &'static str {
    c.code()
}

pub(crate) fn parse_colour(s: &str) -> Result<Colour, StoreError> {
    Colour::from_code(s).ok_or_else(|| corrupt(format!("the colour `{s}`")))
}

/// Exactly the codes `GameResult::code` writes; the tables accept no other spelling.
pub(crate) fn parse_result(s: &str) -> Result<GameResult, StoreError> {
    const ALL: [GameResult; 7] = [
        GameResult::HomeWin,
        GameResult::Draw,
        GameResult::AwayWin,
        GameResult::HomeWinByForfeit,
        GameResult::AwayWinByForfeit,
        GameResult::DoubleForfeit,
        GameResult::Pending,
    ];
    ALL.into_iter()
        .find(|r| r.code() == s)
        .ok_or_else(|| corrupt(format!("the board result `{s}`")))
}

/// The `outcome` column and the `forfeit_by` column of a result version.
pub(crate) fn outcome_kind(o: &MatchOutcome) -> (&'static str, Option<&'static str>) {
    match o {
        MatchOutcome::Pending => ("pending", None),
        MatchOutcome::Boards(_) => ("boards", None),
        MatchOutcome::Forfeit { by } => ("forfeit", Some(side(*by))),
        MatchOutcome::DoubleForfeit => ("double_forfeit", None),
    }
}

/// Rebuilds an outcome from its columns and its board rows (in board order).
pub(crate) fn outcome(
    kind: &str,
    forfeit_by: Option<&str>,
    boards: Vec<Board>,
) -> Result<MatchOutcome, StoreError> {
    Ok(match kind {
        "pending" => MatchOutcome::Pending,
        "boards" => MatchOutcome::Boards(boards),
        "forfeit" => match forfeit_by {
            Some(s) => MatchOutcome::Forfeit { by: parse_side(s)? },
            None => return Err(corrupt("a match forfeit that names no side")),
        },
        "double_forfeit" => MatchOutcome::DoubleForfeit,
        _ => return Err(corrupt(format!("the match outcome `{kind}`"))),
    })
}

/// The real time, to the microsecond, whatever the site's clock says (`crate::Clock`): accounts
/// and their safety (sign-in attempts, invitations, reset links, API tokens) are a real person's,
/// so a rehearsal on `--now` neither expires nor revives them.
pub(crate) fn wall_clock() -> jiff::Timestamp {
    crate::Clock::System.now()
}

pub(crate) fn parse_timestamp(s: &str) -> Result<jiff::Timestamp, StoreError> {
    s.parse().map_err(|_| corrupt(format!("the time `{s}`")))
}

pub(crate) fn parse_date(s: Option<String>) -> Result<Option<jiff::civil::Date>, StoreError> {
    match s {
        None => Ok(None),
        Some(s) => s
            .parse()
            .map(Some)
            .map_err(|_| corrupt(format!("the date `{s}`"))),
    }
}

/// A match's start time as stored: `HH:MM`.
pub(crate) fn time_text(t: jiff::civil::Time) -> String {
    t.strftime("%H:%M").to_string()
}

pub(crate) fn parse_time(s: Option<String>) -> Result<Option<jiff::civil::Time>, StoreError> {
    match s {
        None => Ok(None),
        Some(s) => s
            .parse()
            .map(Some)
            .map_err(|_| corrupt(format!("the time `{s}`"))),
    }
}
