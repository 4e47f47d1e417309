/** A client connecting now (constructors do no I/O: start() connects). */
const started = (c) => { c.start(); return c; };
// The browser client, end to end: the built package in headless Chromium against the real
// scenario server (same origin: the server serves this page). Each test gets the module and
// returns a short detail string; a thrown error fails it.

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function assert(cond, msg) {
  if (!cond) throw new Error(`assertion failed: ${msg}`);
}

function eq(a, b, msg) {
  const sa = JSON.stringify(a), sb = JSON.stringify(b);
  if (sa !== sb) throw new Error(`${msg}: ${sa} !== ${sb}`);
}

/** Waits until the client's connection is closed or failed (or `pred` holds). */
async function until(pred, what, ms = 20_000) {
  const t0 = Date.now();
  while (Date.now() - t0 < ms) {
    if (pred()) return;
    await sleep(20);
  }
  throw new Error(`timed out waiting for ${what}`);
}

const ended = (c) => ["closed", "failed"].includes(c.connection.state);

/** Records every connection state change. */
function recordStates(client) {
  const c = client.connection; // already "connecting" when the constructor returns
  const seen = [`${c.state}${c.code ? ":" + c.code : ""}`];
  client.onConnectionChange((i) => seen.push(`${i.state}${i.code ? ":" + i.code : ""}`));
  return seen;
}

/** The state without what legitimately differs between two runs of the same seed. */
function comparable(client) {
  const s = JSON.parse(client.store.stateJson());
  // The context id names the run, and revisions count store updates (a replayed duplicate is
  // one more, ignored, update): everything else must match.
  const strip = (k, v) => (k === "contextId" || k === "revision" ? undefined : v);
  return JSON.stringify({ tasks: s.tasks, artifacts: s.artifacts, diagnostics: s.diagnostics }, strip);
}

function sameState(a, b, msg) {
  const x = comparable(a), y = comparable(b);
  if (x === y) return;
  let i = 0;
  while (i < x.length && x[i] === y[i]) i++;
  throw new Error(`${msg}: states differ at ${i}: …${x.slice(Math.max(0, i - 80), i + 120)}… vs …${y.slice(Math.max(0, i - 80), i + 120)}…`);
}

async function runInfo(runId) {
  const r = await fetch(`/api/runs/${runId}`);
  return r.json();
}

const FAST = { initialDelayMs: 20, maxDelayMs: 200, jitter: 0 };

