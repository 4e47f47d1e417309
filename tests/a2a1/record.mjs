// Records the exact wire of the official A2A v1.0 servers (tests/a2a1/js, tests/a2a1/py) running
// agentwire's test agent, over both bindings (JSON-RPC, HTTP+JSON/REST), into
// tests/recordings/a2a1/<server>-<binding>-<scenario>/ (plus <server>-card/ for the agent card).
//
//   node tests/a2a1/record.mjs --js http://127.0.0.1:P1 --py http://127.0.0.1:P2 [--out DIR]
//   (normally through tests/a2a1/record.sh, which starts both servers)
//
// Each exchange NN-<what> is three files:
//   NN-<what>.req.json  {method, path, headers, body}  what was sent (body: the JSON sent, exactly
//                       JSON.stringify(body) on the wire; null when none)
//   NN-<what>.body      the response body bytes exactly as received (not re-encoded)
//   NN-<what>.res.json  {status, statusText, headers (lowercased names), rawHeaders, events,
//                       aborted?, timedOut?} — `events` is how many SSE events the recorder saw;
//                       `aborted: true` when the recorder dropped the connection on purpose.
// Message ids are fixed (aw-<scenario>-<n>); task/context ids are the server's. JSON-RPC request
// ids are always 1 (so the official client, whose first request id is 1, accepts the replay).
// No dependencies beyond Node itself (node:http).

import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';

function arg(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && i + 1 < process.argv.length ? process.argv[i + 1] : fallback;
}
const SERVERS = { js: arg('js'), py: arg('py') };
const OUT = arg('out', 'tests/recordings/a2a1');
const ONLY = arg('only'); // optional: "js" or "py"
const STREAM_TIMEOUT_MS = 20000;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// ---- raw HTTP ---------------------------------------------------------------------------------

// Parses SSE from accumulated text: returns the data payloads (JSON-parsed when possible).
function sseEvents(text) {
  const out = [];
  for (const block of text.replace(/\r\n?/g, '\n').split('\n\n')) {
    const data = block
      .split('\n')
      .filter((l) => l.startsWith('data:'))
      .map((l) => l.slice(5).replace(/^ /, ''));
    if (!data.length) continue;
    const raw = data.join('\n');
    const type = block.split('\n').find((l) => l.startsWith('event:'))?.slice(6).trim();
    let json;
    try {
      json = JSON.parse(raw);
    } catch {
      json = undefined;
    }
    // only complete events (followed by a blank line) are returned by the split above, except
    // the last block: callers only count events once the terminating blank line has arrived.
    out.push({ type, raw, json });
  }
  return out;
}

// Starts one HTTP exchange. Returns a handle: wait(n) resolves when n complete SSE events have
// arrived (or the response ended), done resolves when the response ended or was aborted.
function start(base, req) {
  const url = new URL(req.path, base);
  const bodyText = req.body == null ? undefined : JSON.stringify(req.body);
  const headers = { ...req.headers };
  if (bodyText !== undefined) headers['Content-Length'] = Buffer.byteLength(bodyText);
  const chunks = [];
  const h = { res: null, aborted: false, timedOut: false, ended: false };
  let waiters = [];
  const completeEvents = () => {
    const text = Buffer.concat(chunks).toString('utf8').replace(/\r\n?/g, '\n');
    const cut = text.lastIndexOf('\n\n');
    return cut < 0 ? [] : sseEvents(text.slice(0, cut + 2));
  };
  const notify = () => {
    const n = completeEvents().length;
    waiters = waiters.filter((w) => {
      if (h.ended || n >= w.n) {
        w.resolve(n);
        return false;
      }
      return true;
    });
  };
  h.done = new Promise((resolve) => {
    const r = http.request(url, { method: req.method, headers }, (res) => {
      h.res = res;
      res.on('data', (c) => {
        chunks.push(c);
        notify();
      });
      const finish = () => {
        if (h.ended) return;
        h.ended = true;
        clearTimeout(timer);
        notify();
        resolve();
      };
      res.on('end', finish);
      res.on('close', finish);
      res.on('error', finish);
    });
    const timer = setTimeout(() => {
      h.timedOut = true;
      r.destroy();
    }, STREAM_TIMEOUT_MS);
    r.on('error', (e) => {
      if (!h.aborted && !h.timedOut) h.error = String(e);
      h.ended = true;
      clearTimeout(timer);
      notify();
      resolve();
    });
    h.abort = () => {
      h.aborted = true;
      r.destroy();
    };
    if (bodyText !== undefined) r.write(bodyText);
    r.end();
  });
  h.wait = (n) => new Promise((resolve) => {
    waiters.push({ n, resolve });
    notify();
  });
  h.events = () => completeEvents();
  h.bytes = () => Buffer.concat(chunks);
  return h;
}

// ---- bindings ----------------------------------------------------------------------------------

const V = { 'A2A-Version': '1.0' };
// Headers as the official JS client sends them (dist/client/index.js: JsonRpcTransport._fetchRpc,
// RestTransport._buildHeaders), plus A2A-Version (Client.withNormalizedHeaders → withA2AVersion).
const JSON_HDR = { 'Content-Type': 'application/json' };

