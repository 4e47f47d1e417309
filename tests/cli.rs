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