export const tests = {
  async readme_quick_start_runs_as_written() {
    const lines = [];
    const log = console.log;
    console.log = (...a) => { lines.push(a.join(" ")); log(...a); };
    try {
      await import("./readme-quickstart.js");
      await until(() => lines.some((l) => l.startsWith("answer:")), "the answer");
    } finally {
      console.log = log;
    }
    assert(lines.some((l) => l.startsWith("sign in at https://")), "auth URL printed");
    assert(lines.some((l) => / \d+%$/.test(l)), "tool progress printed");
    assert(lines.includes("connection: open receiving"), "connection state printed");
    return `${lines.length} lines logged`;
  },

  async fetch_transport_runs_the_quick_scenario(aw) {
    const client = started(new aw.AgentClient({ url: "/api/stream?scenario=quick&seed=7&speed=0" }));
    const states = recordStates(client);
    await until(() => ended(client), "end");
    eq(client.connection.state, "closed", `connection ${client.connection.reason}`);
    const snap = client.getSnapshot();
    eq(snap.roots[0].status, "completed", "root status");
    assert(snap.artifacts.length >= 3, "artifacts");
    eq(snap.diagnostics.length, 0, "diagnostics");
    eq(states, ["connecting", "open", "closed"], "states");
    client.close();
    eq(client.listenerCount, 0, "listeners after close");
    return `${snap.tasks.length} tasks, ${snap.artifacts.length} artifacts`;
  },

  async eventsource_transport_runs_the_quick_scenario(aw) {
    const ref = started(new aw.AgentClient({ url: "/api/stream?scenario=quick&seed=7&speed=0" }));
    const client = started(new aw.AgentClient({ url: "/api/stream?scenario=quick&seed=7&speed=0", transport: "eventsource" }));
    await until(() => ended(client) && ended(ref), "end");
    eq(client.connection.state, "closed", client.connection.reason);
    sameState(client, ref, "same state as over fetch");
    client.close();
    ref.close();
  },

  async websocket_transport_runs_the_quick_scenario_and_sends_frames(aw) {
    const ref = started(new aw.AgentClient({ url: "/api/stream?scenario=quick&seed=7&speed=0" }));
    const ws = `${location.origin.replace(/^http/, "ws")}/api/ws?scenario=quick&seed=7&speed=0`;
    const client = started(new aw.AgentClient({ url: ws, transport: "websocket" }));
    const states = recordStates(client);
    await until(() => ended(client) && ended(ref), "end");
    eq(client.connection.state, "closed", client.connection.reason);
    sameState(client, ref, "same state as over fetch");
    eq(states, ["connecting", "open", "closed"], "states");
    let err = null;
    try { client.send({ type: "ping" }); } catch (e) { err = e; }
    eq(err && err.code, "invalid-state", "no socket to send on after the end");
    client.close();
    ref.close();
  },

  async websocket_send_reaches_the_server(aw) {
    const ws = `${location.origin.replace(/^http/, "ws")}/api/ws?scenario=main&seed=4&speed=0`;
    const client = started(new aw.AgentClient({ url: ws, transport: "websocket" }));
    await until(() => client.pendingInputs().length > 0, "the approval (the run waits)");
    const before = client.getSnapshot().diagnostics.length;
    client.send({ type: "ping" }); // the server answers {"type":"pong"}: not a protocol-000 event
    await until(() => client.getSnapshot().diagnostics.length > before, "the pong frame, reported as a diagnostic");
    const d = client.getSnapshot().diagnostics.at(-1);
    assert(/kind/.test(d.message + d.path), `diagnostic about the missing kind: ${JSON.stringify(d)}`);
    client.close();
    eq(client.connection.state, "closed", "closed by the app");
  },

  async manual_transport_replays_a_recording(aw) {
    const text = await (await fetch("/api/stream?scenario=quick&seed=7&speed=0")).text();
    const ref = started(new aw.AgentClient({ url: "/api/stream?scenario=quick&seed=7&speed=0" }));
    const client = started(new aw.AgentClient({ transport: "manual" }));
    eq(client.connection.state, "open", "manual is open at once");
    for (let i = 0; i < text.length; i += 97) client.store.feedText(text.slice(i, i + 97));
    client.store.finish();
    await until(() => ended(ref), "reference end");
    sameState(client, ref, "same state as the live run");
    client.close();
    ref.close();
  },

  async input_answers_are_checked_sent_once_and_resume_the_agent(aw) {
    const client = started(new aw.AgentClient({ url: "/api/stream?scenario=main&seed=3&speed=0" }));
    let asked = null;
    client.on("input-required", (e) => { if (e.requireUser) asked = e; });
    await until(() => asked && client.pendingInputs().some((i) => i.id === asked.inputId), "the approval request");
    const id = asked.inputId;
    // A value outside the schema/options is refused before anything is sent.
    let err = await client.respond(id, "maybe").then(() => null, (e) => e);
    eq(err && err.code, "invalid-answer", "invalid answer");
    assert(err instanceof Error, "errors are Error objects");
    err = await client.respond(id, 42).then(() => null, (e) => e);
    eq(err && err.code, "invalid-answer", "wrong type");
    const before = client.getSnapshot();
    const approving = client.approve(id);
    // The answer is in flight: the request says so at once, in a new snapshot.
    const during = client.getSnapshot();
    assert(during !== before, "a new snapshot when sending flips");
    eq(during.pendingInputs.find((i) => i.id === id)?.sending, true, "sending while in flight");
    err = await client.approve(id).then(() => null, (e) => e);
    eq(err && err.code, "already-answered", "second answer while the first is in flight");
    await approving;
    err = await client.approve(id).then(() => null, (e) => e);
    eq(err && err.code, "already-answered", "second answer");
    // The request closes on the server's input-received, and the agent continues (send_email).
    await until(() => client.getSnapshot().pendingAuths.length > 0, "the auth request");
    const root = client.getSnapshot().roots[0];
    eq(root.inputs.find((i) => i.id === id).state, "answered", "input answered");
    eq(root.inputs.find((i) => i.id === id).sending, false, "no longer sending once answered");
    assert(root.tools.some((t) => t.name === "send_email"), "approve ran send_email");
    const auth = client.pendingAuths()[0];
    eq(client.authUrl(auth.id), "https://github.com/login/oauth/authorize?client_id=demo", "safe auth URL");
    await client.completeAuth(auth.id, { code: "demo-code", userId: "user-1" });
    await until(() => ended(client), "end", 30_000);
    eq(client.connection.state, "closed", client.connection.reason);
    eq(client.getSnapshot().roots[0].status, "completed", "completed");
    client.close();
  },

  async deny_takes_the_other_path(aw) {
    const client = started(new aw.AgentClient({ url: "/api/stream?scenario=main&seed=3&speed=0" }));
    let asked = null;
    client.on("input-required", (e) => { if (e.requireUser) asked = e; });
    await until(() => asked, "the approval request");
    await client.deny(asked.inputId, "not now");
    await until(() => client.pendingAuths().length > 0, "the auth request");
    const root = client.getSnapshot().roots[0];
    assert(!root.tools.some((t) => t.name === "send_email"), "deny did not send the email");
    assert(root.thoughts.some((t) => /declined/.test(t.content)), "declined thought");
    client.close();
  },

  async unsafe_auth_url_is_refused(aw) {
    const client = started(new aw.AgentClient({ url: "/api/stream?scenario=xss&seed=1&speed=0" }));
    await until(() => ended(client), "end");
    const snap = client.getSnapshot();
    const auth = snap.tasks.flatMap((t) => t.auths).find((a) => /javascript:/i.test(a.authUrl ?? ""));
    assert(auth, "the xss scenario has a javascript: auth URL");
    let err = null;
    try { client.authUrl(auth.id); } catch (e) { err = e; }
    eq(err && err.code, "unsafe-url", "refused");
    err = null;
    try { client.openAuth(auth.id); } catch (e) { err = e; }
    eq(err && err.code, "unsafe-url", "not opened");
    assert(snap.diagnostics.some((d) => /url/i.test(d.code)), `diagnostic: ${JSON.stringify(snap.diagnostics.map((d) => d.code))}`);
    client.close();
  },

  async cancel_ends_the_task_as_canceled(aw) {
    const client = started(new aw.AgentClient({ url: "/api/stream?scenario=cancel&seed=1&speed=0" }));
    await until(() => client.getSnapshot().roots[0]?.tools?.some((t) => (t.progress ?? 0) > 0), "progress");
    const root = client.getSnapshot().roots[0];
    await client.cancel(root.id);
    await until(() => ended(client), "end");
    eq(client.getSnapshot().roots[0].status, "canceled", "root canceled");
    const err = await client.cancel("no-such-task").then(() => null, (e) => e);
    eq(err && err.code, "unknown-task", "unknown task");
    client.close();
  },

  async dropped_connection_resumes_with_last_event_id_and_matches_the_clean_run(aw) {
    const ref = started(new aw.AgentClient({ url: "/api/stream?scenario=quick&seed=11&speed=0" }));
    const client = started(new aw.AgentClient({
      url: "/api/stream?scenario=quick&seed=11&speed=0&run=drop-e2e&faults=drop=20,dup=5",
      reconnect: FAST,
    }));
    const states = recordStates(client);
    await until(() => ended(client) && ended(ref), "end");
    eq(client.connection.state, "closed", client.connection.reason);
    assert(states.includes("reconnecting"), `reconnected: ${states}`);
    sameState(client, ref, "state identical to the uninterrupted run");
    const info = await runInfo("drop-e2e");
    eq(info.connections, 2, "one resume");
    client.close();
    ref.close();
    return states.join(" → ");
  },

  async restart_from_zero_is_detected_and_applied_once(aw) {
    const ref = started(new aw.AgentClient({ url: "/api/stream?scenario=quick&seed=12&speed=0" }));
    const client = started(new aw.AgentClient({
      url: "/api/stream?scenario=quick&seed=12&speed=0&run=restart-e2e&faults=drop=30,restart",
      reconnect: FAST,
    }));
    await until(() => ended(client) && ended(ref), "end");
    sameState(client, ref, "nothing applied twice");
    client.close();
    ref.close();
  },

  async post_stream_is_never_silently_resent(aw) {
    const client = started(new aw.AgentClient({
      url: "/api/runs",
      body: { scenario: "quick", seed: 5, speed: 0, faults: "drop=10", run: "post-e2e" },
      reconnect: FAST,
    }));
    await until(() => ended(client), "end");
    eq(client.connection.state, "failed", "failed");
    eq(client.connection.code, "interrupted", client.connection.reason);
    await sleep(200);
    eq((await runInfo("post-e2e")).connections, 1, "the POST was sent once");
    client.close();
  },

  async post_stream_resumes_through_the_resume_request(aw) {
    const ref = started(new aw.AgentClient({ url: "/api/stream?scenario=quick&seed=5&speed=0" }));
    const client = started(new aw.AgentClient({
      url: "/api/runs",
      body: { scenario: "quick", seed: 5, speed: 0, faults: "drop=10", run: "post-resume-e2e" },
      resume: ({ headers }) => `/api/runs/${headers.get("X-Run-Id")}/stream`,
      reconnect: FAST,
    }));
    await until(() => ended(client) && ended(ref), "end");
    eq(client.connection.state, "closed", client.connection.reason);
    sameState(client, ref, "same state as the clean run");
    client.close();
    ref.close();
  },

  async offline_online_and_visibility_do_not_resend_or_duplicate(aw) {
    const ref = started(new aw.AgentClient({ url: "/api/stream?scenario=quick&seed=21&speed=0" }));
    const client = started(new aw.AgentClient({
      url: "/api/runs",
      body: { scenario: "quick", seed: 21, speed: 1, run: "flaky-e2e" },
      reconnect: FAST,
    }));
    await until(() => client.connection.state === "open", "open");
    for (const type of ["offline", "online", "visibilitychange", "pageshow", "focus"]) {
      window.dispatchEvent(new Event(type));
      document.dispatchEvent(new Event(type));
      await sleep(20);
    }
    await until(() => ended(client) && ended(ref), "end", 30_000);
    eq(client.connection.state, "closed", client.connection.reason);
    eq((await runInfo("flaky-e2e")).connections, 1, "one POST, no duplicate stream");
    sameState(client, ref, "no event applied twice");
    client.close();
    ref.close();
  },

  async http_204_stops_without_reconnecting(aw) {
    const client = started(new aw.AgentClient({ url: "/api/stream?scenario=quick&speed=0&run=s204&faults=status=204", reconnect: FAST }));
    const states = recordStates(client);
    await until(() => ended(client), "end");
    await sleep(300);
    eq(states, ["connecting", "closed"], "states");
    assert(/204/.test(client.connection.reason), client.connection.reason);
    client.close();
  },

  async http_500_is_retried_with_backoff(aw) {
    const client = started(new aw.AgentClient({ url: "/api/stream?scenario=quick&speed=0&run=s500&faults=status=500:2", reconnect: FAST }));
    const states = recordStates(client);
    await until(() => ended(client), "end");
    eq(client.connection.state, "closed", client.connection.reason);
    eq(states.filter((s) => s === "reconnecting").length, 2, `two retries: ${states}`);
    client.close();
    return states.join(" → ");
  },

  async http_429_retry_after_is_honoured(aw) {
    const client = started(new aw.AgentClient({ url: "/api/stream?scenario=quick&speed=0&run=s429&faults=status=429:1", reconnect: FAST }));
    const t0 = performance.now();
    let reopened = 0;
    client.onConnectionChange((i) => { if (i.state === "open" && !reopened) reopened = performance.now(); });
    await until(() => ended(client), "end");
    eq(client.connection.state, "closed", client.connection.reason);
    assert(reopened - t0 >= 950, `waited ${Math.round(reopened - t0)} ms for Retry-After: 1`);
    client.close();
  },

  async http_401_fails_clearly_without_retrying(aw) {
    const client = started(new aw.AgentClient({ url: "/api/stream?scenario=quick&speed=0&run=s401&faults=status=401", reconnect: FAST }));
    const states = recordStates(client);
    await until(() => ended(client), "end");
    eq(states, ["connecting", "failed:unauthorized"], "states");
    client.close();
  },

  async wrong_content_type_fails_clearly(aw) {
    const client = started(new aw.AgentClient({ url: "/api/stream?scenario=quick&speed=0&faults=ctype=text/html", reconnect: FAST }));
    await until(() => ended(client), "end");
    eq(client.connection.code, "bad-content-type", client.connection.reason);
    client.close();
  },

  async silent_server_is_detected_and_resumed(aw) {
    const ref = started(new aw.AgentClient({ url: "/api/stream?scenario=quick&seed=9&speed=0" }));
    const client = started(new aw.AgentClient({
      url: "/api/stream?scenario=quick&seed=9&speed=0&run=silent-e2e&faults=silent=15,heartbeat=100000",
      idleTimeoutMs: 400,
      reconnect: FAST,
    }));
    const states = recordStates(client);
    await until(() => ended(client) && ended(ref), "end");
    eq(client.connection.state, "closed", client.connection.reason);
    assert(states.includes("reconnecting"), `reconnected: ${states}`);
    sameState(client, ref, "complete after the idle reconnect");
    client.close();
    ref.close();
  },

  async idle_stream_of_a_finished_run_ends_closed_without_reconnecting(aw) {
    // Issue 21: a server that keeps the stream open, silent, after the run finished (`linger`).
    // With idleTimeoutMs the client reconnected to the finished run again and again.
    const client = started(new aw.AgentClient({
      url: "/api/stream?scenario=quick&seed=9&speed=0&run=linger-e2e&faults=linger,heartbeat=100000",
      idleTimeoutMs: 300,
      reconnect: FAST,
    }));
    const states = recordStates(client);
    await until(() => ended(client), "end", 6_000).catch(() => {});
    const c = client.connection, info = await runInfo("linger-e2e");
    client.close();
    eq([c.state, c.reason], ["closed", "the run finished"], `states ${states.join(" → ")}`);
    eq([states.filter((s) => s.startsWith("reconnecting")).length, info.connections], [0, 1], "reconnects to the finished run, connections");
    return states.join(" → ");
  },

  async unsubscribe_and_close_stop_delivery_and_reentrant_handlers_work(aw) {
    const client = started(new aw.AgentClient({ transport: "manual" }));
    const ev = (kind, extra) => ({ kind, contextId: "c", taskId: "t", timestamp: "2025-11-06T10:30:00Z", ...extra });
    let seen = 0, notified = 0;
    const off = client.on("tool-*", (e) => {
      seen++;
      // Re-entrant: read and subscribe from inside a handler.
      assert(client.getSnapshot().tasks.length === 1, "re-entrant read");
      const inner = client.on("tool-complete", () => {});
      inner();
    });
    const unsub = client.subscribe(() => notified++);
    client.store.pushEvent(ev("task-created", { initiator: "user" }));
    client.store.pushEvent(ev("tool-start", { toolCallId: "x", toolName: "t", arguments: {} }));
    eq(seen, 1, "delivered");
    off();
    unsub();
    const n = notified;
    client.store.pushEvent(ev("tool-progress", { toolCallId: "x", progress: 0.5 }));
    eq(seen, 1, "unsubscribed handler not called");
    eq(notified, n, "unsubscribed listener not called");
    client.subscribe(() => {});
    client.onConnectionChange(() => {});
    assert(client.listenerCount === 2, `listeners ${client.listenerCount}`);
    client.close();
    eq(client.listenerCount, 0, "close removes every listener");
    eq(client.connection.state, "closed", "closed");
    let err = null;
    try { client.store.pushEvent(ev("tool-progress", { toolCallId: "x", progress: 0.6 })); } catch (e) { err = e; }
    eq(err && err.code, "closed", "a closed store refuses input");
    assert(typeof aw.AgentClient.prototype[Symbol.dispose] === "function", "Symbol.dispose");
  },

  async subscribe_follows_the_svelte_contract_and_batches_per_frame(aw) {
    const client = started(new aw.AgentClient({ transport: "manual", batch: "frame" }));
    const ev = (kind, extra) => ({ kind, contextId: "c", taskId: "t", timestamp: "2025-11-06T10:30:00Z", ...extra });
    const seen = [];
    const stop = client.subscribe((snap) => seen.push(snap));
    eq(seen.length, 1, "called at once with the current value");
    eq(seen[0], client.getSnapshot(), "with the snapshot");
    const any = [];
    client.onAny((e) => any.push(e.kind));
    client.store.pushEvent(ev("task-created", { initiator: "user" }));
    for (let i = 0; i < 50; i++) client.store.pushEvent(ev("content-delta", { delta: "x", index: i }));
    client.store.pushEvent(ev("internal:llm-call", { iteration: 1 }));
    eq(seen.length, 1, "no synchronous calls in frame batching");
    await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
    eq(seen.length, 2, "one coalesced call per frame");
    eq(seen[1].tasks[0].content, "x".repeat(50), "the coalesced snapshot is current");
    eq(any.length, 51, "onAny: every event but internal ones");
    stop();
    client.close();
  },

  async events_async_iterator_filters_and_ends(aw) {
    const client = new aw.AgentClient({ url: "/api/stream?scenario=quick&seed=7&speed=0"});
    const it = client.events({ filter: { kinds: ["tool-*"] } });
    const ac = new AbortController();
    const all = client.events({ signal: ac.signal });
    client.start();
    const kinds = [];
    for await (const e of it) {
      kinds.push(e.kind);
      if (e.kind === "tool-complete") break;
    }
    assert(kinds.length >= 2 && kinds.every((k) => k.startsWith("tool-")), `kinds ${kinds}`);
    const first = await all.next();
    assert(!first.done && first.value.kind === "task-created", "unfiltered iterator starts at task-created");
    ac.abort();
    eq((await all.next()).done, true, "abort ends the iteration");
    await until(() => ended(client), "end");
    client.close();
    return kinds.join(",");
  },

  async coordinator_answers_first_and_falls_back_to_the_user(aw) {
    const sent = [];
    const client = started(new aw.AgentClient({
      transport: "manual",
      responder: (req) => { sent.push(req); },
      coordinator: (req) => (req.inputType === "tool-execution" ? { userId: 123 } : undefined),
    }));
    const ev = (kind, extra) => ({ kind, contextId: "c", taskId: "t", timestamp: "2025-11-06T10:30:00Z", ...extra });
    // No snapshot ever lists a request the coordinator may still answer for the user.
    const shown = new Set();
    const unsubscribe = client.subscribe((snap) => { for (const i of snap.pendingInputs) shown.add(i.id); });
    client.store.pushEvent(ev("task-created", { initiator: "user" }));
    client.store.pushEvent(ev("input-required", { inputId: "tool", requireUser: false, inputType: "tool-execution", prompt: "p", schema: { type: "object", properties: { userId: { type: "integer" } } } }));
    eq(client.pendingInputs().map((i) => i.id), [], "the coordinator's request is not the user's");
    client.store.pushEvent(ev("input-required", { inputId: "clar", requireUser: false, inputType: "clarification", prompt: "Which one?" }));
    client.store.pushEvent(ev("input-required", { inputId: "user", requireUser: true, inputType: "confirmation", prompt: "OK?" }));
    eq(client.getSnapshot().pendingInputs.map((i) => i.id), ["user"], "until the coordinator declines");
    await until(() => sent.length === 1 && client.pendingInputs().length === 2, "routing");
    unsubscribe();
    assert(!shown.has("tool"), "the request the coordinator answered was never shown to the user");
    eq(sent[0].inputId, "tool", "coordinator answered the tool input");
    eq(sent[0].body, { value: { userId: 123 }, providedBy: "agent" }, "body");
    eq(sent[0].url.endsWith("/contexts/c/tasks/t/inputs/tool"), true, "url");
    eq(client.pendingInputs().map((i) => i.id).sort(), ["clar", "user"], "the rest goes to the user");
    eq(client.getSnapshot().pendingInputs.length, 2, "snapshot shows the user's inputs");
    await client.answer("clar", "the second");
    eq(sent[1].body.value, "the second", "free-text answer");
    client.close();
  },

  async a_failed_answer_is_open_again_and_can_be_retried(aw) {
    let fail = true;
    const sent = [];
    const client = new aw.AgentClient({
      transport: "manual",
      responder: async (req) => {
        await new Promise((r) => setTimeout(r, 20));
        if (fail) throw new Error("offline");
        sent.push(req);
      },
    });
    const ev = (kind, extra) => ({ kind, contextId: "c", taskId: "t", timestamp: "2025-11-06T10:30:00Z", ...extra });
    client.store.pushEvent(ev("task-created", { initiator: "user" }));
    client.store.pushEvent(ev("input-required", { inputId: "ok", requireUser: true, inputType: "confirmation", prompt: "OK?" }));
    const input = () => client.getSnapshot().roots[0].inputs[0];
    eq(input().sending, false, "not sending before an answer");
    const first = client.approve("ok");
    eq(input().sending, true, "sending while the responder runs");
    const err = await first.then(() => null, (e) => e);
    eq(err && err.code, "send-failed", "the responder's failure");
    eq([input().state, input().sending], ["open", false], "open and not sending after the failure");
    eq(client.pendingInputs().map((i) => i.id), ["ok"], "still the user's");
    fail = false;
    await client.approve("ok");
    eq(sent.length, 1, "the retry went out");
    eq(input().sending, true, "sending until the server takes it");
    client.store.pushEvent(ev("input-received", { inputId: "ok", value: true, providedBy: "user" }));
    eq([input().state, input().sending], ["answered", false], "answered");
    client.close();
  },

  async the_posted_prompt_is_the_first_tasks_user_message(aw) {
    // Protocol 000's run POST carries the user's message ({contextId, message}: docs/protocol-000.md).
    const client = started(new aw.AgentClient({
      url: "/api/runs?scenario=quick&speed=0",
      method: "POST",
      body: { contextId: "ignored-by-the-server", message: { role: "user", content: "Run the quick scenario" } },
    }));
    await until(() => ended(client), "end");
    const root = client.getSnapshot().roots[0];
    eq(root.messages.map((m) => [m.role, m.content]), [["user", "Run the quick scenario"]], "the user's message");
    assert(root.content.length > 0, "the answer is still in content");
    const err = await client.sendMessage("and again").then(() => null, (e) => e);
    eq(err && err.code, "invalid-state", "protocol 000 has no follow-up message on a connection");
    client.close();
  },

  // ---- the connection and the answers: idle servers, EventSource reconnects, close, expiry ----
  async idle_timeout_covers_a_server_that_sends_no_headers(aw) {
    // The server accepts the request and holds its response headers back for 4 s.
    const client = started(new aw.AgentClient({ url: "/api/stall?ms=4000", idleTimeoutMs: 400, reconnect: { ...FAST, maxAttempts: 0 } }));
    const states = recordStates(client);
    await until(() => ended(client), "the idle timeout", 1500);
    const c = client.connection;
    client.close();
    eq([c.state, c.code], ["failed", "gave-up"], `after the idle timeout (${c.reason}); states ${states.join(" → ")}`);
    assert(/idle timeout/.test(c.reason), `the reason names the idle timeout: ${c.reason}`);
  },

  async eventsource_honours_reconnect_false_and_max_attempts(aw) {
    const client = started(new aw.AgentClient({
      url: "/api/stream?scenario=quick&seed=9&speed=0&run=es-norec&faults=dropEvery=3",
      transport: "eventsource", reconnect: false,
    }));
    const states = recordStates(client);
    await until(() => ended(client), "end", 8000).catch(() => {});
    await sleep(500);
    const info = await runInfo("es-norec");
    const seen = states.slice();
    client.close();
    const detail = `connections=${info.connections} states=${seen.join(",")}`;
    eq([info.connections, seen.at(-1)], [1, "failed:gave-up"], detail);
    return detail;
  },

  async eventsource_http_failures_are_told_apart_and_retried_like_fetch(aw) {
    // Issue 25 item 8: EventSource hides the status; every failure was connect-failed (a 503
    // not retried, a 401 not told apart, a 204 a failure). The status is now asked with fetch.
    const tag = Math.random().toString(36).slice(2, 8);
    const run = async (faults, name, extra = {}) => {
      const client = started(new aw.AgentClient({
        url: `/api/stream?scenario=quick&seed=9&speed=0&run=es-${name}-${tag}&faults=${faults}`,
        transport: "eventsource", reconnect: FAST, ...extra,
      }));
      const states = recordStates(client);
      await until(() => ended(client), `the end (${faults})`, 10_000).catch(() => {});
      const c = client.connection;
      const root = client.getSnapshot().roots[0];
      client.close();
      return { got: [c.state, c.code ?? null, root?.status ?? null], reason: c.reason, states: states.join(" → ") };
    };
    const r503 = await run("status=503:2", "503");
    eq(r503.got, ["closed", null, "completed"], `503 twice, then the stream: retried (${r503.states}; ${r503.reason})`);
    const r401 = await run("status=401", "401");
    eq(r401.got, ["failed", "unauthorized", null], `401 (${r401.reason})`);
    assert(/HTTP 401/.test(r401.reason) && /EventSource hides the status/.test(r401.reason), `the reason says how it was learned: ${r401.reason}`);
    const r204 = await run("status=204", "204");
    eq(r204.got, ["closed", null, null], `204: the server says stop (${r204.reason})`);
    const r500 = await run("status=500", "500", { reconnect: { ...FAST, maxAttempts: 2 } });
    eq(r500.got, ["failed", "gave-up", null], `500 every time: retried, then gave up (${r500.states}; ${r500.reason})`);
    return [r503, r401, r204, r500].map((r) => r.reason).join(" | ");
  },

  async complete_auth_and_cancel_after_close_are_refused(aw) {
    const client = started(new aw.AgentClient({ url: "/api/stream?scenario=main&seed=31&speed=0&run=close-auth" }));
    let asked = null;
    client.on("input-required", (e) => { if (e.requireUser) asked = e; });
    await until(() => asked, "the approval request");
    await client.approve(asked.inputId);
    await until(() => client.pendingAuths().length > 0, "the auth request");
    const auth = client.pendingAuths()[0];
    const root = client.getSnapshot().roots[0];
    client.close();
    const e1 = await client.completeAuth(auth.id, { code: "x" }).then(() => "resolved (the answer was sent after close)", (e) => e.code);
    const e2 = await client.cancel(root.id).then(() => "resolved (the cancel was sent after close)", (e) => e.code);
    const info = await runInfo("close-auth");
    eq([e1, e2], ["closed", "closed"], `after close (server: ${JSON.stringify(info.openRequests)})`);
  },

  async complete_auth_on_an_expired_request_says_expired(aw) {
    const sent = [];
    const client = started(new aw.AgentClient({ transport: "manual", responder: (r) => { sent.push(r); } }));
    const ev = (kind, extra) => ({ kind, contextId: "c", taskId: "t", timestamp: "2025-11-06T10:30:00Z", ...extra });
    client.store.pushEvent(ev("task-created", { initiator: "user" }));
    client.store.pushEvent(ev("auth-required", { authId: "a1", authType: "oauth2", prompt: "p", authUrl: "https://x.test/", metadata: { expiresIn: 1 } }));
    client.store.pushEvent(ev("input-required", { inputId: "i1", requireUser: true, inputType: "confirmation", prompt: "p", metadata: { timeout: 1 } }));
    client.store.pushEvent(ev("internal:checkpoint", { iteration: 1, timestamp: "2025-11-06T10:30:05Z" }));
    const snap = client.getSnapshot();
    eq([snap.tasks[0].auths[0].state, snap.tasks[0].inputs[0].state], ["expired", "expired"], "both expired");
    const ei = await client.answer("i1", "x").then(() => "resolved", (e) => e.code);
    const ea = await client.completeAuth("a1", {}).then(() => "resolved", (e) => [e.code, e.authId]);
    client.close();
    eq({ input: ei, auth: ea, sent: sent.length }, { input: "expired", auth: ["expired", "a1"], sent: 0 }, "expired answers");
  },

  // ---- the store seen from JavaScript: object freshness, listeners, iterators, splits ----
  async handlers_that_unsubscribe_or_close_mid_batch_stop_delivery(aw) {
    const T = "2025-11-06T10:30:00Z";
    const ev = (o) => `event: ${o.kind}\ndata: ${JSON.stringify(o)}\n\n`;
    const text = ev({ kind: "task-created", contextId: "c", taskId: "t", initiator: "user", timestamp: T }) +
      ev({ kind: "task-status", contextId: "c", taskId: "t", status: "working", timestamp: T }) +
      ev({ kind: "task-status", contextId: "c", taskId: "t", status: "waiting-input", timestamp: T });
    // A handler removing a later handler and itself mid-batch.
    const store = new aw.AgentStore();
    const seen = [];
    let offB;
    const offA = store.on("*", (e) => { seen.push("A:" + e.kind); offB(); offA(); });
    offB = store.on("*", (e) => seen.push("B:" + e.kind));
    const offC = store.on("task-status", (e) => { seen.push("C:" + e.status); if (e.status === "working") store.close(); });
    let err; try { store.feedText(text); } catch (e) { err = e; }
    eq(seen, ["A:task-created", "C:working"], "delivery after unsubscribe/close mid-batch");
    eq(store.listenerCount, 0, "no listeners after close");
    // Abort while a next() waits.
    const client = started(new aw.AgentClient({ transport: "manual" }));
    const ac = new AbortController();
    const it = client.events({ signal: ac.signal });
    const p = it.next();
    ac.abort();
    const r = await Promise.race([p, sleep(500).then(() => "hang")]);
    assert(r !== "hang" && r.done === true, "abort ends a waiting next()");
    eq(client.listenerCount, 0, "iterator unsubscribed on abort");
    // break in for await
    const it2 = client.events();
    setTimeout(() => client.store.feedText(text), 0);
    const kinds = [];
    for await (const e of it2) { kinds.push(e.kind); if (kinds.length === 2) break; }
    eq(client.listenerCount, 0, "break unsubscribes");
    eq(kinds, ["task-created", "task-status"], "kinds");
    return `err ${err && err.code}`;
  },

  async batch_frame_calls_once_with_the_latest_version(aw) {
    const T = "2025-11-06T10:30:00Z";
    const ev = (o) => `event: ${o.kind}\ndata: ${JSON.stringify(o)}\n\n`;
    const store = new aw.AgentStore({ batch: "frame" });
    const got = [];
    store.subscribe((s) => got.push(s.version));
    store.feedText(ev({ kind: "task-created", contextId: "c", taskId: "t", initiator: "user", timestamp: T }));
    store.feedText(ev({ kind: "task-status", contextId: "c", taskId: "t", status: "working", timestamp: T }));
    await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
    await sleep(50);
    eq(got.length, 2, `initial + one frame: ${got}`);
    eq(got[1], store.version, "latest version");
    return "ok";
  },
  async task_objects_list_a_new_artifact(aw) {
    const T = "2025-11-06T10:30:00Z";
    const ev = (o) => `event: ${o.kind}\ndata: ${JSON.stringify(o)}\n\n`;
    const store = new aw.AgentStore();
    store.feedText(ev({ kind: "task-created", contextId: "c", taskId: "t", initiator: "user", timestamp: T }));
    store.getSnapshot(); // the app renders: the task's object is cached
    store.feedText(ev({ kind: "file-write", contextId: "c", taskId: "t", artifactId: "a1", data: "hi", index: 0, complete: true, timestamp: T, name: "a.txt" }));
    const snap = store.getSnapshot();
    const truth = JSON.parse(store.stateJson()).tasks[0].artifacts;
    eq(snap.tasks[0].artifacts, truth, "snapshot task.artifacts vs stateJson");
    eq(store.task("t").artifacts, truth, "store.task(t).artifacts vs stateJson");
    return "ok";
  },

  async task_objects_show_text_released_by_finish(aw) {
    const T = "2025-11-06T10:30:00Z";
    const ev = (o) => `event: ${o.kind}\ndata: ${JSON.stringify(o)}\n\n`;
    const store = new aw.AgentStore();
    store.feedText(ev({ kind: "task-created", contextId: "c", taskId: "t", initiator: "user", timestamp: T }));
    store.feedText(ev({ kind: "content-delta", contextId: "c", taskId: "t", delta: "first ", index: 0, timestamp: T }));
    store.feedText(ev({ kind: "content-delta", contextId: "c", taskId: "t", delta: "third", index: 2, timestamp: T }));
    const before = store.getSnapshot();
    eq(before.tasks[0].content, "first ", "held delta not shown yet");
    store.finish(); // gives the gap up: "first third"
    const snap = store.getSnapshot();
    assert(snap !== before, "finish() changed the state (a chunk-gap diagnostic): new snapshot");
    eq(JSON.parse(store.stateJson()).tasks[0].content, "first third", "stateJson");
    eq(snap.tasks[0].content, "first third", "snapshot task content after finish()");
    return "ok";
  },

  async subscribe_whose_first_call_throws_keeps_no_listener(aw) {
    const store = new aw.AgentStore();
    let calls = 0;
    let threw = false;
    try {
      store.subscribe(() => { calls++; if (calls === 1) throw new Error("render failed"); });
    } catch { threw = true; }
    assert(threw, "subscribe rethrew the listener's error");
    // The caller never got an unsubscribe function: the listener must not stay registered.
    eq(store.listenerCount, 0, "listenerCount after a subscribe that threw");
    store.feedText('event: task-created\ndata: {"kind":"task-created","contextId":"c","taskId":"t","initiator":"user","timestamp":"2025-11-06T10:30:00Z"}\n\n');
    eq(calls, 1, "listener calls after a later change");
    return "ok";
  },

  async every_listener_ends_with_the_latest_snapshot_when_one_feeds(aw) {
    const T = "2025-11-06T10:30:00Z";
    const ev = (o) => `event: ${o.kind}\ndata: ${JSON.stringify(o)}\n\n`;
    const store = new aw.AgentStore();
    let fed = false;
    store.subscribe(() => {
      // e.g. a listener that reacts to a state by pushing a local event
      if (!fed && store.getSnapshot().tasks.length === 1) {
        fed = true;
        store.feedText(ev({ kind: "task-status", contextId: "c", taskId: "t", status: "working", timestamp: T }));
      }
    });
    let last;
    store.subscribe((s) => { last = s; });
    store.feedText(ev({ kind: "task-created", contextId: "c", taskId: "t", initiator: "user", timestamp: T }));
    eq(last.version, store.getSnapshot().version, "version of the last snapshot the second listener got");
    return "ok";
  },

  async a_collected_event_iterator_unsubscribes(aw) {
    const T = "2025-11-06T10:30:00Z";
    const ev = (o) => `event: ${o.kind}\ndata: ${JSON.stringify(o)}\n\n`;
    const client = started(new aw.AgentClient({ transport: "manual" }));
    (() => { client.events(); })(); // created and dropped without next()/return()
    for (let i = 0; i < 5 && client.listenerCount > 0; i++) {
      globalThis.gc?.();
      await sleep(50);
    }
    let err;
    try {
      client.store.feedText(ev({ kind: "task-created", contextId: "c", taskId: "t", initiator: "user", timestamp: T }));
    } catch (e) { err = e; }
    assert(err === undefined, `feed threw after the iterator was collected: ${err}`);
    return `listenerCount ${client.listenerCount}`;
  },

  async a_returned_event_iterator_unsubscribes(aw) {
    const T = "2025-11-06T10:30:00Z";
    const ev = (o) => `event: ${o.kind}\ndata: ${JSON.stringify(o)}\n\n`;
    const client = started(new aw.AgentClient({ transport: "manual" }));
    const it = client.events();
    it.return();
    let err;
    try {
      client.store.feedText(ev({ kind: "task-created", contextId: "c", taskId: "t", initiator: "user", timestamp: T }));
    } catch (e) { err = e; }
    assert(err === undefined, `feed threw after the iterator was freed: ${err}`);
    return `listenerCount ${client.listenerCount}`;
  },

  async a_freed_store_throws_a_js_error(aw) {
    const store = new aw.AgentStore();
    store.free();
    let err;
    try { store.getSnapshot(); } catch (e) { err = e; }
    assert(err instanceof Error, `freed store: ${err}`);
    const other = new aw.AgentStore();
    other.feedText("data: x\n\n");
    // free from inside a handler
    const s2 = new aw.AgentStore();
    s2.on("*", () => s2.free());
    let e2;
    try { s2.feedText('event: task-created\ndata: {"kind":"task-created","contextId":"c","taskId":"t","initiator":"user","timestamp":"2025-11-06T10:30:00Z"}\n\n'); } catch (e) { e2 = e; }
    const s3 = new aw.AgentStore();
    s3.feedText('event: task-created\ndata: {"kind":"task-created","contextId":"c","taskId":"t","initiator":"user","timestamp":"2025-11-06T10:30:00Z"}\n\n');
    eq(s3.getSnapshot().tasks.length, 1, "module still works");
    return `freed: ${err.message}; free in handler: ${e2 && e2.message}`;
  },

  async feed_split_at_every_byte_gives_the_same_state(aw) {
    const T = "2025-11-06T10:30:00Z";
    const text = `event: task-created\r\ndata: {"kind":"task-created","contextId":"c","taskId":"t","initiator":"user","timestamp":"${T}"}\r\n\r\n` +
      `event: content-delta\rdata: {"kind":"content-delta","contextId":"c","taskId":"t","delta":"Hé🙂€ ✓","index":0,"timestamp":"${T}"}\r\r` +
      `event: content-delta\ndata: {"kind":"content-delta","contextId":"c","taskId":"t","delta":"ü𝄞","index":1,"timestamp":"${T}"}\n\n`;
    const bytes = new TextEncoder().encode(text);
    const ref = new aw.AgentStore();
    ref.feed(bytes);
    const want = ref.getSnapshot().tasks[0].content;
    eq(want, "Hé🙂€ ✓ü𝄞", "whole");
    for (let i = 0; i <= bytes.length; i++) {
      for (const j of [i, Math.min(bytes.length, i + 1), Math.min(bytes.length, i + 3)]) {
        const s = new aw.AgentStore();
        const deltas = [];
        s.on("content-delta", (e) => deltas.push(e.delta));
        s.feed(bytes.subarray(0, i)); s.feed(bytes.subarray(i, j)); s.feed(bytes.subarray(j));
        const got = s.getSnapshot().tasks[0]?.content;
        if (got !== want || deltas.join("") !== want) throw new Error(`split ${i},${j}: ${got} / ${deltas.join("")}`);
        s.free();
      }
    }
    return `${bytes.length} bytes`;
  },

  async snapshot_identity_changes_exactly_when_the_state_does(aw) {
    const T = "2025-11-06T10:30:00Z";
    const ev = (o) => `event: ${o.kind}\ndata: ${JSON.stringify(o)}\n\n`;
    const store = new aw.AgentStore();
    const s0 = store.getSnapshot();
    assert(store.getSnapshot() === s0, "same");
    store.feedText("data: {bad json\n\n"); // diagnostic only
    const s1 = store.getSnapshot();
    assert(s1 !== s0 && s1.diagnostics.length === 1, "diagnostic gives a new snapshot");
    store.feedText(ev({ kind: "task-created", contextId: "c", taskId: "t", initiator: "user", timestamp: T }));
    store.feedText(ev({ kind: "input-required", contextId: "c", taskId: "t", inputId: "i1", prompt: "ok?", inputType: "confirmation", requireUser: true, timestamp: T, metadata: { timeout: 1 } }));
    const s2 = store.getSnapshot();
    assert(s2.pendingInputs.length === 1, `pending input ${JSON.stringify(s2.pendingInputs)} ${JSON.stringify(s2.diagnostics)}`);
    store.advanceClock(Date.parse(T) + 500);
    assert(store.getSnapshot() === s2, "nothing expired yet: same");
    store.advanceClock(Date.parse(T) + 5000);
    const s3 = store.getSnapshot();
    assert(s3 !== s2, "expiry: new snapshot");
    eq(s3.pendingInputs.length, 0, "expired input not pending");
    eq(s3.tasks[0].inputs[0].state, "expired", "task object shows expiry");
    store.feedText(": comment only\n\n");
    assert(store.getSnapshot() === s3, "comment: same");
    return "ok";
  },

  async event_iterator_overflow_rejects_then_ends(aw) {
    const T = "2025-11-06T10:30:00Z";
    const ev = (o) => `event: ${o.kind}\ndata: ${JSON.stringify(o)}\n\n`;
    const client = started(new aw.AgentClient({ transport: "manual" }));
    const it = client.events({ maxBuffered: 2 });
    for (let i = 0; i < 4; i++) client.store.feedText(ev({ kind: "task-created", contextId: "c", taskId: "t" + i, initiator: "user", timestamp: T }));
    let err;
    try { await it.next(); } catch (e) { err = e; }
    eq(err && err.code, "overflow", "overflow error");
    const after = await it.next();
    eq(after.done, true, "done after the error");
    // A waiting next() settles on close.
    const it2 = client.events();
    const p = it2.next();
    client.close();
    const r = await Promise.race([p, sleep(500).then(() => "hang")]);
    assert(r !== "hang" && r.done, "waiting next() resolves done on close");
    return "ok";
  },

  // agentwire.d.ts: `on(kind: K, handler: (event: EventOf<K>) => void)` with `KindPattern`
  // including "unknown" (EventOf = UnknownEvent) and groups typed as known members only
  // (EventOf<"tool-*"> = ToolStart | ToolProgress | ToolComplete, no `kind: "unknown"`).
  async types_on_patterns_and_unknown_events_match_their_declared_types(aw) {
    const T = "2025-11-06T10:30:00Z";
    const ev = (o) => `event: ${o.kind}\ndata: ${JSON.stringify(o)}\n\n`;
    const store = new aw.AgentStore({});
    const byUnknown = [], byGroup = [], byInternal = [], byFilter = [];
    store.on("unknown", (e) => byUnknown.push(e.unknownKind));
    store.on("tool-*", (e) => byGroup.push(`${e.kind}:${typeof e.toolCallId}`));
    store.on("internal:*", (e) => byInternal.push(`${e.kind}:${typeof e.iteration}`));
    store.subscribeEvents({ kinds: ["unknown"] }, (e) => byFilter.push(e.unknownKind));
    store.feedText(ev({ kind: "task-created", contextId: "c", taskId: "t", initiator: "user", timestamp: T })
      + ev({ kind: "tool-retry", contextId: "c", taskId: "t", toolCallId: "x", timestamp: T })
      + ev({ kind: "internal:memory-write", contextId: "c", taskId: "t", timestamp: T }));
    const got = { byUnknown, byGroup, byInternal, byFilter };
    // Groups deliver unknown events by their own kind (forward compatibility): the declared
    // EventOf<"tool-*"> / EventOf<"internal:*"> must include UnknownEvent (tests/types/consumer.ts).
    eq(byGroup, ["unknown:undefined"], `on("tool-*") (all: ${JSON.stringify(got)})`);
    eq(byInternal, ["unknown:undefined"], `on("internal:*") (all: ${JSON.stringify(got)})`);
    // on("unknown") is typed to receive UnknownEvent: it must receive the unknown kinds.
    eq(byUnknown, ["tool-retry"], `on("unknown") (all: ${JSON.stringify(got)})`);
    eq(byFilter, ["tool-retry"], `subscribeEvents({ kinds: ["unknown"] }) (all: ${JSON.stringify(got)})`);
    return JSON.stringify(got);
  },

  // agentwire.d.ts declares `constructor(options: AgentStoreOptions)` (required) for AgentStore
  // and StreamDecoder, and `WorkerClient.sendMessage(text, options)` (required); the README and
  // the doc comments call `new AgentStore()`, `new StreamDecoder()` and the AgentClient form
  // `sendMessage(text)`. At run time all three work without the argument.
  async types_optional_arguments_work_without_them_at_run_time(aw) {
    const store = new aw.AgentStore();
    store.feedText('event: task-created\ndata: {"kind":"task-created","contextId":"c","taskId":"t","initiator":"user","timestamp":"2025-11-06T10:30:00Z"}\n\n');
    eq(store.getSnapshot().tasks.length, 1, "new AgentStore() works");
    const dec = new aw.StreamDecoder();
    eq(dec.feed(new TextEncoder().encode("data: {}\n\n")).length, 1, "new StreamDecoder() works");
    const WS = location.origin.replace(/^http/, "ws");
    const client = started(new aw.WorkerClient({ url: `${WS}/api/myagent/ws?scenario=quick&seed=7&speed=0`, dialect: "myagent" }));
    try {
      await until(() => client.connection.state === "open", "open");
      let err = null;
      for (let i = 0; i < 100; i++) {
        err = await client.sendMessage("Run the quick scenario").then(() => null, (e) => e);
        if (!err || err.code !== "invalid-state") break;
        await sleep(20);
      }
      eq(err && `${err.code}: ${err.message}`, null, "WorkerClient.sendMessage(text) without options");
      await until(() => ended(client), "the turn");
      eq(client.getSnapshot().roots.at(-1)?.status, "completed", "the turn completed");
    } finally {
      client.close();
    }
    return "ok";
  },
};


// Shared with the hostile-server and soak suites (hostile.test.js, soak.test.js).
export { sleep, assert, eq, until, ended, recordStates, comparable, sameState, runInfo, FAST };
