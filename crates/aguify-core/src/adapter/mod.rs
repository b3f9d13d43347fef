//! Adapters: one per input family, each turning records into [`ModelEvent`]s.
//!
//! [`Router`] classifies every record of a file (v2 `astream_events`, v3 protocol event,
//! platform SSE frame / SDK stream part, the recorder's error line, or an AG-UI event), locks
//! the file to the family of its first record, and hands records to that family's adapter.

mod completion;
pub mod content;
mod subagent;
mod tool_error;
mod v2;
mod v3;

use crate::json::Field;
use crate::wire::langchain as lc;
use serde::Deserialize;
use serde_json::Value;

use crate::error::{BadLine, Reason};
use crate::input::{Disposition, Record};
use crate::model::{ErrorInfo, InterruptInfo, ModelEvent, Snapshot, ToolResult, Usage};
use crate::payload::Payload;

pub use v2::V2Adapter;
pub use v3::V3Adapter;
pub use v3::IDLESS_TOOLS_WARNING;

/// The input family a file is in, as chosen by `--from` or detected.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Family {
    /// `astream_events(version="v2")`: `{"event":"on_…",…}`, also inside platform SSE
    /// `events` frames and SDK stream parts.
    V2,
    /// The v3 streaming protocol: `{"type":"event","method":…,"params":…}`.
    V3,
    /// AG-UI events already: passed through as they are.
    Agui,
}

impl Family {
    /// The family in words, as messages name it.
    pub fn name(self) -> &'static str {
        match self {
            Family::V2 => "v2 astream_events",
            Family::V3 => "v3 protocol",
            Family::Agui => "AG-UI",
        }
    }
}

/// What a record is, before any adapter sees it.
#[derive(Debug, Clone, PartialEq)]
pub enum RecordKind<'a> {
    /// A v2 event (`event: on_*`); SSE `events` frames and SDK parts are unwrapped into this.
    V2,
    /// A v3 protocol event (`type: event`, `method`), in any framing.
    V3,
    /// The recorder's error line / the platform's `event: error` payload.
    ErrorLine(ErrorInfo),
    /// Platform `metadata` frame: the run id (and maybe the thread id).
    RunMetadata {
        /// The frame's `run_id`.
        run_id: Option<String>,
        /// The frame's `thread_id`.
        thread_id: Option<String>,
    },
    /// Platform `values` frame: the full state (its data).
    Values(&'a Value),
    /// Platform `custom` frame (writer output): its namespace (`<ns>` of `custom|<ns>`
    /// with `stream_subgraphs`, empty for the root graph's) and data.
    Custom(&'a str, &'a Value),
    /// Platform `messages` frame of the `messages-tuple` mode: its namespace (as
    /// [`RecordKind::Custom`]'s) and data, `[message chunk, metadata]`.
    MessagesTuple(&'a str, &'a Value),
    /// Another platform stream mode (updates, messages, debug…), named.
    OtherStreamMode(String),
    /// An AG-UI event.
    Agui,
    /// Nothing recognisable, or a stream part lacking what it needs: why.
    Unknown(BadLine),
}

impl RecordKind<'_> {
    /// The input family a record of this kind belongs to (`None`: it belongs to none).
    pub fn family(&self) -> Option<Family> {
        match self {
            RecordKind::V2 | RecordKind::RunMetadata { .. } => Some(Family::V2),
            RecordKind::V3 => Some(Family::V3),
            RecordKind::Agui => Some(Family::Agui),
            _ => None,
        }
    }
}

/// The bad-line message of a record [`classify`] reads as none of the forms.
const NO_KNOWN_FORM: &str =
    "a record of no known form: expected a v2 event (`\"event\":\"on_…\"`), \
    a v3 event (`\"type\":\"event\"` with `method`), an SDK stream part \
    (`{\"event\",\"data\"}`), an error line or an AG-UI event (`\"type\":\"RUN_STARTED\"`…)";

