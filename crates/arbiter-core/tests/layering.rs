//! The workspace's layering, checked on its own source (ARCHITECTURE.md, "Invariants"): core does
//! no I/O, core's model, criteria and calendar import nothing else from core, core's foundation
//! areas (`record`, `rules`) import no area above them, the web's lower
//! areas import no area of pages, and in every crate no module reaches back to one that reaches
//! it, directly or round a circle. A module is a file (`mod.rs` names its folder); what a
//! module's tests use does not count. The check lives here, with the crate every other one
//! depends on, so one test walks them all.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

type Graph = BTreeMap<String, BTreeSet<String>>;

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// `a/b.rs` is `a::b`, `a/mod.rs` is `a`, `lib.rs` and `main.rs` are the crate itself ("").
fn module_of(src: &Path, path: &Path) -> String {
    let mut parts: Vec<String> = path
        .strip_prefix(src)
        .unwrap()
        .with_extension("")
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if parts
        .last()
        .is_some_and(|p| p == "mod" || p == "lib" || p == "main")
    {
        parts.pop();
    }
    parts.join("::")
}

/// Each module of the crate at `crate_dir` with the modules its code names by `crate::` path.
/// A child naming its own parent (`crate::http::error` from `http::guard`) is not counted:
/// the parent only declares its children.
fn imports(crate_dir: &Path) -> Graph {
    let src = crate_dir.join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let modules: BTreeMap<String, PathBuf> = files
        .iter()
        .filter(|p| p.file_name().is_some_and(|f| f != "tests.rs"))
        .map(|p| (module_of(&src, p), p.clone()))
        .collect();
    let mut graph = Graph::new();
    for (module, path) in &modules {
        let text = std::fs::read_to_string(path).unwrap();
        // An inline test module comes last (clippy's items_after_test_module): cut it off.
        let code = text
            .find("#[cfg(test)]\nmod tests {")
            .map_or(text.as_str(), |at| &text[..at]);
        let named = graph.entry(module.clone()).or_default();
        for path in crate_paths(code) {
            let segments: Vec<&str> = path.split("::").filter(|s| !s.is_empty()).collect();
            // The longest prefix that is a module: `crate::http::error::WebError` names
            // `http::error`.
            let target = (1..=segments.len())
                .rev()
                .map(|n| segments[..n].join("::"))
                .find(|m| modules.contains_key(m));
            if let Some(target) = target {
                let own_parent = module.starts_with(&format!("{target}::"));
                if target != *module && !own_parent {
                    named.insert(target);
                }
            }
        }
    }
    graph
}

/// Every path `code` names from `crate::`, a group's items each on its own:
/// `crate::{record::model::Team, rules::ruleset}` names `record::model::Team` and
/// `rules::ruleset`. A nested group keeps only its prefix, which is the module.
fn crate_paths(code: &str) -> Vec<String> {
    let is_path = |c: &char| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '_' || *c == ':';
    let mut paths = Vec::new();
    for (at, _) in code.match_indices("crate::") {
        let rest = &code[at + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let mut depth = 0;
            let mut item = String::new();
            for c in group.chars() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => paths.push(std::mem::take(&mut item)),
                    c if depth == 0 && is_path(&c) => item.push(c),
                    c if depth == 0 && !c.is_whitespace() => item.push(' '),
                    _ => {}
                }
            }
            paths.push(item);
        } else {
            paths.push(rest.chars().take_while(is_path).collect());
        }
    }
    // `Team as T` and the like: the path is what comes before the first space.
    paths
        .into_iter()
        .map(|p| p.trim().split(' ').next().unwrap_or("").to_string())
        .filter(|p| !p.is_empty())
        .collect()
}

fn crate_dir(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(name)
}

