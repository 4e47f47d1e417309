//! Editing a message's `parts`: how text, reasoning, tool calls and protocol parts are added,
//! replaced and cut, and how they are written.

use super::model::{Message, ToolCall, ToolCallFunction};
use super::parts::{PartSlot, TextKind};
use crate::json::{write_str, WriteJson};
use crate::state::raw::RawJson;

impl Message {
    /// Appends text to the message (`kind` text: also `content`). With `id`, to the open part
    /// with that id (a new part when there is none); without, to the open part at the end.
    /// Returns `false` when the text went into the middle of `content` (a text part that is
    /// not the last one: two parts streaming at once), `true` when it was appended at its end.
    pub(crate) fn append_part_text(
        &mut self,
        kind: TextKind,
        id: Option<&str>,
        delta: &str,
    ) -> bool {
        let matches = |pid: &Option<String>| id.is_none() || pid.as_deref() == id;
        match kind {
            TextKind::Reasoning => {
                let open = self.parts.iter_mut().rev().find_map(|p| match p {
                    PartSlot::Reasoning {
                        id: pid,
                        text,
                        done: false,
                        ..
                    } if matches(pid) => Some(text),
                    _ => None,
                });
                match open {
                    Some(text) => text.push_str(delta),
                    None => self.parts.push(PartSlot::Reasoning {
                        id: id.map(str::to_owned),
                        text: delta.to_owned(),
                        done: false,
                        extra: None,
                    }),
                }
                true
            }
            TextKind::Text => {
                let len = self.content.len();
                let target = self.parts.iter().rposition(
                    |p| matches!(p, PartSlot::Text { id: pid, done: false, .. } if matches(pid)),
                );
                let Some(t) = target else {
                    self.content.push_str(delta);
                    self.parts.push(PartSlot::Text {
                        start: len,
                        end: len + delta.len(),
                        id: id.map(str::to_owned),
                        done: false,
                        extra: None,
                    });
                    return true;
                };
                let at = match self.parts.get(t) {
                    Some(PartSlot::Text { end, .. }) => *end,
                    _ => len,
                };
                if at == len {
                    self.content.push_str(delta);
                } else {
                    // Another text part follows: the text goes in at this part's end, the
                    // later parts' spans move (linear, and only while two parts interleave).
                    self.content.insert_str(at, delta);
                    for (i, p) in self.parts.iter_mut().enumerate() {
                        if let PartSlot::Text { start, end, .. } = p {
                            if i != t && *start >= at {
                                *start += delta.len();
                                *end += delta.len();
                            }
                        }
                    }
                }
                if let Some(PartSlot::Text { end, .. }) = self.parts.get_mut(t) {
                    *end += delta.len();
                }
                at == len
            }
        }
    }

    /// Sets the other members of the text or reasoning part `id` (the JSON object's members).
    pub(crate) fn set_part_members(&mut self, id: Option<&str>, members: &str) {
        let found = self.parts.iter_mut().rev().find_map(|p| match p {
            PartSlot::Text { id: pid, extra, .. } | PartSlot::Reasoning { id: pid, extra, .. }
                if id.is_none() || pid.as_deref() == id =>
            {
                Some(extra)
            }
            _ => None,
        });
        if let Some(extra) = found {
            *extra = (!members.is_empty()).then(|| members.to_owned());
        }
    }

    /// Ends the text part `id` (or, without one, every text part): `state: "done"`.
    pub(crate) fn end_parts(&mut self, id: Option<&str>) {
        for p in self.parts.iter_mut() {
            match p {
                PartSlot::Text { id: pid, done, .. }
                | PartSlot::Reasoning { id: pid, done, .. }
                    if id.is_none() || pid.as_deref() == id =>
                {
                    *done = true;
                }
                _ => {}
            }
        }
    }

    /// Replaces the text (one text part).
    pub(crate) fn set_text(&mut self, text: &str) {
        self.content.clear();
        self.parts.retain(|p| !matches!(p, PartSlot::Text { .. }));
        if !text.is_empty() {
            self.content.push_str(text);
            let done = !self.streaming;
            self.parts.insert(
                0,
                PartSlot::Text {
                    start: 0,
                    end: text.len(),
                    id: None,
                    done,
                    extra: None,
                },
            );
        }
    }

