// The browser soak (issue 8): long accelerated sessions against the scenario server's `bulk`
// scenario (speed 0: as fast as the page takes it) with the connection cut every few thousand
// events (fault dropEvery), and connect/close cycles, with wasm memory, the JS heap (after a
// full GC) and the wasm-bindgen reference table sampled along the way.
//
// `tests` (run by default by scripts/e2e-tests.sh): the short soak, ~1 minute.
// `longTests` (scripts/e2e-tests.sh --soak): 1,000,000 events in one session, 1,000,000 more over
// five sessions, 1,000 connect/close cycles; prints the curves (several minutes).

import { sleep, assert, eq, until, ended, runInfo } from "./client.test.js";
import { freshInstance, jsHeap } from "./hostile.test.js";
/** A client connecting now (constructors do no I/O: start() connects). */
const started = (c) => { c.start(); return c; };

const uid = Math.random().toString(36).slice(2, 8);
const MiB = 1 << 20;
const mb = (n) => (n / MiB).toFixed(1);

async function sample(wasm, label) {
  return {
    label,
    wasm: wasm.memory.buffer.byteLength,
    heap: await jsHeap(),
    refs: wasm.__wbindgen_externrefs ? wasm.__wbindgen_externrefs.length : NaN,
  };
}

const row = (s) => `${String(s.label).padStart(10)}  wasm ${mb(s.wasm).padStart(6)} MiB  JS heap ${mb(s.heap).padStart(6)} MiB  refs ${s.refs}`;

/**
 * One bulk session of `events` events, cut every `dropEvery` events, with a UI-like consumer
 * (per-frame snapshots). Samples memory every `every` events; checks the final state.
 */
async function session(aw, wasm, { events, dropEvery, seed, every, log }) {
  const run = `soak-${uid}-${seed}-${events}`;
  const client = started(new aw.AgentClient({
    url: `/api/stream?scenario=bulk&events=${events}&seed=${seed}&speed=0&retry=10&run=${run}&faults=dropEvery=${dropEvery}`,
    reconnect: { initialDelayMs: 10, maxDelayMs: 100, jitter: 0, maxAttempts: 20 },
    batch: "frame",
  }));
  let frames = 0, shownTasks = 0;
  const stop = client.subscribe((snap) => { frames++; shownTasks = snap.tasks.length; });
  const curve = [];
  let next = every;
  const t0 = performance.now();
  while (!ended(client)) {
    await sleep(100);
    const at = Number(client.store.lastEventId || 0) + 1;
    if (at >= next || ended(client)) {
      const s = await sample(wasm, at);
      curve.push(s);
      if (log) console.log(row(s));
      while (next <= at) next += every;
    }
  }
  const ms = performance.now() - t0;
  eq(client.connection.state, "closed", client.connection.reason);
  // Memory holding the whole run's state, before the check below (stateJson() builds the whole
  // state as one JSON string in wasm memory, which raises the high-water mark on its own).
  const streamed = await sample(wasm, "streamed");
  const state = JSON.parse(client.store.stateJson());
  eq(state.stats.eventsApplied, events, "every event applied once");
  eq(state.diagnostics.length, 0, "no diagnostics");
  const roots = state.tasks.filter((t) => !t.parentId);
  eq(roots.length, 1, "one root");
  assert(state.tasks.every((t) => t.status === "completed"), "every task completed");
  const content = state.tasks.reduce((n, t) => n + t.content.length, 0);
  const info = await runInfo(run);
  assert(info.connections >= Math.floor(events / dropEvery), `cut every ${dropEvery}: ${info.connections} connections`);
  eq(info.liveConnections, 0, "no request left open");
  stop();
  client.close();
  eq(client.listenerCount, 0, "no listener left");
  return { curve, streamed, ms, tasks: state.tasks.length, connections: info.connections, content, frames, shownTasks };
}

/**
 * `cycles` connect/close cycles (fetch, EventSource and WebSocket in turn), each with a
 * snapshot subscriber, an event handler, a state listener and an event iterator, closed while
 * the stream is live. Every cycle gets the same events: the run (`main`, speed 0) is first
 * brought to its approval, where it waits (heartbeats), so each connection replays the same
 * backlog and stays open. Counts listeners, timers and server connections; samples memory.
 */
