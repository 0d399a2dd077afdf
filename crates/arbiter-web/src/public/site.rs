//! The pages above a competition: a league and a season, and the season blocks the home page
//! (`home.rs`) lists too.

use std::collections::HashMap;
use std::sync::Arc;

use axum::body::Bytes;

use arbiter_core::season_end::media::Moment;
use arbiter_store::{CompetitionRecord, League, Season, SeasonId};

use crate::app::site;
use crate::app::state::AppState;
use crate::app::view::CompetitionView;
use crate::http::error::WebError;
use crate::public::pages::{self, LeaguePage, SeasonBlock};
use crate::ui::link::{
    Feed, Link, competition_href, league_calendar_href, league_href, season_href,
};
use crate::ui::words;

/// The moments of each season's media reports the Vice-President has published (GT-O3), which
/// the season's block links: one query for every season.
pub(crate) async fn published_reports(
    state: &AppState,
) -> Result<HashMap<SeasonId, Vec<Moment>>, WebError> {
    let mut out: HashMap<SeasonId, Vec<Moment>> = HashMap::new();
    for (season, moment) in state.store().published_media_reports().await? {
        out.entry(season).or_default().push(moment);
    }
    Ok(out)
}

/// Whether any of `rules` ends its season in playoffs (GT-F1).
pub(crate) fn any_playoffs<'r>(
    rules: impl IntoIterator<Item = &'r arbiter_store::RulesRef>,
) -> bool {
    rules
        .into_iter()
        .any(|r| site::rules_of(r).is_some_and(|r| r.playoffs.is_some()))
}

/// A season as the league page and the home page list it: `comps` its competitions listed,
/// `playoffs` whether any of its competitions' rules end the season in playoffs.
pub(crate) fn season_block(
    league: &League,
    s: &Season,
    comps: &[CompetitionRecord],
    playoffs: bool,
    published: &[Moment],
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
        season_end: if league.kind == arbiter_store::LeagueKind::League && playoffs {
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
    let published = published_reports(state).await?;
    for (s, c) in t
        .seasons
        .iter()
        .filter(|(s, _)| season.is_none_or(|x| x == s.slug))
    {
        let playoffs = any_playoffs(c.iter().map(|c| &c.rules));
        let reports = published.get(&s.id).map_or(&[][..], Vec::as_slice);
        seasons.push(season_block(l, s, c, playoffs, reports));
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
