//! The history of changes (issue 5): who changed what, when, in which role, from what to what
//! and why, for a league, a season, a competition, a team or a match, as a page and as CSV.
//!
//! Only readers the permission table allows (`Action::ReadHistory`) see it: officers read all of
//! it, an advisor the history of their own school's teams and matches. Both answers are per
//! request and never cached (`private, no-store`): they name people.

use std::collections::HashMap;

use arbiter_core::TeamId;
use arbiter_core::model::{GameResult, Pairing};
use arbiter_core::permissions::{Action, Role, Target};
use arbiter_formats::csv;
use arbiter_store::{Entity, HistoryAction, HistoryEntry, HistoryFilter, League};
use askama::Template;
use axum::body::Body;
use axum::extract::rejection::{PathRejection, QueryRejection};
use axum::extract::{Path, Query, State};
use axum::http::{HeaderValue, header};
use axum::response::Response;
use serde_json::Value;

use crate::app::respond::{bad_path, download, parse_round, select_round, team_of};
use crate::app::state::AppState;
use crate::http::answer::security_headers;
use crate::http::auth::{self, Auth};
use crate::http::error::{Format, WebError};
use crate::ui::layout::Layout;
use crate::ui::link::{Link, competition_href, league_href, season_href};
use crate::ui::words::{self, segment};

/// Rows on one page; `?before=<id>` shows the next older ones.
const PAGE_ROWS: usize = 200;

/// `?before=<id>`: the rows older than (below) that row id. Text, so that a wrong value gets a
/// sentence rather than the extractor's message.
#[derive(Debug, serde::Deserialize)]
pub struct Paging {
    before: Option<String>,
}

type Before = Result<Query<Paging>, QueryRejection>;
type P1 = Result<Path<String>, PathRejection>;
type P2 = Result<Path<(String, String)>, PathRejection>;
type P3 = Result<Path<(String, String, String)>, PathRejection>;
type P4 = Result<Path<(String, String, String, String)>, PathRejection>;
type P5 = Result<Path<(String, String, String, String, String)>, PathRejection>;

/// What an address names: the slugs as given.
enum Address {
    League(String),
    Season(String, String),
    Competition(String, String, String),
    Team(String, String, String, String),
    Match(String, String, String, String, String),
}

pub async fn league_page(
    State(state): State<AppState>,
    auth: Auth,
    path: P1,
    query: Before,
) -> Response {
    page(&state, &auth, path.map(|Path(l)| Address::League(l)), query).await
}

pub async fn league_csv(State(state): State<AppState>, auth: Auth, path: P1) -> Response {
    csv(&state, &auth, path.map(|Path(l)| Address::League(l))).await
}

pub async fn season_page(
    State(state): State<AppState>,
    auth: Auth,
    path: P2,
    query: Before,
) -> Response {
    let address = path.map(|Path((l, s))| Address::Season(l, s));
    page(&state, &auth, address, query).await
}

pub async fn season_csv(State(state): State<AppState>, auth: Auth, path: P2) -> Response {
    csv(
        &state,
        &auth,
        path.map(|Path((l, s))| Address::Season(l, s)),
    )
    .await
}

pub async fn competition_page(
    State(state): State<AppState>,
    auth: Auth,
    path: P3,
    query: Before,
) -> Response {
    let address = path.map(|Path((l, s, c))| Address::Competition(l, s, c));
    page(&state, &auth, address, query).await
}

pub async fn competition_csv(State(state): State<AppState>, auth: Auth, path: P3) -> Response {
    let address = path.map(|Path((l, s, c))| Address::Competition(l, s, c));
    csv(&state, &auth, address).await
}

pub async fn team_page(
    State(state): State<AppState>,
    auth: Auth,
    path: P4,
    query: Before,
) -> Response {
    let address = path.map(|Path((l, s, c, t))| Address::Team(l, s, c, t));
    page(&state, &auth, address, query).await
}

pub async fn team_csv(State(state): State<AppState>, auth: Auth, path: P4) -> Response {
    let address = path.map(|Path((l, s, c, t))| Address::Team(l, s, c, t));
    csv(&state, &auth, address).await
}

pub async fn match_page(
    State(state): State<AppState>,
    auth: Auth,
    path: P5,
    query: Before,
) -> Response {
    let address = path.map(|Path((l, s, c, r, h))| Address::Match(l, s, c, r, h));
    page(&state, &auth, address, query).await
}

