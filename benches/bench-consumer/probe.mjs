#!/usr/bin/env node
// What the shared harness's table cannot show for a wasm consumer: linear memory, where the time
// goes, and whether filtered delivery delivered the right events. scripts/bench.sh copies this
// file into its copy of the harness (with driver.mjs as aw-driver.mjs,
// so `playwright-core`, `esbuild` and `./server.mjs` resolve)
// and runs it after run.mjs:
//
//   node aw-probe.mjs --preset small,medium [--runs 5] [--profile] [--json out.json]
//                     --consumer /abs/agentwire-snapshot.mjs --consumer ... [--ref js-reference]
//
// For every preset × consumer it opens a FRESH page (so the wasm instance is new and its linear
// memory starts at the post-init size), runs the harness's own `window.bench.run` on the mem path
// once (memory: linear-memory growth of that first run = the high-water mark the run needed, plus
// the harness's JS heap delta), then `--runs` more times for the time split measured inside the
// consumer: time in `store.feed()` (copy into wasm + parse + validate + assemble + queueing and
// delivering events to JS handlers), in `store.finish()`, and in reading the summary
// (`getSnapshot()` + building the Summary). `--profile` adds a CDP CPU profile of one more run,
// split into wasm code, JS, GC and the rest, with the top self-time functions.
// The reference consumer (`--ref`, default js-reference) gets the same fresh-page heap measurement.
import fs from 'node:fs';
import path from 'node:path';
import { HERE, parseArgs, start, median, f1 } from './aw-driver.mjs';

const args = parseArgs();
const presets = (args.preset || 'medium').split(',');
const RUNS = Number(args.runs || 5);
const REF = args.ref || 'js-reference';
const MB = (b) => b / 1048576;

// --pkg DIR: bundle the consumers against another build of the web package (A/B of builds,
// a profiling build that keeps function names) instead of the pkg/web they import.
const pkgDir = args.pkg ? path.resolve(args.pkg) : null;
const redirectPkg = pkgDir ? [{
  name: 'aw-pkg',
  setup(b) { b.onResolve({ filter: /pkg\/web\/agentwire(_bg\.wasm|\.js)$/ }, (a) => ({ path: path.join(pkgDir, path.basename(a.path)) })); },
}] : [];
const { ext, server, browser } = await start(args.consumer, 'aw-probe', redirectPkg);

async function freshPage(extUrl) {
  const page = await browser.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') errors.push(m.text()); });
  await page.goto(server.url + '/');
  await page.waitForFunction(() => window.bench && window.bench.ready);
  let name = REF;
  let paths = ['mem', 'net'];
  if (extUrl) ({ name, paths } = await page.evaluate((u) => window.bench.addExternal(u), extUrl));
  return { page, name, errors, paths };
}
const readStats = (page, url) => page.evaluate(async (u) => {
  const m = await import(u); // same URL: the instance the harness registered
  return { ...m.stats, memoryNow: m.wasmMemoryBytes(), filterKinds: m.filterKinds || null };
}, url);

// Wasm self time by crate/module (needs a build with a name section: --pkg of a profiling build).
function wasmGroup(fn) {
  const m = /^(?:<)?([a-z_0-9]+)(?:\[[0-9a-f]+\])?::([a-z_0-9]+)/.exec(fn);
  if (!m) return /^(memcpy|memmove|memset|memcmp)$/.test(fn) ? 'mem*' : /shim|wasm-function/.test(fn) ? fn.replace(/\[\d+\]/, '') : 'other';
  return m[1] === 'agentwire' ? `agentwire::${m[2]}` : m[1];
}

