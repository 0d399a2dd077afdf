//! How values read on a page: points with ½, match scores, ratings (GT-R3), board results,
//! colours, and path segments for links.

use arbiter_core::record::model::{Colour, GameOutcome, GameResult, Player};
use arbiter_core::scoring::standings::format_number;

/// Points as a chess score is written: `2½`, `½`, `4`; other fractions as decimals.
pub fn points(x: f64) -> String {
    let whole = x.trunc();
    let frac = (x - whole).abs();
    if (frac - 0.5).abs() < 1e-9 {
        if whole == 0.0 {
            if x < 0.0 { "-½".into() } else { "½".into() }
        } else {
            format!("{}½", format_number(whole))
        }
    } else {
        format_number(x)
    }
}

/// A match score, own side first: `2½–1½`.
pub fn score(own: f64, other: f64) -> String {
    format!("{}\u{2013}{}", points(own), points(other))
}

/// GT-R3: a provisional player's rating is `1200N`; an unrated player has none.
pub fn rating(p: &Player) -> String {
    match (p.rating, p.provisional) {
        (Some(r), provisional) => arbiter_core::record::model::rating_text(r, provisional),
        (None, true) => arbiter_core::record::model::rating_text(1200, true),
        (None, false) => String::new(),
    }
}

/// A board's result from the home side, as printed on a match card (GT-S2 forfeits `+/−`).
pub fn board_result(r: GameResult) -> &'static str {
    r.symbol()
}

/// `a day`, `5 days`: a deadline's length in a sentence.
pub fn days(n: u32) -> String {
    match n {
        1 => "a day".into(),
        n => format!("{n} days"),
    }
}

/// One player's result: `1`, `½`, `0`, `+` and `−` for forfeits (GT-S2).
pub fn player_result(o: GameOutcome) -> &'static str {
    match o {
        GameOutcome::Win => "1",
        GameOutcome::Draw => "½",
        GameOutcome::Loss => "0",
        GameOutcome::ForfeitWin => "+",
        GameOutcome::ForfeitLoss => "\u{2212}",
        GameOutcome::DoubleForfeit => "\u{2212}/\u{2212}",
        GameOutcome::Pending => "\u{2013}",
    }
}

/// "White" or "Black".
pub fn colour_word(c: Colour) -> &'static str {
    match c {
        Colour::White => "White",
        Colour::Black => "Black",
    }
}

pub fn colour_letter(c: Colour) -> &'static str {
    match c {
        Colour::White => "W",
        Colour::Black => "B",
    }
}

/// Percent-encodes one path segment (everything but RFC 3986 unreserved characters).
pub fn segment(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
            out.push(char::from(b));
        } else {
            out.push('%');
            out.push(char::from(HEX[usize::from(b >> 4)]));
            out.push(char::from(HEX[usize::from(b & 15)]));
        }
    }
    out
}

const HEX: &[u8; 16] = b"0123456789ABCDEF";

/// A date as a page prints it: `Mon 3 Nov 2026`.
pub fn date(d: jiff::civil::Date) -> String {
    d.strftime("%a %-d %b %Y").to_string()
}

/// A moment as pages print it, in UTC: `Wed 2 Dec 2026 16:15 UTC`.
pub fn timestamp(t: jiff::Timestamp) -> String {
    t.strftime("%a %-d %b %Y %H:%M UTC").to_string()
}

/// A moment as a league's pages print it, in its zone with the zone's abbreviation (RULES.md,
/// "Time"): `Wed 2 Dec 2026 11:15 EST`.
pub fn timestamp_in(t: jiff::Timestamp, zone: &arbiter_core::record::zone::Zone) -> String {
    t.to_zoned_datetime(zone.tz().clone())
        .strftime("%a %-d %b %Y %H:%M %Z")
        .to_string()
}

/// FNV-1a, 64 bits: a stable hash for ETags and the stylesheet's versioned URL.
pub const fn fnv1a(seed: u64, bytes: &[u8]) -> u64 {
    let mut h = seed;
    let mut i = 0;
    while i < bytes.len() {
        h ^= bytes[i] as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
        i += 1;
    }
    h
}

pub const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;

/// The flag of a team Swiss pair or bye changed by hand (issue 17): why (C.04.2 art. 1.5), and
/// each absolute criterion it overrode (issue 30), as the pairing page and the round page show it.
pub(crate) fn hand_note(reason: &str, overridden: &[String]) -> String {
    let mut note = format!("Changed by hand: {reason} (C.04.2 art. 1.5)");
    for o in overridden {
        note.push_str(&format!("; overriding {}", o.trim_end_matches('.')));
    }
    note
}

/// ` (GT-P2, GT-O3)`: the ruleset's own IDs for the fields `keys` (its `[cite]`), in brackets,
/// the ones it cites; nothing when it cites none (issue 34: a league's rules are cited by its
/// own IDs, or not at all).
pub fn cited(rules: &arbiter_core::Ruleset, keys: &[&str]) -> String {
    let ids: Vec<&str> = keys.iter().filter_map(|k| rules.cite(k)).collect();
    if ids.is_empty() {
        String::new()
    } else {
        format!(" ({})", ids.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn halves_print_as_chess_scores() {
        assert_eq!(points(2.5), "2½");
        assert_eq!(points(0.5), "½");
        assert_eq!(points(4.0), "4");
        assert_eq!(points(0.0), "0");
        assert_eq!(points(1.25), "1.25");
        assert_eq!(score(2.5, 1.5), "2½–1½");
    }

    #[test]
    fn provisional_rating_gt_r3() {
        let p = Player {
            id: arbiter_core::PlayerId("p".into()),
            name: "P".into(),
            rating: Some(1200),
            provisional: true,
            ..Player::default()
        };
        assert_eq!(rating(&p), "1200N");
    }

    #[test]
    fn segments_are_percent_encoded() {
        assert_eq!(segment("toledo-a"), "toledo-a");
        assert_eq!(segment("a b/ë"), "a%20b%2F%C3%AB");
    }
}
