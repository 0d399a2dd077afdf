//! The rating list of a competition and a player's rating history: a chart drawn here as SVG
//! (no script, readable on a phone) with a table beside it for screen readers. The numbers are
//! core's (`app::ratings`); this only words and draws them.

use askama::Template;

use arbiter_core::rating::{Standing, System};

use std::sync::Arc;

use crate::app::ratings::{PeriodLine, RatingLine, season_lines, shown, signed};
use crate::app::view::{CompetitionView, RatingOrder};
use crate::ui::layout::Layout;
use crate::ui::link::{Link, season_href};
use crate::ui::words;

/// A column header of the rating list: a link that sorts by it, or the current order.
#[derive(Debug)]
pub struct SortHeader {
    pub text: &'static str,
    pub href: String,
    pub current: bool,
    pub numeric: bool,
}

/// One line of the rating list.
#[derive(Debug)]
pub struct RatingRow {
    pub number: usize,
    pub player: Link,
    pub team: Link,
    /// The player's competition, on a season's list.
    pub division: Option<Link>,
    pub rating: String,
    pub before: String,
    pub games: u32,
    pub score: String,
    pub expected: String,
    pub change: String,
}

#[derive(Template)]
#[template(path = "public/ratings.html")]
pub struct RatingsPage {
    pub layout: Layout,
    /// Which system rated the games, and what its marks mean: a sentence per system.
    pub systems: Vec<String>,
    pub headers: Vec<SortHeader>,
    pub rows: Vec<RatingRow>,
    pub csv: String,
    /// Why games could not be rated, instead of (or beside) the list.
    pub problems: Vec<String>,
    /// A competition's list links to its season's; a season's to nothing more.
    pub season: Option<Link>,
}

/// The system in a sentence, with the rule it applies.
pub fn system_words(system: &System) -> String {
    match system {
        System::League(l) => format!(
            "The league's own Elo (GT-R3): a new player starts at {}N and is provisional (N) until {} rated game{}; K {} ({} while provisional); no rating falls below {}. Forfeits are not rated (GT-M7).",
            l.start,
            l.provisional_games,
            if l.provisional_games == 1 { "" } else { "s" },
            l.k,
            l.provisional_k,
            l.floor
        ),
        System::Fide => "FIDE's rating regulations (Handbook B.02): expected scores from FIDE's table, the 400-point rule, K 40, 20 or 10. Forfeits are not rated.".into(),
        System::Uscf => "US Chess ratings; provisional (N) for the first 25 games.".into(),
        System::Glicko2 { tau } => format!("Glicko-2 (τ {tau})."),
    }
}

fn headers(href: &str, order: RatingOrder, divisions: bool) -> Vec<SortHeader> {
    [
        (RatingOrder::Name, "Player", false),
        (
            RatingOrder::Team,
            if divisions { "Team, division" } else { "Team" },
            false,
        ),
        (RatingOrder::Rating, "Rating", true),
        (RatingOrder::Games, "Games", true),
        (RatingOrder::Change, "Change", true),
    ]
    .into_iter()
    .map(|(o, text, numeric)| SortHeader {
        text,
        href: if o == RatingOrder::default() {
            href.to_string()
        } else {
            format!("{href}?sort={}", o.code())
        },
        current: o == order,
        numeric,
    })
    .collect()
}

fn row(number: usize, view: &CompetitionView, line: &RatingLine<'_>, divisions: bool) -> RatingRow {
    let s = &line.summary;
    RatingRow {
        number,
        player: Link::new(view.player_href(line.player), &line.player.name),
        team: Link::new(
            view.team_href(line.team),
            &view.competition.teams[line.team].name,
        ),
        division: divisions.then(|| Link::new(view.href(), &view.record.name)),
        rating: shown(&s.after),
        before: shown(&s.before),
        games: s.games,
        score: words::points(s.score),
        expected: format!("{:.2}", s.expected),
        change: if s.games == 0 {
            String::new()
        } else {
            signed(s.change)
        },
    }
}

