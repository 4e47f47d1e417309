//! API-level behaviour; the spec vectors are in tests/sse_vectors.rs.

use super::*;

fn collect(p: &mut SseParser, input: &[u8]) -> Vec<String> {
    let mut out = Vec::new();
    p.feed(input, &mut |item| match item {
        SseItem::Event(e) => out.push(format!("{}|{}|{}", e.event_type, e.data, e.last_event_id)),
        SseItem::Diagnostic(d) => out.push(d.code().to_owned()),
    });
    out
}

#[test]
fn reset_keeps_last_event_id_and_retry_but_drops_partial_input() {
    let mut p = SseParser::new(SseConfig::default());
    assert_eq!(
        collect(&mut p, b"retry: 500\nid: 7\ndata: a\n\ndata: partial"),
        vec!["message|a|7"]
    );
    p.reset();
    assert_eq!(collect(&mut p, b"\n\ndata: b\n\n"), vec!["message|b|7"]);
    assert_eq!((p.last_event_id(), p.retry()), ("7", Some(500)));
}

#[test]
fn set_last_event_id_applies_to_following_events() {
    let mut p = SseParser::new(SseConfig::default());
    p.set_last_event_id("42");
    assert_eq!(collect(&mut p, b"data: x\n\n"), vec!["message|x|42"]);
}

#[test]
fn a_line_that_never_ends_stays_bounded() {
    let mut p = SseParser::new(SseConfig {
        max_line_bytes: 1024,
        max_event_bytes: 4096,
    });
    let junk = vec![b'x'; 300];
    let mut diags = 0;
    for _ in 0..10_000 {
        diags += collect(&mut p, &junk).len();
        assert!(p.buffered_bytes() <= 1024);
    }
    assert_eq!(diags, 1, "one diagnostic for the whole line");
    assert_eq!(collect(&mut p, b"\n\ndata: ok\n\n"), vec!["message|ok|"]);
}

#[test]
fn retry_saturates_instead_of_overflowing() {
    let mut p = SseParser::new(SseConfig::default());
    collect(&mut p, b"retry: 99999999999999999999999999\n\n");
    assert_eq!(p.retry(), Some(u64::MAX));
}

#[test]
fn event_too_large_recovers_at_the_next_event() {
    let mut p = SseParser::new(SseConfig {
        max_line_bytes: 1 << 20,
        max_event_bytes: 8,
    });
    assert_eq!(
        collect(&mut p, b"data: 12345\ndata: 67890\ndata: x\n\ndata: ok\n\n"),
        vec!["sse-event-too-large", "message|ok|"]
    );
}
