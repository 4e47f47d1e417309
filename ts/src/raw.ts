// The one import of wasm-bindgen's generated bindings. Every build puts the glue it targets at
// `./raw/agentwire.js` beside the compiled layer (the web glue, or a loader over it that instantiates
// the wasm: `agentwire` and each protocol's entry), and
// keeps this import external: the same layer serves each. No other module imports the glue.
import * as glue from "./raw/agentwire.js";

export const RawClient = glue.AgentClient;
export type RawClient = glue.AgentClient;
export const RawStore = glue.AgentStore;
export type RawStore = glue.AgentStore;
export const RawDecoder = glue.StreamDecoder;
export type RawDecoder = glue.StreamDecoder;
export const RawWorker = glue.WorkerClient;
export type RawWorker = glue.WorkerClient;
export type { RawEventStream } from "./raw/agentwire.js";

/** Web glue only (the `agentwire/web` entry): instantiates the wasm. */
export const rawInit = (input?: unknown): Promise<unknown> => glue.default(input);
/** Web glue only: instantiates the wasm from its bytes or a compiled module. */
export const rawInitSync = (module: unknown): unknown => glue.initSync(module);
