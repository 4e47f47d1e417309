// AG-UI 1.0, live in Chromium: the client's AG-UI driver (dialect "ag-ui", option agUi) against
// the scenario server's POST /api/ag-ui (same origin) and against tests/ag-ui/server.mjs, the
// agent on the official @ag-ui/encoder (another origin: through a Worker, whose script has no
// page CSP; its URL reaches the page through e2e/env.js). A few tests answer from a fake fetch
// (an expired interrupt, protobuf framing, an HTTP error), which is how the client's requests
// are seen too.
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

const ended = (c) => ["closed", "failed"].includes(c.connection.state);
const errors = (c) => c.getSnapshot().diagnostics.filter((d) => d.severity === "error").map((d) => d.message);
/** Every message of the snapshot's tasks, in task order. */
const messages = (c) => c.getSnapshot().tasks.flatMap((t) => t.messages);
const texts = (c, role) => messages(c).filter((m) => m.role === role).map((m) => m.content);
/** The latest sharedState of the thread. */
const sharedState = (c) => c.getSnapshot().tasks.filter((t) => t.sharedState !== undefined).at(-1)?.sharedState;

/** Records the bodies POSTed to URLs containing `part` (the page's or worker's fetch). */
function watchPosts(part) {
  const seen = [];
  const orig = globalThis.fetch;
  globalThis.fetch = function (req, init) {
    if (req instanceof Request && req.url.includes(part)) {
      seen.push(req.clone().text().then((t) => ({ accept: req.headers.get("Accept"), type: req.headers.get("Content-Type"), body: JSON.parse(t) })));
    }
    return orig.call(this, req, init);
  };
  return { stop: () => { globalThis.fetch = orig; }, all: () => Promise.all(seen) };
}

/** Answers POSTs to `url` with `answer(body, n)` → Response (n counts from 0), until `stop()`. */
function fakeAgent(url, answer) {
  const orig = globalThis.fetch;
  let n = 0;
  const bodies = [];
  globalThis.fetch = async function (req, init) {
    const u = req instanceof Request ? req.url : String(req);
    if (u.endsWith(url)) {
      const body = JSON.parse(await req.clone().text());
      bodies.push(body);
      return answer(body, n++);
    }
    return orig.call(this, req, init);
  };
  return { bodies, stop: () => { globalThis.fetch = orig; } };
}

const sse = (events) => new Response(events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join(""), { headers: { "Content-Type": "text/event-stream" } });

/** The scenario server's AG-UI endpoint. */
const scenario = (q) => `/api/ag-ui?speed=0&seed=7&${q}`;

/** Runs the `quick` scenario (one run, no interrupts) with `faults`; the client once ended. */
async function quickRun(aw, faults) {
  const client = started(new aw.AgentClient({
    url: scenario(`scenario=quick${faults ? `&faults=${faults}` : ""}`),
    dialect: "ag-ui",
    agUi: { threadId: `quick-${faults || "lf"}-${Math.random()}`, messages: [{ id: "u1", role: "user", content: "Quick, please" }] },
    reconnect: false,
  }));
  await until(() => ended(client), "the run's end");
  return client;
}

/** What a user sees of a finished quick run (ids differ between threads, so only texts). */
function visible(client) {
  const s = client.getSnapshot();
  return {
    statuses: s.tasks.map((t) => t.status),
    messages: messages(client).map((m) => [m.role, m.content, m.toolCalls.map((c) => [c.function.name, c.function.arguments])]),
    tools: s.tasks.flatMap((t) => t.tools.map((x) => [x.name, x.argumentsText])),
    tasksInState: Object.keys(sharedState(client)?.tasks ?? {}).length,
  };
}

