//! Event filters, applied in Rust before anything crosses into JavaScript.
//!
//! A filter is a value: build it from JSON (what JavaScript passes) or in Rust, then ask
//! [`EventFilter::matches`]. `internal:*` events are excluded unless asked for, as the
//! protocol says they are not meant for clients.

use crate::events::{AgentEvent, ThoughtType, Verbosity};
use crate::json::{self, Value};
use crate::state::Store;

/// Which events to deliver. Empty lists mean "any".
#[derive(Debug, Clone, PartialEq, Default)]
pub struct EventFilter {
    /// Kind patterns: an exact kind, a group (`tool-*`, `input-*`, `auth-*`, `task-*`,
    /// `content-*`, `artifact-*`, `internal:*`), or `*`. Internal events pass only a pattern
    /// that names them (`internal:checkpoint`, `internal:*`; `*` is not enough) or
    /// `includeInternal`.
    pub kinds: Vec<String>,
    /// Only events of this task (see `subtree`).
    pub task_id: Option<String>,
    /// With `task_id`: also events of its whole sub-tree.
    pub subtree: bool,
    /// Only events of this context.
    pub context_id: Option<String>,
    /// Thoughts: only these types.
    pub thought_types: Vec<ThoughtType>,
    /// Thoughts: at most this verbosity (`brief` < `normal` < `detailed`).
    pub max_verbosity: Option<Verbosity>,
    /// Thoughts: at least this confidence (thoughts without one, or with one outside [0, 1],
    /// which is ignored, pass).
    pub min_confidence: Option<f64>,
    /// Input requests: only those with this `requireUser`.
    pub require_user: Option<bool>,
    /// Deliver `internal:*` events (off by default).
    pub include_internal: bool,
}

fn verbosity_rank(v: Verbosity) -> u8 {
    match v {
        Verbosity::Brief => 0,
        Verbosity::Normal => 1,
        Verbosity::Detailed => 2,
    }
}

/// `true` when `kind` matches the pattern (exact, group `prefix*`, or `*`).
pub fn kind_matches(pattern: &str, kind: &str) -> bool {
    match pattern {
        "*" => true,
        "artifact-*" => matches!(kind, "file-write" | "data-write" | "dataset-write"),
        p => match p.strip_suffix('*') {
            Some(prefix) => kind.starts_with(prefix),
            None => p == kind,
        },
    }
}

/// `true` when the pattern `"unknown"` names `ev`: an event of a kind this version does not
/// know (its own kind is matched by the other patterns), internal ones excepted.
pub fn names_unknown(pattern: &str, ev: &AgentEvent<'_>) -> bool {
    pattern == "unknown"
        && matches!(ev, AgentEvent::Unknown(u) if !u.unknown_kind.starts_with("internal:"))
}

/// The kind used for matching: the real kind of unknown events too.
pub fn match_kind<'e>(ev: &'e AgentEvent<'_>) -> &'e str {
    match ev {
        AgentEvent::Unknown(u) => &u.unknown_kind,
        other => other.kind(),
    }
}

/// (contextId, taskId) of an event, when it has them.
pub fn event_scope<'e>(ev: &'e AgentEvent<'_>) -> (Option<&'e str>, Option<&'e str>) {
    macro_rules! scope {
        ($($v:ident),*) => {
            match ev {
                $( AgentEvent::$v(e) => (Some(&*e.context_id), Some(&*e.task_id)), )*
                AgentEvent::InternalToolStart(e) => (e.context_id.as_deref(), Some(&*e.task_id)),
                AgentEvent::InternalToolComplete(e) => (e.context_id.as_deref(), Some(&*e.task_id)),
                AgentEvent::Unknown(e) => (e.context_id.as_deref(), e.task_id.as_deref()),
            }
        };
    }
    scope!(
        TaskCreated,
        TaskStatusEvent,
        TaskComplete,
        ContentDelta,
        ContentComplete,
        ToolStart,
        ToolProgress,
        ToolComplete,
        InputRequired,
        InputReceived,
        AuthRequired,
        AuthCompleted,
        FileWrite,
        DataWrite,
        DatasetWrite,
        SubtaskCreated,
        ThoughtStream,
        InternalThoughtProcess,
        InternalLlmCall,
        InternalCheckpoint,
        MessageStart,
        MessageDelta,
        MessageEnd,
        MessagePut,
        MessagesSnapshot,
        MessagePatch,
        ToolArgsDelta,
        ToolArgsEnd,
        EncryptedValue,
        StateSnapshot,
        StateDelta,
        MessagePartPut,
        MessageCut
    )
}

impl EventFilter {
    /// Everything except `internal:*`.
    pub fn all() -> Self {
        EventFilter::default()
    }

