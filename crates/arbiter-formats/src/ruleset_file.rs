//! Ruleset files on disk: the `RulesetSource` that core's pure parser asks for `extends` names
//! and for a competition file's `"rules": "league.toml"`.
//!
//! A file names other files, so what it may reach is bounded: regular files only (a device
//! such as `/dev/zero` never ends, a FIFO never answers), at most [`RULESET_LIMIT`] bytes, and
//! only inside the competition file's folder or a folder the command line allows.

use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};

use arbiter_core::rules::ruleset::{RulesetSource, preset_names};

/// The most a ruleset file may hold: a real one is a few hundred bytes of TOML.
pub const RULESET_LIMIT: u64 = 1024 * 1024;

/// Reads ruleset files; a relative name is taken relative to `base_dir` (the directory of the
/// competition file, or of a ruleset file named on the command line), and a file is read only
/// when it lies inside `base_dir` or one of the folders [`FileRulesetSource::allowing`] adds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileRulesetSource {
    /// The folder a relative name is taken from, and whose ruleset files may be read.
    pub base_dir: PathBuf,
    /// Further folders whose ruleset files may be read (`--rules-from DIR`).
    pub allowed: Vec<PathBuf>,
}

impl FileRulesetSource {
    /// Reads ruleset files inside `base_dir`, and relative names from it.
    pub fn new(base_dir: impl Into<PathBuf>) -> FileRulesetSource {
        FileRulesetSource {
            base_dir: base_dir.into(),
            allowed: Vec::new(),
        }
    }

    /// Also reads ruleset files inside these folders.
    pub fn allowing(mut self, folders: &[PathBuf]) -> FileRulesetSource {
        self.allowed.extend(folders.iter().cloned());
        self
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

    /// `path` with links and `..` resolved, when it lies inside a folder it may be read from.
    fn inside(&self, name: &str, path: &Path) -> Result<PathBuf, String> {
        let real = match path.canonicalize() {
            Ok(real) => real,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(format!(
                    "it is not a preset ({}) and there is no file {}",
                    preset_names().join(", "),
                    path.display()
                ));
            }
            Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
        };
        let within = std::iter::once(&self.base_dir)
            .chain(&self.allowed)
            .filter_map(|f| folder(f).canonicalize().ok())
            .any(|f| real.starts_with(f));
        if within {
            Ok(real)
        } else {
            let base = folder(&self.base_dir);
            Err(format!(
                "`{name}` is {}, outside the folder {}; a ruleset file is read only from the competition file's folder, so move it there or allow its folder with --rules-from {}",
                real.display(),
                base.canonicalize().as_deref().unwrap_or(base).display(),
                real.parent().unwrap_or(Path::new("/")).display()
            ))
        }
    }
}

/// `f` as a folder to look in: `file.json`'s folder is the empty path, the working directory.
fn folder(f: &Path) -> &Path {
    if f.as_os_str().is_empty() {
        Path::new(".")
    } else {
        f
    }
}

impl RulesetSource for FileRulesetSource {
    fn load(&self, name: &str) -> Result<(String, String), String> {
        let path = self.path_of(name);
        let real = self.inside(name, &path)?;
        let text = read_ruleset(&real)?;
        Ok((path.display().to_string(), text))
    }
}

/// Reads a ruleset file: a regular file of at most [`RULESET_LIMIT`] bytes, in UTF-8.
pub fn read_ruleset(path: &Path) -> Result<String, String> {
    let bytes = read_regular(path, "a ruleset file", RULESET_LIMIT)?;
    String::from_utf8(bytes).map_err(|e| {
        format!(
            "{} is not UTF-8 (byte {}); save it as UTF-8",
            path.display(),
            e.utf8_error().valid_up_to()
        )
    })
}

/// Reads `path` when it is a regular file of at most `limit` bytes. Checked before opening,
/// so a FIFO is never waited on and a device never read, and again on the opened file, in
/// case the path changed in between; the read itself stops after `limit` bytes.
pub fn read_regular(path: &Path, what: &str, limit: u64) -> Result<Vec<u8>, String> {
    let cannot = |e: std::io::Error| format!("cannot read {}: {e}", path.display());
    check_kind_and_size(path, &std::fs::metadata(path).map_err(cannot)?, what, limit)?;
    let file = open_without_waiting(path).map_err(cannot)?;
    check_kind_and_size(path, &file.metadata().map_err(cannot)?, what, limit)?;
    read_at_most(file, path, what, limit)
}

/// Reads at most `limit` bytes of `path`, whatever kind of file it is (a competition file named
/// on the command line may come through a pipe).
pub fn read_limited(path: &Path, what: &str, limit: u64) -> Result<Vec<u8>, String> {
    let file = File::open(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    read_at_most(file, path, what, limit)
}

fn read_at_most(file: File, path: &Path, what: &str, limit: u64) -> Result<Vec<u8>, String> {
    // Sized from the file's length: through `take` the read would start small and double.
    let expected = file.metadata().map_or(0, |m| m.len().min(limit) + 1);
    let mut bytes = Vec::with_capacity(usize::try_from(expected).unwrap_or(0));
    file.take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    if bytes.len() as u64 > limit {
        return Err(format!(
            "{} holds more than {}, the most {what} may hold; check that this is the file you meant",
            path.display(),
            bytes_text(limit)
        ));
    }
    Ok(bytes)
}

fn check_kind_and_size(
    path: &Path,
    meta: &std::fs::Metadata,
    what: &str,
    limit: u64,
) -> Result<(), String> {
    if !meta.is_file() {
        return Err(format!(
            "{} is {}, not a regular file; {what} must be a file on disk",
            path.display(),
            kind_of(meta)
        ));
    }
    if meta.len() > limit {
        return Err(format!(
            "{} is {}, more than {}, the most {what} may hold; check that this is the file you meant",
            path.display(),
            bytes_text(meta.len()),
            bytes_text(limit)
        ));
    }
    Ok(())
}

/// Opens for reading without waiting for a writer, should the path have become a FIFO.
#[cfg(unix)]
fn open_without_waiting(path: &Path) -> std::io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
}

#[cfg(not(unix))]
fn open_without_waiting(path: &Path) -> std::io::Result<File> {
    File::open(path)
}

fn kind_of(meta: &std::fs::Metadata) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let t = meta.file_type();
        if t.is_fifo() {
            return "a FIFO (a named pipe)";
        }
        if t.is_char_device() || t.is_block_device() {
            return "a device";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    if meta.is_dir() {
        "a folder"
    } else {
        "an unusual kind of file"
    }
}

/// `1 MiB (1048576 bytes)`, `2.5 KiB (2560 bytes)`, `12 bytes`.
fn bytes_text(n: u64) -> String {
    let (unit, size) = if n >= 1 << 30 {
        ("GiB", 1u64 << 30)
    } else if n >= 1 << 20 {
        ("MiB", 1 << 20)
    } else if n >= 1 << 10 {
        ("KiB", 1 << 10)
    } else {
        return format!("{n} bytes");
    };
    let whole = n as f64 / size as f64;
    let shown = format!("{whole:.1}");
    let shown = shown.trim_end_matches(".0");
    format!("{shown} {unit} ({n} bytes)")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_are_said_in_binary_units_and_bytes() {
        assert_eq!(bytes_text(12), "12 bytes");
        assert_eq!(bytes_text(RULESET_LIMIT), "1 MiB (1048576 bytes)");
        assert_eq!(bytes_text(2560), "2.5 KiB (2560 bytes)");
    }
}
