//! API-level tests and property tests of the SSE parser (conformance vectors are in
//! `tests/sse_vectors.rs`).

use super::*;

/// An owned copy of an [`SseItem`].
#[derive(Debug, Clone, PartialEq, Eq)]
enum Out {
    Event {
        event_type: String,
        data: String,
        id: String,
    },
    Diag(SseDiagnostic),
}

fn own(item: SseItem<'_>) -> Out {
    match item {
        SseItem::Event(ev) => Out::Event {
            event_type: ev.event_type.to_owned(),
            data: ev.data.to_owned(),
            id: ev.last_event_id.to_owned(),
        },
        SseItem::Diagnostic(d) => Out::Diag(d),
    }
}

fn ev(event_type: &str, data: &str, id: &str) -> Out {
    Out::Event {
        event_type: event_type.to_owned(),
        data: data.to_owned(),
        id: id.to_owned(),
    }
}

fn feed(p: &mut SseParser, chunk: &[u8]) -> Vec<Out> {
    let mut out = Vec::new();
    p.feed(chunk, &mut |item| out.push(own(item)));
    out
}

/// Items, last event id and retry after feeding `chunks` to a fresh parser and finishing.
type Run = (Vec<Out>, String, Option<u64>);

fn run_chunks<'a>(
    config: SseConfig,
    initial_id: &str,
    chunks: impl IntoIterator<Item = &'a [u8]>,
) -> Run {
    let mut p = SseParser::new(config);
    p.set_last_event_id(initial_id);
    let mut out = Vec::new();
    let bound = config
        .max_line_bytes
        .saturating_mul(2)
        .saturating_add(config.max_event_bytes)
        .saturating_add(3);
    for c in chunks {
        p.feed(c, &mut |item| out.push(own(item)));
        assert!(
            p.buffered_bytes() <= bound,
            "{} buffered, {config:?}",
            p.buffered_bytes()
        );
    }
    p.finish();
    assert_eq!(p.buffered_bytes(), 0);
    (out, p.last_event_id().to_owned(), p.retry())
}

// ---------------------------------------------------------------------------------------------
// API behaviour

#[test]
fn defaults() {
    let c = SseConfig::default();
    assert_eq!(c.max_line_bytes, 16 * 1024 * 1024);
    assert_eq!(c.max_event_bytes, 16 * 1024 * 1024);
    let p = SseParser::default();
    assert_eq!(p.config(), c);
    assert_eq!(p.last_event_id(), "");
    assert_eq!(p.retry(), None);
    assert_eq!(p.buffered_bytes(), 0);
}

#[test]
fn diagnostic_codes_and_messages() {
    let a = SseDiagnostic::LineTooLong { limit: 7 };
    let b = SseDiagnostic::EventTooLarge { limit: 9 };
    assert_eq!(a.code(), "sse-line-too-long");
    assert_eq!(b.code(), "sse-event-too-large");
    assert!(a.message().contains('7'));
    assert!(b.message().contains('9'));
    assert_eq!(a.to_string(), a.message());
}

#[test]
fn reset_keeps_last_event_id_and_retry() {
    let mut p = SseParser::default();
    let out = feed(
        &mut p,
        b"retry: 3000\nid: 7\ndata: a\n\nid: 8\nevent: x\ndata: partial\ndat",
    );
    assert_eq!(out, vec![ev("message", "a", "7")]);
    assert!(p.buffered_bytes() > 0);
    p.reset();
    assert_eq!(p.buffered_bytes(), 0);
    // The unterminated block (id 8) did not count.
    assert_eq!(p.last_event_id(), "7");
    assert_eq!(p.retry(), Some(3000));
    // New stream: BOM stripping is re-armed, the partial line is gone, events without an id
    // report the kept one.
    let out = feed(&mut p, b"\xEF\xBB\xBFa: 1\ndata: b\n\n");
    assert_eq!(out, vec![ev("message", "b", "7")]);
}

#[test]
fn reset_forgets_pending_cr() {
    let mut p = SseParser::default();
    assert_eq!(feed(&mut p, b"data: a\r"), vec![]);
    p.reset();
    // After a reset the LF is a line end of its own (a blank line), not the CR's partner.
    assert_eq!(feed(&mut p, b"\ndata: b\n\n"), vec![ev("message", "b", "")]);
}

