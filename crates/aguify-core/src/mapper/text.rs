//! Text messages: a model's streamed text, and a message's end (its reasoning, text and
//! tool calls closed).

use super::*;

impl Mapper {
    pub(super) fn text_delta(&mut self, message_id: String, delta: String, out: &mut Vec<Event>) {
        if delta.is_empty() || self.opts.text == TextPolicy::Final {
            return;
        }
        self.close_reasoning_of(&message_id, out);
        if !self.run_mut().text_open.contains(&message_id) {
            self.close_narration_for_tdesign(out);
            self.run_mut().text_open.insert(message_id.clone());
            self.emit_text_start(&message_id, out);
        }
        self.push(own!(TextMessageContent { message_id, delta }), out);
    }

    /// A message finished: close its reasoning, its text and its tool calls' argument streams.
    pub(super) fn close_message(&mut self, message_id: &str, out: &mut Vec<Event>) {
        self.close_reasoning_of(message_id, out);
        if self.run_mut().text_open.shift_remove(message_id) {
            self.emit_text_end(message_id, out);
        }
        // Calls whose name never arrived still get announced, so their args are not lost.
        let stranded: Vec<((String, String), PendingChunks)> = (self.run_mut().tool_buffer)
            .extract_if(.., |(m, _), _| m == message_id)
            .collect();
        for (k, PendingChunks { id, name, args }) in stranded {
            let call_id = id.unwrap_or_else(|| lc::made_up_call_id(&k.0, &k.1));
            let name = name.unwrap_or_else(|| "unknown_tool".into());
            self.ensure_tool(&call_id, &name, Some(k.0.clone()), Some(&args), out);
            self.run_mut().tool_index.insert(k, call_id);
        }
        let run = self.run_mut();
        let made_here = |id: &&String| {
            let call = run.tools.get(*id);
            call.is_some_and(|t| t.parent.as_deref() == Some(message_id))
        };
        let calls: Vec<String> = run.open_tools.iter().filter(made_here).cloned().collect();
        for id in calls {
            self.end_tool(&id, out);
        }
    }

    pub(super) fn emit_text_start(&mut self, id: &str, out: &mut Vec<Event>) {
        let (message_id, role) = (id.into(), Role::Assistant);
        self.push(own!(TextMessageStart { message_id, role }), out);
    }

    pub(super) fn emit_text_end(&mut self, id: &str, out: &mut Vec<Event>) {
        let message_id = id.into();
        self.push(own!(TextMessageEnd { message_id }), out);
    }

    /// A whole text message: START, CONTENT and END.
    pub(super) fn text_message(&mut self, id: String, text: String, out: &mut Vec<Event>) {
        self.emit_text_start(&id, out);
        let (message_id, delta) = (id.clone(), text);
        self.push(own!(TextMessageContent { message_id, delta }), out);
        self.emit_text_end(&id, out);
    }
}
