//! A team Swiss's next round in the API (issue 17): `GET …/{competition}/pairing` gives the round
//! as C.04.6 pairs it, in the issue's JSON (`{"round": 6, "pairs": [[12, 3]], "bye": 27}`);
//! `POST` publishes it, with swaps by hand and their reason. Both need an API token whose role
//! the table allows (whoever sets up rounds). The same reading and write path as the page
//! (`pairing::load`, `prepare`, `publish`).

use arbiter_core::pairing::swiss::Swap;
use arbiter_core::rules::permissions::Action;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use serde::{Deserialize, Serialize};
use utoipa::{OpenApi, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::api::answer::{
    ApiError, ApiResult, ErrorAnswer, InvalidAnswer, ProblemJson, json_response, read_body,
    unreadable_body,
};
use crate::api::write::begin_league;
use crate::app::address::{Addressed, CompetitionAddress};
use crate::app::respond::bad_path;
use crate::app::state::AppState;
use crate::http::auth::Acting;
use crate::http::error::WebError;
use crate::pairing::{NextRound, NotPublished, numbers, prepare, publish};

#[derive(OpenApi)]
#[openapi(tags((name = "pairing", description = "A team Swiss's next round as FIDE C.04.6 pairs it, read and published with an API token (issue 17)")))]
struct PairingDoc;

/// The pairing's routes, registered on the router and in the OpenAPI document together.
pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::with_openapi(PairingDoc::openapi()).routes(routes!(proposed, publish_round))
}

/// A round's pairing, as issue 17 spells it: teams by their start numbers, each pair first the
/// team with White on board 1; `bye` null when there is none.
#[derive(Debug, Serialize, ToSchema)]
pub struct PairingJson {
    pub round: u32,
    pub pairs: Vec<[u32; 2]>,
    pub bye: Option<u32>,
}

/// The round to publish: C.04.6's pairing, with any swaps by hand and why.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PublishBody {
    /// The round the caller means to publish; refused (409) when the next round is another,
    /// e.g. because it was published meanwhile.
    #[serde(default)]
    pub round: Option<u32>,
    /// Teams to trade places, by start number: each takes the other's opponent and colour, or
    /// the bye.
    #[serde(default)]
    pub swaps: Vec<[u32; 2]>,
    /// Why the pairing is changed by hand; required with a swap (C.04.2 art. 1.5), kept in the
    /// history and shown with the round. At most 1,000 characters.
    #[serde(default)]
    #[schema(max_length = 1000)]
    pub reason: Option<String>,
    /// The absolute criteria the swaps may break by the Chief Arbiter's decision, by name:
    /// `C.04.1 b` (two teams meet at most once), `C.04.1 c` (the pairing-allocated bye at most
    /// once). Without it such a swap is refused (422); with it the round is published and the
    /// override kept with the reason and shown with the round.
    #[serde(default)]
    pub override_absolute: Vec<String>,
}

/// The round as published.
#[derive(Debug, Serialize, ToSchema)]
pub struct PublishedJson {
    pub round: u32,
    pub pairs: Vec<[u32; 2]>,
    pub bye: Option<u32>,
    /// Whether a swap by hand changed C.04.6's pairing.
    pub changed_by_hand: bool,
    /// The reason for the change, when there was one.
    pub reason: Option<String>,
    /// The absolute criteria the change broke by override, each `C.04.1 b: …`.
    pub overridden: Vec<String>,
    /// The round's page, where its results are entered once played.
    pub url: String,
}

/// The address, the token, the league and the table, in that order; then the competition.
async fn begin(
    state: &AppState,
    headers: &HeaderMap,
    path: Addressed<CompetitionAddress>,
) -> Result<(NextRound, Acting), ApiError> {
    let Path(CompetitionAddress {
        league,
        season,
        competition,
    }) = path.map_err(|e| bad_path(&e))?;
    let (_, acting) = begin_league(state, headers, &league, Action::DrawSchedule).await?;
    let view = state.view(&league, &season, &competition).await?;
    // A competition drawn as a round robin has no pairing to read or publish: not found.
    if !arbiter_core::pairing::swiss::paired_round_by_round(&view.rules)
        && let Err(e) = crate::pairing::propose(&view)
    {
        return Err(WebError::not_found(format!(
            "{}: {}.",
            e.rule,
            arbiter_core::record::text::sentence(&e.message)
        ))
        .into());
    }
    Ok((NextRound { view }, acting))
}

/// 422: the sentence with its rule.
fn refused(field: &str, rule: &str, message: String) -> ApiError {
    ApiError::invalid(
        "refused",
        vec![ProblemJson {
            rule: Some(rule.into()),
            ..ProblemJson::at(field, message)
        }],
    )
}

/// A swap the request got wrong is 422; a round that cannot be paired now (a result missing,
/// every round paired) is the competition's state, not the request's: 409.
fn not_published(e: NotPublished) -> ApiError {
    match e {
        NotPublished::Refused(e) if e.rule == arbiter_core::pairing::swiss::HAND_CHANGE_RULE => {
            refused(
                "swaps",
                e.rule,
                format!(
                    "{}: {}",
                    e.rule,
                    arbiter_core::record::text::sentence(&e.message)
                ),
            )
        }
        NotPublished::Refused(e) => WebError::Conflict(format!(
            "{}: {}",
            e.rule,
            arbiter_core::record::text::sentence(&e.message)
        ))
        .into(),
        other => other.into_web().into(),
    }
}

