// What AgentClient and WorkerClient share: a wasm connection (main thread or Worker) with the
// lifecycle of this layer (no I/O in the constructor, start(), run()), per-call abort, checked
// arguments and AgentwireErrors.
import type { AgentEvent, AuthRequest, Dialect, InputRequest } from "./types.js";
import type {
  AgentConnection, AuthDetails, CallOptions, ConnectionInfo, EventFilterSpec, EventOf, KindPattern,
  RunOptions, SendMessageOptions, Snapshot,
} from "./source.js";
import type { EventStreamOptions } from "./options.js";
import type { RawClient, RawWorker } from "./raw.js";
import { AgentwireError, guard, guardAsync, toError } from "./errors.js";
import { bindAll, Slots } from "./bind.js";
import { fn, notAborted, obj, optStr, str } from "./args.js";
import { EventStream } from "./events.js";

/** @internal */
export interface Internals {
  raw: RawClient | RawWorker;
  /** close() was called (or the constructor's signal aborted). */
  closedByApp: boolean;
  /** sendMessage calls in flight (a run() then waits for that turn's end). */
  sending: number;
  /** Called when a sendMessage settles. */
  onSent: Set<() => void>;
}

const slots = new Slots<Internals>("AgentConnection");

/** @internal The internals of `self` (brand-checked). */
export function internals(self: unknown, method: string): Internals {
  return slots.get(self, method);
}

/** Runs `call` unless `options.signal` is aborted (then rejects with `aborted`, nothing sent). */
function send(self: unknown, method: string, options: CallOptions | undefined, call: (raw: RawClient | RawWorker) => Promise<void>): Promise<void> {
  try {
    const st = slots.get(self, method);
    notAborted(options, method);
    return guardAsync(guard(() => call(st.raw)));
  } catch (e) {
    return Promise.reject(toError(e));
  }
}

/** The shared implementation of `AgentClient` and `WorkerClient` (not exported by the package). */
export abstract class ConnectionBase implements AgentConnection {
  /** @internal */
  protected constructor(raw: RawClient | RawWorker, signal: AbortSignal | undefined) {
    const st: Internals = { raw, closedByApp: false, sending: 0, onSent: new Set() };
    slots.set(this, st);
    if (signal) {
      if (signal.aborted) st.closedByApp = true;
      else signal.addEventListener("abort", () => { st.closedByApp = true; }, { once: true });
    }
    bindAll(this, Object.getPrototypeOf(this) as object);
  }

  /** Starts connecting; later calls do nothing. Throws `closed` after `close()`. */
  start(): void {
    const st = slots.get(this, "start");
    guard(() => st.raw.connect());
  }

