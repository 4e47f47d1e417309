// A2A v1.0, live in Chromium against the official 1.3.0 servers (tests/a2a1: the JS server on
// @a2a-js/sdk, the Python one on a2a-sdk), over both bindings (JSON-RPC and HTTP+JSON), started
// by scripts/e2e-tests.sh (scripts/lib/a2a1-servers.sh); their base URLs reach the page through
// e2e/env.js. The same agent runs on both: "report" streams an answer and an artifact with four
// parts (text, data, a file by bytes, a file by URL), asks "Publish the report?", completes once
// approved; "slow job" runs until canceled; "please fail" fails.
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

/** JSON equality with object keys in any order (the Python server's data parts come out of a
 * protobuf Struct, whose key order is not the order they were written in). */
function sameData(a, b, msg) {
  const sorted = (v) => Array.isArray(v) ? v.map(sorted)
    : v && typeof v === "object" ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, sorted(v[k])])) : v;
  eq(sorted(a), sorted(b), msg);
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

/** The four endpoints: server × binding. */
function servers() {
  if (!env.a2a1JsUrl || !env.a2a1PyUrl) throw new Error("no A2A 1.0 servers: run scripts/e2e-tests.sh (scripts/lib/a2a1-servers.sh)");
  return {
    "js jsonrpc": { url: `${env.a2a1JsUrl}/a2a/jsonrpc`, a2aBinding: "jsonrpc" },
    "js http+json": { url: `${env.a2a1JsUrl}/a2a/rest`, a2aBinding: "http+json" },
    "py jsonrpc": { url: `${env.a2a1PyUrl}/a2a/jsonrpc`, a2aBinding: "jsonrpc" },
    "py http+json": { url: `${env.a2a1PyUrl}/a2a/rest`, a2aBinding: "http+json" },
  };
}

/** Records what the client sends to `base` (the page's fetch): method, path, A2A-Version, body. */
function watchRequests(base) {
  const seen = [];
  const orig = globalThis.fetch;
  globalThis.fetch = function (req, init) {
    if (req instanceof Request && req.url.startsWith(base)) {
      const entry = { method: req.method, path: new URL(req.url).pathname, version: req.headers.get("A2A-Version") };
      seen.push(req.clone().text().then((t) => ({ ...entry, body: t ? JSON.parse(t) : null })));
    }
    return orig.call(this, req, init);
  };
  return { stop: () => { globalThis.fetch = orig; }, all: () => Promise.all(seen) };
}

/** Serves `card` (JSON) for requests to `url` through the page's fetch, until `stop()`. */
function serveCard(url, card) {
  const orig = globalThis.fetch;
  globalThis.fetch = function (req, init) {
    const u = req instanceof Request ? req.url : String(req);
    if (u === url) return Promise.resolve(new Response(JSON.stringify(card), { headers: { "Content-Type": "application/json" } }));
    return orig.call(this, req, init);
  };
  return { stop: () => { globalThis.fetch = orig; } };
}

/** What each request was: the JSON-RPC method, or the HTTP+JSON path's operation. */
const operation = (r) => r.body?.method ?? (r.path.endsWith("message:stream") ? "SendStreamingMessage"
  : r.path.endsWith(":subscribe") ? "SubscribeToTask" : r.path.endsWith(":cancel") ? "CancelTask" : `${r.method} ${r.path}`);
const taskOf = (r) => r.body?.params?.message?.taskId ?? r.body?.message?.taskId ?? r.body?.params?.id ?? r.path.match(/\/tasks\/([^/:]+)/)?.[1] ?? null;

