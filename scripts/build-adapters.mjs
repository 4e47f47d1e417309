// Builds the framework adapters (agentwire/react, agentwire/vue, agentwire/svelte; sources in
// ts/adapters/) into DIR/adapters/ of a package being staged:
//   node scripts/build-adapters.mjs DIR        (scripts/build-pkg.sh calls it with its stage)
// 1. The frameworks' typings the adapters compile against (ts/adapters/package.json, its lock):
//    `npm ci` in ts/adapters when the lock changed since the last install (idempotent).
// 2. Declarations: tsc from tools/ (strict), "agentwire" resolved to the staged package's own
//    declarations (the `types` of "." in pkg-template/package.json).
// 3. JavaScript: one ES module per framework bundled by esbuild from tools/, with "agentwire"
//    and the framework left as imports (the framework is an optional peer dependency; an app
//    that does not import an adapter never loads it).
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const dir = path.resolve(process.argv[2] ?? "");
// The package's own declarations (what `import "agentwire"` gets), where pkg-template says.
const template = JSON.parse(fs.readFileSync(path.join(root, "pkg-template/package.json"), "utf8"));
const mainTypes = path.join(dir, template.exports?.["."]?.types ?? template.types);
if (!process.argv[2] || !fs.existsSync(mainTypes)) {
  console.error(`usage: node scripts/build-adapters.mjs DIR (a staged package with ${path.relative(dir, mainTypes)})`);
  process.exit(2);
}
const src = path.join(root, "ts/adapters");
const out = path.join(dir, "adapters");
const bin = (name) => path.join(root, "tools/node_modules/.bin", name);
const run = (cmd, args, opts = {}) => {
  try {
    execFileSync(cmd, args, { stdio: "inherit", ...opts });
  } catch {
    console.error(`[build-adapters] failed: ${path.basename(cmd)} ${args.join(" ")}`);
    process.exit(1);
  }
};

// 1. Typings, installed once per lock.
const lock = fs.readFileSync(path.join(src, "package-lock.json"));
const want = createHash("sha256").update(lock).digest("hex");
const stamp = path.join(src, "node_modules/.agentwire-lock.sha256");
if (!fs.existsSync(stamp) || fs.readFileSync(stamp, "utf8") !== want) {
  run("npm", ["ci", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: src });
  fs.writeFileSync(stamp, want);
}

// 2. Declarations.
fs.rmSync(out, { recursive: true, force: true });
const tsconfig = path.join(root, "target/adapters.tsconfig.json");
fs.mkdirSync(path.dirname(tsconfig), { recursive: true });
fs.writeFileSync(tsconfig, JSON.stringify({
  extends: path.join(src, "tsconfig.json"),
  compilerOptions: { rootDir: src, outDir: out, paths: { agentwire: [mainTypes] } },
}, null, 2));
run(bin("tsc"), ["-p", tsconfig]);

// 3. One bundle per framework.
const external = ["agentwire", "react", "vue", "svelte", "svelte/*"].flatMap((e) => [`--external:${e}`]);
for (const name of ["react", "vue", "svelte"]) {
  run(bin("esbuild"), [path.join(src, `${name}.ts`), "--bundle", "--format=esm", "--target=es2022",
    "--minify-whitespace", "--minify-syntax", "--log-level=warning", ...external,
    `--outfile=${path.join(out, `${name}.js`)}`]);
}
console.log(`[build-adapters] ${fs.readdirSync(out).sort().join(" ")}`);
