// StreamDecoder: SSE bytes to canonical events and diagnostics, without state.
import type { AgentEvent, Diagnostic } from "./types.js";
import type { Limits } from "./options.js";
import { flatten } from "./options.js";
import { RawDecoder } from "./raw.js";
import { guard } from "./errors.js";
import { bindAll, Slots } from "./bind.js";
import { bytes, str } from "./args.js";
import type { Bytes } from "./store.js";

/** One item from `StreamDecoder.feed`: a canonical event, or a diagnostic. */
export type Decoded = { event: AgentEvent; id?: string } | { diagnostic: Diagnostic };

/** Options of `new StreamDecoder(options)`. */
export interface StreamDecoderOptions {
  /** `maxLineBytes` and `maxEventBytes` bound the decoder's memory. */
  limits?: Pick<Limits, "maxLineBytes" | "maxEventBytes">;
  /** Member names redacted in diagnostics' `raw` (see `AgentStoreOptions.redactKeys`). */
  redactKeys?: string[];
}

const slots = new Slots<RawDecoder>("StreamDecoder");

/**
 * Parses and validates an SSE byte stream into canonical events, without keeping state.
 *
 * ```ts
 * const dec = new StreamDecoder();
 * for (const item of dec.feed(bytes)) if ("event" in item) console.log(item.event.kind);
 * ```
 */
export class StreamDecoder {
  constructor(options?: StreamDecoderOptions) {
    const flat = flatten(options);
    slots.set(this, guard(() => new RawDecoder(flat)));
    bindAll(this, StreamDecoder.prototype);
  }
  /** Feeds the next bytes; returns the events and diagnostics they completed, in order. */
  feed(chunk: Bytes): Decoded[] {
    const r = slots.get(this, "feed");
    const b = bytes(chunk);
    return guard(() => r.feed(b) as Decoded[]);
  }
  /** End of stream: discards an unterminated event. */
  finish(): void {
    const r = slots.get(this, "finish");
    guard(() => r.finish());
  }
  /** Releases the decoder's memory now (it cannot be used after). */
  free(): void {
    const r = slots.get(this, "free");
    guard(() => r.free());
  }
  [Symbol.dispose](): void {
    this.free();
  }
  /** The SSE last event id. */
  get lastEventId(): string {
    const r = slots.get(this, "lastEventId");
    return guard(() => r.lastEventId);
  }
  set lastEventId(id: string) {
    const r = slots.get(this, "lastEventId");
    str(id, "lastEventId");
    guard(() => {
      r.lastEventId = id;
    });
  }
}
