//! Fuzz-style randomized test of the whole native pipeline (parser → decoder → validator →
//! store): the recorded streams, mutated (flipped bytes, cut, duplicated and swapped spans,
//! random junk), fed in random chunks, must never panic, and the store stays within its limits.
#![cfg(not(target_arch = "wasm32"))]

use agentwire::pipeline::Session;
use agentwire::sse::SseConfig;
use agentwire::state::Limits;

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

fn mutate(rng: &mut Rng, input: &[u8]) -> Vec<u8> {
    let mut v = input.to_vec();
    for _ in 0..1 + rng.below(8) {
        let len = v.len().max(1);
        match rng.below(5) {
            0 => {
                let i = rng.below(len);
                if let Some(b) = v.get_mut(i) {
                    *b = rng.next() as u8;
                }
            }
            1 => v.truncate(rng.below(len)),
            2 => {
                let (a, b) = (rng.below(len), rng.below(len));
                let (a, b) = (a.min(b), a.max(b).min(v.len()));
                let span = v.get(a..b).map(<[u8]>::to_vec).unwrap_or_default();
                let at = rng.below(v.len() + 1);
                v.splice(at..at, span);
            }
            3 => {
                let at = rng.below(v.len() + 1);
                let junk: Vec<u8> = (0..rng.below(64)).map(|_| rng.next() as u8).collect();
                v.splice(at..at, junk);
            }
            _ => {
                let at = rng.below(v.len() + 1);
                v.splice(
                    at..at,
                    b"data: {\"kind\":\"content-delta\",\"index\":1e308,\"delta\":[]}\n\n"
                        .iter()
                        .copied(),
                );
            }
        }
    }
    v
}

#[test]
fn mutated_recordings_never_panic_and_respect_limits() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/recordings");
    let mut inputs = Vec::new();
    for e in std::fs::read_dir(dir).expect("recordings") {
        let p = e.expect("entry").path();
        if p.extension().and_then(|x| x.to_str()) == Some("sse") {
            inputs.push(std::fs::read(p).expect("read"));
        }
    }
    assert!(!inputs.is_empty());
    let limits = Limits {
        max_tasks: 8,
        max_artifacts: 4,
        max_diagnostics: 50,
        max_pending_chunks: 4,
        ..Limits::default()
    };
    let mut rng = Rng(0xD1B5_4A32_D192_ED03);
    for round in 0..400 {
        let base = &inputs[round % inputs.len()];
        let input = mutate(&mut rng, base);
        let mut s = Session::new(
            SseConfig {
                max_line_bytes: 4096,
                max_event_bytes: 8192,
            },
            limits,
        );
        let mut at = 0;
        while at < input.len() {
            let n = 1 + rng.below(700);
            let end = (at + n).min(input.len());
            s.feed(&input[at..end], &mut |_, _, _| {});
            at = end;
        }
        s.finish();
        let st = s.store();
        assert!(
            st.tasks().count() <= 8
                && st.artifacts().count() <= 4
                && st.diagnostics().count() <= 50
        );
        let json = st.state_json();
        assert!(
            serde_json::from_str::<serde_json::Value>(&json).is_ok(),
            "state stays valid json"
        );
    }
}
