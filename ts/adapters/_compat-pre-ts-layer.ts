// TEMPORARY (deleted when the TypeScript layer of issue 22 lands; the adapters then import the
// same names from "agentwire"): a structural stand-in for the members of /work/api-contract.md
// the adapters use, written over the current wasm-bindgen `AgentClient`. What it papers over:
// - bound methods: the raw classes need their `this` (here every method is an arrow property);
// - `start()`: the raw client connects in its constructor unless `autoConnect: false`; here the
//   constructor never connects and `start()` calls the raw `connect()` once;
// - `run()`: the raw client has no promise for the run; here it resolves with the snapshot when
//   the connection becomes `closed` and rejects with an `AgentwireError` when it becomes `failed`;
// - `connection`: the raw getter returns a new object on every read; here the same object is
//   returned until `onConnectionChange` reports a change;
// - `AgentwireError`: the raw errors are plain `Error`s with a `code`; here they are wrapped;
// - `{ signal }` on the actions: accepted and ignored (the raw client takes none);
// - `subscribeEvents` is the raw store's (the raw client has none of its own).
import {
  AgentClient as RawAgentClient,
  type AgentClientOptions as RawAgentClientOptions,
  type AgentEvent,
  type AuthRequest,
  type ConnectionInfo,
  type Dialect,
  type EventFilterSpec,
  type EventOf,
  type EventStreamOptions,
  type InputRequest,
  type KindPattern,
  type Snapshot,
} from "agentwire";

export type {
  AgentEvent,
  AuthRequest,
  ConnectionInfo,
  ConnectionState,
  Dialect,
  EventFilterSpec,
  EventOf,
  InputRequest,
  KindPattern,
  Message,
  Snapshot,
  Task,
  TaskStatus,
} from "agentwire";

/** The contract's error class (stand-in). */
export class AgentwireError extends Error {
  readonly code: string;
  readonly status?: number;
  readonly path?: string;
  constructor(code: string, message: string, status?: number) {
    super(message);
    this.name = "AgentwireError";
    this.code = code;
    if (status !== undefined) this.status = status;
  }
}

/** The contract's read side (stand-in, same members). */
export interface AgentSource {
  subscribe(listener: () => void): () => void;
  getSnapshot(): Snapshot;
  on<K extends KindPattern>(kind: K, handler: (e: EventOf<K>) => void): () => void;
  onAny(handler: (e: AgentEvent) => void): () => void;
  subscribeEvents(filter: EventFilterSpec, handler: (e: AgentEvent) => void): () => void;
  pendingInputs(): InputRequest[];
  pendingAuths(): AuthRequest[];
}

type Signal = { signal?: AbortSignal };

/** The contract's live connection (stand-in, same members). */
export interface AgentConnection extends AgentSource {
  readonly connection: ConnectionInfo;
  onConnectionChange(listener: (info: ConnectionInfo) => void): () => void;
  readonly dialect: Dialect | undefined;
  start(): void;
  run(options?: Signal): Promise<Snapshot>;
  sendMessage(text: string, options?: { contextId?: string; signal?: AbortSignal }): Promise<void>;
  respond(inputId: string, value: unknown, options?: Signal): Promise<void>;
  approve(inputId: string, options?: Signal): Promise<void>;
  deny(inputId: string, reason?: string, options?: Signal): Promise<void>;
  select(inputId: string, option: unknown, options?: Signal): Promise<void>;
  answer(inputId: string, text: string, options?: Signal): Promise<void>;
  completeAuth(authId: string, details: { code?: string; userId?: string }, options?: Signal): Promise<void>;
  cancel(taskId: string, options?: Signal): Promise<void>;
  authUrl(authId: string): string;
  openAuth(authId: string): void;
  events(options?: EventStreamOptions): AsyncIterableIterator<AgentEvent>;
  close(): void;
  [Symbol.dispose](): void;
}

/** The contract's client options (stand-in: the raw ones; the client never connects by itself). */
export type AgentClientOptions = Omit<RawAgentClientOptions, "autoConnect">;

