//! v3 streaming protocol events (`{type:"event",seq,method,params}`: Python wire form and
//! in-process `[payload, metadata]` form, LangGraph.js, and platform `event: <method>` SSE)
//! → model events. docs/inputs.md lists the quirks handled here.

use crate::json::Field;
use std::collections::{HashMap, HashSet, VecDeque};

use foldhash::fast::RandomState as FastIds;

use serde_json::Value;

use super::content::{args_rest, block_key, part_key, read_block, ArgsRest, Block as Content};
use super::{
    custom_event, custom_payload_event, interrupts_from, lc, Adapter, Disposition, RecordKind,
};
use crate::error::{BadLine, Reason};
use crate::input::Record;
use crate::model::{ErrorInfo, InterruptInfo, MessageRef, ModelEvent, Usage};
use crate::payload::Payload;
use crate::wire::v3::{namespace_key, Data, Delta, Event, Lifecycle, Message, Params};

#[derive(Default)]
pub struct V3Adapter {
    started: bool,
    /// The root's terminal lifecycle seen; the run end waits for trailing custom events and
    /// the error line that follow it.
    deferred_end: Option<ModelEvent>,
    saw_root_lifecycle: bool,
    /// Open message per namespace.
    messages: HashMap<String, OpenMessage, FastIds>,
    /// Open subgraph/node lifecycles by key.
    steps: HashMap<String, (), FastIds>,
    tools_open: HashMap<String, (), FastIds>,
    /// The interrupts the run stopped at so far (a tool still open then is suspended by one,
    /// not cut off).
    interrupts: Vec<InterruptInfo>,
    /// The run's messages known so far (streamed, or in a state): a message a later state
    /// holds that is none of these did not stream ([`V3Adapter::complete_from_state`]).
    known_messages: HashSet<String, FastIds>,
    /// Whether the run's first root state was seen, and the length of the last one's list.
    state_seen: bool,
    state_len: usize,
    /// `seq` → (input line, [`crate::input::text_hash`] of the text) for the current run, to spot replays
    /// and reordering.
    seqs: Seqs,
    max_seq: Option<(i64, u64)>,
    /// The file's first integer `seq`: a later event back at it (or below) starts the next
    /// recorded run ([`crate::wire::v3::seq_restarts`]).
    first_seq: Option<i64>,
    warning: Option<String>,
    /// The run's sub-agents ([`super::subagent::Nest`]).
    nest: super::subagent::Nest,
    /// Tool calls whose model message gave them no id (LangGraph.js with
    /// @langchain/google-genai, issue 39.2), in the order they finished: the `tools` events
    /// of such a call carry `tool_call_id: ""` and are paired with one of these.
    idless_calls: Vec<IdlessCall>,
    /// Whether this run's missing tool call ids were told already.
    idless_told: bool,
}

/// A tool call the log gave no id: the id made up for it, its name and args, and how far
/// its tool run got.
struct IdlessCall {
    id: String,
    name: Option<String>,
    args: String,
    started: bool,
    ended: bool,
}

/// The warning for a run whose `tools` events lost their call ids (checker rule AGX613).
pub const IDLESS_TOOLS_WARNING: &str = "tool events without `tool_call_id`";

/// `seq` → (input line, [`crate::input::text_hash`] of the text) of a run's recent events.
/// Seqs mostly rise: one above every earlier seq is pushed on a sorted list (nothing to hash
/// or look up), the others go to a map. Both hold at most [`Seqs::WINDOW`] seqs, so a run of
/// millions of events (a long-running agent's stream, a file with no lifecycle) is checked in
/// flat memory: a replay of an event from further back than that is told as out of order,
/// not as a replay.
#[derive(Default)]
struct Seqs {
    /// Seqs that were the highest yet when seen, ascending: the last [`Seqs::WINDOW`].
    in_order: VecDeque<(i64, u64, u64)>,
    /// The other seqs' first use (forgotten all at once when [`Seqs::WINDOW`] are held).
    out_of_order: HashMap<i64, (u64, u64)>,
}

impl Seqs {
    /// Seqs remembered of each kind (24 bytes each on the list: 1.5 MiB).
    const WINDOW: usize = 1 << 16;

    /// The first use of seq `n`; `max` is the highest seq so far.
    fn get(&self, n: i64, max: Option<i64>) -> Option<(u64, u64)> {
        if max.is_none_or(|m| n > m) {
            return None;
        }
        match self.in_order.binary_search_by_key(&n, |e| e.0) {
            Ok(i) => Some((self.in_order[i].1, self.in_order[i].2)),
            Err(_) => self.out_of_order.get(&n).copied(),
        }
    }

    /// A seq above every seq so far.
    fn push_highest(&mut self, n: i64, line: u64, hash: u64) {
        if self.in_order.len() == Self::WINDOW {
            self.in_order.pop_front();
        }
        self.in_order.push_back((n, line, hash));
    }

    /// Another seq not seen (in the window) before.
    fn insert_other(&mut self, n: i64, line: u64, hash: u64) {
        if self.out_of_order.len() == Self::WINDOW {
            self.out_of_order.clear();
        }
        self.out_of_order.entry(n).or_insert((line, hash));
    }

    fn clear(&mut self) {
        self.in_order.clear();
        self.out_of_order.clear();
    }
}

struct OpenMessage {
    id: String,
    usage: Option<Usage>,
    blocks: Blocks,
    /// The last block started: its key, and its content `type` when it is a reasoning
    /// fragment without an index of its own.
    last_start: Option<(String, Option<String>)>,
    /// Block keys read as an earlier block's ([`OpenMessage::continued_block`]).
    aliases: Vec<(String, String)>,
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
        if let Some((_, to)) = self.aliases.iter().find(|(from, _)| *from == index) {
            return to.clone();
        }
        let Some(c) = start else {
            return index;
        };
        // A fragment carries text or a signature (a new part or block starts empty).
        let fragment_type = match (c.field("index"), read_content(c)) {
            (None, Content::Reasoning { parts, signature })
                if !parts.is_empty() || signature.is_some() =>
            {
                s(c, "type")
            }
            _ => None,
        };
        match &self.last_start {
            Some((to, Some(ty))) if fragment_type.as_ref() == Some(ty) && *to != index => {
                let to = to.clone();
                self.aliases.push((index, to.clone()));
                to
            }
            _ => {
                self.last_start = Some((index.clone(), fragment_type));
                index
            }
        }
    }

    /// The message id and its block of key `index` (created when new).
    fn block(&mut self, index: &str) -> (&str, &mut Block) {
        (&self.id, self.blocks.get_or_insert(index))
    }
}

/// A message's blocks by key: a message has a few, found by a scan (no key hashed or
/// allocated per delta); a map indexes them when there are more.
#[derive(Default)]
struct Blocks {
    list: Vec<(String, Block)>,
    /// Key → position in `list`, once `list` is longer than [`Blocks::SCAN`].
    index: HashMap<String, usize>,
}

