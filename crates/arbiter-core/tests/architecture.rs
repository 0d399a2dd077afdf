//! ARCHITECTURE.md stays one page a newcomer reads in ten minutes: at most 200 lines, none over
//! 200 characters, and every "Architecture Invariant:" names the test that checks it, as
//! "checked by `test_name` in `path`", a test that exists there.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;

const MAX_LINES: usize = 200;
const MAX_CHARS: usize = 200;

fn workspace() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

fn page() -> String {
    std::fs::read_to_string(workspace().join("ARCHITECTURE.md")).unwrap()
}

/// Each paragraph that begins "Architecture Invariant:", joined into one line.
fn invariants(page: &str) -> Vec<String> {
    page.split("\n\n")
        .map(|p| p.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|p| p.starts_with("Architecture Invariant:"))
        .collect()
}

/// The test name and file of "checked by `name` in `path`", if the invariant says them.
fn checked_by(invariant: &str) -> Option<(&str, &str)> {
    let rest = &invariant[invariant.find("checked by `")? + "checked by `".len()..];
    let (name, rest) = rest.split_once('`')?;
    let rest = rest.strip_prefix(" in `")?;
    let (path, _) = rest.split_once('`')?;
    Some((name, path))
}

#[test]
fn the_architecture_page_is_one_page() {
    let page = page();
    let lines = page.lines().count();
    assert!(lines > 20, "ARCHITECTURE.md has only {lines} lines");
    assert!(
        lines <= MAX_LINES,
        "ARCHITECTURE.md has {lines} lines, over {MAX_LINES}"
    );
    for (n, line) in page.lines().enumerate() {
        let chars = line.chars().count();
        assert!(
            chars <= MAX_CHARS,
            "ARCHITECTURE.md:{}: {chars} characters, over {MAX_CHARS}: wrap it or move the detail \
             into the module's `//!` doc",
            n + 1
        );
    }
}

#[test]
fn every_architecture_invariant_names_the_test_that_checks_it() {
    let page = page();
    let found = invariants(&page);
    assert!(found.len() >= 5, "only {} invariants found", found.len());
    for invariant in &found {
        let (name, path) = checked_by(invariant)
            .unwrap_or_else(|| panic!("names no \"checked by `test` in `path`\": {invariant}"));
        let text = std::fs::read_to_string(workspace().join(path))
            .unwrap_or_else(|e| panic!("{path}, named by \"{invariant}\": {e}"));
        assert!(
            text.contains(&format!("fn {name}(")),
            "{path} has no test `{name}`, named by \"{invariant}\""
        );
    }
}

#[test]
fn an_invariant_without_its_test_is_found() {
    let page = "Intro.\n\nArchitecture Invariant: core does no I/O.\n\nArchitecture Invariant: \
                a\nb (checked by `t` in `x.rs`).\n";
    let found = invariants(page);
    assert_eq!(found.len(), 2);
    assert_eq!(checked_by(&found[0]), None);
    assert_eq!(checked_by(&found[1]), Some(("t", "x.rs")));
}
