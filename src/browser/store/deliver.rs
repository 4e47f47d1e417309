//! Per-event delivery to JavaScript handlers, batched per `feed()`.
//!
//! Each handler's filter is compiled to a bit set over the event kinds, so an event that no
//! handler wants costs one AND and is never written out. The events a handler does want are
//! collected into one [`Batch`] per update, which crosses into JavaScript in ONE call
//! (`awDeliver`): a record array (kind tag, numbers, string lengths, target handler slots),
//! one string pool (decoded once) and one JSON array (parsed once) for the kinds without a
//! typed fast path. `content-delta` (about 90 % of a typical stream) is built in JavaScript
//! as an object literal from the pool, with its `contextId`/`taskId` strings shared within the
//! batch; every other kind comes from the JSON array. Both give the same plain objects, with
//! the same fields in the same order, as the event's JSON (`AgentEvent.write_json`).
//!
//! Handler functions live in one JS array (`fns`) indexed by slot; removing a handler clears
//! its slot, so a batch being delivered skips handlers removed by an earlier handler.

use crate::events::{AgentEvent, KINDS};
use crate::filter::{kind_matches, match_kind, names_unknown, EventFilter};
use crate::state::Store;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(inline_js = r#"
export function awDeliver(view, text, wide, json, jsonWide, fns) {
  const r = view.slice();
  const list = json.length === 0 ? undefined : JSON.parse(json);
  const listWide = jsonWide.length === 0 ? undefined : JSON.parse(jsonWide);
  const strs = [];
  const n = r.length;
  let i = 0, p = 0, q = 0, j = 0, k = 0, err;
  while (i < n) {
    const tag = r[i++];
    let ev;
    if (tag === 1) {
      const c = strs[r[i]], t = strs[r[i + 1]], d = r[i + 2], x = r[i + 3], s = r[i + 4];
      i += 5;
      ev = { kind: "content-delta", contextId: c, taskId: t, delta: text.slice(p, p += d), index: x, timestamp: text.slice(p, p += s) };
    } else if (tag === 3) {
      const c = strs[r[i]], t = strs[r[i + 1]], d = r[i + 2], x = r[i + 3], s = r[i + 4];
      i += 5;
      ev = { kind: "content-delta", contextId: c, taskId: t, delta: wide.slice(q, q += d), index: x, timestamp: text.slice(p, p += s) };
    } else if (tag === 0) {
      ev = list[j++];
    } else if (tag === 4) {
      ev = listWide[k++];
    } else {
      strs.push(text.slice(p, p += r[i++]));
      continue;
    }
    const end = i + 1 + r[i];
    for (i++; i < end; i++) {
      const f = fns[r[i]];
      if (f !== undefined) {
        try { f(ev); } catch (e) { if (err === undefined) err = [e]; }
      }
    }
  }
  return err;
}
"#)]
extern "C" {
    /// Builds the batch's events and calls their handlers; returns `[firstError]` or undefined.
    #[wasm_bindgen(js_name = awDeliver)]
    fn aw_deliver(
        recs: &[u32],
        text: &str,
        wide: &str,
        json: &str,
        json_wide: &str,
        fns: &js_sys::Array,
    ) -> JsValue;
}

/// The next event is the next element of the JSON array.
const TAG_JSON: u32 = 0;
/// `content-delta` with its delta and timestamp in the ASCII pool.
const TAG_DELTA: u32 = 1;
/// A string of the batch's table: ids shared by the events after it.
const TAG_STR: u32 = 2;
/// `content-delta` whose delta has non-ASCII text (in the `wide` pool).
const TAG_DELTA_WIDE: u32 = 3;
/// The next event is the next element of the JSON array with non-ASCII text.
const TAG_JSON_WIDE: u32 = 4;

/// The bit of events whose kind this version does not know (matched by their kind string).
const UNKNOWN_BIT: u64 = 1 << 63;
const _: () = assert!(KINDS.len() < 63, "one bit per kind, plus the unknown bit");

/// The kind bit of an event.
fn kind_bit(ev: &AgentEvent<'_>) -> u64 {
    ev.kind_index().map_or(UNKNOWN_BIT, |i| 1 << i)
}

/// What a handler receives.
pub(super) enum HandlerFilter {
    /// `on(pattern)`: an exact kind, a group such as `tool-*`, or `*` (internal events only
    /// when the pattern names them).
    Kind(String),
    /// `subscribeEvents(filter)` and the iterators.
    Full(Box<EventFilter>),
}

impl HandlerFilter {
    fn kind_passes(&self, kind: &str) -> bool {
        match self {
            HandlerFilter::Kind(p) => {
                kind_matches(p, kind)
                    && (!kind.starts_with("internal:") || p.starts_with("internal:") || p == kind)
            }
            HandlerFilter::Full(f) => f.passes_kind(kind),
        }
    }

    fn matches(&self, ev: &AgentEvent<'_>, store: &Store) -> bool {
        match self {
            HandlerFilter::Kind(p) => self.kind_passes(match_kind(ev)) || names_unknown(p, ev),
            HandlerFilter::Full(f) => f.matches(ev, store),
        }
    }
}

/// Where a handler's events go.
pub(super) enum Target {
    /// A JS function, at this index of the `fns` array.
    Js(u32, js_sys::Function),
    /// The store's sink (Worker mode: events cross to the page as JSON), under this id.
    Sink(u32),
}

/// Events for sink handlers (Worker mode) until the Worker takes them: the elements of the
/// batch's `e` array, comma-separated, in runs: a list of sink ids, then every event those
/// subscriptions get (`[1,2],{…},{…},[2],{…}`). An id list starts a run; events are objects.
/// Runs keep the page from parsing two arrays per event (a `[[ids],event]` pair each): with
/// one subscription, a batch of a thousand events has one id list.
#[derive(Default)]
pub(crate) struct Sink {
    text: String,
    /// The ids of the run `text` ends with (empty: none yet).
    ids: Vec<u32>,
}

impl Sink {
    /// Bytes waiting to be taken.
    pub fn len(&self) -> usize {
        self.text.len()
    }

    #[cfg(feature = "worker")]
    /// The elements so far (no brackets); the next event starts a new run.
    pub fn take(&mut self) -> String {
        self.ids.clear();
        std::mem::take(&mut self.text)
    }

    /// Drops everything (the store closed).
    pub fn clear(&mut self) {
        self.ids.clear();
        self.text.clear();
    }

    /// Appends `ev` for the subscriptions `ids` (not empty), starting a run when they differ
    /// from the last event's.
    fn push(&mut self, ids: &[u32], ev: &AgentEvent<'_>) {
        if !self.text.is_empty() {
            self.text.push(',');
        }
        if self.ids != ids {
            self.text.push('[');
            for (i, id) in ids.iter().enumerate() {
                if i > 0 {
                    self.text.push(',');
                }
                self.text.push_str(&id.to_string());
            }
            self.text.push_str("],");
            self.ids.clear();
            self.ids.extend_from_slice(ids);
        }
        ev.write_json(&mut self.text);
    }
}

/// A registered event handler.
pub(super) struct Handler {
    pub id: u32,
    pub target: Target,
    /// Kinds it can receive (one bit per [`KINDS`] entry, plus [`UNKNOWN_BIT`]).
    pub mask: u64,
    /// The mask alone decides for known kinds (no task/context/thought/input condition).
    pub exact: bool,
    pub filter: HandlerFilter,
}

impl Handler {
    pub fn new(id: u32, target: Target, filter: HandlerFilter) -> Self {
        let mut mask = UNKNOWN_BIT;
        for (i, k) in KINDS.iter().enumerate() {
            if filter.kind_passes(k) {
                mask |= 1 << i;
            }
        }
        let exact = match &filter {
            HandlerFilter::Kind(_) => true,
            HandlerFilter::Full(f) => f.is_kind_only(),
        };
        Handler {
            id,
            target,
            mask,
            exact,
            filter,
        }
    }

    fn wants(&self, bit: u64, ev: &AgentEvent<'_>, store: &Store) -> bool {
        self.mask & bit != 0
            && ((self.exact && bit != UNKNOWN_BIT) || self.filter.matches(ev, store))
    }
}

/// The events of one update on their way to JavaScript.
#[derive(Default)]
pub(super) struct Batch {
    recs: Vec<u32>,
    /// ASCII strings (ids, timestamps, ASCII deltas): decoded to a one-byte JS string.
    text: String,
    /// Deltas with non-ASCII text (kept apart so that `text` stays one-byte in JS).
    wide: String,
    /// Events as JSON, ASCII only (a one-byte string in JS: faster to decode and parse).
    json: String,
    /// Events as JSON with non-ASCII text.
    json_wide: String,
    /// One event's JSON before it goes to `json` or `json_wide`.
    scratch: String,
    /// Strings already in the pool in this batch: (byte range in `text`, string number).
    interned: Vec<(u32, u32, u32)>,
    /// Per role (context id, task id): the `interned` entry it matched last.
    hints: [usize; 2],
    strings: u32,
    targets: Vec<u32>,
    sink_targets: Vec<u32>,
}

/// UTF-16 length (what JavaScript's `slice` counts).
fn utf16_len(s: &str) -> usize {
    if s.is_ascii() {
        s.len()
    } else {
        s.chars().map(char::len_utf16).sum()
    }
}

impl Batch {
    pub fn is_empty(&self) -> bool {
        self.recs.is_empty()
    }

    pub fn clear(&mut self) {
        self.recs.clear();
        self.text.clear();
        self.wide.clear();
        self.json.clear();
        self.json_wide.clear();
        self.interned.clear();
        self.strings = 0;
    }

    /// The number of ASCII string `s` in this batch's table, adding it if new. `role` (0:
    /// context id, 1: task id) picks the entry tried first: the one this role used last.
    fn intern(&mut self, s: &str, role: usize) -> u32 {
        let text = self.text.as_bytes();
        let same = |&(a, b, _): &(u32, u32, u32)| &text[a as usize..b as usize] == s.as_bytes();
        if let Some(e) = self.interned.get(self.hints[role]).filter(|e| same(e)) {
            return e.2;
        }
        if let Some(i) = self.interned.iter().rposition(same) {
            self.hints[role] = i;
            return self.interned[i].2;
        }
        let n = self.strings;
        self.strings += 1;
        let a = self.text.len();
        self.text.push_str(s);
        self.recs.push(TAG_STR);
        self.recs.push(s.len() as u32);
        if self.interned.len() == 8 {
            self.interned.remove(0);
        }
        self.interned.push((a as u32, self.text.len() as u32, n));
        self.hints[role] = self.interned.len() - 1;
        n
    }

    /// Adds `ev` for every handler that wants it (nothing when none does). Events for sink
    /// handlers go to `sink` (see [`Sink`]).
    pub fn collect(
        &mut self,
        handlers: &[Handler],
        any_mask: u64,
        ev: &AgentEvent<'_>,
        store: &Store,
        sink: &mut Sink,
    ) {
        let bit = kind_bit(ev);
        if any_mask & bit == 0 {
            return;
        }
        self.targets.clear();
        self.sink_targets.clear();
        for h in handlers {
            if h.wants(bit, ev, store) {
                match &h.target {
                    Target::Js(slot, _) => self.targets.push(*slot),
                    Target::Sink(id) => self.sink_targets.push(*id),
                }
            }
        }
        if !self.sink_targets.is_empty() {
            sink.push(&self.sink_targets, ev);
        }
        if self.targets.is_empty() {
            return;
        }
        match ev {
            AgentEvent::ContentDelta(d)
                if d.extra.is_empty()
                    && d.index <= u32::MAX as u64
                    && d.context_id.is_ascii()
                    && d.task_id.is_ascii()
                    && d.timestamp.is_ascii() =>
            {
                let c = self.intern(&d.context_id, 0);
                let t = self.intern(&d.task_id, 1);
                let tag = if d.delta.is_ascii() {
                    self.text.push_str(&d.delta);
                    TAG_DELTA
                } else {
                    self.wide.push_str(&d.delta);
                    TAG_DELTA_WIDE
                };
                self.text.push_str(&d.timestamp);
                self.recs.extend_from_slice(&[
                    tag,
                    c,
                    t,
                    utf16_len(&d.delta) as u32,
                    d.index as u32,
                    d.timestamp.len() as u32,
                ]);
            }
            other => {
                self.scratch.clear();
                other.write_json(&mut self.scratch);
                let (out, tag) = if self.scratch.is_ascii() {
                    (&mut self.json, TAG_JSON)
                } else {
                    (&mut self.json_wide, TAG_JSON_WIDE)
                };
                out.push(if out.is_empty() { '[' } else { ',' });
                out.push_str(&self.scratch);
                self.recs.push(tag);
            }
        }
        self.recs.push(self.targets.len() as u32);
        self.recs.extend_from_slice(&self.targets);
    }

    /// Delivers the batch: one call into JavaScript. Returns the first handler exception.
    pub fn deliver(&mut self, fns: &js_sys::Array) -> Option<JsValue> {
        for json in [&mut self.json, &mut self.json_wide] {
            if !json.is_empty() {
                json.push(']');
            }
        }
        let r = aw_deliver(
            &self.recs,
            &self.text,
            &self.wide,
            &self.json,
            &self.json_wide,
            fns,
        );
        if r.is_undefined() {
            None
        } else {
            Some(js_sys::Array::from(&r).get(0))
        }
    }
}
