//! `POST /api/ag-ui`: every scenario as AG-UI 1.0 runs. Framing exactly as `@ag-ui/encoder`
//! writes it, the run lifecycle and the official client's `verifyEvents` rules (checked here
//! in Rust), interrupts and resume, the second turn, errors, faults; and, when node and the
//! official packages are installed, every event against `@ag-ui/core`'s `EventSchema` and the
//! official `HttpAgent` driving whole conversations (`tests/ag_ui_official.mjs`).

mod common;

use common::{open, post, request, server};
use serde_json::{json, Value};
use std::collections::{BTreeSet, HashMap};
use std::net::SocketAddr;
use std::time::Duration;

/// Splits an encoder-framed body into events; panics on anything the encoder would not write.
fn frames(body: &[u8]) -> Vec<Value> {
    let text = std::str::from_utf8(body).expect("utf-8 body");
    assert!(
        text.is_empty() || text.ends_with("\n\n"),
        "the body ends with a whole frame"
    );
    text.split_terminator("\n\n")
        .map(|f| {
            let json = f
                .strip_prefix("data: ")
                .unwrap_or_else(|| panic!("a frame is one data line: {f:?}"));
            assert!(
                !json.contains('\n') && !json.contains('\r'),
                "one line: {f:?}"
            );
            let v: Value = serde_json::from_str(json).expect("JSON event");
            assert!(
                v["type"].as_str().is_some_and(|t| !t.is_empty()),
                "typed: {v}"
            );
            assert!(
                !json.contains(":null"),
                "no nulls (the encoder omits them): {json}"
            );
            v
        })
        .collect()
}

