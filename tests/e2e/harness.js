// Loads the built package (pkg/web, staged at /pkg/) and exposes the client tests to the
// runner (tests/e2e/run.mjs), which calls window.__run(name) for each name in window.__tests.
import init, * as aw from "/pkg/agentwire.js";
import { tests as clientTests } from "./client.test.js";
import { benches } from "./transport.bench.js";

// ?bench runs the benchmarks instead of the tests.
const tests = new URLSearchParams(location.search).has("bench") ? benches : clientTests;

await init();
window.__tests = Object.keys(tests);
window.__run = async (name) => {
  try {
    const detail = await tests[name](aw);
    return { ok: true, detail: detail ?? "" };
  } catch (e) {
    return { ok: false, error: String((e && e.stack) || e) + (e && e.code ? ` [code ${e.code}]` : "") };
  }
};
document.getElementById("status").textContent = "ready";
window.__ready = true;