#[test]
fn finish_discards_unterminated_event_and_rearms() {
    let mut p = SseParser::default();
    assert_eq!(feed(&mut p, b"id: 1\ndata: a\n"), vec![]);
    p.finish();
    assert_eq!(p.last_event_id(), "");
    assert_eq!(p.buffered_bytes(), 0);
    assert_eq!(
        feed(&mut p, b"\xEF\xBB\xBFdata: b\n\n"),
        vec![ev("message", "b", "")]
    );
}

#[test]
fn set_last_event_id_is_reported_until_changed() {
    let mut p = SseParser::default();
    p.set_last_event_id("41");
    assert_eq!(p.last_event_id(), "41");
    let out = feed(
        &mut p,
        b"data: a\n\nid: 42\ndata: b\n\ndata: c\n\nid\ndata: d\n\n",
    );
    assert_eq!(
        out,
        vec![
            ev("message", "a", "41"),
            ev("message", "b", "42"),
            ev("message", "c", "42"),
            ev("message", "d", "")
        ]
    );
    assert_eq!(p.last_event_id(), "");
}

#[test]
fn set_last_event_id_replaces_pending_id() {
    let mut p = SseParser::default();
    assert_eq!(feed(&mut p, b"id: 5\ndata: a\n"), vec![]);
    p.set_last_event_id("9");
    assert_eq!(feed(&mut p, b"\n"), vec![ev("message", "a", "9")]);
}

#[test]
fn id_only_block_updates_last_event_id() {
    let mut p = SseParser::default();
    assert_eq!(feed(&mut p, b"id: 3\n\n"), vec![]);
    assert_eq!(p.last_event_id(), "3");
}

#[test]
fn retry_overflow_saturates() {
    let mut p = SseParser::default();
    feed(&mut p, b"retry: 18446744073709551615\n");
    assert_eq!(p.retry(), Some(u64::MAX));
    feed(&mut p, b"retry: 5\n");
    assert_eq!(p.retry(), Some(5));
    feed(&mut p, b"retry: 18446744073709551616\n");
    assert_eq!(p.retry(), Some(u64::MAX));
    feed(
        &mut p,
        b"retry: 99999999999999999999999999999999999999999999999999\n",
    );
    assert_eq!(p.retry(), Some(u64::MAX));
    feed(
        &mut p,
        b"retry: 0000000000000000000000000000000000000000000000000012\n",
    );
    assert_eq!(p.retry(), Some(12));
    feed(&mut p, b"retry: 1e3\n");
    assert_eq!(p.retry(), Some(12));
}

#[test]
fn never_ending_line_is_bounded() {
    let config = SseConfig {
        max_line_bytes: 4096,
        max_event_bytes: 1 << 20,
    };
    let mut p = SseParser::new(config);
    let chunk = [b'x'; 1000];
    let mut diags = 0;
    for _ in 0..10_000 {
        p.feed(&chunk, &mut |item| match item {
            SseItem::Diagnostic(SseDiagnostic::LineTooLong { limit: 4096 }) => diags += 1,
            other => panic!("unexpected {other:?}"),
        });
        assert!(p.buffered_bytes() <= 4096, "{}", p.buffered_bytes());
    }
    assert_eq!(diags, 1);
    assert!(p.line.capacity() <= 2 * 4096);
    // Recovery: the long line ends, its (dropped) event ends at the blank line.
    assert_eq!(
        feed(&mut p, b"\ndata: lost\n\ndata: ok\n\n"),
        vec![ev("message", "ok", "")]
    );
}

#[test]
fn never_ending_comment_is_not_buffered() {
    let mut p = SseParser::new(SseConfig {
        max_line_bytes: 16,
        max_event_bytes: 16,
    });
    assert_eq!(feed(&mut p, b"data: a\n:"), vec![]);
    let mut diags = 0;
    for _ in 0..1000 {
        p.feed(&[b'p'; 100], &mut |item| match item {
            SseItem::Diagnostic(SseDiagnostic::LineTooLong { limit: 16 }) => diags += 1,
            other => panic!("unexpected {other:?}"),
        });
        assert_eq!(p.buffered_bytes(), 2); // "a\n"
    }
    assert_eq!(diags, 1);
    // The comment is reported but does not drop the event around it.
    assert_eq!(feed(&mut p, b"\n\n"), vec![ev("message", "a", "")]);
}

