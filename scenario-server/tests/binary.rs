//! The binary: the one stdout line scripts read the port from, `--help`, bad arguments, and a
//! clean exit on SIGTERM / SIGINT.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn exe() -> Command {
    Command::new(env!("CARGO_BIN_EXE_agentwire-scenario"))
}

#[test]
fn prints_one_line_serves_and_exits_cleanly_on_signals() {
    for signal in ["-TERM", "-INT"] {
        let mut child = exe()
            .args(["--port", "0", "--speed", "0"])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start");
        let mut out = BufReader::new(child.stdout.take().expect("stdout"));
        let mut line = String::new();
        out.read_line(&mut line).expect("banner");
        let addr = line
            .trim_end()
            .strip_prefix("agentwire-scenario listening on http://127.0.0.1:")
            .map(|port| format!("127.0.0.1:{port}"))
            .unwrap_or_else(|| panic!("unexpected banner {line:?}"));
        let mut c = TcpStream::connect(&addr).expect("connect");
        c.write_all(b"GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            .expect("send");
        let mut resp = String::new();
        c.read_to_string(&mut resp).expect("read");
        assert!(resp.starts_with("HTTP/1.1 200"), "{resp}");
        assert!(resp.ends_with("{\"ok\":true}"));
        // An open stream must not keep the process alive.
        let mut s = TcpStream::connect(&addr).expect("connect");
        s.write_all(b"GET /api/stream?scenario=main&run=x HTTP/1.1\r\nHost: x\r\n\r\n")
            .expect("send");
        std::thread::sleep(Duration::from_millis(100));
        let status = Command::new("kill")
            .args([signal, &child.id().to_string()])
            .status()
            .expect("kill");
        assert!(status.success());
        let t = Instant::now();
        let code = loop {
            if let Some(code) = child.try_wait().expect("wait") {
                break code;
            }
            assert!(t.elapsed() < Duration::from_secs(5), "still running");
            std::thread::sleep(Duration::from_millis(20));
        };
        assert!(code.success(), "{signal}: {code:?}");
        let mut rest = String::new();
        out.read_to_string(&mut rest).expect("rest");
        assert_eq!(rest, "", "exactly one line on stdout");
        let mut err = String::new();
        child
            .stderr
            .take()
            .expect("stderr")
            .read_to_string(&mut err)
            .expect("stderr");
        assert_eq!(err, "", "quiet without --verbose");
    }
}

#[test]
fn help_and_bad_arguments() {
    let o = exe().arg("--help").output().expect("run");
    assert!(o.status.success());
    assert!(String::from_utf8_lossy(&o.stdout).contains("--port"));
    for bad in [
        &["--port", "x"][..],
        &["--bogus"],
        &["--speed", "-1"],
        &["--static", "/nonexistent-dir"],
    ] {
        let o = exe().args(bad).output().expect("run");
        assert_eq!(o.status.code(), Some(2), "{bad:?}");
        assert!(o.stdout.is_empty());
    }
}
