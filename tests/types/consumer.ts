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
  using store = new WebStore({ maxDiagnostics: 10 });
  store.feedText("event: x\ndata: {}\n\n");
  const v: number = store.version;
  console.log(v, store.lastEventId.length);
  return new WebStore({});
}
