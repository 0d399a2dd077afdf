//! Published rating lists read into core's [`RatingList`]: FIDE's XML list, FIDE's fixed-width
//! TXT list, and a CSV of id, name and rating (a national list), every mistake at its line.
//!
//! - FIDE XML (`players_list_xml.xml`): `<playerslist><player><fideid>…</fideid><name>Surname,
//!   First</name>…<rating>2450</rating>…<birthday>1990</birthday>…</player>…</playerslist>`,
//!   one flat element a field; read by hand (a player a block), entities decoded.
//! - FIDE TXT (`players_list.txt`): a header naming the columns (`ID Number      Name …  Fed Sex
//!   Tit  WTit OTit           FOA SRtng SGm SK Bday Flag`), then a player a line, each field
//!   under its header word. The columns are found from the header, so the standard list
//!   (`SRtng` or the month, `SEP26`), the combined list (`SRtng … RRtng … BRtng`: the standard
//!   rating is read) and the older `B-day` spelling all read.
//! - CSV: a header with `id`, `name`, `rating` and optionally `birth` (`1990` or `1990-04-17`).
//!
//! A player without a rating on the list (an empty or 0 rating) is left out: the list does not
//! rate them.

use arbiter_core::rating::list::{Birth, ListedRating, RatingList};
use arbiter_core::teams::roster::LineProblem;
use jiff::civil::Date;

use crate::sheet;

/// The formats a rating list is read from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ListFormat {
    /// FIDE's XML list.
    FideXml,
    /// FIDE's fixed-width TXT list.
    FideTxt,
    /// A CSV with `id`, `name`, `rating` and optionally `birth`.
    Csv,
}

impl ListFormat {
    /// `fide-xml`, `fide-txt`, `csv`: as the command line and the forms name them.
    pub fn code(self) -> &'static str {
        match self {
            ListFormat::FideXml => "fide-xml",
            ListFormat::FideTxt => "fide-txt",
            ListFormat::Csv => "csv",
        }
    }

    /// The format named `code`, or the sentence listing the names.
    pub fn parse(code: &str) -> Result<ListFormat, String> {
        [ListFormat::FideXml, ListFormat::FideTxt, ListFormat::Csv]
            .into_iter()
            .find(|f| f.code() == code.trim())
            .ok_or_else(|| {
                format!("`{code}` is not a rating list format; name one of fide-xml, fide-txt, csv")
            })
    }
}

/// Reads `text` in `format` as the list `name`, in force from `in_force_from`; every mistake
/// found, at its line, when any.
pub fn read(
    text: &str,
    format: ListFormat,
    name: &str,
    in_force_from: Date,
) -> Result<RatingList, Vec<LineProblem>> {
    let (entries, problems) = match format {
        ListFormat::FideXml => read_xml(text),
        ListFormat::FideTxt => read_txt(text),
        ListFormat::Csv => read_csv(text),
    };
    if !problems.is_empty() {
        return Err(problems);
    }
    if entries.is_empty() {
        return Err(vec![LineProblem {
            line: 1,
            column: None,
            message: format!(
                "the file has no rated player; is it a {} list?",
                format.code()
            ),
        }]);
    }
    Ok(RatingList {
        name: name.trim().to_string(),
        in_force_from,
        entries,
    })
}

fn problem(line: u64, message: String) -> LineProblem {
    LineProblem {
        line,
        column: None,
        message,
    }
}

/// A rating as lists write it: `2450`; empty or `0` for none.
fn rating_of(text: &str) -> Result<Option<u32>, String> {
    let t = text.trim();
    if t.is_empty() {
        return Ok(None);
    }
    match t.parse::<u32>() {
        Ok(0) => Ok(None),
        Ok(n) if n <= 4000 => Ok(Some(n)),
        _ => Err(format!(
            "the rating `{t}` is not a rating; write a whole number of points, e.g. 1850"
        )),
    }
}

/// A birth as lists write it: `1990`, `1990-04-17`, or FIDE's `0000`/empty for none.
fn birth_of(text: &str) -> Result<Option<Birth>, String> {
    let t = text.trim();
    if t.is_empty() || t.chars().all(|c| c == '0') {
        return Ok(None);
    }
    if let Ok(y) = t.parse::<i16>()
        && (1900..=2100).contains(&y)
    {
        return Ok(Some(Birth::Year(y)));
    }
    t.parse::<Date>()
        .map(|d| Some(Birth::Date(d)))
        .map_err(|_| format!("the birth `{t}` is neither a year (1990) nor a date (1990-04-17)"))
}

