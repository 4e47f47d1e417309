// agentwire, AG-UI input: the harness's AG-UI encoding of the workload (<preset>.agui.sse, the
// bytes the `ag-ui` and `ag-ui-verify` consumers read) fed chunk by chunk into the store of an
// `AgentClient({ transport: "manual", dialect: "ag-ui" })`: SSE parse, the AG-UI 1.0 dialect
// (schema and order checks, translation to canonical events), assembly, all in wasm. The state is
// read once at the end with getSnapshot().
//
// The Summary is derived from agentwire's assembled state exactly as the harness's
// page/consumers/agui-summary.js derives it from @ag-ui/client's (agent.messages, agent.state):
//   tasks    the ids, parents and statuses in the shared state document (`sharedState.tasks`:
//            the mapping keeps a subtask's status and a canceled sub-agent only there), the answer
//            from agentwire's task `content` (= the text of the task's assistant messages,
//            `msg-<taskId>`; a sub-agent's events are its own subtask's);
//   files    `sharedState.files[id].chunks` joined (base64 decoded when `encoding` says so);
//   datasets `sharedState.datasets[id].rows.length`; data `sharedState.data[id].version`.
// The shared state is the one of the stream's latest run (a run starts from the previous run's
// state of the thread, as AG-UI's agent.state carries from run to run). Every diagnostic counts
// as an error (the generated stream is valid AG-UI) except `agent-error`: that one reports the
// stream's own RUN_ERROR / SUBAGENT_ERROR (the workload's failed runs), not a disagreement.
import { init, consumerName, stats, wasmMemoryBytes, AgentClient } from './common.mjs';

export const name = consumerName('agentwire-ag-ui');
export const input = 'agui';
export const level = 'full';
export { init, stats, wasmMemoryBytes };

const now = () => performance.now();

const fromBase64 = typeof Uint8Array.fromBase64 === 'function'
  ? (s) => Uint8Array.fromBase64(s)
  : (s) => { const bin = atob(s); const out = new Uint8Array(bin.length); for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i); return out; };

function fileOf(f) {
  if (f.encoding !== 'base64') return { text: f.chunks.join('') };
  const parts = f.chunks.map(fromBase64);
  let n = 0;
  for (const p of parts) n += p.length;
  const bytes = new Uint8Array(n);
  let o = 0;
  for (const p of parts) { bytes.set(p, o); o += p.length; }
  return { bytes };
}

/** The harness Summary from an agentwire Snapshot of an AG-UI stream. */
export function summaryOfAgUi(snap) {
  const content = new Map();
  let state = null;
  for (const t of snap.tasks) {
    content.set(t.id, t.content);
    if (t.sharedState !== undefined && t.parentId == null) state = t.sharedState; // the latest run's
  }
  state ??= {};
  const tasks = new Map();
  for (const id of Object.keys(state.tasks || {})) {
    const t = state.tasks[id];
    tasks.set(id, { parent: t.parent ?? null, status: t.status, content: content.get(id) ?? '' });
  }
  const files = new Map();
  for (const id of Object.keys(state.files || {})) files.set(id, fileOf(state.files[id]));
  const datasets = new Map();
  for (const id of Object.keys(state.datasets || {})) datasets.set(id, { rows: state.datasets[id].rows.length });
  const data = new Map();
  for (const id of Object.keys(state.data || {})) data.set(id, { version: state.data[id].version });
  const d = snap.diagnostics.filter((x) => x.code !== 'agent-error');
  const firstError = d.length ? `${d[0].severity} ${d[0].code} at event ${d[0].position}: ${d[0].message}` : null;
  return { errors: d.length, firstError, tasks, files, datasets, data };
}

export function createConsumer() {
  stats.memoryBeforeRun = wasmMemoryBytes();
  stats.feedMs = 0;
  const client = new AgentClient({ transport: 'manual', dialect: 'ag-ui' });
  client.start();
  const store = client.store;
  store.getSnapshot(); // as a UI does when it mounts (see common.mjs)
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
      const snap = store.getSnapshot();
      performance.measure('aw:getSnapshot', { start: t });
      const s = summaryOfAgUi(snap);
      stats.summaryMs = now() - t;
      stats.memoryAfterRun = wasmMemoryBytes();
      client.close();
      store.free();
      return s;
    },
  };
}
