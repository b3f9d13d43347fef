//! Every refusal of the server, as one JSON body: `{"error":{"code","message"}}`, whether
//! answered by a handler, the router's fallbacks, the Host check, the connection limit, or
//! hyper itself for a request head it cannot read.

use std::time::Duration;

use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::json;

/// A refusal: its status and stable `code` ([`Refusal::status_code`]), and its message for a
/// person (its `Display`). Texts from the request come cut and escaped.
#[derive(Debug, thiserror::Error)]
pub enum Refusal {
    #[error("the request line or a header is not valid HTTP/1.1")]
    BadRequest,
    #[error("the request target is too long")]
    UriTooLong,
    #[error("the request headers are too large or too many")]
    HeadersTooLarge,
    #[error("nothing at {0}: POST a RunAgentInput to / or /<conversation>; GET / lists the conversations")]
    NotFound(String),
    /// The path's name, and the names the server has.
    #[error("no conversation named '{0}'; this server has: {1}")]
    UnknownConversation(String, String),
    #[error("{0} is not served here: POST a RunAgentInput, or GET the conversations")]
    MethodNotAllowed(Method),
    /// A CORS preflight's origin, to a server without `--cors`.
    #[error("a browser page at {0} asked to call this server (a CORS preflight), but cross-origin requests are not enabled: start with --cors {0} to allow this origin")]
    CorsNotEnabled(String),
    #[error("this server is bound to a loopback address and answers requests for localhost, 127.0.0.1 or [::1] only (a page on another site can reach loopback through DNS rebinding); Host '{0}' is not one: start with --allow-host {0} to allow it")]
    HostNotAllowed(String),
    /// The content type given.
    #[error("the body must be a RunAgentInput sent as Content-Type: application/json (got {0})")]
    UnsupportedMediaType(String),
    #[error("the request body is larger than {0} bytes (--max-body)")]
    BodyTooLarge(usize),
    #[error("the request body did not arrive within {} ms (--body-timeout)", .0.as_millis())]
    BodyTimeout(Duration),
    #[error("reading the body: {0}")]
    BadBody(axum::Error),
    #[error("the body is not JSON: {0}")]
    InvalidJson(serde_json::Error),
    /// JSON that is not a RunAgentInput: what it lacks or holds instead, and where.
    #[error("the body is not a RunAgentInput: {0}")]
    InvalidInput(String),
    #[error("`threadId` is {0} bytes long; at most {MAX_THREAD_ID_BYTES} are accepted")]
    ThreadIdTooLong(usize),
    #[error("the server already serves {0} connections (--max-connections); retry later")]
    TooManyConnections(usize),
}

/// The longest `threadId` accepted (400 otherwise): thread states are keyed by it.
pub const MAX_THREAD_ID_BYTES: usize = 400;

impl Refusal {
    /// The HTTP status and the error body's `code`.
    pub fn status_code(&self) -> (StatusCode, &'static str) {
        use Refusal as R;
        use StatusCode as S;
        match self {
            R::BadRequest => (S::BAD_REQUEST, "BAD_REQUEST"),
            R::UriTooLong => (S::URI_TOO_LONG, "URI_TOO_LONG"),
            R::HeadersTooLarge => (S::REQUEST_HEADER_FIELDS_TOO_LARGE, "HEADERS_TOO_LARGE"),
            R::NotFound(_) => (S::NOT_FOUND, "NOT_FOUND"),
            R::UnknownConversation(..) => (S::NOT_FOUND, "UNKNOWN_CONVERSATION"),
            R::MethodNotAllowed(_) => (S::METHOD_NOT_ALLOWED, "METHOD_NOT_ALLOWED"),
            R::CorsNotEnabled(_) => (S::FORBIDDEN, "CORS_NOT_ENABLED"),
            R::HostNotAllowed(_) => (S::FORBIDDEN, "HOST_NOT_ALLOWED"),
            R::UnsupportedMediaType(_) => (S::UNSUPPORTED_MEDIA_TYPE, "UNSUPPORTED_MEDIA_TYPE"),
            R::BodyTooLarge(_) => (S::PAYLOAD_TOO_LARGE, "BODY_TOO_LARGE"),
            R::BodyTimeout(_) => (S::REQUEST_TIMEOUT, "BODY_TIMEOUT"),
            R::BadBody(_) => (S::BAD_REQUEST, "BAD_BODY"),
            R::InvalidJson(_) => (S::BAD_REQUEST, "INVALID_JSON"),
            R::InvalidInput(_) | R::ThreadIdTooLong(_) => (S::BAD_REQUEST, "INVALID_INPUT"),
            R::TooManyConnections(_) => (S::SERVICE_UNAVAILABLE, "TOO_MANY_CONNECTIONS"),
        }
    }