pub async fn match_csv(State(state): State<AppState>, auth: Auth, path: P5) -> Response {
    let address = path.map(|Path((l, s, c, r, h))| Address::Match(l, s, c, r, h));
    csv(&state, &auth, address).await
}

/// The schools of a history page, as the permission table's [`Target`] names them.
enum Involved {
    League,
    School(String),
    Match {
        home: Option<String>,
        visiting: Option<String>,
    },
}

/// What one history page covers, once its slugs are found.
struct Scope {
    league: League,
    filter: HistoryFilter,
    /// What the permission table is asked about: the league above a team.
    involved: Involved,
    /// The page the history is of; the history is at `{href}/history`.
    href: String,
    heading: String,
    title: String,
    about: String,
    crumbs: Vec<Link>,
    /// The CSV's file name without `-history.csv`: `gthscl-2026-27-division-a`.
    file: String,
    /// Team id to name, to say a match's teams by name where the scope knows them.
    names: HashMap<String, String>,
}

impl Scope {
    /// Asks the permission table; a reader without an account is sent to sign in first.
    fn permit(&self, auth: &Auth) -> Result<(), WebError> {
        let target = match &self.involved {
            Involved::League => Target::League,
            Involved::School(school) => Target::School(school),
            // Reading the history is granted alike under either conduct.
            Involved::Match { home, visiting } => Target::Match {
                home: home.as_deref(),
                visiting: visiting.as_deref(),
                conduct: arbiter_core::permissions::Conduct::default(),
            },
        };
        auth::permit(
            auth.user.as_ref(),
            self.league.id,
            Action::ReadHistory,
            target,
        )
        .map(|_| ())
    }
}

