//! What a write must satisfy before it reaches the tables, said as sentences. These are the
//! store's own needs (unique ids, references that resolve); the league's rules are core's.

use std::collections::{HashMap, HashSet};

use arbiter_core::record::text::{self, Reason, TextKind};
use arbiter_core::rules::ruleset::{PresetsOnly, preset_names};
use arbiter_core::{Competition, MatchOutcome, Pairing, Player, PlayerId, Ruleset, TeamId};

use crate::error::StoreError;
use crate::records::{NewSeason, RulesRef};

/// A slug is a URL path segment: lowercase ASCII letters, digits and inner hyphens.
pub(crate) fn slug(what: &str, slug: &str) -> Result<(), StoreError> {
    let ok = !slug.is_empty()
        && slug.len() <= 64
        && slug
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        && !slug.starts_with('-')
        && !slug.ends_with('-');
    if ok {
        Ok(())
    } else {
        Err(StoreError::Invalid(format!(
            "the {what} slug `{slug}` cannot be used in a web address; use 1 to 64 lowercase letters, digits and hyphens, not starting or ending with a hyphen (e.g. `2025-26`)"
        )))
    }
}

/// The season's own pages take these places after `/leagues/{league}/{season}/`.
const SEASON_PAGES: [&str; 7] = [
    "suspension",
    "history",
    "ratings",
    "qualification",
    "playoffs",
    "awards",
    "reports",
];

/// The league's own pages take these places after `/leagues/{league}/`, where a season would.
const LEAGUE_PAGES: [&str; 16] = [
    "current",
    "schools",
    "lots",
    "people",
    "invites",
    "rosters",
    "setup",
    "field",
    "findings",
    "ledger",
    "history",
    "schedule.ics",
    "ledger.csv",
    "history.csv",
    "suspension",
    "reports",
];

/// A season's slug must not be one of its league's own pages (`current` is the lasting address
/// of the season being played, issue 32).
pub(crate) fn season_slug(slug: &str) -> Result<(), StoreError> {
    if LEAGUE_PAGES.contains(&slug) {
        return Err(StoreError::Invalid(format!(
            "the season slug `{slug}` is the address of the league's {slug} page; choose another, such as `2026-27`"
        )));
    }
    Ok(())
}

/// A competition's slug must not be one of its season's own pages.
pub(crate) fn competition_slug(slug: &str) -> Result<(), StoreError> {
    if SEASON_PAGES.contains(&slug) {
        return Err(StoreError::Invalid(format!(
            "the competition slug `{slug}` is the address of the season's {slug} page; choose another, such as `{slug}-division`"
        )));
    }
    Ok(())
}

pub(crate) fn name(what: &str, name: &str) -> Result<(), StoreError> {
    if name.trim().is_empty() {
        return Err(StoreError::Invalid(format!(
            "the {what} has no name; give it the name people know it by"
        )));
    }
    text(TextKind::Name, &format!("the {what}'s name"), name.trim())
}

/// The text fits its kind's limit (`arbiter_core::record::text`), or the sentence refusing it.
pub(crate) fn text(kind: TextKind, what: &str, text: &str) -> Result<(), StoreError> {
    text::check(kind, what, text).map_err(|e| StoreError::Invalid(e.to_string()))
}

/// A reason as it is kept: trimmed, `None` when blank, refused beyond its limit.
pub(crate) fn reason(reason: Option<&str>) -> Result<Option<Reason>, StoreError> {
    reason
        .map(Reason::parse)
        .transpose()
        .map(Option::flatten)
        .map_err(|e| StoreError::Invalid(e.to_string()))
}

/// Core's say on a new season's days (`calendar::check_new_season`), for every writer.
pub(crate) fn season_dates(new: &NewSeason) -> Result<(), StoreError> {
    arbiter_core::record::calendar::check_new_season(new.starts_on, new.ends_on)
        .map_err(|e| StoreError::Invalid(e.to_string()))
}

/// How messages name a match.
pub(crate) fn match_label(round: u32, home: &TeamId, away: &TeamId) -> String {
    format!("round {round}, match {home} v {away}")
}

