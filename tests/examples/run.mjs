// Drives the framework adapters' example apps (examples/{react,vue,svelte}, built by
// scripts/examples-e2e.sh into target/examples-site/ and served there by the scenario server) in
// headless Chromium. Each app plays the scenario server's `approval` scenario under its own run
// tag (`?run=`), so the server says how many streams the app opened and how many are still open
// (`GET /api/runs/{run}`: connections, liveConnections). Prints one line per test, a counts
// line, and exits 1 if any failed.
//   node tests/examples/run.mjs http://127.0.0.1:PORT [name-filter]
// Screenshots (one per app, at the approval): target/examples-screenshots/.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { launchChromium } from "../../scripts/lib/chromium.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const [base, only] = process.argv.slice(2);
if (!base) {
  console.error("usage: node tests/examples/run.mjs http://127.0.0.1:PORT [filter]");
  process.exit(2);
}
const shots = path.join(root, "target/examples-screenshots");
fs.mkdirSync(shots, { recursive: true });

// The scenario's text (scenario-server/src/scenarios/approval.rs).
const INTRO = "I checked build 42: all 318 tests pass and the bundle is 4% smaller. Deploying it to staging needs your approval.";
const OUTRO = " Deployed: build 42 is live on staging.";

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const check = (ok, what) => { if (!ok) throw new Error(what); };
const eq = (got, want, what) => check(Object.is(got, want), `${what}: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
let seq = 0;
const tag = (app, what) => `ex-${app}-${what}-${process.pid}-${++seq}`;
const runInfo = async (run) => (await fetch(`${base}/api/runs/${run}`)).json();
/** Polls the run's info until `ok(info)` (3 s at most); returns the last info. */
async function until(run, ok) {
  let info;
  for (let i = 0; i < 60; i++) {
    info = await runInfo(run);
    if (ok(info)) break;
    await sleep(50);
  }
  return info;
}
const text = (page, id) => page.locator(`[data-testid="${id}"]`).textContent();

async function open(page, app, run, speed = 1) {
  await page.goto(`${base}/${app}/?run=${run}&speed=${speed}`);
}

// Text streams in (seen partial), the approval is clicked, the run completes; one stream was
// opened (React's dev build runs StrictMode's mount → unmount → mount) and it is closed at the end.
async function flow(page, app) {
  const run = tag(app, "flow");
  await open(page, app, run);
  // Partial text: the answer grows delta by delta before the approval arrives.
  await page.waitForFunction((full) => {
    const t = document.querySelector('[data-testid="answer"]')?.textContent ?? "";
    return t.length > 0 && t.length < full.length && full.startsWith(t);
  }, INTRO, { timeout: 10_000, polling: 5 });
  await page.locator('[data-testid="approve"]').waitFor({ timeout: 10_000 });
  eq(await text(page, "answer"), INTRO, "the answer before the approval");
  eq(await text(page, "status"), "waiting", "status at the approval");
  eq(await text(page, "task-status"), "waiting-input", "the task's status (selector)");
  await page.screenshot({ path: path.join(shots, `${app}.png`), fullPage: true });
  await page.locator('[data-testid="approve"]').click();
  await page.waitForFunction(() => document.querySelector('[data-testid="status"]')?.textContent === "completed", null, { timeout: 10_000 });
  eq(await text(page, "answer"), INTRO + OUTRO, "the whole answer");
  eq(await text(page, "task-status"), "completed", "the task's status");
  eq(await text(page, "events"), "input-required input-received", "useAgentEvent('input-*')");
  const info = await until(run, (i) => i.liveConnections === 0);
  eq(info.finished, true, "the run finished (server)");
  eq(info.connections, 1, "streams the app opened (server)");
  eq(info.liveConnections, 0, "streams still open (server)");
  eq(await text(page, "connection"), "closed", "connection state");
  return `${info.connections} stream`;
}

// Unmounting the component that owns the agent closes its stream (seen by the server), and
// nothing reconnects.
async function unmount(page, app) {
  const run = tag(app, "unmount");
  await open(page, app, run, 4);
  await page.locator('[data-testid="approve"]').waitFor({ timeout: 10_000 });
  let info = await runInfo(run);
  eq(info.liveConnections, 1, "one stream open while mounted (server)");
  await page.locator('[data-testid="toggle"]').click();
  await page.locator('[data-testid="unmounted"]').waitFor({ timeout: 5_000 });
  const t0 = Date.now();
  info = await until(run, (i) => i.liveConnections === 0);
  eq(info.liveConnections, 0, "streams open after unmounting (server)");
  const ms = Date.now() - t0;
  await sleep(600);
  info = await runInfo(run);
  eq(info.connections, 1, "streams opened in all (no reconnect after unmounting)");
  eq(info.waiting, true, "the run still waits for the answer nobody gave");
  return `closed ${ms} ms after the click`;
}

// A selector's component updates only when the selected value changes: the task-status badge
// a handful of times, the answer once per delta or so.
async function selector(page, app) {
  const run = tag(app, "selector");
  await open(page, app, run, 2);
  await page.locator('[data-testid="approve"]').waitFor({ timeout: 10_000 });
  await page.locator('[data-testid="approve"]').click();
  await page.waitForFunction(() => document.querySelector('[data-testid="status"]')?.textContent === "completed", null, { timeout: 10_000 });
  const status = Number(await text(page, "status-renders"));
  const answer = Number(await text(page, "answer-renders"));
  // Status values: none → working → waiting-input → working → completed (5); one spare.
  check(status >= 3 && status <= 6, `the status badge updated ${status} times (want 3..6)`);
  check(answer >= 15, `the answer updated ${answer} times (want ≥ 15: it streams)`);
  return `status badge ${status} updates, answer ${answer}`;
}

// A connection the server refuses (401) shows as `status` "failed" and an `error` with its code
// (the rejection of the client's run()), without a page error.
async function failure(page, app) {
  const run = tag(app, "fail");
  await page.goto(`${base}/${app}/?run=${run}&faults=status%3D401`);
  await page.locator('[data-testid="error"]').waitFor({ timeout: 10_000 });
  eq(await text(page, "status"), "failed", "status");
  const error = await text(page, "error");
  check(error.startsWith("unauthorized: "), `error shown: ${error}`);
  eq(await text(page, "connection"), "failed", "connection state");
  return error;
}

const apps = [
  ["react", "React 19 (production build)"],
  ["react-dev", "React 19 (development build: StrictMode mounts twice)"],
  ["vue", "Vue 3"],
  ["svelte", "Svelte 5"],
];
const tests = apps.flatMap(([app, label]) => [
  [`${app}: text streams in, an approval is clicked, the run completes (${label})`, (p) => flow(p, app)],
  [`${app}: unmounting closes the connection (server side)`, (p) => unmount(p, app)],
  [`${app}: a refused connection shows status "failed" and the error`, (p) => failure(p, app)],
  // React's development build renders twice per update (StrictMode): counts are the production build's.
  ...(app === "react-dev" ? [] : [[`${app}: a selector updates only when its value changes`, (p) => selector(p, app)]]),
]).filter(([name]) => !only || name.includes(only));

const browser = await launchChromium();
let passed = 0, failed = 0;
const t0 = Date.now();
try {
  for (const [name, f] of tests) {
    const page = await browser.newPage({ viewport: { width: 900, height: 600 } });
    const problems = [];
    page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
    page.on("console", (m) => {
      // The browser's own line for a refused request (the failure test's 401) is expected.
      if (m.text().startsWith("Failed to load resource: the server responded with a status of 401")) return;
      if (m.type() === "error" || m.type() === "warning") problems.push(`console.${m.type()}: ${m.text()}`);
    });
    const t = Date.now();
    try {
      const detail = await f(page);
      check(problems.length === 0, [...new Set(problems)].slice(0, 5).join("\n  "));
      passed++;
      console.log(`ok    ${name} (${Date.now() - t} ms)${detail ? ` — ${detail}` : ""}`);
    } catch (e) {
      failed++;
      const seen = [...new Set(problems)].slice(0, 5);
      console.log(`FAIL  ${name} (${Date.now() - t} ms)\n  ${e.message}\n  ${seen.join("\n  ")}`);
    } finally {
      await page.close();
    }
  }
} finally {
  await browser.close();
}
console.log(`examples: ${passed} passed, ${failed} failed (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
process.exit(failed || passed === 0 ? 1 : 0);
