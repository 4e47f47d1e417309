// Feeds every recording in tests/recordings/a2a1/ to the OFFICIAL A2A v1.0 JS client
// (@a2a-js/sdk 1.3.0, `@a2a-js/sdk/client`) and writes what it makes of the same bytes to
// <dir>/official.json — the ground truth agentwire's Rust tests compare against.
//
//   node tests/a2a1/official.mjs [tests/recordings/a2a1]
//
// Per exchange NN-<what> a fresh Client is built with the SDK's own ClientFactory from the
// server's recorded agent card (<server>-card/01-card.body), preferring the recording's binding
// (JSONRPC or HTTP+JSON), with `fetchImpl` replaced (JsonRpcTransportFactory /
// RestTransportFactory option) by one that answers with the recorded status, headers and body
// bytes. The call matching the recorded request is made (sendMessageStream, resubscribeTask,
// cancelTask, getTask) and everything it yields / returns / throws is collected. A fresh client
// per exchange because the JSON-RPC transport numbers requests from 1 and rejects a response
// whose id differs (the recordings all use id 1).
//
// Folding into final state: the SDK's own ResultManager (exported from @a2a-js/sdk/server; the
// server-side aggregator the DefaultRequestHandler uses to build the stored Task from the very
// same events), over one InMemoryTaskStore per recording directory. Neither official client
// (JS 1.3.0 nor Python 1.3.0) ships a client-side task aggregator. Each yielded StreamResponse is
// fed as the matching AgentEvent; a Task returned by cancelTask/getTask is fed as a `task` event.
// ResultManager semantics worth knowing: a `task` event replaces status/history (artifacts merged
// by id); a status update replaces the status and APPENDS status.message to history (unless a
// message with that messageId is already there) and merges event metadata into task.metadata;
// an artifact update with append=true appends parts to the artifact with the same id (name /
// description / metadata overwritten when given), append=false replaces or adds it; updates for
// a task it has not seen are ignored.
//
// official.json: {"client": "@a2a-js/sdk@1.3.0", "binding", "events": [{exchange, file, call,
// request, yielded: [StreamResponse JSON...], result?, error?}], "tasks": {"<taskId>": {state,
// statusMessage, artifacts, history, metadata}}, "messages": [...], "errors": [{exchange, code,
// message, reason, ...}]}. Everything is in v1.0 JSON form (the SDK's toJSON).

import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

// The SDK is installed in tests/a2a1/js/node_modules (npm ci there); load its CommonJS builds
// from there (one module instance for every import).
const require = createRequire(path.join(path.dirname(fileURLToPath(import.meta.url)), 'js', 'package.json'));
const { Message, Part, SendMessageRequest, StreamResponse, Task, taskStateToJSON } = require('@a2a-js/sdk');
const { ClientFactory, JsonRpcTransportFactory, RestTransportFactory } = require('@a2a-js/sdk/client');
const { InMemoryTaskStore, ResultManager, ServerCallContext } = require('@a2a-js/sdk/server');
const SDK_VERSION = JSON.parse(
  fs.readFileSync(path.join(path.dirname(require.resolve('@a2a-js/sdk')), '..', 'package.json'), 'utf8'),
).version;
const ROOT = process.argv[2] ?? 'tests/recordings/a2a1';

function loadExchanges(dir) {
  const names = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.req.json'))
    .map((f) => f.slice(0, -'.req.json'.length))
    .sort();
  return names.map((name) => ({
    name,
    n: Number(name.slice(0, 2)),
    req: JSON.parse(fs.readFileSync(path.join(dir, `${name}.req.json`), 'utf8')),
    res: JSON.parse(fs.readFileSync(path.join(dir, `${name}.res.json`), 'utf8')),
    body: fs.readFileSync(path.join(dir, `${name}.body`)),
  }));
}

