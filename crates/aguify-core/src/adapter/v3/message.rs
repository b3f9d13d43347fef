//! v3 `messages` events → a message's text, reasoning and tool-call events: its blocks by
//! key, what each block emitted so far, and what only a block's finish carries.

use crate::json::Field;
use serde_json::Value;

use super::{FastIds, V3Adapter};
use crate::adapter::completion;
use crate::adapter::content::Block as Content;
use crate::adapter::content::{block_events, block_key, call_chunk, read_block};
use crate::adapter::content::{reasoning, unwrap_non_standard};
use crate::adapter::{lc, str_field as s, Disposition};
use crate::error::{BadLine, Reason};
use crate::input::json_kind;
use crate::model::{ModelEvent, Usage};
use crate::wire::v3::{Data, Delta, Event, Message, Params};
use crate::wire::Object;

#[derive(Default)]
pub(super) struct OpenMessage {
    id: String,
    usage: Option<Usage>,
    blocks: Blocks,
    /// The key of the last block started.
    last_start: Option<String>,
    /// The content `type` of the last block started, when it is a reasoning fragment without
    /// an index of its own.
    last_fragment: Option<String>,
    /// The key of the earlier block each block key is read as ([`OpenMessage::continued_block`]).
    aliases: std::collections::HashMap<String, String, FastIds>,
    /// A message of another role than the model's (a tool's `ToolMessage`, which the
    /// platform streams too): its events are skipped; the tool's result comes from `tools`
    /// and the state.
    skipped: bool,
}

impl OpenMessage {
    /// The key a block event of key `index` is read under. LangGraph.js keys a provider's
    /// reasoning part without an `index` (@langchain/aws 1.3.9 `reasoning_content`) by the
    /// count of blocks so far, so each fragment starts a block of its own (issue 39.4): a
    /// block started as such a fragment right after one of the same type continues it.
    fn continued_block(&mut self, index: String, start: Option<&Value>) -> String {
        if let Some(to) = self.aliases.get(&index) {
            return to.clone();
        }
        let Some(c) = start else {
            return index;
        };
        // A fragment carries text or a signature (a new part or block starts empty).
        let fragment_type = match (c.field("index"), read_block(c)) {
            (None, Content::Reasoning { parts, signature })
                if !parts.is_empty() || signature.is_some() =>
            {
                s(c, "type")
            }
            _ => None,
        };
        match (&self.last_start, &self.last_fragment) {
            (Some(to), Some(ty)) if fragment_type.as_ref() == Some(ty) && *to != index => {
                self.aliases.insert(index, to.clone());
                to.clone()
            }
            _ => {
                self.last_start = Some(index.clone());
                self.last_fragment = fragment_type;
                index
            }
        }
    }
}

/// A message's blocks by key, in the order they started.
type Blocks = indexmap::IndexMap<String, Block, FastIds>;

/// Where a block is: its message's id and its key.
#[derive(Clone, Copy)]
struct At<'a> {
    message: &'a str,
    block: &'a str,
}

#[derive(Default)]
struct Block {
    /// Text already emitted for this block: its answer or reasoning text, or its tool call's
    /// args (the finish then emits only what is missing).
    emitted: String,
    /// A signature or redacted value was emitted for this block.
    encrypted_sent: bool,
    /// The id of the block's tool call: given by its start, a delta or its finish, or made up
    /// at its finish when none did.
    tool_id: Option<String>,
    /// The block's call id was made up at its finish: the log gave the call none.
    id_made_up: bool,
    /// A chunk of this block's tool call was emitted (the call is announced).
    tool_sent: bool,
    /// Tool-call args given whole at the block's start (a JSON value, not streamed text; a
    /// Gemini-style call starts with `args: {}` and has its args only at the finish): not
    /// emitted then; the finish's args or streamed text supersede them.
    args_whole: Option<String>,
}

impl Block {
    /// Emits `content` of the block `at` (its message id and key: text, reasoning, a signature
    /// or a redacted value), noting what was emitted.
    fn emit(&mut self, at: At<'_>, content: Content<'_>, out: &mut Vec<ModelEvent>) {
        let first = out.len();
        block_events(at.message, at.block, content, out);
        for e in &out[first..] {
            match e {
                ModelEvent::TextDelta { text, .. } | ModelEvent::ReasoningDelta { text, .. } => {
                    self.emitted.push_str(text)
                }
                _ => self.encrypted_sent = true,
            }
        }
    }

