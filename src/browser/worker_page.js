// Worker mode, the page side: the engine behind `WorkerClient` (src/browser/worker.rs gives it
// its typed API; src/browser/worker_host.rs is the other end, inside the Worker).
//
// The page keeps a mirror of the Worker's state: task and artifact objects by position,
// diagnostics and pending requests, the version, the connection. The Worker sends at most one
// message per animation frame with what changed (UTF-8 JSON in a transferred ArrayBuffer,
// decoded and parsed once here) and the events the page's handlers subscribed to (filters run
// in the Worker). getSnapshot() is built from the mirror, only when the version changed.

function awError(code, message, props) {
  const e = new Error(message);
  e.name = "AgentwireError";
  e.code = code;
  if (props) Object.assign(e, props);
  return e;
}

function revive(data) {
  const e = new Error(data && data.message ? data.message : "the Worker failed");
  e.name = "AgentwireError";
  if (data && data.props) Object.assign(e, data.props);
  if (!e.code) e.code = "internal";
  return e;
}

function report(e) {
  if (typeof reportError === "function") reportError(e);
  else console.error(e);
}

/** Options that are functions or objects that cannot be cloned into the Worker. */
const PAGE_ONLY = ["responder", "coordinator"];

export class AwRemote {
  constructor(options) {
    const o = options === undefined || options === null ? {} : options;
    if (typeof o !== "object") throw awError("invalid-argument", "options must be an object");
    const sent = {};
    for (const [k, v] of Object.entries(o)) {
      if (k === "worker" || k === "signal") continue;
      if (PAGE_ONLY.includes(k) && v !== undefined) {
        throw awError("invalid-argument", `options.${k} is a function and cannot run in the Worker: use AgentClient for it`);
      }
      if (typeof v === "function") {
        throw awError("invalid-argument", `options.${k} is a function and cannot cross into the Worker`);
      }
      sent[k] = v;
    }
    const w = o.worker;
    // The default Worker (a function that makes it) comes from the package's TypeScript layer
    // (ts/src/worker.ts): the one module that names the Worker script, so that an app that never
    // uses WorkerClient has no Worker in its bundle's graph.
    if (!(typeof w === "function" || typeof w === "string" || w instanceof URL ||
      (typeof Worker !== "undefined" && w instanceof Worker))) {
      throw awError("invalid-argument", "options.worker must be a Worker, or the URL of agentwire-worker.js");
    }
    // The Worker starts with the first call that needs it (start(), an answer, feed): the
    // constructor does no I/O (under React's StrictMode a client made and closed at once never
    // loads a Worker). Until then subscriptions wait in the queue.
    this.workerSpec = w;
    this.w = null;
    this.queue = [];
    this.tasks = [];
    this.artifacts = [];
    this.diagnostics = [];
    this.pendingInputsList = [];
    this.pendingAuthsList = [];
    this.version = 0;
    this.snap = undefined;
    this.snapVersion = -1;
    this.listeners = new Map();
    this.handlers = new Map();
    this.connListeners = new Map();
    this.iterators = new Set();
    this.calls = new Map();
    this.nextId = 1;
    this.closed = false;
    this.dialectName = undefined;
    this.decoder = new TextDecoder();
    this.manual = o.transport === "manual";
    this.started = false;
    this.conn = Object.freeze({
      state: "idle",
      reason: "starting the Worker",
      attempt: 0,
    });
    const signal = o.signal;
    if (signal) {
      if (signal.aborted) queueMicrotask(() => this.close());
      else signal.addEventListener("abort", () => this.close(), { once: true });
    }
    this.post({ t: "init", o: sent });
  }

  /** Starts the Worker (once). */
  spawn() {
    if (this.w) return;
    let w = this.workerSpec;
    try {
      if (typeof w === "function") w = w();
      else if (typeof w === "string" || w instanceof URL) w = new Worker(w, { type: "module" });
    } catch (e) {
      throw awError("invalid-argument", `options.worker: ${(e && e.message) || e}`);
    }
    this.w = w;
    w.onmessage = (e) => this.receive(e.data);
    w.onerror = (e) => {
      if (e && typeof e.preventDefault === "function") e.preventDefault();
      const err = awError("internal", `the agentwire Worker failed: ${(e && e.message) || "it could not be loaded"}`);
      // Before `ready` the Worker did not load: nothing will ever answer. After it, this is an
      // exception the Worker reported (reportError) while it goes on working: report it, as
      // the main-thread client does, without failing a live connection.
      if (this.queue) this.fail(err);
      else report(err);
    };
    // The Worker says `ready` when it starts; one started earlier (a pool) answers this instead.
    w.postMessage({ t: "hello" });
  }

  post(m, transfer) {
    // Calls need the Worker; subscriptions wait for it.
    if (m.t === "call") this.spawn();
    if (this.queue) this.queue.push([m, transfer]);
    else this.w.postMessage(m, transfer || []);
  }

