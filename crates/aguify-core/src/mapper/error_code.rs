//! RUN_ERROR code classes (from the error's type and message, plus INCOMPLETE_STREAM).

use crate::model::ErrorInfo;

pub const GRAPH_STEP_LIMIT: &str = "GRAPH_STEP_LIMIT";
pub const LLM_RATE_LIMITED: &str = "LLM_RATE_LIMITED";
pub const LLM_AUTH_FAILED: &str = "LLM_AUTH_FAILED";
pub const UPSTREAM_TIMEOUT: &str = "UPSTREAM_TIMEOUT";
pub const UPSTREAM_UNREACHABLE: &str = "UPSTREAM_UNREACHABLE";
pub const AGENT_INTERNAL: &str = "AGENT_INTERNAL";
pub const INCOMPLETE_STREAM: &str = "INCOMPLETE_STREAM";

/// Not a class of [`classify`]: the RUN_ERROR code of a cancelled run under `--compat
/// thinking`, whose 0.0.x client has no `cancelled` outcome.
pub const CANCELLED: &str = "CANCELLED";

/// The classes told by words in an error's exception name or message, in the order they are
/// tried, and those words (lowercase, `|` between).
const WORDS: [(&str, &str); 4] = [
    (
        LLM_RATE_LIMITED,
        "ratelimit|rate limit|rate_limit|429|too many requests|quota",
    ),
    (
        LLM_AUTH_FAILED,
        "authentication|permissiondenied|unauthorized|401|403|invalid api key|invalid_api_key|\
         incorrect api key",
    ),
    (
        UPSTREAM_TIMEOUT,
        "timeout|timed out|deadline exceeded|etimedout",
    ),
    (
        UPSTREAM_UNREACHABLE,
        "connectionerror|apiconnectionerror|connection refused|econnrefused|enotfound|econnreset|\
         connection reset|connectionreseterror|unreachable|name or service not known|\
         failed to establish a new connection",
    ),
];

/// Whether an error line says the caller cancelled the run rather than that it failed: Python's
/// `asyncio.CancelledError` (the consuming task cancelled), JS's `AbortError` (an
/// `AbortController` abort; a v3 root `lifecycle failed` carries only its message).
pub fn is_cancelled(e: &ErrorInfo) -> bool {
    let name = e.name.as_deref().unwrap_or_default();
    let name = name.rsplit('.').next().unwrap_or(name);
    matches!(name, "CancelledError" | "AbortError")
        || (e.name.is_none() && e.message == "This operation was aborted")
}

/// Classifies an error by its `lc_error_code`, exception name and message.
pub fn classify(e: &ErrorInfo) -> &'static str {
    let name = e.name.as_deref().unwrap_or_default().to_ascii_lowercase();
    let msg = e.message.to_ascii_lowercase();
    if e.lc_code.as_deref() == Some("GRAPH_RECURSION_LIMIT")
        || name.contains("recursion")
        || msg.contains("recursion limit")
    {
        return GRAPH_STEP_LIMIT;
    }
    let has = |w: &str| name.contains(w) || msg.contains(w);
    (WORDS.iter())
        .find(|(_, words)| words.split('|').any(has))
        .map_or(AGENT_INTERNAL, |(class, _)| class)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn e(name: &str, msg: &str) -> ErrorInfo {
        ErrorInfo {
            name: Some(name.into()),
            message: msg.into(),
            lc_code: None,
        }
    }

    fn message_only(msg: &str) -> ErrorInfo {
        ErrorInfo {
            name: None,
            message: msg.into(),
            lc_code: None,
        }
    }

    #[test]
    fn classes() {
        assert_eq!(
            classify(&e("GraphRecursionError", "Recursion limit of 25 reached")),
            GRAPH_STEP_LIMIT
        );
        assert_eq!(
            classify(&e("RateLimitError", "Error code: 429")),
            LLM_RATE_LIMITED
        );
        assert_eq!(
            classify(&e(
                "AuthenticationError",
                "Error code: 401 - invalid api key"
            )),
            LLM_AUTH_FAILED
        );
        assert_eq!(
            classify(&e("APITimeoutError", "Request timed out.")),
            UPSTREAM_TIMEOUT
        );
        assert_eq!(
            classify(&e("APIConnectionError", "Connection error.")),
            UPSTREAM_UNREACHABLE
        );
        assert_eq!(
            classify(&e("ValueError", "order service unavailable")),
            AGENT_INTERNAL
        );
        // Classes are tried in order; a word counts in the name or the message, any case.
        assert_eq!(
            classify(&e("TimeoutError", "429 Too Many Requests")),
            LLM_RATE_LIMITED
        );
        assert_eq!(classify(&e("ETIMEDOUT", "")), UPSTREAM_TIMEOUT);
        assert_eq!(
            classify(&e("OSError", "Name or service not known")),
            UPSTREAM_UNREACHABLE
        );
        // Python's ConnectionResetError is JS's ECONNRESET (issue 22.10); by message alone
        // too (an AG-UI RUN_ERROR carries no exception name).
        assert_eq!(
            classify(&e(
                "ConnectionResetError",
                "upstream connection reset by peer"
            )),
            UPSTREAM_UNREACHABLE
        );
        assert_eq!(
            classify(&message_only("upstream connection reset by peer")),
            UPSTREAM_UNREACHABLE
        );
        assert_eq!(
            classify(&message_only(
                "Recursion limit of 3 reached without hitting a stop condition."
            )),
            GRAPH_STEP_LIMIT
        );
        let recursion = ErrorInfo {
            name: None,
            message: "rate limit".into(),
            lc_code: Some("GRAPH_RECURSION_LIMIT".into()),
        };
        assert_eq!(classify(&recursion), GRAPH_STEP_LIMIT);
    }

    #[test]
    fn cancellations() {
        assert!(is_cancelled(&e("CancelledError", "")));
        assert!(is_cancelled(&e("asyncio.CancelledError", "")));
        assert!(is_cancelled(&e("AbortError", "This operation was aborted")));
        let lifecycle = ErrorInfo {
            name: None,
            message: "This operation was aborted".into(),
            lc_code: None,
        };
        assert!(is_cancelled(&lifecycle));
        assert!(!is_cancelled(&e(
            "ValueError",
            "This operation was aborted"
        )));
        assert!(!is_cancelled(&e("TimeoutError", "cancelled after 30s")));
    }
}
