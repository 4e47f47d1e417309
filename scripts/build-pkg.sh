#!/usr/bin/env bash
# Builds the npm package into pkg/ (bundler target) and pkg/web/ (web target, initSync):
# cdylib-only build so LTO really applies, wasm-bindgen CLI (pinned), wasm-opt -Oz, then the
# package files from pkg-template/. Prints the size report and fails over the size budget.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PWD/tools/node_modules/.bin:$PATH"
cargo rustc -p agentwire --lib --release --target wasm32-unknown-unknown --crate-type cdylib -q
wasm=target/wasm32-unknown-unknown/release/agentwire.wasm
rm -rf pkg && mkdir -p pkg/web
wasm-bindgen --target bundler --out-dir pkg --out-name agentwire "$wasm"
wasm-bindgen --target web --out-dir pkg/web --out-name agentwire "$wasm"
for f in pkg/agentwire_bg.wasm pkg/web/agentwire_bg.wasm; do
  wasm-opt -Oz --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
    --enable-mutable-globals --enable-reference-types --enable-multivalue "$f" -o "$f.opt"
  mv "$f.opt" "$f"
done
version=$(grep -m1 '^version' Cargo.toml | cut -d'"' -f2)
sed "s/\"version\": \"0.0.0\"/\"version\": \"$version\"/" pkg-template/package.json > pkg/package.json
cp pkg-template/README.md pkg/README.md
node scripts/size-report.mjs pkg/agentwire_bg.wasm pkg/agentwire.js pkg/agentwire_bg.js