    /// The JSON error body.
    pub fn body(&self) -> String {
        json!({"error": {"code": self.status_code().1, "message": self.to_string()}}).to_string()
    }
}

impl IntoResponse for Refusal {
    fn into_response(self) -> Response {
        let (status, code) = self.status_code();
        let json = [(header::CONTENT_TYPE, "application/json")];
        let mut resp = (status, json, self.body()).into_response();
        if let Refusal::MethodNotAllowed(_) = self {
            let allow = HeaderValue::from_static("GET, POST");
            resp.headers_mut().insert(header::ALLOW, allow);
        }
        let hint = match &self {
            Refusal::CorsNotEnabled(origin) => {
                format!(" (start with --cors {origin} to allow this origin)")
            }
            _ => String::new(),
        };
        resp.extensions_mut()
            .insert(super::log::LogNote(format!(" {code}{hint}")));
        resp
    }
}

/// hyper's own answer to a request head it cannot read, with an empty body, rewritten with
/// the JSON body (`None` for anything else). `head` must be exactly one response head, as
/// hyper writes it: lower-case names, `content-length: 0`, no content type.
pub fn rewrite_bare(head: &[u8]) -> Option<Vec<u8>> {
    let text = std::str::from_utf8(head).ok()?;
    let refusal = match text.get(..13)? {
        "HTTP/1.1 400 " => Refusal::BadRequest,
        "HTTP/1.1 414 " => Refusal::UriTooLong,
        "HTTP/1.1 431 " => Refusal::HeadersTooLarge,
        _ => return None,
    };
    if !text.ends_with("\r\n\r\n") || text.contains("\r\ncontent-type:") {
        return None;
    }
    let (before, after) = text.split_once("\r\ncontent-length: 0\r\n")?;
    let body = refusal.body();
    let typed = format!(
        "content-type: application/json\r\ncontent-length: {}",
        body.len()
    );
    Some(format!("{before}\r\n{typed}\r\n{after}{body}").into_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rewrites_hypers_bare_refusals_only() {
        // As hyper 1.x writes it.
        let bare = b"HTTP/1.1 431 Request Header Fields Too Large\r\nconnection: close\r\ncontent-length: 0\r\ndate: Tue, 01 Dec 2026 15:00:00 GMT\r\n\r\n";
        let got = String::from_utf8(rewrite_bare(bare).expect("rewritten")).expect("utf-8");
        let (head, body) = got.split_once("\r\n\r\n").expect("head");
        assert!(head.starts_with("HTTP/1.1 431 Request Header Fields Too Large\r\n"));
        assert!(head.contains("\r\ncontent-type: application/json\r\n"));
        assert!(head.contains(&format!("\r\ncontent-length: {}\r\n", body.len())));
        assert!(head.contains("\r\ndate: Tue, 01 Dec 2026 15:00:00 GMT"));
        assert_eq!(head.matches("connection: close").count(), 1);
        let v: serde_json::Value = serde_json::from_str(body).expect("json");
        assert_eq!(v["error"]["code"], "HEADERS_TOO_LARGE");
        // A response with a body, or another status, passes as it is.
        assert!(rewrite_bare(b"HTTP/1.1 400 Bad Request\r\ncontent-length: 12\r\n\r\n").is_none());
        assert!(rewrite_bare(b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n").is_none());
        assert!(rewrite_bare(
            b"HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\ncontent-length: 0\r\n\r\n"
        )
        .is_none());
        // Not one whole head.
        assert!(rewrite_bare(b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n").is_none());
    }
}
