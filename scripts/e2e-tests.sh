#!/usr/bin/env bash
# Browser client tests from JavaScript: stages the built package (pkg/web) and tests/e2e/ into
# target/e2e-www/, starts the scenario server serving it (same origin as the API, under the
# server's strict CSP), and runs tests/e2e/run.mjs with playwright-core + /usr/bin/chromium.
# Needs scripts/build-pkg.sh to have run. Tests: client.test.js, hostile.test.js (faults) and the
# short soak of soak.test.js. Arguments: a test-name filter; `--bench` runs the transport
# throughput benchmark (tests/e2e/transport.bench.js) instead; `--soak` the long soak
# (soak.test.js longTests: 1,000,000 events, 1,000 connect/close cycles; several minutes).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$HOME/.cargo/bin:$PATH"
[ -f pkg/web/agentwire.js ] || { echo "pkg/web missing: run scripts/build-pkg.sh" >&2; exit 1; }
www=target/e2e-www
rm -rf "$www" && mkdir -p "$www/pkg" "$www/e2e"
cp -r pkg/web/. "$www/pkg/"   # the glue, the wasm and the glue's snippets/
cp tests/e2e/index.html tests/e2e/*.js "$www/e2e/"
# The panic-hook test build (cargo feature test-panic, never shipped) for hostile.test.js panic_*:
# release profile like pkg/, in its own target dir so the package's wasm is never touched.
if [[ " $* " != *" --bench "* ]]; then
  cargo rustc -q -p agentwire --lib --release --target wasm32-unknown-unknown --crate-type cdylib \
    --features test-panic --target-dir target/test-panic
  # The package's TypeScript layer over the test build's glue (its raw/ beside it, as in pkg/web).
  wasm-bindgen --target web --out-dir "$www/pkg-panic/raw" --out-name agentwire \
    target/test-panic/wasm32-unknown-unknown/release/agentwire.wasm
  cp pkg/web/agentwire.js "$www/pkg-panic/agentwire.js"
fi
# Fresh module instances (hostile.test.js, soak.test.js): the layer imports its glue by a
# relative URL, so a fresh instance is the package under another path: /fresh/pkg/N/ and
# /fresh/panic/N/ are links to the staged builds.
mkdir -p "$www/fresh/pkg" "$www/fresh/panic"
for n in $(seq 1 64); do
  ln -s ../../pkg "$www/fresh/pkg/$n"
  ln -s ../../pkg-panic "$www/fresh/panic/$n"
done
# The README's quick start, run as is (only the package specifier points at the staged build).
awk '/<!-- quickstart/{f=1;next} f&&/^```ts/{c=1;next} c&&/^```/{exit} c{print}' README.md \
  | sed 's|from "agentwire"|from "/pkg/agentwire.js"|' > "$www/e2e/readme-quickstart.js"
[ -s "$www/e2e/readme-quickstart.js" ] || { echo "no quick start block in README.md" >&2; exit 1; }
SCENARIO_ARGS=(--static "$www")
# shellcheck source=scripts/lib/scenario-server.sh
. scripts/lib/scenario-server.sh
start_scenario_server || exit 1
# The A2A agent on the official @a2a-js/sdk (tests/a2a-sdk) for tests/e2e/dialects.test.js: its
# JSON-RPC URL reaches the page through e2e/env.js.
# The official A2A v1.0 servers (tests/a2a1: @a2a-js/sdk 1.3.0 and the Python a2a-sdk 1.3.0, each
# serving JSON-RPC and HTTP+JSON) for tests/e2e/a2a1.test.js; they install what they miss.
a2a_rpc="" a2a1_js="" a2a1_py="" ag_ui="" ai_sdk=""
if [[ " $* " != *" --bench "* ]]; then
  # shellcheck source=scripts/lib/a2a-sdk-server.sh
  . scripts/lib/a2a-sdk-server.sh
  start_a2a_sdk_server || exit 1
  a2a_rpc=$A2A_SDK_RPC_URL
  # shellcheck source=scripts/lib/a2a1-servers.sh
  . scripts/lib/a2a1-servers.sh
  start_a2a1_js_server || exit 1
  start_a2a1_py_server || exit 1
  a2a1_js=$A2A1_JS_URL a2a1_py=$A2A1_PY_URL
  # The AG-UI agent on the official @ag-ui/encoder (tests/ag-ui/server.mjs) for
  # tests/e2e/ag_ui.test.js.
  # shellcheck source=scripts/lib/ag-ui-server.sh
  . scripts/lib/ag-ui-server.sh
  start_ag_ui_server || exit 1
  ag_ui=$AG_UI_URL
  # The AI SDK chat backend on the official ai@7.0.173 (tests/ai-sdk/server.mjs) for
  # tests/e2e/ai_sdk.test.js (short slow answers for the resume and stop tests).
  # shellcheck source=scripts/lib/ai-sdk-server.sh
  . scripts/lib/ai-sdk-server.sh
  AI_SDK_ARGS=(--slow-ms 40 --slow-count 30)
  start_ai_sdk_server || exit 1
  ai_sdk=$AI_SDK_URL
fi
printf 'export const env = { a2aSdkUrl: "%s", a2a1JsUrl: "%s", a2a1PyUrl: "%s", agUiUrl: "%s", aiSdkUrl: "%s" };\n' \
  "$a2a_rpc" "$a2a1_js" "$a2a1_py" "$ag_ui" "$ai_sdk" > "$www/e2e/env.js"
node tests/e2e/run.mjs "$SCENARIO_URL" "$@"
