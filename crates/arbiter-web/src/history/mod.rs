//! The history of changes (issue 5): who changed what, when, in which role, from what to what
//! and why, for a league, a season, a competition, a team or a match, as a page and as CSV.
//!
//! Only readers the permission table allows (`Action::ReadHistory`) see it: officers read all of
//! it, an advisor the history of their own school's teams and matches. Both answers are per
//! request and never cached (`private, no-store`): they name people.

use arbiter_core::TeamId;
use arbiter_core::record::model::Pairing;
use arbiter_core::rules::permissions::{Action, Role, Target};
use arbiter_formats::csv;
use arbiter_store::{Entity, HistoryEntry, HistoryFilter, League};
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
use crate::ui::words::segment;

mod sentence;

/// Rows on one page, newest first; `?before=<id>` shows the next older ones.
const PAGE_ROWS: usize = 50;

/// The log's filters, as a plain GET form sends them (issue 32): a school by its name, a
/// person by their email, the first and last day (`2026-11-14`, in the league's zone), and
/// `before=<id>`, the rows older than that row. Text, so that a wrong value gets a sentence
/// rather than the extractor's message; an empty field is no filter.
#[derive(Debug, Default, serde::Deserialize)]
pub struct Filters {
    before: Option<String>,
    school: Option<String>,
    person: Option<String>,
    from: Option<String>,
    to: Option<String>,
}

type Asked = Result<Query<Filters>, QueryRejection>;
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
    query: Asked,
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
    query: Asked,
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
    query: Asked,
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
    query: Asked,
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
    query: Asked,
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
    /// Whether the log may be narrowed to a school: not on a team's or a match's own.
    school_filter: bool,
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
                conduct: arbiter_core::rules::permissions::Conduct::default(),
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
                school_filter: true,
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
                school_filter: true,
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
                school_filter: true,
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
                school_filter: false,
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
                school_filter: false,
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
    if !auth::may_in_league(auth, scope.league.id, Action::ReadLedger) {
        scope.filter.hidden.push(Entity::LedgerEntry);
    }
    Ok(scope)
}

// ---------------------------------------------------------------------------------------------
// The page

/// One change, said as a sentence of the log.
#[derive(Debug)]
pub struct Row {
    pub id: i64,
    /// RFC 3339, for `<time datetime>`.
    pub at_iso: String,
    /// `Sat 14 Nov 2026 18:02`, in the league's zone.
    pub at_text: String,
    /// `Ann Advisor (Whitmer High School) entered the result of Metro round 3, …`.
    pub sentence: String,
    pub reason: String,
    /// The stored before and after, in full, for whoever needs more than the sentence.
    pub json: String,
}

/// The filter form's choices: (value, label, chosen).
#[derive(Debug)]
pub struct Choice {
    pub value: String,
    pub label: String,
    pub chosen: bool,
}

#[derive(Template)]
#[template(path = "history/history.html", whitespace = "minimize")]
struct HistoryPage {
    layout: Layout,
    about: String,
    /// `Eastern Time (America/New_York)`: the zone the times are in.
    zone: String,
    csv_href: String,
    /// The page's own address, the filter form's action.
    action: String,
    schools: Vec<Choice>,
    people: Vec<Choice>,
    from: String,
    to: String,
    /// Whether any filter is set (then the form offers to clear them).
    filtered: bool,
    rows: Vec<Row>,
    /// The next older page, the filters kept, when there is one.
    older: Option<String>,
    /// The first page's address, the filters kept, when this is not it.
    newest: Option<String>,
}

async fn page(
    state: &AppState,
    auth: &Auth,
    address: Result<Address, PathRejection>,
    query: Asked,
) -> Response {
    let answer = async {
        let scope = allowed(state, auth, address).await?;
        let Ok(Query(asked)) = query else {
            return Err(WebError::BadRequest(
                "The history's address has a filter it cannot read: use the form above the log to choose a school, a person or dates.".to_string(),
            ));
        };
        let store = state.store();
        let schools = store.schools(scope.league.id).await?;
        let members = store.league_members(scope.league.id).await?;
        let people = sentence::People::new(&members);
        let zone = &scope.league.time_zone;
        let chosen = Chosen::read(&asked, &schools, zone)?;
        // One row more than the page shows, to know whether there are older ones.
        let filter = HistoryFilter {
            before: chosen.before,
            limit: Some(u32::try_from(PAGE_ROWS + 1).unwrap_or(u32::MAX)),
            school: chosen.school.as_ref().map(|s| s.id),
            actor: chosen.person.clone(),
            from: chosen.from_at,
            until: chosen.until_at,
            ..scope.filter.clone()
        };
        let mut entries = store.history(&filter).await?;
        let more = entries.len() > PAGE_ROWS;
        entries.truncate(PAGE_ROWS);
        let history_href = format!("{}/history", scope.href);
        let older = match (more, entries.last()) {
            (true, Some(last)) => Some(chosen.href(&history_href, Some(last.id))),
            _ => None,
        };
        let rows = entries.iter().map(|e| row(e, &people, zone)).collect();
        let school_name = chosen.school.as_ref().map(|s| s.name.as_str());
        let mut school_choices = vec![Choice {
            value: String::new(),
            label: "Every school".to_string(),
            chosen: school_name.is_none(),
        }];
        school_choices.extend(schools.iter().map(|s| Choice {
            value: s.name.clone(),
            label: s.name.clone(),
            chosen: Some(s.name.as_str()) == school_name,
        }));
        let mut people_choices = vec![Choice {
            value: String::new(),
            label: "Anyone".to_string(),
            chosen: chosen.person.is_none(),
        }];
        people_choices.extend(people.choices().into_iter().map(|(email, name)| Choice {
            chosen: chosen.person.as_deref() == Some(email.as_str()),
            label: name,
            value: email,
        }));
        if let Some(p) = &chosen.person
            && !people_choices.iter().any(|c| c.chosen)
        {
            people_choices.push(Choice {
                value: p.clone(),
                label: p.clone(),
                chosen: true,
            });
        }
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
            zone: zone.name().to_string(),
            csv_href: format!("{history_href}.csv"),
            action: history_href.clone(),
            schools: if scope.school_filter {
                school_choices
            } else {
                Vec::new()
            },
            people: people_choices,
            from: chosen.from.map(|d| d.to_string()).unwrap_or_default(),
            to: chosen.to.map(|d| d.to_string()).unwrap_or_default(),
            filtered: chosen.filtered(),
            rows,
            older,
            newest: chosen.before.map(|_| chosen.href(&history_href, None)),
        };
        let body = page.render().map_err(WebError::internal)?;
        Ok(private("text/html; charset=utf-8", body))
    };
    answer
        .await
        .unwrap_or_else(|e: WebError| e.answer(Format::Html))
}