impl Blocks {
    const SCAN: usize = 8;

    /// The block of key `key`, created when new.
    fn get_or_insert(&mut self, key: &str) -> &mut Block {
        let at = if self.list.len() <= Self::SCAN {
            self.list.iter().position(|(k, _)| k == key)
        } else {
            self.index.get(key).copied()
        };
        let at = match at {
            Some(at) => at,
            None => {
                let at = self.list.len();
                self.list.push((key.to_string(), Block::default()));
                if self.list.len() > Self::SCAN {
                    if self.index.is_empty() {
                        let keys = self.list.iter().enumerate();
                        self.index = keys.map(|(i, (k, _))| (k.clone(), i)).collect();
                    } else {
                        self.index.insert(key.to_string(), at);
                    }
                }
                at
            }
        };
        &mut self.list[at].1
    }
}

/// The open message of `ns`, or the disposition of a block `event` outside a message.
fn open_message<'m>(
    messages: &'m mut HashMap<String, OpenMessage, FastIds>,
    ns: &str,
    event: &str,
) -> Result<&'m mut OpenMessage, Disposition> {
    messages.get_mut(ns).ok_or_else(|| {
        Disposition::Bad(
            format!("`{event}` outside a message: expected `message-start` first; skipped").into(),
        )
    })
}

#[derive(Default)]
struct Block {
    /// Text already emitted for this block: its answer or reasoning text, or its tool call's
    /// args (the finish then emits only what is missing).
    emitted: String,
    /// A signature or redacted value was emitted for this block.
    encrypted_sent: bool,
    tool_id: Option<String>,
    /// A chunk of this block's tool call was emitted (the call is announced).
    tool_sent: bool,
    /// Tool-call args given whole at the block's start (a JSON value, not streamed text; a
    /// Gemini-style call starts with `args: {}` and has its args only at the finish): not
    /// emitted then; the finish's args or streamed text supersede them.
    args_whole: Option<String>,
    /// The call's name, when the finish made up its id (the log has none): taken by
    /// [`V3Adapter::idless_calls`].
    idless: Option<Option<String>>,
}

fn s(v: &Value, k: &str) -> Option<String> {
    v.field(k).and_then(Value::as_str).map(str::to_string)
}

/// A v3 event's `seq` as text (for ids derived from it), written only when needed: its JSON,
/// empty when absent.
#[derive(Clone, Copy)]
struct Seq<'a>(Option<&'a Value>);

impl std::fmt::Display for Seq<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0 {
            Some(v) => write!(f, "{v}"),
            None => Ok(()),
        }
    }
}

impl V3Adapter {
    fn ensure_started(&mut self, out: &mut Vec<ModelEvent>) {
        if !self.started {
            self.started = true;
            out.push(ModelEvent::RunStart {
                thread_id: None,
                run_id: None,
                messages: vec![],
                resume: None,
                state: None,
            });
        }
    }

    /// The run stops at these interrupts.
    fn interrupt(&mut self, list: Vec<InterruptInfo>, out: &mut Vec<ModelEvent>) {
        for i in &list {
            if !self.interrupts.iter().any(|x| x.id == i.id) {
                self.interrupts.push(i.clone());
            }
        }
        out.push(ModelEvent::Interrupt(list));
    }

    /// At the end of a run that stopped at an interrupt: the tool calls still open were
    /// suspended by `interrupt()` inside their tool (issue 22.7), not cut off. v3 does not
    /// say which tool raised which interrupt: with one call open, the interrupts name it.
    /// Returns whether the open calls are accounted for so.
    fn suspend_open_tools(&mut self, out: &mut Vec<ModelEvent>) -> bool {
        if self.interrupts.is_empty() || self.tools_open.is_empty() {
            return false;
        }
        if self.tools_open.len() == 1 {
            if let Some(id) = self.tools_open.keys().next().cloned() {
                let mut list = self.interrupts.clone();
                for i in &mut list {
                    i.tool_call_id = Some(id.clone());
                }
                out.push(ModelEvent::Interrupt(list));
            }
        }
        self.tools_open.clear();
        true
    }

    /// The call a `tools` event with `tool_call_id: ""` belongs to (issue 39.2): a call the
    /// log gave no id, by name (and, to start it, by args) in the order the model made them;
    /// a run is told once that the log lost the ids. `""` when no such call is left.
    fn idless_call(&mut self, data: &Value) -> String {
        if !std::mem::replace(&mut self.idless_told, true) {
            self.warning = Some(format!(
                "{IDLESS_TOOLS_WARNING}: the log lost the tool call ids; each tool run is \
                 paired with a call of its model message by name and order (ids made up as \
                 `<message id>:tool:<block index>`)"
            ));
        }
        let event = data.field("event").and_then(Value::as_str);
        let name = s(data, "tool_name").or_else(|| {
            let output = data.field("output")?;
            s(output, "name").or_else(|| s(output.field("kwargs")?, "name"))
        });
        let same_name = |c: &IdlessCall| name.is_none() || c.name == name;
        let calls = &mut self.idless_calls;
        let at = if event == Some("tool-started") {
            let input = data.field("input").map(|v| match v {
                Value::String(s) => serde_json::from_str(s).unwrap_or(Value::Null),
                v => lc::normalize_cow(v).into_owned(),
            });
            let same_args = |c: &IdlessCall| {
                input.is_some() && serde_json::from_str::<Value>(&c.args).ok() == input
            };
            let waiting = |c: &IdlessCall| !c.started && same_name(c);
            let at = (calls.iter().position(|c| waiting(c) && same_args(c)))
                .or_else(|| calls.iter().position(waiting));
            if let Some(c) = at.and_then(|at| calls.get_mut(at)) {
                c.started = true;
            }
            at
        } else {
            let at = calls
                .iter()
                .position(|c| c.started && !c.ended && same_name(c));
            if let Some(c) = at.and_then(|at| calls.get_mut(at)) {
                c.ended = matches!(event, Some("tool-finished" | "tool-error"));
            }
            at
        };
        at.map(|at| calls[at].id.clone()).unwrap_or_default()
    }

    /// At a run's end: what it knew of its messages and interrupts.
    fn forget_run_messages(&mut self) {
        self.idless_calls.clear();
        self.idless_told = false;
        self.interrupts.clear();
        self.known_messages.clear();
        self.state_seen = false;
        self.state_len = 0;
    }

