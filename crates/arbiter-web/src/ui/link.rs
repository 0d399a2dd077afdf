//! Links and the site's addresses: one spelling of each address, its segments escaped.

use crate::ui::words::segment;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Link {
    pub href: String,
    pub text: String,
}

impl Link {
    pub fn new(href: impl Into<String>, text: impl Into<String>) -> Link {
        Link {
            href: href.into(),
            text: text.into(),
        }
    }
}

pub fn league_href(league: &str) -> String {
    format!("/leagues/{}", segment(league))
}

pub fn season_href(league: &str, season: &str) -> String {
    format!("/leagues/{}/{}", segment(league), segment(season))
}

/// `/leagues/{league}/{season}/playoffs`: the public bracket (issue 15).
pub fn playoffs_href(league: &str, season: &str) -> String {
    format!("{}/playoffs", season_href(league, season))
}

/// `/leagues/{league}/{season}/awards`: the public awards list (issue 15).
pub fn awards_href(league: &str, season: &str) -> String {
    format!("{}/awards", season_href(league, season))
}

/// GT-F5: the officers' page that suspends a season's schedule.
pub fn suspension_href(league: &str, season: &str) -> String {
    format!("{}/suspension", season_href(league, season))
}

pub fn competition_href(league: &str, season: &str, competition: &str) -> String {
    format!(
        "/leagues/{}/{}/{}",
        segment(league),
        segment(season),
        segment(competition)
    )
}

/// `/leagues/{league}/schedule.ics`: the league's current season as a calendar (issue 32).
pub fn league_calendar_href(league: &str) -> String {
    format!("{}/schedule.ics", league_href(league))
}

/// `/leagues/{league}/schools/{school}/schedule.ics`: a school's teams as a calendar (issue
/// 32), the school named by its name's slug; `None` for a name with no letter or digit to make
/// one of.
pub fn school_calendar_href(league: &str, school: &str) -> Option<String> {
    let slug = arbiter_core::record::text::slug(school)?;
    Some(format!(
        "{}/schools/{}/schedule.ics",
        league_href(league),
        segment(&slug)
    ))
}

/// A calendar feed as a page offers it (issue 32): the `webcal://` link a phone's calendar
/// subscribes to when it is tapped, and the same address on the web, to paste into a calendar
/// that asks for one (Google's "From URL").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Feed {
    /// What the feed holds: `This team's matches`.
    pub what: String,
    /// `webcal://league.example/leagues/…/schedule.ics`.
    pub webcal: String,
    /// `https://league.example/leagues/…/schedule.ics`.
    pub web: String,
}

impl Feed {
    /// The feed at `path` on the site at `site` (`https://league.example`; empty: the links
    /// stay relative, the `webcal:` one too).
    pub fn new(site: &str, path: &str, what: impl Into<String>) -> Feed {
        let web = format!("{site}{path}");
        let webcal = match web.split_once("://") {
            Some((_, rest)) => format!("webcal://{rest}"),
            None => format!("webcal:{web}"),
        };
        Feed {
            what: what.into(),
            webcal,
            web,
        }
    }
}
