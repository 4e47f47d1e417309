// agentwire, snapshot mode: feed every network chunk into an AgentStore (parse, validate,
// assemble in wasm), read the state once at the end with getSnapshot(). No per-event JS work.
import { init, consumerName, makeConsumer, stats, wasmMemoryBytes } from './common.mjs';

export const name = consumerName('agentwire-snapshot');
export const input = 'native';
export const level = 'full';
export { init, stats, wasmMemoryBytes };
export function createConsumer() {
  return makeConsumer(null);
}
