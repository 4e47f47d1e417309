#!/usr/bin/env bash
# The demo end to end: builds it (scripts/demo.sh --build-only: package, npm ci, tsc, vite build,
# scenario server), checks that the app never hands agent text to an HTML parser, serves
# www-demo/dist/ from the scenario server (strict CSP) on a free port, and runs
# tests/demo/demo.test.mjs in headless Chromium. Screenshots: target/demo-screenshots/.
# Exits non-zero on any failure. Extra argument: a test-name filter.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$HOME/.cargo/bin:$PATH"

# What someone who wants to see the demo reads (issue 21): no cargo-fuzz (the demo does not fuzz)
# and no size guard figures, one line with the package's size.
built=$(bash scripts/demo.sh --build-only 2>&1) || { printf '%s\n' "$built" >&2; exit 1; }
printf '%s\n' "$built"
grep -q "cargo-fuzz: not needed here" <<<"$built" \
  || { echo "error: scripts/demo.sh checks or installs cargo-fuzz, which the demo does not use" >&2; exit 1; }
if grep -qiE "budget|target [0-9,]+ B" <<<"$built"; then
  echo "error: scripts/demo.sh prints the size guard's budget (meaningless for a demo)" >&2; exit 1
fi
grep -q "package size: " <<<"$built" || { echo "error: scripts/demo.sh does not say the package's size" >&2; exit 1; }

# Agent output reaches the DOM as text only: no HTML sinks in the app's code.
# (Comment lines are skipped: dom.ts names the sinks it avoids.)
if grep -rnE '\.(innerHTML|outerHTML)\b|insertAdjacentHTML|document\.write|createContextualFragment|srcdoc|DOMParser' www-demo/src \
   | grep -vE '^[^:]+:[0-9]+:[[:space:]]*(//|\*)'; then
  echo "error: an HTML sink in www-demo/src (agent text must go into the page as text)" >&2
  exit 1
fi

SCENARIO_ARGS=(--static www-demo/dist)
# shellcheck source=scripts/lib/scenario-server.sh
. scripts/lib/scenario-server.sh
start_scenario_server || exit 1
echo "demo served at $SCENARIO_URL/"
node tests/demo/demo.test.mjs "$SCENARIO_URL" "${1:-}"