async function report(aw, name, options) {
  const watch = watchRequests(options.url);
  const client = started(new aw.AgentClient({ ...options, message: "Write the report", reconnect: FAST }));
  const asked = [];
  const stop = client.subscribe(() => {
    for (const i of client.pendingInputs()) {
      if (asked.includes(i.id)) continue;
      asked.push(i.id);
      void client.approve(i.id);
    }
  });
  try {
    await until(() => ended(client), `${name}: the end (${client.connection.reason})`);
  } finally {
    watch.stop();
    stop();
  }
  eq(client.connection.state, "closed", `${name}: ${client.connection.reason}`);
  const snap = client.getSnapshot();
  const root = snap.roots[0];
  eq(root.status, "completed", `${name}: completed`);
  eq(root.content, "Based on the analysis, sales increased 15%. The report was published.", `${name}: the answer`);
  eq(asked.length, 1, `${name}: "Publish the report?" asked once`);
  eq(root.inputs[0].prompt, "Publish the report?", `${name}: the prompt`);
  // Every part of the four-part artifact, each where the a2a module's table puts it.
  const art = (id) => snap.artifacts.find((a) => a.id === id);
  eq(client.store.artifactText("bundle"), "Summary: sales increased 15%.", `${name}: the text part`);
  sameData(art("bundle#data").data, { rows: 42, ok: true }, `${name}: the data part (42.0 from Python is 42)`);
  eq([art("bundle#file").name, art("bundle#file").mimeType, client.store.artifactText("bundle#file")],
    ["report.md", "text/markdown", "# Report\n\nRevenue grew **15%** — café ☕ sales led.\n"], `${name}: the file by bytes`);
  eq([art("bundle#file-2").name, art("bundle#file-2").mimeType, art("bundle#file-2").url, art("bundle#file-2").complete],
    ["chart.png", "image/png", "https://example.com/chart.png", true], `${name}: the file by URL`);
  const sent = await watch.all();
  eq(sent.map((r) => [operation(r), taskOf(r), r.version]),
    [["SendStreamingMessage", null, "1.0"], ["SendStreamingMessage", root.id, "1.0"]], `${name}: the answer is a new message on the task`);
  eq(errors(client), [], `${name}: no error diagnostics`);
  client.close();
  return `${snap.artifacts.length} artifacts`;
}

async function cancelAfterDrops(aw, name, options) {
  const watch = watchRequests(options.url);
  // The job sends a status every 100 ms: a 60 ms idle timeout drops the stream again and again.
  const client = started(new aw.AgentClient({ ...options, message: "slow job", idleTimeoutMs: 60, reconnect: FAST }));
  const states = [];
  client.onConnectionChange((c) => states.push(c.state));
  let root;
  try {
    await until(() => (root = client.getSnapshot().roots[0]) && states.filter((s) => s === "reconnecting").length >= 2, `${name}: two drops`);
    await until(() => client.connection.state === "open", `${name}: open again`);
    await client.cancel(root.id);
    await until(() => ended(client), `${name}: the end (${client.connection.reason})`);
  } finally {
    watch.stop();
  }
  const snap = client.getSnapshot();
  eq(snap.roots[0].status, "canceled", `${name}: canceled`);
  const ops = (await watch.all()).map(operation);
  eq(ops.filter((o) => o === "SendStreamingMessage").length, 1, `${name}: the message is never sent again (${ops})`);
  assert(ops.filter((o) => o === "SubscribeToTask").length >= 2, `${name}: resubscribed after each drop (${ops})`);
  assert(ops.includes("CancelTask"), `${name}: CancelTask sent (${ops})`);
  eq(snap.tasks.length, 1, `${name}: one task, snapshots applied to it`);
  eq(errors(client), [], `${name}: no error diagnostics`);
  client.close();
  return `${ops.length} requests`;
}

async function failure(aw, name, options) {
  const client = started(new aw.AgentClient({ ...options, message: "please fail", reconnect: FAST }));
  await until(() => ended(client), `${name}: the end`);
  eq(client.getSnapshot().roots[0].status, "failed", `${name}: failed`);
  client.close();
}

async function refusals(aw, name, options) {
  // An answer to a task the server does not know: refused before any event (JSON-RPC: plain
  // JSON with HTTP 200; HTTP+JSON: 404 with a google.rpc.Status body).
  const unknown = started(new aw.AgentClient({ ...options, message: { text: "approve", taskId: "no-such-task" }, reconnect: { ...FAST, maxAttempts: 1 } }));
  await until(() => ended(unknown), `${name}: unknown task refused`);
  eq(unknown.connection.state, "failed", `${name}: failed`);
  assert(unknown.connection.reason.includes("TASK_NOT_FOUND"), `${name}: the reason is kept (${unknown.connection.reason})`);
  assert(unknown.getSnapshot().diagnostics.some((d) => d.code === "rpc-error" && d.message.includes("TASK_NOT_FOUND")), `${name}: an rpc-error diagnostic`);
  unknown.close();
  // A v0.3 request to a v1.0-only server: the JS server checks the version first
  // (VERSION_NOT_SUPPORTED), the Python one the method (-32601, INVALID_PARAMS to the official
  // client).
  if (options.a2aBinding === "jsonrpc") {
    const old = started(new aw.AgentClient({ ...options, a2aVersion: "0.3", message: "hello", reconnect: { ...FAST, maxAttempts: 1 } }));
    await until(() => ended(old), `${name}: v0.3 refused`);
    const want = name.startsWith("js") ? /-32009 VERSION_NOT_SUPPORTED/ : /-32601 INVALID_PARAMS/;
    assert(want.test(old.connection.reason), `${name}: ${old.connection.reason}`);
    eq(old.connection.code, "rpc-error", `${name}: code`);
    old.close();
  }
}

