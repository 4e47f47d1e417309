// Tool calls: `task.tools` holds each call's name, arguments, progress (0..1), current step,
// `stepsCompleted`/`stepsTotal`, and the result or error once `tool-complete` arrives. The
// cards are keyed by `toolCallId` and updated in place.

import type { Snapshot, Task, Tool } from "agentwire";
import { byId, h, json, ms, setText, show, syncList } from "../dom";

interface Card {
  state: HTMLElement;
  bar: HTMLProgressElement;
  percent: HTMLElement;
  step: HTMLElement;
  result: HTMLElement;
  resultBody: HTMLElement;
  error: HTMLElement;
}

export function toolsPanel(): { render: (snap: Snapshot) => void } {
  const list = byId("tools-list");
  const empty = byId("tools-empty");
  const cards = new WeakMap<HTMLElement, Card>();

  const create = ({ tool, task }: { tool: Tool; task: Task }): HTMLElement => {
    const c: Card = {
      state: h("span", { class: "badge" }),
      bar: h("progress", { max: 1, value: 0 }),
      percent: h("span", { class: "percent" }),
      step: h("div", { class: "tool-step muted" }),
      resultBody: h("pre", { class: "json" }),
      result: h("details", { class: "tool-result" }),
      error: h("div", { class: "tool-error" }),
    };
    c.result.append(h("summary", null, "result"), c.resultBody);
    const el = h("li", { class: "card tool", "data-tool": tool.name },
      h("div", { class: "card-head" },
        h("span", { class: "tool-name" }, tool.name),
        c.state,
        h("span", { class: "muted small" }, task.agentId ?? task.id)),
      h("code", { class: "tool-args" }, json(tool.arguments, 0)),
      h("div", { class: "progress-row" }, c.bar, c.percent),
      c.step, c.error, c.result);
    cards.set(el, c);
    return el;
  };

  const update = (el: HTMLElement, { tool }: { tool: Tool }): void => {
    const c = cards.get(el);
    if (!c) return;
    setText(c.state, tool.state);
    c.state.className = `badge tool-${tool.state}`;
    // A native <progress>: no inline style needed (the page runs under a CSP without 'unsafe-inline').
    c.bar.value = tool.progress;
    setText(c.percent, `${Math.round(tool.progress * 100)}%`);
    const steps = tool.stepsTotal !== undefined ? `step ${tool.stepsCompleted ?? 0}/${tool.stepsTotal}` : "";
    const parts = [steps, tool.step, tool.message].filter(Boolean);
    if (tool.state !== "running") {
      parts.push(`${tool.state === "succeeded" ? "done" : "failed"}${tool.duration !== undefined ? ` in ${ms(tool.duration)}` : ""}`);
      if (tool.cached) parts.push("cached");
      if (tool.retries) parts.push(`${tool.retries} retries`);
    }
    setText(c.step, parts.join(" · "));
    setText(c.error, tool.error ?? "");
    show(c.error, tool.error !== undefined);
    setText(c.resultBody, json(tool.result));
    show(c.result, tool.result !== undefined);
    el.classList.toggle("succeeded", tool.state === "succeeded");
    el.classList.toggle("failed", tool.state === "failed");
  };

  return {
    render(snap) {
      const all = snap.tasks.flatMap((task) => task.tools.map((tool) => ({ tool, task })));
      show(empty, all.length === 0);
      syncList(list, all, ({ tool }) => tool.id, create, update);
    },
  };
}
