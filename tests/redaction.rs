//! Sensitive values never reach diagnostics or the raw-event ring: the store (`Session`) and
//! the stateless `StreamDecoder` redact the `raw` text they hand out, for canonical events and
//! dialect events, with the default list or a configured one.
#![cfg(not(target_arch = "wasm32"))]

use agentwire::dialects::{Dialect, DialectChoice};
use agentwire::events::{AgentEvent, Redactor};
use agentwire::pipeline::{Item, Session, StreamDecoder};
use agentwire::sse::SseConfig;
use agentwire::state::{EventMeta, Limits, Store};

const SECRETS: &[&str] = &["hunter2", "sk-live-123", "Bearer abc", "s3cr3t", "tok-9"];

/// Events that each produce a diagnostic quoting their raw data, each with a secret.
const STREAM: &str = concat!(
    // Invalid JSON (decoder diagnostic).
    "data: {\"kind\":\"task-created\",\"password\":\"hunter2\"\n\n",
    // A rule between events (store diagnostic): progress for a tool that never started.
    "data: {\"kind\":\"tool-progress\",\"contextId\":\"c\",\"taskId\":\"t\",\"toolCallId\":\"x\",\"progress\":2,\"timestamp\":\"2025-01-01T00:00:00Z\",\"metadata\":{\"api_key\":\"sk-live-123\"}}\n\n",
    // A missing field, secrets nested and in odd spellings.
    "data: {\"kind\":\"tool-start\",\"contextId\":\"c\",\"taskId\":\"t\",\"arguments\":{\"headers\":{\"Authorization\":\"Bearer abc\"},\"clientSecret\":\"s3cr3t\",\"x-access-token\":\"tok-9\"}}\n\n",
);

fn session(redactor: Option<Redactor>) -> Session {
    let limits = Limits {
        raw_log_events: 16,
        ..Limits::default()
    };
    let mut s = Session::new(SseConfig::default(), limits);
    if let Some(r) = redactor {
        s.store_mut().set_redactor(r);
    }
    let mut obs = |_: &AgentEvent<'_>, _: &EventMeta<'_>, _: &Store| {};
    s.feed(STREAM.as_bytes(), &mut obs);
    s
}

fn kept_text(s: &Session) -> String {
    let store = s.store();
    let mut all = String::new();
    for d in store.diagnostics() {
        d.write_json(&mut all);
    }
    for (_, r) in store.raw_events() {
        all.push_str(r);
    }
    all
}

#[test]
fn store_diagnostics_and_raw_ring_are_redacted() {
    let s = session(None);
    assert!(s.store().diagnostics().count() >= 3);
    assert!(s.store().raw_events().count() >= 1);
    let all = kept_text(&s);
    for secret in SECRETS {
        assert!(!all.contains(secret), "{secret} leaked: {all}");
    }
    assert!(all.contains("[redacted]"));
    // What is not secret stays readable.
    assert!(all.contains("\"toolCallId\\\":\\\"x\\\""), "{all}");
}

#[test]
fn the_list_is_configurable() {
    let s = session(Some(Redactor::new(["password"])));
    let all = kept_text(&s);
    assert!(!all.contains("hunter2"));
    assert!(all.contains("sk-live-123"), "api_key is not on this list");
    let s = session(Some(Redactor::new::<&str>([])));
    assert!(
        kept_text(&s).contains("hunter2"),
        "an empty list redacts nothing"
    );
}

#[test]
fn the_stream_decoder_redacts_what_it_hands_out() {
    let mut texts = String::new();
    let mut collect = |item: Item<'_>| {
        if let Item::Diagnostic(d) = item {
            d.write_json(&mut texts);
        }
    };
    let mut dec = StreamDecoder::new(SseConfig::default());
    dec.feed(STREAM.as_bytes(), &mut collect);
    dec.feed_frame(
        "{\"kind\":\"task-status\",\"token\":\"tok-9\"}",
        &mut collect,
    );
    // A dialect event (A2A with a bad state) quoted by a dialect diagnostic.
    let mut a2a =
        StreamDecoder::with_dialect(SseConfig::default(), DialectChoice::Fixed(Dialect::A2a));
    a2a.feed(
        b"data: {\"kind\":\"status-update\",\"taskId\":\"t\",\"contextId\":\"c\",\"status\":{\"state\":\"paused\"},\"final\":false,\"metadata\":{\"password\":\"hunter2\"}}\n\n",
        &mut collect,
    );
    assert!(texts.matches("\"code\"").count() >= 4, "{texts}");
    for secret in SECRETS {
        assert!(!texts.contains(secret), "{secret} leaked: {texts}");
    }
    let mut custom = StreamDecoder::new(SseConfig::default());
    custom.set_redactor(Redactor::new(["ssn"]));
    let mut out = String::new();
    custom.feed(
        b"data: {\"ssn\":\"078-05-1120\",\"password\":\"pw\"\n\n",
        &mut |item| {
            if let Item::Diagnostic(d) = item {
                d.write_json(&mut out);
            }
        },
    );
    assert!(!out.contains("078-05-1120") && out.contains("pw"), "{out}");
}
