//! The season set-up, for the President (issue 12, part 1): the league's seasons and their
//! school calendars (the first and last days, the closures, GT-M2), its schools (GT-O1) with
//! their postal addresses (issue 32: where their home matches are, GT-M1), and
//! its divisions, each drawn from a list of teams into a round robin on the match days
//! (`division`). Every change is a change in the store's history, with who and why.

mod division;
pub(crate) mod rating_lists;
pub(crate) mod settings;

use arbiter_core::record::text::PostalAddress;
use arbiter_core::rules::permissions::Action;
use arbiter_store::{NewClosure, NewSeason, School, SeasonClosure};
use askama::Template;
use axum::Form;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::Response;
use serde::Deserialize;

use crate::app::respond::{private, see_other};
use crate::app::site::{self, LeagueTree};
use crate::app::state::AppState;
use crate::http::auth::{self, Acting, Auth};
use crate::http::csrf;
use crate::http::error::WebError;
use crate::ui::layout::{Layout, private_layout};
use crate::ui::link::{Link, competition_href, league_href, suspension_href};
use crate::ui::words;

pub use division::create_division;
pub use rating_lists::{import_rating_list, rating_lists_page};
pub use settings::{save_settings, settings_page};

/// One season as the page lists it: its days, its divisions and its closures.
struct SeasonLine {
    slug: String,
    name: String,
    days: String,
    divisions: Vec<Link>,
    closures: Vec<ClosureLine>,
    /// GT-F5: its suspension page, for those the table lets suspend the schedule.
    suspend: Option<String>,
    /// GT-O3: its schedule to the schools, for those the table lets send it.
    send_schedule: Option<String>,
    /// Issue 32 item 5: its settings (the fee, the playoffs, GT-P2's days), for those the
    /// table lets change the rules.
    settings: Option<String>,
}

struct ClosureLine {
    id: i64,
    text: String,
    withdrawn: bool,
}

struct Choice {
    value: String,
    label: String,
    selected: bool,
}

/// A school as the page lists it, with its address to change (issue 32).
struct SchoolLine {
    id: i64,
    name: String,
    /// On one line, as a team's page shows it; empty when none is set.
    address: String,
    /// In the form: its lines as kept, or as typed when a change was refused.
    typed: String,
    /// The form is open: its change was refused.
    open: bool,
}

#[derive(Template)]
#[template(path = "setup/setup.html", whitespace = "minimize")]
struct SetupPage {
    layout: Layout,
    csrf: String,
    base: String,
    seasons: Vec<SeasonLine>,
    season_choices: Vec<Choice>,
    schools: Vec<SchoolLine>,
    /// The league's IANA time zone (RULES.md, "Time").
    time_zone: String,
    people: String,
    /// Issue 34: the league's published rating lists, for those the table lets change rules.
    rating_lists: Option<String>,
    notice: Option<String>,
    problems: Vec<String>,
    forms: Forms,
    division: division::DivisionBlock,
}

/// What the small forms held when one was refused, so nothing typed is lost.
#[derive(Debug, Default)]
struct Forms {
    season: SeasonForm,
    closure: ClosureForm,
    school: SchoolForm,
    time_zone: TimeZoneForm,
    address: Option<SchoolAddressForm>,
}

/// A new season: its name, its address, its first and last days.
#[derive(Debug, Default, Clone, Deserialize)]
pub struct SeasonForm {
    #[serde(default)]
    name: String,
    #[serde(default)]
    slug: String,
    #[serde(default)]
    starts_on: String,
    #[serde(default)]
    ends_on: String,
}

/// Days a season's schools are closed (GT-M2).
#[derive(Debug, Default, Clone, Deserialize)]
pub struct ClosureForm {
    #[serde(default)]
    season: String,
    #[serde(default)]
    from: String,
    #[serde(default)]
    to: String,
    #[serde(default)]
    reason: String,
}

/// A closure withdrawn, with the reason.
#[derive(Debug, Default, Deserialize)]
pub struct WithdrawClosureForm {
    #[serde(default)]
    season: String,
    #[serde(default)]
    closure: i64,
    #[serde(default)]
    reason: String,
}

/// The zone the league's days and times are counted in (RULES.md, "Time").
#[derive(Debug, Default, Clone, Deserialize)]
pub struct TimeZoneForm {
    #[serde(default)]
    time_zone: String,
}

/// A school joining the league (GT-O1).
#[derive(Debug, Default, Clone, Deserialize)]
pub struct SchoolForm {
    #[serde(default)]
    name: String,
}

