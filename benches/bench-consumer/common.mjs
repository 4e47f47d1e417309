// Shared by the agentwire plug-in consumers of the browser benchmark harness
// (../../../shared/bench, see its README "Plug-in consumers"; run them with scripts/bench.sh).
//
// Uses the built npm package exactly as an app would (built by scripts/build-pkg.sh: release,
// LTO, wasm-opt -Oz): package.mjs, the full package through pkg/web (the `agentwire/web` entry;
// the harness bundles each consumer module with esbuild, the `.wasm` import becomes a Uint8Array,
// instantiated once in the untimed init()), or, staged by `scripts/bench.sh --entries`,
// package-entry.mjs: one protocol's entry (`agentwire/core`, ...), whose loader instantiates its
// wasm from its URL when the consumer's module is imported. Each consumer module is bundled
// separately, so each mode has its own wasm instance and memory.
import { AgentStore, AgentClient, WorkerClient, entry, instantiate } from './package.mjs';

export { AgentClient, WorkerClient };

let memory = null;

/** Instantiates the wasm module (untimed: called from the consumer's init()). */
export async function init() {
  if (!memory) memory = await instantiate();
  stats.memoryAfterInit = memory.buffer.byteLength;
}

/** A consumer's name: `agentwire-snapshot` on the full package, `agentwire-snapshot@core` on an entry. */
export const consumerName = (base) => (entry ? `${base}@${entry}` : base);

/** Linear-memory figures for benches/bench-consumer/probe.mjs (read after a run). */
export const stats = { memoryAfterInit: 0, memoryBeforeRun: 0, memoryAfterRun: 0, feedMs: 0, finishMs: 0, summaryMs: 0, delivered: 0 };
export const wasmMemoryBytes = () => (memory ? memory.buffer.byteLength : 0);

/**
 * The harness Summary, read from the assembled state: one getSnapshot() at the end of the stream
 * (tasks with their answer text; artifacts with the sha256/size the store computed for files,
 * rowCount for datasets, version for data). Every diagnostic, warning or error, counts as an
 * error: the generated stream is valid, so any diagnostic means agentwire disagreed with it.
 */
export function summaryOf(store, extra) {
  const t = now();
  const snap = store.getSnapshot(); // an AgentStore, AgentClient or WorkerClient
  performance.measure('aw:getSnapshot', { start: t }); // (for longtasks.mjs)
  const tasks = new Map();
  for (const t of snap.tasks) tasks.set(t.id, { parent: t.parentId ?? null, status: t.status, content: t.content });
  const files = new Map();
  const datasets = new Map();
  const data = new Map();
  for (const a of snap.artifacts) {
    if (a.type === 'file') files.set(a.id, { sha256: a.sha256, size: a.size });
    else if (a.type === 'dataset') datasets.set(a.id, { rows: a.rowCount });
    else if (a.type === 'data') data.set(a.id, { version: a.version });
  }
  const d = snap.diagnostics;
  const firstError = d.length ? `${d[0].severity} ${d[0].code} at event ${d[0].position}: ${d[0].message}` : null;
  return { errors: d.length, firstError, tasks, files, datasets, data, ...extra };
}

const now = () => performance.now();

/**
 * A harness consumer around one AgentStore. `subscribe(store)` registers the mode's handlers
 * (returns a function giving the extra Summary fields, e.g. the delivered event count).
 * Stats (time inside feed/finish/summary, linear memory) are kept for the probe; the two
 * performance.now() calls per chunk cost well under 0.1 ms per run.
 */
export function makeConsumer(subscribe) {
  stats.memoryBeforeRun = wasmMemoryBytes();
  stats.feedMs = 0;
  const store = new AgentStore({});
  // As a UI does when it mounts: read the (empty) snapshot once. From then on the store builds
  // the objects of finished tasks as they finish, so the read at the end is incremental.
  store.getSnapshot();
  const extra = subscribe ? subscribe(store) : () => ({});
  return {
    push(chunk) {
      const t = now();
      store.feed(chunk);
      const d = now() - t;
      if (d > 20) performance.measure('aw:feed', { start: t, duration: d }); // (for longtasks.mjs)
      stats.feedMs += d;
    },
    finish() {
      let t = now();
      store.finish();
      stats.finishMs = now() - t;
      t = now();
      const s = summaryOf(store, extra());
      stats.summaryMs = now() - t;
      stats.memoryAfterRun = wasmMemoryBytes();
      store.free(); // explicit, as an app would on unmount; the next run reuses the memory
      return s;
    },
  };
}

/** Resolves when the client's connection is closed or failed. */
export function ended(client) {
  return new Promise((resolve) => {
    const done = (c) => c.state === 'closed' || c.state === 'failed';
    if (done(client.connection)) return resolve(client.connection);
    client.onConnectionChange((c) => { if (done(c)) resolve(c); });
  });
}
