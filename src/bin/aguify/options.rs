//! CLI arguments → library options.

use aguify::check::Config;
use aguify::mapper::{Compat, MapOptions};
use aguify::pipeline::Options;

use crate::cli::{self, InputArgs, MapArgs, PolicyArgs, RuleArgs};

/// The files given, or stdin (`-`) when there are none.
pub fn or_stdin(files: &[String]) -> Vec<String> {
    if files.is_empty() {
        vec!["-".to_string()]
    } else {
        files.to_vec()
    }
}

/// The pipeline's options from the input and mapping arguments (the commands that only read,
/// timeline, explain, report and snapshot, pass the default mapping).
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
pub fn mapping((from, framing): cli::Form, policy: &PolicyArgs) -> Options {
    let map = MapOptions {
        text: policy.text,
        tool_steps: policy.tool_steps,
        compat: policy.compat,
        target: policy.target,
        ..MapOptions::default()
    };
    Options {
        from,
        framing,
        map,
        ..Options::default()
    }
}

/// The checker's settings: `--allow`, `--deny`, `--compat`, and how many findings of each rule
/// it keeps.
pub fn check_config(rules: &RuleArgs, policy: &PolicyArgs, keep_per_rule: usize) -> Config {
    Config {
        allow: rules.allow.clone(),
        deny: rules.deny.clone(),
        keep_per_rule,
        thinking: policy.compat == Compat::Thinking,
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
