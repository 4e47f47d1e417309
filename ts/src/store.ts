// AgentStore: the framework-neutral store over the wasm's (feed a stream, read snapshots,
// subscribe). Arguments are checked here; every method works unbound.
import type { AgentEvent, Artifact, AuthRequest, Diagnostic, InputRequest, Task } from "./types.js";
import type { AgentSource, EventFilterSpec, EventOf, KindPattern, Snapshot } from "./source.js";
import type { AgentStoreOptions } from "./options.js";
import { flatten } from "./options.js";
import { RawStore } from "./raw.js";
import { guard, argError } from "./errors.js";
import { bindAll, Slots } from "./bind.js";
import { bytes, fn, str } from "./args.js";

const slots = new Slots<RawStore>("AgentStore");
/** The raw store of a store (the client's own store is made around the wasm's). */
let adopt: RawStore | undefined;

/** An event as `pushEvent` takes it: an event object, or its JSON text. */
export type EventInput = AgentEvent | Record<string, unknown> | string;

/** Bytes as `feed` takes them. */
export type Bytes = Uint8Array | ArrayBuffer | DataView | number[];

/**
 * The framework-neutral agent store: feed it a stream, read snapshots, subscribe.
 *
 * ```ts
 * const store = new AgentStore({ limits: { maxTasks: 100 } });
 * const stop = store.subscribe(() => render(store.getSnapshot()));
 * store.on("tool-progress", (e) => console.log(e.toolCallId, e.progress));
 * store.feed(new TextEncoder().encode('event: task-created\ndata: {...}\n\n'));
 * ```
 */
export class AgentStore implements AgentSource {
  constructor(options?: AgentStoreOptions) {
    const raw = adopt ?? guard(() => new RawStore(flatten(options)));
    adopt = undefined;
    slots.set(this, raw);
    bindAll(this, AgentStore.prototype);
  }

  /** @internal The store around `raw` (the one an AgentClient feeds). */
  static adopt(raw: RawStore): AgentStore {
    adopt = raw;
    return new AgentStore();
  }

