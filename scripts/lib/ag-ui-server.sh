# shellcheck shell=bash
# Sourced by scripts that need the AG-UI 1.0 test agent running:
#   tests/ag-ui/server.mjs on the official @ag-ui/encoder 1.0.0   (start_ag_ui_server → AG_UI_URL)
# start_ag_ui_server installs what is missing (npm ci in tests/ag-ui when node_modules is absent,
# not the pinned 1.0.0 or older than package-lock.json), starts the server on a free port, waits
# for its "ag-ui listening on http://127.0.0.1:PORT" line, exports the base URL (the agent is
# POST $AG_UI_URL/agent, health GET $AG_UI_URL/health) and stops the server when the calling
# script exits (chaining any EXIT trap already set). Unattended: CI=true, no prompts, stdin is
# /dev/null. Expects to run from the repository root. AG_UI_ARGS (array) adds server arguments
# (e.g. --slow-ms 50 --delay 0).

AG_UI_ARGS=("${AG_UI_ARGS[@]}")
ag_ui_pid=""
ag_ui_log=""

stop_ag_ui_server() {
  if [ -n "$ag_ui_pid" ] && kill -0 "$ag_ui_pid" 2>/dev/null; then
    kill "$ag_ui_pid" 2>/dev/null || true
    wait "$ag_ui_pid" 2>/dev/null || true
  fi
  [ -z "$ag_ui_log" ] || rm -f "$ag_ui_log"
  ag_ui_pid=""
  ag_ui_log=""
}

_ag_ui_chain_exit_trap() { # command
  local prev
  prev=$(trap -p EXIT | sed -n "s/^trap -- '\(.*\)' EXIT$/\1/p")
  case "$prev" in *"$1"*) return 0 ;; esac
  # shellcheck disable=SC2064
  trap "$1; ${prev:-:}" EXIT
}

# npm ci in tests/ag-ui when node_modules is missing, not the pinned version, or older than the lock.
install_ag_ui_deps() {
  local dir=tests/ag-ui pkg
  [ -f "$dir/package-lock.json" ] || { echo "error: $dir/package-lock.json is missing" >&2; return 1; }
  local ok=1
  for pkg in core encoder client; do
    grep -q '"version": "1.0.0"' "$dir/node_modules/@ag-ui/$pkg/package.json" 2>/dev/null || ok=0
  done
  if [ "$ok" = 1 ] && ! [ "$dir/node_modules/.package-lock.json" -ot "$dir/package-lock.json" ]; then
    return 0
  fi
  (cd "$dir" && CI=true npm ci --no-audit --no-fund --loglevel=error </dev/null) >&2 || {
    echo "error: npm ci in $dir failed" >&2
    return 1
  }
}

start_ag_ui_server() {
  command -v node >/dev/null || { echo "error: node is not installed" >&2; return 1; }
  install_ag_ui_deps || return 1
  _ag_ui_chain_exit_trap stop_ag_ui_server
  ag_ui_log=$(mktemp)
  CI=true node tests/ag-ui/server.mjs --port 0 --host 127.0.0.1 "${AG_UI_ARGS[@]}" >"$ag_ui_log" 2>&1 </dev/null &
  ag_ui_pid=$!
  local url="" _
  for _ in $(seq 1 600); do # up to 60 s
    url=$(sed -n 's|^ag-ui listening on \(http://[0-9.]*:[0-9][0-9]*\).*|\1|p' "$ag_ui_log" | head -1)
    [ -n "$url" ] && break
    if ! kill -0 "$ag_ui_pid" 2>/dev/null; then
      cat "$ag_ui_log" >&2
      echo "error: the ag-ui server exited before listening" >&2
      return 1
    fi
    sleep 0.1
  done
  if [ -z "$url" ]; then
    cat "$ag_ui_log" >&2
    echo "error: no 'ag-ui listening on http://127.0.0.1:PORT' line within 60 s" >&2
    return 1
  fi
  AG_UI_URL=$url
  export AG_UI_URL
}
