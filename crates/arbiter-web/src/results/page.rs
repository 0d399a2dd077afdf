//! One match: its boards, where its report stands (GT-P2) and every version of its result, with
//! the controls of the result workflow for those the permission table lets act.
//!
//! GT-M1, GT-P2: the home advisor enters the result (at an event, the arbiter, whose entry
//! stands), the visiting advisor confirms or disputes it, and an officer decides a dispute:
//! keeps the result as entered, or corrects it as a new version (GT-O3 keeps the President off
//! their own school's matches). An imported result stands as recorded. The table decides who
//! may, core's `report` when and `entry` what the result is; this module reads the match, draws
//! the page and decodes the forms for the one write path (`results::write`) the API shares.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use arbiter_core::record::model::{GameResult, MatchOutcome, Side};
use arbiter_core::rules::permissions::Action;
use arbiter_core::rules::ruleset::RatingSource;
use arbiter_core::rules::ruleset::Ruleset;
use arbiter_core::season::extra::ExtraState;
use arbiter_core::season::offers::Offers;
use arbiter_core::season::report::{
    self, EnteredBy, ReportStatus, ReportStep, ResultBasis, ReviewKind, ReviewedBy, WHO_DECIDES,
};
use arbiter_core::teams::sealed::{self, Sealed, Viewer};
use arbiter_store::LineupVersion;
use askama::Template;
use axum::Form;
use axum::extract::rejection::FormRejection;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::Response;

use crate::app::address::{ExtraGamePath, MatchAddress};
use crate::app::respond::{bad_path, private_in, see_other};
use crate::app::state::AppState;
use crate::app::view::{CompetitionView, MatchStatus};
use crate::http::auth::{Acting, Auth};
use crate::http::csrf;
use crate::http::error::{Format, WebError};
use crate::public::pages::BoardLine;
use crate::results::context::{
    BoardInput, MatchContext, MatchPath, Problem, ResultInput, blank, load, role_phrase, sentence,
    shown, who,
};
use crate::results::games;
use crate::results::lineup::{self, LineupInput, NotNamed};
use crate::results::write::{self as report_write, NotWritten, Submission};
use crate::ui::layout::{Layout, site_layout};
use crate::ui::link::{Link, league_href, season_href};
use crate::ui::words;

// ---------------------------------------------------------------------------------------------
// The page

struct Choice {
    value: String,
    label: String,
    selected: bool,
}

fn choices(options: &[(String, String)], chosen: &str) -> Vec<Choice> {
    options
        .iter()
        .map(|(value, label)| Choice {
            selected: value == chosen,
            value: value.clone(),
            label: label.clone(),
        })
        .collect()
}

struct BoardForm {
    number: u32,
    colours: String,
    home: Vec<Choice>,
    result: Vec<Choice>,
    away: Vec<Choice>,
    rating: Vec<Choice>,
    rating_open: bool,
    /// Why the board was not played (GT-M4, GT-M9, GT-M16, GT-M17), and the conduct's note.
    unplayed: Vec<Choice>,
    note: String,
    unplayed_open: bool,
    /// GT-M20: an unfinished game, adjourned or sent for adjudication.
    unfinished: UnfinishedForm,
    bad: bool,
}

/// GT-M20: a board's unfinished game as the form shows it.
#[derive(Default)]
struct UnfinishedForm {
    open: bool,
    adjourned_to: String,
    pgn: String,
    fen: String,
    home_clock: String,
    away_clock: String,
}

#[derive(Default)]
struct LateForm {
    /// `home`, `away`, or empty: nobody came late.
    team: String,
    day_ends: String,
    clocks: String,
    arrived: String,
    arranged: bool,
}

struct ForfeitChoice {
    value: &'static str,
    label: String,
    checked: bool,
}

struct ResultForm {
    /// The form's id on the page: `enter` or `correct`.
    anchor: &'static str,
    action: String,
    csrf: String,
    version: u32,
    heading: String,
    intro: String,
    button: String,
    /// Shown open (not folded in its `<details>`).
    open: bool,
    home_name: String,
    away_name: String,
    forfeit: Vec<ForfeitChoice>,
    boards: Vec<BoardForm>,
    /// GT-M6, GT-S3: the late team's report as the form starts from it.
    late: LateForm,
    reason: String,
    reason_label: String,
    reason_required: bool,
    problems: Vec<String>,
    /// GT-M5: the entry was refused because it drops a team; the box to take it knowingly.
    acknowledge_drop: bool,
    /// A school league's parts (a team late after its school day, GT-M6; a different result
    /// for ratings, GT-P1): not at an event or a team Swiss (issue 32 item 24).
    school: bool,
    /// GT-M20: a game adjourned or sent for adjudication, with its rule, where the rules have it.
    adjournment: Option<String>,
    /// ` (GT-M6)`: the rules' own IDs, or nothing.
    late_rule: String,
    rating_rule: String,
    conduct_rule: Option<String>,
    unplayed_draw_rule: String,
}

struct ReviewForms {
    csrf: String,
    version: u32,
    confirm_action: String,
    dispute_action: String,
    reason: String,
    problems: Vec<String>,
}

/// GT-P2: either school's advisor asks for a correction of a result that stands, with the
/// reason, until the day it is due by.
struct CorrectionRequestForm {
    csrf: String,
    version: u32,
    action: String,
    /// "until Thu 12 Nov 2026", or nothing without a `[report]`.
    until: String,
    reason: String,
    problems: Vec<String>,
}

/// GT-M3, GT-P4: an officer withdraws the penalty in force, with the reason.
struct WithdrawForm {
    csrf: String,
    version: u32,
    action: String,
    /// What is withdrawn: "the forfeit by decision", "the late report's double forfeit".
    what: &'static str,
    reason: String,
    problems: Vec<String>,
}

/// GT-O3: an officer's decision of a dispute, or of a correction asked for: keep the entered
/// result, or correct it.
struct DecisionForm {
    csrf: String,
    version: u32,
    action: String,
    /// GT-P2: a correction was asked for (after the result stood), not a dispute.
    correction: bool,
    /// Who disputed and why, so the officer sees it next to the form.
    dispute: Option<String>,
    /// The correction form further down, when this officer may correct.
    correct: Option<String>,
    reason: String,
    problems: Vec<String>,
}

/// GT-P3: one game recorded beside the match: what was played, where it stands, and the
/// controls this person has on it.
struct ExtraLine {
    /// Its place among the match's, from 1 (its anchor: `extra-N`).
    n: usize,
    game: String,
    /// `Awaiting confirmation by …`, `Confirmed`, `Struck out: …`.
    state: String,
    struck: bool,
    /// The confirm button's action, for the school that did not enter it or an officer.
    confirm: Option<String>,
    /// The strike form's action, for an officer.
    strike: Option<String>,
    csrf: String,
}

/// GT-P3: the form that records a game beside the match.
struct ExtraForm {
    action: String,
    csrf: String,
    white: Vec<Choice>,
    black: Vec<Choice>,
    result: Vec<Choice>,
    kind: String,
    open: bool,
    problems: Vec<String>,
}

/// GT-M3, GT-P4: an officer's penalties on a match nobody reported.
struct PenaltyForms {
    csrf: String,
    version: u32,
    home: String,
    away: String,
    /// GT-M3: which team offended, when the advisors could not arrange the match.
    forfeit_action: String,
    /// GT-P4: shown once the result is late.
    late_action: Option<String>,
    /// The form sent and refused.
    sent: Option<PenaltySent>,
    problems: Vec<String>,
    /// GT-M5: the warning that declaring the home team (or the visitors) offended drops it.
    home_drops: Option<String>,
    away_drops: Option<String>,
    /// GT-M5: the warning that the double forfeit drops a team.
    late_drops: Option<String>,
}

/// A penalty form as sent: which (`forfeit` or `late-report`), the offender, the reason.
#[derive(Clone)]
struct PenaltySent {
    which: &'static str,
    offender: String,
    reason: String,
}

struct Deadline {
    text: String,
    overdue: bool,
}

/// One team's lineup on the match page (issue 12): the one in force, and the form for its
/// advisor while the match is to be played.
struct LineupSection {
    team: String,
    /// `home` or `away`: the anchor and the form's address.
    side: &'static str,
    /// The lineup in force, a line a board; empty when none is named.
    lines: Vec<String>,
    named_by: Option<String>,
    /// AS-11: named after its deadline and accepted by the arbiter, and why.
    late: Option<String>,
    /// AS-11: when the lineup is due, at an event.
    deadline: Option<String>,
    /// Sealed to this visitor until the round's lineups are published: when they are.
    sealed: Option<String>,
    form: Option<LineupForm>,
}

struct LineupBoard {
    number: u32,
    choices: Vec<Choice>,
}

struct LineupForm {
    action: String,
    csrf: String,
    version: u32,
    boards: Vec<LineupBoard>,
    /// GT-M12: players to mark withdrawn, each checked or not.
    withdraw: Vec<Choice>,
    /// GT-M12 as the ruleset cites it, where the rules have withdrawals (a school league's).
    withdraw_rule: Option<String>,
    /// Open when the form was sent and refused.
    open: bool,
    problems: Vec<String>,
    /// AS-11: the arbiter may accept the lineup after its deadline, with a reason.
    accept_late: bool,
}

struct Event {
    when: String,
    what: String,
    who: String,
    reason: Option<String>,
    in_force: bool,
}

#[derive(Template)]
#[template(path = "results/match.html", whitespace = "minimize")]
struct MatchPage {
    layout: Layout,
    round: Link,
    date: Option<String>,
    home: Link,
    away: Link,
    home_school: Option<String>,
    away_school: Option<String>,
    /// At a team Swiss, the table and each team's colours instead of home and visitors.
    seats: Option<crate::app::view::Seats>,
    score: String,
    label: Option<String>,
    /// The boards table's rating column: "Rating on 16 Nov", the match day's (GT-M11).
    rating_heading: String,
    boards: Vec<BoardLine>,
    status: String,
    status_class: &'static str,
    /// GT-M6, GT-S3: the referee's report of a late team, in a sentence.
    late: Option<String>,
    /// The fines the league's rules set for what this match's record holds (`[fines]`).
    fines: Vec<String>,
    deadlines: Vec<Deadline>,
    events: Vec<Event>,
    history: Option<Link>,
    /// What the last action sent was refused for: one message, about that action only.
    notice: Option<String>,
    /// AS-10, AS-12: the rosters in order on one printable sheet (its team's own before the
    /// lock), linked from the lineup form.
    roster_sheet: String,
    /// GT-P2: before the match day, when the result may be entered, in place of the form; said
    /// in the report, not as a refusal, so it never sits beside another action's refusal.
    entry_opens: Option<String>,
    enter: Option<ResultForm>,
    correct: Option<ResultForm>,
    review: Option<ReviewForms>,
    request: Option<CorrectionRequestForm>,
    withdraw: Option<WithdrawForm>,
    decide: Option<DecisionForm>,
    penalties: Option<PenaltyForms>,
    /// GT-P3: the games recorded beside the match, and the form to record one.
    extra_lines: Vec<ExtraLine>,
    extra_form: Option<ExtraForm>,
    lineups: Vec<LineupSection>,
    /// GT-M12: the players each team withdrew for the match, kept with its record after the
    /// result: a sentence a team.
    withdrawals: Vec<String>,
    /// The broken rules this result carries that no officer has ruled on (issue 12), each
    /// linked to where it is ruled on (issue 32).
    under_review: Vec<Link>,
    /// The broken rules an officer ruled the result stands despite, each linked to its ruling.
    ruled: Vec<Link>,
    /// GT-M2: move the match to another day, for those who may.
    move_form: Option<MoveForm>,
    /// AS-1, GT-M19: the clock, as a score sheet prints it.
    time_control: Option<String>,
    /// GT-M20: unfinished games and uploaded game scores, board by board.
    games: Vec<games::GameCard>,
    /// GT-M20: the form that uploads a finished game's moves.
    upload: Option<games::UploadForm>,
    /// GT-F3: the game deciding a drawn knockout match, for who may enter it.
    deciding: Option<DecidingForm>,
}

/// GT-F3: the form entering the Armageddon or playoff game of a drawn knockout match; the
/// playoffs' write path keeps it and sends the officer back here (`back`).
struct DecidingForm {
    game: crate::season_end::AwaitedGame,
    button: String,
    csrf: String,
    back: String,
}

