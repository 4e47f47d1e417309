//! Every input the fuzzers (or a review) found to break something, replayed through the entry
//! point it broke. One file per problem in `tests/regressions/`, named after what it reproduces;
//! see `tests/regressions/README.md` for the format.
//!
//! Each `.sse` / `.jsonl` file goes through a [`Session`] (SSE parser → dialect → decoder →
//! store) at several chunkings; the test asserts: no panic, the same state at every chunking,
//! nothing a limit bounds over its limit after any step, every `expect`ed diagnostic code
//! present, every `absent` text missing from the state document and the raw-event ring. A
//! `.bin` file is a raw input of a fuzz target, checked for that target's invariants: `sse-*.bin`
//! (3 header bytes, then the stream: the same items whole, byte by byte and in chunks, buffers
//! bounded), `decode-*.bin` (1 header byte, then an event's data: an event exactly when no
//! error, and writing it is a fixpoint).
#![cfg(not(target_arch = "wasm32"))]

use agentwire::dialects::DialectChoice;
use agentwire::events::{decode_event, AgentEvent, EventContext, Redactor, Severity};
use agentwire::pipeline::Session;
use agentwire::sse::{SseConfig, SseItem, SseParser};
use agentwire::state::{EventMeta, Limits, Store};
use std::path::Path;

/// One step of a regression file.
enum Step {
    Bytes(Vec<u8>),
    Frame(String),
    Reconnect,
    Finish,
    Clock(i64),
}

struct Case {
    limits: Limits,
    sse: SseConfig,
    dialect: Option<DialectChoice>,
    redact: Option<Redactor>,
    expect: Vec<String>,
    absent: Vec<String>,
    steps: Vec<Step>,
}

fn parse_case(name: &str, bytes: &[u8]) -> Case {
    let mut c = Case {
        limits: Limits::default(),
        sse: SseConfig::default(),
        dialect: None,
        redact: None,
        expect: Vec::new(),
        absent: Vec::new(),
        steps: Vec::new(),
    };
    let frames = name.ends_with(".jsonl");
    let mut pending: Vec<u8> = Vec::new();
    let flush = |pending: &mut Vec<u8>, steps: &mut Vec<Step>| {
        if !pending.is_empty() {
            steps.push(Step::Bytes(std::mem::take(pending)));
        }
    };
    for line in bytes.split_inclusive(|&b| b == b'\n') {
        let Some(rest) = line.strip_prefix(b":! ") else {
            if frames {
                let text = String::from_utf8_lossy(line);
                let text = text.trim_end_matches(['\n', '\r']);
                if !text.is_empty() {
                    c.steps.push(Step::Frame(text.to_owned()));
                }
            } else {
                pending.extend_from_slice(line);
            }
            continue;
        };
        let text = String::from_utf8_lossy(rest);
        let mut words = text.split_whitespace();
        let directive = words.next().unwrap_or("");
        let args: Vec<&str> = words.collect();
        match directive {
            "limits" | "sse" => {
                for a in args {
                    let (k, v) = a.split_once('=').unwrap_or_else(|| panic!("{name}: {a}"));
                    let v: usize = v.parse().unwrap_or_else(|_| panic!("{name}: {a}"));
                    match k {
                        "maxLineBytes" => c.sse.max_line_bytes = v,
                        "maxEventBytes" => c.sse.max_event_bytes = v,
                        _ => assert!(c.limits.set(k, v), "{name}: unknown limit {k}"),
                    }
                }
            }
            "dialect" => {
                let d = args.first().copied().unwrap_or("");
                c.dialect =
                    Some(DialectChoice::parse(d).unwrap_or_else(|| panic!("{name}: dialect {d}")));
            }
            "redact" => c.redact = Some(Redactor::new(args)),
            "expect" => c.expect.extend(args.iter().map(|s| s.to_string())),
            "absent" => c.absent.push(args.join(" ")),
            _ => {
                flush(&mut pending, &mut c.steps);
                c.steps.push(match directive {
                    "reconnect" => Step::Reconnect,
                    "finish" => Step::Finish,
                    "clock" => Step::Clock(
                        args.first()
                            .and_then(|v| v.parse().ok())
                            .unwrap_or_else(|| panic!("{name}: clock needs ms")),
                    ),
                    other => panic!("{name}: unknown directive {other}"),
                });
            }
        }
    }
    flush(&mut pending, &mut c.steps);
    c
}

