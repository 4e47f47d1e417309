import vue from "@vitejs/plugin-vue";
import { defineConfig } from "vite";

export default defineConfig({
  plugins: [vue()],
  // Served from a sub-folder by the scenario server in the tests.
  base: "./",
});
