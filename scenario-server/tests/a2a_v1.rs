//! A2A v1.0 (README, "A2A v1.0"): the `main` run over the JSON-RPC binding (`/api/a2a/v1`)
//! and over HTTP+JSON (`/api/a2a/rest`), to input-required, answered, to completion; the wire
//! shape of every event as the official 1.3.0 servers write it; the three streams of a run
//! decoded by agentwire's own A2A decoder into the same task, content and artifacts as the
//! v0.3 encoding of the same run, with no diagnostics; the version check; resubscribe after a
//! dropped stream (the Task snapshot, then live events); cancel; unknown tasks; the card.

mod common;

use agentwire::dialects::{Dialect as ClientDialect, DialectChoice};
use agentwire::pipeline::Session;
use agentwire::sse::SseConfig;
use agentwire::state::{Limits, RequestState, Store};
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::time::Duration;

const V1: (&str, &str) = ("A2A-Version", "1.0");
const JSON: (&str, &str) = ("Content-Type", "application/json");

/// A v1.0 request with `A2A-Version: 1.0`, read to the end.
async fn v1(addr: SocketAddr, method: &str, path: &str, body: Option<&Value>) -> common::Conn {
    let b = body.map(Value::to_string);
    common::request(addr, method, path, &[V1, JSON], b.as_deref()).await
}

fn rpc(method: &str, params: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": 7, "method": method, "params": params})
}

fn user(parts: Value, task: Option<&str>) -> Value {
    let mut m = json!({"messageId": "u-1", "role": "ROLE_USER", "parts": parts});
    if let Some(t) = task {
        m["taskId"] = t.into();
        m["contextId"] = "ctx-r1".into();
    }
    m
}

/// The `data:` of every frame, as JSON (no frame may carry an `id:`: v1.0 servers send bare
/// frames).
fn frames(body: &[u8]) -> Vec<Value> {
    common::blocks(body)
        .into_iter()
        .filter(|b| !b.comment)
        .map(|b| {
            assert!(b.id.is_none() && b.retry.is_none(), "bare frames: {b:?}");
            serde_json::from_str(b.data.as_deref().expect("data")).expect("json")
        })
        .collect()
}

/// The `StreamResponse`s of a stream (JSON-RPC: each frame's `result`, same id).
fn events(body: &[u8], jsonrpc: bool) -> Vec<Value> {
    frames(body)
        .into_iter()
        .map(|f| {
            if jsonrpc {
                assert_eq!((&f["jsonrpc"], &f["id"]), (&json!("2.0"), &json!(7)), "{f}");
                f["result"].clone()
            } else {
                f
            }
        })
        .collect()
}

fn check_part(p: &Value) {
    let o = p.as_object().expect("part object");
    let kinds = ["text", "data", "raw", "url"]
        .iter()
        .filter(|k| o.contains_key(**k))
        .count();
    assert_eq!(kinds, 1, "one of text/data/raw/url: {p}");
    assert!(!o.contains_key("kind") && !o.contains_key("file"), "{p}");
    for k in o.keys() {
        let allowed = [
            "text",
            "data",
            "raw",
            "url",
            "filename",
            "mediaType",
            "metadata",
        ];
        assert!(allowed.contains(&k.as_str()), "part member {k}: {p}");
    }
}

fn check_message(m: &Value) {
    assert!(m.get("kind").is_none(), "{m}");
    let role = m["role"].as_str().expect("role");
    assert!(role == "ROLE_AGENT" || role == "ROLE_USER", "{m}");
    m["parts"]
        .as_array()
        .expect("parts")
        .iter()
        .for_each(check_part);
}

fn check_status(s: &Value) {
    let state = s["state"].as_str().expect("state");
    assert!(state.starts_with("TASK_STATE_"), "{s}");
    if let Some(m) = s.get("message") {
        check_message(m);
    }
}

