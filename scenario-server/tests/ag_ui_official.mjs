#!/usr/bin/env node
// Drives the scenario server's POST /api/ag-ui with the official @ag-ui/client 1.0.0 HttpAgent
// and checks every event it receives against @ag-ui/core's EventSchema (zod). Run by
// `cargo test -p agentwire-scenario --test ag_ui` when node and the packages are installed:
//
//   AG_UI_NODE_MODULES=<dir with @ag-ui/*> node ag_ui_official.mjs http://127.0.0.1:PORT/api/ag-ui
//
// Fails (exit 1) on: a runAgent() rejection, an onRunFailed, any console.warn/error of the
// client (stripped or dropped material, failed patches), a frame that is not exactly
// `data: <JSON>\n\n`, an event EventSchema refuses, or an unexpected outcome.

import path from "node:path";
import { pathToFileURL } from "node:url";

const NM = process.env.AG_UI_NODE_MODULES;
const BASE = process.argv[2];
if (!NM || !BASE) {
  console.error("usage: AG_UI_NODE_MODULES=DIR node ag_ui_official.mjs URL");
  process.exit(2);
}
const imp = (p) => import(pathToFileURL(path.join(NM, p)).href);
const { HttpAgent } = await imp("@ag-ui/client/dist/index.mjs");
const { EventSchema } = await imp("@ag-ui/core/dist/schemas.mjs");

const warnings = [];
console.warn = (...a) => warnings.push(a.map(String).join(" "));
const origError = console.error;
console.error = (...a) => warnings.push("error: " + a.map(String).join(" "));

let checked = 0;
const pendingBodies = [];
function check(body) {
  if (!body.endsWith("\n\n")) throw new Error(`body does not end with a whole frame: ${JSON.stringify(body.slice(-80))}`);
  for (const f of body.slice(0, -2).split("\n\n")) {
    if (!f.startsWith("data: ") || f.includes("\n")) throw new Error(`not an encoder frame: ${JSON.stringify(f.slice(0, 120))}`);
    const ev = JSON.parse(f.slice(6));
    const r = EventSchema.safeParse(ev);
    if (!r.success) throw new Error(`EventSchema refuses ${f.slice(0, 200)}: ${JSON.stringify(r.error.issues)}`);
    checked++;
  }
}
async function teeFetch(url, init) {
  const res = await fetch(url, init);
  if (!res.ok || !res.body) return res;
  const [a, b] = res.body.tee();
  pendingBodies.push(new Response(b).text().then(check));
  return new Response(a, { status: res.status, headers: res.headers });
}

function agent(threadId, query) {
  return new HttpAgent({ url: `${BASE}?${query}`, threadId, fetch: teeFetch });
}

async function runOnce(a, params = {}) {
  const seen = { runs: [], failed: null };
  const res = await a.runAgent(params, {
    onRunFinishedEvent: (p) => seen.runs.push({ type: "RUN_FINISHED", outcome: p.outcome, interrupts: p.interrupts, result: p.result }),
    onRunErrorEvent: ({ event }) => seen.runs.push({ type: "RUN_ERROR", message: event.message, code: event.code }),
    onRunFailed: ({ error }) => (seen.failed = error),
  });
  await Promise.all(pendingBodies.splice(0));
  if (seen.failed) throw seen.failed;
  if (seen.runs.length !== 1) throw new Error(`expected one run end, got ${JSON.stringify(seen.runs)}`);
  return { ...seen.runs[0], res };
}

function expect(cond, what) {
  if (!cond) throw new Error(`expected: ${what}`);
}

let id = 0;
const userMsg = (text) => ({ id: `u-${++id}`, role: "user", content: text });

// main: approval, sign-in, completion, then a second turn.
{
  const a = agent("node-main", "scenario=main&speed=0");
  a.addMessage(userMsg("How did Q4 go?"));
  let r = await runOnce(a);
  expect(r.outcome === "interrupt" && a.pendingInterrupts[0]?.reason === "confirmation", "the approval interrupt");
  r = await runOnce(a, { resume: [{ interruptId: a.pendingInterrupts[0].id, status: "resolved", payload: "approve" }] });
  expect(r.outcome === "interrupt" && a.pendingInterrupts[0]?.reason === "auth", "the auth interrupt");
  r = await runOnce(a, { resume: [{ interruptId: a.pendingInterrupts[0].id, status: "resolved", payload: { userId: "ada" } }] });
  expect(r.outcome === "success" && a.pendingInterrupts.length === 0, "success");
  expect(String(r.result?.content ?? "").includes("finance@example.com"), "the result names the email");
  expect(a.state?.artifacts?.["file/report.md"]?.complete === true, "state.artifacts['file/report.md'].complete");
  expect(a.state?.tasks && Object.values(a.state.tasks).some((t) => t.status === "completed"), "task statuses in the state");
  const assistant = a.messages.filter((m) => m.role === "assistant");
  expect(assistant.some((m) => (m.content ?? "").startsWith("## Q4 sales summary")), "the root answer");
  expect(assistant.some((m) => (m.toolCalls ?? []).some((t) => t.function.name === "send_email")), "the send_email call");
  expect(a.messages.some((m) => m.role === "tool"), "tool results");
  expect(a.messages.some((m) => m.role === "reasoning"), "reasoning messages");
  expect(a.messages.some((m) => m.role === "activity" && m.activityType === "artifact"), "artifact activities");
  a.addMessage(userMsg("And Q1?"));
  r = await runOnce(a);
  expect(r.outcome === "success" && r.result?.turn === 2, "the second turn");
  expect(a.messages.at(-1).content.startsWith("Turn 2: you asked “And Q1?”"), "the second turn's text");
  console.log(`ok main (${a.messages.length} messages)`);
}

// cancelled answers: deny, then cancel at the sign-in.
{
  const a = agent("node-cancel", "scenario=main&speed=0");
  a.addMessage(userMsg("go"));
  await runOnce(a);
  await runOnce(a, { resume: [{ interruptId: a.pendingInterrupts[0].id, status: "cancelled" }] });
  const r = await runOnce(a, { resume: [{ interruptId: a.pendingInterrupts[0].id, status: "cancelled" }] });
  expect(r.outcome === "cancelled", `cancelled, got ${r.outcome}`);
  console.log("ok cancelled");
}

for (const [scenario, end] of [["quick", "success"], ["failure", "RUN_ERROR"], ["xss", "success"], ["bulk&events=500", "success"]]) {
  const a = agent(`node-${scenario}`, `scenario=${scenario}&speed=0`);
  a.addMessage(userMsg("go"));
  const r = await runOnce(a);
  expect((r.type === "RUN_ERROR" ? "RUN_ERROR" : r.outcome) === end, `${scenario} ends ${end}, got ${r.type} ${r.outcome}`);
  console.log(`ok ${scenario}`);
}

if (warnings.length) {
  origError(`client warnings:\n${warnings.join("\n")}`);
  process.exit(1);
}
console.log(`ok ${checked} events valid by EventSchema`);
