// The only way this app makes DOM. Agent output is untrusted: it always goes into the page as
// text (Text nodes / textContent), never as HTML. There is no innerHTML, outerHTML,
// insertAdjacentHTML or document.write anywhere in www-demo/src (scripts/demo-e2e.sh checks it),
// so a `<script>` or `onerror=` in an answer, a file or a tool result is shown, not run.

/** What `h` accepts as children: nodes, or values shown as text. */
export type Child = Node | string | number | null | undefined | false;

/** Attributes (set with setAttribute) and event listeners (`onclick: fn`). */
export type Attrs = Record<string, string | number | boolean | undefined | ((e: Event) => void)>;

/**
 * Creates an element: `h("li", { class: "tool" }, "name: ", tool.name)`.
 * Strings become Text nodes; `on*` keys must be functions (a string handler is refused).
 */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs?: Attrs | null,
  ...children: (Child | Child[])[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs ?? {})) {
    if (name.startsWith("on")) {
      if (typeof value !== "function") throw new Error(`h: ${name} must be a function`);
      el.addEventListener(name.slice(2), value);
    } else if (value === true) {
      el.setAttribute(name, "");
    } else if (value !== undefined && value !== false && typeof value !== "function") {
      el.setAttribute(name, String(value));
    }
  }
  append(el, children);
  return el;
}

/** Appends children (text for anything that is not a Node). */
export function append(parent: Node, children: (Child | Child[])[]): void {
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    parent.appendChild(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

/** Replaces all children. */
export function replace(parent: Node, ...children: (Child | Child[])[]): void {
  while (parent.firstChild) parent.removeChild(parent.firstChild);
  append(parent, children);
}

/** Sets text only when it changed (cheap to call on every render). */
export function setText(el: Node, text: string): void {
  if (el.textContent !== text) el.textContent = text;
}

/** Toggles the `hidden` attribute. */
export function show(el: HTMLElement, visible: boolean): void {
  if (el.hidden === visible) el.hidden = !visible;
}

/** The element with this id (the page's fixed skeleton, index.html). */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const el = document.getElementById(id);
  if (!el) throw new Error(`#${id} missing from index.html`);
  return el as T;
}

const keyed = new WeakMap<HTMLElement, Map<string, HTMLElement>>();

/**
 * Keeps `parent`'s children in step with `items`, one element per key: new keys are created,
 * existing ones updated in place (a button the user is about to click is never replaced),
 * missing ones removed, and the order follows `items`.
 */
export function syncList<T>(
  parent: HTMLElement,
  items: readonly T[],
  key: (item: T) => string,
  create: (item: T) => HTMLElement,
  update: (el: HTMLElement, item: T) => void = () => {},
): void {
  const before = keyed.get(parent) ?? new Map<string, HTMLElement>();
  const after = new Map<string, HTMLElement>();
  items.forEach((item, i) => {
    const k = key(item);
    let el = before.get(k);
    if (!el) el = create(item);
    update(el, item);
    after.set(k, el);
    if (parent.children[i] !== el) parent.insertBefore(el, parent.children[i] ?? null);
  });
  for (const [k, el] of before) if (!after.has(k)) el.remove();
  keyed.set(parent, after);
}

/** JSON for people: pretty-printed, `undefined` shown as an empty string. */
export function json(value: unknown, indent = 2): string {
  if (value === undefined) return "";
  try {
    return JSON.stringify(value, null, indent) ?? "";
  } catch {
    return String(value);
  }
}

/** "1.2 s", "350 ms". */
export function ms(value: number | undefined): string {
  if (value === undefined) return "";
  return value >= 1000 ? `${(value / 1000).toFixed(1)} s` : `${Math.round(value)} ms`;
}

/** "12.3 KB". */
export function bytes(n: number | undefined): string {
  if (n === undefined) return "?";
  return n >= 1024 ? `${(n / 1024).toFixed(1)} KB` : `${n} B`;
}