async fn resolve(state: &AppState, address: Address) -> Result<Scope, WebError> {
    match address {
        Address::League(l) => {
            let league = find_league(state, &l).await?;
            Ok(Scope {
                filter: HistoryFilter {
                    league: Some(league.id),
                    ..HistoryFilter::default()
                },
                involved: Involved::League,
                href: league_href(&league.slug),
                heading: format!("History of {}", league.name),
                title: format!("History \u{2014} {}", league.name),
                about: format!(
                    "Every change to {}: its seasons, competitions, teams and results, its accounts, roles and invitations.",
                    league.name
                ),
                crumbs: vec![Link::new(league_href(&league.slug), &league.name)],
                file: league.slug.clone(),
                names: HashMap::new(),
                league,
            })
        }
        Address::Season(l, s) => {
            let league = find_league(state, &l).await?;
            let seasons = state.store().seasons(league.id).await?;
            let Some(season) = seasons.iter().find(|x| x.slug == s) else {
                return Err(WebError::NotFound {
                    message: format!(
                        "{} has no season “{s}”. Its seasons are listed below.",
                        league.name
                    ),
                    links: seasons
                        .iter()
                        .map(|x| Link::new(season_href(&league.slug, &x.slug), &x.name))
                        .collect(),
                });
            };
            let name = format!("{} {}", league.name, season.name);
            Ok(Scope {
                filter: HistoryFilter {
                    league: Some(league.id),
                    season: Some(season.id),
                    ..HistoryFilter::default()
                },
                involved: Involved::League,
                href: season_href(&league.slug, &season.slug),
                heading: format!("History of {name}"),
                title: format!("History \u{2014} {name}"),
                about: format!(
                    "Every change to the competitions of {name}: their teams and results."
                ),
                crumbs: vec![
                    Link::new(league_href(&league.slug), &league.name),
                    Link::new(season_href(&league.slug, &season.slug), &season.name),
                ],
                file: format!("{}-{}", league.slug, season.slug),
                names: HashMap::new(),
                league,
            })
        }
        Address::Competition(l, s, c) => {
            let view = state.view(&l, &s, &c).await?;
            let href = view.href();
            Ok(Scope {
                filter: HistoryFilter {
                    league: Some(view.league.id),
                    competition: Some(view.id),
                    ..HistoryFilter::default()
                },
                involved: Involved::League,
                heading: format!("History of {}", view.record.name),
                title: format!("History \u{2014} {}", view.context()),
                about: format!(
                    "Every change to {}: its import, its teams and every result entered, corrected, confirmed or disputed.",
                    view.record.name
                ),
                crumbs: competition_crumbs(&view),
                file: format!(
                    "{}-{}-{}",
                    view.league.slug, view.season.slug, view.record.slug
                ),
                names: team_names(&view),
                league: view.league.clone(),
                href,
            })
        }
        Address::Team(l, s, c, t) => {
            let view = state.view(&l, &s, &c).await?;
            let index = team_of(&view, &t)?;
            let team = view.competition.teams.get(index).ok_or_else(|| {
                WebError::internal(format!("team {index} is not in the competition"))
            })?;
            let mut crumbs = competition_crumbs(&view);
            crumbs.push(Link::new(view.team_href(index), &team.name));
            Ok(Scope {
                filter: HistoryFilter {
                    league: Some(view.league.id),
                    team: Some((view.id, team.id.clone())),
                    ..HistoryFilter::default()
                },
                involved: team
                    .school
                    .clone()
                    .map_or(Involved::League, Involved::School),
                href: view.team_href(index),
                heading: format!("History of {}", team.name),
                title: format!("History of {} \u{2014} {}", team.name, view.context()),
                about: format!(
                    "Every change to {} in {}: its roster and the results of its matches.",
                    team.name, view.record.name
                ),
                crumbs,
                file: format!(
                    "{}-{}-{}-{}",
                    view.league.slug, view.season.slug, view.record.slug, team.id.0
                ),
                names: team_names(&view),
                league: view.league.clone(),
            })
        }
        Address::Match(l, s, c, r, h) => {
            let number = parse_round(&r)?;
            let view = state.view(&l, &s, &c).await?;
            select_round(&view, number)?;
            let round = view.round(number).ok_or_else(|| {
                WebError::internal(format!("round {number} vanished after it was selected"))
            })?;
            let found = round.pairings.iter().find_map(|p| match p {
                Pairing::Match(m) if m.home.0 == h => Some(m),
                _ => None,
            });
            let Some(m) = found else {
                return Err(WebError::NotFound {
                    message: format!(
                        "Round {number} of {} has no match with “{h}” at home. Its matches are listed below.",
                        view.record.name
                    ),
                    links: round
                        .pairings
                        .iter()
                        .filter_map(|p| match p {
                            Pairing::Match(m) => Some(Link::new(
                                format!(
                                    "{}/matches/{}/history",
                                    view.round_href(number),
                                    segment(&m.home.0)
                                ),
                                format!(
                                    "{} \u{2013} {}",
                                    view.team_name(&m.home),
                                    view.team_name(&m.away)
                                ),
                            )),
                            Pairing::Bye(_) => None,
                        })
                        .collect(),
                });
            };
            let stored = state.store().load_competition_by_id(view.id).await?;
            let Some(id) = stored.and_then(|x| x.match_id(number, &m.home)) else {
                return Err(WebError::not_found(format!(
                    "The match of round {number} with “{h}” at home is no longer in the store."
                )));
            };
            let school = |t: &TeamId| view.competition.team(t).and_then(|x| x.school.clone());
            let label = format!(
                "round {number}: {} \u{2013} {}",
                view.team_name(&m.home),
                view.team_name(&m.away)
            );
            let mut crumbs = competition_crumbs(&view);
            crumbs.push(Link::new(
                view.round_href(number),
                format!("Round {number}"),
            ));
            Ok(Scope {
                filter: HistoryFilter {
                    league: Some(view.league.id),
                    match_id: Some(id),
                    ..HistoryFilter::default()
                },
                involved: Involved::Match {
                    home: school(&m.home),
                    visiting: school(&m.away),
                },
                href: format!("{}/matches/{}", view.round_href(number), segment(&m.home.0)),
                heading: format!("History of {label}"),
                title: format!("History of {label} \u{2014} {}", view.context()),
                about: format!(
                    "Every change to the match of {label}: each result entered or corrected, and each confirmation or dispute."
                ),
                crumbs,
                file: format!(
                    "{}-{}-{}-round-{number}-{}",
                    view.league.slug, view.season.slug, view.record.slug, m.home.0
                ),
                names: team_names(&view),
                league: view.league.clone(),
            })
        }
    }
}

async fn find_league(state: &AppState, slug: &str) -> Result<League, WebError> {
    match state.store().league(slug).await? {
        Some(l) if l.slug == slug => Ok(l),
        _ => Err(state.no_league(slug).await),
    }
}

fn competition_crumbs(view: &crate::app::view::CompetitionView) -> Vec<Link> {
    vec![
        Link::new(league_href(&view.league.slug), &view.league.name),
        Link::new(
            season_href(&view.league.slug, &view.season.slug),
            &view.season.name,
        ),
        Link::new(
            competition_href(&view.league.slug, &view.season.slug, &view.record.slug),
            &view.record.name,
        ),
    ]
}

