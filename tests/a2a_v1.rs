//! A2A v1.0 as the official servers speak it, read by agentwire exactly as the official client
//! reads it.
//!
//! `tests/recordings/a2a1/<server>-<binding>-<scenario>/` holds one recorded conversation with
//! an official 1.3.0 server (`js`: `@a2a-js/sdk`, `py`: the Python `a2a-sdk`; `jsonrpc` or
//! `rest` = HTTP+JSON), recorded by `tests/a2a1/record.sh`: each exchange `NN-*.req.json` (what
//! was sent), `NN-*.res.json` (status, headers) and `NN-*.body` (the response bytes exactly as
//! sent: CRLF, key order, `42.0`, `: ping`). `official.json` is what the official JS client
//! yields for the same bytes, folded into tasks the way the SDK folds them
//! (`tests/a2a1/official.mjs`).
//!
//! Each recording is its own test: the exchanges are fed in order into one session as the
//! browser client feeds them (an event stream's bytes through the SSE parser, at several
//! chunkings; a JSON reply as one event), and the state is compared with `official.json`:
//! every task's state and status message, every artifact part (text, data, file by bytes,
//! file by URL) in the canonical artifact the `a2a` module docs name for it, direct messages,
//! and every error with its `reason`. No other diagnostic may appear.

#![cfg(not(target_arch = "wasm32"))]

use agentwire::dialects::{Dialect, DialectChoice};
use agentwire::pipeline::Session;
use agentwire::sse::SseConfig;
use agentwire::state::{ArtifactKind, Limits, Store};
use serde_json::Value;
use std::path::{Path, PathBuf};

fn dir(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/recordings/a2a1")
        .join(name)
}

fn read_json(p: &Path) -> Value {
    let text = std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// One recorded exchange.
struct Exchange {
    res: Value,
    body: Vec<u8>,
}

fn exchanges(d: &Path) -> Vec<Exchange> {
    let mut names: Vec<String> = std::fs::read_dir(d)
        .expect("recording dir")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter_map(|n| n.strip_suffix(".req.json").map(str::to_owned))
        .collect();
    names.sort();
    names
        .into_iter()
        .map(|n| Exchange {
            res: read_json(&d.join(format!("{n}.res.json"))),
            body: std::fs::read(d.join(format!("{n}.body"))).unwrap_or_default(),
        })
        .collect()
}

/// What the browser client does with each exchange, without the network.
fn replay(name: &str, choice: DialectChoice, chunk: usize) -> Session {
    let mut s = Session::with_dialect(SseConfig::default(), Limits::default(), choice);
    s.set_now_ms(Some(1_700_000_000_000));
    for x in exchanges(&dir(name)) {
        // Decoded as a listener of the recorded bytes (as `agentwire state --dialect a2a`
        // does): the requests are not registered, the recorder sent JSON-RPC id 1 each time
        // (a fresh official client per exchange); the live tests cover the client's own ids.
        let ct = x.res["headers"]["content-type"].as_str().unwrap_or("");
        if ct.starts_with("text/event-stream") {
            s.begin_new_stream();
            for c in x.body.chunks(chunk.max(1)) {
                s.feed(c, &mut |_, _, _| {});
            }
        } else if ct.contains("json") && !x.body.is_empty() {
            let text = String::from_utf8(x.body.clone()).expect("json body is utf-8");
            s.push_json(text.trim(), &mut |_, _, _| {});
        }
    }
    s.finish();
    s
}

fn canonical_status(state: &str) -> &'static str {
    match state {
        "TASK_STATE_COMPLETED" => "Completed",
        "TASK_STATE_FAILED" | "TASK_STATE_REJECTED" => "Failed",
        "TASK_STATE_CANCELED" => "Canceled",
        "TASK_STATE_INPUT_REQUIRED" => "WaitingInput",
        "TASK_STATE_AUTH_REQUIRED" => "WaitingAuth",
        "TASK_STATE_WORKING" => "Working",
        "TASK_STATE_SUBMITTED" => "None",
        other => panic!("unexpected official state {other}"),
    }
}

