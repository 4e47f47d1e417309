#!/usr/bin/env bash
# agentwire's AI SDK dialect next to the official Vercel AI SDK client (issue 20 item 6).
#
#   bash scripts/bench-ai-sdk.sh [--preset 25k,100k] [--runs 5] [--warmup 1] [--timeout 300]
#                                [--consumers official,official-noschema,official-reducer,agentwire]
#                                [--no-sizes] [--profile CONSUMER:PRESET]
#
# 1. Builds the package (scripts/build-pkg.sh: release, LTO, wasm-opt -Os --gufa -Os) when needed.
# 2. Installs the pinned npm dependencies idempotently: tools/ (esbuild, playwright-core) and
#    tests/ai-sdk/ (ai@7.0.173, the official client), `npm ci` only when the lock file changed.
# 3. Generates benches/ai-sdk/data/<preset>.sse with the official writer (gen.mjs) when missing,
#    with <preset>.expected.json (the official reader's final message, hashed).
# 4. One headless Chromium run (benches/ai-sdk/run.mjs): official reader (transport parsing +
#    schema + readUIMessageStream), the same without schema, the official reducer without
#    per-chunk snapshots, and agentwire; interleaved rounds; WRONG when a final message differs.
# 5. Sizes: the package next to the AI SDK's chat client, ai 7 (benches/ai-sdk/sizes.mjs).
# Output: the console and target/ai-sdk-bench/results/<stamp>.{txt,json}.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$HOME/.cargo/bin:$PATH"
log() { printf '[bench-ai-sdk] %s\n' "$*"; }

presets=25k,100k runs=5 warmup=1 timeout=300 consumers=official,official-noschema,official-reducer,agentwire sizes=1 profile=
while [ $# -gt 0 ]; do
  case $1 in
    --preset|--presets) presets=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --warmup) warmup=$2; shift 2 ;;
    --timeout) timeout=$2; shift 2 ;;
    --consumers) consumers=$2; shift 2 ;;
    --no-sizes) sizes=; shift ;;
    --profile) profile=$2; shift 2 ;;
    -h|--help) sed -n '2,18p' "$0"; exit 0 ;;
    *) echo "unknown argument: $1 (see --help)" >&2; exit 2 ;;
  esac
done

npm_ci() { # dir: npm ci when its lock file differs from the one installed last
  if ! cmp -s "$1/package-lock.json" "$1/node_modules/.lock-src" 2>/dev/null; then
    log "npm ci in $1"
    (cd "$1" && npm ci --no-audit --no-fund --loglevel=error </dev/null)
    cp "$1/package-lock.json" "$1/node_modules/.lock-src"
  fi
}
npm_ci tools
npm_ci tests/ai-sdk

# 1. the package (incremental: cargo and the post-processing steps skip what did not change)
SIZE_REPORT=brief SIZE_BUDGET_GZIP=${SIZE_BUDGET_GZIP:-1000000000} nice bash scripts/build-pkg.sh

# 3. the workload
IFS=, read -r -a preset_list <<<"$presets"
for p in "${preset_list[@]}"; do
  [ -f "benches/ai-sdk/data/$p.sse" ] && [ -f "benches/ai-sdk/data/$p.expected.json" ] || node benches/ai-sdk/gen.mjs --preset "$p"
done

out=target/ai-sdk-bench/results
mkdir -p "$out"
if [ -n "$profile" ]; then
  node benches/ai-sdk/run.mjs --profile "$profile"
  exit 0
fi
stamp=$(date -u +%Y%m%dT%H%M%SZ)
node benches/ai-sdk/run.mjs --preset "$presets" --runs "$runs" --warmup "$warmup" --timeout "$timeout" \
  --consumers "$consumers" --json "$PWD/$out/$stamp.json"

# 5. sizes
if [ -n "$sizes" ]; then
  node benches/ai-sdk/sizes.mjs 2>&1 | tee "$out/$stamp-sizes.txt"
fi
log "wrote $out/$stamp.txt"
