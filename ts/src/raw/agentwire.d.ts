// The shape of wasm-bindgen's generated bindings (the private "raw" module) as this layer uses
// them. The build puts the generated glue at `raw/agentwire.js` next to the compiled layer;
// only ts/src/raw.ts imports it.
type Fn = (...args: never[]) => unknown;
type Unsubscribe = () => void;

export class AgentStore {
  constructor(options?: Record<string, unknown>);
  free(): void;
  advanceClock(nowMs: number): void;
  artifactBytes(id: string): Uint8Array | undefined;
  artifactRows(id: string): Record<string, unknown>[] | undefined;
  artifactText(id: string): string | undefined;
  artifact(id: string): unknown;
  close(): void;
  diagnostics(): unknown[];
  feedText(text: string): void;
  feed(chunk: Uint8Array): void;
  finish(): void;
  getSnapshot(): unknown;
  onAny(handler: Fn): Unsubscribe;
  on(kind: string, handler: Fn): Unsubscribe;
  pendingAuths(): unknown[];
  pendingInputs(): unknown[];
  pushEvent(event: unknown): void;
  rawEvents(): { position: number; raw: string }[];
  resetStream(): void;
  stateJson(): string;
  subscribeEvents(filter: unknown, handler: Fn): Unsubscribe;
  subscribe(listener: Fn): Unsubscribe;
  task(id: string): unknown;
  readonly lastEventId: string;
  readonly listenerCount: number;
  readonly retry: number | undefined;
  readonly version: number;
}

export interface RawEventStream {
  next(): Promise<IteratorResult<unknown, undefined>>;
  return(): Promise<IteratorResult<unknown, undefined>>;
}

interface RawConnection {
  free(): void;
  connect(): void;
  close(): void;
  getSnapshot(): unknown;
  subscribe(listener: Fn): Unsubscribe;
  on(kind: string, handler: Fn): Unsubscribe;
  onAny(handler: Fn): Unsubscribe;
  onConnectionChange(listener: Fn): Unsubscribe;
  pendingInputs(): unknown[];
  pendingAuths(): unknown[];
  respond(inputId: string, value: unknown): Promise<void>;
  approve(inputId: string): Promise<void>;
  deny(inputId: string, reason?: string): Promise<void>;
  select(inputId: string, option: unknown): Promise<void>;
  answer(inputId: string, text: string): Promise<void>;
  completeAuth(authId: string, details: unknown): Promise<void>;
  cancel(taskId: string): Promise<void>;
  sendMessage(text: string, options?: unknown): Promise<void>;
  send(message: unknown): void;
  authUrl(authId: string): string;
  openAuth(authId: string): void;
  events(options: unknown): RawEventStream;
  readonly connection: unknown;
  readonly dialect: string | undefined;
  readonly listenerCount: number;
}

export class AgentClient implements RawConnection {
  constructor(options: Record<string, unknown>);
  free(): void;
  connect(): void;
  close(): void;
  getSnapshot(): unknown;
  subscribe(listener: Fn): Unsubscribe;
  on(kind: string, handler: Fn): Unsubscribe;
  onAny(handler: Fn): Unsubscribe;
  onConnectionChange(listener: Fn): Unsubscribe;
  pendingInputs(): unknown[];
  pendingAuths(): unknown[];
  respond(inputId: string, value: unknown): Promise<void>;
  approve(inputId: string): Promise<void>;
  deny(inputId: string, reason?: string): Promise<void>;
  select(inputId: string, option: unknown): Promise<void>;
  answer(inputId: string, text: string): Promise<void>;
  completeAuth(authId: string, details: unknown): Promise<void>;
  cancel(taskId: string): Promise<void>;
  sendMessage(text: string, options?: unknown): Promise<void>;
  send(message: unknown): void;
  authUrl(authId: string): string;
  openAuth(authId: string): void;
  events(options: unknown): RawEventStream;
  readonly connection: unknown;
  readonly dialect: string | undefined;
  readonly listenerCount: number;
  readonly store: AgentStore;
}

export class WorkerClient implements RawConnection {
  constructor(options: Record<string, unknown>);
  free(): void;
  connect(): void;
  close(): void;
  getSnapshot(): unknown;
  subscribe(listener: Fn): Unsubscribe;
  on(kind: string, handler: Fn): Unsubscribe;
  onAny(handler: Fn): Unsubscribe;
  onConnectionChange(listener: Fn): Unsubscribe;
  subscribeEvents(filter: unknown, handler: Fn): Unsubscribe;
  pendingInputs(): unknown[];
  pendingAuths(): unknown[];
  respond(inputId: string, value: unknown): Promise<void>;
  approve(inputId: string): Promise<void>;
  deny(inputId: string, reason?: string): Promise<void>;
  select(inputId: string, option: unknown): Promise<void>;
  answer(inputId: string, text: string): Promise<void>;
  completeAuth(authId: string, details: unknown): Promise<void>;
  cancel(taskId: string): Promise<void>;
  sendMessage(text: string, options?: unknown): Promise<void>;
  send(message: unknown): void;
  authUrl(authId: string): string;
  openAuth(authId: string): void;
  events(options: unknown): RawEventStream;
  feed(chunk: Uint8Array): void;
  finish(): Promise<void>;
  flush(): Promise<void>;
  readonly connection: unknown;
  readonly dialect: string | undefined;
  readonly listenerCount: number;
}

export class StreamDecoder {
  constructor(options?: Record<string, unknown>);
  free(): void;
  feed(chunk: Uint8Array): unknown[];
  finish(): void;
  lastEventId: string;
}

/** Web build only: instantiates the wasm (fetches `agentwire_bg.wasm` next to the glue by default). */
export default function init(input?: unknown): Promise<unknown>;
/** Web build only: instantiates the wasm from its bytes or a compiled module. */
export function initSync(module: unknown): unknown;
