//! The scripted agent runs, in protocol 000. Deterministic for a seed (ids, text and
//! timestamps come from the seed and a simulated clock, never from the wall clock).

use crate::runs::Run;
use std::sync::Arc;
use std::time::Duration;

/// What a scenario script writes through.
pub struct Ctx {
    run: Arc<Run>,
    /// The run's context id (`ctx-<runId>`).
    pub context: String,
    seed: u64,
    speed: f64,
    /// Simulated milliseconds since 2025-11-06T10:30:00Z.
    clock_ms: u64,
}

/// A JSON string literal.
pub fn q(s: &str) -> String {
    let mut o = String::with_capacity(s.len() + 2);
    o.push('"');
    for c in s.chars() {
        match c {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            '\n' => o.push_str("\\n"),
            '\r' => o.push_str("\\r"),
            '\t' => o.push_str("\\t"),
            c if (c as u32) < 0x20 => o.push_str(&format!("\\u{:04x}", c as u32)),
            c => o.push(c),
        }
    }
    o.push('"');
    o
}

impl Ctx {
    /// A context writing to `run`.
    pub fn new(run: Arc<Run>, context: String, seed: u64, speed: f64) -> Self {
        Ctx {
            run,
            context,
            seed: seed.max(1),
            speed,
            clock_ms: 0,
        }
    }

    /// A deterministic number below `n`.
    pub fn rand(&mut self, n: u64) -> u64 {
        self.seed ^= self.seed << 13;
        self.seed ^= self.seed >> 7;
        self.seed ^= self.seed << 17;
        self.seed % n.max(1)
    }

    fn timestamp(&self) -> String {
        let t = self.clock_ms;
        let (s, ms) = (t / 1000, t % 1000);
        let (h, m, sec) = (10 + s / 3600, 30 + (s / 60) % 60, s % 60);
        let (h, m) = (h + m / 60, m % 60);
        format!("2025-11-06T{:02}:{:02}:{:02}.{ms:03}Z", h % 24, m, sec)
    }

    /// Advances simulated time by `ms`, sleeping `ms × speed` of real time.
    pub fn pause(&mut self, ms: u64) {
        self.clock_ms += ms;
        if self.speed > 0.0 {
            std::thread::sleep(Duration::from_millis((ms as f64 * self.speed) as u64));
        }
    }

    /// Emits one event of `kind` for `task` with the extra JSON members `fields` (no braces).
    pub fn emit(&mut self, kind: &str, task: &str, fields: &str) {
        self.clock_ms += 1;
        let sep = if fields.is_empty() { "" } else { "," };
        let data = format!(
            "{{\"kind\":{},\"contextId\":{},\"taskId\":{}{sep}{fields},\"timestamp\":\"{}\"}}",
            q(kind),
            q(&self.context),
            q(task),
            self.timestamp()
        );
        self.run.push(kind, &data);
    }

    /// Waits for the page's answer to `key` (`input:<id>`, `auth:<id>`).
    pub fn wait(&self, key: &str) -> String {
        self.run.wait_answer(key)
    }

    /// Whether the page asked to cancel `task`.
    pub fn canceled(&self, task: &str) -> bool {
        self.run.has_answer(&format!("cancel:{task}"))
    }

    /// Streams `text` as content deltas split into short tokens.
    pub fn answer_text(&mut self, task: &str, text: &str, pace_ms: u64) {
        let mut index = 0;
        let mut token = String::new();
        let flush = |ctx: &mut Ctx, token: &mut String, index: &mut u64| {
            if !token.is_empty() {
                ctx.emit(
                    "content-delta",
                    task,
                    &format!("\"delta\":{},\"index\":{index}", q(token)),
                );
                *index += 1;
                token.clear();
                let jitter = ctx.rand(pace_ms / 2 + 1);
                ctx.pause(pace_ms + jitter);
            }
        };
        for c in text.chars() {
            token.push(c);
            if c == ' ' || c == '\n' {
                flush(self, &mut token, &mut index);
            }
        }
        flush(self, &mut token, &mut index);
        self.emit(
            "content-complete",
            task,
            &format!("\"content\":{}", q(text)),
        );
    }
}

