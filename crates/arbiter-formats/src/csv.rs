//! CSV as every export of Arbiter writes it (the web's history, the command line's standings
//! and ratings): RFC 4180 records with CRLF line ends, written by the `csv` crate, and every
//! cell through [`guard`], so that no spreadsheet reads one as a formula, whichever separator
//! it splits on.
//!
//! ```
//! let mut out = arbiter_formats::csv::Writer::new();
//! out.record(["team", "reason"]);
//! out.record(["vic", "x;=cmd|' /C calc'!A0"]);
//! assert_eq!(out.finish(), "team,reason\r\nvic,x;'=cmd|' /C calc'!A0\r\n");
//! ```

use std::borrow::Cow;

/// The characters that make a spreadsheet read a cell as a formula (OWASP, CSV injection).
const FORMULA_START: [char; 6] = ['=', '+', '-', '@', '\t', '\r'];

/// Where a spreadsheet may start a cell inside ours: after a separator it splits on (`,`, and
/// `;` in many European locales, a tab) or a line break. One that splits on another separator
/// than ours does not see our quotes, so `x;=cmd` quoted still reaches it as `=cmd`.
const CELL_BREAK: [char; 5] = [',', ';', '\t', '\r', '\n'];

/// The one formula guard of every CSV the product writes. Wherever a spreadsheet could start a
/// cell in `text` (its start, or after a separator or a line break inside it) text that would
/// read as a formula (it starts with `=`, `+`, `-`, `@`, a tab or CR) gets an apostrophe, so
/// that opening the file cannot run what someone typed; a plain number such as `-1.5` is left
/// as it is. Quoting is the writer's ([`Writer`]).
pub fn guard(text: &str) -> Cow<'_, str> {
    let mut guarded = String::new();
    let mut copied = 0;
    let mut at_break = true;
    for (i, c) in text.char_indices() {
        if at_break && reads_as_formula(&text[i..]) {
            guarded.push_str(&text[copied..i]);
            guarded.push('\'');
            copied = i;
        }
        at_break = CELL_BREAK.contains(&c);
    }
    if guarded.is_empty() {
        // Nothing to guard: every insertion above pushes an apostrophe.
        return Cow::Borrowed(text);
    }
    guarded.push_str(&text[copied..]);
    Cow::Owned(guarded)
}

/// A CSV document in memory: records of any length, comma-separated, CRLF after each, a cell
/// quoted when it holds a comma, a quote or a line break (quotes doubled), every cell through
/// [`guard`].
#[derive(Debug)]
pub struct Writer {
    inner: csv::Writer<Vec<u8>>,
}

impl Default for Writer {
    fn default() -> Self {
        Writer::new()
    }
}

impl Writer {
    /// An empty document.
    pub fn new() -> Writer {
        Writer {
            inner: csv::WriterBuilder::new()
                .flexible(true)
                .terminator(csv::Terminator::CRLF)
                .from_writer(Vec::new()),
        }
    }

    /// Appends one record, each cell guarded. An empty record is written as `""`, one empty
    /// cell (a bare line end would be no record at all to a CSV reader).
    pub fn record<I>(&mut self, cells: I)
    where
        I: IntoIterator,
        I::Item: AsRef<str>,
    {
        // The sink is a `Vec`, which takes every byte, and records may differ in length
        // (`flexible`): writing cannot fail.
        for c in cells {
            let _ = self.inner.write_field(guard(c.as_ref()).as_bytes());
        }
        let _ = self.inner.write_record(None::<&[u8]>);
    }

    /// The document written so far.
    pub fn finish(mut self) -> String {
        // As in `record`: flushing into a `Vec` cannot fail.
        let _ = self.inner.flush();
        String::from_utf8_lossy(self.inner.get_ref()).into_owned()
    }
}

/// `-12`, `-0.5`: a number a spreadsheet reads as that number and nothing more.
fn is_plain_number(text: &str) -> bool {
    let digits = text.strip_prefix('-').unwrap_or(text);
    let (whole, fraction) = digits.split_once('.').unwrap_or((digits, "0"));
    !whole.is_empty()
        && !fraction.is_empty()
        && whole.bytes().all(|b| b.is_ascii_digit())
        && fraction.bytes().all(|b| b.is_ascii_digit())
}

/// The cells as a spreadsheet reads `text` when it splits on `separator`: a cell that starts
/// with a quote runs to the closing quote (`""` is a quote), anything else to the next
/// separator or line end. The exports' tests read them back with it. Not the `csv` crate's
/// reader: this models a spreadsheet splitting on another separator than ours, which keeps a
/// lone CR inside a cell and a blank line as a record, where that reader ends a record at a CR
/// and skips blank lines.
pub fn read(text: &str, separator: char) -> Vec<Vec<String>> {
    let mut records = Vec::new();
    let mut record = Vec::new();
    let mut field = String::new();
    let mut chars = text.chars().peekable();
    let mut quoted = false;
    let mut at_start = true;
    while let Some(c) = chars.next() {
        if quoted {
            match c {
                '"' if chars.peek() == Some(&'"') => {
                    chars.next();
                    field.push('"');
                }
                '"' => quoted = false,
                other => field.push(other),
            }
            continue;
        }
        match c {
            '"' if at_start => {
                quoted = true;
                at_start = false;
            }
            c if c == separator => {
                record.push(std::mem::take(&mut field));
                at_start = true;
            }
            '\r' if chars.peek() == Some(&'\n') => {}
            '\n' => {
                record.push(std::mem::take(&mut field));
                records.push(std::mem::take(&mut record));
                at_start = true;
            }
            other => {
                field.push(other);
                at_start = false;
            }
        }
    }
    if !field.is_empty() || !record.is_empty() {
        record.push(field);
        records.push(record);
    }
    records
}

