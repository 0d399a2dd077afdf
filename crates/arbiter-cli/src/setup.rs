//! A season set up from files (issue 12, part 1): `arbiter league create`, `arbiter season
//! create` (its days and a CSV file of closures, GT-M2) and `arbiter division create` (a CSV file
//! of teams, drawn by core into a round robin on the match days). Every mistake of a file is
//! listed with its line before anything is written; each write is a change in the history.

use std::path::Path;

use anyhow::{Result, anyhow, bail};
use arbiter_core::pairing::schedule::{Cycles, Spacing};
use arbiter_core::record::calendar::Closure;
use arbiter_core::record::model::Pairing;
use arbiter_core::record::zone::Zone;
use arbiter_core::season::division::{self, Draw};
use arbiter_core::teams::roster::LineProblem;
use arbiter_core::{Ruleset, record::text};
use arbiter_formats::{closures_csv, ruleset_file, teams_csv};
use arbiter_store::{
    Actor, LeagueKind, NewClosure, NewCompetition, NewLeague, NewSeason, RulesRef,
};
use jiff::civil::Date;

use crate::database::{Database, runtime};

/// A file of teams or closures is a few dozen lines; a megabyte is far beyond any league's.
const FILE_LIMIT: u64 = 1024 * 1024;

fn read_text(file: &Path, what: &str) -> Result<String> {
    let bytes = ruleset_file::read_limited(file, what, FILE_LIMIT).map_err(anyhow::Error::msg)?;
    String::from_utf8(bytes).map_err(|_| {
        anyhow!(
            "{}: the file is not UTF-8; save it as CSV in UTF-8",
            file.display()
        )
    })
}

/// Prints every problem at the file's line and fails with their count.
fn refuse(file: &Path, problems: &[LineProblem]) -> anyhow::Error {
    for p in problems {
        println!("{}: {p}", file.display());
    }
    anyhow!(
        "{}: {} problem{} found; nothing was written",
        file.display(),
        problems.len(),
        if problems.len() == 1 { "" } else { "s" }
    )
}

/// `arbiter league create`: a league (or an event) with nothing in it yet.
pub fn create_league(
    slug: &str,
    name: &str,
    event: bool,
    description: &str,
    time_zone: Zone,
    db: &Database,
) -> Result<()> {
    runtime()?.block_on(async {
        let store = db.open().await?;
        let new = NewLeague {
            slug: slug.to_string(),
            name: name.to_string(),
            kind: if event {
                LeagueKind::Event
            } else {
                LeagueKind::League
            },
            description: description.to_string(),
            time_zone,
        };
        let league = store.create_league(&new, &Actor::system()).await?;
        eprintln!(
            "created {} (`{}`), its days counted in {}",
            league.name, league.slug, league.time_zone
        );
        Ok(())
    })
}

/// `arbiter league set --time-zone`: the zone a league's days and times are counted in from
/// now on (RULES.md, "Time"), kept in the history with the one before.
pub fn set_time_zone(slug: &str, zone: &Zone, db: &Database) -> Result<()> {
    runtime()?.block_on(async {
        let store = db.open().await?;
        let Some(league) = store.league(slug).await? else {
            bail!("there is no league `{slug}`; `arbiter league create` makes one");
        };
        let before = league.time_zone.clone();
        let league = store
            .set_time_zone(league.id, zone, &Actor::system())
            .await?;
        eprintln!(
            "{} (`{}`) counts its days in {} (was {before})",
            league.name, league.slug, league.time_zone
        );
        Ok(())
    })
}

