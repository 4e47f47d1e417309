// What takes the space in the shipped wasm: sections, crates / agentwire modules, top functions.
//
//   bash scripts/build-pkg.sh && node scripts/size-breakdown.mjs [--top N] [--save FILE] [--base FILE]
//   bash scripts/build-entry.sh core && node scripts/size-breakdown.mjs --entry core [...]
//   node scripts/size-breakdown.mjs --entries [--top N]   (every entry in target/entries/, short)
//
// --entry NAME describes an entry of scripts/build-entry.sh (target/entries/NAME/input.wasm,
// checked against target/entries/NAME/agentwire_bg.wasm) instead of the package in pkg/.
// --entries prints, for every entry built, its totals, its largest modules and functions
// (--top N, default 8 there), one block per entry.
//
// The shipped pkg/raw/agentwire_bg.wasm has no names. This script rebuilds it from the same input
// (target/wasm32-unknown-unknown/release/agentwire.wasm, left by build-pkg.sh) with the same
// wasm-bindgen and wasm-opt steps plus `-g` (keep the name section), checks that the code and data
// sections are byte-identical to pkg/'s, and attributes every function body to its owner:
//   - a name mentioning `agentwire::` (also generic instances such as
//     `drop_in_place<agentwire::events::AgentEvent>` or `<agentwire::X as core::fmt::Debug>::fmt`)
//     goes to the first agentwire module named in it (two levels: `agentwire::dialects::myagent`);
//   - wasm-bindgen's shims of exported methods (`agentclient_new externref shim`, which usually
//     have the Rust method inlined) go to `agentwire (export shims)`;
//   - otherwise the first crate named (core, alloc, std, dlmalloc, js_sys, sha2, ...).
// Names are demangled by c++filt (binutils: legacy and v0 Rust mangling), raw when it is missing.
//
// gzip column: each group's bodies compressed alone (gzip -9), scaled so that the groups add up to
// the code section's own gzip size. It estimates the group's share, not what deleting it saves
// (gzip shares back-references between groups). Data: the data section holds string literals
// (runs of >= 4 printable bytes, counted as "text") and tables/constants (the rest).
//
// --save FILE writes the groups and functions as JSON; --base FILE (an earlier --save) prints the
// change of every group and of the functions that changed most, to measure a change before/after.
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  return i >= 0 && i + 1 < args.length ? args[i + 1] : dflt;
};
const entriesDir = path.join(root, "target/entries");
if (args.includes("--entries")) {
  // one short block per entry built, each by this script with --entry NAME --short
  const n = opt("--top", "8");
  const list = existsSync(entriesDir)
    ? readdirSync(entriesDir).filter((e) => existsSync(path.join(entriesDir, e, "input.wasm"))).sort()
    : [];
  if (!list.length) console.log("no entry built: bash scripts/build-entry.sh every");
  for (const e of list) {
    execFileSync(process.execPath, [new URL(import.meta.url).pathname, "--entry", e, "--short", "--top", n],
      { stdio: "inherit" });
  }
  process.exit(0);
}
const entry = opt("--entry", null);
const short = args.includes("--short");
const top = Number(opt("--top", 25));
const save = opt("--save", null);
const base = opt("--base", null);
const input = opt("--wasm", entry ? path.join(entriesDir, entry, "input.wasm")
  : path.join(root, "target/wasm32-unknown-unknown/release/agentwire.wasm"));
const shipped = opt("--shipped", entry ? path.join(entriesDir, entry, "agentwire_bg.wasm")
  : path.join(root, "pkg/raw/agentwire_bg.wasm"));

