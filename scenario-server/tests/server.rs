//! The HTTP API and the scenarios, against an in-process server on port 0.

mod common;

use common::*;
use serde_json::Value;
use std::time::Duration;

const S: Duration = Duration::from_secs(10);

#[tokio::test]
async fn health_scenarios_and_index() {
    let addr = server().await;
    let r = get(addr, "/api/health").await;
    assert_eq!(r.status, 200);
    assert_eq!(r.json(), serde_json::json!({"ok": true}));
    assert_eq!(r.header("content-type"), Some("application/json"));
    let list = get(addr, "/api/scenarios").await.json();
    let ids: Vec<&str> = list
        .as_array()
        .expect("array")
        .iter()
        .map(|s| {
            assert!(s["title"].is_string() && s["description"].is_string());
            s["id"].as_str().expect("id")
        })
        .collect();
    for id in ["main", "quick", "failure", "cancel", "bulk", "xss"] {
        assert!(ids.contains(&id), "{id} listed");
    }
    assert_eq!(get(addr, "/").await.status, 200);
    assert_eq!(get(addr, "/api/nope").await.status, 404);
    assert_eq!(
        request(addr, "POST", "/api/health", &[], Some(""))
            .await
            .status,
        405
    );
}

#[tokio::test]
async fn quick_streams_every_kind_with_valid_events() {
    let addr = server().await;
    let r = get(addr, "/api/stream?scenario=quick&seed=1&speed=0").await;
    assert_eq!(r.status, 200);
    assert_eq!(r.header("content-type"), Some("text/event-stream"));
    assert_eq!(r.header("cache-control"), Some("no-cache"));
    assert!(
        r.ended,
        "the response ends properly when the scenario is done"
    );
    assert!(r.text().starts_with("retry: 1000\n\n"));
    let run = r.header("x-run-id").expect("run id").to_owned();
    let evs = check_run(&r.body);
    let k = kinds(&evs);
    for kind in ALL_KINDS {
        assert!(k.contains(kind), "quick has {kind}");
    }
    assert!(evs
        .iter()
        .all(|v| v["contextId"] == format!("ctx-{run}").as_str()));
    let statuses: Vec<&str> = evs
        .iter()
        .filter(|v| v["kind"] == "task-status")
        .filter_map(|v| v["status"].as_str())
        .collect();
    for s in [
        "working",
        "waiting-input",
        "waiting-auth",
        "waiting-subtask",
        "completed",
        "failed",
        "canceled",
    ] {
        assert!(statuses.contains(&s), "status {s}");
    }
    let failed = find(&evs, "task-status", |v| v["status"] == "failed").expect("failed");
    assert!(failed["metadata"]["reason"].is_string());
    assert!(find(&evs, "input-received", |v| v["providedBy"] == "agent").is_some());
    assert!(find(&evs, "auth-completed", |_| true).is_some());
    let last = evs.last().expect("last");
    assert_eq!(last["kind"], "task-complete");
    assert!(last["parentTaskId"].is_null());
    for kind in ["file-write", "data-write", "dataset-write"] {
        assert!(k.contains(kind));
    }
}

