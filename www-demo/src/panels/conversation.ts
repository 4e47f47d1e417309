// The conversation (AG-UI): `task.messages` in AG-UI's shape (role, text, tool calls with their
// streamed arguments) and `task.sharedState`, the agent's state document, of the selected run.
// Every AG-UI run of the thread is a root task; the select picks one (default: the latest, until
// the user picks another). The form sends the next turn with `client.sendMessage(text)`.
// Hidden while no task has messages (the other dialects have none).

import type { AgentClient, Message, Snapshot, Task } from "agentwire";
import { byId, h, json, replace, setText, show, syncList } from "../dom";

export function conversationPanel(client: AgentClient): { render: (snap: Snapshot) => void; dispose: () => void } {
  const section = byId("conversation");
  const select = byId<HTMLSelectElement>("conversation-task");
  const list = byId("conversation-list");
  const stateJson = byId("shared-state-json");
  const stateSize = byId("shared-state-size");
  const count = byId("conversation-count");
  const form = byId<HTMLFormElement>("conversation-form");
  const input = byId<HTMLInputElement>("conversation-input");
  const error = byId("conversation-error");
  /** The run the user picked (`""`: follow the latest). */
  let picked = "";
  let last: Snapshot | undefined;

  const onSelect = (): void => {
    picked = select.value === select.options[select.options.length - 1]?.value ? "" : select.value;
    if (last) render(last, true);
  };
  const onSubmit = (e: Event): void => {
    e.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    input.disabled = true;
    setText(error, "");
    client.sendMessage(text)
      .then(() => { input.value = ""; picked = ""; })
      .catch((err: unknown) => setText(error, `sendMessage failed: ${err instanceof Error ? err.message : String(err)}`))
      .finally(() => { input.disabled = false; });
  };
  select.addEventListener("change", onSelect);
  form.addEventListener("submit", onSubmit);

  const messageItem = (m: Message): HTMLElement => h("li", { "data-role": m.role, "data-message": m.id });
  const fill = (el: HTMLElement, m: Message): void => {
    replace(el,
      h("span", { class: "message-role" }, m.role),
      m.role === "activity"
        ? h("span", { class: "message-text muted" }, `${m.activityType ?? "activity"}: ${json(m.activity, 0)}`)
        : h("span", { class: "message-text" }, m.content),
      m.toolCalls.map((c) => h("div", { class: "message-tool" }, `→ ${c.function.name}(${c.function.arguments})`)));
    el.classList.toggle("streaming", m.streaming);
  };

  function render(snap: Snapshot, force = false): void {
    if (snap === last && !force) return;
    last = snap;
    const runs: Task[] = snap.tasks.filter((t) => t.messages.length > 0 && t.parentId === undefined);
    show(section, runs.length > 0);
    if (runs.length === 0) return;
    const ids = runs.map((t) => t.id);
    if ([...select.options].map((o) => o.value).join() !== ids.join()) {
      replace(select, runs.map((t, i) => h("option", { value: t.id }, `run ${i + 1} · ${t.status ?? "…"}`)));
    }
    const task = runs.find((t) => t.id === picked) ?? runs[runs.length - 1];
    if (!task) return;
    select.value = task.id;
    setText(count, String(task.messages.length));
    syncList(list, task.messages, (m) => m.id, messageItem, fill);
    const state = task.sharedState ?? [...runs].reverse().find((t) => t.sharedState !== undefined)?.sharedState;
    const text = json(state);
    setText(stateJson, text);
    setText(stateSize, state === undefined ? "(none)" : `${Object.keys(state as object).length} keys`);
  }

  return {
    render,
    dispose: () => {
      select.removeEventListener("change", onSelect);
      form.removeEventListener("submit", onSubmit);
    },
  };
}
