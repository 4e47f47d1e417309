//! The dialects (README, "Dialects"): a full `main` run encoded in every dialect and decoded by
//! agentwire's own dialect decoders must assemble the same essentials as the canonical run
//! (answer text, artifact bytes and data, tools, input requests) with no diagnostics but the
//! documented ones; plus the dialect SSE framing, resume and faults.

mod common;

use agentwire::dialects::{Dialect as ClientDialect, DialectChoice};
use agentwire::pipeline::Session;
use agentwire::sse::SseConfig;
use agentwire::state::{Limits, Store};
use agentwire_scenario::dialects::{self as sd, Dialect};
use agentwire_scenario::{App, Config, Server};
use serde_json::Value;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

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

/// Plays `main` (speed 0) as run `run`, answering the approval with `approval` and completing
/// the auth through the canonical endpoints; returns when the run has finished.
async fn play_main(addr: SocketAddr, run: &str, approval: &str) {
    let path = format!("/api/stream?scenario=main&seed=1&speed=0&run={run}");
    let stream = common::open(addr, "GET", &path, &[], None).await;
    let driver = tokio::spawn(stream.finish(60));
    let mut answered = Vec::new();
    for _ in 0..6000 {
        let info = common::get(addr, &format!("/api/runs/{run}")).await.json();
        if info["finished"] == true {
            break;
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
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let done = driver.await.expect("stream");
    assert!(done.ended, "the canonical stream ended");
    assert_eq!(
        answered.len(),
        2,
        "approval and auth answered: {answered:?}"
    );
}

fn decode(choice: Option<ClientDialect>, body: &[u8]) -> Session {
    let mut s = match choice {
        None => Session::new(SseConfig::default(), Limits::default()),
        Some(d) => Session::with_dialect(
            SseConfig::default(),
            Limits::default(),
            DialectChoice::Fixed(d),
        ),
    };
    for chunk in body.chunks(777) {
        s.feed(chunk, &mut |_, _, _| {});
    }
    s.finish();
    s
}

fn frames_store(frames: &[String]) -> Session {
    let mut s = Session::with_dialect(
        SseConfig::default(),
        Limits::default(),
        DialectChoice::Fixed(ClientDialect::MyAgent),
    );
    for f in frames {
        s.feed_frame(f, &mut |_, _, _| {});
    }
    s.finish();
    s
}

fn diags(s: &Store) -> Vec<String> {
    s.diagnostics()
        .map(|d| format!("{:?}: {}", d.code, d.message))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn explore() {
    let (addr, app) = start().await;
    play_main(addr, "rt1", "approve").await;
    let canonical = common::get(addr, "/api/runs/rt1/stream").await;
    let c = decode(None, &canonical.body);
    eprintln!("canonical diags {:?}", diags(c.store()));
    for d in ["a2a", "acp", "unified"] {
        let r = common::get(addr, &format!("/api/runs/rt1/stream?dialect={d}")).await;
        let s = decode(ClientDialect::parse(d), &r.body);
        eprintln!("== {d}: {} bytes", r.body.len());
        eprintln!("diags {:#?}", diags(s.store()));
        eprintln!("{}", s.store().state_json());
    }
    let run = app.runs.get("rt1").expect("run");
    let enc = sd::encoded(&run, Dialect::MyAgent).expect("enc");
    let frames: Vec<String> = {
        let e = enc.lock().expect("lock");
        e.frame_range(0, e.frames())
            .iter()
            .map(|f| String::from_utf8_lossy(&f.data).into_owned())
            .collect()
    };
    let s = frames_store(&frames);
    eprintln!("== myagent: {} frames", frames.len());
    eprintln!("diags {:#?}", diags(s.store()));
    eprintln!("{}", s.store().state_json());
    let _ = Value::Null;
}
