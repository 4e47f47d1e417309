// Every entry of the package with NO bundler settings (issue 23 item 6): `agentwire` (with
// WorkerClient), each protocol's entry (agentwire/core, /a2a, /acp, /unified, /myagent, /ag-ui,
// /ai-sdk) and the React adapter twice (`agentwire/react` over `agentwire`, and
// `agentwire/ai-sdk/react` over `agentwire/ai-sdk`), built from a copy of pkg/ installed as
// node_modules/agentwire by
//   - Vite 8: the dev server, and `vite build` + `vite preview`;
//   - webpack 5: `webpack --mode production`, no config file, its output served as static files;
//   - Next.js (latest 16): the app router, one page per entry whose "use client" component imports
//     the entry statically, default config (no next.config): `next build`, then `next start`.
// One app per bundler: the Vite and webpack apps import each entry dynamically (one chunk per
// entry, chosen by the page's ?entry=), the Next.js app has a route per entry. Each page feeds
// a protocol-000 stream to an AgentStore (for `agentwire`, also to a WorkerClient: its Worker is
// bundled and started) and shows the assembled text in #result, which Chromium (playwright-core
// from tools/) reads. Run by scripts/entries-e2e.sh.
//   node scripts/entries-bundlers.mjs [vite|webpack|next ...]
// Installs vite@8, webpack@5, webpack-cli@6, next@16, react@19 and react-dom@19 into
// target/bundlers (npm) the first time (cold, 2026-11-26: ~30 s; then cached).
import { execFileSync, spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { launchChromium } from "./lib/chromium.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const dir = path.join(root, "target/bundlers");
const tools = process.env.AW_TOOLS || path.join(root, "tools");
const DEPS = ["vite@8", "webpack@5", "webpack-cli@6", "next@16", "react@19", "react-dom@19"];
mkdirSync(dir, { recursive: true });
// What was installed (a stamp: npm rewrites package.json), so a changed list installs again.
const stamp = path.join(dir, "installed.json");
if (!existsSync(stamp) || readFileSync(stamp, "utf8") !== JSON.stringify(DEPS)) {
  const t0 = Date.now();
  writeFileSync(path.join(dir, "package.json"), '{ "name": "aw-bundlers", "private": true, "type": "module" }\n');
  execFileSync("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error", ...DEPS], { cwd: dir, stdio: "inherit" });
  writeFileSync(stamp, JSON.stringify(DEPS));
  console.log(`bundlers: npm install ${DEPS.join(" ")}: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}
// The package as an app gets it from npm: a copy (a link would be treated as source by Vite).
rmSync(path.join(dir, "node_modules/agentwire"), { recursive: true, force: true });
// Vite's dependency cache is keyed by the lockfile, which a copied package does not change.
rmSync(path.join(dir, "node_modules/.vite"), { recursive: true, force: true });
cpSync(path.join(root, "pkg"), path.join(dir, "node_modules/agentwire"), { recursive: true });

const SSE = JSON.stringify([
  'event: task-created\ndata: {"kind":"task-created","contextId":"c","taskId":"t","initiator":"user","timestamp":"2025-11-06T10:30:00Z"}\n\n',
  'event: content-delta\ndata: {"kind":"content-delta","contextId":"c","taskId":"t","delta":"hello","index":0,"timestamp":"2025-11-06T10:30:00Z"}\n\n',
].join(""));
// Page name -> module specifier; what #result must show.
const ENTRIES = {
  agentwire: "agentwire", core: "agentwire/core", a2a: "agentwire/a2a", acp: "agentwire/acp",
  unified: "agentwire/unified", myagent: "agentwire/myagent", "ag-ui": "agentwire/ag-ui",
  "ai-sdk": "agentwire/ai-sdk",
};
const expected = (name) => (name === "agentwire" ? "hello / worker: hello" : "hello");
// What a page does with its entry's module: an AgentStore fed the stream; for `agentwire`, a
// WorkerClient too (manual transport: the same bytes, assembled in its Worker).
const RUN = `export async function run(aw) {
  const store = new aw.AgentStore({});
  store.feedText(${SSE});
  let text = store.getSnapshot().tasks[0].content;
  if (aw.WorkerClient) {
    const w = new aw.WorkerClient({ transport: "manual" });
    w.feed(new TextEncoder().encode(${SSE}));
    await w.finish();
    text += " / worker: " + w.getSnapshot().tasks[0].content;
    w.close();
  }
  return text;
}
`;
// The React adapter: useAgentSnapshot over a store fed after the first render.
const REACT = `import { useEffect, useState } from "react";
import { AgentStore } from "agentwire";
import { useAgentSnapshot } from "agentwire/react";
export function App() {
  const [store] = useState(() => new AgentStore({}));
  const snap = useAgentSnapshot(store);
  useEffect(() => { store.feedText(${SSE}); }, [store]);
  return <p id="result">{snap.tasks.length ? "react: " + snap.tasks[0].content : ""}</p>;
}
`;
// The adapter over a protocol's entry: the same component on agentwire/ai-sdk + agentwire/ai-sdk/react.
const REACT_AI_SDK = REACT.replace('from "agentwire";', 'from "agentwire/ai-sdk";').replace('from "agentwire/react";', 'from "agentwire/ai-sdk/react";');
const PAGES = [...Object.keys(ENTRIES), "react", "ai-sdk-react"];
const want = (page) => (page.endsWith("react") ? "react: hello" : expected(page));

// Vite and webpack: one app, src/index.js picks the page's entry by ?entry= (a dynamic import
// per entry: each its own chunk, loaded alone).
function spaSources(app, jsx) {
  mkdirSync(path.join(app, "src"), { recursive: true });
  writeFileSync(path.join(app, "src/run.js"), RUN);
  writeFileSync(path.join(app, "src/react-app.jsx"), REACT);
  writeFileSync(path.join(app, "src/react-ai-sdk.jsx"), REACT_AI_SDK);
  writeFileSync(path.join(app, "src/index.js"), `import { run } from "./run.js";
const pages = {
${Object.entries(ENTRIES).map(([k, v]) => `  ${JSON.stringify(k)}: () => import(${JSON.stringify(v)}).then(run),`).join("\n")}
  react: () => mount(import("./react-app.jsx")),
  "ai-sdk-react": () => mount(import("./react-ai-sdk.jsx")),
};
function mount(app) {
  return Promise.all([import("react-dom/client"), import("react"), app])
    .then(([dom, React, m]) => { dom.createRoot(document.body.appendChild(document.createElement("div"))).render(React.createElement(m.App)); return null; });
}
const name = new URLSearchParams(location.search).get("entry");
pages[name]().then((text) => {
  if (text === null) return;
  const p = document.createElement("p");
  p.id = "result";
  p.textContent = text;
  document.body.append(p);
}, (e) => { document.body.dataset.error = String(e && e.stack || e); throw e; });
`);
  if (jsx) writeFileSync(path.join(app, "index.html"), '<!doctype html><meta charset="utf-8"><body><script type="module" src="/src/index.js"></script></body>\n');
}

// Next.js: app/<page>/page.js (a server component) renders app/<page>/client.js ("use client"),
// which imports its entry statically, as an app does.
function nextSources() {
  const app = path.join(dir, "app");
  rmSync(app, { recursive: true, force: true });
  rmSync(path.join(dir, ".next"), { recursive: true, force: true });
  mkdirSync(app, { recursive: true });
  writeFileSync(path.join(app, "layout.js"), 'export default function Layout({ children }) { return <html><body>{children}</body></html>; }\n');
  writeFileSync(path.join(app, "run.js"), RUN);
  for (const page of PAGES) {
    mkdirSync(path.join(app, page));
    writeFileSync(path.join(app, page, "page.js"), 'import Client from "./client.js";\nexport default function Page() { return <Client />; }\n');
    writeFileSync(path.join(app, page, "client.js"), page.endsWith("react")
      ? `"use client";\n${(page === "react" ? REACT : REACT_AI_SDK).replace("export function App", "export default function App")}`
      : `"use client";
import { useEffect, useState } from "react";
import * as aw from ${JSON.stringify(ENTRIES[page])};
import { run } from "../run.js";
export default function Client() {
  const [text, setText] = useState("");
  useEffect(() => { run(aw).then(setText, (e) => setText("error: " + e)); }, []);
  return <p id="result">{text}</p>;
}
`);
  }
}

const browser = await launchChromium([], tools);
async function check(url, page) {
  const tab = await browser.newPage();
  const errors = [];
  tab.on("pageerror", (e) => errors.push(String(e)));
  tab.on("response", (r) => r.status() >= 400 && !r.url().endsWith("/favicon.ico") && errors.push(`${r.status()} ${r.url()}`));
  let result = null;
  for (let attempt = 0; attempt < 2 && result !== want(page); attempt++) {
    // (Vite's dev server reloads the page once when it discovers a dependency: try again.)
    try {
      await tab.goto(url);
      await tab.waitForFunction((w) => document.querySelector("#result")?.textContent === w, want(page), { timeout: 8000 });
    } catch (e) { errors.push(String(e).split("\n")[0]); }
    result = await tab.evaluate(() => document.querySelector("#result")?.textContent ?? null).catch(() => null);
  }
  await tab.close();
  return result === want(page) ? "ok" : `FAILED ${JSON.stringify({ result, errors })}`;
}
async function serve(cmd, args, cwd, url) {
  const p = spawn(cmd, args, { cwd, stdio: "ignore" });
  for (let i = 0; i < 100; i++) { // up to 20 s
    await new Promise((r) => setTimeout(r, 200));
    if (await fetch(url).then(() => true, () => false)) break;
  }
  return p;
}
const node = process.execPath, bin = (p) => path.join(dir, "node_modules", p);
const vite = bin("vite/bin/vite.js"), webpack = bin("webpack-cli/bin/cli.js"), next = bin("next/dist/bin/next");
let port = 5400 + Math.floor(Math.random() * 400), failed = 0, passed = 0;
async function checkAll(label, base, query) {
  const t0 = Date.now();
  for (const page of PAGES) {
    const v = await check(query ? `${base}?entry=${page}` : `${base}${page}`, page);
    console.log(`${label.padEnd(12)} ${page.padEnd(10)} ${v}`);
    if (v === "ok") passed++; else failed++;
  }
  return Date.now() - t0;
}
const secs = (t0) => `${((Date.now() - t0) / 1000).toFixed(1)} s`;
const only = process.argv.slice(2);
const run = (b) => !only.length || only.includes(b);

if (run("vite")) {
  const app = path.join(dir, "app-vite");
  rmSync(app, { recursive: true, force: true });
  mkdirSync(app);
  symlinkSync(path.join(dir, "node_modules"), path.join(app, "node_modules"));
  spaSources(app, true);
  let t0 = Date.now(), url = `http://localhost:${++port}/`;
  let s = await serve(node, [vite, "--port", String(port), "--strictPort"], app, url);
  await checkAll("vite dev", url, true); s.kill();
  console.log(`  vite dev: ${secs(t0)}`);
  t0 = Date.now();
  execFileSync(node, [vite, "build", "--logLevel", "error"], { cwd: app, stdio: "inherit" });
  url = `http://localhost:${++port}/`;
  s = await serve(node, [vite, "preview", "--port", String(port), "--strictPort"], app, url);
  await checkAll("vite build", url, true); s.kill();
  console.log(`  vite build + preview: ${secs(t0)}`);
}
if (run("webpack")) {
  const app = path.join(dir, "app-webpack");
  rmSync(app, { recursive: true, force: true });
  mkdirSync(app);
  symlinkSync(path.join(dir, "node_modules"), path.join(app, "node_modules"));
  spaSources(app, false);
  // webpack 5 with no config has no JSX loader: the React page is plain createElement.
  const plain = (src) => src
    .replace('return <p id="result">{snap.tasks.length ? "react: " + snap.tasks[0].content : ""}</p>;',
      'return createElement("p", { id: "result" }, snap.tasks.length ? "react: " + snap.tasks[0].content : "");')
    .replace('import { useEffect, useState } from "react";', 'import { createElement, useEffect, useState } from "react";');
  writeFileSync(path.join(app, "src/react-app.js"), plain(REACT));
  writeFileSync(path.join(app, "src/react-ai-sdk.js"), plain(REACT_AI_SDK));
  writeFileSync(path.join(app, "src/index.js"), readFileSync(path.join(app, "src/index.js"), "utf8")
    .replace("./react-app.jsx", "./react-app.js").replace("./react-ai-sdk.jsx", "./react-ai-sdk.js"));
  const t0 = Date.now();
  execFileSync(node, [webpack, "--mode", "production"], { cwd: app, stdio: ["ignore", "ignore", "inherit"] });
  writeFileSync(path.join(app, "dist/index.html"), '<!doctype html><meta charset="utf-8"><body><script type="module" src="main.js"></script></body>\n');
  const url = `http://localhost:${++port}/`;
  const s = await serve("python3", ["-m", "http.server", String(port)], path.join(app, "dist"), url);
  await checkAll("webpack 5", url, true); s.kill();
  console.log(`  webpack 5: ${secs(t0)}`);
}
if (run("next")) {
  nextSources();
  const t0 = Date.now();
  execFileSync(node, [next, "build"], { cwd: dir, stdio: ["ignore", "ignore", "inherit"], env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" } });
  const url = `http://localhost:${++port}/`;
  const s = await serve(node, [next, "start", "-p", String(port)], dir, url);
  await checkAll("next", url, false); s.kill();
  console.log(`  next build + start: ${secs(t0)}`);
}
await browser.close();
console.log(`bundlers: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
