#!/usr/bin/env bash
# Runs every test (README command 2; .ci/run calls it). Installs what is missing first.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PWD/tools/node_modules/.bin:$PATH"
step() { printf '\n==== %s\n' "$*"; }
step "set-up"; bash scripts/setup.sh
step "cargo fmt --check"; cargo fmt --all --check
step "clippy (host)"; cargo clippy --workspace --all-targets -- -D warnings
step "clippy (wasm32)"; cargo clippy -p agentwire --target wasm32-unknown-unknown --all-targets -- -D warnings
step "native tests"; cargo test --workspace 2>&1 | tee target/native-tests.log
step "npm package build + size report"; bash scripts/build-pkg.sh
step "TypeScript type tests"; bash scripts/typecheck.sh
step "browser tests (headless Chromium, real scenario server)"; bash scripts/browser-tests.sh 2>&1 | tee target/browser-tests.log
step "summary"
native=$(grep -o 'test result: ok. [0-9]* passed' target/native-tests.log | awk '{s+=$4} END {print s+0}')
browser=$(grep -o 'test result: ok. [0-9]* passed' target/browser-tests.log | awk '{s+=$4} END {print s+0}')
echo "native tests passed: $native; browser tests passed: $browser; type tests: ok"
