//! `main`: the demo's interactive run (about 25 s of agent time at speed 1, plus the user's
//! answers). Planning thoughts at three verbosities, a database tool with progress, two
//! interleaved sub-agents (one with its own sub-agent and a coordinator-handled input), an
//! approval the client must POST (`approve` sends an email, anything else does not), an OAuth
//! request the client must complete, a markdown report, a PNG chart, a data artifact in two
//! versions, a dataset of 25 rows, and a streamed markdown answer.

use super::ctx::{fields, stream_text, Ctx, Stop, Track};
use super::parts::{chart_png, sales_dataset, spawn_subtask, split_chunks, thought, File, Tool};
use serde_json::{json, Value};

const REPORT: &str = "# Q4 2025 sales report\n\n\
## Executive summary\n\n\
Q4 revenue reached **€4.82M**, up **15.2%** on Q3 — the strongest quarter of the year 🎉.\n\n\
## By region\n\n\
| region | revenue | growth |\n\
|---|---:|---:|\n\
| North | €1.61M | +22% |\n\
| South | €1.20M | +9% |\n\
| East | €1.14M | +11% |\n\
| West | €0.87M | −3% |\n\n\
## Highlights\n\n\
- The \"Winter Deals\" campaign drove most of the North's growth.\n\
- Café and bakery accounts ☕ grew steadily in the South.\n\
- The Zürich distribution centre shortened East deliveries by two days.\n\n\
## Risks\n\n\
- West: supply delays in São Paulo; the logistics contract is up for renewal.\n\n\
## Recommendations\n\n\
1. Shift inventory towards the North before January.\n\
2. Renegotiate the West logistics contract.\n\
3. Extend \"Winter Deals\" into Q1.\n";

fn answer(approved: bool) -> String {
    let email = if approved {
        "A copy was sent to finance@example.com."
    } else {
        "As you asked, nothing was emailed."
    };
    format!(
        "## Q4 sales summary\n\n\
Based on **12,480 orders**, Q4 revenue grew **15.2%** quarter over quarter — the strongest quarter this year 🎉.\n\n\
- **North**: +22%, driven by the \"Winter Deals\" campaign\n\
- **South**: +9%, steady growth in café and bakery accounts ☕\n\
- **East**: +11%, after the Zürich distribution centre opened\n\
- **West**: −3%, hit by supply delays in São Paulo\n\n\
The full analysis is in `report.md`, with a chart and a 25-row dataset. {email}\n\n\
**Next steps:** shift inventory towards the North and review the West's logistics contract before January. ✅"
    )
}

