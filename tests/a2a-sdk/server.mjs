// An A2A v0.3 agent built on the official @a2a-js/sdk (its DefaultRequestHandler, task store,
// event buses and JSON-RPC express handler), for agentwire's live interop tests.
//
//   node tests/a2a-sdk/server.mjs [--port 0] [--host 127.0.0.1] [--delay MS]
//
// prints exactly one line on stdout: "a2a-sdk listening on http://127.0.0.1:PORT".
// Agent card: GET /.well-known/agent-card.json; JSON-RPC: POST /a2a/jsonrpc
// (message/stream, tasks/resubscribe, tasks/cancel, tasks/get, message/send). CORS on every
// response (any origin; Last-Event-ID and Content-Type allowed). SIGINT/SIGTERM exit 0.
//
// What the agent does, by the first user message's text (case-insensitive):
// - contains "fail": a working status, a few answer chunks, then `failed` (final) with
//   `metadata.error` and a status message.
// - contains "slow" or "cancel": a long job (a working status every --delay*5 ms, 200 steps)
//   that tasks/cancel stops with a `canceled` final status; tasks/resubscribe follows it.
// - anything else: the task (submitted), `working`, the answer streamed as a text artifact
//   `answer` (append/lastChunk), a data artifact `summary` (two versions), a file artifact
//   `report.md` (base64 bytes in two chunks, append/lastChunk), then `input-required` (final)
//   asking "Publish the report?" with a data part {inputType: "confirmation", options:
//   ["approve", "deny"]}. A message with the same taskId answers it (text "approve"/"deny", or a
//   data part {value} / {approved}): with "auth" in the first prompt it then asks
//   `auth-required` (data part {authType, provider, authUrl, scopes}); any further message
//   completes it; then the answer's last chunk (lastChunk: true) and `completed` (final).

import express from 'express';
import { AGENT_CARD_PATH } from '@a2a-js/sdk';
import { DefaultRequestHandler, InMemoryTaskStore } from '@a2a-js/sdk/server';
import { agentCardHandler, jsonRpcHandler, UserBuilder } from '@a2a-js/sdk/server/express';

function arg(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  if (i >= 0 && i + 1 < process.argv.length) return process.argv[i + 1];
  const eq = process.argv.find((a) => a.startsWith(`--${name}=`));
  return eq ? eq.slice(name.length + 3) : fallback;
}