const bindings = {
  jsonrpc: {
    rpc: (method, params, { version = true, accept = 'text/event-stream' } = {}) => ({
      method: 'POST',
      path: '/a2a/jsonrpc',
      headers: { ...JSON_HDR, Accept: accept, ...(version ? V : {}) },
      body: { jsonrpc: '2.0', id: 1, method, params },
    }),
    stream(message, opts) {
      return this.rpc('SendStreamingMessage', { message }, opts);
    },
    subscribe(id) {
      return this.rpc('SubscribeToTask', { id });
    },
    cancel(id) {
      return this.rpc('CancelTask', { id }, { accept: 'application/json' });
    },
    get(id) {
      return this.rpc('GetTask', { id }, { accept: 'application/json' });
    },
    legacy(message) {
      return {
        method: 'POST',
        path: '/a2a/jsonrpc',
        headers: { ...JSON_HDR, Accept: 'text/event-stream', ...V },
        body: { jsonrpc: '2.0', id: 1, method: 'message/stream', params: { message } },
      };
    },
  },
  rest: {
    req: (method, p, body, { version = true, accept = 'text/event-stream' } = {}) => ({
      method,
      path: `/a2a/rest${p}`,
      headers: { ...JSON_HDR, Accept: accept, ...(version ? V : {}) },
      body: body ?? null,
    }),
    stream(message, opts) {
      return this.req('POST', '/message:stream', { message }, opts);
    },
    subscribe(id, method = 'POST') {
      return this.req(method, `/tasks/${encodeURIComponent(id)}:subscribe`);
    },
    cancel(id) {
      return this.req('POST', `/tasks/${encodeURIComponent(id)}:cancel`, null, {
        accept: 'application/a2a+json, application/json',
      });
    },
    get(id) {
      return this.req('GET', `/tasks/${encodeURIComponent(id)}`, null, {
        accept: 'application/a2a+json, application/json',
      });
    },
    legacy(message) {
      // what a v0.3 HTTP+JSON client would send (v0.3 path /v1/message:stream, v0.3 body, no
      // A2A-Version header)
      return {
        method: 'POST',
        path: '/a2a/rest/v1/message:stream',
        headers: { ...JSON_HDR, Accept: 'text/event-stream' },
        body: { message: { kind: 'message', role: 'user', messageId: message.messageId, parts: [{ kind: 'text', text: message.parts[0].text }] } },
      };
    },
  },
};

const user = (id, text, task) => ({
  messageId: id,
  role: 'ROLE_USER',
  parts: [typeof text === 'string' ? { text } : text],
  ...(task ? { taskId: task.taskId, contextId: task.contextId } : {}),
});

// The first task/context ids seen in a stream's events.
function idsOf(h) {
  for (const e of h.events()) {
    const r = e.json?.result ?? e.json;
    const t = r?.task;
    if (t?.id) return { taskId: t.id, contextId: t.contextId };
    const u = r?.statusUpdate ?? r?.artifactUpdate;
    if (u?.taskId) return { taskId: u.taskId, contextId: u.contextId };
  }
  return undefined;
}

// ---- a recording session (one directory) -------------------------------------------------------

class Session {
  constructor(server, dir) {
    this.base = SERVERS[server];
    this.dir = path.join(OUT, dir);
    this.n = 0;
    this.pending = [];
    fs.rmSync(this.dir, { recursive: true, force: true });
    fs.mkdirSync(this.dir, { recursive: true });
  }
  // Starts an exchange; its files are written when it ends.
  open(what, req) {
    const nn = String(++this.n).padStart(2, '0');
    const h = start(this.base, req);
    const file = path.join(this.dir, `${nn}-${what}`);
    fs.writeFileSync(`${file}.req.json`, JSON.stringify(req, null, 2) + '\n');
    const written = h.done.then(() => {
      const res = h.res;
      fs.writeFileSync(`${file}.body`, h.bytes());
      const meta = {
        status: res?.statusCode ?? null,
        statusText: res?.statusMessage ?? null,
        headers: res ? { ...res.headers } : {},
        rawHeaders: res ? pairs(res.rawHeaders) : [],
        events: h.events().length,
      };
      if (h.aborted) meta.aborted = true;
      if (h.timedOut) meta.timedOut = true;
      if (h.error) meta.error = h.error;
      fs.writeFileSync(`${file}.res.json`, JSON.stringify(meta, null, 2) + '\n');
    });
    this.pending.push(written);
    h.written = written;
    return h;
  }
  // Runs an exchange to its end.
  async run(what, req) {
    const h = this.open(what, req);
    await h.written;
    return h;
  }
  async close() {
    await Promise.all(this.pending);
  }
}
const pairs = (raw) => raw.reduce((acc, v, i) => (i % 2 ? acc[acc.length - 1].push(v) : acc.push([v]), acc), []);

// ---- scenarios ---------------------------------------------------------------------------------