    /// The AI messages of a root state that never streamed (a model that does not stream,
    /// or whose events the server dropped: langgraph-api forwards no `messages` event of the
    /// legacy `[message, metadata]` shape) stream here, whole, when the state first holds
    /// them (issue 22.6). The run's first state is its input: its messages are history.
    /// Only the messages past the previous state's list are read (a shorter list is read
    /// whole).
    fn complete_from_state<'a>(
        &mut self,
        msgs: impl ExactSizeIterator<Item = MessageRef<'a>>,
        out: &mut Vec<ModelEvent>,
    ) {
        let first = !self.state_seen;
        self.state_seen = true;
        let len = msgs.len();
        let from = if len >= self.state_len {
            self.state_len
        } else {
            0
        };
        self.state_len = len;
        for m in msgs.skip(from) {
            // A shared message is read whole only when it streams here.
            let (tree, shared) = match m {
                MessageRef::Value(v) => (Some(lc::normalize_cow(v)), None),
                MessageRef::Shared(s) => (None, Some(s)),
            };
            let (kind, id) = match (&tree, shared) {
                (Some(m), _) => (lc::message_kind(m), m.field_str("id")),
                (_, Some(s)) => (s.kind(), s.id()),
                _ => continue,
            };
            let Some(id) = id.filter(|i| !i.is_empty() && kind == Some("ai")) else {
                continue;
            };
            if !self.known_messages.insert(id.to_string()) || first {
                continue;
            }
            let m = match (&tree, shared) {
                (Some(m), _) => std::borrow::Cow::Borrowed(&**m),
                (_, Some(s)) => std::borrow::Cow::Owned(s.to_value()),
                _ => continue,
            };
            out.push(ModelEvent::MessageStart {
                message_id: id.to_string(),
            });
            super::completion::whole_message(id, &m, out);
            out.push(ModelEvent::MessageEnd {
                message_id: id.to_string(),
                usage: super::content::usage_from(
                    m.field("usage_metadata"),
                    m.field("response_metadata"),
                ),
            });
        }
    }

    /// Whether the event of `rec` with integer seq `n` opens the next of several runs recorded
    /// in this file (its `seq` starts again); an exact replay of an earlier event does not.
    fn seq_restarts(&self, rec: &Record, n: i64) -> bool {
        let (Some(first), Some((max, _))) = (self.first_seq, self.max_seq) else {
            return false;
        };
        if !crate::wire::v3::seq_restarts(n, first, max) {
            return false;
        }
        let replay = self
            .seqs
            .get(n, Some(max))
            .is_some_and(|(_, hash)| hash == crate::input::text_hash(rec.text.as_bytes()));
        !replay
    }

    /// Ends the run in progress: its deferred terminal, or what the log left of it
    /// (`next_run`: the next recorded run starts here, instead of the log ending).
    fn end_run(&mut self, next_run: bool, out: &mut Vec<ModelEvent>) {
        if self.deferred_end.is_some() {
            self.flush_deferred(out);
            return;
        }
        if !self.started {
            return;
        }
        let stops = if next_run {
            "the next recorded run starts (v3 `seq` starts again)"
        } else {
            "the log stops"
        };
        let open_messages = self.messages.len();
        let open_tools = self.tools_open.len();
        if self.saw_root_lifecycle {
            out.push(ModelEvent::RunIncomplete {
                reason: format!("{stops} before the root lifecycle completed, with no error line"),
            });
        } else if open_messages == 0 && self.suspend_open_tools(out) {
            out.push(ModelEvent::RunEnd);
        } else if open_messages > 0 || open_tools > 0 {
            // Python v3 has no root lifecycle: a run that ends with an open message or tool
            // stopped mid-run.
            out.push(ModelEvent::RunIncomplete {
                reason: format!(
                    "{stops} with {} and {} still open",
                    count(open_messages, "message"),
                    count(open_tools, "tool call")
                ),
            });
        } else {
            out.push(ModelEvent::RunEnd);
        }
        self.reset_run();
    }

    /// Forgets the run that ended.
    fn reset_run(&mut self) {
        self.started = false;
        self.messages.clear();
        self.steps.clear();
        self.tools_open.clear();
        self.nest.clear();
        self.forget_run_messages();
        self.seqs.clear();
        self.max_seq = None;
    }

    fn flush_deferred(&mut self, out: &mut Vec<ModelEvent>) {
        if let Some(end) = self.deferred_end.take() {
            out.push(end);
            self.reset_run();
        }
    }

    /// Checks `seq` against the run's earlier events. `Err` for an exact replay (skipped);
    /// reordering and reuse are converted in file order with a warning.
    fn check_seq(&mut self, rec: &Record, seq: Option<&Value>) -> Result<(), BadLine> {
        let Some(seq) = seq else { return Ok(()) };
        let Some(n) = seq.as_i64() else {
            self.warning = Some(format!(
                "v3 `seq` is {}, expected an integer; converted in file order",
                crate::input::json_kind(seq)
            ));
            return Ok(());
        };
        self.check_seq_int(rec, n)
    }

    /// [`Self::check_seq`] of an integer `seq`.
    fn check_seq_int(&mut self, rec: &Record, n: i64) -> Result<(), BadLine> {
        let line = rec.origin.line;
        let text_hash = crate::input::text_hash(rec.text.as_bytes());
        if let Some((first, hash)) = self.seqs.get(n, self.max_seq.map(|(m, _)| m)) {
            if hash == text_hash {
                return Err(BadLine::new(Reason::DuplicateV3Event, format!(
                    "duplicate v3 event: seq {n} repeats line {first} exactly (a replayed event); skipped"
                )));
            }
            self.warning = Some(format!(
                "v3 seq {n} was already used at line {first} by another event (two recordings in one file?); converted in file order"
            ));
        } else if let Some((max, max_line)) = self.max_seq.filter(|(m, _)| n < *m) {
            self.warning = Some(format!(
                "v3 seq {n} comes after seq {max} (line {max_line}): out of order; converted in file order, not by seq"
            ));
        }
        self.first_seq.get_or_insert(n);
        if self.max_seq.is_none_or(|(m, _)| n > m) {
            // Above every seq so far: new, and the sorted list stays sorted.
            self.seqs.push_highest(n, line, text_hash);
            self.max_seq = Some((n, line));
        } else {
            self.seqs.insert_other(n, line, text_hash);
        }
        Ok(())
    }

    fn on_messages(
        &mut self,
        ns: &str,
        seq: Seq<'_>,
        data: &Data,
        out: &mut Vec<ModelEvent>,
    ) -> Disposition {
        match data {
            Data::Message(m) => self.on_message_event(ns, seq, m, out),
            // In-process, a model that does not stream sends its whole message in the legacy
            // `[message, metadata]` shape; the state after it holds the message, and streams
            // it ([`V3Adapter::complete_from_state`]), as for the wire form, which drops it.
            Data::Value(v) if is_legacy_message(v) => {
                Disposition::Ignored("a message of the legacy `[message, metadata]` shape (the state after it streams it)")
            }
            other => Disposition::Bad(match other.value() {
                Value::Object(_) => "v3 `messages` data without an `event` string: expected \
                                     `message-start`, `content-block-*` or `message-finish`"
                    .into(),
                other => format!(
                    "v3 `messages` event whose `params.data` is {}: expected an object with `event`",
                    crate::input::json_kind(other)
                )
                .into(),
            }),
        }
    }

    /// A `messages` payload with an `event` string.
    fn on_message_event(
        &mut self,
        ns: &str,
        seq: Seq<'_>,
        data: &Message,
        out: &mut Vec<ModelEvent>,
    ) -> Disposition {
        let event = data.event.as_ref();
        match event {
            "message-start" => {
                if let Some(prev) = self.messages.remove(ns) {
                    if !prev.skipped {
                        end_message(prev, None, out);
                    }
                }
                if let Some(role) = &data.role {
                    self.messages.insert(
                        ns.to_string(),
                        OpenMessage {
                            id: String::new(),
                            usage: None,
                            blocks: Blocks::default(),
                            last_start: None,
                            aliases: vec![],
                            skipped: true,
                        },
                    );
                    return Disposition::Ignored(if role == "tool" {
                        "a tool's message (its result comes from `tools` and the state)"
                    } else {
                        "a message of a role other than the model's"
                    });
                }
                let id = data
                    .id
                    .as_ref()
                    .and_then(Value::as_str)
                    .map_or_else(|| format!("msg-seq-{seq}"), str::to_string);
                out.push(ModelEvent::MessageStart {
                    message_id: id.clone(),
                });
                self.known_messages.insert(id.clone());
                self.messages.insert(
                    ns.to_string(),
                    OpenMessage {
                        id,
                        usage: None,
                        blocks: Blocks::default(),
                        last_start: None,
                        aliases: vec![],
                        skipped: false,
                    },
                );
                Disposition::Mapped
            }
            "content-block-start" | "content-block-delta" | "content-block-finish" => {
                let msg = match open_message(&mut self.messages, ns, event) {
                    Ok(msg) if msg.skipped => {
                        return Disposition::Ignored("a block of a message not the model's")
                    }
                    Ok(msg) => msg,
                    Err(d) => return d,
                };
                let is_delta = event == "content-block-delta";
                let field = if is_delta && !data.in_content {
                    "delta"
                } else {
                    "content"
                };
                let kind = match (is_delta, &data.delta, &data.content) {
                    (true, Some(Delta::NotObject(kind)), _) => Some(*kind),
                    (true, Some(_), _) | (false, _, Some(Value::Object(_))) => None,
                    (false, _, None) if event == "content-block-finish" => None,
                    (true, None, _) | (false, _, None) => {
                        return Disposition::Bad(
                            format!("`{event}` without `{field}`: expected an object").into(),
                        )
                    }
                    (false, _, Some(other)) => Some(crate::input::json_kind(other)),
                };
                if let Some(kind) = kind {
                    return Disposition::Bad(
                        format!("`{event}` whose `{field}` is {kind}: expected an object").into(),
                    );
                }
                let index = data
                    .index
                    .as_ref()
                    .map(block_key)
                    .unwrap_or_else(|| "0".into());
                let is_start = event == "content-block-start";
                let start = data.content.as_ref().filter(|_| is_start);
                let key = msg.continued_block(index.clone(), start);
                let continued = is_start && key != index;
                let index = key;
                let (mid, block) = msg.block(&index);
                match (event, &data.delta) {
                    // A fragment continuing an earlier block: its text is that block's next.
                    ("content-block-start", _) if continued => {
                        if let Some(c) = start.and_then(|c| unwrap_non_standard(Some(c))) {
                            let fields = Delta::Fields(Some(c.clone()));
                            block_delta(mid, &index, block, &fields, out);
                        }
                    }
                    ("content-block-start", _) => {
                        block_start(mid, &index, block, data.content.as_ref(), out)
                    }
                    (_, Some(d)) => block_delta(mid, &index, block, d, out),
                    _ => {
                        let content = data.content.as_ref();
                        if let Some(w) = block_finish(mid, &index, block, content, out) {
                            self.warning = Some(w);
                        }
                        if let (Some(name), Some(id)) = (block.idless.take(), &block.tool_id) {
                            self.idless_calls.push(IdlessCall {
                                id: id.clone(),
                                name,
                                args: block.emitted.clone(),
                                started: false,
                                ended: false,
                            });
                        }
                    }
                }
                Disposition::Mapped
            }
            "usage" => {
                if let Some(msg) = self.messages.get_mut(ns) {
                    msg.usage = usage(data, false);
                }
                Disposition::Mapped
            }
            "message-finish" | "error" => {
                let Some(msg) = self.messages.remove(ns) else {
                    return Disposition::Bad(
                        format!("`{event}` without an open message; skipped").into(),
                    );
                };
                if msg.skipped {
                    return Disposition::Ignored("the end of a message not the model's");
                }
                end_message(msg, usage(data, true), out);
                Disposition::Mapped
            }
            _ => Disposition::Ignored("v3 message event kind aguify does not map"),
        }
    }

    /// A `values` event in namespace `ns`: its `params.interrupts`, then what `state` makes
    /// of its data ([`super::state_events`]; whether it mapped anything).
    fn on_values(
        &mut self,
        ns: &str,
        interrupts: Option<&Value>,
        out: &mut Vec<ModelEvent>,
        state: impl FnOnce(&mut Vec<ModelEvent>) -> bool,
    ) -> Disposition {
        if !ns.is_empty() {
            return Disposition::Ignored("subgraph values (not the graph's state)");
        }
        let mut mapped = false;
        if let Some(list) = interrupts.filter(|l| l.as_array().is_some_and(|a| !a.is_empty())) {
            self.interrupt(interrupts_from(list), out);
            mapped = true;
        }
        mapped |= state(out);
        if mapped {
            Disposition::Mapped
        } else {
            Disposition::Ignored("values payload that is not a state object")
        }
    }

    /// A v3 event of `method` after its `seq` check, in the namespace of key `ns`.
    fn on_method(
        &mut self,
        method: &str,
        ns: &str,
        seq: Seq<'_>,
        params: &Params,
        out: &mut Vec<ModelEvent>,
    ) -> Disposition {
        let (data, node, interrupts) = match params {
            Params::Object {
                data,
                node,
                interrupts,
                ..
            } => (data, node.as_ref(), interrupts.as_ref()),
            _ => (&Data::Value(Value::Null), None, None),
        };
        if method == "lifecycle" {
            let empty = Lifecycle::default();
            let l = match data {
                Data::Lifecycle(l) => &**l,
                _ => &empty,
            };
            return self.on_lifecycle_event(ns, LifecycleView::of(l), out);
        }
        self.ensure_started(out);
        if matches!(method, "checkpoints" | "values" | "tasks") {
            // A graph's own bookkeeping in a task's namespace: a graph runs there.
            self.nest.shows(ns, false, out);
        } else {
            self.nest.shows(ns, true, out);
        }
        self.nest.scope(ns, out);
        match method {
            "messages" => self.on_messages(ns, seq, data, out),
            "tools" => self.on_tools(ns, data.value(), out),
            "values" => {
                if ns.is_empty() {
                    match data {
                        Data::State(s) => {
                            let list = s.messages.iter().map(|m| MessageRef::Shared(m));
                            self.complete_from_state(list, out)
                        }
                        other => {
                            let state = lc::normalize_cow(other.value());
                            if let Some(list) = state.field("messages").and_then(Value::as_array) {
                                self.complete_from_state(list.iter().map(MessageRef::Value), out);
                            }
                        }
                    }
                }
                self.on_values(ns, interrupts, out, |out| match data {
                    Data::State(s) => super::shared_state_events(s, out),
                    other => super::state_events(other.value(), out),
                })
            }
            "updates" => {
                let Data::Value(data) = data else {
                    return Disposition::Ignored("node update (a partial state, not the state)");
                };
                let node = data.field("node").or(node).and_then(Value::as_str);
                if node == Some("__interrupt__") {
                    let list = data.field("values").unwrap_or(data);
                    self.interrupt(interrupts_from(list), out);
                    return Disposition::Mapped;
                }
                Disposition::Ignored("node update (a partial state, not the state)")
            }
            "tasks" => match data {
                Data::Tasks { interrupts, .. } => self.on_tasks(interrupts.as_ref(), out),
                other => self.on_tasks(other.value().field("interrupts"), out),
            },
            "checkpoints" => Disposition::Ignored("checkpoint bookkeeping"),
            "input.requested" => {
                let list = Value::Array(vec![data.value().clone()]);
                self.interrupt(interrupts_from(&list), out);
                Disposition::Mapped
            }
            "custom" => {
                out.push(custom_payload_event(None, payload_of(data)));
                Disposition::Mapped
            }
            m if m.starts_with("custom:") => {
                let data = payload_of(data);
                let payload = match data.fields().and_then(|o| o.get("payload").copied()) {
                    Some(p) => Payload::of_field(p),
                    None => data,
                };
                out.push(custom_payload_event(Some(&m["custom:".len()..]), payload));
                Disposition::Mapped
            }
            "debug" => Disposition::Ignored("debug stream"),
            _ => Disposition::Ignored("v3 method aguify does not map"),
        }
    }

    /// A `tasks` event, of its data's `interrupts`.
    fn on_tasks(&mut self, interrupts: Option<&Value>, out: &mut Vec<ModelEvent>) -> Disposition {
        if let Some(list) = interrupts.filter(|l| l.as_array().is_some_and(|a| !a.is_empty())) {
            self.interrupt(interrupts_from(list), out);
            return Disposition::Mapped;
        }
        Disposition::Ignored("task bookkeeping (nodes map from lifecycle)")
    }

    /// A `lifecycle` event in namespace `ns`, of what is read of its data.
    fn on_lifecycle_event(
        &mut self,
        ns: &str,
        data: LifecycleView<'_>,
        out: &mut Vec<ModelEvent>,
    ) -> Disposition {
        // After the root's terminal lifecycle, records up to the next root start still belong
        // to the ending run (JS final-value `custom` events, Python platform `values`).
        let root_start = ns.is_empty()
            && data.namespace.is_none()
            && matches!(data.event, "running" | "started");
        if root_start {
            self.flush_deferred(out);
        }
        self.ensure_started(out);
        self.on_lifecycle(ns, data, out)
    }

    fn on_tools(&mut self, ns: &str, data: &Value, out: &mut Vec<ModelEvent>) -> Disposition {
        let id = match data.field("tool_call_id") {
            Some(Value::String(id)) if id.is_empty() => self.idless_call(data),
            Some(Value::String(id)) => id.clone(),
            None => return Disposition::Bad("v3 `tools` event without `tool_call_id`".into()),
            Some(other) => {
                return Disposition::Bad(
                    format!(
                        "v3 `tools` event whose `tool_call_id` is {}: expected a string",
                        crate::input::json_kind(other)
                    )
                    .into(),
                )
            }
        };
        match data.field("event").and_then(Value::as_str) {
            Some("tool-started") => {
                let args = match data.field("input") {
                    Some(Value::String(s)) => Some(s.clone()),
                    Some(Value::Null) | None => None,
                    Some(v) => Some(lc::normalize_cow(v).to_string()),
                };
                self.tools_open.insert(id.clone(), ());
                let name = s(data, "tool_name").unwrap_or_else(|| "tool".into());
                self.nest.tool_started(&id, &name, ns);
                out.push(ModelEvent::ToolStart {
                    tool_call_id: id,
                    name,
                    args,
                    parent_message_id: None,
                });
            }
            Some("tool-output-delta") => {
                let delta = match data.field("delta") {
                    Some(Value::String(s)) => s.clone(),
                    Some(v) => v.to_string(),
                    None => String::new(),
                };
                out.push(ModelEvent::ToolOutputDelta {
                    tool_call_id: id,
                    delta,
                });
            }
            Some("tool-finished") => {
                self.tools_open.remove(&id);
                self.nest.tool_ended(&id);
                let output = lc::normalize_deep(data.field("output").unwrap_or(&Value::Null));
                let output = lc::command_tool_message(&output, Some(&id)).unwrap_or(output);
                let is_msg = lc::message_kind(&output) == Some("tool");
                out.push(ModelEvent::ToolEnd {
                    tool_call_id: id,
                    name: s(data, "tool_name"),
                    content: if is_msg {
                        output.field("content").cloned().unwrap_or(Value::Null)
                    } else {
                        output.clone()
                    },
                    message_id: if is_msg { s(&output, "id") } else { None },
                    error: is_msg
                        && output.field("status").and_then(Value::as_str) == Some("error"),
                });
            }
            Some("tool-error") => {
                self.tools_open.remove(&id);
                self.nest.tool_ended(&id);
                out.push(ModelEvent::ToolEnd {
                    tool_call_id: id,
                    name: s(data, "tool_name"),
                    content: Value::String(
                        s(data, "message").unwrap_or_else(|| "tool error".into()),
                    ),
                    message_id: None,
                    error: true,
                });
            }
            _ => return Disposition::Ignored("v3 tool event kind aguify does not map"),
        }
        Disposition::Mapped
    }

    fn on_lifecycle(
        &mut self,
        ns: &str,
        data: LifecycleView<'_>,
        out: &mut Vec<ModelEvent>,
    ) -> Disposition {
        let event = data.event;
        // Python puts a subgraph's lifecycle on the parent namespace, naming it in `data.namespace`.
        let key = match data.namespace {
            Some(n) => namespace_key(Some(n)),
            None => ns.to_string(),
        };
        if !key.is_empty() {
            self.nest.scope(&key, out);
        }
        if key.is_empty() {
            self.saw_root_lifecycle = true;
            return match event {
                "running" | "started" => Disposition::Mapped,
                "completed" => {
                    self.suspend_open_tools(out);
                    self.deferred_end = Some(ModelEvent::RunEnd);
                    Disposition::Mapped
                }
                "interrupted" => {
                    self.suspend_open_tools(out);
                    self.deferred_end = Some(ModelEvent::RunStopped);
                    Disposition::Mapped
                }
                "failed" => {
                    let message = match data.error {
                        Some(Value::String(m)) => m.clone(),
                        Some(Value::Object(o)) => o
                            .field("message")
                            .and_then(Value::as_str)
                            .unwrap_or("the run failed")
                            .to_string(),
                        _ => "the run failed (lifecycle `failed` without an error)".into(),
                    };
                    self.deferred_end = Some(ModelEvent::RunFailed(ErrorInfo {
                        name: data.error.and_then(|e| s(e, "name")),
                        message,
                        lc_code: None,
                    }));
                    Disposition::Mapped
                }
                _ => Disposition::Ignored("root lifecycle event of no AG-UI meaning"),
            };
        }
        if let Some(call) = data.tool_call() {
            // A graph a tool invoked (Python says so): a sub-agent, not a step.
            return match event {
                "started" | "running" => {
                    let name = data.graph_name.unwrap_or("subagent");
                    self.nest.announced(&key, name, call, out);
                    Disposition::Mapped
                }
                _ => Disposition::Ignored("lifecycle event of no AG-UI meaning"),
            };
        }
        if self.nest.is_announced(&key) {
            // Interrupted: it stays open, and the run's interrupt suspends it.
            return match event {
                "completed" => {
                    self.nest.end(&key, None, out);
                    Disposition::Mapped
                }
                "failed" => {
                    let error = lifecycle_error(data.error);
                    self.nest.end(&key, Some(error), out);
                    Disposition::Mapped
                }
                _ => Disposition::Ignored("sub-agent lifecycle event of no AG-UI meaning"),
            };
        }
        match event {
            "started" | "running" => {
                let name = data.graph_name.map(str::to_string).unwrap_or_else(|| {
                    key.rsplit('|')
                        .next()
                        .unwrap_or(&key)
                        .split(':')
                        .next()
                        .unwrap_or("node")
                        .to_string()
                });
                self.steps.insert(key.clone(), ());
                out.push(ModelEvent::StepStart { name, key });
                Disposition::Mapped
            }
            "completed" | "failed" | "interrupted" => {
                if self.steps.remove(&key).is_some() {
                    out.push(ModelEvent::StepEnd { key });
                    Disposition::Mapped
                } else {
                    Disposition::Ignored("lifecycle end of a node whose start was not recorded")
                }
            }
            _ => Disposition::Ignored("lifecycle event of no AG-UI meaning"),
        }
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

/// A message event's usage, with the model's names from `metadata` when `with_metadata`.
fn usage(m: &Message, with_metadata: bool) -> Option<Usage> {
    let mut usage = m.usage.clone()?;
    if !with_metadata {
        (usage.provider, usage.model) = (None, None);
    }
    Some(usage)
}

/// What [`V3Adapter::on_lifecycle`] reads of a `lifecycle` event's data, from its `Value` or
/// its fast form.
struct LifecycleView<'a> {
    /// `event` (empty when absent or not a string).
    event: &'a str,
    namespace: Option<&'a Value>,
    /// `graph_name`, when a string.
    graph_name: Option<&'a str>,
    error: Option<&'a Value>,
    cause: Option<&'a Value>,
}