// --- the named build: the steps of scripts/build-pkg.sh, wasm-opt flags read from that script
const buildScript = readFileSync(path.join(root, "scripts/build-pkg.sh"), "utf8");
const arrayOf = (name) => {
  const m = buildScript.match(new RegExp(`^\\s*${name}=\\(([^)]*)\\)`, "m"));
  if (!m) throw new Error(`scripts/build-pkg.sh no longer defines ${name}=(...): update ${path.basename(import.meta.url)}`);
  return m[1].split(/\s+/).filter(Boolean);
};
const optFlags = [...arrayOf("opt_flags"), ...arrayOf("features")];
if (!existsSync(input)) {
  console.error(`${input} is missing: run bash scripts/${entry ? `build-entry.sh ${entry}` : "build-pkg.sh"} first`);
  process.exit(1);
}
const work = mkdtempSync(path.join(tmpdir(), "aw-size-"));
let named;
try {
  execFileSync("wasm-bindgen", ["--target", "bundler", "--out-dir", work, "--out-name", "agentwire", input],
    { stdio: "inherit" });
  const out = path.join(work, "named.wasm");
  execFileSync(path.join(root, "tools/node_modules/.bin/wasm-opt"),
    [...optFlags, "-g", path.join(work, "agentwire_bg.wasm"), "-o", out], { stdio: "inherit" });
  named = readFileSync(out);
} finally {
  rmSync(work, { recursive: true, force: true });
}

// --- wasm parsing (sections, imports count, function bodies, name section)
function leb(b, i) {
  let r = 0, s = 0, x;
  do { x = b[i++]; r += (x & 0x7f) * 2 ** s; s += 7; } while (x & 0x80);
  return [r, i];
}
function sections(b) {
  const out = [];
  let i = 8;
  while (i < b.length) {
    const id = b[i++];
    const [size, start] = leb(b, i);
    let name = null;
    if (id === 0) {
      const [l, j] = leb(b, start);
      name = b.subarray(j, j + l).toString("utf8");
    }
    out.push({ id, name, start, size, bytes: b.subarray(start, start + size) });
    i = start + size;
  }
  return out;
}
const SECTION = ["custom", "type", "import", "function", "table", "memory", "global", "export", "start",
  "element", "code", "data", "datacount", "tag"];
const secs = sections(named);
const sec = (id) => secs.find((s) => s.id === id);

let imported = 0;
const imp = sec(2);
if (imp) {
  let [n, j] = leb(named, imp.start);
  for (let k = 0; k < n; k++) {
    let l;
    [l, j] = leb(named, j); j += l;
    [l, j] = leb(named, j); j += l;
    const kind = named[j++];
    if (kind === 0) { [, j] = leb(named, j); imported++; }
    else if (kind === 1) { j++; const [fl, j2] = leb(named, j); [, j] = leb(named, j2); if (fl & 1) [, j] = leb(named, j); }
    else if (kind === 2) { const [fl, j2] = leb(named, j); [, j] = leb(named, j2); if (fl & 1) [, j] = leb(named, j); }
    else if (kind === 3) { j += 2; }
    else if (kind === 4) { j++; [, j] = leb(named, j); }
  }
}
const names = new Map();
const nameSec = secs.find((s) => s.id === 0 && s.name === "name");
if (nameSec) {
  let [l, j] = leb(named, nameSec.start);
  j += l;
  const end = nameSec.start + nameSec.size;
  while (j < end) {
    const sub = named[j++];
    const [sl, k0] = leb(named, j);
    if (sub === 1) {
      let [n, k] = leb(named, k0);
      for (let q = 0; q < n; q++) {
        let idx, nl;
        [idx, k] = leb(named, k);
        [nl, k] = leb(named, k);
        names.set(idx, named.subarray(k, k + nl).toString("utf8"));
        k += nl;
      }
    }
    j = k0 + sl;
  }
}
const code = sec(10);
const funcs = [];
{
  let [n, j] = leb(named, code.start);
  for (let f = 0; f < n; f++) {
    const [sz, k] = leb(named, j);
    funcs.push({ mangled: names.get(imported + f) ?? `func${imported + f}`, size: sz + (k - j), body: named.subarray(j, k + sz) });
    j = k + sz;
  }
}