/// A school's postal address, set, changed or cleared (issue 32).
#[derive(Debug, Default, Clone, Deserialize)]
pub struct SchoolAddressForm {
    #[serde(default)]
    school: i64,
    #[serde(default)]
    address: String,
}

pub(crate) fn setup_href(league: &str) -> String {
    format!("{}/setup", league_href(league))
}

async fn guard(
    state: &AppState,
    auth: &Auth,
    league: &str,
    action: Action,
) -> Result<(LeagueTree, Acting), WebError> {
    site::league_officer(state, auth, league, action).await
}

fn closure_text(c: &SeasonClosure) -> String {
    let days = if c.starts_on == c.ends_on {
        words::date(c.starts_on)
    } else {
        format!("{} to {}", words::date(c.starts_on), words::date(c.ends_on))
    };
    format!("{}: {days}", c.reason)
}

/// What the page says, besides the forms' own values.
struct Said {
    notice: Option<String>,
    problems: Vec<String>,
    forms: Forms,
    division: division::Shown,
}

impl Said {
    fn nothing() -> Said {
        Said {
            notice: None,
            problems: Vec::new(),
            forms: Forms::default(),
            division: division::Shown::default(),
        }
    }

    fn refused(problems: Vec<String>, forms: Forms) -> Said {
        Said {
            problems,
            forms,
            ..Said::nothing()
        }
    }
}

async fn page(
    state: &AppState,
    auth: &Auth,
    tree: &LeagueTree,
    said: Said,
    status: StatusCode,
) -> Result<Response, WebError> {
    let store = state.store();
    let league = &tree.league.slug;
    let may_suspend = auth::may_in_league(auth, tree.league.id, Action::SuspendSchedule);
    let may_send = auth::may_in_league(auth, tree.league.id, Action::SendScheduleToSchools);
    let may_edit_rules = auth::may_in_league(auth, tree.league.id, Action::EditRules);
    let mut seasons = Vec::new();
    for (s, comps) in tree.seasons.iter().rev() {
        let closures = store
            .closures(s.id)
            .await?
            .iter()
            .map(|c| ClosureLine {
                id: c.id,
                text: closure_text(c),
                withdrawn: c.withdrawn,
            })
            .collect();
        // Issue 32 item 24: a season offers what its competitions' rules have.
        let offers = comps
            .iter()
            .filter_map(|c| site::rules_of(&c.rules))
            .map(|r| arbiter_core::season::offers::Offers::of(&r))
            .fold(arbiter_core::season::offers::Offers::default(), |a, b| {
                a.union(b)
            });
        let days = match (s.starts_on, s.ends_on) {
            (Some(a), Some(b)) => format!("{} to {}", words::date(a), words::date(b)),
            _ => "no dates yet".to_string(),
        };
        seasons.push(SeasonLine {
            slug: s.slug.clone(),
            name: s.name.clone(),
            days,
            divisions: comps
                .iter()
                .map(|c| Link::new(competition_href(league, &s.slug, &c.slug), &c.name))
                .collect(),
            closures,
            suspend: (may_suspend && offers.school_calendar)
                .then(|| suspension_href(league, &s.slug)),
            send_schedule: (may_send && offers.school_calendar)
                .then(|| crate::schedule_mail::send_schedule_href(league, &s.slug)),
            settings: (may_edit_rules && !comps.is_empty())
                .then(|| settings::settings_href(league, &s.slug)),
        });
    }
    let chosen = if said.forms.closure.season.is_empty() {
        said.division.form.season.clone()
    } else {
        said.forms.closure.season.clone()
    };
    let season_choices = tree
        .seasons
        .iter()
        .rev()
        .enumerate()
        .map(|(i, (s, _))| Choice {
            selected: s.slug == chosen || (chosen.is_empty() && i == 0),
            value: s.slug.clone(),
            label: s.name.clone(),
        })
        .collect();
    let refused = said.forms.address.as_ref();
    let schools = store
        .schools(tree.league.id)
        .await?
        .into_iter()
        .map(|School { id, name, address }| {
            let typed = refused
                .filter(|f| f.school == id.0)
                .map(|f| f.address.clone());
            SchoolLine {
                id: id.0,
                name,
                address: address.as_ref().map_or_else(String::new, |a| a.one_line()),
                open: typed.is_some(),
                typed: typed.unwrap_or_else(|| {
                    address.map_or_else(String::new, |a| a.as_str().to_string())
                }),
            }
        })
        .collect();
    let page = SetupPage {
        layout: private_layout(
            &format!("Season set-up: {}", tree.league.name),
            vec![Link::new(league_href(league), &tree.league.name)],
        ),
        csrf: csrf::session_token(&auth.session).await?,
        base: setup_href(league),
        seasons,
        season_choices,
        schools,
        time_zone: tree.league.time_zone.to_string(),
        people: format!("{}/people", league_href(league)),
        rating_lists: may_edit_rules.then(|| rating_lists::rating_lists_href(league)),
        notice: said.notice,
        problems: said.problems,
        forms: said.forms,
        division: division::shown(tree, said.division),
    };
    Ok(private(status, &page))
}