// Which client call the recorded request corresponds to, and its (internal) params.
function callFor(binding, req) {
  const msgParams = (b) => {
    const m = b?.message;
    const v1 = m && m.kind === 'message' // a v0.3 body (the v0.3 REST path probe): same text, v1 shape
      ? { messageId: m.messageId, role: 'ROLE_USER', parts: [{ text: m.parts?.[0]?.text ?? '' }] }
      : m;
    return SendMessageRequest.fromJSON({ ...b, message: v1 });
  };
  if (binding === 'jsonrpc') {
    const { method, params } = req.body;
    switch (method) {
      case 'SubscribeToTask':
        return { call: 'resubscribeTask', params: { id: params.id, tenant: params.tenant ?? '' } };
      case 'CancelTask':
        return { call: 'cancelTask', params: { id: params.id, tenant: params.tenant ?? '', metadata: undefined } };
      case 'GetTask':
        return { call: 'getTask', params: { id: params.id, tenant: params.tenant ?? '' } };
      default: // SendStreamingMessage, and the v0.3 'message/stream' probe
        return { call: 'sendMessageStream', params: msgParams(params) };
    }
  }
  const p = req.path.replace(/^.*\/a2a\/rest/, '');
  let m;
  if ((m = p.match(/\/tasks\/([^/]+):subscribe$/))) return { call: 'resubscribeTask', params: { id: decodeURIComponent(m[1]), tenant: '' } };
  if ((m = p.match(/\/tasks\/([^/]+):cancel$/))) return { call: 'cancelTask', params: { id: decodeURIComponent(m[1]), tenant: '', metadata: undefined } };
  if ((m = p.match(/\/tasks\/([^/:]+)$/))) return { call: 'getTask', params: { id: decodeURIComponent(m[1]), tenant: '' } };
  return { call: 'sendMessageStream', params: msgParams(req.body) };
}

// Everything an error carries (own fields, ErrorInfo, cause chain).
function errorJson(e, depth = 0) {
  if (!(e instanceof Error)) return { thrown: String(e) };
  const out = { name: e.name, message: e.message };
  for (const [k, v] of Object.entries(e)) {
    if (k === 'headers') continue;
    if (v !== undefined && typeof v !== 'function') out[k] = v;
  }
  if (typeof e.toErrorInfo === 'function') out.errorInfo = e.toErrorInfo();
  if (e.cause && depth < 3) out.cause = errorJson(e.cause, depth + 1);
  return out;
}

const streamJson = (ev) => StreamResponse.toJSON(ev);
const textOf = (msg) => {
  const t = (msg?.parts ?? []).filter((p) => p.content?.$case === 'text').map((p) => p.content.value);
  return t.length ? t.join('') : null;
};