/// Classifies a record by its shape (docs/inputs.md).
pub fn classify(rec: &Record) -> RecordKind<'_> {
    if rec.v3.is_some() {
        return RecordKind::V3;
    }
    // A v2 event line (not a stream part): its tree is not needed.
    if rec.sse_event.is_none() && rec.v2.as_ref().is_some_and(|e| e.event.starts_with("on_")) {
        return RecordKind::V2;
    }
    // (A record's v3 event, itself or a stream part's `data`, was read with it.)
    let v = rec.value();
    // A stream part's mode and payload: an SSE frame's name and data, or an SDK part line's
    // `event` and `data`.
    let (mode, data) = match &rec.sse_event {
        Some(ev) => (ev.as_str(), Some(v)),
        None => match v.field_str("event") {
            Some(e) if e.starts_with("on_") => return RecordKind::V2,
            Some(mode) => (mode, v.field("data")),
            None if is_agui(v) => return RecordKind::Agui,
            None => return RecordKind::Unknown(BadLine::new(Reason::NoKnownForm, NO_KNOWN_FORM)),
        },
    };
    let Some(data) = data else {
        let why = "without `data`: expected an SDK stream part {\"event\",\"data\"}";
        return RecordKind::Unknown(format!("`event: {mode}` {why}").into());
    };
    if rec.sse_event.is_some() && is_agui(data) {
        return RecordKind::Agui;
    }
    // `<ns>` of `messages|<ns>` (`stream_subgraphs`), empty for the root graph's.
    let (base, ns) = mode.split_once('|').unwrap_or((mode, ""));
    // `values|<ns>`, `updates|<ns>`…: a subgraph's own stream part, not the graph's state
    // (its `messages|<ns>` tuples are the subgraph's model output: kept).
    let kept = ["events", "custom", "error", "messages"];
    if mode.contains('|') && !kept.contains(&base) {
        return RecordKind::OtherStreamMode(mode.to_string());
    }
    match base {
        "events" if is_v2(data) => RecordKind::V2,
        "events" => RecordKind::Unknown("an `events` part whose data is not a v2 event".into()),
        "error" => RecordKind::ErrorLine(error_info(data)),
        "metadata" => RecordKind::RunMetadata {
            run_id: str_field(data, "run_id"),
            thread_id: str_field(data, "thread_id"),
        },
        "values" => RecordKind::Values(data),
        "custom" => RecordKind::Custom(ns, data),
        "messages" if data.get(0).is_some_and(Value::is_object) => {
            RecordKind::MessagesTuple(ns, data)
        }
        // Named as it came: `messages|<ns>` keeps its namespace.
        _ => RecordKind::OtherStreamMode(mode.to_string()),
    }
}

fn is_v2(v: &Value) -> bool {
    v.field_str("event").is_some_and(|e| e.starts_with("on_"))
}

fn is_agui(v: &Value) -> bool {
    v.field_str("type").is_some_and(|t| {
        !t.is_empty()
            && t.bytes()
                .all(|b| b.is_ascii_uppercase() || b == b'_' || b.is_ascii_digit())
    })
}

/// The error line / platform error payload: `{"error": NAME, "message": MSG, "lc_error_code"?}`;
/// LangGraph.js's v3 event stream sends `{"message": "NAME: MSG"}` (the error as `String(err)`
/// writes it), read as the same name and message.
pub fn error_info(data: &Value) -> ErrorInfo {
    let s = |k: &str| data.field_str(k).map(str::to_string);
    let (name, message) = match (s("error"), s("message")) {
        (None, Some(m)) => match split_error_name(&m) {
            Some((name, msg)) => (Some(name.to_string()), Some(msg.to_string())),
            None => (None, Some(m)),
        },
        (name, message) => (name, message),
    };
    ErrorInfo {
        message: message
            .or_else(|| name.clone())
            .unwrap_or_else(|| "the run failed (the error line carries no message)".into()),
        name,
        lc_code: s("lc_error_code"),
    }
}

/// `NAME: MSG` → (NAME, MSG), when NAME reads as an error class name (an identifier starting
/// with a capital: `Error`, `TypeError`, `GraphRecursionError`, `AbortError`).
fn split_error_name(m: &str) -> Option<(&str, &str)> {
    let (name, msg) = m.split_once(": ")?;
    let ident = name.starts_with(|c: char| c.is_ascii_uppercase())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'$' | b'.'));
    ident.then_some((name, msg))
}

/// Interrupts from `[{id, value, response_schema?}]`, a dumpd `Interrupt(...)` repr list, or a
/// v3 `input.requested` style `{interrupt_id, payload}`.
pub fn interrupts_from(list: &Value) -> Vec<InterruptInfo> {
    let list = list.as_array().into_iter().flatten().map(lc::normalize_cow);
    // An object only (serde would read a list as the struct's fields in order).
    let list = list
        .filter(|i| i.is_object())
        .map(|i| InterruptInfo::deserialize(&*i));
    list.filter_map(Result::ok).collect()
}