/// The rules of `@ag-ui/client`'s verifyEvents for one run (WIRE.md §6), and the shapes of
/// the events this server writes. Returns the events.
fn verify_run(evs: &[Value], thread: &str, run: &str, complete: bool) {
    let ty = |e: &Value| e["type"].as_str().unwrap_or("").to_owned();
    assert_eq!(ty(&evs[0]), "RUN_STARTED", "first: {}", evs[0]);
    assert_eq!(evs[0]["threadId"], thread);
    assert_eq!(evs[0]["runId"], run);
    let mut texts = BTreeSet::new();
    let mut reasoning = BTreeSet::new();
    let mut spans = BTreeSet::new();
    let mut tools = BTreeSet::new();
    let mut steps = BTreeSet::new();
    let mut subs = BTreeSet::new();
    let mut subs_done = BTreeSet::new();
    let mut owners: HashMap<String, Option<String>> = HashMap::new();
    let n = evs.len();
    for (i, e) in evs.iter().enumerate().skip(1) {
        let t = ty(e);
        let owner = e["subagentRunId"].as_str().map(str::to_owned);
        let last = i + 1 == n;
        if matches!(t.as_str(), "RUN_FINISHED" | "RUN_ERROR") {
            assert!(last && complete, "{t} ends the run: {e}");
        }
        let id = |k: &str| {
            e[k].as_str()
                .unwrap_or_else(|| panic!("{k} in {e}"))
                .to_owned()
        };
        match t.as_str() {
            "RUN_STARTED" => panic!("RUN_STARTED twice"),
            "TEXT_MESSAGE_START" => {
                assert_eq!(e["role"], "assistant");
                assert!(texts.insert(id("messageId")), "{e} already open");
                owners.insert(id("messageId"), owner.clone());
            }
            "TEXT_MESSAGE_CONTENT" => {
                assert!(
                    texts.contains(&id("messageId")),
                    "content before start: {e}"
                );
                assert!(e["delta"].is_string());
                assert_eq!(owners[&id("messageId")], owner, "owner of {e}");
            }
            "TEXT_MESSAGE_END" => assert!(texts.remove(&id("messageId")), "end not open: {e}"),
            "TOOL_CALL_START" => {
                assert!(e["toolCallName"].is_string());
                assert!(tools.insert(id("toolCallId")), "{e}");
            }
            "TOOL_CALL_ARGS" => assert!(tools.contains(&id("toolCallId")), "{e}"),
            "TOOL_CALL_END" => assert!(tools.remove(&id("toolCallId")), "{e}"),
            "TOOL_CALL_RESULT" => {
                assert_eq!(e["role"], "tool");
                assert!(e["content"].is_string() && e["messageId"].is_string());
            }
            "REASONING_START" => assert!(spans.insert(id("messageId"))),
            "REASONING_END" => assert!(spans.remove(&id("messageId"))),
            "REASONING_MESSAGE_START" => {
                assert_eq!(e["role"], "reasoning");
                assert!(reasoning.insert(id("messageId")));
            }
            "REASONING_MESSAGE_CONTENT" => assert!(reasoning.contains(&id("messageId"))),
            "REASONING_MESSAGE_END" => assert!(reasoning.remove(&id("messageId"))),
            "STEP_STARTED" => assert!(steps.insert((owner, id("stepName"))), "{e}"),
            "STEP_FINISHED" => assert!(steps.remove(&(owner, id("stepName"))), "{e}"),
            "SUBAGENT_STARTED" => {
                let s = id("subagentRunId");
                assert!(e["name"].is_string());
                if let Some(p) = e["parentSubagentRunId"].as_str() {
                    assert!(subs.contains(p), "parent {p} not started");
                }
                assert!(!subs_done.contains(&s) && subs.insert(s), "{e}");
            }
            "SUBAGENT_FINISHED" | "SUBAGENT_ERROR" => {
                let s = id("subagentRunId");
                assert!(subs.remove(&s), "not active: {e}");
                subs_done.insert(s);
                if t == "SUBAGENT_ERROR" {
                    assert!(e["message"].is_string());
                } else {
                    let o = e["outcome"]["type"].as_str().unwrap_or("");
                    assert!(o == "success" || o == "suspended", "{e}");
                }
            }
            "STATE_SNAPSHOT" => assert!(e["snapshot"].is_object()),
            "STATE_DELTA" | "ACTIVITY_DELTA" => {
                let ops = e[if t == "STATE_DELTA" { "delta" } else { "patch" }]
                    .as_array()
                    .expect("ops");
                for op in ops {
                    let path = op["path"].as_str().expect("path");
                    assert!(
                        path.starts_with('/')
                            && path
                                .split('~')
                                .skip(1)
                                .all(|s| s.starts_with('0') || s.starts_with('1')),
                        "pointer {path}"
                    );
                    assert!(["add", "replace", "remove"].contains(&op["op"].as_str().unwrap_or("")));
                }
            }
            "ACTIVITY_SNAPSHOT" => {
                assert!(e["content"].is_object() && e["activityType"].is_string())
            }
            "CUSTOM" => assert!(e["name"].is_string() && !e["value"].is_null()),
            "RAW" => assert!(!e["event"].is_null()),
            "RUN_FINISHED" => {
                assert_eq!(e["threadId"], thread);
                assert_eq!(e["runId"], run);
                assert!(texts.is_empty(), "texts still open: {texts:?}");
                assert!(reasoning.is_empty() && spans.is_empty() && tools.is_empty());
                assert!(steps.is_empty(), "steps still open: {steps:?}");
                assert!(subs.is_empty(), "subagents still active: {subs:?}");
            }
            "RUN_ERROR" => assert!(e["message"].is_string()),
            other => panic!("unexpected event type {other}"),
        }
    }
    if complete {
        assert!(matches!(
            ty(&evs[n - 1]).as_str(),
            "RUN_FINISHED" | "RUN_ERROR"
        ));
    }
}

fn input(thread: &str, run: &str, messages: Value, resume: Option<Value>) -> String {
    let mut v = json!({
        "threadId": thread, "runId": run, "protocolVersion": "1.0", "state": {},
        "messages": messages, "tools": [], "context": [], "forwardedProps": {},
    });
    if let Some(r) = resume {
        v["resume"] = r;
    }
    v.to_string()
}

fn user(id: &str, text: &str) -> Value {
    json!({"id": id, "role": "user", "content": text})
}

/// POSTs one run and returns its events (checked: 200, encoder framing, verify rules).
async fn run(addr: SocketAddr, query: &str, body: &str) -> Vec<Value> {
    let c = post(addr, &format!("/api/ag-ui?{query}"), body).await;
    assert_eq!(c.status, 200, "{}", c.text());
    assert_eq!(c.header("content-type"), Some("text/event-stream"));
    assert!(c.ended, "the body ended properly");
    let evs = frames(&c.body);
    let b: Value = serde_json::from_str(body).expect("input");
    verify_run(
        &evs,
        b["threadId"].as_str().unwrap_or(""),
        b["runId"].as_str().unwrap_or(""),
        true,
    );
    evs
}

