// The options of every class: types (moved here from the Rust strings that declared them) and
// what the wasm reads (`limits` flattened into the members the Rust side reads).
import type { Dialect, InputRequest } from "./types.js";
import type { EventFilterSpec } from "./source.js";
import { argError } from "./errors.js";


/**
 * Memory bounds of the store and the SSE parser (every field optional; the defaults suit a
 * browser tab). What is over a limit is dropped with a `limit-exceeded` diagnostic.
 */
export interface Limits {
  /** Longest SSE line accepted (bytes). Default 16 MiB. */
  maxLineBytes?: number;
  /** Largest SSE event accepted (bytes). Default 16 MiB. */
  maxEventBytes?: number;
  /** Tasks kept. Default 10,000. */
  maxTasks?: number;
  /** Answer bytes per task. Default 16 MiB. */
  maxContentBytes?: number;
  /** Artifacts kept. Default 10,000. */
  maxArtifacts?: number;
  /** Bytes per artifact. Default 64 MiB. */
  maxArtifactBytes?: number;
  /** Rows per dataset. Default 1,000,000. */
  maxDatasetRows?: number;
  /**
   * Out-of-order chunks held per stream. Default 256. Placing an early chunk among the held
   * ones moves up to half of them, so a window of many thousands lets a stream that
   * interleaves its chunk order cost time proportional to the window per chunk.
   */
  maxPendingChunks?: number;
  /** Thoughts kept per task. Default 1,000. */
  maxThoughtsPerTask?: number;
  /** Status changes kept in a task's history (oldest dropped; `status` stays current). Default 1,000. */
  maxHistoryPerTask?: number;
  /** Tool calls kept per task (later ones are ignored). Default 10,000. */
  maxToolsPerTask?: number;
  /** Input plus auth requests kept per task (later ones are ignored). Default 1,000. */
  maxRequestsPerTask?: number;
  /** Conversation messages kept per task (later ones are ignored). Default 10,000. */
  maxMessagesPerTask?: number;
  /** Diagnostics kept. Default 1,000. */
  maxDiagnostics?: number;
  /** Raw events kept in the debug ring (`store.rawEvents()`; 0 = off). Default 0. */
  rawLogEvents?: number;
  /** SSE ids remembered to recognise events a server replays after a reconnect. Default 65,536. */
  dedupeWindow?: number;
}

/** Options of `new AgentStore(options)`; every field is optional. */
export interface AgentStoreOptions {
  /** Memory bounds (see `Limits`). */
  limits?: Limits;
  /**
   * Member names whose values are replaced by `"[redacted]"` in diagnostics (`raw`) and the
   * raw-event ring, at any depth; matched ignoring `-`/`_` and the case of ASCII letters, as
   * a suffix (`"token"` also covers `access_token`). Default: password, passwd, secret, token,
   * api_key, authorization, cookie, private_key. `[]` turns redaction off. Events reach the app
   * as sent.
   */
  redactKeys?: string[];
  /**
   * `"frame"`: `subscribe` listeners are called at most once per animation frame with the
   * coalesced change (event handlers from `on` stay per event). Default `"none"`: after every
   * change.
   */
  batch?: "none" | "frame";
}

/** The first message of an A2A conversation (`message/stream`). */
export interface A2aMessageInit {
  /** A text part. */
  text?: string;
  /** A data part (an object; other values are sent as `{ value }`). */
  data?: unknown;
  /** The conversation to continue. */
  contextId?: string;
  /** The task to continue. */
  taskId?: string;
  /** Message metadata. */
  metadata?: Record<string, unknown>;
}

