//! Where an event came from: what the decoder and its fast paths label diagnostics with.

/// Where an event came from, for diagnostics.
#[derive(Debug, Clone, Copy, Default)]
pub struct EventContext<'s> {
    /// The SSE `event:` type (`"message"` when the stream did not set one).
    pub sse_type: &'s str,
    /// The SSE last event id at dispatch (empty when the stream has no ids).
    pub event_id: &'s str,
    /// 0-based position of the event in the stream.
    pub position: u64,
}
