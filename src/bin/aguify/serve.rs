//! `aguify serve`: loads the conversations, binds, serves until Ctrl-C (or SIGTERM).

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
    let cfg = ServeConfig {
        pacing: options::pacing(&args.pacing),
        cors: args.cors.clone(),
        body_limit: args.max_body,
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
            .with_context(|| format!("listening on {}", args.listen))?;
        let addr = listener.local_addr().context("reading the bound address")?;
        eprintln!("aguify: listening on http://{addr}/");
        if !addr.ip().is_loopback() {
            eprintln!("aguify: warning: {addr} is not a loopback address; anyone who can reach it can replay these recordings");
        }
        for (i, (name, runs, interrupts)) in summary.iter().enumerate() {
            let path = if i == 0 { format!("/ and /{name}") } else { format!("/{name}") };
            eprintln!("aguify:   POST {path}: {runs} recorded run(s), {interrupts} interrupt(s)");
        }
        serve::serve(listener, app, shutdown_signal()).await.context("serving")
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