const scenarios = {
  async report(s, b) {
    const h = await s.run('stream', b.stream(user('aw-report-1', 'Write the report')));
    const ids = idsOf(h);
    await s.run('answer-stream', b.stream(user('aw-report-2', 'approve', ids)));
  },
  async auth(s, b) {
    const h = await s.run('stream', b.stream(user('aw-auth-1', 'Write the report, then sign in (auth)')));
    const ids = idsOf(h);
    await s.run('answer-stream', b.stream(user('aw-auth-2', 'approve', ids)));
    await s.run('auth-stream', b.stream(user('aw-auth-3', { data: { userId: 'octocat' } }, ids)));
  },
  async fail(s, b) {
    await s.run('stream', b.stream(user('aw-fail-1', 'please fail')));
  },
  async cancel(s, b) {
    const h = s.open('stream', b.stream(user('aw-cancel-1', 'slow job, cancel me')));
    await h.wait(4);
    const ids = idsOf(h);
    await s.run('cancel', b.cancel(ids.taskId));
    await h.written;
    await s.run('get', b.get(ids.taskId));
  },
  async resubscribe(s, b) {
    const h = s.open('stream', b.stream(user('aw-resub-1', 'slow job')));
    await h.wait(3);
    const ids = idsOf(h);
    h.abort();
    await h.written;
    await sleep(120);
    const sub = s.open('subscribe', b.subscribe(ids.taskId));
    await sub.wait(3);
    await s.run('cancel', b.cancel(ids.taskId));
    await Promise.race([sub.written, sleep(3000).then(() => sub.abort())]);
    await sub.written;
  },
  async 'resubscribe-completed'(s, b, binding) {
    const h = await s.run('stream', b.stream(user('aw-done-1', 'Write the report')));
    const ids = idsOf(h);
    await s.run('answer-stream', b.stream(user('aw-done-2', 'deny', ids)));
    await s.run('subscribe', b.subscribe(ids.taskId));
    if (binding === 'rest') await s.run('subscribe-get', b.subscribe(ids.taskId, 'GET'));
    await s.run('get', b.get(ids.taskId));
    await s.run('answer-completed', b.stream(user('aw-done-3', 'approve', ids)));
  },
  // SubscribeToTask on a task parked in input-required: what is sent first, whether the stream
  // stays open with nothing to say, and the keep-alive (sse-starlette pings every 15 s). Held
  // 16.5 s, then dropped by the recorder (res.json aborted: true) unless the server closes first.
  async 'subscribe-idle'(s, b) {
    const h = await s.run('stream', b.stream(user('aw-idle-1', 'Write the report')));
    const ids = idsOf(h);
    const sub = s.open('subscribe', b.subscribe(ids.taskId));
    await Promise.race([sub.written, sleep(16500).then(() => sub.abort())]);
    await sub.written;
  },
  async message(s, b) {
    await s.run('stream', b.stream(user('aw-message-1', 'Just send a message')));
  },
  async crash(s, b) {
    await s.run('stream', b.stream(user('aw-crash-1', 'crash now')));
  },
  async 'crash-later'(s, b) {
    const h = await s.run('stream', b.stream(user('aw-crash-later-1', 'crash later')));
    const ids = idsOf(h);
    await sleep(100);
    if (ids) await s.run('get', b.get(ids.taskId));
  },
  async tenant(s, b, binding) {
    const m = user('aw-tenant-1', 'Just send a message');
    if (binding === 'jsonrpc') {
      await s.run('stream-params-tenant', b.rpc('SendStreamingMessage', { tenant: 'acme', message: m }));
    } else {
      const r = b.stream(m);
      await s.run('stream-tenant-after-base', { ...r, path: '/a2a/rest/acme/message:stream' });
      await s.run('stream-tenant-before-base', { ...r, path: '/acme/a2a/rest/message:stream' });
    }
  },
  async errors(s, b) {
    await s.run('get-unknown', b.get('no-such-task'));
    await s.run('subscribe-unknown', b.subscribe('no-such-task'));
    await s.run('cancel-unknown', b.cancel('no-such-task'));
    await s.run('stream-no-version', b.stream(user('aw-errors-1', 'Just send a message'), { version: false }));
    await s.run('stream-v03-method', b.legacy(user('aw-errors-2', 'Just send a message')));
    await s.run('answer-unknown-task', b.stream(user('aw-errors-3', 'approve', { taskId: 'no-such-task', contextId: 'no-such-context' })));
  },
};

async function main() {
  for (const [server, base] of Object.entries(SERVERS)) {
    if (!base || (ONLY && ONLY !== server)) continue;
    const card = new Session(server, `${server}-card`);
    await card.run('card', { method: 'GET', path: '/.well-known/agent-card.json', headers: { Accept: 'application/json' }, body: null });
    await card.close();
    for (const binding of ['jsonrpc', 'rest']) {
      for (const [name, fn] of Object.entries(scenarios)) {
        const s = new Session(server, `${server}-${binding}-${name}`);
        try {
          await fn(s, bindings[binding], binding);
        } catch (e) {
          console.error(`${server}-${binding}-${name}: ${e.stack ?? e}`);
          process.exitCode = 1;
        }
        await s.close();
        process.stderr.write(`recorded ${s.dir} (${s.n} exchanges)\n`);
      }
    }
  }
}
await main();
