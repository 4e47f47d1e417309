// Loads the built package (pkg/web, staged at /pkg/) and exposes the client tests to the
// runner (tests/e2e/run.mjs), which calls window.__run(name) for each name in window.__tests.
import init, * as aw from "/pkg/agentwire.js";
import { tests as clientTests } from "./client.test.js";
import { tests as dialectTests } from "./dialects.test.js";
import { tests as hostileTests } from "./hostile.test.js";
import { tests as soakTests, longTests as longSoakTests } from "./soak.test.js";
import { benches } from "./transport.bench.js";
import { tests as workerTests } from "./worker.test.js";
import { tests as docsTests } from "./docs.test.js";
import { tests as a2a1Tests } from "./a2a1.test.js";
import { tests as agUiTests } from "./ag_ui.test.js";
import { tests as aiSdkTests } from "./ai_sdk.test.js";
import { tests as apiTests } from "./api.test.js";

// ?bench runs the benchmarks instead of the tests; ?soak the long soak (tests/e2e/soak.test.js).
const params = new URLSearchParams(location.search);
const tests = params.has("bench") ? benches
  : params.has("soak") ? longSoakTests
  : { ...clientTests, ...dialectTests, ...a2a1Tests, ...agUiTests, ...aiSdkTests, ...apiTests, ...hostileTests, ...soakTests, ...workerTests, ...docsTests };

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
