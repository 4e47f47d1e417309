#!/usr/bin/env node
// A small AG-UI 1.0 agent for live browser tests, built on the official @ag-ui/encoder 1.0.0.
//
//   node tests/ag-ui/server.mjs [--port 0] [--host 127.0.0.1] [--delay MS] [--slow-ms MS] [--slow-count N]
//                               [--accept-passthrough]
//   prints exactly one line: "ag-ui listening on http://127.0.0.1:PORT"
//
// POST /agent   body: RunAgentInput JSON (validated with @ag-ui/core/schemas RunAgentInputSchema;
//               400 application/json {"error": ...} when it does not parse). Answers
//               text/event-stream, one encoder.encodeSSE frame per event; protobuf
//               (application/vnd.ag-ui.event+proto, 4-byte big-endian length + message) only when
//               Accept names that type explicitly (--accept-passthrough: hand Accept to the
//               encoder as official servers do, which picks protobuf for "*/*" too).
//   GET  /health  200 {"ok":true}
//   OPTIONS *     204. Every response carries CORS headers: Access-Control-Allow-Origin echoes Origin
//                 (or *), Allow-Headers Content-Type, Authorization, Accept; Allow-Methods GET, POST, OPTIONS.
//
// Behaviour, chosen by the text of the LAST user message (string content, or its text parts):
//   input.resume non-empty → continue the interrupted run: TOOL_CALL_RESULT for the pending tool call
//                 (resolved: "approved …" / cancelled: "cancelled"), STATE_DELTA, text, RUN_FINISHED success
//   "interrupt" → text, tool call delete_files (streamed args), RUN_FINISHED outcome interrupt with one
//                 interrupt {id: "int-<runId>", reason: "tool_approval", toolCallId, responseSchema}
//   "fail"      → RUN_STARTED, partial text (message left open), RUN_ERROR {message, code: "requested_failure"}
//   "slow"      → RUN_STARTED, STATE_SNAPSHOT, one text message in --slow-count deltas (default 40)
//                 --slow-ms apart (default 150), a STATE_DELTA every 10 deltas, RUN_FINISHED (for drop tests)
//   otherwise   → a reply that works on any turn: STATE_SNAPSHOT {turn, userText, ...input.state},
//                 text streamed in small deltas ("Turn N: you said …"), a get_time tool call under that
//                 message with arguments streamed in pieces, its TOOL_CALL_RESULT, STATE_DELTAs
//                 (replace, add, '-' append), RUN_FINISHED success with result {turn}
// Ids are derived from runId, so every run has fresh message/tool-call ids.

import http from "node:http";
import { EventEncoder } from "@ag-ui/encoder";
import { RunAgentInputSchema } from "@ag-ui/core/schemas";

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] !== undefined ? args[i + 1] : dflt;
};
const PORT = Number(opt("port", "0"));
const HOST = opt("host", "127.0.0.1");
const DELAY = Number(opt("delay", "5"));
const SLOW_MS = Number(opt("slow-ms", "150"));
const SLOW_COUNT = Number(opt("slow-count", "40"));
const PASSTHROUGH = args.includes("--accept-passthrough");

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function cors(req, res) {
  const origin = req.headers.origin;
  res.setHeader("Access-Control-Allow-Origin", origin ?? "*");
  if (origin) res.setHeader("Vary", "Origin");
  res.setHeader("Access-Control-Allow-Headers", "Content-Type, Authorization, Accept");
  res.setHeader("Access-Control-Allow-Methods", "GET, POST, OPTIONS");
  res.setHeader("Access-Control-Max-Age", "600");
}

function json(res, status, body) {
  res.writeHead(status, { "Content-Type": "application/json" });
  res.end(JSON.stringify(body));
}

function textOf(content) {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.filter((p) => p?.type === "text").map((p) => p.text).join("");
  return "";
}

function pieces(s, n) {
  const out = [];
  const chars = Array.from(s);
  for (let i = 0; i < chars.length; i += n) out.push(chars.slice(i, i + n).join(""));
  return out;
}

