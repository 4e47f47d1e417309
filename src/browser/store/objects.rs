//! The JS objects of tasks and artifacts, cached by revision and built in batches.
//!
//! A snapshot needs one object per task and artifact; unchanged ones are reused (same identity),
//! the others are built together in ONE call into JavaScript (`awBuild`): their JSON as one
//! array (one `JSON.parse`), and the answer texts, which are most of the bytes, NOT inside the
//! JSON (no escaping in Rust, no unescaping in the engine) but in two string pools (ASCII and
//! other text, so ASCII answers stay one-byte strings), each decoded once and sliced. So are the
//! messages' texts, which the JSON would hold twice (`content` and its text part's `text`, one
//! string in JavaScript). The JSON
//! itself is ASCII (non-ASCII characters as `\u` escapes): the engine decodes and parses a
//! one-byte string several times faster than a two-byte one.

use crate::json::{escape_non_ascii, WriteJson};
use crate::state::{SettledScan, Store};
use wasm_bindgen::prelude::*;

#[wasm_bindgen(inline_js = r#"
export function awBuild(json, ascii, wide, view) {
  const list = JSON.parse(json);
  const r = view.slice();
  let p = 0, q = 0, i = 0;
  const text = (k, n) => (k === 1 ? ascii.slice(p, p += n) : wide.slice(q, q += n));
  for (const o of list) {
    const k = r[i], n = r[i + 1], m = r[i + 2];
    i += 3;
    if (k !== 0) o.content = text(k, n);
    for (const end = i + 4 * m; i < end; i += 4) {
      const msg = o.messages[r[i]], s = text(r[i + 2], r[i + 3]);
      msg.content = s;
      msg.parts[r[i + 1]].text = s;
    }
  }
  return list;
}
"#)]
extern "C" {
    /// Parses the batch's JSON array and puts each answer and message text back into its object
    /// (`recs`: per object `[kind, length, messages]`, then `[message, part, kind, length]` per
    /// message text; kind 0 none, 1 ASCII pool, 2 other pool; lengths in UTF-16 units).
    #[wasm_bindgen(js_name = awBuild)]
    fn aw_build(json: &str, ascii: &str, wide: &str, recs: &[u32]) -> js_sys::Array;
}

/// Built objects by position (tasks and artifacts are only ever appended), with the revision
/// they show.
#[derive(Default)]
pub(super) struct ObjectCache {
    tasks: Vec<Option<(u64, JsValue)>>,
    artifacts: Vec<Option<(u64, JsValue)>>,
    /// The tasks / artifacts whose object `build_finished` has not built yet.
    task_scan: SettledScan,
    artifact_scan: SettledScan,
}

/// What one [`ObjectCache::build_finished`] call did and left.
#[derive(Debug, Default, Clone, Copy)]
pub(super) struct Progress {
    /// Objects were built.
    pub built: bool,
    /// Finished entries wait for a later session to settle.
    pub settling: bool,
    /// Entries not looked at yet: another call in this session may build some.
    pub unseen: bool,
}

/// Whether the object at `i` shows revision `rev`.
fn fresh(cache: &[Option<(u64, JsValue)>], i: usize, rev: u64) -> bool {
    matches!(cache.get(i), Some(Some((r, _))) if *r == rev)
}

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
    /// The message texts (message, text part, text) taken out of the task being written.
    texts: Vec<(u32, u32, String)>,
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

    /// Puts `text` in its pool; returns its record (kind, length in UTF-16 units).
    fn pool(&mut self, text: &str) -> [u32; 2] {
        if text.is_empty() {
            [0, 0]
        } else if text.is_ascii() {
            self.ascii.push_str(text);
            [1, text.len() as u32]
        } else {
            self.wide.push_str(text);
            // UTF-16 units: one per character, two for those of four bytes.
            let units = text
                .bytes()
                .map(|b| usize::from((b as i8) >= -0x40) + usize::from(b >= 0xf0))
                .sum::<usize>();
            [2, units as u32]
        }
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
            if fresh(&self.tasks, i, slot.view.revision) {
                continue;
            }
            b.item(true, i);
            // The answer and the messages' texts go into the pools; the JSON keeps `""` in
            // their places (the objects' key order).
            let content = std::mem::take(&mut slot.view.content);
            let mut texts = std::mem::take(&mut b.texts);
            for (j, m) in slot.view.messages.iter_mut().enumerate() {
                if m.content.is_empty() {
                    continue;
                }
                if let Some(k) = m.whole_text_part() {
                    texts.push((j as u32, k as u32, std::mem::take(&mut m.content)));
                }
            }
            let start = b.json.len();
            slot.view.write_json(&mut b.json);
            escape_non_ascii(&mut b.json, start);
            let rec = b.pool(&content);
            b.recs
                .extend_from_slice(&[rec[0], rec[1], texts.len() as u32]);
            slot.view.content = content;
            for (j, k, text) in texts.drain(..) {
                let rec = b.pool(&text);
                b.recs.extend_from_slice(&[j, k, rec[0], rec[1]]);
                if let Some(m) = slot.view.messages.get_mut(j as usize) {
                    m.content = text;
                }
            }
            b.texts = texts;
            if b.bytes() > MAX_BUILD_BYTES {
                self.ship(store, &mut b);
            }
        }
        for &i in artifacts {
            let Some(slot) = store.artifacts.get(i) else {
                continue;
            };
            if fresh(&self.artifacts, i, slot.view.revision) {
                continue;
            }
            b.item(false, i);
            let start = b.json.len();
            slot.view.write_json(&mut b.json);
            escape_non_ascii(&mut b.json, start);
            b.recs.extend_from_slice(&[0, 0, 0]);
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

    /// Starts a building session: entries seen finished in an earlier session at the same
    /// revision count as settled (see [`SettledScan::tick`]).
    pub fn tick(&mut self) {
        self.task_scan.tick();
        self.artifact_scan.tick();
    }

    /// Incremental snapshots: builds (one call) the stale objects of up to `budget` finished
    /// tasks (terminal status) and finalized artifacts each that did not change since an earlier
    /// session (see [`SettledScan`]), so that reading a snapshot later only builds what is still
    /// changing. Bounded work per call. Returns whether it built anything, and what is left
    /// (entries settling, entries not looked at yet).
    pub fn build_finished(
        &mut self,
        store: &mut Store,
        budget: usize,
    ) -> Result<Progress, JsValue> {
        let cache = &self.tasks;
        let tasks = self.task_scan.next(
            store.tasks.len(),
            |i| {
                let v = &store.tasks[i].view;
                (v.revision, v.status.is_some_and(|s| s.is_terminal()))
            },
            |i, rev| fresh(cache, i, rev),
            budget,
        );
        let cache = &self.artifacts;
        let artifacts = self.artifact_scan.next(
            store.artifacts.len(),
            |i| {
                let a = &store.artifacts[i];
                (a.view.revision, a.finalized)
            },
            |i, rev| fresh(cache, i, rev),
            budget,
        );
        self.refresh(store, &tasks.build, &artifacts.build)?;
        Ok(Progress {
            built: !tasks.build.is_empty() || !artifacts.build.is_empty(),
            settling: tasks.settling || artifacts.settling,
            unseen: tasks.unseen || artifacts.unseen,
        })
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
