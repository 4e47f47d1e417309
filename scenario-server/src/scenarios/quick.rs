//! `quick`: a short non-interactive run covering every event kind of protocol 000 (the five
//! internal kinds included), every task status, a failed and a canceled subtask, input and
//! auth answered in-band, and file/data/dataset artifacts. Ends completed.

use super::ctx::{fields, stream_text, Ctx, Stop, Track};
use super::parts::{chart_png, sales_dataset, spawn_subtask, split_chunks, thought, File, Tool};
use serde_json::json;

const REPORT: &str = "# Q4 sales report\n\nRevenue rose **15%** in Q4 — led by the north region 🚀.\n\n| region | growth |\n|---|---|\n| north | +22% |\n| south | +9% |\n\n## Next steps\n- expand the café line ☕\n- review west logistics\n";

const ANSWER: &str = "Based on the analysis, **Q4 sales increased by 15%** — led by the north region (+22%). Café revenue was \"flat\" 🙂.\n\nSee `report.md`, the chart and the dataset for details.";

const SUB_ANSWER: &str = "Regional trend: north up 22%, south up 9%.";

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
        fields! {"iteration": 1, "model": "gpt-4o", "messageCount": 3, "toolCount": 4},
    );
    thought(
        ctx,
        &root,
        "planning",
        "brief",
        "Querying the sales database",
        json!({"confidence": 0.9}),
    );
    thought(
        ctx,
        &root,
        "planning",
        "normal",
        "I'll gather the Q4 sales data, then compare the regions.",
        json!({"confidence": 0.85}),
    );
    ctx.emit(
        "internal:thought-process",
        &root,
        fields! {
            "iteration": 1, "stage": "pre-tool",
            "reasoning": "One database query first; the regional analysis depends on it.",
            "state": {"pendingTools": ["search_database"], "messagesCount": 3, "tokensUsed": 412},
        },
    );
    let search = Tool {
        name: "search_database",
        arguments: json!({"query": "Q4 sales data", "limit": 100}),
        steps: &[
            ("connect", "Connecting to the sales database"),
            ("query", "Running the Q4 query"),
            ("aggregate", "Aggregating by region"),
        ],
        pace_ms: 200,
        result: json!({"count": 42, "records": [{"region": "north", "growth": 0.22}, {"region": "south", "growth": 0.09}]}),
        internal: true,
    }
    .run(ctx, &root)
    .await?;
    thought(
        ctx,
        &root,
        "reasoning",
        "detailed",
        "The query returned 42 records. North grew fastest; I'll delegate the regional analysis and check a slower data source in parallel.",
        json!({"confidence": 0.75, "alternatives": ["Analyze all regions myself", "Skip the secondary source"], "relatedTo": search}),
    );

    subtasks(ctx, &root).await?;

    ctx.emit("task-status", &root, fields! {"status": "working"});
    ctx.emit(
        "internal:llm-call",
        &root,
        fields! {"iteration": 2, "model": "gpt-4o", "messageCount": 7, "toolCount": 4},
    );
    requests(ctx, &root).await?;
    let report = ctx.id("artifact");
    File {
        artifact: &report,
        name: "report.md",
        description: "Quarterly sales analysis",
        mime: "text/markdown",
        chunks: split_chunks(REPORT, 4),
        encoding: "utf-8",
        total_size: REPORT.len(),
        tool_call: Some(&search),
        pace_ms: 60,
    }
    .write(ctx, &root)
    .await?;
    let chart = ctx.id("artifact");
    chart_png(&chart, Some(&search)).write(ctx, &root).await?;
    let summary = ctx.id("artifact");
    ctx.emit(
        "data-write",
        &root,
        fields! {
            "artifactId": summary, "name": "summary", "description": "Key figures",
            "data": {"growth": 0.15, "regions": 4, "best": "north"},
            "metadata": {"toolCallId": search, "version": 1},
        },
    );
    ctx.pause(100).await?;
    ctx.emit(
        "data-write",
        &root,
        fields! {
            "artifactId": summary,
            "data": {"growth": 0.152, "regions": 4, "best": "north", "revised": true},
            "metadata": {"version": 2},
        },
    );
    let sales = ctx.id("artifact");
    sales_dataset(ctx, &root, &sales, 12, 5, Some(&search), 60).await?;
    ctx.emit("internal:checkpoint", &root, fields! {"iteration": 2});
    stream_text(ctx, &root, ANSWER, 20, 40).await?;
    ctx.emit(
        "task-status",
        &root,
        fields! {"status": "completed", "message": "Done"},
    );
    let duration = ctx.elapsed(&root);
    ctx.emit(
        "task-complete",
        &root,
        fields! {
            "content": ANSWER, "artifacts": [report, chart, summary, sales],
            "metadata": {"duration": duration, "iterations": 2, "tokensUsed": 1547},
        },
    );
    Ok(())
}

