// Worker mode (WorkerClient: the connection, parsing and assembly in a module Worker that loads
// the package's agentwire-worker.js) and the batched per-event delivery, in headless Chromium
// against the scenario server. Every comparison is against the main-thread AgentClient /
// AgentStore on the same stream: same snapshots, same events in the same order.
import { sleep, assert, eq, until, ended, recordStates } from "./client.test.js";
/** A client connecting now (constructors do no I/O: start() connects). */
const started = (c) => { c.start(); return c; };

const frame = () => new Promise((r) => requestAnimationFrame(() => r()));

/** A snapshot without what differs between two runs of the same seed (run id, revisions). */
function comparable(snap) {
  const strip = (k, v) => (k === "contextId" || k === "revision" ? undefined : v);
  return JSON.stringify({ tasks: snap.tasks, artifacts: snap.artifacts, diagnostics: snap.diagnostics,
    pendingInputs: snap.pendingInputs, pendingAuths: snap.pendingAuths }, strip);
}

function same(a, b, msg) {
  if (a === b) return;
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  throw new Error(`${msg}: differ at ${i}: …${a.slice(Math.max(0, i - 80), i + 120)}… vs …${b.slice(Math.max(0, i - 80), i + 120)}…`);
}

/** Runs `main` (seed 3) to the end, approving and signing in; returns the events seen. */
async function runMain(client) {
  const events = [];
  client.onAny((e) => events.push(e));
  client.on("input-required", (e) => { if (e.requireUser) void client.approve(e.inputId); });
  client.on("auth-required", (e) => { void client.completeAuth(e.authId, { code: "demo" }); });
  await until(() => ended(client), "end", 30_000);
  return events;
}

// A stream that exercises the typed fast path and the JSON path of per-event delivery:
// non-ASCII and emoji deltas, escapes, an unknown field (kept), a big index, internal events.
const ts = "2025-11-06T10:30:00.000Z";
const lines = [
  { kind: "task-created", contextId: "c", taskId: "t", initiator: "user", timestamp: ts },
  { kind: "content-delta", contextId: "c", taskId: "t", delta: "plain", index: 0, timestamp: ts },
  { kind: "content-delta", contextId: "c", taskId: "t", delta: "Hé🙂 \"quoted\"\n\\", index: 1, timestamp: ts },
  { kind: "internal:llm-call", contextId: "c", taskId: "t", iteration: 1, timestamp: ts },
  { kind: "content-delta", contextId: "c", taskId: "t", delta: "x", index: 2, timestamp: ts, extra: { a: [1, 2] } },
  { kind: "thought-stream", contextId: "c", taskId: "t", thoughtId: "th", thoughtType: "planning", verbosity: "brief", content: "ünïcode", index: 0, timestamp: ts },
  { kind: "content-delta", contextId: "c", taskId: "t", delta: "", index: 3, timestamp: ts },
  { kind: "content-delta", contextId: "c2", taskId: "t", delta: "y", index: 4, timestamp: "2025-11-06T10:30:00Z" },
  { kind: "content-delta", contextId: "c", taskId: "t", delta: "z", index: 9007199254740000, timestamp: ts },
  { kind: "my-custom-kind", contextId: "c", taskId: "t", anything: "goes" },
  { kind: "content-complete", contextId: "c", taskId: "t", content: "plainHé🙂", timestamp: ts },
];
const SSE = lines.map((l, i) => `id: ${i}\ndata: ${JSON.stringify(l)}\n\n`).join("");

