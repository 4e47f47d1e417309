// A protocol's entry (issue 23) has agentwire's API without Worker mode, with the same types.
import { AgentClient, AgentStore, AgentwireError, type AgentSource, type Snapshot } from "agentwire/ai-sdk";
import { AgentClient as CoreClient } from "agentwire/core";
import type { Snapshot as FullSnapshot, AgentConnection } from "agentwire";

const chat = new AgentClient({ url: "/api/chat", aiSdk: { chatId: "c1" }, message: "Hi", limits: { maxTasks: 10 } });
const source: AgentSource = chat;
const same: FullSnapshot = source.getSnapshot();       // one Snapshot type for every entry
const conn: AgentConnection = new CoreClient({ url: "/api/stream" });
export async function go(): Promise<Snapshot> {
  try {
    return await chat.run();
  } catch (e) {
    if (e instanceof AgentwireError && e.code === "unauthorized") throw e;
    throw e;
  }
}
export const uses = [same, conn, new AgentStore()];
