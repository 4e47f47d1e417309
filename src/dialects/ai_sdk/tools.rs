//! Tool parts: one `tool-<name>` (or `dynamic-tool`) part per call, rewritten whole as its
//! state moves (`input-streaming` → `input-available` → `approval-requested` →
//! `approval-responded` → `output-available` / `output-error` / `output-denied`), with the
//! members the SDK's reducer writes (WIRE.md §4); the call is also in `task.tools`.

use super::{AiSdkDecoder, Cx};
use crate::dialects::emit::{get, get_str, Obj, Sink};
use crate::events::DiagCode;
use crate::json::{OwnedValue, Value};

/// What is known of one tool call.
#[derive(Debug, Clone, Default)]
pub(crate) struct ToolTrack {
    name: String,
    dynamic: bool,
    state: &'static str,
    /// The input text streamed so far (`tool-input-delta`).
    raw: String,
    text_encoding: bool,
    input: Option<OwnedValue>,
    output: Option<OwnedValue>,
    error_text: Option<String>,
    approval: Option<OwnedValue>,
    /// Other members the part keeps (`title`, `toolMetadata`, `providerExecuted`, ...).
    extra: Vec<(String, OwnedValue)>,
    preliminary: Option<bool>,
    /// The call reached `task.tools` (`tool-start` sent).
    started: bool,
    /// `tool-complete` sent.
    completed: bool,
    /// The step it was called in (`start-step` count).
    step: u64,
}

const KEPT: &[(&str, &str)] = &[
    ("title", "title"),
    ("toolMetadata", "toolMetadata"),
    ("providerExecuted", "providerExecuted"),
];

impl ToolTrack {
    /// The part as the SDK's reducer writes it.
    fn part(&self, call: &str) -> Obj {
        let mut p = Obj::new();
        if self.dynamic {
            p.str("type", "dynamic-tool").str("toolName", &self.name);
        } else {
            p.str("type", &format!("tool-{}", self.name));
        }
        p.str("toolCallId", call).str("state", self.state);
        if let Some(i) = &self.input {
            p.value("input", i);
        }
        if self.state == "input-streaming" && !self.raw.is_empty() {
            p.str("rawInput", &self.raw);
        }
        if let Some(o) = &self.output {
            p.value("output", o);
        }
        if let Some(e) = &self.error_text {
            p.str("errorText", e);
        }
        for (k, v) in &self.extra {
            p.value(k, v);
        }
        if let Some(a) = &self.approval {
            p.value("approval", a);
        }
        if let Some(pre) = self.preliminary {
            p.bool("preliminary", pre);
        }
        p
    }

    fn keep_members(&mut self, v: &Value<'_>) {
        for &(from, to) in KEPT {
            if let Some(x) = v.get(from) {
                let x = x.to_owned_value();
                match self.extra.iter_mut().find(|(k, _)| k == to) {
                    Some(slot) => slot.1 = x,
                    None => self.extra.push((to.to_owned(), x)),
                }
            }
        }
        if let Some(pm) = v.get("providerMetadata") {
            let to = if matches!(
                get_str(Some(v), "type"),
                Some("tool-output-available" | "tool-output-error")
            ) {
                "resultProviderMetadata"
            } else {
                "callProviderMetadata"
            };
            let x = pm.to_owned_value();
            match self.extra.iter_mut().find(|(k, _)| k == to) {
                Some(slot) => slot.1 = x,
                None => self.extra.push((to.to_owned(), x)),
            }
        }
    }
}

impl AiSdkDecoder {
    /// Writes the part of call `id` again (its key is `tool:<id>`).
    fn put_tool(&mut self, cx: &Cx<'_>, id: &str, sink: &mut Sink<'_>) {
        let Some(t) = self.tools.get(id) else { return };
        let part = t.part(id);
        self.put_obj(cx, part, Some(&format!("tool:{id}")), sink);
    }

    /// `tool-start` in `task.tools` (once).
    fn start_tool(&mut self, cx: &Cx<'_>, id: &str, args: Option<&Value<'_>>, sink: &mut Sink<'_>) {
        let Some(t) = self.tools.get_mut(id) else {
            return;
        };
        if t.started {
            return;
        }
        t.started = true;
        let mut e = cx.event("tool-start");
        e.str("toolCallId", id).str("toolName", &t.name);
        match args.filter(|a| a.as_object().is_some()) {
            Some(a) => e.value("arguments", a),
            None => e.raw("arguments", "{}"),
        };
        e.str("timestamp", cx.ts);
        sink.event(e.finish());
    }

