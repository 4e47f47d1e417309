// The connection: `client.onConnectionChange(info)` reports every state change (connecting,
// open, reconnecting, closed, failed) with a reason for people, the reconnect attempt and, on
// failure, a stable code. With the drop fault on, watch it go open → reconnecting → open: the
// SDK resumes with `Last-Event-ID` and ignores events the server replays.

import type { AgentClient, ConnectionInfo, Snapshot } from "agentwire";
import { byId, h, setText } from "../dom";

export function connectionPanel(client: AgentClient, runId: string): {
  onChange: (info: ConnectionInfo) => void;
  render: (snap: Snapshot) => void;
} {
  const state = byId("conn-state");
  const reason = byId("conn-reason");
  const log = byId("conn-log");
  const stats = byId("conn-stats");
  const t0 = performance.now();
  log.replaceChildren();

  const onChange = (info: ConnectionInfo): void => {
    setText(state, info.state);
    state.className = `badge conn-${info.state}`;
    // The reason already names the attempt ("reconnecting in 634 ms (attempt 1)", "gave up after
    // 8 attempts"); `info.attempt` is the same number, for code that needs it as a number.
    setText(reason, `${info.reason}${info.code ? ` [${info.code}]` : ""}`);
    log.append(h("li", { "data-state": info.state },
      h("span", { class: "muted small" }, `${((performance.now() - t0) / 1000).toFixed(2)} s `),
      h("strong", null, info.state), ` ${info.reason}`));
  };
  onChange(client.connection);

  return {
    onChange,
    render(snap) {
      // The last event id is what a resume sends; `version` changes exactly when state changed.
      setText(stats, `run ${runId} · last event id ${client.store.lastEventId || "–"} · store version ${snap.version}`);
    },
  };
}
