// The agentwire demo: one AgentClient per run, one subscription, panels that render the
// snapshot. Read this file first; each panel in ./panels/ shows one part of the SDK.
//
//   import { AgentClient } from "agentwire";          // the npm package (www-demo/package.json)
//   const client = new AgentClient({ url, batch: "frame" });  // + dialect: "a2a" | "acp" | …
//   client.subscribe((snapshot) => render(snapshot));
//   client.onConnectionChange((info) => showConnection(info));
//   client.start();                                    // connects (constructors do no I/O)
//   …client.approve(id) / client.deny(id) / client.completeAuth(id, …) / client.cancel(taskId)
//   client.close();                                    // when done: stops and removes everything

import "./style.css";
import { AgentClient, type Snapshot } from "agentwire";
import { clientOptions, mountControls, type RunSettings } from "./controls";
import { byId, setText } from "./dom";
import { answerPanel } from "./panels/answer";
import { artifactsPanel } from "./panels/artifacts";
import { connectionPanel } from "./panels/connection";
import { conversationPanel } from "./panels/conversation";
import { diagnosticsPanel } from "./panels/diagnostics";
import { requestsPanel } from "./panels/requests";
import { tasksPanel } from "./panels/tasks";
import { thoughtsPanel } from "./panels/thoughts";
import { eventsPanel } from "./panels/events";
import { toolsPanel } from "./panels/tools";

/** The run on screen: its client and how to tear it down. */
let current: { client: AgentClient; dispose: () => void } | undefined;

const controls = mountControls({ onRun: startRun, onCancel: cancelRun });

function startRun(settings: RunSettings): void {
  current?.dispose();
  const runId = `demo-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;

  // fetch + ReadableStream SSE (the default transport). A GET stream resumes by itself after a
  // drop: same URL, `Last-Event-ID` header; the SDK recognises events replayed twice. The other
  // dialects only change the options (URL, `dialect`, A2A/MyAgent's first `message`): the
  // panels below render whatever the SDK assembled.
  const client = new AgentClient({
    ...clientOptions(settings, runId),
    // Call subscribe() listeners at most once per animation frame: a fast stream (hundreds of
    // events a second) costs one render per frame, not one per event.
    batch: "frame",
    reconnect: { initialDelayMs: 250, maxDelayMs: 4000 },
  });

  const latestRoot = settings.dialect === "ag-ui" || settings.dialect === "ai-sdk";
  const panels = {
    answer: answerPanel(client, latestRoot),
    conversation: conversationPanel(client, settings.dialect === "ai-sdk"),
    requests: requestsPanel(client),
    tools: toolsPanel(),
    artifacts: artifactsPanel(client),
    tasks: tasksPanel(),
    thoughts: thoughtsPanel(),
    events: eventsPanel(client),
    connection: connectionPanel(client, runId),
    diagnostics: diagnosticsPanel(),
  };

  // The whole UI is a function of the snapshot. getSnapshot() returns the same object until
  // something changed, and unchanged tasks/artifacts keep their identity, so panels can skip
  // work cheaply. It is the contract React's useSyncExternalStore needs (methods work unbound):
  //   useSyncExternalStore(client.subscribe, client.getSnapshot)
  // A connection that ended (`failed`: gave up; `closed`) delivers nothing more: the task on
  // screen will not move again, so it cannot be canceled from here either.
  let connectionOver = false;
  const render = (snap: Snapshot): void => {
    for (const panel of Object.values(panels)) panel.render(snap);
    // AG-UI: every run of the thread is a root task; AI SDK: every assistant message of the
    // chat (the latest is the one running).
    const root = latestRoot ? snap.roots[snap.roots.length - 1] : snap.roots[0];
    const running = root !== undefined && !["completed", "failed", "canceled"].includes(root.status ?? "");
    controls.setCancelable(running && !connectionOver);
    document.body.dataset.runStatus = root?.status ?? "starting"; // handy for tests and CSS
  };
  // subscribe() calls the listener at once, then after every change, with the snapshot.
  const unsubscribe = client.subscribe(render);
  const offConnection = client.onConnectionChange((info) => {
    panels.connection.onChange(info);
    panels.answer.onConnection(info);
    connectionOver = info.state === "failed" || info.state === "closed";
    if (connectionOver) controls.setCancelable(false);
  });
  client.start(); // connects (the constructor does no I/O): listeners first, so no event is missed

  setText(byId("run-label"), `${settings.scenario} · ${settings.dialect} · ${settings.speed === 0 ? "instant" : `${settings.speed}×`}`);
  document.body.dataset.scenario = settings.scenario;
  document.body.dataset.dialect = settings.dialect;

  current = {
    client,
    dispose: () => {
      unsubscribe();
      offConnection();
      client.close(); // closes the stream and drops every remaining listener
      panels.artifacts.dispose(); // revokes the Blob URLs
      panels.thoughts.dispose(); // removes its listeners from the page's verbosity switch
      panels.conversation.dispose();
      panels.events.dispose();
    },
  };
}

/** Cancel: asks the agent to stop the root task; it ends `canceled` when the server confirms. */
function cancelRun(): void {
  const run = current;
  // AI SDK: the message being written is the latest root (cancel = the official stop()).
  const roots = run?.client.getSnapshot().roots ?? [];
  const root = run?.client.dialect === "ai-sdk" ? roots[roots.length - 1] : roots[0];
  if (!run || !root) return;
  controls.setCancelable(false);
  run.client.cancel(root.id).catch((e: unknown) => {
    if (current !== run) return; // another run is on screen now
    console.warn("cancel failed", e);
    setText(byId("run-label"), `cancel failed: ${e instanceof Error ? e.message : String(e)}`); // visible, not only in the console
    controls.setCancelable(true);
  });
}

// A run starts when the page opens, with the settings in the URL (default: scenario `main`).
startRun(controls.current());