    fn complete_tool(
        &mut self,
        cx: &Cx<'_>,
        id: &str,
        result: Result<&Value<'_>, &str>,
        sink: &mut Sink<'_>,
    ) {
        let Some(t) = self.tools.get_mut(id) else {
            return;
        };
        if t.completed {
            return;
        }
        t.completed = true;
        let mut e = cx.event("tool-complete");
        e.str("toolCallId", id).str("toolName", &t.name);
        match result {
            Ok(out) => e.bool("success", true).value("result", out),
            Err(err) => e.bool("success", false).str("error", err),
        };
        e.str("timestamp", cx.ts);
        sink.event(e.finish());
    }

    /// `reset-step`: the calls of the current step are gone from the message; in `task.tools`
    /// the ones not finished end failed ("the step was reset").
    pub(super) fn drop_step_tools(&mut self, cx: &Cx<'_>, sink: &mut Sink<'_>) {
        let step = self.steps;
        let ids: Vec<String> = self
            .tools
            .iter()
            .filter(|(_, t)| t.step == step)
            .map(|(id, _)| id.to_owned())
            .collect();
        for id in ids {
            self.complete_tool(cx, &id, Err("the step was reset"), sink);
            self.tools.remove(&id);
        }
    }

    /// `true` while a call of the message waits for the client (an approval, or the output of
    /// a tool the client runs).
    pub(super) fn waiting_for_client(&self) -> bool {
        !self.open_approvals.is_empty()
            || self.tools.iter().any(|(_, t)| {
                t.state == "input-available"
                    && !t
                        .extra
                        .iter()
                        .any(|(k, v)| k == "providerExecuted" && v.as_bool() == Some(true))
            })
    }

    pub(super) fn tool_chunk(&mut self, cx: &Cx<'_>, ty: &str, v: &Value<'_>, sink: &mut Sink<'_>) {
        let id = get_str(Some(v), "toolCallId")
            .unwrap_or_default()
            .to_owned();
        match ty {
            "tool-input-start" => {
                let track = ToolTrack {
                    name: get_str(Some(v), "toolName").unwrap_or_default().to_owned(),
                    dynamic: v.get("dynamic").and_then(Value::as_bool) == Some(true),
                    state: "input-streaming",
                    text_encoding: get_str(Some(v), "inputEncoding") == Some("text"),
                    step: self.steps,
                    ..ToolTrack::default()
                };
                self.tools.insert(&id, track);
                if let Some(t) = self.tools.get_mut(&id) {
                    t.keep_members(v);
                }
                self.start_tool(cx, &id, None, sink);
                self.put_tool(cx, &id, sink);
            }
            "tool-input-delta" => {
                let Some(t) = self.tools.get(&id).filter(|t| t.state == "input-streaming") else {
                    return sink.error(DiagCode::ToolNotStarted, format!("tool-input-delta for tool call {id} whose input is not streaming (no tool-input-start): not applied"), "$.toolCallId");
                };
                let _ = t;
                let key = format!("tool:{id}");
                let delta = self
                    .surrogates
                    .join(
                        &key,
                        get_str(Some(v), "inputTextDelta").unwrap_or_default(),
                        cx.raw,
                    )
                    .into_owned();
                if let Some(t) = self.tools.get_mut(&id) {
                    t.raw.push_str(&delta);
                    t.input = if t.text_encoding {
                        Some(Value::String(t.raw.clone().into()))
                    } else {
                        crate::json::partial::parse_partial_json(&t.raw)
                    };
                }
                let mut e = cx.event("tool-args-delta");
                e.str("toolCallId", &id)
                    .str("delta", &delta)
                    .str("timestamp", cx.ts);
                sink.event(e.finish());
                self.put_tool(cx, &id, sink);
            }
            "tool-input-available" | "tool-input-error" => {
                let input = v.get("input").unwrap_or(&Value::Null);
                let known = self.tools.contains(&id);
                if !known {
                    let track = ToolTrack {
                        name: get_str(Some(v), "toolName").unwrap_or_default().to_owned(),
                        step: self.steps,
                        ..ToolTrack::default()
                    };
                    self.tools.insert(&id, track);
                }
                if let Some(t) = self.tools.get_mut(&id) {
                    if v.get("dynamic").and_then(Value::as_bool) == Some(true) {
                        t.dynamic = true;
                    }
                    t.input = Some(input.to_owned_value());
                    t.keep_members(v);
                    if ty == "tool-input-available" {
                        t.state = "input-available";
                    } else {
                        t.state = "output-error";
                        t.error_text = get_str(Some(v), "errorText").map(str::to_owned);
                    }
                }
                self.start_tool(cx, &id, Some(input), sink);
                if ty == "tool-input-available" {
                    let mut e = cx.event("tool-args-end");
                    e.str("toolCallId", &id)
                        .value("arguments", input)
                        .str("timestamp", cx.ts);
                    sink.event(e.finish());
                } else {
                    let err = get_str(Some(v), "errorText").unwrap_or_default().to_owned();
                    self.complete_tool(cx, &id, Err(&err), sink);
                }
                self.put_tool(cx, &id, sink);
            }
            _ => self.tool_after_input(cx, ty, &id, v, sink),
        }
    }