  receive(m) {
    switch (m && m.t) {
      case "ready": {
        if (!this.queue) break; // the second answer of a started Worker
        const q = this.queue;
        this.queue = null;
        for (const [x, tr] of q) this.w.postMessage(x, tr || []);
        break;
      }
      case "batch":
        this.apply(m);
        break;
      case "ret": {
        const c = this.calls.get(m.id);
        if (c) {
          this.calls.delete(m.id);
          if (m.ok) c.resolve(undefined);
          else c.reject(revive(m.e));
        }
        // Closed: the Worker ends once every call made before close() was answered.
        if (this.closed && this.calls.size === 0 && this.end) this.end();
        break;
      }
      case "fail":
        this.fail(revive(m.e));
        break;
      default:
    }
  }

  /** One batch from the Worker: state, then events (store order: handlers, then listeners). */
  apply(m) {
    let changed = false;
    let events;
    if (m.b) {
      const p = JSON.parse(this.decoder.decode(m.b));
      if (p.t) {
        for (const [i, o, mode, text] of p.t) {
          const prev = this.tasks[i];
          const before = prev === undefined ? "" : prev.content;
          o.content = mode === 1 ? text : mode === 2 ? before + text : before;
          this.tasks[i] = o;
        }
      }
      if (p.a) for (const [i, o] of p.a) this.artifacts[i] = o;
      if (p.d) this.diagnostics = p.d;
      if (p.pi) this.pendingInputsList = p.pi;
      if (p.pa) this.pendingAuthsList = p.pa;
      changed = p.v !== this.version;
      this.version = p.v;
      events = p.e;
    }
    if ("d" in m) this.dialectName = m.d;
    if (events) {
      // Runs: a list of subscription ids, then the events for them (objects).
      let ids = [];
      for (const x of events) {
        if (Array.isArray(x)) { ids = x; continue; }
        for (const id of ids) {
          const h = this.handlers.get(id);
          if (h !== undefined) {
            try { h(x); } catch (e) { report(e); }
          }
        }
      }
    }
    if (changed && this.listeners.size) {
      const snap = this.getSnapshot();
      for (const f of [...this.listeners.values()]) {
        try { f(snap); } catch (e) { report(e); }
      }
    }
    // The Worker's state from before start() (idle) does not undo the page's `connecting`.
    if (m.c && !(m.c.state === "idle" && this.conn.state !== "idle")) this.setConn(m.c);
  }

  setConn(c) {
    this.conn = Object.freeze({ ...c });
    for (const f of [...this.connListeners.values()]) {
      try { f(this.conn); } catch (e) { report(e); }
    }
  }

  fail(e) {
    if (this.closed) return;
    // The Worker is gone: later calls are refused at once instead of waiting for it.
    this.dead = e;
    for (const c of this.calls.values()) c.reject(e);
    this.calls.clear();
    if (this.conn.state !== "closed" && this.conn.state !== "failed") {
      this.setConn({ state: "failed", reason: e.message, code: e.code, attempt: this.conn.attempt });
    }
  }

  getSnapshot() {
    if (this.snap === undefined || this.snapVersion !== this.version) {
      const tasks = this.tasks.slice();
      this.snap = Object.freeze({
        version: this.version,
        tasks,
        roots: tasks.filter((t) => t.parentId === undefined),
        artifacts: this.artifacts.slice(),
        diagnostics: this.diagnostics,
        pendingInputs: this.pendingInputsList,
        pendingAuths: this.pendingAuthsList,
      });
      this.snapVersion = this.version;
    }
    return this.snap;
  }

  subscribe(listener) {
    if (typeof listener !== "function") throw awError("invalid-argument", "listener must be a function");
    if (this.closed) throw awError("closed", "this WorkerClient was closed");
    const id = this.nextId++;
    this.listeners.set(id, listener);
    // The caller gets no unsubscribe function when the first call throws: keep no listener.
    try { listener(this.getSnapshot()); } catch (e) { this.listeners.delete(id); throw e; }
    return () => { this.listeners.delete(id); };
  }

  addHandler(spec, handler) {
    if (typeof handler !== "function") throw awError("invalid-argument", "handler must be a function");
    if (this.closed) throw awError("closed", "this WorkerClient was closed");
    const id = this.nextId++;
    this.handlers.set(id, handler);
    this.post({ t: "sub", id, ...spec });
    return () => {
      if (this.handlers.delete(id) && !this.closed) this.post({ t: "unsub", id });
    };
  }

  on(kind, handler) {
    if (typeof kind !== "string") throw awError("invalid-argument", "kind must be a string");
    return this.addHandler({ kind }, handler);
  }

  onAny(handler) {
    return this.addHandler({ kind: "*" }, handler);
  }

  subscribeEvents(filter, handler) {
    return this.addHandler({ filter: filter === undefined || filter === null ? {} : filter }, handler);
  }

