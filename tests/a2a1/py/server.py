"""An A2A v1.0 agent on the official Python a2a-sdk 1.3.0, for agentwire's v1.0 interop tests.

    tests/a2a1/py/.venv/bin/python tests/a2a1/py/server.py [--port 0] [--host 127.0.0.1] [--delay MS]

prints exactly one line on stdout: "a2a1-py listening on http://127.0.0.1:PORT".

The SDK does the protocol: DefaultRequestHandler (= DefaultRequestHandlerV2), InMemoryTaskStore,
and its Starlette routes for the agent card (create_agent_card_routes), JSON-RPC
(create_jsonrpc_routes at /a2a/jsonrpc) and HTTP+JSON/REST (create_rest_routes with
path_prefix /a2a/rest), mounted in one Starlette app served by uvicorn. The v0.3 compatibility
layer is NOT enabled. Only the AgentExecutor (what the agent says) and the CORS middleware are
ours. It is the same agent as tests/a2a1/js/server.mjs (see there for the behaviours):
"crash" (executor raises before any event; "crash later": after task, working, one chunk), "message" (direct Message), "fail", "slow"/"cancel", and the
default report (answer chunks, one 4-part `bundle` artifact, input-required, optional
auth-required, completed).

Differences forced by the SDK: a follow-up turn does not re-publish the Task (the Python SDK logs
"Task ... already exists. Ignoring task replacement." and keeps the stored one), it starts with a
status update; cancellation cancels the running execute() (asyncio.CancelledError) and then
calls cancel(), which publishes the canceled status.
"""

import argparse
import asyncio
import base64
import itertools
import socket
import sys
import time
from datetime import datetime, timezone

import uvicorn
from google.protobuf.json_format import MessageToDict, ParseDict
from starlette.applications import Starlette

from a2a.server.agent_execution import AgentExecutor, RequestContext
from a2a.server.events import EventQueue
from a2a.server.request_handlers import DefaultRequestHandler
from a2a.server.routes import (
    create_agent_card_routes,
    create_jsonrpc_routes,
    create_rest_routes,
)
from a2a.server.tasks import InMemoryTaskStore
from a2a.types.a2a_pb2 import (
    AgentCard,
    Message,
    Task,
    TaskArtifactUpdateEvent,
    TaskStatusUpdateEvent,
)

REPORT = '# Report\n\nRevenue grew **15%** — café ☕ sales led.\n'
ANSWER = ['Based on ', 'the analysis, ', 'sales increased ', '15%', '.']
_ids = itertools.count(1)


def new_id(prefix: str) -> str:
    return f'{prefix}-{int(time.time() * 1000):x}-{next(_ids)}'


def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec='milliseconds').replace('+00:00', 'Z')


def text_of(message: Message | None) -> str:
    if message is None:
        return ''
    return '\n'.join(p.text for p in message.parts if p.WhichOneof('content') == 'text')


def answer_of(message: Message | None) -> str:
    if message is not None:
        for p in message.parts:
            if p.WhichOneof('content') == 'data':
                data = MessageToDict(p.data)
                if isinstance(data, dict):
                    if 'value' in data:
                        return str(data['value'])
                    if isinstance(data.get('approved'), bool):
                        return 'approve' if data['approved'] else 'deny'
    return text_of(message).strip().lower()


def agent_message(task_id: str | None, context_id: str | None, parts: list) -> dict:
    msg = {'messageId': new_id('msg'), 'role': 'ROLE_AGENT', 'parts': parts}
    if task_id:
        msg['taskId'] = task_id
    if context_id:
        msg['contextId'] = context_id
    return msg