async function cycles(aw, wasm, n, log) {
  const run = `cycles-${uid}-${n}`;
  const ws = `${location.origin.replace(/^http/, "ws")}/api/ws?scenario=main&seed=5&speed=0&run=${run}-ws`;
  const url = `/api/stream?scenario=main&seed=5&speed=0&run=${run}`;
  for (const [u, transport] of [[url, "fetch"], [ws, "websocket"]]) {
    const c = started(new aw.AgentClient({ url: u, transport }));
    await until(() => c.pendingInputs().length > 0, "the run waits for its approval", 30_000);
    c.close();
  }
  const st = window.setTimeout, ct = window.clearTimeout, si = window.setInterval, ci = window.clearInterval;
  const live = new Set();
  window.setTimeout = function (f, ms, ...a) {
    const id = st.call(this, (...x) => { live.delete(id); return typeof f === "function" ? f(...x) : undefined; }, ms, ...a);
    live.add(id);
    return id;
  };
  window.clearTimeout = function (id) { live.delete(id); return ct.call(this, id); };
  window.setInterval = function (...a) { const id = si.apply(this, a); live.add(id); return id; };
  window.clearInterval = function (id) { live.delete(id); return ci.call(this, id); };
  const curve = [];
  const leftovers = [];
  let events = 0, perCycle = null;
  try {
    curve.push(await sample(wasm, 0));
    for (let i = 1; i <= n; i++) {
      const transport = ["fetch", "eventsource", "websocket"][i % 3];
      const client = started(new aw.AgentClient({ url: transport === "websocket" ? ws : url, transport }));
      client.subscribe(() => {});
      let seen = 0;
      client.on("*", () => { seen++; });
      client.onConnectionChange(() => {});
      const it = client.events();
      await until(() => client.pendingInputs().length > 0 || ended(client), "the backlog up to the approval", 30_000);
      assert(!ended(client), `cycle ${i} (${transport}) still live: ${client.connection.reason}`);
      assert(client.listenerCount >= 4, "listeners registered");
      client.close();
      if (client.listenerCount !== 0) leftovers.push(`cycle ${i}: ${client.listenerCount}`);
      eq((await it.next()).done, true, "the iterator ended with close()");
      if (perCycle === null) perCycle = seen;
      assert(Math.abs(seen - perCycle) <= 3, `about the same events every cycle: ${seen} vs ${perCycle}`);
      events += seen;
      // Closed clients are freed by wasm-bindgen's FinalizationRegistry once garbage: collect
      // every 10 cycles so the wasm high-water mark measures leaks, not GC timing.
      if (i % 10 === 0 && typeof gc === "function") { gc(); await sleep(0); }
      if (i % Math.max(1, n / 10) === 0) {
        const s = await sample(wasm, i);
        s.timers = live.size;
        curve.push(s);
        if (log) console.log(`${row(s)}  live timers ${live.size}`);
      }
    }
  } finally {
    window.setTimeout = st;
    window.clearTimeout = ct;
    window.setInterval = si;
    window.clearInterval = ci;
  }
  eq(leftovers, [], "listenerCount 0 after every close()");
  // The server: every request ended (SSE runs and the WebSocket run).
  let sse = await runInfo(run), sock = await runInfo(`${run}-ws`);
  for (let i = 0; i < 100 && sse.liveConnections + sock.liveConnections > 0; i++) {
    await sleep(50);
    sse = await runInfo(run);
    sock = await runInfo(`${run}-ws`);
  }
  eq(sse.liveConnections + sock.liveConnections, 0, "no connection left open (server side)");
  eq(sse.connections + sock.connections, n + 2, "one connection per cycle");
  return { curve, events, timers: live.size };
}

/** Memory stops growing: the last sample is within `slack` of the one at `from` (fraction of the run). */
function assertPlateau(curve, key, from, slack, what) {
  const f = key === "refs" ? String : (n) => `${mb(n)} MiB`;
  const base = curve[Math.floor((curve.length - 1) * from)];
  const last = curve[curve.length - 1];
  const max = Math.max(...curve.slice(curve.indexOf(base)).map((s) => s[key]));
  assert(max - base[key] <= slack, `${what}: ${f(base[key])} at ${base.label} → max ${f(max)} (slack ${f(slack)})`);
  return `${f(base[key])} → ${f(last[key])}`;
}

/**
 * Sessions one after another in one instance (each closed before the next): once the first
 * one has grown the memory, the others reuse it. Returns the per-session samples.
 */
async function sessionsPlateau(sessions, events, dropEvery, log) {
  const { aw, wasm } = await freshInstance();
  const after = [await sample(wasm, "start")];
  for (let k = 1; k <= sessions; k++) {
    const r = await session(aw, wasm, { events, dropEvery, seed: 100 + k, every: events, log: false });
    const s = await sample(wasm, `session ${k}`);
    after.push(s);
    if (log) console.log(`${row(s)}  (${r.connections} connections, ${r.tasks} tasks, ${Math.round(r.ms)} ms)`);
  }
  // From the second session on: wasm memory does not grow, the JS heap stays within 2 MiB.
  const wasmFlat = assertPlateau(after.slice(1), "wasm", 0, 64 * 1024, "wasm memory after each session");
  const heapFlat = assertPlateau(after.slice(1), "heap", 0, 2 * MiB, "JS heap after each session");
  const refs = assertPlateau(after.slice(1), "refs", 0, 64, "reference table");
  return `${sessions} × ${events} events, after each session: wasm ${wasmFlat}, JS heap ${heapFlat}, refs ${refs}`;
}

