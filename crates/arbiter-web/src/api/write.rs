//! The API's write endpoints: a match's result entered, corrected, confirmed or disputed, and
//! a dispute decided (GT-P2, GT-O3), with the same checks as the match page's forms.
//!
//! Only an API token authorises them (`Authorization: Bearer <token>`), never a session cookie:
//! a script's requests carry no CSRF token. The token acts as its owner in the league, role and
//! school it was made for, and the permission table (`arbiter_core::rules::permissions::decide`)
//! decides as it does for a person. 401 without a valid token, 403 when the table refuses (with
//! the rule's sentence), 409 when the match changed after the script read it (a `version` no
//! longer in force, or another write got in first), 422 when the body or the report's state
//! does not allow the write, 201 with what was stored.

use arbiter_core::rules::permissions::{Action, Decision, Subject, Target, decide};
use arbiter_core::season::report::{self, EnteredBy, Entry, ReportStep};
use arbiter_store::{ApiToken, ResultReview, ResultVersion, User};
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode, header};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::{Modify, OpenApi, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::api::answer::{
    ApiError, ApiResult, ErrorAnswer, InvalidAnswer, InvalidDetail, ProblemJson, json_response,
    read_body, unreadable_body,
};
use crate::app::address::{
    self, Addressed, ExtraGameAddress, ExtraGamePath, LineupAddress, LineupPath, MatchAddress,
    SeasonAddress,
};
use crate::app::respond::bad_path;
use crate::app::state::AppState;
use crate::http::auth::Acting;
use crate::http::error::WebError;
use crate::results::context::{self, MatchContext, MatchPath, Problem, ResultInput, sentence};
use crate::results::lineup::{self, LineupInput, NotNamed};
use crate::results::write::{self as report_write, NotWritten, Submission, Written};

#[derive(OpenApi)]
#[openapi(
    modifiers(&BearerToken),
    tags((name = "results", description = "A match's result: entered, corrected, confirmed or disputed, and a dispute decided (GT-P2, GT-O3); authorised by an API token only"))
)]
struct WriteDoc;

/// The `bearer` security scheme the write endpoints name.
struct BearerToken;

impl Modify for BearerToken {
    fn modify(&self, doc: &mut utoipa::openapi::OpenApi) {
        let components = doc.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .description(Some(
                        "An API token made on an account page (an officer's, or a school's advisor's) or by `arbiter token add`; it acts in its league, role and school, and may do what that role may.",
                    ))
                    .build(),
            ),
        );
    }
}

/// The write endpoints, registered on the router and in the OpenAPI document together.
pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::with_openapi(WriteDoc::openapi())
        .routes(routes!(enter_result))
        .routes(routes!(correct_result))
        .routes(routes!(confirm_result))
        .routes(routes!(dispute_result))
        .routes(routes!(request_correction))
        .routes(routes!(withdraw_penalty))
        .routes(routes!(decide_dispute))
        .routes(routes!(declare_forfeit))
        .routes(routes!(late_report_forfeit))
        .routes(routes!(record_extra_game))
        .routes(routes!(confirm_extra_game))
        .routes(routes!(strike_extra_game))
        .routes(routes!(adjudicate_game))
        .routes(routes!(finish_adjourned_game))
        .routes(routes!(upload_game_score))
        .routes(routes!(name_lineup))
}

// ---------------------------------------------------------------------------------------------
// The shapes

/// A review of the result in force: confirm it, dispute it with the reason, or (an officer)
/// decide its dispute with the reason.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ReviewInput {
    /// The version you reviewed; when it is no longer the one in force nothing is written (409).
    /// Without it, the version in force is reviewed.
    #[serde(default)]
    pub version: Option<u32>,
    /// Required for a dispute (which board or result is wrong, and what it should be) and for a
    /// decision (why the result as entered stands). At most 1,000 characters.
    #[serde(default)]
    // The literal is `arbiter_core::record::text::REASON_MAX_CHARS`; a test of the document holds them equal.
    #[schema(max_length = 1000)]
    pub reason: Option<String>,
    /// GT-M5: a late report's double forfeit that would drop a team is refused (422, the field
    /// `acknowledge_drop` with the warning) until it is sent again with this `true`.
    #[serde(default)]
    pub acknowledge_drop: bool,
}

/// GT-M3: a match the advisors could not arrange, forfeited by the team an officer decides
/// offended.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ForfeitInput {
    /// The version you read (0 when nothing was entered); when it is no longer the one in
    /// force nothing is written (409).
    #[serde(default)]
    pub version: Option<u32>,
    /// The team that offended: `home` or `away`.
    pub offender: String,
    /// Why the match could not be arranged and why this team offended (required). At most
    /// 1,000 characters.
    #[serde(default)]
    #[schema(max_length = 1000)]
    pub reason: Option<String>,
    /// GT-M5: a forfeit that would drop the offender (its match forfeits reaching the league's
    /// limit) is refused (422, the field `acknowledge_drop` with the warning) until it is sent
    /// again with this `true`.
    #[serde(default)]
    pub acknowledge_drop: bool,
}

/// GT-P3: a game played beside a match, outside its score.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ExtraGameInput {
    /// The id of the player with White, of either team of the match.
    pub white: String,
    /// The id of the player with Black.
    pub black: String,
    /// From White's side: `1-0`, `1/2-1/2` or `0-1`.
    pub result: String,
    /// `challenge` (rated; players of different schools, before the regular season's end,
    /// GT-R5) or `unranked` (counting for nothing, GT-R7).
    pub kind: String,
}

/// GT-M20: an unfinished game's result: the President's adjudication, or an adjourned game
/// finished.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct GameResultInput {
    /// The version you read; when it is no longer the one in force nothing is written (409).
    #[serde(default)]
    pub version: Option<u32>,
    /// The board, from 1.
    pub board: u32,
    /// From the home side: `1-0`, `1/2-1/2` or `0-1`.
    pub result: String,
    /// Required for an adjudication: how the position was judged. At most 1,000 characters.
    #[serde(default)]
    #[schema(max_length = 1000)]
    pub reason: Option<String>,
}

