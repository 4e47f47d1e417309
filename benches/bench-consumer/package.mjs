// The package the agentwire consumers run on: `agentwire` with every dialect, through its
// `agentwire/web` entry (the `.wasm` import becomes a Uint8Array in the harness's bundle,
// instantiated in the consumer's untimed init()). scripts/bench.sh stages it with pkg/web as
// ./pkg/; for a protocol's entry (`--entries core,...`) it stages package-entry.mjs in its place.
import wasmBytes from '../../pkg/web/raw/agentwire_bg.wasm';
import initWasm, { AgentStore, AgentClient, WorkerClient } from '../../pkg/web/agentwire.js';

export { AgentStore, AgentClient, WorkerClient };

/** The entry's name for consumer names (`agentwire-snapshot@core`); null: the full package. */
export const entry = null;

/** Instantiates the wasm (once); resolves with its linear memory. */
export async function instantiate() {
  return (await initWasm({ module_or_path: wasmBytes })).memory;
}
