//! `aguify serve` in process: a real server on 127.0.0.1:0, a hyper client.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use aguify::pipeline::{self, Input, Options};
use aguify::replay::Pacing;
use aguify::serve::stream::personalize;
use aguify::serve::{self, App, Conversation, ServeConfig};
use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::{Method, Request, StatusCode};
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;
use serde_json::{json, Value};
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

const PLAIN: &str = "testdata/serve/plain/plain.ndjson";
const HITL: [&str; 2] = [
    "testdata/serve/hitl/hitl__1_interrupt.ndjson",
    "testdata/serve/hitl/hitl__2_resume.ndjson",
];
const INTERRUPT_ID: &str = "int-book-7f3a";

type HttpClient = Client<hyper_util::client::legacy::connect::HttpConnector, Full<Bytes>>;

struct Server {
    addr: SocketAddr,
    app: App,
    stop: Option<oneshot::Sender<()>>,
    task: JoinHandle<std::io::Result<()>>,
    client: HttpClient,
}

fn files(list: &[&str]) -> Vec<String> {
    list.iter().map(|f| f.to_string()).collect()
}

fn instant() -> ServeConfig {
    ServeConfig {
        pacing: Pacing::instant(),
        ..ServeConfig::default()
    }
}

async fn start(conversations: Vec<Conversation>, cfg: ServeConfig) -> Server {
    let app = App::new(conversations, cfg).expect("app");
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind loopback");
    let addr = listener.local_addr().expect("addr");
    let (tx, rx) = oneshot::channel::<()>();
    let task = tokio::spawn(serve::serve(listener, app.clone(), async {
        let _ = rx.await;
    }));
    Server {
        addr,
        app,
        stop: Some(tx),
        task,
        client: Client::builder(TokioExecutor::new()).build_http(),
    }
}

impl Server {
    async fn request(
        &self,
        method: Method,
        path: &str,
        body: Vec<u8>,
    ) -> hyper::Response<hyper::body::Incoming> {
        let req = Request::builder()
            .method(method)
            .uri(format!("http://{}{path}", self.addr))
            .header("content-type", "application/json")
            .header("accept", "text/event-stream")
            .body(Full::new(Bytes::from(body)))
            .expect("request");
        tokio::time::timeout(Duration::from_secs(10), self.client.request(req))
            .await
            .expect("response within 10 s")
            .expect("response")
    }

    /// POST a RunAgentInput; returns status, content type and the whole body.
    async fn post(&self, path: &str, input: Value) -> (StatusCode, String, String) {
        let resp = self
            .request(Method::POST, path, input.to_string().into_bytes())
            .await;
        let status = resp.status();
        let ctype = resp
            .headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_string();
        let body = tokio::time::timeout(Duration::from_secs(10), resp.into_body().collect())
            .await
            .expect("body within 10 s")
            .expect("body")
            .to_bytes();
        (
            status,
            ctype,
            String::from_utf8(body.to_vec()).expect("utf-8"),
        )
    }

    async fn stop(mut self) {
        if let Some(tx) = self.stop.take() {
            let _ = tx.send(());
        }
        tokio::time::timeout(Duration::from_secs(10), self.task)
            .await
            .expect("shutdown within 10 s")
            .expect("join")
            .expect("serve");
    }
}

fn input(thread: &str, run: &str) -> Value {
    json!({"threadId": thread, "runId": run, "messages": [], "tools": [], "context": [], "state": {}, "forwardedProps": {}})
}

fn resume(thread: &str, run: &str, ids: &[&str]) -> Value {
    let mut v = input(thread, run);
    v["resume"] = ids
        .iter()
        .map(|id| json!({"interruptId": id, "status": "resolved", "payload": {"approved": true}}))
        .collect();
    v
}

/// The events of an SSE body (`data:` lines of `\n\n`-separated frames; comments skipped).
fn events(body: &str) -> Vec<Value> {
    body.split("\n\n")
        .filter_map(|f| f.strip_prefix("data: "))
        .map(|d| serde_json::from_str(d).expect("frame JSON"))
        .collect()
}

