//! Shared by `tests/seed_00{2,3,4}_*.rs`: read a seed document's examples (copied verbatim into
//! `tests/dialects/<dialect>/examples/`), feed them, and check that nothing in them is lost:
//! every leaf of an example ends in a canonical event it became (its members or `metadata`)
//! or in the assembled state. Diagnostics do not count as keeping a field.

#![allow(dead_code)]

use std::path::Path;

use agentwire::dialects::{Dialect, DialectChoice};
use agentwire::pipeline::Session;
use agentwire::sse::SseConfig;
use agentwire::state::Limits;
use serde_json::Value;

/// When the examples are "received": the time an event without a timestamp gets.
pub const RECEIVED_MS: i64 = 1_700_000_000_000;
pub const RECEIVED: &str = "2023-11-14T22:13:20.000Z";

/// The example file's text, as copied from the document.
pub fn text(dialect: &str, file: &str) -> String {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/dialects")
        .join(dialect)
        .join("examples")
        .join(file);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// Every example file of a dialect, in document order.
pub fn files(dialect: &str) -> Vec<String> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/dialects")
        .join(dialect)
        .join("examples");
    let mut v: Vec<String> = std::fs::read_dir(p)
        .expect("examples dir")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.ends_with(".json"))
        .collect();
    v.sort();
    v
}

/// The example as JSON. Two examples of seed 002 are not JSON as written (`// comments` and
/// an elided `{ ... }`): comments are dropped and `{ ... }` becomes `{}` (the test says what
/// stands in for the elided object where it matters).
pub fn json(text: &str) -> Value {
    if let Ok(v) = serde_json::from_str(text) {
        return v;
    }
    let mut out = String::new();
    for line in text.lines() {
        let mut in_str = false;
        let mut esc = false;
        let mut cut = line.len();
        let b = line.as_bytes();
        for i in 0..b.len() {
            let c = b[i];
            if in_str {
                if esc {
                    esc = false;
                } else if c == b'\\' {
                    esc = true;
                } else if c == b'"' {
                    in_str = false;
                }
            } else if c == b'"' {
                in_str = true;
            } else if c == b'/' && b.get(i + 1) == Some(&b'/') {
                cut = i;
                break;
            }
        }
        out.push_str(&line[..cut]);
        out.push('\n');
    }
    let out = out.replace("{ ... }", "{}");
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("not JSON even relaxed ({e}): {out}"))
}

/// A session of one dialect, fed SSE (`frames: false`) or WebSocket frames.
pub struct Run {
    pub s: Session,
    frames: bool,
}

/// What one input became: its canonical events (JSON), the diagnostics it added, the state.
#[derive(Debug)]
pub struct Fed {
    pub events: Vec<Value>,
    pub diags: Vec<Value>,
    pub state: Value,
}

impl Fed {
    pub fn kinds(&self) -> Vec<String> {
        self.events
            .iter()
            .map(|e| {
                let k = e["kind"].as_str().unwrap_or("?");
                match e["unknownKind"].as_str() {
                    Some(u) => format!("{k}:{u}"),
                    None => k.to_owned(),
                }
            })
            .collect()
    }
    pub fn event(&self, kind: &str) -> &Value {
        self.events
            .iter()
            .find(|e| e["kind"] == kind)
            .unwrap_or_else(|| panic!("no {kind} event in {:#?}", self.events))
    }
    pub fn events_of(&self, kind: &str) -> Vec<&Value> {
        self.events.iter().filter(|e| e["kind"] == kind).collect()
    }
    pub fn codes(&self) -> Vec<String> {
        self.diags
            .iter()
            .map(|d| {
                format!(
                    "{}/{}",
                    d["code"].as_str().unwrap_or("?"),
                    d["severity"].as_str().unwrap_or("?")
                )
            })
            .collect()
    }
    pub fn task(&self, id: &str) -> &Value {
        self.state["tasks"]
            .as_array()
            .expect("tasks")
            .iter()
            .find(|t| t["id"] == id)
            .unwrap_or_else(|| panic!("no task {id}: {:#}", self.state))
    }
    pub fn tool(&self, task: &str, id: &str) -> &Value {
        self.task(task)["tools"]
            .as_array()
            .unwrap_or_else(|| panic!("no tools in {task}: {:#}", self.state))
            .iter()
            .find(|t| t["id"] == id)
            .unwrap_or_else(|| panic!("no tool {id} in {task}: {:#}", self.state))
    }
    pub fn artifact(&self, id: &str) -> &Value {
        self.state["artifacts"]
            .as_array()
            .expect("artifacts")
            .iter()
            .find(|t| t["id"] == id)
            .unwrap_or_else(|| panic!("no artifact {id}: {:#}", self.state))
    }
}

impl Run {
    pub fn new(d: Dialect, frames: bool) -> Self {
        let mut s = Session::with_dialect(
            SseConfig::default(),
            Limits::default(),
            DialectChoice::Fixed(d),
        );
        s.set_now_ms(Some(RECEIVED_MS));
        Run { s, frames }
    }