/// GT-M20: a finished game's moves.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct GameScoreInput {
    /// The board, from 1.
    pub board: u32,
    /// The game as PGN: its moves, and its tags if you have them. At most 32,768 characters.
    // The literal is `arbiter_core::season::game::PGN_MAX_CHARS`.
    #[schema(max_length = 32768)]
    pub pgn: String,
}

/// A stored game score.
#[derive(Debug, Serialize, ToSchema)]
pub struct StoredGameScore {
    pub board: u32,
    /// 1 for the board's first upload; a later one supersedes it.
    pub upload: u32,
    /// The match page.
    pub url: String,
}

/// A stored extra game.
#[derive(Debug, Serialize, ToSchema)]
pub struct StoredExtraGame {
    /// Its place among the match's extra games, from 1.
    pub extra_game: u32,
    /// GT-P3: `awaiting_confirmation` (a school entered it: the other school confirms it before
    /// it counts), `stands` (an officer's, or confirmed) or `struck` (an officer struck it out).
    pub status: String,
    /// The match page.
    pub url: String,
}

/// GT-P3: why an officer strikes an extra game out.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct StrikeInput {
    /// Why it is struck out (required), kept with it. At most 1,000 characters.
    #[schema(max_length = 1000)]
    pub reason: String,
}

/// A stored result version.
#[derive(Debug, Serialize, ToSchema)]
pub struct StoredResult {
    pub version: u32,
    /// `{"kind": "boards", "boards": [{"board": 1, "result": "1-0", "home_player": …}]}`,
    /// `{"kind": "forfeit", "by": "home"}` or `{"kind": "double_forfeit"}`.
    #[schema(value_type = Object)]
    pub outcome: serde_json::Value,
    pub entered_by: Option<String>,
    /// RFC 3339.
    pub entered_at: String,
    pub reason: Option<String>,
    /// `entered`, or an officer's penalty: `forfeit_by_decision` (GT-M3) or `late_report`
    /// (GT-P4).
    pub basis: String,
    /// The report after the write (GT-P2): `awaiting_confirmation` (an advisor's entry) or
    /// `decided` (an officer's or the arbiter's entry or correction).
    pub status: String,
    /// The match page.
    pub url: String,
}

/// A stored review.
#[derive(Debug, Serialize, ToSchema)]
pub struct StoredReview {
    pub version: u32,
    /// `confirmed` or `disputed`.
    pub kind: String,
    pub by: Option<String>,
    pub at: String,
    pub reason: Option<String>,
    /// The report after the review (GT-P2): `confirmed`, `disputed`, or `decided` (an officer
    /// kept the disputed result).
    pub status: String,
    pub url: String,
}

// ---------------------------------------------------------------------------------------------
// Answers

/// 422 with `code`, each problem at its board and field.
fn invalid(code: &str, problems: Vec<Problem>) -> ApiError {
    ApiError::invalid(
        code,
        problems
            .into_iter()
            .map(|p| ProblemJson {
                board: p.board,
                ..ProblemJson::at(p.field, p.message)
            })
            .collect(),
    )
}

/// The code of a 422 for a text beyond its limit (`arbiter_core::record::text`).
const TOO_LONG: &str = "too_long";

/// 422: the report's state (or the store) refuses the write, said at `field`.
fn refused(field: &'static str, message: String) -> ApiError {
    ApiError::invalid("refused", vec![ProblemJson::at(field, message)])
}

// ---------------------------------------------------------------------------------------------
// The token and the table

/// The token a request carries, or the 401 saying what to send.
pub(crate) async fn token(
    state: &AppState,
    headers: &HeaderMap,
) -> Result<(ApiToken, User), ApiError> {
    let no_token = |message, invalid_token| ApiError::NoToken {
        message,
        invalid_token,
    };
    let Some(value) = headers.get(header::AUTHORIZATION) else {
        return Err(no_token(
            "This endpoint needs an API token: send it as `Authorization: Bearer <token>`. An officer or a school's advisor makes one on their account page; a signed-in browser session does not authorise the API.",
            false,
        ));
    };
    let secret = value
        .to_str()
        .ok()
        .and_then(|v| v.split_once(' '))
        .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
        .map(|(_, t)| t.trim())
        .filter(|t| !t.is_empty());
    let Some(secret) = secret else {
        return Err(no_token(
            "The Authorization header is not a bearer token: send `Authorization: Bearer <token>`.",
            true,
        ));
    };
    state.store().api_token_by_secret(secret).await?.ok_or(no_token(
        "This API token is not known or has been revoked; create a new one on your account page.",
        true,
    ))
}

/// The 403 unless the token was made for `league`: a token acts only in its league. `here`
/// says where the request is (`and this match is in`).
pub(crate) fn in_league(
    token: &ApiToken,
    league: &arbiter_store::League,
    here: &str,
) -> Result<(), ApiError> {
    if token.league == league.id {
        return Ok(());
    }
    Err(WebError::Forbidden(format!(
        "This API token acts in the league “{}”, {here} {}; use a token made for {}.",
        token.league_slug, league.name, league.name
    ))
    .into())
}

/// The table's answer for the token's role and school on `action` at `target`, or the 403 with
/// the rule's sentence.
pub(crate) fn permit(token: &ApiToken, action: Action, target: Target) -> Result<(), ApiError> {
    let subject = Subject {
        role: token.role,
        school: token.school.as_deref(),
    };
    match decide(subject, action, target) {
        Decision::Allowed => Ok(()),
        Decision::Refused { reason, .. } => Err(WebError::Forbidden(sentence(&reason)).into()),
    }
}