/// `convert` of the files, split at RUN_STARTED.
fn converted_runs(list: &[&str]) -> Vec<Vec<Value>> {
    let inputs = list.iter().map(|f| Input::open(f).expect("open")).collect();
    let (evs, _) = pipeline::convert_to_vec(inputs, &Options::default()).expect("convert");
    let mut runs: Vec<Vec<Value>> = vec![];
    for e in evs {
        if e["type"] == "RUN_STARTED" {
            runs.push(vec![]);
        }
        runs.last_mut().expect("starts with RUN_STARTED").push(e);
    }
    runs
}

fn sse_of(evs: &[Value]) -> String {
    let mut buf = vec![];
    for e in evs {
        aguify::sink::sse_frame(e, &mut buf);
    }
    String::from_utf8(buf).expect("utf-8")
}

fn load(name: &str, list: &[&str]) -> Conversation {
    Conversation::load(name, &files(list), &Options::default()).expect("load")
}

#[tokio::test]
async fn plain_run_is_convert_output_with_the_request_ids() {
    let srv = start(vec![load("default", &[PLAIN])], instant()).await;
    let (status, ctype, body) = srv.post("/", input("thread-A", "run-A")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(ctype, "text/event-stream");
    let expected: Vec<Value> = converted_runs(&[PLAIN])[0]
        .iter()
        .map(|e| personalize(e, "thread-A", "run-A"))
        .collect();
    // Byte-for-byte `convert --to sse` framing.
    assert_eq!(body, sse_of(&expected));
    let got = events(&body);
    assert_eq!(
        got.first().map(|e| &e["threadId"]),
        Some(&json!("thread-A"))
    );
    assert_eq!(
        got.first().map(|e| &e["input"]["runId"]),
        Some(&json!("run-A"))
    );
    assert_eq!(got.last().map(|e| &e["type"]), Some(&json!("RUN_FINISHED")));
    assert_eq!(got.last().map(|e| &e["runId"]), Some(&json!("run-A")));
    // The same conversation on the named path, another thread: run 1 again.
    let (status, _, body) = srv.post("/default", input("thread-B", "run-B")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(events(&body).len(), expected.len());
    srv.stop().await;
}

#[tokio::test]
async fn interrupt_then_resume_then_end() {
    let srv = start(vec![load("hitl", &HITL)], instant()).await;
    let runs = converted_runs(&HITL);

    let (_, _, body) = srv.post("/", input("t", "r1")).await;
    let got = events(&body);
    let expected: Vec<Value> = runs[0].iter().map(|e| personalize(e, "t", "r1")).collect();
    assert_eq!(got, expected);
    let last = got.last().expect("events");
    assert_eq!(last["outcome"]["type"], "interrupt");
    assert_eq!(last["outcome"]["interrupts"][0]["id"], INTERRUPT_ID);

    // No resume: a clear RUN_ERROR, the thread stays paused.
    let (status, ctype, body) = srv.post("/", input("t", "r2")).await;
    assert_eq!(
        (status, ctype.as_str()),
        (StatusCode::OK, "text/event-stream")
    );
    let got = events(&body);
    assert_eq!(got.len(), 2, "{body}");
    assert_eq!(
        got[0],
        json!({"type":"RUN_STARTED","threadId":"t","runId":"r2"})
    );
    assert_eq!(got[1]["type"], "RUN_ERROR");
    assert_eq!(got[1]["code"], "RESUME_MISMATCH");
    let msg = got[1]["message"].as_str().expect("message");
    assert!(msg.contains(INTERRUPT_ID), "{msg}");

    // Unknown id: refused too.
    let (_, _, body) = srv
        .post("/", resume("t", "r3", &[INTERRUPT_ID, "int-nope"]))
        .await;
    let got = events(&body);
    assert_eq!(got[1]["code"], "RESUME_MISMATCH");
    assert!(got[1]["message"]
        .as_str()
        .is_some_and(|m| m.contains("int-nope")));

    // The right answer: the recorded continuation.
    let (_, _, body) = srv.post("/", resume("t", "r4", &[INTERRUPT_ID])).await;
    let got = events(&body);
    let expected: Vec<Value> = runs[1].iter().map(|e| personalize(e, "t", "r4")).collect();
    assert_eq!(got, expected);
    assert_eq!(got[0]["input"]["resume"][0]["interruptId"], INTERRUPT_ID);
    assert_eq!(
        got.last().map(|e| &e["outcome"]["type"]),
        Some(&json!("success"))
    );

    // Past the last recorded run.
    let (_, _, body) = srv.post("/", input("t", "r5")).await;
    let got = events(&body);
    assert_eq!(got[1]["code"], "CONVERSATION_ENDED");
    srv.stop().await;
}

#[tokio::test]
async fn resume_on_a_fresh_thread_is_refused() {
    let srv = start(vec![load("hitl", &HITL)], instant()).await;
    let (_, _, body) = srv.post("/", resume("fresh", "r1", &[INTERRUPT_ID])).await;
    let got = events(&body);
    assert_eq!(got[1]["code"], "RESUME_MISMATCH");
    srv.stop().await;
}

#[tokio::test]
async fn bad_requests_get_json_errors() {
    let cfg = ServeConfig {
        body_limit: 2048,
        ..instant()
    };
    let srv = start(vec![load("default", &[PLAIN]), load("hitl", &HITL)], cfg).await;
    let check = |resp: (StatusCode, String, String), status: StatusCode, code: &str| {
        assert_eq!(resp.0, status, "{}", resp.2);
        assert!(resp.1.starts_with("application/json"), "{}", resp.1);
        let v: Value = serde_json::from_str(&resp.2).expect("JSON error body");
        assert_eq!(v["error"]["code"], code, "{}", resp.2);
        assert!(v["error"]["message"]
            .as_str()
            .is_some_and(|m| !m.is_empty()));
    };
    let raw = |body: &str| body.as_bytes().to_vec();
    let text = |r: hyper::Response<hyper::body::Incoming>| async move {
        let status = r.status();
        let ctype = r
            .headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_string();
        let b = r.into_body().collect().await.expect("body").to_bytes();
        (status, ctype, String::from_utf8(b.to_vec()).expect("utf-8"))
    };
    check(
        text(srv.request(Method::POST, "/", raw("{not json")).await).await,
        StatusCode::BAD_REQUEST,
        "INVALID_JSON",
    );
    check(
        srv.post("/", json!({"threadId": "t", "messages": []}))
            .await,
        StatusCode::BAD_REQUEST,
        "INVALID_INPUT",
    );
    check(
        srv.post("/", json!([1, 2])).await,
        StatusCode::BAD_REQUEST,
        "INVALID_INPUT",
    );
    check(
        srv.post(
            "/",
            json!({"threadId": "t", "runId": "r", "resume": [{"status": "resolved"}]}),
        )
        .await,
        StatusCode::BAD_REQUEST,
        "INVALID_INPUT",
    );
    let mut big = input("t", "r");
    big["forwardedProps"] = json!({"pad": "x".repeat(4096)});
    check(
        srv.post("/", big).await,
        StatusCode::PAYLOAD_TOO_LARGE,
        "BODY_TOO_LARGE",
    );
    check(
        srv.post("/nope", input("t", "r")).await,
        StatusCode::NOT_FOUND,
        "UNKNOWN_CONVERSATION",
    );
    // A refused request did not advance the thread.
    let (status, _, body) = srv.post("/", input("t", "r")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        events(&body).last().map(|e| &e["type"]),
        Some(&json!("RUN_FINISHED"))
    );
    srv.stop().await;
}

#[tokio::test]
async fn get_lists_conversations() {
    let srv = start(
        vec![load("default", &[PLAIN]), load("hitl", &HITL)],
        instant(),
    )
    .await;
    let r = srv.request(Method::GET, "/", vec![]).await;
    assert_eq!(r.status(), StatusCode::OK);
    let v: Value = serde_json::from_slice(&r.into_body().collect().await.expect("body").to_bytes())
        .expect("JSON");
    let list = v["conversations"].as_array().expect("list");
    assert_eq!(list.len(), 2);
    assert_eq!(list[0]["name"], "default");
    assert_eq!(list[0]["default"], true);
    assert_eq!(list[1]["path"], "/hitl");
    assert_eq!(list[1]["runs"].as_array().map(Vec::len), Some(2));
    assert_eq!(list[1]["runs"][0]["ending"], "interrupt");
    assert_eq!(list[1]["runs"][0]["interrupts"][0], INTERRUPT_ID);
    let r = srv.request(Method::GET, "/hitl", vec![]).await;
    assert_eq!(r.status(), StatusCode::OK);
    // The named conversation serves on its path.
    let (_, _, body) = srv.post("/hitl", input("t", "r")).await;
    assert_eq!(
        events(&body).last().map(|e| &e["outcome"]["type"]),
        Some(&json!("interrupt"))
    );
    srv.stop().await;
}

fn timed_conversation(gap_ms: i64) -> Conversation {
    let evs = vec![
        json!({"type":"RUN_STARTED","timestamp":1000,"threadId":"x","runId":"y"}),
        json!({"type":"TEXT_MESSAGE_START","timestamp":1000,"messageId":"m","role":"assistant"}),
        json!({"type":"TEXT_MESSAGE_CONTENT","timestamp":1000 + gap_ms,"messageId":"m","delta":"hi"}),
        json!({"type":"TEXT_MESSAGE_END","timestamp":1000 + gap_ms,"messageId":"m"}),
        json!({"type":"RUN_FINISHED","timestamp":1000 + gap_ms,"threadId":"x","runId":"y"}),
    ];
    Conversation::from_events("timed", vec![], evs).expect("conversation")
}

#[tokio::test]
async fn paced_with_keep_alive_on_long_gaps() {
    let cfg = ServeConfig {
        pacing: Pacing {
            speed: 1.0,
            max_gap: None,
            interval: Duration::ZERO,
        },
        keep_alive: Duration::from_millis(100),
        ..ServeConfig::default()
    };
    let srv = start(vec![timed_conversation(450)], cfg).await;
    let t0 = Instant::now();
    let (_, _, body) = srv.post("/", input("t", "r")).await;
    let took = t0.elapsed();
    assert!(took >= Duration::from_millis(400), "paced: took {took:?}");
    assert!(took < Duration::from_secs(5), "took {took:?}");
    let keep_alives = body.matches(": keep-alive\n\n").count();
    assert!(
        (3..=4).contains(&keep_alives),
        "{keep_alives} keep-alives in {body:?}"
    );
    assert_eq!(events(&body).len(), 5);
    // Keep-alives come between frames, never inside one.
    assert!(body.starts_with("data: {\"type\":\"RUN_STARTED\""));
    srv.stop().await;
}

#[tokio::test]
async fn speed_and_cap_shorten_gaps() {
    let cfg = ServeConfig {
        pacing: Pacing {
            speed: 10.0,
            max_gap: Some(Duration::from_millis(50)),
            interval: Duration::ZERO,
        },
        ..ServeConfig::default()
    };
    let srv = start(vec![timed_conversation(60_000)], cfg).await;
    let t0 = Instant::now();
    let (_, _, body) = srv.post("/", input("t", "r")).await;
    assert!(
        t0.elapsed() < Duration::from_secs(3),
        "took {:?}",
        t0.elapsed()
    );
    assert_eq!(events(&body).len(), 5);
    srv.stop().await;
}

/// Polls `cond` every 20 ms for at most `secs` seconds.
async fn eventually(secs: u64, mut cond: impl FnMut() -> bool) -> bool {
    let deadline = Instant::now() + Duration::from_secs(secs);
    while Instant::now() < deadline {
        if cond() {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    cond()
}

#[tokio::test]
async fn client_disconnect_stops_the_stream() {
    let cfg = ServeConfig {
        pacing: Pacing {
            speed: 1.0,
            max_gap: None,
            interval: Duration::ZERO,
        },
        keep_alive: Duration::from_millis(50),
        ..ServeConfig::default()
    };
    let srv = start(vec![timed_conversation(600_000)], cfg).await;
    let resp = srv
        .request(Method::POST, "/", input("t", "r").to_string().into_bytes())
        .await;
    let mut body = resp.into_body();
    let first = tokio::time::timeout(Duration::from_secs(5), body.frame())
        .await
        .expect("first frame in time")
        .expect("a frame")
        .expect("frame ok");
    assert!(first.data_ref().is_some_and(|d| d.starts_with(b"data: ")));
    assert_eq!(srv.app.active_streams(), 1);
    drop(body);
    let app = srv.app.clone();
    assert!(
        eventually(5, || app.active_streams() == 0).await,
        "the stream kept running after the client left"
    );
    srv.stop().await;
}

#[tokio::test]
async fn shutdown_ends_open_streams_with_run_error() {
    let cfg = ServeConfig {
        pacing: Pacing {
            speed: 1.0,
            max_gap: None,
            interval: Duration::ZERO,
        },
        ..ServeConfig::default()
    };
    let mut srv = start(vec![timed_conversation(600_000)], cfg).await;
    let resp = srv
        .request(Method::POST, "/", input("t", "r").to_string().into_bytes())
        .await;
    let mut body = resp.into_body();
    // RUN_STARTED and TEXT_MESSAGE_START come at once; then a ten-minute gap.
    let mut seen = String::new();
    while seen.matches("data: ").count() < 2 {
        let f = tokio::time::timeout(Duration::from_secs(5), body.frame())
            .await
            .expect("frame in time")
            .expect("a frame")
            .expect("frame ok");
        if let Some(d) = f.data_ref() {
            seen.push_str(std::str::from_utf8(d).expect("utf-8"));
        }
    }
    if let Some(tx) = srv.stop.take() {
        let _ = tx.send(());
    }
    let rest = tokio::time::timeout(Duration::from_secs(5), body.collect())
        .await
        .expect("stream ends on shutdown")
        .expect("body")
        .to_bytes();
    let rest = String::from_utf8(rest.to_vec()).expect("utf-8");
    let evs = events(&rest);
    assert_eq!(evs.len(), 1, "{rest}");
    assert_eq!(evs[0]["code"], "SERVER_SHUTDOWN");
    tokio::time::timeout(Duration::from_secs(5), srv.task)
        .await
        .expect("server stops")
        .expect("join")
        .expect("serve");
}

#[tokio::test]
async fn cors_preflight_and_header() {
    let cfg = ServeConfig {
        cors: Some("http://localhost:3000".into()),
        ..instant()
    };
    let srv = start(vec![load("default", &[PLAIN])], cfg).await;
    let req = Request::builder()
        .method(Method::OPTIONS)
        .uri(format!("http://{}/", srv.addr))
        .header("origin", "http://localhost:3000")
        .header("access-control-request-method", "POST")
        .header("access-control-request-headers", "content-type")
        .body(Full::new(Bytes::new()))
        .expect("request");
    let r = srv.client.request(req).await.expect("preflight");
    assert!(r.status().is_success(), "{}", r.status());
    assert_eq!(
        r.headers()
            .get("access-control-allow-origin")
            .and_then(|v| v.to_str().ok()),
        Some("http://localhost:3000")
    );
    srv.stop().await;
}

#[test]
fn convert_pace_waits_and_writes_the_same_bytes() {
    let bin = env!("CARGO_BIN_EXE_aguify");
    let plain = std::process::Command::new(bin)
        .args(["convert", "--to", "sse", PLAIN])
        .output()
        .expect("run aguify");
    assert!(plain.status.success());
    let t0 = Instant::now();
    let paced = std::process::Command::new(bin)
        .args([
            "convert",
            "--to",
            "sse",
            "--pace",
            "--interval",
            "40",
            "--speed",
            "2",
            PLAIN,
        ])
        .output()
        .expect("run aguify");
    let took = t0.elapsed();
    assert!(paced.status.success());
    assert_eq!(paced.stdout, plain.stdout);
    // 10 events without timestamps: 9 gaps of 40 ms / 2.
    assert!(took >= Duration::from_millis(170), "took {took:?}");
    assert!(took < Duration::from_secs(10), "took {took:?}");
}

#[tokio::test]
async fn compat_thinking_is_served() {
    let opts = Options {
        map: aguify::mapper::MapOptions {
            compat: aguify::mapper::Compat::Thinking,
            ..Default::default()
        },
        ..Options::default()
    };
    let conv = Conversation::load("hitl", &files(&HITL), &opts).expect("load");
    let srv = start(vec![conv], instant()).await;
    let (_, _, body) = srv.post("/", input("t", "r")).await;
    let types: Vec<String> = events(&body)
        .iter()
        .map(|e| e["type"].as_str().unwrap_or_default().to_string())
        .collect();
    assert!(
        types.iter().any(|t| t == "THINKING_TEXT_MESSAGE_CONTENT"),
        "{types:?}"
    );
    assert!(
        !types.iter().any(|t| t.starts_with("REASONING_")),
        "{types:?}"
    );
    srv.stop().await;
}