fn team_names(view: &crate::app::view::CompetitionView) -> HashMap<String, String> {
    view.competition
        .teams
        .iter()
        .map(|t| (t.id.0.clone(), t.name.clone()))
        .collect()
}

/// The scope and the reader's permission, in that order; a reader without an account is sent
/// to sign in before anything about the address is looked up.
async fn allowed(
    state: &AppState,
    auth: &Auth,
    address: Result<Address, PathRejection>,
) -> Result<Scope, WebError> {
    if auth.user.is_none() {
        return Err(WebError::SignInRequired);
    }
    let address = address.map_err(|r| bad_path(&r))?;
    let mut scope = resolve(state, address).await?;
    scope.permit(auth)?;
    // The fee ledger's entries are the President's and the Treasurer's to read (GT-O2, GT-O3).
    if !auth::may(
        auth.user.as_ref(),
        scope.league.id,
        Action::ReadLedger,
        Target::League,
    ) {
        scope.filter.hidden.push(Entity::LedgerEntry);
    }
    Ok(scope)
}

// ---------------------------------------------------------------------------------------------
// The page

#[derive(Debug)]
pub struct Row {
    pub id: i64,
    /// RFC 3339, for `<time datetime>`.
    pub at_iso: String,
    /// `Wed 4 Nov 2026 14:03 UTC`.
    pub at_text: String,
    pub who: String,
    pub role: String,
    pub what: String,
    /// What was changed: `round 3: Clay Eagles – Waite Dropouts`, `user ann@example.org`.
    pub object: String,
    pub before: Option<String>,
    pub after: Option<String>,
    pub reason: String,
    /// The stored before and after, in full, for whoever needs more than the summary.
    pub json: String,
}

#[derive(Template)]
#[template(path = "history/history.html", whitespace = "minimize")]
struct HistoryPage {
    layout: Layout,
    about: String,
    csv_href: String,
    rows: Vec<Row>,
    /// `?before=` of the next older page, when there is one.
    older: Option<String>,
    /// The first page's address, when this is not it.
    newest: Option<String>,
}

async fn page(
    state: &AppState,
    auth: &Auth,
    address: Result<Address, PathRejection>,
    query: Before,
) -> Response {
    let answer = async {
        let scope = allowed(state, auth, address).await?;
        let before = match query {
            Ok(Query(p)) => parse_before(p.before.as_deref())?,
            Err(_) => return Err(bad_before("")),
        };
        // One row more than the page shows, to know whether there are older ones.
        let filter = HistoryFilter {
            before,
            limit: Some(u32::try_from(PAGE_ROWS + 1).unwrap_or(u32::MAX)),
            ..scope.filter.clone()
        };
        let mut entries = state.store().history(&filter).await?;
        let more = entries.len() > PAGE_ROWS;
        entries.truncate(PAGE_ROWS);
        let history_href = format!("{}/history", scope.href);
        let older = match (more, entries.last()) {
            (true, Some(last)) => Some(format!("{history_href}?before={}", last.id)),
            _ => None,
        };
        let zone = &scope.league.time_zone;
        let rows = entries.iter().map(|e| row(e, &scope.names, zone)).collect();
        let page = HistoryPage {
            layout: Layout {
                title: scope.title,
                heading: scope.heading,
                css: crate::ui::stylesheet::css_href(),
                crumbs: scope.crumbs,
                tabs: Vec::new(),
                api: None,
            },
            about: scope.about,
            csv_href: format!("{history_href}.csv"),
            rows,
            older,
            newest: before.map(|_| history_href),
        };
        let body = page.render().map_err(WebError::internal)?;
        Ok(private("text/html; charset=utf-8", body))
    };
    answer
        .await
        .unwrap_or_else(|e: WebError| e.answer(Format::Html))
}

fn parse_before(text: Option<&str>) -> Result<Option<i64>, WebError> {
    match text {
        None => Ok(None),
        Some(t) => match t.trim().parse::<i64>() {
            Ok(n) if n > 0 => Ok(Some(n)),
            _ => Err(bad_before(t)),
        },
    }
}

fn bad_before(text: &str) -> WebError {
    WebError::BadRequest(format!(
        "“{text}” is not a history row number: ?before= takes the number of a row, as the “Older changes” link at the foot of the page gives it."
    ))
}