#[test]
fn long_comment_reported_at_any_chunking() {
    let config = SseConfig {
        max_line_bytes: 8,
        max_event_bytes: 16,
    };
    let input: &[u8] = b"data: a\n:1234567\n:123456789\ndata: b\n\n:1234567890\r\n";
    let expected = vec![
        Out::Diag(SseDiagnostic::LineTooLong { limit: 8 }),
        ev("message", "a\nb", ""),
        Out::Diag(SseDiagnostic::LineTooLong { limit: 8 }),
    ];
    for split in 0..=input.len() {
        let (a, b) = input.split_at(split);
        assert_eq!(
            run_chunks(config, "", [a, b]).0,
            expected,
            "split at {split}"
        );
    }
    assert_eq!(run_chunks(config, "", input.chunks(1)).0, expected);
}

#[test]
fn never_ending_event_is_bounded() {
    let config = SseConfig {
        max_line_bytes: 100,
        max_event_bytes: 1000,
    };
    let mut p = SseParser::new(config);
    let mut diags = Vec::new();
    for _ in 0..10_000 {
        p.feed(b"data: 0123456789\n", &mut |item| diags.push(own(item)));
        assert!(p.buffered_bytes() <= 1001);
    }
    assert_eq!(
        diags,
        vec![Out::Diag(SseDiagnostic::EventTooLarge { limit: 1000 })]
    );
    assert_eq!(
        feed(&mut p, b"\ndata: ok\n\n"),
        vec![ev("message", "ok", "")]
    );
}

#[test]
fn limits_recover_at_next_event() {
    let config = SseConfig {
        max_line_bytes: 10,
        max_event_bytes: 8,
    };
    let input: &[u8] = b"id: 1\ndata: a\n\n\
        id: 2\ndata: 0123456789\nretry: 5\ndata: b\n\n\
        data: c\n\n\
        id: 3\ndata:12345\ndata: 67\ndata: x\nid: 4\n\n\
        data: 1234\ndata: 567\n\n";
    let expected = vec![
        ev("message", "a", "1"),
        Out::Diag(SseDiagnostic::LineTooLong { limit: 10 }),
        ev("message", "c", "1"),
        Out::Diag(SseDiagnostic::EventTooLarge { limit: 8 }),
        ev("message", "1234\n567", "1"),
    ];
    for split in 0..=input.len() {
        let (a, b) = input.split_at(split);
        let (out, id, retry) = run_chunks(config, "", [a, b]);
        assert_eq!(out, expected, "split at {split}");
        assert_eq!(id, "1");
        assert_eq!(retry, None);
    }
}

#[test]
fn retry_before_problem_line_applies() {
    let mut p = SseParser::new(SseConfig {
        max_line_bytes: 10,
        max_event_bytes: 100,
    });
    let out = feed(&mut p, b"retry: 5\ndata: 0123456789\nretry: 6\n\n");
    assert_eq!(
        out,
        vec![Out::Diag(SseDiagnostic::LineTooLong { limit: 10 })]
    );
    assert_eq!(p.retry(), Some(5));
}

#[test]
fn zero_limits_do_not_panic() {
    let config = SseConfig {
        max_line_bytes: 0,
        max_event_bytes: 0,
    };
    let (out, id, _) = run_chunks(config, "", [&b"\xEF\xBB\xBF\n\xEF\n\ndata\n\n:c\n\n"[..]]);
    // "\xEF" alone (after a stripped BOM) is a 1-byte line; "data" is 4 bytes; the comment ":c"
    // is 2 bytes (reported, drops nothing).
    assert_eq!(
        out,
        vec![
            Out::Diag(SseDiagnostic::LineTooLong { limit: 0 }),
            Out::Diag(SseDiagnostic::LineTooLong { limit: 0 }),
            Out::Diag(SseDiagnostic::LineTooLong { limit: 0 }),
        ]
    );
    assert_eq!(id, "");
    let config = SseConfig {
        max_line_bytes: 100,
        max_event_bytes: 0,
    };
    let (out, _, _) = run_chunks(config, "", [&b"data\n\ndata: x\n\n"[..]]);
    assert_eq!(
        out,
        vec![
            ev("message", "", ""),
            Out::Diag(SseDiagnostic::EventTooLarge { limit: 0 })
        ]
    );
}

