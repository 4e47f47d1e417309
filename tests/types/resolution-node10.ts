// Compiled by scripts/typecheck.sh with the old `"moduleResolution": "node"` (node10), which
// ignores `exports`: both documented specifiers must still find their types (`types` for
// "agentwire", `typesVersions` for "agentwire/web").
import { AgentClient, AgentStore, WorkerClient } from "agentwire";
import init, { initSync, AgentStore as WebStore } from "agentwire/web";

export const store: AgentStore = new AgentStore({});
export const web: WebStore = new WebStore({});
export const kinds: unknown[] = [AgentClient, WorkerClient, init, initSync];