  /**
   * Starts if needed, then resolves with the final snapshot when the stream ends normally (the
   * connection reaches `closed` without the app closing it; see `AgentConnection.run` for what
   * that is per dialect). Rejects with an `AgentwireError`: the connection's `code` when it
   * `failed`, `closed` when the app closed it first, `aborted` when `signal` was aborted (which
   * closes the connection).
   */
  run(options?: RunOptions): Promise<Snapshot> {
    let st: Internals;
    let signal: AbortSignal | undefined;
    try {
      st = slots.get(this, "run");
      signal = notAborted(options, "run");
      guard(() => st.raw.connect());
    } catch (e) {
      return Promise.reject(toError(e));
    }
    const raw = st.raw;
    return new Promise<Snapshot>((resolve, reject) => {
      let waitTurn = st.sending > 0;
      let unsubscribe: (() => void) | undefined;
      const onAbort = (): void => {
        done();
        reject(new AgentwireError("aborted", "run() was aborted", { cause: signal?.reason }));
        this.close();
      };
      const onSent = (): void => check(raw.connection as ConnectionInfo);
      const done = (): void => {
        unsubscribe?.();
        unsubscribe = undefined;
        st.onSent.delete(onSent);
        signal?.removeEventListener("abort", onAbort);
      };
      const check = (info: ConnectionInfo): void => {
        if (info.state === "failed") {
          done();
          reject(new AgentwireError(info.code ?? "internal", info.reason));
        } else if (info.state === "closed") {
          if (st.closedByApp) {
            done();
            reject(new AgentwireError("closed", `the connection was closed by the app before the run ended (${info.reason})`));
          } else if (!waitTurn || st.sending === 0) {
            done();
            resolve(raw.getSnapshot() as Snapshot);
          }
        } else {
          waitTurn = false;
        }
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      st.onSent.add(onSent);
      try {
        unsubscribe = raw.onConnectionChange(check);
      } catch (e) {
        done();
        reject(toError(e));
        return;
      }
      check(raw.connection as ConnectionInfo);
    });
  }

  /** The connection state: a frozen object, the same until the state changes. */
  get connection(): ConnectionInfo {
    const st = slots.get(this, "connection");
    return guard(() => st.raw.connection as ConnectionInfo);
  }
  /** The protocol the stream speaks: the `dialect` option, or what `"auto"` detected (`undefined` until known). */
  get dialect(): Dialect | undefined {
    const st = slots.get(this, "dialect");
    return guard(() => st.raw.dialect as Dialect | undefined);
  }
  /** Listeners and handlers registered (leak checks; 0 after close). */
  get listenerCount(): number {
    const st = slots.get(this, "listenerCount");
    return guard(() => st.raw.listenerCount);
  }

  /** Calls `listener(info)` on every connection state change. Returns the unsubscribe function. */
  onConnectionChange(listener: (info: ConnectionInfo) => void): () => void {
    const st = slots.get(this, "onConnectionChange");
    fn(listener, "listener");
    return guard(() => st.raw.onConnectionChange(listener));
  }
  /** The current snapshot: the same object until something visible changed. */
  getSnapshot(): Snapshot {
    const st = slots.get(this, "getSnapshot");
    return guard(() => st.raw.getSnapshot() as Snapshot);
  }
  /** Calls `listener(snapshot)` now and after every change of visible state. Returns the unsubscribe function. */
  subscribe(listener: (snapshot: Snapshot) => void): () => void {
    const st = slots.get(this, "subscribe");
    fn(listener, "listener");
    return guard(() => st.raw.subscribe(listener));
  }
  /** Calls `handler` with every applied event of `kind` (narrowed type). Returns the unsubscribe function. */
  on<K extends KindPattern>(kind: K, handler: (event: EventOf<K>) => void): () => void {
    const st = slots.get(this, "on");
    str(kind, "kind");
    fn(handler, "handler");
    return guard(() => st.raw.on(kind, handler));
  }
  /** Calls `handler` with every applied event (internal ones excluded). Returns the unsubscribe function. */
  onAny(handler: (event: AgentEvent) => void): () => void {
    const st = slots.get(this, "onAny");
    fn(handler, "handler");
    return guard(() => st.raw.onAny(handler));
  }
  /** Calls `handler` with the applied events `filter` selects (evaluated in wasm). */
  abstract subscribeEvents(filter: EventFilterSpec, handler: (event: AgentEvent) => void): () => void;
  /** Input requests still open that wait for the user (those a coordinator is handling are left out). */
  pendingInputs(): InputRequest[] {
    const st = slots.get(this, "pendingInputs");
    return guard(() => st.raw.pendingInputs() as InputRequest[]);
  }
  /** Auth requests still open (auth always goes to the user). */
  pendingAuths(): AuthRequest[] {
    const st = slots.get(this, "pendingAuths");
    return guard(() => st.raw.pendingAuths() as AuthRequest[]);
  }

  /**
   * Answers input `inputId` with `value`, after checking it against the request's `schema` and
   * `options` (rejects with `invalid-answer` and the failing `path`). Answering twice rejects
   * with `already-answered`. AI SDK: also the output of a client-side tool (`toolCallId`).
   */
  respond(inputId: string, value: unknown, options?: CallOptions): Promise<void> {
    return send(this, "respond", options, (raw) => raw.respond(str(inputId, "inputId"), value));
  }
  /** Approves (the request's own approve option, `true`, or `"approve"`). */
  approve(inputId: string, options?: CallOptions): Promise<void> {
    return send(this, "approve", options, (raw) => raw.approve(str(inputId, "inputId")));
  }
  /** Denies (the request's own deny option, `false`, or `"deny"`); `reason` goes along where the dialect has a place for it. */
  deny(inputId: string, reason?: string, options?: CallOptions): Promise<void> {
    return send(this, "deny", options, (raw) => raw.deny(str(inputId, "inputId"), optStr(reason, "reason")));
  }
  /** Picks one of the request's `options` (the option itself, or an object option's `id`/`value`). */
  select(inputId: string, option: unknown, options?: CallOptions): Promise<void> {
    return send(this, "select", options, (raw) => raw.select(str(inputId, "inputId"), option));
  }
  /** Answers with free text. */
  answer(inputId: string, text: string, options?: CallOptions): Promise<void> {
    return send(this, "answer", options, (raw) => raw.answer(str(inputId, "inputId"), str(text, "text")));
  }
  /** Tells the agent that auth `authId` was completed (`details`: `code`, `userId`). */
  completeAuth(authId: string, details: AuthDetails, options?: CallOptions): Promise<void> {
    return send(this, "completeAuth", options, (raw) => {
      const d = obj(details, "details");
      optStr(d.code, "details.code");
      optStr(d.userId, "details.userId");
      return raw.completeAuth(str(authId, "authId"), d);
    });
  }
  /** Asks the agent to cancel task `taskId` (the task ends when the server says `canceled`). */
  cancel(taskId: string, options?: CallOptions): Promise<void> {
    return send(this, "cancel", options, (raw) => raw.cancel(str(taskId, "taskId")));
  }
  /**
   * Sends the user's next message in the stream's dialect (A2A `message/stream`, MyAgent
   * `user.message`, AG-UI the thread's next run, AI SDK the chat's next POST). Rejects with
   * `invalid-state` for the dialects without one.
   */
  sendMessage(text: string, options?: SendMessageOptions): Promise<void> {
    let st: Internals;
    try {
      st = slots.get(this, "sendMessage");
    } catch (e) {
      return Promise.reject(toError(e));
    }
    const sent = send(this, "sendMessage", options, (raw) => {
      str(text, "text");
      const contextId = optStr(options?.contextId, "options.contextId");
      st.sending++;
      const settle = (): void => {
        st.sending--;
        for (const f of [...st.onSent]) f();
      };
      const p = raw.sendMessage(text, contextId === undefined ? undefined : { contextId });
      p.then(settle, settle);
      return p;
    });
    return sent;
  }
  /** Sends a frame over the WebSocket transport (objects as JSON; MyAgent: a string is the user's message). */
  send(message: unknown): void {
    const st = slots.get(this, "send");
    guard(() => st.raw.send(message));
  }
  /** The auth request's URL, only when safe to open (`https:`, or `http:` on localhost); throws `unsafe-url` otherwise. */
  authUrl(authId: string): string {
    const st = slots.get(this, "authUrl");
    str(authId, "authId");
    return guard(() => st.raw.authUrl(authId));
  }
  /** Opens the auth URL in a new tab (`noopener`) when it is safe; throws `unsafe-url` otherwise. */
  openAuth(authId: string): void {
    const st = slots.get(this, "openAuth");
    str(authId, "authId");
    guard(() => st.raw.openAuth(authId));
  }
  /** The applied events as an async iterator: `for await (const e of client.events()) …`. */
  events(options?: EventStreamOptions): EventStream {
    const st = slots.get(this, "events");
    const o = obj(options, "options");
    return new EventStream(guard(() => st.raw.events(o)));
  }
  /** Closes the connection, stops every delivery and removes every listener (idempotent). */
  close(): void {
    const st = slots.get(this, "close");
    st.closedByApp = true;
    guard(() => st.raw.close());
  }
  [Symbol.dispose](): void {
    this.close();
  }
}
