//! The canonical event types (protocol 000, the "Internal Event Protocol"), one struct per kind.
//!
//! Field names and optionality follow the protocol document; TypeScript declarations are
//! generated from these definitions (see `tests/ts_decl.rs`).

use super::field::{str_enum, JsonObject};
use super::macros::canonical_events;
use crate::json::Value;
use std::borrow::Cow;

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
        context_id: Cow<'a, str> = "contextId",
        /// The task.
        task_id: Cow<'a, str> = "taskId",
        /// The parent task, when this is a subtask.
        #[tsify(optional)]
        parent_task_id: Option<Cow<'a, str>> = "parentTaskId",
        /// Who started it.
        initiator: Initiator = "initiator",
        /// ISO 8601.
        timestamp: Cow<'a, str> = "timestamp",
        /// `agentId`, `model`, and anything else.
        #[tsify(optional)]
        metadata: Option<JsonObject<'a>> = "metadata",
    }

    /// A task's status changed.
    TaskStatusEvent = "task-status" {
        /// The conversation/session.
        context_id: Cow<'a, str> = "contextId",
        /// The task.
        task_id: Cow<'a, str> = "taskId",
        /// The new status.
        status: TaskStatus = "status",
        /// Human-readable status message.
        #[tsify(optional)]
        message: Option<Cow<'a, str>> = "message",
        /// ISO 8601.
        timestamp: Cow<'a, str> = "timestamp",
        /// `reason` (failed/canceled), `blockedBy` (waiting-*), and anything else.
        #[tsify(optional)]
        metadata: Option<JsonObject<'a>> = "metadata",
    }

    /// A task finished, with its final text.
    TaskComplete = "task-complete" {
        /// The conversation/session.
        context_id: Cow<'a, str> = "contextId",
        /// The task.
        task_id: Cow<'a, str> = "taskId",
        /// The final text response (wins over the assembled deltas).
        #[tsify(optional)]
        content: Option<Cow<'a, str>> = "content",
        /// Ids of the artifacts the task created.
        #[tsify(optional)]
        artifacts: Option<Vec<Cow<'a, str>>> = "artifacts",
        /// ISO 8601.
        timestamp: Cow<'a, str> = "timestamp",
        /// `duration` (ms), `iterations`, `tokensUsed`, and anything else.
        #[tsify(optional)]
        metadata: Option<JsonObject<'a>> = "metadata",
    }

    /// A piece of streamed answer text.
    ContentDelta = "content-delta" {
        /// The conversation/session.
        context_id: Cow<'a, str> = "contextId",
        /// The task.
        task_id: Cow<'a, str> = "taskId",
        /// Text to append.
        delta: Cow<'a, str> = "delta",
        /// Chunk sequence number, 0-based.
        index: u64 = "index",
        /// ISO 8601.
        timestamp: Cow<'a, str> = "timestamp",
    }

    /// The streamed answer is finished; `content` is the full text.
    ContentComplete = "content-complete" {
        /// The conversation/session.
        context_id: Cow<'a, str> = "contextId",
        /// The task.
        task_id: Cow<'a, str> = "taskId",
        /// The full assembled content.
        content: Cow<'a, str> = "content",
        /// ISO 8601.
        timestamp: Cow<'a, str> = "timestamp",
    }

    /// A tool call began.
    ToolStart = "tool-start" {
        /// The conversation/session.
        context_id: Cow<'a, str> = "contextId",
        /// The task.
        task_id: Cow<'a, str> = "taskId",
        /// Unique id of this tool invocation.
        tool_call_id: Cow<'a, str> = "toolCallId",
        /// The tool's name.
        tool_name: Cow<'a, str> = "toolName",
        /// The call's arguments.
        arguments: JsonObject<'a> = "arguments",
        /// ISO 8601.
        timestamp: Cow<'a, str> = "timestamp",
        /// `provider`, `concurrent`, and anything else.
        #[tsify(optional)]
        metadata: Option<JsonObject<'a>> = "metadata",
    }

    /// Progress of a long-running tool call.
    ToolProgress = "tool-progress" {
        /// The conversation/session.
        context_id: Cow<'a, str> = "contextId",
        /// The task.
        task_id: Cow<'a, str> = "taskId",
        /// The tool invocation.
        tool_call_id: Cow<'a, str> = "toolCallId",
        /// 0.0 to 1.0.
        progress: f64 = "progress",
        /// Progress description.
        #[tsify(optional)]
        message: Option<Cow<'a, str>> = "message",
        /// ISO 8601.
        timestamp: Cow<'a, str> = "timestamp",
        /// `step`, `stepsCompleted`, `stepsTotal`, and anything else.
        #[tsify(optional)]
        metadata: Option<JsonObject<'a>> = "metadata",
    }

    /// A tool call finished.
    ToolComplete = "tool-complete" {
        /// The conversation/session.
        context_id: Cow<'a, str> = "contextId",
        /// The task.
        task_id: Cow<'a, str> = "taskId",
        /// The tool invocation.
        tool_call_id: Cow<'a, str> = "toolCallId",
        /// The tool's name.
        tool_name: Cow<'a, str> = "toolName",
        /// Whether it succeeded.
        success: bool = "success",
        /// The result data.
        #[tsify(optional, type = "unknown")]
        result: Option<Value<'a>> = "result",
        /// The error message when it failed.
        #[tsify(optional)]
        error: Option<Cow<'a, str>> = "error",
        /// ISO 8601.
        timestamp: Cow<'a, str> = "timestamp",
        /// `duration` (ms), `cached`, `retries`, and anything else.
        #[tsify(optional)]
        metadata: Option<JsonObject<'a>> = "metadata",
    }

    /// The agent needs input to continue.
    InputRequired = "input-required" {
        /// The conversation/session.
        context_id: Cow<'a, str> = "contextId",
        /// The task.
        task_id: Cow<'a, str> = "taskId",
        /// Unique id of this request.
        input_id: Cow<'a, str> = "inputId",
        /// `true`: must reach the user; otherwise a coordinator may answer first.
        #[tsify(optional)]
        require_user: Option<bool> = "requireUser",
        /// What kind of input.
        input_type: InputType = "inputType",
        /// What is being requested.
        prompt: Cow<'a, str> = "prompt",
        /// JSON Schema of the expected value.
        #[tsify(optional, type = "unknown")]
        schema: Option<Value<'a>> = "schema",
        /// Choices (selection).
        #[tsify(optional, type = "unknown[]")]
        options: Option<Vec<Value<'a>>> = "options",
        /// ISO 8601.
        timestamp: Cow<'a, str> = "timestamp",
        /// `toolCall`, `urgency`, `timeout` (seconds), and anything else.
        #[tsify(optional)]
        metadata: Option<JsonObject<'a>> = "metadata",
    }

    /// An input request was answered.
    InputReceived = "input-received" {
        /// The conversation/session.
        context_id: Cow<'a, str> = "contextId",
        /// The task.
        task_id: Cow<'a, str> = "taskId",
        /// The request answered.
        input_id: Cow<'a, str> = "inputId",
        /// Who answered.
        provided_by: ProvidedBy = "providedBy",
        /// The user, when a user answered.
        #[tsify(optional)]
        user_id: Option<Cow<'a, str>> = "userId",
        /// The agent, when a coordinator answered.
        #[tsify(optional)]
        agent_id: Option<Cow<'a, str>> = "agentId",
        /// ISO 8601.
        timestamp: Cow<'a, str> = "timestamp",
        /// `duration` (ms), and anything else.
        #[tsify(optional)]
        metadata: Option<JsonObject<'a>> = "metadata",
    }

    /// Authentication is needed (always for the user).
    AuthRequired = "auth-required" {
        /// The conversation/session.
        context_id: Cow<'a, str> = "contextId",
        /// The task.
        task_id: Cow<'a, str> = "taskId",
        /// Unique id of this auth request.
        auth_id: Cow<'a, str> = "authId",
        /// The mechanism.
        auth_type: AuthType = "authType",
        /// e.g. `google`, `github`.
        #[tsify(optional)]
        provider: Option<Cow<'a, str>> = "provider",
        /// Requested scopes.
        #[tsify(optional)]
        scopes: Option<Vec<Cow<'a, str>>> = "scopes",
        /// User-facing message.
        prompt: Cow<'a, str> = "prompt",
        /// Where to authenticate (only `https:`, or `http:` on localhost, is ever opened).
        #[tsify(optional)]
        auth_url: Option<Cow<'a, str>> = "authUrl",
        /// ISO 8601.
        timestamp: Cow<'a, str> = "timestamp",
        /// `expiresIn` (seconds), and anything else.
        #[tsify(optional)]
        metadata: Option<JsonObject<'a>> = "metadata",
    }

    /// Authentication succeeded.
    AuthCompleted = "auth-completed" {
        /// The conversation/session.
        context_id: Cow<'a, str> = "contextId",
        /// The task.
        task_id: Cow<'a, str> = "taskId",
        /// The auth request answered.
        auth_id: Cow<'a, str> = "authId",
        /// The user who authenticated.
        user_id: Cow<'a, str> = "userId",
        /// ISO 8601.
        timestamp: Cow<'a, str> = "timestamp",
        /// `expiresAt`, and anything else.
        #[tsify(optional)]
        metadata: Option<JsonObject<'a>> = "metadata",
    }

    /// A chunk of a file artifact (metadata on chunk 0).
    FileWrite = "file-write" {
        /// The conversation/session.
        context_id: Cow<'a, str> = "contextId",
        /// The task.
        task_id: Cow<'a, str> = "taskId",
        /// The artifact.
        artifact_id: Cow<'a, str> = "artifactId",
        /// Text, or base64 when `encoding` is `base64`.
        data: Cow<'a, str> = "data",
        /// Chunk sequence, 0-based.
        index: u64 = "index",
        /// `true` on the final chunk.
        complete: bool = "complete",
        /// ISO 8601.
        timestamp: Cow<'a, str> = "timestamp",
        /// File name (first chunk only).
        #[tsify(optional)]
        name: Option<Cow<'a, str>> = "name",
        /// Description (first chunk only).
        #[tsify(optional)]
        description: Option<Cow<'a, str>> = "description",
        /// MIME type (first chunk only).
        #[tsify(optional)]
        mime_type: Option<Cow<'a, str>> = "mimeType",
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
        context_id: Cow<'a, str> = "contextId",
        /// The task.
        task_id: Cow<'a, str> = "taskId",
        /// The artifact.
        artifact_id: Cow<'a, str> = "artifactId",
        /// Artifact name.
        #[tsify(optional)]
        name: Option<Cow<'a, str>> = "name",
        /// Description.
        #[tsify(optional)]
        description: Option<Cow<'a, str>> = "description",
        /// The complete record.
        data: JsonObject<'a> = "data",
        /// ISO 8601.
        timestamp: Cow<'a, str> = "timestamp",
        /// `toolCallId`, `version`, and anything else.
        #[tsify(optional)]
        metadata: Option<JsonObject<'a>> = "metadata",
    }

    /// A batch of dataset rows (metadata and schema on batch 0).
    DatasetWrite = "dataset-write" {
        /// The conversation/session.
        context_id: Cow<'a, str> = "contextId",
        /// The task.
        task_id: Cow<'a, str> = "taskId",
        /// The artifact.
        artifact_id: Cow<'a, str> = "artifactId",
        /// The rows of this batch.
        rows: Vec<JsonObject<'a>> = "rows",
        /// Batch sequence, 0-based.
        index: u64 = "index",
        /// `true` on the final batch.
        complete: bool = "complete",
        /// ISO 8601.
        timestamp: Cow<'a, str> = "timestamp",
        /// Dataset name (first batch only).
        #[tsify(optional)]
        name: Option<Cow<'a, str>> = "name",
        /// Description (first batch only).
        #[tsify(optional)]
        description: Option<Cow<'a, str>> = "description",
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
        context_id: Cow<'a, str> = "contextId",
        /// The parent task.
        task_id: Cow<'a, str> = "taskId",
        /// The new subtask.
        subtask_id: Cow<'a, str> = "subtaskId",
        /// Which sub-agent.
        #[tsify(optional)]
        agent_id: Option<Cow<'a, str>> = "agentId",
        /// What was requested.
        prompt: Cow<'a, str> = "prompt",
        /// ISO 8601.
        timestamp: Cow<'a, str> = "timestamp",
    }

    /// One step of the agent's visible reasoning.
    ThoughtStream = "thought-stream" {
        /// The conversation/session.
        context_id: Cow<'a, str> = "contextId",
        /// The task.
        task_id: Cow<'a, str> = "taskId",
        /// Unique id of this thought.
        thought_id: Cow<'a, str> = "thoughtId",
        /// Category.
        thought_type: ThoughtType = "thoughtType",
        /// Granularity.
        verbosity: Verbosity = "verbosity",
        /// The thought.
        content: Cow<'a, str> = "content",
        /// Sequence number, 0-based.
        index: u64 = "index",
        /// ISO 8601.
        timestamp: Cow<'a, str> = "timestamp",
        /// `confidence` (0..1), `alternatives`, `relatedTo`, and anything else.
        #[tsify(optional)]
        metadata: Option<JsonObject<'a>> = "metadata",
    }

    /// Internal (debug) reasoning of the agent loop; not shown to users by default.
    InternalThoughtProcess = "internal:thought-process" {
        /// The conversation/session.
        context_id: Cow<'a, str> = "contextId",
        /// The task.
        task_id: Cow<'a, str> = "taskId",
        /// Loop iteration.
        iteration: u64 = "iteration",
        /// Where in the loop.
        stage: ThoughtStage = "stage",
        /// Internal reasoning.
        reasoning: Cow<'a, str> = "reasoning",
        /// Execution state.
        state: JsonObject<'a> = "state",
        /// ISO 8601.
        timestamp: Cow<'a, str> = "timestamp",
    }

    /// Internal: an LLM call started.
    InternalLlmCall = "internal:llm-call" {
        /// The conversation/session.
        context_id: Cow<'a, str> = "contextId",
        /// The task.
        task_id: Cow<'a, str> = "taskId",
        /// Loop iteration.
        iteration: u64 = "iteration",
        /// The model.
        #[tsify(optional)]
        model: Option<Cow<'a, str>> = "model",
        /// Messages sent.
        #[tsify(optional)]
        message_count: Option<u64> = "messageCount",
        /// Tools offered.
        #[tsify(optional)]
        tool_count: Option<u64> = "toolCount",
        /// ISO 8601.
        timestamp: Cow<'a, str> = "timestamp",
    }

    /// Internal: a state checkpoint was saved.
    InternalCheckpoint = "internal:checkpoint" {
        /// The conversation/session.
        context_id: Cow<'a, str> = "contextId",
        /// The task.
        task_id: Cow<'a, str> = "taskId",
        /// Loop iteration.
        iteration: u64 = "iteration",
        /// ISO 8601.
        timestamp: Cow<'a, str> = "timestamp",
    }

    /// Internal: a tool started (observability twin of `tool-start`, from the A2A alignment).
    InternalToolStart = "internal:tool-start" {
        /// The conversation/session (absent in the A2A alignment's shape).
        #[tsify(optional)]
        context_id: Option<Cow<'a, str>> = "contextId",
        /// The task.
        task_id: Cow<'a, str> = "taskId",
        /// The tool's name.
        tool_name: Cow<'a, str> = "toolName",
        /// The tool invocation.
        tool_call_id: Cow<'a, str> = "toolCallId",
        /// ISO 8601.
        timestamp: Cow<'a, str> = "timestamp",
    }

    /// Internal: a tool finished (observability twin of `tool-complete`).
    InternalToolComplete = "internal:tool-complete" {
        /// The conversation/session (absent in the A2A alignment's shape).
        #[tsify(optional)]
        context_id: Option<Cow<'a, str>> = "contextId",
        /// The task.
        task_id: Cow<'a, str> = "taskId",
        /// The tool invocation.
        tool_call_id: Cow<'a, str> = "toolCallId",
        /// Whether it succeeded.
        success: bool = "success",
        /// ISO 8601.
        timestamp: Cow<'a, str> = "timestamp",
    }
}

/// An event of a kind this version does not know: delivered whole, never dropped.
#[derive(tsify::Tsify, Debug, Clone, PartialEq)]
pub struct UnknownEvent<'a> {
    /// The event's own `kind` string.
    #[serde(rename = "unknownKind")]
    pub unknown_kind: Cow<'a, str>,
    /// Its `contextId`, when it has a string one.
    #[serde(rename = "contextId")]
    #[tsify(optional)]
    pub context_id: Option<Cow<'a, str>>,
    /// Its `taskId`, when it has a string one.
    #[serde(rename = "taskId")]
    #[tsify(optional)]
    pub task_id: Option<Cow<'a, str>>,
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
