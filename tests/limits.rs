//! Every limit, hit on purpose: each case sets one limit low, streams past it, and checks the
//! diagnostic (stable code, reported once), that what the limit bounds stays at the limit
//! (`Store::usage`), and that the stream goes on (an event after the limit still applies).
//!
//! Each case is its own test named after its limit (`maxTasks`; a limit with several cases:
//! `maxArtifacts::task-artifact-list`), so one limit can be run alone:
//! `cargo test --test limits -- maxTasks` (`--exact` for just that name).

/// Not a wasm test: nothing to run there.
#[cfg(target_arch = "wasm32")]
fn main() {}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    native::main()
}

#[cfg(not(target_arch = "wasm32"))]
mod native {
    use agentwire::events::{AgentEvent, MAX_FIELD_BYTES};
    use agentwire::pipeline::Session;
    use agentwire::sse::SseConfig;
    use agentwire::state::{EventMeta, Limits, Store, MAX_DIAGNOSTIC_BYTES};
    use libtest_mimic::{Arguments, Failed, Trial};

    const TS: &str = "2025-01-01T00:00:00.000Z";

    /// One SSE event of `kind` for task `task` with the extra members `extra` (JSON, no braces).
    fn ev(kind: &str, task: &str, extra: &str) -> String {
        let sep = if extra.is_empty() { "" } else { "," };
        format!(
            "data: {{\"kind\":\"{kind}\",\"contextId\":\"c\",\"taskId\":\"{task}\",\"timestamp\":\"{TS}\"{sep}{extra}}}\n\n"
        )
    }

    fn delta(task: &str, index: u64, text: &str) -> String {
        ev(
            "content-delta",
            task,
            &format!("\"delta\":\"{text}\",\"index\":{index}"),
        )
    }

    /// Status changes under string SSE ids, with replays: s3 and s2 while both are among the last
    /// two ids, then s2 again after s4.
    fn dedupe_stream() -> Vec<String> {
        let status = |id: &str, msg: &str| {
            format!("id: {id}\n")
                + &ev(
                    "task-status",
                    "t1",
                    &format!("\"status\":\"working\",\"message\":\"{msg}\""),
                )
        };
        vec![
            "id: s1\n".to_owned() + &ev("task-created", "t1", "\"initiator\":\"user\""),
            status("s2", "m1"),
            status("s3", "m2"),
            status("s3", "m2"),
            status("s2", "m1"),
            status("s4", "m3"),
            status("s2", "m1"),
        ]
    }

    /// The messages of task t1's status history, oldest first.
    fn history_messages(s: &Store) -> Vec<String> {
        s.task("t1")
            .map(|t| t.history.iter().filter_map(|h| h.message.clone()).collect())
            .unwrap_or_default()
    }

    struct Case {
        /// What is bounded.
        name: &'static str,
        /// The limit set low (a `Limits::NAMES` entry or `maxLineBytes`/`maxEventBytes`).
        limit: (&'static str, usize),
        /// The stream (the last event must apply although the limit was hit before it).
        stream: Vec<String>,
        /// The diagnostic code expected, and how many times.
        code: &'static str,
        times: usize,
        /// Checks on the final store.
        check: fn(&Store),
    }

