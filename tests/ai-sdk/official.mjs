#!/usr/bin/env node
// Replays every recording in tests/recordings/ai-sdk (all three framings) to the official ai@7.0.173
// client and writes what it ends with:
//
//   tests/recordings/ai-sdk/<name>.official.json        LF framing (the official bytes)
//   tests/recordings/ai-sdk/<name>.crlf.official.json   the same, CRLF line ends
//   tests/recordings/ai-sdk/<name>.cr.official.json     the same, CR line ends
//
// Transport: the official DefaultChatTransport with a `fetch` that answers from the recording
// (status 200 and the recorded headers; the body is a ReadableStream of 61-byte pieces, so chunk
// boundaries fall inside UTF-8 characters and inside frames). Its processResponseStream is the
// official SSE path: TextDecoderStream → eventsource-parser → safeParseJSON(uiMessageChunkSchema)
// → a TransformStream that throws the first parse/validation error.
//
// Two consumers, both official:
//   reader: readUIMessageStream({ stream: transport.sendMessages(...), message, onError })
//           (terminateOnError false, its default) — every yielded UIMessage is counted; `message` is
//           the last one; `errors` is what onError got; `thrown` what the iteration threw;
//           `streamingToolInputs` the (rawInput, parsePartialJson input) of every input-streaming
//           tool part in every yield (input null = undefined: nothing parseable yet).
//           JSON drops members whose value is undefined (the client sets e.g. output: undefined).
//   chat:   an AbstractChat (the base of @ai-sdk/react's Chat) over the same transport:
//           sendMessage({text}) — or, for a `continues` stream, the predecessor's turn, then
//           addToolApprovalResponse(...) and sendMessage() — ending `messages`, `status`, `error`,
//           onFinish flags, and the JSON bodies the transport POSTed.
//
// Usage: node official.mjs [name ...]     (default: every stream in streams.mjs)

import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { DefaultChatTransport, readUIMessageStream, AbstractChat } from "ai";
import { streams } from "./streams.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
export const RECORDINGS = path.resolve(here, "../recordings/ai-sdk");
export const FRAMINGS = { lf: "", crlf: ".crlf", cr: ".cr" };
export const API = "http://recorded.invalid/api/chat";
const PIECE = 61;

export const recordingPath = (name, framing) => path.join(RECORDINGS, `${name}${FRAMINGS[framing]}.sse`);

function piecedResponse(bytes, headers) {
  let off = 0;
  const body = new ReadableStream({
    pull(c) {
      if (off >= bytes.length) return c.close();
      c.enqueue(new Uint8Array(bytes.subarray(off, off + PIECE)));
      off += PIECE;
    },
  });
  return new Response(body, { status: 200, headers });
}

/** A DefaultChatTransport whose fetch answers the i-th request with bodies[i]; records requests. */
export function replayTransport(bodies) {
  const requests = [];
  let next = 0;
  const fetch = async (url, init) => {
    requests.push({
      url: String(url),
      method: init?.method,
      headers: Object.fromEntries(Object.entries(init?.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v])),
      body: init?.body ? JSON.parse(init.body) : undefined,
    });
    const entry = bodies[next++];
    if (!entry) return new Response("no more recordings", { status: 500 });
    return piecedResponse(entry.bytes, entry.headers);
  };
  return { transport: new DefaultChatTransport({ api: API, fetch }), requests };
}

const errorInfo = (e) => (e == null ? null : { name: e.name ?? typeof e, message: String(e.message ?? e) });

function loadBody(name, framing) {
  return {
    bytes: fs.readFileSync(recordingPath(name, framing)),
    headers: JSON.parse(fs.readFileSync(path.join(RECORDINGS, `${name}.headers.json`), "utf8")).headers,
  };
}

function captureConsole(into) {
  const w = console.warn;
  const e = console.error;
  const l = console.log;
  console.warn = (...a) => into.push("console.warn: " + a.map(String).join(" "));
  console.error = (...a) => into.push("console.error: " + a.map((x) => (x instanceof Error ? `${x.name}: ${x.message}` : String(x))).join(" "));
  return () => {
    console.warn = w;
    console.error = e;
    console.log = l;
  };
}

/** Applies a tool approval answer to a message the way Chat.addToolApprovalResponse does (chat.ts:863-874). */
function approve(message, { id, approved, reason }) {
  return {
    ...message,
    parts: message.parts.map((p) =>
      (p.type.startsWith("tool-") || p.type === "dynamic-tool") && p.state === "approval-requested" && p.approval.id === id
        ? { ...p, state: "approval-responded", approval: { ...p.approval, id, approved, reason } }
        : p,
    ),
  };
}