#[test]
fn huge_limits_do_not_overflow() {
    let config = SseConfig {
        max_line_bytes: usize::MAX,
        max_event_bytes: usize::MAX,
    };
    let (out, _, _) = run_chunks(config, "", [&b"data: a"[..], b"b\n", b"\n"]);
    assert_eq!(out, vec![ev("message", "ab", "")]);
}

#[test]
fn big_buffers_are_released() {
    let mut p = SseParser::default();
    let mut big = b"data: ".to_vec();
    big.resize(3 << 20, b'x');
    p.feed(&big[..big.len() / 2], &mut |_| {});
    p.feed(&big[big.len() / 2..], &mut |_| {});
    let mut n = 0;
    p.feed(b"\n\n", &mut |item| {
        if let SseItem::Event(e) = item {
            n = e.data.len();
        }
    });
    assert_eq!(n, (3 << 20) - 6);
    assert!(p.line.capacity() <= RETAIN_CAPACITY);
    assert!(p.data.capacity() <= RETAIN_CAPACITY);
}

#[test]
fn steady_state_reuses_buffers() {
    let mut p = SseParser::default();
    let stream = b"id: 12\nevent: delta\ndata: {\"a\":1}\ndata: more\n\n";
    feed(&mut p, stream);
    feed(&mut p, &stream[..20]);
    feed(&mut p, &stream[20..]);
    let caps = (
        p.line.capacity(),
        p.data.capacity(),
        p.event_type.capacity(),
        p.id_buffer.capacity(),
        p.last_event_id.capacity(),
    );
    for _ in 0..100 {
        feed(&mut p, stream);
        feed(&mut p, &stream[..20]);
        feed(&mut p, &stream[20..]);
    }
    let after = (
        p.line.capacity(),
        p.data.capacity(),
        p.event_type.capacity(),
        p.id_buffer.capacity(),
        p.last_event_id.capacity(),
    );
    assert_eq!(caps, after);
}

#[test]
fn items_borrow_from_parser_buffers() {
    // Whole lines in a chunk are processed in place; only cut lines are copied.
    let mut p = SseParser::default();
    p.feed(b"data: a\n\n", &mut |_| {});
    assert_eq!(p.line.capacity(), 0);
    p.feed(b"data: b", &mut |_| {});
    assert_eq!(p.line, b"data: b");
}

// ---------------------------------------------------------------------------------------------
// Property tests

/// xorshift64*: small, deterministic, good enough to drive a generator.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn pick<'a, T: ?Sized>(&mut self, items: &[&'a T]) -> &'a T {
        items[self.below(items.len())]
    }
}

/// The standard's algorithm, written as directly as possible over the whole input (no limits).
fn reference(input: &[u8], initial_id: &str) -> Run {
    let bytes = input.strip_prefix(&BOM[..]).unwrap_or(input);
    let text = String::from_utf8_lossy(bytes);
    let mut lines = Vec::new();
    let mut cur = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\r' => {
                if chars.peek() == Some(&'\n') {
                    chars.next();
                }
                lines.push(std::mem::take(&mut cur));
            }
            '\n' => lines.push(std::mem::take(&mut cur)),
            c => cur.push(c),
        }
    }
    // `cur`: an unterminated last line, ignored at end of stream.
    let mut out = Vec::new();
    let (mut data, mut ty, mut id_buf) = (String::new(), String::new(), initial_id.to_owned());
    let mut last = initial_id.to_owned();
    let mut retry = None;
    for line in &lines {
        if line.is_empty() {
            last = id_buf.clone();
            if data.is_empty() {
                ty.clear();
                continue;
            }
            if data.ends_with('\n') {
                data.pop();
            }
            let t = if ty.is_empty() {
                "message".to_owned()
            } else {
                ty.clone()
            };
            out.push(ev(&t, &data, &last));
            data.clear();
            ty.clear();
            continue;
        }
        if line.starts_with(':') {
            continue;
        }
        let (name, value) = match line.find(':') {
            Some(i) => {
                let v = &line[i + 1..];
                (&line[..i], v.strip_prefix(' ').unwrap_or(v))
            }
            None => (&line[..], ""),
        };
        match name {
            "event" => ty = value.to_owned(),
            "data" => {
                data.push_str(value);
                data.push('\n');
            }
            "id" if !value.contains('\0') => id_buf = value.to_owned(),
            "retry" if !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit()) => {
                retry = Some(value.parse().unwrap_or(u64::MAX));
            }
            _ => {}
        }
    }
    (out, last, retry)
}

