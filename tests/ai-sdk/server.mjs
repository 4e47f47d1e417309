#!/usr/bin/env node
// A live AI SDK chat backend for browser tests, on the official ai@7.0.173 package: every answer is
// streamText(...) over a MockLanguageModelV4 (ai/test, no network) turned into a response with
// toUIMessageStreamResponse — what a Next.js `app/api/chat/route.ts` returns.
//
//   node tests/ai-sdk/server.mjs [--port 0] [--host 127.0.0.1] [--delay MS] [--slow-ms MS] [--slow-count N]
//   prints exactly one line: "ai-sdk listening on http://127.0.0.1:PORT"
//
// POST /api/chat            body as DefaultChatTransport sends it: {id, messages: UIMessage[], trigger,
//                           messageId?, ...extra}. Validated with validateUIMessages (400 JSON {error}).
//                           Answer: 200 text/event-stream, UI_MESSAGE_STREAM_HEADERS
//                           (x-vercel-ai-ui-message-stream: v1), `data: {chunk}\n\n` frames, `data: [DONE]`.
// GET  /api/chat/:id/stream the resume endpoint DefaultChatTransport.reconnectToStream calls: 204 when
//                           chat :id has no active (unfinished) response, else 200 with that response's
//                           SSE from its first byte (replay; resumeStreamIsReplay defaults to true) and
//                           then live until it ends.
//                           Query flags (tests): ?drop=N destroys the connection after N body writes
//                           (the generation goes on: resume it); ?framing=crlf writes CRLF line ends.
// POST /api/chat/:id/stop   aborts chat :id's active generation (streamText abortSignal → an `abort`
//                           chunk ends the stream); 200 {stopped: true|false}.
// GET  /health              200 {"ok":true}
// OPTIONS *                 204; CORS on every response (Allow-Origin echoes Origin or *).
//
// A client disconnect does NOT stop the generation (so it can be resumed), as with resumable streams.
//
// Behaviour, by the request:
//   last message is an assistant message with a tool part in state approval-responded
//       → streamText runs (approved) or denies the tool itself (tool-output-available /
//         tool-output-denied in the same assistant message, same messageId), then the model answers
//         with text ("Deleted …" / "Not deleted.")
//   last user text contains "delete"  → text + deleteFile tool call (input streamed) with
//         needsApproval → tool-approval-request, finish tool-calls (answer it in the next POST)
//   "where am I" → text + a getLocation tool call that has no execute (a client-side tool: the
//         message finishes with the part input-available; the next POST carries its output, then
//         the model answers "You are in <city>.")
//   "slow"  → one text part in --slow-count deltas --slow-ms apart (default 40 × 150 ms), for resume/stop
//   "abort" → a few deltas, then the server aborts its own generation → `abort` chunk
//   "fail"  → partial text, then the model stream errors → `error` chunk (errorText = the message)
//   otherwise → turn-aware: reasoning, text "Turn N: checking the weather in <city>…", a weather tool
//         call with input streamed in pieces (split inside a multi-byte character), executed →
//         tool-output-available, second step text "Turn N: it is 21 °C in <city>.", messageMetadata
//         {turn, model} at start and {turn, totalTokens} at finish.
// Message ids: "msg-<chatId>-<n>"; tool call ids "call-<n>"; approval ids from the SDK.

import http from "node:http";
import { streamText, tool, jsonSchema, stepCountIs, convertToModelMessages, validateUIMessages } from "ai";
import { MockLanguageModelV4, simulateReadableStream } from "ai/test";

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

let counter = 0;
const next = (p) => `${p}-${++counter}`;
/** chatId → {chunks: string[], done: boolean, listeners: Set<fn>, abort: AbortController} */
const active = new Map();

const usage = (i, o) => ({
  inputTokens: { total: i, noCache: i, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: o, text: o, reasoning: 0 },
});
const finish = (reason) => ({ type: "finish", finishReason: { unified: reason, raw: reason }, usage: usage(10, 10) });
const textParts = (id, pieces) => [{ type: "text-start", id }, ...pieces.map((delta) => ({ type: "text-delta", id, delta })), { type: "text-end", id }];
const splitChars = (s, n) => {
  const cs = Array.from(s);
  const out = [];
  for (let i = 0; i < cs.length; i += n) out.push(cs.slice(i, i + n).join(""));
  return out;
};

function textOf(m) {
  return (m?.parts ?? []).filter((p) => p.type === "text").map((p) => p.text).join("");
}

/** The model: decides from the prompt (LanguageModelV4 prompt messages) what to stream. */
function model(plan) {
  return new MockLanguageModelV4({
    doStream: async ({ prompt }) => {
      const last = prompt[prompt.length - 1];
      const chunks = plan(prompt, last);
      return {
        stream: simulateReadableStream({
          chunks,
          initialDelayInMs: 0,
          chunkDelayInMs: chunks.slow ? SLOW_MS : DELAY,
        }),
      };
    },
  });
}

function cityOf(text) {
  const m = /\b(?:in|for)\s+([\p{L}][\p{L} -]*)/u.exec(text);
  return m ? m[1].trim() : "Zürich";
}

