//! Decoding one SSE event's data into a canonical event, with per-event validation.

pub use super::context::EventContext;
use super::diagnostic::{bounded_raw, DiagCode, Diagnostic, Severity};
use super::field::{FieldSink, Str, MAX_SAFE_INTEGER};
use super::types::*;
use super::{timestamp, url, AgentEvent};
use crate::json::{self, Value};

/// Decodes and validates one event's JSON `data`.
///
/// Returns the event when it can be applied (possibly with warnings pushed to `diags`), or
/// `None` when it was rejected (at least one error pushed to `diags`). Never panics.
pub fn decode_event<'a>(
    data: &'a str,
    cx: &EventContext<'_>,
    diags: &mut Vec<Diagnostic>,
) -> Option<AgentEvent<'a>> {
    if let Some(ev) = super::fast::content_delta(data, cx) {
        return Some(ev);
    }
    decode_event_general(data, cx, diags)
}

/// [`decode_event`] without its `content-delta` fast path: the same result for every input
/// (unit tests and the `decode` fuzz target compare the two).
#[doc(hidden)]
pub fn decode_event_general<'a>(
    data: &'a str,
    cx: &EventContext<'_>,
    diags: &mut Vec<Diagnostic>,
) -> Option<AgentEvent<'a>> {
    let value = match json::parse(data) {
        Ok(v) => v,
        Err(e) => {
            diags.push(event_diag(
                Diagnostic::new(DiagCode::InvalidJson, Severity::Error, e.to_string(), "$"),
                cx,
                None,
                None,
                data,
            ));
            return None;
        }
    };
    let entries = match value {
        Value::Object(entries) => entries,
        other => {
            let msg = format!(
                "event data must be a json object, found {}",
                other.type_name()
            );
            diags.push(event_diag(
                Diagnostic::new(DiagCode::NotAnObject, Severity::Error, msg, "$"),
                cx,
                None,
                None,
                data,
            ));
            return None;
        }
    };
    decode_entries(entries, data, cx, diags)
}

/// Decodes an already-parsed event object (`raw` is its text, for diagnostics).
pub fn decode_entries<'a>(
    entries: Vec<(Str<'a>, Value<'a>)>,
    raw: &str,
    cx: &EventContext<'_>,
    diags: &mut Vec<Diagnostic>,
) -> Option<AgentEvent<'a>> {
    let find_str = |entries: &[(Str<'a>, Value<'a>)], key: &str| -> Option<Str<'a>> {
        entries
            .iter()
            .rev()
            .find(|(k, _)| k == key)
            .and_then(|(_, v)| match v {
                Value::String(s) => Some(s.clone()),
                _ => None,
            })
    };
    let task_id = find_str(&entries, "taskId");
    let Some(kind) = find_str(&entries, "kind") else {
        let (msg, code) = match entries.iter().rev().find(|(k, _)| k == "kind") {
            Some((_, v)) => (
                format!("kind: expected string, found {}", v.type_name()),
                DiagCode::InvalidType,
            ),
            None => (
                "missing required field kind".to_owned(),
                DiagCode::MissingField,
            ),
        };
        diags.push(event_diag(
            Diagnostic::new(code, Severity::Error, msg, "$.kind"),
            cx,
            None,
            task_id.as_deref(),
            raw,
        ));
        return None;
    };
    let mut sink = FieldSink::default();
    // The SSE `event:` field names the kind without the `internal:` prefix.
    if cx.sse_type != "message"
        && cx.sse_type != kind.as_ref()
        && kind.strip_prefix("internal:") != Some(cx.sse_type)
    {
        sink.warn(
            DiagCode::KindMismatch,
            format!(
                "sse event type {} does not match kind {}",
                crate::json::Quoted(cx.sse_type),
                crate::json::Quoted(kind.as_ref())
            ),
            "$.kind".to_owned(),
        );
    }
    let event = match AgentEvent::decode_known(&kind, entries, &mut sink) {
        Ok(Some(ev)) => {
            check_semantics(&ev, &mut sink);
            Some(ev)
        }
        Ok(None) => None,
        Err(entries) => Some(AgentEvent::Unknown(UnknownEvent {
            unknown_kind: kind.clone(),
            context_id: find_str(&entries, "contextId"),
            task_id: task_id.clone(),
            data: Value::Object(entries),
        })),
    };
    for (code, severity, message, path) in sink.problems {
        diags.push(event_diag(
            Diagnostic::new(code, severity, message, path),
            cx,
            Some(&kind),
            task_id.as_deref(),
            raw,
        ));
    }
    event
}

