//! The pages above a competition: the home page (leagues and events, what is on this week), a
//! league and a season.

use std::sync::Arc;

use axum::body::Bytes;

use arbiter_store::{CompetitionRecord, DatedRound, League, Season};

use crate::app::site;
use crate::app::state::AppState;
use crate::app::view::CompetitionView;
use crate::http::error::WebError;
use crate::public::pages::{
    self, HomePage, LeagueCard, LeaguePage, SeasonBlock, WeekDay, WeekItem, WeekLeague, WeekLine,
};
use crate::ui::link::{
    Feed, Link, competition_href, league_calendar_href, league_href, season_href,
};
use crate::ui::words;

/// The moments of `season`'s media reports the Vice-President has published (GT-O3), which
/// the season's block links.
async fn published_reports(
    state: &AppState,
    season: &Season,
) -> Result<Vec<arbiter_core::season_end::media::Moment>, WebError> {
    let mut out: Vec<arbiter_core::season_end::media::Moment> = Vec::new();
    for r in state.store().media_reports(season.id).await? {
        if r.published && !out.contains(&r.moment) {
            out.push(r.moment);
        }
    }
    Ok(out)
}

fn season_block(
    league: &League,
    s: &Season,
    comps: &[CompetitionRecord],
    published: &[arbiter_core::season_end::media::Moment],
) -> SeasonBlock {
    SeasonBlock {
        link: Link::new(season_href(&league.slug, &s.slug), &s.name),
        dates: pages::season_dates(s),
        competitions: comps
            .iter()
            .map(|c| Link::new(competition_href(&league.slug, &s.slug, &c.slug), &c.name))
            .collect(),
        folded: None,
        ratings: crate::public::ratings::season_ratings_href(&league.slug, &s.slug),
        // A league whose rules have playoffs ends its season in them and awards (GT-F1..GT-F3),
        // as its competitions' pages say; an event's, or a club league's without, does not.
        season_end: if league.kind == arbiter_store::LeagueKind::League
            && comps
                .iter()
                .any(|c| crate::app::site::rules_of(&c.rules).is_some_and(|r| r.playoffs.is_some()))
        {
            use crate::season_end::pages::{awards_href, playoffs_href};
            let mut links = vec![
                Link::new(playoffs_href(&league.slug, &s.slug), "Playoffs"),
                Link::new(awards_href(&league.slug, &s.slug), "Awards"),
            ];
            // GT-O3: a report is public once the Vice-President publishes it.
            for m in published {
                links.push(Link::new(
                    crate::season_end::reports::report_href(&league.slug, &s.slug, *m),
                    m.title(),
                ));
            }
            links
        } else {
            Vec::new()
        },
    }
}

/// Where a competition is listed on the home page: its league's, its season's and its own
/// place in the order the leagues, seasons and competitions are read.
struct Place<'t> {
    li: usize,
    si: usize,
    ci: usize,
    s: &'t Season,
    c: &'t CompetitionRecord,
    /// GT-M5: the match forfeits its ruleset drops a team at; `None` when it drops none.
    drop_after: Option<u32>,
}

/// A round's matches in a line, as [`pages::pairings_line`] draws them: from the store's team
/// names, unless a team of the competition has as many match forfeits as its ruleset drops a
/// team for — then GT-M5 may have excluded some, which only the competition's score sheet
/// says, and its view is read (issue 35: not for every competition that had a forfeit).
async fn matches_line(
    state: &AppState,
    t: &site::LeagueTree,
    p: &Place<'_>,
    r: &DatedRound,
) -> Result<String, WebError> {
    if p.drop_after.is_some_and(|n| r.most_match_forfeits >= n) {
        let view = state
            .public_view(&t.league.slug, &p.s.slug, &p.c.slug)
            .await?;
        if let Some(round) = view.round(r.number) {
            return Ok(pages::pairings_line(&view, round));
        }
    }
    Ok(r.matches
        .iter()
        .map(|(home, away)| format!("{home} \u{2013} {away}"))
        .collect::<Vec<_>>()
        .join(", "))
}

