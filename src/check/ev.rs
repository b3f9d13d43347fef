//! [`Ev`]: an AG-UI event with the top-level fields the checks read found in one pass, so the
//! rule families look fields up without hashing keys (`serde_json`'s ordered map hashes every
//! key it is asked for).

use serde_json::Value;

use crate::agui::{EventType, Shape};

macro_rules! fields {
    ($($field:ident = $key:literal),* $(,)?) => {
        /// The index of each kept field in [`Ev`]'s array (declaration order).
        #[allow(non_camel_case_types)]
        #[derive(Clone, Copy)]
        enum Slot {
            $($field,)*
            Count,
        }

        /// The top-level keys an [`Ev`] keeps, in slot order.
        const KEYS: [&str; Slot::Count as usize] = [$($key,)*];

        /// An event and its top-level fields. [`Ev::get`] answers exactly as [`Value::get`].
        #[derive(Clone, Copy)]
        pub struct Ev<'a> {
            pub v: &'a Value,
            /// The event's type, when `type` names an AG-UI 1.0 event type.
            pub kind: Option<EventType>,
            f: [Option<&'a Value>; Slot::Count as usize],
        }

        impl<'a> Ev<'a> {
            pub fn of(v: &'a Value) -> Ev<'a> {
                let mut e = Ev { v, kind: None, f: [None; Slot::Count as usize] };
                if let Some(o) = v.as_object() {
                    for (k, x) in o {
                        match k.as_str() {
                            $($key => e.f[Slot::$field as usize] = Some(x),)*
                            _ => {}
                        }
                    }
                }
                e.typed()
            }

            /// The value of top-level key `k` (as `self.v.get(k)`).
            #[inline]
            pub fn get(&self, k: &str) -> Option<&'a Value> {
                match k {
                    $($key => self.f[Slot::$field as usize],)*
                    _ => self.v.get(k),
                }
            }
        }
    };
}

fields! {
    ty = "type",
    message_id = "messageId",
    tool_call_id = "toolCallId",
    subagent_run_id = "subagentRunId",
    raw_event = "rawEvent",
    metadata = "metadata",
    timestamp = "timestamp",
    delta = "delta",
    role = "role",
    name = "name",
    tool_call_name = "toolCallName",
    parent_message_id = "parentMessageId",
    aguify_chunk = "aguifyChunk",
    result = "result",
    outcome = "outcome",
    thread_id = "threadId",
    run_id = "runId",
    input = "input",
    messages = "messages",
    step_name = "stepName",
    content = "content",
    message = "message",
    code = "code",
    description = "description",
    parent_subagent_run_id = "parentSubagentRunId",
    parent_tool_call_id = "parentToolCallId",
}

/// Where an event laid out as a [`Shape`] keeps each of its fields in an [`Ev`]
/// ([`Ev::of_laid_out`]): worked out once per shape.
pub struct ShapeSlots(Box<[Option<u8>]>);

impl ShapeSlots {
    pub fn of(shape: &Shape) -> ShapeSlots {
        let slot = |k: &str| KEYS.iter().position(|x| *x == k).map(|i| i as u8);
        ShapeSlots(shape.fields().iter().map(|k| slot(k)).collect())
    }
}

impl<'a> Ev<'a> {
    /// [`Ev::of`] for an event laid out as the shape of `slots` says (`type`, maybe
    /// `timestamp`, then the shape's fields in order; see [`crate::agui::StrShaped::fits`]):
    /// each value goes to its slot without its key being compared.
    pub fn of_laid_out(v: &'a Value, slots: &ShapeSlots) -> Ev<'a> {
        let mut e = Ev {
            v,
            kind: None,
            f: [None; Slot::Count as usize],
        };
        let Value::Object(m) = v else {
            return Ev::of(v);
        };
        let mut values = m.values();
        e.f[Slot::ty as usize] = values.next();
        match m.len().checked_sub(slots.0.len()) {
            Some(1) => {}
            Some(2) => e.f[Slot::timestamp as usize] = values.next(),
            _ => return Ev::of(v),
        }
        for (slot, x) in slots.0.iter().zip(values) {
            if let Some(i) = slot {
                e.f[*i as usize] = Some(x);
            }
        }
        debug_assert!(
            e.f.iter()
                .zip(Ev::of(v).f.iter())
                .all(|(a, b)| a.map(std::ptr::from_ref) == b.map(std::ptr::from_ref)),
            "not laid out as its slots say: {v}"
        );
        e.typed()
    }

    fn typed(mut self) -> Self {
        self.kind = self.f[Slot::ty as usize]
            .and_then(Value::as_str)
            .and_then(EventType::of);
        self
    }

    /// The string value of top-level key `k`.
    #[inline]
    pub fn s(&self, k: &str) -> Option<&'a str> {
        self.get(k).and_then(Value::as_str)
    }

    /// The event type, or "" when absent or not a string.
    #[inline]
    pub fn t(&self) -> &'a str {
        self.f[Slot::ty as usize]
            .and_then(Value::as_str)
            .unwrap_or("")
    }

    /// `self.v.pointer("/a/b")` for two plain keys.
    #[inline]
    pub fn get2(&self, a: &str, b: &str) -> Option<&'a Value> {
        self.get(a).and_then(|x| x.get(b))
    }
}
