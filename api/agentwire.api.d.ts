// The public TypeScript surface of the agentwire package (pkg/types/), checked by
// scripts/api-report.mjs. Regenerate with UPDATE_API=1 bash scripts/typecheck.sh and review the diff.

// ==== types/client.d.ts ====
import type { AgentEvent } from "./types.js";
import type { EventFilterSpec } from "./source.js";
import type { AgentClientOptions } from "./options.js";
import { ConnectionBase } from "./connection.js";
import { AgentStore } from "./store.js";
/**
 * A connection to an agent server (fetch SSE by default, EventSource, WebSocket, or manual)
 * feeding an `AgentStore`, and the way to answer the agent. The constructor does no I/O:
 * `start()` connects, `run()` starts and resolves with the final snapshot.
 *
 * ```ts
 * const client = new AgentClient({ url: "/api/stream?scenario=main" });
 * client.on("input-required", (e) => client.approve(e.inputId));
 * const final = await client.run();
 * ```
 */
export declare class AgentClient extends ConnectionBase {
    constructor(options: AgentClientOptions);
    /** The store this client feeds (the same object every time). */
    get store(): AgentStore;
    /** Calls `handler` with the applied events `filter` selects (evaluated in wasm). */
    subscribeEvents(filter: EventFilterSpec, handler: (event: AgentEvent) => void): () => void;
}

// ==== types/connection.d.ts ====
import type { AgentEvent, AuthRequest, Dialect, InputRequest } from "./types.js";
import type { AgentConnection, AuthDetails, CallOptions, ConnectionInfo, EventFilterSpec, EventOf, KindPattern, RunOptions, SendMessageOptions, Snapshot } from "./source.js";
import type { EventStreamOptions } from "./options.js";
import { EventStream } from "./events.js";
/** The shared implementation of `AgentClient` and `WorkerClient` (not exported by the package). */
export declare abstract class ConnectionBase implements AgentConnection {
    /** Starts connecting; later calls do nothing. Throws `closed` after `close()`. */
    start(): void;
    /**
     * Starts if needed, then resolves with the final snapshot when the stream ends normally (the
     * connection reaches `closed` without the app closing it; see `AgentConnection.run` for what
     * that is per dialect). Rejects with an `AgentwireError`: the connection's `code` when it
     * `failed`, `closed` when the app closed it first, `aborted` when `signal` was aborted (which
     * closes the connection).
     */
    run(options?: RunOptions): Promise<Snapshot>;
    /** The connection state: a frozen object, the same until the state changes. */
    get connection(): ConnectionInfo;
    /** The protocol the stream speaks: the `dialect` option, or what `"auto"` detected (`undefined` until known). */
    get dialect(): Dialect | undefined;
    /** Listeners and handlers registered (leak checks; 0 after close). */
    get listenerCount(): number;
    /** Calls `listener(info)` on every connection state change. Returns the unsubscribe function. */
    onConnectionChange(listener: (info: ConnectionInfo) => void): () => void;
    /** The current snapshot: the same object until something visible changed. */
    getSnapshot(): Snapshot;
    /** Calls `listener(snapshot)` now and after every change of visible state. Returns the unsubscribe function. */
    subscribe(listener: (snapshot: Snapshot) => void): () => void;
    /** Calls `handler` with every applied event of `kind` (narrowed type). Returns the unsubscribe function. */
    on<K extends KindPattern>(kind: K, handler: (event: EventOf<K>) => void): () => void;
    /** Calls `handler` with every applied event (internal ones excluded). Returns the unsubscribe function. */
    onAny(handler: (event: AgentEvent) => void): () => void;
    /** Calls `handler` with the applied events `filter` selects (evaluated in wasm). */
    abstract subscribeEvents(filter: EventFilterSpec, handler: (event: AgentEvent) => void): () => void;
    /** Input requests still open that wait for the user (those a coordinator is handling are left out). */
    pendingInputs(): InputRequest[];
    /** Auth requests still open (auth always goes to the user). */
    pendingAuths(): AuthRequest[];
    /**
     * Answers input `inputId` with `value`, after checking it against the request's `schema` and
     * `options` (rejects with `invalid-answer` and the failing `path`). Answering twice rejects
     * with `already-answered`. AI SDK: also the output of a client-side tool (`toolCallId`).
     */
    respond(inputId: string, value: unknown, options?: CallOptions): Promise<void>;
    /** Approves (the request's own approve option, `true`, or `"approve"`). */
    approve(inputId: string, options?: CallOptions): Promise<void>;
    /** Denies (the request's own deny option, `false`, or `"deny"`); `reason` goes along where the dialect has a place for it. */
    deny(inputId: string, reason?: string, options?: CallOptions): Promise<void>;
    /** Picks one of the request's `options` (the option itself, or an object option's `id`/`value`). */
    select(inputId: string, option: unknown, options?: CallOptions): Promise<void>;
    /** Answers with free text. */
    answer(inputId: string, text: string, options?: CallOptions): Promise<void>;
    /** Tells the agent that auth `authId` was completed (`details`: `code`, `userId`). */
    completeAuth(authId: string, details: AuthDetails, options?: CallOptions): Promise<void>;
    /** Asks the agent to cancel task `taskId` (the task ends when the server says `canceled`). */
    cancel(taskId: string, options?: CallOptions): Promise<void>;
    /**
     * Sends the user's next message in the stream's dialect (A2A `message/stream`, MyAgent
     * `user.message`, AG-UI the thread's next run, AI SDK the chat's next POST). Rejects with
     * `invalid-state` for the dialects without one.
     */
    sendMessage(text: string, options?: SendMessageOptions): Promise<void>;
    /** Sends a frame over the WebSocket transport (objects as JSON; MyAgent: a string is the user's message). */
    send(message: unknown): void;
    /** The auth request's URL, only when safe to open (`https:`, or `http:` on localhost); throws `unsafe-url` otherwise. */
    authUrl(authId: string): string;
    /** Opens the auth URL in a new tab (`noopener`) when it is safe; throws `unsafe-url` otherwise. */
    openAuth(authId: string): void;
    /** The applied events as an async iterator: `for await (const e of client.events()) …`. */
    events(options?: EventStreamOptions): EventStream;
    /** Closes the connection, stops every delivery and removes every listener (idempotent). */
    close(): void;
    [Symbol.dispose](): void;
}

// ==== types/decoder.d.ts ====
import type { AgentEvent, Diagnostic } from "./types.js";
import type { Limits } from "./options.js";
import type { Bytes } from "./store.js";
/** One item from `StreamDecoder.feed`: a canonical event, or a diagnostic. */
export type Decoded = {
    event: AgentEvent;
    id?: string;
} | {
    diagnostic: Diagnostic;
};
/** Options of `new StreamDecoder(options)`. */
export interface StreamDecoderOptions {
    /** `maxLineBytes` and `maxEventBytes` bound the decoder's memory. */
    limits?: Pick<Limits, "maxLineBytes" | "maxEventBytes">;
    /** Member names redacted in diagnostics' `raw` (see `AgentStoreOptions.redactKeys`). */
    redactKeys?: string[];
}
/**
 * Parses and validates an SSE byte stream into canonical events, without keeping state.
 *
 * ```ts
 * const dec = new StreamDecoder();
 * for (const item of dec.feed(bytes)) if ("event" in item) console.log(item.event.kind);
 * ```
 */
export declare class StreamDecoder {
    constructor(options?: StreamDecoderOptions);
    /** Feeds the next bytes; returns the events and diagnostics they completed, in order. */
    feed(chunk: Bytes): Decoded[];
    /** End of stream: discards an unterminated event. */
    finish(): void;
    /** Releases the decoder's memory now (it cannot be used after). */
    free(): void;
    [Symbol.dispose](): void;
    /** The SSE last event id. */
    get lastEventId(): string;
    set lastEventId(id: string);
}

// ==== types/entry.d.ts ====
export type * from "./types.js";
export { AgentwireError } from "./errors.js";
export type { AgentwireErrorCode, AgentwireErrorDetails, ConnectionErrorCode } from "./errors.js";
export type { AgentSource, AgentConnection, AuthDetails, CallOptions, ConnectionInfo, ConnectionState, EventFilterSpec, EventOf, KindPattern, RunOptions, SendMessageOptions, Snapshot, } from "./source.js";
export type { A2aMessageInit, AgentClientOptions, AgentStoreOptions, AgUiOptions, AiSdkOptions, EventStreamOptions, Limits, OutgoingRequest, } from "./options.js";
export { AgentStore } from "./store.js";
export type { Bytes, EventInput } from "./store.js";
export { AgentClient } from "./client.js";
export { StreamDecoder } from "./decoder.js";
export type { Decoded, StreamDecoderOptions } from "./decoder.js";
export { EventStream } from "./events.js";

