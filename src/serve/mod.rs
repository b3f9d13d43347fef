//! `aguify serve`: recorded conversations as a live AG-UI HTTP endpoint.
//!
//! - `POST /` (the default conversation) or `POST /<name>` with a `RunAgentInput` JSON body
//!   (`Content-Type: application/json`) → `200 text/event-stream`: the next recorded run of
//!   that thread, framed exactly as `convert --to sse`, paced by [`Pacing`], with
//!   `: keep-alive` comments on long gaps. RUN_STARTED (and its `input`) and RUN_FINISHED
//!   carry the request's threadId and runId.
//! - Per thread ([`session`]): the first request gets run 1; a run that ended with an
//!   interrupt outcome makes the next request answer every pending interrupt id in
//!   `resume[]`; otherwise, or after the last run, the stream is RUN_STARTED + RUN_ERROR
//!   (`RESUME_MISMATCH`, `CONVERSATION_ENDED`).
//! - `GET /` lists the conversations as JSON; `GET /<name>` shows one.
//! - Every refusal before a stream starts is JSON `{"error":{"code","message"}}`
//!   ([`refusal`]), from the handlers, the router's fallbacks, the Host check ([`host`]), the
//!   connection limit and hyper's own answers alike ([`listener`]).
//! - Every request is logged when its response ends ([`log`]).

pub mod host;
pub mod listener;
pub mod log;
pub mod refusal;
pub mod session;
pub mod store;
pub mod stream;

use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail};
use axum::body::{Body, HttpBody};
use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, HeaderName, HeaderValue, Method, Uri};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use indexmap::IndexMap;
use serde::Deserialize;
use serde_json::{json, Map, Value};
use tokio_util::sync::CancellationToken;
use tower_http::cors::{AllowOrigin, Any, CorsLayer};

use crate::agui::Event;
use crate::replay::{millis, positive, Pacer, Pacing};
use clap::builder::TypedValueParser;
use host::HostCheck;
pub use listener::serve;
use log::{LogLine, Streamed};
use refusal::{Refusal, MAX_THREAD_ID_BYTES};
pub use session::{Admission, Sessions, CONVERSATION_ENDED, RESUME_MISMATCH};
pub use store::{Conversation, RecordedRun};
use stream::Replay;

/// Server settings: the options of `aguify serve`, and its defaults as
/// [`ServeConfig::default`].
#[derive(Debug, Clone, clap::Parser)]
pub struct ServeConfig {
    /// Address to listen on, HOST:PORT, or PORT on loopback (127.0.0.1)
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1:8000", value_parser = host::parse_listen)]
    pub listen: String,
    #[command(flatten)]
    pub pacing: Pacing,
    /// Allow browser requests from this origin (e.g. http://localhost:3000, or * for any)
    #[arg(long, value_name = "ORIGIN")]
    pub cors: Option<String>,
    /// Also answer requests whose Host is HOST when bound to loopback (only localhost,
    /// 127.0.0.1, [::1] and the --listen host are by default, against DNS rebinding); `*`
    /// answers any; repeatable
    #[arg(long = "allow-host", value_name = "HOST")]
    pub allow_hosts: Vec<String>,
    /// Request bodies larger than this get 413
    #[arg(long = "max-body", value_name = "BYTES", default_value = "1048576")]
    pub body_limit: usize,
    /// Close a connection whose request head (request line and headers) has not arrived
    /// within this many ms, an idle keep-alive connection included
    #[arg(long, value_name = "MS", default_value = "10000",
          value_parser = clap::value_parser!(u64).range(1..).map(Duration::from_millis))]
    pub header_timeout: Duration,
    /// Answer 408 when a request body has not arrived within this many ms
    #[arg(long, value_name = "MS", default_value = "30000",
          value_parser = clap::value_parser!(u64).range(1..).map(Duration::from_millis))]
    pub body_timeout: Duration,
    /// Connections served at once; more are answered 503
    #[arg(long, value_name = "N", default_value = "256", value_parser = positive)]
    pub max_connections: usize,
    /// Threads remembered; past it the least recently used one with no stream in progress
    /// is forgotten (its next request starts the conversation over)
    #[arg(long, value_name = "N", default_value = "10000", value_parser = positive)]
    pub max_threads: usize,
    /// On Ctrl-C or SIGTERM, close connections still open after this many ms
    #[arg(long, value_name = "MS", default_value = "3000", value_parser = millis())]
    pub shutdown_grace: Duration,
    /// A `: keep-alive` comment is written after this long without a frame.
    #[arg(skip = Duration::from_secs(15))]
    pub keep_alive: Duration,
    /// A connection whose client has read nothing of what the server waits to write for this
    /// long (a client that stopped reading) is closed and logged.
    #[arg(skip = Duration::from_secs(30))]
    pub write_timeout: Duration,
    /// Called with one line per request (the CLI prints it to stderr).
    #[arg(skip)]
    pub log: Option<fn(&str)>,
}