/** Tests against tests/ag-ui/server.mjs, run in a Worker. */
export const liveTests = {
  /** Two turns, a tool call with streamed arguments, state deltas; then an interrupt approved. */
  async ag_ui_official_turns_and_interrupt(aw) {
    if (!env.agUiUrl) throw new Error("no AG-UI server: run scripts/e2e-tests.sh (scripts/lib/ag-ui-server.sh)");
    const url = `${env.agUiUrl}/agent`;
    const posts = watchPosts("/agent");
    const client = started(new aw.AgentClient({
      url,
      dialect: "ag-ui",
      agUi: { threadId: "t-official", messages: [{ id: "u1", role: "user", content: "What time is it?" }], state: { theme: "dark" }, tools: [{ name: "confirm", description: "asks the user" }] },
      headers: { Authorization: "Bearer test" },
      reconnect: false,
    }));
    try {
      await until(() => ended(client), "turn 1");
      eq(client.connection.state, "closed", `turn 1 ended: ${client.connection.reason}`);
      eq(texts(client, "user"), ["What time is it?"], "the user's message joined the run");
      assert(texts(client, "assistant").some((t) => t.includes("What time is it?")), `the answer: ${texts(client, "assistant")}`);
      const call = messages(client).flatMap((m) => m.toolCalls).find((c) => c.function.name === "get_time");
      assert(call, "a get_time tool call");
      JSON.parse(call.function.arguments);
      const tool = client.getSnapshot().tasks[0].tools.find((t) => t.name === "get_time");
      eq(tool.argumentsText, call.function.arguments, "the streamed arguments, in tools and messages");
      eq(sharedState(client).theme, "dark", "the input state is the run's starting state");
      eq(sharedState(client).turn, 1, "state: turn 1");

      await client.sendMessage("And tomorrow?");
      await until(() => ended(client), "turn 2");
      eq(client.connection.state, "closed", `turn 2 ended: ${client.connection.reason}`);
      eq(texts(client, "user"), ["What time is it?", "And tomorrow?"], "both user messages");
      assert(texts(client, "assistant").some((t) => t.includes("And tomorrow?")), "the second answer");
      eq(sharedState(client).turn, 2, "state: turn 2");

      await client.sendMessage("interrupt");
      await until(() => client.pendingInputs().length === 1, "the interrupt");
      const input = client.pendingInputs()[0];
      eq(client.getSnapshot().tasks.at(-1).status, "waiting-input", "the run waits");
      await client.respond(input.id, { approved: true });
      await until(() => ended(client), "the resume run");
      eq(client.connection.state, "closed", `resume ended: ${client.connection.reason}`);
      assert(texts(client, "assistant").includes("Approved, the files are deleted."), `the resumed answer: ${texts(client, "assistant")}`);
      assert(texts(client, "tool").includes("approved: deleted 3 files"), "the tool result");
      eq(sharedState(client).resumed, { interruptId: input.id, status: "resolved" }, "state after resume");
      const answered = client.getSnapshot().tasks.flatMap((t) => t.inputs).find((i) => i.id === input.id);
      eq(answered.state, "answered", "the old run's input is answered");
      eq(errors(client), [], "no errors");

      const sent = await posts.all();
      eq(sent.length, 4, "four runs");
      eq(Object.keys(sent[0].body), ["threadId", "runId", "protocolVersion", "state", "messages", "tools", "context", "forwardedProps"], "key order");
      eq(sent[0].accept, "text/event-stream", "Accept");
      eq(sent[3].body.resume, [{ interruptId: input.id, status: "resolved", payload: { approved: true } }], "the resume entry");
      assert(sent.every((p) => p.body.threadId === "t-official"), "one thread");
      eq(new Set(sent.map((p) => p.body.runId)).size, 4, "a new runId per run");
      eq(sent[1].body.tools, [{ name: "confirm", description: "asks the user" }], "tools with every run");
      return `${sent.length} runs, ${messages(client).length} messages`;
    } finally {
      posts.stop();
      client.close();
    }
  },
};

