#!/usr/bin/env bash
# Records real wire from the @a2a-js/sdk agent (server.mjs) into scenario-server/tests/data/
# (decoded by agentwire's a2a decoder in scenario-server/tests/a2a_sdk_wire.rs).
# Run from the repository root: bash tests/a2a-sdk/record.sh
set -euo pipefail
source scripts/lib/a2a-sdk-server.sh
start_a2a_sdk_server
R=$A2A_SDK_RPC_URL
post() { curl -sN -X POST "$R" -H 'content-type: application/json' -d "$1"; }
out=scenario-server/tests/data/a2a-sdk-interactive.sse
post '{"jsonrpc":"2.0","id":1,"method":"message/stream","params":{"message":{"kind":"message","role":"user","messageId":"rec-1","parts":[{"kind":"text","text":"Write the report, then sign in (auth)"}]}}}' > $out
T=$(grep -o '"id":"[0-9a-f-]\{36\}"' $out | head -1 | cut -d'"' -f4)
C=$(grep -o '"contextId":"[0-9a-f-]\{36\}"' $out | head -1 | cut -d'"' -f4)
post "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"message/stream\",\"params\":{\"message\":{\"kind\":\"message\",\"role\":\"user\",\"messageId\":\"rec-2\",\"taskId\":\"$T\",\"contextId\":\"$C\",\"parts\":[{\"kind\":\"text\",\"text\":\"approve\"}]}}}" >> $out
post "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"message/stream\",\"params\":{\"message\":{\"kind\":\"message\",\"role\":\"user\",\"messageId\":\"rec-3\",\"taskId\":\"$T\",\"contextId\":\"$C\",\"parts\":[{\"kind\":\"data\",\"data\":{\"userId\":\"octocat\"}}]}}}" >> $out
post "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tasks/resubscribe\",\"params\":{\"id\":\"$T\"}}" >> $out
out2=scenario-server/tests/data/a2a-sdk-fail.sse
post '{"jsonrpc":"2.0","id":"f","method":"message/stream","params":{"message":{"kind":"message","role":"user","messageId":"rec-4","parts":[{"kind":"text","text":"please fail"}]}}}' > $out2
out3=scenario-server/tests/data/a2a-sdk-cancel.sse
(post '{"jsonrpc":"2.0","id":"c","method":"message/stream","params":{"message":{"kind":"message","role":"user","messageId":"rec-5","parts":[{"kind":"text","text":"slow job"}]}}}' > $out3) &
cancel_pid=$!
sleep 0.5
T3=$(grep -o '"id":"[0-9a-f-]\{36\}"' $out3 | head -1 | cut -d'"' -f4)
post "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tasks/cancel\",\"params\":{\"id\":\"$T3\"}}" > scenario-server/tests/data/a2a-sdk-cancel.json
wait "$cancel_pid"
post '{"jsonrpc":"2.0","id":5,"method":"tasks/cancel","params":{"id":"no-such-task"}}' > scenario-server/tests/data/a2a-sdk-cancel-unknown.json
wc -c scenario-server/tests/data/a2a-sdk-*
