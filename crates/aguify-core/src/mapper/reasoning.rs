//! Reasoning spans: a model's reasoning blocks (one span open at a time) and the
//! `--tool-steps reasoning` narration.

use super::*;

impl Mapper {
    /// Reasoning text `delta` of `block` (a message's block; `None`: the `--tool-steps`
    /// narration), in the open span when it shows that block, else in a span opened for it
    /// under id `<message id>:reasoning:<block>` (`<run id>:tool-steps`), numbered when it was
    /// used before: REASONING_START + REASONING_MESSAGE_START, then the CONTENT.
    pub(super) fn reasoning_text(
        &mut self,
        block: Option<ReasoningBlock>,
        delta: String,
        out: &mut Vec<Event>,
    ) {
        let open = self.run_mut().reasoning.as_ref();
        let message_id = match open.filter(|s| s.block == block) {
            Some(span) => span.id.clone(),
            // Reasoning and text of a message may overlap: the text stays open. Two reasoning
            // spans never overlap (a summary's next part, another block or message, the
            // tool-step narration): the open one ends first.
            None => {
                let base = match &block {
                    Some(b) => reasoning_id(&b.message_id, &b.block),
                    None => format!("{}:tool-steps", self.last_run_id.as_deref().unwrap_or("")),
                };
                self.close_reasoning_where(|_, _| true, out);
                let run = self.run_mut();
                let id = numbered(&mut run.reasoning_ids, base);
                let id = run.reasoning.insert(Span { id, block }).id.clone();
                let (message_id, role) = (id.clone(), Role::Reasoning);
                self.push(own!(ReasoningStart { message_id }), out);
                let message_id = id.clone();
                self.push(own!(ReasoningMessageStart { message_id, role }), out);
                id
            }
        };
        if !delta.is_empty() {
            self.push(own!(ReasoningMessageContent { message_id, delta }), out);
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
        let base = reasoning_id(&message_id, &block);
        let entity_id = match self.run_mut().reasoning_ids.get(&base) {
            Some(&n) if n > 1 => format!("{base}:{n}"),
            _ => base,
        };
        let e = own!(ReasoningEncryptedValue {
            subtype: Subtype::Message,
            entity_id,
            encrypted_value
        });
        self.push(e, out);
    }

    pub(super) fn close_reasoning_of(&mut self, message_id: &str, out: &mut Vec<Event>) {
        self.close_reasoning_where(
            |s, _| s.block.as_ref().is_some_and(|b| b.message_id == message_id),
            out,
        );
    }

    /// Closes the tool-step narration if it is open.
    pub(super) fn close_narration(&mut self, out: &mut Vec<Event>) {
        self.close_reasoning_where(|s, _| s.block.is_none(), out);
    }

    /// Ends the open reasoning span (REASONING_MESSAGE_END + REASONING_END) when `which` picks
    /// it by the span and its owner (a sub-agent's id, `None`: the run's own agent).
    pub(super) fn close_reasoning_where(
        &mut self,
        which: impl FnOnce(&Span, Option<&str>) -> bool,
        out: &mut Vec<Event>,
    ) {
        let Some(run) = self.run.as_mut() else { return };
        let s = &self.subagents;
        if let Some(Span { id, .. }) = run.reasoning.take_if(|sp| which(sp, s.owner_of(&sp.id))) {
            let message_id = id.clone();
            self.push(own!(ReasoningMessageEnd { message_id }), out);
            self.push(own!(ReasoningEnd { message_id: id }), out);
        }
    }

    /// `--tool-steps reasoning`: a line of the narration.
    pub(super) fn tool_step_line(&mut self, line: std::fmt::Arguments, out: &mut Vec<Event>) {
        if self.opts.tool_steps == ToolSteps::Reasoning {
            self.reasoning_text(None, line.to_string(), out);
        }
    }
}
