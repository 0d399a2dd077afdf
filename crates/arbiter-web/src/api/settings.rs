//! A season's settings in the API (issue 32 item 5): `GET /api/v1/leagues/{league}/{season}/
//! settings` gives each setting of the season's rules with its rule and value; `POST` changes
//! them for every competition of the season. Both with an API token whose role the table lets
//! change the rules (the President). The same reading and write path as the page
//! (`setup::settings::season_rules`, `save`).

use arbiter_core::rules::permissions::Action;
use arbiter_core::rules::ruleset::Ruleset;
use arbiter_core::rules::settings::{Setting, season_values};
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use serde::{Deserialize, Serialize};
use utoipa::{OpenApi, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::api::answer::{
    ApiError, ApiResult, ErrorAnswer, InvalidAnswer, json_response, unreadable_body,
};
use crate::api::write::begin_season;
use crate::app::address::{Addressed, SeasonAddress};
use crate::app::site;
use crate::app::state::AppState;
use crate::http::auth::Acting;
use crate::setup::settings::{NotSaved, SeasonRules, save, season_rules};

#[derive(OpenApi)]
#[openapi(tags((name = "settings", description = "A season's settings the officers decide: the entry fee (GT-O2), the playoff qualifiers and format (GT-F3), GT-P2's days; read and changed by the President with an API token")))]
struct SettingsDoc;

/// The settings' routes, registered on the router and in the OpenAPI document together.
pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::with_openapi(SettingsDoc::openapi()).routes(routes!(settings, change_settings))
}

/// A season's settings.
#[derive(Debug, Serialize, ToSchema)]
pub struct SettingsJson {
    pub league: String,
    pub season: String,
    /// Each setting the season's rules have, in the order the page lists them.
    pub settings: Vec<SettingJson>,
}

/// One setting.
#[derive(Debug, Serialize, ToSchema)]
pub struct SettingJson {
    /// `entry_fee`, `qualifiers_per_division`, `playoff_format`, `enter_within_days`,
    /// `confirm_within_days` or `correct_within_days`: the key to send it back by.
    pub key: String,
    /// `the entry fee`.
    pub name: String,
    /// The rule the ruleset cites for it (`GT-O2`), if any.
    pub rule: Option<String>,
    /// Its value in the first competition's rules, as sent (`10.00`, `2`, `knockout`).
    pub value: String,
    /// Its value in each competition, by slug, where they differ.
    pub differs: Vec<CompetitionValue>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct CompetitionValue {
    pub competition: String,
    pub value: Option<String>,
}

/// The settings to change, each as text as the page's form takes it; one left out keeps its
/// value (none sent changes nothing).
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SettingsBody {
    /// What each school pays once a season, in dollars and cents (`"12.50"`; GT-O2).
    #[serde(default)]
    #[schema(pattern = r"^\$?[0-9]{1,5}(\.[0-9]{1,2})?$")]
    pub entry_fee: Option<String>,
    /// The teams of each division invited to the playoffs, 1 to 16 (`"3"`; GT-F3).
    #[serde(default)]
    #[schema(pattern = r"^([1-9]|1[0-6])$")]
    pub qualifiers_per_division: Option<String>,
    /// `knockout` or `round_robin` (GT-F3).
    #[serde(default)]
    #[schema(pattern = r"^(knockout|round_robin)$")]
    pub playoff_format: Option<String>,
    /// The days to enter a result, 1 to 30 (GT-P2).
    #[serde(default)]
    #[schema(pattern = r"^([1-9]|[12][0-9]|30)$")]
    pub enter_within_days: Option<String>,
    /// The days to confirm a result, 1 to 30 (GT-P2).
    #[serde(default)]
    #[schema(pattern = r"^([1-9]|[12][0-9]|30)$")]
    pub confirm_within_days: Option<String>,
    /// The days to ask for a correction, 1 to 30 (GT-P2).
    #[serde(default)]
    #[schema(pattern = r"^([1-9]|[12][0-9]|30)$")]
    pub correct_within_days: Option<String>,
    /// Why (the meeting that decided it), kept in each competition's history. At most 1000
    /// characters.
    #[serde(default)]
    #[schema(max_length = 1000)]
    pub reason: Option<String>,
}

impl SettingsBody {
    fn typed(&self) -> Vec<(Setting, String)> {
        [
            (Setting::EntryFee, &self.entry_fee),
            (Setting::PlayoffQualifiers, &self.qualifiers_per_division),
            (Setting::PlayoffFormat, &self.playoff_format),
            (Setting::EnterWithinDays, &self.enter_within_days),
            (Setting::ConfirmWithinDays, &self.confirm_within_days),
            (Setting::CorrectWithinDays, &self.correct_within_days),
        ]
        .into_iter()
        .filter_map(|(s, v)| v.clone().map(|v| (s, v)))
        .collect()
    }
}

fn settings_json(s: &SeasonRules) -> SettingsJson {
    let all: Vec<&Ruleset> = s.competitions.iter().map(|v| &v.rules).collect();
    let settings = season_values(&all)
        .into_iter()
        .map(|v| SettingJson {
            key: v.setting.key().to_string(),
            name: v.setting.name().to_string(),
            rule: all
                .first()
                .and_then(|r| v.setting.rule(r))
                .map(str::to_string),
            differs: if v.differs() {
                s.competitions
                    .iter()
                    .zip(&v.each)
                    .map(|(c, x)| CompetitionValue {
                        competition: c.record.slug.clone(),
                        value: x.clone(),
                    })
                    .collect()
            } else {
                Vec::new()
            },
            value: v.value,
        })
        .collect();
    SettingsJson {
        league: s.tree.league.slug.clone(),
        season: s.season.slug.clone(),
        settings,
    }
}

/// The token, the league and the table, then the season's rules.
async fn begin(
    state: &AppState,
    headers: &HeaderMap,
    path: Addressed<SeasonAddress>,
) -> Result<(SeasonRules, Acting), ApiError> {
    let (tree, season, acting) = begin_season(state, headers, path, Action::EditRules).await?;
    let s = season_rules(state, tree, &season).await?;
    Ok((s, acting))
}

/// Issue 32 item 5: a season's settings (the entry fee, GT-O2; the playoff qualifiers and
/// format, GT-F3; GT-P2's days), each with its rule and value. For the President.
#[utoipa::path(get, path = "/api/v1/leagues/{league}/{season}/settings", tag = "settings",
    params(SeasonAddress),
    responses(
        (status = 200, description = "The season's settings", body = SettingsJson),
        (status = 403, description = "The permission table refuses this token (only the President changes the rules)", body = ErrorAnswer),
        (status = 404, description = "No such league or season", body = ErrorAnswer),
    ),
    security(("bearer" = [])))]