  events(options) {
    const o = options || {};
    const max = Math.max(1, o.maxBuffered ?? 10000);
    const queue = [];
    let waiting = null;
    let done = false;
    let error = null;
    let unsubscribe = () => {};
    const signal = o.signal;
    const finish = (e) => {
      if (done) return;
      done = true;
      queue.length = 0;
      if (e) error = e;
      unsubscribe();
      this.iterators.delete(finish);
      if (signal) signal.removeEventListener("abort", onAbort);
      if (waiting) {
        const w = waiting;
        waiting = null;
        if (error) { const x = error; error = null; w.reject(x); } else w.resolve({ value: undefined, done: true });
      }
    };
    const onAbort = () => finish();
    unsubscribe = this.subscribeEvents(o.filter, (ev) => {
      if (done) return;
      if (waiting) {
        const w = waiting;
        waiting = null;
        w.resolve({ value: ev, done: false });
        return;
      }
      queue.push(ev);
      if (queue.length > max) finish(awError("overflow", "the event iterator fell more than maxBuffered events behind"));
    });
    this.iterators.add(finish);
    if (signal) {
      if (signal.aborted) finish();
      else signal.addEventListener("abort", onAbort);
    }
    return {
      next() {
        if (queue.length) return Promise.resolve({ value: queue.shift(), done: false });
        if (error) { const x = error; error = null; return Promise.reject(x); }
        if (done) return Promise.resolve({ value: undefined, done: true });
        if (waiting) return Promise.reject(awError("invalid-state", "next() called again before the previous next() settled"));
        return new Promise((resolve, reject) => { waiting = { resolve, reject }; });
      },
      return() {
        finish();
        return Promise.resolve({ value: undefined, done: true });
      },
      [Symbol.asyncIterator]() { return this; },
    };
  }

  call(m, args) {
    if (this.closed) return Promise.reject(awError("closed", "this WorkerClient was closed"));
    if (this.dead) return Promise.reject(this.dead);
    return new Promise((resolve, reject) => {
      const id = this.nextId++;
      this.calls.set(id, { resolve, reject });
      this.post({ t: "call", id, m, a: args });
    });
  }

  /** Starts connecting in the Worker (idempotent); `connecting` at once, as on the main thread. */
  connect() {
    if (this.closed) throw awError("closed", "this WorkerClient was closed");
    if (this.started) return;
    this.started = true;
    if (this.dead) return; // failed already: the state says why
    this.spawn();
    if (!this.manual && this.conn.state === "idle") this.setConn({ state: "connecting", reason: "connecting", attempt: 0 });
    // A Worker that fails to load fails the connection (the state says why): nothing to report.
    this.call("connect", []).catch((e) => { if (!this.dead && !this.closed) report(e); });
  }

  /** Fire-and-forget calls (the Worker reports their errors). */
  send(m, args) {
    this.call(m, args).catch(report);
  }

  feed(chunk) {
    if (this.closed) throw awError("closed", "this WorkerClient was closed");
    if (!(chunk instanceof Uint8Array)) throw awError("invalid-argument", "feed() takes a Uint8Array");
    const copy = chunk.slice(); // a view of a larger buffer would be cloned whole
    this.post({ t: "call", id: 0, m: "feed", b: copy }, [copy.buffer]);
  }

  authRequest(authId) {
    for (const t of this.tasks) {
      for (const a of t.auths) if (a.id === authId) return a;
    }
    return undefined;
  }

  onConnectionChange(listener) {
    if (typeof listener !== "function") throw awError("invalid-argument", "listener must be a function");
    const id = this.nextId++;
    this.connListeners.set(id, listener);
    return () => { this.connListeners.delete(id); };
  }

  get connection() { return this.conn; }
  get dialect() { return this.dialectName; }
  get pendingInputs() { return this.pendingInputsList; }
  get pendingAuths() { return this.pendingAuthsList; }
  get listenerCount() { return this.listeners.size + this.handlers.size + this.connListeners.size; }

  close() {
    if (this.closed) return;
    if (!this.w) {
      // Never started: nothing runs anywhere.
      this.closed = true;
      for (const finish of [...this.iterators]) finish();
      this.listeners.clear();
      this.handlers.clear();
      this.setConn({ state: "closed", reason: "the client was closed", attempt: this.conn.attempt });
      this.connListeners.clear();
      return;
    }
    const w = this.w;
    const done = this.call("close", []);
    this.closed = true;
    for (const finish of [...this.iterators]) finish();
    this.listeners.clear();
    this.handlers.clear();
    if (this.conn.state !== "closed" && this.conn.state !== "failed") {
      this.setConn({ state: "closed", reason: "the client was closed", attempt: this.conn.attempt });
    }
    this.connListeners.clear();
    // The Worker ends once every pending call (answers sent before close(), the close itself)
    // settled, or after 5 s; calls still unanswered then are rejected, never left pending.
    let timer;
    this.end = () => {
      this.end = null;
      clearTimeout(timer);
      w.terminate();
      const e = awError("closed", "this WorkerClient was closed before the Worker answered");
      for (const c of this.calls.values()) c.reject(e);
      this.calls.clear();
    };
    timer = setTimeout(() => { if (this.end) this.end(); }, 5000);
    done.catch(() => { if (this.end) this.end(); }); // refused at once (a Worker that failed)
  }
}