impl<'a> LifecycleView<'a> {
    fn of(l: &'a Lifecycle) -> Self {
        LifecycleView {
            event: l.event.as_ref().and_then(Value::as_str).unwrap_or_default(),
            namespace: l.namespace.as_ref(),
            graph_name: l.graph_name.as_ref().and_then(Value::as_str),
            error: l.error.as_ref(),
            cause: l.cause.as_ref(),
        }
    }

    /// The tool call that started the graph (`cause: {type: "toolCall", tool_call_id}`).
    fn tool_call(&self) -> Option<&'a str> {
        let c = self.cause?;
        if c.field("type").and_then(Value::as_str) != Some("toolCall") {
            return None;
        }
        c.field("tool_call_id").and_then(Value::as_str)
    }
}

/// A `failed` lifecycle's error.
fn lifecycle_error(error: Option<&Value>) -> ErrorInfo {
    let message = match error {
        Some(Value::String(m)) => m.clone(),
        Some(Value::Object(o)) => o
            .field("message")
            .and_then(Value::as_str)
            .unwrap_or("the graph failed")
            .to_string(),
        _ => "the graph failed (lifecycle `failed` without an error)".into(),
    };
    ErrorInfo {
        name: error.and_then(|e| s(e, "name")),
        message,
        lc_code: None,
    }
}

