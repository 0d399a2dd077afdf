//! How core writes a person's text (a name, a league's title) into Markdown: as text, never as
//! Markdown or HTML of its own (issue 30, item 5). The media report's `.md` is pasted into other
//! sites, so a player named `<svg onload=alert(1)>` must stay those characters, and a team name
//! with a line break must not split its table. Every Markdown writer of the product calls
//! [`text`]. Imports nothing else from core.

/// `s` as Markdown shows it, character for character, inside a paragraph, a list item, a
/// heading or a table cell. `<`, `>` and `&` become HTML's entities (which every Markdown
/// renderer passes through, and which no raw HTML survives); `\`, `` ` ``, `*`, `_`, `[`, `]`
/// and `|` are escaped by a backslash (CommonMark's and GitHub's, the table's `|` too); a line
/// break, or a run of them, becomes one space.
pub fn text(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut in_break = false;
    for c in s.chars() {
        if is_line_break(c) {
            if !in_break {
                out.push(' ');
            }
            in_break = true;
            continue;
        }
        in_break = false;
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '\\' | '`' | '*' | '_' | '[' | ']' | '|' => {
                out.push('\\');
                out.push(c);
            }
            _ => out.push(c),
        }
    }
    out
}

/// What ends a line in Markdown, or in a renderer that follows Unicode's line breaks.
fn is_line_break(c: char) -> bool {
    matches!(
        c,
        '\n' | '\r' | '\u{0B}' | '\u{0C}' | '\u{85}' | '\u{2028}' | '\u{2029}'
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn html_in_a_name_is_written_as_its_characters() {
        assert_eq!(text("<svg onload=alert(1)>"), "&lt;svg onload=alert(1)&gt;");
        assert_eq!(text("Tom & Jerry"), "Tom &amp; Jerry");
        assert_eq!(text("&lt;"), "&amp;lt;", "an entity typed stays as typed");
    }

    #[test]
    fn markdown_in_a_name_is_escaped_and_line_breaks_become_one_space() {
        assert_eq!(
            text(r"*a* _b_ [c](d) `e` f|g h\i"),
            r"\*a\* \_b\_ \[c\](d) \`e\` f\|g h\\i"
        );
        assert_eq!(text("North\r\nHigh\n\n| x"), r"North High \| x");
        assert_eq!(text("a\u{2028}b\rc"), "a b c");
        assert_eq!(
            text("Central High 2½"),
            "Central High 2½",
            "plain text is kept"
        );
    }
}
