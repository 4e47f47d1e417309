//! Recorded streams (`tests/recordings/*.sse`) with their expected assembled state next to them
//! (`*.expected.json`), each its own test (named after the recording: `cargo test --test
//! recordings -- scenario-main`), assembled at several chunkings: the final state must not
//! depend on where the network cut the bytes. Every `.sse` file is a test by being there, and an
//! `.expected.json` without its recording fails `every expected state has its recording`. Each recording starts with SSE comment lines
//! saying what it covers; every expectation was reviewed by hand against `docs/protocol-000.md#rules-between-events` and `docs/state.md`.
//!
//! | recording | covers |
//! |---|---|
//! | `sample`, `quick` | every kind once (quick: from the scenario server, all task statuses) |
//! | `scenario-main` | the demo run: sub-agents two levels deep, coordinator- and user-answered inputs, OAuth, md/png files, data v1→v2, dataset with schema |
//! | `scenario-faults` | the same run with shuffled chunks, malformed lines, two lost events (content and file gaps), a cut connection resumed with 3 replayed events |
//! | `scenario-cancel`, `scenario-failure` | a canceled tree (deepest first, open tool closed); a failed tool and task |
//! | `subtasks-three-levels` | a tree three levels deep running interleaved, every announcement order |
//! | `files` | utf-8 and base64 files (chunks cut inside base64 groups, wrapped lines, empty file), metadata on a later chunk, a second `complete: true`, invalid base64 |
//! | `datasets` | schema, rows that violate it (per batch), inferred row types, a batch held until its predecessor, an unfinished dataset |
//! | `data-versions` | v2 before v1 (v1 ignored), unversioned rewrites, a data-write to a file artifact |
//! | `inputs-auth` | coordinator- and user-answered inputs, expiry by `metadata.timeout` and `expiresIn` on the stream clock, unsafe authUrl, answers without requests, a second answer, a reused input id |
//! | `failed-canceled` | content, thoughts, files, tools, status and task-complete after failed / canceled / completed |
//! | `rules` | tool progress/complete without start, second start, progress after complete, out-of-range values, kind mismatch, bad timestamp, chunk conflict, content mismatch, parent conflict |
//! | `malformed` | bad JSON, non-UTF-8 bytes, an array, wrong field type, missing field, bad enum, unknown kind, no kind, CRLF/CR, unterminated last event |
//! | `replay` | SSE ids replayed after a resume, the same event sent twice in a row, events without ids |
//! | `reorder-gaps` | shuffled deltas / file chunks, a duplicate chunk, lost chunks given up at task end and at stream end, a missing final batch |
//!
//! Golden files (the convention of `tests/golden/mod.rs`): `X.expected.json`, the state as the
//! store writes it. Rewrite them after a reviewed change with
//! `UPDATE_GOLDEN=1 cargo test --test recordings` (then re-indent with
//! `python3 -m json.tool --indent 1 --no-ensure-ascii` and review the diff by hand; the
//! `scenario-*` recordings themselves come from `scripts/record-scenarios.sh`).

#[cfg(not(target_arch = "wasm32"))]
mod golden;

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    native::main()
}

/// Not a wasm test: nothing to run there.
#[cfg(target_arch = "wasm32")]
fn main() {}

#[cfg(not(target_arch = "wasm32"))]
mod native {
    use super::golden;
    use agentwire::pipeline::Session;
    use agentwire::sse::SseConfig;
    use agentwire::state::Limits;
    use libtest_mimic::{Arguments, Failed, Trial};
    use std::path::{Path, PathBuf};

    fn assemble(bytes: &[u8], chunk: usize) -> serde_json::Value {
        let mut s = Session::new(SseConfig::default(), Limits::default());
        for c in bytes.chunks(chunk.max(1)) {
            s.feed(c, &mut |_, _, _| {});
        }
        s.finish();
        serde_json::from_str(&s.store().state_json()).expect("state is json")
    }

    fn dir() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/recordings")
    }

    /// The files of `tests/recordings` (not its subfolders) ending in `suffix`, sorted.
    fn files(suffix: &str) -> Vec<PathBuf> {
        let mut v: Vec<PathBuf> = std::fs::read_dir(dir())
            .expect("recordings dir")
            .map(|e| e.expect("entry").path())
            .filter(|p| p.is_file() && p.to_string_lossy().ends_with(suffix))
            .collect();
        v.sort();
        v
    }

    /// The recording at `path` assembles to its expected state at every chunking.
    fn check(path: &Path) -> Result<(), Failed> {
        let expected_path = path.with_extension("expected.json");
        let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
        if golden::updating() {
            // Regenerate as written by the store (member order kept).
            let mut s = Session::new(SseConfig::default(), Limits::default());
            s.feed(&bytes, &mut |_, _, _| {});
            s.finish();
            std::fs::write(&expected_path, s.store().state_json()).expect("write expected");
        }
        let expected: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(&expected_path)
                .map_err(|_| format!("{} has no expected state", path.display()))?,
        )
        .map_err(|e| format!("{}: {e}", expected_path.display()))?;
        for chunk in [1, 2, 7, 64, 1000, bytes.len()] {
            let got = assemble(&bytes, chunk);
            if got != expected {
                return Err(format!(
                    "{} at chunk size {chunk}: the state differs from {} ({})\n got: {got}",
                    path.display(),
                    expected_path.display(),
                    golden::hint("recordings")
                )
                .into());
            }
        }
        Ok(())
    }

    pub fn main() {
        let args = Arguments::from_args();
        let recordings = files(".sse");
        let mut trials: Vec<Trial> = recordings
            .iter()
            .map(|p| {
                let name = p.file_stem().map(|s| s.to_string_lossy().into_owned());
                let p = p.clone();
                Trial::test(name.unwrap_or_default(), move || check(&p))
            })
            .collect();
        let n = recordings.len();
        trials.push(Trial::test("at least 16 recordings", move || {
            if n >= 16 {
                Ok(())
            } else {
                Err(format!("only {n} recordings found").into())
            }
        }));
        trials.push(Trial::test(
            "every expected state has its recording",
            || {
                let orphans: Vec<String> = files(".expected.json")
                    .iter()
                    .map(|p| p.to_string_lossy().replace(".expected.json", ".sse"))
                    .filter(|sse| !Path::new(sse).exists())
                    .collect();
                if orphans.is_empty() {
                    Ok(())
                } else {
                    Err(format!("expected states without a recording: {orphans:?}").into())
                }
            },
        ));
        libtest_mimic::run(&args, trials).exit();
    }
}