/// A season's endpoint's first steps, in order: the address, the token, the league and the
/// table's answer on `action`; the league and the season's slug for the caller to load, and who
/// acts (the suspension, GT-F5; the season's settings).
pub(crate) async fn begin_season(
    state: &AppState,
    headers: &HeaderMap,
    path: Addressed<SeasonAddress>,
    action: Action,
) -> Result<(crate::app::site::LeagueTree, String, Acting), ApiError> {
    let Path(SeasonAddress { league, season }) = path.map_err(|e| bad_path(&e))?;
    let (tree, acting) = begin_league(state, headers, &league, action).await?;
    Ok((tree, season, acting))
}

/// The token, the league and the table's answer on a league-wide `action` (the fee ledger,
/// GT-O2; a round's pairing), in that order: an unknown token learns nothing of the league.
pub(crate) async fn begin_league(
    state: &AppState,
    headers: &HeaderMap,
    league: &str,
    action: Action,
) -> Result<(crate::app::site::LeagueTree, Acting), ApiError> {
    let (token, user) = token(state, headers).await?;
    let tree = crate::app::site::one(state, league).await?;
    in_league(&token, &tree.league, "not in")?;
    permit(&token, action, Target::League)?;
    Ok((tree, Acting::by_token(&user.email, &token)))
}

fn body<T: DeserializeOwned + Default>(bytes: &Bytes) -> Result<T, ApiError> {
    read_body(bytes).map_err(|e| {
        invalid(
            "invalid",
            vec![Problem {
                board: None,
                field: "body",
                message: unreadable_body(
                    &e,
                    "{\"boards\": [{\"board\": 1, \"result\": \"1-0\", \"home_player\": \"id\", \"away_player\": \"id\"}], \"reason\": \"…\"}, or {\"forfeit\": \"home\"}",
                ),
            }],
        )
    })
}

/// Token, match and table, in that order (an unknown token learns nothing of the match).
async fn begin(
    state: &AppState,
    headers: &HeaderMap,
    path: MatchPath,
    action: Action,
) -> Result<(MatchContext, Acting), ApiError> {
    let (token, user) = token(state, headers).await?;
    let Path(address) = path.map_err(|e| bad_path(&e))?;
    begin_at(state, token, user, address, action).await
}

/// As [`begin`], for one extra game of the match (GT-P3): also its place.
async fn begin_extra(
    state: &AppState,
    headers: &HeaderMap,
    path: ExtraGamePath,
    action: Action,
) -> Result<(MatchContext, Acting, u32), ApiError> {
    let (token, user) = token(state, headers).await?;
    let Path(address) = path.map_err(|e| bad_path(&e))?;
    let (address, game) = address.of_match();
    let (ctx, acting) = begin_at(state, token, user, address, action).await?;
    Ok((ctx, acting, game))
}

async fn begin_at(
    state: &AppState,
    token: ApiToken,
    user: User,
    address: MatchAddress,
    action: Action,
) -> Result<(MatchContext, Acting), ApiError> {
    let ctx = in_force(state, &address).await?;
    in_league(&token, &ctx.view.league, "and this match is in")?;
    ctx.with_target(|t| permit(&token, action, t))?;
    Ok((ctx, Acting::by_token(&user.email, &token)))
}

/// The match at `address`, with its result in force.
async fn in_force(state: &AppState, address: &MatchAddress) -> Result<MatchContext, WebError> {
    let MatchAddress {
        league: l,
        season: s,
        competition: c,
        round: r,
        home: h,
    } = address;
    context::load_in_force(state, l, s, c, *r, h).await
}

fn stored_result(ctx: &MatchContext, v: &ResultVersion) -> StoredResult {
    StoredResult {
        version: v.version,
        outcome: arbiter_store::json::outcome_to_json(&v.outcome),
        entered_by: v.entered_by.clone(),
        entered_at: v.entered_at.to_string(),
        reason: v.reason.clone(),
        basis: v.basis.code().into(),
        // Just stored, so nobody has reviewed it yet: who entered it decides.
        status: report::status(
            Some(Entry {
                version: v.version,
                by: EnteredBy::of(v.entered_by.as_deref(), v.entered_role),
            }),
            &[],
        )
        .code()
        .into(),
        url: ctx.href(),
    }
}

fn stored_review(ctx: &MatchContext, r: &ResultReview) -> StoredReview {
    StoredReview {
        version: r.version,
        kind: r.kind.code().into(),
        by: r.by.clone(),
        at: r.at.to_string(),
        reason: r.reason.clone(),
        status: ctx.status_with(Some(r)).code().into(),
        url: ctx.href(),
    }
}

