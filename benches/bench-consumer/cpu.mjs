#!/usr/bin/env node
// CPU time per run, by thread, read from Linux /proc (schedstat: nanoseconds actually spent on a
// CPU). Wall-clock medians on a shared 2-core machine mostly measure the other processes; the
// CPU time of the page's main thread and of its Web Workers does not grow when
// the run is preempted, so it compares builds and consumers under load, and it is the
// "main-thread milliseconds" the Worker mode is about. scripts/bench.sh copies this file into its
// copy of the harness (with driver.mjs as aw-driver.mjs,
// so `playwright-core`, `esbuild` and `./server.mjs` resolve) and runs:
//
//   node aw-cpu.mjs --preset medium[,large] [--runs 5] [--paths mem,net] [--json out.json]
//                   [--ref js-reference] --consumer /abs/agentwire-snapshot.mjs --consumer ...
//
// One page per preset; every consumer registered once (wasm instantiated untimed); one warm-up
// round, then `--runs` interleaved rounds (A B C … A B C …) of the harness's own
// `window.bench.run`. Per run: wall ms (as the harness reports it), main-thread CPU ms, worker
// threads' CPU ms, the whole renderer's CPU ms (GC helpers, compiler threads included), and the
// long tasks the page saw. Table: medians, and main-thread CPU ÷ the reference's.
import fs from 'node:fs';
import path from 'node:path';
import { HERE, parseArgs, start, median, f1 } from './aw-driver.mjs';

const args = parseArgs();
const presets = (args.preset || 'medium').split(',');
const paths = (args.paths || 'mem').split(',');
const RUNS = Number(args.runs || 5);
const REF = args.ref || 'js-reference';

// ---- /proc: the renderer processes under this node process, CPU ns per thread class ----------
function children(pid) {
  const out = [];
  for (const t of fs.readdirSync(`/proc/${pid}/task`)) {
    try { out.push(...fs.readFileSync(`/proc/${pid}/task/${t}/children`, 'utf8').split(' ').filter(Boolean).map(Number)); } catch { /* gone */ }
  }
  return out;
}
function descendants(pid) {
  const all = [];
  const todo = [pid];
  while (todo.length) { const p = todo.pop(); for (const c of children(p)) { all.push(c); todo.push(c); } }
  return all;
}
function renderers() {
  return descendants(process.pid).filter((p) => {
    try { return fs.readFileSync(`/proc/${p}/cmdline`, 'utf8').includes('--type=renderer'); } catch { return false; }
  });
}
/** CPU ns of every thread of the renderers: Map tid → { ns, kind: 'main' | 'worker' | 'other' }. */
function threads(pids) {
  const m = new Map();
  for (const pid of pids) {
    let tasks;
    try { tasks = fs.readdirSync(`/proc/${pid}/task`); } catch { continue; }
    for (const t of tasks) {
      try {
        const ns = Number(fs.readFileSync(`/proc/${pid}/task/${t}/schedstat`, 'utf8').split(' ')[0]);
        const comm = fs.readFileSync(`/proc/${pid}/task/${t}/comm`, 'utf8').trim();
        // the main thread's id is the process id; Worker threads are "DedicatedWorker thread"
        const kind = t === String(pid) ? 'main' : comm.startsWith('DedicatedWorker') ? 'worker' : 'other';
        m.set(`${pid}/${t}`, { ns, kind });
      } catch { /* thread ended */ }
    }
  }
  return m;
}

/**
 * Measures the CPU time the threads that exist when it starts spend until `stop()`: polled every
 * 5 ms, so a thread that ends meanwhile (a closed Worker) still counts up to its last sample;
 * threads started during the run (e.g. the next run's Worker warming up) are left out.
 */
function cpuMeter(pids) {
  const start = threads(pids);
  const last = new Map([...start].map(([k, v]) => [k, v.ns]));
  const poll = () => { for (const [k, v] of threads(pids)) if (last.has(k)) last.set(k, v.ns); };
  const timer = setInterval(poll, 5);
  return () => {
    clearInterval(timer);
    poll();
    const r = { main: 0, worker: 0, all: 0 };
    for (const [k, v] of start) {
      const d = last.get(k) - v.ns;
      r.all += d;
      if (v.kind === 'main') r.main += d;
      else if (v.kind === 'worker') r.worker += d;
    }
    return r;
  };
}

// The reference is the harness's own consumer module, loaded like the plug-ins.
const sources = [...(REF === 'none' ? [] : [path.join(HERE, 'page/consumers', `${REF}.js`)]), ...args.consumer];
const { ext, server, browser } = await start(sources, 'aw-cpu');

