#!/usr/bin/env bash
# Every dialect is a cargo feature (on by default): checks that a build with none of them, and
# one with each alone, compiles without a warning, for the host (the CLI and the pure core) and
# for wasm32 (the browser glue). `cargo test` covers the default build (every dialect).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$HOME/.cargo/bin:$PATH"
n=0
for features in "" a2a acp unified myagent ag-ui ai-sdk; do
  for target in "" "--target wasm32-unknown-unknown"; do
    # shellcheck disable=SC2086
    cargo clippy -q -p agentwire --lib --bins --no-default-features ${features:+--features $features} $target -- -D warnings
    n=$((n + 1))
  done
done
echo "feature builds ok: $n (no dialect, and each of a2a, acp, unified, myagent, ag-ui, ai-sdk alone; host and wasm32)"