/// GT-M2: the form that moves a match to another day, with what a move would break.
/// The Move form as sent.
#[derive(Clone, Default)]
struct MoveSent {
    date: String,
    start: String,
    reason: String,
    /// GT-M2: postponed for the weather, not moved by arrangement.
    weather: bool,
    /// GT-M2: both advisors agreed the new date.
    agreed: bool,
}

struct MoveForm {
    action: String,
    csrf: String,
    date: String,
    /// `HH:MM`, or empty when the time is the advisors' to agree.
    start: String,
    reason: String,
    weather: bool,
    agreed: bool,
    /// The President may allow a day beyond three school weeks (GT-M2).
    may_override: bool,
    /// A school league's move (GT-M2: by arrangement or for the weather, within school weeks);
    /// elsewhere the arbiter moves a match to another day or time (issue 32 item 24).
    school: bool,
    open: bool,
    problems: Vec<String>,
    /// A playoff match: GT-F4's windows, and the day both schools are open again.
    playoff: bool,
}

/// Which result form a failed submission came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Which {
    Enter,
    Correct,
}

/// A submission shown again: its refusal, or the form as sent with its problems.
#[derive(Default)]
struct Redo {
    notice: Option<String>,
    result: Option<(Which, ResultInput, Vec<Problem>)>,
    review: Option<(String, Vec<String>)>,
    /// The decision form as sent (its reason) with its problems.
    decide: Option<(String, Vec<String>)>,
    /// GT-P2: the request for a correction as sent (its reason) with its problems.
    correction: Option<(String, Vec<String>)>,
    /// GT-M3, GT-P4: the withdrawal of a penalty as sent (its reason) with its problems.
    withdraw: Option<(String, Vec<String>)>,
    /// A penalty form as sent (which, the offender, the reason) with its problems.
    penalty: Option<(PenaltySent, Vec<String>)>,
    /// The extra game's form as sent, with its problems.
    extra: Option<(arbiter_core::season::extra::ExtraEntry, Vec<String>)>,
    /// A lineup form as sent, with why it was refused.
    lineup: Option<(Side, LineupInput, Vec<String>)>,
    /// The move form as sent (day, reason) with why it was refused.
    /// The Move form as sent: the day, the start time, the reason, and what was wrong.
    moved: Option<(MoveSent, Vec<String>)>,
    /// GT-M20: an adjudication or a finished adjourned game as sent, with what was wrong.
    settle: Option<games::SettleSent>,
    /// GT-M20: an upload as sent (board, PGN) with what was wrong.
    upload: Option<(u32, String, Vec<String>)>,
}

/// The results a board may have; `*` (a game adjourned or sent for adjudication) only where the
/// rules have it (issue 32 item 24).
fn result_options(rules: &Ruleset) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = [
        ("", "Choose the result"),
        ("1-0", "1\u{2013}0 home won"),
        ("1/2-1/2", "½\u{2013}½ drawn"),
        ("0-1", "0\u{2013}1 visitors won"),
        ("+/-", "+/\u{2212} home won by forfeit"),
        ("-/+", "\u{2212}/+ visitors won by forfeit"),
        ("-/-", "\u{2212}/\u{2212} double forfeit"),
    ]
    .into_iter()
    .map(|(v, l)| (v.to_string(), l.to_string()))
    .collect();
    if let Some(rule) = adjournment(rules) {
        out.push((
            "*".to_string(),
            format!("* not finished: adjourned or sent for adjudication{rule}"),
        ));
    }
    out
}

/// GT-M20: a school league's games may be adjourned or sent for adjudication; the rule as the
/// ruleset cites it (` (GT-M20)`), or `None` where games are finished on the day.
fn adjournment(rules: &Ruleset) -> Option<String> {
    Offers::of(rules)
        .school_calendar
        .then(|| cited(rules, "adjourned"))
}

/// ` (GT-M9)`: the ruleset's own ID for `key`, or nothing when it cites none (issue 32 item 24).
fn cited(rules: &Ruleset, key: &str) -> String {
    rules.cite(key).map_or(String::new(), |r| format!(" ({r})"))
}

fn rating_options() -> Vec<(String, String)> {
    [
        ("", "Same as the team result"),
        ("1-0", "1\u{2013}0 home won the game"),
        ("1/2-1/2", "½\u{2013}½ the game was drawn"),
        ("0-1", "0\u{2013}1 the visitor won the game"),
    ]
    .into_iter()
    .map(|(v, l)| (v.to_string(), l.to_string()))
    .collect()
}

/// The ways a board goes unplayed, each with the rule the ruleset cites for it (the GTHSCL's
/// GT-M4, GT-M9, GT-M16, GT-M17, GT-S2).
fn unplayed_options(rules: &Ruleset) -> Vec<(String, String)> {
    [
        ("", "It was played (or the result says it all)", None),
        (
            "absent",
            "No player: left empty by a short team",
            Some("short_team"),
        ),
        ("coach", "Forfeited by the coach", Some("coach_forfeit")),
        (
            "conduct",
            "Forfeited for conduct, after a warning",
            Some("conduct_forfeit"),
        ),
        (
            "double_default",
            "Both players defaulted",
            Some("double_default"),
        ),
        (
            "agreed_draw",
            "A draw agreed without playing: scored as a double default",
            Some("unplayed_draw"),
        ),
    ]
    .into_iter()
    .map(|(v, l, key)| {
        (
            v.to_string(),
            format!("{l}{}", key.map_or(String::new(), |k| cited(rules, k))),
        )
    })
    .collect()
}

/// The players a side may name on a board: its roster (with a sister team's, GT-M14), each
/// with the rating of the match day, in board order where the rules order by rating.
fn roster_options(ctx: &MatchContext, side: Side) -> Vec<(String, String)> {
    let mut out = vec![(String::new(), "No player (board left empty)".to_string())];
    out.extend(
        lineup::candidates(ctx, side)
            .into_iter()
            .map(|c| (c.id, c.label)),
    );
    out
}

/// The values a result form starts with: the submission shown again, else the result in force,
/// else the lineups named before the match (issue 12), else the rosters in order (AS-10), with
/// no results. For the arbiter, who sees every lineup (AS-11).
pub(crate) fn starting_input(ctx: &MatchContext) -> ResultInput {
    starting_input_seen(ctx, |side| lineup::in_force(ctx, side))
}

/// [`starting_input`] from the lineups `seen` gives: those its reader may see now (core's
/// `sealed`); a lineup still sealed leaves its side's roster order.
fn starting_input_seen<'a>(
    ctx: &'a MatchContext,
    seen: impl Fn(Side) -> Option<&'a LineupVersion>,
) -> ResultInput {
    let want = ctx.stored.rules.boards;
    let roster = |side: Side, n: u32| match seen(side) {
        Some(named) => named
            .named
            .lineup
            .boards
            .get(n as usize - 1)
            .cloned()
            .flatten()
            .map(|p| p.0),
        None => ctx
            .team(side)
            .and_then(|t| t.players.get(n as usize - 1))
            .map(|p| p.id.0.clone()),
    };
    let mut input = ResultInput {
        version: Some(ctx.in_force()),
        ..ResultInput::default()
    };
    input.late =
        ctx.entered()
            .and_then(|v| v.late.as_ref())
            .map(|l| crate::results::context::LateInput {
                team: l.team.code().to_string(),
                school_day_ends: l.school_day_ends.strftime("%H:%M").to_string(),
                clocks_started: l.clocks_started.map(|t| t.strftime("%H:%M").to_string()),
                arrived: l.arrived.map(|t| t.strftime("%H:%M").to_string()),
                arranged: l.arranged,
            });
    match ctx.entered().map(|v| &v.outcome) {
        Some(MatchOutcome::Forfeit { by }) => {
            input.forfeit = Some(by.code().to_string());
        }
        Some(MatchOutcome::DoubleForfeit) => input.forfeit = Some("both".into()),
        Some(MatchOutcome::Boards(bs)) => {
            input.boards = bs
                .iter()
                .enumerate()
                .map(|(i, b)| BoardInput {
                    board: u32::try_from(i + 1).unwrap_or(u32::MAX),
                    result: b.result.code().to_string(),
                    home_player: b.home_player.as_ref().map(|p| p.0.clone()),
                    away_player: b.away_player.as_ref().map(|p| p.0.clone()),
                    rating_result: b.rating_result.map(|r| r.code().to_string()),
                    unplayed: b.unplayed.as_ref().map(|u| u.code().to_string()),
                    note: b
                        .unplayed
                        .as_ref()
                        .and_then(|u| u.note())
                        .map(str::to_string),
                    adjourned_to: b.resume_on().map(|d| d.to_string()),
                    adjudication: b.adjudication().map(|p| {
                        crate::results::context::PositionInput {
                            pgn: p.pgn.clone(),
                            fen: p.fen.clone(),
                            home_clock: p.home_clock.clone(),
                            away_clock: p.away_clock.clone(),
                        }
                    }),
                })
                .collect();
        }
        _ => {}
    }
    if input.boards.is_empty() {
        input.boards = (1..=want)
            .map(|n| BoardInput {
                board: n,
                home_player: roster(Side::Home, n),
                away_player: roster(Side::Away, n),
                ..BoardInput::default()
            })
            .collect();
    }
    input
}

