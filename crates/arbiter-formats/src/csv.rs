//! CSV as every export of Arbiter writes it (the web's history, the command line's standings):
//! RFC 4180 records with CRLF line ends, and cells no spreadsheet reads as a formula, whichever
//! separator it splits on.
//!
//! ```
//! let mut out = String::new();
//! arbiter_formats::csv::write_record(&mut out, ["team", "reason"]);
//! arbiter_formats::csv::write_record(&mut out, ["vic", "x;=cmd|' /C calc'!A0"]);
//! assert_eq!(out, "team,reason\r\nvic,\"x;'=cmd|' /C calc'!A0\"\r\n");
//! ```

/// The characters that make a spreadsheet read a cell as a formula (OWASP, CSV injection).
const FORMULA_START: [char; 6] = ['=', '+', '-', '@', '\t', '\r'];

/// Where a spreadsheet may start a cell inside ours: after a separator it splits on (`,`, and
/// `;` in many European locales, a tab) or a line break. One that splits on another separator
/// than ours does not see our quotes, so `x;=cmd` quoted still reaches it as `=cmd`.
const CELL_BREAK: [char; 5] = [',', ';', '\t', '\r', '\n'];

/// One cell. Wherever a spreadsheet could start a cell in it (its start, or after a separator
/// or a line break inside it) text that would read as a formula (it starts with `=`, `+`, `-`,
/// `@`, a tab or CR) gets an apostrophe, so that opening the file cannot run what someone
/// typed; a plain number such as `-1.5` is left as it is. A cell holding a separator, a line
/// break or a quote is quoted with its quotes doubled (RFC 4180).
pub fn cell(text: &str) -> String {
    let mut guarded = String::with_capacity(text.len() + 2);
    let mut at_break = true;
    for (i, c) in text.char_indices() {
        if at_break && reads_as_formula(&text[i..]) {
            guarded.push('\'');
        }
        guarded.push(c);
        at_break = CELL_BREAK.contains(&c);
    }
    if guarded.contains(CELL_BREAK) || guarded.contains('"') {
        format!("\"{}\"", guarded.replace('"', "\"\""))
    } else {
        guarded
    }
}

/// Appends one record: its cells (each through [`cell`]) separated by commas, then CRLF.
pub fn write_record<I>(out: &mut String, cells: I)
where
    I: IntoIterator,
    I::Item: AsRef<str>,
{
    for (i, c) in cells.into_iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(&cell(c.as_ref()));
    }
    out.push_str("\r\n");
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
/// separator or line end. The exports' tests read them back with it.
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

    #[test]
    fn cells_are_quoted_when_they_hold_a_separator_a_line_break_or_a_quote() {
        assert_eq!(cell("plain"), "plain");
        assert_eq!(cell("a,b"), "\"a,b\"");
        assert_eq!(cell("a;b"), "\"a;b\"");
        assert_eq!(cell("a\tb"), "\"a\tb\"");
        assert_eq!(cell("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(cell("line\nbreak"), "\"line\nbreak\"");
        assert_eq!(cell("line\rbreak"), "\"line\rbreak\"");
        assert_eq!(cell(""), "");
        assert_eq!(cell("a;b,c\td\ne"), "\"a;b,c\td\ne\"");
    }

    #[test]
    fn cells_a_spreadsheet_would_run_get_an_apostrophe() {
        assert_eq!(cell("=cmd"), "'=cmd");
        assert_eq!(cell("+1+1"), "'+1+1");
        assert_eq!(cell("-1+1"), "'-1+1");
        assert_eq!(cell("@SUM(A1)"), "'@SUM(A1)");
        assert_eq!(cell("\tx"), "\"'\tx\"");
        assert_eq!(cell("\rx"), "\"'\rx\"");
        assert_eq!(cell("@SUM(A1),x"), "\"'@SUM(A1),x\"");
        assert_eq!(cell("-"), "'-");
        assert_eq!(cell("-1."), "'-1.");
        assert_eq!(cell("-.5"), "'-.5");
    }

    /// A spreadsheet that splits on `;` does not see the quotes of a comma-separated file, so
    /// a formula after a separator or a line break inside a cell is guarded there too.
    #[test]
    fn a_formula_after_a_separator_inside_a_cell_gets_an_apostrophe() {
        assert_eq!(cell(SEMICOLON_FORMULA), "\"x;'=cmd|' /C calc'!A0\"");
        assert_eq!(cell("a,+1+1"), "\"a,'+1+1\"");
        assert_eq!(cell("a\t@x"), "\"a\t'@x\"");
        assert_eq!(cell("a\n-1+1"), "\"a\n'-1+1\"");
        assert_eq!(cell("a\r\n=1"), "\"a\r\n'=1\"");
        assert_eq!(cell("a;-1;b"), "\"a;-1;b\"");
        assert_eq!(cell("a=b"), "a=b");
    }

    #[test]
    fn plain_numbers_stay_numbers() {
        assert_eq!(cell("-1"), "-1");
        assert_eq!(cell("-0.25"), "-0.25");
        assert_eq!(cell("12.5"), "12.5");
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
        let mut out = String::new();
        write_record(&mut out, dangerous);
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
