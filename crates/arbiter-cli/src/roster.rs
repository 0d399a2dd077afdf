//! `arbiter roster import FILE`: players added to a stored competition's rosters from a CSV
//! file (issue 12). Every mistake of the file and of its players' places (a school with no team,
//! a name already on a roster) is listed before anything is written; with none, the players
//! join their teams in one transaction, each a change in the history. `--preview` lists what
//! would be added and writes nothing. Each new player is a person of their own: `arbiter roster
//! people` lists who a name suggests they may be, and `arbiter roster link` links them through
//! the site's write path (AS-3, GT-M15).

use std::path::Path;

use anyhow::{Context, Result, bail};
use arbiter_core::teams::roster;
use arbiter_formats::{roster_csv, ruleset_file};
use arbiter_store::Actor;

use crate::database::{Database, runtime};

/// A roster file is a few hundred lines; a megabyte is far beyond any school league's.
const ROSTER_LIMIT: u64 = 1024 * 1024;

/// What `arbiter roster import` was asked.
#[derive(Debug, Clone)]
pub struct Import<'a> {
    pub file: &'a Path,
    pub league: &'a str,
    pub competition: &'a str,
    pub preview: bool,
    pub reason: Option<&'a str>,
}

pub fn import(ask: &Import, db: &Database) -> Result<()> {
    let origin = ask.file.display().to_string();
    let bytes = ruleset_file::read_limited(ask.file, "a roster file", ROSTER_LIMIT)
        .map_err(anyhow::Error::msg)?;
    let text = String::from_utf8(bytes)
        .map_err(|_| anyhow::anyhow!("{origin}: the file is not UTF-8; save it as CSV in UTF-8"))?;
    let read = roster_csv::read(&text);
    runtime()?.block_on(async {
        let store = db.open().await?;
        let Some(stored) = store.load_competition(ask.league, ask.competition).await? else {
            bail!(
                "the league `{}` has no competition `{}`; `arbiter import` stores one",
                ask.league,
                ask.competition
            );
        };
        let on = roster::eligibility_day(stored.season.starts_on, &stored.competition)
            .context("the season has no start date, so GT-R7's age cannot be read; give the season its dates")?;
        let season_schools = store.season_schools(stored.season.id).await?;
        // Every mistake at once: the file's and the rules' on its rows, by the file's lines.
        let planned = roster::plan(&stored.competition, &stored.rules, &read.rows, on, &season_schools);
        let plan = match planned {
            Ok(plan) if read.problems.is_empty() => plan,
            planned => {
                let problems = read.with(planned.err().unwrap_or_default());
                for p in &problems {
                    println!("{origin}: {p}");
                }
                bail!(
                    "{origin}: {} mistake{} found; nothing was written",
                    problems.len(),
                    if problems.len() == 1 { "" } else { "s" }
                );
            }
        };
        for a in &plan {
            let team = stored.competition.team(&a.team).map_or(a.team.0.as_str(), |t| &t.name);
            println!("{}", a.summary(team));
        }
        if ask.preview {
            eprintln!("{} players would be added; nothing was written (--preview)", plan.len());
            return Ok(());
        }
        if let Some(locked) =
            arbiter_web::roster_locked(&store, &stored, jiff::Timestamp::now()).await?
        {
            bail!("{locked}");
        }
        let players: Vec<_> = plan.into_iter().map(|a| (a.team, a.player)).collect();
        store
            .add_players(stored.record.id, &players, ask.reason, &Actor::system())
            .await?;
        eprintln!(
            "{} players added to {}; each is in the history",
            players.len(),
            stored.record.name
        );
        Ok(())
    })
}

/// `arbiter roster withdraw`: the player named in no lineup from `on`; their games stay.
pub fn withdraw(
    league: &str,
    competition: &str,
    player: &str,
    on: jiff::civil::Date,
    reason: &str,
    db: &Database,
) -> Result<()> {
    runtime()?.block_on(async {
        let store = db.open().await?;
        let Some(stored) = store.load_competition(league, competition).await? else {
            bail!("the league `{league}` has no competition `{competition}`");
        };
        let Some(p) = stored
            .competition
            .teams
            .iter()
            .flat_map(|t| &t.players)
            .find(|p| p.id.0 == player)
        else {
            bail!(
                "{} has no player with the id `{player}`; `arbiter export` lists the rosters",
                stored.record.name
            );
        };
        let change = arbiter_store::PlayerChange {
            name: p.name.clone(),
            rating: p.rating,
            provisional: p.provisional,
            withdrawn: Some(on),
        };
        if let Some(locked) =
            arbiter_web::roster_locked(&store, &stored, jiff::Timestamp::now()).await?
        {
            bail!("{locked}");
        }
        store
            .change_player(stored.record.id, &p.id, &change, reason, &Actor::system())
            .await?;
        eprintln!(
            "{} is withdrawn from {}'s rosters from {on}; their games stay",
            p.name, stored.record.name
        );
        Ok(())
    })
}

/// `arbiter roster people`: who is one person with a player of another competition of the
/// season, and who a name suggests may be.
pub fn people(league: &str, competition: &str, db: &Database) -> Result<()> {
    runtime()?.block_on(async {
        let store = db.open().await?;
        let state = arbiter_web::AppState::new(store);
        let lines = arbiter_web::person_lines(&state, league, competition)
            .await
            .map_err(anyhow::Error::msg)?;
        for l in &lines {
            println!("{l}");
        }
        if lines.is_empty() {
            eprintln!(
                "no player of `{competition}` is, or may be, one person with a player of another competition of the season"
            );
        }
        Ok(())
    })
}

/// `arbiter roster link`: a player linked as one person with a player of another competition
/// of the season (or a person of their own again), through the site's write path.
pub fn link(
    league: &str,
    competition: &str,
    player: &str,
    to: &str,
    reason: &str,
    db: &Database,
) -> Result<()> {
    runtime()?.block_on(async {
        let store = db.open().await?;
        let state = arbiter_web::AppState::new(store);
        match arbiter_web::link_person_from_command_line(
            &state,
            league,
            competition,
            player,
            to,
            reason,
        )
        .await
        {
            Ok(said) => {
                eprintln!("{said}");
                Ok(())
            }
            Err(why) => bail!("{why}\nNothing was stored."),
        }
    })
}