export const tests = {
  /** The manual transport reads what the app feeds (a recorded AG-UI stream, a benchmark). */
  async ag_ui_manual_transport_reads_a_fed_stream(aw) {
    const client = new aw.AgentClient({ transport: "manual", dialect: "ag-ui" });
    const frame = (e) => `data: ${JSON.stringify(e)}\r\n\r\n`; // CRLF, as Python servers frame it
    const bytes = new TextEncoder().encode([
      { type: "RUN_STARTED", threadId: "t1", runId: "r1" },
      { type: "TEXT_MESSAGE_START", messageId: "m1", role: "assistant" },
      { type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta: "Hello, " },
      { type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta: "world" },
      { type: "TEXT_MESSAGE_END", messageId: "m1" },
      { type: "RUN_FINISHED", threadId: "t1", runId: "r1" },
    ].map(frame).join(""));
    client.store.feed(bytes.subarray(0, 50));
    client.store.feed(bytes.subarray(50));
    const root = client.getSnapshot().roots[0];
    eq([root.id, root.contextId, root.status, root.content], ["r1", "t1", "completed", "Hello, world"], "the run");
    eq(root.messages.map((m) => [m.role, m.content]), [["assistant", "Hello, world"]], "the message");
    eq(client.dialect, "ag-ui", "the dialect");
    client.close();
  },

  /** The snapshot's task objects are built apart from stateJson (texts in string pools, the
   * JSON made ASCII with \u escapes, a message's text shipped once for both its `content` and
   * its text part, the shared state's writer staging short pieces): they must equal stateJson's
   * tasks whatever the text (accents, CJK, emoji, quotes, newlines, long and short), read
   * mid-stream (objects cached, then rebuilt) and at the end. */
  async ag_ui_snapshot_objects_equal_state_json(aw) {
    const client = new aw.AgentClient({ transport: "manual", dialect: "ag-ui" });
    const frame = (e) => `data: ${JSON.stringify(e)}\n\n`;
    const odd = 'naïve → 分析 📈 "q" \\ \n\t end';
    const long = `${"Row of text. ".repeat(40)}São Paulo 🚀${"x".repeat(300)}`;
    const run = (r, texts) => [
      { type: "RUN_STARTED", threadId: "t1", runId: r },
      ...(r === "r1" ? [{ type: "STATE_SNAPSHOT", snapshot: { files: { f: { chunks: [odd, long, ""] } }, n: 1.5, list: [1, -2, 1e21, 0.056, "分析", null, true, {}, []], "clé é": { "": "" } } }] : []),
      { type: "REASONING_MESSAGE_START", messageId: `${r}-think`, role: "reasoning" },
      { type: "REASONING_MESSAGE_CONTENT", messageId: `${r}-think`, delta: `Thinking about ${odd}` },
      { type: "REASONING_MESSAGE_END", messageId: `${r}-think` },
      ...texts.flatMap((t, i) => [
        { type: "TEXT_MESSAGE_START", messageId: `${r}-m${i}`, role: "assistant" },
        ...t.map((delta) => ({ type: "TEXT_MESSAGE_CONTENT", messageId: `${r}-m${i}`, delta })),
        { type: "TEXT_MESSAGE_END", messageId: `${r}-m${i}` },
      ]),
      { type: "TOOL_CALL_START", toolCallId: `${r}-tc`, toolCallName: "lookup", parentMessageId: `${r}-m0` },
      { type: "TOOL_CALL_ARGS", toolCallId: `${r}-tc`, delta: JSON.stringify({ q: odd }) },
      { type: "TOOL_CALL_END", toolCallId: `${r}-tc` },
      { type: "TOOL_CALL_RESULT", messageId: `${r}-tool`, toolCallId: `${r}-tc`, content: `found ${odd}` },
      { type: "STATE_DELTA", delta: [{ op: "add", path: `/${r}`, value: [odd, long.length] }] },
      { type: "RUN_FINISHED", threadId: "t1", runId: r },
    ];
    const enc = (events) => new TextEncoder().encode(events.map(frame).join(""));
    const same = (when) => {
      const snap = client.getSnapshot();
      eq(snap.tasks, JSON.parse(client.store.stateJson()).tasks, `snapshot tasks vs stateJson ${when}`);
      return snap;
    };
    client.store.feed(enc(run("r1", [["Hello, ", odd], ["plain ascii"], [long]])));
    const first = same("after run 1");
    client.store.feed(enc(run("r2", [["é"], ["a", "b", "📈"], ["x".repeat(7), "y".repeat(9)]])));
    const snap = same("after run 2");
    assert(snap.tasks[0] === first.tasks[0] || snap.tasks[0].revision !== first.tasks[0].revision, "an unchanged task keeps its object");
    const m = snap.tasks.flatMap((t) => t.messages).find((x) => x.id === "r1-m0");
    eq([m.content, m.parts[0].text], [`Hello, ${odd}`, `Hello, ${odd}`], "a message's text in content and its part");
    eq(snap.tasks.at(-1).sharedState.files.f.chunks, [odd, long, ""], "the shared state's texts");
    eq(errors(client), [], "no errors");
    client.close();
  },

  /** Two turns against the scenario server: the first run (quick scenario), then a second turn. */
  async ag_ui_two_turns(aw) {
    const client = await quickRun(aw, "");
    eq(client.connection.state, "closed", `run 1: ${client.connection.reason}`);
    eq(texts(client, "user"), ["Quick, please"], "the user's message");
    assert(texts(client, "assistant").join("").length > 20, "an answer");
    eq(client.getSnapshot().tasks.find((t) => !t.parentId).status, "completed", "the run completed");
    const posts = watchPosts("/api/ag-ui");
    try {
      await client.sendMessage("Tell me more");
      await until(() => ended(client), "turn 2");
      eq(client.connection.state, "closed", `run 2: ${client.connection.reason}`);
      eq(texts(client, "user"), ["Quick, please", "Tell me more"], "both user messages");
      assert(texts(client, "assistant").some((t) => t.includes("Turn") && t.includes("Tell me more")), `the second turn's answer: ${texts(client, "assistant").at(-1)}`);
      eq(typeof sharedState(client).turn, "number", "state /turn replaced");
      const [second] = await posts.all();
      eq(second.body.messages.at(-1).content, "Tell me more", "the new user message is last");
      assert(second.body.messages.some((m) => m.role === "assistant"), "the thread's messages are sent");
      assert(!second.body.messages.some((m) => m.role === "activity"), "no activity messages");
      eq(second.body.state.run.scenario, "quick", "the latest sharedState is sent");
      eq(errors(client), [], "no errors");
      return `${messages(client).length} messages`;
    } finally {
      posts.stop();
      client.close();
    }
  },

  /** The main scenario's tool call with streamed arguments, and sharedState from the deltas. */
  async ag_ui_tool_args_and_state(aw) {
    const client = started(new aw.AgentClient({ url: scenario("scenario=main"), dialect: "ag-ui", agUi: { messages: [{ id: "u1", role: "user", content: "How did Q4 go?" }] } }));
    try {
      await until(() => client.pendingInputs().length > 0, "the approval");
      const tool = client.getSnapshot().tasks.flatMap((t) => t.tools).find((t) => t.name === "search_database");
      eq(JSON.parse(tool.argumentsText).table, "sales_data", "search_database's streamed arguments");
      const call = messages(client).flatMap((m) => m.toolCalls).find((c) => c.function.name === "search_database");
      eq(call.function.arguments, tool.argumentsText, "the message's tool call has the same arguments");
      const state = sharedState(client);
      eq(state.run.scenario, "main", "sharedState.run");
      const root = client.getSnapshot().tasks.find((t) => !t.parentId);
      eq(state.tasks && typeof state.tasks, "object", "sharedState.tasks");
      assert(Object.values(state.requests ?? {}).some((r) => r.status === "open"), "the open request in the state");
      eq(root.status, "waiting-input", "the run waits for the approval");
      eq(client.connection.state, "open", "the connection waits for the answers");
      return `${Object.keys(state.tasks).length} tasks in the state`;
    } finally {
      client.close();
    }
  },

  /** The approval (approve) and the sign-in (respond): each resume run continues the thread. */
  async ag_ui_interrupt_resume(aw) {
    const posts = watchPosts("/api/ag-ui");
    const client = started(new aw.AgentClient({ url: scenario("scenario=main"), dialect: "ag-ui", agUi: { messages: [{ id: "u1", role: "user", content: "How did Q4 go?" }] } }));
    try {
      await until(() => client.pendingInputs().length > 0, "the approval");
      const approval = client.pendingInputs()[0];
      eq(approval.prompt, "Send the report to finance@example.com?", "the approval's prompt");
      const firstRun = approval.taskId;
      await client.approve(approval.id);
      await until(() => client.pendingInputs().some((i) => i.id !== approval.id), "the sign-in");
      const old = client.getSnapshot().tasks.find((t) => t.id === firstRun);
      eq(old.inputs.find((i) => i.id === approval.id).state, "answered", "the approval is answered");
      assert(messages(client).flatMap((m) => m.toolCalls).some((c) => c.function.name === "send_email"), "send_email after approval");
      const auth = client.pendingInputs()[0];
      await client.respond(auth.id, { userId: "ada" });
      await until(() => ended(client), "the last run");
      eq(client.connection.state, "closed", `ended: ${client.connection.reason}`);
      const s = client.getSnapshot();
      const roots = s.tasks.filter((t) => !t.parentId);
      eq(roots.map((t) => t.status), ["completed", "completed", "completed"], "three runs, all completed");
      assert(texts(client, "assistant").join("").includes("A copy was sent to finance@example.com."), `the answer: ${JSON.stringify(s.diagnostics.slice(0, 5).map((d) => [d.severity, d.code, d.message.slice(0, 200)]))}`);
      assert(sharedState(client).artifacts["file/report.md"], "report.md in the shared state");
      const sent = await posts.all();
      eq(sent.map((p) => p.body.resume?.[0]?.status ?? null), [null, "resolved", "resolved"], "resume entries");
      eq(sent[1].body.resume[0].payload, "approve", "approve's payload");
      eq(errors(client), [], "no errors");
      return `${s.tasks.length} tasks`;
    } finally {
      posts.stop();
      client.close();
    }
  },

  /** deny = status "cancelled"; a partial set of answers waits for the rest. */
  async ag_ui_deny_cancelled(aw) {
    const posts = watchPosts("/api/ag-ui");
    const client = started(new aw.AgentClient({ url: scenario("scenario=main"), dialect: "ag-ui", agUi: { messages: [{ id: "u1", role: "user", content: "Q4?" }] } }));
    try {
      await until(() => client.pendingInputs().length > 0, "the approval");
      await client.deny(client.pendingInputs()[0].id);
      await until(() => ended(client) || client.pendingInputs().length > 0, "the resume run");
      const sent = await posts.all();
      eq(sent[1].body.resume[0].status, "cancelled", "deny is cancelled");
      assert(!("payload" in sent[1].body.resume[0]), "no payload");
      return client.connection.state;
    } finally {
      posts.stop();
      client.close();
    }
  },

  /** A dropped stream: no reconnect, the connection fails `interrupted`, the run stays working. */
  async ag_ui_drop(aw) {
    const client = await quickRun(aw, "drop=20");
    eq(client.connection.state, "failed", "failed");
    eq(client.connection.code, "interrupted", `code (${client.connection.reason})`);
    const root = client.getSnapshot().tasks.find((t) => !t.parentId);
    eq(root.status, "working", "the run's task stays working");
    assert(texts(client, "user").includes("Quick, please"), "what arrived is kept");
    return client.connection.reason;
  },

  /** CRLF framing (and CR) give the same state as LF. */
  async ag_ui_crlf(aw) {
    const lf = visible(await quickRun(aw, ""));
    const crlf = visible(await quickRun(aw, "crlf"));
    const cr = visible(await quickRun(aw, "cr"));
    eq(crlf, lf, "CRLF = LF");
    eq(cr, lf, "CR = LF");
    assert(lf.messages.length > 1 && lf.tasksInState > 0, "something to compare");
    return `${lf.messages.length} messages`;
  },

  /** An expired interrupt can only be cancelled. */
  async ag_ui_expired_interrupt(aw) {
    const fake = fakeAgent("/fake-agent", (body, n) => n === 0
      ? sse([{ type: "RUN_STARTED", threadId: body.threadId, runId: body.runId },
        { type: "RUN_FINISHED", threadId: body.threadId, runId: body.runId, outcome: { type: "interrupt", interrupts: [{ id: "i-old", reason: "confirmation", expiresAt: "2000-01-01T00:00:00Z" }] } }])
      : sse([{ type: "RUN_STARTED", threadId: body.threadId, runId: body.runId }, { type: "RUN_FINISHED", threadId: body.threadId, runId: body.runId }]));
    const client = started(new aw.AgentClient({ url: "/fake-agent", dialect: "ag-ui" }));
    try {
      await until(() => client.pendingInputs().length === 1, "the interrupt");
      let code = null;
      try { await client.respond("i-old", "approve"); } catch (e) { code = e.code; }
      eq(code, "expired", "respond to an expired interrupt");
      await client.deny("i-old");
      await until(() => ended(client), "the resume run");
      eq(fake.bodies[1].resume, [{ interruptId: "i-old", status: "cancelled" }], "cancelled");
      eq(client.connection.state, "closed", "closed");
      return "expired rejected, cancel sent";
    } finally {
      fake.stop();
      client.close();
    }
  },

  /** A protobuf answer is not read (unsupported-framing); an HTTP error says status and body. */
  async ag_ui_refusals(aw) {
    const fake = fakeAgent("/fake-proto", () => new Response(new Uint8Array([0, 0, 0, 2, 8, 1]), { headers: { "Content-Type": "application/vnd.ag-ui.event+proto" } }));
    const fake2 = fakeAgent("/fake-500", () => new Response(JSON.stringify({ error: "boom" }), { status: 500, headers: { "Content-Type": "application/json" } }));
    const a = started(new aw.AgentClient({ url: "/fake-proto", dialect: "ag-ui" }));
    const b = started(new aw.AgentClient({ url: "/fake-500", dialect: "ag-ui" }));
    try {
      await until(() => ended(a) && ended(b), "both ends");
      eq(a.connection.code, "unsupported-framing", "protobuf");
      assert(a.connection.reason.includes("application/vnd.ag-ui.event+proto"), a.connection.reason);
      eq(b.connection.code, "http-error", "HTTP 500");
      eq(b.connection.reason, 'HTTP 500: {"error":"boom"}', "the official client's wording");
      let e = null;
      try { await b.sendMessage("again"); } catch (x) { e = x; }
      eq([e?.code, e?.status, e?.payload], ["send-failed", 500, { error: "boom" }], "a refused run rejects sendMessage");
      return "ok";
    } finally {
      fake2.stop();
      fake.stop();
      a.close();
      b.close();
    }
  },

  /** The official encoder's server, in a Worker (another origin). */
  ...Object.fromEntries(Object.keys(liveTests).map((name) => [name, () => inWorker(name)])),
};

/** Runs `liveTests[name]` in a module worker (tests/e2e/dialects.worker.js). */
function inWorker(name) {
  return new Promise((resolve, reject) => {
    const url = new URL(`./dialects.worker.js?file=ag_ui.test.js&name=${encodeURIComponent(name)}`, import.meta.url);
    const w = new Worker(url, { type: "module" });
    w.onmessage = (m) => {
      w.terminate();
      if (m.data.ok) resolve(`${m.data.detail ?? ""} (in a worker)`);
      else reject(new Error(m.data.error));
    };
    w.onerror = (e) => { w.terminate(); reject(new Error(`worker: ${e.message}`)); };
  });
}
