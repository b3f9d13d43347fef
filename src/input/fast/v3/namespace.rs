//! A v3 event's namespace, shared. Consecutive events of a subgraph name the same namespace
//! (four lines in five of a LangGraph.js log), so a parse thread hands out the list it read
//! last again when a line's text of it is the same: no list and no part allocated, copied and
//! freed again per line.

use std::cell::RefCell;
use std::sync::Arc;

/// A namespace's parts.
pub type Namespace = Arc<[String]>;

thread_local! {
    /// The last namespace read on this thread, with its list's text.
    static LAST: RefCell<Option<(Box<str>, Namespace)>> = const { RefCell::new(None) };
}

/// The namespace read last and the length of its list's text, when `text` is that text
/// (`whole`) or starts with it: a list's text ends where it closes, so the same text is the
/// same list.
pub(super) fn again(text: &str, whole: bool) -> Option<(Namespace, usize)> {
    LAST.with_borrow(|last| {
        let (seen, ns) = last.as_ref()?;
        let same = if whole {
            text == &**seen
        } else {
            text.starts_with(&**seen)
        };
        same.then(|| (Arc::clone(ns), seen.len()))
    })
}

/// `parts`, read from the list's `text`, now the namespace read last.
pub(super) fn read(text: &str, parts: Vec<String>) -> Namespace {
    let ns: Namespace = parts.into();
    LAST.with_borrow_mut(|last| *last = Some((text.into(), Arc::clone(&ns))));
    ns
}

/// No namespace remembered (for comparing the readers: [`super::hand_reader_agrees`]).
pub(super) fn forget() {
    LAST.with_borrow_mut(|last| *last = None);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_text_is_the_same_list() {
        let a = read(r#"["chat:1"]"#, vec!["chat:1".into()]);
        let (b, len) = again(r#"["chat:1"],"timestamp":1"#, false).expect("again");
        assert!(Arc::ptr_eq(&a, &b));
        assert_eq!(len, r#"["chat:1"]"#.len());
        assert!(again(r#"["chat:1"]"#, true).is_some());
        assert!(again(r#"["chat:1"] "#, true).is_none());
        assert!(again(r#"["chat:2"]"#, false).is_none());
        assert!(again(r#"["chat:1","x"]"#, false).is_none());
    }
}
