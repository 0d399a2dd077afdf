//! The schedule the Secretary sends to the schools (GT-O3), on paper and as a spreadsheet: a
//! division's and a school's schedule as one printable page (A4, no navigation in print), and
//! a division's and a season's as CSV (round, date, time, home, away, place). The rows are the
//! calendar feeds' fixtures (core's `fixture`), so a moved match is where the feed says it is.

use std::sync::Arc;

use arbiter_core::TeamId;
use askama::Template;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::Response;
use jiff::civil::{Date, Time};

use crate::app::address::{Addressed, CompetitionAddress, SeasonAddress};
use crate::app::respond::{bad_path, private};
use crate::app::state::AppState;
use crate::app::view::CompetitionView;
use crate::http::answer::{PAGE_CACHE, etag, not_modified, ok, unchanged};
use crate::http::error::{Format, WebError};
use crate::public::handlers::CompetitionPath;
use crate::public::schools::{school_href, schools_href};
use crate::public::site;
use crate::ui::layout::{Layout, private_layout};
use crate::ui::link::{Link, competition_href, league_href, season_href};
use crate::ui::words;

/// One match of a schedule.
#[derive(Debug, Clone)]
pub struct Row {
    pub division: String,
    pub round: u32,
    pub date: Date,
    /// `None`: after school, at the time the home advisor arranges (GT-M1).
    pub start: Option<Time>,
    pub home: String,
    pub away: String,
    /// The home school, or an event's hall.
    pub place: String,
    pub address: Option<String>,
    /// Why it will not be played (GT-M5), when so.
    pub not_played: Option<String>,
}

impl Row {
    /// `16:00`, or empty when the home advisor arranges it.
    pub fn time(&self) -> String {
        self.start
            .map(|t| t.strftime("%H:%M").to_string())
            .unwrap_or_default()
    }

    /// `Tue 17 Nov 2026`.
    pub fn day(&self) -> String {
        words::date(self.date)
    }

    /// `Start High School, 1 Main St, Toledo`.
    pub fn where_(&self) -> String {
        match &self.address {
            Some(a) => format!("{}, {a}", self.place),
            None => self.place.clone(),
        }
    }
}

/// Every dated match of `view` that a team `keep` lets through plays, by day.
pub fn rows(view: &CompetitionView, keep: impl Fn(&TeamId) -> bool) -> Vec<Row> {
    view.fixtures(None)
        .into_iter()
        .filter(|f| keep(&f.record.home) || keep(&f.record.away))
        .map(|f| {
            let (place, address) = view.place_of(&f);
            Row {
                division: view.record.name.clone(),
                round: f.round,
                date: f.date,
                start: f.start,
                home: view.team_name(&f.record.home),
                away: view.team_name(&f.record.away),
                place,
                address: address.map(|a| a.one_line()),
                not_played: f.not_played.clone(),
            }
        })
        .collect()
}

/// Whether team `t` of `view` is one of `school`'s.
pub fn of_school(view: &CompetitionView, school: &str, t: &TeamId) -> bool {
    view.competition
        .teams
        .iter()
        .any(|x| &x.id == t && x.school.as_deref() == Some(school))
}

/// The rows as CSV: `division,round,date,time,home,away,place,address,note` (the division only
/// when `with_division`, for a season's file).
pub fn csv(rows: &[Row], with_division: bool) -> String {
    let mut out = arbiter_formats::csv::Writer::new();
    let head = [
        "round", "date", "time", "home", "away", "place", "address", "note",
    ];
    if with_division {
        out.record(std::iter::once("division").chain(head));
    } else {
        out.record(head);
    }
    for r in rows {
        let (round, date, time) = (r.round.to_string(), r.date.to_string(), r.time());
        let cells = [
            round.as_str(),
            date.as_str(),
            time.as_str(),
            r.home.as_str(),
            r.away.as_str(),
            r.place.as_str(),
            r.address.as_deref().unwrap_or(""),
            r.not_played.as_deref().unwrap_or(""),
        ];
        if with_division {
            out.record(std::iter::once(r.division.as_str()).chain(cells));
        } else {
            out.record(cells);
        }
    }
    out.finish()
}

/// `…/{competition}/schedule`: the division's printable schedule.
pub fn division_sheet_href(league: &str, season: &str, competition: &str) -> String {
    format!("{}/schedule", competition_href(league, season, competition))
}

