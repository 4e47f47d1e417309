// Diagnostics: every problem in the stream (bad JSON, a wrong field type, a chunk gap, an unsafe
// authUrl, …) becomes a Diagnostic with a stable `code`, a severity (`error`: not applied,
// `warning`: applied with the bad part ignored), a JSON path and the raw data. Nothing throws
// and nothing disappears. A clean run has none; turn on "malformed lines" to see some.

import type { Diagnostic, Snapshot } from "agentwire";
import { byId, h, setText, show, syncList } from "../dom";

export function diagnosticsPanel(): { render: (snap: Snapshot) => void } {
  const list = byId("diag-list");
  const count = byId("diag-count");
  const empty = byId("diag-empty");
  let shown: Diagnostic[] | undefined;
  return {
    render(snap) {
      if (snap.diagnostics === shown) return;
      shown = snap.diagnostics;
      setText(count, String(snap.diagnostics.length));
      count.className = `badge ${snap.diagnostics.some((d) => d.severity === "error") ? "diag-error" : snap.diagnostics.length ? "diag-warning" : "diag-none"}`;
      show(empty, snap.diagnostics.length === 0);
      syncList(list, snap.diagnostics.map((d, i) => ({ d, i })), ({ d, i }) => `${i}:${d.position}:${d.code}`, ({ d }) =>
        h("li", { class: `diag ${d.severity}`, "data-code": d.code },
          h("div", null,
            h("span", { class: `badge diag-${d.severity}` }, d.severity),
            h("code", null, d.code),
            h("span", { class: "muted small" }, ` ${d.kind ?? ""} ${d.path} · event #${d.position}${d.eventId ? ` (last id ${d.eventId})` : ""}`)),
          h("div", null, d.message),
          d.raw !== undefined ? h("code", { class: "raw small" }, d.raw) : null));
    },
  };
}
