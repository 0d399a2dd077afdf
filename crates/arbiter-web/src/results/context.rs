//! The match as the store has it now, and a result as a form or a JSON body sends it: what the
//! match page, the one write path and the API all read.
//!
//! GT-M1, GT-P2: the home advisor enters the result (at an event, the arbiter, whose entry
//! stands), the visiting advisor confirms or disputes it, and an officer decides a dispute:
//! keeps the result as entered, or corrects it as a new version (GT-O3 keeps the President off
//! their own school's matches). An imported result stands as recorded. The table decides who
//! may, core's `report` when and `entry` what the result is; this module reads the match, draws
//! the page and decodes the forms for the one write path (`report_write`) the API shares.

use std::sync::Arc;

use arbiter_core::record::model::{Match, MatchOutcome, Pairing, Round, Side, TeamId};
use arbiter_core::record::text::{REASON_MAX_CHARS, Reason};
use arbiter_core::rules::permissions::{Action, Role, Target};
use arbiter_core::season::entry::{BoardEntry, ResultEntry};
use arbiter_core::season::report::{
    self, EnteredBy, Entry, Refusal, Report, ReportStatus, Review, ReviewKind, ReviewedBy,
};
use arbiter_store::{
    LeagueId, MatchId, ReportSeen, ResultReview, ResultVersion, StoredCompetition,
};
use serde::Deserialize;
use utoipa::ToSchema;

use crate::app::address::{Addressed, MatchAddress};
use crate::app::respond::select_round;
use crate::app::state::AppState;
use crate::app::view::CompetitionView;
use crate::http::auth::{self, Account, Acting};
use crate::http::error::WebError;
use crate::ui::link::Link;
use crate::ui::words;

/// `/leagues/{league}/{season}/{competition}/rounds/{round}/matches/{home}`.
pub type MatchPath = Addressed<MatchAddress>;

// ---------------------------------------------------------------------------------------------
// The match, as the store has it now

/// Everything the page and the writes need of one match, read fresh for the request.
pub(crate) struct MatchContext {
    /// The competition as the pages draw it (links, scores).
    pub view: Arc<CompetitionView>,
    /// The stored record: rosters to check a result against, and the match's id.
    pub stored: std::sync::Arc<StoredCompetition>,
    pub round: u32,
    pub date: Option<jiff::civil::Date>,
    pub record: Match,
    pub id: MatchId,
    /// Oldest first; version 1 may be the scheduled match with no result. Every version for
    /// the match page; only the one in force for the API's writes (`Versions::InForce`).
    pub versions: Vec<ResultVersion>,
    /// Which versions were read, so that a reload reads the same.
    read: Versions,
    pub reviews: Vec<ResultReview>,
    /// A match of the season's playoffs: GT-F4's windows apply to a move.
    pub playoff: bool,
}

impl MatchContext {
    pub fn league(&self) -> LeagueId {
        self.stored.league.id
    }

    pub(crate) fn team(&self, side: Side) -> Option<&arbiter_core::Team> {
        let id = self.record.team(side);
        self.stored.competition.teams.iter().find(|t| &t.id == id)
    }

    pub(crate) fn team_name(&self, side: Side) -> String {
        self.team(side)
            .map_or_else(|| self.record.team(side).0.clone(), |t| t.name.clone())
    }

    pub(crate) fn school(&self, side: Side) -> Option<&str> {
        self.team(side).and_then(|t| t.school.as_deref())
    }

