//! The canonical event types (protocol 000, the "Internal Event Protocol"), one struct per kind.
//!
//! Field names and optionality follow the protocol document; TypeScript declarations are
//! generated from these definitions (see `tests/ts_decl.rs`).

use super::field::{str_enum, JsonObject, Str};
use super::macros::canonical_events;
use crate::json::Value;

str_enum! {
    /// A task's lifecycle state.
    TaskStatus {
        /// The agent is processing.
        Working = "working",
        /// Waiting for input (user or coordinator).
        WaitingInput = "waiting-input",
        /// Waiting for authentication.
        WaitingAuth = "waiting-auth",
        /// Waiting for a subtask.
        WaitingSubtask = "waiting-subtask",
        /// Finished successfully (terminal).
        Completed = "completed",
        /// Failed (terminal).
        Failed = "failed",
        /// Canceled by the user or system (terminal).
        Canceled = "canceled",
    }
}

impl TaskStatus {
    /// Completed, failed and canceled are terminal: no further content may follow.
    pub fn is_terminal(self) -> bool {
        matches!(
            self,
            TaskStatus::Completed | TaskStatus::Failed | TaskStatus::Canceled
        )
    }
}

str_enum! {
    /// Who started a task.
    Initiator { /// A user message.
    User = "user", /// An agent (sub-agent invocation).
    Agent = "agent", }
}

str_enum! {
    /// What kind of input an `input-required` asks for.
    InputType {
        /// Run a client-side tool.
        ToolExecution = "tool-execution",
        /// Yes/no approval.
        Confirmation = "confirmation",
        /// Free-text clarification.
        Clarification = "clarification",
        /// Pick one of `options`.
        Selection = "selection",
        /// Anything else (see `schema`).
        Custom = "custom",
    }
}

str_enum! {
    /// Who answered an input request.
    ProvidedBy { /// The user.
    User = "user", /// An agent (coordinator).
    Agent = "agent", }
}

str_enum! {
    /// The authentication mechanism requested.
    AuthType {
        /// OAuth 2 redirect flow.
        Oauth2 = "oauth2",
        /// An API key.
        ApiKey = "api-key",
        /// A password.
        Password = "password",
        /// A biometric check.
        Biometric = "biometric",
        /// Anything else.
        Custom = "custom",
    }
}

str_enum! {
    /// How a file artifact's `data` chunks are encoded.
    Encoding { /// Text.
    Utf8 = "utf-8", /// Binary, base64.
    Base64 = "base64", }
}

str_enum! {
    /// The category of a thought.
    ThoughtType {
        /// Planning next steps.
        Planning = "planning",
        /// Reasoning about information.
        Reasoning = "reasoning",
        /// Reflecting on progress.
        Reflection = "reflection",
        /// Making a decision.
        Decision = "decision",
        /// Noticing something.
        Observation = "observation",
        /// Adjusting strategy.
        Strategy = "strategy",
    }
}

str_enum! {
    /// Granularity of a thought; ordered brief < normal < detailed.
    Verbosity { /// High-level summary.
    Brief = "brief", /// Standard reasoning.
    Normal = "normal", /// Comprehensive reasoning.
    Detailed = "detailed", }
}

str_enum! {
    /// Where in the agent loop an `internal:thought-process` was taken.
    ThoughtStage { /// Before the LLM call.
    PreLlm = "pre-llm", /// After the LLM call.
    PostLlm = "post-llm", /// Before a tool.
    PreTool = "pre-tool", /// After a tool.
    PostTool = "post-tool", }
}