    fn cases() -> Vec<Case> {
        let long = "x".repeat(40);
        vec![
            Case {
                name: "SSE line",
                limit: ("maxLineBytes", 160),
                stream: vec![
                    format!("data: {}\n\n", "y".repeat(200)),
                    ev("task-created", "after", "\"initiator\":\"user\""),
                ],
                code: "sse-line-too-long",
                times: 1,
                check: |s| assert!(s.task("after").is_some()),
            },
            Case {
                name: "SSE event",
                limit: ("maxEventBytes", 300),
                stream: vec![
                    format!("data: {}\n", "y".repeat(200)).repeat(2) + "\n",
                    ev("task-created", "after", "\"initiator\":\"user\""),
                ],
                code: "sse-event-too-large",
                times: 1,
                check: |s| assert!(s.task("after").is_some()),
            },
            Case {
                name: "tasks",
                limit: ("maxTasks", 2),
                stream: vec![
                    ev("task-created", "t1", "\"initiator\":\"user\""),
                    ev("task-created", "t2", "\"initiator\":\"user\""),
                    ev("task-created", "t3", "\"initiator\":\"user\""),
                    ev("task-created", "t4", "\"initiator\":\"user\""),
                    delta("t1", 0, "still here"),
                ],
                code: "limit-exceeded",
                times: 1,
                check: |s| {
                    assert_eq!(s.usage().tasks, 2);
                    assert!(s.task("t3").is_none());
                    assert_eq!(s.task("t1").map(|t| t.content.as_str()), Some("still here"));
                },
            },
            Case {
                name: "content per task (deltas and complete text)",
                limit: ("maxContentBytes", 10),
                stream: vec![
                    delta("t1", 0, "0123456"),
                    delta("t1", 1, "789abc"),
                    delta("t1", 2, "def"),
                    ev(
                        "content-complete",
                        "t1",
                        "\"content\":\"0123456789abcdef\"",
                    ),
                    delta("t2", 0, "other"),
                ],
                code: "limit-exceeded",
                times: 1,
                check: |s| {
                    assert_eq!(s.task("t1").map(|t| t.content.as_str()), Some("0123456789"));
                    assert_eq!(s.task("t2").map(|t| t.content.as_str()), Some("other"));
                },
            },
            Case {
                name: "artifacts",
                limit: ("maxArtifacts", 1),
                stream: vec![
                    ev("data-write", "t1", "\"artifactId\":\"a1\",\"data\":{\"n\":1}"),
                    ev("data-write", "t1", "\"artifactId\":\"a2\",\"data\":{\"n\":2}"),
                    ev("data-write", "t1", "\"artifactId\":\"a3\",\"data\":{\"n\":3}"),
                    ev("data-write", "t1", "\"artifactId\":\"a1\",\"data\":{\"n\":4}"),
                ],
                code: "limit-exceeded",
                times: 1,
                check: |s| {
                    assert_eq!(s.usage().artifacts, 1);
                    let a = s.artifact("a1").and_then(|a| a.data.clone()).map(|d| d.0);
                    assert_eq!(a.as_deref(), Some("{\"n\":4}"));
                },
            },
            Case {
                name: "artifact bytes (file)",
                limit: ("maxArtifactBytes", 8),
                stream: vec![
                    ev(
                        "file-write",
                        "t1",
                        "\"artifactId\":\"f\",\"data\":\"12345\",\"index\":0,\"complete\":false",
                    ),
                    ev(
                        "file-write",
                        "t1",
                        "\"artifactId\":\"f\",\"data\":\"67890\",\"index\":1,\"complete\":true",
                    ),
                    ev(
                        "file-write",
                        "t1",
                        "\"artifactId\":\"g\",\"data\":\"ok\",\"index\":0,\"complete\":true",
                    ),
                ],
                code: "limit-exceeded",
                times: 1,
                check: |s| {
                    assert_eq!(s.artifact_bytes("f"), Some(&b"12345"[..]));
                    assert_eq!(s.artifact("f").and_then(|a| a.complete), Some(false));
                    assert_eq!(s.artifact_bytes("g"), Some(&b"ok"[..]));
                },
            },
            Case {
                name: "artifact bytes (data record)",
                limit: ("maxArtifactBytes", 8),
                stream: vec![
                    ev("data-write", "t1", "\"artifactId\":\"d\",\"data\":{\"n\":1}"),
                    ev(
                        "data-write",
                        "t1",
                        "\"artifactId\":\"d\",\"data\":{\"n\":\"far too long\"}",
                    ),
                    ev("data-write", "t1", "\"artifactId\":\"e\",\"data\":{\"n\":2}"),
                ],
                code: "limit-exceeded",
                times: 1,
                check: |s| {
                    let d = s.artifact("d").and_then(|a| a.data.clone()).map(|d| d.0);
                    assert_eq!(d.as_deref(), Some("{\"n\":1}"));
                    assert!(s.artifact("e").is_some());
                },
            },
            Case {
                name: "dataset rows",
                limit: ("maxDatasetRows", 3),
                stream: vec![
                    ev(
                        "dataset-write",
                        "t1",
                        "\"artifactId\":\"r\",\"rows\":[{\"n\":1},{\"n\":2}],\"index\":0,\"complete\":false",
                    ),
                    ev(
                        "dataset-write",
                        "t1",
                        "\"artifactId\":\"r\",\"rows\":[{\"n\":3},{\"n\":4},{\"n\":5}],\"index\":1,\"complete\":true",
                    ),
                    ev(
                        "dataset-write",
                        "t1",
                        "\"artifactId\":\"q\",\"rows\":[{\"n\":1}],\"index\":0,\"complete\":true",
                    ),
                ],
                code: "limit-exceeded",
                times: 1,
                check: |s| {
                    assert_eq!(
                        s.artifact_rows_json("r").as_deref(),
                        Some("[{\"n\":1},{\"n\":2},{\"n\":3}]")
                    );
                    assert_eq!(s.artifact("q").and_then(|a| a.row_count), Some(1));
                },
            },
            Case {
                name: "pending out-of-order chunks (the gap is given up)",
                limit: ("maxPendingChunks", 2),
                stream: vec![
                    delta("t1", 0, "a"),
                    delta("t1", 2, "c"),
                    delta("t1", 3, "d"),
                    delta("t1", 4, "e"),
                    delta("t1", 1, "late"),
                    delta("t1", 5, "f"),
                ],
                code: "chunk-gap",
                times: 1,
                check: |s| {
                    assert_eq!(s.task("t1").map(|t| t.content.as_str()), Some("acdef"));
                    assert_eq!(s.usage().pending_chunks, 0);
                },
            },
            Case {
                name: "thoughts per task",
                limit: ("maxThoughtsPerTask", 2),
                stream: (0..5)
                    .map(|i| {
                        ev(
                            "thought-stream",
                            "t1",
                            &format!("\"thoughtId\":\"h{i}\",\"thoughtType\":\"reasoning\",\"verbosity\":\"normal\",\"content\":\"c{i}\",\"index\":{i}"),
                        )
                    })
                    .collect(),
                code: "limit-exceeded",
                times: 1,
                check: |s| {
                    let ids: Vec<&str> = s
                        .task("t1")
                        .map(|t| t.thoughts.iter().map(|h| h.id.as_str()).collect())
                        .unwrap_or_default();
                    assert_eq!(ids, ["h3", "h4"]);
                },
            },
            Case {
                name: "conversation messages per task",
                limit: ("maxMessagesPerTask", 2),
                stream: (0..4)
                    .map(|i| ev("message-start", "t1", &format!("\"messageId\":\"m{i}\",\"role\":\"assistant\"")))
                    .chain([ev("message-delta", "t1", "\"messageId\":\"m3\",\"delta\":\"lost\"")])
                    .collect(),
                code: "limit-exceeded",
                times: 1,
                check: |s| {
                    let ids: Vec<&str> = s
                        .task("t1")
                        .map(|t| t.messages.iter().map(|m| m.id.as_str()).collect())
                        .unwrap_or_default();
                    assert_eq!(ids, ["m0", "m1"]);
                    assert_eq!(s.task("t1").map(|t| t.content.as_str()), Some(""));
                },
            },
            Case {
                name: "status history per task",
                limit: ("maxHistoryPerTask", 2),
                stream: ["working", "waiting-input", "working", "waiting-auth", "completed"]
                    .iter()
                    .map(|st| ev("task-status", "t1", &format!("\"status\":\"{st}\"")))
                    .collect(),
                code: "limit-exceeded",
                times: 1,
                check: |s| {
                    let t = s.task("t1").expect("t1");
                    assert_eq!(t.history.len(), 2);
                    assert_eq!(t.status.map(|x| x.as_str()), Some("completed"));
                    assert_eq!(t.history.back().map(|h| h.status.as_str()), Some("completed"));
                },
            },
            Case {
                name: "tool calls per task",
                limit: ("maxToolsPerTask", 2),
                stream: vec![
                    ev("tool-start", "t1", "\"toolCallId\":\"x1\",\"toolName\":\"a\",\"arguments\":{}"),
                    ev("tool-start", "t1", "\"toolCallId\":\"x2\",\"toolName\":\"a\",\"arguments\":{}"),
                    ev("tool-start", "t1", "\"toolCallId\":\"x3\",\"toolName\":\"a\",\"arguments\":{}"),
                    ev("tool-progress", "t1", "\"toolCallId\":\"x3\",\"progress\":0.5"),
                    ev(
                        "tool-complete",
                        "t1",
                        "\"toolCallId\":\"x3\",\"toolName\":\"a\",\"success\":true",
                    ),
                    ev(
                        "tool-complete",
                        "t1",
                        "\"toolCallId\":\"x1\",\"toolName\":\"a\",\"success\":true",
                    ),
                ],
                code: "limit-exceeded",
                times: 1,
                check: |s| {
                    let t = s.task("t1").expect("t1");
                    assert_eq!(t.tools.len(), 2);
                    assert_eq!(t.tools[0].state.as_str(), "succeeded");
                    // Updates of the ignored call are ignored silently (no tool-not-started).
                    assert!(!s.diagnostics().any(|d| d.code.as_str() == "tool-not-started"));
                },
            },
            Case {
                name: "input and auth requests per task",
                limit: ("maxRequestsPerTask", 2),
                stream: vec![
                    ev("input-required", "t1", "\"inputId\":\"i1\",\"inputType\":\"confirmation\",\"prompt\":\"?\""),
                    ev("auth-required", "t1", "\"authId\":\"u1\",\"authType\":\"oauth2\",\"prompt\":\"?\""),
                    ev("input-required", "t1", "\"inputId\":\"i2\",\"inputType\":\"confirmation\",\"prompt\":\"?\""),
                    ev("input-received", "t1", "\"inputId\":\"i1\",\"providedBy\":\"user\""),
                ],
                code: "limit-exceeded",
                times: 1,
                check: |s| {
                    assert!(s.input("i2").is_none());
                    assert_eq!(s.input("i1").map(|i| i.state.as_str()), Some("answered"));
                },
            },
            Case {
                name: "diagnostics kept (a ring: the latest stay, the count stays exact)",
                limit: ("maxDiagnostics", 3),
                stream: (0..6)
                    .map(|i| format!("data: not json {i}\n\n"))
                    .chain([delta("t1", 0, "fine")])
                    .collect(),
                code: "invalid-json",
                times: 3,
                check: |s| {
                    assert_eq!(s.diagnostics_total(), 6);
                    let last = s.diagnostics().last().and_then(|d| d.raw.clone());
                    assert_eq!(last.as_deref(), Some("not json 5"));
                    assert_eq!(s.task("t1").map(|t| t.content.as_str()), Some("fine"));
                },
            },
            Case {
                name: "raw-event ring",
                limit: ("rawLogEvents", 2),
                stream: (0..4).map(|i| delta("t1", i, "z")).collect(),
                code: "",
                times: 0,
                check: |s| {
                    let pos: Vec<u64> = s.raw_events().map(|(p, _)| *p).collect();
                    assert_eq!(pos, [2, 3]);
                },
            },
            Case {
                name: "task artifact list",
                limit: ("maxArtifacts", 3),
                stream: vec![
                    ev(
                        "task-complete",
                        "t1",
                        "\"artifacts\":[\"a\",\"b\",\"a\",\"c\",\"d\",\"e\",\"f\"]",
                    ),
                    ev("task-complete", "t1", "\"artifacts\":[\"g\",\"h\"]"),
                ],
                code: "limit-exceeded",
                times: 1,
                check: |s| {
                    let list = s.task("t1").map(|t| t.artifacts.clone()).unwrap_or_default();
                    assert_eq!(list, ["a", "b", "c"]);
                },
            },
            Case {
                // A replay is ignored silently (`duplicates_ignored`), so no diagnostic: `times: 0`.
                name: "SSE ids remembered for replay detection (string ids)",
                limit: ("dedupeWindow", 2),
                stream: dedupe_stream(),
                code: "limit-exceeded",
                times: 0,
                check: |s| {
                    // s2 and s3 replayed while in the window: ignored; s2 again after s4 pushed it
                    // out of the window: applied again (its status change is in the history twice).
                    assert_eq!(history_messages(s), ["m1", "m2", "m3", "m1"]);
                    assert_eq!(s.duplicates_ignored(), 2);
                },
            },
            Case {
                name: "one diagnostic's size (ids and messages quote the input)",
                limit: ("maxDiagnostics", 10),
                stream: vec![
                    ev("tool-progress", &long.repeat(100), "\"toolCallId\":\"x\",\"progress\":0.5"),
                    ev("task-status", "t1", "\"status\":\"working\""),
                ],
                code: "tool-not-started",
                times: 1,
                check: |s| {
                    let d = s.diagnostics().next().expect("diagnostic");
                    assert!(d.task_id.as_ref().is_some_and(|t| t.len() <= MAX_FIELD_BYTES));
                    assert!(d.message.len() <= MAX_FIELD_BYTES);
                    assert!(s.usage().diagnostic_bytes <= MAX_DIAGNOSTIC_BYTES);
                },
            },
        ]
    }

