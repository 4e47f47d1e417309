//! The dialects (README, "Dialects"). A full `main` run encoded in every dialect and decoded by
//! agentwire's own dialect decoders must assemble the same essentials as the canonical run
//! (answer text, sub-agent texts, artifact bytes / data / rows, tools, input requests) with no
//! diagnostics at all; plus the dialect SSE framing (`N.k` ids, resume, faults), the A2A and ACP
//! JSON-RPC endpoints, and the MyAgent WebSocket session.

mod common;

use agentwire::dialects::{Dialect as ClientDialect, DialectChoice};
use agentwire::events::DiagCode;
use agentwire::pipeline::Session;
use agentwire::sse::SseConfig;
use agentwire::state::{Limits, RequestState, Store, Task, ToolState};
use agentwire_scenario::dialects::{self as sd, Dialect};
use agentwire_scenario::{App, Config, Server};
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

async fn start() -> (SocketAddr, Arc<App>) {
    let server = Server::bind(Config {
        default_speed: 0.0,
        ..Config::default()
    })
    .await
    .expect("bind");
    let addr = server.local_addr().expect("addr");
    let app = server.app();
    tokio::spawn(server.run(std::future::pending()));
    (addr, app)
}

/// Answers the open requests of `run` through the canonical endpoints until it finished
/// (`approval` for inputs; auths completed). Returns the keys answered.
async fn drive(addr: SocketAddr, run: &str, approval: &str) -> Vec<String> {
    let mut answered = Vec::new();
    for _ in 0..6000 {
        let info = common::get(addr, &format!("/api/runs/{run}")).await.json();
        if info["finished"] == true {
            return answered;
        }
        for key in info["openRequests"].as_array().into_iter().flatten() {
            let key = key.as_str().unwrap_or_default().to_owned();
            if answered.contains(&key) {
                continue;
            }
            let parts: Vec<&str> = key.split('/').collect();
            let (what, body) = if parts[0] == "input" {
                ("inputs", format!("{{\"value\":\"{approval}\"}}"))
            } else {
                ("auth", "{\"userId\":\"u-1\"}".to_owned())
            };
            let r = common::post(
                addr,
                &format!(
                    "/api/contexts/ctx-{run}/tasks/{}/{what}/{}",
                    parts[1], parts[2]
                ),
                &body,
            )
            .await;
            assert_eq!(r.status, 200, "{key}: {}", r.text());
            answered.push(key);
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    panic!("run {run} did not finish");
}

/// Plays `main` (speed 0) as run `run`, answering through the canonical endpoints.
async fn play_main(addr: SocketAddr, run: &str, approval: &str) {
    let path = format!("/api/stream?scenario=main&seed=1&speed=0&run={run}");
    let stream = common::open(addr, "GET", &path, &[], None).await;
    let reader = tokio::spawn(stream.finish(60));
    let answered = drive(addr, run, approval).await;
    assert!(
        reader.await.expect("stream").ended,
        "the canonical stream ended"
    );
    assert_eq!(
        answered.len(),
        2,
        "approval and auth answered: {answered:?}"
    );
}

fn session(choice: Option<ClientDialect>) -> Session {
    match choice {
        None => Session::new(SseConfig::default(), Limits::default()),
        Some(d) => Session::with_dialect(
            SseConfig::default(),
            Limits::default(),
            DialectChoice::Fixed(d),
        ),
    }
}

/// Decodes an SSE body (in odd-sized chunks).
fn decode(choice: Option<ClientDialect>, body: &[u8]) -> Session {
    let mut s = session(choice);
    for chunk in body.chunks(777) {
        s.feed(chunk, &mut |_, _, _| {});
    }
    s.finish();
    s
}

/// Decodes MyAgent WebSocket frames.
fn decode_frames<S: AsRef<str>>(frames: &[S]) -> Session {
    let mut s = session(Some(ClientDialect::MyAgent));
    for f in frames {
        s.feed_frame(f.as_ref(), &mut |_, _, _| {});
    }
    s.finish();
    s
}

/// Every frame of run `run` in the MyAgent encoding (what a WebSocket session sends).
fn myagent_frames(app: &App, run: &str) -> Vec<String> {
    let run = app.runs.get(run).expect("run");
    let enc = sd::encoded(&run, Dialect::MyAgent).expect("encoding");
    let e = enc.lock().expect("lock");
    e.frame_range(0, e.frames())
        .iter()
        .map(|f| String::from_utf8_lossy(&f.data).into_owned())
        .collect()
}

fn diags(s: &Store) -> Vec<String> {
    s.diagnostics()
        .map(|d| format!("{:?}: {}", d.code, d.message))
        .collect()
}

fn raw(r: &agentwire::state::RawJson) -> Value {
    serde_json::from_str(&r.0).unwrap_or(Value::Null)
}

/// (name, state, result) of every tool of a task.
fn tools(t: &Task) -> Vec<(String, ToolState, Value)> {
    t.tools
        .iter()
        .map(|x| {
            (
                x.name.clone(),
                x.state,
                x.result.as_ref().map_or(Value::Null, raw),
            )
        })
        .collect()
}

/// What the canonical run assembled: the facts every dialect is compared with.
struct Truth {
    root: String,
    answer: String,
    /// (task id, content) of the sub-agents.
    subtasks: Vec<(String, String)>,
    tools: Vec<(String, ToolState, Value)>,
    /// (id, name, mime, bytes) of the file artifacts.
    files: Vec<(String, String, String, Vec<u8>)>,
    /// (id, name, final data, versions).
    data: Vec<(String, String, Value, usize)>,
    /// (id, name, rows).
    datasets: Vec<(String, String, Value)>,
    input_id: String,
    input_prompt: String,
    auth_id: String,
    auth_url: String,
}

fn truth(s: &Store) -> Truth {
    let root = s.roots().next().expect("a root task");
    let subtasks = s
        .tasks()
        .filter(|t| t.id != root.id)
        .map(|t| (t.id.clone(), t.content.clone()))
        .collect();
    let mut files = Vec::new();
    let mut data = Vec::new();
    let mut datasets = Vec::new();
    for a in s.artifacts() {
        let name = a.name.clone().unwrap_or_default();
        match format!("{:?}", a.kind).as_str() {
            "File" => files.push((
                a.id.clone(),
                name,
                a.mime_type.clone().unwrap_or_default(),
                s.artifact_bytes(&a.id).expect("bytes").to_vec(),
            )),
            "Data" => data.push((
                a.id.clone(),
                name,
                a.data.as_ref().map_or(Value::Null, raw),
                a.versions.as_ref().map_or(0, Vec::len),
            )),
            _ => datasets.push((
                a.id.clone(),
                name,
                serde_json::from_str(&s.artifact_rows_json(&a.id).expect("rows")).expect("json"),
            )),
        }
    }
    let input = root.inputs.iter().find(|i| i.require_user).expect("input");
    let auth = root.auths.first().expect("auth");
    Truth {
        root: root.id.clone(),
        answer: root.content.clone(),
        subtasks,
        tools: tools(root),
        files,
        data,
        datasets,
        input_id: input.id.clone(),
        input_prompt: input.prompt.clone(),
        auth_id: auth.id.clone(),
        auth_url: auth.auth_url.clone().unwrap_or_default(),
    }
}

fn task<'a>(s: &'a Store, id: &str) -> &'a Task {
    s.task(id)
        .unwrap_or_else(|| panic!("task {id} missing: {}", s.state_json()))
}