  /** Feeds the next bytes of an SSE stream (a `Uint8Array`, `ArrayBuffer`, `DataView` or an array of byte values). */
  feed(chunk: Bytes): void {
    const r = slots.get(this, "feed");
    const b = bytes(chunk);
    guard(() => r.feed(b));
  }
  /** Feeds SSE text. */
  feedText(text: string): void {
    const r = slots.get(this, "feedText");
    str(text, "text");
    guard(() => r.feedText(text));
  }
  /** Applies one event (an object, or its JSON text), validated as if it came from the stream. */
  pushEvent(event: EventInput): void {
    const r = slots.get(this, "pushEvent");
    guard(() => r.pushEvent(event));
  }
  /** End of stream: an unterminated event is discarded, open work is settled. */
  finish(): void {
    const r = slots.get(this, "finish");
    guard(() => r.finish());
  }
  /** Forgets the parser's partial event (a new connection of the same stream). */
  resetStream(): void {
    const r = slots.get(this, "resetStream");
    guard(() => r.resetStream());
  }
  /** Advances the store's clock (ms since epoch) so open requests can expire while the stream is idle. */
  advanceClock(nowMs: number): void {
    const r = slots.get(this, "advanceClock");
    if (typeof nowMs !== "number" || !Number.isFinite(nowMs)) throw argError("nowMs must be a finite number (ms since epoch)", "nowMs");
    guard(() => r.advanceClock(nowMs));
  }
  /** The current snapshot: the same object until something visible changed. */
  getSnapshot(): Snapshot {
    const r = slots.get(this, "getSnapshot");
    return guard(() => r.getSnapshot() as Snapshot);
  }
  /** Calls `listener(snapshot)` now and after every change of visible state. Returns the unsubscribe function. */
  subscribe(listener: (snapshot: Snapshot) => void): () => void {
    const r = slots.get(this, "subscribe");
    fn(listener, "listener");
    return guard(() => r.subscribe(listener));
  }
  /** Calls `handler` with every applied event of `kind` (narrowed type), after the store was updated. */
  on<K extends KindPattern>(kind: K, handler: (event: EventOf<K>) => void): () => void {
    const r = slots.get(this, "on");
    str(kind, "kind");
    fn(handler, "handler");
    return guard(() => r.on(kind, handler));
  }
  /** Calls `handler` with every applied event (internal ones excluded). */
  onAny(handler: (event: AgentEvent) => void): () => void {
    const r = slots.get(this, "onAny");
    fn(handler, "handler");
    return guard(() => r.onAny(handler));
  }
  /** Calls `handler` with the applied events `filter` selects (evaluated in wasm). */
  subscribeEvents(filter: EventFilterSpec, handler: (event: AgentEvent) => void): () => void {
    const r = slots.get(this, "subscribeEvents");
    fn(handler, "handler");
    return guard(() => r.subscribeEvents(filter, handler));
  }
  /** Task `id`, if known. */
  task(id: string): Task | undefined {
    const r = slots.get(this, "task");
    str(id, "id");
    return guard(() => r.task(id) as Task | undefined);
  }
  /** Artifact `id`, if known. */
  artifact(id: string): Artifact | undefined {
    const r = slots.get(this, "artifact");
    str(id, "id");
    return guard(() => r.artifact(id) as Artifact | undefined);
  }
  /** A file artifact's text (UTF-8). */
  artifactText(id: string): string | undefined {
    const r = slots.get(this, "artifactText");
    str(id, "id");
    return guard(() => r.artifactText(id));
  }
  /** A file artifact's bytes. */
  artifactBytes(id: string): Uint8Array | undefined {
    const r = slots.get(this, "artifactBytes");
    str(id, "id");
    return guard(() => r.artifactBytes(id));
  }
  /** A dataset artifact's rows. */
  artifactRows(id: string): Record<string, unknown>[] | undefined {
    const r = slots.get(this, "artifactRows");
    str(id, "id");
    return guard(() => r.artifactRows(id));
  }
  /** Diagnostics kept, oldest first. */
  diagnostics(): Diagnostic[] {
    const r = slots.get(this, "diagnostics");
    return guard(() => r.diagnostics() as Diagnostic[]);
  }
  /** Input requests still open that wait for the user. */
  pendingInputs(): InputRequest[] {
    const r = slots.get(this, "pendingInputs");
    return guard(() => r.pendingInputs() as InputRequest[]);
  }
  /** Auth requests still open. */
  pendingAuths(): AuthRequest[] {
    const r = slots.get(this, "pendingAuths");
    return guard(() => r.pendingAuths() as AuthRequest[]);
  }
  /** The raw events kept in the debug ring (`rawLogEvents`), redacted. */
  rawEvents(): { position: number; raw: string }[] {
    const r = slots.get(this, "rawEvents");
    return guard(() => r.rawEvents());
  }
  /** The whole state as JSON text (debugging, golden tests). */
  stateJson(): string {
    const r = slots.get(this, "stateJson");
    return guard(() => r.stateJson());
  }
  /** Closes the store: listeners removed, later feeds refused with `closed` (idempotent). */
  close(): void {
    const r = slots.get(this, "close");
    guard(() => r.close());
  }
  /** Releases the store's memory now (later calls throw). */
  free(): void {
    const r = slots.get(this, "free");
    guard(() => r.free());
  }
  [Symbol.dispose](): void {
    this.close();
  }
  /** The SSE last event id (send it as `Last-Event-ID` to resume). */
  get lastEventId(): string {
    const r = slots.get(this, "lastEventId");
    return guard(() => r.lastEventId);
  }
  /** The server's `retry:` reconnection time in ms, if it sent one. */
  get retry(): number | undefined {
    const r = slots.get(this, "retry");
    return guard(() => r.retry);
  }
  /** Changes exactly when visible state changed. */
  get version(): number {
    const r = slots.get(this, "version");
    return guard(() => r.version);
  }
  /** Listeners plus event handlers registered (leak checks). */
  get listenerCount(): number {
    const r = slots.get(this, "listenerCount");
    return guard(() => r.listenerCount);
  }
}