/** A response on its way to the agent, as given to a custom `responder`. */
export interface OutgoingRequest {
  /** `"message"`: `sendMessage` (A2A, MyAgent). */
  type: "input" | "auth" | "cancel" | "message";
  /** The endpoint URL the default responder would POST to (`""` for a WebSocket frame). */
  url: string;
  /** The JSON body the default responder would POST (or the frame it would send). */
  body: Record<string, unknown>;
  /** The HTTP method when it is not `POST`. */
  httpMethod?: string;
  /** Headers the request needs besides `Content-Type` (A2A v1.0: `A2A-Version: 1.0`, without
   * which a v1.0 server refuses it). */
  headers?: Record<string, string>;
  /** Set when the message is in the stream's dialect (A2A, A2A-ACP, MyAgent). */
  dialect?: Dialect;
  /** The JSON-RPC method or MyAgent event (`message/stream`, `user.response`, ...). */
  method?: string;
  contextId: string;
  taskId: string;
  inputId?: string;
  authId?: string;
}

/**
 * AG-UI 1.0 (`dialect: "ag-ui"`): what the first run's `RunAgentInput` carries. Every run is a
 * POST of a `RunAgentInput` to `url`, written as the official `HttpAgent` writes it (key order
 * `threadId, runId, protocolVersion: "1.0", state, messages, tools, context, forwardedProps,
 * resume?`; headers `Content-Type: application/json`, `Accept: text/event-stream` plus
 * `headers`), and its answer is read as AG-UI SSE.
 *
 * ```ts
 * const client = new AgentClient({
 *   url: "/api/agent",
 *   dialect: "ag-ui",
 *   agUi: { messages: [{ id: "u1", role: "user", content: "Hello" }], state: { count: 1 } },
 * });
 * client.on("input-required", (e) => client.approve(e.inputId)); // the resume run
 * await client.sendMessage("And now?"); // the thread's next run
 * ```
 */
export interface AgUiOptions {
  /** The thread. Default: a new UUID. */
  threadId?: string;
  /** The first run's id. Default: a new UUID (every later run gets a new one). */
  runId?: string;
  /** The thread's messages so far (AG-UI `Message`s; `activity` messages are not sent). */
  messages?: Record<string, unknown>[];
  /** Frontend tools (`{ name, description, parameters? }`), sent with every run. Default `[]`. */
  tools?: Record<string, unknown>[];
  /** Context entries (`{ description, value }`), sent with every run. Default `[]`. */
  context?: { description: string; value: string }[];
  /** The starting state (later runs send the thread's latest `sharedState`). Default `{}`. */
  state?: unknown;
  /** Passed through to the agent with every run. Default `{}`. */
  forwardedProps?: unknown;
}

/**
 * Vercel AI SDK UI message stream (`dialect: "ai-sdk"`, `ai` 7.x): the chat. `url` is the chat
 * endpoint (what `DefaultChatTransport`'s `api` is, e.g. `/api/chat`). Every request is a POST
 * written as `DefaultChatTransport` writes it: `content-type: application/json`, body
 * `{...body, id: chatId, messages, trigger: "submit-message", messageId?}` where `messages` are
 * every `UIMessage` of the chat (the user's, and the assistant's exactly as assembled); the
 * answer is read as the UI message stream. One assistant message is one task (task id = the
 * message id, context id = the chat id).
 *
 * - The first request: `aiSdk.messages`, or the `message` option (a text). With neither, the
 *   client resumes the chat's active response (`GET {url}/{chatId}/stream`; 204: nothing to
 *   resume, the connection ends `closed`).
 * - `sendMessage(text)`: the next POST with the new user message.
 * - `approve(id)` / `deny(id, reason?)` on an approval (`inputType: "confirmation"`, `inputId`
 *   = the approval id): the tool part becomes `approval-responded` at once; once every approval
 *   and client-side tool of the message has its answer, the next POST (`messageId` = that
 *   assistant message) continues the same message.
 * - `respond(toolCallId, output)` for a client-side tool (a tool part `input-available` the
 *   message waits for): the part becomes `output-available`, then the next POST as above.
 * - A response that breaks off resumes with `GET {url}/{chatId}/stream` (never by sending the
 *   message again); its replay from the first chunk applies nothing twice.
 * - `cancel(taskId)` (the official `stop()`): aborts the request; the message keeps what
 *   arrived, its task ends `canceled` ("aborted").
 *
 * ```ts
 * const client = new AgentClient({
 *   url: "/api/chat",
 *   aiSdk: { chatId: "chat-1", body: { model: "gpt-x" } },
 *   message: "What is the weather in Bern?",
 * });
 * client.on("input-required", (e) => client.approve(e.inputId)); // a tool approval
 * await client.sendMessage("And tomorrow?");
 * ```
 */
