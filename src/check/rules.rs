//! The rule registry: every rule's stable id, severity, title, explanation, spec section and fix
//! hint. Ids are grouped by hundreds:
//!
//! | ids | family |
//! |---|---|
//! | AGX101–AGX124 | the 24 `verifyEvents` rules of `@ag-ui/client` 1.0 (AGX1NN = rule NN) |
//! | AGX130–AGX133 | `transformChunks` errors of the official client |
//! | AGX2xx | the AG-UI 1.0 event schema (`@ag-ui/core` `EventSchema`) |
//! | AGX3xx | what the client lets through but front ends break on |
//! | AGX4xx | interrupts |
//! | AGX5xx | transport: lines and frames the client cannot read |
//! | AGX6xx | raw LangGraph input |
//! | AGX7xx | content leaks (answer-only front ends) |

pub use crate::text::Severity;

/// One rule; written (as the report's page has its text) as its title, explanation, fix and
/// spec.
#[derive(Debug, Clone, Copy, serde::Serialize)]
pub struct Rule {
    #[serde(skip)]
    pub id: &'static str,
    #[serde(skip)]
    pub severity: Severity,
    /// True when the official `@ag-ui/client` 1.0 pipeline (or the schema the conformance harness
    /// applies) rejects what this rule finds: these findings decide the official verdict.
    #[serde(skip)]
    pub official: bool,
    pub title: &'static str,
    pub explanation: &'static str,
    pub fix: &'static str,
    pub spec: &'static str,
}

use Severity::{Error as E, Warning as W};

macro_rules! rule {
    ($id:literal, $sev:expr, $off:literal, $title:literal, $spec:literal, $expl:literal, $fix:literal) => {
        Rule {
            id: $id,
            severity: $sev,
            official: $off,
            title: $title,
            explanation: $expl,
            spec: $spec,
            fix: $fix,
        }
    };
}

