// DRAFT (issue 23 items 2 and 6; not wired into scripts/build-pkg.sh): lays out a package with
// one directory per entry built by scripts/build-entry.sh, each its own wasm loaded by the web
// target's glue from a URL its own module computes (`new URL("./agentwire_bg.wasm",
// import.meta.url)`: what Vite, webpack 5 and Next.js recognise as an asset with no setting),
// so no bundler needs WebAssembly/ESM integration, `optimizeDeps.exclude` or `worker.format`.
//   node scripts/lib/entry-layout.mjs <out dir> [entries dir] [entry...]
// <out>/package.json  exports "./core", "./a2a", … and "." (= all); "./worker" only when built
// <out>/<entry>/index.js  the entry: `await init(new URL(...))`, then the glue's exports
//                        (the TS layer of ts-face takes this file's place, its raw module
//                        aliased to this entry's ./agentwire.js)
// <out>/<entry>/agentwire.js, agentwire_bg.wasm, snippets/  the web target of that entry
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";

const [out, from = "target/entries", ...only] = process.argv.slice(2);
if (!out) { console.error("usage: node scripts/lib/entry-layout.mjs <out dir> [entries dir] [entry...]"); process.exit(2); }
const entries = (only.length ? only : readdirSync(from)).filter((e) => existsSync(path.join(from, e, "web/agentwire.js")));
rmSync(out, { recursive: true, force: true });
const exportsMap = {};
for (const e of entries) {
  const dir = path.join(out, e);
  mkdirSync(dir, { recursive: true });
  cpSync(path.join(from, e, "web"), dir, { recursive: true });
  // The entry module. The glue would compute the same URL by default; naming it here keeps the
  // literal in a file the bundler sees as the package's own, and the init explicit.
  writeFileSync(path.join(dir, "index.js"),
    `import init from "./agentwire.js";\n` +
    `await init({ module_or_path: new URL("./agentwire_bg.wasm", import.meta.url) });\n` +
    `export * from "./agentwire.js";\n`);
  writeFileSync(path.join(dir, "index.d.ts"), `export * from "./agentwire.js";\n`);
  if (existsSync(path.join(dir, "agentwire-worker.js"))) {
    // Worker mode's Worker entry, found by worker_page.js at ../../../../agentwire-worker.js.
    // No top-level await: Vite bundles a Worker as an iife by default, which cannot hold one
    // (INVALID_TLA_FORMAT). The page queues its calls until the Worker says `ready`
    // (startWorker), so starting later loses nothing; a failed init is thrown in a task of its
    // own, which the page sees as the Worker's `error` event, as a failed module would be.
    writeFileSync(path.join(dir, "agentwire-worker.js"),
      `import init, { startWorker } from "./agentwire.js";\n` +
      `init({ module_or_path: new URL("./agentwire_bg.wasm", import.meta.url) })\n` +
      `  .then(() => startWorker(), (e) => setTimeout(() => { throw e; }));\n`);
  }
  const key = e === "all" ? "." : `./${e}`;
  exportsMap[key] = { types: `./${e}/index.d.ts`, default: `./${e}/index.js` };
}
exportsMap["./package.json"] = "./package.json";
writeFileSync(path.join(out, "package.json"), JSON.stringify({
  name: "agentwire", version: "0.0.0-entries", type: "module", exports: exportsMap,
  // the entries' modules run init (top-level await) when imported: they have side effects
  sideEffects: entries.map((e) => `./${e}/index.js`),
}, null, 2) + "\n");
console.log(`laid out ${entries.join(", ")} in ${out}`);
