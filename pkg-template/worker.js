// agentwire's Worker entry for Worker mode (`WorkerClient`): loads the wasm beside it, then
// serves the page's WorkerClient. The page's `WorkerClient` starts it by itself; to make the
// Worker yourself: new Worker(new URL("agentwire/worker", import.meta.url), { type: "module" }).
// No top-level await: bundlers build a Worker as a classic script by default (Vite: iife),
// where it is a syntax error. A failed load is thrown from a task, so the page's Worker gets
// an `error` event (a rejected promise would stay inside the Worker).
import init, { startWorker } from "./glue.js";

init({ module_or_path: new URL("./agentwire_bg.wasm", import.meta.url) })
  .then(() => startWorker(), (e) => setTimeout(() => { throw e; }));
