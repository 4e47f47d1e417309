#!/usr/bin/env bash
# The framework adapters' example apps end to end (issue 22, item 3): packs pkg/ (`npm pack`, as
# a user's app gets it), installs the tarball into examples/{react,vue,svelte} by its file path
# next to their own npm dependencies (both idempotent: redone only when the lock or the tarball
# changed), type-checks the React app (tsc from tools/), builds each app with Vite into
# target/examples-site/<app>/ (React twice: production, and development where StrictMode mounts
# twice), serves them from the scenario server (its `approval` scenario, strict CSP) and drives
# them in headless Chromium (tests/examples/run.mjs). Needs scripts/build-pkg.sh to have run.
# Screenshots: target/examples-screenshots/. Argument: a test-name filter.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$HOME/.cargo/bin:$PATH"
log() { printf '[examples] %s\n' "$*"; }
[ -f pkg/adapters/react.js ] || { echo "pkg/adapters missing: run scripts/build-pkg.sh" >&2; exit 1; }
t0=$(date +%s)

# 1. The packed package.
packs=target/examples
rm -rf "$packs" && mkdir -p "$packs"
tgz="$PWD/$packs/$(npm pack ./pkg --pack-destination "$packs" --loglevel=error | tail -1)"
[ -f "$tgz" ] || { echo "error: npm pack gave no tarball" >&2; exit 1; }
tgz_sum=$(sha256sum "$tgz" | cut -d' ' -f1)

# 2. Each app's dependencies, then the tarball (what `npm install ./agentwire-<v>.tgz` does).
site=target/examples-site
rm -rf "$site" && mkdir -p "$site"
for app in react vue svelte; do
  dir=examples/$app
  lock_sum=$(cat "$dir/package.json" "$dir/package-lock.json" | sha256sum | cut -d' ' -f1)
  stamp=$dir/node_modules/.agentwire-example
  if [ "$(sed -n 1p "$stamp" 2>/dev/null)" != "$lock_sum" ]; then
    (cd "$dir" && nice npm ci --no-audit --no-fund --loglevel=error)
    printf '%s\n' "$lock_sum" > "$stamp"
  fi
  if [ "$(sed -n 2p "$stamp")" != "$tgz_sum" ]; then
    (cd "$dir" && nice npm install --no-save --no-audit --no-fund --loglevel=error "$tgz")
    printf '%s\n%s\n' "$lock_sum" "$tgz_sum" > "$stamp"
  fi
  [ -f "$dir/node_modules/agentwire/adapters/$app.js" ] \
    || { echo "error: $dir/node_modules/agentwire has no adapters/$app.js" >&2; exit 1; }
  # 3. Build (the React app's types against the packed declarations first).
  if [ "$app" = react ]; then
    tools/node_modules/.bin/tsc -p "$dir"
  fi
  (cd "$dir" && NO_COLOR=1 nice npx vite build --logLevel warn --outDir "../../$site/$app" --emptyOutDir)
  if [ "$app" = react ]; then
    (cd "$dir" && NODE_ENV=development NO_COLOR=1 nice npx vite build --mode development --logLevel warn \
      --outDir "../../$site/react-dev" --emptyOutDir)
  fi
done
log "packed $(basename "$tgz"), installed and built react, react-dev, vue, svelte in $(( $(date +%s) - t0 )) s"

# 4. Served by the scenario server, driven in Chromium.
SCENARIO_ARGS=(--static "$site")
# shellcheck source=scripts/lib/scenario-server.sh
. scripts/lib/scenario-server.sh
start_scenario_server || exit 1
node tests/examples/run.mjs "$SCENARIO_URL" "${1:-}"
log "total $(( $(date +%s) - t0 )) s"
