// Runs tests/entries/entries.test.js for each protocol entry of the package in headless Chromium,
// one fresh page per entry (so a page loads that entry alone), against the scenario server that
// serves the staged package (scripts/entries-e2e.sh). Prints one line per entry, exits 1 if any failed.
//   node tests/entries/run.mjs http://127.0.0.1:PORT [entry...]
import path from "node:path";
import { fileURLToPath } from "node:url";
import { launchChromium } from "../../scripts/lib/chromium.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

const [base, ...only] = process.argv.slice(2);
if (!base) { console.error("usage: node tests/entries/run.mjs http://127.0.0.1:PORT [entry...]"); process.exit(2); }
const entries = only.length ? only : ["core", "a2a", "acp", "unified", "myagent", "ag-ui", "ai-sdk"];
const browser = await launchChromium();
let failed = 0;
try {
  for (const entry of entries) {
    const page = await browser.newPage();
    const problems = [], wasm = [];
    page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
    page.on("console", (m) => { if (m.type() === "error") problems.push(`console.error: ${m.text()}`); });
    page.on("request", (q) => { if (q.url().endsWith(".wasm")) wasm.push(new URL(q.url()).pathname); });
    const t0 = Date.now();
    await page.goto(`${base}/entries/index.html?entry=${entry}`);
    const r = await Promise.race([
      page.evaluate(() => window.__result),
      new Promise((res) => setTimeout(() => res({ ok: false, error: "timed out" }), 60_000)),
    ]);
    // The page loaded this entry's wasm and no other.
    if (r.ok && (wasm.length !== 1 || wasm[0] !== `/pkg/${entry}/raw/agentwire_bg.wasm`)) {
      r.ok = false; r.error = `wasm loaded: ${wasm.join(", ") || "none"}`;
    }
    const unexpected = problems.filter((p) => !p.includes("Failed to load resource") && !p.includes("net::ERR_"));
    if (r.ok && unexpected.length === 0) console.log(`ok    agentwire/${entry} (${Date.now() - t0} ms) — ${r.detail}`);
    else { failed++; console.log(`FAIL  agentwire/${entry}\n${r.error ?? ""}\n${unexpected.join("\n")}`); }
    await page.close();
  }
  console.log(`entries: ${entries.length - failed} passed, ${failed} failed`);
} finally {
  await browser.close();
}
process.exit(failed ? 1 : 0);
