//! `aguify serve`: recorded conversations as a live AG-UI HTTP endpoint.
//!
//! - `POST /` (the default conversation) or `POST /<name>` with a `RunAgentInput` JSON body →
//!   `200 text/event-stream`: the next recorded run of that thread, framed exactly as
//!   `convert --to sse`, paced by [`Pacing`], with `: keep-alive` comments on long gaps.
//!   RUN_STARTED (and its `input`) and RUN_FINISHED carry the request's threadId and runId.
//! - Per thread ([`session`]): the first request gets run 1; a run that ended with an
//!   interrupt outcome makes the next request answer every pending interrupt id in
//!   `resume[]`; otherwise, or after the last run, the stream is RUN_STARTED + RUN_ERROR
//!   (`RESUME_MISMATCH`, `CONVERSATION_ENDED`).
//! - `GET /` lists the conversations as JSON; `GET /<name>` shows one.
//! - Errors before a stream starts are JSON `{"error":{"code","message"}}`: 400 (malformed
//!   JSON, no threadId/runId), 404 (unknown conversation), 413 (body over the limit).

pub mod session;
pub mod store;
pub mod stream;

use std::future::Future;
use std::io;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::extract::{Path, State};
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use indexmap::IndexMap;
use serde_json::{json, Value};
use tokio_util::sync::CancellationToken;
use tower_http::cors::{AllowOrigin, Any, CorsLayer};

use crate::replay::Pacing;
pub use session::{Admission, Sessions, CONVERSATION_ENDED, RESUME_MISMATCH};
pub use store::{Conversation, Ending, RecordedRun};
use stream::{sse_stream, ActiveGuard};

/// Errors setting up a server (serving itself reports per request).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ServeError {
    #[error("conversation '{name}': {source}")]
    Load {
        name: String,
        #[source]
        source: crate::Error,
    },
    #[error("conversation '{0}': the recording holds no AG-UI run")]
    Empty(String),
    #[error("{path}: {source}")]
    ReadDir {
        path: String,
        #[source]
        source: io::Error,
    },
    #[error("{0}: no *.ndjson, *.jsonl or *.sse recordings in this folder")]
    NoRecordings(String),
    #[error("conversation name '{0}' is not usable in a URL path (use letters, digits, '-', '_', '.'); name it with NAME=DIR")]
    BadName(String),
    #[error("two conversations are named '{0}'; name one with --conversation NAME=DIR")]
    DuplicateName(String),
    #[error("nothing to serve: give recording files or --conversation DIR")]
    NoConversations,
    #[error("--cors {0:?} is not a valid origin header value")]
    BadCors(String),
}

/// Server settings.
#[derive(Debug, Clone)]
pub struct ServeConfig {
    pub pacing: Pacing,
    /// A `: keep-alive` comment is written after this long without a frame.
    pub keep_alive: Duration,
    /// Request bodies larger than this get 413.
    pub body_limit: usize,
    /// `--cors ORIGIN`: allow this browser origin (`*` for any).
    pub cors: Option<String>,
    /// Threads remembered per server (least recently used forgotten first).
    pub max_threads: usize,
    /// Called with one line per request (the CLI prints it to stderr).
    pub log: Option<fn(&str)>,
}

pub const DEFAULT_KEEP_ALIVE: Duration = Duration::from_secs(15);
pub const DEFAULT_BODY_LIMIT: usize = 1024 * 1024;

impl Default for ServeConfig {
    fn default() -> Self {
        ServeConfig {
            pacing: Pacing::default(),
            keep_alive: DEFAULT_KEEP_ALIVE,
            body_limit: DEFAULT_BODY_LIMIT,
            cors: None,
            max_threads: 10_000,
            log: None,
        }
    }
}

struct AppState {
    conversations: IndexMap<String, Conversation>,
    sessions: Sessions,
    cfg: ServeConfig,
    active: Arc<AtomicUsize>,
    cancel: CancellationToken,
}

/// A configured server: conversations, thread states and settings.
#[derive(Clone)]
pub struct App {
    state: Arc<AppState>,
}

impl App {
    /// The first conversation is the default one (`POST /`).
    pub fn new(conversations: Vec<Conversation>, cfg: ServeConfig) -> Result<App, ServeError> {
        if conversations.is_empty() {
            return Err(ServeError::NoConversations);
        }
        if let Some(origin) = &cfg.cors {
            if origin != "*" && HeaderValue::from_str(origin).is_err() {
                return Err(ServeError::BadCors(origin.clone()));
            }
        }
        let mut map = IndexMap::new();
        for c in conversations {
            if map.contains_key(&c.name) {
                return Err(ServeError::DuplicateName(c.name));
            }
            map.insert(c.name.clone(), c);
        }
        Ok(App {
            state: Arc::new(AppState {
                conversations: map,
                sessions: Sessions::new(cfg.max_threads),
                cfg,
                active: Arc::new(AtomicUsize::new(0)),
                cancel: CancellationToken::new(),
            }),
        })
    }