// ==== types/errors.d.ts ====
/** Why a connection failed (`ConnectionInfo.code`; also the code `run()` rejects with). */
export type ConnectionErrorCode = "interrupted" | "unauthorized" | "http-error" | "bad-content-type" | "gave-up" | "connect-failed" | "rpc-error" | "agent-card" | "unsupported-framing" | "session-lost" | "invalid-argument" | "internal";
/** Every code agentwire throws or rejects with. */
export type AgentwireErrorCode = ConnectionErrorCode
/** The object was closed (`close()`, the constructor's `signal`), or closed while a call waited. */
 | "closed"
/** The call's `signal` was aborted before anything was sent (nothing was sent). */
 | "aborted"
/** The call does not fit the state (no open socket, the dialect has no such message, ...). */
 | "invalid-state"
/** The answer could not be delivered (network error, HTTP error, the responder threw). */
 | "send-failed"
/** The request was already answered (from this client, or the server said 409). */
 | "already-answered"
/** The request expired before it was answered. */
 | "expired" | "unknown-input" | "unknown-auth" | "unknown-task"
/** The answer does not fit the request's schema/options (`path` says where). */
 | "invalid-answer"
/** The auth URL is not https: (or http: on localhost). */
 | "unsafe-url" | "no-auth-url"
/** An event iterator fell more than `maxBuffered` events behind. */
 | "overflow";
/** Extra facts an error carries when known. */
export interface AgentwireErrorDetails {
    /** The HTTP status that caused it. */
    status?: number;
    /** The JSON path of the invalid argument or answer. */
    path?: string;
    /** The input request concerned. */
    inputId?: string;
    /** The auth request concerned. */
    authId?: string;
    /** The JSON body of the HTTP error response that caused it. */
    payload?: unknown;
    /** The underlying error (a network error, what a responder threw). */
    cause?: unknown;
}
/**
 * What agentwire throws and rejects with. Narrow on `code`:
 * ```ts
 * try { await client.approve(id); } catch (e) {
 *   if (e instanceof AgentwireError && e.code === "already-answered") return;
 *   throw e;
 * }
 * ```
 */
export declare class AgentwireError extends Error {
    /** Stable code (see `AgentwireErrorCode`). */
    readonly code: AgentwireErrorCode;
    /** The HTTP status, when one caused it. */
    readonly status?: number;
    /** The JSON path of the invalid argument or answer, when known. */
    readonly path?: string;
    /** The input request concerned, when one is. */
    readonly inputId?: string;
    /** The auth request concerned, when one is. */
    readonly authId?: string;
    /** The JSON body of the HTTP error response that caused it, when it had one. */
    readonly payload?: unknown;
    constructor(code: AgentwireErrorCode, message: string, details?: AgentwireErrorDetails);
}
/** `e` as an AgentwireError (the wasm's and the Worker's errors carry `code`; anything else
 * that escapes is `internal`). */
export declare function toError(e: unknown): AgentwireError;
/** Runs `f`, turning what it throws into an AgentwireError. */
export declare function guard<T>(f: () => T): T;
/** `p` with its rejection turned into an AgentwireError. */
export declare function guardAsync<T>(p: Promise<T>): Promise<T>;
/** An `invalid-argument` error. */
export declare function argError(message: string, path?: string): AgentwireError;

// ==== types/events.d.ts ====
import type { AgentEvent } from "./types.js";
/** What `events()` returns: `for await (const e of client.events()) …`. */
export declare class EventStream implements AsyncIterableIterator<AgentEvent> {
    /** The next event; `done` once the iterator ended (close, `signal`, `return()`). */
    next(): Promise<IteratorResult<AgentEvent, undefined>>;
    /** Ends the iteration (unsubscribes). */
    return(): Promise<IteratorResult<AgentEvent, undefined>>;
    [Symbol.asyncIterator](): this;
}

// ==== types/index.d.ts ====
export * from "./entry.js";
export { WorkerClient } from "./worker.js";
export type { WorkerClientOptions } from "./options.js";

// ==== types/options.d.ts ====
import type { Dialect, InputRequest } from "./types.js";
import type { EventFilterSpec } from "./source.js";
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
    context?: {
        description: string;
        value: string;
    }[];
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
    session?: {
        content?: Record<string, unknown>;
        metadata?: Record<string, unknown>;
    };
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
    resume?: string | ((info: {
        lastEventId: string;
        headers?: Headers;
    }) => string);
    /**
     * Backoff (jitter is the random share taken off each delay), or `false` to never reconnect.
     * Defaults: initialDelayMs 1000, maxDelayMs 30000, maxAttempts 8 (failed attempts in a row,
     * then `failed` with code `gave-up`), jitter 0.5.
     */
    reconnect?: false | {
        initialDelayMs?: number;
        maxDelayMs?: number;
        maxAttempts?: number;
        jitter?: number;
    };
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
    endpoints?: {
        base?: string;
        input?: string;
        auth?: string;
        cancel?: string;
        rpc?: string;
    };
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
export declare const LIMIT_KEYS: readonly (keyof Limits)[];
/** What the wasm reads: `options` with `limits` flattened into it, checked (a limit at the top
 * level, the old place, is refused: it would be ignored). `drop` lists members the layer
 * handles itself. */
export declare function flatten(options: unknown, drop?: readonly string[]): Record<string, unknown>;

// ==== types/source.d.ts ====
import type { AgentEvent, AuthRequest, Dialect, InputRequest, Task, Artifact, Diagnostic, ThoughtType, Verbosity } from "./types.js";
import type { AgentwireErrorCode } from "./errors.js";
import type { EventStreamOptions } from "./options.js";
/** The connection states: `idle` until `start()`, then `connecting` → `open` ⇄ `reconnecting` → `closed` | `failed`. */
export type ConnectionState = "idle" | "connecting" | "open" | "reconnecting" | "closed" | "failed";
/** The observable connection state (a frozen object; the same object until the state changes, so it can be a `useSyncExternalStore` snapshot as is). */
export interface ConnectionInfo {
    readonly state: ConnectionState;
    /** Why, for a person. */
    readonly reason: string;
    /** Set when `failed`. */
    readonly code?: AgentwireErrorCode;
    /** Reconnect attempt (0 while open); after `gave-up`, the failed attempts made. */
    readonly attempt: number;
}
/**
 * What `getSnapshot()` returns; identical object until something visible changed. Read-only:
 * the snapshot itself is frozen, but its tasks, artifacts and arrays are shared with later
 * snapshots (an unchanged task keeps its object), so an edit or an in-place sort would show in
 * them too: copy first (`[...snap.tasks].sort(…)`).
 */
export interface Snapshot {
    /** Changes exactly when visible state changed. */
    version: number;
    /** Every task, in creation order (unchanged tasks keep their object identity). */
    tasks: Task[];
    /** Root tasks (no parent). */
    roots: Task[];
    /** Every artifact, in creation order. */
    artifacts: Artifact[];
    /** Diagnostics kept (bounded), oldest first. */
    diagnostics: Diagnostic[];
    /** Input requests still open that wait for the user (those a coordinator is handling are left out). */
    pendingInputs: InputRequest[];
    /** Auth requests still open. */
    pendingAuths: AuthRequest[];
}
/** Selects events for `on`/`subscribeEvents`; all fields optional (internal events are off by default). */
export interface EventFilterSpec {
    kinds?: string | string[];
    taskId?: string;
    subtree?: boolean;
    contextId?: string;
    thoughtTypes?: ThoughtType[];
    maxVerbosity?: Verbosity;
    minConfidence?: number;
    requireUser?: boolean;
    includeInternal?: boolean;
}
/** A kind pattern for `on`: an exact kind, a group such as `tool-*`, or `*`. */
export type KindPattern = AgentEvent["kind"] | "tool-*" | "input-*" | "auth-*" | "task-*" | "content-*" | "artifact-*" | "internal:*" | "*";
/**
 * The events `on(pattern, …)` delivers for a pattern. A group also delivers the events of kinds
 * this version does not know whose own kind is in the group (`kind: "unknown"`, `unknownKind`
 * says which); `"unknown"` delivers every unknown kind (not `internal:` ones).
 */
export type EventOf<K extends KindPattern> = K extends "*" ? AgentEvent : K extends `${infer P}*` ? Extract<AgentEvent, {
    kind: `${P}${string}` | "unknown";
}> | (K extends "artifact-*" ? Extract<AgentEvent, {
    kind: "file-write" | "data-write" | "dataset-write";
}> : never) : Extract<AgentEvent, {
    kind: K;
}>;
/** The `options` of a call that sends something: aborting `signal` before the call is sent
 * rejects it with code `aborted` and sends nothing (once sent, it cannot be taken back). */
