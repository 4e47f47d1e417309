//! The `approval` scenario (the framework adapters' example apps play it): text before the
//! approval, a hold until the user answers, a different ending for approve and deny, and the
//! run info the apps' tests read to check, server side, that a client opened exactly one
//! stream and closed it (`connections`, `liveConnections` of `GET /api/runs/{run}`).

mod common;

use common::*;
use serde_json::Value;
use std::time::Duration;

const S: Duration = Duration::from_secs(10);

fn texts(evs: &[Value], kind: &str) -> Vec<String> {
    evs.iter()
        .filter(|e| e["kind"] == kind)
        .map(|e| {
            e.get("delta")
                .or_else(|| e.get("content"))
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned()
        })
        .collect()
}

async fn info(addr: std::net::SocketAddr, run: &str) -> Value {
    get(addr, &format!("/api/runs/{run}")).await.json()
}

/// Plays the scenario with the answer `value`; returns the events.
async fn play(addr: std::net::SocketAddr, run: &str, value: &str) -> Vec<Value> {
    let path = format!("/api/stream?scenario=approval&speed=0&run={run}");
    let mut c = open(addr, "GET", &path, &[], None).await;
    assert!(c.wait_for("\"waiting-input\"", S).await);
    let evs: Vec<Value> = events(&c.body).iter().map(Block::json).collect();
    // The answer streamed in before the question, as deltas that add up to the text.
    let intro = "I checked build 42: all 318 tests pass and the bundle is 4% smaller. \
                 Deploying it to staging needs your approval.";
    assert!(texts(&evs, "content-delta").len() > 5);
    assert_eq!(texts(&evs, "content-delta").concat(), intro);
    assert!(texts(&evs, "content-complete").is_empty());
    let ir = find(&evs, "input-required", |v| v["requireUser"] == true).expect("input");
    assert_eq!(ir["prompt"], "Deploy build 42 to staging?");
    assert_eq!(ir["options"], serde_json::json!(["approve", "deny"]));
    // It holds there, with one stream open.
    assert!(!c.more(Duration::from_millis(200)).await || !c.text().contains("input-received"));
    let i = info(addr, run).await;
    assert_eq!(
        (
            i["waiting"].clone(),
            i["connections"].clone(),
            i["liveConnections"].clone()
        ),
        (Value::Bool(true), 1.into(), 1.into())
    );
    let url = format!(
        "/api/contexts/ctx-{run}/tasks/{}/inputs/{}",
        ir["taskId"].as_str().expect("task"),
        ir["inputId"].as_str().expect("input")
    );
    let body = format!(r#"{{"value":"{value}"}}"#);
    assert_eq!(post(addr, &url, &body).await.status, 200);
    let c = c.finish(10).await;
    assert!(c.ended);
    check_run(&c.body)
}

#[tokio::test]
async fn approve_and_deny_end_differently_and_both_complete() {
    let addr = server().await;
    for (run, value, outro) in [
        (
            "appr-yes",
            "approve",
            " Deployed: build 42 is live on staging.",
        ),
        ("appr-no", "deny", " Not deployed: staging keeps build 41."),
    ] {
        let evs = play(addr, run, value).await;
        let intro = "I checked build 42: all 318 tests pass and the bundle is 4% smaller. \
                     Deploying it to staging needs your approval.";
        let complete = texts(&evs, "content-complete");
        assert_eq!(complete, [format!("{intro}{outro}")], "{run}");
        let last = evs.last().expect("events");
        assert_eq!(last["kind"], "task-complete");
        assert!(find(&evs, "task-status", |v| v["status"] == "completed").is_some());
        // The stream ended: nothing is left open, server side.
        let i = info(addr, run).await;
        assert_eq!(i["finished"], true);
        for _ in 0..100 {
            if info(addr, run).await["liveConnections"] == 0 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        assert_eq!(info(addr, run).await["liveConnections"], 0, "{run}");
        assert_eq!(info(addr, run).await["connections"], 1, "{run}");
    }
}

#[tokio::test]
async fn a_client_that_leaves_at_the_approval_is_seen_gone() {
    let addr = server().await;
    let run = "appr-leave";
    let path = format!("/api/stream?scenario=approval&speed=0&run={run}&heartbeat=100");
    let mut c = open(addr, "GET", &path, &[], None).await;
    assert!(c.wait_for("\"waiting-input\"", S).await);
    assert_eq!(info(addr, run).await["liveConnections"], 1);
    drop(c);
    let mut live = Value::Null;
    for _ in 0..100 {
        live = info(addr, run).await["liveConnections"].clone();
        if live == 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(live, 0, "the writer noticed the client left");
    let i = info(addr, run).await;
    assert_eq!(
        (i["connections"].clone(), i["waiting"].clone()),
        (1.into(), Value::Bool(true))
    );
}
