//! How core writes a number and a list inside its sentences (the bracket, the awards, the media
//! report, the qualification's ties), so each says it one way. Imports nothing else from core.

/// A score as a score sheet prints it: `3`, `2½`, `½`; any other fraction with up to two
/// decimals (`2.25`).
pub fn number(x: f64) -> String {
    let whole = x.trunc();
    let fraction = (x - whole).abs();
    if fraction < 1e-9 {
        format!("{}", whole + 0.0)
    } else if (fraction - 0.5).abs() < 1e-9 {
        if whole == 0.0 {
            if x < 0.0 {
                "\u{2212}½".into()
            } else {
                "½".into()
            }
        } else {
            format!("{whole}½")
        }
    } else {
        let s = format!("{x:.2}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

/// `A`, `A and B`, `A, B and C`.
pub fn list<S: AsRef<str>>(items: impl Iterator<Item = S>) -> String {
    let items: Vec<String> = items.map(|s| s.as_ref().to_string()).collect();
    match items.as_slice() {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// A person's text as a sentence repeats it: at most 40 characters, cut with an ellipsis.
pub fn shortened(s: &str) -> String {
    match s.char_indices().nth(40) {
        Some((i, _)) => format!("{}\u{2026}", &s[..i]),
        None => s.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_and_lists_in_words() {
        assert_eq!(
            [0.0, 0.5, 1.0, 2.5, 4.0, 2.25, -0.0].map(number),
            ["0", "½", "1", "2½", "4", "2.25", "0"]
        );
        assert_eq!(list(["A"].iter()), "A");
        assert_eq!(list(["A", "B", "C"].iter()), "A, B and C");
        assert_eq!(list(Vec::<String>::new().iter()), "");
    }
}
