//! The benchmark log generator (`benches/support/gen.rs`): the logs it builds stay realistic.

#[path = "../benches/support/gen.rs"]
mod gen;

/// The v3 envelope seqs of `text`'s lines, in order.
fn seqs(text: &str) -> Vec<u64> {
    text.lines()
        .filter_map(|l| {
            let at = l.find("\"seq\":")? + 6;
            let n = l[at..].bytes().take_while(u8::is_ascii_digit).count();
            l[at..at + n].parse().ok()
        })
        .collect()
}

/// Places where a seq is not the one before plus one.
fn gaps(seqs: &[u64]) -> usize {
    seqs.windows(2).filter(|w| w[1] != w[0] + 1).count()
}

/// Replicated recordings continue each other's seqs: a recording that counts from 1
/// (Python) after one that ended at N starts at N + 1, not N + 2. A gap between recordings
/// is a warning per recording (AGX601), which no real log has and which made the Python
/// wire form's benchmark mostly a test of the warning path.
#[test]
fn v3_seqs_continue_across_recordings() {
    for form in ["v3-python", "v3-js", "v3-python-inprocess"] {
        let files = gen::recordings(&gen::form_dir(form)).expect("recordings");
        let within: usize = files
            .iter()
            .map(|(_, lines)| gaps(&seqs(&lines.join("\n"))))
            .sum();
        let total: usize = files.iter().flat_map(|(_, l)| l).map(|l| l.len() + 1).sum();
        // Two and a half passes: at most three copies of each recording's own gaps.
        let out = gen::generate_vec(form, (total * 5 / 2) as u64).expect("generates");
        let out = String::from_utf8(out).expect("utf-8");
        let s = seqs(&out);
        assert!(s.len() > 100, "{form}: {} seqs", s.len());
        assert!(
            gaps(&s) <= 3 * within,
            "{form}: {} seq gaps in the generated log, the recordings have {within}",
            gaps(&s)
        );
    }
}

/// `-one-run` logs are one run of many steps: one RUN_STARTED and one RUN_FINISHED, every
/// line mapped or ignored for a stated reason, each tool call started, ended and answered
/// once.
#[test]
fn one_run_logs_are_one_clean_run() {
    use aguify::pipeline::{convert_to_vec, Input, Options};
    for form in gen::FORMS {
        let mut log = vec![];
        gen::generate_one_run(form, 400_000, &mut log).expect("generates");
        let (events, stats) =
            convert_to_vec(vec![Input::from_bytes(form, log)], &Options::default())
                .expect("converts");
        assert_eq!((stats.bad, stats.warnings), (0, 0), "{form}");
        let count = |t: &str| events.iter().filter(|e| e["type"] == t).count();
        assert_eq!(count("RUN_STARTED"), 1, "{form}");
        assert_eq!(count("RUN_FINISHED"), 1, "{form}");
        let starts = count("TOOL_CALL_START");
        assert!(starts >= 10, "{form}: {starts} tool calls");
        assert_eq!(count("TOOL_CALL_END"), starts, "{form}");
        assert_eq!(count("TOOL_CALL_RESULT"), starts, "{form}");
    }
}

/// `-big` and `-zh` change payloads, not the stream: each recording converts to the same
/// event types in the same order, with the same warnings, and the change shows where it
/// should (a tool result grown past the asked size; text deltas in Chinese characters).
#[test]
fn variants_change_payloads_not_the_stream() {
    use aguify::pipeline::{convert_to_vec, Input, Options};
    use serde_json::Value;
    const BIG: usize = 64 * 1024;
    let convert = |name: &str, lines: &[String]| {
        let bytes = (lines.join("\n") + "\n").into_bytes();
        convert_to_vec(vec![Input::from_bytes(name, bytes)], &Options::default()).expect("converts")
    };
    let types = |evs: &[Value]| -> Vec<String> {
        evs.iter()
            .map(|e| e["type"].as_str().unwrap_or_default().to_string())
            .collect()
    };
    for form in gen::FORMS {
        let (mut grown, mut chinese) = (0, 0);
        for (path, lines) in gen::recordings(&gen::form_dir(form)).expect("recordings") {
            let name = path.display().to_string();
            let (base, base_stats) = convert(&name, &lines);
            for v in [gen::Variant::Big, gen::Variant::Zh] {
                // Likewise a structured output (createAgent's responseFormat): its tool
                // message repeats the model's call's arguments, one payload in two places;
                // growing it changes how the call's arguments complete at the model's end.
                if v == gen::Variant::Big && name.contains("n_structured_output") {
                    continue;
                }
                if v == gen::Variant::Big && name.contains("m_supervisor") {
                    // A sub-agent's answer is its parent tool's result: growing the result
                    // grows the answer in the model's end and state but not in its streamed
                    // chunks, and the stream is then completed (another event). Not a payload
                    // the variant can grow alone.
                    continue;
                }
                let mut changed = lines.clone();
                gen::apply_variant(v, &mut changed, BIG);
                let (evs, stats) = convert(&name, &changed);
                assert_eq!(types(&evs), types(&base), "{name} {v:?}");
                assert_eq!(
                    (stats.bad, stats.warnings, stats.mapped),
                    (base_stats.bad, base_stats.warnings, base_stats.mapped),
                    "{name} {v:?}"
                );
                for e in &evs {
                    let str_of = |k: &str| e[k].as_str().unwrap_or_default();
                    match (v, str_of("type")) {
                        (gen::Variant::Big, "TOOL_CALL_RESULT")
                            if str_of("content").len() >= BIG =>
                        {
                            grown += 1
                        }
                        (gen::Variant::Zh, "TEXT_MESSAGE_CONTENT")
                            if str_of("delta")
                                .chars()
                                .any(|c| ('\u{4e00}'..'\u{6000}').contains(&c)) =>
                        {
                            chinese += 1
                        }
                        _ => {}
                    }
                }
            }
        }
        assert!(grown > 0, "{form}: no tool result grown");
        assert!(chinese > 0, "{form}: no text in Chinese");
    }
}

/// Replicated recordings never collide: ids the scripted recordings reuse across runs
/// (`call_…`, `toolu_…`, `ai-…`, `agui-…`) are rewritten per run, so `aguify check` of a
/// generated log of every form finds no error (the benchmark's `check` exits 0).
#[test]
fn generated_logs_check_clean() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    for form in gen::FORMS {
        let files = gen::recordings(&gen::form_dir(form)).expect("recordings");
        let total: usize = files.iter().flat_map(|(_, l)| l).map(|l| l.len() + 1).sum();
        // Two and a half passes: collisions within a pass and across passes.
        let log = gen::generate_vec(form, (total * 5 / 2) as u64).expect("generates");
        let mut child = Command::new(env!("CARGO_BIN_EXE_aguify"))
            .args(["check", "--format", "text", "-"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("runs aguify");
        let mut stdin = child.stdin.take().expect("stdin");
        let writer = std::thread::spawn(move || stdin.write_all(&log));
        let out = child.wait_with_output().expect("waits");
        writer.join().expect("joins").expect("writes");
        assert_eq!(
            out.status.code(),
            Some(0),
            "{form}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
}