fn part_kind(p: &Value) -> &'static str {
    if p.get("text").is_some() {
        "text"
    } else if p.get("raw").is_some() || p.get("url").is_some() {
        "file"
    } else {
        "data"
    }
}

/// Numbers as the official client holds them (JS numbers: `42.0` is `42`).
fn normalized(v: &Value) -> Value {
    match v {
        Value::Number(n) => serde_json::json!(n.as_f64()),
        Value::Array(a) => Value::Array(a.iter().map(normalized).collect()),
        Value::Object(o) => {
            Value::Object(o.iter().map(|(k, v)| (k.clone(), normalized(v))).collect())
        }
        other => other.clone(),
    }
}

fn b64(s: &str) -> Vec<u8> {
    let mut out = Vec::new();
    let mut acc = 0u32;
    let mut bits = 0;
    for c in s.bytes() {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' | b'-' => 62,
            b'/' | b'_' => 63,
            _ => continue,
        };
        acc = (acc << 6) | v as u32;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
    }
    out
}

/// The canonical id of slot `n` of `kind` of A2A artifact `id` whose first part is `primary`
/// (the `a2a` module's artifact table).
fn slot(id: &str, primary: &str, kind: &str, n: usize) -> String {
    match (n, kind == primary) {
        (0, true) => id.to_owned(),
        (0, false) => format!("{id}#{kind}"),
        _ => format!("{id}#{kind}-{}", n + 1),
    }
}

