//! The provider content-block zoo: one streamed `AIMessageChunk` → text, reasoning and
//! tool-call model events, whatever the provider style. [`read_block`] is the one place that
//! knows the block kinds; the v2 chunk reader here and the v3 `content-block-*` reader both
//! go through it.
//!
//! | style | where the reasoning is |
//! |---|---|
//! | OpenAI Responses | `{"type":"reasoning","id":"rs_…","summary":[{"index":n,"text":…}]}` blocks |
//! | Responses v0 (JS) | `additional_kwargs.reasoning.summary` (the item id on the first chunk only) |
//! | Anthropic | `{"type":"thinking","thinking":…}` then `{"type":"thinking","signature":…}`; `redacted_thinking` |
//! | Bedrock Converse | `{"type":"reasoning_content","reasoning_content":{"text":…}}` then `{…{"signature":…}}` (Python); JS `reasoningText`, `redactedContent` |
//! | DeepSeek / Qwen | `additional_kwargs.reasoning_content` |
//! | standard v1 | `{"type":"reasoning","reasoning":…}` (+ `extras.signature`) |
//!
//! A reasoning summary of several parts is one reasoning span per part ([`block_events`]).

use crate::json::Field;
use crate::wire::v2::ToolChunk;
use serde_json::Value;

use crate::model::{ModelEvent, Usage};

