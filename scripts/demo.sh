#!/usr/bin/env bash
# README command 1. Until the demo web app lands (issue 5), this installs what is missing,
# builds the npm package (with its size report) and the CLI, and replays the bundled sample
# stream through `agentwire state`, printing the assembled summary.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PWD/tools/node_modules/.bin:$PATH"
bash scripts/setup.sh
bash scripts/build-pkg.sh
cargo build -q --release --bin agentwire
echo
echo "Replaying tests/recordings/sample.sse through the agentwire CLI:"
target/release/agentwire state tests/recordings/sample.sse | node -e '
let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => {
  const st = JSON.parse(s);
  for (const t of st.tasks) console.log(`task ${t.id}${t.parentId ? " (child of " + t.parentId + ")" : ""}: ${t.status} — ${JSON.stringify(t.content)} [${t.tools.length} tools, ${t.inputs.length} inputs, ${t.thoughts.length} thoughts]`);
  for (const a of st.artifacts) console.log(`artifact ${a.id} (${a.type}) ${a.name ?? ""} ${a.type === "file" ? a.size + " bytes sha256 " + a.sha256 : a.type === "data" ? "version " + a.version : a.rowCount + " rows"}`);
  console.log(`diagnostics: ${st.diagnostics.length}`);
});'
