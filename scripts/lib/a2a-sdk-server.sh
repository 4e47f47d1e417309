# shellcheck shell=bash
# Sourced by scripts that need the A2A agent built on the official @a2a-js/sdk
# (tests/a2a-sdk/server.mjs). start_a2a_sdk_server installs its npm dependencies when they are
# missing (`npm ci` in tests/a2a-sdk: idempotent), starts it on a free port, waits for the line
# "a2a-sdk listening on http://127.0.0.1:PORT" on its stdout, exports A2A_SDK_URL (the base URL;
# agent card at $A2A_SDK_URL/.well-known/agent-card.json, JSON-RPC at $A2A_SDK_URL/a2a/jsonrpc,
# exported as A2A_SDK_RPC_URL), and stops the server when the calling script exits.
# Expects to run from the repository root. A2A_SDK_ARGS (array) adds arguments (e.g. --delay 5).

a2a_sdk_pid=""
A2A_SDK_ARGS=("${A2A_SDK_ARGS[@]}")
a2a_sdk_log=""
stop_a2a_sdk_server() {
  if [ -n "$a2a_sdk_pid" ] && kill -0 "$a2a_sdk_pid" 2>/dev/null; then
    kill "$a2a_sdk_pid" 2>/dev/null || true
    wait "$a2a_sdk_pid" 2>/dev/null || true
  fi
  a2a_sdk_pid=""
  [ -z "$a2a_sdk_log" ] || rm -f "$a2a_sdk_log"
}

# Installs tests/a2a-sdk/node_modules from package-lock.json when it is missing or stale.
install_a2a_sdk_deps() {
  local dir=tests/a2a-sdk
  if [ ! -f "$dir/package-lock.json" ]; then
    echo "error: $dir/package-lock.json is missing" >&2
    return 1
  fi
  if [ -d "$dir/node_modules/@a2a-js/sdk" ] && [ -d "$dir/node_modules/express" ] \
    && ! [ "$dir/node_modules/.package-lock.json" -ot "$dir/package-lock.json" ]; then
    return 0
  fi
  (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error) >&2 || {
    echo "error: npm ci in $dir failed" >&2
    return 1
  }
}

start_a2a_sdk_server() {
  command -v node >/dev/null || { echo "error: node is not installed" >&2; return 1; }
  install_a2a_sdk_deps || return 1
  # Chain with an EXIT trap the caller may already have (e.g. stop_scenario_server).
  local prev
  prev=$(trap -p EXIT | sed -n "s/^trap -- '\(.*\)' EXIT$/\1/p")
  # shellcheck disable=SC2064
  trap "stop_a2a_sdk_server; ${prev:-:}" EXIT
  a2a_sdk_log=$(mktemp)
  node tests/a2a-sdk/server.mjs --port 0 "${A2A_SDK_ARGS[@]}" >"$a2a_sdk_log" 2>&1 </dev/null &
  a2a_sdk_pid=$!
  A2A_SDK_URL=""
  local _
  for _ in $(seq 1 300); do   # up to 30 s
    A2A_SDK_URL=$(sed -n 's|^a2a-sdk listening on \(http://127\.0\.0\.1:[0-9][0-9]*\).*|\1|p' "$a2a_sdk_log" | head -1)
    [ -n "$A2A_SDK_URL" ] && break
    if ! kill -0 "$a2a_sdk_pid" 2>/dev/null; then
      cat "$a2a_sdk_log" >&2; echo "error: the A2A SDK server exited before listening" >&2; return 1
    fi
    sleep 0.1
  done
  if [ -z "$A2A_SDK_URL" ]; then
    cat "$a2a_sdk_log" >&2
    echo "error: no 'a2a-sdk listening on http://127.0.0.1:PORT' line within 30 s" >&2
    return 1
  fi
  A2A_SDK_RPC_URL="$A2A_SDK_URL/a2a/jsonrpc"
  export A2A_SDK_URL A2A_SDK_RPC_URL
}
