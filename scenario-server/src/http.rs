//! Minimal HTTP/1.1: one request per connection (`Connection: close`), CORS on every answer.

use crate::runs::{Faults, Runs};
use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::time::Duration;

/// A parsed request.
pub struct Request {
    pub method: String,
    pub path: String,
    pub query: HashMap<String, String>,
    pub headers: HashMap<String, String>,
    pub body: Vec<u8>,
}

fn url_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < b.len() => {
                match u8::from_str_radix(std::str::from_utf8(&b[i + 1..i + 3]).unwrap_or("zz"), 16)
                {
                    Ok(v) => {
                        out.push(v);
                        i += 2;
                    }
                    Err(_) => out.push(b'%'),
                }
            }
            c => out.push(c),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn read_request(stream: &TcpStream) -> Option<Request> {
    let mut r = BufReader::new(stream.try_clone().ok()?);
    let mut line = String::new();
    r.read_line(&mut line).ok()?;
    let mut parts = line.split_whitespace();
    let method = parts.next()?.to_owned();
    let target = parts.next()?.to_owned();
    let mut headers = HashMap::new();
    loop {
        let mut h = String::new();
        if r.read_line(&mut h).ok()? == 0 {
            break;
        }
        let h = h.trim_end();
        if h.is_empty() {
            break;
        }
        if let Some((k, v)) = h.split_once(':') {
            headers.insert(k.trim().to_ascii_lowercase(), v.trim().to_owned());
        }
    }
    let len: usize = headers
        .get("content-length")
        .and_then(|v| v.parse().ok())
        .unwrap_or(0)
        .min(1 << 20);
    let mut body = vec![0; len];
    r.read_exact(&mut body).ok()?;
    let (path, qs) = target.split_once('?').unwrap_or((&target, ""));
    let query = qs
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|p| {
            let (k, v) = p.split_once('=').unwrap_or((p, ""));
            (url_decode(k), url_decode(v))
        })
        .collect();
    Some(Request {
        method,
        path: path.to_owned(),
        query,
        headers,
        body,
    })
}

fn cors(req: &Request) -> String {
    let origin = req
        .headers
        .get("origin")
        .cloned()
        .unwrap_or_else(|| "*".to_owned());
    let mut h = format!(
        "Access-Control-Allow-Origin: {origin}\r\nAccess-Control-Allow-Methods: GET, POST, OPTIONS\r\n\
         Access-Control-Allow-Headers: Content-Type, Authorization, Last-Event-ID, Cache-Control\r\n\
         Access-Control-Expose-Headers: Retry-After\r\nVary: Origin\r\n"
    );
    if origin != "*" {
        h.push_str("Access-Control-Allow-Credentials: true\r\n");
    }
    h
}

/// Writes a complete JSON response.
pub fn respond(stream: &mut TcpStream, req: &Request, status: u16, extra: &str, body: &str) {
    let reason = match status {
        200 => "OK",
        204 => "No Content",
        400 => "Bad Request",
        401 => "Unauthorized",
        404 => "Not Found",
        408 => "Request Timeout",
        409 => "Conflict",
        429 => "Too Many Requests",
        _ => "Error",
    };
    let _ = write!(
        stream,
        "HTTP/1.1 {status} {reason}\r\n{}{extra}Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        cors(req),
        body.len()
    );
}

/// Handles one connection.
pub fn serve(mut stream: TcpStream, runs: &Runs) {
    let _ = stream.set_read_timeout(Some(Duration::from_secs(10)));
    let Some(req) = read_request(&stream) else {
        return;
    };
    match (req.method.as_str(), req.path.as_str()) {
        ("OPTIONS", _) => respond(&mut stream, &req, 204, "", ""),
        ("GET", "/api/health") => respond(&mut stream, &req, 200, "", r#"{"ok":true}"#),
        ("GET", "/api/scenarios") => {
            respond(&mut stream, &req, 200, "", &crate::scenarios::list_json())
        }
        ("GET", "/api/stream") => stream_run(&mut stream, &req, runs),
        ("POST", p) if p.starts_with("/api/contexts/") => {
            let (status, body) = runs.answer(p, &req.body);
            respond(&mut stream, &req, status, "", &body);
        }
        _ => respond(&mut stream, &req, 404, "", r#"{"error":"not found"}"#),
    }
}

fn stream_run(stream: &mut TcpStream, req: &Request, runs: &Runs) {
    let q = |k: &str| req.query.get(k).cloned();
    let scenario = q("scenario").unwrap_or_else(|| "quick".to_owned());
    let seed: u64 = q("seed").and_then(|s| s.parse().ok()).unwrap_or(1);
    let speed: f64 = q("speed").and_then(|s| s.parse().ok()).unwrap_or(0.0);
    let faults = Faults::parse(&q("faults").unwrap_or_default());
    let last_id: Option<usize> = req
        .headers
        .get("last-event-id")
        .cloned()
        .or_else(|| q("lastEventId"))
        .and_then(|s| s.parse().ok());
    let Some(run) = runs.open(q("run"), &scenario, seed, speed) else {
        respond(stream, req, 404, "", r#"{"error":"unknown scenario"}"#);
        return;
    };
    let attempt = run.next_attempt();
    if let Some((code, n)) = faults.status {
        if attempt < n {
            let extra = if code == 429 {
                "Retry-After: 1\r\n"
            } else {
                ""
            };
            respond(
                stream,
                req,
                code,
                extra,
                &format!(r#"{{"error":"injected status {code}"}}"#),
            );
            return;
        }
    }
    let ctype = faults
        .ctype
        .clone()
        .unwrap_or_else(|| "text/event-stream".to_owned());
    let head = format!("HTTP/1.1 200 OK\r\n{}Content-Type: {ctype}\r\nCache-Control: no-cache\r\nConnection: close\r\n\r\nretry: 1000\n\n", cors(req));
    if stream.write_all(head.as_bytes()).is_err() {
        return;
    }
    run.deliver(stream, last_id, attempt, &faults);
}