/// `arbiter school set --address`: where a school's home matches are played (GT-M1, issue 32),
/// kept in the history with the address before; an empty address clears it.
pub fn set_school_address(league: &str, school: &str, address: &str, db: &Database) -> Result<()> {
    runtime()?.block_on(async {
        let store = db.open().await?;
        let Some(l) = store.league(league).await? else {
            bail!("there is no league `{league}`; `arbiter league create` makes one");
        };
        let schools = store.schools(l.id).await?;
        let Some(found) = schools.iter().find(|s| s.name == school.trim()) else {
            let names: Vec<&str> = schools.iter().map(|s| s.name.as_str()).collect();
            bail!(
                "{} has no school named “{}”; its schools are: {}",
                l.name,
                school.trim(),
                if names.is_empty() {
                    "none yet".to_string()
                } else {
                    names.join(", ")
                }
            );
        };
        let what = format!("the address of {}", found.name);
        let parsed = text::PostalAddress::parse(&what, address).map_err(anyhow::Error::msg)?;
        let set = store
            .set_school_address(l.id, found.id, parsed.as_ref(), &Actor::system())
            .await?;
        match &set.address {
            Some(a) => eprintln!("{} is at {a}", set.name),
            None => eprintln!("{} has no address now", set.name),
        }
        Ok(())
    })
}

/// `arbiter school list`: a league's schools, a line each, with their addresses.
pub fn list_schools(league: &str, db: &Database) -> Result<()> {
    runtime()?.block_on(async {
        let store = db.open().await?;
        let Some(l) = store.league(league).await? else {
            bail!("there is no league `{league}`; `arbiter league create` makes one");
        };
        for s in store.schools(l.id).await? {
            match &s.address {
                Some(a) => println!("{}\t{a}", s.name),
                None => println!("{}\t(no address)", s.name),
            }
        }
        Ok(())
    })
}

/// What `arbiter season create` was asked.
#[derive(Debug, Clone)]
pub struct NewSeasonAsked<'a> {
    pub league: &'a str,
    pub name: &'a str,
    pub slug: Option<&'a str>,
    pub starts: Date,
    pub ends: Date,
    pub closures: Option<&'a Path>,
}

/// `arbiter season create`: the season and its closures.
pub fn create_season(ask: &NewSeasonAsked, db: &Database) -> Result<()> {
    let closures: Vec<Closure> = match ask.closures {
        Some(file) => closures_csv::read(&read_text(file, "a closures file")?)
            .map_err(|p| refuse(file, &p))?,
        None => Vec::new(),
    };
    let slug = match ask.slug {
        Some(s) => s.to_string(),
        None => text::slug(ask.name)
            .ok_or_else(|| anyhow!("the name `{}` gives no address; give --slug", ask.name))?,
    };
    runtime()?.block_on(async {
        let store = db.open().await?;
        let Some(league) = store.league(ask.league).await? else {
            bail!(
                "there is no league `{}`; `arbiter league create` makes one",
                ask.league
            );
        };
        let by = Actor::system();
        let new = NewSeason {
            slug,
            name: ask.name.to_string(),
            starts_on: Some(ask.starts),
            ends_on: Some(ask.ends),
        };
        let season = store.create_season(league.id, &new, &by).await?;
        for c in &closures {
            let new = NewClosure {
                starts_on: c.from,
                ends_on: c.to,
                reason: c.reason.clone(),
            };
            store.add_closure(season.id, &new, &by).await?;
        }
        eprintln!(
            "created the season {} (`{}`) of {}, {} to {}, with {} closure{}",
            season.name,
            season.slug,
            league.name,
            ask.starts,
            ask.ends,
            closures.len(),
            if closures.len() == 1 { "" } else { "s" }
        );
        Ok(())
    })
}

/// What `arbiter division create` was asked.
#[derive(Debug, Clone)]
pub struct NewDivisionAsked<'a> {
    pub file: &'a Path,
    pub league: &'a str,
    pub season: &'a str,
    pub name: &'a str,
    pub slug: Option<&'a str>,
    pub rules: &'a str,
    pub single: bool,
    pub packed: bool,
    /// At an event, the rounds played each day (`--rounds-a-day`).
    pub rounds_a_day: Option<u32>,
    /// AS-19: the seed of the lot for the teams the file does not number.
    pub lot_seed: Option<u64>,
    /// GT-O2: the file's schools the league does not know are new ones (`--new-schools`).
    pub new_schools: bool,
    pub preview: bool,
}

