/** A client connecting now (constructors do no I/O: start() connects). */
const started = (c) => { c.start(); return c; };
// The dialects end to end: the built package in headless Chromium against the scenario server
// speaking A2A (SSE and JSON-RPC), A2A-ACP, Unified and MyAgent (WebSocket), and against an
// A2A server built on the official @a2a-js/sdk (tests/a2a-sdk, when scripts/e2e-tests.sh could
// start it). Every dialect run is compared with the protocol-000 run of the same scenario and
// seed, or with its own fault-free run.
// scripts/e2e-tests.sh writes env.js (the SDK server's URL); without it those tests are skipped.
const env = await import("./env.js").then((m) => m.env, () => ({}));

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

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
    await sleep(20);
  }
  throw new Error(`timed out waiting for ${what}`);
}

const ended = (c) => ["closed", "failed"].includes(c.connection.state);
const FAST = { initialDelayMs: 20, maxDelayMs: 200, jitter: 0 };
const WS = location.origin.replace(/^http/, "ws");
const SEED = 5;

/** Records every connection state change as `state(reason)`. */
function recordStates(client) {
  const seen = [client.connection.state];
  client.onConnectionChange((i) => seen.push(`${i.state}${i.code ? ":" + i.code : ""} (${i.reason})`));
  return seen;
}

/**
 * Answers what the agent asks, the way a user of the demo would: approvals approved (or denied
 * with `deny: true`), other inputs answered with text, auth requests completed. Each request is
 * answered once; the promises are kept so failures surface.
 */
function answerEverything(client, { deny = false } = {}) {
  const done = new Set();
  const sent = [];
  const tick = () => {
    for (const i of client.pendingInputs()) {
      if (done.has(i.id) || i.requireUser === false) continue;
      done.add(i.id);
      const hasChoice = (i.options ?? []).length > 0 || i.inputType === "confirmation";
      const p = hasChoice ? (deny ? client.deny(i.id) : client.approve(i.id)) : client.answer(i.id, "demo");
      sent.push(p.then(() => `input ${i.id}`));
    }
    for (const a of client.pendingAuths()) {
      if (done.has(a.id)) continue;
      done.add(a.id);
      sent.push(client.completeAuth(a.id, { code: "demo-code" }).then(() => `auth ${a.id}`));
    }
  };
  const stop = client.subscribe(tick);
  return { sent, stop, done };
}

/** The state as JSON without what differs between two runs of one seed (run ids, clocks). */
function comparable(client) {
  const text = client.store.stateJson()
    .replace(/ctx-r\d+/g, "ctx")
    .replace(/@r\d+/g, "")
    .replace(/"r\d+-(\d+)"/g, '"r-$1"');
  const s = JSON.parse(text);
  const drop = new Set(["contextId", "revision", "createdAt", "updatedAt", "timestamp", "answeredAt", "completedAt", "duration"]);
  return JSON.stringify({ tasks: s.tasks, artifacts: s.artifacts }, (k, v) => (drop.has(k) ? undefined : v));
}

function sameState(a, b, msg) {
  const x = comparable(a), y = comparable(b);
  if (x === y) return;
  let i = 0;
  while (i < x.length && x[i] === y[i]) i++;
  throw new Error(`${msg}: states differ at ${i}: …${x.slice(Math.max(0, i - 120), i + 160)}… vs …${y.slice(Math.max(0, i - 120), i + 160)}…`);
}

/** The root task of the run: the canonical root's id with the dialect's decoration. */
function rootOf(client, canonicalRootId) {
  const tasks = client.getSnapshot().tasks;
  return tasks.find((t) => t.id.split("@")[0] === canonicalRootId) ?? client.getSnapshot().roots[0];
}

const reference = new Map();
/** The protocol-000 run of `main` (approved, signed in) for a seed: what every dialect must show. */
async function canonicalMain(aw, seed = SEED) {
  if (reference.has(seed)) return reference.get(seed);
  const client = started(new aw.AgentClient({ url: `/api/stream?scenario=main&seed=${seed}&speed=0`, dialect: "canonical" }));
  const answers = answerEverything(client);
  await until(() => ended(client), "the canonical run");
  answers.stop();
  await Promise.all(answers.sent);
  const snap = client.getSnapshot();
  const root = snap.roots[0];
  const report = snap.artifacts.find((a) => a.name === "report.md");
  const ref = {
    rootId: root.id,
    content: root.content,
    tools: [...new Set(snap.tasks.flatMap((t) => t.tools.map((x) => x.name)))].sort(),
    report: report && client.store.artifactText(report.id),
    chart: (() => {
      const c = snap.artifacts.find((a) => a.name === "chart.png");
      return c && Array.from(client.store.artifactBytes(c.id)).join(",");
    })(),
  };
  client.close();
  reference.set(seed, ref);
  return ref;
}

/** Runs `options` to its end, answering everything; returns the client (closed by the caller). */
async function runAnswered(aw, options, what, until_ = null) {
  const client = started(new aw.AgentClient({ reconnect: FAST, ...options }));
  const states = recordStates(client);
  const answers = answerEverything(client);
  await until(until_ ? () => until_(client) : () => ended(client), `${what}: the end (states ${states.join(" → ")})`, 45_000);
  answers.stop();
  const results = await Promise.all(answers.sent);
  return { client, states, results, answered: answers.done };
}

/**
 * The main scenario in SSE dialect `d`, answered: once clean with the dialect set, once with the
 * connection dropped every 25 events (dialect set, or left to auto-detection with `auto`).
 */
async function cleanAndDropped(aw, d, { auto }) {
  const url = (f) => `/api/stream?dialect=${d}&scenario=main&seed=${SEED}&speed=0&retry=20${f}`;
  const rpc = d === "a2a" ? { a2aVersion: "0.3", endpoints: { rpc: `/api/a2a?scenario=main&seed=${SEED}&speed=0` } } : {};
  const clean = await runAnswered(aw, { url: url(""), dialect: d, ...rpc }, `${d} clean`);
  const dropped = await runAnswered(aw, { url: url("&faults=dropEvery=25"), ...(auto ? {} : { dialect: d }), ...rpc }, `${d} dropped${auto ? " (auto)" : ""}`);
  const drops = dropped.states.filter((s) => s.startsWith("reconnecting")).length;
  assert(drops >= 1, `${d}: it dropped (${dropped.states})`);
  return { clean, dropped, drops };
}

function assertAllClosed(client, what) {
  const snap = client.getSnapshot();
  // Answered in time: the locally closed requests sit on the stream's timeline.
  eq(snap.diagnostics.filter((d) => d.code === "request-expired").map((d) => d.message), [], `${what}: nothing expired`);
  eq(snap.pendingInputs.length, 0, `${what}: no input left open`);
  eq(snap.pendingAuths.length, 0, `${what}: no auth left open`);
  for (const t of snap.tasks) {
    for (const i of t.inputs) if (i.requireUser !== false) assert(i.state === "answered", `${what}: input ${i.id} ${i.state}`);
    for (const a of t.auths) assert(a.state === "answered", `${what}: auth ${a.id} ${a.state}`);
  }
}

/** The A2A SDK server's JSON-RPC URL (scripts/e2e-tests.sh starts it). */
function sdkUrl() {
  if (!env.a2aSdkUrl) throw new Error("no A2A SDK server: run scripts/e2e-tests.sh (scripts/lib/a2a-sdk-server.sh)");
  return env.a2aSdkUrl;
}

/** Records the JSON bodies the client POSTs to `url` (the client uses the page's fetch). */
function watchPosts(url) {
  const bodies = [];
  const orig = globalThis.fetch;
  globalThis.fetch = function (req, init) {
    if (req instanceof Request && req.method === "POST" && req.url.startsWith(url.split("?")[0])) {
      bodies.push(req.clone().text().then((t) => JSON.parse(t)));
    }
    return orig.call(this, req, init);
  };
  return { stop: () => { globalThis.fetch = orig; }, bodies: () => Promise.all(bodies) };
}

/**
 * `client.approve(inputId)` while the page's fetch answers the client's next POST with
 * `response` (a server or proxy refusing the answer) and lets every other request through;
 * resolves to "sent" or the error's code.
 */
