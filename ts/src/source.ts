// The interfaces the classes implement: the read side every source shares (AgentSource: the
// store, the client, the Worker client), the live connection (AgentConnection), and the types
// they read and take. Adapters and app code accept these, not a class.
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
export type EventOf<K extends KindPattern> =
  K extends "*" ? AgentEvent :
  K extends `${infer P}*` ? Extract<AgentEvent, { kind: `${P}${string}` | "unknown" }> | (K extends "artifact-*" ? Extract<AgentEvent, { kind: "file-write" | "data-write" | "dataset-write" }> : never) :
  Extract<AgentEvent, { kind: K }>;

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