async function* defaultRun(input, userText) {
  const { threadId, runId } = input;
  const turn = input.messages.filter((m) => m.role === "user").length;
  const base = input.state && typeof input.state === "object" && !Array.isArray(input.state) ? input.state : {};
  const mid = `${runId}-m1`;
  const tcid = `${runId}-tc1`;
  yield { type: "RUN_STARTED", threadId, runId, ...(input.parentRunId ? { parentRunId: input.parentRunId } : {}) };
  yield { type: "STATE_SNAPSHOT", snapshot: { ...base, turn, userText, status: "working", log: Array.isArray(base.log) ? base.log : [] } };
  yield { type: "TEXT_MESSAGE_START", messageId: mid, role: "assistant" };
  for (const delta of pieces(`Turn ${turn}: you said “${userText}”. Checking the time ⏱…`, 6)) {
    yield { type: "TEXT_MESSAGE_CONTENT", messageId: mid, delta };
  }
  yield { type: "TEXT_MESSAGE_END", messageId: mid };
  yield { type: "TOOL_CALL_START", toolCallId: tcid, toolCallName: "get_time", parentMessageId: mid };
  for (const delta of pieces(JSON.stringify({ timezone: "Europe/Zürich", format: "iso" }), 7)) {
    yield { type: "TOOL_CALL_ARGS", toolCallId: tcid, delta };
  }
  yield { type: "TOOL_CALL_END", toolCallId: tcid };
  yield { type: "TOOL_CALL_RESULT", messageId: `${runId}-tool1`, toolCallId: tcid, role: "tool", content: JSON.stringify({ time: "2026-01-01T12:00:00+01:00" }) };
  yield { type: "STATE_DELTA", delta: [{ op: "replace", path: "/status", value: "done" }] };
  yield { type: "STATE_DELTA", delta: [{ op: "add", path: "/log/-", value: `turn ${turn}` }, { op: "add", path: "/lastRunId", value: runId }] };
  yield { type: "RUN_FINISHED", threadId, runId, outcome: { type: "success" }, result: { turn } };
}

async function* interruptRun(input) {
  const { threadId, runId } = input;
  const mid = `${runId}-m1`;
  const tcid = `${runId}-tc1`;
  yield { type: "RUN_STARTED", threadId, runId };
  yield { type: "TEXT_MESSAGE_START", messageId: mid, role: "assistant" };
  yield { type: "TEXT_MESSAGE_CONTENT", messageId: mid, delta: "I need your approval " };
  yield { type: "TEXT_MESSAGE_CONTENT", messageId: mid, delta: "to delete the files." };
  yield { type: "TEXT_MESSAGE_END", messageId: mid };
  yield { type: "TOOL_CALL_START", toolCallId: tcid, toolCallName: "delete_files", parentMessageId: mid };
  yield { type: "TOOL_CALL_ARGS", toolCallId: tcid, delta: '{"glob":' };
  yield { type: "TOOL_CALL_ARGS", toolCallId: tcid, delta: '"/tmp/*.log"}' };
  yield { type: "TOOL_CALL_END", toolCallId: tcid };
  yield {
    type: "RUN_FINISHED",
    threadId,
    runId,
    outcome: {
      type: "interrupt",
      interrupts: [
        {
          id: `int-${runId}`,
          reason: "tool_approval",
          message: "Delete /tmp/*.log?",
          toolCallId: tcid,
          responseSchema: { type: "object", properties: { approved: { type: "boolean" } }, required: ["approved"] },
        },
      ],
    },
  };
}

async function* resumeRun(input) {
  const { threadId, runId } = input;
  const answered = new Set(input.messages.filter((m) => m.role === "tool").map((m) => m.toolCallId));
  const pending = input.messages
    .filter((m) => m.role === "assistant")
    .flatMap((m) => m.toolCalls ?? [])
    .filter((tc) => !answered.has(tc.id));
  const entry = input.resume[0];
  const approved = entry.status === "resolved" && entry.payload?.approved !== false;
  yield { type: "RUN_STARTED", threadId, runId };
  const last = pending[pending.length - 1];
  if (last) {
    yield {
      type: "TOOL_CALL_RESULT",
      messageId: `${runId}-tool1`,
      toolCallId: last.id,
      role: "tool",
      content: approved ? "approved: deleted 3 files" : `not run: ${entry.status}`,
    };
  }
  const mid = `${runId}-m1`;
  yield { type: "STATE_DELTA", delta: [{ op: "add", path: "/resumed", value: { interruptId: entry.interruptId, status: entry.status } }] };
  yield { type: "TEXT_MESSAGE_START", messageId: mid, role: "assistant" };
  yield { type: "TEXT_MESSAGE_CONTENT", messageId: mid, delta: approved ? "Approved, the files are deleted." : "Understood, nothing was deleted." };
  yield { type: "TEXT_MESSAGE_END", messageId: mid };
  yield { type: "RUN_FINISHED", threadId, runId, outcome: { type: "success" } };
}