/// `/leagues/{league}/schools/{school}/schedule`: a school's printable schedule.
pub fn school_sheet_href(league: &str, school: &str) -> String {
    format!("{}/schedule", school_href(league, school))
}

/// `/leagues/{league}/{season}/schedule.csv`.
pub fn season_csv_href(league: &str, season: &str) -> String {
    format!("{}/schedule.csv", season_href(league, season))
}

/// One day of a sheet: its heading and its matches.
struct Day {
    heading: String,
    matches: Vec<Line>,
}

/// A match as a sheet lists it.
struct Line {
    /// `16:00`, when set.
    time: Option<String>,
    teams: String,
    /// `Metro, round 3` when the day mixes divisions or rounds.
    which: Option<String>,
    not_played: Option<String>,
}

#[derive(Template)]
#[template(path = "public/schedule_sheet.html", whitespace = "minimize")]
struct SheetPage {
    layout: Layout,
    lead: String,
    days: Vec<Day>,
    /// Each home team with where it plays, once: the matches are at the home team's place.
    places: Vec<(String, String)>,
    csv: Option<String>,
}

/// The rows by day, so that a season's schedule fits one printed page.
fn days(rows: &[Row]) -> Vec<Day> {
    let mut out: Vec<Day> = Vec::new();
    let mut i = 0;
    while i < rows.len() {
        let day = rows[i].date;
        let n = rows[i..].iter().take_while(|r| r.date == day).count();
        let same = &rows[i..i + n];
        let one = same
            .iter()
            .all(|r| r.round == same[0].round && r.division == same[0].division);
        let mixed_divisions = rows.iter().any(|r| r.division != rows[0].division);
        let heading = match (one, mixed_divisions) {
            (true, false) => format!("{} \u{b7} round {}", words::date(day), same[0].round),
            (true, true) => format!(
                "{} \u{b7} {}, round {}",
                words::date(day),
                same[0].division,
                same[0].round
            ),
            (false, _) => words::date(day),
        };
        out.push(Day {
            heading,
            matches: same
                .iter()
                .map(|r| Line {
                    time: r.start.map(|_| r.time()),
                    teams: format!("{} v {}", r.home, r.away),
                    which: (!one).then(|| format!("{}, round {}", r.division, r.round)),
                    not_played: r.not_played.clone(),
                })
                .collect(),
        });
        i += n;
    }
    out
}

fn sheet(layout: Layout, lead: String, rows: Vec<Row>, csv: Option<String>) -> Response {
    let mut places: Vec<(String, String)> = Vec::new();
    for r in &rows {
        if !places.iter().any(|(t, _)| t == &r.home) {
            places.push((r.home.clone(), r.where_()));
        }
    }
    places.sort();
    let page = SheetPage {
        layout,
        lead,
        days: days(&rows),
        places,
        csv,
    };
    private(StatusCode::OK, &page)
}

const WHEN: &str = "Each match is played at the home team's school, listed below; one with no time starts after school, at the time the home advisor arranges (GT-M1).";

/// GET `…/{competition}/schedule`: the division's schedule on one page to print.
pub async fn division_sheet(State(state): State<AppState>, path: CompetitionPath) -> Response {
    let answer = async {
        let Path(a) = path.map_err(|r| bad_path(&r))?;
        let view = state
            .public_view(&a.league, &a.season, &a.competition)
            .await?;
        let layout = private_layout(
            &format!("Schedule: {}", view.context()),
            vec![
                Link::new(league_href(&a.league), &view.league.name),
                Link::new(
                    competition_href(&a.league, &a.season, &a.competition),
                    &view.record.name,
                ),
            ],
        );
        let csv = format!(
            "{}/schedule.csv",
            competition_href(&a.league, &a.season, &a.competition)
        );
        Ok::<_, WebError>(sheet(
            layout,
            match &view.hall {
                // An event plays in its hall at each round's start (AS-1): no school, no GT-M1.
                Some(h) => format!(
                    "Every match of {}, at {} at its round's start.",
                    view.context(),
                    h.venue
                ),
                None => format!("Every match of {} (GT-O3). {WHEN}", view.context()),
            },
            rows(&view, |_| true),
            Some(csv),
        ))
    };
    answer.await.unwrap_or_else(|e| e.answer(Format::Html))
}

