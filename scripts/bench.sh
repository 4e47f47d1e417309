#!/usr/bin/env bash
# The browser benchmark (issue 7): agentwire side by side with the JavaScript baseline.
#
#   bash scripts/bench.sh [--preset small,medium[,large]] [--runs 5] [--warmup 1] [--paths mem,net]
#                         [--consumers floor-decode,floor-jsonparse,js-reference] [--modes snapshot,…]
#                         [--entries agentwire,core,ag-ui] [--no-probe] [--no-cpu] [--no-longtasks]
#                         [--no-js-sizes] [--no-ag-ui] [--profile]
#
# 1. Builds the release npm package (scripts/build-pkg.sh: LTO, opt-level z, wasm-opt -Os --gufa -Os).
# 2. Copies the shared harness (BENCH_HARNESS, default ../shared/bench) into target/bench-harness
#    (it is read-only and keeps its data, bundles and node_modules next to itself) and installs
#    its pinned npm dependencies there (`npm ci`; playwright-core drives the system Chromium at
#    /usr/bin/chromium or CHROMIUM_PATH: no browser download).
# 3. One headless Chromium run of the harness (run.mjs): the chosen built-in consumers plus the
#    agentwire modes of benches/bench-consumer/ (snapshot, per-event, filtered; the main-thread
#    client on the net path; Worker mode, snapshot and per-event), every preset, mem and net
#    paths, interleaved rounds, correctness checked against expected.json (WRONG is reported,
#    not timed). The consumers are staged in target/bench-harness/aw/ with pkg/web as ./pkg/
#    (the Worker entry and its wasm are served from there).
#    --entries (default: agentwire): the packages the agentwire consumers run on, in the same
#    harness run. `agentwire` is the full package (pkg/web, as above); a protocol's entry (core,
#    a2a, acp, unified, myagent, ag-ui, ai-sdk; issue 23 item 5) gets its own copies of the
#    consumers in target/bench-harness/aw-<entry>/ over pkg/<entry>/ (package-entry.mjs: the
#    entry's own loader fetches its wasm, instantiateStreaming), named `<consumer>@<entry>`
#    (agentwire-snapshot@core). The workload is protocol 000, which every entry's store reads:
#    each entry runs the --modes without Worker mode (no entry has it), the `ag-ui` entry the
#    AG-UI consumer alone (unless --no-ag-ui).
#    AG-UI input (unless --no-ag-ui; issue 19 item 9): benches/bench-consumer/agentwire-ag-ui.mjs
#    (the harness's AG-UI encoding of the workload fed to an AgentClient({dialect: "ag-ui"})
#    store) and the built-in ag-ui-verify (the official client's parser + verifier, linear apply)
#    join this run; the official HttpAgent consumer `ag-ui` only when named in --consumers (it
#    does not finish medium within the harness's 120 s). Steps 4-4c read the native stream only:
#    the AG-UI consumer is not passed to them.
# 4. benches/bench-consumer/probe.mjs (unless --no-probe): fresh pages for what the harness table
#    cannot show: wasm linear memory, the time split inside the consumer, the filtered delivery
#    count; --profile adds CPU profiles.
# 4b. benches/bench-consumer/cpu.mjs (unless --no-cpu): CPU time per run by thread from /proc
#    (main thread, Worker threads), interleaved: main-thread ms per 100k events with and without
#    the Worker, and ratios that hold up on a loaded machine.
# 4c. benches/bench-consumer/longtasks.mjs (unless --no-longtasks; net path): each main-thread
#    long task, run by run, with what overlapped it (the summary read, a slow feed() call).
# 5. The agentwire summary (benches/bench-consumer/report.mjs): ratios to js-reference against the
#    issue-7 targets, memory, package size; agentwire-ag-ui against ag-ui-verify (issue 19: ≤ 0.25×).
# 6. benches/js-sizes/measure.mjs (unless --no-js-sizes): the package's and each entry's size next
#    to the JavaScript clients (AG-UI, Vercel AI SDK, LangGraph, A2A, js-reference), each bundled by
#    esbuild; benches/js-sizes/startup.mjs: each entry's start-up in Chromium until a first feed()
#    (budget 15 ms) next to the clients' (their bundle's evaluation).
# Output: the console, and target/bench-results/<stamp>-{run,probe}.json, <stamp>.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$HOME/.cargo/bin:$PATH"
log() { printf '[bench] %s\n' "$*"; }

