import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

export default defineConfig({
  plugins: [react()],
  // Served from a sub-folder by the scenario server in the tests.
  base: "./",
});
