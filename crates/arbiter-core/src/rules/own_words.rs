//! A league's own rule IDs in the sentences core writes by the two rulebooks (issue 34 item 5).
//!
//! Core's procedures are written by their reference reading and cite its IDs ("GT-P2: version 2
//! of this result awaits the visitors' confirmation"). A league that runs the same procedure
//! under its own file names that rule otherwise, or not at all. The presets' `[cite]` tables,
//! read backwards, say which field each built-in ID is the rule of (GT-P2 is `report`); the
//! league's `[cite]` then says its ID for that field. [`Ruleset::in_own_words`] rewrites a
//! sentence so: the league's ID where it has one, nothing where it cites none. A ruleset that
//! cites the built-in ID itself (the presets, and files that extend them) reads as before.

use std::borrow::Cow;
use std::sync::OnceLock;

use crate::rules::ruleset::Ruleset;

/// Each built-in ID of the presets' `[cite]` tables with the field it is the rule of; an ID
/// cited for several fields keeps the first.
fn built_in() -> &'static [(String, String)] {
    static TABLE: OnceLock<Vec<(String, String)>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut out: Vec<(String, String)> = Vec::new();
        for name in ["gthscl", "astc"] {
            let Some(preset) = Ruleset::preset(name) else {
                continue;
            };
            for (field, ids) in &preset.citations {
                for id in ids.split(',').map(str::trim).filter(|i| !i.is_empty()) {
                    if !out.iter().any(|(known, _)| known == id) {
                        out.push((id.to_string(), field.clone()));
                    }
                }
            }
        }
        out
    })
}

/// Whether `text[at..]` starts a rulebook ID: `GT-` or `AS-` after no letter or digit.
fn id_at(text: &str, at: usize) -> Option<&str> {
    let rest = &text[at..];
    if !(rest.starts_with("GT-") || rest.starts_with("AS-")) {
        return None;
    }
    if text[..at]
        .chars()
        .next_back()
        .is_some_and(|c| c.is_ascii_alphanumeric() || c == '-')
    {
        return None;
    }
    let body = &rest[3..];
    let letters = body.chars().take_while(char::is_ascii_uppercase).count();
    let digits = body[letters..]
        .chars()
        .take_while(char::is_ascii_digit)
        .count();
    (digits > 0).then(|| &rest[..3 + letters + digits])
}

impl Ruleset {
    /// Whether this ruleset cites `id` for any field.
    fn cites_id(&self, id: &str) -> bool {
        self.citations
            .values()
            .any(|ids| ids.split(',').any(|i| i.trim() == id))
    }

    /// `text` with every built-in rulebook ID it cites said as this ruleset says it: kept when
    /// the ruleset cites it, the league's own ID for the same field when it has one, and left
    /// out (with its brackets or comma) when it cites none. An ID of a rulebook the ruleset
    /// cites nothing of is left out too; one of a rulebook it cites (GTHSCL's, for a file that
    /// extends `gthscl`) stays.
    pub fn in_own_words<'t>(&self, text: &'t str) -> Cow<'t, str> {
        let mut ids: Vec<&str> = Vec::new();
        for (at, _) in text.char_indices() {
            if let Some(id) = id_at(text, at)
                && !ids.contains(&id)
            {
                ids.push(id);
            }
        }
        let changes: Vec<(&str, Option<&str>)> = ids
            .into_iter()
            .filter(|id| !self.cites_id(id))
            .filter_map(|id| {
                let field = built_in()
                    .iter()
                    .find(|(known, _)| known == id)
                    .map(|(_, f)| f.as_str());
                match field.and_then(|f| self.cite(f)) {
                    Some(own) => Some((id, Some(own))),
                    None => {
                        // An ID no field names: kept where the league cites that rulebook.
                        let book = &id[..3];
                        let cites_book = self
                            .citations
                            .values()
                            .any(|ids| ids.split(',').any(|i| i.trim().starts_with(book)));
                        (field.is_some() || !cites_book).then_some((id, None))
                    }
                }
            })
            .collect();
        if changes.is_empty() {
            return Cow::Borrowed(text);
        }
        let mut out = text.to_string();
        for (id, own) in changes {
            out = match own {
                Some(own) => replace_id(&out, id, own),
                None => remove_id(&out, id),
            };
        }
        Cow::Owned(out)
    }
}

/// `text` with each whole `id` replaced by `with`.
fn replace_id(text: &str, id: &str, with: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut last = 0;
    for (at, _) in text.char_indices() {
        if at < last {
            continue;
        }
        if id_at(text, at) == Some(id) {
            out.push_str(&text[last..at]);
            out.push_str(with);
            last = at + id.len();
        }
    }
    out.push_str(&text[last..]);
    out
}

/// `text` without `id`, and without the brackets, comma or colon that held it.
fn remove_id(text: &str, id: &str) -> String {
    let mut out = text.to_string();
    for (pattern, with) in [
        (format!(" ({id})"), String::new()),
        (format!("({id})"), String::new()),
        (format!("({id}, "), "(".to_string()),
        (format!("({id}; "), "(".to_string()),
        (format!(", {id})"), ")".to_string()),
        (format!("; {id})"), ")".to_string()),
        (format!(", {id}"), String::new()),
        (format!("{id}, "), String::new()),
        (format!("{id}: "), String::new()),
    ] {
        out = out.replace(&pattern, &with);
    }
    // Anything left names the rule in a sentence of its own: say "the rules" there.
    replace_id(&out, id, "the rules")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::ruleset::PresetsOnly;

    fn read(text: &str) -> Ruleset {
        Ruleset::from_toml("league.toml", text, &PresetsOnly).unwrap()
    }

    #[test]
    fn the_presets_read_their_own_ids_as_written() {
        let text =
            "GT-P2: version 2 of this result awaits the visitors' confirmation (GT-P2, GT-O3).";
        for preset in ["gthscl", "astc", "fide-team"] {
            let r = Ruleset::preset(preset).unwrap();
            let said = r.in_own_words(text);
            if preset == "gthscl" {
                assert_eq!(said, text);
            } else {
                assert_eq!(
                    said,
                    "version 2 of this result awaits the visitors' confirmation."
                );
            }
        }
        let astc = Ruleset::preset("astc").unwrap();
        assert_eq!(
            astc.in_own_words("a roster has at most 6 (AS-9)"),
            "a roster has at most 6 (AS-9)"
        );
    }

    #[test]
    fn a_league_reads_its_own_ids_and_none_where_it_cites_none() {
        let county = read(
            "extends = \"fide-team\"\nconduct = \"advisors\"\n[report]\nenter_within_days = 2\n[cite]\nreport = \"Rule 9.1\"\n",
        );
        assert_eq!(
            county.in_own_words(
                "GT-P2: version 2 awaits the visitors (GT-P2, GT-O3); decided by an officer (GT-M3, GT-P4)."
            ),
            "Rule 9.1: version 2 awaits the visitors (Rule 9.1); decided by an officer."
        );
        // A league that extends gthscl keeps the GTHSCL IDs it does not rename.
        let renamed = read("extends = \"gthscl\"\n[cite]\nreport = \"R5\"\n");
        assert_eq!(
            renamed.in_own_words("GT-P2: see GT-R6 and (GT-O3)."),
            "R5: see GT-R6 and (GT-O3)."
        );
        // A word that only looks like an ID is left alone.
        assert_eq!(county.in_own_words("PGT-P2 and AS-X"), "PGT-P2 and AS-X");
    }
}