class DemoExecutor(AgentExecutor):
    def __init__(self, delay_ms: float) -> None:
        self.delay = delay_ms / 1000.0
        self.tasks: dict[str, dict] = {}  # task_id -> {prompt, context_id, published}

    async def cancel(self, context: RequestContext, event_queue: EventQueue) -> None:
        task_id = context.task_id
        t = self.tasks.get(task_id or '', {})
        context_id = context.context_id or t.get('context_id')
        await event_queue.enqueue_event(
            ParseDict(
                {
                    'taskId': task_id,
                    'contextId': context_id,
                    'status': {
                        'state': 'TASK_STATE_CANCELED',
                        'message': agent_message(task_id, context_id, [{'text': 'Canceled by the user.'}]),
                        'timestamp': now(),
                    },
                },
                TaskStatusUpdateEvent(),
            )
        )

    async def execute(self, context: RequestContext, event_queue: EventQueue) -> None:
        task_id, context_id = context.task_id, context.context_id
        user_message, task = context.message, context.current_task

        async def status(state: str, msg=None, extra: dict | None = None) -> None:
            st: dict = {'state': state, 'timestamp': now()}
            if msg is not None:
                st['message'] = agent_message(task_id, context_id, msg if isinstance(msg, list) else [{'text': msg}])
            ev = {'taskId': task_id, 'contextId': context_id, 'status': st, **(extra or {})}
            await event_queue.enqueue_event(ParseDict(ev, TaskStatusUpdateEvent()))

        async def artifact(art: dict, append: bool, last_chunk: bool) -> None:
            ev = {'taskId': task_id, 'contextId': context_id, 'artifact': art, 'append': append, 'lastChunk': last_chunk}
            await event_queue.enqueue_event(ParseDict(ev, TaskArtifactUpdateEvent()))

        async def sleep(ms_factor: float = 1) -> None:
            await asyncio.sleep(self.delay * ms_factor)

        if task is None:
            prompt = text_of(user_message).lower()
            if 'crash' in prompt and 'later' not in prompt:
                raise RuntimeError('the agent crashed (asked to crash)')
            if 'message' in prompt:
                await event_queue.enqueue_event(
                    ParseDict(
                        {
                            'messageId': new_id('msg'),
                            'role': 'ROLE_AGENT',
                            'contextId': context_id,
                            'parts': [
                                {'text': 'Hello! This is a direct message, no task.'},
                                {'data': {'rows': 42, 'ok': True}},
                            ],
                        },
                        Message(),
                    )
                )
                return
            self.tasks[task_id] = {'prompt': prompt, 'context_id': context_id}
            await event_queue.enqueue_event(
                ParseDict(
                    {
                        'id': task_id,
                        'contextId': context_id,
                        'status': {'state': 'TASK_STATE_SUBMITTED', 'timestamp': now()},
                        'history': [MessageToDict(user_message)],
                    },
                    Task(),
                )
            )
            await status('TASK_STATE_WORKING', 'Working on it')
            if 'crash' in prompt:
                await sleep()
                await artifact({'artifactId': 'answer', 'name': 'answer', 'parts': [{'text': 'Starting...'}]}, False, False)
                await sleep()
                raise RuntimeError('the agent crashed mid-stream (asked to crash later)')
            if 'fail' in prompt:
                for i, chunk in enumerate(['Trying ', 'the feed...']):
                    await sleep()
                    await artifact({'artifactId': 'answer', 'name': 'answer', 'parts': [{'text': chunk}]}, i > 0, False)
                await status(
                    'TASK_STATE_FAILED',
                    'The feed did not answer',
                    {'metadata': {'error': 'upstream timeout (asked to fail)'}},
                )
                return
            if 'slow' in prompt or 'cancel' in prompt:
                for i in range(1, 201):
                    await sleep(5)
                    await status('TASK_STATE_WORKING', f'Step {i} of 200')
                await status('TASK_STATE_COMPLETED', 'Long job done')
                return
            for i, chunk in enumerate(ANSWER[:3]):
                await sleep()
                await artifact({'artifactId': 'answer', 'name': 'answer', 'parts': [{'text': chunk}]}, i > 0, False)
            await sleep()
            await artifact(
                {
                    'artifactId': 'bundle',
                    'name': 'bundle',
                    'description': 'Text, data and two files in one artifact',
                    'parts': [
                        {'text': 'Summary: sales increased 15%.'},
                        {'data': {'rows': 42, 'ok': True}},
                        {
                            'raw': base64.b64encode(REPORT.encode('utf-8')).decode('ascii'),
                            'filename': 'report.md',
                            'mediaType': 'text/markdown',
                        },
                        {'url': 'https://example.com/chart.png', 'filename': 'chart.png', 'mediaType': 'image/png'},
                    ],
                },
                False,
                True,
            )
            await sleep()
            await status(
                'TASK_STATE_INPUT_REQUIRED',
                [
                    {'text': 'Publish the report?'},
                    {'data': {'inputType': 'confirmation', 'options': ['approve', 'deny']}},
                ],
            )
            return

        # A follow-up turn on an existing task (no Task re-published: see the module docstring).
        t = self.tasks.setdefault(task_id, {'prompt': '', 'context_id': context_id})
        state = MessageToDict(task.status).get('state')
        if state == 'TASK_STATE_INPUT_REQUIRED':
            t['published'] = answer_of(user_message) == 'approve'
            await status('TASK_STATE_WORKING', 'Publishing' if t['published'] else 'Not publishing')
            if 'auth' in t['prompt']:
                await sleep()
                await status(
                    'TASK_STATE_AUTH_REQUIRED',
                    [
                        {'text': 'Sign in to GitHub to publish'},
                        {
                            'data': {
                                'authType': 'oauth2',
                                'provider': 'github',
                                'scopes': ['repo'],
                                'authUrl': 'https://github.com/login/oauth/authorize?client_id=demo',
                            }
                        },
                    ],
                )
                return
        elif state == 'TASK_STATE_AUTH_REQUIRED':
            await status('TASK_STATE_WORKING', 'Signed in')
        else:
            await status('TASK_STATE_WORKING', 'Nothing to do')
            await status('TASK_STATE_COMPLETED', 'Already done')
            return
        await sleep()
        await artifact({'artifactId': 'answer', 'parts': [{'text': ANSWER[3]}]}, True, False)
        await sleep()
        end = ' The report was published.' if t.get('published') else ' Nothing was published.'
        await artifact({'artifactId': 'answer', 'parts': [{'text': ANSWER[4] + end}]}, True, True)
        await status('TASK_STATE_COMPLETED', 'Done!')