async function* failRun(input) {
  const { threadId, runId } = input;
  yield { type: "RUN_STARTED", threadId, runId };
  yield { type: "TEXT_MESSAGE_START", messageId: `${runId}-m1`, role: "assistant" };
  yield { type: "TEXT_MESSAGE_CONTENT", messageId: `${runId}-m1`, delta: "Starting, then " };
  yield { type: "RUN_ERROR", message: "the agent failed on request", code: "requested_failure" };
}

async function* slowRun(input) {
  const { threadId, runId } = input;
  const mid = `${runId}-m1`;
  yield { type: "RUN_STARTED", threadId, runId };
  yield { type: "STATE_SNAPSHOT", snapshot: { progress: 0 } };
  yield { type: "TEXT_MESSAGE_START", messageId: mid, role: "assistant" };
  for (let i = 1; i <= SLOW_COUNT; i++) {
    await sleep(SLOW_MS);
    yield { type: "TEXT_MESSAGE_CONTENT", messageId: mid, delta: `tick ${i}. ` };
    if (i % 10 === 0) yield { type: "STATE_DELTA", delta: [{ op: "replace", path: "/progress", value: i }] };
  }
  yield { type: "TEXT_MESSAGE_END", messageId: mid };
  yield { type: "RUN_FINISHED", threadId, runId };
}

function chooseRun(input) {
  if (Array.isArray(input.resume) && input.resume.length > 0) return resumeRun(input);
  const lastUser = [...input.messages].reverse().find((m) => m.role === "user");
  const text = textOf(lastUser?.content).trim();
  switch (text.toLowerCase()) {
    case "interrupt":
      return interruptRun(input);
    case "fail":
      return failRun(input);
    case "slow":
      return slowRun(input);
    default:
      return defaultRun(input, text);
  }
}

const server = http.createServer((req, res) => {
  cors(req, res);
  const url = new URL(req.url, "http://x");
  if (req.method === "OPTIONS") {
    res.writeHead(204).end();
    return;
  }
  if (req.method === "GET" && url.pathname === "/health") return json(res, 200, { ok: true });
  if (url.pathname !== "/agent") return json(res, 404, { error: `no route ${req.method} ${url.pathname}` });
  if (req.method !== "POST") return json(res, 405, { error: "POST a RunAgentInput to /agent" });

  const chunks = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", async () => {
    let input;
    try {
      const parsed = RunAgentInputSchema.safeParse(JSON.parse(Buffer.concat(chunks).toString("utf8")));
      if (!parsed.success) return json(res, 400, { error: "invalid RunAgentInput", issues: parsed.error.issues });
      input = parsed.data;
    } catch (e) {
      return json(res, 400, { error: `invalid JSON: ${e.message}` });
    }
    // The official encoder answers protobuf whenever Accept admits it at all, "*/*" included
    // (curl's and fetch's default). This server answers protobuf only when Accept names
    // application/vnd.ag-ui.event+proto explicitly, unless --accept-passthrough mirrors the encoder.
    const accept = req.headers.accept ?? "";
    const encoder = new EventEncoder({
      accept: PASSTHROUGH || /application\/vnd\.ag-ui\.event\+proto/i.test(accept) ? accept : "text/event-stream",
    });
    res.writeHead(200, {
      "Content-Type": encoder.getContentType(),
      "Cache-Control": "no-cache",
      Connection: "keep-alive",
      "X-Accel-Buffering": "no",
    });
    let closed = false;
    res.on("close", () => {
      closed = true;
    });
    try {
      for await (const event of chooseRun(input)) {
        if (closed) return;
        res.write(encoder.encodeBinary(event));
        if (DELAY > 0) await sleep(DELAY);
      }
    } catch (e) {
      if (!closed) res.write(encoder.encodeBinary({ type: "RUN_ERROR", message: `server error: ${e.message}`, code: "server_error" }));
    }
    if (!closed) res.end();
  });
});

server.listen(PORT, HOST, () => {
  const { port } = server.address();
  process.stdout.write(`ag-ui listening on http://${HOST}:${port}\n`);
});

for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => server.close(() => process.exit(0)).closeAllConnections?.());
