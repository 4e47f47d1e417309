//! Native soak: a long accelerated session through `Session`/`Store` with reconnects, replays
//! and many tasks completing, with the heap sampled by a counting global allocator.
//!
//! The stream is a run of agent turns (task created, working, thoughts, a tool with progress,
//! an answered input with a timeout, ~40 content deltas, a file in 3 chunks, a dataset in 2
//! batches, a versioned data record, content-complete, task-complete; 60+ events each, SSE ids
//! 1, 2, 3, ...). Every few thousand events the connection drops in the middle of an event and
//! resumes: usually the server replays the last few events (duplicates), every fifth time it
//! ignores `Last-Event-ID` and restarts thousands of events back. The limits are set low enough
//! to be reached in the first fifth of the stream, so from there on the heap must stay flat:
//! memory at the end within 10 % of memory at 20 %. Every sample is also checked against
//! `Store::usage`. The kept tasks must all be complete with their whole answer, the api key in
//! the tool arguments must be redacted in the raw-event ring.
//!
//! `cargo test --release --test soak -- --ignored --nocapture` (prints the curve);
//! `AGENTWIRE_SOAK_EVENTS=N` changes the length (default 1,000,000).

#![cfg(not(target_arch = "wasm32"))]

use agentwire::events::AgentEvent;
use agentwire::pipeline::Session;
use agentwire::sse::SseConfig;
use agentwire::state::{EventMeta, Limits, Store};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