fn event_diag(
    mut d: Diagnostic,
    cx: &EventContext<'_>,
    kind: Option<&str>,
    task_id: Option<&str>,
    raw: &str,
) -> Diagnostic {
    d.kind = kind.map(str::to_owned);
    d.task_id = task_id.map(str::to_owned);
    d.event_id = (!cx.event_id.is_empty()).then(|| super::bounded_field(cx.event_id));
    d.position = cx.position;
    d.raw = Some(bounded_raw(raw));
    d
}

/// Rules for typed members of `metadata`.
#[derive(Clone, Copy)]
enum Rule {
    Str,
    Bool,
    NonNeg,
    NonNegInt,
    Unit,
    StrArray,
    Timestamp,
    OneOf(&'static [&'static str]),
}

fn check_rule(v: &Value<'_>, rule: Rule) -> Option<(DiagCode, String)> {
    let ty = |expected: &str| {
        Some((
            DiagCode::InvalidType,
            format!("expected {expected}, found {}", v.type_name()),
        ))
    };
    match rule {
        Rule::Str => v.as_str().map_or_else(|| ty("string"), |_| None),
        Rule::Bool => v.as_bool().map_or_else(|| ty("boolean"), |_| None),
        Rule::NonNeg => match v.as_f64() {
            None => ty("number"),
            Some(n) if n >= 0.0 => None,
            Some(n) => Some((
                DiagCode::OutOfRange,
                format!("expected a number >= 0, found {}", crate::json::Num(n)),
            )),
        },
        Rule::NonNegInt => match v.as_f64() {
            None => ty("integer"),
            Some(n) if n >= 0.0 && n.fract() == 0.0 && n <= MAX_SAFE_INTEGER => None,
            Some(n) => Some((
                DiagCode::OutOfRange,
                format!(
                    "expected a whole number >= 0, found {}",
                    crate::json::Num(n)
                ),
            )),
        },
        Rule::Unit => match v.as_f64() {
            None => ty("number"),
            Some(n) if (0.0..=1.0).contains(&n) => None,
            Some(n) => Some((
                DiagCode::OutOfRange,
                format!("expected a number in [0, 1], found {}", crate::json::Num(n)),
            )),
        },
        Rule::StrArray => match v.as_array() {
            Some(items) if items.iter().all(|i| i.as_str().is_some()) => None,
            _ => ty("array of strings"),
        },
        Rule::Timestamp => match v.as_str() {
            None => ty("string"),
            Some(s) if timestamp::is_valid(s) => None,
            Some(s) => Some((
                DiagCode::InvalidTimestamp,
                format!("{} is not an ISO 8601 date-time", crate::json::Quoted(s)),
            )),
        },
        Rule::OneOf(names) => match v.as_str() {
            None => ty("string"),
            Some(s) if names.contains(&s) => None,
            Some(s) => Some((
                DiagCode::InvalidEnum,
                format!(
                    "{} is not one of {}",
                    crate::json::Quoted(s),
                    names.join(", ")
                ),
            )),
        },
    }
}

fn check_metadata(
    meta: Option<&super::field::JsonObject<'_>>,
    rules: &[(&str, Rule)],
    sink: &mut FieldSink,
) {
    let Some(meta) = meta else { return };
    for &(key, rule) in rules {
        if let Some(v) = meta.get(key) {
            if let Some((code, msg)) = check_rule(v, rule) {
                sink.warn(
                    code,
                    format!("metadata.{key}: {msg} (ignored)"),
                    format!("$.metadata.{key}"),
                );
            }
        }
    }
}