    /// Emits a chunk of the block's tool call (which announces the call).
    fn tool_chunk(
        &mut self,
        at: At<'_>,
        id: Option<String>,
        name: Option<String>,
        args: String,
        out: &mut Vec<ModelEvent>,
    ) {
        self.emitted.push_str(&args);
        self.tool_sent = true;
        out.push(call_chunk(at.message, at.block.to_string(), id, name, args));
    }

    /// A block's start: its content (text, reasoning, a tool call's id, name and args).
    fn start(&mut self, at: At<'_>, content: Option<&Value>, out: &mut Vec<ModelEvent>) {
        let Some(c) = content.map(unwrap_non_standard) else {
            return;
        };
        match read_block(c) {
            Content::ToolCall => {
                self.tool_id = s(c, "id");
                let args = match args_of(c) {
                    Some(Args { text, whole: true }) => {
                        self.args_whole = Some(text);
                        String::new()
                    }
                    other => other.map(|a| a.text).unwrap_or_default(),
                };
                self.tool_chunk(at, self.tool_id.clone(), s(c, "name"), args, out);
            }
            other => self.emit(at, other, out),
        }
    }

    /// A block's delta.
    fn delta(&mut self, at: At<'_>, delta: &Delta, out: &mut Vec<ModelEvent>) {
        let (text, reasoning_text) = (delta.text.0.as_deref(), delta.reasoning.0.as_deref());
        match delta.kind() {
            "text-delta" | "text" => self.emit(at, Content::Text(text.unwrap_or("")), out),
            "reasoning-delta" | "reasoning" => {
                self.emit(at, reasoning(reasoning_text.unwrap_or(""), None), out)
            }
            "tool-call-delta" | "tool_call_chunk" => {
                self.tool_id = self.tool_id.take().or_else(|| delta.id.0.clone());
                let id = delta.id.0.clone().or_else(|| self.tool_id.clone());
                let args = delta.args.0.clone().unwrap_or_default();
                self.tool_chunk(at, id, delta.name.0.clone(), args, out);
            }
            // A provider reasoning block's fragment (Bedrock `reasoning_content` in
            // LangGraph.js, issue 39.4), appended as it came; Anthropic's signature arrives
            // alone as `fields.signature`.
            "block-delta" => {
                let Some(fields) = &delta.fields.0 else {
                    return;
                };
                let (parts, signature) = match read_block(fields) {
                    Content::Reasoning { parts, signature } => (parts, signature),
                    _ => (vec![], None),
                };
                let signature = fields.field_str("signature").or(signature);
                let signature = signature.filter(|s| !s.is_empty());
                self.emit(at, Content::Reasoning { parts, signature }, out);
            }
            _ => {}
        }
    }

    /// A block's finish: what only the finish carries is emitted (the missing tail of the text,
    /// the signature, a redacted value, the tool call's args). Returns a warning when the
    /// finish's args contradict the args already streamed.
    fn finish(
        &mut self,
        at: At<'_>,
        content: Option<&Value>,
        out: &mut Vec<ModelEvent>,
    ) -> Option<String> {
        let c = unwrap_non_standard(content?);
        match read_block(c) {
            Content::ToolCall => return self.tool_finish(at, c, out),
            Content::Redacted(d) if !self.encrypted_sent => {
                self.emit(at, Content::Redacted(d), out)
            }
            Content::Text(full) => {
                let rest = missing_tail(&self.emitted, full);
                self.emit(at, Content::Text(rest), out);
            }
            Content::Reasoning { parts, signature } => {
                let full: String = parts.iter().map(|(_, t)| *t).collect();
                let rest = missing_tail(&self.emitted, &full);
                let signature = signature.filter(|_| !self.encrypted_sent);
                self.emit(at, reasoning(rest, signature), out);
            }
            Content::Redacted(_) | Content::Other => {}
        }
        None
    }

