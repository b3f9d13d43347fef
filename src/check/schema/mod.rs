//! The AG-UI 1.0 event schema (`@ag-ui/core` `EventSchema`), checked per event.
//! Unknown keys are a warning (the client strips them); everything else here fails the schema.

use serde_json::Value;

use crate::agui::{Event, EventType, Message};
use crate::json::Field;
use crate::wire::json_kind;

use super::ev::{Ev, Src};
use fields::{spec, Spec, BASE, K};

mod fields;

/// One schema problem: rule id, and message after the JSON path (dotted, as zod prints it).
#[derive(Debug, Clone, PartialEq)]
pub struct Issue {
    pub rule: &'static str,
    pub message: String,
}

/// A JSON path, rendered (dotted, as zod prints it) only for what is reported.
#[derive(Clone, Copy)]
enum P<'a> {
    Root,
    Key(&'a P<'a>, &'a str),
    Idx(&'a P<'a>, usize),
}

impl P<'_> {
    fn s(self) -> String {
        let (p, k) = match self {
            P::Root => return String::new(),
            P::Key(p, k) => (p.s(), k.to_string()),
            P::Idx(p, i) => (p.s(), i.to_string()),
        };
        if p.is_empty() {
            k
        } else {
            format!("{p}.{k}")
        }
    }
}

/// The issues found so far.
#[derive(Default)]
struct V {
    out: Vec<Issue>,
}

fn snake_to_camel(k: &str) -> Option<String> {
    let (first, rest) = k.split_once('_').filter(|(first, _)| !first.is_empty())?;
    let mut out = first.to_string();
    for word in rest.split('_') {
        let mut c = word.chars();
        out.extend(c.next().into_iter().flat_map(char::to_uppercase).chain(c));
    }
    Some(out)
}

impl V {
    fn push(&mut self, rule: &'static str, path: P<'_>, message: impl Into<String>) {
        let message = match path.s() {
            p if p.is_empty() => message.into(),
            p => format!("{p}: {}", message.into()),
        };
        self.out.push(Issue { rule, message });
    }

    /// AGX204: optional field `name` at `p` is null.
    fn optional_null(&mut self, p: P<'_>, name: &str) {
        let message = format!("`{name}` is optional and must be omitted, not null");
        self.push("AGX204", p, message);
    }

    /// AGX205: field `name` at `p` is not `what` (`a string`).
    fn expected(&mut self, p: P<'_>, name: &str, what: &str, val: &Value) {
        let message = format!("`{name}` must be {what}, found {}", json_kind(val));
        self.push("AGX205", p, message);
    }

    /// Checks an object against a field spec. An event's object has its BaseEvent fields
    /// (`base`) too, and its unknown keys are reported; a nested object's (`base` empty) are
    /// not. Paths are built only for what is reported.
    fn object(&mut self, path: P<'_>, v: &Value, fields: &[(&str, K, bool)], base: Spec) {
        let Some(o) = v.as_object() else {
            let msg = format!("expected an object, found {}", json_kind(v));
            return self.push("AGX205", path, msg);
        };
        let all = || fields.iter().chain(base);
        let mut found = 0;
        for &(name, kind, required) in all() {
            let (p, got) = (P::Key(&path, name), o.field(name));
            found += usize::from(got.is_some());
            match got {
                None if required => {
                    let snake = o
                        .keys()
                        .find(|k| snake_to_camel(k).as_deref() == Some(name));
                    match snake {
                        Some(sk) => {
                            let msg = format!("`{name}` is required; found the snake_case key `{sk}`, which the client strips");
                            self.push("AGX207", p, msg)
                        }
                        None => self.push("AGX203", p, format!("`{name}` is required")),
                    }
                }
                None => {}
                Some(Value::Null) if !matches!(kind, K::Json) && required => {
                    self.push("AGX205", p, format!("`{name}` must not be null"));
                }
                Some(Value::Null) if !matches!(kind, K::Json) => self.optional_null(p, name),
                Some(val) => self.value(path, name, val, kind),
            }
        }
        if base.is_empty() || found == o.len() {
            return;
        }
        // A snake_case key of a required field that is missing is reported as AGX207 above.
        let snake = |c: String| all().any(|(n, _, req)| *n == c && *req) && !o.contains_key(&c);
        let known =
            |k: &String| all().any(|(n, ..)| n == k) || snake_to_camel(k).is_some_and(snake);
        for k in o.keys().filter(|k| !known(k)) {
            let msg = format!("unknown key `{k}` (the client strips it)");
            self.push("AGX211", P::Key(&path, k), msg);
        }
    }

