//! A record's JSON text, either its own or a stretch of the batch buffer it was read into.
//!
//! Batched NDJSON lines ([`super::parallel`]) are read once into one buffer per batch; their
//! records point into that buffer instead of each copying its line into an allocation of its
//! own (a copy, a malloc and a free per line). The buffer lives until the last record that
//! points into it is dropped.

use std::ops::{Deref, Range};
use std::sync::Arc;

/// The text of a [`super::Record`]; derefs to `&str`.
#[derive(Clone)]
pub struct RecordText(Repr);

#[derive(Clone)]
enum Repr {
    Own(Box<str>),
    /// `buf[start..end]`, always on char boundaries (made only by [`RecordText::shared`]).
    Shared {
        buf: Arc<String>,
        start: usize,
        end: usize,
    },
}

impl RecordText {
    /// The part `range` of a shared buffer; `None` when `range` is not a `str` slice of it.
    pub fn shared(buf: &Arc<String>, range: Range<usize>) -> Option<Self> {
        buf.get(range.clone())?;
        Some(RecordText(Repr::Shared {
            buf: Arc::clone(buf),
            start: range.start,
            end: range.end,
        }))
    }

    /// The length of the buffer this text is part of (its own length when it has its own).
    pub fn buffer_len(&self) -> usize {
        match &self.0 {
            Repr::Own(s) => s.len(),
            Repr::Shared { buf, .. } => buf.len(),
        }
    }

    pub fn as_str(&self) -> &str {
        match &self.0 {
            Repr::Own(s) => s,
            // Checked to be a str slice when made: never empty by mistake.
            Repr::Shared { buf, start, end } => buf.get(*start..*end).unwrap_or_default(),
        }
    }
}

impl Deref for RecordText {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl std::fmt::Debug for RecordText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(self.as_str(), f)
    }
}

impl PartialEq for RecordText {
    fn eq(&self, other: &Self) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Eq for RecordText {}

impl From<&str> for RecordText {
    fn from(s: &str) -> Self {
        RecordText(Repr::Own(s.into()))
    }
}

impl From<String> for RecordText {
    fn from(s: String) -> Self {
        RecordText(Repr::Own(s.into_boxed_str()))
    }
}

impl From<Box<str>> for RecordText {
    fn from(s: Box<str>) -> Self {
        RecordText(Repr::Own(s))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shared_text_is_its_range() {
        let buf = Arc::new("{\"a\":1}{\"é\":2}".to_string());
        let t = RecordText::shared(&buf, 7..15).expect("a str slice");
        assert_eq!(&*t, "{\"é\":2}");
        assert_eq!(t, RecordText::from("{\"é\":2}"));
        // Inside the two bytes of é: not a str slice.
        assert!(RecordText::shared(&buf, 7..10).is_none());
        assert!(RecordText::shared(&buf, 7..99).is_none());
    }
}