/// A history row, its time in the league's zone.
fn row(e: &HistoryEntry, names: &HashMap<String, String>, zone: &arbiter_core::zone::Zone) -> Row {
    let value = e.after.as_ref().or(e.before.as_ref());
    Row {
        id: e.id,
        at_iso: e.at.to_string(),
        at_text: words::timestamp_in(e.at, zone),
        who: e
            .actor
            .clone()
            .unwrap_or_else(|| "system / command line".to_string()),
        role: e.role.map(|r| r.name().to_string()).unwrap_or_default(),
        what: what(e),
        object: object(e.entity, &e.entity_id, value, names),
        before: e.before.as_ref().map(|v| summary(e.entity, v, names)),
        after: e.after.as_ref().map(|v| summary(e.entity, v, names)),
        reason: e.reason.clone().unwrap_or_default(),
        json: full_json(e),
    }
}

/// The change in words; a pair the store does not write is shown by its codes.
fn what(e: &HistoryEntry) -> String {
    let phrase = match (e.entity, e.action) {
        (Entity::League, HistoryAction::Create) => "created the league",
        (Entity::Season, HistoryAction::Create) => "created the season",
        (Entity::School, HistoryAction::Create) => "added the school",
        (Entity::Closure, HistoryAction::Create) => "closed the schools",
        (Entity::Closure, HistoryAction::Withdraw) => "withdrew the closure",
        (Entity::Competition, HistoryAction::Import) => "imported the competition",
        (Entity::Competition, HistoryAction::Create) => "created the competition",
        (Entity::Team, HistoryAction::Import) => "imported the team",
        (Entity::Team, HistoryAction::Create) => "added the team",
        (_, HistoryAction::AddPlayer) => "added a player to the roster",
        (_, HistoryAction::NameLineup) => "named the lineup",
        (_, HistoryAction::MoveMatch) => "moved the match",
        (_, HistoryAction::RuleOnViolation) => "ruled that the result stands",
        (Entity::Team, HistoryAction::EditPlayer) => "changed a player's roster entry",
        (Entity::Team, HistoryAction::WithdrawPlayer) => "withdrew a player from the roster",
        (Entity::Match, HistoryAction::RecordResult) => {
            // Version 1 comes with the schedule; a result over no result is its entry, one over
            // another a correction (GT-P2).
            let had_result = e
                .before
                .as_ref()
                .and_then(|b| b.get("outcome"))
                .and_then(|o| o.get("kind"))
                .and_then(Value::as_str)
                .is_some_and(|k| k != "pending");
            if had_result {
                "corrected the result"
            } else {
                "entered the result"
            }
        }
        (Entity::Match, HistoryAction::ConfirmResult) => "confirmed the result",
        (Entity::Match, HistoryAction::DisputeResult) => "disputed the result",
        (Entity::User, HistoryAction::Create) => "created the account",
        (Entity::User, HistoryAction::SetPassword) => "set the password",
        (Entity::Membership, HistoryAction::Grant) => "gave the role",
        (Entity::Membership, HistoryAction::Revoke) => "took away the role",
        (Entity::Invite, HistoryAction::Create) => "invited",
        (Entity::Invite, HistoryAction::Accept) => "accepted the invitation",
        (Entity::Invite, HistoryAction::Withdraw) => "withdrew the invitation",
        (Entity::ApiToken, HistoryAction::Create) => "created an API token",
        (Entity::ApiToken, HistoryAction::Revoke) => "revoked an API token",
        (Entity::LedgerEntry, HistoryAction::RecordLedgerEntry) => {
            match e
                .after
                .as_ref()
                .and_then(|a| a.get("kind"))
                .and_then(Value::as_str)
            {
                Some("reversal") => "reversed a ledger entry",
                _ => "recorded a ledger entry",
            }
        }
        (Entity::Competition, HistoryAction::DecideTie) => "decided a tie for the playoffs",
        (Entity::Playoffs, HistoryAction::DrawPlayoffs) => "drew the playoffs",
        (Entity::Playoffs, HistoryAction::PairRound) => "paired a playoff round",
        (Entity::Playoffs, HistoryAction::RecordDecidingGame) => "entered a deciding game",
        (Entity::Playoffs, HistoryAction::CorrectDecidingGame) => "corrected a deciding game",
        (Entity::MediaReport, HistoryAction::DraftMediaReport) => "saved a media report's draft",
        (Entity::MediaReport, HistoryAction::PublishMediaReport) => "published a media report",
        (entity, action) => return format!("{entity}: {action}"),
    };
    phrase.to_string()
}