    /// The axum router (with the CORS layer when configured).
    pub fn router(&self) -> Router {
        let router = Router::new()
            .route("/", get(list).post(post_default))
            .route("/{name}", get(show).post(post_named))
            .with_state(self.state.clone());
        match &self.state.cfg.cors {
            None => router,
            Some(origin) => {
                let allow = if origin == "*" {
                    AllowOrigin::any()
                } else {
                    // Checked in `new`.
                    AllowOrigin::exact(
                        HeaderValue::from_str(origin).unwrap_or(HeaderValue::from_static("null")),
                    )
                };
                router.layer(
                    CorsLayer::new()
                        .allow_origin(allow)
                        .allow_methods([Method::GET, Method::POST])
                        .allow_headers(Any)
                        .max_age(Duration::from_secs(600)),
                )
            }
        }
    }

    /// Streams being served right now.
    pub fn active_streams(&self) -> usize {
        self.state.active.load(Ordering::SeqCst)
    }

    /// Cancelling it ends every open stream (with a RUN_ERROR `SERVER_SHUTDOWN` if mid-run).
    pub fn shutdown_token(&self) -> CancellationToken {
        self.state.cancel.clone()
    }

    pub fn conversation_names(&self) -> Vec<String> {
        self.state.conversations.keys().cloned().collect()
    }
}

/// Serves `app` on `listener` until `shutdown` resolves; then open streams end and the server
/// waits for their connections to close.
pub async fn serve<F>(listener: tokio::net::TcpListener, app: App, shutdown: F) -> io::Result<()>
where
    F: Future<Output = ()> + Send + 'static,
{
    let token = app.shutdown_token();
    axum::serve(listener, app.router())
        .with_graceful_shutdown(async move {
            shutdown.await;
            token.cancel();
        })
        .await
}

/// An error answered before any stream starts: `{"error":{"code","message"}}`.
#[derive(Debug)]
struct ApiError {
    status: StatusCode,
    code: &'static str,
    message: String,
}

impl ApiError {
    fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> Self {
        ApiError {
            status,
            code,
            message: message.into(),
        }
    }

    fn bad(code: &'static str, message: impl Into<String>) -> Self {
        ApiError::new(StatusCode::BAD_REQUEST, code, message)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (
            self.status,
            Json(json!({"error": {"code": self.code, "message": self.message}})),
        )
            .into_response()
    }
}

fn describe(c: &Conversation, default: bool) -> Value {
    json!({
        "name": c.name,
        "path": format!("/{}", c.name),
        "default": default,
        "files": c.files,
        "runs": c.runs.iter().map(|r| json!({
            "events": r.events.len(),
            "ending": r.ending.as_str(),
            "interrupts": r.interrupts,
        })).collect::<Vec<_>>(),
    })
}

async fn list(State(st): State<Arc<AppState>>) -> Response {
    let conversations: Vec<Value> = st
        .conversations
        .values()
        .enumerate()
        .map(|(i, c)| describe(c, i == 0))
        .collect();
    Json(json!({
        "conversations": conversations,
        "activeStreams": st.active.load(Ordering::SeqCst),
        "usage": "POST a RunAgentInput to a conversation's path; the response is its next recorded run as AG-UI SSE",
    }))
    .into_response()
}

async fn show(State(st): State<Arc<AppState>>, Path(name): Path<String>) -> Response {
    match st.conversations.get_index_of(&name) {
        Some(i) => Json(describe(&st.conversations[i], i == 0)).into_response(),
        None => unknown(&st, &name),
    }
}

fn unknown(st: &AppState, name: &str) -> Response {
    let names: Vec<&str> = st.conversations.keys().map(String::as_str).collect();
    ApiError::new(
        StatusCode::NOT_FOUND,
        "UNKNOWN_CONVERSATION",
        format!(
            "no conversation named '{name}'; this server has: {}",
            names.join(", ")
        ),
    )
    .into_response()
}

async fn post_default(State(st): State<Arc<AppState>>, body: Body) -> Response {
    run(st, 0, body).await
}

async fn post_named(
    State(st): State<Arc<AppState>>,
    Path(name): Path<String>,
    body: Body,
) -> Response {
    match st.conversations.get_index_of(&name) {
        Some(i) => run(st, i, body).await,
        None => unknown(&st, &name),
    }
}

