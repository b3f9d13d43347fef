//! What each AG-UI event does to the timeline, one method per event family.

use super::*;
use crate::payload::Payload;
use crate::text::count;

impl TimelineBuilder {
    pub(super) fn on_event(&mut self, ev: &Event, origin: &Origin) {
        let ts = ev.timestamp();
        if !matches!(ev, Event::RunStarted { .. }) {
            if self.run.is_none() {
                self.start_run(None, None, Vec::new(), At { ts, origin });
            }
            self.count(|run| {
                run.events += 1;
                run.last_ts = run.last_ts.max(ts);
                run.first_ts = run.first_ts.or(ts);
            });
        }
        let at = At { ts, origin };
        // Each family takes its own events and lets the others pass.
        self.on_run_event(ev, at);
        self.on_step_event(ev, at);
        self.on_span_event(ev, at);
        self.on_state_event(ev, at);
        self.on_other_event(ev, at);
    }

    /// A run starting, finishing or failing.
    fn on_run_event(&mut self, ev: &Event, at: At) {
        match ev {
            Event::RunStarted {
                thread_id,
                run_id,
                input,
                ..
            } => {
                let resumes = input.as_ref().map(|i| list_of(i, "resume"));
                let resumes = resumes.unwrap_or_default().to_vec();
                let mut thread = given(thread_id);
                // Several files are one thread for the mapper; a file that records no thread
                // id and resumes nothing is not shown under the thread of the file before.
                if self.runs.last().is_some_and(|prev| {
                    prev.origin.file != at.origin.file
                        && resumes.is_empty()
                        && prev.thread_id == thread
                        && !self.thread_recorded.contains(&at.origin.file)
                }) {
                    thread = None;
                }
                self.start_run(given(run_id), thread, resumes, at);
                self.count(|r| r.events = 1);
            }
            Event::RunFinished { outcome, usage, .. } => {
                let o = self.outcome(outcome, at);
                if let Some(usage) = usage {
                    let mut t = Tokens::default();
                    for u in usage {
                        t.input += u.input_tokens;
                        t.output += u.output_tokens;
                        t.total += u.total_tokens.unwrap_or(u.input_tokens + u.output_tokens);
                    }
                    self.count(|r| r.tokens = Some(t));
                }
                self.end_run(o, Some(at.ts), at.origin);
            }
            Event::RunError { message, code, .. } => {
                let (code, message) = (code.as_ref().map(|c| c.to_string()), message.clone());
                let line = Line::Error {
                    code: code.clone(),
                    message: message.clone(),
                };
                self.push(Kind::Error, line, 1, at, true);
                self.end_run(Outcome::Error { code, message }, Some(at.ts), at.origin);
            }
            _ => {}
        }
    }

    /// A step or sub-agent starting or ending.
    fn on_step_event(&mut self, ev: &Event, at: At) {
        match ev {
            Event::StepStarted { step_name, .. } => {
                let depth = self.depth_step();
                self.step_start(step_name.clone(), step_name.clone(), depth, at);
            }
            // A sub-agent is an open span keyed by its id, shown with its name and the tool
            // call it runs under; its steps and items nest in it.
            Event::SubagentStarted {
                subagent_run_id: id,
                name,
                parent_tool_call_id,
                ..
            } => {
                let shown = match parent_tool_call_id {
                    Some(call) => format!("subagent {name} {id} (in tool call {call})"),
                    None => format!("subagent {name} {id}"),
                };
                // A sub-agent is indented under the step running its parent tool call.
                let last = self.open.steps.last();
                let step = last.and_then(|(_, i)| self.entries.get(*i));
                let depth = step.map_or_else(|| self.depth_content(), |e| e.depth + 1);
                self.step_start(format!("subagent {id}"), shown, depth, at);
            }
            Event::StepFinished { step_name, .. } => {
                self.step_end(ev, step_name, step_name.clone(), at)
            }
            Event::SubagentFinished {
                subagent_run_id: id,
                ..
            }
            | Event::SubagentError {
                subagent_run_id: id,
                ..
            } => {
                let key = format!("subagent {id}");
                let shown = match ev {
                    Event::SubagentError { message, .. } => format!("{key} failed: {message}"),
                    Event::SubagentFinished { outcome, .. } if outcome["type"] == "suspended" => {
                        let ids = list_of(outcome, "interruptIds").iter();
                        let ids: Vec<&str> = ids.filter_map(Value::as_str).collect();
                        format!("{key} suspended at interrupt {}", ids.join(", "))
                    }
                    _ => key.clone(),
                };
                self.step_end(ev, &key, shown, at)
            }
            _ => {}
        }
    }

