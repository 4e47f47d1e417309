#!/usr/bin/env bash
# Builds the npm package `agentwire` into pkg/:
#   pkg/      bundler target (what `import "agentwire"` resolves to: Vite 8, webpack 5, ...)
#   pkg/web/  web target (`import init, { initSync } from "agentwire/web"`: no bundler, Node
#             tests with initSync, the benchmark page)
# Steps: cargo rustc --crate-type cdylib (release profile: LTO, opt-level z), wasm-bindgen (version
# must equal the crate's pin), wasm-opt -Oz (binaryen 132 from tools/), the JS without comments
# and whitespace (esbuild from tools/), then package.json and README from pkg-template/. Steps
# after cargo are skipped when none of their inputs changed.
# Always prints the size report (scripts/size-report.mjs), which fails over SIZE_BUDGET_GZIP
# (SIZE_REPORT=brief: one line with the size, no guard).
#
# Why `cargo rustc --crate-type cdylib`: the crate is `crate-type = ["rlib"]`, and a crate whose
# crate-type list has rlib next to cdylib silently gets no LTO. Measured 2026-11-22 (after -Oz):
# LTO off 306,942 B raw / 126,657 gzip; this build 274,859 raw / 115,571 gzip (-10% / -9%).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$HOME/.cargo/bin:$PATH"
log() { printf '[build-pkg] %s\n' "$*"; }

wasm_opt=tools/node_modules/.bin/wasm-opt
esbuild=tools/node_modules/.bin/esbuild
for t in "$wasm_opt" "$esbuild"; do
  [ -x "$t" ] || { echo "error: $t missing: run scripts/setup.sh" >&2; exit 1; }
done
want_wb=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)
have_wb=$(wasm-bindgen --version 2>/dev/null | awk '{print $2}' || true)
[ "$have_wb" = "$want_wb" ] || {
  echo "error: wasm-bindgen CLI is ${have_wb:-missing}, the crate pins $want_wb: run scripts/setup.sh" >&2; exit 1; }
version=$(sed -n '/^\[package\]/,/^\[/ s/^version *= *"\(.*\)"/\1/p' Cargo.toml | head -1)

# 1. The wasm (cargo itself is incremental: ~1 s when nothing changed).
cargo rustc -q -p agentwire --lib --release --target wasm32-unknown-unknown --crate-type cdylib
wasm=target/wasm32-unknown-unknown/release/agentwire.wasm

