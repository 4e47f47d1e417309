#!/usr/bin/env node
// A large, deterministic AI SDK UI message stream, written by the OFFICIAL writer of ai@7.0.173
// (tests/ai-sdk/package.json): createUIMessageStream + createUIMessageStreamResponse (which pipes
// through JsonToSseTransformStream and TextEncoderStream). No network.
//
//   node benches/ai-sdk/gen.mjs [--preset 25k|100k|1m] [--no-expected]
//
// Writes benches/ai-sdk/data/<preset>.sse (git-ignored) and <preset>.expected.json (1m: the
// official reducer without per-chunk snapshots gives the final message, see below):
//   chunks (frames without [DONE]), bytes, chunk type counts, parts count, and
//   partsSha256 = sha256 of the canonical JSON (keys sorted, undefined dropped) of the final
//   UIMessage {id, metadata, parts} as the official readUIMessageStream ends with it (fed through
//   DefaultChatTransport's processResponseStream, as the browser path does).
//
// Shape (one response = one assistant message, as in the SDK): `start` with messageId and
// metadata, then many steps; each step: start-step, reasoning (60%: 10-60 deltas), a text part
// (~1,700 deltas of 1-20 characters, mixed ASCII / accented / CJK / emoji; whole code points, so
// no lone surrogates), 0-3 tool calls (tool-input-start, 5-40 input deltas of the JSON arguments
// split anywhere, tool-input-available, then tool-output-available or 5% tool-output-error; 10%
// dynamic tools), sources (source-url 40%, source-document 10%), a data part replaced by id
// (data-progress, id "progress") and 30% a new data-status part, 10% message-metadata,
// finish-step. Then finish. Steps scale with the preset (about 1,800 chunks each), so the
// message grows with the stream as a long agent response does.
import fs from "node:fs";
import path from "node:path";
import crypto from "node:crypto";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../..");
const sdkDir = process.env.AI_SDK_DIR || path.join(root, "tests/ai-sdk");
const require = createRequire(path.join(sdkDir, "package.json"));
const ai = await import(require.resolve("ai"));
const { createUIMessageStream, createUIMessageStreamResponse, readUIMessageStream, DefaultChatTransport } = ai;

export const PRESETS = { "25k": 25_000, "100k": 100_000, "1m": 1_000_000 };
const argv = process.argv.slice(2);
const preset = argv.includes("--preset") ? argv[argv.indexOf("--preset") + 1] : "100k";
const target = PRESETS[preset];
if (!target) throw new Error(`unknown preset ${preset} (${Object.keys(PRESETS).join(", ")})`);
const withExpected = !argv.includes("--no-expected");

