// Artifacts: `snapshot.artifacts` describes each one (type, name, MIME type, size, version,
// row count, `revision`); the contents are read on demand from the store:
//   client.store.artifactText(id)   a file as text (UTF-8)
//   client.store.artifactBytes(id)  a file as bytes (base64 chunks decoded) → Blob
//   client.store.artifactRows(id)   a dataset's rows
// A card is rebuilt only when its artifact's `revision` changed.

import type { AgentClient, Artifact, Snapshot } from "agentwire";
import { byId, bytes, h, json, replace, show, syncList } from "../dom";
import { renderMarkdown } from "../markdown";

/** Image types shown inline. SVG is not one of them: an SVG can carry script. */
const INLINE_IMAGES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);

export function artifactsPanel(client: AgentClient): { render: (snap: Snapshot) => void; dispose: () => void } {
  const list = byId("artifacts-list");
  const empty = byId("artifacts-empty");
  const revisions = new WeakMap<HTMLElement, number>();
  const blobUrls = new Map<string, string>(); // artifact id → object URL (revoked on replace/dispose)
  const markdownView = new Map<string, boolean>(); // the user's "rendered" toggle per file

  /** An object URL for the artifact's bytes; the old one for this artifact is revoked. */
  const blobUrl = (a: Artifact, type: string): string | undefined => {
    const data = client.store.artifactBytes(a.id);
    if (!data) return undefined;
    const old = blobUrls.get(a.id);
    if (old) URL.revokeObjectURL(old);
    const url = URL.createObjectURL(new Blob([new Uint8Array(data)], { type }));
    blobUrls.set(a.id, url);
    return url;
  };

  const fileBody = (a: Artifact, card: HTMLElement): HTMLElement[] => {
    const mime = a.mimeType ?? "application/octet-stream";
    const parts: HTMLElement[] = [];
    if (INLINE_IMAGES.has(mime)) {
      // Shown once complete: the decoded bytes as a Blob, displayed through an object URL.
      const url = a.complete ? blobUrl(a, mime) : undefined;
      parts.push(url ? h("img", { class: "artifact-image", src: url, alt: a.name ?? a.id }) : h("p", { class: "muted small" }, "receiving…"));
    } else if (mime.startsWith("text/") || mime === "application/json") {
      const text = client.store.artifactText(a.id) ?? "";
      if (mime === "text/markdown") {
        // Markdown files: the source by default, or rendered by the same safe renderer.
        const rendered = markdownView.get(a.id) ?? false;
        parts.push(h("div", { class: "toggle" },
          h("button", { class: rendered ? "" : "active", onclick: () => { markdownView.set(a.id, false); rebuild(card, a); } }, "source"),
          h("button", { class: rendered ? "active" : "", onclick: () => { markdownView.set(a.id, true); rebuild(card, a); } }, "rendered")));
        parts.push(rendered ? h("div", { class: "markdown file-text" }, renderMarkdown(text, 3)) : h("pre", { class: "file-text" }, text));
      } else {
        parts.push(h("pre", { class: "file-text" }, text)); // an HTML file too: as text
      }
    } else {
      parts.push(h("p", { class: "muted small" }, `${mime}: not shown inline${mime.includes("svg") ? " (an SVG can carry script)" : ""}.`));
    }
    if (a.complete) {
      // Downloads are typed application/octet-stream: an HTML/SVG blob opened in a tab would run
      // in this page's origin.
      const url = INLINE_IMAGES.has(mime) ? blobUrls.get(a.id) : blobUrl(a, "application/octet-stream");
      if (url) parts.push(h("a", { class: "download", href: url, download: a.name ?? a.id }, `Download ${a.name ?? a.id}`));
    }
    return parts;
  };

  const dataBody = (a: Artifact): HTMLElement[] => [
    h("div", { class: "versions muted small" },
      "versions: ", (a.versions ?? []).map((v) => `v${v.version ?? "?"}${v.applied ? "" : " (late, ignored)"}`).join(" → ")),
    h("pre", { class: "json" }, json(a.data)),
  ];

  const datasetBody = (a: Artifact): HTMLElement[] => {
    const rows = client.store.artifactRows(a.id) ?? [];
    // Columns from the row schema when there is one, else from the rows.
    const props = (a.schema as { properties?: Record<string, unknown> } | undefined)?.properties;
    const columns = props ? Object.keys(props) : [...new Set(rows.flatMap((r) => Object.keys(r)))];
    const cell = (v: unknown): string => (v === null || typeof v !== "object" ? String(v ?? "") : json(v, 0));
    return [h("div", { class: "table-wrap" }, h("table", { class: "dataset" },
      h("thead", null, h("tr", null, columns.map((c) => h("th", null, c)))),
      h("tbody", null, rows.map((r) => h("tr", null, columns.map((c) => h("td", null, cell(r[c])))))))),
    ];
  };

  const summary = (a: Artifact): string => {
    switch (a.type) {
      case "file":
        return `${a.mimeType ?? "file"} · ${bytes(a.size)}${a.totalSize !== undefined && !a.complete ? ` of ${bytes(a.totalSize)}` : ""}${a.complete ? "" : " · streaming…"}`;
      case "data":
        return "JSON data";
      case "dataset":
        return `${a.rowCount ?? 0}${a.totalRows !== undefined ? ` of ${a.totalRows}` : ""} rows${a.complete ? "" : " · streaming…"}`;
    }
  };

  function rebuild(card: HTMLElement, a: Artifact): void {
    revisions.set(card, a.revision);
    card.dataset.type = a.type;
    card.dataset.complete = String(a.complete ?? true);
    replace(card,
      h("div", { class: "card-head" },
        h("span", { class: "artifact-name" }, a.name ?? a.id),
        h("span", { class: "badge" }, a.type),
        a.type === "data" ? h("span", { class: "badge version" }, `version ${a.version ?? "?"}`) : null,
        h("span", { class: "muted small" }, summary(a))),
      a.description ? h("p", { class: "muted small" }, a.description) : null,
      a.type === "file" ? fileBody(a, card) : a.type === "data" ? dataBody(a) : datasetBody(a));
  }

  return {
    render(snap) {
      show(empty, snap.artifacts.length === 0);
      syncList(list, snap.artifacts, (a) => a.id,
        () => h("li", { class: "card artifact" }),
        (card, a) => { if (revisions.get(card) !== a.revision) rebuild(card, a); });
    },
    dispose() {
      for (const url of blobUrls.values()) URL.revokeObjectURL(url);
      blobUrls.clear();
    },
  };
}
