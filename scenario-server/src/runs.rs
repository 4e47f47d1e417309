//! Runs: each has one event log written by its scenario thread; connections read it with a
//! cursor (resume = `Last-Event-ID` + 1) and wait on a condition variable for more.

use crate::scenarios;
use std::collections::HashMap;
use std::io::Write;
use std::net::TcpStream;
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

/// Fault injection, from `faults=drop=5,dup=3,status=500:1,...`.
#[derive(Debug, Default, Clone)]
pub struct Faults {
    /// First connection: cut event K in half, then close.
    pub drop: Option<usize>,
    /// Resumed connection: resend the K events before the resume point first.
    pub dup: Option<usize>,
    /// Ignore `Last-Event-ID` and replay from the start.
    pub restart: bool,
    /// Answer the first N stream requests with this status.
    pub status: Option<(u16, u32)>,
    /// A wrong content type.
    pub ctype: Option<String>,
}

impl Faults {
    /// Parses the comma-separated fault list (unknown names are ignored).
    pub fn parse(s: &str) -> Self {
        let mut f = Faults::default();
        for item in s.split(',').filter(|x| !x.is_empty()) {
            let (k, v) = item.split_once('=').unwrap_or((item, ""));
            match k {
                "drop" => f.drop = v.parse().ok(),
                "dup" => f.dup = v.parse().ok(),
                "restart" => f.restart = true,
                "status" => {
                    let (code, n) = v.split_once(':').unwrap_or((v, "1000000"));
                    if let (Ok(c), Ok(n)) = (code.parse(), n.parse()) {
                        f.status = Some((c, n));
                    }
                }
                "ctype" => f.ctype = Some(v.to_owned()),
                _ => {}
            }
        }
        f
    }
}

/// The shared state of one run.
#[derive(Default)]
pub struct Run {
    /// The SSE frames of every event so far, and whether the script ended.
    log: Mutex<(Vec<String>, bool)>,
    changed: Condvar,
    answers: Mutex<HashMap<String, String>>,
    answered: Condvar,
    attempts: Mutex<u32>,
}

impl Run {
    /// Appends one event frame (`id` = its index) and wakes readers.
    pub fn push(&self, kind: &str, data: &str) {
        if let Ok(mut g) = self.log.lock() {
            let id = g.0.len();
            let name = kind.trim_start_matches("internal:");
            g.0.push(format!("id: {id}\nevent: {name}\ndata: {data}\n\n"));
        }
        self.changed.notify_all();
    }

    /// Marks the script finished.
    pub fn end(&self) {
        if let Ok(mut g) = self.log.lock() {
            g.1 = true;
        }
        self.changed.notify_all();
    }

    /// Blocks until `key` (an input/auth/cancel id) was answered; returns the answer body.
    pub fn wait_answer(&self, key: &str) -> String {
        let Ok(mut g) = self.answers.lock() else {
            return String::new();
        };
        loop {
            if let Some(v) = g.get(key) {
                return v.clone();
            }
            match self.answered.wait_timeout(g, Duration::from_secs(3600)) {
                Ok((ng, _)) => g = ng,
                Err(_) => return String::new(),
            }
        }
    }

    /// Whether `key` was answered (cancel checks).
    pub fn has_answer(&self, key: &str) -> bool {
        self.answers
            .lock()
            .map(|g| g.contains_key(key))
            .unwrap_or(false)
    }

    fn answer(&self, key: &str, body: &str) -> bool {
        let Ok(mut g) = self.answers.lock() else {
            return false;
        };
        if g.contains_key(key) {
            return false;
        }
        g.insert(key.to_owned(), body.to_owned());
        drop(g);
        self.answered.notify_all();
        true
    }

    /// 0 for the first stream request of this run, then 1, 2, ...
    pub fn next_attempt(&self) -> u32 {
        let Ok(mut a) = self.attempts.lock() else {
            return 0;
        };
        *a += 1;
        *a - 1
    }

