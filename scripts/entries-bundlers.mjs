// The protocol entries with NO bundler settings (issue 23 item 6): two apps, one on
// `agentwire/core` and one on `agentwire/ai-sdk` (AgentStore fed a stream), built from a copy of
// pkg/ installed as node_modules/agentwire, by Vite 8 (dev server, and build + preview) and
// webpack 5 (default config, its output served as static files), each page run in Chromium
// (playwright-core from tools/). The entries load their wasm from `new URL(..., import.meta.url)`,
// which all of these treat as an asset by default. Run by scripts/entries-e2e.sh.
//   node scripts/entries-bundlers.mjs
// Installs vite@8, webpack@5 and webpack-cli@6 into target/bundlers (npm) the first time.
import { execFileSync, spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { launchChromium } from "./lib/chromium.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const dir = path.join(root, "target/bundlers");
const tools = process.env.AW_TOOLS || path.join(root, "tools");
mkdirSync(dir, { recursive: true });
if (!existsSync(path.join(dir, "node_modules/vite/package.json"))) {
  writeFileSync(path.join(dir, "package.json"), '{ "name": "aw-bundlers", "private": true, "type": "module" }\n');
  execFileSync("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error", "vite@8", "webpack@5", "webpack-cli@6"],
    { cwd: dir, stdio: "inherit" });
}
// The package as an app gets it from npm: a copy (a link would be treated as source by Vite).
rmSync(path.join(dir, "node_modules/agentwire"), { recursive: true, force: true });
cpSync(path.join(root, "pkg"), path.join(dir, "node_modules/agentwire"), { recursive: true });

const SSE = JSON.stringify([
  'event: task-created\ndata: {"kind":"task-created","contextId":"c","taskId":"t","initiator":"user","timestamp":"2025-11-06T10:30:00Z"}\n\n',
  'event: content-delta\ndata: {"kind":"content-delta","contextId":"c","taskId":"t","delta":"hello","index":0,"timestamp":"2025-11-06T10:30:00Z"}\n\n',
].join(""));
const apps = {
  core: `import { AgentStore } from "agentwire/core";
const store = new AgentStore({});
store.feedText(${SSE});
const snap = store.getSnapshot();
document.body.dataset.result = snap.tasks[0].content;`,
  "ai-sdk": `import { AgentStore } from "agentwire/ai-sdk";
const store = new AgentStore({});
store.feedText(${SSE});
document.body.dataset.result = store.getSnapshot().tasks[0].content;`,
};

const browser = await launchChromium([], tools);
async function check(url) {
  const page = await browser.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on("response", (r) => r.status() >= 400 && !r.url().endsWith("/favicon.ico") && errors.push(`${r.status()} ${r.url()}`));
  let result = null;
  for (let attempt = 0; attempt < 2 && !result; attempt++) {
    // (Vite's dev server reloads the page once when it discovers the dependency: try again.)
    try {
      await page.goto(url);
      for (let i = 0; i < 50 && !result; i++) {
        result = await page.evaluate(() => document.body.dataset.result);
        if (!result) await page.waitForTimeout(100);
      }
    } catch (e) { errors.push(String(e).split("\n")[0]); }
  }
  await page.close();
  return result === "hello" ? "ok" : `FAILED ${JSON.stringify({ result, errors })}`;
}
function serve(cmd, args, cwd, port) {
  const p = spawn(cmd, args, { cwd, stdio: "ignore" });
  return new Promise((r) => setTimeout(() => r(p), 2500)).then((p) => ({ p, url: `http://localhost:${port}/` }));
}
const node = process.execPath, vite = path.join(dir, "node_modules/vite/bin/vite.js");
const webpack = path.join(dir, "node_modules/webpack-cli/bin/cli.js");
let port = 5400 + Math.floor(Math.random() * 400), failed = 0, passed = 0;
for (const [name, code] of Object.entries(apps)) {
  const app = path.join(dir, `app-${name}`);
  rmSync(app, { recursive: true, force: true });
  mkdirSync(path.join(app, "src"), { recursive: true });
  symlinkSync(path.join(dir, "node_modules"), path.join(app, "node_modules"));
  writeFileSync(path.join(app, "src/index.js"), code);
  writeFileSync(path.join(app, "index.html"), '<!doctype html><meta charset="utf-8"><script type="module" src="/src/index.js"></script>\n');
  const results = {};
  let s = await serve(node, [vite, "--port", String(++port), "--strictPort"], app, port);
  results["vite dev"] = await check(s.url); s.p.kill();
  execFileSync(node, [vite, "build", "--logLevel", "error"], { cwd: app, stdio: "inherit" });
  s = await serve(node, [vite, "preview", "--port", String(++port), "--strictPort"], app, port);
  results["vite build"] = await check(s.url); s.p.kill();
  rmSync(path.join(app, "dist"), { recursive: true, force: true });
  execFileSync(node, [webpack, "--mode", "production"], { cwd: app, stdio: "ignore" });
  writeFileSync(path.join(app, "dist/index.html"), '<!doctype html><meta charset="utf-8"><script type="module" src="main.js"></script>\n');
  s = await serve("python3", ["-m", "http.server", String(++port)], path.join(app, "dist"), port);
  results["webpack 5"] = await check(s.url); s.p.kill();
  for (const [k, v] of Object.entries(results)) { console.log(`${name.padEnd(7)} ${k.padEnd(11)} ${v}`); if (v !== "ok") failed++; else passed++; }
}
await browser.close();
console.log(`bundlers: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
