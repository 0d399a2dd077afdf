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
