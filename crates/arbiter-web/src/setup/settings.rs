//! A season's settings, for the officers the table lets change the rules (issue 32 item 5):
//! GET `/leagues/{league}/{season}/settings` shows each setting the season's rules have (the
//! entry fee, the playoff qualifiers and format, GT-P2's days) with the rule it sets; POST saves
//! the changed ones as a new version of every competition's rules, in the history with who, why
//! and what changed, or shows the form again with every problem and what was typed.

use std::sync::Arc;

use arbiter_core::rules::permissions::Action;
use arbiter_core::rules::ruleset::Ruleset;
use arbiter_core::rules::settings::{self, SeasonSoFar, Setting};
use arbiter_formats::competition_json::{WrittenRules, written_rules};
use arbiter_store::{RulesChange, RulesRef, Season};
use askama::Template;
use axum::Form;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::Response;
use serde::Deserialize;
use std::collections::HashMap;

use crate::app::address::{Addressed, SeasonAddress};
use crate::app::respond::{bad_path, private, see_other};
use crate::app::site::{self, LeagueTree};
use crate::app::state::AppState;
use crate::app::view::CompetitionView;
use crate::http::auth::{Acting, Auth};
use crate::http::csrf;
use crate::http::error::WebError;
use crate::setup::setup_href;
use crate::ui::layout::{Layout, private_layout};
use crate::ui::link::{Link, league_href, season_href};

/// `/leagues/{league}/{season}/settings`.
pub(crate) fn settings_href(league: &str, season: &str) -> String {
    format!("{}/settings", season_href(league, season))
}

/// A season and its competitions' rules, as read.
pub(crate) struct SeasonRules {
    pub(crate) tree: LeagueTree,
    pub(crate) season: Season,
    pub(crate) competitions: Vec<Arc<CompetitionView>>,
    so_far: SeasonSoFar,
}

impl SeasonRules {
    /// The first competition's rules: the season's divisions share them (set up together).
    fn rules(&self) -> Option<&Ruleset> {
        self.competitions.first().map(|v| &v.rules)
    }
}

/// One setting's field on the form.
struct Field {
    key: &'static str,
    label: String,
    help: &'static str,
    value: String,
    /// For the playoffs' format, the choices: (value, label, selected).
    choices: Vec<(&'static str, &'static str, bool)>,
    /// `Metro Division 2, Wood County Division 3`: the competitions disagree.
    differs: Option<String>,
    money: bool,
}

#[derive(Template)]
#[template(path = "setup/settings.html", whitespace = "minimize")]
struct SettingsPage {
    layout: Layout,
    csrf: String,
    action: String,
    season_name: String,
    divisions: String,
    fields: Vec<Field>,
    reason: String,
    history: String,
    ledger: String,
    notice: Option<String>,
    problems: Vec<String>,
}

/// The form as typed: each setting by its key, and why.
#[derive(Debug, Default, Deserialize)]
pub struct SettingsFields {
    #[serde(flatten)]
    values: HashMap<String, String>,
}

impl SettingsFields {
    fn reason(&self) -> &str {
        self.values.get("reason").map_or("", |r| r.trim())
    }

    fn typed(&self) -> Vec<(Setting, String)> {
        Setting::ALL
            .into_iter()
            .filter_map(|s| self.values.get(s.key()).map(|v| (s, v.clone())))
            .collect()
    }
}

/// `?changed=3` after a save.
#[derive(Debug, Default, Deserialize)]
pub struct Saved {
    #[serde(default)]
    changed: Option<usize>,
}

