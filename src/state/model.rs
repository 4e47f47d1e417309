//! What the UI renders: tasks (with content, tools, requests, thoughts) and artifacts.
//! These are the types of `getSnapshot()` in JavaScript (generated declarations).

use super::macros::view_struct;
use crate::events::field::str_enum;
use crate::events::{
    AuthType, Encoding, Initiator, InputType, ProvidedBy, TaskStatus, ThoughtType, Verbosity,
};

pub use super::raw::RawJson;

str_enum! {
    /// Where a tool call is.
    ToolState { /// Started, not finished.
    Running = "running", /// Finished with `success: true`.
    Succeeded = "succeeded", /// Finished with `success: false`.
    Failed = "failed", /// Its task ended before it finished: no result will come.
    Canceled = "canceled", }
}

str_enum! {
    /// Where an input or auth request is.
    RequestState { /// Waiting for an answer.
    Open = "open", /// Answered (`input-received` / `auth-completed`).
    Answered = "answered", /// Its timeout passed, or its task ended, before an answer.
    Expired = "expired", }
}

str_enum! {
    /// Who should answer an input request first.
    Routing { /// Must reach the user (`requireUser: true`, and every auth request).
    User = "user", /// A coordinator may answer first, falling back to the user.
    Coordinator = "coordinator", }
}

view_struct! {
    /// One entry of a task's status history.
    pub struct StatusChange {
        /// The status entered.
        pub status: TaskStatus = "status",
        /// Human-readable message.
        #[tsify(optional)]
        pub message: Option<String> = "message",
        /// Why (failed/canceled).
        #[tsify(optional)]
        pub reason: Option<String> = "reason",
        /// What it waits for (waiting-*): a task id or `user`.
        #[tsify(optional)]
        pub blocked_by: Option<String> = "blockedBy",
        /// ISO 8601.
        pub timestamp: String = "timestamp",
    }
}

view_struct! {
    /// A tool call and everything known about it.
    pub struct Tool {
        /// `toolCallId`.
        pub id: String = "id",
        /// The tool's name.
        pub name: String = "name",
        /// The call's arguments.
        pub arguments: RawJson = "arguments",
        /// `local`, `client`, `mcp` or an agent id.
        #[tsify(optional)]
        pub provider: Option<String> = "provider",
        /// Runs in parallel with other tools.
        #[tsify(optional)]
        pub concurrent: Option<bool> = "concurrent",
        /// The arguments' JSON text as it streams (tool calls whose arguments arrive in
        /// pieces: AG-UI, the AI SDK); `arguments` is set from it once they end.
        #[tsify(optional)]
        pub arguments_text: Option<String> = "argumentsText",
        /// The message whose `toolCalls` hold this call.
        #[tsify(optional)]
        pub message_id: Option<String> = "messageId",
        /// running / succeeded / failed.
        pub state: ToolState = "state",
        /// 0..1 (1 once finished successfully).
        pub progress: f64 = "progress",
        /// Latest progress message.
        #[tsify(optional)]
        pub message: Option<String> = "message",
        /// Current step name.
        #[tsify(optional)]
        pub step: Option<String> = "step",
        /// Steps done.
        #[tsify(optional)]
        pub steps_completed: Option<u64> = "stepsCompleted",
        /// Steps in all.
        #[tsify(optional)]
        pub steps_total: Option<u64> = "stepsTotal",
        /// The result (on success).
        #[tsify(optional)]
        pub result: Option<RawJson> = "result",
        /// The error message (on failure).
        #[tsify(optional)]
        pub error: Option<String> = "error",
        /// Execution time in ms.
        #[tsify(optional)]
        pub duration: Option<f64> = "duration",
        /// The result came from a cache.
        #[tsify(optional)]
        pub cached: Option<bool> = "cached",
        /// Retry attempts.
        #[tsify(optional)]
        pub retries: Option<u64> = "retries",
        /// ISO 8601 of `tool-start`.
        #[tsify(optional)]
        pub started_at: Option<String> = "startedAt",
        /// ISO 8601 of `tool-complete`.
        #[tsify(optional)]
        pub ended_at: Option<String> = "endedAt",
    }
}

