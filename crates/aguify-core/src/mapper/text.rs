//! Text messages: a model's streamed text, and a message's end (its reasoning, text and
//! tool calls closed).

use super::*;

impl Mapper {
    pub(super) fn text_delta(&mut self, message_id: String, text: String, out: &mut Vec<Event>) {
        if text.is_empty() || self.opts.text == TextPolicy::Final {
            return;
        }
        self.close_reasoning_of(&message_id, out);
        if !self.run_mut().text_open.contains_key(&message_id) {
            self.close_narration_for_tdesign(out);
            self.run_mut().text_open.insert(message_id.clone(), ());
            self.emit_text_start(&message_id, out);
        }
        self.emit_text_content(message_id, text, out);
    }

    /// A message finished: close its reasoning, its text and its tool calls' argument streams.
    pub(super) fn close_message(&mut self, message_id: &str, out: &mut Vec<Event>) {
        self.close_reasoning_of(message_id, out);
        if self.run_mut().text_open.shift_remove(message_id).is_some() {
            self.emit_text_end(message_id, out);
        }
        // Calls whose name never arrived still get announced, so their args are not lost.
        let stranded: Vec<((String, String), PendingChunks)> = (self.run_mut().tool_buffer)
            .extract_if(.., |(m, _), _| m == message_id)
            .collect();
        for (k, PendingChunks { id, name, args }) in stranded {
            let call_id = id.unwrap_or_else(|| format!("{}:tool:{}", k.0, k.1));
            let name = name.unwrap_or_else(|| "unknown_tool".into());
            self.ensure_tool(&call_id, &name, Some(k.0.clone()), Some(&args), out);
            self.run_mut().tool_index.insert(k, call_id);
        }
        let run = self.run_mut();
        let calls: Vec<String> = run
            .open_tools
            .iter()
            .filter(|id| {
                run.tools
                    .get(*id)
                    .is_some_and(|t| t.parent.as_deref() == Some(message_id))
            })
            .cloned()
            .collect();
        for id in calls {
            self.end_tool(&id, out);
        }
    }
}