    /// A text message's, reasoning (or older thinking) block's or tool call's events: a
    /// [`piece`] grows its span; the others end or mark the span.
    fn on_span_event(&mut self, ev: &Event, at: At) {
        use Kind::{Reasoning, Text, Tool};
        if let Some(p) = piece(ev) {
            return self.span(&p, at);
        }
        match ev {
            Event::TextMessageEnd { message_id, .. } => self.end_span(Text, message_id, at),
            // REASONING_END closes a block whose message never started (no content).
            Event::ReasoningMessageEnd { message_id, .. }
            | Event::ReasoningEnd { message_id, .. } => self.end_span(Reasoning, message_id, at),
            Event::ThinkingTextMessageEnd { .. } | Event::ThinkingEnd { .. } => {
                self.end_span(Reasoning, "", at)
            }
            Event::ReasoningEncryptedValue { entity_id, .. } => {
                self.encrypted(entity_id.clone(), at)
            }
            Event::ToolCallEnd { tool_call_id, .. } => {
                if let Some(i) = self.open_span(Tool, tool_call_id) {
                    if let Line::Tool(t) = self.touch(i, at) {
                        t.args_done = true;
                    }
                }
            }
            Event::ToolCallResult {
                tool_call_id,
                content,
                metadata,
                ..
            } => {
                let content = content.shown();
                let is_error = metadata.as_ref().is_some_and(|m| m.status == "error");
                self.tool_result(tool_call_id, content, is_error, at);
            }
            _ => {}
        }
    }

    /// The id of a piece: a chunk without one continues the previous chunk of its kind (AG-UI
    /// chunk rules).
    fn piece_id(&mut self, p: &Piece) -> String {
        let id = p.id.map(str::to_string);
        if !p.chunk {
            return id.unwrap_or_default();
        }
        let id = id.or_else(|| self.open.last_chunk.get(&p.kind).cloned());
        let id = id.unwrap_or_default();
        self.open.last_chunk.insert(p.kind, id.clone());
        id
    }

    /// A state or messages snapshot, or a state delta.
    fn on_state_event(&mut self, ev: &Event, at: At) {
        let (what, detail, messages) = match ev {
            Event::StateSnapshot { snapshot, .. } => {
                let (tree, msgs) = snapshot.outline();
                let detail = match tree {
                    Value::Object(o) => {
                        let keys: Vec<&str> = o.keys().map(String::as_str).collect();
                        let msgs = msgs.map(|n| format!(" · messages: {n}"));
                        format!("keys: {}{}", keys.join(", "), msgs.unwrap_or_default())
                    }
                    other => json_text(other),
                };
                ("state snapshot", detail, msgs)
            }
            Event::StateDelta { delta, .. } => ("state delta", count(delta.len(), "op"), None),
            Event::MessagesSnapshot { messages, .. } => {
                let n = messages.len();
                ("messages snapshot", count(n, "message"), Some(n))
            }
            _ => return,
        };
        let line = Line::State {
            what,
            detail,
            messages,
        };
        self.push(Kind::State, line, self.depth_content(), at, true);
    }

    /// A custom, raw or activity event, or one of no AG-UI type.
    fn on_other_event(&mut self, ev: &Event, at: At) {
        let detail = match ev {
            Event::Custom { name, value, .. } => return self.custom(name, value, at),
            Event::Raw { event, .. } => json_text(event),
            Event::ActivitySnapshot { activity_type, .. }
            | Event::ActivityDelta { activity_type, .. } => activity_type.clone(),
            // An event the schema rejects, or of no AG-UI type.
            Event::Passthrough(v) => {
                let detail = str_of(v, "activityType").or_else(|| str_of(v, "messageId"));
                detail.unwrap_or_default()
            }
            _ => return,
        };
        self.other(Kind::Other, self.depth_content(), ev, detail, at);
    }

    /// A `RUN_FINISHED`'s outcome; an interrupt's each get a line.
    fn outcome(&mut self, outcome: &Value, at: At) -> Outcome {
        match outcome.get("type").and_then(Value::as_str) {
            Some("interrupt") => {
                let mut ids = Vec::new();
                for i in list_of(outcome, "interrupts") {
                    let id = str_of(i, "id").unwrap_or_default();
                    let reason = str_of(i, "reason").unwrap_or_default();
                    ids.push((id.clone(), reason.clone()));
                    let message = str_of(i, "message");
                    let line = Line::Interrupt {
                        id,
                        reason,
                        message,
                        value: i.clone(),
                    };
                    self.push(Kind::Interrupt, line, 1, at, true);
                }
                Outcome::Interrupt { interrupts: ids }
            }
            Some("cancelled") => Outcome::Cancelled,
            _ => Outcome::Success {
                pending_tool_calls: list_of(outcome, "pendingToolCallIds")
                    .iter()
                    .filter_map(|v| v.as_str().map(str::to_string))
                    .collect(),
            },
        }
    }