# 2-4 only when an input changed: the wasm, the template, this script, the tool versions.
stamp=target/pkg.stamp
key=$({ sha256sum "$wasm" pkg-template/* scripts/build-pkg.sh scripts/lib/harden-glue.mjs LICENSE-MIT LICENSE-APACHE ts/adapters/*.ts ts/adapters/*.json scripts/build-adapters.mjs; echo "$have_wb $version"; "$wasm_opt" --version; "$esbuild" --version; } | sha256sum | cut -d' ' -f1)
outputs() { find pkg -type f -print0 2>/dev/null | sort -z | xargs -0r sha256sum | sha256sum | cut -d' ' -f1; }
if [ -f "$stamp" ] && [ "$(sed -n 1p "$stamp")" = "$key" ] && [ "$(sed -n 2p "$stamp")" = "$(outputs)" ]; then
  log "pkg/ is up to date (agentwire $version)"
else
  stage=target/pkg-stage
  rm -rf "$stage" && mkdir -p "$stage/web"
  wasm-bindgen --target bundler --out-dir "$stage" --out-name agentwire "$wasm"
  wasm-bindgen --target web --out-dir "$stage/web" --out-name agentwire "$wasm"
  # Type checks wasm-bindgen leaves out of release glue (the class of `this`, string and byte
  # arguments): hostile values become invalid-argument errors, not wasm traps or panics.
  node scripts/lib/harden-glue.mjs "$stage/agentwire_bg.js" "$stage/web/agentwire.js"
  # rustc 1.95's wasm32-unknown-unknown default features (its target_features section); wasm-opt
  # also reads that section, the flags make the set explicit. Binaryen < 121 cannot parse this output.
  features=(--enable-bulk-memory --enable-bulk-memory-opt --enable-call-indirect-overlong --enable-multivalue
            --enable-mutable-globals --enable-nontrapping-float-to-int --enable-reference-types --enable-sign-ext)
  # -Oz; measured 2026-11-23 against -Os, -Oz --converge, -Oz -Oz, -O3 -Oz, --gufa, --monomorphize,
  # --merge-similar-functions, -iit: none changed the gzip size by more than 0.2%. The producers and
  # target_features sections are metadata no engine reads (-265 B raw, -253 B gzip).
  # scripts/size-breakdown.mjs reads opt_flags and features from this script.
  opt_flags=(-Oz --strip-producers --strip-target-features)
  # Both targets get the same wasm from wasm-bindgen (checked): optimise once when that is so.
  if cmp -s "$stage/agentwire_bg.wasm" "$stage/web/agentwire_bg.wasm"; then
    "$wasm_opt" "${opt_flags[@]}" "${features[@]}" "$stage/agentwire_bg.wasm" -o "$stage/agentwire_bg.wasm"
    cp "$stage/agentwire_bg.wasm" "$stage/web/agentwire_bg.wasm"
  else
    for f in "$stage/agentwire_bg.wasm" "$stage/web/agentwire_bg.wasm"; do "$wasm_opt" "${opt_flags[@]}" "${features[@]}" "$f" -o "$f"; done
  fi
  # The JS glue, its snippets (inline_js, the Worker's page side) and the Worker entries ship
  # without comments and whitespace (esbuild from tools/; names kept, so classes keep their
  # names in the console and in stack traces): the doc comments wasm-bindgen copies into the glue
  # are in the .d.ts, where editors read them. -4.1 KB gzip measured on the glue alone.
  # Worker mode's entry (WorkerClient): one per target, next to the glue it imports.
  cp pkg-template/worker.js "$stage/agentwire-worker.js"
  cp pkg-template/worker-web.js "$stage/web/agentwire-worker.js"
  # Node's entry (the "node" condition of "."): Node cannot import the bundler glue's .wasm, so
  # `import "agentwire"` there gets the web build with the wasm read from disk.
  cp pkg-template/node.js "$stage/agentwire-node.js"
  # --target=es2022: the minified syntax stays ES2022 (what the glue and the Worker entry, with its
  # top-level await, already need). wasm-bindgen's first line `/* @ts-self-types="./agentwire.d.ts" */`
  # (types for a glue imported by URL: Deno, a CDN) is put back, since esbuild drops every comment.
  find "$stage" -name '*.js' -print0 | while IFS= read -r -d '' f; do
    first=$(head -n 1 "$f")
    "$esbuild" "$f" --minify-whitespace --minify-syntax --format=esm --target=es2022 \
      --log-level=warning --outfile="$f" --allow-overwrite
    if [[ "$first" == '/* @ts-self-types='*' */' ]]; then
      { printf '%s\n' "$first"; cat "$f"; } > "$f.tmp" && mv "$f.tmp" "$f"
    fi
  done
  node scripts/build-adapters.mjs "$stage"   # agentwire/react, /vue, /svelte (ts/adapters/) into adapters/
  cp pkg-template/README.md "$stage/README.md"
  cp LICENSE-MIT LICENSE-APACHE "$stage/"   # the package.json's "MIT OR Apache-2.0", with its texts
  # package.json: the template with the crate's version; every generated file must be listed in `files`.
  node - "$stage" "$version" <<'EOF'
const fs = require("node:fs"), path = require("node:path");
const [dir, version] = process.argv.slice(2);
const pkg = JSON.parse(fs.readFileSync("pkg-template/package.json", "utf8"));
pkg.version = version;
fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify(pkg, null, 2) + "\n");
const walk = (d) => fs.readdirSync(d, { withFileTypes: true })
  .flatMap((e) => e.isDirectory() ? walk(path.join(d, e.name)) : [path.relative(dir, path.join(d, e.name))]);
const covered = (f) => f === "package.json" || pkg.files.some((p) => p.endsWith("/") ? f.startsWith(p) : f === p);
const missing = walk(dir).filter((f) => !covered(f));
if (missing.length) { console.error(`pkg-template/package.json "files" misses: ${missing.join(", ")}`); process.exit(1); }
EOF
  rm -rf pkg && mv "$stage" pkg
  printf '%s\n%s\n' "$key" "$(outputs)" > "$stamp"
  log "built pkg/ and pkg/web/ (agentwire $version)"
fi

node scripts/size-report.mjs
