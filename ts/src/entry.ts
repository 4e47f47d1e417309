// One protocol's entry (`agentwire/core`, `agentwire/a2a`, `agentwire/acp`, `agentwire/unified`,
// `agentwire/myagent`, `agentwire/ag-ui`, `agentwire/ai-sdk`): the API of `agentwire` over a wasm
// built with that protocol alone. Everything of `agentwire` but Worker mode (`WorkerClient`),
// which runs the full build in its Worker and stays in `agentwire`.
export type * from "./types.js";
export { AgentwireError } from "./errors.js";
export type { AgentwireErrorCode, AgentwireErrorDetails, ConnectionErrorCode } from "./errors.js";
export type {
  AgentSource, AgentConnection, AuthDetails, CallOptions, ConnectionInfo, ConnectionState,
  EventFilterSpec, EventOf, KindPattern, RunOptions, SendMessageOptions, Snapshot,
} from "./source.js";
export type {
  A2aMessageInit, AgentClientOptions, AgentStoreOptions, AgUiOptions, AiSdkOptions, EventStreamOptions,
  Limits, OutgoingRequest,
} from "./options.js";
export { AgentStore } from "./store.js";
export type { Bytes, EventInput } from "./store.js";
export { AgentClient } from "./client.js";
export { StreamDecoder } from "./decoder.js";
export type { Decoded, StreamDecoderOptions } from "./decoder.js";
export { EventStream } from "./events.js";