/// The season `season` of `tree` with its competitions' rules, or a 404 naming its seasons.
/// The site's page and the API read it alike.
pub(crate) async fn season_rules(
    state: &AppState,
    tree: LeagueTree,
    season: &str,
) -> Result<SeasonRules, WebError> {
    let Some((found, records)) = tree.seasons.iter().find(|(s, _)| s.slug == season) else {
        return Err(WebError::NotFound {
            message: format!(
                "{} has no season “{season}”, so it has no settings. Its seasons are below.",
                tree.league.name
            ),
            links: tree
                .seasons
                .iter()
                .map(|(s, _)| Link::new(settings_href(&tree.league.slug, &s.slug), &s.name))
                .collect(),
        });
    };
    let found = found.clone();
    let mut competitions = Vec::new();
    for r in records {
        competitions.push(state.view(&tree.league.slug, &found.slug, &r.slug).await?);
    }
    let so_far = SeasonSoFar {
        playoffs_drawn: state.store().playoffs(found.id).await?.is_some(),
    };
    Ok(SeasonRules {
        tree,
        season: found,
        competitions,
        so_far,
    })
}

async fn load(
    state: &AppState,
    auth: &Auth,
    path: Addressed<SeasonAddress>,
) -> Result<(SeasonRules, Acting), WebError> {
    let Path(SeasonAddress { league, season }) = path.map_err(|e| bad_path(&e))?;
    let (tree, acting) = site::league_officer(state, auth, &league, Action::EditRules).await?;
    Ok((season_rules(state, tree, &season).await?, acting))
}

fn fields(s: &SeasonRules, typed: Option<&SettingsFields>) -> Vec<Field> {
    let Some(rules) = s.rules() else {
        return Vec::new();
    };
    let all: Vec<&Ruleset> = s.competitions.iter().map(|v| &v.rules).collect();
    settings::season_values(&all)
        .into_iter()
        .map(|v| {
            let setting = v.setting;
            let differs = v
                .differs()
                .then(|| v.in_words(s.competitions.iter().map(|c| c.record.name.as_str())));
            let value = typed
                .and_then(|t| t.values.get(setting.key()).cloned())
                .unwrap_or(v.value);
            let rule = setting
                .rule(rules)
                .map_or(String::new(), |r| format!(" ({r})"));
            let name = setting.name().trim_start_matches("the ");
            let mut label = format!("{}{}{rule}", name[..1].to_uppercase(), &name[1..]);
            if setting == Setting::EntryFee {
                label.push_str(", in dollars");
            }
            let choices = if setting == Setting::PlayoffFormat {
                [("knockout", "A knockout"), ("round_robin", "A round robin")]
                    .into_iter()
                    .map(|(v, l)| (v, l, v == value))
                    .collect()
            } else {
                Vec::new()
            };
            Field {
                key: setting.key(),
                label,
                help: setting.help(),
                value,
                choices,
                differs,
                money: setting == Setting::EntryFee,
            }
        })
        .collect()
}

async fn page(
    auth: &Auth,
    s: &SeasonRules,
    typed: Option<&SettingsFields>,
    notice: Option<String>,
    problems: Vec<String>,
    status: StatusCode,
) -> Result<Response, WebError> {
    let league = &s.tree.league;
    let page = SettingsPage {
        layout: private_layout(
            &format!("Settings: {}, {}", league.name, s.season.name),
            vec![
                Link::new(league_href(&league.slug), &league.name),
                Link::new(setup_href(&league.slug), "Season set-up"),
            ],
        ),
        csrf: csrf::session_token(&auth.session).await?,
        action: settings_href(&league.slug, &s.season.slug),
        season_name: s.season.name.clone(),
        divisions: s
            .competitions
            .iter()
            .map(|v| v.record.name.as_str())
            .collect::<Vec<_>>()
            .join(", "),
        fields: fields(s, typed),
        reason: typed.map_or(String::new(), |t| t.reason().to_string()),
        history: format!("{}/history", league_href(&league.slug)),
        ledger: crate::ledger::ledger_href(&league.slug, Some(&s.season.slug)),
        notice,
        problems,
    };
    Ok(private(status, &page))
}

/// GET `/leagues/{league}/{season}/settings`: the season's settings and the form to change them.
pub async fn settings_page(
    State(state): State<AppState>,
    auth: Auth,
    path: Addressed<SeasonAddress>,
    saved: Result<Query<Saved>, QueryRejection>,
) -> Result<Response, WebError> {
    let (s, _) = load(&state, &auth, path).await?;
    let notice = saved.ok().and_then(|Query(q)| q.changed).map(|n| {
        format!(
            "Saved: {} of {} changed, each a new version of its rules in the history.",
            match n {
                1 => "1 competition's rules".to_string(),
                n => format!("{n} competitions' rules"),
            },
            s.season.name
        )
    });
    page(&auth, &s, None, notice, Vec::new(), StatusCode::OK).await
}