    fn tool_after_input(
        &mut self,
        cx: &Cx<'_>,
        ty: &str,
        id: &str,
        v: &Value<'_>,
        sink: &mut Sink<'_>,
    ) {
        if ty == "tool-approval-response" {
            return self.approval_response(cx, v, sink);
        }
        if !self.tools.contains(id) {
            return sink.error(
                DiagCode::ToolNotStarted,
                format!("{ty} for tool call {id} that this message does not have: not applied"),
                "$.toolCallId",
            );
        }
        match ty {
            "tool-approval-request" => {
                let approval_id = get_str(Some(v), "approvalId")
                    .unwrap_or_default()
                    .to_owned();
                let mut a = Obj::new();
                a.str("id", &approval_id);
                a.opt_value("descriptor", v.get("approvalDescriptor"));
                a.opt_value("inputSchemaInput", v.get("inputSchemaInput"));
                a.opt_value("requestReason", v.get("reason"));
                if v.get("isAutomatic").and_then(Value::as_bool) == Some(true) {
                    a.bool("isAutomatic", true);
                }
                a.opt_value("signature", v.get("signature"));
                let approval = crate::json::parse(&a.finish()).map(Value::into_owned).ok();
                let (name, input) = match self.tools.get_mut(id) {
                    Some(t) => {
                        t.state = "approval-requested";
                        t.approval = approval;
                        (t.name.clone(), t.input.clone())
                    }
                    None => return,
                };
                self.approvals.insert(&approval_id, id.to_owned());
                if !self.open_approvals.contains(&approval_id) {
                    self.open_approvals.push(approval_id.clone());
                }
                let prompt = match get_str(Some(v), "reason") {
                    Some(r) => format!("Allow {name}? ({r})"),
                    None => format!("Allow {name}?"),
                };
                let mut e = cx.event("input-required");
                e.str("inputId", &approval_id)
                    .bool("requireUser", true)
                    .str("inputType", "confirmation")
                    .str("prompt", &prompt)
                    .str("timestamp", cx.ts);
                let mut call = Obj::new();
                call.str("toolCallId", id).str("name", &name);
                if let Some(i) = &input {
                    call.value("input", i);
                }
                let mut m = Obj::new();
                m.obj("toolCall", call);
                let mut s = Obj::new();
                s.rest(super::super::emit::members(Some(v)), &["type"]);
                m.obj("aiSdk", s);
                e.obj("metadata", m);
                sink.event(e.finish());
                let mut w = cx.event("task-status");
                w.str("status", "waiting-input")
                    .str("message", &prompt)
                    .str("timestamp", cx.ts);
                let mut wm = Obj::new();
                wm.str("blockedBy", "user");
                w.obj("metadata", wm);
                sink.event(w.finish());
                self.put_tool(cx, id, sink);
            }
            "tool-output-available" => {
                let out = v.get("output").unwrap_or(&Value::Null);
                let preliminary = v.get("preliminary").and_then(Value::as_bool);
                if let Some(t) = self.tools.get_mut(id) {
                    t.state = "output-available";
                    t.output = Some(out.to_owned_value());
                    t.error_text = None;
                    t.preliminary = preliminary;
                    t.keep_members(v);
                }
                if preliminary != Some(true) {
                    self.complete_tool(cx, id, Ok(out), sink);
                }
                self.put_tool(cx, id, sink);
            }
            "tool-output-error" => {
                let err = get_str(Some(v), "errorText").unwrap_or_default().to_owned();
                if let Some(t) = self.tools.get_mut(id) {
                    t.state = "output-error";
                    t.error_text = Some(err.clone());
                    t.keep_members(v);
                }
                self.complete_tool(cx, id, Err(&err), sink);
                self.put_tool(cx, id, sink);
            }
            "tool-output-denied" => {
                if let Some(t) = self.tools.get_mut(id) {
                    t.state = "output-denied";
                }
                self.complete_tool(cx, id, Err("denied"), sink);
                self.put_tool(cx, id, sink);
            }
            _ => {}
        }
    }

