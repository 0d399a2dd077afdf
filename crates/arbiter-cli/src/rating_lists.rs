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