async fn settings(
    State(state): State<AppState>,
    headers: HeaderMap,
    path: Addressed<SeasonAddress>,
) -> ApiResult {
    let (s, _) = begin(&state, &headers, path).await?;
    Ok(json_response(StatusCode::OK, &settings_json(&s)))
}

/// Issue 32 item 5: the settings sent, changed for every competition of the season whose rules
/// have them, each competition's rules a new version in the history with the reason. Refused
/// (422, each problem) for a value out of its range or not one, a setting no competition has,
/// the qualifiers once the playoffs are drawn (GT-F3). The same values again change nothing.
#[utoipa::path(post, path = "/api/v1/leagues/{league}/{season}/settings", tag = "settings",
    params(SeasonAddress),
    request_body(content = SettingsBody, description = "The settings to change"),
    responses(
        (status = 200, description = "The season's settings after the change", body = SettingsJson),
        (status = 403, description = "The permission table refuses this token (only the President changes the rules)", body = ErrorAnswer),
        (status = 404, description = "No such league or season", body = ErrorAnswer),
        (status = 409, description = "A competition's rules changed meanwhile; read them again (nothing was saved)", body = ErrorAnswer),
        (status = 422, description = "The body is wrong, or a setting is refused (each problem)", body = InvalidAnswer),
    ),
    security(("bearer" = [])))]
async fn change_settings(
    State(state): State<AppState>,
    headers: HeaderMap,
    path: Addressed<SeasonAddress>,
    bytes: Bytes,
) -> ApiResult {
    let (s, acting) = begin(&state, &headers, path).await?;
    // The body is required and an object, as the document says (serde would read a
    // struct from an array too); `{}` changes nothing.
    let body: SettingsBody = serde_json::from_slice::<serde_json::Value>(&bytes)
        .map_err(|e| e.to_string())
        .and_then(|v| match v {
            serde_json::Value::Object(_) => serde_json::from_value(v).map_err(|e| e.to_string()),
            _ => Err("not an object".to_string()),
        })
        .map_err(|e| {
            let example = r#"{"entry_fee": "12.50", "reason": "organizational meeting"}"#;
            ApiError::invalid_fields(vec![("body", unreadable_body(&e, example))])
        })?;
    // No setting sent changes nothing, as the same values again do.
    let typed = body.typed();
    let reason = body.reason.as_deref().unwrap_or_default();
    match save(&state, &s, &typed, reason, &acting).await {
        Ok(_) => {
            // Read again: the answer is the settings as stored.
            let reread = async {
                let tree = site::one(&state, &s.tree.league.slug).await?;
                season_rules(&state, tree, &s.season.slug).await
            };
            let after = reread.await?;
            Ok(json_response(StatusCode::OK, &settings_json(&after)))
        }
        Err(NotSaved::Invalid(problems)) => Err(ApiError::invalid_fields(
            problems.into_iter().map(|p| ("body", p)).collect(),
        )),
        Err(NotSaved::Failed(e)) => Err(e.into()),
    }
}
