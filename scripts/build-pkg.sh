#!/usr/bin/env bash
# Builds the npm package `agentwire` into pkg/:
#   pkg/agentwire.js      the TypeScript layer (ts/src, the package's API) over the web glue, whose
#                         wasm pkg/raw/agentwire.js instantiates from `new URL(..., import.meta.url)`
#                         (what `import "agentwire"` resolves to: Vite, webpack 5, Next.js, with no
#                         bundler setting)
#   pkg/web/agentwire.js  the same layer over the web glue (`import init, { initSync } from
#                         "agentwire/web"`: no bundler, Node with initSync, the benchmark page)
#   pkg/types/            the declarations of the layer (tsc) and the generated event/state types
#                         (tests/snapshots/types.d.ts, from Rust by tests/ts_decl.rs)
#   pkg/raw/, pkg/web/raw/  wasm-bindgen's glue, the wasm and the Worker entries: private (not in
#                         `exports` except the wasm files and the Worker entries)
# Steps: cargo rustc --crate-type cdylib (release profile: LTO, opt-level z), wasm-bindgen (version
# must equal the crate's pin), wasm-opt -Os --gufa -Os (binaryen 132 from tools/), the JS without comments
# and whitespace (esbuild from tools/), the TS layer (esbuild: the same ts/src built once per glue,
# its `./raw/agentwire.js` import kept external; tsc for the .d.ts), then package.json and README
# from pkg-template/. Steps after cargo are skipped when none of their inputs changed.
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

# 1. The wasm of each protocol's entry (issue 23: agentwire/core, /a2a, ...; scripts/build-entry.sh
# builds it with that dialect's features alone into target/entries/<entry>/, and skips its steps
# after cargo when nothing changed), then the package's own (every dialect and Worker mode), built
# last: cargo puts every build at the same path, and rebuilds the crate whenever the features
# change (each entry and the package's own: ~20-60 s each, about 4 min for all on 2 cores).
protocol_entries=(core a2a acp unified myagent ag-ui ai-sdk)
bash scripts/build-entry.sh "${protocol_entries[@]}"
# Every feature set writes the same deps/agentwire.wasm (a cdylib's name has no hash) under ONE
# fingerprint, which records the features: after an entry's build cargo rebuilds this one
# (`FeaturesChanged`, checked with CARGO_LOG=cargo::core::compiler::fingerprint=info), so the
# wasm here is always the default build's. A stale wasm here (seen 2026-11-26/27 in helpers'
# worktrees: pkg/raw/ held the ai-sdk entry's wasm) came from target/ files hard-linked between
# git worktrees (`cp -al` seeding), where another tree's build rewrote this tree's output and
# fingerprint: seed a worktree's target/ with `cp -a`, never links. Removing the outputs first
# costs nothing (the entries' builds precede this one) and keeps even such a tree correct.
out_dir="${CARGO_TARGET_DIR:-target}/wasm32-unknown-unknown/release"
rm -f "$out_dir/agentwire.wasm" "$out_dir/deps/agentwire.wasm"
cargo rustc -q -p agentwire --lib --release --target wasm32-unknown-unknown --crate-type cdylib
wasm=$out_dir/agentwire.wasm