/// `1 message`, `2 messages`.
pub fn count(n: usize, what: &str) -> String {
    format!("{n} {what}{}", if n == 1 { "" } else { "s" })
}

/// A string field of `v`, owned.
pub(crate) fn str_field(v: &Value, k: &str) -> Option<String> {
    v.field_str(k).map(str::to_string)
}

/// A value as text: a string as it is, any other value as JSON.
pub fn json_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// A full state (normalized) → model events: its `__interrupt__` entries as an interrupt,
/// the rest as the state.
pub fn state_events(mut snap: Snapshot, out: &mut Vec<ModelEvent>) -> bool {
    let state = match &mut snap {
        Snapshot::Value(v) => v,
        // Its `rest` holds `messages: []`: never empty.
        Snapshot::Encoded(s) => &mut s.rest,
    };
    // The `__interrupt__` entry (the platform appends it to the state of an interrupted
    // run), taken out of the state, as the run's stop when it lists any; `listed`: `None`
    // without the entry, else whether it listed any.
    let ints = state
        .as_object_mut()
        .and_then(|o| o.shift_remove("__interrupt__"));
    let ints = ints.map(|list| interrupts_from(&list));
    let listed = ints.as_ref().map(|i| !i.is_empty());
    out.extend(ints.filter(|i| !i.is_empty()).map(ModelEvent::Interrupt));
    // A state of its interrupts only is no state.
    let keep = (state.as_object()).is_some_and(|o| !(listed.is_some() && o.is_empty()));
    if keep {
        out.push(ModelEvent::State(snap));
    }
    keep || listed == Some(true)
}

/// A tool's result: a `ToolMessage` (its content, id and error status) or any other output
/// (the result itself).
pub(crate) fn tool_end(tool_call_id: String, name: Option<String>, output: &Value) -> ModelEvent {
    let is_msg = lc::message_kind(output) == Some("tool");
    ModelEvent::ToolEnd(ToolResult {
        tool_call_id,
        name,
        content: crate::agui::tool_content(match output.field("content") {
            c if is_msg => c.unwrap_or(&Value::Null),
            _ => output,
        }),
        message_id: str_field(output, "id").filter(|_| is_msg),
        error: is_msg && output.field_str("status") == Some("error"),
    })
}

/// Tool call `tool_call_id` (of the message `parent_message_id`, when known) starts running.
pub(crate) fn tool_start(
    tool_call_id: String,
    name: String,
    args: Option<String>,
    parent_message_id: Option<String>,
) -> ModelEvent {
    ModelEvent::ToolStart {
        tool_call_id,
        name,
        args,
        parent_message_id,
    }
}

/// Message `message_id` starts streaming.
pub(crate) fn message_start(message_id: &str) -> ModelEvent {
    let message_id = message_id.to_string();
    ModelEvent::MessageStart { message_id }
}

/// Message `message_id` ends (with the model call's `usage`, when known).
pub(crate) fn message_end(message_id: String, usage: Option<Usage>) -> ModelEvent {
    ModelEvent::MessageEnd { message_id, usage }
}

/// A tool that raised: its result is the error's text.
pub(crate) fn tool_failed(tool_call_id: String, name: Option<String>, text: String) -> ModelEvent {
    ModelEvent::ToolEnd(ToolResult {
        tool_call_id,
        name,
        content: crate::agui::ToolContent::Text(text),
        message_id: None,
        error: true,
    })
}

/// Custom-event naming shared by all forms: `{name, payload}` → name and payload,
/// anything else → `custom` and the whole value. `name == "agui"` with a typed payload is a
/// native AG-UI event. The data is passed through as text where it was read as text (a v3
/// `custom` event's, an `on_custom_event`'s).
pub fn custom_event(name: Option<&str>, data: Payload) -> ModelEvent {
    // A name given, the data is read no further.
    let fields = name
        .is_none()
        .then(|| data.fields())
        .flatten()
        .unwrap_or_default();
    let part = |k: &str| fields.get(k).map(|p| Payload::of_field(p));
    let named = (fields.get("name")).and_then(|n| serde_json::from_str::<String>(n.get()).ok());
    let (name, value) = match (name, named) {
        (Some(n), _) => (n.to_string(), None),
        (None, Some(n)) => (n, part("payload").or_else(|| part("data"))),
        (None, None) => (
            "custom".to_string(),
            part("payload").filter(|_| fields.len() == 1),
        ),
    };
    let value = value.unwrap_or(data);
    if name == "agui" {
        let v = value.to_value();
        if v.field("type").is_some_and(Value::is_string) {
            return ModelEvent::Native(v);
        }
    }
    ModelEvent::Custom { name, value }
}

