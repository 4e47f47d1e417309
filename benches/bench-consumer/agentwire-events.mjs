// agentwire, per-event mode: as snapshot mode, plus every applied event (internal ones included)
// delivered to a JavaScript callback as a typed object (`subscribeEvents({ kinds: '*',
// includeInternal: true }, handler)`). The handler touches each object (reads `kind`) and counts;
// the count is reported as `events`, which the harness checks against the stream's event total.
import { init, consumerName, makeConsumer, stats, wasmMemoryBytes } from './common.mjs';

export const name = consumerName('agentwire-events');
export const input = 'native';
export const level = 'full';
export { init, stats, wasmMemoryBytes };
export function createConsumer() {
  return makeConsumer((store) => {
    let events = 0;
    let kinds = 0;
    store.subscribeEvents({ kinds: '*', includeInternal: true }, (e) => {
      events++;
      kinds += e.kind.length;
    });
    return () => {
      stats.delivered = events;
      return { events: kinds >= 0 ? events : -1 };
    };
  });
}
