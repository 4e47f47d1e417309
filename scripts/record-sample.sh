#!/usr/bin/env bash
# Records the bundled sample stream tests/recordings/quick.sse from the scenario server
# (scenario=quick, seed=1, speed=0) and its expected assembled state quick.expected.json (from the
# CLI; tests/recordings.rs and scripts/smoke-node.mjs check every recording against it). Run once,
# and again only on purpose when the scenario changes; review the diff and commit both files.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$HOME/.cargo/bin:$PATH"
# shellcheck source=scripts/lib/scenario-server.sh
. scripts/lib/scenario-server.sh

out=tests/recordings/quick.sse
start_scenario_server || exit 1
url="$SCENARIO_URL/api/stream?scenario=quick&seed=1&speed=0"
echo "recording $url"
# node's fetch rather than curl (one tool fewer on a fresh machine); the stream must end by itself.
mkdir -p target
node --input-type=module - "$url" target/quick.sse.tmp <<'JS'
import { writeFileSync } from "node:fs";
const [url, out] = process.argv.slice(2);
const res = await fetch(url, { headers: { Accept: "text/event-stream" }, signal: AbortSignal.timeout(60_000) });
if (!res.ok) { console.error(`HTTP ${res.status} from ${url}`); process.exit(1); }
const body = Buffer.from(await res.arrayBuffer());
if (body.length === 0) { console.error("empty stream"); process.exit(1); }
writeFileSync(out, body);
JS
mv target/quick.sse.tmp "$out"
# Pretty-printed (one-space indent, like sample.expected.json) so that changes review as diffs.
cargo run -q --release --bin agentwire -- state "$out" \
  | node -e 'let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => console.log(JSON.stringify(JSON.parse(s), null, 1)))' \
  > tests/recordings/quick.expected.json
echo "wrote $out ($(wc -c < "$out") bytes) and tests/recordings/quick.expected.json"
