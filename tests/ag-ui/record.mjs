#!/usr/bin/env node
// Writes every stream of streams/events.mjs with the official @ag-ui/encoder 1.0.0 EventEncoder:
//
//   tests/recordings/ag-ui/<name>.sse          exact bytes: encoder.encode(event) for each event, UTF-8
//   tests/recordings/ag-ui/<name>.crlf.sse     the same bytes with every "\n" rewritten to "\r\n"
//   tests/recordings/ag-ui/<name>.cr.sse       the same bytes with every "\n" rewritten to "\r"
//   tests/recordings/ag-ui/<name>.input.json   the RunAgentInput the official HttpAgent POSTed for it
//                                              (captured by replaying the LF recording, see official.mjs)
//   tests/recordings/ag-ui/index.json          every stream: description, valid, after, event types
//
// JSON.stringify escapes every newline inside a string value, so the only raw "\n" bytes in an
// encoder recording are frame line ends; the rewrite touches nothing else.
// Checks: each event of a valid stream parses with @ag-ui/core/schemas EventSchema; `covers` equals
// the set of types in the list; every EventType value is covered by some valid stream.
//
// Usage: node record.mjs [name ...]   (default: all streams)

import fs from "node:fs";
import path from "node:path";
import { EventEncoder } from "@ag-ui/encoder";
import { EventType } from "@ag-ui/core";
import { EventSchema } from "@ag-ui/core/schemas";
import { streams, ALL_EVENT_TYPES } from "./streams/events.mjs";
import { RECORDINGS, runScenario, chainOf } from "./official.mjs";

const names = process.argv.slice(2).length ? process.argv.slice(2) : Object.keys(streams);
fs.mkdirSync(RECORDINGS, { recursive: true });

// The enum list in events.mjs must be exactly the installed enum.
const enumValues = Object.values(EventType).sort();
if (JSON.stringify(enumValues) !== JSON.stringify([...ALL_EVENT_TYPES].sort())) {
  throw new Error(`ALL_EVENT_TYPES differs from @ag-ui/core EventType: ${enumValues.join(",")}`);
}

const encoder = new EventEncoder({ accept: "text/event-stream" });
if (encoder.getContentType() !== "text/event-stream") throw new Error(`content type ${encoder.getContentType()}`);

const problems = [];
const coveredBy = new Map(ALL_EVENT_TYPES.map((t) => [t, []]));
const index = {};

for (const name of names) {
  const s = streams[name];
  const text = s.events.map((e) => encoder.encode(e)).join("");
  const lf = Buffer.from(text, "utf8");
  fs.writeFileSync(path.join(RECORDINGS, `${name}.sse`), lf);
  fs.writeFileSync(path.join(RECORDINGS, `${name}.crlf.sse`), Buffer.from(text.replace(/\n/g, "\r\n"), "utf8"));
  fs.writeFileSync(path.join(RECORDINGS, `${name}.cr.sse`), Buffer.from(text.replace(/\n/g, "\r"), "utf8"));

  const types = [...new Set(s.events.map((e) => e.type))];
  const known = types.filter((t) => ALL_EVENT_TYPES.includes(t));
  if (JSON.stringify([...known].sort()) !== JSON.stringify([...s.covers].sort())) {
    problems.push(`${name}: covers ${s.covers.join(",")} but carries ${known.join(",")}`);
  }
  const schemaErrors = [];
  s.events.forEach((e, i) => {
    if (!ALL_EVENT_TYPES.includes(e.type)) return;
    const r = EventSchema.safeParse(e);
    if (!r.success) schemaErrors.push(`#${i} ${e.type}: ${r.error.issues.map((x) => `${x.path.join(".")} ${x.message}`).join("; ")}`);
  });
  if (s.valid !== false && !s.forwardCompat && schemaErrors.length) problems.push(`${name}: schema: ${schemaErrors.join(" | ")}`);
  if (s.valid !== false) for (const t of known) coveredBy.get(t).push(name);

  index[name] = {
    description: s.description,
    valid: s.valid !== false,
    ...(s.forwardCompat ? { forwardCompat: true } : {}),
    after: s.after ?? [],
    eventTypes: types,
    events: s.events.length,
    bytes: lf.length,
    ...(schemaErrors.length ? { schemaErrors } : {}),
  };
}

// <name>.input.json: what the official client sends for this stream (chain replayed in LF framing).
for (const name of names) {
  const { calls } = await runScenario(name, "lf");
  const req = calls[calls.length - 1].request;
  if (!req) throw new Error(`${name}: no request captured`);
  const input = JSON.parse(req.body);
  fs.writeFileSync(path.join(RECORDINGS, `${name}.input.json`), JSON.stringify(input, null, 2) + "\n");
  index[name].request = {
    method: req.method,
    contentType: req.headers["content-type"],
    accept: req.headers["accept"],
    chain: chainOf(name),
  };
}

if (names.length === Object.keys(streams).length) {
  fs.writeFileSync(path.join(RECORDINGS, "index.json"), JSON.stringify(index, null, 2) + "\n");
  for (const [t, by] of coveredBy) if (by.length === 0) problems.push(`EventType ${t} is covered by no valid stream`);
  console.log("EventType coverage (valid streams):");
  for (const [t, by] of coveredBy) console.log(`  ${t.padEnd(26)} ${by.join(", ")}`);
}
console.log(`recorded ${names.length} streams × 3 framings into ${path.relative(process.cwd(), RECORDINGS)}`);
if (problems.length) {
  console.error("PROBLEMS:\n  " + problems.join("\n  "));
  process.exit(1);
}