function plan({ userText, turn, mode }) {
  return (prompt, last) => {
    if (last.role === "tool") {
      const results = last.content.filter((c) => c.type === "tool-result");
      const denied = results.some((r) => r.output?.type === "execution-denied");
      const first = results[0];
      if (first?.toolName === "getLocation") {
        return [...textParts(next("txt"), ["You are in ", `${first.output?.value?.city ?? "?"}.`]), finish("stop")];
      }
      if (first?.toolName === "deleteFile") {
        return [...textParts(next("txt"), denied ? ["Not deleted."] : ["Deleted ", String(first.output?.value?.deleted ?? "")]), finish("stop")];
      }
      const city = first?.output?.value?.city ?? "?";
      return [...textParts(next("txt"), [`Turn ${turn}: it is 21 °C `, `in ${city}.`]), finish("stop")];
    }
    if (mode === "delete") {
      const id = next("call");
      const input = JSON.stringify({ path: "/tmp/ä.txt" });
      return [
        ...textParts(next("txt"), ["I need your approval."]),
        { type: "tool-input-start", id, toolName: "deleteFile" },
        { type: "tool-input-delta", id, delta: input.slice(0, 12) },
        { type: "tool-input-delta", id, delta: input.slice(12) },
        { type: "tool-input-end", id },
        { type: "tool-call", toolCallId: id, toolName: "deleteFile", input },
        finish("tool-calls"),
      ];
    }
    if (mode === "where") {
      const id = next("call");
      return [
        ...textParts(next("txt"), ["Let me look."]),
        { type: "tool-input-start", id, toolName: "getLocation" },
        { type: "tool-input-delta", id, delta: "{}" },
        { type: "tool-input-end", id },
        { type: "tool-call", toolCallId: id, toolName: "getLocation", input: "{}" },
        finish("tool-calls"),
      ];
    }
    if (mode === "slow") {
      const c = [...textParts(next("txt"), Array.from({ length: SLOW_COUNT }, (_, i) => `slow ${i + 1}/${SLOW_COUNT}. `)), finish("stop")];
      c.slow = true;
      return c;
    }
    if (mode === "fail") {
      const id = next("txt");
      return [{ type: "text-start", id }, { type: "text-delta", id, delta: "Starting, then " }, { type: "error", error: new Error("requested failure") }, finish("error")];
    }
    if (mode === "abort") {
      const c = [...textParts(next("txt"), Array.from({ length: 20 }, (_, i) => `word${i} `)), finish("stop")];
      c.slow = true;
      return c;
    }
    const city = cityOf(userText);
    const id = next("call");
    const input = JSON.stringify({ city });
    // the first delta ends right after the first non-ASCII character (else after 9 characters)
    const chars = Array.from(input);
    const mb = chars.findIndex((ch) => Buffer.byteLength(ch) > 1);
    const cut = mb >= 0 ? mb + 1 : 9;
    return [
      { type: "reasoning-start", id: "r-" + id },
      { type: "reasoning-delta", id: "r-" + id, delta: `Turn ${turn}: the user wants weather.` },
      { type: "reasoning-end", id: "r-" + id },
      ...textParts(next("txt"), splitChars(`Turn ${turn}: checking the weather in ${city}…`, 7)),
      { type: "tool-input-start", id, toolName: "weather" },
      { type: "tool-input-delta", id, delta: chars.slice(0, cut).join("") },
      { type: "tool-input-delta", id, delta: chars.slice(cut, cut + 3).join("") },
      { type: "tool-input-delta", id, delta: chars.slice(cut + 3).join("") },
      { type: "tool-input-end", id },
      { type: "tool-call", toolCallId: id, toolName: "weather", input },
      finish("tool-calls"),
    ];
  };
}

const tools = {
  weather: tool({
    description: "weather for a city",
    inputSchema: jsonSchema({ type: "object", properties: { city: { type: "string" } }, required: ["city"] }),
    execute: async ({ city }) => ({ city, tempC: 21 }),
  }),
  deleteFile: tool({
    description: "delete a file (needs approval)",
    inputSchema: jsonSchema({ type: "object", properties: { path: { type: "string" } }, required: ["path"] }),
    needsApproval: true,
    execute: async ({ path }) => ({ deleted: path }),
  }),
  getLocation: tool({
    description: "the user's location (run by the client)",
    inputSchema: jsonSchema({ type: "object", properties: {} }),
  }),
};

function cors(req, res) {
  const origin = req.headers.origin;
  res.setHeader("Access-Control-Allow-Origin", origin ?? "*");
  if (origin) res.setHeader("Vary", "Origin");
  res.setHeader("Access-Control-Allow-Headers", "Content-Type, Authorization, Accept");
  res.setHeader("Access-Control-Allow-Methods", "GET, POST, OPTIONS");
  res.setHeader("Access-Control-Expose-Headers", "x-vercel-ai-ui-message-stream");
  res.setHeader("Access-Control-Max-Age", "600");
}

function json(res, status, body) {
  res.writeHead(status, { "Content-Type": "application/json" });
  res.end(JSON.stringify(body));
}

