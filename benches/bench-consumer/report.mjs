#!/usr/bin/env node
// The agentwire side of a scripts/bench.sh run, one line per preset × path × mode: median time,
// ratio to js-reference (and the issue-7 target), correctness, long tasks, memory (linear memory
// grown by a first run in a fresh page + JS heap Δ, against js-reference's heap Δ), then the
// package size. Consumers run on a protocol's entry (`scripts/bench.sh --entries core`: named
// `agentwire-snapshot@core`) follow the same mode on the full package, with their time over its
// (× agentwire). Inputs: the harness's --json output, probe.mjs's --json output, pkg/.
//   node report.mjs RUN.json PROBE.json [PKG_DIR]
import fs from 'node:fs';
import { measure, shippedFiles } from '../../scripts/lib/pkg-size.mjs';

const [runFile, probeFile, pkgDir = 'pkg', cpuFile] = process.argv.slice(2);
const run = JSON.parse(fs.readFileSync(runFile, 'utf8'));
const probe = probeFile && fs.existsSync(probeFile) ? JSON.parse(fs.readFileSync(probeFile, 'utf8')) : { presets: {} };

// issue 7 targets (× js-reference median time; memory as (wasm + JS) / js-reference heap Δ)
const TARGET = {
  'agentwire-snapshot': { mem: 0.70, net: 0.80 }, 'agentwire-events': { mem: 1.2, net: 1.2 }, 'agentwire-filtered': { mem: 0.75, net: 0.75 },
  'agentwire-client': { net: 0.80 },
  // issue 19 item 9: the AG-UI input (the same workload as AG-UI events); also ≤ 0.25× ag-ui-verify
  'agentwire-ag-ui': { mem: 0.80, net: 0.80 },
};
const AGUI_VERIFY_TARGET = 0.25;
const MEMORY_TARGET = 0.5;
const base = (consumer) => consumer.split('@')[0];
const f = (x, d = 1) => (Number.isFinite(x) ? x.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d }) : '-');

console.log(`\n## agentwire vs js-reference (Chromium ${run.chromium}, ${run.cpus} cores, ${run.warmup} warm-up + ${run.runs} runs, medians)\n`);
console.log('| preset | path | mode | median ms | × js-ref (target) | × agentwire (same mode) | status | long tasks n (max ms) | JS heap Δ MB | wasm memory grown MB | (wasm + JS) / js-ref heap Δ (target 0.5) |');
console.log('|---|---|---|--:|--:|--:|---|--:|--:|--:|--:|');
for (const [preset, p] of Object.entries(run.presets)) {
  const probeRows = probe.presets[preset] || [];
  const refProbe = probeRows.find((r) => r.consumer === 'js-reference');
  for (const pth of ['mem', 'net']) {
    const ref = p.results.find((r) => r.consumer === 'js-reference' && r.path === pth);
    if (!ref) continue;
    // Each mode on the full package, then on the entries (in the order of the run).
    const aw = p.results.filter((r) => r.consumer.startsWith('agentwire') && r.path === pth);
    const modes = [...new Set(aw.map((r) => base(r.consumer)))];
    const rows = [ref, ...modes.flatMap((m) => aw.filter((r) => base(r.consumer) === m)
      .sort((a, b) => (a.consumer === m ? -1 : b.consumer === m ? 1 : 0)))];
    for (const r of rows) {
      const t = TARGET[base(r.consumer)]?.[pth];
      const ratio = r.ok && ref.ok ? r.medianMs / ref.medianMs : NaN;
      const full = r.consumer !== base(r.consumer) ? aw.find((x) => x.consumer === base(r.consumer)) : null;
      const vsFull = full && full.ok && r.ok ? f(r.medianMs / full.medianMs, 2) : '';
      const verdict = t === undefined || !Number.isFinite(ratio) ? '' : ratio <= t ? ' ✓' : ' ✗';
      let mem = '-';
      let grown = '-';
      // memory: fresh-page first run on the mem path (probe.mjs); the same figure serves both paths
      const pr = probeRows.find((x) => x.consumer === r.consumer);
      if (pr && pr.wasmGrowthFirstRunMB !== undefined && refProbe) {
        grown = f(pr.wasmGrowthFirstRunMB);
        const m = (pr.wasmGrowthFirstRunMB + pr.heapDeltaFirstMB) / refProbe.heapDeltaFirstMB;
        mem = `${f(m, 2)}${m <= MEMORY_TARGET ? ' ✓' : ' ✗'} (${f(pr.wasmGrowthFirstRunMB + pr.heapDeltaFirstMB)} / ${f(refProbe.heapDeltaFirstMB)})`;
      }
      console.log(`| ${preset} | ${pth} | ${r.consumer} | ${r.ok ? f(r.medianMs) : '-'} | ${f(ratio, 2)}${t ? ` (≤ ${t})` : ''}${verdict} | ${vsFull} | ` +
        `${r.status}${r.status !== 'OK' && r.errors?.length ? ': ' + r.errors[0] : ''} | ${r.ok ? `${r.longTaskCount} (${f(r.longTaskMaxMs, 0)})` : '-'} | ` +
        `${r.ok ? f(r.heapDeltaMB) : '-'} | ${grown} | ${r.consumer === 'js-reference' ? '' : mem} |`);
    }
  }
  for (const r of probeRows) {
    if (r.delivered !== undefined && r.delivered !== r.deliveredExpected) {
      console.log(`  WRONG delivery: ${r.consumer} on ${preset} delivered ${r.delivered} events, expected ${r.deliveredExpected}`);
    }
  }
}
// The AG-UI input against the official client's pipeline with a linear apply (ag-ui-verify).
const aguiRows = Object.entries(run.presets).flatMap(([preset, p]) => ['mem', 'net'].flatMap((pth) => {
  const v = p.results.find((r) => r.consumer === 'ag-ui-verify' && r.path === pth);
  return v ? p.results.filter((r) => base(r.consumer) === 'agentwire-ag-ui' && r.path === pth).map((aw) => ({ preset, pth, aw, v })) : [];
}));
if (aguiRows.length) {
  console.log(`\n## agentwire-ag-ui vs ag-ui-verify (same AG-UI bytes; target ≤ ${AGUI_VERIFY_TARGET}×)\n`);
  console.log('| preset | path | consumer | agentwire ms | ag-ui-verify ms | ratio | status |');
  console.log('|---|---|---|--:|--:|--:|---|');
  for (const { preset, pth, aw, v } of aguiRows) {
    const ratio = aw.ok && v.ok ? aw.medianMs / v.medianMs : NaN;
    const verdict = Number.isFinite(ratio) ? (ratio <= AGUI_VERIFY_TARGET ? ' ✓' : ' ✗') : '';
    console.log(`| ${preset} | ${pth} | ${aw.consumer} | ${aw.ok ? f(aw.medianMs) : '-'} | ${v.ok ? f(v.medianMs) : '-'} | ${f(ratio, 2)}${verdict} | ${aw.status} / ${v.status} |`);
  }
}
console.log('\nJS heap Δ: the harness\'s figure (peak usedJSHeapSize − baseline after gc(), median of runs). Memory column: one run in a fresh page ' +
  '(probe.mjs): wasm linear memory grown during the run + JS heap Δ of that run, over js-reference\'s JS heap Δ measured the same way.');

