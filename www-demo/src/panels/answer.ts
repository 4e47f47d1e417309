// The streaming answer of the root task: `task.content` grows with every `content-delta`
// (reassembled in order by the SDK, duplicates dropped) and is confirmed by `task-complete`.

import type { Snapshot, Task } from "agentwire";
import { byId, h, ms, replace, setText } from "../dom";
import { renderMarkdown } from "../markdown";

export function answerPanel(): { render: (snap: Snapshot) => void } {
  const body = byId("answer-body");
  const status = byId("answer-status");
  const meta = byId("answer-meta");
  let shown: string | undefined;
  replace(body, h("p", { class: "muted" }, "Waiting for the agent…"));
  replace(meta);

  return {
    render(snap) {
      const root: Task | undefined = snap.roots[0];
      if (!root) return;
      setText(status, root.status ?? "starting");
      status.className = `badge status-${root.status ?? "none"}`;
      if (!root.content) {
        // Nothing streamed yet: say what the agent is doing ("Waiting for your approval").
        shown = undefined;
        replace(body, h("p", { class: "muted" }, root.statusMessage ?? "Waiting for the agent…"));
      } else if (root.content !== shown) {
        // Re-render only when the text changed (the snapshot also gives `task.revision`).
        shown = root.content;
        replace(body, renderMarkdown(root.content));
      }
      body.classList.toggle("streaming", !root.contentComplete && root.status !== "failed" && root.status !== "canceled");
      const facts = [
        root.content ? root.statusMessage : undefined, // (the placeholder shows it otherwise)
        root.history.at(-1)?.reason, // why a task failed or was canceled
        root.duration !== undefined ? `took ${ms(root.duration)}` : undefined,
        root.tokensUsed !== undefined ? `${root.tokensUsed} tokens` : undefined,
        root.iterations !== undefined ? `${root.iterations} iterations` : undefined,
        root.model,
      ].filter((x): x is string => Boolean(x));
      const unique = facts.filter((f, i) => facts.findIndex((g) => g.toLowerCase() === f.toLowerCase()) === i);
      setText(meta, unique.join(" · "));
    },
  };
}