/// The v1.0 wire shape of one `StreamResponse`.
fn check_event(e: &Value) {
    let o = e.as_object().expect("object");
    assert_eq!(o.len(), 1, "exactly one member: {e}");
    let (name, v) = o.iter().next().expect("member");
    assert!(v.get("kind").is_none() && v.get("final").is_none(), "{e}");
    match name.as_str() {
        "task" => {
            check_status(&v["status"]);
            for m in v["history"].as_array().into_iter().flatten() {
                check_message(m);
            }
            for a in v["artifacts"].as_array().into_iter().flatten() {
                a["parts"]
                    .as_array()
                    .expect("parts")
                    .iter()
                    .for_each(check_part);
            }
        }
        "statusUpdate" => check_status(&v["status"]),
        "artifactUpdate" => {
            v["artifact"]["parts"]
                .as_array()
                .expect("parts")
                .iter()
                .for_each(check_part);
            for k in ["append", "lastChunk"] {
                assert!(
                    v.get(k).is_none_or(|x| x == true),
                    "{k} only when true: {e}"
                );
            }
        }
        "message" => check_message(v),
        other => panic!("unexpected StreamResponse member {other}: {e}"),
    }
}

fn root_state(e: &Value, task: &str) -> Option<String> {
    let s = &e["statusUpdate"];
    (s["taskId"] == task).then(|| s["status"]["state"].as_str().unwrap_or("").to_owned())
}

fn decode(bodies: &[&[u8]]) -> Session {
    let mut s = Session::with_dialect(
        SseConfig::default(),
        Limits::default(),
        DialectChoice::Fixed(ClientDialect::A2a),
    );
    for b in bodies {
        for chunk in b.chunks(777) {
            s.feed(chunk, &mut |_, _, _| {});
        }
    }
    s.finish();
    s
}

fn diags(s: &Store) -> Vec<String> {
    s.diagnostics()
        .map(|d| format!("{:?}: {}", d.code, d.message))
        .collect()
}

fn raw(r: &agentwire::state::RawJson) -> Value {
    serde_json::from_str(&r.0).unwrap_or(Value::Null)
}

/// What a user sees of a run: the root's status and answer, the inputs and whether they were
/// answered, every sub-agent's text, every artifact's name, type, bytes, data and rows.
fn facts(s: &Store) -> Value {
    let root = s.roots().next().expect("a root task");
    let tasks: Vec<Value> = s
        .tasks()
        .map(|t| json!([t.id, format!("{:?}", t.status), t.content]))
        .collect();
    let inputs: Vec<Value> = root
        .inputs
        .iter()
        .map(|i| json!([i.id, i.prompt, i.state != RequestState::Open]))
        .collect();
    let auths: Vec<Value> = root
        .auths
        .iter()
        .map(|a| json!([a.id, a.auth_url, a.state != RequestState::Open]))
        .collect();
    let mut artifacts: Vec<Value> = s
        .artifacts()
        .map(|a| {
            json!({
                "id": a.id, "name": a.name, "type": format!("{:?}", a.kind),
                "mime": a.mime_type,
                "bytes": s.artifact_bytes(&a.id).map(|b| String::from_utf8_lossy(b).into_owned()),
                "data": a.data.as_ref().map(raw),
                "rows": s.artifact_rows_json(&a.id),
            })
        })
        .collect();
    artifacts.sort_by_key(Value::to_string);
    json!({
        "root": root.id, "status": format!("{:?}", root.status), "answer": root.content,
        "tasks": tasks, "inputs": inputs, "auths": auths, "artifacts": artifacts,
    })
}