    /// Reads a filter from JSON:
    /// `{"kinds":["tool-*"],"taskId":"t","subtree":true,"contextId":"c","thoughtTypes":["planning"],
    ///   "maxVerbosity":"normal","minConfidence":0.5,"requireUser":true,"includeInternal":false}`.
    pub fn from_json(text: &str) -> Result<Self, String> {
        let v = json::parse(text).map_err(|e| format!("filter is not json: {e}"))?;
        let obj = v.as_object().ok_or("filter must be an object")?;
        let mut f = EventFilter::default();
        for (k, val) in obj {
            let bad = |what: &str| format!("filter.{k}: expected {what}");
            match k.as_ref() {
                "kinds" | "kind" => {
                    f.kinds = match val {
                        Value::String(s) => vec![s.to_string()],
                        Value::Array(a) => a
                            .iter()
                            .map(|x| x.as_str().map(str::to_owned).ok_or_else(|| bad("strings")))
                            .collect::<Result<_, _>>()?,
                        _ => return Err(bad("a string or an array of strings")),
                    }
                }
                "taskId" => {
                    f.task_id = Some(val.as_str().ok_or_else(|| bad("a string"))?.to_owned())
                }
                "subtree" => f.subtree = val.as_bool().ok_or_else(|| bad("a boolean"))?,
                "contextId" => {
                    f.context_id = Some(val.as_str().ok_or_else(|| bad("a string"))?.to_owned())
                }
                "thoughtTypes" => {
                    let a = val.as_array().ok_or_else(|| bad("an array"))?;
                    f.thought_types = a
                        .iter()
                        .map(|x| {
                            x.as_str()
                                .and_then(ThoughtType::parse)
                                .ok_or_else(|| bad("thought types"))
                        })
                        .collect::<Result<_, _>>()?;
                }
                "maxVerbosity" => {
                    f.max_verbosity = Some(
                        val.as_str()
                            .and_then(Verbosity::parse)
                            .ok_or_else(|| bad("brief, normal or detailed"))?,
                    )
                }
                "minConfidence" => {
                    f.min_confidence = Some(val.as_f64().ok_or_else(|| bad("a number"))?)
                }
                "requireUser" => {
                    f.require_user = Some(val.as_bool().ok_or_else(|| bad("a boolean"))?)
                }
                "includeInternal" => {
                    f.include_internal = val.as_bool().ok_or_else(|| bad("a boolean"))?
                }
                other => {
                    return Err(format!(
                        "unknown filter field {}",
                        crate::json::Quoted(other)
                    ))
                }
            }
        }
        Ok(f)
    }

    /// Whether events of `kind` can pass (the kind and `includeInternal` rules only).
    pub fn passes_kind(&self, kind: &str) -> bool {
        // Internal events only when asked for: `includeInternal`, or a pattern naming them
        // (`internal:checkpoint`, `internal:*`) that matches this one; `*` alone is not enough.
        if kind.starts_with("internal:") && !self.include_internal {
            return self
                .kinds
                .iter()
                .any(|p| p.starts_with("internal:") && kind_matches(p, kind));
        }
        self.kinds.is_empty() || self.kinds.iter().any(|p| kind_matches(p, kind))
    }

    /// `true` when [`EventFilter::passes_kind`] alone decides (no task, context, thought or
    /// input condition), so a filter compiled to a set of kinds is exact.
    pub fn is_kind_only(&self) -> bool {
        self.task_id.is_none()
            && self.context_id.is_none()
            && self.thought_types.is_empty()
            && self.max_verbosity.is_none()
            && self.min_confidence.is_none()
            && self.require_user.is_none()
    }

