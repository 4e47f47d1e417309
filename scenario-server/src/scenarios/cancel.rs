//! `cancel`: a long-running task (a tool with slow progress and two working sub-agents) meant
//! to be canceled through `POST /api/contexts/{ctx}/tasks/{task}/cancel`; the script then
//! stops and every running task gets `task-status canceled` (`metadata.reason` "canceled by
//! user"), deepest first.
//!
//! At speed 0 there is no time to cancel in, so the script holds (real time, up to
//! [`HOLD`]) after the third progress step until a cancel arrives; at other speeds the job
//! takes about a minute and completes normally when nobody cancels.

use super::ctx::{fields, Ctx, Stop, Track};
use super::parts::{spawn_subtask, thought};
use serde_json::json;
use std::time::Duration;

/// How long the speed-0 run waits for a cancel before completing anyway.
pub const HOLD: Duration = Duration::from_secs(60);

const STEPS: u64 = 30;

/// The script.
pub async fn run(ctx: &mut Ctx, instant: bool) -> Result<(), Stop> {
    let root = ctx.id("task");
    ctx.emit(
        "task-created",
        &root,
        fields! {"initiator": "user", "metadata": {"agentId": "assistant-v1", "model": "gpt-4o"}},
    );
    ctx.emit(
        "task-status",
        &root,
        fields! {"status": "working", "message": "Re-indexing the warehouse"},
    );
    thought(
        ctx,
        &root,
        "planning",
        "normal",
        "This is a long job: I'll re-index the warehouse while two crawlers refresh the sources.",
        json!({"confidence": 0.9}),
    );
    let (a, b) = (ctx.id("task"), ctx.id("task"));
    spawn_subtask(ctx, &root, &a, "crawler-v1", "Refresh the orders source");
    spawn_subtask(ctx, &root, &b, "crawler-v1", "Refresh the inventory source");
    let mut ta = Track::default();
    ta.emit("task-status", &a, fields! {"status": "working"});
    let mut tb = Track::default();
    tb.wait(200)
        .emit("task-status", &b, fields! {"status": "working"});
    ctx.interleave(vec![ta, tb]).await?;
    let call = ctx.id("call");
    ctx.emit(
        "tool-start",
        &root,
        fields! {
            "toolCallId": call, "toolName": "reindex_warehouse",
            "arguments": {"tables": ["orders", "inventory", "customers"], "full": true},
            "metadata": {"provider": "local", "concurrent": true},
        },
    );
    let mut texts = [String::new(), String::new()];
    for step in 1..=STEPS {
        ctx.pause(2000).await?;
        let progress = (step as f64 / STEPS as f64 * 100.0).round() / 100.0;
        ctx.emit(
            "tool-progress",
            &root,
            fields! {
                "toolCallId": call, "progress": progress,
                "message": (format!("Re-indexed {} of {STEPS} partitions", step)),
                "metadata": {"step": "reindex", "stepsCompleted": step, "stepsTotal": STEPS},
            },
        );
        if step % 4 == 0 {
            let k = usize::from(step % 8 == 0);
            let delta = format!("Partition batch {} refreshed. ", step / 4);
            texts[k].push_str(&delta);
            ctx.emit("content-delta", [&a, &b][k], fields! {"delta": delta});
        }
        if instant && step == 3 {
            ctx.hold_for_cancel(HOLD).await?;
        }
    }
    ctx.emit(
        "tool-complete",
        &root,
        fields! {
            "toolCallId": call, "toolName": "reindex_warehouse", "success": true,
            "result": {"partitions": STEPS}, "metadata": {"duration": (STEPS * 2000)},
        },
    );
    for (sub, text) in [&a, &b].into_iter().zip(texts) {
        ctx.emit("content-complete", sub, fields! {"content": text});
        ctx.emit("task-status", sub, fields! {"status": "completed"});
        ctx.emit(
            "task-complete",
            sub,
            fields! {"content": text, "metadata": {"iterations": 1}},
        );
    }
    ctx.emit("task-status", &root, fields! {"status": "completed"});
    let duration = ctx.elapsed(&root);
    ctx.emit(
        "task-complete",
        &root,
        fields! {"content": "The warehouse was re-indexed.", "metadata": {"duration": duration}},
    );
    Ok(())
}
