#!/usr/bin/env node
// agentwire's ai-sdk dialect next to the official Vercel AI SDK client (ai@7.0.173), one headless
// Chromium, interleaved rounds (A B C D, A B C D, ...), correctness checked against the official
// reader's final message (gen.mjs's partsSha256). Run through scripts/bench-ai-sdk.sh.
//
//   node benches/ai-sdk/run.mjs [--preset 25k,100k] [--runs 5] [--warmup 1]
//        [--consumers official,official-noschema,official-reducer,agentwire] [--timeout 300]
//        [--json out.json] [--profile CONSUMER:PRESET]
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../..");
const sdkDir = process.env.AI_SDK_DIR || path.join(root, "tests/ai-sdk");
const toolsReq = createRequire(path.join(root, "tools/package.json"));
const esbuild = toolsReq("esbuild");
const { chromium } = toolsReq("playwright-core");

const argv = process.argv.slice(2);
const opt = (k, d) => (argv.includes(k) ? argv[argv.indexOf(k) + 1] : d);
const presets = opt("--preset", "25k,100k").split(",");
const runs = +opt("--runs", 5);
const warmup = +opt("--warmup", 1);
const timeoutS = +opt("--timeout", 300);
const wanted = opt("--consumers", "official,official-noschema,official-reducer,agentwire").split(",");
const jsonOut = opt("--json", null);
const profile = opt("--profile", null);
// AW_PKG: another build of the web target (e.g. wasm-bindgen output without wasm-opt, which keeps
// the function names a CPU profile shows); default pkg/web.
const awPkg = path.resolve(root, process.env.AW_PKG || "pkg/web");

// 1. The page bundle: the official modules from tests/ai-sdk/node_modules, agentwire from pkg/web.
const out = path.join(root, "target/ai-sdk-bench");
fs.mkdirSync(out, { recursive: true });
const nm = path.join(sdkDir, "node_modules");
await esbuild.build({
  entryPoints: [path.join(here, "page.mjs")],
  bundle: true, format: "esm", platform: "browser", target: "es2022", minify: true,
  outfile: path.join(out, "bench.js"), logLevel: "error", nodePaths: [nm],
  plugins: [{
    name: "ai-src", // the reducer is not exported: bundle it from the package's own sources
    setup(b) {
      b.onResolve({ filter: /^ai\/src\// }, (a) => ({ path: path.join(nm, a.path) }));
      b.onResolve({ filter: /^\.\.\/\.\.\/pkg\/web\// }, (a) => ({ path: path.join(awPkg, a.path.slice(13)) }));
    },
  }],
});
fs.writeFileSync(path.join(out, "index.html"), '<!doctype html><meta charset="utf-8"><title>ai-sdk bench</title><script type="module" src="/bench.js"></script>\n');

// 2. A static server on 127.0.0.1.
const types = { ".js": "text/javascript", ".html": "text/html", ".wasm": "application/wasm", ".sse": "application/octet-stream" };
const routes = [["/pkg/web/", awPkg], ["/data/", path.join(here, "data")], ["/", out]];
const server = http.createServer((req, res) => {
  const u = decodeURIComponent(new URL(req.url, "http://x").pathname);
  for (const [prefix, dir] of routes) {
    if (!u.startsWith(prefix)) continue;
    const f = path.join(dir, u.slice(prefix.length) || "index.html");
    if (!f.startsWith(dir) || !fs.existsSync(f)) break;
    res.writeHead(200, { "content-type": types[path.extname(f)] ?? "application/octet-stream", "cache-control": "no-store" });
    return fs.createReadStream(f).pipe(res);
  }
  res.writeHead(404).end();
});
await new Promise((r) => server.listen(0, "127.0.0.1", r));
const base = `http://127.0.0.1:${server.address().port}`;

// 3. Chromium (system, headless; quiet-network flags of ../shared/TOOLCHAIN.md).
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium", headless: true,
  args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking", "--disable-component-update",
    "--disable-sync", "--disable-quic", "--no-first-run", "--enable-precise-memory-info", "--js-flags=--expose-gc"],
});
const version = browser.version();
let page;
async function newPage() {
  if (page) await page.close().catch(() => {});
  page = await browser.newPage();
  page.on("pageerror", (e) => console.error("[page]", e.message));
  await page.goto(base + "/");
  await page.waitForFunction(() => window.bench);
  await page.evaluate(() => window.bench.init());
}
await newPage();

const results = { chromium: version, node: process.version, date: new Date().toISOString(), presets: {} };
const n = (x, d = 0) => x.toLocaleString("en-US", { minimumFractionDigits: d, maximumFractionDigits: d });
const median = (a) => { const s = [...a].sort((x, y) => x - y); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };

if (profile) {
  const [name, preset] = profile.split(":");
  await page.evaluate((p) => window.bench.load(p), preset);
  await page.evaluate(([c, p]) => window.bench.run(c, p), [name, preset]); // warm
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Profiler.enable");
  await cdp.send("Profiler.setSamplingInterval", { interval: 200 });
  await cdp.send("Profiler.start");
  const r = await page.evaluate(([c, p]) => window.bench.run(c, p), [name, preset]);
  const { profile: prof } = await cdp.send("Profiler.stop");
  fs.writeFileSync(path.join(out, `${name}-${preset}.cpuprofile`), JSON.stringify(prof));
  const self = new Map();
  const dt = prof.timeDeltas;
  const byId = new Map(prof.nodes.map((x) => [x.id, x]));
  prof.samples.forEach((id, i) => { const f = byId.get(id).callFrame; const k = `${f.functionName || "(anonymous)"} ${f.url.split("/").pop()}:${f.lineNumber}:${f.columnNumber}`; self.set(k, (self.get(k) ?? 0) + (dt[i] ?? 0)); });
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  console.log(`profile ${name} ${preset}: ${n(r.ms, 1)} ms; top self time:`);
  for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`  ${(100 * v / total).toFixed(1).padStart(5)}%  ${n(v / 1000, 1).padStart(8)} ms  ${k}`);
  await browser.close(); server.close(); process.exit(0);
}

