#!/usr/bin/env node
// What an app ships to read a UI message stream: agentwire's package next to the AI SDK's chat
// client, the ai version the dialect targets (tests/ai-sdk: ai@7.0.173; benches/js-sizes pins
// ai@6.0.326, so it is measured here again with 7). Each bundled as an app would (esbuild:
// bundle, minify, ESM, browser, ES2022, tree-shaken to the entry's exports), compressed as
// scripts/lib/pkg-size.mjs does (gzip -9, brotli q11).
//
//   node benches/ai-sdk/sizes.mjs
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { measure, shippedFiles } from "../../scripts/lib/pkg-size.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../..");
const sdkDir = process.env.AI_SDK_DIR || path.join(root, "tests/ai-sdk");
const esbuild = createRequire(path.join(root, "tools/package.json"))("esbuild");
const nm = path.join(sdkDir, "node_modules");
const aiVersion = JSON.parse(fs.readFileSync(path.join(nm, "ai/package.json"), "utf8")).version;
const out = path.join(root, "target/ai-sdk-bench/sizes");
fs.mkdirSync(out, { recursive: true });

const entries = [
  ["AbstractChat + DefaultChatTransport", "export { AbstractChat, DefaultChatTransport } from 'ai';"],
  ["AbstractChat + DefaultChatTransport + readUIMessageStream (benches/js-sizes/entries/ai.mjs)", "export { AbstractChat, DefaultChatTransport, readUIMessageStream } from 'ai';"],
  ["readUIMessageStream + DefaultChatTransport (what the benchmark's official path runs)", "export { DefaultChatTransport, readUIMessageStream } from 'ai';"],
];
const rows = [];
for (const [what, src] of entries) {
  const file = path.join(out, `entry-${rows.length}.mjs`);
  fs.writeFileSync(file, src + "\n");
  const bundle = file.replace(/\.mjs$/, ".bundle.js");
  await esbuild.build({ entryPoints: [file], bundle: true, minify: true, format: "esm", platform: "browser", target: "es2022",
    outfile: bundle, logLevel: "error", nodePaths: [nm] });
  rows.push({ name: `ai ${aiVersion}`, what, ...measure(bundle) });
}
const pkg = path.join(root, "pkg");
const aw = shippedFiles(pkg).filter(fs.existsSync).map(measure).reduce((a, m) => ({ raw: a.raw + m.raw, gz: a.gz + m.gz, br: a.br + m.br }), { raw: 0, gz: 0, br: 0 });
const wasm = measure(path.join(pkg, "raw", "agentwire_bg.wasm"));
const awVersion = JSON.parse(fs.readFileSync(path.join(pkg, "package.json"), "utf8")).version;
rows.unshift({ name: `agentwire ${awVersion}`, what: "TS layer + wasm + JS glue + Worker entry (every dialect, 3 transports, store, Worker mode)", ...aw });
rows.splice(1, 0, { name: `agentwire ${awVersion}`, what: "of which agentwire_bg.wasm", ...wasm });
const n = (x) => x.toLocaleString("en-US");
console.log("| client | what is bundled | raw B | gzip B | brotli B | gzip ÷ agentwire |");
console.log("|---|---|--:|--:|--:|--:|");
for (const r of rows) console.log(`| ${r.name} | ${r.what} | ${n(r.raw)} | ${n(r.gz)} | ${n(r.br)} | ${(r.gz / aw.gz).toFixed(2)} |`);
