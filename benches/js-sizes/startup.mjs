#!/usr/bin/env node
// Start-up in Chromium of every agentwire entry (issue 23: at most 15 ms each) next to the
// JavaScript clients benches/js-sizes/measure.mjs bundled: from handing the page the code until
// it is usable. A report, not a test (BENCHMARKS.md#start-up).
//
//   node benches/js-sizes/measure.mjs && node benches/js-sizes/startup.mjs
//     [--runs 15] [--entries core,a2a,...,agentwire] [--variants streaming,bytes,download]
//     [--no-clients] [--no-phases] [--json out.json]
//
// How an entry is loaded, as a user's page gets it: an app module `import { AgentStore } from
// "agentwire/<entry>"` bundled by esbuild (bundle, minify, ESM) into <entry>/app.js, put in the
// page of <entry>/ on a local server as an inline `<script type="module">` (the code is in the
// page: nothing to download), with the entry's wasm beside it on the server, where the loader's
// `new URL("./agentwire_bg.wasm", import.meta.url)` finds it (what Vite, webpack 5 and Next.js do
// with that URL). `agentwire` (every dialect) is measured through `agentwire/web` with `await
// init()` (the same URL loader) while pkg/agentwire.js is wasm-bindgen's bundler target (an ESM
// import of the .wasm, which esbuild cannot bundle); when pkg/agentwire.js loads its wasm from a
// URL, it is bundled as is. A JavaScript client is its bundle from measure.mjs, in the page the same way.
//
// The clock: `ready` = the inline module script appended until its last statement ran (the JS
// parsed, compiled and evaluated; the wasm fetched, compiled and instantiated; the layer's module
// evaluated) + `new AgentStore()` + a first `feed()` returning (the code it runs compiled on
// first use). The wasm's download is left out: it is fetched into the HTTP cache before the clock
// starts (the server counts the requests: a measurement whose loader went back to the server is
// refused), so the loader reads it from the cache, still as a stream (`instantiateStreaming` of
// the cached Response).
// Variants (--variants): `streaming` (the default, what users get), `bytes` (the same with
// WebAssembly.instantiateStreaming removed, so the glue falls back to arrayBuffer() +
// instantiate(bytes): what streaming is worth), `download` (nothing in the page or the cache:
// `<script type="module" src="app.js">` and the wasm downloaded from the local server inside the clock).
// Phases (a separate pass, instrumented: marks at the bundle's first and last statement,
// instantiateStreaming split into compileStreaming + instantiate, timed): where the time goes.
//
// Every measurement gets a new Chromium (V8 caches compiled wasm and scripts per process, and
// Chromium's code cache is per profile), so each is a first load. Medians of --runs, rounds
// interleaved. The machine's load average (uptime) is printed with the table.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { launchChromium } from "../../scripts/lib/chromium.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../..");
const argv = process.argv.slice(2);
const opt = (k, d) => (argv.includes(k) ? argv[argv.indexOf(k) + 1] : d);
const RUNS = Number(opt("--runs", 15));
const BUDGET_MS = 15;
const ALL_ENTRIES = ["core", "a2a", "acp", "unified", "myagent", "ag-ui", "ai-sdk", "agentwire"];
const ENTRIES = opt("--entries", ALL_ENTRIES.join(",")).split(",").filter(Boolean);
const VARIANTS = opt("--variants", "streaming").split(",").filter(Boolean);
const CLIENTS = !argv.includes("--no-clients");
const PHASES = !argv.includes("--no-phases");
const jsonOut = opt("--json", null);
for (const e of ENTRIES) if (!ALL_ENTRIES.includes(e)) { console.error(`error: unknown entry ${e} (${ALL_ENTRIES.join(", ")})`); process.exit(2); }
for (const v of VARIANTS) if (!["streaming", "bytes", "download"].includes(v)) { console.error(`error: unknown variant ${v}`); process.exit(2); }

