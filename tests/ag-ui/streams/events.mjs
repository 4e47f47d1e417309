// AG-UI 1.0 interop streams: event lists as data, one named entry per recording.
//
// Every entry is written byte-for-byte by the official EventEncoder (record.mjs) into
// tests/recordings/ag-ui/<name>.sse (+ .crlf.sse / .cr.sse) and replayed to the official
// HttpAgent (official.mjs). Shape of an entry:
//
//   description  what the stream exercises
//   covers       the EventType values it carries (checked by record.mjs against the events)
//   valid        false for the deliberately invalid orders/shapes (the client is expected to fail)
//   after        names of streams the SAME agent runs first (their recordings are replayed in the
//                same framing), e.g. resume runs after interrupt, two-turn-2 after two-turn-1
//   agent        HttpAgent config for the first run of a chain: threadId, initialMessages, initialState
//   addMessages  messages appended to agent.messages (agent.addMessage) before this run
//   params       runAgent() parameters: runId, tools, context, forwardedProps, resume
//   events       the events the server sends for this run's POST, in order
//
// Ids are fixed so recordings and official.json are deterministic.

export const THREAD = "thread-agui-1";

const userMsg = (id, content) => ({ id, role: "user", content });

const started = (runId, extra = {}) => ({ type: "RUN_STARTED", threadId: THREAD, runId, ...extra });
const finished = (runId, extra = {}) => ({ type: "RUN_FINISHED", threadId: THREAD, runId, ...extra });

const WEATHER_TOOL = {
  name: "get_weather",
  description: "Current weather for a city",
  parameters: {
    type: "object",
    properties: { city: { type: "string" }, unit: { type: "string", enum: ["c", "f"] } },
    required: ["city"],
  },
};

const DELETE_TOOL = {
  name: "delete_files",
  description: "Delete files matching a glob (needs approval)",
  parameters: { type: "object", properties: { glob: { type: "string" } }, required: ["glob"] },
};