fn of<'a>(evs: &'a [Value], t: &str) -> Vec<&'a Value> {
    evs.iter().filter(|e| e["type"] == t).collect()
}

fn last(evs: &[Value]) -> &Value {
    evs.last().expect("events")
}

#[tokio::test]
async fn main_interrupts_resume_and_a_second_turn() {
    let addr = server().await;
    let q = "scenario=main&speed=0";
    let u1 = user("u1", "How did Q4 go?");
    let evs = run(addr, q, &input("t-main", "run-1", json!([u1]), None)).await;
    let snap = &evs[1];
    assert_eq!(snap["type"], "STATE_SNAPSHOT");
    assert_eq!(snap["snapshot"]["run"]["scenario"], "main");
    for t in [
        "REASONING_MESSAGE_CONTENT",
        "TOOL_CALL_ARGS",
        "TOOL_CALL_RESULT",
        "SUBAGENT_STARTED",
        "SUBAGENT_FINISHED",
        "STEP_STARTED",
        "ACTIVITY_SNAPSHOT",
        "STATE_DELTA",
        "RAW",
    ] {
        assert!(!of(&evs, t).is_empty(), "{t} in the first run");
    }
    // The search_database arguments in 3 deltas that concatenate to the JSON.
    let start = of(&evs, "TOOL_CALL_START")[0];
    assert_eq!(start["toolCallName"], "search_database");
    let tc = start["toolCallId"].as_str().expect("id");
    let root = start["parentMessageId"]
        .as_str()
        .expect("parent")
        .to_owned();
    let args: Vec<&str> = of(&evs, "TOOL_CALL_ARGS")
        .iter()
        .filter(|e| e["toolCallId"] == tc)
        .filter_map(|e| e["delta"].as_str())
        .collect();
    assert_eq!(args.len(), 3);
    let parsed: Value = serde_json::from_str(&args.concat()).expect("args JSON");
    assert_eq!(parsed["table"], "sales_data");
    let result = of(&evs, "TOOL_CALL_RESULT")[0];
    assert_eq!(result["toolCallId"], tc);
    let r: Value = serde_json::from_str(result["content"].as_str().expect("s")).expect("JSON");
    assert_eq!(r["count"], 12480);
    // Sub-agents: texts tagged, the nested one names its parent.
    let nested = of(&evs, "SUBAGENT_STARTED")
        .into_iter()
        .find(|e| e["name"] == "fx-converter-v1")
        .expect("fx");
    assert!(nested["parentSubagentRunId"].is_string());
    assert!(of(&evs, "TEXT_MESSAGE_CONTENT")
        .iter()
        .all(|e| e["subagentRunId"].is_string()));
    // The approval.
    let fin = last(&evs);
    assert_eq!(fin["outcome"]["type"], "interrupt");
    let int = &fin["outcome"]["interrupts"][0];
    assert_eq!(int["reason"], "confirmation");
    assert_eq!(int["message"], "Send the report to finance@example.com?");
    assert_eq!(int["responseSchema"]["enum"], json!(["approve", "deny"]));
    let approval = int["id"].as_str().expect("id").to_owned();

    // Not covering the interrupt: 409, like the official client refuses.
    let c = post(
        addr,
        &format!("/api/ag-ui?{q}"),
        &input("t-main", "run-2", json!([u1]), None),
    )
    .await;
    assert_eq!(c.status, 409, "{}", c.text());
    assert!(c.json()["error"].as_str().expect("e").contains(&approval));
    let c = post(
        addr,
        &format!("/api/ag-ui?{q}"),
        &input(
            "t-main",
            "run-2",
            json!([u1]),
            Some(json!([{"interruptId": "nope", "status": "resolved"}])),
        ),
    )
    .await;
    assert_eq!(c.status, 409);

    let evs = run(
        addr,
        q,
        &input(
            "t-main",
            "run-2",
            json!([u1]),
            Some(json!([{"interruptId": approval, "status": "resolved", "payload": "approve"}])),
        ),
    )
    .await;
    assert_eq!(evs[1]["snapshot"]["requests"][&approval]["status"], "open");
    assert!(of(&evs, "TOOL_CALL_START")
        .iter()
        .any(|e| e["toolCallName"] == "send_email"));
    let fin = last(&evs);
    let int = &fin["outcome"]["interrupts"][0];
    assert_eq!(int["reason"], "auth");
    assert_eq!(int["metadata"]["provider"], "github");
    let auth = int["id"].as_str().expect("id").to_owned();

    let evs = run(
        addr,
        q,
        &input(
            "t-main",
            "run-3",
            json!([u1]),
            Some(
                json!([{"interruptId": auth, "status": "resolved", "payload": {"userId": "ada"}}]),
            ),
        ),
    )
    .await;
    let fin = last(&evs);
    assert_eq!(fin["outcome"], json!({"type": "success"}));
    assert!(fin["result"]["content"]
        .as_str()
        .expect("content")
        .contains("A copy was sent to finance@example.com."));
    // Artifacts: a state key with a '/', activities, the whole content in CUSTOM.
    assert!(of(&evs, "STATE_DELTA").iter().any(|e| e["delta"]
        .as_array()
        .expect("ops")
        .iter()
        .any(|op| op["path"] == "/artifacts/file~1report.md")));
    let customs = of(&evs, "CUSTOM");
    let report = customs
        .iter()
        .find(|e| e["value"]["name"] == "report.md")
        .expect("report.md");
    assert!(report["value"]["content"]
        .as_str()
        .expect("text")
        .starts_with("# Q4 2025 sales report"));
    let rows = customs
        .iter()
        .find(|e| e["value"]["kind"] == "dataset")
        .expect("dataset");
    assert_eq!(rows["value"]["rows"].as_array().expect("rows").len(), 25);
    assert_eq!(
        customs
            .iter()
            .filter(|e| e["value"]["kind"] == "data")
            .count(),
        2,
        "two data versions"
    );
    // The root's answer, one message.
    let text: String = of(&evs, "TEXT_MESSAGE_CONTENT")
        .iter()
        .filter(|e| e["messageId"] == root.as_str())
        .filter_map(|e| e["delta"].as_str())
        .collect();
    assert!(text.starts_with("## Q4 sales summary"));

    // The scenario ended: a POST without a new user message is refused, a new question is a
    // second turn.
    let c = post(
        addr,
        &format!("/api/ag-ui?{q}"),
        &input(
            "t-main",
            "run-4",
            json!([u1, {"id": "a1", "role": "assistant", "content": "…"}]),
            None,
        ),
    )
    .await;
    assert_eq!(c.status, 409);
    let evs = run(
        addr,
        q,
        &input(
            "t-main",
            "run-4",
            json!([u1, {"id": "a1", "role": "assistant", "content": "…"}, user("u2", "And Q1?")]),
            None,
        ),
    )
    .await;
    let text: String = of(&evs, "TEXT_MESSAGE_CONTENT")
        .iter()
        .filter_map(|e| e["delta"].as_str())
        .collect();
    assert!(text.starts_with("Turn 2: you asked “And Q1?”"), "{text}");
    assert_eq!(last(&evs)["result"], json!({"turn": 2}));
    assert!(
        of(&evs, "STATE_DELTA")[0]["delta"][0]
            == json!({"op": "replace", "path": "/turn", "value": 2})
    );
}