view_struct! {
    /// An `input-required` request and its state.
    pub struct InputRequest {
        /// `inputId`.
        pub id: String = "id",
        /// The task that asked.
        pub task_id: String = "taskId",
        /// The context.
        pub context_id: String = "contextId",
        /// What kind of input.
        pub input_type: InputType = "inputType",
        /// What is being asked.
        pub prompt: String = "prompt",
        /// `true` when it must reach the user.
        pub require_user: bool = "requireUser",
        /// Who answers first.
        pub routing: Routing = "routing",
        /// JSON Schema of the expected value.
        #[tsify(optional)]
        pub schema: Option<RawJson> = "schema",
        /// Choices (selection / approval).
        #[tsify(optional)]
        pub options: Option<RawJson> = "options",
        /// The tool call this input executes (`metadata.toolCall`).
        #[tsify(optional)]
        pub tool_call: Option<RawJson> = "toolCall",
        /// `low` / `medium` / `high`.
        #[tsify(optional)]
        pub urgency: Option<String> = "urgency",
        /// Seconds to answer (`metadata.timeout`).
        #[tsify(optional)]
        pub timeout: Option<f64> = "timeout",
        /// ISO 8601 of the request.
        pub requested_at: String = "requestedAt",
        /// open / answered / expired.
        pub state: RequestState = "state",
        /// `true` while an answer from this client is in flight: set when `respond` /
        /// `approve` / `deny` / `select` / `answer` is called, cleared when the request is
        /// answered (the server took it) or expires, or when the call failed (the request is
        /// open again and may be answered anew).
        pub sending: bool = "sending",
        /// Who answered.
        #[tsify(optional)]
        pub provided_by: Option<ProvidedBy> = "providedBy",
        /// The user who answered.
        #[tsify(optional)]
        pub user_id: Option<String> = "userId",
        /// The agent (coordinator) who answered.
        #[tsify(optional)]
        pub agent_id: Option<String> = "agentId",
    }
}

view_struct! {
    /// An `auth-required` request and its state (always for the user).
    pub struct AuthRequest {
        /// `authId`.
        pub id: String = "id",
        /// The task that asked.
        pub task_id: String = "taskId",
        /// The context.
        pub context_id: String = "contextId",
        /// The mechanism.
        pub auth_type: AuthType = "authType",
        /// e.g. `github`.
        #[tsify(optional)]
        pub provider: Option<String> = "provider",
        /// Requested scopes.
        pub scopes: Vec<String> = "scopes",
        /// User-facing message.
        pub prompt: String = "prompt",
        /// The URL as sent (open it only when `urlSafe`).
        #[tsify(optional)]
        pub auth_url: Option<String> = "authUrl",
        /// `true` when `authUrl` is `https:` (or `http:` on localhost) and may be opened.
        pub url_safe: bool = "urlSafe",
        /// Seconds until the request expires (`metadata.expiresIn`).
        #[tsify(optional)]
        pub expires_in: Option<f64> = "expiresIn",
        /// ISO 8601 of the request.
        pub requested_at: String = "requestedAt",
        /// open / answered / expired.
        pub state: RequestState = "state",
        /// `true` while `completeAuth` from this client is in flight (cleared when the request
        /// is completed or expires, or when the call failed).
        pub sending: bool = "sending",
        /// The user who authenticated.
        #[tsify(optional)]
        pub user_id: Option<String> = "userId",
        /// When the granted auth expires (ISO 8601).
        #[tsify(optional)]
        pub expires_at: Option<String> = "expiresAt",
    }
}

view_struct! {
    /// One visible thought of the agent.
    pub struct Thought {
        /// `thoughtId`.
        pub id: String = "id",
        /// Category.
        pub thought_type: ThoughtType = "thoughtType",
        /// Granularity.
        pub verbosity: Verbosity = "verbosity",
        /// The thought.
        pub content: String = "content",
        /// Sequence number.
        pub index: u64 = "index",
        /// 0..1.
        #[tsify(optional)]
        pub confidence: Option<f64> = "confidence",
        /// Alternatives considered.
        pub alternatives: Vec<String> = "alternatives",
        /// A related thought or tool call id.
        #[tsify(optional)]
        pub related_to: Option<String> = "relatedTo",
        /// ISO 8601.
        pub timestamp: String = "timestamp",
    }
}

