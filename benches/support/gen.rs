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

/// A generated log of at least `target` bytes, in memory.
#[allow(dead_code)]
pub fn generate_vec(form: &str, target: u64) -> Result<Vec<u8>, String> {
    let files = recordings(&form_dir(form))?;
    let mut out = Vec::with_capacity(target as usize + (1 << 20));
    generate(&files, target, &mut out).map_err(|e| e.to_string())?;
    Ok(out)
}

/// The recordings of a form, in name order, with their lines.
pub fn recordings(dir: &Path) -> Result<Vec<(PathBuf, Vec<String>)>, String> {
    let rd = fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut paths: Vec<PathBuf> = rd
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "ndjson"))
        .filter(|p| !p.to_string_lossy().contains("truncated"))
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

const SUFFIXED: [&str; 3] = ["call_", "human-", "thread-"];

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
        if pass == 0 && at_word_start0 && b[i..].starts_with(b"call_") {
            let end = i
                + 5
                + b[i + 5..]
                    .iter()
                    .take_while(|c| c.is_ascii_alphanumeric() || **c == b'_')
                    .count();
            if end > i + 5 {
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
                            .take_while(|c| c.is_ascii_alphanumeric() || **c == b'_')
                            .count();
                    if end > i + p.len() {
                        out.push_str(&line[copied..end]);
                        if *p == "call_" {
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
