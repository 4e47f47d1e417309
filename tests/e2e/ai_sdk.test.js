// Vercel AI SDK chat, live in Chromium: the client's AI SDK driver (dialect "ai-sdk", option
// aiSdk) against tests/ai-sdk/server.mjs, a chat backend on the official ai@7.0.173
// (streamText + toUIMessageStreamResponse). The server is another origin, so the tests run in a
// Worker (its script has no page CSP); its URL reaches the page through e2e/env.js. The requests
// the client makes are seen through a wrapped fetch.
import { env } from "./env.js";
/** A client connecting now (constructors do no I/O: start() connects). */
const started = (c) => { c.start(); return c; };

function assert(cond, msg) {
  if (!cond) throw new Error(`assertion failed: ${msg}`);
}

function eq(a, b, msg) {
  const sa = JSON.stringify(a), sb = JSON.stringify(b);
  if (sa !== sb) throw new Error(`${msg}: ${sa} !== ${sb}`);
}

async function until(pred, what, ms = 30_000) {
  const t0 = Date.now();
  while (Date.now() - t0 < ms) {
    if (pred()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const FAST = { initialDelayMs: 20, maxDelayMs: 200, jitter: 0 };
const ended = (c) => ["closed", "failed"].includes(c.connection.state);
const errors = (c) => c.getSnapshot().diagnostics.filter((d) => d.severity === "error").map((d) => d.message);
const messages = (c) => c.getSnapshot().tasks.flatMap((t) => t.messages);
const assistants = (c) => messages(c).filter((m) => m.role === "assistant");
const users = (c) => messages(c).filter((m) => m.role === "user").map((m) => m.content);
/** What a user sees of an assistant message: its parts, ids left out where the server makes them up. */
const seen = (m) => m.parts.map((p) => {
  if (p.type === "text" || p.type === "reasoning") return [p.type, p.text, p.state];
  if (p.type.startsWith("tool-")) return [p.type, p.state, p.input, p.output ?? null];
  return [p.type];
});
const text = (m) => m.parts.filter((p) => p.type === "text").map((p) => p.text).join("");

function server() {
  if (!env.aiSdkUrl) throw new Error("no AI SDK server: run scripts/e2e-tests.sh (scripts/lib/ai-sdk-server.sh)");
  return env.aiSdkUrl;
}

/** Records the requests to URLs starting with `base` (method, path + query, content type, body). */
function watch(base) {
  const all = [];
  const orig = globalThis.fetch;
  globalThis.fetch = function (req, init) {
    if (req instanceof Request && req.url.startsWith(base)) {
      const u = new URL(req.url);
      const entry = { method: req.method, path: u.pathname + u.search, type: req.headers.get("Content-Type") };
      all.push(req.clone().text().then((t) => ({ ...entry, raw: t, body: t ? JSON.parse(t) : null })));
    }
    return orig.call(this, req, init);
  };
  return { stop: () => { globalThis.fetch = orig; }, all: () => Promise.all(all) };
}

/** The turn-1 weather answer as the server writes it. */
function weather(turn, city) {
  return [
    ["step-start"],
    ["reasoning", `Turn ${turn}: the user wants weather.`, "done"],
    ["text", `Turn ${turn}: checking the weather in ${city}…`, "done"],
    ["tool-weather", "output-available", { city }, { city, tempC: 21 }],
    ["step-start"],
    ["text", `Turn ${turn}: it is 21 °C in ${city}.`, "done"],
  ];
}

/** Tests against tests/ai-sdk/server.mjs, run in a Worker. */
export const liveTests = {
  /** Two turns (message option, then sendMessage), a tool with streamed input and output. */
  async ai_sdk_two_turns_and_a_tool(aw) {
    const base = server();
    const w = watch(base);
    const client = started(new aw.AgentClient({
      url: `${base}/api/chat`,
      aiSdk: { chatId: "two-turns", body: { model: "mock" }, headers: { Authorization: "Bearer test" } },
      message: "What is the weather in Bern?",
      reconnect: false,
    }));
    try {
      eq(client.dialect, "ai-sdk", "aiSdk implies the dialect");
      await until(() => ended(client), "turn 1");
      eq(client.connection.state, "closed", `turn 1: ${client.connection.reason}`);
      eq(users(client), ["What is the weather in Bern?"], "the user's message joined the task");
      const [m1] = assistants(client);
      eq(seen(m1), weather(1, "Bern"), "turn 1's parts");
      eq(m1.metadata, { turn: 1, model: "mock-model", totalTokens: 40 }, "metadata from start and finish (two steps)");
      const t1 = client.getSnapshot().tasks[0];
      eq([t1.id, t1.contextId, t1.status], [m1.id, "two-turns", "completed"], "one message = one task");
      eq(t1.tools.map((t) => [t.name, t.state, t.result]), [["weather", "succeeded", { city: "Bern", tempC: 21 }]], "task.tools");

      await client.sendMessage("And in Zürich?");
      await until(() => ended(client), "turn 2");
      eq(client.connection.state, "closed", `turn 2: ${client.connection.reason}`);
      eq(users(client), ["What is the weather in Bern?", "And in Zürich?"], "both user messages");
      const ms = assistants(client);
      eq(ms.length, 2, "two assistant messages");
      eq(seen(ms[1]), weather(2, "Zürich"), "turn 2's parts (its tool input split inside ü)");
      eq(client.getSnapshot().tasks.map((t) => t.status), ["completed", "completed"], "statuses");

      const reqs = await w.all();
      eq(reqs.map((r) => [r.method, r.path, r.type]), [["POST", "/api/chat", "application/json"], ["POST", "/api/chat", "application/json"]], "two POSTs");
      eq(Object.keys(reqs[0].body), ["model", "id", "messages", "trigger"], "DefaultChatTransport's member order");
      eq([reqs[0].body.id, reqs[0].body.trigger, reqs[0].body.messages.length], ["two-turns", "submit-message", 1], "POST 1");
      const sent = reqs[1].body.messages;
      eq(sent.map((m) => m.role), ["user", "assistant", "user"], "POST 2 carries the chat");
      eq(sent[1], { id: m1.id, role: "assistant", parts: m1.parts, metadata: m1.metadata }, "the assistant message exactly as assembled");
      eq(sent[2].parts, [{ type: "text", text: "And in Zürich?" }], "the new user message");
      eq(errors(client), [], "no errors");
      return `${ms.length} messages`;
    } finally {
      w.stop();
      client.close();
    }
  },

  /** A tool approval answered with approve(): the next POST continues the same message. */
  async ai_sdk_approval_continues_the_message(aw) {
    const base = server();
    const w = watch(base);
    const client = started(new aw.AgentClient({ url: `${base}/api/chat`, aiSdk: { chatId: "approval" }, message: "Please delete the file", reconnect: false }));
    try {
      await until(() => ended(client) && client.pendingInputs().length === 1, "the approval request");
      const input = client.pendingInputs()[0];
      eq([input.inputType, input.toolCall.name, input.toolCall.input], ["confirmation", "deleteFile", { path: "/tmp/ä.txt" }], "the request");
      const [m] = assistants(client);
      eq(client.getSnapshot().tasks[0].status, "waiting-input", "the message waits");
      eq(m.parts.find((p) => p.type === "tool-deleteFile").state, "approval-requested", "the part");
      await client.approve(input.id);
      await until(() => ended(client) && client.getSnapshot().tasks[0].status === "completed", "the continued message");
      eq(client.connection.state, "closed", client.connection.reason);
      const ms = assistants(client);
      eq(ms.length, 1, "still one assistant message");
      eq(client.getSnapshot().tasks.length, 1, "still one task");
      const part = ms[0].parts.find((p) => p.type === "tool-deleteFile");
      eq([part.state, part.output, part.approval.approved], ["output-available", { deleted: "/tmp/ä.txt" }, true], "the tool ran");
      eq(text(ms[0]), "I need your approval.Deleted /tmp/ä.txt", "the answer continued the text");
      eq(client.pendingInputs(), [], "nothing pending");
      const reqs = await w.all();
      eq(reqs.length, 2, "two POSTs");
      eq([reqs[1].body.trigger, reqs[1].body.messageId], ["submit-message", m.id], "messageId = the assistant message");
      const sentPart = reqs[1].body.messages.at(-1).parts.find((p) => p.type === "tool-deleteFile");
      eq([sentPart.state, sentPart.approval], ["approval-responded", { id: input.id, approved: true }], "the part sent");
      eq(errors(client), [], "no errors");
    } finally {
      w.stop();
      client.close();
    }
  },

  /** deny(id, reason): the tool is denied and the message goes on. */
  async ai_sdk_deny(aw) {
    const base = server();
    const client = started(new aw.AgentClient({ url: `${base}/api/chat`, aiSdk: { chatId: "deny" }, message: "delete it", reconnect: false }));
    try {
      await until(() => ended(client) && client.pendingInputs().length === 1, "the approval request");
      await client.deny(client.pendingInputs()[0].id, "not today");
      await until(() => ended(client) && client.getSnapshot().tasks[0].status === "completed", "the continued message");
      const [m] = assistants(client);
      const part = m.parts.find((p) => p.type === "tool-deleteFile");
      eq([part.state, part.approval.approved, part.approval.reason], ["output-denied", false, "not today"], "denied");
      assert(text(m).endsWith("Not deleted."), text(m));
    } finally {
      client.close();
    }
  },

  /** A client-side tool answered with respond(toolCallId, output). */
  async ai_sdk_client_side_tool(aw) {
    const base = server();
    const w = watch(base);
    const client = started(new aw.AgentClient({ url: `${base}/api/chat`, aiSdk: { chatId: "where" }, message: "Where am I?", reconnect: false }));
    try {
      await until(() => ended(client), "the first response");
      const [m] = assistants(client);
      const part = m.parts.find((p) => p.type === "tool-getLocation");
      eq([part.state, part.input], ["input-available", {}], "the part waits for its output");
      eq(client.getSnapshot().tasks[0].status, "waiting-input", "the message waits");
      await client.respond(part.toolCallId, { city: "Bern" });
      await until(() => ended(client) && client.getSnapshot().tasks[0].status === "completed", "the continued message");
      const [m2] = assistants(client);
      const done = m2.parts.find((p) => p.type === "tool-getLocation");
      eq([done.state, done.output], ["output-available", { city: "Bern" }], "the output");
      eq(text(m2), "Let me look.You are in Bern.", "the answer");
      const reqs = await w.all();
      eq(reqs[1].body.messageId, m.id, "messageId");
      eq(reqs[1].body.messages.at(-1).parts.find((p) => p.type === "tool-getLocation").state, "output-available", "the part sent");
      eq(errors(client), [], "no errors");
    } finally {
      w.stop();
      client.close();
    }
  },

  /** A dropped response is resumed with GET {api}/{chatId}/stream; its replay adds nothing twice. */
  async ai_sdk_drop_and_resume(aw) {
    const base = server();
    const w = watch(base);
    const client = started(new aw.AgentClient({ url: `${base}/api/chat?drop=6`, aiSdk: { chatId: "drop me" }, message: "slow please", reconnect: FAST }));
    try {
      await until(() => ended(client), "the resumed response");
      eq(client.connection.state, "closed", client.connection.reason);
      const reqs = await w.all();
      eq(reqs.map((r) => [r.method, r.path]), [["POST", "/api/chat?drop=6"], ["GET", "/api/chat/drop%20me/stream?drop=6"]], "one POST, one resume GET");
      const ms = assistants(client);
      eq(ms.length, 1, "one message");
      const parts = ms[0].parts.map((p) => p.type);
      eq(parts, ["step-start", "text"], "no part twice");
      const n = (text(ms[0]).match(/slow \d+\//g) ?? []).length;
      const total = Number(/slow \d+\/(\d+)/.exec(text(ms[0]))?.[1]);
      eq(n, total, `every delta once: ${text(ms[0])}`);
      eq(client.getSnapshot().tasks[0].status, "completed", "completed");
      eq(errors(client), [], "no errors");
      return `${total} deltas`;
    } finally {
      w.stop();
      client.close();
    }
  },

  /** With nothing to send, the client resumes; 204 = nothing to resume: closed. */
  async ai_sdk_resume_nothing(aw) {
    const base = server();
    const client = started(new aw.AgentClient({ url: `${base}/api/chat`, aiSdk: { chatId: "idle" }, reconnect: false }));
    try {
      await until(() => ended(client), "the end");
      eq(client.connection.state, "closed", client.connection.reason);
      assert(client.connection.reason.includes("204"), client.connection.reason);
    } finally {
      client.close();
    }
  },

  /** cancel(taskId) = stop(): the fetch is aborted, the message keeps its parts, the task is canceled. */
  async ai_sdk_cancel(aw) {
    const base = server();
    const client = started(new aw.AgentClient({ url: `${base}/api/chat`, aiSdk: { chatId: "stop" }, message: "slow please", reconnect: FAST }));
    try {
      await until(() => assistants(client)[0] && /slow 2\//.test(text(assistants(client)[0])), "some text");
      const task = client.getSnapshot().tasks[0].id;
      await client.cancel(task);
      await until(() => ended(client), "the stop");
      eq(client.connection.state, "closed", client.connection.reason);
      const t = client.getSnapshot().tasks[0];
      eq(t.status, "canceled", "the task");
      const part = assistants(client)[0].parts.find((p) => p.type === "text");
      eq(part.state, "streaming", "the text part as it was");
      const kept = part.text;
      await new Promise((r) => setTimeout(r, 300));
      eq(text(assistants(client)[0]), kept, "nothing arrives after the stop");
      assert(!/slow 30\//.test(kept), `stopped early: ${kept}`);
    } finally {
      client.close();
    }
  },

  /** CRLF line ends. */
  async ai_sdk_crlf(aw) {
    const base = server();
    const client = started(new aw.AgentClient({ url: `${base}/api/chat?framing=crlf`, aiSdk: { chatId: "crlf" }, message: "weather in Oslo", reconnect: false }));
    try {
      await until(() => ended(client), "the response");
      eq(seen(assistants(client)[0]), weather(1, "Oslo"), "the parts");
      eq(errors(client), [], "no errors");
    } finally {
      client.close();
    }
  },
};

export const tests = {
  /** The options are checked. */
  async ai_sdk_options(aw) {
    const bad = (o, code) => {
      try {
        new aw.AgentClient({ ...o });
      } catch (e) {
        eq(e.code, code, JSON.stringify(o));
        return;
      }
      throw new Error(`accepted ${JSON.stringify(o)}`);
    };
    bad({ url: "/x", aiSdk: [] }, "invalid-argument");
    bad({ url: "/x", aiSdk: { chatId: "" } }, "invalid-argument");
    bad({ url: "/x", aiSdk: { messages: [{ role: "user" }] } }, "invalid-argument");
    bad({ url: "/x", aiSdk: {}, body: { a: 1 } }, "invalid-argument");
    bad({ url: "/x", aiSdk: {}, dialect: "a2a" }, "invalid-argument");
    const c = new aw.AgentClient({ url: "/x", aiSdk: {}, message: "hi"});
    eq(c.dialect, "ai-sdk", "aiSdk with message is ai-sdk");
    c.close();
    bad({ url: "/x", dialect: "ai-sdk", transport: "eventsource" }, "invalid-argument");
    // The manual transport: the app feeds a UI message stream.
    const m = started(new aw.AgentClient({ transport: "manual", dialect: "ai-sdk" }));
    m.store.feedText('data: {"type":"start","messageId":"m1"}\n\ndata: {"type":"text-start","id":"t"}\n\ndata: {"type":"text-delta","id":"t","delta":"Hi"}\n\ndata: {"type":"text-end","id":"t"}\n\ndata: {"type":"finish"}\n\ndata: [DONE]\n\n');
    eq(seen(assistants(m)[0]), [["text", "Hi", "done"]], "fed by the app");
    m.close();
  },

  /** Against tests/ai-sdk/server.mjs, in a Worker (another origin). */
  ...Object.fromEntries(Object.keys(liveTests).map((name) => [name, () => inWorker(name)])),
};

/** Runs `liveTests[name]` in a module worker (tests/e2e/dialects.worker.js). */
function inWorker(name) {
  return new Promise((resolve, reject) => {
    const url = new URL(`./dialects.worker.js?file=ai_sdk.test.js&name=${encodeURIComponent(name)}`, import.meta.url);
    const w = new Worker(url, { type: "module" });
    w.onmessage = (m) => {
      w.terminate();
      if (m.data.ok) resolve(`${m.data.detail ?? ""} (in a worker)`);
      else reject(new Error(m.data.error));
    };
    w.onerror = (e) => { w.terminate(); reject(new Error(`worker: ${e.message}`)); };
  });
}
