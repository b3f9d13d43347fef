//! Every refusal of the server, as one JSON body: `{"error":{"code","message"}}`, whether
//! answered by a handler, the router's fallbacks, the Host check, the connection limit, or
//! hyper itself for a request head it cannot read.

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::json;

/// A refusal: the status, a stable `code` and a message for a person.
#[derive(Debug, Clone)]
pub struct Refusal {
    pub status: StatusCode,
    pub code: &'static str,
    pub message: String,
}

impl Refusal {
    pub fn new(status: u16, code: &'static str, message: impl Into<String>) -> Self {
        Refusal {
            status: StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR),
            code,
            message: message.into(),
        }
    }

    pub fn bad(code: &'static str, message: impl Into<String>) -> Self {
        Refusal::new(400, code, message)
    }

    pub fn body(&self) -> Vec<u8> {
        let v = json!({"error": {"code": self.code, "message": self.message}});
        serde_json::to_vec(&v).unwrap_or_default()
    }

    /// A whole HTTP/1.1 response (for answers written before hyper is involved), closing the
    /// connection; `headers` are further header lines, each without its CRLF.
    pub fn raw_response(&self, headers: &[&str]) -> Vec<u8> {
        let body = self.body();
        let mut out = format!(
            "HTTP/1.1 {} {}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n",
            self.status.as_u16(),
            self.status.canonical_reason().unwrap_or(""),
            body.len()
        )
        .into_bytes();
        for h in headers {
            out.extend_from_slice(h.as_bytes());
            out.extend_from_slice(b"\r\n");
        }
        out.extend_from_slice(b"\r\n");
        out.extend_from_slice(&body);
        out
    }
}

impl IntoResponse for Refusal {
    fn into_response(self) -> Response {
        let mut resp = (self.status, self.body()).into_response();
        resp.headers_mut().insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        );
        let note = format!(" {}", self.code);
        resp.extensions_mut().insert(super::log::LogNote(note));
        resp
    }
}

/// hyper's own answer to a request head it cannot read, with an empty body, rewritten with
/// the JSON body (`None` for anything else). `head` must be exactly one response head.
pub fn rewrite_bare(head: &[u8]) -> Option<Vec<u8>> {
    let rest = head.strip_prefix(b"HTTP/1.1 ")?;
    let (status, code, message) = match rest.get(..4)? {
        b"400 " => (
            400,
            "BAD_REQUEST",
            "the request line or a header is not valid HTTP/1.1",
        ),
        b"414 " => (414, "URI_TOO_LONG", "the request target is too long"),
        b"431 " => (
            431,
            "HEADERS_TOO_LARGE",
            "the request headers are too large or too many",
        ),
        _ => return None,
    };
    let text = std::str::from_utf8(head).ok()?;
    let lines = text.strip_suffix("\r\n\r\n")?;
    let mut kept = vec![];
    let mut empty = false;
    for line in lines.split("\r\n").skip(1) {
        let (name, value) = line.split_once(':')?;
        match name.trim().to_ascii_lowercase().as_str() {
            "content-length" => empty = value.trim() == "0",
            "connection" => {}
            "content-type" | "transfer-encoding" => return None,
            _ => kept.push(line),
        }
    }
    empty.then(|| Refusal::new(status, code, message).raw_response(&kept))
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
