// The package's public TypeScript surface, checked (scripts/typecheck.sh runs this):
// 1. API report: every .d.ts of pkg/types/, concatenated, must equal api/agentwire.api.d.ts
//    (refresh it with UPDATE_API=1 after a deliberate change, and review the diff).
// 2. The generated event/state types ship unchanged: pkg/types/types.d.ts is
//    tests/snapshots/types.d.ts byte for byte (which tests/ts_decl.rs compares with what Rust
//    generates), and every name it declares is exported by the package as that very declaration
//    (re-exported, never redefined by the TypeScript layer).
// 3. No `any` in the public declarations, and camelCase parameter names.
//   node scripts/api-report.mjs            (UPDATE_API=1 to rewrite the report)
import { createRequire } from "node:module";
import { readFileSync, readdirSync, writeFileSync, existsSync, mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import path from "node:path";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const ts = createRequire(path.join(root, "tools/package.json"))("typescript");
const typesDir = path.join(root, "pkg/types");
const reportPath = path.join(root, "api/agentwire.api.d.ts");
const problems = [];

// 1. The report.
const files = readdirSync(typesDir).filter((f) => f.endsWith(".d.ts")).sort();
const report = "// The public TypeScript surface of the agentwire package (pkg/types/), checked by\n" +
  "// scripts/api-report.mjs. Regenerate with UPDATE_API=1 bash scripts/typecheck.sh and review the diff.\n" +
  files.map((f) => `\n// ==== types/${f} ====\n${readFileSync(path.join(typesDir, f), "utf8").trimEnd()}\n`).join("");
const before = existsSync(reportPath) ? readFileSync(reportPath, "utf8") : "";
if (process.env.UPDATE_API) {
  mkdirSync(path.dirname(reportPath), { recursive: true });
  writeFileSync(reportPath, report);
  console.log(`api report written: ${path.relative(root, reportPath)} (${files.length} files)`);
} else if (before !== report) {
  const a = before.split("\n"), b = report.split("\n");
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  problems.push(`the public API changed (api/agentwire.api.d.ts line ${i + 1}: ${JSON.stringify(a[i] ?? "")} -> ${JSON.stringify(b[i] ?? "")}); review and run UPDATE_API=1 bash scripts/typecheck.sh`);
}

// 2. The generated types, unchanged.
const snapshot = readFileSync(path.join(root, "tests/snapshots/types.d.ts"), "utf8");
if (readFileSync(path.join(typesDir, "types.d.ts"), "utf8") !== snapshot) {
  problems.push("pkg/types/types.d.ts differs from tests/snapshots/types.d.ts (rebuild with scripts/build-pkg.sh)");
}
const program = ts.createProgram([path.join(typesDir, "index.d.ts"), path.join(typesDir, "web.d.ts"), path.join(typesDir, "entry.d.ts")], {
  strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler, lib: ["lib.es2022.d.ts", "lib.dom.d.ts", "lib.esnext.disposable.d.ts"],
});
const checker = program.getTypeChecker();
const generatedFile = program.getSourceFile(path.join(typesDir, "types.d.ts"));
const generatedNames = [];
generatedFile.forEachChild((n) => {
  if ((ts.isInterfaceDeclaration(n) || ts.isTypeAliasDeclaration(n)) && n.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) generatedNames.push(n.name.text);
});
for (const entry of ["index.d.ts", "web.d.ts", "entry.d.ts"]) { // "agentwire", "agentwire/web", "agentwire/<protocol>"
  const sf = program.getSourceFile(path.join(typesDir, entry));
  const exports = new Map(checker.getExportsOfModule(checker.getSymbolAtLocation(sf)).map((s) => [s.name, s]));
  for (const name of generatedNames) {
    const sym = exports.get(name);
    if (!sym) { problems.push(`${entry} does not export the generated type ${name}`); continue; }
    const target = sym.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(sym) : sym;
    const where = (target.declarations ?? []).map((d) => path.basename(d.getSourceFile().fileName));
    if (where.length === 0 || where.some((f) => f !== "types.d.ts")) problems.push(`${entry}: ${name} is declared in ${where.join(", ")}, not only in the generated types.d.ts`);
  }
}
// The layer's own sources declare none of them.
for (const f of readdirSync(path.join(root, "ts/src")).filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts"))) {
  const src = ts.createSourceFile(f, readFileSync(path.join(root, "ts/src", f), "utf8"), ts.ScriptTarget.ES2022, true);
  src.forEachChild((n) => {
    if ((ts.isInterfaceDeclaration(n) || ts.isTypeAliasDeclaration(n) || ts.isClassDeclaration(n)) && n.name && generatedNames.includes(n.name.text)) {
      problems.push(`ts/src/${f} redefines the generated type ${n.name.text}`);
    }
  });
}

// The `Limits` group is every limit the wasm reads: the SSE parser's two plus Rust's Limits::NAMES.
{
  const rust = readFileSync(path.join(root, "src/state/mod.rs"), "utf8").match(/pub const NAMES: \[&'static str; \d+\] = \[([^\]]*)\]/);
  const names = ["maxLineBytes", "maxEventBytes", ...(rust ? [...rust[1].matchAll(/"(\w+)"/g)].map((m) => m[1]) : [])];
  const opts = program.getSourceFile(path.join(typesDir, "options.d.ts"));
  let members = [];
  opts.forEachChild((n) => { if (ts.isInterfaceDeclaration(n) && n.name.text === "Limits") members = n.members.map((m) => m.name.text); });
  if (!rust || JSON.stringify([...members].sort()) !== JSON.stringify([...names].sort())) {
    problems.push(`Limits (${members.join(", ")}) is not the wasm's limits (${names.join(", ")})`);
  }
}

// Every code the wasm glue throws, rejects with or fails a connection with is in AgentwireErrorCode.
let thrownCodes = 0;
{
  const errs = program.getSourceFile(path.join(typesDir, "errors.d.ts"));
  const union = new Set();
  const collect = (n) => { if (ts.isLiteralTypeNode(n) && ts.isStringLiteral(n.literal)) union.add(n.literal.text); n.forEachChild(collect); };
  errs.forEachChild((n) => { if (ts.isTypeAliasDeclaration(n) && /^(AgentwireErrorCode|ConnectionErrorCode)$/.test(n.name.text)) collect(n.type); });
  const thrown = new Set();
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const f = path.join(dir, e.name);
      if (e.isDirectory()) walk(f);
      else if (/\.(rs|js)$/.test(e.name)) {
        const text = readFileSync(f, "utf8");
        for (const m of text.matchAll(/\b(?:js_error|error_with|awError|refused)\(\s*"([a-z-]+)"/g)) thrown.add(m[1]);
        for (const m of text.matchAll(/shutdown\([A-Z_]+,[^;]*?Some\("([a-z-]+)"\)/gs)) thrown.add(m[1]);
        for (const m of text.matchAll(/set_state\([A-Z_]+,[^;]*?Some\("([a-z-]+)"\)/gs)) thrown.add(m[1]);
      }
    }
  };
  walk(path.join(root, "src/browser"));
  thrownCodes = thrown.size;
  const missing = [...thrown].filter((c) => !union.has(c)).sort();
  if (missing.length) problems.push(`codes thrown by src/browser missing from AgentwireErrorCode: ${missing.join(", ")}`);
}

// 3. No `any`, camelCase parameters.
for (const f of files) {
  const sf = program.getSourceFile(path.join(typesDir, f));
  if (!sf) continue;
  const visit = (n) => {
    if (n.kind === ts.SyntaxKind.AnyKeyword) {
      const { line } = sf.getLineAndCharacterOfPosition(n.getStart());
      problems.push(`types/${f}:${line + 1}: \`any\` in a public declaration`);
    }
    if (ts.isParameter(n) && ts.isIdentifier(n.name) && !/^[a-z][a-zA-Z0-9]*$/.test(n.name.text)) {
      const { line } = sf.getLineAndCharacterOfPosition(n.getStart());
      problems.push(`types/${f}:${line + 1}: parameter ${n.name.text} is not camelCase`);
    }
    n.forEachChild(visit);
  };
  visit(sf);
}

if (problems.length) {
  console.error(`api report: ${problems.length} problem(s)\n  ${problems.join("\n  ")}`);
  process.exit(1);
}
console.log(`api report ok: ${files.length} declaration files as in api/agentwire.api.d.ts; ${generatedNames.length} generated types re-exported unchanged by every entry; Limits = the wasm's limits; the ${thrownCodes} codes src/browser throws are in AgentwireErrorCode; no any, camelCase parameters`);