/** Runs `message` on `options` until `pred(client)`; returns the client (still running). */
async function runUntil(aw, options, message, pred, what) {
  const client = started(new aw.AgentClient({ ...options, message, reconnect: FAST }));
  await until(() => pred(client) || ended(client), `${what} (${client.connection.reason})`);
  assert(pred(client), `${what}: ended first (${client.connection.state}: ${client.connection.reason})`);
  return client;
}

async function authFlow(aw, name, options) {
  // "auth" in the prompt: after the approval the task asks AUTH_REQUIRED; completeAuth answers it
  // with a message on the task (the code in a data part), and the task completes.
  const watch = watchRequests(options.url);
  let client;
  try {
    client = await runUntil(aw, options, "Write the report with auth", (c) => c.pendingInputs().length > 0, `${name}: the input request`);
    await client.approve(client.pendingInputs()[0].id);
    await until(() => client.pendingAuths().length > 0 || ended(client), `${name}: the auth request (${client.connection.reason})`);
    const auth = client.pendingAuths()[0];
    assert(auth, `${name}: an auth request (${client.connection.state}: ${client.connection.reason})`);
    eq([auth.authType, auth.provider, auth.scopes], ["oauth2", "github", ["repo"]], `${name}: the auth request`);
    await client.completeAuth(auth.id, { code: "demo-code" });
    await until(() => ended(client), `${name}: the end (${client.connection.reason})`);
  } finally {
    watch.stop();
  }
  eq(client.connection.state, "closed", `${name}: ${client.connection.reason}`);
  const root = client.getSnapshot().roots[0];
  eq(root.status, "completed", `${name}: completed`);
  const sent = await watch.all();
  eq(sent.map((r) => [operation(r), taskOf(r)]),
    [["SendStreamingMessage", null], ["SendStreamingMessage", root.id], ["SendStreamingMessage", root.id]], `${name}: requests`);
  const last = sent[2].body.params?.message ?? sent[2].body.message;
  eq(last.parts, [{ data: { code: "demo-code" } }], `${name}: the auth message`);
  eq(errors(client), [], `${name}: no error diagnostics`);
  client.close();
}

async function secondTurn(aw, name, options) {
  // A run that ended (closed), then sendMessage: a new task on the same client.
  const watch = watchRequests(options.url);
  let client;
  try {
    client = started(new aw.AgentClient({ ...options, message: "please fail", reconnect: FAST }));
    await until(() => ended(client), `${name}: the first run (${client.connection.reason})`);
    eq(client.connection.state, "closed", `${name}: first run ${client.connection.reason}`);
    await client.sendMessage("a direct message please");
    await until(() => client.getSnapshot().roots.length === 2 && ended(client), `${name}: the second run (${client.connection.state}: ${client.connection.reason})`);
  } finally {
    watch.stop();
  }
  eq(client.connection.state, "closed", `${name}: ${client.connection.reason}`);
  const roots = client.getSnapshot().roots;
  eq(roots.map((r) => r.status), ["failed", "completed"], `${name}: the two runs`);
  eq(roots[1].content, "Hello! This is a direct message, no task.", `${name}: the direct reply`);
  eq(roots.map((r) => r.messages.map((m) => [m.role, m.content])), [[["user", "please fail"]], [["user", "a direct message please"]]], `${name}: each run's user message`);
  const sent = await watch.all();
  eq(sent.map(operation), ["SendStreamingMessage", "SendStreamingMessage"], `${name}: requests`);
  eq(errors(client), [], `${name}: no error diagnostics`);
  client.close();
}

