//! CLI arguments → library options.

use std::time::Duration;

use aguify::adapter::Family;
use aguify::mapper::{Compat, MapOptions, TextPolicy, ToolSteps};
use aguify::pipeline::{Input, Options};

use crate::cli::{self, InputArgs, MapArgs};

pub fn open_inputs(files: &[String]) -> Result<Vec<Input>, aguify::Error> {
    if files.is_empty() {
        return Ok(vec![Input::open("-")?]);
    }
    files.iter().map(|f| Input::open(f)).collect()
}

/// `--stdin-filename`: the name stdin's input is reported under.
pub fn label_stdin(inputs: &mut [Input], label: Option<&str>) {
    if let Some(label) = label {
        for i in inputs.iter_mut().filter(|i| &*i.name == "-") {
            i.name = std::sync::Arc::from(label);
        }
    }
}

pub fn pipeline_options(input: &InputArgs, map: &MapArgs) -> Options {
    Options {
        from: match input.from {
            cli::From::Auto | cli::From::Sse => None,
            cli::From::V2 => Some(Family::V2),
            cli::From::V3 => Some(Family::V3),
            cli::From::Agui => Some(Family::Agui),
        },
        framing: (input.from == cli::From::Sse).then_some(aguify::input::Framing::Sse),
        map: MapOptions {
            text: match map.policy.text {
                cli::Text::Stream => TextPolicy::Stream,
                cli::Text::Final => TextPolicy::Final,
            },
            tool_steps: match map.policy.tool_steps {
                cli::ToolSteps::None => ToolSteps::None,
                cli::ToolSteps::Reasoning => ToolSteps::Reasoning,
            },
            compat: match map.policy.compat {
                cli::Compat::None => Compat::None,
                cli::Compat::Thinking => Compat::Thinking,
            },
            thread_id: map.thread_id.clone(),
            run_id: map.run_id.clone(),
        },
        max_line_bytes: input.max_line_bytes,
        strict: input.strict,
        parse_threads: input.threads.unwrap_or_else(default_threads),
    }
}

/// `--threads` by default: the cores, at most 2 (one parse thread beside the main thread).
/// By instructions one parse thread nearly keeps up with the main thread (which maps, checks
/// and writes) on every form measured; each further thread adds a heap and batches in flight,
/// 4–8 MiB of peak RSS (1 GB v3-js check: 24 MiB with 2, up to 31 MiB with 3, 35 MiB with 4;
/// docs/performance.md).
pub fn default_threads() -> usize {
    cores().min(2)
}

/// The machine's cores (1 when unknown).
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

pub fn pacing(p: &cli::PaceArgs) -> aguify::replay::Pacing {
    aguify::replay::Pacing {
        speed: p.speed,
        max_gap: (p.max_gap > 0).then(|| Duration::from_millis(p.max_gap)),
        interval: Duration::from_millis(p.interval),
    }
}

/// Pipeline options for the commands that only read (timeline, explain): default mapping.
pub fn input_options(input: &InputArgs) -> Options {
    pipeline_options(input, &MapArgs::default())
}