    /// Records the client's answer to approval `id` (sent with the next request): approved or
    /// denied, with an optional reason.
    pub fn answer_approval(&mut self, id: &str, approved: bool, reason: Option<&str>) {
        self.answers
            .insert(id, (approved, reason.map(str::to_owned)));
    }

    /// Closes approval `id` the client answered: `false` when it is not open; else the tool
    /// part becomes `approval-responded` with the answer (`extra` gets the part's event).
    pub(crate) fn close_approval(&mut self, id: &str, ts: &str, extra: &mut Vec<String>) -> bool {
        let Some(i) = self.open_approvals.iter().position(|a| a == id) else {
            return false;
        };
        self.open_approvals.remove(i);
        let (approved, reason) = self.answers.remove(id).unwrap_or((true, None));
        let Some(call) = self.approvals.get(id).cloned() else {
            return true;
        };
        let Some(message) = self.message.clone() else {
            return true;
        };
        if let Some(t) = self.tools.get_mut(&call) {
            t.state = "approval-responded";
            let mut a = Obj::new();
            if let Some(Value::Object(old)) = &t.approval {
                a.rest(old, &["id", "approved", "reason"]);
            }
            a.str("id", id)
                .bool("approved", approved)
                .opt_str("reason", reason.as_deref());
            t.approval = crate::json::parse(&a.finish()).map(Value::into_owned).ok();
            let part = t.part(&call);
            let mut e = Obj::event("message-part", self.chat_id(), &message);
            e.str("messageId", &message)
                .obj("part", part)
                .str("key", &format!("tool:{call}"))
                .str("timestamp", ts);
            extra.push(e.finish());
        }
        true
    }

    fn approval_response(&mut self, cx: &Cx<'_>, v: &Value<'_>, sink: &mut Sink<'_>) {
        let approval_id = get_str(Some(v), "approvalId")
            .unwrap_or_default()
            .to_owned();
        let Some(call) = self.approvals.get(&approval_id).cloned() else {
            return sink.error(DiagCode::InputNotOpen, format!("tool-approval-response for approval {approval_id} that this message did not ask: not applied"), "$.approvalId");
        };
        let approved = v.get("approved").and_then(Value::as_bool).unwrap_or(false);
        if let Some(t) = self.tools.get_mut(&call) {
            t.state = "approval-responded";
            let mut a = Obj::new();
            if let Some(Value::Object(old)) = &t.approval {
                a.rest(old, &["id", "approved", "reason"]);
            }
            a.str("id", &approval_id).bool("approved", approved);
            a.opt_value("reason", get(Some(v), "reason"));
            t.approval = crate::json::parse(&a.finish()).map(Value::into_owned).ok();
            if let Some(pe) = v.get("providerExecuted") {
                let pe = pe.to_owned_value();
                match t.extra.iter_mut().find(|(k, _)| k == "providerExecuted") {
                    Some(slot) => slot.1 = pe,
                    None => t.extra.push(("providerExecuted".to_owned(), pe)),
                }
            }
            if let Some(pm) = v.get("providerMetadata") {
                let pm = pm.to_owned_value();
                match t
                    .extra
                    .iter_mut()
                    .find(|(k, _)| k == "callProviderMetadata")
                {
                    Some(slot) => slot.1 = pm,
                    None => t.extra.push(("callProviderMetadata".to_owned(), pm)),
                }
            }
        }
        if let Some(i) = self.open_approvals.iter().position(|a| *a == approval_id) {
            self.open_approvals.remove(i);
            let mut e = cx.event("input-received");
            e.str("inputId", &approval_id)
                .str("providedBy", "user")
                .str("timestamp", cx.ts);
            let mut m = Obj::new();
            let mut s = Obj::new();
            s.bool("approved", approved);
            m.obj("aiSdk", s);
            e.obj("metadata", m);
            sink.event(e.finish());
        }
        self.put_tool(cx, &call, sink);
    }
}

impl AiSdkDecoder {
    /// `true` when call `id` of the message waits for an output the client gives (a tool part
    /// in `input-available` that the server did not run): what `addToolOutput` answers.
    pub fn awaits_output(&self, id: &str) -> bool {
        self.tools.get(id).is_some_and(|t| {
            t.state == "input-available"
                && !t
                    .extra
                    .iter()
                    .any(|(k, v)| k == "providerExecuted" && v.as_bool() == Some(true))
        })
    }

