// The conversation (AG-UI): `task.messages` in AG-UI's shape (role, text, tool calls with their
// streamed arguments) and `task.sharedState`, the agent's state document, of the selected run.
// Every AG-UI run of the thread is a root task; the select picks one (default: the latest, until
// the user picks another). The form sends the next turn with `client.sendMessage(text)`.
// Hidden while no task has messages (the other dialects have none).
// AI SDK (`parts`): an assistant message is shown part by part as the official `UIMessage` has
// them — text, reasoning, tool parts with their state, input and output, sources, files, data
// parts; a client-side tool waiting for its output gets a field and a button that send one
// (`client.respond(toolCallId, output)`).

import type { AgentClient, Message, Snapshot, Task } from "agentwire";
import { byId, h, json, replace, setText, show, syncList } from "../dom";

export function conversationPanel(client: AgentClient, partsView = false): { render: (snap: Snapshot) => void; dispose: () => void } {
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
  /** What the user typed as a client-side tool's output, by tool call (kept across renders). */
  const drafts = new Map<string, string>();
  const respondTo = (callId: string, text: string): void => {
    let output: unknown;
    try {
      output = JSON.parse(text);
    } catch {
      output = text;
    }
    setText(error, "");
    drafts.delete(callId);
    client.respond(callId, output).catch((err: unknown) => setText(error, `respond failed: ${err instanceof Error ? err.message : String(err)}`));
  };
  const clip = (t: string): string => (t.length > 240 ? `${t.slice(0, 240)}…` : t);
  /** One part of an AI SDK UIMessage. */
  const partView = (p: Record<string, unknown>): HTMLElement | null => {
    const type = String(p.type);
    if (type === "text") return h("div", { class: "message-text", "data-part": "text" }, String(p.text ?? ""));
    if (type === "reasoning") return h("div", { class: "message-text muted", "data-part": "reasoning" }, `(reasoning) ${String(p.text ?? "")}`);
    if (type === "step-start") return null;
    if (type.startsWith("tool-") || type === "dynamic-tool") {
      const name = type === "dynamic-tool" ? String(p.toolName) : type.slice(5);
      const state = String(p.state);
      const out = p.state === "output-error" ? ` ✗ ${String(p.errorText)}` : p.output !== undefined ? ` → ${json(p.output, 0)}` : "";
      const approval = p.approval as { approved?: boolean } | undefined;
      const said = approval?.approved === undefined ? "" : approval.approved ? " (approved)" : " (denied)";
      const el = h("div", { class: "message-tool", "data-part": "tool", "data-state": state },
        `${name}(${json(p.input, 0) ?? ""}) · ${state}${said}${out}`);
      if (state === "input-available" && typeof p.toolCallId === "string") {
        // A client-side tool: the message waits for its output (sent with the next POST).
        const id = p.toolCallId;
        const field = h("input", { type: "text", class: "tool-output", "data-call": id, "aria-label": `output of ${name}`, value: drafts.get(id) ?? "{}" });
        field.addEventListener("input", () => drafts.set(id, field.value));
        const b = h("button", { type: "button" }, "Send output");
        b.addEventListener("click", () => respondTo(id, field.value));
        el.append(h("div", { class: "request-form" }, field, " ", b));
      }
      return el;
    }
    if (type === "source-url") return h("div", { class: "message-tool", "data-part": "source" }, `source: ${String(p.title ?? p.url)} <${String(p.url)}>`);
    if (type === "source-document") return h("div", { class: "message-tool", "data-part": "source" }, `source: ${String(p.title)} (${String(p.mediaType)})`);
    if (type === "file" || type === "reasoning-file") return h("div", { class: "message-tool", "data-part": "file" }, `file: ${String(p.mediaType)} ${String(p.url).slice(0, 80)}`);
    if (type.startsWith("data-")) return h("div", { class: "message-tool", "data-part": "data" }, `${type}${p.id ? `#${String(p.id)}` : ""}: ${clip(json(p.data, 0))}`);
    return h("div", { class: "message-tool muted", "data-part": type }, `${type}: ${json(p, 0)}`);
  };
  const fill = (el: HTMLElement, m: Message): void => {
    if (partsView && m.role === "assistant") {
      const parts = (m.parts as unknown as Record<string, unknown>[]).map(partView).filter((x): x is HTMLElement => x !== null);
      replace(el, h("span", { class: "message-role" }, m.role), parts);
      el.classList.toggle("streaming", m.streaming);
      return;
    }
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
    // The labels carry each run's status: refreshed when one changed.
    const labels = runs.map((t, i) => `${partsView ? "message" : "run"} ${i + 1} · ${t.status ?? "…"}`);
    if ([...select.options].map((o) => `${o.value}\n${o.text}`).join() !== runs.map((t, i) => `${t.id}\n${labels[i]}`).join()) {
      replace(select, runs.map((t, i) => h("option", { value: t.id }, labels[i])));
    }
    const task = runs.find((t) => t.id === picked) ?? runs[runs.length - 1];
    if (!task) return;
    select.value = task.id;
    setText(count, String(task.messages.length));
    syncList(list, task.messages, (m) => m.id, messageItem, fill);
    // The AI SDK has no shared state document.
    show(byId("shared-state"), !partsView);
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
