#!/usr/bin/env node
// Replays every recording in tests/recordings/ag-ui (all three framings) to the official
// @ag-ui/client 1.0.0 HttpAgent and writes what it ends with:
//
//   tests/recordings/ag-ui/<name>.official.json        LF framing (the encoder's own bytes)
//   tests/recordings/ag-ui/<name>.crlf.official.json   the same events, CRLF line ends
//   tests/recordings/ag-ui/<name>.cr.official.json     the same events, CR line ends
//
// Transport: a local node:http server answers each POST with the recorded bytes (status 200,
// Content-Type: text/event-stream, written in 61-byte pieces so chunk boundaries fall inside
// multi-byte characters and inside events). HttpAgent uses the real global fetch against it.
//
// Usage: node official.mjs [name ...]     (default: every stream in streams/events.mjs)
// Also exported: runScenario(), used by record.mjs to capture <name>.input.json.

import http from "node:http";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { HttpAgent } from "@ag-ui/client";
import { streams, THREAD } from "./streams/events.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
export const RECORDINGS = path.resolve(here, "../recordings/ag-ui");
export const FRAMINGS = { lf: "", crlf: ".crlf", cr: ".cr" };
const PIECE = 61;

export function recordingPath(name, framing) {
  return path.join(RECORDINGS, `${name}${FRAMINGS[framing]}.sse`);
}

/** The chain of streams one agent runs for `name`: its `after` streams first, then itself. */
export function chainOf(name) {
  const s = streams[name];
  if (!s) throw new Error(`unknown stream ${name}`);
  return [...(s.after ?? []).flatMap((n) => chainOf(n)), name];
}

/** A server answering the i-th POST with bodies[i]; records each request. */
function replayServer(bodies) {
  const requests = [];
  let next = 0;
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      requests.push({ method: req.method, url: req.url, headers: req.headers, body });
      const bytes = bodies[next++];
      if (!bytes) {
        res.writeHead(500, { "Content-Type": "text/plain" }).end("no more recordings");
        return;
      }
      res.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-cache" });
      let off = 0;
      const pump = () => {
        while (off < bytes.length) {
          const piece = bytes.subarray(off, off + PIECE);
          off += piece.length;
          if (!res.write(piece)) return res.once("drain", pump);
        }
        res.end();
      };
      pump();
    });
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve({ server, requests, url: `http://127.0.0.1:${server.address().port}/agent` })),
  );
}

const errorInfo = (e) =>
  e == null ? null : { name: e.name ?? typeof e, message: String(e.message ?? e), ...(e.status ? { status: e.status } : {}) };

/**
 * Runs the chain for `name` in `framing` against the official HttpAgent.
 * Returns one entry per runAgent() call (the last one is `name` itself) plus the agent's final state.
 */
