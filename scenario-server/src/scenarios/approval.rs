//! `approval`: the short interactive run of the framework adapters' example apps. A streamed
//! answer, one approval for the user ("Deploy build 42 to staging?", `approve` or `deny`), then
//! a second streamed paragraph that says which answer was given, and the task completes. About
//! 2 s of agent time at speed 1 plus the user's answer; at speed 0 it holds at the approval.

use super::ctx::{fields, tokens, Ctx, Stop};
use serde_json::Value;

/// The first paragraph, streamed before the approval.
pub const INTRO: &str = "I checked build 42: all 318 tests pass and the bundle is 4% smaller. \
Deploying it to staging needs your approval.";

/// The prompt of the approval.
pub const PROMPT: &str = "Deploy build 42 to staging?";

/// The second paragraph, streamed after the answer.
pub fn outro(approved: bool) -> &'static str {
    if approved {
        " Deployed: build 42 is live on staging."
    } else {
        " Not deployed: staging keeps build 41."
    }
}

/// Streams `text` as content deltas 30..=60 ms apart (one message: `content-complete` comes
/// once, after the answer, with both paragraphs).
async fn deltas(ctx: &mut Ctx, task: &str, text: &str) -> Result<(), Stop> {
    for tok in tokens(text, &mut ctx.rng) {
        ctx.pause_between(30, 60).await?;
        ctx.emit("content-delta", task, fields! {"delta": tok});
    }
    Ok(())
}

/// The script.
pub async fn run(ctx: &mut Ctx) -> Result<(), Stop> {
    let root = ctx.id("task");
    ctx.emit(
        "task-created",
        &root,
        fields! {"initiator": "user", "metadata": {"agentId": "deploy-bot", "model": "gpt-4o"}},
    );
    ctx.emit(
        "task-status",
        &root,
        fields! {"status": "working", "message": "Checking the build"},
    );
    deltas(ctx, &root, INTRO).await?;
    let input = ctx.id("input");
    ctx.emit(
        "input-required",
        &root,
        fields! {
            "inputId": input, "requireUser": true, "inputType": "confirmation",
            "prompt": PROMPT,
            "options": ["approve", "deny"],
            "schema": {"type": "string", "enum": ["approve", "deny"]},
        },
    );
    ctx.emit(
        "task-status",
        &root,
        fields! {"status": "waiting-input", "message": "Waiting for your approval", "metadata": {"blockedBy": "user"}},
    );
    let body = ctx
        .wait_answer(&format!("input/{root}/{input}"), 300)
        .await?;
    let approved = body.get("value").and_then(Value::as_str) == Some("approve");
    ctx.emit(
        "input-received",
        &root,
        fields! {"inputId": input, "providedBy": "user", "metadata": {"duration": (super::ctx::USER_THINK_MS)}},
    );
    ctx.emit("task-status", &root, fields! {"status": "working"});
    let outro = outro(approved);
    deltas(ctx, &root, outro).await?;
    let content = format!("{INTRO}{outro}");
    ctx.emit("content-complete", &root, fields! {"content": content});
    let done = if approved { "Deployed" } else { "Not deployed" };
    ctx.emit(
        "task-status",
        &root,
        fields! {"status": "completed", "message": done},
    );
    let duration = ctx.elapsed(&root);
    ctx.emit(
        "task-complete",
        &root,
        fields! {"content": content, "metadata": {"duration": duration, "iterations": 1, "tokensUsed": 120}},
    );
    Ok(())
}
