//! `failure`: a task whose tool fails (tool-complete `success: false` with an error) and that
//! then fails itself (task-status `failed` with `metadata.reason`).

use super::ctx::{fields, stream_text, Ctx, Stop};
use super::parts::thought;
use serde_json::json;

/// The script.
pub async fn run(ctx: &mut Ctx) -> Result<(), Stop> {
    let root = ctx.id("task");
    ctx.emit(
        "task-created",
        &root,
        fields! {"initiator": "user", "metadata": {"agentId": "assistant-v1", "model": "gpt-4o"}},
    );
    ctx.emit(
        "task-status",
        &root,
        fields! {"status": "working", "message": "Processing your request"},
    );
    ctx.emit(
        "internal:llm-call",
        &root,
        fields! {"iteration": 1, "model": "gpt-4o", "messageCount": 2, "toolCount": 2},
    );
    ctx.pause(400).await?;
    thought(
        ctx,
        &root,
        "planning",
        "brief",
        "Fetching the live sales feed",
        json!({"confidence": 0.8}),
    );
    ctx.pause(300).await?;
    let call = ctx.id("call");
    ctx.emit(
        "tool-start",
        &root,
        fields! {
            "toolCallId": call, "toolName": "fetch_sales_feed",
            "arguments": {"feed": "live", "region": "all"},
            "metadata": {"provider": "mcp", "concurrent": false},
        },
    );
    for (i, msg) in ["Connecting", "Retrying (1/3)", "Retrying (2/3)"]
        .iter()
        .enumerate()
    {
        ctx.pause(900).await?;
        let progress = (i as f64 + 1.0) / 10.0;
        ctx.emit(
            "tool-progress",
            &root,
            fields! {
                "toolCallId": call, "progress": progress, "message": msg,
                "metadata": {"step": "connect", "stepsCompleted": 0, "stepsTotal": 3},
            },
        );
    }
    ctx.pause(900).await?;
    ctx.emit(
        "tool-complete",
        &root,
        fields! {
            "toolCallId": call, "toolName": "fetch_sales_feed", "success": false,
            "error": "upstream timeout after 3 retries (sales-feed.internal:443)",
            "metadata": {"duration": 3600, "retries": 3},
        },
    );
    thought(
        ctx,
        &root,
        "reflection",
        "normal",
        "The live feed is down and there is no cached copy; I can't answer reliably.",
        json!({"confidence": 0.9, "relatedTo": call}),
    );
    stream_text(
        ctx,
        &root,
        "Sorry — the sales feed did not respond, so I can't compute the Q4 figures right now.",
        20,
        40,
    )
    .await?;
    ctx.emit(
        "task-status",
        &root,
        fields! {
            "status": "failed", "message": "The sales feed is unavailable",
            "metadata": {"reason": "tool fetch_sales_feed failed: upstream timeout after 3 retries"},
        },
    );
    Ok(())
}