    /// The permission table's target: both schools involved, home and visiting (GT-M1).
    pub fn with_target<R>(&self, f: impl FnOnce(Target<'_>) -> R) -> R {
        f(Target::Match {
            home: self.school(Side::Home),
            visiting: self.school(Side::Away),
            conduct: self.stored.rules.conduct,
        })
    }

    pub fn permit(&self, account: Option<&Account>, action: Action) -> Result<Acting, WebError> {
        self.with_target(|t| auth::permit(account, self.league(), action, t))
    }

    pub(crate) fn may(&self, account: Option<&Account>, action: Action) -> bool {
        self.with_target(|t| auth::may(account, self.league(), action, t))
    }

    /// The fines the league's rules set for this match's record (`[fines]`, issue 34 item 7),
    /// each in a sentence; a late result counted from the day a team's advisor first entered
    /// one, in the league's time zone.
    pub fn fines(&self) -> Vec<String> {
        let rules = &self.stored.rules;
        if rules.fines == arbiter_core::season::fines::Fines::default() {
            return Vec::new();
        }
        let first = self
            .versions
            .iter()
            .find(|v| {
                v.entered_role == Some(arbiter_core::rules::permissions::Role::Advisor)
                    && v.outcome != arbiter_core::MatchOutcome::Pending
            })
            .map(|v| arbiter_core::season::fines::FirstEntry {
                round: self.round,
                home: self.record.home.clone(),
                entered_on: self.stored.league.time_zone.day_of(v.entered_at),
            });
        arbiter_core::season::fines::assess(&self.stored.competition, rules, first.as_slice())
            .into_iter()
            .filter(|f| f.round == self.round && f.home == self.record.home)
            .map(|f| f.sentence)
            .collect()
    }

    /// GT-M5: why this match will not be played, when a team of it was dropped.
    pub fn dropped(&self) -> Option<String> {
        arbiter_core::scoring::unplayed_after_drop(
            &self.view.sheet,
            &self.view.competition,
            self.round,
            &self.record,
        )
    }

    /// The highest version, whatever it holds (0 when there is none).
    pub fn in_force(&self) -> u32 {
        self.versions.last().map_or(0, |v| v.version)
    }

    /// What this request read of the report: a write made on it is stored only if it is still so.
    pub fn seen(&self) -> ReportSeen {
        ReportSeen::of(&self.versions, &self.reviews)
    }

    /// The version in force when it holds a result (not the scheduled, pending match).
    pub fn entered(&self) -> Option<&ResultVersion> {
        self.versions
            .last()
            .filter(|v| v.outcome != MatchOutcome::Pending)
    }

    pub fn status(&self) -> ReportStatus {
        self.status_with(None)
    }

    /// The status once `extra` (a review just stored) is counted too.
    pub fn status_with(&self, extra: Option<&ResultReview>) -> ReportStatus {
        let reviews: Vec<ResultReview> = self.reviews.iter().chain(extra).cloned().collect();
        report_status(&self.versions, &reviews)
    }

    pub fn href(&self) -> String {
        self.view.match_href(self.round, &self.record.home)
    }

    /// What core's workflow reads of the report (GT-P2).
    pub fn report(&self) -> Report {
        Report {
            status: self.status(),
            in_force: self.in_force(),
            played_on: self.date,
            enter_by: self
                .date
                .zip(self.stored.rules.report)
                .map(|(d, by)| by.enter_by(d)),
            correct_by: self.correct_by(),
            basis: self.versions.last().map(|v| v.basis).unwrap_or_default(),
        }
    }

    /// GT-P2: the last day either school asks for a correction of the version in force, counted
    /// in the league's zone from its entry; `None` without a result or a `[report]`.
    pub fn correct_by(&self) -> Option<jiff::civil::Date> {
        let entered_on = self
            .entered()
            .map(|v| self.view.league.time_zone.day_of(v.entered_at))?;
        self.stored.rules.report.map(|by| by.correct_by(entered_on))
    }
}

/// GT-P2: where a match's report stands, from what the store keeps of it (every version, with
/// who entered it in which role, and every review). The match page and the account page read
/// it here.
pub(crate) fn report_status(versions: &[ResultVersion], reviews: &[ResultReview]) -> ReportStatus {
    let entry = versions
        .last()
        .filter(|v| v.outcome != MatchOutcome::Pending)
        .map(|v| Entry {
            version: v.version,
            by: EnteredBy::of(v.entered_by.as_deref(), v.entered_role),
        });
    let reviews: Vec<Review> = reviews
        .iter()
        .map(|r| Review {
            version: r.version,
            kind: r.kind,
            by: ReviewedBy::of(r.role),
        })
        .collect();
    report::status(entry, &reviews)
}

/// Which versions of a match's result a request reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Versions {
    /// Every one: the match page lists them.
    Every,
    /// The one in force: all a write checks and builds on (GT-P2's report reads the version in
    /// force and the reviews). A write waits for the store's one writer holding what it read,
    /// so reading a match's every version made each waiting write hold more as a match was
    /// corrected again and again (issue 16's soak: memory grew with the versions).
    InForce,
}

/// Reads the match named by the address, with its versions and reviews; 404 with what exists
/// when the address names nothing.
pub(crate) async fn load(
    state: &AppState,
    league: &str,
    season: &str,
    competition: &str,
    round: u32,
    home: &str,
) -> Result<MatchContext, WebError> {
    load_reading(
        state,
        league,
        season,
        competition,
        round,
        home,
        Versions::Every,
    )
    .await
}

