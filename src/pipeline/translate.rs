//! Applying what a dialect event became to a store: the piece a [`super::Session`]
//! plugs in when it is not reading protocol 000 (the pipeline drives the dialects, never the
//! other way round).

use super::Item;
use crate::dialects::{Dialect, DialectChoice, DialectDecoder, Output, Route, Step};
use crate::events::{bounded_raw, decode_event, AgentEvent, Diagnostic, EventContext};
use crate::state::{EventMeta, Store};

/// A dialect decoder with its reusable output buffer.
#[derive(Debug, Default)]
pub struct Translator {
    /// The decoder (request builders reach its per-dialect state through it).
    pub decoder: DialectDecoder,
    out: Output,
}

/// What receives each applied event (the session's observer).
pub type Observer<'o> = dyn FnMut(&AgentEvent<'_>, &EventMeta<'_>, &Store) + 'o;

/// The dialect layer as a session sees it. A trait object: a build whose embedder never
/// chooses a dialect links none of the dialect code (the session only holds an
/// `Option<Box<dyn DialectHook>>`, and only [`Translator::new`] makes one).
pub trait DialectHook {
    /// Decodes one event's data and, unless it is a canonical event (then `false`: the
    /// caller decodes it as usual), applies what it became to `store`.
    fn handle(
        &mut self,
        data: &str,
        event_id: &str,
        position: u64,
        store: &mut Store,
        diags: &mut Vec<Diagnostic>,
        observe: &mut Observer<'_>,
    ) -> bool;

    /// Like [`DialectHook::handle`] without a store (the stateless `StreamDecoder`): `on`
    /// receives the diagnostics and decoded events; resets are not delivered (the events say
    /// `append: false` in their metadata).
    fn decode_items(
        &mut self,
        data: &str,
        event_id: &str,
        position: u64,
        diags: &mut Vec<Diagnostic>,
        on: &mut dyn FnMut(Item<'_>),
    ) -> bool;

    /// Applies the `input-received` / `auth-completed` for request `id` the client answered
    /// (see [`crate::pipeline::Session::mark_answered`]).
    fn mark_answered(
        &mut self,
        id: &str,
        position: u64,
        store: &mut Store,
        diags: &mut Vec<Diagnostic>,
        observe: &mut Observer<'_>,
    ) -> bool;

    /// The decoder (per-dialect state for building requests).
    fn decoder(&mut self) -> &mut DialectDecoder;

    /// The dialect in use (`None` while `Auto` waits for a telling event).
    fn dialect(&self) -> Option<Dialect>;
}

/// Names the dialect only: a derived `Debug` would put every decoder's `Debug` code in the
/// wasm through the trait object's vtable.
impl std::fmt::Debug for dyn DialectHook {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let name = self.dialect().map_or("undetected", Dialect::as_str);
        write!(f, "DialectHook({name})")
    }
}

impl Translator {
    /// A translator for `choice`.
    pub fn new(choice: DialectChoice) -> Self {
        Translator {
            decoder: DialectDecoder::new(choice),
            out: Output::default(),
        }
    }
}

impl DialectHook for Translator {
    fn handle(
        &mut self,
        data: &str,
        event_id: &str,
        position: u64,
        store: &mut Store,
        diags: &mut Vec<Diagnostic>,
        observe: &mut Observer<'_>,
    ) -> bool {
        // What needs no JSON text in between (see `DialectDecoder::direct`).
        let mut iso = [0; 24];
        let meta = EventMeta {
            event_id,
            position,
            raw: data,
        };
        let mut each = |ev: &AgentEvent<'_>| apply_event(ev, &meta, store, observe);
        if self.decoder.direct(data, &mut iso, &mut each) {
            return true;
        }
        match self.decoder.decode(data, event_id, position, &mut self.out) {
            Route::Canonical => false,
            Route::Translated => {
                apply(
                    &mut self.out,
                    data,
                    event_id,
                    position,
                    store,
                    diags,
                    observe,
                );
                true
            }
        }
    }

