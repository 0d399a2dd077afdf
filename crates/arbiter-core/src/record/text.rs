//! How long a text a person types may be (issue 9: ten reasons of 1.9 MB made one match page
//! 19 MB). Every limit is here, counted in characters, not bytes; the store refuses a longer
//! text whoever sends it (a form, the API, the command line, a file), the web refuses it first
//! with the field it came in, and the forms' `maxlength` shows the same number.
//!
//! A name or token label holding a control character, a line separator or a text-direction mark
//! is refused too (issue 30), the character named as U+XXXX.

use std::fmt;

/// A reason: why a result was corrected, disputed or stands, why a role or invitation ended.
/// A few sentences about a board or two; a match page shows every one of them together.
pub const REASON_MAX_CHARS: usize = 1000;
/// A name: a person's, a league's, season's, competition's, team's, school's or player's.
/// Names sit in table cells, headings and mail subjects; the longest real school names are
/// about 70 characters.
pub const NAME_MAX_CHARS: usize = 100;
/// What an API token is for, shown beside its prefix in one row of the account page.
pub const LABEL_MAX_CHARS: usize = 80;
/// An email address: RFC 5321 allows no longer a path (4.5.3.1.3).
pub const EMAIL_MAX_CHARS: usize = 254;
/// A league's description: a paragraph or two on its page.
pub const DESCRIPTION_MAX_CHARS: usize = 2000;
/// A school's postal address (issue 32): a few lines, as an envelope or a map search takes
/// it; the longest real ones are about 120 characters.
pub const ADDRESS_MAX_CHARS: usize = 300;

/// Which kind of text, for its limit and for the sentence refusing it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TextKind {
    /// Why a result was corrected, disputed or stands, or a role ended: [`REASON_MAX_CHARS`].
    Reason,
    /// A person's, league's, team's, school's or player's name: [`NAME_MAX_CHARS`].
    Name,
    /// What an API token is for: [`LABEL_MAX_CHARS`].
    Label,
    /// An email address: [`EMAIL_MAX_CHARS`].
    Email,
    /// A league's description: [`DESCRIPTION_MAX_CHARS`].
    Description,
    /// A school's postal address: [`ADDRESS_MAX_CHARS`].
    Address,
}

impl TextKind {
    /// The most characters a text of this kind may have.
    pub const fn max_chars(self) -> usize {
        match self {
            TextKind::Reason => REASON_MAX_CHARS,
            TextKind::Name => NAME_MAX_CHARS,
            TextKind::Label => LABEL_MAX_CHARS,
            TextKind::Email => EMAIL_MAX_CHARS,
            TextKind::Description => DESCRIPTION_MAX_CHARS,
            TextKind::Address => ADDRESS_MAX_CHARS,
        }
    }

    /// `a reason`, `an email address`: the kind in a sentence's rule.
    fn a(self) -> &'static str {
        match self {
            TextKind::Reason => "a reason",
            TextKind::Name => "a name",
            TextKind::Label => "a token's label",
            TextKind::Email => "an email address",
            TextKind::Description => "a description",
            TextKind::Address => "an address",
        }
    }
}

/// A text longer than its kind allows; its `Display` is the sentence that refuses it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextTooLong {
    /// Which kind of text, and so its limit.
    pub kind: TextKind,
    /// Which text, as a sentence starts with it: `the reason`, `the name of team nsw`.
    pub what: String,
    /// How many characters it has.
    pub chars: usize,
}

impl fmt::Display for TextTooLong {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} has {} characters; {} may have at most {}. Shorten it and send it again.",
            capitalised(&self.what),
            thousands(self.chars),
            self.kind.a(),
            thousands(self.kind.max_chars()),
        )
    }
}

impl std::error::Error for TextTooLong {}

