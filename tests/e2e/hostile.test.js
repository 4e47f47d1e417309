// The hostile-server suite: the built package in headless Chromium against the scenario server's
// fault injection (scenario-server/README.md, "Faults"), each case asserting what a user of the
// page needs (same state as a clean run, diagnostics instead of exceptions, bounded memory, no
// retry storm, no busy loop, nothing unsafe opened). What client.test.js already covers is not
// repeated here: a single drop + dup resume, restart, POST resume, 204/500/429/401 states,
// wrong content-type, the silent server, the xss scenario's javascript: auth URL.
//
// Memory: a test that measures memory runs on a fresh instance of the package (its own wasm
// memory: `import("/pkg/agentwire.js?instance=N")`), and reads the JS heap after a full GC (the
// runner starts Chromium with --js-flags=--expose-gc and --enable-precise-memory-info).

import { sleep, assert, eq, until, ended, recordStates, comparable, sameState, runInfo, FAST } from "./client.test.js";
/** A client connecting now (constructors do no I/O: start() connects). */
const started = (c) => { c.start(); return c; };

const uid = Math.random().toString(36).slice(2, 8);
/** A run id unique to this page load (the server keeps runs between test runs). */
const runId = (name) => `${name}-${uid}`;
const MiB = 1 << 20;

/** A finished clean run of `query` (the reference a faulty run must match). */
async function reference(aw, query) {
  const c = started(new aw.AgentClient({ url: `/api/stream?${query}` }));
  await until(() => ended(c), "the reference run", 60_000);
  eq(c.connection.state, "closed", `reference: ${c.connection.reason}`);
  return c;
}

/** Starts `query` with `faults` (and client options) and waits until the connection ended. */
async function faulty(aw, query, faults, options = {}, ms = 60_000) {
  const client = started(new aw.AgentClient({ url: `/api/stream?${query}&faults=${faults}`, reconnect: FAST, ...options }));
  const states = recordStates(client);
  await until(() => ended(client), `the run with ${faults}`, ms);
  return { client, states };
}

const stats = (client) => JSON.parse(client.store.stateJson()).stats;
const codes = (client) => client.getSnapshot().diagnostics.map((d) => d.code);
/** Tasks and artifacts only (diagnostics compared separately). */
function sameTasks(a, b, msg) {
  const strip = (s) => JSON.stringify({ ...JSON.parse(s), diagnostics: [] });
  const x = strip(comparable(a)), y = strip(comparable(b));
  if (x !== y) {
    let i = 0;
    while (i < x.length && x[i] === y[i]) i++;
    throw new Error(`${msg}: differ at ${i}: …${x.slice(Math.max(0, i - 80), i + 120)}… vs …${y.slice(Math.max(0, i - 80), i + 120)}…`);
  }
}

/** The SSE events of a clean run as `[{id, kind, data}]` (to pick ids for `lose=`). */
async function cleanEvents(query) {
  const text = await (await fetch(`/api/stream?${query}`)).text();
  const out = [];
  for (const block of text.split("\n\n")) {
    const id = block.match(/^id: (\d+)$/m)?.[1];
    const data = block.match(/^data: (.*)$/m)?.[1];
    if (id !== undefined && data) out.push({ id: Number(id), ...JSON.parse(data) });
  }
  return { text, events: out };
}

let instances = 0;
/** A fresh instance of the package: its own wasm memory (`wasm`: the instance's exports). */
export async function freshInstance() {
  // A fresh wasm instance: the package under another path (scripts/e2e-tests.sh links
  // /fresh/pkg/1..64 to it), so its glue (imported by a relative URL) is a new module too.
  const aw = await import(`/fresh/pkg/${++instances}/agentwire.js`);
  const wasm = await aw.default();
  return { aw, wasm, wasmBytes: () => wasm.memory.buffer.byteLength };
}

/**
 * JS heap in use after full GCs. Needs what tests/e2e/run.mjs starts Chromium with
 * (--js-flags=--expose-gc, --enable-precise-memory-info): without `gc()` or `performance.memory`
 * it throws, so a memory assertion fails instead of comparing NaN (which passes `!(x > y)`).
 */
export async function jsHeap() {
  if (typeof gc !== "function") throw new Error("no gc(): start Chromium with --js-flags=--expose-gc");
  for (let i = 0; i < 3; i++) {
    gc();
    await sleep(10); // lets FinalizationRegistry callbacks (wasm-bindgen's free) run
  }
  const used = performance.memory?.usedJSHeapSize;
  if (!Number.isFinite(used) || used <= 0) throw new Error(`no JS heap reading (performance.memory: ${used})`);
  return used;
}

/** Counts the reads of fetch bodies and their bytes (wraps ReadableStreamDefaultReader.read). */
function meterReads() {
  const proto = ReadableStreamDefaultReader.prototype;
  const orig = proto.read;
  const m = { reads: 0, bytes: 0, restore: () => { proto.read = orig; } };
  proto.read = function read() {
    m.reads++;
    return orig.call(this).then((r) => {
      if (r && r.value) m.bytes += r.value.byteLength;
      return r;
    });
  };
  return m;
}

/** Counts `fetch` calls whose URL contains `needle`. */
function meterFetch(needle) {
  const orig = window.fetch;
  const m = { calls: 0, restore: () => { window.fetch = orig; } };
  window.fetch = function fetch(input, init) {
    const url = typeof input === "string" ? input : input.url;
    if (String(url).includes(needle)) m.calls++;
    return orig.call(this, input, init);
  };
  return m;
}

/** Resolves when the client's connection ends (no polling timers). */
const endOf = (client) => new Promise((resolve) => {
  if (ended(client)) return resolve();
  client.onConnectionChange((i) => { if (i.state === "closed" || i.state === "failed") resolve(); });
});

const MB = (n) => `${(n / MiB).toFixed(1)} MiB`;

/** A fresh instance of the test-panic build (feature `test-panic`, staged at /pkg-panic/). */
async function panicInstance() {
  let aw;
  try {
    const n = ++instances;
    aw = await import(`/fresh/panic/${n}/agentwire.js`);
    await aw.default();
    // The test hook is the glue's own export (the layer does not re-export it).
    const raw = await import(`/fresh/panic/${n}/raw/agentwire.js`);
    assert(typeof raw.__triggerPanic === "function", "__triggerPanic exported by the test build");
    const hooks = Object.fromEntries(Object.entries(raw).filter(([k]) => k.startsWith("__trigger")));
    return Object.assign(Object.create(null), aw, hooks);
  } catch (e) {
    throw new Error(`the test-panic build is not staged at /fresh/panic/ (scripts/e2e-tests.sh builds it): ${e}`);
  }
}

/** Runs `f` and returns what it threw (or what its promise rejected with); null if nothing. */
async function thrown(f) {
  try {
    const r = f();
    if (r && typeof r.then === "function") await r;
    return null;
  } catch (e) {
    return e;
  }
}

