#!/usr/bin/env bash
# Idempotent set-up: installs what is missing, checks versions rather than presence.
# Safe to run repeatedly; used by scripts/demo.sh and scripts/test.sh.
set -euo pipefail
cd "$(dirname "$0")/.."

WASM_BINDGEN_VERSION=0.2.130
export PATH="$HOME/.cargo/bin:$PATH"

log() { printf '[setup] %s\n' "$*"; }
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

# 1. Rust target for the browser build.
if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  log "adding rust target wasm32-unknown-unknown"
  rustup target add wasm32-unknown-unknown
fi
for comp in rustfmt clippy; do
  if ! rustup component list --installed | grep -q "^$comp"; then
    log "adding rust component $comp"; rustup component add "$comp"
  fi
done

# 2. wasm-bindgen CLI at exactly the crate's pinned version (also provides wasm-bindgen-test-runner).
have_wb=$(wasm-bindgen --version 2>/dev/null | awk '{print $2}' || true)
if [ "$have_wb" != "$WASM_BINDGEN_VERSION" ]; then
  log "installing wasm-bindgen-cli $WASM_BINDGEN_VERSION (found: ${have_wb:-none})"
  cargo install wasm-bindgen-cli --version "=$WASM_BINDGEN_VERSION" --locked --force \
    || cargo install wasm-bindgen-cli --version "=$WASM_BINDGEN_VERSION" --force
fi

# 3. Chromium + chromedriver from Debian (same source package, always matching).
if ! [ -x /usr/bin/chromium ] || ! [ -x /usr/bin/chromedriver ]; then
  log "installing chromium and chromium-driver from Debian"
  export DEBIAN_FRONTEND=noninteractive
  as_root apt-get update -qq
  as_root apt-get install -y -qq chromium chromium-driver >/dev/null
fi

# 4. npm tools (binaryen's wasm-opt, typescript, playwright-core, vite) pinned in tools/package-lock.json.
if ! [ -d tools/node_modules ] || [ tools/package-lock.json -nt tools/node_modules/.package-lock.json ]; then
  log "installing npm tools (tools/)"
  (cd tools && npm ci --no-audit --no-fund --loglevel=error)
fi
log "ok: $(rustc --version | cut -d' ' -f1-2), wasm-bindgen $(wasm-bindgen --version | awk '{print $2}'), $(/usr/bin/chromium --version 2>/dev/null | head -1)"
