//! Parts, read the same way in both versions.
//!
//! | | v0.3 | v1.0 |
//! |---|---|---|
//! | text | `{"kind":"text","text":…}` | `{"text":…}` |
//! | data | `{"kind":"data","data":{…}}` | `{"data":…}` (any JSON value) |
//! | file by bytes | `{"kind":"file","file":{"bytes":…,"name","mimeType"}}` | `{"raw":…,"filename","mediaType"}` (base64) |
//! | file by URL | `{"kind":"file","file":{"uri":…,"name","mimeType"}}` | `{"url":…,"filename","mediaType"}` |
//!
//! Both carry an optional `metadata` object; v1.0 allows `filename` and `mediaType` on every
//! part.

use super::super::emit::{get_str, Fnv};
use crate::json::Value;

/// The three kinds of part.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum PartKind {
    Text,
    File,
    Data,
}

impl PartKind {
    pub(super) fn as_str(self) -> &'static str {
        match self {
            PartKind::Text => "text",
            PartKind::File => "file",
            PartKind::Data => "data",
        }
    }
}

/// One part, whatever its version: what it holds, by name.
#[derive(Debug, Clone, Copy)]
pub(super) struct Part<'v, 'a> {
    pub kind: PartKind,
    /// The text of a text part.
    pub text: Option<&'v str>,
    /// The base64 bytes of a file part.
    pub bytes: Option<&'v str>,
    /// Where a file part's content lives.
    pub url: Option<&'v str>,
    /// The file name.
    pub name: Option<&'v str>,
    /// The MIME type.
    pub mime_type: Option<&'v str>,
    /// The value of a data part.
    pub data: Option<&'v Value<'a>>,
    /// The part's own metadata.
    pub metadata: Option<&'v Value<'a>>,
}

/// Why a part cannot be read.
pub(super) enum PartError<'v> {
    /// v0.3: a `kind` that is not text, file or data.
    UnknownKind(&'v str),
    /// v0.3: no `kind`; v1.0: none of `text`, `raw`, `url`, `data`.
    NoKind,
    /// The kind's content is missing or of the wrong type (the member, and what it says).
    NoContent(&'static str, &'static str),
}

/// Reads a part of either version (a v0.3 part has `kind`; a v1.0 part has none).
pub(super) fn read<'v, 'a>(p: &'v Value<'a>) -> Result<Part<'v, 'a>, PartError<'v>> {
    let metadata = p.get("metadata");
    if let Some(kind) = p.get("kind") {
        let kind = match kind.as_str() {
            Some("text") => PartKind::Text,
            Some("file") => PartKind::File,
            Some("data") => PartKind::Data,
            Some(other) => return Err(PartError::UnknownKind(other)),
            None => return Err(PartError::NoKind),
        };
        let file = p.get("file");
        let part = Part {
            kind,
            text: get_str(Some(p), "text"),
            bytes: get_str(file, "bytes"),
            url: get_str(file, "uri"),
            name: get_str(file, "name"),
            mime_type: get_str(file, "mimeType"),
            data: p.get("data").filter(|d| !d.is_null()),
            metadata,
        };
        return match kind {
            PartKind::Text if part.text.is_none() => Err(PartError::NoContent(
                "text",
                "a text part without a text string",
            )),
            PartKind::File if part.bytes.is_none() && part.url.is_none() => Err(
                PartError::NoContent("file", "a file part without file.bytes or file.uri"),
            ),
            PartKind::Data if part.data.is_none() => {
                Err(PartError::NoContent("data", "a data part without data"))
            }
            _ => Ok(part),
        };
    }
    let (kind, member) = if p.get("text").is_some() {
        (PartKind::Text, "text")
    } else if p.get("raw").is_some() {
        (PartKind::File, "raw")
    } else if p.get("url").is_some() {
        (PartKind::File, "url")
    } else if p.get("data").is_some() {
        (PartKind::Data, "data")
    } else {
        return Err(PartError::NoKind);
    };
    let part = Part {
        kind,
        text: get_str(Some(p), "text"),
        bytes: get_str(Some(p), "raw"),
        url: get_str(Some(p), "url"),
        name: get_str(Some(p), "filename"),
        mime_type: get_str(Some(p), "mediaType"),
        // A v1.0 data part holds any JSON value, `null` included.
        data: p.get("data"),
        metadata,
    };
    let ok = match member {
        "text" => part.text.is_some(),
        "raw" => part.bytes.is_some(),
        "url" => part.url.is_some(),
        _ => true,
    };
    if ok {
        Ok(part)
    } else {
        Err(PartError::NoContent(
            member,
            match member {
                "text" => "a text part whose text is not a string",
                "raw" => "a file part whose raw bytes are not a base64 string",
                _ => "a file part whose url is not a string",
            },
        ))
    }
}

/// The parts of a message (`None` when `parts` is not an array).
fn message_parts<'v, 'a>(m: Option<&'v Value<'a>>) -> impl Iterator<Item = Part<'v, 'a>> {
    m.and_then(|m| m.get("parts"))
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|p| read(p).ok())
}

/// The text of a message: its text parts joined by newlines, or a `content` string (the
/// seed's own example uses `{ "role": "assistant", "content": "Done!" }`).
pub(super) fn message_text(m: Option<&Value<'_>>) -> Option<String> {
    let texts: Vec<&str> = message_parts(m)
        .filter(|p| p.kind == PartKind::Text)
        .filter_map(|p| p.text)
        .collect();
    if !texts.is_empty() {
        return Some(texts.join("\n"));
    }
    get_str(m, "content")
        .or_else(|| get_str(m, "text"))
        .map(str::to_owned)
}

/// The first data part of a message holding an object (structured details of an input or auth
/// request).
pub(super) fn message_data<'v, 'a>(m: Option<&'v Value<'a>>) -> Option<&'v Value<'a>> {
    message_parts(m)
        .filter(|p| p.kind == PartKind::Data)
        .find_map(|p| p.data.filter(|d| d.as_object().is_some()))
}

/// Adds a part's payload to an artifact fingerprint.
pub(super) fn fingerprint(fp: &mut Fnv, p: &Value<'_>) {
    let Ok(part) = read(p) else {
        return;
    };
    match part.kind {
        PartKind::Text => fp.add(part.text.unwrap_or("").as_bytes()),
        PartKind::File => fp.add(part.bytes.or(part.url).unwrap_or("").as_bytes()),
        PartKind::Data => fp.add(part.data.map(Value::to_json).unwrap_or_default().as_bytes()),
    }
}
