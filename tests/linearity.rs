//! Time and memory of the whole pipeline (SSE parser → decoder/validator → store) grow
//! linearly with the stream, and what stays in memory is proportional to the assembled state
//! and bounded by the limits (issue 3, item 4).
//!
//! A counting global allocator measures the bytes the store retains after the stream and the
//! peak during it; time is the thread's CPU time (`/proc/thread-self/schedstat`, wall time where
//! that is missing), so that other processes on the machine do not skew the ratio.
//!
//! Sizes: the realistic stream at 100,000 and 1,000,000 events, the endless task at 50,000 and
//! 500,000 (about 14 s of CPU in all in a debug build, 2 s with `--profile bench`);
//! `AGENTWIRE_LINEARITY_EVENTS=N` sets the large size (N, N/10; the endless task N/2, N/20).
//! `cargo test --test linearity -- --nocapture` prints the figures.

#![cfg(not(target_arch = "wasm32"))]

use agentwire::pipeline::Session;
use agentwire::sse::SseConfig;
use agentwire::state::Limits;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::sync::Mutex;
use std::time::Instant;

/// Counts live heap bytes and their peak.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn grew(n: usize) {
    let now = LIVE.fetch_add(n, Relaxed) + n;
    PEAK.fetch_max(now, Relaxed);
}

// SAFETY: every call is forwarded to `System` unchanged; only counters are updated.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: same contract as the caller's.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: same contract as the caller's.
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) };
        LIVE.fetch_sub(layout.size(), Relaxed);
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: same contract as the caller's.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            LIVE.fetch_sub(layout.size(), Relaxed);
            grew(new_size);
        }
        p
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

/// The measurements of one test at a time (the allocator counts the whole process).
static MEASURE: Mutex<()> = Mutex::new(());

/// CPU time of this thread in ns (wall time when the kernel does not say).
fn cpu_ns(wall: Instant) -> u128 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .unwrap_or_else(|| wall.elapsed().as_nanos())
}

/// One agent turn as SSE bytes, generated once and patched per turn: the turn number (in ids,
/// zero-padded; in JSON numbers, space-padded), a running chunk index and the SSE ids (10-digit
/// numbers) are rewritten in place, so generating a million events costs a copy, not a million
/// `format!`s.
struct Template {
    bytes: Vec<u8>,
    /// Offsets of the zero-padded turn placeholders (inside strings).
    turn_at: Vec<usize>,
    /// Offsets of the space-padded turn placeholders (JSON numbers).
    num_at: Vec<usize>,
    /// Offsets of the running-index placeholders: turn * their count + their rank.
    seq_at: Vec<usize>,
    /// Offsets of the 10-digit SSE ids, in event order.
    id_at: Vec<usize>,
}

const TURN: &str = "TTTTTTT";
const NUM: &str = "NNNNNNN";
const SEQ: &str = "SSSSSSSSS";
const ID: &str = "IIIIIIIIII";

