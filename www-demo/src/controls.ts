// The header controls: scenario, dialect, speed, fault injection, Run and Cancel. Everything
// here is about the scenario server (its query parameters and endpoints), not the SDK: a real app
// would have its own agent endpoint instead of `/api/stream?scenario=…`.

import type { AgentClientOptions, Dialect } from "agentwire";
import { byId, h, replace } from "./dom";

/**
 * The wire a run uses: one of the SDK's dialects, or `"a2a-1.0"`: A2A v1.0, which the SDK reads
 * as dialect `"a2a"` (the version is told from the wire and chosen with `a2aVersion`).
 */
export type Wire = Dialect | "a2a-1.0";

/** What the next run uses. */
export interface RunSettings {
  scenario: string;
  /** The protocol the scenario server speaks for this run (the same run in six wire formats). */
  dialect: Wire;
  /** 0 = instant, 1 = realistic pacing, 2 = twice as fast, … */
  speed: number;
  seed: number;
  faults: { drop: boolean; dup: boolean; shuffle: boolean; malformed: boolean };
}

export const DEFAULTS: RunSettings = {
  scenario: "main",
  dialect: "canonical",
  speed: 1,
  seed: 1,
  faults: { drop: false, dup: false, shuffle: false, malformed: false },
};

/** The scenario server's fault list for the settings (see scenario-server/README.md). */
export function faultList(f: RunSettings["faults"]): string[] {
  const list: string[] = [];
  // Cut the connection every 60 events (mid-event): the client resumes with Last-Event-ID.
  if (f.drop || f.dup) list.push("dropEvery=60");
  // Each resumed connection first re-sends the 5 events before the resume point.
  if (f.dup) list.push("dup=5");
  // Chunks (answer deltas, file chunks, dataset batches) permuted within windows of 4.
  if (f.shuffle) list.push("shuffle=4");
  // Broken JSON, invalid UTF-8, an unknown event kind and a wrongly typed field.
  if (f.malformed) list.push("malformed");
  return list;
}

/**
 * Whether "shuffled chunks" means anything in this dialect. A2A artifact appends carry no chunk
 * index: shuffled, the answer and the files could only be assembled in the wrong order (the
 * SDK cannot know better), so the demo does not offer it there. The MyAgent WebSocket server
 * has no shuffle fault; AG-UI text deltas carry no index either.
 */
export function shuffleApplies(dialect: Wire): boolean {
  return dialect !== "a2a" && dialect !== "a2a-1.0" && dialect !== "myagent" && dialect !== "ag-ui" && dialect !== "ai-sdk";
}

/**
 * The stream URL of a new run (protocol 000). A fresh `run` id makes every reconnect continue
 * this run (the SDK resends the same GET with `Last-Event-ID`, and the server replays what was
 * missed).
 */
export function streamUrl(s: RunSettings, runId: string): string {
  const q = new URLSearchParams({ scenario: s.scenario, speed: String(s.speed), seed: String(s.seed), run: runId });
  const faults = faultList(s.faults);
  if (faults.length) q.set("faults", faults.join(","));
  return `/api/stream?${q}`;
}

/**
 * The client options for a run in the chosen dialect: where the scenario server serves it and
 * how the SDK talks to it. The UI code is the same for every dialect: the SDK decodes each one
 * into the same snapshot, and answers (approve, sign-in, cancel) in the dialect's own way.
 */