/// What one provider content block carries.
#[derive(Debug, Clone, PartialEq)]
pub enum Block<'a> {
    /// Answer text (`text`, `text_delta`, a bare string); may be empty.
    Text(&'a str),
    /// Reasoning: its non-empty text parts as (part index, text), and its signature or
    /// encrypted content when this block carries one.
    Reasoning {
        parts: Vec<(usize, &'a str)>,
        signature: Option<&'a str>,
    },
    /// Reasoning the provider withheld: its encrypted form only.
    Redacted(&'a str),
    /// A tool call (`tool_call`, `tool_call_chunk`); its id, name and args are
    /// read by the caller.
    ToolCall,
    /// Anything else (images, citations…): nothing for AG-UI.
    Other,
}

/// A `non_standard` block wraps a provider block the protocol has no type for (e.g. Anthropic
/// `redacted_thinking`): read the wrapped value.
pub fn unwrap_non_standard(c: &Value) -> &Value {
    match c.field("value") {
        Some(v) if c.field_str("type") == Some("non_standard") && v.field("type").is_some() => v,
        _ => c,
    }
}

/// Reads one content block, whatever the provider spells it. A `non_standard` block is read
/// as the provider block it wraps; a block without a `type` is text.
pub fn read_block(b: &Value) -> Block<'_> {
    let o = match unwrap_non_standard(b) {
        Value::String(s) => return Block::Text(s),
        Value::Object(o) => o,
        _ => return Block::Other,
    };
    let ty = (o.field("type")).map_or(Some("text"), Value::as_str);
    let ty = ty.unwrap_or("");
    let text = |k: &str| o.field_str(k).filter(|t| !t.is_empty());
    match ty {
        "text" | "text_delta" => Block::Text(o.field_str("text").unwrap_or("")),
        "reasoning" => {
            let mut parts = summary_parts(o.field("summary"));
            parts.extend(text("reasoning").map(|t| (0, t)));
            let signature = o
                .field("extras")
                .and_then(|e| e.field_str("signature"))
                .filter(|s| !s.is_empty())
                .or_else(|| text("signature"))
                .or_else(|| text("encrypted_content"));
            Block::Reasoning { parts, signature }
        }
        "thinking" => reasoning(text("thinking").unwrap_or_default(), text("signature")),
        "redacted_thinking" => o.field_str("data").map_or(Block::Other, Block::Redacted),
        // Bedrock Converse: Python puts `{text}` / `{signature}` (or both, unstreamed) under
        // `reasoning_content`; JS under `reasoningText`, a redacted block as `redactedContent`.
        "reasoning_content" => {
            let redacted = o.field("redactedContent").or(o.field("redacted_content"));
            if let Some(d) = redacted.and_then(Value::as_str) {
                return Block::Redacted(d);
            }
            let inner = o.field("reasoning_content").or(o.field("reasoningText"));
            let text = |k: &str| inner?.field_str(k).filter(|t| !t.is_empty());
            reasoning(text("text").unwrap_or_default(), text("signature"))
        }
        "tool_call" | "tool_call_chunk" => Block::ToolCall,
        // LangGraph.js keeps a provider's own tool block: Anthropic's `tool_use` starts the
        // block (id, name, `input`), and the merged block at the finish is typed after its
        // last delta, `input_json_delta` (with id, name and `args`).
        "tool_use" | "input_json_delta" if o.contains_key("id") => Block::ToolCall,
        _ => Block::Other,
    }
}

/// The non-empty texts of a reasoning summary as (part index, text): the part's `index`,
/// else its place in the list.
fn summary_parts(summary: Option<&Value>) -> Vec<(usize, &str)> {
    let parts = summary.and_then(Value::as_array).into_iter().flatten();
    (parts.enumerate())
        .filter_map(|(pos, s)| {
            let text = s.field_str("text").filter(|t| !t.is_empty())?;
            let at = s.field("index").and_then(Value::as_u64);
            Some((at.map_or(pos, |n| n as usize), text))
        })
        .collect()
}

/// Reasoning of one part, its text (none when empty) and a signature.
pub fn reasoning<'a>(text: &'a str, signature: Option<&'a str>) -> Block<'a> {
    let parts = Vec::from_iter((!text.is_empty()).then_some((0, text)));
    Block::Reasoning { parts, signature }
}

/// Model events for one flat (normalized) AI message chunk.
pub fn chunk_events(message_id: &str, chunk: &Value, out: &mut Vec<ModelEvent>) {
    let calls = chunk.field("tool_call_chunks").and_then(ToolChunk::list);
    let (content, kwargs) = (chunk.field("content"), chunk.field("additional_kwargs"));
    parts_events(message_id, content, kwargs, &calls.unwrap_or_default(), out);
}

/// [`chunk_events`] of a chunk's `content`, `additional_kwargs` and `tool_call_chunks`.
pub fn parts_events(
    message_id: &str,
    content: Option<&Value>,
    additional_kwargs: Option<&Value>,
    tool_call_chunks: &[ToolChunk],
    out: &mut Vec<ModelEvent>,
) {
    match content {
        Some(Value::String(s)) => block_events(message_id, "", Block::Text(s), out),
        Some(Value::Array(blocks)) => {
            for (pos, b) in blocks.iter().enumerate() {
                let key = b.field("index").map_or_else(|| pos.to_string(), block_key);
                block_events(message_id, &key, read_block(b), out);
            }
        }
        _ => {}
    }
    let kwarg = |k: &str| additional_kwargs.and_then(|kw| kw.field(k));
    if let Some(r) = kwarg("reasoning_content").and_then(Value::as_str) {
        block_events(message_id, "reasoning_content", reasoning(r, None), out);
    }
    // Responses v0: the reasoning item's id comes on its first chunk only; the parts are
    // keyed like the same item's block form (block 0), so a chunk without the id continues
    // the item in progress.
    if let Some(summary) = kwarg("reasoning").and_then(|r| r.field("summary")) {
        let (parts, signature) = (summary_parts(Some(summary)), None);
        block_events(message_id, "0", Block::Reasoning { parts, signature }, out);
    }
    // Each entry: index, id, non-empty name, args text. A chunk without an index (null or
    // absent: Gemini sends each call whole, several in one chunk, and LangChain merges no two
    // such chunks) is keyed by its id, so each call stays its own; one without index nor id
    // continues call `"0"`.
    for c in tool_call_chunks {
        let id = c.id.0.clone();
        let index = match (&c.index, &id) {
            (Some(i), _) => block_key(i),
            (None, Some(id)) if !id.is_empty() => format!("id:{id}"),
            (None, _) => "0".into(),
        };
        let name = c.name.0.clone().filter(|n| !n.is_empty());
        let args = c.args.0.clone().unwrap_or_default();
        out.push(call_chunk(message_id, index, id, name, args));
    }
}

/// A chunk of the tool call of key `index` in message `message_id`.
pub(crate) fn call_chunk(
    message_id: &str,
    index: String,
    id: Option<String>,
    name: Option<String>,
    args: String,
) -> ModelEvent {
    ModelEvent::ToolCallChunk {
        message_id: message_id.to_string(),
        index,
        id,
        name,
        args,
    }
}

/// A block index (int or provider string) as a key.
pub fn block_key(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        _ => "0".to_string(),
    }
}