/// A run starts with `input` (`null` when the log has none): its messages in AG-UI form (a
/// message list, or a bare message), the resume value when it is `Command(resume=…)` (API
/// dict, JS `lg_name`, dumpd repr), and, when it is a state object (not a `Command`, not a
/// bare message), its keys other than `messages`: the state the graph was given.
pub fn run_start(thread_id: Option<String>, run_id: Option<String>, input: &Value) -> ModelEvent {
    let input = lc::normalize_cow(input);
    let message = lc::is_message(&input);
    let messages = match input.field("messages").and_then(Value::as_array) {
        Some(list) => crate::agui::to_agui_messages(list),
        None if message => crate::agui::to_agui_messages(std::slice::from_ref(&*input)),
        None => vec![],
    };
    // Each item dropped as soon as it is a tree: a long message is held once, not twice.
    let messages = messages.into_iter().map(|m| m.to_value()).collect();
    let o = input.as_object();
    let is_command = |o: &&serde_json::Map<String, Value>| {
        o.field("lg_name").is_some_and(|n| n == "Command")
            || o.field("__type__").is_some_and(|n| n == "Command")
            || (o.contains_key("resume")
                && (o.contains_key("goto") || o.contains_key("update") || o.len() == 1))
    };
    let resume = (o.filter(is_command)).and_then(|o| o.field("resume").filter(|r| !r.is_null()));
    let resume = resume.cloned();
    let state = o.filter(|o| !message && resume.is_none() && o.field("lg_name").is_none());
    let state = state.map(|o| {
        let entries = o.iter().filter(|(k, _)| k.as_str() != "messages");
        Value::Object(entries.map(|(k, v)| (k.clone(), v.clone())).collect())
    });
    ModelEvent::RunStart {
        thread_id,
        run_id,
        messages,
        resume,
        state,
    }
}

/// The bad-line message of a record of another form than `--from` asks for.
pub fn wrong_form(forced: Family, found: Family) -> String {
    let a = |f: Family| [if f == Family::Agui { "an " } else { "a " }, f.name()].concat();
    let (forced, found) = (a(forced), a(found));
    format!("expected {forced} record (--from), found {found} record")
}

/// What the adapter of a family does with a file's records.
trait Adapt {
    /// One record of kind `kind` → model events.
    fn feed(&mut self, rec: &Record, kind: &RecordKind, out: &mut Vec<ModelEvent>) -> Disposition;
    /// A warning about the record just fed (it was still converted).
    fn take_warning(&mut self) -> Option<String>;
    /// End of the file: close what the log left open (a run with no terminal is truncated).
    fn finish(&mut self, out: &mut Vec<ModelEvent>);
}

/// Per-file routing: classify, lock the family, delegate.
pub struct Router {
    forced: Option<Family>,
    /// The file's family, from its first record of one, and that family's adapter (none for
    /// AG-UI input, captures of any AG-UI server: events pass through unchanged, so `check`
    /// and `timeline` can read them).
    adapter: Option<(Family, Option<Box<dyn Adapt + Send>>)>,
}

impl Router {
    pub fn new(forced: Option<Family>) -> Self {
        Router {
            forced,
            adapter: None,
        }
    }

    pub fn feed(&mut self, rec: &Record, out: &mut Vec<ModelEvent>) -> Disposition {
        let kind = classify(rec);
        if let RecordKind::Unknown(why) = &kind {
            return Disposition::Bad(why.clone());
        }
        let (_, adapter) = match (&mut self.adapter, kind.family(), self.forced) {
            (Some((locked, _)), Some(f), _) if *locked != f => {
                let why = format!(
                    "mixed forms: this file is {} but this record is {}; skipped",
                    locked.name(),
                    f.name()
                );
                return Disposition::Bad(BadLine::new(Reason::MixedForms, why));
            }
            (Some(a), ..) => a,
            (None, Some(found), Some(forced)) if forced != found => {
                let reason = Reason::NotTheForcedForm { forced, found };
                return Disposition::Bad(BadLine::new(reason, wrong_form(forced, found)));
            }
            // An error line or stream part before any event: the forced or v2 family.
            (None, found, forced) => {
                let f = found.or(forced).unwrap_or(Family::V2);
                let a: Option<Box<dyn Adapt + Send>> = match f {
                    Family::V2 => Some(Box::<V2Adapter>::default()),
                    Family::V3 => Some(Box::<V3Adapter>::default()),
                    Family::Agui => None,
                };
                self.adapter.insert((f, a))
            }
        };
        match adapter {
            Some(a) => a.feed(rec, &kind, out),
            None if kind == RecordKind::Agui => {
                out.push(ModelEvent::Native(rec.value().clone()));
                Disposition::Mapped
            }
            None => Disposition::bad("expected an AG-UI event in an AG-UI capture"),
        }
    }

