//! The scenario server over real TCP: the binary is started on a free port, and requests are
//! plain HTTP/1.1 over `TcpStream` (no client library).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};

struct Server {
    child: Child,
    addr: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
    }
}

fn start() -> Server {
    let mut child = Command::new(env!("CARGO_BIN_EXE_agentwire-scenario"))
        .args(["--port", "0"])
        .stdout(Stdio::piped())
        .spawn()
        .expect("start server");
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("stdout"))
        .read_line(&mut line)
        .expect("banner");
    let addr = line
        .trim()
        .rsplit("http://")
        .next()
        .expect("address")
        .to_owned();
    Server { child, addr }
}

/// Sends a request and returns (status line + headers, body).
fn request(s: &Server, method: &str, path: &str, headers: &str, body: &str) -> (String, String) {
    let mut c = TcpStream::connect(&s.addr).expect("connect");
    write!(
        c,
        "{method} {path} HTTP/1.1\r\nHost: x\r\n{headers}Content-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .expect("send");
    let mut out = Vec::new();
    c.read_to_end(&mut out).expect("read");
    let text = String::from_utf8_lossy(&out).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    (head.to_owned(), body.to_owned())
}

fn events(body: &str) -> Vec<(usize, String)> {
    body.split("\n\n")
        .filter_map(|block| {
            let id = block
                .lines()
                .find_map(|l| l.strip_prefix("id: "))?
                .parse()
                .ok()?;
            let data = block
                .lines()
                .find_map(|l| l.strip_prefix("data: "))?
                .to_owned();
            Some((id, data))
        })
        .collect()
}

#[test]
fn quick_streams_every_kind_with_contiguous_ids_deterministically() {
    let s = start();
    let (head, body) = request(&s, "GET", "/api/stream?scenario=quick&seed=3&run=a", "", "");
    assert!(head.contains("Content-Type: text/event-stream"), "{head}");
    assert!(head.contains("Access-Control-Allow-Origin"));
    let evs = events(&body);
    assert!(
        evs.iter().enumerate().all(|(i, (id, _))| *id == i),
        "ids are 0..n"
    );
    for kind in [
        "task-created",
        "task-status",
        "task-complete",
        "content-delta",
        "content-complete",
        "tool-start",
        "tool-progress",
        "tool-complete",
        "input-required",
        "input-received",
        "auth-required",
        "auth-completed",
        "file-write",
        "data-write",
        "dataset-write",
        "subtask-created",
        "thought-stream",
        "internal:thought-process",
        "internal:llm-call",
        "internal:checkpoint",
        "internal:tool-start",
        "internal:tool-complete",
    ] {
        assert!(
            evs.iter()
                .any(|(_, d)| d.contains(&format!("\"kind\":\"{kind}\""))),
            "{kind} missing"
        );
    }
    let (_, again) = request(&s, "GET", "/api/stream?scenario=quick&seed=3&run=b", "", "");
    assert_eq!(
        again.replace("ctx-b", "ctx-a"),
        body,
        "same seed, same bytes"
    );
}

#[test]
fn resume_replays_exactly_what_was_missed_and_faults_apply() {
    let s = start();
    let (_, full) = request(&s, "GET", "/api/stream?scenario=quick&run=r", "", "");
    let all = events(&full);
    let (_, rest) = request(
        &s,
        "GET",
        "/api/stream?scenario=quick&run=r",
        "Last-Event-ID: 9\r\n",
        "",
    );
    assert_eq!(events(&rest), all[10..].to_vec());
    let (_, dup) = request(
        &s,
        "GET",
        "/api/stream?scenario=quick&run=r&faults=dup=3",
        "Last-Event-ID: 9\r\n",
        "",
    );
    assert_eq!(
        events(&dup).first().map(|e| e.0),
        Some(7),
        "three already-seen events first"
    );
    let (_, cut) = request(
        &s,
        "GET",
        "/api/stream?scenario=quick&run=cut&faults=drop=5",
        "",
        "",
    );
    let got: Vec<(usize, String)> = events(&cut)
        .into_iter()
        .map(|(i, d)| (i, d.replace("ctx-cut", "ctx-r")))
        .collect();
    assert_eq!(got[..5], all[..5], "events before the cut arrive whole");
    assert!(
        !cut.ends_with("\n\n") && got.get(5).is_none_or(|e| e.1 != all[5].1),
        "event 5 is cut mid-line"
    );
    let (head, _) = request(
        &s,
        "GET",
        "/api/stream?scenario=quick&run=s&faults=status=429:1",
        "",
        "",
    );
    assert!(
        head.starts_with("HTTP/1.1 429") && head.contains("Retry-After: 1"),
        "{head}"
    );
    let (head, _) = request(
        &s,
        "GET",
        "/api/stream?scenario=quick&run=s&faults=status=429:1",
        "",
        "",
    );
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    let (head, _) = request(
        &s,
        "OPTIONS",
        "/api/stream",
        "Origin: http://localhost:5173\r\n",
        "",
    );
    assert!(
        head.contains("Access-Control-Allow-Origin: http://localhost:5173")
            && head.contains("Last-Event-ID"),
        "{head}"
    );
}

#[test]
fn main_waits_for_the_approval_and_follows_the_answer() {
    for (answer, expect_email) in [("approve", true), ("deny", false)] {
        let s = start();
        let run = format!("m-{answer}");
        let mut c = TcpStream::connect(&s.addr).expect("connect");
        write!(
            c,
            "GET /api/stream?scenario=main&speed=0&run={run} HTTP/1.1\r\nHost: x\r\n\r\n"
        )
        .expect("send");
        let mut reader = BufReader::new(c);
        let mut seen = String::new();
        let mut line = String::new();
        while !seen.contains("\"kind\":\"input-required\"") {
            line.clear();
            assert!(
                reader.read_line(&mut line).expect("read") > 0,
                "stream ended before the approval"
            );
            seen.push_str(&line);
        }
        let path = format!("/api/contexts/ctx-{run}/tasks/task-main/inputs/in-approve");
        let (head, _) = request(
            &s,
            "POST",
            &path,
            "Content-Type: application/json\r\n",
            &format!("{{\"value\":\"{answer}\"}}"),
        );
        assert!(head.starts_with("HTTP/1.1 200"), "{head}");
        let (again, _) = request(&s, "POST", &path, "", "{}");
        assert!(
            again.starts_with("HTTP/1.1 409"),
            "answering twice is refused"
        );
        while !seen.contains("\"kind\":\"auth-required\"") {
            line.clear();
            assert!(reader.read_line(&mut line).expect("read") > 0);
            seen.push_str(&line);
        }
        let (head, _) = request(
            &s,
            "POST",
            &format!("/api/contexts/ctx-{run}/tasks/task-main/auth/auth-gh"),
            "",
            "{}",
        );
        assert!(head.starts_with("HTTP/1.1 200"));
        let mut rest = String::new();
        reader.read_to_string(&mut rest).expect("rest");
        seen.push_str(&rest);
        assert_eq!(seen.contains("send_email"), expect_email, "{answer}");
        assert!(seen.contains("\"kind\":\"task-complete\""));
    }
}