    /// One case: the limit set low, the stream fed past it; the diagnostic is reported the
    /// expected number of times and names the limit, usage stays within the limits after every
    /// chunk, and the case's own checks hold (the stream went on).
    fn run_case(case: Case) {
        let mut sse = SseConfig::default();
        let mut limits = Limits::default();
        match case.limit.0 {
            "maxLineBytes" => sse.max_line_bytes = case.limit.1,
            "maxEventBytes" => sse.max_event_bytes = case.limit.1,
            name => assert!(limits.set(name, case.limit.1), "{name}"),
        }
        let mut s = Session::new(sse, limits);
        let mut obs = |_: &AgentEvent<'_>, _: &EventMeta<'_>, _: &Store| {};
        for part in &case.stream {
            s.feed(part.as_bytes(), &mut obs);
            if let Err(e) = s.store().usage().within(&limits) {
                panic!("{}: {e}", case.name);
            }
        }
        s.finish();
        let store = s.store();
        let codes: Vec<&str> = store.diagnostics().map(|d| d.code.as_str()).collect();
        let hits = codes.iter().filter(|c| **c == case.code).count();
        assert_eq!(hits, case.times, "{}: {codes:?}", case.name);
        if case.code == "limit-exceeded" && case.times > 0 {
            let d = store
                .diagnostics()
                .find(|d| d.code.as_str() == "limit-exceeded")
                .expect("diagnostic");
            assert!(
                d.message.contains(&case.limit.1.to_string()),
                "{}: the message names the limit: {}",
                case.name,
                d.message
            );
        }
        (case.check)(store);
    }

