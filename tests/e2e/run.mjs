// Runs the browser client tests (tests/e2e/client.test.js, hostile.test.js, the short soak of
// soak.test.js) in headless Chromium against the
// scenario server that serves the page (scripts/e2e-tests.sh stages pkg/web and this folder
// and starts it). Prints one line per test and exits 1 if any failed.
//   node tests/e2e/run.mjs http://127.0.0.1:PORT [name-filter] [--bench | --soak]
import path from "node:path";
import { fileURLToPath } from "node:url";
import { launchChromium } from "../../scripts/lib/chromium.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

const args = process.argv.slice(2);
const bench = args.includes("--bench");
const soak = args.includes("--soak"); // the long soak (soak.test.js longTests): no per-test time limit below 1 h
const [base, only] = args.filter((a) => a !== "--bench" && a !== "--soak");
if (!base) {
  console.error("usage: node tests/e2e/run.mjs http://127.0.0.1:PORT [filter]");
  process.exit(2);
}
// Memory measurements (hostile.test.js, soak.test.js): exact performance.memory, gc().
const browser = await launchChromium(["--enable-precise-memory-info", "--js-flags=--expose-gc"]);
let failed = 0, passed = 0;
try {
  const page = await browser.newPage();
  const problems = [];
  page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
  page.on("console", (m) => { if (m.type() === "error") problems.push(`console.error: ${m.text()}`); });
  page.on("console", (m) => { if (soak && m.type() === "log") console.log(`  ${m.text()}`); });
  await page.goto(`${base}/e2e/index.html${bench ? "?bench" : soak ? "?soak" : ""}`);
  await page.waitForFunction(() => window.__ready === true, null, { timeout: 30_000 });
  const names = (await page.evaluate(() => window.__tests)).filter((n) => !only || n.includes(only));
  for (const name of names) {
    const t0 = Date.now();
    problems.length = 0;
    const r = await Promise.race([
      page.evaluate((n) => window.__run(n), name),
      new Promise((res) => setTimeout(() => res({ ok: false, error: "timed out" }), bench ? 600_000 : soak ? 3_600_000 : 120_000)),
    ]);
    const ms = Date.now() - t0;
    // Errors a test expects are reported through reportError; only unexpected ones fail it.
    const unexpected = problems.filter((p) => !p.includes("expected-by-test") && !p.includes("Failed to load resource") && !p.includes("net::ERR_"));
    if (r.ok && unexpected.length === 0) {
      passed++;
      console.log(`ok    ${name} (${ms} ms)${r.detail ? ` — ${r.detail}` : ""}`);
    } else {
      failed++;
      console.log(`FAIL  ${name} (${ms} ms)\n${r.error ?? ""}\n${unexpected.join("\n")}`);
    }
  }
  console.log(`e2e: ${passed} passed, ${failed} failed`);
} finally {
  await browser.close();
}
process.exit(failed ? 1 : 0);