export const tests = {
  async delivery_objects_equal_the_decoders_events(aw) {
    const bytes = new TextEncoder().encode(SSE);
    const dec = new aw.StreamDecoder();
    const want = dec.feed(bytes).filter((x) => x.event).map((x) => x.event);
    const store = new aw.AgentStore();
    const all = [], tools = [], any = [];
    store.subscribeEvents({ kinds: "*", includeInternal: true }, (e) => all.push(e));
    store.onAny((e) => any.push(e));
    store.on("content-delta", (e) => tools.push(e));
    for (let i = 0; i < bytes.length; i += 61) store.feed(bytes.subarray(i, i + 61));
    store.finish();
    // Same objects, same keys in the same order (the JSON text is identical), same order of
    // events; the content-deltas come from the typed fast path, the rest from JSON.parse.
    eq(all.length, want.length, "every applied event delivered");
    for (let i = 0; i < want.length; i++) eq(all[i], want[i], `event ${i} (${want[i].kind})`);
    eq(any.map((e) => e.kind), want.filter((e) => !e.kind.startsWith("internal:")).map((e) => e.kind), "onAny skips internal");
    eq(tools, want.filter((e) => e.kind === "content-delta"), "on(kind)");
    store.close();
    return `${all.length} events compared`;
  },

  async delivery_handler_removed_by_an_earlier_handler_is_skipped(aw) {
    const store = new aw.AgentStore();
    const seen = [];
    let stopB = null;
    store.on("content-delta", () => { seen.push("a"); if (stopB) { stopB(); stopB = null; } });
    stopB = store.on("content-delta", () => seen.push("b"));
    let thrown = 0;
    store.on("content-delta", () => { thrown++; throw new Error("expected-by-test"); });
    let err = null;
    try { store.feedText(SSE); } catch (e) { err = e; }
    assert(err && /expected-by-test/.test(err.message), "the first handler error is thrown after delivery");
    // Handler b was removed while the batch was delivered: it never runs.
    eq(seen.filter((s) => s === "b").length, 0, "b skipped");
    eq(seen.filter((s) => s === "a").length, thrown, "a and the throwing handler saw every delta");
    store.close();
    eq(store.listenerCount, 0, "no listeners after close");
  },

  async snapshot_objects_equal_the_state_json(aw) {
    const text = await (await fetch("/api/stream?scenario=quick&seed=5&speed=0")).text();
    const store = new aw.AgentStore();
    const half = Math.floor(text.length / 2);
    store.feedText(text.slice(0, half));
    const first = store.getSnapshot();
    store.feedText(text.slice(half));
    store.finish();
    const snap = store.getSnapshot();
    const state = JSON.parse(store.stateJson());
    // Built in one batch with the answers outside the JSON: the same objects as the state JSON.
    eq(snap.tasks, state.tasks, "tasks");
    eq(snap.artifacts, state.artifacts, "artifacts");
    // Unchanged tasks keep their identity across snapshots.
    const kept = first.tasks.filter((t, i) => t.revision === snap.tasks[i].revision);
    assert(kept.every((t) => snap.tasks.includes(t)), "unchanged tasks are the same objects");
    eq(store.task(snap.tasks[0].id), snap.tasks[0], "task(id) is the snapshot's object");
    assert(store.task(snap.tasks[0].id) === snap.tasks[0], "same identity");
    store.close();
    return `${snap.tasks.length} tasks, ${kept.length} kept`;
  },

  async worker_mode_runs_main_like_the_main_thread_client(aw) {
    const url = "/api/stream?scenario=main&seed=3&speed=0";
    const ref = started(new aw.AgentClient({ url }));
    const client = started(new aw.WorkerClient({ url }));
    const states = recordStates(client);
    const [refEvents, events] = await Promise.all([runMain(ref), runMain(client)]);
    eq(client.connection.state, "closed", client.connection.reason);
    same(comparable(client.getSnapshot()), comparable(ref.getSnapshot()), "same final snapshot");
    eq(events.map((e) => e.kind), refEvents.map((e) => e.kind), "same events, same order");
    eq(states[0], "connecting", "connecting when the constructor returns");
    eq(states[states.length - 1], "closed", "closed at the end");
    const snap = client.getSnapshot();
    assert(snap === client.getSnapshot(), "snapshot identity kept while nothing changes");
    eq(snap.roots[0].status, "completed", "root completed");
    client.close();
    ref.close();
    eq(client.listenerCount, 0, "no listeners after close");
    return `${snap.tasks.length} tasks, ${events.length} events`;
  },

  async worker_manual_feed_mirrors_the_store_exactly(aw) {
    const bytes = new Uint8Array(await (await fetch("/api/stream?scenario=quick&seed=4&speed=0")).arrayBuffer());
    const ref = new aw.AgentStore();
    ref.feed(bytes);
    ref.finish();
    const client = started(new aw.WorkerClient({ transport: "manual" }));
    const snaps = [];
    client.subscribe((s) => snaps.push(s));
    // Small chunks, a batch forced every few: the answers cross as appends, several batches.
    await client.flush();
    for (let i = 0, n = 0; i < bytes.length; i += 300, n++) {
      client.feed(bytes.subarray(i, i + 300));
      if (n % 4 === 3) await client.flush();
      if (n % 9 === 8) await frame();
    }
    await client.finish();
    const a = client.getSnapshot(), b = ref.getSnapshot();
    eq(a.version, b.version, "version");
    eq(a.tasks, b.tasks, "tasks (answers rebuilt from appends)");
    eq(a.roots, b.roots, "roots");
    eq(a.artifacts, b.artifacts, "artifacts");
    eq(a.diagnostics, b.diagnostics, "diagnostics");
    eq(a.pendingInputs, b.pendingInputs, "pendingInputs");
    assert(snaps.length > 3, `several batches (${snaps.length})`);
    assert(Object.isFrozen(a), "snapshot frozen");
    client.close();
    ref.close();
    return `${snaps.length} snapshots, ${a.tasks.length} tasks`;
  },

  async worker_filters_iterators_and_unsubscribe(aw) {
    const bytes = new Uint8Array(await (await fetch("/api/stream?scenario=quick&seed=4&speed=0")).arrayBuffer());
    const ref = new aw.AgentStore();
    const want = { tool: [], input: [], internal: [] };
    ref.on("tool-*", (e) => want.tool.push(e));
    ref.subscribeEvents({ kinds: ["input-*"] }, (e) => want.input.push(e));
    ref.on("internal:*", (e) => want.internal.push(e));
    ref.feed(bytes);
    ref.finish();
    const client = started(new aw.WorkerClient({ transport: "manual" }));
    const got = { tool: [], input: [], internal: [], stopped: 0 };
    client.on("tool-*", (e) => got.tool.push(e));
    client.subscribeEvents({ kinds: ["input-*"] }, (e) => got.input.push(e));
    client.on("internal:*", (e) => got.internal.push(e));
    const stop = client.onAny(() => got.stopped++);
    stop();
    stop();
    const it = client.events({ filter: { kinds: "tool-progress" } });
    const firstProgress = it.next();
    client.feed(bytes);
    await client.finish();
    eq(got.tool, want.tool, "tool-* events");
    eq(got.input, want.input, "input-* filter");
    eq(got.internal, want.internal, "internal:* events");
    eq(got.stopped, 0, "an unsubscribed handler gets nothing");
    const p = await firstProgress;
    eq(p.value, want.tool.find((e) => e.kind === "tool-progress"), "iterator's first event");
    await it.return();
    eq((await it.next()).done, true, "iterator ended");
    client.close();
    ref.close();
    return `${got.tool.length} tool, ${got.input.length} input, ${got.internal.length} internal events`;
  },

  async worker_subscribe_whose_first_call_throws_keeps_no_listener(aw) {
    const client = started(new aw.WorkerClient({ transport: "manual" }));
    let calls = 0;
    let err = null;
    try {
      client.subscribe(() => { calls++; if (calls === 1) throw new Error("render failed"); });
    } catch (e) { err = e; }
    eq(err && err.message, "render failed", "subscribe rethrew the listener's error");
    eq(client.listenerCount, 0, "no listener kept (the caller has no unsubscribe function)");
    client.feed(new TextEncoder().encode(`event: task-created\ndata: ${JSON.stringify(lines[0])}\n\n`));
    await client.finish();
    eq(client.getSnapshot().tasks.length, 1, "the state changed");
    eq(calls, 1, "the listener was not called again");
    client.close();
  },

  async worker_a_failed_answer_is_open_not_sending_and_can_be_retried(aw) {
    // The answer goes to an endpoint that does not exist: it fails in the Worker.
    const client = started(new aw.WorkerClient({ url: "/api/stream?scenario=main&seed=8&speed=0", endpoints: { input: "/api/nowhere/{inputId}" } }));
    await until(() => client.pendingInputs().length > 0, "the approval request");
    const id = client.pendingInputs()[0].id;
    const input = () => client.getSnapshot().pendingInputs.find((i) => i.id === id);
    eq(input()?.sending, false, "the page's snapshot has sending");
    let err = await client.approve(id).then(() => null, (e) => e);
    eq(err && err.code, "send-failed", "the failed answer");
    await until(() => input()?.sending === false && input()?.state === "open", "open and not sending after the failure");
    err = await client.approve(id).then(() => null, (e) => e);
    eq(err && err.code, "send-failed", "a retry is allowed (not already-answered)");
    client.close();
  },

  async worker_answers_errors_and_close(aw) {
    const client = started(new aw.WorkerClient({ url: "/api/stream?scenario=main&seed=3&speed=0" }));
    let asked = null;
    client.on("input-required", (e) => { if (e.requireUser) asked = e; });
    await until(() => asked && client.pendingInputs().some((i) => i.id === asked.inputId), "the approval request");
    // Checked in the Worker; the error crosses back with its code.
    let err = await client.respond(asked.inputId, "maybe").then(() => null, (e) => e);
    assert(err instanceof Error, "an Error");
    eq(err.code, "invalid-answer", "invalid answer");
    await client.approve(asked.inputId);
    err = await client.approve(asked.inputId).then(() => null, (e) => e);
    eq(err && err.code, "already-answered", "second answer");
    await until(() => client.getSnapshot().pendingAuths.length > 0, "the auth request");
    const auth = client.pendingAuths()[0];
    eq(client.authUrl(auth.id), "https://github.com/login/oauth/authorize?client_id=demo", "safe auth URL");
    err = null;
    try { client.authUrl("nope"); } catch (e) { err = e; }
    eq(err && err.code, "unknown-auth", "unknown auth");
    await client.completeAuth(auth.id, { code: "demo-code" });
    await until(() => ended(client), "end", 30_000);
    eq(client.getSnapshot().roots[0].status, "completed", "completed");
    client.close();
    eq(client.connection.state, "closed", "closed");
    err = await client.approve("x").then(() => null, (e) => e);
    eq(err && err.code, "closed", "calls after close");
    let thrown = null;
    try { started(new aw.WorkerClient({ transport: "manual", coordinator: () => 1 })); } catch (e) { thrown = e; }
    eq(thrown && thrown.code, "invalid-argument", "functions cannot cross into the Worker");
  },

  async worker_xss_and_unsafe_auth_url(aw) {
    const client = started(new aw.WorkerClient({ url: "/api/stream?scenario=xss&seed=1&speed=0" }));
    await until(() => ended(client), "end");
    await client.flush();
    const auth = client.getSnapshot().tasks.flatMap((t) => t.auths).find((a) => /javascript:/i.test(a.authUrl ?? ""));
    assert(auth, "the xss scenario has a javascript: auth URL");
    let err = null;
    try { client.openAuth(auth.id); } catch (e) { err = e; }
    eq(err && err.code, "unsafe-url", "not opened");
    client.close();
    await sleep(0);
  },
  async worker_bad_filter_throws_like_the_main_thread_and_leaves_the_connection_alone(aw) {
    const ref = started(new aw.AgentClient({ transport: "manual" }));
    let mainErr = null;
    try { ref.events({ filter: { kinds: 5 } }); } catch (e) { mainErr = e; }
    ref.close();
    const client = started(new aw.WorkerClient({ url: "/api/stream?scenario=quick&seed=4&speed=0" }));
    const states = recordStates(client);
    const errs = [];
    for (const f of [() => client.events({ filter: { kinds: 5 } }), () => client.subscribeEvents({ kinds: 5 }, () => {})]) {
      try { f(); errs.push(null); } catch (e) { errs.push(e.code); }
    }
    await until(() => ended(client), "end");
    const detail = `main: ${mainErr && mainErr.code}; worker: ${errs}; states=${states.join(",")}`;
    client.close();
    eq(errs, [mainErr.code, mainErr.code], detail);
    eq(states.filter((x, i) => x !== states[i - 1]), ["connecting", "open", "closed"], detail);
    return detail;
  },

  async worker_that_failed_to_load_refuses_later_calls(aw) {
    const client = started(new aw.WorkerClient({ transport: "manual", worker: "/no-such-worker.js" }));
    await until(() => client.connection.state === "failed", "failed", 5000);
    const settle = (p, ms) => Promise.race([p.then(() => "resolved", (e) => `rejected:${e.code}`), sleep(ms).then(() => "pending")]);
    const r = [await settle(client.flush(), 2000), await settle(client.approve("x"), 500)];
    client.close();
    eq(r, ["rejected:internal", "rejected:internal"], `conn ${client.connection.code}`);
  },

  async worker_close_settles_calls_in_flight_like_the_main_thread(aw) {
    const url = "/api/stream?scenario=main&seed=3&speed=0";
    const run = async (client) => {
      let asked = null;
      client.on("input-required", (e) => { if (e.requireUser) asked = e; });
      await until(() => asked && client.pendingInputs().some((i) => i.id === asked.inputId), "approval");
      const p = client.approve(asked.inputId);
      client.close();
      return Promise.race([p.then(() => "resolved", (e) => `rejected:${e.code}`), sleep(7000).then(() => "pending")]);
    };
    const [m, w] = await Promise.all([run(started(new aw.AgentClient({ url }))), run(started(new aw.WorkerClient({ url })))]);
    eq(w, m, "the answer sent before close() settles the same way");
    return `main: ${m}; worker: ${w}`;
  },

};
