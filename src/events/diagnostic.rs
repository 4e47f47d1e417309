//! Diagnostics: everything invalid or inconsistent in a stream, as data the app can read.

use tsify::Tsify;

macro_rules! diag_codes {
    ($( $(#[doc = $doc:literal])* $name:ident = $code:literal, )*) => {
        /// A stable, machine-readable diagnostic code (kebab-case on the wire and in JavaScript).
        #[derive(Tsify, Debug, Clone, Copy, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        pub enum DiagCode {
            $( $(#[doc = $doc])* #[serde(rename = $code)] $name, )*
        }
        impl DiagCode {
            /// The stable code string, e.g. `"missing-field"`.
            pub fn as_str(self) -> &'static str {
                match self { $( DiagCode::$name => $code, )* }
            }
            /// Every code, in declaration order (documentation and tests).
            pub const ALL: &'static [DiagCode] = &[$( DiagCode::$name, )*];
        }
    };
}

diag_codes! {
    /// A line of the event stream was longer than the configured limit; its event was dropped.
    SseLineTooLong = "sse-line-too-long",
    /// An event's data was larger than the configured limit; the event was dropped.
    SseEventTooLarge = "sse-event-too-large",
    /// The event's data is not valid JSON.
    InvalidJson = "invalid-json",
    /// The event's data is JSON but not an object.
    NotAnObject = "not-an-object",
    /// A required field is missing.
    MissingField = "missing-field",
    /// A field has the wrong JSON type.
    InvalidType = "invalid-type",
    /// A field holds a value outside its enumeration.
    InvalidEnum = "invalid-enum",
    /// A number is outside its allowed range (progress, confidence, index, ...).
    OutOfRange = "out-of-range",
    /// A timestamp is not ISO 8601 (RFC 3339 date-time).
    InvalidTimestamp = "invalid-timestamp",
    /// The SSE `event:` field disagrees with the JSON `kind`.
    KindMismatch = "kind-mismatch",
    /// Metadata that belongs on the first chunk arrived on a later one.
    MetadataNotOnFirstChunk = "metadata-not-on-first-chunk",
    /// `tool-progress`/`tool-complete` without a preceding `tool-start` of the same `toolCallId`.
    ToolNotStarted = "tool-not-started",
    /// A second `tool-start` or an event for a tool that already completed.
    ToolAlreadyFinished = "tool-already-finished",
    /// `input-received` without an open `input-required` of the same `inputId`.
    InputNotOpen = "input-not-open",
    /// `auth-completed` without an open `auth-required` of the same `authId`.
    AuthNotOpen = "auth-not-open",
    /// A request id was reused while the first request was still known.
    DuplicateRequest = "duplicate-request",
    /// Chunks of a stream are not numbered 0, 1, 2, ... (a gap that did not fill).
    ChunkGap = "chunk-gap",
    /// A chunk index that was already applied, with different content.
    ChunkConflict = "chunk-conflict",
    /// A chunk after the one marked `complete: true`, or a second `complete: true`.
    ChunkAfterComplete = "chunk-after-complete",
    /// Content or status for a task that already reached a terminal state.
    TaskAlreadyTerminal = "task-already-terminal",
    /// `content-complete`/`task-complete` text disagrees with the assembled deltas.
    ContentMismatch = "content-mismatch",
    /// A dataset batch's rows do not match the schema of the first batch.
    SchemaMismatch = "schema-mismatch",
    /// A data artifact version older than one already applied (ignored).
    VersionRegression = "version-regression",
    /// base64 artifact data that does not decode.
    InvalidBase64 = "invalid-base64",
    /// A configured limit was reached (tasks, bytes, rows, pending chunks, ...).
    LimitExceeded = "limit-exceeded",
    /// An `authUrl` with a scheme that must not be opened (`javascript:`, `data:`, ...).
    UnsafeUrl = "unsafe-url",
    /// A subtask's parent relation contradicts an earlier one.
    ParentConflict = "parent-conflict",
    /// A request expired (`metadata.timeout`, `expiresIn`) before it was answered.
    RequestExpired = "request-expired",
    /// An event was already applied (same SSE id or same chunk): ignored.
    DuplicateEvent = "duplicate-event",
    /// Auto-detection could not tell the dialect of an event (not applied).
    UnknownDialect = "unknown-dialect",
    /// An event of another dialect than the stream's (not applied).
    DialectMismatch = "dialect-mismatch",
    /// A malformed JSON-RPC 2.0 response (`jsonrpc` not "2.0", no id, neither result nor error).
    RpcInvalid = "rpc-invalid",
    /// A JSON-RPC error response (A2A, A2A-ACP); the task of a failed stream becomes failed.
    RpcError = "rpc-error",
    /// A JSON-RPC response id that matches no request sent (or differs within one stream).
    RpcIdMismatch = "rpc-id-mismatch",
    /// An A2A `append: true` to an artifact that was never started.
    UnknownArtifact = "unknown-artifact",
    /// The agent reported an error (run errors, failed steps, MyAgent `error.*`/`system.error`).
    AgentError = "agent-error",
    /// Sequence numbers jumped: events in between never arrived (MyAgent `seq`).
    SequenceGap = "sequence-gap",
    /// Text or an end for a message that was never started (or already ended).
    MessageNotStarted = "message-not-started",
    /// A JSON Patch operation failed (a failed `test`, a path that does not resolve): the
    /// whole patch was not applied.
    PatchFailed = "patch-failed",
    /// An event the protocol does not allow at this point of the run (AG-UI's order rules:
    /// nothing after the run finished, a second start while one is open, ...).
    OutOfOrder = "out-of-order",
    /// The server answered in a framing this build does not read (AG-UI's protobuf).
    UnsupportedFraming = "unsupported-framing",
    /// A task ended while something under it was still going (a running tool, a working
    /// sub-task): that was ended too (tools `canceled`, sub-tasks `canceled`).
    LeftOpen = "left-open",
    /// A MyAgent frame of another session than the client's: ignored (not applied, not
    /// acknowledged, its `seq` not counted).
    SessionMismatch = "session-mismatch",
    /// A WebSocket frame larger than `maxEventBytes`: dropped (`sse-event-too-large` is the
    /// SSE event's).
    FrameTooLarge = "frame-too-large",
}

/// How bad a diagnostic is.
#[derive(Tsify, Debug, Clone, Copy, PartialEq, Eq)]
pub enum Severity {
    /// The event (or the part named by `path`) was rejected and not applied.
    #[serde(rename = "error")]
    Error,
    /// The event was applied; the flagged field was ignored or clamped.
    #[serde(rename = "warning")]
    Warning,
}

impl Severity {
    /// `"error"` or `"warning"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

/// The most raw bytes a diagnostic keeps (longer data is cut at a character boundary and marked).
pub const MAX_RAW_BYTES: usize = 2048;

/// The most bytes a kept diagnostic holds in each of `message`, `path`, `kind`, `taskId` and
/// `eventId` (ids and messages quote the input, which can be as long as an event).
pub const MAX_FIELD_BYTES: usize = 1024;

/// `s` as a diagnostic field: what [`Diagnostic::bound`] would keep of it, without copying
/// the rest. For the SSE id a diagnostic names: the id persists across events, so copying all of
/// a long one into each event's diagnostics would cost its length per event.
pub fn bounded_field(s: &str) -> String {
    // A character is at most 4 bytes, so this prefix is longer than the bound exactly when `s`
    // is: `cut` decides and cuts it as it would `s`.
    let mut out = floor_char_boundary(s, MAX_FIELD_BYTES + 4).to_owned();
    cut(&mut out, MAX_FIELD_BYTES);
    out
}

/// The longest prefix of `s` of at most `max` bytes that ends on a character boundary.
pub(crate) fn floor_char_boundary(s: &str, max: usize) -> &str {
    if s.len() <= max {
        return s;
    }
    let mut end = max;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    s.get(..end).unwrap_or("")
}

/// Cuts `s` to at most `max` bytes at a character boundary, ending it with `…` when cut.
fn cut(s: &mut String, max: usize) {
    if s.len() <= max {
        return;
    }
    let end = floor_char_boundary(s, max.saturating_sub('…'.len_utf8())).len();
    s.truncate(end);
    s.push('…');
}

/// One problem found in the stream. Never thrown: collected, and readable/subscribable by the app.
#[derive(Tsify, Debug, Clone, PartialEq)]
pub struct Diagnostic {
    /// Stable code.
    pub code: DiagCode,
    /// `error`: not applied; `warning`: applied with the flagged part ignored.
    pub severity: Severity,
    /// A short lower-case explanation.
    pub message: String,
    /// JSON path inside the event's data (`$` for the whole event, `$.metadata.confidence`, ...).
    pub path: String,
    /// The event kind, when known.
    #[tsify(optional)]
    pub kind: Option<String>,
    /// The task concerned, when known.
    #[serde(rename = "taskId")]
    #[tsify(optional)]
    pub task_id: Option<String>,
    /// The SSE `id` (last event id) of the event, when the stream carries ids.
    #[serde(rename = "eventId")]
    #[tsify(optional)]
    pub event_id: Option<String>,
    /// The event's position in the stream (0-based count of dispatched events).
    pub position: u64,
    /// The raw event data (cut to a bounded size), when the diagnostic is about one event.
    #[tsify(optional)]
    pub raw: Option<String>,
}

impl Diagnostic {
    /// A diagnostic with the given code, severity, message and path, no event context yet.
    pub fn new(
        code: DiagCode,
        severity: Severity,
        message: impl Into<String>,
        path: impl Into<String>,
    ) -> Self {
        Diagnostic {
            code,
            severity,
            message: message.into(),
            path: path.into(),
            kind: None,
            task_id: None,
            event_id: None,
            position: 0,
            raw: None,
        }
    }

    /// Bounds every string of the diagnostic: [`MAX_FIELD_BYTES`] each, `raw`
    /// [`MAX_RAW_BYTES`] (plus its cut marker). What a store keeps is bounded this way.
    pub fn bound(&mut self) {
        cut(&mut self.message, MAX_FIELD_BYTES);
        cut(&mut self.path, MAX_FIELD_BYTES);
        for s in [&mut self.kind, &mut self.task_id, &mut self.event_id]
            .into_iter()
            .flatten()
        {
            cut(s, MAX_FIELD_BYTES);
        }
        if let Some(raw) = &mut self.raw {
            cut(raw, MAX_RAW_BYTES + 16);
        }
    }

    /// Appends this diagnostic as a JSON object to `out`.
    pub fn write_json(&self, out: &mut String) {
        crate::json::WriteJson::write_json(self, out)
    }
}

impl crate::json::WriteJson for Diagnostic {
    fn write_json(&self, out: &mut String) {
        use crate::json::{write_number, write_str};
        out.push_str("{\"code\":");
        write_str(out, self.code.as_str());
        out.push_str(",\"severity\":");
        write_str(out, self.severity.as_str());
        out.push_str(",\"message\":");
        write_str(out, &self.message);
        out.push_str(",\"path\":");
        write_str(out, &self.path);
        for (name, v) in [
            ("kind", &self.kind),
            ("taskId", &self.task_id),
            ("eventId", &self.event_id),
        ] {
            if let Some(v) = v {
                out.push_str(",\"");
                out.push_str(name);
                out.push_str("\":");
                write_str(out, v);
            }
        }
        out.push_str(",\"position\":");
        write_number(out, self.position as f64);
        if let Some(raw) = &self.raw {
            out.push_str(",\"raw\":");
            write_str(out, raw);
        }
        out.push('}');
    }
}

/// Cuts `data` to at most [`MAX_RAW_BYTES`] at a character boundary, marking the cut.
pub fn bounded_raw(data: &str) -> String {
    let kept = floor_char_boundary(data, MAX_RAW_BYTES);
    if kept.len() == data.len() {
        return data.to_owned();
    }
    let mut s = String::with_capacity(kept.len() + 24);
    s.push_str(kept);
    s.push_str("…[truncated]");
    s
}