/// The script.
pub async fn run(ctx: &mut Ctx) -> Result<(), Stop> {
    let root = ctx.id("task");
    ctx.emit(
        "task-created",
        &root,
        fields! {"initiator": "user", "metadata": {"agentId": "assistant-v1", "model": "gpt-4o"}},
    );
    ctx.pause(150).await?;
    ctx.emit(
        "task-status",
        &root,
        fields! {"status": "working", "message": "Processing your request"},
    );
    ctx.emit(
        "internal:llm-call",
        &root,
        fields! {"iteration": 1, "model": "gpt-4o", "messageCount": 2, "toolCount": 5},
    );
    ctx.pause_between(500, 700).await?;
    let search = query(ctx, &root).await?;
    ctx.pause(700).await?;

    subtasks(ctx, &root).await?;

    ctx.emit(
        "task-status",
        &root,
        fields! {"status": "working", "message": "Preparing the report"},
    );
    ctx.emit(
        "internal:llm-call",
        &root,
        fields! {"iteration": 2, "model": "gpt-4o", "messageCount": 9, "toolCount": 5},
    );
    ctx.pause_between(500, 800).await?;

    let approved = approval(ctx, &root).await?;

    oauth(ctx, &root).await?;

    let report = ctx.id("artifact");
    File {
        artifact: &report,
        name: "report.md",
        description: "Q4 2025 sales analysis",
        mime: "text/markdown",
        chunks: split_chunks(REPORT, 6),
        encoding: "utf-8",
        total_size: REPORT.len(),
        tool_call: Some(&search),
        pace_ms: 350,
    }
    .write(ctx, &root)
    .await?;
    ctx.pause(200).await?;
    let chart = ctx.id("artifact");
    chart_png(&chart, Some(&search)).write(ctx, &root).await?;
    ctx.pause(200).await?;
    let summary = ctx.id("artifact");
    ctx.emit(
        "data-write",
        &root,
        fields! {
            "artifactId": summary, "name": "q4-summary", "description": "Key figures of Q4 2025",
            "data": {"revenue": 4.82, "currency": "EUR", "unit": "millions", "growth": 0.15, "bestRegion": "north", "orders": 12480},
            "metadata": {"toolCallId": search, "version": 1},
        },
    );
    ctx.pause(600).await?;
    ctx.emit(
        "data-write",
        &root,
        fields! {
            "artifactId": summary,
            "data": {"revenue": 4.82, "currency": "EUR", "unit": "millions", "growth": 0.152, "bestRegion": "north", "orders": 12480, "revised": true},
            "metadata": {"version": 2},
        },
    );
    ctx.pause(200).await?;
    let sales = ctx.id("artifact");
    sales_dataset(ctx, &root, &sales, 25, 10, Some(&search), 450).await?;
    ctx.emit("internal:checkpoint", &root, fields! {"iteration": 3});
    ctx.emit(
        "internal:thought-process",
        &root,
        fields! {
            "iteration": 3, "stage": "post-tool",
            "reasoning": "All artifacts written; composing the final answer.",
            "state": {"pendingTools": [], "messagesCount": 14, "tokensUsed": 1320, "artifacts": [report, chart, summary, sales]},
        },
    );
    ctx.pause_between(600, 900).await?;
    let text = answer(approved);
    stream_text(ctx, &root, &text, 25, 45).await?;
    ctx.pause(100).await?;
    ctx.emit(
        "task-status",
        &root,
        fields! {"status": "completed", "message": "Report ready"},
    );
    let duration = ctx.elapsed(&root);
    ctx.emit(
        "task-complete",
        &root,
        fields! {
            "content": text, "artifacts": [report, chart, summary, sales],
            "metadata": {"duration": duration, "iterations": 3, "tokensUsed": 1893},
        },
    );
    Ok(())
}

/// The plan and the database query: thoughts, then the `search_database` tool; returns the
/// tool call's id (the artifacts name it as their source).
async fn query(ctx: &mut Ctx, root: &str) -> Result<String, Stop> {
    let search_hint = "search_database";
    thought(
        ctx,
        root,
        "planning",
        "brief",
        "Querying the sales database for Q4",
        json!({"confidence": 0.9}),
    );
    ctx.pause_between(300, 500).await?;
    thought(
        ctx,
        root,
        "planning",
        "normal",
        "I'll gather the Q4 sales data from the database, then have two analysts look at the regions in parallel.",
        json!({"confidence": 0.85}),
    );
    ctx.pause_between(400, 600).await?;
    thought(
        ctx,
        root,
        "planning",
        "detailed",
        "I need Q4 sales to answer. The search_database tool is faster than the analytics API and its cache is fresh. After the query I'll split the regional analysis between two sub-agents, ask before emailing anything, and publish a report. Alternatives: the pre-computed sales_summary table (faster, less detail) or the analytics API (real time, slower).",
        json!({
            "confidence": 0.8,
            "alternatives": ["Use the sales_summary table (faster but less detailed)", "Call the analytics API (real-time but slower)"],
            "relatedTo": search_hint,
        }),
    );
    ctx.pause(300).await?;
    let search = Tool {
        name: "search_database",
        arguments: json!({"query": "Q4 2025 sales", "table": "sales_data", "limit": 5000}),
        steps: &[
            ("connect", "Connecting to the sales database"),
            ("query", "Running the Q4 query"),
            ("fetch", "Fetching 12,480 rows"),
            ("aggregate", "Aggregating by region"),
            ("summarize", "Computing growth rates"),
        ],
        pace_ms: 1000,
        result: json!({
            "count": 12480,
            "regions": {"north": 1.61, "south": 1.20, "east": 1.14, "west": 0.87},
            "currency": "EUR", "unit": "millions"
        }),
        internal: true,
    }
    .run(ctx, root)
    .await?;
    thought(
        ctx,
        root,
        "reasoning",
        "normal",
        "Revenue is up about 15%. North and West diverge a lot, so a regional breakdown is worth it.",
        json!({"confidence": 0.75, "relatedTo": search}),
    );
    Ok(search)
}