impl Default for ServeConfig {
    fn default() -> Self {
        clap::Parser::parse_from(["aguify"])
    }
}

struct AppState {
    conversations: IndexMap<String, Conversation>,
    sessions: Sessions,
    /// `--cors`, checked.
    cors: Option<AllowOrigin>,
    cfg: ServeConfig,
    /// One clone per live stream.
    active: Arc<()>,
    cancel: CancellationToken,
}

/// A configured server: conversations, thread states and settings.
#[derive(Clone)]
pub struct App {
    state: Arc<AppState>,
}

impl App {
    /// The first conversation is the default one (`POST /`).
    pub fn new(conversations: Vec<Conversation>, cfg: ServeConfig) -> anyhow::Result<App> {
        if conversations.is_empty() {
            bail!("nothing to serve: give recording files or --conversation DIR");
        }
        let cors = match cfg.cors.as_deref() {
            None => None,
            Some("*") => Some(AllowOrigin::any()),
            Some(origin) => Some(AllowOrigin::exact(HeaderValue::from_str(origin).map_err(
                |_| anyhow!("--cors {origin:?} is not a valid origin header value"),
            )?)),
        };
        let mut map = IndexMap::new();
        for c in conversations {
            if let Some(twin) = map.insert(c.name.clone(), c) {
                bail!(
                    "two conversations are named '{}'; name one with --conversation NAME=DIR",
                    twin.name
                );
            }
        }
        Ok(App {
            state: Arc::new(AppState {
                conversations: map,
                sessions: Sessions::new(cfg.max_threads),
                cors,
                cfg,
                active: Arc::new(()),
                cancel: CancellationToken::new(),
            }),
        })
    }

    /// The axum router for a server bound to `addr`: routes, fallbacks, CORS when configured,
    /// the Host check and the request log.
    fn router(&self, addr: std::net::SocketAddr) -> Router {
        let cfg = &self.state.cfg;
        let mut router = Router::new()
            .route("/", get(list).post(post).fallback(method_not_allowed))
            .route("/{name}", get(show).post(post).fallback(method_not_allowed))
            .fallback(not_found)
            .with_state(self.state.clone());
        if let Some(allow) = &self.state.cors {
            router = router.layer(
                CorsLayer::new()
                    .allow_origin(allow.clone())
                    .allow_methods([Method::GET, Method::POST])
                    .allow_headers(Any)
                    .max_age(Duration::from_secs(600)),
            );
        }
        if let Some(hosts) = HostCheck::new(addr, &cfg.listen, &cfg.allow_hosts) {
            router = router.layer(middleware::from_fn(move |req: Request, next: Next| {
                host::check(hosts.clone(), req, next)
            }));
        }
        if let Some(log) = cfg.log {
            let shutdown = self.state.cancel.clone();
            router = router.layer(middleware::from_fn(move |req: Request, next: Next| {
                log::requests(log, shutdown.clone(), req, next)
            }));
        }
        router
    }

