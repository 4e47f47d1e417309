// The async iterator of `events()`: the wasm's (or the Worker's) iterator with its rejections
// as AgentwireErrors and a brand check on its methods.
import type { AgentEvent } from "./types.js";
import type { RawEventStream } from "./raw.js";
import { guardAsync } from "./errors.js";
import { Slots } from "./bind.js";

const slots = new Slots<RawEventStream>("EventStream");

/** What `events()` returns: `for await (const e of client.events()) …`. */
export class EventStream implements AsyncIterableIterator<AgentEvent> {
  /** @internal */
  constructor(raw: RawEventStream) {
    slots.set(this, raw);
  }
  /** The next event; `done` once the iterator ended (close, `signal`, `return()`). */
  next(): Promise<IteratorResult<AgentEvent, undefined>> {
    try {
      return guardAsync(slots.get(this, "next").next() as Promise<IteratorResult<AgentEvent, undefined>>);
    } catch (e) {
      return Promise.reject(e);
    }
  }
  /** Ends the iteration (unsubscribes). */
  return(): Promise<IteratorResult<AgentEvent, undefined>> {
    try {
      return guardAsync(slots.get(this, "return").return() as Promise<IteratorResult<AgentEvent, undefined>>);
    } catch (e) {
      return Promise.reject(e);
    }
  }
  [Symbol.asyncIterator](): this {
    return this;
  }
}