    /// Adds a tool call (and its part); returns its index.
    pub(crate) fn add_tool_call(&mut self, id: &str, name: &str) -> usize {
        self.tool_calls.push(ToolCall {
            id: id.to_owned(),
            kind: "function".to_owned(),
            function: ToolCallFunction {
                name: name.to_owned(),
                arguments: String::new(),
            },
            encrypted_value: None,
        });
        let i = self.tool_calls.len() - 1;
        self.parts.push(PartSlot::ToolCall(i));
        i
    }

    /// Puts a protocol part: replaces the part with `key` in place, else appends it.
    pub(crate) fn put_part(&mut self, key: Option<&str>, part: RawJson) {
        if let Some(k) = key {
            for p in self.parts.iter_mut() {
                if let PartSlot::Other {
                    key: Some(pk),
                    part: old,
                } = p
                {
                    if pk == k {
                        *old = part;
                        return;
                    }
                }
            }
        }
        self.parts.push(PartSlot::Other {
            key: key.map(str::to_owned),
            part,
        });
    }

    /// Removes the parts after the part with `key` (AI SDK `reset-step`); `false` when no
    /// part has that key. Text removed from the parts leaves `content` as the remaining text.
    pub(crate) fn cut_after(&mut self, key: &str) -> bool {
        let Some(at) = self
            .parts
            .iter()
            .rposition(|p| matches!(p, PartSlot::Other { key: Some(k), .. } if k == key))
        else {
            return false;
        };
        let cut = self.parts.split_off(at + 1);
        if cut.iter().any(|p| matches!(p, PartSlot::Text { .. })) {
            // Keep `content` the text of the remaining parts (spans stay valid: they come first).
            let keep = self
                .parts
                .iter()
                .filter_map(|p| match p {
                    PartSlot::Text { end, .. } => Some(*end),
                    _ => None,
                })
                .max()
                .unwrap_or(0);
            self.content.truncate(keep);
        }
        true
    }

    /// The index of the message's only text part when that part shows the whole `content`
    /// (the usual shape: `parts[k].text === content`), else `None`. The snapshot's builder ships
    /// such a text once instead of twice (`browser/store/objects.rs`: only the wasm build).
    #[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
    pub(crate) fn whole_text_part(&self) -> Option<usize> {
        let mut found = None;
        for (k, p) in self.parts.iter().enumerate() {
            if let PartSlot::Text { start, end, .. } = p {
                if found.is_some() || *start != 0 || *end != self.content.len() {
                    return None;
                }
                found = Some(k);
            }
        }
        found
    }

    pub(crate) fn write_parts(&self, out: &mut String) {
        let state = |done: bool| {
            if done {
                ",\"state\":\"done\""
            } else {
                ",\"state\":\"streaming\""
            }
        };
        out.push('[');
        for (i, p) in self.parts.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            match p {
                PartSlot::Text {
                    start,
                    end,
                    done,
                    extra,
                    ..
                } => {
                    // A reasoning message's own text (AG-UI) is reasoning.
                    out.push_str(if self.role == crate::events::MessageRole::Reasoning {
                        "{\"type\":\"reasoning\",\"text\":"
                    } else {
                        "{\"type\":\"text\",\"text\":"
                    });
                    write_str(out, self.content.get(*start..*end).unwrap_or_default());
                    out.push_str(state(*done));
                    write_extra(out, extra.as_deref());
                }
                PartSlot::Reasoning {
                    id,
                    text,
                    done,
                    extra,
                } => {
                    out.push_str("{\"type\":\"reasoning\"");
                    if let Some(id) = id {
                        out.push_str(",\"id\":");
                        write_str(out, id);
                    }
                    out.push_str(",\"text\":");
                    write_str(out, text);
                    out.push_str(state(*done));
                    write_extra(out, extra.as_deref());
                }
                PartSlot::ToolCall(c) => {
                    let Some(call) = self.tool_calls.get(*c) else {
                        out.push_str("null");
                        continue;
                    };
                    out.push_str("{\"type\":\"tool-call\",\"toolCallId\":");
                    write_str(out, &call.id);
                    out.push_str(",\"toolName\":");
                    write_str(out, &call.function.name);
                    out.push_str(",\"arguments\":");
                    write_str(out, &call.function.arguments);
                    out.push('}');
                }
                PartSlot::Other { part, .. } => part.write_json(out),
            }
        }
        out.push(']');
    }
}

/// Closes a part object after its own members, with the protocol's other members.
fn write_extra(out: &mut String, extra: Option<&str>) {
    if let Some(x) = extra {
        out.push(',');
        out.push_str(x);
    }
    out.push('}');
}
