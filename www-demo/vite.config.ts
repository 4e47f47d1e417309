// No setting for the package: `import { AgentClient } from "agentwire"` loads its wasm from
// `new URL(..., import.meta.url)` and WorkerClient its Worker, which Vite bundles as they are.
//
//   npm run build   → dist/ (served by the scenario server: `bash scripts/demo.sh`)
//   npm run dev     → hot-reloading dev server; /api goes to the scenario server at
//                     AGENTWIRE_SERVER (default http://127.0.0.1:8787, what demo.sh starts)
import { defineConfig } from "vite";

const server = process.env.AGENTWIRE_SERVER ?? "http://127.0.0.1:8787";

export default defineConfig({
  // `ws`: the MyAgent dialect runs over a WebSocket (/api/myagent/ws).
  server: { proxy: { "/api": { target: server, changeOrigin: true, ws: true } } },
  build: { chunkSizeWarningLimit: 600 },
});
