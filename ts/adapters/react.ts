// agentwire/react: React 18/19 hooks over any agentwire source (AgentClient, WorkerClient,
// AgentStore). `useAgent` owns a client for the component's lifetime (one connection under
// StrictMode); `useAgentSnapshot` reads the state with an optional selector; `useAgentEvent`
// listens to events.
import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from "react";
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

/**
 * The state of `source`, re-rendering the component when it changes. With `selector`, the
 * component re-renders only when the selected value changes (`isEqual`, default `Object.is`:
 * a selector returning a new array or object on every call needs an `isEqual`, e.g. one that
 * compares items).
 * @example const status = useAgentSnapshot(client, (s) => s.roots[0]?.status);
 */
export function useAgentSnapshot(source: AgentSource): Snapshot;
export function useAgentSnapshot<T>(
  source: AgentSource,
  selector: (snapshot: Snapshot) => T,
  isEqual?: (a: T, b: T) => boolean,
): T;
export function useAgentSnapshot<T>(
  source: AgentSource,
  selector?: (snapshot: Snapshot) => T,
  isEqual: (a: T, b: T) => boolean = Object.is,
): T | Snapshot {
  // The value last rendered: a new snapshot whose selection equals it keeps it (no re-render).
  const last = useRef<{ value: T } | null>(null);
  const getSelection = useMemo((): (() => T | Snapshot) => {
    if (!selector) return source.getSnapshot;
    let memo: { snapshot: Snapshot; value: T } | null = null;
    return (): T => {
      const snapshot = source.getSnapshot();
      if (memo && memo.snapshot === snapshot) return memo.value;
      let value = selector(snapshot);
      const prev = memo ?? last.current;
      if (prev && isEqual(prev.value, value)) value = prev.value;
      memo = { snapshot, value };
      return value;
    };
  }, [source, selector, isEqual]);
  const value = useSyncExternalStore<T | Snapshot>(source.subscribe, getSelection, getSelection);
  useEffect(() => {
    last.current = { value: value as T };
  });
  return value;
}

/**
 * Calls `handler` with every event of `pattern` (an exact kind, a group such as `tool-*`, or
 * `*`) from `source` while the component is mounted. The latest `handler` is called (no need to
 * memoize it); the subscription changes only with `source` or `pattern`.
 * @example useAgentEvent(client, "tool-complete", (e) => toast(`${e.toolName} done`));
 */
export function useAgentEvent<K extends KindPattern>(
  source: AgentSource,
  pattern: K,
  handler: (event: EventOf<K>) => void,
): void {
  const latest = useRef(handler);
  useEffect(() => {
    latest.current = handler;
  });
  useEffect(() => source.on(pattern, (e) => latest.current(e)), [source, pattern]);
}

/** The connection's state, re-rendering when it changes. */
export function useAgentConnection(client: AgentConnection): ConnectionInfo {
  const get = useCallback(() => client.connection, [client]);
  return useSyncExternalStore(client.onConnectionChange, get, get);
}

/** What {@link useAgent} returns. */
export interface UseAgentResult {
  /** The client (created with the component, closed when it unmounts). */
  client: AgentConnection;
  /** The whole state (same object until something changed). */
  snapshot: Snapshot;
  /** The connection's state. */
  connection: ConnectionInfo;
  /** The conversation: the messages of every root task (the user's and the agent's). */
  messages: Message[];
  /** The run in one word (see {@link AgentStatus}). */
  status: AgentStatus;
  /** The connection's failure, or the last action that failed; cleared by the next action. */
  error: AgentwireError | undefined;
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

// Clients whose close is scheduled: StrictMode's unmount-then-mount cancels it.
const closing = new WeakMap<AgentConnection, ReturnType<typeof setTimeout>>();

/**
 * An agent run owned by the component: the client is created with the component (no I/O),
 * started by an effect and closed when the component unmounts. Under StrictMode's development
 * mount → unmount → mount it opens one connection: the close is deferred by a tick and
 * cancelled by the remount. The options are read once (give the component a new `key` to
 * connect elsewhere). Actions never reject: a failure is in `error`.
 * @example
 * const { messages, snapshot, status, approve } = useAgent({ url: "/api/stream" });
 */
export function useAgent(options: AgentClientOptions): UseAgentResult {
  const optionsRef = useRef(options);
  const [client, setClient] = useState<AgentConnection>(() => new AgentClient(options));
  const [error, setError] = useState<AgentwireError | undefined>(undefined);
  const closed = useRef<AgentConnection | null>(null);

  useEffect(() => {
    const pending = closing.get(client);
    if (pending !== undefined) {
      clearTimeout(pending);
      closing.delete(client);
    }
    if (closed.current === client) {
      // Re-shown after a real close (e.g. <Activity>): a new client, a new connection.
      setClient(new AgentClient(optionsRef.current));
      return;
    }
    client.run().catch((e: unknown) => {
      if (closed.current !== client) setError(e as AgentwireError);
    });
    return () => {
      closing.set(
        client,
        setTimeout(() => {
          closing.delete(client);
          closed.current = client;
          client.close();
        }, 0),
      );
    };
  }, [client]);

  const snapshot = useAgentSnapshot(client);
  const connection = useAgentConnection(client);
  const messages = useAgentSnapshot(client, agentMessages, sameItems);
  const actions = useMemo(() => {
    const fail = (e: unknown) => setError(e as AgentwireError);
    const clear = <A extends unknown[]>(f: (...a: A) => Promise<void>) =>
      recording((...a: A) => (setError(undefined), f(...a)), fail);
    return {
      sendMessage: clear(client.sendMessage),
      approve: clear(client.approve),
      deny: clear(client.deny),
      respond: clear(client.respond),
      cancel: clear((taskId?: string, o?: { signal?: AbortSignal }) => {
        const id = taskId ?? runningRoot(client.getSnapshot())?.id;
        return id === undefined ? Promise.resolve() : client.cancel(id, o);
      }),
    };
  }, [client]);

  return {
    client,
    snapshot,
    connection,
    messages,
    status: agentStatus(snapshot, connection),
    error,
    ...actions,
  };
}
