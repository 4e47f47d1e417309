//! The golden-file convention shared by the golden tests (`tests/recordings.rs`,
//! `tests/dialects.rs`, `tests/ts_decl.rs`).
//!
//! A golden file is the reviewed output for one input, committed next to it (or under
//! `tests/snapshots/` when the input is the code itself). A test compares what the code gives
//! now with it; after a change whose new output was reviewed, the same test rewrites it when run
//! with `UPDATE_GOLDEN=1` (the old names `UPDATE_EXPECTED` and `UPDATE_SNAPSHOTS` still work),
//! then read the diff before committing:
//!
//! ```text
//! UPDATE_GOLDEN=1 cargo test --test recordings   # or dialects, ts_decl
//! git diff tests/
//! ```

/// `true` when the golden files are to be rewritten (`UPDATE_GOLDEN` set to anything but `0`
/// or empty, or one of its old names).
pub fn updating() -> bool {
    ["UPDATE_GOLDEN", "UPDATE_EXPECTED", "UPDATE_SNAPSHOTS"]
        .iter()
        .filter_map(std::env::var_os)
        .any(|v| !v.is_empty() && v != "0")
}

/// What to run to rewrite the golden files of test target `target`.
pub fn hint(target: &str) -> String {
    format!("review the change, then run UPDATE_GOLDEN=1 cargo test --test {target}")
}
