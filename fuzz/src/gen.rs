//! Plausible canonical event sequences for the `store` target, built with `arbitrary`.
//!
//! Ids come from small alphabets (5 tasks, 3 tools, 3 requests, 3 artifacts, 2 contexts) so
//! that events interact: deltas of the same task, chunks of the same artifact, answers to the
//! same request, terminal states followed by more content. Every event is valid JSON of its
//! kind most of the time; a few fields vary in type or range to reach the rule checks.

use agentwire::json::write_str;
use arbitrary::Arbitrary;
use std::fmt::Write;

/// A small-alphabet id.
#[derive(Arbitrary, Debug, Clone, Copy)]
pub struct Id(u8);

impl Id {
    fn task(self) -> String {
        format!("t{}", self.0 % 5)
    }
    fn ctx(self) -> &'static str {
        if self.0 & 0x80 == 0 {
            "c0"
        } else {
            "c1"
        }
    }
    fn n(self, prefix: &str, of: u8) -> String {
        format!("{prefix}{}", self.0 % of)
    }
}

/// Text: mostly from a fixed list (markup, multi-byte, secrets), sometimes free.
#[derive(Arbitrary, Debug, Clone)]
pub enum Text {
    /// One of [`WORDS`].
    Word(u8),
    /// Any string.
    Free(String),
    /// A long run of one character.
    Long(u16),
}

const WORDS: &[&str] = &[
    "",
    "Hello",
    " world",
    "é€😀",
    "<img src=x onerror=alert(1)>",
    "line\nbreak\r\n",
    "{\"password\":\"hunter2\"}",
    "AAAA",
    "aGVsbG8=",
    "not base64!",
    "\u{0}",
    "https://example.com/auth",
    "javascript:alert(1)",
];

impl Text {
    fn get(&self) -> String {
        match self {
            Text::Word(i) => WORDS[usize::from(*i) % WORDS.len()].to_owned(),
            Text::Free(s) => s.chars().take(64).collect(),
            Text::Long(n) => "x".repeat(usize::from(*n % 4096)),
        }
    }
}

/// One canonical event (the kind and its main fields).
#[derive(Arbitrary, Debug, Clone)]
pub enum Ev {
    TaskCreated {
        task: Id,
        parent: Option<Id>,
        agent: bool,
    },
    Status {
        task: Id,
        status: u8,
        message: Option<Text>,
        reason: bool,
    },
    TaskComplete {
        task: Id,
        content: Option<Text>,
        artifacts: Vec<Id>,
    },
    Delta {
        task: Id,
        index: u8,
        delta: Text,
    },
    ContentComplete {
        task: Id,
        content: Text,
    },
    ToolStart {
        task: Id,
        tool: Id,
        args: Text,
    },
    ToolProgress {
        task: Id,
        tool: Id,
        progress: i8,
        steps: Option<(u8, u8)>,
    },
    ToolComplete {
        task: Id,
        tool: Id,
        success: bool,
        result: Option<Text>,
    },
    InputRequired {
        task: Id,
        input: Id,
        require_user: Option<bool>,
        timeout: Option<u8>,
        kind: u8,
    },
    InputReceived {
        task: Id,
        input: Id,
        by_agent: bool,
    },
    AuthRequired {
        task: Id,
        auth: Id,
        url: Text,
        expires: Option<u8>,
    },
    AuthCompleted {
        task: Id,
        auth: Id,
    },
    FileWrite {
        task: Id,
        art: Id,
        index: u8,
        complete: bool,
        base64: bool,
        data: Text,
    },
    DataWrite {
        task: Id,
        art: Id,
        version: Option<u8>,
        value: Text,
    },
    DatasetWrite {
        task: Id,
        art: Id,
        index: u8,
        complete: bool,
        rows: u8,
        schema: bool,
        odd: bool,
    },
    Subtask {
        task: Id,
        sub: Id,
        prompt: Text,
    },
    Thought {
        task: Id,
        index: u8,
        content: Text,
        confidence: Option<u8>,
    },
    Internal {
        task: Id,
        which: u8,
    },
    Unknown {
        task: Id,
    },
    /// A field of the wrong type or a missing one (rejected by the decoder).
    Broken {
        task: Id,
        which: u8,
    },
}

const STATUSES: &[&str] = &[
    "working",
    "waiting-input",
    "waiting-auth",
    "waiting-subtask",
    "completed",
    "failed",
    "canceled",
    "paused",
];

/// A JSON object under construction.
struct Obj(String);

