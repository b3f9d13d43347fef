//! The provider content-block zoo: one streamed `AIMessageChunk` → text, reasoning and
//! tool-call model events, whatever the provider style.
//!
//! | style | where the reasoning is |
//! |---|---|
//! | OpenAI Responses | `{"type":"reasoning","id":"rs_…","summary":[{"text":…}]}` blocks |
//! | Responses v0 (JS) | `additional_kwargs.reasoning.summary` |
//! | Anthropic | `{"type":"thinking","thinking":…}` then `{"type":"thinking","signature":…}`; `redacted_thinking` |
//! | DeepSeek / Qwen | `additional_kwargs.reasoning_content` |
//! | standard v1 | `{"type":"reasoning","reasoning":…}` (+ `extras.signature`) |

use crate::json::Field;
use serde_json::Value;

use crate::model::{ModelEvent, Usage};

/// Model events for one flat (normalized) AI message chunk.
pub fn chunk_events(message_id: &str, chunk: &Value, out: &mut Vec<ModelEvent>) {
    let mid = || message_id.to_string();
    match chunk.field("content") {
        Some(Value::String(s)) => text_events(message_id, s, out),
        Some(Value::Array(blocks)) => blocks_events(message_id, blocks, out),
        _ => {}
    }
    if let Some(kw) = chunk.field("additional_kwargs").and_then(Value::as_object) {
        if let Some(Value::String(r)) = kw.field("reasoning_content") {
            if !r.is_empty() {
                out.push(ModelEvent::ReasoningDelta {
                    message_id: mid(),
                    block: "reasoning_content".into(),
                    text: r.clone(),
                });
            }
        }
        if let Some(r) = kw.field("reasoning").and_then(Value::as_object) {
            let key = r
                .field("id")
                .and_then(Value::as_str)
                .unwrap_or("reasoning")
                .to_string();
            for s in r
                .field("summary")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                if let Some(t) = s
                    .field("text")
                    .and_then(Value::as_str)
                    .filter(|t| !t.is_empty())
                {
                    out.push(ModelEvent::ReasoningDelta {
                        message_id: mid(),
                        block: key.clone(),
                        text: t.to_string(),
                    });
                }
            }
        }
    }
    for c in chunk
        .field("tool_call_chunks")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        out.push(tool_chunk_event(message_id, c));
    }
}

/// A `tool_call_chunks` entry: index (`"0"` when absent), id, non-empty name, args text.
fn tool_chunk_event(message_id: &str, c: &Value) -> ModelEvent {
    ModelEvent::ToolCallChunk {
        message_id: message_id.to_string(),
        index: c
            .field("index")
            .map(block_key)
            .unwrap_or_else(|| "0".into()),
        id: c.field("id").and_then(Value::as_str).map(str::to_string),
        name: c
            .field("name")
            .and_then(Value::as_str)
            .filter(|n| !n.is_empty())
            .map(str::to_string),
        args: c
            .field("args")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string(),
    }
}

/// Model events for a chunk's string content: its text, unless empty.
pub fn text_events(message_id: &str, text: &str, out: &mut Vec<ModelEvent>) {
    if !text.is_empty() {
        out.push(ModelEvent::TextDelta {
            message_id: message_id.to_string(),
            text: text.to_string(),
        });
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

/// Model events for a chunk's list content, block by block.
fn blocks_events(message_id: &str, blocks: &[Value], out: &mut Vec<ModelEvent>) {
    for (pos, b) in blocks.iter().enumerate() {
        block_events(message_id, pos, b, out);
    }
}

fn block_events(message_id: &str, pos: usize, b: &Value, out: &mut Vec<ModelEvent>) {
    let mid = || message_id.to_string();
    let Some(o) = b.as_object() else {
        if let Value::String(s) = b {
            if !s.is_empty() {
                out.push(ModelEvent::TextDelta {
                    message_id: mid(),
                    text: s.clone(),
                });
            }
        }
        return;
    };
    let key = o
        .field("index")
        .map(block_key)
        .unwrap_or_else(|| pos.to_string());
    let ty = o.field("type").and_then(Value::as_str).unwrap_or("");
    if ty == "non_standard" {
        if let Some(inner) = o.field("value").filter(|v| v.field("type").is_some()) {
            block_events(message_id, pos, inner, out);
        }
        return;
    }
    let text = |k: &str| o.field(k).and_then(Value::as_str).filter(|t| !t.is_empty());
    let reasoning = |t: &str| ModelEvent::ReasoningDelta {
        message_id: mid(),
        block: key.clone(),
        text: t.to_string(),
    };
    let encrypted = |v: &str| ModelEvent::ReasoningEncrypted {
        message_id: mid(),
        block: key.clone(),
        value: v.to_string(),
    };
    match ty {
        "text" | "text_delta" => {
            if let Some(t) = text("text") {
                out.push(ModelEvent::TextDelta {
                    message_id: mid(),
                    text: t.to_string(),
                });
            }
        }
        "reasoning" => {
            let summary = o.field("summary").and_then(Value::as_array);
            for s in summary.into_iter().flatten() {
                if let Some(t) = s
                    .field("text")
                    .and_then(Value::as_str)
                    .filter(|t| !t.is_empty())
                {
                    out.push(reasoning(t));
                }
            }
            if let Some(t) = text("reasoning") {
                out.push(reasoning(t));
            }
            let sig = o
                .field("extras")
                .and_then(|e| e.field("signature"))
                .and_then(Value::as_str)
                .filter(|s| !s.is_empty())
                .or_else(|| text("signature"))
                .or_else(|| text("encrypted_content"));
            if let Some(s) = sig {
                out.push(encrypted(s));
            }
        }
        "thinking" => {
            if let Some(t) = text("thinking") {
                out.push(reasoning(t));
            }
            if let Some(s) = text("signature") {
                out.push(encrypted(s));
            }
        }
        "redacted_thinking" => {
            if let Some(d) = o.field("data").and_then(Value::as_str) {
                out.push(encrypted(d));
            }
        }
        // Tool calls stream through `tool_call_chunks`; the content copies are not repeated.
        _ => {}
    }
}

/// Token usage from a message's `usage_metadata` (v2) or v3 `usage`, plus provider/model names.
pub fn usage_from(usage: Option<&Value>, metadata: Option<&Value>) -> Option<Usage> {
    let u = usage.filter(|u| u.is_object())?;
    let int = |k: &str| u.field(k).and_then(Value::as_u64);
    let meta_str = |k: &str| {
        metadata
            .and_then(|m| m.field(k))
            .and_then(Value::as_str)
            .map(str::to_string)
    };
    Some(Usage {
        input_tokens: int("input_tokens"),
        output_tokens: int("output_tokens"),
        total_tokens: int("total_tokens"),
        reasoning_tokens: u
            .field("output_token_details")
            .and_then(|d| d.field("reasoning"))
            .and_then(Value::as_u64),
        provider: meta_str("model_provider"),
        model: meta_str("model_name"),
    })
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
}
