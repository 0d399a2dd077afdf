//! A competition's rosters changed through the API (issue 16): a player added to a team, a
//! player withdrawn from a day, and a player linked as one person with a player of another
//! competition of the season (AS-3, GT-M15). The same write path as the site's rosters page
//! (`rosters::write`: core's `roster::plan` and `eligibility`, AS-12's lock at an event, the
//! store), authorised
//! by an API token the permission table allows `EditRoster` on the team's school: the
//! President, or that school's advisor.

use arbiter_core::record::text::{self, TextKind};
use arbiter_core::rules::permissions::{Action, Target};
use arbiter_core::teams::roster::{self, NewPlayer};
use arbiter_core::{Player, PlayerId};
use arbiter_store::PlayerChange;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use serde::{Deserialize, Serialize};
use utoipa::{OpenApi, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::api::answer::{
    ApiError, ApiResult, ErrorAnswer, InvalidAnswer, json_body, json_response,
};
use crate::api::write::{in_league, permit, token};
use crate::app::address::{Addressed, PlayerAddress, TeamAddress};
use crate::app::respond::bad_path;
use crate::app::state::AppState;
use crate::app::view::CompetitionView;
use crate::http::auth::Acting;
use crate::http::error::WebError;
use crate::rosters::write::{self, NotChanged};

#[derive(OpenApi)]
#[openapi(tags((name = "rosters", description = "A competition's rosters: a player added to a team, withdrawn from a day, or linked as one person with a player of another competition of the season, by the President or the school's advisor, with an API token; the same checks as the site's rosters page")))]
struct RostersDoc;

/// The roster routes, registered on the router and in the OpenAPI document together.
pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::with_openapi(RostersDoc::openapi())
        .routes(routes!(add_player))
        .routes(routes!(withdraw_player))
        .routes(routes!(link_player))
}

/// A player joining a team, as a roster file's line says it.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewPlayerBody {
    /// The player's name, as score sheets print it. At most 100 characters.
    #[schema(min_length = 1, max_length = 100)]
    pub name: String,
    /// GT-R6: the school the player is a student of, when it is not the team's (their own
    /// school has no team in the season). Default: the team's school.
    #[serde(default)]
    #[schema(max_length = 100)]
    pub school: Option<String>,
    /// The school grade, 1 to 12 (GT-R7: a high-school student may be ranked).
    #[serde(default)]
    #[schema(minimum = 1, maximum = 12)]
    pub grade: Option<u8>,
    /// `YYYY-MM-DD` (GT-R7: 14 or older may be ranked).
    #[serde(default)]
    pub birth_date: Option<String>,
    /// The league rating, at most 3,500; without it a new player starts at 1200, provisional
    /// (GT-R3's 1200N).
    #[serde(default)]
    #[schema(maximum = 3500)]
    pub rating: Option<u32>,
    /// GT-R3: the rating is provisional.
    #[serde(default)]
    pub provisional: bool,
    /// The player's id on the federation's published rating list (a FIDE id, an ECF code), by
    /// which `[lineup] ratings = "list"` finds them (issue 34).
    #[serde(default)]
    #[schema(max_length = 40)]
    pub federation_id: Option<String>,
    /// One player, one person: `competition-slug/player-id`, a player of another competition of
    /// the season who is the same person (AS-3 refuses it when the two competitions share
    /// dates). Without it the player is a person of their own, whatever their name.
    #[serde(default)]
    #[schema(max_length = 200)]
    pub same_person_as: Option<String>,
    /// Kept in the history with the change. At most 1,000 characters.
    #[serde(default)]
    #[schema(max_length = 1000)]
    pub reason: Option<String>,
}

/// A roster entry made one person with a player of another competition of the season, or a
/// person of their own again.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PersonBody {
    /// `competition-slug/player-id`: the player of another competition of the season who is the
    /// same person. Give this or `own`.
    #[serde(default)]
    #[schema(max_length = 200)]
    pub same_person_as: Option<String>,
    /// `true`: a person of their own again (the link was a mistake). Give this or
    /// `same_person_as`.
    #[serde(default)]
    pub own: bool,
    /// How the officer knows (required), kept in the history. At most 1,000 characters.
    #[serde(default)]
    #[schema(max_length = 1000)]
    pub reason: Option<String>,
}

