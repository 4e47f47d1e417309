#!/usr/bin/env node
// Where the main thread's long tasks (> 50 ms) fall on the network path, run by run: the
// harness's table only counts them. scripts/bench.sh copies this file into its copy of the
// harness (with driver.mjs as aw-driver.mjs,
// so `playwright-core`, `esbuild` and `./server.mjs` resolve) and runs it last:
//
//   node aw-longtasks.mjs --preset medium,large [--runs 5] [--ref js-reference] --consumer /abs/agentwire-client.mjs ...
//
// For every preset × consumer: a fresh page, one warm-up run, then `--runs` runs of the
// harness's own `window.bench.run` on the net path. Each long task is listed as start+duration
// (ms from the run's start) with what overlapped it, from the measures the consumers record
// (common.mjs): `getSnapshot` (the summary read at the end) and `feed` (one `store.feed()` call
// over 20 ms). A long task with neither is work outside agentwire's calls: for consumers the
// harness feeds (`createConsumer`), its reader loop drains chunks that queued up while the
// thread was busy (each `await reader.read()` then resolves as a microtask, so the loop never
// yields: one task), or garbage collection. Each long task also lists the scripts Chromium's
// Long Animation Frames API attributes to the frame it fell in (`loaf:` invoker, entry function
// and file, ms; scripts of 10 ms or more that overlap the task; a task with no script listed ran
// no page script of its own: garbage collection, style, layout). The reference consumer (`--ref`,
// default js-reference, fed by the same loop) is listed first for comparison.
import { parseArgs, start } from './aw-driver.mjs';

const args = parseArgs();
const presets = (args.preset || 'medium').split(',');
const RUNS = Number(args.runs || 5);
const REF = args.ref || 'js-reference';
const { ext, server, browser } = await start(args.consumer, 'aw-longtasks');

console.log(`\n[longtasks] net path, fresh page per consumer, 1 warm-up + ${RUNS} runs; each long task: start+duration ms (what overlapped it)`);
console.log('| preset | consumer | runs with a long task | long tasks per run |');
console.log('|---|---|--:|---|');
try {
  for (const preset of presets) {
    for (const e of [null, ...ext]) {
      const page = await browser.newPage();
      await page.goto(server.url + '/');
      await page.waitForFunction(() => window.bench && window.bench.ready);
      const { name, paths } = e ? await page.evaluate((u) => window.bench.addExternal(u), e.url) : { name: REF, paths: ['net'] };
      if (!paths.includes('net')) { await page.close(); continue; }
      await page.evaluate((p) => window.bench.load(p), preset);
      await page.evaluate(() => {
        window.__lt = [];
        window.__loaf = [];
        new PerformanceObserver((l) => { for (const x of l.getEntries()) window.__lt.push([x.startTime, x.duration]); })
          .observe({ type: 'longtask' });
        // Script attribution (Chromium 123+); a browser without it leaves the list empty.
        try {
          new PerformanceObserver((l) => {
            for (const f of l.getEntries()) {
              for (const s of f.scripts || []) {
                if (s.duration < 10) continue;
                const file = (s.sourceURL || '').split('/').pop().split('?')[0];
                const fn = s.sourceFunctionName || '(anonymous)';
                window.__loaf.push([s.startTime, s.duration, `${s.invoker || s.invokerType} ${fn}${file ? '@' + file : ''}`]);
              }
            }
          }).observe({ type: 'long-animation-frame' });
        } catch { /* not supported */ }
      });
      const rows = [];
      for (let r = 0; r <= RUNS; r++) {
        const out = await page.evaluate(async (o) => {
          window.__lt.length = 0;
          window.__loaf.length = 0;
          performance.clearMeasures();
          const t0 = performance.now();
          const res = await window.bench.run(o);
          const t1 = t0 + res.ms;
          await new Promise((done) => setTimeout(done, 100));
          const measures = performance.getEntriesByType('measure').filter((m) => m.name.startsWith('aw:'));
          return window.__lt.filter(([s]) => s >= t0 - 1 && s < t1).map(([s, d]) => {
            const inside = measures.filter((m) => m.startTime < s + d && m.startTime + m.duration > s)
              .map((m) => `${m.name.slice(3)} ${m.duration.toFixed(0)}`);
            for (const [ss, sd, what] of window.__loaf) {
              if (ss < s + d && ss + sd > s) inside.push(`loaf: ${what} ${sd.toFixed(0)}`);
            }
            return `${(s - t0).toFixed(0)}+${d.toFixed(0)}${inside.length ? ` (${inside.join(', ')})` : ''}`;
          });
        }, { consumer: name, path: 'net', preset });
        if (r > 0) rows.push(out);
      }
      const withLong = rows.filter((x) => x.length).length;
      const text = rows.map((x, i) => `${i + 1}: ${x.length ? x.join(' ') : '-'}`).join('; ');
      console.log(`| ${preset} | ${name} | ${withLong} of ${rows.length} | ${text} |`);
      await page.close();
    }
  }
} finally {
  await browser.close();
  server.close?.();
}
process.exit(0);