fn answered(state: RequestState) -> bool {
    state != RequestState::Open
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn main_round_trips_through_every_dialect() {
    let (addr, app) = start().await;
    play_main(addr, "rt", "approve").await;
    let canonical = common::get(addr, "/api/runs/rt/stream").await;
    let c = decode(None, &canonical.body);
    assert!(diags(c.store()).is_empty(), "{:?}", diags(c.store()));
    let t = truth(c.store());
    assert!(t.answer.contains("A copy was sent to finance@example.com"));
    assert_eq!((t.files.len(), t.data.len(), t.datasets.len()), (2, 1, 1));
    assert_eq!(t.subtasks.len(), 3);
    assert_eq!(t.tools.len(), 2);
    let at = |id: &str| sd::task_id(id, "rt");

    // A2A: everything but tools and thoughts (carried in status metadata).
    let r = common::get(addr, "/api/runs/rt/stream?dialect=a2a").await;
    let s = decode(Some(ClientDialect::A2a), &r.body);
    let a = s.store();
    assert!(diags(a).is_empty(), "a2a: {:?}", diags(a));
    let root = task(a, &at(&t.root));
    assert_eq!(root.content, t.answer);
    // (`lastChunk` on the answer artifact does not mark the content complete in agentwire's
    // decoder: `content_complete` stays false; reported.)
    assert_eq!(format!("{:?}", root.status), "Some(Completed)");
    for (id, content) in &t.subtasks {
        assert_eq!(&task(a, &at(id)).content, content, "a2a subtask {id}");
    }
    for (id, name, mime, bytes) in &t.files {
        let art = a.artifact(id).expect("a2a file");
        assert_eq!(art.name.as_deref(), Some(name.as_str()));
        assert_eq!(art.mime_type.as_deref(), Some(mime.as_str()));
        assert_eq!(
            a.artifact_bytes(id).expect("bytes"),
            bytes.as_slice(),
            "{name}"
        );
    }
    for (id, name, data, versions) in &t.data {
        let art = a.artifact(id).expect("a2a data");
        assert_eq!(art.name.as_deref(), Some(name.as_str()));
        assert_eq!(art.data.as_ref().map(raw).as_ref(), Some(data));
        assert_eq!(art.versions.as_ref().map_or(0, Vec::len), *versions);
    }
    for (id, name, rows) in &t.datasets {
        let art = a.artifact(id).expect("a2a dataset");
        assert_eq!(art.name.as_deref(), Some(name.as_str()));
        assert_eq!(&art.data.as_ref().map(raw).expect("data")["rows"], rows);
    }
    let input = root.inputs.first().expect("a2a input");
    assert_eq!(input.prompt, t.input_prompt);
    assert_eq!(
        input.options.as_ref().map(raw),
        Some(json!(["approve", "deny"]))
    );
    assert!(answered(input.state));
    let auth = root.auths.first().expect("a2a auth");
    assert_eq!(auth.auth_url.as_deref(), Some(t.auth_url.as_str()));
    assert!(answered(auth.state));

    // ACP: answer, sub-agent texts, tools, the permission request and the auth (an input),
    // artifact names, data and rows (no file content: ACP carries none).
    let r = common::get(addr, "/api/runs/rt/stream?dialect=acp").await;
    let s = decode(Some(ClientDialect::Acp), &r.body);
    let a = s.store();
    assert!(diags(a).is_empty(), "acp: {:?}", diags(a));
    let root = task(a, &at(&t.root));
    assert_eq!(root.content, t.answer);
    assert_eq!(tools(root), t.tools);
    for (id, content) in &t.subtasks {
        assert_eq!(&task(a, &at(id)).content, content, "acp subtask {id}");
    }
    assert_eq!(root.inputs.len(), 2);
    let perm = &root.inputs[0];
    assert_eq!(perm.prompt, t.input_prompt);
    let ids: Vec<Value> = perm
        .options
        .as_ref()
        .map(raw)
        .and_then(|o| o.as_array().cloned())
        .unwrap_or_default()
        .iter()
        .map(|o| o["optionId"].clone())
        .collect();
    assert_eq!(ids, vec![json!("approve"), json!("deny")]);
    assert!(root.inputs.iter().all(|i| answered(i.state)));
    for (_, name, _, _) in &t.files {
        let art = a
            .artifact(&format!("{}#{name}", at(&t.root)))
            .expect("acp file");
        assert_eq!(art.name.as_deref(), Some(name.as_str()));
    }
    for (_, name, data, _) in &t.data {
        let art = a
            .artifact(&format!("{}#{name}", at(&t.root)))
            .expect("acp data");
        assert_eq!(&art.data.as_ref().map(raw).expect("data")["data"], data);
    }
    for (_, name, rows) in &t.datasets {
        let art = a
            .artifact(&format!("{}#{name}", at(&t.root)))
            .expect("acp dataset");
        // A dataset (rows) or a data artifact holding the notification (its `rows` member).
        let got = match a.artifact_rows_json(&art.id) {
            Some(r) if format!("{:?}", art.kind) == "Dataset" => {
                serde_json::from_str(&r).expect("rows")
            }
            _ => art.data.as_ref().map(raw).expect("data")["rows"].clone(),
        };
        assert_eq!(&got, rows);
    }

    // Unified: the session holds the root's tools and the passed-through requests; texts are
    // message tasks; the data artifact is the session's metrics.
    let r = common::get(addr, "/api/runs/rt/stream?dialect=unified").await;
    let s = decode(Some(ClientDialect::Unified), &r.body);
    let a = s.store();
    assert!(diags(a).is_empty(), "unified: {:?}", diags(a));
    let sess = task(a, "ctx-rt");
    assert_eq!(format!("{:?}", sess.status), "Some(Completed)");
    assert_eq!(tools(sess), t.tools);
    assert_eq!(task(a, &format!("msg:{}-answer", t.root)).content, t.answer);
    for (id, content) in &t.subtasks {
        assert_eq!(
            &task(a, &format!("msg:{id}-answer")).content,
            content,
            "unified {id}"
        );
    }
    let input = a.input(&t.input_id).expect("unified input");
    assert_eq!(input.prompt, t.input_prompt);
    assert!(answered(input.state));
    assert!(answered(a.auth(&t.auth_id).expect("unified auth").state));
    let metrics = a.artifact("ctx-rt#metrics").expect("metrics");
    assert_eq!(metrics.data.as_ref().map(raw), Some(t.data[0].2.clone()));
    assert_eq!(metrics.versions.as_ref().map_or(0, Vec::len), t.data[0].3);

    // MyAgent: one turn with the answer, the tools, the approval and the auth confirmation.
    let frames = myagent_frames(&app, "rt");
    let s = decode_frames(&frames);
    let a = s.store();
    assert!(diags(a).is_empty(), "myagent: {:?}", diags(a));
    let turn = task(a, "ctx-rt/turn-1");
    assert_eq!(turn.content, t.answer);
    assert_eq!(tools(turn), t.tools);
    let ids: Vec<(&str, bool)> = turn
        .inputs
        .iter()
        .map(|i| (i.id.as_str(), answered(i.state)))
        .collect();
    assert_eq!(
        ids,
        vec![(t.input_id.as_str(), true), (t.auth_id.as_str(), true)]
    );
    for (i, f) in frames.iter().enumerate() {
        let v: Value = serde_json::from_str(f).expect("json");
        assert_eq!(v["seq"], json!(i + 1), "seq numbers every frame");
        assert_eq!(v["session_id"], "ctx-rt");
    }
}

/// Every scenario in every dialect: decoded without a single error diagnostic.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_scenario_decodes_cleanly_in_every_dialect() {
    let (addr, app) = start().await;
    for sc in ["quick", "failure", "xss", "cancel", "bulk"] {
        let run = format!("all-{sc}");
        let path = format!("/api/stream?scenario={sc}&seed=3&speed=0&run={run}&events=300");
        let stream = common::open(addr, "GET", &path, &[], None).await;
        let reader = tokio::spawn(stream.finish(60));
        if sc == "cancel" {
            // At speed 0 the job holds until canceled.
            let mut root = None;
            for _ in 0..2000 {
                let info = common::get(addr, &format!("/api/runs/{run}")).await.json();
                if info["waiting"] == true {
                    root = Some(());
                    break;
                }
                tokio::time::sleep(Duration::from_millis(5)).await;
            }
            assert!(root.is_some(), "cancel scenario holds");
            let r = common::post(
                addr,
                &format!("/api/contexts/ctx-{run}/tasks/ctx-{run}/cancel"),
                "",
            )
            .await;
            assert_eq!(r.status, 200, "cancel by session id: {}", r.text());
        }
        assert!(reader.await.expect("stream").ended);
        for d in ["a2a", "acp", "unified"] {
            let r = common::get(addr, &format!("/api/runs/{run}/stream?dialect={d}")).await;
            assert!(r.ended);
            let s = decode(ClientDialect::parse(d), &r.body);
            let errors: Vec<String> = s
                .store()
                .diagnostics()
                .map(|x| format!("{:?}: {}", x.code, x.message))
                .collect();
            // Unified reports its run errors as `agent-error`; the xss run's `javascript:`
            // authUrl is refused as in protocol 000; nothing else is expected.
            let unexpected: Vec<&String> = errors
                .iter()
                .filter(|e| {
                    !(e.starts_with("AgentError") || sc == "xss" && e.starts_with("UnsafeUrl"))
                })
                .collect();
            assert!(unexpected.is_empty(), "{sc} in {d}: {unexpected:?}");
        }
        let s = decode_frames(&myagent_frames(&app, &run));
        let unexpected: Vec<String> = s
            .store()
            .diagnostics()
            .filter(|x| x.code != DiagCode::AgentError)
            .map(|x| format!("{:?}: {}", x.code, x.message))
            .filter(|e| !(sc == "xss" && e.starts_with("UnsafeUrl")))
            .collect();
        assert!(unexpected.is_empty(), "{sc} in myagent: {unexpected:?}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dialect_sse_ids_resume_and_errors() {
    let (addr, _app) = start().await;
    let r = common::get(
        addr,
        "/api/stream?scenario=quick&speed=0&run=ids&dialect=unified",
    )
    .await;
    let blocks = common::events(&r.body);
    assert!(blocks.iter().all(|b| b.event.is_none()), "no event: lines");
    // The first answer chunk is two frames: agent_message_start (N.0) and the delta (N).
    let i = blocks
        .iter()
        .position(|b| b.json()["type"] == "agent_message_start")
        .expect("start");
    let (a, b) = (&blocks[i], &blocks[i + 1]);
    let n = b.id.clone().expect("id");
    assert_eq!(a.id.as_deref(), Some(format!("{n}.0").as_str()));
    assert_eq!(b.json()["type"], "agent_message_delta");
    // Every id is unique.
    let mut ids: Vec<&str> = blocks.iter().filter_map(|b| b.id.as_deref()).collect();
    let total = ids.len();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), total);
    // Resume in the middle of the group: only the delta, then the rest.
    let r2 = common::request(
        addr,
        "GET",
        "/api/runs/ids/stream?dialect=unified",
        &[("Last-Event-ID", &format!("{n}.0"))],
        None,
    )
    .await;
    let rest = common::events(&r2.body);
    assert_eq!(rest[0].id.as_deref(), Some(n.as_str()));
    assert_eq!(rest.len(), blocks.len() - i - 1);
    // Resume after the group.
    let r3 = common::request(
        addr,
        "GET",
        "/api/runs/ids/stream?dialect=unified",
        &[("Last-Event-ID", &n)],
        None,
    )
    .await;
    assert_eq!(common::events(&r3.body).len(), blocks.len() - i - 2);
    // The same run in another dialect, and the body member of POST /api/runs.
    let r4 = common::post(addr, "/api/runs", r#"{"run":"ids","dialect":"acp"}"#).await;
    assert!(common::events(&r4.body)
        .iter()
        .all(|b| b.json()["event"].is_string()));
    for (q, code) in [
        ("dialect=klingon", 400),
        ("dialect=myagent", 400),
        ("dialect=canonical&scenario=quick", 200),
        ("dialect=a2a&scenario=bulk&events=2000000", 400),
    ] {
        let r = common::get(addr, &format!("/api/stream?speed=0&{q}")).await;
        assert_eq!(r.status, code, "{q}: {}", r.text());
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dialect_faults_drop_dup_and_malformed() {
    let (addr, _app) = start().await;
    // drop=10: the first connection is cut in the middle of a frame; a resume from the last
    // complete id, with dup=3, gives (after the client's de-duplication) the same state as an
    // undisturbed stream.
    let q = "scenario=quick&speed=0&seed=4&dialect=a2a&faults=drop=10,dup=3";
    let first = common::get(addr, &format!("/api/stream?{q}&run=df")).await;
    assert!(!first.ended, "cut, not ended");
    let last = common::events(&first.body)
        .last()
        .and_then(|b| b.id.clone())
        .expect("an id");
    let second = common::request(
        addr,
        "GET",
        "/api/runs/df/stream?dialect=a2a",
        &[("Last-Event-ID", &last)],
        None,
    )
    .await;
    assert!(second.ended);
    let mut s = session(Some(ClientDialect::A2a));
    s.feed(&first.body, &mut |_, _, _| {});
    s.finish();
    s.feed(&second.body, &mut |_, _, _| {});
    s.finish();
    let clean = common::get(addr, "/api/runs/df/stream?dialect=a2a&faults=").await;
    let c = decode(Some(ClientDialect::A2a), &clean.body);
    let root = c.store().roots().next().expect("root").id.clone();
    assert_eq!(
        task(s.store(), &root).content,
        task(c.store(), &root).content
    );
    let seen: Vec<String> = common::events(&first.body)
        .into_iter()
        .filter_map(|b| b.id)
        .collect();
    let resent = common::events(&second.body)
        .iter()
        .filter(|b| b.id.as_ref().is_some_and(|i| seen.contains(i)))
        .count();
    assert!(resent >= 1, "dup=3 re-sent frames already delivered");
    assert_eq!(s.store().duplicates_ignored(), resent as u64);

    // malformed: invalid JSON, bytes FF FE, an unknown kind and an event missing `status`.
    for d in ["a2a", "acp", "unified"] {
        let r = common::get(
            addr,
            &format!("/api/stream?scenario=quick&speed=0&dialect={d}&faults=malformed"),
        )
        .await;
        assert!(r.body.windows(8).any(|w| w == b"data: \xFF\xFE"));
        let s = decode(ClientDialect::parse(d), &r.body);
        let codes: Vec<String> = s
            .store()
            .diagnostics()
            .map(|x| format!("{:?}", x.code))
            .collect();
        assert!(codes.len() >= 3, "{d}: {codes:?}");
        assert!(codes.iter().any(|c| c == "InvalidJson"), "{d}: {codes:?}");
    }
}

/// Reads an SSE JSON-RPC stream's events (data as JSON).
fn rpc_events(body: &[u8]) -> Vec<Value> {
    common::blocks(body)
        .into_iter()
        .filter_map(|b| b.data.map(|d| serde_json::from_str(&d).expect("json")))
        .collect()
}

async fn rpc(addr: SocketAddr, path: &str, body: Value) -> common::Conn {
    common::post(addr, path, &body.to_string()).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a2a_json_rpc_interactive_run() {
    let (addr, _app) = start().await;
    let msg = |task: Option<&str>, part: Value| {
        let mut m = json!({"kind": "message", "role": "user", "messageId": "m", "parts": [part]});
        if let Some(t) = task {
            m["taskId"] = t.into();
        }
        json!({"jsonrpc": "2.0", "id": 1, "method": "message/stream", "params": {"message": m}})
    };
    let a = rpc(
        addr,
        "/api/a2a?scenario=main&speed=0&seed=1",
        msg(None, json!({"kind": "text", "text": "Q4 report"})),
    )
    .await;
    assert!(a.ended, "the stream ends at input-required");
    let evs = rpc_events(&a.body);
    let last = &evs.last().expect("events")["result"];
    assert_eq!(last["status"]["state"], "input-required");
    assert_eq!(last["final"], true);
    let task = last["taskId"].as_str().expect("task").to_owned();
    assert!(task.ends_with("@r1"), "{task}");
    assert!(evs.iter().all(|e| e["jsonrpc"] == "2.0" && e["id"] == 1));
    // Answer "deny" as text: the stream runs to the auth request.
    let b = rpc(
        addr,
        "/api/a2a",
        msg(Some(&task), json!({"kind": "text", "text": "deny"})),
    )
    .await;
    let last = rpc_events(&b.body).last().expect("b").clone();
    assert_eq!(last["result"]["status"]["state"], "auth-required");
    // Complete the auth with a data part: the stream runs to completion.
    let c = rpc(
        addr,
        "/api/a2a",
        msg(
            Some(&task),
            json!({"kind": "data", "data": {"userId": "octo"}}),
        ),
    )
    .await;
    let last = rpc_events(&c.body).last().expect("c").clone();
    assert_eq!(last["result"]["status"]["state"], "completed");
    // The three responses are one A2A stream for the client.
    let body = [a.body.clone(), b.body.clone(), c.body.clone()].concat();
    let s = decode(Some(ClientDialect::A2a), &body);
    assert!(diags(s.store()).is_empty(), "{:?}", diags(s.store()));
    let root = task_of(s.store(), &task);
    assert!(root.content.contains("As you asked, nothing was emailed."));
    assert!(root.inputs.iter().all(|i| answered(i.state)));
    // resubscribe from an id replays what follows.
    let mid = common::events(&c.body)[3].id.clone().expect("id");
    let r = common::request(
        addr,
        "POST",
        "/api/a2a",
        &[("Last-Event-ID", &mid)],
        Some(&json!({"jsonrpc": "2.0", "id": 2, "method": "tasks/resubscribe", "params": {"id": task}}).to_string()),
    )
    .await;
    assert_eq!(
        common::events(&r.body).len(),
        common::events(&c.body).len() - 4
    );
    // get, cancel of an ended task, errors.
    let g = rpc(
        addr,
        "/api/a2a",
        json!({"jsonrpc": "2.0", "id": 3, "method": "tasks/get", "params": {"id": task}}),
    )
    .await
    .json();
    assert_eq!(g["result"]["status"]["state"], "completed");
    for (body, code) in [
        (
            json!({"jsonrpc": "2.0", "id": 4, "method": "tasks/cancel", "params": {"id": task}}),
            -32002,
        ),
        (
            json!({"jsonrpc": "2.0", "id": 5, "method": "tasks/cancel", "params": {"id": "nope@r9"}}),
            -32001,
        ),
        (
            json!({"jsonrpc": "2.0", "id": 6, "method": "message/send", "params": {}}),
            -32601,
        ),
        (
            json!({"jsonrpc": "2.0", "id": 7, "method": "tasks/get", "params": {}}),
            -32602,
        ),
        (
            json!({"jsonrpc": "1.0", "id": 8, "method": "tasks/get"}),
            -32600,
        ),
        (json!([1, 2]), -32600),
        (
            msg(Some(&task), json!({"kind": "text", "text": "again"})),
            -32602,
        ),
    ] {
        let r = rpc(addr, "/api/a2a", body.clone()).await;
        assert_eq!(r.status, 200);
        assert_eq!(r.json()["error"]["code"], code, "{body}: {}", r.text());
    }
    let r = common::post(addr, "/api/a2a", "{oops").await.json();
    assert_eq!(r["error"]["code"], -32700);
}

fn task_of<'a>(s: &'a Store, id: &str) -> &'a Task {
    task(s, id)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a2a_cancel_and_rpc_error_fault() {
    let (addr, _app) = start().await;
    // cancel: the job holds at speed 0 until canceled; cancel answers a canceled Task and the
    // message/stream response ends with the canceled final status.
    let body = json!({"jsonrpc": "2.0", "id": "s", "method": "message/stream", "params": {"message": {"role": "user", "messageId": "m", "parts": [{"kind": "text", "text": "go"}]}}});
    let mut conn = common::open(
        addr,
        "POST",
        "/api/a2a?scenario=cancel&speed=0",
        &[("Content-Type", "application/json")],
        Some(&body.to_string()),
    )
    .await;
    assert!(
        conn.wait_for("\"kind\":\"task\"", Duration::from_secs(10))
            .await
    );
    let first = rpc_events(&conn.body);
    let task = first[0]["result"]["id"].as_str().expect("id").to_owned();
    let c = rpc(
        addr,
        "/api/a2a",
        json!({"jsonrpc": "2.0", "id": 9, "method": "tasks/cancel", "params": {"id": task}}),
    )
    .await
    .json();
    assert_eq!(c["result"]["status"]["state"], "canceled", "{c}");
    assert_eq!(c["result"]["id"], task.as_str());
    let conn = conn.finish(10).await;
    let last = rpc_events(&conn.body).last().expect("last").clone();
    assert_eq!(last["result"]["status"]["state"], "canceled");
    assert_eq!(last["result"]["final"], true);

    // rpcError: the failure ends with a JSON-RPC error instead of the failed status-update.
    let r = rpc(
        addr,
        "/api/a2a?scenario=failure&speed=0&faults=rpcError",
        json!({"jsonrpc": "2.0", "id": 5, "method": "message/stream", "params": {"message": {"role": "user", "messageId": "m", "parts": [{"kind": "text", "text": "go"}]}}}),
    )
    .await;
    let evs = rpc_events(&r.body);
    let last = evs.last().expect("last");
    assert_eq!(last["error"]["code"], -32603);
    assert!(evs
        .iter()
        .all(|e| e["result"]["status"]["state"] != "failed"));
    let s = decode(Some(ClientDialect::A2a), &r.body);
    let codes: Vec<DiagCode> = s.store().diagnostics().map(|d| d.code).collect();
    assert_eq!(codes, vec![DiagCode::RpcError]);
    let root = s.store().roots().next().expect("root");
    assert_eq!(format!("{:?}", root.status), "Some(Failed)");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn acp_rpc_answers_the_permission_request() {
    let (addr, _app) = start().await;
    let stream = common::open(
        addr,
        "GET",
        "/api/stream?scenario=main&speed=0&dialect=acp&run=acp",
        &[],
        None,
    )
    .await;
    let reader = tokio::spawn(stream.finish(60));
    let mut answered = 0;
    for _ in 0..4000 {
        let info = common::get(addr, "/api/runs/acp").await.json();
        if info["finished"] == true {
            break;
        }
        if let Some(key) = info["openRequests"][0].as_str() {
            let t = sd::task_id(key.split('/').nth(1).expect("task"), "acp");
            let params = if key.starts_with("input/") {
                // A wrong option first.
                let bad = rpc(addr, "/api/acp/rpc", json!({"jsonrpc": "2.0", "method": "tasks/provideInputAndContinue", "id": 1, "params": {"taskId": t, "permissionOptionId": "maybe"}})).await.json();
                assert_eq!(bad["error"]["code"], -32602);
                json!({"taskId": t, "permissionOptionId": "approve"})
            } else {
                json!({"taskId": t, "input": {"role": "user", "parts": [{"kind": "text", "text": "signed in"}], "messageId": "m"}})
            };
            let ok = rpc(addr, "/api/acp/rpc", json!({"jsonrpc": "2.0", "method": "tasks/provideInputAndContinue", "id": 2, "params": params})).await.json();
            assert_eq!(ok["result"]["accepted"], true, "{ok}");
            answered += 1;
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    assert_eq!(answered, 2);
    let body = reader.await.expect("reader").body;
    let s = decode(Some(ClientDialect::Acp), &body);
    assert!(diags(s.store()).is_empty(), "{:?}", diags(s.store()));
    let root = s.store().roots().next().expect("root");
    assert!(root.content.contains("A copy was sent"));
    assert_eq!(root.tools.len(), 2, "search_database and send_email");
    let r = rpc(
        addr,
        "/api/acp/rpc",
        json!({"jsonrpc": "2.0", "method": "tasks/cancel", "id": 3, "params": {"id": root.id}}),
    )
    .await
    .json();
    assert_eq!(r["error"]["code"], -32002);
}

/// A minimal WebSocket client (masked frames out, unmasked frames in).
struct Ws {
    s: TcpStream,
    buf: Vec<u8>,
}

enum In {
    Text(String),
    Binary,
    Close(u16),
    Eof,
}

impl Ws {
    async fn connect(addr: SocketAddr, path: &str) -> Ws {
        let mut s = TcpStream::connect(addr).await.expect("connect");
        let req = format!(
            "GET {path} HTTP/1.1\r\nHost: {addr}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
        );
        s.write_all(req.as_bytes()).await.expect("write");
        let mut buf = Vec::new();
        loop {
            let mut b = [0u8; 1024];
            let n = s.read(&mut b).await.expect("read");
            assert!(n > 0, "closed during the handshake");
            buf.extend_from_slice(&b[..n]);
            if let Some(p) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
                let head = String::from_utf8_lossy(&buf[..p]).into_owned();
                assert!(head.starts_with("HTTP/1.1 101"), "{head}");
                buf.drain(..p + 4);
                return Ws { s, buf };
            }
        }
    }

    async fn send(&mut self, v: &Value) {
        let p = v.to_string().into_bytes();
        let mut f = vec![0x81];
        if p.len() < 126 {
            f.push(0x80 | p.len() as u8);
        } else {
            f.push(0x80 | 126);
            f.extend_from_slice(&(p.len() as u16).to_be_bytes());
        }
        let mask = [1u8, 2, 3, 4];
        f.extend_from_slice(&mask);
        f.extend(p.iter().enumerate().map(|(i, b)| b ^ mask[i % 4]));
        self.s.write_all(&f).await.expect("send");
    }

    async fn fill(&mut self, n: usize) -> bool {
        while self.buf.len() < n {
            let mut b = [0u8; 8192];
            match tokio::time::timeout(Duration::from_secs(20), self.s.read(&mut b)).await {
                Ok(Ok(0)) | Ok(Err(_)) => return false,
                Ok(Ok(k)) => self.buf.extend_from_slice(&b[..k]),
                Err(_) => panic!("no frame within 20 s"),
            }
        }
        true
    }

    async fn next(&mut self) -> In {
        if !self.fill(2).await {
            return In::Eof;
        }
        let op = self.buf[0] & 0x0f;
        let mut len = (self.buf[1] & 0x7f) as usize;
        let mut at = 2;
        if len == 126 {
            if !self.fill(4).await {
                return In::Eof;
            }
            len = u16::from_be_bytes([self.buf[2], self.buf[3]]) as usize;
            at = 4;
        } else if len == 127 {
            if !self.fill(10).await {
                return In::Eof;
            }
            let mut b = [0u8; 8];
            b.copy_from_slice(&self.buf[2..10]);
            len = u64::from_be_bytes(b) as usize;
            at = 10;
        }
        if !self.fill(at + len).await {
            return In::Eof;
        }
        let payload: Vec<u8> = self.buf.drain(..at + len).skip(at).collect();
        match op {
            0x1 => In::Text(String::from_utf8(payload).expect("utf-8")),
            0x8 => In::Close(if payload.len() >= 2 {
                u16::from_be_bytes([payload[0], payload[1]])
            } else {
                0
            }),
            _ => In::Binary,
        }
    }
}

/// Reads MyAgent frames until `stop` says so or the socket closes; returns the JSON frames and
/// the close code (0: no close frame).
async fn read_until(ws: &mut Ws, mut stop: impl FnMut(&Value) -> bool) -> (Vec<Value>, u16) {
    let mut out = Vec::new();
    loop {
        match ws.next().await {
            In::Text(t) => {
                let v: Value = serde_json::from_str(&t).unwrap_or(json!({"raw": t}));
                let done = stop(&v);
                out.push(v);
                if done {
                    return (out, 0);
                }
            }
            In::Binary => out.push(json!({"binary": true})),
            In::Close(c) => return (out, c),
            In::Eof => return (out, 0),
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn myagent_websocket_session() {
    let (addr, _app) = start().await;
    let mut ws = Ws::connect(addr, "/api/myagent/ws?scenario=main&speed=0&heartbeat=50").await;
    let (hello, _) = read_until(&mut ws, |_| true).await;
    assert_eq!(hello[0]["event"], "system.connected");
    let sid = hello[0]["session_id"].as_str().expect("session").to_owned();
    // Nothing happens before user.message but heartbeats; bad frames get system.error.
    let (hb, _) = read_until(&mut ws, |v| v["event"] == "system.heartbeat").await;
    assert_eq!(hb.len(), 1, "only a heartbeat while idle");
    ws.send(&json!({"event": "user.create_session", "content": {"project_name": "p"}}))
        .await;
    let (created, _) = read_until(&mut ws, |v| v["event"] == "agent.session_created").await;
    assert_eq!(
        created.last().expect("x")["content"]["session_id"],
        sid.as_str()
    );
    for bad in [
        json!({"nope": 1}),
        json!({"event": "user.response", "session_id": sid, "content": {}}),
        json!({"event": "user.ack", "session_id": sid, "content": {"last_seq": "x"}}),
        json!({"event": "user.warp", "session_id": sid}),
        json!({"event": "user.message", "session_id": "other", "content": "x"}),
    ] {
        ws.send(&bad).await;
        let (e, _) = read_until(&mut ws, |v| v["event"] == "system.error").await;
        assert!(
            e.last().expect("e")["metadata"]["error_code"].is_string(),
            "{bad}"
        );
    }
    ws.send(&json!({"session_id": sid, "event": "user.message", "content": "Q4 report"}))
        .await;
    let mut frames: Vec<Value> = Vec::new();
    let mut confirms = 0;
    loop {
        let (got, close) = read_until(&mut ws, |v| v["event"] == "agent.user_confirm").await;
        frames.extend(got.iter().cloned());
        if close != 0 {
            assert_eq!(close, 1000);
            break;
        }
        let step = got.last().expect("confirm")["step_id"]
            .as_str()
            .expect("step")
            .to_owned();
        confirms += 1;
        ws.send(&json!({"session_id": sid, "step_id": step, "event": "user.response", "content": {"approved": true}})).await;
        // Answering twice is refused.
        ws.send(&json!({"session_id": sid, "step_id": step, "event": "user.response", "content": {"approved": true}})).await;
        ws.send(&json!({"session_id": sid, "event": "user.ack", "content": {"last_seq": got.iter().filter_map(|v| v["seq"].as_u64()).max().unwrap_or(0)}})).await;
    }
    assert_eq!(confirms, 2);
    let errors: Vec<&Value> = frames
        .iter()
        .filter(|v| v["event"] == "system.error")
        .collect();
    assert!(errors
        .iter()
        .any(|e| e["metadata"]["error_code"] == "ERR_ALREADY_ANSWERED"));
    let texts: Vec<String> = frames
        .iter()
        .filter(|v| v["event"] != "system.error" && v["event"] != "system.heartbeat")
        .map(Value::to_string)
        .collect();
    let s = decode_frames(&texts);
    assert!(diags(s.store()).is_empty(), "{:?}", diags(s.store()));
    let turn = task(s.store(), &format!("{sid}/turn-1"));
    assert!(turn.content.contains("A copy was sent"));
    let seqs: Vec<u64> = frames.iter().filter_map(|v| v["seq"].as_u64()).collect();
    assert_eq!(seqs, (1..=seqs.len() as u64).collect::<Vec<_>>());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn myagent_reconnect_drop_and_dup() {
    let (addr, _app) = start().await;
    let mut ws = Ws::connect(
        addr,
        "/api/myagent/ws?scenario=quick&speed=0&start=connect&faults=drop=12,dup=2",
    )
    .await;
    let (got, close) = read_until(&mut ws, |_| false).await;
    assert_eq!(close, 0, "cut without a close frame");
    let sid = got[0]["session_id"].as_str().expect("sid").to_owned();
    let seqs: Vec<u64> = got.iter().filter_map(|v| v["seq"].as_u64()).collect();
    assert_eq!(seqs, (1..=12).collect::<Vec<_>>());
    // A new connection resumes the session: dup=2 re-sends seq 11 and 12.
    let mut ws = Ws::connect(addr, "/api/myagent/ws?scenario=quick&speed=0").await;
    let _ = read_until(&mut ws, |v| v["event"] == "system.connected").await;
    ws.send(
        &json!({"event": "user.reconnect", "content": {"session_id": "ctx-nope", "last_seq": 1}}),
    )
    .await;
    let (e, _) = read_until(&mut ws, |v| v["event"] == "system.error").await;
    assert_eq!(
        e.last().expect("e")["metadata"]["error_code"],
        "ERR_SESSION_NOT_FOUND"
    );
    ws.send(&json!({"event": "user.reconnect", "content": {"session_id": sid, "last_seq": 12}}))
        .await;
    let (rest, close) = read_until(&mut ws, |_| false).await;
    assert_eq!(close, 1000);
    let seqs: Vec<u64> = rest.iter().filter_map(|v| v["seq"].as_u64()).collect();
    assert_eq!(seqs[..3], [11, 12, 13]);
    // The client applies every event once.
    let texts: Vec<String> = got
        .iter()
        .chain(rest.iter())
        .map(Value::to_string)
        .collect();
    let s = decode_frames(&texts);
    let unexpected: Vec<String> = s
        .store()
        .diagnostics()
        .filter(|d| d.code != DiagCode::AgentError)
        .map(|d| format!("{:?}: {}", d.code, d.message))
        .collect();
    assert!(unexpected.is_empty(), "{unexpected:?}");
    assert_eq!(
        format!("{:?}", s.store().roots().next().expect("turn").status),
        "Some(Completed)"
    );
}