/// A `non_standard` block wraps a provider block the protocol has no type for (e.g. Anthropic
/// `redacted_thinking`): read the wrapped value.
fn unwrap_non_standard(c: Option<&Value>) -> Option<&Value> {
    let c = c?;
    if c.field("type").and_then(Value::as_str) == Some("non_standard") {
        return c
            .field("value")
            .filter(|v| v.field("type").is_some())
            .or(Some(c));
    }
    Some(c)
}

/// A block's content as [`read_block`] reads it; a block without a `type` is text.
fn read_content(c: &Value) -> Content<'_> {
    match c.field("type") {
        None => Content::Text(c.field("text").and_then(Value::as_str).unwrap_or("")),
        // LangGraph.js keeps a provider's own tool block: Anthropic's `tool_use` starts the
        // block (id, name, `input`), and the merged block at the finish is typed after its
        // last delta, `input_json_delta` (with id, name and `args`).
        Some(Value::String(t)) if is_provider_tool_block(t) && c.field("id").is_some() => {
            Content::ToolCall
        }
        Some(_) => read_block(c),
    }
}

/// Block types of a provider's own tool call, as LangGraph.js v3 passes them on.
fn is_provider_tool_block(t: &str) -> bool {
    matches!(t, "tool_use" | "input_json_delta")
}

