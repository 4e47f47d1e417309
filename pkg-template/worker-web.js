// agentwire's Worker entry for Worker mode (`WorkerClient`), web build (no bundler): loads the
// WebAssembly next to this file, then serves the page's WorkerClient.
//   new WorkerClient({ url, worker: new URL("/node_modules/agentwire/web/agentwire-worker.js", location.href) })
import init, { startWorker } from "./agentwire.js";

await init();
startWorker();