view_struct! {
    /// A task (one agent turn or sub-agent invocation) and everything it produced.
    pub struct Task {
        /// `taskId`.
        pub id: String = "id",
        /// The context (conversation).
        pub context_id: String = "contextId",
        /// The parent task; absent for a root.
        #[tsify(optional)]
        pub parent_id: Option<String> = "parentId",
        /// Child task ids, in creation order.
        pub children: Vec<String> = "children",
        /// Latest status; absent until the first `task-status`.
        #[tsify(optional)]
        pub status: Option<TaskStatus> = "status",
        /// Latest status message.
        #[tsify(optional)]
        pub status_message: Option<String> = "statusMessage",
        /// Status changes, in order (the latest `maxHistoryPerTask`).
        pub history: std::collections::VecDeque<StatusChange> = "history",
        /// Who started it.
        #[tsify(optional)]
        pub initiator: Option<Initiator> = "initiator",
        /// The agent handling it.
        #[tsify(optional)]
        pub agent_id: Option<String> = "agentId",
        /// The model.
        #[tsify(optional)]
        pub model: Option<String> = "model",
        /// What the parent asked (from `subtask-created`).
        #[tsify(optional)]
        pub prompt: Option<String> = "prompt",
        /// The assembled answer text.
        pub content: String = "content",
        /// `true` once `content-complete`/`task-complete` confirmed the text.
        pub content_complete: bool = "contentComplete",
        /// Tool calls, in start order.
        pub tools: Vec<Tool> = "tools",
        /// Input requests, in order.
        pub inputs: Vec<InputRequest> = "inputs",
        /// Auth requests, in order.
        pub auths: Vec<AuthRequest> = "auths",
        /// Conversation messages, in order: the user's (`role: "user"`) and the agent's. AG-UI
        /// and the AI SDK have the whole conversation; A2A, MyAgent and protocol 000 have the
        /// user's message that started the task (`sendMessage`, the `message` option, the
        /// POSTed prompt) and their answer is in `content`.
        pub messages: Vec<super::messages::Message> = "messages",
        /// The agent's shared state document (AG-UI `STATE_SNAPSHOT` / `STATE_DELTA`);
        /// absent until the first snapshot. One document per thread: it moves on to the
        /// thread's next run that changes it (that run starts from it; this one then has none).
        #[tsify(optional)]
        pub shared_state: Option<super::messages::JsonDoc> = "sharedState",
        /// Thoughts, in arrival order (bounded; see limits).
        pub thoughts: std::collections::VecDeque<Thought> = "thoughts",
        /// Artifact ids produced by this task.
        pub artifacts: Vec<String> = "artifacts",
        /// ISO 8601 of `task-created`.
        #[tsify(optional)]
        pub created_at: Option<String> = "createdAt",
        /// ISO 8601 of the latest event.
        #[tsify(optional)]
        pub updated_at: Option<String> = "updatedAt",
        /// Execution time in ms (`task-complete`).
        #[tsify(optional)]
        pub duration: Option<f64> = "duration",
        /// LLM iterations (`task-complete`).
        #[tsify(optional)]
        pub iterations: Option<u64> = "iterations",
        /// Tokens used (`task-complete`).
        #[tsify(optional)]
        pub tokens_used: Option<u64> = "tokensUsed",
        /// Store version of this task's latest change (compare to re-render only what changed).
        pub revision: u64 = "revision",
    }
}

view_struct! {
    /// A data artifact version seen.
    pub struct DataVersion {
        /// `metadata.version`.
        #[tsify(optional)]
        pub version: Option<f64> = "version",
        /// ISO 8601.
        pub timestamp: String = "timestamp",
        /// Whether it was applied (an older version arriving late is not).
        pub applied: bool = "applied",
    }
}

