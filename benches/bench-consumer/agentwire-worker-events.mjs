// agentwire Worker mode, per-event: as agentwire-worker, plus every applied event (internal
// ones included) delivered to a page callback as a typed object (`onAny` + `on("internal:*")`,
// batched per frame by the Worker); the count is reported as `events` (checked by the harness).
import { init, stats, wasmMemoryBytes, createConsumer as create, consumeUrl as consume } from './agentwire-worker.mjs';

export const name = 'agentwire-worker-events';
export const input = 'native';
export const level = 'full';
export { init, stats, wasmMemoryBytes };

function count(client) {
  let events = 0;
  let kinds = 0;
  const on = (e) => { events++; kinds += e.kind.length; };
  client.onAny(on);
  client.on('internal:*', on);
  return () => {
    stats.delivered = events;
    return { events: kinds >= 0 ? events : -1 };
  };
}

export const createConsumer = () => create(count);
export const consumeUrl = (url) => consume(url, count);
