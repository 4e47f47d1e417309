//! Artifacts and their parts: `artifact-update` events and the artifacts of `task` snapshots.
//!
//! One A2A artifact becomes one or more canonical artifacts, so that no part is lost:
//!
//! | parts of the A2A artifact `a` | canonical artifacts |
//! |---|---|
//! | text parts | one text: the task's answer (`content-delta`) when `a` is the task's first text artifact, else a text file (`text/plain`, utf-8); text parts are appended in order |
//! | the 1st, 2nd, … file part of an update | the files `a` (or `a#file` when `a` began with another kind), `a#file-2`, `a#file-3`, … |
//! | the 1st, 2nd, … data part of an update | the data artifacts `a` (or `a#data`), `a#data-2`, … (each update a new version) |
//!
//! A file part given by bytes is a chunk: an appended update's n-th file part continues the
//! n-th file while that file is open (seed 001's chunked files). A file given by URL is complete
//! at once (`url` on the artifact, no bytes), and a part for a file that is already complete
//! starts the next file instead of being dropped. `append: false` on a known artifact replaces
//! it (the store forgets the old content); nothing is appended after `lastChunk: true`.

use super::parts::{self, fingerprint, Part, PartError, PartKind};
use super::{A2aDecoder, ArtTrack, At, Primary, Target};
use crate::dialects::emit::{get, get_bool, get_str, members, Fnv, Obj, Sink, Step};
use crate::events::DiagCode;
use crate::json::Value;

/// The canonical id of slot `n` (0-based) of kind `kind` of A2A artifact `art_id`.
fn slot_id(art_id: &str, primary: PartKind, kind: PartKind, n: usize) -> String {
    match (n, kind == primary) {
        (0, true) => art_id.to_owned(),
        (0, false) => format!("{art_id}#{}", kind.as_str()),
        _ => format!("{art_id}#{}-{}", kind.as_str(), n + 1),
    }
}

impl A2aDecoder {
    /// Ends every file artifact of `task` that never got its last chunk (the store refuses
    /// chunks once the task has ended, and reports files that never end).
    pub(super) fn close_open_files(&mut self, task: &str, at: &At, sink: &mut Sink<'_>) {
        for (_, art) in self.arts.iter_mut() {
            if art.task_id == task && art.target == Target::File && !art.closed {
                art.closed = true;
                let mut e = Obj::event("file-write", &art.context_id, task);
                e.str("artifactId", &art.id)
                    .str("data", "")
                    .num("index", art.next as f64)
                    .bool("complete", true)
                    .str("timestamp", &at.ts);
                e.raw("metadata", r#"{"a2a":{"closedByTaskEnd":true}}"#);
                art.next += 1;
                sink.event(e.finish());
            }
        }
    }

    pub(super) fn artifact_update(&mut self, ev: &Value<'_>, at: &At, sink: &mut Sink<'_>) {
        let ids = self.required_ids(ev, "taskId", at, sink);
        let artifact = ev.get("artifact").filter(|a| a.as_object().is_some());
        if artifact.is_none() {
            sink.require_error(Some(ev), "artifact", "object", &at.path(".artifact"));
        }
        let (Some((task, ctx)), Some(artifact)) = (ids, artifact) else {
            return;
        };
        let append = get_bool(Some(ev), "append").unwrap_or(false);
        let last = get_bool(Some(ev), "lastChunk").unwrap_or(false);
        for key in ["append", "lastChunk"] {
            if ev
                .get(key)
                .is_some_and(|x| x.as_bool().is_none() && !x.is_null())
            {
                sink.require_warn(Some(ev), key, "boolean", &at.path(&format!(".{key}")));
            }
        }
        self.ensure_task(task, ctx, at, None, sink);
        let mut flags = Obj::new();
        flags.bool("append", append).bool("lastChunk", last);
        flags.opt_value("metadata", get(Some(ev), "metadata"));
        let path = at.path(".artifact");
        let update = Update {
            task,
            ctx,
            artifact,
            append,
            last,
            path: &path,
        };
        self.apply_artifact(&update, flags, at, sink);
    }

    /// An artifact of a `task` snapshot: new → applied whole; unchanged → skipped; changed →
    /// replaces the old one.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn snapshot_artifact(
        &mut self,
        task: &str,
        ctx: &str,
        art: &Value<'_>,
        terminal: bool,
        path: &str,
        at: &At,
        sink: &mut Sink<'_>,
    ) {
        if art.as_object().is_none() {
            sink.warn(
                DiagCode::InvalidType,
                format!("artifact: expected object, found {}", art.type_name()),
                path,
            );
            return;
        }
        if let (Some(id), Some(parts)) = (
            get_str(Some(art), "artifactId"),
            get(Some(art), "parts").and_then(Value::as_array),
        ) {
            let scoped = self.scoped_id(id, task);
            if let Some(p) = self.primary.get(&scoped) {
                let mut now = Fnv::default();
                for part in parts {
                    fingerprint(&mut now, part);
                }
                if now == p.fp {
                    return;
                }
            }
        }
        let mut flags = Obj::new();
        flags
            .bool("append", false)
            .bool("lastChunk", terminal)
            .bool("snapshot", true);
        let update = Update {
            task,
            ctx,
            artifact: art,
            append: false,
            last: terminal,
            path,
        };
        self.apply_artifact(&update, flags, at, sink);
    }