type Script = fn(&mut Ctx);

/// (id, title, description, script)
const SCENARIOS: &[(&str, &str, &str, Script)] = &[
    ("quick", "Every event kind", "A short non-interactive run covering every kind of protocol 000", quick),
    ("main", "Report with approval", "Tools, sub-agents, an approval and an auth prompt answered in the page, artifacts, a streamed answer", main_scenario),
];

/// The script named `id`.
pub fn find(id: &str) -> Option<Script> {
    SCENARIOS.iter().find(|s| s.0 == id).map(|s| s.3)
}

/// `GET /api/scenarios`.
pub fn list_json() -> String {
    let items: Vec<String> = SCENARIOS
        .iter()
        .map(|(id, t, d, _)| {
            format!(
                "{{\"id\":{},\"title\":{},\"description\":{}}}",
                q(id),
                q(t),
                q(d)
            )
        })
        .collect();
    format!("[{}]", items.join(","))
}

const PNG_B64: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

fn tool(ctx: &mut Ctx, task: &str, call: &str, name: &str, steps: u64, pace: u64) {
    ctx.emit("tool-start", task, &format!("\"toolCallId\":{},\"toolName\":{},\"arguments\":{{\"query\":\"Q4 sales\",\"limit\":100}},\"metadata\":{{\"provider\":\"local\",\"concurrent\":false}}", q(call), q(name)));
    ctx.emit(
        "internal:tool-start",
        task,
        &format!("\"toolName\":{},\"toolCallId\":{}", q(name), q(call)),
    );
    for s in 1..=steps {
        ctx.pause(pace);
        ctx.emit(
            "tool-progress",
            task,
            &format!("\"toolCallId\":{},\"progress\":{},\"message\":\"Step {s} of {steps}\",\"metadata\":{{\"step\":\"step-{s}\",\"stepsCompleted\":{s},\"stepsTotal\":{steps}}}", q(call), s as f64 / steps as f64),
        );
    }
    ctx.emit("tool-complete", task, &format!("\"toolCallId\":{},\"toolName\":{},\"success\":true,\"result\":{{\"count\":2,\"records\":[{{\"id\":1}},{{\"id\":2}}]}},\"metadata\":{{\"duration\":{},\"cached\":false}}", q(call), q(name), steps * pace));
    ctx.emit(
        "internal:tool-complete",
        task,
        &format!("\"toolCallId\":{},\"success\":true", q(call)),
    );
}

