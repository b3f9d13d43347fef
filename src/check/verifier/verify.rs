//! `verifyEvents`: the 24 lifecycle rules (AGX101–AGX124) with the client's exact messages.

use foldhash::fast::RandomState as FastIds;
use serde_json::Value;
use std::collections::{HashMap, HashSet};

use super::{owner_name, Ev, LIVES};
use crate::agui::{EventType, Msg};
use crate::check::ev::Src;
use crate::check::strict::id_hash as h;
use crate::json::Field;
use crate::text::list_of;

/// The owner (subagent run; `None`: the parent agent) of each id of one entity kind, by id
/// hash, retained for the run after the item closes, as the client keeps them: a reopen or a
/// late continuation is checked against whoever opened the id first. Only the last 65,536 ids
/// of a kind are kept, so a run of millions of items (a long-running agent's stream) is checked
/// in flat memory; an id that old is not checked against its first owner.
type Owners = crate::recent::Recent<u64, Option<String>, { 1 << 16 }, foldhash::fast::RandomState>;

/// The client's owner buckets, by these indices: an id is unique only within its kind.
type OwnerBuckets = [Owners; 4];
pub(super) const MESSAGE: usize = 0;
pub(super) const TOOL_CALL: usize = 1;
pub(super) const REASONING: usize = 2;
const ACTIVITY: usize = 3;
/// How an owner mismatch names an item of each bucket.
const BUCKET_NOUNS: [&str; 4] = ["message", "tool call", "reasoning message", "activity"];

/// The owner on record for `id`, looked up only for a tagged event (`tag`): an untagged
/// continuation agrees with any owner, and most continuations are untagged.
fn tagged<'a>(owners: &'a Owners, id: &str, tag: Option<&str>) -> Option<&'a Option<String>> {
    tag.and_then(|_| owners.get(&h(id)))
}

/// Ownership carried over from replayed messages (MESSAGES_SNAPSHOT, the RUN_STARTED
/// `input` echo): each message's owner goes in the bucket its role streams through, and an
/// assistant message's tool calls under the message's owner. A snapshot is `authoritative`
/// (its owners replace recorded ones); the input echo only fills ids not yet on record.
fn seed(owners: &mut OwnerBuckets, messages: Option<Vec<Msg<'_>>>, authoritative: bool) {
    for m in messages.into_iter().flatten() {
        let Some(id) = m.id() else {
            continue;
        };
        let owner = m.extra("subagentRunId").and_then(Value::as_str);
        let bucket = match m.role() {
            Some("reasoning") => REASONING,
            Some("activity") => ACTIVITY,
            _ => MESSAGE,
        };
        let ids = std::iter::once((bucket, id)).chain(m.call_ids().map(|t| (TOOL_CALL, t)));
        for (b, id) in ids {
            if authoritative || owners[b].get(&h(id)).is_none() {
                owners[b].insert(h(id), owner.map(str::to_string));
            }
        }
    }
}

/// The ids of one kind of open item, each with its place in the opening order. Closing one is
/// O(1); the opening order is restored by sorting only when the ids are listed (at a run's
/// end), so closing N items that are all open costs N, not N² as an ordered remove.
type OpenIds = HashMap<String, u64, FastIds>;

/// The ids of `open`, in opening order.
fn listed(open: &OpenIds) -> Vec<String> {
    let v: std::collections::BTreeMap<&u64, &String> = open.iter().map(|(id, n)| (n, id)).collect();
    v.into_values().cloned().collect()
}

/// Per-run state of `verifyEvents`: which items are open, and who owns each id.
#[derive(Default)]
struct RunState {
    /// The open items of each of [`LIVES`].
    open: [OpenIds; 4],
    steps: Vec<(String, Option<String>)>,
    subagents: OpenIds,
    subagents_done: HashSet<String, FastIds>,
    /// Items opened so far (an open id's place in [`OpenIds`]).
    opened: u64,
    owners: OwnerBuckets,
}

