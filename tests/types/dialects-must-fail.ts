// Every marked line must be a type error (see must-fail.ts).
import { AgentClient, type Dialect } from "agentwire";

export function wrongDialects(c: AgentClient): void {
  // @ts-expect-error not a dialect
  new AgentClient({ url: "/x", dialect: "grpc" });
  // @ts-expect-error "auto" is an option, not a detected dialect
  const d: Dialect = "auto";
  // @ts-expect-error client.dialect may be undefined before detection
  const known: Dialect = c.dialect;
  // @ts-expect-error the message is text or an object
  new AgentClient({ url: "/x", message: 42 });
  // @ts-expect-error sendMessage takes text
  void c.sendMessage({ text: "hi" });
  // @ts-expect-error endpoints.rpc is a string template
  new AgentClient({ url: "/x", endpoints: { rpc: 1 } });
  // @ts-expect-error dialect is read-only information, not a method
  c.dialect();
  console.log(d, known);
}