fn artifacts(ctx: &mut Ctx, task: &str, pace: u64) {
    let md = [
        "# Q4 sales report\n\n",
        "Sales rose **15%** in Q4 — driven by the north region 🚀.\n\n",
        "| region | growth |\n|---|---|\n| north | 22% |\n| south | 9% |\n",
        "\n## Next steps\n- expand to new markets\n",
    ];
    let total: usize = md.iter().map(|c| c.len()).sum();
    for (i, c) in md.iter().enumerate() {
        let meta = if i == 0 {
            format!(",\"name\":\"report.md\",\"description\":\"Quarterly report\",\"mimeType\":\"text/markdown\",\"encoding\":\"utf-8\",\"metadata\":{{\"toolCallId\":\"call-search\",\"totalSize\":{total}}}")
        } else {
            String::new()
        };
        ctx.emit(
            "file-write",
            task,
            &format!(
                "\"artifactId\":\"art-report\",\"data\":{},\"index\":{i},\"complete\":{}{meta}",
                q(c),
                i + 1 == md.len()
            ),
        );
        ctx.pause(pace);
    }
    let (a, b) = PNG_B64.split_at(48);
    ctx.emit("file-write", task, &format!("\"artifactId\":\"art-chart\",\"data\":{},\"index\":0,\"complete\":false,\"name\":\"chart.png\",\"mimeType\":\"image/png\",\"encoding\":\"base64\"", q(a)));
    ctx.emit(
        "file-write",
        task,
        &format!(
            "\"artifactId\":\"art-chart\",\"data\":{},\"index\":1,\"complete\":true",
            q(b)
        ),
    );
    ctx.emit("data-write", task, "\"artifactId\":\"art-summary\",\"name\":\"summary\",\"description\":\"Key figures\",\"data\":{\"growth\":0.15,\"regions\":2},\"metadata\":{\"version\":1}");
    ctx.pause(pace);
    ctx.emit("data-write", task, "\"artifactId\":\"art-summary\",\"data\":{\"growth\":0.151,\"regions\":2,\"revised\":true},\"metadata\":{\"version\":2}");
    let regions = ["north", "south", "east", "west"];
    let mut row = 0;
    for b in 0..3 {
        let n = if b == 2 { 5 } else { 10 };
        let rows: Vec<String> = (0..n)
            .map(|_| {
                row += 1;
                format!(
                    "{{\"date\":\"2025-10-{:02}\",\"region\":\"{}\",\"amount\":{}.5}}",
                    row,
                    regions[row % 4],
                    1000 + row * 37
                )
            })
            .collect();
        let meta = if b == 0 {
            ",\"name\":\"q4-sales\",\"description\":\"Sales by day\",\"schema\":{\"type\":\"object\",\"properties\":{\"date\":{\"type\":\"string\"},\"region\":{\"type\":\"string\"},\"amount\":{\"type\":\"number\"}}},\"metadata\":{\"totalRows\":25,\"batchSize\":10}"
        } else {
            ""
        };
        ctx.emit(
            "dataset-write",
            task,
            &format!(
                "\"artifactId\":\"art-sales\",\"rows\":[{}],\"index\":{b},\"complete\":{}{meta}",
                rows.join(","),
                b == 2
            ),
        );
        ctx.pause(pace);
    }
}

fn thoughts(ctx: &mut Ctx, task: &str, base: u64) {
    for (i, (v, text)) in [("brief", "Querying the sales database"), ("normal", "I'll gather Q4 data, then compare regions."), ("detailed", "I need Q4 sales; the sales_db tool is faster than the API and the cache is fresh. Alternative: the analytics API (slower).")].iter().enumerate() {
        ctx.emit("thought-stream", task, &format!("\"thoughtId\":\"th-{}\",\"thoughtType\":\"planning\",\"verbosity\":{},\"content\":{},\"index\":{i},\"metadata\":{{\"confidence\":0.{},\"alternatives\":[\"use the analytics API\"],\"relatedTo\":\"call-search\"}}", base + i as u64, q(v), q(text), 9 - i));
    }
}

const ANSWER: &str = "Based on the analysis, **Q4 sales increased by 15%** — led by the north region (+22%). Café revenue was \"flat\" 🙂.\n\nSee the report and the dataset for details.";