/// Runs `case` with byte steps cut into chunks of `chunk` bytes (0: whole); returns the state.
fn run(name: &str, case: &Case, chunk: usize) -> String {
    let mut s = match case.dialect {
        Some(d) => Session::with_dialect(case.sse, case.limits, d),
        None => Session::new(case.sse, case.limits),
    };
    if let Some(r) = &case.redact {
        s.store_mut().set_redactor(r.clone());
    }
    let mut obs = |_: &AgentEvent<'_>, _: &EventMeta<'_>, _: &Store| {};
    let check = |s: &Session, when: &str| {
        if let Err(e) = s.store().usage().within(s.store().limits()) {
            panic!("{name} (chunk {chunk}): over a limit {when}: {e}");
        }
    };
    for step in &case.steps {
        match step {
            Step::Bytes(b) if chunk == 0 => s.feed(b, &mut obs),
            Step::Bytes(b) => {
                for part in b.chunks(chunk) {
                    s.feed(part, &mut obs);
                    check(&s, "after a chunk");
                }
            }
            Step::Frame(f) => s.feed_frame(f, &mut obs),
            Step::Reconnect => s.parser().reset(),
            Step::Finish => s.finish(),
            Step::Clock(ms) => s.store_mut().advance_clock(*ms),
        }
        check(&s, "after a step");
    }
    s.finish();
    check(&s, "at the end");
    let store = s.store();
    let state = store.state_json();
    assert!(
        agentwire::json::parse(&state).is_ok(),
        "{name}: state is not JSON"
    );
    for code in &case.expect {
        assert!(
            store.diagnostics().any(|d| d.code.as_str() == code),
            "{name}: expected a {code} diagnostic, got {:?}",
            store
                .diagnostics()
                .map(|d| d.code.as_str())
                .collect::<Vec<_>>()
        );
    }
    let raw: String = store.raw_events().map(|(_, r)| r.as_str()).collect();
    for text in &case.absent {
        let shown = store
            .diagnostics()
            .map(|d| d.raw.as_deref().unwrap_or("").to_owned() + &d.message)
            .collect::<String>();
        assert!(
            !shown.contains(text.as_str()),
            "{name}: {text:?} is in a diagnostic"
        );
        assert!(
            !raw.contains(text.as_str()),
            "{name}: {text:?} is in the raw ring"
        );
    }
    state
}

/// The `sse` fuzz target's invariants for one of its raw inputs.
fn run_sse_bin(name: &str, data: &[u8]) {
    let Some((&[h0, h1, h2], stream)) = data.split_first_chunk::<3>() else {
        return;
    };
    let config = if h2 & 0x80 != 0 {
        SseConfig {
            max_line_bytes: usize::from(h2 & 0x0f) * 3,
            max_event_bytes: usize::from((h2 >> 4) & 0x07) * 5,
        }
    } else {
        SseConfig::default()
    };
    // A partial line, the data and the decoded event type (3 bytes per invalid byte).
    let bound = config.max_line_bytes * 4 + config.max_event_bytes + 8;
    let parse = |parts: &mut dyn Iterator<Item = &[u8]>| {
        let mut p = SseParser::new(config);
        let mut out = Vec::new();
        for part in parts {
            p.feed(part, &mut |item| {
                out.push(match item {
                    SseItem::Event(e) => format!("{}|{}|{}", e.event_type, e.data, e.last_event_id),
                    SseItem::Diagnostic(d) => d.code().to_owned(),
                })
            });
            assert!(
                p.buffered_bytes() <= bound,
                "{name}: buffered {}",
                p.buffered_bytes()
            );
        }
        (out, p.last_event_id().to_owned(), p.retry())
    };
    let whole = parse(&mut std::iter::once(stream));
    assert_eq!(whole, parse(&mut stream.chunks(1)), "{name}: byte by byte");
    let step = usize::from(h0 % 64) + 1 + usize::from(h1 % 3);
    assert_eq!(
        whole,
        parse(&mut stream.chunks(step)),
        "{name}: chunks of {step}"
    );
}

/// The `decode` fuzz target's invariants for one of its raw inputs.
fn run_decode_bin(name: &str, data: &[u8]) {
    let Some((_, rest)) = data.split_first() else {
        return;
    };
    let text = String::from_utf8_lossy(rest);
    let mut diags = Vec::new();
    let ev = decode_event(&text, &EventContext::default(), &mut diags);
    let errors = diags.iter().any(|d| d.severity == Severity::Error);
    assert_eq!(ev.is_some(), !errors, "{name}: {diags:?}");
    if let Some(ev) = ev.filter(|e| !matches!(e, AgentEvent::Unknown(_))) {
        let mut out = String::new();
        ev.write_json(&mut out);
        let mut again = Vec::new();
        let back = decode_event(&out, &EventContext::default(), &mut again).expect("decodes");
        let mut rewritten = String::new();
        back.write_json(&mut rewritten);
        assert_eq!(rewritten, out, "{name}: writing is not a fixpoint");
    }
}

#[test]
fn regressions() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/regressions");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .expect("tests/regressions")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".sse") || n.ends_with(".jsonl") || n.ends_with(".bin"))
        .collect();
    names.sort();
    assert!(!names.is_empty(), "no regression files");
    for name in &names {
        let bytes = std::fs::read(dir.join(name)).expect("read");
        if name.ends_with(".bin") {
            match name.split('-').next() {
                Some("sse") => run_sse_bin(name, &bytes),
                Some("decode") => run_decode_bin(name, &bytes),
                _ => panic!("{name}: a .bin file starts with the fuzz target's name"),
            }
            continue;
        }
        let case = parse_case(name, &bytes);
        assert!(
            !case.expect.is_empty() || !case.absent.is_empty(),
            "{name}: say what it must produce (`:! expect CODE` or `:! absent TEXT`)"
        );
        let whole = run(name, &case, 0);
        for chunk in [1, 7, 64] {
            assert_eq!(run(name, &case, chunk), whole, "{name}: chunks of {chunk}");
        }
    }
    eprintln!("{} regression files replayed", names.len());
}
