//! The arbiter's round page (issue 14): every board of every match of one round on one page,
//! typed from the keyboard alone (one key a board, [`arbiter_core::season::entry::typed_result`]), saved
//! through the one write path as officers' entries that stand, the standings below it updated at
//! once; and the undo of the last change, kept as a new version like any correction.
//!
//! GET `…/rounds/{n}/results` shows it; POST there saves what changed; POST `…/results/undo`
//! takes back the last version the same person wrote in this round.

use arbiter_core::record::model::{MatchOutcome, Pairing, Side};
use arbiter_core::rules::permissions::Action;
use arbiter_core::season::entry::{typed_key, typed_result};
use arbiter_core::season::report::ReportStep;
use askama::Template;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::Response;
use serde::Deserialize;

use crate::app::address::{Addressed, RoundAddress};
use crate::app::respond::{bad_path, parse_round, private, see_other};
use crate::app::state::AppState;
use crate::http::auth::{Acting, Auth};
use crate::http::csrf;
use crate::http::error::{Format, WebError};
use crate::public::pages::{StandingsTable, standings_table};
use crate::results::context::{self, MatchContext};
use crate::results::page::{Fields, starting_input};
use crate::results::write::{self, NotWritten, Submission};
use crate::ui::layout::{Layout, private_layout};
use crate::ui::link::{Link, competition_href, league_href, season_href};
use crate::ui::words;

/// One board's field: its name in the form, the players, and what is typed in it.
struct BoardField {
    name: String,
    number: u32,
    home: String,
    away: String,
    value: String,
}

/// One match on the page.
struct MatchRows {
    title: String,
    href: String,
    status: String,
    /// Why the boards cannot be typed here (a forfeited match, an officer's own school), if so.
    locked: Option<String>,
    /// The version the page read, sent back so that a newer one is never overwritten.
    version_field: String,
    version: u32,
    boards: Vec<BoardField>,
}

#[derive(Template)]
#[template(path = "results/round.html", whitespace = "minimize")]
struct RoundResultsPage {
    layout: Layout,
    csrf: String,
    action: String,
    undo_action: String,
    notice: Option<String>,
    problems: Vec<String>,
    /// What the problems' list says of the round: nothing saved, or the rest saved.
    problems_heading: &'static str,
    matches: Vec<MatchRows>,
    reason: String,
    reason_max: usize,
    /// The last change this person made in the round, and the version it took back to.
    undo: Option<(String, String)>,
    /// The standings under the form; none for a knockout (GT-F3), whose bracket is linked.
    table: Option<StandingsTable>,
    bracket_href: Option<String>,
    round_href: String,
    /// The projector shows standings: none for a knockout.
    projector_href: Option<String>,
    sheets_href: String,
    first_field: String,
    /// Issue 32 (item 19): the matches typed, each with its score, to check before they are
    /// saved; empty until the round is sent once.
    summary: Vec<String>,
    /// What was checked (every board's key as typed), sent back with the confirmation: the
    /// round is saved when what is sent is what was checked.
    checked: String,
    /// The round was just saved: the browser forgets its draft (issue 32, item 20).
    saved: bool,
    script: &'static str,
}

/// Issue 32 (item 20): the hall's Wi-Fi drops, a page reloads; what was typed is kept in the
/// browser (per round, with the versions read) until the server says the round saved, and
/// put back on the page with a line saying when it was typed and that it is not saved. A
/// match saved since by another entry (its version moved on) is not put back. Allowed by its
/// hash in this page's CSP only; without scripts the page works as before.
pub const DRAFT_SCRIPT: &str = "(function(){var f=document.querySelector('form.round-entry');if(!f||!window.localStorage){return}var k='arbiter-draft:'+location.pathname;function all(){return f.querySelectorAll('input[name^=\"r.\"],input[name^=\"v.\"],textarea[name=\"reason\"]')}try{if(f.getAttribute('data-saved')){localStorage.removeItem(k)}else{var d=JSON.parse(localStorage.getItem(k)||'null');if(d&&d.v){var n=0,e=all();for(var i=0;i<e.length;i++){var x=e[i],m=/^r[.](.+)[.][0-9]+$/.exec(x.name);if(x.type==='hidden'||!(x.name in d.v)||x.value===d.v[x.name]){continue}if(m){var v=f.elements['v.'+m[1]];if(v&&d.v['v.'+m[1]]!==v.value){continue}}x.value=d.v[x.name];n++}var s=document.getElementById('draft');if(n&&s){var t=new Date(d.t),p=function(a){return(a<10?'0':'')+a};s.textContent='Restored what you typed at '+p(t.getHours())+':'+p(t.getMinutes())+', not yet saved: check it and save the round.';s.hidden=false}else if(!n){localStorage.removeItem(k)}}}}catch(_){}f.addEventListener('input',function(){var v={},e=all();for(var i=0;i<e.length;i++){v[e[i].name]=e[i].value}try{localStorage.setItem(k,JSON.stringify({t:Date.now(),v:v}))}catch(_){}})})();";