async function approveWithFirstPostAnswered(client, inputId, response) {
  const orig = globalThis.fetch;
  let answered = false;
  globalThis.fetch = function (req, init) {
    if (!answered && req instanceof Request && req.method === "POST") {
      answered = true;
      return Promise.resolve(response);
    }
    return orig.call(this, req, init);
  };
  try {
    return await client.approve(inputId).then(() => "sent", (e) => e.code);
  } finally {
    globalThis.fetch = orig;
  }
}

const dialectErrors = (client) => client.getSnapshot().diagnostics.filter((d) => d.severity === "error");

export const sdkTests = {
  // --- A2A against the official @a2a-js/sdk server (tests/a2a-sdk/server.mjs)

  async dialect_a2a_sdk_server_streams_artifacts_asks_and_completes(aw) {
    const client = started(new aw.AgentClient({ url: sdkUrl(), a2aVersion: "0.3", message: "report please" }));
    const posts = watchPosts(sdkUrl());
    let answers;
    try {
      answers = answerEverything(client);
      await until(() => ended(client), `end (${client.connection.reason})`);
    } finally {
      posts.stop();
    }
    answers.stop();
    await Promise.all(answers.sent);
    eq(client.connection.state, "closed", client.connection.reason);
    const snap = client.getSnapshot();
    const root = snap.roots[0];
    eq(root.status, "completed", "completed");
    eq(root.content, "Based on the analysis, sales increased 15%. The report was published.", "the answer artifact, appended");
    eq(answers.done.size, 1, "the confirmation was asked and answered");
    assertAllClosed(client, "sdk");
    const report = snap.artifacts.find((a) => a.name === "report.md");
    eq(client.store.artifactText(report.id), "# Report\n\nRevenue grew **15%** — café ☕ sales led.\n", "report.md from two base64 chunks");
    const summary = snap.artifacts.find((a) => a.name === "summary");
    eq([summary.type, summary.version, summary.data], ["data", 2, { growth: 0.152, version: 2, revised: true }], "summary replaced (append: false)");
    const methods = (await posts.bodies()).map((b) => [b.method, b.params?.message?.taskId ?? null]);
    eq(methods, [["message/stream", null], ["message/stream", root.id]], "the answer is a message on the same task");
    eq(dialectErrors(client), [], "no error diagnostics");
    client.close();
    return `${snap.artifacts.length} artifacts`;
  },

  async dialect_a2a_sdk_server_auth_required_completes_with_complete_auth(aw) {
    const client = started(new aw.AgentClient({ url: sdkUrl(), a2aVersion: "0.3", message: { text: "report with auth", metadata: { from: "e2e" } } }));
    const answers = answerEverything(client);
    await until(() => ended(client), `end (${client.connection.reason})`);
    answers.stop();
    const sent = await Promise.all(answers.sent);
    const root = client.getSnapshot().roots[0];
    eq(root.status, "completed", "completed");
    eq(root.auths.length, 1, "one auth request");
    eq(root.auths[0].authUrl, "https://github.com/login/oauth/authorize?client_id=demo", "auth URL from the data part");
    assert(sent.some((x) => x.startsWith("auth ")), `completeAuth sent: ${sent}`);
    assertAllClosed(client, "sdk auth");
    client.close();
  },

  async dialect_a2a_sdk_server_failure_becomes_a_failed_task(aw) {
    const client = started(new aw.AgentClient({ url: sdkUrl(), a2aVersion: "0.3", message: "please fail" }));
    await until(() => ended(client), "end");
    eq(client.connection.state, "closed", client.connection.reason);
    const root = client.getSnapshot().roots[0];
    eq(root.status, "failed", "failed");
    assert(JSON.stringify(root).includes("upstream timeout"), "metadata.error kept as the reason");
    client.close();
  },

  async dialect_a2a_sdk_server_resubscribes_after_a_drop_and_cancels(aw) {
    // The long job sends a status every 100 ms; an idle timeout shorter than that makes the
    // client drop the stream (as a dead connection would) and resume it with tasks/resubscribe.
    const posts = watchPosts(sdkUrl());
    const client = started(new aw.AgentClient({ url: sdkUrl(), a2aVersion: "0.3", message: "slow job", idleTimeoutMs: 60, reconnect: FAST }));
    const states = recordStates(client);
    const step = () => Number((client.getSnapshot().roots[0]?.statusMessage ?? "").match(/Step (\d+)/)?.[1] ?? 0);
    try {
      await until(() => states.filter((s) => s.startsWith("reconnecting")).length >= 2 && step() >= 3, "two resumes and progress");
      const before = step();
      await until(() => step() > before, "progress after the resume");
      client.store; // still feeding
      // Long enough now: cancel (tasks/cancel), the task ends canceled.
      const root = client.getSnapshot().roots[0];
      await client.cancel(root.id);
      await until(() => ended(client), `end (${client.connection.reason})`);
      eq(client.store.task(root.id).status, "canceled", "canceled");
    } finally {
      posts.stop();
    }
    const methods = (await posts.bodies()).map((b) => b.method);
    eq(methods.filter((m) => m === "message/stream").length, 1, `the message was sent once: ${methods}`);
    assert(methods.filter((m) => m === "tasks/resubscribe").length >= 2, `resumed with tasks/resubscribe: ${methods}`);
    assert(methods.includes("tasks/cancel"), `tasks/cancel: ${methods}`);
    client.close();
    return `${methods.length} requests, ${states.length} states`;
  },
  async dialect_a2a_sdk_server_cancel_while_input_pending_expires_the_request(aw) {
    // Canceled while it waits for the user: the request was never answered, so it expires (as
    // in protocol 000), it is not shown as answered by the user.
    const client = started(new aw.AgentClient({ url: sdkUrl(), a2aVersion: "0.3", message: "report please", reconnect: FAST }));
    await until(() => client.pendingInputs().length === 1 && /waits/.test(client.connection.reason), "the confirmation");
    const input = client.pendingInputs()[0];
    const root = client.getSnapshot().roots[0];
    await client.cancel(root.id);
    await until(() => ended(client), `end (${client.connection.reason})`);
    eq(client.connection.state, "closed", client.connection.reason);
    eq(client.store.task(root.id).status, "canceled", "canceled");
    const state = client.store.task(root.id).inputs.find((i) => i.id === input.id).state;
    eq(state, "expired", "the unanswered confirmation of the canceled task");
    const err = await client.approve(input.id).then(() => "sent", (e) => e.code);
    eq(err, "expired", "approve() after the cancel");
    client.close();
  },
  async dialect_a2a_sdk_server_second_turn_keeps_the_first_tasks_answer_and_artifacts(aw) {
    // The official SDK agent names its artifacts the same in every task ("answer", "summary",
    // "report"): A2A artifact ids are unique within their task. The second turn of the
    // conversation (sendMessage, a new task) must not replace the first task's answer or files.
    const client = started(new aw.AgentClient({ url: sdkUrl(), a2aVersion: "0.3", message: "report please", reconnect: FAST }));
    const answers = answerEverything(client);
    await until(() => ended(client), `the first turn (${client.connection.reason})`);
    const first = client.getSnapshot().roots[0];
    eq(first.status, "completed", "first turn completed");
    const before = { content: first.content, artifacts: client.getSnapshot().artifacts.filter((a) => a.taskId === first.id).map((a) => a.name).sort() };
    await client.sendMessage("another report please", { contextId: first.contextId });
    await until(() => ended(client) && client.getSnapshot().roots.length === 2, "the second turn");
    answers.stop();
    await Promise.all(answers.sent);
    const snap = client.getSnapshot();
    const second = snap.roots.find((t) => t.id !== first.id);
    eq(second.status, "completed", "second turn completed");
    eq(second.content, before.content, "the second task's answer");
    const after = { content: client.store.task(first.id).content, artifacts: snap.artifacts.filter((a) => a.taskId === first.id).map((a) => a.name).sort() };
    eq(after, before, "the first task after the second turn");
    client.close();
  },
};