view_struct! {
    /// An artifact's description (contents are read with the artifact getters).
    pub struct Artifact {
        /// `artifactId`.
        pub id: String = "id",
        /// `file`, `data` or `dataset`.
        pub kind: ArtifactKind = "type",
        /// The task that wrote it.
        pub task_id: String = "taskId",
        /// Name.
        #[tsify(optional)]
        pub name: Option<String> = "name",
        /// Description.
        #[tsify(optional)]
        pub description: Option<String> = "description",
        /// The tool call that produced it.
        #[tsify(optional)]
        pub tool_call_id: Option<String> = "toolCallId",
        /// file: MIME type.
        #[tsify(optional)]
        pub mime_type: Option<String> = "mimeType",
        /// file: encoding of the chunks.
        #[tsify(optional)]
        pub encoding: Option<Encoding> = "encoding",
        /// file: bytes assembled so far.
        #[tsify(optional)]
        pub size: Option<u64> = "size",
        /// file: lower-case hex SHA-256 of the bytes, once complete.
        #[tsify(optional)]
        pub sha256: Option<String> = "sha256",
        /// file: expected size (`metadata.totalSize`).
        #[tsify(optional)]
        pub total_size: Option<u64> = "totalSize",
        /// file: where the content lives when the file is given by reference (`metadata.url`
        /// of chunk 0: an A2A file part by URL), instead of or beside its bytes. `http:` and
        /// `https:` URLs only (any other scheme is left out of the state).
        #[tsify(optional)]
        pub url: Option<String> = "url",
        /// file/dataset: the final chunk arrived and nothing is missing.
        #[tsify(optional)]
        pub complete: Option<bool> = "complete",
        /// data: latest applied version.
        #[tsify(optional)]
        pub version: Option<f64> = "version",
        /// data: the record.
        #[tsify(optional)]
        pub data: Option<RawJson> = "data",
        /// data: versions seen, oldest first (the latest 64).
        #[tsify(optional)]
        pub versions: Option<Vec<DataVersion>> = "versions",
        /// dataset: JSON Schema of a row.
        #[tsify(optional)]
        pub schema: Option<RawJson> = "schema",
        /// dataset: rows assembled so far.
        #[tsify(optional)]
        pub row_count: Option<u64> = "rowCount",
        /// dataset: expected rows (`metadata.totalRows`).
        #[tsify(optional)]
        pub total_rows: Option<u64> = "totalRows",
        /// dataset: rows per batch (`metadata.batchSize`).
        #[tsify(optional)]
        pub batch_size: Option<u64> = "batchSize",
        /// Store version of this artifact's latest change.
        pub revision: u64 = "revision",
    }
}

str_enum! {
    /// The three artifact types.
    ArtifactKind { /// Text or binary, streamed in chunks.
    File = "file", /// One structured record, versioned.
    Data = "data", /// Rows streamed in batches.
    Dataset = "dataset", }
}

#[allow(clippy::derivable_impls)]
impl Default for ToolState {
    fn default() -> Self {
        ToolState::Running
    }
}
#[allow(clippy::derivable_impls)]
impl Default for RequestState {
    fn default() -> Self {
        RequestState::Open
    }
}
#[allow(clippy::derivable_impls)]
impl Default for Routing {
    fn default() -> Self {
        Routing::User
    }
}
#[allow(clippy::derivable_impls)]
impl Default for ArtifactKind {
    fn default() -> Self {
        ArtifactKind::File
    }
}
#[allow(clippy::derivable_impls)]
impl Default for InputType {
    fn default() -> Self {
        InputType::Custom
    }
}
#[allow(clippy::derivable_impls)]
impl Default for AuthType {
    fn default() -> Self {
        AuthType::Custom
    }
}
#[allow(clippy::derivable_impls)]
impl Default for TaskStatus {
    fn default() -> Self {
        TaskStatus::Working
    }
}
#[allow(clippy::derivable_impls)]
impl Default for ThoughtType {
    fn default() -> Self {
        ThoughtType::Reasoning
    }
}
#[allow(clippy::derivable_impls)]
impl Default for Verbosity {
    fn default() -> Self {
        Verbosity::Normal
    }
}
