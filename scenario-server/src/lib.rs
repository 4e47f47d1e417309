//! `agentwire-scenario`: a real HTTP/1.1 server that plays scripted agent runs in protocol 000
//! over SSE, for agentwire's demo and tests. Interactive (the client answers the agent's input
//! and auth requests, or cancels), resumable (`Last-Event-ID`), deterministic for a seed, and
//! able to misbehave on purpose (fault injection).
//!
//! Crate map:
//! - [`http`]: routing, CORS, JSON answers, request parsing, the stream endpoints.
//! - [`sse`]: one SSE connection: reads a run's log from a cursor, writes frames, applies faults.
//! - [`dialects`]: the encoders of A2A, A2A-ACP, Unified and MyAgent, and each run's cached
//!   encoding; [`rpc`]: the JSON-RPC endpoints `/api/a2a` and `/api/acp/rpc`; [`myagent_ws`]:
//!   the MyAgent WebSocket session.
//! - [`ag_ui`]: `POST /api/ag-ui`, every scenario as AG-UI 1.0 runs (one per POST, a thread
//!   per scenario run, interrupts and resume).
//! - [`ai_sdk`]: `POST /api/ai-sdk/chat`, every scenario as a Vercel AI SDK UI message stream
//!   (a chat per scenario run, approvals and client-side tools, resume `GET …/{chatId}/stream`).
//! - [`faults`]: the `faults=` mini-language.
//! - [`run`]: per-run state: the event log, pending input/auth requests, cancel; the run table.
//! - [`scenarios`]: the scripts (`main`, `quick`, `failure`, `cancel`, `bulk`, `xss`) and
//!   their toolkit (simulated clock, seeded PRNG, deterministic interleaving of sub-agents).
//! - [`static_files`]: `--static DIR` with MIME types and the Content-Security-Policy.
//! - [`util`]: PRNG, timestamps, percent-decoding.
//!
//! Embedding (what the tests do):
//! ```no_run
//! # async fn demo() -> std::io::Result<()> {
//! let server = agentwire_scenario::Server::bind(agentwire_scenario::Config::default()).await?;
//! let addr = server.local_addr()?;
//! tokio::spawn(server.run(std::future::pending()));
//! println!("http://{addr}/api/health");
//! # Ok(()) }
//! ```

#![deny(missing_docs)]

pub mod a2a_v1;
pub mod ag_ui;
pub mod ai_sdk;
pub mod args;
pub mod catalog;
pub mod dialects;
pub mod faults;
pub mod http;
pub mod myagent_ws;
pub mod reply;
pub mod rpc;
pub mod run;
pub mod scenarios;
pub mod sse;
pub mod static_files;
pub mod stream;
pub mod util;
pub mod ws;

use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::{TokioIo, TokioTimer};
use std::future::Future;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use tokio::net::TcpListener;

/// Server settings (from the command line).
#[derive(Debug, Clone)]
pub struct Config {
    /// Interface to listen on (default 127.0.0.1).
    pub host: String,
    /// Port (0: any free port).
    pub port: u16,
    /// `--static DIR`: files served at `/`.
    pub static_dir: Option<PathBuf>,
    /// Speed of runs that do not give `speed=` (default 1: realistic pacing).
    pub default_speed: f64,
    /// Log each request to stderr.
    pub verbose: bool,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            host: "127.0.0.1".into(),
            port: 0,
            static_dir: None,
            default_speed: 1.0,
            verbose: false,
        }
    }
}

/// Command-line usage.
pub const USAGE: &str = "usage: agentwire-scenario [--port N (0 = any free port)] [--host 127.0.0.1] [--static DIR] [--speed F] [--verbose]";

