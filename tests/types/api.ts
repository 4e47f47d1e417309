// A strict consumer of every item of issue 22's point 2: AgentwireError narrowed on `code`,
// unbound methods (useSyncExternalStore's signature shape), start/run, `{ signal }` on every
// call that sends, `limits`, the AgentSource / AgentConnection interfaces, a `connection`
// usable as a snapshot, camelCase parameters and `unknown` (not `any`) answers.
import {
  AgentClient, AgentStore, AgentwireError, WorkerClient,
  type AgentConnection, type AgentSource, type AgentwireErrorCode, type ConnectionInfo, type Limits,
  type Snapshot,
} from "agentwire";

/** React's `useSyncExternalStore` parameter shapes, without React. */
declare function useSyncExternalStore<T>(subscribe: (onStoreChange: () => void) => () => void, getSnapshot: () => T): T;

/** An adapter accepts any source. */
export function useAgentSnapshot(source: AgentSource): Snapshot {
  return useSyncExternalStore(source.subscribe, source.getSnapshot);
}

export function connectionOf(client: AgentConnection): ConnectionInfo {
  return useSyncExternalStore(client.onConnectionChange, () => client.connection);
}

export function sources(worker: Worker): Snapshot[] {
  const limits: Limits = { maxTasks: 100, maxLineBytes: 1 << 20, dedupeWindow: 4096 };
  const store = new AgentStore({ limits, redactKeys: ["token"], batch: "frame" });
  const client = new AgentClient({ url: "/api/stream", limits: { maxEventBytes: 1 << 20 }, reconnect: false });
  const wc = new WorkerClient({ url: "/api/stream", worker, limits });
  const all: AgentSource[] = [store, client, wc, client.store];
  const connections: AgentConnection[] = [client, wc];
  connections.forEach((c) => c.start());
  return all.map(useAgentSnapshot);
}

export async function unbound(client: AgentClient): Promise<void> {
  const { subscribe, getSnapshot, on, onAny, approve, deny, respond, select, answer, cancel, sendMessage, completeAuth, run, start, close, pendingInputs } = client;
  start();
  const off = subscribe(() => console.log(getSnapshot().version));
  const offTool = on("tool-progress", (e) => console.log(e.progress));
  const offAny = onAny((e) => console.log(e.kind));
  const ac = new AbortController();
  const signal = ac.signal;
  const id: string = pendingInputs()[0]?.id ?? "";
  await approve(id, { signal });
  await deny(id, "no", { signal });
  await respond(id, { any: ["json"] }, { signal });
  await select(id, "option-a", { signal });
  await answer(id, "text", { signal });
  await cancel("task", { signal });
  await completeAuth("auth", { code: "c", userId: "u" }, { signal });
  await sendMessage("next", { contextId: "ctx", signal });
  const final: Snapshot = await run({ signal });
  console.log(final.roots.length);
  off(); offTool(); offAny();
  close();
}

export function describeError(e: unknown): string {
  if (!(e instanceof AgentwireError)) return String(e);
  const code: AgentwireErrorCode = e.code;
  switch (e.code) {
    case "invalid-answer":
      return `the answer does not fit at ${e.path ?? "?"}`;
    case "send-failed":
      return `HTTP ${e.status ?? "?"}`;
    case "aborted":
    case "closed":
      return "stopped";
    case "gave-up":
    case "unauthorized":
      return "connection";
    default:
      return code;
  }
}

export async function runOrReport(client: AgentConnection): Promise<Snapshot | string> {
  try {
    return await client.run({ signal: AbortSignal.timeout(60_000) });
  } catch (e) {
    return describeError(e);
  }
}

export function dispose(client: AgentClient): void {
  using c = client;
  c.start();
}
