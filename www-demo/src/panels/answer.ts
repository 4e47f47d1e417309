// The streaming answer of the root task: `task.content` grows with every `content-delta`
// (reassembled in order by the SDK, duplicates dropped) and is confirmed by `task-complete`.

import type { AgentClient, ConnectionInfo, Snapshot, Task } from "agentwire";
import { byId, h, ms, replace, setText } from "../dom";
import { renderMarkdown } from "../markdown";

/**
 * The task whose text is the answer: the root's own. The Unified dialect streams the agent's
 * messages (`agent_message_*`) as sub-tasks of the session: then the newest one with text.
 * Only there: in the other dialects a child with text is a sub-agent, whose partial output is
 * not the answer (it is shown in the task tree).
 */
function answerOf(snap: Snapshot, root: Task, unified: boolean): Task {
  if (root.content || !unified) return root;
  return snap.tasks.filter((t) => t.parentId === root.id && t.content).at(-1) ?? root;
}

export function answerPanel(client: AgentClient, latestRoot = false): { render: (snap: Snapshot) => void; onConnection: (info: ConnectionInfo) => void } {
  const body = byId("answer-body");
  const status = byId("answer-status");
  const meta = byId("answer-meta");
  let shown: string | undefined;
  // A connection that gave up ends the run on screen: the task will never finish, so no
  // streaming cursor, and the reason is said here too (not only in the connection panel).
  let lost: string | undefined;
  let last: Snapshot | undefined;
  // How long the run took, as this page saw it: from the panel's start (Run) to the root task's
  // end. (`root.duration` is what the agent reports; the scenario server's clock is simulated,
  // so its figure is the same at every speed and whatever the user's answers took.)
  const t0 = performance.now();
  let took: number | undefined;
  replace(body, h("p", { class: "muted" }, "Waiting for the agent…"));
  replace(meta);

  const panel = {
    onConnection(info: ConnectionInfo): void {
      const now = info.state === "failed" ? `Connection failed: ${info.reason}` : undefined;
      if (now === lost) return;
      lost = now;
      if (last) panel.render(last);
    },
    render(snap: Snapshot): void {
      last = snap;
      // AG-UI makes every run of the thread a root task (the one that streams the answer is the
      // last); elsewhere the first root is the run (A2A lists its sub-agents' tasks as roots too).
      const root: Task | undefined = latestRoot ? snap.roots[snap.roots.length - 1] : snap.roots[0];
      if (!root) {
        if (lost) replace(body, h("p", { class: "muted" }, lost)); // failed before the first event
        return;
      }
      if (took === undefined && (root.status === "completed" || root.status === "failed" || root.status === "canceled")) {
        took = performance.now() - t0;
      }
      setText(status, root.status ?? "starting");
      status.className = `badge status-${root.status ?? "none"}`;
      const answer = answerOf(snap, root, client.dialect === "unified");
      if (!answer.content) {
        // Nothing streamed yet: say what the agent is doing ("Waiting for your approval").
        shown = undefined;
        replace(body, h("p", { class: "muted" }, root.statusMessage ?? "Waiting for the agent…"));
      } else if (answer.content !== shown) {
        // Re-render only when the text changed (the snapshot also gives `task.revision`).
        shown = answer.content;
        replace(body, renderMarkdown(answer.content));
      }
      body.classList.toggle("streaming", lost === undefined && !answer.contentComplete && root.status !== "failed" && root.status !== "canceled" && root.status !== "completed");
      const facts = [
        lost,
        root.content ? root.statusMessage : undefined, // (the placeholder shows it otherwise)
        root.history.at(-1)?.reason, // why a task failed or was canceled
        took !== undefined ? `took ${ms(took)}` : undefined,
        root.tokensUsed !== undefined ? `${root.tokensUsed} tokens` : undefined,
        root.iterations !== undefined ? `${root.iterations} iterations` : undefined,
        root.model,
      ].filter((x): x is string => Boolean(x));
      const unique = facts.filter((f, i) => facts.findIndex((g) => g.toLowerCase() === f.toLowerCase()) === i);
      setText(meta, unique.join(" · "));
    },
  };
  return panel;
}
