//! The string enums of the canonical events (statuses, types, roles), shared by the events and
//! the state.

use super::field::str_enum;

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

str_enum! {
    /// Who a conversation message is from (AG-UI's roles; the AI SDK's map onto them).
    MessageRole {
        /// The person using the app.
        User = "user",
        /// The agent.
        Assistant = "assistant",
        /// System instructions.
        System = "system",
        /// Developer instructions.
        Developer = "developer",
        /// A tool's result.
        Tool = "tool",
        /// The agent's visible reasoning.
        Reasoning = "reasoning",
        /// A structured activity the agent reports (its `content` is an object).
        Activity = "activity",
    }
}

impl MessageRole {
    /// `true` for the roles whose text is the task's answer (`task.content`).
    pub fn is_answer(self) -> bool {
        self == MessageRole::Assistant
    }
}