export interface AiSdkOptions {
  /** The chat id (`id` of every request; the context of every task). Default: a new UUID. */
  chatId?: string;
  /** The chat's `UIMessage`s so far (`{id, role, parts, metadata?}`), sent as given. */
  messages?: Record<string, unknown>[];
  /** Extra members of every request body (`DefaultChatTransport`'s `body`). */
  body?: Record<string, unknown>;
  /** Extra headers of every request (added to the `headers` option). */
  headers?: Record<string, string>;
}

/** Options of `new AgentClient(options)`; the store's options (`AgentStoreOptions`: `limits`, ...) apply too. */
export interface AgentClientOptions extends AgentStoreOptions {
  /** The stream URL (not needed for `transport: "manual"`); for A2A with `message`, the JSON-RPC endpoint. */
  url?: string;
  /**
   * The protocol the server speaks. Default `"auto"`: told from the first events (free on a
   * protocol-000 stream once detected). `"a2a"`, `"acp"`, `"unified"`: SSE; `"myagent"`:
   * WebSocket (the default transport then). Answers, `cancel` and `sendMessage` go out in the
   * dialect's own way (see the README).
   */
  dialect?: "auto" | Dialect;
  /**
   * A2A: start by POSTing this message as JSON-RPC `message/stream` to `url` (or
   * `endpoints.rpc`) and read the streamed responses; implies `dialect: "a2a"`. A dropped
   * stream resumes with `tasks/resubscribe` (the message is never sent again). With
   * `dialect: "ai-sdk"`: the text of the chat's first user message.
   */
  message?: string | A2aMessageInit;
  /**
   * A2A: the protocol version requests are written in. Default `"1.0"` (`SendStreamingMessage`,
   * `SubscribeToTask`, `CancelTask`, header `A2A-Version: 1.0`); `"0.3"`: `message/stream`,
   * `tasks/resubscribe`, `tasks/cancel`. Streams of either version are read either way. An
   * `agentCard` overrides it with the card's.
   */
  a2aVersion?: "1.0" | "0.3";
  /**
   * A2A v1.0: the binding. Default `"jsonrpc"` (every request POSTed to `url`);
   * `"http+json"`: `url` is the HTTP+JSON base (`POST {url}/message:stream`,
   * `{url}/tasks/{id}:subscribe`, `{url}/tasks/{id}:cancel`). With `agentCard`: the binding
   * to prefer when the card offers both.
   */
  a2aBinding?: "jsonrpc" | "http+json";
  /**
   * A2A: the agent card's URL (e.g. `https://agent.example/.well-known/agent-card.json`). It is
   * read before the first request, and its first interface agentwire speaks (JSON-RPC 1.0 or
   * 0.3, HTTP+JSON 1.0; `a2aBinding` first) names the endpoint, binding and version, as the
   * official `ClientFactory` does. Implies `dialect: "a2a"`; needs `message`; `url` is not needed.
   */
  agentCard?: string;
  /**
   * AG-UI 1.0: the first run's `RunAgentInput` (see `AgUiOptions`); implies `dialect: "ag-ui"`.
   * With `dialect: "ag-ui"` every run is a POST to `url` (`method`/`body` are not used);
   * `sendMessage(text)` starts the thread's next run, answers to a run's interrupts
   * (`respond`/`approve`; `deny` = `cancelled`) go out together as the resume run once every
   * interrupt has one. AG-UI streams cannot be resumed: a run whose stream breaks off fails
   * the connection with code `interrupted` and its task stays `working`.
   */
  agUi?: AgUiOptions;
  /**
   * Vercel AI SDK (`ai` 7.x) chat (see `AiSdkOptions`); implies `dialect: "ai-sdk"`. `url` is
   * the chat endpoint (`/api/chat` style): every turn is a POST written as
   * `DefaultChatTransport` writes it (`method`/`body` are not used: give `aiSdk.body`),
   * `sendMessage(text)` sends the next turn, `approve`/`deny` answer tool approvals and
   * `respond(toolCallId, output)` gives a client-side tool's output (the next POST continues the
   * same assistant message), a dropped response resumes with `GET {url}/{chatId}/stream`, and
   * `cancel(taskId)` stops the response (the official `stop()`).
   *
   * ```ts
   * const chat = new AgentClient({ url: "/api/chat", aiSdk: { chatId: "c1" }, message: "Hi" });
   * ```
   */
  aiSdk?: AiSdkOptions;
  /** MyAgent: the `user.create_session` content (`project_name`, `session_name`, `config`) and metadata. */
  session?: { content?: Record<string, unknown>; metadata?: Record<string, unknown> };
  /** MyAgent: `user.ack` interval (ms) while events arrive; 0 = only every 64 events. Default 250. */
  ackIntervalMs?: number;
  /** Default `"fetch"` (fetch + ReadableStream SSE); `"websocket"` with `dialect: "myagent"`. */
  transport?: "fetch" | "eventsource" | "websocket" | "manual";
  /** Default `"GET"`, or `"POST"` when `body` is given (fetch only). */
  method?: "GET" | "POST";
  /** JSON body of a POST (a string is sent as is). */
  body?: unknown;
  /** Extra headers of the stream request and of responses (e.g. `Authorization`). */
  headers?: Record<string, string>;
  /** fetch `credentials`; `"include"` also sets EventSource `withCredentials`. */
  credentials?: "omit" | "same-origin" | "include";
  /** Aborting it closes the client (a pending `run()` rejects with `closed`). */
  signal?: AbortSignal;
  /**
   * How a POSTed stream resumes (a GET with `Last-Event-ID`): a URL, or a function of the
   * last event id and the first response's headers. Without it an interrupted POST stream
   * fails with code `interrupted` instead of being re-sent. GET streams resume by repeating
   * the request with `Last-Event-ID`.
   */
  resume?: string | ((info: { lastEventId: string; headers?: Headers }) => string);
  /**
   * Backoff (jitter is the random share taken off each delay), or `false` to never reconnect.
   * Defaults: initialDelayMs 1000, maxDelayMs 30000, maxAttempts 8 (failed attempts in a row,
   * then `failed` with code `gave-up`), jitter 0.5.
   */
  reconnect?: false | { initialDelayMs?: number; maxDelayMs?: number; maxAttempts?: number; jitter?: number };
  /**
   * Reconnect when no byte (comments/heartbeats, WebSocket frames count) arrived for this long; 0 = off. Default 45000.
   * fetch and WebSocket only: `EventSource` hides comments and cannot be made to resume, so a stalled
   * EventSource stream stays `open` (use the fetch transport to detect a silent server).
   */
  idleTimeoutMs?: number;
  /** WebSocket subprotocols. */
  protocols?: string[];
  /**
   * Where responses go. `base` defaults to the stream URL's directory; protocol 000 (and
   * Unified) POST to `{base}/contexts/{contextId}/tasks/{taskId}/inputs/{inputId}`,
   * `{base}/contexts/{contextId}/tasks/{taskId}/auth/{authId}` and
   * `{base}/contexts/{contextId}/tasks/{taskId}/cancel`; `rpc` is the JSON-RPC endpoint
   * (A2A: default the stream `url`; A2A-ACP: default `{base}/acp/rpc`).
   */
  endpoints?: { base?: string; input?: string; auth?: string; cancel?: string; rpc?: string };
  /** Sends responses yourself (another protocol, a WebSocket, tests). Rejecting fails the call. */
  responder?: (request: OutgoingRequest) => unknown;
  /**
   * Called first for each input request a coordinator may answer (`requireUser` not true).
   * Return the value to send, or `undefined` (or throw) to hand it to the user.
   */
  coordinator?: (request: InputRequest) => unknown;
  /** Sent as `userId` with answers (protocol 000 and Unified; A2A, ACP and MyAgent answers have no such field). */
  userId?: string;
}