/// `?saved=start,drop` (the home teams of the matches saved; `0` for none) or `?undone=1`:
/// what the last submission did.
#[derive(Debug, Default, Deserialize)]
pub struct Done {
    #[serde(default)]
    saved: Option<String>,
    #[serde(default)]
    undone: Option<u32>,
}

/// The round as the page works on it: each match's context, in the round's order.
struct RoundContext {
    league: String,
    season: String,
    competition: String,
    round: u32,
    matches: Vec<MatchContext>,
    /// GT-F3: a knockout's round, whose results the bracket reads, not standings.
    knockout: bool,
}

impl RoundContext {
    fn href(&self) -> String {
        format!(
            "{}/rounds/{}/results",
            competition_href(&self.league, &self.season, &self.competition),
            self.round
        )
    }
}

/// A board's field name: `r.{home team}.{board}`.
fn field_name(ctx: &MatchContext, board: u32) -> String {
    format!("r.{}.{board}", ctx.record.home.0)
}

async fn load(state: &AppState, path: Addressed<RoundAddress>) -> Result<RoundContext, WebError> {
    let Path(RoundAddress {
        league,
        season,
        competition,
        round,
    }) = path.map_err(|e| bad_path(&e))?;
    let round = parse_round(&round)?;
    let view = state.view(&league, &season, &competition).await?;
    let Some(r) = view.competition.rounds.iter().find(|r| r.number == round) else {
        return Err(WebError::not_found(format!(
            "{} has no round {round}.",
            view.record.name
        )));
    };
    let mut matches = Vec::new();
    for p in &r.pairings {
        if let Pairing::Match(m) = p {
            matches.push(
                context::load(state, &league, &season, &competition, round, &m.home.0).await?,
            );
        }
    }
    Ok(RoundContext {
        league,
        season,
        competition,
        round,
        matches,
        knockout: view.knockout(),
    })
}

/// The step an officer's typing takes on `ctx`: the first entry, or a correction.
fn step_for(ctx: &MatchContext) -> ReportStep {
    if ctx.entered().is_some() {
        ReportStep::Correct
    } else {
        ReportStep::Enter
    }
}

/// Why `auth` cannot type this match's boards here, if it cannot.
fn locked(auth: &Auth, ctx: &MatchContext) -> Option<String> {
    // GT-M5: a dropped team's match is not played.
    if let Some(why) = ctx.dropped() {
        return Some(why);
    }
    match ctx.entered().map(|v| &v.outcome) {
        Some(MatchOutcome::Forfeit { .. } | MatchOutcome::DoubleForfeit) => {
            return Some(
                "Forfeited as a whole (GT-M7): an officer changes it on the match page, with the reason.".into(),
            );
        }
        Some(MatchOutcome::Boards(bs)) if bs.iter().any(|b| b.unfinished.is_some()) => {
            return Some(
                "A game of this match was adjourned or sent for adjudication (GT-M20): settle it on the match page."
                    .into(),
            );
        }
        _ => {}
    }
    ctx.permit(auth.user.as_ref(), step_for(ctx).action())
        .err()
        .map(|e| e.to_string())
}