    /// A limit of 0 turns the bounded thing off without breaking anything else.
    fn zero_limits_keep_nothing_and_never_panic() {
        let mut limits = Limits::default();
        for name in Limits::NAMES {
            if name != "maxTasks" {
                assert!(limits.set(name, 0));
            }
        }
        let mut s = Session::new(SseConfig::default(), limits);
        let mut obs = |_: &AgentEvent<'_>, _: &EventMeta<'_>, _: &Store| {};
        let recording = std::fs::read(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("tests/recordings/scenario-main.sse"),
        )
        .expect("recording");
        for part in recording.chunks(97) {
            s.feed(part, &mut obs);
            if let Err(e) = s.store().usage().within(&limits) {
                panic!("{e}");
            }
        }
        s.finish();
        let u = s.store().usage();
        assert_eq!((u.diagnostics, u.artifacts, u.content_bytes), (0, 0, 0));
        assert!(s.store().diagnostics_total() > 0);
    }

    /// `dedupeWindow` as a user sees it: with the default window the late replay of the case above is
    /// ignored too; numeric ids stay recognised beyond a small window (every id at or below the
    /// oldest forgotten one counts as seen).
    fn dedupe_window_default_and_numeric_ids() {
        let mut obs = |_: &AgentEvent<'_>, _: &EventMeta<'_>, _: &Store| {};
        let mut s = Session::new(SseConfig::default(), Limits::default());
        for part in dedupe_stream() {
            s.feed(part.as_bytes(), &mut obs);
        }
        assert_eq!(history_messages(s.store()), ["m1", "m2", "m3"]);
        assert_eq!(s.store().duplicates_ignored(), 3);

        let mut limits = Limits::default();
        assert!(limits.set("dedupeWindow", 2));
        let mut s = Session::new(SseConfig::default(), limits);
        let numeric: String = dedupe_stream().concat().replace("id: s", "id: ");
        s.feed(numeric.as_bytes(), &mut obs);
        assert_eq!(history_messages(s.store()), ["m1", "m2", "m3"]);
        assert_eq!(s.store().duplicates_ignored(), 3);
    }

