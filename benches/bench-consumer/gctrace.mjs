#!/usr/bin/env node
// A Chromium trace of the page's main thread while one consumer runs the large stream on the
// network path `--runs` times (after a warm-up): how many major GCs ran on the main thread and
// how long the longest took, and every task over 50 ms with the GC events inside it. For what
// longtasks.mjs cannot tell: whether a long task is garbage collection. scripts/bench.sh copies
// it into its harness copy as aw-gctrace.mjs (next to aw-driver.mjs); run it by hand there:
//
//   node aw-gctrace.mjs --runs 12 --consumer "$PWD/aw/agentwire-worker-events.mjs"
//
// Tasks outside the timed runs are listed too: the harness's forced gc() before each run is a
// `TimerFire` task of ~90 ms with no GC event of its own. The trace is left in /tmp/aw-gctrace.json.
import { parseArgs, start } from './aw-driver.mjs';
import fs from 'node:fs';
const args = parseArgs();
const RUNS = Number(args.runs || 10);
const { ext, server, browser } = await start(args.consumer, 'aw-gctrace');
const page = await browser.newPage();
await page.goto(server.url + '/');
await page.waitForFunction(() => window.bench && window.bench.ready);
const { name } = await page.evaluate((u) => window.bench.addExternal(u), ext[0].url);
await page.evaluate(() => window.bench.load('large'));
await page.evaluate((o) => window.bench.run(o), { consumer: name, path: 'net', preset: 'large' }); // warm-up
const file = '/tmp/aw-gctrace.json';
await browser.startTracing(page, { path: file, categories: ['toplevel', 'devtools.timeline', 'v8'] });
for (let r = 0; r < RUNS; r++) await page.evaluate((o) => window.bench.run(o), { consumer: name, path: 'net', preset: 'large' });
await browser.stopTracing();
const ev = JSON.parse(fs.readFileSync(file, 'utf8')).traceEvents;
// main thread of the page's renderer: the thread named CrRendererMain
const mains = new Set(ev.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`));
const onMain = ev.filter((e) => mains.has(`${e.pid}:${e.tid}`) && e.ph === 'X');
const tasks = onMain.filter((e) => /RunTask$/.test(e.name) && e.dur > 50000);
const gcs = onMain.filter((e) => (e.name === 'MajorGC' || e.name === 'MinorGC') && e.dur > 1000);
const major = onMain.filter((e) => e.name === 'MajorGC').map((e) => e.dur / 1000).sort((a, b) => b - a);
console.log(`main thread: ${major.length} MajorGC in ${RUNS} runs, longest ${major.slice(0, 5).map((x) => x.toFixed(1)).join(' / ')} ms`);
console.log(`${tasks.length} tasks over 50 ms`);
for (const t of tasks) {
  const inside = gcs.filter((g) => g.ts >= t.ts && g.ts + g.dur <= t.ts + t.dur)
    .map((g) => `${g.name} ${(g.dur / 1000).toFixed(1)}`);
  console.log(`  task ${(t.dur / 1000).toFixed(1)} ms: ${inside.join(', ') || 'no GC over 1 ms inside'}`);
}
await browser.close(); server.close?.(); process.exit(0);