/// The filters as read: a school of the league, a person's email, a first and a last day
/// (in the league's zone), and the paging cursor.
struct Chosen {
    school: Option<arbiter_store::School>,
    person: Option<String>,
    from: Option<jiff::civil::Date>,
    to: Option<jiff::civil::Date>,
    from_at: Option<jiff::Timestamp>,
    until_at: Option<jiff::Timestamp>,
    before: Option<i64>,
}

impl Chosen {
    fn read(
        asked: &Filters,
        schools: &[arbiter_store::School],
        zone: &arbiter_core::record::zone::Zone,
    ) -> Result<Chosen, WebError> {
        let given = |v: &Option<String>| {
            v.as_deref()
                .map(str::trim)
                .filter(|t| !t.is_empty())
                .map(str::to_string)
        };
        let school = match given(&asked.school) {
            None => None,
            Some(name) => match schools.iter().find(|s| s.name == name) {
                Some(s) => Some(s.clone()),
                None => {
                    return Err(WebError::BadRequest(format!(
                        "The league has no school “{name}”: choose one from the list of schools above the log."
                    )));
                }
            },
        };
        let day = |v: &Option<String>,
                   which: &str|
         -> Result<Option<jiff::civil::Date>, WebError> {
            match given(v) {
                None => Ok(None),
                Some(t) => t.parse().map(Some).map_err(|_| {
                    WebError::BadRequest(format!(
                        "“{t}” is not a date for the {which} day of the history: write it as 2026-11-14."
                    ))
                }),
            }
        };
        let from = day(&asked.from, "first")?;
        let to = day(&asked.to, "last")?;
        // A day runs from its midnight in the league's zone to the next one's.
        let midnight = |d: jiff::civil::Date| {
            zone.instant(d.at(0, 0, 0, 0)).ok_or_else(|| {
                WebError::internal(format!("{d} has no midnight in {}", zone.name()))
            })
        };
        let from_at = from.map(midnight).transpose()?;
        let until_at = match to {
            Some(d) => Some(midnight(d.tomorrow().map_err(WebError::internal)?)?),
            None => None,
        };
        Ok(Chosen {
            school,
            person: given(&asked.person).map(|p| p.to_lowercase()),
            from,
            to,
            from_at,
            until_at,
            before: parse_before(asked.before.as_deref())?,
        })
    }

    fn filtered(&self) -> bool {
        self.school.is_some() || self.person.is_some() || self.from.is_some() || self.to.is_some()
    }

    /// The history's address with these filters, and a cursor when given.
    fn href(&self, base: &str, before: Option<i64>) -> String {
        let mut q = form_urlencoded::Serializer::new(String::new());
        if let Some(s) = &self.school {
            q.append_pair("school", &s.name);
        }
        if let Some(p) = &self.person {
            q.append_pair("person", p);
        }
        if let Some(d) = self.from {
            q.append_pair("from", &d.to_string());
        }
        if let Some(d) = self.to {
            q.append_pair("to", &d.to_string());
        }
        if let Some(b) = before {
            q.append_pair("before", &b.to_string());
        }
        let q = q.finish();
        if q.is_empty() {
            base.to_string()
        } else {
            format!("{base}?{q}")
        }
    }
}

fn parse_before(text: Option<&str>) -> Result<Option<i64>, WebError> {
    match text.map(str::trim).filter(|t| !t.is_empty()) {
        None => Ok(None),
        Some(t) => match t.parse::<i64>() {
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

/// A history row as a sentence, its time in the league's zone.
fn row(
    e: &HistoryEntry,
    people: &sentence::People,
    zone: &arbiter_core::record::zone::Zone,
) -> Row {
    Row {
        id: e.id,
        at_iso: e.at.to_string(),
        at_text: zone.local(e.at).strftime("%a %-d %b %Y %H:%M").to_string(),
        sentence: format!("{} {}.", people.who(e), sentence::deed(e)),
        reason: e.reason.clone().unwrap_or_default(),
        json: full_json(e),
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
    use arbiter_store::HistoryAction;

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
                competition: None,
                competition_name: None,
                on_match: None,
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
}