/** Every entry point of a poisoned module must throw (or reject with) the typed `internal` error. */
async function assertRefused(aw, client, store) {
  const calls = {
    "client.getSnapshot()": () => client.getSnapshot(),
    "client.subscribe()": () => client.subscribe(() => {}),
    "client.on()": () => client.on("tool-start", () => {}),
    "client.onAny()": () => client.onAny(() => {}),
    "client.onConnectionChange()": () => client.onConnectionChange(() => {}),
    "client.events()": () => client.events(),
    "client.start()": () => client.start(),
    "client.pendingInputs()": () => client.pendingInputs(),
    "client.pendingAuths()": () => client.pendingAuths(),
    "client.authUrl()": () => client.authUrl("auth-x"),
    "client.approve()": () => client.approve("input-x"),
    "client.respond()": () => client.respond("input-x", "yes"),
    "client.completeAuth()": () => client.completeAuth("auth-x", {}),
    "client.cancel()": () => client.cancel("task-x"),
    "client.send()": () => client.send({ type: "ping" }),
    "store.feedText()": () => store.feedText("data: {}\n\n"),
    "store.feed()": () => store.feed(new Uint8Array([10])),
    "store.pushEvent()": () => store.pushEvent({ kind: "task-created", contextId: "c", taskId: "t", timestamp: "2025-11-06T10:30:00Z", initiator: "user" }),
    "store.getSnapshot()": () => store.getSnapshot(),
    "store.stateJson()": () => store.stateJson(),
    "store.lastEventId": () => store.lastEventId,
    "started(new AgentClient())": () => started(new aw.AgentClient({ transport: "manual" })),
    "new AgentStore()": () => new aw.AgentStore(),
    "new StreamDecoder()": () => new aw.StreamDecoder(),
  };
  const wrong = [];
  for (const [name, f] of Object.entries(calls)) {
    const e = await thrown(f);
    if (!(e instanceof Error) || e.code !== "internal" || !/internal error/.test(e.message)) {
      wrong.push(`${name}: ${e ? `${e.name} ${e.code} ${e.message}` : "no error"}`);
    }
  }
  eq(wrong, [], "every call refused with the typed internal error");
  return Object.keys(calls).length;
}