const pkg = path.join(root, "pkg");
const esbuild = path.join(root, "tools/node_modules/.bin/esbuild");
const work = path.join(root, "target/js-sizes");
const site = path.join(work, "startup");
for (const [what, p] of [["esbuild (run scripts/setup.sh)", esbuild], ["pkg/ (run scripts/build-pkg.sh)", path.join(pkg, "package.json")]]) {
  if (!existsSync(p)) { console.error(`error: ${what} missing: ${p}`); process.exit(1); }
}

// 1. The pages' files: <name>/app.js (+ agentwire_bg.wasm) under target/js-sizes/startup/.
function bundle(src, outfile, extra = []) {
  execFileSync(esbuild, [src, "--bundle", "--minify", "--format=esm", "--platform=browser", "--target=es2022",
    "--log-level=error", `--outfile=${outfile}`, ...extra]);
}
// The instrumented pass's marks: the bundle's first statement and its last (after the top-level await).
const MARKS = ["--banner:js=performance.mark(\"aw:bundle-start\");", "--footer:js=performance.mark(\"aw:bundle-end\");"];
const fullIsUrlLoader = !/from\s*"\.\/agentwire_bg\.wasm"/.test(readFileSync(path.join(pkg, "raw/agentwire.js"), "utf8"));
const candidates = [];
for (const e of ENTRIES) {
  const dir = path.join(site, e);
  mkdirSync(dir, { recursive: true });
  let source, wasm, how;
  if (e !== "agentwire") {
    source = `import { AgentStore } from ${JSON.stringify(path.join(pkg, e, "index.js"))};\nwindow.__ready({ AgentStore });\n`;
    wasm = path.join(pkg, e, "raw/agentwire_bg.wasm");
    how = `agentwire/${e}`;
  } else if (fullIsUrlLoader) {
    source = `import { AgentStore } from ${JSON.stringify(path.join(pkg, "agentwire.js"))};\nwindow.__ready({ AgentStore });\n`;
    wasm = path.join(pkg, "raw/agentwire_bg.wasm");
    how = "agentwire";
  } else {
    const web = JSON.stringify(path.join(pkg, "web/agentwire.js"));
    source = `import init, { AgentStore } from ${web};\nawait init();\nwindow.__ready({ AgentStore });\n`;
    wasm = path.join(pkg, "web/raw/agentwire_bg.wasm");
    how = "agentwire/web + await init()";
  }
  if (!existsSync(wasm)) { console.error(`error: ${wasm} missing: run scripts/build-pkg.sh`); process.exit(1); }
  writeFileSync(path.join(dir, "app-src.mjs"), source);
  bundle(path.join(dir, "app-src.mjs"), path.join(dir, "app.js"));
  bundle(path.join(dir, "app-src.mjs"), path.join(dir, "app-marked.js"), MARKS);
  writeFileSync(path.join(dir, "agentwire_bg.wasm"), readFileSync(wasm));
  candidates.push({ name: e === "agentwire" ? "agentwire" : `agentwire/${e}`, dir: e, wasm: true, how,
    jsBytes: readFileSync(path.join(dir, "app.js")).length, wasmBytes: readFileSync(wasm).length });
}
if (CLIENTS) {
  const index = path.join(work, "out/index.json");
  if (!existsSync(index)) { console.error("error: no client bundles: run node benches/js-sizes/measure.mjs first (or --no-clients)"); process.exit(1); }
  const clients = JSON.parse(readFileSync(index, "utf8")).filter((b) => b.name !== "agentwire" && !b.name.startsWith("agentwire/"));
  // An empty module: the fixed cost of import() itself, which every row includes.
  clients.push({ name: "(an empty module)", file: null });
  for (const c of clients) {
    const dir = `client-${c.name.replace(/[^a-z0-9]+/gi, "_")}`;
    mkdirSync(path.join(site, dir), { recursive: true });
    // Its bundle (every export kept alive by the namespace object) and the same hook as agentwire's.
    const src = path.join(site, dir, "app-src.mjs");
    writeFileSync(src, c.file ? `import * as m from ${JSON.stringify(path.join(work, "out", c.file))};\nwindow.__ready(m);\n` : "window.__ready({});\n");
    bundle(src, path.join(site, dir, "app.js"));
    candidates.push({ name: c.name, dir, wasm: false, how: "its bundle (measure.mjs)", jsBytes: readFileSync(path.join(site, dir, "app.js")).length });
  }
}

