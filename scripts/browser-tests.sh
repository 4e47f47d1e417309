#!/usr/bin/env bash
# Browser tests: wasm-bindgen-test in headless Chromium (tests/browser*.rs, run_in_browser).
# Starts the scenario agent server (package agentwire-scenario, scenario-server/) on a free port,
# reads "agentwire-scenario listening on http://127.0.0.1:PORT" from its stdout, hands that URL to
# the wasm tests at compile time (AGENTWIRE_TEST_SERVER, read with option_env!), runs every
# wasm32 test target of the crate through wasm-bindgen-test-runner + chromedriver (flags in
# webdriver.json), and stops the server on exit. With AGENTWIRE_TEST_SERVER already set, uses
# that server instead of starting one. Extra arguments go to `cargo test` (e.g. `--test browser`).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$HOME/.cargo/bin:$PATH"
log() { printf '[browser-tests] %s\n' "$*"; }
die() { printf '[browser-tests] error: %s\n' "$*" >&2; exit 1; }

command -v wasm-bindgen-test-runner >/dev/null || die "wasm-bindgen-test-runner missing: run scripts/setup.sh"
[ -x /usr/bin/chromedriver ] || die "/usr/bin/chromedriver missing: run scripts/setup.sh"

# shellcheck source=scripts/lib/scenario-server.sh
. scripts/lib/scenario-server.sh
if [ -z "${AGENTWIRE_TEST_SERVER:-}" ]; then
  start_scenario_server || die "no scenario server: add scenario-server/ to the workspace, or point AGENTWIRE_TEST_SERVER at a running one"
  export AGENTWIRE_TEST_SERVER="$SCENARIO_URL"
  log "scenario server at $SCENARIO_URL (pid $scenario_pid)"
else
  log "using the scenario server at $AGENTWIRE_TEST_SERVER"
fi

# The URL is compiled into the tests, so the browser test crate recompiles when the port changes.
export CHROMEDRIVER=/usr/bin/chromedriver
export WASM_BINDGEN_TEST_WEBDRIVER_JSON="$PWD/webdriver.json"
export WASM_BINDGEN_TEST_TIMEOUT="${WASM_BINDGEN_TEST_TIMEOUT:-120}"
export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner
cargo test -p agentwire --target wasm32-unknown-unknown "$@"