#[tokio::test]
async fn every_scenario_is_valid_ag_ui() {
    let addr = server().await;
    for (scenario, end) in [
        ("quick", "success"),
        ("failure", "RUN_ERROR"),
        ("xss", "success"),
        ("bulk&events=300", "success"),
    ] {
        let thread = format!("t-{scenario}");
        let evs = run(
            addr,
            &format!("scenario={scenario}&speed=0&seed=7"),
            &input(&thread, "r1", json!([user("u", "go")]), None),
        )
        .await;
        let fin = last(&evs);
        if end == "RUN_ERROR" {
            assert_eq!(fin["type"], "RUN_ERROR", "{scenario}");
            assert_eq!(fin["code"], "task_failed");
            assert!(!fin["message"].as_str().expect("message").is_empty());
        } else {
            assert_eq!(fin["outcome"]["type"], end, "{scenario}: {fin}");
        }
    }
    // quick: a failed and a canceled sub-agent, in-band requests in the state only.
    let evs = run(
        addr,
        "scenario=quick&speed=0&seed=7",
        &input("t-quick-2", "r1", json!([]), None),
    )
    .await;
    let errs = of(&evs, "SUBAGENT_ERROR");
    let codes: BTreeSet<&str> = errs.iter().filter_map(|e| e["code"].as_str()).collect();
    assert_eq!(codes, BTreeSet::from(["canceled", "failed"]));
    assert_eq!(last(&evs)["outcome"]["type"], "success");
}

