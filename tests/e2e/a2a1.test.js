// A2A v1.0, live in Chromium against the official 1.3.0 servers (tests/a2a1: the JS server on
// @a2a-js/sdk, the Python one on a2a-sdk), over both bindings (JSON-RPC and HTTP+JSON), started
// by scripts/e2e-tests.sh (scripts/lib/a2a1-servers.sh); their base URLs reach the page through
// e2e/env.js. The same agent runs on both: "report" streams an answer and an artifact with four
// parts (text, data, a file by bytes, a file by URL), asks "Publish the report?", completes once
// approved; "slow job" runs until canceled; "please fail" fails.
import { env } from "./env.js";

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

/** What each request was: the JSON-RPC method, or the HTTP+JSON path's operation. */
const operation = (r) => r.body?.method ?? (r.path.endsWith("message:stream") ? "SendStreamingMessage"
  : r.path.endsWith(":subscribe") ? "SubscribeToTask" : r.path.endsWith(":cancel") ? "CancelTask" : `${r.method} ${r.path}`);
const taskOf = (r) => r.body?.params?.message?.taskId ?? r.body?.message?.taskId ?? r.body?.params?.id ?? r.path.match(/\/tasks\/([^/:]+)/)?.[1] ?? null;

async function report(aw, name, options) {
  const watch = watchRequests(options.url);
  const client = new aw.AgentClient({ ...options, message: "Write the report", reconnect: FAST });
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
  eq(art("bundle#data").data, { rows: 42, ok: true }, `${name}: the data part (42.0 from Python is 42)`);
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
  const client = new aw.AgentClient({ ...options, message: "slow job", idleTimeoutMs: 60, reconnect: FAST });
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
  const client = new aw.AgentClient({ ...options, message: "please fail", reconnect: FAST });
  await until(() => ended(client), `${name}: the end`);
  eq(client.getSnapshot().roots[0].status, "failed", `${name}: failed`);
  client.close();
}

async function refusals(aw, name, options) {
  // An answer to a task the server does not know: refused before any event (JSON-RPC: plain
  // JSON with HTTP 200; HTTP+JSON: 404 with a google.rpc.Status body).
  const unknown = new aw.AgentClient({ ...options, message: { text: "approve", taskId: "no-such-task" }, reconnect: { ...FAST, maxAttempts: 1 } });
  await until(() => ended(unknown), `${name}: unknown task refused`);
  eq(unknown.connection.state, "failed", `${name}: failed`);
  assert(unknown.connection.reason.includes("TASK_NOT_FOUND"), `${name}: the reason is kept (${unknown.connection.reason})`);
  assert(unknown.getSnapshot().diagnostics.some((d) => d.code === "rpc-error" && d.message.includes("TASK_NOT_FOUND")), `${name}: an rpc-error diagnostic`);
  unknown.close();
  // A v0.3 request to a v1.0-only server: VERSION_NOT_SUPPORTED.
  if (options.a2aBinding === "jsonrpc") {
    const old = new aw.AgentClient({ ...options, a2aVersion: "0.3", message: "hello", reconnect: { ...FAST, maxAttempts: 1 } });
    await until(() => ended(old), `${name}: v0.3 refused`);
    assert(old.connection.reason.includes("VERSION_NOT_SUPPORTED"), `${name}: ${old.connection.reason}`);
    old.close();
  }
}

const perServer = {};
for (const [prefix, run] of [["streams_every_part_answers_and_completes", report], ["drops_resubscribe_and_cancel", cancelAfterDrops], ["failure_fails_the_task", failure], ["errors_keep_their_reason", refusals]]) {
  for (const srv of ["js jsonrpc", "js http+json", "py jsonrpc", "py http+json"]) {
    perServer[`a2a1_${srv.replace(/[ +]/g, "_")}_${prefix}`] = (aw) => run(aw, srv, servers()[srv]);
  }
}

export const tests = {
  ...perServer,

  async a2a1_agent_card_names_endpoint_binding_and_version(aw) {
    for (const [binding, path] of [[undefined, "/a2a/jsonrpc"], ["http+json", "/a2a/rest/message:stream"]]) {
      const watch = watchRequests(env.a2a1JsUrl);
      const client = new aw.AgentClient({ agentCard: `${env.a2a1JsUrl}/.well-known/agent-card.json`, a2aBinding: binding, message: "please fail", reconnect: FAST });
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
    const bad = new aw.AgentClient({ agentCard: `${env.a2a1JsUrl}/no-such-card.json`, message: "x" });
    await until(() => ended(bad), "a missing card");
    eq([bad.connection.state, bad.connection.code], ["failed", "agent-card"], bad.connection.reason);
    bad.close();
  },
};