impl RunState {
    /// The start of item `life` ([`LIVES`]): a new id; the first opener of an id owns it for
    /// the run: a reopen must agree, and an untagged reopen does not hand the id to the parent.
    /// A tool call belongs to its parent message: a tag must agree with the message's owner,
    /// and an untagged call inherits it.
    fn start(&mut self, life: usize, ev: &Ev<'_>, t: &str, et: Option<&str>) -> VResult {
        let l = &LIVES[life];
        let id = ev.s(l.id).unwrap_or("");
        if self.open[life].contains_key(id) {
            let (noun, end) = (l.noun, l.end.as_str());
            let msg = format!("Cannot send '{t}' event: A {noun} with ID '{id}' is already in progress. Complete it with '{end}' first.");
            return err(l.rules[0], msg, &[id]);
        }
        let parent = ev.s("parentMessageId").filter(|_| l.owners == TOOL_CALL);
        let inherited = parent.and_then(|p| self.owners[MESSAGE].get(&h(p)).cloned());
        if let (Some(sa), Some(p), Some(po)) = (et, parent, &inherited) {
            if po.as_deref() != Some(sa) {
                let po = owner_name(po.as_deref());
                let msg = format!("Cannot send 'TOOL_CALL_START': subagentRunId '{sa}' does not match its parent message '{p}' owner '{po}'. A tool call belongs to the message that carries it.");
                return err("AGX113", msg, &[id, p]);
            }
        }
        let existing = self.owners[l.owners].get(&h(id));
        Verify::continuation(t, BUCKET_NOUNS[l.owners], id, et, existing)?;
        if let (None, Some(o), Some(po)) = (et, existing, &inherited) {
            if o != po {
                let (o, po, p) = (owner_name(o.as_deref()), owner_name(po.as_deref()), parent);
                let p = p.unwrap_or("");
                let msg = format!("Cannot send 'TOOL_CALL_START': tool call '{id}' is owned by '{o}' but its parent message '{p}' is owned by '{po}'. A tool call belongs to the message that carries it.");
                return err("AGX113", msg, &[id, p]);
            }
        }
        if existing.is_none() {
            let owner = et.map(str::to_string).or(inherited.flatten());
            self.owners[l.owners].insert(h(id), owner);
        }
        self.opened += 1;
        self.open[life].entry(id.to_string()).or_insert(self.opened);
        Ok(())
    }

    /// The content or end of item `life`: an open id (an end closes it before its owner is
    /// checked: a mismatch stops the verification, so the open set is not read again), the
    /// same owner.
    fn continues(&mut self, life: usize, ev: &Ev<'_>, t: &str, et: Option<&str>) -> VResult {
        let l = &LIVES[life];
        let end = ev.kind == Some(l.end);
        let id = ev.s(l.id).unwrap_or("");
        let open = match end {
            true => self.open[life].remove(id).is_some(),
            false => self.open[life].contains_key(id),
        };
        if !open {
            // The client's words: an end "must be sent first" where it says so.
            let (noun, start) = (l.noun, l.start.as_str());
            let tail = match end && l.end_sent_first {
                true => format!("A '{start}' event must be sent first."),
                false => format!("Start a {noun} with '{start}' first."),
            };
            let msg =
                format!("Cannot send '{t}' event: No active {noun} found with ID '{id}'. {tail}");
            return err(l.rules[usize::from(end) + 1], msg, &[id]);
        }
        let owner = tagged(&self.owners[l.owners], id, et);
        Verify::continuation(t, BUCKET_NOUNS[l.owners], id, et, owner)
    }