/// Which thing changed, from the row's JSON where it names it.
fn object(
    entity: Entity,
    id: &str,
    value: Option<&Value>,
    names: &HashMap<String, String>,
) -> String {
    let text = |k: &str| value.and_then(|v| v.get(k)).and_then(Value::as_str);
    match entity {
        Entity::Match => match (
            value.and_then(|v| v.get("round")).and_then(Value::as_u64),
            text("home"),
            text("away"),
        ) {
            (Some(r), Some(h), Some(a)) => {
                format!("round {r}: {} \u{2013} {}", team(h, names), team(a, names))
            }
            _ => format!("match {id}"),
        },
        Entity::FieldLot => format!(
            "the lot of {id}'s invitation order (seed {})",
            text("seed").unwrap_or("?")
        ),
        Entity::Team => format!("team {}", text("name").unwrap_or(id)),
        Entity::User => format!("account {}", text("email").unwrap_or(id)),
        Entity::Membership => match (text("user"), text("role")) {
            (Some(u), Some(r)) => format!("{u} as {}", role_name(r)),
            _ => format!("role {id}"),
        },
        Entity::Invite => match (text("email"), text("role")) {
            (Some(u), Some(r)) => format!("{u} as {}", role_name(r)),
            _ => format!("invitation {id}"),
        },
        Entity::ApiToken => match text("label") {
            Some(l) if !l.is_empty() => format!("token “{l}”"),
            _ => format!("token {}", text("prefix").unwrap_or(id)),
        },
        Entity::Closure => match (text("reason"), text("from"), text("to")) {
            (Some(r), Some(a), Some(b)) if a == b => format!("closure “{r}” on {a}"),
            (Some(r), Some(a), Some(b)) => format!("closure “{r}” from {a} to {b}"),
            _ => format!("closure {id}"),
        },
        Entity::LedgerEntry => match (
            value.and_then(|v| v.get("number")).and_then(Value::as_u64),
            text("season"),
        ) {
            (Some(n), Some(season)) => format!("ledger entry {n} of {season}"),
            _ => format!("ledger entry {id}"),
        },
        Entity::Playoffs => "the playoffs".to_string(),
        Entity::MediaReport => match (text("moment"), text("season")) {
            (Some(m), Some(season)) => format!("the {m} report of {season}"),
            _ => format!("media report {id}"),
        },
        Entity::League | Entity::Season | Entity::School | Entity::Competition => {
            format!("{entity} {}", text("name").unwrap_or(id))
        }
    }
}

fn team<'a>(id: &'a str, names: &'a HashMap<String, String>) -> &'a str {
    names.get(id).map_or(id, String::as_str)
}

fn role_name(code: &str) -> String {
    Role::from_code(code).map_or_else(|| code.to_string(), |r| r.name().to_string())
}

/// A short reading of one side of a change: a result as its score and boards, a review as the
/// version it reviews, anything else as `key: value` pairs.
fn summary(entity: Entity, v: &Value, names: &HashMap<String, String>) -> String {
    if entity == Entity::Match {
        let version = v.get("version").and_then(Value::as_i64);
        if let Some(o) = v.get("outcome") {
            let home = v.get("home").and_then(Value::as_str).unwrap_or("home");
            let away = v.get("away").and_then(Value::as_str).unwrap_or("away");
            let text = outcome(o, team(home, names), team(away, names));
            return match version {
                Some(n) => format!("version {n}: {text}"),
                None => text,
            };
        }
        if let (Some(n), Some(kind)) = (version, v.get("kind").and_then(Value::as_str)) {
            return format!("version {n} {kind}");
        }
    }
    compact(v)
}

