// A strict consumer that must compile against the generated declarations.
import { AgentStore, StreamDecoder, type AgentEvent, type Diagnostic, type Snapshot, type Task, type TaskStatus } from "agentwire";

export function describe(e: AgentEvent): string {
  switch (e.kind) {
    case "tool-progress": {
      const p: number = e.progress;
      const id: string = e.toolCallId;
      return `${id} ${p}`;
    }
    case "content-delta": {
      const d: string = e.delta;
      const i: number = e.index;
      return d + i;
    }
    case "input-required":
      return e.prompt + (e.requireUser === true ? " (user)" : "");
    case "file-write":
      return e.artifactId + (e.encoding ?? "utf-8");
    case "unknown":
      return e.unknownKind;
    default:
      return e.kind;
  }
}

export function useStore(store: AgentStore): () => void {
  const off = store.on("tool-progress", (e) => {
    const p: number = e.progress;
    console.log(p);
  });
  const offGroup = store.on("input-*", (e) => {
    if (e.kind === "unknown") return; // an `input-…` kind this version does not know
    const id: string = e.inputId;
    console.log(id);
  });
  const unsubscribe = store.subscribe(() => {
    const snap: Snapshot = store.getSnapshot();
    const first: Task | undefined = snap.tasks[0];
    const status: TaskStatus | undefined = first?.status;
    const diags: Diagnostic[] = snap.diagnostics;
    console.log(status, diags.map((d) => d.code));
  });
  const dec = new StreamDecoder({});
  for (const item of dec.feed(new Uint8Array())) {
    if ("event" in item) console.log(item.event.kind);
    else console.log(item.diagnostic.code);
  }
  return () => {
    off();
    offGroup();
    unsubscribe();
  };
}

// The no-bundler entry point: same classes, plus init/initSync.
import init, { initSync, AgentStore as WebStore, type InitOutput } from "agentwire/web";

export async function boot(bytes?: Uint8Array): Promise<WebStore> {
  if (bytes) {
    const out: InitOutput = initSync({ module: bytes });
    console.log(out.memory.buffer.byteLength);
  } else {
    await init();
  }
  using store = new WebStore({ limits: { maxDiagnostics: 10 } });
  store.feedText("event: x\ndata: {}\n\n");
  const v: number = store.version;
  console.log(v, store.lastEventId.length);
  return new WebStore({});
}

// The client: connection state, typed handlers, answers, the async iterator.
import { AgentClient, type ConnectionInfo, type ConnectionState, type InputRequest, type OutgoingRequest } from "agentwire";

export async function useClient(signal: AbortSignal): Promise<string[]> {
  const client = new AgentClient({
    url: "/api/stream?scenario=main",
    headers: { Authorization: "Bearer t" },
    reconnect: { initialDelayMs: 500, maxAttempts: 5 },
    limits: { maxToolsPerTask: 100, dedupeWindow: 4096 },
    redactKeys: ["password", "sessionNote"],
    coordinator: (req: InputRequest) => (req.inputType === "tool-execution" ? { ok: true } : undefined),
    responder: async (req: OutgoingRequest) => { await fetch(req.url, { method: "POST", body: JSON.stringify(req.body) }); },
    signal,
  });
  client.start();
  const stop = client.onConnectionChange((c: ConnectionInfo) => {
    const s: ConnectionState = c.state;
    if (s === "failed") console.log(c.code ?? "", c.reason);
  });
  client.on("input-required", (e) => {
    if (e.requireUser) void client.approve(e.inputId);
    else void client.respond(e.inputId, { userId: 1 });
  });
  client.on("auth-required", (e) => {
    const url: string = client.authUrl(e.authId);
    console.log(url);
    void client.completeAuth(e.authId, { code: "x" });
  });
  const kinds: string[] = [];
  for await (const e of client.events({ filter: { kinds: ["tool-*"] }, signal })) {
    kinds.push(e.kind);
    if (e.kind === "tool-complete") break;
  }
  const pending: InputRequest[] = client.pendingInputs();
  await client.deny(pending[0]?.id ?? "", "no");
  await client.select("i", "a");
  await client.answer("i", "text");
  await client.cancel("task");
  const store: AgentStore = client.store;
  console.log(store.version, client.getSnapshot().version);
  stop();
  client.close();
  return kinds;
}

// Worker mode: the same API, typed the same way; options that cannot cross into a Worker are not offered.
import { WorkerClient, type WorkerClientOptions } from "agentwire";

export async function useWorker(worker: Worker): Promise<number> {
  const options: WorkerClientOptions = { url: "/api/stream?scenario=main", worker, resume: "/api/resume" };
  const client = new WorkerClient(options);
  client.on("tool-progress", (e) => console.log(e.toolCallId, e.progress));
  client.on("input-required", (e) => void client.approve(e.inputId));
  const stop = client.subscribe((s: Snapshot) => console.log(s.roots.length));
  for await (const e of client.events({ filter: { kinds: ["input-*"] } })) {
    if (e.kind === "input-required") break;
  }
  const manual = new WorkerClient({ transport: "manual", worker: new URL("/agentwire-worker.js", "http://x/") });
  manual.feed(new Uint8Array(0));
  await manual.finish();
  stop();
  client.close();
  return client.getSnapshot().version + manual.pendingInputs().length;
}

// The documented forms (README, doc comments): constructors without options, sendMessage
// without options on both clients, and unknown events reaching group patterns by their own kind.
export const bareStore = new AgentStore();
export const bareDecoder = new StreamDecoder();
export function unknownKinds(store: AgentStore, worker: WorkerClient): void {
  store.on("tool-*", (e) => {
    if (e.kind === "unknown") console.log(e.unknownKind, e.data);
    else console.log(e.toolCallId);
  });
  store.on("internal:*", (e) => console.log(e.kind === "unknown" ? e.unknownKind : e.taskId));
  store.on("unknown", (e) => console.log(e.unknownKind));
  void worker.sendMessage("next");
}

// The raw-event ring (rawLogEvents option), readable from JavaScript.
export function rawRing(store: AgentStore): string[] {
  return store.rawEvents().map((e: { position: number; raw: string }) => `${e.position}: ${e.raw}`);
}

// feed() takes what fetch and WebSocket hand out: bytes, an ArrayBuffer, a DataView.
export async function feedForms(store: AgentStore, res: Response): Promise<void> {
  store.feed(new Uint8Array(await res.clone().arrayBuffer()));
  store.feed(await res.arrayBuffer());
  store.feed(new DataView(new ArrayBuffer(0)));
  store.feed([0x3a, 0x0a]);
}

// The Vercel AI SDK chat: aiSdk options, sendMessage, a client-side tool's output, stop.
import type { AiSdkOptions } from "agentwire";

export async function aiSdkChat(): Promise<void> {
  const aiSdk: AiSdkOptions = {
    chatId: "c1",
    messages: [{ id: "u0", role: "user", parts: [{ type: "text", text: "Hi" }] }],
    body: { model: "x" },
    headers: { Authorization: "Bearer t" },
  };
  const chat = new AgentClient({ url: "/api/chat", dialect: "ai-sdk", aiSdk, message: "Weather?" });
  chat.on("input-required", (e) => void chat.approve(e.inputId));
  await chat.sendMessage("And tomorrow?");
  await chat.respond("call-1", { city: "Bern" });
  await chat.cancel(chat.getSnapshot().roots[0]?.id ?? "");
}
