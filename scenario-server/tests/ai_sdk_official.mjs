#!/usr/bin/env node
// Drives the scenario server's POST /api/ai-sdk/chat with the official ai@7.0.173 client: the
// official DefaultChatTransport (its SSE path: eventsource-parser → uiMessageChunkSchema → the
// chunk stream) feeding the official readUIMessageStream, and an AbstractChat (the base of
// @ai-sdk/react's useChat) for the approval and client-side tool round trips and the resume.
// Every chunk of every response is also checked against uiMessageChunkSchema. Run by
// `cargo test -p agentwire-scenario --test ai_sdk` when node and the package are installed:
//
//   AI_SDK_NODE_MODULES=<dir with ai/> node ai_sdk_official.mjs http://127.0.0.1:PORT/api/ai-sdk/chat
//
// Fails (exit 1) on: a thrown error, an onError of readUIMessageStream or of the Chat that is
// not the scenario's own failure, any console.warn/error, a frame that is not exactly
// `data: <JSON>\n\n`, a body not ending with `data: [DONE]\n\n`, a chunk uiMessageChunkSchema
// refuses, or an unexpected final message.

import path from "node:path";
import { pathToFileURL } from "node:url";

const NM = process.env.AI_SDK_NODE_MODULES;
const BASE = process.argv[2];
if (!NM || !BASE) {
  console.error("usage: AI_SDK_NODE_MODULES=DIR node ai_sdk_official.mjs URL");
  process.exit(2);
}
const { DefaultChatTransport, readUIMessageStream, AbstractChat, uiMessageChunkSchema } = await import(
  pathToFileURL(path.join(NM, "ai/dist/index.js")).href
);
const schema = uiMessageChunkSchema();

const warnings = [];
const origError = console.error;
console.warn = (...a) => warnings.push(a.map(String).join(" "));
console.error = (...a) => warnings.push("error: " + a.map(String).join(" "));

let checked = 0;
const pendingBodies = [];
const responses = [];
async function check(body, into) {
  if (!body.endsWith("data: [DONE]\n\n")) throw new Error(`body does not end with [DONE]: ${JSON.stringify(body.slice(-80))}`);
  const frames = body.slice(0, -2).split("\n\n");
  frames.pop();
  for (const f of frames) {
    if (!f.startsWith("data: ") || f.includes("\n")) throw new Error(`not a UI message stream frame: ${JSON.stringify(f.slice(0, 120))}`);
    const chunk = JSON.parse(f.slice(6));
    const r = await schema.validate(chunk);
    if (!r.success) throw new Error(`uiMessageChunkSchema refuses ${f.slice(0, 200)}: ${r.error.message.slice(0, 300)}`);
    into.push(chunk);
    checked++;
  }
}
async function teeFetch(url, init) {
  const res = await fetch(url, init);
  if (res.status !== 200 || !res.body) return res;
  const [a, b] = res.body.tee();
  const chunks = [];
  responses.push(chunks);
  pendingBodies.push(new Response(b).text().then((t) => check(t, chunks)));
  return new Response(a, { status: res.status, headers: res.headers });
}
const settle = async () => {
  await Promise.all(pendingBodies.splice(0));
  return responses.at(-1);
};

function expect(cond, what) {
  if (!cond) throw new Error(`expected: ${what}`);
}

/** One response through DefaultChatTransport + readUIMessageStream. */
async function read(query, chatId, messages, message) {
  const transport = new DefaultChatTransport({ api: `${BASE}?${query}`, fetch: teeFetch });
  const stream = await transport.sendMessages({
    chatId,
    messages,
    trigger: "submit-message",
    messageId: message?.id,
    abortSignal: undefined,
  });
  const errors = [];
  let last;
  for await (const m of readUIMessageStream({ stream, message: message ? structuredClone(message) : undefined, onError: (e) => errors.push(e) })) last = m;
  const chunks = await settle();
  return { message: last, errors, chunks };
}

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
      pushMessage: (m) => (messages = messages.concat(m)),
      popMessage: () => (messages = messages.slice(0, -1)),
      replaceMessage: (i, m) => (messages = [...messages.slice(0, i), m, ...messages.slice(i + 1)]),
      snapshot: (t) => structuredClone(t),
    };
    super({ ...init, state });
  }
}

