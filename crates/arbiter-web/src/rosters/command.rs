//! One player, one person from the command line (`arbiter roster people`, `arbiter roster
//! link`): the entries of a competition that a name with a birth date or a school suggests are
//! one person with an entry of another competition of the season, and an officer's link of two
//! entries, through the rosters page's own write path (`write::link`: AS-3 refuses a person on
//! teams of two competitions whose dates overlap), kept in the history as the command line's.

use arbiter_core::PlayerId;
use arbiter_core::teams::eligibility::{self, Who};
use arbiter_store::Actor;

use super::change::entry_label;
use super::write::{self, LinkTo, NotChanged};
use crate::app::season::SeasonViews;
use crate::app::state::AppState;
use crate::app::view::CompetitionView;

/// The view of competition `competition` (its slug) of `league`, in whichever season it is.
async fn competition_view(
    state: &AppState,
    league: &str,
    competition: &str,
) -> Result<std::sync::Arc<CompetitionView>, String> {
    let tree = crate::app::site::one(state, league)
        .await
        .map_err(|e| e.message())?;
    let Some((season, _)) = tree
        .seasons
        .iter()
        .find(|(_, cs)| cs.iter().any(|c| c.slug == competition))
    else {
        return Err(format!(
            "{} has no competition `{competition}`; `arbiter export` lists a league's competitions",
            tree.league.name
        ));
    };
    state
        .view(league, &season.slug, competition)
        .await
        .map_err(|e| e.message())
}

/// Each player of `competition` with the entries of the season's other competitions that are
/// the same person, and those a name with a birth date or a school suggests, with the command
/// that links them: a line each.
pub async fn person_lines(
    state: &AppState,
    league: &str,
    competition: &str,
) -> Result<Vec<String>, String> {
    let view = competition_view(state, league, competition).await?;
    let season = SeasonViews::around(state, &view)
        .await
        .map_err(|e| e.message())?;
    let entries = season.entries();
    let Some(at) = season.at(view.id) else {
        return Ok(Vec::new());
    };
    let mut out = Vec::new();
    for t in &view.competition.teams {
        for p in &t.players {
            let me = entry_label(&season, at, &p.id);
            for (j, v) in season.views.iter().enumerate().filter(|(j, _)| *j != at) {
                for q in v.competition.teams.iter().flat_map(|t| &t.players) {
                    if q.is_same_person(p) {
                        out.push(format!(
                            "{} ({}): one person with {}",
                            me,
                            p.id,
                            entry_label(&season, j, &q.id)
                        ));
                    }
                }
            }
            for s in eligibility::suggestions(&entries, at, &Who::of(t, p)) {
                let there = &season.views[s.competition];
                out.push(format!(
                    "{} ({}): maybe the same person as {}, {}; if so: arbiter roster link --league {league} --competition {competition} --player {} --to {}/{} --reason \"…\"",
                    me,
                    p.id,
                    entry_label(&season, s.competition, &s.player),
                    s.why,
                    p.id,
                    there.record.slug,
                    s.player
                ));
            }
        }
    }
    Ok(out)
}

/// Links player `player` of `competition` with `to` (`competition-slug/player-id`, or `own`) as
/// one person, from the command line; the sentence to print, or every reason it was refused.
pub async fn link_person(
    state: &AppState,
    league: &str,
    competition: &str,
    player: &str,
    to: &str,
    reason: &str,
) -> Result<String, String> {
    let view = competition_view(state, league, competition).await?;
    let Some(link) = LinkTo::parse(to) else {
        return Err(format!(
            "“{to}” names no player: give the competition's slug and the player's id (division-a/scott1), or `own` for a person of their own"
        ));
    };
    let id = PlayerId(player.to_string());
    let name = view
        .player(player)
        .map_or_else(|| player.to_string(), |(p, _)| p.name.clone());
    match write::link(state, &view, &id, &link, reason, &Actor::system()).await {
        Ok(person) => Ok(match link {
            LinkTo::Own => format!(
                "{name} of {} is a person of their own again ({person}); the history keeps why",
                view.record.name
            ),
            LinkTo::SameAs {
                competition,
                player,
            } => format!(
                "{name} of {} is one person with {player} of {competition} ({person}); the history keeps why",
                view.record.name
            ),
        }),
        Err(NotChanged::Refused(problems)) => Err(problems.join("\n")),
        Err(NotChanged::Stale(m)) => Err(m),
        Err(NotChanged::Failed(e)) => Err(e.message()),
    }
}