#[tokio::test]
async fn same_seed_gives_identical_bytes() {
    let (a, b) = (server().await, server().await);
    let path = "/api/stream?scenario=main&seed=42&speed=0&run=same";
    let mut bodies = Vec::new();
    for addr in [a, b] {
        let mut c = open(addr, "GET", path, &[], None).await;
        assert!(c.wait_for("\"waiting-input\"", S).await);
        let evs = events(&c.body);
        let ir = evs
            .iter()
            .map(Block::json)
            .find(|v| v["kind"] == "input-required" && v["requireUser"] == true)
            .expect("input");
        let url = format!(
            "/api/contexts/ctx-same/tasks/{}/inputs/{}",
            ir["taskId"].as_str().expect("task"),
            ir["inputId"].as_str().expect("input")
        );
        assert_eq!(post(addr, &url, r#"{"value":"deny"}"#).await.status, 200);
        assert!(c.wait_for("\"waiting-auth\"", S).await);
        let ar = events(&c.body)
            .iter()
            .map(Block::json)
            .find(|v| v["kind"] == "auth-required")
            .expect("auth");
        let url = format!(
            "/api/contexts/ctx-same/tasks/{}/auth/{}",
            ar["taskId"].as_str().expect("task"),
            ar["authId"].as_str().expect("auth")
        );
        assert_eq!(post(addr, &url, "{}").await.status, 200);
        let c = c.finish(10).await;
        check_run(&c.body);
        bodies.push(c.body);
    }
    assert_eq!(bodies[0], bodies[1], "same seed and answers, same bytes");

    let quick = |seed: u64, addr| async move {
        get(
            addr,
            &format!("/api/stream?scenario=quick&seed={seed}&speed=0&run=q"),
        )
        .await
        .body
    };
    let (x, y) = (server().await, server().await);
    assert_eq!(quick(5, x).await, quick(5, y).await);
    let z = server().await;
    assert_ne!(
        quick(5, x).await,
        quick(6, z).await,
        "another seed, other ids/data"
    );
}

#[tokio::test]
async fn resume_with_last_event_id_replays_exactly_what_was_missed() {
    let addr = server().await;
    let full = get(addr, "/api/stream?scenario=quick&speed=0&run=res").await;
    let all = events(&full.body);
    let n = all.len() as u64;
    for last in [0u64, 7, n - 2, n - 1] {
        let r = request(
            addr,
            "GET",
            "/api/stream?scenario=quick&speed=0&run=res",
            &[("Last-Event-ID", &last.to_string())],
            None,
        )
        .await;
        let got = events(&r.body);
        assert_eq!(got.len() as u64, n - last - 1);
        assert_eq!(got[..], all[(last + 1) as usize..], "after {last}");
    }
    // The query form, for clients without headers; and the run's own resume URL.
    let r = get(
        addr,
        "/api/stream?scenario=quick&speed=0&run=res&lastEventId=9",
    )
    .await;
    assert_eq!(events(&r.body)[0].num(), 10);
    let r = request(
        addr,
        "GET",
        "/api/runs/res/stream",
        &[("Last-Event-ID", "20")],
        None,
    )
    .await;
    assert_eq!(events(&r.body)[..], all[21..]);
    // Without a run id, a reconnect carrying Last-Event-ID continues the latest run with the
    // same parameters (what a plain EventSource does).
    let first = get(addr, "/api/stream?scenario=failure&speed=0&seed=3").await;
    let evs = events(&first.body);
    let r = request(
        addr,
        "GET",
        "/api/stream?scenario=failure&speed=0&seed=3",
        &[("Last-Event-ID", "4")],
        None,
    )
    .await;
    assert_eq!(events(&r.body)[..], evs[5..]);
    assert_eq!(r.header("x-run-id"), first.header("x-run-id"));
}

#[tokio::test]
async fn post_runs_streams_and_has_a_resume_url() {
    let addr = server().await;
    let r = post(
        addr,
        "/api/runs",
        r#"{"scenario":"quick","seed":3,"speed":0,"run":"p1"}"#,
    )
    .await;
    assert_eq!(r.status, 200);
    assert_eq!(r.header("x-run-id"), Some("p1"));
    let evs = check_run(&r.body);
    assert_eq!(evs[0]["contextId"], "ctx-p1");
    let info = get(addr, "/api/runs/p1").await.json();
    assert_eq!(info["finished"], true);
    assert_eq!(info["events"], evs.len());
    assert_eq!(info["streamUrl"], "/api/runs/p1/stream");
    let again = request(
        addr,
        "GET",
        "/api/runs/p1/stream",
        &[("Last-Event-ID", "3")],
        None,
    )
    .await;
    assert_eq!(events(&again.body)[..], events(&r.body)[4..]);
    // Numbers as strings, faults in the body.
    let r = post(
        addr,
        "/api/runs",
        r#"{"scenario":"quick","seed":"3","speed":"0","faults":"lose=2"}"#,
    )
    .await;
    assert!(events(&r.body).iter().all(|b| b.num() != 2));
    assert_eq!(get(addr, "/api/runs/nope/stream").await.status, 404);
    assert_eq!(get(addr, "/api/runs/nope").await.status, 404);
}

async fn answer_main(addr: std::net::SocketAddr, run: &str, value: &str) -> Vec<Value> {
    let mut c = open(
        addr,
        "GET",
        &format!("/api/stream?scenario=main&speed=0&run={run}"),
        &[],
        None,
    )
    .await;
    assert!(c.wait_for("\"waiting-input\"", S).await);
    // It blocks there: nothing more comes until the answer.
    let before = events(&c.body).len();
    assert!(!c.more(Duration::from_millis(300)).await || events(&c.body).len() == before);
    assert_eq!(events(&c.body).len(), before);
    let info = get(addr, &format!("/api/runs/{run}")).await.json();
    assert_eq!(info["waiting"], true);
    let evs: Vec<Value> = events(&c.body).iter().map(Block::json).collect();
    let ir = find(&evs, "input-required", |v| v["requireUser"] == true).expect("input");
    assert_eq!(ir["prompt"], "Send the report to finance@example.com?");
    assert_eq!(ir["inputType"], "confirmation");
    assert_eq!(ir["options"], serde_json::json!(["approve", "deny"]));
    assert_eq!(ir["metadata"]["urgency"], "high");
    assert_eq!(ir["metadata"]["timeout"], 300);
    let (task, input) = (
        ir["taskId"].as_str().expect("task"),
        ir["inputId"].as_str().expect("id"),
    );
    let ctx = format!("ctx-{run}");
    let url = format!("/api/contexts/{ctx}/tasks/{task}/inputs/{input}");
    assert_eq!(post(addr, &url, "{not json").await.status, 400);
    assert_eq!(post(addr, &url, r#"{"nope":1}"#).await.status, 400);
    let body = format!(r#"{{"value":"{value}","userId":"alice"}}"#);
    assert_eq!(post(addr, &url, &body).await.status, 200);
    assert_eq!(
        post(addr, &url, &body).await.status,
        409,
        "already answered"
    );
    let other = format!("/api/contexts/{ctx}/tasks/{task}/inputs/input-000000");
    assert_eq!(post(addr, &other, &body).await.status, 404);
    let wrong_ctx = format!("/api/contexts/ctx-nope/tasks/{task}/inputs/{input}");
    assert_eq!(post(addr, &wrong_ctx, &body).await.status, 404);
    assert!(c.wait_for("\"waiting-auth\"", S).await);
    let evs: Vec<Value> = events(&c.body).iter().map(Block::json).collect();
    let ar = find(&evs, "auth-required", |_| true).expect("auth");
    assert_eq!(
        ar["authUrl"],
        "https://github.com/login/oauth/authorize?client_id=demo"
    );
    let url = format!(
        "/api/contexts/{ctx}/tasks/{task}/auth/{}",
        ar["authId"].as_str().expect("auth")
    );
    assert_eq!(post(addr, &url, r#"{"userId":5}"#).await.status, 400);
    assert_eq!(
        post(addr, &url, r#"{"userId":"alice","code":"xyz"}"#)
            .await
            .status,
        200
    );
    let c = c.finish(10).await;
    assert!(c.ended);
    check_run(&c.body)
}

#[tokio::test]
async fn main_waits_for_the_approval_and_approve_differs_from_deny() {
    let addr = server().await;
    let approved = answer_main(addr, "ap", "approve").await;
    let denied = answer_main(addr, "de", "deny").await;
    let email =
        |evs: &[Value]| find(evs, "tool-start", |v| v["toolName"] == "send_email").is_some();
    assert!(email(&approved));
    assert!(!email(&denied));
    assert!(find(&denied, "thought-stream", |v| v["content"]
        .as_str()
        .is_some_and(|c| c.starts_with("User declined")))
    .is_some());
    for evs in [&approved, &denied] {
        let received = find(evs, "input-received", |v| v["providedBy"] == "user").expect("in");
        assert_eq!(received["userId"], "alice");
        assert_eq!(
            find(evs, "auth-completed", |_| true).expect("auth")["userId"],
            "alice"
        );
        // The demo's checklist.
        let k = kinds(evs);
        for kind in ALL_KINDS
            .iter()
            .filter(|k| !["internal:checkpoint"].contains(k))
        {
            assert!(k.contains(*kind), "main has {kind}");
        }
        let brief = ["brief", "normal", "detailed"].map(|v| {
            find(evs, "thought-stream", |t| {
                t["verbosity"] == v && t["thoughtType"] == "planning"
            })
            .is_some()
        });
        assert_eq!(brief, [true; 3]);
        let progress: Vec<&Value> = evs
            .iter()
            .filter(|v| v["kind"] == "tool-progress")
            .take(5)
            .collect();
        assert_eq!(progress.len(), 5);
        assert_eq!(progress[4]["progress"], 1.0);
        assert_eq!(progress[4]["metadata"]["stepsTotal"], 5);
        // Sub-agents: two under the root, one under one of them, interleaved.
        let root = evs[0]["taskId"].as_str().expect("root");
        let subs: Vec<&str> = evs
            .iter()
            .filter(|v| v["kind"] == "task-created" && v["parentTaskId"] == root)
            .filter_map(|v| v["taskId"].as_str())
            .collect();
        assert_eq!(subs.len(), 2);
        let grand = evs
            .iter()
            .filter(|v| {
                v["kind"] == "task-created"
                    && v["parentTaskId"]
                        .as_str()
                        .is_some_and(|p| subs.contains(&p))
            })
            .count();
        assert_eq!(grand, 1, "one sub-subtask");
        let order: Vec<&str> = evs
            .iter()
            .filter(|v| v["kind"] == "content-delta")
            .filter_map(|v| v["taskId"].as_str())
            .filter(|t| subs.contains(t))
            .collect();
        let switches = order.windows(2).filter(|w| w[0] != w[1]).count();
        assert!(switches >= 3, "sub-agents interleave: {order:?}");
        assert!(find(evs, "input-required", |v| v["requireUser"] == false
            && v["inputType"] == "tool-execution"
            && v["metadata"]["toolCall"].is_object())
        .is_some());
        // Artifacts.
        let report: Vec<&Value> = evs
            .iter()
            .filter(|v| {
                v["kind"] == "file-write" && &v["artifactId"] == evs_artifact(evs, "report.md")
            })
            .collect();
        assert!(report.len() >= 4);
        let text: String = report.iter().filter_map(|v| v["data"].as_str()).collect();
        assert_eq!(report[0]["metadata"]["totalSize"], text.len());
        assert_eq!(report[0]["mimeType"], "text/markdown");
        let png: String = evs
            .iter()
            .filter(|v| {
                v["kind"] == "file-write" && &v["artifactId"] == evs_artifact(evs, "chart.png")
            })
            .filter_map(|v| v["data"].as_str())
            .collect();
        let bytes = base64_decode(&png);
        assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
        assert_eq!(&bytes[bytes.len() - 8..bytes.len() - 4], b"IEND");
        let versions: Vec<&Value> = evs
            .iter()
            .filter(|v| v["kind"] == "data-write")
            .map(|v| &v["metadata"]["version"])
            .collect();
        assert_eq!(versions, [1, 2]);
        let rows: usize = evs
            .iter()
            .filter(|v| v["kind"] == "dataset-write")
            .map(|v| v["rows"].as_array().map_or(0, Vec::len))
            .sum();
        assert_eq!(rows, 25);
        let deltas: Vec<&str> = evs
            .iter()
            .filter(|v| v["kind"] == "content-delta" && v["taskId"] == root)
            .filter_map(|v| v["delta"].as_str())
            .collect();
        assert!(
            (60..=120).contains(&deltas.len()),
            "{} deltas",
            deltas.len()
        );
        let answer = deltas.concat();
        assert!(answer.contains('"') && answer.contains('é') && answer.contains('🎉'));
        let done = evs.last().expect("last");
        assert_eq!(done["kind"], "task-complete");
        assert_eq!(done["content"], answer.as_str());
        assert_eq!(done["artifacts"].as_array().map(Vec::len), Some(4));
        assert!(done["metadata"]["duration"].as_u64() > Some(0));
    }
}

fn evs_artifact<'a>(evs: &'a [Value], name: &str) -> &'a Value {
    &find(evs, "file-write", |v| v["name"] == name).expect("artifact")["artifactId"]
}

#[tokio::test]
async fn cancel_stops_the_run_and_cancels_running_tasks() {
    let addr = server().await;
    let mut c = open(
        addr,
        "GET",
        "/api/stream?scenario=cancel&speed=0&run=c1",
        &[],
        None,
    )
    .await;
    assert!(c.wait_for("\"progress\":0.1", S).await);
    let evs: Vec<Value> = events(&c.body).iter().map(Block::json).collect();
    let root = evs[0]["taskId"].as_str().expect("root").to_owned();
    assert_eq!(
        post(addr, "/api/contexts/ctx-c1/tasks/task-000000/cancel", "")
            .await
            .status,
        404
    );
    let url = format!("/api/contexts/ctx-c1/tasks/{root}/cancel");
    assert_eq!(post(addr, &url, "").await.status, 200);
    let c = c.finish(10).await;
    assert!(c.ended);
    let evs = check_run(&c.body);
    let canceled: Vec<&Value> = evs
        .iter()
        .filter(|v| v["kind"] == "task-status" && v["status"] == "canceled")
        .collect();
    assert_eq!(canceled.len(), 3, "root and its two running subtasks");
    assert!(canceled
        .iter()
        .all(|v| v["metadata"]["reason"] == "canceled by user"));
    assert_eq!(canceled[2]["taskId"], root.as_str(), "the root last");
    assert!(find(&evs, "tool-complete", |v| v["success"] == false).is_some());
    assert!(find(&evs, "task-complete", |_| true).is_none());
    assert_eq!(post(addr, &url, "").await.status, 409);
    // A finished run cannot be canceled.
    let q = get(addr, "/api/stream?scenario=quick&speed=0&run=done").await;
    let root = events(&q.body)[0].json()["taskId"]
        .as_str()
        .expect("root")
        .to_owned();
    let url = format!("/api/contexts/ctx-done/tasks/{root}/cancel");
    assert_eq!(post(addr, &url, "").await.status, 409);
}

#[tokio::test]
async fn main_can_be_canceled_while_waiting() {
    let addr = server().await;
    let mut c = open(
        addr,
        "GET",
        "/api/stream?scenario=main&speed=0&run=mc",
        &[],
        None,
    )
    .await;
    assert!(c.wait_for("\"waiting-input\"", S).await);
    let root = events(&c.body)[0].json()["taskId"]
        .as_str()
        .expect("root")
        .to_owned();
    let r = post(
        addr,
        &format!("/api/contexts/ctx-mc/tasks/{root}/cancel"),
        "",
    )
    .await;
    assert_eq!(r.status, 200);
    let c = c.finish(10).await;
    let evs = check_run(&c.body);
    assert_eq!(evs.last().expect("last")["status"], "canceled");
    // The approval can no longer be answered.
    let ir = find(&evs, "input-required", |v| v["requireUser"] == true).expect("input");
    let url = format!(
        "/api/contexts/ctx-mc/tasks/{root}/inputs/{}",
        ir["inputId"].as_str().expect("id")
    );
    assert_eq!(post(addr, &url, r#"{"value":"approve"}"#).await.status, 409);
}

#[tokio::test]
async fn other_scenarios_are_valid() {
    let addr = server().await;
    let evs = check_run(&get(addr, "/api/stream?scenario=failure&speed=0").await.body);
    assert!(find(&evs, "tool-complete", |v| v["success"] == false
        && v["error"].is_string())
    .is_some());
    let last = evs.last().expect("last");
    assert_eq!(last["status"], "failed");
    assert!(last["metadata"]["reason"].is_string());

    let body = get(addr, "/api/stream?scenario=xss&speed=0").await.body;
    let evs = check_run(&body);
    let text = String::from_utf8_lossy(&body);
    for bad in [
        "<img src=x onerror=alert(1)>",
        "<script>alert(1)</script>",
        "[click](javascript:alert(1))",
    ] {
        assert!(text.contains(bad), "xss has {bad}");
    }
    assert_eq!(
        find(&evs, "auth-required", |_| true).expect("auth")["authUrl"],
        "javascript:alert(1)"
    );
    assert!(find(&evs, "thought-stream", |v| v["content"]
        .as_str()
        .is_some_and(|c| c.contains("<script>")))
    .is_some());
    assert!(find(&evs, "file-write", |v| v["mimeType"] == "text/markdown").is_some());
    assert_eq!(evs.last().expect("last")["kind"], "task-complete");

    for n in [6u64, 15, 111, 1000] {
        let r = get(addr, &format!("/api/stream?scenario=bulk&events={n}")).await;
        let evs = check_run(&r.body);
        assert_eq!(evs.len() as u64, n);
    }
    let r = get(addr, "/api/stream?scenario=bulk&events=20000").await;
    let evs = events(&r.body);
    assert_eq!(evs.len(), 20_000);
    let deltas = evs
        .iter()
        .filter(|b| b.event.as_deref() == Some("content-delta"))
        .count();
    assert!(deltas > 17_000, "mostly content deltas");
    assert_eq!(
        get(addr, "/api/stream?scenario=bulk&events=5").await.status,
        400
    );
}

#[tokio::test]
async fn speed_paces_the_run_in_real_time() {
    let addr = server().await;
    let t = std::time::Instant::now();
    let r = get(addr, "/api/stream?scenario=failure&speed=20").await;
    let took = t.elapsed();
    let evs = check_run(&r.body);
    let last = evs.last().expect("last")["timestamp"]
        .as_str()
        .expect("ts")
        .to_owned();
    // About 4.8 s of simulated time at speed 20: about 240 ms.
    assert!(last.as_str() > "2025-11-06T10:30:04", "{last}");
    assert!(took >= Duration::from_millis(150), "{took:?}");
    assert!(took < Duration::from_secs(5), "{took:?}");
    let t = std::time::Instant::now();
    get(addr, "/api/stream?scenario=failure&speed=0").await;
    assert!(t.elapsed() < Duration::from_millis(500));
}

#[tokio::test]
async fn heartbeats_while_waiting() {
    let addr = server().await;
    let mut c = open(
        addr,
        "GET",
        "/api/stream?scenario=main&speed=0&run=hb&heartbeat=50",
        &[],
        None,
    )
    .await;
    assert!(c.wait_for("\"waiting-input\"", S).await);
    assert!(c.wait_for("\n: hb\n\n", Duration::from_secs(2)).await);
    let r = get(addr, "/api/stream?scenario=quick&speed=0&retry=2500").await;
    assert!(r.text().starts_with("retry: 2500\n\n"));
}

#[tokio::test]
async fn cors_on_preflight_answers_and_errors() {
    let addr = server().await;
    let origin = ("Origin", "http://localhost:5173");
    let r = request(
        addr,
        "OPTIONS",
        "/api/runs",
        &[
            origin,
            ("Access-Control-Request-Method", "POST"),
            (
                "Access-Control-Request-Headers",
                "content-type,last-event-id",
            ),
        ],
        None,
    )
    .await;
    assert_eq!(r.status, 204);
    assert_eq!(
        r.header("access-control-allow-origin"),
        Some("http://localhost:5173")
    );
    assert_eq!(r.header("access-control-allow-credentials"), Some("true"));
    let methods = r.header("access-control-allow-methods").expect("methods");
    assert!(methods.contains("POST") && methods.contains("GET") && methods.contains("OPTIONS"));
    let allowed = r
        .header("access-control-allow-headers")
        .expect("headers")
        .to_ascii_lowercase();
    for h in [
        "content-type",
        "authorization",
        "last-event-id",
        "cache-control",
    ] {
        assert!(allowed.contains(h), "{h}");
    }
    assert!(r
        .header("access-control-expose-headers")
        .is_some_and(|v| v.contains("Retry-After")));
    for path in [
        "/api/health",
        "/api/nope",
        "/api/stream?scenario=nope",
        "/api/stream?scenario=quick&speed=0",
    ] {
        let r = request(addr, "GET", path, &[origin], None).await;
        assert_eq!(
            r.header("access-control-allow-origin"),
            Some("http://localhost:5173"),
            "{path}"
        );
    }
    let r = get(addr, "/api/health").await;
    assert_eq!(r.header("access-control-allow-origin"), Some("*"));
    assert_eq!(r.header("access-control-allow-credentials"), None);
}

#[tokio::test]
async fn malformed_requests_get_a_400_not_a_panic() {
    let addr = server().await;
    for (path, status) in [
        ("/api/stream?scenario=nope", 404),
        ("/api/stream?seed=abc", 400),
        ("/api/stream?seed=-1", 400),
        ("/api/stream?speed=fast", 400),
        ("/api/stream?speed=NaN", 400),
        ("/api/stream?speed=-1", 400),
        ("/api/stream?faults=bogus", 400),
        ("/api/stream?faults=drop%3Dx", 400),
        ("/api/stream?run=has%20space", 400),
        ("/api/stream?run=%FF%FE", 400),
        ("/api/stream?events=99999999999999", 400),
        ("/api/stream?retry=-5", 400),
    ] {
        let r = get(addr, path).await;
        assert_eq!(r.status, status, "{path}");
        assert!(r.json()["error"].is_string(), "{path}");
    }
    for body in ["{", "[1]", r#"{"seed":{}}"#, r#"{"speed":"x"}"#, "\u{0}"] {
        assert_eq!(post(addr, "/api/runs", body).await.status, 400, "{body}");
    }
    let big = format!(r#"{{"x":"{}"}}"#, "a".repeat(1 << 21));
    assert_eq!(post(addr, "/api/runs", &big).await.status, 413);
    // Garbage Last-Event-ID is "from the start", like EventSource would treat it.
    let r = request(
        addr,
        "GET",
        "/api/stream?scenario=quick&speed=0",
        &[("Last-Event-ID", "zzz")],
        None,
    )
    .await;
    assert_eq!(events(&r.body)[0].num(), 0);
    // A raw garbage request line: the server answers 400 or closes, and keeps serving.
    let mut s = tokio::net::TcpStream::connect(addr).await.expect("connect");
    tokio::io::AsyncWriteExt::write_all(&mut s, b"\xff\xfe garbage\r\n\r\n")
        .await
        .expect("write");
    drop(s);
    assert_eq!(get(addr, "/api/health").await.status, 200);
}

#[tokio::test]
async fn static_files_with_mime_types_csp_and_no_traversal() {
    let dir = std::env::temp_dir().join(format!("aw-static-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("sub")).expect("mkdir");
    std::fs::write(dir.join("index.html"), "<!doctype html><p>hi</p>").expect("write");
    std::fs::write(dir.join("app.js"), "export {}").expect("write");
    std::fs::write(dir.join("app.wasm"), b"\0asm\x01\0\0\0").expect("write");
    std::fs::write(dir.join("sub/index.html"), "<p>sub</p>").expect("write");
    let addr = server_with(agentwire_scenario::Config {
        static_dir: Some(dir.clone()),
        default_speed: 0.0,
        ..Default::default()
    })
    .await;
    let r = get(addr, "/").await;
    assert_eq!(r.status, 200);
    assert!(r
        .header("content-type")
        .is_some_and(|v| v.starts_with("text/html")));
    let csp = r.header("content-security-policy").expect("CSP");
    assert_eq!(
        csp,
        agentwire_scenario::static_files::CONTENT_SECURITY_POLICY
    );
    assert!(csp.contains("'wasm-unsafe-eval'") && csp.contains("frame-ancestors 'none'"));
    assert_eq!(r.text(), "<!doctype html><p>hi</p>");
    let r = get(addr, "/app.wasm").await;
    assert_eq!(r.header("content-type"), Some("application/wasm"));
    assert_eq!(r.body, b"\0asm\x01\0\0\0");
    assert!(r.header("content-security-policy").is_none());
    assert!(get(addr, "/app.js")
        .await
        .header("content-type")
        .is_some_and(|v| v.starts_with("text/javascript")));
    assert_eq!(get(addr, "/sub/").await.text(), "<p>sub</p>");
    assert_eq!(get(addr, "/missing.js").await.status, 404);
    for bad in [
        "/../etc/passwd",
        "/%2e%2e/etc/passwd",
        "/sub/..%2F..%2Fetc",
        "/a%5C..%5Cb",
    ] {
        let s = get(addr, bad).await.status;
        assert!(s == 403 || s == 404 || s == 400, "{bad}: {s}");
        assert_ne!(s, 200);
    }
    // The API still works next to the static files.
    assert_eq!(get(addr, "/api/health").await.status, 200);
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn runs_are_capped_evicting_the_oldest_finished() {
    let addr = server().await;
    let mut w = open(
        addr,
        "GET",
        "/api/stream?scenario=main&speed=0&run=keep-waiting",
        &[],
        None,
    )
    .await;
    assert!(w.wait_for("\"waiting-input\"", S).await);
    let n = agentwire_scenario::run::MAX_RUNS + 5;
    for i in 0..n {
        let r = get(
            addr,
            &format!("/api/stream?scenario=bulk&events=6&run=cap{i}"),
        )
        .await;
        assert_eq!(r.status, 200);
    }
    assert_eq!(
        get(addr, "/api/runs/cap0").await.status,
        404,
        "oldest finished evicted"
    );
    assert_eq!(
        get(addr, &format!("/api/runs/cap{}", n - 1)).await.status,
        200
    );
    assert_eq!(
        get(addr, "/api/runs/keep-waiting").await.status,
        200,
        "a running run outlives finished ones"
    );
}

#[tokio::test]
async fn dialect_last_event_id_with_the_largest_frame_index_is_not_a_panic() {
    let addr = server().await;
    // `N.k` with k = usize::MAX: "after the last frame of event 5" (README: a malformed
    // parameter is a 400 or lenient, never a panic).
    for (path, hdr) in [
        (
            "/api/stream?scenario=quick&speed=0&dialect=a2a&lastEventId=5.18446744073709551615",
            None,
        ),
        (
            "/api/stream?scenario=quick&speed=0&dialect=acp",
            Some("5.18446744073709551615"),
        ),
    ] {
        let headers: Vec<(&str, &str)> = hdr.map(|h| ("Last-Event-ID", h)).into_iter().collect();
        let r = request(addr, "GET", path, &headers, None).await;
        assert_eq!(r.status, 200, "{path}");
        let first = events(&r.body).first().map(|b| b.num());
        assert!(
            first.is_some_and(|n| n >= 6),
            "{path}: first frame {first:?}"
        );
    }
    assert_eq!(get(addr, "/api/health").await.status, 200);
}