const user = (id, text) => ({ id, role: "user", parts: [{ type: "text", text }] });
const toolParts = (m) => m.parts.filter((p) => p.type.startsWith("tool-"));

// Every scenario through readUIMessageStream: no error (but the failure's own), the end it has.
for (const [scenario, reason] of [
  ["quick", "stop"],
  ["failure", "error"],
  ["xss", "stop"],
  ["bulk&events=400", "stop"],
]) {
  const r = await read(`scenario=${scenario}&speed=0`, `node-${scenario}`, [user("u1", "go")]);
  const last = r.chunks.at(-1);
  expect(last.type === "finish" && last.finishReason === reason, `${scenario} finishes ${reason}, got ${JSON.stringify(last)}`);
  if (reason === "error") {
    expect(r.errors.length === 1 && r.chunks.some((c) => c.type === "error" && c.errorText === r.errors[0].message), "the failure's error chunk");
  } else {
    expect(r.errors.length === 0, `${scenario}: no errors, got ${r.errors.map(String)}`);
  }
  expect(r.message.role === "assistant" && r.message.id.startsWith("msg-task-"), `${scenario}: the assistant message`);
  console.log(`ok ${scenario} (${r.message.parts.length} parts)`);
}

// main through readUIMessageStream: approval denied, sign-in answered by the client-side tool.
{
  const u = user("u1", "How did Q4 go?");
  let r = await read("scenario=main&speed=0", "node-reader-main", [u]);
  expect(r.errors.length === 0, "no errors");
  expect(r.chunks.at(-1).finishReason === "tool-calls", "finish tool-calls");
  let part = toolParts(r.message).find((p) => p.type === "tool-confirm");
  expect(part?.state === "approval-requested", `the confirm call awaits approval: ${JSON.stringify(part)}`);
  let m = {
    ...r.message,
    parts: r.message.parts.map((p) => (p === part ? { ...p, state: "approval-responded", approval: { ...p.approval, approved: false } } : p)),
  };
  r = await read("scenario=main&speed=0", "node-reader-main", [u, m], m);
  expect(r.errors.length === 0 && r.message.id === m.id, "the same message continues");
  expect(toolParts(r.message).find((p) => p.type === "tool-confirm").state === "output-denied", "denied");
  part = toolParts(r.message).find((p) => p.type === "tool-authorize");
  expect(part?.state === "input-available", "the authorize call waits for the client");
  m = { ...r.message, parts: r.message.parts.map((p) => (p === part ? { ...p, state: "output-available", output: { userId: "ada" } } : p)) };
  r = await read("scenario=main&speed=0", "node-reader-main", [u, m], m);
  expect(r.errors.length === 0 && r.chunks.at(-1).finishReason === "stop", "main completes");
  const text = r.message.parts.filter((p) => p.type === "text").map((p) => p.text).join("");
  expect(text.includes("## Q4 sales summary"), "the root's answer");
  expect(!toolParts(r.message).some((p) => p.type === "tool-send_email"), "no email after the denial");
  expect(r.message.parts.some((p) => p.type === "file" && p.url.startsWith("data:text/markdown;base64,")), "report.md as a file part");
  console.log("ok main (reader, denied)");
}