/// A tool call's args in a block's content: streamed text (a string) or the args whole (a
/// JSON value), `None` when absent or null.
enum Args {
    Text(String),
    Whole(String),
}

fn args_of(c: &Value) -> Option<Args> {
    match c.field("args") {
        Some(Value::String(a)) => Some(Args::Text(a.clone())),
        Some(Value::Null) | None => None,
        Some(v) => Some(Args::Whole(v.to_string())),
    }
}

fn block_start(
    mid: &str,
    index: &str,
    block: &mut Block,
    content: Option<&Value>,
    out: &mut Vec<ModelEvent>,
) {
    let Some(c) = unwrap_non_standard(content) else {
        return;
    };
    match read_content(c) {
        Content::Text(t) => {
            if !t.is_empty() {
                block.emitted.push_str(t);
                out.push(ModelEvent::TextDelta {
                    message_id: mid.to_string(),
                    text: t.to_string(),
                });
            }
        }
        Content::Reasoning { parts, signature } => {
            for (part, t) in parts {
                block.emitted.push_str(t);
                out.push(ModelEvent::ReasoningDelta {
                    message_id: mid.to_string(),
                    block: part_key(index, part),
                    text: t.to_string(),
                });
            }
            if let Some(sig) = signature {
                block.encrypted_sent = true;
                out.push(ModelEvent::ReasoningEncrypted {
                    message_id: mid.to_string(),
                    block: index.to_string(),
                    value: sig.to_string(),
                });
            }
        }
        Content::Redacted(d) => {
            block.encrypted_sent = true;
            out.push(ModelEvent::ReasoningEncrypted {
                message_id: mid.to_string(),
                block: index.to_string(),
                value: d.to_string(),
            });
        }
        Content::ToolCall => {
            block.tool_id = s(c, "id");
            let args = match args_of(c) {
                Some(Args::Text(a)) => a,
                Some(Args::Whole(a)) => {
                    block.args_whole = Some(a);
                    String::new()
                }
                None => String::new(),
            };
            block.emitted.push_str(&args);
            block.tool_sent = true;
            out.push(ModelEvent::ToolCallChunk {
                message_id: mid.to_string(),
                index: index.to_string(),
                id: block.tool_id.clone(),
                name: s(c, "name"),
                args,
            });
        }
        Content::Other => {}
    }
}