/// The rules as the store keeps them (a preset's name, or the shortest file that reads back).
fn stored(rules: &Ruleset) -> Result<RulesRef, WebError> {
    match written_rules(rules).map_err(WebError::Refused)? {
        WrittenRules::Preset(p) => Ok(RulesRef::Preset(p)),
        WrittenRules::Toml(t) => Ok(RulesRef::Toml(t)),
    }
}

/// Why a change of settings was not saved.
pub(crate) enum NotSaved {
    /// Every problem, as sentences: nothing was saved.
    Invalid(Vec<String>),
    /// The store refused or failed (a competition changed meanwhile: a conflict).
    Failed(WebError),
}

/// The settings `typed` saved for every competition of the season whose rules change, with
/// `reason` in each one's history; how many changed (0: nothing did, nothing was saved). The
/// site's form and the API save alike.
pub(crate) async fn save(
    state: &AppState,
    s: &SeasonRules,
    typed: &[(Setting, String)],
    reason: &str,
    acting: &Acting,
) -> Result<usize, NotSaved> {
    let all: Vec<&Ruleset> = s.competitions.iter().map(|v| &v.rules).collect();
    let (mut problems, mut writes) = (Vec::new(), Vec::new());
    match settings::change_season(&all, typed, s.so_far) {
        Ok(changed) => {
            for (v, change) in s.competitions.iter().zip(changed) {
                let Some((rules, changes)) = change else {
                    continue;
                };
                writes.push(RulesChange {
                    competition: v.id,
                    version: v.record.version,
                    rules: stored(&rules).map_err(NotSaved::Failed)?,
                    changes: changes.iter().map(|c| c.sentence(&rules)).collect(),
                });
            }
        }
        Err(ps) => problems.extend(ps.into_iter().map(|p| p.message)),
    }
    let reason = reason.trim();
    if let Err(e) = arbiter_core::record::text::check(
        arbiter_core::record::text::TextKind::Reason,
        "the reason",
        reason,
    ) {
        problems.push(e.to_string());
    }
    if !problems.is_empty() {
        return Err(NotSaved::Invalid(problems));
    }
    if writes.is_empty() {
        return Ok(0);
    }
    let why = if reason.is_empty() {
        "the season's settings changed"
    } else {
        reason
    };
    state
        .store()
        .set_competition_rules(&writes, why, &acting.actor())
        .await
        .map_err(|e| NotSaved::Failed(e.into()))?;
    Ok(writes.len())
}

/// POST `/leagues/{league}/{season}/settings`: the changed settings saved for every competition
/// of the season, or the form again with every problem.
pub async fn save_settings(
    State(state): State<AppState>,
    auth: Auth,
    path: Addressed<SeasonAddress>,
    Form(f): Form<SettingsFields>,
) -> Result<Response, WebError> {
    let (s, acting) = load(&state, &auth, path).await?;
    match save(&state, &s, &f.typed(), f.reason(), &acting).await {
        Ok(0) => {
            page(
                &auth,
                &s,
                Some(&f),
                Some(
                    "Nothing changed: every setting is as it was, so nothing was saved."
                        .to_string(),
                ),
                Vec::new(),
                StatusCode::OK,
            )
            .await
        }
        Ok(n) => Ok(see_other(&format!(
            "{}?changed={n}",
            settings_href(&s.tree.league.slug, &s.season.slug)
        ))),
        Err(NotSaved::Invalid(problems)) => {
            page(
                &auth,
                &s,
                Some(&f),
                None,
                problems,
                StatusCode::UNPROCESSABLE_ENTITY,
            )
            .await
        }
        Err(NotSaved::Failed(e)) => Err(e),
    }
}
