//! Fixed columns, read and written by character (never by byte: a Latin-1 or UTF-8 name must
//! not shift a column or split a character). Columns are 1-based, as the TRF tables number them.
//!
//! A [`Field`] keeps the value it was read as and the exact text it was read from; writing it
//! back gives that text again while the value is unchanged, and the standard layout once the
//! value is changed. That is what makes a TRF file read and written back byte-identical.

use super::TrfError;

/// A value read from (or to be written to) a column span.
#[derive(Debug, Clone, PartialEq)]
pub struct Field<T> {
    /// The value the columns hold.
    pub value: T,
    /// The text as read; used again only while it still reads as `value`.
    spelling: Spelling,
}

/// A field's text as read. Most fields are a few columns (a round block's are 4, 1 and 1), so
/// a short text is held in place rather than in an allocation of its own: a file's fields are
/// read without a `String` each.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Spelling {
    /// Not read: written in the standard layout.
    None,
    /// Up to [`Spelling::SHORT`] bytes, in place.
    Short {
        len: u8,
        bytes: [u8; Spelling::SHORT],
    },
    Long(String),
}

impl Spelling {
    const SHORT: usize = 14;

    fn of(text: &str) -> Spelling {
        match u8::try_from(text.len()) {
            Ok(len) if text.len() <= Spelling::SHORT => {
                let mut bytes = [0; Spelling::SHORT];
                bytes[..text.len()].copy_from_slice(text.as_bytes());
                Spelling::Short { len, bytes }
            }
            _ => Spelling::Long(text.to_string()),
        }
    }

    fn as_str(&self) -> Option<&str> {
        match self {
            Spelling::None => None,
            // Always the bytes of a `&str` (see `of`), cut where that string ended.
            Spelling::Short { len, bytes } => std::str::from_utf8(&bytes[..usize::from(*len)]).ok(),
            Spelling::Long(s) => Some(s),
        }
    }
}

impl<T: Spelled> Field<T> {
    /// A new value, written in the standard layout.
    pub fn new(value: T) -> Field<T> {
        Field {
            value,
            spelling: Spelling::None,
        }
    }

    pub(crate) fn read(value: T, spelling: &str) -> Field<T> {
        Field {
            value,
            spelling: Spelling::of(spelling),
        }
    }

    /// The text to write in a span of `width` columns.
    pub(crate) fn render(&self, width: usize) -> String {
        match self.spelling.as_str() {
            Some(s) if T::parse(s).as_ref() == Some(&self.value) => s.to_string(),
            _ => self.value.spell(width),
        }
    }

    /// Drops the text as read, so that the field is written in the standard layout.
    pub fn forget_spelling(&mut self) {
        self.spelling = Spelling::None;
    }
}

impl<T: Spelled + Default> Default for Field<T> {
    fn default() -> Self {
        Field::new(T::default())
    }
}

/// A value type with a TRF spelling.
pub trait Spelled: PartialEq + Sized {
    /// Reads the text of a span; `None` when it is not a value of this type.
    fn parse(text: &str) -> Option<Self>;
    /// The standard spelling in a span of `width` columns (`usize::MAX`: to the end of the line).
    fn spell(&self, width: usize) -> String;
}

/// Free text; the value is trimmed, the spelling keeps its padding.
impl Spelled for String {
    fn parse(text: &str) -> Option<Self> {
        Some(text.trim().to_string())
    }
    fn spell(&self, width: usize) -> String {
        // A line break or other control character would break the line apart.
        let mut s: String = self
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .take(width)
            .collect();
        if width != usize::MAX {
            let n = s.chars().count();
            s.extend(std::iter::repeat_n(' ', width.saturating_sub(n)));
        }
        s
    }
}

fn right(s: String, width: usize) -> String {
    let n = s.chars().count();
    if width == usize::MAX || n >= width {
        s
    } else {
        format!("{}{s}", " ".repeat(width - n))
    }
}

fn parse_u32(text: &str) -> Option<u32> {
    let t = text.trim();
    if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    t.parse().ok()
}

/// A required whole number (a start rank, a round).
impl Spelled for u32 {
    fn parse(text: &str) -> Option<Self> {
        parse_u32(text)
    }
    fn spell(&self, width: usize) -> String {
        right(self.to_string(), width)
    }
}

