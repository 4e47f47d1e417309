// A small agent UI on agentwire/react: the answer streams in, an approval is answered with a
// click, the run's status shows. `?run=NAME` names the run (the tests read its connections on
// the server), `?speed=N` paces it,
// `?faults=` makes the server misbehave.
import { memo, useRef, useState } from "react";
import { useAgent, useAgentEvent, useAgentSnapshot, type UseAgentResult } from "agentwire/react";

const params = new URLSearchParams(location.search);
const run = params.get("run") ?? `react-${Date.now()}`;
const speed = params.get("speed") ?? "1";
// `?faults=` passes the scenario server's faults through (the tests make the connection fail).
const faults = params.get("faults") ? `&faults=${encodeURIComponent(params.get("faults")!)}` : "";

export function App() {
  const [mounted, setMounted] = useState(true);
  return (
    <main>
      <header>
        <h1>agentwire + React</h1>
        <button data-testid="toggle" onClick={() => setMounted((m) => !m)}>
          {mounted ? "Unmount the agent" : "Mount the agent"}
        </button>
      </header>
      {mounted ? <Agent /> : <p data-testid="unmounted">The agent is unmounted (its connection is closed).</p>}
    </main>
  );
}

function Agent() {
  const agent = useAgent({ url: `/api/stream?scenario=approval&speed=${speed}&run=${run}${faults}` });
  const { client, snapshot, connection, status, error, approve, deny } = agent;
  const [events, setEvents] = useState<string[]>([]);
  useAgentEvent(client, "input-*", (e) => setEvents((l) => [...l, e.kind]));
  const [answering, setAnswering] = useState<string | null>(null);
  const answer = async (id: string, f: () => Promise<void>) => {
    setAnswering(id);
    await f();
    setAnswering(null);
  };
  return (
    <section>
      <p className="meta">
        status <b data-testid="status">{status}</b> · connection{" "}
        <b data-testid="connection">{connection.state}</b> · task <TaskStatus client={client} /> · run{" "}
        <code>{run}</code>
      </p>
      <Answer client={client} />
      {snapshot.pendingInputs.map((input) => (
        <div className="approval" key={input.id} data-testid="approval">
          <p>{input.prompt}</p>
          <button data-testid="approve" disabled={answering === input.id} onClick={() => answer(input.id, () => approve(input.id))}>
            Approve
          </button>
          <button disabled={answering === input.id} onClick={() => answer(input.id, () => deny(input.id))}>
            Deny
          </button>
        </div>
      ))}
      <p className="meta">
        events <span data-testid="events">{events.join(" ")}</span> · messages {agent.messages.length}
      </p>
      {error && <p className="error" data-testid="error">{error.code}: {error.message}</p>}
    </section>
  );
}

// Each reads one value with a selector (and is memo'd, so the parent's updates do not render it):
// the badge re-renders only when the task's status changes (a handful of times), the answer on
// every delta. The counts show it.
const TaskStatus = memo(function TaskStatus({ client }: { client: UseAgentResult["client"] }) {
  const taskStatus = useAgentSnapshot(client, (s) => s.roots[0]?.status ?? "none");
  const renders = useRef(0);
  renders.current++;
  return (
    <>
      <b data-testid="task-status">{taskStatus}</b> (<span data-testid="status-renders">{renders.current}</span> renders)
    </>
  );
});

const Answer = memo(function Answer({ client }: { client: UseAgentResult["client"] }) {
  const text = useAgentSnapshot(client, (s) => s.roots[0]?.content ?? "");
  const renders = useRef(0);
  renders.current++;
  return (
    <>
      <p className="answer" data-testid="answer">{text}</p>
      <p className="meta">
        answer rendered <span data-testid="answer-renders">{renders.current}</span> times
      </p>
    </>
  );
});
