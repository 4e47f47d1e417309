#!/usr/bin/env node
// Every consumer of a harness run in one table: a row per consumer, a column per preset × path,
// each cell `median ms (× js-reference)`, or DNF / WRONG / – (path not supported). For the README
// and the issue notes.
//
//   node benches/bench-consumer/matrix.mjs RUN.json
import fs from 'node:fs';

const file = process.argv[2];
if (!file) { console.error('usage: matrix.mjs RUN.json'); process.exit(2); }
const run = JSON.parse(fs.readFileSync(file, 'utf8'));
const cols = [];
for (const [preset, p] of Object.entries(run.presets)) {
  for (const path of ['mem', 'net']) {
    if (p.results.some((r) => r.path === path)) cols.push({ preset, path, results: p.results });
  }
}
const names = [];
for (const c of cols) for (const r of c.results) if (!names.includes(r.consumer)) names.push(r.consumer);
const f = (x) => x.toLocaleString('en-US', { maximumFractionDigits: x < 100 ? 1 : 0 });
const cell = (c, name) => {
  const r = c.results.find((x) => x.consumer === name && x.path === c.path);
  if (!r) return '–';
  if (r.status !== 'OK') return `${r.status}${r.note ? ' ' + r.note : ''}`;
  const ref = c.results.find((x) => x.consumer === 'js-reference' && x.path === c.path);
  const ratio = ref && ref.status === 'OK' ? ` (${(r.medianMs / ref.medianMs).toFixed(2)}×)` : '';
  return `${f(r.medianMs)}${ratio}`;
};
console.log(`| consumer | ${cols.map((c) => `${c.preset} ${c.path}`).join(' | ')} |`);
console.log(`|---|${cols.map(() => '--:').join('|')}|`);
for (const n of names) console.log(`| ${n} | ${cols.map((c) => cell(c, n)).join(' | ')} |`);
console.log(`\nmedian ms of ${run.runs} runs after ${run.warmup} warm-up (× js-reference on the same path); ` +
  `Chromium ${run.chromium}, ${run.cpus} cores; DNF: over ${run.timeoutS} s, then skipped for the preset.`);