/// A whole number that may be blank (a rating, a rank). One too wide for its columns is
/// written blank rather than spill into the next field.
impl Spelled for Option<u32> {
    fn parse(text: &str) -> Option<Self> {
        if text.trim().is_empty() {
            Some(None)
        } else {
            parse_u32(text).map(Some)
        }
    }
    fn spell(&self, width: usize) -> String {
        self.map(|n| fit(n.to_string(), width)).unwrap_or_default()
    }
}

/// Right-aligned when it fits in `width`; blank otherwise.
fn fit(s: String, width: usize) -> String {
    if width != usize::MAX && s.chars().count() > width {
        String::new()
    } else {
        right(s, width)
    }
}

/// Reads `11.5`, `2`, `-0.5`: optional sign, digits, optional decimals.
pub(crate) fn parse_points(text: &str) -> Option<f64> {
    let t = text.trim();
    let digits = t.strip_prefix('-').unwrap_or(t);
    let (int, frac) = digits.split_once('.').unwrap_or((digits, ""));
    let ok = (!int.is_empty() || !frac.is_empty())
        && int.bytes().all(|b| b.is_ascii_digit())
        && frac.bytes().all(|b| b.is_ascii_digit())
        && int.len() + frac.len() <= 12;
    if !ok {
        return None;
    }
    t.parse().ok()
}

/// `11.5`; `154` when `154.0` is too wide for `width`; blank when nothing fits.
pub(crate) fn spell_points(v: f64, width: usize) -> String {
    if !v.is_finite() {
        return String::new();
    }
    let s = if (v * 10.0).fract() == 0.0 {
        format!("{v:.1}")
    } else {
        format!("{v}")
    };
    if width != usize::MAX && s.len() > width && v.fract() == 0.0 {
        return fit(format!("{v:.0}"), width);
    }
    fit(s, width)
}

/// Points, `11.5`.
impl Spelled for f64 {
    fn parse(text: &str) -> Option<Self> {
        parse_points(text)
    }
    fn spell(&self, width: usize) -> String {
        spell_points(*self, width)
    }
}

/// Points that may be blank.
impl Spelled for Option<f64> {
    fn parse(text: &str) -> Option<Self> {
        if text.trim().is_empty() {
            Some(None)
        } else {
            parse_points(text).map(Some)
        }
    }
    fn spell(&self, width: usize) -> String {
        self.map(|v| spell_points(v, width)).unwrap_or_default()
    }
}

/// One character that may be blank.
impl Spelled for Option<char> {
    fn parse(text: &str) -> Option<Self> {
        let mut it = text.trim().chars();
        match (it.next(), it.next()) {
            (None, _) => Some(None),
            (Some(c), None) => Some(Some(c)),
            _ => None,
        }
    }
    fn spell(&self, _width: usize) -> String {
        self.map(String::from).unwrap_or_default()
    }
}

/// A reference to a player or team by number; `0000` or blanks mean none (an empty board, no
/// opponent, no team).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Ref(pub Option<u32>);

impl Spelled for Ref {
    fn parse(text: &str) -> Option<Self> {
        if text.trim().is_empty() {
            return Some(Ref(None));
        }
        parse_u32(text).map(|n| Ref((n != 0).then_some(n)))
    }
    fn spell(&self, width: usize) -> String {
        match self.0 {
            Some(n) => right(n.to_string(), width),
            None => "0".repeat(width.min(4)),
        }
    }
}

/// A comma-separated list of codes (`202`, `212`).
impl Spelled for Vec<String> {
    fn parse(text: &str) -> Option<Self> {
        Some(
            text.split(',')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(String::from)
                .collect(),
        )
    }
    fn spell(&self, _width: usize) -> String {
        self.join(",")
    }
}

/// Reads one line's columns left to right, borrowing the line: a field's text is a slice of it.
pub(crate) struct LineReader<'a> {
    text: &'a str,
    /// The byte offset of each character and of the end, for a line that is not ASCII; in an
    /// ASCII line a column is a byte.
    offsets: Option<Vec<usize>>,
    /// The number of characters.
    len: usize,
    /// One past the last character that is not whitespace.
    content_end: usize,
    /// 0-based index of the next character to read.
    pos: usize,
    origin: &'a str,
    line: usize,
}

