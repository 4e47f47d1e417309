//! JSON Pointers (RFC 6901) for [`super`]: parsing (`~0`/`~1` escapes, array indices without
//! leading zeros, `-`) and locating a pointer's target in a document.

use crate::json::Value;
use std::borrow::Cow;

/// Why a pointer does not resolve (turned into a [`super::PatchError`] with the operation's details).
pub(super) enum Miss {
    NotFound,
    BadIndex,
}

/// A parsed pointer: its tokens, unescaped (borrowed when they hold no `~`).
pub(super) type Tokens<'s> = Vec<Cow<'s, str>>;

/// Parses `pointer` into `out` (cleared first: one buffer serves every operation of a patch);
/// `false` when it is not a JSON Pointer.
pub(super) fn parse_pointer<'s>(pointer: &'s str, out: &mut Tokens<'s>) -> bool {
    out.clear();
    if pointer.is_empty() {
        return true;
    }
    if !pointer.starts_with('/') {
        return false;
    }
    // One pass over the bytes (`/` and `~` are ASCII, so every cut is at a character
    // boundary); a token is unescaped only when it holds a `~`.
    let bytes = pointer.as_bytes();
    let mut start = 1;
    let mut tilde = false;
    for i in 1..=bytes.len() {
        match bytes.get(i) {
            Some(b'~') => tilde = true,
            Some(b'/') | None => {
                let token = pointer.get(start..i).unwrap_or_default();
                let token = if tilde {
                    match unescape(token) {
                        Some(t) => Cow::Owned(t),
                        None => return false,
                    }
                } else {
                    Cow::Borrowed(token)
                };
                out.push(token);
                start = i + 1;
                tilde = false;
            }
            Some(_) => {}
        }
    }
    true
}

/// A token holding `~`: `~0` is `~`, `~1` is `/`, any other `~` is an error.
fn unescape(token: &str) -> Option<String> {
    let mut out = String::with_capacity(token.len());
    let mut chars = token.chars();
    while let Some(c) = chars.next() {
        if c == '~' {
            match chars.next() {
                Some('0') => out.push('~'),
                Some('1') => out.push('/'),
                _ => return None,
            }
        } else {
            out.push(c);
        }
    }
    Some(out)
}

/// `token` as an array index: decimal digits, no leading zero (but `0`), no overflow.
pub(super) fn array_index(token: &str) -> Option<usize> {
    let bytes = token.as_bytes();
    if bytes.is_empty() || (bytes.len() > 1 && bytes.first() == Some(&b'0')) {
        return None;
    }
    let mut n: usize = 0;
    for &b in bytes {
        if !b.is_ascii_digit() {
            return None;
        }
        n = n.checked_mul(10)?.checked_add(usize::from(b - b'0'))?;
    }
    Some(n)
}

/// The position of `key` among `entries` as lookups see it (the last one).
pub(super) fn key_position<V>(entries: &[(Cow<'_, str>, V)], key: &str) -> Option<usize> {
    entries
        .iter()
        .rposition(|(k, _)| crate::swar::same(k.as_bytes(), key.as_bytes()))
}

/// The value at `tokens`, read-only.
pub(super) fn locate<'d, 'a>(
    doc: &'d Value<'a>,
    tokens: &[Cow<'_, str>],
) -> Result<&'d Value<'a>, Miss> {
    let mut cur = doc;
    for token in tokens {
        cur = match cur {
            Value::Object(entries) => key_position(entries, token)
                .and_then(|at| entries.get(at))
                .map(|(_, v)| v)
                .ok_or(Miss::NotFound)?,
            Value::Array(items) => items
                .get(item_index(token, items.len())?)
                .ok_or(Miss::NotFound)?,
            _ => return Err(Miss::NotFound),
        };
    }
    Ok(cur)
}

/// The index of an existing element of an array of `len` items named by `token`.
pub(super) fn item_index(token: &str, len: usize) -> Result<usize, Miss> {
    if token == "-" {
        return Err(Miss::NotFound);
    }
    let at = array_index(token).ok_or(Miss::BadIndex)?;
    if at < len {
        Ok(at)
    } else {
        Err(Miss::NotFound)
    }
}

/// The value at `tokens`, for change; the positions passed through are pushed onto `trail`
/// (on error `trail` may hold some of them: the caller truncates it).
pub(super) fn locate_mut<'d, 'a>(
    doc: &'d mut Value<'a>,
    tokens: &[Cow<'_, str>],
    trail: &mut Vec<usize>,
) -> Result<&'d mut Value<'a>, Miss> {
    let mut cur = doc;
    for token in tokens {
        cur = match cur {
            Value::Object(entries) => {
                let at = key_position(entries, token).ok_or(Miss::NotFound)?;
                trail.push(at);
                entries.get_mut(at).map(|(_, v)| v).ok_or(Miss::NotFound)?
            }
            Value::Array(items) => {
                let at = item_index(token, items.len())?;
                trail.push(at);
                items.get_mut(at).ok_or(Miss::NotFound)?
            }
            _ => return Err(Miss::NotFound),
        };
    }
    Ok(cur)
}
