//! The SSE parser fed arbitrary bytes in arbitrary chunks.
//!
//! Input: 3 header bytes, then the stream. `h0`/`h1` seed the chunk sizes (1..=64 bytes, or the
//! whole input when `h0 == 0`); `h2` selects the limits (high bit set: small limits, so the
//! too-long-line and too-large-event paths are reached).
//!
//! Invariants checked:
//! - no panic;
//! - the items (events and diagnostics), the final last event id and retry are the same
//!   whether the stream is fed in one chunk, byte by byte (short inputs) or in the chunks chosen;
//! - the parser never buffers more than its limits allow.
#![no_main]

use agentwire::sse::{SseConfig, SseItem, SseParser};
use agentwire_fuzz::{chunks, parse_all};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
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
    let whole = parse_all(config, &[stream]);
    let parts = chunks(stream, h0, h1);
    let chunked = parse_all(config, &parts);
    assert_eq!(whole, chunked, "chunking changed the parse");
    if stream.len() <= 256 {
        let bytes: Vec<&[u8]> = stream.chunks(1).collect();
        assert_eq!(
            whole,
            parse_all(config, &bytes),
            "byte-by-byte changed the parse"
        );
    }
    // Buffered bytes stay within the limits after every chunk: a partial line, the event data,
    // and the event type (decoded: an invalid byte becomes U+FFFD, 3 bytes).
    let mut p = SseParser::new(config);
    let bound = config
        .max_line_bytes
        .saturating_mul(4)
        .saturating_add(config.max_event_bytes)
        .saturating_add(8);
    for part in &parts {
        p.feed(part, &mut |item| {
            if let SseItem::Event(ev) = item {
                assert!(
                    ev.data.len() <= config.max_event_bytes,
                    "event over the limit"
                );
            }
        });
        assert!(
            p.buffered_bytes() <= bound,
            "buffered {} > {bound}",
            p.buffered_bytes()
        );
    }
});
