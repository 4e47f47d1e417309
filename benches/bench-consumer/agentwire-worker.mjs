// agentwire Worker mode (`WorkerClient`): transport, parsing, validation and assembly in a
// module Worker; the page keeps the mirror the Worker updates once per frame and reads the
// summary from getSnapshot() at the end. mem path: the harness's chunks are copied to the Worker
// (`transport: "manual"`, feed/finish); net path: the Worker fetches the stream itself.
// The Worker (its wasm compiled) is started untimed, one ahead: run N uses the Worker started
// after run N-1. scripts/bench.sh stages this folder with pkg/web as ./pkg/ (the Worker entry
// and its wasm are served from there).
import { init as initWasm, stats, wasmMemoryBytes, summaryOf, ended, WorkerClient } from './common.mjs';

export const name = 'agentwire-worker';
export const input = 'native';
export const level = 'full';
export { stats, wasmMemoryBytes };

// For longtasks.mjs: a batch from the Worker that takes the page over 20 ms to apply is recorded
// like a long feed() call (`apply` is the page-side WorkerClient's internal batch handler; the
// wrapper only times it).
const applyBatch = WorkerClient.prototype.apply;
if (typeof applyBatch === 'function') {
  WorkerClient.prototype.apply = function (m) {
    const t = performance.now();
    applyBatch.call(this, m);
    const d = performance.now() - t;
    if (d > 20) performance.measure(`aw:batch of ${m && m.b ? m.b.byteLength : 0} B`, { start: t, duration: d });
  };
}

const WORKER_URL = new URL('./pkg/agentwire-worker.js', import.meta.url);
let next = null;

/** A started Worker whose wasm is ready (it says `ready` first). */
function spawn() {
  const w = new Worker(WORKER_URL, { type: 'module' });
  const ready = new Promise((resolve, reject) => {
    w.addEventListener('message', (e) => { if (e.data && e.data.t === 'ready') resolve(); }, { once: true });
    w.addEventListener('error', (e) => reject(new Error(`worker: ${e.message}`)), { once: true });
  });
  return { w, ready };
}

export async function init() {
  await initWasm();
  next = spawn();
  await next.ready;
}

function take() {
  const { w } = next;
  next = spawn(); // for the next run; compiles in the Worker's thread meanwhile
  return w;
}

export function createConsumer(subscribe) {
  const client = new WorkerClient({ transport: 'manual', worker: take() });
  const extra = subscribe ? subscribe(client) : () => ({});
  return {
    push(chunk) { client.feed(chunk); },
    async finish() {
      await client.finish();
      const s = summaryOf(client, extra());
      client.close();
      return s;
    },
  };
}

export async function consumeUrl(url, subscribe) {
  const client = new WorkerClient({ url: new URL(url, location.href).href, reconnect: false, worker: take() });
  const extra = subscribe ? subscribe(client) : () => ({});
  const c = await ended(client);
  if (c.state !== 'closed') throw new Error(`connection ${c.state}: ${c.reason}`);
  const s = summaryOf(client, extra());
  client.close();
  return s;
}