/// The page again, with the problems and what was typed: nothing was saved.
async fn refuse(
    state: &AppState,
    auth: &Auth,
    tree: &LeagueTree,
    problems: Vec<String>,
    forms: Forms,
) -> Result<Response, WebError> {
    let said = Said::refused(problems, forms);
    page(state, auth, tree, said, StatusCode::UNPROCESSABLE_ENTITY).await
}

/// The answer to a set-up form's write: back to the page at `anchor` when the store took the
/// change; else the page again with the store's sentence and what was typed.
async fn saved<T>(
    state: &AppState,
    auth: &Auth,
    tree: &LeagueTree,
    written: Result<T, arbiter_store::StoreError>,
    anchor: &str,
    forms: Forms,
) -> Result<Response, WebError> {
    match written {
        Ok(_) => {
            state.invalidate();
            let to = format!("{}#{anchor}", setup_href(&tree.league.slug));
            Ok(see_other(&to))
        }
        Err(e) => {
            let problems = vec![WebError::from_write(e).message()];
            refuse(state, auth, tree, problems, forms).await
        }
    }
}

/// GET `/leagues/{league}/setup`: the seasons, schools and divisions, and their forms.
pub async fn setup_page(
    State(state): State<AppState>,
    auth: Auth,
    Path(league): Path<String>,
) -> Result<Response, WebError> {
    let (tree, _) = guard(&state, &auth, &league, Action::CreateSeason).await?;
    page(&state, &auth, &tree, Said::nothing(), StatusCode::OK).await
}

fn day(field: &str, text: &str) -> Result<jiff::civil::Date, String> {
    text.trim().parse().map_err(|_| {
        format!(
            "{field}: “{}” is not a date; write it as YYYY-MM-DD, e.g. 2027-01-18.",
            text.trim()
        )
    })
}

/// POST `/leagues/{league}/setup/seasons`: a new season, with its first and last days.
pub async fn create_season(
    State(state): State<AppState>,
    auth: Auth,
    Path(league): Path<String>,
    Form(f): Form<SeasonForm>,
) -> Result<Response, WebError> {
    let (tree, acting) = guard(&state, &auth, &league, Action::CreateSeason).await?;
    let kept = || Forms {
        season: f.clone(),
        ..Forms::default()
    };
    let starts = day("The first day", &f.starts_on);
    let ends = day("The last day", &f.ends_on);
    let slug = match f.slug.trim() {
        "" => arbiter_core::record::text::slug(&f.name),
        s => Some(s.to_string()),
    };
    let (starts, ends, slug) = match (starts, ends, slug) {
        (Ok(a), Ok(b), Some(slug)) => (a, b, slug),
        (a, b, slug) => {
            let mut problems: Vec<String> = [a.err(), b.err()].into_iter().flatten().collect();
            if slug.is_none() {
                problems.push("Give the season a name, such as “2027–28”.".into());
            }
            return refuse(&state, &auth, &tree, problems, kept()).await;
        }
    };
    let new = NewSeason {
        slug,
        name: f.name.trim().to_string(),
        starts_on: Some(starts),
        ends_on: Some(ends),
    };
    let written = state
        .store()
        .create_season(tree.league.id, &new, &acting.actor())
        .await;
    saved(&state, &auth, &tree, written, "seasons", kept()).await
}

