// AgentClient: a connection on the main thread feeding an AgentStore, and the way to answer
// the agent.
import type { AgentEvent } from "./types.js";
import type { EventFilterSpec } from "./source.js";
import type { AgentClientOptions } from "./options.js";
import { flatten } from "./options.js";
import { RawClient } from "./raw.js";
import { argError, guard } from "./errors.js";
import { ConnectionBase, internals } from "./connection.js";
import { AgentStore } from "./store.js";

const stores = new WeakMap<object, AgentStore>();

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
export class AgentClient extends ConnectionBase {
  constructor(options: AgentClientOptions) {
    if (typeof options !== "object" || options === null || Array.isArray(options)) throw argError("options must be an object", "options");
    const raw = guard(() => new RawClient(flatten(options)));
    super(raw, options.signal);
    stores.set(this, AgentStore.adopt(guard(() => raw.store)));
  }
  /** The store this client feeds (the same object every time). */
  get store(): AgentStore {
    internals(this, "store");
    return stores.get(this) as AgentStore;
  }
  /** Calls `handler` with the applied events `filter` selects (evaluated in wasm). */
  subscribeEvents(filter: EventFilterSpec, handler: (event: AgentEvent) => void): () => void {
    internals(this, "subscribeEvents");
    return (stores.get(this) as AgentStore).subscribeEvents(filter, handler);
  }
}