    /// A STEP_STARTED: a name not open already for the same owner.
    fn step_started(&mut self, ev: &Ev<'_>, et: Option<&str>) -> VResult {
        let name = ev.s("stepName").unwrap_or("");
        if (self.steps.iter()).any(|(n, o)| n == name && o.as_deref() == et) {
            let sub = et.map_or(String::new(), |s| format!(" in subagent '{s}'"));
            let msg = format!("Step \"{name}\" is already active for 'STEP_STARTED'{sub}");
            return err("AGX115", msg, &[name]);
        }
        self.steps.push((name.to_string(), et.map(str::to_string)));
        Ok(())
    }

    /// A STEP_FINISHED: a step open for the same owner.
    fn step_finished(&mut self, ev: &Ev<'_>, et: Option<&str>) -> VResult {
        let name = ev.s("stepName").unwrap_or("");
        if let Some(i) = (self.steps.iter()).position(|(n, o)| n == name && o.as_deref() == et) {
            self.steps.remove(i);
            return Ok(());
        }
        let who =
            |o: Option<&str>| o.map_or("the parent agent".into(), |s| format!("subagent '{s}'"));
        let msg = match self.steps.iter().find(|(n, _)| n == name) {
            Some((_, o)) => format!(
                "Cannot send 'STEP_FINISHED' for step \"{name}\" attributed to {}: that step is open under {}. A step must be finished by whoever started it.",
                who(et),
                who(o.as_deref())
            ),
            None => format!("Cannot send 'STEP_FINISHED' for step \"{name}\" that was not started"),
        };
        err("AGX116", msg, &[name])
    }

    /// A SUBAGENT_STARTED: tagged and named, a new id, a known parent.
    fn subagent_started(&mut self, ev: &Ev<'_>, et: Option<&str>) -> VResult {
        const NO: &str = "Cannot send 'SUBAGENT_STARTED'";
        let Some(id) = et else {
            return err("AGX120", format!("{NO} without a 'subagentRunId'."), &[]);
        };
        let known = |s: &str| self.subagents.contains_key(s) || self.subagents_done.contains(s);
        let why = if ev.s("name").is_none() {
            " without a 'name'.".to_string()
        } else if self.subagents.contains_key(id) {
            format!(
                ": subagent '{id}' is already active. Finish it with 'SUBAGENT_FINISHED' first."
            )
        } else if self.subagents_done.contains(id) {
            format!(": subagent '{id}' has already finished in this run. Subagent IDs are per-invocation and cannot be reused.")
        } else if let Some(p) = ev.s("parentSubagentRunId").filter(|p| !known(p)) {
            let msg = format!("{NO}: parentSubagentRunId '{p}' has not been started in this run.");
            return err("AGX120", msg, &[id, p]);
        } else {
            self.opened += 1;
            self.subagents.entry(id.to_string()).or_insert(self.opened);
            return Ok(());
        };
        err("AGX120", format!("{NO}{why}"), &[id])
    }

    /// A SUBAGENT_FINISHED or SUBAGENT_ERROR: tagged, of an active sub-agent.
    fn subagent_ended(&mut self, ev: &Ev<'_>, t: &str, et: Option<&str>) -> VResult {
        let Some(id) = et else {
            let msg = format!("Cannot send '{t}' without a 'subagentRunId'.");
            return err("AGX121", msg, &[]);
        };
        let msg = if ev.kind == Some(EventType::SubagentError) && ev.s("message").is_none() {
            format!("Cannot send '{t}' without a 'message'.")
        } else if self.subagents.remove(id).is_none() {
            format!("Cannot send '{t}': no active subagent found with ID '{id}'. A 'SUBAGENT_STARTED' event must be sent first.")
        } else {
            self.subagents_done.insert(id.to_string());
            return Ok(());
        };
        err("AGX121", msg, &[id])
    }
}

/// `verifyEvents`.
#[derive(Default)]
pub struct Verify {
    seen_first: bool,
    started: bool,
    finished: bool,
    errored: bool,
    run: RunState,
}

