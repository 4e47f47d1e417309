//! Canonical events (protocol 000), their decoding and per-event validation, and diagnostics.
//!
//! - [`AgentEvent`]: the discriminated union over `kind`, one struct per kind ([`types`]).
//! - [`decode_event`]: JSON `data` of one SSE event → event + [`Diagnostic`]s. Never panics.
//! - [`Diagnostic`] / [`DiagCode`]: stable codes for everything invalid or inconsistent.

mod context;
pub mod decode;
mod diagnostic;
mod enums;
pub(crate) mod fast;
pub(crate) mod field;
mod macros;
pub mod redact;
pub mod timestamp;
pub mod types;
pub mod url;

pub use decode::{decode_entries, decode_event, decode_event_general, EventContext};
pub(crate) use diagnostic::floor_char_boundary;
pub use diagnostic::{
    bounded_field, bounded_raw, DiagCode, Diagnostic, Severity, MAX_FIELD_BYTES, MAX_RAW_BYTES,
};
pub use field::{Field, FieldSpec, JsonObject, Kind, Problem, Slot, Str, WriteField};
pub use redact::{Redactor, DEFAULT_REDACTED_KEYS};
pub use types::*;

#[cfg(test)]
mod tests;