/// A random stream from a grammar of SSE-ish pieces.
fn gen_stream(rng: &mut Rng) -> Vec<u8> {
    const NAMES: &[&[u8]] = &[
        b"data",
        b"data",
        b"data",
        b"event",
        b"id",
        b"retry",
        b"Data",
        b"foo",
        b"",
        b"dat",
        b"data ",
        b"\xEF\xBB\xBFdata",
    ];
    const SEPS: &[&[u8]] = &[b":", b": ", b":  ", b"", b" :", b"::"];
    const VALUES: &[&[u8]] = &[
        b"",
        b"x",
        b"hello world",
        b"12",
        b"1000",
        b"-1",
        b"1.5",
        b"10a0",
        b"a:b",
        b" ",
        b"\xC3\xA9t\xC3\xA9",
        "😀🎉".as_bytes(),
        b"\x00",
        b"a\x00b",
        b"\xFF",
        b"\xC3",
        b"\xED\xA0\x80",
        b"\xF0\x9F\x98",
        b"\xC0\x80",
        b"\xEF\xBB\xBF",
        b"message",
        b"18446744073709551616",
        b"{\"k\":[1,2]}",
    ];
    const ENDS: &[&[u8]] = &[b"\n", b"\n", b"\r\n", b"\r"];
    let mut s = Vec::new();
    if rng.below(4) == 0 {
        s.extend_from_slice(&BOM);
    }
    if rng.below(8) == 0 {
        s.extend_from_slice(&BOM[..1 + rng.below(2)]);
    }
    let lines = rng.below(30);
    for _ in 0..lines {
        match rng.below(10) {
            0 | 1 => {} // blank line
            2 => {
                s.push(b':');
                s.extend_from_slice(rng.pick(VALUES));
            }
            3 => {
                // random bytes, biased towards structure
                let n = rng.below(12);
                for _ in 0..n {
                    let b = match rng.below(6) {
                        0 => b':',
                        1 => b' ',
                        2 => 0x80 + rng.below(0x80) as u8,
                        _ => rng.below(256) as u8,
                    };
                    s.push(b);
                }
            }
            _ => {
                s.extend_from_slice(rng.pick(NAMES));
                s.extend_from_slice(rng.pick(SEPS));
                for _ in 0..=rng.below(2) {
                    s.extend_from_slice(rng.pick(VALUES));
                }
            }
        }
        s.extend_from_slice(rng.pick(ENDS));
    }
    // Sometimes an unterminated tail.
    if rng.below(3) == 0 {
        s.extend_from_slice(b"data: tail");
    }
    s
}

/// Splits `input` into random chunks (including empty ones).
fn chunking<'a>(rng: &mut Rng, input: &'a [u8]) -> Vec<&'a [u8]> {
    let mut chunks = Vec::new();
    let mut rest = input;
    let max = 1 + rng.below(8);
    while !rest.is_empty() {
        let n = rng.below(max + 1).min(rest.len());
        let (a, b) = rest.split_at(n);
        chunks.push(a);
        rest = b;
    }
    chunks
}

