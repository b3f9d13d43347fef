//! Command-line definitions (clap derive). Completions are generated from these.

use aguify::adapter::Family;
use aguify::check::report::Format as CheckFormat;
use aguify::diff::report::Format as DiffFormat;
use aguify::input::Framing;
use aguify::mapper::{Compat, Target, TextPolicy, ToolSteps};
use aguify::replay::positive;
use aguify::sink::Format;
use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use clap::{Args, ColorChoice, Parser, Subcommand, ValueEnum};

/// Transcodes recorded LangGraph event logs (astream_events v2, the v3 streaming protocol,
/// LangGraph platform SSE) into AG-UI 1.0 events, and checks AG-UI streams.
///
/// Exit codes: 0 success, 1 findings (check), 2 unreadable input or bad usage.
#[derive(Parser, Debug)]
#[command(
    name = "aguify",
    // The package version and the commit it was built from (build.rs).
    version = env!("AGUIFY_VERSION"),
    about = "LangGraph event logs in, AG-UI 1.0 events out"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Convert LangGraph logs to AG-UI events (SSE or NDJSON)
    Convert(ConvertArgs),
    /// Check AG-UI streams and LangGraph logs (official client rules, schema, interrupts, …)
    #[command(mut_arg("files", |a| a.help(
        "Input files, each checked on its own (a directory: its *.ndjson, *.jsonl and *.sse \
         files in any case, walked in name order, without hidden folders, node_modules and \
         symbolic links unless -L); none or `-` reads stdin"
    )))]
    Check(CheckArgs),
    /// Serve recorded runs as a live AG-UI endpoint (POST a RunAgentInput, get SSE)
    Serve(ServeArgs),
    /// Show runs at a glance: one line per message, reasoning block, tool call, step
    Timeline(TimelineArgs),
    /// Explain runs that ended in RUN_ERROR or stopped without a terminal event: the error and
    /// its code class, the input line that carried it, the last raw records before it, what was
    /// open at that moment, the nearest upstream signal, a likely cause and a fix hint.
    ///
    /// Exit codes: 0 something was explained, 1 nothing to explain (all runs clean), 2
    /// unreadable input.
    #[command(about = "Explain runs that ended in RUN_ERROR or stopped without a terminal event")]
    Explain(ExplainArgs),
    /// Compare two streams run by run as a front end shows them: the outcome (interrupts,
    /// errors), steps, messages (text once deltas are joined), reasoning, tool calls (name,
    /// arguments as JSON, result, error), resumes, custom events and the state. Ids, timestamps,
    /// chunk boundaries and key order never match between two executions and are not compared:
    /// messages are matched by role and position, calls, reasoning and interrupts by position.
    /// Each side is files of any form aguify reads (consecutive runs of one thread) or a
    /// snapshot written by `aguify snapshot`.
    ///
    /// Exit codes: 0 equal, 1 different, 2 unreadable input or bad usage.
    #[command(
        about = "Compare two streams run by run as a front end shows them (exit 0 equal, 1 different)",
        after_help = "Examples:\n  aguify diff golden.snap run.ndjson\n  \
        aguify diff --ignore /state/updatedAt --ignore '/toolCalls/*/args/requestId' old.ndjson new.ndjson\n  \
        aguify diff --old run1.ndjson run2.ndjson --new new1.ndjson new2.ndjson"
    )]
    Diff(DiffArgs),
    /// Write the golden snapshot of runs: what a front end shows, one value a line, stable ids
    #[command(
        long_about = "Write the golden snapshot of runs to stdout: the view `aguify diff` \
        compares, one JSON pointer and value a line, with placeholder ids (assistant-1, call-1, \
        interrupt-1), no timestamps, text joined and keys sorted, for a repository to commit and \
        review. `aguify diff golden.snap new.ndjson` takes it as either side."
    )]
    Snapshot(SnapshotArgs),
    /// Write a self-contained HTML report of the runs in FILEs: per run a header (outcome,
    /// counts, tokens, duration, and for a failed run `explain`'s diagnosis), a lane view of
    /// where the time went, the conversation as a transcript with the checker's findings at their
    /// events, and the state snapshots with what changed. One file with inline style and script
    /// that makes no network request; at most 10 MiB whatever the input's size.
    ///
    /// Exit codes: 0 written, 2 unreadable input or bad usage.
    #[command(
        about = "Write a self-contained HTML report of runs: lanes, transcript, findings, states"
    )]
    Report(ReportArgs),
    /// Write recordings with what users said, the model answered and tools took and returned
    /// replaced by placeholder text of the same shape, in the same form as read (v2, v3, SSE,
    /// AG-UI). Event names, ids, seq, timestamps, node, tool and model names, usage, finish
    /// reasons and error classes stay, so convert, check, timeline and explain tell the same
    /// story. Credentials (API keys, bearer tokens, JWTs, private keys, e-mail addresses, URLs
    /// with credentials) are replaced in every mode, --keep included, and counted on stderr.
    ///
    /// Exit codes: 0 written, 2 unreadable input or bad usage.
    #[command(
        about = "Write a recording with its text replaced, to share (same form out as in)",
        after_help = "Examples:\n  aguify redact run.ndjson -o run.redacted.ndjson\n  \
        aguify redact --keep '/data/input/city' --slim run.ndjson > bug-report.ndjson\n  \
        aguify redact d_hitl__1_interrupt.ndjson d_hitl__2_resume.ndjson -o redacted/"
    )]
    Redact(RedactArgs),
    /// Generate shell completions
    Completions {
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
}