for (const preset of presets) {
  const exp = JSON.parse(fs.readFileSync(path.join(here, "data", `${preset}.expected.json`), "utf8"));
  const bytes = await page.evaluate((p) => window.bench.load(p), preset);
  if (bytes !== exp.bytes) throw new Error(`${preset}: page has ${bytes} bytes, expected ${exp.bytes}`);
  const rec = Object.fromEntries(wanted.map((c) => [c, { ms: [], heap: [], wasmGrow: [], wasmMB: 0, status: "OK", parts: null }]));
  console.error(`[ai-sdk bench] ${preset}: ${n(exp.chunks)} chunks, ${(exp.bytes / 1e6).toFixed(1)} MB; ${warmup} warm-up + ${runs} rounds of ${wanted.join(" ")}`);
  for (let round = 0; round < warmup + runs; round++) {
    for (const c of wanted) {
      const r = rec[c];
      if (r.status !== "OK") continue;
      let res;
      try {
        res = await Promise.race([
          page.evaluate(([c, p]) => window.bench.run(c, p), [c, preset]),
          new Promise((_, rej) => setTimeout(() => rej(new Error("timeout")), timeoutS * 1000)),
        ]);
      } catch (e) {
        r.status = e.message === "timeout" ? `DNF (>${timeoutS} s)` : `ERROR ${e.message.split("\n")[0]}`;
        console.error(`  ${c}: ${r.status}`);
        await newPage();
        await page.evaluate((p) => window.bench.load(p), preset);
        continue;
      }
      const wrong = res.sha !== exp.partsSha256 || (res.diagnostics ?? 0) > 0;
      if (wrong) {
        r.status = "WRONG";
        r.detail = { sha: res.sha, parts: res.parts, expectedParts: exp.parts, diagnostics: res.diagnostics, firstDiag: res.firstDiag };
        console.error(`  ${c}: WRONG ${JSON.stringify(r.detail).slice(0, 400)}`);
        continue;
      }
      r.parts = res.parts;
      r.wasmMB = res.wasmMB;
      if (round >= warmup) { r.ms.push(res.ms); r.heap.push(res.heapPeakMB); r.wasmGrow.push(res.wasmGrowMB); }
      if (res.split && round >= warmup) (r.split ??= []).push(res.split);
      console.error(`  round ${round < warmup ? "w" : round - warmup + 1} ${c.padEnd(18)} ${n(res.ms, 1).padStart(10)} ms  heap +${res.heapPeakMB.toFixed(1)} MB${res.split ? ` (feed+finish ${n(res.split.feedMs, 1)} ms, getSnapshot ${n(res.split.snapshotMs, 1)} ms)` : ""}`);
    }
  }
  await page.evaluate((p) => window.bench.unload(p), preset);
  results.presets[preset] = { expected: exp, consumers: rec };
}
await browser.close();
server.closeAllConnections();
server.close();