async function profileRun(page, opts) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
  await cdp.send('Profiler.start');
  const r = await page.evaluate((o) => window.bench.run(o), opts);
  const { profile } = await cdp.send('Profiler.stop');
  await cdp.detach();
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map();
  const cat = { wasm: 0, js: 0, gc: 0, idle: 0, other: 0 };
  const groups = new Map();
  let total = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const cf = byId.get(profile.samples[i]).callFrame;
    const dt = profile.timeDeltas[i] || 0;
    total += dt;
    const fn = cf.functionName || '(anonymous)';
    const c = cf.url.startsWith('wasm://') ? 'wasm' : fn === '(garbage collector)' ? 'gc' : fn === '(idle)' ? 'idle'
      : cf.url ? 'js' : 'other';
    cat[c] += dt;
    if (c === 'wasm') {
      const g = wasmGroup(fn);
      groups.set(g, (groups.get(g) || 0) + dt);
    }
    const key = `${fn} ${cf.url ? cf.url.split('/').pop() + ':' + (cf.lineNumber + 1) : '(native)'}`;
    self.set(key, (self.get(key) || 0) + dt);
  }
  const busy = total - cat.idle;
  return {
    ms: r.ms,
    busyMs: busy / 1000,
    split: Object.fromEntries(Object.entries(cat).map(([k, v]) => [k, +(v / 1000).toFixed(1)])),
    wasmGroups: [...groups].sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${(v / 1000).toFixed(1)}`),
    top: [...self].filter(([k]) => !k.startsWith('(idle)')).sort((a, b) => b[1] - a[1]).slice(0, Number(args.top || 14))
      .map(([k, v]) => `${(v / 1000).toFixed(1).padStart(6)} ms  ${k}`),
  };
}

const out = { date: new Date().toISOString(), runs: RUNS, presets: {} };
try {
  for (const preset of presets) {
    const exp = JSON.parse(fs.readFileSync(path.join(HERE, 'data', `${preset}.expected.json`), 'utf8'));
    const rows = [];
    for (const target of REF === 'none' ? ext : [null, ...ext]) {
      const { page, name, errors, paths } = await freshPage(target && target.url);
      if (!paths.includes('mem')) { await page.close(); continue; } // network-only consumers
      await page.evaluate((p) => window.bench.load(p), preset);
      const opts = { consumer: name, path: 'mem', preset };
      const first = await page.evaluate((o) => window.bench.run(o), opts);
      const row = { consumer: name, preset, heapDeltaFirstMB: MB(first.heapPeak - first.heapBase) };
      if (target) {
        const s = await readStats(page, target.url);
        row.wasmMemoryAfterInitMB = MB(s.memoryAfterInit);
        row.wasmGrowthFirstRunMB = MB(s.memoryAfterRun - s.memoryAfterInit);
        if (s.filterKinds) {
          const want = Object.entries(exp.native.kinds)
            .filter(([k]) => s.filterKinds.some((p) => (p.endsWith('*') ? k.startsWith(p.slice(0, -1)) : k === p)))
            .reduce((n, [, c]) => n + c, 0);
          row.delivered = s.delivered;
          row.deliveredExpected = want;
        } else if (name.split('@')[0].endsWith('-events')) {
          row.delivered = s.delivered;
          row.deliveredExpected = exp.native.events;
        }
      }
      const ms = [], feed = [], fin = [], sum = [], heap = [], boot = [];
      for (let i = 0; i < RUNS; i++) {
        const r = await page.evaluate((o) => window.bench.run(o), opts);
        ms.push(r.ms); heap.push(r.heapPeak - r.heapBase);
        if (target) {
          const s = await readStats(page, target.url);
          feed.push(s.feedMs); fin.push(s.finishMs); sum.push(s.summaryMs);
          if (s.workerStartMs !== undefined) boot.push(s.workerStartMs);
          row.wasmMemoryEndMB = MB(s.memoryNow);
        }
      }
      Object.assign(row, { medianMs: median(ms), heapDeltaMedianMB: MB(median(heap)) });
      if (target) Object.assign(row, { feedMs: median(feed), finishMs: median(fin), summaryMs: median(sum) });
      if (boot.length) row.workerStartMs = median(boot); // Worker mode: new Worker → `ready`, inside the run
      if (args.profile === 'true') row.profile = await profileRun(page, opts);
      if (errors.length) row.pageErrors = errors.slice(0, 3);
      rows.push(row);
      await page.close();
    }
    const ref = rows.find((r) => r.consumer === REF);
    console.log(`\n[probe] ${preset}: mem path, fresh page per consumer; first run for memory, then ${RUNS} runs (medians)`);
    console.log('| consumer | median ms | feed ms | finish ms | summary ms | wasm memory after init MB | wasm growth (1st run) MB | JS heap Δ (1st run) MB | wasm + JS MB | × ref heap Δ | delivered (expected) |');
    console.log('|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|');
    for (const r of rows) {
      const tot = (r.wasmGrowthFirstRunMB || 0) + r.heapDeltaFirstMB;
      const del = r.delivered === undefined ? '' : `${r.delivered} (${r.deliveredExpected})${r.delivered === r.deliveredExpected ? ' OK' : ' WRONG'}`;
      console.log(`| ${r.consumer} | ${f1(r.medianMs)} | ${f1(r.feedMs)} | ${f1(r.finishMs)} | ${f1(r.summaryMs)} | ${f1(r.wasmMemoryAfterInitMB)} | ` +
        `${f1(r.wasmGrowthFirstRunMB)} | ${f1(r.heapDeltaFirstMB)} | ${f1(tot)} | ${ref ? (tot / ref.heapDeltaFirstMB).toFixed(2) : '-'} | ${del} |`);
      if (r.workerStartMs !== undefined) console.log(`  ${r.consumer}: Worker start-up (new Worker → ready, inside median ms) ${f1(r.workerStartMs)} ms`);
      if (r.pageErrors) console.log(`  ${r.consumer}: page errors: ${r.pageErrors.join(' | ')}`);
    }
    if (args.profile === 'true') {
      for (const r of rows) {
        console.log(`\n[probe] CPU profile ${r.consumer} on ${preset} (run ${f1(r.profile.ms)} ms; profiled, incl. harness gc/sleep: ` +
          Object.entries(r.profile.split).map(([k, v]) => `${k} ${v} ms`).join(', ') + ')');
        if (r.profile.wasmGroups.length) console.log('   wasm by module (ms): ' + r.profile.wasmGroups.join(', '));
        for (const l of r.profile.top) console.log('   ' + l);
      }
    }
    out.presets[preset] = rows;
  }
} finally {
  await browser.close();
  await server.close();
}
if (args.json) {
  fs.mkdirSync(path.dirname(path.resolve(args.json)), { recursive: true });
  fs.writeFileSync(args.json, JSON.stringify(out, null, 1));
  console.log(`[probe] wrote ${args.json}`);
}