    /// A tool call block's finish: the args not streamed before it are emitted now (all of
    /// them for a call whose args arrive only here). See [`completion::args`] for args that
    /// contradict the streamed text.
    fn tool_finish(&mut self, at: At<'_>, c: &Value, out: &mut Vec<ModelEvent>) -> Option<String> {
        let full = args_of(c).map(|a| a.text).or(self.args_whole.take());
        // An id the stream did not give is first known here (and sent): the finish's, or, with
        // no id anywhere (LangGraph.js with @langchain/google-genai), one made up as the mapper
        // names a call it never got an id for; its tool run is paired with it by name and
        // order ([`V3Adapter::on_block`]).
        let first_known = self.tool_id.is_none();
        let id = s(c, "id").filter(|i| !i.is_empty());
        self.id_made_up = id.is_none() && first_known;
        let id = id.or_else(|| self.tool_id.clone());
        let id = id.unwrap_or_else(|| lc::made_up_call_id(at.message, at.block));
        self.tool_id.get_or_insert_with(|| id.clone());
        // The args missing after those streamed; `Err`: the finish's, which differ from them.
        let rest = match &full {
            Some(full) => completion::args(&self.emitted, full).ok_or(full),
            // Never announced and no args anywhere: a call without arguments.
            None if !self.tool_sent => Ok("{}"),
            None => Ok(""),
        };
        let warning = rest.err().map(|full| {
            format!(
                "tool call '{id}': the args at its finish ({full}) differ from the args \
                 streamed before ({}); TOOL_CALL_ARGS keep the streamed text",
                self.emitted
            )
        });
        let args = rest.unwrap_or_default();
        if !args.is_empty() || !self.tool_sent || first_known {
            self.tool_chunk(at, Some(id), s(c, "name"), args.to_string(), out);
        }
        warning
    }
}

impl V3Adapter {
    /// A `messages` event in namespace `ns`.
    pub(super) fn on_messages(
        &mut self,
        ev: &Event,
        p: &Params,
        out: &mut Vec<ModelEvent>,
    ) -> Disposition {
        let (ns, seq) = (p.key.as_str(), ev.seq.as_ref());
        let data = match &p.data {
            Data::Message(m) => m,
            // In-process, a model that does not stream sends its whole message in the legacy
            // `[message, metadata]` shape; the state after it holds the message, and streams
            // it ([`V3Adapter::complete_from_state`]), as for the wire form, which drops it.
            Data::Value(v) if is_legacy_message(v) => {
                return Disposition::Ignored("a message of the legacy `[message, metadata]` shape (the state after it streams it)")
            }
            other => return Disposition::bad(match other.value() {
                Value::Object(_) => "v3 `messages` data without an `event` string: expected \
                                     `message-start`, `content-block-*` or `message-finish`"
                    .to_string(),
                other => format!(
                    "v3 `messages` event whose `params.data` is {}: expected an object with `event`",
                    json_kind(other)
                ),
            }),
        };
        let event = data.event();
        match event {
            "message-start" => self.message_start(ns, seq, data, out),
            "content-block-start" | "content-block-delta" | "content-block-finish" => {
                self.on_block(ns, event, data, out)
            }
            "usage" => {
                if let Some(msg) = self.run.messages.get_mut(ns) {
                    msg.usage = data.usage(false);
                }
                Disposition::Mapped
            }
            "message-finish" | "error" => {
                let Some(msg) = self.run.messages.remove(ns) else {
                    let why = format!("`{event}` without an open message; skipped");
                    return Disposition::Bad(BadLine::new(Reason::MessageLifecycle, why));
                };
                if msg.skipped {
                    return Disposition::Ignored("the end of a message not the model's");
                }
                end_message(msg, data.usage(true), out);
                Disposition::Mapped
            }
            _ => Disposition::Ignored("v3 message event kind aguify does not map"),
        }
    }

    /// A `message-start`: the message open in `ns` before it ends.
    fn message_start(
        &mut self,
        ns: &str,
        seq: Option<&Value>,
        data: &Message,
        out: &mut Vec<ModelEvent>,
    ) -> Disposition {
        if let Some(prev) = self.run.messages.remove(ns).filter(|m| !m.skipped) {
            end_message(prev, None, out);
        }
        let id = match data.id.0.as_ref().and_then(Value::as_str) {
            Some(id) => id.to_string(),
            None => format!("msg-seq-{}", seq.map(Value::to_string).unwrap_or_default()),
        };
        let msg = OpenMessage {
            id: id.clone(),
            skipped: data.role.0.is_some(),
            ..OpenMessage::default()
        };
        self.run.messages.insert(ns.to_string(), msg);
        if let Some(role) = &data.role.0 {
            return Disposition::Ignored(if role == "tool" {
                "a tool's message (its result comes from `tools` and the state)"
            } else {
                "a message of a role other than the model's"
            });
        }
        out.push(crate::adapter::message_start(&id));
        self.run.nest.message_started(ns);
        self.run.known_messages.insert(id);
        Disposition::Mapped
    }

