//! Ruleset files on disk: the `RulesetSource` that core's pure parser asks for `extends` names
//! and for a competition file's `"rules": "league.toml"`.

use std::path::{Path, PathBuf};

use arbiter_core::ruleset::{RulesetSource, preset_names};

/// Reads ruleset files; a relative name is taken relative to `base_dir` (the directory of the
/// competition file, or the working directory for a command-line option).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileRulesetSource {
    pub base_dir: PathBuf,
}

impl FileRulesetSource {
    pub fn new(base_dir: impl Into<PathBuf>) -> FileRulesetSource {
        FileRulesetSource {
            base_dir: base_dir.into(),
        }
    }

    /// Where `name` is looked for.
    pub fn path_of(&self, name: &str) -> PathBuf {
        let p = Path::new(name);
        if p.is_absolute() {
            p.to_path_buf()
        } else {
            self.base_dir.join(p)
        }
    }
}

impl RulesetSource for FileRulesetSource {
    fn load(&self, name: &str) -> Result<(String, String), String> {
        let path = self.path_of(name);
        match std::fs::read_to_string(&path) {
            Ok(text) => Ok((path.display().to_string(), text)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Err(format!(
                "it is not a preset ({}) and there is no file {}",
                preset_names().join(", "),
                path.display()
            )),
            Err(e) => Err(format!("cannot read {}: {e}", path.display())),
        }
    }
}