#[derive(Args, Debug, Clone)]
pub struct InputArgs {
    /// Input files, in order (consecutive runs of one thread); none or `-` reads stdin
    #[arg(value_name = "FILE")]
    pub files: Vec<String>,
    /// Input form: detected per file by default
    #[arg(long, value_parser = one_of(FORMS), default_value = "auto")]
    pub from: Form,
    /// Skip (and report) lines, and SSE frames whose data, longer than this many bytes (at
    /// least 1)
    #[arg(long, value_name = "BYTES", default_value_t = aguify::input::DEFAULT_MAX_LINE_BYTES,
          value_parser = positive)]
    pub max_line_bytes: usize,
    /// Exit 2 at the first bad input line instead of reporting it and going on
    #[arg(long)]
    pub strict: bool,
    /// Threads for NDJSON input: 1 parses on the main thread; N > 1 parses on N - 1 more
    /// threads while the main thread maps (default: the number of cores, at most 2). The
    /// output does not depend on it
    #[arg(long, value_name = "N", value_parser = positive)]
    pub threads: Option<usize>,
}

/// How stdin is named (convert, check, timeline, explain).
#[derive(Args, Debug, Clone, Default)]
pub struct StdinArgs {
    /// The name stdin is reported under (in findings, diagnostics and timelines)
    #[arg(long, value_name = "NAME")]
    pub stdin_filename: Option<String>,
}

/// An option's values: each name read as the library's value beside it (the names are what
/// help and shell completions offer).
fn one_of<T: Clone + Send + Sync + 'static>(
    values: &'static [(&'static str, T)],
) -> impl TypedValueParser<Value = T> {
    let names = values.iter().map(|(name, _)| PossibleValue::new(*name));
    PossibleValuesParser::new(names).map(|given| {
        let found = values.iter().find(|(name, _)| *name == given);
        found.expect("clap gives a possible value").1.clone()
    })
}

/// `--from`: the input family and the framing forced (none: detected per file).
pub type Form = (Option<Family>, Option<Framing>);

const FORMS: &[(&str, Form)] = &[
    ("auto", (None, None)),
    ("v2", (Some(Family::V2), None)),
    ("v3", (Some(Family::V3), None)),
    ("sse", (None, Some(Framing::Sse))),
    ("agui", (Some(Family::Agui), None)),
];
const TO: &[(&str, Format)] = &[("sse", Format::Sse), ("ndjson", Format::Ndjson)];
const TEXT: &[(&str, TextPolicy)] = &[("stream", TextPolicy::Stream), ("final", TextPolicy::Final)];
const TOOL_STEPS: &[(&str, ToolSteps)] = &[
    ("none", ToolSteps::None),
    ("reasoning", ToolSteps::Reasoning),
];
const COMPAT: &[(&str, Compat)] = &[("none", Compat::None), ("thinking", Compat::Thinking)];
const TARGET: &[(&str, Target)] = &[("agui-1.0", Target::Agui1), ("agui-0.0", Target::Agui0)];

/// The rule ids and `extra` (case-insensitive; offered by shell completions).
fn rule_ids(extra: &'static [&'static str]) -> PossibleValuesParser {
    let ids = aguify::check::RULES.iter().map(|r| r.id);
    PossibleValuesParser::new(ids.chain(extra.iter().copied()).map(PossibleValue::new))
}

/// Rule selection and how many findings are shown (check and convert).
#[derive(Args, Debug, Clone, Default)]
pub struct RuleArgs {
    /// Silence rules (repeatable, or a comma list: AGX301,AGX303)
    #[arg(long, value_name = "RULE", value_delimiter = ',', ignore_case = true,
          value_parser = rule_ids(&[]))]
    pub allow: Vec<String>,
    /// Make rules errors (repeatable, or a comma list)
    #[arg(long, value_name = "RULE", value_delimiter = ',', ignore_case = true,
          value_parser = rule_ids(&[]))]
    pub deny: Vec<String>,
    /// Findings shown per file and rule; the rest are counted in one line (0: all)
    #[arg(long, value_name = "N", default_value_t = aguify::check::report::DEFAULT_MAX_PER_RULE)]
    pub max_per_rule: usize,
}