    /// A step (or a sub-agent) opens: an open span keyed `key`, shown as `shown`.
    fn step_start(&mut self, key: String, shown: String, depth: usize, at: At) {
        let line = Line::StepStart {
            name: shown,
            finished: false,
        };
        let i = self.push(Kind::Step, line, depth, at, true);
        self.open.steps.push((key, i));
    }

    /// `STEP_FINISHED` (or a sub-agent's end) closes the latest open step keyed `name` (a
    /// sub-agent's: `subagent <id>`); its end line is shown as `shown`.
    fn step_end(&mut self, ev: &Event, name: &str, shown: String, at: At) {
        let pos = self.open.steps.iter().rposition(|(n, _)| n == name);
        let Some(pos) = pos else {
            let detail = format!("{name} (never started)");
            return self.other(Kind::Step, self.depth_step(), ev, detail, at);
        };
        let (_, start) = self.open.steps.remove(pos);
        if let Line::StepStart { finished, .. } = self.touch(start, at) {
            *finished = true;
        }
        let e = &self.entries[start];
        let depth = e.depth;
        let line = Line::StepEnd {
            name: shown,
            duration_ms: e.duration_ms(),
            events: self.index.saturating_sub(e.index) + 1,
        };
        self.push(Kind::Step, line, depth, at, true);
    }

    /// A text, reasoning or tool call's start or more of it: its open entry grows by the
    /// delta, or a new one (of its id and first delta; a message's role, a call's name) is made
    /// and counted on the run.
    fn span(&mut self, p: &Piece, at: At) {
        let (kind, delta) = (p.kind, p.delta);
        let key = (kind, self.piece_id(p));
        if let Some(&i) = self.open.spans.get(&key) {
            // More of an open entry: its delta appended.
            if let Line::Text { text, .. } | Line::Tool(ToolCall { args: text, .. }) =
                self.touch(i, at)
            {
                text.push_str(delta);
            }
            return;
        }
        let (id, text) = (key.1.clone(), delta.to_string());
        let line = match kind {
            Kind::Tool => Line::Tool(ToolCall {
                id,
                name: p.named.unwrap_or("?").to_string(),
                args: text,
                ..ToolCall::default()
            }),
            _ => text_line(id, p.named, text, 0),
        };
        let i = self.push(kind, line, self.depth_content(), at, false);
        self.open.spans.insert(key, i);
        // Entries opened by a chunk need no END.
        if p.chunk {
            self.open.chunked.push(i);
        }
        self.count(|r| match kind {
            Kind::Text => r.messages += 1,
            Kind::Reasoning => r.reasoning += 1,
            _ => r.tool_calls += 1,
        });
    }

    /// The name of tool call `cid`: its open entry's, else its newest entry's.
    pub(crate) fn tool_name(&self, cid: &str) -> Option<&str> {
        let open = self.open_span(Kind::Tool, cid).map(|i| &self.entries[i]);
        let mut entries = open.into_iter().chain(self.entries.iter().rev());
        entries.find_map(|e| match &e.line {
            Line::Tool(t) if t.id == cid => Some(t.name.as_str()),
            _ => None,
        })
    }

    /// The open text, reasoning or tool call entry of an id.
    fn open_span(&self, kind: Kind, id: &str) -> Option<usize> {
        self.open.spans.get(&(kind, id.to_string())).copied()
    }

    /// A text message's or reasoning block's end.
    fn end_span(&mut self, kind: Kind, id: &str, at: At) {
        if let Some(i) = self.open.spans.remove(&(kind, id.to_string())) {
            self.close(i, at);
        }
    }

    /// An encrypted value counts on its reasoning block (a line of its own when that block
    /// is printed already), or is a block of its own.
    fn encrypted(&mut self, eid: String, at: At) {
        let found = self.entries.iter().rposition(|e| {
            e.kind == Kind::Reasoning && matches!(&e.line, Line::Text { id, .. } if *id == eid)
        });
        let Some(i) = found else {
            let depth = self.depth_content();
            let line = text_line(eid, None, String::new(), 1);
            self.push(Kind::Reasoning, line, depth, at, true);
            self.count(|r| r.reasoning += 1);
            return;
        };
        let e = &mut self.entries[i];
        if let Line::Text { encrypted, .. } = &mut e.line {
            *encrypted += 1;
        }
        if e.settled {
            let (depth, what) = (e.depth, "encrypted reasoning".into());
            let line = Line::Other { what, detail: eid };
            self.push(Kind::Reasoning, line, depth, at, true);
        }
    }