    /// Checks the value of field `name` of the object at `path`.
    fn value(&mut self, path: P<'_>, name: &str, val: &Value, kind: K) {
        let p = P::Key(&path, name);
        match kind {
            K::Str if !val.is_string() => self.expected(p, name, "a string", val),
            K::Bool if !val.is_boolean() => self.expected(p, name, "a boolean", val),
            K::Str | K::Bool | K::Json | K::JsonNonNull => {}
            K::Enum(opts) => match val.as_str() {
                Some(s) if opts.contains(&s) => {}
                _ => {
                    let rule = if name == "role" { "AGX209" } else { "AGX205" };
                    let msg = format!("`{name}` must be one of {}, found {val}", opts.join("|"));
                    self.push(rule, p, msg);
                }
            },
            K::Object if !val.is_object() => self.expected(p, name, "an object", val),
            K::Object => {}
            K::Int => self.int(p, name, val, false),
            K::Count => self.int(p, name, val, true),
            K::Fields(spec) => self.object(p, val, spec, &[]),
            K::List(spec) => self.each(p, name, val, |v, p, item| v.object(p, item, spec, &[])),
            K::Each(check) => self.each(p, name, val, check),
            K::Check(check) => check(self, p, val),
        }
    }

    /// A SUBAGENT_FINISHED `outcome`.
    fn sub_outcome(&mut self, p: P<'_>, val: &Value) {
        match val.field_str("type") {
            Some("success") => {}
            Some("suspended") => self.strings(p, val, "interruptIds"),
            _ => {
                let t = val.field("type").unwrap_or(val);
                let message =
                    format!("unknown subagent outcome {t}: expected success or suspended");
                self.push("AGX208", p, message);
            }
        }
    }

    /// An outcome's optional `key`, a list of ids (AGX208).
    fn strings(&mut self, p: P<'_>, outcome: &Value, key: &str) {
        let Some(ids) = outcome.field(key) else {
            return;
        };
        if !ids
            .as_array()
            .is_some_and(|a| a.iter().all(Value::is_string))
        {
            let message = format!("`{key}` must be an array of strings");
            self.push("AGX208", P::Key(&p, key), message);
        }
    }