#[test]
fn property_chunking_invariance_and_reference() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for iteration in 0..3000 {
        let input = gen_stream(&mut rng);
        let initial_id = if rng.below(4) == 0 { "init" } else { "" };
        let whole = run_chunks(SseConfig::default(), initial_id, [&input[..]]);
        assert_eq!(
            whole,
            reference(&input, initial_id),
            "iteration {iteration}: {input:?}"
        );
        for _ in 0..3 {
            let chunks = chunking(&mut rng, &input);
            let got = run_chunks(SseConfig::default(), initial_id, chunks.iter().copied());
            assert_eq!(got, whole, "iteration {iteration}: {chunks:?}");
        }
        // Small limits: whatever the diagnostics, chunking does not change the outcome.
        let config = SseConfig {
            max_line_bytes: rng.below(24),
            max_event_bytes: rng.below(24),
        };
        let whole = run_chunks(config, initial_id, [&input[..]]);
        let bytewise = run_chunks(config, initial_id, input.chunks(1));
        assert_eq!(
            bytewise, whole,
            "iteration {iteration} {config:?}: {input:?}"
        );
        let chunks = chunking(&mut rng, &input);
        let got = run_chunks(config, initial_id, chunks.iter().copied());
        assert_eq!(got, whole, "iteration {iteration} {config:?}: {chunks:?}");
        // Limits large enough for every line and event: same as no limits.
        let roomy = SseConfig {
            max_line_bytes: input.len(),
            max_event_bytes: input.len() * 3,
        };
        assert_eq!(
            run_chunks(roomy, initial_id, [&input[..]]),
            reference(&input, initial_id)
        );
    }
}

#[test]
fn property_arbitrary_bytes_never_panic() {
    let mut rng = Rng(0xD1B5_4A32_D192_ED03);
    for _ in 0..3000 {
        let len = rng.below(200);
        let alphabet = rng.below(3);
        let input: Vec<u8> = (0..len)
            .map(|_| match alphabet {
                0 => rng.below(256) as u8,
                1 => b"\r\n: ad\xEF\xBB\xBF\x00\xFF"[rng.below(11)],
                _ => b"\r\n:ix"[rng.below(5)],
            })
            .collect();
        let whole = run_chunks(SseConfig::default(), "", [&input[..]]);
        assert_eq!(whole, reference(&input, ""), "{input:?}");
        let chunks = chunking(&mut rng, &input);
        assert_eq!(
            run_chunks(SseConfig::default(), "", chunks.iter().copied()),
            whole
        );
        let config = SseConfig {
            max_line_bytes: rng.below(16),
            max_event_bytes: rng.below(16),
        };
        let whole = run_chunks(config, "", [&input[..]]);
        let chunks = chunking(&mut rng, &input);
        assert_eq!(run_chunks(config, "", chunks.iter().copied()), whole);
    }
}

#[test]
fn find_line_end_agrees_with_a_byte_scan_at_every_offset() {
    let fillers = [b'a', b':', 0x00, 0x0b, 0x0c, 0x0e, 0x80, 0xc3, 0xff, b' '];
    for len in 0..40 {
        for &fill in &fillers {
            let mut bytes = vec![fill; len];
            assert_eq!(find_line_end(&bytes), None, "len {len} fill {fill:#x}");
            for at in 0..len {
                for end in [b'\n', b'\r'] {
                    bytes[at] = end;
                    assert_eq!(
                        find_line_end(&bytes),
                        Some(at),
                        "len {len} fill {fill:#x} at {at}"
                    );
                    if at + 1 < len {
                        bytes[at + 1] = b'\n';
                        assert_eq!(find_line_end(&bytes), Some(at), "two line ends at {at}");
                        bytes[at + 1] = fill;
                    }
                    bytes[at] = fill;
                }
            }
        }
    }
}

#[test]
fn events_say_when_their_id_changed() {
    let mut p = SseParser::default();
    let mut changed = Vec::new();
    let mut feed = |p: &mut SseParser, text: &str| {
        p.feed(text.as_bytes(), &mut |item| {
            if let SseItem::Event(e) = item {
                changed.push((e.data.to_owned(), e.last_event_id.to_owned(), e.id_changed));
            }
        });
    };
    // A new id, one inherited, the same id again, an id-only block, a new id after it.
    feed(
        &mut p,
        "id: 1\ndata: a\n\ndata: b\n\nid: 1\ndata: c\n\nid: 2\n\n\ndata: d\n\n",
    );
    p.set_last_event_id("9");
    feed(&mut p, "data: e\n\nid: 9\ndata: f\n\n");
    let want = [
        ("a", "1", true),
        ("b", "1", false),
        ("c", "1", false),
        ("d", "2", true),
        ("e", "9", true),
        ("f", "9", false),
    ];
    let want: Vec<(String, String, bool)> = want
        .iter()
        .map(|(d, i, c)| (d.to_string(), i.to_string(), *c))
        .collect();
    assert_eq!(changed, want);
}
