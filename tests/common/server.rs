//! A replay server in process on 127.0.0.1:0, with a hyper client, until stopped (tests/serve.rs
//! and tests/serve_memory.rs, each its own test binary).
#![allow(dead_code)]

use std::net::SocketAddr;
use std::time::Duration;

use aguify::serve::{self, App, Conversation, ServeConfig};
use bytes::Bytes;
use http_body_util::Full;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

pub struct Server {
    pub addr: SocketAddr,
    pub app: App,
    pub stop: Option<oneshot::Sender<()>>,
    pub task: JoinHandle<std::io::Result<()>>,
    pub client: Client<HttpConnector, Full<Bytes>>,
}

pub async fn start(conversations: Vec<Conversation>, cfg: ServeConfig) -> Server {
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
    /// Stops the server and waits for it to end (within 10 s).
    pub async fn stop(mut self) {
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
