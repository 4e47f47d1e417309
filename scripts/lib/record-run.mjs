// Records one scenario-server run as the bytes a client receives, answering the agent's
// requests the way a user would, across reconnects (drop faults): connection bodies are joined,
// the unterminated tail of a cut connection is discarded (as an SSE client does) and a comment
// line marks each reconnect.
// usage: node record-run.mjs BASE_URL QUERY OUT [ANSWER] [CANCEL_AFTER]
//   ANSWER: the value sent for requireUser inputs (default approve);
//   CANCEL_AFTER: N = cancel the root task once N tool-progress events arrived.
import { writeFileSync } from "node:fs";
const [base, query, out, answer = "approve", cancelAfter = ""] = process.argv.slice(2);
let progressSeen = 0;
let root = null;
const run = new URLSearchParams(query).get("run");
const parts = [];
const answered = new Set();
let lastId = null;
let done = false;
const post = async (path, body) => {
  const r = await fetch(base + path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  await r.text();
  return r.status;
};
async function onEvent(data) {
  let e;
  try { e = JSON.parse(data); } catch { return; }
  const t = `/api/contexts/${e.contextId}/tasks/${e.taskId}`;
  if (e.kind === "task-created" && !e.parentTaskId && root === null) root = `/api/contexts/${e.contextId}/tasks/${e.taskId}`;
  if (e.kind === "tool-progress" && cancelAfter && ++progressSeen === Number(cancelAfter)) await post(`${root}/cancel`, {});
  if (e.kind === "input-required" && e.requireUser && !answered.has(e.inputId)) {
    answered.add(e.inputId);
    await post(`${t}/inputs/${e.inputId}`, { value: answer, userId: "user-rec" });
  } else if (e.kind === "auth-required" && !answered.has(e.authId)) {
    answered.add(e.authId);
    await post(`${t}/auth/${e.authId}`, { userId: "user-rec" });
  }
}
for (let conn = 0; conn < 10 && !done; conn++) {
  const headers = { Accept: "text/event-stream" };
  if (lastId !== null) headers["Last-Event-ID"] = lastId;
  const res = await fetch(`${base}/api/stream?${query}`, { headers, signal: AbortSignal.timeout(120_000) });
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  const chunks = [];
  let pending = "";
  let block = { id: null, data: [] };
  const dec = new TextDecoder();
  let cut = false;
  try {
    for await (const c of res.body) {
      chunks.push(Buffer.from(c));
      pending += dec.decode(c, { stream: true });
      let i;
      while ((i = pending.search(/\r\n|\r|\n/)) >= 0) {
        const line = pending.slice(0, i);
        pending = pending.slice(i + (pending.startsWith("\r\n", i) ? 2 : 1));
        if (line === "") {
          if (block.id !== null) lastId = block.id;
          if (block.data.length) await onEvent(block.data.join("\n"));
          block = { id: null, data: [] };
        } else if (line.startsWith("id:")) block.id = line.slice(3).replace(/^ /, "");
        else if (line.startsWith("data:")) block.data.push(line.slice(5).replace(/^ /, ""));
      }
    }
  } catch (err) {
    cut = true; // connection cut mid-body (drop fault)
  }
  let body = Buffer.concat(chunks);
  // Keep only complete events: up to the last blank line.
  const s = body.toString("latin1");
  const end = Math.max(s.lastIndexOf("\n\n"), s.lastIndexOf("\r\n\r\n") + 2, s.lastIndexOf("\r\r") + 1);
  if (end + 2 < body.length) { cut = true; body = body.subarray(0, end + 2); }
  parts.push(body);
  if (!cut) { done = true; break; }
  parts.push(Buffer.from(`: ---- connection cut here (the unterminated event is discarded); reconnect with Last-Event-ID: ${lastId}\n\n`));
}
writeFileSync(out, Buffer.concat(parts));
console.log(`recorded ${out}: ${parts.length} parts, last id ${lastId}, run ${run}`);
