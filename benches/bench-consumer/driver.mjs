// What the agentwire bench drivers (probe.mjs, cpu.mjs, longtasks.mjs) share: arguments, the
// Chromium flags, bundling the harness page and the consumer modules, the harness's server and
// the browser. scripts/bench.sh copies it into its copy of the harness as aw-driver.mjs, next to
// the drivers (so `playwright-core`, `esbuild` and `./server.mjs` resolve).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { chromium } from 'playwright-core';
import { startServer } from './server.mjs';

/** The harness directory (where the drivers run). */
export const HERE = path.dirname(fileURLToPath(import.meta.url));

/** `--key value` pairs (a bare `--key` is 'true'); every `--consumer` goes into `consumer[]`. */
export function parseArgs(argv = process.argv.slice(2)) {
  const args = { consumer: [] };
  for (let i = 0; i < argv.length; i++) {
    if (!argv[i].startsWith('--')) continue;
    const k = argv[i].slice(2);
    const v = argv[i + 1] !== undefined && !argv[i + 1].startsWith('--') ? argv[++i] : 'true';
    if (k === 'consumer') args.consumer.push(v); else args[k] = v;
  }
  return args;
}

/** Headless Chromium as root on a closed network, with gc() and precise heap figures. */
export const CHROME_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
  '--disable-sync', '--no-first-run', '--disable-quic', '--js-flags=--expose-gc', '--enable-precise-memory-info'];

export const median = (xs) => { const s = [...xs].sort((a, b) => a - b); const n = s.length; return n ? (n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2) : NaN; };
export const f1 = (x) => (Number.isFinite(x) ? x.toFixed(1) : '-');

/**
 * Bundles the harness page and `sources` (consumer modules; `.wasm` imports become Uint8Array)
 * into dist/ as `<prefix>-<i>.mjs`, starts the harness's server serving them under
 * `/ext/<i>/__bundle__.mjs`, and launches Chromium. `plugins`: esbuild plugins for the consumers.
 */
export async function start(sources, prefix, plugins = []) {
  const dist = path.join(HERE, 'dist');
  fs.mkdirSync(dist, { recursive: true });
  const common = { bundle: true, format: 'esm', platform: 'browser', target: 'chrome120', logLevel: 'warning', legalComments: 'none' };
  await esbuild.build({ ...common, entryPoints: [path.join(HERE, 'page/main.js')], outfile: path.join(dist, 'bench.js') });
  const ext = [];
  for (let i = 0; i < sources.length; i++) {
    const src = path.resolve(sources[i]);
    const bundle = path.join(dist, `${prefix}-${i}.mjs`);
    await esbuild.build({ ...common, entryPoints: [src], outfile: bundle, loader: { '.wasm': 'binary' }, plugins });
    ext.push({ src, dir: path.dirname(src), bundle, url: `/ext/${i}/__bundle__.mjs` });
  }
  const server = await startServer({ pageDir: path.join(HERE, 'page'), distDir: dist, dataDir: path.join(HERE, 'data'), ext });
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium', headless: true, args: CHROME_ARGS });
  return { ext, server, browser };
}