fn result_form(
    ctx: &MatchContext,
    which: Which,
    csrf: &str,
    redo: Option<&(Which, ResultInput, Vec<Problem>)>,
    as_officer: bool,
    seen: &Seen<'_>,
) -> ResultForm {
    let (input, problems) = match redo {
        Some((w, input, problems)) if *w == which => (input.clone(), problems.clone()),
        _ => (
            starting_input_seen(ctx, |side| seen.lineup(side)),
            Vec::new(),
        ),
    };
    let rules = &ctx.stored.rules;
    let home_name = ctx.team_name(Side::Home);
    let away_name = ctx.team_name(Side::Away);
    let bad: Vec<u32> = problems.iter().filter_map(|p| p.board).collect();
    let by_number: HashMap<u32, &BoardInput> = input.boards.iter().map(|b| (b.board, b)).collect();
    let (home_roster, away_roster) = (
        roster_options(ctx, Side::Home),
        roster_options(ctx, Side::Away),
    );
    let (results, ratings) = (result_options(rules), rating_options());
    let unplayed_choices = unplayed_options(rules);
    let boards = (1..=rules.boards)
        .map(|n| {
            let b = by_number.get(&n);
            let get =
                |f: fn(&BoardInput) -> Option<&str>| b.and_then(|b| f(b)).unwrap_or("").to_string();
            let result = get(|b| Some(b.result.as_str()));
            let rating = get(|b| b.rating_result.as_deref());
            let unplayed = get(|b| b.unplayed.as_deref());
            let home_white = rules.colour(None, n, Side::Home);
            let colours = format!("{} has {}", home_name, home_white.code());
            BoardForm {
                number: n,
                colours,
                home: choices(&home_roster, &get(|b| b.home_player.as_deref())),
                // A stored `½-½` is `1/2-1/2` in the list; a blank one (which `parse` reads as
                // `*`) stays "Choose the result", `*` being a game left unfinished (GT-M20).
                result: choices(
                    &results,
                    &GameResult::parse(&result)
                        .filter(|_| !result.trim().is_empty())
                        .map_or(result.clone(), |r| r.code().to_string()),
                ),
                away: choices(&away_roster, &get(|b| b.away_player.as_deref())),
                rating_open: !rating.is_empty(),
                rating: choices(&ratings, &rating),
                unplayed_open: !unplayed.is_empty(),
                unplayed: choices(&unplayed_choices, &unplayed),
                note: get(|b| b.note.as_deref()),
                unfinished: unfinished_form(b.copied()),
                bad: bad.contains(&n),
            }
        })
        .collect();
    let chosen = blank(input.forfeit.as_deref())
        .unwrap_or("")
        .to_ascii_lowercase();
    let forfeit_rule = rules
        .cite("forfeit_match")
        .map_or(String::new(), |r| format!(" ({r})"));
    let forfeit = vec![
        ForfeitChoice {
            value: "",
            label: "Played board by board (the boards below)".into(),
            checked: chosen.is_empty(),
        },
        ForfeitChoice {
            value: "home",
            label: format!("{home_name} forfeited the whole match{forfeit_rule}"),
            checked: chosen == "home",
        },
        ForfeitChoice {
            value: "away",
            label: format!("{away_name} forfeited the whole match{forfeit_rule}"),
            checked: chosen == "away",
        },
        ForfeitChoice {
            value: "both",
            label: "Both teams forfeited: a double forfeit".into(),
            checked: chosen == "both",
        },
    ];
    let in_force = ctx.in_force();
    let (heading, intro, button, open, path, reason_label, reason_required) = match which {
        Which::Enter if ctx.entered().is_none() => (
            "Enter the result".to_string(),
            if as_officer && rules.report.is_some() {
                "As an officer (at an event, the arbiter) you enter the result as it stands: it is decided and needs no confirmation by the visitors (GT-P2).".to_string()
            } else if as_officer {
                "You enter the result as it stands: it is decided.".to_string()
            } else if let Some(d) = ctx.stored.rules.report {
                format!(
                    "GT-P2: the home team enters the result within {} of the match; the visitors then confirm it or dispute it.",
                    words::days(d.enter_within)
                )
            } else {
                "Enter the result as the board scores show it.".to_string()
            },
            "Enter the result".to_string(),
            true,
            "result",
            "Note (optional)".to_string(),
            false,
        ),
        Which::Enter => (
            "Enter the result again".to_string(),
            format!(
                "Until the visitors confirm it, the result can be entered again; it becomes version {} and version {in_force} stays on record.{}",
                in_force + 1,
                if as_officer && rules.report.is_some() {
                    " Entered by an officer, it stands with no confirmation (GT-P2)."
                } else {
                    ""
                }
            ),
            "Enter the result again".to_string(),
            redo.is_some_and(|r| r.0 == which),
            "result",
            "What changed (optional)".to_string(),
            false,
        ),
        Which::Correct => (
            "Correct the result".to_string(),
            if rules.report.is_some() {
                format!(
                    "A correction is version {}; version {in_force} stays on record. It is an officer's decision: it stands, with no confirmation by the visitors (GT-P2, GT-O3). Say why in the reason.",
                    in_force + 1
                )
            } else {
                format!(
                    "A correction is version {}; version {in_force} stays on record. Say why in the reason.",
                    in_force + 1
                )
            },
            "Correct the result".to_string(),
            redo.is_some_and(|r| r.0 == which),
            "correction",
            "Reason for the correction (required)".to_string(),
            true,
        ),
    };
    ResultForm {
        anchor: match which {
            Which::Enter => "enter",
            Which::Correct => "correct",
        },
        action: format!("{}/{path}", ctx.href()),
        csrf: csrf.to_string(),
        version: input.version.unwrap_or(in_force),
        heading,
        intro,
        button,
        open: open || !problems.is_empty(),
        home_name,
        away_name,
        forfeit,
        boards,
        late: input
            .late
            .as_ref()
            .map(|l| LateForm {
                team: l.team.clone(),
                day_ends: l.school_day_ends.clone(),
                clocks: l.clocks_started.clone().unwrap_or_default(),
                arrived: l.arrived.clone().unwrap_or_default(),
                arranged: l.arranged,
            })
            .unwrap_or_default(),
        reason: shown(input.reason.as_deref().unwrap_or_default()),
        reason_label,
        reason_required,
        school: Offers::of(rules).school_calendar,
        adjournment: adjournment(rules),
        late_rule: cited(rules, "late_arrival"),
        rating_rule: cited(rules, "rating_result"),
        conduct_rule: rules.cite("conduct_forfeit").map(str::to_string),
        unplayed_draw_rule: cited(rules, "unplayed_draw"),
        acknowledge_drop: problems.iter().any(|p| p.field == "acknowledge_drop"),
        problems: problems.into_iter().map(|p| p.message).collect(),
    }
}

/// GT-M20: a board's unfinished game as the form starts from it.
fn unfinished_form(b: Option<&BoardInput>) -> UnfinishedForm {
    let Some(b) = b else {
        return UnfinishedForm::default();
    };
    let sent = b.adjudication.as_ref();
    let text = |f: fn(&crate::results::context::PositionInput) -> Option<&str>| {
        sent.and_then(f).unwrap_or_default().to_string()
    };
    UnfinishedForm {
        open: b.adjourned_to.is_some() || sent.is_some(),
        adjourned_to: b.adjourned_to.clone().unwrap_or_default(),
        pgn: text(|p| Some(p.pgn.as_str())),
        fen: text(|p| Some(p.fen.as_str())),
        home_clock: text(|p| p.home_clock.as_deref()),
        away_clock: text(|p| p.away_clock.as_deref()),
    }
}

/// The player's link and rating on the match day: the one board order read (GT-M11, GT-M13),
/// as every message of the match states it.
fn player_link(
    view: &CompetitionView,
    id: Option<&arbiter_core::PlayerId>,
    on_the_day: impl Fn(&arbiter_core::PlayerId) -> Option<String>,
) -> (Option<Link>, String) {
    match id {
        None => (None, String::new()),
        Some(id) => match view.player(&id.0) {
            Some((p, _)) => (
                Some(Link::new(view.player_href(p), &p.name)),
                on_the_day(id).unwrap_or_else(|| words::rating(p)),
            ),
            None => (Some(Link::new(view.href(), &id.0)), String::new()),
        },
    }
}

/// The boards table's rating column says which rating it shows: the match day's, the
/// published list's in force that day, or the roster's (issue 34).
fn rating_heading(ctx: &MatchContext) -> String {
    match ctx.stored.rules.lineup.ratings {
        RatingSource::List => {
            match arbiter_core::rating::list::in_force(&ctx.view.rating_lists, ctx.date) {
                Some(l) => format!("Rating ({})", l.name),
                None => "Rating (no list in force)".to_string(),
            }
        }
        RatingSource::Roster => "Rating (roster)".to_string(),
        RatingSource::League => match ctx.date {
            Some(d) => format!("Rating on {}", d.strftime("%-d %b")),
            None => "Rating".to_string(),
        },
    }
}

/// The match's boards as `view` (the one the visitor may see, [`Seen`]) records them.
fn board_lines(ctx: &MatchContext, view: &CompetitionView) -> Vec<BoardLine> {
    let record = view
        .team_index(&ctx.record.home.0)
        .and_then(|t| view.match_of(ctx.round, t))
        .unwrap_or(&ctx.record);
    // The ratings the lineup checks read (issue 34: the league's, a published list's or the
    // roster's), so the table shows the rating a violation's sentence gives.
    let ranking = arbiter_core::teams::lineup::Ranking::with_lists(
        &ctx.stored.competition,
        &ctx.stored.rules,
        &ctx.view.rating_lists,
    );
    let by_list = ctx.stored.rules.lineup.ratings == RatingSource::List;
    let on_the_day = |id: &arbiter_core::PlayerId| {
        ranking
            .on(id, ctx.date)
            .map(|r| r.shown())
            .or_else(|| by_list.then(|| "not on the list".to_string()))
    };
    CompetitionView::boards(record)
        .iter()
        .enumerate()
        .map(|(i, b)| {
            let number = u32::try_from(i + 1).unwrap_or(u32::MAX);
            let (home, home_rating) = player_link(view, b.home_player.as_ref(), on_the_day);
            let (away, away_rating) = player_link(view, b.away_player.as_ref(), on_the_day);
            let c = view.rules.colour(Some(b), number, Side::Home);
            let unplayed = b
                .unplayed
                .as_ref()
                .map(|u| format!("Not played: {}.", u.words(view.rules.cite(u.cite_key()))));
            let rating = b.rating_result.map(|r| {
                format!(
                    "For ratings the game is {}{}.",
                    words::board_result(r),
                    cited(&view.rules, "rating_result")
                )
            });
            // GT-M20: where an unfinished game stands; the games section has the rest.
            let unfinished = b.unfinished.as_ref().map(|u| {
                let waiting = b.result == GameResult::Pending;
                match (u, waiting) {
                    (arbiter_core::Unfinished::Adjourned { resume_on }, true) => {
                        format!("Adjourned to {} (GT-M20).", words::date(*resume_on))
                    }
                    (arbiter_core::Unfinished::Adjourned { .. }, false) => {
                        "Adjourned, and finished on resumption (GT-M20).".to_string()
                    }
                    (arbiter_core::Unfinished::Adjudication(_), true) => {
                        "Sent for adjudication; the President decides (GT-M20).".to_string()
                    }
                    (arbiter_core::Unfinished::Adjudication(_), false) => {
                        "Adjudicated (GT-M20).".to_string()
                    }
                }
            });
            let note = [unplayed, rating, unfinished]
                .into_iter()
                .flatten()
                .reduce(|a, b| format!("{a} {b}"));
            BoardLine {
                number,
                home,
                home_rating,
                home_colour: words::colour_letter(c),
                result: words::board_result(b.result),
                away,
                away_rating,
                note,
            }
        })
        .collect()
}

/// The match's record: every version and review for those who may read its history; for the
/// public (issue 32, item 4), how the result came to stand, without the schedule's own versions
/// or the words of a dispute or a request, which are the officers' to read.
fn events(ctx: &MatchContext, show_email: bool) -> Vec<Event> {
    let public = !show_email;
    let in_force = ctx.in_force();
    let mut out: Vec<(jiff::Timestamp, Event)> = Vec::new();
    let mut first_entry = true;
    let mut before: Option<&MatchOutcome> = None;
    for v in &ctx.versions {
        // The schedule's own version is not news; a result withdrawn (GT-M3, GT-P4) is.
        if public
            && v.outcome == MatchOutcome::Pending
            && before.is_none_or(|b| *b == MatchOutcome::Pending)
        {
            before = Some(&v.outcome);
            continue;
        }
        let version = v.version;
        let role = v.entered_role;
        let officer = EnteredBy::of(v.entered_by.as_deref(), role) == EnteredBy::Officer;
        let what = match &v.outcome {
            MatchOutcome::Pending => format!("Version {version}: scheduled, no result"),
            o => {
                let kind = match (
                    before.and_then(|b| report::settled(b, o)),
                    first_entry,
                    officer,
                ) {
                    (Some((board, ReportStep::Adjudicate)), ..) => {
                        format!("adjudicated board {board} (GT-M20)")
                    }
                    (Some((board, _)), ..) => {
                        format!("finished board {board}'s adjourned game (GT-M20)")
                    }
                    (None, true, _) => "entered".into(),
                    (None, false, true) => "corrected".into(),
                    (None, false, false) => "entered again".into(),
                };
                first_entry = false;
                match v.basis.phrase() {
                    Some(basis) => format!("Version {version}: {}, {basis}", outcome_words(ctx, o)),
                    None => format!("Version {version} {kind}: {}", outcome_words(ctx, o)),
                }
            }
        };
        before = Some(&v.outcome);
        let nobody = if version == 1 {
            "imported"
        } else {
            "the command line"
        };
        out.push((
            v.entered_at,
            Event {
                when: words::timestamp_in(v.entered_at, &ctx.view.league.time_zone),
                what,
                who: who(v.entered_by.as_deref(), role, true, show_email, nobody),
                reason: v.reason.clone(),
                in_force: version == in_force && v.outcome != MatchOutcome::Pending,
            },
        ));
    }
    for (i, r) in ctx.reviews.iter().enumerate() {
        let asked = ctx.reviews[..i]
            .iter()
            .rev()
            .find(|e| e.version == r.version)
            .is_some_and(|e| e.kind == ReviewKind::CorrectionRequested);
        let what = match (r.kind, ReviewedBy::of(r.role)) {
            (ReviewKind::Confirmed, ReviewedBy::Visitors) => {
                format!("Version {} confirmed", r.version)
            }
            // GT-P2, GT-O3: the officer kept a version a school asked to correct.
            (ReviewKind::Confirmed, ReviewedBy::Officer) if asked => format!(
                "Correction of version {} decided: the result stands",
                r.version
            ),
            // GT-O3: an officer's confirmation decides a dispute.
            (ReviewKind::Confirmed, ReviewedBy::Officer) => {
                format!(
                    "Dispute of version {} decided: the result stands",
                    r.version
                )
            }
            (ReviewKind::Disputed, _) => format!("Version {} disputed", r.version),
            (ReviewKind::CorrectionRequested, _) => {
                format!("Correction of version {} asked for", r.version)
            }
        };
        out.push((
            r.at,
            Event {
                when: words::timestamp_in(r.at, &ctx.view.league.time_zone),
                what,
                who: who(
                    r.by.as_deref(),
                    r.role,
                    false,
                    show_email,
                    "the command line",
                ),
                reason: r
                    .reason
                    .clone()
                    .filter(|_| !public || r.kind == ReviewKind::Confirmed),
                in_force: false,
            },
        ));
    }
    out.sort_by_key(|(at, _)| *at);
    out.into_iter().map(|(_, e)| e).collect()
}

