//! The SSE spec vectors in `tests/vectors/sse/*.json`, driven by one test.
//!
//! Each file: `{"name", "spec", "input" (a string: its UTF-8 bytes) | "inputHex",
//! "lastEventId"? (initial), "config"? {"maxLineBytes","maxEventBytes"},
//! "expected": [{"type","data","lastEventId"} | {"diagnostic": code}],
//! "end": {"lastEventId", "retry"}}`.
//! Every vector is fed whole, split at every byte position into two chunks, and one byte at a
//! time; all must give the same items and end state. A property test checks random chunkings
//! of random streams the same way, and that arbitrary bytes never panic.

use agentwire::sse::{SseConfig, SseItem, SseParser};
use serde_json::{json, Value};

fn hex(s: &str) -> Vec<u8> {
    (0..s.len() / 2)
        .map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).expect("hex"))
        .collect()
}

fn run(input: &[u8], cuts: &[usize], config: SseConfig, last: Option<&str>) -> (Vec<Value>, Value) {
    let mut p = SseParser::new(config);
    if let Some(id) = last {
        p.set_last_event_id(id);
    }
    let mut items = Vec::new();
    let mut start = 0;
    for &c in cuts.iter().chain(std::iter::once(&input.len())) {
        p.feed(&input[start..c], &mut |item| {
            items.push(match item {
                SseItem::Event(e) => {
                    json!({"type": e.event_type, "data": e.data, "lastEventId": e.last_event_id})
                }
                SseItem::Diagnostic(d) => json!({"diagnostic": d.code()}),
            })
        });
        start = c;
    }
    p.finish();
    (
        items,
        json!({"lastEventId": p.last_event_id(), "retry": p.retry()}),
    )
}

#[test]
fn spec_vectors_at_every_split() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/vectors/sse");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("vectors dir")
        .map(|e| e.expect("entry").path())
        .collect();
    files.sort();
    assert!(
        files.len() >= 40,
        "expected the full vector suite, found {}",
        files.len()
    );
    for f in files {
        let v: Value =
            serde_json::from_str(&std::fs::read_to_string(&f).expect("read")).expect("json");
        let name = v["name"].as_str().unwrap_or("?").to_owned();
        let input = match (&v["input"], &v["inputHex"]) {
            (Value::String(s), _) => s.as_bytes().to_vec(),
            (_, Value::String(h)) => hex(h),
            _ => panic!("{name}: no input"),
        };
        let mut config = SseConfig::default();
        if let Some(n) = v["config"]["maxLineBytes"].as_u64() {
            config.max_line_bytes = n as usize;
        }
        if let Some(n) = v["config"]["maxEventBytes"].as_u64() {
            config.max_event_bytes = n as usize;
        }
        let last = v["lastEventId"].as_str();
        let expected = v["expected"].as_array().expect("expected").clone();
        let end = v["end"].clone();
        let whole = run(&input, &[], config, last);
        assert_eq!(whole.0, expected, "{name}: events (whole input)");
        assert_eq!(whole.1, end, "{name}: end state (whole input)");
        for split in 0..=input.len() {
            assert_eq!(
                run(&input, &[split], config, last),
                whole,
                "{name}: split at byte {split}"
            );
        }
        let bytes: Vec<usize> = (1..input.len()).collect();
        assert_eq!(
            run(&input, &bytes, config, last),
            whole,
            "{name}: one byte at a time"
        );
    }
}

#[test]
fn a_one_megabyte_line() {
    let big = "x".repeat(1 << 20);
    let input = format!("data: {big}\n\n");
    let cuts: Vec<usize> = (1..input.len()).step_by(65_536).collect();
    let (items, _) = run(input.as_bytes(), &cuts, SseConfig::default(), None);
    assert_eq!(items.len(), 1);
    assert_eq!(items[0]["data"].as_str().map(str::len), Some(1 << 20));
    let small = SseConfig {
        max_line_bytes: 1 << 19,
        max_event_bytes: 1 << 20,
    };
    let (items, _) = run(input.as_bytes(), &cuts, small, None);
    assert_eq!(items, vec![json!({"diagnostic": "sse-line-too-long"})]);
}

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

#[test]
fn any_chunking_gives_the_same_events() {
    let pieces: &[&[u8]] = &[
        b"data: ",
        b"data:",
        b"event: ",
        b"id: ",
        b"retry: ",
        b": c",
        b"x",
        b"\xF0\x9F\x99\x82",
        b"\xFF",
        b"\xE2\x82",
        b"\n",
        b"\r",
        b"\r\n",
        b"\n\n",
        b"\0",
        b"\xEF\xBB\xBF",
        b"12",
        b"a:b",
    ];
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    let config = SseConfig {
        max_line_bytes: 64,
        max_event_bytes: 96,
    };
    for _ in 0..3000 {
        let mut input = Vec::new();
        for _ in 0..rng.below(40) {
            input.extend_from_slice(pieces[rng.below(pieces.len())]);
        }
        let whole = run(&input, &[], config, None);
        let mut cuts: Vec<usize> = (0..rng.below(6))
            .map(|_| rng.below(input.len() + 1))
            .collect();
        cuts.sort_unstable();
        assert_eq!(
            run(&input, &cuts, config, None),
            whole,
            "input {input:?} cuts {cuts:?}"
        );
    }
}

#[test]
fn arbitrary_bytes_never_panic_and_stay_bounded() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let config = SseConfig {
        max_line_bytes: 256,
        max_event_bytes: 512,
    };
    let mut p = SseParser::new(config);
    for _ in 0..20_000 {
        let chunk: Vec<u8> = (0..rng.below(64)).map(|_| rng.next() as u8).collect();
        p.feed(&chunk, &mut |_| {});
        assert!(p.buffered_bytes() <= 256 + 512 + 256);
    }
}
