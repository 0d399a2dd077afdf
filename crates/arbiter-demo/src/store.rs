//! Writing the demo into a store (feature `store`).

use arbiter_store::{
    Actor, EventRoundStart, NewClosure, NewCompetition, NewEvent, NewLeague, NewSeason, RulesRef,
    Store, StoreError,
};

use crate::{Demo, LeagueKind};

/// Writes every league, season and competition of `demo` into `store`, as `by`, and each
/// season's fee ledger as the league's Treasurer recorded it.
/// `on_competition(league slug, competition name)` is called before each competition is stored
/// (for a progress bar). Returns the number of competitions stored.
pub async fn write_to(
    store: &Store,
    demo: &Demo,
    by: &Actor,
    mut on_competition: impl FnMut(&str, &str),
) -> Result<usize, StoreError> {
    let mut stored = 0;
    for l in &demo.leagues {
        let league = store
            .create_league(
                &NewLeague {
                    slug: l.slug.clone(),
                    name: l.name.clone(),
                    kind: match l.kind {
                        LeagueKind::League => arbiter_store::LeagueKind::League,
                        LeagueKind::Event => arbiter_store::LeagueKind::Event,
                    },
                    description: l.description.clone(),
                    time_zone: arbiter_core::record::zone::Zone::named(l.time_zone)
                        .map_err(|e| StoreError::Invalid(e.to_string()))?,
                },
                by,
            )
            .await?;
        for s in &l.seasons {
            let season = store
                .create_season(
                    league.id,
                    &NewSeason {
                        slug: s.slug.clone(),
                        name: s.name.clone(),
                        starts_on: Some(s.starts_on),
                        ends_on: Some(s.ends_on),
                    },
                    by,
                )
                .await?;
            for c in &s.closures {
                let closed = NewClosure {
                    starts_on: c.from,
                    ends_on: c.to,
                    reason: c.reason.clone(),
                };
                store.add_closure(season.id, &closed, by).await?;
            }
            let mut ids = Vec::new();
            for c in &s.competitions {
                on_competition(&l.slug, &c.name);
                let record = store
                    .import_competition(
                        season.id,
                        &NewCompetition {
                            slug: c.slug.clone(),
                            name: c.name.clone(),
                            // A preset by its name; the team Swiss's rules as their TOML.
                            rules: if arbiter_core::Ruleset::preset(&c.rules).is_some() {
                                RulesRef::Preset(c.rules.clone())
                            } else {
                                RulesRef::Toml(c.rules.clone())
                            },
                        },
                        &c.competition,
                        by,
                    )
                    .await?;
                ids.push((c.slug.clone(), record.id));
                // Lineups named before their matches (issue 12) and game scores uploaded
                // (GT-M20) are written on the stored matches.
                if !c.lineups.is_empty() || !c.game_scores.is_empty() {
                    let loaded =
                        store
                            .load_competition_by_id(record.id)
                            .await?
                            .ok_or_else(|| {
                                StoreError::NotFound(format!("{} was not stored", c.name))
                            })?;
                    let match_id = |round: u32, home: &arbiter_core::record::model::TeamId| {
                        loaded.match_id(round, home).ok_or_else(|| {
                            StoreError::NotFound(format!(
                                "{} has no match at home to {home} in round {round}",
                                c.name
                            ))
                        })
                    };
                    for l in &c.lineups {
                        let m = match_id(l.round, &l.home)?;
                        store
                            .record_lineup(m, l.side, 0, &l.lineup, None, by)
                            .await?;
                    }
                    for g in &c.game_scores {
                        let m = match_id(g.round, &g.home)?;
                        store.record_game_score(m, g.board, &g.pgn, by).await?;
                    }
                }
                stored += 1;
            }
            // The event's days as its arbiter set them (AS-1, AS-3).
            if let Some(e) = &s.event {
                let rounds = e
                    .round_starts
                    .iter()
                    .filter_map(|(slug, starts)| {
                        let id = ids.iter().find(|(s, _)| s == slug)?.1;
                        Some((1..).zip(starts).map(move |(round, t)| EventRoundStart {
                            competition: id,
                            round,
                            starts_at: *t,
                        }))
                    })
                    .flatten()
                    .collect();
                let event = NewEvent {
                    name: e.name.clone(),
                    host: e.host,
                    venue: e.venue.clone(),
                    utc_offset_minutes: e.utc_offset_minutes,
                    rounds,
                };
                store.record_event(season.id, 0, &event, by).await?;
            }
            // The fee ledger (GT-O2), as its Treasurer recorded it.
            let keeper = l.treasurer.as_deref().map_or_else(
                || by.clone(),
                |email| Actor::user(email, arbiter_core::rules::permissions::Role::Treasurer),
            );
            for e in &s.ledger {
                store
                    .record_ledger_entry(league.id, season.id, e, &keeper)
                    .await?;
            }
        }
        // The schools' addresses (issue 32), once their teams have brought them in.
        let schools = store.schools(league.id).await?;
        for (name, text) in &l.school_addresses {
            let Some(school) = schools.iter().find(|s| &s.name == name) else {
                return Err(StoreError::NotFound(format!(
                    "{name} has no team in {}, so no address",
                    l.name
                )));
            };
            let address = arbiter_core::record::text::PostalAddress::parse(
                &format!("the address of {name}"),
                text,
            )
            .map_err(|e| StoreError::Invalid(e.to_string()))?;
            store
                .set_school_address(league.id, school.id, address.as_ref(), by)
                .await?;
        }
    }
    Ok(stored)
}
