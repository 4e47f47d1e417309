// The TypeScript layer's API (issue 22), live in Chromium against the scenario server:
// constructors do no I/O, start() is idempotent, run() resolves with the final snapshot or
// rejects with an AgentwireError, `{ signal }` aborts a call before anything is sent, every
// method works unbound, `connection` keeps its identity until it changes, limits are grouped,
// and errors are AgentwireErrors in Worker mode too.

function assert(cond, msg) {
  if (!cond) throw new Error(`assertion failed: ${msg}`);
}
function eq(a, b, msg) {
  const sa = JSON.stringify(a), sb = JSON.stringify(b);
  if (sa !== sb) throw new Error(`${msg}: ${sa} !== ${sb}`);
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
async function until(pred, what, ms = 30_000) {
  const t0 = Date.now();
  while (Date.now() - t0 < ms) {
    if (pred()) return;
    await sleep(10);
  }
  throw new Error(`timed out waiting for ${what}`);
}
/** Counts the requests whose URL contains `part` until `stop()`. */
function countRequests(part) {
  const seen = [];
  const orig = globalThis.fetch;
  globalThis.fetch = function (req, init) {
    const url = req instanceof Request ? req.url : String(req);
    if (url.includes(part)) seen.push(`${req instanceof Request ? req.method : init?.method ?? "GET"} ${url}`);
    return orig.call(this, req, init);
  };
  return { seen, stop: () => { globalThis.fetch = orig; } };
}
/** What `p` settled with: "resolved" or the error's class and code. */
const settled = (p) => p.then(() => "resolved", (e) => `${e?.constructor?.name}:${e?.code}`);
const FAST = { initialDelayMs: 20, maxDelayMs: 100, jitter: 0 };
const QUICK = "/api/stream?scenario=quick&seed=7&speed=0";

export const tests = {
  async api_constructor_does_no_io_and_start_is_idempotent(aw) {
    const reqs = countRequests("scenario=quick&seed=7&speed=0&api=noio");
    try {
      const client = new aw.AgentClient({ url: `${QUICK}&api=noio` });
      await sleep(200);
      eq([client.connection.state, reqs.seen.length], ["idle", 0], "nothing sent before start()");
      client.start();
      client.start();
      eq(client.connection.state, "connecting", "connecting at once");
      const final = await client.run();
      eq(reqs.seen.length, 1, "one request for start(), start() and run()");
      eq(final.roots[0].status, "completed", "run() resolves with the final snapshot");
      assert(final === client.getSnapshot(), "the final snapshot is the client's snapshot");
      client.close();
      const e = await settled(Promise.resolve().then(() => client.start()));
      eq(e, "AgentwireError:closed", "start() after close()");
    } finally {
      reqs.stop();
    }
  },

  async api_run_rejects_with_the_connection_code(aw) {
    const client = new aw.AgentClient({ url: "/api/stream?scenario=quick&speed=0&run=api401&faults=status=401", reconnect: FAST });
    const got = await settled(client.run());
    eq(got, `AgentwireError:${client.connection.code}`, "run() rejects with the connection's code");
    eq(client.connection.state, "failed", "failed");
    const closedFirst = new aw.AgentClient({ url: "/api/stream?scenario=main&seed=3&speed=0" });
    const p = closedFirst.run();
    await until(() => closedFirst.connection.state === "open", "open");
    closedFirst.close();
    eq(await settled(p), "AgentwireError:closed", "closed by the app before the end");
    return `401: ${client.connection.code}`;
  },

  async api_signals_abort_before_anything_is_sent(aw) {
    const client = new aw.AgentClient({ url: "/api/stream?scenario=main&seed=3&speed=0", reconnect: FAST });
    client.start();
    await until(() => client.pendingInputs().length > 0, "a request for the user");
    const id = client.pendingInputs()[0].id;
    const posts = countRequests("/inputs/");
    try {
      const ac = new AbortController();
      ac.abort(new Error("user left"));
      const { signal } = ac;
      const got = await Promise.all([
        settled(client.approve(id, { signal })),
        settled(client.deny(id, "no", { signal })),
        settled(client.respond(id, true, { signal })),
        settled(client.select(id, "approve", { signal })),
        settled(client.answer(id, "ok", { signal })),
        settled(client.cancel(client.getSnapshot().roots[0].id, { signal })),
        settled(client.completeAuth("a", {}, { signal })),
        settled(client.sendMessage("hi", { signal })),
        settled(client.run({ signal })),
      ]);
      eq(got, Array(9).fill("AgentwireError:aborted"), "every call rejected with aborted");
      eq(posts.seen, [], "nothing sent");
      eq(client.pendingInputs().map((i) => i.id), [id], "the request is still open");
      await client.approve(id, { signal: new AbortController().signal });
      await until(() => client.pendingInputs().length === 0, "answered");
      eq(posts.seen.length, 1, "the approval went out once");
    } finally {
      posts.stop();
      client.close();
    }
    // run({ signal }) aborted while running: rejects aborted and closes the connection.
    const other = new aw.AgentClient({ url: "/api/stream?scenario=main&seed=3&speed=0" });
    const ac = new AbortController();
    const p = other.run({ signal: ac.signal });
    await until(() => other.connection.state === "open", "open");
    ac.abort();
    eq(await settled(p), "AgentwireError:aborted", "run aborted");
    eq(other.connection.state, "closed", "the connection closed");
  },

  async api_unbound_methods_and_connection_identity(aw) {
    const client = new aw.AgentClient({ url: QUICK });
    const { subscribe, getSnapshot, on, onConnectionChange, start, run, close, pendingInputs } = client;
    let notified = 0;
    const off = subscribe(() => notified++);
    const kinds = [];
    const offOn = on("task-*", (e) => kinds.push(e.kind));
    const infos = [];
    const offConn = onConnectionChange((i) => infos.push(i));
    const a = client.connection;
    eq(a === client.connection, true, "the same object while nothing changed");
    start();
    assert(a !== client.connection, "a new object after a change");
    const final = await run();
    eq(getSnapshot() === final, true, "getSnapshot unbound");
    assert(notified > 0 && kinds.includes("task-created") && pendingInputs().length === 0, `unbound listeners: ${notified}, ${kinds}`);
    eq(infos.at(-1) === client.connection, true, "the listener's object is the connection object");
    eq(client.connection === client.connection, true, "stable after the end");
    off(); offOn(); offConn();
    close();
    eq(client.listenerCount, 0, "no listeners left");
    // The store and the decoder too.
    const store = new aw.AgentStore({ limits: { maxTasks: 1 } });
    const { feedText, getSnapshot: snap } = store;
    feedText('event: task-created\ndata: {"kind":"task-created","contextId":"c","taskId":"t1","initiator":"user","timestamp":"2025-11-06T10:30:00Z"}\n\n');
    feedText('event: task-created\ndata: {"kind":"task-created","contextId":"c","taskId":"t2","initiator":"user","timestamp":"2025-11-06T10:30:00Z"}\n\n');
    eq([snap().tasks.length, snap().diagnostics.map((d) => d.code)], [1, ["limit-exceeded"]], "limits.maxTasks applies");
  },

  async api_errors_are_agentwire_errors_with_codes(aw) {
    const codes = [];
    const grab = (f) => { try { f(); codes.push("none"); } catch (e) { codes.push(e instanceof aw.AgentwireError && e instanceof Error ? e.code : `not an AgentwireError: ${e}`); } };
    grab(() => new aw.AgentStore({ maxTasks: 1 }));
    grab(() => new aw.AgentStore({ limits: { maxTasks: -1 } }));
    grab(() => new aw.AgentStore({ limits: { maxEverything: 1 } }));
    grab(() => new aw.AgentClient({ url: QUICK, autoConnect: false }));
    grab(() => new aw.AgentClient({ url: QUICK, transport: "pigeon" }));
    grab(() => new aw.AgentClient({ transport: "manual" }).authUrl("nope"));
    eq(codes, ["invalid-argument", "invalid-argument", "invalid-argument", "invalid-argument", "invalid-argument", "unknown-auth"], "codes");
    const client = new aw.AgentClient({ url: "/api/stream?scenario=main&seed=3&speed=0" });
    client.start();
    await until(() => client.pendingInputs().length > 0, "a request");
    const id = client.pendingInputs()[0].id;
    const bad = await client.respond(id, { surely: "not fitting" }).catch((e) => e);
    client.close();
    assert(bad instanceof aw.AgentwireError, `respond rejects with an AgentwireError: ${bad}`);
    assert(["invalid-answer", "send-failed"].includes(bad.code), `code ${bad.code}`);
    return `respond: ${bad.code}${bad.path !== undefined ? ` at ${bad.path}` : ""}`;
  },

  async api_worker_mode_errors_and_run(aw) {
    // StrictMode's mount/unmount: made, subscribed and closed without start() loads no Worker.
    const OrigWorker = globalThis.Worker;
    let spawned = 0;
    globalThis.Worker = class extends OrigWorker { constructor(...a) { super(...a); spawned++; } };
    try {
      const unused = new aw.WorkerClient({ url: QUICK });
      const offs = [unused.subscribe(() => {}), unused.on("*", () => {}), unused.onConnectionChange(() => {})];
      offs.forEach((f) => f());
      unused.close();
      await sleep(50);
      eq([spawned, unused.connection.state], [0, "closed"], "no Worker for a client never started");
      const used = new aw.WorkerClient({ url: QUICK });
      used.start();
      eq(spawned, 1, "start() starts the Worker");
      used.close();
    } finally {
      globalThis.Worker = OrigWorker;
    }
    const client = new aw.WorkerClient({ url: QUICK });
    await sleep(100);
    eq(client.connection.state, "idle", "the Worker does not connect before start()");
    const final = await client.run();
    eq(final.roots[0].status, "completed", "run() in Worker mode");
    const e = await client.approve("no-such-input").catch((x) => x);
    assert(e instanceof aw.AgentwireError, `Worker-mode rejection is an AgentwireError: ${e}`);
    eq(e.code, "unknown-input", "its code");
    const { getSnapshot } = client;
    eq(getSnapshot() === client.getSnapshot(), true, "unbound in Worker mode");
    client.close();
    const failing = new aw.WorkerClient({ url: "/api/stream?scenario=quick&speed=0&run=api-w401&faults=status=401", reconnect: false });
    eq(await settled(failing.run()), "AgentwireError:unauthorized", "run() rejects in Worker mode");
    failing.close();
  },

  async api_ag_ui_run_ends_with_the_turn(aw) {
    const client = new aw.AgentClient({ url: "/api/ag-ui?speed=0&seed=7&scenario=quick", dialect: "ag-ui", agUi: { messages: [{ id: "u1", role: "user", content: "Quick, please" }] } });
    const first = await client.run();
    eq(client.connection.state, "closed", "the run finished");
    const n = first.tasks.length;
    const sent = client.sendMessage("Tell me more");
    const second = await client.run(); // waits for the turn just sent
    await sent;
    assert(second.tasks.length > n, `the second turn's task is in the snapshot run() resolved with (${n} -> ${second.tasks.length})`);
    client.close();
  },
};
