# shellcheck shell=bash
# Sourced by scripts that need the official A2A v1.0 servers running agentwire's test agent:
#   tests/a2a1/js/server.mjs  on @a2a-js/sdk 1.3.0           (start_a2a1_js_server → A2A1_JS_URL)
#   tests/a2a1/py/server.py   on a2a-sdk[http-server] 1.3.0   (start_a2a1_py_server → A2A1_PY_URL)
# Each start function installs what is missing (npm ci in tests/a2a1/js; a venv in
# tests/a2a1/py/.venv + pip install -r requirements.txt, skipped when the pinned versions are
# already there), starts the server on a free port, waits for its "a2a1-js|a2a1-py listening on
# http://127.0.0.1:PORT" line, exports the base URL (agent card at $URL/.well-known/agent-card.json,
# JSON-RPC at $URL/a2a/jsonrpc, HTTP+JSON at $URL/a2a/rest) and stops the server when the calling
# script exits (chaining any EXIT trap already set). Unattended: no prompts, stdin is /dev/null.
# Expects to run from the repository root. A2A1_ARGS (array) adds server arguments (e.g. --delay 5).

A2A1_ARGS=("${A2A1_ARGS[@]}")
a2a1_js_pid=""
a2a1_py_pid=""
a2a1_js_log=""
a2a1_py_log=""

_a2a1_stop() { # pid-var log-var
  local pid=${!1} log=${!2}
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  fi
  [ -z "$log" ] || rm -f "$log"
  printf -v "$1" '%s' ""
  printf -v "$2" '%s' ""
}
stop_a2a1_js_server() { _a2a1_stop a2a1_js_pid a2a1_js_log; }
stop_a2a1_py_server() { _a2a1_stop a2a1_py_pid a2a1_py_log; }

_a2a1_chain_exit_trap() { # command
  local prev
  prev=$(trap -p EXIT | sed -n "s/^trap -- '\(.*\)' EXIT$/\1/p")
  case "$prev" in *"$1"*) return 0 ;; esac
  # shellcheck disable=SC2064
  trap "$1; ${prev:-:}" EXIT
}

# Waits for "<name> listening on http://127.0.0.1:PORT" in <log>; prints the base URL.
_a2a1_wait_url() { # name pid log
  local name=$1 pid=$2 log=$3 url="" _
  for _ in $(seq 1 600); do   # up to 60 s
    url=$(sed -n "s|^$name listening on \(http://[0-9.]*:[0-9][0-9]*\).*|\1|p" "$log" | head -1)
    [ -n "$url" ] && { echo "$url"; return 0; }
    if ! kill -0 "$pid" 2>/dev/null; then
      cat "$log" >&2; echo "error: the $name server exited before listening" >&2; return 1
    fi
    sleep 0.1
  done
  cat "$log" >&2
  echo "error: no '$name listening on http://127.0.0.1:PORT' line within 60 s" >&2
  return 1
}

# npm ci in tests/a2a1/js when node_modules is missing or older than package-lock.json.
install_a2a1_js_deps() {
  local dir=tests/a2a1/js
  [ -f "$dir/package-lock.json" ] || { echo "error: $dir/package-lock.json is missing" >&2; return 1; }
  if [ -f "$dir/node_modules/@a2a-js/sdk/package.json" ] && [ -d "$dir/node_modules/express" ] \
    && grep -q '"version": "1.3.0"' "$dir/node_modules/@a2a-js/sdk/package.json" \
    && ! [ "$dir/node_modules/.package-lock.json" -ot "$dir/package-lock.json" ]; then
    return 0
  fi
  (cd "$dir" && CI=true npm ci --no-audit --no-fund --loglevel=error </dev/null) >&2 || {
    echo "error: npm ci in $dir failed" >&2
    return 1
  }
}

# tests/a2a1/py/.venv with requirements.txt, unless the pinned versions are already installed.
install_a2a1_py_deps() {
  local dir=tests/a2a1/py py=tests/a2a1/py/.venv/bin/python
  command -v python3 >/dev/null || { echo "error: python3 is not installed" >&2; return 1; }
  if [ -x "$py" ] && "$py" - "$dir/requirements.txt" <<'EOF' 2>/dev/null; then return 0; fi
import re, sys
from importlib.metadata import version
for line in open(sys.argv[1]):
    m = re.match(r'^\s*([A-Za-z0-9_.-]+)(?:\[[^\]]*\])?==([^\s;#]+)', line)
    if m and version(m.group(1)) != m.group(2):
        sys.exit(1)
EOF
  [ -x "$py" ] || python3 -m venv "$dir/.venv" >&2 || { echo "error: python3 -m venv $dir/.venv failed" >&2; return 1; }
  PIP_DISABLE_PIP_VERSION_CHECK=1 "$py" -m pip install --quiet --no-input -r "$dir/requirements.txt" </dev/null >&2 || {
    echo "error: pip install -r $dir/requirements.txt failed" >&2
    return 1
  }
}

start_a2a1_js_server() {
  command -v node >/dev/null || { echo "error: node is not installed" >&2; return 1; }
  install_a2a1_js_deps || return 1
  _a2a1_chain_exit_trap stop_a2a1_js_server
  a2a1_js_log=$(mktemp)
  node tests/a2a1/js/server.mjs --port 0 --host 127.0.0.1 "${A2A1_ARGS[@]}" >"$a2a1_js_log" 2>&1 </dev/null &
  a2a1_js_pid=$!
  A2A1_JS_URL=$(_a2a1_wait_url a2a1-js "$a2a1_js_pid" "$a2a1_js_log") || return 1
  export A2A1_JS_URL
}

start_a2a1_py_server() {
  install_a2a1_py_deps || return 1
  _a2a1_chain_exit_trap stop_a2a1_py_server
  a2a1_py_log=$(mktemp)
  PYTHONUNBUFFERED=1 tests/a2a1/py/.venv/bin/python tests/a2a1/py/server.py --port 0 --host 127.0.0.1 \
    "${A2A1_ARGS[@]}" >"$a2a1_py_log" 2>&1 </dev/null &
  a2a1_py_pid=$!
  A2A1_PY_URL=$(_a2a1_wait_url a2a1-py "$a2a1_py_pid" "$a2a1_py_log") || return 1
  export A2A1_PY_URL
}