// --- demangling and owners
let demangled;
try {
  demangled = execFileSync("c++filt", [], { input: funcs.map((f) => f.mangled).join("\n"), maxBuffer: 1 << 28 })
    .toString().split("\n");
} catch {
  console.error("(c++filt not found: names stay mangled, owners are guessed from them)");
  demangled = funcs.map((f) => f.mangled);
}
funcs.forEach((f, i) => {
  f.name = (demangled[i] || f.mangled).replace(/\[[0-9a-f]{16}\]/g, "").replace(/::h[0-9a-f]{16}$/, "");
  f.owner = owner(f.name);
});
function owner(name) {
  const aw = name.match(/agentwire(?:::|\.\.)([a-z_0-9]+)(?:(?:::|\.\.)([a-z_0-9]+))?/);
  if (aw) {
    // a module has lower-case segments; `agentwire::state::Store` is the module `state`
    return `agentwire::${aw[1]}${aw[2] ? `::${aw[2]}` : ""}`;
  }
  // wasm-bindgen's shims of the exported methods (`agentclient_new externref shim`): the Rust
  // method is usually inlined into them
  if (/ shim$/.test(name) || /^[a-z0-9]+_[A-Za-z0-9_]+$/.test(name) && !name.startsWith("__")) {
    return "agentwire (export shims)";
  }
  if (/^__(wbindgen|wbg|externref)/.test(name)) return "wasm_bindgen";
  const crate = name.match(/([A-Za-z_][A-Za-z0-9_]*)::/);
  return crate ? crate[1] : "(unnamed)";
}

// --- groups, gzip shares
const gz = (b) => gzipSync(b, { level: 9 }).length;
const codeGz = gz(code.bytes);
function group(key) {
  const m = new Map();
  for (const f of funcs) {
    const k = key(f);
    const g = m.get(k) ?? { name: k, raw: 0, n: 0, parts: [] };
    g.raw += f.size; g.n++; g.parts.push(f.body);
    m.set(k, g);
  }
  const list = [...m.values()];
  for (const g of list) g.alone = gz(Buffer.concat(g.parts));
  const sum = list.reduce((a, g) => a + g.alone, 0);
  for (const g of list) { g.gz = Math.round((g.alone * codeGz) / sum); delete g.parts; }
  return list.sort((a, b) => b.raw - a.raw);
}
const crateOf = (f) => f.owner.startsWith("agentwire") ? "agentwire" : f.owner;
const byCrate = group(crateOf);
const byModule = group((f) => f.owner);

// --- data section: text vs tables
const data = sec(11);
let text = 0;
for (const m of data.bytes.toString("latin1").matchAll(/[\x20-\x7e\t\n]{4,}/g)) text += m[0].length;

// --- report
const fmt = (x) => x.toLocaleString("en-US");
const col = (x, w = 10) => fmt(x).padStart(w);
const pct = (x, t) => `${((100 * x) / t).toFixed(1)}%`.padStart(7);
const wasmRaw = named.length - secs.filter((s) => s.id === 0).reduce((a, s) => a + s.size, 0);
if (entry) {
  const feats = existsSync(path.join(entriesDir, entry, "entry.json"))
    ? JSON.parse(readFileSync(path.join(entriesDir, entry, "entry.json"), "utf8")).features : "?";
  const ship = existsSync(shipped) ? readFileSync(shipped) : null;
  console.log(`${short ? "\n" : ""}== entry ${entry} (features ${feats})${ship ? `: shipped wasm ${fmt(ship.length)} B raw, ${fmt(gz(ship))} B gzip` : ""}`);
}
console.log(`wasm (no custom sections) ${fmt(wasmRaw)} B; code ${fmt(code.size)} B (${funcs.length} functions, gzip alone ${fmt(codeGz)}); data ${fmt(data.size)} B (gzip alone ${fmt(gz(data.bytes))})`);
if (existsSync(shipped)) {
  const ship = sections(readFileSync(shipped));
  const same = [10, 11].every((id) => {
    const a = ship.find((s) => s.id === id), b = sec(id);
    return a && b && Buffer.compare(a.bytes, b.bytes) === 0;
  });
  console.log(same
    ? `code and data sections identical to ${path.relative(root, shipped)}`
    : `WARNING: code/data differ from ${path.relative(root, shipped)} (stale pkg/? run scripts/build-pkg.sh): the breakdown describes ${path.relative(root, input)}`);
}
if (!short) console.log("\nsections                       raw      gzip (each alone)");
if (!short) for (const s of secs.filter((s) => s.id !== 0 || s.name !== "name")) {
  console.log(`  ${(SECTION[s.id] + (s.name ? ` ${s.name}` : "")).padEnd(24)}${col(s.size)}${col(gz(s.bytes))}`);
}
console.log(`  data: text ${fmt(text)} B, tables/constants/padding ${fmt(data.size - text)} B`);

