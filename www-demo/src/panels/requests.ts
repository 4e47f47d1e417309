// Answering the agent. `snapshot.pendingInputs` / `pendingAuths` are the open requests that
// wait for the user (the SDK routes them: `requireUser: false` ones may go to a `coordinator`
// callback first). The answer helpers check the value against the request's JSON Schema and
// `options` before anything is sent, POST it, and the request closes when the agent confirms
// with `input-received` / `auth-completed`; then the agent resumes.

import { AgentwireError, type AgentClient, type AuthRequest, type InputRequest, type Snapshot } from "agentwire";
import { byId, h, json, setText, show, syncList } from "../dom";

/** SDK errors are `AgentwireError`s with a stable `code` (`invalid-answer`, `unsafe-url`, `send-failed`, …). */
function describe(e: unknown): string {
  if (e instanceof AgentwireError) return `${e.code}: ${e.message}`;
  return e instanceof Error ? e.message : String(e);
}

export function requestsPanel(client: AgentClient): { render: (snap: Snapshot) => void } {
  const section = byId("requests");
  const inputs = byId("inputs-list");
  const auths = byId("auths-list");
  const history = byId("requests-history");
  const historyEmpty = byId("requests-history-empty");

  /** Runs an answer helper with the card's buttons disabled and its error shown. */
  const act = (card: HTMLElement, send: () => Promise<void>): void => {
    const buttons = [...card.querySelectorAll("button, input")] as (HTMLButtonElement | HTMLInputElement)[];
    const error = card.querySelector(".request-error");
    buttons.forEach((b) => { b.disabled = true; });
    if (error) setText(error, "");
    card.classList.add("sending");
    send().then(
      () => card.classList.add("sent"), // stays until the agent's input-received removes it
      (e: unknown) => {
        card.classList.remove("sending");
        buttons.forEach((b) => { b.disabled = false; });
        if (error) setText(error, describe(e));
      },
    );
  };

  /** A form for one input request, generated from its type, options and schema. */
  const inputCard = (req: InputRequest): HTMLElement => {
    const card = h("li", { class: `card request input urgency-${req.urgency ?? "normal"}`, "data-input": req.id });
    const controls = h("div", { class: "request-actions" });
    const options = Array.isArray(req.options) ? (req.options as unknown[]) : [];
    const choices = (req.schema as { enum?: unknown } | undefined)?.enum;
    if (req.inputType === "confirmation" || (Array.isArray(choices) && choices.includes("approve") && options.length === 0)) {
      // approve()/deny() pick the request's own approve/deny option ("approve"/"deny" here; an
      // AG-UI interrupt's responseSchema enum). AG-UI sends deny as a cancelled resume entry.
      controls.append(
        h("button", { class: "primary", onclick: () => act(card, () => client.approve(req.id)) }, "Approve"),
        h("button", { onclick: () => act(card, () => client.deny(req.id, "declined in the demo")) }, "Deny"));
    } else if (options.length) {
      // select() sends one of the options (an object option's id/value).
      for (const opt of options) {
        const label = typeof opt === "object" && opt !== null
          ? String((opt as Record<string, unknown>).label ?? (opt as Record<string, unknown>).id ?? json(opt, 0))
          : String(opt);
        controls.append(h("button", { onclick: () => act(card, () => client.select(req.id, opt)) }, label));
      }
    } else {
      // Free text, or JSON when the schema asks for something else than a string;
      // respond() rejects with `invalid-answer` (and the failing path) when it does not fit.
      const schemaType = (req.schema as { type?: unknown } | undefined)?.type;
      const wantsText = schemaType === undefined || schemaType === "string";
      const field = h("input", { type: "text", placeholder: wantsText ? "Your answer" : `JSON (${json(req.schema, 0)})` });
      const form = h("form", { class: "request-form" }, field, h("button", { type: "submit", class: "primary" }, "Send"));
      form.addEventListener("submit", (e) => {
        e.preventDefault();
        act(card, async () => {
          if (wantsText) return client.answer(req.id, field.value);
          return client.respond(req.id, JSON.parse(field.value) as unknown);
        });
      });
      controls.append(form);
    }
    card.append(
      h("div", { class: "card-head" },
        h("strong", null, "The agent asks"),
        h("span", { class: "badge" }, req.inputType),
        req.routing === "coordinator" ? h("span", { class: "muted small" }, "a coordinator agent may answer first") : null,
        req.timeout !== undefined ? h("span", { class: "muted small" }, `expires in ${req.timeout} s`) : null),
      h("p", { class: "request-prompt" }, req.prompt),
      controls,
      h("div", { class: "request-error" }));
    return card;
  };

  /** The auth prompt: the URL is shown and opened only through the SDK's safe check. */
  const authCard = (req: AuthRequest): HTMLElement => {
    const card = h("li", { class: "card request auth", "data-auth": req.id });
    let link: HTMLElement;
    try {
      // authUrl() returns the URL only when it is https: (or http: on localhost) and throws
      // `unsafe-url` for javascript:, data:, … (the store also records a diagnostic).
      const url = client.authUrl(req.id);
      link = h("div", { class: "auth-url" },
        h("button", { onclick: () => client.openAuth(req.id) }, `Open ${req.provider ?? "sign-in"} page ↗`),
        h("code", { class: "small" }, url));
    } catch (e) {
      link = h("div", { class: "auth-url unsafe" }, `Refused to open ${json(req.authUrl ?? "", 0)} (${describe(e)})`);
    }
    card.append(
      h("div", { class: "card-head" },
        h("strong", null, "Sign-in needed"),
        h("span", { class: "badge" }, req.authType),
        req.provider ? h("span", null, req.provider) : null,
        req.scopes.length ? h("span", { class: "muted small" }, `scopes: ${req.scopes.join(", ")}`) : null),
      h("p", { class: "request-prompt" }, req.prompt),
      link,
      h("div", { class: "request-actions" },
        // In a real app the OAuth redirect lands back on your page, which then calls completeAuth.
        h("button", {
          class: "primary",
          onclick: () => act(card, () => client.completeAuth(req.id, { code: "demo-code", userId: "demo-user" })),
        }, "Complete sign-in")),
      h("div", { class: "request-error" }));
    return card;
  };

  return {
    render(snap) {
      syncList(inputs, snap.pendingInputs, (r) => r.id, inputCard);
      syncList(auths, snap.pendingAuths, (r) => r.id, authCard);
      show(section, snap.pendingInputs.length + snap.pendingAuths.length > 0);
      // Everything asked so far, with who answered: the coordinator-handled one included.
      const done = snap.tasks.flatMap((t) => [
        ...t.inputs.filter((i) => i.state !== "open").map((i) =>
          `${i.state === "answered" ? "✓" : "⌛"} ${i.prompt} — ${i.state}${i.providedBy ? ` by ${i.providedBy === "agent" ? i.agentId ?? "an agent" : i.userId ?? "the user"}` : ""}`),
        ...t.auths.filter((a) => a.state !== "open").map((a) =>
          `${a.state === "answered" ? "✓" : "⌛"} ${a.provider ?? a.authType} sign-in — ${a.state}${a.userId ? ` as ${a.userId}` : ""}${a.urlSafe ? "" : " (its URL was unsafe and never opened)"}`),
      ]);
      show(historyEmpty, done.length === 0);
      syncList(history, done.map((line, i) => `${i}. ${line}`), (line) => line, (line) => h("li", null, line.replace(/^\d+\. /, "")));
    },
  };
}
