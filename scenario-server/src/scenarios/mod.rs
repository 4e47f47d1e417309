//! The scripted agent runs, in protocol 000. Deterministic for a seed: ids, text, data and
//! timestamps come from the seed and a simulated clock (base 2025-11-06T10:30:00.000Z), never
//! from the wall clock, so two runs with the same seed and the same answers have byte-identical
//! logs. Each script is an async function over a [`ctx::Ctx`].

pub mod approval;
pub mod bulk;
pub mod cancel;
pub mod ctx;
pub mod failure;
pub mod main_demo;
pub mod parts;
pub mod quick;
pub mod xss;

use crate::run::Run;
use std::sync::Arc;

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

/// Starts `run`'s script: a generated log for `bulk`, a tokio task for the others.
pub fn start(run: &Arc<Run>) {
    if run.spec.scenario == Scenario::Bulk {
        let (len, g) = bulk::generator(run.spec.events, run.spec.seed, run.context_id.clone());
        run.set_generated(len, g);
        return;
    }
    let r = run.clone();
    let handle = tokio::spawn(async move {
        let mut ctx = ctx::Ctx::new(r.clone());
        let result = match r.spec.scenario {
            Scenario::Main => main_demo::run(&mut ctx).await,
            Scenario::Quick => quick::run(&mut ctx).await,
            Scenario::Failure => failure::run(&mut ctx).await,
            Scenario::Cancel => cancel::run(&mut ctx, r.spec.speed <= 0.0).await,
            Scenario::Xss => xss::run(&mut ctx).await,
            Scenario::Approval => approval::run(&mut ctx).await,
            Scenario::Bulk => Ok(()),
        };
        if let Err(stop) = result {
            ctx.stop_all(&stop);
        }
        r.finish();
    });
    run.set_script(handle);
}