impl Template {
    /// The realistic mix of the throughput benchmark: thoughts, two tools with progress, an
    /// answered input with a timeout, a versioned data artifact, a markdown file in 8 chunks,
    /// a dataset in 4 batches, ~450 short content deltas, content-complete and task-complete.
    fn realistic() -> Template {
        let mut s = String::new();
        let ts = "2025-11-06T10:30:00.123Z";
        let task = format!("task-{TURN}");
        let ev = |s: &mut String, kind: &str, body: &str| {
            let name = kind.trim_start_matches("internal:");
            s.push_str(&format!(
                "id: {ID}\nevent: {name}\ndata: {{\"kind\":\"{kind}\",\"contextId\":\"ctx-lin\",\"taskId\":\"{task}\",{body},\"timestamp\":\"{ts}\"}}\n\n"
            ));
        };
        ev(
            &mut s,
            "task-created",
            r#""initiator":"user","metadata":{"agentId":"a","model":"m"}"#,
        );
        ev(&mut s, "task-status", r#""status":"working""#);
        ev(
            &mut s,
            "internal:llm-call",
            r#""iteration":1,"model":"m","messageCount":3,"toolCount":2"#,
        );
        for k in 0..3 {
            ev(
                &mut s,
                "thought-stream",
                &format!(
                    r#""thoughtId":"th-{TURN}-{k}","thoughtType":"planning","verbosity":"normal","content":"I will query the sales database and aggregate by region","index":{k},"metadata":{{"confidence":0.8}}"#
                ),
            );
        }
        for c in 0..2 {
            let call = format!("call-{TURN}-{c}");
            ev(
                &mut s,
                "tool-start",
                &format!(
                    r#""toolCallId":"{call}","toolName":"search","arguments":{{"query":"q4 sales","limit":100}}"#
                ),
            );
            for p in 1..5 {
                ev(
                    &mut s,
                    "tool-progress",
                    &format!(
                        r#""toolCallId":"{call}","progress":0.{p},"message":"step {p}","metadata":{{"stepsCompleted":{p},"stepsTotal":5}}"#
                    ),
                );
            }
            ev(
                &mut s,
                "tool-complete",
                &format!(
                    r#""toolCallId":"{call}","toolName":"search","success":true,"result":{{"count":2,"records":[{{"id":1,"title":"a"}},{{"id":2,"title":"b"}}]}}"#
                ),
            );
        }
        ev(
            &mut s,
            "input-required",
            &format!(
                r#""inputId":"in-{TURN}","requireUser":true,"inputType":"confirmation","prompt":"Proceed?","options":["approve","deny"],"metadata":{{"timeout":300}}"#
            ),
        );
        ev(
            &mut s,
            "input-received",
            &format!(r#""inputId":"in-{TURN}","providedBy":"user","userId":"u""#),
        );
        for v in 1..3 {
            ev(
                &mut s,
                "data-write",
                &format!(
                    r#""artifactId":"data-{TURN}","name":"summary","data":{{"orders":12480,"growth":0.152,"v":{v}}},"metadata":{{"version":{v}}}"#
                ),
            );
        }
        let chunk = "Lorem ipsum dolor sit amet, consectetur adipiscing elit. ".repeat(36);
        for i in 0..8 {
            let first = if i == 0 {
                r#","name":"r.md","mimeType":"text/markdown","encoding":"utf-8""#
            } else {
                ""
            };
            ev(
                &mut s,
                "file-write",
                &format!(
                    r#""artifactId":"file-{TURN}","data":"{chunk}","index":{i},"complete":{}{first}"#,
                    i == 7
                ),
            );
        }
        for b in 0..4 {
            let rows: Vec<String> = (0..40)
                .map(|r| {
                    format!(
                        r#"{{"date":"2025-10-{:02}","amount":{}.5,"region":"north","qty":{r}}}"#,
                        r % 28 + 1,
                        r * 7
                    )
                })
                .collect();
            ev(
                &mut s,
                "dataset-write",
                &format!(
                    r#""artifactId":"rows-{TURN}","rows":[{}],"index":{b},"complete":{}"#,
                    rows.join(","),
                    b == 3
                ),
            );
        }
        let words = [
            "the ",
            "agent ",
            "résumé ",
            "🙂 ",
            "sales ",
            "grew ",
            "by ",
            "15% ",
        ];
        let mut full = String::new();
        for i in 0..450 {
            let w = words[(i * 7 + i / 3) % words.len()];
            full.push_str(w);
            ev(
                &mut s,
                "content-delta",
                &format!(r#""delta":"{w}","index":{i}"#),
            );
        }
        ev(
            &mut s,
            "content-complete",
            &format!(r#""content":"{full}""#),
        );
        ev(&mut s, "task-status", r#""status":"completed""#);
        ev(
            &mut s,
            "task-complete",
            &format!(
                r#""content":"{full}","metadata":{{"duration":100,"iterations":2,"tokensUsed":900}}"#
            ),
        );
        Template::from(s)
    }

    /// One long task that never ends: deltas, thoughts, progress of one tool and rewrites of
    /// one data artifact, repeated. Everything it keeps is capped by the limits.
    fn endless_task() -> Template {
        let mut s = String::new();
        let ts = "2025-11-06T10:30:00.123Z";
        let ev = |s: &mut String, kind: &str, body: &str| {
            s.push_str(&format!(
                "id: {ID}\nevent: {kind}\ndata: {{\"kind\":\"{kind}\",\"contextId\":\"ctx-long\",\"taskId\":\"task-long\",{body},\"timestamp\":\"{ts}\"}}\n\n"
            ));
        };
        for i in 0..96 {
            ev(
                &mut s,
                "content-delta",
                &format!(r#""delta":"token {i:02} ","index":{SEQ}"#),
            );
        }
        ev(
            &mut s,
            "thought-stream",
            &format!(
                r#""thoughtId":"th-{TURN}","thoughtType":"reasoning","verbosity":"brief","content":"still going","index":{NUM}"#
            ),
        );
        ev(
            &mut s,
            "tool-progress",
            r#""toolCallId":"call-long","progress":0.5,"message":"working""#,
        );
        ev(
            &mut s,
            "data-write",
            &format!(
                r#""artifactId":"data-long","data":{{"turn":"{TURN}"}},"metadata":{{"version":{NUM}}}"#
            ),
        );
        ev(&mut s, "internal:checkpoint", r#""iteration":1"#);
        Template::from(s)
    }

    fn events(&self) -> usize {
        self.id_at.len()
    }

    /// Writes turn `turn` (its first event has SSE id 1,000,000,000 + `first_id`) into `out`.
    fn write(&self, turn: usize, first_id: usize, out: &mut Vec<u8>) {
        out.clear();
        out.extend_from_slice(&self.bytes);
        for &at in &self.turn_at {
            put_digits(&mut out[at..at + TURN.len()], turn, b'0');
        }
        for &at in &self.num_at {
            put_digits(&mut out[at..at + NUM.len()], turn, b' ');
        }
        for (k, &at) in self.seq_at.iter().enumerate() {
            put_digits(
                &mut out[at..at + SEQ.len()],
                turn * self.seq_at.len() + k,
                b' ',
            );
        }
        for (k, &at) in self.id_at.iter().enumerate() {
            put_digits(
                &mut out[at..at + ID.len()],
                1_000_000_000 + first_id + k,
                b'0',
            );
        }
    }
}

impl From<String> for Template {
    fn from(s: String) -> Template {
        let find = |pat: &str| -> Vec<usize> { s.match_indices(pat).map(|(i, _)| i).collect() };
        Template {
            turn_at: find(TURN),
            num_at: find(NUM),
            seq_at: find(SEQ),
            id_at: find(ID),
            bytes: s.into_bytes(),
        }
    }
}

/// Writes `n` right-aligned into `dst`, padded with `pad` (`'0'`, or `' '` inside JSON numbers,
/// which may not have leading zeros).
fn put_digits(dst: &mut [u8], mut n: usize, pad: u8) {
    for (i, d) in dst.iter_mut().rev().enumerate() {
        *d = if n == 0 && i > 0 {
            pad
        } else {
            b'0' + (n % 10) as u8
        };
        n /= 10;
    }
}

/// What one run cost.
#[derive(Debug, Clone, Copy)]
struct Run {
    events: usize,
    input_bytes: usize,
    cpu_ns: u128,
    /// Heap bytes still held once the stream is assembled (the session and its store).
    retained: usize,
    /// Highest heap use during the run, above the level before it.
    peak: usize,
    /// Size of the assembled state: the snapshot JSON plus file bytes and dataset rows.
    state_bytes: usize,
    diagnostics: u64,
}

fn assemble(template: &Template, events: usize, limits: Limits) -> Run {
    let turns = events.div_ceil(template.events());
    let mut buf = Vec::with_capacity(template.bytes.len() + 64);
    template.write(0, 0, &mut buf);
    let base = LIVE.load(Relaxed);
    PEAK.store(base, Relaxed);
    let wall = Instant::now();
    let cpu0 = cpu_ns(wall);
    let mut input_bytes = 0;
    let mut session = Session::new(SseConfig::default(), limits);
    for turn in 0..turns {
        template.write(turn, turn * template.events(), &mut buf);
        input_bytes += buf.len();
        for chunk in buf.chunks(16 * 1024) {
            session.feed(chunk, &mut |_, _, _| {});
        }
    }
    session.finish();
    let cpu = cpu_ns(wall) - cpu0;
    let retained = LIVE.load(Relaxed).saturating_sub(base);
    let peak = PEAK.load(Relaxed).saturating_sub(base);
    let store = session.store();
    let mut state_bytes = store.state_json().len();
    for a in store.artifacts() {
        state_bytes += store.artifact_bytes(&a.id).map_or(0, <[u8]>::len);
        if a.row_count.is_some() {
            state_bytes += store.artifact_rows_json(&a.id).map_or(0, |r| r.len());
        }
    }
    Run {
        events: turns * template.events(),
        input_bytes,
        cpu_ns: cpu,
        retained,
        peak,
        state_bytes,
        diagnostics: store.diagnostics_total(),
    }
}

fn large_size() -> usize {
    std::env::var("AGENTWIRE_LINEARITY_EVENTS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1_000_000)
}

fn report(name: &str, r: &Run) {
    let secs = r.cpu_ns as f64 / 1e9;
    println!(
        "{name}: {} events, {:.1} MB in, {:.2} s cpu ({:.0} events/s), retained {:.1} MB, peak {:.1} MB, state {:.1} MB, {} diagnostics",
        r.events,
        r.input_bytes as f64 / 1e6,
        secs,
        r.events as f64 / secs,
        r.retained as f64 / 1e6,
        r.peak as f64 / 1e6,
        r.state_bytes as f64 / 1e6,
        r.diagnostics
    );
}

#[test]
fn time_and_memory_grow_linearly_with_a_realistic_stream() {
    let _one = MEASURE.lock().unwrap_or_else(|e| e.into_inner());
    let t = Template::realistic();
    let large = large_size();
    let small_run = assemble(&t, large / 10, Limits::default());
    let large_run = assemble(&t, large, Limits::default());
    report("realistic small", &small_run);
    report("realistic large", &large_run);
    assert_eq!(small_run.diagnostics + large_run.diagnostics, 0);
    let events = large_run.events as f64 / small_run.events as f64;
    let time = large_run.cpu_ns as f64 / small_run.cpu_ns as f64;
    let memory = large_run.retained as f64 / small_run.retained as f64;
    println!("ratios for {events:.2}x events: time {time:.2}x, retained memory {memory:.2}x");
    assert!(
        time <= events * 1.3,
        "time grew {time:.2}x for {events:.2}x events"
    );
    assert!(
        memory <= events * 1.3,
        "memory grew {memory:.2}x for {events:.2}x events"
    );
    for r in [small_run, large_run] {
        // Proportional to what the state holds (not to the input): a small constant factor.
        let factor = r.retained as f64 / r.state_bytes as f64;
        println!(
            "  retained / state = {factor:.2}, retained / input = {:.3}",
            r.retained as f64 / r.input_bytes as f64
        );
        assert!(factor < 3.0, "retained {factor:.2}x the assembled state");
        assert!(
            r.peak <= r.retained * 2 + (32 << 20),
            "peak {} vs retained {}",
            r.peak,
            r.retained
        );
    }
}

#[test]
fn an_endless_task_stays_within_the_limits() {
    let _one = MEASURE.lock().unwrap_or_else(|e| e.into_inner());
    let t = Template::endless_task();
    let limits = Limits {
        max_content_bytes: 64 << 10,
        max_thoughts_per_task: 100,
        max_diagnostics: 100,
        dedupe_window: 4096,
        ..Limits::default()
    };
    // Half the large size is plenty to show a flat line (and keeps the debug run short).
    let large = large_size() / 2;
    let small_run = assemble(&t, large / 10, limits);
    let large_run = assemble(&t, large, limits);
    report("endless task small", &small_run);
    report("endless task large", &large_run);
    // Content and thoughts hit their limits in both runs (plus one tool-not-started: the
    // progress of a tool that never started): the large run keeps no more.
    assert_eq!((small_run.diagnostics, large_run.diagnostics), (3, 3));
    let memory = large_run.retained as f64 / small_run.retained as f64;
    println!(
        "retained memory {memory:.2}x for {:.2}x events",
        large_run.events as f64 / small_run.events as f64
    );
    assert!(memory < 1.1, "bounded state, yet memory grew {memory:.2}x");
    assert!(large_run.retained < 2 << 20, "{} bytes", large_run.retained);
}

#[test]
fn a_long_id_costs_its_own_bytes_once_not_per_event() {
    // A 1 MiB `id` followed by many blank lines and small events that inherit it: the id must
    // not be compared or copied per blank line or per event (that was quadratic: 20,000 x 1 MiB).
    // Against the same stream with the id replaced by a comment line of the same length.
    let _one = MEASURE.lock().unwrap_or_else(|e| e.into_inner());
    let long = "x".repeat(1 << 20);
    let tail = format!("{}{}", "\n".repeat(20_000), "data: {}\n\n".repeat(20_000));
    let cpu = |stream: &str| {
        let mut s = Session::new(SseConfig::default(), Limits::default());
        let wall = Instant::now();
        let t0 = cpu_ns(wall);
        s.feed(stream.as_bytes(), &mut |_, _, _| {});
        s.finish();
        cpu_ns(wall) - t0
    };
    let baseline = cpu(&format!(": {long}\n{tail}"));
    let hostile = cpu(&format!("id: {long}\n{tail}"));
    println!("long id: {hostile} ns, comment of the same length: {baseline} ns");
    assert!(
        hostile <= baseline * 4 + 300_000_000,
        "a long id made the stream cost {hostile} ns against {baseline} ns"
    );
}
