// agentwire Worker mode (`WorkerClient`): transport, parsing, validation and assembly in a
// module Worker; the page keeps the mirror the Worker updates once per frame and reads the
// summary from getSnapshot() at the end. mem path: the harness's chunks are copied to the Worker
// (`transport: "manual"`, feed/finish); net path: the Worker fetches the stream itself.
// Each run starts its own Worker inside the timed region: the time includes starting the Worker,
// loading the Worker entry and compiling/instantiating its wasm (the WorkerClient queues what the
// page sends until the Worker says `ready`), as an app that starts a Worker per stream pays it.
// That start-up (new Worker → the page handles `ready`; an upper bound, the page may be busy
// pushing chunks when it arrives) is kept in `stats.workerStartMs` for the probe.
// (Until 2026-11-26, the Worker was started untimed, one run ahead: start-up was not in the figures.)
// scripts/bench.sh stages this folder with pkg/web as ./pkg/ (the Worker entry and its wasm are
// served from there).
import { init as initWasm, stats, wasmMemoryBytes, summaryOf, ended, WorkerClient } from './common.mjs';

export const name = 'agentwire-worker';
export const input = 'native';
export const level = 'full';
export { stats, wasmMemoryBytes };

const WORKER_URL = new URL('./pkg/raw/agentwire-worker.js', import.meta.url);

/** The page's wasm instance (for the summary's getSnapshot helpers): untimed, as for every mode.
 * No Worker is started here: each run starts its own, timed. */
export async function init() {
  await initWasm();
  stats.workerStartMs = 0;
}

/** A new Worker for this run (timed by the caller's region); records new Worker → `ready`. */
function take() {
  const t0 = performance.now();
  const w = new Worker(WORKER_URL, { type: 'module' });
  w.addEventListener('message', (e) => {
    if (e.data && e.data.t === 'ready') stats.workerStartMs = performance.now() - t0;
  }, { once: true });
  return w;
}

/** For longtasks.mjs: times the page side of each message from the Worker, once the client
 * has set its handler: reading `e.data` (structured clone) and the handler (apply the batch,
 * call the handlers), each recorded when over 20 ms, like a long feed() call. */
function timeMessages(w) {
  const handle = w.onmessage;
  if (typeof handle !== 'function') return;
  w.onmessage = (e) => {
    const t0 = performance.now();
    const data = e.data;
    const t1 = performance.now();
    handle.call(w, e);
    const t2 = performance.now();
    if (t1 - t0 > 20) performance.measure('aw:message data', { start: t0, duration: t1 - t0 });
    if (t2 - t1 > 20) {
      const bytes = data && data.b ? data.b.byteLength : 0;
      performance.measure(`aw:batch of ${bytes} B`, { start: t1, duration: t2 - t1 });
    }
  };
}

export function createConsumer(subscribe) {
  const w = take();
  const client = new WorkerClient({ transport: 'manual', worker: w });
  client.start();
  timeMessages(w);
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
  const w = take();
  const client = new WorkerClient({ url: new URL(url, location.href).href, reconnect: false, worker: w });
  timeMessages(w);
  const extra = subscribe ? subscribe(client) : () => ({});
  client.start();
  const c = await ended(client);
  if (c.state !== 'closed') throw new Error(`connection ${c.state}: ${c.reason}`);
  const s = summaryOf(client, extra());
  client.close();
  return s;
}
