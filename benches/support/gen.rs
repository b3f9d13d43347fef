//! Log generator shared by `examples/gen_logs.rs` and the benchmarks: replicates the
//! recordings of one input form with rewritten ids (see the example's docs).

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// The recordings folder of a form (`v2-python-api`, `v3-js`…).
pub fn form_dir(form: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("testdata/recordings")
        .join(form)
}

/// The forms the generator knows, in benchmark order.
#[allow(dead_code)]
pub const FORMS: [&str; 6] = [
    "v2-python-api",
    "v2-python-dumpd",
    "v2-js",
    "v3-python",
    "v3-python-inprocess",
    "v3-js",
];

/// The suffix of a form name (`v3-js-one-run`) asking for [`generate_one_run`].
#[allow(dead_code)]
pub const ONE_RUN: &str = "-one-run";

/// A generated log of at least `target` bytes, in memory.
#[allow(dead_code)]
pub fn generate_vec(form: &str, target: u64) -> Result<Vec<u8>, String> {
    let files = form_recordings(form)?;
    let mut out = Vec::with_capacity(target as usize + (1 << 20));
    generate(&files, target, &mut out).map_err(|e| e.to_string())?;
    Ok(out)
}

/// One run of a long-running agent, of at least `target` bytes: the form's
/// `b_react_one_tool` recording (a model call, a tool call, a model reply) with its steps
/// repeated inside its one run, ids rewritten per repetition as [`generate`] does a pass's
/// but the run's own (its root run id, thread id and, in the v2 forms, its root start and
/// end lines, in v3 JS its root lifecycle lines) kept. Each repetition's states hold only
/// that repetition's messages, so the log's size grows with the run's length, not with its
/// square. What the short recordings never show: a run of millions of events.
#[allow(dead_code)]
pub fn generate_one_run(form: &str, target: u64, w: &mut impl Write) -> Result<(u64, u64), String> {
    let path = form_dir(form).join("b_react_one_tool.ndjson");
    let text = fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let recs: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    // The run's framing lines: a v2 root start and end, a v3 root lifecycle.
    let framed = form.starts_with("v2") || form == "v3-js";
    if recs.len() < 3 {
        return Err(format!("{}: too short for one run", path.display()));
    }
    let (head, body, tail) = if framed {
        (
            &recs[..1],
            &recs[1..recs.len() - 1],
            &recs[recs.len() - 1..],
        )
    } else {
        (&recs[..0], &recs[..], &recs[..0])
    };
    // The root's run id (v2: the first line's `run_id`) is the run's own.
    let root = head
        .first()
        .and_then(|l| l.find("\"run_id\"").map(|i| &l[i..]))
        .and_then(|l| {
            let b = l.as_bytes();
            (0..b.len()).find_map(|i| uuid_at(&b[i..]).map(|n| l[i..i + n].to_string()))
        });
    let thread = text.find("thread-").map(|i| {
        let t = &text[i..];
        let n = t
            .bytes()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == b'_' || *c == b'-')
            .count();
        t[..n].to_string()
    });
    let mut count = (0u64, 0u64);
    let write = |l: &str, w: &mut dyn Write, count: &mut (u64, u64)| -> io::Result<()> {
        w.write_all(l.as_bytes())?;
        w.write_all(b"\n")?;
        count.0 += l.len() as u64 + 1;
        count.1 += 1;
        Ok(())
    };
    let io = |e: io::Error| e.to_string();
    let mut next_seq = None;
    let mut line = String::new();
    for l in head {
        let mut max_seq = None;
        line.clear();
        rewrite(l, 0, 0, 0, &mut max_seq, &mut line);
        next_seq = max_seq.map(|m| m + 1);
        write(&line, w, &mut count).map_err(io)?;
    }
    let min = body.iter().filter_map(|l| first_seq(l)).min();
    for pass in 1u64.. {
        let offset = match (next_seq, min) {
            (Some(next), Some(min)) => next as i64 - min as i64,
            _ => 0,
        };
        let mut max_seq = None;
        for l in body {
            line.clear();
            rewrite(l, pass, pass * 1000, offset, &mut max_seq, &mut line);
            let mut l = line.clone();
            // The run's own ids, as the pass rewrote them, back as they were.
            if let Some(root) = &root {
                let mut moved = root[..24].to_string();
                new_tail(&root.as_bytes()[24..], pass, &mut moved);
                l = l.replace(&moved, root);
            }
            if let Some(t) = &thread {
                l = l.replace(&format!("{t}_{pass}"), t);
            }
            write(&l, w, &mut count).map_err(io)?;
        }
        if let Some(m) = max_seq {
            next_seq = Some(m + 1);
        }
        if count.0 >= target {
            break;
        }
    }
    for l in tail {
        let mut max_seq = None;
        line.clear();
        let offset = match (next_seq, first_seq(l)) {
            (Some(next), Some(n)) => next as i64 - n as i64,
            _ => 0,
        };
        rewrite(l, 0, 0, offset, &mut max_seq, &mut line);
        write(&line, w, &mut count).map_err(io)?;
    }
    Ok(count)
}

