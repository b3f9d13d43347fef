//! A failed run's diagnosis: what was open when it ended, its signals, a likely cause and a fix.

use super::*;

/// The run that had finished right before run `i`, when run `i` is nothing but a RUN_ERROR
/// (the timeline opens a run of its own for a terminal that comes after the run ended).
pub(super) fn finished_before(runs: &[RunSummary], i: usize) -> Option<&RunSummary> {
    let run = &runs[i];
    let prev = runs.get(i.checked_sub(1)?)?;
    let lone_error = matches!(run.outcome, Outcome::Error { .. })
        && run.events <= 1
        && run
            .run_id
            .as_ref()
            .is_none_or(|r| Some(r) == prev.run_id.as_ref());
    let finished = matches!(
        prev.outcome,
        Outcome::Success { .. } | Outcome::Interrupt { .. }
    );
    (lone_error && finished).then_some(prev)
}

/// Says of `x` what it is: a RUN_ERROR sent after its run (the one before) had finished
/// (AGX302).
pub(super) fn after_finished(x: &mut Explanation, prev: &RunSummary) {
    x.ending = "error_after_finished";
    x.run -= 1;
    x.run_id = prev.run_id.clone();
    x.thread_id = x.thread_id.take().or_else(|| prev.thread_id.clone());
    x.started_at = prev.origin.clone();
    x.last_records.clear();
    x.open.clear();
    let finished_at = prev
        .end_origin
        .as_ref()
        .map_or_else(|| "?".to_string(), |o| o.to_string());
    x.cause = format!(
        "RUN_ERROR after RUN_FINISHED: the run had finished at {finished_at}, then the stream sent \
         RUN_ERROR; a front end shows the finished run as failed (AGX302)."
    );
    x.hint = "Send one terminal event per run: RUN_FINISHED or RUN_ERROR, never both; an error \
              after the run belongs to the next run (RUN_STARTED first)."
        .into();
}

/// The line that carried a run's error: the terminal's origin, unless the mapper made the
/// error up because the input stopped (INCOMPLETE_STREAM) or the run had no terminal at all.
pub(super) fn carried_by(run: &RunSummary) -> Option<Origin> {
    match &run.outcome {
        Outcome::Error { code, .. } if code.as_deref() != Some(error_code::INCOMPLETE_STREAM) => {
            run.end_origin.clone()
        }
        _ => None,
    }
}

pub(super) fn explain_run(
    i: usize,
    run: &RunSummary,
    entries: &[Entry],
    last_records: Vec<RawRecord>,
    model_open: Vec<OpenSpan>,
    signals: &[Signal],
) -> Explanation {
    // A run with no terminal ends after its last event; a RUN_ERROR (and its error entry) is
    // the run's last event, its timestamp the run's last.
    let err_index = run.end_event.unwrap_or(run.first_event + run.events);
    // Signals are kept in event order: the run's own found by binary search, so explaining
    // every run stays linear in their number.
    let signals = in_events(signals, |s| s.event_index, run.first_event, err_index + 1);
    let (message, code, ending) = error_of(run);
    let name = signals
        .iter()
        .rev()
        .find(|s| s.kind == "error_line")
        .map(|s| s.message.clone());
    let carried = carried_by(run);
    let end = run.end_origin.as_ref();
    let mut open = open_spans(entries, err_index, end, run.last_ts);
    open.extend(model_open);

    let mut run_signals: Vec<Signal> = signals
        .iter()
        .filter(|s| s.kind != "error_line" && carried.as_ref() != Some(&s.at))
        .cloned()
        .collect();
    let cut_off = open
        .iter()
        .filter(|o| matches!(o.kind, "text" | "reasoning"));
    run_signals.extend(cut_off.map(|o| Signal {
        kind: "truncated_message",
        message: format!(
            "{} message {} {}",
            o.kind,
            o.id.as_deref().unwrap_or("?"),
            o.state
        ),
        at: o.since.clone(),
        event_index: err_index,
    }));
    run_signals.sort_by_key(|s| (s.at.file.clone(), s.at.line));
    let nearest = run_signals.last().cloned();
    // The run's last full state (a state delta has no `what` of a snapshot).
    let final_state = entries.iter().rev().find_map(|e| match &e.line {
        Line::State { what, messages, .. } if *what != "state delta" => Some(FinalState {
            at: e.origin.clone(),
            messages: *messages,
        }),
        _ => None,
    });
    let (cause, hint) = advice(&code, &message, entries, &open, nearest.as_ref());
    Explanation {
        run: i,
        file: run.origin.file.clone(),
        run_id: run.run_id.clone(),
        thread_id: run.thread_id.clone(),
        started_at: run.origin.clone(),
        ending,
        error: ErrorPart {
            message,
            code,
            name,
            carried_by: carried,
            input_ends_at: run.end_origin.clone(),
        },
        last_records,
        open,
        signals: run_signals,
        nearest_signal: nearest,
        final_state,
        cause,
        hint,
    }
}

