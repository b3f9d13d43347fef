//! A record's JSON text: its own, or a stretch of the buffer its batch of lines was read into
//! ([`super::parallel`]: one buffer per batch instead of an allocation and a copy per line).
//! The buffer lives until the last record that points into it is dropped.

use std::ops::{Deref, Range};
use std::sync::Arc;

/// The text of a [`super::Record`]; derefs to `&str`.
#[derive(Clone)]
pub struct RecordText(Repr);

#[derive(Clone)]
enum Repr {
    Own(Box<str>),
    /// A range of the buffer: a `str` slice of it, or read as empty.
    Shared(Arc<String>, Range<usize>),
}

impl RecordText {
    /// The part `range` of a shared buffer (empty when `range` is not a `str` slice of it:
    /// a batch's spans are, [`super::lines::utf8_spans`]).
    pub fn shared(buf: &Arc<String>, range: Range<usize>) -> Self {
        RecordText(Repr::Shared(Arc::clone(buf), range))
    }

    /// The length of the buffer this text is part of (its own length when it has its own).
    pub fn buffer_len(&self) -> usize {
        match &self.0 {
            Repr::Own(s) => s.len(),
            Repr::Shared(buf, _) => buf.len(),
        }
    }
}

impl Deref for RecordText {
    type Target = str;
    fn deref(&self) -> &str {
        match &self.0 {
            Repr::Own(s) => s,
            Repr::Shared(buf, range) => buf.get(range.clone()).unwrap_or_default(),
        }
    }
}

impl std::fmt::Debug for RecordText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(&**self, f)
    }
}

/// A text of its own (`&str`, `String`, `Cow<str>`).
impl<T: Into<Box<str>>> From<T> for RecordText {
    fn from(s: T) -> Self {
        RecordText(Repr::Own(s.into()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shared_text_is_its_range() {
        let buf = Arc::new("{\"a\":1}{\"é\":2}".to_string());
        let t = RecordText::shared(&buf, 7..15);
        assert_eq!(&*t, "{\"é\":2}");
        // Inside the two bytes of é, or past the end: not a str slice, read as empty.
        assert_eq!(&*RecordText::shared(&buf, 7..10), "");
        assert_eq!(&*RecordText::shared(&buf, 7..99), "");
    }
}