/// The list's page in `order`, around `layout`.
pub fn list(view: &CompetitionView, order: RatingOrder, layout: Layout) -> RatingsPage {
    let href = format!("{}/ratings", view.href());
    RatingsPage {
        layout,
        systems: vec![system_words(&view.rules.rating)],
        headers: headers(&href, order, false),
        rows: view
            .rating_lines(order)
            .iter()
            .enumerate()
            .map(|(i, line)| row(i + 1, view, line, false))
            .collect(),
        csv: format!("{href}.csv"),
        problems: view.rated().err().map(str::to_string).into_iter().collect(),
        season: Some(Link::new(
            season_ratings_href(&view.league.slug, &view.season.slug),
            format!("{} {}", view.league.name, view.season.name),
        )),
    }
}

/// The address of a season's rating list.
pub fn season_ratings_href(league: &str, season: &str) -> String {
    format!("{}/ratings", season_href(league, season))
}

/// A season's list: every competition's players in one list (the league's ratings), in
/// `order`, around `layout`.
pub fn season_list(
    views: &[Arc<CompetitionView>],
    href: &str,
    order: RatingOrder,
    layout: Layout,
) -> RatingsPage {
    let mut systems: Vec<String> = Vec::new();
    for v in views {
        let words = system_words(&v.rules.rating);
        if !systems.contains(&words) {
            systems.push(words);
        }
    }
    RatingsPage {
        layout,
        systems,
        headers: headers(href, order, true),
        rows: season_lines(views, order)
            .iter()
            .enumerate()
            .map(|(i, l)| row(i + 1, l.view, &l.line, true))
            .collect(),
        csv: format!("{href}.csv"),
        problems: views
            .iter()
            .filter_map(|v| v.rated().err().map(|p| format!("{}: {p}", v.record.name)))
            .collect(),
        season: None,
    }
}

/// A point of the chart: its place in the drawing, its rating written beside it when there is
/// room, and what it says on hover.
#[derive(Debug)]
pub struct ChartPoint {
    pub x: String,
    pub y: String,
    /// The rating printed above the point; empty when the points are too close to label each.
    pub value: String,
    pub value_y: String,
    pub label: String,
}

/// A mark on an axis: where it is and what it reads.
#[derive(Debug)]
pub struct Tick {
    pub at: String,
    pub text: String,
}

/// The rating history's chart: a line through each period's rating over the match days, with
/// a rating axis of round numbers on the left, the days along the bottom and the ratings at
/// the points, so that it reads without the table.
#[derive(Debug)]
pub struct Chart {
    pub points: Vec<ChartPoint>,
    /// The polyline's `points` attribute.
    pub line: String,
    /// Rating marks: `at` is the y coordinate.
    pub ratings: Vec<Tick>,
    /// Day marks: `at` is the x coordinate.
    pub days: Vec<Tick>,
    pub high: String,
    pub low: String,
    /// What the chart shows, as its title for screen readers.
    pub title: String,
    /// The drawing's `viewBox` and its plot's edges, for the axes.
    pub view_box: String,
    pub left: f64,
    pub right: f64,
    pub top: f64,
    pub bottom: f64,
}

/// One game of the history table.
#[derive(Debug)]
pub struct HistoryGame {
    pub round: Link,
    pub board: u32,
    pub opponent: Option<Link>,
    pub opponent_rating: String,
    pub score: String,
    pub expected: String,
    pub change: String,
}

/// One period of the history table.
#[derive(Debug)]
pub struct HistoryPeriod {
    pub date: String,
    pub before: String,
    pub after: String,
    pub change: String,
    pub games: Vec<HistoryGame>,
}

/// A player's rating history for their page.
#[derive(Debug)]
pub struct History {
    pub now: String,
    pub chart: Option<Chart>,
    pub periods: Vec<HistoryPeriod>,
    pub list: Link,
}

const CHART_WIDTH: f64 = 400.0;
const CHART_HEIGHT: f64 = 200.0;
const LEFT: f64 = 44.0;
const RIGHT: f64 = 28.0;
const TOP: f64 = 24.0;
const BOTTOM: f64 = 30.0;
/// Points closer than these share their labels: every other one (or fewer) is written. A day
/// (`21 Oct`) needs more room than a rating.
const DAY_ROOM: f64 = 48.0;
const VALUE_ROOM: f64 = 36.0;