export interface CallOptions {
    signal?: AbortSignal;
}
/** Options of `run()`. */
export interface RunOptions {
    /** Aborting it closes the connection and rejects the run with code `aborted`. */
    signal?: AbortSignal;
}
/** Options of `sendMessage()`. */
export interface SendMessageOptions extends CallOptions {
    /** A2A: the conversation to continue. */
    contextId?: string;
}
/** What an auth request's completion carries. */
export interface AuthDetails {
    code?: string;
    userId?: string;
}
/** The read side shared by `AgentStore`, `AgentClient` and `WorkerClient` (adapters accept any). */
export interface AgentSource {
    /** Calls `listener` after every change of visible state (and once at once with the current
     * snapshot, the Svelte store contract). `useSyncExternalStore`-compatible. Returns the
     * unsubscribe function. */
    subscribe(listener: (snapshot: Snapshot) => void): () => void;
    /** The current snapshot: the same object until something visible changed. */
    getSnapshot(): Snapshot;
    /** Calls `handler` with every applied event of `kind` (narrowed type). Returns the unsubscribe function. */
    on<K extends KindPattern>(kind: K, handler: (event: EventOf<K>) => void): () => void;
    /** Calls `handler` with every applied event (internal ones excluded). Returns the unsubscribe function. */
    onAny(handler: (event: AgentEvent) => void): () => void;
    /** Calls `handler` with the applied events `filter` selects (evaluated in wasm). */
    subscribeEvents(filter: EventFilterSpec, handler: (event: AgentEvent) => void): () => void;
    /** Input requests still open that wait for the user (those for a coordinator are left out). */
    pendingInputs(): InputRequest[];
    /** Auth requests still open. */
    pendingAuths(): AuthRequest[];
}
/**
 * A live connection: `AgentClient` and `WorkerClient`. Constructors do no network I/O:
 * `start()` connects, `run()` starts if needed and waits for the end.
 */
export interface AgentConnection extends AgentSource {
    /** The connection state: the same object until it changes. */
    readonly connection: ConnectionInfo;
    /** Calls `listener(info)` on every connection state change. Returns the unsubscribe function. */
    onConnectionChange(listener: (info: ConnectionInfo) => void): () => void;
    /** The protocol the stream speaks (`undefined` until known). */
    readonly dialect: Dialect | undefined;
    /** Starts connecting; later calls do nothing. Throws `closed` after `close()`. */
    start(): void;
    /**
     * Starts if needed, then resolves with the final snapshot when the stream ends normally:
     * the connection reaches `closed` ("the run finished") without the app closing it. Per
     * dialect: protocol 000, Unified, A2A, A2A-ACP and MyAgent: the stream (or socket) ended, or
     * went idle, once every root task was terminal; a stream that breaks off earlier is resumed,
     * not ended, and a task waiting for an answer keeps the run going. AG-UI: the run finished
     * (`RUN_FINISHED`) with no interrupt waiting for an answer (interrupts go on with the resume
     * run once answered). AI SDK: the response finished (its `finish` chunk) with no approval or
     * client-side tool output waiting. Turn-based dialects (AG-UI, AI SDK, A2A) end each turn
     * this way: `sendMessage` starts the next, and a `run()` called while a `sendMessage` is in
     * flight waits for that turn's end. Rejects with an `AgentwireError`: the connection's
     * `code` when it `failed` (`gave-up`, `unauthorized`, `interrupted`, ...), `closed` when the
     * app closed it first, `aborted` when `signal` was aborted (which closes the connection).
     */
    run(options?: RunOptions): Promise<Snapshot>;
    /** Sends the user's next message in the stream's dialect (starts the next turn). */
    sendMessage(text: string, options?: SendMessageOptions): Promise<void>;
    /** Answers input `inputId` with `value` (checked against the request's schema and options). */
    respond(inputId: string, value: unknown, options?: CallOptions): Promise<void>;
    /** Approves (the request's own approve option, `true`, or `"approve"`). */
    approve(inputId: string, options?: CallOptions): Promise<void>;
    /** Denies (the request's own deny option, `false`, or `"deny"`), with an optional reason. */
    deny(inputId: string, reason?: string, options?: CallOptions): Promise<void>;
    /** Picks one of the request's `options`. */
    select(inputId: string, option: unknown, options?: CallOptions): Promise<void>;
    /** Answers with free text. */
    answer(inputId: string, text: string, options?: CallOptions): Promise<void>;
    /** Tells the agent that auth `authId` was completed. */
    completeAuth(authId: string, details: AuthDetails, options?: CallOptions): Promise<void>;
    /** Asks the agent to cancel task `taskId`. */
    cancel(taskId: string, options?: CallOptions): Promise<void>;
    /** The auth request's URL when it is safe to open; throws `unsafe-url` otherwise. */
    authUrl(authId: string): string;
    /** Opens the auth URL in a new tab (`noopener`) when it is safe. */
    openAuth(authId: string): void;
    /** The applied events as an async iterator. */
    events(options?: EventStreamOptions): AsyncIterableIterator<AgentEvent>;
    /** Closes the connection and removes every listener (idempotent). */
    close(): void;
    [Symbol.dispose](): void;
}

// ==== types/store.d.ts ====
import type { AgentEvent, Artifact, AuthRequest, Diagnostic, InputRequest, Task } from "./types.js";
import type { AgentSource, EventFilterSpec, EventOf, KindPattern, Snapshot } from "./source.js";
import type { AgentStoreOptions } from "./options.js";
/** An event as `pushEvent` takes it: an event object, or its JSON text. */
export type EventInput = AgentEvent | Record<string, unknown> | string;
/** Bytes as `feed` takes them. */
export type Bytes = Uint8Array | ArrayBuffer | DataView | number[];
/**
 * The framework-neutral agent store: feed it a stream, read snapshots, subscribe.
 *
 * ```ts
 * const store = new AgentStore({ limits: { maxTasks: 100 } });
 * const stop = store.subscribe(() => render(store.getSnapshot()));
 * store.on("tool-progress", (e) => console.log(e.toolCallId, e.progress));
 * store.feed(new TextEncoder().encode('event: task-created\ndata: {...}\n\n'));
 * ```
 */
export declare class AgentStore implements AgentSource {
    constructor(options?: AgentStoreOptions);
    /** Feeds the next bytes of an SSE stream (a `Uint8Array`, `ArrayBuffer`, `DataView` or an array of byte values). */
    feed(chunk: Bytes): void;
    /** Feeds SSE text. */
    feedText(text: string): void;
    /** Applies one event (an object, or its JSON text), validated as if it came from the stream. */
    pushEvent(event: EventInput): void;
    /** End of stream: an unterminated event is discarded, open work is settled. */
    finish(): void;
    /** Forgets the parser's partial event (a new connection of the same stream). */
    resetStream(): void;
    /** Advances the store's clock (ms since epoch) so open requests can expire while the stream is idle. */
    advanceClock(nowMs: number): void;
    /** The current snapshot: the same object until something visible changed. */
    getSnapshot(): Snapshot;
    /** Calls `listener(snapshot)` now and after every change of visible state. Returns the unsubscribe function. */
    subscribe(listener: (snapshot: Snapshot) => void): () => void;
    /** Calls `handler` with every applied event of `kind` (narrowed type), after the store was updated. */
    on<K extends KindPattern>(kind: K, handler: (event: EventOf<K>) => void): () => void;
    /** Calls `handler` with every applied event (internal ones excluded). */
    onAny(handler: (event: AgentEvent) => void): () => void;
    /** Calls `handler` with the applied events `filter` selects (evaluated in wasm). */
    subscribeEvents(filter: EventFilterSpec, handler: (event: AgentEvent) => void): () => void;
    /** Task `id`, if known. */
    task(id: string): Task | undefined;
    /** Artifact `id`, if known. */
    artifact(id: string): Artifact | undefined;
    /** A file artifact's text (UTF-8). */
    artifactText(id: string): string | undefined;
    /** A file artifact's bytes. */
    artifactBytes(id: string): Uint8Array | undefined;
    /** A dataset artifact's rows. */
    artifactRows(id: string): Record<string, unknown>[] | undefined;
    /** Diagnostics kept, oldest first. */
    diagnostics(): Diagnostic[];
    /** Input requests still open that wait for the user. */
    pendingInputs(): InputRequest[];
    /** Auth requests still open. */
    pendingAuths(): AuthRequest[];
    /** The raw events kept in the debug ring (`rawLogEvents`), redacted. */
    rawEvents(): {
        position: number;
        raw: string;
    }[];
    /** The whole state as JSON text (debugging, golden tests). */
    stateJson(): string;
    /** Closes the store: listeners removed, later feeds refused with `closed` (idempotent). */
    close(): void;
    /** Releases the store's memory now (later calls throw). */
    free(): void;
    [Symbol.dispose](): void;
    /** The SSE last event id (send it as `Last-Event-ID` to resume). */
    get lastEventId(): string;
    /** The server's `retry:` reconnection time in ms, if it sent one. */
    get retry(): number | undefined;
    /** Changes exactly when visible state changed. */
    get version(): number;
    /** Listeners plus event handlers registered (leak checks). */
    get listenerCount(): number;
}

