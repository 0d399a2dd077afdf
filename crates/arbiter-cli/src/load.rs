//! Loading a competition from a file: competition JSON or FIDE TRF, chosen by content.

use std::path::{Path, PathBuf};

use anyhow::{Result, bail};
use arbiter_core::record::model::Competition;
use arbiter_core::rules::criteria::CriterionSpec;
use arbiter_core::rules::ruleset::Ruleset;
use arbiter_formats::ruleset_file::{self, FileRulesetSource};
use arbiter_formats::{competition_json, trf};

/// A competition with the rules it is ranked by.
#[derive(Debug)]
pub struct Loaded {
    pub competition: Competition,
    pub rules: Ruleset,
    /// A TRF file's own tie-break list (202), applied after the primary score.
    pub tiebreaks: Vec<CriterionSpec>,
    /// What the reader warned of, each with its rule and place.
    pub warnings: Vec<arbiter_core::rules::validate::Finding>,
}

/// The most a competition file may hold: FIDE's largest team events are a few MiB of TRF.
const COMPETITION_LIMIT: u64 = 64 * 1024 * 1024;

/// Which folders a file's `rules` and `extends` may read ruleset files from, besides the
/// competition file's own (or a `--rules` file's own).
#[derive(Debug, Clone, Default, clap::Args)]
pub struct RulesFrom {
    /// Also read ruleset files that a competition file's `rules` or `extends` names from this
    /// folder (repeat for several); by default only from the competition file's own folder.
    #[arg(long = "rules-from", value_name = "DIR")]
    pub folders: Vec<PathBuf>,
}

/// Reads `path`; `rules` (a preset name or a ruleset file) replaces the file's own rules.
pub fn competition(path: &Path, rules: Option<&str>, from: &RulesFrom) -> Result<Loaded> {
    let bytes = ruleset_file::read_limited(path, "a competition file", COMPETITION_LIMIT)
        .map_err(anyhow::Error::msg)?;
    let origin = path.display().to_string();
    let base_dir = path.parent().unwrap_or(Path::new(".")).to_path_buf();
    let mut loaded = if looks_like_json(&bytes) {
        let text = String::from_utf8(bytes).map_err(|e| {
            anyhow::anyhow!(
                "{origin}: the file is not UTF-8 (byte {}); save it as UTF-8",
                e.utf8_error().valid_up_to()
            )
        })?;
        let source = FileRulesetSource::new(base_dir).allowing(&from.folders);
        let c = competition_json::read(&origin, &text, &source)?;
        Loaded {
            competition: c.competition,
            rules: c.rules,
            tiebreaks: c.tiebreaks,
            warnings: c.warnings,
        }
    } else if looks_like_trf(&bytes) {
        let doc = trf::read(&origin, &bytes)?;
        let t = trf::to_competition(&doc)?;
        // Every command that loads a file ends soon after: the document (a record and the
        // spellings of every field of every line) is not freed piece by piece, the exit
        // returns its memory at once.
        std::mem::forget(doc);
        Loaded {
            competition: t.competition,
            rules: t.rules,
            tiebreaks: t.tiebreaks,
            // A TRF file's warnings are sentences that begin with the file's name.
            warnings: t
                .warnings
                .iter()
                .map(|w| arbiter_core::rules::validate::Finding::warning(None, w.as_str()))
                .collect(),
        }
    } else {
        bail!(
            "{origin}: this is neither a competition JSON file (it would start with `{{`) nor a TRF file (lines starting with a record number such as `012` or `001`)"
        );
    };
    if let Some(name) = rules {
        loaded.rules = match Ruleset::preset(name) {
            Some(preset) => preset,
            None => {
                let text = ruleset_file::read_ruleset(Path::new(name)).map_err(|e| {
                    anyhow::anyhow!(
                        "--rules {name}: this is not a preset ({}) and the ruleset file cannot be read ({e})",
                        arbiter_core::rules::ruleset::preset_names().join(", ")
                    )
                })?;
                let base = Path::new(name)
                    .parent()
                    .unwrap_or(Path::new("."))
                    .to_path_buf();
                let source = FileRulesetSource::new(base).allowing(&from.folders);
                Ruleset::from_toml(name, &text, &source)?
            }
        };
        // The record was checked against its own rules; check it against these too.
        use arbiter_core::rules::validate::{Severity, validate};
        let errors: Vec<String> = validate(&loaded.competition, &loaded.rules)
            .iter()
            .filter(|f| f.severity == Severity::Error)
            .map(|f| format!("{origin}: {f}"))
            .collect();
        if !errors.is_empty() {
            bail!(
                "{origin} cannot be ranked by --rules {name}:\n{}",
                errors.join("\n")
            );
        }
    }
    Ok(loaded)
}

fn looks_like_json(bytes: &[u8]) -> bool {
    let start = bytes.iter().position(|b| !b.is_ascii_whitespace());
    start.is_some_and(|i| bytes[i] == b'{') || bytes.starts_with(&[0xEF, 0xBB, 0xBF, b'{'])
}

fn looks_like_trf(bytes: &[u8]) -> bool {
    let text = String::from_utf8_lossy(&bytes[..bytes.len().min(4096)]);
    text.lines().any(|l| {
        let b = l.as_bytes();
        b.len() >= 3 && b[..3].iter().all(u8::is_ascii_digit)
    })
}
