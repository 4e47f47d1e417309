// The A2A JS SDK's client: ClientFactory resolves an agent card and makes a client (JSON-RPC and
// REST transports, sendMessageStream, resubscribe).
export { ClientFactory } from '@a2a-js/sdk/client';
