#!/usr/bin/env bash
# Builds one entry of the package (issue 23: one wasm per protocol) into target/entries/<entry>/,
# with the same steps as scripts/build-pkg.sh (cargo rustc --crate-type cdylib in the release
# profile, wasm-bindgen, wasm-opt with build-pkg.sh's flags, esbuild minification of the JS), but
# `--no-default-features --features <the entry's features>`:
#   bash scripts/build-entry.sh <entry>...      (entries below; `every` builds them all)
# Output: target/entries/<entry>/ holds the bundler target (agentwire_bg.wasm, agentwire.js,
# agentwire_bg.js, snippets/, agentwire.d.ts), web/ the web target, input.wasm the cargo output
# (what scripts/size-breakdown.mjs --entry reads) and entry.json ({entry, features}).
# scripts/size-report.mjs prints every entry found there next to its budget.
# Not wired into build-pkg.sh: the package's entries (agentwire/core, …) are packaged by the lead.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$HOME/.cargo/bin:$PATH"
log() { printf '[build-entry] %s\n' "$*"; }

# The features of each entry. Every single-protocol entry leaves out Worker mode (its own entry,
# counted apart) and the other dialects; the WebSocket transport is MyAgent's (`myagent` turns it
# on), EventSource is kept where a dialect is read from a GET stream (000, A2A, A2A-ACP,
# Unified; AG-UI and the AI SDK POST every run and refuse other transports); `all` is
# `import "agentwire"` (every dialect and auto-detection, no Worker mode); `worker` is the
# default build (today's package: everything).
features_of() {
  case "$1" in
    core) echo "eventsource" ;;
    a2a) echo "a2a,eventsource" ;;
    acp) echo "acp,eventsource" ;;
    unified) echo "unified,eventsource" ;;
    myagent) echo "myagent" ;;
    ag-ui) echo "ag-ui" ;;
    ai-sdk) echo "ai-sdk" ;;
    all) echo "a2a,acp,unified,myagent,ag-ui,ai-sdk,websocket,eventsource" ;;
    worker) echo "default" ;;
    *) return 1 ;;
  esac
}
ENTRIES=(core a2a acp unified myagent ag-ui ai-sdk all worker)

# wasm-opt's flags are build-pkg.sh's (one place): its opt_flags=(…) and features=(…) arrays.
read_array() { perl -0ne 'print "$1\n" if /^\s*'"$1"'=\(([^)]*)\)/m' scripts/build-pkg.sh | tr -s ' \n' ' '; }
# shellcheck disable=SC2207
opt_flags=($(read_array opt_flags)) features=($(read_array features))
[ ${#opt_flags[@]} -gt 0 ] && [ ${#features[@]} -gt 0 ] || { echo "error: cannot read opt_flags/features from scripts/build-pkg.sh" >&2; exit 1; }

# `build-entry.sh --features [entry]`: the features of an entry (of each, one `entry features`
# line per entry), for scripts/check-features.sh.
if [ "${1:-}" = --features ]; then
  if [ -n "${2:-}" ]; then features_of "$2"; else for e in "${ENTRIES[@]}"; do echo "$e $(features_of "$e")"; done; fi
  exit
fi
[ $# -gt 0 ] || { echo "usage: $0 <entry>... (${ENTRIES[*]} | every)" >&2; exit 2; }
wasm_opt=tools/node_modules/.bin/wasm-opt
esbuild=tools/node_modules/.bin/esbuild
for t in "$wasm_opt" "$esbuild"; do
  [ -x "$t" ] || { echo "error: $t missing: run scripts/setup.sh" >&2; exit 1; }
done
[ "$1" = every ] && set -- "${ENTRIES[@]}"
for entry in "$@"; do
  feats=$(features_of "$entry") || { echo "error: unknown entry '$entry' (${ENTRIES[*]})" >&2; exit 2; }
  out=target/entries/$entry
  start=$(date +%s)
  if [ "$feats" = default ]; then
    cargo rustc -q -p agentwire --lib --release --target wasm32-unknown-unknown --crate-type cdylib
  else
    cargo rustc -q -p agentwire --lib --release --target wasm32-unknown-unknown --crate-type cdylib \
      --no-default-features --features "$feats"
  fi
  built="${CARGO_TARGET_DIR:-target}/wasm32-unknown-unknown/release/agentwire.wasm"
  # The steps after cargo only when the wasm or the steps changed (scripts/build-pkg.sh builds
  # every entry on each run; cargo itself is incremental).
  key=$({ sha256sum "$built" scripts/build-entry.sh scripts/build-pkg.sh pkg-template/worker.js pkg-template/worker-web.js; wasm-bindgen --version; "$wasm_opt" --version; "$esbuild" --version; } | sha256sum | cut -d' ' -f1)
  if [ -f "$out/entry.key" ] && [ "$(cat "$out/entry.key")" = "$key" ]; then
    log "$entry ($feats): up to date"
    continue
  fi
  stage=$out.stage
  rm -rf "$stage" && mkdir -p "$stage/web"
  cp "$built" "$stage/input.wasm"
  wasm-bindgen --target bundler --out-dir "$stage" --out-name agentwire "$stage/input.wasm"
  wasm-bindgen --target web --out-dir "$stage/web" --out-name agentwire "$stage/input.wasm"
  "$wasm_opt" "${opt_flags[@]}" "${features[@]}" "$stage/agentwire_bg.wasm" -o "$stage/agentwire_bg.wasm"
  cp "$stage/agentwire_bg.wasm" "$stage/web/agentwire_bg.wasm"
  # Worker mode's entry, when the build has Worker mode (its page side is a snippet).
  if find "$stage/snippets" -name worker_page.js 2>/dev/null | grep -q .; then
    cp pkg-template/worker.js "$stage/agentwire-worker.js"
    cp pkg-template/worker-web.js "$stage/web/agentwire-worker.js"
  fi
  find "$stage" -name '*.js' -print0 | while IFS= read -r -d '' f; do
    "$esbuild" "$f" --minify-whitespace --minify-syntax --format=esm --target=es2022 \
      --log-level=warning --outfile="$f" --allow-overwrite
  done
  printf '{"entry":"%s","features":"%s"}\n' "$entry" "$feats" > "$stage/entry.json"
  echo "$key" > "$stage/entry.key"
  rm -rf "$out" && mv "$stage" "$out"
  log "$entry ($feats): $(wc -c < "$out/agentwire_bg.wasm") B wasm, $(( $(date +%s) - start )) s"
done
