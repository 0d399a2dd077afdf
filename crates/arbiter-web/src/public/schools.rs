//! Issue 32 (item 1): a parent finds their school. A league lists its schools; a school's page
//! lists its teams in every division, newest season first; the search finds schools, teams and
//! players by any part of their names, answered as a page (no script needed).

use askama::Template;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::Response;
use serde::Deserialize;

use crate::app::respond::private;
use crate::app::site::{self, LeagueTree};
use crate::app::state::AppState;
use crate::http::error::{Format, WebError};
use crate::ui::layout::{Layout, private_layout};
use crate::ui::link::{Link, league_href};

/// `/leagues/{league}/schools`
pub fn schools_href(league: &str) -> String {
    format!("{}/schools", league_href(league))
}

/// `/leagues/{league}/schools/{school}`, the school by its name's slug.
pub fn school_href(league: &str, school: &str) -> String {
    format!(
        "{}/{}",
        schools_href(league),
        arbiter_core::record::text::slug(school).unwrap_or_else(|| "school".into())
    )
}

/// A school's teams in one season: each linked, with its division.
struct SeasonTeams {
    season: String,
    teams: Vec<(Link, String)>,
}

#[derive(Template)]
#[template(path = "public/schools.html")]
struct SchoolsPage {
    layout: Layout,
    schools: Vec<(Link, String)>,
}

#[derive(Template)]
#[template(path = "public/school.html")]
struct SchoolPage {
    layout: Layout,
    seasons: Vec<SeasonTeams>,
    /// The school's matches as a calendar to subscribe to.
    feeds: Vec<crate::ui::link::Feed>,
    /// The school's schedule to print (GT-O3), when it plays in the season being played.
    sheet: Option<String>,
}

/// Every school of a league: those it keeps, and those its divisions' teams name.
async fn school_names(state: &AppState, tree: &LeagueTree) -> Result<Vec<String>, WebError> {
    let mut names: Vec<String> = state
        .store()
        .schools(tree.league.id)
        .await?
        .into_iter()
        .map(|s| s.name)
        .collect();
    for (s, comps) in &tree.seasons {
        for c in comps {
            let view = state
                .public_view(&tree.league.slug, &s.slug, &c.slug)
                .await?;
            names.extend(
                view.competition
                    .teams
                    .iter()
                    .filter_map(|t| t.school.clone()),
            );
        }
    }
    names.sort_by_key(|n| n.to_lowercase());
    names.dedup_by(|a, b| a.eq_ignore_ascii_case(b));
    Ok(names)
}

/// A school's teams, newest season first.
async fn teams_of(
    state: &AppState,
    tree: &LeagueTree,
    school: &str,
) -> Result<Vec<SeasonTeams>, WebError> {
    let mut out = Vec::new();
    for (s, comps) in tree.seasons.iter().rev() {
        let mut teams = Vec::new();
        for c in comps {
            let view = state
                .public_view(&tree.league.slug, &s.slug, &c.slug)
                .await?;
            for (i, t) in view.competition.teams.iter().enumerate() {
                if t.school
                    .as_deref()
                    .is_some_and(|x| x.eq_ignore_ascii_case(school))
                {
                    let place = view
                        .place(i)
                        .map(|p| format!(", place {p}"))
                        .unwrap_or_default();
                    teams.push((
                        Link::new(view.team_href(i), &t.name),
                        format!("{}{place}", c.name),
                    ));
                }
            }
        }
        if !teams.is_empty() {
            out.push(SeasonTeams {
                season: s.name.clone(),
                teams,
            });
        }
    }
    Ok(out)
}

/// GET `/leagues/{league}/schools`: every school of the league, each linked to its page.
pub async fn schools_page(State(state): State<AppState>, Path(league): Path<String>) -> Response {
    let answer = async {
        let tree = site::one(&state, &league).await?;
        let mut schools = Vec::new();
        for name in school_names(&state, &tree).await? {
            let seasons = teams_of(&state, &tree, &name).await?;
            let count = seasons.first().map_or(0, |s| s.teams.len());
            let what = match (seasons.first(), count) {
                (None, _) => "no team yet".to_string(),
                (Some(s), 1) => format!("1 team in {}", s.season),
                (Some(s), n) => format!("{n} teams in {}", s.season),
            };
            schools.push((
                Link::new(school_href(&tree.league.slug, &name), &name),
                what,
            ));
        }
        let page = SchoolsPage {
            layout: private_layout(
                &format!("Schools of {}", tree.league.name),
                vec![Link::new(league_href(&league), &tree.league.name)],
            ),
            schools,
        };
        Ok::<_, WebError>(private(StatusCode::OK, &page))
    };
    answer.await.unwrap_or_else(|e| e.answer(Format::Html))
}