#[tokio::test]
async fn cancelled_interrupts_deny_then_cancel() {
    let addr = server().await;
    let q = "scenario=main&speed=0";
    let m = json!([user("u1", "go")]);
    let evs = run(addr, q, &input("t-c", "r1", m.clone(), None)).await;
    let id = last(&evs)["outcome"]["interrupts"][0]["id"].clone();
    let evs = run(
        addr,
        q,
        &input(
            "t-c",
            "r2",
            m.clone(),
            Some(json!([{"interruptId": id, "status": "cancelled"}])),
        ),
    )
    .await;
    assert!(of(&evs, "REASONING_MESSAGE_CONTENT")
        .iter()
        .any(|e| e["delta"]
            .as_str()
            .is_some_and(|d| d.starts_with("User declined"))));
    let id = last(&evs)["outcome"]["interrupts"][0]["id"].clone();
    let evs = run(
        addr,
        q,
        &input(
            "t-c",
            "r3",
            m,
            Some(json!([{"interruptId": id, "status": "cancelled"}])),
        ),
    )
    .await;
    assert_eq!(last(&evs)["outcome"], json!({"type": "cancelled"}));
}

#[tokio::test]
async fn the_cancel_endpoint_cancels_a_thread() {
    let addr = server().await;
    let body = input("t-cancel", "r1", json!([user("u", "reindex")]), None);
    let mut c = open(
        addr,
        "POST",
        "/api/ag-ui?scenario=cancel&speed=0",
        &[("Content-Type", "application/json")],
        Some(&body),
    )
    .await;
    assert_eq!(c.status, 200);
    let run_id = c.header("x-run-id").expect("X-Run-Id").to_owned();
    assert!(
        c.wait_for("reindex_warehouse", Duration::from_secs(10))
            .await
    );
    let text = c.text();
    let evs = frames(&text.as_bytes()[..text.rfind("\n\n").expect("frames") + 2]);
    let root = evs
        .iter()
        .find(|e| e["type"] == "STATE_DELTA")
        .and_then(|e| e["delta"][0]["path"].as_str())
        .and_then(|p| p.strip_prefix("/tasks/"))
        .expect("the root task's entry")
        .to_owned();
    let r = post(
        addr,
        &format!("/api/contexts/ctx-{run_id}/tasks/{root}/cancel"),
        "",
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text());
    let c = c.finish(10).await;
    let evs = frames(&c.body);
    verify_run(&evs, "t-cancel", "r1", true);
    assert_eq!(last(&evs)["outcome"], json!({"type": "cancelled"}));
}