/// A character a name or a label may not hold, with what it is called in the sentence: a
/// control character (a line break in a team's name cuts every mail about its matches short),
/// a line or paragraph separator, or a mark or override that turns the text's direction (a
/// name that reads one way and sorts another). `None` for every other character.
pub fn unsafe_character(c: char) -> Option<&'static str> {
    match c {
        '\n' | '\r' => Some("a line break"),
        '\t' => Some("a tab"),
        '\u{2028}' => Some("a line separator"),
        '\u{2029}' => Some("a paragraph separator"),
        '\u{200E}' | '\u{200F}' => Some("a text-direction mark"),
        '\u{202A}'..='\u{202E}' => Some("a text-direction override"),
        '\u{2066}'..='\u{2069}' => Some("a text-direction isolate"),
        c if c.is_control() => Some("a control character"),
        _ => None,
    }
}

/// A name or label holding a character it may not ([`unsafe_character`]); its `Display` is the
/// sentence that refuses it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnsafeCharacter {
    /// Which kind of text.
    pub kind: TextKind,
    /// Which text, as a sentence starts with it: `the name of team nsw`.
    pub what: String,
    /// The character.
    pub character: char,
    /// Where it is: 1 for the first character.
    pub at: usize,
}

impl fmt::Display for UnsafeCharacter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // An address's lines are parted by line breaks: only a name's or a label's are refused.
        let refused = match self.kind {
            TextKind::Address => "control characters, tabs or text-direction marks",
            _ => "control characters, line breaks or text-direction marks",
        };
        write!(
            f,
            "{} holds U+{:04X} ({}) at character {}; {} may not hold {refused}. Type it again without it and send it again.",
            capitalised(&self.what),
            u32::from(self.character),
            unsafe_character(self.character).unwrap_or("a control character"),
            self.at,
            self.kind.a(),
        )
    }
}

impl std::error::Error for UnsafeCharacter {}

/// Why a text a person typed is refused: too long for its kind, or (a name, a label) holding a
/// character it may not.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TextRefused {
    /// Longer than its kind allows.
    TooLong(TextTooLong),
    /// A name or label with a control or text-direction character.
    Character(UnsafeCharacter),
}

impl fmt::Display for TextRefused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TextRefused::TooLong(e) => e.fmt(f),
            TextRefused::Character(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for TextRefused {}

/// `the name` → `The name`.
fn capitalised(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// `1,234`: a count as the sentence says it.
fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(d);
    }
    out
}

/// A clause made a sentence, capitalised and ended with a full stop: core's findings and the
/// store's refusals are clauses, a person reads sentences.
pub fn sentence(s: &str) -> String {
    let s = s.trim();
    let mut out: String = match s.chars().next() {
        Some(c) => c.to_uppercase().chain(s.chars().skip(1)).collect(),
        None => String::new(),
    };
    if !out.ends_with(['.', '!', '?']) {
        out.push('.');
    }
    out
}

/// A name as a web address segment: `Secondary Open 2026` → `secondary-open-2026`, at most 64
/// characters (a long name is cut at a word's end); `None` when nothing is left. Letters beyond
/// ASCII are transliterated: `Krajský přebor` → `krajsky-prebor`, `Groß` → `gross`.
pub fn slug(name: &str) -> Option<String> {
    use unicode_normalization::UnicodeNormalization;
    let mut slug = String::new();
    let lower: String = name.chars().flat_map(char::to_lowercase).collect();
    for ch in lower.nfd() {
        if ch.is_ascii_alphanumeric() {
            slug.push(ch);
        } else if unicode_normalization::char::is_combining_mark(ch) {
            // The accent of a decomposed letter (the caron of ř): the base letter is kept.
        } else if let Some(spelled) = latin_letter(ch) {
            slug.push_str(spelled);
        } else if !slug.ends_with('-') && !slug.is_empty() {
            slug.push('-');
        }
    }
    if slug.len() > 64 {
        let cut = slug[..65].rfind('-').filter(|&i| i > 0).unwrap_or(64);
        slug.truncate(cut);
    }
    let slug = slug.trim_end_matches('-').to_string();
    (!slug.is_empty()).then_some(slug)
}

/// The ASCII spelling of a lowercase Latin letter that no decomposition reaches (ß, æ, ø, ł, …).
fn latin_letter(ch: char) -> Option<&'static str> {
    Some(match ch {
        'ß' => "ss",
        'æ' => "ae",
        'œ' => "oe",
        'ø' => "o",
        'ł' => "l",
        'đ' | 'ð' => "d",
        'þ' => "th",
        'ı' => "i",
        'ħ' => "h",
        'ŋ' => "ng",
        _ => return None,
    })
}