/// A withdrawal: from which day, and why.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct WithdrawalBody {
    /// `YYYY-MM-DD`: the player is named in no lineup from this day; the games they played
    /// stay.
    pub on: String,
    /// Why (required), kept in the history. At most 1,000 characters.
    #[serde(default)]
    #[schema(max_length = 1000)]
    pub reason: Option<String>,
}

/// A roster entry as stored.
#[derive(Debug, Serialize, ToSchema)]
pub struct StoredPlayer {
    /// The player's id in the competition (`perrysburg-6`).
    pub id: String,
    pub name: String,
    /// The team's id.
    pub team: String,
    pub rating: Option<u32>,
    /// GT-R3: a provisional rating (1200N for a new player).
    pub provisional: bool,
    /// GT-R7: plays unranked games only.
    pub unranked: bool,
    /// GT-R6: the player's own school, when not the team's.
    pub school: Option<String>,
    /// The day from which the player is withdrawn, `YYYY-MM-DD`.
    pub withdrawn: Option<String>,
    /// The person the player is across the league's competitions (one player, one person):
    /// entries of two competitions with the same person are one student (AS-3, GT-M15).
    pub person: Option<String>,
    /// What the rules say of the player (GT-R6, GT-R7), when anything.
    pub note: Option<String>,
    /// The player's page.
    pub url: String,
}

fn stored_player(
    view: &CompetitionView,
    team: &str,
    p: &Player,
    note: Option<String>,
) -> StoredPlayer {
    StoredPlayer {
        id: p.id.0.clone(),
        name: p.name.clone(),
        team: team.to_string(),
        rating: p.rating,
        provisional: p.provisional,
        unranked: p.unranked,
        school: p.school.clone(),
        withdrawn: p.withdrawn.map(|d| d.to_string()),
        person: p.person.as_ref().map(|k| k.0.clone()),
        note,
        url: view.player_href(p),
    }
}

fn not_changed(field: &'static str, why: NotChanged) -> ApiError {
    match why {
        NotChanged::Refused(problems) => {
            ApiError::invalid_fields(problems.into_iter().map(|m| (field, m)).collect())
        }
        NotChanged::Stale(m) => WebError::Conflict(m).into(),
        NotChanged::Failed(e) => e.into(),
    }
}

/// The token (401 without one) and the competition, read fresh; 403 for a token of another
/// league. The table is asked once the team is known.
async fn begin(
    state: &AppState,
    headers: &HeaderMap,
    league: &str,
    season: &str,
    competition: &str,
) -> Result<
    (
        std::sync::Arc<CompetitionView>,
        arbiter_store::ApiToken,
        Acting,
    ),
    ApiError,
> {
    let (token, user) = token(state, headers).await?;
    let view = state.view(league, season, competition).await?;
    in_league(&token, &view.league, "and this competition is in")?;
    let acting = Acting::by_token(&user.email, &token);
    Ok((view, token, acting))
}

/// A player's endpoint's first steps: the address, the token, the competition, the player
/// (404) and the table's answer on their school's roster; the player and their team's place.
async fn begin_player(
    state: &AppState,
    headers: &HeaderMap,
    path: Addressed<PlayerAddress>,
) -> Result<(std::sync::Arc<CompetitionView>, Player, usize, Acting), ApiError> {
    let Path(a) = path.map_err(|e| bad_path(&e))?;
    let (view, token, acting) = begin(state, headers, &a.league, &a.season, &a.competition).await?;
    let Some((player, t)) = view.player(&a.player) else {
        return Err(WebError::not_found(format!(
            "{} has no player with the id “{}”; the rosters are listed at {}/teams/….",
            view.record.name,
            a.player,
            view.api_href()
        ))
        .into());
    };
    let school = view.competition.teams[t].school.as_deref();
    permit(
        &token,
        Action::EditRoster,
        Target::School(school.unwrap_or_default()),
    )?;
    let player = player.clone();
    Ok((view, player, t, acting))
}