/**
 * Options of `new WorkerClient(options)`: those of `AgentClient` that can cross into a Worker
 * (no `responder`/`coordinator` functions; `resume` as a URL), plus the Worker to use.
 */
export interface WorkerClientOptions extends Omit<AgentClientOptions, "responder" | "coordinator" | "resume"> {
  /** A URL to resume a POSTed stream with (a GET with `Last-Event-ID`). */
  resume?: string;
  /**
   * The Worker running agentwire: a `Worker` you created from the package's
   * `agentwire-worker.js` (bundlers: `new Worker(new URL("agentwire/worker", import.meta.url), { type: "module" })`),
   * or its URL; default: the `agentwire-worker.js` next to this package's glue.
   */
  worker?: Worker | string | URL;
}

/** Options of `client.events()`. */
export interface EventStreamOptions {
  /** Which events (evaluated in wasm; internal events are off by default). */
  filter?: EventFilterSpec;
  /** Aborting it ends the iteration. */
  signal?: AbortSignal;
  /** Events buffered for a slow consumer before the iterator fails with code `overflow`. Default 10000. */
  maxBuffered?: number;
}

/** The members of `Limits` (what the wasm reads at the top level of its options). */
export const LIMIT_KEYS: readonly (keyof Limits)[] = [
  "maxLineBytes", "maxEventBytes", "maxTasks", "maxContentBytes", "maxArtifacts", "maxArtifactBytes",
  "maxDatasetRows", "maxPendingChunks", "maxThoughtsPerTask", "maxHistoryPerTask", "maxToolsPerTask",
  "maxRequestsPerTask", "maxMessagesPerTask", "maxDiagnostics", "rawLogEvents", "dedupeWindow",
];

