#!/usr/bin/env bash
# Records tests/recordings/scenario-*.sse from the scenario server (speed 0, fixed seeds, the
# same answers every time, so the bytes are reproducible) with a comment header saying what each
# covers, and writes each one's expected state (*.expected.json, pretty-printed like the others)
# from the CLI. The expectations were reviewed by hand when they were first recorded: after a
# re-record, review the diff of every expected file before committing it.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$HOME/.cargo/bin:$PATH"
# shellcheck source=scripts/lib/scenario-server.sh
. scripts/lib/scenario-server.sh

start_scenario_server || exit 1
cargo build -q --bin agentwire
mkdir -p target/recordings

# record NAME QUERY ANSWER CANCEL_AFTER HEADER
record() {
  local name=$1 query=$2 answer=$3 cancel=$4 header=$5
  local out=tests/recordings/$name.sse tmp=target/recordings/$name.sse
  node scripts/lib/record-run.mjs "$SCENARIO_URL" "$query" "$tmp.body" "$answer" "$cancel"
  { printf '%s\n' "$header" | sed 's/^/: /; s/ $//'
    printf ': recorded by scripts/record-scenarios.sh: GET /api/stream?%s\n\n' "$query"
    cat "$tmp.body"; } > "$tmp"
  mv "$tmp" "$out"
  target/debug/agentwire state "$out" \
    | node -e 'let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => console.log(JSON.stringify(JSON.parse(s), null, 1)))' \
    > "tests/recordings/$name.expected.json"
  echo "wrote $out ($(wc -c < "$out") bytes) and tests/recordings/$name.expected.json"
}

record scenario-main "scenario=main&seed=1&speed=0&run=main" approve "" \
"The demo scenario, clean: a root task with two interleaved sub-agents, one of which spawns a
sub-sub-agent and gets a tool-execution input answered by the coordinator (requireUser false,
providedBy agent); the approval (requireUser true) answered \"approve\" by the user; GitHub
OAuth completed by the user; report.md (6 utf-8 chunks), chart.png (base64), a data artifact
v1 -> v2, a 25-row dataset in 3 batches with schema; thoughts, tools with progress steps,
~150 content deltas with non-ASCII text. Expected: no diagnostics; every task completed; file
sizes and SHA-256 equal the bytes of the chunks (checked independently)."

record scenario-faults "scenario=main&seed=1&speed=0&run=faults&faults=shuffle%3D4,malformed,lose%3D40,lose%3D106,drop%3D96,dup%3D3" approve "" \
"The same run as scenario-main.sse (same seed, same answers), delivered badly:
  shuffle=4   chunk events (content-delta, file-write, dataset-write) permuted within windows of
              4 log positions (the dataset's final batch arrives before batch 1): reordered, the
              assembled state equals the clean run's.
  malformed   after event 1 \"{not json\", after event 3 the bytes FF FE (both invalid-json),
              after event 5 an event of kind future-kind (kept as unknown: no diagnostic), and
              after the first content-delta of each connection a copy of it with index \"seven\"
              (invalid-type, twice). None of them carries an id.
  lose=40     content-delta 3 of the sub-sub-agent never arrives: chunk-gap when its
              content-complete comes, then content-mismatch (the server's full text wins, so the
              text still equals the clean run's).
  lose=106    chunk 2 of report.md never arrives: chunk-gap when the task completes; the file
              keeps chunks 0, 1, 3, 4, 5 (640 of 768 bytes) and complete is false.
  drop=96     the first connection is cut inside event 96 (the partial event is discarded); the
  dup=3       client resumes with Last-Event-ID: 95 and the server re-sends 93..95 first: 3
              duplicates ignored by their SSE ids."

record scenario-cancel "scenario=cancel&seed=1&speed=0&run=cancel" approve 3 \
"The cancel scenario: a long tool and two crawling sub-agents; the client cancels the root task
after the third progress step (POST .../cancel). The server cancels the sub-tasks first, closes
the open tool with success:false, then cancels the root: every task canceled with reason
\"canceled by user\", the tool failed at progress 0.1. Expected: no diagnostics."

record scenario-failure "scenario=failure&seed=1&speed=0&run=failure" approve "" \
"The failure scenario: a tool fails after 3 retries, the task fails with metadata.reason and an
apology as its final content. Expected: no diagnostics; task failed, tool failed with retries 3."
