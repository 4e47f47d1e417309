import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

export default defineConfig({
  plugins: [react()],
  // Served from a sub-folder by the scenario server in the tests.
  base: "./",
  // The dev server's pre-bundling would split agentwire's glue from its wasm (see its README).
  optimizeDeps: { exclude: ["agentwire"] },
  // agentwire's WorkerClient runs a module Worker that awaits the wasm at top level.
  worker: { format: "es" },
});