/// How a form's recordings are changed before they are replicated, asked for by a suffix of
/// the form name ([`split_variant`]): what the short scripted recordings never show.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    /// `-big`: every tool result grown to [`BIG_BYTES`] (a retrieved document, a file read),
    /// wherever it appears: the tool's end, each state and message list that holds it.
    Big,
    /// `-zh`: the model's text (`content`, `text`, `delta`, reasoning) written in Chinese
    /// characters, letter for letter, so streamed pieces still add up to the whole.
    Zh,
}

/// The size a `-big` tool result is grown to.
pub const BIG_BYTES: usize = 1 << 20;

/// `v3-js-zh` → (`v3-js`, `Some(Variant::Zh)`); a name without a variant suffix as it is.
pub fn split_variant(form: &str) -> (&str, Option<Variant>) {
    if let Some(f) = form.strip_suffix("-big") {
        (f, Some(Variant::Big))
    } else if let Some(f) = form.strip_suffix("-zh") {
        (f, Some(Variant::Zh))
    } else {
        (form, None)
    }
}

/// The recordings of a form name, its variant (if any) applied.
pub fn form_recordings(form: &str) -> Result<Vec<(PathBuf, Vec<String>)>, String> {
    let (base, variant) = split_variant(form);
    let mut files = recordings(&form_dir(base))?;
    if let Some(v) = variant {
        for (_, lines) in &mut files {
            apply_variant(v, lines, BIG_BYTES);
        }
    }
    Ok(files)
}

/// The keys whose string values (or arrays of strings) are the model's text.
const TEXT_KEYS: [&str; 6] = [
    "content",
    "text",
    "delta",
    "reasoning",
    "thinking",
    "reasoning_content",
];

/// Changes one recording's lines as `v` asks (`big`: a `-big` tool result's size). Lines
/// that are not JSON, or that the variant leaves as they are, keep their bytes.
pub fn apply_variant(v: Variant, lines: &mut [String], big: usize) {
    use serde_json::Value;
    let mut parsed: Vec<Option<Value>> =
        lines.iter().map(|l| serde_json::from_str(l).ok()).collect();
    let changed: Vec<bool> = match v {
        Variant::Zh => parsed
            .iter_mut()
            .map(|p| p.as_mut().is_some_and(|v| to_zh(v, false)))
            .collect(),
        Variant::Big => {
            let mut found = std::collections::BTreeSet::new();
            for p in parsed.iter().flatten() {
                tool_results(p, &mut found);
            }
            let results = found
                .into_iter()
                .map(|text| {
                    let grown = grow(&text, big);
                    (text, grown)
                })
                .collect();
            parsed
                .iter_mut()
                .map(|p| p.as_mut().is_some_and(|v| replace_strings(v, &results)))
                .collect()
        }
    };
    for ((line, p), c) in lines.iter_mut().zip(parsed).zip(changed) {
        if let (Some(p), true) = (p, c) {
            *line = p.to_string();
        }
    }
}

/// Letters of the model's text as Chinese characters (under [`TEXT_KEYS`]); whether any
/// string changed.
fn to_zh(v: &mut serde_json::Value, text: bool) -> bool {
    use serde_json::Value;
    match v {
        // LangGraph.js writes a reasoning block it could not read as "undefined" repeated;
        // the adapter knows that artifact, which is not the model's text.
        Value::String(s) if text && !s.split("undefined").all(str::is_empty) => {
            let zh: String = s
                .chars()
                .map(|c| match c {
                    'a'..='z' => char::from_u32(0x4E00 + 37 * (c as u32 - 'a' as u32)).unwrap_or(c),
                    'A'..='Z' => char::from_u32(0x5A00 + 37 * (c as u32 - 'A' as u32)).unwrap_or(c),
                    _ => c,
                })
                .collect();
            let changed = zh != *s;
            *s = zh;
            changed
        }
        Value::Array(a) => a.iter_mut().fold(false, |c, x| to_zh(x, text) | c),
        Value::Object(m) => m.iter_mut().fold(false, |c, (k, x)| {
            to_zh(x, TEXT_KEYS.contains(&k.as_str())) | c
        }),
        _ => false,
    }
}

/// The `content` strings of tool messages (objects with a `tool_call_id`).
fn tool_results(v: &serde_json::Value, out: &mut std::collections::BTreeSet<String>) {
    use serde_json::Value;
    match v {
        Value::Array(a) => a.iter().for_each(|x| tool_results(x, out)),
        Value::Object(m) => {
            if m.contains_key("tool_call_id") {
                if let Some(Value::String(s)) = m.get("content") {
                    if !s.is_empty() {
                        out.insert(s.clone());
                    }
                }
            }
            m.values().for_each(|x| tool_results(x, out));
        }
        _ => {}
    }
}