impl Obj {
    fn new(kind: &str, task: Id, ts: &str) -> Obj {
        let mut o = Obj(String::from("{"));
        o.s("kind", kind)
            .s("contextId", task.ctx())
            .s("taskId", &task.task())
            .s("timestamp", ts);
        o
    }
    fn key(&mut self, k: &str) -> &mut String {
        if self.0.len() > 1 {
            self.0.push(',');
        }
        write_str(&mut self.0, k);
        self.0.push(':');
        &mut self.0
    }
    fn s(&mut self, k: &str, v: &str) -> &mut Self {
        let out = self.key(k);
        write_str(out, v);
        self
    }
    fn raw(&mut self, k: &str, v: &str) -> &mut Self {
        self.key(k).push_str(v);
        self
    }
    fn n(&mut self, k: &str, v: i64) -> &mut Self {
        let _ = write!(self.key(k), "{v}");
        self
    }
    fn b(&mut self, k: &str, v: bool) -> &mut Self {
        self.raw(k, if v { "true" } else { "false" })
    }
    fn done(mut self) -> String {
        self.0.push('}');
        self.0
    }
}

fn json_str(s: &str) -> String {
    let mut out = String::new();
    write_str(&mut out, s);
    out
}

impl Ev {
    /// The event as the JSON `data` of one SSE event; `ts` is its timestamp.
    pub fn render(&self, ts: &str) -> String {
        match self {
            Ev::TaskCreated {
                task,
                parent,
                agent,
            } => {
                let mut o = Obj::new("task-created", *task, ts);
                o.s("initiator", if *agent { "agent" } else { "user" });
                if let Some(p) = parent {
                    o.s("parentTaskId", &p.task());
                }
                o.raw("metadata", "{\"agentId\":\"a\",\"model\":\"m\"}");
                o.done()
            }
            Ev::Status {
                task,
                status,
                message,
                reason,
            } => {
                let mut o = Obj::new("task-status", *task, ts);
                o.s("status", STATUSES[usize::from(*status) % STATUSES.len()]);
                if let Some(m) = message {
                    o.s("message", &m.get());
                }
                if *reason {
                    o.raw(
                        "metadata",
                        "{\"reason\":\"because\",\"blockedBy\":\"user\"}",
                    );
                }
                o.done()
            }
            Ev::TaskComplete {
                task,
                content,
                artifacts,
            } => {
                let mut o = Obj::new("task-complete", *task, ts);
                if let Some(c) = content {
                    o.s("content", &c.get());
                }
                let list: Vec<String> = artifacts
                    .iter()
                    .take(8)
                    .map(|a| json_str(&a.n("a", 3)))
                    .collect();
                o.raw("artifacts", &format!("[{}]", list.join(",")));
                o.raw(
                    "metadata",
                    "{\"duration\":12.5,\"iterations\":2,\"tokensUsed\":100}",
                );
                o.done()
            }
            Ev::Delta { task, index, delta } => {
                let mut o = Obj::new("content-delta", *task, ts);
                o.s("delta", &delta.get())
                    .n("index", i64::from(*index % 24));
                o.done()
            }
            Ev::ContentComplete { task, content } => {
                let mut o = Obj::new("content-complete", *task, ts);
                o.s("content", &content.get());
                o.done()
            }
            Ev::ToolStart { task, tool, args } => {
                let mut o = Obj::new("tool-start", *task, ts);
                o.s("toolCallId", &tool.n("x", 3)).s("toolName", "search");
                o.raw(
                    "arguments",
                    &format!("{{\"q\":{},\"api_key\":\"sk-1\"}}", json_str(&args.get())),
                );
                o.done()
            }
            Ev::ToolProgress {
                task,
                tool,
                progress,
                steps,
            } => {
                let mut o = Obj::new("tool-progress", *task, ts);
                o.s("toolCallId", &tool.n("x", 3))
                    .raw("progress", &format!("{}", f64::from(*progress) / 100.0));
                if let Some((a, b)) = steps {
                    o.raw(
                        "metadata",
                        &format!("{{\"step\":\"s\",\"stepsCompleted\":{a},\"stepsTotal\":{b}}}"),
                    );
                }
                o.done()
            }
            Ev::ToolComplete {
                task,
                tool,
                success,
                result,
            } => {
                let mut o = Obj::new("tool-complete", *task, ts);
                o.s("toolCallId", &tool.n("x", 3))
                    .s("toolName", "search")
                    .b("success", *success);
                match (result, success) {
                    (Some(r), true) => {
                        o.raw("result", &format!("{{\"text\":{}}}", json_str(&r.get())));
                    }
                    (Some(r), false) => {
                        o.s("error", &r.get());
                    }
                    _ => {}
                }
                o.done()
            }
            Ev::InputRequired {
                task,
                input,
                require_user,
                timeout,
                kind,
            } => {
                let mut o = Obj::new("input-required", *task, ts);
                let kinds = [
                    "tool-execution",
                    "confirmation",
                    "clarification",
                    "selection",
                    "custom",
                ];
                o.s("inputId", &input.n("i", 3))
                    .s("inputType", kinds[usize::from(*kind) % kinds.len()])
                    .s("prompt", "Proceed?");
                if let Some(r) = require_user {
                    o.b("requireUser", *r);
                }
                if kind & 0x10 != 0 {
                    o.raw("schema", "{\"type\":\"boolean\"}");
                }
                if kind & 0x20 != 0 {
                    o.raw("options", "[\"yes\",\"no\"]");
                }
                if let Some(t) = timeout {
                    o.raw(
                        "metadata",
                        &format!("{{\"timeout\":{},\"urgency\":\"high\"}}", t % 30),
                    );
                }
                o.done()
            }
            Ev::InputReceived {
                task,
                input,
                by_agent,
            } => {
                let mut o = Obj::new("input-received", *task, ts);
                o.s("inputId", &input.n("i", 3))
                    .s("providedBy", if *by_agent { "agent" } else { "user" });
                o.done()
            }
            Ev::AuthRequired {
                task,
                auth,
                url,
                expires,
            } => {
                let mut o = Obj::new("auth-required", *task, ts);
                o.s("authId", &auth.n("u", 3))
                    .s("authType", "oauth2")
                    .s("prompt", "Sign in")
                    .s("authUrl", &url.get())
                    .raw("scopes", "[\"repo\"]");
                if let Some(e) = expires {
                    o.raw("metadata", &format!("{{\"expiresIn\":{}}}", e % 30));
                }
                o.done()
            }
            Ev::AuthCompleted { task, auth } => {
                let mut o = Obj::new("auth-completed", *task, ts);
                o.s("authId", &auth.n("u", 3)).s("userId", "me");
                o.done()
            }
            Ev::FileWrite {
                task,
                art,
                index,
                complete,
                base64,
                data,
            } => {
                let mut o = Obj::new("file-write", *task, ts);
                let index = index % 12;
                o.s("artifactId", &art.n("a", 3))
                    .s("data", &data.get())
                    .n("index", i64::from(index))
                    .b("complete", *complete);
                if index == 0 {
                    o.s("name", "f.txt")
                        .s("mimeType", "text/plain")
                        .s("encoding", if *base64 { "base64" } else { "utf-8" });
                    o.raw("metadata", "{\"totalSize\":10,\"toolCallId\":\"x0\"}");
                }
                o.done()
            }
            Ev::DataWrite {
                task,
                art,
                version,
                value,
            } => {
                let mut o = Obj::new("data-write", *task, ts);
                o.s("artifactId", &art.n("a", 3)).raw(
                    "data",
                    &format!("{{\"v\":{},\"token\":\"t\"}}", json_str(&value.get())),
                );
                if let Some(v) = version {
                    o.raw("metadata", &format!("{{\"version\":{}}}", v % 8));
                }
                o.done()
            }
            Ev::DatasetWrite {
                task,
                art,
                index,
                complete,
                rows,
                schema,
                odd,
            } => {
                let mut o = Obj::new("dataset-write", *task, ts);
                let index = index % 12;
                let rows: Vec<String> = (0..rows % 6)
                    .map(|r| {
                        if *odd && r == 1 {
                            "{\"n\":\"x\"}".to_owned()
                        } else {
                            format!("{{\"n\":{r}}}")
                        }
                    })
                    .collect();
                o.s("artifactId", &art.n("a", 3))
                    .raw("rows", &format!("[{}]", rows.join(",")))
                    .n("index", i64::from(index))
                    .b("complete", *complete);
                if index == 0 && *schema {
                    o.raw(
                        "schema",
                        "{\"type\":\"object\",\"properties\":{\"n\":{\"type\":\"number\"}}}",
                    );
                }
                o.raw("metadata", "{\"totalRows\":10,\"batchSize\":2}");
                o.done()
            }
            Ev::Subtask { task, sub, prompt } => {
                let mut o = Obj::new("subtask-created", *task, ts);
                o.s("subtaskId", &sub.task())
                    .s("prompt", &prompt.get())
                    .s("agentId", "helper");
                o.done()
            }
            Ev::Thought {
                task,
                index,
                content,
                confidence,
            } => {
                let mut o = Obj::new("thought-stream", *task, ts);
                o.s("thoughtId", &format!("th{}", index % 8))
                    .s("thoughtType", "reasoning")
                    .s(
                        "verbosity",
                        ["brief", "normal", "detailed"][usize::from(*index) % 3],
                    )
                    .s("content", &content.get())
                    .n("index", i64::from(*index));
                if let Some(c) = confidence {
                    o.raw(
                        "metadata",
                        &format!("{{\"confidence\":{}}}", f64::from(*c) / 200.0),
                    );
                }
                o.done()
            }
            Ev::Internal { task, which } => match which % 3 {
                0 => {
                    let mut o = Obj::new("internal:llm-call", *task, ts);
                    o.n("iteration", 1).s("model", "m");
                    o.done()
                }
                1 => {
                    let mut o = Obj::new("internal:checkpoint", *task, ts);
                    o.n("iteration", 2);
                    o.done()
                }
                _ => {
                    let mut o = Obj::new("internal:tool-start", *task, ts);
                    o.s("toolName", "search").s("toolCallId", "x0");
                    o.done()
                }
            },
            Ev::Unknown { task } => {
                let mut o = Obj::new("future-kind", *task, ts);
                o.raw("payload", "{\"secret\":\"s3cr3t\"}");
                o.done()
            }
            Ev::Broken { task, which } => match which % 4 {
                0 => {
                    let mut o = Obj::new("content-delta", *task, ts);
                    o.n("delta", 5).n("index", 0);
                    o.done()
                }
                1 => "{\"kind\":\"task-status\",\"password\":\"hunter2\"".to_owned(),
                2 => format!("[{}]", json_str(&task.task())),
                _ => {
                    let mut o = Obj::new("tool-progress", *task, ts);
                    o.s("toolCallId", "x0").s("progress", "half");
                    o.done()
                }
            },
        }
    }
}