// ==== types/types.d.ts ====
// Generated by tsify from the Rust types; checked by tests/ts_decl.rs. Do not edit.
/**
 * Every canonical event (protocol 000), discriminated by `kind`.
 *
 * In TypeScript: `if (e.kind === "tool-progress") e.progress` type-checks.
 */
export type AgentEvent = ({ kind: "task-created" } & TaskCreated) | ({ kind: "task-status" } & TaskStatusEvent) | ({ kind: "task-complete" } & TaskComplete) | ({ kind: "content-delta" } & ContentDelta) | ({ kind: "content-complete" } & ContentComplete) | ({ kind: "tool-start" } & ToolStart) | ({ kind: "tool-progress" } & ToolProgress) | ({ kind: "tool-complete" } & ToolComplete) | ({ kind: "input-required" } & InputRequired) | ({ kind: "input-received" } & InputReceived) | ({ kind: "auth-required" } & AuthRequired) | ({ kind: "auth-completed" } & AuthCompleted) | ({ kind: "file-write" } & FileWrite) | ({ kind: "data-write" } & DataWrite) | ({ kind: "dataset-write" } & DatasetWrite) | ({ kind: "subtask-created" } & SubtaskCreated) | ({ kind: "thought-stream" } & ThoughtStream) | ({ kind: "message-start" } & MessageStart) | ({ kind: "message-delta" } & MessageDelta) | ({ kind: "message-end" } & MessageEnd) | ({ kind: "message-part" } & MessagePartPut) | ({ kind: "message-cut" } & MessageCut) | ({ kind: "message-upsert" } & MessagePut) | ({ kind: "messages-snapshot" } & MessagesSnapshot) | ({ kind: "message-patch" } & MessagePatch) | ({ kind: "tool-args-delta" } & ToolArgsDelta) | ({ kind: "tool-args-end" } & ToolArgsEnd) | ({ kind: "encrypted-value" } & EncryptedValue) | ({ kind: "state-snapshot" } & StateSnapshot) | ({ kind: "state-delta" } & StateDelta) | ({ kind: "internal:thought-process" } & InternalThoughtProcess) | ({ kind: "internal:llm-call" } & InternalLlmCall) | ({ kind: "internal:checkpoint" } & InternalCheckpoint) | ({ kind: "internal:tool-start" } & InternalToolStart) | ({ kind: "internal:tool-complete" } & InternalToolComplete) | ({ kind: "unknown" } & UnknownEvent);

/**
 * One problem found in the stream. Never thrown: collected, and readable/subscribable by the app.
 */
export interface Diagnostic {
    /**
     * Stable code.
     */
    code: DiagCode;
    /**
     * `error`: not applied; `warning`: applied with the flagged part ignored.
     */
    severity: Severity;
    /**
     * A short lower-case explanation.
     */
    message: string;
    /**
     * JSON path inside the event's data (`$` for the whole event, `$.metadata.confidence`, ...).
     */
    path: string;
    /**
     * The event kind, when known.
     */
    kind?: string;
    /**
     * The task concerned, when known.
     */
    taskId?: string;
    /**
     * The SSE `id` (last event id) of the event, when the stream carries ids.
     */
    eventId?: string;
    /**
     * The event's position in the stream (0-based count of dispatched events).
     */
    position: number;
    /**
     * The raw event data (cut to a bounded size), when the diagnostic is about one event.
     */
    raw?: string;
}

/**
 * A stable, machine-readable diagnostic code (kebab-case on the wire and in JavaScript).
 */
export type DiagCode = "sse-line-too-long" | "sse-event-too-large" | "invalid-json" | "not-an-object" | "missing-field" | "invalid-type" | "invalid-enum" | "out-of-range" | "invalid-timestamp" | "kind-mismatch" | "metadata-not-on-first-chunk" | "tool-not-started" | "tool-already-finished" | "input-not-open" | "auth-not-open" | "duplicate-request" | "chunk-gap" | "chunk-conflict" | "chunk-after-complete" | "task-already-terminal" | "content-mismatch" | "schema-mismatch" | "version-regression" | "invalid-base64" | "limit-exceeded" | "unsafe-url" | "parent-conflict" | "request-expired" | "duplicate-event" | "unknown-dialect" | "dialect-mismatch" | "rpc-invalid" | "rpc-error" | "rpc-id-mismatch" | "unknown-artifact" | "agent-error" | "sequence-gap" | "message-not-started" | "patch-failed" | "out-of-order" | "unsupported-framing" | "left-open" | "session-mismatch" | "frame-too-large";

/**
 * How bad a diagnostic is.
 */
export type Severity = "error" | "warning";

/**
 * A JSON object, kept whole (`metadata`, `arguments`, `data`, `state`).
 */
export type JsonObject = Record<string, unknown>;

/**
 * A task's lifecycle state.
 */
export type TaskStatus = "working" | "waiting-input" | "waiting-auth" | "waiting-subtask" | "completed" | "failed" | "canceled";

/**
 * Who started a task.
 */
export type Initiator = "user" | "agent";

/**
 * What kind of input an `input-required` asks for.
 */
export type InputType = "tool-execution" | "confirmation" | "clarification" | "selection" | "custom";

/**
 * Who answered an input request.
 */
export type ProvidedBy = "user" | "agent";

/**
 * The authentication mechanism requested.
 */
export type AuthType = "oauth2" | "api-key" | "password" | "biometric" | "custom";

/**
 * How a file artifact's `data` chunks are encoded.
 */
export type Encoding = "utf-8" | "base64";

/**
 * The category of a thought.
 */
export type ThoughtType = "planning" | "reasoning" | "reflection" | "decision" | "observation" | "strategy";

/**
 * Granularity of a thought; ordered brief < normal < detailed.
 */
export type Verbosity = "brief" | "normal" | "detailed";

/**
 * Where in the agent loop an `internal:thought-process` was taken.
 */
export type ThoughtStage = "pre-llm" | "post-llm" | "pre-tool" | "post-tool";

/**
 * Who a conversation message is from (AG-UI's roles; the AI SDK's map onto them).
 */
export type MessageRole = "user" | "assistant" | "system" | "developer" | "tool" | "reasoning" | "activity";

/**
 * A new task began (user message or sub-agent invocation).
 */
export interface TaskCreated {
    /**
     * The conversation/session.
     */
    contextId: string;
    /**
     * The task.
     */
    taskId: string;
    /**
     * The parent task, when this is a subtask.
     */
    parentTaskId?: string;
    /**
     * Who started it.
     */
    initiator: Initiator;
    /**
     * ISO 8601.
     */
    timestamp: string;
    /**
     * `agentId`, `model`, and anything else.
     */
    metadata?: JsonObject;
}

/**
 * A task's status changed.
 */
export interface TaskStatusEvent {
    /**
     * The conversation/session.
     */
    contextId: string;
    /**
     * The task.
     */
    taskId: string;
    /**
     * The new status.
     */
    status: TaskStatus;
    /**
     * Human-readable status message.
     */
    message?: string;
    /**
     * ISO 8601.
     */
    timestamp: string;
    /**
     * `reason` (failed/canceled), `blockedBy` (waiting-*), and anything else.
     */
    metadata?: JsonObject;
}

/**
 * A task finished, with its final text.
 */
export interface TaskComplete {
    /**
     * The conversation/session.
     */
    contextId: string;
    /**
     * The task.
     */
    taskId: string;
    /**
     * The final text response (wins over the assembled deltas).
     */
    content?: string;
    /**
     * Ids of the artifacts the task created.
     */
    artifacts?: string[];
    /**
     * ISO 8601.
     */
    timestamp: string;
    /**
     * `duration` (ms), `iterations`, `tokensUsed`, and anything else.
     */
    metadata?: JsonObject;
}

/**
 * A piece of streamed answer text.
 */
export interface ContentDelta {
    /**
     * The conversation/session.
     */
    contextId: string;
    /**
     * The task.
     */
    taskId: string;
    /**
     * Text to append.
     */
    delta: string;
    /**
     * Chunk sequence number, 0-based.
     */
    index: number;
    /**
     * ISO 8601.
     */
    timestamp: string;
}