// 2. The server: the files above, cacheable; it counts the requests of each measurement.
const TYPES = { ".js": "text/javascript", ".wasm": "application/wasm", ".html": "text/html" };
let requests = [];
const server = http.createServer((req, res) => {
  const p = decodeURIComponent(new URL(req.url, "http://x").pathname);
  requests.push(p);
  if (p.endsWith("/")) { res.writeHead(200, { "content-type": "text/html" }); res.end("<!doctype html><title>startup</title>"); return; }
  const f = path.join(site, path.normalize(p));
  if (!f.startsWith(site + path.sep) || !existsSync(f)) { res.writeHead(404); res.end(); return; }
  res.writeHead(200, { "content-type": TYPES[path.extname(f)] || "application/octet-stream", "cache-control": "max-age=3600" });
  res.end(readFileSync(f));
});
await new Promise((r) => server.listen(0, "127.0.0.1", r));
const origin = `http://127.0.0.1:${server.address().port}`;

// The instrumented pass: instantiateStreaming as compileStreaming + instantiate, each timed.
const PHASE_SCRIPT = `(() => {
  const W = WebAssembly, compile = W.compileStreaming.bind(W), inst = W.instantiate.bind(W), f = fetch.bind(window);
  window.fetch = (input, init) => {
    performance.mark("aw:fetch-call");
    return f(input, init).then((r) => { performance.mark("aw:fetch-response"); return r; });
  };
  W.instantiateStreaming = async (source, imports) => {
    const response = await source;
    performance.mark("aw:compile-start");
    const module = await compile(response);
    performance.mark("aw:compile-end");
    const instance = await inst(module, imports);
    performance.mark("aw:instantiate-end");
    return { module, instance };
  };
})();`;
const NO_STREAMING = "delete WebAssembly.instantiateStreaming; delete WebAssembly.compileStreaming;";
const EVENT = 'event: task-created\ndata: {"kind":"task-created","contextId":"c","taskId":"t","initiator":"user","timestamp":"2025-11-06T10:30:00.000Z"}\n\n';

async function once(c, { variant = "streaming", phases = false } = {}) {
  const browser = await launchChromium();
  try {
    const ctx = await browser.newContext();
    if (phases) await ctx.addInitScript(PHASE_SCRIPT);
    if (variant === "bytes") await ctx.addInitScript(NO_STREAMING);
    const page = await ctx.newPage();
    await page.goto(`${origin}/${c.dir}/`);
    const app = phases ? "app-marked.js" : "app.js";
    const inline = variant !== "download";
    const wasmFile = c.wasm ? `/${c.dir}/agentwire_bg.wasm` : null;
    const text = inline ? readFileSync(path.join(site, c.dir, app), "utf8") : null;
    requests = [];
    const r = await page.evaluate(async ({ app, text, wasmFile, event, store }) => {
      if (text !== null && wasmFile) await (await fetch(wasmFile)).arrayBuffer();
      await new Promise((res) => setTimeout(res, 50));
      const loaded = new Promise((res, rej) => { window.__ready = res; window.onerror = (_m, _s, _l, _c, e) => rej(e); });
      const script = document.createElement("script");
      script.type = "module";
      const t0 = performance.now();
      if (text !== null) script.textContent = text; else script.src = app;
      document.head.append(script);
      const m = await loaded;
      const t1 = performance.now();
      let ok = true;
      if (store) {
        const s = new m.AgentStore();
        s.feedText(event);
        const t2 = performance.now();
        ok = s.getSnapshot().roots.length === 1;
        s.close();
        var storeMs = t2 - t1;
      }
      const mark = (n) => performance.getEntriesByName(`aw:${n}`).at(-1)?.startTime ?? null;
      const marks = Object.fromEntries(["bundle-start", "fetch-call", "fetch-response", "compile-start", "compile-end", "instantiate-end", "bundle-end"].map((n) => [n, mark(n)]));
      for (const k in marks) if (marks[k] !== null) marks[k] -= t0;
      return { importMs: t1 - t0, storeMs: store ? storeMs : 0, readyMs: t1 - t0 + (store ? storeMs : 0), ok, marks };
    }, { app, text, wasmFile, event: EVENT, store: c.wasm });
    if (!r.ok) throw new Error(`${c.name}: the first feed did not make the task`);
    // With the prefetch, the wasm is asked for once (the loader read the cache).
    const asked = requests.filter((p) => p === wasmFile).length;
    if (inline && wasmFile && asked !== 1) throw new Error(`${c.name}: ${asked} requests for the wasm: the loader missed the HTTP cache`);
    return r;
  } finally {
    await browser.close();
  }
}

