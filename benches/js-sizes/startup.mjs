#!/usr/bin/env node
// Start-up cost in Chromium of what benches/js-sizes/measure.mjs bundled: the time from handing
// the code to the browser until the client is usable. For a JavaScript client: `import()` of its
// bundle (parse, compile, evaluate). For agentwire: `import()` of its JS glue (bundled by esbuild
// with its snippets) plus `init(wasmBytes)` (compiling and instantiating the wasm). Download time
// is left out (the size table covers it): the bytes are in the page before the clock starts.
//
//   node benches/js-sizes/measure.mjs && node benches/js-sizes/startup.mjs [--runs 9] [--json out.json]
//
// Every measurement gets a new Chromium (V8 caches compiled wasm per process by its bytes, and
// scripts by their source), so each one is a first load. Medians of --runs. A report, not a test.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createRequire } from "node:module";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../..");
const argv = process.argv.slice(2);
const opt = (k, d) => (argv.includes(k) ? argv[argv.indexOf(k) + 1] : d);
const RUNS = Number(opt("--runs", 9));
const jsonOut = opt("--json", null);
const work = path.join(root, "target/js-sizes");
const out = path.join(work, "out");
const { chromium } = createRequire(path.join(root, "tools/package.json"))("playwright-core");
const CHROMIUM = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
const ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
  "--disable-sync", "--no-first-run", "--disable-quic"];

// agentwire's glue as one module (what a bundler makes of `import init from "agentwire/web"`).
const glue = path.join(out, "agentwire-web.js");
execFileSync(path.join(root, "tools/node_modules/.bin/esbuild"), [path.join(root, "pkg/web/agentwire.js"), "--bundle",
  "--minify", "--format=esm", "--platform=browser", "--target=es2022", "--log-level=error", `--outfile=${glue}`]);
const wasm = readFileSync(path.join(root, "pkg/web/raw/agentwire_bg.wasm"));

const index = path.join(out, "index.json");
if (!existsSync(index)) {
  console.error("error: no bundles: run node benches/js-sizes/measure.mjs first");
  process.exit(1);
}
// An empty module: the fixed cost of import() itself, which every row includes.
const empty = path.join(out, "empty.js");
writeFileSync(empty, "export {};\n");
const candidates = [
  { name: "agentwire", js: glue, wasm: true },
  ...JSON.parse(readFileSync(index, "utf8")).map((b) => ({ name: b.name, js: path.join(out, b.file) })),
  { name: "(an empty module)", js: empty },
];

// An empty page on a local origin (blob: module imports need a real origin).
const server = http.createServer((_, res) => { res.writeHead(200, { "content-type": "text/html" }); res.end("<!doctype html><title>startup</title>"); });
await new Promise((r) => server.listen(0, "127.0.0.1", r));
const url = `http://127.0.0.1:${server.address().port}/`;

async function once(c) {
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS });
  try {
    const page = await browser.newPage();
    await page.goto(url);
    return await page.evaluate(async ({ src, wasmB64 }) => {
      const blob = URL.createObjectURL(new Blob([src], { type: "text/javascript" }));
      const bytes = wasmB64 ? Uint8Array.from(atob(wasmB64), (ch) => ch.charCodeAt(0)) : null;
      await new Promise((r) => setTimeout(r, 50));
      const t0 = performance.now();
      const m = await import(blob);
      const t1 = performance.now();
      if (bytes) await m.default({ module_or_path: bytes });
      const t2 = performance.now();
      return { importMs: t1 - t0, initMs: t2 - t1, totalMs: t2 - t0 };
    }, { src: readFileSync(c.js, "utf8"), wasmB64: c.wasm ? wasm.toString("base64") : null });
  } finally {
    await browser.close();
  }
}

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[(s.length - 1) >> 1] / 2 + s[s.length >> 1] / 2; };
const results = new Map(candidates.map((c) => [c.name, []]));
for (let i = 0; i < RUNS; i++) {
  for (const c of candidates) results.get(c.name).push(await once(c)); // interleaved rounds
}
server.close();

const rows = candidates.map((c) => {
  const rs = results.get(c.name);
  return { name: c.name, importMs: median(rs.map((r) => r.importMs)), initMs: median(rs.map((r) => r.initMs)), totalMs: median(rs.map((r) => r.totalMs)) };
});
const aw = rows[0].name === "agentwire" ? rows[0].totalMs : NaN;
console.log(`\nStart-up in Chromium (new browser per measurement, median of ${RUNS}; bytes already in the page)\n`);
console.log("| client | import() ms | wasm init ms | ready ms | x agentwire |");
console.log("|---|--:|--:|--:|--:|");
for (const r of rows) {
  console.log(`| ${r.name} | ${r.importMs.toFixed(1)} | ${r.name === "agentwire" ? r.initMs.toFixed(1) : "-"} | ${r.totalMs.toFixed(1)} | ${(r.totalMs / aw).toFixed(2)} |`);
}
if (jsonOut) writeFileSync(jsonOut, JSON.stringify({ date: new Date().toISOString(), runs: RUNS, rows }, null, 2) + "\n");
