// agentwire in Node (the "node" condition of `import "agentwire"`: tests under Vitest or
// `node --test`, server-side rendering): the web build with its WebAssembly read from disk,
// since Node cannot import a .wasm file the way bundlers do. Same classes as the browser entry
// (WorkerClient needs a browser's Worker).
// The file's path is computed, not written `new URL("./…", import.meta.url)`: a server bundle
// (Next.js) would turn that pattern into an asset URL that readFileSync cannot read.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { initSync } from "./web/agentwire.js";

initSync({ module: readFileSync(join(dirname(fileURLToPath(import.meta.url)), "web", "raw", "agentwire_bg.wasm")) });
export * from "./web/agentwire.js";
