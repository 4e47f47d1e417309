// Argument checks at the boundary to the wasm (wasm-bindgen's release glue checks neither the
// types of arguments nor the class of `this`: a non-string handed to a string parameter made
// the allocator read memory it never allocated). Each failure is an `invalid-argument`
// AgentwireError.
import { AgentwireError, argError } from "./errors.js";

const describe = (v: unknown): string =>
  v === null ? "null" : Array.isArray(v) ? "an array" : typeof v === "object" ? Object.prototype.toString.call(v) : typeof v;

/** `v` when it is a string. */
export function str(v: unknown, name: string): string {
  if (typeof v !== "string") throw argError(`${name} must be a string, got ${describe(v)}`, name);
  return v;
}

/** `v` when it is a string or absent. */
export function optStr(v: unknown, name: string): string | undefined {
  return v === undefined || v === null ? undefined : str(v, name);
}

/** `v` when it is a function. */
export function fn<F>(v: F, name: string): F {
  if (typeof v !== "function") throw argError(`${name} must be a function, got ${describe(v)}`, name);
  return v;
}

/** `v` when it is a plain object (or absent: `{}`). */
export function obj(v: unknown, name: string): Record<string, unknown> {
  if (v === undefined || v === null) return {};
  if (typeof v !== "object" || Array.isArray(v)) throw argError(`${name} must be an object, got ${describe(v)}`, name);
  return v as Record<string, unknown>;
}

/** A Uint8Array over `v`'s bytes: a Uint8Array, a one-byte typed array, a DataView, an
 * ArrayBuffer (or SharedArrayBuffer), or an array of byte values (each taken modulo 256). */
export function bytes(v: unknown): Uint8Array {
  if (v instanceof Uint8Array) return v;
  if (ArrayBuffer.isView(v) && (v instanceof DataView || (v as { BYTES_PER_ELEMENT?: number }).BYTES_PER_ELEMENT === 1)) {
    return new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
  }
  if (v instanceof ArrayBuffer || (typeof SharedArrayBuffer !== "undefined" && v instanceof SharedArrayBuffer)) {
    return new Uint8Array(v);
  }
  if (Array.isArray(v)) return Uint8Array.from(v as number[]);
  throw argError(`expected bytes (a Uint8Array), got ${typeof v === "string" ? "a string (use feedText)" : describe(v)}`, "chunk");
}

/** The `{ signal }` of a call: throws `aborted` when it is already aborted (nothing is sent). */
export function notAborted(options: { signal?: AbortSignal } | undefined, what: string): AbortSignal | undefined {
  const o = obj(options, "options");
  const s = o.signal;
  if (s === undefined || s === null) return undefined;
  if (typeof AbortSignal === "undefined" || !(s instanceof AbortSignal)) throw argError("options.signal must be an AbortSignal", "options.signal");
  if (s.aborted) throw new AgentwireError("aborted", `${what} was aborted before it was sent (nothing was sent)`, { cause: s.reason });
  return s;
}
