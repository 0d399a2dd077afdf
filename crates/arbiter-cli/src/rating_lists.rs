//! Published rating lists on the command line (issue 34): `arbiter check --rating-list
//! FILE@DATE` checks lineups by a list in force from a day, and `arbiter ratings list import`
//! stores a list in a league and names the players it does not find.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use arbiter_core::rating::list::RatingList;
use arbiter_formats::rating_list::{self, ListFormat};
use jiff::civil::Date;

/// `--rating-list FILE@DATE`: a list file and the day it is in force from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListArg {
    /// The file.
    pub path: PathBuf,
    /// The first day it orders boards.
    pub in_force_from: Date,
}

impl std::str::FromStr for ListArg {
    type Err = String;

    fn from_str(s: &str) -> Result<ListArg, String> {
        let (path, day) = s.rsplit_once('@').ok_or_else(|| {
            format!(
                "`{s}` names no day; write the file and the day its list is in force from, e.g. fide-march.txt@2027-03-01"
            )
        })?;
        let in_force_from = day.parse::<Date>().map_err(|_| {
            format!("`{day}` is not a day; write it as YYYY-MM-DD, e.g. {path}@2027-03-01")
        })?;
        Ok(ListArg {
            path: PathBuf::from(path),
            in_force_from,
        })
    }
}

/// The format a list file is in: `format` when given, else by its extension (`.xml` FIDE's
/// XML, `.txt` FIDE's TXT, `.csv` a CSV).
pub fn format_of(path: &Path, format: Option<&str>) -> Result<ListFormat> {
    if let Some(f) = format {
        return ListFormat::parse(f).map_err(anyhow::Error::msg);
    }
    match path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_lowercase)
        .as_deref()
    {
        Some("xml") => Ok(ListFormat::FideXml),
        Some("txt") => Ok(ListFormat::FideTxt),
        Some("csv") => Ok(ListFormat::Csv),
        _ => bail!(
            "{}: the format of a rating list is told by its extension (.xml FIDE's XML, .txt FIDE's TXT, .csv a CSV of id, name, rating); rename the file or give --format",
            path.display()
        ),
    }
}

/// Reads the list at `path` in `format`, named `name` (its file name when `None`), in force
/// from `in_force_from`; a mistake as `FILE:LINE: …`.
pub fn read(
    path: &Path,
    format: ListFormat,
    name: Option<&str>,
    in_force_from: Date,
) -> Result<RatingList> {
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    // FIDE's files are Latin-1 before UTF-8 became their encoding: a byte that is not UTF-8
    // is read as Latin-1 rather than refused.
    let text = match String::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => e.into_bytes().iter().map(|&b| char::from(b)).collect(),
    };
    let name = name.map_or_else(
        || {
            path.file_stem()
                .map_or_else(String::new, |s| s.to_string_lossy().into_owned())
        },
        str::to_string,
    );
    rating_list::read(&text, format, &name, in_force_from).map_err(|problems| {
        let lines: Vec<String> = problems
            .iter()
            .map(|p| match &p.column {
                Some(c) => format!("{}:{}: {c}: {}", path.display(), p.line, p.message),
                None => format!("{}:{}: {}", path.display(), p.line, p.message),
            })
            .collect();
        anyhow::anyhow!("{}", lines.join("\n"))
    })
}

/// The lists `--rating-list` names, each read by its extension.
pub fn read_all(args: &[ListArg]) -> Result<Vec<RatingList>> {
    args.iter()
        .map(|a| read(&a.path, format_of(&a.path, None)?, None, a.in_force_from))
        .collect()
}

/// `arbiter ratings list import`: what to store.
pub struct Import<'a> {
    /// The list file.
    pub file: &'a Path,
    /// Its format when given, else by the extension.
    pub format: Option<&'a str>,
    /// The league's slug.
    pub league: &'a str,
    /// The list's name; the file's stem when `None`.
    pub name: Option<&'a str>,
    /// The first day the list orders boards.
    pub in_force_from: Date,
}

/// Stores the list in the league, then names the players of the league's competitions it
/// does not find (by federation id, else by name and birth date), for the officer to give them
/// an id or a birth date.
pub fn import(ask: &Import, db: &crate::database::Database) -> Result<()> {
    let format = format_of(ask.file, ask.format)?;
    let list = read(ask.file, format, ask.name, ask.in_force_from)?;
    crate::database::runtime()?.block_on(async {
        let store = db.open().await?;
        let Some(league) = store.league(ask.league).await? else {
            bail!(
                "there is no league `{}`; `arbiter league create` makes one",
                ask.league
            );
        };
        let stored = store
            .import_rating_list(
                league.id,
                &list,
                format.code(),
                &arbiter_store::Actor::system(),
            )
            .await?;
        println!(
            "stored the rating list {} ({} rated players), in force from {}",
            stored.name, stored.entries, stored.in_force_from
        );
        for season in store.seasons(league.id).await? {
            for record in store.competitions(season.id).await? {
                let Some(c) = store.load_competition_by_id(record.id).await? else {
                    continue;
                };
                let missing = arbiter_core::rating::list::unmatched(&c.competition, &list);
                if missing.is_empty() {
                    continue;
                }
                println!(
                    "{} ({}): {} player{} not on the list:",
                    record.name,
                    season.name,
                    missing.len(),
                    if missing.len() == 1 { "" } else { "s" }
                );
                for (team, p) in missing {
                    let how = match (&p.record.federation_id, p.record.birth_date) {
                        (Some(id), _) => format!("the id {id} is not on it"),
                        (None, Some(_)) => "no one of that name and birth date is on it".into(),
                        (None, None) => {
                            "no federation id or birth date on the roster to find them by".into()
                        }
                    };
                    println!("  {} ({team}): {how}", p.name);
                }
            }
        }
        Ok(())
    })
}

/// `arbiter ratings list show`: the league's lists, one a line.
pub fn show(league: &str, db: &crate::database::Database) -> Result<()> {
    crate::database::runtime()?.block_on(async {
        let store = db.open().await?;
        let Some(l) = store.league(league).await? else {
            bail!("there is no league `{league}`; `arbiter league create` makes one");
        };
        let lists = store.rating_lists(l.id).await?;
        if lists.is_empty() {
            println!(
                "{} has no rating list; `arbiter ratings list import FILE --league {league} --in-force-from DATE` stores one",
                l.name
            );
        }
        for s in lists {
            println!(
                "{}\tin force from {}\t{}\t{} players",
                s.name, s.in_force_from, s.format, s.entries
            );
        }
        Ok(())
    })
}
