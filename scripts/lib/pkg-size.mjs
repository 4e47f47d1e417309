// What the package ships and how big it is, shared by scripts/size-report.mjs (the budget check
// of every build) and benches/bench-consumer/report.mjs (the size line of a benchmark run), so
// both count the same files the same way.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync, brotliCompressSync, constants } from "node:zlib";

/** The files `import "agentwire"` loads: the TypeScript layer (agentwire.js), the wasm, its JS
 * glue (raw/glue.js) and loader (raw/agentwire.js), the glue's snippets (inline_js, the Worker's
 * page side) and the Worker entry. */
export function shippedFiles(pkgDir = "pkg") {
  const snippets = path.join(pkgDir, "raw", "snippets");
  return [
    path.join(pkgDir, "agentwire.js"),
    ...["agentwire_bg.wasm", "agentwire.js", "glue.js", "agentwire-worker.js"].map((f) => path.join(pkgDir, "raw", f)),
    ...(existsSync(snippets) ? readdirSync(snippets, { recursive: true }) : [])
      .filter((f) => f.endsWith(".js")).sort().map((f) => path.join(snippets, f)),
  ];
}

/** The files one protocol's entry (pkg/<entry>/, issue 23) loads: its TypeScript layer
 * (index.js), the loader that instantiates its wasm (raw/agentwire.js), the web glue (raw/glue.js),
 * the wasm and the glue's snippets. */
export function entryFiles(entryDir) {
  const snippets = path.join(entryDir, "raw", "snippets");
  return [
    path.join(entryDir, "index.js"),
    ...["agentwire.js", "glue.js", "agentwire_bg.wasm"].map((f) => path.join(entryDir, "raw", f)),
    ...(existsSync(snippets) ? readdirSync(snippets, { recursive: true }) : [])
      .filter((f) => f.endsWith(".js")).sort().map((f) => path.join(snippets, f)),
  ];
}

/** raw / gzip (level 9) / brotli (quality 11) bytes of one file. */
export function measure(file) {
  const b = readFileSync(file);
  return {
    file,
    raw: b.length,
    gz: gzipSync(b, { level: 9 }).length,
    br: brotliCompressSync(b, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: b.length },
    }).length,
  };
}