/// `3–1 (boards 1–0 ½–½ 1–0 +/−)`, `Clay Eagles forfeited the match`, `no result yet`.
fn outcome(o: &Value, home: &str, away: &str) -> String {
    match o.get("kind").and_then(Value::as_str) {
        Some("boards") => {
            let results: Vec<GameResult> = o
                .get("boards")
                .and_then(Value::as_array)
                .map(|bs| {
                    bs.iter()
                        .map(|b| {
                            b.get("result")
                                .and_then(Value::as_str)
                                .and_then(GameResult::parse)
                                .unwrap_or(GameResult::Pending)
                        })
                        .collect()
                })
                .unwrap_or_default();
            if results.iter().all(|r| *r == GameResult::Pending) {
                return "no result yet".to_string();
            }
            let (mut h, mut a) = (0.0, 0.0);
            for r in &results {
                let (x, y) = match r {
                    GameResult::HomeWin | GameResult::HomeWinByForfeit => (1.0, 0.0),
                    GameResult::AwayWin | GameResult::AwayWinByForfeit => (0.0, 1.0),
                    GameResult::Draw => (0.5, 0.5),
                    GameResult::DoubleForfeit | GameResult::Pending => (0.0, 0.0),
                };
                h += x;
                a += y;
            }
            let boards: Vec<&str> = results.iter().map(|r| words::board_result(*r)).collect();
            let so_far = if results.contains(&GameResult::Pending) {
                " so far"
            } else {
                ""
            };
            format!(
                "{}{so_far} (boards {})",
                words::score(h, a),
                boards.join(" ")
            )
        }
        Some("forfeit") => match o.get("by").and_then(Value::as_str) {
            Some("home") => format!("{home} forfeited the match"),
            Some("away") => format!("{away} forfeited the match"),
            _ => "forfeit".to_string(),
        },
        Some("double_forfeit") => "both teams forfeited the match".to_string(),
        Some("pending") => "no result yet".to_string(),
        _ => compact(o),
    }
}

/// Longest summary of one value on the page; the full JSON is under the row.
const SUMMARY_CHARS: usize = 240;

/// `name: Clay Eagles, school: Clay High School, players: 4 entries`; an object inside one is
/// read one level deeper, in brackets: `rules: (preset: gthscl)`.
fn compact(v: &Value) -> String {
    let text = match v {
        Value::Object(map) => pairs(map, 1),
        other => scalar(other, 1),
    };
    shorten(&text, SUMMARY_CHARS)
}

fn pairs(map: &serde_json::Map<String, Value>, depth: u8) -> String {
    map.iter()
        .map(|(k, x)| format!("{k}: {}", scalar(x, depth)))
        .collect::<Vec<_>>()
        .join(", ")
}

fn scalar(v: &Value, depth: u8) -> String {
    match v {
        Value::Null => "none".to_string(),
        Value::String(s) => s.clone(),
        Value::Array(a) if a.len() == 1 => "1 entry".to_string(),
        Value::Array(a) => format!("{} entries", a.len()),
        Value::Object(map) if depth < 2 => format!("({})", pairs(map, depth + 1)),
        Value::Object(_) => "(\u{2026})".to_string(),
        other => other.to_string(),
    }
}

fn shorten(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        Some((i, _)) => format!("{}\u{2026}", &s[..i]),
        None => s.to_string(),
    }
}

/// Longest stored value under a row (an imported competition holds every round); the CSV has
/// all of it.
const JSON_CHARS: usize = 4000;

fn full_json(e: &HistoryEntry) -> String {
    let side = |v: &Option<Value>| {
        let text = v
            .as_ref()
            .and_then(|v| serde_json::to_string_pretty(v).ok())
            .unwrap_or_else(|| "none".to_string());
        if text.chars().count() > JSON_CHARS {
            format!("{} (the CSV has all of it)", shorten(&text, JSON_CHARS))
        } else {
            text
        }
    };
    format!("before: {}\nafter: {}", side(&e.before), side(&e.after))
}

// ---------------------------------------------------------------------------------------------
// CSV

const CSV_HEADER: &str = "id,at,actor,role,entity,entity_id,action,before,after,reason";

async fn csv(state: &AppState, auth: &Auth, address: Result<Address, PathRejection>) -> Response {
    let answer = async {
        let scope = allowed(state, auth, address).await?;
        let entries = state.store().history(&scope.filter).await?;
        let name = format!("{}-history.csv", file_name(&scope.file));
        Ok(download(
            "text/csv; charset=utf-8",
            csv_text(&entries),
            &name,
        ))
    };
    answer
        .await
        .unwrap_or_else(|e: WebError| e.answer(Format::Html))
}

/// The rows as CSV (`arbiter_formats::csv`: RFC 4180, no cell a spreadsheet runs), newest
/// first, before and after as compact JSON.
pub fn csv_text(entries: &[HistoryEntry]) -> String {
    let mut out = csv::Writer::new();
    out.record(CSV_HEADER.split(','));
    for e in entries {
        let json = |v: &Option<Value>| v.as_ref().map(Value::to_string).unwrap_or_default();
        out.record([
            e.id.to_string(),
            e.at.to_string(),
            e.actor.clone().unwrap_or_default(),
            e.role.map(Role::code).unwrap_or_default().to_string(),
            e.entity.code().to_string(),
            e.entity_id.clone(),
            e.action.code().to_string(),
            json(&e.before),
            json(&e.after),
            e.reason.clone().unwrap_or_default(),
        ]);
    }
    out.finish()
}

