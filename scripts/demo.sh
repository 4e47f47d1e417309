#!/usr/bin/env bash
# README command 1: the demo. Installs what is missing (scripts/setup.sh), builds the npm package
# (scripts/build-pkg.sh, prints its size report), installs and builds the web app in www-demo/
# (which depends on the package as "agentwire": "file:../pkg", like a user's app), then starts the
# scenario agent server serving it and prints the URL. Stays in the foreground; Ctrl-C stops the
# server. Idempotent: every step skips what is already up to date.
#
#   bash scripts/demo.sh                  serve on http://127.0.0.1:8787 (a free port if busy)
#   PORT=9000 bash scripts/demo.sh        another port
#   bash scripts/demo.sh --build-only     build everything, do not serve (scripts/demo-e2e.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$HOME/.cargo/bin:$PATH"
log() { printf '[demo] %s\n' "$*"; }

build_only=false
case "${1:-}" in
  "") ;;
  --build-only) build_only=true ;;
  *) echo "usage: scripts/demo.sh [--build-only]   (PORT=N to choose the port)" >&2; exit 2 ;;
esac
port=${PORT:-8787}
[[ "$port" =~ ^[0-9]+$ ]] || { echo "PORT must be a number, got '$port'" >&2; exit 2; }

# 1. Toolchains (Rust wasm32 target, wasm-bindgen, Node/npm, Chromium, pinned npm tools); not
#    cargo-fuzz, which only scripts/fuzz.sh uses.
bash scripts/setup.sh --no-fuzz </dev/null

# 2. The npm package (pkg/): skipped when nothing changed. One line says its size; the size
#    guard is scripts/test.sh's business, not the demo's (an over-guard build still makes a demo).
SIZE_REPORT=brief bash scripts/build-pkg.sh </dev/null

# 3. The web app's dependencies: `npm ci` from the lock, only when the lock is newer than the
#    install (the agentwire dependency is a symlink to ../pkg, so a rebuilt package needs no
#    reinstall).
demo=www-demo
if ! [ -f "$demo/node_modules/.package-lock.json" ] || [ "$demo/package-lock.json" -nt "$demo/node_modules/.package-lock.json" ] \
   || ! [ -e "$demo/node_modules/agentwire/package.json" ]; then
  log "installing www-demo's dependencies (npm ci)"
  (cd "$demo" && npm ci --no-audit --no-fund --loglevel=error </dev/null)
fi

# 4. Type-check (TypeScript strict) and build with Vite into www-demo/dist/.
log "building www-demo (tsc --noEmit && vite build)"
(cd "$demo" && npm run --silent build </dev/null)

# 5. The scenario agent server.
cargo build -q -p agentwire-scenario
server=target/debug/agentwire-scenario

if $build_only; then
  log "built: www-demo/dist/ and $server"
  exit 0
fi

# 6. Serve: the app and the agent API on one origin, under the server's strict CSP.
out=$(mktemp)
pid=""
cleanup() {
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi
  rm -f "$out"
}
trap cleanup EXIT
trap 'echo; log "stopped"; exit 0' INT TERM

start() { # start PORT: returns 0 once listening (URL in $url), 1 if it could not bind
  : >"$out"
  "$server" --port "$1" --static "$demo/dist" >"$out" 2>&1 </dev/null &
  pid=$!
  url=""
  for _ in $(seq 1 100); do
    url=$(sed -n 's|^agentwire-scenario listening on \(http://[^ ]*\).*|\1|p' "$out" | head -1)
    [ -n "$url" ] && return 0
    kill -0 "$pid" 2>/dev/null || { wait "$pid" 2>/dev/null || true; pid=""; return 1; }
    sleep 0.1
  done
  cat "$out" >&2
  echo "error: the scenario server did not start" >&2
  exit 1
}
if ! start "$port"; then
  log "port $port is busy ($(tr -d '\n' <"$out")); using a free port instead"
  start 0 || { cat "$out" >&2; exit 1; }
fi

bold=""; plain=""
if [ -t 1 ]; then bold=$(tput bold 2>/dev/null || true); plain=$(tput sgr0 2>/dev/null || true); fi
cat <<EOF

  ${bold}agentwire demo: $url/${plain}

  Open it in a browser. Scenario "main" starts at once: answer the approval and the sign-in
  in the page. Pick another scenario, a speed or faults (drop + resume, duplicates, shuffled
  chunks, malformed lines) in the header and press Run. The app's code: www-demo/src/.

  Press Ctrl-C to stop.

EOF
wait "$pid"