export const tests = {

  async flows_a2a_answer_through_a_responder_resumes_the_stream(aw) {
    // The app sends the answers itself (`responder`: here the same message/stream POSTed with
    // its own fetch, its stream not read): once the responder resolved, the client resumes the
    // task's stream (tasks/resubscribe) and the run goes on to its end, as it does when the
    // client sends the answer itself.
    const url = `/api/a2a?scenario=main&seed=${SEED}&speed=0`;
    const sent = [];
    const responder = async (req) => {
      sent.push(`${req.type} ${req.method}`);
      const r = await fetch(req.url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(req.body) });
      await r.body?.cancel();
      if (!r.ok) throw new Error(`HTTP ${r.status}`);
    };
    const client = started(new aw.AgentClient({ a2aVersion: "0.3", url, message: "go", responder, reconnect: FAST }));
    const states = recordStates(client);
    const answers = answerEverything(client);
    try {
      await until(() => ended(client), "the end", 10_000).catch((e) => {
        throw new Error(`${e.message}: ${client.connection.state} (${client.connection.reason}); the responder sent [${sent}]; ${states.join(" → ")}`);
      });
    } finally {
      answers.stop();
    }
    await Promise.all(answers.sent);
    eq(sent, ["input message/stream", "auth message/stream"], "the responder sent both answers");
    eq(client.getSnapshot().roots[0].status, "completed", `completed (${states.join(" → ")})`);
    client.close();
  },

  // --- Flows: cancel while a request is pending, a refused answer

  async flows_cancel_while_input_pending_expires_it_in_every_dialect(aw) {
    const urls = {
      canonical: { url: `/api/stream?scenario=main&seed=${SEED}&speed=0` },
      a2a: { a2aVersion: "0.3", url: `/api/a2a?scenario=main&seed=${SEED}&speed=0`, message: "go" },
      "a2a (sse)": { url: `/api/stream?dialect=a2a&scenario=main&seed=${SEED}&speed=0`, dialect: "a2a", a2aVersion: "0.3", endpoints: { rpc: `/api/a2a?scenario=main&seed=${SEED}&speed=0` } },
      acp: { url: `/api/stream?dialect=acp&scenario=main&seed=${SEED}&speed=0`, dialect: "acp" },
      unified: { url: `/api/stream?dialect=unified&scenario=main&seed=${SEED}&speed=0`, dialect: "unified" },
    };
    const seen = {};
    for (const [d, options] of Object.entries(urls)) {
      const client = started(new aw.AgentClient({ reconnect: FAST, ...options }));
      await until(() => client.pendingInputs().some((i) => i.requireUser !== false), `${d}: the approval`);
      const input = client.pendingInputs().find((i) => i.requireUser !== false);
      const root = client.getSnapshot().roots[0];
      await client.cancel(root.id);
      await until(() => ended(client), `${d}: end (${client.connection.reason})`);
      eq(client.store.task(root.id).status, "canceled", `${d}: canceled`);
      eq(client.getSnapshot().pendingInputs.length, 0, `${d}: nothing pending`);
      seen[d] = client.store.task(input.taskId).inputs.find((i) => i.id === input.id).state;
      client.close();
    }
    eq(seen, { canonical: "expired", a2a: "expired", "a2a (sse)": "expired", acp: "expired", unified: "expired" },
      "the approval nobody answered, after the cancel");
  },

  async flows_a2a_refused_answer_keeps_the_request_open_for_a_retry(aw) {
    // The server refuses the answer's message/stream with a JSON-RPC error (as the scenario
    // server does for an answer it cannot take, or an SDK agent whose handler throws): approve()
    // rejects with send-failed and, as for an HTTP error or with A2A-ACP, the request stays open
    // and a retry goes through; the task has not failed on the server.
    const url = `/api/a2a?scenario=main&seed=${SEED}&speed=0`;
    const client = started(new aw.AgentClient({ a2aVersion: "0.3", url, message: "go", reconnect: FAST }));
    const states = recordStates(client);
    await until(() => client.pendingInputs().length > 0 && /waits/.test(client.connection.reason), "the approval");
    const input = client.pendingInputs()[0];
    const body = JSON.stringify({ jsonrpc: "2.0", id: 2, error: { code: -32602, message: "the answer was refused" } });
    const first = await approveWithFirstPostAnswered(client, input.id,
      new Response(body, { status: 200, headers: { "content-type": "application/json" } }));
    eq(first, "send-failed", "the refused answer");
    const root = client.getSnapshot().roots[0];
    eq([root.status, client.store.task(root.id).inputs.find((i) => i.id === input.id).state, client.connection.state],
      ["waiting-input", "open", "open"], `after the refusal (${client.connection.reason})`);
    const second = await client.approve(input.id).then(() => "sent", (e) => `${e.code}: ${e.message}`);
    eq(second, "sent", "the retry");
    const answers = answerEverything(client);
    await until(() => ended(client), `end (${states.join(" → ")})`);
    answers.stop();
    await Promise.all(answers.sent);
    eq(client.store.task(root.id).status, "completed", "completed");
    client.close();
  },
  // --- A2A over JSON-RPC (POST /api/a2a): message/stream, answers on the same task, resubscribe

  async dialect_a2a_rpc_runs_main_answering_in_a2a(aw) {
    const ref = await canonicalMain(aw);
    const { client, states, results } = await runAnswered(aw, {
      a2aVersion: "0.3",
      url: `/api/a2a?scenario=main&seed=${SEED}&speed=0`,
      message: "Analyze the Q4 sales",
    }, "a2a");
    eq(client.dialect, "a2a", "dialect");
    eq(client.connection.state, "closed", `closed: ${states.join(" → ")}`);
    eq(results.length, 2, `the approval and the sign-in were answered: ${results}`);
    const root = rootOf(client, ref.rootId);
    eq(root.status, "completed", "root completed");
    eq(root.content, ref.content, "the answer text, as in protocol 000");
    assertAllClosed(client, "a2a");
    const snap = client.getSnapshot();
    const report = snap.artifacts.find((a) => a.name === "report.md");
    assert(report, `report.md among ${snap.artifacts.map((a) => a.name)}`);
    eq(client.store.artifactText(report.id), ref.report, "report.md bytes");
    const chart = snap.artifacts.find((a) => a.name === "chart.png");
    eq(Array.from(client.store.artifactBytes(chart.id)).join(","), ref.chart, "chart.png bytes");
    assert(snap.artifacts.some((a) => a.type === "data" && a.version >= 2), "the data artifact reached version 2");
    eq(dialectErrors(client), [], "no error diagnostics");
    client.close();
    return `${snap.tasks.length} tasks, ${snap.artifacts.length} artifacts; ${states.length} states`;
  },

  async dialect_a2a_rpc_resumes_with_resubscribe_after_drops(aw) {
    const clean = await runAnswered(aw, { a2aVersion: "0.3", url: `/api/a2a?scenario=main&seed=${SEED}&speed=0`, message: "go" }, "clean");
    // What the client POSTs: a resubscribe, never the message again.
    const posts = watchPosts(`${location.origin}/api/a2a`);
    let dropped;
    try {
      dropped = await runAnswered(aw, { a2aVersion: "0.3", url: `/api/a2a?scenario=main&seed=${SEED}&speed=0&faults=drop=30`, message: "go" }, "dropped");
    } finally {
      posts.stop();
    }
    const methods = (await posts.bodies()).map((b) => b.method);
    eq(methods.filter((m) => m === "message/stream").length, 3, `one message + two answers: ${methods}`);
    assert(methods.includes("tasks/resubscribe"), `resumed with tasks/resubscribe: ${methods}`);
    assert(dropped.states.some((s) => s.startsWith("reconnecting")), `it dropped: ${dropped.states}`);
    sameState(dropped.client, clean.client, "dropped run = clean run");
    clean.client.close();
    dropped.client.close();
    return methods.join(", ");
  },

  async dialect_a2a_rpc_send_message_starts_the_next_task_after_the_run_finished(aw) {
    const client = started(new aw.AgentClient({ a2aVersion: "0.3", url: "/api/a2a?scenario=quick&seed=7&speed=0", message: "first" }));
    const states = recordStates(client);
    await until(() => ended(client), "the first run");
    eq(client.connection.state, "closed", client.connection.reason);
    const first = client.getSnapshot().roots[0];
    eq(first.status, "completed", "first task completed");
    // The next message of the conversation: a new message/stream, read by the same client.
    await client.sendMessage("second", { contextId: first.contextId });
    await until(() => ended(client) && client.getSnapshot().roots.some((t) => t.id !== first.id && t.status === "completed"), `the second run (${states.join(" → ")})`);
    eq(client.connection.state, "closed", client.connection.reason);
    assert(states.filter((x) => x.startsWith("connecting")).length >= 2, `connected twice: ${states}`);
    client.close();
    return states.join(" → ");
  },

  async a2a_send_message_after_a_finished_run_shows_the_new_task(aw) {
    // The scenario server numbers each message/stream's SSE ids from 0: the second turn's
    // events must not be taken for replays of the first stream's.
    const client = started(new aw.AgentClient({ a2aVersion: "0.3", url: "/api/a2a?scenario=quick&seed=7&speed=0", message: "first" }));
    const states = recordStates(client);
    await until(() => ended(client), "the first run");
    const first = client.getSnapshot().roots[0];
    const rootsBefore = new Set(client.getSnapshot().roots.map((t) => t.id));
    await client.sendMessage("second", { contextId: first.contextId });
    await until(() => ended(client), `the second run (${states.join(" → ")})`);
    const fresh = client.getSnapshot().roots.filter((t) => !rootsBefore.has(t.id)).map((t) => t.status);
    const dups = client.store.duplicatesIgnored;
    client.close();
    eq({ newRoots: fresh.length > 0, allEnded: fresh.every((s) => s !== "working"), state: client.connection.state },
      { newRoots: true, allEnded: true, state: "closed" },
      `second turn: roots ${JSON.stringify(fresh)}, duplicates ignored ${dups} (${states.join(" → ")})`);
  },

  async a2a_second_turn_dropped_before_its_first_event_is_not_resubscribed_to_the_first_task(aw) {
    const client = started(new aw.AgentClient({ a2aVersion: "0.3", url: "/api/a2a?scenario=quick&seed=7&speed=0", message: "first", reconnect: FAST }));
    const states = recordStates(client);
    await until(() => ended(client), "the first run");
    const first = client.getSnapshot().roots[0];
    eq(first.status, "completed", "first task completed");
    const rootsBefore = new Set(client.getSnapshot().roots.map((t) => t.id));
    const orig = globalThis.fetch;
    const posts = [];
    let dropped = 0;
    globalThis.fetch = async function (req, init) {
      if (req instanceof Request && req.method === "POST") {
        const body = await req.clone().text();
        posts.push(body);
        if (body.includes('"message/stream"') && dropped++ === 0) {
          // The second turn's stream opens, then the connection drops before its first event.
          return new Response("", { status: 200, headers: { "content-type": "text/event-stream" } });
        }
      }
      return orig.call(this, req, init);
    };
    try {
      await client.sendMessage("second", { contextId: first.contextId });
      await until(() => ended(client), `the second run (${states.join(" → ")})`);
    } finally {
      globalThis.fetch = orig;
    }
    const resub = posts.filter((b) => b.includes("tasks/resubscribe"));
    const others = client.getSnapshot().roots.filter((t) => !rootsBefore.has(t.id));
    const outcome = { resubscribedFirst: resub.some((b) => b.includes(first.id)), state: client.connection.state, secondTurn: others.length };
    client.close();
    // Expected: the first, finished task is not resubscribed; the lost turn is visible (the
    // connection fails as interrupted, or the second task shows up), not a silent "closed".
    eq(outcome, { resubscribedFirst: false, state: "failed", secondTurn: 0 },
      `after the drop (${states.join(" → ")}; ${client.connection.reason}; POSTs: ${posts.join(" | ")})`);
  },

  async a2a_plain_4xx_body_on_an_answer_adds_no_stray_diagnostic(aw) {
    const url = `/api/a2a?scenario=main&seed=${SEED}&speed=0`;
    const client = started(new aw.AgentClient({ a2aVersion: "0.3", url, message: "go", reconnect: FAST }));
    await until(() => client.pendingInputs().length > 0 && /waits/.test(client.connection.reason), "the approval");
    const input = client.pendingInputs()[0];
    const before = client.getSnapshot().diagnostics.map((d) => `${d.code}: ${d.message}`);
    // A proxy or framework error page as JSON, not a JSON-RPC response.
    const first = await approveWithFirstPostAnswered(client, input.id,
      new Response(JSON.stringify({ detail: "Bad Request" }), { status: 400, headers: { "content-type": "application/json" } }));
    eq(first, "send-failed", "the refused answer");
    const after = client.getSnapshot().diagnostics.map((d) => `${d.code}: ${d.message}`);
    client.close();
    eq(after.slice(before.length), [], "diagnostics added by the refused answer");
  },

  async dialect_a2a_rpc_cancel_sends_tasks_cancel(aw) {
    const client = started(new aw.AgentClient({ a2aVersion: "0.3", url: "/api/a2a?scenario=cancel&seed=1&speed=0", message: "long job" }));
    await until(() => client.getSnapshot().tasks.length > 0 && client.getSnapshot().tasks[0].status === "working", "working");
    const root = client.getSnapshot().roots[0];
    await client.cancel(root.id);
    await until(() => ended(client), "end");
    eq(client.connection.state, "closed", client.connection.reason);
    eq(client.store.task(root.id).status, "canceled", "canceled");
    client.close();
  },

  async dialect_a2a_rpc_error_fails_the_task_with_a_diagnostic(aw) {
    const client = started(new aw.AgentClient({ a2aVersion: "0.3", url: "/api/a2a?scenario=failure&seed=1&speed=0&faults=rpcError", message: "go" }));
    await until(() => ended(client), "end");
    const snap = client.getSnapshot();
    assert(snap.diagnostics.some((d) => d.code === "rpc-error"), `rpc-error diagnostic: ${snap.diagnostics.map((d) => d.code)}`);
    eq(snap.roots[0].status, "failed", "the stream's task failed");
    client.close();
  },

  // --- SSE dialects (GET /api/stream?dialect=…)

  async dialect_acp_runs_main_answering_with_provide_input(aw) {
    const ref = await canonicalMain(aw);
    const { client, states, results } = await runAnswered(aw, {
      url: `/api/stream?dialect=acp&scenario=main&seed=${SEED}&speed=0`,
      dialect: "acp",
    }, "acp");
    eq(client.connection.state, "closed", `closed: ${states.join(" → ")}`);
    eq(results.length, 2, `approval and sign-in answered: ${results}`);
    const root = rootOf(client, ref.rootId);
    eq(root.status, "completed", "completed");
    eq(root.content, ref.content, "the answer (ACP's message) as in protocol 000");
    assertAllClosed(client, "acp");
    const tools = [...new Set(client.getSnapshot().tasks.flatMap((t) => t.tools.map((x) => x.name)))].sort();
    eq(tools, ref.tools, "tools");
    const snap = client.getSnapshot();
    assert(snap.artifacts.some((a) => a.type === "dataset" && a.rowCount === 25), "the 25-row dataset");
    eq(dialectErrors(client), [], "no error diagnostics");
    client.close();
    return tools.join(", ");
  },

  async dialect_unified_runs_main_answering_through_the_canonical_endpoints(aw) {
    const ref = await canonicalMain(aw);
    const { client, states, results } = await runAnswered(aw, {
      url: `/api/stream?dialect=unified&scenario=main&seed=${SEED}&speed=0`,
      dialect: "unified",
    }, "unified");
    eq(client.connection.state, "closed", `closed: ${states.join(" → ")}`);
    eq(results.length, 2, `approval and sign-in answered: ${results}`);
    const snap = client.getSnapshot();
    const root = snap.roots[0];
    eq(root.status, "completed", "completed");
    // Unified messages are tasks of their own under the session (agent_message_start/delta/end).
    const answer = client.store.task(`msg:${ref.rootId}-answer`);
    assert(answer, `the root's message task among ${snap.tasks.map((t) => t.id)}`);
    eq(answer.content, ref.content, "the answer as in protocol 000");
    assertAllClosed(client, "unified");
    assert(root.tools.some((t) => t.name === "send_email"), "approved: send_email ran");
    assert(snap.artifacts.some((a) => a.type === "data"), "metrics data artifact");
    eq(dialectErrors(client), [], "no error diagnostics");
    client.close();
  },

  async dialect_sse_dialects_resume_after_drops_like_the_clean_run(aw) {
    const out = [];
    for (const d of ["a2a", "acp", "unified"]) {
      const { clean, dropped, drops } = await cleanAndDropped(aw, d, { auto: false });
      sameState(dropped.client, clean.client, `${d}: dropped = clean`);
      eq(rootOf(dropped.client, "").content, rootOf(clean.client, "").content, `${d}: no text twice`);
      out.push(`${d}: ${drops} drops`);
      clean.client.close();
      dropped.client.close();
    }
    return out.join("; ");
  },

  async dialect_auto_detects_each_sse_dialect(aw) {
    const out = [];
    for (const d of ["a2a", "acp", "unified"]) {
      const url = `/api/stream?dialect=${d}&scenario=quick&seed=7&speed=0`;
      const auto = started(new aw.AgentClient({ url }));
      eq(auto.dialect, undefined, `${d}: not known before the first event`);
      const fixed = started(new aw.AgentClient({ url, dialect: d }));
      await until(() => ended(auto) && ended(fixed), `${d}: both ends`);
      eq(auto.dialect, d, "detected");
      sameState(auto, fixed, `${d}: auto = fixed`);
      out.push(`${d} ✓`);
      auto.close();
      fixed.close();
    }
    const canonical = started(new aw.AgentClient({ url: "/api/stream?scenario=quick&seed=7&speed=0" }));
    await until(() => ended(canonical), "canonical end");
    eq(canonical.dialect, "canonical", "protocol 000 detected");
    canonical.close();
    return out.join(" ");
  },

  /**
   * Auto-detection all the way (no `dialect` option): the answers go out in the detected
   * dialect's own way (A2A message/stream to endpoints.rpc, ACP tasks/provideInputAndContinue,
   * Unified through the protocol-000 endpoints, MyAgent user.response) and a dropped connection
   * resumes in it (Last-Event-ID; MyAgent user.reconnect with last_seq): the state equals the run
   * with the dialect set and no drops.
   */
  async dialect_auto_answers_and_resumes_in_the_detected_dialect(aw) {
    const out = [];
    for (const d of ["a2a", "acp", "unified"]) {
      const { clean: fixed, dropped: auto, drops } = await cleanAndDropped(aw, d, { auto: true });
      eq(auto.client.dialect, d, `${d}: detected`);
      eq(auto.results.length, 2, `${d}: approval and sign-in answered: ${auto.results}`);
      assertAllClosed(auto.client, `${d} auto`);
      sameState(auto.client, fixed.client, `${d}: auto + drops = fixed dialect, clean`);
      eq(dialectErrors(auto.client), [], `${d}: no error diagnostics`);
      out.push(`${d}: ${drops} drops`);
      fixed.client.close();
      auto.client.close();
    }
    // MyAgent: detected from system.connected (start=connect: the server starts the run itself).
    const ws = (f) => `${WS}/api/myagent/ws?scenario=main&seed=${SEED}&speed=0&start=connect${f}`;
    const clean = await runAnswered(aw, { url: ws(""), transport: "websocket" }, "myagent auto clean");
    const dropped = await runAnswered(aw, { url: ws("&faults=drop=40,dup=10"), transport: "websocket", ackIntervalMs: 20 }, "myagent auto dropped");
    eq(clean.client.dialect, "myagent", "myagent: detected");
    eq(dropped.client.dialect, "myagent", "myagent: detected after drops");
    assert(dropped.states.some((s) => s.startsWith("reconnecting")), `myagent: it dropped: ${dropped.states}`);
    assert(clean.results.length >= 1 && dropped.results.length === clean.results.length, `myagent: answered with user.response: ${clean.results} / ${dropped.results}`);
    assertAllClosed(dropped.client, "myagent auto");
    sameState(dropped.client, clean.client, "myagent: auto + drops + duplicates = auto clean");
    out.push(`myagent: ${dropped.states.filter((s) => s.startsWith("reconnecting")).length} drops`);
    clean.client.close();
    dropped.client.close();
    return out.join("; ");
  },

  async dialect_malformed_events_become_diagnostics_and_the_stream_continues(aw) {
    const out = [];
    for (const d of ["a2a", "acp", "unified"]) {
      const url = (f) => `/api/stream?dialect=${d}&scenario=quick&seed=7&speed=0${f}`;
      const clean = started(new aw.AgentClient({ url: url(""), dialect: d }));
      const bad = started(new aw.AgentClient({ url: url("&faults=malformed"), dialect: d }));
      await until(() => ended(clean) && ended(bad), `${d}: both end`);
      eq(bad.connection.state, "closed", `${d}: ${bad.connection.reason}`);
      const codes = bad.getSnapshot().diagnostics.map((x) => x.code);
      // `{not json` and the bytes FF FE, then the dialect event missing a required member.
      eq(codes.filter((c) => c === "invalid-json").length, 2, `${d}: two invalid-json in ${codes}`);
      assert(codes.includes("missing-field"), `${d}: missing-field in ${codes}`);
      // The event of an unknown kind is kept (as an unknown event), not refused.
      const unknown = bad.getSnapshot().tasks.length >= clean.getSnapshot().tasks.length;
      assert(unknown, `${d}: nothing lost`);
      eq(rootOf(bad, "").content, rootOf(clean, "").content, `${d}: the answer is intact`);
      eq(rootOf(bad, "").status, rootOf(clean, "").status, `${d}: the status is intact`);
      out.push(`${d}: ${[...new Set(codes)].join(",")}`);
      clean.close();
      bad.close();
    }
    return out.join("; ");
  },

  async dialect_acp_checks_answers_and_cancels_with_tasks_cancel(aw) {
    const client = started(new aw.AgentClient({ url: `/api/stream?dialect=acp&scenario=main&seed=${SEED}&speed=0`, dialect: "acp" }));
    await until(() => client.pendingInputs().length > 0, "the permission request");
    const input = client.pendingInputs()[0];
    eq(input.options.map((o) => o.optionId), ["approve", "deny"], "permission_options as the request's options");
    // Not one of the permission options: refused before anything is sent.
    const err = await client.respond(input.id, "maybe").then(() => null, (e) => e);
    eq(err && err.code, "invalid-answer", "checked against the options");
    // select() with the option object sends its id (the request's schema is a string enum).
    await client.select(input.id, input.options.find((o) => o.optionId === "deny"));
    eq(client.store.task(input.taskId).inputs.find((i) => i.id === input.id).state, "answered", "denied");
    await until(() => client.pendingInputs().length > 0, "the sign-in (an ACP input)");
    const root = client.getSnapshot().roots[0];
    await client.cancel(root.id);
    await until(() => ended(client), "end");
    eq(client.store.task(root.id).status, "canceled", "canceled through POST /api/acp/rpc tasks/cancel");
    client.close();
  },

  async dialect_unified_cancel_goes_to_the_canonical_endpoint(aw) {
    const client = started(new aw.AgentClient({ url: "/api/stream?dialect=unified&scenario=cancel&seed=1&speed=0", dialect: "unified" }));
    // tool_call_delta carries a message, not a fraction: wait for the third step's.
    await until(() => /3 of/.test(client.getSnapshot().roots[0]?.tools?.[0]?.message ?? ""), "the job running");
    const root = client.getSnapshot().roots[0];
    await client.cancel(root.id);
    await until(() => ended(client), "end");
    eq(client.store.task(root.id).status, "canceled", "run_interrupted: canceled");
    eq(client.connection.state, "closed", client.connection.reason);
    client.close();
  },

  // --- MyAgent over the WebSocket

  async dialect_myagent_runs_main_answering_with_user_response(aw) {
    const ref = await canonicalMain(aw);
    const { client, states, results } = await runAnswered(aw, {
      url: `${WS}/api/myagent/ws?scenario=main&seed=${SEED}&speed=0`,
      dialect: "myagent",
      message: "Analyze the Q4 sales",
      session: { content: { project_name: "e2e" } },
    }, "myagent");
    eq(client.connection.state, "closed", `closed: ${states.join(" → ")}`);
    eq(results.length, 2, `approval and sign-in answered: ${results}`);
    const root = client.getSnapshot().roots.at(-1);
    eq(root.status, "completed", "the turn completed");
    eq(root.content, ref.content, "the final answer as in protocol 000");
    assertAllClosed(client, "myagent");
    assert(root.tools.some((t) => t.name === "send_email"), "approved: send_email ran");
    eq(dialectErrors(client), [], "no error diagnostics");
    client.close();
    return `tools ${root.tools.map((t) => t.name).join(", ")}`;
  },

  async dialect_myagent_reconnects_with_last_seq_and_applies_replays_once(aw) {
    const url = (f) => `${WS}/api/myagent/ws?scenario=main&seed=${SEED}&speed=0${f}`;
    const clean = await runAnswered(aw, { url: url(""), dialect: "myagent", message: "go" }, "clean");
    const dropped = await runAnswered(aw, { url: url("&faults=drop=40,dup=10"), dialect: "myagent", message: "go", ackIntervalMs: 20 }, "dropped");
    assert(dropped.states.some((s) => s.startsWith("reconnecting")), `it dropped: ${dropped.states}`);
    const stats = JSON.parse(dropped.client.store.stateJson()).stats;
    assert(stats.duplicatesIgnored >= 10, `the replayed events were ignored: ${JSON.stringify(stats)}`);
    sameState(dropped.client, clean.client, "dropped + duplicated = clean");
    clean.client.close();
    dropped.client.close();
    return dropped.states.join(" → ");
  },

  async dialect_myagent_missing_heartbeats_mark_the_socket_stale(aw) {
    const url = (f) => `${WS}/api/myagent/ws?scenario=quick&seed=7&speed=0&heartbeat=100${f}`;
    const clean = await runAnswered(aw, { url: url(""), dialect: "myagent", message: "go", idleTimeoutMs: 1000 }, "clean");
    const silent = await runAnswered(aw, { url: url("&faults=silent=20"), dialect: "myagent", message: "go", idleTimeoutMs: 1000 }, "silent");
    assert(silent.states.some((s) => s.startsWith("reconnecting") && s.includes("stale")), `stale reconnect: ${silent.states}`);
    sameState(silent.client, clean.client, "after the stale reconnect = clean");
    clean.client.close();
    silent.client.close();
    return silent.states.join(" → ");
  },

  async dialect_myagent_auto_detects_and_malformed_frames_become_diagnostics(aw) {
    const url = (f) => `${WS}/api/myagent/ws?scenario=quick&seed=7&speed=0&start=connect${f}`;
    // No dialect option: told from system.connected; the handshake follows the detection.
    const auto = started(new aw.AgentClient({ url: url(""), transport: "websocket" }));
    const bad = started(new aw.AgentClient({ url: url("&faults=malformed"), dialect: "myagent" }));
    await until(() => ended(auto) && ended(bad), "both end");
    eq(auto.dialect, "myagent", "detected");
    eq(auto.connection.state, "closed", auto.connection.reason);
    eq(bad.connection.state, "closed", bad.connection.reason);
    const codes = bad.getSnapshot().diagnostics.map((d) => d.code);
    eq(codes.filter((c) => c === "invalid-json").length, 2, `{not json and FF FE: ${codes}`);
    assert(codes.includes("invalid-type"), `agent.tool_call with a string content: ${codes}`);
    eq(bad.getSnapshot().roots.at(-1).content, auto.getSnapshot().roots.at(-1).content, "the answer is intact");
    auto.close();
    bad.close();
    return codes.join(",");
  },

  async dialect_myagent_send_message_starts_the_turn(aw) {
    const client = started(new aw.AgentClient({ url: `${WS}/api/myagent/ws?scenario=quick&seed=7&speed=0`, dialect: "myagent" }));
    // The server names the session in system.connected; the run waits for the first user.message.
    await until(() => client.connection.state === "open", "open");
    let err = null;
    eq(client.getSnapshot().tasks.length, 0, "the run waits for the user's message");
    for (let i = 0; i < 100; i++) {
      err = await client.sendMessage("Run the quick scenario").then(() => null, (e) => e);
      if (!err || err.code !== "invalid-state") break;
      await sleep(20); // no session id before system.connected
    }
    eq(err, null, "sent");
    await until(() => ended(client), "the turn");
    const root = client.getSnapshot().roots.at(-1);
    eq(root.status, "completed", "the turn the user.message started completed");
    client.close();
  },

  async dialect_myagent_cancel_sends_user_cancel(aw) {
    const client = started(new aw.AgentClient({ url: `${WS}/api/myagent/ws?scenario=cancel&seed=1&speed=0`, dialect: "myagent", message: "long job" }));
    await until(() => client.getSnapshot().roots.length > 0, "the turn");
    const root = client.getSnapshot().roots[0];
    await client.cancel(root.id);
    await until(() => ended(client), "end");
    eq(client.store.task(root.id).status, "canceled", "MyAgent has no canceled state: the failure after user.cancel is the cancel");
    assert(client.getSnapshot().diagnostics.some((d) => /CANCELED/.test(d.message)), "ERR_CANCELED reported");
    client.close();
  },

  async myagent_cancel_while_an_approval_waits_ends_canceled_and_expires_the_request(aw) {
    // Protocol 000, same scenario: Cancel while the approval waits → root canceled, request expired.
    const run = async (options) => {
      const client = started(new aw.AgentClient(options));
      await until(() => client.pendingInputs().length > 0, "the approval");
      const input = client.pendingInputs()[0];
      const root = client.getSnapshot().roots.at(-1);
      await client.cancel(root.id);
      await until(() => ended(client), "end");
      const task = client.store.task(root.id);
      const req = task.inputs.find((i) => i.id === input.id);
      client.close();
      return { status: task.status, request: req.state, providedBy: req.providedBy ?? null };
    };
    const ref = await run({ url: `/api/stream?scenario=main&seed=${SEED}&speed=0`, dialect: "canonical" });
    eq(ref, { status: "canceled", request: "expired", providedBy: null }, "protocol 000");
    const got = await run({ url: `${WS}/api/myagent/ws?scenario=main&seed=${SEED}&speed=0`, dialect: "myagent", message: "go" });
    eq(got, ref, "myagent: Cancel pressed while the approval waits");
  },

  async myagent_an_answer_lost_with_its_socket_is_sent_again_after_the_reconnect(aw) {
    // The first user.response goes into a socket that is already dead (fault loseResponse: the
    // server never reads it, the connection is cut); the client reconnects with user.reconnect.
    const client = started(new aw.AgentClient({
      url: `${WS}/api/myagent/ws?scenario=main&seed=${SEED}&speed=0&faults=loseResponse`,
      dialect: "myagent", message: "go", reconnect: FAST,
    }));
    const states = recordStates(client);
    const answers = answerEverything(client);
    await until(() => ended(client), "the run", 10_000).catch(() => {});
    answers.stop();
    const root = client.getSnapshot().roots.at(-1);
    const inputs = root?.inputs.map((i) => `${i.id}:${i.state}`).join(", ");
    const got = { state: client.connection.state, status: root?.status };
    client.close();
    eq(got, { state: "closed", status: "completed" }, `after the lost answer (states ${states.join(" → ")}; inputs ${inputs})`);
    return states.join(" → ");
  },

  // --- MyAgent on a hostile socket (issue 25, item 7)

  async myagent_frames_of_another_session_are_ignored(aw) {
    // Fault foreignSession: after the first run event, frames of session intruder-… with the
    // seq numbers this session uses next (a tool rm_rf, a final answer "not yours").
    const q = `scenario=quick&seed=7&speed=0`;
    const ref = started(new aw.AgentClient({ url: `${WS}/api/myagent/ws?${q}`, dialect: "myagent", message: "go", reconnect: FAST }));
    await until(() => ended(ref), "the clean run");
    const client = started(new aw.AgentClient({ url: `${WS}/api/myagent/ws?${q}&faults=foreignSession`, dialect: "myagent", message: "go", reconnect: FAST }));
    const states = recordStates(client);
    await until(() => ended(client), "the run", 10_000).catch(() => {});
    const snap = client.getSnapshot(), clean = ref.getSnapshot();
    const tools = snap.tasks.flatMap((t) => t.tools.map((x) => x.name));
    const mismatch = snap.diagnostics.filter((d) => d.code === "session-mismatch");
    const got = {
      state: client.connection.state,
      status: snap.roots.at(-1)?.status,
      content: snap.roots.at(-1)?.content,
      rmrf: tools.includes("rm_rf"),
      mismatch: mismatch.length,
      duplicates: snap.stats?.duplicatesIgnored,
    };
    const want = { state: "closed", status: clean.roots.at(-1)?.status, content: clean.roots.at(-1)?.content, rmrf: false, mismatch: 2, duplicates: clean.stats?.duplicatesIgnored };
    client.close();
    ref.close();
    eq(got, want, `another session's frames (states ${states.join(" → ")})`);
    return mismatch.map((d) => d.message).join("; ");
  },

  async myagent_a_session_the_server_forgot_fails_the_turn_visibly(aw) {
    // Faults drop=3 (the first socket is cut) and forgetSession (user.reconnect answered with
    // ERR_SESSION_NOT_FOUND, then agent.session_created of a new session).
    const client = started(new aw.AgentClient({
      url: `${WS}/api/myagent/ws?scenario=quick&seed=7&speed=0&faults=drop=3,forgetSession`,
      dialect: "myagent", message: "go", reconnect: FAST,
    }));
    const states = recordStates(client);
    await until(() => ended(client), "the end", 10_000).catch(() => {});
    const snap = client.getSnapshot();
    const root = snap.roots[0];
    const got = {
      state: client.connection.state,
      code: client.connection.code ?? null,
      status: root?.status,
      roots: snap.roots.length,
      why: /no longer knows session/.test(root?.history.at(-1)?.message ?? "") || /no longer knows session/.test(JSON.stringify(root ?? {})),
    };
    client.close();
    eq(got, { state: "failed", code: "session-lost", status: "failed", roots: 1, why: true }, `after the forgotten session (states ${states.join(" → ")})`);
    return states.join(" → ");
  },

  async myagent_a_message_lost_with_its_socket_is_sent_again_after_the_reconnect(aw) {
    // Fault loseMessage: the first user.message goes into a socket the server cuts unread.
    const client = started(new aw.AgentClient({
      url: `${WS}/api/myagent/ws?scenario=quick&seed=7&speed=0&faults=loseMessage`,
      dialect: "myagent", message: "go", reconnect: FAST,
    }));
    const states = recordStates(client);
    await until(() => ended(client), "the run", 10_000).catch(() => {});
    const root = client.getSnapshot().roots.at(-1);
    const got = { state: client.connection.state, status: root?.status ?? null, reconnected: states.some((s) => s.startsWith("reconnecting")) };
    client.close();
    eq(got, { state: "closed", status: "completed", reconnected: true }, `after the lost message (states ${states.join(" → ")})`);
    return states.join(" → ");
  },

  async myagent_a_message_the_server_ignores_is_sent_again_after_a_stale_socket(aw) {
    // Fault ignoreMessage: the server reads the first user.message and does nothing; the socket
    // stays open with heartbeats (every 100 ms). With no run event for idleTimeoutMs after the
    // message, the socket is stale and the reconnect sends the message again.
    const client = started(new aw.AgentClient({
      url: `${WS}/api/myagent/ws?scenario=quick&seed=7&speed=0&heartbeat=100&faults=ignoreMessage`,
      dialect: "myagent", message: "go", reconnect: FAST, idleTimeoutMs: 600,
    }));
    const states = recordStates(client);
    await until(() => ended(client), "the run", 10_000).catch(() => {});
    const root = client.getSnapshot().roots.at(-1);
    const got = { state: client.connection.state, status: root?.status ?? null, said: states.some((s) => /after user\.message/.test(s)) };
    client.close();
    eq(got, { state: "closed", status: "completed", said: true }, `after the ignored message (states ${states.join(" → ")})`);
    return states.join(" → ");
  },

  async myagent_an_oversized_final_answer_fails_the_turn_with_a_frame_diagnostic(aw) {
    // Fault hugeAnswer=2: the final answer frame is 2 MiB, maxEventBytes 1 MiB.
    const client = started(new aw.AgentClient({
      url: `${WS}/api/myagent/ws?scenario=quick&seed=7&speed=0&faults=hugeAnswer=2`,
      dialect: "myagent", message: "go", reconnect: FAST, limits: { maxEventBytes: 1 << 20, maxLineBytes: 1 << 20 },
    }));
    const states = recordStates(client);
    await until(() => ended(client), "the end", 15_000).catch(() => {});
    const snap = client.getSnapshot();
    const root = snap.roots.at(-1);
    const codes = snap.diagnostics.map((d) => d.code);
    const got = {
      state: client.connection.state,
      status: root?.status ?? null,
      why: /larger than maxEventBytes/.test(JSON.stringify(root ?? {})),
      frame: codes.includes("frame-too-large"),
      sse: codes.includes("sse-event-too-large"),
    };
    client.close();
    eq(got, { state: "closed", status: "failed", why: true, frame: true, sse: false }, `codes ${codes}; states ${states.join(" → ")}`);
    return `${codes}; ${states.join(" → ")}`;
  },

  async myagent_cancel_of_a_task_that_is_not_the_running_turn_sends_nothing(aw) {
    // user.cancel carries no task id: it stops the session's current operation. Cancelling a
    // plan step (a sub-task) or an earlier, finished turn must not stop the running turn.
    const sent = [];
    const client = started(new aw.AgentClient({ transport: "manual", dialect: "myagent", responder: (r) => { sent.push(r.body.event); } }));
    const f = (event, extra = {}) => client.store.pushEvent({ session_id: "s1", event, timestamp: "2026-01-01T00:00:00Z", ...extra });
    f("system.connected", { connection_id: "c1", content: { server_version: "x" } });
    f("plan.start", { step_id: "p1", content: { question: "q1" }, metadata: {} });
    f("agent.final_answer", { step_id: "a1", content: { answer: "one", answer_type: "text" } });
    f("plan.start", { step_id: "p2", content: { question: "q2" }, metadata: {} });
    f("plan.completed", { step_id: "p2", content: { tasks: [{ id: "t1", title: "step 1", description: "d" }] }, metadata: {} });
    const snap = client.getSnapshot();
    const [turn1, turn2] = snap.roots;
    const step = snap.tasks.find((t) => t.id.endsWith("/t1"));
    eq([turn1.status, turn2.status, !!step], ["completed", "working", true], "two turns, the second with a plan step");
    const outcome = async (id) => client.cancel(id).then(() => `sent ${sent.splice(0).join(",")}`, (e) => `${e.code} (${sent.splice(0).join(",") || "nothing sent"})`);
    const got = { finishedTurn: await outcome(turn1.id), planStep: await outcome(step.id), runningTurn: await outcome(turn2.id) };
    client.close();
    eq(got.runningTurn, "sent user.cancel", "cancel(the running turn)");
    assert(!got.finishedTurn.startsWith("sent") && !got.planStep.startsWith("sent"), `user.cancel stops the running turn: ${JSON.stringify(got)}`);
  },

  // --- WebSocket transport and MyAgent dialect: first message, attempts, calls after close

  async myagent_message_option_is_sent_when_the_first_connection_failed(aw) {
    // The first WebSocket fails its handshake (the server was briefly down: a 404 URL here);
    // the second one reaches the server. The `message` option must still start the run.
    const Orig = window.WebSocket;
    let opened = 0;
    function Flaky(url, protocols) {
      const u = opened++ === 0 ? `${WS}/api/no-such-socket-expected-by-test` : url;
      return new Orig(u, protocols);
    }
    Flaky.prototype = Orig.prototype;
    window.WebSocket = Flaky;
    let client, states;
    try {
      client = started(new aw.AgentClient({ url: `${WS}/api/myagent/ws?scenario=quick&seed=7&speed=0`, dialect: "myagent", message: "go", reconnect: FAST }));
      states = recordStates(client);
      await until(() => opened >= 2, "the second socket");
    } finally {
      window.WebSocket = Orig;
    }
    await until(() => ended(client), "the run", 8_000).catch(() => {});
    const info = client.connection, tasks = client.getSnapshot().tasks.length;
    client.close();
    eq([info.state, tasks > 0], ["closed", true], `the run started and finished (states ${states.join(" → ")}; ${tasks} tasks)`);
    return states.join(" → ");
  },

  async myagent_max_attempts_counts_sockets_that_only_said_hello(aw) {
    // Every connection: system.connected, then close 4401 (the server refuses the session).
    const client = started(new aw.AgentClient({
      url: `${WS}/api/myagent/ws?scenario=quick&seed=7&speed=0&start=connect&faults=closeAfterHello=4401`,
      dialect: "myagent",
      reconnect: { ...FAST, maxAttempts: 3 },
    }));
    const states = recordStates(client);
    await until(() => ended(client), "gave up", 5_000).catch(() => {});
    const info = client.connection;
    const reconnects = states.filter((s) => s.startsWith("reconnecting")).length;
    client.close();
    eq([info.state, info.code ?? null], ["failed", "gave-up"], `after ${reconnects} reconnects (${info.reason})`);
    return `${reconnects} reconnects; ${info.reason}`;
  },

  async gave_up_state_says_the_attempts_made(aw) {
    // Issue 21: every socket opens (attempt shown 0 while open) and closes: the final state
    // said attempt 0 next to "gave up after 3 attempts".
    const client = started(new aw.AgentClient({
      url: `${WS}/api/myagent/ws?scenario=quick&seed=7&speed=0&start=connect&faults=closeAfterHello=4401`,
      dialect: "myagent",
      reconnect: { ...FAST, maxAttempts: 3 },
    }));
    const seen = [];
    client.onConnectionChange((i) => seen.push(`${i.state}:${i.attempt}`));
    await until(() => ended(client), "gave up", 5_000).catch(() => {});
    const info = client.connection;
    client.close();
    eq([info.state, info.code ?? null, info.attempt, /gave up after 3 attempts/.test(info.reason)], ["failed", "gave-up", 3, true], `${info.reason}; ${seen.join(" → ")}`);
    eq(seen.at(-1), "failed:3", "the last change reported");
    return seen.join(" → ");
  },

  async myagent_answer_while_reconnecting_is_queued_and_sent_once_reopened(aw) {
    // Issue 21: an answer while the WebSocket reconnects rejected with invalid-state. It waits
    // for the next socket (after user.reconnect) and its promise settles once it was sent.
    const Orig = window.WebSocket;
    const sockets = [];
    function Tracked(url, protocols) {
      const s = new Orig(url, protocols);
      sockets.push(s);
      return s;
    }
    Tracked.prototype = Orig.prototype;
    window.WebSocket = Tracked;
    let client, states;
    try {
      client = started(new aw.AgentClient({
        url: `${WS}/api/myagent/ws?scenario=main&seed=${SEED}&speed=0`,
        dialect: "myagent",
        message: "go",
        reconnect: { initialDelayMs: 300, maxDelayMs: 300, jitter: 0 },
      }));
      states = recordStates(client);
      await until(() => client.pendingInputs().length > 0, "the approval");
      const id = client.pendingInputs()[0].id;
      sockets.at(-1).close(); // the socket dies under the client
      await until(() => client.connection.state === "reconnecting", "reconnecting");
      const p = client.approve(id).then(() => "sent", (e) => `${e.code}: ${e.message}`);
      eq(await Promise.race([p, sleep(100).then(() => "waiting")]), "waiting", "settled before the socket reopened");
      eq(await p, "sent", "the queued approval");
      eq(client.connection.state, "open", "sent on the reopened socket");
      // The sign-in (a MyAgent confirmation too), answered on the open socket.
      await until(() => client.pendingInputs().some((i) => i.id !== id) || ended(client), "the sign-in");
      const next = client.pendingInputs().find((i) => i.id !== id);
      if (next) await client.approve(next.id);
      await until(() => ended(client), "the end");
    } finally {
      window.WebSocket = Orig;
    }
    const root = client.getSnapshot().roots.at(-1);
    const info = client.connection;
    client.close();
    eq([info.state, root.status], ["closed", "completed"], `states ${states.join(" → ")}`);
    assert(root.tools.some((t) => t.name === "send_email"), "the approval reached the agent: send_email ran");
    return `${sockets.length} sockets; ${states.join(" → ")}`;
  },

  async myagent_queued_cancel_rejects_with_closed_when_the_connection_ends(aw) {
    const Orig = window.WebSocket;
    const sockets = [];
    function Tracked(url, protocols) {
      const s = new Orig(url, protocols);
      sockets.push(s);
      return s;
    }
    Tracked.prototype = Orig.prototype;
    window.WebSocket = Tracked;
    let client;
    try {
      client = started(new aw.AgentClient({
        url: `${WS}/api/myagent/ws?scenario=main&seed=${SEED}&speed=0`,
        dialect: "myagent",
        message: "go",
        reconnect: { initialDelayMs: 5_000, maxDelayMs: 5_000, jitter: 0 },
      }));
      await until(() => client.pendingInputs().length > 0, "the approval");
    } finally {
      window.WebSocket = Orig;
    }
    const task = client.pendingInputs()[0].taskId, id = client.pendingInputs()[0].id;
    sockets.at(-1).close();
    await until(() => client.connection.state === "reconnecting", "reconnecting");
    const code = (p) => p.then(() => "sent", (e) => e.code);
    const cancel = code(client.cancel(task)), deny = code(client.deny(id));
    eq(await Promise.race([cancel, sleep(100).then(() => "waiting")]), "waiting", "queued");
    client.close();
    eq([await cancel, await deny], ["closed", "closed"], "queued calls when the connection ended");
    return "closed";
  },

  async on_connection_change_after_close_registers_nothing(aw) {
    const client = started(new aw.AgentClient({ transport: "manual" }));
    client.close();
    const off = client.onConnectionChange(() => {});
    const n = client.listenerCount;
    off();
    eq(n, 0, "listenerCount after close() then onConnectionChange()");
  },

  async approve_deny_after_close_reject_with_closed(aw) {
    const client = started(new aw.AgentClient({ transport: "manual" }));
    client.close();
    const code = (p) => p.then(() => "resolved", (e) => e.code);
    const codes = {
      respond: await code(client.respond("nope", "x")),
      approve: await code(client.approve("nope")),
      deny: await code(client.deny("nope")),
    };
    eq(codes, { respond: "closed", approve: "closed", deny: "closed" }, "answers after close()");
  },

  async close_ends_an_a2a_answer_call_with_closed(aw) {
    const client = started(new aw.AgentClient({ a2aVersion: "0.3", url: `/api/a2a?scenario=main&seed=${SEED}&speed=0`, message: "go" }));
    await until(() => client.pendingInputs().length > 0 && client.connection.state === "open" && /waits for an answer/.test(client.connection.reason), "the approval");
    const id = client.pendingInputs()[0].id;
    // The answer's message/stream POST is slow to get its response (held 2 s, honours abort).
    const orig = globalThis.fetch;
    globalThis.fetch = function (input, init) {
      const signal = input && input.signal;
      return new Promise((res, rej) => {
        const t = setTimeout(() => res(orig.call(globalThis, input, init)), 2000);
        signal?.addEventListener("abort", () => { clearTimeout(t); rej(new DOMException("aborted", "AbortError")); });
      });
    };
    let code;
    try {
      const p = client.approve(id).then(() => "resolved", (e) => `${e.code}: ${e.message}`);
      await sleep(100);
      client.close();
      code = await p;
    } finally {
      globalThis.fetch = orig;
    }
    assert(/^closed/.test(code), `approve() in flight at close(): ${code}`);
  },

  // --- A2A against the official @a2a-js/sdk server, from a Web Worker: the page's CSP
  // (connect-src 'self') forbids another origin, a worker script has no such policy.
  ...Object.fromEntries(Object.keys(sdkTests).map((name) => [name, () => inWorker(name)])),
};

/** Runs `sdkTests[name]` in a module worker (tests/e2e/dialects.worker.js). */
function inWorker(name) {
  return new Promise((resolve, reject) => {
    const w = new Worker(new URL(`./dialects.worker.js?${encodeURIComponent(name)}`, import.meta.url), { type: "module" });
    w.onmessage = (m) => {
      w.terminate();
      if (m.data.ok) resolve(`${m.data.detail ?? ""} (in a worker)`);
      else reject(new Error(m.data.error));
    };
    w.onerror = (e) => { w.terminate(); reject(new Error(`worker: ${e.message}`)); };
  });
}