/// Depth-first, with the path so far: a module met again on its own path closes a circle.
fn circles(graph: &Graph) -> Vec<String> {
    fn visit<'g>(
        graph: &'g Graph,
        module: &'g str,
        path: &mut Vec<&'g str>,
        done: &mut BTreeSet<&'g str>,
        found: &mut Vec<String>,
    ) {
        if let Some(at) = path.iter().position(|m| *m == module) {
            found.push(format!("{} -> {module}", path[at..].join(" -> ")));
            return;
        }
        if !done.insert(module) {
            return;
        }
        path.push(module);
        for next in graph.get(module).into_iter().flatten() {
            visit(graph, next, path, done, found);
        }
        path.pop();
    }
    let mut done = BTreeSet::new();
    let mut found = Vec::new();
    for module in graph.keys() {
        visit(graph, module, &mut Vec::new(), &mut done, &mut found);
    }
    found
}

#[test]
fn the_model_the_criteria_and_the_calendar_import_nothing_else_from_core() {
    let graph = imports(&crate_dir("arbiter-core"));
    for leaf in ["record::model", "rules::criteria", "record::calendar"] {
        let named = graph
            .get(leaf)
            .unwrap_or_else(|| panic!("no module {leaf}"));
        assert!(named.is_empty(), "{leaf} imports {named:?}");
    }
}

#[test]
fn no_module_of_any_crate_reaches_back_to_one_that_reaches_it() {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut checked = Vec::new();
    for entry in std::fs::read_dir(&crates).unwrap() {
        let dir = entry.unwrap().path();
        if !dir.join("src").is_dir() {
            continue;
        }
        let graph = imports(&dir);
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        let found = circles(&graph);
        assert!(found.is_empty(), "circles in {name}: {found:#?}");
        checked.push((name, graph.len()));
    }
    // The walk found the crates and their modules (a wrong path would check nothing).
    let modules = |name: &str| checked.iter().find(|(n, _)| n == name).map(|(_, m)| *m);
    assert!(
        modules("arbiter-core").is_some_and(|m| m > 10),
        "{checked:?}"
    );
    assert!(
        modules("arbiter-web").is_some_and(|m| m > 20),
        "{checked:?}"
    );
}

/// Core is laid out by area (ARCHITECTURE.md): every module lives in an area's folder, and the
/// two lowest areas import nothing above them: `record` nothing outside itself, `rules` only
/// `record` and itself.
#[test]
fn core_is_laid_out_by_area_and_its_foundation_imports_nothing_above_it() {
    let graph = imports(&crate_dir("arbiter-core"));
    let areas = [
        "record",
        "rules",
        "scoring",
        "teams",
        "season",
        "event",
        "season_end",
        "rating",
        "pairing",
    ];
    let area = |m: &str| m.split("::").next().unwrap_or("").to_string();
    for module in graph
        .keys()
        .filter(|m| !m.is_empty() && m.as_str() != "testing")
    {
        assert!(
            areas.contains(&area(module).as_str()),
            "core's module {module} is in no area; put it in the folder of its area"
        );
    }
    for area_name in areas {
        assert!(
            graph.contains_key(area_name),
            "no area {area_name} in arbiter-core/src"
        );
    }
    let below = |module: &str| -> &[&str] {
        match area(module).as_str() {
            "record" => &["record"],
            "rules" => &["record", "rules"],
            _ => &[],
        }
    };
    for (module, named) in &graph {
        let allowed = below(module);
        if allowed.is_empty() {
            continue;
        }
        let above: Vec<_> = named
            .iter()
            .filter(|n| !allowed.contains(&area(n).as_str()))
            .collect();
        assert!(
            above.is_empty(),
            "{module} imports {above:?}, an area above it"
        );
    }
}

#[test]
fn a_group_import_names_each_of_its_modules() {
    let code = "use crate::{record::model::{Team, TeamId}, rules::ruleset::Ruleset as R, scoring};";
    assert_eq!(
        crate_paths(code),
        vec!["record::model::", "rules::ruleset::", "scoring"]
    );
}

