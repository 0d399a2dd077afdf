//! The one write path of a finished game's moves (GT-M20's game scores): core reads the PGN
//! as the board's game (`game::read_board_score`: a game played there, every move legal, an
//! illegal one named by its number, the board's result); the store keeps it, superseding an
//! earlier upload, in the history.

use arbiter_core::record::model::{GameResult, MatchOutcome, Side, Unfinished};
use arbiter_core::season::entry::Problem;
use arbiter_core::season::game;

use crate::app::state::AppState;
use crate::http::auth::Acting;
use crate::results::context::MatchContext;
use crate::results::extra::NotRecorded;
use crate::ui::{diagram, words};

/// Reads `pgn` as the game of board `board` of the match and keeps it; which upload of the
/// board it is.
pub(crate) async fn record(
    state: &AppState,
    ctx: &MatchContext,
    acting: &Acting,
    board: u32,
    pgn: &str,
) -> Result<u32, NotRecorded> {
    game::read_board_score(&ctx.record.outcome, board, &ctx.stored.rules, pgn).map_err(|p| {
        NotRecorded::Invalid(vec![Problem {
            board: Some(board),
            field: p.field(),
            message: p.message().to_string(),
        }])
    })?;
    match state
        .store()
        .record_game_score(ctx.id, board, pgn.trim(), &acting.actor())
        .await
    {
        Ok(n) => {
            state.invalidate();
            Ok(n)
        }
        Err(arbiter_store::StoreError::Invalid(m)) => {
            Err(NotRecorded::Invalid(vec![Problem::on(board, "pgn", m)]))
        }
        Err(e) => Err(NotRecorded::Failed(e.into())),
    }
}

// ---------------------------------------------------------------------------------------------
// The match page's games section

/// A value of a form's list, with its label.
pub(crate) struct Pick {
    pub value: String,
    pub label: String,
    pub selected: bool,
}

/// GT-M20: a board whose game the page shows beyond its result line: an adjourned game, one
/// sent for adjudication (with its diagram, the players, schools and clocks), or an uploaded
/// game score (with its final position).
pub(crate) struct GameCard {
    pub board: u32,
    /// "Ada Reyes (Perrysburg High School), White v Ben Ortiz (Maumee High School), Black".
    pub players: String,
    /// Where the game stands, with its rule.
    pub state: String,
    /// The position as an inline SVG board, drawn by the product.
    pub diagram: Option<String>,
    /// Under the diagram: whose move, and the clocks when play stopped.
    pub caption: Option<String>,
    /// The moves, as PGN.
    pub moves: Option<String>,
    /// The uploaded PGN to download.
    pub pgn_href: Option<String>,
    /// The President's adjudication, or the home advisor's finished adjourned game.
    pub form: Option<SettleForm>,
}

/// GT-M20: the form that gives an unfinished game its result.
pub(crate) struct SettleForm {
    pub action: String,
    pub csrf: String,
    pub version: u32,
    pub board: u32,
    pub results: Vec<Pick>,
    /// An adjudication needs its reason.
    pub adjudicate: bool,
    pub button: String,
    pub reason: String,
    pub problems: Vec<String>,
}

/// GT-M20: the form that uploads a finished game's moves.
pub(crate) struct UploadForm {
    pub action: String,
    pub csrf: String,
    pub boards: Vec<Pick>,
    pub pgn: String,
    pub problems: Vec<String>,
    pub open: bool,
}

/// A settle form as sent (board, result, reason) with what was wrong.
pub(crate) type SettleSent = (u32, String, String, Vec<String>);

/// Who may do what on the games section, for [`cards`].
pub(crate) struct GameControls<'a> {
    pub csrf: &'a str,
    pub adjudicate: bool,
    pub finish: bool,
    pub sent: Option<&'a SettleSent>,
}