    /// A warning about the record just fed (it was still converted).
    pub fn take_warning(&mut self) -> Option<String> {
        self.adapter.as_mut()?.1.as_mut()?.take_warning()
    }

    /// End of the file: close what the log left open (a run with no terminal is truncated).
    pub fn finish(&mut self, out: &mut Vec<ModelEvent>) {
        if let Some((_, Some(a))) = &mut self.adapter {
            a.finish(out);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_wrong_form_message_names_both_forms() {
        let m = wrong_form(Family::Agui, Family::V3);
        assert_eq!(
            m,
            "expected an AG-UI record (--from), found a v3 protocol record"
        );
    }

    /// LangGraph.js's v3 event stream writes an error as `String(err)`: the name is read apart
    /// from the message where it reads as a class name; a recorded `error` is kept.
    #[test]
    fn error_names_in_the_message() {
        let info = error_info(&json!({"message": "Error: order service unavailable"}));
        assert_eq!(info.name.as_deref(), Some("Error"));
        assert_eq!(info.message, "order service unavailable");
        let info = error_info(&json!({"message": "GraphRecursionError: Recursion limit: 3"}));
        assert_eq!(info.name.as_deref(), Some("GraphRecursionError"));
        assert_eq!(info.message, "Recursion limit: 3");
        for m in [
            "Recursion limit of 3 reached: stop",
            "note: lower case",
            "No name here",
        ] {
            let info = error_info(&json!({ "message": m }));
            assert_eq!((info.name, info.message.as_str()), (None, m));
        }
        // The name is what tells a caller's abort from a failure.
        let abort = error_info(&json!({"message": "AbortError: This operation was aborted"}));
        assert!(crate::mapper::error_code::is_cancelled(&abort));
        let info = error_info(&json!({"error": "ValueError", "message": "Error: x"}));
        assert_eq!(info.name.as_deref(), Some("ValueError"));
        assert_eq!(info.message, "Error: x");
    }

    /// A stream part no reader takes is named by its whole mode: a subgraph's `messages|<ns>`
    /// part that is not a `[message, metadata]` tuple keeps its namespace.
    #[test]
    fn other_stream_modes_keep_their_namespace() {
        let kind_of = |line: &str| {
            let origin = crate::input::Origin::at(&"t.ndjson".into(), 1);
            let rec = Record::read(origin, 1, None, line.into(), |l| {
                crate::input::parse_json(l, false)
            });
            match classify(&rec.expect("a JSON object")) {
                RecordKind::OtherStreamMode(m) => m,
                other => panic!("{other:?}"),
            }
        };
        let part = r#"{"event": "messages|tools:7", "data": "partial"}"#;
        assert_eq!(kind_of(part), "messages|tools:7");
        assert_eq!(kind_of(r#"{"event": "updates", "data": {}}"#), "updates");
        assert_eq!(
            kind_of(r#"{"event": "updates|a:1", "data": {}}"#),
            "updates|a:1"
        );
    }

    /// The state of `RUN_STARTED.input`: a state input's other keys; nothing for a command
    /// or a bare message.
    #[test]
    fn input_state_is_the_inputs_other_keys() {
        let input_state = |input: &Value| match run_start(None, None, input) {
            ModelEvent::RunStart { state, .. } => state,
            other => panic!("{other:?}"),
        };
        let input =
            json!({"messages": [{"type": "human", "content": "hi"}], "progress": 0.0, "items": []});
        assert_eq!(
            input_state(&input),
            Some(json!({"progress": 0.0, "items": []}))
        );
        assert_eq!(input_state(&json!({"messages": []})), Some(json!({})));
        assert_eq!(input_state(&json!({"resume": {"approved": true}})), None);
        assert_eq!(
            input_state(&json!({"lg_name": "Command", "resume": 1})),
            None
        );
        assert_eq!(
            input_state(&json!({"type": "human", "content": "hi"})),
            None
        );
        assert_eq!(input_state(&json!("hi")), None);
    }
}