fn block_delta(
    mid: &str,
    index: &str,
    block: &mut Block,
    delta: &Delta,
    out: &mut Vec<ModelEvent>,
) {
    match delta {
        Delta::Text { is_text, text } => {
            let Some(t) = text.as_deref().filter(|t| !t.is_empty()) else {
                return;
            };
            block.emitted.push_str(t);
            out.push(if *is_text {
                ModelEvent::TextDelta {
                    message_id: mid.to_string(),
                    text: t.to_string(),
                }
            } else {
                ModelEvent::ReasoningDelta {
                    message_id: mid.to_string(),
                    block: index.to_string(),
                    text: t.to_string(),
                }
            });
        }
        Delta::ToolCall { args, id, name } => {
            let args = args.clone().unwrap_or_default();
            block.emitted.push_str(&args);
            block.tool_sent = true;
            out.push(ModelEvent::ToolCallChunk {
                message_id: mid.to_string(),
                index: index.to_string(),
                id: id.clone().or_else(|| block.tool_id.clone()),
                name: name.clone(),
                args,
            });
        }
        Delta::Fields(fields) => {
            let Some(fields) = fields.as_ref() else {
                return;
            };
            // A provider reasoning block's fragment (Bedrock `reasoning_content` in
            // LangGraph.js, issue 39.4) is appended as it came; Anthropic's signature
            // arrives alone as `fields.signature`.
            let (parts, signature) = match read_content(fields) {
                Content::Reasoning { parts, signature } => (parts, signature),
                _ => (vec![], None),
            };
            for (part, t) in parts {
                block.emitted.push_str(t);
                out.push(ModelEvent::ReasoningDelta {
                    message_id: mid.to_string(),
                    block: part_key(index, part),
                    text: t.to_string(),
                });
            }
            let signature = fields
                .field("signature")
                .and_then(Value::as_str)
                .or(signature);
            if let Some(sig) = signature.filter(|s| !s.is_empty()) {
                out.push(ModelEvent::ReasoningEncrypted {
                    message_id: mid.to_string(),
                    block: index.to_string(),
                    value: sig.to_string(),
                });
                block.encrypted_sent = true;
            }
        }
        Delta::Other | Delta::NotObject(_) => {}
    }
}

/// A block's finish: what only the finish carries is emitted (the missing tail of the text,
/// the signature, a redacted value, the tool call's args). Returns a warning when the
/// finish's args contradict the args already streamed.
fn block_finish(
    mid: &str,
    index: &str,
    block: &mut Block,
    content: Option<&Value>,
    out: &mut Vec<ModelEvent>,
) -> Option<String> {
    let c = unwrap_non_standard(content)?;
    match read_content(c) {
        Content::Redacted(d) => {
            if !block.encrypted_sent {
                block.encrypted_sent = true;
                out.push(ModelEvent::ReasoningEncrypted {
                    message_id: mid.to_string(),
                    block: index.to_string(),
                    value: d.to_string(),
                });
            }
        }
        Content::ToolCall => return tool_finish(mid, index, block, c, out),
        Content::Text(full) => {
            if let Some(rest) = missing_tail(&block.emitted, full) {
                block.emitted.push_str(&rest);
                out.push(ModelEvent::TextDelta {
                    message_id: mid.to_string(),
                    text: rest,
                });
            }
        }
        Content::Reasoning { parts, signature } => {
            let full: String = parts.iter().map(|(_, t)| *t).collect();
            if let Some(rest) = missing_tail(&block.emitted, &full) {
                block.emitted.push_str(&rest);
                out.push(ModelEvent::ReasoningDelta {
                    message_id: mid.to_string(),
                    block: index.to_string(),
                    text: rest,
                });
            }
            if let Some(sig) = signature.filter(|_| !block.encrypted_sent) {
                block.encrypted_sent = true;
                out.push(ModelEvent::ReasoningEncrypted {
                    message_id: mid.to_string(),
                    block: index.to_string(),
                    value: sig.to_string(),
                });
            }
        }
        Content::Other => {}
    }
    None
}

/// Text that only the finish carries (JS drops some deltas): the part of `full` after what
/// was emitted. JS OpenAI reasoning finishes with the text "undefinedundefined…": not text.
fn missing_tail(emitted: &str, full: &str) -> Option<String> {
    let js_undefined = !full.is_empty()
        && full.len() % 9 == 0
        && full.as_bytes().chunks(9).all(|c| c == b"undefined");
    if js_undefined || full.len() <= emitted.len() || !full.starts_with(emitted) {
        return None;
    }
    Some(full[emitted.len()..].to_string())
}