/// The most competitions of one season the home page lists; a season of more is a link to its
/// own page, which lists them all (issue 35: at 10,000 divisions the home page was 1.5 MB).
const HOME_LISTS_UP_TO: usize = 12;

/// Monday and Sunday of `today`'s week.
fn week_of(today: jiff::civil::Date) -> (jiff::civil::Date, jiff::civil::Date) {
    let monday =
        today.saturating_sub(jiff::Span::new().days(today.weekday().to_monday_zero_offset()));
    (monday, monday.saturating_add(jiff::Span::new().days(6)))
}

fn week_text((monday, sunday): (jiff::civil::Date, jiff::civil::Date)) -> String {
    format!("{} to {}", words::date(monday), words::date(sunday))
}

/// `/`: every league and event, and the rounds dated this week (Monday to Sunday), each
/// league's week by its own clock (issue 32, item 22: an event's Monday in Adelaide is still
/// Sunday in UTC).
pub async fn home_html(state: &AppState) -> Result<Bytes, WebError> {
    let trees = site::all(state).await?;
    let weeks: Vec<_> = trees
        .iter()
        .map(|t| week_of(state.today_in(&t.league.time_zone)))
        .collect();
    // The heading's week: the leagues' own when they agree, else UTC's.
    let heading = match weeks.first() {
        Some(w) if weeks.iter().all(|x| x == w) => *w,
        _ => week_of(state.today_in(&arbiter_core::record::zone::Zone::utc())),
    };
    // Issue 35: the week's rounds and the next are read by their dates, not from every
    // competition's view; each is placed by its league, season and competition as listed.
    let mut places = std::collections::HashMap::new();
    // GT-M5's count of each ruleset, read once a ruleset, not once a competition (a
    // federation's thousands of divisions share a few).
    let mut drops: std::collections::HashMap<&arbiter_store::RulesRef, Option<u32>> =
        std::collections::HashMap::new();
    for (li, t) in trees.iter().enumerate() {
        for (si, (s, comps)) in t.seasons.iter().enumerate() {
            for (ci, c) in comps.iter().enumerate() {
                let drop_after = *drops.entry(&c.rules).or_insert_with(|| {
                    site::rules_of(&c.rules)
                        .and_then(|rules| rules.drop)
                        .map(|d| d.after_match_forfeits.max(1))
                });
                let place = Place {
                    li,
                    si,
                    ci,
                    s,
                    c,
                    drop_after,
                };
                places.insert(c.id, place);
            }
        }
    }
    // In the order the views were read before: season, competition, round number.
    let in_order = |rounds: &mut Vec<(&Place<'_>, &DatedRound)>| {
        rounds.sort_by_key(|(p, r)| (p.si, p.ci, r.number));
    };
    let window = (
        weeks.iter().map(|w| w.0).min(),
        weeks.iter().map(|w| w.1).max(),
    );
    let dated = match window {
        (Some(from), Some(to)) => state.store().rounds_between(from, to).await?,
        _ => Vec::new(),
    };
    let mut this_week = Vec::new();
    let mut next: Option<(jiff::civil::Date, &Place<'_>, DatedRound)> = None;
    let mut next_days: std::collections::HashMap<jiff::civil::Date, Vec<DatedRound>> =
        std::collections::HashMap::new();
    for (li, (t, &(monday, sunday))) in trees.iter().zip(&weeks).enumerate() {
        let mut rounds: Vec<(&Place<'_>, &DatedRound)> = dated
            .iter()
            .filter(|r| r.date >= monday && r.date <= sunday)
            .filter_map(|r| places.get(&r.competition).map(|p| (p, r)))
            .filter(|(p, _)| p.li == li)
            .collect();
        in_order(&mut rounds);
        // (day, competition's order, competition, its rounds that day, the matches of one).
        let mut days: Vec<(jiff::civil::Date, usize, WeekLine)> = Vec::new();
        for (p, r) in rounds {
            let (d, ci) = (r.date, p.ci);
            let href = competition_href(&t.league.slug, &p.s.slug, &p.c.slug);
            let round = Link::new(
                format!("{href}/rounds/{}", r.number),
                format!("Round {}", r.number),
            );
            match days.iter_mut().find(|(day, i, _)| *day == d && *i == ci) {
                Some((_, _, line)) => {
                    line.rounds.push(round);
                    // Several rounds a day: the rounds' pages name the matches.
                    line.matches.clear();
                }
                None => days.push((
                    d,
                    ci,
                    WeekLine {
                        competition: Link::new(href, &p.c.name),
                        rounds: vec![round],
                        matches: matches_line(state, t, p, r).await?,
                    },
                )),
            }
        }
        // The league's first round day after its week, its first round in the order above;
        // read once for every league whose week ends that Sunday (issue 35).
        if let std::collections::hash_map::Entry::Vacant(e) = next_days.entry(sunday) {
            e.insert(state.store().first_rounds_after(sunday).await?);
        }
        let mut after: Vec<(&Place<'_>, &DatedRound)> = next_days
            .get(&sunday)
            .into_iter()
            .flatten()
            .filter(|r| r.league == t.league.id)
            .filter_map(|r| places.get(&r.competition).map(|p| (p, r)))
            .collect();
        in_order(&mut after);
        if let Some(&(p, r)) = after.first()
            && next.as_ref().is_none_or(|(nd, _, _)| r.date < *nd)
        {
            next = Some((r.date, p, r.clone()));
        }
        days.sort_by_key(|(d, i, _)| (*d, *i));
        let mut by_day: Vec<WeekDay> = Vec::new();
        let mut last = None;
        for (d, _, line) in days {
            if last != Some(d) {
                by_day.push(WeekDay {
                    date: words::date(d),
                    lines: Vec::new(),
                });
                last = Some(d);
            }
            if let Some(day) = by_day.last_mut() {
                day.lines.push(line);
            }
        }
        if !by_day.is_empty() {
            this_week.push(WeekLeague {
                league: Link::new(league_href(&t.league.slug), &t.league.name),
                week: ((monday, sunday) != heading).then(|| week_text((monday, sunday))),
                days: by_day,
            });
        }
    }
    let next = match next {
        Some((d, p, mut r)) => {
            r.matches = state.store().round_matches(r.competition, r.number).await?;
            let t = &trees[p.li];
            let href = competition_href(&t.league.slug, &p.s.slug, &p.c.slug);
            Some(WeekItem {
                date: words::date(d),
                competition: Link::new(
                    href.clone(),
                    format!("{} \u{2014} {} {}", p.c.name, t.league.name, p.s.name),
                ),
                round: Link::new(
                    format!("{href}/rounds/{}", r.number),
                    format!("Round {}", r.number),
                ),
                matches: matches_line(state, t, p, &r).await?,
            })
        }
        None => None,
    };
    let mut published = std::collections::HashMap::new();
    for t in &trees {
        for (s, _) in &t.seasons {
            published.insert(s.id, published_reports(state, s).await?);
        }
    }
    let leagues = trees
        .iter()
        .map(|t| LeagueCard {
            link: Link::new(league_href(&t.league.slug), &t.league.name),
            schools: crate::public::schools::schools_href(&t.league.slug),
            kind: pages::kind_word(t.league.kind),
            description: t.league.description.clone(),
            seasons: t
                .seasons
                .iter()
                .map(|(s, c)| {
                    let p = published.get(&s.id).map_or(&[][..], Vec::as_slice);
                    let mut block = season_block(&t.league, s, c, p);
                    if c.len() > HOME_LISTS_UP_TO {
                        block.folded = Some(c.len());
                        block.competitions.clear();
                    }
                    block
                })
                .collect(),
        })
        .collect();
    let page = HomePage {
        layout: crate::ui::layout::site_layout(
            "Arbiter \u{2014} leagues and events".into(),
            "Leagues and events".into(),
            Vec::new(),
            "/api/v1/leagues".into(),
        ),
        week: week_text(heading),
        this_week,
        next,
        leagues,
    };
    pages::render_home(&page)
}

/// The season of a league, or a 404 that lists its seasons.
fn find_season<'t>(t: &'t site::LeagueTree, x: &str) -> Result<&'t Season, WebError> {
    let l = &t.league;
    t.seasons
        .iter()
        .map(|(s, _)| s)
        .find(|s| s.slug == x)
        .ok_or_else(|| WebError::NotFound {
            message: format!(
                "{} has no season “{x}”. Its seasons are listed below.",
                l.name
            ),
            links: t
                .seasons
                .iter()
                .map(|(s, _)| Link::new(season_href(&l.slug, &s.slug), &s.name))
                .collect(),
        })
}

/// Every competition of a season, each as its pages see it; with the league and the season.
pub async fn season_views(
    state: &AppState,
    league: &str,
    season: &str,
) -> Result<(League, Season, Vec<Arc<CompetitionView>>), WebError> {
    let t = site::one(state, league).await?;
    let s = find_season(&t, season)?.clone();
    let mut views = Vec::new();
    for (x, records) in &t.seasons {
        if x.id != s.id {
            continue;
        }
        for r in records {
            views.push(state.public_view(league, season, &r.slug).await?);
        }
    }
    Ok((t.league, s, views))
}

/// The ETag base of several competitions' pages: it changes when any of them does.
pub fn etag_base(views: &[Arc<CompetitionView>]) -> u64 {
    views
        .iter()
        .fold(0_u64, |h, v| h.rotate_left(7) ^ v.etag_base)
}

/// `/leagues/{league}` and, with `season`, `/leagues/{league}/{season}`.
pub async fn league_html(
    state: &AppState,
    slug: &str,
    season: Option<&str>,
) -> Result<Bytes, WebError> {
    let t = site::one(state, slug).await?;
    let l = &t.league;
    let mut seasons: Vec<SeasonBlock> = Vec::new();
    for (s, c) in t
        .seasons
        .iter()
        .filter(|(s, _)| season.is_none_or(|x| x == s.slug))
    {
        seasons.push(season_block(l, s, c, &published_reports(state, s).await?));
    }
    let (title, heading, crumbs) = match season {
        None => (l.name.clone(), l.name.clone(), Vec::new()),
        Some(x) => {
            let s = find_season(&t, x)?;
            let name = format!("{} {}", l.name, s.name);
            (
                name.clone(),
                name,
                vec![Link::new(league_href(&l.slug), &l.name)],
            )
        }
    };
    let api = format!("/api/v1/leagues/{}", words::segment(&l.slug));
    let page = LeaguePage {
        layout: crate::ui::layout::site_layout(title, heading, crumbs, api),
        kind: pages::kind_word(l.kind),
        description: l.description.clone(),
        seasons,
        // AS-8: an event's lots drawn, open to every team.
        lots: (l.kind == arbiter_store::LeagueKind::Event)
            .then(|| crate::event::field::lots_href(&l.slug)),
        schools: crate::public::schools::schools_href(&l.slug),
        feeds: match (season, t.season_now(state)) {
            (None, Some((s, _))) => vec![Feed::new(
                state.base_url(),
                &league_calendar_href(&l.slug),
                format!("Every match of {}, {}", l.name, s.name),
            )],
            _ => Vec::new(),
        },
        current: match (season, t.season_now(state)) {
            (None, Some((s, records))) => {
                let lasting = format!("{}/current", league_href(&l.slug));
                let example = records
                    .first()
                    .map(|r| format!("{lasting}/{}", r.slug))
                    .unwrap_or_else(|| lasting.clone());
                Some((
                    Link::new(lasting, format!("The season being played: {}", s.name)),
                    example,
                ))
            }
            _ => None,
        },
    };
    pages::render_league(&page)
}
