//! CLI arguments → library options.

use std::sync::Arc;
use std::time::Duration;

use aguify::adapter::Family;
use aguify::mapper::{Compat, MapOptions, Target, TextPolicy, ToolSteps};
use aguify::pipeline::{Input, Options};

use crate::cli::{self, InputArgs, MapArgs, PolicyArgs};

/// The files given, or stdin (`-`) when there are none.
pub fn or_stdin(files: &[String]) -> Vec<String> {
    if files.is_empty() {
        vec!["-".to_string()]
    } else {
        files.to_vec()
    }
}

/// `--stdin-filename`: the name stdin's input is reported under.
pub fn label_stdin(inputs: &mut [Input], label: Option<&str>) {
    if let Some(label) = label {
        for i in inputs.iter_mut().filter(|i| &*i.name == "-") {
            i.name = Arc::from(label);
        }
    }
}

pub fn pipeline_options(input: &InputArgs, map: &MapArgs) -> Options {
    let mut opts = Options {
        max_line_bytes: input.max_line_bytes,
        strict: input.strict,
        parse_threads: input.threads.unwrap_or_else(default_threads),
        ..mapping(input.from, &map.policy)
    };
    opts.map.thread_id = map.thread_id.clone();
    opts.map.run_id = map.run_id.clone();
    opts
}

/// `--from` and what a front end is sent; the rest as [`Options::default`] has it.
pub fn mapping(from: cli::From, policy: &PolicyArgs) -> Options {
    Options {
        from: match from {
            cli::From::Auto | cli::From::Sse => None,
            cli::From::V2 => Some(Family::V2),
            cli::From::V3 => Some(Family::V3),
            cli::From::Agui => Some(Family::Agui),
        },
        framing: (from == cli::From::Sse).then_some(aguify::input::Framing::Sse),
        map: MapOptions {
            text: match policy.text {
                cli::Text::Stream => TextPolicy::Stream,
                cli::Text::Final => TextPolicy::Final,
            },
            tool_steps: match policy.tool_steps {
                cli::ToolSteps::None => ToolSteps::None,
                cli::ToolSteps::Reasoning => ToolSteps::Reasoning,
            },
            compat: match policy.compat {
                cli::Compat::None => Compat::None,
                cli::Compat::Thinking => Compat::Thinking,
            },
            target: match policy.target {
                cli::Target::Agui10 => Target::Agui1,
                cli::Target::Agui00 => Target::Agui0,
            },
            ..MapOptions::default()
        },
        ..Options::default()
    }
}

/// `--threads` by default: the cores, at most 2. One parse thread nearly keeps up with the
/// main thread; each further one adds 4–8 MiB of peak RSS (docs/performance.md).
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
