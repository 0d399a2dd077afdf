//! A league's published rating lists (issue 34 item 1), for its officers: the lists stored, a
//! form to import one (FIDE's XML or TXT list, or a CSV of id, name and rating; uploaded or
//! pasted, without JavaScript), and the players of the competitions that order their boards by
//! a list (`[lineup] ratings = "list"`) whom the list in force does not find.

use arbiter_core::rating::list;
use arbiter_core::rules::permissions::Action;
use arbiter_core::rules::ruleset::RatingSource;
use arbiter_formats::rating_list::{self, ListFormat};
use askama::Template;
use axum::Form;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::Response;
use serde::Deserialize;

use crate::app::respond::{private, see_other};
use crate::app::site::{self, LeagueTree};
use crate::app::state::AppState;
use crate::http::auth::Auth;
use crate::http::csrf;
use crate::http::error::WebError;
use crate::ui::layout::{Layout, private_layout};
use crate::ui::link::{Link, league_href};
use crate::ui::words;

/// `/leagues/{league}/setup/rating-lists`.
pub(crate) fn rating_lists_href(league: &str) -> String {
    format!("{}/setup/rating-lists", league_href(league))
}

/// One stored list as the page shows it.
struct ListLine {
    name: String,
    in_force_from: String,
    format: String,
    entries: usize,
}

/// A competition's players the list in force does not find.
struct UnmatchedBlock {
    competition: Link,
    list: String,
    players: Vec<String>,
}

#[derive(Template)]
#[template(path = "setup/rating_lists.html", whitespace = "minimize")]
struct RatingListsPage {
    layout: Layout,
    csrf: String,
    action: String,
    lists: Vec<ListLine>,
    unmatched: Vec<UnmatchedBlock>,
    /// Whether any competition of the league orders its boards by a list.
    read_by: Vec<Link>,
    problems: Vec<String>,
    form: ImportForm,
}

/// The import form: the list's name, its first day, its format, and the file or its text.
#[derive(Debug, Default, Clone, Deserialize)]
pub struct ImportForm {
    #[serde(default)]
    name: String,
    #[serde(default)]
    in_force_from: String,
    #[serde(default)]
    format: String,
    /// The uploaded file's text.
    #[serde(default)]
    file: String,
    /// The pasted text, when no file is uploaded.
    #[serde(default)]
    text: String,
}

async fn page(
    state: &AppState,
    auth: &Auth,
    tree: &LeagueTree,
    problems: Vec<String>,
    form: ImportForm,
    status: StatusCode,
) -> Result<Response, WebError> {
    let league = &tree.league.slug;
    let lists = state
        .store()
        .rating_lists(tree.league.id)
        .await?
        .into_iter()
        .map(|s| ListLine {
            name: s.name,
            in_force_from: words::date(s.in_force_from),
            format: s.format,
            entries: s.entries,
        })
        .collect();
    let mut read_by = Vec::new();
    let mut unmatched = Vec::new();
    for (season, comps) in &tree.seasons {
        for c in comps {
            let by_list =
                site::rules_of(&c.rules).is_some_and(|r| r.lineup.ratings == RatingSource::List);
            if !by_list {
                continue;
            }
            let view = state.view(league, &season.slug, &c.slug).await?;
            let link = Link::new(
                crate::ui::link::competition_href(league, &season.slug, &c.slug),
                &c.name,
            );
            read_by.push(link.clone());
            // The list in force today, else the latest.
            let today = state.today_in(&tree.league.time_zone);
            let Some(l) = list::in_force(&view.rating_lists, Some(today))
                .or_else(|| list::in_force(&view.rating_lists, None))
            else {
                continue;
            };
            let players: Vec<String> = list::unmatched(&view.competition, l)
                .into_iter()
                .map(|(team, p)| {
                    let why = match (&p.record.federation_id, p.record.birth_date) {
                        (Some(id), _) => format!("the id {id} is not on it"),
                        (None, Some(_)) => "no one of that name and birth date is on it".into(),
                        (None, None) => "the roster gives no federation id or birth date".into(),
                    };
                    format!("{} ({team}): {why}", p.name)
                })
                .collect();
            if !players.is_empty() {
                unmatched.push(UnmatchedBlock {
                    competition: link,
                    list: l.name.clone(),
                    players,
                });
            }
        }
    }
    let page = RatingListsPage {
        layout: private_layout(
            &format!("Rating lists: {}", tree.league.name),
            vec![
                Link::new(league_href(league), &tree.league.name),
                Link::new(crate::setup::setup_href(league), "Season set-up"),
            ],
        ),
        csrf: csrf::session_token(&auth.session).await?,
        action: rating_lists_href(league),
        lists,
        unmatched,
        read_by,
        problems,
        form,
    };
    Ok(private(status, &page))
}

/// GET `/leagues/{league}/setup/rating-lists`: the league's lists and the import form.
pub async fn rating_lists_page(
    State(state): State<AppState>,
    auth: Auth,
    Path(league): Path<String>,
) -> Result<Response, WebError> {
    let (tree, _) = site::league_officer(&state, &auth, &league, Action::EditRules).await?;
    page(
        &state,
        &auth,
        &tree,
        Vec::new(),
        ImportForm::default(),
        StatusCode::OK,
    )
    .await
}

/// POST `/leagues/{league}/setup/rating-lists`: a list read from the uploaded or pasted file,
/// every mistake at its line, and stored.
pub async fn import_rating_list(
    State(state): State<AppState>,
    auth: Auth,
    Path(league): Path<String>,
    Form(f): Form<ImportForm>,
) -> Result<Response, WebError> {
    let (tree, acting) = site::league_officer(&state, &auth, &league, Action::EditRules).await?;
    let mut problems = Vec::new();
    let format = ListFormat::parse(&f.format).map_err(|e| problems.push(format!("{e}.")));
    let day = f
        .in_force_from
        .trim()
        .parse::<jiff::civil::Date>()
        .map_err(|_| {
            problems.push(
                "Give the first day the list is in force, as YYYY-MM-DD (the 1st of the month for FIDE's monthly list)."
                    .into(),
            )
        });
    if f.name.trim().is_empty() {
        problems
            .push("Name the list as pages and messages will give it, e.g. FIDE March 2027.".into());
    }
    let text = if f.file.trim().is_empty() {
        &f.text
    } else {
        &f.file
    };
    if text.trim().is_empty() {
        problems.push("Upload the list's file, or paste its text.".into());
    }
    let (Ok(format), Ok(day), true) = (format, day, problems.is_empty()) else {
        return page(
            &state,
            &auth,
            &tree,
            problems,
            f,
            StatusCode::UNPROCESSABLE_ENTITY,
        )
        .await;
    };
    let list = match rating_list::read(text, format, &f.name, day) {
        Ok(l) => l,
        Err(found) => {
            let problems = found.iter().map(|p| format!("{p}.")).collect();
            return page(
                &state,
                &auth,
                &tree,
                problems,
                f,
                StatusCode::UNPROCESSABLE_ENTITY,
            )
            .await;
        }
    };
    let written = state
        .store()
        .import_rating_list(tree.league.id, &list, format.code(), &acting.actor())
        .await;
    match written {
        Ok(_) => {
            state.invalidate();
            Ok(see_other(&rating_lists_href(&league)))
        }
        Err(e) => {
            let problems = vec![WebError::from_write(e).message()];
            page(
                &state,
                &auth,
                &tree,
                problems,
                f,
                StatusCode::UNPROCESSABLE_ENTITY,
            )
            .await
        }
    }
}
