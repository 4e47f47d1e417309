//! Native throughput of the core on a generated protocol-000 stream (realistic mix: mostly
//! short content-delta tokens, plus tools, thoughts, artifacts, internal events).
//! `cargo bench --bench throughput` prints MB/s (bytes) and events/s (items).

#[cfg(not(target_arch = "wasm32"))]
include!("throughput_native.rs");

#[cfg(target_arch = "wasm32")]
fn main() {}