async function replayDir(dir, card) {
  const base = path.basename(dir);
  const binding = base.split('-')[1];
  const store = new InMemoryTaskStore();
  const context = new ServerCallContext();
  const fold = new ResultManager(store, context);
  const seenTasks = [];
  const out = { client: `@a2a-js/sdk@${SDK_VERSION}`, binding, events: [], tasks: {}, messages: [], errors: [] };
  const feed = async (kind, data) => {
    const id = kind === 'task' ? data.id : data.taskId;
    if (id && !seenTasks.includes(id)) seenTasks.push(id);
    await fold.processEvent({ kind, data });
  };

  for (const x of loadExchanges(dir)) {
    const sent = [];
    const fetchImpl = async (url, init) => {
      sent.push({ url: String(url), method: init?.method, headers: init?.headers, body: init?.body ? JSON.parse(init.body) : null });
      const headers = new Headers();
      for (const [k, v] of x.res.rawHeaders ?? []) headers.append(k, v);
      return new Response(x.res.status === 204 || x.res.status === 304 ? null : x.body, {
        status: x.res.status,
        statusText: x.res.statusText ?? '',
        headers,
      });
    };
    const factory = new ClientFactory({
      transports: [new JsonRpcTransportFactory({ fetchImpl }), new RestTransportFactory({ fetchImpl })],
      preferredTransports: [binding === 'jsonrpc' ? 'JSONRPC' : 'HTTP+JSON'],
    });
    const client = await factory.createFromAgentCard(structuredClone(card));
    const { call, params } = callFor(binding, x.req);
    const ev = { exchange: x.n, file: x.name, call, request: null };
    if (x.res.aborted) ev.recordingAborted = true;
    try {
      if (call === 'sendMessageStream' || call === 'resubscribeTask') {
        ev.yielded = [];
        for await (const r of client[call](params)) {
          ev.yielded.push(streamJson(r));
          const c = r.payload?.$case;
          if (c === 'message') out.messages.push(Message.toJSON(r.payload.value));
          else if (c) await feed(c, r.payload.value);
        }
      } else {
        const task = await client[call](params);
        ev.result = Task.toJSON(task);
        await feed('task', task);
      }
    } catch (e) {
      ev.error = errorJson(e);
      const inner = e?.cause && !('reason' in e && e.reason !== 'INTERNAL_ERROR') ? e.cause : e;
      const src = 'envelopeCode' in (inner ?? {}) || 'statusCode' in (inner ?? {}) ? inner : e;
      out.errors.push({
        exchange: x.n,
        name: src.name,
        code: src.envelopeCode ?? src.statusCode ?? null,
        ...(src.statusCode !== undefined ? { httpStatus: src.statusCode } : {}),
        message: e.message,
        reason: src.reason ?? null,
      });
    }
    ev.request = sent[0] ?? null;
    out.events.push(ev);
  }
  for (const id of seenTasks) {
    const t = await store.load(id, context);
    if (!t) continue;
    out.tasks[id] = {
      contextId: t.contextId,
      state: t.status ? taskStateToJSON(t.status.state) : null,
      statusMessage: textOf(t.status?.message),
      artifacts: (t.artifacts ?? []).map((a) => ({
        artifactId: a.artifactId,
        name: a.name || null,
        ...(a.description ? { description: a.description } : {}),
        parts: a.parts.map((p) => Part.toJSON(p)),
        ...(a.metadata ? { metadata: a.metadata } : {}),
      })),
      history: (t.history ?? []).map((m) => Message.toJSON(m)),
      ...(t.metadata && Object.keys(t.metadata).length ? { metadata: t.metadata } : {}),
    };
  }
  return out;
}

// JSON indented down to depth 3, each deeper value on one line (an event, a part, a message).
function pretty(v, depth = 0) {
  if (v === null || typeof v !== 'object' || depth >= 4) return JSON.stringify(v);
  const pad = '  '.repeat(depth + 1);
  const end = '  '.repeat(depth);
  if (Array.isArray(v)) {
    return v.length ? `[\n${v.map((x) => pad + pretty(x, depth + 1)).join(',\n')}\n${end}]` : '[]';
  }
  const keys = Object.keys(v).filter((k) => v[k] !== undefined);
  return keys.length
    ? `{\n${keys.map((k) => `${pad}${JSON.stringify(k)}: ${pretty(v[k], depth + 1)}`).join(',\n')}\n${end}}`
    : '{}';
}

const dirs = fs
  .readdirSync(ROOT, { withFileTypes: true })
  .filter((d) => d.isDirectory() && !d.name.endsWith('-card'))
  .map((d) => d.name)
  .sort();
let failures = 0;
for (const name of dirs) {
  const server = name.split('-')[0];
  const card = JSON.parse(fs.readFileSync(path.join(ROOT, `${server}-card`, '01-card.body'), 'utf8'));
  try {
    const out = await replayDir(path.join(ROOT, name), card);
    fs.writeFileSync(path.join(ROOT, name, 'official.json'), pretty(out) + '\n');
    const summary = Object.values(out.tasks).map((t) => t.state.replace('TASK_STATE_', '')).join(',');
    console.error(`${name}: ${out.events.length} exchanges, tasks [${summary}], ${out.messages.length} messages, ${out.errors.length} errors`);
  } catch (e) {
    failures++;
    console.error(`${name}: ${e.stack ?? e}`);
  }
}
process.exitCode = failures ? 1 : 0;