const port = Number(arg('port', '0'));
const host = arg('host', '127.0.0.1');
const delay = Number(arg('delay', '20'));
if (!Number.isInteger(port) || port < 0 || port > 65535 || !(delay >= 0)) {
  console.error('usage: node server.mjs [--port N] [--host 127.0.0.1] [--delay MS]');
  process.exit(2);
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const now = () => new Date().toISOString();
let ids = 0;
const newId = (p) => `${p}-${Date.now().toString(36)}-${++ids}`;

const REPORT = '# Report\n\nRevenue grew **15%** — café ☕ sales led.\n';
const ANSWER = ['Based on ', 'the analysis, ', 'sales increased ', '15%', '.'];

function textOf(message) {
  return (message?.parts ?? [])
    .filter((p) => p.kind === 'text')
    .map((p) => p.text)
    .join('\n');
}

function answerOf(message) {
  const data = (message?.parts ?? []).find((p) => p.kind === 'data')?.data;
  if (data && typeof data === 'object') {
    if ('value' in data) return String(data.value);
    if (typeof data.approved === 'boolean') return data.approved ? 'approve' : 'deny';
  }
  return textOf(message).trim().toLowerCase();
}

function agentMessage(taskId, contextId, parts) {
  return { kind: 'message', role: 'agent', messageId: newId('msg'), parts, taskId, contextId };
}

class DemoExecutor {
  // taskId -> { prompt, phase }
  tasks = new Map();
  canceled = new Set();

  async cancelTask(taskId, eventBus) {
    this.canceled.add(taskId);
    const t = this.tasks.get(taskId);
    eventBus.publish({
      kind: 'status-update',
      taskId,
      contextId: t?.contextId,
      status: {
        state: 'canceled',
        message: agentMessage(taskId, t?.contextId, [{ kind: 'text', text: 'Canceled by the user.' }]),
        timestamp: now(),
      },
      final: true,
    });
    eventBus.finished();
  }

  async execute(ctx, bus) {
    const { taskId, contextId, userMessage, task } = ctx;
    const status = (state, text, extra = {}) =>
      bus.publish({
        kind: 'status-update',
        taskId,
        contextId,
        status: {
          state,
          ...(text === undefined
            ? {}
            : { message: agentMessage(taskId, contextId, Array.isArray(text) ? text : [{ kind: 'text', text }]) }),
          timestamp: now(),
        },
        final: ['input-required', 'auth-required', 'completed', 'failed', 'canceled', 'rejected'].includes(state),
        ...extra,
      });
    const artifact = (artifact, append, lastChunk) =>
      bus.publish({ kind: 'artifact-update', taskId, contextId, artifact, append, lastChunk });

    if (!task) {
      const prompt = textOf(userMessage).toLowerCase();
      this.tasks.set(taskId, { prompt, contextId, phase: 'input' });
      bus.publish({
        kind: 'task',
        id: taskId,
        contextId,
        status: { state: 'submitted', timestamp: now() },
        history: [userMessage],
      });
      status('working', 'Working on it');
      if (prompt.includes('fail')) {
        for (const [i, chunk] of ['Trying ', 'the feed...'].entries()) {
          await sleep(delay);
          artifact({ artifactId: 'answer', name: 'answer', parts: [{ kind: 'text', text: chunk }] }, i > 0, false);
        }
        status('failed', 'The feed did not answer', { metadata: { error: 'upstream timeout (asked to fail)' } });
        bus.finished();
        return;
      }
      if (prompt.includes('slow') || prompt.includes('cancel')) {
        for (let i = 1; i <= 200; i++) {
          await sleep(delay * 5);
          if (this.canceled.has(taskId)) return;
          status('working', `Step ${i} of 200`);
        }
        status('completed', 'Long job done');
        bus.finished();
        return;
      }
      for (const [i, chunk] of ANSWER.slice(0, 3).entries()) {
        await sleep(delay);
        artifact({ artifactId: 'answer', name: 'answer', parts: [{ kind: 'text', text: chunk }] }, i > 0, false);
      }
      await sleep(delay);
      artifact(
        { artifactId: 'summary', name: 'summary', description: 'Key figures', parts: [{ kind: 'data', data: { growth: 0.15, version: 1 } }] },
        false,
        true,
      );
      await sleep(delay);
      artifact(
        { artifactId: 'summary', name: 'summary', parts: [{ kind: 'data', data: { growth: 0.152, version: 2, revised: true } }] },
        false,
        true,
      );
      const bytes = Buffer.from(REPORT, 'utf8');
      const half = Math.floor(bytes.length / 2 / 3) * 3;
      const chunks = [bytes.subarray(0, half), bytes.subarray(half)];
      for (const [i, c] of chunks.entries()) {
        await sleep(delay);
        artifact(
          {
            artifactId: 'report',
            name: 'report.md',
            description: 'The full report',
            parts: [{ kind: 'file', file: { name: 'report.md', mimeType: 'text/markdown', bytes: c.toString('base64') } }],
          },
          i > 0,
          i === chunks.length - 1,
        );
      }
      await sleep(delay);
      status('input-required', [
        { kind: 'text', text: 'Publish the report?' },
        { kind: 'data', data: { inputType: 'confirmation', options: ['approve', 'deny'] } },
      ]);
      bus.finished();
      return;
    }

    const t = this.tasks.get(taskId) ?? { prompt: '', contextId, phase: 'input' };
    this.tasks.set(taskId, t);
    if (task.status.state === 'input-required') {
      const answer = answerOf(userMessage);
      t.published = answer === 'approve';
      status('working', t.published ? 'Publishing' : 'Not publishing');
      if (t.prompt.includes('auth')) {
        await sleep(delay);
        status('auth-required', [
          { kind: 'text', text: 'Sign in to GitHub to publish' },
          {
            kind: 'data',
            data: { authType: 'oauth2', provider: 'github', scopes: ['repo'], authUrl: 'https://github.com/login/oauth/authorize?client_id=demo' },
          },
        ]);
        bus.finished();
        return;
      }
    } else if (task.status.state === 'auth-required') {
      status('working', 'Signed in');
    } else {
      status('working', 'Nothing to do');
      status('completed', 'Already done');
      bus.finished();
      return;
    }
    await sleep(delay);
    artifact({ artifactId: 'answer', parts: [{ kind: 'text', text: ANSWER[3] }] }, true, false);
    await sleep(delay);
    const end = t.published ? ' The report was published.' : ' Nothing was published.';
    artifact({ artifactId: 'answer', parts: [{ kind: 'text', text: ANSWER[4] + end }] }, true, true);
    status('completed', 'Done!');
    bus.finished();
  }
}

const app = express();
app.use((req, res, next) => {
  const origin = req.headers.origin;
  res.setHeader('Access-Control-Allow-Origin', origin ?? '*');
  if (origin) res.setHeader('Access-Control-Allow-Credentials', 'true');
  res.setHeader('Vary', 'Origin');
  res.setHeader('Access-Control-Allow-Methods', 'GET, POST, OPTIONS');
  res.setHeader(
    'Access-Control-Allow-Headers',
    'Content-Type, Authorization, Last-Event-ID, Cache-Control, X-A2A-Extensions',
  );
  res.setHeader('Access-Control-Expose-Headers', 'X-A2A-Extensions');
  res.setHeader('Access-Control-Max-Age', '600');
  if (req.method === 'OPTIONS') {
    res.status(204).end();
    return;
  }
  next();
});

const server = app.listen(port, host, () => {
  const addr = server.address();
  const base = `http://${host}:${addr.port}`;
  const card = {
    name: 'agentwire A2A SDK test agent',
    description: 'Streams text, data and file artifacts, asks for input, fails or runs long on request.',
    protocolVersion: '0.3.0',
    version: '0.1.0',
    url: `${base}/a2a/jsonrpc`,
    preferredTransport: 'JSONRPC',
    capabilities: { streaming: true, pushNotifications: false, stateTransitionHistory: true },
    defaultInputModes: ['text/plain', 'application/json'],
    defaultOutputModes: ['text/plain', 'application/json', 'text/markdown'],
    skills: [
      { id: 'report', name: 'Report', description: 'Streams a report, asks to publish it', tags: ['demo'] },
    ],
  };
  const requestHandler = new DefaultRequestHandler(card, new InMemoryTaskStore(), new DemoExecutor());
  app.use(`/${AGENT_CARD_PATH}`, agentCardHandler({ agentCardProvider: requestHandler }));
  app.use('/a2a/jsonrpc', jsonRpcHandler({ requestHandler, userBuilder: UserBuilder.noAuthentication }));
  process.stdout.write(`a2a-sdk listening on ${base}\n`);
});
server.on('error', (e) => {
  console.error(`a2a-sdk: cannot listen on ${host}:${port}: ${e.message}`);
  process.exit(1);
});
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => {
    server.close();
    process.exit(0);
  });
}