// In the page: the consumers, the stream, and one run = exactly the harness's timed region
// (mem: 64 KiB subarray pushes; net: fetch + reader, or the consumer's consumeUrl), nothing else.
const PAGE_SETUP = async (urls) => {
  const lt = [];
  new PerformanceObserver((l) => { for (const e of l.getEntries()) lt.push({ start: e.startTime, dur: e.duration }); })
    .observe({ type: 'longtask', buffered: true });
  const cs = [];
  for (const u of urls) {
    let m = await import(u);
    if (m.default && typeof m.default === 'object') m = { ...m, ...m.default };
    if (typeof m.init === 'function') await m.init();
    cs.push(m);
  }
  window.__aw = {
    names: cs.map((m) => m.name),
    paths: cs.map((m) => m.paths || (typeof m.createConsumer === 'function' ? ['mem', 'net'] : ['net'])),
    async load(preset) { window.__aw.buf = new Uint8Array(await (await fetch(`/data/${preset}.sse`)).arrayBuffer()); },
    async gc() { if (globalThis.gc) { gc(); await new Promise((r) => setTimeout(r, 0)); gc(); } await new Promise((r) => setTimeout(r, 20)); },
    async run(i, path, preset) {
      const c = cs[i];
      const buf = window.__aw.buf;
      const t0 = performance.now();
      let s;
      if (path === 'mem') {
        const k = c.createConsumer();
        for (let off = 0; off < buf.length; off += 65536) k.push(buf.subarray(off, Math.min(off + 65536, buf.length)));
        s = await k.finish();
      } else if (typeof c.consumeUrl === 'function') {
        s = await c.consumeUrl(`/stream/${preset}.sse`);
      } else {
        const reader = (await fetch(`/stream/${preset}.sse`)).body.getReader();
        const k = c.createConsumer();
        for (;;) { const { done, value } = await reader.read(); if (done) break; k.push(value); }
        s = await k.finish();
      }
      const t1 = performance.now();
      await new Promise((r) => setTimeout(r, 60)); // the long-task observer delivers late
      const mine = lt.filter((e) => e.start + e.dur > t0 && e.start < t1);
      lt.length = 0;
      const events = s && (s.events ?? (s.tasks instanceof Map ? -1 : undefined));
      return { ms: t1 - t0, longTasks: mine.length, longMax: mine.reduce((m, e) => Math.max(m, e.dur), 0), events };
    },
  };
  return { names: window.__aw.names, supported: window.__aw.paths };
};

const out = { date: new Date().toISOString(), runs: RUNS, presets: {} };
try {
  for (const preset of presets) {
    const page = await browser.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    await page.goto(server.url + '/');
    await page.waitForFunction(() => window.bench && window.bench.ready);
    const { names, supported } = await page.evaluate(PAGE_SETUP, ext.map((e) => e.url));
    await page.evaluate((p) => window.__aw.load(p), preset);
    const pids = renderers();
    const rows = [];
    for (const p of paths) {
      const samples = names.map(() => []);
      for (let round = 0; round <= RUNS; round++) {
        for (let i = 0; i < names.length; i++) {
          if (!supported[i].includes(p)) continue;
          await page.evaluate(() => window.__aw.gc());
          const stop = cpuMeter(pids);
          const r = await page.evaluate(([i, p, preset]) => window.__aw.run(i, p, preset), [i, p, preset]);
          const cpu = stop();
          if (round === 0) continue; // warm-up
          samples[i].push({ ms: r.ms, main: cpu.main / 1e6, worker: cpu.worker / 1e6,
            all: cpu.all / 1e6, longTasks: r.longTasks, longMax: r.longMax });
        }
      }
      names.forEach((name, i) => {
        const s = samples[i];
        if (!s.length) return;
        rows.push({ consumer: name, path: p, preset, ms: median(s.map((x) => x.ms)), mainMs: median(s.map((x) => x.main)),
          mainMinMs: Math.min(...s.map((x) => x.main)),
          workerMs: median(s.map((x) => x.worker)), rendererMs: median(s.map((x) => x.all)),
          longTasks: median(s.map((x) => x.longTasks)), longMax: Math.max(...s.map((x) => x.longMax)), raw: s });
      });
    }
    await page.close();
    const events = JSON.parse(fs.readFileSync(path.join(HERE, 'data', `${preset}.expected.json`), 'utf8')).native.events;
    console.log(`\n[cpu] ${preset} (${events.toLocaleString('en-US')} events): 1 warm-up + ${RUNS} interleaved rounds, medians; ` +
      'CPU = time on a CPU (/proc schedstat), the 60 ms long-task wait after each run included');
    console.log('| consumer | path | wall ms | main-thread CPU ms (min) | × ref (main CPU; of mins) | main-thread ms per 100k events | worker CPU ms | renderer CPU ms (all threads) | long tasks n (max ms) |');
    console.log('|---|---|--:|--:|--:|--:|--:|--:|--:|');
    for (const r of rows) {
      const ref = rows.find((x) => x.consumer === REF && x.path === r.path);
      console.log(`| ${r.consumer} | ${r.path} | ${f1(r.ms)} | ${f1(r.mainMs)} (${f1(r.mainMinMs)}) | ` +
        `${ref ? `${(r.mainMs / ref.mainMs).toFixed(2)}; ${(r.mainMinMs / ref.mainMinMs).toFixed(2)}` : '-'} | ` +
        `${f1(r.mainMs / events * 1e5)} | ${f1(r.workerMs)} | ${f1(r.rendererMs)} | ${r.longTasks} (${Math.round(r.longMax)}) |`);
    }
    if (errors.length) console.log(`  page errors: ${errors.slice(0, 3).join(' | ')}`);
    out.presets[preset] = { events, rows };
  }
} finally {
  await browser.close();
  await server.close();
}
if (args.json) {
  fs.mkdirSync(path.dirname(path.resolve(args.json)), { recursive: true });
  fs.writeFileSync(args.json, JSON.stringify(out, null, 1));
  console.log(`[cpu] wrote ${args.json}`);
}
