//! Recorded streams (`tests/recordings/*.sse`) with their expected assembled state next to them
//! (`*.expected.json`), driven by one test at several chunkings: the final state must not
//! depend on where the network cut the bytes. Each recording starts with SSE comment lines
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
//! Refresh an expectation after a reviewed change with
//! `cargo run --bin agentwire -- state tests/recordings/X.sse > tests/recordings/X.expected.json`
//! (the `scenario-*` recordings: `scripts/record-scenarios.sh`), and review the diff.

#![cfg(not(target_arch = "wasm32"))]

use agentwire::pipeline::Session;
use agentwire::sse::SseConfig;
use agentwire::state::Limits;

fn assemble(bytes: &[u8], chunk: usize) -> serde_json::Value {
    let mut s = Session::new(SseConfig::default(), Limits::default());
    for c in bytes.chunks(chunk.max(1)) {
        s.feed(c, &mut |_, _, _| {});
    }
    s.finish();
    serde_json::from_str(&s.store().state_json()).expect("state is json")
}

#[test]
fn recordings_assemble_to_their_expected_state_at_every_chunking() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/recordings");
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).expect("recordings dir") {
        let path = entry.expect("entry").path();
        if path.extension().and_then(|e| e.to_str()) != Some("sse") {
            continue;
        }
        let expected_path = path.with_extension("expected.json");
        let bytes = std::fs::read(&path).expect("read recording");
        if std::env::var_os("UPDATE_EXPECTED").is_some() {
            // Regenerate as written by the store (member order kept); re-indent with
            // `python3 -m json.tool --indent 1 --no-ensure-ascii` and review the diff by hand.
            let mut s = Session::new(SseConfig::default(), Limits::default());
            s.feed(&bytes, &mut |_, _, _| {});
            s.finish();
            std::fs::write(&expected_path, s.store().state_json()).expect("write expected");
        }
        let expected: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(&expected_path)
                .unwrap_or_else(|_| panic!("{} has no expected state", path.display())),
        )
        .expect("expected json");
        for chunk in [1, 2, 7, 64, 1000, bytes.len()] {
            assert_eq!(
                assemble(&bytes, chunk),
                expected,
                "{} at chunk size {chunk}",
                path.display()
            );
        }
        n += 1;
    }
    assert!(n >= 16, "only {n} recordings found");
}