fn quick(ctx: &mut Ctx) {
    let root = "task-root";
    ctx.emit(
        "task-created",
        root,
        "\"initiator\":\"user\",\"metadata\":{\"agentId\":\"assistant-v1\",\"model\":\"gpt-4\"}",
    );
    ctx.emit(
        "task-status",
        root,
        "\"status\":\"working\",\"message\":\"Processing your request\"",
    );
    ctx.emit(
        "internal:llm-call",
        root,
        "\"iteration\":1,\"model\":\"gpt-4\",\"messageCount\":3,\"toolCount\":2",
    );
    thoughts(ctx, root, 1);
    tool(ctx, root, "call-search", "search_database", 4, 0);
    for (sub, outcome) in [
        ("sub-ok", "completed"),
        ("sub-fail", "failed"),
        ("sub-cancel", "canceled"),
    ] {
        ctx.emit(
            "subtask-created",
            root,
            &format!(
                "\"subtaskId\":{},\"agentId\":\"analyst-v1\",\"prompt\":\"Analyze {sub}\"",
                q(sub)
            ),
        );
        ctx.emit(
            "task-created",
            sub,
            &format!("\"parentTaskId\":{},\"initiator\":\"agent\"", q(root)),
        );
        ctx.emit("task-status", sub, "\"status\":\"working\"");
        if outcome == "completed" {
            ctx.emit("input-required", sub, "\"inputId\":\"in-coord\",\"requireUser\":false,\"inputType\":\"tool-execution\",\"prompt\":\"Execute client-side tool: get_user_profile\",\"schema\":{\"type\":\"object\",\"properties\":{\"userId\":{\"type\":\"integer\"}}},\"metadata\":{\"toolCall\":{\"id\":\"call-001\",\"function\":{\"name\":\"get_user_profile\",\"arguments\":\"{\\\"userId\\\":123}\"}}}");
            ctx.emit("input-received", sub, "\"inputId\":\"in-coord\",\"providedBy\":\"agent\",\"agentId\":\"coordinator-v1\",\"metadata\":{\"duration\":120}");
            ctx.answer_text(sub, "Regional trend: north up 22%.", 0);
            ctx.emit("task-status", sub, "\"status\":\"completed\"");
            ctx.emit(
                "task-complete",
                sub,
                "\"content\":\"Regional trend: north up 22%.\",\"metadata\":{\"duration\":800}",
            );
        } else {
            ctx.emit("task-status", sub, &format!("\"status\":{},\"message\":\"Subtask {outcome}\",\"metadata\":{{\"reason\":{}}}", q(outcome), q(if outcome == "failed" { "tool error: upstream timeout" } else { "canceled by coordinator" })));
        }
    }
    ctx.emit(
        "task-status",
        root,
        "\"status\":\"waiting-subtask\",\"metadata\":{\"blockedBy\":\"sub-ok\"}",
    );
    ctx.emit("internal:thought-process", root, "\"iteration\":2,\"stage\":\"post-llm\",\"reasoning\":\"Subtasks done; writing artifacts.\",\"state\":{\"pendingTools\":[],\"messagesCount\":5}");
    ctx.emit("task-status", root, "\"status\":\"working\"");
    ctx.emit("input-required", root, "\"inputId\":\"in-user\",\"requireUser\":true,\"inputType\":\"confirmation\",\"prompt\":\"Send the report?\",\"options\":[\"approve\",\"deny\"],\"metadata\":{\"urgency\":\"high\",\"timeout\":300}");
    ctx.emit(
        "input-received",
        root,
        "\"inputId\":\"in-user\",\"providedBy\":\"user\",\"userId\":\"user-1\"",
    );
    ctx.emit("auth-required", root, "\"authId\":\"auth-gh\",\"authType\":\"oauth2\",\"provider\":\"github\",\"scopes\":[\"repo\"],\"prompt\":\"Authorize GitHub\",\"authUrl\":\"https://github.com/login/oauth/authorize?client_id=demo\",\"metadata\":{\"expiresIn\":600}");
    ctx.emit("auth-completed", root, "\"authId\":\"auth-gh\",\"userId\":\"user-1\",\"metadata\":{\"expiresAt\":\"2025-11-06T18:30:50Z\"}");
    artifacts(ctx, root, 0);
    ctx.emit("internal:checkpoint", root, "\"iteration\":3");
    ctx.answer_text(root, ANSWER, 0);
    ctx.emit("task-status", root, "\"status\":\"completed\"");
    ctx.emit("task-complete", root, &format!("\"content\":{},\"artifacts\":[\"art-report\",\"art-chart\",\"art-summary\",\"art-sales\"],\"metadata\":{{\"duration\":44250,\"iterations\":3,\"tokensUsed\":1547}}", q(ANSWER)));
}

