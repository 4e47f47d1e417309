// An A2A v1.0 agent built on the official @a2a-js/sdk 1.3.0 (its DefaultRequestHandler,
// InMemoryTaskStore, event buses and express jsonRpcHandler + restHandler), for agentwire's
// v1.0 interop tests. The v0.3 compatibility layer is NOT enabled: this is a pure v1.0 server.
//
//   node tests/a2a1/js/server.mjs [--port 0] [--host 127.0.0.1] [--delay MS]
//
// prints exactly one line on stdout: "a2a1-js listening on http://127.0.0.1:PORT".
// Agent card: GET /.well-known/agent-card.json (supportedInterfaces: JSONRPC + HTTP+JSON, 1.0)
// JSON-RPC:   POST /a2a/jsonrpc  (SendStreamingMessage, SubscribeToTask, CancelTask, GetTask,
//             SendMessage, ... by the SDK)
// HTTP+JSON:  /a2a/rest/...      (POST message:stream, POST|GET tasks/{id}:subscribe,
//             POST tasks/{id}:cancel, GET tasks/{id}, ... by the SDK; also /a2a/rest/{tenant}/...)
// CORS on every response. SIGINT/SIGTERM exit 0.
//
// What the agent does, by the first user message's text (case-insensitive) — the same agent as
// tests/a2a1/py/server.py:
// - "crash": the executor throws before publishing anything; "crash later": after the task, a
//   working status and one answer chunk.
// - "message": a direct Message reply, no task.
// - "fail": working, a few answer chunks, then TASK_STATE_FAILED with a status message and
//   metadata.error.
// - "slow" / "cancel": a long job (a working status every --delay*5 ms, 200 steps) that
//   CancelTask ends with TASK_STATE_CANCELED.
// - anything else ("report"): the task (SUBMITTED), WORKING with a status message, the answer as
//   text artifact `answer` in chunks (append/lastChunk), ONE artifact `bundle` with four parts in
//   one update (text, data {rows: 42, ok: true}, raw file report.md text/markdown, url file
//   chart.png image/png), then TASK_STATE_INPUT_REQUIRED "Publish the report?" with a data part
//   {inputType: "confirmation", options: ["approve", "deny"]}. A message with the same
//   taskId/contextId answers it (text approve/deny); with "auth" in the first prompt it then asks
//   TASK_STATE_AUTH_REQUIRED (data part {authType, provider, scopes, authUrl}) and any further
//   message completes it; then the answer's last chunk and TASK_STATE_COMPLETED.
//
// Events are built as v1.0 JSON and converted with the SDK's own fromJSON (the executor API
// takes the SDK's internal ts-proto objects: oneof `content.$case`, numeric enums).

import express from 'express';
import { AGENT_CARD_PATH, Message, Part, Task, TaskStatusUpdateEvent, TaskArtifactUpdateEvent } from '@a2a-js/sdk';
import { AgentEvent, DefaultRequestHandler, InMemoryTaskStore } from '@a2a-js/sdk/server';
import { agentCardHandler, jsonRpcHandler, restHandler, UserBuilder } from '@a2a-js/sdk/server/express';

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
const TERMINAL_OR_INTERRUPTED = new Set([
  'TASK_STATE_INPUT_REQUIRED',
  'TASK_STATE_AUTH_REQUIRED',
  'TASK_STATE_COMPLETED',
  'TASK_STATE_FAILED',
  'TASK_STATE_CANCELED',
  'TASK_STATE_REJECTED',
]);

// Internal (ts-proto) message → its text parts.
function textOf(message) {
  return (message?.parts ?? [])
    .filter((p) => p.content?.$case === 'text')
    .map((p) => p.content.value)
    .join('\n');
}

function answerOf(message) {
  const data = (message?.parts ?? []).find((p) => p.content?.$case === 'data')?.content.value;
  if (data && typeof data === 'object') {
    if ('value' in data) return String(data.value);
    if (typeof data.approved === 'boolean') return data.approved ? 'approve' : 'deny';
  }
  return textOf(message).trim().toLowerCase();
}

// v1.0 JSON parts → internal
const parts = (list) => list.map((p) => Part.fromJSON(typeof p === 'string' ? { text: p } : p));
const agentMessage = (taskId, contextId, list) =>
  Message.fromJSON({ messageId: newId('msg'), role: 'ROLE_AGENT', parts: list, taskId, contextId });

