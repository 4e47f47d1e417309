//! The parts a chunk puts in the assistant message: text and reasoning parts (their deltas,
//! ends and other members), parts kept whole (sources, files, custom, steering messages, step
//! starts), `data-*` parts replaced by type and id, and `reset-step`.

use super::super::emit::{get, get_str, Obj, Sink};
use super::{AiSdkDecoder, Cx, PartTrack};
use crate::events::DiagCode;
use crate::json::Value;

impl AiSdkDecoder {
    pub(super) fn part_start(
        &mut self,
        cx: &Cx<'_>,
        v: &Value<'_>,
        reasoning: bool,
        sink: &mut Sink<'_>,
    ) {
        let id = get_str(Some(v), "id").unwrap_or_default();
        let key = format!("{}:{id}", if reasoning { "r" } else { "t" });
        self.parts.insert(
            &key,
            PartTrack {
                reasoning,
                text: String::new(),
                members: Vec::new(),
            },
        );
        let mut e = cx.event("message-delta");
        e.str("messageId", cx.message)
            .str("delta", "")
            .str("partId", id);
        if reasoning {
            e.str("partType", "reasoning");
        }
        self.part_members(&key, v, &["providerMetadata"], &mut e);
        e.str("timestamp", cx.ts);
        sink.event(e.finish());
    }

    pub(super) fn part_delta(
        &mut self,
        cx: &Cx<'_>,
        v: &Value<'_>,
        reasoning: bool,
        sink: &mut Sink<'_>,
    ) {
        let id = get_str(Some(v), "id").unwrap_or_default();
        let key = format!("{}:{id}", if reasoning { "r" } else { "t" });
        if !self.parts.contains(&key) {
            let what = if reasoning { "reasoning" } else { "text" };
            sink.error(DiagCode::MessageNotStarted, format!("{what}-delta for {what} part {id} that is not open (no {what}-start, or after its end): not applied"), "$.id");
            return;
        }
        let delta =
            self.surrogates
                .join(&key, get_str(Some(v), "delta").unwrap_or_default(), cx.raw);
        if let Some(p) = self.parts.get_mut(&key).filter(|p| p.reasoning) {
            p.text.push_str(&delta);
        }
        let mut e = cx.event("message-delta");
        e.str("messageId", cx.message)
            .str("delta", &delta)
            .str("partId", id);
        if reasoning {
            e.str("partType", "reasoning");
        }
        self.part_members(&key, v, &["providerMetadata"], &mut e);
        e.str("timestamp", cx.ts);
        sink.event(e.finish());
    }

    pub(super) fn part_end(
        &mut self,
        cx: &Cx<'_>,
        v: &Value<'_>,
        reasoning: bool,
        sink: &mut Sink<'_>,
    ) {
        let id = get_str(Some(v), "id").unwrap_or_default();
        let key = format!("{}:{id}", if reasoning { "r" } else { "t" });
        let mut end = cx.event("message-end");
        end.str("messageId", cx.message).str("partId", id);
        self.part_members(&key, v, &["providerMetadata", "citations"], &mut end);
        end.str("timestamp", cx.ts);
        let Some(track) = self.parts.remove(&key) else {
            let what = if reasoning { "reasoning" } else { "text" };
            sink.error(
                DiagCode::MessageNotStarted,
                format!("{what}-end for {what} part {id} that is not open: not applied"),
                "$.id",
            );
            return;
        };
        if self.surrogates.take(&key) {
            let mut e = cx.event("message-delta");
            e.str("messageId", cx.message)
                .str("delta", "\u{FFFD}")
                .str("partId", id);
            if reasoning {
                e.str("partType", "reasoning");
            }
            e.str("timestamp", cx.ts);
            sink.event(e.finish());
        }
        sink.event(end.finish());
        if reasoning {
            let mut t = cx.event("thought-stream");
            t.str("thoughtId", &format!("{}#{id}", cx.message))
                .str("thoughtType", "reasoning")
                .str("verbosity", "normal")
                .str("content", &track.text)
                .num("index", self.thoughts as f64)
                .str("timestamp", cx.ts);
            self.thoughts += 1;
            sink.event(t.finish());
        }
    }