/**
 * The streamed answer is finished; `content` is the full text.
 */
export interface ContentComplete {
    /**
     * The conversation/session.
     */
    contextId: string;
    /**
     * The task.
     */
    taskId: string;
    /**
     * The full assembled content.
     */
    content: string;
    /**
     * ISO 8601.
     */
    timestamp: string;
}

/**
 * A tool call began.
 */
export interface ToolStart {
    /**
     * The conversation/session.
     */
    contextId: string;
    /**
     * The task.
     */
    taskId: string;
    /**
     * Unique id of this tool invocation.
     */
    toolCallId: string;
    /**
     * The tool's name.
     */
    toolName: string;
    /**
     * The call's arguments.
     */
    arguments: JsonObject;
    /**
     * ISO 8601.
     */
    timestamp: string;
    /**
     * `provider`, `concurrent`, and anything else.
     */
    metadata?: JsonObject;
}

/**
 * Progress of a long-running tool call.
 */
export interface ToolProgress {
    /**
     * The conversation/session.
     */
    contextId: string;
    /**
     * The task.
     */
    taskId: string;
    /**
     * The tool invocation.
     */
    toolCallId: string;
    /**
     * 0.0 to 1.0.
     */
    progress: number;
    /**
     * Progress description.
     */
    message?: string;
    /**
     * ISO 8601.
     */
    timestamp: string;
    /**
     * `step`, `stepsCompleted`, `stepsTotal`, and anything else.
     */
    metadata?: JsonObject;
}

/**
 * A tool call finished.
 */
export interface ToolComplete {
    /**
     * The conversation/session.
     */
    contextId: string;
    /**
     * The task.
     */
    taskId: string;
    /**
     * The tool invocation.
     */
    toolCallId: string;
    /**
     * The tool's name.
     */
    toolName: string;
    /**
     * Whether it succeeded.
     */
    success: boolean;
    /**
     * The result data.
     */
    result?: unknown;
    /**
     * The error message when it failed.
     */
    error?: string;
    /**
     * ISO 8601.
     */
    timestamp: string;
    /**
     * `duration` (ms), `cached`, `retries`, and anything else.
     */
    metadata?: JsonObject;
}

/**
 * The agent needs input to continue.
 */
export interface InputRequired {
    /**
     * The conversation/session.
     */
    contextId: string;
    /**
     * The task.
     */
    taskId: string;
    /**
     * Unique id of this request.
     */
    inputId: string;
    /**
     * `true`: must reach the user; otherwise a coordinator may answer first.
     */
    requireUser?: boolean;
    /**
     * What kind of input.
     */
    inputType: InputType;
    /**
     * What is being requested.
     */
    prompt: string;
    /**
     * JSON Schema of the expected value.
     */
    schema?: unknown;
    /**
     * Choices (selection).
     */
    options?: unknown[];
    /**
     * ISO 8601.
     */
    timestamp: string;
    /**
     * `toolCall`, `urgency`, `timeout` (seconds), and anything else.
     */
    metadata?: JsonObject;
}

/**
 * An input request was answered.
 */
export interface InputReceived {
    /**
     * The conversation/session.
     */
    contextId: string;
    /**
     * The task.
     */
    taskId: string;
    /**
     * The request answered.
     */
    inputId: string;
    /**
     * Who answered.
     */
    providedBy: ProvidedBy;
    /**
     * The user, when a user answered.
     */
    userId?: string;
    /**
     * The agent, when a coordinator answered.
     */
    agentId?: string;
    /**
     * ISO 8601.
     */
    timestamp: string;
    /**
     * `duration` (ms), and anything else.
     */
    metadata?: JsonObject;
}

/**
 * Authentication is needed (always for the user).
 */
export interface AuthRequired {
    /**
     * The conversation/session.
     */
    contextId: string;
    /**
     * The task.
     */
    taskId: string;
    /**
     * Unique id of this auth request.
     */
    authId: string;
    /**
     * The mechanism.
     */
    authType: AuthType;
    /**
     * e.g. `google`, `github`.
     */
    provider?: string;
    /**
     * Requested scopes.
     */
    scopes?: string[];
    /**
     * User-facing message.
     */
    prompt: string;
    /**
     * Where to authenticate (only `https:`, or `http:` on localhost, is ever opened).
     */
    authUrl?: string;
    /**
     * ISO 8601.
     */
    timestamp: string;
    /**
     * `expiresIn` (seconds), and anything else.
     */
    metadata?: JsonObject;
}

/**
 * Authentication succeeded.
 */
export interface AuthCompleted {
    /**
     * The conversation/session.
     */
    contextId: string;
    /**
     * The task.
     */
    taskId: string;
    /**
     * The auth request answered.
     */
    authId: string;
    /**
     * The user who authenticated.
     */
    userId: string;
    /**
     * ISO 8601.
     */
    timestamp: string;
    /**
     * `expiresAt`, and anything else.
     */
    metadata?: JsonObject;
}

/**
 * A chunk of a file artifact (metadata on chunk 0).
 */
export interface FileWrite {
    /**
     * The conversation/session.
     */
    contextId: string;
    /**
     * The task.
     */
    taskId: string;
    /**
     * The artifact.
     */
    artifactId: string;
    /**
     * Text, or base64 when `encoding` is `base64`.
     */
    data: string;
    /**
     * Chunk sequence, 0-based.
     */
    index: number;
    /**
     * `true` on the final chunk.
     */
    complete: boolean;
    /**
     * ISO 8601.
     */
    timestamp: string;
    /**
     * File name (first chunk only).
     */
    name?: string;
    /**
     * Description (first chunk only).
     */
    description?: string;
    /**
     * MIME type (first chunk only).
     */
    mimeType?: string;
    /**
     * Data encoding (first chunk only; default utf-8).
     */
    encoding?: Encoding;
    /**
     * `toolCallId`, `totalSize` (bytes), and anything else.
     */
    metadata?: JsonObject;
}

/**
 * A data artifact written whole (create or update; `metadata.version` orders updates).
 */
export interface DataWrite {
    /**
     * The conversation/session.
     */
    contextId: string;
    /**
     * The task.
     */
    taskId: string;
    /**
     * The artifact.
     */
    artifactId: string;
    /**
     * Artifact name.
     */
    name?: string;
    /**
     * Description.
     */
    description?: string;
    /**
     * The complete record.
     */
    data: JsonObject;
    /**
     * ISO 8601.
     */
    timestamp: string;
    /**
     * `toolCallId`, `version`, and anything else.
     */
    metadata?: JsonObject;
}

/**
 * A batch of dataset rows (metadata and schema on batch 0).
 */
export interface DatasetWrite {
    /**
     * The conversation/session.
     */
    contextId: string;
    /**
     * The task.
     */
    taskId: string;
    /**
     * The artifact.
     */
    artifactId: string;
    /**
     * The rows of this batch.
     */
    rows: JsonObject[];
    /**
     * Batch sequence, 0-based.
     */
    index: number;
    /**
     * `true` on the final batch.
     */
    complete: boolean;
    /**
     * ISO 8601.
     */
    timestamp: string;
    /**
     * Dataset name (first batch only).
     */
    name?: string;
    /**
     * Description (first batch only).
     */
    description?: string;
    /**
     * JSON Schema of a row (first batch only).
     */
    schema?: unknown;
    /**
     * `toolCallId`, `totalRows`, `batchSize`, and anything else.
     */
    metadata?: JsonObject;
}

/**
 * A sub-agent was invoked: `subtaskId` is a new child of `taskId`.
 */
export interface SubtaskCreated {
    /**
     * The conversation/session.
     */
    contextId: string;
    /**
     * The parent task.
     */
    taskId: string;
    /**
     * The new subtask.
     */
    subtaskId: string;
    /**
     * Which sub-agent.
     */
    agentId?: string;
    /**
     * What was requested.
     */
    prompt: string;
    /**
     * ISO 8601.
     */
    timestamp: string;
}

/**
 * One step of the agent's visible reasoning.
 */
export interface ThoughtStream {
    /**
     * The conversation/session.
     */
    contextId: string;
    /**
     * The task.
     */
    taskId: string;
    /**
     * Unique id of this thought.
     */
    thoughtId: string;
    /**
     * Category.
     */
    thoughtType: ThoughtType;
    /**
     * Granularity.
     */
    verbosity: Verbosity;
    /**
     * The thought.
     */
    content: string;
    /**
     * Sequence number, 0-based.
     */
    index: number;
    /**
     * ISO 8601.
     */
    timestamp: string;
    /**
     * `confidence` (0..1), `alternatives`, `relatedTo`, and anything else.
     */
    metadata?: JsonObject;
}

