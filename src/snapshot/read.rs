//! Reads a snapshot ([`super`]) back into runs, each value with its snapshot line.

use std::io::BufRead;
use std::sync::Arc;

use serde_json::Value;

use crate::error::Error;
use crate::input::Origin;
use crate::leaf::{Item, Leaf, Run};

/// Reads the snapshot `reader` (named `file`, its first line the header: [`super::HEADER`]),
/// handing each run and each unreadable line to `out` in order. Runs are numbered on from
/// `runs` (a side of a diff may be several snapshots).
pub fn read(
    file: &Arc<str>,
    reader: impl BufRead,
    runs: &mut usize,
    out: &mut dyn FnMut(Item) -> std::io::Result<()>,
) -> Result<(), Error> {
    let mut run: Option<Run> = None;
    for (number, line) in (1..).zip(reader.lines()) {
        let line = line.map_err(Error::input(file))?;
        let origin = Origin {
            file: file.clone(),
            line: number,
        };
        let text = line.trim_end_matches('\r');
        // A blank line, or a comment (the header is one).
        if text.trim().is_empty() || text.starts_with('#') {
            continue;
        }
        let message = match text.strip_prefix("run ").map(|n| n.trim().parse::<usize>()) {
            Some(Ok(_)) => {
                *runs += 1;
                let next = Run {
                    index: *runs,
                    origin,
                    leaves: Vec::new(),
                };
                if let Some(done) = run.replace(next) {
                    out(Item::Run(done)).map_err(Error::Output)?;
                }
                continue;
            }
            Some(Err(_)) => "expected `run N` with N a number".to_string(),
            None => match (leaf_of(text, &origin), run.as_mut()) {
                (Ok(leaf), Some(r)) => {
                    r.leaves.push(leaf);
                    continue;
                }
                (Ok(_), None) => "a value before the first `run N` line".to_string(),
                (Err(message), _) => message,
            },
        };
        out(Item::Bad { origin, message }).map_err(Error::Output)?;
    }
    if let Some(done) = run {
        out(Item::Run(done)).map_err(Error::Output)?;
    }
    Ok(())
}

/// `POINTER VALUE` (the pointer plain or a JSON string).
fn leaf_of(text: &str, origin: &Origin) -> Result<Leaf, String> {
    let expected = || "expected a JSON pointer, a space and a JSON value".to_string();
    let (pointer, rest) = if text.starts_with('"') {
        let mut it = serde_json::Deserializer::from_str(text).into_iter::<String>();
        let p = match it.next() {
            Some(Ok(p)) => p,
            _ => return Err(expected()),
        };
        (p, &text[it.byte_offset()..])
    } else {
        let (p, rest) = text.split_once(' ').ok_or_else(expected)?;
        (p.to_string(), rest)
    };
    if !pointer.starts_with('/') {
        return Err(expected());
    }
    let value: Value = serde_json::from_str(rest.trim_start_matches(' '))
        .map_err(|e| format!("{}: {e}", expected()))?;
    Ok(Leaf::new(pointer, value, origin.clone()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn reads_what_write_wrote() {
        let file: Arc<str> = Arc::from("a.snap");
        let at = |line| Origin {
            file: file.clone(),
            line,
        };
        let leaves = vec![
            Leaf::new("/outcome".into(), json!("success"), at(0)),
            Leaf::new("/state/a b".into(), json!([]), at(0)),
            Leaf::new("/state/a b/0".into(), json!("x \"y\"\nz"), at(0)),
        ];
        let mut text = Vec::new();
        crate::snapshot::write::header(&mut text).unwrap();
        let run = Run {
            index: 1,
            origin: at(0),
            leaves,
        };
        crate::snapshot::write::run(&run, &mut text).unwrap();
        text.extend_from_slice(b"bogus line\n");
        let mut items = Vec::new();
        read(&file, &text[..], &mut 0, &mut |i| {
            items.push(i);
            Ok(())
        })
        .unwrap();
        let [Item::Bad { origin, .. }, Item::Run(r)] = &items[..] else {
            panic!("{items:?}")
        };
        assert_eq!(origin.line, 7);
        let got: Vec<(&str, &Value, u64)> = r
            .leaves
            .iter()
            .map(|l| (l.pointer.as_str(), &l.value, l.origin.line))
            .collect();
        assert_eq!(
            got,
            [
                ("/outcome", &json!("success"), 4),
                ("/state/a b", &json!([]), 5),
                ("/state/a b/0", &json!("x \"y\"\nz"), 6),
            ]
        );
    }
}