export const tests = {
  /**
   * Many cuts in the middle of an event (every 97 events, ~30 resumes), each resume re-sending
   * the 3 events before the resume point: the state is the clean run's, every replayed event
   * was recognised and ignored, and no text is duplicated.
   */
  async many_cuts_mid_event_resume_to_the_identical_state(aw) {
    const q = "scenario=bulk&events=3000&seed=5&speed=0&retry=20";
    const ref = await reference(aw, q);
    const run = runId("cuts");
    const { client, states } = await faulty(aw, `${q}&run=${run}`, "dropEvery=97,dup=3");
    eq(client.connection.state, "closed", client.connection.reason);
    sameState(client, ref, "state identical to the uninterrupted run (no duplicated text)");
    const info = await runInfo(run);
    const resumes = states.filter((s) => s === "reconnecting").length;
    assert(resumes >= 30, `resumed ${resumes} times`);
    eq(info.connections, resumes + 1, "one request per resume (server side)");
    eq(stats(client).duplicatesIgnored, 3 * resumes, "the 3 replayed events of every resume were ignored");
    eq(stats(client).eventsApplied, stats(ref).eventsApplied, "events applied once each");
    const content = client.getSnapshot().tasks.map((t) => t.content).join("");
    eq(content.length, ref.getSnapshot().tasks.map((t) => t.content).join("").length, "no text twice");
    client.close();
    ref.close();
    return `${resumes} resumes, ${stats(client).duplicatesIgnored} replays ignored`;
  },

  /** The same over the browser's EventSource (it reconnects itself with Last-Event-ID). */
  async eventsource_resumes_after_cuts_to_the_identical_state(aw) {
    const q = "scenario=bulk&events=800&seed=6&speed=0&retry=20";
    const ref = await reference(aw, q);
    const run = runId("es-cuts");
    const { client } = await faulty(aw, `${q}&run=${run}`, "dropEvery=150,dup=2", { transport: "eventsource" });
    eq(client.connection.state, "closed", client.connection.reason);
    sameState(client, ref, "state identical to the uninterrupted run");
    const info = await runInfo(run);
    assert(info.connections >= 5, `resumed: ${info.connections} connections`);
    assert(stats(client).duplicatesIgnored >= 2 * (info.connections - 1), `replays ignored: ${JSON.stringify(stats(client))}`);
    client.close();
    ref.close();
    return `${info.connections} connections`;
  },

  /** Restart from event 0 on every resume of a long run: detected as replays, applied once. */
  async restart_from_zero_is_counted_as_replays_and_applied_once(aw) {
    const q = "scenario=bulk&events=600&seed=8&speed=0&retry=20";
    const ref = await reference(aw, q);
    const run = runId("restart");
    const { client, states } = await faulty(aw, `${q}&run=${run}`, "drop=400,restart");
    eq(client.connection.state, "closed", client.connection.reason);
    eq(states.filter((s) => s === "reconnecting").length, 1, `one resume: ${states}`);
    sameState(client, ref, "nothing applied twice");
    eq(stats(client).duplicatesIgnored, 400, "the 400 events already applied were recognised");
    eq(stats(client).eventsApplied, stats(ref).eventsApplied, "events applied once each");
    client.close();
    ref.close();
  },

  /**
   * No SSE ids at all: after the drop the client cannot say where it was, and the server replays
   * the run from its start. Every replayed event is recognised by what it is (issue 21): the
   * state is the clean run's, nothing is applied twice, no warning is raised, and handlers see
   * each applied event exactly once (the README's quick start would otherwise approve twice).
   */
  async replay_from_the_start_without_ids_is_applied_once_and_handled_once(aw) {
    const q = "scenario=quick&seed=7&speed=0&retry=20";
    const watched = async (faults) => {
      const run = runId(`noids-${faults.length}`);
      const client = new aw.AgentClient({ url: `/api/stream?${q}&run=${run}&faults=${faults}`, reconnect: FAST});
      const seen = [], asked = [];
      client.onAny((e) => seen.push(JSON.stringify({ ...e, contextId: "ctx" })));
      client.on("input-required", (e) => asked.push(e.inputId));
      const states = recordStates(client);
      client.start();
      await until(() => ended(client), `the run with ${faults}`);
      return { client, seen, asked, states };
    };
    const clean = await watched("noIds");
    const cut = await watched("noIds,drop=12");
    eq(cut.client.connection.state, "closed", cut.client.connection.reason);
    eq(cut.states.filter((x) => x.startsWith("reconnecting")).length, 1, `one drop: ${cut.states}`);
    sameState(cut.client, clean.client, "the clean run's state");
    eq(stats(cut.client).eventsApplied, stats(clean.client).eventsApplied, "events applied once each");
    assert(stats(cut.client).duplicatesIgnored >= 11, `the replayed events were recognised: ${JSON.stringify(stats(cut.client))}`);
    eq(codes(cut.client), codes(clean.client), "no warning the clean run has not");
    eq(cut.seen, clean.seen, "handlers saw each applied event once, as in the clean run");
    eq(cut.asked, clean.asked, "input-required handled once each");
    cut.client.close();
    clean.client.close();
    return `${cut.seen.length} events handed, ${stats(cut.client).duplicatesIgnored} replays ignored`;
  },

  /**
   * The same in the dialects that carry their own identity (issue 21 with issue 25 item 4):
   * Unified's `event_id`, an A2A-ACP event whole. Without SSE ids the server replays the run
   * from its start after the drop; every replayed event is recognised, nothing is applied or
   * handed to a handler twice, and the state is the clean run's.
   */
  async dialect_replay_from_the_start_without_ids_is_applied_once_and_handled_once(aw) {
    const out = [];
    for (const dialect of ["unified", "acp"]) {
      const q = `scenario=quick&seed=7&speed=0&retry=20&dialect=${dialect}`;
      const watched = async (faults) => {
        const run = runId(`noids-${dialect}-${faults.length}`);
        const client = new aw.AgentClient({ url: `/api/stream?${q}&run=${run}&faults=${faults}`, dialect, reconnect: FAST});
        const seen = [];
        client.onAny((e) => seen.push(JSON.stringify({ ...e, contextId: "ctx", timestamp: "" })));
        const states = recordStates(client);
        client.start();
        await until(() => ended(client), `the ${dialect} run with ${faults}`);
        return { client, seen, states, run };
      };
      // The session (a root task of these dialects) is named after the run: compare without it.
      const state = (w) => {
        const s = JSON.parse(w.client.store.stateJson().split(w.run).join("RUN"));
        const strip = (k, v) => (k === "contextId" || k === "revision" ? undefined : v);
        return JSON.stringify({ tasks: s.tasks, artifacts: s.artifacts, diagnostics: s.diagnostics }, strip);
      };
      const clean = await watched("noIds");
      const cut = await watched("noIds,drop=12");
      eq(cut.client.connection.state, "closed", `${dialect}: ${cut.client.connection.reason}`);
      eq(cut.states.filter((x) => x.startsWith("reconnecting")).length, 1, `${dialect}: one drop: ${cut.states}`);
      eq(state(cut), state(clean), `${dialect}: the clean run's state`);
      eq(stats(cut.client).eventsApplied, stats(clean.client).eventsApplied, `${dialect}: events applied once each`);
      assert(stats(cut.client).duplicatesIgnored > 0, `${dialect}: the replayed events were recognised: ${JSON.stringify(stats(cut.client))}`);
      eq(codes(cut.client), codes(clean.client), `${dialect}: no diagnostic the clean run has not`);
      eq(cut.seen.length, clean.seen.length, `${dialect}: handlers saw each applied event once`);
      out.push(`${dialect}: ${cut.seen.length} events, ${stats(cut.client).duplicatesIgnored} replays ignored`);
      cut.client.close();
      clean.client.close();
    }
    return out.join("; ");
  },

  /** Chunks permuted in windows of 8 (answer text, file chunks, dataset batches): put back in order. */
  async shuffled_chunks_are_reassembled_in_order(aw) {
    // (main, interactive, is covered by tests/demo: shuffle + malformed.)
    for (const q of ["scenario=quick&seed=11&speed=0", "scenario=bulk&events=700&seed=3&speed=0"]) {
      const ref = await reference(aw, q);
      const { client } = await faulty(aw, q, "shuffle=8");
      eq(client.connection.state, "closed", client.connection.reason);
      sameState(client, ref, `${q}: same text, files and rows as the clean run`);
      eq(codes(client), [], `${q}: no diagnostics`);
      client.close();
      ref.close();
    }
  },

  /** One answer chunk never delivered: a chunk-gap warning names it, everything else is intact. */
  async a_chunk_lost_for_good_gives_a_gap_diagnostic_and_the_rest_is_intact(aw) {
    const q = "scenario=bulk&events=400&seed=4&speed=0";
    const { events } = await cleanEvents(q);
    const deltas = events.filter((e) => e.kind === "content-delta");
    const lost = deltas.find((e) => e.index === 10 && e.taskId !== deltas[0].taskId);
    assert(lost, "a content-delta with index 10 of the second sub-agent");
    const ref = await reference(aw, q);
    const { client } = await faulty(aw, q, `lose=${lost.id}`);
    eq(client.connection.state, "closed", client.connection.reason);
    const diags = client.getSnapshot().diagnostics;
    const gap = diags.find((d) => d.code === "chunk-gap");
    assert(gap, `a chunk-gap diagnostic: ${JSON.stringify(diags)}`);
    eq(gap.taskId, lost.taskId, "about the task that lost a chunk");
    assert(gap.message.includes("10"), `names the missing index: ${gap.message}`);
    assert(diags.every((d) => d.severity === "warning"), `warnings only: ${JSON.stringify(diags)}`);
    // Every other task is exactly the clean run's; the affected one keeps all its other text.
    const mine = client.getSnapshot().tasks, theirs = ref.getSnapshot().tasks;
    eq(mine.length, theirs.length, "task count");
    for (let i = 0; i < theirs.length; i++) {
      if (theirs[i].id === lost.taskId) {
        const hurt = mine.find((t) => t.id === lost.taskId);
        eq(hurt.status, "completed", "the task still completed");
        const full = theirs[i].content;
        assert(hurt.content === full || hurt.content === full.replace(lost.delta, "") || full.includes(hurt.content.slice(0, 20)),
          `content kept: ${hurt.content.length} of ${full.length} chars`);
      } else {
        eq(mine.find((t) => t.id === theirs[i].id).content, theirs[i].content, `task ${theirs[i].id} intact`);
      }
    }
    client.close();
    ref.close();
    return `lost id ${lost.id}: ${diags.map((d) => d.code).join(",")}`;
  },

  /**
   * Malformed JSON, invalid UTF-8, an unknown kind and a field of the wrong type (fault
   * `malformed`): the bad lines are diagnostics (errors: not applied), the unknown kind is
   * delivered as an `unknown` event (forward compatibility, docs/protocol-000.md#unknown-kinds), and the stream
   * goes on, on the same connection, to the state of the clean run.
   */
  async malformed_json_invalid_utf8_unknown_kind_and_wrong_type_are_diagnostics(aw) {
    const q = "scenario=quick&seed=3&speed=0";
    const ref = await reference(aw, q);
    const client = new aw.AgentClient({ url: `/api/stream?${q}&faults=malformed`, reconnect: FAST});
    const states = recordStates(client);
    const unknown = [];
    client.onAny((e) => { if (e.kind === "unknown") unknown.push(e); });
    client.start();
    await until(() => ended(client), "end");
    eq(states, ["idle", "connecting", "open", "closed"], "the connection was never dropped");
    sameTasks(client, ref, "tasks and artifacts as in the clean run");
    const diags = client.getSnapshot().diagnostics;
    const show = JSON.stringify(diags);
    const at = (code, raw) => diags.filter((d) => d.code === code && raw.test(d.raw ?? ""));
    eq(at("invalid-json", /^\{not json$/).length, 1, `{not json: ${show}`);
    eq(at("invalid-json", /^\uFFFD\uFFFD$/).length, 1, `the FF FE line (invalid UTF-8, shown replaced): ${show}`);
    eq(at("invalid-type", /"index":"seven"/).map((d) => [d.path, d.kind]), [["$.index", "content-delta"]], `wrong type: ${show}`);
    eq(diags.length, 3, `one diagnostic per bad line: ${diags.map((d) => d.code)}`);
    assert(diags.every((d) => d.severity === "error"), "errors: not applied");
    eq(unknown.length, 1, "the unknown kind was delivered once");
    eq(unknown[0].unknownKind ?? unknown[0].data?.kind, "future-kind", `as an unknown event: ${JSON.stringify(unknown[0])}`);
    client.close();
    ref.close();
    return `${diags.map((d) => `${d.code}(${d.severity})`).join(", ")}; unknown event ${JSON.stringify(unknown[0]).slice(0, 80)}…`;
  },

  /** A 50 MiB WebSocket frame under maxEventBytes 1 MiB. */
  async a_50_mib_websocket_frame_gives_a_limit_diagnostic_with_bounded_memory(_aw) {
    const limit = 1 * MiB;
    const { aw, wasmBytes } = await freshInstance();
    const WS = location.origin.replace(/^http/, "ws");
    const url = (f) => `${WS}/api/myagent/ws?scenario=quick&seed=13&speed=0&start=connect${f}`;
    const ref = started(new aw.AgentClient({ url: url(""), dialect: "myagent" }));
    await endOf(ref);
    const wasm0 = wasmBytes();
    const client = new aw.AgentClient({ limits: { maxLineBytes: limit, maxEventBytes: limit }, url: url("&faults=huge=50"), dialect: "myagent" });
    // Every connection change, for the failure message: a socket the browser dropped and
    // reopened (MyAgent resumes after the huge frame) would explain a run without the diagnostic.
    const seen = [];
    client.onConnectionChange((i) => seen.push(`${i.state}${i.code ? `(${i.code})` : ""}${i.reason ? `: ${i.reason}` : ""}`));
    const t0 = performance.now();
    started(client);
    await endOf(client);
    const growth = wasmBytes() - wasm0;
    const codes = client.getSnapshot().diagnostics.map((d) => d.code);
    const same = client.getSnapshot().roots.at(-1)?.content === ref.getSnapshot().roots.at(-1)?.content;
    client.close();
    ref.close();
    assert(codes.some((c) => /too-large|too-long/.test(c)) && growth <= 8 * limit,
      `wasm memory grew ${MB(growth)} (bound ${MB(8 * limit)}); diagnostics ${codes}; answer as clean: ${same}; ` +
      `${Math.round(performance.now() - t0)} ms; connection: ${seen.join(" → ")}`);
    return `wasm +${MB(growth)}; ${codes}`;
  },

  /**
   * One 50 MiB event: with maxLineBytes/maxEventBytes at 1 MiB it is dropped with a limit
   * diagnostic, the run completes as the clean one, and neither wasm memory nor the JS heap
   * grows by anything near 50 MiB (bound: 8 × the limit).
   */
  async a_50_mib_event_gives_a_limit_diagnostic_with_bounded_memory(_aw) {
    const limit = 1 * MiB;
    const { aw, wasmBytes } = await freshInstance();
    const q = "scenario=quick&seed=13&speed=0";
    const ref = await reference(aw, q);
    ref.close();
    const wasm0 = wasmBytes(), heap0 = await jsHeap();
    const reads = meterReads();
    let peakHeap = heap0;
    const sampler = setInterval(() => { peakHeap = Math.max(peakHeap, performance.memory?.usedJSHeapSize ?? 0); }, 20);
    let client;
    try {
      ({ client } = await faulty(aw, q, "huge=50", { limits: { maxLineBytes: limit, maxEventBytes: limit } }));
    } finally {
      clearInterval(sampler);
      reads.restore();
    }
    eq(client.connection.state, "closed", client.connection.reason);
    assert(reads.bytes > 50 * MiB, `the 50 MiB arrived: ${MB(reads.bytes)}`);
    const diags = client.getSnapshot().diagnostics;
    assert(diags.length === 1 && /too-long|too-large|limit/.test(diags[0].code), `one limit diagnostic: ${JSON.stringify(diags)}`);
    sameTasks(client, ref, "the rest of the run as in the clean run");
    const wasmGrowth = wasmBytes() - wasm0, heapGrowth = (await jsHeap()) - heap0;
    assert(wasmGrowth <= 8 * limit, `wasm memory grew ${MB(wasmGrowth)} (bound ${MB(8 * limit)})`);
    // (The peak between GCs is reported, not bounded: chunks already fed are garbage until collected.)
    assert(heapGrowth <= 8 * limit, `JS heap after +${MB(heapGrowth)}`);
    client.close();
    return `${diags[0].code}; wasm +${MB(wasmGrowth)}, JS heap peak +${MB(peakHeap - heap0)}, after +${MB(heapGrowth)}`;
  },

  /**
   * A data line that never ends (64 KiB every 10 ms, forever): a limit diagnostic once the line
   * passes maxLineBytes, then the bytes are skipped without being kept: wasm memory stays
   * within 8 × the limit after 40 MiB; close() ends the request (the server sees it leave).
   */
  async an_endless_line_gives_a_limit_diagnostic_with_bounded_memory(_aw) {
    const limit = 1 * MiB;
    const { aw, wasmBytes } = await freshInstance();
    const run = runId("endless");
    const wasm0 = wasmBytes(), heap0 = await jsHeap();
    const reads = meterReads();
    const client = started(new aw.AgentClient({
      url: `/api/stream?scenario=quick&seed=14&speed=0&run=${run}&faults=endless`,
      limits: { maxLineBytes: limit, maxEventBytes: limit }, reconnect: FAST,
    }));
    let wasmAt = 0, diags = [];
    try {
      await until(() => client.getSnapshot().diagnostics.length > 0, "the limit diagnostic", 60_000);
      diags = client.getSnapshot().diagnostics;
      await until(() => reads.bytes > 40 * MiB, "40 MiB of the endless line", 60_000);
      wasmAt = wasmBytes() - wasm0;
    } finally {
      reads.restore();
    }
    const heapGrowth = (await jsHeap()) - heap0;
    assert(/too-long|limit/.test(diags[0].code), `limit diagnostic: ${JSON.stringify(diags)}`);
    eq(client.connection.state, "open", "still connected (the line goes on)");
    assert(client.getSnapshot().tasks.length >= 1, "the events before the line were applied");
    assert(wasmAt <= 8 * limit, `wasm memory grew ${MB(wasmAt)} over ${MB(reads.bytes)} (bound ${MB(8 * limit)})`);
    assert(heapGrowth <= 8 * limit, `JS heap +${MB(heapGrowth)}`);
    client.close();
    let info = await runInfo(run);
    for (let i = 0; i < 100 && info.liveConnections > 0; i++) { await sleep(50); info = await runInfo(run); }
    eq(info.liveConnections, 0, "close() ended the request (server side)");
    return `${diags[0].code} after ${MB(reads.bytes)} read; wasm +${MB(wasmAt)}, JS heap +${MB(heapGrowth)}`;
  },

  /** 401 fails at once with code `unauthorized`: one request, no retry (server and page agree). */
  async http_401_is_one_request_and_a_clear_auth_error(aw) {
    const run = runId("s401");
    const fetches = meterFetch(run);
    let client;
    try {
      ({ client } = await faulty(aw, `scenario=quick&speed=0&run=${run}`, "status=401:1"));
      await sleep(1_000); // 5× FAST's longest backoff: a retry would have happened by now
    } finally {
      fetches.restore();
    }
    eq(client.connection.state, "failed", "failed");
    eq(client.connection.code, "unauthorized", "typed code");
    assert(/401/.test(client.connection.reason) && /credentials/.test(client.connection.reason), client.connection.reason);
    eq(fetches.calls, 1, "one stream request from the page");
    // status=401:1 fails only the first request: a retry would have opened the run.
    eq((await fetch(`/api/runs/${run}`)).status, 404, "no second request reached the server");
    client.close();
  },

  /** 500 three times: three retries with growing announced delays, then the stream opens. */
  async http_500_is_retried_with_growing_backoff(aw) {
    const run = runId("s500");
    const { client, states } = await faulty(aw, `scenario=quick&speed=0&run=${run}`, "status=500:3",
      { reconnect: { initialDelayMs: 30, maxDelayMs: 5_000, jitter: 0 } });
    const reasons = [];
    eq(client.connection.state, "closed", client.connection.reason);
    eq(states.filter((s) => s === "reconnecting").length, 3, `three retries: ${states}`);
    eq((await runInfo(run)).connections, 1, "the fourth request opened the stream");
    client.close();
    // The delays announced in the reasons ("…; reconnecting in N ms (attempt k)") grow.
    const c2 = started(new aw.AgentClient({ url: `/api/stream?scenario=quick&speed=0&run=${runId("s500b")}&faults=status=500:3`, reconnect: { initialDelayMs: 30, maxDelayMs: 5_000, jitter: 0 } }));
    c2.onConnectionChange((i) => { if (i.state === "reconnecting") reasons.push(i.reason); });
    await until(() => ended(c2), "end");
    const delays = reasons.map((r) => Number(r.match(/in (\d+) ms/)?.[1]));
    eq(delays.length, 3, `three announced delays: ${reasons}`);
    assert(delays[0] >= 30 && delays[1] > delays[0] && delays[2] > delays[1], `growing: ${delays}`);
    assert(reasons.every((r) => /HTTP 500/.test(r)), `reason names the status: ${reasons}`);
    c2.close();
    return delays.join(" → ") + " ms";
  },

  /** 429 with Retry-After: 1: the announced wait is at least the server's, not the 20 ms backoff. */
  async http_429_announces_and_waits_the_retry_after(aw) {
    const run = runId("s429");
    const reasons = [];
    const client = started(new aw.AgentClient({ url: `/api/stream?scenario=quick&speed=0&run=${run}&faults=status=429:1`, reconnect: FAST }));
    client.onConnectionChange((i) => { if (i.state === "reconnecting") reasons.push(i.reason); });
    await until(() => ended(client), "end");
    eq(client.connection.state, "closed", client.connection.reason);
    eq(reasons.length, 1, `one retry: ${reasons}`);
    assert(Number(reasons[0].match(/in (\d+) ms/)?.[1]) >= 1000, `waits Retry-After (1 s): ${reasons[0]}`);
    eq((await runInfo(run)).connections, 1, "then one stream");
    client.close();
  },

  /** 204: closed, and no second request ever reaches the server. */
  async http_204_is_one_request(aw) {
    const run = runId("s204");
    const fetches = meterFetch(run);
    let client;
    try {
      ({ client } = await faulty(aw, `scenario=quick&speed=0&run=${run}`, "status=204:1"));
      await sleep(1_000);
    } finally {
      fetches.restore();
    }
    eq(client.connection.state, "closed", client.connection.reason);
    eq(fetches.calls, 1, "one request");
    eq((await fetch(`/api/runs/${run}`)).status, 404, "no second request reached the server");
    client.close();
  },

  /**
   * One byte every 10 ms: the same events as the clean run, and the page is not kept busy:
   * one body read per byte at most, no timers created per byte, main thread mostly idle
   * (long tasks under half of the time).
   */
  async slow_drip_gives_the_same_events_without_a_busy_loop(aw) {
    const q = "scenario=bulk&events=6&seed=2&speed=0";
    const { text } = await cleanEvents(q);
    const ref = await reference(aw, q);
    const reads = meterReads();
    const st = window.setTimeout, si = window.setInterval;
    let timers = 0;
    window.setTimeout = function (...a) { timers++; return st.apply(this, a); };
    window.setInterval = function (...a) { timers++; return si.apply(this, a); };
    let long = 0, frames = 0, raf = true;
    const obs = new PerformanceObserver((l) => { for (const e of l.getEntries()) long += e.duration; });
    obs.observe({ type: "longtask" });
    const tick = () => { frames++; if (raf) requestAnimationFrame(tick); };
    requestAnimationFrame(tick);
    const t0 = performance.now();
    let client;
    try {
      client = started(new aw.AgentClient({ url: `/api/stream?${q}&faults=drip=10`, reconnect: FAST }));
      await endOf(client);
    } finally {
      reads.restore();
      window.setTimeout = st;
      window.setInterval = si;
      raf = false;
      obs.disconnect();
    }
    const elapsed = performance.now() - t0;
    eq(client.connection.state, "closed", client.connection.reason);
    sameState(client, ref, "same state as the clean run");
    assert(reads.bytes === text.length || reads.bytes >= text.length - 2, `every byte read: ${reads.bytes} of ${text.length}`);
    assert(reads.reads <= reads.bytes + 3, `${reads.reads} reads for ${reads.bytes} bytes (no spinning)`);
    assert(timers <= 3, `${timers} timers created while dripping`);
    assert(long < elapsed / 2, `long tasks ${Math.round(long)} ms of ${Math.round(elapsed)} ms`);
    client.close();
    ref.close();
    return `${reads.bytes} B in ${Math.round(elapsed)} ms: ${reads.reads} reads, ${timers} timers, long tasks ${Math.round(long)} ms, ${Math.round(frames / (elapsed / 1000))} frames/s`;
  },

  /**
   * A quiet server that sends `: hb` comments every 100 ms (the run waits for the user) is
   * alive: no reconnect with idleTimeoutMs 1500. The control run (heartbeats every 60 s) is
   * reconnected by idle detection — so the test would see a reconnect.
   */
  async comment_heartbeats_count_as_liveness(aw) {
    const watch = async (name, heartbeat) => {
      const run = runId(name);
      const client = started(new aw.AgentClient({
        url: `/api/stream?scenario=main&seed=3&speed=0&run=${run}&heartbeat=${heartbeat}`,
        idleTimeoutMs: 1_500, reconnect: FAST,
      }));
      const states = recordStates(client);
      await until(() => client.pendingInputs().length > 0, "the run waits for the approval");
      await sleep(4_000);
      const info = await runInfo(run);
      const seen = [...states];
      client.close();
      return { states: seen, info };
    };
    const alive = await watch("hb-alive", 100);
    eq(alive.states, ["connecting", "open"], `no reconnect while heartbeats arrive: ${alive.states}`);
    eq(alive.info.connections, 1, "one connection (server side)");
    const quiet = await watch("hb-quiet", 60_000);
    assert(quiet.states.includes("reconnecting"), `without heartbeats the idle timeout reconnects: ${quiet.states}`);
    assert(quiet.info.connections >= 2, `server saw the reconnect: ${quiet.info.connections}`);
    return `heartbeats: ${alive.states.join("→")}; none: ${quiet.states.join("→")}`;
  },

  /**
   * Every limit and the redaction list are options of the JavaScript constructors: a store with
   * maxToolsPerTask 1, maxHistoryPerTask 2 and maxRequestsPerTask 1 reports each limit once and
   * keeps what it allows; redactKeys replaces the default list (a custom key redacted, `token`
   * no longer), [] turns it off; a wrong type is an invalid-argument error.
   */
  async limits_and_redaction_are_javascript_options(aw) {
    const ev = (o) => `data: ${JSON.stringify({ contextId: "c", taskId: "t", timestamp: "2025-11-06T14:00:00Z", ...o })}\n\n`;
    const stream = [
      ev({ kind: "task-created", initiator: "user" }),
      ev({ kind: "task-status", status: "working" }),
      ev({ kind: "task-status", status: "waiting-input" }),
      ev({ kind: "task-status", status: "working" }),
      ev({ kind: "tool-start", toolCallId: "a", toolName: "one", arguments: {} }),
      ev({ kind: "tool-start", toolCallId: "b", toolName: "two", arguments: {} }),
      ev({ kind: "input-required", inputId: "i1", prompt: "ok?", inputType: "confirmation", requireUser: true }),
      ev({ kind: "input-required", inputId: "i2", prompt: "sure?", inputType: "confirmation", requireUser: true }),
      // A bad event carrying secrets: its diagnostic keeps the raw text, redacted.
      `data: {"kind":"content-delta","contextId":"c","taskId":"t","index":"x","delta":"d","timestamp":"2025-11-06T14:00:00Z","sessionNote":"hush","token":"tok-123","password":"pw-456"}\n\n`,
    ].join("");
    const store = new aw.AgentStore({ limits: { maxToolsPerTask: 1, maxHistoryPerTask: 2, maxRequestsPerTask: 1, dedupeWindow: 16 }, redactKeys: ["sessionNote", "password"] });
    store.feedText(stream);
    const snap = store.getSnapshot();
    const task = snap.tasks[0];
    eq(task.tools.map((t) => t.name), ["one"], "maxToolsPerTask: the second tool call is ignored");
    eq(task.history.map((h) => h.status), ["waiting-input", "working"], "maxHistoryPerTask: the oldest change dropped");
    eq(task.status, "working", "the status stays current");
    eq(task.inputs.map((i) => i.id), ["i1"], "maxRequestsPerTask: the second request is ignored");
    const limits = snap.diagnostics.filter((d) => d.code === "limit-exceeded");
    eq(limits.length, 3, `one limit-exceeded per limit: ${limits.map((d) => d.message)}`);
    eq(snap.diagnostics.map((d) => d.code).sort(), ["invalid-type", "limit-exceeded", "limit-exceeded", "limit-exceeded"], "nothing else reported");
    const bad = snap.diagnostics.find((d) => d.code === "invalid-type");
    assert(bad, `the bad event's diagnostic: ${JSON.stringify(snap.diagnostics)}`);
    assert(!bad.raw.includes("hush") && !bad.raw.includes("pw-456"), `custom keys redacted: ${bad.raw}`);
    assert(bad.raw.includes("[redacted]"), `shown as [redacted]: ${bad.raw}`);
    assert(bad.raw.includes("tok-123"), `the list replaced the default one (token not in it): ${bad.raw}`);
    store.free();
    const plain = new aw.AgentStore({ redactKeys: [] });
    plain.feedText(stream);
    assert(plain.getSnapshot().diagnostics.some((d) => (d.raw ?? "").includes("pw-456")), "[] turns redaction off");
    plain.free();
    const defaults = new aw.AgentStore();
    defaults.feedText(stream);
    const raw = defaults.getSnapshot().diagnostics.find((d) => d.code === "invalid-type").raw;
    assert(!raw.includes("tok-123") && !raw.includes("pw-456") && raw.includes("hush"), `default list: ${raw}`);
    defaults.free();
    const decoder = new aw.StreamDecoder({ redactKeys: ["sessionNote"] });
    const decoded = JSON.stringify(decoder.feed(new TextEncoder().encode(stream)));
    assert(!decoded.includes("hush") && decoded.includes("pw-456"), "StreamDecoder takes redactKeys too");
    for (const options of [{ redactKeys: "token" }, { redactKeys: [1] }, { limits: { maxToolsPerTask: -1 } }, { limits: { dedupeWindow: 1.5 } }]) {
      let code = null;
      try { new aw.AgentStore(options); } catch (e) { code = e.code; }
      eq(code, "invalid-argument", `${JSON.stringify(options)} is refused`);
    }
    return `${limits.length} limits; ${bad.raw.slice(0, 120)}`;
  },

  /**
   * Auth requests whose authUrl is `javascript:`, `data:text/html`, mixed case, a tab or a
   * leading space, `vbscript:`, plain http off localhost, protocol-relative (fault `evilAuth`):
   * authUrl() and openAuth() refuse each with code `unsafe-url` (window.open never called),
   * each is an `unsafe-url` diagnostic, and the run goes on to the clean run's other state.
   */
  async unsafe_auth_urls_javascript_data_and_lookalikes_are_refused(aw) {
    const q = "scenario=quick&seed=15&speed=0";
    const ref = await reference(aw, q);
    const open = window.open;
    let opened = 0;
    window.open = () => { opened++; return null; };
    let client;
    try {
      ({ client } = await faulty(aw, q, "evilAuth"));
      eq(client.connection.state, "closed", client.connection.reason);
      const evil = client.getSnapshot().tasks.flatMap((t) => t.auths).filter((a) => a.id.startsWith("evil-auth-"));
      eq(evil.length, 8, "the eight evil auth requests are kept (the app can show them)");
      const refused = [];
      for (const a of evil) {
        for (const call of [() => client.authUrl(a.id), () => client.openAuth(a.id)]) {
          let err = null;
          try { call(); } catch (e) { err = e; }
          if (err && err.code === "unsafe-url" && err.authId === a.id) refused.push(a.authUrl);
          else throw new Error(`${JSON.stringify(a.authUrl)} not refused: ${err}`);
        }
      }
      eq(opened, 0, "window.open never called");
      const unsafe = client.getSnapshot().diagnostics.filter((d) => d.code === "unsafe-url");
      eq(unsafe.length, 8, `one unsafe-url diagnostic each: ${JSON.stringify(client.getSnapshot().diagnostics)}`);
      assert(unsafe.every((d) => d.severity === "warning" && d.kind === "auth-required"), "warnings on auth-required");
      // A safe one still works (the clean run's own auth request, if any, is untouched).
      const tasks = (c) => c.getSnapshot().tasks.map((t) => ({ ...t, auths: t.auths.filter((a) => !a.id.startsWith("evil-auth-")) }));
      eq(tasks(client).map((t) => t.content), tasks(ref).map((t) => t.content), "the rest of the run intact");
      return `${refused.length / 2} URLs refused twice each`;
    } finally {
      window.open = open;
      if (client) client.close();
      ref.close();
    }
  },

  /**
   * The panic hook (src/browser/panic.rs), proved on the test-panic build: a deliberate panic
   * makes the call that hit it throw an `Error` with code `internal` (not a wasm trap), every
   * client is told (connection `failed`, code `internal`, its request aborted), every later
   * call is refused with the same typed error, close() stays harmless, and the page (and
   * another instance of the package) goes on working.
   */
  async panic_fails_every_client_with_internal_and_later_calls_are_refused(mainAw) {
    const aw = await panicInstance();
    const run = runId("panic");
    const live = started(new aw.AgentClient({ url: `/api/stream?scenario=main&seed=3&speed=0&run=${run}`, reconnect: FAST }));
    const manual = started(new aw.AgentClient({ transport: "manual" }));
    const store = new aw.AgentStore();
    await until(() => live.pendingInputs().length > 0, "the live run waits for the user");
    eq((await runInfo(run)).liveConnections, 1, "streaming");
    const told = [];
    live.onConnectionChange((i) => told.push(["live", i.state, i.code, i.reason]));
    manual.onConnectionChange((i) => told.push(["manual", i.state, i.code, i.reason]));

    const err = await thrown(() => aw.__triggerPanic("deliberate test panic (expected-by-test)"));
    assert(err instanceof Error && !(err instanceof WebAssembly.RuntimeError), `a JS Error, not a trap: ${err}`);
    eq([err.name, err.code], ["AgentwireError", "internal"], "typed");
    assert(err.message.includes("deliberate test panic"), `quotes the panic: ${err.message}`);

    await until(() => told.length === 2, "both clients told");
    eq(told.map((t) => t.slice(0, 3)).sort(), [["live", "failed", "internal"], ["manual", "failed", "internal"]], "connection failed/internal");
    assert(told.every((t) => t[3].includes("deliberate test panic")), `reason quotes the panic: ${told[0][3]}`);
    eq([live.connection.state, live.connection.code], ["failed", "internal"], "client.connection");
    const n = await assertRefused(aw, live, store);

    live.close(); // harmless after a panic
    manual.close();
    let info = await runInfo(run);
    for (let i = 0; i < 100 && info.liveConnections > 0; i++) { await sleep(50); info = await runInfo(run); }
    eq(info.liveConnections, 0, "the live request was aborted (server side)");
    // The page survives: frames run, and the page's other instance of the package still works.
    await new Promise((r) => requestAnimationFrame(r));
    const other = started(new mainAw.AgentClient({ transport: "manual" }));
    other.store.pushEvent({ kind: "task-created", contextId: "c", taskId: "t", timestamp: "2025-11-06T10:30:00Z", initiator: "user" });
    eq(other.getSnapshot().tasks.length, 1, "another instance unaffected");
    other.close();
    return `${n} entry points refused; reason: ${told[0][3].split("\n")[0]}…`;
  },

  /**
   * A panic inside a spawned task (where the transports run, no JS caller to throw to): the
   * app still learns it from onConnectionChange (failed/internal) and the page's error event
   * carries the typed error; later calls are refused.
   */
  async panic_in_a_background_task_is_reported_to_the_app(mainAw) {
    const aw = await panicInstance();
    const client = started(new aw.AgentClient({ url: "/api/stream?scenario=main&seed=3&speed=0", reconnect: FAST }));
    await until(() => client.pendingInputs().length > 0, "the run waits for the user");
    const errors = [];
    const onError = (e) => { errors.push(e.error); e.preventDefault(); };
    window.addEventListener("error", onError);
    const told = [];
    client.onConnectionChange((i) => told.push(i));
    try {
      aw.__triggerPanicLater("deliberate background panic (expected-by-test)", 20);
      await until(() => told.length > 0 && errors.length > 0, "the report and the error event");
    } finally {
      window.removeEventListener("error", onError);
    }
    eq([told[0].state, told[0].code], ["failed", "internal"], "connection failed/internal");
    eq([errors[0]?.name, errors[0]?.code], ["AgentwireError", "internal"], `the error event carries the typed error: ${errors[0]}`);
    await assertRefused(aw, client, client.store);
    client.close();
    eq(new mainAw.AgentStore().getSnapshot().tasks.length, 0, "another instance unaffected");
  },

  /**
   * A method of one class called with an object of another class as `this` (wasm-bindgen does
   * not check the class of `this`: the Rust side read the other object's memory as its own).
   * It must be a typed invalid-argument error, never a panic (which stopped the whole module)
   * nor a read or write of the other object's memory (a hang, a corrupted decoder).
   */
  async hostile_wrong_this_from_another_class_is_an_error_not_a_panic(_aw) {
    const { aw } = await freshInstance();
    const T = "2025-11-06T10:30:00Z";
    const created = `event: task-created\ndata: {"kind":"task-created","contextId":"c","taskId":"t","initiator":"user","timestamp":"${T}"}\n\n`;
    const client = started(new aw.AgentClient({ transport: "manual" }));
    const store = new aw.AgentStore();
    const decoder = new aw.StreamDecoder();
    const it = client.events();
    const getSnapshot = store.getSnapshot;
    const calls = {
      "AgentStore.getSnapshot on an AgentClient": () => aw.AgentStore.prototype.getSnapshot.call(client),
      "AgentStore.feedText on an AgentClient": () => aw.AgentStore.prototype.feedText.call(client, created),
      "AgentClient.pendingInputs on an AgentStore": () => aw.AgentClient.prototype.pendingInputs.call(store),
      "StreamDecoder.feed on an AgentStore": () => aw.StreamDecoder.prototype.feed.call(store, new TextEncoder().encode(created)),
      "AgentStore.close on a StreamDecoder": () => aw.AgentStore.prototype.close.call(decoder),
      "EventStream.next on an AgentStore": () => Object.getPrototypeOf(it).next.call(store),
    };
    const wrong = [];
    for (const [name, f] of Object.entries(calls)) {
      const e = await Promise.race([thrown(f), sleep(1000).then(() => "hung")]);
      if (!(e instanceof aw.AgentwireError) || e.code !== "invalid-argument") wrong.push(`${name}: ${e === "hung" ? "hung" : e ? `${e.name} ${e.code} ${e.message.slice(0, 90)}` : "no error"}`);
    }
    const alive = await thrown(() => new aw.AgentStore().feedText(created));
    eq(alive && `${alive.code} ${alive.message.slice(0, 60)}`, null, "the module still works");
    eq(wrong, [], "each call refused with invalid-argument");
    eq(getSnapshot().version, store.getSnapshot().version, "an unbound method works (bound to its object)");
    eq(decoder.feed(new TextEncoder().encode(created)).map((d) => d.event?.kind ?? d.diagnostic.code), ["task-created"], "the decoder intact");
    store.feedText(created);
    eq(store.getSnapshot().tasks.length, 1, "the store intact");
    client.close();
  },

  /**
   * An id that is not a string (the event object instead of its inputId, a number): a typed
   * invalid-argument error, not `RuntimeError: memory access out of bounds` (wasm-bindgen's
   * glue handed the allocator a pointer it never allocated).
   */
  async hostile_non_string_ids_are_invalid_argument_errors_not_wasm_traps(_aw) {
    const { aw } = await freshInstance();
    const store = new aw.AgentStore();
    const client = started(new aw.AgentClient({ transport: "manual" }));
    const decoder = new aw.StreamDecoder();
    const event = { kind: "input-required", inputId: "i1" };
    const calls = {
      "store.task(42)": () => store.task(42),
      "store.artifact({})": () => store.artifact({}),
      "store.feedText(123)": () => store.feedText(123),
      "store.on(5, fn)": () => store.on(5, () => {}),
      "client.approve(event)": () => client.approve(event),
      "client.cancel(42)": () => client.cancel(42),
      "client.authUrl(true)": () => client.authUrl(true),
      "decoder.lastEventId = 5": () => { decoder.lastEventId = 5; },
      "store.feedText(Symbol())": () => store.feedText(Symbol("x")),
    };
    const wrong = [];
    for (const [name, f] of Object.entries(calls)) {
      const e = await thrown(f);
      if (!(e instanceof aw.AgentwireError) || e.code !== "invalid-argument") wrong.push(`${name}: ${e ? `${e.constructor.name} ${e.code} ${e.message.slice(0, 60)}` : "no error"}`);
    }
    client.close();
    eq(wrong, [], "each call refused with invalid-argument");
  },

  /**
   * `feed` takes bytes: an ArrayBuffer (`await res.arrayBuffer()`, a binary WebSocket message)
   * or a DataView was silently fed as nothing, a string as NUL bytes, a Uint16Array as its
   * elements cut to 8 bits. Each is either read as its bytes or refused with invalid-argument.
   */
  async hostile_feed_never_silently_drops_or_mangles_non_uint8array_input(aw) {
    const T = "2025-11-06T10:30:00Z";
    const text = `event: task-created\ndata: {"kind":"task-created","contextId":"c","taskId":"t","initiator":"user","timestamp":"${T}","prompt":"\u00e9t\u00e9"}\n\n`;
    const bytes = () => new TextEncoder().encode(text);
    const inputs = {
      ArrayBuffer: () => bytes().buffer,
      DataView: () => new DataView(bytes().buffer),
      string: () => text,
      Uint16Array: () => Uint16Array.from(text, (ch) => ch.charCodeAt(0)),
      "{length: -1}": () => ({ length: -1 }),
      "number[]": () => [...bytes()],
    };
    // What the types or the docs promise to read: never refused.
    const mustRead = new Set(["ArrayBuffer", "DataView", "number[]"]);
    const wrong = [];
    for (const [name, make] of Object.entries(inputs)) {
      for (const [what, feed, expected] of [
        ["AgentStore", (x) => { const s = new aw.AgentStore(); s.feed(x); return [...s.getSnapshot().tasks.map((t) => t.id), ...s.diagnostics().map((d) => d.code)]; }, ["t"]],
        ["StreamDecoder", (x) => new aw.StreamDecoder().feed(x).map((d) => d.event?.prompt ?? d.diagnostic.code), ["\u00e9t\u00e9"]],
      ]) {
        let got;
        try { got = feed(make()); } catch (e) { got = e; }
        const ok = got instanceof aw.AgentwireError ? got.code === "invalid-argument" && !mustRead.has(name) : JSON.stringify(got) === JSON.stringify(expected);
        if (!ok) wrong.push(`${what}.feed(${name}): ${got instanceof Error ? `${got.constructor.name} ${got.code} ${got.message.slice(0, 50)}` : JSON.stringify(got)}`);
      }
    }
    eq(wrong, [], "read as bytes or refused, never silently dropped");
  },

  /**
   * A handler or listener that is not a function (`store.on("tool-start")` without one, a
   * string): refused when registered with invalid-argument, instead of being kept and making
   * every later feed throw (or, for a client, a page error on every event and at close).
   */
  async hostile_callbacks_that_are_not_functions_are_refused_when_registered(aw) {
    const T = "2025-11-06T10:30:00Z";
    const ev = { kind: "task-created", contextId: "c", taskId: "t", initiator: "user", timestamp: T };
    const store = new aw.AgentStore();
    const client = started(new aw.AgentClient({ transport: "manual" }));
    const calls = {
      "store.on('*')": () => store.on("*"),
      "store.on('*', 5)": () => store.on("*", 5),
      "store.onAny('x')": () => store.onAny("x"),
      "store.subscribeEvents({}, null)": () => store.subscribeEvents({}, null),
      "store.subscribe('x')": () => store.subscribe("x"),
      "client.on('*', {})": () => client.on("*", {}),
      "client.onConnectionChange('x')": () => client.onConnectionChange("x"),
    };
    const wrong = [];
    for (const [name, f] of Object.entries(calls)) {
      const e = await thrown(f);
      if (!(e instanceof aw.AgentwireError) || e.code !== "invalid-argument") wrong.push(`${name}: ${e ? `${e.constructor.name} ${e.code} ${e.message.slice(0, 60)}` : "accepted"}`);
    }
    const later = await thrown(() => { store.pushEvent(ev); client.store.pushEvent(ev); client.close(); });
    eq(wrong, [], "refused when registered");
    eq(later && `${later.name}: ${later.message}`, null, "later feeds do not throw");
    eq([store.listenerCount, store.getSnapshot().tasks.length], [0, 1], "nothing kept, the event applied");
  },

  /**
   * `headers` given as a `Headers` object (what fetch takes): its entries were silently dropped
   * (Object.keys of a Headers is empty), so an `Authorization` header never went out.
   */
  /** advanceClock with a time that is no finite number: refused, not read as 0 or the end of time. */
  async hostile_advance_clock_refuses_what_is_not_a_time(aw) {
    const T = "2025-11-06T10:30:00Z";
    const store = new aw.AgentStore();
    store.pushEvent({ kind: "task-created", contextId: "c", taskId: "t", initiator: "user", timestamp: T });
    store.pushEvent({ kind: "input-required", contextId: "c", taskId: "t", inputId: "i", requireUser: true,
      inputType: "confirmation", prompt: "ok?", metadata: { timeout: 60 }, timestamp: T });
    const codes = [];
    for (const t of [NaN, Infinity, -Infinity, "soon", undefined]) {
      try { store.advanceClock(t); codes.push("accepted"); } catch (e) { codes.push(e.code); }
    }
    eq(codes, Array(5).fill("invalid-argument"), "non-finite times");
    eq(store.pendingInputs().map((i) => i.state), ["open"], "the request did not expire");
    store.advanceClock(Date.parse(T) + 61_000);
    eq(store.pendingInputs().length, 0, "a real time still expires it");
  },

  async hostile_headers_given_as_a_headers_object_are_sent(aw) {
    const seen = [];
    const orig = globalThis.fetch;
    globalThis.fetch = function (req, init) {
      if (req instanceof Request) seen.push(req.headers.get("x-hostile"));
      return orig.call(this, req, init);
    };
    let c;
    try {
      c = started(new aw.AgentClient({ url: "/api/stream?scenario=quick&speed=0", headers: new Headers({ "X-Hostile": "yes" }) }));
      await until(() => ended(c), "the run");
    } finally {
      globalThis.fetch = orig;
      if (c) c.close();
    }
    assert(seen.length >= 1, "a request went out");
    eq(seen, seen.map(() => "yes"), "the header on the stream request");
  },
};