    fn decode_items(
        &mut self,
        data: &str,
        event_id: &str,
        position: u64,
        diags: &mut Vec<Diagnostic>,
        on: &mut dyn FnMut(Item<'_>),
    ) -> bool {
        if self.decoder.decode(data, event_id, position, &mut self.out) == Route::Canonical {
            return false;
        }
        if self.out.duplicate {
            return true;
        }
        let seq_text = self.out.seq.map(|s| s.to_string());
        let event_id = match &seq_text {
            Some(s) if event_id.is_empty() => s.as_str(),
            _ => event_id,
        };
        for d in self.out.diagnostics.iter_mut() {
            if d.event_id.is_none() && !event_id.is_empty() {
                d.event_id = Some(crate::events::bounded_field(event_id));
            }
            on(Item::Diagnostic(d));
        }
        let cx = EventContext {
            sse_type: "message",
            event_id,
            position,
        };
        for step in self.out.steps.iter() {
            if let Step::MessageDelta(i) = step {
                // The event its JSON text decodes to, with no diagnostic (see `Step`).
                if let Some(parts) = self.out.deltas.get(*i) {
                    let meta = EventMeta {
                        event_id,
                        position,
                        raw: data,
                    };
                    on(Item::Event(&parts.event(), meta));
                }
                continue;
            }
            let Step::Event(json) = step else { continue };
            diags.clear();
            let decoded = decode_event(json, &cx, diags);
            for d in diags.iter_mut() {
                d.raw = Some(bounded_raw(data));
                on(Item::Diagnostic(d));
            }
            if let Some(ev) = decoded {
                let meta = EventMeta {
                    event_id,
                    position,
                    raw: data,
                };
                on(Item::Event(&ev, meta));
            }
        }
        true
    }

    fn mark_answered(
        &mut self,
        id: &str,
        position: u64,
        store: &mut Store,
        diags: &mut Vec<Diagnostic>,
        observe: &mut Observer<'_>,
    ) -> bool {
        let (task, ctx, is_auth) = if let Some(r) = store.input(id) {
            (r.task_id.clone(), r.context_id.clone(), false)
        } else if let Some(r) = store.auth(id) {
            (r.task_id.clone(), r.context_id.clone(), true)
        } else {
            return false;
        };
        let events = self.decoder.answered(id, &task, &ctx, is_auth);
        if events.is_empty() {
            return false;
        }
        self.out.clear();
        self.out.steps.extend(events.into_iter().map(Step::Event));
        apply(&mut self.out, "", "", position, store, diags, observe);
        true
    }

    fn decoder(&mut self) -> &mut DialectDecoder {
        &mut self.decoder
    }

    fn dialect(&self) -> Option<Dialect> {
        self.decoder.dialect()
    }
}

/// Applies `out` (diagnostics first, then the steps in order). `raw` is the dialect event's
/// data: diagnostics quote it and the raw log keeps it.
fn apply(
    out: &mut Output,
    raw: &str,
    event_id: &str,
    position: u64,
    store: &mut Store,
    diags: &mut Vec<Diagnostic>,
    observe: &mut Observer<'_>,
) {
    // A replay recognised by the event's identity in its protocol (no SSE id, no seq).
    if out.duplicate && out.seq.is_none() {
        store.admit_resent_event();
        return;
    }
    let seq_text;
    let mut event_id = event_id;
    if let Some(seq) = out.seq {
        seq_text = seq.to_string();
        if event_id.is_empty() {
            event_id = &seq_text;
        }
        // The store remembers seqs per session of the connection (they restart with each).
        let admitted = if out.seq_scope == 0 {
            store.admit_event_id(&seq_text)
        } else {
            store.admit_event_id(&format!("{}:{seq}", out.seq_scope))
        };
        if !admitted || out.duplicate {
            return;
        }
    }
    for mut d in out.diagnostics.drain(..) {
        if d.event_id.is_none() && !event_id.is_empty() {
            d.event_id = Some(crate::events::bounded_field(event_id));
        }
        store.push_diagnostic(d);
    }
    let cx = EventContext {
        sse_type: "message",
        event_id,
        position,
    };
    let Output { steps, deltas, .. } = out;
    for step in steps.drain(..) {
        let json: String;
        let ev = match step {
            // The event its JSON text decodes to, with no diagnostic (see `Step`).
            Step::MessageDelta(i) => {
                let Some(parts) = deltas.get(i) else { continue };
                json = if raw.is_empty() {
                    parts.json()
                } else {
                    String::new()
                };
                parts.event()
            }
            Step::Event(j) => {
                json = j;
                let decoded = decode_event(&json, &cx, diags);
                for mut d in diags.drain(..) {
                    if !raw.is_empty() {
                        d.raw = Some(bounded_raw(raw));
                    }
                    store.push_diagnostic(d);
                }
                let Some(ev) = decoded else { continue };
                ev
            }
            Step::ResetContent(task) => {
                store.reset_content(&task);
                continue;
            }
            Step::ResetArtifact(id) => {
                store.reset_artifact(&id);
                continue;
            }
            Step::ExpireInput(id) => {
                store.expire_input(&id);
                continue;
            }
        };
        let meta = EventMeta {
            event_id,
            position,
            raw: if raw.is_empty() { &json } else { raw },
        };
        apply_event(&ev, &meta, store, observe);
    }
}

/// Applies one event and hands it to the observer when it changed something (one copy of
/// this for every way a dialect event reaches the store).
#[inline(never)]
fn apply_event(
    ev: &AgentEvent<'_>,
    meta: &EventMeta<'_>,
    store: &mut Store,
    observe: &mut Observer<'_>,
) {
    if store.apply(ev, meta) {
        observe(ev, meta, store);
    }
}
