// agentwire/vue: Vue 3 composables over any agentwire source (AgentClient, WorkerClient,
// AgentStore). Each cleans up with the effect scope it was called in (a component's setup, or
// an effectScope()).
import {
  computed,
  getCurrentInstance,
  getCurrentScope,
  onMounted,
  onScopeDispose,
  shallowRef,
  type ComputedRef,
  type ShallowRef,
} from "vue";
import {
  AgentClient,
  type AgentClientOptions,
  type AgentConnection,
  type AgentSource,
  type AgentwireError,
  type ConnectionInfo,
  type EventOf,
  type KindPattern,
  type Message,
  type Snapshot,
} from "agentwire";
import { agentMessages, agentStatus, recording, runningRoot, sameItems, type AgentStatus } from "./shared";

export type { AgentStatus } from "./shared";

/** A ref the composable writes and the caller reads (read-only for the type checker). */
export type ReadonlyRef<T> = Readonly<ShallowRef<T>>;

const dispose = (f: () => void): void => {
  if (getCurrentScope()) onScopeDispose(f);
};

/**
 * The state of `source` as a shallow ref. With `selector`, the ref holds the selected value and
 * changes (triggering watchers and renders) only when it changes (`isEqual`, default
 * `Object.is`).
 * @example const status = useAgentSnapshot(client, (s) => s.roots[0]?.status);
 */
export function useAgentSnapshot(source: AgentSource): ReadonlyRef<Snapshot>;
export function useAgentSnapshot<T>(
  source: AgentSource,
  selector: (snapshot: Snapshot) => T,
  isEqual?: (a: T, b: T) => boolean,
): ReadonlyRef<T>;
export function useAgentSnapshot<T>(
  source: AgentSource,
  selector: (snapshot: Snapshot) => T = (s) => s as T,
  isEqual: (a: T, b: T) => boolean = Object.is,
): ReadonlyRef<T> {
  const value = shallowRef(selector(source.getSnapshot()));
  dispose(
    source.subscribe(() => {
      const next = selector(source.getSnapshot());
      if (!isEqual(value.value, next)) value.value = next;
    }),
  );
  return value;
}

/**
 * Calls `handler` with every event of `pattern` (an exact kind, a group such as `tool-*`, or
 * `*`) from `source` until the scope is disposed.
 */
export function useAgentEvent<K extends KindPattern>(
  source: AgentSource,
  pattern: K,
  handler: (event: EventOf<K>) => void,
): void {
  dispose(source.on(pattern, handler));
}

/** The connection's state as a shallow ref. */
export function useAgentConnection(client: AgentConnection): ReadonlyRef<ConnectionInfo> {
  const value = shallowRef(client.connection);
  dispose(client.onConnectionChange(() => (value.value = client.connection)));
  return value;
}

/** What {@link useAgent} returns. */
export interface UseAgentResult {
  /** The client (created by the composable, closed with its scope). */
  client: AgentConnection;
  /** The whole state (same object until something changed). */
  snapshot: ReadonlyRef<Snapshot>;
  /** The connection's state. */
  connection: ReadonlyRef<ConnectionInfo>;
  /** The conversation: the messages of every root task (the user's and the agent's). */
  messages: ReadonlyRef<Message[]>;
  /** The run in one word (see {@link AgentStatus}). */
  status: ComputedRef<AgentStatus>;
  /** The connection's failure, or the last action that failed; cleared by the next action. */
  error: ReadonlyRef<AgentwireError | undefined>;
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
}

/**
 * An agent run owned by the calling scope: the client is created here, connects when the
 * component is mounted (at once outside a component) and is closed when the scope is disposed
 * (the component unmounts). Actions never reject: a failure is in `error`.
 * @example const { messages, snapshot, status, approve } = useAgent({ url: "/api/stream" });
 */
export function useAgent(options: AgentClientOptions): UseAgentResult {
  const client = new AgentClient(options);
  const snapshot = useAgentSnapshot(client);
  const connection = useAgentConnection(client);
  const messages = useAgentSnapshot(client, agentMessages, sameItems);
  const error = shallowRef<AgentwireError | undefined>(undefined);
  let closed = false;
  const start = () => {
    if (closed) return;
    client.run().catch((e: unknown) => {
      if (!closed) error.value = e as AgentwireError;
    });
  };
  if (getCurrentInstance()) onMounted(start);
  else start();
  dispose(() => {
    closed = true;
    client.close();
  });
  const fail = (e: unknown) => (error.value = e as AgentwireError);
  const clear = <A extends unknown[]>(f: (...a: A) => Promise<void>) =>
    recording((...a: A) => ((error.value = undefined), f(...a)), fail);
  return {
    client,
    snapshot,
    connection,
    messages,
    status: computed(() => agentStatus(snapshot.value, connection.value)),
    error: error,
    sendMessage: clear(client.sendMessage),
    approve: clear(client.approve),
    deny: clear(client.deny),
    respond: clear(client.respond),
    cancel: clear((taskId?: string, o?: { signal?: AbortSignal }) => {
      const id = taskId ?? runningRoot(client.getSnapshot())?.id;
      return id === undefined ? Promise.resolve() : client.cancel(id, o);
    }),
  };
}
