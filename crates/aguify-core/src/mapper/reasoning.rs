//! Reasoning spans: a model's reasoning blocks (one span open at a time) and the
//! `--tool-steps reasoning` narration.

use super::*;

impl Mapper {
    pub(super) fn reasoning_delta(
        &mut self,
        message_id: &str,
        block: &str,
        text: String,
        out: &mut Vec<Event>,
    ) {
        let key = (message_id.to_string(), block.to_string());
        let open = self.run_mut().reasoning_open.get(&key).cloned();
        let rid = match open {
            Some(rid) => rid,
            None => {
                // Reasoning and text of a message may overlap: the text stays open. Two
                // reasoning spans never overlap (a summary's next part, another block or
                // message, the tool-step narration): the open one ends first, as a client
                // shows one reasoning message at a time (issue 22.9).
                self.close_all_reasoning(out);
                self.close_narration(out);
                let run = self.run_mut();
                let rid = numbered(&mut run.reasoning_ids, reasoning_id(message_id, block));
                run.reasoning_open.insert(key.clone(), rid.clone());
                run.last_reasoning_id.insert(key, rid.clone());
                self.emit_reasoning_open(&rid, out);
                rid
            }
        };
        if !text.is_empty() {
            self.emit_reasoning_content(rid, text, out);
        }
    }

    /// An encrypted reasoning value, under the id of its block's span (open, last, or the
    /// one it would have).
    pub(super) fn reasoning_encrypted(
        &mut self,
        message_id: String,
        block: String,
        encrypted_value: String,
        out: &mut Vec<Event>,
    ) {
        let run = self.run_mut();
        let entity_id = reasoning_id(&message_id, &block);
        let key = (message_id, block);
        let known = (run.reasoning_open.get(&key)).or_else(|| run.last_reasoning_id.get(&key));
        let entity_id = known.cloned().unwrap_or(entity_id);
        let subtype = Subtype::Message;
        let e = own!(ReasoningEncryptedValue {
            subtype,
            entity_id,
            encrypted_value
        });
        self.push(e, out);
    }

    /// Ends every open reasoning span, in the order they opened.
    pub(super) fn close_all_reasoning(&mut self, out: &mut Vec<Event>) {
        self.close_reasoning_where(|_, _| true, out);
    }

    pub(super) fn close_reasoning_of(&mut self, message_id: &str, out: &mut Vec<Event>) {
        self.close_reasoning_where(|(m, _), _| m == message_id, out);
    }

    pub(super) fn close_reasoning_where(
        &mut self,
        which: impl Fn(&(String, String), &str) -> bool,
        out: &mut Vec<Event>,
    ) {
        let Some(run) = self.run.as_mut() else { return };
        for rid in run.take_reasoning(which) {
            self.emit_reasoning_end(rid, out);
        }
    }

    /// REASONING_START + REASONING_MESSAGE_START for one reasoning id.
    fn emit_reasoning_open(&mut self, rid: &str, out: &mut Vec<Event>) {
        let (message_id, role) = (rid.to_string(), Role::Reasoning);
        self.push(own!(ReasoningStart { message_id }), out);
        let message_id = rid.to_string();
        self.push(own!(ReasoningMessageStart { message_id, role }), out);
    }

    fn emit_reasoning_content(&mut self, rid: String, delta: String, out: &mut Vec<Event>) {
        let message_id = rid;
        self.push(own!(ReasoningMessageContent { message_id, delta }), out);
    }

    /// REASONING_MESSAGE_END + REASONING_END for one reasoning id.
    pub(super) fn emit_reasoning_end(&mut self, rid: String, out: &mut Vec<Event>) {
        let message_id = rid.clone();
        self.push(own!(ReasoningMessageEnd { message_id }), out);
        let message_id = rid;
        self.push(own!(ReasoningEnd { message_id }), out);
    }

    pub(super) fn tool_step_line(&mut self, line: String, out: &mut Vec<Event>) {
        let rid = match self.run_mut().narration.clone() {
            Some(rid) => rid,
            None => {
                // The narration is a reasoning span too: the model's open one ends first.
                self.close_all_reasoning(out);
                let run = self.run_mut();
                let base = format!("{}:tool-steps", run.run_id);
                let rid = numbered(&mut run.reasoning_ids, base);
                run.narration = Some(rid.clone());
                self.emit_reasoning_open(&rid, out);
                rid
            }
        };
        self.emit_reasoning_content(rid, line, out);
    }

    /// Closes the tool-step narration if it is open.
    pub(super) fn close_narration(&mut self, out: &mut Vec<Event>) {
        if let Some(rid) = self.run.as_mut().and_then(|r| r.narration.take()) {
            self.emit_reasoning_end(rid, out);
        }
    }

    /// `--compat thinking`: the narration is closed before a tool call event, a text message
    /// or another reasoning block starts. While a thinking block is open, TDesign Chat's AG-UI
    /// adapter only updates the block's current item: a tool result would be dropped, a
    /// nested tool call would swallow the narration after it, and the block's spinner would
    /// turn while the answer streams. A later line opens a new block.
    pub(super) fn close_narration_for_tdesign(&mut self, out: &mut Vec<Event>) {
        if self.opts.compat == Compat::Thinking {
            self.close_narration(out);
        }
    }
}
