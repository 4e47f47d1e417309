// agentwire, filtered delivery: as snapshot mode, plus only `tool-*` and `input-*` events
// delivered to a JavaScript callback (the filter runs in wasm; nothing else crosses). The
// delivered count is not checked by the harness (it only knows the total); probe.mjs checks it
// against the per-kind counts in expected.json.
import { init, consumerName, makeConsumer, stats, wasmMemoryBytes } from './common.mjs';

export const name = consumerName('agentwire-filtered');
export const input = 'native';
export const level = 'full';
export const filterKinds = ['tool-*', 'input-*'];
export { init, stats, wasmMemoryBytes };
export function createConsumer() {
  return makeConsumer((store) => {
    let delivered = 0;
    let kinds = 0;
    store.subscribeEvents({ kinds: filterKinds }, (e) => {
      delivered++;
      kinds += e.kind.length;
    });
    return () => {
      stats.delivered = delivered;
      return {};
    };
  });
}
