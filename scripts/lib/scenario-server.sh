# shellcheck shell=bash
# Sourced by scripts that need the scenario agent server (package agentwire-scenario in
# scenario-server/). start_scenario_server builds it, starts it on a free port, waits for the line
# "agentwire-scenario listening on http://127.0.0.1:PORT" on its stdout, exports SCENARIO_URL,
# and stops the server when the calling script exits. Expects to run from the repository root.

scenario_pid=""
SCENARIO_ARGS=("${SCENARIO_ARGS[@]}")
scenario_log=""
stop_scenario_server() {
  if [ -n "$scenario_pid" ] && kill -0 "$scenario_pid" 2>/dev/null; then
    kill "$scenario_pid" 2>/dev/null || true
    wait "$scenario_pid" 2>/dev/null || true
  fi
  scenario_pid=""
  [ -z "$scenario_log" ] || rm -f "$scenario_log"
}

start_scenario_server() {
  local meta
  meta=$(cargo metadata -q --no-deps --format-version 1) || return 1
  if ! grep -q '"name":"agentwire-scenario"' <<<"$meta"; then
    echo "error: the scenario server (package agentwire-scenario in scenario-server/) is not in the workspace" >&2
    return 1
  fi
  cargo build -q -p agentwire-scenario || return 1
  trap stop_scenario_server EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM
  scenario_log=$(mktemp)
  target/debug/agentwire-scenario --port 0 "${SCENARIO_ARGS[@]}" >"$scenario_log" 2>&1 </dev/null &
  scenario_pid=$!
  SCENARIO_URL=""
  local _
  # (callers use `start_scenario_server || die`, which disables set -e here: every step returns.)
  for _ in $(seq 1 300); do   # up to 30 s
    SCENARIO_URL=$(sed -n 's|^agentwire-scenario listening on \(http://127\.0\.0\.1:[0-9][0-9]*\).*|\1|p' "$scenario_log" | head -1)
    [ -n "$SCENARIO_URL" ] && break
    if ! kill -0 "$scenario_pid" 2>/dev/null; then
      cat "$scenario_log" >&2; echo "error: the scenario server exited before listening" >&2; return 1
    fi
    sleep 0.1
  done
  if [ -z "$SCENARIO_URL" ]; then
    cat "$scenario_log" >&2
    echo "error: no 'agentwire-scenario listening on http://127.0.0.1:PORT' line within 30 s" >&2
    return 1
  fi
  export SCENARIO_URL
}
