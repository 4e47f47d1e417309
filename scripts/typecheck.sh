#!/usr/bin/env bash
# TypeScript type tests over the built package: tests/types/consumer.ts must compile, and
# every `@ts-expect-error` line in tests/types/must-fail.ts must be an error.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -f pkg/agentwire.d.ts ] || bash scripts/build-pkg.sh
tools/node_modules/.bin/tsc -p tests/types
echo "type tests ok: consumer compiles, every @ts-expect-error line is an error"