/// Three sub-agents run interleaved: one completes (after a coordinator-answered input), one
/// fails on a tool, one is canceled.
async fn subtasks(ctx: &mut Ctx, root: &str) -> Result<(), Stop> {
    let (ok, fail, cancel) = (ctx.id("task"), ctx.id("task"), ctx.id("task"));
    spawn_subtask(
        ctx,
        root,
        &ok,
        "data-analyzer-v1",
        "Analyze the regional trends",
    );
    spawn_subtask(ctx, root, &fail, "crawler-v1", "Fetch competitor prices");
    spawn_subtask(
        ctx,
        root,
        &cancel,
        "crawler-v1",
        "Fetch last year's figures",
    );
    ctx.emit(
        "task-status",
        root,
        fields! {"status": "waiting-subtask", "message": "Waiting for the data analyzer", "metadata": {"blockedBy": ok}},
    );

    let coord_input = ctx.id("input");
    let failing_call = ctx.id("call");
    let mut a = Track::default();
    a.emit("task-status", &ok, fields! {"status": "working"})
        .wait(50)
        .emit(
            "input-required",
            &ok,
            fields! {
                "inputId": coord_input, "requireUser": false, "inputType": "tool-execution",
                "prompt": "Execute client-side tool: get_user_profile",
                "schema": {"type": "object", "properties": {"userId": {"type": "integer"}}},
                "metadata": {"toolCall": {"id": "call-client-001", "function": {"name": "get_user_profile", "arguments": "{\"userId\":123}"}}},
            },
        )
        .wait(80)
        .emit(
            "input-received",
            &ok,
            fields! {"inputId": coord_input, "providedBy": "agent", "agentId": "coordinator-v1", "metadata": {"duration": 80}},
        )
        .text(&mut ctx.rng, &ok, SUB_ANSWER, 20, 40)
        .emit("task-status", &ok, fields! {"status": "completed"})
        .emit(
            "task-complete",
            &ok,
            fields! {"content": SUB_ANSWER, "metadata": {"duration": 900, "iterations": 1, "tokensUsed": 210}},
        );
    let mut b = Track::default();
    b.emit("task-status", &fail, fields! {"status": "working"})
        .wait(40)
        .emit(
            "tool-start",
            &fail,
            fields! {"toolCallId": failing_call, "toolName": "fetch_prices", "arguments": {"source": "competitors"}, "metadata": {"provider": "mcp", "concurrent": true}},
        )
        .wait(150)
        .emit(
            "tool-complete",
            &fail,
            fields! {"toolCallId": failing_call, "toolName": "fetch_prices", "success": false, "error": "HTTP 503 from upstream after 2 retries", "metadata": {"duration": 150, "retries": 2}},
        )
        .emit(
            "task-status",
            &fail,
            fields! {"status": "failed", "message": "Could not fetch prices", "metadata": {"reason": "tool fetch_prices failed: HTTP 503"}},
        );
    let mut c = Track::default();
    c.emit("task-status", &cancel, fields! {"status": "working"})
        .wait(120)
        .emit(
            "task-status",
            &cancel,
            fields! {"status": "canceled", "message": "No longer needed", "metadata": {"reason": "canceled by coordinator: superseded by the database result"}},
        );
    ctx.interleave(vec![a, b, c]).await?;
    Ok(())
}

/// The in-band requests: a confirmation and a GitHub authorization, answered without the
/// client (the run does not wait).
async fn requests(ctx: &mut Ctx, root: &str) -> Result<(), Stop> {
    let confirm = ctx.id("input");
    ctx.emit(
        "input-required",
        root,
        fields! {
            "inputId": confirm, "requireUser": true, "inputType": "confirmation",
            "prompt": "Publish the report to the team space?", "options": ["approve", "deny"],
            "schema": {"type": "string", "enum": ["approve", "deny"]},
            "metadata": {"urgency": "medium", "timeout": 300},
        },
    );
    ctx.emit(
        "task-status",
        root,
        fields! {"status": "waiting-input", "metadata": {"blockedBy": "user"}},
    );
    ctx.pause(300).await?;
    ctx.emit(
        "input-received",
        root,
        fields! {"inputId": confirm, "providedBy": "user", "userId": "user-demo", "metadata": {"duration": 300}},
    );
    let auth = ctx.id("auth");
    ctx.emit(
        "auth-required",
        root,
        fields! {
            "authId": auth, "authType": "oauth2", "provider": "github", "scopes": ["repo", "user"],
            "prompt": "Please authorize access to your GitHub repositories",
            "authUrl": "https://github.com/login/oauth/authorize?client_id=demo",
            "metadata": {"expiresIn": 600},
        },
    );
    ctx.emit(
        "task-status",
        root,
        fields! {"status": "waiting-auth", "metadata": {"blockedBy": "user"}},
    );
    ctx.pause(400).await?;
    let expires = ctx.ts(ctx.now() + 8 * 3_600_000);
    ctx.emit(
        "auth-completed",
        root,
        fields! {"authId": auth, "userId": "user-demo", "metadata": {"expiresAt": expires}},
    );
    ctx.emit("task-status", root, fields! {"status": "working"});
    Ok(())
}
