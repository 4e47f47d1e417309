// Vite 8 needs no plugin for the package's WebAssembly: `import { AgentClient } from "agentwire"`
// resolves to the bundler build (pkg/agentwire.js), whose `import … from "./agentwire_bg.wasm"`
// Vite turns into a fetched, streamed-compiled asset.
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
  // The package's WorkerClient starts a module Worker whose code awaits the wasm at top level:
  // bundle workers as ES modules (Vite's default "iife" cannot hold a top-level await).
  worker: { format: "es" },
  // Keep the package out of the dev server's dependency pre-bundling: pre-bundled, its glue is a
  // different module from the one its .wasm imports, and the page fails at start. (Not needed
  // while the package is linked from ../pkg, which Vite never pre-bundles; your app installs it.)
  optimizeDeps: { exclude: ["agentwire"] },
});