fn rows(auth: &Auth, ctx: &MatchContext, typed: Option<&[(String, String)]>) -> MatchRows {
    let input = starting_input(ctx);
    let name = |side: Side, id: Option<&String>| {
        let team = ctx.team(side);
        id.and_then(|id| {
            team.and_then(|t| t.players.iter().find(|p| &p.id.0 == id))
                .map(|p| p.name.clone())
        })
        .unwrap_or_else(|| "—".into())
    };
    let locked = locked(auth, ctx);
    let boards = input
        .boards
        .iter()
        .map(|b| {
            let field = field_name(ctx, b.board);
            let current = arbiter_core::GameResult::parse(&b.result)
                .filter(|r| *r != arbiter_core::GameResult::Pending)
                .map_or("", typed_key);
            let value = typed
                .and_then(|t| t.iter().find(|(n, _)| *n == field))
                .map_or(current, |(_, v)| v.trim());
            BoardField {
                name: field,
                number: b.board,
                home: name(Side::Home, b.home_player.as_ref()),
                away: name(Side::Away, b.away_player.as_ref()),
                value: value.to_string(),
            }
        })
        .collect();
    MatchRows {
        title: format!(
            "{} \u{2013} {}",
            ctx.team_name(Side::Home),
            ctx.team_name(Side::Away)
        ),
        href: ctx.href(),
        status: ctx.status().phrase().to_string(),
        locked,
        version_field: format!("v.{}", ctx.record.home.0),
        version: ctx.in_force(),
        boards,
    }
}

/// The last version `acting` wrote in this round that is still in force, with the version
/// before it: what the undo button takes back.
fn last_change<'a>(
    round: &'a RoundContext,
    email: &str,
) -> Option<(&'a MatchContext, &'a arbiter_store::ResultVersion)> {
    round
        .matches
        .iter()
        .filter_map(|ctx| {
            let v = ctx.versions.last()?;
            (v.entered_by.as_deref() == Some(email) && ctx.versions.len() > 1).then_some((ctx, v))
        })
        .max_by_key(|(_, v)| (v.entered_at, v.version))
}

async fn page(
    state: &AppState,
    auth: &Auth,
    round: &RoundContext,
    typed: Option<&[(String, String)]>,
    shown: (Option<String>, Vec<String>),
    status: StatusCode,
) -> Result<Response, WebError> {
    let shown = ("Nothing was saved:", shown.0, shown.1);
    let unchecked = (Vec::new(), String::new());
    checking(state, auth, round, typed, shown, unchecked, (status, false)).await
}