/// POST `/leagues/{league}/setup/closures`: the schools of a season closed on some days (GT-M2).
pub async fn add_closure(
    State(state): State<AppState>,
    auth: Auth,
    Path(league): Path<String>,
    Form(f): Form<ClosureForm>,
) -> Result<Response, WebError> {
    let (tree, acting) = guard(&state, &auth, &league, Action::DrawSchedule).await?;
    let kept = || Forms {
        closure: f.clone(),
        ..Forms::default()
    };
    let season = tree.seasons.iter().find(|(s, _)| s.slug == f.season);
    let from = day("The first day closed", &f.from);
    let to = if f.to.trim().is_empty() {
        from.clone()
    } else {
        day("The last day closed", &f.to)
    };
    let (season, from, to) = match (season, from, to) {
        (Some((s, _)), Ok(a), Ok(b)) => (s, a, b),
        (s, a, b) => {
            let mut problems: Vec<String> = [a.err(), b.err()].into_iter().flatten().collect();
            if s.is_none() {
                problems.push("Choose the season the closure is in.".into());
            }
            return refuse(&state, &auth, &tree, problems, kept()).await;
        }
    };
    let new = NewClosure {
        starts_on: from,
        ends_on: to,
        reason: f.reason.trim().to_string(),
    };
    let written = state
        .store()
        .add_closure(season.id, &new, &acting.actor())
        .await;
    saved(&state, &auth, &tree, written, "seasons", kept()).await
}

/// POST `/leagues/{league}/setup/closures/withdraw`: a closure added by mistake withdrawn.
pub async fn withdraw_closure(
    State(state): State<AppState>,
    auth: Auth,
    Path(league): Path<String>,
    Form(f): Form<WithdrawClosureForm>,
) -> Result<Response, WebError> {
    let (tree, acting) = guard(&state, &auth, &league, Action::DrawSchedule).await?;
    let Some((season, _)) = tree.seasons.iter().find(|(s, _)| s.slug == f.season) else {
        return Err(WebError::not_found(format!(
            "{} has no season `{}`",
            tree.league.name, f.season
        )));
    };
    let written = state
        .store()
        .withdraw_closure(season.id, f.closure, &f.reason, &acting.actor())
        .await;
    saved(&state, &auth, &tree, written, "seasons", Forms::default()).await
}

/// POST `/leagues/{league}/setup/schools`: a school joins the league (GT-O1).
pub async fn add_school(
    State(state): State<AppState>,
    auth: Auth,
    Path(league): Path<String>,
    Form(f): Form<SchoolForm>,
) -> Result<Response, WebError> {
    let (tree, acting) = guard(&state, &auth, &league, Action::CreateSeason).await?;
    let written = state
        .store()
        .add_school(tree.league.id, &f.name, &acting.actor())
        .await;
    saved(
        &state,
        &auth,
        &tree,
        written,
        "schools",
        Forms {
            school: f.clone(),
            ..Forms::default()
        },
    )
    .await
}

/// POST `/leagues/{league}/setup/time-zone`: the league's time zone, an unknown one refused by
/// name.
pub async fn set_time_zone(
    State(state): State<AppState>,
    auth: Auth,
    Path(league): Path<String>,
    Form(f): Form<TimeZoneForm>,
) -> Result<Response, WebError> {
    let (tree, acting) = guard(&state, &auth, &league, Action::CreateSeason).await?;
    let forms = Forms {
        time_zone: f.clone(),
        ..Forms::default()
    };
    let zone = match arbiter_core::record::zone::Zone::named(&f.time_zone) {
        Ok(zone) => zone,
        Err(unknown) => {
            return refuse(&state, &auth, &tree, vec![unknown.to_string()], forms).await;
        }
    };
    let written = state
        .store()
        .set_time_zone(tree.league.id, &zone, &acting.actor())
        .await;
    saved(&state, &auth, &tree, written, "time-zone", forms).await
}

/// POST `/leagues/{league}/setup/schools/address`: a school's postal address set, changed or
/// cleared (issue 32), where its home matches are played (GT-M1); too long an address, or one
/// holding a control character, is refused with the sentence and nothing is saved.
pub async fn set_school_address(
    State(state): State<AppState>,
    auth: Auth,
    Path(league): Path<String>,
    Form(f): Form<SchoolAddressForm>,
) -> Result<Response, WebError> {
    let (tree, acting) = guard(&state, &auth, &league, Action::CreateSeason).await?;
    let forms = Forms {
        address: Some(f.clone()),
        ..Forms::default()
    };
    let schools = state.store().schools(tree.league.id).await?;
    let Some(school) = schools.iter().find(|s| s.id.0 == f.school) else {
        return Err(WebError::not_found(format!(
            "{} has no such school; choose one from the list on the set-up page.",
            tree.league.name
        )));
    };
    let what = format!("the address of {}", school.name);
    let address = match PostalAddress::parse(&what, &f.address) {
        Ok(a) => a,
        Err(e) => return refuse(&state, &auth, &tree, vec![e.to_string()], forms).await,
    };
    let written = state
        .store()
        .set_school_address(tree.league.id, school.id, address.as_ref(), &acting.actor())
        .await;
    saved(&state, &auth, &tree, written, "schools", forms).await
}
