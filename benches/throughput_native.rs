// Included by throughput.rs on native targets.

// short content-delta tokens, plus tools, thoughts, artifacts, internal events).
// `cargo bench --bench throughput` prints MB/s (bytes) and events/s (items).

use agentwire::pipeline::{Session, StreamDecoder};
use agentwire::sse::{SseConfig, SseParser};
use agentwire::state::Limits;
use divan::counter::{BytesCount, ItemsCount};
use divan::Bencher;

fn main() {
    divan::main();
}

/// A deterministic stream of `turns` agent turns; returns (bytes, events).
pub fn generate(turns: usize) -> (Vec<u8>, usize) {
    let mut out = String::new();
    let mut n = 0usize;
    let mut seed: u64 = 0x1234_5678_9abc_def0;
    let mut rnd = move |m: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % m
    };
    let words = [
        "the ",
        "agent ",
        "data ",
        "résumé ",
        "🙂 ",
        "\\\"quoted\\\" ",
        "sales ",
        "increased ",
        "by ",
        "15% ",
        "in ",
        "Q4 ",
    ];
    let ts = "2025-11-06T10:30:00.123Z";
    let mut push = |out: &mut String, kind: &str, body: String| {
        let ev = kind.trim_start_matches("internal:");
        out.push_str(&format!("id: {n}\nevent: {ev}\ndata: {{\"kind\":\"{kind}\",\"contextId\":\"ctx-bench\",{body},\"timestamp\":\"{ts}\"}}\n\n"));
        n += 1;
    };
    for t in 0..turns {
        let task = format!("task-{t:06}");
        push(&mut out, "task-created", format!("\"taskId\":\"{task}\",\"initiator\":\"user\",\"metadata\":{{\"agentId\":\"a\",\"model\":\"m\"}}"));
        push(
            &mut out,
            "task-status",
            format!("\"taskId\":\"{task}\",\"status\":\"working\""),
        );
        push(&mut out, "internal:llm-call", format!("\"taskId\":\"{task}\",\"iteration\":1,\"model\":\"m\",\"messageCount\":3,\"toolCount\":2"));
        for k in 0..3 {
            push(&mut out, "thought-stream", format!("\"taskId\":\"{task}\",\"thoughtId\":\"th-{t}-{k}\",\"thoughtType\":\"planning\",\"verbosity\":\"normal\",\"content\":\"I will query the sales database and aggregate by region\",\"index\":{k},\"metadata\":{{\"confidence\":0.8}}"));
        }
        for c in 0..2 {
            let call = format!("call-{t}-{c}");
            push(&mut out, "tool-start", format!("\"taskId\":\"{task}\",\"toolCallId\":\"{call}\",\"toolName\":\"search\",\"arguments\":{{\"query\":\"q4 sales\",\"limit\":100}}"));
            for p in 1..5 {
                push(&mut out, "tool-progress", format!("\"taskId\":\"{task}\",\"toolCallId\":\"{call}\",\"progress\":0.{p},\"message\":\"step {p}\",\"metadata\":{{\"stepsCompleted\":{p},\"stepsTotal\":5}}"));
            }
            push(&mut out, "tool-complete", format!("\"taskId\":\"{task}\",\"toolCallId\":\"{call}\",\"toolName\":\"search\",\"success\":true,\"result\":{{\"count\":2,\"records\":[{{\"id\":1,\"title\":\"a\"}},{{\"id\":2,\"title\":\"b\"}}]}}"));
        }
        for i in 0..8 {
            let data = "Lorem ipsum dolor sit amet, consectetur adipiscing elit. ".repeat(36);
            let meta = if i == 0 {
                ",\"name\":\"r.md\",\"mimeType\":\"text/markdown\",\"encoding\":\"utf-8\""
            } else {
                ""
            };
            push(&mut out, "file-write", format!("\"taskId\":\"{task}\",\"artifactId\":\"f-{t}\",\"data\":\"{data}\",\"index\":{i},\"complete\":{}{meta}", i == 7));
        }
        for b in 0..4 {
            let rows: Vec<String> = (0..40).map(|r| format!("{{\"date\":\"2025-10-{:02}\",\"amount\":{}.5,\"region\":\"north\",\"qty\":{r}}}", r % 28 + 1, r * 7)).collect();
            push(&mut out, "dataset-write", format!("\"taskId\":\"{task}\",\"artifactId\":\"d-{t}\",\"rows\":[{}],\"index\":{b},\"complete\":{}", rows.join(","), b == 3));
        }
        let mut full = String::new();
        let ntok = 400 + rnd(200) as usize;
        for i in 0..ntok {
            let w = words[rnd(words.len() as u64) as usize];
            full.push_str(w);
            push(
                &mut out,
                "content-delta",
                format!("\"taskId\":\"{task}\",\"delta\":\"{w}\",\"index\":{i}"),
            );
        }
        push(
            &mut out,
            "content-complete",
            format!("\"taskId\":\"{task}\",\"content\":\"{full}\""),
        );
        push(
            &mut out,
            "task-status",
            format!("\"taskId\":\"{task}\",\"status\":\"completed\""),
        );
        push(&mut out, "task-complete", format!("\"taskId\":\"{task}\",\"content\":\"{full}\",\"metadata\":{{\"duration\":100,\"iterations\":2,\"tokensUsed\":900}}"));
    }
    (out.into_bytes(), n)
}