#[test]
fn a_circle_is_found() {
    let graph: Graph = [
        ("a", vec!["b"]),
        ("b", vec!["c"]),
        ("c", vec!["a"]),
        ("d", vec![]),
    ]
    .into_iter()
    .map(|(m, named)| (m.to_string(), named.into_iter().map(String::from).collect()))
    .collect();
    assert_eq!(circles(&graph), vec!["a -> b -> c -> a".to_string()]);
}

#[test]
fn the_web_crate_is_laid_out_by_area() {
    let graph = imports(&crate_dir("arbiter-web"));
    for area in [
        "app", "http", "ui", "public", "api", "results", "accounts", "people", "history",
    ] {
        assert!(
            graph.contains_key(area),
            "no area {area} in arbiter-web/src"
        );
    }
    // The shared vocabulary is a leaf: it imports nothing outside `ui`.
    for (module, named) in graph.iter().filter(|(m, _)| m.starts_with("ui")) {
        let outside: Vec<_> = named.iter().filter(|n| !n.starts_with("ui")).collect();
        assert!(outside.is_empty(), "{module} imports {outside:?}");
    }
    // The lower areas (`ui`, `http`, `app`) import no area of pages; `http::guard` reads the
    // `routes` table, which is the crate's own, not an area.
    let area = |m: &str| m.split("::").next().unwrap_or("").to_string();
    let lower = ["ui", "http", "app"];
    for (module, named) in graph
        .iter()
        .filter(|(m, _)| lower.contains(&area(m).as_str()))
    {
        let higher: Vec<_> = named
            .iter()
            .filter(|n| !lower.contains(&area(n).as_str()) && n.as_str() != "routes")
            .collect();
        assert!(higher.is_empty(), "{module} imports {higher:?}");
    }
}

/// Core does no I/O: no crate that does it among its dependencies, and no file, network,
/// environment, process, thread, clock, printing or async in its code (tests aside).
#[test]
fn core_does_no_io() {
    let dir = crate_dir("arbiter-core");
    let manifest = std::fs::read_to_string(dir.join("Cargo.toml")).unwrap();
    let dependencies = manifest
        .split("[dependencies]")
        .nth(1)
        .and_then(|rest| rest.split("\n[").next())
        .unwrap();
    let allowed = [
        "serde",
        "toml",
        "thiserror",
        "jiff",
        "skillratings",
        "shakmaty",
        "pgn-reader",
        // Pure tables of Unicode decompositions: a slug's letters transliterated (issue 34).
        "unicode-normalization",
    ];
    let names: Vec<&str> = dependencies
        .lines()
        .filter_map(|l| l.split(['.', '=', ' ']).next())
        .filter(|n| !n.is_empty())
        .collect();
    assert!(names.len() >= allowed.len(), "{names:?}");
    for name in &names {
        assert!(allowed.contains(name), "arbiter-core depends on {name}");
    }
    let src = dir.join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    assert!(files.len() > 20, "{files:?}");
    let forbidden = [
        "std::fs",
        "std::net",
        "std::env",
        "std::process",
        "std::thread",
        "std::io",
        "SystemTime",
        "Instant",
        "::now(",
        "println!",
        "print!(",
        "async ",
        ".await",
    ];
    for path in files
        .iter()
        .filter(|p| p.file_name().is_some_and(|f| f != "tests.rs"))
    {
        let text = std::fs::read_to_string(path).unwrap();
        let code = text
            .find("#[cfg(test)]\nmod tests {")
            .map_or(text.as_str(), |at| &text[..at]);
        for (n, line) in code.lines().enumerate() {
            let line = line.split("//").next().unwrap_or("");
            for word in forbidden {
                assert!(
                    !line.contains(word),
                    "{}:{}: core does no I/O, but names `{word}`: {line}",
                    path.display(),
                    n + 1
                );
            }
        }
    }
}
