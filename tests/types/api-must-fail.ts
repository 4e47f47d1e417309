// Lines that must not compile (scripts/typecheck.sh: every `@ts-expect-error` must be an error):
// the error code union, narrowing, the interfaces, the option groups and the parameter types.
import { AgentClient, AgentStore, AgentwireError, StreamDecoder, type AgentConnection, type AgentSource, type AgentwireErrorCode } from "agentwire";

export function codes(e: AgentwireError): void {
  // @ts-expect-error not a code agentwire throws
  const c: AgentwireErrorCode = "oops";
  if (e.code === "invalid-answer") {
    // @ts-expect-error narrowed: it is not "closed" here
    const closed: "closed" = e.code;
    console.log(closed);
  }
  // @ts-expect-error code is read-only
  e.code = "closed";
  // @ts-expect-error compared with a code that does not exist
  if (e.code === "no-such-code") console.log(c);
}

export function interfaces(store: AgentStore, decoder: StreamDecoder): void {
  // @ts-expect-error a store is a source, not a connection
  const conn: AgentConnection = store;
  // @ts-expect-error a decoder keeps no state: it is no source
  const src: AgentSource = decoder;
  console.log(conn, src);
}

export function options(client: AgentClient): void {
  // @ts-expect-error autoConnect was removed: start() or run() connects
  new AgentClient({ url: "/x", autoConnect: false });
  // @ts-expect-error not a limit
  new AgentStore({ limits: { maxEverything: 1 } });
  // @ts-expect-error the signal is an AbortSignal
  void client.approve("i", { signal: true });
  // @ts-expect-error run() resolves with the snapshot, not a boolean
  const ok: Promise<boolean> = client.run();
  // @ts-expect-error the reason is a string
  void client.deny("i", 42);
  // @ts-expect-error completeAuth's details are strings
  void client.completeAuth("a", { code: 1 });
  // @ts-expect-error start() takes no options
  client.start({ signal: new AbortController().signal });
  // @ts-expect-error connect() is start() now
  client.connect();
  // @ts-expect-error connection is read-only
  client.connection = client.connection;
  console.log(ok);
}
