// Keeps the documentation true (issue 24). Checks, over README.md, CONTRIBUTING.md,
// BENCHMARKS.md, CHANGELOG.md, docs/*.md and pkg-template/README.md:
//  1. every relative link resolves: the file or folder exists and a `#anchor` names a heading of
//     the target Markdown file (GitHub's slugs); the same for `docs/X.md#anchor` references in
//     code comments (src/, scenario-server/src/, tests/, scripts/), where no comment points to
//     documents outside the repository (`SPEC §…`, `seeds/`);
//  2. every CLI synopsis block (a ```text block whose first line starts with `agentwire `) equals
//     the output of `agentwire --help`;
//  3. every ```ts / ```tsx block compiles with tsc (strict) against the built package: each block
//     is written to target/docs-ts/ as a module of its own, and "agentwire" resolves to pkg/
//     through target/docs-ts/node_modules/agentwire, as tests/types does (scripts/typecheck.sh).
//     A block marked ```ts fragment is skipped (use sparingly: a block a reader cannot paste);
//  4. README.md has at most 150 lines.
//
//   node scripts/docs-check.mjs [--no-ts] [--no-cli]
//
// Needs pkg/ (scripts/build-pkg.sh) for step 3 and cargo for step 2. Exits non-zero on any
// failure, listing each one with its file and line; the last line is a summary.
import { readFileSync, writeFileSync, existsSync, mkdirSync, readdirSync, rmSync, symlinkSync, statSync, cpSync } from "node:fs";
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const args = new Set(process.argv.slice(2));
const rel = (p) => path.relative(root, p);
const failures = [];
const fail = (where, msg) => failures.push(`${where}: ${msg}`);

const docs = [
  "README.md", "CONTRIBUTING.md", "BENCHMARKS.md", "CHANGELOG.md", "pkg-template/README.md",
  ...readdirSync(path.join(root, "docs")).filter((f) => f.endsWith(".md")).sort().map((f) => `docs/${f}`),
].map((f) => path.join(root, f)).filter((f) => existsSync(f));

// ---- Markdown reading: fenced blocks, headings, links (outside code) ----
function parse(file) {
  const lines = readFileSync(file, "utf8").split("\n");
  const blocks = [], headings = [], links = [];
  let fence = null;
  lines.forEach((line, i) => {
    const m = /^(\s*)(```+|~~~+)(.*)$/.exec(line);
    if (fence) {
      if (m && m[2].startsWith(fence.mark) && m[3].trim() === "") { blocks.push(fence); fence = null; }
      else fence.lines.push(line);
      return;
    }
    if (m) { fence = { mark: m[2], info: m[3].trim(), line: i + 1, lines: [] }; return; }
    const h = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (h) headings.push(h[1]);
    const text = line.replace(/`[^`]*`/g, (s) => " ".repeat(s.length)); // no links inside code spans
    for (const l of text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) links.push({ target: l[1], line: i + 1 });
  });
  if (fence) fail(`${rel(file)}:${fence.line}`, "unclosed code block");
  return { blocks, headings, links };
}

// GitHub's heading anchors: lower case, punctuation dropped (letters, digits, spaces, `-`, `_`
// kept), spaces to `-`; a repeated slug gets -1, -2, ...
function slugs(headings) {
  const seen = new Map(), out = new Set();
  for (const h of headings) {
    const text = h.replace(/\[([^\]]*)\]\([^)]*\)/g, "$1").replace(/<[^>]+>/g, "");
    const base = text.toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, "").trim().replace(/\s/g, "-");
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n ? `${base}-${n}` : base);
  }
  return out;
}

const parsed = new Map();
const md = (file) => {
  if (!parsed.has(file)) parsed.set(file, parse(file));
  return parsed.get(file);
};