    /// A `content-block-start`, `-delta` or `-finish` of the message open in `ns`.
    fn on_block(
        &mut self,
        ns: &str,
        event: &str,
        data: &Message,
        out: &mut Vec<ModelEvent>,
    ) -> Disposition {
        let msg = match self.run.messages.get_mut(ns) {
            Some(msg) if msg.skipped => {
                return Disposition::Ignored("a block of a message not the model's")
            }
            Some(msg) => msg,
            None => {
                let why = "outside a message: expected `message-start` first; skipped";
                let why = BadLine::new(Reason::BlockLifecycle, format!("`{event}` {why}"));
                return Disposition::Bad(why);
            }
        };
        let field = if event == "content-block-delta" && !data.in_content {
            "delta"
        } else {
            "content"
        };
        // Only a delta event has a `delta` (its `content` read as one when it has none), and
        // only other events a `content`.
        let what = match (&data.delta.0, &data.content.0) {
            (Some(Object(Err(kind))), _) => format!("whose `{field}` is {kind}"),
            (None, Some(v)) if !v.is_object() => format!("whose `{field}` is {}", json_kind(v)),
            (None, None) if event != "content-block-finish" => format!("without `{field}`"),
            _ => String::new(),
        };
        if !what.is_empty() {
            return Disposition::bad(format!("`{event}` {what}: expected an object"));
        }
        let index = data.index.0.as_ref().map_or_else(|| "0".into(), block_key);
        let start = data
            .content
            .0
            .as_ref()
            .filter(|_| event == "content-block-start");
        let key = msg.continued_block(index, start);
        let i = msg.blocks.get_index_of(&key);
        let i = i.unwrap_or_else(|| msg.blocks.insert_full(key.clone(), Block::default()).0);
        let block = &mut msg.blocks[i];
        let at = At {
            message: &msg.id,
            block: &key,
        };
        match (event, &data.delta.0) {
            // A fragment continuing an earlier block starts as its next text.
            ("content-block-start", _) => block.start(at, start, out),
            (_, Some(Object(Ok(d)))) => block.delta(at, d, out),
            _ => {
                let content = data.content.0.as_ref();
                if let Some(w) = block.finish(at, content, out) {
                    self.warning = Some(w);
                }
                // A block with a call id is a tool call (the id given by its start, a delta or
                // its finish, or made up there): the call a graph started later may serve.
                if let (Some(id), Some(c)) = (&block.tool_id, content) {
                    let name = s(unwrap_non_standard(c), "name");
                    // An id made up at the finish: the log gave the call none
                    // ([`V3Adapter::idless_calls`]).
                    if block.id_made_up {
                        self.run.idless_calls.push(super::tools::IdlessCall {
                            id: id.clone(),
                            name: name.clone(),
                            args: block.emitted.clone(),
                            started: false,
                        });
                    }
                    self.run.nest.call_made(ns, id, &name.unwrap_or_default());
                }
            }
        }
        Disposition::Mapped
    }
}

/// A `messages` payload of the legacy shape: a whole message (the in-process form's
/// `[message, metadata]` read as its first item), not a v3 message event.
fn is_legacy_message(v: &Value) -> bool {
    let v = match v {
        Value::Array(a) => a.first().unwrap_or(&Value::Null),
        v => v,
    };
    v.field("event").is_none() && lc::is_message(&lc::normalize_cow(v))
}

/// A tool call's args in a block's content.
struct Args {
    text: String,
    /// Given whole (a JSON value), not as streamed text (a string).
    whole: bool,
}

/// A tool call's args in a block's content, `None` when absent or null.
fn args_of(c: &Value) -> Option<Args> {
    let (text, whole) = match c.field("args")? {
        Value::String(a) => (a.clone(), false),
        Value::Null => return None,
        v => (v.to_string(), true),
    };
    Some(Args { text, whole })
}

/// Text that only the finish carries (JS drops some deltas): the part of `full` after what
/// was emitted. JS OpenAI reasoning finishes with the text "undefinedundefined…": not text.
fn missing_tail<'a>(emitted: &str, full: &'a str) -> &'a str {
    let js_undefined = full.len() % 9 == 0 && full.as_bytes().chunks(9).all(|c| c == b"undefined");
    completion::text(emitted, full)
        .filter(|_| !js_undefined)
        .unwrap_or("")
}

/// A message ends (with `usage`, else the usage it was given): the whole args of a tool call
/// that started with them and had no finish nor streamed text are emitted before the end.
pub(super) fn end_message(msg: OpenMessage, usage: Option<Usage>, out: &mut Vec<ModelEvent>) {
    for (index, block) in msg.blocks {
        if let Some(args) = block.args_whole.filter(|_| block.emitted.is_empty()) {
            out.push(call_chunk(&msg.id, index, block.tool_id, None, args));
        }
    }
    out.push(crate::adapter::message_end(msg.id, usage.or(msg.usage)));
}
