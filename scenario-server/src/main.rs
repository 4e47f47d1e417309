//! `agentwire-scenario`: a real HTTP/1.1 server on 127.0.0.1 that plays scripted agent runs in
//! protocol 000 over SSE, for agentwire's demo and browser tests.
//!
//! ```text
//! agentwire-scenario [--port N (0 = any free port)] [--host 127.0.0.1]
//! ```
//! Prints `agentwire-scenario listening on http://HOST:PORT` on stdout once ready.
//!
//! Modules: [`http`] (requests, responses, CORS), [`scenarios`] (the scripted runs),
//! [`runs`] (per-run event logs, resume by `Last-Event-ID`, fault injection).

mod http;
mod runs;
mod scenarios;

use std::io::Write;
use std::net::TcpListener;
use std::sync::Arc;

fn main() {
    let mut port = 0u16;
    let mut host = "127.0.0.1".to_owned();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--port" => port = args.next().and_then(|p| p.parse().ok()).unwrap_or(0),
            "--host" => host = args.next().unwrap_or(host),
            "-h" | "--help" => {
                println!("usage: agentwire-scenario [--port N] [--host 127.0.0.1]");
                return;
            }
            other => {
                eprintln!("unknown argument {other:?}");
                std::process::exit(2);
            }
        }
    }
    let listener = match TcpListener::bind((host.as_str(), port)) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("agentwire-scenario: cannot listen on {host}:{port}: {e}");
            std::process::exit(1);
        }
    };
    let addr = listener
        .local_addr()
        .map(|a| a.to_string())
        .unwrap_or_default();
    println!("agentwire-scenario listening on http://{addr}");
    let _ = std::io::stdout().flush();
    let state = Arc::new(runs::Runs::default());
    for stream in listener.incoming().flatten() {
        let state = state.clone();
        std::thread::spawn(move || http::serve(stream, &state));
    }
}
