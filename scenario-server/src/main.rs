//! `agentwire-scenario [--port N] [--host 127.0.0.1] [--static DIR] [--speed F] [--verbose]`
//!
//! Prints exactly one line, `agentwire-scenario listening on http://HOST:PORT`, on stdout once
//! it accepts connections (scripts read the port from it); logs requests to stderr only with
//! `--verbose`; exits with status 0 on SIGINT/SIGTERM.

use agentwire_scenario::{Config, Server, USAGE};
use std::io::Write;
use std::process::ExitCode;

fn main() -> ExitCode {
    let config = match Config::from_args(std::env::args().skip(1)) {
        Ok(Some(c)) => c,
        Ok(None) => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("agentwire-scenario: {e}");
            return ExitCode::from(2);
        }
    };
    let rt = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("agentwire-scenario: cannot start the runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    let code = rt.block_on(async move {
        let (host, port) = (config.host.clone(), config.port);
        let server = match Server::bind(config).await {
            Ok(s) => s,
            Err(e) => {
                eprintln!("agentwire-scenario: cannot listen on {host}:{port}: {e}");
                return ExitCode::FAILURE;
            }
        };
        let addr = match server.local_addr() {
            Ok(a) => a,
            Err(e) => {
                eprintln!("agentwire-scenario: {e}");
                return ExitCode::FAILURE;
            }
        };
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "agentwire-scenario listening on http://{addr}");
        let _ = out.flush();
        drop(out);
        server.run(shutdown_signal()).await;
        ExitCode::SUCCESS
    });
    rt.shutdown_timeout(std::time::Duration::from_millis(200));
    code
}

/// Completes on SIGINT or SIGTERM.
async fn shutdown_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        if let Ok(mut term) = signal(SignalKind::terminate()) {
            tokio::select! {
                _ = tokio::signal::ctrl_c() => {}
                _ = term.recv() => {}
            }
            return;
        }
    }
    let _ = tokio::signal::ctrl_c().await;
}