fn outcome_words(ctx: &MatchContext, o: &MatchOutcome) -> String {
    let rules = &ctx.stored.rules;
    match o {
        MatchOutcome::Pending => "no result".into(),
        MatchOutcome::Forfeit { by } => format!("{} forfeited the match", ctx.team_name(*by)),
        MatchOutcome::DoubleForfeit => "double forfeit".into(),
        MatchOutcome::Boards(bs) => {
            let (mut h, mut a) = (0.0, 0.0);
            for b in bs {
                h += arbiter_core::scoring::game_points(rules, b.result.outcome_for(Side::Home));
                a += arbiter_core::scoring::game_points(rules, b.result.outcome_for(Side::Away));
            }
            let results: Vec<&str> = bs.iter().map(|b| words::board_result(b.result)).collect();
            format!("{} ({})", words::score(h, a), results.join(", "))
        }
    }
}

fn deadlines(state: &AppState, ctx: &MatchContext, status: ReportStatus) -> Vec<Deadline> {
    let (Some(played), Some(d)) = (ctx.date, ctx.stored.rules.report) else {
        return Vec::new();
    };
    let today = state.today_in(&ctx.view.league.time_zone);
    match status {
        ReportStatus::AwaitingResult => {
            let by = d.enter_by(played);
            let overdue = today > by;
            let text = if overdue {
                format!(
                    "Overdue: the home team was to enter the result by {} (GT-P2). GT-P4: a match reported late may be scored as a double forfeit; only the President applies it.",
                    words::date(by)
                )
            } else {
                format!(
                    "The home team enters the result by {} (GT-P2).",
                    words::date(by)
                )
            };
            vec![Deadline { text, overdue }]
        }
        ReportStatus::AwaitingConfirmation { .. } => {
            // GT-P2 counts days in the league's zone: an evening's entry is that day's.
            let entered_on = ctx
                .entered()
                .map_or(played, |v| ctx.view.league.time_zone.day_of(v.entered_at));
            let by = d.confirm_by(entered_on);
            let overdue = today > by;
            let text = if overdue {
                format!(
                    "Overdue: the visitors were to confirm or dispute the result by {} (GT-P2).",
                    words::date(by)
                )
            } else {
                format!(
                    "Due by {}: the visitors confirm the result or dispute it within {} of its entry (GT-P2).",
                    words::date(by),
                    words::days(d.confirm_within)
                )
            };
            vec![Deadline { text, overdue }]
        }
        ReportStatus::Confirmed { .. }
        | ReportStatus::Recorded { .. }
        | ReportStatus::Decided { .. } => ctx
            .correct_by()
            .filter(|by| today <= *by)
            .map(|by| Deadline {
                text: format!(
                    "Either school may ask for a correction of this result until {}, with the reason; an officer decides it (GT-P2, GT-O3).",
                    words::date(by)
                ),
                overdue: false,
            })
            .into_iter()
            .collect(),
        ReportStatus::Disputed { .. } | ReportStatus::CorrectionRequested { .. } => Vec::new(),
    }
}

fn status_words(ctx: &MatchContext, status: ReportStatus) -> (String, &'static str) {
    let text = match status {
        ReportStatus::AwaitingResult => "Awaiting the result.".to_string(),
        ReportStatus::AwaitingConfirmation { version } => {
            format!("Version {version} of the result is awaiting the visitors' confirmation.")
        }
        ReportStatus::Confirmed { version } => {
            format!("Version {version} of the result is confirmed by the visitors.")
        }
        ReportStatus::Disputed { version } => {
            format!("The visitors disputed version {version} of the result; {WHO_DECIDES}.")
        }
        ReportStatus::Recorded { version } => format!(
            "Version {version} of the result stands as recorded (imported from a file or the command line); it needs no confirmation."
        ),
        ReportStatus::Decided { version } => decided_words(ctx, version),
        ReportStatus::CorrectionRequested { version } => format!(
            "A correction of version {version} of the result was asked for; it counts as it is until an officer decides, keeping it or correcting it as a new version (the President, or the Vice-President when the President's school plays, GT-P2, GT-O3)."
        ),
    };
    // Settled states read as confirmed does: nothing more is asked of anyone.
    let class = match status {
        ReportStatus::AwaitingResult => "awaiting",
        ReportStatus::AwaitingConfirmation { .. } => "entered",
        ReportStatus::Confirmed { .. }
        | ReportStatus::Recorded { .. }
        | ReportStatus::Decided { .. } => "confirmed",
        ReportStatus::Disputed { .. } | ReportStatus::CorrectionRequested { .. } => "disputed",
    };
    (text, class)
}

/// Who decided version `version`, and how: an officer's entry, correction, or decision.
fn decided_words(ctx: &MatchContext, version: u32) -> String {
    let entry = ctx.entered();
    let entered_by_officer = entry.is_some_and(|v| {
        EnteredBy::of(v.entered_by.as_deref(), v.entered_role) == EnteredBy::Officer
    });
    // GT-P2: an officer kept the version a school asked to correct.
    let mut of_version = ctx.reviews.iter().rev().filter(|r| r.version == version);
    if let (Some(kept), Some(asked)) = (of_version.next(), of_version.next())
        && kept.kind == ReviewKind::Confirmed
        && ReviewedBy::of(kept.role) == ReviewedBy::Officer
        && asked.kind == ReviewKind::CorrectionRequested
    {
        return sentence(&format!(
            "{} kept version {version} after a correction of it was asked for: the result stands (GT-P2, GT-O3)",
            role_phrase(kept.role, false)
        ));
    }
    if !entered_by_officer {
        let by = ctx
            .reviews
            .iter()
            .rev()
            .find(|r| r.version == version)
            .map_or_else(|| "an officer".to_string(), |r| role_phrase(r.role, false));
        return sentence(&format!(
            "{by} decided the dispute of version {version}: the result stands as entered (GT-P2, GT-O3)"
        ));
    }
    let by = role_phrase(entry.and_then(|v| v.entered_role), true);
    match (entry.map(|v| (v.basis, &v.outcome)), version) {
        (Some((ResultBasis::ForfeitByDecision, MatchOutcome::Forfeit { by: offender })), _) => {
            return sentence(&format!(
                "{by} decided that the match could not be arranged and that {} offended: it loses by default (GT-M3, scored as GT-M7 says); the decision stands",
                ctx.team_name(*offender)
            ));
        }
        (Some((ResultBasis::LateReport, _)), _) => {
            return sentence(&format!(
                "{by} scored the match as a double forfeit because its result was not reported in time (GT-P4); the decision stands"
            ));
        }
        _ => {}
    }
    let earlier = ctx
        .versions
        .iter()
        .rev()
        .find(|v| v.outcome != MatchOutcome::Pending && v.version < version);
    let adjudicated = earlier
        .zip(entry)
        .and_then(|(b, v)| report::settled(&b.outcome, &v.outcome))
        .filter(|(_, step)| *step == ReportStep::Adjudicate);
    if let Some((board, _)) = adjudicated {
        sentence(&format!(
            "version {version} of the result is {by}'s adjudication of board {board} (GT-M20); it is decided and stands"
        ))
    } else if earlier.is_some() {
        sentence(&format!(
            "version {version} of the result is the correction {by} made; it is decided and stands (GT-P2, GT-O3)"
        ))
    } else {
        sentence(&format!(
            "version {version} of the result was entered by {by}; it is decided and stands, with no confirmation needed (GT-P2)"
        ))
    }
}

fn score_and_label(ctx: &MatchContext) -> (String, Option<String>) {
    let view = &ctx.view;
    let Some(m) = view
        .team_index(&ctx.record.home.0)
        .and_then(|t| view.match_of(ctx.round, t))
    else {
        return ("\u{2013}".into(), None);
    };
    let f = view.facts(ctx.round, m);
    let forfeit = match view.forfeit_rule() {
        Some(rule) => format!("forfeit ({rule})"),
        None => "forfeit".to_string(),
    };
    let score = words::score(f.home_points, f.away_points);
    match f.status {
        MatchStatus::Pending => ("\u{2013}".into(), None),
        MatchStatus::InProgress => (score, Some("in progress".into())),
        MatchStatus::Played => (score, None),
        MatchStatus::Forfeit { .. } => (score, Some(forfeit)),
        MatchStatus::DoubleForfeit => (score, Some("double forfeit".into())),
        MatchStatus::ForfeitAfterDrop { .. } => (score, Some("forfeit (GT-M5)".into())),
    }
}

