//! Deltas concatenated as JavaScript concatenates them. `JSON.stringify` writes a lone
//! surrogate as an escape, so a server that splits text between the two halves of a surrogate
//! pair (an emoji cut in two deltas) sends `"…\ud83d"` then `"\ude00…"`; JavaScript joins
//! them back into the emoji. The JSON parser turns each lone half into U+FFFD (a Rust string
//! cannot hold one), so the halves are recognised in the event's text and joined here.

use super::table::Table;
use std::borrow::Cow;

/// The high surrogate an escaped string ends with (`…\ud83d"`), if the event's text has one.
fn trailing_high(raw: &str) -> Option<u32> {
    escapes(raw)
        .filter(|&(v, before_quote, _)| before_quote && (0xD800..0xDC00).contains(&v))
        .map(|(v, ..)| v)
        .last()
}

/// The low surrogate an escaped string starts with (`"\ude00…`).
fn leading_low(raw: &str) -> Option<u32> {
    escapes(raw)
        .find(|&(v, _, after_quote)| after_quote && (0xDC00..0xE000).contains(&v))
        .map(|(v, ..)| v)
}

/// Every `\uXXXX` escape in the surrogate range: (value, followed by `"`, preceded by `"`).
fn escapes(raw: &str) -> impl Iterator<Item = (u32, bool, bool)> + '_ {
    let b = raw.as_bytes();
    (0..b.len().saturating_sub(5)).filter_map(move |i| {
        if b.get(i) != Some(&b'\\')
            || b.get(i + 1) != Some(&b'u')
            || (i > 0 && b.get(i - 1) == Some(&b'\\'))
        {
            return None;
        }
        let hex = raw.get(i + 2..i + 6)?;
        let v = u32::from_str_radix(hex, 16)
            .ok()
            .filter(|v| (0xD800..0xE000).contains(v))?;
        Some((
            v,
            b.get(i + 6) == Some(&b'"'),
            i > 0 && b.get(i - 1) == Some(&b'"'),
        ))
    })
}

/// The high surrogates that ended the last delta of each stream (message, tool call), waiting
/// for their low half.
#[derive(Debug, Default)]
pub(crate) struct Surrogates(Table<u32>);

impl Surrogates {
    /// The delta of stream `id` as JavaScript would concatenate it; `raw` is the event's text.
    pub(crate) fn join<'d>(&mut self, id: &str, delta: &'d str, raw: &str) -> Cow<'d, str> {
        let pending = self.0.remove(id);
        if pending.is_none() && !delta.contains('\u{FFFD}') {
            return Cow::Borrowed(delta);
        }
        let mut text = String::with_capacity(delta.len() + 4);
        let mut rest = delta;
        if let Some(hi) = pending {
            match (rest.strip_prefix('\u{FFFD}'), leading_low(raw)) {
                (Some(after), Some(lo)) => {
                    let c = 0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00);
                    text.push(char::from_u32(c).unwrap_or('\u{FFFD}'));
                    rest = after;
                }
                _ => text.push('\u{FFFD}'),
            }
        }
        match (rest.strip_suffix('\u{FFFD}'), trailing_high(raw)) {
            (Some(before), Some(hi)) => {
                text.push_str(before);
                self.0.insert(id, hi);
            }
            _ => text.push_str(rest),
        }
        Cow::Owned(text)
    }

    /// `true` when stream `id` ended on a lone high surrogate (forgotten now): the stream's
    /// last delta should add U+FFFD, what JavaScript shows for it.
    pub(crate) fn take(&mut self, id: &str) -> bool {
        self.0.remove(id).is_some()
    }

    /// `true` when stream `id` ended on a lone high surrogate (kept).
    pub(crate) fn pending(&self, id: &str) -> bool {
        self.0.len() > 0 && self.0.contains(id)
    }

    /// Forgets everything beyond `max` pending streams.
    pub(crate) fn bound(&mut self, max: usize) {
        if self.0.len() > max {
            self.0.clear();
        }
    }
}
