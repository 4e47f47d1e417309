//! `xss`: hostile content everywhere a UI might render it (answer text, thoughts, tool
//! arguments, a markdown file, an HTML file, an SVG, a dataset cell, a data artifact, an
//! auth request whose `authUrl` is `javascript:alert(1)`), for safe-rendering tests. Completes
//! without interaction.

use super::ctx::{fields, stream_text, Ctx, Stop};
use super::parts::{split_chunks, thought, File};
use serde_json::json;

/// An image tag with an error handler.
pub const IMG: &str = "<img src=x onerror=alert(1)>";
/// A script element.
pub const SCRIPT: &str = "<script>alert(1)</script>";
/// A markdown link to a `javascript:` URL.
pub const LINK: &str = "[click](javascript:alert(1))";

const MARKDOWN: &str = "# Totally normal report <img src=x onerror=alert(1)>\n\n\
<script>alert(1)</script>\n\n\
Click here: [click](javascript:alert(1)) or [this](JaVaScRiPt:alert(2)) or <a href=\"javascript:alert(3)\">that</a>.\n\n\
![pic](javascript:alert(4)) <iframe src=\"javascript:alert(5)\"></iframe>\n\n\
<svg onload=alert(6)></svg> <style>body{display:none}</style>\n";

const HTML: &str = "<!doctype html><html><body><script>alert(1)</script><img src=x onerror=alert(1)></body></html>";

const SVG_BASE64: &str = "PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciIG9ubG9hZD0iYWxlcnQoMSkiPjxzY3JpcHQ+YWxlcnQoMSk8L3NjcmlwdD48L3N2Zz4=";

/// The script.
pub async fn run(ctx: &mut Ctx) -> Result<(), Stop> {
    let root = ctx.id("task");
    ctx.emit(
        "task-created",
        &root,
        fields! {"initiator": "user", "metadata": {"agentId": "<b>assistant</b>", "model": SCRIPT}},
    );
    ctx.emit(
        "task-status",
        &root,
        fields! {"status": "working", "message": (format!("Working {IMG}"))},
    );
    thought(
        ctx,
        &root,
        "planning",
        "normal",
        &format!("Planning {SCRIPT} then {IMG} and {LINK}"),
        json!({"confidence": 0.5, "alternatives": [IMG, SCRIPT], "relatedTo": LINK}),
    );
    ctx.pause(200).await?;
    let call = ctx.id("call");
    ctx.emit(
        "tool-start",
        &root,
        fields! {"toolCallId": call, "toolName": (format!("search{IMG}")), "arguments": {"q": SCRIPT, "html": IMG}},
    );
    ctx.emit(
        "tool-progress",
        &root,
        fields! {"toolCallId": call, "progress": 0.5, "message": SCRIPT, "metadata": {"step": IMG, "stepsCompleted": 1, "stepsTotal": 2}},
    );
    ctx.pause(200).await?;
    ctx.emit(
        "tool-complete",
        &root,
        fields! {"toolCallId": call, "toolName": (format!("search{IMG}")), "success": true, "result": {"html": SCRIPT, "link": LINK}},
    );
    let sub = ctx.id("task");
    ctx.emit(
        "subtask-created",
        &root,
        fields! {"subtaskId": sub, "agentId": IMG, "prompt": (format!("Summarize {SCRIPT}"))},
    );
    ctx.emit(
        "task-created",
        &sub,
        fields! {"parentTaskId": root, "initiator": "agent"},
    );
    ctx.emit("task-status", &sub, fields! {"status": "working"});
    stream_text(ctx, &sub, &format!("Sub-agent says {IMG}"), 10, 20).await?;
    ctx.emit("task-status", &sub, fields! {"status": "completed"});
    ctx.emit(
        "task-complete",
        &sub,
        fields! {"content": (format!("Sub-agent says {IMG}"))},
    );

    let input = ctx.id("input");
    ctx.emit(
        "input-required",
        &root,
        fields! {
            "inputId": input, "requireUser": false, "inputType": "selection",
            "prompt": (format!("Pick one {IMG}")), "options": [IMG, SCRIPT, LINK],
        },
    );
    ctx.emit(
        "input-received",
        &root,
        fields! {"inputId": input, "providedBy": "agent", "agentId": SCRIPT},
    );
    let auth = ctx.id("auth");
    ctx.emit(
        "auth-required",
        &root,
        fields! {
            "authId": auth, "authType": "oauth2", "provider": IMG, "scopes": [SCRIPT],
            "prompt": (format!("Authorize {LINK}")), "authUrl": "javascript:alert(1)",
            "metadata": {"expiresIn": 600},
        },
    );
    ctx.pause(300).await?;
    ctx.emit(
        "auth-completed",
        &root,
        fields! {"authId": auth, "userId": IMG},
    );

    let [md, html, svg, data, set] = artifacts(ctx, &root, &call).await?;
    let text = format!(
        "Here is the summary {IMG} and {SCRIPT}.\n\nAlso {LINK} and <a href=\"javascript:alert(1)\">this</a>."
    );
    stream_text(ctx, &root, &text, 10, 20).await?;
    ctx.emit("task-status", &root, fields! {"status": "completed"});
    ctx.emit(
        "task-complete",
        &root,
        fields! {"content": text, "artifacts": [md, html, svg, data, set]},
    );
    Ok(())
}

/// Hostile artifacts: markdown with a script in its name, an HTML page, an SVG with a script, a
/// data artifact and a dataset full of markup; returns their ids.
async fn artifacts(ctx: &mut Ctx, root: &str, call: &str) -> Result<[String; 5], Stop> {
    let md = ctx.id("artifact");
    File {
        artifact: &md,
        name: "report<img src=x onerror=alert(1)>.md",
        description: SCRIPT,
        mime: "text/markdown",
        chunks: split_chunks(MARKDOWN, 4),
        encoding: "utf-8",
        total_size: MARKDOWN.len(),
        tool_call: Some(call),
        pace_ms: 50,
    }
    .write(ctx, root)
    .await?;
    let html = ctx.id("artifact");
    File {
        artifact: &html,
        name: "page.html",
        description: "An HTML file that must never be rendered inline",
        mime: "text/html",
        chunks: split_chunks(HTML, 2),
        encoding: "utf-8",
        total_size: HTML.len(),
        tool_call: None,
        pace_ms: 50,
    }
    .write(ctx, root)
    .await?;
    let svg = ctx.id("artifact");
    File {
        artifact: &svg,
        name: "image.svg",
        description: "An SVG with a script",
        mime: "image/svg+xml",
        chunks: vec![SVG_BASE64],
        encoding: "base64",
        total_size: 89,
        tool_call: None,
        pace_ms: 50,
    }
    .write(ctx, root)
    .await?;
    let data = ctx.id("artifact");
    ctx.emit(
        "data-write",
        root,
        fields! {"artifactId": data, "name": IMG, "data": {"html": SCRIPT, "link": LINK, "nested": {"x": IMG}}, "metadata": {"version": 1}},
    );
    let set = ctx.id("artifact");
    ctx.emit(
        "dataset-write",
        root,
        fields! {
            "artifactId": set, "rows": [{"name": IMG, "note": SCRIPT}, {"name": LINK, "note": "ok"}],
            "index": 0, "complete": true, "name": SCRIPT,
            "schema": {"type": "object", "properties": {"name": {"type": "string"}, "note": {"type": "string"}}},
            "metadata": {"totalRows": 2, "batchSize": 2},
        },
    );
    Ok([md, html, svg, data, set])
}