async fn page(
    state: &AppState,
    auth: &Auth,
    ctx: &MatchContext,
    redo: Redo,
    status_code: StatusCode,
) -> Result<Response, WebError> {
    let account = auth.user.as_ref();
    let status = ctx.status();
    let may = |a| ctx.may(account, a);
    let enter_as = ctx
        .permit(account, Action::EnterResult)
        .ok()
        .map(|a| a.role.is_officer());
    // Before the match day an advisor is told when, instead of being shown the form.
    let early = enter_as.and_then(|officer| {
        let by = if officer {
            EnteredBy::Officer
        } else {
            EnteredBy::Team
        };
        report::too_early(by, ctx.date, state.today_in(&ctx.view.league.time_zone))
            .map(|r| r.to_string())
    });
    let show_enter = enter_as.is_some()
        && early.is_none()
        && matches!(
            status,
            ReportStatus::AwaitingResult | ReportStatus::AwaitingConfirmation { .. }
        );
    let show_correct = may(Action::CorrectResult) && ctx.entered().is_some();
    let show_review = matches!(status, ReportStatus::AwaitingConfirmation { .. })
        && (may(Action::ConfirmResult) || may(Action::DisputeResult));
    let show_decide = matches!(
        status,
        ReportStatus::Disputed { .. } | ReportStatus::CorrectionRequested { .. }
    ) && may(Action::DecideDispute);
    // GT-M3, GT-P4: the officer who may impose a penalty may withdraw it by a new version.
    let show_withdraw = may(Action::ApplyMatchForfeit)
        && ReportStep::WithdrawPenalty
            .check(
                &ctx.report(),
                None,
                EnteredBy::Officer,
                state.today_in(&ctx.view.league.time_zone),
            )
            .is_ok();
    // GT-P2: either school asks for a correction of a result that stands, within its days.
    let show_request = may(Action::RequestCorrection)
        && ReportStep::RequestCorrection
            .check(
                &ctx.report(),
                None,
                EnteredBy::Team,
                state.today_in(&ctx.view.league.time_zone),
            )
            .is_ok();
    // GT-M3, GT-P4: an officer acts on a match nobody reported; GT-P4 once it is late.
    let show_forfeit = status == ReportStatus::AwaitingResult && may(Action::ApplyMatchForfeit);
    let show_late = show_forfeit
        && may(Action::ApplyDoubleForfeitForLateReport)
        && ReportStep::DoubleForfeitForLateReport
            .check(
                &ctx.report(),
                None,
                EnteredBy::Officer,
                state.today_in(&ctx.view.league.time_zone),
            )
            .is_ok();
    let read_history = may(Action::ReadHistory);
    // An officer's (or the arbiter's) entry stands: the form says so.
    let enters_as_officer = show_enter
        && ctx
            .permit(account, Action::EnterResult)
            .is_ok_and(|a| a.role.is_officer());
    let pending = ctx.record.outcome == MatchOutcome::Pending;
    let show_move = pending && may(Action::PostponeMatch);
    let show_extra = may(Action::RecordExtraGame);
    // GT-M20: the President adjudicates; the home advisor finishes an adjourned game.
    let has_unfinished = matches!(&ctx.record.outcome, MatchOutcome::Boards(bs)
        if bs.iter().any(|b| b.unfinished.is_some() && b.result == GameResult::Pending));
    let may_adjudicate = has_unfinished && may(Action::AdjudicateGame);
    let may_finish = has_unfinished
        && may(Action::EnterResult)
        && ReportStep::FinishAdjourned
            .check(
                &ctx.report(),
                None,
                EnteredBy::Team,
                state.today_in(&ctx.view.league.time_zone),
            )
            .is_ok();
    let show_upload = may(Action::UploadGameScore)
        && matches!(&ctx.record.outcome, MatchOutcome::Boards(bs) if bs.iter().any(|b| b.result.is_played()));
    let show_lineup = pending
        && [Side::Home, Side::Away]
            .into_iter()
            .any(|side| lineup::may(ctx, account, side));
    // GT-F3: a drawn knockout match's deciding game, entered here by who may decide it.
    let deciding = if ctx.playoff && ctx.view.knockout() {
        let (view, round, home) = (&ctx.view, ctx.round, &ctx.record.home);
        crate::season_end::awaited_game(state, view, round, home, account).await?
    } else {
        None
    };
    // Only a person with a control gets a session (and its token); the public gets none.
    let csrf = if show_enter
        || deciding.is_some()
        || show_correct
        || show_review
        || show_decide
        || show_request
        || show_withdraw
        || show_forfeit
        || show_extra
        || may(Action::ConfirmExtraGame)
        || show_upload
        || may_adjudicate
        || may_finish
        || show_move
        || show_lineup
    {
        csrf::session_token(&auth.session).await?
    } else {
        String::new()
    };
    let seen = Seen::new(state, ctx, account).await?;
    let view = &*seen.view;
    let (status_text, status_class) = status_words(ctx, status);
    let (score, label) = score_and_label(ctx);
    let team_link = |side: Side| {
        let id = ctx.record.team(side);
        match view.team_index(&id.0) {
            Some(t) => Link::new(view.team_href(t), view.team_name(id)),
            None => Link::new(view.href(), &id.0),
        }
    };
    let title = format!(
        "{} v {}",
        ctx.team_name(Side::Home),
        ctx.team_name(Side::Away)
    );
    let layout = site_layout(
        format!("{title}, round {} \u{2014} {}", ctx.round, view.context()),
        title,
        vec![
            Link::new(league_href(&view.league.slug), &view.league.name),
            Link::new(
                season_href(&view.league.slug, &view.season.slug),
                &view.season.name,
            ),
            Link::new(view.href(), &view.record.name),
            view.round_link(ctx.round),
        ],
        format!("{}/rounds/{}", view.api_href(), ctx.round),
    );
    let review = show_review.then(|| {
        let (reason, problems) = redo.review.clone().unwrap_or_default();
        ReviewForms {
            csrf: csrf.clone(),
            version: ctx.in_force(),
            confirm_action: format!("{}/confirm", ctx.href()),
            dispute_action: format!("{}/dispute", ctx.href()),
            reason,
            problems,
        }
    });
    let withdraw = show_withdraw.then(|| {
        let (reason, problems) = redo.withdraw.clone().unwrap_or_default();
        WithdrawForm {
            csrf: csrf.clone(),
            version: ctx.in_force(),
            action: format!("{}/penalty-withdrawal", ctx.href()),
            what: match ctx.report().basis {
                ResultBasis::LateReport => "the late report's double forfeit (GT-P4)",
                _ => "the forfeit by decision (GT-M3)",
            },
            reason,
            problems,
        }
    });
    let request = show_request.then(|| {
        let (reason, problems) = redo.correction.clone().unwrap_or_default();
        CorrectionRequestForm {
            csrf: csrf.clone(),
            version: ctx.in_force(),
            action: format!("{}/correction-request", ctx.href()),
            until: ctx
                .correct_by()
                .map(|d| format!(" until {}", words::date(d)))
                .unwrap_or_default(),
            reason,
            problems,
        }
    });
    let decide = show_decide.then(|| {
        let (reason, problems) = redo.decide.clone().unwrap_or_default();
        let version = ctx.in_force();
        let correction = matches!(status, ReportStatus::CorrectionRequested { .. });
        let asked = if correction {
            ReviewKind::CorrectionRequested
        } else {
            ReviewKind::Disputed
        };
        DecisionForm {
            csrf: csrf.clone(),
            version,
            action: format!("{}/decision", ctx.href()),
            correction,
            dispute: ctx
                .reviews
                .iter()
                .rev()
                .find(|r| r.version == version && r.kind == asked)
                .and_then(|r| r.reason.clone()),
            correct: show_correct.then(|| "#correct".to_string()),
            reason,
            problems,
        }
    });
    let penalties = show_forfeit.then(|| {
        let (sent, problems) = match redo.penalty.clone() {
            Some((sent, problems)) => (Some(sent), problems),
            None => (None, Vec::new()),
        };
        // GT-M5: the officer sees, before choosing, which choice would drop a team.
        let drops = |outcome: MatchOutcome| {
            arbiter_core::scoring::would_drop(
                &ctx.stored.competition,
                &ctx.stored.rules,
                ctx.round,
                &ctx.record,
                &outcome,
            )
        };
        PenaltyForms {
            csrf: csrf.clone(),
            version: ctx.in_force(),
            home: ctx.team_name(Side::Home),
            away: ctx.team_name(Side::Away),
            forfeit_action: format!("{}/forfeit", ctx.href()),
            late_action: show_late.then(|| format!("{}/late-report", ctx.href())),
            sent,
            problems,
            home_drops: drops(MatchOutcome::Forfeit { by: Side::Home }),
            away_drops: drops(MatchOutcome::Forfeit { by: Side::Away }),
            late_drops: show_late
                .then(|| drops(MatchOutcome::DoubleForfeit))
                .flatten(),
        }
    });
    let extra_form = show_extra.then(|| {
        let (sent, problems) = redo.extra.clone().unwrap_or_default();
        let mut players = vec![(String::new(), "Choose the player".to_string())];
        // AS-12: only the rosters the visitor may see now.
        for side in [Side::Home, Side::Away]
            .into_iter()
            .filter(|s| seen.roster(*s))
        {
            let team = ctx.team_name(side);
            players.extend(
                lineup::candidates(ctx, side)
                    .into_iter()
                    .map(|c| (c.id, format!("{} \u{2014} {team}", c.label))),
            );
        }
        let results: Vec<(String, String)> = [
            ("1-0", "1\u{2013}0 White won"),
            ("1/2-1/2", "\u{bd}\u{2013}\u{bd} drawn"),
            ("0-1", "0\u{2013}1 Black won"),
        ]
        .into_iter()
        .map(|(v, l)| (v.to_string(), l.to_string()))
        .collect();
        ExtraForm {
            action: format!("{}/extra-games", ctx.href()),
            csrf: csrf.clone(),
            white: choices(&players, &sent.white),
            black: choices(&players, &sent.black),
            result: choices(&results, &sent.result),
            kind: sent.kind.clone(),
            open: !problems.is_empty(),
            problems,
        }
    });
    let may_confirm_extra = ctx.permit(account, Action::ConfirmExtraGame).ok();
    let may_strike_extra = may(Action::StrikeExtraGame);
    let extra_lines = ctx
        .record
        .extra_games
        .iter()
        .enumerate()
        .map(|(i, g)| {
            let n = i + 1;
            let name = |id: &arbiter_core::PlayerId| {
                view.player(&id.0)
                    .map_or_else(|| id.0.clone(), |(p, _)| p.name.clone())
            };
            let state = match g.state() {
                ExtraState::AwaitingConfirmation { from } => format!(
                    "Awaiting confirmation by {}: entered by {}, it counts once confirmed (GT-P3).",
                    ctx.school(from).unwrap_or("the other school"),
                    ctx.school(from.other()).unwrap_or("the other school"),
                ),
                ExtraState::Stands { confirmed_by } if g.entered_by.is_some() => {
                    match confirmed_by.filter(|_| read_history) {
                        Some(by) => format!("Confirmed by {by}."),
                        None => "Confirmed.".into(),
                    }
                }
                ExtraState::Stands { .. } => "Stands.".into(),
                ExtraState::Struck { reason, .. } => {
                    format!("Struck out: {reason} It counts for nothing (GT-P3).")
                }
            };
            let action = |verb: &str| format!("{}/extra-games/{n}/{verb}", ctx.href());
            ExtraLine {
                n,
                game: format!(
                    "{} (White) {} {} (Black): {}",
                    name(&g.white),
                    words::board_result(g.result),
                    name(&g.black),
                    match g.kind {
                        arbiter_core::ExtraKind::Challenge => "a challenge game, rated (GT-R5)",
                        arbiter_core::ExtraKind::Unranked => {
                            "an unranked game, counting for nothing (GT-R7)"
                        }
                    }
                ),
                struck: matches!(g.state(), ExtraState::Struck { .. }),
                confirm: may_confirm_extra
                    .as_ref()
                    .filter(|a| crate::results::extra::may_confirm(ctx, a, g))
                    .map(|_| action("confirm")),
                strike: (may_strike_extra && !matches!(g.state(), ExtraState::Struck { .. }))
                    .then(|| action("strike")),
                csrf: csrf.clone(),
                state,
            }
        })
        .collect();
    let move_form = show_move.then(|| {
        let (sent, problems) = redo.moved.clone().unwrap_or_else(|| {
            let sent = MoveSent {
                date: ctx.date.map(|d| d.to_string()).unwrap_or_default(),
                start: ctx
                    .record
                    .start
                    .map(|t| t.strftime("%H:%M").to_string())
                    .unwrap_or_default(),
                ..MoveSent::default()
            };
            (sent, Vec::new())
        });
        MoveForm {
            action: format!("{}/move", ctx.href()),
            csrf: csrf.clone(),
            open: !problems.is_empty(),
            date: sent.date,
            start: sent.start,
            reason: sent.reason,
            weather: sent.weather,
            agreed: sent.agreed,
            may_override: may(Action::OverridePostponementWindow),
            problems,
            playoff: ctx.playoff,
            school: Offers::of(&ctx.stored.rules).school_calendar,
        }
    });
    let deadline = match (&ctx.record.outcome, &ctx.stored.rules.event) {
        (MatchOutcome::Pending, Some(deadlines)) => lineup::event_round(state, ctx)
            .await?
            .map(|(_, start)| lineup::deadline_words(deadlines, ctx.round, start)),
        _ => None,
    };
    let lineups = lineup_sections(ctx, account, &redo, &csrf, deadline.as_deref(), &seen);
    let withdrawals = if ctx.record.outcome == MatchOutcome::Pending {
        Vec::new()
    } else {
        [Side::Home, Side::Away]
            .into_iter()
            .filter_map(|side| {
                let l = seen.lineup(side)?;
                lineup::withdrawal_words(ctx, &ctx.team_name(side), &l.named.lineup)
            })
            .collect()
    };
    let page = MatchPage {
        layout,
        round: view.round_link(ctx.round),
        date: ctx.date.map(|d| match ctx.record.start {
            Some(t) => format!("{} at {}", words::date(d), t.strftime("%H:%M")),
            None => words::date(d),
        }),
        home: team_link(Side::Home),
        away: team_link(Side::Away),
        home_school: ctx.school(Side::Home).map(str::to_string),
        away_school: ctx.school(Side::Away).map(str::to_string),
        seats: view.seats(ctx.round, &ctx.record),
        score,
        label,
        boards: board_lines(ctx, view),
        rating_heading: rating_heading(ctx),
        status: status_text,
        status_class,
        late: ctx
            .entered()
            .and_then(|v| v.late)
            .map(|l| l.describe(&ctx.team_name(l.team))),
        fines: ctx.fines(),
        deadlines: deadlines(state, ctx, status),
        events: events(ctx, read_history),
        history: read_history
            .then(|| Link::new(format!("{}/history", ctx.href()), "History of this match")),
        notice: redo.notice.clone(),
        roster_sheet: crate::rosters::sheet::sheet_href(&ctx.view.href()),
        entry_opens: early,
        enter: show_enter.then(|| {
            result_form(
                ctx,
                Which::Enter,
                &csrf,
                redo.result.as_ref(),
                enters_as_officer,
                &seen,
            )
        }),
        correct: show_correct.then(|| {
            result_form(
                ctx,
                Which::Correct,
                &csrf,
                redo.result.as_ref(),
                true,
                &seen,
            )
        }),
        review,
        request,
        withdraw,
        decide,
        penalties,
        extra_lines,
        extra_form,
        lineups,
        withdrawals,
        under_review: view
            .open_violations()
            .filter(|f| f.round == Some(ctx.round) && f.home.as_ref() == Some(&ctx.record.home))
            .map(|f| Link::new(crate::findings::finding_href(view, f), f.on_its_match()))
            .collect(),
        ruled: view
            .findings
            .iter()
            .filter(|f| f.round == Some(ctx.round) && f.home.as_ref() == Some(&ctx.record.home))
            .filter_map(|f| {
                let r = view.stored.ruling(&f.key())?;
                let day = words::date(view.league.time_zone.day_of(r.at));
                Some(Link::new(
                    crate::findings::finding_href(view, f),
                    format!(
                        "{} \u{2014} ruled on {day}: the result stands",
                        f.on_its_match()
                    ),
                ))
            })
            .collect(),
        move_form,
        time_control: view.time_control(),
        games: games::cards(
            ctx,
            &games::GameControls {
                csrf: &csrf,
                adjudicate: may_adjudicate,
                finish: may_finish,
                sent: redo.settle.as_ref(),
            },
        ),
        upload: if show_upload {
            games::upload_form(ctx, &csrf, redo.upload.as_ref())
        } else {
            None
        },
        deciding: deciding.map(|game| DecidingForm {
            button: format!("Enter {}", crate::season_end::awaited_words(game.kind)),
            game,
            csrf: csrf.clone(),
            back: ctx.href(),
        }),
    };
    // GT-M5: a dropped team's match will not be played: the page says so and offers no step.
    let page = match ctx.dropped() {
        Some(why) => MatchPage {
            status: why,
            status_class: "disputed",
            deadlines: Vec::new(),
            enter: None,
            penalties: None,
            move_form: None,
            lineups: Vec::new(),
            extra_form: None,
            ..page
        },
        None => page,
    };
    Ok(private_in(status_code, &page, &ctx.stored.rules))
}