/// An endpoint's write of `step`: the body decoded here, then the one write path
/// (`results::write::submit`), answered as JSON: 201 with what was stored, else why not.
async fn submit_json(
    state: AppState,
    headers: HeaderMap,
    path: MatchPath,
    bytes: Bytes,
    step: ReportStep,
) -> ApiResult {
    let (ctx, acting) = begin(&state, &headers, path, step.action()).await?;
    let submission = match step {
        ReportStep::Enter | ReportStep::Correct => {
            let input = body::<ResultInput>(&bytes)?;
            Submission {
                entry: Some(input.entry()),
                version: input.version,
                reason: input.reason,
                acknowledge_drop: input.acknowledge_drop,
                ..Submission::of(step)
            }
        }
        ReportStep::ForfeitByDecision => {
            let input = body::<ForfeitInput>(&bytes)?;
            Submission {
                entry: Some(arbiter_core::season::entry::ResultEntry {
                    forfeit: Some(input.offender),
                    boards: Vec::new(),
                    late: None,
                }),
                version: input.version,
                reason: input.reason,
                acknowledge_drop: input.acknowledge_drop,
                ..Submission::of(step)
            }
        }
        ReportStep::Confirm
        | ReportStep::Dispute
        | ReportStep::RequestCorrection
        | ReportStep::Decide
        | ReportStep::WithdrawPenalty
        | ReportStep::DoubleForfeitForLateReport => {
            let input = body::<ReviewInput>(&bytes)?;
            Submission {
                version: input.version,
                reason: input.reason,
                acknowledge_drop: input.acknowledge_drop,
                ..Submission::of(step)
            }
        }
        ReportStep::Adjudicate | ReportStep::FinishAdjourned => {
            let input = body::<GameResultInput>(&bytes)?;
            Submission {
                version: input.version,
                reason: input.reason,
                settle: Some((
                    input.board,
                    arbiter_core::record::model::GameResult::parse(input.result.trim()),
                )),
                ..Submission::of(step)
            }
        }
    };
    match report_write::submit(&state, &ctx, &acting, &submission).await {
        Ok(Written::Result(v)) => Ok(json_response(StatusCode::CREATED, &stored_result(&ctx, &v))),
        Ok(Written::Review(r)) => Ok(json_response(StatusCode::CREATED, &stored_review(&ctx, &r))),
        Err(NotWritten::Refused { why, code, .. }) => Err(refusal(why, code)),
        Err(NotWritten::Invalid {
            too_long: Some(p), ..
        }) => Err(invalid(TOO_LONG, vec![p])),
        Err(NotWritten::Invalid { problems, .. }) => Err(invalid("invalid", problems)),
        Err(NotWritten::StoreRefused(m)) => {
            let field = match step {
                ReportStep::Enter | ReportStep::Correct => "boards",
                ReportStep::ForfeitByDecision => "offender",
                _ => "version",
            };
            Err(refused(field, m))
        }
        Err(NotWritten::Failed(e)) => Err(e.into()),
    }
}

/// A check's refusal: 409 when the match changed after the script read it, 422 (on `version`)
/// when the report's state refuses the step (GT-P2), with core's word for why.
fn refusal(why: WebError, code: &'static str) -> ApiError {
    match why {
        WebError::Refused(m) => refused("version", m).because(code),
        other => other.into(),
    }
}

// ---------------------------------------------------------------------------------------------
// Lineups (issue 12)

/// A team's lineup for a match not yet played: each board's player id, board 1 first (`null`
/// for a board a short team leaves empty, GT-M9).
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct LineupBody {
    /// The lineup version you read (0 when none was named); when it is no longer the one in
    /// force nothing is written (409). Without it, the one in force is replaced.
    #[serde(default)]
    pub version: Option<u32>,
    #[schema(max_items = 64)]
    pub boards: Vec<Option<String>>,
    /// GT-M12: higher-ranked roster players withdrawn so that a lower-ranked one plays, because
    /// the opponent forfeits a board. A player the boards leave out while a lower-ranked one
    /// plays is withdrawn whether listed or not: refused unless the opponent forfeits a board,
    /// then kept as withdrawn.
    #[serde(default)]
    #[schema(max_items = 64)]
    pub withdrawn: Vec<String>,
    /// AS-11, the arbiter's only: why a lineup named after its deadline is accepted. Without it
    /// a late lineup is refused (422).
    #[serde(default)]
    #[schema(max_length = 1000)]
    pub accept_late: Option<String>,
}

/// A stored lineup version.
#[derive(Debug, Serialize, ToSchema)]
pub struct StoredLineup {
    pub version: u32,
    /// `home` or `away`.
    pub side: String,
    pub boards: Vec<Option<String>>,
    /// GT-M12: the players withdrawn, listed or left out, kept with the match after its result.
    pub withdrawn: Vec<String>,
    pub entered_by: Option<String>,
    /// RFC 3339.
    pub entered_at: String,
    /// The match page.
    pub url: String,
}

/// 422 for a lineup the rules refuse: each reason with its board and rule.
fn lineup_refused(findings: &[arbiter_core::rules::validate::Finding]) -> ApiError {
    ApiError::Invalid(InvalidAnswer {
        error: InvalidDetail {
            code: "refused".into(),
            refusal: Some("lineup".into()),
            message: findings
                .iter()
                .map(arbiter_core::rules::validate::Finding::on_its_match)
                .collect::<Vec<_>>()
                .join(" "),
            problems: findings
                .iter()
                .map(|f| ProblemJson {
                    board: f.board,
                    rule: f.rule.clone(),
                    ..ProblemJson::at("boards", f.message.clone())
                })
                .collect(),
        },
    })
}

/// Issue 12, AS-10, GT-M11..GT-M15: names one team's lineup for a match not yet played, as a
/// new version. Refused (422, each reason with its board and rule) when it breaks a rule of
/// the ruleset's `[lineup]`: board order by roster or by rating as of the match day,
/// provisional players last, sister teams, one board a player, the empty boards at the bottom.
/// The school's advisor names it; at an event, the arbiter to whom it is named (AS-11).
#[utoipa::path(post, path = "/api/v1/leagues/{league}/{season}/{competition}/rounds/{round}/matches/{home}/lineups/{side}", tag = "results",
    params(LineupAddress),
    request_body(content = LineupBody, description = "The players, board 1 first"),
    responses(
        (status = 201, description = "The stored lineup version", body = StoredLineup),
        (status = 403, description = "The permission table refuses this token (another school's lineup)", body = ErrorAnswer),
        (status = 404, description = "No such match, or a side that is not `home` or `away`", body = ErrorAnswer),
        (status = 409, description = "The lineup changed after it was read: nothing was saved; the sentence says which version is in force", body = ErrorAnswer),
        (status = 422, description = "The body is wrong, the match has a result, or the rules refuse the lineup (each reason with its board and rule)", body = InvalidAnswer),
    ),
    security(("bearer" = [])))]