/// Counts live heap bytes.
struct Counting;
static LIVE: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call goes to `System` unchanged; only the counter is updated.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        // SAFETY: the caller's contract.
        let p = unsafe { System.alloc(l) };
        if !p.is_null() {
            LIVE.fetch_add(l.size(), Relaxed);
        }
        p
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        // SAFETY: the caller's contract.
        unsafe { System.dealloc(p, l) };
        LIVE.fetch_sub(l.size(), Relaxed);
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, size: usize) -> *mut u8 {
        // SAFETY: the caller's contract.
        let q = unsafe { System.realloc(p, l, size) };
        if !q.is_null() {
            LIVE.fetch_sub(l.size(), Relaxed);
            LIVE.fetch_add(size, Relaxed);
        }
        q
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

/// Stream time: 10 ms per event from 2025-01-01T00:00:00Z.
fn ts(n: u64) -> String {
    let ms = n * 10;
    let (s, ms) = (ms / 1000, ms % 1000);
    let (d, s) = (s / 86_400, s % 86_400);
    format!(
        "2025-{:02}-{:02}T{:02}:{:02}:{:02}.{ms:03}Z",
        1 + (d / 28) % 12,
        1 + d % 28,
        s / 3600,
        (s / 60) % 60,
        s % 60
    )
}

/// The events (JSON) of turn `k`; `n0` is the stream position of its first event (for time).
fn turn(k: u64, n0: u64) -> Vec<String> {
    let task = format!("task-{k}");
    let mut out = Vec::new();
    let mut ev = |kind: &str, body: String| {
        let n = n0 + out.len() as u64;
        out.push(format!(
            "{{\"kind\":\"{kind}\",\"contextId\":\"ctx\",\"taskId\":\"{task}\",{body},\"timestamp\":\"{}\"}}",
            ts(n)
        ));
    };
    ev("task-created", r#""initiator":"user""#.into());
    ev("task-status", r#""status":"working""#.into());
    for i in 0..3 {
        ev(
            "thought-stream",
            format!(
                r#""thoughtId":"th-{k}-{i}","thoughtType":"planning","verbosity":"normal","content":"step {i} of the plan","index":{i}"#
            ),
        );
    }
    let call = format!("call-{k}");
    ev(
        "tool-start",
        format!(
            r#""toolCallId":"{call}","toolName":"search","arguments":{{"q":"sales","api_key":"sk-{k}"}}"#
        ),
    );
    for p in 1..4 {
        ev(
            "tool-progress",
            format!(r#""toolCallId":"{call}","progress":{}"#, f64::from(p) / 4.0),
        );
    }
    ev(
        "tool-complete",
        format!(
            r#""toolCallId":"{call}","toolName":"search","success":true,"result":{{"rows":3}}"#
        ),
    );
    ev(
        "input-required",
        format!(
            r#""inputId":"in-{k}","inputType":"confirmation","prompt":"Go on?","requireUser":true,"metadata":{{"timeout":60}}"#
        ),
    );
    ev(
        "input-received",
        format!(r#""inputId":"in-{k}","providedBy":"user""#),
    );
    let mut text = String::new();
    for i in 0..40 {
        let d = format!("word{i} ");
        text.push_str(&d);
        ev("content-delta", format!(r#""delta":"{d}","index":{i}"#));
    }
    for i in 0..3 {
        let extra = if i == 0 {
            r#","name":"r.md","mimeType":"text/markdown""#
        } else {
            ""
        };
        ev(
            "file-write",
            format!(
                r#""artifactId":"f-{k}","data":"part {i}\n","index":{i},"complete":{}{extra}"#,
                i == 2
            ),
        );
    }
    for i in 0..2 {
        ev(
            "dataset-write",
            format!(
                r#""artifactId":"d-{k}","rows":[{{"n":{i}}},{{"n":{}}}],"index":{i},"complete":{}"#,
                i + 10,
                i == 1
            ),
        );
    }
    ev(
        "data-write",
        format!(r#""artifactId":"v-{k}","data":{{"total":{k}}},"metadata":{{"version":1}}"#),
    );
    ev("content-complete", format!(r#""content":"{text}""#));
    ev("task-complete", r#""metadata":{"duration":1200}"#.into());
    out
}

fn block(id: u64, data: &str) -> String {
    format!("id: {id}\ndata: {data}\n\n")
}

#[test]
#[ignore = "long: cargo test --release --test soak -- --ignored --nocapture"]
fn a_million_events_with_reconnects_plateau() {
    let total: u64 = std::env::var("AGENTWIRE_SOAK_EVENTS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1_000_000);
    soak(total);
}

/// The same at a tenth of the length (runs with every `cargo test`).
#[test]
fn a_hundred_thousand_events_with_reconnects_plateau() {
    soak(100_000);
}

/// Runs the soak for `total` events: the task limit is reached at about 15 % of the stream.
fn soak(total: u64) {
    // The allocator counts the whole process: one soak at a time.
    static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let max_tasks = (total / 500).max(10) as usize;
    let limits = Limits {
        max_tasks,
        max_artifacts: 3 * max_tasks,
        max_diagnostics: 500,
        raw_log_events: 256,
        // Replays reach 5,000 events back: the window covers them (and the numeric floor
        // below it everything older). Its hash set reaches its final size (at most twice the
        // window, after tombstones) within the first fifth.
        dedupe_window: (total / 50).max(5_500) as usize,
        ..Limits::default()
    };
    let mut session = Session::new(SseConfig::default(), limits);
    let mut applied = 0u64;
    let mut obs = |_: &AgentEvent<'_>, _: &EventMeta<'_>, _: &Store| applied += 1;
    // The server: event i (SSE id i + 1) is event i % L of turn i / L, regenerated on demand
    // (one turn cached), so replaying from far back costs the test no memory.
    let per_turn = turn(0, 0).len();
    let mut cached: (usize, Vec<String>) = (usize::MAX, Vec::new());
    let mut event = |i: usize| -> String {
        let k = i / per_turn;
        if cached.0 != k {
            cached = (k, turn(k as u64, (k * per_turn) as u64));
        }
        block(i as u64 + 1, &cached.1[i % per_turn])
    };
    let mut sent = 0u64; // events delivered (including replays)
    let mut pos = 0usize; // next event to send
    let mut reconnects = 0u32;
    let mut restarts = 0u32;
    let mut next_drop = 3_000u64;
    let mut samples: Vec<(u64, usize)> = Vec::new();
    let base = LIVE.load(Relaxed);
    let mut chunk = String::new();
    while sent < total {
        let text = event(pos);
        pos += 1;
        sent += 1;
        if sent == next_drop {
            // The connection drops in the middle of this event...
            chunk.push_str(&text[..text.len() / 2]);
            session.feed(chunk.as_bytes(), &mut obs);
            chunk.clear();
            session.parser().reset();
            reconnects += 1;
            // ...and resumes: a few events back, or (every fifth time) far back.
            let back = if reconnects % 5 == 0 {
                restarts += 1;
                5_000
            } else {
                3 + (reconnects as usize % 7)
            };
            pos = pos.saturating_sub(back);
            next_drop = sent + 2_000 + u64::from(reconnects % 4) * 1_000;
        } else {
            chunk.push_str(&text);
            if chunk.len() >= 16 * 1024 {
                session.feed(chunk.as_bytes(), &mut obs);
                chunk.clear();
            }
        }
        if sent % (total / 20).max(1) == 0 {
            session.feed(chunk.as_bytes(), &mut obs);
            chunk.clear();
            let store = session.store();
            if let Err(e) = store.usage().within(store.limits()) {
                panic!("at {sent} events: {e}");
            }
            samples.push((sent, LIVE.load(Relaxed).saturating_sub(base)));
        }
    }
    session.feed(chunk.as_bytes(), &mut obs);
    session.finish();
    let store = session.store();
    let curve: Vec<String> = samples
        .iter()
        .map(|(n, b)| format!("{}k:{:.2}MB", n / 1000, *b as f64 / 1e6))
        .collect();
    eprintln!("soak: {sent} events sent, {applied} applied, {} duplicates ignored, {reconnects} reconnects ({restarts} restarts from far back), {} tasks kept of {} turns, {} diagnostics ({} kept)",
        store.duplicates_ignored(), store.usage().tasks, pos / per_turn + 1, store.diagnostics_total(), store.usage().diagnostics);
    eprintln!("soak: client heap {}", curve.join(" "));
    let mut codes: Vec<&str> = store.diagnostics().map(|d| d.code.as_str()).collect();
    codes.sort_unstable();
    codes.dedup();
    eprintln!("soak: diagnostic codes kept: {codes:?}");
    // Correctness: every kept task completed with the full answer, nothing applied twice.
    for t in store.tasks() {
        assert_eq!(t.status.map(|s| s.as_str()), Some("completed"), "{}", t.id);
        assert!(t.content_complete, "{}", t.id);
        assert_eq!(t.content.matches("word39 ").count(), 1, "{}", t.id);
        assert_eq!(t.tools.len(), 1);
    }
    assert!(store.duplicates_ignored() > 0);
    assert_eq!(store.usage().tasks, max_tasks.min(pos / per_turn + 1));
    assert!(!store
        .diagnostics()
        .any(|d| matches!(d.code.as_str(), "chunk-conflict" | "content-mismatch")));
    assert!(
        store.raw_events().any(|(_, r)| r.contains("api_key"))
            && store.raw_events().all(|(_, r)| !r.contains("\"sk-")),
        "api_key redacted in the raw ring"
    );
    // The plateau: memory at the end within 10 % of memory at 20 % of the stream.
    let at = |frac: f64| {
        let n = (total as f64 * frac) as u64;
        samples.iter().find(|(s, _)| *s >= n).map_or(0, |(_, b)| *b)
    };
    let (early, end) = (at(0.2), samples.last().map_or(0, |s| s.1));
    assert!(early > 0);
    assert!(
        (end as f64) <= early as f64 * 1.10,
        "memory grew from {early} B at 20% to {end} B at the end"
    );
}