/// The games the match page shows, board by board.
pub(crate) fn cards(ctx: &MatchContext, can: &GameControls<'_>) -> Vec<GameCard> {
    let MatchOutcome::Boards(boards) = &ctx.record.outcome else {
        return Vec::new();
    };
    let view = &ctx.view;
    boards
        .iter()
        .zip(1u32..)
        .filter_map(|(b, n)| {
            let score = ctx.stored.game_score(ctx.id, n);
            if b.unfinished.is_none() && score.is_none() {
                return None;
            }
            let home_colour = ctx.stored.rules.colour(Some(b), n, Side::Home);
            let name = |side: Side| {
                let id = match side {
                    Side::Home => b.home_player.as_ref(),
                    Side::Away => b.away_player.as_ref(),
                };
                id.map_or_else(
                    || "—".to_string(),
                    |id| {
                        view.player(&id.0)
                            .map_or_else(|| id.0.clone(), |(p, _)| p.name.clone())
                    },
                )
            };
            let colour = |side: Side| {
                words::colour_word(if side == Side::Home {
                    home_colour
                } else {
                    home_colour.other()
                })
            };
            let whose = |side: Side| {
                format!(
                    "{} ({}), {}",
                    name(side),
                    ctx.school(side)
                        .map_or_else(|| ctx.team_name(side), str::to_string),
                    colour(side)
                )
            };
            let players = format!("{} v {}", whose(Side::Home), whose(Side::Away));
            // Said by the winner's name and colour: the score line's 1–0 is the home side's,
            // the PGN's White's, and a reader should not have to work out which.
            let won = |side: Side| format!("won by {} with {}", name(side), colour(side));
            let result = match b.result {
                GameResult::HomeWin => won(Side::Home),
                GameResult::AwayWin => won(Side::Away),
                GameResult::Draw => "drawn".to_string(),
                other => words::board_result(other).to_string(),
            };
            let waiting = b.result == GameResult::Pending;
            let (state, fen, moves) = match (&b.unfinished, score) {
                (Some(Unfinished::Adjourned { resume_on }), _) if waiting => (
                    format!(
                        "Adjourned to {} (GT-M20): the game is played to its end then, before the week is out, and its result entered; the match counts from then.",
                        words::date(*resume_on)
                    ),
                    None,
                    None,
                ),
                (Some(Unfinished::Adjourned { resume_on }), _) => (
                    format!(
                        "Adjourned to {} and finished then: {result} (GT-M20).",
                        words::date(*resume_on)
                    ),
                    None,
                    None,
                ),
                (Some(Unfinished::Adjudication(p)), _) if waiting => (
                    "Sent to the President for adjudication (GT-M20); the match counts once the game is decided.".to_string(),
                    Some(p.fen.clone()),
                    Some(p.pgn.clone()),
                ),
                (Some(Unfinished::Adjudication(p)), _) => (
                    format!("Adjudicated (GT-M20): {result}. Who decided, and why, is in the versions below."),
                    Some(p.fen.clone()),
                    Some(p.pgn.clone()),
                ),
                (None, Some(s)) => (
                    format!("The game's moves, as uploaded: {result}."),
                    game::read(&s.pgn).ok().map(|g| g.fen),
                    Some(s.pgn.clone()),
                ),
                (None, None) => return None,
            };
            let diagram = fen.as_deref().and_then(|f| game::diagram(f).ok());
            let clocks = b.adjudication()
                .map(|p| {
                    let clock = |c: &Option<String>| c.clone().unwrap_or_else(|| "not given".into());
                    format!(
                        " Clocks when play stopped: {} {}, {} {}.",
                        name(Side::Home),
                        clock(&p.home_clock),
                        name(Side::Away),
                        clock(&p.away_clock)
                    )
                })
                .unwrap_or_default();
            // Whose move matters to the one who adjudicates, not after the game's end.
            let caption = diagram.as_ref().map(|d| match b.unfinished {
                Some(_) => format!("When play stopped: {}.{clocks}", diagram::to_move(d)),
                None => "The final position.".to_string(),
            });
            let svg = diagram.as_ref().map(|d| {
                diagram::svg(d, &format!("Board {n}: {}", diagram::to_move(d)))
            });
            let form = settle_form(ctx, b, n, can, &name);
            Some(GameCard {
                board: n,
                players,
                state,
                diagram: svg,
                caption,
                moves: moves.or_else(|| score.map(|s| s.pgn.clone())),
                pgn_href: score.map(|_| format!("{}/boards/{n}/game.pgn", ctx.href())),
                form,
            })
        })
        .collect()
}

fn settle_form(
    ctx: &MatchContext,
    b: &arbiter_core::record::model::Board,
    n: u32,
    can: &GameControls<'_>,
    name: &dyn Fn(Side) -> String,
) -> Option<SettleForm> {
    if b.result != GameResult::Pending {
        return None;
    }
    let adjudicate = match &b.unfinished {
        Some(Unfinished::Adjudication(_)) if can.adjudicate => true,
        Some(Unfinished::Adjourned { .. }) if can.finish => false,
        _ => return None,
    };
    let (chosen, reason, problems) = match can.sent {
        Some((board, result, reason, problems)) if *board == n => {
            (result.clone(), reason.clone(), problems.clone())
        }
        _ => Default::default(),
    };
    let results = [
        ("1-0", format!("1\u{2013}0: {} wins", name(Side::Home))),
        ("1/2-1/2", "\u{bd}\u{2013}\u{bd}: drawn".to_string()),
        ("0-1", format!("0\u{2013}1: {} wins", name(Side::Away))),
    ]
    .into_iter()
    .map(|(v, label)| Pick {
        selected: chosen == v,
        value: v.to_string(),
        label,
    })
    .collect();
    Some(SettleForm {
        action: format!(
            "{}/{}",
            ctx.href(),
            if adjudicate {
                "adjudication"
            } else {
                "adjourned-game"
            }
        ),
        csrf: can.csrf.to_string(),
        version: ctx.in_force(),
        board: n,
        results,
        adjudicate,
        button: if adjudicate {
            format!("Decide board {n}")
        } else {
            format!("Enter board {n}'s result")
        },
        reason,
        problems,
    })
}

/// The upload form: a board with a game played on it, and its PGN.
pub(crate) fn upload_form(
    ctx: &MatchContext,
    csrf: &str,
    sent: Option<&(u32, String, Vec<String>)>,
) -> Option<UploadForm> {
    let MatchOutcome::Boards(boards) = &ctx.record.outcome else {
        return None;
    };
    let chosen = sent.map(|s| s.0);
    let picks: Vec<Pick> = boards
        .iter()
        .zip(1u32..)
        .filter(|(b, _)| b.result.is_played())
        .map(|(b, n)| Pick {
            value: n.to_string(),
            label: format!("Board {n} ({})", words::board_result(b.result)),
            selected: chosen == Some(n),
        })
        .collect();
    if picks.is_empty() {
        return None;
    }
    Some(UploadForm {
        action: format!("{}/game-scores", ctx.href()),
        csrf: csrf.to_string(),
        boards: picks,
        pgn: sent.map(|s| s.1.clone()).unwrap_or_default(),
        problems: sent.map(|s| s.2.clone()).unwrap_or_default(),
        open: sent.is_some(),
    })
}