    fn diag_count(&self) -> usize {
        let st: Value = serde_json::from_str(&self.s.store().state_json()).expect("state");
        st["diagnostics"].as_array().map_or(0, Vec::len)
    }

    /// Feeds the text as it is: one frame, or one SSE event whose `data:` lines are its lines.
    pub fn text(&mut self, text: &str) -> Fed {
        let before = self.diag_count();
        let mut events = Vec::new();
        let mut observe = |ev: &agentwire::events::AgentEvent<'_>,
                           _: &agentwire::state::EventMeta<'_>,
                           _: &agentwire::state::Store| {
            let mut out = String::new();
            ev.write_json(&mut out);
            events.push(serde_json::from_str::<Value>(&out).expect("event json"));
        };
        if self.frames {
            self.s.feed_frame(text, &mut observe);
        } else {
            let sse: String = text
                .trim_end()
                .lines()
                .map(|l| format!("data: {l}\n"))
                .collect::<String>()
                + "\n";
            self.s.feed(sse.as_bytes(), &mut observe);
        }
        let state: Value = serde_json::from_str(&self.s.store().state_json()).expect("state");
        let diags = state["diagnostics"]
            .as_array()
            .map(|d| d[before.min(d.len())..].to_vec())
            .unwrap_or_default();
        Fed {
            events,
            diags,
            state,
        }
    }

    /// Feeds a JSON value (compact).
    pub fn value(&mut self, v: &Value) -> Fed {
        self.text(&v.to_string())
    }
}

fn norm(k: &str) -> String {
    k.chars()
        .filter(|c| *c != '_' && *c != '-')
        .flat_map(char::to_lowercase)
        .collect()
}

/// Every (path, key, value) leaf of a JSON value; empty objects and arrays are leaves too.
fn leaves<'v>(v: &'v Value, path: String, key: &str, out: &mut Vec<(String, String, &'v Value)>) {
    match v {
        Value::Object(m) if !m.is_empty() => {
            for (k, x) in m {
                leaves(x, format!("{path}.{k}"), k, out);
            }
        }
        Value::Array(a) if !a.is_empty() => {
            for (i, x) in a.iter().enumerate() {
                leaves(x, format!("{path}[{i}]"), key, out);
            }
        }
        _ => out.push((path, key.to_owned(), v)),
    }
}

/// Does `out` keep the leaf `key: want`? A member of the same name (ignoring case, `_` and `-`)
/// or one of `aliases` with an equal value; for a string of 4 or more characters, any string
/// containing it.
fn kept(out: &Value, key: &str, want: &Value, aliases: &[&str]) -> bool {
    fn walk(v: &Value, f: &mut dyn FnMut(Option<&str>, &Value) -> bool) -> bool {
        match v {
            Value::Object(m) => m.iter().any(|(k, x)| f(Some(k), x) || walk(x, f)),
            Value::Array(a) => a.iter().any(|x| f(None, x) || walk(x, f)),
            _ => false,
        }
    }
    let names: Vec<String> = std::iter::once(norm(key))
        .chain(aliases.iter().map(|a| norm(a)))
        .collect();
    let same_num = |a: &Value, b: &Value| match (a.as_f64(), b.as_f64()) {
        (Some(x), Some(y)) => x == y,
        _ => a == b,
    };
    walk(out, &mut |k, x| {
        let by_name = k.is_some_and(|k| names.contains(&norm(k))) && same_num(x, want);
        let by_text = match (want.as_str(), x.as_str()) {
            (Some(w), Some(s)) => w.len() >= 4 && s.contains(w),
            _ => false,
        };
        // An array or object kept whole under any name.
        let whole = (want.is_array() || want.is_object()) && x == want;
        by_name || by_text || whole
    })
}

/// Panics with every leaf of `example` that neither `fed`'s events nor its state keep.
/// `aliases`: (example key, canonical names it may be kept under), for renamed fields.
pub fn assert_nothing_lost(name: &str, example: &Value, fed: &Fed, aliases: &[(&str, &[&str])]) {
    let out = serde_json::json!({"events": fed.events, "state": fed.state});
    let mut ls = Vec::new();
    leaves(example, "$".to_owned(), "", &mut ls);
    let lost: Vec<String> = ls
        .iter()
        .filter(|(_, k, v)| {
            let al = aliases
                .iter()
                .filter(|(a, _)| a == k)
                .flat_map(|(_, x)| x.iter().copied())
                .collect::<Vec<_>>();
            !kept(&out, k, v, &al)
        })
        .map(|(p, _, v)| format!("{p} = {v}"))
        .collect();
    assert!(
        lost.is_empty(),
        "{name}: lost {lost:#?}\nevents: {:#}\ndiagnostics: {:#}",
        serde_json::Value::Array(fed.events.clone()),
        serde_json::Value::Array(fed.diags.clone())
    );
}
