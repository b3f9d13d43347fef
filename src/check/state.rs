//! Shared state (AGX311): every STATE_DELTA must apply, as an RFC 6902 patch, to the state
//! the front end holds. The client applies the patch, warns when it fails and keeps the old
//! state, so the user sees state the agent did not mean. Runs on the chunk-expanded stream,
//! across runs (a thread's state carries over).

use serde::Deserialize;
use serde_json::Value;

use super::ev::Ev;
use super::Ctx;
use crate::agui::EventType;

/// The state as the front end holds it, when the stream shows it.
#[derive(Default)]
pub struct State {
    /// `None` until a STATE_SNAPSHOT or a RUN_STARTED `input.state` echo shows the state: a
    /// delta on state the stream never showed (the client's own initial state) is not judged.
    state: Option<Value>,
}

impl State {
    /// An AG-UI event. `converted` is true when the stream was mapped from a LangGraph log: its
    /// snapshots are checked without their state, so nothing is judged there.
    pub fn feed(&mut self, ev: &Ev<'_>, converted: bool, ctx: &mut Ctx) {
        if converted {
            return;
        }
        match ev.kind {
            Some(EventType::RunStarted) => {
                if let Some(s) = ev.get2("input", "state").filter(|s| !s.is_null()) {
                    self.state = Some(s.clone());
                }
            }
            Some(EventType::StateSnapshot) => {
                if let Some(s) = ev.get("snapshot") {
                    self.state = Some(s.clone());
                }
            }
            Some(EventType::StateDelta) => {
                let (Some(state), Some(delta)) = (&mut self.state, ev.get("delta")) else {
                    return;
                };
                // A malformed patch is the schema's finding (AGX210).
                let Ok(patch) = json_patch::Patch::deserialize(delta) else {
                    return;
                };
                // Applied whole or not at all (the state is left as it was on failure).
                if let Err(e) = json_patch::patch(state, &patch) {
                    let msg = format!("the STATE_DELTA patch does not apply to the state: {e}");
                    ctx.report("AGX311", vec![], msg);
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::{Config, Ctx};
    use serde_json::json;

    fn rules(events: &[Value], converted: bool) -> Vec<&'static str> {
        let mut ctx = Ctx::new("t".into(), Config::default());
        let mut s = State::default();
        for e in events {
            s.feed(&Ev::of(e), converted, &mut ctx);
        }
        ctx.out.iter().map(|f| f.rule).collect()
    }

    #[test]
    fn deltas_must_apply_to_the_state_shown() {
        let snap = json!({"type":"STATE_SNAPSHOT","snapshot":{"count":1,"items":[]}});
        let ok = json!({"type":"STATE_DELTA","delta":[
            {"op":"replace","path":"/count","value":2},
            {"op":"add","path":"/items/-","value":"a"}]});
        let missing =
            json!({"type":"STATE_DELTA","delta":[{"op":"replace","path":"/nope","value":1}]});
        let failed_test =
            json!({"type":"STATE_DELTA","delta":[{"op":"test","path":"/count","value":9}]});
        assert!(rules(&[snap.clone(), ok.clone()], false).is_empty());
        assert_eq!(rules(&[snap.clone(), missing.clone()], false), ["AGX311"]);
        // After `ok`, count is 2: a test for 2 passes, for 9 fails.
        let test2 = json!({"type":"STATE_DELTA","delta":[{"op":"test","path":"/count","value":2}]});
        assert!(rules(&[snap.clone(), ok.clone(), test2], false).is_empty());
        assert_eq!(rules(&[snap.clone(), failed_test], false), ["AGX311"]);
        // A failed patch leaves the state as it was: the next delta applies to it.
        assert_eq!(
            rules(&[snap.clone(), missing.clone(), ok], false),
            ["AGX311"]
        );
        // No state shown yet, or converted input: nothing judged.
        assert!(rules(std::slice::from_ref(&missing), false).is_empty());
        assert!(rules(&[snap, missing.clone()], true).is_empty());
        // The RUN_STARTED input echo shows the state too.
        let start = json!({"type":"RUN_STARTED","threadId":"t","runId":"r",
            "input":{"threadId":"t","runId":"r","messages":[],"state":{"a":1}}});
        assert_eq!(rules(&[start, missing], false), ["AGX311"]);
    }
}
