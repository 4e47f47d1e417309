#!/usr/bin/env bash
# Every dialect is a cargo feature, and so are the browser glue's Worker mode, WebSocket and
# EventSource transports (all on by default): checks that the builds a user can get compile
# without a warning (clippy -D warnings):
#   - host (the CLI and the pure core; the glue is wasm32-only): no dialect, each dialect alone;
#   - wasm32: no feature at all, and each entry's features (scripts/build-entry.sh --features:
#     core, a2a, acp, unified, myagent, ag-ui, ai-sdk, all).
# The default build (everything) is the one `cargo test` and clippy check. 16 builds, each a
# `cargo clippy` of the one crate (dependencies are shared).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$HOME/.cargo/bin:$PATH"
n=0
check() { # features target...
  local features=$1; shift
  # shellcheck disable=SC2086
  cargo clippy -q -p agentwire --lib --bins --no-default-features ${features:+--features $features} "$@" -- -D warnings
  n=$((n + 1))
}
for features in "" a2a acp unified myagent ag-ui ai-sdk; do check "$features"; done
check "" --target wasm32-unknown-unknown
while read -r entry features; do
  [ "$features" = default ] && continue
  check "$features" --target wasm32-unknown-unknown
done < <(bash scripts/build-entry.sh --features)
echo "feature builds ok: $n (host: no dialect and each alone; wasm32: no feature, each entry's features)"