class Cors:
    """Pure ASGI CORS middleware (leaves response bodies untouched, streams included)."""

    ALLOW_HEADERS = 'Content-Type, Authorization, A2A-Version, A2A-Extensions, Last-Event-ID, Cache-Control'

    def __init__(self, app) -> None:
        self.app = app

    def _headers(self, scope) -> list[tuple[bytes, bytes]]:
        origin = None
        for k, v in scope.get('headers', []):
            if k == b'origin':
                origin = v
        out = [
            (b'access-control-allow-origin', origin or b'*'),
            (b'vary', b'Origin'),
            (b'access-control-allow-methods', b'GET, POST, DELETE, OPTIONS'),
            (b'access-control-allow-headers', self.ALLOW_HEADERS.encode()),
            (b'access-control-expose-headers', b'A2A-Version, A2A-Extensions, Content-Type'),
            (b'access-control-max-age', b'600'),
        ]
        if origin:
            out.append((b'access-control-allow-credentials', b'true'))
        return out

    async def __call__(self, scope, receive, send) -> None:
        if scope['type'] != 'http':
            await self.app(scope, receive, send)
            return
        extra = self._headers(scope)
        if scope['method'] == 'OPTIONS':
            await send({'type': 'http.response.start', 'status': 204, 'headers': extra})
            await send({'type': 'http.response.body', 'body': b''})
            return

        async def send_with_cors(message) -> None:
            if message['type'] == 'http.response.start':
                names = {k.lower() for k, _ in extra}
                headers = [(k, v) for k, v in message.get('headers', []) if k.lower() not in names]
                message = {**message, 'headers': headers + extra}
            await send(message)

        await self.app(scope, receive, send_with_cors)


def build_card(base: str) -> AgentCard:
    return ParseDict(
        {
            'name': 'agentwire A2A v1.0 test agent (a2a-python)',
            'description': 'Streams text, data and file artifacts, asks for input, fails, crashes or runs long on request.',
            'supportedInterfaces': [
                {'url': f'{base}/a2a/jsonrpc', 'protocolBinding': 'JSONRPC', 'protocolVersion': '1.0'},
                {'url': f'{base}/a2a/rest', 'protocolBinding': 'HTTP+JSON', 'protocolVersion': '1.0'},
            ],
            'version': '0.1.0',
            'capabilities': {'streaming': True, 'pushNotifications': False},
            'defaultInputModes': ['text/plain', 'application/json'],
            'defaultOutputModes': ['text/plain', 'application/json', 'text/markdown', 'image/png'],
            'skills': [
                {'id': 'report', 'name': 'Report', 'description': 'Streams a report, asks to publish it', 'tags': ['demo']}
            ],
        },
        AgentCard(),
    )


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument('--port', type=int, default=0)
    ap.add_argument('--host', default='127.0.0.1')
    ap.add_argument('--delay', type=float, default=20)
    args = ap.parse_args()
    if not 0 <= args.port <= 65535 or args.delay < 0:
        print('usage: server.py [--port N] [--host 127.0.0.1] [--delay MS]', file=sys.stderr)
        sys.exit(2)

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((args.host, args.port))
    except OSError as e:
        print(f'a2a1-py: cannot listen on {args.host}:{args.port}: {e}', file=sys.stderr)
        sys.exit(1)
    sock.listen(128)
    base = f'http://{args.host}:{sock.getsockname()[1]}'

    card = build_card(base)
    handler = DefaultRequestHandler(
        agent_executor=DemoExecutor(args.delay), task_store=InMemoryTaskStore(), agent_card=card
    )
    routes = [
        *create_agent_card_routes(card),
        *create_jsonrpc_routes(handler, rpc_url='/a2a/jsonrpc'),
        *create_rest_routes(handler, path_prefix='/a2a/rest'),
    ]
    app = Cors(Starlette(routes=routes))
    config = uvicorn.Config(app, log_level='warning', access_log=False, lifespan='off', timeout_graceful_shutdown=1)
    server = uvicorn.Server(config)
    print(f'a2a1-py listening on {base}', flush=True)
    asyncio.run(server.serve(sockets=[sock]))


if __name__ == '__main__':
    main()