    /// Whether `ev` passes. `store` resolves sub-trees.
    pub fn matches(&self, ev: &AgentEvent<'_>, store: &Store) -> bool {
        if !self.passes_kind(match_kind(ev)) && !self.kinds.iter().any(|p| names_unknown(p, ev)) {
            return false;
        }
        let (ctx, task) = event_scope(ev);
        if let Some(c) = &self.context_id {
            if ctx != Some(c.as_str()) {
                return false;
            }
        }
        if let Some(t) = &self.task_id {
            let ok = match task {
                Some(id) if id == t => true,
                Some(id) if self.subtree => {
                    store.is_in_subtree(id, t)
                        || matches!(ev, AgentEvent::SubtaskCreated(s) if store.is_in_subtree(&s.task_id, t))
                }
                _ => false,
            };
            if !ok {
                return false;
            }
        }
        match ev {
            AgentEvent::ThoughtStream(th) => {
                if !self.thought_types.is_empty() && !self.thought_types.contains(&th.thought_type)
                {
                    return false;
                }
                if self
                    .max_verbosity
                    .is_some_and(|m| verbosity_rank(th.verbosity) > verbosity_rank(m))
                {
                    return false;
                }
                if let Some(min) = self.min_confidence {
                    let c = th
                        .metadata
                        .as_ref()
                        .and_then(|m| m.get("confidence"))
                        .and_then(Value::as_f64)
                        // Out of [0, 1] it is ignored (a diagnostic), as if absent: it passes.
                        .filter(|c| (0.0..=1.0).contains(c));
                    if c.is_some_and(|c| c < min) {
                        return false;
                    }
                }
                true
            }
            AgentEvent::InputRequired(r) => self
                .require_user
                .is_none_or(|want| r.require_user.unwrap_or(false) == want),
            _ => true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::events::{decode_event, EventContext};
    use crate::state::{EventMeta, Limits};

    fn check(filter: &str, events: &[&str]) -> Vec<bool> {
        let f = EventFilter::from_json(filter).expect("filter");
        let mut store = Store::new(Limits::default());
        events
            .iter()
            .map(|e| {
                let mut d = Vec::new();
                let ev = decode_event(e, &EventContext::default(), &mut d).expect("decoded");
                store.apply(&ev, &EventMeta::default());
                f.matches(&ev, &store)
            })
            .collect()
    }

    const ROOT: &str = r#"{"kind":"task-created","contextId":"c","taskId":"r","initiator":"user","timestamp":"2025-11-06T10:30:00Z"}"#;
    const CHILD: &str = r#"{"kind":"task-created","contextId":"c","taskId":"k","parentTaskId":"r","initiator":"agent","timestamp":"2025-11-06T10:30:00Z"}"#;
    const TOOL: &str = r#"{"kind":"tool-progress","contextId":"c","taskId":"k","toolCallId":"x","progress":0.5,"timestamp":"2025-11-06T10:30:00Z"}"#;
    const INTERNAL: &str = r#"{"kind":"internal:checkpoint","contextId":"c","taskId":"r","iteration":1,"timestamp":"2025-11-06T10:30:00Z"}"#;
    const THOUGHT: &str = r#"{"kind":"thought-stream","contextId":"c","taskId":"r","thoughtId":"t","thoughtType":"planning","verbosity":"detailed","content":"x","index":0,"timestamp":"2025-11-06T10:30:00Z","metadata":{"confidence":0.4}}"#;
    const INPUT: &str = r#"{"kind":"input-required","contextId":"c","taskId":"r","inputId":"i","inputType":"confirmation","prompt":"p","requireUser":true,"timestamp":"2025-11-06T10:30:00Z"}"#;

    #[test]
    fn internal_events_are_off_by_default() {
        assert_eq!(check("{}", &[ROOT, INTERNAL]), vec![true, false]);
        assert_eq!(
            check(r#"{"includeInternal":true}"#, &[ROOT, INTERNAL]),
            vec![true, true]
        );
        assert_eq!(
            check(r#"{"kinds":["internal:*"]}"#, &[ROOT, INTERNAL]),
            vec![false, true]
        );
    }

    #[test]
    fn kind_groups_and_task_subtrees() {
        assert_eq!(
            check(
                r#"{"kinds":["tool-*","input-*"]}"#,
                &[ROOT, CHILD, TOOL, INPUT]
            ),
            vec![false, false, true, true]
        );
        assert_eq!(
            check(r#"{"taskId":"r"}"#, &[ROOT, CHILD, TOOL]),
            vec![true, false, false]
        );
        assert_eq!(
            check(r#"{"taskId":"r","subtree":true}"#, &[ROOT, CHILD, TOOL]),
            vec![true, true, true]
        );
        assert_eq!(check(r#"{"contextId":"other"}"#, &[ROOT]), vec![false]);
    }

    #[test]
    fn thought_and_input_filters() {
        assert_eq!(
            check(r#"{"maxVerbosity":"normal"}"#, &[THOUGHT]),
            vec![false]
        );
        assert_eq!(check(r#"{"minConfidence":0.5}"#, &[THOUGHT]), vec![false]);
        assert_eq!(
            check(
                r#"{"thoughtTypes":["planning"],"minConfidence":0.3}"#,
                &[THOUGHT]
            ),
            vec![true]
        );
        assert_eq!(check(r#"{"requireUser":false}"#, &[INPUT]), vec![false]);
        assert!(EventFilter::from_json(r#"{"maxVerbosity":"loud"}"#).is_err());
        assert!(EventFilter::from_json(r#"{"nope":1}"#).is_err());
    }

    #[test]
    fn naming_one_internal_kind_lets_only_that_kind_through() {
        const LLM: &str = r#"{"kind":"internal:llm-call","contextId":"c","taskId":"r","iteration":1,"timestamp":"2025-11-06T10:30:00Z"}"#;
        let three = [ROOT, LLM, INTERNAL];
        assert_eq!(check(r#"{"kinds":["*"]}"#, &three), [true, false, false]);
        let one = r#"{"kinds":["*","internal:checkpoint"]}"#;
        assert_eq!(check(one, &three), [true, false, true]);
        let all = r#"{"kinds":["internal:*"]}"#;
        assert_eq!(check(all, &three), [false, true, true]);
    }

    #[test]
    fn an_ignored_confidence_counts_as_none() {
        // The decoder warns about -0.5 and the store keeps no confidence: the thought passes
        // like one without a confidence.
        const NEG: &str = r#"{"kind":"thought-stream","contextId":"c","taskId":"r","thoughtId":"t","thoughtType":"planning","verbosity":"brief","content":"x","index":0,"timestamp":"2025-11-06T10:30:00Z","metadata":{"confidence":-0.5}}"#;
        assert_eq!(
            check(r#"{"minConfidence":0.5}"#, &[NEG, THOUGHT]),
            [true, false]
        );
    }
}