/// What the visitor may see of the match now: its competition (before an event's rosters lock,
/// naming no player to anyone but the arbiter, AS-12), each side's roster, and each side's
/// lineup or the sentence saying when it is published (AS-11, core's `sealed`).
struct Seen<'a> {
    view: Arc<CompetitionView>,
    rosters: [bool; 2],
    lineups: [Result<Option<&'a LineupVersion>, Sealed>; 2],
}

impl<'a> Seen<'a> {
    async fn new(
        state: &AppState,
        ctx: &'a MatchContext,
        account: Option<&crate::http::auth::Account>,
    ) -> Result<Seen<'a>, WebError> {
        let embargo = lineup::embargo(state, ctx).await?;
        let viewer = |side| lineup::viewer(ctx, account, side);
        let (home, away) = (viewer(Side::Home), viewer(Side::Away));
        let roster = |v| match &ctx.view.roster_lock {
            Some(lock) => {
                sealed::may_see_roster(v, Some(lock.hall), lock.clock.to_datetime(state.now()))
            }
            None => true,
        };
        let all = if lineup::may_accept_late(ctx, account) {
            Viewer::Arbiter
        } else {
            Viewer::Other
        };
        Ok(Seen {
            view: state.seen_by(Arc::clone(&ctx.view), all),
            rosters: [roster(home), roster(away)],
            lineups: [
                lineup::seen(ctx, Side::Home, &embargo, home),
                lineup::seen(ctx, Side::Away, &embargo, away),
            ],
        })
    }

    fn roster(&self, side: Side) -> bool {
        self.rosters[slot(side)]
    }

    fn lineup(&self, side: Side) -> Option<&'a LineupVersion> {
        self.lineups[slot(side)].as_ref().ok().copied().flatten()
    }
}

/// A side's place in [`Seen`]'s pairs: home first.
fn slot(side: Side) -> usize {
    match side {
        Side::Home => 0,
        Side::Away => 1,
    }
}

/// Both teams' lineups while the match is to be played, each with its advisor's form.
fn lineup_sections(
    ctx: &MatchContext,
    account: Option<&crate::http::auth::Account>,
    redo: &Redo,
    csrf: &str,
    deadline: Option<&str>,
    seen: &Seen<'_>,
) -> Vec<LineupSection> {
    if ctx.record.outcome != MatchOutcome::Pending {
        return Vec::new();
    }
    let boards = ctx.stored.rules.boards;
    [Side::Home, Side::Away]
        .into_iter()
        .map(|side| {
            let (in_force, sealed) = match &seen.lineups[slot(side)] {
                Ok(l) => (*l, None),
                Err(sealed) => (None, Some(sealed.to_string())),
            };
            let form = lineup::may(ctx, account, side).then(|| {
                let sent = redo.lineup.as_ref().filter(|(s, ..)| *s == side);
                let chosen: Vec<String> = match (sent, in_force) {
                    (Some((_, input, _)), _) => input
                        .boards
                        .iter()
                        .map(|p| p.clone().unwrap_or_default())
                        .collect(),
                    (None, Some(v)) => v
                        .named
                        .lineup
                        .boards
                        .iter()
                        .map(|p| p.as_ref().map(|p| p.0.clone()).unwrap_or_default())
                        .collect(),
                    (None, None) => Vec::new(),
                };
                let withdrawn: Vec<String> = match (sent, in_force) {
                    (Some((_, input, _)), _) => input.withdrawn.clone(),
                    (None, Some(v)) => v
                        .named
                        .lineup
                        .withdrawn
                        .iter()
                        .map(|p| p.0.clone())
                        .collect(),
                    (None, None) => Vec::new(),
                };
                let candidates = lineup::candidates(ctx, side);
                let rules = &ctx.stored.rules;
                let mut options = vec![(
                    String::new(),
                    format!("Empty: no player{}", cited(rules, "short_team")),
                )];
                options.extend(candidates.iter().map(|c| (c.id.clone(), c.label.clone())));
                LineupForm {
                    action: format!("{}/lineups/{}", ctx.href(), side.code()),
                    csrf: csrf.to_string(),
                    version: in_force.map_or(0, |v| v.version),
                    boards: (1..=boards)
                        .map(|n| LineupBoard {
                            number: n,
                            choices: choices(
                                &options,
                                chosen.get(n as usize - 1).map_or("", String::as_str),
                            ),
                        })
                        .collect(),
                    withdraw: candidates
                        .iter()
                        .map(|c| Choice {
                            selected: withdrawn.contains(&c.id),
                            value: c.id.clone(),
                            label: c.label.clone(),
                        })
                        .collect(),
                    withdraw_rule: Offers::of(rules)
                        .school_calendar
                        .then(|| cited(rules, "withdrawal")),
                    open: sent.is_some() || in_force.is_none(),
                    problems: sent.map(|(_, _, p)| p.clone()).unwrap_or_default(),
                    accept_late: deadline.is_some() && lineup::may_accept_late(ctx, account),
                }
            });
            LineupSection {
                team: ctx.team_name(side),
                side: side.code(),
                lines: in_force
                    .map(|v| lineup::lines(ctx, &v.named.lineup))
                    .unwrap_or_default(),
                named_by: in_force.map(lineup::named_by),
                late: in_force
                    .and_then(|v| v.late.as_ref())
                    .map(lineup::late_words),
                deadline: deadline.map(str::to_string),
                sealed,
                form,
            }
        })
        .collect()
}

/// The match page: public, with the controls each visitor may use.
pub async fn match_page(State(state): State<AppState>, auth: Auth, path: MatchPath) -> Response {
    let answer = async {
        let Path(MatchAddress {
            league: l,
            season: s,
            competition: c,
            round: r,
            home: h,
        }) = path.map_err(|e| bad_path(&e))?;
        let ctx = load(&state, &l, &s, &c, r, &h).await?;
        page(&state, &auth, &ctx, Redo::default(), StatusCode::OK).await
    };
    answer
        .await
        .unwrap_or_else(|e: WebError| e.answer(Format::Html))
}

// ---------------------------------------------------------------------------------------------
// The forms' submissions

/// A form's fields as sent: `csrf`, `version`, `forfeit`, `reason`, and per board
/// `result_N`, `home_N`, `away_N`, `rating_N`.
pub type Fields = Result<Form<Vec<(String, String)>>, FormRejection>;

struct Sent {
    version: Option<u32>,
    reason: Option<String>,
    fields: Vec<(String, String)>,
}

impl Sent {
    /// The field `name` as sent, trimmed; empty when it was not.
    fn field(&self, name: &str) -> &str {
        field_in(&self.fields, name).unwrap_or_default()
    }
}

/// The first field `name` of a form, trimmed.
fn field_in<'a>(fields: &'a [(String, String)], name: &str) -> Option<&'a str> {
    fields
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| v.trim())
}

fn sent(fields: Fields) -> Result<Sent, WebError> {
    let Form(fields) = fields.map_err(|e| {
        if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
            return crate::http::body_limit::too_large();
        }
        WebError::BadRequest("The form could not be read; send it from the match page.".into())
    })?;
    Ok(Sent {
        version: field_in(&fields, "version").and_then(|v| v.parse().ok()),
        reason: field_in(&fields, "reason")
            .filter(|r| !r.is_empty())
            .map(str::to_string),
        fields,
    })
}

/// The result form's fields as a [`ResultInput`]: a chosen match forfeit drops the boards.
fn input_from_form(sent: &Sent) -> ResultInput {
    let mut boards: BTreeMap<u32, BoardInput> = BTreeMap::new();
    let mut forfeit = None;
    for (name, value) in &sent.fields {
        if name == "forfeit" {
            forfeit = Some(value.clone()).filter(|v| !v.trim().is_empty());
            continue;
        }
        let Some((field, n)) = name.rsplit_once('_') else {
            continue;
        };
        let Ok(n) = n.parse::<u32>() else { continue };
        let b = boards.entry(n).or_insert_with(|| BoardInput {
            board: n,
            ..BoardInput::default()
        });
        let value = Some(value.clone()).filter(|v| !v.trim().is_empty());
        match field {
            "result" => b.result = value.unwrap_or_default(),
            "home" => b.home_player = value,
            "away" => b.away_player = value,
            "rating" => b.rating_result = value,
            "unplayed" => b.unplayed = value,
            "note" => b.note = value,
            "adjourned" => b.adjourned_to = value,
            // GT-M20: the position sent for adjudication, when its moves or FEN are given.
            "pgn" | "fen" | "hclock" | "aclock" => {
                if let Some(v) = value {
                    let p = b.adjudication.get_or_insert_with(Default::default);
                    match field {
                        "pgn" => p.pgn = v,
                        "fen" => p.fen = v,
                        "hclock" => p.home_clock = Some(v),
                        _ => p.away_clock = Some(v),
                    }
                }
            }
            _ => {}
        }
    }
    // Clocks alone are no position: the form always sends its fields.
    for b in boards.values_mut() {
        if b.adjudication
            .as_ref()
            .is_some_and(|p| p.pgn.trim().is_empty() && p.fen.trim().is_empty())
        {
            b.adjudication = None;
        }
    }
    // The form always sends its boards; with a match forfeit they are not the result.
    if forfeit.is_some() {
        boards.clear();
    }
    // GT-M6, GT-S3: a late team's report, when a side is chosen.
    let one = |k: &str| Some(sent.field(k).to_string()).filter(|v| !v.is_empty());
    let late = one("late_team").map(|team| crate::results::context::LateInput {
        team,
        school_day_ends: one("late_day_ends").unwrap_or_default(),
        clocks_started: one("late_clocks"),
        arrived: one("late_arrived"),
        arranged: one("late_arranged").is_some(),
    });
    ResultInput {
        forfeit,
        late,
        boards: boards.into_values().collect(),
        reason: sent.reason.clone(),
        version: sent.version,
        acknowledge_drop: sent.field("acknowledge_drop") == "yes",
    }
}

/// The steps every submission takes once the router has checked sign-in and the CSRF token
/// (`http::guard`): the form, then the match, then the table.
async fn begin(
    state: &AppState,
    auth: &Auth,
    path: MatchPath,
    fields: Fields,
    action: Action,
) -> Result<(Sent, MatchContext, Acting), WebError> {
    let sent = sent(fields)?;
    let Path(MatchAddress {
        league: l,
        season: s,
        competition: c,
        round: r,
        home: h,
    }) = path.map_err(|e| bad_path(&e))?;
    let ctx = load(state, &l, &s, &c, r, &h).await?;
    let acting = ctx.permit(auth.user.as_ref(), action)?;
    Ok((sent, ctx, acting))
}

/// The page again, 422, with what was refused.
async fn again(state: &AppState, auth: &Auth, ctx: &MatchContext, redo: Redo) -> Response {
    page(state, auth, ctx, redo, StatusCode::UNPROCESSABLE_ENTITY)
        .await
        .unwrap_or_else(|e| e.answer(Format::Html))
}