/// The round's page, with `summary` (the matches typed and their scores) to check before saving
/// and `checked`, what the confirmation must send again.
async fn checking(
    state: &AppState,
    auth: &Auth,
    round: &RoundContext,
    typed: Option<&[(String, String)]>,
    // What the problems' list says of the round (nothing saved, or the rest saved), the notice,
    // the problems.
    shown: (&'static str, Option<String>, Vec<String>),
    (summary, checked): (Vec<String>, String),
    // The answer's status, and whether it says the round saved (the browser's draft of it is
    // then cleared).
    (status, saved): (StatusCode, bool),
) -> Result<Response, WebError> {
    let view = state
        .view(&round.league, &round.season, &round.competition)
        .await?;
    let matches: Vec<MatchRows> = round
        .matches
        .iter()
        .map(|ctx| rows(auth, ctx, typed))
        .collect();
    let first_field = matches
        .iter()
        .find(|m| m.locked.is_none())
        .and_then(|m| m.boards.first())
        .map(|b| b.name.clone())
        .unwrap_or_default();
    let undo = auth.user.as_ref().and_then(|a| {
        let (ctx, v) = last_change(round, &a.user.email)?;
        Some((
            format!(
                "version {} of {} \u{2013} {}, saved {}",
                v.version,
                ctx.team_name(Side::Home),
                ctx.team_name(Side::Away),
                words::timestamp(v.entered_at)
            ),
            format!("{}:{}", ctx.record.home.0, v.version),
        ))
    });
    let c_href = competition_href(&round.league, &round.season, &round.competition);
    let page = RoundResultsPage {
        layout: private_layout(
            &format!(
                "{} results: {}",
                view.round_name(round.round),
                view.record.name
            ),
            vec![
                Link::new(league_href(&round.league), &view.league.name),
                Link::new(season_href(&round.league, &round.season), &view.season.name),
                Link::new(c_href.clone(), &view.record.name),
                Link::new(
                    format!("{c_href}/rounds/{}", round.round),
                    view.round_name(round.round),
                ),
            ],
        ),
        csrf: csrf::session_token(&auth.session).await?,
        action: round.href(),
        undo_action: format!("{}/undo", round.href()),
        problems_heading: shown.0,
        notice: shown.1,
        problems: shown.2,
        matches,
        reason: typed
            .and_then(|t| t.iter().find(|(n, _)| n == "reason"))
            .map(|(_, v)| context::shown(v))
            .unwrap_or_default(),
        reason_max: arbiter_core::record::text::REASON_MAX_CHARS,
        undo,
        table: (!round.knockout).then(|| standings_table(&view)),
        bracket_href: round
            .knockout
            .then(|| crate::ui::link::playoffs_href(&round.league, &round.season)),
        round_href: format!("{c_href}/rounds/{}", round.round),
        projector_href: (!round.knockout).then(|| format!("{c_href}/projector")),
        sheets_href: format!("{c_href}/rounds/{}/sheets", round.round),
        first_field,
        summary,
        checked,
        saved,
        script: DRAFT_SCRIPT,
    };
    let mut r = private(status, &page);
    crate::http::answer::allow_script(r.headers_mut(), DRAFT_SCRIPT);
    Ok(r)
}

/// GET: the round's boards to type, and the standings.
pub async fn round_results_page(
    State(state): State<AppState>,
    auth: Auth,
    path: Addressed<RoundAddress>,
    done: Query<Done>,
) -> Response {
    let answer = async {
        let round = load(&state, path).await?;
        may_enter_some(&auth, &round)?;
        let notice = match (done.saved.as_deref(), done.undone) {
            (Some("0"), _) => Some("Nothing had changed, so nothing was saved.".to_string()),
            (Some(saved), _) => Some(saved_notice(&round, saved)),
            (None, Some(v)) => Some(format!(
                "Version {v} was taken back, as a new version that restores the one before it; both are in the match's history."
            )),
            _ => None,
        };
        let saved = done.saved.as_deref().is_some_and(|s| s != "0");
        checking(
            &state,
            &auth,
            &round,
            None,
            ("Nothing was saved:", notice, Vec::new()),
            (Vec::new(), String::new()),
            (StatusCode::OK, saved),
        )
        .await
    };
    answer
        .await
        .unwrap_or_else(|e: WebError| e.answer(Format::Html))
}

/// Issue 32 (item 20): which matches the last save stored, by name, and which it did not.
fn saved_notice(round: &RoundContext, saved: &str) -> String {
    let homes: Vec<&str> = saved.split(',').collect();
    let title = |ctx: &MatchContext| {
        format!(
            "{} \u{2013} {}",
            ctx.team_name(Side::Home),
            ctx.team_name(Side::Away)
        )
    };
    let (done, rest): (Vec<&MatchContext>, Vec<&MatchContext>) = round
        .matches
        .iter()
        .partition(|ctx| homes.contains(&ctx.record.home.0.as_str()));
    let n = done.len();
    let them = if n == 1 { "it" } else { "them" };
    let mut notice = format!(
        "Saved {n} match{}: {}. Each stands as the officer's entry (GT-P2), and {}.",
        if n == 1 { "" } else { "es" },
        arbiter_core::record::words::list(done.iter().map(|c| title(c))),
        if round.knockout {
            format!("the bracket goes on from {them} (GT-F3)")
        } else {
            format!("the standings below include {them}")
        }
    );
    if !rest.is_empty() {
        notice.push_str(&format!(
            " Not saved, as nothing new was typed for {}: {}.",
            if rest.len() == 1 { "it" } else { "them" },
            arbiter_core::record::words::list(rest.iter().map(|c| title(c)))
        ));
    }
    notice
}

/// The page is the arbiter's and the officers': whoever may enter, as an officer, a result of at
/// least one of the round's matches. An advisor enters a school's match on its match page.
fn may_enter_some(auth: &Auth, round: &RoundContext) -> Result<(), WebError> {
    let mut refusal = None;
    for ctx in &round.matches {
        match ctx.permit(auth.user.as_ref(), Action::EnterResult) {
            Ok(acting) if acting.role.is_officer() => return Ok(()),
            Ok(_) => {
                refusal = Some(WebError::Forbidden(
                    "The round page is the arbiter's and the officers'; an advisor enters the school's result on the match page (GT-P2).".into(),
                ));
            }
            Err(e) => refusal = refusal.or(Some(e)),
        }
    }
    Err(refusal.unwrap_or_else(|| {
        WebError::not_found(format!("Round {} has no matches to enter.", round.round))
    }))
}

/// What one match's typed boards ask: nothing (unchanged), or the submission to write.
fn submission(
    ctx: &MatchContext,
    fields: &[(String, String)],
    reason: Option<&str>,
    problems: &mut Vec<String>,
) -> Option<Submission> {
    let mut input = starting_input(ctx);
    let title = format!(
        "{} \u{2013} {}",
        ctx.team_name(Side::Home),
        ctx.team_name(Side::Away)
    );
    let typed = |board: u32| {
        let name = field_name(ctx, board);
        fields
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v.trim())
    };
    let mut changed = false;
    let mut blank = Vec::new();
    let mut any_typed = false;
    let mut unreadable = false;
    for b in &mut input.boards {
        // A field not sent counts as one left blank.
        let text = typed(b.board).unwrap_or_default();
        if text.is_empty() {
            blank.push(b.board);
            continue;
        }
        any_typed = true;
        match typed_result(text) {
            Some(r) => {
                if arbiter_core::GameResult::parse(&b.result) != Some(r) {
                    changed = true;
                    b.result = r.code().to_string();
                }
            }
            None => {
                unreadable = true;
                problems.push(format!(
                    "{title}, board {}: “{text}” is not a result; type 1 (home won), 0 (visitors won), = (drawn), + or - (won by forfeit), -- (double forfeit).",
                    b.board
                ));
            }
        }
    }
    if !any_typed || !changed || unreadable {
        return None;
    }
    if !blank.is_empty() {
        let boards: Vec<String> = blank.iter().map(u32::to_string).collect();
        problems.push(format!(
            "{title}: board{} {} ha{} no result; type every board of a match, or none.",
            if blank.len() == 1 { "" } else { "s" },
            boards.join(", "),
            if blank.len() == 1 { "s" } else { "ve" }
        ));
        return None;
    }
    let step = step_for(ctx);
    // Core's sentence, asked before anything is written so that the round saves whole or not.
    if let (Some(missing), None) = (step.reason_missing(), reason) {
        problems.push(format!("{title}: {missing}"));
        return None;
    }
    let seen = fields
        .iter()
        .find(|(n, _)| *n == format!("v.{}", ctx.record.home.0))
        .and_then(|(_, v)| v.trim().parse().ok());
    Some(Submission {
        step,
        entry: Some(input.entry()),
        version: seen.or(Some(ctx.in_force())),
        reason: reason.map(str::to_string),
        settle: None,
        restore: None,
        acknowledge_drop: false,
    })
}

