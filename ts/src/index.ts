// agentwire's entry: the TypeScript layer over the wasm (the generated bindings are private),
// every protocol with auto-detection, and Worker mode. A protocol's own entry (ts/src/entry.ts)
// is the same API without Worker mode.
export * from "./entry.js";
export { WorkerClient } from "./worker.js";
export type { WorkerClientOptions } from "./options.js";
