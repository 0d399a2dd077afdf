//! Core's layering, checked on its own source (ARCHITECTURE.md, "Invariants"): the model and the
//! criteria import nothing else from core, and no module reaches back to one that reaches it,
//! directly or round a circle. A module's tests may use anything.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Each module of core (a folder counts as one module) with the modules its code names.
fn imports() -> BTreeMap<String, BTreeSet<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut files = Vec::new();
    for entry in std::fs::read_dir(&src).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            for inner in std::fs::read_dir(&path).unwrap() {
                files.push(inner.unwrap().path());
            }
        } else {
            files.push(path);
        }
    }
    for path in files {
        let relative = path.strip_prefix(&src).unwrap();
        let module = relative
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_string_lossy()
            .trim_end_matches(".rs")
            .to_string();
        if module == "lib" || relative.file_name().is_some_and(|f| f == "tests.rs") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        // An inline test module comes last (clippy's items_after_test_module): cut it off.
        let code = text
            .find("#[cfg(test)]\nmod tests {")
            .map_or(text.as_str(), |at| &text[..at]);
        let named = graph.entry(module.clone()).or_default();
        for (at, _) in code.match_indices("crate::") {
            let rest = &code[at + "crate::".len()..];
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_lowercase() || *c == '_')
                .collect();
            if !name.is_empty() && name != module {
                named.insert(name);
            }
        }
    }
    graph
}

#[test]
fn the_model_and_the_criteria_import_nothing_else_from_core() {
    let graph = imports();
    for leaf in ["model", "criteria"] {
        let named = graph
            .get(leaf)
            .unwrap_or_else(|| panic!("no module {leaf}"));
        assert!(named.is_empty(), "{leaf} imports {named:?}");
    }
}

#[test]
fn no_module_of_core_reaches_back_to_one_that_reaches_it() {
    let graph = imports();
    // Depth-first, with the path so far: a module met again on its own path closes a circle.
    fn visit<'g>(
        graph: &'g BTreeMap<String, BTreeSet<String>>,
        module: &'g str,
        path: &mut Vec<&'g str>,
        done: &mut BTreeSet<&'g str>,
    ) {
        if let Some(at) = path.iter().position(|m| *m == module) {
            panic!("a circle: {} -> {module}", path[at..].join(" -> "));
        }
        if !done.insert(module) {
            return;
        }
        path.push(module);
        for next in graph.get(module).into_iter().flatten() {
            visit(graph, next, path, done);
        }
        path.pop();
    }
    // A module is marked when first entered; one met again while still on the path closes a
    // circle, one met again after is already explored.
    let mut done = BTreeSet::new();
    for module in graph.keys() {
        visit(&graph, module, &mut Vec::new(), &mut done);
    }
    assert!(graph.contains_key("standings") && graph.contains_key("fide"));
}
