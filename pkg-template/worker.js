// agentwire's Worker entry for Worker mode (`WorkerClient`): the connection, parsing,
// validation and assembly run here, in a module Worker; the page gets batched changes.
// Bundlers: new Worker(new URL("agentwire/worker", import.meta.url), { type: "module" })
// (WorkerClient finds this file by itself when the bundler keeps the package's layout).
import { startWorker } from "./agentwire.js";

startWorker();