    /// Streams the log from after `last_id` until the script ends (or the client leaves).
    pub fn deliver(
        &self,
        stream: &mut TcpStream,
        last_id: Option<usize>,
        attempt: u32,
        faults: &Faults,
    ) {
        let mut cursor = if faults.restart {
            0
        } else {
            last_id.map_or(0, |i| i + 1)
        };
        if let (Some(k), Some(_)) = (faults.dup, last_id) {
            cursor = cursor.saturating_sub(k);
        }
        loop {
            let (frames, done) = {
                let Ok(mut g) = self.log.lock() else { return };
                while g.0.len() <= cursor && !g.1 {
                    match self.changed.wait_timeout(g, Duration::from_secs(5)) {
                        Ok((ng, timeout)) => {
                            g = ng;
                            if timeout.timed_out() && g.0.len() <= cursor && !g.1 {
                                drop(g);
                                if stream.write_all(b": hb\n\n").is_err() {
                                    return;
                                }
                                let Ok(ng) = self.log.lock() else { return };
                                g = ng;
                            }
                        }
                        Err(_) => return,
                    }
                }
                (
                    g.0.get(cursor..)
                        .map(<[String]>::to_vec)
                        .unwrap_or_default(),
                    g.1,
                )
            };
            for f in frames {
                if attempt == 0 && faults.drop == Some(cursor) {
                    let half = f.len() / 2;
                    let _ = stream.write_all(&f.as_bytes()[..half]);
                    let _ = stream.flush();
                    let _ = stream.shutdown(std::net::Shutdown::Both);
                    return;
                }
                if stream.write_all(f.as_bytes()).is_err() {
                    return;
                }
                cursor += 1;
            }
            let _ = stream.flush();
            let len = self.log.lock().map(|g| g.0.len()).unwrap_or(0);
            if done && cursor >= len {
                return;
            }
        }
    }
}

/// Every run, by id (bounded: the oldest are dropped).
#[derive(Default)]
pub struct Runs {
    runs: Mutex<Vec<(String, Arc<Run>)>>,
    counter: Mutex<u64>,
}

const MAX_RUNS: usize = 256;

impl Runs {
    /// The run `id` (or a new one), starting its scenario thread when new.
    pub fn open(
        &self,
        id: Option<String>,
        scenario: &str,
        seed: u64,
        speed: f64,
    ) -> Option<Arc<Run>> {
        let script = scenarios::find(scenario)?;
        let mut runs = self.runs.lock().ok()?;
        let id = match id {
            Some(id) => id,
            None => {
                let mut c = self.counter.lock().ok()?;
                *c += 1;
                format!("r{}", *c)
            }
        };
        if let Some((_, r)) = runs.iter().find(|(k, _)| *k == id) {
            return Some(r.clone());
        }
        let run = Arc::new(Run::default());
        if runs.len() >= MAX_RUNS {
            runs.remove(0);
        }
        runs.push((id.clone(), run.clone()));
        let r = run.clone();
        std::thread::spawn(move || {
            let mut ctx = scenarios::Ctx::new(r.clone(), format!("ctx-{id}"), seed, speed);
            script(&mut ctx);
            r.end();
        });
        Some(run)
    }

    /// `POST /api/contexts/{ctx}/tasks/{task}/(inputs/{id}|auth/{id}|cancel)`.
    pub fn answer(&self, path: &str, body: &[u8]) -> (u16, String) {
        let parts: Vec<&str> = path
            .trim_start_matches("/api/contexts/")
            .split('/')
            .collect();
        let (ctx, key) = match parts.as_slice() {
            [ctx, "tasks", _task, "inputs", id] => (*ctx, format!("input:{id}")),
            [ctx, "tasks", _task, "auth", id] => (*ctx, format!("auth:{id}")),
            [ctx, "tasks", task, "cancel"] => (*ctx, format!("cancel:{task}")),
            _ => return (404, r#"{"error":"unknown endpoint"}"#.to_owned()),
        };
        let run_id = ctx.trim_start_matches("ctx-");
        let run = self
            .runs
            .lock()
            .ok()
            .and_then(|r| r.iter().find(|(k, _)| k == run_id).map(|(_, r)| r.clone()));
        let Some(run) = run else {
            return (404, r#"{"error":"unknown context"}"#.to_owned());
        };
        if run.answer(&key, &String::from_utf8_lossy(body)) {
            (200, r#"{"ok":true}"#.to_owned())
        } else {
            (409, r#"{"error":"already answered"}"#.to_owned())
        }
    }
}
