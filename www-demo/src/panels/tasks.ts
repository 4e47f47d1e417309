// The task tree: `snapshot.roots` are the top-level tasks, `task.children` the sub-agents they
// invoked (`subtask-created` / `parentTaskId`), to any depth. Each task has its status (with
// history), agent, the prompt it was given and its own streamed answer.

import type { Snapshot, Task } from "agentwire";
import { byId, h, replace } from "../dom";

export function tasksPanel(): { render: (snap: Snapshot) => void } {
  const tree = byId("task-tree");
  let tasks: Task[] | undefined;

  const node = (task: Task, byId: Map<string, Task>, depth: number): HTMLElement => {
    const kids = task.children.map((id) => byId.get(id)).filter((t): t is Task => t !== undefined);
    return h("li", { class: "task-node", "data-depth": depth, "data-status": task.status ?? "none" },
      h("div", { class: "task-line" },
        h("span", { class: `badge status-${task.status ?? "none"}` }, task.status ?? "…"),
        h("span", { class: "task-agent" }, task.agentId ?? (task.initiator === "user" ? "assistant" : "agent")),
        task.prompt ? h("span", { class: "task-prompt" }, task.prompt) : null),
      depth > 0 && task.content ? h("div", { class: "task-content muted small" }, task.content) : null,
      kids.length ? h("ul", null, kids.map((k) => node(k, byId, depth + 1))) : null);
  };

  return {
    render(snap) {
      // `snapshot.tasks` is the same array object until a task changed: skip the rebuild.
      if (snap.tasks === tasks) return;
      tasks = snap.tasks;
      const index = new Map(snap.tasks.map((t) => [t.id, t]));
      replace(tree, snap.roots.map((r) => node(r, index, 0)));
    },
  };
}
