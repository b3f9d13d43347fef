//! The core's streaming API (`aguify_core::Converter`) against the pipeline `aguify convert`
//! runs: every recording and bad-input file, fed in chunks of several sizes (split inside
//! lines and UTF-8 characters), makes the same events and counts, and tells its bad lines.

mod common;

use aguify::pipeline::{self, Input, Options};
use aguify_core::{Converter, Severity};

#[test]
fn every_recording_fed_in_chunks_converts_as_the_file() {
    let mut files: Vec<_> = common::recording_cases()
        .into_iter()
        .flat_map(|c| c.files)
        .collect();
    let bad = std::fs::read_dir(common::testdata().join("bad")).expect("testdata/bad");
    files.extend(
        bad.filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.is_file()),
    );
    files.sort();
    assert!(files.len() > 20, "recordings found: {}", files.len());
    for path in files {
        let bytes = std::fs::read(&path).expect("a recording");
        let name = path.display().to_string();
        let input = Input::from_bytes(&name, bytes.clone());
        let (want, want_stats) =
            pipeline::convert_to_vec(vec![input], &Options::default()).expect("in memory");
        for size in [1, 97, 64 * 1024] {
            if size == 1 && bytes.len() > 50_000 {
                continue;
            }
            let mut c = Converter::named(&name, Options::default());
            let mut got = vec![];
            let mut bad_lines = vec![];
            for chunk in bytes.chunks(size) {
                got.extend(c.feed(chunk).expect("not strict"));
                bad_lines.extend(
                    c.take_problems()
                        .into_iter()
                        .filter(|p| p.severity == Severity::Bad)
                        .map(|p| p.origin.line),
                );
            }
            let (last, stats) = c.finish().expect("not strict");
            bad_lines.extend(
                c.take_problems()
                    .into_iter()
                    .filter(|p| p.severity == Severity::Bad)
                    .map(|p| p.origin.line),
            );
            got.extend(last);
            let got: Vec<_> = got.iter().map(|e| e.to_value().into_owned()).collect();
            assert!(got == want, "{name}: chunks of {size}: events differ");
            assert_eq!(stats, want_stats, "{name}: chunks of {size}");
            assert_eq!(
                bad_lines.len() as u64 > 0,
                stats.bad > 0,
                "{name}: {bad_lines:?}"
            );
        }
    }
}