    /// Streams being served right now.
    pub fn active_streams(&self) -> usize {
        Arc::strong_count(&self.state.active) - 1
    }

    /// How many threads the server remembers.
    pub fn threads(&self) -> usize {
        self.state.sessions.len()
    }
}

fn describe(c: &Conversation, default: bool) -> Value {
    json!({
        "name": c.name,
        "path": format!("/{}", c.name),
        "default": default,
        "files": c.files,
        "runs": c.runs.iter().map(|r| json!({
            "events": r.frames.len(),
            "ending": r.ending,
            "interrupts": r.interrupts,
        })).collect::<Vec<_>>(),
    })
}

async fn list(State(st): State<Arc<AppState>>) -> Json<Value> {
    let all = st.conversations.values().enumerate();
    Json(json!({
        "conversations": all.map(|(i, c)| describe(c, i == 0)).collect::<Vec<_>>(),
        "activeStreams": Arc::strong_count(&st.active) - 1,
        "usage": "POST a RunAgentInput to a conversation's path; the response is its next recorded run as AG-UI SSE",
    }))
}

/// The conversation a path names: `/` the default one, `/<name>` a named one (names are
/// plain ASCII, so the segment is compared as it is, undecoded).
fn conversation_of(st: &AppState, uri: &Uri) -> Result<usize, Refusal> {
    let name = uri.path().trim_start_matches('/');
    if name.is_empty() {
        return Ok(0);
    }
    st.conversations.get_index_of(name).ok_or_else(|| {
        let names: Vec<&str> = st.conversations.keys().map(String::as_str).collect();
        Refusal::UnknownConversation(log::field(name), names.join(", "))
    })
}

async fn show(State(st): State<Arc<AppState>>, uri: Uri) -> Result<Json<Value>, Refusal> {
    let i = conversation_of(&st, &uri)?;
    Ok(Json(describe(&st.conversations[i], i == 0)))
}

async fn not_found(uri: Uri) -> Refusal {
    Refusal::NotFound(log::field(uri.path()))
}

/// 405 for a method a path does not take; a CORS preflight to a server without `--cors`
/// is told how to allow it.
async fn method_not_allowed(method: Method, headers: HeaderMap) -> Refusal {
    let preflight =
        method == Method::OPTIONS && headers.contains_key(header::ACCESS_CONTROL_REQUEST_METHOD);
    match header_text(&headers, header::ORIGIN) {
        Some(origin) if preflight => Refusal::CorsNotEnabled(origin),
        _ => Refusal::MethodNotAllowed(method),
    }
}

/// A header's value as logged ([`log::field`]).
fn header_text(headers: &HeaderMap, name: header::HeaderName) -> Option<String> {
    let value = String::from_utf8_lossy(headers.get(name)?.as_bytes()).into_owned();
    Some(log::field(&value))
}

/// The parts of a RunAgentInput the replay needs (serde names the type in its messages).
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct RunAgentInput {
    thread_id: String,
    run_id: String,
    /// `null` or absent: nothing to resume.
    resume: Option<Vec<Resume>>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Resume {
    interrupt_id: String,
}

/// The body read as a RunAgentInput: not JSON is `INVALID_JSON`; JSON of another shape
/// (an array included, which serde would read as a struct's fields in order)
/// `INVALID_INPUT`, saying what it lacks or holds instead and where (`resume[0]: …`).
fn parse_request(bytes: &[u8]) -> Result<RunAgentInput, Refusal> {
    let invalid = |e: serde_json::Error| match e.classify() {
        serde_json::error::Category::Data => Refusal::InvalidInput(e.to_string()),
        _ => Refusal::InvalidJson(e),
    };
    let body: Map<String, Value> = serde_json::from_slice(bytes).map_err(invalid)?;
    let req: RunAgentInput = serde_path_to_error::deserialize(Value::Object(body))
        .map_err(|e| Refusal::InvalidInput(e.to_string()))?;
    if req.thread_id.len() > MAX_THREAD_ID_BYTES {
        return Err(Refusal::ThreadIdTooLong(req.thread_id.len()));
    }
    Ok(req)
}

/// `application/json`, any case, parameters allowed: anything else is a request a web page
/// can send cross-site without a preflight (`text/plain`, forms).
fn is_json(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|m| m.trim().eq_ignore_ascii_case("application/json"))
}