/// Model events for one block of key `key` as [`read_block`] reads it. Tool calls stream
/// through `tool_call_chunks`; their content copies are not repeated.
pub fn block_events(message_id: &str, key: &str, block: Block<'_>, out: &mut Vec<ModelEvent>) {
    let mid = || message_id.to_string();
    let encrypted = |value: &str| ModelEvent::ReasoningEncrypted {
        message_id: mid(),
        block: key.to_string(),
        value: value.to_string(),
    };
    match block {
        Block::Text(t) if !t.is_empty() => out.push(ModelEvent::TextDelta {
            message_id: mid(),
            text: t.to_string(),
        }),
        Block::Reasoning { parts, signature } => {
            for (part, t) in parts {
                out.push(ModelEvent::ReasoningDelta {
                    message_id: mid(),
                    // The block's key for its first part, `<block>.<part>` for the others, so
                    // each summary part is a span of its own.
                    block: match part {
                        0 => key.to_string(),
                        _ => format!("{key}.{part}"),
                    },
                    text: t.to_string(),
                });
            }
            out.extend(signature.map(encrypted));
        }
        Block::Redacted(d) => out.push(encrypted(d)),
        Block::Text(_) | Block::ToolCall | Block::Other => {}
    }
}

/// Token usage from a message's `usage_metadata`, with the provider and model its
/// `response_metadata` names, else those the run's trace metadata names (`traced`:
/// `ls_provider`, `ls_model_name`; LangGraph.js OpenAI puts no `model_name` in the message).
pub fn usage_of(msg: &Value, traced: (Option<&str>, Option<&str>)) -> Option<Usage> {
    let names = [msg.field("response_metadata")];
    Usage::of(msg.field("usage_metadata"), &names, traced)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn kinds(chunk: Value) -> Vec<ModelEvent> {
        let mut out = vec![];
        chunk_events("m1", &chunk, &mut out);
        out
    }

    #[test]
    fn openai_responses_summary() {
        let ev = kinds(
            json!({"content":[{"type":"reasoning","summary":[{"index":0,"type":"summary_text","text":"Think"}],"index":0}]}),
        );
        assert_eq!(
            ev,
            vec![ModelEvent::ReasoningDelta {
                message_id: "m1".into(),
                block: "0".into(),
                text: "Think".into()
            }]
        );
    }

    #[test]
    fn anthropic_signature_and_redacted() {
        let ev = kinds(
            json!({"content":[{"type":"thinking","signature":"sig","index":0},{"type":"redacted_thinking","data":"xx","index":1}]}),
        );
        assert!(matches!(&ev[0], ModelEvent::ReasoningEncrypted { value, .. } if value == "sig"));
        assert!(
            matches!(&ev[1], ModelEvent::ReasoningEncrypted { value, block, .. } if value == "xx" && block == "1")
        );
    }

    #[test]
    fn deepseek_reasoning_content_and_tool_chunks() {
        let ev = kinds(
            json!({"content":"","additional_kwargs":{"reasoning_content":"hmm"},
            "tool_call_chunks":[{"name":"f","args":"{","id":"c1","index":0}]}),
        );
        assert!(matches!(&ev[0], ModelEvent::ReasoningDelta { text, .. } if text == "hmm"));
        assert!(matches!(&ev[1], ModelEvent::ToolCallChunk { id: Some(i), .. } if i == "c1"));
    }

    /// Gemini (issue 39.1): two whole calls in one chunk, both without an index (null in
    /// Python, absent in JS), are two calls, not one whose args run together.
    #[test]
    fn calls_without_index_are_keyed_by_their_ids() {
        let call = |id: &str, city: &str, index: Value| {
            let mut c =
                json!({"name":"get_weather","args":format!("{{\"city\":\"{city}\"}}"),"id":id});
            if !index.is_null() || id == "p" {
                c["index"] = index;
            }
            c
        };
        for (a, b) in [
            (
                call("p", "Paris", Value::Null),
                call("t", "Tokyo", Value::Null),
            ),
            (
                call("js1", "Paris", Value::Null),
                call("js2", "Tokyo", Value::Null),
            ),
        ] {
            let ev = kinds(json!({"content":"","tool_call_chunks":[a, b]}));
            let keys: Vec<&str> = ev
                .iter()
                .filter_map(|e| match e {
                    ModelEvent::ToolCallChunk { index, .. } => Some(index.as_str()),
                    _ => None,
                })
                .collect();
            assert_eq!(keys.len(), 2);
            assert_ne!(keys[0], keys[1], "{ev:?}");
        }
        // An index given still keys the chunk; no index and no id continue call "0".
        let ev = kinds(json!({"tool_call_chunks":[{"args":"x","index":3},{"args":"y"}]}));
        assert!(matches!(&ev[0], ModelEvent::ToolCallChunk { index, .. } if index == "3"));
        assert!(matches!(&ev[1], ModelEvent::ToolCallChunk { index, .. } if index == "0"));
    }

    fn reasoning(block: &str, text: &str) -> ModelEvent {
        ModelEvent::ReasoningDelta {
            message_id: "m1".into(),
            block: block.into(),
            text: text.into(),
        }
    }

    fn encrypted(block: &str, value: &str) -> ModelEvent {
        ModelEvent::ReasoningEncrypted {
            message_id: "m1".into(),
            block: block.into(),
            value: value.into(),
        }
    }

    /// Bedrock Converse (issue 22.1): Python's streamed `reasoning_content` text and signature
    /// deltas, its unstreamed block holding both, and the JS spellings.
    #[test]
    fn bedrock_converse_reasoning() {
        let streamed = kinds(json!({"content":[
            {"type":"reasoning_content","reasoning_content":{"text":"Think"},"index":0},
            {"type":"reasoning_content","reasoning_content":{"signature":"sig"},"index":0},
            {"type":"text","text":"Paris","index":1}]}));
        let text = ModelEvent::TextDelta {
            message_id: "m1".into(),
            text: "Paris".into(),
        };
        assert_eq!(
            streamed,
            vec![reasoning("0", "Think"), encrypted("0", "sig"), text]
        );
        let whole = kinds(json!({"content":[{"type":"reasoning_content",
            "reasoning_content":{"text":"Think","signature":"sig"}}]}));
        assert_eq!(whole, vec![reasoning("0", "Think"), encrypted("0", "sig")]);
        let js = kinds(json!({"content":[
            {"type":"reasoning_content","reasoningText":{"text":"Think"},"index":0},
            {"type":"reasoning_content","reasoningText":{"signature":"sig"},"index":0},
            {"type":"reasoning_content","redactedContent":"xx","index":2}]}));
        assert_eq!(
            js,
            vec![
                reasoning("0", "Think"),
                encrypted("0", "sig"),
                encrypted("2", "xx")
            ]
        );
    }

    /// Summary parts (issue 22.9) are keyed apart, in the block form and in the Responses v0
    /// `additional_kwargs` form, where a chunk without the item id continues the item.
    #[test]
    fn summary_parts_have_keys_of_their_own() {
        let part = |n: u64, t: &str| json!({"index": n, "type": "summary_text", "text": t});
        let blocks = kinds(json!({"content":[{"type":"reasoning","index":0,
            "summary":[part(0, "A"), part(1, "B")]}]}));
        assert_eq!(blocks, vec![reasoning("0", "A"), reasoning("0.1", "B")]);
        let with_id = kinds(json!({"content":"","additional_kwargs":{"reasoning":
            {"id":"rs_1","type":"reasoning","summary":[part(0, "A")]}}}));
        let without = kinds(json!({"content":"","additional_kwargs":{"reasoning":
            {"type":"reasoning","summary":[part(0, "a"), part(1, "B")]}}}));
        assert_eq!(with_id, vec![reasoning("0", "A")]);
        assert_eq!(without, vec![reasoning("0", "a"), reasoning("0.1", "B")]);
    }
}
