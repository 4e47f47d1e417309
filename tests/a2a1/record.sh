#!/usr/bin/env bash
# Re-records tests/recordings/a2a1/ from live official A2A v1.0 servers (JS @a2a-js/sdk 1.3.0 and
# Python a2a-sdk 1.3.0, both running tests/a2a1's test agent), then feeds every recording to the
# official JS client (tests/a2a1/official.mjs) and writes official.json next to it.
# Run from the repository root: bash tests/a2a1/record.sh [js|py]
set -euo pipefail
source scripts/lib/a2a1-servers.sh
A2A1_ARGS=(--delay 10)
only=${1:-}
[ "$only" = py ] || start_a2a1_js_server
[ "$only" = js ] || start_a2a1_py_server
node tests/a2a1/record.mjs ${A2A1_JS_URL:+--js "$A2A1_JS_URL"} ${A2A1_PY_URL:+--py "$A2A1_PY_URL"} \
  --out tests/recordings/a2a1 ${only:+--only "$only"}
node tests/a2a1/official.mjs tests/recordings/a2a1
du -sh tests/recordings/a2a1