/// Every board's key as typed, in the form's order: what a confirmation must send unchanged.
fn typed_keys(fields: &[(String, String)]) -> String {
    fields
        .iter()
        .filter(|(n, _)| n.starts_with("r."))
        .map(|(n, v)| format!("{n}={}", v.trim()))
        .collect::<Vec<_>>()
        .join(" ")
}

/// A match as typed, to check before it is saved: `Start Spartans 3½–½ Scott High (1 1 1 =)`.
fn score_line(ctx: &MatchContext, sub: &Submission) -> String {
    let rules = &ctx.stored.rules;
    let (mut home, mut away, mut keys) = (0.0, 0.0, Vec::new());
    for b in sub.entry.iter().flat_map(|e| &e.boards) {
        let Some(r) = arbiter_core::GameResult::parse(&b.result) else {
            continue;
        };
        home += arbiter_core::scoring::game_points(rules, r.outcome_for(Side::Home));
        away += arbiter_core::scoring::game_points(rules, r.outcome_for(Side::Away));
        keys.push(words::board_result(r));
    }
    format!(
        "{} {} {} ({})",
        ctx.team_name(Side::Home),
        words::score(home, away),
        ctx.team_name(Side::Away),
        keys.join(", ")
    )
}

/// POST: every match whose boards changed is checked first; if any is wrong nothing is saved
/// (422, the page again with what was typed); else each is written as the officer's entry.
pub async fn save_round_results(
    State(state): State<AppState>,
    auth: Auth,
    path: Addressed<RoundAddress>,
    form: Fields,
) -> Response {
    let answer = async {
        let round = load(&state, path).await?;
        may_enter_some(&auth, &round)?;
        let axum::Form(fields) = form.map_err(|e| WebError::BadRequest(e.body_text()))?;
        let reason = fields
            .iter()
            .find(|(n, _)| n == "reason")
            .map(|(_, v)| v.trim())
            .filter(|v| !v.is_empty());
        let mut problems = Vec::new();
        // Issue 32 (item 21): a match another entry got to after this page was read is not
        // saved; the other matches are, and the page says what is in force on that one.
        let mut overtaken = Vec::new();
        let mut asked: Vec<(&MatchContext, Acting, Submission)> = Vec::new();
        for ctx in &round.matches {
            let read = fields
                .iter()
                .find(|(n, _)| *n == format!("v.{}", ctx.record.home.0))
                .and_then(|(_, v)| v.trim().parse::<u32>().ok());
            if let Some(read) = read
                && read != ctx.in_force()
            {
                let mut unused = Vec::new();
                if submission(ctx, &fields, reason, &mut unused).is_some() || !unused.is_empty() {
                    overtaken.push(format!(
                        "{} \u{2013} {}: {}",
                        ctx.team_name(Side::Home),
                        ctx.team_name(Side::Away),
                        context::changed(ctx)
                    ));
                }
                continue;
            }
            let Some(sub) = submission(ctx, &fields, reason, &mut problems) else {
                continue;
            };
            if let Some(why) = locked(&auth, ctx) {
                problems.push(format!(
                    "{} \u{2013} {}: {why}",
                    ctx.team_name(Side::Home),
                    ctx.team_name(Side::Away)
                ));
                continue;
            }
            let acting = ctx.permit(auth.user.as_ref(), sub.step.action())?;
            // Read and checked as the write will check it, before anything is written.
            if let Some(entry) = &sub.entry
                && let Err(found) = entry.outcome(
                    &ctx.stored.competition,
                    &ctx.stored.rules,
                    ctx.round,
                    &ctx.record,
                )
            {
                let title = format!(
                    "{} \u{2013} {}",
                    ctx.team_name(Side::Home),
                    ctx.team_name(Side::Away)
                );
                problems.extend(found.into_iter().map(|p| format!("{title}: {}", p.message)));
                continue;
            }
            asked.push((ctx, acting, sub));
        }
        if !problems.is_empty() {
            return page(
                &state,
                &auth,
                &round,
                Some(&fields),
                (None, problems),
                StatusCode::UNPROCESSABLE_ENTITY,
            )
            .await;
        }
        // Issue 32 (item 19): the scores are shown to check first; what was checked is saved.
        let typed = typed_keys(&fields);
        let sent_checked = fields
            .iter()
            .find(|(n, _)| n == "checked")
            .map(|(_, v)| v.as_str());
        if !asked.is_empty() && sent_checked != Some(typed.as_str()) {
            let summary = asked
                .iter()
                .map(|(ctx, _, sub)| score_line(ctx, sub))
                .collect();
            return checking(
                &state,
                &auth,
                &round,
                Some(&fields),
                ("Nothing was saved:", None, overtaken),
                (summary, typed),
                (StatusCode::OK, false),
            )
            .await;
        }
        // One transaction: the round is saved whole, or nothing of it (issue 30).
        let refusals = match write::submit_all(&state, &asked).await {
            Ok(0) if overtaken.is_empty() => {
                return Ok(see_other(&format!("{}?saved=0", round.href())));
            }
            Ok(_) if overtaken.is_empty() => {
                let homes: Vec<&str> = asked
                    .iter()
                    .map(|(ctx, _, _)| ctx.record.home.0.as_str())
                    .collect();
                return Ok(see_other(&format!(
                    "{}?saved={}",
                    round.href(),
                    form_encode(&homes.join(","))
                )));
            }
            Ok(saved) => {
                let fresh = load_again(&state, &round).await?;
                let names = asked.iter().map(|(ctx, _, _)| {
                    format!(
                        "{} \u{2013} {}",
                        ctx.team_name(Side::Home),
                        ctx.team_name(Side::Away)
                    )
                });
                let notice = format!(
                    "{saved} match{} saved ({}); {} not, because another entry got in first: it is below as it stands now, with what you typed. To change it, type it again with the reason (a correction, GT-P2).",
                    if saved == 1 { "" } else { "es" },
                    arbiter_core::record::words::list(names),
                    if overtaken.len() == 1 {
                        "one was"
                    } else {
                        "some were"
                    }
                );
                return checking(
                    &state,
                    &auth,
                    &fresh,
                    Some(&fields),
                    ("Not saved:", Some(notice), overtaken),
                    (Vec::new(), String::new()),
                    (StatusCode::CONFLICT, false),
                )
                .await;
            }
            Err(refusals) => refusals,
        };
        let failed: Vec<String> = refusals
            .into_iter()
            .map(|(i, e)| {
                let ctx = asked[i].0;
                format!(
                    "{} \u{2013} {}: {}",
                    ctx.team_name(Side::Home),
                    ctx.team_name(Side::Away),
                    not_written(e)
                )
            })
            .collect();
        // Another write got in first on a match: nothing was saved; the page shows what is in
        // force now and keeps what was typed, to check and save again.
        let fresh = load_again(&state, &round).await?;
        let notice = format!(
            "Nothing was saved: the {} matches typed are saved together or not at all. Check the match below, then save the round again.",
            asked.len()
        );
        page(
            &state,
            &auth,
            &fresh,
            Some(&fields),
            (Some(notice), failed),
            StatusCode::CONFLICT,
        )
        .await
    };
    answer
        .await
        .unwrap_or_else(|e: WebError| e.answer(Format::Html))
}