impl<'a> LineReader<'a> {
    pub(crate) fn new(text: &'a str, origin: &'a str, line: usize) -> LineReader<'a> {
        let trimmed = text.trim_end().len();
        let (offsets, len, content_end) = if text.is_ascii() {
            (None, text.len(), trimmed)
        } else {
            let mut o: Vec<usize> = text.char_indices().map(|(i, _)| i).collect();
            let content_end = o.partition_point(|&i| i < trimmed);
            let len = o.len();
            o.push(text.len());
            (Some(o), len, content_end)
        };
        LineReader {
            text,
            offsets,
            len,
            content_end,
            pos: 0,
            origin,
            line,
        }
    }

    /// The text of characters `from..to` (0-based, within the line).
    fn slice(&self, from: usize, to: usize) -> &'a str {
        match &self.offsets {
            None => &self.text[from..to],
            Some(o) => &self.text[o[from]..o[to]],
        }
    }

    fn char_at(&self, i: usize) -> char {
        self.slice(i, i + 1).chars().next().unwrap_or(' ')
    }

    pub(crate) fn error(&self, column: usize, expected: String, found: String) -> TrfError {
        TrfError {
            origin: self.origin.to_string(),
            line: self.line,
            column,
            expected,
            found,
        }
    }

    /// Whether anything but whitespace is left from the reading position.
    pub(crate) fn more(&self) -> bool {
        self.pos < self.content_end
    }

    /// Skips the three-character record tag (columns 1-3) without reading it.
    pub(crate) fn skip_tag(&mut self) {
        self.pos = self.len.min(3);
    }

    /// The text of columns `from..=to` (clipped to the line), after checking that the columns
    /// between the reading position and `from` are spaces. Returns `None` when the rest of the
    /// line is blank: the line is shorter than the layout, and the field is missing.
    pub(crate) fn span(&mut self, from: usize, to: usize) -> Result<Option<&'a str>, TrfError> {
        if !self.more() {
            return Ok(None);
        }
        let start = from.saturating_sub(1).max(self.pos).min(self.len);
        if let Some(off) = self.slice(self.pos, start).find(|c| c != ' ') {
            let i = self.pos + self.slice(self.pos, start)[..off].chars().count();
            return Err(self.error(
                i + 1,
                format!("a blank in column {} (between fields)", i + 1),
                self.char_at(i).to_string(),
            ));
        }
        let end = to.min(self.len).max(start);
        self.pos = end;
        Ok(Some(self.slice(start, end)))
    }

    /// Reads a field in columns `from..=to`; a missing field reads as blank text.
    pub(crate) fn field<T: Spelled>(
        &mut self,
        from: usize,
        to: usize,
        expected: &str,
    ) -> Result<Field<T>, TrfError> {
        // A missing field reads as blank; an error then says it found nothing.
        let text = self.span(from, to)?.unwrap_or_default();
        match T::parse(text) {
            Some(v) => Ok(Field::read(v, text)),
            None => Err(self.error(
                from,
                format!("{expected} in {}", columns(from, to)),
                text.trim().to_string(),
            )),
        }
    }

    /// Reads free text in columns `from..=to`. Text that runs on into the blank columns before
    /// `next` (a long name, a date one column late) is kept with it rather than refused.
    pub(crate) fn text(
        &mut self,
        from: usize,
        to: usize,
        next: usize,
    ) -> Result<Field<String>, TrfError> {
        let mut f: Field<String> = self.field(from, to, "text")?;
        let gap_end = next.saturating_sub(1).min(self.len);
        if self.pos == to && self.pos < gap_end {
            let gap = self.slice(self.pos, gap_end);
            let more = gap.trim_end_matches(' ');
            if !more.is_empty() {
                let spelling = format!("{}{more}", f.spelling.as_str().unwrap_or_default());
                f = Field::read(spelling.trim().to_string(), &spelling);
                self.pos += more.chars().count();
            }
        }
        Ok(f)
    }

    /// The rest of the line, which must be blank.
    pub(crate) fn tail(self) -> Result<String, TrfError> {
        let rest = self.slice(self.pos.min(self.len), self.len);
        if let Some(off) = rest.chars().position(|c| !c.is_whitespace()) {
            let column = self.pos + off + 1;
            let found: String = rest.trim().chars().take(20).collect();
            return Err(self.error(
                column,
                format!("the end of the record after column {}", self.pos),
                found,
            ));
        }
        Ok(rest.to_string())
    }
}

