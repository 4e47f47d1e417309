//! agentwire: a browser SDK for AI-agent UIs, written in Rust and compiled to WebAssembly.
//!
//! Crate map (the pure core has no wasm imports and is tested natively):
//! - [`json`]: a small, linear, depth-limited JSON reader and writer (borrowed strings, no panics).
//! - [`sse`]: the WHATWG event-stream parser (push bytes, get events; bounded memory).
//! - [`events`]: canonical event types (protocol 000), decoding, per-event validation, diagnostics.
//! - [`dialects`]: the other protocols (A2A, A2A-ACP, Unified, MyAgent) decoded into canonical events, and
//!   the messages a client sends back in each.
//! - [`state`]: assembly into the client-side state (task tree, content, tools, requests, thoughts,
//!   artifacts), with its limits and snapshots.
//! - [`filter`]: event filters, applied before anything crosses into JavaScript.
//! - [`pipeline`]: bytes to parser to decoder to store, with SSE-id replay detection.
//! - [`client`]: the client's pure logic (backoff, response classification, endpoints, JSON Schema
//!   answer checks).
//! - `sorted` (private): sorting short string lists without the standard library's sort.
//! - `swar` (private): word-at-a-time byte scans (JSON strings, SSE line ends).
//! - `browser` (wasm32 only): the JavaScript-facing glue: transports, JS API, conversions, errors.
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod client;
pub mod dialects;
pub mod events;
pub mod filter;
mod hash;
pub mod json;
pub mod pipeline;
mod sorted;
pub mod sse;
pub mod state;
mod swar;

#[cfg(target_arch = "wasm32")]
pub mod browser;
