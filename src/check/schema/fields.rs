//! What each AG-UI event's fields are: name, kind, required (the schema's table).

use serde_json::Value;

use super::{P, V};
use crate::agui::EventType;

use K::*;

#[derive(Clone, Copy)]
pub(super) enum K {
    Str,
    Bool,
    /// Any JSON, null included (must be present when required).
    Json,
    /// Any JSON except null.
    JsonNonNull,
    Object,
    /// An integer a JavaScript number holds exactly.
    Int,
    /// An [`K::Int`] >= 0.
    Count,
    Enum(&'static [&'static str]),
    /// An object of these fields (its unknown keys not reported).
    Fields(Spec),
    /// An array of objects of these fields.
    List(Spec),
    /// An array, each item checked by its own function.
    Each(fn(&mut V, P<'_>, &Value)),
    /// A structure checked by its own function: a patch, messages, content, an outcome, …
    Check(fn(&mut V, P<'_>, &Value)),
}

const TEXT_ROLES: &[&str] = &["developer", "system", "assistant", "user"];

/// (field, kind, required)
pub(super) type Spec = &'static [(&'static str, K, bool)];

/// Each event type's fields, and whether `subagentRunId` may come as an optional field.
pub(super) fn spec(t: EventType) -> (Spec, bool) {
    use EventType as T;
    // The bool says whether `subagentRunId` is allowed as an optional field.
    match t {
        T::TextMessageStart => (TEXT_MESSAGE_START, true),
        T::TextMessageContent | T::ReasoningMessageContent => (MESSAGE_DELTA, true),
        T::TextMessageEnd | T::ReasoningStart | T::ReasoningEnd | T::ReasoningMessageEnd => {
            (MESSAGE_ID, true)
        }
        T::TextMessageChunk => (TEXT_MESSAGE_CHUNK, true),
        T::ToolCallStart => (TOOL_CALL_START, true),
        T::ToolCallArgs => (TOOL_CALL_ARGS, true),
        T::ToolCallEnd => (TOOL_CALL_END, true),
        T::ToolCallChunk => (TOOL_CALL_CHUNK, true),
        T::ToolCallResult => (TOOL_CALL_RESULT, true),
        T::StateSnapshot => (STATE_SNAPSHOT, true),
        T::StateDelta => (STATE_DELTA, true),
        T::MessagesSnapshot => (MESSAGES_SNAPSHOT, false),
        T::ActivitySnapshot => (ACTIVITY_SNAPSHOT, true),
        T::ActivityDelta => (ACTIVITY_DELTA, true),
        T::Raw => (RAW, true),
        T::Custom => (CUSTOM, true),
        T::RunStarted => (RUN_STARTED, false),
        T::RunFinished => (RUN_FINISHED, false),
        T::RunError => (RUN_ERROR, false),
        T::StepStarted | T::StepFinished => (STEP, true),
        T::ReasoningMessageStart => (REASONING_MESSAGE_START, true),
        T::ReasoningMessageChunk => (REASONING_MESSAGE_CHUNK, true),
        T::ReasoningEncryptedValue => (REASONING_ENCRYPTED_VALUE, true),
        T::SubagentStarted => (SUBAGENT_STARTED, false),
        T::SubagentFinished => (SUBAGENT_FINISHED, false),
        T::SubagentError => (SUBAGENT_ERROR, false),
    }
}

/// The BaseEvent fields every event may carry (and its `type`), `subagentRunId` last.
pub(super) const BASE: Spec = &[
    ("type", Json, true),
    ("timestamp", Int, false),
    ("rawEvent", JsonNonNull, false),
    ("metadata", Object, false),
    ("subagentRunId", Str, false),
];

/// A RUN_STARTED's `input`: the RunAgentInput of the run.
pub(super) const INPUT: K = Fields(&[
    ("threadId", Str, true),
    ("runId", Str, true),
    ("messages", Each(V::message), true),
    ("protocolVersion", Str, false),
    ("parentRunId", Str, false),
    ("state", Json, false),
    ("forwardedProps", JsonNonNull, false),
    ("tools", List(TOOL), false),
    ("context", List(CONTEXT), false),
    ("resume", List(RESUME), false),
]);

const TOOL: Spec = &[
    ("name", Str, true),
    ("description", Str, true),
    ("parameters", JsonNonNull, false),
    ("metadata", Object, false),
];

const CONTEXT: Spec = &[("description", Str, true), ("value", Str, true)];

const RESUME: Spec = &[
    ("interruptId", Str, true),
    ("status", Enum(&["resolved", "cancelled"]), true),
    ("payload", JsonNonNull, false),
    ("metadata", Object, false),
];

/// An assistant message's tool call.
pub(super) const TOOL_CALL: Spec = &[
    ("id", Str, true),
    ("type", Enum(&["function"]), true),
    ("function", Fields(FUNCTION), true),
];

const FUNCTION: Spec = &[("name", Str, true), ("arguments", Str, true)];

/// A run's token usage.
const USAGE: Spec = &[
    ("provider", Str, false),
    ("model", Str, false),
    ("inputTokens", Count, false),
    ("outputTokens", Count, false),
    ("totalTokens", Count, false),
    ("reasoningTokens", Count, false),
    ("cachedInputTokens", Count, false),
    ("cacheWriteInputTokens", Count, false),
];

const TEXT_MESSAGE_START: Spec = &[
    ("messageId", Str, true),
    ("role", Enum(TEXT_ROLES), false),
    ("name", Str, false),
];

/// A text or reasoning message's content.
const MESSAGE_DELTA: Spec = &[("messageId", Str, true), ("delta", Str, true)];

/// A text message's end, a reasoning span's start and end, a reasoning message's end.
const MESSAGE_ID: Spec = &[("messageId", Str, true)];

const TEXT_MESSAGE_CHUNK: Spec = &[
    ("messageId", Str, false),
    ("role", Enum(TEXT_ROLES), false),
    ("delta", Str, false),
    ("name", Str, false),
];

const TOOL_CALL_START: Spec = &[
    ("toolCallId", Str, true),
    ("toolCallName", Str, true),
    ("parentMessageId", Str, false),
];

const TOOL_CALL_ARGS: Spec = &[("toolCallId", Str, true), ("delta", Str, true)];

const TOOL_CALL_END: Spec = &[("toolCallId", Str, true)];

const TOOL_CALL_CHUNK: Spec = &[
    ("toolCallId", Str, false),
    ("toolCallName", Str, false),
    ("parentMessageId", Str, false),
    ("delta", Str, false),
];

const TOOL_CALL_RESULT: Spec = &[
    ("messageId", Str, true),
    ("toolCallId", Str, true),
    ("content", Check(V::content), true),
    ("role", Enum(&["tool"]), false),
];

const STATE_SNAPSHOT: Spec = &[("snapshot", Json, true)];

const STATE_DELTA: Spec = &[("delta", Check(V::patch), true)];

const MESSAGES_SNAPSHOT: Spec = &[("messages", Each(V::message), true)];

const ACTIVITY_SNAPSHOT: Spec = &[
    ("messageId", Str, true),
    ("activityType", Str, true),
    ("content", Object, true),
    ("replace", Bool, false),
];

const ACTIVITY_DELTA: Spec = &[
    ("messageId", Str, true),
    ("activityType", Str, true),
    ("patch", Check(V::patch), true),
];

const RAW: Spec = &[("event", Json, true), ("source", Str, false)];

const CUSTOM: Spec = &[("name", Str, true), ("value", Json, true)];

const RUN_STARTED: Spec = &[
    ("threadId", Str, true),
    ("runId", Str, true),
    ("protocolVersion", Str, false),
    ("parentRunId", Str, false),
    ("input", INPUT, false),
];

const RUN_FINISHED: Spec = &[
    ("threadId", Str, true),
    ("runId", Str, true),
    ("result", JsonNonNull, false),
    ("outcome", Check(V::outcome), false),
    ("usage", List(USAGE), false),
];

const RUN_ERROR: Spec = &[
    ("message", Str, true),
    ("code", Str, false),
    ("usage", List(USAGE), false),
];

const STEP: Spec = &[("stepName", Str, true)];

const REASONING_MESSAGE_START: Spec = &[
    ("messageId", Str, true),
    ("role", Enum(&["reasoning"]), true),
];

const REASONING_MESSAGE_CHUNK: Spec = &[("messageId", Str, false), ("delta", Str, false)];

const REASONING_ENCRYPTED_VALUE: Spec = &[
    ("subtype", Enum(&["tool-call", "message"]), true),
    ("entityId", Str, true),
    ("encryptedValue", Str, true),
];

const SUBAGENT_STARTED: Spec = &[
    ("subagentRunId", Str, true),
    ("name", Str, true),
    ("description", Str, false),
    ("parentSubagentRunId", Str, false),
    ("parentToolCallId", Str, false),
    ("parentMessageId", Str, false),
];

const SUBAGENT_FINISHED: Spec = &[
    ("subagentRunId", Str, true),
    ("result", JsonNonNull, false),
    ("outcome", Check(V::sub_outcome), false),
];

const SUBAGENT_ERROR: Spec = &[
    ("subagentRunId", Str, true),
    ("message", Str, true),
    ("code", Str, false),
];