/// Plays `main` (run r1) over one binding: stream to input-required, approve, stream to
/// auth-required, sign in, stream to completion. Checks every event's shape and where each
/// stream ends; returns the three bodies and the task id.
async fn play(addr: SocketAddr, jsonrpc: bool) -> (Vec<Vec<u8>>, String) {
    let send = |m: Value| async move {
        if jsonrpc {
            let body = rpc("SendStreamingMessage", json!({"message": m}));
            v1(
                addr,
                "POST",
                "/api/a2a/v1?scenario=main&seed=1&speed=0",
                Some(&body),
            )
            .await
        } else {
            let body = json!({"message": m});
            let path = "/api/a2a/rest/message:stream?scenario=main&seed=1&speed=0";
            v1(addr, "POST", path, Some(&body)).await
        }
    };
    let a = send(user(json!([{"text": "Q4 report"}]), None)).await;
    assert_eq!(a.status, 200);
    assert_eq!(a.header("content-type"), Some("text/event-stream"));
    assert!(a.ended, "the stream ends at input-required");
    let evs = events(&a.body, jsonrpc);
    evs.iter().for_each(check_event);
    let task = evs[0]["task"]["id"]
        .as_str()
        .expect("task first")
        .to_owned();
    assert_eq!(evs[0]["task"]["status"]["state"], "TASK_STATE_SUBMITTED");
    let last = evs.last().expect("events");
    assert_eq!(
        root_state(last, &task).as_deref(),
        Some("TASK_STATE_INPUT_REQUIRED")
    );
    let prompt = &last["statusUpdate"]["status"]["message"]["parts"];
    assert_eq!(prompt[1]["data"]["options"], json!(["approve", "deny"]));

    let b = send(user(json!([{"text": "approve"}]), Some(&task))).await;
    assert!(b.ended);
    let evs = events(&b.body, jsonrpc);
    evs.iter().for_each(check_event);
    // The answer stream starts with the Task as it was asked, the answer in its history.
    let snap = &evs[0]["task"];
    assert_eq!(snap["id"], task.as_str());
    assert_eq!(snap["status"]["state"], "TASK_STATE_INPUT_REQUIRED");
    let history = snap["history"].as_array().expect("history");
    assert_eq!(
        history.last().expect("answer")["parts"],
        json!([{"text": "approve"}])
    );
    assert_eq!(
        root_state(evs.last().expect("b"), &task).as_deref(),
        Some("TASK_STATE_AUTH_REQUIRED")
    );

    let c = send(user(json!([{"data": {"userId": "octo"}}]), Some(&task))).await;
    assert!(c.ended);
    let evs = events(&c.body, jsonrpc);
    evs.iter().for_each(check_event);
    assert_eq!(
        evs[0]["task"]["status"]["state"],
        "TASK_STATE_AUTH_REQUIRED"
    );
    assert_eq!(
        root_state(evs.last().expect("c"), &task).as_deref(),
        Some("TASK_STATE_COMPLETED")
    );
    (vec![a.body, b.body, c.body], task)
}

