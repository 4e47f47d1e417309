#!/usr/bin/env node
// What an app ships to read an agent stream: agentwire's package next to the JavaScript clients
// it is meant to replace, each bundled as an app's bundler would (esbuild: bundle, minify, ESM,
// browser, ES2022, tree-shaken to the entry's exports), compressed the same way
// (scripts/lib/pkg-size.mjs: gzip -9, brotli q11).
//
//   node benches/js-sizes/measure.mjs [--json out.json]
//
// Needs the built package (scripts/build-pkg.sh) and the tools (scripts/setup.sh). The clients
// (versions pinned in package.json / package-lock.json here) are installed with `npm ci` into
// target/js-sizes (again only when the lock file changed). Entries in entries/ name what is
// measured for each; js-reference is the benchmark harness's own JavaScript pipeline
// (eventsource-parser + validation + assembly of protocol 000 only; BENCH_HARNESS, default
// ../shared/bench). A report, not a check: the size budget is scripts/size-report.mjs's.
// The bundles stay in target/js-sizes/out (listed in index.json) for startup.mjs, which measures
// how long each takes to start in Chromium.
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { entryFiles, measure, shippedFiles } from "../../scripts/lib/pkg-size.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../..");
const argv = process.argv.slice(2);
const jsonOut = argv.includes("--json") ? argv[argv.indexOf("--json") + 1] : null;
const esbuild = path.join(root, "tools/node_modules/.bin/esbuild");
const harness = path.resolve(root, process.env.BENCH_HARNESS || "../shared/bench");
const pkg = path.join(root, "pkg");
for (const [what, p] of [["esbuild (run scripts/setup.sh)", esbuild], ["pkg/ (run scripts/build-pkg.sh)", path.join(pkg, "raw", "agentwire_bg.wasm")]]) {
  if (!existsSync(p)) {
    console.error(`error: ${what} missing: ${p}`);
    process.exit(1);
  }
}

// 1. The clients, installed from the lock file.
const work = path.join(root, "target/js-sizes");
mkdirSync(work, { recursive: true });
for (const f of ["package.json", "package-lock.json"]) cpSync(path.join(here, f), path.join(work, f));
const lock = readFileSync(path.join(work, "package-lock.json"), "utf8");
const stamp = path.join(work, "node_modules/.lock-src");
if (!existsSync(stamp) || readFileSync(stamp, "utf8") !== lock) {
  console.error("[js-sizes] npm ci in target/js-sizes");
  execFileSync("npm", ["ci", "--no-audit", "--no-fund", "--loglevel=error", "--ignore-scripts"], { cwd: work, stdio: ["ignore", "inherit", "inherit"] });
  writeFileSync(stamp, lock);
}
const versions = JSON.parse(readFileSync(path.join(here, "package.json"), "utf8")).dependencies;

// 2. Each entry bundled as an app would; the harness's js-reference with its own imports.
const entries = [
  { name: "js-reference", what: "the harness's JS pipeline (protocol 000 only)", file: path.join(harness, "page/consumers/js-reference.js"), dep: "eventsource-parser" },
  { name: "@ag-ui/client", what: "HttpAgent (AG-UI only)", file: path.join(here, "entries/ag-ui.mjs"), dep: "@ag-ui/client" },
  { name: "ai (Vercel AI SDK)", what: "AbstractChat + DefaultChatTransport + readUIMessageStream (UI message stream only)", file: path.join(here, "entries/ai.mjs"), dep: "ai" },
  { name: "@langchain/langgraph-sdk", what: "Client (LangGraph API only)", file: path.join(here, "entries/langgraph.mjs"), dep: "@langchain/langgraph-sdk" },
  { name: "@a2a-js/sdk", what: "ClientFactory (A2A only)", file: path.join(here, "entries/a2a.mjs"), dep: "@a2a-js/sdk" },
];
const rows = [];
const out = path.join(work, "out");
mkdirSync(out, { recursive: true });
for (const e of entries) {
  if (!existsSync(e.file)) {
    console.error(`[js-sizes] skipped ${e.name}: ${e.file} missing`);
    continue;
  }
  const bundle = path.join(out, `${e.name.replace(/[^a-z0-9]+/gi, "_")}.js`);
  execFileSync(esbuild, [e.file, "--bundle", "--minify", "--format=esm", "--platform=browser", "--target=es2022",
    "--log-level=error", `--outfile=${bundle}`],
  // NODE_PATH: the entries (and the harness file) resolve the packages from target/js-sizes.
  { cwd: work, env: { ...process.env, NODE_PATH: path.join(work, "node_modules") } });
  const m = measure(bundle);
  rows.push({ name: e.name, bundle: path.basename(bundle), version: e.name === e.dep ? versions[e.dep] : `${e.dep} ${versions[e.dep]}`, what: e.what, raw: m.raw, gz: m.gz, br: m.br });
}
const total = (files) => files.filter(existsSync).map(measure)
  .reduce((a, m) => ({ raw: a.raw + m.raw, gz: a.gz + m.gz, br: a.br + m.br }), { raw: 0, gz: 0, br: 0 });
const aw = total(shippedFiles(pkg));
const awVersion = JSON.parse(readFileSync(path.join(pkg, "package.json"), "utf8")).version;
// One row per protocol's entry (issue 23): everything it loads, counted as scripts/size-report.mjs
// counts it (the layer, the loader, the web glue, its snippets and the wasm; each file compressed alone).
const protocols = { core: "protocol 000", a2a: "A2A 0.3 and 1.0", acp: "A2A-ACP", unified: "Unified", myagent: "MyAgent (WebSocket)", "ag-ui": "AG-UI 1.0", "ai-sdk": "AI SDK UI message stream" };
const entryRows = Object.entries(protocols).filter(([e]) => existsSync(path.join(pkg, e, "raw", "agentwire_bg.wasm")))
  .map(([e, what]) => ({ name: `agentwire/${e}`, version: awVersion, what: `wasm + loader + glue + TS layer (${what} only; store, transports, no Worker mode)`, ...total(entryFiles(path.join(pkg, e))) }));
rows.unshift({ name: "agentwire", version: awVersion, what: "wasm + JS glue + Worker entry (every protocol, auto-detection, 3 transports, store, Worker mode)", ...aw }, ...entryRows);

// 3. The table.
const n = (x) => x.toLocaleString("en-US");
console.log("| client | version | what is bundled | raw B | gzip B | brotli B | gzip x agentwire |");
console.log("|---|---|---|--:|--:|--:|--:|");
for (const r of rows) {
  console.log(`| ${r.name} | ${r.version} | ${r.what} | ${n(r.raw)} | ${n(r.gz)} | ${n(r.br)} | ${(r.gz / aw.gz).toFixed(2)} |`);
}
// The bundles, for startup.mjs.
writeFileSync(path.join(out, "index.json"), JSON.stringify(rows.filter((r) => r.bundle).map((r) => ({ name: r.name, file: r.bundle })), null, 2) + "\n");
if (jsonOut) writeFileSync(jsonOut, JSON.stringify({ date: new Date().toISOString(), rows: rows.map(({ bundle, ...r }) => r) }, null, 2) + "\n");