const median = (xs) => { const s = xs.filter((x) => x !== null && !Number.isNaN(x)).sort((a, b) => a - b); return s.length ? s[(s.length - 1) >> 1] / 2 + s[s.length >> 1] / 2 : NaN; };
const load = () => os.loadavg().map((x) => x.toFixed(2)).join(", ");
const loadBefore = load();

// 3. Rounds, interleaved: each round measures every candidate once.
const passes = [
  ...VARIANTS.map((v) => ({ key: v, variant: v, phases: false, of: (c) => v === "streaming" || c.wasm })),
  ...(PHASES ? [{ key: "phases", variant: "streaming", phases: true, of: (c) => c.wasm }] : []),
];
const results = new Map();
for (let i = 0; i < RUNS; i++) {
  for (const p of passes) {
    for (const c of candidates.filter(p.of)) {
      const k = `${p.key} ${c.name}`;
      if (!results.has(k)) results.set(k, []);
      results.get(k).push(await once(c, p));
    }
  }
  process.stderr.write(`[startup] round ${i + 1}/${RUNS} (load ${load()})\n`);
}
server.close();
const loadAfter = load();

// 4. The tables.
const f1 = (x) => (Number.isNaN(x) ? "-" : x.toFixed(1));
const n = (x) => x.toLocaleString("en-US");
const rows = candidates.map((c) => {
  const rs = results.get(`streaming ${c.name}`);
  const row = { name: c.name, how: c.how, wasm: c.wasm, jsBytes: c.jsBytes, wasmBytes: c.wasmBytes ?? 0,
    importMs: median(rs.map((r) => r.importMs)), storeMs: median(rs.map((r) => r.storeMs)), readyMs: median(rs.map((r) => r.readyMs)),
    minReadyMs: Math.min(...rs.map((r) => r.readyMs)), maxReadyMs: Math.max(...rs.map((r) => r.readyMs)) };
  for (const v of VARIANTS.filter((v) => v !== "streaming")) {
    const vs = results.get(`${v} ${c.name}`);
    if (vs) row[`${v}ReadyMs`] = median(vs.map((r) => r.readyMs));
  }
  const ph = results.get(`phases ${c.name}`);
  if (ph) {
    const d = (a, b) => median(ph.map((r) => (r.marks[a] === null || r.marks[b] === null ? null : r.marks[b] - r.marks[a])));
    const at = (m) => median(ph.map((r) => r.marks[m]));
    row.phases = {
      jsLoadMs: at("bundle-start"), // the script appended until the bundle's first statement: the JS parsed and compiled
      glueEvalMs: d("bundle-start", "fetch-call"), // the bundle's statements until the wasm is asked for
      fetchMs: d("fetch-call", "fetch-response"), // fetch() of the cached wasm until its Response
      wasmResponseMs: d("fetch-response", "compile-start"), // the glue until compileStreaming
      compileMs: d("compile-start", "compile-end"), // compileStreaming
      instantiateMs: d("compile-end", "instantiate-end"),
      afterMs: d("instantiate-end", "bundle-end"), // wasm start, the layer's module evaluation
      importMs: median(ph.map((r) => r.importMs)), storeMs: median(ph.map((r) => r.storeMs)), readyMs: median(ph.map((r) => r.readyMs)),
    };
  }
  return row;
});
const aw = rows.find((r) => r.name === "agentwire/core") ?? rows[0];
const ref = aw.readyMs;
console.log(`\nStart-up in Chromium ${chromiumVersion()} (new browser per measurement, median of ${RUNS}, rounds interleaved; the JS in the page as an inline module script, the wasm in the HTTP cache before the clock, fetched by the entry's loader)`);
console.log(`load average (1, 5, 15 min): ${loadBefore} before, ${loadAfter} after; ${os.cpus().length} cores\n`);
console.log(`| entry / client | loaded as | JS B | wasm B | module ready ms | new AgentStore + first feed ms | ready ms | budget ${BUDGET_MS} ms | min-max ms | x ${aw.name} |`);
console.log("|---|---|--:|--:|--:|--:|--:|:-:|--:|--:|");
for (const r of rows) {
  const budget = r.wasm ? (r.readyMs <= BUDGET_MS ? "✓" : "✗") : "";
  console.log(`| ${r.name} | ${r.how} | ${n(r.jsBytes)} | ${r.wasm ? n(r.wasmBytes) : "-"} | ${f1(r.importMs)} | ${r.wasm ? f1(r.storeMs) : "-"} | ${f1(r.readyMs)} | ${budget} | ${f1(r.minReadyMs)}-${f1(r.maxReadyMs)} | ${(r.readyMs / ref).toFixed(2)} |`);
}
const extra = VARIANTS.filter((v) => v !== "streaming");
if (extra.length) {
  console.log(`\nLoader variants, ready ms (median of ${RUNS}): streaming = instantiateStreaming of the cached Response (what users get);` +
    " bytes = no instantiateStreaming (the glue's arrayBuffer() + instantiate fallback); download = nothing in the page or the cache (<script type=module src> and the wasm from the local server inside the clock)\n");
  console.log(`| entry | streaming | ${extra.join(" | ")} |`);
  console.log(`|---|--:|${extra.map(() => "--:").join("|")}|`);
  for (const r of rows.filter((r) => r.wasm)) console.log(`| ${r.name} | ${f1(r.readyMs)} | ${extra.map((v) => f1(r[`${v}ReadyMs`])).join(" | ")} |`);
}
if (PHASES) {
  console.log(`\nWhere the time goes (a separate instrumented pass, median of ${RUNS} per phase; marks at the bundle's first and last statement, instantiateStreaming timed as compileStreaming + instantiate)\n`);
  console.log("| entry | JS parsed + compiled (to its first statement) | JS evaluated until the wasm fetch | fetch (HTTP cache) | glue until compile | wasm compile (streaming) | instantiate | wasm start + layer evaluation | new AgentStore + first feed | ready |");
  console.log("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|");
  for (const r of rows.filter((r) => r.phases)) {
    const p = r.phases;
    console.log(`| ${r.name} | ${f1(p.jsLoadMs)} | ${f1(p.glueEvalMs)} | ${f1(p.fetchMs)} | ${f1(p.wasmResponseMs)} | ${f1(p.compileMs)} | ${f1(p.instantiateMs)} | ${f1(p.afterMs)} | ${f1(p.storeMs)} | ${f1(p.readyMs)} |`);
  }
}
const over = rows.filter((r) => r.wasm && r.readyMs > BUDGET_MS);
console.log(`\n${over.length ? `${over.length} entr${over.length === 1 ? "y" : "ies"} over the ${BUDGET_MS} ms budget: ${over.map((r) => r.name).join(", ")}` : `every entry within the ${BUDGET_MS} ms budget`} (a report, not a check: the machine's load moves these figures)`);
if (jsonOut) writeFileSync(jsonOut, JSON.stringify({ date: new Date().toISOString(), chromium: chromiumVersion(), runs: RUNS, budgetMs: BUDGET_MS, load: { before: loadBefore, after: loadAfter }, rows }, null, 2) + "\n");

function chromiumVersion() {
  try { return execFileSync("/usr/bin/chromium", ["--version"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).match(/[\d.]+/)?.[0] ?? ""; } catch { return ""; }
}
