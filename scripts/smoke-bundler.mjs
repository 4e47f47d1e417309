// Bundler smoke test: installs the built package the way a user's app gets it (`npm pack pkg/`,
// unpacked into target/smoke-bundler/node_modules/agentwire, so `files`, `exports` and
// `sideEffects` are what is tested), bundles a tiny app that does `import { AgentStore } from
// "agentwire"` with esbuild (tools/), then runs the bundle in Node and checks what it printed;
// then Node's own `import "agentwire"`, and an app under Vite's dev server in Chromium.
// esbuild has no WebAssembly/ESM integration (webpack 5 and Vite 8 do): a 20-line plugin stands in
// for it, instantiating the .wasm with top-level await the way those bundlers do.
//   node scripts/smoke-bundler.mjs
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import path from "node:path";
import { launchChromium } from "./lib/chromium.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const esbuild = createRequire(path.join(root, "tools/package.json"))("esbuild");
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

// 2. The app.
writeFileSync(path.join(dir, "app.js"), `
import { AgentStore } from "agentwire";
const store = new AgentStore({});
const seen = [];
store.on("tool-progress", (e) => seen.push(e.progress));
store.feedText(${JSON.stringify([
  'event: task-created\ndata: {"kind":"task-created","contextId":"c","taskId":"t","initiator":"user","timestamp":"2025-11-06T10:30:00Z"}\n\n',
  'event: tool-start\ndata: {"kind":"tool-start","contextId":"c","taskId":"t","toolCallId":"x","toolName":"search","arguments":{},"timestamp":"2025-11-06T10:30:00Z"}\n\n',
  'event: tool-progress\ndata: {"kind":"tool-progress","contextId":"c","taskId":"t","toolCallId":"x","progress":0.5,"timestamp":"2025-11-06T10:30:00Z"}\n\n',
  'event: content-delta\ndata: {"kind":"content-delta","contextId":"c","taskId":"t","delta":"hello","index":0,"timestamp":"2025-11-06T10:30:00Z"}\n\n',
].join(""))});
const snap = store.getSnapshot();
console.log(JSON.stringify({ tasks: snap.tasks.length, content: snap.tasks[0].content, progress: seen }));
`);

// 3. Bundle. The plugin plays the bundler's part of the WebAssembly ESM integration proposal.
const wasmEsmIntegration = {
  name: "wasm-esm-integration",
  setup(build) {
    build.onResolve({ filter: /\.wasm$/ }, (args) => args.namespace === "wasm-module"
      ? { path: args.path, namespace: "wasm-bytes" }
      : { path: path.resolve(args.resolveDir, args.path), namespace: "wasm-module" });
    build.onLoad({ filter: /.*/, namespace: "wasm-bytes" }, (args) => ({ contents: readFileSync(args.path), loader: "binary" }));
    build.onLoad({ filter: /.*/, namespace: "wasm-module" }, (args) => {
      const mod = new WebAssembly.Module(readFileSync(args.path));
      const from = [...new Set(WebAssembly.Module.imports(mod).map((i) => i.module))];
      const code = [
        `import bytes from ${JSON.stringify(args.path)};`,
        ...from.map((m, i) => `import * as m${i} from ${JSON.stringify(m)};`),
        `const { instance } = await WebAssembly.instantiate(bytes, { ${from.map((m, i) => `${JSON.stringify(m)}: m${i}`).join(", ")} });`,
        ...WebAssembly.Module.exports(mod).map((e) => `export const ${e.name} = instance.exports[${JSON.stringify(e.name)}];`),
      ];
      return { contents: code.join("\n"), resolveDir: path.dirname(args.path), loader: "js" };
    });
  },
};
const result = await esbuild.build({
  absWorkingDir: dir, entryPoints: ["app.js"], bundle: true, format: "esm", platform: "browser",
  target: "es2022", outfile: "out/app.mjs", plugins: [wasmEsmIntegration], logLevel: "warning", metafile: true,
});
const outBytes = Object.entries(result.metafile.outputs).map(([f, o]) => `${f} ${o.bytes} B`).join(", ");
console.log(`esbuild bundled app.js importing "agentwire": ${outBytes}`);

// 4. Run the bundle.
const out = execFileSync(process.execPath, [path.join(dir, "out/app.mjs")], { stdio: ["ignore", "pipe", "inherit"] }).toString().trim();
const got = JSON.parse(out);
const want = { tasks: 1, content: "hello", progress: [0.5] };
if (JSON.stringify(got) !== JSON.stringify(want)) {
  console.error(`bundler smoke test: the bundled app printed ${out}, expected ${JSON.stringify(want)}`);
  process.exit(1);
}

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
// 6. Vite's dev server with the package installed as a real directory (the demo links ../pkg,
// which Vite never pre-bundles), configured as the package README says: an AgentStore and a
// WorkerClient in Chromium. Without `optimizeDeps.exclude` the page failed at start
// (`reading '__wbindgen_externrefs'`: the pre-bundled glue is not the module the wasm imports).
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
  // The package README's Vite settings.
  optimizeDeps: { exclude: ["agentwire"] },
  worker: { format: "es" },
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
console.log(`bundler smoke test ok: the bundled app ran and printed ${out}; Node imports "agentwire" as is; Vite ${vite.version} dev server: AgentStore and WorkerClient work`);