presets=small,medium runs=5 warmup=1 paths=mem,net consumers=floor-decode,floor-jsonparse,js-reference
probe=1 cpu=1 longtasks=1 js_sizes=1 agui=1 profile= modes=snapshot,events,filtered,client,worker,worker-events
entries=agentwire
while [ $# -gt 0 ]; do
  case $1 in
    --preset|--presets) presets=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --warmup) warmup=$2; shift 2 ;;
    --paths) paths=$2; shift 2 ;;
    --consumers) consumers=$2; shift 2 ;;
    --modes) modes=$2; shift 2 ;;
    --entries) entries=$2; shift 2 ;;
    --no-probe) probe=; shift ;;
    --no-cpu) cpu=; shift ;;
    --no-longtasks) longtasks=; shift ;;
    --no-js-sizes) js_sizes=; shift ;;
    --no-ag-ui) agui=; shift ;;
    --profile) profile=--profile; shift ;;
    -h|--help) sed -n '2,48p' "$0"; exit 0 ;;
    *) echo "unknown argument: $1 (see --help)" >&2; exit 2 ;;
  esac
done

harness_src=${BENCH_HARNESS:-../shared/bench}
[ -f "$harness_src/run.mjs" ] || { echo "error: no benchmark harness at $harness_src (set BENCH_HARNESS)" >&2; exit 1; }
chromium=${CHROMIUM_PATH:-/usr/bin/chromium}
[ -x "$chromium" ] || { echo "error: no Chromium at $chromium: run scripts/setup.sh (or set CHROMIUM_PATH)" >&2; exit 1; }

# 1. the package, exactly as shipped (the size budget is the test command's check: here the size
#    is reported, not enforced)
SIZE_BUDGET_GZIP=${SIZE_BUDGET_GZIP:-1000000000} bash scripts/build-pkg.sh

