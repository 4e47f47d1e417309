//! The whole path from bytes to state: SSE parser → decoder/validator → store.
//!
//! [`Session`] is what a connection owns: feed it network chunks (any boundaries) and it keeps
//! the assembled [`Store`] up to date, recognising replayed SSE ids, and hands each applied
//! event to an optional observer (the browser glue uses it for filtered delivery).

mod translate;

pub use translate::{DialectHook, Observer, Translator};

use crate::dialects::{Dialect, DialectChoice, DialectDecoder};
use crate::events::{
    decode_event, AgentEvent, DiagCode, Diagnostic, EventContext, Redactor, Severity,
};
use crate::sse::{SseConfig, SseDiagnostic, SseItem, SseParser};
use crate::state::{EventMeta, Limits, Store};

/// Converts a stream-level problem into a diagnostic.
pub fn sse_diagnostic(d: &SseDiagnostic, position: u64) -> Diagnostic {
    let code = match d {
        SseDiagnostic::LineTooLong { .. } => DiagCode::SseLineTooLong,
        SseDiagnostic::EventTooLarge { .. } => DiagCode::SseEventTooLarge,
    };
    let mut diag = Diagnostic::new(code, Severity::Error, d.message(), "");
    diag.position = position;
    diag
}

/// One decoded item, as the `events` CLI and the JS decoder deliver them.
#[derive(Debug)]
pub enum Item<'a> {
    /// A valid (possibly warned-about) event with where it came from.
    Event(&'a AgentEvent<'a>, EventMeta<'a>),
    /// A problem with the stream or an event.
    Diagnostic(&'a Diagnostic),
}

/// Parses and decodes a byte stream without assembling it (for tools and the JS decoder).
#[derive(Debug)]
pub struct StreamDecoder {
    parser: SseParser,
    position: u64,
    diags: Vec<Diagnostic>,
    /// The dialect layer, when the stream is not (only) protocol 000.
    dialect: Option<Box<dyn DialectHook>>,
    /// Sensitive values removed from the `raw` text of the diagnostics handed out.
    redactor: Redactor,
}

/// Hands `item` to `on` with the sensitive values of a diagnostic's `raw` redacted.
fn redacted(redactor: &Redactor, item: Item<'_>, on: &mut dyn FnMut(Item<'_>)) {
    if let Item::Diagnostic(d) = &item {
        if let Some(std::borrow::Cow::Owned(raw)) = d.raw.as_deref().map(|r| redactor.redact(r)) {
            let mut d = (*d).clone();
            d.raw = Some(raw);
            return on(Item::Diagnostic(&d));
        }
    }
    on(item)
}

/// The diagnostic of a WebSocket frame of `bytes` bytes (or more) dropped for being over
/// `limit` (`maxEventBytes`), at stream position `pos`.
fn frame_too_large_diagnostic(bytes: usize, limit: usize, pos: u64) -> Diagnostic {
    let mut d = Diagnostic::new(
        DiagCode::FrameTooLarge,
        Severity::Error,
        format!("WebSocket frame of {bytes} bytes or more is larger than {limit} bytes: the frame was dropped"),
        "",
    );
    d.position = pos;
    d
}

impl StreamDecoder {
    /// Sets "now" (epoch ms): the time given to dialect events that carry no timestamp (the
    /// time they were received). Without it, the stream's last timestamp is reused.
    pub fn set_now_ms(&mut self, now_ms: Option<i64>) {
        if let Some(d) = self.dialect.as_deref_mut() {
            d.decoder().set_now_ms(now_ms);
        }
    }

    /// A decoder with the given SSE limits.
    pub fn new(config: SseConfig) -> Self {
        StreamDecoder {
            parser: SseParser::new(config),
            position: 0,
            diags: Vec::new(),
            dialect: None,
            redactor: Redactor::default(),
        }
    }

    /// Sets which members' values are redacted in the diagnostics' `raw` text (default
    /// [`crate::events::DEFAULT_REDACTED_KEYS`]).
    pub fn set_redactor(&mut self, redactor: Redactor) {
        self.redactor = redactor;
    }

    /// The SSE parser (last event id, retry, reset).
    pub fn parser(&mut self) -> &mut SseParser {
        &mut self.parser
    }

    /// A decoder that reads `choice` (see [`crate::dialects`]).
    pub fn with_dialect(config: SseConfig, choice: DialectChoice) -> Self {
        let mut d = StreamDecoder::new(config);
        d.dialect = match choice {
            DialectChoice::Fixed(Dialect::Canonical) => None,
            c => Some(Box::new(Translator::new(c))),
        };
        d
    }