/// A value as an address's query carries it.
fn form_encode(s: &str) -> String {
    form_urlencoded::byte_serialize(s.as_bytes()).collect()
}

fn not_written(e: NotWritten) -> String {
    match e {
        NotWritten::Refused { why, .. } => why.to_string(),
        NotWritten::Invalid { too_long, problems } => too_long
            .into_iter()
            .chain(problems)
            .map(|p| p.message)
            .collect::<Vec<_>>()
            .join(" "),
        NotWritten::StoreRefused(m) => m,
        NotWritten::Failed(e) => e.to_string(),
    }
}

async fn load_again(state: &AppState, round: &RoundContext) -> Result<RoundContext, WebError> {
    let mut matches = Vec::new();
    for ctx in &round.matches {
        matches.push(context::reload(state, ctx).await?);
    }
    Ok(RoundContext {
        league: round.league.clone(),
        season: round.season.clone(),
        competition: round.competition.clone(),
        round: round.round,
        matches,
        knockout: round.knockout,
    })
}

/// The undo form: which version it takes back, `home:version`, as the page showed it.
#[derive(Debug, Default, Deserialize)]
pub struct UndoFields {
    #[serde(default)]
    last: String,
}

/// POST `…/results/undo`: the version the page offered is taken back by a new version that
/// restores the one before it, if it is still the one in force and still this person's.
pub async fn undo_round_change(
    State(state): State<AppState>,
    auth: Auth,
    path: Addressed<RoundAddress>,
    form: Result<axum::Form<UndoFields>, axum::extract::rejection::FormRejection>,
) -> Response {
    let answer = async {
        let round = load(&state, path).await?;
        may_enter_some(&auth, &round)?;
        let axum::Form(f) = form.map_err(|e| WebError::BadRequest(e.body_text()))?;
        let email = auth
            .user
            .as_ref()
            .map(|a| a.user.email.clone())
            .ok_or(WebError::SignInRequired)?;
        let offered = f
            .last
            .split_once(':')
            .and_then(|(home, v)| v.parse::<u32>().ok().map(|v| (home.to_string(), v)));
        let last = last_change(&round, &email);
        let (ctx, version) = match (offered, last) {
            (Some((home, v)), Some((ctx, last)))
                if ctx.record.home.0 == home && last.version == v =>
            {
                (ctx, last)
            }
            _ => {
                return page(
                    &state,
                    &auth,
                    &round,
                    None,
                    (
                        None,
                        vec!["That change is no longer the last one you made in this round, so nothing was undone; the page shows what is in force now.".into()],
                    ),
                    StatusCode::CONFLICT,
                )
                .await;
            }
        };
        let before = ctx
            .versions
            .iter()
            .rev()
            .find(|v| v.version < version.version)
            .map(|v| v.outcome.clone())
            .unwrap_or(MatchOutcome::Pending);
        let acting = ctx.permit(auth.user.as_ref(), Action::CorrectResult)?;
        let sub = Submission {
            step: ReportStep::Correct,
            entry: None,
            version: Some(version.version),
            reason: Some(format!(
                "Undo on the round page: version {} taken back.",
                version.version
            )),
            settle: None,
            restore: Some(before),
            acknowledge_drop: false,
        };
        match write::submit(&state, ctx, &acting, &sub).await {
            Ok(_) => Ok(see_other(&format!(
                "{}?undone={}",
                round.href(),
                version.version
            ))),
            Err(e) => {
                let fresh = load_again(&state, &round).await?;
                page(
                    &state,
                    &auth,
                    &fresh,
                    None,
                    (None, vec![not_written(e)]),
                    StatusCode::CONFLICT,
                )
                .await
            }
        }
    };
    answer
        .await
        .unwrap_or_else(|e: WebError| e.answer(Format::Html))
}

