//! The global allocator of the wasm build: talc (`talc::wasm`, growing the linear memory on
//! demand) instead of the standard library's dlmalloc for wasm32.
//!
//! Why: dlmalloc's code is 7.0 KB raw (2.8 KB gzip) in every entry; talc's is 1.3 KB (0.7 KB
//! gzip), and its allocation and release are as fast on the bench's stream (medium preset fed
//! to `AgentStore` and `StreamDecoder` in V8: the same medians within the machine's noise).
//! A failed allocation still ends in `handle_alloc_error`, as with dlmalloc.

/// The allocator (single-threaded wasm: no atomics in this build).
#[global_allocator]
static ALLOC: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();