fn main_scenario(ctx: &mut Ctx) {
    let root = "task-main";
    ctx.emit(
        "task-created",
        root,
        "\"initiator\":\"user\",\"metadata\":{\"agentId\":\"assistant-v1\",\"model\":\"gpt-4\"}",
    );
    ctx.emit(
        "task-status",
        root,
        "\"status\":\"working\",\"message\":\"Processing your request\"",
    );
    thoughts(ctx, root, 100);
    tool(ctx, root, "call-search", "search_database", 5, 600);
    for sub in ["sub-north", "sub-south"] {
        ctx.emit(
            "subtask-created",
            root,
            &format!(
                "\"subtaskId\":{},\"agentId\":\"analyst-v1\",\"prompt\":\"Analyze {sub}\"",
                q(sub)
            ),
        );
        ctx.emit(
            "task-created",
            sub,
            &format!("\"parentTaskId\":{},\"initiator\":\"agent\"", q(root)),
        );
    }
    ctx.emit(
        "task-status",
        root,
        "\"status\":\"waiting-subtask\",\"metadata\":{\"blockedBy\":\"sub-north\"}",
    );
    // Interleaved sub-agents.
    for (i, word) in ["North ", "South ", "grew ", "grew ", "22%.", "9%."]
        .iter()
        .enumerate()
    {
        let sub = if i % 2 == 0 { "sub-north" } else { "sub-south" };
        ctx.emit(
            "content-delta",
            sub,
            &format!("\"delta\":{},\"index\":{}", q(word), i / 2),
        );
        ctx.pause(150);
    }
    for (sub, text) in [
        ("sub-north", "North grew 22%."),
        ("sub-south", "South grew 9%."),
    ] {
        ctx.emit("content-complete", sub, &format!("\"content\":{}", q(text)));
        ctx.emit("task-status", sub, "\"status\":\"completed\"");
    }
    ctx.emit("task-status", root, "\"status\":\"working\"");
    ctx.emit("input-required", root, "\"inputId\":\"in-approve\",\"requireUser\":true,\"inputType\":\"confirmation\",\"prompt\":\"Send the report to finance@example.com?\",\"options\":[\"approve\",\"deny\"],\"schema\":{\"type\":\"string\",\"enum\":[\"approve\",\"deny\"]},\"metadata\":{\"urgency\":\"high\",\"timeout\":300}");
    ctx.emit(
        "task-status",
        root,
        "\"status\":\"waiting-input\",\"metadata\":{\"blockedBy\":\"user\"}",
    );
    let answer = ctx.wait("input:in-approve");
    ctx.emit(
        "input-received",
        root,
        "\"inputId\":\"in-approve\",\"providedBy\":\"user\",\"userId\":\"user-1\"",
    );
    ctx.emit("task-status", root, "\"status\":\"working\"");
    if answer.contains("approve") {
        tool(ctx, root, "call-email", "send_email", 3, 400);
    } else {
        ctx.emit("thought-stream", root, "\"thoughtId\":\"th-declined\",\"thoughtType\":\"decision\",\"verbosity\":\"normal\",\"content\":\"User declined sending the email; skipping it.\",\"index\":3");
    }
    ctx.emit("auth-required", root, "\"authId\":\"auth-gh\",\"authType\":\"oauth2\",\"provider\":\"github\",\"scopes\":[\"repo\"],\"prompt\":\"Authorize GitHub to publish the report\",\"authUrl\":\"https://github.com/login/oauth/authorize?client_id=demo\",\"metadata\":{\"expiresIn\":600}");
    ctx.emit(
        "task-status",
        root,
        "\"status\":\"waiting-auth\",\"metadata\":{\"blockedBy\":\"user\"}",
    );
    ctx.wait("auth:auth-gh");
    ctx.emit(
        "auth-completed",
        root,
        "\"authId\":\"auth-gh\",\"userId\":\"user-1\"",
    );
    ctx.emit("task-status", root, "\"status\":\"working\"");
    if ctx.canceled(root) {
        ctx.emit(
            "task-status",
            root,
            "\"status\":\"canceled\",\"metadata\":{\"reason\":\"canceled by user\"}",
        );
        return;
    }
    artifacts(ctx, root, 300);
    ctx.answer_text(root, ANSWER, 40);
    ctx.emit("task-status", root, "\"status\":\"completed\"");
    ctx.emit("task-complete", root, &format!("\"content\":{},\"artifacts\":[\"art-report\",\"art-chart\",\"art-summary\",\"art-sales\"],\"metadata\":{{\"duration\":44250,\"iterations\":3,\"tokensUsed\":1547}}", q(ANSWER)));
}