export function clientOptions(s: RunSettings, runId: string): AgentClientOptions {
  const q = new URLSearchParams({ scenario: s.scenario, speed: String(s.speed), seed: String(s.seed) });
  const faults = faultList(s.faults);
  switch (s.dialect) {
    case "a2a": {
      // A2A v0.3 JSON-RPC: POST message/stream; a drop resumes with tasks/resubscribe; an answer
      // is another message/stream on the task. (No shuffle: see shuffleApplies.)
      const a2a = faults.filter((f) => !f.startsWith("shuffle"));
      if (a2a.length) q.set("faults", a2a.join(","));
      return { url: `/api/a2a?${q}`, dialect: "a2a", a2aVersion: "0.3", message: `Run the ${s.scenario} scenario` };
    }
    case "a2a-1.0": {
      // A2A v1.0, found through the agent's card (its first interface: JSON-RPC 1.0): POST
      // SendStreamingMessage with A2A-Version: 1.0; the stream ends at input-required and an
      // answer is a new SendStreamingMessage on the task; a drop resumes with SubscribeToTask.
      const a2a = faults.filter((f) => !f.startsWith("shuffle"));
      if (a2a.length) q.set("faults", a2a.join(","));
      return { agentCard: `/api/a2a/v1/.well-known/agent-card.json?${q}`, message: `Run the ${s.scenario} scenario` };
    }
    case "myagent": {
      // MyAgent WebSocket: user.create_session, the question as user.message, user.response
      // with the step id; a drop reconnects with user.reconnect and last_seq.
      const ws = faults.map((f) => (f.startsWith("dropEvery=") ? "drop=60" : f)).filter((f) => !f.startsWith("shuffle"));
      if (ws.length) q.set("faults", ws.join(","));
      const origin = location.origin.replace(/^http/, "ws");
      return { url: `${origin}/api/myagent/ws?${q}`, dialect: "myagent", message: `Run the ${s.scenario} scenario` };
    }
    case "ag-ui": {
      // AG-UI 1.0: every run is a POST of a RunAgentInput (the SDK writes it as the official
      // HttpAgent does) answered with SSE. An interrupt ends the run; approve/respond send the
      // resume run, sendMessage the thread's next run. A dropped run is not resumed (AG-UI has
      // no replay), so the drop fault cuts one connection for good; no shuffle.
      const agui = faults.filter((f) => !f.startsWith("shuffle") && !f.startsWith("dup")).map((f) => (f.startsWith("dropEvery=") ? "drop=60" : f));
      if (agui.length) q.set("faults", agui.join(","));
      return {
        url: `/api/ag-ui?${q}`,
        dialect: "ag-ui",
        agUi: { threadId: runId, messages: [{ id: `${runId}-u1`, role: "user", content: `Run the ${s.scenario} scenario` }] },
      };
    }
    case "ai-sdk": {
      // Vercel AI SDK chat: every turn is a POST written as DefaultChatTransport writes it
      // (`{id, messages, trigger, messageId?}`), answered with the UI message stream. The run is
      // one assistant message; an approval or a client-side tool ends the response, and
      // approve/deny/respond send the next POST, which continues the same message. A dropped
      // response resumes with GET /api/ai-sdk/chat/{chatId}/stream (a replay from its first
      // chunk); no shuffle or duplicates (the stream has no ids).
      const ai = faults.filter((f) => f.startsWith("dropEvery=")).map(() => "drop=60");
      if (ai.length) q.set("faults", ai.join(","));
      return { url: `/api/ai-sdk/chat?${q}`, aiSdk: { chatId: runId }, message: `Run the ${s.scenario} scenario` };
    }
    case "acp":
    case "unified": {
      // SSE like protocol 000 (resume with Last-Event-ID); ACP answers with JSON-RPC
      // tasks/provideInputAndContinue at {base}/acp/rpc, Unified through the canonical endpoints.
      q.set("dialect", s.dialect);
      q.set("run", runId);
      if (faults.length) q.set("faults", faults.join(","));
      return { url: `/api/stream?${q}`, dialect: s.dialect };
    }
    default:
      return { url: streamUrl(s, runId), dialect: "canonical" };
  }
}

const DIALECTS: [Wire, string][] = [
  ["canonical", "protocol 000 (SSE)"],
  ["a2a-1.0", "A2A 1.0 (agent card, JSON-RPC + SSE)"],
  ["a2a", "A2A 0.3 (JSON-RPC + SSE)"],
  ["acp", "A2A-ACP (SSE)"],
  ["unified", "Unified (SSE)"],
  ["myagent", "MyAgent (WebSocket)"],
  ["ag-ui", "AG-UI 1.0 (POST per run + SSE)"],
  ["ai-sdk", "AI SDK (POST per turn + UI message stream)"],
];

/** Settings from the page URL (`?scenario=xss&speed=0&faults=drop,dup`), so a run can be linked. */
export function settingsFromLocation(): RunSettings {
  const q = new URLSearchParams(location.search);
  const faults = new Set((q.get("faults") ?? "").split(",").filter(Boolean));
  const num = (v: string | null, d: number): number => (v !== null && v !== "" && Number.isFinite(Number(v)) ? Number(v) : d);
  const dialect = q.get("dialect");
  return {
    scenario: q.get("scenario") ?? DEFAULTS.scenario,
    dialect: DIALECTS.find(([d]) => d === dialect)?.[0] ?? DEFAULTS.dialect,
    speed: num(q.get("speed"), DEFAULTS.speed),
    seed: num(q.get("seed"), DEFAULTS.seed),
    faults: { drop: faults.has("drop"), dup: faults.has("dup"), shuffle: faults.has("shuffle"), malformed: faults.has("malformed") },
  };
}