/// Adds a player to a team's roster, with a new id (`team-6`), as a roster file's line would:
/// GT-R3's 1200N for a new player, GT-R7's ranking by grade or age, GT-R6's student of a school
/// with no team joining this one, AS-9's roster size, AS-12's lock before an event's round 1;
/// with `same_person_as`, the same person as a player of another competition of the season,
/// refused under AS-3 when the two competitions share dates. The President or the team's
/// school's advisor.
#[utoipa::path(post, path = "/api/v1/leagues/{league}/{season}/{competition}/teams/{team}/players", tag = "rosters",
    params(TeamAddress),
    request_body(content = NewPlayerBody, description = "The player"),
    responses(
        (status = 201, description = "The roster entry as stored", body = StoredPlayer),
        (status = 403, description = "The permission table refuses this token (another school's team)", body = ErrorAnswer),
        (status = 404, description = "No such competition or team", body = ErrorAnswer),
        (status = 409, description = "Another player joined the team after its roster was read: nothing was saved; send the player again", body = ErrorAnswer),
        (status = 422, description = "The body is wrong, or the rules refuse the player (a name on the roster already, GT-R6, AS-9, AS-12, AS-3), each problem with its field", body = InvalidAnswer),
    ),
    security(("bearer" = [])))]
async fn add_player(
    State(state): State<AppState>,
    headers: HeaderMap,
    path: Addressed<TeamAddress>,
    bytes: Bytes,
) -> ApiResult {
    let Path(a) = path.map_err(|e| bad_path(&e))?;
    let (view, token, acting) =
        begin(&state, &headers, &a.league, &a.season, &a.competition).await?;
    let Some(team) = view.team_index(&a.team).map(|i| &view.competition.teams[i]) else {
        return Err(WebError::not_found(format!(
            "{} has no team with the id “{}”; its teams are listed at {}.",
            view.record.name,
            a.team,
            view.api_href()
        ))
        .into());
    };
    let team_school = team.school.clone().unwrap_or_default();
    permit(&token, Action::EditRoster, Target::School(&team_school))?;
    let b: NewPlayerBody = json_body(
        &bytes,
        r#"{"name": "Ana Diaz", "grade": 10, "rating": 1450}"#,
    )?;
    let mut problems = Vec::new();
    let name = b.name.trim();
    if name.is_empty() {
        problems.push(("name", "Give the player's name.".to_string()));
    } else if let Err(e) = text::check(TextKind::Name, "a player's name", name) {
        problems.push(("name", e.to_string()));
    }
    if let Some(school) = &b.school
        && let Err(e) = text::check(TextKind::Name, "a school's name", school)
    {
        problems.push(("school", e.to_string()));
    }
    if let Some(reason) = &b.reason
        && let Err(e) = text::check(TextKind::Reason, "the reason", reason)
    {
        problems.push(("reason", e.to_string()));
    }
    if b.grade.is_some_and(|g| !(1..=12).contains(&g)) {
        problems.push((
            "grade",
            "A grade is 1 to 12 (9 to 12 in high school, GT-R7).".to_string(),
        ));
    }
    if let Some(r) = b.rating
        && r > roster::RATING_MAX
    {
        problems.push((
            "rating",
            format!(
                "{r} is not a rating; a league rating is at most {}, or leave it out for a new player (1200N, GT-R3).",
                roster::RATING_MAX
            ),
        ));
    }
    let birth_date = match b.birth_date.as_deref().map(str::trim) {
        None | Some("") => None,
        Some(d) => match d.parse::<jiff::civil::Date>() {
            Ok(day) => Some(day),
            Err(_) => {
                problems.push((
                    "birth_date",
                    format!("“{d}” is not a date; write it as YYYY-MM-DD."),
                ));
                None
            }
        },
    };
    let same_as = match b.same_person_as.as_deref().map(str::trim) {
        None | Some("") => None,
        Some(text) => match write::LinkTo::parse(text) {
            Some(to @ write::LinkTo::SameAs { .. }) => Some(to),
            _ => {
                problems.push((
                    "same_person_as",
                    format!(
                        "“{text}” names no player; write the competition's slug and the player's id, as open/vic-6."
                    ),
                ));
                None
            }
        },
    };
    if !problems.is_empty() {
        return Err(ApiError::invalid_fields(problems));
    }
    let row = NewPlayer {
        line: 1,
        name: name.to_string(),
        school: b.school.clone().unwrap_or_else(|| team_school.clone()),
        team: Some(team.id.0.clone()),
        grade: b.grade,
        birth_date,
        rating: b.rating,
        provisional: b.provisional,
        federation_id: b
            .federation_id
            .as_deref()
            .map(str::trim)
            .filter(|id| !id.is_empty())
            .map(str::to_string),
    };
    let mut plan = write::plan(&state, &view, std::slice::from_ref(&row))
        .await
        .map_err(|why| not_changed("name", why))?;
    if let Some(to) = &same_as {
        plan = write::as_person(&state, &view, plan, to)
            .await
            .map_err(|why| not_changed("same_person_as", why))?;
    }
    let notes: Vec<Option<String>> = plan.iter().map(|a| a.note.clone()).collect();
    let added = write::add(&state, &view, plan, b.reason.as_deref(), &acting)
        .await
        .map_err(|why| not_changed("name", why))?;
    let Some(((team, player), note)) = added.iter().zip(notes).next() else {
        return Err(WebError::Internal.into());
    };
    Ok(json_response(
        StatusCode::CREATED,
        &stored_player(&view, &team.0, player, note),
    ))
}

