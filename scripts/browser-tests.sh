#!/usr/bin/env bash
# Browser tests: starts the scenario agent server on a free port, passes its URL to the wasm
# tests at compile time (AGENTWIRE_TEST_SERVER), runs wasm-bindgen-test in headless Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
cargo build -q -p agentwire-scenario
log=$(mktemp)
target/debug/agentwire-scenario --port 0 > "$log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true; rm -f "$log"' EXIT
for _ in $(seq 1 100); do grep -q "listening on" "$log" && break; sleep 0.1; done
url=$(grep -o 'http://127.0.0.1:[0-9]*' "$log" | head -1)
[ -n "$url" ] || { echo "scenario server did not start:"; cat "$log"; exit 1; }
echo "scenario server at $url"
AGENTWIRE_TEST_SERVER="$url" CHROMEDRIVER=/usr/bin/chromedriver \
  WASM_BINDGEN_TEST_WEBDRIVER_JSON="$PWD/webdriver.json" \
  CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
  cargo test -p agentwire --target wasm32-unknown-unknown --test browser