    fn tool_result(&mut self, cid: &str, content: String, is_error: bool, at: At) {
        let i = match self.open.spans.remove(&(Kind::Tool, cid.to_string())) {
            Some(i) => i,
            None => {
                let depth = self.depth_content();
                // A call announced in an earlier run (resumed after an interrupt).
                let name = self.tool_name(cid).unwrap_or("?").to_string();
                let id = cid.to_string();
                let line = Line::Tool(ToolCall {
                    id,
                    name,
                    ..ToolCall::default()
                });
                self.push(Kind::Tool, line, depth, at, false)
            }
        };
        if let Line::Tool(t) = self.close(i, at) {
            t.result = Some(content);
            t.error = is_error;
            t.args_done = true;
        }
    }

    /// A `CUSTOM` event; a tool's streamed output counts on its call. The value is kept as its
    /// compact text (a string as the string), read as a tree only for a tool's output.
    fn custom(&mut self, name: &str, value: &Payload, at: At) {
        if name == TOOL_OUTPUT_DELTA {
            let value = value.to_value();
            let cid = value["toolCallId"].as_str().unwrap_or_default();
            let n = value["delta"].as_str().map_or(0, |d| d.chars().count());
            if let Some(i) = self.open_span(Kind::Tool, cid) {
                if let Line::Tool(t) = self.touch(i, at) {
                    t.streamed_output += n;
                }
                return;
            }
        }
        let depth = self.depth_content();
        let text = value.get();
        let value = match text.starts_with('"') {
            true => serde_json::from_str::<String>(text).unwrap_or_default(),
            false => text.to_string(),
        };
        let line = Line::Custom {
            name: name.to_string(),
            value,
        };
        self.push(Kind::Custom, line, depth, at, true);
    }

    /// A line of an event's type (lower case) and `detail`.
    fn other(&mut self, kind: Kind, depth: usize, ev: &Event, detail: String, at: At) {
        let what = ev.type_name().to_ascii_lowercase();
        self.push(kind, Line::Other { what, detail }, depth, at, true);
    }
}

/// What a text message's, reasoning (or older thinking) block's or tool call's start, content
/// or chunk event says: the timeline and `diff` each grow a span of it.
pub(crate) struct Piece<'a> {
    /// [`Kind::Text`], [`Kind::Reasoning`] or [`Kind::Tool`].
    pub kind: Kind,
    /// None: a legacy THINKING event, or a chunk that continues the last one.
    pub id: Option<&'a str>,
    pub delta: &'a str,
    /// A message's role or a call's name, when the event gives it.
    pub named: Option<&'a str>,
    /// A tool call's parent message, when the event gives it.
    pub parent: Option<&'a str>,
    /// A `*_CHUNK` (the entry it opens needs no END).
    pub chunk: bool,
}

/// The [`Piece`] an event is, if any.
pub(crate) fn piece(ev: &Event) -> Option<Piece<'_>> {
    use Kind::{Reasoning, Text, Tool};
    // Its kind, role or name, parent message and whether a chunk; its id and delta are read
    // off the event ([`Event::item`], [`Event::delta`]).
    let (kind, named, parent, chunk) = match ev {
        Event::TextMessageStart { role, .. } => (Text, Some(role.as_str()), None, false),
        Event::TextMessageContent { .. } => (Text, None, None, false),
        Event::TextMessageChunk { role, .. } => (Text, role.map(Role::as_str), None, true),
        Event::ReasoningMessageStart { .. }
        | Event::ReasoningMessageContent { .. }
        | Event::ThinkingTextMessageStart { .. }
        | Event::ThinkingTextMessageContent { .. } => (Reasoning, None, None, false),
        Event::ReasoningMessageChunk { .. } => (Reasoning, None, None, true),
        Event::ToolCallStart {
            tool_call_name: name,
            parent_message_id: parent,
            ..
        } => (Tool, Some(name.as_str()), parent.as_deref(), false),
        Event::ToolCallArgs { .. } => (Tool, None, None, false),
        Event::ToolCallChunk {
            tool_call_name: name,
            parent_message_id: parent,
            ..
        } => (Tool, name.as_deref(), parent.as_deref(), true),
        _ => return None,
    };
    let id = match ev {
        Event::TextMessageChunk { message_id: id, .. }
        | Event::ReasoningMessageChunk { message_id: id, .. }
        | Event::ToolCallChunk {
            tool_call_id: id, ..
        } => id.as_deref(),
        _ => ev.item().map(String::as_str),
    };
    let delta = ev.delta().unwrap_or_default();
    Some(Piece {
        kind,
        id,
        delta,
        named,
        parent,
        chunk,
    })
}

/// A message's or reasoning block's line (by the assistant unless `role` says otherwise).
fn text_line(id: String, role: Option<&str>, text: String, encrypted: usize) -> Line {
    Line::Text {
        id,
        role: role.unwrap_or(Role::Assistant.as_str()).to_string(),
        text,
        encrypted,
        cut: false,
    }
}