/// `text` fits its kind, or the sentence why not. `what` names it (`the reason`). A name or a
/// token's label is one line of text read left to right: a control character, a separator or a
/// text-direction mark in it is refused ([`unsafe_character`]); a reason or a description may
/// run over several lines.
pub fn check(kind: TextKind, what: &str, text: &str) -> Result<(), TextRefused> {
    fits(kind, what, text).map_err(TextRefused::TooLong)?;
    if matches!(kind, TextKind::Name | TextKind::Label)
        && let Some((i, character)) = text
            .chars()
            .enumerate()
            .find(|(_, c)| unsafe_character(*c).is_some())
    {
        return Err(TextRefused::Character(UnsafeCharacter {
            kind,
            what: what.to_string(),
            character,
            at: i + 1,
        }));
    }
    Ok(())
}

/// `text` is no longer than its kind allows, or the sentence why not.
fn fits(kind: TextKind, what: &str, text: &str) -> Result<(), TextTooLong> {
    // Stops counting one past the limit: a 2 MB text costs no more than one that fits.
    let chars = text.chars().take(kind.max_chars() + 1).count();
    if chars <= kind.max_chars() {
        Ok(())
    } else {
        Err(TextTooLong {
            kind,
            what: what.to_string(),
            chars: text.chars().count(),
        })
    }
}

/// A reason as it is kept: trimmed, not blank, at most [`REASON_MAX_CHARS`] characters.
/// Written as its text (an API returns it); read only through [`Reason::parse`].
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(transparent)]
pub struct Reason(String);

impl Reason {
    /// The reason in `text`, trimmed; `None` when it is blank (a blank reason is no reason).
    pub fn parse(text: &str) -> Result<Option<Reason>, TextTooLong> {
        Reason::parse_as("the reason", text)
    }

    /// As [`Reason::parse`], with the sentence naming it as `what` (`the dispute's reason`).
    pub fn parse_as(what: &str, text: &str) -> Result<Option<Reason>, TextTooLong> {
        let text = text.trim();
        if text.is_empty() {
            return Ok(None);
        }
        fits(TextKind::Reason, what, text)?;
        Ok(Some(Reason(text.to_string())))
    }

    /// The reason as kept.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A school's postal address as the league keeps it (issue 32): its lines trimmed and the blank
/// ones left out, no line holding a control character, a separator or a text-direction mark
/// ([`unsafe_character`]), at most [`ADDRESS_MAX_CHARS`] characters in all. A calendar's
/// `LOCATION` and a team's page write it on one line ([`PostalAddress::one_line`]).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
#[serde(transparent)]
pub struct PostalAddress(String);

impl PostalAddress {
    /// The address in `text`, a line of it a line of the text (or one line, its parts parted by
    /// commas); `None` when it is blank, which leaves a school without an address. `what`
    /// names it in the sentence refusing it (`the address of Start High School`).
    pub fn parse(what: &str, text: &str) -> Result<Option<PostalAddress>, TextRefused> {
        // A line break parts the lines; any other character a name may not hold is refused
        // where it was typed.
        if let Some((i, character)) = text
            .chars()
            .enumerate()
            .find(|&(_, c)| c != '\n' && c != '\r' && unsafe_character(c).is_some())
        {
            return Err(TextRefused::Character(UnsafeCharacter {
                kind: TextKind::Address,
                what: what.to_string(),
                character,
                at: i + 1,
            }));
        }
        let kept = text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect::<Vec<_>>()
            .join("\n");
        if kept.is_empty() {
            return Ok(None);
        }
        fits(TextKind::Address, what, &kept).map_err(TextRefused::TooLong)?;
        Ok(Some(PostalAddress(kept)))
    }

    /// The address as kept: its lines parted by `\n`.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Its lines, the first first.
    pub fn lines(&self) -> impl Iterator<Item = &str> {
        self.0.lines()
    }