/// Rating marks a round step apart covering `lo..=hi`, 2 to 5 of them: the first, the last
/// and the step.
fn rating_ticks(lo: f64, hi: f64) -> (f64, f64, f64) {
    let span = (hi - lo).max(1.0);
    let step = [5.0, 10.0, 20.0, 25.0, 50.0, 100.0, 200.0, 250.0, 500.0]
        .into_iter()
        .find(|s| span / s <= 4.0)
        .unwrap_or(1000.0);
    let (from, to) = ((lo / step).floor() * step, (hi / step).ceil() * step);
    // A flat history still gets a band to sit in.
    if from == to {
        (from - step, to + step, step)
    } else {
        (from, to, step)
    }
}

fn chart(start: &Standing, periods: &[PeriodLine<'_>], name: &str) -> Option<Chart> {
    if periods.is_empty() || !start.rated {
        return None;
    }
    let ratings: Vec<f64> = std::iter::once(start.rating)
        .chain(periods.iter().map(|p| p.after.rating))
        .collect();
    let (low, high) = ratings
        .iter()
        .fold((f64::MAX, f64::MIN), |(lo, hi), &r| (lo.min(r), hi.max(r)));
    let (lo, hi, step) = rating_ticks(low, high);
    let plot_w = CHART_WIDTH - LEFT - RIGHT;
    let plot_h = CHART_HEIGHT - TOP - BOTTOM;
    let x_step = plot_w / (ratings.len() - 1).max(1) as f64;
    let x = |i: usize| LEFT + x_step * i as f64;
    let y = |r: f64| TOP + (hi - r) / (hi - lo) * plot_h;
    // Label every n-th point counted back from the latest, which is always labelled, so that
    // labels never overlap.
    let last = ratings.len() - 1;
    let labelled =
        |i: usize, room: f64| (last - i).is_multiple_of((room / x_step).ceil().max(1.0) as usize);
    let day = |i: usize| -> String {
        if i == 0 {
            "Start".into()
        } else {
            periods[i - 1]
                .date
                .map_or_else(|| format!("P{i}"), |d| d.strftime("%-d %b").to_string())
        }
    };
    let points: Vec<ChartPoint> = ratings
        .iter()
        .enumerate()
        .map(|(i, &r)| ChartPoint {
            x: format!("{:.1}", x(i)),
            y: format!("{:.1}", y(r)),
            value: if labelled(i, VALUE_ROOM) {
                format!("{}", r.round())
            } else {
                String::new()
            },
            value_y: format!("{:.1}", y(r) - 8.0),
            label: if i == 0 {
                format!("{} before the first rated game", r.round())
            } else {
                let p = &periods[i - 1];
                match p.date {
                    Some(d) => format!("{} after {}", r.round(), words::date(d)),
                    None => format!("{} after period {i}", r.round()),
                }
            },
        })
        .collect();
    let line = points
        .iter()
        .map(|p| format!("{},{}", p.x, p.y))
        .collect::<Vec<_>>()
        .join(" ");
    let marks = ((hi - lo) / step).round() as usize;
    let ratings_axis = (0..=marks)
        .map(|k| {
            let r = lo + step * k as f64;
            Tick {
                at: format!("{:.1}", y(r)),
                text: format!("{r}"),
            }
        })
        .collect();
    let days = (0..ratings.len())
        .filter(|&i| labelled(i, DAY_ROOM))
        .map(|i| Tick {
            at: format!("{:.1}", x(i)),
            text: day(i),
        })
        .collect();
    Some(Chart {
        title: format!(
            "{name}'s rating from {} to {} over {} match day{}",
            start.rating.round(),
            ratings[ratings.len() - 1].round(),
            periods.len(),
            if periods.len() == 1 { "" } else { "s" }
        ),
        high: format!("{}", high.round()),
        low: format!("{}", low.round()),
        ratings: ratings_axis,
        days,
        view_box: format!("0 0 {CHART_WIDTH} {CHART_HEIGHT}"),
        left: LEFT,
        right: CHART_WIDTH - RIGHT,
        top: TOP,
        bottom: CHART_HEIGHT - BOTTOM,
        points,
        line,
    })
}

/// The rating history of roster position `position` of team `team`.
pub fn history(view: &CompetitionView, team: usize, position: usize) -> Option<History> {
    let rated = view.rated().ok()?;
    let player = view.competition.teams.get(team)?.players.get(position)?;
    let index = view.entrant(team, position);
    let start = rated.replay.start(index)?;
    let now = rated.replay.current(index)?;
    let periods = view.rating_history(team, position);
    let rows = periods
        .iter()
        .enumerate()
        .map(|(i, p)| HistoryPeriod {
            date: p
                .date
                .map_or_else(|| format!("Period {}", i + 1), words::date),
            before: shown(&p.before),
            after: shown(&p.after),
            change: signed(p.change),
            games: p
                .games
                .iter()
                .map(|g| HistoryGame {
                    round: Link::new(view.round_href(g.round), g.round.to_string()),
                    board: g.board,
                    opponent: g
                        .opponent
                        .map(|(o, _)| Link::new(view.player_href(o), &o.name)),
                    opponent_rating: format!("{}", g.opponent_rating.round()),
                    score: words::points(g.score),
                    expected: format!("{:.2}", g.expected),
                    change: g.change.map(signed).unwrap_or_default(),
                })
                .collect(),
        })
        .collect();
    Some(History {
        now: shown(&now),
        chart: chart(&start, &periods, &player.name),
        periods: rows,
        list: Link::new(format!("{}/ratings", view.href()), "the rating list"),
    })
}

/// The rating list as CSV, highest first: the published rating, whether provisional (GT-R3),
/// and the season's games, score, expected score and unrounded change. Empty of players when
/// the games could not be rated.
pub fn csv(view: &CompetitionView) -> String {
    let mut out = arbiter_formats::csv::Writer::new();
    out.record(CSV_COLUMNS);
    for line in view.rating_lines(RatingOrder::Rating) {
        out.record(csv_record(view, &line));
    }
    out.finish()
}

/// A season's rating list as CSV: a competition's columns after the competition's slug.
pub fn season_csv(views: &[Arc<CompetitionView>]) -> String {
    let mut out = arbiter_formats::csv::Writer::new();
    out.record(std::iter::once("competition").chain(CSV_COLUMNS));
    for l in season_lines(views, RatingOrder::Rating) {
        out.record(std::iter::once(l.view.record.slug.clone()).chain(csv_record(l.view, &l.line)));
    }
    out.finish()
}

const CSV_COLUMNS: [&str; 11] = [
    "player_id",
    "name",
    "team_id",
    "team",
    "rating",
    "provisional",
    "before",
    "games",
    "score",
    "expected",
    "change",
];

fn csv_record(view: &CompetitionView, line: &RatingLine<'_>) -> [String; 11] {
    let published = |s: &Standing| {
        if s.rated {
            s.published().to_string()
        } else {
            String::new()
        }
    };
    let s = &line.summary;
    let team = &view.competition.teams[line.team];
    [
        line.player.id.0.clone(),
        line.player.name.clone(),
        team.id.0.clone(),
        team.name.clone(),
        published(&s.after),
        s.after.provisional.to_string(),
        published(&s.before),
        s.games.to_string(),
        s.score.to_string(),
        format!("{:.2}", s.expected),
        format!("{:.2}", s.change),
    ]
}

#[cfg(test)]
mod tests {
    use super::rating_ticks;

    #[test]
    fn the_rating_axis_has_three_to_six_round_marks_around_the_ratings() {
        for (lo, hi) in [
            (1190.0, 1262.0),
            (1200.0, 1201.0),
            (980.0, 1630.0),
            (1500.0, 1500.0),
        ] {
            let (from, to, step) = rating_ticks(lo, hi);
            assert!(from <= lo && to >= hi, "{lo}..{hi}: {from}..{to}");
            assert_eq!(from % step, 0.0);
            let marks = ((to - from) / step).round() as usize + 1;
            assert!(
                (2..=6).contains(&marks),
                "{lo}..{hi}: {marks} marks of {step}"
            );
        }
    }
}