    /// Every entry of `Limits::NAMES` (and the two SSE limits) has a case above: a new limit
    /// without one fails here.
    fn every_limit_name_has_a_case() {
        let covered: Vec<&str> = cases().iter().map(|c| c.limit.0).collect();
        let missing: Vec<&str> = Limits::NAMES
            .iter()
            .copied()
            .chain(["maxLineBytes", "maxEventBytes"])
            .filter(|n| !covered.contains(n))
            .collect();
        assert!(
            missing.is_empty(),
            "limits without a case in tests/limits.rs: {missing:?}"
        );
        for name in &covered {
            assert!(
                Limits::NAMES.contains(name) || ["maxLineBytes", "maxEventBytes"].contains(name),
                "a case names an unknown limit: {name}"
            );
        }
    }

    /// The trial names of the cases: the limit's name, and a slug of the case's name after it when
    /// the limit has several cases.
    fn trial_names(cases: &[Case]) -> Vec<String> {
        let slug = |name: &str| -> String {
            name.split(|c: char| !c.is_ascii_alphanumeric())
                .filter(|w| !w.is_empty())
                .map(str::to_ascii_lowercase)
                .collect::<Vec<_>>()
                .join("-")
        };
        cases
            .iter()
            .map(|c| {
                let same_limit = || cases.iter().filter(|o| o.limit.0 == c.limit.0);
                // The words before a parenthesis, unless another case of the limit has them too.
                let short = |name: &'static str| slug(name.split('(').next().unwrap_or(name));
                if same_limit().count() == 1 {
                    c.limit.0.to_owned()
                } else if same_limit()
                    .filter(|o| short(o.name) == short(c.name))
                    .count()
                    == 1
                {
                    format!("{}::{}", c.limit.0, short(c.name))
                } else {
                    format!("{}::{}", c.limit.0, slug(c.name))
                }
            })
            .collect()
    }

    /// Runs `f`, a panic (a failed assertion) becoming the trial's failure.
    fn trial(f: impl FnOnce() + std::panic::UnwindSafe) -> Result<(), Failed> {
        std::panic::catch_unwind(f).map_err(|e| {
            e.downcast_ref::<String>()
                .cloned()
                .or_else(|| e.downcast_ref::<&str>().map(|s| (*s).to_owned()))
                .unwrap_or_else(|| "panicked".to_owned())
                .into()
        })
    }

    pub fn main() {
        let args = Arguments::from_args();
        let cases = cases();
        let names = trial_names(&cases);
        let mut trials: Vec<Trial> = cases
            .into_iter()
            .zip(names)
            .map(|(case, name)| Trial::test(name, move || trial(move || run_case(case))))
            .collect();
        trials.push(Trial::test(
            "zero_limits_keep_nothing_and_never_panic",
            || trial(zero_limits_keep_nothing_and_never_panic),
        ));
        trials.push(Trial::test("dedupe_window_default_and_numeric_ids", || {
            trial(dedupe_window_default_and_numeric_ids)
        }));
        trials.push(Trial::test("every_limit_name_has_a_case", || {
            trial(every_limit_name_has_a_case)
        }));
        libtest_mimic::run(&args, trials).exit();
    }
}
