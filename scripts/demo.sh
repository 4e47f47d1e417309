#!/usr/bin/env bash
# README command 1. Until the demo web app lands (issue 5): installs what is missing, builds the
# npm package (printing its size report) and the CLI, then replays the bundled sample stream
# tests/recordings/quick.sse (recorded from the scenario server by scripts/record-sample.sh;
# tests/recordings/sample.sse while that recording does not exist yet) through `agentwire state`
# and prints a short summary of the assembled state: tasks, statuses, tools, artifacts, diagnostics.
set -euo pipefail
cd "$(dirname "$0")/.."
exec </dev/null
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$HOME/.cargo/bin:$PATH"

bash scripts/setup.sh
bash scripts/build-pkg.sh
cargo build -q --release --bin agentwire

recording=tests/recordings/quick.sse
if ! [ -f "$recording" ]; then
  echo "($recording not recorded yet: scripts/record-sample.sh makes it; using tests/recordings/sample.sse)"
  recording=tests/recordings/sample.sse
fi
echo
echo "Replaying $recording ($(wc -c < "$recording") bytes) through: target/release/agentwire state $recording"
echo
target/release/agentwire state "$recording" > target/demo-state.json
node - target/demo-state.json <<'EOF'
const st = JSON.parse(require("node:fs").readFileSync(process.argv[2], "utf8"));
const byId = new Map(st.tasks.map((t) => [t.id, t]));
const clip = (s, n = 60) => (s.length > n ? s.slice(0, n - 1) + "…" : s);
const show = (t, depth) => {
  const pad = "  ".repeat(depth);
  console.log(`${pad}task ${t.id} [${t.status}]${t.agentId ? " agent " + t.agentId : ""}: ${JSON.stringify(clip(t.content ?? ""))}` +
    `${t.contentComplete ? "" : " (incomplete)"}`);
  for (const tool of t.tools) console.log(`${pad}  tool ${tool.name} ${tool.state}${tool.progress != null ? " " + Math.round(tool.progress * 100) + "%" : ""}`);
  for (const i of t.inputs) console.log(`${pad}  input ${i.id} (${i.inputType}) ${i.state}: ${JSON.stringify(clip(i.prompt ?? ""))}`);
  for (const a of t.auths) console.log(`${pad}  auth ${a.id} ${a.state}`);
  if (t.thoughts.length) console.log(`${pad}  ${t.thoughts.length} thought(s)`);
  for (const c of t.children) if (byId.has(c)) show(byId.get(c), depth + 1);
};
const roots = st.tasks.filter((t) => !t.parentId || !byId.has(t.parentId));
const statuses = {};
for (const t of st.tasks) statuses[t.status] = (statuses[t.status] ?? 0) + 1;
console.log(`${st.tasks.length} task(s): ${Object.entries(statuses).map(([s, n]) => `${n} ${s}`).join(", ")}`);
for (const t of roots) show(t, 1);
console.log(`${st.artifacts.length} artifact(s):`);
for (const a of st.artifacts) {
  const detail = a.type === "file" ? `${a.mimeType ?? ""}, ${a.size} bytes, sha256 ${String(a.sha256).slice(0, 12)}…`
    : a.type === "data" ? `version ${a.version}` : `${a.rowCount} row(s)`;
  console.log(`  ${a.type} ${a.id}${a.name ? ' "' + a.name + '"' : ""}: ${detail}${a.complete === false ? " (incomplete)" : ""}`);
}
const sev = {};
for (const d of st.diagnostics) sev[d.severity] = (sev[d.severity] ?? 0) + 1;
console.log(`${st.diagnostics.length} diagnostic(s)${st.diagnostics.length ? ": " + Object.entries(sev).map(([s, n]) => `${n} ${s}`).join(", ") : ""}`);
for (const d of st.diagnostics.slice(0, 5)) console.log(`  ${d.severity} ${d.code}: ${d.message}`);
console.log(`${st.stats.eventsApplied} events applied, ${st.stats.duplicatesIgnored} duplicates ignored; full state: target/demo-state.json`);
EOF