    /// Each item of array `val`, field `name` at `p`, checked by `check`; AGX205 when it is
    /// not an array.
    fn each(
        &mut self,
        p: P<'_>,
        name: &str,
        val: &Value,
        mut check: impl FnMut(&mut Self, P<'_>, &Value),
    ) {
        match val.as_array() {
            Some(a) => {
                for (i, item) in a.iter().enumerate() {
                    check(self, P::Idx(&p, i), item);
                }
            }
            None => self.push("AGX205", p, format!("`{name}` must be an array")),
        }
    }

    fn int(&mut self, p: P<'_>, name: &str, val: &Value, min0: bool) {
        let Some(f) = val.as_f64() else {
            return self.expected(p, name, "an integer", val);
        };
        // A number is an integer a JavaScript number holds exactly when its double is one
        // below 2^53 (an integer at or past 2^53 never reads as a double below it).
        if f.fract() != 0.0 || f.abs() >= 9_007_199_254_740_992.0 || (min0 && f < 0.0) {
            let min = if min0 { " >= 0" } else { "" };
            let msg = format!("`{name}` must be an integer{min}, found {val}");
            self.push("AGX206", p, msg);
        }
    }

    fn patch(&mut self, p: P<'_>, val: &Value) {
        let Some(ops) = val.as_array() else {
            self.push("AGX210", p, "a JSON Patch must be an array of operations");
            return;
        };
        for (i, op) in ops.iter().enumerate() {
            let ip = P::Idx(&p, i);
            let kind = op.field_str("op");
            let needs: &[&str] = match kind {
                Some("add" | "replace" | "test") => &["path", "value"],
                Some("remove") => &["path"],
                Some("move" | "copy") => &["from", "path"],
                _ => {
                    let message = format!(
                        "unknown JSON Patch op {}",
                        op.field("op").unwrap_or(&Value::Null)
                    );
                    self.push("AGX210", P::Key(&ip, "op"), message);
                    continue;
                }
            };
            for f in needs {
                let message = match op.field(f) {
                    None => format!("`{f}` is required for op {}", kind.unwrap_or("")),
                    Some(v) if *f != "value" && !v.as_str().is_some_and(is_json_pointer) => {
                        format!("`{f}` must be a JSON Pointer such as \"/a/b\", found {v}")
                    }
                    Some(_) => continue,
                };
                self.push("AGX210", P::Key(&ip, f), message);
            }
        }
    }

    fn content(&mut self, p: P<'_>, val: &Value) {
        match val {
            Value::String(_) => {}
            Value::Array(_) => self.each(p, "content", val, V::part),
            _ => self.expected(p, "content", "a string or content parts", val),
        }
    }

    fn part(&mut self, p: P<'_>, part: &Value) {
        match part.field_str("type") {
            Some("text") => {
                if !part.field("text").is_some_and(Value::is_string) {
                    let msg = "a text part needs a string `text`";
                    self.push("AGX203", P::Key(&p, "text"), msg);
                }
            }
            Some("image" | "audio" | "video" | "document") => {
                let src = part.field("source");
                let ok = src.is_some_and(|s| {
                    let v = s.field("value").is_some_and(Value::is_string);
                    match s.field_str("type") {
                        Some("data") => v && s.field("mimeType").is_some_and(Value::is_string),
                        Some("url" | "file") => v,
                        _ => false,
                    }
                });
                if !ok {
                    let msg = "a media part needs a source {type: data|url|file, value, mimeType?}";
                    self.push("AGX205", P::Key(&p, "source"), msg);
                }
            }
            _ => {
                let msg = "a content part's type must be text, image, audio, video or document";
                self.push("AGX205", P::Key(&p, "type"), msg)
            }
        }
        if part.field("metadata").is_some_and(Value::is_null) {
            self.optional_null(P::Key(&p, "metadata"), "metadata");
        }
    }

    fn outcome(&mut self, p: P<'_>, val: &Value) {
        match val.field_str("type") {
            Some("success") => self.strings(p, val, "pendingToolCallIds"),
            Some("cancelled") => {}
            Some("interrupt") => match val.field("interrupts") {
                Some(l @ Value::Array(a)) if !a.is_empty() => {
                    self.each(P::Key(&p, "interrupts"), "interrupts", l, V::interrupt)
                }
                list => {
                    let what = match list {
                        Some(Value::Array(_)) => "at least 1 interrupt",
                        _ => "an `interrupts` array",
                    };
                    let msg = format!("an interrupt outcome needs {what}");
                    self.push("AGX208", P::Key(&p, "interrupts"), msg)
                }
            },
            _ => {
                let t = val.field("type").unwrap_or(val);
                let msg = format!("unknown outcome {t}: expected success, interrupt or cancelled (the client strips it and reads success)");
                self.push("AGX208", p, msg)
            }
        }
    }

    fn interrupt(&mut self, p: P<'_>, it: &Value) {
        use K::*;
        const F: Spec = &[
            ("id", Str, true),
            ("reason", Str, true),
            ("message", Str, false),
            ("toolCallId", Str, false),
            ("responseSchema", Object, false),
            ("expiresAt", Str, false),
            ("metadata", Object, false),
            ("subagentRunId", Str, false),
        ];
        let before = self.out.len();
        self.object(p, it, F, &[]);
        for i in &mut self.out[before..] {
            if i.rule == "AGX203" {
                i.rule = "AGX208";
            }
        }
    }

    fn message(&mut self, p: P<'_>, m: &Value) {
        use K::*;
        /// Each role's fields, in order, a column per role (developer, system, assistant, user,
        /// tool, activity, reasoning): `R` required, `o` optional, `-` not the role's.
        const FIELDS: &[(&str, K, &str)] = &[
            ("id", Str, "RRRRRRR"),
            ("activityType", Str, "-----R-"),
            ("content", Str, "RRo---R"),
            ("content", Check(V::content), "---RR--"),
            ("content", Object, "-----R-"),
            ("name", Str, "oooo---"),
            ("toolCallId", Str, "----R--"),
            ("error", Str, "----o--"),
            ("encryptedValue", Str, "ooooo-o"),
            ("subagentRunId", Str, "ooooooo"),
            ("metadata", Object, "ooooooo"),
            ("toolCalls", List(fields::TOOL_CALL), "--o----"),
        ];
        let role = m.field_str("role");
        const ROLES: [&str; 7] = [
            "developer",
            "system",
            "assistant",
            "user",
            "tool",
            "activity",
            "reasoning",
        ];
        let Some(col) = ROLES.iter().position(|r| Some(*r) == role) else {
            let found = m.field("role").unwrap_or(&Value::Null);
            let msg = format!("message role must be developer, system, assistant, user, tool, activity or reasoning, found {found}");
            return self.push("AGX209", P::Key(&p, "role"), msg);
        };
        // The role's fields, picked into an array on the stack (a collected Vec, grown three
        // times a message, was 1.8 M instructions of 127 M converting 2 MB of v3-js).
        let mut fields = [("", Str, false); FIELDS.len()];
        let mut n = 0;
        for &(name, kind, by_role) in FIELDS {
            if by_role.as_bytes()[col] != b'-' {
                fields[n] = (name, kind, by_role.as_bytes()[col] == b'R');
                n += 1;
            }
        }
        self.object(p, m, &fields[..n], &[]);
    }
}

/// `^(/([^/~]|~[01])*)*$`
pub fn is_json_pointer(s: &str) -> bool {
    let escapes_ok = s.split('~').skip(1).all(|e| e.starts_with(['0', '1']));
    (s.is_empty() || s.starts_with('/')) && escapes_ok
}

/// [`check_ev`] of an event the mapper made. Its keys, strings and roles are right by
/// construction, so what is left to check is its timestamp (a recorded number) and the JSON
/// it carries from the log (a run's input, outcome and messages). `THINKING_*` events are
/// checked as JSON (a passed-through event is one: [`Ev::of_event`]). Debug builds check the
/// event whole too, and compare.
fn check_typed(ev: &Event, kind: Option<EventType>) -> Vec<Issue> {
    if kind.is_none() {
        return check_ev(&Ev::of(&ev.to_value()));
    }
    let mut v = V::default();
    let root = P::Root;
    match ev {
        Event::RunStarted { input: Some(i), .. } => v.value(root, "input", i, fields::INPUT),
        Event::RunFinished { outcome, .. } => v.outcome(P::Key(&root, "outcome"), outcome),
        Event::MessagesSnapshot { messages, .. } => {
            let p = P::Key(&root, "messages");
            // The mapper's items are valid as typed; a capture's are checked.
            for (i, m) in messages.iter().enumerate() {
                if let Message::Json(m) = m {
                    v.message(P::Idx(&p, i), m);
                }
            }
        }
        _ => {}
    }
    // A typed timestamp is an integer: only one a client cannot hold is made a number to report.
    if let Some(t) = ev.timestamp().filter(|t| t.unsigned_abs() >= 1 << 53) {
        v.value(root, "timestamp", &Value::from(t), K::Int);
    }
    debug_assert!(
        check_ev(&Ev::of(&ev.to_value())) == v.out,
        "the checks of a typed event differ from its whole check: {ev:?}"
    );
    v.out
}

/// Checks one event (its fields found) against the 1.0 schema.
pub fn check_ev(f: &Ev<'_>) -> Vec<Issue> {
    let ev = match f.src {
        Src::Json(v) => v,
        Src::Typed(e) => return check_typed(e, f.kind),
    };
    let mut v = V::default();
    let t = f.t();
    if t.starts_with("THINKING_") {
        let message = format!("{t} is not an AG-UI 1.0 event (removed in 1.0; use REASONING_*)");
        v.push("AGX202", P::Root, message);
        return v.out;
    }
    let Some((fields, sub_ok)) = f.kind.map(spec) else {
        let message = format!("unknown event type '{t}' (the client drops it)");
        v.push("AGX201", P::Root, message);
        return v.out;
    };
    // The BaseEvent fields: `subagentRunId` is the last, where an event may carry it.
    let base = if sub_ok {
        BASE
    } else {
        &BASE[..BASE.len() - 1]
    };
    v.object(P::Root, ev, fields, base);
    v.out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn rules(ev: Value) -> Vec<&'static str> {
        check_ev(&Ev::of(&ev)).into_iter().map(|i| i.rule).collect()
    }