/// [`load`], reading only the version in force: for a write sent through the API.
pub(crate) async fn load_in_force(
    state: &AppState,
    league: &str,
    season: &str,
    competition: &str,
    round: u32,
    home: &str,
) -> Result<MatchContext, WebError> {
    load_reading(
        state,
        league,
        season,
        competition,
        round,
        home,
        Versions::InForce,
    )
    .await
}

async fn load_reading(
    state: &AppState,
    league: &str,
    season: &str,
    competition: &str,
    round: u32,
    home: &str,
    read: Versions,
) -> Result<MatchContext, WebError> {
    let view = state.view(league, season, competition).await?;
    select_round(&view, round)?;
    let store = state.store();
    // The view was loaded at the data version this request saw: no second load.
    let stored = view.stored.clone();
    let Some(r) = stored.competition.rounds.iter().find(|r| r.number == round) else {
        return Err(WebError::not_found(format!(
            "{} has no round {round}.",
            view.record.name
        )));
    };
    let home_id = TeamId(home.to_string());
    let Some(record) = find_match(r, |m| m.home == home_id) else {
        return Err(no_such_match(&view, r, &home_id));
    };
    let id = stored.match_id(round, &home_id).ok_or_else(|| {
        WebError::not_found(format!(
            "The match of {} in round {round} is not in the store.",
            view.team_name(&home_id)
        ))
    })?;
    let versions = match read {
        Versions::Every => store.result_versions(id).await?,
        Versions::InForce => vec![store.result_version_in_force(id).await?],
    };
    let reviews = store.result_reviews(id).await?;
    let playoff = store
        .playoffs(view.season.id)
        .await?
        .is_some_and(|p| p.competition == view.id);
    Ok(MatchContext {
        // The match's own day when it moved (GT-M2): the report's deadlines count from it.
        date: r.date_of(record),
        record: record.clone(),
        view,
        round,
        id,
        versions,
        read,
        reviews,
        stored,
        playoff,
    })
}

fn find_match(r: &Round, pick: impl Fn(&Match) -> bool) -> Option<&Match> {
    r.pairings.iter().find_map(|p| match p {
        Pairing::Match(m) if pick(m) => Some(m),
        _ => None,
    })
}

fn no_such_match(view: &CompetitionView, r: &Round, home: &TeamId) -> WebError {
    let links: Vec<Link> = r
        .pairings
        .iter()
        .filter_map(|p| match p {
            Pairing::Match(m) => Some(Link::new(
                view.match_href(r.number, &m.home),
                format!("{} v {}", view.team_name(&m.home), view.team_name(&m.away)),
            )),
            Pairing::Bye(_) => None,
        })
        .collect();
    let message = match find_match(r, |m| &m.away == home) {
        Some(m) => format!(
            "{} is the visiting team in round {}: its match is listed under the home team, {}. The round's matches are below.",
            view.team_name(home),
            r.number,
            view.team_name(&m.home)
        ),
        None if view.team_index(&home.0).is_some() => format!(
            "{} plays no match in round {} of {}. The round's matches are below.",
            view.team_name(home),
            r.number,
            view.record.name
        ),
        None => format!(
            "{} has no team with the id “{home}”. The matches of round {} are below.",
            view.record.name, r.number
        ),
    };
    WebError::NotFound { message, links }
}

// ---------------------------------------------------------------------------------------------
// From a form or a JSON body to a core result (one function for the page and the API)

/// A result as a person or a script sends it: board by board, or a whole-match forfeit.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ResultInput {
    /// The whole match was forfeited (GT-M7): `home` (the home team forfeited), `away`, or
    /// `both` (a double forfeit). Leave it out when the boards were played.
    #[serde(default)]
    pub forfeit: Option<String>,
    /// Every board of the match, board 1 first.
    #[serde(default)]
    pub boards: Vec<BoardInput>,
    /// GT-M6, GT-S3: the referee's report of a team that came late, when one did.
    #[serde(default)]
    pub late: Option<LateInput>,
    /// Why: optional for an entry, required for a correction (GT-P2). At most 1,000 characters.
    #[serde(default)]
    // The literal is `arbiter_core::record::text::REASON_MAX_CHARS`; a test of the document holds them equal.
    #[schema(max_length = 1000)]
    pub reason: Option<String>,
    /// The result version in force when you read the match (0: none yet). When given and no
    /// longer in force, nothing is written (409), so an entry never overwrites one it did not see.
    #[serde(default)]
    pub version: Option<u32>,
    /// GT-M5: an officer's entry or correction that would drop a team is refused (422, the field
    /// `acknowledge_drop` with the warning) until it is sent again with this `true`.
    #[serde(default)]
    pub acknowledge_drop: bool,
}

