//! The league tree: a league with its seasons and their competitions, as the pages above a
//! competition and the account pages read it.

use arbiter_store::{CompetitionRecord, League, Season};

use crate::app::state::AppState;
use crate::http::error::WebError;

/// A league with its seasons and their competitions.
#[derive(Debug)]
pub struct LeagueTree {
    pub league: League,
    pub seasons: Vec<(Season, Vec<CompetitionRecord>)>,
}

impl LeagueTree {
    /// The league's current season (issue 32): its latest with a competition, seasons being in
    /// the order of their first days; `None` before any has one.
    pub fn current_season(&self) -> Option<&(Season, Vec<CompetitionRecord>)> {
        self.seasons
            .iter()
            .rev()
            .find(|(_, comps)| !comps.is_empty())
    }
}

pub async fn tree(state: &AppState, league: League) -> Result<LeagueTree, WebError> {
    let store = state.store();
    let mut seasons = Vec::new();
    for s in store.seasons(league.id).await? {
        let comps = store.competitions(s.id).await?;
        seasons.push((s, comps));
    }
    Ok(LeagueTree { league, seasons })
}

pub async fn all(state: &AppState) -> Result<Vec<LeagueTree>, WebError> {
    let mut out = Vec::new();
    for l in state.store().leagues().await? {
        out.push(tree(state, l).await?);
    }
    Ok(out)
}

/// The league named by `slug`, or a 404 that lists the leagues.
pub async fn one(state: &AppState, slug: &str) -> Result<LeagueTree, WebError> {
    match state.store().league(slug).await? {
        Some(l) if l.slug == slug => tree(state, l).await,
        _ => Err(state.no_league(slug).await),
    }
}