async function cancelWhileWaiting(aw, name, options) {
  const client = await runUntil(aw, options, "Write the report", (c) => c.pendingInputs().length > 0 && c.connection.state === "open", `${name}: the input request`);
  const root = client.getSnapshot().roots[0];
  const input = client.pendingInputs()[0];
  await client.cancel(root.id);
  await until(() => ended(client), `${name}: the end (${client.connection.reason})`);
  eq(client.connection.state, "closed", `${name}: ${client.connection.reason}`);
  eq(client.getSnapshot().roots[0].status, "canceled", `${name}: canceled`);
  eq(client.pendingInputs(), [], `${name}: no input pending`);
  let refused = null;
  await client.approve(input.id).catch((e) => { refused = e.code; });
  assert(refused !== null, `${name}: answering the canceled task's input is refused locally`);
  eq(errors(client), [], `${name}: no error diagnostics`);
  client.close();
}

async function answerRefused(aw, name, options) {
  // The task ends on the server while the client waits to answer (another client canceled it):
  // the answer is refused (UNSUPPORTED_OPERATION); the client then learns how the task ended.
  const client = await runUntil(aw, options, "Write the report", (c) => c.pendingInputs().length > 0 && c.connection.state === "open", `${name}: the input request`);
  const root = client.getSnapshot().roots[0];
  const cancel = options.a2aBinding === "jsonrpc"
    ? fetch(options.url, { method: "POST", headers: { "Content-Type": "application/json", "A2A-Version": "1.0" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "CancelTask", params: { id: root.id } }) })
    : fetch(`${options.url}/tasks/${root.id}:cancel`, { method: "POST", headers: { "A2A-Version": "1.0" } });
  const r = await cancel;
  assert(r.ok, `${name}: canceled out of band (${r.status})`);
  let refused = null;
  await client.approve(client.pendingInputs()[0].id).catch((e) => { refused = e; });
  assert(refused && /UNSUPPORTED_OPERATION/.test(refused.message), `${name}: the answer is refused (${refused?.message})`);
  await until(() => ended(client), `${name}: the end (${client.connection.state}: ${client.connection.reason})`, 5_000);
  eq(client.getSnapshot().roots[0].status, "canceled", `${name}: the task's end is read`);
  eq(client.pendingInputs(), [], `${name}: the input request is no longer pending`);
  client.close();
}

async function directMessage(aw, name, options) {
  const client = started(new aw.AgentClient({ ...options, message: "a direct message please", reconnect: FAST }));
  await until(() => ended(client), `${name}: the end (${client.connection.reason})`);
  eq(client.connection.state, "closed", `${name}: ${client.connection.reason}`);
  const root = client.getSnapshot().roots[0];
  eq([root.status, root.content], ["completed", "Hello! This is a direct message, no task."], `${name}: the reply`);
  sameData(client.getSnapshot().artifacts.map((a) => a.data), [{ rows: 42, ok: true }], `${name}: the data part`);
  eq(errors(client), [], `${name}: no error diagnostics`);
  client.close();
}

const perServer = {};
for (const [prefix, run] of [["streams_every_part_answers_and_completes", report], ["drops_resubscribe_and_cancel", cancelAfterDrops], ["failure_fails_the_task", failure], ["errors_keep_their_reason", refusals], ["auth_flow_completes", authFlow], ["second_turn_after_the_end", secondTurn], ["cancel_while_input_is_pending", cancelWhileWaiting], ["answer_refused_reads_the_task", answerRefused], ["direct_message_reply", directMessage]]) {
  for (const srv of ["js jsonrpc", "js http+json", "py jsonrpc", "py http+json"]) {
    perServer[`a2a1_${srv.replace(/[ +]/g, "_")}_${prefix}`] = (aw) => run(aw, srv, servers()[srv]);
  }
}

