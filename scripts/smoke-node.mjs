// Smoke test of the BUILT package in Node (no browser): loads Node's entry (pkg/agentwire-node.js:
// the TypeScript layer over the web glue, initSync with the wasm read from disk),
// decodes SSE bytes with StreamDecoder at every split point, and assembles every recording in
// tests/recordings/ with AgentStore at several chunk sizes: the state must equal the recording's
// *.expected.json (what the native build produces), so the shipped wasm is checked against it.
// Skips (exit 0, printing SKIPPED) when the glue does not export StreamDecoder/AgentStore;
// scripts/test.sh shows the step as SKIPPED (a failure under CI=true).
//   node scripts/smoke-node.mjs
import assert from "node:assert/strict";
import { readFileSync, readdirSync, existsSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import path from "node:path";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const aw = await import(pathToFileURL(path.join(root, "pkg/agentwire-node.js")).href);
if (typeof aw.StreamDecoder !== "function" || typeof aw.AgentStore !== "function") {
  console.log("node smoke test SKIPPED: pkg does not export StreamDecoder and AgentStore");
  process.exit(0);
}

let checks = 0;
const check = (name, fn) => {
  try { fn(); checks++; } catch (e) { console.error(`node smoke: FAILED ${name}`); throw e; }
};
const ev = (id, kind, extra) => `id: ${id}\nevent: ${kind}\ndata: ${JSON.stringify({
  kind, contextId: "c", taskId: "t", timestamp: "2025-11-06T10:30:00Z", ...extra })}\n\n`;
const stream = ev(0, "task-created", { initiator: "user" })
  + ev(1, "tool-start", { toolCallId: "x", toolName: "search", arguments: {} })
  + ev(2, "tool-progress", { toolCallId: "x", progress: 0.5 })
  + ev(3, "content-delta", { delta: "Hé🙂", index: 0 })
  + "data: {not json\n\n";
const bytes = new TextEncoder().encode(stream);
const summary = (items) => items.map((i) => ("event" in i ? i.event.kind : `diag:${i.diagnostic.code}`)).join(",");

check("StreamDecoder gives the same items at every split point", () => {
  const whole = new aw.StreamDecoder({});
  const expected = summary(whole.feed(bytes));
  whole.free();
  assert.equal(expected, "task-created,tool-start,tool-progress,content-delta,diag:invalid-json");
  for (let at = 0; at <= bytes.length; at++) {
    const d = new aw.StreamDecoder({});
    assert.equal(summary([...d.feed(bytes.subarray(0, at)), ...d.feed(bytes.subarray(at))]), expected, `split ${at}`);
    assert.equal(d.lastEventId, "3");
    d.free();
  }
});

check("StreamDecoder keeps multi-byte text split inside a character", () => {
  const d = new aw.StreamDecoder({});
  const at = bytes.indexOf(0xf0) + 2; // inside the 4-byte emoji
  const items = [...d.feed(bytes.subarray(0, at)), ...d.feed(bytes.subarray(at))];
  assert.equal(items.find((i) => i.event?.kind === "content-delta").event.delta, "Hé🙂");
  d.free();
});

check("AgentStore: snapshots, typed handlers, subscribe/unsubscribe, close", () => {
  const store = new aw.AgentStore({});
  let notified = 0, progress = [];
  const unsubscribe = store.subscribe(() => notified++);
  const off = store.on("tool-progress", (e) => progress.push(e.progress));
  store.feed(bytes);
  const snap = store.getSnapshot();
  assert.equal(snap.tasks.length, 1);
  assert.equal(snap.tasks[0].content, "Hé🙂");
  assert.equal(snap.tasks[0].tools[0].progress, 0.5);
  assert.deepEqual(progress, [0.5]);
  assert.ok(notified > 0);
  assert.equal(snap.diagnostics.length, 1);
  assert.equal(snap.diagnostics[0].code, "invalid-json");
  assert.equal(store.getSnapshot(), snap, "same snapshot object while nothing changed");
  assert.equal(store.lastEventId, "3");
  off(); unsubscribe();
  assert.equal(store.listenerCount, 0);
  store.close();
  assert.throws(() => store.feedText("\n"), (e) => e instanceof aw.AgentwireError && e.code === "closed");
});

const recDir = path.join(root, "tests/recordings");
const recordings = readdirSync(recDir).filter((f) => f.endsWith(".sse") && existsSync(path.join(recDir, f.replace(/\.sse$/, ".expected.json"))));
assert.ok(recordings.length > 0, "no recordings with expected state");
for (const file of recordings) {
  const rec = readFileSync(path.join(recDir, file));
  const expected = JSON.parse(readFileSync(path.join(recDir, file.replace(/\.sse$/, ".expected.json")), "utf8"));
  for (const chunk of [1, 7, 64, 4096, rec.length]) {
    check(`${file} at chunk size ${chunk} equals the native state`, () => {
      const store = new aw.AgentStore({});
      for (let i = 0; i < rec.length; i += chunk) store.feed(rec.subarray(i, i + chunk));
      store.finish();
      assert.deepStrictEqual(JSON.parse(store.stateJson()), expected);
      store.close();
    });
  }
}

check("unbound methods and typed errors", () => {
  const store = new aw.AgentStore({ limits: { maxTasks: 10 } });
  const { feed, getSnapshot, subscribe } = store;
  let n = 0;
  const off = subscribe(() => n++);
  feed(bytes);
  assert.equal(getSnapshot().tasks.length, 1);
  assert.ok(n > 0);
  off();
  assert.throws(() => new aw.AgentStore({ maxTasks: 10 }), (e) => e instanceof aw.AgentwireError && e.code === "invalid-argument");
  assert.throws(() => store.task(42), (e) => e instanceof aw.AgentwireError && e.code === "invalid-argument");
});

// Each protocol's entry in Node (its "node" condition, pkg/<entry>/node.js: the wasm read from
// disk before the entry's loader, whose fetch cannot read a file: URL): the same stream assembled.
for (const entry of ["core", "a2a", "acp", "unified", "myagent", "ag-ui", "ai-sdk"]) {
  const mod = await import(pathToFileURL(path.join(root, `pkg/${entry}/node.js`)).href);
  check(`agentwire/${entry} in Node`, () => {
    const store = new mod.AgentStore({});
    store.feed(bytes);
    assert.equal(store.getSnapshot().tasks.length, 1);
  });
}

console.log(`node smoke test ok: ${checks} checks passed (pkg/agentwire-node.js; ${recordings.join(", ")})`);