// ---------------------------------------------------------------------------------------------
// The round's sheets to print (issue 14, part 4)

/// One board of a score sheet.
struct SheetBoard {
    number: u32,
    home_colour: &'static str,
    home: String,
    away: String,
    away_colour: &'static str,
}

/// One match's score sheet: an A4 page.
struct ScoreSheet {
    table: usize,
    home: String,
    away: String,
    home_school: String,
    away_school: String,
    boards: Vec<SheetBoard>,
    /// Where the names come from: the lineups named, or the rosters' order until they are.
    names_from: String,
}

#[derive(Template)]
#[template(path = "results/sheets.html", whitespace = "minimize")]
struct SheetsPage {
    title: String,
    css: &'static str,
    /// What every sheet prints at its head: the event, the competition, the clock.
    heading: String,
    time_control: Option<String>,
    round: String,
    pairings: Vec<(usize, String, String, &'static str)>,
    sheets: Vec<ScoreSheet>,
    back_href: String,
}

/// GET `…/rounds/{n}/sheets`: the round's pairing sheet and each match's score sheet, one A4
/// page each, with the lineups named so far; for the arbiter, as the round page is.
pub async fn round_sheets(
    State(state): State<AppState>,
    auth: Auth,
    path: Addressed<RoundAddress>,
) -> Response {
    let answer = async {
        let round = load(&state, path).await?;
        may_enter_some(&auth, &round)?;
        let view = state
            .view(&round.league, &round.season, &round.competition)
            .await?;
        let date = view
            .competition
            .rounds
            .iter()
            .find(|r| r.number == round.round)
            .and_then(|r| r.date)
            .map(|d| format!(", {}", words::date(d)))
            .unwrap_or_default();
        let rules = &view.rules;
        let mut pairings = Vec::new();
        let mut sheets = Vec::new();
        for (i, ctx) in round.matches.iter().enumerate() {
            let input = starting_input(ctx);
            let player = |side: Side, id: Option<&String>| {
                id.and_then(|id| {
                    ctx.team(side)
                        .and_then(|t| t.players.iter().find(|p| &p.id.0 == id))
                        .map(|p| p.name.clone())
                })
                .unwrap_or_default()
            };
            let named = [Side::Home, Side::Away]
                .iter()
                .filter(|s| crate::results::lineup::in_force(ctx, **s).is_some())
                .count();
            let boards = input
                .boards
                .iter()
                .map(|b| {
                    let c = rules.colour(None, b.board, Side::Home);
                    SheetBoard {
                        number: b.board,
                        home_colour: words::colour_word(c),
                        home: player(Side::Home, b.home_player.as_ref()),
                        away: player(Side::Away, b.away_player.as_ref()),
                        away_colour: words::colour_word(c.other()),
                    }
                })
                .collect();
            let home = ctx.team_name(Side::Home);
            let away = ctx.team_name(Side::Away);
            pairings.push((
                i + 1,
                home.clone(),
                away.clone(),
                words::colour_word(rules.colour(None, 1, Side::Home)),
            ));
            sheets.push(ScoreSheet {
                table: i + 1,
                home,
                away,
                home_school: ctx.school(Side::Home).unwrap_or_default().to_string(),
                away_school: ctx.school(Side::Away).unwrap_or_default().to_string(),
                boards,
                names_from: match named {
                    2 => "Players as named in both lineups.".into(),
                    1 => "One team has named its lineup; the other's players are its roster's first, to be checked.".into(),
                    _ => "No lineup named yet: the players are each roster's first, to be checked against the lineups (AS-10, AS-11).".into(),
                },
            });
        }
        let page = SheetsPage {
            title: format!(
                "Round {} sheets \u{2014} {} \u{2014} Arbiter",
                round.round, view.record.name
            ),
            css: crate::ui::stylesheet::css_href(),
            heading: format!(
                "{} \u{2014} {} \u{2014} {}",
                view.league.name, view.season.name, view.record.name
            ),
            time_control: view.time_control(),
            round: format!("Round {}{date}", round.round),
            pairings,
            sheets,
            back_href: round.href(),
        };
        Ok(private(StatusCode::OK, &page))
    };
    answer
        .await
        .unwrap_or_else(|e: WebError| e.answer(Format::Html))
}
