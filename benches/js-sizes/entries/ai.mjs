// The Vercel AI SDK's UI-stream client without a framework: AbstractChat (what useChat wraps),
// DefaultChatTransport (POST + UI message stream over SSE) and readUIMessageStream.
export { AbstractChat, DefaultChatTransport, readUIMessageStream } from 'ai';