    /// Adds `partMembers` to `e`: the part's members kept so far, updated with `keys` of `v`
    /// (a member given replaces the earlier one, as the SDK's reducer does).
    fn part_members(&mut self, key: &str, v: &Value<'_>, keys: &[&str], e: &mut Obj) {
        let Some(track) = self.parts.get_mut(key) else {
            return;
        };
        let mut changed = false;
        for &k in keys {
            if let Some(x) = v.get(k) {
                let x = x.to_owned_value();
                match track.members.iter_mut().find(|(m, _)| m == k) {
                    Some(slot) => slot.1 = x,
                    None => track.members.push((k.to_owned(), x)),
                }
                changed = true;
            }
        }
        if changed {
            let mut m = Obj::new();
            for (k, x) in &track.members {
                m.value(k, x);
            }
            e.obj("partMembers", m);
        }
    }

    /// Appends a part built from the chunk's members `keys` (in that order).
    pub(super) fn put(
        &mut self,
        cx: &Cx<'_>,
        v: &Value<'_>,
        keys: &[&str],
        key: Option<&str>,
        sink: &mut Sink<'_>,
    ) {
        let mut p = Obj::new();
        for &k in keys {
            if let Some(x) = v.get(k) {
                p.value(k, x);
            }
        }
        self.put_obj(cx, p, key, sink);
    }

    pub(super) fn put_obj(
        &mut self,
        cx: &Cx<'_>,
        part: Obj,
        key: Option<&str>,
        sink: &mut Sink<'_>,
    ) {
        let mut e = cx.event("message-part");
        e.str("messageId", cx.message)
            .obj("part", part)
            .opt_str("key", key)
            .str("timestamp", cx.ts);
        sink.event(e.finish());
    }

    pub(super) fn data(&mut self, cx: &Cx<'_>, v: &Value<'_>, sink: &mut Sink<'_>) {
        let ty = get_str(Some(v), "type").unwrap_or_default();
        if get(Some(v), "transient").and_then(Value::as_bool) == Some(true) {
            sink.event(super::super::unknown_event(
                &format!("ai-sdk:{ty}"),
                Some(cx.chat),
                Some(cx.message),
                v,
            ));
            return;
        }
        // The part is the chunk itself (the SDK pushes the chunk object); a later one with the
        // same type and id replaces its `data` only.
        let key = get_str(Some(v), "id").map(|id| format!("data:{}:{ty}:{id}", cx.message));
        let part = match key.as_deref().and_then(|k| self.data_parts.get_mut(k)) {
            Some(Value::Object(first)) => {
                let data = v.get("data").cloned().unwrap_or(Value::Null).into_owned();
                match first.iter_mut().find(|(k, _)| k == "data") {
                    Some(slot) => slot.1 = data,
                    None => first.push(("data".into(), data)),
                }
                Value::Object(first.clone())
            }
            _ => {
                let part = v.to_owned_value();
                if let Some(k) = key.as_deref() {
                    self.data_parts.insert(k, part.clone());
                }
                part
            }
        };
        let mut e = cx.event("message-part");
        e.str("messageId", cx.message)
            .value("part", &part)
            .opt_str("key", key.as_deref())
            .str("timestamp", cx.ts);
        sink.event(e.finish());
    }

    pub(super) fn reset_step(&mut self, cx: &Cx<'_>, sink: &mut Sink<'_>) {
        self.parts.clear();
        self.drop_step_tools(cx, sink);
        let Some(key) = self.last_step.clone() else {
            return;
        };
        let mut e = cx.event("message-cut");
        e.str("messageId", cx.message)
            .str("afterKey", &key)
            .str("timestamp", cx.ts);
        sink.event(e.finish());
    }
}