/// Issue 17: the competition's next round as FIDE C.04.6 pairs it from the rounds before it
/// (the round after the last one with a match, once all its results are in). Not found (404)
/// when the competition is not a team Swiss; refused (409) when a result of the last round is
/// missing or every round is paired.
#[utoipa::path(get, path = "/api/v1/leagues/{league}/{season}/{competition}/pairing", tag = "pairing",
    params(CompetitionAddress),
    responses(
        (status = 200, description = "The next round as C.04.6 pairs it", body = PairingJson),
        (status = 403, description = "The permission table refuses this token (whoever sets up rounds reads a pairing before it is published)", body = ErrorAnswer),
        (status = 404, description = "No such league, season or competition, or it is not a team Swiss paired round by round", body = ErrorAnswer),
        (status = 409, description = "No round can be paired now (a result missing, every round paired); the sentence says why", body = ErrorAnswer),
    ),
    security(("bearer" = [])))]
async fn proposed(
    State(state): State<AppState>,
    headers: HeaderMap,
    path: Addressed<CompetitionAddress>,
) -> ApiResult {
    let (n, _) = begin(&state, &headers, path).await?;
    let p = prepare(&n, &[], "", &[]).map_err(not_published)?;
    let (round, pairs, bye) = numbers(&p);
    Ok(json_response(
        StatusCode::OK,
        &PairingJson { round, pairs, bye },
    ))
}

/// Issue 17: publishes the competition's next round as C.04.6 pairs it, with `swaps` made by
/// hand (a reason required, C.04.2 art. 1.5): the round's matches are stored, home the team
/// with White on board 1, no result yet; C.04.6's pairing and the change are kept in the
/// history. Refused (409) when the competition changed while it was published, or `round` is
/// not the next round.
#[utoipa::path(post, path = "/api/v1/leagues/{league}/{season}/{competition}/pairing", tag = "pairing",
    params(CompetitionAddress),
    request_body(content = PublishBody, description = "The round to publish"),
    responses(
        (status = 200, description = "The round as published", body = PublishedJson),
        (status = 403, description = "The permission table refuses this token (whoever sets up rounds publishes them)", body = ErrorAnswer),
        (status = 404, description = "No such league, season or competition, or it is not a team Swiss paired round by round", body = ErrorAnswer),
        (status = 409, description = "The competition changed meanwhile, `round` is not the next round, or no round can be paired now (a result missing, every round paired): nothing was published", body = ErrorAnswer),
        (status = 422, description = "The body is wrong, or a swap is refused (the sentence with its rule)", body = InvalidAnswer),
    ),
    security(("bearer" = [])))]
async fn publish_round(
    State(state): State<AppState>,
    headers: HeaderMap,
    path: Addressed<CompetitionAddress>,
    bytes: Bytes,
) -> ApiResult {
    let (n, acting) = begin(&state, &headers, path).await?;
    let body: PublishBody = read_body(&bytes).map_err(|e| {
        refused(
            "body",
            "C.04.6",
            unreadable_body(
                &e,
                r#"{"round": 6, "swaps": [[3, 8]], "reason": "Teams 3 and 8 are of one club"}, or {} to publish C.04.6's pairing as it is"#,
            ),
        )
    })?;
    let teams = &n.view.competition.teams;
    let mut swaps = Vec::new();
    // Start numbers as `[pairing] seed` gives them.
    let team = |x: u32| {
        arbiter_core::pairing::swiss::team_of_start_number(&n.view.competition, &n.view.rules, x)
    };
    for [a, b] in &body.swaps {
        let (Some(ta), Some(tb)) = (team(*a), team(*b)) else {
            let x = if team(*a).is_none() { a } else { b };
            return Err(refused(
                "swaps",
                arbiter_core::pairing::swiss::HAND_CHANGE_RULE,
                format!(
                    "There is no team with start number {x}; the competition's teams are numbered 1 to {}.",
                    teams.len()
                ),
            ));
        };
        swaps.push(Swap { a: ta, b: tb });
    }
    let reason = body.reason.clone().unwrap_or_default();
    if let Some(meant) = body.round {
        let published = n
            .view
            .competition
            .rounds
            .iter()
            .any(|r| r.number >= meant && r.matches().next().is_some());
        if published {
            return Err(WebError::Conflict(format!(
                "Round {meant} is published already, so nothing was published; read the pairing again."
            )).into());
        }
        let next = prepare(&n, &[], "", &[])
            .map_err(not_published)?
            .paired
            .round;
        if meant != next {
            return Err(WebError::Conflict(format!(
                "Round {meant} is not the round to pair now: the next round is {next}, so nothing was published; read the pairing again."
            )).into());
        }
    }
    let absolute = &body.override_absolute;
    let p = publish(&state, &n, n.seen(), &swaps, &reason, absolute, &acting)
        .await
        .map_err(not_published)?;
    let (round, pairs, bye) = numbers(&p);
    Ok(json_response(
        StatusCode::OK,
        &PublishedJson {
            round,
            pairs,
            bye,
            changed_by_hand: p.changed(),
            reason: p.reason.as_ref().map(|r| r.as_str().to_string()),
            overridden: crate::pairing::overridden(&p),
            url: format!(
                "{}/rounds/{round}",
                crate::ui::link::competition_href(
                    &n.view.league.slug,
                    &n.view.season.slug,
                    &n.view.record.slug
                )
            ),
        },
    ))
}