/// The approval (blocks until the client POSTs the answer), then the email it allows; returns
/// whether it was approved.
async fn approval(ctx: &mut Ctx, root: &str) -> Result<bool, Stop> {
    let approval = ctx.id("input");
    ctx.emit(
        "input-required",
        root,
        fields! {
            "inputId": approval, "requireUser": true, "inputType": "confirmation",
            "prompt": "Send the report to finance@example.com?",
            "options": ["approve", "deny"],
            "schema": {"type": "string", "enum": ["approve", "deny"]},
            "metadata": {"urgency": "high", "timeout": 300},
        },
    );
    ctx.emit(
        "task-status",
        root,
        fields! {"status": "waiting-input", "message": "Waiting for your approval", "metadata": {"blockedBy": "user"}},
    );
    let body = ctx
        .wait_answer(&format!("input/{root}/{approval}"), 300)
        .await?;
    let approved = body.get("value").and_then(Value::as_str) == Some("approve");
    let user = user_id(&body);
    ctx.emit(
        "input-received",
        root,
        fields! {"inputId": approval, "providedBy": "user", "userId": user, "metadata": {"duration": (super::ctx::USER_THINK_MS)}},
    );
    ctx.emit("task-status", root, fields! {"status": "working"});
    if approved {
        Tool {
            name: "send_email",
            arguments: json!({"to": "finance@example.com", "subject": "Q4 2025 sales report", "attachments": ["report.md"]}),
            steps: &[
                ("compose", "Composing the email"),
                ("attach", "Attaching report.md"),
                ("send", "Sending"),
            ],
            pace_ms: 500,
            result: json!({"messageId": "msg-20251106-q4", "accepted": ["finance@example.com"]}),
            internal: true,
        }
        .run(ctx, root)
        .await?;
    } else {
        thought(
            ctx,
            root,
            "decision",
            "normal",
            "User declined sending the email; I'll skip it and only publish the report here.",
            json!({"confidence": 0.95}),
        );
        ctx.pause(300).await?;
    }
    Ok(approved)
}

/// The GitHub authorization (blocks until the client POSTs the completion).
async fn oauth(ctx: &mut Ctx, root: &str) -> Result<(), Stop> {
    let auth = ctx.id("auth");
    ctx.emit(
        "auth-required",
        root,
        fields! {
            "authId": auth, "authType": "oauth2", "provider": "github", "scopes": ["repo", "user"],
            "prompt": "Please authorize access to your GitHub repositories to publish the report",
            "authUrl": "https://github.com/login/oauth/authorize?client_id=demo",
            "metadata": {"expiresIn": 600},
        },
    );
    ctx.emit(
        "task-status",
        root,
        fields! {"status": "waiting-auth", "message": "Waiting for GitHub authorization", "metadata": {"blockedBy": "user"}},
    );
    let body = ctx.wait_answer(&format!("auth/{root}/{auth}"), 600).await?;
    let user = user_id(&body);
    let expires = ctx.ts(ctx.now() + 8 * 3_600_000);
    ctx.emit(
        "auth-completed",
        root,
        fields! {"authId": auth, "userId": user, "metadata": {"expiresAt": expires}},
    );
    ctx.emit(
        "task-status",
        root,
        fields! {"status": "working", "message": "Writing the report"},
    );
    ctx.pause(300).await?;
    Ok(())
}

/// The `userId` member of an answer body (a non-empty string of at most 64 bytes), or
/// `user-demo`.
fn user_id(body: &Value) -> String {
    body.get("userId")
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty() && s.len() <= 64)
        .unwrap_or("user-demo")
        .to_owned()
}