fn check_first_only(index: u64, present: &[(&str, bool)], sink: &mut FieldSink) {
    if index == 0 {
        return;
    }
    for &(name, is_present) in present {
        if is_present {
            sink.warn(
                DiagCode::MetadataNotOnFirstChunk,
                format!("{name} belongs on chunk 0, found on chunk {index} (ignored)"),
                format!("$.{name}"),
            );
        }
    }
}

fn timestamp_of<'e>(ev: &'e AgentEvent<'_>) -> Option<&'e str> {
    Some(match ev {
        AgentEvent::TaskCreated(e) => &e.timestamp,
        AgentEvent::TaskStatusEvent(e) => &e.timestamp,
        AgentEvent::TaskComplete(e) => &e.timestamp,
        AgentEvent::ContentDelta(e) => &e.timestamp,
        AgentEvent::ContentComplete(e) => &e.timestamp,
        AgentEvent::ToolStart(e) => &e.timestamp,
        AgentEvent::ToolProgress(e) => &e.timestamp,
        AgentEvent::ToolComplete(e) => &e.timestamp,
        AgentEvent::InputRequired(e) => &e.timestamp,
        AgentEvent::InputReceived(e) => &e.timestamp,
        AgentEvent::AuthRequired(e) => &e.timestamp,
        AgentEvent::AuthCompleted(e) => &e.timestamp,
        AgentEvent::FileWrite(e) => &e.timestamp,
        AgentEvent::DataWrite(e) => &e.timestamp,
        AgentEvent::DatasetWrite(e) => &e.timestamp,
        AgentEvent::SubtaskCreated(e) => &e.timestamp,
        AgentEvent::ThoughtStream(e) => &e.timestamp,
        AgentEvent::InternalThoughtProcess(e) => &e.timestamp,
        AgentEvent::InternalLlmCall(e) => &e.timestamp,
        AgentEvent::InternalCheckpoint(e) => &e.timestamp,
        AgentEvent::InternalToolStart(e) => &e.timestamp,
        AgentEvent::InternalToolComplete(e) => &e.timestamp,
        AgentEvent::MessageStart(e) => &e.timestamp,
        AgentEvent::MessageDelta(e) => &e.timestamp,
        AgentEvent::MessageEnd(e) => &e.timestamp,
        AgentEvent::MessagePut(e) => &e.timestamp,
        AgentEvent::MessagesSnapshot(e) => &e.timestamp,
        AgentEvent::MessagePatch(e) => &e.timestamp,
        AgentEvent::ToolArgsDelta(e) => &e.timestamp,
        AgentEvent::ToolArgsEnd(e) => &e.timestamp,
        AgentEvent::EncryptedValue(e) => &e.timestamp,
        AgentEvent::StateSnapshot(e) => &e.timestamp,
        AgentEvent::StateDelta(e) => &e.timestamp,
        AgentEvent::MessagePartPut(e) => &e.timestamp,
        AgentEvent::MessageCut(e) => &e.timestamp,
        AgentEvent::Unknown(_) => return None,
    })
}