/** What the wasm reads: `options` with `limits` flattened into it, checked (a limit at the top
 * level, the old place, is refused: it would be ignored). `drop` lists members the layer
 * handles itself. */
export function flatten(options: unknown, drop: readonly string[] = []): Record<string, unknown> {
  if (options === undefined || options === null) return {};
  if (typeof options !== "object" || Array.isArray(options)) throw argError("options must be an object", "options");
  const o = options as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(o)) {
    if ((LIMIT_KEYS as readonly string[]).includes(k)) {
      throw argError(`options.${k} is a limit: give it as options.limits.${k}`, `options.${k}`);
    }
    if (k === "autoConnect") throw argError("options.autoConnect was removed: constructors do not connect, call start() or run()", "options.autoConnect");
    if (k !== "limits" && !drop.includes(k)) out[k] = o[k];
  }
  const limits = o.limits;
  if (limits !== undefined && limits !== null) {
    if (typeof limits !== "object" || Array.isArray(limits)) throw argError("options.limits must be an object", "options.limits");
    for (const [k, v] of Object.entries(limits as Record<string, unknown>)) {
      if (!(LIMIT_KEYS as readonly string[]).includes(k)) {
        throw argError(`options.limits.${k} is not a limit (${LIMIT_KEYS.join(", ")})`, `options.limits.${k}`);
      }
      if (v === undefined) continue;
      if (typeof v !== "number" || !Number.isFinite(v) || v < 0) {
        throw argError(`options.limits.${k} must be a number >= 0`, `options.limits.${k}`);
      }
      out[k] = v;
    }
  }
  return out;
}