/// The competition can be stored: team ids unique, each player id one player, round numbers
/// unique, every pairing names teams of the competition, every board names rostered players.
pub(crate) fn competition(c: &Competition) -> Result<(), StoreError> {
    let mut teams = HashSet::new();
    let mut players: HashMap<&PlayerId, (&Player, &TeamId)> = HashMap::new();
    text(TextKind::Name, "the competition's name", &c.name)?;
    for t in &c.teams {
        text(
            TextKind::Name,
            &format!("the name of team {}", t.id),
            &t.name,
        )?;
        if let Some(school) = &t.school {
            text(
                TextKind::Name,
                &format!("the school of team {}", t.id),
                school,
            )?;
        }
        for p in &t.players {
            text(
                TextKind::Name,
                &format!("the name of player {}", p.id),
                &p.name,
            )?;
            if let Some(school) = &p.school {
                text(
                    TextKind::Name,
                    &format!("the school of player {}", p.id),
                    school,
                )?;
            }
        }
        if !teams.insert(&t.id) {
            return Err(StoreError::Invalid(format!(
                "the team id `{}` is given to two teams; give each team an id of its own",
                t.id
            )));
        }
        let mut on_roster = HashSet::new();
        for p in &t.players {
            if !on_roster.insert(&p.id) {
                return Err(StoreError::Invalid(format!(
                    "the player id `{}` is listed twice on {}'s roster (AS-10: each player has one place in the order); remove one entry",
                    p.id, t.id
                )));
            }
            if let Some((other, other_team)) = players.insert(&p.id, (p, &t.id))
                && other != p
            {
                return Err(StoreError::Invalid(format!(
                    "the player id `{}` is given to two different players ({} on {other_team}'s roster, {} on {}'s); give each player an id of their own",
                    p.id, other.name, p.name, t.id
                )));
            }
        }
    }
    let mut rounds = HashSet::new();
    for r in &c.rounds {
        if !rounds.insert(r.number) {
            return Err(StoreError::Invalid(format!(
                "round {} appears twice in the competition; give each round its own number",
                r.number
            )));
        }
        for p in &r.pairings {
            match p {
                Pairing::Bye(b) => {
                    if !teams.contains(&b.team) {
                        return Err(StoreError::Invalid(format!(
                            "round {}: the bye names the team `{}`, which is not in the competition; add the team or correct the id",
                            r.number, b.team
                        )));
                    }
                }
                Pairing::Match(m) => {
                    let label = match_label(r.number, &m.home, &m.away);
                    for t in [&m.home, &m.away] {
                        if !teams.contains(t) {
                            return Err(StoreError::Invalid(format!(
                                "{label}: the team `{t}` is not in the competition; add the team or correct the id"
                            )));
                        }
                    }
                    if m.home == m.away {
                        return Err(StoreError::Invalid(format!(
                            "{label}: a team cannot play itself; correct one of the two teams"
                        )));
                    }
                    outcome_players(&label, &m.outcome, |p| players.contains_key(p))?;
                }
            }
        }
    }
    Ok(())
}

/// Every player a board names is on a roster of the competition.
pub(crate) fn outcome_players(
    label: &str,
    outcome: &MatchOutcome,
    known: impl Fn(&PlayerId) -> bool,
) -> Result<(), StoreError> {
    let MatchOutcome::Boards(boards) = outcome else {
        return Ok(());
    };
    for (i, b) in boards.iter().enumerate() {
        for (side, p) in [("home", &b.home_player), ("away", &b.away_player)] {
            if let Some(p) = p
                && !known(p)
            {
                return Err(StoreError::Invalid(format!(
                    "{label}, board {}: the {side} player `{p}` is on no roster of this competition; add them to their team's roster or correct the id",
                    i + 1
                )));
            }
        }
    }
    Ok(())
}

/// The stored rules as a ruleset, or what is wrong with them. `slug` names the competition.
pub(crate) fn rules(slug: &str, rules: &RulesRef) -> Result<Ruleset, String> {
    match rules {
        RulesRef::Preset(name) => Ruleset::preset(name).ok_or_else(|| {
            format!(
                "the rules preset `{name}` does not exist; use one of {}, or give the rules as TOML",
                preset_names().join(", ")
            )
        }),
        RulesRef::Toml(text) => Ruleset::from_toml(&format!("{slug} rules"), text, &PresetsOnly)
            .map_err(|e| e.to_string()),
    }
}

#[cfg(test)]
mod tests {
    /// Issue 32 item 11: `/leagues/{league}/current` is the season being played, so no season
    /// takes the slug; nor the league's other pages.
    #[test]
    fn a_season_slug_is_not_a_league_page() {
        assert!(super::season_slug("2026-27").is_ok());
        for page in ["current", "schools", "lots", "history"] {
            let e = super::season_slug(page).unwrap_err().to_string();
            assert!(e.contains("the address of the league's"), "{e}");
        }
    }
}