/** The tests themselves: run in a worker (`tests` below), a page's CSP forbids other origins. */
export const liveTests = {
  ...perServer,

  async a2a1_agent_card_names_endpoint_binding_and_version(aw) {
    for (const [binding, path] of [[undefined, "/a2a/jsonrpc"], ["http+json", "/a2a/rest/message:stream"]]) {
      const watch = watchRequests(env.a2a1JsUrl);
      const client = started(new aw.AgentClient({ agentCard: `${env.a2a1JsUrl}/.well-known/agent-card.json`, a2aBinding: binding, message: "please fail", reconnect: FAST }));
      try {
        await until(() => ended(client), `card ${binding}: the end (${client.connection.reason})`);
      } finally {
        watch.stop();
      }
      eq(client.dialect, "a2a", "the card implies a2a");
      eq(client.getSnapshot().roots[0].status, "failed", `card ${binding}: the run went through`);
      const sent = await watch.all();
      eq(sent.map((r) => [r.method, r.path]), [["GET", "/.well-known/agent-card.json"], ["POST", path]], `card ${binding}: requests`);
      client.close();
    }
    const bad = started(new aw.AgentClient({ agentCard: `${env.a2a1JsUrl}/no-such-card.json`, message: "x" }));
    await until(() => ended(bad), "a missing card");
    eq([bad.connection.state, bad.connection.code], ["failed", "agent-card"], bad.connection.reason);
    bad.close();
  },

  async a2a1_agent_card_tenant_of_a_jsonrpc_interface_goes_in_params(aw) {
    // The official client adds a JSON-RPC interface's tenant to every request's params
    // (WIRE.md #7, #11; recording js-jsonrpc-tenant).
    const cardUrl = `${env.a2a1JsUrl}/tenant-card.json`;
    const card = serveCard(cardUrl, { name: "t", supportedInterfaces: [
      { url: `${env.a2a1JsUrl}/a2a/jsonrpc`, protocolBinding: "JSONRPC", protocolVersion: "1.0", tenant: "acme" }] });
    const watch = watchRequests(`${env.a2a1JsUrl}/a2a/`);
    let client;
    try {
      client = started(new aw.AgentClient({ agentCard: cardUrl, message: "a direct message please", reconnect: FAST }));
      await until(() => ended(client), `the end (${client.connection.reason})`);
    } finally {
      watch.stop();
      card.stop();
    }
    eq(client.connection.state, "closed", client.connection.reason);
    const sent = await watch.all();
    eq(sent.map((r) => [r.body.method, r.body.params.tenant]), [["SendStreamingMessage", "acme"]], "the tenant in params");
    client.close();
  },

  async a2a1_responder_gets_the_a2a_version_header(aw) {
    // An app's responder sends the answer itself: it needs the A2A-Version header (a v1.0
    // server refuses a request without it) and, over HTTP+JSON, the HTTP method.
    const options = servers()["js http+json"];
    const got = [];
    const client = started(new aw.AgentClient({ ...options, message: "Write the report", reconnect: FAST,
      responder: async (req) => {
        got.push(req);
        const r = await fetch(req.url, { method: req.httpMethod ?? "POST", headers: { "Content-Type": "application/json", ...req.headers },
          body: req.body === undefined ? undefined : JSON.stringify(req.body) });
        await r.text();
        if (!r.ok || !(r.headers.get("content-type") ?? "").startsWith("text/event-stream")) throw new Error(`refused: HTTP ${r.status}`);
      } }));
    const stop = client.subscribe(() => {
      const i = client.pendingInputs()[0];
      if (i && got.length === 0) void client.approve(i.id).catch(() => {});
    });
    try {
      await until(() => ended(client), "the end").catch(() => {
        throw new Error(`no end: ${client.connection.state} (${client.connection.reason}), the responder got ${JSON.stringify(got)}`);
      });
    } finally {
      stop();
    }
    eq(got.map((r) => [r.type, r.method, r.headers?.["A2A-Version"]]), [["input", "SendStreamingMessage", "1.0"]], "what the responder got");
    eq([client.connection.state, client.getSnapshot().roots[0].status], ["closed", "completed"], client.connection.reason);
    client.close();
  },
};

/** Runs `liveTests[name]` in a module worker (tests/e2e/dialects.worker.js). */
function inWorker(name) {
  return new Promise((resolve, reject) => {
    const url = new URL(`./dialects.worker.js?file=a2a1.test.js&name=${encodeURIComponent(name)}`, import.meta.url);
    const w = new Worker(url, { type: "module" });
    w.onmessage = (m) => {
      w.terminate();
      if (m.data.ok) resolve(`${m.data.detail ?? ""} (in a worker)`);
      else reject(new Error(m.data.error));
    };
    w.onerror = (e) => { w.terminate(); reject(new Error(`worker: ${e.message}`)); };
  });
}

/** The state as JSON without what differs between two runs of one seed (run ids, clocks). */
function comparable(client) {
  const text = client.store.stateJson()
    .replace(/ctx-r\d+/g, "ctx")
    .replace(/@r\d+/g, "")
    .replace(/"r\d+-(\d+)"/g, '"r-$1"');
  const s = JSON.parse(text);
  const drop = new Set(["contextId", "revision", "createdAt", "updatedAt", "timestamp", "answeredAt", "completedAt", "duration", "metadata", "statusMessage", "message", "history"]);
  return JSON.stringify({ tasks: s.tasks, artifacts: s.artifacts }, (k, v) => (drop.has(k) ? undefined : v));
}