export const streams = {
  // ---------------------------------------------------------------- run lifecycle, text
  "text-basic": {
    description:
      "Minimal run: one assistant text message in three deltas (multi-byte UTF-8, newline, quotes, backslash), RUN_FINISHED without outcome (= success).",
    covers: ["RUN_STARTED", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_END", "RUN_FINISHED"],
    agent: { initialMessages: [userMsg("u-1", "Say hello")] },
    params: { runId: "run-text-basic" },
    events: [
      started("run-text-basic"),
      { type: "TEXT_MESSAGE_START", messageId: "m-1", role: "assistant" },
      { type: "TEXT_MESSAGE_CONTENT", messageId: "m-1", delta: "Grüße, " },
      { type: "TEXT_MESSAGE_CONTENT", messageId: "m-1", delta: "世界 — \"quoted\" \\ back\nslash" },
      { type: "TEXT_MESSAGE_CONTENT", messageId: "m-1", delta: " 😀!" },
      { type: "TEXT_MESSAGE_END", messageId: "m-1" },
      finished("run-text-basic"),
    ],
  },

  "lifecycle-steps": {
    description:
      "RUN_STARTED with protocolVersion and the input echo, nested STEP_STARTED/STEP_FINISHED, timestamps and metadata on events, RUN_FINISHED with outcome success, a result and token usage.",
    covers: ["RUN_STARTED", "STEP_STARTED", "STEP_FINISHED", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_END", "RUN_FINISHED"],
    agent: { initialMessages: [userMsg("u-1", "Plan and act")] },
    params: { runId: "run-steps", context: [{ description: "locale", value: "de-CH" }], forwardedProps: { mode: "test" } },
    events: [
      started("run-steps", {
        timestamp: 1767225600000,
        protocolVersion: "1.0",
        input: {
          threadId: THREAD,
          runId: "run-steps",
          messages: [userMsg("u-1", "Plan and act")],
          tools: [],
          context: [{ description: "locale", value: "de-CH" }],
          state: {},
          forwardedProps: { mode: "test" },
        },
      }),
      { type: "STEP_STARTED", stepName: "plan", timestamp: 1767225600001 },
      { type: "STEP_STARTED", stepName: "plan/inner" },
      { type: "STEP_FINISHED", stepName: "plan/inner" },
      { type: "STEP_FINISHED", stepName: "plan" },
      { type: "STEP_STARTED", stepName: "act" },
      { type: "TEXT_MESSAGE_START", messageId: "m-1", role: "assistant", metadata: { model: "m-large" } },
      { type: "TEXT_MESSAGE_CONTENT", messageId: "m-1", delta: "Done.", metadata: { chunk: 1 } },
      { type: "TEXT_MESSAGE_END", messageId: "m-1" },
      { type: "STEP_FINISHED", stepName: "act" },
      finished("run-steps", {
        outcome: { type: "success" },
        result: { answer: 42, items: ["a", "b"] },
        usage: [
          { provider: "openai", model: "gpt-x", inputTokens: 120, outputTokens: 30, totalTokens: 150, reasoningTokens: 10, cachedInputTokens: 100 },
          { provider: "anthropic", model: "claude-y", inputTokens: 5, outputTokens: 7, totalTokens: 12, cacheWriteInputTokens: 5 },
        ],
      }),
    ],
  },

  "text-chunks": {
    description:
      "TEXT_MESSAGE_CHUNK shorthand: first chunk names messageId (+role, name), continuation chunks omit it, a chunk with a new messageId closes the first and opens a second (role defaults to assistant), RUN_FINISHED closes the open one. Also a chunk with role user.",
    covers: ["RUN_STARTED", "TEXT_MESSAGE_CHUNK", "RUN_FINISHED"],
    agent: { initialMessages: [userMsg("u-1", "Chunks please")] },
    params: { runId: "run-text-chunks" },
    events: [
      started("run-text-chunks"),
      { type: "TEXT_MESSAGE_CHUNK", messageId: "m-1", role: "assistant", name: "helper", delta: "Hel" },
      { type: "TEXT_MESSAGE_CHUNK", delta: "lo " },
      { type: "TEXT_MESSAGE_CHUNK", delta: "wörld" },
      { type: "TEXT_MESSAGE_CHUNK", messageId: "m-2", delta: "Second" },
      { type: "TEXT_MESSAGE_CHUNK", messageId: "m-2", delta: " message" },
      { type: "TEXT_MESSAGE_CHUNK", messageId: "m-3", role: "user", delta: "echoed user text" },
      finished("run-text-chunks"),
    ],
  },

  // ---------------------------------------------------------------- tool calls
  "tool-call": {
    description:
      "Text then one tool call under the same assistant message (parentMessageId), arguments streamed in 7 deltas split inside a surrogate pair (the JSON escapes \\ud83d / \\ude00 land in different events), inside a key, inside a number, inside true and inside an escape sequence; TOOL_CALL_RESULT (string content, role tool); RUN_FINISHED success with no pending tool calls.",
    covers: ["RUN_STARTED", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_END", "TOOL_CALL_START", "TOOL_CALL_ARGS", "TOOL_CALL_END", "TOOL_CALL_RESULT", "RUN_FINISHED"],
    agent: { initialMessages: [userMsg("u-1", "Weather in Zürich?")] },
    params: { runId: "run-tool-call", tools: [WEATHER_TOOL] },
    events: [
      started("run-tool-call"),
      { type: "TEXT_MESSAGE_START", messageId: "m-1", role: "assistant" },
      { type: "TEXT_MESSAGE_CONTENT", messageId: "m-1", delta: "Let me check." },
      { type: "TEXT_MESSAGE_END", messageId: "m-1" },
      { type: "TOOL_CALL_START", toolCallId: "tc-1", toolCallName: "get_weather", parentMessageId: "m-1" },
      { type: "TOOL_CALL_ARGS", toolCallId: "tc-1", delta: '{"city":"Zür' },
      { type: "TOOL_CALL_ARGS", toolCallId: "tc-1", delta: 'ich \uD83D' },
      { type: "TOOL_CALL_ARGS", toolCallId: "tc-1", delta: '\uDE00","un' },
      { type: "TOOL_CALL_ARGS", toolCallId: "tc-1", delta: 'it":"c","days":1' },
      { type: "TOOL_CALL_ARGS", toolCallId: "tc-1", delta: '2.5e0,"live":tr' },
      { type: "TOOL_CALL_ARGS", toolCallId: "tc-1", delta: 'ue,"note":"a\\' },
      { type: "TOOL_CALL_ARGS", toolCallId: "tc-1", delta: 'n\\u00e9"}' },
      { type: "TOOL_CALL_END", toolCallId: "tc-1" },
      { type: "TOOL_CALL_RESULT", messageId: "tool-1", toolCallId: "tc-1", content: '{"tempC":21,"sky":"sunny"}', role: "tool" },
      finished("run-tool-call", { outcome: { type: "success" } }),
    ],
  },

  "tool-call-chunks": {
    description:
      "TOOL_CALL_CHUNK shorthand: first chunk carries toolCallId, toolCallName, parentMessageId; continuation chunks only delta; a chunk with a new toolCallId closes the first. A tool call without parentMessageId creates an assistant message whose id is the toolCallId. A TOOL_CALL_RESULT with content parts (text + image url). The second call gets no result, so RUN_FINISHED's derived pendingToolCallIds names it.",
    covers: ["RUN_STARTED", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_END", "TOOL_CALL_CHUNK", "TOOL_CALL_RESULT", "RUN_FINISHED"],
    agent: { initialMessages: [userMsg("u-1", "Two lookups")] },
    params: { runId: "run-tool-chunks", tools: [WEATHER_TOOL] },
    events: [
      started("run-tool-chunks"),
      { type: "TEXT_MESSAGE_START", messageId: "m-1", role: "assistant" },
      { type: "TEXT_MESSAGE_CONTENT", messageId: "m-1", delta: "Looking up." },
      { type: "TEXT_MESSAGE_END", messageId: "m-1" },
      { type: "TOOL_CALL_CHUNK", toolCallId: "tc-1", toolCallName: "get_weather", parentMessageId: "m-1", delta: '{"ci' },
      { type: "TOOL_CALL_CHUNK", delta: 'ty":"Ber' },
      { type: "TOOL_CALL_CHUNK", delta: 'n"}' },
      { type: "TOOL_CALL_CHUNK", toolCallId: "tc-2", toolCallName: "get_weather", delta: '{"city":"Basel"}' },
      {
        type: "TOOL_CALL_RESULT",
        messageId: "tool-1",
        toolCallId: "tc-1",
        content: [
          { type: "text", text: "Bern: 18°C" },
          { type: "image", source: { type: "url", value: "https://example.com/bern.png", mimeType: "image/png" } },
        ],
      },
      finished("run-tool-chunks"),
    ],
  },

  "tool-calls-parallel": {
    description:
      "Two tool calls opened under one assistant message and streamed interleaved (START a, START b, ARGS a, ARGS b, ARGS a, END b, ARGS b..., END a), results in reverse order; the tool messages are inserted right after their assistant message. RUN_FINISHED success with explicit pendingToolCallIds.",
    covers: ["RUN_STARTED", "TEXT_MESSAGE_START", "TEXT_MESSAGE_END", "TOOL_CALL_START", "TOOL_CALL_ARGS", "TOOL_CALL_END", "TOOL_CALL_RESULT", "RUN_FINISHED"],
    agent: { initialMessages: [userMsg("u-1", "Weather in Bern and Basel")] },
    params: { runId: "run-parallel", tools: [WEATHER_TOOL] },
    events: [
      started("run-parallel"),
      { type: "TEXT_MESSAGE_START", messageId: "m-1", role: "assistant" },
      { type: "TEXT_MESSAGE_END", messageId: "m-1" },
      { type: "TOOL_CALL_START", toolCallId: "tc-a", toolCallName: "get_weather", parentMessageId: "m-1" },
      { type: "TOOL_CALL_START", toolCallId: "tc-b", toolCallName: "get_weather", parentMessageId: "m-1" },
      { type: "TOOL_CALL_ARGS", toolCallId: "tc-a", delta: '{"city":' },
      { type: "TOOL_CALL_ARGS", toolCallId: "tc-b", delta: '{"city":"Basel"' },
      { type: "TOOL_CALL_ARGS", toolCallId: "tc-a", delta: '"Bern"}' },
      { type: "TOOL_CALL_ARGS", toolCallId: "tc-b", delta: "}" },
      { type: "TOOL_CALL_END", toolCallId: "tc-b" },
      { type: "TOOL_CALL_END", toolCallId: "tc-a" },
      { type: "TOOL_CALL_RESULT", messageId: "tool-b", toolCallId: "tc-b", content: "Basel: 19" },
      { type: "TOOL_CALL_RESULT", messageId: "tool-a", toolCallId: "tc-a", content: "Bern: 18" },
      finished("run-parallel", { outcome: { type: "success", pendingToolCallIds: ["tc-frontend"] } }),
    ],
  },

  // ---------------------------------------------------------------- reasoning
  reasoning: {
    description:
      "A reasoning span (REASONING_START/END) holding a streamed reasoning message (REASONING_MESSAGE_START role reasoning / CONTENT / END) and a REASONING_MESSAGE_CHUNK message; REASONING_ENCRYPTED_VALUE for a message (subtype message) and for a tool call (subtype tool-call, after its TOOL_CALL_END); then the answer text.",
    covers: ["RUN_STARTED", "REASONING_START", "REASONING_MESSAGE_START", "REASONING_MESSAGE_CONTENT", "REASONING_MESSAGE_END", "REASONING_MESSAGE_CHUNK", "REASONING_END", "REASONING_ENCRYPTED_VALUE", "TOOL_CALL_START", "TOOL_CALL_ARGS", "TOOL_CALL_END", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_END", "RUN_FINISHED"],
    agent: { initialMessages: [userMsg("u-1", "Think first")] },
    params: { runId: "run-reasoning" },
    events: [
      started("run-reasoning"),
      { type: "REASONING_START", messageId: "rs-1" },
      { type: "REASONING_MESSAGE_START", messageId: "r-1", role: "reasoning" },
      { type: "REASONING_MESSAGE_CONTENT", messageId: "r-1", delta: "The user wants " },
      { type: "REASONING_MESSAGE_CONTENT", messageId: "r-1", delta: "an answer." },
      { type: "REASONING_MESSAGE_END", messageId: "r-1" },
      { type: "REASONING_MESSAGE_CHUNK", messageId: "r-2", delta: "Second " },
      { type: "REASONING_MESSAGE_CHUNK", delta: "thought." },
      { type: "REASONING_END", messageId: "rs-1" },
      { type: "REASONING_ENCRYPTED_VALUE", subtype: "message", entityId: "r-1", encryptedValue: "gAAAAABenc-r1==" },
      { type: "TOOL_CALL_START", toolCallId: "tc-1", toolCallName: "lookup" },
      { type: "TOOL_CALL_ARGS", toolCallId: "tc-1", delta: "{}" },
      { type: "TOOL_CALL_END", toolCallId: "tc-1" },
      { type: "REASONING_ENCRYPTED_VALUE", subtype: "tool-call", entityId: "tc-1", encryptedValue: "gAAAAABenc-tc1==" },
      { type: "TEXT_MESSAGE_START", messageId: "m-1", role: "assistant" },
      { type: "TEXT_MESSAGE_CONTENT", messageId: "m-1", delta: "Answer." },
      { type: "TEXT_MESSAGE_END", messageId: "m-1" },
      finished("run-reasoning"),
    ],
  },

  // ---------------------------------------------------------------- state
  state: {
    description:
      "STATE_SNAPSHOT replacing the input state, then STATE_DELTAs: add, remove, replace, move, copy, passing test, ~0/~1 escaped keys, '-' array append, add into a nested array index; then a patch whose test op fails (the client drops that whole patch with a warning), then a patch that still applies.",
    covers: ["RUN_STARTED", "STATE_SNAPSHOT", "STATE_DELTA", "RUN_FINISHED"],
    agent: { initialMessages: [userMsg("u-1", "Track state")], initialState: { stale: true } },
    params: { runId: "run-state" },
    events: [
      started("run-state"),
      {
        type: "STATE_SNAPSHOT",
        snapshot: { count: 1, items: ["a", "b"], "a/b": 1, "m~n": 2, nested: { keep: true, drop: "x" }, unicode: "ä😀" },
      },
      {
        type: "STATE_DELTA",
        delta: [
          { op: "replace", path: "/count", value: 2 },
          { op: "add", path: "/items/-", value: "c" },
          { op: "add", path: "/items/0", value: "z" },
          { op: "remove", path: "/nested/drop" },
          { op: "replace", path: "/a~1b", value: 10 },
          { op: "add", path: "/m~0n", value: 20 },
          { op: "test", path: "/count", value: 2 },
        ],
      },
      {
        type: "STATE_DELTA",
        delta: [
          { op: "move", from: "/nested/keep", path: "/kept" },
          { op: "copy", from: "/items", path: "/itemsCopy" },
          { op: "add", path: "/obj", value: { deep: [1, { x: null }] } },
        ],
      },
      {
        type: "STATE_DELTA",
        delta: [
          { op: "replace", path: "/count", value: 999 },
          { op: "test", path: "/count", value: 3 },
        ],
      },
      { type: "STATE_DELTA", delta: [{ op: "add", path: "/afterFailure", value: "applied" }] },
      finished("run-state"),
    ],
  },

  // ---------------------------------------------------------------- messages snapshot
  "messages-snapshot": {
    description:
      "MESSAGES_SNAPSHOT carrying every role (developer, system, user with string and with content parts, assistant with toolCalls, tool, reasoning with encryptedValue, activity); the agent starts with one message that the snapshot omits (it is removed) and one it restates; then a text message appended after the snapshot.",
    covers: ["RUN_STARTED", "MESSAGES_SNAPSHOT", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_END", "RUN_FINISHED"],
    agent: {
      initialMessages: [userMsg("u-1", "Original question"), userMsg("u-gone", "dropped by snapshot")],
    },
    params: { runId: "run-snapshot" },
    events: [
      started("run-snapshot"),
      {
        type: "MESSAGES_SNAPSHOT",
        messages: [
          { id: "dev-1", role: "developer", content: "Be brief." },
          { id: "sys-1", role: "system", content: "You are a test agent.", name: "sys" },
          userMsg("u-1", "Original question"),
          {
            id: "u-2",
            role: "user",
            content: [
              { type: "text", text: "Look at this:" },
              { type: "image", source: { type: "data", value: "iVBORw0KGgo=", mimeType: "image/png" } },
              { type: "document", source: { type: "file", value: "file-abc", provider: "openai" } },
            ],
          },
          {
            id: "a-1",
            role: "assistant",
            content: "Calling a tool.",
            toolCalls: [{ id: "tc-1", type: "function", function: { name: "get_weather", arguments: '{"city":"Bern"}' } }],
          },
          { id: "t-1", role: "tool", toolCallId: "tc-1", content: "18°C" },
          { id: "r-1", role: "reasoning", content: "thinking…", encryptedValue: "enc==" },
          { id: "act-1", role: "activity", activityType: "plan", content: { steps: ["a"] } },
        ],
      },
      { type: "TEXT_MESSAGE_START", messageId: "m-after", role: "assistant" },
      { type: "TEXT_MESSAGE_CONTENT", messageId: "m-after", delta: "After the snapshot." },
      { type: "TEXT_MESSAGE_END", messageId: "m-after" },
      finished("run-snapshot"),
    ],
  },

  // ---------------------------------------------------------------- activity
  activity: {
    description:
      "ACTIVITY_SNAPSHOT creates an activity message, ACTIVITY_DELTA patches its content (add, replace, '-' append), ACTIVITY_SNAPSHOT replace:false on an existing id is ignored, ACTIVITY_SNAPSHOT with replace omitted (default true) replaces it; a delta for an unknown id is ignored.",
    covers: ["RUN_STARTED", "ACTIVITY_SNAPSHOT", "ACTIVITY_DELTA", "RUN_FINISHED"],
    agent: { initialMessages: [userMsg("u-1", "Show progress")] },
    params: { runId: "run-activity" },
    events: [
      started("run-activity"),
      { type: "ACTIVITY_SNAPSHOT", messageId: "act-1", activityType: "plan", content: { steps: ["search"], done: false } },
      {
        type: "ACTIVITY_DELTA",
        messageId: "act-1",
        activityType: "plan",
        patch: [
          { op: "add", path: "/steps/-", value: "summarize" },
          { op: "replace", path: "/done", value: true },
        ],
      },
      { type: "ACTIVITY_SNAPSHOT", messageId: "act-1", activityType: "plan", content: { ignored: true }, replace: false },
      { type: "ACTIVITY_SNAPSHOT", messageId: "act-2", activityType: "progress", content: { pct: 10 } },
      { type: "ACTIVITY_SNAPSHOT", messageId: "act-2", activityType: "progress", content: { pct: 100 } },
      { type: "ACTIVITY_DELTA", messageId: "act-unknown", activityType: "plan", patch: [{ op: "add", path: "/x", value: 1 }] },
      finished("run-activity"),
    ],
  },

  // ---------------------------------------------------------------- subagents
  subagent: {
    description:
      "SUBAGENT_STARTED (parentToolCallId, parentMessageId, description), events attributed with subagentRunId (a step and a text message), a nested subagent (parentSubagentRunId) that ends with SUBAGENT_ERROR, SUBAGENT_FINISHED with result and outcome success; messages keep their subagentRunId.",
    covers: ["RUN_STARTED", "TEXT_MESSAGE_START", "TEXT_MESSAGE_END", "TOOL_CALL_START", "TOOL_CALL_ARGS", "TOOL_CALL_END", "SUBAGENT_STARTED", "STEP_STARTED", "STEP_FINISHED", "TEXT_MESSAGE_CONTENT", "SUBAGENT_ERROR", "SUBAGENT_FINISHED", "TOOL_CALL_RESULT", "RUN_FINISHED"],
    agent: { initialMessages: [userMsg("u-1", "Delegate research")] },
    params: { runId: "run-subagent" },
    events: [
      started("run-subagent"),
      { type: "TEXT_MESSAGE_START", messageId: "m-1", role: "assistant" },
      { type: "TEXT_MESSAGE_END", messageId: "m-1" },
      { type: "TOOL_CALL_START", toolCallId: "tc-delegate", toolCallName: "research", parentMessageId: "m-1" },
      { type: "TOOL_CALL_ARGS", toolCallId: "tc-delegate", delta: '{"topic":"ag-ui"}' },
      { type: "TOOL_CALL_END", toolCallId: "tc-delegate" },
      {
        type: "SUBAGENT_STARTED",
        subagentRunId: "sa-1",
        name: "researcher",
        description: "Finds sources",
        parentToolCallId: "tc-delegate",
        parentMessageId: "m-1",
      },
      { type: "STEP_STARTED", stepName: "search", subagentRunId: "sa-1" },
      { type: "TEXT_MESSAGE_START", messageId: "sm-1", role: "assistant", subagentRunId: "sa-1" },
      { type: "TEXT_MESSAGE_CONTENT", messageId: "sm-1", delta: "Found 3 sources.", subagentRunId: "sa-1" },
      { type: "TEXT_MESSAGE_END", messageId: "sm-1", subagentRunId: "sa-1" },
      { type: "STEP_FINISHED", stepName: "search", subagentRunId: "sa-1" },
      { type: "SUBAGENT_STARTED", subagentRunId: "sa-2", name: "fetcher", parentSubagentRunId: "sa-1" },
      { type: "SUBAGENT_ERROR", subagentRunId: "sa-2", message: "fetch failed", code: "network" },
      { type: "SUBAGENT_FINISHED", subagentRunId: "sa-1", result: { sources: 3 }, outcome: { type: "success" } },
      { type: "TOOL_CALL_RESULT", messageId: "tool-1", toolCallId: "tc-delegate", content: "3 sources" },
      finished("run-subagent"),
    ],
  },

  // ---------------------------------------------------------------- custom / raw
  "custom-raw": {
    description: "CUSTOM (name + any JSON value, including null) and RAW (provider event + source) pass through without touching messages or state.",
    covers: ["RUN_STARTED", "CUSTOM", "RAW", "RUN_FINISHED"],
    agent: { initialMessages: [userMsg("u-1", "Custom things")] },
    params: { runId: "run-custom" },
    events: [
      started("run-custom"),
      { type: "CUSTOM", name: "progress", value: { pct: 50, label: "half" } },
      { type: "CUSTOM", name: "null-value", value: null },
      { type: "RAW", event: { id: "chatcmpl-1", object: "chat.completion.chunk", choices: [] }, source: "openai" },
      { type: "RAW", event: "plain string event" },
      finished("run-custom"),
    ],
  },

  // ---------------------------------------------------------------- errors / outcomes
  "run-error": {
    description: "A run that fails: text message left open, then RUN_ERROR with message, code and usage. Nothing after it.",
    covers: ["RUN_STARTED", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT", "RUN_ERROR"],
    agent: { initialMessages: [userMsg("u-1", "fail")] },
    params: { runId: "run-error" },
    events: [
      started("run-error"),
      { type: "TEXT_MESSAGE_START", messageId: "m-1", role: "assistant" },
      { type: "TEXT_MESSAGE_CONTENT", messageId: "m-1", delta: "Partial answ" },
      { type: "RUN_ERROR", message: "upstream model failed", code: "model_error", usage: [{ inputTokens: 3, outputTokens: 1 }] },
    ],
  },

  "run-error-first": {
    description: "RUN_ERROR as the very first event (allowed instead of RUN_STARTED).",
    covers: ["RUN_ERROR"],
    agent: { initialMessages: [userMsg("u-1", "fail early")] },
    params: { runId: "run-error-first" },
    events: [{ type: "RUN_ERROR", message: "agent unavailable" }],
  },

  cancelled: {
    description: "RUN_FINISHED with outcome cancelled after partial text.",
    covers: ["RUN_STARTED", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_END", "RUN_FINISHED"],
    agent: { initialMessages: [userMsg("u-1", "Stop early")] },
    params: { runId: "run-cancelled" },
    events: [
      started("run-cancelled"),
      { type: "TEXT_MESSAGE_START", messageId: "m-1", role: "assistant" },
      { type: "TEXT_MESSAGE_CONTENT", messageId: "m-1", delta: "Starting" },
      { type: "TEXT_MESSAGE_END", messageId: "m-1" },
      finished("run-cancelled", { outcome: { type: "cancelled" } }),
    ],
  },

  interrupt: {
    description:
      "Human-in-the-loop, part 1: text, a tool call awaiting approval, RUN_FINISHED outcome interrupt with one interrupt (id, reason, message, toolCallId, responseSchema, expiresAt, metadata). The client stores it in agent.pendingInterrupts.",
    covers: ["RUN_STARTED", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_END", "TOOL_CALL_START", "TOOL_CALL_ARGS", "TOOL_CALL_END", "RUN_FINISHED"],
    agent: { initialMessages: [userMsg("u-1", "interrupt")], initialState: { approvals: 0 } },
    params: { runId: "run-interrupt", tools: [DELETE_TOOL] },
    events: [
      started("run-interrupt"),
      { type: "TEXT_MESSAGE_START", messageId: "m-1", role: "assistant" },
      { type: "TEXT_MESSAGE_CONTENT", messageId: "m-1", delta: "I need your approval to delete files." },
      { type: "TEXT_MESSAGE_END", messageId: "m-1" },
      { type: "TOOL_CALL_START", toolCallId: "tc-del", toolCallName: "delete_files", parentMessageId: "m-1" },
      { type: "TOOL_CALL_ARGS", toolCallId: "tc-del", delta: '{"glob":"/tmp/*.log"}' },
      { type: "TOOL_CALL_END", toolCallId: "tc-del" },
      finished("run-interrupt", {
        outcome: {
          type: "interrupt",
          interrupts: [
            {
              id: "int-1",
              reason: "tool_approval",
              message: "Delete /tmp/*.log?",
              toolCallId: "tc-del",
              responseSchema: { type: "object", properties: { approved: { type: "boolean" } }, required: ["approved"] },
              expiresAt: "2099-01-01T00:00:00Z",
              metadata: { severity: "high" },
            },
          ],
        },
      }),
    ],
  },

  resume: {
    description:
      "Human-in-the-loop, part 2 (runs after interrupt on the same agent): RunAgentInput.resume = [{interruptId, status: resolved, payload}]; the run answers the pending tool call, updates state and finishes with success, which clears agent.pendingInterrupts.",
    covers: ["RUN_STARTED", "TOOL_CALL_RESULT", "STATE_DELTA", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_END", "RUN_FINISHED"],
    after: ["interrupt"],
    params: {
      runId: "run-resume",
      tools: [DELETE_TOOL],
      resume: [{ interruptId: "int-1", status: "resolved", payload: { approved: true } }],
    },
    events: [
      started("run-resume"),
      { type: "TOOL_CALL_RESULT", messageId: "tool-del", toolCallId: "tc-del", content: "deleted 3 files" },
      { type: "STATE_DELTA", delta: [{ op: "replace", path: "/approvals", value: 1 }] },
      { type: "TEXT_MESSAGE_START", messageId: "m-2", role: "assistant" },
      { type: "TEXT_MESSAGE_CONTENT", messageId: "m-2", delta: "Approved and done." },
      { type: "TEXT_MESSAGE_END", messageId: "m-2" },
      finished("run-resume", { outcome: { type: "success" } }),
    ],
  },

  "resume-cancelled": {
    description: "Alternative part 2 after interrupt: the interrupt is answered with status cancelled (no payload); the agent acknowledges and finishes.",
    covers: ["RUN_STARTED", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_END", "RUN_FINISHED"],
    after: ["interrupt"],
    params: { runId: "run-resume-cancelled", resume: [{ interruptId: "int-1", status: "cancelled" }] },
    events: [
      started("run-resume-cancelled"),
      { type: "TEXT_MESSAGE_START", messageId: "m-3", role: "assistant" },
      { type: "TEXT_MESSAGE_CONTENT", messageId: "m-3", delta: "Cancelled, nothing deleted." },
      { type: "TEXT_MESSAGE_END", messageId: "m-3" },
      finished("run-resume-cancelled"),
    ],
  },

  // ---------------------------------------------------------------- conversations
  "two-turn-1": {
    description: "Two-turn conversation, turn 1: the user asks, the assistant answers and sets state.",
    covers: ["RUN_STARTED", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_END", "STATE_SNAPSHOT", "RUN_FINISHED"],
    agent: { initialMessages: [userMsg("u-1", "My name is Ada.")] },
    params: { runId: "run-turn-1" },
    events: [
      started("run-turn-1"),
      { type: "TEXT_MESSAGE_START", messageId: "m-1", role: "assistant" },
      { type: "TEXT_MESSAGE_CONTENT", messageId: "m-1", delta: "Nice to meet you, Ada." },
      { type: "TEXT_MESSAGE_END", messageId: "m-1" },
      { type: "STATE_SNAPSHOT", snapshot: { userName: "Ada", turns: 1 } },
      finished("run-turn-1"),
    ],
  },

  "two-turn-2": {
    description:
      "Two-turn conversation, turn 2 (after two-turn-1 on the same agent): a new user message is added; the input carries the whole history (u-1, m-1, u-2) and the state from turn 1.",
    covers: ["RUN_STARTED", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_END", "STATE_DELTA", "RUN_FINISHED"],
    after: ["two-turn-1"],
    addMessages: [userMsg("u-2", "What is my name?")],
    params: { runId: "run-turn-2" },
    events: [
      started("run-turn-2"),
      { type: "TEXT_MESSAGE_START", messageId: "m-2", role: "assistant" },
      { type: "TEXT_MESSAGE_CONTENT", messageId: "m-2", delta: "Your name is Ada." },
      { type: "TEXT_MESSAGE_END", messageId: "m-2" },
      { type: "STATE_DELTA", delta: [{ op: "replace", path: "/turns", value: 2 }] },
      finished("run-turn-2"),
    ],
  },

  "multi-run": {
    description:
      "One HTTP response carrying two runs: RUN_STARTED/RUN_FINISHED, then a second RUN_STARTED whose parentRunId names the first (allowed after RUN_FINISHED), its own text, RUN_FINISHED.",
    covers: ["RUN_STARTED", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_END", "RUN_FINISHED"],
    agent: { initialMessages: [userMsg("u-1", "Two runs")] },
    params: { runId: "run-multi-1" },
    events: [
      started("run-multi-1"),
      { type: "TEXT_MESSAGE_START", messageId: "m-1", role: "assistant" },
      { type: "TEXT_MESSAGE_CONTENT", messageId: "m-1", delta: "First run." },
      { type: "TEXT_MESSAGE_END", messageId: "m-1" },
      finished("run-multi-1"),
      started("run-multi-2", { parentRunId: "run-multi-1" }),
      { type: "TEXT_MESSAGE_START", messageId: "m-2", role: "assistant" },
      { type: "TEXT_MESSAGE_CONTENT", messageId: "m-2", delta: "Child run." },
      { type: "TEXT_MESSAGE_END", messageId: "m-2" },
      finished("run-multi-2", { result: "child-result" }),
    ],
  },

  // ---------------------------------------------------------------- compatibility / tolerance
  "legacy-thinking": {
    description:
      "Retired pre-1.0 THINKING_* events (not in the 1.0 EventType enum); the client's CompatibilityBoundary translates them to REASONING_* with client-minted UUID message ids (shown as <uuid-N> in official.json).",
    forwardCompat: true,
    covers: ["RUN_STARTED", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_END", "RUN_FINISHED"],
    legacyTypes: ["THINKING_START", "THINKING_TEXT_MESSAGE_START", "THINKING_TEXT_MESSAGE_CONTENT", "THINKING_TEXT_MESSAGE_END", "THINKING_END"],
    agent: { initialMessages: [userMsg("u-1", "Old agent")] },
    params: { runId: "run-legacy" },
    events: [
      started("run-legacy"),
      { type: "THINKING_START", title: "Pondering" },
      { type: "THINKING_TEXT_MESSAGE_START" },
      { type: "THINKING_TEXT_MESSAGE_CONTENT", delta: "old-style thought" },
      { type: "THINKING_TEXT_MESSAGE_END" },
      { type: "THINKING_END" },
      { type: "TEXT_MESSAGE_START", messageId: "m-1", role: "assistant" },
      { type: "TEXT_MESSAGE_CONTENT", messageId: "m-1", delta: "Answer." },
      { type: "TEXT_MESSAGE_END", messageId: "m-1" },
      finished("run-legacy"),
    ],
  },

  "unknown-material": {
    // Not schema-valid as written (unknown type, unknown field, unknown outcome): the official
    // client is expected to strip/drop that material, not to fail. record.mjs skips the schema check.
    forwardCompat: true,
    description:
      "Forward compatibility: an event type the 1.0 enum does not know (dropped with a warning), an unknown top-level field on a known event (stripped with a warning), and an unknown outcome type on RUN_FINISHED.",
    covers: ["RUN_STARTED", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_END", "RUN_FINISHED"],
    agent: { initialMessages: [userMsg("u-1", "Future")] },
    params: { runId: "run-unknown" },
    events: [
      started("run-unknown"),
      { type: "FUTURE_EVENT", payload: { x: 1 } },
      { type: "TEXT_MESSAGE_START", messageId: "m-1", role: "assistant", futureField: "ignored" },
      { type: "TEXT_MESSAGE_CONTENT", messageId: "m-1", delta: "ok" },
      { type: "TEXT_MESSAGE_END", messageId: "m-1" },
      finished("run-unknown", { outcome: { type: "deferred", until: "later" } }),
    ],
  },

  truncated: {
    description: "The stream ends (connection closed) after content, without TEXT_MESSAGE_END or RUN_FINISHED: what the client ends with on a drop.",
    covers: ["RUN_STARTED", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT"],
    agent: { initialMessages: [userMsg("u-1", "slow")] },
    params: { runId: "run-truncated" },
    events: [
      started("run-truncated"),
      { type: "TEXT_MESSAGE_START", messageId: "m-1", role: "assistant" },
      { type: "TEXT_MESSAGE_CONTENT", messageId: "m-1", delta: "Cut off mid" },
    ],
  },

  // ---------------------------------------------------------------- deliberately invalid
  "invalid-content-before-start": {
    valid: false,
    description: "TEXT_MESSAGE_CONTENT for a message that was never started.",
    covers: ["RUN_STARTED", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_END", "RUN_FINISHED"],
    agent: { initialMessages: [userMsg("u-1", "x")] },
    params: { runId: "run-invalid-1" },
    events: [
      started("run-invalid-1"),
      { type: "TEXT_MESSAGE_CONTENT", messageId: "m-x", delta: "orphan" },
      { type: "TEXT_MESSAGE_END", messageId: "m-x" },
      finished("run-invalid-1"),
    ],
  },

  "invalid-content-after-end": {
    valid: false,
    description: "TEXT_MESSAGE_CONTENT after that message's TEXT_MESSAGE_END.",
    covers: ["RUN_STARTED", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_END", "RUN_FINISHED"],
    agent: { initialMessages: [userMsg("u-1", "x")] },
    params: { runId: "run-invalid-2" },
    events: [
      started("run-invalid-2"),
      { type: "TEXT_MESSAGE_START", messageId: "m-1", role: "assistant" },
      { type: "TEXT_MESSAGE_CONTENT", messageId: "m-1", delta: "ok" },
      { type: "TEXT_MESSAGE_END", messageId: "m-1" },
      { type: "TEXT_MESSAGE_CONTENT", messageId: "m-1", delta: " late" },
      finished("run-invalid-2"),
    ],
  },

  "invalid-event-after-finished": {
    valid: false,
    description: "Events after RUN_FINISHED (without a new RUN_STARTED).",
    covers: ["RUN_STARTED", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_END", "RUN_FINISHED"],
    agent: { initialMessages: [userMsg("u-1", "x")] },
    params: { runId: "run-invalid-3" },
    events: [
      started("run-invalid-3"),
      { type: "TEXT_MESSAGE_START", messageId: "m-1", role: "assistant" },
      { type: "TEXT_MESSAGE_CONTENT", messageId: "m-1", delta: "done" },
      { type: "TEXT_MESSAGE_END", messageId: "m-1" },
      finished("run-invalid-3"),
      { type: "TEXT_MESSAGE_START", messageId: "m-2", role: "assistant" },
      { type: "TEXT_MESSAGE_CONTENT", messageId: "m-2", delta: "zombie" },
      { type: "TEXT_MESSAGE_END", messageId: "m-2" },
    ],
  },

  "invalid-event-after-error": {
    valid: false,
    description: "An event after RUN_ERROR.",
    covers: ["RUN_STARTED", "RUN_ERROR", "CUSTOM"],
    agent: { initialMessages: [userMsg("u-1", "x")] },
    params: { runId: "run-invalid-4" },
    events: [started("run-invalid-4"), { type: "RUN_ERROR", message: "boom" }, { type: "CUSTOM", name: "after", value: 1 }],
  },

  "invalid-first-event": {
    valid: false,
    description: "The first event is not RUN_STARTED (nor RUN_ERROR).",
    covers: ["TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_END", "RUN_FINISHED"],
    agent: { initialMessages: [userMsg("u-1", "x")] },
    params: { runId: "run-invalid-5" },
    events: [
      { type: "TEXT_MESSAGE_START", messageId: "m-1", role: "assistant" },
      { type: "TEXT_MESSAGE_CONTENT", messageId: "m-1", delta: "no run" },
      { type: "TEXT_MESSAGE_END", messageId: "m-1" },
      finished("run-invalid-5"),
    ],
  },

  "invalid-run-started-twice": {
    valid: false,
    description: "A second RUN_STARTED while the first run is still active.",
    covers: ["RUN_STARTED", "RUN_FINISHED"],
    agent: { initialMessages: [userMsg("u-1", "x")] },
    params: { runId: "run-invalid-6" },
    events: [started("run-invalid-6"), started("run-invalid-6b"), finished("run-invalid-6")],
  },

  "invalid-finish-open-message": {
    valid: false,
    description: "RUN_FINISHED while a text message is still open (no TEXT_MESSAGE_END).",
    covers: ["RUN_STARTED", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT", "RUN_FINISHED"],
    agent: { initialMessages: [userMsg("u-1", "x")] },
    params: { runId: "run-invalid-7" },
    events: [
      started("run-invalid-7"),
      { type: "TEXT_MESSAGE_START", messageId: "m-1", role: "assistant" },
      { type: "TEXT_MESSAGE_CONTENT", messageId: "m-1", delta: "never ended" },
      finished("run-invalid-7"),
    ],
  },

  "invalid-args-after-end": {
    valid: false,
    description: "TOOL_CALL_ARGS after the tool call's TOOL_CALL_END.",
    covers: ["RUN_STARTED", "TOOL_CALL_START", "TOOL_CALL_ARGS", "TOOL_CALL_END", "RUN_FINISHED"],
    agent: { initialMessages: [userMsg("u-1", "x")] },
    params: { runId: "run-invalid-8" },
    events: [
      started("run-invalid-8"),
      { type: "TOOL_CALL_START", toolCallId: "tc-1", toolCallName: "get_weather" },
      { type: "TOOL_CALL_ARGS", toolCallId: "tc-1", delta: "{}" },
      { type: "TOOL_CALL_END", toolCallId: "tc-1" },
      { type: "TOOL_CALL_ARGS", toolCallId: "tc-1", delta: "late" },
      finished("run-invalid-8"),
    ],
  },

  "invalid-step-not-started": {
    valid: false,
    description: "STEP_FINISHED for a step that was never started.",
    covers: ["RUN_STARTED", "STEP_FINISHED", "RUN_FINISHED"],
    agent: { initialMessages: [userMsg("u-1", "x")] },
    params: { runId: "run-invalid-9" },
    events: [started("run-invalid-9"), { type: "STEP_FINISHED", stepName: "ghost" }, finished("run-invalid-9")],
  },

  "invalid-schema": {
    valid: false,
    description: "A known event missing a required field (TEXT_MESSAGE_CONTENT without delta): the zod validator rejects it.",
    covers: ["RUN_STARTED", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_END", "RUN_FINISHED"],
    agent: { initialMessages: [userMsg("u-1", "x")] },
    params: { runId: "run-invalid-10" },
    events: [
      started("run-invalid-10"),
      { type: "TEXT_MESSAGE_START", messageId: "m-1", role: "assistant" },
      { type: "TEXT_MESSAGE_CONTENT", messageId: "m-1" },
      { type: "TEXT_MESSAGE_END", messageId: "m-1" },
      finished("run-invalid-10"),
    ],
  },

  "invalid-interrupt-without-interrupts": {
    valid: false,
    description: "RUN_FINISHED outcome interrupt with an empty interrupts array (the schema requires at least one).",
    covers: ["RUN_STARTED", "RUN_FINISHED"],
    agent: { initialMessages: [userMsg("u-1", "x")] },
    params: { runId: "run-invalid-11" },
    events: [started("run-invalid-11"), finished("run-invalid-11", { outcome: { type: "interrupt", interrupts: [] } })],
  },
};

/** Every event type of @ag-ui/core 1.0.0's EventType enum (node_modules/@ag-ui/core/dist/index.d.ts). */
export const ALL_EVENT_TYPES = [
  "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_END", "TEXT_MESSAGE_CHUNK",
  "TOOL_CALL_START", "TOOL_CALL_ARGS", "TOOL_CALL_END", "TOOL_CALL_CHUNK", "TOOL_CALL_RESULT",
  "STATE_SNAPSHOT", "STATE_DELTA", "MESSAGES_SNAPSHOT", "ACTIVITY_SNAPSHOT", "ACTIVITY_DELTA",
  "RAW", "CUSTOM", "RUN_STARTED", "RUN_FINISHED", "RUN_ERROR", "STEP_STARTED", "STEP_FINISHED",
  "REASONING_START", "REASONING_MESSAGE_START", "REASONING_MESSAGE_CONTENT", "REASONING_MESSAGE_END",
  "REASONING_MESSAGE_CHUNK", "REASONING_END", "REASONING_ENCRYPTED_VALUE",
  "SUBAGENT_STARTED", "SUBAGENT_FINISHED", "SUBAGENT_ERROR",
];
