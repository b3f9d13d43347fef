//! `aguify serve`: loads the conversations, binds, serves until Ctrl-C (or SIGTERM).

use aguify::text::count;

use aguify::pipeline::Options;
use aguify::serve::{self, App, Conversation, ServeConfig};
use aguify::text::os_text;
use anyhow::Context;

use crate::cli::ServeArgs;
use crate::options;

pub fn run(args: ServeArgs) -> anyhow::Result<i32> {
    let opts = Options {
        parse_threads: options::default_threads(),
        ..options::mapping(args.from, &args.policy)
    };
    let files = (!args.files.is_empty()).then(|| Conversation::load("default", &args.files, &opts));
    let dirs = args.conversation.iter();
    let conversations = files
        .into_iter()
        .chain(dirs.map(|spec| Conversation::load_dir(spec, &opts)))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let log: fn(&str) = |line| eprintln!("aguify: {line}");
    let cfg = ServeConfig {
        log: (!args.quiet).then_some(log),
        ..args.config
    };
    let listen = cfg.listen.clone();
    let summary: Vec<String> = conversations.iter().enumerate().map(summary).collect();
    let app = App::new(conversations, cfg)?;
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    rt.block_on(async move {
        let listener = tokio::net::TcpListener::bind(&listen)
            .await
            .map_err(|e| anyhow::anyhow!("cannot listen on {listen}: {}", os_text(&e)))?;
        let addr = listener.local_addr().context("reading the bound address")?;
        eprintln!("aguify: listening on http://{addr}/");
        if !addr.ip().is_loopback() {
            eprintln!("aguify: warning: {addr} is not a loopback address; anyone who can reach it can replay these recordings");
        }
        // Names and paths come from file names: each line written with its controls escaped.
        for line in summary.iter().flat_map(|s| s.lines()) {
            eprintln!("{}", aguify::text::printable(line));
        }
        serve::serve(listener, app, shutdown_signal())
            .await
            .map_err(|e| anyhow::anyhow!("serving: {}", os_text(&e)))
    })?;
    eprintln!("aguify: stopped");
    Ok(0)
}

/// A conversation's start-up lines: its path and runs, and its bad input lines if any
/// (reported once, here; the server serves what could be read).
fn summary((i, c): (usize, &Conversation)) -> String {
    let path = format!("{}/{}", if i == 0 { "/ and " } else { "" }, c.name);
    let mut out = format!(
        "aguify:   POST {path}: {}, {}\n",
        count(c.runs.len(), "recorded run"),
        count(c.runs.iter().map(|r| r.interrupts.len()).sum(), "interrupt")
    );
    if let Some((n, first)) = &c.bad_lines {
        out.push_str(&format!(
            "aguify: warning: conversation '{}': {} skipped, the first at {} (`aguify check {}` lists them)\n",
            c.name,
            count(*n, "bad input line"),
            aguify::text::printable(first),
            c.files.join(" ")
        ));
    }
    out
}

async fn shutdown_signal() {
    #[cfg(unix)]
    let term = async {
        use tokio::signal::unix::{signal, SignalKind};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => term.recv().await,
            Err(_) => std::future::pending().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        _ = tokio::signal::ctrl_c() => {}
        _ = term => {}
    }
    eprintln!("aguify: shutting down");
}