/// Two analysts run interleaved; the first delegates to a sub-sub-agent and has a
/// coordinator-handled tool input.
async fn subtasks(ctx: &mut Ctx, root: &str) -> Result<(), Stop> {
    let (north, south, fx) = (ctx.id("task"), ctx.id("task"), ctx.id("task"));
    spawn_subtask(
        ctx,
        root,
        &north,
        "data-analyzer-v1",
        "Analyze the North and East regions",
    );
    ctx.pause(100).await?;
    spawn_subtask(
        ctx,
        root,
        &south,
        "data-analyzer-v1",
        "Analyze the South and West regions",
    );
    ctx.emit(
        "task-status",
        root,
        fields! {"status": "waiting-subtask", "message": "Waiting for the regional analysts", "metadata": {"blockedBy": north}},
    );
    let coord_input = ctx.id("input");
    let client_call = ctx.id("call");
    let rng = &mut ctx.rng;

    let mut a = Track::default();
    a.emit("task-status", &north, fields! {"status": "working"})
        .wait(300)
        .emit(
            "thought-stream",
            &north,
            fields! {"thoughtId": "thought-north-1", "thoughtType": "observation", "verbosity": "brief", "content": "North numbers are in EUR; East needs a currency check", "metadata": {"confidence": 0.7}},
        )
        .wait(400)
        .emit(
            "input-required",
            &north,
            fields! {
                "inputId": coord_input, "requireUser": false, "inputType": "tool-execution",
                "prompt": "Execute client-side tool: get_user_profile",
                "schema": {"type": "object", "properties": {"userId": {"type": "integer"}}},
                "metadata": {"toolCall": {"id": client_call, "function": {"name": "get_user_profile", "arguments": "{\"userId\":123}"}}},
            },
        )
        .wait(350)
        .emit(
            "input-received",
            &north,
            fields! {"inputId": coord_input, "providedBy": "agent", "agentId": "coordinator-v1", "metadata": {"duration": 350}},
        )
        .wait(200)
        .emit(
            "subtask-created",
            &north,
            fields! {"subtaskId": fx, "agentId": "fx-converter-v1", "prompt": "Convert the East figures from CHF to EUR"},
        )
        .emit(
            "task-created",
            &fx,
            fields! {"parentTaskId": north, "initiator": "agent", "metadata": {"agentId": "fx-converter-v1", "model": "gpt-4o-mini"}},
        )
        .emit(
            "task-status",
            &north,
            fields! {"status": "waiting-subtask", "metadata": {"blockedBy": fx}},
        )
        .emit("task-status", &fx, fields! {"status": "working"})
        .wait(600)
        .text(
            rng,
            &fx,
            "CHF 1.07M = €1.14M at 0.9365 (ECB, 31 Dec).",
            30,
            60,
        )
        .emit("task-status", &fx, fields! {"status": "completed"})
        .emit(
            "task-complete",
            &fx,
            fields! {"content": "CHF 1.07M = €1.14M at 0.9365 (ECB, 31 Dec).", "metadata": {"duration": 1100, "iterations": 1, "tokensUsed": 96}},
        )
        .wait(200)
        .emit("task-status", &north, fields! {"status": "working"})
        .text(
            rng,
            &north,
            "North grew 22% on the \"Winter Deals\" campaign; East grew 11% once the Zürich centre opened.",
            40,
            90,
        )
        .emit("task-status", &north, fields! {"status": "completed"})
        .emit(
            "task-complete",
            &north,
            fields! {"content": "North grew 22% on the \"Winter Deals\" campaign; East grew 11% once the Zürich centre opened.", "metadata": {"duration": 5200, "iterations": 2, "tokensUsed": 388}},
        );

    let mut b = Track::default();
    b.wait(150)
        .emit("task-status", &south, fields! {"status": "working"})
        .wait(500)
        .emit(
            "thought-stream",
            &south,
            fields! {"thoughtId": "thought-south-1", "thoughtType": "reasoning", "verbosity": "normal", "content": "West is the only region in decline; supply delays in São Paulo explain most of it.", "metadata": {"confidence": 0.8}},
        )
        .wait(900)
        .text(
            rng,
            &south,
            "South grew 9% with café accounts ☕ leading; West fell 3% because of supply delays in São Paulo.",
            50,
            110,
        )
        .emit("task-status", &south, fields! {"status": "completed"})
        .emit(
            "task-complete",
            &south,
            fields! {"content": "South grew 9% with café accounts ☕ leading; West fell 3% because of supply delays in São Paulo.", "metadata": {"duration": 4300, "iterations": 1, "tokensUsed": 301}},
        );
    ctx.interleave(vec![a, b]).await
}