    /// Decodes one WebSocket text frame (one event); `on` receives what it became.
    pub fn feed_frame(&mut self, text: &str, on: &mut dyn FnMut(Item<'_>)) {
        let StreamDecoder {
            position,
            diags,
            dialect,
            redactor,
            ..
        } = self;
        let on = &mut |item: Item<'_>| redacted(redactor, item, on);
        let pos = *position;
        *position += 1;
        diags.clear();
        if let Some(t) = dialect.as_deref_mut() {
            if t.decode_items(text, "", pos, diags, on) {
                return;
            }
        }
        let cx = EventContext {
            sse_type: "message",
            event_id: "",
            position: pos,
        };
        let decoded = decode_event(text, &cx, diags);
        for d in diags.iter() {
            on(Item::Diagnostic(d));
        }
        if let Some(event) = decoded {
            let meta = EventMeta {
                event_id: "",
                position: pos,
                raw: text,
            };
            on(Item::Event(&event, meta));
        }
    }

    /// The largest event (and WebSocket frame) kept, in bytes (`maxEventBytes`).
    pub fn max_event_bytes(&self) -> usize {
        self.parser.config().max_event_bytes
    }

    /// Records a dropped WebSocket frame of `bytes` bytes (or more) over `maxEventBytes`, as
    /// [`Session::frame_too_large`] does: `on` receives its `sse-event-too-large` diagnostic.
    pub fn frame_too_large(&mut self, bytes: usize, on: &mut dyn FnMut(Item<'_>)) {
        let pos = self.position;
        self.position += 1;
        on(Item::Diagnostic(&frame_too_large_diagnostic(
            bytes,
            self.max_event_bytes(),
            pos,
        )));
    }

    /// Feeds a chunk; `on` receives every event and diagnostic completed by it, in order.
    pub fn feed(&mut self, chunk: &[u8], on: &mut dyn FnMut(Item<'_>)) {
        let StreamDecoder {
            parser,
            position,
            diags,
            dialect,
            redactor,
        } = self;
        let on = &mut |item: Item<'_>| redacted(redactor, item, on);
        parser.feed(chunk, &mut |item| match item {
            SseItem::Event(ev) => {
                diags.clear();
                if let Some(t) = dialect.as_deref_mut() {
                    let pos = *position;
                    *position += 1;
                    if t.decode_items(ev.data, ev.last_event_id, pos, diags, &mut *on) {
                        return;
                    }
                    *position -= 1;
                }
                let cx = EventContext {
                    sse_type: ev.event_type,
                    event_id: ev.last_event_id,
                    position: *position,
                };
                diags.clear();
                let decoded = decode_event(ev.data, &cx, diags);
                let meta = EventMeta {
                    event_id: ev.last_event_id,
                    position: *position,
                    raw: ev.data,
                };
                *position += 1;
                for d in diags.iter() {
                    on(Item::Diagnostic(d));
                }
                if let Some(event) = decoded {
                    on(Item::Event(&event, meta));
                }
            }
            SseItem::Diagnostic(d) => on(Item::Diagnostic(&sse_diagnostic(&d, *position))),
        });
    }
}

/// Removes a dialect layer that settled on protocol 000 (`Auto` detected it): from then on
/// events take the canonical path with no dialect call at all.
fn drop_if_canonical(dialect: &mut Option<Box<dyn DialectHook>>) {
    if dialect
        .as_deref()
        .is_some_and(|t| t.dialect() == Some(Dialect::Canonical))
    {
        *dialect = None;
    }
}

/// A connection's stream state: parser, store, and replay detection.
#[derive(Debug)]
pub struct Session {
    parser: SseParser,
    store: Store,
    position: u64,
    /// The previous event's data (to recognise the same event sent twice in a row).
    prev_data: String,
    /// The data of the event that introduced the current id, once events without an id of
    /// their own followed it (else it is `prev_data`): a server that resumes inclusively sends
    /// that event again.
    id_data: String,
    /// `prev_data` is the data of the event that introduced the current id.
    id_is_prev: bool,
    diags: Vec<Diagnostic>,
    /// The dialect layer, when the stream is not (only) protocol 000.
    dialect: Option<Box<dyn DialectHook>>,
}

impl Session {
    /// A session with the given SSE and store limits.
    pub fn new(sse: SseConfig, limits: Limits) -> Self {
        Session {
            parser: SseParser::new(sse),
            store: Store::new(limits),
            position: 0,
            prev_data: String::new(),
            id_data: String::new(),
            id_is_prev: false,
            diags: Vec::new(),
            dialect: None,
        }
    }

    /// The assembled state.
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// The assembled state, mutable (answering requests, advancing the clock).
    pub fn store_mut(&mut self) -> &mut Store {
        &mut self.store
    }

    /// The SSE parser (last event id for resume, retry, reset on reconnect).
    pub fn parser(&mut self) -> &mut SseParser {
        &mut self.parser
    }

    /// A new stream starts that is not the resumption of the previous one (an A2A
    /// `message/stream` for a new task): its SSE ids are its own, so the last event id and the
    /// ids seen so far are forgotten (a server numbering each stream from 0 is not replaying).
    pub fn begin_new_stream(&mut self) {
        self.parser.reset();
        self.parser.set_last_event_id("");
        self.store.forget_event_ids();
        self.prev_data.clear();
        self.id_data.clear();
        self.id_is_prev = false;
    }

    /// Events dispatched by the parser so far (including rejected and duplicate ones).
    pub fn position(&self) -> u64 {
        self.position
    }

    /// Feeds a network chunk. Every applied event is also handed to `observe` (after it was
    /// applied), with its metadata. Diagnostics go to the store.
    pub fn feed(
        &mut self,
        chunk: &[u8],
        observe: &mut dyn FnMut(&AgentEvent<'_>, &EventMeta<'_>, &Store),
    ) {
        let Session {
            parser,
            store,
            position,
            prev_data,
            id_data,
            id_is_prev,
            diags,
            dialect,
        } = self;
        parser.feed(chunk, &mut |item| match item {
            SseItem::Event(ev) => {
                let pos = *position;
                *position += 1;
                // An event "has its own id" when the id changed: the SSE last event id persists
                // across events that carry none. (The parser knows without comparing: a long id
                // compared at every event would make many small events quadratic.)
                let own_id = ev.id_changed;
                // The same id again is either an event without an id field (it inherits the
                // id) or the event that introduced the id sent again (a server that resumes
                // inclusively): only the second has that event's very data. (The event just
                // before counts too: the same event sent twice in a row.)
                let resent = !own_id
                    && !ev.last_event_id.is_empty()
                    && (ev.data == prev_data.as_str()
                        || (!*id_is_prev && ev.data == id_data.as_str()));
                if own_id || resent {
                    *id_is_prev = true;
                } else if *id_is_prev {
                    // The first event inheriting the id: keep the introducing event's data.
                    std::mem::swap(id_data, prev_data);
                    *id_is_prev = false;
                }
                prev_data.clear();
                // Only an event under an id is compared with the next one (which inherits the
                // id, or brings its own): a stream without ids copies nothing.
                if !ev.last_event_id.is_empty() {
                    prev_data.push_str(ev.data);
                }
                if own_id && !store.admit_event_id(ev.last_event_id) {
                    return;
                }
                if resent && !store.admit_resent_event() {
                    return;
                }
                if let Some(t) = dialect.as_deref_mut() {
                    if t.handle(ev.data, ev.last_event_id, pos, store, diags, &mut *observe) {
                        return;
                    }
                    drop_if_canonical(dialect);
                }
                let cx = EventContext {
                    sse_type: ev.event_type,
                    event_id: ev.last_event_id,
                    position: pos,
                };
                let decoded = decode_event(ev.data, &cx, diags);
                for d in diags.drain(..) {
                    store.push_diagnostic(d);
                }
                if let Some(event) = decoded {
                    let meta = EventMeta {
                        event_id: ev.last_event_id,
                        position: pos,
                        raw: ev.data,
                    };
                    if store.apply(&event, &meta) {
                        observe(&event, &meta, store);
                    }
                }
            }
            SseItem::Diagnostic(d) => store.push_diagnostic(sse_diagnostic(&d, *position)),
        });
    }

    /// The largest event kept (`maxEventBytes`), also applied to a WebSocket frame.
    pub fn max_event_bytes(&self) -> usize {
        self.parser.config().max_event_bytes
    }

    /// Records a dropped WebSocket frame of `bytes` bytes (or more) over `maxEventBytes`: an
    /// `sse-event-too-large` diagnostic at the frame's position.
    pub fn frame_too_large(&mut self, bytes: usize) {
        let pos = self.position;
        self.position += 1;
        let d = frame_too_large_diagnostic(bytes, self.max_event_bytes(), pos);
        self.store.push_diagnostic(d);
    }

    /// Applies an already-parsed event object given as JSON text (manual sources).
    pub fn push_json(
        &mut self,
        data: &str,
        observe: &mut dyn FnMut(&AgentEvent<'_>, &EventMeta<'_>, &Store),
    ) {
        let pos = self.position;
        self.position += 1;
        if let Some(t) = self.dialect.as_deref_mut() {
            if t.handle(data, "", pos, &mut self.store, &mut self.diags, observe) {
                return;
            }
            drop_if_canonical(&mut self.dialect);
        }
        let cx = EventContext {
            sse_type: "message",
            event_id: "",
            position: pos,
        };
        let decoded = decode_event(data, &cx, &mut self.diags);
        for d in self.diags.drain(..) {
            self.store.push_diagnostic(d);
        }
        if let Some(event) = decoded {
            let meta = EventMeta {
                event_id: "",
                position: pos,
                raw: data,
            };
            if self.store.apply(&event, &meta) {
                observe(&event, &meta, &self.store);
            }
        }
    }

    /// A session that reads `choice` (see [`crate::dialects`]). [`Session::new`] reads
    /// protocol 000 with no dialect layer at all.
    pub fn with_dialect(sse: SseConfig, limits: Limits, choice: DialectChoice) -> Self {
        let mut s = Session::new(sse, limits);
        s.set_dialect(choice);
        s
    }

    /// Takes `dialect` when the session reads `Auto` and no event has told yet (a response
    /// header named it); `false` when the dialect is already known or chosen.
    pub fn adopt_dialect(&mut self, dialect: Dialect) -> bool {
        let undecided = matches!(&self.dialect, Some(t) if t.dialect().is_none());
        if undecided && dialect.is_available() {
            self.set_dialect(DialectChoice::Fixed(dialect));
        }
        undecided
    }

    /// Chooses the dialect (`Fixed(Canonical)` removes the dialect layer).
    pub fn set_dialect(&mut self, choice: DialectChoice) {
        self.dialect = match choice {
            DialectChoice::Fixed(Dialect::Canonical) => None,
            c => {
                let mut t = Translator::new(c);
                t.decoder
                    .set_dedupe_window(self.store.limits().dedupe_window);
                Some(Box::new(t))
            }
        };
    }

    /// The dialect being read: `Canonical` without a dialect layer, `None` while `Auto` has
    /// not seen a telling event.
    pub fn dialect(&self) -> Option<Dialect> {
        match &self.dialect {
            None => Some(Dialect::Canonical),
            Some(t) => t.dialect(),
        }
    }

    /// Sets "now" (epoch ms) for dialect events that carry no timestamp (the browser passes
    /// `Date.now()` before each chunk). Returns `false` when there is no dialect layer (protocol
    /// 000, or `Auto` settled on it): then the clock is not needed.
    pub fn set_now_ms(&mut self, now_ms: Option<i64>) -> bool {
        match self.dialect.as_deref_mut() {
            Some(t) => {
                t.decoder().set_now_ms(now_ms);
                true
            }
            None => false,
        }
    }

    /// The dialect decoder and the store, to build what the client sends
    /// ([`crate::dialects::respond`]). `None` without a dialect layer.
    pub fn dialect_parts(&mut self) -> Option<(&mut DialectDecoder, &Store)> {
        let t = self.dialect.as_deref_mut()?;
        Some((t.decoder(), &self.store))
    }

    /// Feeds one WebSocket text frame: one event (MyAgent; any dialect, or protocol 000).
    pub fn feed_frame(
        &mut self,
        text: &str,
        observe: &mut dyn FnMut(&AgentEvent<'_>, &EventMeta<'_>, &Store),
    ) {
        self.push_json(text, observe)
    }

    /// The canonical events that close request `id` (input or auth) the client answered in the
    /// dialect's own way (`input-received` / `auth-completed`, for MyAgent also the turn's return
    /// to `working`); the dialect stops tracking it as open. The caller applies them like any
    /// event (the browser pushes them through its store so that handlers see them). Empty when
    /// the dialect does not track `id` as open. [`Session::mark_answered`] does both at once.
    pub fn take_answered(&mut self, id: &str) -> Vec<String> {
        let Some(t) = self.dialect.as_deref_mut() else {
            return Vec::new();
        };
        let (task, ctx, is_auth) = if let Some(r) = self.store.input(id) {
            (r.task_id.clone(), r.context_id.clone(), false)
        } else if let Some(r) = self.store.auth(id) {
            (r.task_id.clone(), r.context_id.clone(), true)
        } else {
            return Vec::new();
        };
        t.decoder().answered(id, &task, &ctx, is_auth)
    }

    /// Records that the client answered request `id` (input or auth) in the dialect's own way:
    /// applies the `input-received` / `auth-completed` its server does not send. Call it once
    /// the answer was sent. `false` when the dialect does not track `id` as open.
    pub fn mark_answered(
        &mut self,
        id: &str,
        observe: &mut dyn FnMut(&AgentEvent<'_>, &EventMeta<'_>, &Store),
    ) -> bool {
        match self.dialect.as_deref_mut() {
            Some(t) => {
                t.mark_answered(id, self.position, &mut self.store, &mut self.diags, observe)
            }
            None => false,
        }
    }

    /// End of the stream (a connection closed): discards an unterminated event and reports
    /// chunks that never arrived.
    pub fn finish(&mut self) {
        self.parser.finish();
        self.store.finish();
    }
}
