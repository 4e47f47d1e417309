// agentwire in Node (the "node" condition of `import "agentwire"`: tests under Vitest or
// `node --test`, server-side rendering): the web build with its WebAssembly read from disk,
// since Node cannot import a .wasm file the way bundlers do. Same classes as the bundler entry
// (WorkerClient needs a browser's Worker).
import { readFileSync } from "node:fs";
import { initSync } from "./web/agentwire.js";

initSync({ module: readFileSync(new URL("./web/raw/agentwire_bg.wasm", import.meta.url)) });
export * from "./web/agentwire.js";
