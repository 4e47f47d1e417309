// agentwire, the whole client on the main thread, network path only: `new AgentClient({ url })`
// (fetch + ReadableStream SSE transport in wasm, parse, validate, assemble), the summary read
// once from getSnapshot() when the run finished (connection `closed`). The main-thread
// reference for agentwire-worker (scripts/bench.sh: main-thread CPU per 100k events).
import { init, consumerName, stats, wasmMemoryBytes, summaryOf, ended, AgentClient } from './common.mjs';

export const name = consumerName('agentwire-client');
export const input = 'native';
export const level = 'full';
export const paths = ['net'];
export { init, stats, wasmMemoryBytes };

export async function consumeUrl(url) {
  const client = new AgentClient({ url: new URL(url, location.href).href, reconnect: false });
  client.getSnapshot(); // as a UI does when it mounts (see common.mjs)
  client.start();
  const c = await ended(client);
  if (c.state !== 'closed') throw new Error(`connection ${c.state}: ${c.reason}`);
  const s = summaryOf(client, {});
  client.close();
  return s;
}
