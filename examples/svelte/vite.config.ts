import { svelte } from "@sveltejs/vite-plugin-svelte";
import { defineConfig } from "vite";

export default defineConfig({
  plugins: [svelte()],
  // Served from a sub-folder by the scenario server in the tests.
  base: "./",
});
