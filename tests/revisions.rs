//! Every visible change of a task or artifact moves its `revision`: the browser object cache
//! reuses a task's or artifact's JS object while its revision stays, so a change without a new
//! revision leaves the page showing old data. Fed line by line from every recording, with
//! default and with tiny limits, then `finish()` and a clock far in the future.
#![cfg(not(target_arch = "wasm32"))]
use agentwire::dialects::DialectChoice;
use agentwire::json::WriteJson;
use agentwire::pipeline::Session;
use agentwire::sse::SseConfig;
use agentwire::state::Limits;
use std::collections::HashMap;

fn diff_keys(a: &str, b: &str) -> String {
    let a: serde_json::Value = serde_json::from_str(a).unwrap();
    let b: serde_json::Value = serde_json::from_str(b).unwrap();
    let mut out = Vec::new();
    for (k, v) in b.as_object().unwrap() {
        if a.get(k) != Some(v) {
            out.push(format!(
                "{k}: {} -> {}",
                a.get(k).map(|x| x.to_string()).unwrap_or("-".into()),
                v
            ));
        }
    }
    out.join("; ")
}

fn strip_rev(s: &str) -> String {
    let mut v: serde_json::Value = serde_json::from_str(s).unwrap();
    if let Some(o) = v.as_object_mut() {
        o.remove("revision");
    }
    v.to_string()
}

fn check(name: &str, bytes: &[u8], limits: Limits, clock: bool) -> Vec<String> {
    // Auto: protocol 000 recordings are read as such, the AG-UI ones as AG-UI.
    let mut s = Session::with_dialect(SseConfig::default(), limits, DialectChoice::Auto);
    let mut seen_t: HashMap<String, (u64, String)> = HashMap::new();
    let mut seen_a: HashMap<String, (u64, String)> = HashMap::new();
    let mut bad = Vec::new();
    let mut step = |s: &Session, at: usize, bad: &mut Vec<String>| {
        for t in s.store().tasks() {
            let mut j = String::new();
            t.write_json(&mut j);
            let j = strip_rev(&j);
            if let Some((r, old)) = seen_t.get(&t.id) {
                if *r == t.revision && *old != j {
                    bad.push(format!(
                        "{name} @{at}: task {} changed without revision: {}",
                        t.id,
                        diff_keys(old, &j)
                    ));
                }
            }
            seen_t.insert(t.id.clone(), (t.revision, j));
        }
        for a in s.store().artifacts() {
            let mut j = String::new();
            a.write_json(&mut j);
            let j = strip_rev(&j);
            if let Some((r, old)) = seen_a.get(&a.id) {
                if *r == a.revision && *old != j {
                    bad.push(format!(
                        "{name} @{at}: artifact {} changed without revision: {}",
                        a.id,
                        diff_keys(old, &j)
                    ));
                }
            }
            seen_a.insert(a.id.clone(), (a.revision, j));
        }
    };
    let mut at = 0;
    for line in bytes.split_inclusive(|b| *b == b'\n') {
        s.feed(line, &mut |_, _, _| {});
        at += line.len();
        step(&s, at, &mut bad);
    }
    s.finish();
    step(&s, at, &mut bad);
    if clock {
        s.store_mut().advance_clock(i64::MAX / 2);
        step(&s, at, &mut bad);
    }
    bad
}

#[test]
fn revisions_follow_every_visible_change() {
    let mut bad = Vec::new();
    let mut files: Vec<_> = ["tests/recordings", "tests/recordings/ag-ui"]
        .iter()
        .flat_map(|d| std::fs::read_dir(d).unwrap())
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    for p in files
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "sse"))
    {
        let bytes = std::fs::read(p).unwrap();
        let name = p.file_name().unwrap().to_string_lossy().to_string();
        bad.extend(check(&name, &bytes, Limits::default(), true));
        let small = Limits {
            max_artifacts: 1,
            max_thoughts_per_task: 1,
            max_history_per_task: 1,
            max_tools_per_task: 1,
            max_requests_per_task: 1,
            max_messages_per_task: 1,
            max_tasks: 2,
            max_content_bytes: 5,
            max_pending_chunks: 1,
            max_dataset_rows: 1,
            max_artifact_bytes: 3,
            ..Limits::default()
        };
        bad.extend(check(
            &format!("{name} (small limits)"),
            &bytes,
            small,
            true,
        ));
    }
    for b in &bad {
        eprintln!("{b}");
    }
    assert!(bad.is_empty(), "{} stale revisions", bad.len());
}
