// What the three adapters derive the same way from a snapshot and a connection: the
// conversation (`messages`), a one-word `status`, and the default task of `cancel()`.
import type { ConnectionInfo, Message, Snapshot, Task } from "agentwire";

/**
 * What a UI shows about a run, in one word:
 * - `idle`: not started; `connecting`: started, nothing received yet;
 * - `streaming`: the agent is working; `waiting`: a request waits for the user
 *   (`snapshot.pendingInputs` / `pendingAuths`);
 * - `completed` / `failed` / `canceled`: every root task ended so (`failed` also when the
 *   connection failed); `closed`: the connection was closed before the tasks ended.
 */
export type AgentStatus =
  | "idle"
  | "connecting"
  | "streaming"
  | "waiting"
  | "completed"
  | "failed"
  | "canceled"
  | "closed";

const ENDED = new Set(["completed", "failed", "canceled"]);

/** The status of a run (see {@link AgentStatus}). */
export function agentStatus(snapshot: Snapshot, connection: ConnectionInfo | undefined): AgentStatus {
  if (connection?.state === "failed") return "failed";
  const roots = snapshot.roots;
  if (roots.length > 0 && roots.every((t) => t.status !== undefined && ENDED.has(t.status))) {
    if (roots.some((t) => t.status === "failed")) return "failed";
    return roots.some((t) => t.status === "canceled") ? "canceled" : "completed";
  }
  if (snapshot.pendingInputs.length > 0 || snapshot.pendingAuths.length > 0) return "waiting";
  switch (connection?.state) {
    case "idle":
      return "idle";
    case "closed":
      return "closed";
    case "connecting":
      return roots.length === 0 ? "connecting" : "streaming";
    default:
      return "streaming";
  }
}

/** The conversation: the messages of every root task, in task order. */
export function agentMessages(snapshot: Snapshot): Message[] {
  return snapshot.roots.flatMap((t) => t.messages);
}

/** Whether two arrays hold the same items (by identity), in the same order. */
export function sameItems<T>(a: readonly T[], b: readonly T[]): boolean {
  return a.length === b.length && a.every((x, i) => Object.is(x, b[i]));
}

/** The root task `cancel()` without an id stops: the last one still running. */
export function runningRoot(snapshot: Snapshot): Task | undefined {
  return snapshot.roots.findLast((t) => t.status === undefined || !ENDED.has(t.status));
}

/**
 * `f` as an action of a hook/composable/store: its failure goes to `fail` (what the UI shows as
 * `error`, as `useChat` does) instead of rejecting, so a click handler need not catch; the
 * promise resolves once the call settled either way. A call that throws synchronously (an
 * invalid argument) is reported the same way.
 */
export function recording<A extends unknown[]>(
  f: (...args: A) => Promise<void>,
  fail: (e: unknown) => void,
): (...args: A) => Promise<void> {
  return async (...args: A) => {
    try {
      await f(...args);
    } catch (e) {
      fail(e);
    }
  };
}