#[derive(Args, Debug, Clone, Default)]
pub struct MapArgs {
    /// threadId when the log has none
    #[arg(long, value_name = "ID")]
    pub thread_id: Option<String>,
    /// runId when the log has none (later runs get `-2`, `-3`…)
    #[arg(long, value_name = "ID")]
    pub run_id: Option<String>,
    #[command(flatten)]
    pub policy: PolicyArgs,
}

/// What a front end is sent (convert and serve; the defaults for the others).
#[derive(Args, Debug, Clone, Default)]
pub struct PolicyArgs {
    /// Stream every model message, or only the final state's answer
    #[arg(long, value_parser = one_of(TEXT), default_value = "stream")]
    pub text: TextPolicy,
    /// Also narrate tool calls as short reasoning lines
    #[arg(long, value_parser = one_of(TOOL_STEPS), default_value = "none")]
    pub tool_steps: ToolSteps,
    /// Rename REASONING_* to 0.x THINKING_* (TDesign Chat 0.5.2)
    #[arg(long, value_parser = one_of(COMPAT), default_value = "none")]
    pub compat: Compat,
    /// The client generation: agui-0.0 writes what @ag-ui/client 0.0.x accepts (a cancelled
    /// run as RUN_ERROR CANCELLED, no pendingToolCallIds)
    #[arg(long, value_parser = one_of(TARGET), default_value = "agui-1.0")]
    pub target: Target,
}

#[derive(Args, Debug)]
pub struct ConvertArgs {
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub stdin: StdinArgs,
    #[command(flatten)]
    pub map: MapArgs,
    /// Output format
    #[arg(long, value_parser = one_of(TO), default_value = "sse")]
    pub to: Format,
    /// Print where every input line went (mapped / ignored with reason / bad) to stderr
    #[arg(long)]
    pub stats: bool,
    /// Exit 1 when a check finding reaches this severity (findings go to stderr either way)
    #[arg(long, value_enum, default_value_t = FailOn::None)]
    pub fail_on: FailOn,
    #[command(flatten)]
    pub rules: RuleArgs,
    /// Print no check findings on stderr (the exit code still follows --fail-on)
    #[arg(long, short)]
    pub quiet: bool,
    /// Colour the diagnostics on stderr; `auto` colours a terminal only and honours NO_COLOR,
    /// CLICOLOR_FORCE and TERM=dumb
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
    /// Write each event after its recorded gap (see --speed, --max-gap, --interval), flushing
    /// every frame
    #[arg(long)]
    pub pace: bool,
    #[command(flatten)]
    pub pacing: aguify::replay::Pacing,
}

#[derive(Args, Debug)]
#[command(
    after_help = "POST / serves the FILEs (conversation `default`), or without FILEs the first \
                        --conversation; POST /<name> serves a named one; GET / lists them. See docs/replay.md."
)]
pub struct ServeArgs {
    /// Recording files of one conversation, in order (e.g. an interrupt run, then its resume run)
    #[arg(value_name = "FILE")]
    pub files: Vec<String>,
    /// A further conversation: the *.ndjson/*.jsonl/*.sse files of DIR in name order, served at
    /// POST /<name> (the folder's name unless given as NAME=DIR); repeatable
    #[arg(long, value_name = "[NAME=]DIR")]
    pub conversation: Vec<String>,
    #[command(flatten)]
    pub config: aguify::serve::ServeConfig,
    /// Input form: detected per file by default
    #[arg(long, value_parser = one_of(FORMS), default_value = "auto")]
    pub from: Form,
    #[command(flatten)]
    pub policy: PolicyArgs,
    /// Don't log one line per request to stderr
    #[arg(long, short)]
    pub quiet: bool,
}

#[derive(Args, Debug)]
pub struct CheckArgs {
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub stdin: StdinArgs,
    #[command(flatten)]
    pub map: MapArgs,
    /// Report format
    #[arg(long, value_enum, default_value_t = CheckFormat::Text)]
    pub format: CheckFormat,
    /// Exit 1 when a finding reaches this severity
    #[arg(long, value_enum, default_value_t = FailOn::Error)]
    pub fail_on: FailOn,
    /// Exit 1 when there are more than N warnings (the report says so)
    #[arg(long, value_name = "N")]
    pub max_warnings: Option<u64>,
    #[command(flatten)]
    pub rules: RuleArgs,
    /// Explain a rule and exit (`all` lists every rule)
    #[arg(long, value_name = "RULE", ignore_case = true, value_parser = rule_ids(&["all"]))]
    pub explain: Option<String>,
    /// Also check the paths listed in FILE, one a line (`-`: read the list from stdin)
    #[arg(long, value_name = "FILE")]
    pub files_from: Option<String>,
    /// Follow symbolic links when walking a directory (a link back to a folder being walked
    /// is told and not walked again)
    #[arg(short = 'L', long)]
    pub follow_links: bool,
    /// List clean files too (the text report shows only files with findings)
    #[arg(long, short)]
    pub verbose: bool,
    /// Print nothing: the exit code alone says whether the check passed
    #[arg(long, short, conflicts_with_all = ["verbose", "statistics"])]
    pub quiet: bool,
    /// Print only the findings counted by rule and the summary line (text)
    #[arg(long, conflicts_with = "format")]
    pub statistics: bool,
    /// Colour the text report
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
    /// Check this many files at once (default: the number of cores); the report keeps the
    /// input order
    #[arg(short = 'j', long, value_name = "N", value_parser = positive)]
    pub jobs: Option<usize>,
}