/**
 * Internal (debug) reasoning of the agent loop; not shown to users by default.
 */
export interface InternalThoughtProcess {
    /**
     * The conversation/session.
     */
    contextId: string;
    /**
     * The task.
     */
    taskId: string;
    /**
     * Loop iteration.
     */
    iteration: number;
    /**
     * Where in the loop.
     */
    stage: ThoughtStage;
    /**
     * Internal reasoning.
     */
    reasoning: string;
    /**
     * Execution state.
     */
    state: JsonObject;
    /**
     * ISO 8601.
     */
    timestamp: string;
}

/**
 * Internal: an LLM call started.
 */
export interface InternalLlmCall {
    /**
     * The conversation/session.
     */
    contextId: string;
    /**
     * The task.
     */
    taskId: string;
    /**
     * Loop iteration.
     */
    iteration: number;
    /**
     * The model.
     */
    model?: string;
    /**
     * Messages sent.
     */
    messageCount?: number;
    /**
     * Tools offered.
     */
    toolCount?: number;
    /**
     * ISO 8601.
     */
    timestamp: string;
}

/**
 * Internal: a state checkpoint was saved.
 */
export interface InternalCheckpoint {
    /**
     * The conversation/session.
     */
    contextId: string;
    /**
     * The task.
     */
    taskId: string;
    /**
     * Loop iteration.
     */
    iteration: number;
    /**
     * ISO 8601.
     */
    timestamp: string;
}

/**
 * Internal: a tool started (observability twin of `tool-start`, from the A2A alignment).
 */
export interface InternalToolStart {
    /**
     * The conversation/session (absent in the A2A alignment's shape).
     */
    contextId?: string;
    /**
     * The task.
     */
    taskId: string;
    /**
     * The tool's name.
     */
    toolName: string;
    /**
     * The tool invocation.
     */
    toolCallId: string;
    /**
     * ISO 8601.
     */
    timestamp: string;
}

/**
 * Internal: a tool finished (observability twin of `tool-complete`).
 */
export interface InternalToolComplete {
    /**
     * The conversation/session (absent in the A2A alignment's shape).
     */
    contextId?: string;
    /**
     * The task.
     */
    taskId: string;
    /**
     * The tool invocation.
     */
    toolCallId: string;
    /**
     * Whether it succeeded.
     */
    success: boolean;
    /**
     * ISO 8601.
     */
    timestamp: string;
}

/**
 * A conversation message begins (agentwire's message model: AG-UI, the AI SDK).
 */
export interface MessageStart {
    /**
     * The conversation/session.
     */
    contextId: string;
    /**
     * The task (run) the message belongs to.
     */
    taskId: string;
    /**
     * The message.
     */
    messageId: string;
    /**
     * Who it is from.
     */
    role: MessageRole;
    /**
     * The author's name.
     */
    name?: string;
    /**
     * ISO 8601.
     */
    timestamp: string;
    /**
     * The protocol's own members (`metadata.agUi`, ...).
     */
    metadata?: JsonObject;
}

/**
 * Text appended to a message (an assistant message's text is also the task's answer).
 */
export interface MessageDelta {
    /**
     * The conversation/session.
     */
    contextId: string;
    /**
     * The task.
     */
    taskId: string;
    /**
     * The message.
     */
    messageId: string;
    /**
     * Text to append.
     */
    delta: string;
    /**
     * The part it extends (created when new): the protocol's id of a text or reasoning
     * part (AI SDK `text-start` ids). Without it, the message's open text.
     */
    partId?: string;
    /**
     * `text` (the default: the message's `content`) or `reasoning` (a reasoning part).
     */
    partType?: string;
    /**
     * The part's other members from here on (AI SDK `providerMetadata`).
     */
    partMembers?: JsonObject;
    /**
     * ISO 8601.
     */
    timestamp: string;
}

/**
 * A message's text is complete (with `partId`: that part only).
 */
export interface MessageEnd {
    /**
     * The conversation/session.
     */
    contextId: string;
    /**
     * The task.
     */
    taskId: string;
    /**
     * The message.
     */
    messageId: string;
    /**
     * Only this text or reasoning part ends (the message goes on).
     */
    partId?: string;
    /**
     * That part's other members from here on (AI SDK `providerMetadata`, `citations`).
     */
    partMembers?: JsonObject;
    /**
     * ISO 8601.
     */
    timestamp: string;
    /**
     * The protocol's own members.
     */
    metadata?: JsonObject;
}

/**
 * A part of a message in the protocol's own shape (AI SDK tool, source, file, data and
 * step parts): replaces the part put with the same `key`, else is appended.
 */
export interface MessagePartPut {
    /**
     * The conversation/session.
     */
    contextId: string;
    /**
     * The task.
     */
    taskId: string;
    /**
     * The message.
     */
    messageId: string;
    /**
     * The part (an object with its `type`).
     */
    part: Record<string, unknown>;
    /**
     * Finds the part again (`tool:<toolCallId>`, `data:<type>:<id>`, `step:<n>`).
     */
    key?: string;
    /**
     * ISO 8601.
     */
    timestamp: string;
}

/**
 * The parts after the part put with `afterKey` are removed (AI SDK `reset-step`).
 */
export interface MessageCut {
    /**
     * The conversation/session.
     */
    contextId: string;
    /**
     * The task.
     */
    taskId: string;
    /**
     * The message.
     */
    messageId: string;
    /**
     * The key of the last part kept.
     */
    afterKey: string;
    /**
     * ISO 8601.
     */
    timestamp: string;
}

/**
 * A whole message, added or merged into the one with its `id` (a tool result, an
 * activity, a message the client sent, an encrypted value).
 */
export interface MessagePut {
    /**
     * The conversation/session.
     */
    contextId: string;
    /**
     * The task.
     */
    taskId: string;
    /**
     * `{id, role, content, toolCalls?, toolCallId?, name?, error?, activityType?, encryptedValue?, metadata?}`
     * (AG-UI's message shape; `content` a string, an array of parts, or an activity's object).
     */
    message: Record<string, unknown>;
    /**
     * Replace the content of an existing message with this id (default `true`); `false`
     * keeps an existing one untouched.
     */
    replace?: boolean;
    /**
     * ISO 8601.
     */
    timestamp: string;
    /**
     * The protocol's own members.
     */
    metadata?: JsonObject;
}

/**
 * The task's messages are replaced: messages whose id is listed are updated in place,
 * the others removed, new ones appended in the snapshot's order.
 */
export interface MessagesSnapshot {
    /**
     * The conversation/session.
     */
    contextId: string;
    /**
     * The task.
     */
    taskId: string;
    /**
     * The messages (each as in `message-upsert`).
     */
    messages: Record<string, unknown>[];
    /**
     * ISO 8601.
     */
    timestamp: string;
}

/**
 * An RFC 6902 JSON Patch applied to an activity message's `content` (atomic).
 */
export interface MessagePatch {
    /**
     * The conversation/session.
     */
    contextId: string;
    /**
     * The task.
     */
    taskId: string;
    /**
     * The message.
     */
    messageId: string;
    /**
     * The operations.
     */
    patch: Record<string, unknown>[];
    /**
     * ISO 8601.
     */
    timestamp: string;
}

/**
 * Text appended to a running tool call's arguments (partial JSON while it streams).
 */
export interface ToolArgsDelta {
    /**
     * The conversation/session.
     */
    contextId: string;
    /**
     * The task.
     */
    taskId: string;
    /**
     * The tool call.
     */
    toolCallId: string;
    /**
     * Text to append.
     */
    delta: string;
    /**
     * ISO 8601.
     */
    timestamp: string;
}

/**
 * A tool call's arguments are complete: `arguments` when given, else the streamed text
 * parsed as JSON.
 */
export interface ToolArgsEnd {
    /**
     * The conversation/session.
     */
    contextId: string;
    /**
     * The task.
     */
    taskId: string;
    /**
     * The tool call.
     */
    toolCallId: string;
    /**
     * The final arguments.
     */
    arguments?: unknown;
    /**
     * ISO 8601.
     */
    timestamp: string;
}

/**
 * An opaque encrypted value attached to a message or a tool call (kept, never read).
 */
export interface EncryptedValue {
    /**
     * The conversation/session.
     */
    contextId: string;
    /**
     * The task.
     */
    taskId: string;
    /**
     * `message` or `tool-call`.
     */
    subtype: string;
    /**
     * The message or tool call id.
     */
    entityId: string;
    /**
     * The value.
     */
    encryptedValue: string;
    /**
     * ISO 8601.
     */
    timestamp: string;
}

/**
 * The task's shared state document is replaced.
 */