/// A failed run's error message, its code and how the run ended (`run_error`, `no_terminal`).
fn error_of(run: &RunSummary) -> (String, String, &'static str) {
    match &run.outcome {
        Outcome::Error { code, message } => {
            // A RUN_ERROR without a code (another adapter's) is classed by its message, as
            // the converter classes a log's error: one classifier.
            let code = code.clone().unwrap_or_else(|| {
                let info = crate::model::ErrorInfo {
                    name: None,
                    message: message.clone(),
                    lc_code: None,
                };
                error_code::classify(&info).to_string()
            });
            let ending = if code == error_code::INCOMPLETE_STREAM {
                "no_terminal"
            } else {
                "run_error"
            };
            (message.clone(), code, ending)
        }
        _ => (
            "The stream ended without a terminal event (no RUN_FINISHED or RUN_ERROR)".to_string(),
            error_code::INCOMPLETE_STREAM.to_string(),
            "no_terminal",
        ),
    }
}

/// What was open: spans the terminal record (or the end of input) had to close (a span's entry
/// comes before the error: every event of the run is before `err_index`).
fn open_spans(
    entries: &[Entry],
    err_index: u64,
    err_origin: Option<&Origin>,
    moment: Option<i64>,
) -> Vec<OpenSpan> {
    let before_error = |e: &&Entry| e.index < err_index;
    let open = entries.iter().filter(before_error).filter_map(|e| {
        let closed_by_end = e.end_origin.is_none() || e.end_origin.as_ref() == err_origin;
        let span = |kind, name: Option<&String>, id: Option<&String>, state: String| OpenSpan {
            kind,
            name: name.cloned(),
            id: id.cloned(),
            since: e.origin.clone(),
            open_ms: moment.zip(e.ts).map(|(m, t)| m - t),
            open_events: err_index.saturating_sub(e.index),
            state,
        };
        match &e.line {
            Line::StepStart { name, finished } if !finished || closed_by_end => {
                Some(span("step", Some(name), None, "node running".into()))
            }
            Line::Text { id, text, cut, .. } if *cut || closed_by_end => {
                let kind = if e.kind == Kind::Text {
                    "text"
                } else {
                    "reasoning"
                };
                let state = format!("cut off after {} chars", text.chars().count());
                Some(span(kind, None, Some(id), state))
            }
            Line::Tool(t) if t.result.is_none() => {
                let state = match t.args_done {
                    true => "executing, no result",
                    false => "streaming arguments (no TOOL_CALL_END), no result",
                };
                Some(span("tool_call", Some(&t.name), Some(&t.id), state.into()))
            }
            _ => None,
        }
    });
    open.collect()
}

/// The run config's key of the recursion limit: LangGraph.js names it `recursionLimit` (and
/// says so in its error), Python `recursion_limit`.
fn recursion_key(message: &str) -> &'static str {
    if message.contains("recursionLimit") {
        "recursionLimit"
    } else {
        "recursion_limit"
    }
}