// main through the official Chat (useChat's base): approve, authorize, then a second turn.
{
  let n = 0;
  const finishes = [];
  const chatErrors = [];
  const data = [];
  const chat = new TestChat({
    id: "node-chat-main",
    transport: new DefaultChatTransport({ api: `${BASE}?scenario=main&speed=0`, fetch: teeFetch }),
    generateId: () => `gen-${++n}`,
    onFinish: (f) => finishes.push(f),
    onError: (e) => chatErrors.push(e),
    onData: (d) => data.push(d),
  });
  await chat.sendMessage({ text: "How did Q4 go?" });
  await settle();
  expect(chat.status === "ready" && !chat.error, `ready after the first response: ${chat.status} ${chat.error}`);
  let m = chat.messages.at(-1);
  const confirm = toolParts(m).find((p) => p.type === "tool-confirm");
  expect(confirm?.state === "approval-requested", "approval requested");
  expect(finishes.at(-1).finishReason === "tool-calls", "onFinish tool-calls");
  await chat.addToolApprovalResponse({ id: confirm.approval.id, approved: true });
  await chat.sendMessage();
  await settle();
  m = chat.messages.at(-1);
  expect(chat.messages.length === 2, `one assistant message, got ${chat.messages.length} messages`);
  expect(toolParts(m).find((p) => p.type === "tool-confirm").state === "output-available", "approved");
  const email = toolParts(m).find((p) => p.type === "tool-send_email");
  expect(email?.state === "output-available" && email.output.accepted[0] === "finance@example.com", "the email was sent");
  const auth = toolParts(m).find((p) => p.type === "tool-authorize");
  expect(auth?.state === "input-available" && auth.input.provider === "github", "the authorize call");
  await chat.addToolOutput({ tool: "authorize", toolCallId: auth.toolCallId, output: { userId: "ada" } });
  await chat.sendMessage();
  await settle();
  m = chat.messages.at(-1);
  expect(chat.messages.length === 2 && finishes.at(-1).finishReason === "stop", "completed in the same message");
  expect(m.parts.some((p) => p.type === "text" && p.text.includes("A copy was sent to finance@example.com.")), "the answer names the email");
  expect(m.parts.some((p) => p.type === "data-artifact" && p.data.name === "report.md" && p.data.complete), "the report artifact");
  expect(m.parts.filter((p) => p.type === "data-subtask").length >= 3, "the sub-agents");
  expect(m.parts.some((p) => p.type === "reasoning"), "reasoning parts");
  expect(data.some((d) => d.type === "data-internal"), "transient internal events via onData");
  expect(!m.parts.some((p) => p.type === "data-internal"), "transient parts stay out of the message");
  await chat.sendMessage({ text: "And Q1?" });
  await settle();
  const last = chat.messages.at(-1);
  expect(chat.messages.length === 4 && last.parts.find((p) => p.type === "text").text.startsWith("Turn 2: you asked “And Q1?”"), "the second turn");
  expect(chatErrors.length === 0, `no chat errors: ${chatErrors.map(String)}`);
  console.log("ok main (Chat: approved, authorized, second turn)");
}

// drop=K and resume: the POST is cut; chat.resumeStream() replays the active response.
{
  const chat = new TestChat({
    id: "node-chat-drop",
    transport: new DefaultChatTransport({ api: `${BASE}?scenario=quick&speed=0&faults=drop=25`, fetch: teeFetch }),
  });
  const cut = [];
  const origFetch = teeFetch;
  await chat.sendMessage({ text: "go" }).catch((e) => cut.push(e));
  await Promise.allSettled(pendingBodies.splice(0));
  const partial = chat.messages.at(-1);
  expect(partial?.role === "assistant", "a partial message after the cut");
  await chat.resumeStream();
  await settle();
  const m = chat.messages.at(-1);
  expect(chat.messages.length === 2 && m.id === partial.id, "the resumed message replaces the partial one");
  expect(m.parts.some((p) => p.type === "text" && p.state === "done"), "the resumed message is complete");
  expect(chat.status === "ready", `ready, got ${chat.status} ${chat.error}`);
  // Nothing active any more: 204, the Chat stays ready.
  await chat.resumeStream();
  expect(chat.status === "ready" && chat.messages.length === 2, "204 leaves the chat as it was");
  void origFetch;
  console.log("ok drop + resume");
}

// CRLF / CR framing through the official parser.
for (const f of ["crlf", "cr"]) {
  const transport = new DefaultChatTransport({ api: `${BASE}?scenario=quick&speed=0&faults=${f}` });
  const stream = await transport.sendMessages({ chatId: `node-${f}`, messages: [user("u1", "go")], trigger: "submit-message", abortSignal: undefined });
  const errors = [];
  let last;
  for await (const m of readUIMessageStream({ stream, onError: (e) => errors.push(e) })) last = m;
  expect(errors.length === 0 && last.parts.some((p) => p.type === "text" && p.state === "done"), `${f}: a complete message`);
  console.log(`ok ${f}`);
}

if (warnings.length) {
  origError(`client warnings:\n${warnings.join("\n")}`);
  process.exit(1);
}
console.log(`ok ${checked} chunks valid by uiMessageChunkSchema`);