class DemoExecutor {
  // taskId -> { prompt, contextId, published }
  tasks = new Map();
  canceled = new Set();

  async cancelTask(taskId, eventBus) {
    this.canceled.add(taskId);
    const t = this.tasks.get(taskId);
    eventBus.publish(
      AgentEvent.statusUpdate(
        TaskStatusUpdateEvent.fromJSON({
          taskId,
          contextId: t?.contextId,
          status: {
            state: 'TASK_STATE_CANCELED',
            message: Message.toJSON(agentMessage(taskId, t?.contextId, [{ text: 'Canceled by the user.' }])),
            timestamp: now(),
          },
        }),
      ),
    );
    eventBus.finished();
  }

  async execute(ctx, bus) {
    const { taskId, contextId, userMessage, task } = ctx;
    const status = (state, msgParts, extra = {}) =>
      bus.publish(
        AgentEvent.statusUpdate(
          TaskStatusUpdateEvent.fromJSON({
            taskId,
            contextId,
            status: {
              state,
              ...(msgParts === undefined
                ? {}
                : {
                    message: Message.toJSON(
                      agentMessage(taskId, contextId, Array.isArray(msgParts) ? msgParts : [{ text: msgParts }]),
                    ),
                  }),
              timestamp: now(),
            },
            ...extra,
          }),
        ),
      );
    const artifact = (art, append, lastChunk) =>
      bus.publish(
        AgentEvent.artifactUpdate(
          TaskArtifactUpdateEvent.fromJSON({ taskId, contextId, artifact: art, append, lastChunk }),
        ),
      );

    if (!task) {
      const prompt = textOf(userMessage).toLowerCase();
      if (prompt.includes('crash') && !prompt.includes('later')) {
        throw new Error('the agent crashed (asked to crash)');
      }
      if (prompt.includes('message')) {
        bus.publish(
          AgentEvent.message(
            Message.fromJSON({
              messageId: newId('msg'),
              role: 'ROLE_AGENT',
              contextId,
              parts: [{ text: 'Hello! This is a direct message, no task.' }, { data: { rows: 42, ok: true } }],
            }),
          ),
        );
        bus.finished();
        return;
      }
      this.tasks.set(taskId, { prompt, contextId });
      bus.publish(
        AgentEvent.task(
          Task.fromJSON({
            id: taskId,
            contextId,
            status: { state: 'TASK_STATE_SUBMITTED', timestamp: now() },
            history: [Message.toJSON(userMessage)],
          }),
        ),
      );
      status('TASK_STATE_WORKING', 'Working on it');
      if (prompt.includes('crash')) {
        await sleep(delay);
        artifact({ artifactId: 'answer', name: 'answer', parts: [{ text: 'Starting...' }] }, false, false);
        await sleep(delay);
        throw new Error('the agent crashed mid-stream (asked to crash later)');
      }
      if (prompt.includes('fail')) {
        for (const [i, chunk] of ['Trying ', 'the feed...'].entries()) {
          await sleep(delay);
          artifact({ artifactId: 'answer', name: 'answer', parts: [{ text: chunk }] }, i > 0, false);
        }
        status('TASK_STATE_FAILED', 'The feed did not answer', { metadata: { error: 'upstream timeout (asked to fail)' } });
        bus.finished();
        return;
      }
      if (prompt.includes('slow') || prompt.includes('cancel')) {
        for (let i = 1; i <= 200; i++) {
          await sleep(delay * 5);
          if (this.canceled.has(taskId)) return;
          status('TASK_STATE_WORKING', `Step ${i} of 200`);
        }
        status('TASK_STATE_COMPLETED', 'Long job done');
        bus.finished();
        return;
      }
      for (const [i, chunk] of ANSWER.slice(0, 3).entries()) {
        await sleep(delay);
        artifact({ artifactId: 'answer', name: 'answer', parts: [{ text: chunk }] }, i > 0, false);
      }
      await sleep(delay);
      artifact(
        {
          artifactId: 'bundle',
          name: 'bundle',
          description: 'Text, data and two files in one artifact',
          parts: [
            { text: 'Summary: sales increased 15%.' },
            { data: { rows: 42, ok: true } },
            { raw: Buffer.from(REPORT, 'utf8').toString('base64'), filename: 'report.md', mediaType: 'text/markdown' },
            { url: 'https://example.com/chart.png', filename: 'chart.png', mediaType: 'image/png' },
          ],
        },
        false,
        true,
      );
      await sleep(delay);
      status('TASK_STATE_INPUT_REQUIRED', [
        { text: 'Publish the report?' },
        { data: { inputType: 'confirmation', options: ['approve', 'deny'] } },
      ]);
      bus.finished();
      return;
    }

    // A follow-up turn: the SDK requires a `task` (or `message`) as the first event of every
    // execute() call, follow-ups included (AgentExecutor doc in dist/server/index.d.ts).
    bus.publish(AgentEvent.task(task));
    const t = this.tasks.get(taskId) ?? { prompt: '', contextId };
    this.tasks.set(taskId, t);
    const state = Task.toJSON(task).status?.state;
    if (state === 'TASK_STATE_INPUT_REQUIRED') {
      const answer = answerOf(userMessage);
      t.published = answer === 'approve';
      status('TASK_STATE_WORKING', t.published ? 'Publishing' : 'Not publishing');
      if (t.prompt.includes('auth')) {
        await sleep(delay);
        status('TASK_STATE_AUTH_REQUIRED', [
          { text: 'Sign in to GitHub to publish' },
          {
            data: {
              authType: 'oauth2',
              provider: 'github',
              scopes: ['repo'],
              authUrl: 'https://github.com/login/oauth/authorize?client_id=demo',
            },
          },
        ]);
        bus.finished();
        return;
      }
    } else if (state === 'TASK_STATE_AUTH_REQUIRED') {
      status('TASK_STATE_WORKING', 'Signed in');
    } else {
      status('TASK_STATE_WORKING', 'Nothing to do');
      status('TASK_STATE_COMPLETED', 'Already done');
      bus.finished();
      return;
    }
    await sleep(delay);
    artifact({ artifactId: 'answer', parts: [{ text: ANSWER[3] }] }, true, false);
    await sleep(delay);
    const end = t.published ? ' The report was published.' : ' Nothing was published.';
    artifact({ artifactId: 'answer', parts: [{ text: ANSWER[4] + end }] }, true, true);
    status('TASK_STATE_COMPLETED', 'Done!');
    bus.finished();
  }
}