    /// The address on one line, its lines parted by commas: `2010 Tremainsville Rd, Toledo, OH
    /// 43613` (a line already ending in a comma is not given another).
    pub fn one_line(&self) -> String {
        let mut out = String::with_capacity(self.0.len() + 8);
        for line in self.lines() {
            if !out.is_empty() {
                out.push_str(if out.ends_with(',') { " " } else { ", " });
            }
            out.push_str(line);
        }
        out
    }
}

impl fmt::Display for PostalAddress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.one_line())
    }
}

/// An email address as the league keeps it: trimmed and lower-case (so `Advisor@Vic.example `
/// is `advisor@vic.example`), one `@` between a part before it with no spaces, quotes,
/// commas or brackets and a domain of dot-separated labels of letters, digits and hyphens,
/// at most [`EMAIL_MAX_CHARS`] characters. The one rule for every form, the API and the store.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Email(String);

impl Email {
    /// The address in `text`, or the sentence why it is not one.
    pub fn parse(text: &str) -> Result<Email, String> {
        let text = text.trim();
        // First, so that the sentence below never repeats a text of any length.
        check(TextKind::Email, "the email address", text).map_err(|e| e.to_string())?;
        let e = text.to_lowercase();
        let refuse = |why: &str| {
            format!("“{text}” is not an email address: {why}. Write it as name@school.org.")
        };
        let Some((local, domain)) = e.split_once('@') else {
            return Err(refuse("it has no @"));
        };
        if local.is_empty() {
            return Err(refuse("nothing comes before the @"));
        }
        if domain.contains('@') {
            return Err(refuse("it has more than one @"));
        }
        let odd = |c: char| c.is_whitespace() || c.is_control() || "\"(),:;<>[\\]".contains(c);
        if local.chars().any(odd) {
            return Err(refuse(
                "the part before the @ has a space, quote, comma or bracket",
            ));
        }
        let label_ok = |l: &str| {
            !l.is_empty()
                && !l.starts_with('-')
                && !l.ends_with('-')
                && l.chars().all(|c| c.is_alphanumeric() || c == '-')
        };
        if domain.is_empty() || !domain.split('.').all(label_ok) {
            return Err(refuse("the part after the @ is not a domain"));
        }
        Ok(Email(e))
    }

