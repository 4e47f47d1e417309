// Dialect options and methods of AgentClient, as a strict consumer writes them (must compile).
import { AgentClient, type AgentClientOptions, type Dialect, type OutgoingRequest } from "agentwire";

export function a2a(): AgentClient {
  const opts: AgentClientOptions = {
    url: "/api/a2a",
    message: { text: "Analyze the Q4 sales", contextId: "ctx-1", metadata: { from: "app" } },
    endpoints: { rpc: "{base}/a2a" },
  };
  const client = new AgentClient(opts);
  const d: Dialect | undefined = client.dialect;
  if (d === "a2a") void client.sendMessage("and the Q3?", { contextId: "ctx-1" });
  void client.sendMessage("no options");
  return client;
}

export function others(): AgentClient[] {
  const dialects: AgentClientOptions["dialect"][] = ["auto", "canonical", "a2a", "acp", "unified", "myagent", undefined];
  const acp = new AgentClient({ url: "/api/stream?dialect=acp", dialect: "acp", endpoints: { rpc: "/api/acp/rpc" } });
  const my = new AgentClient({
    url: "ws://localhost/api/myagent/ws",
    dialect: "myagent",
    message: "hello",
    session: { content: { project_name: "p" }, metadata: { client_version: "1" } },
    ackIntervalMs: 250,
    idleTimeoutMs: 15_000,
  });
  my.send("a user.message");
  my.send({ event: "user.ack", content: { last_seq: 3 } });
  const logged = new AgentClient({
    url: "/api/a2a",
    message: "hi",
    responder: (r: OutgoingRequest) => {
      const m: string | undefined = r.method;
      const dd: Dialect | undefined = r.dialect;
      const t: "input" | "auth" | "cancel" | "message" = r.type;
      const h: Record<string, string> | undefined = r.headers;
      const hm: string | undefined = r.httpMethod;
      console.log(m, dd, t, h, hm, dialects.length);
    },
  });
  return [acp, my, logged];
}

export function failed(c: AgentClient): void {
  c.onConnectionChange((i) => {
    if (i.code === "rpc-error") console.log("the JSON-RPC request was refused:", i.reason);
  });
}