/// The two nodes (steps started) that ran most often, in order of first appearance: the
/// likely loop.
fn loop_nodes(entries: &[Entry]) -> Vec<(&str, usize)> {
    let mut counts: Vec<(&str, usize)> = Vec::new();
    for e in entries {
        let Line::StepStart { name, .. } = &e.line else {
            continue;
        };
        match counts.iter_mut().find(|(n, _)| n == name) {
            Some(c) => c.1 += 1,
            None => counts.push((name, 1)),
        }
    }
    let mut top = counts.clone();
    top.sort_by_key(|c| std::cmp::Reverse(c.1));
    top.truncate(2);
    counts.retain(|c| top.contains(c));
    counts
}

/// A plain-language likely cause and a fix hint, per code class.
fn advice(
    code: &str,
    message: &str,
    entries: &[Entry],
    open: &[OpenSpan],
    nearest: Option<&Signal>,
) -> (String, String) {
    let open_model = open
        .iter()
        .find(|o| o.kind == "model_call")
        .and_then(|o| o.name.clone());
    let open_tool = open
        .iter()
        .find(|o| o.kind == "tool_call")
        .map(|o| o.name.clone().unwrap_or_default());
    let during = match (&open_tool, &open_model) {
        (Some(t), _) => format!(" while tool `{t}` was executing"),
        (None, Some(m)) => format!(" during a call to model `{m}`"),
        _ => String::new(),
    };
    match code {
        error_code::GRAPH_STEP_LIMIT => {
            let nodes = loop_nodes(entries);
            let loop_text = match nodes.as_slice() {
                [(a, na), (b, nb)] => format!(
                    "find the loop between nodes `{a}` ({}) and `{b}` ({}): the condition that should route to END never holds",
                    count(*na, "run"),
                    count(*nb, "run")
                ),
                [(a, na)] => format!("find why node `{a}` keeps running ({})", count(*na, "run")),
                _ => "find the loop between the graph's nodes".into(),
            };
            (
                "The graph hit its recursion limit: nodes kept routing to each other without reaching END.".into(),
                format!("Raise `{}` in the run config if the work is legitimately long, or {loop_text}.", recursion_key(message)),
            )
        }
        error_code::LLM_RATE_LIMITED => (
            format!("The model provider rejected the request for rate or quota reasons{during} (HTTP 429)."),
            "Retry with backoff (e.g. `max_retries` on the chat model), lower concurrency, or check the account's quota.".into(),
        ),
        error_code::LLM_AUTH_FAILED => (
            format!("The model provider refused the credentials{during} (HTTP 401/403)."),
            "Check the API key the server runs with (environment variable, secret mount) and that it may use this model.".into(),
        ),
        error_code::UPSTREAM_TIMEOUT => (
            format!("A call to an upstream service timed out{during}."),
            "Raise the client timeout of the model or tool, or find why the upstream is slow; a partial answer may already be on screen.".into(),
        ),
        error_code::UPSTREAM_UNREACHABLE => (
            format!("An upstream service could not be reached{during} (connection refused, DNS, network)."),
            "Check the base URL, proxy and network from the server's host; the service may be down.".into(),
        ),
        error_code::INCOMPLETE_STREAM => {
            let what = open
                .iter()
                .find(|o| matches!(o.kind, "text" | "reasoning" | "tool_call" | "model_call"))
                .map(|o| format!(" in the middle of a {} ({})", o.kind.replace('_', " "), o.state))
                .unwrap_or_default();
            (
                format!("The stream just stops{what}: the server died or was killed, the connection dropped, or the recorder lost the tail."),
                "Check the server's logs and exit status around that time; if the recording is at fault, record again with the error line kept.".into(),
            )
        }
        _ => match nearest {
            Some(s) if s.kind == "tool_error" || open_tool.is_some() => (
                format!("An exception in the graph's code{during}: {} ({}).", s.message, s.at),
                "Fix the failing tool, or let the tool node turn exceptions into tool messages (e.g. `ToolNode(handle_tool_errors=True)`) so the model can react.".to_string(),
            ),
            Some(s) => (
                format!("An exception in the graph's code{during}; nearest sign: {} ({}).", s.message, s.at),
                "Read the error message and the node it came from; catch the exception there or fix its cause.".to_string(),
            ),
            None => (
                format!("An exception in the graph's code{during}."),
                "Read the error message and the last records before it; catch the exception in the node that raised or fix its cause.".to_string(),
            ),
        },
    }
}