fn compare(name: &str, st: &Store, official: &Value, json_or_sse: &[bool]) {
    let ctx = |what: String| format!("{name}: {what}");
    let tasks = official["tasks"].as_object().cloned().unwrap_or_default();
    for (task_id, t) in &tasks {
        let mine = st
            .task(task_id)
            .unwrap_or_else(|| panic!("{}", ctx(format!("no task {task_id}"))));
        let want = canonical_status(t["state"].as_str().unwrap_or(""));
        let got = mine.status.map_or("None".to_owned(), |s| format!("{s:?}"));
        assert_eq!(got, want, "{}", ctx(format!("task {task_id} status")));
        if let Some(msg) = t["statusMessage"].as_str() {
            let shown = mine.status_message.as_deref().or(
                // `completed` with no streamed answer: the status message is the answer.
                Some(mine.content.as_str()).filter(|_| want == "Completed"),
            );
            assert_eq!(
                shown,
                Some(msg),
                "{}",
                ctx(format!("task {task_id} message"))
            );
        }
        let mut answer_taken = false;
        for art in t["artifacts"].as_array().into_iter().flatten() {
            let id = art["artifactId"].as_str().expect("artifactId");
            let parts = art["parts"].as_array().cloned().unwrap_or_default();
            let Some(primary) = parts.first().map(part_kind) else {
                continue;
            };
            let text: String = parts.iter().filter_map(|p| p["text"].as_str()).collect();
            if !text.is_empty() {
                let tid = slot(id, primary, "text", 0);
                if !answer_taken {
                    answer_taken = true;
                    assert_eq!(
                        mine.content,
                        text,
                        "{}",
                        ctx(format!("{task_id} answer ({id})"))
                    );
                } else {
                    let bytes = st
                        .artifact_bytes(&tid)
                        .unwrap_or_else(|| panic!("{}", ctx(format!("no text artifact {tid}"))));
                    assert_eq!(
                        String::from_utf8_lossy(bytes),
                        text,
                        "{}",
                        ctx(format!("text of {tid}"))
                    );
                }
            }
            let (mut files, mut datas) = (0, 0);
            for p in &parts {
                match part_kind(p) {
                    "file" => {
                        let fid = slot(id, primary, "file", files);
                        files += 1;
                        let a = st
                            .artifact(&fid)
                            .unwrap_or_else(|| panic!("{}", ctx(format!("no file {fid}"))));
                        assert_eq!(a.kind, ArtifactKind::File, "{}", ctx(fid.clone()));
                        assert_eq!(
                            a.name.as_deref(),
                            p["filename"].as_str(),
                            "{}",
                            ctx(format!("{fid} name"))
                        );
                        assert_eq!(
                            a.mime_type.as_deref(),
                            p["mediaType"].as_str(),
                            "{}",
                            ctx(format!("{fid} mime"))
                        );
                        assert_eq!(
                            a.url.as_deref(),
                            p["url"].as_str(),
                            "{}",
                            ctx(format!("{fid} url"))
                        );
                        let bytes = st.artifact_bytes(&fid).unwrap_or_default();
                        assert_eq!(
                            bytes,
                            b64(p["raw"].as_str().unwrap_or("")),
                            "{}",
                            ctx(format!("{fid} bytes"))
                        );
                        assert_eq!(a.complete, Some(true), "{}", ctx(format!("{fid} complete")));
                    }
                    "data" => {
                        let did = slot(id, primary, "data", datas);
                        datas += 1;
                        let a = st
                            .artifact(&did)
                            .unwrap_or_else(|| panic!("{}", ctx(format!("no data {did}"))));
                        let got: Value =
                            serde_json::from_str(&a.data.as_ref().expect("data").0).expect("json");
                        let want = match &p["data"] {
                            o @ Value::Object(_) => o.clone(),
                            other => serde_json::json!({ "value": other }),
                        };
                        assert_eq!(
                            normalized(&got),
                            normalized(&want),
                            "{}",
                            ctx(format!("{did} data"))
                        );
                    }
                    _ => {}
                }
            }
        }
    }
    for m in official["messages"].as_array().into_iter().flatten() {
        let id = m["messageId"].as_str().expect("messageId");
        let text: Vec<&str> = m["parts"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|p| p["text"].as_str())
            .collect();
        let task_id = m["taskId"].as_str().unwrap_or(id);
        let t = st
            .task(task_id)
            .unwrap_or_else(|| panic!("{}", ctx(format!("no task for message {id}"))));
        assert!(
            t.content.contains(&text.join("")),
            "{}",
            ctx(format!("message {id} text"))
        );
    }
    // Every error the official client reports is a diagnostic that keeps its reason; nothing
    // else is a diagnostic.
    let diags: Vec<String> = st
        .diagnostics()
        .map(|d| format!("{}: {}", d.code.as_str(), d.message))
        .collect();
    let errors = official["errors"].as_array().cloned().unwrap_or_default();
    for e in &errors {
        let exchange = e["exchange"].as_u64().unwrap_or(0) as usize;
        if !json_or_sse
            .get(exchange.wrapping_sub(1))
            .copied()
            .unwrap_or(true)
        {
            // Not JSON (an HTML 404 page): the browser client fails the connection with
            // `http-error`; nothing reaches the state.
            continue;
        }
        let reason = e["reason"].as_str();
        // Inside a stream the official client reports HTTP 200; the body's code is the error's.
        let code = e["code"]
            .as_i64()
            .filter(|_| e["httpStatus"].as_i64() != Some(200));
        let found = diags.iter().any(|d| {
            d.starts_with("rpc-error")
                && reason.is_none_or(|r| d.contains(r))
                && code.is_none_or(|c| d.contains(&c.to_string()))
        });
        assert!(
            found,
            "{}",
            ctx(format!("error {e} not reported; diagnostics: {diags:?}"))
        );
    }
    let unexpected: Vec<&String> = diags
        .iter()
        .filter(|d| !d.starts_with("rpc-error") || errors.is_empty())
        .collect();
    assert!(
        unexpected.is_empty(),
        "{}",
        ctx(format!("unexpected diagnostics {unexpected:?}"))
    );
}