/// Ranges, formats and cross-field rules inside one event (warnings: the event still applies).
fn check_semantics(ev: &AgentEvent<'_>, sink: &mut FieldSink) {
    if let Some(ts) = timestamp_of(ev) {
        if !timestamp::is_valid(ts) {
            sink.warn(
                DiagCode::InvalidTimestamp,
                format!("{} is not an ISO 8601 date-time", crate::json::Quoted(ts)),
                "$.timestamp".to_owned(),
            );
        }
    }
    match ev {
        AgentEvent::TaskCreated(e) => check_metadata(
            e.metadata.as_ref(),
            &[("agentId", Rule::Str), ("model", Rule::Str)],
            sink,
        ),
        AgentEvent::TaskStatusEvent(e) => check_metadata(
            e.metadata.as_ref(),
            &[("reason", Rule::Str), ("blockedBy", Rule::Str)],
            sink,
        ),
        AgentEvent::TaskComplete(e) => check_metadata(
            e.metadata.as_ref(),
            &[
                ("duration", Rule::NonNeg),
                ("iterations", Rule::NonNegInt),
                ("tokensUsed", Rule::NonNegInt),
            ],
            sink,
        ),
        AgentEvent::ToolStart(e) => check_metadata(
            e.metadata.as_ref(),
            &[("provider", Rule::Str), ("concurrent", Rule::Bool)],
            sink,
        ),
        AgentEvent::ToolProgress(e) => {
            if !(0.0..=1.0).contains(&e.progress) {
                sink.warn(
                    DiagCode::OutOfRange,
                    format!(
                        "progress: expected a number in [0, 1], found {} (clamped)",
                        crate::json::Num(e.progress)
                    ),
                    "$.progress".to_owned(),
                );
            }
            check_metadata(
                e.metadata.as_ref(),
                &[
                    ("step", Rule::Str),
                    ("stepsCompleted", Rule::NonNegInt),
                    ("stepsTotal", Rule::NonNegInt),
                ],
                sink,
            )
        }
        AgentEvent::ToolComplete(e) => check_metadata(
            e.metadata.as_ref(),
            &[
                ("duration", Rule::NonNeg),
                ("cached", Rule::Bool),
                ("retries", Rule::NonNegInt),
            ],
            sink,
        ),
        AgentEvent::InputRequired(e) => check_metadata(
            e.metadata.as_ref(),
            &[
                ("urgency", Rule::OneOf(&["low", "medium", "high"])),
                ("timeout", Rule::NonNeg),
            ],
            sink,
        ),
        AgentEvent::InputReceived(e) => {
            check_metadata(e.metadata.as_ref(), &[("duration", Rule::NonNeg)], sink)
        }
        AgentEvent::AuthRequired(e) => {
            if let Some(u) = &e.auth_url {
                if !url::is_safe_to_open(u) {
                    sink.warn(
                        DiagCode::UnsafeUrl,
                        format!(
                            "authUrl {} is not https (or http on localhost): it will not be opened",
                            crate::json::Quoted(&url::scheme_of(u))
                        ),
                        "$.authUrl".to_owned(),
                    );
                }
            }
            check_metadata(e.metadata.as_ref(), &[("expiresIn", Rule::NonNeg)], sink)
        }
        AgentEvent::AuthCompleted(e) => {
            check_metadata(e.metadata.as_ref(), &[("expiresAt", Rule::Timestamp)], sink)
        }
        AgentEvent::FileWrite(e) => {
            check_first_only(
                e.index,
                &[
                    ("name", e.name.is_some()),
                    ("description", e.description.is_some()),
                    ("mimeType", e.mime_type.is_some()),
                    ("encoding", e.encoding.is_some()),
                ],
                sink,
            );
            check_metadata(
                e.metadata.as_ref(),
                &[("toolCallId", Rule::Str), ("totalSize", Rule::NonNegInt)],
                sink,
            )
        }
        AgentEvent::DataWrite(e) => check_metadata(
            e.metadata.as_ref(),
            &[("toolCallId", Rule::Str), ("version", Rule::NonNeg)],
            sink,
        ),
        AgentEvent::DatasetWrite(e) => {
            check_first_only(
                e.index,
                &[
                    ("name", e.name.is_some()),
                    ("description", e.description.is_some()),
                    ("schema", e.schema.is_some()),
                ],
                sink,
            );
            check_metadata(
                e.metadata.as_ref(),
                &[
                    ("toolCallId", Rule::Str),
                    ("totalRows", Rule::NonNegInt),
                    ("batchSize", Rule::NonNegInt),
                ],
                sink,
            )
        }
        AgentEvent::ThoughtStream(e) => check_metadata(
            e.metadata.as_ref(),
            &[
                ("confidence", Rule::Unit),
                ("alternatives", Rule::StrArray),
                ("relatedTo", Rule::Str),
            ],
            sink,
        ),
        _ => {}
    }
}