#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum FailOn {
    Error,
    Warning,
    None,
}

#[derive(Args, Debug)]
pub struct TimelineArgs {
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub stdin: StdinArgs,
    /// Colour by kind; `auto` colours a terminal only and honours NO_COLOR / CLICOLOR_FORCE
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
    /// Show previews and ids whole, never cut lines to the width
    #[arg(long)]
    pub full: bool,
    /// Keep reading the file as it grows (like `tail -f`) until Ctrl-C
    #[arg(long)]
    pub follow: bool,
    /// With --follow: also stop once a run has ended and the file has no more data
    #[arg(long, requires = "follow")]
    pub exit_on_end: bool,
    /// Do not run the checker (its findings are shown inline by default)
    #[arg(long)]
    pub no_check: bool,
    /// Cut lines to this many columns, 0 for no limit (default: the terminal's width; output
    /// to a pipe or a file is not cut)
    #[arg(long, value_name = "N")]
    pub width: Option<usize>,
}

#[derive(Args, Debug)]
pub struct ReportArgs {
    #[command(flatten)]
    pub input: InputArgs,
    /// Where to write the HTML (`-`: stdout)
    #[arg(short = 'o', long, value_name = "PATH", default_value = "-")]
    pub output: String,
    /// Do not run the checker (its findings are shown at their events by default)
    #[arg(long)]
    pub no_check: bool,
}

#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExplainFormat {
    Text,
    Json,
}

#[derive(Args, Debug)]
pub struct ExplainArgs {
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub stdin: StdinArgs,
    /// How many raw input records before the error to show
    #[arg(short = 'n', value_name = "N", default_value_t = 8)]
    pub last: usize,
    /// Output format (json: the documented object of docs/timeline.md)
    #[arg(long, value_enum, default_value_t = ExplainFormat::Text)]
    pub format: ExplainFormat,
    /// Colour the text report; `auto` colours a terminal only and honours NO_COLOR / CLICOLOR_FORCE
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
}

#[derive(Args, Debug)]
pub struct DiffArgs {
    /// The old side: one file (or use --old for several)
    #[arg(
        value_name = "OLD",
        required_unless_present = "old",
        conflicts_with = "old"
    )]
    pub old_file: Option<String>,
    /// The new side: one file (or use --new for several)
    #[arg(
        value_name = "NEW",
        required_unless_present = "new",
        conflicts_with = "new"
    )]
    pub new_file: Option<String>,
    /// The old side as several files, in order (consecutive runs of one thread)
    #[arg(long, value_name = "FILE", num_args = 1.., requires = "new")]
    pub old: Vec<String>,
    /// The new side as several files, in order
    #[arg(long, value_name = "FILE", num_args = 1.., requires = "old")]
    pub new: Vec<String>,
    #[command(flatten)]
    pub compare: aguify::diff::Options,
    /// Report format
    #[arg(long, value_enum, default_value_t = DiffFormat::Text)]
    pub format: DiffFormat,
    /// Colour the text report; `auto` colours a terminal only and honours NO_COLOR / CLICOLOR_FORCE
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
    /// Input form of both sides' logs: detected per file by default
    #[arg(long, value_parser = one_of(FORMS), default_value = "auto")]
    pub from: Form,
    /// Threads parsing each side's NDJSON (the sides are read at once, on a thread each;
    /// default 1). The result does not depend on it
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
}

#[derive(Args, Debug)]
pub struct SnapshotArgs {
    #[command(flatten)]
    pub input: InputArgs,
}

#[derive(Args, Debug)]
pub struct RedactArgs {
    /// Recordings to redact; none or `-` reads stdin
    #[arg(value_name = "FILE")]
    pub files: Vec<String>,
    /// Write here (through a temporary file renamed when done); an existing directory gets
    /// one file per input, by its name. Default: stdout
    #[arg(short = 'o', long, value_name = "OUT")]
    pub output: Option<String>,
    #[command(flatten)]
    pub redact: aguify::redact::Options,
    #[command(flatten)]
    pub stdin: StdinArgs,
}
