// Headless Chromium for every browser runner (tests/e2e, tests/demo, tests/examples,
// tests/entries, the bundler checks): Debian's /usr/bin/chromium driven by playwright-core from
// tools/ (never a downloaded browser), with the flags TOOLCHAIN.md verified for root and a quiet
// network. `extraArgs`: flags one runner needs besides (e.g. memory measurements).
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** The quiet-network flags every runner launches with. */
export const CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
  "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"];

/** Launches headless Chromium; `tools` is the folder whose node_modules has playwright-core. */
export function launchChromium(extraArgs = [], tools = path.join(root, "tools")) {
  const { chromium } = createRequire(path.join(tools, "package.json"))("playwright-core");
  return chromium.launch({ executablePath: "/usr/bin/chromium", args: [...CHROMIUM_ARGS, ...extraArgs] });
}