fn check(name: &str) {
    let official = read_json(&dir(name).join("official.json"));
    let kinds: Vec<bool> = exchanges(&dir(name))
        .iter()
        .map(|x| {
            let ct = x.res["headers"]["content-type"].as_str().unwrap_or("");
            ct.contains("json") || ct.starts_with("text/event-stream")
        })
        .collect();
    let mut whole = None;
    for choice in [DialectChoice::Fixed(Dialect::A2a), DialectChoice::Auto] {
        for chunk in [usize::MAX, 1, 7, 64] {
            let s = replay(name, choice, chunk);
            let st = s.store();
            compare(
                &format!("{name} ({choice:?}, chunks of {chunk})"),
                st,
                &official,
                &kinds,
            );
            let json = st.state_json();
            match &whole {
                None => whole = Some(json),
                Some(w) => assert_eq!(&json, w, "{name}: the state depends on {choice:?}/{chunk}"),
            }
        }
    }
}

macro_rules! recordings {
    ($($test:ident = $dir:literal;)*) => {
        $(
            #[test]
            fn $test() {
                check($dir);
            }
        )*

        #[test]
        fn every_recording_directory_is_a_test() {
            let listed = [$($dir),*];
            let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/recordings/a2a1");
            for e in std::fs::read_dir(root).expect("recordings") {
                let e = e.expect("entry");
                let name = e.file_name().into_string().expect("utf-8 name");
                if e.path().join("official.json").exists() {
                    assert!(listed.contains(&name.as_str()), "{name} has no test in tests/a2a_v1.rs");
                }
            }
        }
    };
}

recordings! {
    js_jsonrpc_auth = "js-jsonrpc-auth";
    js_jsonrpc_cancel = "js-jsonrpc-cancel";
    js_jsonrpc_crash = "js-jsonrpc-crash";
    js_jsonrpc_crash_later = "js-jsonrpc-crash-later";
    js_jsonrpc_errors = "js-jsonrpc-errors";
    js_jsonrpc_fail = "js-jsonrpc-fail";
    js_jsonrpc_message = "js-jsonrpc-message";
    js_jsonrpc_report = "js-jsonrpc-report";
    js_jsonrpc_resubscribe = "js-jsonrpc-resubscribe";
    js_jsonrpc_resubscribe_completed = "js-jsonrpc-resubscribe-completed";
    js_jsonrpc_subscribe_idle = "js-jsonrpc-subscribe-idle";
    js_jsonrpc_tenant = "js-jsonrpc-tenant";
    js_rest_auth = "js-rest-auth";
    js_rest_cancel = "js-rest-cancel";
    js_rest_crash = "js-rest-crash";
    js_rest_crash_later = "js-rest-crash-later";
    js_rest_errors = "js-rest-errors";
    js_rest_fail = "js-rest-fail";
    js_rest_message = "js-rest-message";
    js_rest_report = "js-rest-report";
    js_rest_resubscribe = "js-rest-resubscribe";
    js_rest_resubscribe_completed = "js-rest-resubscribe-completed";
    js_rest_subscribe_idle = "js-rest-subscribe-idle";
    js_rest_tenant = "js-rest-tenant";
    py_jsonrpc_auth = "py-jsonrpc-auth";
    py_jsonrpc_cancel = "py-jsonrpc-cancel";
    py_jsonrpc_crash = "py-jsonrpc-crash";
    py_jsonrpc_crash_later = "py-jsonrpc-crash-later";
    py_jsonrpc_errors = "py-jsonrpc-errors";
    py_jsonrpc_fail = "py-jsonrpc-fail";
    py_jsonrpc_message = "py-jsonrpc-message";
    py_jsonrpc_report = "py-jsonrpc-report";
    py_jsonrpc_resubscribe = "py-jsonrpc-resubscribe";
    py_jsonrpc_resubscribe_completed = "py-jsonrpc-resubscribe-completed";
    py_jsonrpc_subscribe_idle = "py-jsonrpc-subscribe-idle";
    py_jsonrpc_tenant = "py-jsonrpc-tenant";
    py_rest_auth = "py-rest-auth";
    py_rest_cancel = "py-rest-cancel";
    py_rest_crash = "py-rest-crash";
    py_rest_crash_later = "py-rest-crash-later";
    py_rest_errors = "py-rest-errors";
    py_rest_fail = "py-rest-fail";
    py_rest_message = "py-rest-message";
    py_rest_report = "py-rest-report";
    py_rest_resubscribe = "py-rest-resubscribe";
    py_rest_resubscribe_completed = "py-rest-resubscribe-completed";
    py_rest_subscribe_idle = "py-rest-subscribe-idle";
    py_rest_tenant = "py-rest-tenant";
}