// ---- 1. links ----
let linkCount = 0;
function checkTarget(from, where, target) {
  const [p, anchor] = target.split("#");
  const file = p ? path.resolve(path.dirname(from), decodeURIComponent(p)) : from;
  if (!existsSync(file)) return fail(where, `link to a missing file: ${target}`);
  if (anchor === undefined) return;
  if (!file.endsWith(".md") || statSync(file).isDirectory()) return fail(where, `anchor on a file that is not Markdown: ${target}`);
  if (!slugs(md(file).headings).has(anchor.toLowerCase())) fail(where, `no heading for #${anchor} in ${rel(file)}`);
}
for (const file of docs) {
  for (const { target, line } of md(file).links) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:, ...
    linkCount++;
    checkTarget(file, `${rel(file)}:${line}`, target);
  }
}
// References to the docs from code comments (they replaced pointers outside the repository).
function walk(dir, out = []) {
  if (!existsSync(dir)) return out;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) { if (!["node_modules", "recordings", "vectors"].includes(e.name)) walk(p, out); }
    else if (/\.(rs|js|mjs|ts|sh)$/.test(e.name)) out.push(p);
  }
  return out;
}
let codeRefs = 0;
for (const file of [...walk(path.join(root, "src")), ...walk(path.join(root, "scenario-server/src")), ...walk(path.join(root, "tests")), ...walk(path.join(root, "scripts"))]) {
  if (file === fileURLToPath(import.meta.url)) continue;
  readFileSync(file, "utf8").split("\n").forEach((line, i) => {
    // Pointers to documents outside the repository (the product spec, the seed folder).
    if (/\bSPEC\s*(§|")|`seeds\/`|\bseeds\/[\w.]/.test(line)) fail(`${rel(file)}:${i + 1}`, "points outside the repository (SPEC / seeds/): link docs/protocol-000.md or docs/dialects.md instead");
    for (const m of line.matchAll(/\bdocs\/([\w-]+\.md)(#[\w-]+)?/g)) {
      codeRefs++;
      checkTarget(path.join(root, "docs", "x"), `${rel(file)}:${i + 1}`, `${m[1]}${m[2] ?? ""}`);
    }
  });
}

// The README is the front door: one screen or two, at most 150 lines (issue 24).
const readmeLines = readFileSync(path.join(root, "README.md"), "utf8").trimEnd().split("\n").length;
if (readmeLines > 150) fail("README.md", `${readmeLines} lines: the front door stays at most 150 (move the rest to docs/)`);

// ---- 2. CLI synopsis ----
let cliBlocks = 0;
if (!args.has("--no-cli")) {
  const r = spawnSync("cargo", ["run", "-q", "--bin", "agentwire", "--", "--help"], { cwd: root, encoding: "utf8" });
  if (r.status !== 0) fail("agentwire --help", `exit ${r.status}: ${r.stderr}`);
  const help = (r.stdout ?? "").trimEnd();
  for (const file of docs) {
    for (const b of md(file).blocks) {
      if (b.info !== "text" || !/^agentwire /.test(b.lines[0] ?? "")) continue;
      cliBlocks++;
      const text = b.lines.join("\n").trimEnd();
      if (text !== help) fail(`${rel(file)}:${b.line}`, `CLI synopsis differs from \`agentwire --help\`:\n--- docs\n${text}\n--- agentwire --help\n${help}`);
    }
  }
  if (cliBlocks === 0) fail("docs/cli.md", "no CLI synopsis block (```text starting with `agentwire `)");
}

// ---- 3. TypeScript blocks ----
let tsBlocks = 0, tsSkipped = 0;
const tsFailed = new Map(); // block file -> { where, errors[] }
if (!args.has("--no-ts")) {
  const pkg = path.join(root, "pkg");
  if (!existsSync(path.join(pkg, "types/index.d.ts"))) {
    fail("pkg/", "no built package: run scripts/build-pkg.sh first (or pass --no-ts)");
  } else {
    const out = path.join(root, "target/docs-ts");
    rmSync(out, { recursive: true, force: true });
    mkdirSync(path.join(out, "node_modules"), { recursive: true });
    // A copy of pkg/ (not a link: its adapters' declarations must find the frameworks in this
    // node_modules, as in an app); the wasm is not needed to compile.
    cpSync(pkg, path.join(out, "node_modules/agentwire"), { recursive: true, filter: (f) => !f.endsWith(".wasm") });
    // Framework types for the adapters' entries: where scripts/build-adapters.mjs installed them
    // (ts/adapters/node_modules, by build-pkg.sh), else the tools'.
    for (const dep of ["react", "react-dom", "@types/react", "@types/react-dom", "vue", "svelte", "csstype"]) {
      const src = [path.join(root, "ts/adapters/node_modules", dep), path.join(root, "tools/node_modules", dep)].find((d) => existsSync(d));
      if (!src) continue;
      mkdirSync(path.dirname(path.join(out, "node_modules", dep)), { recursive: true });
      symlinkSync(src, path.join(out, "node_modules", dep));
    }
    const files = [], origin = new Map();
    for (const file of docs) {
      md(file).blocks.forEach((b, n) => {
        const [lang, ...flags] = b.info.split(/\s+/);
        if (lang !== "ts" && lang !== "tsx" && lang !== "typescript") return;
        if (flags.includes("fragment")) { tsSkipped++; return; }
        tsBlocks++;
        const name = `${rel(file).replace(/[/.]/g, "_")}_${String(n).padStart(2, "0")}_line${b.line}.${lang === "tsx" ? "tsx" : "ts"}`;
        writeFileSync(path.join(out, name), `${b.lines.join("\n")}\nexport {};\n`);
        files.push(name);
        origin.set(name, { file: rel(file), line: b.line });
      });
    }
    writeFileSync(path.join(out, "tsconfig.json"), JSON.stringify({
      compilerOptions: {
        strict: true, noEmit: true, target: "ES2022", module: "ESNext", moduleResolution: "bundler",
        lib: ["ES2022", "DOM", "DOM.Iterable", "ESNext.Disposable"], jsx: "react-jsx",
        skipLibCheck: false, types: [], noUnusedLocals: false,
      },
      files,
    }, null, 2));
    const tsc = path.join(root, "tools/node_modules/.bin/tsc");
    const r = spawnSync(tsc, ["-p", out, "--pretty", "false"], { cwd: root, encoding: "utf8" });
    for (const line of (r.stdout + r.stderr).split("\n")) {
      const m = /^(?:target\/docs-ts\/)?([^(]+)\((\d+),(\d+)\): error (TS\d+): (.*)$/.exec(line.trim());
      if (!m) continue;
      const name = path.basename(m[1]);
      const o = origin.get(name);
      const where = o ? `${o.file}:${o.line + Number(m[2])}` : m[1];
      if (!tsFailed.has(name)) tsFailed.set(name, { where: o ? `${o.file}:${o.line}` : m[1], errors: [] });
      tsFailed.get(name).errors.push(`${where} ${m[4]} ${m[5]}`);
    }
    if (r.status !== 0 && tsFailed.size === 0) fail("tsc", (r.stdout + r.stderr).trim() || `exit ${r.status}`);
    for (const [, { where, errors }] of tsFailed) fail(`${where} (TypeScript block)`, `does not compile:\n    ${errors.join("\n    ")}`);
  }
}

const summary = `${docs.length} files, ${linkCount} relative links, ${codeRefs} docs references in code, ${cliBlocks} CLI synopsis block(s), ` +
  (args.has("--no-ts") ? "TypeScript not compiled (--no-ts)" : `${tsBlocks - tsFailed.size}/${tsBlocks} TypeScript blocks compile` + (tsSkipped ? ` (${tsSkipped} fragments skipped)` : ""));
if (failures.length) {
  console.error(failures.map((f) => `FAIL ${f}`).join("\n"));
  console.error(`docs check FAILED (${failures.length}): ${summary}`);
  process.exit(1);
}
console.log(`docs check ok: ${summary}`);
