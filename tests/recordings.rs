//! Recorded streams (`tests/recordings/*.sse`) with their expected assembled state next to them
//! (`*.expected.json`), driven by one test at several chunkings: the final state must not
//! depend on where the network cut the bytes.
//! Refresh an expectation after a reviewed change with
//! `cargo run --bin agentwire -- state tests/recordings/X.sse > tests/recordings/X.expected.json`.

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
        let expected: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(&expected_path)
                .unwrap_or_else(|_| panic!("{} has no expected state", path.display())),
        )
        .expect("expected json");
        let bytes = std::fs::read(&path).expect("read recording");
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
    assert!(n >= 1, "no recordings found");
}