const wrap = (e: unknown): AgentwireError => {
  if (e instanceof AgentwireError) return e;
  const err = e as { code?: unknown; message?: unknown; status?: unknown } | undefined;
  return new AgentwireError(
    typeof err?.code === "string" ? err.code : "internal",
    typeof err?.message === "string" ? err.message : String(e),
    typeof err?.status === "number" ? err.status : undefined,
  );
};
const guard = <A extends unknown[]>(f: (...a: A) => Promise<void>) =>
  (...a: A): Promise<void> => f(...a).catch((e: unknown) => { throw wrap(e); });

/** The contract's `AgentClient` (stand-in). */
export class AgentClient implements AgentConnection {
  readonly #raw: RawAgentClient;
  #connection: ConnectionInfo;
  #started = false;
  #run: Promise<Snapshot> | undefined;

  constructor(options: AgentClientOptions) {
    this.#raw = new RawAgentClient({ ...options, autoConnect: false });
    this.#connection = this.#raw.connection;
    this.#raw.onConnectionChange((info) => { this.#connection = info; });
  }

  get connection(): ConnectionInfo { return this.#connection; }
  get dialect(): Dialect | undefined { return this.#raw.dialect; }

  subscribe = (listener: () => void): (() => void) => this.#raw.subscribe(() => listener());
  getSnapshot = (): Snapshot => this.#raw.getSnapshot();
  on = <K extends KindPattern>(kind: K, handler: (e: EventOf<K>) => void): (() => void) => this.#raw.on(kind, handler);
  onAny = (handler: (e: AgentEvent) => void): (() => void) => this.#raw.onAny(handler);
  subscribeEvents = (filter: EventFilterSpec, handler: (e: AgentEvent) => void): (() => void) =>
    this.#raw.store.subscribeEvents(filter, handler);
  pendingInputs = (): InputRequest[] => this.#raw.pendingInputs();
  pendingAuths = (): AuthRequest[] => this.#raw.pendingAuths();
  onConnectionChange = (listener: (info: ConnectionInfo) => void): (() => void) =>
    this.#raw.onConnectionChange(() => listener(this.#connection));

  start = (): void => {
    if (this.#started) return;
    this.#started = true;
    this.#raw.connect();
  };
  run = (_options?: Signal): Promise<Snapshot> => {
    this.#run ??= new Promise<Snapshot>((resolve, reject) => {
      const settle = (info: ConnectionInfo): boolean => {
        if (info.state === "closed") resolve(this.#raw.getSnapshot());
        else if (info.state === "failed") reject(new AgentwireError(info.code ?? "internal", info.reason));
        else return false;
        return true;
      };
      const off = this.#raw.onConnectionChange((info) => { if (settle(info)) off(); });
    });
    this.start();
    return this.#run;
  };

  sendMessage = guard((text: string, options?: { contextId?: string; signal?: AbortSignal }) =>
    this.#raw.sendMessage(text, options?.contextId === undefined ? undefined : { contextId: options.contextId }));
  respond = guard((inputId: string, value: unknown, _o?: Signal) => this.#raw.respond(inputId, value));
  approve = guard((inputId: string, _o?: Signal) => this.#raw.approve(inputId));
  deny = guard((inputId: string, reason?: string, _o?: Signal) => this.#raw.deny(inputId, reason));
  select = guard((inputId: string, option: unknown, _o?: Signal) => this.#raw.select(inputId, option));
  answer = guard((inputId: string, text: string, _o?: Signal) => this.#raw.answer(inputId, text));
  completeAuth = guard((authId: string, details: { code?: string; userId?: string }, _o?: Signal) =>
    this.#raw.completeAuth(authId, details));
  cancel = guard((taskId: string, _o?: Signal) => this.#raw.cancel(taskId));
  authUrl = (authId: string): string => this.#raw.authUrl(authId);
  openAuth = (authId: string): void => this.#raw.openAuth(authId);
  events = (options?: EventStreamOptions): AsyncIterableIterator<AgentEvent> => this.#raw.events(options);
  close = (): void => this.#raw.close();
  [Symbol.dispose] = (): void => this.#raw.close();
}