/// `columns 81-84` or `column 5`.
pub(crate) fn columns(from: usize, to: usize) -> String {
    if to == usize::MAX {
        format!("columns {from} onwards")
    } else if from == to {
        format!("column {from}")
    } else {
        format!("columns {from}-{to}")
    }
}

/// Writes a line column by column.
#[derive(Debug, Default)]
pub(crate) struct LineWriter {
    text: String,
    len: usize,
}

impl LineWriter {
    pub(crate) fn new(tag: &str) -> LineWriter {
        LineWriter {
            text: tag.to_string(),
            len: tag.chars().count(),
        }
    }

    /// Writes `text` from column `col`, padding with spaces. Blank text writes nothing: the
    /// padding before the next field covers it, and a line never ends in padding it did not have.
    pub(crate) fn put(&mut self, col: usize, text: &str) {
        if text.chars().all(|c| c == ' ') {
            return;
        }
        let target = col.saturating_sub(1);
        while self.len < target {
            self.text.push(' ');
            self.len += 1;
        }
        self.text.push_str(text);
        self.len += text.chars().count();
    }

    pub(crate) fn field<T: Spelled>(&mut self, from: usize, to: usize, field: &Field<T>) {
        let width = if to == usize::MAX {
            usize::MAX
        } else {
            to + 1 - from
        };
        self.put(from, &field.render(width));
    }

    pub(crate) fn finish(mut self, tail: &str) -> String {
        self.text.push_str(tail);
        self.text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_spelling_is_held_in_place_and_written_back() {
        // Small enough to sit beside its String: a field is no larger than an Option<String>.
        assert_eq!(size_of::<Spelling>(), size_of::<Option<String>>());
        for text in [
            "",
            " 15",
            "0000",
            "b",
            "12345678901234",
            "123456789012345",
            "Müller  ",
        ] {
            let f: Field<String> = Field::read(text.trim().to_string(), text);
            assert_eq!(f.render(text.chars().count()), text);
        }
        assert!(matches!(
            Spelling::of("12345678901234"),
            Spelling::Short { .. }
        ));
        assert!(matches!(Spelling::of("123456789012345"), Spelling::Long(_)));
    }

    #[test]
    fn spelling_survives_while_the_value_is_unchanged() {
        let mut f: Field<Option<f64>> = Field::read(Some(15.0), "15  ");
        assert_eq!(f.render(4), "15  ");
        f.value = Some(15.5);
        assert_eq!(f.render(4), "15.5");
        f.value = Some(2.0);
        assert_eq!(f.render(6), "   2.0");
    }

    #[test]
    fn reader_is_by_character() {
        let mut r = LineReader::new("001 Müller  ä", "x", 1);
        r.skip_tag();
        let f: Field<String> = r.field(5, 10, "a name").unwrap();
        assert_eq!(f.value, "Müller");
        let g: Field<String> = r.field(13, 13, "a letter").unwrap();
        assert_eq!(g.value, "ä");
    }

    #[test]
    fn columns_after_a_non_ascii_name_count_characters() {
        let mut r = LineReader::new("001 Jörg Müller-Lüdenscheidt  é", "x.trf", 1);
        r.skip_tag();
        // The name runs on past column 14 into the blank columns before 30.
        let f = r.text(5, 14, 30).unwrap();
        assert_eq!(f.value, "Jörg Müller-Lüdenscheidt");
        let e = r.field::<u32>(30, 31, "a number").unwrap_err();
        assert_eq!((e.column, e.found.as_str()), (30, "é"));
        let mut r = LineReader::new("001 ä x", "x.trf", 2);
        r.skip_tag();
        let e = r.field::<u32>(8, 9, "a number").unwrap_err();
        assert_eq!((e.column, e.found.as_str()), (5, "ä"));
    }

    #[test]
    fn gap_must_be_blank() {
        let mut r = LineReader::new("001x  1", "x.trf", 3);
        r.skip_tag();
        let e = r.field::<u32>(5, 8, "a start rank").unwrap_err();
        assert_eq!((e.line, e.column), (3, 4));
    }

    #[test]
    fn points_forms() {
        assert_eq!(parse_points(" 11.5"), Some(11.5));
        assert_eq!(parse_points("2"), Some(2.0));
        assert_eq!(parse_points("-0.5"), Some(-0.5));
        assert_eq!(parse_points("x.5"), None);
        assert_eq!(parse_points("."), None);
        assert_eq!(parse_points("1e5"), None);
    }
}
