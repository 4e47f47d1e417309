// Named UI message streams (ai@7.0.173), each produced by the official package:
//
//   chunks: [...]      → createUIMessageStream({ execute: writer.write(chunk) each, generateId })
//                        + createUIMessageStreamResponse (JsonToSseTransformStream, UI_MESSAGE_STREAM_HEADERS)
//   produce: () => Response   → streamText(...).toUIMessageStreamResponse() over MockLanguageModelV4
//                               (ai/test, simulateReadableStream, no network), or createUIMessageStreamResponse
//                               with options (keepAliveMs)
//   cut: bytes → bytes  a truncation applied to the official bytes (a connection that died)
//   raw: "..."         hand-written bytes, ONLY for what the official writer cannot produce
//                      (malformed JSON, SSE fields it never writes); marked handmade in index.json
//
// Other members:
//   description, valid (false = deliberately invalid), covers (chunk types it is meant to show)
//   continues: { from: <stream>, approve: {id, approved, reason?} }  the stream is the next response
//     after the user answered a tool approval: the official client continues the SAME assistant
//     message (readUIMessageStream({message}) / Chat.addToolApprovalResponse + sendMessage()).
//   user: the user text the Chat path sends (default "hi")

import { streamText, tool, jsonSchema, stepCountIs, createUIMessageStream, createUIMessageStreamResponse } from "ai";
import { z } from "zod";
import { MockLanguageModelV4, simulateReadableStream } from "ai/test";

/** Every `type` literal of uiMessageChunkSchema (ui-message-chunks.ts:26-251); data-* is a pattern. */
export const ALL_CHUNK_TYPES = [
  "text-start", "text-delta", "text-end", "error",
  "tool-input-start", "tool-input-delta", "tool-input-available", "tool-input-error",
  "tool-approval-request", "tool-approval-response",
  "tool-output-available", "tool-output-error", "tool-output-denied",
  "reasoning-start", "reasoning-delta", "reasoning-end",
  "custom", "source-url", "source-document", "file", "reasoning-file", "steering-message",
  "data-*", "start-step", "finish-step", "reset-step", "start", "finish", "abort", "message-metadata",
];

const usage = (i, o) => ({
  inputTokens: { total: i, noCache: i, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: o, text: o, reasoning: 0 },
});

/** A MockLanguageModelV4 whose n-th doStream call streams steps[n] (LanguageModelV4StreamPart lists). */
export function mockModel(steps) {
  let call = 0;
  return new MockLanguageModelV4({
    doStream: async () => {
      const chunks = steps[Math.min(call++, steps.length - 1)];
      return { stream: simulateReadableStream({ chunks, initialDelayInMs: null, chunkDelayInMs: null }) };
    },
  });
}

/** Deterministic ids for streamText's internal generateId (approval ids, response ids). */
export const counterIds = (prefix) => {
  let n = 0;
  return () => `${prefix}-id-${++n}`;
};

const weatherTool = tool({
  description: "weather for a city",
  inputSchema: jsonSchema({ type: "object", properties: { city: { type: "string" } }, required: ["city"] }),
  execute: async ({ city }) => ({ city, tempC: 21, sky: "☀️ sunny" }),
});

