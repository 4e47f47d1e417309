# shellcheck shell=bash
# Sourced by scripts that need the AI SDK (ai 7.x) chat backend running:
#   tests/ai-sdk/server.mjs on the official ai@7.0.173   (start_ai_sdk_server → AI_SDK_URL)
# start_ai_sdk_server installs what is missing (npm ci in tests/ai-sdk when node_modules is absent,
# not the pinned ai@7.0.173 or older than package-lock.json), starts the server on a free port, waits
# for its "ai-sdk listening on http://127.0.0.1:PORT" line, exports the base URL (the chat endpoint is
# POST $AI_SDK_URL/api/chat, resume GET $AI_SDK_URL/api/chat/<chatId>/stream, stop
# POST $AI_SDK_URL/api/chat/<chatId>/stop, health GET $AI_SDK_URL/health) and stops the server when the calling
# script exits (chaining any EXIT trap already set). Unattended: CI=true, no prompts, stdin is
# /dev/null. Expects to run from the repository root. AI_SDK_ARGS (array) adds server arguments
# (e.g. --slow-ms 50 --delay 0).

AI_SDK_ARGS=("${AI_SDK_ARGS[@]}")
ai_sdk_pid=""
ai_sdk_log=""

stop_ai_sdk_server() {
  if [ -n "$ai_sdk_pid" ] && kill -0 "$ai_sdk_pid" 2>/dev/null; then
    kill "$ai_sdk_pid" 2>/dev/null || true
    wait "$ai_sdk_pid" 2>/dev/null || true
  fi
  [ -z "$ai_sdk_log" ] || rm -f "$ai_sdk_log"
  ai_sdk_pid=""
  ai_sdk_log=""
}

_ai_sdk_chain_exit_trap() { # command
  local prev
  prev=$(trap -p EXIT | sed -n "s/^trap -- '\(.*\)' EXIT$/\1/p")
  case "$prev" in *"$1"*) return 0 ;; esac
  # shellcheck disable=SC2064
  trap "$1; ${prev:-:}" EXIT
}

# npm ci in tests/ai-sdk when node_modules is missing, not the pinned version, or older than the lock.
install_ai_sdk_deps() {
  local dir=tests/ai-sdk
  [ -f "$dir/package-lock.json" ] || { echo "error: $dir/package-lock.json is missing" >&2; return 1; }
  local ok=1
  grep -q '"version": "7.0.173"' "$dir/node_modules/ai/package.json" 2>/dev/null || ok=0
  if [ "$ok" = 1 ] && ! [ "$dir/node_modules/.package-lock.json" -ot "$dir/package-lock.json" ]; then
    return 0
  fi
  (cd "$dir" && CI=true npm ci --no-audit --no-fund --loglevel=error </dev/null) >&2 || {
    echo "error: npm ci in $dir failed" >&2
    return 1
  }
}

start_ai_sdk_server() {
  command -v node >/dev/null || { echo "error: node is not installed" >&2; return 1; }
  install_ai_sdk_deps || return 1
  _ai_sdk_chain_exit_trap stop_ai_sdk_server
  ai_sdk_log=$(mktemp)
  CI=true node tests/ai-sdk/server.mjs --port 0 --host 127.0.0.1 "${AI_SDK_ARGS[@]}" >"$ai_sdk_log" 2>&1 </dev/null &
  ai_sdk_pid=$!
  local url="" _
  for _ in $(seq 1 600); do # up to 60 s
    url=$(sed -n 's|^ai-sdk listening on \(http://[0-9.]*:[0-9][0-9]*\).*|\1|p' "$ai_sdk_log" | head -1)
    [ -n "$url" ] && break
    if ! kill -0 "$ai_sdk_pid" 2>/dev/null; then
      cat "$ai_sdk_log" >&2
      echo "error: the ai-sdk server exited before listening" >&2
      return 1
    fi
    sleep 0.1
  done
  if [ -z "$url" ]; then
    cat "$ai_sdk_log" >&2
    echo "error: no 'ai-sdk listening on http://127.0.0.1:PORT' line within 60 s" >&2
    return 1
  fi
  AI_SDK_URL=$url
  export AI_SDK_URL
}