    /// The client's output for call `id` (the official chat's `addToolOutput`): the part becomes
    /// `output-available` with `output` (JSON text), or `output-error` with `errorText` for
    /// `Err`, and the call completes in `task.tools`. Returns the canonical events to apply
    /// (empty when the call does not wait for an output).
    pub fn tool_output(&mut self, id: &str, output: Result<&str, &str>, ts: &str) -> Vec<String> {
        if !self.awaits_output(id) {
            return Vec::new();
        }
        let Some(message) = self.message.clone() else {
            return Vec::new();
        };
        let parsed = match output {
            Ok(text) => match crate::json::parse(text) {
                Ok(v) => Ok(v.into_owned()),
                Err(_) => return Vec::new(),
            },
            Err(e) => Err(e.to_owned()),
        };
        let chat = self.chat_id().to_owned();
        let Some(t) = self.tools.get_mut(id) else {
            return Vec::new();
        };
        let mut done = Obj::event("tool-complete", &chat, &message);
        done.str("toolCallId", id).str("toolName", &t.name);
        match &parsed {
            Ok(v) => {
                t.state = "output-available";
                t.output = Some(v.clone());
                t.error_text = None;
                done.bool("success", true).value("result", v);
            }
            Err(e) => {
                t.state = "output-error";
                t.error_text = Some(e.clone());
                done.bool("success", false).str("error", e);
            }
        }
        done.str("timestamp", ts);
        let first = !t.completed;
        t.completed = true;
        let part = t.part(id);
        let mut e = Obj::event("message-part", &chat, &message);
        e.str("messageId", &message)
            .obj("part", part)
            .str("key", &format!("tool:{id}"))
            .str("timestamp", ts);
        let mut out = vec![e.finish()];
        if first {
            out.push(done.finish());
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use crate::dialects::{Dialect, DialectChoice};
    use crate::pipeline::Session;
    use crate::sse::SseConfig;
    use crate::state::Limits;

    fn session(chunks: &[&str]) -> Session {
        let mut s = Session::with_dialect(
            SseConfig::default(),
            Limits::default(),
            DialectChoice::Fixed(Dialect::AiSdk),
        );
        let text: String = chunks.iter().map(|c| format!("data: {c}\n\n")).collect();
        s.feed(text.as_bytes(), &mut |_, _, _| {});
        s
    }

    fn part(s: &Session) -> String {
        let st = s.store().state_json();
        let at = st.find("\"type\":\"tool-where\"").expect("the tool part");
        st[at..at + 200.min(st.len() - at)].to_owned()
    }

    #[test]
    fn a_client_side_tool_output_completes_the_part() {
        let mut s = session(&[
            r#"{"type":"start","messageId":"m1"}"#,
            r#"{"type":"tool-input-available","toolCallId":"c1","toolName":"where","input":{}}"#,
            r#"{"type":"finish","finishReason":"tool-calls"}"#,
        ]);
        let st = s.store().state_json();
        assert!(st.contains("\"status\":\"waiting-input\""), "{st}");
        let (dec, _) = s.dialect_parts().expect("dialect");
        let a = dec.ai_sdk().expect("ai-sdk");
        assert!(a.awaits_output("c1"));
        assert!(!a.awaits_output("c2"));
        let events = a.tool_output("c1", Ok(r#"{"city":"Bern"}"#), "2026-01-01T00:00:00Z");
        assert_eq!(events.len(), 2, "{events:?}");
        assert!(!a.awaits_output("c1"));
        assert!(a
            .tool_output("c1", Ok("1"), "2026-01-01T00:00:00Z")
            .is_empty());
        for e in &events {
            s.push_json(e, &mut |_, _, _| {});
        }
        let p = part(&s);
        assert!(
            p.contains(r#""state":"output-available","input":{},"output":{"city":"Bern"}"#),
            "{p}"
        );
        let st = s.store().state_json();
        assert!(
            st.contains(r#""result":{"city":"Bern"}"#),
            "task.tools: {st}"
        );
    }

    #[test]
    fn a_client_side_tool_error_is_output_error() {
        let mut s = session(&[
            r#"{"type":"start","messageId":"m1"}"#,
            r#"{"type":"tool-input-available","toolCallId":"c1","toolName":"where","input":{"q":1}}"#,
            r#"{"type":"finish"}"#,
        ]);
        let (dec, _) = s.dialect_parts().expect("dialect");
        let events = dec
            .ai_sdk()
            .expect("ai-sdk")
            .tool_output("c1", Err("no GPS"), "t");
        for e in &events {
            s.push_json(e, &mut |_, _, _| {});
        }
        let p = part(&s);
        assert!(
            p.contains(r#""state":"output-error","input":{"q":1},"errorText":"no GPS""#),
            "{p}"
        );
    }
}
