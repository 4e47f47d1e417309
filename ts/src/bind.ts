// Bound methods and brand checks: every public method works unbound
// (`const { subscribe, getSnapshot } = client`), and a prototype method called on an object of
// another class is an `invalid-argument` error instead of reaching the wasm.
import { argError } from "./errors.js";

/** Binds every method of `proto` (and its ancestors up to Object) onto `self` as an own,
 * non-enumerable property. */
export function bindAll(self: object, proto: object): void {
  for (let p: object | null = proto; p && p !== Object.prototype; p = Object.getPrototypeOf(p)) {
    for (const key of Reflect.ownKeys(p)) {
      if (key === "constructor" || Object.prototype.hasOwnProperty.call(self, key)) continue;
      const d = Object.getOwnPropertyDescriptor(p, key);
      if (!d || typeof d.value !== "function") continue;
      Object.defineProperty(self, key, { value: (d.value as (...a: unknown[]) => unknown).bind(self), writable: true, configurable: true, enumerable: false });
    }
  }
}

/** A private slot per class: `get(this)` is the instance's internals, or an
 * `invalid-argument` error when `this` is not an instance. */
export class Slots<T> {
  readonly #map = new WeakMap<object, T>();
  readonly #cls: string;
  constructor(cls: string) {
    this.#cls = cls;
  }
  set(self: object, v: T): void {
    this.#map.set(self, v);
  }
  get(self: unknown, method: string): T {
    const v = typeof self === "object" && self !== null ? this.#map.get(self) : undefined;
    if (v === undefined) {
      throw argError(
        `${this.#cls}.${method} called on ${self == null ? String(self) : `an object that is not an ${this.#cls}`}: call it on its object (every method is bound to it)`,
      );
    }
    return v;
  }
}
