// The package the agentwire consumers run on when scripts/bench.sh runs them on one protocol's
// entry (`--entries core,...`): staged as package.mjs in target/bench-harness/aw-<entry>/, with
// pkg/<entry>/ as ./pkg/, the entry's wasm beside the consumers (served by the harness under
// /ext/<i>/, where the entry's own loader fetches it: `new URL("./agentwire_bg.wasm",
// import.meta.url)` of the consumer's bundle) and entry.json naming the entry. The entry
// instantiates its wasm itself when its module is evaluated (instantiateStreaming, top-level
// await), as in an app; the harness imports the consumer before any timed run.
import meta from './entry.json';
import { AgentStore, AgentClient } from './pkg/index.js';
// The entry's glue (the instance its loader made): only for the linear memory the probe reports.
import glue from './pkg/raw/glue.js';

export { AgentStore, AgentClient };

/** A protocol's entry has no Worker mode. */
export const WorkerClient = undefined;

/** The entry's name for consumer names (`agentwire-snapshot@core`). */
export const entry = meta.entry;

/** The wasm is instantiated already (the entry's loader); resolves with its linear memory. */
export async function instantiate() {
  return (await glue()).memory;
}
