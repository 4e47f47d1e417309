#!/usr/bin/env bash
# TypeScript type tests over the built package (tsc 5.9 from tools/, strict):
# tests/types/consumer.ts, dialects.ts and api.ts (issue 22's API: errors, unbound methods,
# signals, limits, AgentSource) must compile, and every `// @ts-expect-error` line in
# tests/types/*must-fail.ts must be an error (an unused directive fails too, so the test cannot
# pass if the generated types decay to `any`). "agentwire" resolves through a link
# tests/types/node_modules/agentwire -> pkg/, i.e. through the package's own `exports`.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! [ -f pkg/types/index.d.ts ] || ! [ -f pkg/types/web.d.ts ]; then bash scripts/build-pkg.sh; fi
mkdir -p tests/types/node_modules
ln -sfn ../../../pkg tests/types/node_modules/agentwire
tools/node_modules/.bin/tsc -p tests/types
# The old `moduleResolution: "node"` (node10) ignores `exports`: "agentwire/web" needs `typesVersions`.
tools/node_modules/.bin/tsc --noEmit --strict --target ES2022 --module ESNext --moduleResolution node10 \
  --lib ES2022,DOM,ESNext.Disposable tests/types/resolution-node10.ts
expect=$(cat tests/types/*must-fail.ts | grep -c '// @ts-expect-error')
echo "type tests ok: consumer.ts, dialects.ts, api.ts and entries.ts compile (and resolution-node10.ts under moduleResolution node10); $expect @ts-expect-error lines in *must-fail.ts are all errors"
# The TypeScript layer itself, strictly (ts/tsconfig.json), then the API report: the public .d.ts
# equals api/agentwire.api.d.ts (UPDATE_API=1 rewrites it), the generated types re-exported unchanged.
tools/node_modules/.bin/tsc -p ts --noEmit
node scripts/api-report.mjs
