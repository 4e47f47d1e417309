#!/usr/bin/env bash
# Idempotent set-up: installs what is missing, checks versions rather than presence.
# Safe to run repeatedly and unattended (CI=true, no stdin); used by scripts/demo.sh and
# scripts/test.sh. Installs: the wasm32 target, rustfmt/clippy, wasm-bindgen-cli at exactly the
# crate's pinned wasm-bindgen version, Debian's Chromium + chromedriver, Node if absent, and the
# pinned npm tools of tools/package-lock.json (wasm-opt, tsc, esbuild, playwright-core), and
# cargo-fuzz when a nightly toolchain is present (not with --no-fuzz: scripts/demo.sh, which does
# not fuzz anything).
set -euo pipefail
cd "$(dirname "$0")/.."
fuzz=true
case "${1:-}" in
  "") ;;
  --no-fuzz) fuzz=false ;;
  *) echo "usage: scripts/setup.sh [--no-fuzz]" >&2; exit 2 ;;
esac

export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$HOME/.cargo/bin:$PATH"
log() { printf '[setup] %s\n' "$*"; }
die() { printf '[setup] error: %s\n' "$*" >&2; exit 1; }
as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"
  elif command -v sudo >/dev/null; then sudo -n "$@" || die "needs root for: $* (sudo -n failed)"
  else die "needs root for: $*"; fi
}
apt_install() {
  export DEBIAN_FRONTEND=noninteractive
  # Wait for a concurrent apt/dpkg (another set-up, unattended upgrades) instead of failing.
  local wait=(-o DPkg::Lock::Timeout=600)
  as_root apt-get "${wait[@]}" update -qq
  as_root apt-get "${wait[@]}" install -y -qq --no-install-recommends "$@" >/dev/null
}

# The wasm-bindgen CLI must equal the crate's wasm-bindgen exactly; Cargo.lock is the source of truth.
WASM_BINDGEN_VERSION=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)
[ -n "$WASM_BINDGEN_VERSION" ] || WASM_BINDGEN_VERSION=0.2.130
WASM_OPT_MAJOR=132   # binaryen from tools/package-lock.json (older ones cannot parse rustc 1.95 output)
NODE_MIN_MAJOR=18

# 1. Rust (rustup is a prerequisite), the browser target, rustfmt and clippy.
command -v rustup >/dev/null || die "rustup not found: install Rust (https://rustup.rs) first"
if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  log "adding rust target wasm32-unknown-unknown"
  rustup target add wasm32-unknown-unknown
fi
for comp in rustfmt clippy; do
  if ! rustup component list --installed | grep -q "^$comp"; then
    log "adding rust component $comp"; rustup component add "$comp"
  fi
done

# 2. wasm-bindgen CLI (also provides wasm-bindgen-test-runner), exact version. With --locked the
#    install fails here (its lockfile pins a crate version the registry no longer serves): fall back.
have_wb=$(wasm-bindgen --version 2>/dev/null | awk '{print $2}' || true)
have_wbr=$(wasm-bindgen-test-runner --version 2>/dev/null | awk '{print $2}' || true)
if [ "$have_wb" != "$WASM_BINDGEN_VERSION" ] || [ "$have_wbr" != "$WASM_BINDGEN_VERSION" ]; then
  log "installing wasm-bindgen-cli $WASM_BINDGEN_VERSION (found: ${have_wb:-none}, test runner: ${have_wbr:-none}; ~2 min)"
  cargo install wasm-bindgen-cli --version "=$WASM_BINDGEN_VERSION" --locked --force --quiet 2>/dev/null \
    || cargo install wasm-bindgen-cli --version "=$WASM_BINDGEN_VERSION" --force --quiet
fi

# 3. Chromium + chromedriver from Debian (same source package, so their versions always match).
chrome_v=$(/usr/bin/chromium --version 2>/dev/null | grep -o '[0-9][0-9.]*' | head -1 || true)
driver_v=$(/usr/bin/chromedriver --version 2>/dev/null | grep -o '[0-9][0-9.]*' | head -1 || true)
if [ -z "$chrome_v" ] || [ -z "$driver_v" ] || [ "${chrome_v%.*}" != "${driver_v%.*}" ]; then
  log "installing chromium and chromium-driver from Debian (found: ${chrome_v:-none} / driver ${driver_v:-none})"
  apt_install chromium chromium-driver
fi

# 4. Node (any >= 18; Node 20 is what this is tested with) and npm.
node_major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
if [ "$node_major" -lt "$NODE_MIN_MAJOR" ] || ! command -v npm >/dev/null; then
  log "installing nodejs and npm from Debian (found node major: $node_major)"
  apt_install nodejs npm
fi

# 5. npm tools pinned in tools/package-lock.json; reinstalled when the lock is newer than the
#    install or the installed wasm-opt is not the pinned one.
have_wo=$(tools/node_modules/.bin/wasm-opt --version 2>/dev/null | awk '{print $3}' || true)
if ! [ -f tools/node_modules/.package-lock.json ] \
   || [ tools/package-lock.json -nt tools/node_modules/.package-lock.json ] \
   || [ "$have_wo" != "$WASM_OPT_MAJOR" ]; then
  log "installing npm tools (tools/: binaryen, typescript, esbuild, playwright-core)"
  (cd tools && npm ci --no-audit --no-fund --loglevel=error </dev/null)
fi

# 6. cargo-fuzz for scripts/fuzz.sh, exact version; only where a nightly toolchain is installed
#    (cargo-fuzz needs one; without it scripts/fuzz.sh prints SKIPPED).
CARGO_FUZZ_VERSION=0.13.1
if ! $fuzz; then
  log "cargo-fuzz: not needed here (--no-fuzz), not checked"
elif rustup toolchain list 2>/dev/null | grep -q '^nightly'; then
  have_cf=$(cargo fuzz --version 2>/dev/null | awk '{print $2}' || true)
  if [ "$have_cf" != "$CARGO_FUZZ_VERSION" ]; then
    log "installing cargo-fuzz $CARGO_FUZZ_VERSION (found: ${have_cf:-none}; ~1 min)"
    cargo install cargo-fuzz --version "=$CARGO_FUZZ_VERSION" --locked --force --quiet
  fi
fi

log "ok: $(rustc --version | cut -d' ' -f1-2), wasm-bindgen $(wasm-bindgen --version | awk '{print $2}')," \
  "wasm-opt $(tools/node_modules/.bin/wasm-opt --version | awk '{print $3}'), node $(node --version)," \
  "$(/usr/bin/chromium --version 2>/dev/null | head -1)"
