//! The layers of the code (issue 36 item 5, no import cycles): the core's top-level modules
//! follow the data flow, a lower one never naming a higher one ([`CORE`]), and the aguify
//! package's have no two-module cycle (a module naming another that names it). A module names
//! another when one of its files has `crate::B…` (also in a `crate::{B, …}` group, or, in a
//! top-level file, `super::B`) outside comments and its `#[cfg(test)] mod tests`; each finding
//! comes with the `file:line` that names.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

/// For each top-level module, each module it names and the first `file:line` naming it.
type Edges = BTreeMap<String, BTreeMap<String, String>>;

/// The `.rs` files under `dir`, `skip` (another crate's folder) left out.
fn sources(dir: &Path, skip: Option<&Path>, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() && Some(path.as_path()) != skip {
            sources(&path, skip, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The identifiers that follow `prefix` in `code` (`prefix` not inside a longer word when
/// `word` is set).
fn named<'a>(code: &'a str, prefix: &str, word: bool) -> Vec<&'a str> {
    let mut names = vec![];
    for (at, _) in code.match_indices(prefix) {
        let before = code[..at].chars().next_back();
        if word && before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        let rest = &code[at + prefix.len()..];
        let end = rest
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        names.push(&rest[..end]);
    }
    names
}

/// The modules a `crate::{a, b::c, …}` group opening on `lines[0]` names (it may go on over
/// the next lines): the first name of each item at the group's top level.
fn grouped<'a>(lines: &[&'a str]) -> Vec<&'a str> {
    let (mut names, mut depth, mut item_start) = (vec![], 0, false);
    for line in lines {
        let code = line.split("//").next().unwrap_or("");
        let code = match code.find("crate::{").filter(|_| depth == 0) {
            Some(at) => &code[at + "crate::".len()..],
            None => code,
        };
        for (at, c) in code.char_indices() {
            match c {
                '{' => {
                    depth += 1;
                    item_start = depth == 1;
                }
                '}' if depth == 1 => return names,
                '}' => depth -= 1,
                ',' if depth == 1 => item_start = true,
                c if item_start && (c.is_alphanumeric() || c == '_') => {
                    let rest = &code[at..];
                    let end = rest.find(|c: char| !(c.is_alphanumeric() || c == '_'));
                    names.push(&rest[..end.unwrap_or(rest.len())]);
                    item_start = false;
                }
                _ => {}
            }
        }
    }
    names
}

/// What each top-level module of the crate at `root` (under `dir`) names of the others.
fn edges(dir: &Path, root: &str, skip: Option<&Path>) -> Edges {
    let (mut files, mut edges) = (vec![], Edges::new());
    sources(&dir.join(root), skip, &mut files);
    for file in files {
        let rel = file.strip_prefix(dir.join(root)).unwrap();
        let top = rel.iter().next().unwrap().to_string_lossy();
        let top = top.trim_end_matches(".rs");
        let text = fs::read_to_string(&file).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            let next = lines.get(i + 1).map_or("", |l| l.trim());
            if line.trim() == "#[cfg(test)]" && next.starts_with("mod tests") {
                break;
            }
            let code = line.split("//").next().unwrap_or("");
            let mut names = named(code, "crate::", false);
            if code.contains("crate::{") {
                names.extend(grouped(&lines[i..]));
            }
            names.extend(named(code, "super::super::", false));
            if rel.components().count() == 1 {
                names.extend(named(code, "super::", true));
            }
            let at = || format!("{}:{}", file.strip_prefix(dir).unwrap().display(), i + 1);
            let named: &mut BTreeMap<_, _> = edges.entry(top.to_string()).or_default();
            for name in names.into_iter().filter(|n| *n != top && !n.is_empty()) {
                named.entry(name.to_string()).or_insert_with(at);
            }
        }
    }
    edges.retain(|module, _| !["lib", "main", "mod"].contains(&module.as_str()));
    edges
}

/// The core's layers, lowest first: a module names only those before it.
const CORE: [&str; 15] = [
    "utf8",
    "json",
    "js_numbers",
    "recent",
    "error",
    "payload",
    "wire",
    "model",
    "agui",
    "input",
    "adapter",
    "mapper",
    "sink",
    "pipeline",
    "convert",
];

#[test]
fn the_core_s_lower_layers_name_no_higher_one() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut wrong = vec![];
    for (a, names) in edges(dir, "crates/aguify-core/src", None) {
        let Some(layer) = CORE.iter().position(|l| *l == a) else {
            wrong.push(format!(
                "{a}: a top-level module not in CORE (add it at its layer)"
            ));
            continue;
        };
        for (b, at) in names
            .iter()
            .filter(|(b, _)| CORE[layer + 1..].contains(&b.as_str()))
        {
            wrong.push(format!("{at}: {a} names {b}, a higher layer"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn the_aguify_package_has_no_two_module_cycles() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let crates = [
        edges(dir, "src", Some(&dir.join("src/bin"))),
        edges(dir, "src/bin/aguify", None),
    ];
    let mut cycles = vec![];
    for edges in &crates {
        for (a, names) in edges {
            for (b, at) in names.iter().filter(|(b, _)| a < *b) {
                if let Some(back) = edges.get(b).and_then(|names| names.get(a)) {
                    cycles.push(format!("{a} ↔ {b}: {at} names {b}; {back} names {a}"));
                }
            }
        }
    }
    assert!(
        cycles.is_empty(),
        "two-module cycles:\n{}",
        cycles.join("\n")
    );
}

/// Each form of naming a module is seen, and none in a comment or a test module.
#[test]
fn names_are_found_in_each_form() {
    let dir = std::env::temp_dir().join(format!("aguify-layers-{}", std::process::id()));
    fs::create_dir_all(dir.join("src/a")).unwrap();
    let code = "use crate::wire::langchain as lc;\nuse crate::{json::Field, model};\n\
        use crate::{\n    sink::Sink,\n    utf8,\n};\n\
        let x = crate::agui::Item::default(); // crate::mapper\n\
        #[cfg(test)]\nmod tests {\n    use crate::convert;\n}\n";
    fs::write(dir.join("src/a/mod.rs"), code).unwrap();
    fs::write(dir.join("src/b.rs"), "use super::c;\n").unwrap();
    let found = edges(&dir, "src", None);
    fs::remove_dir_all(&dir).unwrap();
    let names = |m: &str| found[m].keys().cloned().collect::<Vec<_>>();
    assert_eq!(
        names("a"),
        ["agui", "json", "model", "sink", "utf8", "wire"]
    );
    assert_eq!(names("b"), ["c"]);
    assert_eq!(found["a"]["sink"], "src/a/mod.rs:3");
}