    #[test]
    fn valid_events_pass() {
        assert!(
            rules(json!({"type":"RUN_STARTED","threadId":"t","runId":"r","timestamp":1}))
                .is_empty()
        );
        assert!(rules(json!({"type":"TEXT_MESSAGE_CONTENT","messageId":"","delta":""})).is_empty());
        assert!(rules(json!({"type":"STATE_SNAPSHOT","snapshot":null})).is_empty());
    }

    #[test]
    fn schema_problems() {
        assert_eq!(
            rules(json!({"type":"RUN_FINISHED","threadId":"t"})),
            ["AGX203"]
        );
        assert_eq!(
            rules(json!({"type":"RUN_STARTED","thread_id":"t","runId":"r"})),
            ["AGX207"]
        );
        assert_eq!(
            rules(json!({"type":"TEXT_MESSAGE_START","messageId":"m","name":null})),
            ["AGX204"]
        );
        assert_eq!(
            rules(json!({"type":"TEXT_MESSAGE_START","messageId":"m","role":"tool"})),
            ["AGX209"]
        );
        assert_eq!(
            rules(json!({"type":"RUN_STARTED","threadId":"t","runId":"r","timestamp":1.5})),
            ["AGX206"]
        );
        assert_eq!(rules(json!({"type":"NOPE"})), ["AGX201"]);
        assert_eq!(rules(json!({"type":"THINKING_START"})), ["AGX202"]);
        assert_eq!(
            rules(
                json!({"type":"RUN_FINISHED","threadId":"t","runId":"r","outcome":{"type":"interrupt","interrupts":[]}})
            ),
            ["AGX208"]
        );
        assert_eq!(
            rules(json!({"type":"STATE_DELTA","delta":[{"op":"add","path":"x","value":1}]})),
            ["AGX210"]
        );
        assert_eq!(
            rules(json!({"type":"TEXT_MESSAGE_END","messageId":"m","extra":1})),
            ["AGX211"]
        );
    }

