// AG-UI's client: HttpAgent runs an agent over HTTP (SSE or protobuf), verifies and applies the
// events (the `ag-ui` consumer of the benchmark harness).
export { HttpAgent } from '@ag-ui/client';