/** One long session: memory grows with the retained state only (bytes per retained char flat). */
async function oneSession(events, dropEvery, every, log) {
  const { aw, wasm } = await freshInstance();
  const start = await sample(wasm, "start");
  if (log) console.log(row(start));
  const r = await session(aw, wasm, { events, dropEvery, seed: 42, every, log });
  const end = await sample(wasm, "end");
  // Retained state grows linearly with the events (about 90% are answer deltas, all kept), so
  // memory must grow linearly too: the growth per event over the second half is no more than
  // 1.5 × the first half's (no leak per event or per reconnect on top of the state).
  const c = r.curve;
  const mid = c[Math.floor(c.length / 2)], last = c[c.length - 1], first = c[0];
  const rate = (a, b) => (b.wasm - a.wasm) / Math.max(1, b.label - a.label);
  const early = rate(first, mid), late = rate(mid, last);
  assert(late <= 1.5 * early + 8, `wasm bytes per event: first half ${early.toFixed(1)}, second half ${late.toFixed(1)}`);
  // Everything the session held is given back to the allocator: a second identical session in
  // the same instance needs no new wasm memory.
  const r2 = await session(aw, wasm, { events, dropEvery, seed: 42, every: events, log: false });
  const again = await sample(wasm, "again");
  assert(again.wasm <= end.wasm + 64 * 1024, `second session grew wasm memory: ${mb(end.wasm)} → ${mb(again.wasm)} MiB`);
  assert(again.heap <= end.heap + 4 * MiB, `JS heap after the second session: ${mb(end.heap)} → ${mb(again.heap)} MiB`);
  const perEvent = (r.streamed.wasm - start.wasm) / events;
  return `${events} events in ${Math.round(r.ms / 1000)} s (${Math.round(events / (r.ms / 1000))}/s), ${r.connections} connections, ` +
    `${r.tasks} tasks completed, ${(r.content / 1e6).toFixed(1)} M chars kept; wasm ${mb(start.wasm)} → ${mb(r.streamed.wasm)} MiB ` +
    `streamed (${perEvent.toFixed(1)} B/event; ${early.toFixed(1)} → ${late.toFixed(1)} B/event first/second half), ` +
    `${mb(end.wasm)} MiB after the stateJson() check; JS heap ${mb(start.heap)} → ${mb(r.streamed.heap)} MiB streamed, ` +
    `${mb(end.heap)} MiB closed; refs ${start.refs} → ${end.refs}; an identical second session: wasm ${mb(again.wasm)} MiB, ` +
    `JS heap ${mb(again.heap)} MiB (${Math.round(r2.ms / 1000)} s); ${r.frames} frames rendered`;
}

async function cyclesPlateau(n, log) {
  const { aw, wasm } = await freshInstance();
  const r = await cycles(aw, wasm, n, log);
  const c = r.curve;
  // After the first tenth (allocator and caches warm), memory and references stay flat.
  const w = assertPlateau(c, "wasm", 0.2, 1 * MiB, "wasm memory over the cycles");
  const h = assertPlateau(c, "heap", 0.2, 1 * MiB, "JS heap over the cycles");
  const refs = assertPlateau(c, "refs", 0.2, 64, "reference table over the cycles");
  assert(r.timers <= 1, `${r.timers} timers still pending after the last close()`);
  return `${n} cycles (fetch/EventSource/WebSocket), ${r.events} events handled: listeners 0 after each close, ` +
    `${r.timers} live timers; from the first fifth on: wasm ${w}, JS heap ${h}, refs ${refs}`;
}

export const tests = {
  /** Short: 100,000 events in one session, cut every 5,000 (20 resumes), 1,000 tasks. */
  async soak_short_session_memory_grows_with_the_state_only() {
    return oneSession(100_000, 5_000, 10_000, false);
  },
  /** Short: 4 × 50,000 events, each session closed before the next: memory plateaus. */
  async soak_short_sessions_memory_plateaus() {
    return sessionsPlateau(4, 50_000, 5_000, false);
  },
  /** Short: 100 connect/close cycles: no listener, timer, connection or memory left behind. */
  async soak_short_connect_close_cycles_leave_nothing_behind() {
    return cyclesPlateau(100, false);
  },
};

export const longTests = {
  /** 1,000,000 events in one session, cut every 5,000 events (200 resumes), 9,091 tasks. */
  async soak_long_session_1m_events() {
    return oneSession(1_000_000, 5_000, 50_000, true);
  },
  /** 5 × 200,000 events (1,000,000), each session closed before the next: memory plateaus. */
  async soak_long_sessions_1m_events_plateau() {
    return sessionsPlateau(5, 200_000, 5_000, true);
  },
  /** 1,000 connect/close cycles. */
  async soak_long_1000_connect_close_cycles() {
    return cyclesPlateau(1_000, true);
  },
};
