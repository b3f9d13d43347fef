//! Reasoning spans: a model's reasoning blocks (one span open at a time) and the
//! `--tool-steps reasoning` narration.

use super::*;

impl Mapper {
    pub(super) fn open_reasoning(
        &mut self,
        message_id: &str,
        block: &str,
        out: &mut Vec<Event>,
    ) -> String {
        let key = (message_id.to_string(), block.to_string());
        if let Some(rid) = self.run_mut().reasoning_open.get(&key) {
            return rid.clone();
        }
        // Reasoning for a message whose text already streams: close the text first is wrong
        // (text may continue); reasoning and text may overlap, so just open the span. Two
        // reasoning spans never overlap (a summary's next part, another block or message,
        // the tool-step narration): the open one ends first, as a client shows one
        // reasoning message at a time (issue 22.9).
        self.close_all_reasoning(out);
        self.close_narration(out);
        let run = self.run_mut();
        let rid = numbered(&mut run.reasoning_ids, reasoning_id(message_id, block));
        run.reasoning_open.insert(key.clone(), rid.clone());
        run.last_reasoning_id.insert(key, rid.clone());
        self.emit_reasoning_open(&rid, out);
        rid
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

    pub(super) fn emit_reasoning_end(&mut self, rid: String, out: &mut Vec<Event>) {
        let timestamp = self.timestamp;
        let end = Event::ReasoningMessageEnd {
            subagent_run_id: None,
            timestamp,
            message_id: rid.clone(),
        };
        self.push(end, out);
        let e = Event::ReasoningEnd {
            subagent_run_id: None,
            timestamp,
            message_id: rid,
        };
        self.push(e, out);
    }

    pub(super) fn tool_step_line(&mut self, line: &str, out: &mut Vec<Event>) {
        if !self.run_mut().tool_steps_open {
            // The narration is a reasoning span too: the model's open one ends first.
            self.close_all_reasoning(out);
            let run = self.run_mut();
            let base = format!("{}:tool-steps", run.run_id);
            let rid = numbered(&mut run.reasoning_ids, base);
            run.tool_steps_open = true;
            run.tool_steps_id = Some(rid.clone());
            self.emit_reasoning_open(&rid, out);
        }
        let rid = self.run_mut().tool_steps_id.clone().unwrap_or_default();
        self.emit_reasoning_content(rid, line.to_string(), out);
    }

    /// Closes the tool-step narration if it is open.
    pub(super) fn close_narration(&mut self, out: &mut Vec<Event>) {
        let Some(run) = self.run.as_mut().filter(|r| r.tool_steps_open) else {
            return;
        };
        run.tool_steps_open = false;
        let rid = run.tool_steps_id.clone().unwrap_or_default();
        self.emit_reasoning_end(rid, out);
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
