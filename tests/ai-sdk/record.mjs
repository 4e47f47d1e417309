#!/usr/bin/env node
// Writes every stream of streams.mjs as produced by the official ai@7.0.173 package:
//
//   tests/recordings/ai-sdk/<name>.sse           exact response body bytes (UTF-8)
//   tests/recordings/ai-sdk/<name>.crlf.sse      the same bytes with every "\n" rewritten to "\r\n"
//   tests/recordings/ai-sdk/<name>.cr.sse        the same bytes with every "\n" rewritten to "\r"
//   tests/recordings/ai-sdk/<name>.headers.json  status + response headers (sorted, lower-case)
//   tests/recordings/ai-sdk/index.json           every stream: description, valid, handmade, cut,
//                                                continues, chunk types, frames, bytes, schema errors
//
// JSON.stringify escapes every newline inside a string value, so the only raw "\n" bytes in an
// official recording are frame line ends; the rewrite touches nothing else. (The handmade sse-fields
// stream has a JSON chunk split over two data: lines; its "\n" are line ends too.)
// Checks: each frame of a valid stream parses with uiMessageChunkSchema; `covers` equals the set of
// schema-known types in the stream; every type in ALL_CHUNK_TYPES is covered by some valid stream.
//
// Usage: node record.mjs [name ...]   (default: all streams; index.json only when all)

import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { uiMessageChunkSchema } from "ai";
import { streams, produce, ALL_CHUNK_TYPES } from "./streams.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
export const RECORDINGS = path.resolve(here, "../recordings/ai-sdk");

const names = process.argv.slice(2).length ? process.argv.slice(2) : Object.keys(streams);
fs.mkdirSync(RECORDINGS, { recursive: true });
const schema = uiMessageChunkSchema();

/** The data payloads of LF-framed SSE bytes (enough for index.json; the decoder of record is the official one in official.mjs). */
function frames(text) {
  const out = [];
  const blocks = text.split("\n\n");
  blocks.pop(); // text after the last blank line: "" or an unterminated frame (never dispatched)
  for (const block of blocks) {
    const data = block.split("\n").filter((l) => l.startsWith("data:")).map((l) => l.slice(l.startsWith("data: ") ? 6 : 5));
    if (data.length) out.push(data.join("\n"));
  }
  return out;
}

const problems = [];
const coveredBy = new Map(ALL_CHUNK_TYPES.map((t) => [t, []]));
const index = {};

for (const name of names) {
  const s = streams[name];
  if (!s) throw new Error(`unknown stream ${name}`);
  const res = await produce(name);
  let bytes = Buffer.from(await res.arrayBuffer());
  const full = bytes;
  if (s.cut) bytes = Buffer.from(s.cut(bytes));
  const text = bytes.toString("utf8");
  if (!s.handmade && /\r/.test(text)) problems.push(`${name}: official bytes contain CR`);
  fs.writeFileSync(path.join(RECORDINGS, `${name}.sse`), bytes);
  fs.writeFileSync(path.join(RECORDINGS, `${name}.crlf.sse`), Buffer.from(bytes.toString("latin1").replace(/\n/g, "\r\n"), "latin1"));
  fs.writeFileSync(path.join(RECORDINGS, `${name}.cr.sse`), Buffer.from(bytes.toString("latin1").replace(/\n/g, "\r"), "latin1"));
  const headers = Object.fromEntries([...res.headers.entries()].sort(([a], [b]) => a.localeCompare(b)));
  fs.writeFileSync(
    path.join(RECORDINGS, `${name}.headers.json`),
    JSON.stringify({ status: res.status, ...(s.handmade ? { handmade: true } : {}), headers }, null, 2) + "\n",
  );

  // chunk types and schema check over the frames actually recorded (complete frames only)
  const all = frames((s.cut ? bytes : full).toString("utf8"));
  const types = [];
  const schemaErrors = [];
  let done = false;
  for (const [i, data] of all.entries()) {
    if (data === "[DONE]") {
      done = true;
      continue;
    }
    let chunk;
    try {
      chunk = JSON.parse(data);
    } catch (e) {
      schemaErrors.push(`#${i} not JSON: ${e.message}`);
      continue;
    }
    const t = typeof chunk?.type === "string" && chunk.type.startsWith("data-") ? "data-*" : chunk?.type;
    if (!types.includes(t)) types.push(t);
    const r = await schema.validate(chunk);
    if (!r.success) schemaErrors.push(`#${i} ${chunk?.type}: ${String(r.error.message).split("\n")[0].slice(0, 200)}`);
  }
  const known = types.filter((t) => ALL_CHUNK_TYPES.includes(t));
  if (JSON.stringify([...known].sort()) !== JSON.stringify([...s.covers].sort())) {
    problems.push(`${name}: covers ${[...s.covers].sort().join(",")} but carries ${[...known].sort().join(",")}`);
  }
  if (s.valid !== false && schemaErrors.length) problems.push(`${name}: schema: ${schemaErrors.join(" | ")}`);
  if (s.valid !== false) for (const t of known) coveredBy.get(t).push(name);

  index[name] = {
    description: s.description,
    valid: s.valid !== false,
    ...(s.handmade ? { handmade: true } : {}),
    producer: s.raw !== undefined ? "handmade" : s.produce ? (name.startsWith("streamtext") ? "streamText(MockLanguageModelV4).toUIMessageStreamResponse" : "createUIMessageStreamResponse(options)") : "createUIMessageStream+createUIMessageStreamResponse",
    ...(s.cut ? { cut: true, uncutBytes: full.length } : {}),
    ...(s.continues ? { continues: s.continues } : {}),
    chunkTypes: types,
    frames: all.filter((d) => d !== "[DONE]").length,
    done,
    bytes: bytes.length,
    ...(schemaErrors.length ? { schemaErrors } : {}),
  };
}

if (names.length === Object.keys(streams).length) {
  fs.writeFileSync(path.join(RECORDINGS, "index.json"), JSON.stringify(index, null, 2) + "\n");
  for (const [t, by] of coveredBy) if (by.length === 0) problems.push(`chunk type ${t} is covered by no valid stream`);
  console.log("Chunk type coverage (valid streams):");
  for (const [t, by] of coveredBy) console.log(`  ${t.padEnd(24)} ${by.join(", ")}`);
}
console.log(`recorded ${names.length} streams × 3 framings into ${path.relative(process.cwd(), RECORDINGS)}`);
if (problems.length) {
  console.error("PROBLEMS:\n  " + problems.join("\n  "));
  process.exit(1);
}