# 2-4 only when an input changed: the wasm, the template, this script, the tool versions.
stamp=target/pkg.stamp
key=$({ sha256sum "$wasm" pkg-template/* scripts/build-pkg.sh ts/tsconfig.json ts/src/*.ts ts/src/raw/* tests/snapshots/types.d.ts target/entries/*/entry.key LICENSE-MIT LICENSE-APACHE ts/adapters/*.ts ts/adapters/*.json scripts/build-adapters.mjs; echo "$have_wb $version"; "$wasm_opt" --version; "$esbuild" --version; } | sha256sum | cut -d' ' -f1)
outputs() { find pkg -type f -print0 2>/dev/null | sort -z | xargs -0r sha256sum | sha256sum | cut -d' ' -f1; }
if [ -f "$stamp" ] && [ "$(sed -n 1p "$stamp")" = "$key" ] && [ "$(sed -n 2p "$stamp")" = "$(outputs)" ]; then
  log "pkg/ is up to date (agentwire $version)"
else
  stage=target/pkg-stage
  rm -rf "$stage" && mkdir -p "$stage/raw" "$stage/web/raw"
  # The generated bindings (private): the TS layer checks every argument before it reaches them
  # (wasm-bindgen's release glue checks neither argument types nor the class of `this`).
  # One glue for both: the web target's (init() given the wasm's URL), which every bundler takes as
  # is. (The bundler target's `import * as wasm from "./agentwire_bg.wasm"` needed settings: Vite's
  # dev server broke it when pre-bundling, `Cannot read properties of undefined (reading
  # '__wbindgen_externrefs')`, and its Worker, built as iife, could not hold the top-level await.)
  wasm-bindgen --target web --out-dir "$stage/web/raw" --out-name agentwire "$wasm"
  # Their declarations are not shipped: the package's types are the layer's (pkg/types/).
  rm -f "$stage"/raw/*.d.ts "$stage"/web/raw/*.d.ts
  # rustc 1.95's wasm32-unknown-unknown default features (its target_features section); wasm-opt
  # also reads that section, the flags make the set explicit. Binaryen < 121 cannot parse this output.
  features=(--enable-bulk-memory --enable-bulk-memory-opt --enable-call-indirect-overlong --enable-multivalue
            --enable-mutable-globals --enable-nontrapping-float-to-int --enable-reference-types --enable-sign-ext)
  # -Os --gufa -Os: measured 2026-11-27 on the core entry's wasm (gzip, -Oz 167,864 B): -Os
  # 167,567, -Os -Os 167,419, -Os --gufa -Os 167,359 (-505 B; ag-ui -667 B, a2a -663 B; raw
  # +1.8 KB), -Oz --gufa -Oz 167,640, -Oz --converge 167,699, -Oz -Oz 167,644, -O3 -Oz 168,662,
  # --monomorphize -Oz 167,719, -Oz --merge-similar-functions 167,864 (2026-11-23: -Oz against
  # -Os, --converge, -O3 -Oz, --gufa, -iit, each alone: none beyond 0.2%). The producers and
  # target_features sections are metadata no engine reads (-265 B raw, -253 B gzip).
  # scripts/size-breakdown.mjs reads opt_flags and features from this script.
  opt_flags=(-Os --gufa -Os --strip-producers --strip-target-features)
  "$wasm_opt" "${opt_flags[@]}" "${features[@]}" "$stage/web/raw/agentwire_bg.wasm" -o "$stage/web/raw/agentwire_bg.wasm"
  # pkg/raw/ (what `import "agentwire"` loads): the same glue as pkg/web/raw/, as raw/glue.js
  # under the loader raw/agentwire.js (pkg-template/loader.js), as in each protocol's entry.
  cp -r "$stage/web/raw/." "$stage/raw/"
  sed '1{/@ts-self-types/d}' "$stage/raw/agentwire.js" > "$stage/raw/glue.js" && rm "$stage/raw/agentwire.js"
  cp pkg-template/loader.js "$stage/raw/agentwire.js"
  # The JS glue, its snippets (inline_js, the Worker's page side) and the Worker entries ship
  # without comments and whitespace (esbuild from tools/; names kept, so classes keep their
  # names in the console and in stack traces): the doc comments wasm-bindgen copies into the glue
  # are in the .d.ts, where editors read them. -4.1 KB gzip measured on the glue alone.
  # Worker mode's entry (WorkerClient): one per target, next to the glue it imports.
  # It imports the raw glue beside it (the Worker side needs no API layer); the page side finds
  # it at `raw/agentwire-worker.js` from the layer (ts/src/worker.ts).
  cp pkg-template/worker.js "$stage/raw/agentwire-worker.js"
  cp pkg-template/worker-web.js "$stage/web/raw/agentwire-worker.js"
  # Node's entry (the "node" condition of "."): Node cannot import the bundler glue's .wasm, so
  # `import "agentwire"` there gets the web build with the wasm read from disk.
  cp pkg-template/node.js "$stage/agentwire-node.js"
  # The protocol entries' Node initialiser (copied into each entry below; minified here).
  cp pkg-template/node-init.js "$stage/node-init.js"
  # --target=es2022: the minified syntax stays ES2022 (what the glue and the Worker entry, with its
  # top-level await, already need). wasm-bindgen's first line `/* @ts-self-types="./agentwire.d.ts" */`
  # (types for a glue imported by URL: Deno, a CDN) is put back, since esbuild drops every comment.
  find "$stage" -name '*.js' -print0 | while IFS= read -r -d '' f; do
    first=$(head -n 1 "$f")
    "$esbuild" "$f" --minify-whitespace --minify-syntax --format=esm --target=es2022 \
      --log-level=warning --outfile="$f" --allow-overwrite
    if [[ "$first" == '/* @ts-self-types="./agentwire.d.ts" */' ]] && [ -f "${f%.js}.d.ts" ]; then
      { printf '%s\n' "$first"; cat "$f"; } > "$f.tmp" && mv "$f.tmp" "$f"
    fi
  done
  # The TypeScript layer, built once per glue: `./raw/agentwire.js` stays an import of the glue
  # beside the output (the loader over the web glue for pkg/agentwire.js, the web glue itself for
  # pkg/web/). Minified
  # with names kept (classes keep their names in the console and in stack traces).
  layer() { # ENTRY OUT TYPES
    "$esbuild" "$1" --bundle --format=esm --target=es2022 --platform=neutral --external:./raw/agentwire.js \
      --minify --keep-names --legal-comments=none --log-level=warning --outfile="$2.tmp"
    { printf '/* @ts-self-types="%s" */\n' "$3"; cat "$2.tmp"; } > "$2" && rm "$2.tmp"
  }
  layer ts/src/index.ts "$stage/agentwire.js" ./types/index.d.ts
  layer ts/src/web.ts "$stage/web/agentwire.js" ../types/web.d.ts
  # Its declarations (tsc, strict) and the generated event/state types it re-exports unchanged.
  tools/node_modules/.bin/tsc -p ts --outDir "$stage/types"
  rm -f "$stage/types/raw.d.ts" "$stage/types/args.d.ts" "$stage/types/bind.d.ts"   # internal modules
  cp tests/snapshots/types.d.ts "$stage/types/types.d.ts"
  # One entry per protocol (issue 23): pkg/<entry>/index.js is the layer of ts/src/entry.ts (the
  # API without Worker mode) over that entry's wasm, which raw/agentwire.js instantiates from the
  # URL it computes (top-level await; `new URL(..., import.meta.url)` is an asset to Vite, webpack
  # 5 and Next.js with no setting) with the web target's glue (raw/glue.js).
  for e in "${protocol_entries[@]}"; do
    d="$stage/$e"
    mkdir -p "$d/raw"
    cp -r "target/entries/$e/web/." "$d/raw/"
    rm -f "$d/raw/"*.d.ts
    sed '1{/@ts-self-types/d}' "$d/raw/agentwire.js" > "$d/raw/glue.js" && rm "$d/raw/agentwire.js"
    cp "$stage/raw/agentwire.js" "$d/raw/agentwire.js"   # the loader (minified above)
    layer ts/src/entry.ts "$d/index.js" ./index.d.ts
    printf 'export * from "../types/entry.js";\n' > "$d/index.d.ts"
    # Node (the entry's "node" condition): the wasm read from disk first (raw/node-init.js),
    # then the entry, whose loader finds it instantiated.
    cp "$stage/node-init.js" "$d/raw/node-init.js"
    printf '%s\n' 'import "./raw/node-init.js";' 'export * from "./index.js";' > "$d/node.js"
  done
  rm "$stage/node-init.js"
  node scripts/build-adapters.mjs "$stage"   # agentwire/react, /vue, /svelte (ts/adapters/) into adapters/
  # The adapters over each protocol's entry (agentwire/<entry>/react, /vue, /svelte): the same
  # adapter with its "agentwire" import being that entry, so an app on agentwire/ai-sdk that uses
  # useAgent loads the ai-sdk wasm alone; the declarations are the adapters' own. The entry is
  # imported by the package's name (`agentwire/<entry>`, a self-reference), so that its "node"
  # condition applies under Node (server-side rendering) as it does for `agentwire/react`.
  for e in "${protocol_entries[@]}"; do
    for f in react vue svelte; do
      "$esbuild" "ts/adapters/$f.ts" --bundle --format=esm --target=es2022 --minify-whitespace --minify-syntax \
        --log-level=warning --alias:agentwire=agentwire/$e --external:agentwire/$e --external:react --external:vue \
        --external:svelte '--external:svelte/*' --outfile="$stage/$e/$f.js"
      printf 'export * from "../adapters/%s.js";\n' "$f" > "$stage/$e/$f.d.ts"
    done
  done
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
