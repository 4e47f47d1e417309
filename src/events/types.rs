//! The canonical event types (protocol 000, the "Internal Event Protocol"), one struct per kind.
//!
//! Field names and optionality follow the protocol document; TypeScript declarations are
//! generated from these definitions (see `tests/ts_decl.rs`).

pub use super::enums::*;
use super::field::JsonObject;
use super::macros::canonical_events;
use crate::json::Value;
use std::borrow::Cow;

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

    /// A conversation message begins (agentwire's message model: AG-UI, the AI SDK).
    MessageStart = "message-start" {
        /// The conversation/session.
        context_id: Cow<'a, str> = "contextId",
        /// The task (run) the message belongs to.
        task_id: Cow<'a, str> = "taskId",
        /// The message.
        message_id: Cow<'a, str> = "messageId",
        /// Who it is from.
        role: MessageRole = "role",
        /// The author's name.
        #[tsify(optional)]
        name: Option<Cow<'a, str>> = "name",
        /// ISO 8601.
        timestamp: Cow<'a, str> = "timestamp",
        /// The protocol's own members (`metadata.agUi`, ...).
        #[tsify(optional)]
        metadata: Option<JsonObject<'a>> = "metadata",
    }

    /// Text appended to a message (an assistant message's text is also the task's answer).
    MessageDelta = "message-delta" {
        /// The conversation/session.
        context_id: Cow<'a, str> = "contextId",
        /// The task.
        task_id: Cow<'a, str> = "taskId",
        /// The message.
        message_id: Cow<'a, str> = "messageId",
        /// Text to append.
        delta: Cow<'a, str> = "delta",
        /// The part it extends (created when new): the protocol's id of a text or reasoning
        /// part (AI SDK `text-start` ids). Without it, the message's open text.
        #[tsify(optional)]
        part_id: Option<Cow<'a, str>> = "partId",
        /// `text` (the default: the message's `content`) or `reasoning` (a reasoning part).
        #[tsify(optional)]
        part_type: Option<Cow<'a, str>> = "partType",
        /// The part's other members from here on (AI SDK `providerMetadata`).
        #[tsify(optional)]
        part_members: Option<JsonObject<'a>> = "partMembers",
        /// ISO 8601.
        timestamp: Cow<'a, str> = "timestamp",
    }

    /// A message's text is complete (with `partId`: that part only).
    MessageEnd = "message-end" {
        /// The conversation/session.
        context_id: Cow<'a, str> = "contextId",
        /// The task.
        task_id: Cow<'a, str> = "taskId",
        /// The message.
        message_id: Cow<'a, str> = "messageId",
        /// Only this text or reasoning part ends (the message goes on).
        #[tsify(optional)]
        part_id: Option<Cow<'a, str>> = "partId",
        /// That part's other members from here on (AI SDK `providerMetadata`, `citations`).
        #[tsify(optional)]
        part_members: Option<JsonObject<'a>> = "partMembers",
        /// ISO 8601.
        timestamp: Cow<'a, str> = "timestamp",
        /// The protocol's own members.
        #[tsify(optional)]
        metadata: Option<JsonObject<'a>> = "metadata",
    }

    /// A part of a message in the protocol's own shape (AI SDK tool, source, file, data and
    /// step parts): replaces the part put with the same `key`, else is appended.
    MessagePartPut = "message-part" {
        /// The conversation/session.
        context_id: Cow<'a, str> = "contextId",
        /// The task.
        task_id: Cow<'a, str> = "taskId",
        /// The message.
        message_id: Cow<'a, str> = "messageId",
        /// The part (an object with its `type`).
        #[tsify(type = "Record<string, unknown>")]
        part: Value<'a> = "part",
        /// Finds the part again (`tool:<toolCallId>`, `data:<type>:<id>`, `step:<n>`).
        #[tsify(optional)]
        key: Option<Cow<'a, str>> = "key",
        /// ISO 8601.
        timestamp: Cow<'a, str> = "timestamp",
    }

    /// The parts after the part put with `afterKey` are removed (AI SDK `reset-step`).
    MessageCut = "message-cut" {
        /// The conversation/session.
        context_id: Cow<'a, str> = "contextId",
        /// The task.
        task_id: Cow<'a, str> = "taskId",
        /// The message.
        message_id: Cow<'a, str> = "messageId",
        /// The key of the last part kept.
        after_key: Cow<'a, str> = "afterKey",
        /// ISO 8601.
        timestamp: Cow<'a, str> = "timestamp",
    }

    /// A whole message, added or merged into the one with its `id` (a tool result, an
    /// activity, a message the client sent, an encrypted value).
    MessagePut = "message-upsert" {
        /// The conversation/session.
        context_id: Cow<'a, str> = "contextId",
        /// The task.
        task_id: Cow<'a, str> = "taskId",
        /// `{id, role, content, toolCalls?, toolCallId?, name?, error?, activityType?, encryptedValue?, metadata?}`
        /// (AG-UI's message shape; `content` a string, an array of parts, or an activity's object).
        #[tsify(type = "Record<string, unknown>")]
        message: Value<'a> = "message",
        /// Replace the content of an existing message with this id (default `true`); `false`
        /// keeps an existing one untouched.
        #[tsify(optional)]
        replace: Option<bool> = "replace",
        /// ISO 8601.
        timestamp: Cow<'a, str> = "timestamp",
        /// The protocol's own members.
        #[tsify(optional)]
        metadata: Option<JsonObject<'a>> = "metadata",
    }

    /// The task's messages are replaced: messages whose id is listed are updated in place,
    /// the others removed, new ones appended in the snapshot's order.
    MessagesSnapshot = "messages-snapshot" {
        /// The conversation/session.
        context_id: Cow<'a, str> = "contextId",
        /// The task.
        task_id: Cow<'a, str> = "taskId",
        /// The messages (each as in `message-upsert`).
        #[tsify(type = "Record<string, unknown>[]")]
        messages: Vec<Value<'a>> = "messages",
        /// ISO 8601.
        timestamp: Cow<'a, str> = "timestamp",
    }

    /// An RFC 6902 JSON Patch applied to an activity message's `content` (atomic).
    MessagePatch = "message-patch" {
        /// The conversation/session.
        context_id: Cow<'a, str> = "contextId",
        /// The task.
        task_id: Cow<'a, str> = "taskId",
        /// The message.
        message_id: Cow<'a, str> = "messageId",
        /// The operations.
        #[tsify(type = "Record<string, unknown>[]")]
        patch: Value<'a> = "patch",
        /// ISO 8601.
        timestamp: Cow<'a, str> = "timestamp",
    }

    /// Text appended to a running tool call's arguments (partial JSON while it streams).
    ToolArgsDelta = "tool-args-delta" {
        /// The conversation/session.
        context_id: Cow<'a, str> = "contextId",
        /// The task.
        task_id: Cow<'a, str> = "taskId",
        /// The tool call.
        tool_call_id: Cow<'a, str> = "toolCallId",
        /// Text to append.
        delta: Cow<'a, str> = "delta",
        /// ISO 8601.
        timestamp: Cow<'a, str> = "timestamp",
    }

    /// A tool call's arguments are complete: `arguments` when given, else the streamed text
    /// parsed as JSON.
    ToolArgsEnd = "tool-args-end" {
        /// The conversation/session.
        context_id: Cow<'a, str> = "contextId",
        /// The task.
        task_id: Cow<'a, str> = "taskId",
        /// The tool call.
        tool_call_id: Cow<'a, str> = "toolCallId",
        /// The final arguments.
        #[tsify(optional, type = "unknown")]
        arguments: Option<Value<'a>> = "arguments",
        /// ISO 8601.
        timestamp: Cow<'a, str> = "timestamp",
    }

    /// An opaque encrypted value attached to a message or a tool call (kept, never read).
    EncryptedValue = "encrypted-value" {
        /// The conversation/session.
        context_id: Cow<'a, str> = "contextId",
        /// The task.
        task_id: Cow<'a, str> = "taskId",
        /// `message` or `tool-call`.
        subtype: Cow<'a, str> = "subtype",
        /// The message or tool call id.
        entity_id: Cow<'a, str> = "entityId",
        /// The value.
        encrypted_value: Cow<'a, str> = "encryptedValue",
        /// ISO 8601.
        timestamp: Cow<'a, str> = "timestamp",
    }

    /// The task's shared state document is replaced.
    StateSnapshot = "state-snapshot" {
        /// The conversation/session.
        context_id: Cow<'a, str> = "contextId",
        /// The task (run).
        task_id: Cow<'a, str> = "taskId",
        /// The document (any JSON).
        #[tsify(type = "unknown")]
        snapshot: Value<'a> = "snapshot",
        /// ISO 8601.
        timestamp: Cow<'a, str> = "timestamp",
    }

    /// An RFC 6902 JSON Patch applied to the task's shared state (atomic: a failing operation
    /// leaves the document as it was).
    StateDelta = "state-delta" {
        /// The conversation/session.
        context_id: Cow<'a, str> = "contextId",
        /// The task (run).
        task_id: Cow<'a, str> = "taskId",
        /// The operations.
        #[tsify(type = "Record<string, unknown>[]")]
        patch: Value<'a> = "patch",
        /// ISO 8601.
        timestamp: Cow<'a, str> = "timestamp",
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
