#!/usr/bin/env bash
# Runs the cargo-fuzz targets (fuzz/) one after another, each for --time seconds (default 30),
# single process, and prints executions, exec/s and coverage per target.
#
#   bash scripts/fuzz.sh [--time SECS] [target...]     targets: sse decode dialects store number
#                                                       json_patch
#
# Seed corpora are (re)built from the repository's test data into fuzz/corpus/<target>/ (SSE
# vectors, recordings, dialect recordings, the JSON Patch suite; generated, not committed) and
# kept between runs, so each run continues where the last one stopped. A crash leaves its input in
# fuzz/artifacts/<target>/ and makes the script exit 1 after the remaining targets ran; turn it
# into a regression file under tests/regressions/ (see tests/regressions/README.md).
# Full libFuzzer output: target/fuzz-logs/<target>-<secs>s.log.
# Without a nightly toolchain the script prints SKIPPED and exits 0 (cargo-fuzz needs nightly;
# scripts/test.sh shows the step as SKIPPED, a failure under CI=true).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"

ALL=(sse decode dialects store number json_patch)
TIME=30
TARGETS=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --time) TIME="$2"; shift 2 ;;
    --time=*) TIME="${1#--time=}"; shift ;;
    -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
    -*) echo "fuzz: unknown option $1" >&2; exit 2 ;;
    *) TARGETS+=("$1"); shift ;;
  esac