export const streams = {
  // ---------------------------------------------------------------- text, reasoning, metadata
  "text-basic": {
    description: "start with messageId, one text part in five deltas (2-byte é, 3-byte 漢字, 4-byte 😀, newline, quotes, backslash, an empty delta), text-end, finish with finishReason stop.",
    covers: ["start", "text-start", "text-delta", "text-end", "finish"],
    chunks: [
      { type: "start", messageId: "msg-text" },
      { type: "text-start", id: "txt-1" },
      { type: "text-delta", id: "txt-1", delta: "Héllo, " },
      { type: "text-delta", id: "txt-1", delta: "漢字 and 😀" },
      { type: "text-delta", id: "txt-1", delta: "" },
      { type: "text-delta", id: "txt-1", delta: "\nline two: \"quoted\" \\ back" },
      { type: "text-delta", id: "txt-1", delta: "slash." },
      { type: "text-end", id: "txt-1" },
      { type: "finish", finishReason: "stop" },
    ],
  },
  "text-two-parts": {
    description: "Two text parts interleaved by id (txt-a and txt-b open at once), each with providerMetadata; text-end of txt-b carries citations and new providerMetadata; start without messageId (createUIMessageStream injects its generateId() value).",
    covers: ["start", "text-start", "text-delta", "text-end", "finish"],
    chunks: [
      { type: "start" },
      { type: "text-start", id: "txt-a", providerMetadata: { mock: { n: 1 } } },
      { type: "text-start", id: "txt-b" },
      { type: "text-delta", id: "txt-a", delta: "first " },
      { type: "text-delta", id: "txt-b", delta: "second " },
      { type: "text-delta", id: "txt-a", delta: "part" },
      { type: "text-end", id: "txt-a" },
      { type: "text-delta", id: "txt-b", delta: "part", providerMetadata: { mock: { n: 2 } } },
      { type: "text-end", id: "txt-b", citations: [{ source: { type: "source", sourceType: "url", id: "src-1", url: "https://example.com/a", title: "A" }, startIndex: 7, endIndex: 11, citedText: "part" }] },
      { type: "finish" },
    ],
  },
  reasoning: {
    description: "Reasoning part (3 deltas, multi-byte, providerMetadata on start and end) followed by text, inside one step.",
    covers: ["start", "start-step", "reasoning-start", "reasoning-delta", "reasoning-end", "text-start", "text-delta", "text-end", "finish-step", "finish"],
    chunks: [
      { type: "start", messageId: "msg-reason" },
      { type: "start-step" },
      { type: "reasoning-start", id: "rs-1", providerMetadata: { anthropic: { signature: "sig-0" } } },
      { type: "reasoning-delta", id: "rs-1", delta: "The user greets; " },
      { type: "reasoning-delta", id: "rs-1", delta: "réponse courte → " },
      { type: "reasoning-delta", id: "rs-1", delta: "🙂" },
      { type: "reasoning-end", id: "rs-1", providerMetadata: { anthropic: { signature: "sig-1" } } },
      { type: "text-start", id: "txt-1" },
      { type: "text-delta", id: "txt-1", delta: "Hi!" },
      { type: "text-end", id: "txt-1" },
      { type: "finish-step" },
      { type: "finish", finishReason: "stop" },
    ],
  },
  metadata: {
    description: "Message metadata at start, two message-metadata chunks (merged into the object: nested objects merge, arrays and scalars replace), and at finish.",
    covers: ["start", "message-metadata", "text-start", "text-delta", "text-end", "finish"],
    chunks: [
      { type: "start", messageId: "msg-meta", messageMetadata: { createdAt: 1700000000000, model: "mock-1", usage: { input: 3 } } },
      { type: "text-start", id: "txt-1" },
      { type: "text-delta", id: "txt-1", delta: "metadata test" },
      { type: "message-metadata", messageMetadata: { usage: { output: 2 }, tags: ["a", "b"] } },
      { type: "text-end", id: "txt-1" },
      { type: "message-metadata", messageMetadata: { tags: ["c"], model: "mock-2" } },
      { type: "finish", finishReason: "length", messageMetadata: { finishedAt: 1700000000500, usage: { total: 5 } } },
    ],
  },
  "multi-step": {
    description: "Two steps: start-step / text / tool call with output / finish-step, then start-step / text / finish-step; each start-step adds a step-start part.",
    covers: ["start", "start-step", "text-start", "text-delta", "text-end", "tool-input-start", "tool-input-delta", "tool-input-available", "tool-output-available", "finish-step", "finish"],
    chunks: [
      { type: "start", messageId: "msg-steps" },
      { type: "start-step" },
      { type: "text-start", id: "s1-t" },
      { type: "text-delta", id: "s1-t", delta: "Let me check." },
      { type: "text-end", id: "s1-t" },
      { type: "tool-input-start", toolCallId: "call-1", toolName: "weather" },
      { type: "tool-input-delta", toolCallId: "call-1", inputTextDelta: "{\"city\":\"Oslo\"}" },
      { type: "tool-input-available", toolCallId: "call-1", toolName: "weather", input: { city: "Oslo" } },
      { type: "tool-output-available", toolCallId: "call-1", output: { tempC: -3 } },
      { type: "finish-step" },
      { type: "start-step" },
      { type: "text-start", id: "s2-t" },
      { type: "text-delta", id: "s2-t", delta: "It is −3 °C in Oslo." },
      { type: "text-end", id: "s2-t" },
      { type: "finish-step" },
      { type: "finish", finishReason: "stop" },
    ],
  },
  "reset-step": {
    description: "A step whose parts are discarded: start-step, text, a tool input, reset-step (removes the parts after the last step-start, keeps the step-start), then new text; finish-step.",
    covers: ["start", "start-step", "text-start", "text-delta", "text-end", "tool-input-start", "tool-input-delta", "reset-step", "finish-step", "finish"],
    chunks: [
      { type: "start", messageId: "msg-reset" },
      { type: "start-step" },
      { type: "text-start", id: "t-old" },
      { type: "text-delta", id: "t-old", delta: "discarded text" },
      { type: "tool-input-start", toolCallId: "call-old", toolName: "weather" },
      { type: "tool-input-delta", toolCallId: "call-old", inputTextDelta: "{\"ci" },
      { type: "reset-step" },
      { type: "text-start", id: "t-new" },
      { type: "text-delta", id: "t-new", delta: "kept text" },
      { type: "text-end", id: "t-new" },
      { type: "finish-step" },
      { type: "finish", finishReason: "stop" },
    ],
  },
  // ---------------------------------------------------------------- tools
  "tool-split-input": {
    description: "One tool call whose input JSON arrives in 9 deltas split inside a key, inside a \\u escape (\\u00 | fc), between the two escaped halves of a surrogate pair (\\ud83d | \\ude00), inside a number, inside true and inside null; the wire also carries a raw 😀 split across the 61-byte replay pieces. tool-input-available then tool-output-available.",
    covers: ["start", "start-step", "tool-input-start", "tool-input-delta", "tool-input-available", "tool-output-available", "finish-step", "finish"],
    chunks: [
      { type: "start", messageId: "msg-tool" },
      { type: "start-step" },
      { type: "tool-input-start", toolCallId: "call-split", toolName: "search" },
      { type: "tool-input-delta", toolCallId: "call-split", inputTextDelta: "{\"que" },
      { type: "tool-input-delta", toolCallId: "call-split", inputTextDelta: "ry\":\"Z\\u00" },
      { type: "tool-input-delta", toolCallId: "call-split", inputTextDelta: "fcrich caf\u00e9 \\ud83d" },
      { type: "tool-input-delta", toolCallId: "call-split", inputTextDelta: "\\ude00 😀\",\"lim" },
      { type: "tool-input-delta", toolCallId: "call-split", inputTextDelta: "it\":1" },
      { type: "tool-input-delta", toolCallId: "call-split", inputTextDelta: "2.5,\"exact\":tr" },
      { type: "tool-input-delta", toolCallId: "call-split", inputTextDelta: "ue,\"page\":nu" },
      { type: "tool-input-delta", toolCallId: "call-split", inputTextDelta: "ll,\"tags\":[\"a\",\"b" },
      { type: "tool-input-delta", toolCallId: "call-split", inputTextDelta: "\"]}" },
      { type: "tool-input-available", toolCallId: "call-split", toolName: "search", input: { query: "Zürich café 😀 😀", limit: 12.5, exact: true, page: null, tags: ["a", "b"] } },
      { type: "tool-output-available", toolCallId: "call-split", output: { hits: ["Zürich — 漢字"], count: 1 } },
      { type: "finish-step" },
      { type: "finish", finishReason: "stop" },
    ],
  },
  "tool-input-error": {
    description: "Tool input that does not parse: tool-input-start, deltas with broken JSON, tool-input-error (input = the raw text, errorText) → part state output-error; then text explaining.",
    covers: ["start", "tool-input-start", "tool-input-delta", "tool-input-error", "text-start", "text-delta", "text-end", "finish"],
    chunks: [
      { type: "start", messageId: "msg-tie" },
      { type: "tool-input-start", toolCallId: "call-bad", toolName: "weather", title: "Weather lookup" },
      { type: "tool-input-delta", toolCallId: "call-bad", inputTextDelta: "{\"city\": Par" },
      { type: "tool-input-delta", toolCallId: "call-bad", inputTextDelta: "is}" },
      { type: "tool-input-error", toolCallId: "call-bad", toolName: "weather", input: "{\"city\": Paris}", errorText: "Invalid input for tool weather: JSON parsing failed" },
      { type: "text-start", id: "txt-1" },
      { type: "text-delta", id: "txt-1", delta: "The tool input was invalid." },
      { type: "text-end", id: "txt-1" },
      { type: "finish", finishReason: "stop" },
    ],
  },
  "tool-output-error": {
    description: "Tool with complete input whose execution failed: tool-input-available (no start/deltas: the part is created in state input-available) then tool-output-error.",
    covers: ["start", "tool-input-available", "tool-output-error", "finish"],
    chunks: [
      { type: "start", messageId: "msg-toe" },
      { type: "tool-input-available", toolCallId: "call-err", toolName: "weather", input: { city: "Atlantis" } },
      { type: "tool-output-error", toolCallId: "call-err", errorText: "City not found: Atlantis" },
      { type: "finish", finishReason: "tool-calls" },
    ],
  },
  "tools-parallel": {
    description: "Two tool calls streamed interleaved (deltas alternate), inputs available in order a, b, outputs in reverse order b, a.",
    covers: ["start", "start-step", "tool-input-start", "tool-input-delta", "tool-input-available", "tool-output-available", "finish-step", "finish"],
    chunks: [
      { type: "start", messageId: "msg-par" },
      { type: "start-step" },
      { type: "tool-input-start", toolCallId: "call-a", toolName: "weather" },
      { type: "tool-input-start", toolCallId: "call-b", toolName: "time" },
      { type: "tool-input-delta", toolCallId: "call-a", inputTextDelta: "{\"city\":" },
      { type: "tool-input-delta", toolCallId: "call-b", inputTextDelta: "{\"tz\":\"Europe/" },
      { type: "tool-input-delta", toolCallId: "call-a", inputTextDelta: "\"Rome\"}" },
      { type: "tool-input-delta", toolCallId: "call-b", inputTextDelta: "Rome\"}" },
      { type: "tool-input-available", toolCallId: "call-a", toolName: "weather", input: { city: "Rome" } },
      { type: "tool-input-available", toolCallId: "call-b", toolName: "time", input: { tz: "Europe/Rome" } },
      { type: "tool-output-available", toolCallId: "call-b", output: "12:00" },
      { type: "tool-output-available", toolCallId: "call-a", output: { tempC: 25 } },
      { type: "finish-step" },
      { type: "finish", finishReason: "stop" },
    ],
  },
  "tool-approval": {
    description: "Tool needing approval: input streamed, tool-input-available, tool-approval-request (approvalId, reason) → part state approval-requested; finish (finishReason tool-calls). The next request carries the answer (see tool-approval-approved / tool-approval-denied).",
    covers: ["start", "start-step", "tool-input-start", "tool-input-delta", "tool-input-available", "tool-approval-request", "finish-step", "finish"],
    chunks: [
      { type: "start", messageId: "msg-appr" },
      { type: "start-step" },
      { type: "tool-input-start", toolCallId: "call-del", toolName: "deleteFile" },
      { type: "tool-input-delta", toolCallId: "call-del", inputTextDelta: "{\"path\":\"/tmp/" },
      { type: "tool-input-delta", toolCallId: "call-del", inputTextDelta: "ä.txt\"}" },
      { type: "tool-input-available", toolCallId: "call-del", toolName: "deleteFile", input: { path: "/tmp/ä.txt" } },
      { type: "tool-approval-request", approvalId: "appr-1", toolCallId: "call-del", reason: "destructive" },
      { type: "finish-step" },
      { type: "finish", finishReason: "tool-calls" },
    ],
  },
  "tool-approval-approved": {
    description: "The response after the user approved appr-1 (continues msg-appr): start with the same messageId, start-step, tool-output-available for call-del, text, finish-step, finish.",
    covers: ["start", "start-step", "tool-output-available", "text-start", "text-delta", "text-end", "finish-step", "finish"],
    continues: { from: "tool-approval", approve: { id: "appr-1", approved: true, reason: "ok" } },
    chunks: [
      { type: "start", messageId: "msg-appr" },
      { type: "start-step" },
      { type: "tool-output-available", toolCallId: "call-del", output: { deleted: true } },
      { type: "text-start", id: "txt-done" },
      { type: "text-delta", id: "txt-done", delta: "Deleted /tmp/ä.txt." },
      { type: "text-end", id: "txt-done" },
      { type: "finish-step" },
      { type: "finish", finishReason: "stop" },
    ],
  },
  "tool-approval-denied": {
    description: "The response after the user denied appr-1 (continues msg-appr): tool-output-denied for call-del → part state output-denied, then text.",
    covers: ["start", "start-step", "tool-output-denied", "text-start", "text-delta", "text-end", "finish-step", "finish"],
    continues: { from: "tool-approval", approve: { id: "appr-1", approved: false, reason: "no way" } },
    chunks: [
      { type: "start", messageId: "msg-appr" },
      { type: "start-step" },
      { type: "tool-output-denied", toolCallId: "call-del" },
      { type: "text-start", id: "txt-den" },
      { type: "text-delta", id: "txt-den", delta: "Okay, I did not delete it." },
      { type: "text-end", id: "txt-den" },
      { type: "finish-step" },
      { type: "finish", finishReason: "stop" },
    ],
  },
  "tool-provider-executed": {
    description: "Provider-executed tool with an in-stream approval: tool-input-start (providerExecuted, providerMetadata), tool-input-available, tool-approval-request (isAutomatic, signature, approvalDescriptor, inputSchemaInput), tool-approval-response (approved) → approval-responded, tool-output-available (providerExecuted, providerMetadata → resultProviderMetadata).",
    covers: ["start", "tool-input-start", "tool-input-delta", "tool-input-available", "tool-approval-request", "tool-approval-response", "tool-output-available", "finish"],
    chunks: [
      { type: "start", messageId: "msg-pe" },
      { type: "tool-input-start", toolCallId: "call-ws", toolName: "web_search", providerExecuted: true, providerMetadata: { openai: { itemId: "ws_1" } } },
      { type: "tool-input-delta", toolCallId: "call-ws", inputTextDelta: "{\"q\":\"rust wasm\"}" },
      { type: "tool-input-available", toolCallId: "call-ws", toolName: "web_search", input: { q: "rust wasm" }, providerExecuted: true },
      { type: "tool-approval-request", approvalId: "appr-ws", toolCallId: "call-ws", isAutomatic: true, signature: "sig-abc", approvalDescriptor: { kind: "mcp" }, inputSchemaInput: { q: "rust wasm" } },
      { type: "tool-approval-response", approvalId: "appr-ws", approved: true, reason: "policy", providerExecuted: true },
      { type: "tool-output-available", toolCallId: "call-ws", output: [{ url: "https://example.com" }], providerExecuted: true, providerMetadata: { openai: { itemId: "ws_1r" } } },
      { type: "finish", finishReason: "stop" },
    ],
  },
  "tool-dynamic-preliminary": {
    description: "Dynamic tool (dynamic: true → part type dynamic-tool with toolName) with title and toolMetadata, two preliminary outputs then the final one; plus a static tool with inputEncoding text (raw text input, not JSON-parsed).",
    covers: ["start", "tool-input-start", "tool-input-delta", "tool-input-available", "tool-output-available", "finish"],
    chunks: [
      { type: "start", messageId: "msg-dyn" },
      { type: "tool-input-start", toolCallId: "call-dyn", toolName: "mcp_lookup", dynamic: true, title: "MCP lookup", toolMetadata: { server: "docs" } },
      { type: "tool-input-delta", toolCallId: "call-dyn", inputTextDelta: "{\"id\":4" },
      { type: "tool-input-delta", toolCallId: "call-dyn", inputTextDelta: "2}" },
      { type: "tool-input-available", toolCallId: "call-dyn", toolName: "mcp_lookup", input: { id: 42 }, dynamic: true, title: "MCP lookup" },
      { type: "tool-output-available", toolCallId: "call-dyn", output: { status: "loading", pct: 10 }, dynamic: true, preliminary: true },
      { type: "tool-output-available", toolCallId: "call-dyn", output: { status: "loading", pct: 70 }, dynamic: true, preliminary: true },
      { type: "tool-output-available", toolCallId: "call-dyn", output: { status: "done", value: "forty-two" }, dynamic: true },
      { type: "tool-input-start", toolCallId: "call-txt", toolName: "shell", inputEncoding: "text" },
      { type: "tool-input-delta", toolCallId: "call-txt", inputTextDelta: "ls -la {" },
      { type: "tool-input-delta", toolCallId: "call-txt", inputTextDelta: "not json" },
      { type: "tool-input-available", toolCallId: "call-txt", toolName: "shell", input: "ls -la {not json" },
      { type: "tool-output-available", toolCallId: "call-txt", output: "total 0" },
      { type: "finish", finishReason: "stop" },
    ],
  },
  // ---------------------------------------------------------------- sources, files, data, misc
  "sources-files": {
    description: "source-url (with and without title), source-document (with filename), file (data: URL), reasoning-file, custom (kind provider.thing) — each appends a part.",
    covers: ["start", "source-url", "source-document", "file", "reasoning-file", "custom", "text-start", "text-delta", "text-end", "finish"],
    chunks: [
      { type: "start", messageId: "msg-src" },
      { type: "source-url", sourceId: "src-1", url: "https://example.com/ä?q=1", title: "Example ä" },
      { type: "source-url", sourceId: "src-2", url: "https://example.org/" },
      { type: "source-document", sourceId: "doc-1", mediaType: "application/pdf", title: "Spec", filename: "spec.pdf" },
      { type: "file", url: "data:text/plain;base64,SGVsbG8=", mediaType: "text/plain", providerMetadata: { mock: { f: 1 } } },
      { type: "reasoning-file", url: "https://example.com/sketch.png", mediaType: "image/png" },
      { type: "custom", kind: "mock.banner", providerMetadata: { mock: { color: "red" } } },
      { type: "text-start", id: "txt-1" },
      { type: "text-delta", id: "txt-1", delta: "See the sources." },
      { type: "text-end", id: "txt-1" },
      { type: "finish", finishReason: "stop" },
    ],
  },
  "data-parts": {
    description: "data-weather id w1 written three times (the part is replaced in place, keeps its position), data-weather without id twice (appended twice), data-status with the same id w1 (different type → separate part), a transient data-notification (not added to the message), data with extra members.",
    covers: ["start", "data-*", "text-start", "text-delta", "text-end", "finish"],
    chunks: [
      { type: "start", messageId: "msg-data" },
      { type: "data-weather", id: "w1", data: { city: "Köln", status: "loading" } },
      { type: "text-start", id: "txt-1" },
      { type: "text-delta", id: "txt-1", delta: "Weather:" },
      { type: "text-end", id: "txt-1" },
      { type: "data-weather", id: "w1", data: { city: "Köln", status: "partial", tempC: 12 } },
      { type: "data-weather", data: { note: "no id 1" } },
      { type: "data-notification", id: "n1", data: { message: "transient toast" }, transient: true },
      { type: "data-weather", data: { note: "no id 2" } },
      { type: "data-status", id: "w1", data: "other type same id" },
      { type: "data-weather", id: "w1", data: { city: "Köln", status: "done", tempC: 13 }, transient: false },
      { type: "finish", finishReason: "stop" },
    ],
  },
  "steering-message": {
    description: "Experimental steering-message chunk (a user message injected mid-run) between two text parts: appended as a part {type: steering-message, id, parts}.",
    covers: ["start", "text-start", "text-delta", "text-end", "steering-message", "finish"],
    chunks: [
      { type: "start", messageId: "msg-steer" },
      { type: "text-start", id: "t1" },
      { type: "text-delta", id: "t1", delta: "Working on it…" },
      { type: "text-end", id: "t1" },
      { type: "steering-message", id: "user-steer-1", parts: [{ type: "text", text: "also check Bern" }] },
      { type: "text-start", id: "t2" },
      { type: "text-delta", id: "t2", delta: "Also Bern." },
      { type: "text-end", id: "t2" },
      { type: "finish", finishReason: "stop" },
    ],
  },
  "forward-compat": {
    description: "Known chunks with extra unknown members (zod looseObject keeps them; the client copies only known members into parts, except data-* chunks which are pushed as-is) and finishReason interrupted.",
    covers: ["start", "text-start", "text-delta", "text-end", "data-*", "finish"],
    chunks: [
      { type: "start", messageId: "msg-fc", futureField: 1 },
      { type: "text-start", id: "t1", futureField: "x" },
      { type: "text-delta", id: "t1", delta: "forward", futureField: [1] },
      { type: "text-end", id: "t1", futureField: null },
      { type: "data-extra", id: "d1", data: 1, futureField: "kept?" },
      { type: "finish", finishReason: "interrupted", futureField: true },
    ],
  },
  "keepalive": {
    description: "createUIMessageStreamResponse with keepAliveMs: an SSE comment ': stream-open' precedes the first frame (keep-alive comments ': keep-alive' follow idle periods; none here).",
    covers: ["start", "text-start", "text-delta", "text-end", "finish"],
    produce: () =>
      createUIMessageStreamResponse({
        keepAliveMs: 600000,
        stream: createUIMessageStream({
          generateId: () => "msg-keepalive",
          execute: ({ writer }) => {
            for (const c of [
              { type: "start" },
              { type: "text-start", id: "t1" },
              { type: "text-delta", id: "t1", delta: "kept alive" },
              { type: "text-end", id: "t1" },
              { type: "finish" },
            ]) writer.write(c);
          },
        }),
      }),
  },
  // ---------------------------------------------------------------- errors, abort, cut
  "error-chunk": {
    description: "Text, then an error chunk (errorText), then more text and finish. readUIMessageStream reports it to onError and goes on; the Chat (DefaultChatTransport path) fails the request (status error) and keeps the parts so far.",
    covers: ["start", "text-start", "text-delta", "text-end", "error", "finish"],
    chunks: [
      { type: "start", messageId: "msg-err" },
      { type: "text-start", id: "t1" },
      { type: "text-delta", id: "t1", delta: "partial answer" },
      { type: "error", errorText: "Rate limit exceeded (429)" },
      { type: "text-delta", id: "t1", delta: " continued" },
      { type: "text-end", id: "t1" },
      { type: "finish", finishReason: "error" },
    ],
  },
  "execute-throws": {
    description: "createUIMessageStream whose execute throws after writing some chunks: the official onError (default 'An error occurred.') becomes an error chunk; the stream then ends (no finish).",
    covers: ["start", "text-start", "text-delta", "error"],
    produce: () =>
      createUIMessageStreamResponse({
        stream: createUIMessageStream({
          generateId: () => "msg-throw",
          execute: async ({ writer }) => {
            writer.write({ type: "start" });
            writer.write({ type: "text-start", id: "t1" });
            writer.write({ type: "text-delta", id: "t1", delta: "about to fail" });
            throw new Error("secret server detail");
          },
        }),
      }),
  },
  abort: {
    description: "Text in progress (no text-end), then abort with a reason; no finish. The client keeps the text part in state streaming.",
    covers: ["start", "start-step", "text-start", "text-delta", "abort"],
    chunks: [
      { type: "start", messageId: "msg-abort" },
      { type: "start-step" },
      { type: "text-start", id: "t1" },
      { type: "text-delta", id: "t1", delta: "I was going to say" },
      { type: "abort", reason: "user stopped" },
    ],
  },
  "cut-before-finish": {
    description: "The connection ends at a frame boundary after a text delta and an unfinished tool input: no text-end, no finish, no [DONE].",
    covers: ["start", "text-start", "text-delta", "tool-input-start", "tool-input-delta"],
    chunks: [
      { type: "start", messageId: "msg-cut" },
      { type: "text-start", id: "t1" },
      { type: "text-delta", id: "t1", delta: "Half an ans" },
      { type: "tool-input-start", toolCallId: "call-cut", toolName: "weather" },
      { type: "tool-input-delta", toolCallId: "call-cut", inputTextDelta: "{\"city\":\"Li" },
      { type: "text-delta", id: "t1", delta: "wer" },
      { type: "finish", finishReason: "stop" },
    ],
    cut: (bytes) => bytes.subarray(0, bytes.indexOf(Buffer.from('data: {"type":"finish"'))),
  },
  "cut-mid-frame": {
    description: "The connection ends inside a frame (inside a multi-byte character of a text delta's JSON): the last, incomplete frame is never dispatched.",
    covers: ["start", "text-start", "text-delta"],
    chunks: [
      { type: "start", messageId: "msg-cutmid" },
      { type: "text-start", id: "t1" },
      { type: "text-delta", id: "t1", delta: "complete " },
      { type: "text-delta", id: "t1", delta: "incomplete 😀 never seen" },
      { type: "text-end", id: "t1" },
      { type: "finish" },
    ],
    cut: (bytes) => {
      const at = bytes.indexOf(Buffer.from("😀"));
      return bytes.subarray(0, at + 2);
    },
  },
  // ---------------------------------------------------------------- deliberately invalid
  "invalid-delta-before-start": {
    valid: false,
    description: "text-delta for an id that was never started (UIMessageStreamError 'Received text-delta for missing text part…').",
    covers: ["start", "text-delta", "text-start", "text-end", "finish"],
    chunks: [
      { type: "start", messageId: "msg-inv1" },
      { type: "text-delta", id: "nope", delta: "orphan" },
      { type: "text-start", id: "t1" },
      { type: "text-delta", id: "t1", delta: "after" },
      { type: "text-end", id: "t1" },
      { type: "finish" },
    ],
  },
  "invalid-reasoning-end-without-start": {
    valid: false,
    description: "Valid text, then reasoning-end for an id that was never started (UIMessageStreamError).",
    covers: ["start", "text-start", "text-delta", "text-end", "reasoning-end", "finish"],
    chunks: [
      { type: "start", messageId: "msg-inv2" },
      { type: "text-start", id: "t1" },
      { type: "text-delta", id: "t1", delta: "fine so far" },
      { type: "text-end", id: "t1" },
      { type: "reasoning-end", id: "r-missing" },
      { type: "finish" },
    ],
  },
  "invalid-tool-delta-unknown-call": {
    valid: false,
    description: "tool-input-delta for a toolCallId without tool-input-start (UIMessageStreamError).",
    covers: ["start", "text-start", "text-delta", "text-end", "tool-input-delta", "finish"],
    chunks: [
      { type: "start", messageId: "msg-inv3" },
      { type: "text-start", id: "t1" },
      { type: "text-delta", id: "t1", delta: "ok" },
      { type: "text-end", id: "t1" },
      { type: "tool-input-delta", toolCallId: "ghost", inputTextDelta: "{}" },
      { type: "finish" },
    ],
  },
  "invalid-tool-output-unknown-call": {
    valid: false,
    description: "tool-output-available for a toolCallId no part has ('No tool invocation found for tool call ID …').",
    covers: ["start", "text-start", "text-delta", "text-end", "tool-output-available", "finish"],
    chunks: [
      { type: "start", messageId: "msg-inv4" },
      { type: "text-start", id: "t1" },
      { type: "text-delta", id: "t1", delta: "ok" },
      { type: "text-end", id: "t1" },
      { type: "tool-output-available", toolCallId: "ghost", output: 1 },
      { type: "finish" },
    ],
  },
  "invalid-unknown-type": {
    valid: false,
    description: "A chunk type not in the schema ({type: 'text-foo'}) after valid text: uiMessageChunkSchema rejects it, the DefaultChatTransport path throws the TypeValidationError.",
    covers: ["start", "text-start", "text-delta", "text-end", "finish"],
    chunks: [
      { type: "start", messageId: "msg-inv5" },
      { type: "text-start", id: "t1" },
      { type: "text-delta", id: "t1", delta: "before unknown" },
      { type: "text-end", id: "t1" },
      { type: "text-foo", id: "t1", delta: "?" },
      { type: "finish" },
    ],
  },
  "invalid-missing-member": {
    valid: false,
    description: "A text-delta without its required delta member (schema rejects it).",
    covers: ["start", "text-start", "text-delta", "finish"],
    chunks: [
      { type: "start", messageId: "msg-inv6" },
      { type: "text-start", id: "t1" },
      { type: "text-delta", id: "t1", delta: "good" },
      { type: "text-delta", id: "t1" },
      { type: "finish" },
    ],
  },
  "invalid-malformed-json": {
    valid: false,
    handmade: true,
    description: "Hand-written (the official writer always JSON.stringifies): a frame whose data is not JSON (JSONParseError) between valid frames.",
    covers: ["start", "text-start", "text-delta", "finish"],
    raw:
      'data: {"type":"start","messageId":"msg-inv7"}\n\n' +
      'data: {"type":"text-start","id":"t1"}\n\n' +
      'data: {"type":"text-delta","id":"t1","delta":"ok"}\n\n' +
      'data: {"type":"text-delta","id":"t1","delta":"bro\n\n' +
      'data: {"type":"finish"}\n\n' +
      "data: [DONE]\n\n",
  },
  "sse-fields": {
    handmade: true,
    description: "Hand-written SSE the official writer never produces but a proxy or another server might: comments, event:/id:/retry: fields (ignored), a JSON chunk split over two data: lines (joined with \\n, still valid JSON), a frame with no data (not dispatched), no space after 'data:'.",
    covers: ["start", "text-start", "text-delta", "text-end", "finish"],
    raw:
      ": hello comment\n\n" +
      'event: message\nid: 1\nretry: 1000\ndata: {"type":"start","messageId":"msg-sse"}\n\n' +
      'data:{"type":"text-start","id":"t1"}\n\n' +
      'data: {"type":"text-delta",\ndata: "id":"t1","delta":"multi-line data"}\n\n' +
      "event: ping\n\n" +
      'data: {"type":"text-end","id":"t1"}\n\n' +
      'data: {"type":"finish"}\n\n' +
      "data: [DONE]\n\n",
  },
  // ---------------------------------------------------------------- streamText over a mock model
  "streamtext-tool-steps": {
    description: "streamText(...).toUIMessageStreamResponse() over MockLanguageModelV4: step 1 reasoning + text + a weather tool call (input streamed in 3 deltas, split inside ü) executed by the SDK; step 2 text; messageMetadata at start and finish; sendReasoning default (true).",
    covers: ["start", "start-step", "reasoning-start", "reasoning-delta", "reasoning-end", "text-start", "text-delta", "text-end", "tool-input-start", "tool-input-delta", "tool-input-available", "tool-output-available", "finish-step", "finish"],
    produce: () =>
      streamText({
        model: mockModel([
          [
            { type: "stream-start", warnings: [] },
            { type: "response-metadata", id: "resp-1", modelId: "mock-model", timestamp: new Date(0) },
            { type: "reasoning-start", id: "r1" },
            { type: "reasoning-delta", id: "r1", delta: "Need weather → call tool." },
            { type: "reasoning-end", id: "r1" },
            { type: "text-start", id: "t1" },
            { type: "text-delta", id: "t1", delta: "Checking Zü" },
            { type: "text-delta", id: "t1", delta: "rich…" },
            { type: "text-end", id: "t1" },
            { type: "tool-input-start", id: "call-w1", toolName: "weather" },
            { type: "tool-input-delta", id: "call-w1", delta: "{\"city\":\"Z" },
            { type: "tool-input-delta", id: "call-w1", delta: "ü" },
            { type: "tool-input-delta", id: "call-w1", delta: "rich\"}" },
            { type: "tool-input-end", id: "call-w1" },
            { type: "tool-call", toolCallId: "call-w1", toolName: "weather", input: "{\"city\":\"Zürich\"}" },
            { type: "finish", finishReason: { unified: "tool-calls", raw: "tool_use" }, usage: usage(10, 20) },
          ],
          [
            { type: "stream-start", warnings: [] },
            { type: "text-start", id: "t2" },
            { type: "text-delta", id: "t2", delta: "It is 21 °C and " },
            { type: "text-delta", id: "t2", delta: "☀️ sunny in Zürich." },
            { type: "text-end", id: "t2" },
            { type: "finish", finishReason: { unified: "stop", raw: "end_turn" }, usage: usage(30, 12) },
          ],
        ]),
        prompt: "weather in Zürich?",
        tools: { weather: weatherTool },
        stopWhen: stepCountIs(3),
        _internal: { generateId: counterIds("st1") },
      }).toUIMessageStreamResponse({
        generateMessageId: () => "msg-st-1",
        messageMetadata: ({ part }) =>
          part.type === "start" ? { model: "mock-model" } : part.type === "finish" ? { totalTokens: part.totalUsage.totalTokens } : undefined,
      }),
  },
  "streamtext-approval-sources": {
    description: "streamText over MockLanguageModelV4: a source-url and a file from the model, then a tool with needsApproval → tool-input-available + tool-approval-request (approvalId minted by the SDK), finish tool-calls; sendSources: true.",
    covers: ["start", "start-step", "source-url", "file", "text-start", "text-delta", "text-end", "tool-input-start", "tool-input-delta", "tool-input-available", "tool-approval-request", "finish-step", "finish"],
    produce: () =>
      streamText({
        model: mockModel([
          [
            { type: "stream-start", warnings: [] },
            { type: "source", sourceType: "url", id: "src-m1", url: "https://example.com/policy", title: "Policy" },
            { type: "file", mediaType: "text/plain", data: { type: "data", data: "aGk=" } },
            { type: "text-start", id: "t1" },
            { type: "text-delta", id: "t1", delta: "I will delete it." },
            { type: "text-end", id: "t1" },
            { type: "tool-input-start", id: "call-d1", toolName: "deleteFile" },
            { type: "tool-input-delta", id: "call-d1", delta: "{\"path\":\"/tmp/x\"}" },
            { type: "tool-input-end", id: "call-d1" },
            { type: "tool-call", toolCallId: "call-d1", toolName: "deleteFile", input: "{\"path\":\"/tmp/x\"}" },
            { type: "finish", finishReason: { unified: "tool-calls", raw: "tool_use" }, usage: usage(5, 5) },
          ],
        ]),
        prompt: "delete /tmp/x",
        tools: {
          deleteFile: tool({
            inputSchema: jsonSchema({ type: "object", properties: { path: { type: "string" } }, required: ["path"] }),
            needsApproval: true,
            execute: async ({ path }) => ({ deleted: path }),
          }),
        },
        stopWhen: stepCountIs(3),
        _internal: { generateId: counterIds("st2") },
      }).toUIMessageStreamResponse({ generateMessageId: () => "msg-st-2", sendSources: true }),
  },
  "streamtext-errors": {
    description: "streamText over MockLanguageModelV4: a call to an unknown tool (tool-input-error from NoSuchToolError), a tool whose execute throws (tool-output-error), input failing the tool's zod inputSchema (tool-input-error), then step 2 where the model stream emits an error part (error chunk with the onError text).",
    covers: ["start", "start-step", "tool-input-start", "tool-input-delta", "tool-input-available", "tool-input-error", "tool-output-error", "finish-step", "error", "finish"],
    produce: () =>
      streamText({
        model: mockModel([
          [
            { type: "stream-start", warnings: [] },
            { type: "tool-call", toolCallId: "call-x", toolName: "doesNotExist", input: "{}" },
            { type: "tool-input-start", id: "call-f", toolName: "failing" },
            { type: "tool-input-delta", id: "call-f", delta: "{\"n\":1}" },
            { type: "tool-input-end", id: "call-f" },
            { type: "tool-call", toolCallId: "call-f", toolName: "failing", input: "{\"n\":1}" },
            { type: "tool-call", toolCallId: "call-v", toolName: "failing", input: "{\"n\":\"not a number\"}" },
            { type: "finish", finishReason: { unified: "tool-calls", raw: "tool_use" }, usage: usage(1, 1) },
          ],
          [
            { type: "stream-start", warnings: [] },
            { type: "error", error: new Error("model overloaded") },
            { type: "finish", finishReason: { unified: "error", raw: "error" }, usage: usage(1, 0) },
          ],
        ]),
        prompt: "try tools",
        tools: {
          failing: tool({
            inputSchema: z.object({ n: z.number() }),
            execute: async () => {
              throw new Error("tool exploded");
            },
          }),
        },
        stopWhen: stepCountIs(2),
        onError: () => {}, // the SDK's default onError console.errors the model error
        _internal: { generateId: counterIds("st3") },
      }).toUIMessageStreamResponse({
        generateMessageId: () => "msg-st-3",
        onError: (e) => `onError: ${e instanceof Error ? e.message : String(e)}`,
      }),
  },
};

/** The Response for stream `name`, produced by the official package. */
export async function produce(name) {
  const s = streams[name];
  if (s.raw !== undefined) {
    return new Response(s.raw, { headers: { "content-type": "text/event-stream" } });
  }
  if (s.produce) return await s.produce();
  return createUIMessageStreamResponse({
    stream: createUIMessageStream({
      generateId: () => `msg-generated-${name}`,
      execute: ({ writer }) => {
        for (const c of s.chunks) writer.write(structuredClone(c));
      },
    }),
  });
}
