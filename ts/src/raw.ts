// The one import of wasm-bindgen's generated bindings. Every build puts the glue it targets at
// `./raw/agentwire.js` beside the compiled layer (bundler glue, web glue, one per protocol), and
// keeps this import external: the same layer serves each.
export {
  AgentClient as RawClient,
  AgentStore as RawStore,
  StreamDecoder as RawDecoder,
  WorkerClient as RawWorker,
} from "./raw/agentwire.js";
export type { RawEventStream } from "./raw/agentwire.js";
