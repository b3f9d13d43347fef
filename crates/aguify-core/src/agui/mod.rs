//! The AG-UI 1.0 vocabulary: [`EventType`] (the 31 type names, for reading any stream) and
//! [`Event`] (the events aguify writes, typed, serialized by serde derive).

mod event;
mod message;

pub use event::*;
pub use message::*;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn event_types_are_the_list() {
        let name = |t: &str| EventType::of(t).map(EventType::as_str);
        for t in EVENT_TYPES {
            assert_eq!(name(t), Some(t));
        }
        for t in [
            "",
            "THINKING_START",
            "text_message_start",
            "RUN_STARTED ",
            "RAW2",
        ] {
            assert_eq!(name(t), None);
        }
    }
}
