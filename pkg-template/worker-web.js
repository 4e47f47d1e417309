// agentwire's Worker entry for Worker mode (`WorkerClient`), web build (no bundler): loads the
// WebAssembly next to this file, then serves the page's WorkerClient (which starts it by itself).
// No top-level await (a bundler may build it as a classic script); a failed load is thrown from a
// task, so the page's Worker gets an `error` event.
import init, { startWorker } from "./agentwire.js";

init().then(() => startWorker(), (e) => setTimeout(() => { throw e; }));