export interface StateSnapshot {
    /**
     * The conversation/session.
     */
    contextId: string;
    /**
     * The task (run).
     */
    taskId: string;
    /**
     * The document (any JSON).
     */
    snapshot: unknown;
    /**
     * ISO 8601.
     */
    timestamp: string;
}

/**
 * An RFC 6902 JSON Patch applied to the task's shared state (atomic: a failing operation
 * leaves the document as it was).
 */
export interface StateDelta {
    /**
     * The conversation/session.
     */
    contextId: string;
    /**
     * The task (run).
     */
    taskId: string;
    /**
     * The operations.
     */
    patch: Record<string, unknown>[];
    /**
     * ISO 8601.
     */
    timestamp: string;
}

/**
 * An event of a kind this version does not know: delivered whole, never dropped.
 */
export interface UnknownEvent {
    /**
     * The event's own `kind` string.
     */
    unknownKind: string;
    /**
     * Its `contextId`, when it has a string one.
     */
    contextId?: string;
    /**
     * Its `taskId`, when it has a string one.
     */
    taskId?: string;
    /**
     * The whole event object as received.
     */
    data: Record<string, unknown>;
}

/**
 * A task (one agent turn or sub-agent invocation) and everything it produced.
 */
export interface Task {
    /**
     * `taskId`.
     */
    id: string;
    /**
     * The context (conversation).
     */
    contextId: string;
    /**
     * The parent task; absent for a root.
     */
    parentId?: string;
    /**
     * Child task ids, in creation order.
     */
    children: string[];
    /**
     * Latest status; absent until the first `task-status`.
     */
    status?: TaskStatus;
    /**
     * Latest status message.
     */
    statusMessage?: string;
    /**
     * Status changes, in order (the latest `maxHistoryPerTask`).
     */
    history: StatusChange[];
    /**
     * Who started it.
     */
    initiator?: Initiator;
    /**
     * The agent handling it.
     */
    agentId?: string;
    /**
     * The model.
     */
    model?: string;
    /**
     * What the parent asked (from `subtask-created`).
     */
    prompt?: string;
    /**
     * The assembled answer text.
     */
    content: string;
    /**
     * `true` once `content-complete`/`task-complete` confirmed the text.
     */
    contentComplete: boolean;
    /**
     * Tool calls, in start order.
     */
    tools: Tool[];
    /**
     * Input requests, in order.
     */
    inputs: InputRequest[];
    /**
     * Auth requests, in order.
     */
    auths: AuthRequest[];
    /**
     * Conversation messages, in order: the user's (`role: "user"`) and the agent's. AG-UI
     * and the AI SDK have the whole conversation; A2A, MyAgent and protocol 000 have the
     * user's message that started the task (`sendMessage`, the `message` option, the
     * POSTed prompt) and their answer is in `content`.
     */
    messages: Message[];
    /**
     * The agent's shared state document (AG-UI `STATE_SNAPSHOT` / `STATE_DELTA`);
     * absent until the first snapshot. One document per thread: it moves on to the
     * thread's next run that changes it (that run starts from it; this one then has none).
     */
    sharedState?: JsonDoc;
    /**
     * Thoughts, in arrival order (bounded; see limits).
     */
    thoughts: Thought[];
    /**
     * Artifact ids produced by this task.
     */
    artifacts: string[];
    /**
     * ISO 8601 of `task-created`.
     */
    createdAt?: string;
    /**
     * ISO 8601 of the latest event.
     */
    updatedAt?: string;
    /**
     * Execution time in ms (`task-complete`).
     */
    duration?: number;
    /**
     * LLM iterations (`task-complete`).
     */
    iterations?: number;
    /**
     * Tokens used (`task-complete`).
     */
    tokensUsed?: number;
    /**
     * Store version of this task's latest change (compare to re-render only what changed).
     */
    revision: number;
}

/**
 * One entry of a task's status history.
 */
export interface StatusChange {
    /**
     * The status entered.
     */
    status: TaskStatus;
    /**
     * Human-readable message.
     */
    message?: string;
    /**
     * Why (failed/canceled).
     */
    reason?: string;
    /**
     * What it waits for (waiting-*): a task id or `user`.
     */
    blockedBy?: string;
    /**
     * ISO 8601.
     */
    timestamp: string;
}

/**
 * A tool call and everything known about it.
 */
export interface Tool {
    /**
     * `toolCallId`.
     */
    id: string;
    /**
     * The tool's name.
     */
    name: string;
    /**
     * The call's arguments.
     */
    arguments: RawJson;
    /**
     * `local`, `client`, `mcp` or an agent id.
     */
    provider?: string;
    /**
     * Runs in parallel with other tools.
     */
    concurrent?: boolean;
    /**
     * The arguments' JSON text as it streams (tool calls whose arguments arrive in
     * pieces: AG-UI, the AI SDK); `arguments` is set from it once they end.
     */
    argumentsText?: string;
    /**
     * The message whose `toolCalls` hold this call.
     */
    messageId?: string;
    /**
     * running / succeeded / failed.
     */
    state: ToolState;
    /**
     * 0..1 (1 once finished successfully).
     */
    progress: number;
    /**
     * Latest progress message.
     */
    message?: string;
    /**
     * Current step name.
     */
    step?: string;
    /**
     * Steps done.
     */
    stepsCompleted?: number;
    /**
     * Steps in all.
     */
    stepsTotal?: number;
    /**
     * The result (on success).
     */
    result?: RawJson;
    /**
     * The error message (on failure).
     */
    error?: string;
    /**
     * Execution time in ms.
     */
    duration?: number;
    /**
     * The result came from a cache.
     */
    cached?: boolean;
    /**
     * Retry attempts.
     */
    retries?: number;
    /**
     * ISO 8601 of `tool-start`.
     */
    startedAt?: string;
    /**
     * ISO 8601 of `tool-complete`.
     */
    endedAt?: string;
}

/**
 * Where a tool call is.
 */
export type ToolState = "running" | "succeeded" | "failed" | "canceled";

/**
 * An `input-required` request and its state.
 */
export interface InputRequest {
    /**
     * `inputId`.
     */
    id: string;
    /**
     * The task that asked.
     */
    taskId: string;
    /**
     * The context.
     */
    contextId: string;
    /**
     * What kind of input.
     */
    inputType: InputType;
    /**
     * What is being asked.
     */
    prompt: string;
    /**
     * `true` when it must reach the user.
     */
    requireUser: boolean;
    /**
     * Who answers first.
     */
    routing: Routing;
    /**
     * JSON Schema of the expected value.
     */
    schema?: RawJson;
    /**
     * Choices (selection / approval).
     */
    options?: RawJson;
    /**
     * The tool call this input executes (`metadata.toolCall`).
     */
    toolCall?: RawJson;
    /**
     * `low` / `medium` / `high`.
     */
    urgency?: string;
    /**
     * Seconds to answer (`metadata.timeout`).
     */
    timeout?: number;
    /**
     * ISO 8601 of the request.
     */
    requestedAt: string;
    /**
     * open / answered / expired.
     */
    state: RequestState;
    /**
     * `true` while an answer from this client is in flight: set when `respond` /
     * `approve` / `deny` / `select` / `answer` is called, cleared when the request is
     * answered (the server took it) or expires, or when the call failed (the request is
     * open again and may be answered anew).
     */
    sending: boolean;
    /**
     * Who answered.
     */
    providedBy?: ProvidedBy;
    /**
     * The user who answered.
     */
    userId?: string;
    /**
     * The agent (coordinator) who answered.
     */
    agentId?: string;
}

/**
 * Where an input or auth request is.
 */
export type RequestState = "open" | "answered" | "expired";

/**
 * Who should answer an input request first.
 */
export type Routing = "user" | "coordinator";

/**
 * An `auth-required` request and its state (always for the user).
 */
export interface AuthRequest {
    /**
     * `authId`.
     */
    id: string;
    /**
     * The task that asked.
     */
    taskId: string;
    /**
     * The context.
     */
    contextId: string;
    /**
     * The mechanism.
     */
    authType: AuthType;
    /**
     * e.g. `github`.
     */
    provider?: string;
    /**
     * Requested scopes.
     */
    scopes: string[];
    /**
     * User-facing message.
     */
    prompt: string;
    /**
     * The URL as sent (open it only when `urlSafe`).
     */
    authUrl?: string;
    /**
     * `true` when `authUrl` is `https:` (or `http:` on localhost) and may be opened.
     */
    urlSafe: boolean;
    /**
     * Seconds until the request expires (`metadata.expiresIn`).
     */
    expiresIn?: number;
    /**
     * ISO 8601 of the request.
     */
    requestedAt: string;
    /**
     * open / answered / expired.
     */
    state: RequestState;
    /**
     * `true` while `completeAuth` from this client is in flight (cleared when the request
     * is completed or expires, or when the call failed).
     */
    sending: boolean;
    /**
     * The user who authenticated.
     */
    userId?: string;
    /**
     * When the granted auth expires (ISO 8601).
     */
    expiresAt?: string;
}

