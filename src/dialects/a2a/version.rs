//! The two versions of A2A on the wire, told apart by shape (never by a header: a recording has
//! none), and the enums both spell differently.
//!
//! | | v0.3 | v1.0 |
//! |---|---|---|
//! | event | `{"kind": "task" \| "status-update" \| "artifact-update" \| "message", …}` | a `StreamResponse`: exactly one of `task`, `message`, `statusUpdate`, `artifactUpdate` |
//! | task state | `working`, `input-required`, … | `TASK_STATE_WORKING`, `TASK_STATE_INPUT_REQUIRED`, … (protobuf JSON also allows the enum's number) |
//! | role | `user`, `agent` | `ROLE_USER`, `ROLE_AGENT` |
//! | end of a stream | `final: true` on the last `status-update` | none: the server closes the stream after a terminal or interrupted state |
//! | JSON-RPC `CancelTask` / `GetTask` result | a `task` (with `kind`) | the bare `Task` (no wrapper, no `kind`) |

use crate::json::Value;

/// The A2A protocol version of a stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Version {
    /// A2A v0.3 (seed 001): `kind` on every event.
    V03,
    /// A2A v1.0: `StreamResponse` objects, `TASK_STATE_*` / `ROLE_*` enums.
    V10,
}

impl Version {
    /// `"0.3"` or `"1.0"` (the value of the `A2A-Version` header and the `a2aVersion` option).
    pub fn as_str(self) -> &'static str {
        match self {
            Version::V03 => "0.3",
            Version::V10 => "1.0",
        }
    }

    /// Parses `"0.3"` / `"1.0"` (also `"1"`, `"1.0.x"`, `"0.3.x"`).
    pub fn parse(s: &str) -> Option<Version> {
        let mut it = s.trim().split('.');
        match (it.next()?, it.next().unwrap_or("0")) {
            ("1", "0") => Some(Version::V10),
            ("0", "3") => Some(Version::V03),
            _ => None,
        }
    }
}

/// The four A2A events.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum EventKind {
    Task,
    StatusUpdate,
    ArtifactUpdate,
    Message,
}

impl EventKind {
    /// The v0.3 `kind` (the name used in diagnostics and unknown events).
    pub(super) fn as_str(self) -> &'static str {
        match self {
            EventKind::Task => "task",
            EventKind::StatusUpdate => "status-update",
            EventKind::ArtifactUpdate => "artifact-update",
            EventKind::Message => "message",
        }
    }

    fn parse_v03(kind: &str) -> Option<EventKind> {
        Some(match kind {
            "task" => EventKind::Task,
            "status-update" => EventKind::StatusUpdate,
            "artifact-update" => EventKind::ArtifactUpdate,
            "message" => EventKind::Message,
            _ => return None,
        })
    }
}

/// The `StreamResponse` members of v1.0, with the event each holds.
pub(super) const V10_MEMBERS: &[(&str, EventKind)] = &[
    ("task", EventKind::Task),
    ("message", EventKind::Message),
    ("statusUpdate", EventKind::StatusUpdate),
    ("artifactUpdate", EventKind::ArtifactUpdate),
];

/// `true` when `v` is shaped like a v1.0 `StreamResponse`: no `kind`, and exactly one of its four
/// members, holding an object.
pub(crate) fn is_stream_response(v: &Value<'_>) -> bool {
    v.get("kind").is_none() && stream_member(v).is_some()
}

fn stream_member<'v, 'a>(v: &'v Value<'a>) -> Option<(&'static str, EventKind, &'v Value<'a>)> {
    let mut found = None;
    for (name, kind) in V10_MEMBERS {
        if let Some(inner) = v.get(name) {
            if found.is_some() || inner.as_object().is_none() {
                return None;
            }
            found = Some((*name, *kind, inner));
        }
    }
    found
}

/// `true` when `v` looks like a bare v1.0 `Task` (a `CancelTask` / `GetTask` result): `id` and
/// `status` objects, no `kind`.
fn is_bare_task(v: &Value<'_>) -> bool {
    v.get("kind").is_none()
        && v.get("id").and_then(Value::as_str).is_some()
        && v.get("status").and_then(Value::as_object).is_some()
}