async fn name_lineup(
    State(state): State<AppState>,
    headers: HeaderMap,
    path: LineupPath,
    bytes: Bytes,
) -> ApiResult {
    let (token, user) = token(&state, &headers).await?;
    let Path(LineupAddress {
        league: l,
        season: s,
        competition: c,
        round: r,
        home: h,
        side,
    }) = path.map_err(|e| bad_path(&e))?;
    let side = address::side(&side)?;
    let ctx = context::load_in_force(&state, &l, &s, &c, r, &h).await?;
    in_league(&token, &ctx.view.league, "and this match is in")?;
    let school = ctx.school(side).unwrap_or_default();
    permit(&token, Action::SubmitLineup, Target::School(school))?;
    let body: LineupBody = body(&bytes)?;
    if body.boards.len() > 64 || body.withdrawn.len() > 64 {
        return Err(refused(
            "boards",
            "A lineup names at most 64 boards and 64 withdrawn players.".into(),
        ));
    }
    let may_accept_late = permit(&token, Action::OverrideLateLineup, Target::League).is_ok();
    let input = LineupInput {
        boards: body.boards,
        withdrawn: body.withdrawn,
        version: body.version,
        accept_late: body.accept_late,
    };
    let acting = Acting::by_token(&user.email, &token);
    match lineup::name(&state, &ctx, &acting, may_accept_late, side, &input).await {
        Ok(v) => Ok(json_response(
            StatusCode::CREATED,
            &StoredLineup {
                version: v.version,
                side: side.code().into(),
                boards: v
                    .named
                    .lineup
                    .boards
                    .iter()
                    .map(|p| p.as_ref().map(|p| p.0.clone()))
                    .collect(),
                withdrawn: v
                    .named
                    .lineup
                    .withdrawn
                    .iter()
                    .map(|p| p.0.clone())
                    .collect(),
                entered_by: v.entered_by,
                entered_at: v.entered_at.to_string(),
                url: format!("{}#lineup-{}", ctx.href(), side.code()),
            },
        )),
        Err(NotNamed::Refused(findings)) => Err(lineup_refused(&findings)),
        Err(NotNamed::Stale(m)) => Err(WebError::Conflict(m).into()),
        Err(NotNamed::Failed(WebError::Refused(m))) => Err(refused("boards", m)),
        Err(NotNamed::Failed(e)) => Err(e.into()),
    }
}

// ---------------------------------------------------------------------------------------------
// The endpoints

/// GT-P2, GT-M1: the home advisor (or an event's arbiter) enters the result. Allowed again
/// until the visitors confirm or dispute it; each entry is a new version. The home advisor's
/// entry awaits the visitors (`awaiting_confirmation`); the arbiter's stands (`decided`).
#[utoipa::path(post, path = "/api/v1/leagues/{league}/{season}/{competition}/rounds/{round}/matches/{home}/result", tag = "results",
    params(MatchAddress),
    request_body(content = ResultInput, description = "The boards, or a whole-match forfeit"),
    responses(
        (status = 201, description = "The stored version", body = StoredResult),
        (status = 403, description = "The permission table refuses this token (the rule's sentence)", body = ErrorAnswer),
        (status = 404, description = "No such match", body = ErrorAnswer),
        (status = 409, description = "The match changed after it was read (the version given is no longer in force, or a simultaneous write got in first): nothing was saved; the sentence says what is in force now", body = ErrorAnswer),
        (status = 422, description = "The body is wrong (which board and field), or the report's state refuses it (GT-P2)", body = InvalidAnswer),
    ),
    security(("bearer" = [])))]
async fn enter_result(
    State(state): State<AppState>,
    headers: HeaderMap,
    path: MatchPath,
    bytes: Bytes,
) -> ApiResult {
    submit_json(state, headers, path, bytes, ReportStep::Enter).await
}

/// GT-P2, GT-O3: an officer corrects the result as a new version, with the reason; the
/// correction is decided and stands (status `decided`), with no confirmation by the visitors.
#[utoipa::path(post, path = "/api/v1/leagues/{league}/{season}/{competition}/rounds/{round}/matches/{home}/correction", tag = "results",
    params(MatchAddress),
    request_body(content = ResultInput, description = "The corrected boards or forfeit, and the reason (required)"),
    responses(
        (status = 201, description = "The stored version", body = StoredResult),
        (status = 403, description = "The permission table refuses this token (GT-O3 for the President's own school)", body = ErrorAnswer),
        (status = 404, description = "No such match", body = ErrorAnswer),
        (status = 409, description = "The match changed after it was read (the version given is no longer in force, or a simultaneous write got in first): nothing was saved; the sentence says what is in force now", body = ErrorAnswer),
        (status = 422, description = "The body is wrong, the reason is missing, or no result was entered yet", body = InvalidAnswer),
    ),
    security(("bearer" = [])))]
async fn correct_result(
    State(state): State<AppState>,
    headers: HeaderMap,
    path: MatchPath,
    bytes: Bytes,
) -> ApiResult {
    submit_json(state, headers, path, bytes, ReportStep::Correct).await
}

/// GT-P2: the visiting advisor confirms the version in force.
#[utoipa::path(post, path = "/api/v1/leagues/{league}/{season}/{competition}/rounds/{round}/matches/{home}/confirm", tag = "results",
    params(MatchAddress),
    request_body(content = ReviewInput, description = "The version confirmed (optional)"),
    responses(
        (status = 201, description = "The stored review", body = StoredReview),
        (status = 403, description = "The permission table refuses this token", body = ErrorAnswer),
        (status = 404, description = "No such match", body = ErrorAnswer),
        (status = 409, description = "The match changed after it was read (the version given is no longer in force, or a simultaneous write got in first): nothing was saved; the sentence says what is in force now", body = ErrorAnswer),
        (status = 422, description = "Nothing awaits confirmation, or the version is no longer in force", body = InvalidAnswer),
    ),
    security(("bearer" = [])))]
async fn confirm_result(
    State(state): State<AppState>,
    headers: HeaderMap,
    path: MatchPath,
    bytes: Bytes,
) -> ApiResult {
    submit_json(state, headers, path, bytes, ReportStep::Confirm).await
}