const app = express();
app.use((req, res, next) => {
  const origin = req.headers.origin;
  res.setHeader('Access-Control-Allow-Origin', origin ?? '*');
  if (origin) res.setHeader('Access-Control-Allow-Credentials', 'true');
  res.setHeader('Vary', 'Origin');
  res.setHeader('Access-Control-Allow-Methods', 'GET, POST, DELETE, OPTIONS');
  res.setHeader(
    'Access-Control-Allow-Headers',
    'Content-Type, Authorization, A2A-Version, A2A-Extensions, Last-Event-ID, Cache-Control',
  );
  res.setHeader('Access-Control-Expose-Headers', 'A2A-Version, A2A-Extensions, Content-Type');
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
  // A v1.0 agent card as JSON (the agent-card handler serves it with JSON.stringify as given).
  const card = {
    name: 'agentwire A2A v1.0 test agent (a2a-js)',
    description: 'Streams text, data and file artifacts, asks for input, fails, crashes or runs long on request.',
    supportedInterfaces: [
      { url: `${base}/a2a/jsonrpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      { url: `${base}/a2a/rest`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
    ],
    version: '0.1.0',
    capabilities: { streaming: true, pushNotifications: false },
    defaultInputModes: ['text/plain', 'application/json'],
    defaultOutputModes: ['text/plain', 'application/json', 'text/markdown', 'image/png'],
    skills: [{ id: 'report', name: 'Report', description: 'Streams a report, asks to publish it', tags: ['demo'] }],
  };
  const requestHandler = new DefaultRequestHandler(card, new InMemoryTaskStore(), new DemoExecutor());
  app.use(`/${AGENT_CARD_PATH}`, agentCardHandler({ agentCardProvider: requestHandler }));
  app.use('/a2a/jsonrpc', jsonRpcHandler({ requestHandler, userBuilder: UserBuilder.noAuthentication }));
  app.use('/a2a/rest', restHandler({ requestHandler, userBuilder: UserBuilder.noAuthentication }));
  process.stdout.write(`a2a1-js listening on ${base}\n`);
});
server.on('error', (e) => {
  console.error(`a2a1-js: cannot listen on ${host}:${port}: ${e.message}`);
  process.exit(1);
});
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => {
    server.close();
    process.exit(0);
  });
}