/// The v1.0 streams of a whole run decode to what the v0.3 encoding of the same run decodes to.
async fn same_as_v03(addr: SocketAddr, bodies: &[Vec<u8>]) {
    let v1: Vec<&[u8]> = bodies.iter().map(Vec::as_slice).collect();
    let s1 = decode(&v1);
    assert!(
        diags(s1.store()).is_empty(),
        "v1.0: {:?}",
        diags(s1.store())
    );
    let r = common::get(addr, "/api/runs/r1/stream?dialect=a2a").await;
    let s0 = decode(&[&r.body]);
    assert!(
        diags(s0.store()).is_empty(),
        "v0.3: {:?}",
        diags(s0.store())
    );
    let (f1, f0) = (facts(s1.store()), facts(s0.store()));
    assert_eq!(f1, f0);
    assert_eq!(f1["status"], "Some(Completed)");
    assert!(f1["answer"]
        .as_str()
        .is_some_and(|a| a.contains("A copy was sent to finance@example.com")));
    assert_eq!(f1["artifacts"].as_array().map(Vec::len), Some(4), "{f1}");
    assert_eq!(f1["inputs"][0][2], true);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn jsonrpc_v1_main_run_decodes_like_v03() {
    let addr = common::server().await;
    let (bodies, task) = play(addr, true).await;
    assert!(task.ends_with("@r1"), "{task}");
    same_as_v03(addr, &bodies).await;
    // GetTask: the completed Task with its artifacts; historyLength keeps the last messages.
    let g = v1(
        addr,
        "POST",
        "/api/a2a/v1",
        Some(&rpc("GetTask", json!({"id": task, "historyLength": 2}))),
    )
    .await;
    let t = &g.json()["result"];
    assert_eq!(t["status"]["state"], "TASK_STATE_COMPLETED");
    assert_eq!(t["history"].as_array().map(Vec::len), Some(2));
    assert!(t["artifacts"].as_array().is_some_and(|a| a.len() >= 2));
    check_event(&json!({"task": t}));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rest_v1_main_run_decodes_like_v03() {
    let addr = common::server().await;
    let (bodies, task) = play(addr, false).await;
    same_as_v03(addr, &bodies).await;
    let g = v1(addr, "GET", &format!("/api/a2a/rest/tasks/{task}"), None).await;
    assert_eq!(g.status, 200);
    assert_eq!(g.header("content-type"), Some("application/a2a+json"));
    assert_eq!(g.json()["status"]["state"], "TASK_STATE_COMPLETED");
    // A terminal task can be neither subscribed to nor answered.
    for (path, body) in [
        (format!("/api/a2a/rest/tasks/{task}:subscribe"), None),
        (
            "/api/a2a/rest/message:stream".to_owned(),
            Some(json!({"message": user(json!([{"text": "again"}]), Some(&task))})),
        ),
    ] {
        let r = v1(addr, "POST", &path, body.as_ref()).await;
        assert_eq!(r.status, 400, "{path}");
        let e = r.json();
        assert_eq!(e["error"]["status"], "FAILED_PRECONDITION");
        assert_eq!(e["error"]["details"][0]["reason"], "UNSUPPORTED_OPERATION");
        assert!(e["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("terminal state (3)")));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn version_header_is_required() {
    let addr = common::server().await;
    let send = rpc(
        "SendStreamingMessage",
        json!({"message": user(json!([{"text": "hi"}]), None)}),
    );
    for headers in [vec![JSON], vec![JSON, ("A2A-Version", "0.3")]] {
        let r = common::request(
            addr,
            "POST",
            "/api/a2a/v1?scenario=quick",
            &headers,
            Some(&send.to_string()),
        )
        .await;
        assert_eq!(r.status, 200);
        assert_eq!(r.header("content-type"), Some("application/json"));
        let e = r.json();
        assert_eq!(e["id"], 7);
        assert_eq!(e["error"]["code"], -32009);
        assert_eq!(
            e["error"]["data"],
            json!([{"@type": "type.googleapis.com/google.rpc.ErrorInfo",
                "reason": "VERSION_NOT_SUPPORTED", "domain": "a2a-protocol.org"}])
        );
    }
    // v0.3 method names are not v1.0 methods.
    let old = rpc(
        "message/stream",
        json!({"message": {"kind": "message", "role": "user", "messageId": "m", "parts": []}}),
    );
    let r = v1(addr, "POST", "/api/a2a/v1", Some(&old)).await;
    assert_eq!(r.json()["error"]["code"], -32601);
    // HTTP+JSON: 400 FAILED_PRECONDITION.
    let body = json!({"message": user(json!([{"text": "hi"}]), None)}).to_string();
    let r = common::request(
        addr,
        "POST",
        "/api/a2a/rest/message:stream?scenario=quick",
        &[JSON],
        Some(&body),
    )
    .await;
    assert_eq!(r.status, 400);
    let e = r.json();
    assert_eq!(e["error"]["code"], 400);
    assert_eq!(e["error"]["status"], "FAILED_PRECONDITION");
    assert_eq!(e["error"]["details"][0]["reason"], "VERSION_NOT_SUPPORTED");
    // No run was started by the refused requests.
    let r = common::get(addr, "/api/runs/r1").await;
    assert_eq!(r.status, 404);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn resubscribe_after_a_drop_gets_the_snapshot_then_live_events() {
    let addr = common::server().await;
    // `cancel` holds at speed 0 until canceled; drop=4 cuts the first stream in event 4.
    let body = rpc(
        "SendStreamingMessage",
        json!({"message": user(json!([{"text": "go"}]), None)}),
    );
    let a = v1(
        addr,
        "POST",
        "/api/a2a/v1?scenario=cancel&speed=0&faults=drop=4",
        Some(&body),
    )
    .await;
    assert!(!a.ended, "the first stream was cut");
    let evs = events(&a.body, true);
    let task = evs[0]["task"]["id"].as_str().expect("task").to_owned();
    // SubscribeToTask: the Task so far, then whatever happens next.
    let sub = rpc("SubscribeToTask", json!({"id": task}));
    let mut s = common::open(
        addr,
        "POST",
        "/api/a2a/v1",
        &[V1, JSON],
        Some(&sub.to_string()),
    )
    .await;
    assert_eq!(s.status, 200);
    assert!(s.wait_for("\n\n", Duration::from_secs(10)).await);
    let first = events(&s.body, true);
    assert_eq!(first.len(), 1, "only the snapshot while the job holds");
    let snap = &first[0]["task"];
    assert_eq!(snap["id"], task.as_str());
    assert_eq!(snap["status"]["state"], "TASK_STATE_WORKING");
    assert!(
        snap["history"].as_array().is_some_and(|h| h.len() > 2),
        "{snap}"
    );
    check_event(&first[0]);
    // CancelTask answers the canceled Task; the subscription sees the cancel live and ends.
    let c = v1(
        addr,
        "POST",
        "/api/a2a/v1",
        Some(&rpc("CancelTask", json!({"id": task}))),
    )
    .await;
    let t = &c.json()["result"];
    assert_eq!(t["status"]["state"], "TASK_STATE_CANCELED", "{t}");
    assert_eq!(t["id"], task.as_str());
    let s = s.finish(10).await;
    let evs = events(&s.body, true);
    evs.iter().for_each(check_event);
    assert!(evs.len() > 1);
    assert_eq!(
        root_state(evs.last().expect("last"), &task).as_deref(),
        Some("TASK_STATE_CANCELED")
    );
    // The cut stream, the snapshot and the live events make one clean run for the client.
    let d = decode(&[&a.body, &s.body]);
    let root = d.store().roots().next().expect("root");
    assert_eq!(format!("{:?}", root.status), "Some(Canceled)");
    // Canceling again: not cancelable (-32002).
    let c = v1(
        addr,
        "POST",
        "/api/a2a/v1",
        Some(&rpc("CancelTask", json!({"id": task}))),
    )
    .await;
    assert_eq!(c.json()["error"]["code"], -32002);
    assert_eq!(
        c.json()["error"]["data"][0]["reason"],
        "TASK_NOT_CANCELABLE"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rest_cancel_and_subscribe() {
    let addr = common::server().await;
    let body = json!({"message": user(json!([{"text": "go"}]), None)}).to_string();
    let mut a = common::open(
        addr,
        "POST",
        "/api/a2a/rest/message:stream?scenario=cancel&speed=0",
        &[V1, JSON],
        Some(&body),
    )
    .await;
    assert!(a.wait_for("\"task\"", Duration::from_secs(10)).await);
    let task = events(&a.body, false)[0]["task"]["id"]
        .as_str()
        .expect("id")
        .to_owned();
    // GET tasks/{id}:subscribe: the snapshot first.
    let mut s = common::open(
        addr,
        "GET",
        &format!("/api/a2a/rest/tasks/{task}:subscribe"),
        &[V1],
        None,
    )
    .await;
    assert_eq!(s.header("content-type"), Some("text/event-stream"));
    assert!(s.wait_for("\n\n", Duration::from_secs(10)).await);
    assert_eq!(events(&s.body, false)[0]["task"]["id"], task.as_str());
    let c = v1(
        addr,
        "POST",
        &format!("/api/a2a/rest/tasks/{task}:cancel"),
        None,
    )
    .await;
    assert_eq!(c.status, 200);
    assert_eq!(c.header("content-type"), Some("application/a2a+json"));
    assert_eq!(c.json()["status"]["state"], "TASK_STATE_CANCELED");
    for conn in [a.finish(10).await, s.finish(10).await] {
        assert!(conn.ended);
        let evs = events(&conn.body, false);
        evs.iter().for_each(check_event);
        assert_eq!(
            root_state(evs.last().expect("last"), &task).as_deref(),
            Some("TASK_STATE_CANCELED")
        );
    }
    let c = v1(
        addr,
        "POST",
        &format!("/api/a2a/rest/tasks/{task}:cancel"),
        None,
    )
    .await;
    assert_eq!(c.status, 400);
    assert_eq!(
        c.json()["error"]["details"][0]["reason"],
        "TASK_NOT_CANCELABLE"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unknown_tasks_in_both_bindings() {
    let addr = common::server().await;
    let info = json!([{"@type": "type.googleapis.com/google.rpc.ErrorInfo",
        "reason": "TASK_NOT_FOUND", "domain": "a2a-protocol.org"}]);
    let answer = json!({"message": {"messageId": "m", "role": "ROLE_USER",
        "parts": [{"text": "approve"}], "taskId": "no-such-task", "contextId": "no-such-context"}});
    for (method, params) in [
        ("GetTask", json!({"id": "no-such-task"})),
        ("SubscribeToTask", json!({"id": "no-such-task"})),
        ("CancelTask", json!({"id": "nope@r9"})),
        ("SendStreamingMessage", answer.clone()),
    ] {
        let r = v1(addr, "POST", "/api/a2a/v1", Some(&rpc(method, params))).await;
        assert_eq!(r.status, 200, "{method}");
        assert_eq!(
            r.header("content-type"),
            Some("application/json"),
            "{method}"
        );
        let e = r.json();
        assert_eq!(e["error"]["code"], -32001, "{method}");
        assert_eq!(e["error"]["data"], info, "{method}");
    }
    for (method, path, body) in [
        ("GET", "/api/a2a/rest/tasks/no-such-task", None),
        ("POST", "/api/a2a/rest/tasks/no-such-task:subscribe", None),
        ("GET", "/api/a2a/rest/tasks/no-such-task:subscribe", None),
        ("POST", "/api/a2a/rest/tasks/no-such-task:cancel", None),
        ("POST", "/api/a2a/rest/message:stream", Some(&answer)),
    ] {
        let r = v1(addr, method, path, body).await;
        assert_eq!(r.status, 404, "{method} {path}");
        assert_eq!(r.header("content-type"), Some("application/a2a+json"));
        assert_eq!(
            r.json(),
            json!({"error": {"code": 404, "status": "NOT_FOUND",
                "message": "Task not found: no-such-task", "details": info}}),
            "{method} {path}"
        );
    }
    // Wrong methods and unknown paths.
    assert_eq!(
        v1(addr, "GET", "/api/a2a/rest/message:stream", None)
            .await
            .status,
        405
    );
    assert_eq!(
        v1(addr, "GET", "/api/a2a/rest/nope", None).await.status,
        404
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_card_lists_both_interfaces() {
    let addr = common::server().await;
    let r = common::get(addr, "/api/a2a/v1/.well-known/agent-card.json").await;
    assert_eq!(r.status, 200);
    let card = r.json();
    let host = format!("http://{addr}");
    assert_eq!(
        card["supportedInterfaces"],
        json!([
            {"url": format!("{host}/api/a2a/v1"), "protocolBinding": "JSONRPC", "protocolVersion": "1.0"},
            {"url": format!("{host}/api/a2a/rest"), "protocolBinding": "HTTP+JSON", "protocolVersion": "1.0"},
        ])
    );
    assert_eq!(card["capabilities"]["streaming"], true);
    let skills: Vec<&str> = card["skills"]
        .as_array()
        .expect("skills")
        .iter()
        .filter_map(|s| s["id"].as_str())
        .collect();
    assert!(
        skills.contains(&"main") && skills.contains(&"cancel"),
        "{skills:?}"
    );
    let index = common::get(addr, "/").await.json();
    let list = index["endpoints"].to_string();
    assert!(list.contains("/api/a2a/v1") && list.contains("/api/a2a/rest/message:stream"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rpc_error_fault_is_an_sse_error_event() {
    let addr = common::server().await;
    let msg = json!({"message": user(json!([{"text": "go"}]), None)});
    let q = "scenario=failure&speed=0&faults=rpcError";
    let r = v1(
        addr,
        "POST",
        &format!("/api/a2a/v1?{q}"),
        Some(&rpc("SendStreamingMessage", msg.clone())),
    )
    .await;
    let last = common::blocks(&r.body).pop().expect("frames");
    assert_eq!(last.event.as_deref(), Some("error"));
    let e = last.json();
    assert_eq!((&e["id"], &e["error"]["code"]), (&json!(7), &json!(-32603)));
    let r = v1(
        addr,
        "POST",
        &format!("/api/a2a/rest/message:stream?{q}"),
        Some(&msg),
    )
    .await;
    let last = common::blocks(&r.body).pop().expect("frames");
    assert_eq!(last.event.as_deref(), Some("error"));
    let e = last.json();
    assert_eq!(
        (&e["error"]["code"], &e["error"]["status"]),
        (&json!(500), &json!("INTERNAL"))
    );
    assert!(!r.text().contains("TASK_STATE_FAILED"));
}
