// agentwire/web: the same API for pages without a bundler; call `init()` (or `initSync`) first.
import { rawInit as initRaw, rawInitSync as initSyncRaw } from "./raw.js";
import { guard, guardAsync } from "./errors.js";

export * from "./index.js";

/** Where `init` reads the wasm from (default: the `agentwire_bg.wasm` beside the glue). */
export type InitInput = RequestInfo | URL | Response | BufferSource | WebAssembly.Module;

/** What `init` resolves with: the instance's memory (to measure it). */
export interface InitOutput {
  readonly memory: WebAssembly.Memory;
}

/** Loads and instantiates the wasm (once; later calls resolve at once). */
export default function init(options?: { module_or_path?: InitInput | Promise<InitInput> }): Promise<InitOutput> {
  return guardAsync(guard(() => initRaw(options)) as Promise<InitOutput>);
}

/** Instantiates the wasm from its bytes or a compiled module (Node, tests). */
export function initSync(options: { module: BufferSource | WebAssembly.Module }): InitOutput {
  return guard(() => initSyncRaw(options)) as InitOutput;
}