/**
 * One visible thought of the agent.
 */
export interface Thought {
    /**
     * `thoughtId`.
     */
    id: string;
    /**
     * Category.
     */
    thoughtType: ThoughtType;
    /**
     * Granularity.
     */
    verbosity: Verbosity;
    /**
     * The thought.
     */
    content: string;
    /**
     * Sequence number.
     */
    index: number;
    /**
     * 0..1.
     */
    confidence?: number;
    /**
     * Alternatives considered.
     */
    alternatives: string[];
    /**
     * A related thought or tool call id.
     */
    relatedTo?: string;
    /**
     * ISO 8601.
     */
    timestamp: string;
}

/**
 * An artifact's description (contents are read with the artifact getters).
 */
export interface Artifact {
    /**
     * `artifactId`.
     */
    id: string;
    /**
     * `file`, `data` or `dataset`.
     */
    type: ArtifactKind;
    /**
     * The task that wrote it.
     */
    taskId: string;
    /**
     * Name.
     */
    name?: string;
    /**
     * Description.
     */
    description?: string;
    /**
     * The tool call that produced it.
     */
    toolCallId?: string;
    /**
     * file: MIME type.
     */
    mimeType?: string;
    /**
     * file: encoding of the chunks.
     */
    encoding?: Encoding;
    /**
     * file: bytes assembled so far.
     */
    size?: number;
    /**
     * file: lower-case hex SHA-256 of the bytes, once complete.
     */
    sha256?: string;
    /**
     * file: expected size (`metadata.totalSize`).
     */
    totalSize?: number;
    /**
     * file: where the content lives when the file is given by reference (`metadata.url`
     * of chunk 0: an A2A file part by URL), instead of or beside its bytes. `http:` and
     * `https:` URLs only (any other scheme is left out of the state).
     */
    url?: string;
    /**
     * file/dataset: the final chunk arrived and nothing is missing.
     */
    complete?: boolean;
    /**
     * data: latest applied version.
     */
    version?: number;
    /**
     * data: the record.
     */
    data?: RawJson;
    /**
     * data: versions seen, oldest first (the latest 64).
     */
    versions?: DataVersion[];
    /**
     * dataset: JSON Schema of a row.
     */
    schema?: RawJson;
    /**
     * dataset: rows assembled so far.
     */
    rowCount?: number;
    /**
     * dataset: expected rows (`metadata.totalRows`).
     */
    totalRows?: number;
    /**
     * dataset: rows per batch (`metadata.batchSize`).
     */
    batchSize?: number;
    /**
     * Store version of this artifact's latest change.
     */
    revision: number;
}

/**
 * The three artifact types.
 */
export type ArtifactKind = "file" | "data" | "dataset";

/**
 * A data artifact version seen.
 */
export interface DataVersion {
    /**
     * `metadata.version`.
     */
    version?: number;
    /**
     * ISO 8601.
     */
    timestamp: string;
    /**
     * Whether it was applied (an older version arriving late is not).
     */
    applied: boolean;
}

/**
 * JSON text kept as received (arguments, results, schemas, records): parsed only when read.
 */
export type RawJson = unknown;

/**
 * A conversation message (AG-UI's shape: `id`, `role`, `content`, `toolCalls`,
 * `toolCallId`, ...), plus its ordered `parts`.
 */
export interface Message {
    /**
     * The message id.
     */
    id: string;
    /**
     * Who it is from.
     */
    role: MessageRole;
    /**
     * Its text (for `tool` messages the result text; empty for activities).
     */
    content: string;
    /**
     * Text, tool calls and other parts in order.
     */
    parts: Array<MessagePart | OtherPart>;
    /**
     * Tool calls (assistant messages).
     */
    toolCalls: ToolCall[];
    /**
     * The tool call this message answers (`tool` messages).
     */
    toolCallId?: string;
    /**
     * The author's name.
     */
    name?: string;
    /**
     * The tool's error (`tool` messages).
     */
    error?: string;
    /**
     * What kind of activity (`activity` messages).
     */
    activityType?: string;
    /**
     * The activity's structured content (`activity` messages; AG-UI's `content` object).
     */
    activity?: Record<string, unknown>;
    /**
     * An opaque encrypted value (kept, never read).
     */
    encryptedValue?: string;
    /**
     * The protocol's metadata for this message.
     */
    metadata?: Record<string, unknown>;
    /**
     * `true` while its text is still streaming.
     */
    streaming: boolean;
}

/**
 * One part of a message, in order (the declaration of the parts agentwire builds itself).
 */
export type MessagePart = { type: "text"; text: string; state: "streaming" | "done" } | { type: "reasoning"; id?: string; text: string; state: "streaming" | "done" } | { type: "tool-call"; toolCallId: string; toolName: string; arguments: string };

/**
 * A part the protocol defines, kept as it sent it (AI SDK `tool-<name>`, `source-url`,
 * `file`, `data-*`, `step-start`; AG-UI `image`, `audio`, `video`, `document`).
 */
export type OtherPart = { type: string } & Record<string, unknown>;

/**
 * A tool call inside an assistant message (AG-UI's `toolCalls[]`); the same call is in
 * the task's `tools` with its state and result.
 */
export interface ToolCall {
    /**
     * `toolCallId`.
     */
    id: string;
    /**
     * Always `function`.
     */
    type: string;
    /**
     * Name and arguments.
     */
    function: ToolCallFunction;
    /**
     * An opaque encrypted value the agent attached (kept, never read).
     */
    encryptedValue?: string;
}

/**
 * The function a tool call invokes (AG-UI's `toolCalls[].function`).
 */
export interface ToolCallFunction {
    /**
     * The tool's name.
     */
    name: string;
    /**
     * The arguments as JSON text, as streamed (partial until the call's arguments end).
     */
    arguments: string;
}

/**
 * A JSON document kept parsed (the shared state, an activity's content), so a JSON Patch
 * applies in place.
 */
export type JsonDoc = unknown;

/**
 * A wire protocol agentwire understands (the `dialect` option of `AgentClient`, and what
 * `client.dialect` reports once known).
 */
export type Dialect = "canonical" | "a2a" | "acp" | "unified" | "myagent" | "ag-ui" | "ai-sdk";

// ==== types/web.d.ts ====
export * from "./index.js";
/** Where `init` reads the wasm from (default: the `agentwire_bg.wasm` beside the glue). */
export type InitInput = RequestInfo | URL | Response | BufferSource | WebAssembly.Module;
/** What `init` resolves with: the instance's memory (to measure it). */
export interface InitOutput {
    readonly memory: WebAssembly.Memory;
}
/** Loads and instantiates the wasm (once; later calls resolve at once). */
export default function init(options?: {
    module_or_path?: InitInput | Promise<InitInput>;
}): Promise<InitOutput>;
/** Instantiates the wasm from its bytes or a compiled module (Node, tests). */
export declare function initSync(options: {
    module: BufferSource | WebAssembly.Module;
}): InitOutput;

// ==== types/worker.d.ts ====
import type { AgentEvent } from "./types.js";
import type { EventFilterSpec } from "./source.js";
import type { WorkerClientOptions } from "./options.js";
import { ConnectionBase } from "./connection.js";
/**
 * `AgentClient` with the work in a Web Worker: the connection, parsing, validation and
 * assembly run there, and the page receives what changed, batched per animation frame. Same
 * API as `AgentClient` (except `store`, `responder` and `coordinator`). The constructor does no
 * I/O: the Worker starts (and loads the wasm) with `start()`, `run()` or the first call that
 * needs it (an answer, `feed`); listeners registered before wait for it.
 *
 * ```ts
 * const client = new WorkerClient({ url: "/api/stream?scenario=main" });
 * client.subscribe((s) => render(s));
 * await client.run();
 * ```
 */
export declare class WorkerClient extends ConnectionBase {
    constructor(options: WorkerClientOptions);
    /** Calls `handler` with the applied events `filter` selects (evaluated in the Worker). */
    subscribeEvents(filter: EventFilterSpec, handler: (event: AgentEvent) => void): () => void;
    /** `transport: "manual"`: feeds bytes to the Worker's store (transferred). */
    feed(chunk: Uint8Array): void;
    /** `transport: "manual"`: end of stream; resolves once the Worker applied everything. */
    finish(): Promise<void>;
    /** Resolves once everything the Worker applied so far reached this page. */
    flush(): Promise<void>;
}