/// The body, refused before a byte of it is read when its declared length is over the limit
/// (so `Expect: 100-continue` gets 413 at once, never `100 Continue`).
async fn read_body(body: Body, cfg: &ServeConfig) -> Result<Vec<u8>, Refusal> {
    let limit = cfg.body_limit;
    // hyper's size hint is the declared length.
    if body.size_hint().lower() > limit as u64 {
        return Err(Refusal::BodyTooLarge(limit));
    }
    let read = tokio::time::timeout(cfg.body_timeout, axum::body::to_bytes(body, limit)).await;
    match read {
        Err(_) => Err(Refusal::BodyTimeout(cfg.body_timeout)),
        Ok(Ok(bytes)) => Ok(bytes.to_vec()),
        Ok(Err(e))
            if std::error::Error::source(&e)
                .is_some_and(|s| s.is::<http_body_util::LengthLimitError>()) =>
        {
            Err(Refusal::BodyTooLarge(limit))
        }
        Ok(Err(e)) => Err(Refusal::BadBody(e)),
    }
}

/// `POST` a RunAgentInput: the next recorded run of its thread, or a RUN_ERROR saying why not.
async fn post(
    State(st): State<Arc<AppState>>,
    uri: Uri,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, Refusal> {
    let start = Instant::now();
    let index = conversation_of(&st, &uri)?;
    if !is_json(&headers) {
        let given = header_text(&headers, header::CONTENT_TYPE).unwrap_or("none".into());
        return Err(Refusal::UnsupportedMediaType(given));
    }
    let bytes = read_body(body, &st.cfg).await?;
    let req = parse_request(&bytes)?;
    let conv = &st.conversations[index];
    let resume = req.resume.into_iter().flatten();
    let resume: Vec<String> = resume.map(|r| r.interrupt_id).collect();
    let (admission, lease) = st.sessions.admit(conv, &req.thread_id, &resume);
    let (frames, pacing, outcome) = match admission {
        Ok(i) => {
            let run = &conv.runs[i];
            let (n, events) = (conv.runs.len(), run.frames.len());
            let outcome = format!("run {}/{n} ({events} events, ends {})", i + 1, run.ending);
            (run.frames.clone(), st.cfg.pacing, outcome)
        }
        Err((code, message)) => {
            // Its ids are the request's, as every RUN_STARTED served ([`stream::personalize`]).
            let started = Event::Passthrough(json!({"type": "RUN_STARTED"}));
            let events = vec![started, stream::run_error(message, code)];
            let outcome = format!("RUN_ERROR {code}");
            (stream::frames(events), Pacing::instant(), outcome)
        }
    };
    let line = st.cfg.log.map(|log| LogLine {
        line: format!("POST {} 200", log::field(uri.path())),
        note: format!(
            " thread={} run={} → {outcome}",
            log::field(&req.thread_id),
            log::field(&req.run_id)
        ),
        start,
        log,
    });
    let body = Replay {
        frames,
        next: 0,
        thread_id: req.thread_id,
        run_id: req.run_id,
        pacer: Pacer::new(pacing),
        keep_alive: st.cfg.keep_alive.max(Duration::from_millis(1)),
        wait: None,
        cancel: st.cancel.child_token(),
        guard: (st.active.clone(), lease, line),
    };
    let headers = [
        (header::CONTENT_TYPE, "text/event-stream"),
        (header::CACHE_CONTROL, "no-cache"),
        (HeaderName::from_static("x-accel-buffering"), "no"),
    ];
    let mut resp = (headers, Body::from_stream(body.into_stream())).into_response();
    resp.extensions_mut().insert(Streamed);
    Ok(resp)
}
