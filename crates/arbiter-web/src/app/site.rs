//! The league tree: a league with its seasons and their competitions, as the pages above a
//! competition and the account pages read it.

use arbiter_core::rules::ruleset::{PresetsOnly, Ruleset};
use arbiter_core::season::offers::Offers;
use arbiter_store::{CompetitionRecord, League, RulesRef, Season};

use crate::app::state::AppState;
use crate::http::error::WebError;

/// A league with its seasons and their competitions.
#[derive(Debug)]
pub struct LeagueTree {
    pub league: League,
    pub seasons: Vec<(Season, Vec<CompetitionRecord>)>,
}

impl LeagueTree {
    /// The season being played on `today` (the league's day, issue 32 item 11), among those
    /// with a competition: the one whose days hold today; else, between seasons, the next to
    /// come (its divisions made, its schedule is what people look for); else the latest begun.
    /// A season without dates counts as begun. `None` before any season has a competition.
    pub fn season_being_played(
        &self,
        today: jiff::civil::Date,
    ) -> Option<&(Season, Vec<CompetitionRecord>)> {
        let with_comps = || self.seasons.iter().filter(|(_, c)| !c.is_empty());
        let begun = |s: &Season| s.starts_on.is_none_or(|d| d <= today);
        with_comps()
            .rfind(|(s, _)| begun(s) && s.ends_on.is_some_and(|e| today <= e))
            .or_else(|| with_comps().find(|(s, _)| !begun(s)))
            .or_else(|| with_comps().rfind(|(s, _)| begun(s)))
    }

    /// The season being played in the league's zone by `state`'s clock.
    pub fn season_now(&self, state: &AppState) -> Option<&(Season, Vec<CompetitionRecord>)> {
        self.season_being_played(state.today_in(&self.league.time_zone))
    }

    /// The league's own ID for ruleset field `key` (issue 34 item 5): the first the rules of
    /// the season being played (else of any season) cite; `None` when none does.
    pub fn cite_now(&self, state: &AppState, key: &str) -> Option<String> {
        self.rules_now(state)
            .find_map(|r| r.cite(key).map(str::to_string))
    }

    /// What the league's rules offer its pages (issue 32 item 24): any of the rules of the
    /// season being played's competitions, else of every season's; nothing before the first.
    pub fn offers(&self, state: &AppState) -> Offers {
        self.rules_now(state)
            .map(|r| Offers::of(&r))
            .fold(Offers::default(), Offers::union)
    }

    /// The rules of the season being played's competitions, else of every season's.
    fn rules_now(&self, state: &AppState) -> impl Iterator<Item = Ruleset> {
        let now = self.season_now(state).map(|(_, c)| c.as_slice());
        let records: Vec<&CompetitionRecord> = match now {
            Some(c) if !c.is_empty() => c.iter().collect(),
            _ => self.seasons.iter().flat_map(|(_, c)| c).collect(),
        };
        // Each ruleset read once, however many divisions play by it (issue 35: a federation's
        // hundred divisions of one preset were a hundred readings on every home page).
        let mut seen = std::collections::HashSet::new();
        records
            .into_iter()
            .filter(move |r| seen.insert(&r.rules))
            .filter_map(|r| rules_of(&r.rules))
    }
}