done
[[ ${#TARGETS[@]} -eq 0 ]] && TARGETS=("${ALL[@]}")
for t in "${TARGETS[@]}"; do
  [[ " ${ALL[*]} " == *" $t "* ]] || { echo "fuzz: unknown target $t (known: ${ALL[*]})" >&2; exit 2; }
done

if ! rustup toolchain list 2>/dev/null | grep -q '^nightly'; then
  echo "fuzz: SKIPPED (no nightly toolchain; cargo-fuzz needs one: rustup toolchain install nightly)"
  exit 0
fi
if ! cargo fuzz --version >/dev/null 2>&1; then
  echo "fuzz: cargo-fuzz is missing: run bash scripts/setup.sh" >&2
  exit 1
fi

# Seed corpora from the test data: SSE vectors and recordings (sse, decode: one file per event),
# dialect recordings (dialects: header byte = dialect, bit 3 = one WebSocket frame per line).
python3 - <<'PY'
import glob, hashlib, json, os
root = "fuzz/corpus"
def put(target, data):
    d = os.path.join(root, target)
    os.makedirs(d, exist_ok=True)
    name = "seed-" + hashlib.sha1(data).hexdigest()[:16]
    path = os.path.join(d, name)
    if not os.path.exists(path):
        with open(path, "wb") as f:
            f.write(data)
sse_files = sorted(glob.glob("tests/recordings/*.sse")) + sorted(glob.glob("tests/dialects/*/*.sse"))
def piece(p):
    if isinstance(p, str):
        return p.encode("utf-8", "surrogatepass")
    if isinstance(p, list):
        return b"".join(piece(x) for x in p)
    one = bytes.fromhex(p["hex"]) if "hex" in p else p["text"].encode("utf-8", "surrogatepass")
    return one * min(p.get("repeat", 1), 64)  # seeds stay small
def vectors(doc):
    for v in doc.get("vectors", [doc]):
        if "inputHex" in v:
            yield bytes.fromhex(v["inputHex"].replace(" ", ""))
        elif "input" in v:
            yield piece(v["input"])
for f in sorted(glob.glob("tests/vectors/sse/*.json")):
    for inp in vectors(json.load(open(f))):
        put("sse", b"\x00\x00\x00" + inp)
        put("sse", b"\x07\x2a\x00" + inp)
        put("sse", b"\x03\x11\x93" + inp)
for f in sse_files:
    data = open(f, "rb").read()
    put("sse", b"\x21\x05\x00" + data[:16384])
for f in sorted(glob.glob("tests/recordings/*.sse")):
    for line in open(f, "rb").read().split(b"\n"):
        if line.startswith(b"data:"):
            put("decode", b"\x00" + line[5:].lstrip(b" "))
# Header byte: low 3 bits pick the dialect (0 a2a, 1 acp, 2 unified, 3 myagent, 4 ag-ui, 5 ai-sdk, 6 auto),
# bit 3 the framing (set: one WebSocket frame per line).
dialects = {"a2a": 0, "acp": 1, "unified": 2, "myagent": 3}
for name, h in dialects.items():
    for f in sorted(glob.glob(f"tests/dialects/{name}/*.sse")):
        data = open(f, "rb").read()[:16384]
        put("dialects", bytes([h]) + data)
        put("dialects", bytes([6]) + data)
    for f in sorted(glob.glob(f"tests/dialects/{name}/*.jsonl")):
        if f.endswith(".events.jsonl"):
            continue
        data = open(f, "rb").read()[:16384]
        put("dialects", bytes([h | 8]) + data)
        put("dialects", bytes([6 | 8]) + data)
# A2A v1.0 as the official 1.3.0 servers wrote it (JSON-RPC and HTTP+JSON streams, error bodies).
for f in sorted(glob.glob("tests/recordings/a2a1/*/*.body")):
    data = open(f, "rb").read()[:16384]
    put("dialects", bytes([0]) + data)
    put("dialects", bytes([6]) + data)
# The AI SDK's UI message streams as the official writers served them.
for f in sorted(glob.glob("tests/recordings/ai-sdk/*.sse")):
    data = open(f, "rb").read()[:16384]
    put("dialects", bytes([5]) + data)
    put("dialects", bytes([6]) + data)
# AG-UI 1.0 as the official encoder wrote it (LF, CRLF and CR framings).
for f in sorted(glob.glob("tests/recordings/ag-ui/*.sse")):
    data = open(f, "rb").read()[:16384]
    put("dialects", bytes([4]) + data)
    put("dialects", bytes([6]) + data)
os.makedirs(os.path.join(root, "store"), exist_ok=True)
for n in ["0", "-0", "0.42", "1.5e3", "12345678901234567890", "9007199254740993", "1e23",
          "1.7976931348623157e308", "1e309", "4.9e-324", "2.4703282292062328e-324", "1e-400",
          "2.2250738585072011e-308", "1.00000000000000011102230246251565404236316680908203125"]:
    put("number", n.encode())
# json_patch: document NUL patch, from the JSON Patch conformance suite.
for f in sorted(glob.glob("tests/vectors/json-patch/*.json")):
    for t in json.load(open(f)):
        if "doc" in t and "patch" in t:
            put("json_patch", json.dumps(t["doc"]).encode() + b"\0" + json.dumps(t["patch"]).encode())
PY

echo "fuzz: building the targets (nightly, release, debug assertions, address sanitizer)"
(cd fuzz && cargo +nightly fuzz build -O -a 2>&1 | tail -1)
BIN="$PWD/fuzz/target/$(rustc +nightly -vV | sed -n 's/^host: //p')/release"
echo "fuzz: code at $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- src ':!src/browser' || echo ' + uncommitted changes in src/')"

mkdir -p target/fuzz-logs
declare -A SUMMARY
failed=()
for t in "${TARGETS[@]}"; do
  log="target/fuzz-logs/$t-${TIME}s.log"
  mkdir -p "fuzz/artifacts/$t"
  echo "fuzz: $t for ${TIME}s (log $log)"
  start=$(date +%s)
  set +e
  # The binary built above is run directly (`cargo fuzz run` would rebuild from a tree that may
  # have changed since): every target of one invocation fuzzes the same code.
  (cd fuzz && "$BIN/$t" "corpus/$t" \
      -max_total_time="$TIME" -print_final_stats=1 -rss_limit_mb=2048 -timeout=10 \
      -max_len=16384 -dict=dict/agentwire.dict -artifact_prefix="artifacts/$t/") >"$log" 2>&1
  rc=$?
  set -e
  secs=$(( $(date +%s) - start ))
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
  rate=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
  cov=$(grep -o 'cov: [0-9]* ft: [0-9]*' "$log" | tail -1)
  corp=$(grep -o 'corp: [0-9]*/[0-9]*[a-zA-Z]*' "$log" | tail -1)
  status=ok
  if [[ $rc -ne 0 ]]; then
    status="CRASH (rc $rc): $(grep -o 'artifacts/[^ ]*' "$log" | tail -1)"
    failed+=("$t")
  fi
  SUMMARY[$t]="${secs}s execs=${execs:-?} exec/s=${rate:-?} ${cov:-cov: ?} ${corp:-} $status"
  echo "fuzz: $t: ${SUMMARY[$t]}"
done

echo "fuzz summary (time per target ${TIME}s):"
for t in "${TARGETS[@]}"; do
  printf '  %-9s %s\n' "$t" "${SUMMARY[$t]}"
done
if [[ ${#failed[@]} -gt 0 ]]; then
  echo "fuzz: crashes in: ${failed[*]} (inputs in fuzz/artifacts/, logs in target/fuzz-logs/)" >&2
  exit 1
fi
