//! The JS objects of tasks and artifacts, cached by revision and built in batches.
//!
//! A snapshot needs one object per task and artifact; unchanged ones are reused (same identity),
//! the others are built together in ONE call into JavaScript (`awBuild`): their JSON as one
//! array (one `JSON.parse`), and the answer texts, which are most of the bytes, NOT inside the
//! JSON (no escaping in Rust, no unescaping in the engine) but in two string pools (ASCII and
//! other text, so ASCII answers stay one-byte strings), each decoded once and sliced.

use crate::json::WriteJson;
use crate::state::Store;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(inline_js = r#"
export function awBuild(json, ascii, wide, view) {
  const list = JSON.parse(json);
  const r = view.slice();
  let p = 0, q = 0;
  for (let i = 0; i < list.length; i++) {
    const k = r[2 * i], n = r[2 * i + 1];
    if (k === 1) list[i].content = ascii.slice(p, p += n);
    else if (k === 2) list[i].content = wide.slice(q, q += n);
  }
  return list;
}
"#)]
extern "C" {
    /// Parses the batch's JSON array and puts each answer text back into its object.
    #[wasm_bindgen(js_name = awBuild)]
    fn aw_build(json: &str, ascii: &str, wide: &str, recs: &[u32]) -> js_sys::Array;
}

/// Built objects by position (tasks and artifacts are only ever appended), with the revision
/// they show.
#[derive(Default)]
pub(super) struct ObjectCache {
    tasks: Vec<Option<(u64, JsValue)>>,
    artifacts: Vec<Option<(u64, JsValue)>>,
    /// `build_finished` has looked at every task / artifact before these positions.
    finished_tasks: usize,
    finished_artifacts: usize,
    /// Finished ones seen by the previous `build_finished` call: (position, revision).
    seen_tasks: Vec<(usize, u64)>,
    seen_artifacts: Vec<(usize, u64)>,
}

/// The positions to build now among `window` (position, revision, finished): finished ones
/// whose revision is the one the previous call saw, and whose object is stale. Moves `cursor`
/// past the leading run of finished ones whose object is (or will be) current.
fn pick(
    cache: &[Option<(u64, JsValue)>],
    cursor: &mut usize,
    seen: &mut Vec<(usize, u64)>,
    window: &[(usize, u64, bool)],
    budget: usize,
) -> Vec<usize> {
    let fresh = |i: usize, rev: u64| matches!(cache.get(i), Some(Some((r, _))) if *r == rev);
    let mut build = Vec::new();
    let mut next_seen = Vec::new();
    let mut leading = true;
    for &(i, rev, finished) in window {
        let settled = finished && seen.contains(&(i, rev));
        let ready = fresh(i, rev) || (settled && build.len() < budget);
        if ready && !fresh(i, rev) {
            build.push(i);
        }
        if finished && !ready {
            next_seen.push((i, rev));
        }
        if leading && finished && ready {
            *cursor = i + 1;
        } else {
            leading = false;
        }
    }
    *seen = next_seen;
    build
}

/// How far past its cursor `build_finished` looks (tasks finish roughly in creation order).
const FINISHED_WINDOW: usize = 64;

/// A build call ships its buffers past this size (bounded memory for a first read of a big
/// state, instead of one JSON text of everything).
const MAX_BUILD_BYTES: usize = 512 * 1024;

/// What one `awBuild` call creates.
#[derive(Default)]
struct Build {
    json: String,
    ascii: String,
    wide: String,
    recs: Vec<u32>,
    /// (is_task, position) of each element.
    items: Vec<(bool, usize)>,
}

impl Build {
    fn bytes(&self) -> usize {
        self.json.len() + self.ascii.len() + self.wide.len()
    }

    fn item(&mut self, is_task: bool, pos: usize) {
        self.json
            .push(if self.items.is_empty() { '[' } else { ',' });
        self.items.push((is_task, pos));
    }
}

impl ObjectCache {
    /// Builds every stale object among the tasks at `tasks` and artifacts at `artifacts`
    /// (positions), in one call.
    fn refresh(
        &mut self,
        store: &mut Store,
        tasks: &[usize],
        artifacts: &[usize],
    ) -> Result<(), JsValue> {
        let mut b = Build::default();
        for &i in tasks {
            let Some(slot) = store.tasks.get_mut(i) else {
                continue;
            };
            if matches!(self.tasks.get(i), Some(Some((r, _))) if *r == slot.view.revision) {
                continue;
            }
            b.item(true, i);
            // The answer goes into a pool; the JSON keeps `"content":""` (its place in the
            // object's key order).
            let content = std::mem::take(&mut slot.view.content);
            slot.view.write_json(&mut b.json);
            let (kind, len) = if content.is_empty() {
                (0, 0)
            } else if content.is_ascii() {
                b.ascii.push_str(&content);
                (1, content.len())
            } else {
                b.wide.push_str(&content);
                (2, content.chars().map(char::len_utf16).sum())
            };
            b.recs.extend_from_slice(&[kind, len as u32]);
            slot.view.content = content;
            if b.bytes() > MAX_BUILD_BYTES {
                self.ship(store, &mut b);
            }
        }
        for &i in artifacts {
            let Some(slot) = store.artifacts.get(i) else {
                continue;
            };
            if matches!(self.artifacts.get(i), Some(Some((r, _))) if *r == slot.view.revision) {
                continue;
            }
            b.item(false, i);
            slot.view.write_json(&mut b.json);
            b.recs.extend_from_slice(&[0, 0]);
            if b.bytes() > MAX_BUILD_BYTES {
                self.ship(store, &mut b);
            }
        }
        self.ship(store, &mut b);
        Ok(())
    }

    /// Builds the objects collected in `b` (one `awBuild` call) and empties it.
    fn ship(&mut self, store: &Store, b: &mut Build) {
        if b.items.is_empty() {
            return;
        }
        b.json.push(']');
        let built = aw_build(&b.json, &b.ascii, &b.wide, &b.recs);
        for (n, &(is_task, i)) in b.items.iter().enumerate() {
            let (cache, rev) = if is_task {
                (&mut self.tasks, store.tasks[i].view.revision)
            } else {
                (&mut self.artifacts, store.artifacts[i].view.revision)
            };
            if cache.len() <= i {
                cache.resize(i + 1, None);
            }
            cache[i] = Some((rev, built.get(n as u32)));
        }
        b.json.clear();
        b.ascii.clear();
        b.wide.clear();
        b.recs.clear();
        b.items.clear();
    }

    /// Incremental snapshots: builds (one call) the stale objects of up to `budget` finished
    /// tasks (terminal status) and finalized artifacts that did not change since the previous
    /// call (a `task-complete` right after the final status would make the object stale at
    /// once), so that reading a snapshot later only builds what is still changing. Bounded
    /// work: it looks at most [`FINISHED_WINDOW`] positions past where it stopped last time,
    /// and moves on past built ones only.
    /// Returns whether it built anything.
    pub fn build_finished(&mut self, store: &mut Store, budget: usize) -> Result<bool, JsValue> {
        let revisions: Vec<(usize, u64, bool)> = {
            let end = (self.finished_tasks + FINISHED_WINDOW).min(store.tasks.len());
            (self.finished_tasks..end)
                .map(|i| {
                    let v = &store.tasks[i].view;
                    (i, v.revision, v.status.is_some_and(|s| s.is_terminal()))
                })
                .collect()
        };
        let tasks = pick(
            &self.tasks,
            &mut self.finished_tasks,
            &mut self.seen_tasks,
            &revisions,
            budget,
        );
        let revisions: Vec<(usize, u64, bool)> = {
            let end = (self.finished_artifacts + FINISHED_WINDOW).min(store.artifacts.len());
            (self.finished_artifacts..end)
                .map(|i| {
                    let a = &store.artifacts[i];
                    (i, a.view.revision, a.finalized)
                })
                .collect()
        };
        let artifacts = pick(
            &self.artifacts,
            &mut self.finished_artifacts,
            &mut self.seen_artifacts,
            &revisions,
            budget,
        );
        let built = !tasks.is_empty() || !artifacts.is_empty();
        self.refresh(store, &tasks, &artifacts)?;
        Ok(built)
    }

    /// Every task and artifact object, in creation order (stale ones rebuilt first).
    pub fn all(&mut self, store: &mut Store) -> Result<(Vec<JsValue>, Vec<JsValue>), JsValue> {
        let tasks: Vec<usize> = (0..store.tasks.len()).collect();
        let artifacts: Vec<usize> = (0..store.artifacts.len()).collect();
        self.refresh(store, &tasks, &artifacts)?;
        let pick = |c: &[Option<(u64, JsValue)>], n: usize| -> Vec<JsValue> {
            (0..n)
                .map(|i| {
                    c.get(i)
                        .and_then(|o| o.as_ref())
                        .map_or(JsValue::UNDEFINED, |(_, v)| v.clone())
                })
                .collect()
        };
        Ok((
            pick(&self.tasks, tasks.len()),
            pick(&self.artifacts, artifacts.len()),
        ))
    }

    /// The object of task `id`, or `undefined`.
    pub fn task(&mut self, store: &mut Store, id: &str) -> Result<JsValue, JsValue> {
        let Some(&i) = store.task_index.get(id) else {
            return Ok(JsValue::UNDEFINED);
        };
        self.refresh(store, &[i], &[])?;
        Ok(self
            .tasks
            .get(i)
            .and_then(|o| o.as_ref())
            .map_or(JsValue::UNDEFINED, |(_, v)| v.clone()))
    }

    /// The object of artifact `id`, or `undefined`.
    pub fn artifact(&mut self, store: &mut Store, id: &str) -> Result<JsValue, JsValue> {
        let Some(&i) = store.artifact_index.get(id) else {
            return Ok(JsValue::UNDEFINED);
        };
        self.refresh(store, &[], &[i])?;
        Ok(self
            .artifacts
            .get(i)
            .and_then(|o| o.as_ref())
            .map_or(JsValue::UNDEFINED, |(_, v)| v.clone()))
    }
}