/// A tool call block's finish: the args not streamed before it are emitted now (all of them
/// for a call whose args arrive only here). See [`args_rest`] for args that contradict the
/// streamed text.
fn tool_finish(
    mid: &str,
    index: &str,
    block: &mut Block,
    c: &Value,
    out: &mut Vec<ModelEvent>,
) -> Option<String> {
    let full = match args_of(c) {
        Some(Args::Text(a) | Args::Whole(a)) => Some(a),
        None => block.args_whole.take(),
    };
    block.args_whole = None;
    let id = s(c, "id")
        .filter(|i| !i.is_empty())
        .or_else(|| block.tool_id.clone());
    // No id anywhere (LangGraph.js with @langchain/google-genai): one made up as the mapper
    // names a call it never got an id for; its tool run is paired with it by name and order.
    let id = id.or_else(|| {
        block.idless = Some(s(c, "name"));
        let made_up = lc::made_up_call_id(mid, index);
        block.tool_id = Some(made_up.clone());
        Some(made_up)
    });
    let mut warning = None;
    let rest = match full {
        Some(full) => match args_rest(&block.emitted, &full) {
            ArgsRest::Missing(rest) => Some(rest),
            ArgsRest::Complete => None,
            ArgsRest::Differs => {
                warning = Some(format!(
                    "tool call '{}': the args at its finish ({full}) differ from the args \
                     streamed before ({}); TOOL_CALL_ARGS keep the streamed text",
                    id.as_deref().unwrap_or(index),
                    block.emitted
                ));
                None
            }
        },
        // Never announced and no args anywhere: a call without arguments.
        None if !block.tool_sent => Some("{}".to_string()),
        None => None,
    };
    if rest.is_some() || !block.tool_sent || block.idless.is_some() {
        let args = rest.unwrap_or_default();
        block.emitted.push_str(&args);
        block.tool_sent = true;
        out.push(ModelEvent::ToolCallChunk {
            message_id: mid.to_string(),
            index: index.to_string(),
            id,
            name: s(c, "name"),
            args,
        });
    }
    warning
}

/// A message ends (with `usage`, else the usage it was given): the whole args of a tool call
/// that started with them and had no finish nor streamed text are emitted before the end.
fn end_message(msg: OpenMessage, usage: Option<Usage>, out: &mut Vec<ModelEvent>) {
    for (index, block) in msg.blocks.list {
        if let Some(args) = block.args_whole.filter(|_| block.emitted.is_empty()) {
            out.push(ModelEvent::ToolCallChunk {
                message_id: msg.id.clone(),
                index,
                id: block.tool_id,
                name: None,
                args,
            });
        }
    }
    out.push(ModelEvent::MessageEnd {
        message_id: msg.id,
        usage: usage.or(msg.usage),
    });
}

impl Adapter for V3Adapter {
    fn feed(&mut self, rec: &Record, kind: &RecordKind, out: &mut Vec<ModelEvent>) -> Disposition {
        let ev: &Event = match kind {
            RecordKind::V3 => match rec.v3.as_deref() {
                Some(ev) => ev,
                None => return Disposition::Bad("expected a v3 protocol event".into()),
            },
            RecordKind::ErrorLine(info) => {
                // The error line names the exception; it replaces the root's `failed` message.
                self.deferred_end = None;
                self.ensure_started(out);
                out.push(ModelEvent::RunFailed(info.clone()));
                self.started = false;
                self.forget_run_messages();
                self.messages.clear();
                self.seqs.clear();
                self.max_seq = None;
                return Disposition::Mapped;
            }
            RecordKind::Custom => {
                self.ensure_started(out);
                out.push(custom_event(None, rec.value()));
                return Disposition::Mapped;
            }
            RecordKind::RunMetadata { .. }
            | RecordKind::OtherStreamMode(_)
            | RecordKind::Values => {
                return Disposition::Ignored("platform frame carrying no v3 event");
            }
            _ => return Disposition::Bad("expected a v3 protocol event".into()),
        };
        if let Some(n) = ev.seq.as_ref().and_then(Value::as_i64) {
            if self.seq_restarts(rec, n) {
                self.end_run(true, out);
            }
        }
        if let Err(msg) = self.check_seq(rec, ev.seq.as_ref()) {
            return Disposition::Bad(msg);
        }
        let method = ev.method.as_ref();
        if let Params::NotObject(kind) = ev.params {
            return Disposition::Bad(format!(
                "v3 `{method}` event whose `params` is {kind}: expected an object {{namespace, data}}"
            ).into());
        }
        let ns = namespace_key(ev.namespace());
        self.on_method(method, &ns, Seq(ev.seq.as_ref()), &ev.params, out)
    }

    fn take_warning(&mut self) -> Option<String> {
        self.warning.take()
    }

    fn finish(&mut self, out: &mut Vec<ModelEvent>) {
        self.end_run(false, out);
    }
}

/// A `custom` event's data as a payload (read as text; a tree when read from one).
fn payload_of(data: &Data) -> Payload {
    match data {
        Data::Payload(p) => p.clone(),
        other => Payload::from_value(other.value()),
    }
}

/// `1 message`, `2 messages`.
fn count(n: usize, what: &str) -> String {
    format!("{n} {what}{}", if n == 1 { "" } else { "s" })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_are_found_by_key_past_the_scan() {
        let mut b = Blocks::default();
        for round in 0..3 {
            for i in 0..20 {
                let block = b.get_or_insert(&format!("k{i}"));
                if round == 0 {
                    assert!(block.emitted.is_empty());
                }
                block.emitted.push('x');
            }
        }
        assert_eq!(b.list.len(), 20);
        assert_eq!(b.index.len(), 20);
        for (i, (k, block)) in b.list.iter().enumerate() {
            assert_eq!(k, &format!("k{i}"));
            assert_eq!(block.emitted, "xxx");
        }
    }

    #[test]
    fn seqs_remember_the_first_use() {
        let mut s = Seqs::default();
        let mut max = None;
        for (n, line) in [(5, 1), (7, 2), (6, 3), (6, 4), (1, 5), (9, 6)] {
            if s.get(n, max).is_none() {
                if max.is_none_or(|m| n > m) {
                    s.push_highest(n, line, 0);
                    max = Some(n);
                } else {
                    s.insert_other(n, line, 0);
                }
            }
        }
        let first = |n| s.get(n, max).map(|(l, _)| l);
        assert_eq!(
            [5, 7, 6, 1, 9, 8, 10].map(first),
            [Some(1), Some(2), Some(3), Some(5), Some(6), None, None]
        );
        s.clear();
        assert_eq!(s.get(5, max), None);
    }

    #[test]
    fn seqs_hold_a_window() {
        let mut s = Seqs::default();
        let w = Seqs::WINDOW as i64;
        for n in 0..3 * w {
            s.push_highest(n, n as u64, 0);
        }
        let max = Some(3 * w - 1);
        assert_eq!(s.in_order.len(), Seqs::WINDOW);
        assert_eq!(s.get(2 * w - 1, max), None, "forgotten");
        assert_eq!(s.get(2 * w, max), Some((2 * w as u64, 0)));
        assert_eq!(s.get(3 * w - 1, max), Some((3 * w as u64 - 1, 0)));
        for n in 0..w + 1 {
            s.insert_other(-n - 1, 0, 0);
        }
        assert!(s.out_of_order.len() <= Seqs::WINDOW);
        assert_eq!(s.get(-w - 1, max), Some((0, 0)), "the latest kept");
    }
}