/// The line (1-based) at byte `at` of `text`.
fn line_at(text: &str, at: usize) -> u64 {
    let n = text.as_bytes()[..at.min(text.len())]
        .iter()
        .filter(|b| **b == b'\n')
        .count();
    1 + u64::try_from(n).unwrap_or(u64::MAX)
}

/// FIDE's XML: each `<player>` block's `fideid`, `name`, `rating` and `birthday`.
fn read_xml(text: &str) -> (Vec<ListedRating>, Vec<LineProblem>) {
    let mut entries = Vec::new();
    let mut problems = Vec::new();
    if !text.contains("<playerslist") {
        problems.push(problem(
            1,
            "the file has no <playerslist>; FIDE's XML list starts <playerslist><player>…".into(),
        ));
        return (entries, problems);
    }
    let mut from = 0;
    while let Some(open) = text[from..].find("<player>").map(|i| from + i) {
        let line = line_at(text, open);
        let body_start = open + "<player>".len();
        let Some(close) = text[body_start..].find("</player>").map(|i| body_start + i) else {
            problems.push(problem(
                line,
                "a <player> is not closed by </player>; the file may be cut short".into(),
            ));
            break;
        };
        let body = &text[body_start..close];
        from = close + "</player>".len();
        let id = element(body, "fideid").unwrap_or_default();
        if id.trim().is_empty() {
            problems.push(problem(line, "a <player> has no <fideid>".into()));
            continue;
        }
        let rating = match rating_of(&element(body, "rating").unwrap_or_default()) {
            Ok(r) => r,
            Err(e) => {
                problems.push(problem(line, format!("player {}: {e}", id.trim())));
                continue;
            }
        };
        let birth = match birth_of(&element(body, "birthday").unwrap_or_default()) {
            Ok(b) => b,
            Err(e) => {
                problems.push(problem(line, format!("player {}: {e}", id.trim())));
                continue;
            }
        };
        if let Some(rating) = rating {
            entries.push(ListedRating {
                federation_id: id.trim().to_string(),
                name: element(body, "name").unwrap_or_default().trim().to_string(),
                birth,
                rating,
            });
        }
    }
    (entries, problems)
}

/// The text of `<tag>…</tag>` in `body` (`<tag/>`: empty), entities decoded.
fn element(body: &str, tag: &str) -> Option<String> {
    let open = format!("<{tag}>");
    let start = body.find(&open)? + open.len();
    let end = start + body[start..].find(&format!("</{tag}>"))?;
    Some(decode(&body[start..end]))
}