/// Withdraws a player from a day: from then they are named in no lineup; the games they played
/// stay, and the history keeps the entry before and why. The President or the player's school's
/// advisor.
#[utoipa::path(post, path = "/api/v1/leagues/{league}/{season}/{competition}/players/{player}/withdrawal", tag = "rosters",
    params(PlayerAddress),
    request_body(content = WithdrawalBody, description = "The day and the reason"),
    responses(
        (status = 201, description = "The roster entry as stored, withdrawn", body = StoredPlayer),
        (status = 403, description = "The permission table refuses this token (another school's player)", body = ErrorAnswer),
        (status = 404, description = "No such competition or player", body = ErrorAnswer),
        (status = 422, description = "No reason, a day that is not a date, the player withdrawn already, or AS-12's lock", body = InvalidAnswer),
    ),
    security(("bearer" = [])))]
async fn withdraw_player(
    State(state): State<AppState>,
    headers: HeaderMap,
    path: Addressed<PlayerAddress>,
    bytes: Bytes,
) -> ApiResult {
    let (view, player, t, acting) = begin_player(&state, &headers, path).await?;
    let team = &view.competition.teams[t];
    let b: WithdrawalBody = json_body(&bytes, r#"{"on": "2026-11-02", "reason": "moved away"}"#)?;
    let mut problems = Vec::new();
    let on = match b.on.trim().parse::<jiff::civil::Date>() {
        Ok(day) => Some(day),
        Err(_) => {
            problems.push((
                "on",
                format!(
                    "“{}” is not a date; write the first day of the withdrawal as YYYY-MM-DD.",
                    b.on.trim()
                ),
            ));
            None
        }
    };
    let reason = b.reason.as_deref().map(str::trim).unwrap_or_default();
    if reason.is_empty() {
        problems.push((
            "reason",
            "A withdrawal needs its reason, kept in the history: say why the player leaves the roster.".to_string(),
        ));
    } else if let Err(e) = text::check(TextKind::Reason, "the reason", reason) {
        problems.push(("reason", e.to_string()));
    }
    if let Some(day) = player.withdrawn {
        problems.push((
            "on",
            format!(
                "{} is withdrawn already, from {day}; a new day is set on the site's rosters page.",
                player.name
            ),
        ));
    }
    let (Some(on), true) = (on, problems.is_empty()) else {
        return Err(ApiError::invalid_fields(problems));
    };
    let change = PlayerChange {
        name: player.name.clone(),
        rating: player.rating,
        provisional: player.provisional,
        withdrawn: Some(on),
    };
    let id = PlayerId(player.id.0.clone());
    write::change(&state, &view, &id, &change, reason, &acting)
        .await
        .map_err(|why| not_changed("on", why))?;
    let withdrawn = Player {
        withdrawn: Some(on),
        ..player
    };
    Ok(json_response(
        StatusCode::CREATED,
        &stored_player(&view, &team.id.0, &withdrawn, None),
    ))
}

/// One player, one person: links a player with a player of another competition of the season
/// as the same person (`same_person_as`), or makes them a person of their own again (`own`), with
/// the reason in the history. GT-M15 and AS-3 read the link, never a name; AS-3 refuses it when
/// the two competitions share dates. The same write as the site's rosters page. The President or
/// the player's school's advisor.
#[utoipa::path(post, path = "/api/v1/leagues/{league}/{season}/{competition}/players/{player}/person", tag = "rosters",
    params(PlayerAddress),
    request_body(content = PersonBody, description = "Whom the player is, and how the officer knows"),
    responses(
        (status = 201, description = "The roster entry as stored, with its person", body = StoredPlayer),
        (status = 403, description = "The permission table refuses this token (another school's player)", body = ErrorAnswer),
        (status = 404, description = "No such competition or player", body = ErrorAnswer),
        (status = 409, description = "A competition of the season changed after it was read: nothing was saved; send it again", body = ErrorAnswer),
        (status = 422, description = "No reason, no player named, one of the same competition, one person already, or AS-3's overlapping dates", body = InvalidAnswer),
    ),
    security(("bearer" = [])))]