    /// The BaseEvent fields and a run's token usage are fields of the one walk: a null is
    /// AGX204, a value of another type AGX205, a number that is no integer (or a negative
    /// count) AGX206, each with its path.
    #[test]
    fn base_fields_and_usage_are_walked_as_fields() {
        let issues = |ev: Value| -> Vec<(&str, String)> {
            let all = check_ev(&Ev::of(&ev));
            all.into_iter().map(|i| (i.rule, i.message)).collect()
        };
        assert_eq!(
            issues(json!({"type":"STEP_STARTED","stepName":"s","rawEvent":null,
                "metadata":[],"subagentRunId":1,"timestamp":"1"})),
            [
                (
                    "AGX205",
                    "timestamp: `timestamp` must be an integer, found a string".into()
                ),
                (
                    "AGX204",
                    "rawEvent: `rawEvent` is optional and must be omitted, not null".into()
                ),
                (
                    "AGX205",
                    "metadata: `metadata` must be an object, found an array".into()
                ),
                (
                    "AGX205",
                    "subagentRunId: `subagentRunId` must be a string, found a number".into()
                ),
            ]
        );
        // Where an event may not carry it, subagentRunId is an unknown key.
        assert_eq!(
            rules(json!({"type":"RUN_ERROR","message":"m","subagentRunId":"s"})),
            ["AGX211"]
        );
        assert_eq!(
            issues(json!({"type":"RUN_ERROR","message":"m",
                "usage":[{"provider":null,"inputTokens":-1,"outputTokens":1.5,"model":"m"}, 3]})),
            [
                (
                    "AGX204",
                    "usage.0.provider: `provider` is optional and must be omitted, not null".into()
                ),
                (
                    "AGX206",
                    "usage.0.inputTokens: `inputTokens` must be an integer >= 0, found -1".into()
                ),
                (
                    "AGX206",
                    "usage.0.outputTokens: `outputTokens` must be an integer >= 0, found 1.5"
                        .into()
                ),
                (
                    "AGX205",
                    "usage.1: expected an object, found a number".into()
                ),
            ]
        );
    }