    /// Artifact ids are unique within their task: another task's artifact of the same id (the
    /// next turn's "answer") is an artifact of its own, `<artifactId>@<taskId>`.
    fn scoped_id(&self, art_id: &str, task: &str) -> String {
        match self.arts.get(art_id) {
            Some(a) if a.task_id != task => format!("{art_id}@{task}"),
            _ => art_id.to_owned(),
        }
    }

    /// The parts of an artifact that can be read, each with its index; the others are
    /// diagnostics (never dropped silently).
    fn readable_parts<'v, 'a>(
        parts: &'v [Value<'a>],
        path: &str,
        sink: &mut Sink<'_>,
    ) -> Vec<(usize, Part<'v, 'a>, &'v Value<'a>)> {
        let mut good = Vec::with_capacity(parts.len());
        for (i, p) in parts.iter().enumerate() {
            let ppath = format!("{path}.parts[{i}]");
            match parts::read(p) {
                Ok(part) => good.push((i, part, p)),
                Err(PartError::UnknownKind(k)) => sink.warn(
                    DiagCode::InvalidEnum,
                    format!(
                        "{} is not one of text, file, data (part ignored)",
                        crate::json::Quoted(k)
                    ),
                    &format!("{ppath}.kind"),
                ),
                Err(PartError::NoKind) if p.get("kind").is_some() || p.as_object().is_none() => {
                    sink.require_warn(Some(p), "kind", "string", &format!("{ppath}.kind"))
                }
                Err(PartError::NoKind) => sink.warn(
                    DiagCode::MissingField,
                    "a part with none of kind, text, raw, url, data (part ignored)".to_owned(),
                    &ppath,
                ),
                Err(PartError::NoContent(key, what)) => sink.warn(
                    DiagCode::MissingField,
                    format!("{what} (part ignored)"),
                    &format!("{ppath}.{key}"),
                ),
            }
        }
        good
    }

    pub(super) fn apply_artifact(
        &mut self,
        u: &Update<'_, '_, '_>,
        flags: Obj,
        at: &At,
        sink: &mut Sink<'_>,
    ) {
        let (task, ctx, artifact, path) = (u.task, u.ctx, u.artifact, u.path);
        let Some(wire_id) = get_str(Some(artifact), "artifactId") else {
            sink.require_error(
                Some(artifact),
                "artifactId",
                "string",
                &format!("{path}.artifactId"),
            );
            return;
        };
        let Some(parts) = artifact.get("parts").and_then(Value::as_array) else {
            sink.require_error(Some(artifact), "parts", "array", &format!("{path}.parts"));
            return;
        };
        let art_id = self.scoped_id(wire_id, task);
        let art_id = art_id.as_str();
        let good = Self::readable_parts(parts, path, sink);
        // The A2A artifact's first part decides which canonical artifact keeps its id.
        if !self.primary.contains(art_id) {
            let Some(first) = good.first() else {
                if u.append {
                    sink.warn(
                        DiagCode::UnknownArtifact,
                        format!("append to artifact {art_id} which was never started, with no parts: ignored"),
                        &format!("{path}.artifactId"),
                    );
                }
                return;
            };
            if u.append {
                sink.warn(
                    DiagCode::UnknownArtifact,
                    format!("append to artifact {art_id} which was never started: taken as its first chunk"),
                    &format!("{path}.artifactId"),
                );
            }
            self.primary.insert(
                art_id,
                Primary {
                    kind: first.1.kind,
                    fp: Fnv::default(),
                    slots: Vec::new(),
                },
            );
        } else if !u.append {
            // A replacement: every canonical artifact of this A2A artifact starts over.
            self.replace(art_id, sink);
        } else if self.all_closed(art_id) {
            sink.warn(
                DiagCode::ChunkAfterComplete,
                format!("append to artifact {art_id} after its lastChunk: ignored"),
                &format!("{path}.artifactId"),
            );
            return;
        }
        let primary = self.primary.get(art_id).map_or(PartKind::Text, |p| p.kind);
        if let Some(p) = self.primary.get_mut(art_id) {
            for (_, _, raw) in &good {
                fingerprint(&mut p.fp, raw);
            }
        }
        // Which canonical artifact each part goes to.
        let mut targets: Vec<String> = Vec::with_capacity(good.len());
        let mut next_slot = [0usize; 3];
        for (_, part, _) in &good {
            let k = part.kind as usize;
            let id = if part.kind == PartKind::Text {
                slot_id(art_id, primary, PartKind::Text, 0)
            } else {
                loop {
                    let n = next_slot[k];
                    next_slot[k] += 1;
                    let id = slot_id(art_id, primary, part.kind, n);
                    let full = part.kind == PartKind::File
                        && self.arts.get(&id).is_some_and(|a| a.closed)
                        && !targets.contains(&id);
                    if !full {
                        break id;
                    }
                }
            };
            targets.push(id);
        }
        let flags = flags.finish();
        for (j, ((i, part, _), id)) in good.iter().zip(&targets).enumerate() {
            // The final chunk goes on the last part for its canonical artifact; a URL is whole.
            let later_same = targets[j + 1..].contains(id);
            let is_last = (u.last && !later_same) || part.url.is_some() && part.bytes.is_none();
            self.track(id, task, ctx, part.kind);
            if let Some(p) = self.primary.get_mut(art_id) {
                if !p.slots.contains(id) {
                    p.slots.push(id.clone());
                }
            }
            let mut a2a = Obj::new();
            a2a.str("artifactId", wire_id)
                .num("part", *i as f64)
                .raw("chunk", &flags);
            let first = self.arts.get(id).is_some_and(|a| a.next == 0);
            if first {
                a2a.rest(members(Some(artifact)), &["artifactId", "parts"]);
            }
            a2a.opt_value("partMetadata", part.metadata);
            self.emit_part(id, part, artifact, a2a, is_last, task, ctx, at, sink);
        }
        if u.last {
            // Canonical artifacts of this A2A artifact that got no part in the final chunk.
            let slots = self
                .primary
                .get(art_id)
                .map(|p| p.slots.clone())
                .unwrap_or_default();
            for slot in slots {
                if targets.contains(&slot) {
                    continue;
                }
                let Some(a) = self.arts.get_mut(&slot) else {
                    continue;
                };
                if a.closed {
                    continue;
                }
                a.closed = true;
                if a.target == Target::File {
                    let mut e = Obj::event("file-write", ctx, task);
                    e.str("artifactId", &a.id)
                        .str("data", "")
                        .num("index", a.next as f64)
                        .bool("complete", true)
                        .str("timestamp", &at.ts);
                    a.next += 1;
                    sink.event(e.finish());
                }
            }
        }
    }

    /// The canonical event of one part written to canonical artifact `id`.
    #[allow(clippy::too_many_arguments)]
    fn emit_part(
        &mut self,
        id: &str,
        part: &Part<'_, '_>,
        artifact: &Value<'_>,
        mut a2a: Obj,
        is_last: bool,
        task: &str,
        ctx: &str,
        at: &At,
        sink: &mut Sink<'_>,
    ) {
        let target = self.arts.get(id).map_or(Target::File, |a| a.target);
        match target {
            Target::Answer => {
                let Some(t) = self.tasks.get_mut(task) else {
                    return;
                };
                let idx = t.content_next;
                t.content_next += 1;
                let mut e = Obj::event("content-delta", ctx, task);
                e.str("delta", part.text.unwrap_or(""))
                    .num("index", idx as f64)
                    .str("timestamp", &at.ts);
                let mut m = Obj::new();
                m.obj("a2a", a2a);
                e.obj("metadata", m);
                sink.event(e.finish());
                if let Some(a) = self.arts.get_mut(id) {
                    a.next += 1;
                    a.closed |= is_last;
                }
            }
            Target::File => {
                let Some(a) = self.arts.get_mut(id) else {
                    return;
                };
                let mut e = Obj::event("file-write", ctx, task);
                let (data, encoding) = match part.kind {
                    PartKind::Text => (part.text.unwrap_or(""), "utf-8"),
                    _ => (part.bytes.unwrap_or(""), "base64"),
                };
                e.str("artifactId", id)
                    .str("data", data)
                    .num("index", a.next as f64)
                    .bool("complete", is_last)
                    .str("timestamp", &at.ts);
                if a.next == 0 {
                    let name = part.name.or_else(|| get_str(Some(artifact), "name"));
                    let mime = part
                        .mime_type
                        .or_else(|| get_str(get(Some(artifact), "metadata"), "mimeType"))
                        .or((part.kind == PartKind::Text).then_some("text/plain"));
                    e.opt_str("name", name)
                        .opt_str("description", get_str(Some(artifact), "description"))
                        .opt_str("mimeType", mime)
                        .str("encoding", encoding);
                }
                let mut m = Obj::new();
                if let Some(url) = part.url {
                    let scheme = crate::events::url::scheme_of(url);
                    if matches!(scheme.as_str(), "https" | "http") {
                        m.str("url", url);
                    } else {
                        sink.warn(
                            DiagCode::UnsafeUrl,
                            format!(
                                "file {id} is given by a {} URL: kept in metadata.a2a.uri, not as the artifact's url",
                                if scheme.is_empty() { "relative" } else { &scheme }
                            ),
                            "$",
                        );
                    }
                    a2a.str("uri", url);
                }
                m.obj("a2a", a2a);
                e.obj("metadata", m);
                a.next += 1;
                a.closed |= is_last;
                sink.event(e.finish());
            }
            Target::Data => {
                let Some(a) = self.arts.get_mut(id) else {
                    return;
                };
                a.next += 1;
                a.closed |= is_last;
                let mut e = Obj::event("data-write", ctx, task);
                e.str("artifactId", id)
                    .opt_str("name", get_str(Some(artifact), "name"))
                    .opt_str("description", get_str(Some(artifact), "description"));
                match part.data {
                    Some(d @ Value::Object(_)) => e.value("data", d),
                    Some(d) => {
                        let mut w = Obj::new();
                        w.value("value", d);
                        e.obj("data", w)
                    }
                    None => e.raw("data", "{}"),
                };
                e.str("timestamp", &at.ts);
                let mut m = Obj::new();
                m.num("version", a.next as f64);
                m.obj("a2a", a2a);
                e.obj("metadata", m);
                sink.event(e.finish());
            }
        }
    }

    /// Every canonical artifact of A2A artifact `art_id` got its last chunk.
    fn all_closed(&self, art_id: &str) -> bool {
        self.primary.get(art_id).is_some_and(|p| {
            !p.slots.is_empty()
                && p.slots
                    .iter()
                    .all(|s| self.arts.get(s).is_none_or(|a| a.closed))
        })
    }

    /// The track of a canonical artifact, created on first use.
    fn track(&mut self, id: &str, task: &str, ctx: &str, kind: PartKind) {
        if self.arts.contains(id) {
            return;
        }
        let target = match kind {
            PartKind::Data => Target::Data,
            PartKind::File => Target::File,
            PartKind::Text => match self.tasks.get_mut(task) {
                Some(t) if t.answer.is_none() => {
                    t.answer = Some(id.to_owned());
                    Target::Answer
                }
                Some(t) if t.answer.as_deref() == Some(id) => Target::Answer,
                _ => Target::File,
            },
        };
        self.arts.insert(
            id,
            ArtTrack {
                id: id.to_owned(),
                task_id: task.to_owned(),
                context_id: ctx.to_owned(),
                target,
                next: 0,
                closed: false,
            },
        );
    }

    /// `append: false` on a known artifact: its canonical artifacts start over.
    fn replace(&mut self, art_id: &str, sink: &mut Sink<'_>) {
        let slots = match self.primary.get_mut(art_id) {
            Some(p) => {
                p.fp = Fnv::default();
                p.slots.clone()
            }
            None => return,
        };
        for key in slots {
            let Some(a) = self.arts.get_mut(&key) else {
                continue;
            };
            let started = a.next > 0;
            a.closed = false;
            match a.target {
                Target::Answer if started => {
                    a.next = 0;
                    let owner = a.task_id.clone();
                    if let Some(t) = self.tasks.get_mut(&owner) {
                        t.content_next = 0;
                    }
                    sink.step(Step::ResetContent(owner));
                }
                Target::File if started => {
                    a.next = 0;
                    sink.step(Step::ResetArtifact(key));
                }
                // Data artifacts are atomic: the next version replaces the last.
                _ => {}
            }
        }
    }
}

/// One artifact update to apply (from an `artifact-update`, a snapshot or a message's parts).
pub(super) struct Update<'u, 'v, 'a> {
    pub task: &'u str,
    pub ctx: &'u str,
    pub artifact: &'v Value<'a>,
    pub append: bool,
    pub last: bool,
    pub path: &'u str,
}
