// Events that carry no state of their own, delivered whole as `unknown` events whose
// `unknownKind` names them: AG-UI's STEP_STARTED / STEP_FINISHED, CUSTOM and RAW
// (`ag-ui:step-started`, `ag-ui:custom`, `ag-ui:raw`), the AI SDK's transient data parts
// (`ai-sdk:data-…`), and kinds a newer server sends. The filter runs inside WebAssembly: only
// these events cross into JavaScript.
//   client.store.subscribeEvents({ kinds: "unknown" }, handler)

import type { AgentClient } from "agentwire";
import { byId, h, json, setText, show } from "../dom";

const KEEP = 50;

export function eventsPanel(client: AgentClient): { render: () => void; dispose: () => void } {
  const list = byId("protocol-events-list");
  const count = byId("protocol-events-count");
  const empty = byId("protocol-events-empty");
  list.replaceChildren();
  let total = 0;
  const off = client.store.subscribeEvents({ kinds: "unknown" }, (e) => {
    if (e.kind !== "unknown") return;
    total++;
    // The event's own members, without what the badge and the run already say.
    const { type: _t, kind: _k, contextId: _c, taskId: _id, ...rest } = (e.data ?? {}) as Record<string, unknown>;
    list.prepend(
      h("li", { class: "protocol-event", "data-kind": e.unknownKind },
        h("span", { class: "badge" }, e.unknownKind),
        h("code", { class: "small muted" }, json(rest, 0).slice(0, 240))));
    while (list.children.length > KEEP) list.lastElementChild?.remove();
  });
  function render(): void {
    setText(count, String(total));
    show(empty, total === 0);
  }
  render();
  return { render, dispose: () => off() };
}