const CHUNK: usize = 64 * 1024;

#[divan::bench(args = [20, 200])]
fn sse_parse_only(b: Bencher, turns: usize) {
    let (bytes, n) = generate(turns);
    b.counter(BytesCount::new(bytes.len()))
        .counter(ItemsCount::new(n))
        .bench(|| {
            let mut p = SseParser::new(SseConfig::default());
            let mut count = 0usize;
            for c in bytes.chunks(CHUNK) {
                p.feed(c, &mut |_| count += 1);
            }
            count
        });
}

#[divan::bench(args = [20, 200])]
fn parse_decode_validate(b: Bencher, turns: usize) {
    let (bytes, n) = generate(turns);
    b.counter(BytesCount::new(bytes.len()))
        .counter(ItemsCount::new(n))
        .bench(|| {
            let mut d = StreamDecoder::new(SseConfig::default());
            let mut count = 0usize;
            for c in bytes.chunks(CHUNK) {
                d.feed(c, &mut |_| count += 1);
            }
            count
        });
}

#[divan::bench(args = [20, 200])]
fn parse_decode_validate_assemble(b: Bencher, turns: usize) {
    let (bytes, n) = generate(turns);
    b.counter(BytesCount::new(bytes.len()))
        .counter(ItemsCount::new(n))
        .bench(|| {
            let mut s = Session::new(SseConfig::default(), Limits::default());
            for c in bytes.chunks(CHUNK) {
                s.feed(c, &mut |_, _, _| {});
            }
            s.finish();
            assert_eq!(s.store().errors_total(), 0);
            s.store().version()
        });
}

/// The same as `parse_decode_validate_assemble` with `dialect: "auto"`: the dialect layer
/// detects protocol 000 from the first event and steps aside (what `AgentClient` does by default).
#[divan::bench(args = [20, 200])]
fn parse_decode_validate_assemble_auto(b: Bencher, turns: usize) {
    use agentwire::dialects::{Dialect, DialectChoice};
    let (bytes, n) = generate(turns);
    b.counter(BytesCount::new(bytes.len()))
        .counter(ItemsCount::new(n))
        .bench(|| {
            let mut s =
                Session::with_dialect(SseConfig::default(), Limits::default(), DialectChoice::Auto);
            for c in bytes.chunks(CHUNK) {
                s.feed(c, &mut |_, _, _| {});
            }
            s.finish();
            assert_eq!(s.dialect(), Some(Dialect::Canonical));
            assert_eq!(s.store().errors_total(), 0);
            s.store().version()
        });
}