/// The referee's report of a late team (GT-M6, GT-S3); times as `HH:MM`.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct LateInput {
    /// `home` or `away`: the side that came late.
    pub team: String,
    /// When its school day ended: GT-M6 gives it an hour from then.
    pub school_day_ends: String,
    /// When the clocks were started without it (GT-S3: from an hour after its school day).
    #[serde(default)]
    pub clocks_started: Option<String>,
    /// When it arrived and began; left out: it never did.
    #[serde(default)]
    pub arrived: Option<String>,
    /// GT-M6: the late start was arranged before the day.
    #[serde(default)]
    pub arranged: bool,
}

/// One board of a result.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct BoardInput {
    /// 1-based.
    pub board: u32,
    /// From the home side: `1-0`, `1/2-1/2` (or `½-½`), `0-1`, `+/-`, `-/+`, `-/-`.
    #[serde(default)]
    pub result: String,
    /// A player id from the home team's roster; none on a board the home team left empty.
    #[serde(default)]
    pub home_player: Option<String>,
    #[serde(default)]
    pub away_player: Option<String>,
    /// GT-P1: the result for ratings when it differs from the team result (`1-0`, `1/2-1/2`,
    /// `0-1`).
    #[serde(default)]
    pub rating_result: Option<String>,
    /// Why the board was not played, when it was not: `absent` (GT-M9), `coach` (GT-M16),
    /// `conduct` (GT-M17, with a `note`), `double_default` (GT-S2) or `agreed_draw` (GT-M4,
    /// scored as a double default).
    #[serde(default)]
    pub unplayed: Option<String>,
    /// GT-M17: what happened, for a board forfeited for conduct. At most 1,000 characters.
    #[serde(default)]
    #[schema(max_length = 1000)]
    pub note: Option<String>,
    /// GT-M20: the day an adjourned game resumes (`YYYY-MM-DD`, before the match's week is
    /// out); its result is `*` until it is finished.
    #[serde(default)]
    pub adjourned_to: Option<String>,
    /// GT-M20: an unfinished game sent to the President for adjudication; its result is `*`
    /// until the President decides.
    #[serde(default)]
    pub adjudication: Option<PositionInput>,
}

/// GT-M20: the position of a game sent for adjudication: the moves must reach it.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PositionInput {
    /// The moves played, as PGN (`1. e4 e5 2. Nf3 …`); an illegal move is refused by its number.
    // The literal is `arbiter_core::season::game::PGN_MAX_CHARS`.
    #[schema(max_length = 32768)]
    pub pgn: String,
    /// The position on the board when play stopped, as FEN.
    #[schema(max_length = 100)]
    pub fen: String,
    /// The home player's time left, as the clock shows it.
    #[serde(default)]
    #[schema(max_length = 20)]
    pub home_clock: Option<String>,
    /// The away player's time left.
    #[serde(default)]
    #[schema(max_length = 20)]
    pub away_clock: Option<String>,
}

pub use arbiter_core::season::entry::Problem;

pub(crate) fn blank(s: Option<&str>) -> Option<&str> {
    s.map(str::trim).filter(|s| !s.is_empty())
}

impl ResultInput {
    /// The result as core reads it (the wire's reason and version are the write's, not the
    /// result's).
    pub fn entry(&self) -> ResultEntry {
        ResultEntry {
            late: self
                .late
                .as_ref()
                .map(|l| arbiter_core::season::entry::LateEntry {
                    team: l.team.clone(),
                    school_day_ends: l.school_day_ends.clone(),
                    clocks_started: l.clocks_started.clone(),
                    arrived: l.arrived.clone(),
                    arranged: l.arranged,
                }),
            forfeit: self.forfeit.clone(),
            boards: self
                .boards
                .iter()
                .map(|b| BoardEntry {
                    board: b.board,
                    result: b.result.clone(),
                    home_player: b.home_player.clone(),
                    away_player: b.away_player.clone(),
                    rating_result: b.rating_result.clone(),
                    unplayed: b.unplayed.clone(),
                    note: b.note.clone(),
                    adjourned_to: b.adjourned_to.clone(),
                    adjudication: b.adjudication.as_ref().map(|p| {
                        arbiter_core::season::entry::PositionEntry {
                            pgn: p.pgn.clone(),
                            fen: p.fen.clone(),
                            home_clock: p.home_clock.clone(),
                            away_clock: p.away_clock.clone(),
                        }
                    }),
                })
                .collect(),
        }
    }
}