/** readUIMessageStream over the transport's chunk stream. `message` continues an assistant message. */
async function runReader(body, message) {
  const { transport, requests } = replayTransport([body]);
  const out = { yields: 0, message: null, errors: [], thrown: null, partsCountPerYield: [], streamingToolInputs: [] };
  try {
    const stream = await transport.sendMessages({
      chatId: "chat-1",
      messages: message ? [USER, message] : [USER],
      trigger: "submit-message",
      messageId: message?.id,
      abortSignal: undefined,
    });
    for await (const m of readUIMessageStream({ stream, message: message ? structuredClone(message) : undefined, onError: (e) => out.errors.push(errorInfo(e)) })) {
      out.yields++;
      out.partsCountPerYield.push(m.parts.length);
      for (const p of m.parts) {
        if ((p.type.startsWith("tool-") || p.type === "dynamic-tool") && p.state === "input-streaming" && p.rawInput !== undefined) {
          out.streamingToolInputs.push({ yield: out.yields, toolCallId: p.toolCallId, rawInput: p.rawInput, input: p.input ?? null });
        }
      }
      out.message = m;
    }
  } catch (e) {
    out.thrown = errorInfo(e);
  }
  out.request = requests[0];
  return out;
}

const USER = { id: "user-1", role: "user", parts: [{ type: "text", text: "hi" }] };

class TestChat extends AbstractChat {
  constructor(init) {
    let messages = [];
    const state = {
      status: "ready",
      error: undefined,
      get messages() {
        return messages;
      },
      set messages(v) {
        messages = v;
      },
      pushMessage: (m) => {
        messages = messages.concat(m);
      },
      popMessage: () => {
        messages = messages.slice(0, -1);
      },
      replaceMessage: (i, m) => {
        messages = [...messages.slice(0, i), m, ...messages.slice(i + 1)];
      },
      snapshot: (t) => structuredClone(t),
    };
    super({ ...init, state });
  }
}

/** The AbstractChat path for a chain of streams. */
async function runChat(chain, framing) {
  const bodies = chain.map((n) => loadBody(n, framing));
  const { transport, requests } = replayTransport(bodies);
  let n = 0;
  const finishes = [];
  const errors = [];
  const data = [];
  const chat = new TestChat({
    id: "chat-1",
    transport,
    generateId: () => `gen-${++n}`,
    onFinish: ({ message, isAbort, isDisconnect, isError, finishReason }) =>
      finishes.push({ messageId: message.id, isAbort, isDisconnect, isError, finishReason: finishReason ?? null }),
    onError: (e) => errors.push(errorInfo(e)),
    onData: (d) => data.push(d),
  });
  const steps = [];
  for (const [i, name] of chain.entries()) {
    const s = streams[name];
    if (i === 0) {
      await chat.sendMessage({ text: s.user ?? "hi" });
    } else {
      await chat.addToolApprovalResponse(s.continues.approve);
      await chat.sendMessage();
    }
    steps.push({ stream: name, status: chat.status, error: errorInfo(chat.error) });
  }
  return {
    messages: structuredClone(chat.messages),
    status: chat.status,
    error: errorInfo(chat.error),
    onError: errors,
    onFinish: finishes,
    onData: data,
    steps,
    requests,
  };
}

export function chainOf(name) {
  const s = streams[name];
  return s.continues ? [...chainOf(s.continues.from), name] : [name];
}

export async function runStream(name, framing) {
  const s = streams[name];
  const warnings = [];
  const restore = captureConsole(warnings);
  try {
    let start;
    if (s.continues) {
      const prev = await runReader(loadBody(s.continues.from, framing));
      start = approve(prev.message, s.continues.approve);
    }
    const reader = await runReader(loadBody(name, framing), start);
    const chat = await runChat(chainOf(name), framing);
    return {
      stream: name,
      framing,
      valid: s.valid !== false,
      description: s.description,
      ...(s.continues ? { continues: s.continues, continuedMessage: start } : {}),
      reader: {
        message: reader.message,
        yields: reader.yields,
        partsCountPerYield: reader.partsCountPerYield,
        streamingToolInputs: reader.streamingToolInputs,
        errors: reader.errors,
        thrown: reader.thrown,
      },
      chat,
      warnings,
    };
  } finally {
    restore();
  }
}

async function main() {
  const names = process.argv.slice(2).length ? process.argv.slice(2) : Object.keys(streams);
  const summary = [];
  for (const name of names) {
    for (const framing of Object.keys(FRAMINGS)) {
      if (!fs.existsSync(recordingPath(name, framing))) throw new Error(`missing ${recordingPath(name, framing)}: run record.mjs first`);
      const json = await runStream(name, framing);
      fs.writeFileSync(path.join(RECORDINGS, `${name}${FRAMINGS[framing]}.official.json`), JSON.stringify(json, null, 2) + "\n");
      const r = json.reader;
      summary.push(
        `${(name + " " + framing).padEnd(46)} yields=${String(r.yields).padStart(2)} parts=${String(r.message?.parts.length ?? "-").padStart(2)} ` +
          (r.errors.length ? `onError=${r.errors.map((e) => e.name).join(",")} ` : "") +
          (r.thrown ? `THROWN ${r.thrown.message.slice(0, 60)} ` : "") +
          `| chat ${json.chat.status}${json.chat.error ? " " + json.chat.error.message.split("\n")[0].slice(0, 70) : ""}`,
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
