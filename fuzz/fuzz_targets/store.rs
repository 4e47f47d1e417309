//! The store applying arbitrary event sequences (structure-aware: see `agentwire_fuzz::gen`),
//! through a `Session` (SSE ids, replays, reconnects, stream ends, the wall clock), with small
//! limits so every limit is reached.
//!
//! Invariants checked:
//! - no panic;
//! - after every step, nothing the limits bound exceeds its limit (`Store::usage`);
//! - the same wire bytes fed in one chunk per step or merged into as few chunks as possible
//!   give the same state, byte for byte (assembly does not depend on chunking or on hash order);
//! - the state document is valid JSON.
#![no_main]

use agentwire::events::AgentEvent;
use agentwire::json;
use agentwire::pipeline::Session;
use agentwire::sse::SseConfig;
use agentwire::state::{EventMeta, Store};
use agentwire_fuzz::gen::{sse_block, timestamp, IdMode, Op, Scenario};
use libfuzzer_sys::fuzz_target;

/// What reaches the session (replayed identically on the second session).
enum Step {
    Feed(Vec<u8>),
    Reconnect,
    Finish,
    Clock(i64),
}

fn run(steps: &[Step], merge: bool, limits: agentwire::state::Limits, check: bool) -> String {
    let mut s = Session::new(SseConfig::default(), limits);
    let mut pending: Vec<u8> = Vec::new();
    let mut obs = |_: &AgentEvent<'_>, _: &EventMeta<'_>, _: &Store| {};
    for step in steps {
        if merge {
            if let Step::Feed(b) = step {
                pending.extend_from_slice(b);
                continue;
            }
            if !pending.is_empty() {
                s.feed(&pending, &mut obs);
                pending.clear();
            }
        }
        match step {
            Step::Feed(b) => s.feed(b, &mut obs),
            Step::Reconnect => s.parser().reset(),
            Step::Finish => s.finish(),
            Step::Clock(ms) => s.store_mut().advance_clock(*ms),
        }
        if check {
            if let Err(e) = s.store().usage().within(s.store().limits()) {
                panic!("limit exceeded: {e}");
            }
        }
    }
    if !pending.is_empty() {
        s.feed(&pending, &mut obs);
    }
    s.finish();
    if let Err(e) = s.store().usage().within(s.store().limits()) {
        panic!("limit exceeded at the end: {e}");
    }
    s.store().state_json()
}

fuzz_target!(|sc: Scenario| {
    let limits = sc.limits.limits();
    let mut steps = Vec::new();
    let mut next_id = 0u32;
    let mut secs = 0u32;
    let mut last: Option<Vec<u8>> = None;
    for op in sc.ops.iter().take(256) {
        match op {
            Op::Send { id, ev, dt, typed } => {
                secs += u32::from(*dt % 16);
                let data = ev.render(&timestamp(secs));
                let id = match id {
                    IdMode::Next => {
                        next_id += 1;
                        Some(next_id.to_string())
                    }
                    IdMode::None => None,
                    IdMode::Replay(k) => Some((u32::from(*k) % (next_id + 1)).to_string()),
                    IdMode::Str(k) => Some(format!("s{}", k % 8)),
                };
                let kind = json::parse(&data)
                    .ok()
                    .and_then(|v| v.get("kind").and_then(|k| k.as_str().map(str::to_owned)));
                let ty = kind
                    .filter(|_| *typed)
                    .map(|k| k.trim_start_matches("internal:").to_owned());
                let block = sse_block(id.as_deref(), ty.as_deref(), &data).into_bytes();
                last = Some(block.clone());
                steps.push(Step::Feed(block));
            }
            Op::Resend => {
                if let Some(b) = &last {
                    steps.push(Step::Feed(b.clone()));
                }
            }
            Op::Raw(bytes) => steps.push(Step::Feed(bytes.iter().copied().take(256).collect())),
            Op::Reconnect => steps.push(Step::Reconnect),
            Op::Finish => steps.push(Step::Finish),
            Op::Clock(n) => {
                secs += u32::from(*n);
                steps.push(Step::Clock(1_735_689_600_000 + i64::from(secs) * 1000));
            }
        }
    }
    if std::env::var_os("AGENTWIRE_FUZZ_PRINT").is_some() {
        // A regression file for tests/regressions.rs (`:!` lines are its directives).
        let default = agentwire::state::Limits::default().values();
        let set: Vec<String> = agentwire::state::Limits::NAMES
            .iter()
            .zip(limits.values().iter().zip(default))
            .filter(|(_, (v, d))| **v != *d)
            .map(|(n, (v, _))| format!("{n}={v}"))
            .collect();
        println!(":! limits {}", set.join(" "));
        let mut at_line_start = true;
        for step in &steps {
            let directive = match step {
                Step::Feed(b) => {
                    let _ = std::io::Write::write_all(&mut std::io::stdout(), b);
                    at_line_start = b.last().is_none_or(|&c| c == b'\n');
                    continue;
                }
                Step::Reconnect => "reconnect".to_owned(),
                Step::Finish => "finish".to_owned(),
                Step::Clock(ms) => format!("clock {ms}"),
            };
            if !at_line_start {
                println!();
            }
            println!(":! {directive}");
            at_line_start = true;
        }
    }
    let a = run(&steps, false, limits, true);
    let b = run(&steps, true, limits, false);
    assert_eq!(a, b, "chunking changed the state");
    assert!(json::parse(&a).is_ok(), "state is not JSON");
});
