// agentwire's entry: the TypeScript layer over the wasm (the generated bindings are private).
export type * from "./types.js";
export { AgentwireError } from "./errors.js";
export type { AgentwireErrorCode, AgentwireErrorDetails, ConnectionErrorCode } from "./errors.js";
export type {
  AgentSource, AgentConnection, AuthDetails, CallOptions, ConnectionInfo, ConnectionState,
  EventFilterSpec, EventOf, KindPattern, RunOptions, SendMessageOptions, Snapshot,
} from "./source.js";
export type {
  A2aMessageInit, AgentClientOptions, AgentStoreOptions, AgUiOptions, AiSdkOptions, EventStreamOptions,
  Limits, OutgoingRequest, WorkerClientOptions,
} from "./options.js";
export { AgentStore } from "./store.js";
export type { Bytes, EventInput } from "./store.js";
export { AgentClient } from "./client.js";
export { WorkerClient } from "./worker.js";
export { StreamDecoder } from "./decoder.js";
export type { Decoded, StreamDecoderOptions } from "./decoder.js";
export { EventStream } from "./events.js";