/// The client's own requests (registered, as the browser driver sends them) in both bindings:
/// the stream breaks off while the task runs, the task completes on the server meanwhile, the
/// `SubscribeToTask` is refused (`UNSUPPORTED_OPERATION`: the official servers subscribe to live
/// tasks only) and the `GetTask` that follows reads the task as the server ended it. The refusal
/// is not the task's failure.
#[test]
fn a_refused_subscribe_then_get_task_ends_the_task_as_the_server_did() {
    use agentwire::dialects::a2a::request_v1::Binding;
    use agentwire::dialects::a2a::Version;
    use agentwire::dialects::respond::{self, A2aCall};
    const TASK: &str = r#"{"id":"t1","contextId":"c1","status":{"state":"TASK_STATE_WORKING"}}"#;
    const DONE: &str = r#"{"id":"t1","contextId":"c1","status":{"state":"TASK_STATE_COMPLETED","message":{"messageId":"m","role":"ROLE_AGENT","parts":[{"text":"Done!"}]}}}"#;
    for binding in [Binding::JsonRpc, Binding::HttpJson] {
        let mut s = Session::with_dialect(
            SseConfig::default(),
            Limits::default(),
            DialectChoice::Fixed(Dialect::A2a),
        );
        let (dec, _) = s.dialect_parts().expect("dialect layer");
        let a = dec.a2a().expect("a2a");
        a.set_wire(Version::V10, binding);
        let rpc = binding == Binding::JsonRpc;
        let reply = |id: u64, result: &str| {
            if rpc {
                format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{result}}}"#)
            } else {
                result.to_owned()
            }
        };
        let (dec, _) = s.dialect_parts().expect("dialect layer");
        respond::send_message(dec, "go", None, None).expect("send");
        let first = reply(1, &format!(r#"{{"task":{TASK}}}"#));
        s.push_json(&first, &mut |_, _, _| {});
        // The stream broke off; the task completed while the client was away.
        let (dec, _) = s.dialect_parts().expect("dialect layer");
        let sub = respond::resume(dec).expect("subscribe");
        assert_eq!(sub.method, "SubscribeToTask");
        let refusal = if rpc {
            r#"{"jsonrpc":"2.0","id":2,"error":{"code":-32004,"message":"Task t1 is in terminal state: TASK_STATE_COMPLETED","data":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"UNSUPPORTED_OPERATION","domain":"a2a-protocol.org","metadata":{}}]}}"#
        } else {
            r#"{"error":{"code":400,"status":"FAILED_PRECONDITION","message":"Task t1 is in terminal state: TASK_STATE_COMPLETED","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"UNSUPPORTED_OPERATION","domain":"a2a-protocol.org","metadata":{}}]}}"#
        };
        s.push_json(refusal, &mut |_, _, _| {});
        let (dec, _) = s.dialect_parts().expect("dialect layer");
        let a = dec.a2a().expect("a2a");
        respond::a2a_request(a, A2aCall::Get("t1"));
        s.push_json(&reply(3, DONE), &mut |_, _, _| {});
        let t = s.store().task("t1").expect("task t1");
        assert_eq!(
            t.status.map(|x| x.as_str()),
            Some("completed"),
            "{binding:?}: {}",
            s.store().state_json()
        );
        // The refusal is how the server says the task ended: a warning that keeps its reason,
        // not an error a UI would show as a failure.
        let diags: Vec<(String, String)> = s
            .store()
            .diagnostics()
            .map(|d| (format!("{:?}", d.severity), d.message.clone()))
            .collect();
        assert_eq!(diags.len(), 1, "{binding:?}: {diags:?}");
        assert_eq!(diags[0].0, "Warning", "{binding:?}: {diags:?}");
        assert!(diags[0].1.contains("UNSUPPORTED_OPERATION"), "{diags:?}");
    }
}