async fn link_player(
    State(state): State<AppState>,
    headers: HeaderMap,
    path: Addressed<PlayerAddress>,
    bytes: Bytes,
) -> ApiResult {
    let (view, player, t, acting) = begin_player(&state, &headers, path).await?;
    let team = &view.competition.teams[t];
    let b: PersonBody = json_body(
        &bytes,
        r#"{"same_person_as": "open/vic-6", "reason": "the same student, by her school's record"}"#,
    )?;
    let mut problems = Vec::new();
    let to = match (b.same_person_as.as_deref().map(str::trim), b.own) {
        (Some(text), false) if !text.is_empty() => match write::LinkTo::parse(text) {
            Some(to @ write::LinkTo::SameAs { .. }) => Some(to),
            _ => {
                problems.push((
                    "same_person_as",
                    format!(
                        "“{text}” names no player; write the competition's slug and the player's id, as open/vic-6."
                    ),
                ));
                None
            }
        },
        (None | Some(""), true) => Some(write::LinkTo::Own),
        _ => {
            problems.push((
                "same_person_as",
                "Give either same_person_as (the player of another competition who is the same person) or own: true (a person of their own)."
                    .to_string(),
            ));
            None
        }
    };
    let reason = b.reason.as_deref().map(str::trim).unwrap_or_default();
    if reason.is_empty() {
        problems.push((
            "reason",
            "A link needs its reason, kept in the history: say how you know they are one person (or not).".to_string(),
        ));
    } else if let Err(e) = text::check(TextKind::Reason, "the reason", reason) {
        problems.push(("reason", e.to_string()));
    }
    let (Some(to), true) = (to, problems.is_empty()) else {
        return Err(ApiError::invalid_fields(problems));
    };
    let id = PlayerId(player.id.0.clone());
    let person = write::link(&state, &view, &id, &to, reason, &acting.actor())
        .await
        .map_err(|why| not_changed("same_person_as", why))?;
    let linked = Player {
        person: Some(person),
        ..player
    };
    Ok(json_response(
        StatusCode::CREATED,
        &stored_player(&view, &team.id.0, &linked, None),
    ))
}
