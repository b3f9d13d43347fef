//! Text messages: a model's streamed text (a message's end closes it through
//! [`Mapper::close_where`]).

use super::*;

impl Mapper {
    pub(super) fn text_delta(&mut self, message_id: String, delta: String, out: &mut Vec<Event>) {
        if delta.is_empty() || self.opts.text == TextPolicy::Final {
            return;
        }
        self.close_reasoning_of(&message_id, out);
        if !self.run_mut().text_open.contains(&message_id) {
            self.run_mut().text_open.insert(message_id.clone());
            self.emit_text_start(&message_id, out);
        }
        self.push(own!(TextMessageContent { message_id, delta }), out);
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