impl Config {
    /// Parses the arguments (without the program name). `Ok(None)`: `--help` was asked for.
    pub fn from_args<I: IntoIterator<Item = String>>(args: I) -> Result<Option<Config>, String> {
        let mut c = Config::default();
        let mut it = args.into_iter();
        while let Some(a) = it.next() {
            let (name, inline) = match a.split_once('=') {
                Some((n, v)) if n.starts_with("--") => (n.to_owned(), Some(v.to_owned())),
                _ => (a.clone(), None),
            };
            let mut value = |what: &str| {
                inline
                    .clone()
                    .or_else(|| it.next())
                    .ok_or_else(|| format!("{name} needs {what}\n{USAGE}"))
            };
            match name.as_str() {
                "--port" | "-p" => {
                    let v = value("a port number")?;
                    c.port = v.parse().map_err(|_| format!("bad port {v:?}"))?;
                }
                "--host" => c.host = value("an address")?,
                "--static" => c.static_dir = Some(PathBuf::from(value("a directory")?)),
                "--speed" => {
                    let v = value("a number")?;
                    c.default_speed = match v.parse::<f64>() {
                        Ok(s) if s.is_finite() && s >= 0.0 => s,
                        _ => return Err(format!("bad speed {v:?}")),
                    };
                }
                "--verbose" | "-v" => c.verbose = true,
                "--help" | "-h" => return Ok(None),
                other => return Err(format!("unknown argument {other:?}\n{USAGE}")),
            }
        }
        if let Some(d) = &c.static_dir {
            if !d.is_dir() {
                return Err(format!("--static {}: not a directory", d.display()));
            }
        }
        Ok(Some(c))
    }
}

/// Shared state of the server.
pub struct App {
    /// Settings.
    pub config: Config,
    /// Every run in memory.
    pub runs: run::Runs,
    /// When the server started (MyAgent's `server_uptime_seconds`).
    pub started: std::time::Instant,
    /// WebSocket connections of dialect sessions so far (MyAgent's `connection_id`).
    pub ws_connections: std::sync::atomic::AtomicU64,
    /// The AG-UI threads of `POST /api/ag-ui`.
    pub ag_ui: ag_ui::Threads,
    /// The chats of `POST /api/ai-sdk/chat`.
    pub ai_sdk: ai_sdk::Chats,
}

/// A bound, not yet running server.
pub struct Server {
    listener: TcpListener,
    app: Arc<App>,
}

impl Server {
    /// Binds `config.host:config.port`.
    pub async fn bind(config: Config) -> std::io::Result<Server> {
        let listener = TcpListener::bind((config.host.as_str(), config.port)).await?;
        Ok(Server {
            listener,
            app: Arc::new(App {
                config,
                runs: run::Runs::new(scenarios::start),
                started: std::time::Instant::now(),
                ws_connections: std::sync::atomic::AtomicU64::new(0),
                ag_ui: ag_ui::Threads::default(),
                ai_sdk: ai_sdk::Chats::default(),
            }),
        })
    }

    /// The address actually bound (the port when 0 was asked for).
    pub fn local_addr(&self) -> std::io::Result<SocketAddr> {
        self.listener.local_addr()
    }

    /// The shared state (runs), e.g. for tests.
    pub fn app(&self) -> Arc<App> {
        self.app.clone()
    }

    /// Accepts connections until `shutdown` completes.
    pub async fn run<F: Future<Output = ()>>(self, shutdown: F) {
        tokio::pin!(shutdown);
        loop {
            tokio::select! {
                _ = &mut shutdown => break,
                accepted = self.listener.accept() => match accepted {
                    Ok((stream, peer)) => {
                        let _ = stream.set_nodelay(true);
                        let app = self.app.clone();
                        tokio::spawn(async move {
                            let verbose = app.config.verbose;
                            let svc = service_fn(move |req| http::handle(req, app.clone()));
                            let conn = http1::Builder::new()
                                .timer(TokioTimer::new())
                                .header_read_timeout(std::time::Duration::from_secs(30))
                                .keep_alive(true)
                                .serve_connection(TokioIo::new(stream), svc)
                                .with_upgrades();
                            if let Err(e) = conn.await {
                                if verbose {
                                    eprintln!("connection from {peer}: {e}");
                                }
                            }
                        });
                    }
                    Err(e) => {
                        if self.app.config.verbose {
                            eprintln!("accept: {e}");
                        }
                        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
                    }
                },
            }
        }
    }
}

/// Binds `config` and serves forever in a background task; returns the bound address.
pub async fn spawn(config: Config) -> std::io::Result<SocketAddr> {
    let server = Server::bind(config).await?;
    let addr = server.local_addr()?;
    tokio::spawn(server.run(std::future::pending()));
    Ok(addr)
}
