// WorkerClient: AgentClient with the work in a Web Worker (connection, parsing, validation and
// assembly there; the page gets batched changes).
import type { AgentEvent } from "./types.js";
import type { EventFilterSpec } from "./source.js";
import type { WorkerClientOptions } from "./options.js";
import { flatten } from "./options.js";
import { RawWorker } from "./raw.js";
import { argError, guard, guardAsync, toError } from "./errors.js";
import { ConnectionBase, internals } from "./connection.js";
import { fn } from "./args.js";

/**
 * The package's Worker script, beside this layer's glue (`raw/agentwire-worker.js`: pkg/raw/ for
 * `agentwire`, pkg/web/raw/ for `agentwire/web`). Written as `new Worker(new URL(..., import.meta.url))`
 * in the module that defines WorkerClient (not in the glue's snippet, which the Worker script itself
 * imports): Vite, webpack 5 and Next.js bundle the Worker from this pattern with no setting.
 */
function defaultWorker(): Worker {
  return new Worker(new URL("./raw/agentwire-worker.js", import.meta.url), { type: "module" });
}

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
export class WorkerClient extends ConnectionBase {
  constructor(options: WorkerClientOptions) {
    if (typeof options !== "object" || options === null || Array.isArray(options)) throw argError("options must be an object", "options");
    super(guard(() => {
      const o = flatten(options);
      const w = o.worker;
      if (w === undefined || w === null || (w as unknown) === true) o.worker = defaultWorker;
      return new RawWorker(o);
    }), options.signal);
  }
  /** Calls `handler` with the applied events `filter` selects (evaluated in the Worker). */
  subscribeEvents(filter: EventFilterSpec, handler: (event: AgentEvent) => void): () => void {
    const raw = internals(this, "subscribeEvents").raw as RawWorker;
    fn(handler, "handler");
    return guard(() => raw.subscribeEvents(filter, handler));
  }
  /** `transport: "manual"`: feeds bytes to the Worker's store (transferred). */
  feed(chunk: Uint8Array): void {
    const raw = internals(this, "feed").raw as RawWorker;
    guard(() => raw.feed(chunk));
  }
  /** `transport: "manual"`: end of stream; resolves once the Worker applied everything. */
  finish(): Promise<void> {
    try {
      const raw = internals(this, "finish").raw as RawWorker;
      return guardAsync(guard(() => raw.finish()));
    } catch (e) {
      return Promise.reject(toError(e));
    }
  }
  /** Resolves once everything the Worker applied so far reached this page. */
  flush(): Promise<void> {
    try {
      const raw = internals(this, "flush").raw as RawWorker;
      return guardAsync(guard(() => raw.flush()));
    } catch (e) {
      return Promise.reject(toError(e));
    }
  }
}