/// GET `/leagues/{league}/schools/{school}`: the school's teams in every division, newest
/// season first.
pub async fn school_page(
    State(state): State<AppState>,
    Path((league, slug)): Path<(String, String)>,
) -> Response {
    let answer = async {
        let tree = site::one(&state, &league).await?;
        let names = school_names(&state, &tree).await?;
        let Some(name) = names
            .iter()
            .find(|n| arbiter_core::record::text::slug(n).as_deref() == Some(slug.as_str()))
        else {
            return Err(WebError::NotFound {
                message: format!(
                    "{} has no school at this address; its schools are listed on its schools page.",
                    tree.league.name
                ),
                links: vec![Link::new(schools_href(&league), "Schools")],
            });
        };
        let page = SchoolPage {
            layout: private_layout(
                name,
                vec![
                    Link::new(league_href(&league), &tree.league.name),
                    Link::new(schools_href(&league), "Schools"),
                ],
            ),
            // `schedule_sheet::school_sheet_href`, written here: that module reads this one.
            sheet: tree
                .season_now(&state)
                .is_some()
                .then(|| format!("{}/schedule", school_href(&league, name))),
            seasons: teams_of(&state, &tree, name).await?,
            feeds: crate::ui::link::school_calendar_href(&league, name)
                .map(|path| {
                    crate::ui::link::Feed::new(
                        state.base_url(),
                        &path,
                        format!("Every match of {name}'s teams"),
                    )
                })
                .into_iter()
                .collect(),
        };
        Ok(private(StatusCode::OK, &page))
    };
    answer.await.unwrap_or_else(|e| e.answer(Format::Html))
}

/// `?q=`: what was searched for.
#[derive(Debug, Default, Deserialize)]
pub struct SearchQuery {
    #[serde(default)]
    q: String,
}

/// One thing found: its link and where it is.
struct Found {
    link: Link,
    place: String,
}

#[derive(Template)]
#[template(path = "public/search.html")]
struct SearchPage {
    layout: Layout,
    q: String,
    /// Why nothing was searched for, when so.
    hint: Option<String>,
    schools: Vec<Found>,
    teams: Vec<Found>,
    players: Vec<Found>,
}

/// At most this many of each kind are listed.
const SHOWN: usize = 30;

/// GET `/search?q=`: schools, teams and players whose names hold the words searched for, in
/// every league's seasons, newest first. Rosters still sealed (AS-12) are not searched.
pub async fn search_page(
    State(state): State<AppState>,
    Query(query): Query<SearchQuery>,
) -> Response {
    let answer = async {
        let q = query.q.trim().chars().take(100).collect::<String>();
        let words: Vec<String> = q.split_whitespace().map(str::to_lowercase).collect();
        let hit = |name: &str| {
            let name = name.to_lowercase();
            !words.is_empty() && words.iter().all(|w| name.contains(w.as_str()))
        };
        let (mut schools, mut teams, mut players) = (Vec::new(), Vec::new(), Vec::new());
        let hint = (q.chars().count() < 2)
            .then(|| "Type at least two letters of a school, a team or a player.".to_string());
        if hint.is_none() {
            for tree in site::all(&state).await? {
                for name in school_names(&state, &tree).await? {
                    if hit(&name) {
                        schools.push(Found {
                            link: Link::new(school_href(&tree.league.slug, &name), &name),
                            place: tree.league.name.clone(),
                        });
                    }
                }
                for (s, comps) in tree.seasons.iter().rev() {
                    for c in comps {
                        let view = state
                            .public_view(&tree.league.slug, &s.slug, &c.slug)
                            .await?;
                        for (i, t) in view.competition.teams.iter().enumerate() {
                            if hit(&t.name) || t.school.as_deref().is_some_and(hit) {
                                teams.push(Found {
                                    link: Link::new(view.team_href(i), &t.name),
                                    place: view.context(),
                                });
                            }
                            for p in t.players.iter().filter(|p| hit(&p.name)) {
                                players.push(Found {
                                    link: Link::new(view.player_href(p), &p.name),
                                    place: format!("{}, {}", t.name, view.context()),
                                });
                            }
                        }
                    }
                }
            }
        }
        for list in [&mut schools, &mut teams, &mut players] {
            list.truncate(SHOWN);
        }
        let page = SearchPage {
            layout: private_layout(
                if q.is_empty() {
                    "Search".to_string()
                } else {
                    format!("Search: {q}")
                }
                .as_str(),
                vec![Link::new("/", "Leagues and events")],
            ),
            q,
            hint,
            schools,
            teams,
            players,
        };
        Ok::<_, WebError>(private(StatusCode::OK, &page))
    };
    answer.await.unwrap_or_else(|e| e.answer(Format::Html))
}