const time = Object.entries(probe.presets).flatMap(([preset, rows]) => rows.filter((r) => r.feedMs !== undefined).map((r) => ({ preset, ...r })));
if (time.length) {
  console.log('\n### where the time goes (mem path, inside the consumer, medians)\n');
  console.log('| preset | mode | run ms | feed() ms | finish() ms | summary (getSnapshot + Summary) ms | delivered (expected) |');
  console.log('|---|---|--:|--:|--:|--:|---|');
  for (const r of time) {
    const del = r.delivered === undefined ? '' : `${r.delivered} (${r.deliveredExpected})${r.delivered === r.deliveredExpected ? ' OK' : ' WRONG'}`;
    console.log(`| ${r.preset} | ${r.consumer} | ${f(r.medianMs)} | ${f(r.feedMs)} | ${f(r.finishMs)} | ${f(r.summaryMs)} | ${del} |`);
  }
}

const cpu = cpuFile && fs.existsSync(cpuFile) ? JSON.parse(fs.readFileSync(cpuFile, 'utf8')) : null;
if (cpu) {
  console.log('\n### main thread (CPU time on the page\'s main thread, /proc schedstat; cpu.mjs, interleaved runs, medians)\n');
  console.log('| preset | path | consumer | wall ms | main-thread CPU ms | × js-ref main CPU | main-thread ms per 100k events | Worker CPU ms | long tasks n (max ms) |');
  console.log('|---|---|---|--:|--:|--:|--:|--:|--:|');
  for (const [preset, { events, rows }] of Object.entries(cpu.presets)) {
    for (const r of rows) {
      const ref = rows.find((x) => x.consumer === 'js-reference' && x.path === r.path);
      console.log(`| ${preset} | ${r.path} | ${r.consumer} | ${f(r.ms)} | ${f(r.mainMs)} | ${ref ? f(r.mainMs / ref.mainMs, 2) : '-'} | ` +
        `${f(r.mainMs / events * 1e5)} | ${r.workerMs ? f(r.workerMs) : '-'} | ${r.longTasks} (${f(r.longMax, 0)}) |`);
    }
  }
}

const files = shippedFiles(pkgDir).filter((x) => fs.existsSync(x));
if (files.length) {
  let raw = 0, gz = 0, br = 0;
  for (const x of files) {
    const m = measure(x);
    raw += m.raw;
    gz += m.gz;
    br += m.br;
  }
  console.log(`\npackage (bundler entry: wasm + JS glue, snippets, Worker entry; as scripts/size-report.mjs): ${raw.toLocaleString('en-US')} B raw, ${gz.toLocaleString('en-US')} B gzip, ` +
    `${br.toLocaleString('en-US')} B brotli (issue 7 target: 81,920 B gzip)`);
}