export async function runScenario(name, framing = "lf", bodiesOverride) {
  const chain = chainOf(name);
  const bodies = bodiesOverride ?? chain.map((n) => fs.readFileSync(recordingPath(n, framing)));
  const { server, requests, url } = await replayServer(bodies);
  const first = streams[chain[0]];
  const warnings = [];
  const origWarn = console.warn;
  const origError = console.error;
  console.warn = (...a) => warnings.push(a.map(String).join(" "));
  console.error = (...a) => warnings.push("console.error: " + a.map((x) => (x instanceof Error ? `${x.name}: ${x.message}` : String(x))).join(" "));
  const calls = [];
  let agent;
  try {
    agent = new HttpAgent({
      url,
      threadId: THREAD,
      initialMessages: first.agent?.initialMessages ?? [],
      initialState: first.agent?.initialState ?? {},
    });
    for (const step of chain) {
      const s = streams[step];
      for (const m of s.addMessages ?? []) agent.addMessage(structuredClone(m));
      const call = { stream: step, events: [], runs: [], error: null, failed: null, result: undefined };
      const warnStart = warnings.length;
      const subscriber = {
        onEvent: ({ event }) => {
          call.events.push(event.type);
        },
        onRunFinishedEvent: (p) => {
          const r = { type: "RUN_FINISHED", runId: p.event.runId, outcome: p.outcome };
          if (p.outcome === "interrupt") r.interrupts = p.interrupts;
          if (p.outcome === "success") {
            r.pendingToolCallIds = p.pendingToolCallIds;
            if (p.result !== undefined) r.result = p.result;
          }
          if (p.event.usage) r.usage = p.event.usage;
          call.runs.push(r);
        },
        onRunErrorEvent: ({ event }) => {
          call.runs.push({ type: "RUN_ERROR", message: event.message, ...(event.code ? { code: event.code } : {}) });
        },
        onRunFailed: ({ error }) => {
          call.failed = errorInfo(error);
        },
      };
      try {
        const res = await agent.runAgent(structuredClone(s.params ?? {}), subscriber);
        call.result = res.result;
        call.newMessageIds = res.newMessages.map((m) => m.id);
      } catch (e) {
        call.error = errorInfo(e);
      }
      call.pendingInterruptsAfter = structuredClone(agent.pendingInterrupts);
      call.warnings = warnings.slice(warnStart);
      call.request = requests[calls.length] ?? null;
      calls.push(call);
    }
  } finally {
    console.warn = origWarn;
    console.error = origError;
    server.closeAllConnections?.();
    server.close();
  }
  return { calls, agent };
}

/** Stable JSON: client-minted UUIDs (legacy THINKING_* translation) become <uuid-N>. */
function normalize(value) {
  const ids = new Map();
  const text = JSON.stringify(value, null, 2).replace(
    /[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}/g,
    (u) => {
      if (!ids.has(u)) ids.set(u, `<uuid-${ids.size + 1}>`);
      return ids.get(u);
    },
  );
  return text + "\n";
}

export function officialJson(name, framing, { calls, agent }) {
  const own = calls[calls.length - 1];
  const s = streams[name];
  return {
    stream: name,
    framing,
    valid: s.valid !== false,
    description: s.description,
    chain: calls.map((c) => c.stream),
    messages: agent.messages,
    state: agent.state,
    pendingInterrupts: agent.pendingInterrupts,
    events: own.events,
    error: own.error ?? own.failed ?? null,
    onRunFailed: own.failed,
    runs: own.runs,
    result: own.result ?? null,
    newMessageIds: own.newMessageIds ?? null,
    warnings: own.warnings,
    prior: calls.slice(0, -1).map((c) => ({
      stream: c.stream,
      events: c.events,
      error: c.error ?? c.failed ?? null,
      runs: c.runs,
      pendingInterruptsAfter: c.pendingInterruptsAfter,
    })),
  };
}

async function main() {
  process.env.SUPPRESS_TRANSFORMATION_WARNINGS ??= "";
  const names = process.argv.slice(2).length ? process.argv.slice(2) : Object.keys(streams);
  const summary = [];
  for (const name of names) {
    for (const framing of Object.keys(FRAMINGS)) {
      if (!fs.existsSync(recordingPath(name, framing))) throw new Error(`missing ${recordingPath(name, framing)}: run record.mjs first`);
      const outcome = await runScenario(name, framing);
      const json = officialJson(name, framing, outcome);
      fs.writeFileSync(path.join(RECORDINGS, `${name}${FRAMINGS[framing]}.official.json`), normalize(json));
      summary.push(
        `${(name + " " + framing).padEnd(44)} events=${String(json.events.length).padStart(2)} msgs=${String(json.messages.length).padStart(2)} ` +
          (json.error ? `ERROR ${json.error.message.split("\n")[0].slice(0, 110)}` : `runs=${json.runs.map((r) => r.outcome ?? r.type).join(",")}`),
      );
    }
  }
  console.log(summary.join("\n"));
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