/// `text` followed by numbered lines of a weather report until it is `size` bytes or more,
/// each line in English and in Chinese (about half the bytes outside ASCII, as a document
/// fetched for users of either language has), with a quote, a tab and a degree sign.
fn grow(text: &str, size: usize) -> String {
    const WIND: [(&str, &str); 4] = [
        ("north", "北"),
        ("east", "东"),
        ("south", "南"),
        ("west", "西"),
    ];
    let mut s = String::with_capacity(size + 256);
    s.push_str(text);
    let mut i = 0u64;
    while s.len() < size {
        i += 1;
        let (en, zh) = WIND[(i % 4) as usize];
        s.push_str(&format!(
            "\nline {i}: station {} reported \"clear\" skies,\t{}°C at {:02}:{:02}, wind {} km/h from the {en}; \
             观测站{}报告天气晴朗，气温{}°C，风速每小时{}公里，{zh}风。",
            i % 97,
            i % 35,
            i % 24,
            i % 60,
            i % 40,
            i % 97,
            i % 35,
            i % 40,
        ));
    }
    s
}

/// Every string equal to a key of `map` replaced by its value; whether any was.
fn replace_strings(
    v: &mut serde_json::Value,
    map: &std::collections::BTreeMap<String, String>,
) -> bool {
    use serde_json::Value;
    match v {
        Value::String(s) => match map.get(s.as_str()) {
            Some(grown) => {
                *s = grown.clone();
                true
            }
            None => false,
        },
        Value::Array(a) => a.iter_mut().fold(false, |c, x| replace_strings(x, map) | c),
        Value::Object(m) => m
            .values_mut()
            .fold(false, |c, x| replace_strings(x, map) | c),
        _ => false,
    }
}

/// The recordings of a form, in name order, with their lines.
pub fn recordings(dir: &Path) -> Result<Vec<(PathBuf, Vec<String>)>, String> {
    let rd = fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut paths: Vec<PathBuf> = rd
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "ndjson"))
        // A stream cut short would hold the next run inside it; a file of several runs restarts
        // its `seq`, which a continued numbering turns into seq going back.
        .filter(|p| {
            let name = p.to_string_lossy();
            !name.contains("truncated") && !name.contains("_one_file")
        })
        .collect();
    paths.sort();
    let mut out = vec![];
    for p in paths {
        let text = fs::read_to_string(&p).map_err(|e| format!("{}: {e}", p.display()))?;
        let lines = text
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(str::to_string)
            .collect();
        out.push((p, lines));
    }
    if out.is_empty() {
        return Err(format!("{}: no recordings", dir.display()));
    }
    Ok(out)
}

pub fn generate(
    files: &[(PathBuf, Vec<String>)],
    target: u64,
    w: &mut impl Write,
) -> io::Result<(u64, u64)> {
    let (mut bytes, mut lines) = (0u64, 0u64);
    // The seq the next recording's first event gets (None: keep the first one's own).
    let mut next_seq: Option<u64> = None;
    let mut line = String::new();
    // Tool call ids are rewritten per run (file stem, so `__1_interrupt`/`__2_resume` agree) in
    // every pass: scripted recordings reuse `call_weather_1` in different runs.
    let stems: Vec<String> = files
        .iter()
        .map(|(p, _)| {
            let name = p
                .file_stem()
                .map(|s| s.to_string_lossy().to_string())
                .unwrap_or_default();
            name.split("__").next().unwrap_or_default().to_string()
        })
        .collect();
    for pass in 0u64.. {
        for (fi, (_, recs)) in files.iter().enumerate() {
            let stem = stems.iter().position(|s| *s == stems[fi]).unwrap_or(fi) as u64;
            let run_tag = pass * 1000 + stem;
            // v3 seq numbers continue from the previous recording's last without a gap,
            // whether a recording counts from 0 (JS) or from 1 (Python).
            let offset = match (next_seq, recs.iter().filter_map(|l| first_seq(l)).min()) {
                (Some(next), Some(min)) => next as i64 - min as i64,
                _ => 0,
            };
            let mut max_seq = None;
            for l in recs {
                line.clear();
                rewrite(l, pass, run_tag, offset, &mut max_seq, &mut line);
                line.push('\n');
                w.write_all(line.as_bytes())?;
                bytes += line.len() as u64;
                lines += 1;
            }
            if let Some(m) = max_seq {
                next_seq = Some(m + 1);
            }
            if bytes >= target {
                return Ok((bytes, lines));
            }
        }
    }
    Ok((bytes, lines))
}