/// What one A2A payload is: its version, its event kind, the event object itself and the JSON
/// path suffix of that object (`""` in v0.3, `.statusUpdate` … in v1.0).
pub(super) struct Shape<'v, 'a> {
    pub version: Version,
    pub kind: Result<EventKind, &'v str>,
    pub event: &'v Value<'a>,
    pub member: &'static str,
}

/// Tells the shape of an event (`None`: neither a v0.3 `kind` nor a v1.0 `StreamResponse`).
pub(super) fn shape<'v, 'a>(v: &'v Value<'a>) -> Option<Shape<'v, 'a>> {
    if let Some(kind) = v.get("kind").and_then(Value::as_str) {
        return Some(Shape {
            version: Version::V03,
            kind: EventKind::parse_v03(kind).ok_or(kind),
            event: v,
            member: "",
        });
    }
    if let Some((name, kind, inner)) = stream_member(v) {
        return Some(Shape {
            version: Version::V10,
            kind: Ok(kind),
            event: inner,
            member: match name {
                "task" => ".task",
                "message" => ".message",
                "statusUpdate" => ".statusUpdate",
                _ => ".artifactUpdate",
            },
        });
    }
    if is_bare_task(v) {
        return Some(Shape {
            version: Version::V10,
            kind: Ok(EventKind::Task),
            event: v,
            member: "",
        });
    }
    None
}

/// The nine A2A task states.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TaskState {
    /// Received.
    Submitted,
    /// Processing.
    Working,
    /// Waiting for user input.
    InputRequired,
    /// Finished successfully.
    Completed,
    /// Canceled by the user.
    Canceled,
    /// Failed.
    Failed,
    /// Rejected (e.g. policy).
    Rejected,
    /// Authentication needed.
    AuthRequired,
    /// Cannot be determined (v1.0: `TASK_STATE_UNSPECIFIED`).
    Unknown,
}

impl TaskState {
    /// Every state's v0.3 wire name.
    pub const NAMES: &'static [&'static str] = &[
        "submitted",
        "working",
        "input-required",
        "completed",
        "canceled",
        "failed",
        "rejected",
        "auth-required",
        "unknown",
    ];

    /// Every state's v1.0 wire name, in the enum's number order (0 to 8).
    pub const V10_NAMES: &'static [&'static str] = &[
        "TASK_STATE_UNSPECIFIED",
        "TASK_STATE_SUBMITTED",
        "TASK_STATE_WORKING",
        "TASK_STATE_COMPLETED",
        "TASK_STATE_FAILED",
        "TASK_STATE_CANCELED",
        "TASK_STATE_INPUT_REQUIRED",
        "TASK_STATE_REJECTED",
        "TASK_STATE_AUTH_REQUIRED",
    ];

    const V10_ORDER: [TaskState; 9] = [
        TaskState::Unknown,
        TaskState::Submitted,
        TaskState::Working,
        TaskState::Completed,
        TaskState::Failed,
        TaskState::Canceled,
        TaskState::InputRequired,
        TaskState::Rejected,
        TaskState::AuthRequired,
    ];

    /// Parses a v0.3 wire name.
    pub fn parse(s: &str) -> Option<TaskState> {
        Some(match s {
            "submitted" => TaskState::Submitted,
            "working" => TaskState::Working,
            "input-required" => TaskState::InputRequired,
            "completed" => TaskState::Completed,
            "canceled" => TaskState::Canceled,
            "failed" => TaskState::Failed,
            "rejected" => TaskState::Rejected,
            "auth-required" => TaskState::AuthRequired,
            "unknown" => TaskState::Unknown,
            _ => return None,
        })
    }

    /// Parses a v1.0 wire value: the enum's name, or its number (protobuf JSON accepts both).
    pub fn parse_v10(v: &Value<'_>) -> Option<TaskState> {
        let i = match v {
            Value::String(s) => TaskState::V10_NAMES.iter().position(|n| n == s)?,
            Value::Number(n) if n.fract() == 0.0 && (0.0..9.0).contains(n) => *n as usize,
            _ => return None,
        };
        TaskState::V10_ORDER.get(i).copied()
    }

    /// The v0.3 wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            TaskState::Submitted => "submitted",
            TaskState::Working => "working",
            TaskState::InputRequired => "input-required",
            TaskState::Completed => "completed",
            TaskState::Canceled => "canceled",
            TaskState::Failed => "failed",
            TaskState::Rejected => "rejected",
            TaskState::AuthRequired => "auth-required",
            TaskState::Unknown => "unknown",
        }
    }

    /// The v1.0 wire name.
    pub fn as_v10_str(self) -> &'static str {
        let i = TaskState::V10_ORDER
            .iter()
            .position(|s| *s == self)
            .unwrap_or(0);
        TaskState::V10_NAMES[i]
    }

    /// Completed, canceled, failed and rejected end a task.
    pub fn is_terminal(self) -> bool {
        matches!(
            self,
            TaskState::Completed | TaskState::Canceled | TaskState::Failed | TaskState::Rejected
        )
    }

    /// Input-required and auth-required interrupt a task: it waits for the client.
    pub fn is_interrupted(self) -> bool {
        matches!(self, TaskState::InputRequired | TaskState::AuthRequired)
    }
}

