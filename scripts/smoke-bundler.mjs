// Bundler smoke test: installs the built package the way a user's app gets it (`npm pack pkg/`,
// unpacked into target/smoke-bundler/node_modules/agentwire, so `files`, `exports` and
// `sideEffects` are what is tested), then Node's own `import "agentwire"` and of each protocol's
// entry, and an app under Vite's dev server with no setting in Chromium.
//   node scripts/smoke-bundler.mjs
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import path from "node:path";
import { launchChromium } from "./lib/chromium.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const dir = path.join(root, "target/smoke-bundler");
rmSync(dir, { recursive: true, force: true });
mkdirSync(path.join(dir, "node_modules/agentwire"), { recursive: true });

// 1. npm pack + unpack (what `npm install agentwire` would put in node_modules; no registry).
const [packed] = JSON.parse(execFileSync("npm", ["pack", path.join(root, "pkg"), "--json", "--pack-destination", dir, "--loglevel=error"],
  { cwd: dir, stdio: ["ignore", "pipe", "inherit"] }).toString());
execFileSync("tar", ["-xzf", path.join(dir, packed.filename), "-C", path.join(dir, "node_modules/agentwire"), "--strip-components=1"]);
console.log(`packed ${packed.filename}: ${packed.files.length} files, ${packed.size} B (unpacked ${packed.unpackedSize} B)`);
// The license texts go with every copy ("MIT OR Apache-2.0": MIT requires its notice in copies).
for (const f of ["LICENSE-MIT", "LICENSE-APACHE", "README.md"]) {
  if (!packed.files.some((p) => p.path === f)) {
    console.error(`bundler smoke test: the package does not ship ${f}`);
    process.exit(1);
  }
}

// 3-4 (until 2026-11-26): esbuild bundled the app with a plugin standing in for the bundlers'
// WebAssembly/ESM integration and ran it in Node. The package no longer needs that integration
// (its wasm loads from `new URL(..., import.meta.url)`), and the real bundlers (Vite, webpack 5,
// Next.js) build every entry in scripts/entries-bundlers.mjs.

// 5. Node's `import "agentwire"` (the "node" condition: the web build with the wasm read from
// disk; it failed with ERR_UNKNOWN_FILE_EXTENSION ".wasm" before), from ESM and from require().
for (const [flag, code] of [
  ["--input-type=module", `import { AgentStore } from "agentwire"; console.log(new AgentStore({}).getSnapshot().version);`],
  ["--input-type=commonjs", `const { AgentStore } = require("agentwire"); console.log(new AgentStore({}).getSnapshot().version);`],
]) {
  if (flag === "--input-type=commonjs" && !process.features.require_module) continue; // Node < 20.19
  const printed = execFileSync(process.execPath, [flag, "-e", code], { cwd: dir, stdio: ["ignore", "pipe", "inherit"] }).toString().trim();
  if (printed !== "0") {
    console.error(`bundler smoke test: Node's import "agentwire" (${flag}) printed ${printed}, expected 0`);
    process.exit(1);
  }
}
// 5b. Node's import of each protocol's entry (its "node" condition: raw/node-init.js reads the
// wasm from disk before the entry's loader runs; without it the loader fetched a file: URL and
// failed). ESM only: the entries' loader awaits at top level, which require() cannot.
const SSE = [
  'event: task-created\ndata: {"kind":"task-created","contextId":"c","taskId":"t","initiator":"user","timestamp":"2025-11-06T10:30:00Z"}\n\n',
  'event: content-delta\ndata: {"kind":"content-delta","contextId":"c","taskId":"t","delta":"hello","index":0,"timestamp":"2025-11-06T10:30:00Z"}\n\n',
].join("");
for (const entry of ["core", "a2a", "acp", "unified", "myagent", "ag-ui", "ai-sdk"]) {
  const code = `import { AgentStore } from "agentwire/${entry}"; const s = new AgentStore({}); s.feedText(${JSON.stringify(SSE)}); console.log(s.getSnapshot().tasks[0].content);`;
  const printed = execFileSync(process.execPath, ["--input-type=module", "-e", code], { cwd: dir, stdio: ["ignore", "pipe", "inherit"] }).toString().trim();
  if (printed !== "hello") {
    console.error(`bundler smoke test: Node's import "agentwire/${entry}" assembled ${JSON.stringify(printed)}, expected "hello"`);
    process.exit(1);
  }
}
console.log("bundler smoke test: Node imports agentwire/core, /a2a, /acp, /unified, /myagent, /ag-ui, /ai-sdk");
// 6. Vite's dev server with the packed package installed as a real directory (the demo links
// ../pkg, which Vite never pre-bundles), with no setting: an AgentStore and a WorkerClient in
// Chromium. (Until 2026-11-26 the package needed `optimizeDeps.exclude`, else the page failed at
// start: `reading '__wbindgen_externrefs'`, and `worker: { format: "es" }`.)
// Vite comes from www-demo/ (pinned there, installed by scripts/demo-e2e.sh).
const viteDir = path.join(root, "www-demo/node_modules/vite");
if (!existsSync(path.join(viteDir, "package.json"))) {
  console.error("bundler smoke test: www-demo/node_modules/vite is missing: run scripts/demo-e2e.sh (or npm ci in www-demo/) first");
  process.exit(1);
}
symlinkSync(viteDir, path.join(dir, "node_modules/vite"));
writeFileSync(path.join(dir, "index.html"), `<!doctype html><meta charset="utf-8"><script type="module" src="/main.js"></script>\n`);
writeFileSync(path.join(dir, "main.js"), `
import { AgentStore, WorkerClient } from "agentwire";
const text = ${JSON.stringify('event: task-created\ndata: {"kind":"task-created","contextId":"c","taskId":"t","initiator":"user","timestamp":"2025-11-06T10:30:00Z"}\n\n')};
try {
  const store = new AgentStore({});
  store.feedText(text);
  const worker = new WorkerClient({ transport: "manual" });
  worker.start();
  worker.feed(new TextEncoder().encode(text));
  await worker.finish();
  window.__result = { store: store.getSnapshot().tasks.length, worker: worker.getSnapshot().tasks.length };
  worker.close();
} catch (e) { window.__result = { error: String(e) }; }
`);
const vite = await import(pathToFileURL(path.join(viteDir, "dist/node/index.js")).href);
const server = await vite.createServer({
  root: dir, configFile: false, logLevel: "error", clearScreen: false,
  server: { host: "127.0.0.1", port: 0, strictPort: false },
});
let devResult;
try {
  await server.listen();
  const url = server.resolvedUrls.local[0];
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    const problems = [];
    page.on("pageerror", (e) => problems.push(e.message));
    await page.goto(url);
    await page.waitForFunction(() => window.__result !== undefined, null, { timeout: 60_000 }).catch(() => {});
    devResult = await page.evaluate(() => window.__result);
    if (problems.length) devResult = { ...devResult, problems };
  } finally {
    await browser.close();
  }
} finally {
  await server.close();
}
if (JSON.stringify(devResult) !== JSON.stringify({ store: 1, worker: 1 })) {
  console.error(`bundler smoke test: the app under Vite's dev server gave ${JSON.stringify(devResult)}, expected {"store":1,"worker":1}`);
  process.exit(1);
}
console.log(`bundler smoke test ok: Node imports "agentwire" as is; Vite ${vite.version} dev server: AgentStore and WorkerClient work`);