/// Slugs and team ids are the league's own text: anything but letters, digits, `-`, `_` and
/// `.` becomes `_`, so the header stays one valid quoted string.
fn file_name(stem: &str) -> String {
    stem.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// A per-request answer that names people: never kept by a cache.
fn private(content_type: &'static str, body: impl Into<Body>) -> Response {
    let mut r = Response::new(body.into());
    let h = r.headers_mut();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    h.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("private, no-store"),
    );
    security_headers(h);
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 9 item 9: a reason, a name or an id that a spreadsheet would run, split on `,`,
    /// `;` or a tab, reaches none of it as a formula, and reads back behind its apostrophe.
    #[test]
    fn no_history_cell_reads_as_a_formula_whichever_separator_the_spreadsheet_splits_on() {
        let typed = [
            "x;=cmd|' /C calc'!A0",
            "=cmd|' /C calc'!A0",
            "+1+1",
            "-1+1",
            "@SUM(A1)",
            "\t=1+1",
            "\r=1+1",
        ];
        let entries: Vec<HistoryEntry> = typed
            .iter()
            .zip(1..)
            .map(|(t, id)| HistoryEntry {
                id,
                at: jiff::Timestamp::UNIX_EPOCH,
                actor: Some((*t).to_string()),
                role: Some(Role::President),
                entity: Entity::Match,
                entity_id: (*t).to_string(),
                action: HistoryAction::RecordResult,
                before: Some(serde_json::json!(t)),
                after: Some(serde_json::json!({ "reason": t })),
                reason: Some((*t).to_string()),
            })
            .collect();
        let text = csv_text(&entries);
        for separator in [',', ';', '\t'] {
            let records = csv::read(&text, separator);
            assert_eq!(records.len(), typed.len() + 1, "{separator:?}: {text:?}");
            for c in records.iter().flatten() {
                assert!(!csv::reads_as_formula(c), "{separator:?}: {c:?}");
            }
        }
        let records = csv::read(&text, ',');
        for (r, t) in records[1..].iter().zip(typed) {
            assert_eq!(r.len(), 10, "{r:?}");
            for i in [2, 5, 9] {
                assert_eq!(r[i].replace('\'', ""), t.replace('\'', ""), "{r:?}");
            }
        }
    }

    #[test]
    fn file_names_keep_to_safe_characters() {
        assert_eq!(file_name("gthscl-2026-27"), "gthscl-2026-27");
        assert_eq!(file_name("a\"b c/é"), "a_b_c__");
    }

    #[test]
    fn results_read_as_score_and_boards() {
        let names = HashMap::from([("clay".to_string(), "Clay Eagles".to_string())]);
        let v = serde_json::json!({
            "version": 2, "round": 4, "home": "drop", "away": "clay",
            "outcome": {"kind": "boards", "boards": [
                {"board": 1, "result": "1-0"}, {"board": 2, "result": "1/2-1/2"},
                {"board": 3, "result": "0-1"}, {"board": 4, "result": "-/+"}]}
        });
        assert_eq!(
            summary(Entity::Match, &v, &names),
            "version 2: 1½\u{2013}2½ (boards 1\u{2013}0 ½\u{2013}½ 0\u{2013}1 \u{2212}/+)"
        );
        let f = serde_json::json!({"version": 3, "round": 4, "home": "drop", "away": "clay",
            "outcome": {"kind": "forfeit", "by": "away"}});
        assert_eq!(
            summary(Entity::Match, &f, &names),
            "version 3: Clay Eagles forfeited the match"
        );
        assert_eq!(
            compact(&serde_json::json!({"name": "X", "school": null, "players": [1, 2]})),
            "name: X, school: none, players: 2 entries"
        );
        assert_eq!(
            compact(&serde_json::json!({"rules": {"preset": "gthscl"},
                "competition": {"name": "A", "teams": [1], "deep": {"x": 1}}})),
            "rules: (preset: gthscl), competition: (name: A, teams: 1 entry, deep: (\u{2026}))"
        );
    }
}
