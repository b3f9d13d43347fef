//! `aguify serve`: loads the conversations, binds, serves until Ctrl-C (or SIGTERM).

use std::time::Duration;

use aguify::serve::{self, App, Conversation, ServeConfig};
use anyhow::Context;

use crate::cli::{InputArgs, MapArgs, ServeArgs};
use crate::options;

fn log_line(line: &str) {
    eprintln!("aguify: {line}");
}

pub fn run(args: ServeArgs) -> anyhow::Result<i32> {
    let input = InputArgs {
        files: args.files.clone(),
        from: args.from,
        max_line_bytes: aguify::input::DEFAULT_MAX_LINE_BYTES,
        strict: false,
        threads: None,
    };
    let map = MapArgs {
        policy: args.policy.clone(),
        ..MapArgs::default()
    };
    let opts = options::pipeline_options(&input, &map);
    let mut conversations = vec![];
    if !args.files.is_empty() {
        conversations.push(Conversation::load("default", &args.files, &opts)?);
    }
    for spec in &args.conversation {
        conversations.push(Conversation::load_dir(spec, &opts)?);
    }
    for c in &conversations {
        if c.bad_lines > 0 {
            eprintln!(
                "aguify: warning: conversation '{}': {} bad input line(s) skipped{} (`aguify check {}` lists them)",
                c.name,
                c.bad_lines,
                c.first_bad_line
                    .as_deref()
                    .map(|l| format!(", the first at {}", serve::log::escape(l)))
                    .unwrap_or_default(),
                c.files.join(" ")
            );
        }
    }
    let listen_host = args.listen.rsplit_once(':').map(|(host, _)| {
        host.trim_start_matches('[')
            .trim_end_matches(']')
            .to_string()
    });
    let cfg = ServeConfig {
        pacing: options::pacing(&args.pacing),
        cors: args.cors.clone(),
        body_limit: args.max_body,
        header_timeout: Duration::from_millis(args.header_timeout),
        body_timeout: Duration::from_millis(args.body_timeout),
        max_connections: args.max_connections,
        max_threads: args.max_threads,
        shutdown_grace: Duration::from_millis(args.shutdown_grace),
        allow_hosts: args.allow_host.clone(),
        listen_host,
        log: (!args.quiet).then_some(log_line as fn(&str)),
        ..ServeConfig::default()
    };
    let summary: Vec<(String, usize, usize)> = conversations
        .iter()
        .map(|c| (c.name.clone(), c.runs.len(), c.interrupt_count()))
        .collect();
    let app = App::new(conversations, cfg)?;
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    rt.block_on(async move {
        let listener = tokio::net::TcpListener::bind(&args.listen)
            .await
            .map_err(|e| anyhow::anyhow!("cannot listen on {}: {}", args.listen, serve::os_text(&e)))?;
        let addr = listener.local_addr().context("reading the bound address")?;
        eprintln!("aguify: listening on http://{addr}/");
        if !addr.ip().is_loopback() {
            eprintln!("aguify: warning: {addr} is not a loopback address; anyone who can reach it can replay these recordings");
        }
        for (i, (name, runs, interrupts)) in summary.iter().enumerate() {
            let path = if i == 0 { format!("/ and /{name}") } else { format!("/{name}") };
            eprintln!("aguify:   POST {path}: {runs} recorded run(s), {interrupts} interrupt(s)");
        }
        serve::serve(listener, app, shutdown_signal())
            .await
            .map_err(|e| anyhow::anyhow!("serving: {}", serve::os_text(&e)))
    })?;
    eprintln!("aguify: stopped");
    Ok(0)
}

async fn shutdown_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => {
                tokio::select! {
                    _ = tokio::signal::ctrl_c() => {}
                    _ = term.recv() => {}
                }
            }
            Err(_) => {
                let _ = tokio::signal::ctrl_c().await;
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
    eprintln!("aguify: shutting down");
}