/// A message's role, in either version (`None`: not a role of the version's enum).
pub(super) fn parse_role(v: &Value<'_>, version: Version) -> Option<&'static str> {
    match (version, v) {
        (Version::V03, Value::String(s)) => match &**s {
            "user" => Some("user"),
            "agent" => Some("agent"),
            _ => None,
        },
        (Version::V10, Value::String(s)) => match &**s {
            "ROLE_USER" => Some("user"),
            "ROLE_AGENT" => Some("agent"),
            "ROLE_UNSPECIFIED" => Some("unspecified"),
            _ => None,
        },
        (Version::V10, Value::Number(n)) => match *n as i64 {
            _ if n.fract() != 0.0 => None,
            0 => Some("unspecified"),
            1 => Some("user"),
            2 => Some("agent"),
            _ => None,
        },
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::parse;

    #[test]
    fn v10_states_by_name_and_number_agree() {
        for (i, name) in TaskState::V10_NAMES.iter().enumerate() {
            let by_name = TaskState::parse_v10(&Value::String((*name).into()));
            let by_number = TaskState::parse_v10(&Value::Number(i as f64));
            assert_eq!(by_name, by_number, "{name}");
            assert_eq!(by_name.map(TaskState::as_v10_str), Some(*name));
        }
        assert_eq!(TaskState::parse_v10(&Value::Number(9.0)), None);
        assert_eq!(TaskState::parse_v10(&Value::Number(2.5)), None);
        assert_eq!(TaskState::parse_v10(&Value::String("working".into())), None);
    }

    #[test]
    fn shapes_of_both_versions() {
        let v = parse(r#"{"statusUpdate":{"taskId":"t"}}"#).unwrap();
        let s = shape(&v).unwrap();
        assert_eq!(
            (s.version, s.kind, s.member),
            (Version::V10, Ok(EventKind::StatusUpdate), ".statusUpdate")
        );
        let v = parse(r#"{"kind":"status-update","taskId":"t"}"#).unwrap();
        assert_eq!(shape(&v).unwrap().version, Version::V03);
        let v = parse(r#"{"id":"t","contextId":"c","status":{"state":"TASK_STATE_CANCELED"}}"#)
            .unwrap();
        assert_eq!(shape(&v).unwrap().kind, Ok(EventKind::Task));
        // Two members at once, or a member that is not an object: not a StreamResponse.
        for bad in [
            r#"{"task":{},"message":{}}"#,
            r#"{"task":"x"}"#,
            r#"{"hello":1}"#,
        ] {
            assert!(shape(&parse(bad).unwrap()).is_none(), "{bad}");
        }
        assert_eq!(Version::parse("1.0"), Some(Version::V10));
        assert_eq!(Version::parse("0.3"), Some(Version::V03));
        assert_eq!(Version::parse("2.0"), None);
    }
}