#[tokio::test]
async fn bad_requests_get_json_errors() {
    let addr = server().await;
    for (body, status) in [
        ("{not json", 400),
        ("[]", 400),
        ("", 400),
        (r#"{"threadId":"t","runId":"r"}"#, 400),
        (
            r#"{"threadId":"t","runId":"r","messages":[{"id":"u","role":"robot"}]}"#,
            400,
        ),
        (
            r#"{"threadId":"t","runId":"r","messages":[],"resume":[{"interruptId":"i","status":"maybe"}]}"#,
            400,
        ),
    ] {
        let c = post(addr, "/api/ag-ui", body).await;
        assert_eq!(c.status, status, "{body}: {}", c.text());
        assert!(c.json()["error"].is_string());
    }
    let ok = input("t-bad", "r", json!([]), None);
    for (q, status) in [
        ("faults=dup=2", 400),
        ("faults=nope", 400),
        ("scenario=nope", 404),
        ("speed=x", 400),
    ] {
        let c = post(addr, &format!("/api/ag-ui?{q}"), &ok).await;
        assert_eq!(c.status, status, "{q}");
        assert!(c.json()["error"].is_string());
    }
    let c = post(
        addr,
        "/api/ag-ui?speed=0",
        &input(
            "t-bad2",
            "r",
            json!([]),
            Some(json!([{"interruptId": "x", "status": "resolved"}])),
        ),
    )
    .await;
    assert_eq!(c.status, 409);
    let c = request(addr, "GET", "/api/ag-ui", &[], None).await;
    assert_eq!(c.status, 405);
    let c = request(
        addr,
        "OPTIONS",
        "/api/ag-ui",
        &[
            ("Origin", "http://x.test"),
            ("Access-Control-Request-Method", "POST"),
        ],
        None,
    )
    .await;
    assert_eq!(c.status, 204);
    assert_eq!(
        c.header("access-control-allow-origin"),
        Some("http://x.test")
    );
    assert!(c
        .header("access-control-allow-headers")
        .expect("h")
        .contains("Content-Type"));
}

#[tokio::test]
async fn faults_drop_and_newlines() {
    let addr = server().await;
    let q = "scenario=quick&speed=0&faults=drop=20";
    let body = input("t-drop", "r1", json!([user("u", "go")]), None);
    let c = post(addr, &format!("/api/ag-ui?{q}"), &body).await;
    assert_eq!(c.status, 200);
    assert!(!c.ended && c.eof, "cut without the terminating chunk");
    let text = c.text();
    let whole = &text[..text.rfind("\n\n").expect("frames") + 2];
    let evs = frames(whole.as_bytes());
    verify_run(&evs, "t-drop", "r1", false);
    assert!(
        text.len() > whole.len(),
        "half a frame after the last whole one"
    );
    assert!(of(&evs, "RUN_FINISHED").is_empty());
    // The next POST continues (re-opening what was open) and finishes.
    let evs = run(
        addr,
        q,
        &input("t-drop", "r2", json!([user("u", "go")]), None),
    )
    .await;
    assert_eq!(last(&evs)["outcome"]["type"], "success");

    for (fault, eol) in [("crlf", "\r\n"), ("cr", "\r")] {
        let thread = format!("t-{fault}");
        let c = post(
            addr,
            &format!("/api/ag-ui?scenario=quick&speed=0&faults={fault}"),
            &input(&thread, "r1", json!([]), None),
        )
        .await;
        let text = c.text();
        assert!(text.starts_with("data: {\"type\":\"RUN_STARTED\""));
        assert!(text.ends_with(&format!("{eol}{eol}")));
        if fault == "cr" {
            assert!(!text.contains('\n'));
        } else {
            assert!(!text.replace("\r\n", "").contains('\n'));
        }
        let lf = text.replace(eol, "\n");
        verify_run(&frames(lf.as_bytes()), &thread, "r1", true);
    }
}

#[tokio::test]
async fn official_client_and_schemas_accept_every_run() {
    let here = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let modules = std::env::var_os("AG_UI_NODE_MODULES")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| here.join("../tests/ag-ui/node_modules"));
    if !modules.join("@ag-ui/client").is_dir() {
        // scripts/test.sh installs them first: under CI a missing install is a failure.
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "no @ag-ui packages at {}: run `source scripts/lib/ag-ui-server.sh && install_ag_ui_deps`",
            modules.display()
        );
        eprintln!(
            "skipped: no @ag-ui packages at {} (set AG_UI_NODE_MODULES)",
            modules.display()
        );
        return;
    }
    let addr = server().await;
    let script = here.join("tests/ag_ui_official.mjs");
    let child = tokio::task::spawn_blocking(move || {
        std::process::Command::new("node")
            .arg(script)
            .arg(format!("http://{addr}/api/ag-ui"))
            .env("AG_UI_NODE_MODULES", &modules)
            .output()
    });
    let out = match tokio::time::timeout(Duration::from_secs(120), child).await {
        Ok(Ok(Ok(o))) => o,
        Ok(Ok(Err(e))) => {
            assert!(
                std::env::var("CI").as_deref() != Ok("true"),
                "cannot run node: {e}"
            );
            eprintln!("skipped: cannot run node: {e}");
            return;
        }
        Ok(Err(e)) => panic!("{e}"),
        Err(_) => panic!("the node check did not finish in 120 s"),
    };
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "node check failed:\n{stdout}\n{stderr}"
    );
    assert!(stdout.contains("events valid by EventSchema"), "{stdout}");
    eprintln!("{stdout}");
}