/// GT-P2: the visiting advisor disputes the version in force, with the reason; an officer
/// decides it (`…/decision` to keep the result, `…/correction` to change it).
#[utoipa::path(post, path = "/api/v1/leagues/{league}/{season}/{competition}/rounds/{round}/matches/{home}/dispute", tag = "results",
    params(MatchAddress),
    request_body(content = ReviewInput, description = "The version disputed (optional) and the reason (required)"),
    responses(
        (status = 201, description = "The stored review", body = StoredReview),
        (status = 403, description = "The permission table refuses this token", body = ErrorAnswer),
        (status = 404, description = "No such match", body = ErrorAnswer),
        (status = 409, description = "The match changed after it was read (the version given is no longer in force, or a simultaneous write got in first): nothing was saved; the sentence says what is in force now", body = ErrorAnswer),
        (status = 422, description = "No reason, nothing awaits confirmation, or the version is no longer in force", body = InvalidAnswer),
    ),
    security(("bearer" = [])))]
async fn dispute_result(
    State(state): State<AppState>,
    headers: HeaderMap,
    path: MatchPath,
    bytes: Bytes,
) -> ApiResult {
    submit_json(state, headers, path, bytes, ReportStep::Dispute).await
}

/// GT-M3, GT-P4: an officer withdraws the penalty in force (a forfeit by decision, or a late
/// report's double forfeit) with the reason: a new version with no result, so the match is to be
/// played and reported again, and a team the penalty dropped (GT-M5) is back.
#[utoipa::path(post, path = "/api/v1/leagues/{league}/{season}/{competition}/rounds/{round}/matches/{home}/penalty-withdrawal", tag = "results",
    params(MatchAddress),
    request_body(content = ReviewInput, description = "The version withdrawn (optional) and why the decision no longer stands (required)"),
    responses(
        (status = 201, description = "The stored version, with no result", body = StoredResult),
        (status = 403, description = "The permission table refuses this token (GT-O3 for the President's own school)", body = ErrorAnswer),
        (status = 404, description = "No such match", body = ErrorAnswer),
        (status = 409, description = "The match changed after it was read (the version given is no longer in force, or a simultaneous write got in first): nothing was saved; the sentence says what is in force now", body = ErrorAnswer),
        (status = 422, description = "No reason, or the result in force is no penalty (`no_penalty`)", body = InvalidAnswer),
    ),
    security(("bearer" = [])))]
async fn withdraw_penalty(
    State(state): State<AppState>,
    headers: HeaderMap,
    path: MatchPath,
    bytes: Bytes,
) -> ApiResult {
    submit_json(state, headers, path, bytes, ReportStep::WithdrawPenalty).await
}

/// GT-P2: either school's advisor asks for a correction of the result in force once it stands
/// (confirmed, recorded or an officer's), with the reason, within the ruleset's
/// `correct_within_days` of its entry; an officer decides it (`…/decision` to keep the result,
/// `…/correction` to change it).
#[utoipa::path(post, path = "/api/v1/leagues/{league}/{season}/{competition}/rounds/{round}/matches/{home}/correction-request", tag = "results",
    params(MatchAddress),
    request_body(content = ReviewInput, description = "The version to correct (optional) and what is wrong with it (required)"),
    responses(
        (status = 201, description = "The stored request, as a review of kind `correction_requested`", body = StoredReview),
        (status = 403, description = "The permission table refuses this token: only the advisors of the match's two schools ask", body = ErrorAnswer),
        (status = 404, description = "No such match", body = ErrorAnswer),
        (status = 409, description = "The match changed after it was read (the version given is no longer in force, or a simultaneous write got in first): nothing was saved; the sentence says what is in force now", body = ErrorAnswer),
        (status = 422, description = "No reason; the result does not stand yet (the visitors dispute it instead); a correction was already asked for; or the days to ask ended", body = InvalidAnswer),
    ),
    security(("bearer" = [])))]
async fn request_correction(
    State(state): State<AppState>,
    headers: HeaderMap,
    path: MatchPath,
    bytes: Bytes,
) -> ApiResult {
    submit_json(state, headers, path, bytes, ReportStep::RequestCorrection).await
}

/// GT-P2, GT-O3: an officer decides the disputed version in force by keeping it as entered,
/// with the reason; the report is then `decided`. To change the result instead, correct it.
/// The President may not decide a dispute of their own school's match: the Vice-President does.
#[utoipa::path(post, path = "/api/v1/leagues/{league}/{season}/{competition}/rounds/{round}/matches/{home}/decision", tag = "results",
    params(MatchAddress),
    request_body(content = ReviewInput, description = "The disputed version (optional) and the reason it stands (required)"),
    responses(
        (status = 201, description = "The stored decision, as the officer's review", body = StoredReview),
        (status = 403, description = "The permission table refuses this token (GT-O3 for the President's own school)", body = ErrorAnswer),
        (status = 404, description = "No such match", body = ErrorAnswer),
        (status = 409, description = "The match changed after it was read (the version given is no longer in force, or a simultaneous write got in first): nothing was saved; the sentence says what is in force now", body = ErrorAnswer),
        (status = 422, description = "No reason, the result is not disputed, or the version is no longer in force", body = InvalidAnswer),
    ),
    security(("bearer" = [])))]
async fn decide_dispute(
    State(state): State<AppState>,
    headers: HeaderMap,
    path: MatchPath,
    bytes: Bytes,
) -> ApiResult {
    submit_json(state, headers, path, bytes, ReportStep::Decide).await
}