/// The season a school's schedule is of (the one being played) and its divisions' views.
pub async fn current_views(
    state: &AppState,
    tree: &crate::app::site::LeagueTree,
) -> Result<Option<(String, String, Vec<Arc<CompetitionView>>)>, WebError> {
    let Some((season, records)) = tree.season_now(state) else {
        return Ok(None);
    };
    let mut views = Vec::new();
    for r in records {
        views.push(
            state
                .public_view(&tree.league.slug, &season.slug, &r.slug)
                .await?,
        );
    }
    Ok(Some((season.slug.clone(), season.name.clone(), views)))
}

/// GET `/leagues/{league}/schools/{school}/schedule`: the matches of the school's teams in the
/// season being played, on one page to print.
pub async fn school_sheet(
    State(state): State<AppState>,
    Path((league, slug)): Path<(String, String)>,
) -> Response {
    let answer = async {
        let tree = crate::app::site::one(&state, &league).await?;
        let views = current_views(&state, &tree).await?;
        let name = views
            .iter()
            .flat_map(|(_, _, vs)| vs.iter())
            .flat_map(|v| v.competition.teams.iter().filter_map(|t| t.school.clone()))
            .find(|n| arbiter_core::record::text::slug(n).as_deref() == Some(slug.as_str()));
        let (Some(name), Some((_, season, views))) = (name, views) else {
            return Err(WebError::NotFound {
                message: format!(
                    "{} has no school at this address with a team in the season being played; its schools are listed on its schools page.",
                    tree.league.name
                ),
                links: vec![Link::new(schools_href(&league), "Schools")],
            });
        };
        let mut all = Vec::new();
        for v in &views {
            all.extend(rows(v, |t| of_school(v, &name, t)));
        }
        all.sort_by_key(|r| (r.date, r.start, r.round));
        let layout = private_layout(
            &format!("Schedule: {name}, {} {season}", tree.league.name),
            vec![
                Link::new(league_href(&league), &tree.league.name),
                Link::new(school_href(&league, &name), &name),
            ],
        );
        Ok::<_, WebError>(sheet(
            layout,
            format!(
                "Every match of {name}'s teams in {} {season} (GT-O3). {WHEN}",
                tree.league.name
            ),
            all,
            None,
        ))
    };
    answer.await.unwrap_or_else(|e| e.answer(Format::Html))
}

fn csv_answer(headers: &HeaderMap, tag: HeaderValue, body: String, file: &str) -> Response {
    if not_modified(headers, &tag) {
        return unchanged(tag, PAGE_CACHE);
    }
    let mut answer = ok(
        HeaderValue::from_static("text/csv; charset=utf-8"),
        tag,
        PAGE_CACHE,
        Bytes::from(body),
    );
    if let Ok(v) = HeaderValue::from_str(&format!("attachment; filename=\"{file}\"")) {
        answer
            .headers_mut()
            .insert(axum::http::header::CONTENT_DISPOSITION, v);
    }
    answer
}

/// GET `…/{competition}/schedule.csv`: the division's schedule as CSV.
pub async fn division_csv(
    State(state): State<AppState>,
    headers: HeaderMap,
    path: CompetitionPath,
) -> Response {
    let answer = async {
        let Path(CompetitionAddress {
            league,
            season,
            competition,
        }) = path.map_err(|r| bad_path(&r))?;
        let view = state.public_view(&league, &season, &competition).await?;
        let tag = etag(view.etag_base, b"schedule.csv");
        Ok::<_, WebError>(csv_answer(
            &headers,
            tag,
            csv(&rows(&view, |_| true), false),
            &format!("{league}-{season}-{competition}-schedule.csv"),
        ))
    };
    answer.await.unwrap_or_else(|e| e.answer(Format::Html))
}

/// GET `/leagues/{league}/{season}/schedule.csv`: every division's schedule as CSV, by day.
pub async fn season_csv(
    State(state): State<AppState>,
    headers: HeaderMap,
    path: Addressed<SeasonAddress>,
) -> Response {
    let answer = async {
        let Path(SeasonAddress { league, season }) = path.map_err(|r| bad_path(&r))?;
        let (_, _, views) = site::season_views(&state, &league, &season).await?;
        let tag = etag(site::etag_base(&views), b"season/schedule.csv");
        let mut all = Vec::new();
        for v in &views {
            all.extend(rows(v, |_| true));
        }
        all.sort_by(|a, b| (a.date, a.start, &a.division).cmp(&(b.date, b.start, &b.division)));
        Ok::<_, WebError>(csv_answer(
            &headers,
            tag,
            csv(&all, true),
            &format!("{league}-{season}-schedule.csv"),
        ))
    };
    answer.await.unwrap_or_else(|e| e.answer(Format::Html))
}