/// XML's five named entities and numeric character references.
fn decode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(amp) = rest.find('&') {
        out.push_str(&rest[..amp]);
        let after = &rest[amp + 1..];
        let Some(semi) = after.find(';').filter(|s| *s <= 8) else {
            out.push('&');
            rest = after;
            continue;
        };
        let name = &after[..semi];
        let c = match name {
            "amp" => Some('&'),
            "lt" => Some('<'),
            "gt" => Some('>'),
            "quot" => Some('"'),
            "apos" => Some('\''),
            _ => name
                .strip_prefix("#x")
                .and_then(|h| u32::from_str_radix(h, 16).ok())
                .or_else(|| name.strip_prefix('#').and_then(|d| d.parse().ok()))
                .and_then(char::from_u32),
        };
        match c {
            Some(c) => {
                out.push(c);
                rest = &after[semi + 1..];
            }
            None => {
                out.push('&');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// FIDE's TXT: the columns as the header places them.
fn read_txt(text: &str) -> (Vec<ListedRating>, Vec<LineProblem>) {
    let mut entries = Vec::new();
    let mut problems = Vec::new();
    let mut lines = text.lines();
    let header = lines.next().unwrap_or_default();
    let words: Vec<(usize, &str)> = header
        .char_indices()
        .filter(|&(i, c)| !c.is_whitespace() && (i == 0 || header[..i].ends_with(' ')))
        // Where each word starts, counted in characters as the lines below are cut.
        .map(|(i, _)| {
            let word = header[i..].split_whitespace().next().unwrap_or_default();
            (header[..i].chars().count(), word)
        })
        .collect();
    let at = |w: &dyn Fn(&str) -> bool| words.iter().position(|(_, x)| w(x));
    let name = at(&|x| x == "Name");
    // The standard rating: the column after `FOA`, else `SRtng` or a month (`SEP26`).
    let rating = at(&|x| x == "FOA").map(|i| i + 1).or_else(|| {
        at(&|x| {
            x == "SRtng"
                || (x.len() == 5
                    && x.is_ascii()
                    && x[..3].chars().all(|c| c.is_ascii_uppercase())
                    && x[3..].chars().all(|c| c.is_ascii_digit()))
        })
    });
    let birth = at(&|x| matches!(x, "Bday" | "B-day" | "Born"));
    let (Some(name), Some(rating)) = (name, rating.filter(|r| *r < words.len())) else {
        problems.push(problem(
            1,
            "the first line is not FIDE's header; it names the columns: ID Number, Name, … SRtng (or the month), … Bday, Flag".into(),
        ));
        return (entries, problems);
    };
    // A field runs from its header word to the next word.
    let span = |i: usize| (words[i].0, words.get(i + 1).map(|(s, _)| *s));
    let cut = |line: &str, (start, end): (usize, Option<usize>)| -> String {
        let chars: Vec<char> = line.chars().collect();
        let end = end.unwrap_or(chars.len()).min(chars.len());
        chars
            .get(start.min(end)..end)
            .map(|c| c.iter().collect::<String>().trim().to_string())
            .unwrap_or_default()
    };
    for (n, line) in lines.enumerate() {
        let number = u64::try_from(n).unwrap_or(u64::MAX) + 2;
        if line.trim().is_empty() {
            continue;
        }
        let id = cut(line, (0, Some(words[name].0)));
        if id.is_empty() || !id.chars().all(|c| c.is_ascii_digit()) {
            problems.push(problem(
                number,
                format!(
                    "the line starts `{}`, not a FIDE id; each line is a player, the id in its first {} columns",
                    id.chars().take(15).collect::<String>(),
                    words[name].0
                ),
            ));
            continue;
        }
        let listed = rating_of(&cut(line, span(rating))).and_then(|r| {
            let b = birth.map_or(Ok(None), |b| birth_of(&cut(line, span(b))))?;
            Ok((r, b))
        });
        match listed {
            Ok((Some(rating), birth)) => entries.push(ListedRating {
                federation_id: id,
                name: cut(line, span(name)),
                birth,
                rating,
            }),
            Ok((None, _)) => {}
            Err(e) => problems.push(problem(number, format!("player {id}: {e}"))),
        }
    }
    (entries, problems)
}

/// A CSV of `id`, `name`, `rating`, `birth`.
fn read_csv(text: &str) -> (Vec<ListedRating>, Vec<LineProblem>) {
    let s = sheet::read(
        text,
        ("a rating list", "player"),
        &["id", "name", "rating", "birth"],
        &["id", "name", "rating"],
    );
    let mut problems = s.problems;
    let mut entries = Vec::new();
    for row in &s.rows {
        let cell = |c: &str| row.cell(c).unwrap_or_default();
        let Some(id) = row.cell("id") else {
            problems.push(LineProblem {
                line: row.line,
                column: Some("id".into()),
                message: "the id is empty; give the federation's id of the player".into(),
            });
            continue;
        };
        let at = |column: &str, message: String| LineProblem {
            line: row.line,
            column: Some(column.into()),
            message,
        };
        let rating = rating_of(&cell("rating")).map_err(|e| at("rating", e));
        let birth = birth_of(&cell("birth")).map_err(|e| at("birth", e));
        match (rating, birth) {
            (Ok(Some(rating)), Ok(birth)) => entries.push(ListedRating {
                federation_id: id,
                name: cell("name"),
                birth,
                rating,
            }),
            (Ok(None), Ok(_)) => {}
            (r, b) => problems.extend(r.err().into_iter().chain(b.err())),
        }
    }
    (entries, problems)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xml_entities_are_decoded() {
        assert_eq!(
            decode("O&apos;Connor &amp; N&#250;&#xF1;ez"),
            "O'Connor & Núñez"
        );
        assert_eq!(decode("a & b"), "a & b");
    }
}