/// The parts of a RunAgentInput the replay needs.
#[derive(Debug)]
struct RunRequest {
    thread_id: String,
    run_id: String,
    resume: Vec<String>,
}

fn parse_request(bytes: &[u8]) -> Result<RunRequest, ApiError> {
    let v: Value = serde_json::from_slice(bytes)
        .map_err(|e| ApiError::bad("INVALID_JSON", format!("the body is not JSON: {e}")))?;
    let Some(o) = v.as_object() else {
        return Err(ApiError::bad(
            "INVALID_INPUT",
            "the body must be a RunAgentInput JSON object",
        ));
    };
    let field = |k: &str| -> Result<String, ApiError> {
        o.get(k)
            .and_then(Value::as_str)
            .map(str::to_string)
            .ok_or_else(|| {
                ApiError::bad(
                    "INVALID_INPUT",
                    format!("RunAgentInput needs a string `{k}`"),
                )
            })
    };
    let thread_id = field("threadId")?;
    let run_id = field("runId")?;
    let resume = match o.get("resume") {
        None | Some(Value::Null) => vec![],
        Some(Value::Array(entries)) => entries
            .iter()
            .map(|e| {
                e.get("interruptId")
                    .and_then(Value::as_str)
                    .map(str::to_string)
                    .ok_or_else(|| {
                        ApiError::bad(
                            "INVALID_INPUT",
                            "every resume[] entry needs a string `interruptId`",
                        )
                    })
            })
            .collect::<Result<_, _>>()?,
        Some(_) => return Err(ApiError::bad("INVALID_INPUT", "`resume` must be an array")),
    };
    Ok(RunRequest {
        thread_id,
        run_id,
        resume,
    })
}

async fn read_body(body: Body, limit: usize) -> Result<axum::body::Bytes, ApiError> {
    axum::body::to_bytes(body, limit).await.map_err(|e| {
        let too_large = std::error::Error::source(&e)
            .is_some_and(|s| s.is::<http_body_util::LengthLimitError>())
            || e.to_string().contains("length limit exceeded");
        if too_large {
            ApiError::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                "BODY_TOO_LARGE",
                format!("the request body is larger than {limit} bytes"),
            )
        } else {
            ApiError::bad("BAD_BODY", format!("reading the body: {e}"))
        }
    })
}

async fn run(st: Arc<AppState>, index: usize, body: Body) -> Response {
    let bytes = match read_body(body, st.cfg.body_limit).await {
        Ok(b) => b,
        Err(e) => return e.into_response(),
    };
    let req = match parse_request(&bytes) {
        Ok(r) => r,
        Err(e) => return e.into_response(),
    };
    let Some((_, conv)) = st.conversations.get_index(index) else {
        return ApiError::new(
            StatusCode::NOT_FOUND,
            "UNKNOWN_CONVERSATION",
            "no such conversation",
        )
        .into_response();
    };
    let admission = st.sessions.admit(conv, &req.thread_id, &req.resume);
    let (events, pacing) = match &admission {
        Admission::Run(i) => (conv.runs[*i].events.clone(), st.cfg.pacing),
        Admission::Refused { code, message } => (
            Arc::new(vec![
                json!({"type": "RUN_STARTED", "threadId": req.thread_id, "runId": req.run_id}),
                json!({"type": "RUN_ERROR", "message": message, "code": code}),
            ]),
            Pacing::instant(),
        ),
    };
    if let Some(log) = st.cfg.log {
        let what = match &admission {
            Admission::Run(i) => format!(
                "run {}/{} ({} events, ends {})",
                i + 1,
                conv.runs.len(),
                conv.runs[*i].events.len(),
                conv.runs[*i].ending.as_str()
            ),
            Admission::Refused { code, .. } => format!("RUN_ERROR {code}"),
        };
        log(&format!(
            "POST {} thread={} run={} → {what}",
            if index == 0 {
                "/".to_string()
            } else {
                format!("/{}", conv.name)
            },
            req.thread_id,
            req.run_id
        ));
    }
    let body = sse_stream(
        events,
        req.thread_id,
        req.run_id,
        pacing,
        st.cfg.keep_alive,
        st.cancel.child_token(),
        ActiveGuard::new(st.active.clone()),
    );
    Response::builder()
        .status(StatusCode::OK)
        .header(header::CONTENT_TYPE, "text/event-stream")
        .header(header::CACHE_CONTROL, "no-cache")
        .header("x-accel-buffering", "no")
        .body(Body::from_stream(body))
        .unwrap_or_else(|e| {
            ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "INTERNAL", e.to_string())
                .into_response()
        })
}