    /// The address as kept: trimmed and lower-case.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Email {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs_from_names() {
        assert_eq!(
            slug("ASTC 2026 Secondary Open").as_deref(),
            Some("astc-2026-secondary-open")
        );
        assert_eq!(
            slug("St. John's Jesuit — Zoë").as_deref(),
            Some("st-john-s-jesuit-zoe")
        );
        // Issue 34: letters beyond ASCII are transliterated, not dropped.
        assert_eq!(slug("Krajský přebor").as_deref(), Some("krajsky-prebor"));
        assert_eq!(
            slug("Oberliga Süd-Ost, Großraum Łódź").as_deref(),
            Some("oberliga-sud-ost-grossraum-lodz")
        );
        assert_eq!(slug("Ærø Skakklub").as_deref(), Some("aero-skakklub"));
        assert_eq!(slug("  —  "), None);
        // A long name is cut at a word's end to fit 64 characters.
        let long =
            slug("Greater Toledo High School Chess League 2026-27 Maumee River Division").unwrap();
        assert_eq!(
            long,
            "greater-toledo-high-school-chess-league-2026-27-maumee-river"
        );
        assert!(long.len() <= 64);
    }

    #[test]
    fn an_email_is_trimmed_and_lower_case_and_refused_with_why() {
        assert_eq!(
            Email::parse(" Advisor@Vic.example ").unwrap().as_str(),
            "advisor@vic.example"
        );
        assert!(Email::parse("arbiter@localhost").is_ok());
        assert!(Email::parse("o'brien+chess@école.example").is_ok());
        for (bad, why) in [
            ("advisor.example", "no @"),
            ("@vic.example", "nothing comes before"),
            ("a@b@c.example", "more than one @"),
            ("pat smith@vic.example", "space, quote"),
            ("a,b@vic.example", "space, quote"),
            ("a@", "not a domain"),
            ("a@vic..example", "not a domain"),
            ("a@-vic.example", "not a domain"),
        ] {
            let refusal = Email::parse(bad).unwrap_err();
            assert!(refusal.contains(why), "{bad}: {refusal}");
            assert!(refusal.contains("name@school.org"), "{refusal}");
        }
        let long = format!("{}@vic.example", "a".repeat(250));
        let refusal = Email::parse(&long).unwrap_err();
        assert!(refusal.contains("at most 254"), "{refusal}");
        assert!(
            !refusal.contains("aaaa"),
            "the refusal does not repeat a long text"
        );
    }

    #[test]
    fn an_address_keeps_its_lines_and_is_written_on_one_line() {
        let a = PostalAddress::parse(
            "the address",
            "  2010 Tremainsville Rd \r\n\n Toledo, OH 43613\n",
        )
        .unwrap()
        .unwrap();
        assert_eq!(a.as_str(), "2010 Tremainsville Rd\nToledo, OH 43613");
        assert_eq!(a.one_line(), "2010 Tremainsville Rd, Toledo, OH 43613");
        assert_eq!(a.to_string(), a.one_line());
        let one = PostalAddress::parse("the address", "1 Main St, Toledo")
            .unwrap()
            .unwrap();
        assert_eq!(one.lines().count(), 1);
        assert_eq!(one.one_line(), "1 Main St, Toledo");
        let comma = PostalAddress::parse("the address", "1 Main St,\nToledo")
            .unwrap()
            .unwrap();
        assert_eq!(comma.one_line(), "1 Main St, Toledo");
        assert_eq!(
            PostalAddress::parse("the address", " \n \r\n").unwrap(),
            None
        );
    }

    #[test]
    fn an_address_too_long_or_with_a_tab_or_direction_mark_is_refused_with_the_sentence() {
        let long = format!("{}\nToledo", "x".repeat(ADDRESS_MAX_CHARS));
        let refused = PostalAddress::parse("the address of Start High School", &long)
            .unwrap_err()
            .to_string();
        assert_eq!(
            refused,
            "The address of Start High School has 307 characters; an address may have at most 300. Shorten it and send it again."
        );
        let exactly = "x".repeat(ADDRESS_MAX_CHARS);
        assert!(PostalAddress::parse("the address", &exactly).is_ok());
        let refused = PostalAddress::parse("the address", "1 Main St\n\u{202E}Toledo")
            .unwrap_err()
            .to_string();
        assert!(
            refused.starts_with("The address holds U+202E (a text-direction override) at character 11; an address may not hold control characters, tabs or text-direction marks."),
            "{refused}"
        );
        assert!(PostalAddress::parse("the address", "1 Main\tSt").is_err());
    }

    #[test]
    fn a_reason_of_exactly_the_limit_is_kept() {
        let text = "x".repeat(REASON_MAX_CHARS);
        let reason = Reason::parse(&text).unwrap().unwrap();
        assert_eq!(reason.as_str().chars().count(), REASON_MAX_CHARS);
    }

    #[test]
    fn a_reason_one_character_over_is_refused_with_a_sentence() {
        let text = "x".repeat(REASON_MAX_CHARS + 1);
        let err = Reason::parse(&text).unwrap_err();
        assert_eq!(err.chars, 1001);
        assert_eq!(
            err.to_string(),
            "The reason has 1,001 characters; a reason may have at most 1,000. Shorten it and send it again."
        );
    }

    #[test]
    fn characters_are_counted_not_bytes() {
        // 1,000 four-byte characters: 4,000 bytes, and still within the limit.
        let knights = "\u{265E}".repeat(REASON_MAX_CHARS);
        assert_eq!(knights.len(), 3 * REASON_MAX_CHARS);
        assert!(Reason::parse(&knights).unwrap().is_some());
        let emoji = "\u{1F600}".repeat(REASON_MAX_CHARS);
        assert_eq!(emoji.len(), 4 * REASON_MAX_CHARS);
        assert!(Reason::parse(&emoji).unwrap().is_some());
        let over = format!("{emoji}é");
        assert_eq!(
            Reason::parse(&over).unwrap_err().chars,
            REASON_MAX_CHARS + 1
        );
    }

    #[test]
    fn a_reason_is_trimmed_and_a_blank_one_is_none() {
        assert_eq!(Reason::parse("   ").unwrap(), None);
        assert_eq!(
            Reason::parse("  board 4 was a draw \n")
                .unwrap()
                .unwrap()
                .as_str(),
            "board 4 was a draw"
        );
        // The spaces around it do not count against the limit.
        let padded = format!("  {}  ", "x".repeat(REASON_MAX_CHARS));
        assert!(Reason::parse(&padded).unwrap().is_some());
    }

    #[test]
    fn every_kind_accepts_its_limit_and_refuses_one_more() {
        for kind in [
            TextKind::Reason,
            TextKind::Name,
            TextKind::Label,
            TextKind::Email,
            TextKind::Description,
        ] {
            let max = kind.max_chars();
            assert!(check(kind, "it", &"é".repeat(max)).is_ok(), "{kind:?}");
            let err = fits(kind, "the text", &"é".repeat(max + 1)).unwrap_err();
            assert_eq!(err.chars, max + 1, "{kind:?}");
            let sentence = err.to_string();
            assert!(sentence.starts_with("The text has "), "{sentence}");
            assert!(
                sentence.ends_with("Shorten it and send it again."),
                "{sentence}"
            );
        }
    }

    #[test]
    fn the_sentence_names_the_text_and_its_length_with_thousands() {
        let err = check(
            TextKind::Name,
            "the name of team nsw",
            &"n".repeat(1_234_567),
        )
        .unwrap_err();
        assert_eq!(
            err.to_string(),
            "The name of team nsw has 1,234,567 characters; a name may have at most 100. Shorten it and send it again."
        );
    }

    #[test]
    fn a_name_with_a_control_or_text_direction_character_is_refused_naming_it() {
        for (bad, code, called) in [
            ("Perth\nCollege", "U+000A", "a line break"),
            ("Perth\rCollege", "U+000D", "a line break"),
            ("Perth\tCollege", "U+0009", "a tab"),
            ("Perth\u{0}College", "U+0000", "a control character"),
            ("Perth\u{85}College", "U+0085", "a control character"),
            ("Perth\u{2028}College", "U+2028", "a line separator"),
            ("Perth\u{2029}College", "U+2029", "a paragraph separator"),
            ("Perth\u{200E}College", "U+200E", "a text-direction mark"),
            ("Perth\u{200F}College", "U+200F", "a text-direction mark"),
            (
                "Perth\u{202A}College",
                "U+202A",
                "a text-direction override",
            ),
            (
                "Perth\u{202E}College",
                "U+202E",
                "a text-direction override",
            ),
            ("Perth\u{2066}College", "U+2066", "a text-direction isolate"),
            ("Perth\u{2069}College", "U+2069", "a text-direction isolate"),
        ] {
            let e = check(TextKind::Name, "the name of team wa", bad).unwrap_err();
            assert_eq!(
                e.to_string(),
                format!(
                    "The name of team wa holds {code} ({called}) at character 6; a name may not hold control characters, line breaks or text-direction marks. Type it again without it and send it again."
                ),
                "{bad:?}"
            );
            assert!(check(TextKind::Label, "the token's label", bad).is_err());
        }
        // Letters of every script, and the marks a name may hold, stand.
        for good in [
            "Zoë O'Brien-Ñúñez",
            "École Saint-Jean",
            "محمد",
            "李雷",
            "Perth College",
        ] {
            assert_eq!(check(TextKind::Name, "a name", good), Ok(()), "{good}");
        }
        // A reason or a description may run over lines.
        assert!(check(TextKind::Reason, "the reason", "board 3\nboard 4").is_ok());
        assert!(check(TextKind::Description, "the description", "one\n\ntwo").is_ok());
    }

    #[test]
    fn counts_are_written_with_thousands_separators() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(1_900_000), "1,900,000");
    }
}