canonical_events! {
    /// A new task began (user message or sub-agent invocation).
    TaskCreated = "task-created" {
        /// The conversation/session.
        context_id: Str<'a> = "contextId",
        /// The task.
        task_id: Str<'a> = "taskId",
        /// The parent task, when this is a subtask.
        #[tsify(optional)]
        parent_task_id: Option<Str<'a>> = "parentTaskId",
        /// Who started it.
        initiator: Initiator = "initiator",
        /// ISO 8601.
        timestamp: Str<'a> = "timestamp",
        /// `agentId`, `model`, and anything else.
        #[tsify(optional)]
        metadata: Option<JsonObject<'a>> = "metadata",
    }

    /// A task's status changed.
    TaskStatusEvent = "task-status" {
        /// The conversation/session.
        context_id: Str<'a> = "contextId",
        /// The task.
        task_id: Str<'a> = "taskId",
        /// The new status.
        status: TaskStatus = "status",
        /// Human-readable status message.
        #[tsify(optional)]
        message: Option<Str<'a>> = "message",
        /// ISO 8601.
        timestamp: Str<'a> = "timestamp",
        /// `reason` (failed/canceled), `blockedBy` (waiting-*), and anything else.
        #[tsify(optional)]
        metadata: Option<JsonObject<'a>> = "metadata",
    }

    /// A task finished, with its final text.
    TaskComplete = "task-complete" {
        /// The conversation/session.
        context_id: Str<'a> = "contextId",
        /// The task.
        task_id: Str<'a> = "taskId",
        /// The final text response (wins over the assembled deltas).
        #[tsify(optional)]
        content: Option<Str<'a>> = "content",
        /// Ids of the artifacts the task created.
        #[tsify(optional)]
        artifacts: Option<Vec<Str<'a>>> = "artifacts",
        /// ISO 8601.
        timestamp: Str<'a> = "timestamp",
        /// `duration` (ms), `iterations`, `tokensUsed`, and anything else.
        #[tsify(optional)]
        metadata: Option<JsonObject<'a>> = "metadata",
    }

    /// A piece of streamed answer text.
    ContentDelta = "content-delta" {
        /// The conversation/session.
        context_id: Str<'a> = "contextId",
        /// The task.
        task_id: Str<'a> = "taskId",
        /// Text to append.
        delta: Str<'a> = "delta",
        /// Chunk sequence number, 0-based.
        index: u64 = "index",
        /// ISO 8601.
        timestamp: Str<'a> = "timestamp",
    }

    /// The streamed answer is finished; `content` is the full text.
    ContentComplete = "content-complete" {
        /// The conversation/session.
        context_id: Str<'a> = "contextId",
        /// The task.
        task_id: Str<'a> = "taskId",
        /// The full assembled content.
        content: Str<'a> = "content",
        /// ISO 8601.
        timestamp: Str<'a> = "timestamp",
    }

    /// A tool call began.
    ToolStart = "tool-start" {
        /// The conversation/session.
        context_id: Str<'a> = "contextId",
        /// The task.
        task_id: Str<'a> = "taskId",
        /// Unique id of this tool invocation.
        tool_call_id: Str<'a> = "toolCallId",
        /// The tool's name.
        tool_name: Str<'a> = "toolName",
        /// The call's arguments.
        arguments: JsonObject<'a> = "arguments",
        /// ISO 8601.
        timestamp: Str<'a> = "timestamp",
        /// `provider`, `concurrent`, and anything else.
        #[tsify(optional)]
        metadata: Option<JsonObject<'a>> = "metadata",
    }

    /// Progress of a long-running tool call.
    ToolProgress = "tool-progress" {
        /// The conversation/session.
        context_id: Str<'a> = "contextId",
        /// The task.
        task_id: Str<'a> = "taskId",
        /// The tool invocation.
        tool_call_id: Str<'a> = "toolCallId",
        /// 0.0 to 1.0.
        progress: f64 = "progress",
        /// Progress description.
        #[tsify(optional)]
        message: Option<Str<'a>> = "message",
        /// ISO 8601.
        timestamp: Str<'a> = "timestamp",
        /// `step`, `stepsCompleted`, `stepsTotal`, and anything else.
        #[tsify(optional)]
        metadata: Option<JsonObject<'a>> = "metadata",
    }

    /// A tool call finished.
    ToolComplete = "tool-complete" {
        /// The conversation/session.
        context_id: Str<'a> = "contextId",
        /// The task.
        task_id: Str<'a> = "taskId",
        /// The tool invocation.
        tool_call_id: Str<'a> = "toolCallId",
        /// The tool's name.
        tool_name: Str<'a> = "toolName",
        /// Whether it succeeded.
        success: bool = "success",
        /// The result data.
        #[tsify(optional, type = "unknown")]
        result: Option<Value<'a>> = "result",
        /// The error message when it failed.
        #[tsify(optional)]
        error: Option<Str<'a>> = "error",
        /// ISO 8601.
        timestamp: Str<'a> = "timestamp",
        /// `duration` (ms), `cached`, `retries`, and anything else.
        #[tsify(optional)]
        metadata: Option<JsonObject<'a>> = "metadata",
    }

    /// The agent needs input to continue.
    InputRequired = "input-required" {
        /// The conversation/session.
        context_id: Str<'a> = "contextId",
        /// The task.
        task_id: Str<'a> = "taskId",
        /// Unique id of this request.
        input_id: Str<'a> = "inputId",
        /// `true`: must reach the user; otherwise a coordinator may answer first.
        #[tsify(optional)]
        require_user: Option<bool> = "requireUser",
        /// What kind of input.
        input_type: InputType = "inputType",
        /// What is being requested.
        prompt: Str<'a> = "prompt",
        /// JSON Schema of the expected value.
        #[tsify(optional, type = "unknown")]
        schema: Option<Value<'a>> = "schema",
        /// Choices (selection).
        #[tsify(optional, type = "unknown[]")]
        options: Option<Vec<Value<'a>>> = "options",
        /// ISO 8601.
        timestamp: Str<'a> = "timestamp",
        /// `toolCall`, `urgency`, `timeout` (seconds), and anything else.
        #[tsify(optional)]
        metadata: Option<JsonObject<'a>> = "metadata",
    }

    /// An input request was answered.
    InputReceived = "input-received" {
        /// The conversation/session.
        context_id: Str<'a> = "contextId",
        /// The task.
        task_id: Str<'a> = "taskId",
        /// The request answered.
        input_id: Str<'a> = "inputId",
        /// Who answered.
        provided_by: ProvidedBy = "providedBy",
        /// The user, when a user answered.
        #[tsify(optional)]
        user_id: Option<Str<'a>> = "userId",
        /// The agent, when a coordinator answered.
        #[tsify(optional)]
        agent_id: Option<Str<'a>> = "agentId",
        /// ISO 8601.
        timestamp: Str<'a> = "timestamp",
        /// `duration` (ms), and anything else.
        #[tsify(optional)]
        metadata: Option<JsonObject<'a>> = "metadata",
    }

    /// Authentication is needed (always for the user).
    AuthRequired = "auth-required" {
        /// The conversation/session.
        context_id: Str<'a> = "contextId",
        /// The task.
        task_id: Str<'a> = "taskId",
        /// Unique id of this auth request.
        auth_id: Str<'a> = "authId",
        /// The mechanism.
        auth_type: AuthType = "authType",
        /// e.g. `google`, `github`.
        #[tsify(optional)]
        provider: Option<Str<'a>> = "provider",
        /// Requested scopes.
        #[tsify(optional)]
        scopes: Option<Vec<Str<'a>>> = "scopes",
        /// User-facing message.
        prompt: Str<'a> = "prompt",
        /// Where to authenticate (only `https:`, or `http:` on localhost, is ever opened).
        #[tsify(optional)]
        auth_url: Option<Str<'a>> = "authUrl",
        /// ISO 8601.
        timestamp: Str<'a> = "timestamp",
        /// `expiresIn` (seconds), and anything else.
        #[tsify(optional)]
        metadata: Option<JsonObject<'a>> = "metadata",
    }

    /// Authentication succeeded.
    AuthCompleted = "auth-completed" {
        /// The conversation/session.
        context_id: Str<'a> = "contextId",
        /// The task.
        task_id: Str<'a> = "taskId",
        /// The auth request answered.
        auth_id: Str<'a> = "authId",
        /// The user who authenticated.
        user_id: Str<'a> = "userId",
        /// ISO 8601.
        timestamp: Str<'a> = "timestamp",
        /// `expiresAt`, and anything else.
        #[tsify(optional)]
        metadata: Option<JsonObject<'a>> = "metadata",
    }

    /// A chunk of a file artifact (metadata on chunk 0).
    FileWrite = "file-write" {
        /// The conversation/session.
        context_id: Str<'a> = "contextId",
        /// The task.
        task_id: Str<'a> = "taskId",
        /// The artifact.
        artifact_id: Str<'a> = "artifactId",
        /// Text, or base64 when `encoding` is `base64`.
        data: Str<'a> = "data",
        /// Chunk sequence, 0-based.
        index: u64 = "index",
        /// `true` on the final chunk.
        complete: bool = "complete",
        /// ISO 8601.
        timestamp: Str<'a> = "timestamp",
        /// File name (first chunk only).
        #[tsify(optional)]
        name: Option<Str<'a>> = "name",
        /// Description (first chunk only).
        #[tsify(optional)]
        description: Option<Str<'a>> = "description",
        /// MIME type (first chunk only).
        #[tsify(optional)]
        mime_type: Option<Str<'a>> = "mimeType",
        /// Data encoding (first chunk only; default utf-8).
        #[tsify(optional)]
        encoding: Option<Encoding> = "encoding",
        /// `toolCallId`, `totalSize` (bytes), and anything else.
        #[tsify(optional)]
        metadata: Option<JsonObject<'a>> = "metadata",
    }

    /// A data artifact written whole (create or update; `metadata.version` orders updates).
    DataWrite = "data-write" {
        /// The conversation/session.
        context_id: Str<'a> = "contextId",
        /// The task.
        task_id: Str<'a> = "taskId",
        /// The artifact.
        artifact_id: Str<'a> = "artifactId",
        /// Artifact name.
        #[tsify(optional)]
        name: Option<Str<'a>> = "name",
        /// Description.
        #[tsify(optional)]
        description: Option<Str<'a>> = "description",
        /// The complete record.
        data: JsonObject<'a> = "data",
        /// ISO 8601.
        timestamp: Str<'a> = "timestamp",
        /// `toolCallId`, `version`, and anything else.
        #[tsify(optional)]
        metadata: Option<JsonObject<'a>> = "metadata",
    }

    /// A batch of dataset rows (metadata and schema on batch 0).
    DatasetWrite = "dataset-write" {
        /// The conversation/session.
        context_id: Str<'a> = "contextId",
        /// The task.
        task_id: Str<'a> = "taskId",
        /// The artifact.
        artifact_id: Str<'a> = "artifactId",
        /// The rows of this batch.
        rows: Vec<JsonObject<'a>> = "rows",
        /// Batch sequence, 0-based.
        index: u64 = "index",
        /// `true` on the final batch.
        complete: bool = "complete",
        /// ISO 8601.
        timestamp: Str<'a> = "timestamp",
        /// Dataset name (first batch only).
        #[tsify(optional)]
        name: Option<Str<'a>> = "name",
        /// Description (first batch only).
        #[tsify(optional)]
        description: Option<Str<'a>> = "description",
        /// JSON Schema of a row (first batch only).
        #[tsify(optional, type = "unknown")]
        schema: Option<Value<'a>> = "schema",
        /// `toolCallId`, `totalRows`, `batchSize`, and anything else.
        #[tsify(optional)]
        metadata: Option<JsonObject<'a>> = "metadata",
    }

    /// A sub-agent was invoked: `subtaskId` is a new child of `taskId`.
    SubtaskCreated = "subtask-created" {
        /// The conversation/session.
        context_id: Str<'a> = "contextId",
        /// The parent task.
        task_id: Str<'a> = "taskId",
        /// The new subtask.
        subtask_id: Str<'a> = "subtaskId",
        /// Which sub-agent.
        #[tsify(optional)]
        agent_id: Option<Str<'a>> = "agentId",
        /// What was requested.
        prompt: Str<'a> = "prompt",
        /// ISO 8601.
        timestamp: Str<'a> = "timestamp",
    }

    /// One step of the agent's visible reasoning.
    ThoughtStream = "thought-stream" {
        /// The conversation/session.
        context_id: Str<'a> = "contextId",
        /// The task.
        task_id: Str<'a> = "taskId",
        /// Unique id of this thought.
        thought_id: Str<'a> = "thoughtId",
        /// Category.
        thought_type: ThoughtType = "thoughtType",
        /// Granularity.
        verbosity: Verbosity = "verbosity",
        /// The thought.
        content: Str<'a> = "content",
        /// Sequence number, 0-based.
        index: u64 = "index",
        /// ISO 8601.
        timestamp: Str<'a> = "timestamp",
        /// `confidence` (0..1), `alternatives`, `relatedTo`, and anything else.
        #[tsify(optional)]
        metadata: Option<JsonObject<'a>> = "metadata",
    }

    /// Internal (debug) reasoning of the agent loop; not shown to users by default.
    InternalThoughtProcess = "internal:thought-process" {
        /// The conversation/session.
        context_id: Str<'a> = "contextId",
        /// The task.
        task_id: Str<'a> = "taskId",
        /// Loop iteration.
        iteration: u64 = "iteration",
        /// Where in the loop.
        stage: ThoughtStage = "stage",
        /// Internal reasoning.
        reasoning: Str<'a> = "reasoning",
        /// Execution state.
        state: JsonObject<'a> = "state",
        /// ISO 8601.
        timestamp: Str<'a> = "timestamp",
    }

    /// Internal: an LLM call started.
    InternalLlmCall = "internal:llm-call" {
        /// The conversation/session.
        context_id: Str<'a> = "contextId",
        /// The task.
        task_id: Str<'a> = "taskId",
        /// Loop iteration.
        iteration: u64 = "iteration",
        /// The model.
        #[tsify(optional)]
        model: Option<Str<'a>> = "model",
        /// Messages sent.
        #[tsify(optional)]
        message_count: Option<u64> = "messageCount",
        /// Tools offered.
        #[tsify(optional)]
        tool_count: Option<u64> = "toolCount",
        /// ISO 8601.
        timestamp: Str<'a> = "timestamp",
    }

    /// Internal: a state checkpoint was saved.
    InternalCheckpoint = "internal:checkpoint" {
        /// The conversation/session.
        context_id: Str<'a> = "contextId",
        /// The task.
        task_id: Str<'a> = "taskId",
        /// Loop iteration.
        iteration: u64 = "iteration",
        /// ISO 8601.
        timestamp: Str<'a> = "timestamp",
    }

    /// Internal: a tool started (observability twin of `tool-start`, from the A2A alignment).
    InternalToolStart = "internal:tool-start" {
        /// The conversation/session (absent in the A2A alignment's shape).
        #[tsify(optional)]
        context_id: Option<Str<'a>> = "contextId",
        /// The task.
        task_id: Str<'a> = "taskId",
        /// The tool's name.
        tool_name: Str<'a> = "toolName",
        /// The tool invocation.
        tool_call_id: Str<'a> = "toolCallId",
        /// ISO 8601.
        timestamp: Str<'a> = "timestamp",
    }

    /// Internal: a tool finished (observability twin of `tool-complete`).
    InternalToolComplete = "internal:tool-complete" {
        /// The conversation/session (absent in the A2A alignment's shape).
        #[tsify(optional)]
        context_id: Option<Str<'a>> = "contextId",
        /// The task.
        task_id: Str<'a> = "taskId",
        /// The tool invocation.
        tool_call_id: Str<'a> = "toolCallId",
        /// Whether it succeeded.
        success: bool = "success",
        /// ISO 8601.
        timestamp: Str<'a> = "timestamp",
    }
}