/** Runs `options` to its end answering everything (approve, sign in); returns the client. */
async function answered(aw, options, what) {
  const client = started(new aw.AgentClient({ reconnect: FAST, message: "Analyze the Q4 sales", ...options }));
  const done = new Set();
  const sent = [];
  const stop = client.subscribe(() => {
    for (const i of client.pendingInputs()) {
      if (done.has(i.id) || i.requireUser === false) continue;
      done.add(i.id);
      const choice = (i.options ?? []).length > 0 || i.inputType === "confirmation";
      sent.push(choice ? client.approve(i.id) : client.answer(i.id, "demo"));
    }
    for (const a of client.pendingAuths()) {
      if (done.has(a.id)) continue;
      done.add(a.id);
      sent.push(client.completeAuth(a.id, { code: "demo-code" }));
    }
  });
  await until(() => ended(client), `${what}: the end (${client.connection.reason})`, 45_000);
  stop();
  await Promise.all(sent);
  eq(client.connection.state, "closed", `${what}: ${client.connection.reason}`);
  return client;
}

const q = "scenario=main&seed=5&speed=0";

export const tests = {
  ...Object.fromEntries(Object.keys(liveTests).map((name) => [name, () => inWorker(name)])),

  // --- The scenario server's A2A v1.0 (same origin): the demo's "A2A 1.0"

  async a2a1_scenario_server_main_reads_the_same_in_both_versions_and_bindings(aw) {
    const v03 = await answered(aw, { a2aVersion: "0.3", url: `/api/a2a?${q}` }, "v0.3");
    const ref = comparable(v03);
    for (const [what, options] of [
      ["v1.0 jsonrpc", { url: `/api/a2a/v1?${q}` }],
      ["v1.0 http+json", { url: `/api/a2a/rest?${q}`, a2aBinding: "http+json" }],
      ["v1.0 agent card", { agentCard: `/api/a2a/v1/.well-known/agent-card.json?${q}`, a2aBinding: "http+json" }],
    ]) {
      const c = await answered(aw, options, what);
      eq(errors(c), [], `${what}: no error diagnostics`);
      eq(comparable(c), ref, `${what}: the same state as v0.3`);
      c.close();
    }
    const root = v03.getSnapshot().roots[0];
    v03.close();
    return `${root.content.length} chars, ${root.children.length} sub-agents`;
  },

  async a2a1_agent_card_relative_urls_are_relative_to_the_card(aw) {
    // A relative agentCard URL (as the demo gives) whose interface URLs are relative too: they
    // are relative to the card, not to the page.
    const cardUrl = "/api/elsewhere/.well-known/agent-card.json";
    const card = serveCard(new URL(cardUrl, location.href).href, { name: "rel", supportedInterfaces: [
      { url: `../../a2a/rest?${q}`, protocolBinding: "HTTP+JSON", protocolVersion: "1.0" }] });
    const watch = watchRequests(`${location.origin}/`);
    let c;
    try {
      c = await answered(aw, { agentCard: cardUrl }, "relative card");
    } finally {
      watch.stop();
      card.stop();
    }
    const paths = (await watch.all()).map((r) => r.path);
    assert(paths.every((p) => p.startsWith("/api/")), `every request under /api/: ${paths}`);
    eq(c.getSnapshot().roots[0].status, "completed", "completed");
    c.close();
  },

  async a2a1_scenario_server_drops_resume_with_subscribe_to_task(aw) {
    const clean = await answered(aw, { url: `/api/a2a/rest?${q}`, a2aBinding: "http+json" }, "clean");
    const watch = watchRequests(`${location.origin}/api/a2a/rest`);
    let dropped;
    try {
      dropped = await answered(aw, { url: `/api/a2a/rest?${q}&faults=drop=30`, a2aBinding: "http+json" }, "dropped");
    } finally {
      watch.stop();
    }
    const ops = (await watch.all()).map(operation);
    eq(ops.filter((o) => o === "SendStreamingMessage").length, 3, `one message + two answers: ${ops}`);
    assert(ops.includes("SubscribeToTask"), `resumed with SubscribeToTask: ${ops}`);
    eq(comparable(dropped), comparable(clean), "dropped run = clean run");
    clean.close();
    dropped.close();
    return ops.join(", ");
  },
};