/// `arbiter division create FILE`: the teams of the file drawn into a round robin on the
/// season's match days, printed, and stored unless `--preview`.
pub fn create_division(ask: &NewDivisionAsked, db: &Database) -> Result<()> {
    let read = teams_csv::read(&read_text(ask.file, "a teams file")?);
    let rules = Ruleset::preset(ask.rules).ok_or_else(|| {
        anyhow!(
            "`{}` is not a preset; choose one of {}",
            ask.rules,
            arbiter_core::rules::ruleset::preset_names().join(", ")
        )
    })?;
    let slug = match ask.slug {
        Some(s) => s.to_string(),
        None => text::slug(ask.name)
            .ok_or_else(|| anyhow!("the name `{}` gives no address; give --slug", ask.name))?,
    };
    runtime()?.block_on(async {
        let store = db.open().await?;
        let Some(league) = store.league(ask.league).await? else {
            bail!("there is no league `{}`", ask.league);
        };
        let seasons = store.seasons(league.id).await?;
        let Some(season) = seasons.iter().find(|s| s.slug == ask.season) else {
            bail!(
                "{} has no season `{}`; `arbiter season create` makes one",
                league.name,
                ask.season
            );
        };
        let Some(calendar) = store.school_calendar(season).await? else {
            bail!(
                "the season {} has no first and last days, so its match days are unknown (GT-M2)",
                season.name
            );
        };
        let how = Draw {
            cycles: if ask.single {
                Cycles::Single
            } else {
                Cycles::Double
            },
            spacing: match (ask.rounds_a_day, ask.packed) {
                (Some(n), _) => Spacing::RoundsADay(n),
                (None, true) => Spacing::Packed,
                (None, false) => Spacing::Even,
            },
            calendar: &calendar,
            lot: ask.lot_seed,
        };
        // Every mistake of the file at once, at its lines: the reader's, the schools' (GT-O2)
        // and the draw's.
        let known: Vec<String> = store
            .schools(league.id)
            .await?
            .into_iter()
            .map(|s| s.name)
            .collect();
        let mut entries = read.rows.clone();
        let mut found = division::schools(&mut entries, &known, ask.new_schools);
        let drawn = division::draw(ask.name, &rules, &entries, how);
        if let Err(problems) = &drawn {
            found.extend(problems.iter().cloned());
        }
        let problems = read.with(found);
        let competition = match drawn {
            Ok(c) if problems.is_empty() => c,
            _ => return Err(refuse(ask.file, &problems)),
        };
        let name = |id: &arbiter_core::TeamId| {
            competition
                .team(id)
                .map_or_else(|| id.to_string(), |t| t.name.clone())
        };
        let numbers: Vec<String> = (1..)
            .zip(&competition.teams)
            .map(|(n, t)| format!("{n} {}", t.name))
            .collect();
        println!("Berger numbers (AS-19): {}", numbers.join(", "));
        for r in &competition.rounds {
            let day = r.date.map(|d| d.to_string()).unwrap_or_default();
            let matches: Vec<String> = r
                .pairings
                .iter()
                .map(|p| match p {
                    Pairing::Match(m) => format!("{} – {}", name(&m.home), name(&m.away)),
                    Pairing::Bye(b) => format!("{}: bye", name(&b.team)),
                })
                .collect();
            println!("round {} {day}: {}", r.number, matches.join("; "));
        }
        if ask.preview {
            eprintln!(
                "{} teams, {} rounds; nothing was written (--preview)",
                competition.teams.len(),
                competition.rounds.len()
            );
            return Ok(());
        }
        let new = NewCompetition {
            slug: slug.clone(),
            name: ask.name.to_string(),
            rules: RulesRef::Preset(ask.rules.to_string()),
        };
        store
            .import_competition(season.id, &new, &competition, &Actor::system())
            .await?;
        eprintln!(
            "created the division {} (`{slug}`) of {} with {} teams and {} rounds",
            ask.name,
            season.name,
            competition.teams.len(),
            competition.rounds.len()
        );
        Ok(())
    })
}