# 2. the harness: its own files refreshed, its data/, dist/ and node_modules/ kept
h=target/bench-harness
mkdir -p "$h"
for f in run.mjs gen.mjs server.mjs profile.mjs package.json package-lock.json; do cp "$harness_src/$f" "$h/$f"; done
for d in page lib examples; do rm -rf "${h:?}/$d"; cp -r "$harness_src/$d" "$h/$d"; done
chmod -R u+w "$h"
cp benches/bench-consumer/driver.mjs "$h/aw-driver.mjs"
cp benches/bench-consumer/probe.mjs "$h/aw-probe.mjs"
cp benches/bench-consumer/cpu.mjs "$h/aw-cpu.mjs"
cp benches/bench-consumer/longtasks.mjs "$h/aw-longtasks.mjs"
cp benches/bench-consumer/gctrace.mjs "$h/aw-gctrace.mjs"
aw=$h/aw
rm -rf "$aw" && mkdir -p "$aw/pkg"
cp benches/bench-consumer/*.mjs "$aw/"
sed -i "s|'../../pkg/web/|'./pkg/|" "$aw"/*.mjs
cp -r pkg/web/. "$aw/pkg/"
# One protocol's entry: the consumers over pkg/<entry>/ (see --entries above).
IFS=, read -r -a entry_list <<<"$entries"
for e in "${entry_list[@]}"; do
  [ "$e" = agentwire ] && continue
  [ -f "pkg/$e/index.js" ] || { echo "error: --entries: no pkg/$e/ (entries: agentwire $(cd pkg && ls -d */ | grep -v -e types -e web -e raw -e adapters | tr -d / | tr '\n' ' '))" >&2; exit 2; }
  d=$h/aw-$e
  rm -rf "$d" && mkdir -p "$d/pkg"
  cp benches/bench-consumer/*.mjs "$d/"
  cp benches/bench-consumer/package-entry.mjs "$d/package.mjs"
  cp -r "pkg/$e/." "$d/pkg/"
  cp "pkg/$e/raw/agentwire_bg.wasm" "$d/agentwire_bg.wasm"
  printf '{"entry":"%s"}\n' "$e" > "$d/entry.json"
done
if ! cmp -s "$h/package-lock.json" "$h/node_modules/.package-lock.json.src" 2>/dev/null; then
  log "installing the harness's npm dependencies (npm ci in $h)"
  (cd "$h" && npm ci --no-audit --no-fund --loglevel=error </dev/null)
  cp "$h/package-lock.json" "$h/node_modules/.package-lock.json.src"
fi

out=target/bench-results
mkdir -p "$out"
stamp=$(date -u +%Y%m%dT%H%M%SZ)
run_json=$PWD/$out/$stamp-run.json
probe_json=$PWD/$out/$stamp-probe.json
cpu_json=$PWD/$out/$stamp-cpu.json
txt=$PWD/$out/$stamp.txt
IFS=, read -r -a mode_list <<<"$modes"
ext=()
agui_ext=()
for e in "${entry_list[@]}"; do
  if [ "$e" = agentwire ]; then
    for m in "${mode_list[@]}"; do ext+=(--consumer "$PWD/$aw/agentwire-$m.mjs"); done
    [ -z "$agui" ] || agui_ext+=(--consumer "$PWD/$aw/agentwire-ag-ui.mjs")
  elif [ "$e" = ag-ui ]; then
    [ -z "$agui" ] || agui_ext+=(--consumer "$PWD/$h/aw-$e/agentwire-ag-ui.mjs")
  else
    for m in "${mode_list[@]}"; do [[ $m == worker* ]] || ext+=(--consumer "$PWD/$h/aw-$e/agentwire-$m.mjs"); done
  fi
done
if [ ${#agui_ext[@]} -gt 0 ]; then
  [[ ",$consumers," == *",ag-ui-verify,"* ]] || consumers="$consumers,ag-ui-verify"
fi

# 3. the side-by-side run (one Chromium for every preset, path and consumer)
log "harness: presets $presets, paths $paths, $warmup warm-up + $runs runs; consumers $consumers + agentwire ($modes) on $entries; load average:$(uptime | sed 's/.*load average://')"
(cd "$h" && node run.mjs --preset "$presets" --runs "$runs" --warmup "$warmup" --paths "$paths" \
   --consumers "$consumers" "${ext[@]}" "${agui_ext[@]}" --json "$run_json") 2>&1 | tee "$txt"
log "harness done; load average:$(uptime | sed 's/.*load average://')" | tee -a "$txt"

# 4. memory and time split (fresh page per consumer)
if [ -n "$probe" ]; then
  log "probe: linear memory, time split, delivery counts (fresh page per consumer, mem path)"
  (cd "$h" && node aw-probe.mjs --preset "$presets" --runs "$runs" $profile "${ext[@]}" --json "$probe_json") 2>&1 | tee -a "$txt"
fi

# 4b. CPU time by thread (main thread vs Worker), interleaved, js-reference as the reference
if [ -n "$cpu" ]; then
  log "cpu: time on a CPU per thread (/proc schedstat), interleaved rounds"
  (cd "$h" && node aw-cpu.mjs --preset "$presets" --runs "$runs" --paths "$paths" "${ext[@]}" --json "$cpu_json") 2>&1 | tee -a "$txt"
fi

# 4c. where the long tasks fall on the net path, run by run (what overlapped each)
if [ -n "$longtasks" ] && [[ ",$paths," == *",net,"* ]]; then
  log "longtasks: each long task on the net path and what overlapped it (fresh page per consumer)"
  (cd "$h" && node aw-longtasks.mjs --preset "$presets" --runs "$runs" "${ext[@]}") 2>&1 | tee -a "$txt"
fi

# 5. the agentwire summary
node benches/bench-consumer/report.mjs "$run_json" "$probe_json" pkg "$cpu_json" 2>&1 | tee -a "$txt"

# 6. bundle size next to the JavaScript clients
if [ -n "$js_sizes" ]; then
  log "js-sizes: the package next to the JavaScript clients, each bundled by esbuild"
  BENCH_HARNESS=$harness_src node benches/js-sizes/measure.mjs 2>&1 | tee -a "$txt"
  node benches/js-sizes/startup.mjs --runs "$runs" 2>&1 | tee -a "$txt"
fi
log "wrote $txt (raw: $(basename "$run_json")${probe:+, $(basename "$probe_json")}${cpu:+, $(basename "$cpu_json")})"