/// Whether a spreadsheet would read a cell that starts here as a formula.
pub fn reads_as_formula(text: &str) -> bool {
    let Some(rest) = text.strip_prefix(FORMULA_START) else {
        return false;
    };
    // The cell runs to the next break; every character of FORMULA_START is one byte.
    let end = 1 + rest.find(CELL_BREAK).unwrap_or(rest.len());
    !is_plain_number(&text[..end])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 9 item 9: the reason that reached a `;`-splitting spreadsheet as `=cmd…`.
    const SEMICOLON_FORMULA: &str = "x;=cmd|' /C calc'!A0";

    /// One cell as the writer writes it, without its line end.
    fn cell(text: &str) -> String {
        let mut w = Writer::new();
        w.record([text]);
        w.finish().strip_suffix("\r\n").unwrap().to_string()
    }

    #[test]
    fn cells_are_quoted_when_they_hold_a_comma_a_line_break_or_a_quote() {
        assert_eq!(cell("plain"), "plain");
        assert_eq!(cell("a,b"), "\"a,b\"");
        assert_eq!(cell("a;b"), "a;b");
        assert_eq!(cell("a\tb"), "a\tb");
        assert_eq!(cell("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(cell("line\nbreak"), "\"line\nbreak\"");
        assert_eq!(cell("line\rbreak"), "\"line\rbreak\"");
        assert_eq!(cell(""), "\"\"", "an empty record is one empty cell");
        assert_eq!(cell("a;b,c\td\ne"), "\"a;b,c\td\ne\"");
    }

    #[test]
    fn records_of_any_length_end_in_crlf() {
        let mut w = Writer::new();
        w.record(["a", "b", "c"]);
        w.record(["1"]);
        w.record(Vec::<String>::new());
        w.record(["", "x"]);
        assert_eq!(w.finish(), "a,b,c\r\n1\r\n\"\"\r\n,x\r\n");
    }

    #[test]
    fn cells_a_spreadsheet_would_run_get_an_apostrophe() {
        assert_eq!(guard("=cmd"), "'=cmd");
        assert_eq!(guard("+1+1"), "'+1+1");
        assert_eq!(guard("-1+1"), "'-1+1");
        assert_eq!(guard("@SUM(A1)"), "'@SUM(A1)");
        assert_eq!(guard("\tx"), "'\tx");
        assert_eq!(guard("\rx"), "'\rx");
        assert_eq!(guard("@SUM(A1),x"), "'@SUM(A1),x");
        assert_eq!(guard("-"), "'-");
        assert_eq!(guard("-1."), "'-1.");
        assert_eq!(guard("-.5"), "'-.5");
        assert_eq!(
            cell("=HYPERLINK(\"http://x\",\"y\")"),
            "\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\""
        );
        assert_eq!(cell("\rx"), "\"'\rx\"");
    }

    /// A spreadsheet that splits on `;` does not see the quotes of a comma-separated file, so
    /// a formula after a separator or a line break inside a cell is guarded there too.
    #[test]
    fn a_formula_after_a_separator_inside_a_cell_gets_an_apostrophe() {
        assert_eq!(guard(SEMICOLON_FORMULA), "x;'=cmd|' /C calc'!A0");
        assert_eq!(guard("a,+1+1"), "a,'+1+1");
        assert_eq!(guard("a\t@x"), "a\t'@x");
        assert_eq!(guard("a\n-1+1"), "a\n'-1+1");
        assert_eq!(guard("a\r\n=1"), "a\r\n'=1");
        assert_eq!(guard("a;-1;b"), "a;-1;b");
        assert_eq!(guard("a=b"), "a=b");
        assert_eq!(guard("=a;=b,ünï;@c"), "'=a;'=b,ünï;'@c");
    }

    #[test]
    fn plain_text_and_numbers_are_not_copied_or_changed() {
        for text in ["-1", "-0.25", "12.5", "Victoria", "", "ünï"] {
            assert!(
                matches!(guard(text), Cow::Borrowed(t) if t == text),
                "{text}"
            );
        }
    }

    #[test]
    fn no_cell_reads_as_a_formula_whichever_separator_the_spreadsheet_splits_on() {
        let dangerous = [
            SEMICOLON_FORMULA,
            "=1+1",
            "+1+1",
            "-1+1",
            "@SUM(A1)",
            "\t=1+1",
            "\r=1+1",
            "a,=1+1",
            "a\t=1+1",
            "a\n=1+1",
            "a\r\n=1+1",
            "\"=1+1",
        ];
        let mut w = Writer::new();
        w.record(dangerous);
        let out = w.finish();
        for separator in [',', ';', '\t'] {
            // Another separator than ours may also see other line ends.
            for c in read(&out, separator).iter().flatten() {
                assert!(!reads_as_formula(c), "{separator:?}: {c:?} in {out:?}");
            }
        }
        // Read by its own separator, each cell is what was written, with its apostrophes.
        let records = read(&out, ',');
        assert_eq!(records.len(), 1);
        let back = &records[0];
        assert_eq!(back.len(), dangerous.len());
        for (b, d) in back.iter().zip(dangerous) {
            assert_eq!(b.replace('\'', ""), d.replace('\'', ""));
        }
    }
}