/// What a refused result form sent, for its sender to check against the result now in force:
/// `What you sent, board 1 first, Start first: 1–0 ½–½ 1–0 0–1; …` or `What you sent: Start
/// forfeited the match.`
fn typed_words(ctx: &MatchContext, input: &ResultInput) -> String {
    let forfeit = input.forfeit.as_deref().map(str::trim);
    let team = |side| ctx.team_name(side);
    match forfeit {
        Some("home") => format!("What you sent: {} forfeited the match.", team(Side::Home)),
        Some("away") => format!("What you sent: {} forfeited the match.", team(Side::Away)),
        Some("both") => "What you sent: both teams forfeited the match.".to_string(),
        _ => {
            let boards: Vec<&str> = input
                .boards
                .iter()
                .map(|b| GameResult::parse(&b.result).map_or("?", words::board_result))
                .collect();
            format!(
                "What you sent, board 1 first, {} first: {}; it is in the form below to send again if it is right.",
                team(Side::Home),
                boards.join(" ")
            )
        }
    }
}

/// The page again with a check's refusal as its notice: 409 when the match changed meanwhile,
/// 422 when its state refuses the step.
async fn refuse(
    state: &AppState,
    auth: &Auth,
    ctx: &MatchContext,
    why: WebError,
    mut redo: Redo,
) -> Response {
    let status = why.status();
    match why {
        WebError::Conflict(m) | WebError::Refused(m) => {
            redo.notice = Some(m);
            page(state, auth, ctx, redo, status)
                .await
                .unwrap_or_else(|e| e.answer(Format::Html))
        }
        other => other.answer(Format::Html),
    }
}

/// A form's submission of `step`: decoded here, checked, read and stored by the one write path
/// (`results::write::submit`), and answered as the match page: back to the report when stored,
/// else the page again with why, the form as sent.
async fn submit_form(
    state: AppState,
    auth: Auth,
    path: MatchPath,
    fields: Fields,
    step: ReportStep,
) -> Response {
    let (sent, ctx, acting) = match begin(&state, &auth, path, fields, step.action()).await {
        Ok(x) => x,
        Err(e) => return e.answer(Format::Html),
    };
    let which = match step {
        ReportStep::Enter => Some(Which::Enter),
        ReportStep::Correct => Some(Which::Correct),
        _ => None,
    };
    let input = which.map(|_| input_from_form(&sent));
    let penalty = match step {
        ReportStep::ForfeitByDecision => Some("forfeit"),
        ReportStep::DoubleForfeitForLateReport => Some("late-report"),
        _ => None,
    };
    let offender = sent.field("offender").to_string();
    let entry = match step {
        ReportStep::ForfeitByDecision => Some(arbiter_core::season::entry::ResultEntry {
            forfeit: Some(offender.clone()).filter(|o| !o.trim().is_empty()),
            boards: Vec::new(),
            late: None,
        }),
        _ => input.as_ref().map(ResultInput::entry),
    };
    // GT-M20: the board whose unfinished game is settled, and how it ended.
    let settle = matches!(step, ReportStep::Adjudicate | ReportStep::FinishAdjourned).then(|| {
        (
            sent.field("board").parse::<u32>().unwrap_or(0),
            sent.field("result").to_string(),
        )
    });
    let submission = Submission {
        step,
        entry,
        version: sent.version,
        reason: sent.reason.clone(),
        settle: settle
            .as_ref()
            .map(|(board, result)| (*board, GameResult::parse(result))),
        restore: None,
        acknowledge_drop: sent.field("acknowledge_drop") == "yes",
    };
    // The form as sent, with `problems` beside it.
    let reason = shown(sent.reason.as_deref().unwrap_or_default());
    let as_sent = |problems: Vec<Problem>| match (which, &input) {
        (Some(w), Some(input)) => Redo {
            result: Some((w, input.clone(), problems)),
            ..Redo::default()
        },
        _ => {
            let form = Some((
                reason.clone(),
                problems.into_iter().map(|p| p.message).collect(),
            ));
            if let Some((board, result)) = &settle {
                Redo {
                    settle: Some((
                        *board,
                        result.clone(),
                        reason.clone(),
                        form.map(|f| f.1).unwrap_or_default(),
                    )),
                    ..Redo::default()
                }
            } else if let Some(which) = penalty {
                Redo {
                    penalty: Some((
                        PenaltySent {
                            which,
                            offender: offender.clone(),
                            reason: reason.clone(),
                        },
                        form.map(|f| f.1).unwrap_or_default(),
                    )),
                    ..Redo::default()
                }
            } else if step == ReportStep::Decide {
                Redo {
                    decide: form,
                    ..Redo::default()
                }
            } else if step == ReportStep::RequestCorrection {
                Redo {
                    correction: form,
                    ..Redo::default()
                }
            } else if step == ReportStep::WithdrawPenalty {
                Redo {
                    withdraw: form,
                    ..Redo::default()
                }
            } else {
                Redo {
                    review: form,
                    ..Redo::default()
                }
            }
        }
    };
    match report_write::submit(&state, &ctx, &acting, &submission).await {
        Ok(_) => see_other(&format!("{}#report", ctx.href())),
        // Another entry got in first (seen before storing, or by the store): the match as it is
        // now with the result as sent kept, said in the notice and, where a result form is still
        // offered, in it on the version now in force, to check against the other and send again.
        Err(NotWritten::Refused { why, fresh, code })
            if input.is_some() && (fresh.is_some() || code == "changed") =>
        {
            let now: &MatchContext = fresh.as_deref().unwrap_or(&ctx);
            let mut kept = input.clone().unwrap_or_default();
            let typed = typed_words(now, &kept);
            let why = match why {
                WebError::Conflict(m) => WebError::Conflict(format!("{m} {typed}")),
                WebError::Refused(m) => WebError::Refused(format!("{m} {typed}")),
                other => other,
            };
            kept.version = None;
            let form = if matches!(
                now.status(),
                ReportStatus::AwaitingResult | ReportStatus::AwaitingConfirmation { .. }
            ) {
                Which::Enter
            } else {
                Which::Correct
            };
            let redo = Redo {
                result: Some((form, kept, Vec::new())),
                ..Redo::default()
            };
            refuse(&state, &auth, now, why, redo).await
        }
        Err(NotWritten::Refused {
            why, fresh: None, ..
        }) => refuse(&state, &auth, &ctx, why, Redo::default()).await,
        // Another write got in first: the match as it is now; a reason typed for a review stays.
        Err(NotWritten::Refused {
            why,
            fresh: Some(fresh),
            ..
        }) => refuse(&state, &auth, &fresh, why, as_sent(Vec::new())).await,
        Err(NotWritten::Invalid { too_long, problems }) => {
            let redo = as_sent(too_long.into_iter().chain(problems).collect());
            again(&state, &auth, &ctx, redo).await
        }
        Err(NotWritten::StoreRefused(m)) => {
            let redo = match which {
                Some(_) => as_sent(vec![Problem::general("boards", m)]),
                None => Redo {
                    notice: Some(m),
                    ..as_sent(Vec::new())
                },
            };
            again(&state, &auth, &ctx, redo).await
        }
        Err(NotWritten::Failed(e)) => e.answer(Format::Html),
    }
}

/// POST `…/matches/{home}/result`: the home advisor (or the arbiter) enters the result.
pub async fn enter_result(
    State(state): State<AppState>,
    auth: Auth,
    path: MatchPath,
    fields: Fields,
) -> Response {
    submit_form(state, auth, path, fields, ReportStep::Enter).await
}

/// POST `…/matches/{home}/correction`: an officer corrects the result, with the reason.
pub async fn correct_result(
    State(state): State<AppState>,
    auth: Auth,
    path: MatchPath,
    fields: Fields,
) -> Response {
    submit_form(state, auth, path, fields, ReportStep::Correct).await
}

/// POST `…/matches/{home}/confirm`: the visiting advisor confirms the version in force.
pub async fn confirm_result(
    State(state): State<AppState>,
    auth: Auth,
    path: MatchPath,
    fields: Fields,
) -> Response {
    submit_form(state, auth, path, fields, ReportStep::Confirm).await
}

/// POST `…/matches/{home}/dispute`: the visiting advisor disputes it, with the reason.
pub async fn dispute_result(
    State(state): State<AppState>,
    auth: Auth,
    path: MatchPath,
    fields: Fields,
) -> Response {
    submit_form(state, auth, path, fields, ReportStep::Dispute).await
}

/// POST `…/matches/{home}/correction-request`: GT-P2, either school's advisor asks for a
/// correction of a result that stands, with the reason; an officer decides it (GT-O3).
pub async fn request_correction(
    State(state): State<AppState>,
    auth: Auth,
    path: MatchPath,
    fields: Fields,
) -> Response {
    submit_form(state, auth, path, fields, ReportStep::RequestCorrection).await
}

/// POST `…/matches/{home}/penalty-withdrawal`: GT-M3, GT-P4, an officer withdraws the forfeit
/// by decision or the late report's double forfeit in force, with the reason, by a new version
/// with no result; a team it dropped is back (GT-M5).
pub async fn withdraw_penalty(
    State(state): State<AppState>,
    auth: Auth,
    path: MatchPath,
    fields: Fields,
) -> Response {
    submit_form(state, auth, path, fields, ReportStep::WithdrawPenalty).await
}

/// POST `…/matches/{home}/decision`: an officer decides a dispute by keeping the result as
/// entered, with the reason (GT-O3: the Vice-President when the President's school plays). To
/// change the result instead, the officer corrects it; either way the decision stands.
pub async fn decide_dispute(
    State(state): State<AppState>,
    auth: Auth,
    path: MatchPath,
    fields: Fields,
) -> Response {
    submit_form(state, auth, path, fields, ReportStep::Decide).await
}

/// POST `…/matches/{home}/forfeit`: GT-M3, the advisors could not arrange the match and an
/// officer decides which team offended (`offender`: home or away), with the reason.
pub async fn declare_forfeit(
    State(state): State<AppState>,
    auth: Auth,
    path: MatchPath,
    fields: Fields,
) -> Response {
    submit_form(state, auth, path, fields, ReportStep::ForfeitByDecision).await
}

/// POST `…/matches/{home}/late-report`: GT-P4, an officer scores a match whose result was not
/// entered in time as a double forfeit, with the reason.
pub async fn late_report_forfeit(
    State(state): State<AppState>,
    auth: Auth,
    path: MatchPath,
    fields: Fields,
) -> Response {
    submit_form(
        state,
        auth,
        path,
        fields,
        ReportStep::DoubleForfeitForLateReport,
    )
    .await
}

/// POST `…/matches/{home}/extra-games`: a challenge game (GT-R5) or an unranked game (GT-R7)
/// recorded with the match (GT-P3): `white`, `black`, `result` (White's side), `kind`.
pub async fn record_extra_game(
    State(state): State<AppState>,
    auth: Auth,
    path: MatchPath,
    fields: Fields,
) -> Response {
    let (sent, ctx, acting) =
        match begin(&state, &auth, path, fields, Action::RecordExtraGame).await {
            Ok(x) => x,
            Err(e) => return e.answer(Format::Html),
        };
    let field = |k: &str| sent.field(k).to_string();
    let entry = arbiter_core::season::extra::ExtraEntry {
        white: field("white"),
        black: field("black"),
        result: field("result"),
        kind: field("kind"),
    };
    match crate::results::extra::record(&state, &ctx, &acting, &entry).await {
        Ok(_) => see_other(&format!("{}#extra", ctx.href())),
        Err(crate::results::extra::NotRecorded::Invalid(problems)) => {
            let redo = Redo {
                extra: Some((entry, problems.into_iter().map(|p| p.message).collect())),
                ..Redo::default()
            };
            again(&state, &auth, &ctx, redo).await
        }
        Err(crate::results::extra::NotRecorded::Failed(e)) => e.answer(Format::Html),
    }
}

/// POST `…/matches/{home}/extra-games/{game}/confirm`: GT-P3, GT-P2, the school that did not
/// enter the extra game (or an officer) confirms it, so that it counts.
pub async fn confirm_extra_game(
    State(state): State<AppState>,
    auth: Auth,
    path: ExtraGamePath,
    fields: Fields,
) -> Response {
    extra_step(state, auth, path, fields, Action::ConfirmExtraGame).await
}

/// POST `…/matches/{home}/extra-games/{game}/strike`: GT-P3, an officer strikes the extra game
/// out with the `reason`, kept beside it.
pub async fn strike_extra_game(
    State(state): State<AppState>,
    auth: Auth,
    path: ExtraGamePath,
    fields: Fields,
) -> Response {
    extra_step(state, auth, path, fields, Action::StrikeExtraGame).await
}

