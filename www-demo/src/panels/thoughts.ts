// The agent's visible reasoning: `task.thoughts` (type, verbosity, confidence, alternatives).
// The switch shows thoughts up to a verbosity (brief < normal < detailed). Filtering the
// snapshot suits a switch (it applies to what already arrived); for a live feed, the SDK filters
// inside WebAssembly before events reach JavaScript:
//   client.store.subscribeEvents({ kinds: "thought-stream", maxVerbosity: "normal" }, handler)

import type { Snapshot, Thought, Verbosity } from "agentwire";
import { byId, h, setText, show, syncList } from "../dom";

const RANK: Record<Verbosity, number> = { brief: 0, normal: 1, detailed: 2 };

export function thoughtsPanel(): { render: (snap: Snapshot) => void; dispose: () => void } {
  const list = byId("thoughts-list");
  const count = byId("thoughts-count");
  const empty = byId("thoughts-empty");
  const radios = [...document.querySelectorAll<HTMLInputElement>("input[name=verbosity]")];
  let last: Snapshot | undefined;
  const level = (): Verbosity => (radios.find((r) => r.checked)?.value as Verbosity | undefined) ?? "normal";
  // The radios belong to the page, this panel to one run: its listeners go with it (dispose),
  // or every Run would leave one more listener holding that run's last snapshot.
  const onSwitch = (): void => { if (last) render(last); };
  for (const r of radios) r.addEventListener("change", onSwitch);

  function render(snap: Snapshot): void {
    last = snap;
    const max = RANK[level()];
    const all = snap.tasks.flatMap((task) => task.thoughts.map((t) => ({ t, agent: task.agentId ?? "assistant" })));
    all.sort((a, b) => a.t.timestamp.localeCompare(b.t.timestamp) || a.t.index - b.t.index);
    const visible = all.filter(({ t }) => RANK[t.verbosity] <= max);
    setText(count, `${visible.length} of ${all.length}`);
    show(empty, visible.length === 0);
    syncList(list, visible, ({ t }) => t.id, ({ t, agent }) => thought(t, agent));
  }
  return {
    render,
    dispose: () => {
      for (const r of radios) r.removeEventListener("change", onSwitch);
      last = undefined;
    },
  };
}

function thought(t: Thought, agent: string): HTMLElement {
  return h("li", { class: `thought verbosity-${t.verbosity}`, "data-verbosity": t.verbosity },
    h("div", { class: "thought-head" },
      h("span", { class: `badge thought-${t.thoughtType}` }, t.thoughtType),
      h("span", { class: "muted small" }, `${t.verbosity} · ${agent}${t.confidence !== undefined ? ` · ${Math.round(t.confidence * 100)}% sure` : ""}`)),
    h("p", null, t.content),
    t.alternatives.length ? h("ul", { class: "alternatives muted small" }, t.alternatives.map((a) => h("li", null, `alternative: ${a}`))) : null);
}
