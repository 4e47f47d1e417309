//! The `agentwire` CLI as a process: command checked before input is read, output while the
//! input is still coming, chunking options, and the same output as before for whole files.
#![cfg(not(target_arch = "wasm32"))]

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_agentwire"))
}

#[test]
fn unknown_command_fails_at_once_without_reading_stdin() {
    let mut child = bin()
        .arg("evnets")
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let _stdin = child.stdin.take(); // kept open, like a terminal
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait_with_output());
    });
    let out = rx
        .recv_timeout(Duration::from_secs(5))
        .expect("agentwire evnets still waits for stdin after 5 s")
        .expect("wait");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown command"));
    // With a missing file: the unknown command is what is wrong, not the file.
    let out = bin()
        .args(["evnets", "/no/such/file"])
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(2));
    // A missing file names the file.
    let out = bin().args(["sse", "/no/such/file"]).output().expect("run");
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("/no/such/file"));
}

#[test]
fn events_are_printed_while_stdin_is_still_open() {
    for cmd in ["sse", "events"] {
        let mut child = bin()
            .arg(cmd)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("spawn");
        let mut stdin = child.stdin.take().expect("stdin");
        stdin
            .write_all(b"data: {\"kind\":\"x\"}\n\n")
            .expect("write");
        stdin.flush().expect("flush");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut first = String::new();
            let _ = BufReader::new(stdout).read_line(&mut first);
            let _ = tx.send(first);
        });
        let first = rx.recv_timeout(Duration::from_secs(5));
        drop(stdin);
        let _ = child.wait();
        let first = first.unwrap_or_else(|_| {
            panic!("{cmd}: nothing printed for a complete event while stdin is open")
        });
        assert!(first.starts_with('{'), "{cmd}: {first}");
    }
}

#[test]
fn chunking_options_give_the_same_output_as_one_chunk() {
    let file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/recordings/scenario-main.sse"
    );
    for cmd in ["sse", "events", "state"] {
        let whole = bin().args([cmd, file]).output().expect("run");
        assert_eq!(whole.status.code(), Some(0));
        for opts in [
            &["--chunk-size", "1"][..],
            &["--chunk-size", "7", "--split-at", "3,100,5,100000000"][..],
            &["--split-at", "0,1,2,65536,65537"][..],
        ] {
            let out = bin().arg(cmd).args(opts).arg(file).output().expect("run");
            assert_eq!(out.status.code(), Some(0), "{cmd} {opts:?}");
            assert!(out.stdout == whole.stdout, "{cmd} {opts:?}: output differs");
        }
    }
}

#[test]
fn sse_refuses_frames_and_dialect_instead_of_ignoring_them() {
    let file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/recordings/scenario-main.sse"
    );
    for opts in [&["--frames"][..], &["--dialect", "a2a"][..]] {
        let out = bin().arg("sse").args(opts).arg(file).output().expect("run");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "sse {opts:?}: {err}");
        assert!(
            err.contains(opts[0]),
            "sse {opts:?} does not say what it refused: {err}"
        );
        assert!(out.stdout.is_empty(), "sse {opts:?} printed output");
    }
}

#[test]
fn frames_over_the_browsers_max_event_bytes_are_dropped_as_the_browser_does() {
    // The browser drops a WebSocket frame over maxEventBytes (16 MiB by default) with an
    // frame-too-large diagnostic (issue 25: not sse-event-too-large, it is no SSE event); the
    // CLI applied it.
    let dir = std::env::temp_dir().join(format!("agentwire-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("big.jsonl");
    let ev = |id: &str, pad: usize| {
        format!(
            r#"{{"kind":"task-created","contextId":"c","taskId":"{id}","initiator":"user","timestamp":"2025-11-06T10:30:00Z","metadata":{{"pad":"{}"}}}}"#,
            "x".repeat(pad)
        )
    };
    let big = ev("t2", 16 * 1024 * 1024);
    let text = format!("{}\n{big}\r\n{}\n", ev("t1", 1), ev("t3", 1));
    std::fs::write(&path, text).expect("write");
    let state = bin().arg("state").arg(&path).output().expect("run");
    assert_eq!(state.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&state.stdout).expect("json");
    let ids: Vec<_> = v["tasks"]
        .as_array()
        .expect("tasks")
        .iter()
        .map(|t| t["id"].as_str().unwrap_or_default().to_owned())
        .collect();
    assert_eq!(ids, ["t1", "t3"], "the 16 MiB+ frame was applied");
    let d = &v["diagnostics"][0];
    assert_eq!(d["code"], "frame-too-large", "{d}");
    assert_eq!(d["position"], 1);
    let msg = d["message"].as_str().unwrap_or_default();
    assert!(msg.contains(&big.len().to_string()), "{msg}");
    let events = bin().arg("events").arg(&path).output().expect("run");
    assert_eq!(events.status.code(), Some(0));
    let lines: Vec<serde_json::Value> = String::from_utf8_lossy(&events.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("json line"))
        .collect();
    assert_eq!(lines.len(), 3, "t1, the diagnostic, t3");
    assert_eq!(lines[1]["diagnostic"]["code"], "frame-too-large");
    assert_eq!(lines[1]["diagnostic"]["position"], 1);
    assert_eq!(lines[2]["event"]["taskId"], "t3");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn help_prints_the_synopsis_to_stdout_and_succeeds() {
    // docs/cli.md quotes this output (scripts/docs-check.mjs compares them).
    for flag in ["--help", "-h"] {
        let out = bin().arg(flag).output().expect("run");
        assert_eq!(out.status.code(), Some(0), "{flag}");
        let text = String::from_utf8(out.stdout).expect("utf-8");
        assert!(text.starts_with("agentwire sse "), "{flag}: {text}");
        for flag in [
            "--dialect NAME",
            "--frames",
            "--last-event-id ID",
            "--split-at",
            "--chunk-size",
        ] {
            assert!(text.contains(flag), "--help lacks {flag}: {text}");
        }
    }
    // Also after a command, without reading stdin.
    let out = bin().args(["state", "--help"]).output().expect("run");
    assert_eq!(out.status.code(), Some(0));
}
