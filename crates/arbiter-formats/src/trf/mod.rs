//! FIDE Tournament Report Files: TRF-16 (C.04 Annex 2) and TRF-2026, read and written.
//!
//! Two layers:
//! - the document ([`TrfDocument`]): every line in order, each read into its [`Record`], with
//!   the text of every field kept, so that `write(read(x)) == x` byte for byte ([`read()`],
//!   [`write()`]);
//! - the competition ([`to_competition`], [`from_competition`]): teams, rounds, matches and
//!   boards rebuilt from the player games, line-ups and team records, and written back;
//! - the FIDE rating report ([`rating_report`]): the competition written with the ratings
//!   before the event and what FIDE rates.
//!
//! Columns are 1-based as the standard numbers them (standards.md §3). Lines may be shorter
//! than the full layout; a field that does not read gets a [`TrfError`] naming its line and
//! column. Nothing here panics on any input.

mod columns;
mod export;
mod import;
mod pairing;
mod records;
mod report;

use std::borrow::Cow;
use std::fmt;

pub use columns::{Field, Ref, Spelled};
pub use export::from_competition;
pub use import::{TrfImport, to_competition};
pub use records::*;
pub use report::{RatingReport, rating_report};

/// A TRF file as read: its lines in order.
#[derive(Debug, Clone, PartialEq)]
pub struct TrfDocument {
    /// The name of the file in messages.
    pub origin: String,
    /// How the bytes were decoded, so that writing re-encodes them the same way.
    pub encoding: Encoding,
    /// The file started with a UTF-8 byte order mark.
    pub byte_order_mark: bool,
    /// The lines in file order, each with its record and its line ending.
    pub lines: Vec<TrfLine>,
}

/// One line: its record and the line ending it had.
#[derive(Debug, Clone, PartialEq)]
pub struct TrfLine {
    /// What the line says, read into its kind of record.
    pub record: Record,
    /// How the line ended, so that it is written back the same.
    pub ending: LineEnding,
}

/// How a line of the file ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LineEnding {
    /// `\r\n`
    CrLf,
    /// `\n`
    Lf,
    /// `\r`, the ending the standard names.
    Cr,
    /// The last line of a file that does not end in a line ending.
    None,
}

impl LineEnding {
    /// The ending's characters.
    pub fn as_str(self) -> &'static str {
        match self {
            LineEnding::CrLf => "\r\n",
            LineEnding::Lf => "\n",
            LineEnding::Cr => "\r",
            LineEnding::None => "",
        }
    }
}

/// How a TRF file's bytes are decoded, and so how they are written back.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Encoding {
    /// UTF-8, read when the bytes are valid UTF-8.
    Utf8,
    /// ISO 8859-1, read when the bytes are not UTF-8.
    Latin1,
}

/// A TRF line that does not read, or a file that cannot become a competition.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct TrfError {
    /// The file.
    pub origin: String,
    /// 1-based line; 0 when the error is about the whole file.
    pub line: usize,
    /// 1-based column (by character); 0 when the error is about a whole line or file.
    pub column: usize,
    /// What should be there: `a score like 11.5 in columns 81-84`.
    pub expected: String,
    /// What is there, trimmed; empty when nothing is.
    pub found: String,
}

impl fmt::Display for TrfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.origin)?;
        if self.line > 0 {
            write!(f, ":{}", self.line)?;
            if self.column > 0 {
                write!(f, ":{}", self.column)?;
            }
        }
        write!(f, ": expected {}, found ", self.expected)?;
        if self.found.is_empty() {
            f.write_str("nothing")
        } else {
            let shown: String = self
                .found
                .chars()
                .flat_map(|c| {
                    let s: Vec<char> = if c.is_control() {
                        c.escape_default().collect()
                    } else {
                        vec![c]
                    };
                    s
                })
                .collect();
            write!(f, "\"{shown}\"")
        }
    }
}

/// Reads a TRF file. `origin` names it in errors (`grandmommyscup.trf:57:81: expected ...`).
///
/// UTF-8 is read as such (a byte order mark is kept); any other bytes are read as Latin-1.
/// Lines end in CR LF, LF or CR, each kept as it was.
pub fn read(origin: &str, bytes: &[u8]) -> Result<TrfDocument, TrfError> {
    const BOM: &[u8] = b"\xEF\xBB\xBF";
    // UTF-8 is read in place; only Latin-1 is decoded into a new text.
    let (text, encoding, byte_order_mark): (Cow<'_, str>, _, _) = match std::str::from_utf8(bytes) {
        Ok(s) => match s.strip_prefix('\u{feff}') {
            Some(rest) if bytes.starts_with(BOM) => (rest.into(), Encoding::Utf8, true),
            _ => (s.into(), Encoding::Utf8, false),
        },
        Err(_) => (
            bytes.iter().map(|&b| char::from(b)).collect(),
            Encoding::Latin1,
            false,
        ),
    };
    let split = split_lines(&text);
    let mut lines = Vec::with_capacity(split.len());
    for (i, (line, ending)) in split.into_iter().enumerate() {
        let record = records::parse_line(line, origin, i + 1)?;
        lines.push(TrfLine { record, ending });
    }
    Ok(TrfDocument {
        origin: origin.to_string(),
        encoding,
        byte_order_mark,
        lines,
    })
}

fn split_lines(text: &str) -> Vec<(&str, LineEnding)> {
    let mut out = Vec::new();
    let mut start = 0;
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        // CR and LF are ASCII, so `i` is always a character boundary here.
        match bytes[i] {
            b'\r' if bytes.get(i + 1) == Some(&b'\n') => {
                out.push((&text[start..i], LineEnding::CrLf));
                i += 2;
                start = i;
            }
            b'\r' => {
                out.push((&text[start..i], LineEnding::Cr));
                i += 1;
                start = i;
            }
            b'\n' => {
                out.push((&text[start..i], LineEnding::Lf));
                i += 1;
                start = i;
            }
            _ => i += 1,
        }
    }
    if start < text.len() {
        out.push((&text[start..], LineEnding::None));
    }
    out
}

/// Writes a document back to bytes, in the encoding it was read in. A line whose records are
/// unchanged is written exactly as it was read.
pub fn write(doc: &TrfDocument) -> Vec<u8> {
    let mut text = String::new();
    for line in &doc.lines {
        text.push_str(&line.record.to_line());
        text.push_str(line.ending.as_str());
    }
    match doc.encoding {
        Encoding::Utf8 => {
            let mut out = Vec::with_capacity(text.len() + 3);
            if doc.byte_order_mark {
                out.extend_from_slice("\u{feff}".as_bytes());
            }
            out.extend_from_slice(text.as_bytes());
            out
        }
        // A character Latin-1 cannot hold (only possible in a changed field) becomes `?`.
        Encoding::Latin1 => text
            .chars()
            .map(|c| u8::try_from(u32::from(c)).unwrap_or(b'?'))
            .collect(),
    }
}

impl TrfDocument {
    /// The records with their 1-based line numbers.
    pub fn records(&self) -> impl Iterator<Item = (usize, &Record)> {
        self.lines
            .iter()
            .enumerate()
            .map(|(i, l)| (i + 1, &l.record))
    }
}
