#!/usr/bin/env bash
# The package's protocol entries (agentwire/core, /a2a, /acp, /unified, /myagent, /ag-ui,
# /ai-sdk: issue 23) in headless Chromium with no bundler: each page imports one entry from the
# staged package and runs its protocol against the scenario server (tests/entries/); then every
# entry (agentwire itself with WorkerClient, and agentwire/react too) built with no bundler
# settings by Vite 8 (dev, build), webpack 5 and Next.js 16 (scripts/entries-bundlers.mjs).
#   bash scripts/entries-e2e.sh [entry...]
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$HOME/.cargo/bin:$PATH"
[ -f pkg/core/index.js ] || { echo "pkg/core missing: run scripts/build-pkg.sh" >&2; exit 1; }
www=target/entries-www
rm -rf "$www" && mkdir -p "$www/entries"
cp -r pkg "$www/pkg"
cp tests/entries/index.html tests/entries/entries.test.js "$www/entries/"
SCENARIO_ARGS=(--static "$www")
. scripts/lib/scenario-server.sh
start_scenario_server || exit 1
node tests/entries/run.mjs "$SCENARIO_URL" "$@"
[ $# -gt 0 ] || node scripts/entries-bundlers.mjs
