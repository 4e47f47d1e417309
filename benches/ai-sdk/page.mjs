// In-page side of the AI SDK benchmark (bundled by run.mjs with esbuild; `window.bench`).
//
// Consumers, each fed the same preloaded bytes as 64 KiB subarray views:
//   official          DefaultChatTransport.processResponseStream (TextDecoderStream →
//                     eventsource-parser → safeParseJSON + uiMessageChunkSchema → throw on failure)
//                     → readUIMessageStream; the last yielded UIMessage. Exactly the app path
//                     (minus fetch): the reducer yields a structuredClone snapshot per chunk.
//   official-noschema the same stream pieces with JSON.parse instead of safeParseJSON + schema.
//   official-reducer  (not an app path) the transport's parsing + processUIMessageStream (the
//                     reducer, bundled from the package's own src) with a write() that does nothing:
//                     no per-chunk snapshot. The official floor.
//   agentwire         AgentClient({transport: "manual", dialect: "ai-sdk"}).store: feed() every
//                     chunk, finish(), one getSnapshot(): the assistant message's parts.
// The timed region is from building the consumer to holding the final message.
import { DefaultChatTransport, readUIMessageStream } from "ai";
import { EventSourceParserStream } from "eventsource-parser/stream";
import { createStreamingUIMessageState, processUIMessageStream } from "ai/src/ui/process-ui-message-stream.ts";
import initWasm, { AgentClient } from "../../pkg/web/agentwire.js";

const CHUNK = 65536;
let wasm = null;
const data = {};
const now = () => performance.now();

/** Peak of usedJSHeapSize, sampled after every pushed chunk. */
let peak = 0;
/** agentwire: time in feed()+finish() and in the one getSnapshot() of the last run. */
let split = null;
const sample = () => {
  const u = performance.memory.usedJSHeapSize;
  if (u > peak) peak = u;
};

function body(bytes) {
  let off = 0;
  return new ReadableStream({
    pull(c) {
      if (off >= bytes.length) return c.close();
      c.enqueue(bytes.subarray(off, off + CHUNK));
      off += CHUNK;
      sample();
    },
  });
}

const transport = new DefaultChatTransport({ api: "http://bench.invalid" });

function noSchemaChunks(stream) {
  return stream
    .pipeThrough(new TextDecoderStream())
    .pipeThrough(new EventSourceParserStream())
    .pipeThrough(new TransformStream({
      transform({ data }, c) {
        if (data !== "[DONE]") c.enqueue(JSON.parse(data));
      },
    }));
}

async function readLast(stream) {
  let last = null;
  for await (const m of readUIMessageStream({ stream, onError: (e) => { throw e; } })) last = m;
  return last;
}

const consumers = {
  async official(bytes) {
    return readLast(transport.processResponseStream(body(bytes)));
  },
  async "official-noschema"(bytes) {
    return readLast(noSchemaChunks(body(bytes)));
  },
  async "official-reducer"(bytes) {
    const state = createStreamingUIMessageState({ messageId: "", lastMessage: undefined });
    const out = processUIMessageStream({
      stream: transport.processResponseStream(body(bytes)),
      resetStateOnMessageIdChange: true,
      runUpdateMessageJob: (job) => job({ state, write: () => {} }),
      onError: (e) => { throw e; },
    });
    const r = out.getReader();
    while (!(await r.read()).done);
    return state.message;
  },
  async agentwire(bytes) {
    const client = new AgentClient({ transport: "manual", dialect: "ai-sdk", limits: { maxContentBytes: 1 << 30, maxThoughtsPerTask: 1 << 20, maxToolsPerTask: 1 << 20, maxMessagesPerTask: 1 << 20 } });
    client.start();
    const store = client.store;
    const t0 = now();
    for (let off = 0; off < bytes.length; off += CHUNK) {
      store.feed(bytes.subarray(off, off + CHUNK));
      sample();
    }
    store.finish();
    const t1 = now();
    const snap = store.getSnapshot();
    split = { feedMs: t1 - t0, snapshotMs: now() - t1 };
    let msg = null;
    for (const t of snap.tasks) for (const m of t.messages) if (m.role === "assistant") msg = m;
    const diags = snap.diagnostics.length;
    client.close?.();
    return msg && { id: msg.id, metadata: msg.metadata, parts: msg.parts, diagnostics: diags, firstDiag: diags ? snap.diagnostics[0] : null };
  },
};

export function canonical(v) {
  if (v === null || typeof v !== "object") return JSON.stringify(v);
  if (Array.isArray(v)) return "[" + v.map((x) => (x === undefined ? "null" : canonical(x))).join(",") + "]";
  const keys = Object.keys(v).filter((k) => v[k] !== undefined).sort();
  return "{" + keys.map((k) => JSON.stringify(k) + ":" + canonical(v[k])).join(",") + "}";
}
async function sha256(s) {
  const d = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(s));
  return [...new Uint8Array(d)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

window.bench = {
  async init() {
    if (!wasm) wasm = await initWasm({ module_or_path: "/pkg/web/raw/agentwire_bg.wasm" });
    return Object.keys(consumers);
  },
  async load(preset) {
    if (!data[preset]) data[preset] = new Uint8Array(await (await fetch(`/data/${preset}.sse`)).arrayBuffer());
    return data[preset].length;
  },
  unload(preset) { delete data[preset]; },
  /** One timed run; then (untimed) the final message's canonical hash. */
  async run(name, preset) {
    const bytes = data[preset];
    globalThis.gc?.();
    await new Promise((r) => setTimeout(r, 20));
    const base = performance.memory.usedJSHeapSize;
    const wasmBefore = wasm.memory.buffer.byteLength;
    peak = base;
    const t0 = now();
    const m = await consumers[name](bytes);
    const ms = now() - t0;
    sample();
    const out = { ms, heapPeakMB: (peak - base) / 1e6, wasmGrowMB: (wasm.memory.buffer.byteLength - wasmBefore) / 1e6, wasmMB: wasm.memory.buffer.byteLength / 1e6 };
    if (!m) return { ...out, sha: null, error: "no message" };
    out.parts = m.parts.length;
    out.sha = await sha256(canonical({ id: m.id, metadata: m.metadata, parts: m.parts }));
    if (name === "agentwire") out.split = split;
    if (m.diagnostics) { out.diagnostics = m.diagnostics; out.firstDiag = m.firstDiag; }
    if (globalThis.__keep) globalThis.__last = { [name]: m };
    return out;
  },
  /** The canonical JSON of one consumer's final message (for diffing a WRONG). */
  async dump(name, preset) {
    const m = await consumers[name](data[preset]);
    return canonical({ id: m.id, metadata: m.metadata, parts: m.parts });
  },
};
