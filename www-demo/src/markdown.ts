// A tiny, safe markdown renderer for agent answers and markdown files: it builds DOM nodes
// from text and never parses HTML. Raw HTML in the markdown (`<script>`, `<img onerror=…>`)
// stays literal text. Links become <a> only for absolute http(s) URLs; any other link
// (`javascript:`, `data:`, relative) is shown as its literal source text.
//
// Supported: # headings, paragraphs, - / * and 1. lists, > quotes, ``` fences, | tables |,
// **bold**, *italic* / _italic_, `code`, [text](https://…). Unclosed markers (an answer still
// streaming) show as plain text until they close. Linear time on any input (see INLINE). Use a full library (with its HTML output
// disabled or sanitised) if you need more; keep agent text out of innerHTML either way.

import { h, type Child } from "./dom";

/** Renders `source` into a DocumentFragment. `headingShift` demotes # to h(1+shift). */
export function renderMarkdown(source: string, headingShift = 2): DocumentFragment {
  const out = document.createDocumentFragment();
  const lines = source.replace(/\r\n?/g, "\n").split("\n");
  let i = 0;
  let para: string[] = [];
  const flush = (): void => {
    if (para.length) out.appendChild(h("p", null, inline(para.join(" "))));
    para = [];
  };
  while (i < lines.length) {
    const line = lines[i] ?? "";
    let m: RegExpMatchArray | null;
    if (line.trim() === "") {
      flush();
      i++;
    } else if (line.startsWith("```")) {
      flush();
      const code: string[] = [];
      i++;
      while (i < lines.length && !(lines[i] ?? "").startsWith("```")) code.push(lines[i++] ?? "");
      i++;
      out.appendChild(h("pre", null, h("code", null, code.join("\n"))));
    } else if ((m = line.match(/^(#{1,6})\s+(.*)$/))) {
      flush();
      const level = Math.min(6, (m[1] ?? "#").length + headingShift);
      out.appendChild(h(`h${level}` as "h3", null, inline(m[2] ?? "")));
      i++;
    } else if (isTableRow(line) && isTableSeparator(lines[i + 1] ?? "")) {
      flush();
      const head = cells(line);
      const align = cells(lines[i + 1] ?? "").map((c) =>
        c.endsWith(":") ? (c.startsWith(":") ? "center" : "right") : "left");
      i += 2;
      const body: string[][] = [];
      while (i < lines.length && isTableRow(lines[i] ?? "")) body.push(cells(lines[i++] ?? ""));
      const cell = (tag: "th" | "td", text: string, col: number): HTMLElement =>
        h(tag, { class: `align-${align[col] ?? "left"}` }, inline(text));
      out.appendChild(h("table", { class: "md-table" },
        h("thead", null, h("tr", null, head.map((c, col) => cell("th", c, col)))),
        h("tbody", null, body.map((row) => h("tr", null, row.map((c, col) => cell("td", c, col)))))));
    } else if (/^\s*([-*+]|\d+[.)])\s+/.test(line)) {
      flush();
      const ordered = /^\s*\d/.test(line);
      const list = h(ordered ? "ol" : "ul");
      while (i < lines.length && (m = (lines[i] ?? "").match(/^\s*([-*+]|\d+[.)])\s+(.*)$/))
        && /^\s*\d/.test(lines[i] ?? "") === ordered) {
        list.appendChild(h("li", null, inline(m[2] ?? "")));
        i++;
      }
      out.appendChild(list);
    } else if (line.startsWith(">")) {
      flush();
      const quote: string[] = [];
      while (i < lines.length && (lines[i] ?? "").startsWith(">")) quote.push((lines[i++] ?? "").replace(/^>\s?/, ""));
      out.appendChild(h("blockquote", null, inline(quote.join(" "))));
    } else {
      para.push(line.trim());
      i++;
    }
  }
  flush();
  return out;
}

const isTableRow = (line: string): boolean => /^\s*\|.*\|\s*$/.test(line);
const isTableSeparator = (line: string): boolean => /^\s*\|(\s*:?-{3,}:?\s*\|)+\s*$/.test(line);
const cells = (line: string): string[] => line.trim().replace(/^\||\|$/g, "").split("|").map((c) => c.trim());

// One alternation, first match wins: code, bold, italic, link. Every span has a length bound
// (code and bold 500 characters, italic 300, link text 200, URL 2000; longer ones stay plain
// text): without them each unclosed `[` or `**` scanned to the end of the text, so hostile agent
// text re-rendered on every frame took quadratic time (210,000 characters of "[a ": 14.4 s per
// render, now 60 ms, measured in Node 20).
const INLINE = /`([^`\n]{1,500})`|\*\*(.{1,500}?)\*\*|(?<![\w*])[*_]([^*_\s](?:[^*_]{0,300}[^*_\s])?)[*_](?![\w*])|\[([^\]]{1,200})\]\(([^)\s]{1,2000})\)/;

/** Inline markdown → nodes (text nodes for everything that is not a recognised marker). */
function inline(text: string): Child[] {
  const nodes: Child[] = [];
  let rest = text;
  let m: RegExpExecArray | null;
  while ((m = INLINE.exec(rest))) {
    if (m.index > 0) nodes.push(rest.slice(0, m.index));
    const [whole, code, bold, italic, label, href] = m;
    if (code !== undefined) nodes.push(h("code", null, code));
    else if (bold !== undefined) nodes.push(h("strong", null, inline(bold)));
    else if (italic !== undefined) nodes.push(h("em", null, inline(italic)));
    else if (label !== undefined && href !== undefined) {
      const url = safeHttpUrl(href);
      nodes.push(url
        ? h("a", { href: url, target: "_blank", rel: "noopener noreferrer nofollow" }, inline(label))
        : whole); // not a safe link: the literal text, so the reader sees what was sent
    }
    rest = rest.slice(m.index + whole.length);
  }
  if (rest) nodes.push(rest);
  return nodes;
}

/** The URL when it is absolute http(s); `undefined` for anything else. */
export function safeHttpUrl(href: string): string | undefined {
  try {
    const url = new URL(href);
    return url.protocol === "https:" || url.protocol === "http:" ? url.href : undefined;
  } catch {
    return undefined;
  }
}