/** Writes a web Response to a node response (headers as set by the SDK). */
async function send(res, response, { drop = 0, crlf = false } = {}) {
  res.writeHead(response.status, Object.fromEntries(response.headers.entries()));
  if (!response.body) return res.end();
  const reader = response.body.getReader();
  res.on("close", () => reader.cancel().catch(() => {}));
  let writes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (res.destroyed) break;
    if (!res.writableEnded) res.write(crlf ? Buffer.from(value).toString("utf8").replace(/\n/g, "\r\n") : value);
    if (drop && ++writes >= drop) {
      // the connection drops; the generation goes on (resume it with GET …/stream)
      res.destroy();
      break;
    }
  }
  res.end();
}

async function chat(req, res, body) {
  let messages;
  try {
    messages = await validateUIMessages({ messages: body.messages, tools });
  } catch (e) {
    return json(res, 400, { error: String(e.message ?? e) });
  }
  const chatId = typeof body.id === "string" ? body.id : "anonymous";
  const lastUser = [...messages].reverse().find((m) => m.role === "user");
  const userText = textOf(lastUser);
  const turn = messages.filter((m) => m.role === "user").length;
  const mode = /where am i/i.test(userText) ? "where" : /delete/i.test(userText) ? "delete" : /slow/i.test(userText) ? "slow" : /abort/i.test(userText) ? "abort" : /fail/i.test(userText) ? "fail" : "default";

  const abort = new AbortController();
  const entry = { chunks: [], done: false, listeners: new Set(), abort };
  const previous = active.get(chatId);
  previous?.abort.abort();
  active.set(chatId, entry);
  if (mode === "abort") setTimeout(() => abort.abort(), 5 * DELAY + 8 * SLOW_MS);

  const result = streamText({
    model: model(plan({ userText, turn, mode })),
    messages: await convertToModelMessages(messages, { tools }),
    tools,
    stopWhen: stepCountIs(4),
    abortSignal: abort.signal,
    onError: () => {}, // the error reaches the client as an `error` chunk
  });
  const response = result.toUIMessageStreamResponse({
    originalMessages: messages,
    generateMessageId: () => `msg-${chatId}-${++counter}`,
    messageMetadata: ({ part }) =>
      part.type === "start" ? { turn, model: "mock-model" } : part.type === "finish" ? { turn, totalTokens: part.totalUsage?.totalTokens ?? null } : undefined,
    onError: (e) => (e instanceof Error ? e.message : String(e)),
    consumeSseStream: async ({ stream }) => {
      // the resumable copy: every SSE string as sent, followed live by GET …/stream
      const reader = stream.getReader();
      for (;;) {
        const { done, value } = await reader.read().catch(() => ({ done: true }));
        if (done) break;
        entry.chunks.push(value);
        for (const l of entry.listeners) l(value);
      }
      entry.done = true;
      for (const l of entry.listeners) l(null);
      if (active.get(chatId) === entry) active.delete(chatId);
    },
  });
  const q = new URL(req.url, "http://x").searchParams;
  await send(res, response, { drop: Number(q.get("drop") ?? 0), crlf: q.get("framing") === "crlf" });
}

function resume(req, res, chatId) {
  const entry = active.get(chatId);
  if (!entry || entry.done) {
    res.writeHead(204);
    return res.end();
  }
  res.writeHead(200, {
    "content-type": "text/event-stream",
    "cache-control": "no-cache",
    connection: "keep-alive",
    "x-vercel-ai-ui-message-stream": "v1",
    "x-accel-buffering": "no",
  });
  for (const c of entry.chunks) res.write(c);
  const listener = (c) => {
    if (c === null) {
      entry.listeners.delete(listener);
      res.end();
    } else res.write(c);
  };
  entry.listeners.add(listener);
  res.on("close", () => entry.listeners.delete(listener));
}

const server = http.createServer((req, res) => {
  cors(req, res);
  const url = new URL(req.url, "http://x");
  if (req.method === "OPTIONS") {
    res.writeHead(204);
    return res.end();
  }
  if (req.method === "GET" && url.pathname === "/health") return json(res, 200, { ok: true });
  const m = /^\/api\/chat\/([^/]+)\/(stream|stop)$/.exec(url.pathname);
  if (m && req.method === "GET" && m[2] === "stream") return resume(req, res, decodeURIComponent(m[1]));
  if (m && req.method === "POST" && m[2] === "stop") {
    const entry = active.get(decodeURIComponent(m[1]));
    entry?.abort.abort();
    return json(res, 200, { stopped: !!entry });
  }
  if (req.method === "POST" && url.pathname === "/api/chat") {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      let body;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      } catch (e) {
        return json(res, 400, { error: `invalid JSON: ${e.message}` });
      }
      chat(req, res, body).catch((e) => {
        if (!res.headersSent) json(res, 500, { error: String(e.message ?? e) });
        else res.end();
      });
    });
    return;
  }
  json(res, 404, { error: "not found" });
});

server.listen(PORT, HOST, () => {
  const { port } = server.address();
  console.log(`ai-sdk listening on http://${HOST}:${port}`);
});
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => server.close(() => process.exit(0)) && setTimeout(() => process.exit(0), 500).unref());