pub(crate) use arbiter_core::record::text::sentence;

// ---------------------------------------------------------------------------------------------
// What the report's state allows (GT-P2). The table says who; these say when.

// The table says who; core's `ReportStep::check` says when (GT-P2). The store checks the
// version seen again inside the write's transaction (`ReportSeen`), so of simultaneous writers
// one wins.

/// Core's refusal of a step as the web answers it: 409 with what is in force now and who made
/// it when the writer read an older match, else 422 with the refusal's sentence.
pub(crate) fn refusal(ctx: &MatchContext, refusal: Refusal) -> WebError {
    match refusal {
        Refusal::Changed { .. } => changed(ctx),
        other => WebError::Refused(other.to_string()),
    }
}

/// 409 for a writer whose view of the match is out of date: what is in force now.
pub(crate) fn changed(ctx: &MatchContext) -> WebError {
    // Everyone the table lets write to a match may read its history (ReadHistory), so the
    // sentence names people by email as the history does.
    let who = |email: Option<&str>, role: Option<Role>, entering: bool| {
        who(email, role, entering, true, "the command line")
    };
    let at = |t| words::timestamp_in(t, &ctx.view.league.time_zone);
    let Some(v) = ctx.versions.last() else {
        return WebError::Conflict(
            "This match has no result version now; nothing was saved. Reload the match and make your change there if it is still needed.".into(),
        );
    };
    let n = ctx.in_force();
    let entered = match (&v.outcome, v.entered_by.as_deref()) {
        (MatchOutcome::Pending, _) => "the scheduled match with no result".to_string(),
        (_, None) if n == 1 => "recorded from the league's file".to_string(),
        (_, by) => format!(
            "entered by {} on {}",
            who(by, v.entered_role, true),
            at(v.entered_at)
        ),
    };
    let reviewed = ctx
        .reviews
        .iter()
        .rev()
        .find(|r| r.version == n)
        .map(|r| {
            let verb = match (r.kind, ReviewedBy::of(r.role)) {
                (ReviewKind::Confirmed, ReviewedBy::Visitors) => "confirmed",
                (ReviewKind::Confirmed, ReviewedBy::Officer) => "upheld on dispute",
                (ReviewKind::Disputed, _) => "disputed",
                (ReviewKind::CorrectionRequested, _) => "asked to be corrected",
            };
            format!(
                " and {verb} by {} on {}",
                who(r.by.as_deref(), r.role, false),
                at(r.at)
            )
        })
        .unwrap_or_default();
    WebError::Conflict(format!(
        "Version {n} of this result, {entered}{reviewed}, is now in force; nothing was saved. Reload the match and make your change against version {n} if it is still needed (GT-P2)."
    ))
}

/// The reason's problem, if it has one: beyond its limit (issue 9), the sentence refusing it.
/// The store refuses it too; asked here first, the form shows it beside the reason.
pub(crate) fn reason_problem(reason: Option<&str>) -> Option<Problem> {
    let e = Reason::parse(reason.unwrap_or_default()).err()?;
    Some(Problem::general("reason", e.to_string()))
}

/// A reason as a form shows it again: no more than the limit, however much was sent.
pub(crate) fn shown(reason: &str) -> String {
    reason.chars().take(REASON_MAX_CHARS).collect()
}

pub(crate) async fn reload(state: &AppState, ctx: &MatchContext) -> Result<MatchContext, WebError> {
    let v = &ctx.view;
    load_reading(
        state,
        &v.league.slug,
        &v.season.slug,
        &v.record.slug,
        ctx.round,
        &ctx.record.home.0,
        ctx.read,
    )
    .await
}

/// Who acted, as the match page shows it: with their email to those who may see it.
pub(crate) fn who(
    email: Option<&str>,
    role: Option<Role>,
    entering: bool,
    show_email: bool,
    nobody: &str,
) -> String {
    match (email, show_email) {
        (Some(e), true) => format!("{e} ({})", role_phrase(role, entering)),
        (Some(_), false) => role_phrase(role, entering),
        (None, _) => nobody.into(),
    }
}

/// `the home advisor`, `the Vice-President`: who acted, for a reader who may not see emails.
pub(crate) fn role_phrase(role: Option<Role>, entering: bool) -> String {
    match role {
        Some(Role::Advisor) if entering => "the home advisor".into(),
        Some(Role::Advisor) => "the visiting advisor".into(),
        Some(r) => r.in_sentence().into(),
        None => "the command line".into(),
    }
}