/// An event of a kind this version does not know: delivered whole, never dropped.
#[derive(tsify::Tsify, Debug, Clone, PartialEq)]
pub struct UnknownEvent<'a> {
    /// The event's own `kind` string.
    #[serde(rename = "unknownKind")]
    pub unknown_kind: Str<'a>,
    /// Its `contextId`, when it has a string one.
    #[serde(rename = "contextId")]
    #[tsify(optional)]
    pub context_id: Option<Str<'a>>,
    /// Its `taskId`, when it has a string one.
    #[serde(rename = "taskId")]
    #[tsify(optional)]
    pub task_id: Option<Str<'a>>,
    /// The whole event object as received.
    #[tsify(type = "Record<string, unknown>")]
    pub data: Value<'a>,
}

impl UnknownEvent<'_> {
    /// Appends `{"kind":"unknown","unknownKind":…,"contextId":…,"taskId":…,"data":{…}}`.
    pub fn write_json(&self, out: &mut String) {
        use crate::json::write_str;
        out.push_str("{\"kind\":\"unknown\",\"unknownKind\":");
        write_str(out, &self.unknown_kind);
        if let Some(c) = &self.context_id {
            out.push_str(",\"contextId\":");
            write_str(out, c);
        }
        if let Some(t) = &self.task_id {
            out.push_str(",\"taskId\":");
            write_str(out, t);
        }
        out.push_str(",\"data\":");
        self.data.write(out);
        out.push('}');
    }
}
