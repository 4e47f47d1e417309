// One protocol's entry (pkg/<entry>/, issue 23), loaded with no bundler in Chromium and run
// against the scenario server: its wasm loads itself from the URL its module computes, the API is
// `agentwire`'s (without Worker mode), its protocol runs to the end, and a protocol it was built
// without is refused. Driven by tests/entries/run.mjs, one page per entry (?entry=NAME).
const entry = new URLSearchParams(location.search).get("entry");
const WS = `ws://${location.host}`;

// What each entry's protocol runs (the scenario server's `quick` scenario in that dialect), and a
// dialect the entry was built without.
const runs = {
  core: { options: { url: "/api/stream?scenario=quick&seed=7&speed=0" }, dialect: "canonical", other: { dialect: "ag-ui", url: "/x" } },
  a2a: { options: { a2aVersion: "0.3", url: "/api/a2a?scenario=quick&seed=7&speed=0", message: "go" }, dialect: "a2a", other: { dialect: "ai-sdk", url: "/x" } },
  acp: { options: { url: "/api/stream?dialect=acp&scenario=quick&seed=7&speed=0", dialect: "acp" }, dialect: "acp", other: { dialect: "a2a", url: "/x" } },
  unified: { options: { url: "/api/stream?dialect=unified&scenario=quick&seed=7&speed=0", dialect: "unified" }, dialect: "unified", other: { dialect: "acp", url: "/x" } },
  myagent: { options: { url: `${WS}/api/myagent/ws?scenario=quick&seed=7&speed=0&start=connect`, transport: "websocket", dialect: "myagent" }, dialect: "myagent", other: { dialect: "unified", url: "/x" } },
  "ag-ui": { options: { url: "/api/ag-ui?speed=0&seed=7&scenario=quick", agUi: { threadId: "entries", messages: [{ id: "u1", role: "user", content: "Quick, please" }] } }, dialect: "ag-ui", other: { dialect: "myagent", url: "ws://x" } },
  "ai-sdk": { options: { url: "/api/ai-sdk/chat?scenario=quick&speed=0", aiSdk: { chatId: "entries" }, message: "Quick, please" }, dialect: "ai-sdk", other: { dialect: "ag-ui", url: "/x" } },
};

function assert(cond, what) { if (!cond) throw new Error(what); }
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
async function until(pred, what, ms = 20_000) {
  const t0 = performance.now();
  while (!pred()) {
    if (performance.now() - t0 > ms) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

async function main() {
  const r = runs[entry];
  assert(r, `unknown entry ${entry}`);
  const t0 = performance.now();
  const aw = await import(`/pkg/${entry}/index.js`);
  const startupMs = performance.now() - t0;
  const lines = [];
  // The same API as `agentwire`, without Worker mode.
  for (const name of ["AgentClient", "AgentStore", "StreamDecoder", "AgentwireError", "EventStream"]) {
    assert(typeof aw[name] === "function", `exports ${name}`);
  }
  assert(!("WorkerClient" in aw), "Worker mode is not in a protocol's entry");
  // The wasm is ready once the import resolved: a store feeds at once.
  const store = new aw.AgentStore();
  store.feedText('event: task-created\ndata: {"kind":"task-created","contextId":"c","taskId":"t","initiator":"user","timestamp":"2025-11-06T10:30:00.000Z"}\n\n');
  store.finish();
  assert(store.getSnapshot().roots.length === 1, `a store fed right after the import has the task (${JSON.stringify(store.diagnostics())})`);
  store.close();
  // Its protocol, end to end against the scenario server.
  const client = new aw.AgentClient({ reconnect: false, ...r.options });
  client.start();
  await until(() => ["completed", "failed", "canceled"].includes(client.getSnapshot().roots[0]?.status), "the run's end");
  const root = client.getSnapshot().roots[0];
  assert(root.status === "completed", `the run completed (${root.status}; connection ${client.connection.state}: ${client.connection.reason})`);
  assert(client.dialect === r.dialect, `dialect ${client.dialect}, expected ${r.dialect}`);
  const diags = client.store.diagnostics().filter((d) => d.severity === "error");
  assert(diags.length === 0, `no error diagnostics: ${JSON.stringify(diags.slice(0, 3))}`);
  lines.push(`${root.content.length} chars of answer, ${root.children.length} subtasks`);
  client.close();
  // A protocol this entry was built without is refused, as an AgentwireError.
  let refused = null;
  try { new aw.AgentClient(r.other).start(); } catch (e) { refused = e; }
  assert(refused instanceof aw.AgentwireError, `dialect ${r.other.dialect} refused with an AgentwireError (got ${refused})`);
  lines.push(`${r.other.dialect} refused: ${refused.code}`);
  return { ok: true, detail: `${lines.join("; ")}; import ${startupMs.toFixed(1)} ms` };
}

window.__result = main().catch((e) => ({ ok: false, error: String((e && e.stack) || e) + (e && e.code ? ` [code ${e.code}]` : "") }));