/// GT-M3: the advisors could not arrange the match, and an officer decides which team offended:
/// it loses by default (GT-M7's score), with the reason. Only on a match with no result entered;
/// the decision stands (GT-O3: the Vice-President when the President's school plays).
#[utoipa::path(post, path = "/api/v1/leagues/{league}/{season}/{competition}/rounds/{round}/matches/{home}/forfeit", tag = "results",
    params(MatchAddress),
    request_body(content = ForfeitInput, description = "The team that offended and the reason (required)"),
    responses(
        (status = 201, description = "The stored version: the match forfeited by the offending team", body = StoredResult),
        (status = 403, description = "The permission table refuses this token (GT-O3 for the President's own school)", body = ErrorAnswer),
        (status = 404, description = "No such match", body = ErrorAnswer),
        (status = 409, description = "The match changed after it was read: nothing was saved", body = ErrorAnswer),
        (status = 422, description = "No offender or reason, or a result is already entered (GT-M3)", body = InvalidAnswer),
    ),
    security(("bearer" = [])))]
async fn declare_forfeit(
    State(state): State<AppState>,
    headers: HeaderMap,
    path: MatchPath,
    bytes: Bytes,
) -> ApiResult {
    submit_json(state, headers, path, bytes, ReportStep::ForfeitByDecision).await
}

/// GT-P4: the home team did not enter the result by its deadline (GT-P2), and an officer scores
/// the match as a double forfeit, with the reason. Refused before the deadline has passed; the
/// product never applies it on its own.
#[utoipa::path(post, path = "/api/v1/leagues/{league}/{season}/{competition}/rounds/{round}/matches/{home}/late-report", tag = "results",
    params(MatchAddress),
    request_body(content = ReviewInput, description = "The version read (optional) and the reason (required)"),
    responses(
        (status = 201, description = "The stored version: the match scored as a double forfeit", body = StoredResult),
        (status = 403, description = "The permission table refuses this token (GT-O3 for the President's own school)", body = ErrorAnswer),
        (status = 404, description = "No such match", body = ErrorAnswer),
        (status = 409, description = "The match changed after it was read: nothing was saved", body = ErrorAnswer),
        (status = 422, description = "No reason, the result is not late yet, or it was entered (GT-P4)", body = InvalidAnswer),
    ),
    security(("bearer" = [])))]
async fn late_report_forfeit(
    State(state): State<AppState>,
    headers: HeaderMap,
    path: MatchPath,
    bytes: Bytes,
) -> ApiResult {
    submit_json(
        state,
        headers,
        path,
        bytes,
        ReportStep::DoubleForfeitForLateReport,
    )
    .await
}

/// GT-M20: the President decides a game sent for adjudication (the Vice-President when the
/// President's school plays, GT-O3): the decision is the board's result, with the reason, and
/// stands; the match counts from then.
#[utoipa::path(post, path = "/api/v1/leagues/{league}/{season}/{competition}/rounds/{round}/matches/{home}/adjudication", tag = "results",
    params(MatchAddress),
    request_body(content = GameResultInput, description = "The board, its result from the home side and the reason (required)"),
    responses(
        (status = 201, description = "The stored version, with the game decided", body = StoredResult),
        (status = 403, description = "The permission table refuses this token (GT-O3 for the President's own school)", body = ErrorAnswer),
        (status = 404, description = "No such match", body = ErrorAnswer),
        (status = 409, description = "The match changed after it was read: nothing was saved", body = ErrorAnswer),
        (status = 422, description = "No reason, or the board holds no game waiting for adjudication (GT-M20)", body = InvalidAnswer),
    ),
    security(("bearer" = [])))]
async fn adjudicate_game(
    State(state): State<AppState>,
    headers: HeaderMap,
    path: MatchPath,
    bytes: Bytes,
) -> ApiResult {
    submit_json(state, headers, path, bytes, ReportStep::Adjudicate).await
}

/// GT-M20: the home advisor enters the result of an adjourned game once it is finished; the
/// visitors confirm it as any entry (GT-P2).
#[utoipa::path(post, path = "/api/v1/leagues/{league}/{season}/{competition}/rounds/{round}/matches/{home}/adjourned-game", tag = "results",
    params(MatchAddress),
    request_body(content = GameResultInput, description = "The board and its result from the home side"),
    responses(
        (status = 201, description = "The stored version, with the adjourned game finished", body = StoredResult),
        (status = 403, description = "The permission table refuses this token", body = ErrorAnswer),
        (status = 404, description = "No such match", body = ErrorAnswer),
        (status = 409, description = "The match changed after it was read: nothing was saved", body = ErrorAnswer),
        (status = 422, description = "The board holds no adjourned game waiting to be finished, or the result is disputed (GT-M20)", body = InvalidAnswer),
    ),
    security(("bearer" = [])))]
async fn finish_adjourned_game(
    State(state): State<AppState>,
    headers: HeaderMap,
    path: MatchPath,
    bytes: Bytes,
) -> ApiResult {
    submit_json(state, headers, path, bytes, ReportStep::FinishAdjourned).await
}

/// GT-M20: uploads a finished game's moves (PGN) for a board; every move is checked and the
/// result must be the board's. Shown on the match page and the players' pages; a later upload
/// supersedes it.
#[utoipa::path(post, path = "/api/v1/leagues/{league}/{season}/{competition}/rounds/{round}/matches/{home}/game-scores", tag = "results",
    params(MatchAddress),
    request_body(content = GameScoreInput, description = "The board and its game as PGN"),
    responses(
        (status = 201, description = "The game score is kept", body = StoredGameScore),
        (status = 403, description = "The permission table refuses this token (another school's match)", body = ErrorAnswer),
        (status = 404, description = "No such match", body = ErrorAnswer),
        (status = 422, description = "No such board, no game played on it, an illegal move (named by its number) or another result (GT-M20)", body = InvalidAnswer),
    ),
    security(("bearer" = [])))]
async fn upload_game_score(
    State(state): State<AppState>,
    headers: HeaderMap,
    path: MatchPath,
    bytes: Bytes,
) -> ApiResult {
    let (ctx, acting) = begin(&state, &headers, path, Action::UploadGameScore).await?;
    let input = body::<GameScoreInput>(&bytes)?;
    let upload = crate::results::games::record(&state, &ctx, &acting, input.board, &input.pgn)
        .await
        .map_err(not_recorded)?;
    Ok(json_response(
        StatusCode::CREATED,
        &StoredGameScore {
            board: input.board,
            upload,
            url: ctx.href(),
        },
    ))
}

