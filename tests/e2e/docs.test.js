// README / d.ts claims checked against the built package (docs review).
import { sleep, assert, eq, until, ended, FAST } from "./client.test.js";
/** A client connecting now (constructors do no I/O: start() connects). */
const started = (c) => { c.start(); return c; };

const QUICK = "/api/stream?scenario=quick&seed=7&speed=0";
const ctx = "ctx-d", T = "task-d";
const ts = "2025-11-06T10:30:00.000Z";
const ev = (o) => JSON.stringify({ contextId: ctx, taskId: T, timestamp: ts, ...o });
const sse = (objs) => objs.map((o, i) => `id: ${i}\ndata: ${typeof o === "string" ? o : ev(o)}\n\n`).join("");
const created = { kind: "task-created", initiator: "user" };
async function code(p) {
  try { await p(); } catch (e) { return e && e.code; }
  return "no error";
}

export const tests = {
  async docs_connection_info_is_frozen(aw) {
    const c = started(new aw.AgentClient({ url: QUICK }));
    const seen = [c.connection];
    c.onConnectionChange((i) => seen.push(i));
    await until(() => ended(c), "end");
    c.close();
    const notFrozen = seen.filter((i) => !Object.isFrozen(i)).map((i) => i.state);
    eq(notFrozen, [], "ConnectionInfo objects not frozen");
  },

  async docs_snapshot_is_frozen_at_the_top_level(aw) {
    // Documented contract after the fix: the snapshot object is frozen; what it holds is read-only by contract.
    const s = new aw.AgentStore();
    s.feedText(sse([created, { kind: "content-delta", delta: "hi", index: 0 }]));
    assert(Object.isFrozen(s.getSnapshot()), "snapshot frozen");
  },

  async docs_snapshot_copy_before_sorting_keeps_later_snapshots_intact(aw) {
    // Documented after the fix: copy before sorting. A copy leaves the store alone.
    // The d.ts: "What getSnapshot() returns: immutable". An app that sorts or edits what it got
    // (snap.roots[0].tools.reverse(), task.content = ...) must not change the store's next snapshots.
    const s = new aw.AgentStore();
    s.feedText(sse([created, { kind: "content-delta", delta: "hello", index: 0 },
      { kind: "tool-start", toolCallId: "c1", toolName: "a", arguments: {} }, { kind: "tool-start", toolCallId: "c2", toolName: "b", arguments: {} }]));
    const a = s.getSnapshot();
    const errors = [];
    const attempt = (f) => { try { f(); } catch (e) { errors.push(e.constructor.name); } };
    attempt(() => { [...a.tasks[0].tools].reverse(); });
    // Something visible changes elsewhere: a new task.
    s.pushEvent(JSON.stringify({ kind: "task-created", contextId: ctx, taskId: "task-other", initiator: "user", timestamp: ts }));
    const b = s.getSnapshot();
    assert(a !== b, "a new snapshot");
    const t = b.tasks.find((x) => x.id === T);
    eq({ content: t.content, tools: t.tools.map((x) => x.id ?? x.toolCallId), fromJson: JSON.parse(s.stateJson()).tasks[0].content },
      { content: "hello", tools: ["c1", "c2"], fromJson: "hello" }, `next snapshot (mutation errors: ${errors})`);
  },

  async docs_idle_until_connect_and_connect_twice(aw) {
    const c = new aw.AgentClient({ url: QUICK});
    eq(c.connection.state, "idle", "idle before connect");
    c.start(); c.start();
    await until(() => ended(c), "end");
    eq(c.connection.state, "closed", c.connection.reason);
    eq(c.getSnapshot().roots[0].status, "completed", "once");
    c.close();
  },

  async docs_signal_abort_closes(aw) {
    const ac = new AbortController();
    const c = started(new aw.AgentClient({ url: "/api/stream?scenario=main&seed=3&speed=0", signal: ac.signal }));
    await until(() => c.connection.state === "open", "open");
    ac.abort();
    await sleep(50);
    eq(c.connection.state, "closed", "closed after abort");
    eq(c.listenerCount, 0, "no listener");
  },

  async docs_body_makes_post(aw) {
    const c = started(new aw.AgentClient({ url: "/api/runs", body: { scenario: "quick", seed: 7, speed: 0 } }));
    await until(() => ended(c), "end");
    const st = c.connection.state;
    c.close();
    eq(st, "closed", c.connection.reason);
  },

  async docs_respond_twice_already_answered_and_user_id(aw) {
    const bodies = [];
    const c = started(new aw.AgentClient({
      url: "/api/stream?scenario=main&seed=5&speed=0", userId: "u-1",
      responder: (r) => { bodies.push(r); },
    }));
    await until(() => c.pendingInputs().length > 0, "approval");
    const id = c.pendingInputs()[0].id;
    await c.approve(id);
    const second = await code(() => c.approve(id));
    c.close();
    eq(second, "already-answered", "second answer");
    eq(bodies.length, 1, "one POST");
    eq(bodies[0].body.userId, "u-1", "userId sent");
  },

  async docs_answer_error_codes(aw) {
    const c = started(new aw.AgentClient({ transport: "manual" }));
    c.store.feedText(sse([created, { kind: "auth-required", authId: "a1", authType: "oauth2", prompt: "sign in", provider: "github" }]));
    const r = {
      unknownInput: await code(() => c.respond("nope", 1)),
      unknownAuth: await code(() => c.completeAuth("nope", {})),
      unknownAuthUrl: await code(async () => c.authUrl("nope")),
      noAuthUrl: await code(async () => c.authUrl("a1")),
      unknownTask: await code(() => c.cancel("nope")),
    };
    c.close();
    eq(r, { unknownInput: "unknown-input", unknownAuth: "unknown-auth", unknownAuthUrl: "unknown-auth", noAuthUrl: "no-auth-url", unknownTask: "unknown-task" }, "codes");
  },

  async docs_errors_are_error_objects(aw) {
    let e = null;
    try { started(new aw.AgentClient({ url: QUICK, transport: "bogus" })); } catch (x) { e = x; }
    assert(e instanceof Error, `Error instance: ${e}`);
    eq(e.code, "invalid-argument", "code");
  },

  async docs_onany_excludes_internal_and_internal_group(aw) {
    const text = await (await fetch(QUICK)).text();
    const s = new aw.AgentStore();
    const any = [], star = [], internal = [], unknown = [];
    s.onAny((e) => any.push(e.kind));
    s.on("*", (e) => star.push(e.kind));
    s.on("internal:*", (e) => internal.push(e.kind));
    s.on("unknown", (e) => unknown.push(e.kind));
    s.feedText(text);
    assert(!any.some((k) => k.startsWith("internal:")), "onAny no internal");
    eq(any.length, star.length, "onAny same as *");
    eq([...new Set(internal)].sort(), ["internal:checkpoint", "internal:llm-call", "internal:thought-process", "internal:tool-complete", "internal:tool-start"], "internal:*");
    return `${any.length} events, ${internal.length} internal`;
  },

  async docs_groups_deliver(aw) {
    const text = await (await fetch(QUICK)).text();
    const s = new aw.AgentStore();
    const got = {};
    for (const g of ["tool-*", "input-*", "auth-*", "task-*", "content-*", "artifact-*"]) {
      got[g] = new Set();
      s.on(g, (e) => got[g].add(e.kind));
    }
    s.feedText(text);
    const r = Object.fromEntries(Object.entries(got).map(([k, v]) => [k, [...v].sort()]));
    eq(r, {
      "tool-*": ["tool-complete", "tool-progress", "tool-start"],
      "input-*": ["input-received", "input-required"],
      "auth-*": ["auth-completed", "auth-required"],
      "task-*": ["task-complete", "task-created", "task-status"],
      "content-*": ["content-complete", "content-delta"],
      "artifact-*": ["data-write", "dataset-write", "file-write"],
    }, "groups");
  },

  async docs_store_close_later_calls_closed(aw) {
    const s = new aw.AgentStore();
    let n = 0;
    s.subscribe(() => n++);
    s.close();
    eq(s.listenerCount, 0, "listeners");
    const r = {
      feed: await code(async () => s.feedText(sse([created]))),
      snapshot: await code(async () => s.getSnapshot()),
      on: await code(async () => s.on("*", () => {})),
      stateJson: await code(async () => s.stateJson()),
      task: await code(async () => s.task("x")),
      pendingInputs: await code(async () => s.pendingInputs()),
      diagnostics: await code(async () => s.diagnostics()),
      pushEvent: await code(async () => s.pushEvent(ev(created))),
      subscribe: await code(async () => s.subscribe(() => {})),
    };
    eq(r, { feed: "closed", snapshot: "no error", on: "closed", stateJson: "no error", task: "no error", pendingInputs: "no error", diagnostics: "no error", pushEvent: "closed", subscribe: "closed" }, "later feeds/registrations closed, reads give the last state");
  },

  async docs_subscribe_now_and_same_object(aw) {
    const s = new aw.AgentStore();
    let calls = 0, last = null;
    s.subscribe((x) => { calls++; last = x; });
    eq(calls, 1, "called now");
    const a = s.getSnapshot(), b = s.getSnapshot();
    assert(a === b, "same object");
    assert(last === a, "listener got the snapshot");
    s.feedText(sse([created]));
    assert(s.getSnapshot() !== a, "new object after change");
    eq(calls, 2, "called on change");
  },

  async docs_events_overflow(aw) {
    const text = await (await fetch(QUICK)).text();
    const c = started(new aw.AgentClient({ transport: "manual" }));
    const it = c.events({ maxBuffered: 5 });
    c.store.feedText(text);
    let err = null;
    try { for await (const _ of it) { /* drain */ } } catch (e) { err = e; }
    c.close();
    eq(err && err.code, "overflow", "overflow");
  },

  async docs_reconnect_false(aw) {
    const c = started(new aw.AgentClient({ url: "/api/stream?scenario=quick&seed=7&speed=0&faults=drop=10", reconnect: false }));
    await until(() => ended(c), "end");
    const r = [c.connection.state, c.connection.code];
    c.close();
    eq(r[0], "failed", "failed, no reconnect");
    return JSON.stringify(r);
  },

  async docs_zero_limits_keep_nothing(aw) {
    const text = await (await fetch(QUICK)).text();
    const out = {};
    for (const k of ["maxTasks", "maxArtifacts", "maxThoughtsPerTask", "maxHistoryPerTask", "maxToolsPerTask", "maxRequestsPerTask", "maxDiagnostics", "maxContentBytes"]) {
      const s = new aw.AgentStore({ limits: { [k]: 0 } });
      s.feedText(text);
      const st = JSON.parse(s.stateJson());
      const n = {
        maxTasks: st.tasks.length, maxArtifacts: st.artifacts.length,
        maxThoughtsPerTask: st.tasks.reduce((a, t) => a + t.thoughts.length, 0),
        maxHistoryPerTask: st.tasks.reduce((a, t) => a + t.history.length, 0),
        maxToolsPerTask: st.tasks.reduce((a, t) => a + t.tools.length, 0),
        maxRequestsPerTask: st.tasks.reduce((a, t) => a + t.inputs.length + t.auths.length, 0),
        maxDiagnostics: st.diagnostics.length,
        maxContentBytes: st.tasks.reduce((a, t) => a + (t.content || "").length, 0),
      }[k];
      if (n !== 0) out[k] = n;
    }
    eq(out, {}, "a limit of 0 keeps nothing");
  },

  async docs_redaction(aw) {
    const bad = `{"kind":"tool-start","contextId":"c","taskId":"t","apiKey":"SECRET1","nested":{"X-Api-Key":"SECRET2","clientSecret":"SECRET3","access_token":"SECRET4"},"tokensUsed":77`;
    const d = new aw.StreamDecoder();
    const out = d.feed(new TextEncoder().encode(`data: ${bad}\n\n`));
    const raw = out.map((x) => x.diagnostic && x.diagnostic.raw).join("|");
    assert(!/SECRET/.test(raw), `redacted: ${raw}`);
    assert(/77/.test(raw), `tokensUsed kept: ${raw}`);
    const d2 = new aw.StreamDecoder({ redactKeys: [] });
    const raw2 = d2.feed(new TextEncoder().encode(`data: ${bad}\n\n`)).map((x) => x.diagnostic && x.diagnostic.raw).join("|");
    assert(/SECRET1/.test(raw2), `off: ${raw2}`);
    const d3 = new aw.StreamDecoder({ redactKeys: ["sessionNote"] });
    const raw3 = d3.feed(new TextEncoder().encode(`data: {"sessionNote":"SECRETN","password":"PW"\n\n`)).map((x) => x.diagnostic && x.diagnostic.raw).join("|");
    assert(!/SECRETN/.test(raw3) && /PW/.test(raw3), `replaced list: ${raw3}`);
  },

  async docs_decoder_limits(aw) {
    // docs/limits.md: StreamDecoder takes the two SSE limits; `maxEventBytes`: "the event (its
    // `data` lines joined) is dropped" (`sse-event-too-large`), and the stream goes on;
    // `maxLineBytes`: a longer line is skipped and its event dropped (`sse-line-too-long`).
    const enc = (t) => new TextEncoder().encode(t);
    const one = ev(created), other = ev({ ...created, taskId: "task-e" });
    const L = one.length; // ASCII: bytes = chars; `other` has the same length
    eq(other.length, L, "same length");
    const cut = one.indexOf(",") + 1; // the same JSON on two data lines: joined it is L + 1 bytes
    const twoLines = `data: ${one.slice(0, cut)}\ndata: ${one.slice(cut)}\n\n`;
    const input = `data: ${one}\n\n${twoLines}data: ${other}\n\n`;
    const seen = (items) => items.map((x) => (x.event ? `${x.event.kind}:${x.event.taskId}` : `diag:${x.diagnostic.code}`));
    // Without limits every event of the input decodes (the two-line one too).
    eq(seen(new aw.StreamDecoder().feed(enc(input))), ["task-created:task-d", "task-created:task-d", "task-created:task-e"], "no limits");
    // maxEventBytes = L: an L-byte event passes, the joined L + 1 bytes are dropped, the next one decodes.
    eq(seen(new aw.StreamDecoder({ limits: { maxEventBytes: L } }).feed(enc(input))),
      ["task-created:task-d", "diag:sse-event-too-large", "task-created:task-e"], `maxEventBytes ${L}`);
    // One byte less: the L-byte events are dropped too.
    eq(seen(new aw.StreamDecoder({ limits: { maxEventBytes: L - 1 } }).feed(enc(`data: ${one}\n\n`))), ["diag:sse-event-too-large"], `maxEventBytes ${L - 1}`);
    // maxLineBytes = L + 6: the `data: ` line of L + 6 bytes is read; one byte more (a trailing
    // space) is skipped and its event dropped; a too-long comment is reported and drops nothing.
    const d = new aw.StreamDecoder({ limits: { maxLineBytes: L + 6 } });
    eq(seen(d.feed(enc(`: ${"x".repeat(L + 10)}\ndata: ${one}\n\ndata: ${one} \n\ndata: ${other}\n\n`))),
      ["diag:sse-line-too-long", "task-created:task-d", "diag:sse-line-too-long", "task-created:task-e"], `maxLineBytes ${L + 6}`);
  },

  async docs_max_line_comment_nothing_dropped(aw) {
    const s = new aw.AgentStore({ limits: { maxLineBytes: 400 } });
    s.feedText(`id: 0\n: ${"x".repeat(1000)}\ndata: ${ev(created)}\n\n`);
    const st = JSON.parse(s.stateJson());
    eq(st.diagnostics.map((d) => d.code), ["sse-line-too-long"], "reported");
    eq(st.tasks.length, 1, "event of the comment's block kept");
  },

  async docs_reset_stream_keeps_last_event_id(aw) {
    const s = new aw.AgentStore();
    s.feedText(`id: 5\ndata: ${ev(created)}\n\nid: 6\ndata: {"ki`);
    s.resetStream();
    eq(s.lastEventId, "5", "kept");
  },

  async docs_finish_reports_gaps(aw) {
    const s = new aw.AgentStore();
    s.feedText(sse([created, { kind: "content-delta", delta: "a", index: 0 }, { kind: "content-delta", delta: "c", index: 2 }]));
    s.finish();
    const codes = s.diagnostics().map((d) => d.code);
    assert(codes.includes("chunk-gap"), `chunk-gap: ${codes}`);
  },

  async docs_push_event_string_and_object(aw) {
    const s = new aw.AgentStore();
    s.pushEvent(ev(created));
    s.pushEvent({ kind: "content-delta", contextId: ctx, taskId: T, delta: "x", index: 0, timestamp: ts });
    eq(s.task(T).content, "x", "applied");
  },

  async docs_retry(aw) {
    const s = new aw.AgentStore();
    eq(s.retry, undefined, "none");
    s.feedText("retry: 1234\n\n");
    eq(s.retry, 1234, "retry");
  },

  async docs_null_optional_is_absent(aw) {
    const s = new aw.AgentStore();
    s.feedText(sse([{ ...created, parentTaskId: null, metadata: null }, { kind: "task-status", status: "working", message: null }]));
    eq(s.diagnostics().map((d) => d.code), [], "no diagnostics");
  },

  async docs_json_depth(aw) {
    // docs/limits.md: "JSON nesting 128 levels (deeper is `invalid-json`)". The event object is
    // level 1, `arguments` level 2, so `a` holding n nested arrays makes n + 2 levels.
    const nest = (n) => "[".repeat(n) + "]".repeat(n);
    const line = (id, n) => `{"kind":"tool-start","contextId":"${ctx}","taskId":"${T}","toolCallId":"${id}","toolName":"x","arguments":{"a":${nest(n)}},"timestamp":"${ts}"}`;
    const s = new aw.AgentStore();
    s.pushEvent(ev(created));
    s.pushEvent(line("c128", 126)); // 128 levels: read
    eq(s.diagnostics().map((d) => d.code), [], "128 levels: no diagnostic");
    s.pushEvent(line("c129", 127)); // 129 levels: refused
    eq(s.diagnostics().map((d) => d.code), ["invalid-json"], "129 levels: invalid-json");
    eq(s.task(T).tools.map((t) => t.id ?? t.toolCallId), ["c128"], "only the 128-level call applied");
    // The same bound in the stream decoder.
    const d = new aw.StreamDecoder();
    const items = d.feed(new TextEncoder().encode(`data: ${line("c128", 126)}\n\ndata: ${line("c129", 127)}\n\n`));
    eq(items.map((x) => (x.event ? x.event.toolCallId : x.diagnostic.code)), ["c128", "invalid-json"], "decoder");
  },

  async docs_send_message_invalid_state_for_000(aw) {
    const c = started(new aw.AgentClient({ url: QUICK }));
    await until(() => ended(c), "end");
    const r = await code(() => c.sendMessage("hi"));
    c.close();
    eq(r, "invalid-state", "sendMessage on protocol 000");
  },

  async docs_unsafe_url_diagnostic_and_throw(aw) {
    const c = started(new aw.AgentClient({ transport: "manual" }));
    c.store.feedText(sse([created, { kind: "auth-required", authId: "a1", authType: "oauth2", prompt: "sign in", provider: "x", authUrl: "javascript:alert(1)" }]));
    const r = [await code(async () => c.authUrl("a1")), await code(async () => c.openAuth("a1"))];
    const codes = c.getSnapshot().diagnostics.map((d) => d.code);
    c.close();
    eq(r, ["unsafe-url", "unsafe-url"], "throws");
    assert(codes.includes("unsafe-url"), `diagnostic ${codes}`);
  },

  async docs_select_object_option(aw) {
    // d.ts select(): "Picks one of the request's `options` (the option itself, or an object
    // option's `id`/`value`)": protocol 000 POSTs `{"value": <the option>}` to the input's endpoint.
    const options = [{ id: "a", label: "A" }, { id: "b", label: "B" }];
    const sent = [];
    const c = started(new aw.AgentClient({ transport: "manual", responder: (r) => { sent.push(r); } }));
    c.store.feedText(sse([created,
      { kind: "input-required", inputId: "i1", inputType: "selection", prompt: "p", requireUser: true, options },
      { kind: "input-required", inputId: "i2", inputType: "selection", prompt: "p", requireUser: true, options }]));
    await c.select("i1", "b"); // by id
    await c.select("i2", options[0]); // the option object itself
    c.close();
    eq(sent.map((r) => new URL(r.url, location.href).pathname.split("/").slice(-2).join("/")), ["inputs/i1", "inputs/i2"], "endpoints");
    eq(sent.map((r) => (typeof r.body === "string" ? JSON.parse(r.body) : r.body)),
      [{ value: "b" }, { value: options[0] }], "bodies");
  },

  async docs_data_versions_64(aw) {
    const s = new aw.AgentStore();
    const evs = [created];
    for (let v = 1; v <= 70; v++) evs.push({ kind: "data-write", artifactId: "d1", name: "d", data: { v }, metadata: { version: v } });
    s.feedText(sse(evs));
    const a = s.artifact("d1");
    eq(a.versions.length, 64, "versions kept");
    eq(a.version, 70, "latest");
  },

  async docs_close_stops_delivery(aw) {
    const c = started(new aw.AgentClient({ transport: "manual" }));
    let n = 0;
    c.on("*", () => n++);
    c.subscribe(() => n++);
    const base = n;
    c.close();
    eq(c.listenerCount, 0, "listeners");
    let err = null;
    try { c.store.feedText(sse([created])); } catch (e) { err = e.code; }
    eq(n, base, `no delivery after close (feed: ${err})`);
  },

  async docs_deny_reason_and_user_id_go_along_in_every_dialect(aw) {
    // d.ts: deny "`reason` goes along"; userId "Sent as `userId` with answers".
    const WS = location.origin.replace(/^http/, "ws");
    const setups = {
      canonical: { url: "/api/stream?scenario=main&seed=5&speed=0" },
      myagent: { url: `${WS}/api/myagent/ws?scenario=main&seed=5&speed=0&start=connect`, dialect: "myagent" },
      a2a: { a2aVersion: "0.3", url: "/api/a2a?scenario=main&seed=5&speed=0", message: "go" },
      acp: { url: "/api/stream?dialect=acp&scenario=main&seed=5&speed=0", dialect: "acp" },
    };
    const out = {};
    for (const [name, o] of Object.entries(setups)) {
      const sent = [];
      const c = started(new aw.AgentClient({ ...o, userId: "user-42", responder: (r) => { sent.push(r); } }));
      try {
        await until(() => c.pendingInputs().length > 0, `${name}: the approval`);
        const id = c.pendingInputs()[0].id;
        await c.deny(id, "REASON-TEXT");
        const body = JSON.stringify(sent.at(-1).body);
        out[name] = { reason: body.includes("REASON-TEXT"), userId: body.includes("user-42") };
      } finally { c.close(); }
    }
    // Protocol 000 and Unified carry reason and userId; MyAgent the reason (its response's
    // `feedback`); A2A and ACP answers have neither.
    eq(out, { canonical: { reason: true, userId: true }, myagent: { reason: true, userId: false }, a2a: { reason: false, userId: false }, acp: { reason: false, userId: false } }, "deny(id, reason) and userId in the answer");
  },

  async docs_headers_go_with_answers(aw) {
    // d.ts: headers "Extra headers of the stream request and of responses".
    const seen = [];
    const orig = globalThis.fetch;
    globalThis.fetch = function (req, init) {
      if (req instanceof Request) seen.push([req.method, new URL(req.url).pathname, req.headers.get("x-docs")]);
      return orig.call(this, req, init);
    };
    try {
      const c = started(new aw.AgentClient({ url: "/api/stream?scenario=main&seed=6&speed=0", headers: { "X-Docs": "yes" } }));
      await until(() => c.pendingInputs().length > 0, "approval");
      await c.approve(c.pendingInputs()[0].id);
      c.close();
    } finally { globalThis.fetch = orig; }
    const posts = seen.filter((x) => x[0] === "POST");
    assert(posts.length === 1, `one POST ${JSON.stringify(seen)}`);
    eq(seen.map((x) => x[2]), seen.map(() => "yes"), `header on every request ${JSON.stringify(seen)}`);
  },

  async docs_send_failed_has_status(aw) {
    const c = started(new aw.AgentClient({ url: "/api/stream?scenario=main&seed=8&speed=0", endpoints: { input: "/api/nowhere/{inputId}" } }));
    await until(() => c.pendingInputs().length > 0, "approval");
    let err = null;
    try { await c.approve(c.pendingInputs()[0].id); } catch (e) { err = e; }
    c.close();
    eq([err && err.code, err && err.status], ["send-failed", 404], "send-failed with status");
  },

  async docs_dialect_property(aw) {
    const c = new aw.AgentClient({ url: QUICK});
    const before = c.dialect;
    c.start();
    await until(() => ended(c), "end");
    const after = c.dialect;
    c.close();
    eq([before, after], [undefined, "canonical"], "dialect");
  },

  async docs_decoded_has_id(aw) {
    const d = new aw.StreamDecoder();
    const items = d.feed(new TextEncoder().encode(`id: 7\ndata: ${ev(created)}\n\n`));
    eq(items.map((x) => x.id), ["7"], "id");
    eq(d.lastEventId, "7", "lastEventId");
  },

  async docs_eventsource_with_credentials(aw) {
    const orig = globalThis.EventSource;
    const made = [];
    globalThis.EventSource = class extends orig { constructor(u, o) { super(u, o); made.push(o); } };
    try {
      const c = started(new aw.AgentClient({ url: QUICK, transport: "eventsource", credentials: "include" }));
      await until(() => ended(c) || made.length > 0, "made");
      c.close();
    } finally { globalThis.EventSource = orig; }
    eq(made.map((o) => o && o.withCredentials), [true], "withCredentials");
  },

  async docs_filter_spec_fields(aw) {
    // EventFilterSpec (d.ts): `kinds` is a string or an array (groups like `tool-*`; internal
    // events only when asked for), the thought filters (`maxVerbosity`, `minConfidence`: a thought
    // without a confidence passes, `thoughtTypes`) and `requireUser` (absent counts as false).
    const th = (id, thoughtType, verbosity, confidence, index) => ({ kind: "thought-stream", thoughtId: id, thoughtType, verbosity,
      content: id, index, ...(confidence === undefined ? {} : { metadata: { confidence } }) });
    const input = (id, requireUser) => ({ kind: "input-required", inputId: id, inputType: "custom", prompt: "p", ...(requireUser === undefined ? {} : { requireUser }) });
    const events = [created,
      { kind: "tool-start", toolCallId: "c1", toolName: "a", arguments: {} },
      { kind: "tool-progress", toolCallId: "c1", progress: 0.5 },
      { kind: "tool-start", toolCallId: "c2", toolName: "b", arguments: {} },
      { kind: "internal:tool-start", toolCallId: "c1", toolName: "a" },
      { kind: "internal:llm-call", iteration: 1, model: "m", messageCount: 1, toolCount: 0 },
      th("p-brief-90", "planning", "brief", 0.9, 0),
      th("p-normal-85", "planning", "normal", 0.85, 1),
      th("r-detailed-95", "reasoning", "detailed", 0.95, 2),
      th("r-brief-none", "reasoning", "brief", undefined, 3),
      th("p-detailed-50", "planning", "detailed", 0.5, 4),
      input("u-true", true), input("u-false", false), input("u-absent")];
    const s = new aw.AgentStore();
    const got = {};
    const add = (name, f) => { got[name] = []; s.subscribeEvents(f, (e) => got[name].push(e.thoughtId ?? e.inputId ?? `${e.kind}:${e.toolCallId ?? ""}`)); };
    add("kindsString", { kinds: "tool-start" });
    add("kindsArray", { kinds: ["tool-start"] });
    add("kindsGroup", { kinds: ["tool-*"] });
    add("brief", { kinds: ["thought-stream"], maxVerbosity: "brief" });
    add("normal", { kinds: "thought-stream", maxVerbosity: "normal" });
    add("conf", { kinds: ["thought-stream"], minConfidence: 0.88 });
    add("planning", { kinds: ["thought-stream"], thoughtTypes: ["planning"] });
    add("planningBrief", { thoughtTypes: ["planning"], maxVerbosity: "brief", kinds: "thought-stream" });
    add("internal", { includeInternal: true, kinds: ["internal:*"] });
    add("requireUser", { kinds: ["input-required"], requireUser: true });
    add("notRequireUser", { kinds: "input-required", requireUser: false });
    s.feedText(sse(events));
    eq(s.diagnostics().map((d) => d.code), [], "the events are valid");
    eq(got, {
      kindsString: ["tool-start:c1", "tool-start:c2"],
      kindsArray: ["tool-start:c1", "tool-start:c2"],
      kindsGroup: ["tool-start:c1", "tool-progress:c1", "tool-start:c2"],
      brief: ["p-brief-90", "r-brief-none"],
      normal: ["p-brief-90", "p-normal-85", "r-brief-none"],
      conf: ["p-brief-90", "r-detailed-95", "r-brief-none"],
      planning: ["p-brief-90", "p-normal-85", "p-detailed-50"],
      planningBrief: ["p-brief-90"],
      internal: ["internal:tool-start:c1", "internal:llm-call:"],
      requireUser: ["u-true"],
      notRequireUser: ["u-false", "u-absent"],
    }, "delivered per filter");
  },

  async docs_attempt_zero_while_open(aw) {
    const c = started(new aw.AgentClient({ url: "/api/stream?scenario=quick&seed=7&speed=0&faults=drop=20&retry=20", reconnect: FAST }));
    const seen = [];
    c.onConnectionChange((i) => seen.push(`${i.state}:${i.attempt}`));
    await until(() => ended(c), "end");
    c.close();
    assert(seen.filter((x) => x.startsWith("open:")).every((x) => x === "open:0"), seen.join(" "));
    return seen.join(" ");
  },

  async docs_close_while_reconnecting_stops_requests(aw) {
    // d.ts: close() "Closes the connection, stops every delivery".
    let requests = 0;
    const orig = globalThis.fetch;
    globalThis.fetch = function (req, init) { requests++; return orig.call(this, req, init); };
    try {
      const c = started(new aw.AgentClient({ url: "/api/stream?scenario=quick&seed=7&speed=0&faults=drop=10&retry=300", reconnect: { initialDelayMs: 300, jitter: 0 } }));
      await until(() => c.connection.state === "reconnecting", "reconnecting");
      const n = requests;
      c.close();
      await sleep(1200);
      eq([c.connection.state, requests - n], ["closed", 0], "no request after close");
    } finally { globalThis.fetch = orig; }
  },

  async docs_unknown_kinds_routing(aw) {
    const s = new aw.AgentStore();
    const got = { any: [], star: [], unknown: [], internal: [] };
    s.onAny((e) => got.any.push(e.unknownKind ?? e.kind));
    s.on("*", (e) => got.star.push(e.unknownKind ?? e.kind));
    s.on("unknown", (e) => got.unknown.push(e.unknownKind ?? e.kind));
    s.on("internal:*", (e) => got.internal.push(e.unknownKind ?? e.kind));
    s.feedText(sse([created, { kind: "future-kind", x: 1 }, { kind: "internal:future", x: 2 }]));
    eq(got, { any: ["task-created", "future-kind"], star: ["task-created", "future-kind"], unknown: ["future-kind"], internal: ["internal:future"] }, "routing");
  },

  async docs_events_iterator_excludes_internal_by_default(aw) {
    const text = await (await fetch(QUICK)).text();
    const c = started(new aw.AgentClient({ transport: "manual" }));
    const ac = new AbortController();
    const it = c.events({ signal: ac.signal });
    const kinds = [];
    const p = (async () => { for await (const e of it) kinds.push(e.kind); })();
    c.store.feedText(text);
    await sleep(50);
    ac.abort();
    await p;
    c.close();
    eq(kinds.filter((k) => k.startsWith("internal:")), [], "no internal");
    assert(kinds.length > 50, `events ${kinds.length}`);
  },

  async docs_idle_timeout_zero_is_off(aw) {
    const c = started(new aw.AgentClient({ url: "/api/stream?scenario=main&seed=9&speed=0&faults=silent=3&heartbeat=100000", idleTimeoutMs: 0, reconnect: FAST }));
    const seen = [];
    c.onConnectionChange((i) => seen.push(i.state));
    await sleep(1500);
    c.close();
    eq(seen.filter((x) => x === "reconnecting"), [], `no reconnect: ${seen}`);
  },

  async docs_idle_timeout_reconnects_silent_server(aw) {
    const c = started(new aw.AgentClient({ url: "/api/stream?scenario=quick&seed=7&speed=0&faults=silent=3&heartbeat=100000&retry=20", idleTimeoutMs: 400, reconnect: FAST }));
    await until(() => ended(c), "end", 10000);
    const st = c.connection.state;
    const root = c.getSnapshot().roots[0];
    c.close();
    eq([st, root && root.status], ["closed", "completed"], "resumed after idle");
  },

  async docs_raw_log_ring_is_readable(aw) {
    // docs/limits.md: rawLogEvents "a ring of the latest raw events, each cut to 2 KiB and redacted";
    // d.ts: "Raw events kept in the debug ring". A JavaScript user who turns it on must be able to read it.
    const text = await (await fetch(QUICK)).text();
    const s = new aw.AgentStore({ limits: { rawLogEvents: 10 } });
    s.feedText(text);
    const names = Object.getOwnPropertyNames(Object.getPrototypeOf(s)).filter((n) => /raw/i.test(n) && n !== "__destroy_into_raw");
    const json = s.stateJson();
    const inState = /"task-created"[^\n]*"raw/.test(json) || Object.keys(JSON.parse(json)).some((k) => /raw/i.test(k));
    assert(names.length > 0 || inState, `no way to read the ring: store members ${JSON.stringify(Object.getOwnPropertyNames(Object.getPrototypeOf(s)))}, stateJson keys ${Object.keys(JSON.parse(json))}`);
    const ring = s.rawEvents();
    eq(ring.length, 10, "the latest 10");
    assert(ring.every((r) => typeof r.position === "number" && r.raw.startsWith("{")), JSON.stringify(ring[0]));
  },
};
