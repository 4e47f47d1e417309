// agentwire/svelte: Svelte 5 readable stores over any agentwire source (AgentClient,
// WorkerClient, AgentStore); `$snapshot`, `$connection`, `$task` in components. A store listens
// to its source only while it has subscribers.
import { onDestroy } from "svelte";
import { readable, type Readable } from "svelte/store";
import {
  AgentClient,
  type AgentClientOptions,
  type AgentConnection,
  type AgentSource,
  type AgentwireError,
  type ConnectionInfo,
  type Message,
  type Snapshot,
  type Task,
} from "agentwire";
import { agentMessages, agentStatus, recording, runningRoot, sameItems, type AgentStatus } from "./shared";

export type { AgentStatus } from "./shared";

/**
 * A store of `selector(snapshot)` that notifies only when the selected value changes
 * (`isEqual`, default `Object.is`; Svelte's own stores notify on every object they are given).
 */
export function selectStore<T>(
  source: AgentSource,
  selector: (snapshot: Snapshot) => T,
  isEqual: (a: T, b: T) => boolean = Object.is,
): Readable<T> {
  return readable(selector(source.getSnapshot()), (set) => {
    let value = selector(source.getSnapshot());
    set(value);
    return source.subscribe(() => {
      const next = selector(source.getSnapshot());
      if (!isEqual(value, next)) set((value = next));
    });
  });
}

/** The stores of {@link agentStores}. */
export interface AgentStores {
  /** The whole state (same object until something changed). */
  snapshot: Readable<Snapshot>;
  /** The connection's state (`undefined` for a source without a connection, an AgentStore). */
  connection: Readable<ConnectionInfo | undefined>;
  /** Task `id` (`undefined` until it exists); notifies only when that task changed. */
  task(id: string): Readable<Task | undefined>;
  /** `selector(snapshot)`, notifying only when it changes (see {@link selectStore}). */
  select<T>(selector: (snapshot: Snapshot) => T, isEqual?: (a: T, b: T) => boolean): Readable<T>;
}

const isConnection = (s: AgentSource): s is AgentConnection =>
  typeof (s as Partial<AgentConnection>).onConnectionChange === "function";

/**
 * Readable stores over `source`: an AgentClient, WorkerClient or AgentStore you created, or
 * client options (then a client is created as by {@link createAgent}).
 */
export function agentStores(sourceOrOptions: AgentSource | AgentClientOptions): AgentStores {
  if (!("getSnapshot" in sourceOrOptions)) return createAgent(sourceOrOptions);
  const source = sourceOrOptions;
  const connection: Readable<ConnectionInfo | undefined> = isConnection(source)
    ? readable<ConnectionInfo | undefined>(source.connection, (set) => {
        set(source.connection);
        return source.onConnectionChange(() => set(source.connection));
      })
    : readable(undefined);
  return {
    snapshot: readable(source.getSnapshot(), (set) => {
      set(source.getSnapshot());
      return source.subscribe(() => set(source.getSnapshot()));
    }),
    connection,
    task: (id) => selectStore(source, (s) => s.tasks.find((t) => t.id === id)),
    select: (selector, isEqual) => selectStore(source, selector, isEqual),
  };
}

/** What {@link createAgent} returns. */
export interface Agent extends AgentStores {
  /** The client (closed with the component that created it, or by `close()`). */
  client: AgentConnection;
  /** The conversation: the messages of every root task (the user's and the agent's). */
  messages: Readable<Message[]>;
  /** The run in one word (see {@link AgentStatus}). */
  status: Readable<AgentStatus>;
  /** The connection's failure, or the last action that failed; cleared by the next action. */
  error: Readable<AgentwireError | undefined>;
  /** Sends a message (a new turn). */
  sendMessage: (text: string, options?: { contextId?: string; signal?: AbortSignal }) => Promise<void>;
  /** Approves input request `inputId`. */
  approve: (inputId: string, options?: { signal?: AbortSignal }) => Promise<void>;
  /** Denies input request `inputId`. */
  deny: (inputId: string, reason?: string, options?: { signal?: AbortSignal }) => Promise<void>;
  /** Answers input request `inputId` with `value`. */
  respond: (inputId: string, value: unknown, options?: { signal?: AbortSignal }) => Promise<void>;
  /** Cancels task `taskId` (default: the last root task still running). */
  cancel: (taskId?: string, options?: { signal?: AbortSignal }) => Promise<void>;
  /** Closes the client (done for you when it was created during a component's setup). */
  close: () => void;
}

/**
 * An agent run: creates the client and starts it. Called while a component initialises, the
 * client is closed when the component is destroyed; elsewhere, call `close()`. Actions never
 * reject: a failure is in `$error`.
 * @example const { snapshot, status, approve } = createAgent({ url: "/api/stream" });
 */
export function createAgent(options: AgentClientOptions): Agent {
  const client = new AgentClient(options);
  const stores = agentStores(client);
  let closed = false;
  let setError: (e: AgentwireError | undefined) => void = () => {};
  let lastError: AgentwireError | undefined;
  const report = (e: AgentwireError | undefined) => {
    lastError = e;
    setError(e);
  };
  const error = readable<AgentwireError | undefined>(undefined, (set) => {
    setError = set;
    set(lastError);
    return () => (setError = () => {});
  });
  const close = () => {
    closed = true;
    client.close();
  };
  try {
    onDestroy(close);
  } catch {
    // Not inside a component's initialisation: the caller closes.
  }
  client.run().catch((e: unknown) => {
    if (!closed) report(e as AgentwireError);
  });
  const fail = (e: unknown) => report(e as AgentwireError);
  const clear = <A extends unknown[]>(f: (...a: A) => Promise<void>) =>
    recording((...a: A) => (report(undefined), f(...a)), fail);
  const status = readable<AgentStatus>(agentStatus(client.getSnapshot(), client.connection), (set) => {
    const update = () => set(agentStatus(client.getSnapshot(), client.connection));
    update();
    const offS = client.subscribe(update);
    const offC = client.onConnectionChange(update);
    return () => (offS(), offC());
  });
  return {
    ...stores,
    client,
    messages: selectStore(client, agentMessages, sameItems),
    status,
    error,
    sendMessage: clear(client.sendMessage),
    approve: clear(client.approve),
    deny: clear(client.deny),
    respond: clear(client.respond),
    cancel: clear((taskId?: string, o?: { signal?: AbortSignal }) => {
      const id = taskId ?? runningRoot(client.getSnapshot())?.id;
      return id === undefined ? Promise.resolve() : client.cancel(id, o);
    }),
    close,
  };
}
