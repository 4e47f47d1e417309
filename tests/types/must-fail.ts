// Every marked line must be a type error: if the types decayed to `any`, tsc reports
// "Unused '@ts-expect-error' directive" and the type test fails.
import type { AgentEvent, Diagnostic, TaskStatus } from "agentwire";
import { AgentStore } from "agentwire";

export function wrong(e: AgentEvent, store: AgentStore): void {
  if (e.kind === "content-delta") {
    // @ts-expect-error content-delta has no progress
    console.log(e.progress);
  }
  if (e.kind === "tool-progress") {
    // @ts-expect-error progress is a number
    const s: string = e.progress;
    console.log(s);
  }
  // @ts-expect-error not a status
  const st: TaskStatus = "done";
  // @ts-expect-error not a diagnostic code
  const code: Diagnostic["code"] = "nope";
  // @ts-expect-error tool-start has no progress
  store.on("tool-start", (ev) => console.log(ev.progress));
  // @ts-expect-error not a kind
  store.on("no-such-kind", () => {});
  console.log(st, code);
}

import { initSync } from "agentwire/web";

export function wrongWeb(bytes: Uint8Array): void {
  // @ts-expect-error initSync returns the wasm exports, not a number
  const n: number = initSync({ module: bytes });
  console.log(n);
}

import { AgentClient } from "agentwire";

export function wrongClient(client: AgentClient): void {
  // @ts-expect-error not a transport
  new AgentClient({ url: "/x", transport: "carrier-pigeon" });
  // @ts-expect-error aiSdk.headers are strings
  new AgentClient({ url: "/api/chat", aiSdk: { headers: { "X-N": 1 } } });
  // @ts-expect-error input-required has no progress
  client.on("input-required", (e) => console.log(e.progress));
  // @ts-expect-error not a connection state
  const s: import("agentwire").ConnectionState = "paused";
  // @ts-expect-error answers are asynchronous
  const done: boolean = client.approve("i");
  console.log(s, done);
}

import { WorkerClient } from "agentwire";

export function wrongWorker(client: WorkerClient): void {
  // @ts-expect-error a coordinator is a function: it cannot run in the Worker
  new WorkerClient({ url: "/x", coordinator: () => undefined });
  // @ts-expect-error tool-start has no progress
  client.on("tool-start", (e) => console.log(e.progress));
  // @ts-expect-error answers are asynchronous
  const done: boolean = client.respond("i", 1);
  console.log(done);
}

export function wrongOptions(): void {
  // @ts-expect-error redactKeys is a list of member names
  new AgentStore({ redactKeys: "password" });
  // @ts-expect-error limits are numbers
  new AgentStore({ limits: { maxHistoryPerTask: "10" } });
  // @ts-expect-error limits go under `limits`
  new AgentStore({ maxHistoryPerTask: 10 });
}

export function wrongGroup(store: AgentStore): void {
  // @ts-expect-error a group also delivers unknown kinds (no inputId): narrow on `kind` first
  store.on("input-*", (e) => console.log(e.inputId.length));
}

export function wrongWorkerFeed(worker: WorkerClient): void {
  // @ts-expect-error WorkerClient.feed takes a Uint8Array (an array throws invalid-argument)
  worker.feed([1, 2, 3]);
}