/// Every rule, in id order.
pub static RULES: &[Rule] = &[
    rule!("AGX101", E, true, "event after RUN_ERROR", "@ag-ui/client verifyEvents",
        "After RUN_ERROR the run is over: the client rejects any event except a new RUN_STARTED.",
        "Stop emitting after RUN_ERROR, or start a new run with RUN_STARTED first."),
    rule!("AGX102", E, true, "event after RUN_FINISHED", "@ag-ui/client verifyEvents",
        "After RUN_FINISHED only RUN_ERROR or a new RUN_STARTED may follow.",
        "Emit RUN_FINISHED last, or open a new run with RUN_STARTED."),
    rule!("AGX103", E, true, "first event is not RUN_STARTED", "@ag-ui/client verifyEvents",
        "A stream must open with RUN_STARTED (or RUN_ERROR).",
        "Emit RUN_STARTED {threadId, runId} before anything else."),
    rule!("AGX104", E, true, "RUN_STARTED while a run is active", "@ag-ui/client verifyEvents",
        "A new run may start only after the previous one finished or errored.",
        "Close the previous run with RUN_FINISHED or RUN_ERROR first."),
    rule!("AGX105", E, true, "subagentRunId: null", "@ag-ui/client verifyEvents; @ag-ui/core BaseEvent",
        "`subagentRunId` is optional; null is not a valid value.",
        "Omit the field instead of writing null."),
    rule!("AGX106", E, true, "null optional field on SUBAGENT_*", "@ag-ui/client verifyEvents",
        "Optional SUBAGENT_* fields must be omitted rather than null.",
        "Omit the field instead of writing null."),
    rule!("AGX107", E, true, "invalid SUBAGENT_FINISHED outcome", "@ag-ui/client verifyEvents; @ag-ui/core SubagentFinishedEvent",
        "A subagent outcome is {type:\"success\"} or {type:\"suspended\", interruptIds?: string[]}.",
        "Use one of the two outcome shapes."),
    rule!("AGX108", E, true, "interrupt with subagentRunId: null", "@ag-ui/client verifyEvents",
        "An interrupt of a RUN_FINISHED outcome carries subagentRunId: null.",
        "Omit subagentRunId on the interrupt."),
    rule!("AGX109", E, true, "TEXT_MESSAGE_START for an open message", "@ag-ui/client verifyEvents",
        "A text message with this id is already in progress.",
        "End the message with TEXT_MESSAGE_END before starting it again, or use a new id."),
    rule!("AGX110", E, true, "TEXT_MESSAGE_CONTENT without an open message", "@ag-ui/client verifyEvents",
        "Content was sent for a message id that is not open.",
        "Send TEXT_MESSAGE_START first and keep the message open until its last delta."),
    rule!("AGX111", E, true, "TEXT_MESSAGE_END without an open message", "@ag-ui/client verifyEvents",
        "An END names a message id that is not open.",
        "Send TEXT_MESSAGE_START first; end each message once."),
    rule!("AGX112", E, true, "TOOL_CALL_START for an open tool call", "@ag-ui/client verifyEvents",
        "A tool call with this id is already in progress (a double-fired start).",
        "Emit one TOOL_CALL_START per tool call id; end it with TOOL_CALL_END."),
    rule!("AGX113", E, true, "tool call owner differs from its parent message", "@ag-ui/client verifyEvents",
        "A tool call's subagentRunId must match the owner of its parentMessageId.",
        "Tag the tool call with the same subagentRunId as the message that carries it."),
    rule!("AGX114", E, true, "TOOL_CALL_ARGS/END without an open tool call", "@ag-ui/client verifyEvents",
        "ARGS or END names a tool call id that is not open.",
        "Send TOOL_CALL_START first; end each tool call once."),
    rule!("AGX115", E, true, "STEP_STARTED for an open step", "@ag-ui/client verifyEvents",
        "A step with this name is already active for the same owner.",
        "Finish the step before starting it again."),
    rule!("AGX116", E, true, "STEP_FINISHED without an open step", "@ag-ui/client verifyEvents",
        "The step was not started, or was started by another owner.",
        "Finish steps with the same name and subagentRunId they were started with."),
    rule!("AGX117", E, true, "REASONING_START/REASONING_MESSAGE_START for an open id", "@ag-ui/client verifyEvents",
        "A reasoning span or reasoning message with this id is already in progress.",
        "Close it with REASONING_END / REASONING_MESSAGE_END first."),
    rule!("AGX118", E, true, "reasoning content/end without an open reasoning message", "@ag-ui/client verifyEvents",
        "REASONING_MESSAGE_CONTENT or _END names a reasoning message that is not open.",
        "Send REASONING_MESSAGE_START {messageId, role:\"reasoning\"} first."),
    rule!("AGX119", E, true, "REASONING_END without an open span", "@ag-ui/client verifyEvents",
        "REASONING_END names a reasoning span that is not open.",
        "Send REASONING_START first."),
    rule!("AGX120", E, true, "invalid SUBAGENT_STARTED", "@ag-ui/client verifyEvents",
        "SUBAGENT_STARTED needs subagentRunId and name, a fresh id, and a started parent.",
        "Use a new subagentRunId per invocation and start parents first."),
    rule!("AGX121", E, true, "SUBAGENT_FINISHED/ERROR without an active subagent", "@ag-ui/client verifyEvents",
        "The subagent named is not active.",
        "Send SUBAGENT_STARTED first; finish each subagent once."),
    rule!("AGX122", E, true, "message with subagentRunId: null", "@ag-ui/client verifyEvents",
        "A MESSAGES_SNAPSHOT or RUN_STARTED.input message carries subagentRunId: null.",
        "Omit the field."),
    rule!("AGX123", E, true, "RUN_FINISHED while items are open", "@ag-ui/client verifyEvents",
        "Steps, text messages, reasoning, tool calls and subagents must all be closed before RUN_FINISHED.",
        "Emit the matching *_END / STEP_FINISHED / SUBAGENT_FINISHED events before RUN_FINISHED."),
    rule!("AGX124", E, true, "continuation from another owner", "@ag-ui/client verifyEvents",
        "A continuation event's subagentRunId differs from the subagent that opened the item.",
        "Tag continuations with the opener's subagentRunId, or leave them untagged."),
    rule!("AGX130", E, true, "first chunk lacks an id or name", "@ag-ui/client transformChunks",
        "The first *_CHUNK of a stream must carry messageId (text, reasoning) or toolCallId and toolCallName (tools).",
        "Put the id (and tool name) on the first chunk."),
    rule!("AGX131", E, true, "chunk does not match the open chunk stream", "@ag-ui/client transformChunks",
        "A chunk continuing an open stream changes its role, name, toolCallName or parentMessageId.",
        "Keep these fields constant across the chunks of one stream, or use a new id."),
    rule!("AGX132", E, true, "chunk from another subagent", "@ag-ui/client transformChunks",
        "A chunk continues a stream opened in another subagent's lane.",
        "Tag chunks with the subagentRunId of the stream they continue."),
    rule!("AGX133", E, true, "ambiguous chunk", "@ag-ui/client transformChunks",
        "An untagged chunk without id arrived while several lanes have an open stream.",
        "Give the chunk a messageId/toolCallId or a subagentRunId."),
    rule!("AGX201", E, true, "unknown event type", "@ag-ui/core EventType; @ag-ui/client event parsing",
        "The type is not one of the 31 AG-UI 1.0 event types; the client drops the event.",
        "Emit only AG-UI 1.0 event types (use CUSTOM for your own events)."),
    rule!("AGX202", E, true, "THINKING_* event (removed in 1.0)", "AG-UI 1.0 (THINKING_* removed)",
        "THINKING_* were removed in 1.0; the client only translates them through a deprecation shim.",
        "Emit REASONING_* events instead (a stream made for 0.x clients with `convert --compat thinking` is checked with `check --compat thinking`)."),
    rule!("AGX203", E, true, "missing required field", "@ag-ui/core EventSchema",
        "A field the 1.0 schema requires is absent.",
        "Add the field (see the event table in the AG-UI reference)."),
    rule!("AGX204", E, true, "null on an optional field", "@ag-ui/core EventSchema",
        "Optional fields reject null; only opaque payloads (snapshot, value, event, patch values) may be null.",
        "Omit the field instead of writing null."),
    rule!("AGX205", E, true, "field of the wrong type", "@ag-ui/core EventSchema",
        "A field has a value of the wrong JSON type or an invalid value.",
        "Fix the field's value to the type the schema requires."),
    rule!("AGX206", E, true, "non-integer timestamp or count", "@ag-ui/core EventSchema",
        "timestamp must be an integer (milliseconds) and token counts integers >= 0.",
        "Write integers: milliseconds since the epoch for timestamps."),
    rule!("AGX207", E, true, "snake_case key", "@ag-ui/core EventSchema (camelCase keys)",
        "AG-UI keys are camelCase; the client strips snake_case keys and the field is then missing.",
        "Serialize with camelCase aliases (pydantic: by_alias=True)."),
    rule!("AGX208", E, true, "invalid outcome", "@ag-ui/core RunFinishedOutcome",
        "RUN_FINISHED.outcome must be success, interrupt (with >= 1 interrupt having id and reason) or cancelled.",
        "Use a valid outcome shape."),
    rule!("AGX209", E, true, "invalid role", "@ag-ui/core Role",
        "The role is not allowed here (TEXT_MESSAGE_START: developer|system|assistant|user; REASONING_MESSAGE_START: reasoning).",
        "Use an allowed role (tool output goes in TOOL_CALL_RESULT)."),
    rule!("AGX210", E, true, "invalid JSON Patch", "@ag-ui/core StateDeltaEvent (RFC 6902)",
        "A STATE_DELTA / ACTIVITY_DELTA operation is malformed or its path is not a JSON Pointer.",
        "Use RFC 6902 operations with paths like \"/a/b\"."),
    rule!("AGX211", W, false, "unknown key", "@ag-ui/core EventSchema",
        "The event carries a key the 1.0 schema does not define; the client strips it with a warning.",
        "Drop the key, or put it under `metadata` or `rawEvent`."),
    rule!("AGX301", E, false, "stream ends without a terminal event", "AG-UI run lifecycle",
        "The last run has no RUN_FINISHED or RUN_ERROR; front ends keep spinning.",
        "End every run with RUN_FINISHED or RUN_ERROR."),
    rule!("AGX302", E, false, "RUN_ERROR after RUN_FINISHED", "AG-UI run lifecycle (verifyEvents does not check it)",
        "The run already finished; an error after it contradicts the success shown to the user.",
        "Emit either RUN_FINISHED or RUN_ERROR for a run, not both."),
    rule!("AGX303", E, false, "id reused after close", "AG-UI run lifecycle (verifyEvents does not check it)",
        "A message, tool call or reasoning id is reused for a second item; front ends merge them.",
        "Use a fresh id for every item."),
    rule!("AGX304", W, false, "RUN_FINISHED ids differ from RUN_STARTED", "AG-UI 1.0 events",
        "threadId/runId on RUN_FINISHED do not match the RUN_STARTED of the run.",
        "Echo the RUN_STARTED ids on RUN_FINISHED."),
    rule!("AGX305", E, false, "TOOL_CALL_RESULT for an unknown tool call", "AG-UI 1.0 events",
        "The result names a tool call id that was never started in this run.",
        "Emit TOOL_CALL_START/END for the call before its result."),
    rule!("AGX306", W, false, "TOOL_CALL_RESULT before TOOL_CALL_END", "AG-UI 1.0 events",
        "The result arrives while the tool call's arguments are still streaming.",
        "Emit TOOL_CALL_END before TOOL_CALL_RESULT."),
    rule!("AGX307", E, false, "tool arguments are not valid JSON", "AG-UI 1.0 events",
        "The concatenated TOOL_CALL_ARGS deltas do not parse as JSON.",
        "Stream the arguments as one JSON document split into deltas."),
    rule!("AGX308", W, false, "chunk for an id opened with an explicit START", "@ag-ui/client transformChunks",
        "The client expands the chunk into a second START for the same id.",
        "Use either chunk events or START/CONTENT/END for an item, not both."),
    rule!("AGX309", E, false, "tool call started twice", "AG-UI 1.0 events",
        "The same toolCallId is started again after it ended (a double-fired tool call).",
        "Emit the tool call once; dedupe tool starts by id."),
    rule!("AGX310", W, false, "reasoning pairing", "AG-UI 1.0 events",
        "A reasoning span or message is left open at the end of the stream or run, or a span closes while its message is open.",
        "Close reasoning messages before their span, and both before the run ends."),
    rule!("AGX311", E, false, "STATE_DELTA patch does not apply", "AG-UI 1.0 STATE_DELTA, RFC 6902",
        "The patch fails against the state the stream showed (a STATE_SNAPSHOT or the RUN_STARTED input echo): a path that does not exist, a failed `test`. The client warns and keeps the old state.",
        "Derive each delta from the state the front end holds, or send a STATE_SNAPSHOT."),
    rule!("AGX312", W, false, "event of a sub-agent that is not active", "AG-UI 1.0 SUBAGENT_* events",
        "In a run that declares its sub-agents (sends SUBAGENT_STARTED), an event's subagentRunId names none started and not yet finished; the client files it in a lane no SUBAGENT_STARTED opened. (A stream that only attributes events, with no SUBAGENT_*, is valid and not judged.)",
        "Send SUBAGENT_STARTED before the sub-agent's first event and finish it after its last."),
    rule!("AGX313", W, false, "sub-agent under a tool call that is not open", "AG-UI 1.0 SUBAGENT_* events",
        "SUBAGENT_STARTED names a parentToolCallId that was never started in the stream or already has its TOOL_CALL_RESULT.",
        "Start the sub-agent inside the tool call that runs it: after TOOL_CALL_START, before its result."),
    rule!("AGX314", W, false, "tool call answered while its sub-agent runs", "AG-UI 1.0 SUBAGENT_* events",
        "TOOL_CALL_RESULT for a tool call whose sub-agent is still active: the result shows before the work it reports ends.",
        "Finish the sub-agent (SUBAGENT_FINISHED or SUBAGENT_ERROR) before its parent tool's result."),
    rule!("AGX315", W, false, "MESSAGES_SNAPSHOT contradicts the streamed messages", "@ag-ui/client defaultApplyEvents (MESSAGES_SNAPSHOT)",
        "After the snapshot, a client that followed the stream holds its messages in another order than the snapshot lists them. The client never reorders: it keeps what it holds in place, drops what the snapshot leaves out and appends what it never held; a run's input that only the final snapshot brings ends up after the answer, a tool result sent under another id after the next message.",
        "Send every message before the ones that follow it in the conversation (the run's input first: RUN_STARTED.input or an early MESSAGES_SNAPSHOT), under the id the snapshot gives it."),
    rule!("AGX401", E, false, "duplicate interrupt id", "@ag-ui/core Interrupt",
        "Two interrupts of one outcome share an id; a resume cannot answer them separately.",
        "Give every interrupt a unique id."),
    rule!("AGX402", W, false, "interrupt with an empty id or reason", "@ag-ui/core Interrupt",
        "An interrupt's id or reason is empty.",
        "Fill in a stable id and a reason such as \"tool_approval\"."),
    rule!("AGX403", E, false, "items open when the run is interrupted", "@ag-ui/client verifyEvents",
        "The run stops at an interrupt while messages, tool calls, steps or reasoning are still open.",
        "Close everything before RUN_FINISHED with an interrupt outcome."),
    rule!("AGX404", E, false, "pending interrupt not resumed", "AG-UI interrupt and resume (agent side)",
        "The next run on the thread does not resume every pending interrupt id; HttpAgent refuses to run it.",
        "Send input.resume[] with an entry per pending interrupt id."),
    rule!("AGX405", E, false, "resume of an unknown interrupt", "AG-UI interrupt and resume (agent side)",
        "input.resume[] names an interrupt id that is not pending.",
        "Resume only the ids of the previous run's interrupt outcome."),
    rule!("AGX406", E, false, "interrupt lost or invented in conversion", "@ag-ui/core RunFinishedOutcome",
        "The raw log stopped at an interrupt but the AG-UI run reads as success (or the reverse).",
        "Map interrupts to RUN_FINISHED {outcome:{type:\"interrupt\"}}."),
    rule!("AGX501", E, true, "unreadable line or frame", "@ag-ui/client HttpAgent (SSE parsing)",
        "A line or SSE frame is not JSON, not an object, or has no event type; the client fails the stream.",
        "Write one JSON object with a `type` per line / frame."),
    rule!("AGX502", E, true, "SSE framing the client cannot split", "@ag-ui/client HttpAgent (SSE parsing)",
        "The JS client splits SSE frames only on \"\\n\\n\": CRLF or bare-CR framing merges frames into invalid JSON.",
        "Write frames as `data: <json>\\n\\n` with LF line ends."),
    rule!("AGX503", W, false, "SSE line without a field name", "@ag-ui/client HttpAgent (SSE parsing)",
        "A line in an SSE stream has no `data:` prefix; the client silently drops it.",
        "Prefix every payload line with `data: `."),
    rule!("AGX504", E, false, "file cannot be read", "aguify",
        "The file could not be opened or read (missing, a directory, no permission, an I/O error); the other files are still checked and aguify exits 2.",
        "Pass a readable file (a directory is walked for *.ndjson, *.jsonl and *.sse)."),
    rule!("AGX505", E, false, "no AG-UI or LangGraph records", "aguify",
        "No record of the file is of a known form (a CSV, a binary file, an empty file, a JSON array, or --from forcing the wrong form); aguify exits 2.",
        "Pass NDJSON (one JSON object a line) or SSE; turn a JSON array into NDJSON with `jq -c '.[]'`."),
    rule!("AGX601", W, false, "v3 seq gap", "LangGraph v3 protocol",
        "A v3 event's seq skips numbers: events were lost from the recording (a gap before a root `values` event is not reported: langgraph-api drops legacy-shaped `messages` events, whose message that state holds).",
        "Record every event of the stream."),
    rule!("AGX602", W, false, "v3 seq duplicate", "LangGraph v3 protocol",
        "Two v3 events share a seq: the recording repeats events.",
        "Record each event once."),
    rule!("AGX603", W, false, "v3 seq regression", "LangGraph v3 protocol",
        "A v3 event's seq is lower than the previous one.",
        "Keep events in stream order."),
    rule!("AGX604", W, false, "broken message lifecycle", "LangGraph v3 protocol",
        "A message starts while another is open in the same namespace, finishes without a start, or never finishes.",
        "Record message-start … message-finish for every message."),
    rule!("AGX605", W, false, "broken content-block lifecycle", "LangGraph v3 protocol",
        "A content block gets deltas or a finish without a start, or is never finished.",
        "Record content-block-start … content-block-finish for every block."),
    rule!("AGX606", W, false, "tool started and never finished", "LangGraph logs",
        "A tool started but the log has no end or error for it.",
        "Record the tool's end (or error) event."),
    rule!("AGX607", E, false, "run ends with no terminal", "LangGraph logs",
        "The log stops inside a run: no end or error was recorded (a crashed server or a cut recording). The run never reached its end, so the recording cannot vouch for it: an error for CI, as AGX301 is for an AG-UI stream. (A Python v3 log has no root lifecycle: a cut between two messages cannot be told from an end.)",
        "Record the run to its end."),
    rule!("AGX608", E, false, "line is not valid JSON", "aguify inputs (README: Inputs)",
        "An input line could not be parsed as a JSON object.",
        "Write one complete JSON object per line."),
    rule!("AGX609", W, false, "record of no known form", "aguify inputs (README: Inputs)",
        "A record is valid JSON but not a form aguify reads, or of another form than the rest of the file (or than --from); it is skipped.",
        "Check the recorder's output format (--from)."),
    rule!("AGX610", W, false, "v3 seq is not an integer", "LangGraph v3 protocol",
        "A v3 event's `seq` is not an integer; it is converted in file order and its place in the stream cannot be checked.",
        "Record `seq` as the integer the server sent."),
    rule!("AGX611", W, false, "record of a known form it cannot convert", "aguify inputs (README: Inputs)",
        "A record is of a known form (v2, v3, an SDK stream part) but lacks what it needs or holds the wrong type (a chunk without `data.chunk`, a tool event without its id, a lifecycle event outside its message); it is skipped.",
        "Check the recorder: the record was cut or rewritten."),
    rule!("AGX612", W, false, "v3 timestamp a client cannot hold", "LangGraph v3 protocol",
        "A v3 event's `timestamp` is not an integer of milliseconds from 0 to 2^53 - 1 (a string, a fraction, a negative number, or one past what a JavaScript number holds exactly); the events it maps to are written without a timestamp. Reported once per file.",
        "Record `timestamp` as the integer milliseconds since the epoch the server sent."),
    rule!("AGX613", W, false, "tool call ids missing in the log", "LangGraph logs",
        "Tool events carry an empty `tool_call_id` and the model message's tool calls have no id (LangGraph.js with @langchain/google-genai): the log lost the ids. Each tool run is paired with a call of its model message by name and order, under an id made up as `<message id>:tool:<block index>`. Reported once per run.",
        "Give tool calls ids before they run (e.g. in the model node), or record with an integration that keeps them."),
    rule!("AGX701", W, false, "tool output inside answer text", "answer-only front ends (README: Front-end policies)",
        "TEXT_MESSAGE_CONTENT repeats a tool's JSON output; front ends show raw JSON in the chat.",
        "Stream only the model's answer as text; tool output belongs in TOOL_CALL_RESULT."),
    rule!("AGX702", W, false, "reasoning repeated as answer text", "answer-only front ends (README: Front-end policies)",
        "A text message repeats reasoning text of the same run; the user sees it twice.",
        "Route reasoning summaries to REASONING_* only."),
];