function settingsToLocation(s: RunSettings): void {
  const q = new URLSearchParams({ scenario: s.scenario, speed: String(s.speed) });
  if (s.dialect !== DEFAULTS.dialect) q.set("dialect", s.dialect);
  if (s.seed !== DEFAULTS.seed) q.set("seed", String(s.seed));
  const f = Object.entries(s.faults).filter(([, on]) => on).map(([name]) => name);
  if (f.length) q.set("faults", f.join(","));
  history.replaceState(null, "", `?${q}`);
}

const FALLBACK_SCENARIOS = [
  { id: "main", title: "Q4 sales report (interactive)" },
  { id: "quick", title: "Every event kind" },
  { id: "failure", title: "Tool failure" },
  { id: "cancel", title: "Long job to cancel" },
  { id: "xss", title: "Hostile content" },
];

const SPEEDS: [number, string][] = [[0.5, "0.5×"], [1, "1× realistic"], [2, "2×"], [5, "5×"], [20, "20×"], [0, "instant"]];

/** Wires the header controls; `onRun` gets the settings of each new run. */
export function mountControls(handlers: { onRun: (s: RunSettings) => void; onCancel: () => void }): {
  setCancelable: (can: boolean) => void;
  current: () => RunSettings;
} {
  const scenario = byId<HTMLSelectElement>("scenario");
  const dialect = byId<HTMLSelectElement>("dialect");
  const speed = byId<HTMLSelectElement>("speed");
  const boxes = {
    drop: byId<HTMLInputElement>("fault-drop"),
    dup: byId<HTMLInputElement>("fault-dup"),
    shuffle: byId<HTMLInputElement>("fault-shuffle"),
    malformed: byId<HTMLInputElement>("fault-malformed"),
  };
  const cancel = byId<HTMLButtonElement>("cancel");
  const initial = settingsFromLocation();

  const fillScenarios = (list: { id: string; title: string }[]): void => {
    const chosen = scenario.value || initial.scenario;
    // `bulk` is a load generator, not something to watch.
    replace(scenario, list.filter((s) => s.id !== "bulk").map((s) => h("option", { value: s.id }, `${s.id} — ${s.title}`)));
    scenario.value = list.some((s) => s.id === chosen) ? chosen : "main";
  };
  fillScenarios(FALLBACK_SCENARIOS);
  // The server describes its scenarios; the static list above is only the first paint.
  fetch("/api/scenarios")
    .then((r) => (r.ok ? (r.json() as Promise<{ id: string; title: string }[]>) : Promise.reject(new Error(`HTTP ${r.status}`))))
    .then(fillScenarios)
    .catch(() => { /* keep the static list */ });

  replace(dialect, DIALECTS.map(([d, label]) => h("option", { value: d }, label)));
  dialect.value = initial.dialect;
  replace(speed, SPEEDS.map(([v, label]) => h("option", { value: String(v) }, label)));
  speed.value = String(SPEEDS.some(([v]) => v === initial.speed) ? initial.speed : 1);
  for (const [name, box] of Object.entries(boxes)) box.checked = initial.faults[name as keyof RunSettings["faults"]];
  // Duplicates are replayed on a resume, so they need the drops.
  boxes.dup.addEventListener("change", () => { if (boxes.dup.checked) boxes.drop.checked = true; });
  boxes.drop.addEventListener("change", () => { if (!boxes.drop.checked) boxes.dup.checked = false; });
  // Shuffled chunks only where the dialect's chunks carry their order (see shuffleApplies).
  const syncShuffle = (): void => {
    const applies = shuffleApplies(dialect.value as Wire);
    boxes.shuffle.disabled = !applies;
    if (!applies) boxes.shuffle.checked = false;
    boxes.shuffle.parentElement?.setAttribute("title", applies
      ? "Answer/file/dataset chunks arrive out of order (windows of 4)"
      : "Not in this dialect: its chunks carry no index, so their order could not be restored");
  };
  dialect.addEventListener("change", syncShuffle);
  syncShuffle();

  const current = (): RunSettings => ({
    scenario: scenario.value,
    dialect: dialect.value as Wire,
    speed: Number(speed.value),
    seed: initial.seed,
    faults: { drop: boxes.drop.checked, dup: boxes.dup.checked, shuffle: boxes.shuffle.checked, malformed: boxes.malformed.checked },
  });
  byId<HTMLFormElement>("controls").addEventListener("submit", (e) => {
    e.preventDefault();
    const s = current();
    settingsToLocation(s);
    handlers.onRun(s);
  });
  cancel.addEventListener("click", () => handlers.onCancel());
  return {
    setCancelable: (can) => { cancel.disabled = !can; },
    current: () => ({ ...current(), scenario: scenario.value || initial.scenario }),
  };
}