    /// An integer is one a JavaScript number holds exactly: below 2^53 either way, whatever
    /// JSON number type it reads as (i64, u64 or a double).
    #[test]
    fn integers_are_those_a_double_holds_exactly() {
        let ts = |t: Value| rules(json!({"type":"STEP_STARTED","stepName":"s","timestamp":t}));
        for ok in [
            json!(0),
            json!(-0.0),
            json!(9_007_199_254_740_991_i64),
            json!(-9_007_199_254_740_991_i64),
            json!(3.0),
        ] {
            assert!(ts(ok.clone()).is_empty(), "{ok}");
        }
        for bad in [
            json!(9_007_199_254_740_992_i64),
            json!(-9_007_199_254_740_993_i64),
            json!(u64::MAX),
            json!(1e300),
            json!(0.5),
        ] {
            assert_eq!(ts(bad.clone()), ["AGX206"], "{bad}");
        }
        let count =
            |n: Value| rules(json!({"type":"RUN_ERROR","message":"m","usage":[{"inputTokens":n}]}));
        assert!(count(json!(0)).is_empty());
        assert_eq!(count(json!(-1)), ["AGX206"]);
        assert_eq!(count(json!(-1.0)), ["AGX206"]);
    }

    /// A tool call, a run input's lists and nested objects are walked as fields too: each
    /// problem at its own path, a null list AGX204 like any optional field.
    #[test]
    fn tool_calls_and_input_lists_are_walked_as_fields() {
        let issues = |ev: Value| -> Vec<(&str, String)> {
            let all = check_ev(&Ev::of(&ev));
            all.into_iter().map(|i| (i.rule, i.message)).collect()
        };
        let call = json!({"id":"c","type":"function","function":{"name":"f"}});
        let snapshot = json!({"type":"MESSAGES_SNAPSHOT","messages":[
            {"id":"a","role":"assistant","toolCalls":[call, {"id":1,"type":"fn","function":[]}]}]});
        assert_eq!(
            issues(snapshot),
            [
                (
                    "AGX203",
                    "messages.0.toolCalls.0.function.arguments: `arguments` is required".into()
                ),
                (
                    "AGX205",
                    "messages.0.toolCalls.1.id: `id` must be a string, found a number".into()
                ),
                (
                    "AGX205",
                    "messages.0.toolCalls.1.type: `type` must be one of function, found \"fn\""
                        .into()
                ),
                (
                    "AGX205",
                    "messages.0.toolCalls.1.function: expected an object, found an array".into()
                ),
            ]
        );
        let start = json!({"type":"RUN_STARTED","threadId":"t","runId":"r","input":{
            "threadId":"t","runId":"r","messages":[],"tools":null,"context":{}}});
        assert_eq!(
            issues(start),
            [
                (
                    "AGX204",
                    "input.tools: `tools` is optional and must be omitted, not null".into()
                ),
                ("AGX205", "input.context: `context` must be an array".into()),
            ]
        );
    }

    #[test]
    fn json_pointer() {
        assert!(is_json_pointer(""));
        assert!(is_json_pointer("/a/~0b/~1"));
        assert!(!is_json_pointer("x"));
        assert!(!is_json_pointer("/a~2"));
    }
}