/// Looks a rule up by id (case-insensitive).
pub fn find(id: &str) -> Option<&'static Rule> {
    RULES.iter().find(|r| r.id.eq_ignore_ascii_case(id))
}

/// The rule for an id that must exist (ids used by the checker itself).
pub(crate) fn get(id: &str) -> &'static Rule {
    find(id).unwrap_or(&RULES[0])
}

/// `--explain` text for a rule.
pub fn explain(rule: &Rule) -> String {
    format!(
        "{} ({}): {}\n\n{}\n\nSpec: {}\nFix: {}\n{}",
        rule.id,
        rule.severity.as_str(),
        rule.title,
        rule.explanation,
        rule.spec,
        rule.fix,
        if rule.official {
            "The official @ag-ui/client 1.0 rejects streams with this finding.\n"
        } else {
            "The official @ag-ui/client 1.0 accepts these streams; aguify flags them.\n"
        }
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_unique_and_sorted() {
        for w in RULES.windows(2) {
            assert!(w[0].id < w[1].id, "{} before {}", w[0].id, w[1].id);
        }
        assert_eq!(
            RULES
                .iter()
                .filter(|r| r.id.starts_with("AGX1") && r.id < "AGX130")
                .count(),
            24
        );
    }

    #[test]
    fn find_is_case_insensitive() {
        assert_eq!(find("agx101").map(|r| r.id), Some("AGX101"));
        assert!(find("AGX999").is_none());
    }
}