// sfc32, seeded: the same preset gives byte-identical streams.
function sfc32(a, b, c, d) {
  return () => {
    a |= 0; b |= 0; c |= 0; d |= 0;
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
}
const rnd = sfc32(0x9e3779b9, 0x243f6a88, 0xb7e15162, 20);
const int = (lo, hi) => lo + Math.floor(rnd() * (hi - lo + 1));
const pick = (a) => a[Math.floor(rnd() * a.length)];
const WORDS = ["the", "stream", "agent", "tool", "result", "answer", "state", "message", "because", "which",
  "however", "données", "façon", "naïve", "Größe", "résumé", "東京", "データ", "模型", "😀", "🚀", "✓", "→", "—",
  "\"quoted\"", "back\\slash", "tab\there", "line\nbreak", "{json}", "<b>", "&amp;", "42", "3.14"];
function text(nChars) {
  let s = "";
  while ([...s].length < nChars) s += pick(WORDS) + (rnd() < 0.1 ? ". " : " ");
  return s;
}
/** Splits a string into pieces of 1-20 code points. */
function pieces(s, lo = 1, hi = 20) {
  const cps = Array.from(s);
  const out = [];
  for (let i = 0; i < cps.length; ) {
    const n = int(lo, hi);
    out.push(cps.slice(i, i + n).join(""));
    i += n;
  }
  return out;
}
const TOOLS = ["search", "weather", "readFile", "runQuery", "fetchPage"];

function* chunks() {
  let n = 0;
  const emit = function* (c) { n++; yield c; };
  yield* emit({ type: "start", messageId: `msg-bench-${preset}`, messageMetadata: { model: "bench-1", createdAt: 1700000000000 } });
  let step = 0;
  const targetSteps = Math.max(1, Math.round(target / 1800));
  while (step < targetSteps) {
    step++;
    yield* emit({ type: "start-step" });
    if (rnd() < 0.6) {
      const id = `r${step}`;
      yield* emit({ type: "reasoning-start", id });
      for (const d of pieces(text(int(10, 60) * 10))) yield* emit({ type: "reasoning-delta", id, delta: d });
      yield* emit({ type: "reasoning-end", id });
    }
    const tid = `t${step}`;
    yield* emit({ type: "text-start", id: tid });
    for (const d of pieces(text(int(14000, 21000)))) yield* emit({ type: "text-delta", id: tid, delta: d });
    yield* emit({ type: "text-end", id: tid });
    if (rnd() < 0.4) yield* emit({ type: "source-url", sourceId: `src-${step}`, url: `https://example.com/doc/${step}?q=${int(1, 999)}`, title: text(30).trim() });
    if (rnd() < 0.1) yield* emit({ type: "source-document", sourceId: `doc-${step}`, mediaType: "application/pdf", title: `Report ${step}`, filename: `report-${step}.pdf` });
    const calls = int(0, 3);
    for (let k = 0; k < calls; k++) {
      const toolCallId = `call-${step}-${k}`;
      const toolName = pick(TOOLS);
      const dynamic = rnd() < 0.1 ? { dynamic: true } : {};
      const input = { query: text(int(20, 200)).trim(), limit: int(1, 50), exact: rnd() < 0.5, filters: { lang: pick(["en", "fr", "ja"]), tags: [text(8).trim(), text(8).trim()] } };
      yield* emit({ type: "tool-input-start", toolCallId, toolName, ...dynamic });
      for (const d of pieces(JSON.stringify(input), 1, Math.max(2, Math.ceil(JSON.stringify(input).length / int(5, 40)))))
        yield* emit({ type: "tool-input-delta", toolCallId, inputTextDelta: d });
      yield* emit({ type: "tool-input-available", toolCallId, toolName, input, ...dynamic });
      if (rnd() < 0.05) yield* emit({ type: "tool-output-error", toolCallId, errorText: `tool ${toolName} failed: ${text(20).trim()}`, ...dynamic });
      else yield* emit({ type: "tool-output-available", toolCallId, output: { ok: true, items: Array.from({ length: int(1, 6) }, (_, i) => ({ i, title: text(int(10, 60)).trim(), score: Math.round(rnd() * 1000) / 1000 })) }, ...dynamic });
    }
    yield* emit({ type: "data-progress", id: "progress", data: { step, of: targetSteps, label: text(12).trim() } });
    if (rnd() < 0.3) yield* emit({ type: "data-status", id: `status-${step}`, data: { phase: pick(["plan", "act", "check"]), step } });
    if (rnd() < 0.1) yield* emit({ type: "message-metadata", messageMetadata: { usage: { steps: step, tokens: n } } });
    yield* emit({ type: "finish-step" });
  }
  yield* emit({ type: "finish", finishReason: "stop", messageMetadata: { usage: { steps: step, tokens: n }, finishedAt: 1700000999000 } });
}

/** JSON with sorted keys (undefined members dropped, as JSON.stringify does). */
export function canonical(v) {
  if (v === null || typeof v !== "object") return JSON.stringify(v);
  if (Array.isArray(v)) return "[" + v.map((x) => (x === undefined ? "null" : canonical(x))).join(",") + "]";
  const keys = Object.keys(v).filter((k) => v[k] !== undefined).sort();
  return "{" + keys.map((k) => JSON.stringify(k) + ":" + canonical(v[k])).join(",") + "}";
}

const dataDir = path.join(here, "data");
fs.mkdirSync(dataDir, { recursive: true });
const t0 = performance.now();
const counts = {};
let nChunks = 0;
const res = createUIMessageStreamResponse({
  stream: createUIMessageStream({
    generateId: () => `msg-generated`,
    execute: ({ writer }) => {
      for (const c of chunks()) {
        counts[c.type] = (counts[c.type] ?? 0) + 1;
        nChunks++;
        writer.write(c);
      }
    },
  }),
});
const bytes = new Uint8Array(await res.arrayBuffer());
const ssePath = path.join(dataDir, `${preset}.sse`);
fs.writeFileSync(ssePath, bytes);
console.error(`[gen] ${preset}: ${nChunks.toLocaleString("en-US")} chunks, ${(bytes.length / 1e6).toFixed(1)} MB in ${((performance.now() - t0) / 1000).toFixed(1)} s -> ${path.relative(root, ssePath)}`);

const expected = { preset, chunks: nChunks, bytes: bytes.length, sha256: crypto.createHash("sha256").update(bytes).digest("hex"), counts, writer: "ai@" + JSON.parse(fs.readFileSync(require.resolve("ai/package.json"), "utf8")).version };
if (withExpected) {
  // The official reader, behind the transport's own parsing (processResponseStream).
  const t1 = performance.now();
  const transport = new DefaultChatTransport({ api: "http://bench.invalid" });
  let off = 0;
  const body = new ReadableStream({ pull(c) { if (off >= bytes.length) c.close(); else { c.enqueue(bytes.subarray(off, off + 65536)); off += 65536; } } });
  let last = null;
  if (target <= 100_000) {
    for await (const m of readUIMessageStream({ stream: transport.processResponseStream(body), onError: (e) => { throw e; } })) last = m;
  } else {
    // The reader clones the whole message after every chunk (quadratic on a message this long):
    // the same official reducer (processUIMessageStream, bundled from the package's src, as the
    // page's official-reducer does) without the per-chunk snapshots; its final state is the
    // reader's last yield (checked on the 25k and 100k presets, where both are run).
    const esbuild = createRequire(path.join(root, "tools/package.json"))("esbuild");
    const nm = path.join(sdkDir, "node_modules");
    const outfile = path.join(root, "target/ai-sdk-bench/reducer.node.mjs");
    await esbuild.build({ stdin: { contents: `export { createStreamingUIMessageState, processUIMessageStream } from ${JSON.stringify(path.join(nm, "ai/src/ui/process-ui-message-stream.ts"))};`, resolveDir: nm, loader: "js" },
      bundle: true, format: "esm", platform: "node", outfile, logLevel: "error", nodePaths: [nm] });
    const { createStreamingUIMessageState, processUIMessageStream } = await import(outfile);
    const state = createStreamingUIMessageState({ messageId: "", lastMessage: undefined });
    const r = processUIMessageStream({ stream: transport.processResponseStream(body), resetStateOnMessageIdChange: true,
      runUpdateMessageJob: (job) => job({ state, write: () => {} }), onError: (e) => { throw e; } }).getReader();
    while (!(await r.read()).done);
    last = state.message;
  }
  const msg = { id: last.id, metadata: last.metadata, parts: last.parts };
  expected.parts = last.parts.length;
  expected.partTypes = {};
  for (const p of last.parts) expected.partTypes[p.type] = (expected.partTypes[p.type] ?? 0) + 1;
  expected.partsSha256 = crypto.createHash("sha256").update(canonical(msg)).digest("hex");
  console.error(`[gen] official reader (node): ${last.parts.length} parts, ${((performance.now() - t1) / 1000).toFixed(1)} s`);
}
fs.writeFileSync(path.join(dataDir, `${preset}.expected.json`), JSON.stringify(expected, null, 2) + "\n");