/// GT-P3: records a challenge game (rated, GT-R5) or an unranked game (GT-R7) with the match,
/// below its boards and outside its score.
#[utoipa::path(post, path = "/api/v1/leagues/{league}/{season}/{competition}/rounds/{round}/matches/{home}/extra-games", tag = "results",
    params(MatchAddress),
    request_body(content = ExtraGameInput, description = "The players, the result from White's side and the kind"),
    responses(
        (status = 201, description = "The extra game is recorded", body = StoredExtraGame),
        (status = 403, description = "The permission table refuses this token (another school's match)", body = ErrorAnswer),
        (status = 404, description = "No such match", body = ErrorAnswer),
        (status = 422, description = "The body is wrong, or the rules refuse the game (GT-R5: one school, or after the season's end)", body = InvalidAnswer),
    ),
    security(("bearer" = [])))]
async fn record_extra_game(
    State(state): State<AppState>,
    headers: HeaderMap,
    path: MatchPath,
    bytes: Bytes,
) -> ApiResult {
    let (ctx, acting) = begin(&state, &headers, path, Action::RecordExtraGame).await?;
    let input = body::<ExtraGameInput>(&bytes)?;
    let entry = arbiter_core::season::extra::ExtraEntry {
        white: input.white,
        black: input.black,
        result: input.result,
        kind: input.kind,
    };
    let n = crate::results::extra::record(&state, &ctx, &acting, &entry)
        .await
        .map_err(not_recorded)?;
    extra_answer(&state, &ctx, n, StatusCode::CREATED).await
}

/// GT-P3, GT-P2: confirms an extra game the other school entered, so that it counts (rated when
/// a challenge game). The school that entered it may not; an officer may.
#[utoipa::path(post, path = "/api/v1/leagues/{league}/{season}/{competition}/rounds/{round}/matches/{home}/extra-games/{game}/confirm", tag = "results",
    params(ExtraGameAddress),
    responses(
        (status = 200, description = "The extra game stands", body = StoredExtraGame),
        (status = 403, description = "The permission table refuses this token (another school's match; the President's own school's, GT-O3)", body = ErrorAnswer),
        (status = 404, description = "No such match, or no such extra game of it", body = ErrorAnswer),
        (status = 422, description = "The game does not await this school's confirmation: the school that entered it, or it stands already, or it was struck out (GT-P3)", body = ErrorAnswer),
    ),
    security(("bearer" = [])))]
async fn confirm_extra_game(
    State(state): State<AppState>,
    headers: HeaderMap,
    path: ExtraGamePath,
) -> ApiResult {
    let (ctx, acting, n) = begin_extra(&state, &headers, path, Action::ConfirmExtraGame).await?;
    crate::results::extra::confirm(&state, &ctx, &acting, n)
        .await
        .map_err(not_recorded)?;
    extra_answer(&state, &ctx, n, StatusCode::OK).await
}

/// GT-P3: an officer strikes an extra game out, with the reason; it stops counting, and the
/// strike is kept beside it and in the history (never a deletion).
#[utoipa::path(post, path = "/api/v1/leagues/{league}/{season}/{competition}/rounds/{round}/matches/{home}/extra-games/{game}/strike", tag = "results",
    params(ExtraGameAddress),
    request_body(content = StrikeInput, description = "Why it is struck out"),
    responses(
        (status = 200, description = "The extra game is struck out", body = StoredExtraGame),
        (status = 403, description = "The permission table refuses this token (only an officer; not the President for their own school, GT-O3)", body = ErrorAnswer),
        (status = 404, description = "No such match, or no such extra game of it", body = ErrorAnswer),
        (status = 422, description = "No reason, or the game is struck out already", body = InvalidAnswer),
    ),
    security(("bearer" = [])))]
async fn strike_extra_game(
    State(state): State<AppState>,
    headers: HeaderMap,
    path: ExtraGamePath,
    bytes: Bytes,
) -> ApiResult {
    let (ctx, acting, n) = begin_extra(&state, &headers, path, Action::StrikeExtraGame).await?;
    let input = body::<StrikeInput>(&bytes)?;
    crate::results::extra::strike(&state, &ctx, &acting, n, &input.reason)
        .await
        .map_err(not_recorded)?;
    extra_answer(&state, &ctx, n, StatusCode::OK).await
}

/// A step on an extra game or a game score the rules refuse (422), or a failure.
fn not_recorded(e: crate::results::extra::NotRecorded) -> ApiError {
    use crate::results::extra::NotRecorded;
    match e {
        NotRecorded::Invalid(problems) => invalid("invalid", problems),
        NotRecorded::Failed(e) => e.into(),
    }
}

/// The answer to a step on extra game `n`: the game as it stands now.
async fn extra_answer(
    state: &AppState,
    ctx: &MatchContext,
    n: u32,
    status: StatusCode,
) -> ApiResult {
    let fresh = context::reload(state, ctx).await?;
    let game = usize::try_from(n)
        .ok()
        .and_then(|i| fresh.record.extra_games.get(i.saturating_sub(1)));
    let status_word = match game.map(arbiter_core::ExtraGame::state) {
        Some(arbiter_core::season::extra::ExtraState::AwaitingConfirmation { .. }) => {
            "awaiting_confirmation"
        }
        Some(arbiter_core::season::extra::ExtraState::Struck { .. }) => "struck",
        Some(arbiter_core::season::extra::ExtraState::Stands { .. }) | None => "stands",
    };
    Ok(json_response(
        status,
        &StoredExtraGame {
            extra_game: n,
            status: status_word.into(),
            url: ctx.href(),
        },
    ))
}
