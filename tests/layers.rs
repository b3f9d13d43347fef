//! Issue 36 item 5, no import cycles: the core's lower layers name no higher one. The layers
//! follow the data flow, helpers (utf8, json, js_numbers, recent, error) < payload < wire <
//! model < agui < input < adapter < mapper < sink < pipeline < convert; a module names a
//! layer when one of its files (outside comments and its `#[cfg(test)]` module) has
//! `crate::<layer>` (or `crate::{<layer>, …}`, or `super::<layer>` in a top-level file).
//! Checked here up to agui (the layers above it are for the checks of the input, adapter and
//! pipeline side).

use std::path::{Path, PathBuf};

const ORDER: [&str; 16] = [
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
    "lib",
];

/// The last layer checked (it and all below it name no higher layer).
const CHECKED_UP_TO: &str = "agui";

fn core_src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/aguify-core/src")
}

/// The `.rs` files of top-level module `name` (its file, or its folder's files).
fn files_of(name: &str) -> Vec<PathBuf> {
    let file = core_src().join(format!("{name}.rs"));
    if file.is_file() {
        return vec![file];
    }
    let mut out = vec![];
    let mut dirs = vec![core_src().join(name)];
    while let Some(dir) = dirs.pop() {
        for e in std::fs::read_dir(&dir).expect("a module folder").flatten() {
            let p = e.path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }
    out
}

/// The code of a file: comments cut from each line, and nothing from its `#[cfg(test)]`
/// module on.
fn code_of(text: &str) -> String {
    let mut out = String::new();
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        let is_test_mod = line.trim() == "#[cfg(test)]"
            && lines.peek().is_some_and(|next| next.contains("mod tests"));
        if is_test_mod {
            break;
        }
        out.push_str(line.split("//").next().unwrap_or(""));
        out.push('\n');
    }
    out
}

/// The top-level names `code` reaches through `prefix` (`crate::` or `super::`): `a` of
/// `prefix a::…`, and each first-level name of `prefix {a, b::c, …}`.
fn names_after(code: &str, prefix: &str) -> Vec<String> {
    let ident = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect()
    };
    let mut out = vec![];
    for (at, _) in code.match_indices(prefix) {
        let rest = &code[at + prefix.len()..];
        match rest.strip_prefix('{') {
            Some(group) => {
                let group = &group[..group.find('}').unwrap_or(group.len())];
                out.extend(group.split(',').map(|n| ident(n.trim())));
            }
            None => out.push(ident(rest)),
        }
    }
    out.retain(|n| !n.is_empty());
    out
}

#[test]
fn lower_layers_name_no_higher_one() {
    let last = ORDER
        .iter()
        .position(|l| *l == CHECKED_UP_TO)
        .expect("a layer");
    let mut wrong = vec![];
    for (i, layer) in ORDER.iter().enumerate().take(last + 1) {
        let files = files_of(layer);
        assert!(!files.is_empty(), "no files for layer {layer}");
        for file in files {
            let text = std::fs::read_to_string(&file).expect("a source file");
            let code = code_of(&text);
            let mut named = names_after(&code, "crate::");
            if file.parent() == Some(core_src().as_path()) {
                named.extend(names_after(&code, "super::"));
            }
            for name in named {
                if ORDER[i + 1..].contains(&name.as_str()) {
                    wrong.push(format!("{} names {name}", file.display()));
                }
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "lower layers naming higher ones:\n{}",
        wrong.join("\n")
    );
}

/// The check sees each form of naming a layer, and not one in a comment or a test module.
#[test]
fn names_are_found_in_each_form() {
    let code = code_of(
        "use crate::wire::langchain as lc;\nuse crate::{json::Field, model};\n\
         let x = crate::agui::Item::default(); // crate::mapper\n\
         #[cfg(test)]\nmod tests {\n    use crate::convert;\n}\n",
    );
    assert_eq!(
        names_after(&code, "crate::"),
        ["wire", "json", "model", "agui"]
    );
}
