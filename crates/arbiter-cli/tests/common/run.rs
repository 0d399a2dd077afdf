//! Running `arbiter` from a test: the repository's root as its folder, its arguments written as
//! one command line (`words("standings x.json --format json")`, and `cmd("import {} --db {}",
//! &[file, db])` for the values a test works out, each `{}` taking the next of them in order),
//! its mail kept in a folder, and a fresh folder for a league database.
#![allow(dead_code)] // each test binary takes what it uses

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The repository's root, where `examples/` is.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// `arbiter` with `args`, run in [`root`].
pub fn arbiter(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(args)
        .current_dir(root())
        .output()
        .expect("the arbiter binary runs")
}

/// `arbiter` with `args`, writing its mail to the folder `mail` (no SMTP server).
pub fn arbiter_mailing(args: &[&str], mail: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(args)
        .current_dir(root())
        .env_remove("ARBITER_SMTP_URL")
        .env("ARBITER_MAIL_DIR", mail)
        .output()
        .expect("the arbiter binary runs")
}

/// What `arbiter` with `args` prints, failing (with what it said) unless it succeeds.
pub fn ok_stdout(args: &[&str]) -> String {
    succeeded(args, arbiter(args))
}

/// [`ok_stdout`] with its mail in the folder `mail`.
pub fn ok_mailing(args: &[&str], mail: &Path) -> String {
    succeeded(args, arbiter_mailing(args, mail))
}

fn succeeded(args: &[&str], out: Output) -> String {
    assert!(
        out.status.success(),
        "arbiter {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// A fresh temp folder named for the test (emptied if a run before left it) and the path of a
/// league database in it.
pub fn scratch(name: &str) -> (PathBuf, String) {
    let dir = std::env::temp_dir().join(format!("{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("league.db").to_str().unwrap().to_string();
    (dir, db)
}

/// The words of `line`, split at white space.
pub fn words(line: &str) -> Vec<&str> {
    line.split_whitespace().collect()
}

/// The words of `line`, each `{}` replaced by the next of `values`; all of them are used.
pub fn cmd<'a>(line: &'a str, values: &[&'a str]) -> Vec<&'a str> {
    let mut values = values.iter();
    let args = line
        .split_whitespace()
        .map(|w| {
            if w == "{}" {
                values
                    .next()
                    .unwrap_or_else(|| panic!("more {{}} than values in {line:?}"))
            } else {
                w
            }
        })
        .collect();
    assert!(values.next().is_none(), "more values than {{}} in {line:?}");
    args
}