/// A step on one extra game from the match page's forms: the match again with the game, or with
/// why not.
async fn extra_step(
    state: AppState,
    auth: Auth,
    path: ExtraGamePath,
    fields: Fields,
    action: Action,
) -> Response {
    let (address, n) = match path {
        Ok(Path(a)) => a.of_match(),
        Err(e) => return bad_path(&e).answer(Format::Html),
    };
    let (sent, ctx, acting) = match begin(&state, &auth, Ok(Path(address)), fields, action).await {
        Ok(x) => x,
        Err(e) => return e.answer(Format::Html),
    };
    use crate::results::extra::{self as extra_write, NotRecorded};
    let done = match action {
        Action::StrikeExtraGame => {
            extra_write::strike(&state, &ctx, &acting, n, sent.field("reason")).await
        }
        _ => extra_write::confirm(&state, &ctx, &acting, n).await,
    };
    match done {
        Ok(()) => see_other(&format!("{}#extra-{n}", ctx.href())),
        Err(NotRecorded::Invalid(problems)) => {
            let redo = Redo {
                notice: problems.into_iter().map(|p| p.message).next(),
                ..Redo::default()
            };
            again(&state, &auth, &ctx, redo).await
        }
        Err(NotRecorded::Failed(e)) => refuse(&state, &auth, &ctx, e, Redo::default()).await,
    }
}

/// POST `…/matches/{home}/adjudication`: GT-M20, the President decides a game sent for
/// adjudication (`board`, `result` from the home side, `reason`); the decision stands.
pub async fn adjudicate_game(
    State(state): State<AppState>,
    auth: Auth,
    path: MatchPath,
    fields: Fields,
) -> Response {
    submit_form(state, auth, path, fields, ReportStep::Adjudicate).await
}

/// POST `…/matches/{home}/adjourned-game`: GT-M20, the home advisor enters the result of an
/// adjourned game once it is finished (`board`, `result`); the visitors confirm it.
pub async fn finish_adjourned_game(
    State(state): State<AppState>,
    auth: Auth,
    path: MatchPath,
    fields: Fields,
) -> Response {
    submit_form(state, auth, path, fields, ReportStep::FinishAdjourned).await
}

/// POST `…/matches/{home}/game-scores`: GT-M20, either school's advisor uploads a finished
/// game's moves (`board`, `pgn`).
pub async fn upload_game_score(
    State(state): State<AppState>,
    auth: Auth,
    path: MatchPath,
    fields: Fields,
) -> Response {
    let (sent, ctx, acting) =
        match begin(&state, &auth, path, fields, Action::UploadGameScore).await {
            Ok(x) => x,
            Err(e) => return e.answer(Format::Html),
        };
    let board = sent.field("board").parse::<u32>().unwrap_or(0);
    let pgn = sent.field("pgn").to_string();
    match games::record(&state, &ctx, &acting, board, &pgn).await {
        Ok(_) => see_other(&format!("{}#games", ctx.href())),
        Err(crate::results::extra::NotRecorded::Invalid(problems)) => {
            let redo = Redo {
                upload: Some((
                    board,
                    pgn,
                    problems.into_iter().map(|p| p.message).collect(),
                )),
                ..Redo::default()
            };
            again(&state, &auth, &ctx, redo).await
        }
        Err(crate::results::extra::NotRecorded::Failed(e)) => e.answer(Format::Html),
    }
}

/// A board of a match: league, season, competition, round, home team, board.
type BoardAddress = (String, String, String, u32, String, u32);

/// GET `…/matches/{home}/boards/{board}/game.pgn`: the game score uploaded for a board
/// (GT-M20), as PGN.
pub async fn game_score_pgn(
    State(state): State<AppState>,
    path: Result<Path<BoardAddress>, axum::extract::rejection::PathRejection>,
) -> Response {
    let answer = async {
        let Path((l, s, c, r, h, board)) = path.map_err(|e| bad_path(&e))?;
        let ctx = load(&state, &l, &s, &c, r, &h).await?;
        // AS-12: a game score names its players, which the public reads from the lock.
        let seen = state.seen_by(Arc::clone(&ctx.view), Viewer::Other);
        if let Some(lock) = seen.roster_lock.as_ref().filter(|_| seen.rosters_withheld) {
            return Err(WebError::not_found(lock.withheld_sentence()));
        }
        let score = ctx.stored.game_score(ctx.id, board).ok_or_else(|| {
            WebError::not_found(format!(
                "No game score has been uploaded for board {board} of this match; the match page lists the ones there are."
            ))
        })?;
        Ok::<_, WebError>(crate::app::respond::download(
            "application/x-chess-pgn",
            format!("{}\n", score.pgn),
            &format!("round-{r}-{h}-board-{board}.pgn"),
        ))
    };
    answer
        .await
        .unwrap_or_else(|e: WebError| e.answer(Format::Html))
}

/// POST `…/matches/{home}/lineups/{side}`: the school's advisor names its lineup before the
/// match, `board_1` … `board_N` (a player id, or empty for a board left empty), `withdrawn`
/// (GT-M12) and the `version` it was named against. Refused with each reason and its rule;
/// stored, back to the match's lineups.
pub async fn name_lineup(
    State(state): State<AppState>,
    auth: Auth,
    path: crate::app::address::LineupPath,
    fields: Fields,
) -> Response {
    let answer = async {
        let sent = sent(fields)?;
        let Path(crate::app::address::LineupAddress {
            league: l,
            season: s,
            competition: c,
            round: r,
            home: h,
            side,
        }) = path.map_err(|e| bad_path(&e))?;
        let side = crate::app::address::side(&side)?;
        let ctx = load(&state, &l, &s, &c, r, &h).await?;
        let acting = lineup::permit(&ctx, auth.user.as_ref(), side)?;
        let mut input = LineupInput {
            version: sent.version,
            accept_late: Some(sent.field("accept_late").to_string())
                .filter(|r| !r.trim().is_empty()),
            ..LineupInput::default()
        };
        for (name, value) in &sent.fields {
            let value = value.trim();
            if name == "withdrawn" && !value.is_empty() {
                input.withdrawn.push(value.to_string());
            } else if let Some(n) = name
                .strip_prefix("board_")
                .and_then(|n| n.parse::<usize>().ok())
                && (1..=64).contains(&n)
            {
                if input.boards.len() < n {
                    input.boards.resize(n, None);
                }
                input.boards[n - 1] = Some(value.to_string()).filter(|v| !v.is_empty());
            }
        }
        Ok::<_, WebError>(
            match lineup::name(
                &state,
                &ctx,
                &acting,
                lineup::may_accept_late(&ctx, auth.user.as_ref()),
                side,
                &input,
            )
            .await
            {
                Ok(_) => see_other(&format!("{}#lineup-{}", ctx.href(), side.code())),
                Err(NotNamed::Refused(findings)) => {
                    let redo = Redo {
                        lineup: Some((
                            side,
                            input,
                            findings
                                .iter()
                                .map(arbiter_core::rules::validate::Finding::on_its_match)
                                .collect(),
                        )),
                        ..Redo::default()
                    };
                    again(&state, &auth, &ctx, redo).await
                }
                Err(NotNamed::Stale(m)) => {
                    refuse(&state, &auth, &ctx, WebError::Conflict(m), Redo::default()).await
                }
                Err(NotNamed::Failed(e)) => refuse(&state, &auth, &ctx, e, Redo::default()).await,
            },
        )
    };
    answer
        .await
        .unwrap_or_else(|e: WebError| e.answer(Format::Html))
}

/// POST `…/matches/{home}/move`: an advisor of either school or the President moves the match
/// to another day (GT-M2), with the reason. What the move would break is said first (core's
/// `postpone::check`): a day that is not a school day of the season, or on which either team
/// plays, is refused; a day beyond three school weeks needs the President's override.
pub async fn move_match(
    State(state): State<AppState>,
    auth: Auth,
    path: MatchPath,
    fields: Fields,
) -> Response {
    let (sent, ctx, acting) = match begin(&state, &auth, path, fields, Action::PostponeMatch).await
    {
        Ok(x) => x,
        Err(e) => return e.answer(Format::Html),
    };
    let one = |k: &str| sent.field(k).to_string();
    let (day, start, reason) = (one("date"), one("start"), one("reason"));
    // GT-M2: arranged beforehand, or postponed on the day for the weather.
    let why = match one("why").as_str() {
        "weather" => arbiter_core::season::postpone::Postponement::Weather {
            agreed: one("agreed") == "yes",
        },
        _ => arbiter_core::season::postpone::Postponement::Arranged,
    };
    let refused = |problems: Vec<String>| Redo {
        moved: Some((
            MoveSent {
                date: day.clone(),
                start: start.clone(),
                reason: reason.clone(),
                weather: why != arbiter_core::season::postpone::Postponement::Arranged,
                agreed: one("agreed") == "yes",
            },
            problems,
        )),
        ..Redo::default()
    };
    // GT-M1: the home advisor arranges the time; empty leaves it to the advisors.
    let start_time = match start.as_str() {
        "" => None,
        t => match t.parse::<jiff::civil::Time>() {
            Ok(t) => Some(t),
            Err(_) => {
                let redo = refused(vec![format!(
                    "“{t}” is not a time; give it as HH:MM, such as 15:45 (the time field of the form does)."
                )]);
                return again(&state, &auth, &ctx, redo).await;
            }
        },
    };
    let Ok(to) = day.parse::<jiff::civil::Date>() else {
        let redo = refused(vec![format!(
            "“{day}” is not a day; give it as YYYY-MM-DD (the date field of the form does)."
        )]);
        return again(&state, &auth, &ctx, redo).await;
    };
    let season = &ctx.view.season;
    // GT-M2: the season's school days, its closures among them.
    let calendar = match state.store().school_calendar(season).await {
        Ok(c) => c,
        Err(e) => return WebError::from(e).answer(Format::Html),
    };
    let mv = arbiter_core::season::postpone::Move {
        round: ctx.round,
        home: ctx.record.home.clone(),
        to,
        today: state.today_in(&ctx.view.league.time_zone),
        calendar,
        why,
        weekend_days: ctx.view.rules.weekend_match_days(),
    };
    // GT-F4: a playoff match moves within the playoffs' windows instead of GT-M2's.
    let found = match (&ctx.view.rules.playoffs, ctx.playoff) {
        (Some(playoffs), true) => {
            let open_again = one("open_again").parse::<jiff::civil::Date>().ok();
            arbiter_core::season::postpone::check_playoff(
                &ctx.stored.competition,
                &mv,
                open_again,
                playoffs,
            )
        }
        _ => arbiter_core::season::postpone::check(&ctx.stored.competition, &mv),
    };
    let overridden =
        one("override") == "yes" && ctx.may(auth.user.as_ref(), Action::OverridePostponementWindow);
    let mut problems: Vec<String> = found
        .iter()
        .filter(|f| f.is_error() || !overridden)
        .map(|f| {
            let mut p = f.on_its_match();
            if !f.is_error() {
                p.push_str(" (tick the override to allow it, as the President may)");
            }
            p
        })
        .collect();
    if reason.is_empty() {
        problems
            .push("Say why the match moves (required, GT-M2); it is kept in the history.".into());
    }
    if !problems.is_empty() {
        return again(&state, &auth, &ctx, refused(problems)).await;
    }
    // The history keeps why it moved, as the form said it.
    let reason = format!(
        "{}: {reason}{}",
        match why {
            arbiter_core::season::postpone::Postponement::Arranged => "Moved by arrangement",
            arbiter_core::season::postpone::Postponement::Weather { agreed: false } => {
                "Postponed for the weather"
            }
            arbiter_core::season::postpone::Postponement::Weather { agreed: true } => {
                "Postponed for the weather, the new date agreed by both advisors"
            }
        },
        if overridden && !found.is_empty() {
            " (the President's override of GT-M2's window)"
        } else {
            ""
        }
    );
    match state
        .store()
        .move_match(ctx.id, to, start_time, &reason, &acting.actor())
        .await
    {
        Ok(()) => {
            state.invalidate();
            // GT-M2: both schools are told of the new day.
            crate::results::notify::tell_move(&state, &ctx, "GT-M2", &reason, Some(&acting.email))
                .await;
            see_other(&format!("{}#report", ctx.href()))
        }
        Err(arbiter_store::StoreError::Invalid(m)) => {
            again(&state, &auth, &ctx, refused(vec![m])).await
        }
        Err(e) => WebError::from(e).answer(Format::Html),
    }
}