/// The stored rules as a ruleset; `None` when they no longer read (the competition's own page
/// says why).
pub fn rules_of(rules: &RulesRef) -> Option<Ruleset> {
    match rules {
        RulesRef::Preset(name) => Ruleset::preset(name),
        RulesRef::Toml(text) => Ruleset::from_toml("rules", text, &PresetsOnly).ok(),
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

/// Every league with its seasons in the site's order, each season with what `of_season`
/// gives it: in two queries however many leagues there are (issue 35).
pub async fn leagues_with<T>(
    state: &AppState,
    mut of_season: impl FnMut(&Season) -> T,
) -> Result<Vec<(League, Vec<(Season, T)>)>, WebError> {
    let store = state.store();
    let mut seasons: std::collections::HashMap<_, Vec<(Season, T)>> =
        std::collections::HashMap::new();
    for s in store.every_season().await? {
        let t = of_season(&s);
        seasons.entry(s.league).or_default().push((s, t));
    }
    Ok(store
        .leagues()
        .await?
        .into_iter()
        .map(|league| {
            let seasons = seasons.remove(&league.id).unwrap_or_default();
            (league, seasons)
        })
        .collect())
}

/// Every league's tree, in three queries however many leagues there are (issue 35).
pub async fn all(state: &AppState) -> Result<Vec<LeagueTree>, WebError> {
    let mut competitions: std::collections::HashMap<_, Vec<CompetitionRecord>> =
        std::collections::HashMap::new();
    for c in state.store().every_competition().await? {
        competitions.entry(c.season).or_default().push(c);
    }
    let leagues = leagues_with(state, |s| competitions.remove(&s.id).unwrap_or_default()).await?;
    Ok(leagues
        .into_iter()
        .map(|(league, seasons)| LeagueTree { league, seasons })
        .collect())
}

/// The league named by `slug`, or a 404 that lists the leagues.
pub async fn one(state: &AppState, slug: &str) -> Result<LeagueTree, WebError> {
    match state.store().league(slug).await? {
        Some(l) if l.slug == slug => tree(state, l).await,
        _ => Err(state.no_league(slug).await),
    }
}

/// The league `league`, and the account `email` acting in it as the table lets it for
/// `action` (a command line's step done as a person, through the site's write path); a
/// sentence when there is no such account or league, or the table refuses.
pub async fn acting_as(
    state: &AppState,
    email: &str,
    league: &str,
    action: arbiter_core::rules::permissions::Action,
) -> Result<(LeagueTree, crate::http::auth::Acting), String> {
    let account = crate::http::auth::Accounts::new(state.store().clone())
        .by_email(email)
        .await?;
    let tree = one(state, league).await.map_err(|e| e.message())?;
    let acting = crate::http::auth::permit(
        Some(&account),
        tree.league.id,
        action,
        arbiter_core::rules::permissions::Target::League,
    )
    .map_err(|e| e.message())?;
    Ok((tree, acting))
}

/// A league and the signed-in account acting for it, when the account may do `action`
/// league-wide: the first step of every officer's page and form.
pub async fn league_officer(
    state: &AppState,
    auth: &crate::http::auth::Auth,
    league: &str,
    action: arbiter_core::rules::permissions::Action,
) -> Result<(LeagueTree, crate::http::auth::Acting), WebError> {
    let tree = one(state, league).await?;
    let acting = crate::http::auth::permit_in_league(auth, tree.league.id, action)?;
    Ok((tree, acting))
}

#[cfg(test)]
mod tests {
    use super::*;
    use arbiter_store::{CompetitionId, LeagueId, LeagueKind, RulesRef, SeasonId};
    use jiff::civil::{Date, date};

    fn season(id: i64, starts: Option<Date>, ends: Option<Date>) -> Season {
        Season {
            id: SeasonId(id),
            league: LeagueId(1),
            slug: format!("s{id}"),
            name: format!("Season {id}"),
            starts_on: starts,
            ends_on: ends,
        }
    }

    /// Issue 32 item 11: the ledger, the reports and the calendar open on the season being
    /// played, not the newest one created.
    #[test]
    fn the_season_being_played_is_chosen_by_its_days_not_by_when_it_was_made() {
        let tree = |seasons: Vec<Season>| LeagueTree {
            league: League {
                id: LeagueId(1),
                slug: "gthscl".into(),
                name: "GTHSCL".into(),
                kind: LeagueKind::League,
                description: String::new(),
                time_zone: arbiter_core::record::zone::Zone::utc(),
            },
            seasons: seasons
                .into_iter()
                .map(|s| {
                    let division = CompetitionRecord {
                        id: CompetitionId(s.id.0),
                        season: s.id,
                        slug: format!("metro-{}", s.slug),
                        name: "Metro".into(),
                        rules: RulesRef::Preset("gthscl".into()),
                        version: 1,
                        changed_in: 1,
                    };
                    (s, vec![division])
                })
                .collect(),
        };
        let this = season(1, Some(date(2026, 10, 5)), Some(date(2027, 2, 24)));
        let next = season(2, Some(date(2027, 10, 4)), Some(date(2028, 2, 23)));
        let alone = tree(vec![this.clone()]);
        let both = tree(vec![this, next]);
        let playing = |t: &LeagueTree, d| t.season_being_played(d).map(|(s, _)| s.id.0);
        assert_eq!(playing(&both, date(2026, 12, 6)), Some(1), "in its days");
        assert_eq!(
            playing(&alone, date(2027, 6, 1)),
            Some(1),
            "the summer after it"
        );
        assert_eq!(
            playing(&both, date(2027, 6, 1)),
            Some(2),
            "the summer, the next season's divisions made"
        );
        assert_eq!(playing(&both, date(2028, 6, 1)), Some(2), "after the last");
        assert_eq!(
            playing(&both, date(2026, 9, 1)),
            Some(1),
            "before any, the first to come"
        );
    }
}
