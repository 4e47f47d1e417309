//! Helpers shared by the fuzz targets (chunking, owned parse results, the structured event
//! generator of the `store` target).

pub mod gen;

use agentwire::sse::{SseConfig, SseItem, SseParser};

/// An SSE item detached from the parser's buffers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OwnedItem {
    /// (type, data, last event id)
    Event(String, String, String),
    /// The diagnostic code.
    Diagnostic(&'static str),
}

/// Everything a parse produced: the items, then the final last event id and retry.
pub type Owned = (Vec<OwnedItem>, String, Option<u64>);

/// Parses `parts` in order with a fresh parser.
pub fn parse_all(config: SseConfig, parts: &[&[u8]]) -> Owned {
    let mut p = SseParser::new(config);
    let mut items = Vec::new();
    for part in parts {
        p.feed(part, &mut |item| {
            items.push(match item {
                SseItem::Event(e) => OwnedItem::Event(
                    e.event_type.to_owned(),
                    e.data.to_owned(),
                    e.last_event_id.to_owned(),
                ),
                SseItem::Diagnostic(d) => OwnedItem::Diagnostic(d.code()),
            })
        });
    }
    (items, p.last_event_id().to_owned(), p.retry())
}

/// Splits `bytes` into chunks whose sizes (1..=64) follow a xorshift sequence seeded by
/// `a`, `b`; `a == 0` gives one chunk.
pub fn chunks(bytes: &[u8], a: u8, b: u8) -> Vec<&[u8]> {
    if a == 0 {
        return vec![bytes];
    }
    let mut state = u32::from(a) << 8 | u32::from(b) | 0x1_0000;
    let max = u32::from(a % 64) + 1;
    let mut out = Vec::new();
    let mut rest = bytes;
    while !rest.is_empty() {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        let n = ((state % max) + 1) as usize;
        let (head, tail) = rest.split_at(n.min(rest.len()));
        out.push(head);
        rest = tail;
    }
    out
}