type VResult = Result<(), (&'static str, String, Vec<String>)>;

fn err(rule: &'static str, msg: impl Into<String>, ids: &[&str]) -> VResult {
    let ids = ids.iter().map(|s| s.to_string()).collect();
    Err((rule, msg.into(), ids))
}

/// Rules 5–8 and 22: optional fields written as null, and a subagent outcome's shape.
fn optional_nulls(ev: &Ev<'_>, t: &str) -> VResult {
    const OMIT: &str = "The field is optional — omit it entirely.";
    let null = |v: Option<&Value>| v.is_some_and(Value::is_null);
    let null_fields: &[&str] = match ev.kind {
        Some(EventType::SubagentStarted) => &[
            "description",
            "parentSubagentRunId",
            "parentToolCallId",
            "parentMessageId",
        ],
        Some(EventType::SubagentFinished) => &["outcome"],
        Some(EventType::SubagentError) => &["code"],
        _ => &[],
    };
    // A string `subagentRunId` is not null; a typed event has no null one either.
    let sub: &[&str] = match (ev.sub, ev.src) {
        (None, Src::Json(_)) => &["subagentRunId"],
        _ => &[],
    };
    for (rule, fields) in [("AGX105", sub), ("AGX106", null_fields)] {
        if let Some(f) = fields.iter().find(|f| null(ev.get(f))) {
            let msg = format!("Cannot send '{t}' with '{f}: null'. {OMIT}");
            return err(rule, msg, &[]);
        }
    }
    // The outcome of an event of kind `k`.
    let outcome = |k| (ev.kind == Some(k)).then(|| ev.get("outcome")).flatten();
    if let Some(o) = outcome(EventType::SubagentFinished) {
        let ot = o.field_str("type").unwrap_or("undefined");
        let ids = o.field("interruptIds");
        let why = match ids {
            _ if ot != "success" && ot != "suspended" => format!("with outcome type '{ot}'. The outcome is either {{ type: \"success\" }} or {{ type: \"suspended\" }}."),
            Some(Value::Null) => format!("with 'outcome.interruptIds: null'. {OMIT}"),
            Some(Value::Array(a)) if a.iter().any(|x| !x.is_string()) => {
                "with a non-string entry in 'outcome.interruptIds'. Interrupt ids are strings.".into()
            }
            _ => String::new(),
        };
        if !why.is_empty() {
            return err("AGX107", format!("Cannot send '{t}' {why}"), &[]);
        }
    }
    let finished = outcome(EventType::RunFinished);
    let interrupts = finished.map_or(&[][..], |o| list_of(o, "interrupts"));
    if let Some(i) = interrupts.iter().find(|i| null(i.field("subagentRunId"))) {
        let id = i.field_str("id").unwrap_or("");
        let msg = format!("Cannot send 'RUN_FINISHED' with an interrupt (id '{id}') carrying 'subagentRunId: null'. {OMIT}");
        return err("AGX108", msg, &[id]);
    }
    for m in ev.messages().into_iter().flatten() {
        if m.extra("subagentRunId").is_some_and(Value::is_null) {
            let id = m.id().unwrap_or("");
            let msg =
                format!("Cannot send a message (id '{id}') with 'subagentRunId: null'. {OMIT}");
            return err("AGX122", msg, &[id]);
        }
    }
    Ok(())
}

impl Verify {
    /// Open items at RUN_FINISHED, in the client's order, as (what, ids).
    pub fn open_items(&self) -> Vec<(&'static str, Vec<String>)> {
        let r = &self.run;
        let steps = r.steps.iter().map(|(n, o)| match o {
            Some(o) => format!("{n} (subagent '{o}')"),
            None => n.clone(),
        });
        let mut v = vec![
            ("steps", steps.collect()),
            ("text messages", listed(&r.open[0])),
            ("reasoning messages", listed(&r.open[2])),
            ("reasoning spans", listed(&r.open[3])),
            ("tool calls", listed(&r.open[1])),
            ("subagents", listed(&r.subagents)),
        ];
        v.retain(|(_, ids)| !ids.is_empty());
        v
    }

    /// The id a START event expanded from a chunk (`e`) opens, when it is open already
    /// (opened with an explicit START).
    pub fn open_already<'a>(&self, e: &Ev<'a>) -> Option<&'a str> {
        let life = super::life_of(e.kind).unwrap_or(2);
        e.s(LIVES[life].id)
            .filter(|id| self.run.open[life].contains_key(*id))
    }

    /// Rule 24: a tagged event must agree with the owner on record for its item (`owner`;
    /// `None` when nothing is on record). An untagged event always agrees.
    #[inline]
    fn continuation(
        t: &str,
        what: &str,
        id: &str,
        ev_tag: Option<&str>,
        owner: Option<&Option<String>>,
    ) -> VResult {
        match (ev_tag, owner) {
            (Some(s), Some(o)) if Some(s) != o.as_deref() => {
                Self::not_the_opener(t, what, id, s, o)
            }
            _ => Ok(()),
        }
    }

    #[cold]
    fn not_the_opener(t: &str, what: &str, id: &str, s: &str, o: &Option<String>) -> VResult {
        let o = owner_name(o.as_deref());
        let msg = format!("Cannot send '{t}': subagentRunId '{s}' does not match the {what} '{id}' opener's subagent '{o}'.");
        err("AGX124", msg, &[id, s])
    }

    /// Rules 1–4: nothing after a run errored or finished but a new run, a run first, and
    /// one run at a time.
    fn run_order(&mut self, ev: &Ev<'_>, t: &str) -> VResult {
        let first = !self.seen_first;
        self.seen_first = true;
        let start = ev.kind == Some(EventType::RunStarted);
        let error = ev.kind == Some(EventType::RunError);
        let (rule, msg) = if self.errored && !start {
            let msg = format!("Cannot send event type '{t}': The run has already errored with 'RUN_ERROR'. No further events can be sent.");
            ("AGX101", msg)
        } else if self.finished && !error && !start {
            let msg = format!("Cannot send event type '{t}': The run has already finished with 'RUN_FINISHED'. Start a new run with 'RUN_STARTED'.");
            ("AGX102", msg)
        } else if first && !start && !error {
            ("AGX103", "First event must be 'RUN_STARTED'".into())
        } else if start && self.started && !self.finished && !self.errored {
            let msg = "Cannot send 'RUN_STARTED' while a run is still active. The previous run must be finished with 'RUN_FINISHED' before starting a new run.";
            ("AGX104", msg.into())
        } else {
            return Ok(());
        };
        err(rule, msg, &[])
    }

    /// Verifies one event: the first rule it breaks, with the client's message and the ids.
    pub fn feed(&mut self, ev: &Ev<'_>) -> VResult {
        let t = ev.t();
        self.run_order(ev, t)?;
        optional_nulls(ev, t)?;
        let et = ev.sub;
        let r = &mut self.run;
        if let Some(life) = super::life_of(ev.kind) {
            if ev.kind == Some(LIVES[life].start) {
                return r.start(life, ev, t, et);
            }
            return r.continues(life, ev, t, et);
        }
        match ev.kind {
            Some(EventType::RunStarted) => {
                (self.seen_first, self.started) = (true, true);
                (self.finished, self.errored) = (false, false);
                *r = RunState::default();
                seed(&mut r.owners, ev.messages(), false);
            }
            Some(EventType::MessagesSnapshot) => seed(&mut r.owners, ev.messages(), true),
            Some(EventType::RunError) => self.errored = true,
            Some(EventType::RunFinished) => {
                if let Some((what, ids)) = self.open_items().into_iter().next() {
                    let list = ids.join(", ");
                    let msg =
                        format!("Cannot send 'RUN_FINISHED' while {what} are still active: {list}");
                    return Err(("AGX123", msg, ids));
                }
                self.finished = true;
            }
            Some(EventType::ToolCallResult) => {
                // The result mints the tool message: its owner is the result's tag, the newest
                // mint winning.
                if let Some(mid) = ev.s("messageId") {
                    r.owners[MESSAGE].insert(h(mid), et.map(str::to_string));
                }
            }
            Some(EventType::StepStarted) => r.step_started(ev, et)?,
            Some(EventType::StepFinished) => r.step_finished(ev, et)?,
            Some(EventType::ReasoningEncryptedValue) => {
                // Continues the item `entityId` names, of the kind `subtype` says.
                let id = ev.s("entityId").unwrap_or("");
                let (buckets, what): (&[usize], _) = match ev.s("subtype") {
                    Some("tool-call") => (&[TOOL_CALL], "tool call"),
                    Some("message") => (&[MESSAGE, REASONING], "message"),
                    _ => (&[REASONING], "reasoning message"),
                };
                let owner = buckets.iter().find_map(|&b| r.owners[b].get(&h(id)));
                Self::continuation(t, what, id, et, owner)?;
            }
            Some(EventType::ActivitySnapshot) => {
                // Only a replacing snapshot (`replace` absent or true) re-owns a known activity.
                let id = h(ev.s("messageId").unwrap_or(""));
                let keeps = ev.get("replace").and_then(Value::as_bool) == Some(false);
                if r.owners[ACTIVITY].get(&id).is_none() || !keeps {
                    r.owners[ACTIVITY].insert(id, et.map(str::to_string));
                }
            }
            Some(EventType::ActivityDelta) => {
                let id = ev.s("messageId").unwrap_or("");
                let owner = tagged(&r.owners[ACTIVITY], id, et);
                Self::continuation(t, BUCKET_NOUNS[ACTIVITY], id, et, owner)?;
            }
            Some(EventType::SubagentStarted) => r.subagent_started(ev, et)?,
            Some(EventType::SubagentFinished) | Some(EventType::SubagentError) => {
                r.subagent_ended(ev, t, et)?
            }
            _ => {}
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn open_ids_close_out_of_order_and_list_in_opening_order() {
        use serde_json::json;
        let mut v = Verify::default();
        let mut feed = |e: Value| v.feed(&Ev::of(&e)).map_err(|(rule, msg, _)| (rule, msg));
        assert!(feed(json!({"type":"RUN_STARTED","threadId":"t","runId":"r"})).is_ok());
        for id in ["a", "b", "c", "d", "e"] {
            assert!(feed(json!({"type":"TEXT_MESSAGE_START","messageId":id})).is_ok());
        }
        let end = |id| json!({"type":"TEXT_MESSAGE_END","messageId":id});
        assert!(feed(end("a")).is_ok());
        assert_eq!(feed(end("a")).map_err(|e| e.0), Err("AGX111"));
        assert!(feed(end("d")).is_ok());
        let finished = feed(json!({"type":"RUN_FINISHED","threadId":"t","runId":"r"}));
        let (rule, msg) = finished.expect_err("messages are open");
        assert_eq!(rule, "AGX123");
        assert!(
            msg.ends_with("text messages are still active: b, c, e"),
            "{msg}"
        );
    }

    #[test]
    fn owners_are_a_window() {
        use crate::check::strict::id_hash as h;
        let mut o = Owners::default();
        for i in 0..Owners::WINDOW + 3 {
            o.insert(h(&format!("m{i}")), (i % 2 == 0).then(|| format!("s{i}")));
        }
        assert_eq!(o.len(), Owners::WINDOW);
        assert_eq!(o.get(&h("m2")), None, "forgotten");
        assert_eq!(o.get(&h("m4")), Some(&Some("s4".to_string())));
        assert_eq!(o.get(&h("m5")), Some(&None));
        // A message started again keeps one entry, with its new owner.
        o.insert(h("m4"), None);
        assert_eq!(o.get(&h("m4")), Some(&None));
        assert_eq!(o.len(), Owners::WINDOW);
    }
}