const table = (title, list, n) => {
  console.log(`\n${title.padEnd(40)}${"raw".padStart(10)}${"of code".padStart(8)}${"~gzip".padStart(9)}${"funcs".padStart(7)}`);
  for (const g of list.slice(0, n)) {
    console.log(`  ${g.name.slice(0, 38).padEnd(38)}${col(g.raw)}${pct(g.raw, code.size)}${col(g.gz, 9)}${String(g.n).padStart(7)}`);
  }
  if (list.length > n) {
    const rest = list.slice(n);
    console.log(`  ${`(${rest.length} more)`.padEnd(38)}${col(rest.reduce((a, g) => a + g.raw, 0))}${pct(rest.reduce((a, g) => a + g.raw, 0), code.size)}${col(rest.reduce((a, g) => a + g.gz, 0), 9)}`);
  }
};
if (!short) table("by crate", byCrate, 20);
table("by module (agentwire) / crate", byModule, short ? top : 40);
const topFuncs = [...funcs].sort((a, b) => b.size - a.size);
console.log(`\ntop ${top} functions${"raw".padStart(60)}  owner`);
for (const f of topFuncs.slice(0, top)) {
  console.log(`  ${col(f.size, 7)}  ${f.name.length > 70 ? `${f.name.slice(0, 67)}...` : f.name.padEnd(70)}  ${f.owner}`);
}

const summary = {
  wasm: wasmRaw, code: code.size, codeGz, data: data.size,
  groups: Object.fromEntries(byModule.map((g) => [g.name, g.raw])),
  functions: Object.fromEntries(funcs.map((f) => [f.name, f.size])),
};
if (save) writeFileSync(save, JSON.stringify(summary, null, 1));
if (base) {
  const old = JSON.parse(readFileSync(base, "utf8"));
  const delta = (a, b) => (b - a >= 0 ? "+" : "") + fmt(b - a);
  console.log(`\nversus ${base}: wasm ${delta(old.wasm, wasmRaw)}, code ${delta(old.code, code.size)} (gzip alone ${delta(old.codeGz, codeGz)}), data ${delta(old.data, data.size)}`);
  const keys = new Set([...Object.keys(old.groups), ...Object.keys(summary.groups)]);
  const ch = [...keys].map((k) => [k, (summary.groups[k] ?? 0) - (old.groups[k] ?? 0)]).filter(([, d]) => d).sort((a, b) => a[1] - b[1]);
  for (const [k, d] of ch) console.log(`  ${k.padEnd(40)}${(d > 0 ? "+" : "") + fmt(d)}`);
  const fk = new Set([...Object.keys(old.functions), ...Object.keys(summary.functions)]);
  const fch = [...fk].map((k) => [k, (summary.functions[k] ?? 0) - (old.functions[k] ?? 0)]).filter(([, d]) => d)
    .sort((a, b) => Math.abs(b[1]) - Math.abs(a[1])).slice(0, top);
  console.log("  functions that changed most:");
  for (const [k, d] of fch) console.log(`  ${((d > 0 ? "+" : "") + fmt(d)).padStart(9)}  ${k.slice(0, 100)}`);
}