// 4. Tables.
const lines = [];
const say = (s = "") => { lines.push(s); console.log(s); };
say(`AI SDK UI message stream: agentwire (dialect "ai-sdk") vs the official ai@7.0.173 client; ${results.date}`);
say(`Chromium ${version} headless, Node ${process.version}; mem path, 64 KiB chunks; ${warmup} warm-up + ${runs} interleaved rounds; medians`);
for (const [preset, { expected: exp, consumers: rec }] of Object.entries(results.presets)) {
  say();
  say(`**${preset}** (${n(exp.chunks)} chunks, ${(exp.bytes / 1e6).toFixed(1)} MB, final message ${exp.parts} parts)`);
  say();
  say("| consumer | median ms | min–max ms | chunks/s | MB/s | × official | heap Δ MB (peak) | wasm memory MB | status |");
  say("|---|--:|--:|--:|--:|--:|--:|--:|---|");
  const off = rec.official?.ms.length ? median(rec.official.ms) : null;
  for (const [c, r] of Object.entries(rec)) {
    if (!r.ms.length) { say(`| ${c} | - | - | - | - | - | - | - | ${r.status} |`); continue; }
    const m = median(r.ms);
    say(`| ${c} | ${n(m, 1)} | ${n(Math.min(...r.ms), 0)}–${n(Math.max(...r.ms), 0)} | ${n(exp.chunks / (m / 1000))} | ${(exp.bytes / 1e6 / (m / 1000)).toFixed(1)} | ${off ? (m / off).toFixed(3) : "-"} | ${median(r.heap).toFixed(1)} | ${c === "agentwire" ? `${r.wasmMB.toFixed(1)} (grew ${median(r.wasmGrow).toFixed(1)})` : "-"} | ${r.status} |`);
    r.median = m;
  }
}
const ps = Object.keys(results.presets);
if (ps.length >= 2) {
  say();
  say(`Linearity: µs per chunk (median ms ÷ chunks) at each size; last column = per-chunk cost at ${ps.at(-1)} ÷ at ${ps[0]} (1.0 = linear)`);
  say();
  say(`| consumer | ${ps.map((p) => `µs/chunk ${p}`).join(" | ")} | growth |`);
  say(`|---|${ps.map(() => "--:").join("|")}|--:|`);
  for (const c of wanted) {
    const per = ps.map((p) => { const r = results.presets[p].consumers[c]; return r.ms.length ? (1000 * median(r.ms)) / results.presets[p].expected.chunks : null; });
    say(`| ${c} | ${per.map((x) => (x == null ? "-" : x.toFixed(3))).join(" | ")} | ${per[0] && per.at(-1) ? (per.at(-1) / per[0]).toFixed(2) : "-"} |`);
  }
}
if (jsonOut) {
  fs.writeFileSync(jsonOut, JSON.stringify(results, null, 1) + "\n");
  fs.writeFileSync(jsonOut.replace(/\.json$/, ".txt"), lines.join("\n") + "\n");
}
// The server's keep-alive sockets would hold the process open (seen after the 1m preset).
process.exit(0);
