//! The internal event model: what every input family is reduced to before mapping.
//!
//! Adapters speak LangGraph (v2 events, v3 protocol, platform SSE); the mapper speaks AG-UI.
//! This model is the narrow waist between them: provider styles (OpenAI Responses summaries,
//! Anthropic thinking, DeepSeek `reasoning_content`, standard blocks) are already unified here,
//! and messages are already in AG-UI message form.

use serde_json::Value;

/// A reasoning/tool block within one model message, keyed by its block position or provider key.
pub type BlockKey = String;

#[derive(Debug, Clone, PartialEq)]
pub struct InterruptInfo {
    pub id: String,
    /// The `interrupt()` payload.
    pub value: Value,
    pub response_schema: Option<Value>,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct Usage {
    pub input_tokens: Option<u64>,
    pub output_tokens: Option<u64>,
    pub total_tokens: Option<u64>,
    pub reasoning_tokens: Option<u64>,
    pub provider: Option<String>,
    pub model: Option<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct ErrorInfo {
    /// Exception class (`ValueError`, `GraphRecursionError`, `Error`…), when known.
    pub name: Option<String>,
    pub message: String,
    /// LangChain's `lc_error_code` (e.g. `GRAPH_RECURSION_LIMIT`), when the log has it.
    pub lc_code: Option<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum ModelEvent {
    /// A graph run begins. Ids are those the log carries (none for v3 Python).
    RunStart {
        thread_id: Option<String>,
        run_id: Option<String>,
        /// Input messages in AG-UI form, when the run input holds messages.
        messages: Vec<Value>,
        /// `Command(resume=…)` value when the run resumes an interrupt. `Some(Null)` = resumed,
        /// value unknown (v3 does not echo it).
        resume: Option<Value>,
    },
    /// The run ended normally (it may still have stopped at an interrupt recorded before).
    RunEnd,
    /// The run raised.
    RunFailed(ErrorInfo),
    /// The log stops before the run's terminal event (a crashed server or a cut recording).
    RunIncomplete {
        reason: String,
    },
    /// The run stopped at `interrupt()`.
    Interrupt(Vec<InterruptInfo>),
    /// A graph node (step) started / finished. `key` tells concurrent runs of one node apart.
    StepStart {
        name: String,
        key: String,
    },
    StepEnd {
        key: String,
    },

    /// An assistant message starts streaming.
    MessageStart {
        message_id: String,
    },
    TextDelta {
        message_id: String,
        text: String,
    },
    ReasoningDelta {
        message_id: String,
        block: BlockKey,
        text: String,
    },
    /// An opaque reasoning value: a signature or a redacted block.
    ReasoningEncrypted {
        message_id: String,
        block: BlockKey,
        value: String,
    },
    /// A tool-call chunk. `id`/`name` arrive on the first chunk of an index, args in pieces.
    ToolCallChunk {
        message_id: String,
        index: BlockKey,
        id: Option<String>,
        name: Option<String>,
        args: String,
    },
    /// The message finished streaming.
    MessageEnd {
        message_id: String,
        usage: Option<Usage>,
    },

    /// A tool starts executing (its call may never have streamed).
    ToolStart {
        tool_call_id: String,
        name: String,
        /// Arguments as a JSON text, when the log has them.
        args: Option<String>,
        /// The message that carried the call, when known.
        parent_message_id: Option<String>,
    },
    ToolOutputDelta {
        tool_call_id: String,
        delta: String,
    },
    /// A tool finished; `error` marks a handled tool error (the run goes on).
    ToolEnd {
        tool_call_id: String,
        name: Option<String>,
        content: Value,
        message_id: Option<String>,
        error: bool,
    },

    /// A custom event (`adispatch_custom_event`, a stream writer).
    Custom {
        name: String,
        value: Value,
    },
    /// The full graph state (never a node's partial update), normalized ([`crate::adapter::lc`]).
    /// Its `messages` list, when it has one, is the run's message list: the mapper reads its
    /// tool messages at once and converts the whole list to AG-UI only at the run's end (for
    /// `MESSAGES_SNAPSHOT`), not for every state.
    State {
        state: Value,
    },
    /// A native AG-UI event (passthrough, or a `custom` event named `agui`).
    Native(Value),
}