/// The first v3 envelope `"seq":N` of a line, if it has one.
fn first_seq(line: &str) -> Option<u64> {
    let at = line.find("\"seq\":")? + 6;
    let digits = line[at..].bytes().take_while(u8::is_ascii_digit).count();
    line[at..at + digits].parse().ok()
}

fn is_hex(b: u8) -> bool {
    b.is_ascii_digit() || (b'a'..=b'f').contains(&b)
}

/// Length of a UUID (8-4-4-4-12 hex) at the start of `s`, if there is one.
fn uuid_at(s: &[u8]) -> Option<usize> {
    if s.len() < 36 {
        return None;
    }
    for (i, &b) in s[..36].iter().enumerate() {
        let ok = if matches!(i, 8 | 13 | 18 | 23) {
            b == b'-'
        } else {
            is_hex(b)
        };
        if !ok {
            return None;
        }
    }
    Some(36)
}

/// A new 12-hex tail for pass `k`: the old tail shifted by a multiple of a large odd number.
fn new_tail(old: &[u8], k: u64, out: &mut String) {
    let v = std::str::from_utf8(old)
        .ok()
        .and_then(|s| u64::from_str_radix(s, 16).ok())
        .unwrap_or(0);
    let n = v.wrapping_add(k.wrapping_mul(0x9E37_79B9_7F4A_7C15))
        & ((1u64 << (4 * old.len() as u32)) - 1);
    out.push_str(&format!("{n:0width$x}", width = old.len()));
}

/// Ids rewritten per run in every pass (scripted recordings reuse them across runs).
const PER_RUN: [&str; 5] = ["call_", "toolu_", "ai-", "agui-", "chatcmpl-"];
const SUFFIXED: [&str; 7] = [
    "call_",
    "toolu_",
    "ai-",
    "agui-",
    "chatcmpl-",
    "human-",
    "thread-",
];

fn rewrite(
    line: &str,
    pass: u64,
    run_tag: u64,
    seq_offset: i64,
    max_seq: &mut Option<u64>,
    out: &mut String,
) {
    let b = line.as_bytes();
    let mut i = 0;
    let mut copied = 0;
    while i < b.len() {
        // v3 envelope sequence number.
        if b[i] == b'"' && b[i..].starts_with(b"\"seq\":") {
            let start = i + 6;
            let end = start + b[start..].iter().take_while(|c| c.is_ascii_digit()).count();
            if end > start {
                let n = line[start..end].parse::<u64>().unwrap_or(0) as i64 + seq_offset;
                let n = n.max(0) as u64;
                *max_seq = Some(max_seq.map_or(n, |m| m.max(n)));
                out.push_str(&line[copied..start]);
                out.push_str(&n.to_string());
                copied = end;
                i = end;
                continue;
            }
        }
        let at_word_start0 = i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_');
        let per_run = PER_RUN.iter().find(|p| b[i..].starts_with(p.as_bytes()));
        if let (0, true, Some(p)) = (pass, at_word_start0, per_run) {
            let end = i
                + p.len()
                + b[i + p.len()..]
                    .iter()
                    .take_while(|c| c.is_ascii_alphanumeric() || **c == b'_' || **c == b'-')
                    .count();
            if end > i + p.len() {
                out.push_str(&line[copied..end]);
                out.push_str(&format!("_r{run_tag}"));
                i = end;
                copied = i;
                continue;
            }
        }
        if pass > 0 {
            let at_word_start = i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_');
            if at_word_start {
                if let Some(n) = uuid_at(&b[i..]) {
                    out.push_str(&line[copied..i + 24]);
                    new_tail(&b[i + 24..i + n], pass, out);
                    i += n;
                    copied = i;
                    continue;
                }
                let hex_run = b[i..].iter().take_while(|&&c| is_hex(c)).count();
                if hex_run == 32 && !b.get(i + 32).is_some_and(u8::is_ascii_alphanumeric) {
                    out.push_str(&line[copied..i + 20]);
                    new_tail(&b[i + 20..i + 32], pass, out);
                    i += 32;
                    copied = i;
                    continue;
                }
                if let Some(p) = SUFFIXED.iter().find(|p| b[i..].starts_with(p.as_bytes())) {
                    let end = i
                        + p.len()
                        + b[i + p.len()..]
                            .iter()
                            .take_while(|c| {
                                c.is_ascii_alphanumeric()
                                    || **c == b'_'
                                    || (**c == b'-' && PER_RUN.contains(p))
                            })
                            .count();
                    if end > i + p.len() {
                        out.push_str(&line[copied..end]);
                        if PER_RUN.contains(p) {
                            out.push_str(&format!("_r{run_tag}"));
                        } else {
                            out.push_str(&format!("_{pass}"));
                        }
                        i = end;
                        copied = i;
                        continue;
                    }
                }
            }
        }
        i += 1;
    }
    out.push_str(&line[copied..]);
}
