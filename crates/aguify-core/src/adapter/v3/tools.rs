//! v3 `tools` events → tool runs: their calls' ids (made up and paired by name and order when
//! the log lost them), and the calls an interrupt suspends.

use crate::json::Field;
use serde_json::Value;

use super::{V3Adapter, IDLESS_TOOLS_WARNING};
use crate::adapter::{json_text, lc, str_field as s, tool_end, tool_failed, Disposition};
use crate::model::ModelEvent;
use crate::wire::v3::Params;

/// A tool call the log gave no id: the id made up for it, its name and args, and whether its
/// tool run started (it leaves the list when it ends).
pub(super) struct IdlessCall {
    pub(super) id: String,
    pub(super) name: Option<String>,
    pub(super) args: String,
    pub(super) started: bool,
}

impl V3Adapter {
    /// A `tools` event in namespace `ns`.
    pub(super) fn on_tools(&mut self, p: &Params, out: &mut Vec<ModelEvent>) -> Disposition {
        let (ns, data) = (p.key.as_str(), p.data.value());
        let id = match data.field("tool_call_id") {
            Some(Value::String(id)) if id.is_empty() => self.idless_call(data),
            Some(Value::String(id)) => id.clone(),
            None => return Disposition::bad("v3 `tools` event without `tool_call_id`"),
            Some(other) => {
                let kind = crate::input::json_kind(other);
                let why = format!("whose `tool_call_id` is {kind}: expected a string");
                return Disposition::bad(format!("v3 `tools` event {why}"));
            }
        };
        let name = s(data, "tool_name");
        match data.field_str("event") {
            Some("tool-started") => {
                let input = data.field("input").filter(|v| !v.is_null());
                let args = input.map(|v| json_text(&lc::normalize_cow(v)));
                let name = name.unwrap_or_else(|| "tool".into());
                self.run.nest.tool_started(&id, &name, ns);
                out.push(crate::adapter::tool_start(id, name, args, None));
            }
            Some("tool-output-delta") => {
                let delta = data.field("delta").map_or_else(String::new, json_text);
                out.push(ModelEvent::ToolOutputDelta {
                    tool_call_id: id,
                    delta,
                });
            }
            Some(end @ ("tool-finished" | "tool-error")) => {
                self.run.nest.tool_ended(&id);
                out.push(if end == "tool-error" {
                    let text = s(data, "message").unwrap_or_else(|| "tool error".into());
                    tool_failed(id, name, text)
                } else {
                    let output =
                        lc::normalize_owned(data.field("output").cloned().unwrap_or_default());
                    let output = lc::command_tool_message(&output, Some(&id)).unwrap_or(output);
                    tool_end(id, name, &output)
                });
            }
            _ => return Disposition::Ignored("v3 tool event kind aguify does not map"),
        }
        Disposition::Mapped
    }

    /// At the end of a run that stopped at an interrupt: the tool calls still open were
    /// suspended by `interrupt()` inside their tool (issue 22.7), not cut off. v3 does not
    /// say which tool raised which interrupt: with one call open, the interrupts name it.
    /// Returns whether the open calls are accounted for so.
    pub(super) fn suspend_open_tools(&mut self, out: &mut Vec<ModelEvent>) -> bool {
        if self.run.interrupts.is_empty() || self.run.nest.calls.is_empty() {
            return false;
        }
        if let [call] = &std::mem::take(&mut self.run.nest.calls)[..] {
            let mut list = self.run.interrupts.clone();
            for i in &mut list {
                i.tool_call_id = Some(call.id.clone());
            }
            out.push(ModelEvent::Interrupt(list));
        }
        true
    }

    /// The call a `tools` event with `tool_call_id: ""` belongs to (issue 39.2): a call the
    /// log gave no id, by name (and, to start it, by args) in the order the model made them;
    /// a run is told once that the log lost the ids. `""` when no such call is left.
    fn idless_call(&mut self, data: &Value) -> String {
        if !std::mem::replace(&mut self.run.idless_told, true) {
            self.warning = Some(format!(
                "{IDLESS_TOOLS_WARNING}: the log lost the tool call ids; each tool run is \
                 paired with a call of its model message by name and order (ids made up as \
                 `<message id>:tool:<block index>`)"
            ));
        }
        let event = data.field_str("event");
        let name = s(data, "tool_name").or_else(|| {
            let output = data.field("output")?;
            s(output, "name").or_else(|| s(output.field("kwargs")?, "name"))
        });
        let same_name = |c: &IdlessCall| name.is_none() || c.name == name;
        let calls = &mut self.run.idless_calls;
        let starts = event == Some("tool-started");
        let at = if starts {
            let input = data.field("input").map(|v| match v {
                Value::String(s) => serde_json::from_str(s).unwrap_or(Value::Null),
                v => lc::normalize_cow(v).into_owned(),
            });
            let same_args = |c: &IdlessCall| {
                input.is_some() && serde_json::from_str::<Value>(&c.args).ok() == input
            };
            let waiting = |c: &IdlessCall| !c.started && same_name(c);
            (calls.iter().position(|c| waiting(c) && same_args(c)))
                .or_else(|| calls.iter().position(waiting))
        } else {
            (calls.iter()).position(|c| c.started && same_name(c))
        };
        let Some(at) = at else {
            return String::new();
        };
        if starts {
            calls[at].started = true;
        } else if matches!(event, Some("tool-finished" | "tool-error")) {
            return calls.remove(at).id;
        }
        calls[at].id.clone()
    }
}