/// How an event's SSE `id` is chosen.
#[derive(Arbitrary, Debug, Clone, Copy)]
pub enum IdMode {
    /// The next number.
    Next,
    /// No `id:` line (the last id persists).
    None,
    /// A number already used (a replay).
    Replay(u8),
    /// A string id.
    Str(u8),
}

/// One step of a scenario.
#[derive(Arbitrary, Debug, Clone)]
pub enum Op {
    /// An event sent as one SSE event.
    Send {
        id: IdMode,
        ev: Ev,
        dt: u8,
        typed: bool,
    },
    /// The same event sent again right after itself (same id and data).
    Resend,
    /// Arbitrary bytes on the wire.
    Raw(Vec<u8>),
    /// The connection drops mid-stream and is resumed (the parser is reset).
    Reconnect,
    /// The stream ends (gaps are reported), then continues as if resumed.
    Finish,
    /// The wall clock advances by this many seconds.
    Clock(u8),
}

/// Small limits (each `None` keeps the default).
#[derive(Arbitrary, Debug, Clone, Copy)]
pub struct SmallLimits(pub [Option<u8>; 12]);

impl SmallLimits {
    /// The limits, each at most a few dozen so that every limit is reached.
    pub fn limits(&self) -> agentwire::state::Limits {
        let mut l = agentwire::state::Limits::default();
        let v = |i: usize, default: usize| self.0[i].map_or(default, |x| usize::from(x % 32));
        l.max_tasks = v(0, l.max_tasks);
        l.max_content_bytes = v(1, 4096);
        l.max_artifacts = v(2, l.max_artifacts);
        l.max_artifact_bytes = v(3, 4096);
        l.max_dataset_rows = v(4, l.max_dataset_rows);
        l.max_pending_chunks = v(5, l.max_pending_chunks);
        l.max_thoughts_per_task = v(6, l.max_thoughts_per_task);
        l.max_diagnostics = v(7, l.max_diagnostics);
        l.raw_log_events = v(8, 4);
        l.dedupe_window = v(9, l.dedupe_window);
        l
    }
}

/// A whole scenario.
#[derive(Arbitrary, Debug, Clone)]
pub struct Scenario {
    /// The store limits.
    pub limits: SmallLimits,
    /// The steps.
    pub ops: Vec<Op>,
}

/// Stream time as ISO 8601 (`secs` after 2025-01-01T00:00:00Z, within a day).
pub fn timestamp(secs: u32) -> String {
    let s = secs % 86_400;
    format!(
        "2025-01-01T{:02}:{:02}:{:02}.000Z",
        s / 3600,
        (s / 60) % 60,
        s % 60
    )
}

/// Renders one SSE event block.
pub fn sse_block(id: Option<&str>, event_type: Option<&str>, data: &str) -> String {
    let mut s = String::with_capacity(data.len() + 32);
    if let Some(id) = id {
        s.push_str("id: ");
        s.push_str(id);
        s.push('\n');
    }
    if let Some(t) = event_type {
        s.push_str("event: ");
        s.push_str(t);
        s.push('\n');
    }
    for line in data.split('\n') {
        s.push_str("data: ");
        s.push_str(line);
        s.push('\n');
    }
    s.push('\n');
    s
}
