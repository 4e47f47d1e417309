//! The scenarios this server can play, by name: what a run is created with and what
//! `GET /api/scenarios` lists. The scripts that play them are in [`crate::scenarios`].

/// The scenarios this server can play.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scenario {
    /// The demo's interactive run.
    Main,
    /// Every event kind, non-interactive, short.
    Quick,
    /// A tool error, then the task fails.
    Failure,
    /// A long job that the client cancels.
    Cancel,
    /// `events=N` events as fast as possible.
    Bulk,
    /// Hostile content for safe-rendering tests.
    Xss,
    /// A streamed answer around one approval (the adapters' example apps).
    Approval,
}

impl Scenario {
    /// Every scenario, in listing order.
    pub const ALL: [Scenario; 7] = [
        Scenario::Main,
        Scenario::Quick,
        Scenario::Failure,
        Scenario::Cancel,
        Scenario::Bulk,
        Scenario::Xss,
        Scenario::Approval,
    ];

    /// The id used in `scenario=`.
    pub fn id(self) -> &'static str {
        match self {
            Scenario::Main => "main",
            Scenario::Quick => "quick",
            Scenario::Failure => "failure",
            Scenario::Cancel => "cancel",
            Scenario::Bulk => "bulk",
            Scenario::Xss => "xss",
            Scenario::Approval => "approval",
        }
    }

    /// A short title.
    pub fn title(self) -> &'static str {
        match self {
            Scenario::Main => "Q4 sales report (interactive)",
            Scenario::Quick => "Every event kind",
            Scenario::Failure => "Tool failure",
            Scenario::Cancel => "Long job to cancel",
            Scenario::Bulk => "Bulk events",
            Scenario::Xss => "Hostile content",
            Scenario::Approval => "Deploy approval (short, interactive)",
        }
    }

    /// What it does.
    pub fn description(self) -> &'static str {
        match self {
            Scenario::Main => "Thoughts, a database tool with progress, interleaved sub-agents, an approval and a GitHub authorization answered by the client, markdown/PNG/data/dataset artifacts and a streamed answer (about 25 s at speed 1).",
            Scenario::Quick => "A short non-interactive run covering every event kind (internal ones included), every task status, a failed and a canceled subtask, in-band input and auth, and artifacts.",
            Scenario::Failure => "A tool call fails after retries and the task ends failed.",
            Scenario::Cancel => "A long re-indexing job with two sub-agents; cancel it through the cancel endpoint (at speed 0 it holds after 3 steps until canceled).",
            Scenario::Bulk => "events=N events (mostly content deltas) available at once, for throughput and soak tests.",
            Scenario::Xss => "Script tags, event-handler attributes and javascript: URLs in text, thoughts, artifacts and an authUrl; completes without interaction.",
            Scenario::Approval => "A streamed answer, one approval for the user (approve or deny), a second streamed paragraph that says which, then the task completes (about 2 s at speed 1 plus the answer).",
        }
    }

    /// The scenario named `id`.
    pub fn from_id(id: &str) -> Option<Scenario> {
        Scenario::ALL.into_iter().find(|s| s.id() == id)
    }
}

/// `GET /api/scenarios`.
pub fn list_json() -> serde_json::Value {
    Scenario::ALL
        .iter()
        .map(|s| serde_json::json!({"id": s.id(), "title": s.title(), "description": s.description()}))
        .collect()
}
